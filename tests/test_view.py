"""The replay viewer (``cardenvs.view``): a record of every id (one deal played by random legal
agents) written as a page, opened in headless Chromium and stepped to the end by clicking
"next" with no console error; pages that load nothing from the network; a seat's page that never
holds a card that seat had not seen; the scenes, the log, the notebook form and the command
line. One browser for the module (``tests/browser.py``; it fails, not skips, without Chromium).
Pages and screenshots go to tests/artifacts/.
"""

from __future__ import annotations

import json
import re

import numpy as np
import pytest
from browser import ARTIFACTS, chrome, data, errors

import cardenvs
from cardenvs.core.scene import check_scene, face_up
from cardenvs.ui import view
from cardenvs.ui.events import events

#: the config of each id's record: one deal; more seats where a game has a choice (the layouts)
CONFIGS = {i: {"episode": "deal"} for i in cardenvs.GAMES}
CONFIGS["banque-v0"] |= {"num_players": 3}
CONFIGS["four_aces-v0"] |= {"num_players": 5}
DATA_RE = re.compile(r'<script type="application/json" id="cardenvs-data">(.*?)</script>', re.S)


def play(env_id: str, seed: int = 0, stop_after=None, **config) -> dict:
    """The record of a game of random legal moves (``stop_after``: that many actions)."""
    env = cardenvs.make(env_id, **config)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    n = 0
    while env.unwrapped.legal_actions() and (stop_after is None or n < stop_after):
        env.step(int(rng.choice(env.unwrapped.legal_actions())))
        n += 1
    return env.unwrapped.record()


@pytest.fixture(scope="module")
def records() -> dict:
    return {i: play(i, 0, **c) for i, c in CONFIGS.items()}


@pytest.fixture(scope="module")
def driver():
    d = chrome()
    yield d
    d.quit()


def embedded(page: str) -> tuple[str, dict]:
    """The JSON text a page embeds and its value."""
    m = DATA_RE.search(page)
    assert m, "the page has no #cardenvs-data element"
    return m.group(1), json.loads(m.group(1))


def decode(d: dict, row: list) -> dict:
    """A scene of the page's data (viewer.js's decode)."""
    return {
        k: [d["pool"][r] for r in row[i]] if k in ("seats", "piles") else d["pool"][row[i]]
        for i, k in enumerate(d["keys"])
    }


@pytest.mark.parametrize("env_id", cardenvs.GAMES)
def test_view__every_id_steps_to_the_end_in_chromium(env_id, records, driver):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import Select

    record = records[env_id]
    n = sum(len(d["actions"]) for d in record["deals"])
    ARTIFACTS.mkdir(exist_ok=True)
    path = ARTIFACTS / f"view-{env_id}.html"
    path.write_text(view.html(record), encoding="utf-8")
    errors(driver)  # clear the log
    driver.get(path.resolve().as_uri())
    assert data(driver, "step") == "0" and data(driver, "last") == str(n)
    nxt = driver.find_element(By.ID, "next")
    for k in range(1, n + 1):
        nxt.click()
        if k == n // 2:  # a seat's view half way, one step back and on by key
            Select(driver.find_element(By.ID, "view")).select_by_index(2)
            body = driver.find_element(By.TAG_NAME, "body")
            body.send_keys(Keys.ARROW_LEFT)
            assert data(driver, "step") == str(k - 1)
            body.send_keys(Keys.ARROW_RIGHT)
            driver.save_screenshot(str(ARTIFACTS / f"view-{env_id}-seat1.png"))
            Select(driver.find_element(By.ID, "view")).select_by_index(0)
        assert data(driver, "step") == str(k)
    assert not nxt.is_enabled(), "'next' is still enabled at the last step"
    banner = driver.find_elements(By.CSS_SELECTOR, ".banner")
    assert banner and "GAME OVER" in banner[0].text, "the last step does not say the game is over"
    log = driver.find_element(By.ID, "log").text
    assert "game over:" in log
    cards = driver.find_elements(By.CSS_SELECTOR, ".card[data-card]")
    assert cards, "no face-up card drawn at the end"
    driver.save_screenshot(str(ARTIFACTS / f"view-{env_id}.png"))
    assert errors(driver) == []


