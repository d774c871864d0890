"""The documentation holds to the code: generated tables current, code blocks that run, the
package metadata consistent, and no tracked file pointing outside the repository.

Layer 7 of docs/testing.md (around the engine):

- every game page's generated blocks (actions, observation, rewards, config) equal what
  ``cardenvs.docs`` generates from the code now, and every id has a block of every kind; the
  message names the command that fixes a stale page (``python -m cardenvs.docs --write``);
- every ```python block of README.md and docs/**/*.md runs: the blocks of one file in order, in
  one fresh namespace per file, from the repository root. A block opts out only with a line
  ``# doctest: skip (<reason>)``; ```bash blocks are never run;
- LICENSE, CITATION.cff and pyproject.toml agree (licence, version, repository);
- no tracked file mentions the steering folder (its name followed by a slash; see
  ``FORBIDDEN``).

The site itself is built by ``make docs`` (``mkdocs build --strict``), which ``make test`` runs
before pytest.
"""

from __future__ import annotations

import re
import subprocess
import textwrap
import traceback
from pathlib import Path

import pytest

import cardenvs
from cardenvs import docs
from cardenvs.core.game import action_table, reward_table

ROOT = Path(__file__).resolve().parent.parent
SKIP = re.compile(r"^\s*# doctest: skip \((?P<reason>[^)]+)\)\s*$", re.MULTILINE)
FENCE = re.compile(r"^(?P<indent>[ \t]*)```(?P<lang>[\w+-]*)[ \t]*$")
FORBIDDEN = b"shared" + b"/"  # the steering folder, never cited (spelt so this file passes)


# --- generated tables --------------------------------------------------------------------------
def test_docs__every_generated_block_equals_what_the_code_generates():
    stale = docs.stale()
    assert not stale, f"stale generated blocks: {stale}; run `{docs.FIX}`"


def test_docs__every_id_has_an_actions_observation_rewards_and_config_block():
    assert not docs.missing(), f"ids without a generated block: {docs.missing()}"


def test_docs__a_stale_block_is_reported_and_write_fixes_it(tmp_path):
    page = tmp_path / "game.md"
    page.write_text(
        "# A page\n\n<!-- generated: actions esel-v0 -->\nold table\n<!-- end generated -->\n"
        "text after\n",
        encoding="utf-8",
    )
    assert docs.stale(tmp_path) == [f"{page}:3: actions esel-v0"]
    assert docs.write(tmp_path) == [page]
    text = page.read_text(encoding="utf-8")
    assert "old table" not in text and "| 36 | `go` |" in text and text.endswith("text after\n")
    assert docs.stale(tmp_path) == [] and docs.write(tmp_path) == []
    assert docs.main(["--check", "--root", str(tmp_path)]) == 1  # other kinds and ids missing


def test_docs__the_command_line_exits_1_and_names_the_fix_for_a_stale_page(tmp_path, capsys):
    (tmp_path / "p.md").write_text(
        "<!-- generated: config piquet-v0 -->\nx\n<!-- end generated -->\n", encoding="utf-8"
    )
    assert docs.main(["--root", str(tmp_path)]) == 1
    out = capsys.readouterr().out
    assert "stale:" in out and docs.FIX in out


@pytest.mark.parametrize(
    "text, error",
    [
        ("<!-- generated: tables esel-v0 -->\n<!-- end generated -->\n", "unknown block kind"),
        ("<!-- generated: config chess-v0 -->\n<!-- end generated -->\n", "unknown environment"),
        ("<!-- generated: config -->\n<!-- end generated -->\n", "unknown environment"),
        ("<!-- generated: config esel-v0 -->\nno end\n", "without its pair"),
        ("text\n<!-- end generated -->\n", "without its pair"),
    ],
)
def test_docs__a_malformed_block_is_refused_with_its_line(tmp_path, text, error):
    page = tmp_path / "bad.md"
    page.write_text(text, encoding="utf-8")
    with pytest.raises(ValueError, match=error):
        docs.stale(tmp_path)


