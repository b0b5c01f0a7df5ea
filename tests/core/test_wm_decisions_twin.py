"""Weighted Majority's on_mistake decisions (``olc_core._kernels.experts.wm_decisions``): the numpy twin
guesses "a mistake" after a mistake and evaluates a run of mistakes at once (issue 24: the bound-attaining
streams are all mistakes), and "no mistake" after a correct round. Its predictions and mistake flags must
be the compiled kernel's and the old per-round loop's, on streams that switch between the two, with ties,
β = 0, and blocks small enough that every run crosses several of them."""
from __future__ import annotations

import numpy as np
import pytest

import olc_core
from olc_core._kernels import engine as kernel_engine
from olc_core._kernels import experts as fast
from olc_core._support.params import validate
from olc_core.learners.weighted_majority import exact_vote_sign
from olc_core.streams.experts import adversary, experts
from tests.core.experts_reference import weighted_majority as old_wm

needs_numba = pytest.mark.skipif(not kernel_engine.available(), reason="numba is not installed")


def streams():
    """(advice ±1 int8, labels ±1): the adversary's, random experts, and the two spliced (runs of mistakes
    then correct rounds, and back), and two opposite experts (exact ties)."""
    out = []
    for seed, (T, N, beta) in enumerate([(600, 10, 0.5), (500, 7, 0.9), (400, 2, 0.05), (300, 31, 0.0)]):
        a = adversary(T, N, beta, "on_mistake", seed)
        r = experts(T, N, np.linspace(0.05, 0.45, N), seed)
        out.append((a.X, a.y))
        A = np.concatenate([a.X[:T // 2], r.X[:T // 3], a.X[T // 2:], r.X[T // 3:]]).astype(np.int8)
        y = np.concatenate([a.y[:T // 2], r.y[:T // 3], a.y[T // 2:], r.y[T // 3:]])
        out.append((A, y))
    rng = np.random.default_rng(5)
    s = np.where(rng.random(400) < 0.5, 1, -1)
    out.append((np.stack([s, -s, -s, s], axis=1).astype(np.int8), np.where(rng.random(400) < 0.5, 1, -1)))
    return out


def decisions(A, y, beta, engine):
    yv = np.asarray(y, dtype=np.int8)
    return fast.wm_decisions(A, yv, np.asarray(y, dtype=np.int64), 1, beta,
                             lambda c, plus: exact_vote_sign(c, plus, beta), engine=engine)


@pytest.mark.parametrize("block_elems", [fast.BLOCK_ELEMS, 64])
def test_the_numpy_twin_decides_as_the_old_loop_and_the_kernel(monkeypatch, block_elems):
    monkeypatch.setattr(fast, "BLOCK_ELEMS", block_elems)
    runs_of_mistakes = 0
    for A, y in streams():
        for beta in (0.0, 0.05, 0.5, 0.9, 1 / 3):
            pred, is_mis = decisions(A, y, beta, "numpy")
            old = old_wm.run(A, y, validate("weighted_majority", {"beta": beta, "update": "on_mistake"}))
            assert np.array_equal(pred, old.predictions) and np.array_equal(np.flatnonzero(is_mis), old.mistakes)
            if kernel_engine.available():
                p2, m2 = decisions(A, y, beta, "numba")
                assert np.array_equal(pred, p2) and np.array_equal(is_mis, m2)
            runs_of_mistakes += int(np.diff(np.flatnonzero(np.diff(np.r_[0, is_mis.astype(int), 0]))).max() > 50)
    assert runs_of_mistakes > 10          # the streams really have long runs of mistakes


@needs_numba
def test_a_bound_attaining_sweep_gives_the_same_table_in_both_engines(monkeypatch):
    tabs = []
    for eng in ("numpy", "auto"):
        monkeypatch.setenv("OLC_CORE_ENGINE", eng)
        tabs.append(olc_core.sweep("weighted_majority", "beta", [0.1, 0.5, 0.9], seeds=2, T=2000, worst_case=True,
                                   N=10, threads=1))
    assert tabs[0].to_csv() == tabs[1].to_csv() and len(tabs[0]) == 6
