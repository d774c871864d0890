"""Layer 1: core unit tests (cards, decks, bitmasks, counter RNG, config validation)."""

from __future__ import annotations

import dataclasses
import re

import numba
import numpy as np
import pytest

import cardenvs
from cardenvs.core import bitmask, cards, rng
from cardenvs.games.piquet import Config
from cardenvs.games.piquet import rules as piquet_rules

PIQUET_STRINGS = [f"{r}{s}" for s in "SHDC" for r in ("7", "8", "9", "10", "J", "Q", "K", "A")]


# --- cards ---------------------------------------------------------------------------------------
def test_cards__format_parse_round_trip_for_every_id():
    for c in range(52):
        text = cards.format_card(c)
        assert cards.parse_card(text) == c
        assert cards.parse_card(text.lower()) == c
    # both jokers format as "JK"; "JK1"/"JK2" name them explicitly
    assert cards.format_card(cards.JOKER_1) == "JK"
    assert cards.format_card(cards.JOKER_2) == "JK"
    assert cards.parse_card("JK") == cards.JOKER_1
    assert cards.parse_card("JK1") == 52
    assert cards.parse_card("JK2") == 53
    assert cards.parse_card(cards.format_card(53)) in (52, 53)
    assert len({cards.format_card(c) for c in range(52)}) == 52


@pytest.mark.parametrize(
    ("text", "card"),
    [
        ("2S", 0),
        ("AS", 12),
        ("2H", 13),
        ("10H", 13 + 8),
        ("TH", 13 + 8),
        ("th", 13 + 8),
        ("QD", 2 * 13 + 10),
        ("qd", 2 * 13 + 10),
        (" KC ", 3 * 13 + 11),
        ("AC", 51),
        ("jk", 52),
    ],
)
def test_cards__parse_accepts_documented_forms(text, card):
    assert cards.parse_card(text) == card


def test_cards__card_id_is_suit_times_13_plus_rank():
    for suit in range(4):
        for rank in range(13):
            c = cards.make_card(rank, suit)
            assert c == suit * 13 + rank
            assert cards.suit_of(c) == suit
            assert cards.rank_of(c) == rank
            assert cards.format_card(c) == cards.RANKS[rank] + "SHDC"[suit]
    assert cards.format_card(21) == "10H"


@pytest.mark.parametrize("text", ["1H", "11S", "AX", "", "A", "10", "JK3", "XS", "A S", "10HH"])
def test_cards__bad_string_raises_naming_the_string(text):
    with pytest.raises(ValueError) as e:
        cards.parse_card(text)
    assert repr(text) in str(e.value)


@pytest.mark.parametrize("value", [12, None, 1.5])
def test_cards__parse_non_string_raises(value):
    with pytest.raises(ValueError, match=re.escape(repr(value))):
        cards.parse_card(value)


@pytest.mark.parametrize("card", [-1, 54, 100])
def test_cards__format_out_of_range_raises(card):
    with pytest.raises(ValueError, match=str(card)):
        cards.format_card(card)


def test_cards__parse_cards_splits_strings_and_passes_ints():
    assert cards.parse_cards("AS 10H th JK") == [12, 21, 21, 52]
    assert cards.parse_cards(["AS", 5, np.int8(7)]) == [12, 5, 7]
    assert cards.format_cards([12, 21, 52]) == "AS 10H JK"
    with pytest.raises(ValueError, match="54"):
        cards.parse_cards([54])
    with pytest.raises(ValueError, match="'ZZ'"):
        cards.parse_cards("AS ZZ")


# --- decks ---------------------------------------------------------------------------------------
def test_deck__piquet_deck_is_seven_to_ace():
    deck = cards.Deck("piquet", cards.piquet_deck())
    assert deck.size == 32
    assert cards.format_cards(deck.cards).split() == PIQUET_STRINGS
    assert cards.parse_card("7S") in deck
    assert cards.parse_card("AC") in deck
    assert cards.parse_card("6S") not in deck
    assert cards.parse_card("2H") not in deck
    assert 52 not in deck
    assert bitmask.popcount(deck.mask) == 32
    for i, c in enumerate(deck.cards.tolist()):
        assert deck.local[c] == i
    assert deck.local[cards.parse_card("2S")] == -1


