"""The documentation site opens from files: every link of the navigation of ``site/index.html``
opened as ``file://`` lands on a page of the site, not on a directory listing (issue 52, item 4).

The site is built into a temporary folder (``mkdocs build --strict -d TMP``, seconds: it imports
nothing) and walked in headless Chromium (tests/browser.py).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from browser import chrome

ROOT = Path(__file__).resolve().parent.parent
MKDOCS = Path(sys.executable).with_name("mkdocs")

NAV_LINKS = (
    "return [...document.querySelectorAll('nav.md-nav--primary a.md-nav__link[href]')]"
    ".map(a => a.href);"
)
IS_PAGE = "return !!document.querySelector('article.md-content__inner');"


def build(site: Path) -> None:
    out = subprocess.run(
        [str(MKDOCS), "build", "--strict", "-d", str(site)],
        cwd=ROOT,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
        capture_output=True,
        text=True,
    )
    assert out.returncode == 0, out.stdout + out.stderr


def test_site__every_navigation_link_opened_from_files_lands_on_a_page(tmp_path):
    site = tmp_path / "site"
    build(site)
    driver = chrome()
    try:
        driver.get((site / "index.html").as_uri())
        links = list(dict.fromkeys(driver.execute_script(NAV_LINKS)))
        assert len(links) >= 30, links  # every page of mkdocs.yml's nav, and the home's headings
        assert all(link.startswith("file://") for link in links), links
        broken = []
        for link in links:
            driver.get(link)
            if not driver.execute_script(IS_PAGE):
                broken.append(f"{link} ({driver.title})")
        assert not broken, f"{len(broken)} of {len(links)} links are no page: {broken}"
    finally:
        driver.quit()


def test_site__the_home_page_says_how_to_search():
    """Search needs a server (its worker is refused from files): the site says so."""
    text = (ROOT / "docs" / "index.md").read_text(encoding="utf-8")
    assert "site/index.html" in text and "mkdocs serve" in text and "http.server" in text
