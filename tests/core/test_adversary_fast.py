"""The bound-attaining expert streams (issue 14 speed) against their round-by-round originals.

``tests/core/adversary_reference`` holds ``adversary`` (WM/RWM) and ``halving_adversary`` as they were:
the first replayed Weighted Majority's exact vote round by round, drawing ``rng.random(N)`` then
``rng.integers(2)`` each round. The new generators must give exactly the same streams (advice, labels,
comparator, info) in both engines, on small and odd block sizes, through the raw-word draws and through
the public-API fallback; and the decisions must be those of the learner (every round a mistake).
"""
from __future__ import annotations

import importlib
from collections import OrderedDict
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest

import olc_core
from olc_core._kernels import engine as kernel_engine
from olc_core._kernels import experts as fast
from olc_core.streams import worst_case
from olc_core.streams.experts import adversary
from olc_core.streams.worst_case import halving_adversary
from tests.core.adversary_reference import experts as old_experts
from tests.core.adversary_reference import worst_case as old_worst
from tests.core.test_experts_fast import engine

experts_mod = importlib.import_module("olc_core.streams.experts")   # (olc_core.streams.experts is the function)

ENGINES = ["numpy"] + (["numba"] if kernel_engine.available() else [])



@pytest.fixture(autouse=True)
def _fresh_caches(monkeypatch):
    """Every test draws its streams itself (the generators keep recent streams: see the cache tests)."""
    monkeypatch.setattr(experts_mod, "_adv_cache", OrderedDict())
    monkeypatch.setattr(worst_case, "_prefixes", OrderedDict())


def _same_stream(new, old):
    assert new.X.dtype == old.X.dtype and new.y.dtype == old.y.dtype
    assert np.array_equal(new.X, old.X)
    assert np.array_equal(new.y, old.y)
    assert new.comparator == old.comparator
    assert new.info.keys() == old.info.keys()
    for k, v in old.info.items():
        assert np.array_equal(new.info[k], v) if isinstance(v, np.ndarray) else new.info[k] == v, k


# (T, N, β, seed): ties (N even: every round 1, and whenever the counts pair up), β = 0 (Halving's weights,
# ties when an even number of experts is unpenalised), tiny and large β, N odd (one expert left far behind)
WM_CASES = [(T, N, beta, seed)
            for seed, (T, N) in enumerate([(1, 2), (2, 3), (7, 2), (40, 4), (121, 5), (200, 6), (301, 10), (250, 17),
                                           (150, 32), (150, 33), (120, 64), (60, 100), (30, 257)])
            for beta in (0.0, 1e-9, 0.05, 0.5, 0.95, 0.999999)]


@pytest.mark.parametrize("T,N,beta,seed", WM_CASES)
def test_wm_adversary_is_the_round_by_round_stream(T, N, beta, seed):
    update = "every_round" if seed % 2 else "on_mistake"
    old = old_experts.adversary(T, N, beta, update, seed)
    for eng in ENGINES:
        _same_stream(adversary(T, N, beta, update, seed, engine=eng), old)
        with engine(eng):
            _same_stream(adversary(T=T, N=N, beta=beta, update=update, seed=seed), old)


@pytest.mark.parametrize("seed", range(6))
def test_wm_adversary_many_seeds_and_ties(seed):
    """Even N with β > 0: every round whose sorted counts pair up is a tie, which the learner sends to +1."""
    for N in (2, 4, 8, 12):
        old = old_experts.adversary(400, N, 0.7, "on_mistake", 100 + seed)
        new = adversary(400, N, 0.7, "on_mistake", 100 + seed)
        _same_stream(new, old)
        assert (new.y[0] == -1.0)   # round 1: all weights 1, an exact tie → WM says +1, the label −1


def test_wm_adversary_blocks_and_fallback_draws(monkeypatch):
    """Blocks of 2 or 4 rounds (odd T: the last block half used), and the public-API draws (used when the
    raw-word layout check fails) give the same streams."""
    assert fast.raw_draws_ok()   # this numpy: PCG64's documented raw words
    cases = [(37, 3, 0.5, 1), (41, 6, 0.0, 2), (29, 40, 0.9, 3)]
    olds = [old_experts.adversary(T, N, b, "on_mistake", s) for T, N, b, s in cases]
    for elems in (1, 8, 150):
        monkeypatch.setattr(fast, "ADV_BLOCK_ELEMS", elems)
        experts_mod._adv_cache.clear()                 # draw again (no kept stream)
        for (T, N, b, s), old in zip(cases, olds):
            for eng in ENGINES:
                _same_stream(adversary(T, N, b, "on_mistake", s, engine=eng), old)
    monkeypatch.setattr(fast, "_raw_ok", [False])
    experts_mod._adv_cache.clear()
    for (T, N, b, s), old in zip(cases, olds):
        _same_stream(adversary(T, N, b, "on_mistake", s), old)


def test_wm_adversary_kernel_runs_as_plain_python():
    """The compiled kernel's source, run by the interpreter, is the numpy twin (one count level and many,
    buckets of several experts, β = 0)."""
    for N, beta in ((5, 0.5), (40, 0.3), (70, 0.0)):
        draws = list(fast.adversary_draws(np.random.default_rng([N, 12]), 30, N))
        out = []
        for step in (fast._adversary_kernel_py, fast._adversary_numpy):
            A, y, c = np.empty((30, N), np.int8), np.empty(30), np.zeros(N, np.int64)
            for s, e, u, first in draws:
                step(u, first, c, beta == 0.0, A[s:e], y[s:e])
            out.append((A, y, c))
        for a, b in zip(*out):
            assert np.array_equal(a, b)