def test_deck__duplicate_card_in_table_raises():
    with pytest.raises(ValueError, match="twice"):
        cards.Deck("bad", [1, 2, 1])


def test_deck__check_card():
    deck = cards.Deck("piquet", cards.piquet_deck())
    assert deck.check_card("TH") == 21
    assert deck.check_card(12) == 12
    with pytest.raises(ValueError) as e:
        deck.check_card("2S")
    assert "'2S'" in str(e.value) and "piquet" in str(e.value)


def test_deck__check_order_accepts_a_permutation():
    deck = cards.Deck("piquet", cards.piquet_deck())
    order = list(np.random.default_rng(0).permutation(PIQUET_STRINGS))
    out = deck.check_order(order)
    assert out.dtype == np.int8
    assert out.tolist() == cards.parse_cards(order)
    # a space-separated string and "T" for ten are accepted
    text = " ".join(order).replace("10", "T")
    assert deck.check_order(text).tolist() == out.tolist()


def test_deck__check_order_wrong_length_names_counts_and_missing():
    deck = cards.Deck("piquet", cards.piquet_deck())
    with pytest.raises(ValueError) as e:
        deck.check_order(PIQUET_STRINGS[:-1])
    msg = str(e.value)
    assert "32" in msg and "31" in msg and "'AC'" in msg
    with pytest.raises(ValueError, match="got 0"):
        deck.check_order([])


def test_deck__check_order_duplicates_named():
    deck = cards.Deck("piquet", cards.piquet_deck())
    order = PIQUET_STRINGS[:-1] + ["QH"]  # right length, QH twice, AC missing
    with pytest.raises(ValueError) as e:
        deck.check_order(order)
    msg = str(e.value)
    assert "more than once" in msg and "'QH'" in msg
    with pytest.raises(ValueError, match="QH"):
        deck.check_order(PIQUET_STRINGS + ["QH"])


def test_deck__check_order_foreign_cards_named():
    deck = cards.Deck("piquet", cards.piquet_deck())
    order = ["2S"] + PIQUET_STRINGS[1:]
    with pytest.raises(ValueError) as e:
        deck.check_order(order)
    msg = str(e.value)
    assert "'2S'" in msg and "not in the piquet deck" in msg
    with pytest.raises(ValueError, match="'XX'"):
        deck.check_order(["XX"] + PIQUET_STRINGS[1:])


# --- bitmasks ------------------------------------------------------------------------------------
def _random_masks(n=300, seed=0):
    g = np.random.default_rng(seed)
    masks = g.integers(0, 2**64, size=n, dtype=np.uint64).tolist()
    # sparse and edge masks too
    masks += [0, 1, 2**63, 2**64 - 1, 2**54 - 1, (1 << 52) | 1]
    masks += [
        int(x) & int(y) & int(z)
        for x, y, z in zip(masks[:50], masks[50:100], masks[100:150], strict=True)
    ]
    return masks


def test_bitmask__popcount_matches_int_bit_count():
    for m in _random_masks():
        assert bitmask.popcount(np.uint64(m)) == m.bit_count(), hex(m)


def test_bitmask__lowest_is_lowest_set_bit():
    for m in _random_masks():
        if m == 0:
            continue
        assert bitmask.lowest(np.uint64(m)) == (m & -m).bit_length() - 1, hex(m)


def test_bitmask__to_cards_lists_set_bits_in_order():
    out = np.zeros(64, np.int64)
    for m in _random_masks(seed=1):
        n = bitmask.to_cards(np.uint64(m), out)
        expected = [i for i in range(64) if (m >> i) & 1]
        assert n == len(expected)
        assert out[:n].tolist() == expected


