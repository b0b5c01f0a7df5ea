"""The max-margin comparator: separable, inseparable (only with an exact certificate) or
unresolved; and the working-set search agrees with Wolfe on every round."""
from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import olc_core
from olc_core._support.numeric import rowdot
from olc_core._comparators import max_margin as max_margin_search
from olc_core._kernels import engine as kernel_engine
from olc_core.comparators import max_margin

from .wolfe_reference import reference_max_margin

SETTINGS = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow], max_examples=150)


def exact_certificate_holds(X, y, rounds, lam) -> bool:
    """Independently of the library: λ ≥ 0, Σλ = 1 and Σ λ_t y_t x_t = 0 in exact rationals."""
    lam = [Fraction(v) for v in lam]
    if not lam or any(v < 0 for v in lam) or sum(lam) != 1 or len(lam) != len(rounds):
        return False
    for j in range(X.shape[1]):
        s = sum(v * Fraction(float(y[t])) * Fraction(float(X[t, j])) for v, t in zip(lam, rounds))
        if s != 0:
            return False
    return True


def exact_min_margin(X, y, w) -> Fraction:
    return min(Fraction(float(y[t])) * sum(Fraction(float(a)) * Fraction(float(b)) for a, b in zip(X[t], w))
               for t in range(len(y)))


def test_tiny_margin_is_separable_not_certified_inseparable():
    X = np.array([[1.0, 1e-11], [-1.0, 1e-11]])
    y = np.array([1.0, 1.0])
    mm = max_margin(X, y)
    assert mm.status == "separable" and not mm.proved_inseparable
    assert mm.w.tolist() == [0.0, 1.0] and mm.margin == 1e-11 and mm.upper >= 1e-11
    tr = olc_core.run("perceptron", X, y)
    assert tr.info["comparator_source"] == "max-margin" and tr.proof.failed_assumptions == []
    assert tr.proof.constants["gamma"] == 1e-11


@pytest.mark.parametrize("X, y", [
    ([[1.0, 0.0], [1.0, 0.0]], [1, -1]),                       # one point, both labels
    ([[1.0, 0.0], [-1.0, 0.0], [0.0, 1.0]], [1, 1, 1]),          # 0 on an edge of the hull
    ([[0.0, 0.0], [1.0, 1.0]], [1, 1]),                          # x = 0: margin 0 for every w
    ([[1e-200, 3e-200], [-2e-200, -6e-200]], [1, 1]),            # tiny, exactly opposite
    ([[0.1, 0.2, 0.3], [0.2, 0.4, 0.6]], [1, -1]),               # parallel, opposite labels (0.2 = 2·0.1 in floats)
])
def test_near_degenerate_inseparable_cases_carry_an_exact_certificate(X, y):
    X, y = np.array(X), np.array(y, dtype=float)
    mm = max_margin(X, y)
    assert mm.status == "inseparable" and mm.upper == 0.0
    assert exact_certificate_holds(X, y, mm.support, mm.certificate)
    if np.abs(X).max() < 1e-100:  # out of the Perceptron's range: it refuses such data (tests/core/test_scales.py)
        with pytest.raises(ValueError, match="scale is out of range"):
            olc_core.run("perceptron", X, y)
        return
    tr = olc_core.run("perceptron", X, y)
    [fa] = tr.proof.failed_assumptions
    assert "not linearly separable" in fa.detail and "exact" in fa.detail


@pytest.mark.parametrize("X, y", [
    ([[1.0, 1e-16], [-1.0, 1e-16]], [1, 1]),                     # margin 1e-16: below the rounding error
    ([[1.0, 1e-300], [-1.0, 1e-300], [0.5, 1e-300]], [1, 1, 1]),
    ([[0.1, 0.2, 0.3], [0.2, 0.4, 0.6000000000000001]], [1, -1]),  # not exactly parallel
])
def test_margins_floats_do_not_resolve_are_reported_as_unresolved(X, y):
    X, y = np.array(X), np.array(y, dtype=float)
    mm = max_margin(X, y)
    assert mm.status == "unresolved" and mm.reason == "resolution" and not mm.proved_inseparable
    assert mm.upper <= 1e-10 and mm.resolution > 0
    tr = olc_core.run("perceptron", X, y)
    [fa] = tr.proof.failed_assumptions
    assert tr.info["separability"] == "unresolved" and tr.proof.mistake_bound is None
    assert "not linearly separable" not in fa.detail and "below what floating point resolves" in fa.detail
    with pytest.raises(ValueError, match="neither shown separable nor shown inseparable"):
        olc_core.run("margin_perceptron", X, y)


def test_scaled_data_keep_their_verdict():
    X = np.array([[1.0, 1e-11], [-1.0, 1e-11]]) * 1e-200
    mm = max_margin(X, np.ones(2))
    assert mm.status == "separable" and mm.w.tolist() == [0.0, 1.0]


@st.composite
def small_data(draw):
    T = draw(st.integers(1, 12))
    d = draw(st.integers(1, 3))
    grid = st.sampled_from([-1.0, -0.5, -0.1, 0.0, 0.1, 0.5, 1.0, 1e-11, -1e-11, 1e-16, 0.3, -0.7])
    X = np.array(draw(st.lists(st.lists(grid, min_size=d, max_size=d), min_size=T, max_size=T)))
    y = np.array(draw(st.lists(st.sampled_from([-1.0, 1.0]), min_size=T, max_size=T)))
    return X, y


