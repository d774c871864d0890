"""Two-handed Piquet's determinization for search (``determinize``: ISMCTS on state copies,
``cardenvs.core.sim``): redraw what a seat cannot see, consistently with what it saw
(``docs/games/piquet.md`` 6.2).
"""

from __future__ import annotations

import numpy as np

from .cards import _elder, _suit_bits, index_of
from .config import (
    C_ALLOW_SINKING,
    C_AUCTION_SENTENCE_READING,
    C_BIDDING,
    C_GAME,
    C_SET_RANKS,
    GAME_AUCTION,
    READ_NO_CB,
    Config,
)
from .constants import (
    CAT_POINT,
    CAT_SEQUENCE,
    CAT_SETS,
    ELDER_MAX,
    HAND,
    NUM_CARDS,
    OUTCOME_EQUAL,
    OUTCOME_PENDING,
    PHASE_DECLARE,
    PHASE_EXCHANGE,
    PHASE_OVER,
    PHASE_PLAY,
    TALON,
)
from .declare import declare_row
from .layout import (
    F_BONUS,
    F_CALLS,
    F_CB,
    F_CB_CLAIM,
    F_CURRENT,
    F_DEALER,
    F_DECK,
    F_DECL_WIN,
    F_EXCH,
    F_LAST_DISC,
    F_LOOKED,
    F_PHASE,
    F_VOID,
    F_XCOUNT,
    LAYOUT,
    M_CB_SHOWN,
    M_DEALT,
    M_DISCARDS,
    M_HAND,
    M_KEY,
    M_PLAYED,
    M_SEEN,
    M_SHOWN,
    V_DEAL_SCORE,
    V_DECL_PTS,
    State,
    new_state,
)

# --- determinization (search on copies, cardenvs.core.sim) -------------------------------------
DETERMINIZE_TRIES = 200
_SUIT_MASKS = tuple(0xFF << (suit * 13 + 5) for suit in range(4))
_ALL_CARDS = sum(_SUIT_MASKS)
_FACES = sum(0x70 << (suit * 13 + 5) for suit in range(4))  # J, Q, K (carte blanche, 2.3)
# what the declarations made public: (state array, offset, size)
_DECL_PUBLIC = (("f", F_DECL_WIN, 3), ("f", F_CALLS, 6), ("v", V_DECL_PTS, 6), ("m", M_SHOWN, 2))
# what the declarations depend on besides the hands (copied to the checking state)
_DECL_CONTEXT = ("dealer", "swapped", "cb_claim", "decl_call", "total", "bid")


def _mask_of(cards) -> int:
    m = 0
    for c in cards:
        m |= 1 << int(c)
    return m


def _cards_of(m: int) -> list[int]:
    return [c for c in range(64) if (m >> c) & 1]


def _point_suit_exclusion(s: State, b: int, opp: int, elder: int) -> int:
    """Cards that cannot be in ``opp``'s hand because his point suit was shown whole.

    When ``opp`` won the point (or it was equal), all his cards of his point suit are among his
    ``shown`` cards. If exactly one suit's shown cards match what is public about his point
    (elder's call of the count; else his points for it: the count, or one less under
    ``point_ending_in_4_minus_one``), that is the suit and its other cards are excluded. (A
    speed-up only: the declaration check after the draw enforces the point anyway.)
    """
    w = int(s.f[b, F_DECL_WIN + CAT_POINT])
    if w != opp and w != OUTCOME_EQUAL:
        return 0
    shown = int(s.m[b, M_SHOWN + opp])
    if opp == elder or w == OUTCOME_EQUAL:
        counts = (int(s.f[b, F_CALLS + 0]),)
    else:
        pts = int(s.v[b, V_DECL_PTS + 3 * opp + CAT_POINT])
        counts = (pts, pts + 1)
    suits = [k for k in range(4) if (shown & _SUIT_MASKS[k]).bit_count() in counts]
    return _SUIT_MASKS[suits[0]] & ~shown if len(suits) == 1 else 0


def _declared_exclusion(s: State, b: int, opp: int, cfg_sets: int) -> int:
    """Cards ``opp`` cannot have held after the exchange because he would have shown them: a
    sequence winner shows all his sequences (so not the card just above or below a shown run of
    three or more), a sets winner all his sets (so not the fourth card of a shown trio)."""
    shown = int(s.m[b, M_SHOWN + opp])
    out = 0
    if int(s.f[b, F_DECL_WIN + CAT_SEQUENCE]) == opp:
        for suit in range(4):
            bits = int(_suit_bits(np.uint64(shown), suit))
            r = 0
            while r < 8:
                start = r
                while r < 8 and (bits >> r) & 1:
                    r += 1
                if r - start >= 3:
                    for x in (start - 1, r):
                        if 0 <= x < 8:
                            out |= 1 << (suit * 13 + 5 + x)
                r += 1
    if int(s.f[b, F_DECL_WIN + CAT_SETS]) == opp:
        for r in range(3, (7 if cfg_sets == 0 else 6) + 1):
            rank = sum(1 << (suit * 13 + 5 + r) for suit in range(4))
            if (shown & rank).bit_count() == 3:
                out |= rank & ~shown
    return out