@numba.njit
def _spread_into(x, nbits, out, off):
    bitmask.spread(x, nbits, out, off)  # inline="always": only a compiled caller inlines it


@pytest.mark.parametrize("dtype", [np.int8, np.uint8, np.int32, np.float32, np.float64])
def test_bitmask__spread_writes_exactly_the_low_bits_and_nothing_around_them(dtype):
    """``spread`` stores 1..64 bits as 0/1 vectors of the array's type (vector intrinsics of 64,
    32, 16, 8 and 4 entries, then single entries): every count, offsets of any alignment, the
    entries around the span left alone."""
    for m in _random_masks(seed=2)[::5]:
        for nbits in range(1, 65):
            for off in (0, 3, 13):
                out = np.full(off + nbits + 5, 7, dtype)
                _spread_into(np.uint64(m), nbits, out, off)
                want = [(m >> i) & 1 for i in range(nbits)]
                assert out[off : off + nbits].tolist() == want, (hex(m), nbits, off)
                assert (out[:off] == 7).all() and (out[off + nbits :] == 7).all()
    out = np.zeros(40, np.float32)  # a signed int64 source, as the games pass (non-negative)
    _spread_into(np.int64((1 << 35) | 5), 36, out, 2)
    assert np.flatnonzero(out).tolist() == [2, 4, 37]


def _pext_reference(x: int, m: int) -> int:
    out, k = 0, 0
    for i in range(64):
        if (m >> i) & 1:
            out |= ((x >> i) & 1) << k
            k += 1
    return out


@pytest.mark.skipif(not bitmask.FAST_PEXT, reason="this CPU has no fast BMI2 pext")
def test_bitmask__pext_packs_the_bits_under_the_mask_in_order():
    masks = _random_masks(seed=3)
    for x, m in zip(masks, masks[::-1], strict=True):
        got = int(bitmask.pext(np.uint64(x), np.uint64(m))) & ((1 << 64) - 1)  # an int64
        assert got == _pext_reference(x, m)
    assert bitmask.pext(np.uint64(0b101101), np.uint64(0b111100)) == 0b1011


@pytest.mark.skipif(not bitmask.FAST_PEXT, reason="this CPU has no fast BMI2 pdep")
def test_bitmask__pdep_deposits_the_low_bits_at_the_mask_and_undoes_pext():
    masks = _random_masks(seed=4)
    for x, m in zip(masks, masks[::-1], strict=True):
        got = int(bitmask.pdep(np.uint64(x), np.uint64(m)))
        want, k = 0, 0
        for i in range(64):
            if (m >> i) & 1:
                want |= ((x >> k) & 1) << i
                k += 1
        assert got == want
        packed = int(bitmask.pext(np.uint64(x), np.uint64(m))) & ((1 << 64) - 1)
        assert int(bitmask.pdep(np.uint64(packed), np.uint64(m))) == x & m
    assert bitmask.pdep(np.uint64(0b1011), np.uint64(0b111100)) == 0b101100


_DENSE = [bitmask._dense_suits_shifts]
if bitmask.FAST_PEXT:
    _DENSE.append(bitmask._dense_suits_pext)


@pytest.mark.parametrize("dense", _DENSE, ids=lambda f: f.__name__)
@pytest.mark.parametrize(("low", "width"), [(4, 9), (5, 8)])  # Banque and Esel; Piquet
def test_bitmask__dense_suits_packs_each_suits_ranks_in_order(dense, low, width):
    """Card ``13 * suit + low + r`` goes to bit ``width * suit + r``; other cards vanish."""
    for m in _random_masks(seed=5):
        want = 0
        for suit in range(4):
            for r in range(width):
                want |= ((m >> (13 * suit + low + r)) & 1) << (width * suit + r)
        assert int(dense(np.uint64(m), low, width)) == want


