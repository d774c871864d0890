"""Banque's rules answered in Python for cards given as strings: ``beats`` (does a card cover a
top card, 4.2) and ``Table`` (a position built from card strings, for scenario tests and
analysis), with the row kernels they call; rules: ``docs/games/banque.md``."""

from __future__ import annotations

import numpy as np
from numba import njit

from ...core.cards import SUITS, format_card, format_cards
from ...core.game import normalise_action
from .beating import _beat_set, _has
from .config import Config, _check_common
from .constants import ACTION_NAMES, DECK, MAX_SEATS, NUM_ACTIONS, NUM_CARDS, PHASE_NAMES, POINTS
from .kernels import legal_row
from .layout import (
    F_BANK,
    F_BANK_N,
    F_BASE_PREV,
    F_DEALER,
    F_DECK,
    F_LAST_PLAYER,
    F_N_OUT,
    F_NEXT_MOVER,
    F_OUT,
    F_OWNER,
    F_STARTER,
    F_STOCK_POS,
    F_SUIT_CLASS,
    F_TRUMP,
    F_WINNER,
    M_HAND,
    M_TAKEN,
    V_BANK_POINTS,
    V_TOTAL,
    field,
    new_state,
)
from .rules import _apply, _begin_turn, _is_legal


# --- row kernels of the helpers ----------------------------------------------------------------
@njit(cache=True)
def apply_row(s, b, cfg, a):
    """Apply action ``a`` in row ``b`` if legal; returns whether it was (rules helpers)."""
    if not _is_legal(s, b, cfg, a):
        return False
    _apply(s, b, cfg, a)
    legal_row(s, b, cfg, np.zeros(NUM_ACTIONS, np.int8))
    return True


@njit(cache=True)
def beats_row(s, b, cfg, x, t, seat):
    """Does card ``x`` played by ``seat`` beat top card ``t`` (for the rules helper)?"""
    return _has(_beat_set(s, b, cfg, seat, t), x)


def _trump_state(s, config: Config, trumps, seat: int) -> None:
    """Write the trump arrangement of row 0 from the helpers' ``trumps`` argument."""
    opt = config.trump_option
    if opt == 1:
        own = trumps
        if own is None or isinstance(own, str):
            own = {seat: own}
        elif not isinstance(own, dict):
            own = dict(enumerate(own))
        for p, t in own.items():
            if not (isinstance(p, int) and 0 <= p < config.num_players):
                raise ValueError(f"trumps: seat {p!r} is not in 0..{config.num_players - 1}")
            if t is not None and t not in SUITS:
                raise ValueError(f"trump suit {t!r} must be one of 'S', 'H', 'D', 'C' or None")
            s.f[0, F_TRUMP + p] = -1 if t is None else SUITS.index(t)
        chosen = [t for t in own.values() if t is not None]
        if len(set(chosen)) != len(chosen):
            raise ValueError(f"option 1 trumps must be different suits, got {trumps!r}")
    elif opt in (3, 4):
        if not isinstance(trumps, str):
            raise ValueError(f"option {opt} needs the common trump suit(s), e.g. 'H' or 'HS'")
        _check_common(trumps)
        if len(trumps) != opt - 2:
            raise ValueError(f"option {opt} needs {opt - 2} common trump suit(s), got {trumps!r}")
        for suit in range(4):
            s.f[0, F_SUIT_CLASS + suit] = 1 if SUITS[suit] in trumps else 0
    elif opt == 5:
        s.f[0, F_SUIT_CLASS + 0], s.f[0, F_SUIT_CLASS + 2] = 2, 1


def beats(card, top, trumps=None, trump_option: int = 1, seat: int = 0, **config) -> bool:
    """Does ``card``, played by ``seat``, legally cover ``top`` by a normal beat (spec 4.2)?

    Args:
        card: the card played, e.g. ``"9H"``.
        top: the bank's top card.
        trumps: option 1: the seat's own trump suit (``"S" "H" "D" "C"`` or ``None``), or one
            suit (or ``None``) per seat as a list or dict; options 3/4: the common trump
            suit(s), e.g. ``"H"`` or ``"HS"``; ignored for options 2 and 5.
        trump_option: 1–5 (3.2).
        seat: the seat playing ``card``.
        **config: other ``Config`` options (``beat_step``, ``same_rank_always_beats``,
            ``common_trumps_beat_each_other``, ``num_players``).

    Special plays (eights, quads, sequences) are not normal beats; see ``Table`` for them.
    """
    x, t = DECK.check_card(card), DECK.check_card(top)
    if x == t:
        raise ValueError(f"a card cannot cover itself: {format_card(x)}")
    c = Config.from_kwargs(**dict(config, trump_option=trump_option))
    if not (isinstance(seat, int) and 0 <= seat < c.num_players):
        raise ValueError(f"seat must be in 0..{c.num_players - 1}, got {seat!r}")
    s = new_state(1)
    for p in range(MAX_SEATS):
        s.f[0, F_TRUMP + p] = -1
    _trump_state(s, c, trumps, seat)
    return bool(beats_row(s, 0, c.to_array(), x, t, seat))


