"""Extreme scales of the data: the Perceptron family's runs, bounds and proofs are the same at every
scale they accept, and the scales they refuse are refused with a message that says why.

Scaling X by a power of two is exact in floating point (while nothing under- or overflows), so the
Perceptron's run on 2^k·X makes the same mistakes with scores 4^k times and weights 2^k times those
on X, bit for bit; its bound R²/γ² is scale-free. Other factors (10^k) round every entry, so only
a score within rounding of 0 could change sign.
"""
from __future__ import annotations

import math

import numpy as np
import pytest

import olc_core
from olc_core._kernels import engine as kernel_engine
from olc_core.learners.perceptron import SCALE_MAX, SCALE_MIN, perceptron_numba, perceptron_numpy
from olc_core.proofs.perceptron import best_gamma, sq_ratio, td_bound, td_bound_quadratic

ENGINES = ["numpy", "numba"] if kernel_engine.available() else ["numpy"]

# R = 5, every margin is 3 under w* = e1: the bound is R²/γ² = 25/9 (two mistakes)
X34 = np.array([[3.0, 4.0], [3.0, -4.0]])
Y34 = np.array([1.0, 1.0])


def _verdicts(proof):
    return ([(v.chain, v.link) if hasattr(v, "chain") else str(v) for v in proof.violations()],
            [(a.name, a.holds) for a in proof.assumptions])


def _out_of_range(exc: pytest.ExceptionInfo, small: bool) -> None:
    msg = str(exc.value)
    assert msg.startswith("perceptron: the data's scale is out of range: the longest example has length ‖x‖ = ")
    assert f"between {SCALE_MIN:g} and {SCALE_MAX:g}" in msg
    assert ("round to 0" if small else "are infinite") in msg
    assert "Multiply X by a positive number" in msg and "nan" not in msg and "inf " not in msg


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("k", [-330, -300, -100, -1, 1, 100, 300, 328])
def test_perceptron_bound_is_25_9_at_every_power_of_two_in_range(engine, k):
    """The review's case: at 1e-162 the bound came out 2.5, not 25/9 (γ² underflowed)."""
    base = olc_core.run("perceptron", X34, Y34, comparator=[1.0, 0.0], engine=engine)
    c = 2.0 ** k
    tr = olc_core.run("perceptron", X34 * c, Y34, comparator=[1.0, 0.0], engine=engine)
    assert tr.mistakes.tolist() == base.mistakes.tolist() == [0, 1]
    assert tr.proof.mistake_bound == pytest.approx(25 / 9, rel=1e-12)
    assert tr.proof.constants["gamma"] == 3.0 * c and tr.proof.constants["radius"] == 5.0 * c
    np.testing.assert_array_equal(tr.columns["score"], base.columns["score"] * c * c)   # exact: 4^k
    np.testing.assert_array_equal(tr.weights_at(2), base.weights_at(2) * c)
    for name in ("separable", "nonseparable", "hinge"):
        assert _verdicts(tr.proofs[name]) == _verdicts(base.proofs[name])
        assert tr.proofs[name].mistake_bound == pytest.approx(base.proofs[name].mistake_bound, rel=1e-12)


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("scale", [1e-300, 1e-170, 1e-162, 2.0 ** -1000, 1e155, 1e170, 1e300, 2.0 ** 1000])
def test_perceptron_refuses_data_out_of_range_with_a_message(engine, scale):
    """Was: ZeroDivisionError at 1e-170, a NaN bound at 1e170, infinite scores near 1e155."""
    with pytest.raises(ValueError) as exc:
        olc_core.run("perceptron", X34 * scale, Y34, comparator=[1.0, 0.0], engine=engine)
    _out_of_range(exc, scale < 1)
    with pytest.raises(ValueError) as exc:   # the max-margin search is not run on such data either
        olc_core.run("perceptron", X34 * scale, Y34, engine=engine)
    _out_of_range(exc, scale < 1)


def test_the_message_shows_enough_digits_to_be_outside_the_range():
    with pytest.raises(ValueError, match=r"‖x‖ = 9\.99999999999\d*e-101, but"):
        olc_core.run("perceptron", np.array([[SCALE_MIN * (1 - 2 ** -40)]]), np.ones(1))
    olc_core.run("perceptron", np.array([[SCALE_MIN]]), np.ones(1))   # the limits are in range
    olc_core.run("perceptron", np.array([[SCALE_MAX]]), np.ones(1))


