"""Esel (Donkey, Russian "Осёл"): the rule kernels over batched NumPy state -- card helpers,
trump classes, trick resolution, dealing and reset, scoring, rewards, legal actions and apply.

Rules: ``docs/games/esel.md``, the project's rules page (reconstructed from a twice machine-
translated copy of the Russian page). The comments below cite its sections ("4.5") and its
choices ("A9"); "the spec" is that page.

Choices where the spec leaves things open (the page's section 7 and section 10)
-------------------------------------------------------------------------------
- 3.2: the trump arrangement is chosen per hand before the deal; the hands are dealt into the
  state at the start of the hand but nobody sees them until the trump choice is over.
- 3.2: under options 3-4 with ``common_trumps="random"`` the common suit(s) are drawn each hand.
- A10: every trick has ``num_players`` cards; refills to 4 after each trick, winner first.
- A12: the next dealer is the first leader of the previous hand (``next_dealer``); the first is
  drawn from the seed, ``options={"dealer": seat}`` fixes it (3.1).
- A13: ties play on; a bank count never goes below 0; ``max_hands`` (60) ends the game (5.3).
- Section 8: rewards are zero-sum (winner +1, the others -1/(P-1), a draw 0).
- A2: the first lead goes to the lowest diamond in the rank order (4.1).
- A3: own trumps under option 1 are distinct; with 2-3 players unchosen suits are ordinary.
- A8: an off-suit eight takes a trump, not a Q or K of its own suit; under options 3-5 an
  ordinary eight never takes a trump (4.6).
- 5.4: the cross-game rating formula is not part of the game and is not implemented.
- A1: example 22 follows (i), one-lower cards count only as played (``retroactive_chain``).
- A4-A8, A14-A15 follow the spec's recommendations, each with a config option (section 7).
- 4.6: under options 3-5 a same-value card takes from main-suit cards; higher class is VT.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ...core import rng
from ...core.bitmask import bit, dense_suits, lowest, spread
from ...core.cards import card_of_index, index_of_card
from ...core.game import EPISODE_DEAL, EPISODE_GAME, REWARD_WIN
from ...core.seats import seat_mod
from .config import (
    C_AFTER_FIGHTBACK,
    C_COMMON_TRUMPS,
    C_EPISODE,
    C_FIGHTBACK,
    C_FOUR_CARDS_READING,
    C_FOUR_SUIT_BONUS,
    C_KILL_AFTER_TRUMP_BEATS,
    C_MARRIAGE_BONUS,
    C_MAX_HANDS,
    C_MUST_BEAT,
    C_NEXT_DEALER,
    C_NUM_PLAYERS,
    C_QUEEN_JACK_BONUS,
    C_RETROACTIVE_CHAIN,
    C_REWARD,
    C_SAME_TRUMP_TAKEN_BY_KILL,
    C_TIE_BREAK,
    C_TRUMP_ASSIGNMENT,
    C_TRUMP_MUST_EXCEED,
    C_TRUMP_OPTION,
    FIGHTBACK_BEATS,
    FOUR_CARDS_READING_FOUR_OF_A_RANK,
    FOUR_CARDS_READING_ONE_SUIT_TRICK,
    KILL_AFTER_TRUMP_BEATS_LAST_MAIN,
    NEXT_DEALER_FIRST_LEADER,
    NEXT_DEALER_LEFT,
    TIE_BREAK_HAND_POINTS,
    TRUMP_ASSIGNMENT_CHOOSE,
    TRUMP_ASSIGNMENT_RANDOM,
    TRUMP_MUST_EXCEED_ALL,
)
from .constants import (
    ACTION_GO,
    ACTION_NO,
    ACTION_PLAY,
    ACTION_TRUMP,
    BEAT,
    HAND,
    LOSE_BANKS,
    MAX_SEATS,
    NUM_ACTIONS,
    NUM_CARDS,
    ORDER,
    PHASE_DECLARE,
    PHASE_OVER,
    PHASE_PLAY,
    PHASE_TRUMP,
    POINTS,
    RANK_8,
    RANK_J,
    RANK_K,
    RANK_Q,
    START_BANKS,
    THRESHOLDS,
    W_EIGHT,
    W_KILL,
    W_LEAD,
    W_LEAD_KILLED,
    W_ONE_LOWER,
    W_SAME,
    W_SAME_TRUMP,
    W_TRUMP,
)
from .layout import (
    F_BANK_CHANGE,
    F_BANKS,
    F_CURRENT,
    F_DEAL_NO,
    F_DEALER,
    F_DECK,
    F_DECL,
    F_FIGHTBACK,
    F_FIRST_LEADER,
    F_LAST_TRICK,
    F_LAST_WIN,
    F_MAIN_CARD,
    F_MAIN_REF,
    F_MAIN_SUIT,
    F_MAX_ORDER,
    F_PHASE,
    F_STOCK_POS,
    F_SUIT_CLASS,
    F_TRICK_CARDS,
    F_TRICK_N,
    F_TRICK_SEATS,
    F_TRICKS,
    F_TRUMP,
    F_VOID,
    F_WIN_CARD,
    F_WIN_CLASS,
    F_WIN_SEAT,
    F_WIN_TYPE,
    F_WINNER,
    M_EPISODE,
    M_HAND,
    M_KEY,
    M_LEGAL,
    M_PLAYED,
    M_TAKEN,
    V_LAST_POINTS,
    V_POINTS,
)


# --- card helpers ------------------------------------------------------------------------------
@njit(cache=True, forceinline=True)
def card_of(i):
    """The card id of Esel deck index ``i`` (9 ranks from the six, ``core.cards``)."""
    return card_of_index(i, 9, 4)


@njit(cache=True, forceinline=True)
def index_of(c):
    """The Esel deck index of card id ``c``."""
    return index_of_card(c, 9, 4)


@njit(cache=True, forceinline=True)
def _local36(mask):
    """The cards of ``mask`` as a 36-bit set of Esel card indices, suit by suit (one pext where
    the CPU runs it fast: ``core.bitmask.dense_suits``)."""
    return dense_suits(mask, 4, 9)


@njit(cache=True, forceinline=True)
def _suit_mask(suit):
    return np.uint64(0x1FF) << np.uint64(suit * 13 + 4)


@njit(cache=True, forceinline=True)
def _order(card):
    return ORDER[card % 13]


@njit(cache=True, forceinline=True)
def _beat(x, y):
    """Beat-table entry for card ``x`` placed on card ``y`` of the same suit (0, 1 or 2)."""
    return BEAT[ORDER[x % 13], ORDER[y % 13]]


@njit(cache=True, forceinline=True)
def _num_players(cfg):
    return cfg[C_NUM_PLAYERS]


# --- classes of cards (3.2, 4.6) ---------------------------------------------------------------
@njit(cache=True, forceinline=True)
def _class(s, b, cfg, card, seat):
    """Trump class of ``card`` played by ``seat``: option 1, 1 for the player's own trump;
    options 3-5, the class of its suit; option 2, always 0."""
    opt = cfg[C_TRUMP_OPTION]
    if opt == 1:
        return 1 if s.f[b, F_TRUMP + seat] == card // 13 else 0
    if opt == 2:
        return 0
    return s.f[b, F_SUIT_CLASS + card // 13]


@njit(cache=True, forceinline=True)
def _main_class(s, b, cfg, suit):
    """Class of the main suit: 0 under options 1-2 (a trump is a card of another suit)."""
    if cfg[C_TRUMP_OPTION] <= 2:
        return 0
    return s.f[b, F_SUIT_CLASS + suit]


# --- trick resolution (4.3, 4.4, 4.6) ----------------------------------------------------------
@njit(cache=True, forceinline=True)
def _resolve(s, b, cfg, card, seat, void, commit):
    """Does ``card`` played by ``seat`` take the current trick (4.4)?

    ``void``: the player holds no card of the main suit. With ``commit`` the trick state is
    updated (the card is placed); without, nothing is written. Returns True if it takes.

    Inlined at its call sites (``commit`` a constant in each): as a call of its own, numba passes
    the state's three arrays field by field on every call, for each candidate card of the legal
    mask; inlined, the batched step is faster with the same outputs (measurements:
    ``docs/history.md``, "From the code").
    """
    S = s.f[b, F_MAIN_SUIT]
    M = s.f[b, F_MAIN_CARD]
    W = s.f[b, F_WIN_CARD]
    wt = s.f[b, F_WIN_TYPE]
    cW = s.f[b, F_WIN_CLASS]
    R = s.f[b, F_MAIN_REF]
    suit = card // 13
    rank = card % 13
    oc = ORDER[rank]
    opt35 = cfg[C_TRUMP_OPTION] >= 3
    cC = _class(s, b, cfg, card, seat)
    cS = _main_class(s, b, cfg, S)
    new_type = -1
    if rank == RANK_8 and suit != S and void:
        # E: an eight of another suit, from a player void in the main suit, interrupts and its
        # suit becomes the main suit; it takes W unless W is of its suit and the table refuses
        ok = W // 13 != suit or _beat(card, W) == 1
        if opt35 and cC < cW:
            ok = False  # an ordinary eight never takes a trump (4.6)
        if ok:
            new_type = W_EIGHT
    elif suit == S:
        if W // 13 == S:
            if (wt == W_LEAD or wt == W_EIGHT or wt == W_ONE_LOWER) and _beat(card, W) == 2:
                new_type = W_ONE_LOWER  # one lower than the unkilled led card or chain
            elif _beat(card, W) == 1:
                new_type = W_KILL
        elif (
            wt == W_TRUMP
            or wt == W_SAME
            or (wt == W_SAME_TRUMP and cfg[C_SAME_TRUMP_TAKEN_BY_KILL])
        ):
            # a main-suit card takes a trump or same-value card (rule e) if it kills the last
            # main-suit card that held the trick (A14); not a higher-class trump (4.6)
            ref = R if cfg[C_KILL_AFTER_TRUMP_BEATS] == KILL_AFTER_TRUMP_BEATS_LAST_MAIN else M
            if not (opt35 and cW > cS) and _beat(card, ref) == 1:
                new_type = W_KILL
    elif rank == M % 13:
        if cC > cS:
            if not opt35 or cC >= cW or rank == W % 13:
                new_type = W_SAME_TRUMP  # own trump of the main card's value takes anything
        elif wt == W_LEAD or wt == W_ONE_LOWER or wt == W_SAME:
            new_type = W_SAME
    elif cC > cS and wt != W_SAME_TRUMP:
        # T: own trump (higher class) above M and every card that held the trick (A6)
        exceed = (
            s.f[b, F_MAX_ORDER]
            if cfg[C_TRUMP_MUST_EXCEED] == TRUMP_MUST_EXCEED_ALL
            else max(ORDER[M % 13], ORDER[W % 13])
        )
        if (
            oc > ORDER[M % 13]
            and oc > exceed
            and (W // 13 != suit or _beat(card, W) == 1)
            and (not opt35 or cC >= cW)
        ):
            new_type = W_TRUMP
    if new_type < 0:
        return False
    if not commit:
        return True
    s.f[b, F_WIN_CARD] = card
    s.f[b, F_WIN_SEAT] = seat
    s.f[b, F_WIN_TYPE] = new_type
    s.f[b, F_WIN_CLASS] = cC
    if oc > s.f[b, F_MAX_ORDER]:
        s.f[b, F_MAX_ORDER] = oc
    if new_type == W_EIGHT:
        s.f[b, F_MAIN_SUIT] = suit
        s.f[b, F_MAIN_CARD] = card
        s.f[b, F_MAIN_REF] = card
        s.f[b, F_FIGHTBACK] = 0
    elif new_type == W_ONE_LOWER or new_type == W_KILL:
        s.f[b, F_MAIN_REF] = card
    if new_type == W_KILL and s.f[b, F_FIGHTBACK]:
        # the led card fights back against a killer it beats (rows 7, 8; A5)
        L = s.f[b, F_TRICK_CARDS]
        if cfg[C_FIGHTBACK] == FIGHTBACK_BEATS:
            back = _beat(L, card) == 1
        else:
            back = _beat(card, L) != 1
        if back:
            s.f[b, F_WIN_CARD] = L
            s.f[b, F_WIN_SEAT] = s.f[b, F_TRICK_SEATS]
            s.f[b, F_WIN_TYPE] = W_LEAD if cfg[C_AFTER_FIGHTBACK] else W_LEAD_KILLED
            s.f[b, F_WIN_CLASS] = _class(s, b, cfg, L, s.f[b, F_TRICK_SEATS])
            s.f[b, F_MAIN_REF] = L
    return True


@njit(cache=True)
def _retro_chain(s, b, cfg):
    """A1 (ii): earlier main-suit cards one lower than the new chain card rejoin the chain."""
    changed = True
    while changed and s.f[b, F_WIN_TYPE] == W_ONE_LOWER:
        changed = False
        for i in range(s.f[b, F_TRICK_N]):
            c = s.f[b, F_TRICK_CARDS + i]
            W = s.f[b, F_WIN_CARD]
            if c != W and c // 13 == s.f[b, F_MAIN_SUIT] and _beat(c, W) == 2:
                s.f[b, F_WIN_CARD] = c
                s.f[b, F_WIN_SEAT] = s.f[b, F_TRICK_SEATS + i]
                s.f[b, F_MAIN_REF] = c
                changed = True
                break


@njit(cache=True, forceinline=True)
def _lead(s, b, card, seat):
    """Start a trick with ``card`` led by ``seat``: L = M = W, S = its suit (4.1)."""
    s.f[b, F_TRICK_N] = 1
    s.f[b, F_TRICK_CARDS] = card
    s.f[b, F_TRICK_SEATS] = seat
    s.f[b, F_MAIN_SUIT] = card // 13
    s.f[b, F_MAIN_CARD] = card
    s.f[b, F_WIN_CARD] = card
    s.f[b, F_WIN_SEAT] = seat
    s.f[b, F_WIN_TYPE] = W_LEAD
    s.f[b, F_WIN_CLASS] = 0
    s.f[b, F_MAIN_REF] = card
    s.f[b, F_FIGHTBACK] = 1
    s.f[b, F_MAX_ORDER] = ORDER[card % 13]


@njit(cache=True, forceinline=True)
def _follow(s, b, cfg, card, seat, void):
    """Place a following card on the trick and resolve it; True if it takes the trick now."""
    n = s.f[b, F_TRICK_N]
    s.f[b, F_TRICK_CARDS + n] = card
    s.f[b, F_TRICK_SEATS + n] = seat
    s.f[b, F_TRICK_N] = n + 1
    took = _resolve(s, b, cfg, card, seat, void, True)
    if took and cfg[C_RETROACTIVE_CHAIN]:
        _retro_chain(s, b, cfg)
    return took


@njit(cache=True)
def trick_row(s, b, cfg, cards, seats, voids):
    """Resolve one whole trick in row ``b`` (for the rules helper); returns the winning index."""
    _lead(s, b, cards[0], seats[0])
    for i in range(1, cards.shape[0]):
        _follow(s, b, cfg, cards[i], seats[i], voids[i])
    w = s.f[b, F_WIN_CARD]
    for i in range(cards.shape[0]):
        if cards[i] == w:
            return i
    return -1


# --- hands, declarations, scoring (3, 5) -------------------------------------------------------
@njit(cache=True)
def _shuffle_deck(s, b):
    base = rng.stream(s.m[b, M_KEY], s.m[b, M_EPISODE], s.f[b, F_DEAL_NO])
    for i in range(NUM_CARDS):
        s.f[b, F_DECK + i] = card_of(i)
    rng.shuffle(base, s.f[b, F_DECK : F_DECK + NUM_CARDS])


@njit(cache=True)
def _start_hand(s, b, cfg):
    """Deal the row's deck: 4 cards each from the dealer's left, the rest is the stock; fix the
    trump arrangement (3.2, 3.3)."""
    P = _num_players(cfg)
    dealer = s.f[b, F_DEALER]
    for p in range(MAX_SEATS):
        s.m[b, M_HAND + p] = 0
        s.m[b, M_PLAYED + p] = 0
        s.m[b, M_TAKEN + p] = 0
        s.v[b, V_POINTS + p] = 0
        s.f[b, F_TRICKS + p] = 0
        s.f[b, F_TRUMP + p] = -1
        s.f[b, F_SUIT_CLASS + p] = 0
        s.f[b, F_DECL + p] = -1
        s.f[b, F_LAST_TRICK + p] = -1
        s.f[b, F_VOID + p] = 0
    for i in range(P):
        seat = (dealer + 1 + i) % P
        for k in range(HAND):
            s.m[b, M_HAND + seat] |= bit(s.f[b, F_DECK + HAND * i + k])
    s.f[b, F_STOCK_POS] = HAND * P
    s.f[b, F_TRICK_N] = 0
    s.f[b, F_LAST_WIN] = -1
    s.f[b, F_LAST_WIN + 1] = -1
    opt = cfg[C_TRUMP_OPTION]
    base = rng.stream(s.m[b, M_KEY], s.m[b, M_EPISODE], 1000 + s.f[b, F_DEAL_NO])
    if opt == 1 and cfg[C_TRUMP_ASSIGNMENT] == TRUMP_ASSIGNMENT_RANDOM:
        # random distinct own trumps (A3 alternative)
        suits = np.arange(4, dtype=np.int8)
        rng.shuffle(base, suits)
        for p in range(P):
            s.f[b, F_TRUMP + p] = suits[p]
    elif opt == 3 or opt == 4:
        common = cfg[C_COMMON_TRUMPS]
        if common == 0:
            suits = np.arange(4, dtype=np.int8)
            rng.shuffle(base, suits)
            for k in range(opt - 2):
                common |= 1 << suits[k]
        for suit in range(4):
            s.f[b, F_SUIT_CLASS + suit] = (common >> suit) & 1
    elif opt == 5:
        s.f[b, F_SUIT_CLASS + 0] = 2  # spades: senior trumps
        s.f[b, F_SUIT_CLASS + 2] = 1  # diamonds: junior trumps
    left = (dealer + 1) % P
    s.f[b, F_CURRENT] = left
    s.f[b, F_PHASE] = (
        PHASE_TRUMP
        if (opt == 1 and cfg[C_TRUMP_ASSIGNMENT] == TRUMP_ASSIGNMENT_CHOOSE)
        else PHASE_DECLARE
    )


@njit(cache=True)
def _first_leader(s, b, cfg):
    """The holder of the lowest diamond leads; nobody: the dealer's left (4.1)."""
    P = _num_players(cfg)
    best, who = 99, (s.f[b, F_DEALER] + 1) % P
    for p in range(P):
        dia = (s.m[b, M_HAND + p] >> np.uint64(2 * 13)) & np.uint64(0x1FFF)
        for r in range(4, 13):
            if (dia >> np.uint64(r)) & np.uint64(1) and ORDER[r] < best:
                best, who = ORDER[r], p
    return who