def test_bitmask__fast_pext_only_for_the_host_and_not_on_zen_1_or_2(monkeypatch):
    """The pext packings are chosen on CPUs that run pext in hardware, for the CPU numba compiles
    for: not without the JIT, not for a NUMBA_CPU_NAME, not on Zen 1/2 (microcoded) or
    without BMI2."""
    from llvmlite import binding

    monkeypatch.setattr(numba.config, "DISABLE_JIT", False)
    monkeypatch.setattr(numba.config, "CPU_NAME", None)
    monkeypatch.setattr(binding, "get_host_cpu_features", lambda: {"bmi2": True})
    for name, fast in [("znver5", True), ("skylake", True), ("znver2", False), ("znver1", False)]:
        monkeypatch.setattr(binding, "get_host_cpu_name", lambda name=name: name)
        assert bitmask._fast_pext() is fast, name
    monkeypatch.setattr(binding, "get_host_cpu_features", lambda: {"bmi2": False})
    assert bitmask._fast_pext() is False
    monkeypatch.setattr(binding, "get_host_cpu_features", lambda: {"bmi2": True})
    monkeypatch.setattr(numba.config, "CPU_NAME", "generic")
    assert bitmask._fast_pext() is False
    monkeypatch.setattr(numba.config, "CPU_NAME", None)
    monkeypatch.setattr(numba.config, "DISABLE_JIT", True)
    assert bitmask._fast_pext() is False


@pytest.mark.parametrize("game", ["piquet", "banque", "esel"])
def test_bitmask__games_pack_their_cards_by_their_decks_local_indices(game):
    """Piquet's, Banque's and Esel's local card sets (``core.bitmask.dense_suits``, a pext where
    FAST_PEXT) follow the deck's local indices; other cards vanish."""
    import importlib

    rules = importlib.import_module(f"cardenvs.games.{game}.rules")
    deck = importlib.import_module(f"cardenvs.games.{game}").GAME.deck
    pack = rules._local32 if game == "piquet" else rules._local36
    assert bitmask.dense_suits is (
        bitmask._dense_suits_pext if bitmask.FAST_PEXT else bitmask._dense_suits_shifts
    )
    local = deck.local
    for m in _random_masks(seed=4) + [int(deck.mask)]:
        want = sum(1 << int(local[c]) for c in range(52) if (m >> c) & 1 and local[c] >= 0)
        assert int(pack(np.uint64(m))) == want, hex(m)


def test_bitmask__bit_has_from_cards_to_onehot_agree():
    ids = np.array([0, 12, 21, 51, 53], np.int64)
    m = bitmask.from_cards(ids, len(ids))
    assert int(m) == sum(1 << int(i) for i in ids)
    assert int(bitmask.from_cards(ids, 2)) == (1 << 0) | (1 << 12)
    for c in range(54):
        assert bool(bitmask.has(m, c)) == (c in ids.tolist())
        assert int(bitmask.bit(c)) == 1 << c
    deck = np.asarray(cards.piquet_deck(), np.int64)
    pm = bitmask.from_cards(np.array([cards.parse_card(c) for c in ("7S", "AC", "10H")]), 3)
    onehot = np.zeros(len(deck), np.float32)
    bitmask.to_onehot(pm, deck, onehot)
    assert np.flatnonzero(onehot).tolist() == [0, 3 + 8, 7 + 8 * 3]


# --- counter-based RNG ---------------------------------------------------------------------------
def _shuffled(seed, episode=0, deal=0):
    out = np.arange(32, dtype=np.int8)
    # kernels return uint64 as a Python int; pass it back as a uint64
    base = np.uint64(rng.stream(rng.key_from_seed(seed), episode, deal))
    rng.shuffle(base, out)
    return out


def test_rng__same_key_and_stream_same_shuffle():
    a, b = _shuffled(7, 3, 1), _shuffled(7, 3, 1)
    assert np.array_equal(a, b)
    assert sorted(a.tolist()) == list(range(32))
    assert not np.array_equal(a, np.arange(32))


