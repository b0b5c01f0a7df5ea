"""The streams drawn from raw 64-bit outputs (olc_core.streams._draws) are bit for bit the streams of the
float draws they replace: frozen copies of the generators as they were (``rng.random`` then ``<``) are
compared with today's on many seeds and sizes, every dtype, and the generator's state afterwards."""
from __future__ import annotations

import numpy as np
import pytest

from olc_core.streams import sparse_disjunction, sparse_simplex
from olc_core.streams._draws import BLOCK, fill_below, fill_signs
from olc_core.streams.compare import dense_instances


# ----------------------------------------------------------------- frozen copies (before the change)
def old_sparse_disjunction(T, N, k, seed=0, *, p_on=None, noise=0.0, dtype=np.float64):
    rng = np.random.default_rng([seed, 2])
    p = 1.0 - 2.0 ** (-1.0 / k) if p_on is None else float(p_on)
    relevant = np.sort(rng.choice(int(N), size=int(k), replace=False))
    X = np.empty((T, N), dtype=dtype)
    rows = max(1, (1 << 22) // N)
    for a in range(0, T, rows):
        X[a:a + rows] = rng.random((min(rows, T - a), N)) < p
    y = X[:, relevant].max(axis=1).astype(np.float64)
    flipped = rng.random(T) < noise if noise > 0 else np.zeros(T, dtype=bool)
    y[flipped] = 1.0 - y[flipped]
    return X, y, relevant, flipped


def old_sparse_simplex(T, N, k, seed=0, *, noise=0.0):
    rng = np.random.default_rng([seed, 3])
    relevant = np.sort(rng.choice(int(N), size=int(k), replace=False))
    u = np.zeros(int(N))
    u[relevant] = 1.0 / k
    X = np.where(rng.random((int(T), int(N))) < 0.5, -1.0, 1.0)
    y = np.where(X[:, relevant].sum(axis=1) > 0, 1.0, -1.0)
    flipped = rng.random(int(T)) < noise if noise > 0 else np.zeros(int(T), dtype=bool)
    y[flipped] *= -1.0
    return X, y, u, flipped, y * (X @ u)


def old_dense_instances(T, N, k, seed=0):
    rng = np.random.default_rng([seed, 14, 1])
    relevant = np.sort(rng.choice(N, size=k, replace=False))
    p = 1.0 - 2.0 ** (-1.0 / k)
    X = (rng.random((T, N)) < p).astype(np.uint8)
    return X, X[:, relevant].max(axis=1).astype(np.float64), relevant


def same(a, b) -> bool:
    a, b = np.asarray(a), np.asarray(b)
    return a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes()


# sizes around the block length (T·N just below, at and above multiples of BLOCK) and the sweep's
SIZES = [(1, 1), (3, 7), (50, 17), (BLOCK // 64, 64), (BLOCK // 64 + 1, 64), (257, 255), (2000, 333),
         (10_000, 1000), (5, 20_000)]


@pytest.mark.parametrize("T,N", SIZES)
@pytest.mark.parametrize("dtype", [np.float64, np.uint8])
def test_sparse_disjunction_is_the_frozen_stream(T, N, dtype):
    for seed in range(6 if T * N < 10 ** 6 else 2):
        k = 1 + seed % min(N, 4)
        noise = 0.1 if seed % 2 else 0.0
        new = sparse_disjunction(T, N, k, seed, noise=noise, dtype=dtype)
        X, y, rel, fl = old_sparse_disjunction(T, N, k, seed, noise=noise, dtype=dtype)
        assert same(new.X, X) and same(new.y, y) and same(new.comparator, rel) and same(new.info["flipped"], fl)


@pytest.mark.parametrize("p_on", [1.0, 0.5, 2.0 ** -53, 1e-300, 0.123456789, 1 - 2.0 ** -53])
@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.uint8, np.int8, np.bool_, np.int32])
def test_sparse_disjunction_edges_of_p_and_every_dtype(p_on, dtype):
    new = sparse_disjunction(300, 41, 2, 5, p_on=p_on, noise=0.2, dtype=dtype)
    X, y, rel, fl = old_sparse_disjunction(300, 41, 2, 5, p_on=p_on, noise=0.2, dtype=dtype)
    assert same(new.X, X) and same(new.y, y) and same(new.info["flipped"], fl)


