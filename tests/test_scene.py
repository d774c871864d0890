"""Scenes (``cardenvs.core.scene``) and pictures (``cardenvs.core.picture``, ``render_mode=
"rgb_array"``) of every id: the format, frames over a whole deal, and hidden cards staying hidden
(a seat's view shows only cards its observation reveals, and is the same whatever the cards it
cannot see are)."""

from __future__ import annotations

import json

import numpy as np
import pytest

import cardenvs
from cardenvs.core import picture
from cardenvs.core.game import layout_offsets
from cardenvs.core.scene import check_scene, face_up

#: the observation blocks that show cards, per engine: one plane (or several seat planes) over
#: the deck's local card indices; a non-zero entry reveals that card
CARD_BLOCKS = {
    "piquet": (
        "hand",
        "own_discards",
        "talon_seen",
        "opp_carte_blanche",
        "own_shown",
        "opp_shown",
        "own_played",
        "opp_played",
        "trick_lead",
    ),
    "multi": ("hand", "own_discards", "talon_seen", "played", "shown", "trick_lead", "table"),
    "esel": ("hand", "played", "table", "main_card"),
    "banque": ("hand", "bank_owner", "bank_pos", "top", "taken", "drawn"),
    "four_aces": ("hidden", "exposed", "pile", "pile_top", "drawn"),
}
#: the block of the observing seat's own hand
OWN_HAND = {"four_aces": "hidden"}
ENGINE = {
    "piquet-v0": "piquet",
    "piquet_au_cent-v0": "piquet",
    "auction_piquet-v0": "piquet",
    "piquet_normand-v0": "multi",
    "partnership_piquet-v0": "multi",
    "esel-v0": "esel",
    "banque-v0": "banque",
    "four_aces-v0": "four_aces",
}
#: a small config of each id for the tests (the seat counts the pictures must lay out)
CONFIGS = {
    "piquet-v0": {},
    "piquet_au_cent-v0": {},
    "auction_piquet-v0": {},
    "piquet_normand-v0": {},
    "partnership_piquet-v0": {},
    "esel-v0": {"num_players": 4},
    "banque-v0": {"num_players": 3},
    "four_aces-v0": {"num_players": 5},
}
IDS = [i for i in cardenvs.GAMES if cardenvs.game_info(i).scene is not None]


def revealed(env_id: str, obs: np.ndarray, block_names=None) -> set[str]:
    """The card strings an observation shows (non-zero entries of its card blocks)."""
    game = cardenvs.game_info(env_id)
    engine = ENGINE[env_id]
    width = 52 if engine == "four_aces" else game.deck.size
    off = layout_offsets(game.obs_layout)
    sizes = {f.name: f.size for f in game.obs_layout}
    out = set()
    for name in block_names or CARD_BLOCKS[engine]:
        block = obs[off[name] : off[name] + sizes[name]]
        for i in np.flatnonzero(block):
            out.add(_card(game, int(i) % width))
    return out


def _card(game, local: int) -> str:
    from cardenvs.core.cards import format_card

    return format_card(int(game.deck.cards[local]))


def play_deal(env_id: str, seed: int, render_mode=None, **kwargs):
    """Yield ``env`` before every live step of one random deal (``episode="deal"``)."""
    env = cardenvs.make(
        env_id, episode="deal", render_mode=render_mode, **CONFIGS[env_id], **kwargs
    )
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    while env.agents:
        agent = env.agent_selection
        if env.terminations[agent]:
            env.step(None)
            continue
        yield env
        env.step(int(rng.choice(env.unwrapped.legal_actions())))
    yield env


@pytest.mark.parametrize("env_id", IDS)
def test_scene__frames_over_a_whole_deal_in_every_view(env_id):
    steps = 0
    p = None
    for env in play_deal(env_id, seed=5, render_mode="rgb_array"):
        core = env.unwrapped
        p = len(core.possible_agents)
        frame = env.render()
        assert frame.shape == picture.SHAPE and frame.dtype == np.uint8
        for seat in range(p):
            check_scene(core.scene(seat))
            f = core.picture(seat)
            assert f.shape == picture.SHAPE and f.dtype == np.uint8
        steps += 1
    final = core.scene()
    check_scene(final)
    assert final["over"] and final["to_act"] is None and final["result"]
    assert steps > p