def test_docs__one_block_for_several_ids_needs_equal_tables():
    assert docs.shared_table("actions", ["piquet-v0", "auction_piquet-v0"])
    with pytest.raises(ValueError, match="differ"):
        docs.shared_table("config", ["piquet-v0", "piquet_au_cent-v0"])


def test_docs__tables_follow_the_code():
    game = cardenvs.game_info("esel-v0")
    text = docs.table("observation", "esel-v0")
    assert f"{game.obs_dim} numbers" in text
    assert all(f"`{f.name}`" in text for f in game.obs_layout)
    config = docs.table("config", "esel-v0")
    assert all(f"`{name}`" in config for name in ("episode", "num_players", "max_hands"))
    assert "| 0–35 | `play 6S`, `play 7S`, …, `play AC` |" in docs.table("actions", "esel-v0")


def test_action_table__refuses_docs_that_do_not_match_the_actions():
    names = ("play 1", "play 2", "play 3", "pass")
    assert "| 0–2 | `play 1`, `play 2`, …, `play 3` | p |" in action_table(
        names, {"play": "p", "pass": "q"}
    )
    with pytest.raises(ValueError, match=r"no text for \['pass'\]"):
        action_table(names, {"play": "p"})
    with pytest.raises(ValueError, match=r"no action for \['bid'\]"):
        action_table(names, {"play": "p", "pass": "q", "bid": "r"})


def test_reward_table__needs_every_episode_and_reward_pair():
    rows = [("game", "win", "a"), ("game", "score", "b"), ("deal", "win", "c")]
    with pytest.raises(ValueError, match=r"\('deal', 'score'\)"):
        reward_table(rows)
    with pytest.raises(ValueError, match="episode must be one of"):
        reward_table([*rows, ("hand", "score", "d")])
    text = reward_table([*rows, ("deal", "score", "d|e")])
    assert '| `"game"` (default) | `"win"` (default) | a |' in text and "d\\|e" in text


# --- code blocks -------------------------------------------------------------------------------
def python_blocks(path: Path) -> list[tuple[int, str]]:
    """The ```python blocks of a Markdown file: (line of the fence, dedented code)."""
    blocks, lines = [], path.read_text(encoding="utf-8").splitlines()
    i = 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if m and m["lang"]:
            end = next(
                (j for j in range(i + 1, len(lines)) if lines[j].strip() == "```"), len(lines)
            )
            if end == len(lines):
                raise ValueError(f"{path}:{i + 1}: a ```{m['lang']} block is never closed")
            if m["lang"] == "python":
                blocks.append((i + 1, textwrap.dedent("\n".join(lines[i + 1 : end]))))
            i = end
        i += 1
    return blocks


def markdown_files() -> list[Path]:
    return [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]


def run_blocks(path: Path) -> int:
    """Run the python blocks of ``path`` in order in one namespace; the number run."""
    namespace: dict = {"__name__": f"docs_{path.stem}"}
    ran = 0
    for line, code in python_blocks(path):
        skip = SKIP.search(code)
        if skip:
            continue
        if "doctest: skip" in code:
            raise ValueError(f"{path}:{line}: write '# doctest: skip (<reason>)' to skip a block")
        exec(compile(code, f"{path}:{line}", "exec"), namespace)  # noqa: S102
        ran += 1
    return ran


FILES_WITH_CODE = [p for p in markdown_files() if python_blocks(p)]


@pytest.mark.parametrize("path", FILES_WITH_CODE, ids=lambda p: str(p.relative_to(ROOT)))
def test_docs__every_python_block_runs(path, monkeypatch, capsys):
    monkeypatch.chdir(ROOT)
    assert run_blocks(path) > 0