@SETTINGS
@given(small_data())
def test_every_verdict_is_true_in_exact_arithmetic(data):
    X, y = data
    mm = max_margin(X, y)
    if mm.status == "inseparable":
        assert exact_certificate_holds(X, y, mm.support, mm.certificate)
    elif mm.status == "separable":
        assert exact_min_margin(X, y, mm.w) > 0 and mm.margin <= mm.upper
    else:
        assert mm.reason in ("resolution", "iterations") and mm.upper >= 0


@settings(deadline=None, max_examples=25)
@given(st.integers(max_margin_search.SMALL + 1, 30_000), st.integers(2, 5), st.integers(0, 2**31),
       st.floats(0.001, 0.3), st.sampled_from(["generated", "margin", "random"]))
def test_working_set_agrees_with_wolfe_on_every_round(T, d, seed, gamma, order):
    s = olc_core.streams.separable(T=T, d=d, gamma=gamma, radius=1.0, seed=seed, order=order)
    mm = max_margin(s.X, s.y)
    w, margin, upper = reference_max_margin(s.X, s.y)
    assert mm.status == "separable"
    # both intervals hold the true max margin, and each is within Wolfe's stopping tolerance
    assert mm.margin <= upper + 1e-12 and margin <= mm.upper + 1e-12
    assert mm.gap <= 1e-13 / mm.upper + 1e-12 and abs(mm.margin - margin) <= 1e-9
    assert np.linalg.norm(mm.w - w) <= 1e-4
    assert mm.margin == pytest.approx(float(np.min(s.y * (s.X @ mm.w))), abs=1e-15)


@settings(deadline=None, max_examples=10)
@given(st.integers(max_margin_search.SMALL + 1, 50_000), st.integers(2, 4), st.integers(0, 2**31),
       st.floats(0.02, 0.3))
def test_noisy_long_streams_are_certified_inseparable_exactly(T, d, seed, noise):
    s = olc_core.streams.separable(T=T, d=d, gamma=0.05, radius=1.0, seed=seed, noise=noise)
    mm = max_margin(s.X, s.y)
    assert mm.status == "inseparable"
    assert exact_certificate_holds(s.X, s.y, mm.support, mm.certificate)


@pytest.mark.parametrize("threads", ["1", "2"])
@pytest.mark.parametrize("noise", [0.0, 0.1])
def test_long_streams_same_run_on_both_engines(monkeypatch, threads, noise):
    """Long streams, no comparator given: the compiled engine (learner and search at once on two threads,
    or one after the other) and numpy find the same w* and give the same columns, bit for bit — the
    comparator's margins are read lazily, its minimum found block by block."""
    if not kernel_engine.available():
        pytest.skip("numba not installed")
    monkeypatch.setenv("OLC_CORE_THREADS", threads)
    s = olc_core.streams.separable(T=300_000, d=2, gamma=0.05, radius=1.0, seed=3, noise=noise)
    a = olc_core.run("perceptron", s.X, s.y, engine="numba")
    b = olc_core.run("perceptron", s.X, s.y, engine="numpy")
    assert a.info["separability"] == b.info["separability"] == ("separable" if noise == 0 else "inseparable")
    np.testing.assert_array_equal(a.mistakes, b.mistakes)
    assert a.proof.violations() == b.proof.violations() == []
    if noise == 0:
        np.testing.assert_array_equal(a.info["comparator"], b.info["comparator"])
        assert a.proof.constants["gamma"] == b.proof.constants["gamma"] > 0
        np.testing.assert_array_equal(a.columns["comparator_margin"], b.columns["comparator_margin"])
        assert a.proof.constants["gamma"] == a.columns["comparator_margin"].min()
        np.testing.assert_array_equal(np.asarray(a.proof.series["inner"]), np.asarray(b.proof.series["inner"]))


@pytest.mark.parametrize("compiled", [True, False])
def test_block_bounds_find_the_exact_minimum_and_every_violator(monkeypatch, compiled):
    """Scanner: after a full pass under w_ref, the blocks a nearby w can violate in hold every round
    below the threshold, and exact_min equals min_t y_t⟨w, x_t⟩ computed directly (same floats)."""
    from olc_core._kernels import margin_scan
    if compiled and not kernel_engine.available():
        pytest.skip("numba not installed")
    monkeypatch.setattr(margin_scan, "COMPILED_MIN", 0 if compiled else 10**12)
    rng = np.random.default_rng(5)
    s = olc_core.streams.separable(T=50_000, d=3, gamma=0.05, radius=1.0, seed=7)
    sc = margin_scan.Scanner(s.X, s.y, threads=1)
    ref = s.comparator / np.linalg.norm(s.comparator)
    sc.full(ref)
    checked = 0
    for _ in range(20):
        w = ref + rng.normal(scale=10.0 ** rng.uniform(-8, -4), size=3)
        w /= np.linalg.norm(w)
        g = s.y * rowdot(s.X, w)
        thr = float(np.quantile(g, 0.001))
        blocks = sc.risky(w, thr)
        if blocks is None:
            continue
        _, _, viol = sc.exact(w, thr, blocks, 10**6)
        assert set(viol.tolist()) == set(np.flatnonzero(g < thr).tolist())
        m, j = sc.exact_min(w, np.inf, -1, np.zeros(0, np.int64))
        assert m == g.min() and g[j] == m
        checked += 1
    assert checked >= 10
