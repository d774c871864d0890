"""What ``benchmarks.attack`` found in the command lines (issue 48): JSON nested too deeply, a
page written over its own record, and ``--json`` paths found bad only after the work. Each is a
usage error now (exit 2, the reason named), and nothing is overwritten."""

from __future__ import annotations

import json

import pytest

DEEP = "[" * 100_000 + "]" * 100_000


def usage_error(capsys, main, argv) -> str:
    with pytest.raises(SystemExit) as e:
        main(argv)
    err = capsys.readouterr().err
    assert e.value.code == 2 and "usage:" in err and "Traceback" not in err, err
    return err


def record(tmp_path, name="rec.json"):
    import cardenvs

    env = cardenvs.make("piquet-v0", episode="deal")
    env.reset(seed=1)
    for _ in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        env.step(None if term or trunc else int(obs["action_mask"].nonzero()[0][0]))
    path = tmp_path / name
    path.write_text(json.dumps(env.unwrapped.record()))
    return path


def test_view__a_page_is_never_written_over_its_record(tmp_path, capsys):
    from cardenvs.ui import view

    src = record(tmp_path)
    before = src.read_text()
    err = usage_error(capsys, view.main, [str(src), "-o", str(src)])
    assert "is the record itself" in err
    named_html = record(tmp_path, "rec.html")  # the default page path is the record's own
    err = usage_error(capsys, view.main, [str(named_html)])
    assert "is the record itself" in err and "give -o" in err
    assert src.read_text() == before and json.loads(named_html.read_text())["game"] == "piquet"


def test_view__a_record_nested_too_deeply_is_a_usage_error(tmp_path, capsys):
    from cardenvs.ui import view

    deep = tmp_path / "deep.json"
    deep.write_text(DEEP)
    assert "nested too deeply" in usage_error(capsys, view.main, [str(deep)])


@pytest.mark.parametrize("program", ["play", "demo", "ppo"])
def test_config_nested_too_deeply_is_a_usage_error(program, tmp_path, capsys):
    if program == "play":
        from cardenvs.ui.play import main

        argv = ["piquet-v0", "--config", DEEP]
    elif program == "demo":
        from cardenvs.ui.demo import main

        argv = ["--config", DEEP]
    else:
        from train.ppo import main

        argv = ["--game", "piquet-v0", "--config", DEEP, "--out", str(tmp_path / "run")]
    err = usage_error(capsys, main, argv)
    assert "nested too deeply" in err and len(err) < 2000  # the value is cut short
    assert not (tmp_path / "run").exists()


def test_evaluate__bad_config_and_json_paths_are_refused_before_the_games(tmp_path, capsys):
    from harness import random_model

    from train import evaluate

    model = str(random_model(tmp_path / "m.npz", "piquet-v0", config={"episode": "deal"}))
    err = usage_error(capsys, evaluate.main, [model, "--config", DEEP, "--n", "1"])
    assert "nested too deeply" in err
    (tmp_path / "adir").mkdir()
    bad = [
        (tmp_path / "missing" / "r.json", "does not exist"),
        (tmp_path / "adir", "is a directory"),
    ]
    for path, why in bad:
        err = usage_error(capsys, evaluate.main, [model, "--n", "1", "--json", str(path)])
        assert why in err and "--json" in err