class Table:
    """A Banque position built from card strings, for scenario tests and analysis.

    It is one row of the engine started mid-hand: ``legal()`` lists the legal action names of
    the seat to act, ``act(name)`` applies one (``ValueError`` if illegal), and the accessors read
    the state. Example::

        t = Table(hands=["9H 6S", "KH 7C"], bank="10H", stock="AS 7D", current=0)
        t.legal()  # {'play 9H', ...}
        t.act("play 9H")

    Args:
        hands: one card string per seat (``num_players`` of them).
        bank: the bank from the bottom, a card string.
        owners: owner seat of each bank card (``None`` = no owner; default: nobody).
        stock: the stock from the top (default empty).
        current: the seat to act (it must hold cards).
        dealer: the dealer (default: the seat before ``current``).
        trumps: as in ``beats`` (option 1: one suit or ``None`` per seat).
        totals: match totals per seat (default 0).
        taken: cards each seat already took this hand (card strings).
        **config: ``Config`` options.
    """

    def __init__(
        self,
        hands,
        bank="",
        owners=None,
        stock="",
        current=0,
        dealer=None,
        trumps=None,
        totals=None,
        taken=None,
        **config,
    ):
        self.config = Config.from_kwargs(**config)
        self.cfg = self.config.to_array()
        P = self.config.num_players
        if len(hands) != P:
            raise ValueError(f"hands: one card string per seat, {P} expected, got {len(hands)}")
        hand_ids = [self._cards(h) for h in hands]
        bank_ids = self._cards(bank)
        stock_ids = self._cards(stock)
        taken_ids = [self._cards(t) for t in (taken or [""] * P)]
        used = [c for h in hand_ids for c in h] + bank_ids + stock_ids
        used += [c for t in taken_ids for c in t]
        dup = sorted({format_card(c) for c in used if used.count(c) > 1})
        if dup:
            raise ValueError(f"cards listed more than once: {dup}")
        owners = [None] * len(bank_ids) if owners is None else list(owners)
        if len(owners) != len(bank_ids):
            raise ValueError(f"owners: one per bank card, {len(bank_ids)} expected")
        if not (isinstance(current, int) and 0 <= current < P and hand_ids[current]):
            raise ValueError(f"current must be a seat in 0..{P - 1} holding cards")
        s = self.state = new_state(1)
        for p in range(MAX_SEATS):
            s.f[0, F_TRUMP + p] = -1
        deck = [c for c in DECK.cards.tolist() if c not in stock_ids] + stock_ids
        s.f[0, F_DECK : F_DECK + NUM_CARDS] = deck
        s.f[0, F_STOCK_POS] = NUM_CARDS - len(stock_ids)
        for p, h in enumerate(hand_ids):
            for c in h:
                s.m[0, M_HAND + p] |= np.uint64(1 << c)
        for p, t in enumerate(taken_ids):
            for c in t:
                s.m[0, M_TAKEN + p] |= np.uint64(1 << c)
                s.v[0, V_BANK_POINTS + p] += POINTS[c % 13]
        for i, (c, o) in enumerate(zip(bank_ids, owners, strict=True)):
            if o is not None and not (isinstance(o, int) and 0 <= o < P):
                raise ValueError(f"owners: {o!r} is not a seat in 0..{P - 1} or None")
            s.f[0, F_BANK + i] = c
            s.f[0, F_OWNER + i] = -1 if o is None else o
        s.f[0, F_BANK_N] = len(bank_ids)
        s.f[0, F_BASE_PREV] = -1
        s.f[0, F_DEALER] = (current - 1) % P if dealer is None else dealer
        s.f[0, F_WINNER] = -1
        s.f[0, F_LAST_PLAYER] = -1
        s.f[0, F_NEXT_MOVER] = -1
        s.f[0, F_STARTER] = current
        for p, v in enumerate(totals or [0] * P):
            s.v[0, V_TOTAL + p] = v
        _trump_state(s, self.config, trumps, current)
        # out of cards already: finishing positions in seat order
        for p in range(P):
            if not hand_ids[p]:
                s.f[0, F_N_OUT] += 1
                s.f[0, F_OUT + p] = s.f[0, F_N_OUT]
        _begin_turn(s, 0, self.cfg, current)
        legal_row(s, 0, self.cfg, np.zeros(NUM_ACTIONS, np.int8))

    @staticmethod
    def _cards(text) -> list[int]:
        items = text.split() if isinstance(text, str) else list(text)
        return [DECK.check_card(c) for c in items]

    def field(self, name: str):
        """A state field of the position (see ``STATE_FIELDS``)."""
        return field(self.state, name)[0]

    def legal(self) -> set[str]:
        """Names of the legal actions of the seat to act."""
        out = np.zeros(NUM_ACTIONS, np.int8)
        legal_row(self.state, 0, self.cfg, out)
        return {ACTION_NAMES[i] for i in np.flatnonzero(out)}

    def act(self, *names: str) -> Table:
        """Apply actions by name, in order; ``ValueError`` on an illegal one."""
        table = {normalise_action(n): i for i, n in enumerate(ACTION_NAMES)}
        for name in names:
            a = table.get(normalise_action(name))
            if a is None or not apply_row(self.state, 0, self.cfg, a):
                raise ValueError(f"action {name!r} is not legal now; legal: {sorted(self.legal())}")
        return self

    @property
    def current(self) -> int:
        return int(self.field("current"))

    @property
    def phase(self) -> str:
        return PHASE_NAMES[int(self.field("phase"))]

    def hand(self, seat: int) -> str:
        """The seat's hand as card strings, in card order."""
        m = int(self.field("hand")[seat])
        return format_cards(c for c in DECK.cards.tolist() if (m >> c) & 1)

    def bank(self) -> list[tuple[str, int | None]]:
        """The bank from the bottom: ``(card, owner)`` pairs."""
        n = int(self.field("bank_n"))
        return [
            (format_card(int(c)), None if o < 0 else int(o))
            for c, o in zip(self.field("bank")[:n], self.field("owner")[:n], strict=True)
        ]

    def taken(self, seat: int) -> str:
        m = int(self.field("taken")[seat])
        return format_cards(c for c in DECK.cards.tolist() if (m >> c) & 1)

    def stock(self) -> int:
        return NUM_CARDS - int(self.field("stock_pos"))

    def __repr__(self) -> str:
        return f"Table(phase={self.phase!r}, current={self.current}, bank={self.bank()})"