@njit(cache=True)
def _reset(s, b, cfg, key, episode, deck, dealer):
    """Start a game in row ``b`` (``deck[0] < 0``: shuffle; ``dealer < 0``: draw)."""
    s.m[b, M_KEY] = key
    s.m[b, M_EPISODE] = episode
    s.f[b, F_DEAL_NO] = 0
    s.f[b, F_WINNER] = -1
    for p in range(MAX_SEATS):
        s.f[b, F_BANKS + p] = START_BANKS if p < _num_players(cfg) else 0
        s.f[b, F_BANK_CHANGE + p] = 0
        s.v[b, V_LAST_POINTS + p] = 0
    if deck[0] < 0:
        _shuffle_deck(s, b)
    else:
        for i in range(NUM_CARDS):
            s.f[b, F_DECK + i] = deck[i]
    if dealer < 0:
        dealer = rng.draw(rng.stream(key, episode, 2000), 0, _num_players(cfg))  # by lot (3.1)
    s.f[b, F_DEALER] = dealer
    _start_hand(s, b, cfg)


@njit(cache=True, forceinline=True)
def _take_trick(s, b, cfg):
    """The trick goes to W's player; refill hands, the winner first (3.3, 4.1)."""
    P = _num_players(cfg)
    w = s.f[b, F_WIN_SEAT]
    suit0 = s.f[b, F_TRICK_CARDS] // 13
    one_suit = True
    for i in range(P):
        c = s.f[b, F_TRICK_CARDS + i]
        s.m[b, M_TAKEN + w] |= bit(c)
        s.v[b, V_POINTS + w] += POINTS[c % 13]
        one_suit = one_suit and c // 13 == suit0
        s.f[b, F_LAST_TRICK + i] = c
    if P == 4 and one_suit and cfg[C_FOUR_CARDS_READING] == FOUR_CARDS_READING_ONE_SUIT_TRICK:
        s.v[b, V_POINTS + w] += cfg[C_FOUR_SUIT_BONUS]  # four cards of one suit (A9)
    s.f[b, F_LAST_WIN] = w
    s.f[b, F_LAST_WIN + 1] = s.f[b, F_WIN_TYPE]
    s.f[b, F_TRICKS + w] += 1
    s.f[b, F_TRICK_N] = 0
    for i in range(P):
        p = seat_mod(w + i, P)
        if s.f[b, F_STOCK_POS] < NUM_CARDS:
            s.m[b, M_HAND + p] |= bit(s.f[b, F_DECK + s.f[b, F_STOCK_POS]])
            s.f[b, F_STOCK_POS] += 1
            s.f[b, F_VOID + p] = 0  # a drawn card may be of a suit he was known to lack
    if s.m[b, M_HAND + w] == np.uint64(0):
        _end_hand(s, b, cfg)
    else:
        s.f[b, F_CURRENT] = w


