"""Two-handed Piquet's declarations: carte blanche (2.3), point, sequences and sets (2.5) by
per-suit tables, resolved mechanically (A3 v1) or called with sinking (2.5 "Sinking", 6.1 v2),
then the start of play (2.7). ``point_of``, ``sequences_of`` and ``sets_of`` serve the
multi-seat engine too. Rules: ``docs/games/piquet.md``.
"""

from __future__ import annotations

import re

import numpy as np
from numba import njit

from ...core.bitmask import popcount
from .cards import _elder, _from_suit_bits, _suit_bits
from .config import (
    C_ALLOW_SINKING,
    C_ELDER_CALLS_IN_FULL,
    C_GAME,
    C_MINUS_COMBINATIONS,
    C_POINT_ENDING_IN_4_MINUS_ONE,
    C_SET_RANKS,
    GAME_AUCTION,
    MINUS_COMBINATIONS_NONE,
)
from .constants import (
    ACTION_ANSWER,
    ACTION_DECLARE,
    CALL_ANSWERED,
    CALL_AUTO,
    CALL_CONCEDED,
    CALL_ELDER,
    CALL_ELDER_SILENT,
    CALL_OPEN,
    CALL_SILENT,
    CALL_YOUNGER,
    CARTE_BLANCHE,
    CAT_POINT,
    CAT_SEQUENCE,
    CAT_SETS,
    OUTCOME_EQUAL,
    OUTCOME_NONE,
    PHASE_DECLARE,
    PHASE_OVER,
    PHASE_PLAY,
    POINT_VALUE,
)
from .layout import (
    F_BID,
    F_CALLS,
    F_CB_CLAIM,
    F_CURRENT,
    F_DECL_CALL,
    F_DECL_STAGE,
    F_DECL_WIN,
    F_PHASE,
    F_TRICK_CARD,
    M_HAND,
    M_SHOWN,
    V_DECL_PTS,
)
from .score import _score_hand


# --- declarations (2.5) ------------------------------------------------------------------------
@njit(cache=True)
def _point(mask, cfg):
    """Best point of a hand: (cards, value, suit, score)."""
    return point_of(mask, cfg[C_POINT_ENDING_IN_4_MINUS_ONE] != 0)


def _suit_tables():
    """Per-suit tables of the declarations, indexed by a suit's 8 rank bits (bit r = piquet rank
    r): a hand's point, sequences and sets are then a few lookups per suit instead of a loop over
    its ranks whose branches follow the cards (each a likely misprediction when the rows of a
    batch hold different hands; measurements: ``docs/history.md``, "From the code").

    ``point``: cards * 256 + pip value (A7: ace 11, court cards 10, others their number);
    ``value``: pip value * 16 + cards (3.3's point by value); ``seq_key``: the suit's best
    sequence of 3 or more as length * 8 + top rank (the longer, then the higher top), -1 if none;
    ``seq_best``: its rank bits; ``seq_cards``: the rank bits of all its sequences of 3 or more;
    ``seq_total``: what they score (3 or 4 cards: their length; 5 to 8: length + 10)."""
    point, value, seq_key, seq_best, seq_cards, seq_total = np.zeros((6, 256), np.int64)
    pips = POINT_VALUE.tolist()
    for bits in range(256):
        ranks = [r for r in range(8) if bits >> r & 1]
        n, v = len(ranks), sum(pips[r] for r in ranks)
        point[bits], value[bits] = n * 256 + v, v * 16 + n
        key, best, cards, total = -1, 0, 0, 0
        held = "".join("1" if bits >> r & 1 else "0" for r in range(8))  # seven first
        for run in re.finditer("1{3,}", held):  # the maximal runs of 3 or more ranks
            length, top = len(run.group()), run.end() - 1
            bits_of_run = ((1 << length) - 1) << run.start()
            cards |= bits_of_run
            total += length if length <= 4 else length + 10
            if length * 8 + top > key:
                key, best = length * 8 + top, bits_of_run
        seq_key[bits], seq_best[bits], seq_cards[bits], seq_total[bits] = key, best, cards, total
    return point, value, seq_key, seq_best, seq_cards, seq_total


_POINT_KEY, _VALUE_KEY, _SEQ_KEY, _SEQ_BEST, _SEQ_CARDS, _SEQ_TOTAL = _suit_tables()
# the four cards of each piquet rank (0 = seven .. 7 = ace)
_RANK_CARDS = np.array(
    [sum(1 << (suit * 13 + 5 + r) for suit in range(4)) for r in range(8)], np.uint64
)


@njit(cache=True)
def point_of(mask, minus_one_at_4):
    """Best point of a hand: (cards, value, suit, score); ``minus_one_at_4``: A7. The most
    cards, then the highest value; between equal suits the first (spades, hearts, diamonds,
    clubs)."""
    best_key, best_s = 0, -1
    for suit in range(4):
        key = _POINT_KEY[_suit_bits(mask, suit)]  # cards * 256 + value
        if key > best_key:
            best_key, best_s = key, suit
    best_n, best_v = best_key >> 8, best_key & 0xFF
    score = best_n
    if minus_one_at_4 and best_v % 10 == 4:
        score -= 1
    return best_n, best_v, best_s, score


