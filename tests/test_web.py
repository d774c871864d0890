"""The browser game (``cardenvs.web``): ``serve`` in a thread on a free port against a random
agent, a whole game of two ids driven in headless Chromium by clicking only what the page marks
as legal (``[data-legal]``: the lifted cards and the action buttons) until the page says the game
is over; the record it saved replays. The HTTP interface refuses illegal, stale and malformed
actions with a clear message. One browser for the module (``tests/browser.py``; it fails, not
skips, without Chromium). Screenshots go to tests/artifacts/.
"""

from __future__ import annotations

import json
import random
import re
import threading
import time
import urllib.error
import urllib.request

import pytest
from browser import ARTIFACTS, chrome, data, errors

import cardenvs
from cardenvs.agents.base import RandomAgent
from cardenvs.ui import web
from cardenvs.ui.events import KINDS

GAMES = {
    "piquet-v0": {"episode": "deal"},
    "esel-v0": {"episode": "deal", "num_players": 2},
}


@pytest.fixture(scope="module")
def driver():
    d = chrome()
    yield d
    d.quit()


@pytest.fixture
def server():
    """``start(env_id, opponent, **kwargs)`` runs ``serve`` in a thread and returns its URL;
    every server started is stopped at the end."""
    started = []

    def start(env_id, opponent, **kwargs):
        urls, stop = [], threading.Event()
        out = {}

        def run():
            out["saved"] = web.serve(env_id, 0, opponent, ready=urls.append, stop=stop, **kwargs)

        t = threading.Thread(target=run, daemon=True)
        t.start()
        t0 = time.time()
        while not urls:
            assert t.is_alive() and time.time() - t0 < 60, "serve did not start"
            time.sleep(0.02)
        started.append((stop, t))
        return urls[0], out

    yield start
    for stop, t in started:
        stop.set()
        t.join(10)


def wait_idle(driver, step_before=None, timeout=30.0) -> None:
    """Wait until the page has drawn a state (after step ``step_before``) and is not busy."""
    t0 = time.time()
    while True:
        if (
            data(driver, "ready") == "1"
            and data(driver, "busy") == "0"
            and (step_before is None or data(driver, "step") != step_before)
        ):
            return
        assert time.time() - t0 < timeout, "the page did not update"
        time.sleep(0.02)


def click(driver, element) -> None:
    """Click ``element`` as a person would: a card near its left edge (the part a fanned hand
    shows), a button in its middle."""
    from selenium.webdriver.common.action_chains import ActionChains

    if element.tag_name == "button":
        element.click()
        return
    dx = -element.size["width"] // 2 + 6
    ActionChains(driver).move_to_element_with_offset(element, dx, 0).click().perform()


@pytest.mark.parametrize("env_id", list(GAMES))
def test_web__a_whole_game_by_clicking_legal_cards_and_buttons(env_id, driver, server, tmp_path):
    from selenium.webdriver.common.by import By

    config = GAMES[env_id]
    record_path = tmp_path / "game.json"
    url, out = server(env_id, RandomAgent(1), config=config, seed=3, record_path=record_path)
    assert url.startswith("http://127.0.0.1:")
    errors(driver)
    driver.get(url)
    wait_idle(driver)
    ARTIFACTS.mkdir(exist_ok=True)
    rng = random.Random(0)
    moves = cards = 0
    while data(driver, "over") != "1":
        confirm = driver.find_elements(By.ID, "confirm")
        if confirm:  # a choice of several cards: some picked in a random order, then confirmed
            lo, hi = (
                int(confirm[0].get_attribute("data-min")),
                int(confirm[0].get_attribute("data-max")),
            )
            picks = driver.find_elements(By.CSS_SELECTOR, "[data-pick]")
            wanted = [p.get_attribute("data-pick") for p in rng.sample(picks, rng.randint(lo, hi))]
            for c in wanted:
                click(driver, driver.find_element(By.CSS_SELECTOR, f'[data-pick="{c}"]'))
            cards += len(wanted)
            step = data(driver, "step")
            driver.find_element(By.ID, "confirm").click()
            wait_idle(driver, step)
            moves += len(wanted) + (len(wanted) < hi)
            continue
        legal = driver.find_elements(By.CSS_SELECTOR, "[data-legal]")
        assert legal, "the game is not over and nothing is marked legal"
        assert driver.find_element(By.ID, "prompt").text.startswith("Your turn")
        choice = rng.choice(legal)
        cards += choice.tag_name != "button"
        if moves == 4:
            driver.save_screenshot(str(ARTIFACTS / f"web-{env_id}-play.png"))
        step = data(driver, "step")
        click(driver, choice)
        wait_idle(driver, step)
        moves += 1
        assert moves < 500, "the game does not end"
    driver.save_screenshot(str(ARTIFACTS / f"web-{env_id}-over.png"))
    assert cards > 0, "no card was ever clicked"
    assert "Game over" in driver.find_element(By.ID, "prompt").text
    assert driver.find_elements(By.CSS_SELECTOR, "[data-legal]") == []
    shown = driver.find_element(By.ID, "record-path").text
    assert shown == str(record_path)
    record = json.loads(record_path.read_text())
    assert cardenvs.replay(record) == record
    mine = [a for d in record["deals"] for a in d["actions"] if a[0] == 0]
    assert len(mine) == moves
    assert errors(driver) == []
    # a new game starts from the page
    driver.find_element(By.ID, "newgame").click()
    wait_idle(driver)
    assert data(driver, "over") == "0"
    assert errors(driver) == []


