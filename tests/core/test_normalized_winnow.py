"""Normalised Winnow / exponentiated update [003] §2.2: hand-worked runs, the KL sandwich on random
streams (hypothesis), broken assumptions (margin, label noise, η too large), log-space stability and
10⁶-round runs."""
from __future__ import annotations

import math
import time
import warnings

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import olc_core
from olc_core.proofs import normalized_winnow as nwp
from olc_core.streams.winnow_extra import simplex_continuous

ALGORITHMIC = {"0 ≤ kl", "log_Z ≤ log_cosh_eta"}


# ---------------------------------------------------------------- hand-worked examples
def test_hand_worked_one_tight_mistake():
    # N = 2, u = (0.8, 0.2): margins y⟨u,x⟩ = 0.6, 1, 0.7, 0.6 → δ = 0.6, η = artanh 0.6 = ½ln 4 = ln 2,
    # cosh η = (2 + ½)/2 = 5/4, C = 0.6 ln 2 − ln 1.25 = 0.19274…
    # round 0: x = (1,−1), y = +1: w·x = ½ − ½ = 0 → mistake; Z = ½·2 + ½·½ = 5/4 = cosh η (tight),
    #          w = (1, ¼)/(5/4) = (0.8, 0.2) = u. Φ: KL(u‖½,½) = 0.8 ln 1.6 + 0.2 ln 0.4 = 0.19274 = C → 0.
    # rounds 1–3: w·x = 1, −0.8 + 0.1 = −0.7, −0.6: correct.
    # Sandwich after the mistake: 0 ≤ Φ = 0 ≤ Φ₁ − C = 0 ≤ ln 2 − C = 0.50040; bound ln 2 / C = 3.5962.
    X = np.array([[1.0, -1.0], [1.0, 1.0], [-1.0, 0.5], [-1.0, 1.0]])
    y = np.array([1, 1, -1, -1])
    tr = olc_core.run("normalized_winnow", X, y, comparator=[0.8, 0.2])
    assert tr.mistakes.tolist() == [0]
    assert tr.predictions.tolist() == [0, 1, -1, -1]
    np.testing.assert_allclose(tr.weights_at(1), [0.8, 0.2], rtol=1e-14)
    np.testing.assert_allclose(tr.columns["score"], [0.0, 1.0, -0.7, -0.6], atol=1e-14)
    p = tr.proof
    C = 0.6 * math.log(2.0) - math.log(1.25)
    assert p.constants["eta"] == pytest.approx(math.log(2.0), rel=1e-14)
    assert p.constants["C"] == pytest.approx(C, rel=1e-13)
    assert p.constants["C"] == pytest.approx(0.8 * math.log(1.6) + 0.2 * math.log(0.4), rel=1e-13)
    np.testing.assert_allclose(p.series["kl"], [C, 0.0], atol=1e-14)
    np.testing.assert_allclose(p.series["kl_upper"], [C, 0.0], atol=1e-14)
    np.testing.assert_allclose(p.series["lnN_upper"], [math.log(2.0), math.log(2.0) - C], atol=1e-14)
    assert p.series["log_Z"][1] == pytest.approx(math.log(1.25), rel=1e-14)
    assert p.series["log_cosh_eta"][0] == pytest.approx(math.log(1.25), rel=1e-14)
    assert p.series["kl_drop"][1] == pytest.approx(C, rel=1e-12)
    assert p.mistake_bound == pytest.approx(math.log(2.0) / C, rel=1e-13)
    assert p.constants["bound_2lnN_over_delta2"] == pytest.approx(2 * math.log(2.0) / 0.36, rel=1e-13)
    assert p.constants["half_delta_squared"] == pytest.approx(0.18)
    assert p.violations() == [] and p.failed_assumptions == []