@pytest.mark.parametrize("env_id", IDS)
def test_scene__a_seat_sees_only_what_its_observation_reveals(env_id):
    engine = ENGINE[env_id]
    checked = 0
    for env in play_deal(env_id, seed=11):
        core = env.unwrapped
        open_view = core.scene()
        for s in open_view["seats"]:
            assert None not in s["hand"], f"open view hides a card of {s['name']}"
        for pile in open_view["piles"]:
            assert None not in pile["cards"], f"open view hides a card of {pile['name']}"
        for agent in core.possible_agents:
            seat = core.agent_name_mapping[agent]
            obs = core.observe(agent)["observation"]
            view = core.scene(seat)
            shown = [c for c in face_up(view) if c != "JK"]
            assert len(shown) == len(set(shown)), "a card shows twice"
            extra = set(shown) - revealed(env_id, obs)
            assert not extra, f"seat {seat} sees {sorted(extra)}, which its observation hides"
            own = {c for c in view["seats"][seat]["hand"] if c not in (None, "JK")}
            assert own == revealed(env_id, obs, [OWN_HAND.get(engine, "hand")])
            if None not in view["seats"][seat]["hand"]:  # the open view shows the same hand
                assert open_view["seats"][seat]["hand"] == view["seats"][seat]["hand"]
            checked += 1
    assert checked > 0


@pytest.mark.parametrize("env_id", [i for i in IDS if ENGINE[i] in ("piquet", "multi", "esel")])
def test_scene__each_card_of_a_trick_is_named_by_the_seat_that_played_it(env_id):
    from cardenvs.core.cards import parse_card

    game = cardenvs.game_info(env_id)
    seen_last = 0
    for env in play_deal(env_id, seed=13):
        core = env.unwrapped
        played = game.layout.field(core._engine.state, "played")[0]
        scene = core.scene()
        last = scene["last_trick"]
        plays = scene["trick"] + (last["cards"] if last else [])
        for p in plays:
            assert (int(played[p["seat"]]) >> parse_card(p["card"])) & 1, p
        if last:
            seen_last += 1
            p = len(core.possible_agents)
            seats = [c["seat"] for c in last["cards"]]
            turns = [(s - seats[0]) % p for s in seats]  # places after the leader's
            assert turns == sorted(set(turns)), "not in play order, clockwise"
            assert last["winner"] in seats
    assert seen_last > 0


@pytest.mark.parametrize("env_id", IDS)
def test_scene__a_seat_view_is_the_same_whatever_the_hidden_cards(env_id):
    """Determinized states (what a seat cannot see redrawn) give the seat the same scene and the
    same picture; the open view does change, so the redraw did move hidden cards."""
    game = cardenvs.game_info(env_id)
    rng = np.random.default_rng(0)
    moved = 0
    for k, env in enumerate(play_deal(env_id, seed=7)):
        core = env.unwrapped
        if k % 3 or core.scene()["over"]:
            continue
        for seat in range(len(core.possible_agents)):
            copy = core.determinize(seat, rng)
            mine = game.scene(copy, 0, core.config, seat)
            assert mine == core.scene(seat)
            assert np.array_equal(picture.draw(mine), core.picture(seat))
            moved += game.scene(copy, 0, core.config) != core.scene()
        if k > 12:
            break
    assert moved > 0, "determinize never moved a hidden card"


@pytest.mark.parametrize("env_id", IDS)
def test_scene__an_opponent_s_hand_is_drawn_face_down_in_a_seat_view(env_id):
    env = cardenvs.make(env_id, render_mode="rgb_array", **CONFIGS[env_id])
    env.reset(seed=3)
    core = env.unwrapped
    p = len(core.possible_agents)
    rng = np.random.default_rng(3)

    def own_hand_shown():  # Esel and Banque hide every hand while the trumps are chosen
        hand = core.scene(0)["seats"][0]["hand"]
        return hand and None not in hand

    while not own_hand_shown():
        env.step(int(rng.choice(core.legal_actions())))
    opened, mine = env.render(), core.picture(0)  # seat 0 sits at the bottom in both
    assert not np.array_equal(opened, mine)
    x, y, w, h = picture._BOXES[p][1]  # the seat on seat 0's left
    assert not np.array_equal(opened[y : y + h, x : x + w], mine[y : y + h, x : x + w])
    bx, by, bw, bh = picture._BOXES[p][0]  # seat 0's own cards look the same (below its plate)
    by, bh = by + 30, bh - 30
    assert np.array_equal(opened[by : by + bh, bx : bx + bw], mine[by : by + bh, bx : bx + bw])