@njit(cache=True)
def sequences_of(mask):
    """Sequences of a hand: (best length, best top rank, total score, all cards, best cards).
    The best is the longest, then the one with the highest top; between equal ones the first
    suit's."""
    best_key, total = -1, 0
    cards = np.uint64(0)
    best_cards = np.uint64(0)
    for suit in range(4):
        bits = _suit_bits(mask, suit)
        total += _SEQ_TOTAL[bits]
        cards |= _from_suit_bits(_SEQ_CARDS[bits], suit)
        key = _SEQ_KEY[bits]  # length * 8 + top, -1 if none
        if key > best_key:
            best_key = key
            best_cards = _from_suit_bits(_SEQ_BEST[bits], suit)
    if best_key < 0:
        return 0, -1, total, cards, best_cards
    return best_key >> 3, best_key & 7, total, cards, best_cards


@njit(cache=True)
def _sets(mask, cfg):
    """Trios and quatorzes of the set ranks: (best size, best rank, total score, cards)."""
    # piquet ranks 10, J, Q, K, A are 3..7; the seed's reading stops at K (A2)
    return sets_of(mask, 7 if cfg[C_SET_RANKS] == 0 else 6)


@njit(cache=True)
def sets_of(mask, highest):
    """Trios and quatorzes of ranks 10 (3) .. ``highest``: (best size, best rank, score, cards).
    The best is the largest, then the highest rank."""
    best_key, total = -1, 0
    cards = np.uint64(0)
    for r in range(3, highest + 1):
        rank_cards = mask & _RANK_CARDS[r]
        n = popcount(rank_cards)
        if n >= 3:
            cards |= rank_cards
            total += 3 if n == 3 else 14
            best_key = max(best_key, n * 8 + r)
    if best_key < 0:
        return 0, -1, total, cards
    return best_key >> 3, best_key & 7, total, cards


@njit(cache=True)
def _declare(s, b, cfg):
    """Carte blanche, then every category called so far, in reckoning order (2.3, 2.5, 2.6).

    Without sinking every category is ``CALL_AUTO`` and all resolve at once; the helpers
    (``declarations``, determinization) replay a row's calls on other hands with it. Stops if
    the game ends on the way (au cent)."""
    _declare_cb(s, b, cfg)
    for c in range(3):
        mode = s.f[b, F_DECL_CALL + c]
        if s.f[b, F_PHASE] == PHASE_OVER or mode == CALL_OPEN or mode == CALL_ELDER_SILENT:
            return
        _category(s, b, cfg, c)


@njit(cache=True)
def _declare_cb(s, b, cfg):
    """Carte blanche is reckoned first (elder's, then younger's; both holders score)."""
    elder = _elder(s, b)
    younger = 1 - elder
    if s.f[b, F_CB_CLAIM + elder] == 1:
        _score_hand(s, b, cfg, elder, CARTE_BLANCHE)
    if s.f[b, F_CB_CLAIM + younger] == 1:
        _score_hand(s, b, cfg, younger, CARTE_BLANCHE)


@njit(cache=True)
def _combination(hand, cfg, c):
    """A hand's best in category ``c``: (holds one, first key, second key, score, cards of
    everything it scores, cards of the best one).

    Point: count, then value; 1 per card. Sequence: length, then top card; the winner scores all
    his sequences. Sets: quatorze beats trio, then rank; the winner scores all his sets (2.5)."""
    if c == CAT_POINT:
        n, v, suit, sc = _point(hand, cfg)
        cards = hand & _from_suit_bits(0xFF, suit) if suit >= 0 else np.uint64(0)
        return n > 0, np.int64(n), np.int64(v), np.int64(sc), cards, cards
    if c == CAT_SEQUENCE:
        ln, top, tot, cards, best = sequences_of(hand)
        return ln > 0, np.int64(ln), np.int64(top), np.int64(tot), cards, best
    k, r, tot, cards = _sets(hand, cfg)
    return k > 0, np.int64(k), np.int64(r), np.int64(tot), cards, cards