def test_hand_worked_eta_too_large():
    # N = 2, u = (1, 0), η = ln 2 given. Margins: 1, then 0.2 → δ = 0.2; C = 0.2 ln 2 − ln 1.25 = −0.0845 < 0:
    # η exceeds η_max(0.2) = 0.41108…, so the theorem gives no bound; the sandwich links still hold.
    # round 0: x = (1, −1), y = +1: w·x = 0 → mistake, w = (0.8, 0.2), Z = 5/4
    # round 1: x = (−0.2, 1), y = −1: w·x = −0.16 + 0.2 = 0.04 > 0 → mistake;
    #          Z = 0.8·2^{0.2} + 0.2·½ = 1.0189587, w = (0.8·2^{0.2}, 0.1)/Z = (0.9018606, 0.0981394)
    # Φ = −ln w_0: ln 2 = 0.693147 → −ln 0.8 = 0.223144 → 0.103295; drops 0.470004, 0.119848 ≥ C.
    X = np.array([[1.0, -1.0], [-0.2, 1.0]])
    y = np.array([1, -1])
    tr = olc_core.run("normalized_winnow", X, y, comparator=[1.0, 0.0], eta=math.log(2.0))
    assert tr.mistakes.tolist() == [0, 1]
    Z = 0.8 * 2 ** 0.2 + 0.1
    np.testing.assert_allclose(tr.weights_at(2), [0.8 * 2 ** 0.2 / Z, 0.1 / Z], rtol=1e-13)
    p = tr.proof
    np.testing.assert_allclose(p.series["kl"], [math.log(2), -math.log(0.8), -math.log(0.8 * 2 ** 0.2 / Z)],
                               rtol=1e-13)
    np.testing.assert_allclose(p.series["log_Z"][1:], [math.log(1.25), math.log(Z)], rtol=1e-13)
    assert p.constants["delta"] == pytest.approx(0.2)
    assert p.constants["C"] == pytest.approx(0.2 * math.log(2) - math.log(1.25), rel=1e-12)
    assert p.constants["eta_max"] == pytest.approx(0.4110816171536858, rel=1e-9)
    assert p.mistake_bound is None
    assert [a.name for a in p.failed_assumptions] == ["learning rate"]
    assert "too large" in p.failed_assumptions[0].detail
    assert p.violations() == []


# ---------------------------------------------------------------- the constants
@given(delta=st.floats(1e-4, 1 - 1e-6))
def test_optimal_eta_gives_c_at_least_half_delta_squared(delta):
    eta = nwp.eta_optimal(delta)
    C = nwp.C_of(eta, delta)
    assert C >= delta * delta / 2 * (1 - 1e-12)
    # it is the maximiser: nearby η do no better
    for f in (0.9, 1.1):
        assert nwp.C_of(eta * f, delta) <= C + 1e-15
    # and equals KL(Bern((1+δ)/2) ‖ Bern(½))
    kl = 0.5 * ((1 + delta) * math.log1p(delta) + (1 - delta) * math.log1p(-delta))
    assert C == pytest.approx(kl, rel=1e-8, abs=1e-15)


@given(delta=st.floats(1e-3, 0.999), frac=st.floats(0.01, 0.99))
def test_eta_max_separates_positive_and_negative_c(delta, frac):
    em = nwp.eta_max(delta)
    assert nwp.C_of(em * frac, delta) > 0
    assert nwp.C_of(em * (1 + 1e-6) + 1e-12, delta) <= 0
    assert nwp.log_cosh(1000.0) == pytest.approx(1000.0 - math.log(2.0))


# ---------------------------------------------------------------- the theorem on good streams
@settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(N=st.integers(1, 30), k=st.sampled_from([1, 3, 5]), T=st.integers(1, 300), seed=st.integers(0, 10**6),
       pass_delta=st.booleans())
def test_sandwich_holds_on_pm1_majority_streams(N, k, T, seed, pass_delta):
    assume(k <= N)
    s = olc_core.streams.sparse_simplex(T=T, N=N, k=k, seed=seed)
    params = {"comparator": s.comparator}
    if pass_delta:
        params["delta"] = 1.0 / k
    tr = olc_core.run("normalized_winnow", s.X, s.y, **params)
    p = tr.proof
    assert p.failed_assumptions == []
    assert p.violations() == []
    assert tr.n_mistakes <= p.mistake_bound
    d = p.constants["delta"]
    assert tr.n_mistakes <= 2 * math.log(N) / (d * d) * (1 + 1e-12)
    assert np.all(p.series["kl"] >= -1e-12)


@settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(N=st.integers(1, 20), k=st.integers(1, 4), T=st.integers(1, 250), delta=st.floats(0.05, 0.6),
       eta_frac=st.one_of(st.none(), st.floats(0.05, 0.98)), seed=st.integers(0, 10**6))
def test_sandwich_holds_on_continuous_streams_for_any_admissible_eta(N, k, T, delta, eta_frac, seed):
    assume(k <= N)
    s = simplex_continuous(T=T, N=N, k=k, delta=delta, seed=seed)
    params = {"comparator": s.comparator, "delta": delta}
    if eta_frac is not None:
        params["eta"] = eta_frac * nwp.eta_max(delta)
    tr = olc_core.run("normalized_winnow", s.X, s.y, **params)
    p = tr.proof
    assert p.failed_assumptions == []
    assert p.violations() == []
    assert tr.n_mistakes <= p.mistake_bound


@settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(N=st.integers(2, 12), T=st.integers(20, 200), seed=st.integers(0, 10**6), factor=st.floats(1.05, 20.0))
def test_eta_too_large_fails_the_learning_rate_assumption(N, T, seed, factor):
    s = simplex_continuous(T=T, N=N, k=1, delta=0.2, seed=seed)
    eta = factor * nwp.eta_max(0.2)
    tr = olc_core.run("normalized_winnow", s.X, s.y, comparator=s.comparator, delta=0.2, eta=eta)
    p = tr.proof
    assert p.mistake_bound is None
    assert [a.name for a in p.failed_assumptions] == ["learning rate"]
    assert p.violations() == []  # every link is still true; only the conclusion is lost


# ---------------------------------------------------------------- broken assumptions
@settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(N=st.integers(2, 15), k=st.sampled_from([1, 3]), T=st.integers(5, 200), seed=st.integers(0, 10**6),
       extra=st.floats(0.01, 0.3))
def test_margin_below_delta_names_the_rounds(N, k, T, seed, extra):
    assume(k <= N)
    s = olc_core.streams.sparse_simplex(T=T, N=N, k=k, seed=seed)
    delta = min(1.0 / k + extra, 0.999)
    tr = olc_core.run("normalized_winnow", s.X, s.y, comparator=s.comparator, delta=delta)
    m = s.y * (s.X @ s.comparator)
    expected = np.flatnonzero(m < delta - 1e-6)
    assume(expected.size > 0)
    p = tr.proof
    assert p.mistake_bound is None
    margin = [a for a in p.failed_assumptions if a.name == "margin"]
    assert len(margin) == 1 and margin[0].rounds.tolist() == expected.tolist()
    # the normaliser link and Φ ≥ 0 never need the margin
    assert [v for v in p.violations() if v.name in ALGORITHMIC] == []
    # and every link that fails relies on the margin: not applicable, not a contradiction
    assert all(v.needs == ("margin",) for v in p.violations())


@settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(N=st.integers(2, 12), T=st.integers(5, 200), noise=st.floats(0.05, 0.4), seed=st.integers(0, 10**6))
def test_label_noise_names_the_flipped_rounds(N, T, noise, seed):
    s = simplex_continuous(T=T, N=N, k=2 if N >= 2 else 1, delta=0.1, seed=seed, noise=noise)
    flipped = np.flatnonzero(s.info["flipped"])
    assume(flipped.size > 0)
    tr = olc_core.run("normalized_winnow", s.X, s.y, comparator=s.comparator)
    p = tr.proof
    assert p.mistake_bound is None
    [a] = p.failed_assumptions
    assert a.name == "margin" and a.rounds.tolist() == flipped.tolist()
    assert [v for v in p.violations() if v.name in ALGORITHMIC] == []
    assert all(v.needs == ("margin",) for v in p.violations())


def test_no_positive_margin_over_the_simplex_is_certified():
    # x = (1, 1) labelled +1 and −1: every u in the simplex has margin −1 on one of them
    X = np.array([[1.0, 1.0], [1.0, 1.0], [1.0, -1.0]])
    y = np.array([1, -1, 1])
    tr = olc_core.run("normalized_winnow", X, y)
    p = tr.proof
    assert p.mistake_bound is None
    [a] = p.failed_assumptions
    assert a.name == "margin" and 1 in a.rounds.tolist()
    assert "no u in the simplex" in a.detail
    assert tr.info["eta_source"].startswith("fallback")
    assert np.isnan(p.series["kl_upper"]).all()


def test_found_comparators():
    # one feature always agrees with y: the best vertex e_r (margin exactly 1) beats the game's average
    s = olc_core.streams.sparse_simplex(T=300, N=9, k=1, seed=5)
    tr = olc_core.run("normalized_winnow", s.X, s.y)
    r = int(np.flatnonzero(s.comparator)[0])
    assert tr.info["comparator_source"].startswith("best single feature") and tr.info["vertex"] == r
    p = tr.proof
    assert p.constants["delta"] == 1.0 and p.failed_assumptions == [] and p.violations() == []
    # a majority of 3: the matrix game finds a u with a positive margin, certified from above
    s = olc_core.streams.sparse_simplex(T=400, N=7, k=3, seed=6)
    tr = olc_core.run("normalized_winnow", s.X, s.y)
    p = tr.proof
    assert tr.info["comparator_source"] == "simplex margin"
    assert 0 < p.constants["delta"] <= tr.info["simplex_margin_upper"] + 1e-12
    assert p.failed_assumptions == [] and p.violations() == [] and tr.n_mistakes <= p.mistake_bound