def test_docs__every_readme_example_says_what_happened(monkeypatch, capsys):
    """Each README block prints a sentence a newcomer can read (the batched example printed
    nothing, the zoo one only "trump C": issue 52, item 7)."""
    monkeypatch.chdir(ROOT)
    namespace: dict = {"__name__": "docs_readme"}
    blocks = python_blocks(ROOT / "README.md")
    assert len(blocks) >= 3
    for line, code in blocks:
        exec(compile(code, f"README.md:{line}", "exec"), namespace)  # noqa: S102
        out = capsys.readouterr().out.strip()
        assert len(out.split()) >= 4, f"README.md:{line} prints {out!r}"


CHECKOUT_ONLY = re.compile(
    r"^\s*(?:from (?:agents|benchmarks)\b|python -m (?:agents|benchmarks)\.)", re.MULTILINE
)


@pytest.mark.parametrize("name", ["docs/guides/agents.md", "docs/guides/benchmarks.md"])
def test_docs__the_guides_whose_snippets_import_the_checkout_say_where_they_run(name):
    """``agents`` and ``benchmarks`` are folders of the checkout, not of the package: the
    guides whose snippets and commands use them say that these run from the repository root
    (issue 52, item 7)."""
    text = (ROOT / name).read_text(encoding="utf-8")
    assert CHECKOUT_ONLY.search(text), f"{name} no longer uses agents or benchmarks"
    assert "run from the repository root" in text, f"{name} does not say where its snippets run"


def test_docs__the_readme_and_the_guides_have_code_to_run():
    names = {str(p.relative_to(ROOT)) for p in FILES_WITH_CODE}
    assert {"README.md", "docs/index.md", "docs/guides/aec.md"} <= names
    assert {"docs/guides/batched.md", "docs/guides/records.md"} <= names


def test_docs__blocks_are_extracted_in_order_bash_is_not_run_and_a_failure_names_its_line(
    tmp_path,
):
    page = tmp_path / "page.md"
    page.write_text(
        "text\n\n```python\nx = 1\n```\n\n```bash\nexit 1\n```\n\n"
        "- a list\n\n  ```python\n  x += 1\n  ```\n\n"
        "```python\n# doctest: skip (needs a GPU)\nraise SystemExit\n```\n\n"
        "```python\nassert x == 2\nraise RuntimeError('boom')\n```\n",
        encoding="utf-8",
    )
    blocks = python_blocks(page)
    assert [line for line, _ in blocks] == [3, 13, 17, 22]
    assert blocks[1][1] == "x += 1"
    with pytest.raises(RuntimeError, match="boom") as info:
        run_blocks(page)
    files = [frame.filename for frame in traceback.extract_tb(info.value.__traceback__)]
    assert f"{page}:22" in files


def test_docs__a_skip_without_a_reason_is_refused(tmp_path):
    page = tmp_path / "page.md"
    page.write_text("```python\n# doctest: skip\nraise SystemExit\n```\n", encoding="utf-8")
    with pytest.raises(ValueError, match="reason"):
        run_blocks(page)


def test_docs__make_docs_builds_strictly_and_make_test_builds_the_site():
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    build = [line for line in makefile.splitlines() if "mkdocs build" in line]
    assert build and all("--strict" in line for line in build), build
    # mkdocs's --quiet hides the warnings that --strict counts, so a broken link would pass
    assert not any("--quiet" in line or " -q" in line for line in build), build
    # make test builds the site: "docs" a prerequisite of test, or a goal of a $(MAKE) in its recipe
    rule = makefile[makefile.index("\ntest:") :].split("\n\n", 1)[0]
    head, *recipe = rule.strip().splitlines()
    made = [w for line in recipe if "$(MAKE)" in line for w in line.split()]
    assert "docs" in head.split(":", 1)[1].split() or "docs" in made, rule