def test_rng__different_key_or_stream_different_shuffle():
    base = _shuffled(7, 3, 1)
    for other in (_shuffled(8, 3, 1), _shuffled(7, 4, 1), _shuffled(7, 3, 2), _shuffled(0)):
        assert sorted(other.tolist()) == list(range(32))
        assert not np.array_equal(base, other)
    # many seeds give many different shuffles
    assert len({_shuffled(s).tobytes() for s in range(50)}) == 50


def test_rng__key_from_seed_is_deterministic():
    assert rng.key_from_seed(5) == rng.key_from_seed(5)
    assert rng.key_from_seed(5) != rng.key_from_seed(6)
    assert isinstance(rng.key_from_seed(5), np.uint64)


def test_rng__draw_stays_in_range_and_covers_it():
    base = np.uint64(rng.stream(rng.key_from_seed(1), 0, 0))
    values = [int(rng.draw(base, i, 5)) for i in range(500)]
    assert min(values) == 0 and max(values) == 4
    assert set(values) == {0, 1, 2, 3, 4}


def test_rng__check_seed_accepts_ints_and_none():
    assert rng.check_seed(0) == 0
    assert rng.check_seed(np.int64(12)) == 12
    assert rng.check_seed(rng.MAX_SEED) == rng.MAX_SEED
    drawn = rng.check_seed(None)
    assert isinstance(drawn, int) and 0 <= drawn <= rng.MAX_SEED


@pytest.mark.parametrize("seed", [-1, 2**63, 1.5, "3", True, [1]])
def test_rng__check_seed_rejects_bad_values(seed):
    with pytest.raises(ValueError) as e:
        rng.check_seed(seed)
    msg = str(e.value)
    assert "seed" in msg and str(seed) in msg


# --- config validation ---------------------------------------------------------------------------
FIELDS = [f.name for f in dataclasses.fields(Config)]


def test_config__defaults_and_encoding():
    c = Config()
    assert c.episode == "game" and c.reward == "win"
    assert Config.from_kwargs() == c
    arr = Config(partie="four_deals", low_cards_score_in_play=False, rubicon=250).to_array()
    # piquet ids share one kernel option layout (rules.KernelOptions): the array covers it all
    kernel_fields = dataclasses.fields(piquet_rules.KernelOptions)
    assert arr.dtype == np.int64 and len(arr) == len(kernel_fields) >= len(FIELDS)
    assert arr[Config.index("partie")] == 1
    assert arr[Config.index("low_cards_score_in_play")] == 0
    assert arr[Config.index("rubicon")] == 250
    assert arr[Config.index("episode")] == 0
    assert Config(episode="deal").to_dict()["episode"] == "deal"


def test_config__is_frozen():
    c = Config()
    with pytest.raises(dataclasses.FrozenInstanceError):
        c.episode = "deal"


def test_config__unknown_key_lists_known_options():
    with pytest.raises(ValueError) as e:
        Config.from_kwargs(episodes="deal")
    msg = str(e.value)
    assert "'episodes'" in msg
    for name in FIELDS:
        assert name in msg


def test_config__unknown_key_rejected_by_make_and_make_vector():
    with pytest.raises(ValueError, match="colour"):
        cardenvs.make("piquet-v0", colour="red")
    with pytest.raises(ValueError, match="colour"):
        cardenvs.make_vector("piquet-v0", num_envs=2, seed=0, colour="red")


@pytest.mark.parametrize(
    ("name", "value", "allowed"),
    [
        ("episode", "match", ["'game'", "'deal'"]),
        ("reward", "points", ["'win'", "'score'"]),
        ("first_exchanger", "younger", ["'elder'", "'dealer'"]),
        ("set_ranks", "AKQ", ["'AKQJT'", "'KQJT'"]),
        ("partie", "ten_deals", ["'six_deals'", "'four_deals'"]),
    ],
)
def test_config__bad_choice_names_field_value_and_choices(name, value, allowed):
    with pytest.raises(ValueError) as e:
        Config(**{name: value})
    msg = str(e.value)
    assert name in msg and repr(value) in msg
    for a in allowed:
        assert a in msg