def test_view__the_slider_play_and_the_notebook_form(records, driver, tmp_path):
    """Scrubbing jumps to a step, play runs to the end, and ``Replay``'s HTML (an iframe, as a
    notebook shows it) works in the browser."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select, WebDriverWait

    record = records["piquet-v0"]
    n = sum(len(d["actions"]) for d in record["deals"])
    page = tmp_path / "notebook.html"
    page.write_text(f"<!DOCTYPE html><html><body>{view.Replay(record)._repr_html_()}</body></html>")
    errors(driver)
    driver.get(page.as_uri())
    driver.switch_to.frame(driver.find_element(By.TAG_NAME, "iframe"))
    slider = driver.find_element(By.ID, "scrub")
    driver.execute_script(
        "arguments[0].value = 7; arguments[0].dispatchEvent(new Event('input'));", slider
    )
    assert data(driver, "step") == "7"
    Select(driver.find_element(By.ID, "speed")).select_by_visible_text("very fast")
    driver.find_element(By.ID, "play").click()
    WebDriverWait(driver, 30).until(lambda d: data(d, "step") == str(n))
    assert "play" in driver.find_element(By.ID, "play").text  # stopped at the end
    driver.switch_to.default_content()
    assert errors(driver) == []


@pytest.mark.parametrize("env_id", cardenvs.GAMES)
def test_view__pages_load_nothing_from_the_network(env_id, records):
    for seat in (None, 1):
        page = view.html(records[env_id], seat)
        assert "http://" not in page and "https://" not in page
        for attr in re.findall(r"""(?:src|href)\s*=\s*["']?([^"'\s>]*)""", page):
            assert attr.startswith("data:"), f"the page loads {attr!r}"
        for word in ("@import", "url(", "fetch(", "XMLHttpRequest", "WebSocket"):
            assert word not in page, word


@pytest.mark.parametrize("env_id", cardenvs.GAMES)
def test_view__a_seat_page_never_holds_a_card_that_seat_had_not_seen(env_id, records):
    """Every card named in a seat's page (scenes, log, anything) was face up in that seat's
    scenes by then: a log line at step k names only cards the seat had seen by step k, and a
    card the seat never saw (the others' hands, hidden discards, the stock) is nowhere."""
    record = records[env_id]
    seats = len(record["deals"][0]["points"])
    hidden_somewhere = 0
    for seat in range(seats):
        text, d = embedded(view.html(record, seat))
        assert [v["seat"] for v in d["views"]] == [seat]
        assert "deck" not in text and "deals" not in d
        shown = [decode(d, row) for row in d["views"][0]["scenes"]]
        open_scenes = view.scenes(record)
        seen_by = []
        seen: set[str] = set()
        for k, scene in enumerate(shown):
            assert scene["viewer"] == seat
            seen |= set(face_up(scene))
            seen_by.append(set(seen))
            hidden_somewhere += len(set(face_up(open_scenes[k])) - seen)
        for entry in d["views"][0]["log"]:
            named = set(view.CARD_RE.findall(entry["text"]))
            assert named <= seen_by[entry["step"]], (seat, entry)
        never = set(view.CARD_RE.findall(text)) - seen
        assert not never, f"player_{seat}'s page names cards it never saw: {sorted(never)}"
    assert hidden_somewhere, "no card was ever hidden from a seat: the test checks nothing"


def test_view__the_log_masks_a_hidden_discard():
    """Piquet's discards are hidden from the other seat: its log says "a card" where the open
    view's log names the card; trick winners are entries of kind "trick" (shown in gold)."""
    record = play("piquet-v0", 0, episode="deal")
    logs = {}
    for seat in (None, 0, 1):
        _, d = embedded(view.html(record, seat))
        logs[seat] = d["views"][0]["log"]
    texts = {seat: [e["text"] for e in log] for seat, log in logs.items()}
    discards = [t for t in texts[None] if re.fullmatch(r"player_0 discards \S+", t)]
    assert discards and all(view.CARD_RE.search(t) for t in discards)
    assert [t for t in texts[0] if t in discards] == discards  # the discarding seat sees them
    masked = [t for t in texts[1] if t == "player_0 discards a card"]
    assert len(masked) == len(discards)
    tricks = [e for e in logs[1] if e["kind"] == "trick"]
    assert tricks and all(
        re.fullmatch(r"player_\d wins the (last )?trick \(\S+\)", e["text"]) for e in tricks
    )
    assert [e["kind"] for e in logs[1]][-1] == "result"


def test_view__the_log_is_core_events_of_every_step():
    """One sentence builder: every view's log holds, step by step, what ``ui.events`` tells
    from that view's side given the record as it stood after the step (``record_after`` equals
    the live ``record()``); a game of several deals, with step numbers."""
    env = cardenvs.make("piquet_au_cent-v0", max_deals=2)
    env.reset(seed=4)
    core = env.unwrapped
    rng = np.random.default_rng(4)
    told = {None: [], 1: []}
    start = core.record()
    lives = []
    while core.legal_actions():
        actor = core.agent_name_mapping[env.agent_selection]
        action = int(rng.choice(core.legal_actions()))
        before = {v: core.scene(v) for v in told}
        env.step(action)
        lives.append(core.record())
        for v in told:
            told[v] += [
                (len(lives), x)
                for x in events(
                    before[v],
                    core.scene(v),
                    actor,
                    core.action_name(action),
                    v,
                    record=lives[-1],
                    you=False,
                )
            ]
    record = core.record()
    assert len(record["deals"]) == 2
    assert view.record_after(record, 0) == start
    for k, live in enumerate(lives, 1):
        assert view.record_after(record, k) == live, k
    for v in told:
        _, d = embedded(view.html(record, v))
        log = d["views"][0]["log"]
        assert log[0]["step"] == 0 and log[0]["kind"] == "start"
        assert [(e["step"], e["text"]) for e in log[1:]] == told[v]
        assert sum(e["kind"] == "deal" for e in log) == 2
        ends = [e["text"] for e in log if e["kind"] == "result"]
        assert ends[0].startswith("game over: ") and "limit of 2 deals" in ends[1], ends
    with pytest.raises(ValueError, match=r"n must be a number of actions in 0\.\."):
        view.record_after(record, len(lives) + 1)


@pytest.mark.parametrize("env_id", ["esel-v0", "four_aces-v0"])
def test_view__scenes_follow_the_record(env_id, records):
    record = records[env_id]
    n = sum(len(d["actions"]) for d in record["deals"])
    seq = view.scenes(record)
    assert len(seq) == n + 1
    for s in seq:
        check_scene(s)
    assert not seq[0]["over"] and seq[-1]["over"]
    assert seq[-1]["result"] is not None
    mine = view.scenes(record, seat=1)
    assert len(mine) == n + 1 and all(s["viewer"] == 1 for s in mine)
    assert any(c is None for s in mine for seat in s["seats"] for c in seat["hand"])
    assert all(c is not None for s in seq for seat in s["seats"] for c in seat["hand"])
    line = view.timeline(seq)
    assert len(line) == n + 1 and all(len(r) == len(seq[0]["seats"]) for r in line)


def test_view__unfinished_and_illegal_endings_are_told():
    part = play("esel-v0", 1, stop_after=9, episode="deal")
    assert part["result"] is None
    _, d = embedded(view.html(part))
    assert len(d["views"][0]["scenes"]) == 10
    assert d["views"][0]["log"][-1]["text"] == "the record ends here: the game is unfinished"
    env = cardenvs.make("piquet-v0", episode="deal")
    env.reset(seed=2)
    legal = env.unwrapped.legal_actions()
    env.step(next(a for a in range(env.unwrapped.game.num_actions) if a not in legal))
    _, d = embedded(view.html(env.unwrapped.record()))
    assert "made an illegal move" in d["views"][0]["log"][-1]["text"]


def test_view__a_bad_record_or_seat_is_a_clear_error(records):
    record = records["piquet-v0"]
    with pytest.raises(ValueError, match="record has no 'deals' field"):
        view.html({k: v for k, v in record.items() if k != "deals"})
    broken = json.loads(json.dumps(record))
    broken["deals"][0]["actions"][0][1] = "fly away"
    with pytest.raises(ValueError, match="not an action of piquet-v0"):
        view.scenes(broken)
    with pytest.raises(ValueError, match=r"seat in 0\.\.1"):
        view.html(record, seat=2)
    with pytest.raises(ValueError, match=r"seat in 0\.\.1"):
        view.Replay(record, seat=-1)


def test_view__the_command_line(records, tmp_path, capsys):
    src = tmp_path / "game.json"
    src.write_text(json.dumps(records["esel-v0"]))
    view.main([str(src), "--seat", "2"])
    out = tmp_path / "game.html"
    assert out.exists() and str(out) in capsys.readouterr().out
    _, d = embedded(out.read_text())
    assert [v["seat"] for v in d["views"]] == [2]
    view.main([str(src), "-o", str(tmp_path / "all.html")])
    _, d = embedded((tmp_path / "all.html").read_text())
    assert [v["seat"] for v in d["views"]] == [None, 0, 1, 2, 3]
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    for argv, message in (
        ([str(bad)], "is not JSON"),
        ([str(tmp_path / "missing.json")], "cannot read the record"),
        ([str(src), "--seat", "4"], r"seat in 0\.\.3"),
    ):
        with pytest.raises(SystemExit) as e:
            view.main(argv)
        assert e.value.code == 2
        assert re.search(message, capsys.readouterr().err), argv


@pytest.mark.parametrize(
    ("case", "message"),
    [
        ("not utf-8", r"latin\.json' is not UTF-8 text .*byte 0xe9.*a record is JSON in UTF-8"),
        ("-o missing dir", r"-o .*g\.html' cannot be written: its directory .*no' does not exist"),
        ("-o a dir", r"-o .*pages' is a directory: give -o the path of the HTML file to write"),
    ],
    ids=["not-utf-8", "-o-missing-dir", "-o-a-dir"],
)
def test_view__a_bad_record_file_or_output_path_is_a_usage_error(
    case, message, records, tmp_path, capsys
):
    """Issue 48, item 12: a record that is not UTF-8, ``-o`` into a missing directory or onto a
    directory exit with argparse's usage error naming the path and what is allowed (they were
    ``UnicodeDecodeError``, ``FileNotFoundError`` and ``IsADirectoryError`` tracebacks); nothing
    is written."""
    src = tmp_path / "game.json"
    src.write_text(json.dumps(records["esel-v0"]))
    latin = tmp_path / "latin.json"
    latin.write_bytes(b'{"game": "caf\xe9"}')
    (tmp_path / "pages").mkdir()
    argv = {
        "not utf-8": [str(latin)],
        "-o missing dir": [str(src), "-o", str(tmp_path / "no" / "g.html")],
        "-o a dir": [str(src), "-o", str(tmp_path / "pages")],
    }[case]
    with pytest.raises(SystemExit) as e:
        view.main(argv)
    err = capsys.readouterr().err
    assert e.value.code == 2 and "usage: python -m cardenvs.view" in err
    assert re.search(message, err), err
    assert not (tmp_path / "no").exists() and list((tmp_path / "pages").iterdir()) == []
    assert sorted(f.name for f in tmp_path.iterdir()) == ["game.json", "latin.json", "pages"]


# --- what a seat's page may hold (issue 48, items 3 and 9) ---------------------------------------
def _first_deck(env, seed: int, episode: int) -> list[str]:
    env.reset(seed=seed, options={"episode": episode})
    return env.unwrapped.record()["deals"][0]["deck"]


def test_view__a_seat_page_holds_nothing_that_re_deals_the_hidden_cards():
    """Everything a seat's page holds, tried as a seed: every integer in it (the JSON, the HTML
    and the scripts alike), with the record's episode given for free and with episode 0, never
    re-deals the record's deck; the deck and the others' hands are not in it as card strings, and
    neither the seed, the episode nor the config is embedded. The open page (every card shown
    anyway) does hold the seed: the same search finds the deal there, so the search works."""
    seed = 48_123_457
    env = cardenvs.make("piquet-v0", episode="deal")
    env.reset(seed=seed)
    env.reset()
    env.reset()  # the seed's third game: the record has episode 2
    rng = np.random.default_rng(3)
    while env.unwrapped.legal_actions():
        env.step(int(rng.choice(env.unwrapped.legal_actions())))
    record = env.unwrapped.record()
    assert record["episode"] == 2 and record["result"] is not None
    deck = record["deals"][0]["deck"]
    probe = cardenvs.make("piquet-v0", episode="deal")

    def re_deals(page: str) -> list[int]:
        numbers = {int(x) for x in re.findall(r"\d+", page)}
        return sorted(
            s
            for s in numbers
            if s <= 2**63 - 1
            and any(_first_deck(probe, s, e) == deck for e in {0, record["episode"]})
        )

    assert re_deals(view.html(record)) == [seed]
    seats = len(record["deals"][0]["points"])
    for seat in range(seats):
        page = view.html(record, seat)
        assert re_deals(page) == [], f"player_{seat}'s page holds the seed"
        text, d = embedded(page)
        for key in ("seed", "config", "episode", "deals", "deck"):
            assert key not in d, key
        assert f"seed {seed}" not in page and "game 3 of the seed" not in page
        assert json.dumps(deck) not in page and ",".join(deck) not in page
        shown = [decode(d, row) for row in d["views"][0]["scenes"]]
        seen = set().union(*(face_up(s) for s in shown))
        hidden = set(deck) - seen
        assert hidden, "every card was seen: the test checks nothing"
        assert not hidden & set(view.CARD_RE.findall(text)), seat  # the embedded data


def test_view__script_json_escapes_what_would_end_or_comment_the_script():
    """``<``, ``>``, ``&``, U+2028 and U+2029 as ``\\uXXXX`` escapes: the text is JSON (before:
    ``<\\!--``, not a JSON escape) that never holds ``</script`` or ``<!--``; it reads back
    equal."""
    value = {"t": "a <!-- b </script> c <script> & d \u2028 e \u2029 f </SCRIPT"}
    text = view.script_json(value)
    assert json.loads(text) == value
    for bad in ("<", ">", "&", "\u2028", "\u2029"):
        assert bad not in text, bad


def test_view__a_page_whose_data_holds_comment_and_script_tags_renders(records, driver, tmp_path):
    """A page whose embedded data holds ``<!--`` and ``</script>`` in a string (a log line here)
    loads in Chromium: the viewer starts (before: a blank page, ``SyntaxError: Bad escaped
    character`` from JSON.parse), steps, and shows the string as text."""
    from selenium.webdriver.common.by import By

    record = records["piquet-v0"]
    n = sum(len(d["actions"]) for d in record["deals"])
    d = view.data(record)
    odd = "player_0 says <!-- hello --> </script><script>document.title='x'</script> & \u2028"
    for v in d["views"]:
        v["log"][1]["text"] = odd
    body = view.VIEWER_BODY.replace("{about}", "about")
    page = view.page("odd", body, d, view.asset("viewer.js"))
    text, back = embedded(page)
    assert back == json.loads(json.dumps(d)) and "<!--" not in text
    path = tmp_path / "odd.html"
    path.write_text(page, encoding="utf-8")
    errors(driver)
    driver.get(path.as_uri())
    assert data(driver, "step") == "0" and data(driver, "last") == str(n)
    driver.find_element(By.ID, "next").click()
    assert data(driver, "step") == "1"
    assert odd.replace("\u2028", "").strip() in driver.find_element(By.ID, "log").text.replace(
        "\u2028", ""
    )
    assert driver.title == "odd"
    assert errors(driver) == []


def test_view__equal_scores_draw_lines_that_stay_apart_and_apart_in_the_legend(records, driver):
    """The score chart of a five-seat game: at the first step every score is 0, and each seat's
    line starts more than a stroke's width from the others and has its own dashes, so none
    hides another where scores are equal (issue 52, item 8); the legend shows the dashes too."""
    from selenium.webdriver.common.by import By

    record = records["four_aces-v0"]  # five seats (CONFIGS)
    page = ARTIFACTS / "view-chart.html"
    ARTIFACTS.mkdir(exist_ok=True)
    page.write_text(view.html(record), encoding="utf-8")
    driver.get(page.resolve().as_uri())
    lines = driver.find_elements(By.CSS_SELECTOR, "#chart polyline")
    assert len(lines) == 5
    seen = []
    for line in lines:
        width = float(line.get_attribute("stroke-width"))
        first = line.get_attribute("points").split()[0]  # step 0: score 0
        seen.append((line.get_attribute("stroke-dasharray"), float(first.split(",")[1])))
    assert len({dash for dash, _ in seen}) == len(seen), seen
    ys = sorted(y for _, y in seen)
    assert all(ys[i + 1] - ys[i] > width for i in range(len(ys) - 1)), ys
    keys = driver.find_elements(By.CSS_SELECTOR, "#chart .legend i")
    styles = [k.value_of_css_property("border-top-style") for k in keys]
    assert len(keys) == len(seen) and styles.count("dashed") == len(seen) - 1, styles