def _point_cap(s: State, b: int, opp: int, elder: int) -> int:
    """The most cards of one suit ``opp`` can have held after the exchange, by the point: elder
    called his count; younger had at most elder's count unless he won the point, and then his
    point suit is shown whole (at most the longest suit among his shown cards)."""
    if opp != elder and int(s.f[b, F_DECL_WIN + CAT_POINT]) == opp:
        shown = int(s.m[b, M_SHOWN + opp])
        return max((shown & m).bit_count() for m in _SUIT_MASKS)
    return int(s.f[b, F_CALLS + 0])


def _fill(slots, pool: int, rng, caps=None) -> dict[int, int] | None:
    """Give each slot ``(position, allowed cards, in his hand)`` its own card of ``pool``, the
    most constrained slots first, each uniformly among the cards left that it allows (uniform
    over the valid assignments when the allowed sets are nested, as they are here) and, with
    ``caps`` (cards per suit his hand may still take), whose suit is not full yet; ``None`` if
    a slot finds no card."""
    left = _cards_of(pool)
    if len(left) != len(slots):
        raise RuntimeError(f"piquet determinize: {len(left)} cards for {len(slots)} places")
    left = [left[i] for i in rng.permutation(len(left))]
    out = {}
    for p, allowed, in_hand in sorted(slots, key=lambda slot: (slot[1] & pool).bit_count()):
        if caps is not None and in_hand:
            allowed &= sum(m for m, n in zip(_SUIT_MASKS, caps, strict=True) if n > 0)
        options = [k for k, c in enumerate(left) if (allowed >> c) & 1]
        if not options:
            return None
        out[p] = c = left.pop(options[int(rng.integers(len(options)))])
        if caps is not None and in_hand:
            caps[c // 13] -= 1
    return out


def determinize(s: State, b: int, config: Config, seat: int, rng) -> None:
    """Redraw in place what ``seat`` cannot see in row ``b``, consistently with what it saw.

    Redrawn (the opponent ``opp = 1 - seat``'s private information and the unseen talon): the
    cards of ``opp``'s dealt hand that ``seat`` does not know, which of them he discarded (as
    many as he did), the talon cards ``seat`` has not seen, position by position (the cards still
    to be drawn, those ``opp`` drew, the leftovers nobody or only ``opp`` looked at), and the row
    key (so the next deals of a partie are unknown too). Everything derived from them is
    recomputed: ``opp``'s ``hand``, ``dealt``, ``discards`` and ``seen`` (his untaken cards of
    the five, the leftovers if he looked), his ``cb`` flag, the deck order and, while ``opp`` is
    discarding, ``last_disc``.

    Kept (the seat's own or public): its own hand, dealt hand, discards and draws; every talon
    card it saw, at its position (the untaken cards of its five even where ``opp`` then drew
    them, the leftovers once seen); every card played; the cards shown in declarations and a
    shown carte blanche (``opp``'s dealt hand is then kept exactly and only which of its cards
    he discarded is drawn); all counts, claims, calls, outcomes, scores and voids. Each hand
    keeps its size and the talon its structure (who drew which positions), so every card stays
    once.

    Constraints enforced on ``opp``'s redrawn cards:

    - voids shown in trick play (the ``void`` state field): he holds no card of a suit he failed
      to follow;
    - the cards he played or showed were in his hand after the exchange (kept from his dealt
      hand or drawn from the talon positions he drew);
    - carte blanche: a claimed one (no K, Q, J dealt) before it is shown; with
      ``carte_blanche_auto`` an unclaimed dealt hand holds a K, Q or J;
    - declarations: once made, the two hands after the exchange must give exactly the same
      outcomes, points, elder's calls and shown cards (so a winner holds no card that would have
      lengthened what he showed, a loser's combinations stay below the winner's, and elder's
      point count and best sequence and set are the ones he called).

    Knowingly left out (strategy, not rules: the search's business): what ``opp``'s choices say
    about his cards (which and how many he discarded, whether he looked, declining an optional
    carte blanche, which card he played when he had a choice).

    The draw is a constructive assignment (the cards known to be in his hand, including a
    quatorze elder called, take random places in it; then every hidden place gets a card it may
    hold, the most constrained first: no void suit, no claimed-carte-blanche face card, no card
    his shown point, sequences or sets rule out, no suit longer than the point allows) with
    rejection of draws that fail the carte-blanche or declaration checks, up to
    ``DETERMINIZE_TRIES`` tries; if all fail, the true hidden cards are kept (an information leak
    to the search in that rare case, about 1 draw in 5000 in trick play; never an inconsistent
    state). Uniform over the consistent states up to the suit caps' greedy fill.
    """
    opp = 1 - seat
    ph = int(s.f[b, F_PHASE])
    dealt_elder = 1 - int(s.f[b, F_DEALER])  # who was dealt the deck's first twelve
    elder = int(_elder(s, b))  # elder's role in the declarations (an Auction declarer's, maybe)
    s.m[b, M_KEY] = np.uint64(int(rng.integers(0, 2**63 - 1, dtype=np.int64)))
    # who drew each talon position: the first exchanger from the top, then the second (2.4);
    # roles changed by the auction apply to the exchange only when the bidding came first
    cfg_all = config.to_array()  # once: building it walks the dataclass fields
    x_elder = elder if cfg_all[C_GAME] == GAME_AUCTION and cfg_all[C_BIDDING] == 1 else dealt_elder
    x1 = 1 - x_elder if config.first_exchanger == "dealer" else x_elder
    x1_done = int(s.f[b, F_EXCH]) >= 1
    k1 = int(s.f[b, F_XCOUNT + x1]) if x1_done else 0
    k2 = int(s.f[b, F_XCOUNT + 1 - x1]) if int(s.f[b, F_EXCH]) >= 2 else 0
    drawer = [x1] * k1 + [1 - x1] * k2 + [-1] * (TALON - k1 - k2)
    deck = [int(c) for c in s.f[b, F_DECK : F_DECK + NUM_CARDS]]
    opp_first = 0 if opp == dealt_elder else HAND
    own_first = HAND - opp_first
    fixed = _mask_of(deck[own_first : own_first + HAND])  # what the seat knows the place of
    seen_me = int(s.m[b, M_SEEN + seat])
    opp_drew, to_pos, tu_pos = [], [], []  # talon: opp drew / unseen and opp drew / unseen
    for j in range(TALON):
        p = 2 * HAND + j
        if drawer[j] == opp:
            opp_drew.append(p)
        if drawer[j] == seat or (seen_me >> deck[p]) & 1:
            fixed |= 1 << deck[p]
        elif drawer[j] == opp:
            to_pos.append(p)
        else:
            tu_pos.append(p)
    played = int(s.m[b, M_PLAYED + opp])
    held = (played | int(s.m[b, M_SHOWN + opp])) & ~fixed  # in his hand after the exchange
    dealt_known = int(s.m[b, M_CB_SHOWN + opp])
    n_disc = int(s.m[b, M_DISCARDS + opp]).bit_count()
    opp_pos = list(range(opp_first, opp_first + HAND))
    kept_pos, disc_pos = opp_pos[: HAND - n_disc], opp_pos[HAND - n_disc :]
    banned = 0  # cards he cannot hold now
    for suit in range(4):
        if (int(s.f[b, F_VOID + opp]) >> suit) & 1:
            banned |= _SUIT_MASKS[suit]
    # declarations made (some or all: sinking resolves one category at a time)
    check_decl = (
        ph == PHASE_DECLARE or int(s.f[b, F_DECL_WIN + CAT_POINT]) != OUTCOME_PENDING
    ) and ph != PHASE_OVER
    if check_decl:
        banned |= _point_suit_exclusion(s, b, opp, elder)
        banned |= _declared_exclusion(s, b, opp, cfg_all[C_SET_RANKS])
        if opp == elder and int(s.f[b, F_CALLS + 4]) == 4:  # he called a quatorze
            r = int(s.f[b, F_CALLS + 5]) - 1
            held |= sum(1 << (suit * 13 + 5 + r) for suit in range(4)) & ~fixed
    free = _ALL_CARDS & ~fixed & ~held & ~dealt_known
    may_hold = _ALL_CARDS & ~banned
    caps = None  # cards per suit his hand after the exchange may still take (the point)
    # the point caps his suits only when both declared their best point (no sinking: a
    # concession or a sunk point says nothing about the suit lengths)
    if (
        check_decl
        and not dealt_known
        and not cfg_all[C_ALLOW_SINKING]
        and int(s.f[b, F_CALLS + 0]) > 0
    ):
        known_after = held | _mask_of(deck[p] for p in opp_drew if (fixed >> deck[p]) & 1)
        cap = _point_cap(s, b, opp, elder)
        caps = [cap - (known_after & m).bit_count() for m in _SUIT_MASKS]
    claim = int(s.f[b, F_CB_CLAIM + opp])
    dealt_ok = _ALL_CARDS & ~_FACES if claim == 1 else _ALL_CARDS
    needs_face = (
        claim == 0
        and config.carte_blanche_auto
        and not (
            cfg_all[C_GAME] == GAME_AUCTION and cfg_all[C_AUCTION_SENTENCE_READING] == READ_NO_CB
        )
    )
    if check_decl:
        t = new_state(1)
        for name in _DECL_CONTEXT:
            LAYOUT.field(t, name)[0] = LAYOUT.field(s, name)[b]
        t.m[0, M_HAND + seat] = s.m[b, M_HAND + seat] | s.m[b, M_PLAYED + seat]
        want = [getattr(s, a)[b, o : o + n].copy() for a, o, n in _DECL_PUBLIC]
    for _ in range(DETERMINIZE_TRIES):
        if dealt_known:
            # his dealt hand is public: draw which of its cards he kept (those he played or
            # showed among them) and discarded, then the unseen talon
            kept_known, talon_known = _cards_of(held & dealt_known), _cards_of(held & ~dealt_known)
            if len(kept_known) > len(kept_pos) or len(talon_known) > len(to_pos):
                return  # cannot happen in a reachable state
            at = dict(zip(kept_pos, kept_known, strict=False))
            shuffled = [to_pos[i] for i in rng.permutation(len(to_pos))]
            at.update(zip(shuffled, talon_known, strict=False))
            slots = [(p, may_hold, True) for p in kept_pos[len(kept_known) :]]
            slots += [(p, _ALL_CARDS, False) for p in disc_pos]
            got = _fill(slots, dealt_known & ~held, rng)
            if got is None:
                continue
            at.update(got)
            slots = [(p, may_hold, True) for p in to_pos if p not in at]
            got = _fill(slots + [(p, _ALL_CARDS, False) for p in tu_pos], free, rng)
            if got is None:
                continue
            at.update(got)
        else:
            # the cards he played or showed take random places in his hand after the exchange
            places = kept_pos + to_pos
            known = _cards_of(held)
            if len(known) > len(places):
                return  # cannot happen in a reachable state
            at = dict(zip([places[i] for i in rng.permutation(len(places))], known, strict=False))
            slots = [(p, dealt_ok & may_hold, True) for p in kept_pos if p not in at]
            slots += [(p, dealt_ok, False) for p in disc_pos]
            slots += [(p, may_hold, True) for p in to_pos if p not in at]
            slots += [(p, _ALL_CARDS, False) for p in tu_pos]
            got = _fill(slots, free, rng, None if caps is None else list(caps))
            if got is None:
                continue
            at.update(got)
        new = list(deck)
        for p, c in at.items():
            new[p] = c
        dealt = _mask_of(new[p] for p in opp_pos)
        if needs_face and not dealt & _FACES:
            continue
        after = _mask_of(new[p] for p in kept_pos + opp_drew)  # his hand after the exchange
        if check_decl:
            t.m[0, M_HAND + opp] = np.uint64(after)
            t.m[0, M_SHOWN : M_SHOWN + 2] = 0
            t.v[0, V_DECL_PTS : V_DECL_PTS + 6] = 0
            t.v[0, V_DEAL_SCORE : V_DEAL_SCORE + 2] = 0
            t.f[0, F_BONUS : F_BONUS + 2] = 0
            t.f[0, F_CALLS : F_CALLS + 6] = 0
            t.f[0, F_DECL_WIN : F_DECL_WIN + 3] = OUTCOME_PENDING
            t.f[0, F_PHASE] = PHASE_PLAY
            declare_row(t, 0, cfg_all)
            if not all(
                np.array_equal(getattr(t, a)[0, o : o + n], w)
                for (a, o, n), w in zip(_DECL_PUBLIC, want, strict=True)
            ):
                continue
        break
    else:
        return  # no consistent draw found: keep the true hidden cards
    disc = _mask_of(new[p] for p in disc_pos)
    s.f[b, F_DECK : F_DECK + NUM_CARDS] = new
    s.m[b, M_DEALT + opp] = np.uint64(dealt)
    s.m[b, M_DISCARDS + opp] = np.uint64(disc)
    s.m[b, M_HAND + opp] = np.uint64(after & ~played)
    s.f[b, F_CB + opp] = 0 if dealt & _FACES else 1
    seen = 0
    if x1_done and opp == x1:  # the untaken cards of his five
        seen |= _mask_of(new[2 * HAND + j] for j in range(k1, ELDER_MAX))
    if int(s.f[b, F_LOOKED]) == 1 and (opp != x1 or int(s.m[b, M_PLAYED + seat]) | played):
        seen |= _mask_of(new[2 * HAND + j] for j in range(k1 + k2, TALON))  # the leftovers
    s.m[b, M_SEEN + opp] = np.uint64(seen)
    if ph == PHASE_EXCHANGE and int(s.f[b, F_CURRENT]) == opp:
        s.f[b, F_LAST_DISC] = int(index_of(max(_cards_of(disc)))) if disc else -1