@pytest.mark.parametrize("T,N", SIZES)
def test_sparse_simplex_is_the_frozen_stream(T, N):
    for seed in range(6 if T * N < 10 ** 6 else 2):
        k = [1, 3, 5][seed % 3] if N >= 5 else 1
        noise = 0.15 if seed % 2 else 0.0
        new = sparse_simplex(T, N, k, seed, noise=noise)
        X, y, u, fl, m = old_sparse_simplex(T, N, k, seed, noise=noise)
        assert same(new.X, X) and same(new.y, y) and same(new.comparator, u)
        assert same(new.info["flipped"], fl) and same(new.info["margins"], m)


@pytest.mark.parametrize("T,N,k", [(1, 1, 1), (300, 30, 3), (1000, 1001, 2), (3, 30_000, 5)])
def test_dense_instances_is_the_frozen_stream(T, N, k):
    for seed in range(4):
        new = dense_instances(T, N, k, seed)
        X, y, rel = old_dense_instances(T, N, k, seed)
        assert same(new.X, X) and same(new.y, y) and same(new.comparator, rel)


@pytest.mark.parametrize("bitgen", [np.random.PCG64, np.random.MT19937, np.random.Philox, np.random.SFC64])
def test_fill_draws_the_same_numbers_and_leaves_the_same_state(bitgen):
    for n in (1, BLOCK - 1, BLOCK, 2 * BLOCK + 3):
        for p in (0.0, 0.3, 0.5, 1.0):
            a, b = np.random.Generator(bitgen(11)), np.random.Generator(bitgen(11))
            out = np.empty(n, dtype=np.uint8)
            fill_below(a, p, out)
            assert same(out, (b.random(n) < p).astype(np.uint8))
            assert a.random() == b.random() and a.integers(1 << 30) == b.integers(1 << 30)
        a, b = np.random.Generator(bitgen(12)), np.random.Generator(bitgen(12))
        s = np.empty(n)
        fill_signs(a, s)
        assert same(s, np.where(b.random(n) < 0.5, -1.0, 1.0)) and a.random() == b.random()


def test_fill_rejects_arrays_it_cannot_write_in_order():
    rng = np.random.default_rng(0)
    with pytest.raises(ValueError, match="C-contiguous"):
        fill_below(rng, 0.5, np.empty((4, 4))[:, ::2])
    with pytest.raises(ValueError, match="float64"):
        fill_signs(rng, np.empty(4, dtype=np.float32))


@pytest.mark.parametrize("p", [0.5, 0.3, 1.0 - 2.0 ** (-1.0 / 3), 2.0 ** -53, 3 * 2.0 ** -54, 1e-300, 0.0,
                               1 - 2.0 ** -53, 1.0])
def test_the_raw_limit_is_the_float_comparison_at_its_edge(p):
    from olc_core.streams._draws import _limit

    lim = _limit(p)
    if lim is None:                       # every draw (at most 1 − 2⁻⁵³) is below p
        assert p >= 1.0
        return
    # raw outputs on both sides of the limit, and of the next multiple of 2¹¹ (one float step)
    cand = {lim - 1, lim, lim + 1, lim - 2048, lim + 2048, lim + 2047, 0, (1 << 64) - 1}
    for r in sorted(c for c in cand if 0 <= c < 1 << 64):
        as_float = float(r >> 11) * 2.0 ** -53          # numpy's next_double for PCG64
        assert (r < lim) == (as_float < p), (p, r)


def test_sparse_simplex_into_a_reused_buffer_is_the_same_stream():
    buf = np.full(5000 * 40 + 7, np.nan)
    for seed, (T, N) in enumerate([(5000, 40), (100, 3), (300, 17)]):
        a = sparse_simplex(T, N, 3 if N >= 3 else 1, seed, noise=0.1, out=buf)
        b = sparse_simplex(T, N, 3 if N >= 3 else 1, seed, noise=0.1)
        assert np.shares_memory(a.X, buf) and a.X.flags.c_contiguous
        assert same(a.X, b.X) and same(a.y, b.y) and same(a.info["margins"], b.info["margins"])
    for bad in (np.empty(10), np.empty(400, dtype=np.float32), np.empty((40, 20))[:, ::2]):
        with pytest.raises(ValueError, match="out must be a C-contiguous float64 array of at least 200"):
            sparse_simplex(20, 10, 3, 0, out=bad)