def test_all_zero_data_is_not_a_scale_problem():
    tr = olc_core.run("perceptron", np.zeros((3, 2)), np.ones(3), comparator=[1.0, 0.0])
    assert [a.name for a in tr.proof.failed_assumptions] == ["margin", "radius"]


@pytest.mark.skipif(not kernel_engine.available(), reason="numba not installed")
@pytest.mark.parametrize("k", [-332, 332])
def test_compiled_twin_is_bit_identical_at_the_edges_of_the_range(k):
    s = olc_core.streams.separable(T=400, d=3, gamma=0.05, radius=1.0, seed=2, noise=0.1)
    X = s.X * 2.0 ** k
    a = perceptron_numba(X, s.y, s.comparator)
    b = perceptron_numpy(X, s.y, s.comparator)
    for u, v in zip(a, b):
        np.testing.assert_array_equal(u, v)
    base = perceptron_numpy(s.X, s.y, s.comparator)
    np.testing.assert_array_equal(b[2], base[2])                  # the same mistakes
    np.testing.assert_array_equal(b[0], base[0] * 4.0 ** k)       # scores scaled exactly


@pytest.mark.parametrize("k", [-330, -200, 200, 330])
def test_td_and_hinge_proofs_are_scale_free(k):
    s = olc_core.streams.noisy(T=300, d=2, gamma=0.1, noise=0.1, seed=5)
    c = 2.0 ** k
    base = olc_core.run("perceptron", s.X, s.y, comparator=s.comparator)
    tr = olc_core.run("perceptron", s.X * c, s.y, comparator=s.comparator)
    assert tr.mistakes.tolist() == base.mistakes.tolist()
    for name in ("nonseparable", "hinge"):
        p, q = tr.proofs[name], base.proofs[name]
        assert p.constants["gamma"] == q.constants["gamma"] * c      # best γ found at every scale
        assert p.mistake_bound == pytest.approx(q.mistake_bound, rel=1e-12)
        assert _verdicts(p) == _verdicts(q) and p.violations() == []
    ns, nb = tr.proofs["nonseparable"].constants, base.proofs["nonseparable"].constants
    assert ns["bound_quadratic"] == pytest.approx(nb["bound_quadratic"], rel=1e-12)
    assert ns["best_bound"] == pytest.approx(nb["best_bound"], rel=1e-12)


@pytest.mark.parametrize("R,g", [(5.0, 3.0), (1e-160, 1e-161), (1e160, 3e159), (2.0 ** -1070, 2.0 ** -1072)])
def test_bound_helpers_take_ratios_before_powers(R, g):
    assert sq_ratio(R, g) == pytest.approx((R / g) ** 2, rel=1e-15)
    assert td_bound(g, 0.5 * g, R) == pytest.approx((R / g) ** 2 + 1.0, rel=1e-15)
    r = R / g
    assert td_bound_quadratic(g, 0.5 * g, R) == pytest.approx(((r + math.sqrt(r * r + 2.0)) / 2) ** 2, rel=1e-14)
    m = np.array([0.5, 0.2, -0.1]) * R
    gb, bb = best_gamma(m, R)
    g1, b1 = best_gamma(m / R, 1.0)
    assert gb == pytest.approx(g1 * R, rel=1e-14) and bb == pytest.approx(b1, rel=1e-14)


def test_a_bound_beyond_the_float_range_is_not_claimed():
    """γ tiny next to R (γ/R = 1e-160): R²/γ² is 1e320, not a float. Was: a bound of inf."""
    X = np.array([[1.0, 1e-160], [-1.0, 1e-160]])
    y = np.array([1.0, 1.0])
    tr = olc_core.run("perceptron", X, y, comparator=[0.0, 1.0], gamma=1e-160)
    for name in ("separable", "nonseparable", "hinge"):
        p = tr.proofs[name]
        assert p.mistake_bound is None, name
        [fa] = p.failed_assumptions
        assert fa.name == "float range"
        assert fa.detail.startswith("γ = 1e-160 is too small next to R = 1: ")
        assert "would exceed the largest float (1.8e+308), so no bound is stated" in fa.detail
        assert p.violations() == []


# ---------------------------------------------------------------- margin perceptron: scale-free by design
def _mp_stream():
    s = olc_core.streams.separable(T=30, d=3, gamma=0.2, radius=2.0, seed=4)
    return s.X, s.y, {"gamma": 0.1, "comparator": s.comparator, "passes": None}