def token_of(url: str) -> str:
    """The server's token, from its page (``#cardenvs-data``), as the page's script reads it."""
    base = url.split("/", 3)
    with urllib.request.urlopen("/".join(base[:3]) + "/", timeout=30) as r:
        text = r.read().decode()
    m = re.search(r'<script type="application/json" id="cardenvs-data">(.*?)</script>', text, re.S)
    return json.loads(m.group(1))["token"]


def post(url: str, body, raw: bytes | None = None) -> tuple[int, dict]:
    data_ = raw if raw is not None else json.dumps(body).encode()
    headers = {"Content-Type": "application/json", "X-Cardenvs-Token": token_of(url)}
    req = urllib.request.Request(url, data=data_, headers=headers)
    try:
        with urllib.request.urlopen(req, timeout=30) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read())


def get(url: str) -> tuple[int, dict]:
    req = urllib.request.Request(url, headers={"X-Cardenvs-Token": token_of(url)})
    try:
        with urllib.request.urlopen(req, timeout=30) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read())


class FirstLegal:
    """A search-style opponent: ``act_env`` (preferred to ``act``), the first legal action."""

    def __init__(self):
        self.calls = 0

    def act_env(self, env):
        self.calls += 1
        return env.unwrapped.legal_actions()[0]

    def act(self, observation, action_mask):  # never called: act_env is preferred
        raise AssertionError("act called although act_env exists")


def test_web__the_http_interface_refuses_bad_actions_clearly(server, tmp_path):
    opponent = FirstLegal()
    url, out = server(
        "piquet-v0", opponent, config={"episode": "deal"}, seed=1, record_path=tmp_path / "g.json"
    )
    status, s = get(url + "state")
    assert status == 200 and s["seat"] == 0 and s["step"] == 0 and not s["over"]
    assert s["scene"]["viewer"] == 0 and s["legal"]
    legal = {a["name"] for a in s["legal"]}
    illegal = next(n for n in cardenvs.game_info("piquet-v0").action_names if n not in legal)
    for body, code, words in (
        ({"action": illegal, "step": 0}, 409, "is not legal now"),
        ({"action": "fly away"}, 400, "not an action of piquet-v0"),
        ({"action": 1.5}, 400, "action must be an action id"),
        ({"action": s["legal"][0]["id"], "step": 7}, 409, "stale action"),
        ({"step": 0}, 400, "POST /act takes"),
    ):
        status, reply = post(url + "act", body)
        assert status == code and words in reply["error"], (body, reply)
        if words == "is not legal now":  # and says what is
            assert all(a["name"] in reply["error"] for a in s["legal"])
    status, reply = post(url + "act", None, raw=b"{oops")
    assert status == 400 and "not JSON" in reply["error"]
    assert get(url + "nothing")[0] == 404
    # nothing was played by the refused requests
    assert get(url + "state")[1]["step"] == 0
    # a legal action by name, then the opponent's replies, until the game ends
    step = 0
    while True:
        status, s = post(url + "act", {"action": s["legal"][0]["name"], "step": step})
        assert status == 200, s
        if s["over"]:
            break
        assert s["step"] > step and s["to_act"] == 0
        step = s["step"]
    assert opponent.calls > 0
    assert s["record_path"] == str(tmp_path / "g.json") and s["result"]
    # the log: ui.events' sentences from the human's side ("you"), by kind, with step numbers
    log = s["log"]
    assert [e["step"] for e in log] == sorted(e["step"] for e in log) and log[-1]["step"] == s[
        "step"
    ]
    kinds = {e["kind"] for e in log}
    assert {"start", "action", "trick", "deal", "result"} <= kinds <= set(KINDS) | {"start"}
    acts = [e for e in log if e["kind"] == "action"]
    assert {e["seat"] for e in acts} == {0, 1}
    for e in acts:
        assert e["text"].startswith("you " if e["seat"] == 0 else "player_1 "), e
    assert any(re.fullmatch(r"(you win|player_1 wins) the trick \(\S+\)", e["text"]) for e in log)
    ends = [e["text"] for e in log if e["kind"] == "result"]
    assert ends[0].startswith("game over: ") and ends[-1].startswith("record saved: ")
    assert "python -m cardenvs.view" in s["viewer_command"]
    assert post(url + "act", {"action": 0})[0] == 409
    cardenvs.replay(json.loads((tmp_path / "g.json").read_text()))


