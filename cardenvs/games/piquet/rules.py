"""Two-handed Piquet's rule kernels (``piquet-v0``; ``piquet_au_cent-v0`` and ``auction_piquet-v0``
run on them too): the deal and reset, the carte blanche claims, the bidding action and the
redeal, trick play, the end of a deal and the next one, the rewards, the legal actions and
applying an action.

Rules: ``docs/games/piquet.md`` (sections 2, 3.1, 3.2, 4 and 6); every rule cites its section
("2.5") or choice ("A3"). The other rule modules: ``cards`` (card helpers, roles), ``score``
(scoring events, pique and repique, the end of the episode), ``declare`` (carte blanche and the
declarations, with sinking), ``exchange`` (the exchange) and ``auction`` (Auction Piquet's
bidding and contract).

Choices where the spec leaves things open (each on the page)
------------------------------------------------------------
- Both players holding carte blanche both score 10, so neither can pique or repique (2.3).
- Pique is elder's only, also when elder's first lead scores nothing (A6 off) (2.6).
- Of two suits of equal point, the first in the order S, H, D, C is named and shown (2.5).
- An equal sequence shows each player's equal best sequence, not the lower ones (2.5).
- ``point_ending_in_4_minus_one``: a point worth 34, 44, ... scores a card less (A7).
- ``cards_bonus_counts_for_pique``: the 10 for the cards counts once elder wins his 7th trick (A11).
- ``low_cards_score_in_play=False``: leads and captures score from a 10 up, the last trick too (A6).
- ``first_exchanger="dealer"``: the dealer exchanges first, up to five; elder still leads (A1).
- ``partie="four_deals"``: four deals, the 1st and 4th doubled, tie-break deals single (2.10).
- A deal's ``points`` in the record are what it added to the totals, doubled deals doubled (2.10).
- ``carte_blanche_auto=False``: each seat claims or not, elder first; claims are public (A10, 2.3).
- ``trick_scoring="ten_for_last"``: 1 a trick won, 10 for the last, no cards bonus (2.8).
- Every lead scores, even when the trick is captured: 12 leads + captures + 1 (2.8, 7.1).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ...core import rng
from ...core.bitmask import action_in, bit, spread
from ...core.game import EPISODE_DEAL, EPISODE_GAME, REWARD_WIN
from .auction import _bid_bits, _end_auction, _score_contract, _start_bidding
from .cards import _elder, _exchanger, _from_suit_bits, _holds_face_card, _local32, card_of
from .config import (
    BIDDING_BEFORE_EXCHANGE,
    C_ALLOW_SINKING,
    C_AU_CENT_PARTIE,
    C_AUCTION_LAST_TRICK_EXTRA,
    C_AUCTION_SENTENCE_READING,
    C_BIDDING,
    C_CARDS_BONUS_COUNTS_FOR_PIQUE,
    C_CARTE_BLANCHE_AUTO,
    C_DOUBLE_BELOW,
    C_EPISODE,
    C_GAME,
    C_LEGACY_TIE_BREAK,
    C_LOW_CARDS_SCORE_IN_PLAY,
    C_MAX_DEALS,
    C_PARTIE,
    C_REWARD,
    C_TARGET,
    C_TRICK_SCORING,
    GAME_AU_CENT,
    GAME_AUCTION,
    PARTIE_FOUR_DEALS,
    PARTIE_SIX_DEALS,
    READ_NO_CB,
    READ_NO_EXCHANGE,
    TRICK_SCORING_TEN_FOR_LAST,
)
from .constants import (
    ACTION_BID,
    ACTION_CLAIM,
    ACTION_DISCARD,
    ACTION_DOUBLE,
    ACTION_LOOK,
    ACTION_PASS,
    ACTION_PLAY,
    ACTION_REDOUBLE,
    ACTION_STOP,
    BIT_ANSWER,
    BIT_CONCEDE,
    BIT_DECLARE,
    BIT_SINK,
    CALL_AUTO,
    CALL_ELDER,
    CALL_OPEN,
    CAPOT_BONUS,
    CARDS_BONUS,
    HAND,
    MAX_DEALS,
    NUM_ACTIONS,
    NUM_CARDS,
    NUM_OTHER_ACTIONS,
    OUTCOME_PENDING,
    PARTIE_GAMES_TO_WIN,
    PARTIE_MAX_GAMES,
    PHASE_BID,
    PHASE_CLAIM,
    PHASE_DECLARE,
    PHASE_EXCHANGE,
    PHASE_LOOK,
    PHASE_OVER,
)
from .declare import _decide, _holds
from .exchange import _after_exchange, _exchange_limits, _finish_exchange, _leftovers
from .layout import (
    F_BID,
    F_BID_ACTS,
    F_BIDDER,
    F_BONUS,
    F_CALLS,
    F_CB,
    F_CB_CLAIM,
    F_CURRENT,
    F_DEAL_NO,
    F_DEALER,
    F_DECK,
    F_DECL_CALL,
    F_DECL_STAGE,
    F_DECL_WIN,
    F_DOUBLED,
    F_EXCH,
    F_GAME_START,
    F_GAMES,
    F_GAMES_WON,
    F_LAST_CONTRACT,
    F_LAST_DISC,
    F_LAST_TRICK,
    F_LOOKED,
    F_NDISC,
    F_PHASE,
    F_REDEALS,
    F_SWAPPED,
    F_TALON_POS,
    F_TRICK_CARD,
    F_TRICK_LEADER,
    F_TRICKS,
    F_VOID,
    F_WINNER,
    F_XCOUNT,
    M_CB_SHOWN,
    M_DEALT,
    M_DISCARDS,
    M_EPISODE,
    M_HAND,
    M_KEY,
    M_LEGAL,
    M_PLAYED,
    M_SEEN,
    M_SHOWN,
    V_DEAL_SCORE,
    V_DECL_PTS,
    V_LAST_POINTS,
    V_RESULT_POINTS,
    V_TOTAL,
)
from .score import _add_deal_to_totals, _elder_pique, _finish, _score_end, _score_play


# --- deal flow ---------------------------------------------------------------------------------
@njit(cache=True)
def _deal(s, b, cfg, dealer):
    """Deal the row's deck (elder 12, younger 12, talon 8) with ``dealer`` dealing (2.2)."""
    s.f[b, F_DEALER] = dealer
    s.f[b, F_SWAPPED] = 0
    elder = 1 - dealer  # the first twelve cards go to the non-dealer
    he = np.uint64(0)
    hy = np.uint64(0)
    for i in range(HAND):
        he |= bit(s.f[b, F_DECK + i])
        hy |= bit(s.f[b, F_DECK + HAND + i])
    s.m[b, M_HAND + elder] = he
    s.m[b, M_HAND + dealer] = hy
    for seat in range(2):
        s.m[b, M_DEALT + seat] = s.m[b, M_HAND + seat]
        s.f[b, F_CB + seat] = 0 if _holds_face_card(s.m[b, M_HAND + seat]) else 1
        # a carte blanche is claimed at once (auto), or every seat decides in turn so that the
        # turn order reveals nothing: only a holder may claim (A10)
        s.f[b, F_CB_CLAIM + seat] = s.f[b, F_CB + seat] if cfg[C_CARTE_BLANCHE_AUTO] else -1
        if cfg[C_GAME] == GAME_AUCTION and cfg[C_AUCTION_SENTENCE_READING] == READ_NO_CB:
            s.f[b, F_CB_CLAIM + seat] = 0  # this reading of 3.2 item 1: no carte blanche
        s.m[b, M_DISCARDS + seat] = 0
        s.m[b, M_SEEN + seat] = 0
        s.m[b, M_SHOWN + seat] = 0
        s.m[b, M_CB_SHOWN + seat] = 0
        s.m[b, M_PLAYED + seat] = 0
        s.f[b, F_XCOUNT + seat] = 0
        s.f[b, F_TRICKS + seat] = 0
        s.f[b, F_BONUS + seat] = 0
        s.f[b, F_VOID + seat] = 0
        s.v[b, V_DEAL_SCORE + seat] = 0
        for c in range(3):
            s.v[b, V_DECL_PTS + 3 * seat + c] = 0
    for c in range(3):
        s.f[b, F_DECL_WIN + c] = OUTCOME_PENDING
        s.f[b, F_DECL_CALL + c] = CALL_OPEN if cfg[C_ALLOW_SINKING] else CALL_AUTO
    s.f[b, F_DECL_STAGE] = 0
    s.f[b, F_BID] = -1
    s.f[b, F_BIDDER] = -1
    s.f[b, F_DOUBLED] = 0
    s.f[b, F_BID_ACTS] = 0
    for i in range(6):
        s.f[b, F_CALLS + i] = 0
    s.f[b, F_EXCH] = 0
    s.f[b, F_NDISC] = 0
    s.f[b, F_LAST_DISC] = -1
    s.f[b, F_TALON_POS] = 0
    s.f[b, F_LOOKED] = -1
    s.f[b, F_TRICK_CARD] = -1
    s.f[b, F_TRICK_LEADER] = elder
    for i in range(4):
        s.f[b, F_LAST_TRICK + i] = -1
    _next_claim(s, b, cfg)