@njit(cache=True)
def _category(s, b, cfg, c):
    """Resolve category ``c`` as called (``decl_call``), or only announce elder's call while
    younger's answer is awaited. Writes elder's public call (``calls``: the count / length /
    set size, and the value / top / set rank when said), ``decl_win``, ``decl_pts``, ``shown``
    and the score."""
    mode = s.f[b, F_DECL_CALL + c]
    elder = _elder(s, b)
    younger = 1 - elder
    ea, e1, e2, esc, ecards, ebest = _combination(s.m[b, M_HAND + elder], cfg, c)
    ya, y1, y2, ysc, ycards, ybest = _combination(s.m[b, M_HAND + younger], cfg, c)
    compared = mode == CALL_AUTO or mode == CALL_ANSWERED
    if compared or mode == CALL_ELDER or mode == CALL_CONCEDED:
        # elder's call: the count (length, set size) always; the value (top card) only when
        # younger's "equal" asks for it, or always when calls are in full (CAV au cent); a set
        # is named by its rank
        s.f[b, F_CALLS + 2 * c] = e1
        ask = cfg[C_ELDER_CALLS_IN_FULL] != 0 or (compared and e1 == y1)
        detail = 0
        if c == CAT_POINT:
            detail = e2 if ask else 0
        elif ea and (c == CAT_SETS or ask):
            detail = e2 + 1
        s.f[b, F_CALLS + 2 * c + 1] = detail
    if mode == CALL_ELDER:
        return
    if compared:
        if not ea and not ya:
            w = OUTCOME_NONE
        elif e1 > y1 or (e1 == y1 and e2 > y2):
            w = elder
        elif y1 > e1 or (e1 == y1 and y2 > e2):
            w = younger
        else:
            w = OUTCOME_EQUAL  # an equal point or best sequence: nobody scores (2.5)
    elif mode == CALL_CONCEDED:
        w = elder
    elif mode == CALL_YOUNGER:
        w = younger
    else:
        w = OUTCOME_NONE
    s.f[b, F_DECL_WIN + c] = w
    if w == OUTCOME_EQUAL:
        s.m[b, M_SHOWN + elder] |= ebest
        s.m[b, M_SHOWN + younger] |= ybest
    elif w != OUTCOME_NONE:
        s.m[b, M_SHOWN + w] |= ecards if w == elder else ycards
        pts = esc if w == elder else ysc
        s.v[b, V_DECL_PTS + 3 * w + c] = pts
        _score_hand(s, b, cfg, w, pts)


@njit(cache=True, forceinline=True)
def _holds(s, b, cfg, seat, c):
    """Whether ``seat`` holds a combination of category ``c`` to call."""
    return _combination(s.m[b, M_HAND + seat], cfg, c)[0]


@njit(cache=True)
def _start_declarations(s, b, cfg):
    """The declarations: mechanical (then play), or elder's first choice (sinking)."""
    if (
        cfg[C_GAME] == GAME_AUCTION
        and cfg[C_MINUS_COMBINATIONS] == MINUS_COMBINATIONS_NONE
        and s.f[b, F_BID] >= 0
        and s.f[b, F_BID] % 2 == 1
    ):
        # a minus contract without combinations (3.2 item 13, option): nothing is declared
        for c in range(3):
            s.f[b, F_DECL_CALL + c] = CALL_SILENT
        _start_play(s, b, cfg)
        return
    if cfg[C_ALLOW_SINKING]:
        _declare_cb(s, b, cfg)
        if s.f[b, F_PHASE] == PHASE_OVER:  # au cent: the target was reached
            return
        s.f[b, F_PHASE] = PHASE_DECLARE
        s.f[b, F_DECL_STAGE] = 0
        s.f[b, F_CURRENT] = _elder(s, b)
        return
    _start_play(s, b, cfg)


@njit(cache=True)
def _decide(s, b, cfg, a):
    """Sinking (6.1 v2): one declaration choice; the category is resolved (and scored, in
    reckoning order) once younger has spoken."""
    stage = s.f[b, F_DECL_STAGE]
    c = stage // 2
    elder = _elder(s, b)
    if stage % 2 == 0:
        s.f[b, F_DECL_CALL + c] = CALL_ELDER if a == ACTION_DECLARE else CALL_ELDER_SILENT
        if a == ACTION_DECLARE:
            _category(s, b, cfg, c)  # the call is public at once
        s.f[b, F_DECL_STAGE] = stage + 1
        s.f[b, F_CURRENT] = 1 - elder
        return
    if s.f[b, F_DECL_CALL + c] == CALL_ELDER:
        s.f[b, F_DECL_CALL + c] = CALL_ANSWERED if a == ACTION_ANSWER else CALL_CONCEDED
    else:
        s.f[b, F_DECL_CALL + c] = CALL_YOUNGER if a == ACTION_DECLARE else CALL_SILENT
    _category(s, b, cfg, c)
    if s.f[b, F_PHASE] == PHASE_OVER:
        return
    s.f[b, F_DECL_STAGE] = stage + 1
    if stage + 1 == 6:
        _begin_play(s, b, cfg)
    else:
        s.f[b, F_CURRENT] = elder


@njit(cache=True, forceinline=True)
def _start_play(s, b, cfg):
    _declare(s, b, cfg)
    if s.f[b, F_PHASE] == PHASE_OVER:  # au cent: the target was reached in hand
        return
    _begin_play(s, b, cfg)


@njit(cache=True, forceinline=True)
def _begin_play(s, b, cfg):
    s.f[b, F_PHASE] = PHASE_PLAY
    s.f[b, F_CURRENT] = _elder(s, b)  # elder leads (2.7)
    s.f[b, F_TRICK_CARD] = -1


@njit(cache=True)
def declare_row(s, b, cfg):
    """Run the declarations of row ``b`` (for the rules helper)."""
    _declare(s, b, cfg)
