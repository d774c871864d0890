"""The scene of a two-handed Piquet row (``piquet-v0``, ``piquet_au_cent-v0``,
``auction_piquet-v0``): ``scene(state, b, config, seat=None)``, the format of ``core.scene``.

What a seat sees (``docs/games/piquet.md`` 6.2, the observation of ``observe.py``): its own hand
and discards; of the opponent's hand only the cards of his scored or equal combinations and a
shown carte blanche; the talon face down but for the cards the seat has seen (elder's untaken
five, leftovers looked at); every card played. The open view shows every card.
"""

from __future__ import annotations

from ...core.cards import RANKS, format_card
from ...core.game import EPISODE_DEAL
from ...core.scene import check_viewer, hand, make_scene, pile, play, seat_entry
from . import config as C
from . import constants as K
from . import layout as L

_CATEGORY = ("Point", "Sequence", "Sets")
_NAME = {"piquet_au_cent": "Piquet au cent", "auction_piquet": "Auction Piquet"}
_DOUBLED = ("", " doubled", " redoubled")


def _title(s, b, cfg, name: str) -> str:
    deal = int(s.f[b, L.F_DEAL_NO]) - int(s.f[b, L.F_REDEALS]) - int(s.f[b, L.F_GAME_START])
    if cfg[C.C_EPISODE] == EPISODE_DEAL:
        return f"{name}: one deal"
    if cfg[C.C_GAME] == C.GAME_AU_CENT:
        text = f"{name}: deal {deal + 1}"
        if cfg[C.C_AU_CENT_PARTIE]:
            text = f"{name}: game {int(s.f[b, L.F_GAMES]) + 1}, deal {deal + 1}"
        return text
    regular = 4 if cfg[C.C_PARTIE] == C.PARTIE_FOUR_DEALS else 6
    if deal >= regular:
        return f"{name}: tie-break deal {deal - regular + 1}"
    double = regular == 4 and deal in (0, 3)
    return f"{name}: deal {deal + 1} of {regular}" + (" (counts double)" if double else "")


def _result(s, b, cfg) -> str:
    w = int(s.f[b, L.F_WINNER])
    if w < 0:
        return "drawn"
    if cfg[C.C_GAME] == C.GAME_AU_CENT and cfg[C.C_AU_CENT_PARTIE]:
        return f"player_{w} wins the partie"
    return f"player_{w} wins {int(s.v[b, L.V_RESULT_POINTS])}"


def scene(s: L.State, b: int, config, seat: int | None = None) -> dict:
    """The scene of row ``b`` as ``seat`` sees it (None: the open view); see ``core.scene``."""
    viewer = check_viewer(seat, K.NUM_SEATS)
    cfg = config.to_array()
    f, m, v = s.f[b], s.m[b], s.v[b]
    name = _NAME.get(type(config).env_label().rsplit("-", 1)[0], "Piquet")
    phase = int(f[L.F_PHASE])
    over = phase == K.PHASE_OVER
    elder = int(f[L.F_DEALER]) if f[L.F_SWAPPED] else 1 - int(f[L.F_DEALER])
    au_cent_partie = cfg[C.C_GAME] == C.GAME_AU_CENT and cfg[C.C_AU_CENT_PARTIE]
    deal_only = cfg[C.C_EPISODE] == EPISODE_DEAL  # the score is the deal's

    def sees(p: int) -> bool:
        return viewer is None or viewer == p

    seats, piles = [], []
    for p in range(K.NUM_SEATS):
        lines = [f"tricks {int(f[L.F_TRICKS + p])}"]
        if not deal_only:
            lines.insert(0, f"this deal {int(v[L.V_DEAL_SCORE + p])}")
        if f[L.F_CB_CLAIM + p] == 1:
            lines.append("carte blanche")
        elif f[L.F_CB + p] and sees(p):
            lines.append("carte blanche (not claimed)")
        if f[L.F_BONUS + p] == K.BONUS_PIQUE:
            lines.append("pique")
        elif f[L.F_BONUS + p] == K.BONUS_REPIQUE:
            lines.append("repique")
        if au_cent_partie:
            lines.append(f"games won {int(f[L.F_GAMES_WON + p])}")
        known = m[L.M_SHOWN + p] | m[L.M_CB_SHOWN + p]
        seats.append(
            seat_entry(
                p,
                hand(m[L.M_HAND + p], sees(p), known),
                role="elder" if p == elder else "younger",
                score=str(int(v[L.V_DEAL_SCORE + p] if deal_only else v[L.V_TOTAL + p])),
                lines=lines,
            )
        )
        discards = m[L.M_DISCARDS + p]
        if discards:
            piles.append(pile(f"player_{p}'s discards", hand(discards, sees(p)), p))
    pos = int(f[L.F_TALON_POS])
    talon = [int(c) for c in f[L.F_DECK + 2 * K.HAND + pos : L.F_DECK + K.NUM_CARDS]][::-1]
    seen = 0 if viewer is None else int(m[L.M_SEEN + viewer])
    piles.insert(
        0,
        pile(
            "talon",
            [format_card(c) if viewer is None or (seen >> c) & 1 else None for c in talon],
        ),
    )
    trick = []
    if f[L.F_TRICK_CARD] >= 0:
        trick.append(play(f[L.F_TRICK_LEADER], f[L.F_TRICK_CARD]))
    last = None
    leader, led, other, winner = (int(x) for x in f[L.F_LAST_TRICK : L.F_LAST_TRICK + 4])
    if leader >= 0:
        last = {"winner": winner, "cards": [play(leader, led), play(1 - leader, other)]}
    return make_scene(
        config,
        title=_title(s, b, cfg, name),
        viewer=viewer,
        to_act=int(f[L.F_CURRENT]),
        phase=K.PHASE_NAMES[phase],
        over=over,
        result=_result(s, b, cfg) if over else None,
        seats=seats,
        trick=trick,
        last_trick=last,
        piles=piles,
        info=_info(s, b, cfg),
    )


def _info(s, b, cfg) -> list[str]:
    f, v = s.f[b], s.v[b]
    info = []
    if cfg[C.C_GAME] == C.GAME_AU_CENT:
        info.append(f"Game to {int(cfg[C.C_TARGET])}")
    for c, label in enumerate(_CATEGORY):
        w = int(f[L.F_DECL_WIN + c])
        if w in (0, 1):
            info.append(f"{label}: player_{w} +{int(v[L.V_DECL_PTS + 3 * w + c])}")
        elif w == K.OUTCOME_EQUAL:
            info.append(f"{label}: equal")
        elif w == K.OUTCOME_NONE:
            info.append(f"{label}: none")
    if f[L.F_BID] >= 0:
        bid = K.ACTION_NAMES[K.ACTION_BID + int(f[L.F_BID])][4:]
        info.append(
            f"Contract: {bid}{_DOUBLED[int(f[L.F_DOUBLED])]} by player_{int(f[L.F_BIDDER])}"
        )
    if f[L.F_REDEALS] > 0:
        info.append(f"Redeals: {int(f[L.F_REDEALS])}")
    return info


def trick_rule(before: dict, cards: list, config: dict) -> int:
    """``GameDef.trick_rule`` of every Piquet id: the seat that takes the complete trick
    ``cards`` (``{"seat", "card"}`` in play order) is the one of the highest card of the suit
    led (no trumps in Piquet)."""
    led = cards[0]["card"][-1]
    best = max(
        (c for c in cards if c["card"][-1] == led), key=lambda c: RANKS.index(c["card"][:-1])
    )
    return best["seat"]


__all__ = ["scene", "trick_rule"]