@pytest.mark.parametrize("N", [8, 9])
@pytest.mark.parametrize("beta,update", [(0.5, "on_mistake"), (0.2, "every_round"), (0.0, "on_mistake"),
                                         (1e-300, "on_mistake"), (0.999, "every_round")])
def test_wm_adversary_every_round_is_a_mistake(beta, update, N):
    """The learner itself (its exact vote, ties → +1) confirms the kernel's decisions: it errs on every round."""
    s = adversary(T=500, N=N, beta=beta, update=update, seed=4)
    tr = olc_core.run("weighted_majority", s.X, s.y, beta=beta, update=update)
    assert tr.n_mistakes == 500
    assert tr.proof.violations() == []


def test_wm_adversary_is_one_stream_for_every_positive_beta():
    """The kernel never reads β beyond β = 0, so a β sweep reuses one stream per seed (the old generator,
    which replayed the learner's float vote for each β, gives that same stream for every β > 0); the kept
    stream is never the caller's memory."""
    betas = (0.05, 0.5, 0.0, 0.95, 1e-9, 0.0, 0.3)
    for seed in (0, 1):
        for b in betas:
            new = adversary(300, 10, b, "every_round", seed)
            _same_stream(new, old_experts.adversary(300, 10, b, "every_round", seed))
            new.X[:] = 0
            new.y[:] = 0
            new.info["expert_mistakes"][:] = 0
    assert 0 < len(experts_mod._adv_cache) <= experts_mod._ADV_KEEP


# ---------------------------------------------------------------------------- Halving
@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("T,N", [(1, 1), (1, 2), (3, 5), (12, 16), (50, 17), (40, 1000), (7, 3)])
def test_halving_adversary_is_the_original_stream(T, N, seed):
    _same_stream(halving_adversary(T, N, seed), old_worst.halving_adversary(T, N, seed))


def _fresh_prefixes(monkeypatch):
    monkeypatch.setattr(worst_case, "_prefixes", OrderedDict())


def test_halving_adversary_block_boundaries(monkeypatch):
    """Blocks that split rows (and a last partial block) draw the same numbers in the same order."""
    olds = {(T, N): old_worst.halving_adversary(T, N, 9) for T, N in ((33, 7), (20, 64), (5, 1))}
    for block in (1, 5, 64, 100):
        monkeypatch.setattr(worst_case, "_BLOCK", block)
        for cached in (True, False):
            monkeypatch.setattr(worst_case, "_CACHE_MAX", 1 << 24 if cached else 0)
            _fresh_prefixes(monkeypatch)
            for (T, N), old in olds.items():
                _same_stream(halving_adversary(T, N, 9), old)


def test_halving_adversary_prefix_cache(monkeypatch):
    """One seed's matrices are prefixes of one draw sequence: N and T up and down, more seeds than are
    kept (evictions), prefixes longer than the cache holds (drawn directly) — always the original stream,
    and a returned stream is never the cache's memory."""
    _fresh_prefixes(monkeypatch)
    monkeypatch.setattr(worst_case, "_CACHE_MAX", 5000)
    calls = [(100, 2), (100, 40), (37, 64), (100, 50), (3, 1), (120, 41), (1, 1), (100, 40)]
    for seed in (0, 1, 2, 3, 4, 0, 5, 1):
        for T, N in calls:
            new = halving_adversary(T, N, seed)
            _same_stream(new, old_worst.halving_adversary(T, N, seed))
            new.X[:] = 0   # a caller writing into its stream must not change the next one
    assert len(worst_case._prefixes) <= worst_case._CACHE_SEEDS


def test_halving_adversary_threads(monkeypatch):
    """Two threads drawing the same seeds' prefixes (as olc_core.sweep's pool does) get the original streams."""
    _fresh_prefixes(monkeypatch)
    jobs = [(50, N, seed) for N in (3, 200, 17, 999, 64) for seed in (0, 1, 2, 0, 1)]
    with ThreadPoolExecutor(max_workers=2) as pool:
        got = list(pool.map(lambda j: halving_adversary(*j), jobs))
    for j, new in zip(jobs, got):
        _same_stream(new, old_worst.halving_adversary(*j))


@pytest.mark.parametrize("N", [2, 7, 40])
def test_wm_adversary_kernels_break_equal_draws_by_index(N):
    """Equal draws (probability ~N²·2⁻⁵³ a round in a real stream) are ordered by expert index, as
    ``np.lexsort`` orders them: crafted draws from {0, …, 3}·2⁵⁰ (and all in one bucket) in every engine
    (the numpy twin's list form, for a few experts, included)."""
    rng = np.random.default_rng(N)
    R = 60
    u = (rng.integers(0, 4, size=(R, N)) * (1 << 50)).astype(np.uint64)
    first = np.where(rng.random(R) < 0.5, 1, -1).astype(np.int8)
    steps = [fast._adversary_numpy, fast._adversary_lists, fast._adversary_kernel_py] + (
        [fast._adversary_compiled()] if kernel_engine.available() else [])
    for beta_zero in (False, True):
        out = []
        for step in steps:
            A, y, c = np.empty((R, N), np.int8), np.empty(R), np.zeros(N, np.int64)
            step(u, first, c, beta_zero, A, y)
            out.append((A, y, c))
        for got in out[1:]:
            for a, b in zip(got, out[0]):
                assert np.array_equal(a, b)