@njit(cache=True)
def _next_claim(s, b, cfg):
    """Turn to the next seat (elder first) still to decide whether to claim a carte blanche;
    once none is left, the exchange begins (2.3: it is announced before the exchange)."""
    elder = _elder(s, b)
    for seat in (elder, 1 - elder):
        if s.f[b, F_CB_CLAIM + seat] < 0:
            s.f[b, F_PHASE] = PHASE_CLAIM
            s.f[b, F_CURRENT] = seat
            return
    if cfg[C_GAME] == GAME_AUCTION and (
        cfg[C_BIDDING] == BIDDING_BEFORE_EXCHANGE
        or cfg[C_AUCTION_SENTENCE_READING] == READ_NO_EXCHANGE
    ):
        _start_bidding(s, b, cfg)
        return
    s.f[b, F_PHASE] = PHASE_EXCHANGE
    s.f[b, F_CURRENT] = _exchanger(s, b, cfg, 0)


@njit(cache=True)
def _shuffled_deck(s, b):
    n = np.int64(s.f[b, F_DEAL_NO])
    # stream MAX_DEALS draws the first dealer: later deals (au cent, redeals) skip it
    base = rng.stream(s.m[b, M_KEY], s.m[b, M_EPISODE], n if n < MAX_DEALS else n + 1)
    for i in range(NUM_CARDS):
        s.f[b, F_DECK + i] = card_of(i)
    rng.shuffle(base, s.f[b, F_DECK : F_DECK + NUM_CARDS])


