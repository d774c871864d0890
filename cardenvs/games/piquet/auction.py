"""Auction Piquet's bidding and contract (``auction_piquet-v0``, ``docs/games/piquet.md`` 3.2
items 2-11, A14-A20): the start of the bidding, bid ranks, the legal bids, the end of the auction
(``declarer_becomes_elder``) and the contract's score. The bidding action itself (``rules._bid``)
is in ``rules``, beside the redeal it may lead to.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .cards import _elder, _exchanger
from .config import (
    BIDDING_BEFORE_EXCHANGE,
    C_AUCTION_MAKE_BONUS,
    C_AUCTION_SENTENCE_READING,
    C_BIDDING,
    C_DECLARER_BECOMES_ELDER,
    C_DOUBLE_FACTOR,
    C_FIRST_BIDDER,
    C_MAX_REDEALS,
    C_MINUS_OUTRANKS_PLUS_AT_EQUAL_LEVEL,
    C_REDOUBLE_FACTOR,
    FIRST_BIDDER_ELDER,
    READ_NO_EXCHANGE,
    READ_NO_OPENING_PASS,
)
from .constants import (
    ACTION_BID,
    ACTION_STOP,
    BIT_DOUBLE,
    BIT_PASS,
    BIT_REDOUBLE,
    HAND,
    NUM_BIDS,
    PHASE_BID,
    PHASE_EXCHANGE,
)
from .declare import _start_declarations
from .layout import (
    F_BID,
    F_BID_ACTS,
    F_BIDDER,
    F_CB_CLAIM,
    F_CURRENT,
    F_DEALER,
    F_DOUBLED,
    F_EXCH,
    F_LAST_CONTRACT,
    F_PHASE,
    F_REDEALS,
    F_SWAPPED,
    F_TRICKS,
    M_CB_SHOWN,
    M_DEALT,
)
from .score import _score_end


@njit(cache=True)
def _start_bidding(s, b, cfg):
    s.f[b, F_PHASE] = PHASE_BID
    elder = _elder(s, b)
    s.f[b, F_CURRENT] = elder if cfg[C_FIRST_BIDDER] == FIRST_BIDDER_ELDER else 1 - elder


@njit(cache=True, forceinline=True)
def _bid_rank(cfg, k):
    """Rank of bid ``k`` (0..11 = 7+, 7-, ..., 12-): by number, then minus over plus by default
    (3.2 item 6); -1 for no bid."""
    if k < 0:
        return -1
    minus = k % 2
    return (k // 2) * 2 + (minus if cfg[C_MINUS_OUTRANKS_PLUS_AT_EQUAL_LEVEL] else 1 - minus)


@njit(cache=True)
def _end_auction(s, b, cfg):
    """The contract stands: the roles may change (option), then the exchange (bidding before
    it) or the declarations."""
    if cfg[C_DECLARER_BECOMES_ELDER] and s.f[b, F_BIDDER] == s.f[b, F_DEALER]:
        # a declarer dealt younger takes elder's role for the rest of the deal (3.2, option):
        # he exchanges first if the exchange is still to come, calls first, leads, may pique
        s.f[b, F_SWAPPED] = 1
    if cfg[C_AUCTION_SENTENCE_READING] == READ_NO_EXCHANGE:
        # no exchange under this reading: a carte blanche is shown now, then the declarations
        s.f[b, F_EXCH] = 2
        for seat in range(2):
            if s.f[b, F_CB_CLAIM + seat] == 1:
                s.m[b, M_CB_SHOWN + seat] = s.m[b, M_DEALT + seat]
        _start_declarations(s, b, cfg)
    elif cfg[C_BIDDING] == BIDDING_BEFORE_EXCHANGE:
        s.f[b, F_PHASE] = PHASE_EXCHANGE
        s.f[b, F_CURRENT] = _exchanger(s, b, cfg, 0)
    else:
        _start_declarations(s, b, cfg)


@njit(cache=True)
def _score_contract(s, b, cfg):
    """Auction Piquet (3.2 items 10, 11): the declarer scores 10 per trick beyond a plus
    contract (short of a minus contract's limit), plus ``auction_make_bonus``; if it fails the
    opponent scores 10 per missing (excess) trick; doubled / redoubled multiply. The cards and
    capot do not score."""
    k = s.f[b, F_BID]
    decl = s.f[b, F_BIDDER]
    s.f[b, F_LAST_CONTRACT + 0] = k
    s.f[b, F_LAST_CONTRACT + 1] = decl
    s.f[b, F_LAST_CONTRACT + 2] = s.f[b, F_DOUBLED]
    if k < 0:
        return
    n = k // 2 + 7
    won = np.int64(s.f[b, F_TRICKS + decl])
    mult = 1
    if s.f[b, F_DOUBLED] == 1:
        mult = cfg[C_DOUBLE_FACTOR]
    elif s.f[b, F_DOUBLED] == 2:
        mult = cfg[C_REDOUBLE_FACTOR]
    if k % 2 == 0:
        margin = won - n  # plus: at least n tricks
    else:
        margin = (HAND - n) - won  # minus: at most 12 - n tricks
    if margin >= 0:
        _score_end(s, b, cfg, decl, (10 * margin + cfg[C_AUCTION_MAKE_BONUS]) * mult)
    else:
        _score_end(s, b, cfg, 1 - decl, -10 * margin * mult)


@njit(cache=True)
def _bid_bits(s, b, cfg, seat):
    """Legal bidding actions (as bits from ``ACTION_STOP``), spec 3.2 items 2-7."""
    if s.f[b, F_DOUBLED] == 1:
        return BIT_PASS | BIT_REDOUBLE  # the doubled bidder
    bits = 0
    first_turn = s.f[b, F_BID_ACTS] == 0
    second_after_pass = s.f[b, F_BID] < 0 and s.f[b, F_BID_ACTS] == 1
    # one reading of "cannot klappen": the first speaker may not pass; and after max_redeals
    # redeals the second may not pass after a pass (no endless redeals)
    if not (first_turn and cfg[C_AUCTION_SENTENCE_READING] == READ_NO_OPENING_PASS) and not (
        second_after_pass and s.f[b, F_REDEALS] >= cfg[C_MAX_REDEALS]
    ):
        bits |= BIT_PASS
    current = _bid_rank(cfg, s.f[b, F_BID])
    for k in range(NUM_BIDS):
        if _bid_rank(cfg, k) > current:
            bits |= 1 << (ACTION_BID - ACTION_STOP + k)
    if s.f[b, F_BID] >= 0 and s.f[b, F_BIDDER] != seat:
        bits |= BIT_DOUBLE
    return bits
