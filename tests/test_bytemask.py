"""``core.bytemask``: a byte mask row read as a 128-bit set, and the draw of ``RandomLegal`` that
reads masks that way (it must draw exactly what the byte-by-byte walk draws)."""

from __future__ import annotations

import numpy as np
import pytest

from cardenvs.core import bytemask
from cardenvs.core.bitmask import FAST_PEXT
from cardenvs.core.bytemask import MAX_ACTIONS, SELECT8, fits, row_bits, select64, select128
from cardenvs.core.rng import mix64
from cardenvs.core.vector import RandomLegal, random_legal_actions


def _as_set(lo, hi) -> list[int]:
    return [i for i in range(64) if int(lo) >> i & 1] + [
        64 + i for i in range(64) if int(hi) >> i & 1
    ]


@pytest.mark.parametrize("dtype", [np.int8, np.uint8, np.bool_])
def test_bytemask__row_bits_is_the_set_of_non_zero_entries(dtype):
    rng = np.random.default_rng(0)
    for a in range(8, MAX_ACTIONS + 1):
        dense = rng.random((5, a)) < np.array([[0.0], [1.0], [0.5], [0.1], [0.9]])
        mask = dense.astype(dtype)
        if dtype is np.int8:  # any non-zero byte is legal, negative ones included
            mask[2][dense[2]] = rng.choice(np.array([1, -1, 2, 127, -128], np.int8), dense[2].sum())
        assert fits(mask)
        for b in range(5):
            assert _as_set(*row_bits(mask, b)) == np.flatnonzero(mask[b]).tolist(), (a, b)


_SELECTS = [bytemask._select64_broadword]
if FAST_PEXT:  # pdep runs only where the CPU has it in hardware
    _SELECTS.append(bytemask._select64_pdep)


@pytest.mark.parametrize("select", _SELECTS, ids=lambda f: f.__name__)
def test_bytemask__each_select_finds_the_rth_set_bit(select):
    rng = np.random.default_rng(1)
    words = [0, 1, 1 << 63, (1 << 64) - 1, 0x8000000000000001, 0x0101010101010101]
    words += [int(w) for w in rng.integers(0, 2**63, 300, dtype=np.uint64)]
    words += [int(w) & int(v) for w, v in rng.integers(0, 2**63, (100, 2), dtype=np.uint64)]
    for w in words:
        bits = [i for i in range(64) if w >> i & 1]
        for r, i in enumerate(bits):
            assert select(np.uint64(w), r) == i, (hex(w), r)
    lo, hi = np.uint64(0b1010), np.uint64(0b11)
    assert [select128(lo, hi, r) for r in range(4)] == [1, 3, 64, 65]
    assert SELECT8[0b10110, 2] == 4 and SELECT8[0b10110, 3] == -1


def test_bytemask__select64_is_pdep_exactly_where_pext_is_fast():
    want = bytemask._select64_pdep if FAST_PEXT else bytemask._select64_broadword
    assert select64 is want


def test_bytemask__fits_only_contiguous_byte_masks_of_8_to_128_actions():
    assert fits(np.zeros((3, 8), np.int8)) and fits(np.zeros((1, 128), np.bool_))
    assert not fits(np.zeros((3, 7), np.int8))
    assert not fits(np.zeros((3, 129), np.int8))
    assert not fits(np.zeros((3, 40), np.float32))
    assert not fits(np.zeros((3, 40), np.int8)[:, ::2])
    assert not fits(np.zeros(40, np.int8))


def _reference(mask, key, counter) -> list[int]:
    """The documented draw in plain Python: the r-th non-zero entry of each row."""
    n = mask.shape[0]
    out = []
    for b in range(n):
        legal = np.flatnonzero(mask[b])
        if legal.size == 0:
            out.append(-1)
            continue
        h = int(mix64(np.uint64(key) ^ mix64(np.uint64((counter * n + b) % 2**64))))
        out.append(int(legal[((h >> 32) * legal.size) >> 32]))
    return out


@pytest.mark.filterwarnings("ignore::RuntimeWarning")  # uint64 wraparound in the hash mixer
def test_bytemask__random_legal_draws_the_same_by_words_and_byte_by_byte():
    rng = np.random.default_rng(2)
    key = np.uint64(0x1234_5678_9ABC_DEF0)
    for a in range(1, 140):
        mask = (rng.random((23, a)) < rng.random((23, 1))).astype(np.int8)
        mask[0] = 0
        mask[1, -1] = 1
        walked, by_words = np.empty(23, np.int64), np.empty(23, np.int64)
        for counter in (1, 2, 7):
            random_legal_actions(mask, key, counter, walked, False)
            assert walked.tolist() == _reference(mask, key, counter), a
            if fits(mask):
                random_legal_actions(mask, key, counter, by_words, True)
                assert np.array_equal(walked, by_words), a


def test_bytemask__random_legal_takes_any_mask_layout_and_rejects_a_wrong_shape():
    rng = np.random.default_rng(3)
    mask = (rng.random((6, 88)) < 0.3).astype(np.int8)
    mask[:, 5] = 1
    contiguous = RandomLegal(seed=9)(mask).copy()
    wide = np.zeros((6, 176), np.int8)
    wide[:, ::2] = mask  # a strided view: read entry by entry
    assert not fits(wide[:, ::2])
    assert np.array_equal(RandomLegal(seed=9)(wide[:, ::2]), contiguous)
    assert np.array_equal(RandomLegal(seed=9)(mask.astype(np.float32)), contiguous)
    assert np.array_equal(RandomLegal(seed=9)(np.asfortranarray(mask)), contiguous)
    with pytest.raises(ValueError, match="2-D"):
        RandomLegal(seed=9)(mask[0])


def test_bytemask__one_random_legal_follows_every_change_of_its_mask():
    """``RandomLegal`` keeps the compiled draw of the last mask it saw: a mask of another layout,
    dtype, width or row count, or the same buffer reshaped or rewritten, still gets the draw of
    a fresh ``RandomLegal`` at the same counter."""
    rng = np.random.default_rng(4)
    base = (rng.random((6, 40)) < 0.3).astype(np.int8)
    base[:, 3] = 1
    wide = np.zeros((6, 80), np.int8)
    wide[:, ::2] = base
    masks = [base, base.astype(np.float32), wide[:, ::2], np.asfortranarray(base), base[:4]]
    masks += [base.astype(bool), base[:, :20], base.copy(), base]
    pol = RandomLegal(seed=2)
    for i, m in enumerate(masks + masks[::-1]):
        fresh = RandomLegal(seed=2)
        fresh.counter = pol.counter
        assert np.array_equal(pol(m), fresh(m)), i
    buf = base.copy()
    pol(buf)
    buf[:] = 0
    buf[:, 7] = 1  # the same buffer, rewritten in place
    assert (pol(buf) == 7).all()
    buf.shape = (3, 80)  # and reshaped in place
    buf[:] = 0
    buf[:, 66] = 1
    assert (pol(buf) == 66).all()