# ---------------------------------------------------------------- inputs and log-space decisions
def test_rejects_entries_outside_the_unit_box():
    X = np.array([[0.5, -0.5], [0.2, 1.5], [0.0, 1.0]])
    with pytest.raises(ValueError, match=r"\[-1, 1\].*found 1.5 at round 2, feature 2"):
        olc_core.run("normalized_winnow", X, np.array([1, 1, -1]))


@pytest.mark.parametrize("comp,match", [([0.5, -0.1, 0.6], "non-negative"), ([0.0, 0.0, 0.0], "positive sum"),
                                        ([1.0, 0.0], "length 3")])
def test_bad_comparator(comp, match):
    X = np.array([[1.0, 0.0, 0.0], [-1.0, 0.5, 0.0]])
    with pytest.raises(ValueError, match=match):
        olc_core.run("normalized_winnow", X, np.array([1, -1]), comparator=comp)


def test_comparator_is_rescaled_to_the_simplex():
    s = olc_core.streams.sparse_simplex(T=100, N=9, k=3, seed=4)
    a = olc_core.run("normalized_winnow", s.X, s.y, comparator=s.comparator)
    b = olc_core.run("normalized_winnow", s.X, s.y, comparator=3.0 * s.comparator)
    assert b.info["comparator_rescaled_from_sum"] == pytest.approx(3.0)
    np.testing.assert_array_equal(a.mistakes, b.mistakes)
    assert a.proof.mistake_bound == pytest.approx(b.proof.mistake_bound, rel=1e-12)


def test_sign_of_tiny_weights_is_computed_in_log_space():
    # η = 1000: after round 0, ln w = (0, −2000, −1999) + const. Round 1 has x = (0, 1, −0.5), so
    # w·x = e^{−2000}(1 − ½e) < 0: both parts are far below the smallest float relative to w_0, yet the
    # sign is −1 and y = −1, so round 1 is not a mistake (a plain shifted sum would see 0 − 0: a "mistake").
    X = np.array([[1.0, -1.0, -0.999], [0.0, 1.0, -0.5]])
    y = np.array([1, -1])
    tr = olc_core.run("normalized_winnow", X, y, comparator=[0.7, 0.0, 0.3], eta=1000.0)
    assert tr.mistakes.tolist() == [0]
    assert tr.predictions.tolist() == [-1, -1]
    lw = tr.log_weights_at(1)
    np.testing.assert_allclose(lw - lw[0], [0.0, -2000.0, -1999.0], atol=1e-9)


# ---------------------------------------------------------------- long runs
def _quiet_run(*args, **kw):
    """The run (learner and proof) with every floating-point exception raised, then the shared check."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with np.errstate(all="raise"):
            tr = olc_core.run("normalized_winnow", *args, **kw)
            tr.proof
        viol = tr.proof.violations()
    return tr, viol


def test_million_rounds_where_plain_floats_overflow_and_underflow():
    """η = 1000 on ±1 features with y = x_r (δ = 1, C = ln 2, bound log₂ N): e^{η} overflows a float and
    the losers' weights e^{−2000}/Z underflow; the log-space run stays finite and the proof checks."""
    with np.errstate(over="ignore", under="ignore"):  # what plain floats would do with these weights
        assert np.isinf(np.exp(np.float64(1000.0))) and np.exp(np.float64(-2000.0)) == 0.0
    s = olc_core.streams.sparse_simplex(T=1_000_000, N=16, k=1, seed=7)
    t0 = time.perf_counter()
    tr, viol = _quiet_run(s.X, s.y, comparator=s.comparator, eta=1000.0)
    elapsed = time.perf_counter() - t0
    p = tr.proof
    assert viol == [] and p.failed_assumptions == []
    assert p.constants["C"] == pytest.approx(math.log(2.0), rel=1e-15)
    assert p.mistake_bound == pytest.approx(4.0, rel=1e-12)
    assert 1 <= tr.n_mistakes <= 4
    lw = tr.log_weights_at(tr.T)
    assert np.isfinite(lw).all() and lw.min() < -1000.0
    w = tr.weights_at(tr.T)
    r = int(np.flatnonzero(s.comparator)[0])
    assert w[r] == pytest.approx(1.0) and (w == 0.0).sum() == 15  # the losers underflow as floats
    assert elapsed < 10.0, elapsed


def test_million_rounds_default_eta():
    s = olc_core.streams.sparse_simplex(T=1_000_000, N=15, k=3, seed=2)
    t0 = time.perf_counter()
    tr, viol = _quiet_run(s.X, s.y, comparator=s.comparator, delta=1 / 3)
    elapsed = time.perf_counter() - t0
    p = tr.proof
    assert viol == [] and p.failed_assumptions == []
    assert tr.n_mistakes <= p.mistake_bound <= p.constants["bound_2lnN_over_delta2"]
    assert elapsed < 10.0, elapsed