@pytest.mark.parametrize("scale", [2.0 ** -1074 * 2 ** 60, 1e-300, 1e-170, 1e-162, 2.0 ** -500, 2.0 ** 500,
                                   1e155, 1e170, 1e300, 2.0 ** 1000])
def test_margin_perceptron_normalises_at_any_scale(scale):
    """Was: 'round 0 has x = 0' below 1e-162 (‖x‖² underflowed) and every example a margin failure above
    1e155 (‖x‖² overflowed, x/∞ = 0)."""
    X, y, params = _mp_stream()
    base = olc_core.run("margin_perceptron", X, y, **params)
    tr = olc_core.run("margin_perceptron", X * scale, y, **params)
    exact = math.frexp(scale)[0] == 0.5          # a power of two: the normalised examples are bit-identical
    if exact:
        np.testing.assert_array_equal(tr.info["examples"], base.info["examples"])
    else:
        np.testing.assert_allclose(tr.info["examples"], base.info["examples"], rtol=1e-15, atol=0)
    assert tr.mistakes.tolist() == base.mistakes.tolist()
    assert tr.proof.mistake_bound == base.proof.mistake_bound == pytest.approx(1200.0, rel=1e-15)
    assert _verdicts(tr.proof) == _verdicts(base.proof) and tr.proof.violations() == []


def test_margin_perceptron_clicked_points_at_tiny_scale():
    """The review's `pts=1e-300,…`: clicked points at a tiny scale run like the same points at scale 1."""
    pts = np.array([[1.0, 2.0], [2.0, 0.5], [-1.0, -1.5], [-2.0, 0.2]])
    y = np.array([1.0, 1.0, -1.0, -1.0])
    a = olc_core.run("margin_perceptron", pts * 1e-300, y, gamma=0.2, passes=None)
    b = olc_core.run("margin_perceptron", pts, y, gamma=0.2, passes=None)
    assert a.mistakes.tolist() == b.mistakes.tolist() and a.proof.violations() == []
    assert a.proof.mistake_bound == b.proof.mistake_bound == pytest.approx(300.0)


def test_margin_perceptron_zero_example_is_named_counting_from_1():
    with pytest.raises(ValueError) as exc:
        olc_core.run("margin_perceptron", np.array([[1.0, 0.0], [0.0, 0.0]]), np.ones(2), gamma=0.5)
    assert str(exc.value) == ("margin_perceptron: examples are normalised to length 1, but example 2 (counting "
                              "from 1) is the zero vector, which has no direction; remove it or move it off the origin")


@pytest.mark.parametrize("passes", [1, None])
def test_margin_perceptron_gamma_too_small_for_a_float_bound(passes):
    """γ = 1e-200: 12/γ² is 1.2e401. Was: ZeroDivisionError (γ² underflowed to 0)."""
    X = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
    tr = olc_core.run("margin_perceptron", X, np.ones(3), gamma=1e-200, comparator=[1.0, 1.0], passes=passes)
    p = tr.proof
    assert p.mistake_bound is None and p.constants["bound_tight"] is None and p.violations() == []
    [fa] = p.failed_assumptions
    assert fa.name == "float range" and fa.detail == (
        "γ = 1e-200 is too small: 12/γ² would exceed the largest float (1.8e+308), so no bound is stated "
        "(it needs γ above about 2.6e-154)")
    assert tr.info["converged"] == (passes is None)


# ---------------------------------------------------------------- normalised Winnow: needs ‖x‖∞ ≤ 1
def _nw_stream(scale):
    from tests.core.cases_winnow import simplex_continuous
    s = simplex_continuous(T=150, N=10, k=2, delta=0.15, seed=0)
    return s.X * scale, s.y, {"comparator": s.comparator}


@pytest.mark.parametrize("scale", [1e-170, 1e-300, 2.0 ** -1000])
def test_normalized_winnow_margin_too_small_for_a_float_bound(scale):
    """δ = 0.15·scale: C ≈ δ²/2 underflows. Was: ZeroDivisionError (2 ln N/δ² with δ² = 0)."""
    X, y, params = _nw_stream(scale)
    tr = olc_core.run("normalized_winnow", X, y, **params)
    p = tr.proof
    assert p.mistake_bound is None and p.violations() == []
    assert p.constants["bound_2lnN_over_delta2"] is None
    [fa] = p.failed_assumptions
    assert fa.name == "float range"
    assert fa.detail.startswith(f"δ = {p.constants['delta']:.3g} and η = {p.constants['eta']:.3g} are so small "
                                "that C = ηδ − ln cosh η ≈ 10^-")
    assert "below the smallest float (2.23e-308) and the bound ln N/C above the largest" in fa.detail
    assert "scale X up towards ‖x_t‖∞ = 1" in fa.detail