@pytest.mark.parametrize(
    ("name", "value", "allowed"),
    [
        ("younger_min_exchange", 2, "0..1"),
        ("younger_min_exchange", -1, "0..1"),
        ("rubicon", 1001, "0..1000"),
        ("rubicon", -5, "0..1000"),
        ("rubicon", "100", "0..1000"),
        ("rubicon", 100.0, "0..1000"),
        ("rubicon", True, "0..1000"),
    ],
)
def test_config__int_out_of_range_names_field_and_range(name, value, allowed):
    with pytest.raises(ValueError) as e:
        Config(**{name: value})
    msg = str(e.value)
    assert name in msg and repr(value) in msg and allowed in msg


@pytest.mark.parametrize(
    "name",
    ["low_cards_score_in_play", "point_ending_in_4_minus_one", "cards_bonus_counts_for_pique"],
)
@pytest.mark.parametrize("value", [1, 0, "True", None])
def test_config__non_bool_for_bool_field_raises(name, value):
    with pytest.raises(ValueError) as e:
        Config(**{name: value})
    msg = str(e.value)
    assert name in msg and repr(value) in msg and "True or False" in msg


def test_config__valid_values_accepted():
    c = Config(
        episode="deal",
        reward="score",
        first_exchanger="dealer",
        set_ranks="KQJT",
        younger_min_exchange=0,
        low_cards_score_in_play=False,
        point_ending_in_4_minus_one=True,
        cards_bonus_counts_for_pique=True,
        partie="four_deals",
        rubicon=np.int64(0),
    )
    assert c.rubicon == 0 and c.set_ranks == "KQJT"


def test_config__describe_lists_every_option():
    text = Config.describe()
    for name in FIELDS:
        assert f"`{name}`" in text


def test_bitmask__action_in_reads_two_word_action_sets():
    g = np.random.default_rng(0)
    for _ in range(50):
        lo, hi = (int(x) for x in g.integers(0, 2**63, 2, dtype=np.uint64))
        lo |= int(g.integers(0, 2)) << 63
        n = int(g.integers(65, 129))
        for a in range(-2, n + 2):
            want = 0 <= a < n and bool(((hi << 64) | lo) >> a & 1)
            assert bitmask.action_in(np.uint64(lo), np.uint64(hi), a, n) == want, (lo, hi, a, n)


def test_seat_mod_is_python_modulo_on_its_range():
    from cardenvs.core.seats import seat_mod

    for n in range(1, 7):
        for d in range(-n, 2 * n):
            assert seat_mod(d, n) == d % n
            assert seat_mod.py_func(d, n) == d % n


def test_at_is_an_unsigned_index_that_reads_like_base_plus_k():
    from numba import njit

    from cardenvs.core.seats import at

    @njit
    def read(a, base, k):
        return a[at(base, k)], at(base, k)

    a = np.arange(20, dtype=np.int8) * 3
    for base in (0, 5, 12):
        for k in range(4):
            value, index = read(a, base, k)
            assert value == a[base + k] and index == base + k
            assert at.py_func(base, k) == base + k
    # unsigned, so numba adds no wraparound test to the access
    assert read.nopython_signatures[0].return_type[1] == numba.uint64


def test_observation_scales_are_exact_as_reciprocal_products():
    """The observation kernels scale integers by ``x * (1.0 / c)`` rather than ``x / c``
    (a division is slow); in float32 both give the same value for every integer they see."""
    x = np.arange(-100_000, 100_001, dtype=np.float64)
    for c in (2, 3, 4, 5, 6, 8, 10, 12, 18, 20, 36, 54, 100, 120, 124, 300):
        np.testing.assert_array_equal(
            (x / c).astype(np.float32), (x * (1.0 / c)).astype(np.float32)
        )
