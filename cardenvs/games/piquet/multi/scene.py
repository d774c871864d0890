"""The scene of a Piquet normand or partnership Piquet row (``games.piquet.multi``):
``scene(state, b, config, seat=None)``, the format of ``core.scene``.

What a seat sees (``docs/games/piquet.md`` 6.2, the observation of ``observe.py``): its own hand;
of the others' hands only their public cards (scored or equal combinations, a carte blanche); the
normand dealer his discards and the talon cards he saw; every card played. The open view shows
every card.
"""

from __future__ import annotations

from ....core.cards import format_card
from ....core.game import EPISODE_DEAL
from ....core.scene import check_viewer, hand, make_scene, pile, play, seat_entry
from . import config as C
from . import constants as K
from . import layout as L

_CATEGORY = ("Point", "Sequence", "Sets")


def _trick(s, b, p: int, table: int, leader: int) -> list:
    """The cards of ``table`` in play order: each belongs to the seat that played it, the
    leader's first, then round the table to the left."""
    out = []
    for k in range(p):
        t = (leader + k) % p
        mine = int(s.m[b, L.M_PLAYED + t]) & table
        if mine:
            out.append(play(t, mine.bit_length() - 1))
    return out


def scene(s: L.State, b: int, config, seat: int | None = None) -> dict:
    """The scene of row ``b`` as ``seat`` sees it (None: the open view); see ``core.scene``."""
    cfg = config.to_array()
    p = int(cfg[C.C_NUM_SEATS])
    viewer = check_viewer(seat, p)
    partnership = cfg[C.C_MODE] == K.MODE_PARTNERSHIP
    f, m, v = s.f[b], s.m[b], s.v[b]
    phase = int(f[L.F_PHASE])
    over = phase == K.PHASE_OVER
    dealer = int(f[L.F_DEALER])
    deal_only = cfg[C.C_EPISODE] == EPISODE_DEAL

    def sees(t: int) -> bool:
        return viewer is None or viewer == t

    seats = []
    for t in range(p):
        side = t % 2 if partnership else t
        lines = [f"tricks {int(f[L.F_TRICKS + t])}"]
        if not deal_only:
            lines.insert(0, f"this deal {int(v[L.V_DEAL_SCORE + side])}")
        if f[L.F_CB + t] and (phase >= K.PHASE_PLAY or sees(t)):
            lines.append("carte blanche")
        if f[L.F_BONUS + side] == K.BONUS_PIQUE:
            lines.append("pique")
        elif f[L.F_BONUS + side] == K.BONUS_REPIQUE:
            lines.append("repique")
        finished = int(f[L.F_FINISHED + t])
        if finished:
            lines.append(f"reached the target in deal {finished}")
        score = v[L.V_DEAL_SCORE + side] if deal_only else v[L.V_TOTAL + side]
        seats.append(
            seat_entry(
                t,
                hand(m[L.M_HAND + t], sees(t), m[L.M_SHOWN + t]),
                role="dealer" if t == dealer else "",
                score=str(int(score)),
                lines=lines,
                active=finished == 0,
            )
        )
    piles = []
    if not partnership:
        top = p * int(cfg[C.C_HAND_SIZE])
        taken = int(f[L.F_TALON_POS])
        rest = [int(c) for c in f[L.F_DECK + top + taken : L.F_DECK + K.NUM_CARDS]][::-1]
        seen = int(m[L.M_SEEN]) if sees(dealer) else 0
        talon = [format_card(c) if viewer is None or (seen >> c) & 1 else None for c in rest]
        piles.append(pile("talon", talon))
        if m[L.M_DISCARDS]:
            piles.append(pile("dealer's discards", hand(m[L.M_DISCARDS], sees(dealer)), dealer))
    trick = _trick(s, b, p, int(m[L.M_TABLE]), int(f[L.F_TRICK_LEADER]))
    last = None
    if f[L.F_LAST_TRICK] >= 0:
        cards = _trick(s, b, p, int(m[L.M_LAST_TABLE]), int(f[L.F_LAST_TRICK]))
        last = {"winner": int(f[L.F_LAST_TRICK + 1]), "cards": cards}
    name = "Partnership Piquet" if partnership else "Piquet normand"
    deal = f"deal {int(f[L.F_DEAL_NO]) + 1}"
    info = [] if deal_only else [f"Game to {int(cfg[C.C_TARGET])}"]
    if partnership:
        info.append("Partners: player_0 & player_2, player_1 & player_3")
    for c, label in enumerate(_CATEGORY):
        w = int(f[L.F_DECL_WIN + c])
        if phase < K.PHASE_PLAY:
            break
        if w < K.MAX_SEATS:
            info.append(f"{label}: player_{w} +{int(v[L.V_DECL_PTS + c])}")
        elif w == K.OUTCOME_EQUAL:
            info.append(f"{label}: equal")
    return make_scene(
        config,
        title=f"{name}: " + ("one deal" if deal_only else deal),
        viewer=viewer,
        to_act=int(f[L.F_CURRENT]),
        phase=K.PHASE_NAMES[phase],
        over=over,
        result=_result(s, b, p) if over else None,
        seats=seats,
        trick=trick,
        last_trick=last,
        piles=piles,
        info=info,
    )


def _result(s, b, p: int) -> str:
    won = [t for t in range(p) if s.f[b, L.F_OUTCOME + t] == 1]
    if not won:
        return "drawn"
    return " and ".join(f"player_{t}" for t in won) + (" win" if len(won) > 1 else " wins")


__all__ = ["scene"]