def test_web__bad_arguments_are_clear_errors():
    with pytest.raises(ValueError, match=r"host must be one of \['127\.0\.0\.1', 'localhost'\]"):
        web.make_server("piquet-v0", 0, RandomAgent(0), host="0.0.0.0")
    with pytest.raises(ValueError, match=r"seat must be a seat of piquet-v0: 0\.\.1"):
        web.make_server("piquet-v0", 2, RandomAgent(0))
    with pytest.raises(ValueError, match="opponent must have act"):
        web.make_server("piquet-v0", 0, object())
    with pytest.raises(ValueError, match="port must be an int"):
        web.make_server("piquet-v0", 0, RandomAgent(0), port=70000)


class Cheat:
    """An opponent that answers an action that is never legal."""

    def act(self, observation, action_mask):
        return len(action_mask)


def test_web__an_opponent_s_illegal_move_is_a_clear_error(tmp_path):
    with pytest.raises(
        RuntimeError, match=r"the opponent .* chose \d+ for player_\d, which is not"
    ):
        game = web.Game("piquet-v0", 1, Cheat(), {"episode": "deal"}, 0, tmp_path / "g.json")
        for _ in range(100):
            game.act(game.state()["legal"][0]["id"])


def test_web__discards_are_picked_in_any_order_then_confirmed(driver, server, tmp_path):
    """Piquet's exchange in the page: the cards are picked in any order (seed 1: elder holds
    A♠ Q♠ 10♠ 7♠ A♥ K♥ 10♥ 8♥ A♣ 9♣ A♦ 9♦), "discard" sends them together and the server plays
    them in the engine's order, then stop; a set the rules refuse cannot be confirmed."""
    from selenium.webdriver.common.by import By

    url, out = server(
        "piquet-v0",
        FirstLegal(),
        config={"episode": "deal"},
        seed=1,
        record_path=tmp_path / "g.json",
    )
    errors(driver)
    driver.get(url)
    wait_idle(driver)

    def pick(card):
        click(driver, driver.find_element(By.CSS_SELECTOR, f'[data-pick="{card}"]'))

    confirm = driver.find_element(By.ID, "confirm")
    assert (
        confirm.get_attribute("disabled")
        and "discard 1 to 5 cards" in driver.find_element(By.ID, "prompt").text
    )  # elder must discard at least one
    assert not driver.find_elements(By.CSS_SELECTOR, '[data-legal^="discard "]')
    for card in ("7S", "10S", "8H", "QS", "AS", "AH"):
        pick(card)
    assert driver.find_element(By.ID, "confirm").get_attribute("disabled")  # six: too many
    pick("AH")  # picked again: put back
    pick("AS")
    assert {
        e.get_attribute("data-pick") for e in driver.find_elements(By.CSS_SELECTOR, ".picked")
    } == {
        "7S",
        "10S",
        "8H",
        "QS",
    }
    confirm = driver.find_element(By.ID, "confirm")
    assert confirm.text == "discard 7♠ 10♠ 8♥ Q♠" and not confirm.get_attribute("disabled")
    confirm.click()
    wait_idle(driver, "0")
    status, s = get(url + "state")
    mine = [e["text"] for e in s["log"] if e["kind"] == "action" and e["seat"] == 0]
    assert mine[:5] == [
        "you discard 7S",
        "you discard 10S",
        "you discard QS",
        "you discard 8H",
        "you end the exchange",
    ]
    assert errors(driver) == []