@pytest.mark.parametrize("scale", [1e-100, 1e-20, 0.5])
def test_normalized_winnow_smaller_data_give_the_larger_true_bound(scale):
    """Not scale-free by design (the update is e^{η y x}): shrinking X shrinks δ and the bound ≈ 2 ln N/δ²
    grows, but it is computed (here up to 4e203), and the proof holds."""
    X, y, params = _nw_stream(scale)
    p = olc_core.run("normalized_winnow", X, y, **params).proof
    d = p.constants["delta"]
    assert p.failed_assumptions == [] and p.violations() == []
    pinsker = 2 * math.log(10) / d / d            # ln N/C ≤ 2 ln N/δ², nearly equal for small δ
    assert p.mistake_bound <= pinsker * (1 + 1e-12) and p.mistake_bound == pytest.approx(pinsker, rel=2e-3)


@pytest.mark.parametrize("scale", [1.5, 1e155, 1e300, 2.0 ** 1000])
def test_normalized_winnow_refuses_scaled_up_data_naming_the_assumption(scale):
    X, y, params = _nw_stream(scale)
    with pytest.raises(ValueError, match=r"every entry of X must be in \[-1, 1\] \(‖x_t‖∞ ≤ 1\); found "):
        olc_core.run("normalized_winnow", X, y, **params)


def test_eta_max_is_resolved_for_tiny_margins():
    """C > 0 needs η < η_max(δ) ≈ 2δ for small δ; the message said 'η < 3e-171' for δ = 3e-171."""
    from olc_core.proofs.normalized_winnow import C_positive, eta_max
    for d in (3e-171, 1e-40, 1e-5):
        e = eta_max(d)
        assert e == pytest.approx(2 * d, rel=1e-4)
        assert C_positive(e * (1 - 1e-9), d) and not C_positive(e * (1 + 1e-9), d)


# ---------------------------------------------------------------- FTRL: needs ‖x‖ ≤ 1, not scale-free
def _ftrl_stream(scale):
    from tests.core.cases_ftrl import _unit_ball_stream
    X, y = _unit_ball_stream(0, T=60, d=3)
    return X * scale, y


@pytest.mark.parametrize("k", [-1000, -700, -560, -200, -1])
def test_ftrl_constants_at_tiny_scales(k):
    """p_t = ⟨w, x⟩ shrinks with X, so the run is not that on X (it is not meant to be scale-free), but
    the proof holds and its constants are right: L = max‖x‖/2 was 0 once ‖x‖² underflowed (best α = inf)."""
    c = 2.0 ** k
    X, y = _ftrl_stream(1.0)
    base = olc_core.run("ftrl_randomized", X, y).proof.constants
    p = olc_core.run("ftrl_randomized", X * c, y).proof
    assert p.violations() == [] and p.failed_assumptions == []
    assert p.constants["L"] == base["L"] * c and p.constants["radius"] == base["radius"] * c
    assert p.constants["best_alpha"] == pytest.approx(base["best_alpha"] / c, rel=1e-12)
    assert math.isfinite(p.mistake_bound) and p.constants["expected_mistakes"] <= p.mistake_bound


@pytest.mark.parametrize("scale", [2.0, 1e155, 1e300, 2.0 ** 1000])
def test_ftrl_refuses_scaled_up_data_with_the_true_norm(scale):
    """Was: 'round 0 has ‖x_t‖ = inf' from 1e155 on (‖x‖² overflowed)."""
    X, y = _ftrl_stream(scale)
    t = int(np.argmax(np.linalg.norm(X / scale, axis=1) * scale > 1.0 + 1e-9))
    true = float(np.linalg.norm(X[t] / scale)) * scale
    with pytest.raises(ValueError) as exc:
        olc_core.run("ftrl_randomized", X, y)
    msg = str(exc.value)
    assert msg.startswith("ftrl_randomized: every ‖x_t‖ must be at most 1, else (1 + ⟨w, x_t⟩)/2 is not a probability")
    assert f"round {t + 1} has ‖x_t‖ = {true:.6g} (" in msg and "inf" not in msg