@pytest.mark.parametrize("env_id", IDS[:1])
def test_scene__views_and_their_errors(env_id, capsys):
    env = cardenvs.make(env_id, render_mode="rgb_array", render_seat="current")
    env.reset(seed=1)
    core = env.unwrapped
    assert "rgb_array" in core.metadata["render_modes"]
    seat = core.agent_name_mapping[env.agent_selection]
    assert core.scene("current") == core.scene(seat)
    assert np.array_equal(env.render(), core.picture(seat))
    for bad in (2, -1, True, 1.0, "player_0", "open"):
        with pytest.raises(ValueError, match="render_seat"):
            cardenvs.make(env_id, render_mode="rgb_array", render_seat=bad)
        with pytest.raises(ValueError, match="seat"):
            core.scene(bad)
    game = cardenvs.game_info(env_id)
    with pytest.raises(ValueError, match="seat"):
        game.scene(core._engine.state, 0, core.config, 2)
    json.dumps(core.scene())
    text = cardenvs.make(env_id, render_mode="ansi")
    text.reset(seed=1)
    assert isinstance(text.render(), str)
    with pytest.raises(RuntimeError, match="reset"):
        cardenvs.make(env_id).scene()


@pytest.mark.parametrize("env_id", IDS[:1])
def test_scene__pettingzoo_s_render_test_passes(env_id, capsys):
    from pettingzoo.test import render_test

    render_test(lambda render_mode: cardenvs.make(env_id, render_mode=render_mode))


@pytest.mark.parametrize("env_id", IDS[:1])
def test_scene__the_batched_engine_gives_each_row_s_scene(env_id):
    venv = cardenvs.make_vector(env_id, 3, seed=20)
    venv.reset()
    env = cardenvs.make(env_id)
    env.reset(seed=22)  # row 2 plays the games of seed 20 + 2
    assert venv.scene(2) == env.unwrapped.scene()
    assert venv.scene(2, seat=1) == env.unwrapped.scene(1)
    assert venv.picture(2, seat=0).shape == picture.SHAPE
    with pytest.raises(ValueError, match="row"):
        venv.scene(3)
    with pytest.raises(ValueError, match="seat"):
        venv.scene(0, seat=7)


def test_scene__the_picture_command_draws_a_deal_and_refuses_bad_input(tmp_path, capsys):
    from PIL import Image

    from cardenvs.ui import picture as command

    out = tmp_path / "table.png"
    command.main([IDS[0], "--seed", "1", "--steps", "3", "--seat", "current", "--out", str(out)])
    assert Image.open(out).size == picture.SIZE
    small = tmp_path / "small.png"
    command.main([IDS[0], "--seat", "1", "--small", "--out", str(small)])
    assert Image.open(small).size == picture.SIZE
    for bad in (
        ["no_such-v0"],
        [IDS[0], "--seat", "9"],
        [IDS[0], "--steps", "-1"],
        [IDS[0], "--option", "nonsense"],
        [IDS[0], "--option", "num_colours=3"],
    ):
        with pytest.raises(SystemExit):
            command.main(bad + ["--out", str(tmp_path / "x.png")])
        assert "error" in capsys.readouterr().err


def test_picture__the_panel_s_phase_and_seat_to_act_are_never_cut(monkeypatch):
    """Four Aces's longest phase with a seat to act ("phase: reduce exposed  ·  to act:
    player_3") is wider than the panel: it goes on two lines instead of ending in "to act:
    pla…" (issue 52, item 8)."""
    from PIL import ImageDraw

    from cardenvs.games.four_aces.constants import PHASE_NAMES

    drawn = []
    real = ImageDraw.ImageDraw.text

    def text(self, xy, s, *args, **kwargs):
        drawn.append(s)
        return real(self, xy, s, *args, **kwargs)

    monkeypatch.setattr(ImageDraw.ImageDraw, "text", text)
    env = cardenvs.make("four_aces-v0", render_mode="rgb_array")
    env.reset(seed=0)
    for phase in PHASE_NAMES[:-1]:
        drawn.clear()
        frame = picture.draw(dict(env.unwrapped.scene(), phase=phase, to_act=3))
        assert frame.shape == picture.SHAPE
        status = [s for s in drawn if "phase:" in s or "to act:" in s]
        assert not [s for s in status if s.endswith("…")], status
        assert any(f"phase: {phase}" in s for s in status), status
        assert any("to act: player_3" in s for s in status), status