@njit(cache=True)
def _reset(s, b, cfg, key, episode, deck, dealer):
    """Start a partie in row ``b`` (``deck[0] < 0``: shuffle; ``dealer < 0``: draw)."""
    s.m[b, M_KEY] = key
    s.m[b, M_EPISODE] = episode
    s.f[b, F_DEAL_NO] = 0
    s.f[b, F_REDEALS] = 0
    s.f[b, F_GAMES] = 0
    s.f[b, F_GAME_START] = 0
    for i in range(3):
        s.f[b, F_LAST_CONTRACT + i] = -1
    for seat in range(2):
        s.v[b, V_TOTAL + seat] = 0
        s.v[b, V_LAST_POINTS + seat] = 0
        s.f[b, F_GAMES_WON + seat] = 0
    s.v[b, V_RESULT_POINTS] = 0
    s.f[b, F_WINNER] = -1
    if deck[0] < 0:
        _shuffled_deck(s, b)
    else:
        for i in range(NUM_CARDS):
            s.f[b, F_DECK + i] = deck[i]
    if dealer < 0:
        # the first dealer is drawn (2.2: "for RL, pick the first dealer at random")
        dealer = rng.draw(rng.stream(key, episode, MAX_DEALS), 0, 2)
    _deal(s, b, cfg, dealer)