@njit(cache=True)
def _end_hand(s, b, cfg):
    """Score the hand, move the banks, decide the game or deal the next hand (5)."""
    P = _num_players(cfg)
    go_at, no_at = THRESHOLDS[P, 0], THRESHOLDS[P, 1]
    for p in range(P):
        t = s.m[b, M_TAKEN + p]
        for suit in range(4):
            if (
                (t >> np.uint64(suit * 13 + RANK_K))
                & (t >> np.uint64(suit * 13 + RANK_Q))
                & np.uint64(1)
            ):
                s.v[b, V_POINTS + p] += cfg[C_MARRIAGE_BONUS]  # king and queen of one suit
        if (t >> np.uint64(RANK_Q)) & (t >> np.uint64(2 * 13 + RANK_J)) & np.uint64(1):
            s.v[b, V_POINTS + p] += cfg[C_QUEEN_JACK_BONUS]  # queen of spades and jack of diamonds
        if cfg[C_FOUR_CARDS_READING] == FOUR_CARDS_READING_FOUR_OF_A_RANK:
            for r in range(4, 13):  # A9 alternative: all four cards of one rank taken
                if (
                    (t >> np.uint64(r))
                    & (t >> np.uint64(13 + r))
                    & (t >> np.uint64(26 + r))
                    & (t >> np.uint64(39 + r))
                    & np.uint64(1)
                ):
                    s.v[b, V_POINTS + p] += cfg[C_FOUR_SUIT_BONUS]
        pts = s.v[b, V_POINTS + p]
        change = 0
        if s.f[b, F_DECL + p] == 1:
            change = -1 if pts >= go_at else 1
        elif pts >= no_at:
            change = -1
        if s.f[b, F_BANKS + p] + change < 0:
            change = 0  # all banks discharged: a bank count never goes below 0
        s.f[b, F_BANK_CHANGE + p] = change
        s.f[b, F_BANKS + p] += change
        s.v[b, V_LAST_POINTS + p] = pts
    # the end of the game (5.3): one player at 0 banks wins; at 6 banks the fewest win; ties
    # play on (A13), or with tie_break="hand_points" the tied player with the most points in
    # this hand wins (equal points: the next hand decides); after max_hands the fewest win, a
    # tie is drawn (with "hand_points": unless this hand's points decide it)
    zero, n_zero, six = -1, 0, False
    low, n_low, low_seat = 127, 0, -1
    for p in range(P):
        k = s.f[b, F_BANKS + p]
        if k <= 0:
            zero, n_zero = p, n_zero + 1
        if k >= LOSE_BANKS:
            six = True
        if k < low:
            low, n_low, low_seat = k, 1, p
        elif k == low:
            n_low += 1
    last = s.f[b, F_DEAL_NO] + 1 >= cfg[C_MAX_HANDS]
    if n_zero == 1:
        _game_over(s, b, cfg, zero)
        return
    if (six or last) and n_low == 1:
        _game_over(s, b, cfg, low_seat)
        return
    if cfg[C_TIE_BREAK] == TIE_BREAK_HAND_POINTS and n_low >= 2 and (n_zero >= 2 or six or last):
        # the tied players are those with the fewest banks (0 when several reached 0)
        best, n_best, best_seat = np.int64(-1), 0, -1
        for p in range(P):
            if s.f[b, F_BANKS + p] == low:
                pts = np.int64(s.v[b, V_LAST_POINTS + p])
                if pts > best:
                    best, n_best, best_seat = pts, 1, p
                elif pts == best:
                    n_best += 1
        if n_best == 1:
            _game_over(s, b, cfg, best_seat)
            return
    if last:
        _game_over(s, b, cfg, -1)
        return
    if cfg[C_EPISODE] == EPISODE_DEAL:
        _game_over(s, b, cfg, -1)
        return
    first = s.f[b, F_FIRST_LEADER]
    if cfg[C_NEXT_DEALER] == NEXT_DEALER_FIRST_LEADER:
        s.f[b, F_DEALER] = first
    elif cfg[C_NEXT_DEALER] == NEXT_DEALER_LEFT:
        s.f[b, F_DEALER] = (s.f[b, F_DEALER] + 1) % P
    s.f[b, F_DEAL_NO] += 1
    _shuffle_deck(s, b)
    _start_hand(s, b, cfg)


