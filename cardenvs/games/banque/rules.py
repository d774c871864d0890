"""Banque's rule kernels: the start of a match, the bank (4.5), a turn and what follows a play
(4.1, 4.4-4.8), the legal actions, applying an action, and the rewards. The deal is in
``deal.py`` (3), the hand's score and the match end in ``scoring.py`` (5), card helpers and what
covers what in ``beating.py`` (4.2, 4.3). Rules: ``docs/games/banque.md``, the project's rules
page; comments cite its sections ("4.3") and its choices ("A14").

Choices where the page leaves things open (details: its section 6 and "Engine notes"):

- ``num_players`` defaults to 4 (section 1).
- Option 1's hands are dealt before the trump choice but hidden until it is over (3.2).
- ``eights_wild``: every eight is played as ``eight <card>``, never ``play 8X`` (4.3, A13).
- A follow-up is one normal beat (an eight there is an eight again), offered only if possible (A9).
- The four Kings' take keeps the quad's follow-up onto the King left on top (4.3, A11).
- ``centre_card=False``: the bank starts empty and the dealer's left leads any card (A5).
- After a draw the duty to play holds again (4.4, A13).
- ``seven_effect``: ``control`` is no rescue draw; the drawing effects draw automatically (A12).
- Who moves first: eights do not count while they are wild (3.4).
- Deadlock: failures on an empty stock in a row, one per player holding cards (4.9).
- ``bonuses_stack=False`` pays only the largest part of a going-out bonus (5.3, A20).
- ``final_bank="top_owner"``: the top card's owner takes the bank left at the end (A16).
- ``unowned_top_failure="previous_owner"``: the base card's previous owner takes it (A15).
- ``specials_out_of_turn``: the others are asked in turn from the next mover's left (A8).
- ``win_tie_break="extra_hand_tied_only"``: the others sit the extra hand out (5.4).
- ``max_hands`` (default 60) also ends the match; equal highest totals share the win (5.4).
- Rewards are zero-sum: the winners share +1, the others −1; all players winners: 0.
- Next dealer ``loser`` after a deadlock: the most card points in hand (3.1, A18).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ...core import rng
from ...core.bitmask import action_in, bit, dense_suits, lowest, spread
from ...core.game import EPISODE_GAME, REWARD_WIN
from ...core.seats import seat_mod
from ...core.step_args import config_tuple, fixed_config
from .beating import (
    _beat_mask,
    _can_draw,
    _has_special,
    _num_players,
    _quad_ranks,
    _rank_mask,
    _seq_mask,
    _seq_starts,
    _usable,
    card_of,
)
from .config import (
    AFTER_DRAW_PLAY_DRAWN_CARD_ONLY,
    C_AFTER_DRAW_PLAY,
    C_BANK_TAKE,
    C_DRAWS_PER_FAILURE,
    C_EIGHT_FOLLOWUP,
    C_EIGHTS_WILD,
    C_EPISODE,
    C_FINISH_TRUMP_KING_TAKES_BANK,
    C_FORCED_PLAY,
    C_FOUR_KINGS_FOLLOW_UP,
    C_FOUR_KINGS_TAKE_BANK,
    C_FOUR_OF_A_KIND,
    C_NUM_PLAYERS,
    C_QUAD_FOLLOWUP,
    C_REWARD,
    C_SEQUENCE_FOLLOWUP,
    C_SEQUENCE_OF_FOUR,
    C_SEQUENCE_ORDER,
    C_SEVEN_EFFECT,
    C_SPECIALS_OUT_OF_TURN,
    C_TRUMP_KING,
    C_TRUMP_OPTION,
    C_UNOWNED_TOP_FAILURE,
    C_VOLUNTARY_DRAW,
    CONFIG_SIZE,
    FOLLOW_MANDATORY,
    FOLLOW_NONE,
    FOUR_KINGS_TAKE_BANK_ALWAYS,
    SEVEN_CONTROL,
    SEVEN_DRAW_MOVE,
    SEVEN_DRAW_SKIP,
    SEVEN_NONE,
)
from .constants import (
    ACTION_DRAW,
    ACTION_EIGHT,
    ACTION_PASS,
    ACTION_QUAD,
    ACTION_SEQ,
    ACTION_STOP,
    ACTION_TRUMP,
    KIND_EIGHT,
    KIND_NORMAL,
    KIND_QUAD,
    KIND_SEQ,
    MAX_SEATS,
    NUM_ACTIONS,
    NUM_CARDS,
    PHASE_DRAWN,
    PHASE_FOLLOW,
    PHASE_INTERRUPT,
    PHASE_OVER,
    PHASE_PLAY,
    PHASE_TRUMP,
    POINTS,
    RANK_7,
    RANK_8,
    RANK_K,
    SEQ_RANKS,
)
from .deal import (
    _first_move,
    _first_participant,
    _holders,
    _in_hand,
    _next_holder,
    _shuffle_deck,
    _start_hand,
)
from .layout import (
    F_BANK,
    F_BANK_N,
    F_BASE_PREV,
    F_CONTENDER,
    F_CURRENT,
    F_DEAL_NO,
    F_DEALER,
    F_DECK,
    F_DRAWS,
    F_ENDED_BY,
    F_FAILS,
    F_FOLLOW,
    F_LAST_OUT,
    F_LAST_PLAYER,
    F_N_OUT,
    F_NEXT_MOVER,
    F_OUT,
    F_OWNER,
    F_PHASE,
    F_SEVEN,
    F_SEVEN_NEXT,
    F_SITTING,
    F_STOCK_POS,
    F_SUIT_CLASS,
    F_TIEBREAK,
    F_TRUMP,
    F_WINNER,
    F_WINNERS,
    M_DRAWN,
    M_EPISODE,
    M_HAND,
    M_KEY,
    M_LEGAL,
    M_TAKEN,
    V_BANK_POINTS,
    V_BONUS,
    V_LAST_BANK_POINTS,
    V_LAST_BONUS,
    V_LAST_POINTS,
    V_PENALTY,
    V_TOTAL,
)
from .scoring import _bonus, _end_hand


# --- card helpers ------------------------------------------------------------------------------
@njit(cache=True, forceinline=True)
def _local36(mask):
    """The cards of ``mask`` as a 36-bit set of Banque card indices, suit by suit (one pext where
    the CPU runs it fast: ``core.bitmask.dense_suits``)."""
    return dense_suits(mask, 4, 9)


@njit(cache=True, forceinline=True)
def _planes(mask, out, off):
    """One-hot the 36 cards of ``mask`` into ``out[off:off+36]`` (every entry written)."""
    x = _local36(mask)
    spread(x, 36, out, off)


# --- a match -----------------------------------------------------------------------------------
@njit(cache=True)
def _reset(s, b, cfg, key, episode, deck, dealer):
    """Start a match in row ``b`` (``deck[0] < 0``: shuffle; ``dealer < 0``: by lot)."""
    s.m[b, M_KEY] = key
    s.m[b, M_EPISODE] = episode
    s.f[b, F_DEAL_NO] = 0
    s.f[b, F_WINNER] = -1
    s.f[b, F_TIEBREAK] = 0
    s.f[b, F_ENDED_BY] = 0
    for p in range(MAX_SEATS):
        s.v[b, V_TOTAL + p] = 0
        s.v[b, V_LAST_POINTS + p] = 0
        s.v[b, V_PENALTY + p] = 0
        s.v[b, V_LAST_BANK_POINTS + p] = 0
        s.v[b, V_LAST_BONUS + p] = 0
        s.f[b, F_LAST_OUT + p] = 0
        s.f[b, F_WINNERS + p] = 0
        s.f[b, F_SITTING + p] = 0
        s.f[b, F_CONTENDER + p] = 0
    if deck[0] < 0:
        _shuffle_deck(s, b)
    else:
        for i in range(NUM_CARDS):
            s.f[b, F_DECK + i] = deck[i]
    if dealer < 0:
        dealer = rng.draw(rng.stream(key, episode, 2000), 0, _num_players(cfg))  # by lot (3.1)
    s.f[b, F_DEALER] = dealer
    _start_hand(s, b, cfg)


# --- the bank (4.5) ----------------------------------------------------------------------------
@njit(cache=True, forceinline=True)
def _take(s, b, cfg, taker):
    """``taker`` takes the bank: all but the top card, which stays as an unowned base card
    (A7; ``bank_take="all"``: everything)."""
    n = s.f[b, F_BANK_N]
    keep = 0 if cfg[C_BANK_TAKE] else 1
    for i in range(n - keep):
        c = s.f[b, F_BANK + i]
        s.m[b, M_TAKEN + taker] |= bit(c)
        s.v[b, V_BANK_POINTS + taker] += POINTS[c % 13]
    if keep and n > 0:
        s.f[b, F_BASE_PREV] = s.f[b, F_OWNER + n - 1]
        s.f[b, F_BANK] = s.f[b, F_BANK + n - 1]
        s.f[b, F_OWNER] = -1
        s.f[b, F_BANK_N] = 1
    else:
        s.f[b, F_BASE_PREV] = -1
        s.f[b, F_BANK_N] = 0


@njit(cache=True, forceinline=True)
def _place(s, b, card, seat):
    """Put ``card`` from ``seat``'s hand on the bank, owned by ``seat``."""
    n = s.f[b, F_BANK_N]
    s.f[b, F_BANK + n] = card
    s.f[b, F_OWNER + n] = seat
    s.f[b, F_BANK_N] = n + 1
    s.m[b, M_HAND + seat] &= ~bit(card)