def test_docs__the_home_page_says_how_to_quiet_material_s_end_of_life_banner():
    """``mkdocs`` run by hand prints Material's end-of-life banner; the page that discusses the
    choice of Material says how ``make docs`` quiets it (issue 52, item 8)."""
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    index = (ROOT / "docs" / "index.md").read_text(encoding="utf-8")
    assert "NO_MKDOCS_2_WARNING=1" in makefile
    assert "NO_MKDOCS_2_WARNING=1" in index and "end of life" in index


# --- metadata ----------------------------------------------------------------------------------
def test_docs__license_citation_and_pyproject_agree():
    tomllib = pytest.importorskip("tomllib")
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    citation = (ROOT / "CITATION.cff").read_text(encoding="utf-8")

    def field(name: str) -> str:
        m = re.search(rf'^{name}: "?([^"\n]+)"?$', citation, re.MULTILINE)
        assert m, f"CITATION.cff has no {name}"
        return m[1]

    assert field("cff-version") == "1.2.0"
    assert field("version") == project["version"] == cardenvs.__version__
    assert field("license") == project["license"] == "Apache-2.0"
    assert "LICENSE" in project["license-files"]
    license_text = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert "Apache License" in license_text and "Version 2.0, January 2004" in license_text
    assert "END OF TERMS AND CONDITIONS" in license_text


# the project has no public repository or site yet: the addresses once written here were
# placeholders for ones that do not exist (issue 52, item 8)
PLACEHOLDERS = ("cardenvs.github.io", "github.com/cardenvs")
TESTED_PYTHONS = {"3.11"}  # the versions CI runs the tests with
PETTINGZOO_MAKE = (1, 27)  # the first release with pettingzoo.make and register: 1.26.1 has none


def test_docs__metadata_and_site_config_point_to_no_placeholder_address():
    for name in ("pyproject.toml", "CITATION.cff", "mkdocs.yml"):
        text = (ROOT / name).read_text(encoding="utf-8")
        assert not [p for p in PLACEHOLDERS if p in text], f"{name} names a placeholder address"


def test_docs__the_python_versions_claimed_are_the_tested_ones():
    tomllib = pytest.importorskip("tomllib")
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    prefix = "Programming Language :: Python :: 3."
    claimed = {c.rsplit(" ", 1)[1] for c in project["classifiers"] if c.startswith(prefix)}
    assert claimed == TESTED_PYTHONS
    lowest = min(TESTED_PYTHONS, key=lambda v: tuple(map(int, v.split("."))))
    assert project["requires-python"] == f">={lowest}"


def test_docs__every_pettingzoo_requirement_has_pettingzoo_make():
    tomllib = pytest.importorskip("tomllib")
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    specs = [project["dependencies"], *project["optional-dependencies"].values()]
    bounds = [
        m["v"]
        for spec in specs
        for req in spec
        if (m := re.fullmatch(r"pettingzoo(\[[\w,]+\])?>=(?P<v>[\d.]+)", req))
    ]
    found = [req for spec in specs for req in spec if req.startswith("pettingzoo")]
    assert len(bounds) == len(found) >= 1, found  # each one with a lower bound
    assert all(tuple(map(int, v.split("."))) >= PETTINGZOO_MAKE for v in bounds), bounds


def test_docs__no_tracked_file_mentions_the_steering_folder():
    """Every file git tracks, or every file of the tree (build outputs and caches aside) where
    this is not a git checkout."""
    try:
        out = subprocess.run(
            ["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True
        ).stdout
        files = [ROOT / name for name in out.decode().split("\0") if name]
    except (OSError, subprocess.CalledProcessError):
        skip = {".venv", ".git", "site", "runs", "build", "__pycache__", ".pytest_cache"}
        files = [p for p in ROOT.rglob("*") if not skip & set(p.relative_to(ROOT).parts)]
    assert files, "no file found to check"
    hits = [str(p.relative_to(ROOT)) for p in files if p.is_file() and FORBIDDEN in p.read_bytes()]
    assert not hits, f"tracked files mention {FORBIDDEN.decode()!r}: {hits}"
