"""What two-handed Piquet's records read from a row of the state: the episode's ``result``,
Auction Piquet's deal extras (``auction_deal_extras``) and the deal's deck order as card
strings (``deck_strings``)."""

from __future__ import annotations

from ...core.cards import format_cards
from ...core.game import EPISODE_GAME
from .config import C_AU_CENT_PARTIE, C_EPISODE, C_GAME, GAME_AU_CENT, GAME_AUCTION, Config
from .constants import ACTION_BID, ACTION_NAMES, NUM_CARDS
from .layout import (
    F_DEAL_NO,
    F_DECK,
    F_GAMES,
    F_GAMES_WON,
    F_LAST_CONTRACT,
    F_REDEALS,
    F_WINNER,
    V_RESULT_POINTS,
    V_TOTAL,
    State,
)


def result(s: State, b: int, config: Config) -> dict:
    """JSON-able result of the finished episode in row ``b`` (an au cent partie adds the games
    won per seat and the games played; its ``totals`` are the last game's)."""
    w = int(s.f[b, F_WINNER])
    cfg = config.to_array()
    out = {
        "winner": None if w < 0 else w,
        "points": int(s.v[b, V_RESULT_POINTS]),
        "totals": s.v[b, V_TOTAL : V_TOTAL + 2].tolist(),
        "deals": int(s.f[b, F_DEAL_NO]) + 1 - int(s.f[b, F_REDEALS]),
    }
    if cfg[C_GAME] == GAME_AUCTION:
        out["redeals"] = int(s.f[b, F_REDEALS])
    if cfg[C_GAME] == GAME_AU_CENT and cfg[C_AU_CENT_PARTIE] and cfg[C_EPISODE] == EPISODE_GAME:
        out["games_won"] = s.f[b, F_GAMES_WON : F_GAMES_WON + 2].tolist()
        out["games"] = int(s.f[b, F_GAMES])
    return out


def auction_deal_extras(s: State, b: int, config) -> dict:
    """Auction Piquet: the finished deal's contract (``None`` for a redeal)."""
    k, decl, dbl = (int(x) for x in s.f[b, F_LAST_CONTRACT : F_LAST_CONTRACT + 3])
    if k < 0:
        return {"contract": None}
    return {"contract": ACTION_NAMES[ACTION_BID + k][4:], "declarer": decl, "doubled": dbl}


def deck_strings(s: State, b: int) -> list[str]:
    """The current deal's deck order (elder 12, younger 12, talon from the top)."""
    return format_cards(s.f[b, F_DECK : F_DECK + NUM_CARDS]).split()