@njit(cache=True, forceinline=True)
def _game_over(s, b, cfg, winner):
    s.f[b, F_PHASE] = PHASE_OVER
    s.f[b, F_CURRENT] = -1
    s.f[b, F_WINNER] = winner


@njit(cache=True)
def _write_rewards(s, b, cfg, out):
    """Zero-sum rewards of a finished episode (the reward table: docs/games/esel.md 8)."""
    P = _num_players(cfg)
    for p in range(P):
        out[p] = 0.0
    if cfg[C_EPISODE] == EPISODE_GAME:
        if cfg[C_REWARD] == REWARD_WIN:
            w = s.f[b, F_WINNER]
            if w >= 0:
                for p in range(P):
                    out[p] = 1.0 if p == w else -1.0 / (P - 1)
        else:
            mean = 0.0
            for p in range(P):
                mean += s.f[b, F_BANKS + p] / P
            for p in range(P):
                out[p] = mean - s.f[b, F_BANKS + p]
    else:
        mean = 0.0
        for p in range(P):
            mean += (
                s.f[b, F_BANK_CHANGE + p]
                if cfg[C_REWARD] == REWARD_WIN
                else s.v[b, V_LAST_POINTS + p]
            ) / P
        for p in range(P):
            if cfg[C_REWARD] == REWARD_WIN:
                out[p] = mean - s.f[b, F_BANK_CHANGE + p]
            else:
                out[p] = s.v[b, V_LAST_POINTS + p] - mean


