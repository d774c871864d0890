"""Headless Chromium for the browser tests (tests/test_view.py, tests/test_web.py).

``chrome()`` starts the distribution's ``chromium`` through its ``chromedriver`` (Debian's
``chromium`` and ``chromium-driver`` packages, which ``make test`` installs) with Selenium, its
console log kept (``driver.get_log("browser")``). When either is missing the test FAILS with what
to install: these tests are never skipped. Screenshots and pages go to ``ARTIFACTS``
(tests/artifacts/, ignored by git).
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

ARTIFACTS = Path(__file__).parent / "artifacts"
WINDOW = (1000, 1200)  # the page (960 px wide, the table 640 px high) with its controls


def chrome():
    """A headless Chromium WebDriver (the caller quits it)."""
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
    except ImportError:
        pytest.fail("selenium is not installed: pip install -e '.[dev]' (make test does it)")
    binary = shutil.which("chromium") or shutil.which("chromium-browser")
    driver = shutil.which("chromedriver")
    if binary is None or driver is None:
        pytest.fail(
            "headless Chromium is needed for the browser tests: `make test` installs it "
            "(apt-get install chromium chromium-driver); missing: "
            + ", ".join(n for n, p in (("chromium", binary), ("chromedriver", driver)) if not p)
        )
    opts = webdriver.ChromeOptions()
    opts.binary_location = binary
    for arg in (
        "--headless=new",
        "--no-sandbox",  # root in containers and CI
        "--disable-dev-shm-usage",
        "--disable-gpu",
        "--disable-extensions",
        "--no-first-run",
        f"--window-size={WINDOW[0]},{WINDOW[1]}",
    ):
        opts.add_argument(arg)
    opts.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    # an explicit driver: Selenium Manager (which would look for drivers online) is not used
    return webdriver.Chrome(options=opts, service=Service(driver))


def errors(driver) -> list[dict]:
    """The console entries at level SEVERE since the last call (errors, uncaught exceptions,
    failed loads)."""
    return [e for e in driver.get_log("browser") if e["level"] == "SEVERE"]


def data(driver, name: str) -> str | None:
    """``document.body.dataset[name]``."""
    return driver.execute_script("return document.body.dataset[arguments[0]];", name)