def test_web__a_set_of_cards_is_checked_whole_before_anything_is_played(server, tmp_path):
    url, out = server(
        "piquet-v0",
        FirstLegal(),
        config={"episode": "deal"},
        seed=1,
        record_path=tmp_path / "g.json",
    )
    status, s = get(url + "state")
    assert s["choice"] == {
        "verb": "discard",
        "cards": ["7S", "10S", "QS", "AS", "8H", "10H", "KH", "AH", "9D", "AD", "9C", "AC"],
        "min": 1,
        "max": 5,
    }
    for cards, code, words in (
        (["7S", "7S"], 409, "7♠ is named twice"),
        (["QC"], 409, "Q♣ is not in your hand"),
        (["7S", "10S", "QS", "AS", "8H", "10H"], 409, "you may discard 1 to 5 cards, not 6"),
        ([], 409, "you must discard 1 to 5 cards, not 0"),
        (["7X"], 400, "cards must be a list of cards"),
        ("7S", 400, "cards must be a list of cards"),
    ):
        status, reply = post(url + "act", {"cards": cards, "step": 0})
        assert status == code and words in reply["error"], (cards, reply)
    assert get(url + "state")[1]["step"] == 0  # nothing was played
    status, s = post(url + "act", {"cards": ["AC", "7S"], "step": 0})
    assert status == 200 and s["choice"] is None
    mine = [e["text"] for e in s["log"] if e["kind"] == "action" and e["seat"] == 0]
    assert mine[:3] == ["you discard 7S", "you discard AC", "you end the exchange"]


# --- the page fits the window: 1024 x 700 with the actions in view, a phone's width -----------
def viewport(driver, width, height):
    """Emulate a window of ``width`` x ``height`` CSS pixels (a phone's when narrow)."""
    driver.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 500},
    )


GEOMETRY = """
const box = e => { const r = e.getBoundingClientRect();
  return [r.left, r.top, r.right, r.bottom]; };
const doc = document.documentElement;
return {width: innerWidth, height: innerHeight, scrollWidth: doc.scrollWidth,
  scrollX: scrollX, scrollY: scrollY, stage: box(document.querySelector('.stage')),
  actions: [...document.querySelectorAll('#actions button')].map(box)};
"""


@pytest.mark.parametrize("env_id", list(GAMES))
@pytest.mark.parametrize("size", [(1024, 700), (390, 844)])
def test_web__the_table_fits_the_window(env_id, size, driver, server, tmp_path):
    """At 1024 x 700 the table and every action button are inside the window without scrolling;
    at a phone's 390 x 844 nothing scrolls sideways (the table is scaled to the width)."""
    width, height = size
    url, out = server(env_id, RandomAgent(1), config=GAMES[env_id], seed=2)
    try:
        viewport(driver, width, height)
        driver.get(url)
        wait_idle(driver)
        g = driver.execute_script(GEOMETRY)
        ARTIFACTS.mkdir(exist_ok=True)
        driver.save_screenshot(str(ARTIFACTS / f"web-{env_id}-{width}x{height}.png"))
    finally:
        driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
    assert (g["width"], g["height"]) == (width, height)
    assert g["scrollWidth"] <= width and g["scrollX"] == 0 and g["scrollY"] == 0, g
    assert g["actions"], "no action button to check"
    for left, top, right, bottom in [g["stage"], *g["actions"]]:
        assert 0 <= left and right <= width, g
        if width >= 1024:  # the actions in view without scrolling
            assert 0 <= top and bottom <= height, g


def test_web__the_log_writes_cards_with_suit_symbols(driver, server, tmp_path):
    from selenium.webdriver.common.by import By

    url, out = server("piquet-v0", FirstLegal(), config={"episode": "deal"}, seed=1)
    driver.get(url)
    wait_idle(driver)
    step = data(driver, "step")
    post_cards = ["7S", "8H"]
    for c in post_cards:
        click(driver, driver.find_element(By.CSS_SELECTOR, f'[data-pick="{c}"]'))
    driver.find_element(By.ID, "confirm").click()
    wait_idle(driver, step)
    text = driver.find_element(By.ID, "log").text
    assert "you discard 7♠" in text and "you discard 8♥" in text
    assert not re.search(r"(?<![0-9A-Za-z])(10|[2-9JQKA])[SHDC](?![0-9A-Za-z])", text), text


def test_web__esel_s_trump_choice_says_why_the_hand_is_face_down(driver, server, tmp_path):
    from selenium.webdriver.common.by import By

    url, out = server("esel-v0", FirstLegal(), config={"episode": "deal", "num_players": 2}, seed=2)
    driver.get(url)
    wait_idle(driver)
    buttons = driver.find_elements(By.CSS_SELECTOR, '[data-legal^="trump "]')
    assert buttons, "seed 2: player_0 chooses a trump suit first"
    rule = driver.find_element(By.ID, "rule")
    assert rule.is_displayed() and "nobody sees their cards" in rule.text
    step = data(driver, "step")
    buttons[0].click()
    wait_idle(driver, step)
    assert driver.find_elements(By.ID, "rule") == []