# --- legal actions, apply ----------------------------------------------------------------------
@njit(cache=True, forceinline=True)
def _legal_cards(s, b, cfg):
    """The cards the player to act may play, as a card mask (4.5)."""
    seat = s.f[b, F_CURRENT]
    hand = s.m[b, M_HAND + seat]
    if s.f[b, F_TRICK_N] == 0:
        return hand  # the leader plays anything
    S = s.f[b, F_MAIN_SUIT]
    main = hand & _suit_mask(S)
    void = main == np.uint64(0)
    takers = np.uint64(0)
    others = np.uint64(0)
    x = hand
    if not cfg[C_MUST_BEAT]:
        # a main-suit card (any card, from a player void in it) is legal whether or not it takes:
        # only the other cards need the trick resolved (the loop below, short-circuited)
        others = hand if void else main
        x = hand & ~others
    while x != np.uint64(0):
        low = x & (np.uint64(0) - x)
        c = lowest(x)
        x ^= low
        if c % 13 == RANK_8 and c // 13 != S and not void:
            continue  # an off-suit 8 only from a player void in the main suit
        if _resolve(s, b, cfg, c, seat, void, False):
            takers |= low
        elif c // 13 == S or void:
            others |= low  # not taking: a main-suit card if he has one, else anything
    if cfg[C_MUST_BEAT] and takers != np.uint64(0):
        return takers
    return takers | others