@njit(cache=True)
def _bid(s, b, cfg, a):
    """One bidding action (3.2 items 2-7): a pass before any bid hands over (both passing is a
    redeal), a pass after a bid ends the auction, a double leaves the bidder to redouble or
    pass."""
    seat = s.f[b, F_CURRENT]
    s.f[b, F_BID_ACTS] += 1
    if a == ACTION_PASS:
        if s.f[b, F_BID] < 0:
            if s.f[b, F_BID_ACTS] == 1:
                s.f[b, F_CURRENT] = 1 - seat
            else:
                _redeal(s, b, cfg)
            return
        _end_auction(s, b, cfg)
    elif a == ACTION_DOUBLE:
        s.f[b, F_DOUBLED] = 1
        s.f[b, F_CURRENT] = s.f[b, F_BIDDER]
    elif a == ACTION_REDOUBLE:
        s.f[b, F_DOUBLED] = 2
        _end_auction(s, b, cfg)
    else:
        s.f[b, F_BID] = a - ACTION_BID
        s.f[b, F_BIDDER] = seat
        s.f[b, F_CURRENT] = 1 - seat


@njit(cache=True)
def _redeal(s, b, cfg):
    """Both passed: the same dealer shuffles and deals again (3.2 item 3). The redeal is a deal
    of the episode (its own record entry, 0 points) but not of the partie."""
    s.f[b, F_REDEALS] += 1
    for seat in range(2):
        s.v[b, V_LAST_POINTS + seat] = 0
    for i in range(3):
        s.f[b, F_LAST_CONTRACT + i] = -1
    s.f[b, F_DEAL_NO] += 1
    _shuffled_deck(s, b)
    _deal(s, b, cfg, s.f[b, F_DEALER])


@njit(cache=True, forceinline=True)
def _counts_in_play(cfg, card):
    # every card scores by default; the old rule counts only 10 and above (A6)
    return cfg[C_LOW_CARDS_SCORE_IN_PLAY] == 1 or card % 13 >= 8