@njit(cache=True)
def _is_trump_king(s, b, cfg, card, seat):
    """Is ``card`` the trump King for ``seat`` (3.2)?"""
    if card % 13 != RANK_K:
        return False
    opt = cfg[C_TRUMP_OPTION]
    if opt == 1:
        return s.f[b, F_TRUMP + seat] == card // 13
    if opt == 2:
        return False
    c = s.f[b, F_SUIT_CLASS + card // 13]
    if opt == 5 and cfg[C_TRUMP_KING]:
        return c == 2
    return c >= 1


# --- turns -------------------------------------------------------------------------------------
@njit(cache=True, forceinline=True)
def _begin_turn(s, b, cfg, seat):
    """Start ``seat``'s turn; apply a pending seven (4.6: control, draw then move)."""
    s.f[b, F_CURRENT] = seat
    s.f[b, F_PHASE] = PHASE_PLAY
    s.f[b, F_DRAWS] = 0
    s.f[b, F_SEVEN] = 0
    s.m[b, M_DRAWN] = 0
    if s.f[b, F_SEVEN_NEXT] == 0:
        return
    s.f[b, F_SEVEN_NEXT] = 0
    if cfg[C_SEVEN_EFFECT] == SEVEN_CONTROL:
        s.f[b, F_SEVEN] = 1
        s.f[b, F_DRAWS] = cfg[C_DRAWS_PER_FAILURE]  # no rescue draw
    elif cfg[C_SEVEN_EFFECT] == SEVEN_DRAW_MOVE:
        s.f[b, F_SEVEN] = 2
        s.m[b, M_DRAWN] = _draw_one(s, b, seat)
        s.f[b, F_DRAWS] = cfg[C_DRAWS_PER_FAILURE]  # no second draw


@njit(cache=True, forceinline=True)
def _draw_one(s, b, seat):
    """``seat`` draws the top stock card (none if the stock is empty); returns it as a mask."""
    if s.f[b, F_STOCK_POS] >= NUM_CARDS:
        return np.uint64(0)
    c = s.f[b, F_DECK + s.f[b, F_STOCK_POS]]
    s.f[b, F_STOCK_POS] += 1
    s.m[b, M_HAND + seat] |= bit(c)
    return bit(c)


@njit(cache=True, forceinline=True)
def _pass_turn(s, b, cfg, seat):
    """The turn passes from ``seat`` to the next player holding cards (a seven under
    ``draw_and_skip`` makes him draw and lose the turn, 4.6); out of turn, the others holding
    a special play are asked first (A8)."""
    nxt = _next_holder(s, b, cfg, seat)
    if s.f[b, F_SEVEN_NEXT] and cfg[C_SEVEN_EFFECT] == SEVEN_DRAW_SKIP:
        s.f[b, F_SEVEN_NEXT] = 0
        _draw_one(s, b, nxt)
        nxt = _next_holder(s, b, cfg, nxt)  # the turn is lost, not failed
    if cfg[C_SPECIALS_OUT_OF_TURN]:
        s.f[b, F_NEXT_MOVER] = nxt
        if _ask_next(s, b, cfg, nxt):
            return
    _begin_turn(s, b, cfg, nxt)


@njit(cache=True, forceinline=True)
def _ask_next(s, b, cfg, after):
    """Ask the next seat clockwise after ``after`` (before the next mover) holding a special play;
    False if there is none left."""
    P = _num_players(cfg)
    nxt = s.f[b, F_NEXT_MOVER]
    p = after
    for _ in range(P):
        p = seat_mod(p + 1, P)
        if p == nxt:
            return False
        if _in_hand(s, b, p) and _has_special(s, b, cfg, p):
            s.f[b, F_PHASE] = PHASE_INTERRUPT
            s.f[b, F_CURRENT] = p
            s.f[b, F_DRAWS] = 0
            s.f[b, F_SEVEN] = 0
            s.m[b, M_DRAWN] = 0
            return True
    return False


@njit(cache=True, forceinline=True)
def _end_turn(s, b, cfg, seat):
    """A play is complete: a seven left on top affects the next player (4.6, A23)."""
    n = s.f[b, F_BANK_N]
    s.f[b, F_SEVEN_NEXT] = 0
    if (
        cfg[C_SEVEN_EFFECT] != SEVEN_NONE
        and n > 0
        and s.f[b, F_BANK + n - 1] % 13 == RANK_7
        and s.f[b, F_OWNER + n - 1] == seat
    ):
        s.f[b, F_SEVEN_NEXT] = 1
    _pass_turn(s, b, cfg, seat)


@njit(cache=True, forceinline=True)
def _fail(s, b, cfg, seat):
    """``seat`` fails against the top card: its owner takes the bank (4.5); deadlock (4.9)."""
    n = s.f[b, F_BANK_N]
    if n > 0:
        owner = s.f[b, F_OWNER + n - 1]
        if owner >= 0 and owner != seat:
            _take(s, b, cfg, owner)
        elif owner < 0 and cfg[C_UNOWNED_TOP_FAILURE] and 0 <= s.f[b, F_BASE_PREV] != seat:
            # A15 alternative: the base card's previous owner takes it (the whole bank); the
            # next player leads freely
            prev = s.f[b, F_BASE_PREV]
            for i in range(n):
                c = s.f[b, F_BANK + i]
                s.m[b, M_TAKEN + prev] |= bit(c)
                s.v[b, V_BANK_POINTS + prev] += POINTS[c % 13]
            s.f[b, F_BANK_N] = 0
            s.f[b, F_BASE_PREV] = -1
    if s.f[b, F_STOCK_POS] >= NUM_CARDS:
        s.f[b, F_FAILS] += 1
        if s.f[b, F_FAILS] >= _holders(s, b, cfg):
            _end_hand(s, b, cfg, 1)
            return
    else:
        s.f[b, F_FAILS] = 0
    _pass_turn(s, b, cfg, seat)


@njit(cache=True, forceinline=True)
def _after_play(s, b, cfg, seat, kind):
    """Everything that follows a play by ``seat``: going out and its bonuses (4.8, 5.3), the
    four Kings' and the trump King's take, the follow-up (4.3) or the end of the turn."""
    s.f[b, F_FAILS] = 0
    s.f[b, F_LAST_PLAYER] = seat
    n = s.f[b, F_BANK_N]
    top = s.f[b, F_BANK + n - 1]
    gone = s.m[b, M_HAND + seat] == np.uint64(0)
    kings = (
        kind == KIND_QUAD
        and top % 13 == RANK_K
        and (cfg[C_FOUR_KINGS_TAKE_BANK] == FOUR_KINGS_TAKE_BANK_ALWAYS or gone)
    )
    if gone:
        pos = s.f[b, F_N_OUT] + 1
        s.f[b, F_N_OUT] = pos
        s.f[b, F_OUT + seat] = pos
        s.v[b, V_BONUS + seat] += _bonus(cfg, pos, kind, top)
        if cfg[C_FINISH_TRUMP_KING_TAKES_BANK] and _is_trump_king(s, b, cfg, top, seat):
            kings = True  # a trump King as the finishing card takes the bank
    if kings:
        _take(s, b, cfg, seat)
    if _holders(s, b, cfg) <= 1:
        _end_hand(s, b, cfg, 0)
        return
    # the four Kings' take keeps the quad's follow-up onto the King left on top (4.3)
    if not gone and (not kings or (cfg[C_FOUR_KINGS_FOLLOW_UP] and s.f[b, F_BANK_N] > 0)):
        mode = FOLLOW_NONE
        if kind == KIND_EIGHT:
            mode = cfg[C_EIGHT_FOLLOWUP]
        elif kind == KIND_QUAD:
            mode = cfg[C_QUAD_FOLLOWUP]
        elif kind == KIND_SEQ:
            mode = cfg[C_SEQUENCE_FOLLOWUP]
        if mode != FOLLOW_NONE:
            s.f[b, F_PHASE] = PHASE_FOLLOW
            s.f[b, F_CURRENT] = seat
            s.f[b, F_FOLLOW] = kind
            if _beat_mask(s, b, cfg, seat, s.m[b, M_HAND + seat]) != np.uint64(0):
                return  # a follow-up is possible: the player decides
    _end_turn(s, b, cfg, seat)


# --- legal actions, step -----------------------------------------------------------------------
@njit(cache=True, forceinline=True)
def _follow_mode(s, b, cfg):
    k = s.f[b, F_FOLLOW]
    if k == KIND_EIGHT:
        return cfg[C_EIGHT_FOLLOWUP]
    if k == KIND_QUAD:
        return cfg[C_QUAD_FOLLOWUP]
    return cfg[C_SEQUENCE_FOLLOWUP]


@njit(cache=True, forceinline=True)
def _with(lo, hi, a):
    """Add action ``a`` to the two-word action set ``(lo, hi)``."""
    if a < 64:
        return lo | (np.uint64(1) << np.uint64(a)), hi
    return lo, hi | (np.uint64(1) << np.uint64(a - 64))


@njit(cache=True, forceinline=True)
def _legal_set(s, b, cfg):
    """The legal actions of the seat to act as two words (bit ``a`` of ``lo``, bit ``a - 64`` of
    ``hi``)."""
    lo = np.uint64(0)
    hi = np.uint64(0)
    ph = s.f[b, F_PHASE]
    seat = s.f[b, F_CURRENT]
    if ph == PHASE_OVER:
        return lo, hi
    if ph == PHASE_TRUMP:
        free = 15
        for p in range(_num_players(cfg)):
            if s.f[b, F_TRUMP + p] >= 0:
                free &= ~(1 << s.f[b, F_TRUMP + p])  # a suit nobody has taken
        return lo, hi | (np.uint64(free) << np.uint64(ACTION_TRUMP - 64))
    usable = _usable(s, b, cfg, seat)
    beat = _beat_mask(s, b, cfg, seat, usable)
    eights = _rank_mask(RANK_8) if cfg[C_EIGHTS_WILD] else np.uint64(0)
    # normal beats; with eights_wild an eight is always played as an eight
    if ph != PHASE_INTERRUPT:
        lo |= np.uint64(_local36(beat & ~eights))
    e = (beat if ph == PHASE_FOLLOW else usable) & eights
    if e != np.uint64(0):
        e >>= np.uint64(RANK_8)  # the eights of S H D C at bits 0, 13, 26, 39
        one = np.uint64(1)
        suits = (
            (e & one)
            | (((e >> np.uint64(13)) & one) << one)
            | (((e >> np.uint64(26)) & one) << np.uint64(2))
            | (((e >> np.uint64(39)) & one) << np.uint64(3))
        )
        lo |= suits << np.uint64(ACTION_EIGHT)
    if ph == PHASE_FOLLOW:
        if _follow_mode(s, b, cfg) != FOLLOW_MANDATORY:
            lo, hi = _with(lo, hi, ACTION_STOP)
        return lo, hi
    hand = s.m[b, M_HAND + seat]
    restrict = ph == PHASE_DRAWN and cfg[C_AFTER_DRAW_PLAY] == AFTER_DRAW_PLAY_DRAWN_CARD_ONLY
    if cfg[C_FOUR_OF_A_KIND]:
        q = _quad_ranks(hand)
        while q != np.uint64(0):
            r = lowest(q)
            q &= q - np.uint64(1)
            if restrict and _rank_mask(r) & usable == np.uint64(0):
                continue  # after a draw: only plays with a drawn card (A14)
            for suit in range(4):
                lo, hi = _with(lo, hi, ACTION_QUAD + 4 * (r - 4) + suit)
    if cfg[C_SEQUENCE_OF_FOUR]:
        for suit in range(4):
            st = _seq_starts(cfg, hand, suit)
            if st == 0:
                continue
            if restrict:
                for low in range(7):
                    if (st >> low) & 1 and _seq_mask(cfg, suit, low) & usable == np.uint64(0):
                        st &= ~(1 << low)  # after a draw: only with a drawn card (A14)
            hi |= np.uint64(st) << np.uint64(ACTION_SEQ - 64 + 7 * suit)
    if ph == PHASE_INTERRUPT:
        lo, hi = _with(lo, hi, ACTION_STOP)
    elif cfg[C_VOLUNTARY_DRAW] or cfg[C_FORCED_PLAY] == 0 or beat == np.uint64(0):
        # no normal beat (A13): draw while allowed, then fail
        lo, hi = _with(lo, hi, ACTION_DRAW if _can_draw(s, b, cfg) else ACTION_PASS)
    return lo, hi


@njit(cache=True, forceinline=True)  # into step_rows; the other callers: legal_row
def _legal(s, b, cfg, out):
    """Write the legal-action mask of the seat to act into ``out`` and keep it in the state
    (``legal``, read by ``_is_legal``)."""
    lo, hi = _legal_set(s, b, cfg)
    s.m[b, M_LEGAL] = lo
    s.m[b, M_LEGAL + 1] = hi
    spread(lo, 64, out, 0)
    spread(hi, NUM_ACTIONS - 64, out, 64)


@njit(cache=True, forceinline=True)
def _is_legal(s, b, cfg, a):
    """Is action ``a`` legal for the seat to act (the set ``_legal`` last wrote)?"""
    return action_in(s.m[b, M_LEGAL], s.m[b, M_LEGAL + 1], a, NUM_ACTIONS)


@njit(cache=True, inline="always")  # into step_rows, its only caller besides apply_row
def _apply(s, b, cfg, a):
    """Apply legal action ``a`` of the seat to act."""
    P = _num_players(cfg)
    seat = s.f[b, F_CURRENT]
    ph = s.f[b, F_PHASE]
    if ph == PHASE_TRUMP:
        s.f[b, F_TRUMP + seat] = a - ACTION_TRUMP
        nxt = seat
        for k in range(1, P + 1):
            nxt = seat_mod(seat + k, P)
            if s.f[b, F_SITTING + nxt] == 0:
                break
        if nxt == _first_participant(s, b, cfg):
            _first_move(s, b, cfg)
        else:
            s.f[b, F_CURRENT] = nxt
        return
    if a == ACTION_DRAW:
        s.m[b, M_DRAWN] |= _draw_one(s, b, seat)
        s.f[b, F_DRAWS] += 1
        s.f[b, F_PHASE] = PHASE_DRAWN
        return
    if a == ACTION_PASS:
        _fail(s, b, cfg, seat)
        return
    if a == ACTION_STOP:
        if ph == PHASE_INTERRUPT:
            if not _ask_next(s, b, cfg, seat):
                _begin_turn(s, b, cfg, s.f[b, F_NEXT_MOVER])
            return
        _end_turn(s, b, cfg, seat)
        return
    if ph == PHASE_INTERRUPT:
        s.f[b, F_SEVEN_NEXT] = 0  # the interrupted mover's seven is covered
    s.m[b, M_DRAWN] = 0
    if a < ACTION_EIGHT:
        _place(s, b, card_of(a), seat)
        kind = KIND_NORMAL
    elif a < ACTION_QUAD:
        _place(s, b, (a - ACTION_EIGHT) * 13 + RANK_8, seat)
        kind = KIND_EIGHT
    elif a < ACTION_SEQ:
        r = (a - ACTION_QUAD) // 4 + 4
        top = (a - ACTION_QUAD) % 4
        for suit in range(4):
            if suit != top:
                _place(s, b, suit * 13 + r, seat)
        _place(s, b, top * 13 + r, seat)  # the chosen card ends on top
        kind = KIND_QUAD
    else:
        i = a - ACTION_SEQ
        suit, low = i // 7, i % 7
        o = cfg[C_SEQUENCE_ORDER]
        for k in range(4):
            _place(s, b, suit * 13 + SEQ_RANKS[o, low, k], seat)  # highest first
        kind = KIND_SEQ
    # one call site: an inlined helper is compiled into every place that calls it
    _after_play(s, b, cfg, seat, kind)


# --- rewards -----------------------------------------------------------------------------------
@njit(cache=True)
def _write_rewards(s, b, cfg, out):
    """Zero-sum rewards of a finished episode (see the reward table)."""
    P = _num_players(cfg)
    for p in range(P):
        out[p] = 0.0
    if cfg[C_REWARD] == REWARD_WIN:
        n = 0
        for p in range(P):
            n += s.f[b, F_WINNERS + p]
        if 0 < n < P:
            for p in range(P):
                out[p] = 1.0 / n if s.f[b, F_WINNERS + p] else -1.0 / (P - n)
        return
    src = V_TOTAL if cfg[C_EPISODE] == EPISODE_GAME else V_LAST_POINTS
    mean = 0.0
    for p in range(P):
        mean += s.v[b, src + p] / P
    for p in range(P):
        out[p] = s.v[b, src + p] - mean


# --- the step kernels (``core.kernel_template``: ``kernels.step_for``) -------------------------
# one step kernel per seat count, each compiled on first use
STEP_VALUES = range(2, 5)
STEP_INDEX = C_NUM_PLAYERS
STEP_OPTION = "num_players"


@njit(cache=True, inline="always")
def specialise(cfg, players):
    """The config as the step kernel compiled for ``players`` seats reads it: the seat count is a
    constant in it (``core.step_args.fixed_config``), so every loop over the seats has a known trip
    count, and the config's values stay in registers: a faster step than one kernel reading the
    array, with the same outputs (measurements: ``docs/history.md``, "From the code")."""
    return fixed_config(cfg, CONFIG_SIZE, C_NUM_PLAYERS, players)


@njit(cache=True, inline="always")
def general(cfg):
    """The config as the kernels other than the step read it: a tuple of the type ``specialise``
    gives, every value read from the array (``core.step_args.config_tuple``), so that the helpers
    both call compile once."""
    return config_tuple(cfg, CONFIG_SIZE)