@njit(cache=True, forceinline=True)  # into step_rows; the other callers: legal_row
def _legal(s, b, cfg, out):
    """Write the legal-action mask of the seat to act into ``out``."""
    for i in range(NUM_ACTIONS):
        out[i] = 0
    ph = s.f[b, F_PHASE]
    if ph == PHASE_PLAY:
        cards = _legal_cards(s, b, cfg)
        s.m[b, M_LEGAL] = cards  # kept for checking the next action without recomputing
        x = _local36(cards)
        spread(x, 36, out, ACTION_PLAY)
    elif ph == PHASE_DECLARE:
        out[ACTION_GO] = 1
        out[ACTION_NO] = 1
    elif ph == PHASE_TRUMP:
        for suit in range(4):
            taken = False
            for p in range(_num_players(cfg)):
                taken = taken or s.f[b, F_TRUMP + p] == suit
            out[ACTION_TRUMP + suit] = 0 if taken else 1


@njit(cache=True, forceinline=True)
def _is_legal(s, b, cfg, a):
    ph = s.f[b, F_PHASE]
    if ph == PHASE_PLAY:
        if a >= ACTION_GO:
            return False
        c = card_of(a - ACTION_PLAY)
        # the legal cards written with the last mask, and (never trusting a cache blindly) in hand
        ok = s.m[b, M_LEGAL] & s.m[b, M_HAND + s.f[b, F_CURRENT]]
        return (ok >> np.uint64(c)) & np.uint64(1) == np.uint64(1)
    if ph == PHASE_DECLARE:
        return a == ACTION_GO or a == ACTION_NO
    if ph == PHASE_TRUMP:
        if a < ACTION_TRUMP:
            return False
        for p in range(_num_players(cfg)):
            if s.f[b, F_TRUMP + p] == a - ACTION_TRUMP:
                return False
        return True
    return False