@njit(cache=True, forceinline=True)
def _trick_winner(led, leader, card, seat):
    """The seat that wins a trick (2.7): the follower's ``card`` if it is of the suit of the card
    ``led`` and higher, else the ``leader``."""
    return seat if (card // 13 == led // 13 and card % 13 > led % 13) else leader


@njit(cache=True, forceinline=True)
def _play(s, b, cfg, card):
    seat = s.f[b, F_CURRENT]
    s.m[b, M_HAND + seat] &= ~bit(card)
    s.m[b, M_PLAYED + seat] |= bit(card)
    elder = _elder(s, b)
    if s.f[b, F_TRICK_CARD] < 0:
        # leading: 1 point for the card led (2.8)
        if s.f[b, F_TRICKS + 0] + s.f[b, F_TRICKS + 1] == 0 and s.f[b, F_LOOKED] == 1:
            # looked-at leftovers become public after elder's first lead (2.4)
            left = _leftovers(s, b)
            s.m[b, M_SEEN + 0] |= left
            s.m[b, M_SEEN + 1] |= left
        s.f[b, F_TRICK_CARD] = card
        s.f[b, F_TRICK_LEADER] = seat
        if _counts_in_play(cfg, card) and not cfg[C_TRICK_SCORING] and cfg[C_GAME] != GAME_AUCTION:
            _score_play(s, b, cfg, seat, 1)
            if s.f[b, F_PHASE] == PHASE_OVER:
                return
        s.f[b, F_CURRENT] = 1 - seat
        return
    led = s.f[b, F_TRICK_CARD]
    leader = s.f[b, F_TRICK_LEADER]
    if card // 13 != led // 13:
        s.f[b, F_VOID + seat] |= 1 << (led // 13)  # he cannot follow: void in the led suit (2.7)
    winner = _trick_winner(led, leader, card, seat)
    s.f[b, F_LAST_TRICK] = leader  # kept for the scene (core.scene), read by no rule
    s.f[b, F_LAST_TRICK + 1] = led
    s.f[b, F_LAST_TRICK + 2] = card
    s.f[b, F_LAST_TRICK + 3] = winner
    ten_for_last = cfg[C_TRICK_SCORING] == TRICK_SCORING_TEN_FOR_LAST
    auction = cfg[C_GAME] == GAME_AUCTION
    if ten_for_last or auction:
        # "10 for last" and Auction Piquet (3.2 item 9): a flat point per trick won
        _score_play(s, b, cfg, winner, 1)
    elif winner != leader and _counts_in_play(cfg, card):
        _score_play(s, b, cfg, winner, 1)  # capturing the opponent's lead
    s.f[b, F_TRICKS + winner] += 1
    if s.f[b, F_PHASE] == PHASE_OVER:
        return
    if (
        cfg[C_CARDS_BONUS_COUNTS_FOR_PIQUE]
        and not ten_for_last
        and not auction
        and winner == elder
        and s.f[b, F_TRICKS + elder] == 7
    ):
        _elder_pique(s, b, cfg, elder, CARDS_BONUS)
    s.f[b, F_TRICK_CARD] = -1
    if s.f[b, F_PHASE] == PHASE_OVER:
        return
    if s.f[b, F_TRICKS + 0] + s.f[b, F_TRICKS + 1] == HAND:
        if auction:
            _score_play(
                s, b, cfg, winner, cfg[C_AUCTION_LAST_TRICK_EXTRA]
            )  # no extra by default (item 9)
        else:
            _score_play(s, b, cfg, winner, CARDS_BONUS if ten_for_last else 1)  # the last trick
        if s.f[b, F_PHASE] == PHASE_OVER:
            return
        _end_deal(s, b, cfg)
        return
    s.f[b, F_CURRENT] = winner


@njit(cache=True)
def _end_deal(s, b, cfg):
    """The cards / capot (the contract in Auction Piquet), partie totals, then the next deal or
    the end (2.8, 2.10, 3.1, 3.2)."""
    if cfg[C_GAME] == GAME_AUCTION:
        _score_contract(s, b, cfg)
    else:
        for seat in range(2):
            if s.f[b, F_TRICKS + seat] == HAND:
                _score_end(s, b, cfg, seat, CAPOT_BONUS)
            elif s.f[b, F_TRICKS + seat] >= 7 and not cfg[C_TRICK_SCORING]:
                _score_end(s, b, cfg, seat, CARDS_BONUS)
    if s.f[b, F_PHASE] == PHASE_OVER:  # au cent: the target was reached with the cards
        return
    # redeals are not deals of the partie; an au cent partie's earlier games are not this game's
    n = s.f[b, F_DEAL_NO] - s.f[b, F_REDEALS] - s.f[b, F_GAME_START]
    weight = (
        2
        if (
            cfg[C_GAME] != GAME_AU_CENT
            and cfg[C_PARTIE] == PARTIE_FOUR_DEALS
            and (n == 0 or n == 3)
        )
        else 1
    )
    _add_deal_to_totals(s, b, weight)
    played = n + 1
    if cfg[C_EPISODE] == EPISODE_DEAL:
        _finish(s, b, cfg)
        return
    a, c = s.v[b, V_TOTAL + 0], s.v[b, V_TOTAL + 1]
    if cfg[C_GAME] == GAME_AU_CENT:
        # end_of_deal (or a tie at the target): the higher total once one reaches it (3.1);
        # a tie goes on to another deal; ``max_deals`` bounds the game
        if (max(a, c) >= cfg[C_TARGET] and a != c) or played >= cfg[C_MAX_DEALS]:
            _finish(s, b, cfg)
            return
    else:
        # the higher total after the regular deals wins; a tie plays two extra deals, one
        # dealt by each player, then is drawn if still level (2.10, A9); the legacy end (old
        # records only) stopped after the first extra deal once it broke the tie
        regular = 6 if cfg[C_PARTIE] == PARTIE_SIX_DEALS else 4
        if cfg[C_LEGACY_TIE_BREAK]:
            over = played >= regular and (a != c or played >= regular + 2)
        else:
            over = (played == regular and a != c) or played >= regular + 2
        if over:
            _finish(s, b, cfg)
            return
    s.f[b, F_DEAL_NO] += 1
    _shuffled_deck(s, b)
    _deal(s, b, cfg, 1 - s.f[b, F_DEALER])


@njit(cache=True)
def _next_game(s, b, cfg):
    """Au cent partie (3.1 b, CAV "three games out of five, a double counting as two"): the game
    just ended (``winner``, ``total``) is counted; then the partie ends, or the next game starts
    at 0 - 0 with the next deal (the deal alternates)."""
    w = s.f[b, F_WINNER]
    if w >= 0:
        s.f[b, F_GAMES_WON + w] += 2 if s.v[b, V_TOTAL + 1 - w] < cfg[C_DOUBLE_BELOW] else 1
    s.f[b, F_GAMES] += 1
    a, c = np.int64(s.f[b, F_GAMES_WON + 0]), np.int64(s.f[b, F_GAMES_WON + 1])
    if max(a, c) >= PARTIE_GAMES_TO_WIN or s.f[b, F_GAMES] >= PARTIE_MAX_GAMES:
        # the partie is over: more games won wins (three, unless drawn games used up the five)
        s.f[b, F_WINNER] = -1 if a == c else (0 if a > c else 1)
        s.v[b, V_RESULT_POINTS] = abs(a - c)
        return
    s.f[b, F_WINNER] = -1
    s.v[b, V_RESULT_POINTS] = 0
    for seat in range(2):
        s.v[b, V_TOTAL + seat] = 0
    s.f[b, F_DEAL_NO] += 1
    s.f[b, F_GAME_START] = s.f[b, F_DEAL_NO]
    _shuffled_deck(s, b)
    _deal(s, b, cfg, 1 - s.f[b, F_DEALER])


@njit(cache=True)
def _write_rewards(s, b, cfg, out):
    """Zero-sum rewards of a finished episode (see the reward table)."""
    w = s.f[b, F_WINNER]
    for seat in range(2):
        if w < 0:
            out[seat] = 0.0
        elif cfg[C_REWARD] == REWARD_WIN:
            out[seat] = 1.0 if seat == w else -1.0
        else:
            out[seat] = s.v[b, V_RESULT_POINTS] if seat == w else -s.v[b, V_RESULT_POINTS]


# --- legal actions and applying an action -------------------------------------------------------
@njit(cache=True, forceinline=True)
def _legal_sets(s, b, cfg):
    """Legal actions of the seat to act as (discard card set, play card set, other actions).

    The card sets are 32-bit sets of card indices; the third value has bit k set when action
    ``ACTION_STOP + k`` is legal. Everything is empty once the game is over.
    """
    ph = s.f[b, F_PHASE]
    if ph == PHASE_OVER:
        return 0, 0, 0
    seat = s.f[b, F_CURRENT]
    hand = s.m[b, M_HAND + seat]
    if ph == PHASE_EXCHANGE:
        lo, hi = _exchange_limits(s, b, cfg)
        disc = 0
        if s.f[b, F_NDISC] < hi:
            # canonical order: only cards above the last discard (6.1)
            disc = _local32(hand) & ~((np.int64(1) << (s.f[b, F_LAST_DISC] + 1)) - 1)
        return disc, 0, 1 if s.f[b, F_NDISC] >= lo else 0
    if ph == PHASE_LOOK:
        return 0, 0, 0b00110  # look, dont_look
    if ph == PHASE_CLAIM:
        return 0, 0, 0b11000 if s.f[b, F_CB + seat] else 0b10000  # claim only with one
    if ph == PHASE_BID:
        return 0, 0, _bid_bits(s, b, cfg, seat)
    if ph == PHASE_DECLARE:
        c = s.f[b, F_DECL_STAGE] // 2
        if s.f[b, F_DECL_STAGE] % 2 == 1 and s.f[b, F_DECL_CALL + c] == CALL_ELDER:
            return 0, 0, BIT_ANSWER | BIT_CONCEDE
        # declare only what one holds; sinking (or saying nothing) is always possible
        return 0, 0, BIT_SINK | (BIT_DECLARE if _holds(s, b, cfg, seat, c) else 0)
    led = s.f[b, F_TRICK_CARD]
    if led >= 0:
        follow = hand & _from_suit_bits(0xFF, led // 13)
        if follow != np.uint64(0):
            hand = follow  # must follow suit if able (2.7)
    return 0, _local32(hand), 0


@njit(cache=True, forceinline=True)  # into step_rows; the other callers: legal_row
def _legal(s, b, cfg, out):
    """Write the legal-action mask of the seat to act into ``out`` (all zero when over) and keep
    it in the state (``legal``, read by ``_is_legal``)."""
    disc, play, other = _legal_sets(s, b, cfg)
    s.m[b, M_LEGAL] = np.uint64(disc) | (np.uint64(play) << np.uint64(ACTION_PLAY))
    s.m[b, M_LEGAL + 1] = np.uint64(other)
    spread(disc, 32, out, ACTION_DISCARD)
    spread(play, 32, out, ACTION_PLAY)
    for k in range(NUM_OTHER_ACTIONS):
        out[ACTION_STOP + k] = (other >> k) & 1


@njit(cache=True, forceinline=True)
def _is_legal(s, b, cfg, a):
    """Is action ``a`` legal for the seat to act (the set ``_legal`` last wrote)?"""
    return action_in(s.m[b, M_LEGAL], s.m[b, M_LEGAL + 1], a, NUM_ACTIONS)


@njit(cache=True, inline="always")
def _apply(s, b, cfg, a):
    """Apply legal action ``a`` of the seat to act; in an au cent partie a finished game is
    followed by the next one (only here, once the action's scoring has stopped)."""
    _apply_action(s, b, cfg, a)
    if (
        s.f[b, F_PHASE] == PHASE_OVER
        and cfg[C_GAME] == GAME_AU_CENT
        and cfg[C_AU_CENT_PARTIE]
        and cfg[C_EPISODE] == EPISODE_GAME
    ):
        _next_game(s, b, cfg)


@njit(cache=True, inline="always")
def _apply_action(s, b, cfg, a):
    ph = s.f[b, F_PHASE]
    if ph == PHASE_CLAIM:
        s.f[b, F_CB_CLAIM + s.f[b, F_CURRENT]] = 1 if a == ACTION_CLAIM else 0
        _next_claim(s, b, cfg)
    elif ph == PHASE_EXCHANGE:
        seat = s.f[b, F_CURRENT]
        if a == ACTION_STOP:
            _finish_exchange(s, b, cfg)
            return
        card = card_of(a - ACTION_DISCARD)
        s.m[b, M_HAND + seat] &= ~bit(card)
        s.m[b, M_DISCARDS + seat] |= bit(card)
        s.f[b, F_NDISC] += 1
        s.f[b, F_LAST_DISC] = a - ACTION_DISCARD
        lo, hi = _exchange_limits(s, b, cfg)
        if s.f[b, F_NDISC] >= hi:
            _finish_exchange(s, b, cfg)
    elif ph == PHASE_LOOK:
        if a == ACTION_LOOK:
            s.f[b, F_LOOKED] = 1
            s.m[b, M_SEEN + s.f[b, F_CURRENT]] |= _leftovers(s, b)
        else:
            s.f[b, F_LOOKED] = 0
        _after_exchange(s, b, cfg)
    elif ph == PHASE_DECLARE:
        _decide(s, b, cfg, a)
    elif ph == PHASE_BID:
        _bid(s, b, cfg, a)
    else:
        _play(s, b, cfg, card_of(a - ACTION_PLAY))


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
