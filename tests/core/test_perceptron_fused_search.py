"""The max-margin search fused into the Perceptron's compiled loop (no comparator given): the loop's
block minima are the search's full pass, value for value, however the direction arrives (before the
loop, in the middle of it, after it, or never), and the run finds the comparator max_margin finds."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import olc_core
from olc_core._comparators import max_margin as max_margin_search
from olc_core._kernels import engine as kernel_engine
from olc_core._kernels import margin_scan
from olc_core._kernels import perceptron as perceptron_kernels
from olc_core.comparators import max_margin
from olc_core.learners import perceptron as P
from olc_core.learners.perceptron import perceptron_numba, perceptron_numpy

from .wolfe_reference import reference_max_margin

needs_numba = pytest.mark.skipif(not kernel_engine.available(), reason="numba not installed")


class LateFuture:
    """A future that says it is done only from its ``after``-th ``done()`` call on (never: None)."""

    def __init__(self, value, after):
        self.value, self.after, self.calls = value, after, 0

    def done(self):
        self.calls += 1
        return self.after is not None and self.calls > self.after

    def result(self):
        if isinstance(self.value, Exception):
            raise self.value
        return self.value


def scanner_minima(X, y, v):
    sc = margin_scan.Scanner(X, y, threads=1)
    r2 = sc.full(v)
    return sc.bmin, r2


def fused(X, y, v, fut, split=None):
    m = perceptron_kernels.BlockMinima(fut, len(X), margin_scan.SHIFT, margin_scan.block_minima)
    out = perceptron_numba(X, y, None, split=split, minima=m)
    return out, m


@needs_numba
@pytest.mark.parametrize("after", [0, 1, 3, None])        # known at once, after 1 or 3 chunks, after the loop
@pytest.mark.parametrize("split", [True, False])
@pytest.mark.parametrize("d", [2, 3])
def test_fused_block_minima_equal_the_scanners_full_pass(after, split, d, monkeypatch):
    # small chunks, probe and blocks' worth of rounds, so that every path runs on a short stream; 40 % noise
    # makes the loop grow its buffers (resuming in the middle of a block)
    monkeypatch.setattr(perceptron_kernels, "CHUNK", 1024)
    monkeypatch.setattr(perceptron_kernels, "SPLIT_PROBE", 2048)
    monkeypatch.setattr(perceptron_kernels, "SPLIT_MIN_MISTAKE_RATE", 0.0)
    monkeypatch.setattr(perceptron_kernels, "DATA_CHUNK", 1024 + 64)  # the split's data half in many chunks
    s = olc_core.streams.noisy(T=20_000 + 37, d=d, gamma=0.01, noise=0.4, seed=d)
    rng = np.random.default_rng(d)
    v = rng.standard_normal(d)
    v /= np.linalg.norm(v)
    out, m = fused(s.X, s.y, v, LateFuture(v, after), split=split)
    bmin, r2 = scanner_minima(s.X, s.y, v)
    assert len(out[2]) > len(s.X) // 4           # the buffers grew
    np.testing.assert_array_equal(m.bmin, bmin)
    assert out[6] == r2 and not m.failed
    np.testing.assert_array_equal(m.v, v)
    for u, w in zip(out, perceptron_numpy(s.X, s.y, None)):  # the learner's own results are untouched
        np.testing.assert_array_equal(u, w)


@needs_numba
def test_block_minima_hand_worked():
    # blocks of 64 rounds: round t has x = (t, 1), y = +1, v = (0, 1) except round 70 (margin -2) and
    # round 130 (v·x = 0.5): minima 1, -2, 0.5 over the three blocks
    X = np.column_stack([np.arange(150.0), np.ones(150)])
    X[70, 1], X[130, 1] = -2.0, 0.5
    y = np.ones(150)
    v = np.array([0.0, 1.0])
    for after in (0, None):
        _, m = fused(X, y, v, LateFuture(v, after))
        assert m.bmin.tolist() == [1.0, -2.0, 0.5]


@needs_numba
def test_no_direction_or_a_failed_search_leaves_the_loop_alone():
    s = olc_core.streams.separable(T=5000, d=2, gamma=0.05, radius=1.0, seed=1)
    ref = perceptron_numpy(s.X, s.y, None)
    for value, failed in ((None, False), (ValueError("search failed"), True)):
        out, m = fused(s.X, s.y, None, LateFuture(value, 1))
        assert m.v is None and m.failed == failed and np.isinf(m.bmin).all()
        for u, w in zip(out, ref):
            np.testing.assert_array_equal(u, w)


@needs_numba
@pytest.mark.parametrize("threads, concurrent", [("1", False), ("2", False), ("2", True)])
@pytest.mark.parametrize("d", [2, 3, 5])
def test_run_finds_the_comparator_max_margin_finds(threads, concurrent, d, monkeypatch):
    monkeypatch.setenv("OLC_CORE_THREADS", threads)
    monkeypatch.setattr(P, "SEARCH_CONCURRENT", concurrent)  # the first step on the worker, or before the loop
    T = max(60_000, P.CONCURRENT_MIN // d + 1)
    for seed, noise in ((d, 0.0), (d + 1, 0.0), (d, 0.1)):
        s = olc_core.streams.separable(T=T, d=d, gamma=0.05, radius=1.0, seed=seed, noise=noise)
        tr = olc_core.run("perceptron", s.X, s.y, engine="numba")
        mm = max_margin(s.X, s.y)
        assert tr.info["separability"] == mm.status
        if mm.separable:
            np.testing.assert_array_equal(tr.info["comparator"], mm.w)
            assert tr.proof.constants["gamma"] == mm.margin == tr.columns["comparator_margin"].min()
        else:
            np.testing.assert_array_equal(tr.info["certificate_rounds"], mm.support)
        assert tr.proof.violations() == []


@needs_numba
def test_a_failing_first_step_falls_back_to_the_plain_search(monkeypatch):
    s = olc_core.streams.separable(T=60_000, d=2, gamma=0.05, radius=1.0, seed=4)

    def boom(steps):
        raise RuntimeError("first step failed")
    monkeypatch.setattr(P, "_search_first", boom)
    tr = olc_core.run("perceptron", s.X, s.y, engine="numba")
    np.testing.assert_array_equal(tr.info["comparator"], max_margin(s.X, s.y).w)


def test_search_steps_ask_for_the_passes_max_margin_makes():
    s = olc_core.streams.separable(T=30_000, d=2, gamma=0.05, radius=1.0, seed=2)
    gen, scan = max_margin_search.search_steps(s.X, s.y)
    w = next(gen)
    bmin, r2 = scanner_minima(s.X, s.y, w)
    scan.set_full(w, bmin, r2)
    mm = max_margin_search.drive(gen, scan, w)
    ref = max_margin(s.X, s.y)
    np.testing.assert_array_equal(mm.w, ref.w)
    assert (mm.margin, mm.upper, mm.iterations) == (ref.margin, ref.upper, ref.iterations)
    with pytest.raises(ValueError, match="wrong length"):
        scan.set_full(w, bmin[:-1], r2)


def test_affine_minimiser_of_two_and_three_points_hand_worked():
    # the segment from (1, 0) to (0, 1): nearest 0 at its middle; three points spanning the plane: 0 itself
    a = max_margin_search._affine_minimizer(np.array([[1.0, 0.0], [0.0, 1.0]]))
    assert a.tolist() == [0.5, 0.5]
    Z = np.array([[1.0, 0.0], [-1.0, 0.5], [-1.0, -0.5]])
    a = max_margin_search._affine_minimizer(Z)
    np.testing.assert_allclose(a, [0.5, 0.25, 0.25], rtol=1e-15)
    # dependent rows (the same point twice): no closed form, least squares answers
    a = max_margin_search._affine_minimizer(np.array([[1.0, 1.0], [1.0, 1.0], [2.0, 0.0]]))
    np.testing.assert_allclose(a @ np.array([[1.0, 1.0], [1.0, 1.0], [2.0, 0.0]]), [1.0, 1.0], atol=1e-12)


@settings(deadline=None, max_examples=200)
@given(st.integers(2, 3), st.integers(1, 6), st.integers(0, 2**31))
def test_affine_minimiser_closed_forms_agree_with_least_squares(k, d, seed):
    rng = np.random.default_rng(seed)
    Z = rng.standard_normal((k, d)) * 10.0 ** rng.uniform(-3, 3)
    a = max_margin_search._affine_minimizer(Z)
    B = Z[1:] - Z[0]
    beta, *_ = np.linalg.lstsq(B.T, -Z[0], rcond=None)
    ref = np.concatenate([[1.0 - beta.sum()], beta])
    assert a.sum() == pytest.approx(1.0, abs=1e-12)
    np.testing.assert_allclose(a @ Z, ref @ Z, atol=1e-9 * np.abs(Z).max())


@settings(deadline=None, max_examples=15)
@given(st.integers(max_margin_search.SMALL + 1, 40_000), st.integers(2, 3), st.integers(0, 2**31), st.floats(0.001, 0.3))
def test_low_dimension_working_set_agrees_with_wolfe_on_every_round(T, d, seed, gamma):
    # after the first pass the working set is the corral and the violators only (d ≤ LOW_D)
    s = olc_core.streams.separable(T=T, d=d, gamma=gamma, radius=1.0, seed=seed)
    mm = max_margin(s.X, s.y)
    w, margin, upper = reference_max_margin(s.X, s.y)
    assert mm.status == "separable"
    assert mm.margin <= upper + 1e-12 and margin <= mm.upper + 1e-12
    assert abs(mm.margin - margin) <= 1e-9 and np.linalg.norm(mm.w - w) <= 1e-4


def test_plane_wolfe_hand_worked():
    # z = (1, 1), (1, -1), (3, 0): the nearest point of the hull to 0 is (1, 0), the middle of the first two
    Z = np.array([[1.0, 1.0], [1.0, -1.0], [3.0, 0.0]])
    res = max_margin_search._wolfe(Z, 9.0, 1e-13, 100)
    assert res.converged and res.cert is None
    assert res.p.tolist() == [1.0, 0.0] and sorted(res.S.tolist()) == [0, 1] and res.lam.tolist() == [0.5, 0.5]
    # a vertex: (2, 1) is nearest, every other point lies beyond the line through it orthogonal to it
    Z = np.array([[2.0, 1.0], [4.0, 0.0], [0.0, 5.0]])
    res = max_margin_search._wolfe(Z, 25.0, 1e-13, 100)
    assert res.p.tolist() == [2.0, 1.0] and res.S.tolist() == [0]
    # 0 inside the triangle: the plane steps hand over to the general ones, which find the exact certificate
    Z = np.array([[1.0, 0.0], [-1.0, 0.5], [-1.0, -0.5]])
    res = max_margin_search._wolfe(Z, 1.25, 1e-13, 100)
    assert res.cert is not None and [str(v) for v in res.cert] == ["1/2", "1/4", "1/4"]


@settings(deadline=None, max_examples=200)
@given(st.integers(1, 60), st.integers(0, 2**31), st.floats(-0.5, 1.0))
def test_plane_wolfe_agrees_with_the_general_steps(m, seed, shift):
    # points around a direction, shifted towards or past 0 (some sets hold 0 in their hull)
    rng = np.random.default_rng(seed)
    Z = rng.standard_normal((m, 2)) * rng.uniform(0.01, 1.0) + np.array([shift, 0.2 * shift])
    Rz2 = float((Z * Z).sum(axis=1).max())
    fast = max_margin_search._wolfe(Z, Rz2, 1e-13, 1000)
    general = _wolfe_without_the_plane_steps(Z, Rz2)
    assert (fast.cert is None) == (general.cert is None)
    if fast.cert is None:
        # the same nearest point of the hull, to the stopping tolerance
        assert abs(np.linalg.norm(fast.p) - np.linalg.norm(general.p)) <= 1e-9 * np.sqrt(Rz2)
        g = Z @ fast.p
        assert fast.p @ fast.p - g.min() <= 1e-9 * Rz2        # Wolfe's optimality condition on every point
        assert np.all(fast.lam > 0) and fast.lam.sum() == pytest.approx(1.0)
        np.testing.assert_allclose(fast.lam @ Z[fast.S], fast.p, atol=1e-12 * np.sqrt(Rz2))


def _wolfe_without_the_plane_steps(Z, Rz2):
    Z3 = np.column_stack([Z, np.zeros(len(Z))])  # the same points in 3-D: the general steps only
    return max_margin_search._wolfe(Z3, Rz2, 1e-13, 1000)


def test_sample_is_runs_of_consecutive_rounds_spread_over_the_stream():
    S, RUN = max_margin_search.SAMPLE, max_margin_search.RUN
    assert max_margin_search._sample(5).tolist() == [0, 1, 2, 3, 4]
    for T in (S + 1, S + RUN * (S // RUN) - 1, S + RUN * (S // RUN), 10**5, 10**6 + 3):
        c = max_margin_search._sample(T)
        assert len(c) == S and np.all(np.diff(c) > 0) and c[0] == 0 and c[-1] == T - 1
    c = max_margin_search._sample(10**6).reshape(S // RUN, RUN)
    assert np.all(np.diff(c, axis=1) == 1) and np.all(np.diff(c[:, 0]) > 7000)   # runs, far apart


@needs_numba
@pytest.mark.parametrize("split", [True, False])
@pytest.mark.parametrize("outcome", ["direction", "none", "raises"])
def test_first_step_in_this_thread_while_the_worker_runs_the_first_rounds(split, outcome, monkeypatch):
    # BlockMinima.first: the caller's thread computes the direction while the worker runs PREFIX rounds; their
    # minima are caught up afterwards; the learner's results and the minima are those of the plain passes
    monkeypatch.setattr(perceptron_kernels, "PREFIX", 4096)
    monkeypatch.setattr(perceptron_kernels, "SPLIT_PROBE", 2048)
    monkeypatch.setattr(perceptron_kernels, "SPLIT_MIN_MISTAKE_RATE", 0.0)
    monkeypatch.setattr(kernel_engine, "threads", lambda: 2)
    s = olc_core.streams.noisy(T=20_000 + 37, d=2, gamma=0.01, noise=0.4, seed=9)
    v = np.array([0.6, 0.8])
    seen = []

    def first():
        seen.append(True)
        if outcome == "raises":
            raise ValueError("search failed")
        return v if outcome == "direction" else None
    m = perceptron_kernels.BlockMinima(None, len(s.X), margin_scan.SHIFT, margin_scan.block_minima, first=first)
    out = perceptron_numba(s.X, s.y, None, split=split, minima=m)
    assert seen == [True] and m.failed == (outcome == "raises")
    for u, w in zip(out, perceptron_numpy(s.X, s.y, None)):
        np.testing.assert_array_equal(u, w)
    if outcome == "direction":
        bmin, r2 = scanner_minima(s.X, s.y, v)
        np.testing.assert_array_equal(m.bmin, bmin)
    else:
        assert m.v is None and np.isinf(m.bmin).all()