@njit(cache=True, inline="always")  # into step_rows, its only caller
def _apply(s, b, cfg, a):
    """Apply legal action ``a`` of the seat to act."""
    P = _num_players(cfg)
    seat = s.f[b, F_CURRENT]
    ph = s.f[b, F_PHASE]
    if ph == PHASE_TRUMP:
        s.f[b, F_TRUMP + seat] = a - ACTION_TRUMP
        nxt = seat_mod(seat + 1, P)
        if nxt == seat_mod(s.f[b, F_DEALER] + 1, P):
            s.f[b, F_PHASE] = PHASE_DECLARE
        s.f[b, F_CURRENT] = nxt
        return
    if ph == PHASE_DECLARE:
        s.f[b, F_DECL + seat] = 1 if a == ACTION_GO else 0
        nxt = seat_mod(seat + 1, P)
        if nxt == seat_mod(s.f[b, F_DEALER] + 1, P):
            s.f[b, F_PHASE] = PHASE_PLAY
            lead = _first_leader(s, b, cfg)
            s.f[b, F_FIRST_LEADER] = lead
            s.f[b, F_CURRENT] = lead
        else:
            s.f[b, F_CURRENT] = nxt
        return
    card = card_of(a - ACTION_PLAY)
    void = s.m[b, M_HAND + seat] & _suit_mask(s.f[b, F_MAIN_SUIT]) == np.uint64(0)
    s.m[b, M_HAND + seat] &= ~bit(card)
    s.m[b, M_PLAYED + seat] |= bit(card)
    if s.f[b, F_TRICK_N] == 0:
        _lead(s, b, card, seat)
    else:
        S = s.f[b, F_MAIN_SUIT]
        took = _follow(s, b, cfg, card, seat, void)
        if card // 13 != S and (card % 13 == RANK_8 or not took):
            # 4.5: an off-suit card that does not take, or an off-suit eight, is only legal
            # from a player void in the main suit; everybody saw it (kept for determinize)
            s.f[b, F_VOID + seat] |= np.int8(1 << S)
    if s.f[b, F_TRICK_N] == P:
        _take_trick(s, b, cfg)
    else:
        s.f[b, F_CURRENT] = seat_mod(seat + 1, P)


# --- the step kernel (``core.kernel_template``: ``kernels.step_for``) --------------------------
# one step kernel for every config
STEP_VALUES = (0,)
STEP_INDEX = None
STEP_OPTION = None


@njit(cache=True, inline="always")
def specialise(cfg, value):
    """The config as the step kernel reads it: the array itself (one kernel for every config)."""
    return cfg


@njit(cache=True, inline="always")
def general(cfg):
    """The config as the kernels other than the step read it: the array, as the step does."""
    return cfg
