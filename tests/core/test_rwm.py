"""Randomised Weighted Majority: hand-worked rounds, seeds, the expected-mistake bound (hypothesis),
the many-seed helper, and realised mistakes against Σ F_t."""
from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import olc_core
from olc_core.learners.randomized_weighted_majority import realised_mistakes
from olc_core.streams.experts import adversary, experts
from tests.core.cases_experts import naive_rwm

X3 = np.array([[1, -1], [1, -1], [-1, 1]])
Y3 = np.array([1, -1, -1])


def test_hand_worked():
    # round 0: w = (1,1), expert 1 wrong: F = ½; w → (1, ½)
    # round 1: y = -1, expert 0 (w = 1) wrong: F = 1/1.5 = ⅔; w → (½, ½)
    # round 2: expert 1 (w = ½) wrong: F = ½; w → (½, ¼). Φ: 2, 1.5, 1, .75
    tr = olc_core.run("randomized_weighted_majority", X3, Y3, eta=0.5, seed=3)
    np.testing.assert_allclose(tr.columns["F"], [0.5, 2 / 3, 0.5], rtol=1e-15)
    p = tr.proof
    np.testing.assert_allclose(np.exp(p.series["log_phi"]), [2, 1.5, 1, 0.75], rtol=1e-15)
    # Φ_{t+1} = Φ_t(1 − ηF_t): 2·(1 − ¼) = 1.5, 1.5·(1 − ⅓) = 1, 1·(1 − ¼) = .75
    np.testing.assert_allclose(np.exp(p.series["log_phi_pred"][:3]), [1.5, 1, 0.75], rtol=1e-15)
    np.testing.assert_allclose(p.series["expected_M"], [0, 0.5, 7 / 6, 5 / 3], rtol=1e-15)
    np.testing.assert_allclose(np.exp(p.series["upper"]), 2 * np.exp(-0.5 * np.array([0, 0.5, 7 / 6, 5 / 3])))
    # m = (1, 2): i* = 0 with m* = 1; bound (ln 2 + ln 2)/½ = 4 ln 2
    assert p.constants["m_star"] == 1 and p.constants["best_expert"] == 0
    assert p.mistake_bound == pytest.approx(4 * math.log(2), rel=1e-15)
    assert p.bounded == "expected_M"
    assert tr.proofs["eta_form"].mistake_bound == pytest.approx(1.5 * 1 + math.log(2) / 0.5)
    assert p.violations() == [] and tr.proofs["eta_form"].violations() == []
    # seed 3 draws U = (0.0856, 0.2368, 0.8013): expert 0 (U·2 < 1), expert 0 (U·1.5 < 1), expert 1 (U·1 ≥ ½)
    np.testing.assert_allclose(np.random.default_rng(3).random(3), [0.0856, 0.2368, 0.8013], atol=1e-4)
    assert tr.columns["chosen_expert"].tolist() == [0, 0, 1]
    assert tr.predictions.tolist() == [1, 1, 1] and tr.mistakes.tolist() == [1, 2]
    np.testing.assert_allclose(tr.weights_at(3), [0.5, 0.25])


def test_seeds_same_seed_same_run_and_weights_do_not_depend_on_seed():
    s = experts(T=300, N=20, error_rates=np.linspace(0.1, 0.6, 20), seed=4)
    a = olc_core.run("randomized_weighted_majority", s.X, s.y, seed=11)
    b = olc_core.run("randomized_weighted_majority", s.X, s.y, seed=11)
    c = olc_core.run("randomized_weighted_majority", s.X, s.y, seed=12)
    np.testing.assert_array_equal(a.predictions, b.predictions)
    np.testing.assert_array_equal(a.columns["chosen_expert"], b.columns["chosen_expert"])
    assert not np.array_equal(a.columns["chosen_expert"], c.columns["chosen_expert"])
    np.testing.assert_array_equal(a.columns["F"], c.columns["F"])
    np.testing.assert_array_equal(a.log_weights_at(300), c.log_weights_at(300))
    assert a.proof.mistake_bound == c.proof.mistake_bound


def test_parameters():
    assert olc_core.run("randomized_weighted_majority", X3, Y3).info["eta"] == 0.5
    assert olc_core.run("randomized_weighted_majority", X3, Y3, beta=0.75).info["eta"] == 0.25
    assert olc_core.run("randomized_weighted_majority", X3, Y3, beta=0.75, eta=0.25).info["eta"] == 0.25
    with pytest.raises(ValueError, match="disagree"):
        olc_core.run("randomized_weighted_majority", X3, Y3, beta=0.5, eta=0.25)
    with pytest.raises(ValueError, match="seed"):
        olc_core.run("randomized_weighted_majority", X3, Y3, seed=-1)


def test_helper_matches_single_runs_and_band():
    s = experts(T=200, N=12, error_rates=np.linspace(0.05, 0.5, 12), seed=8)
    seeds = [0, 5, 9, 123]
    r = realised_mistakes(s.X, s.y, seeds=seeds, eta=0.3, chunk=64)   # chunked draws = the single-run draws
    for k, sd in enumerate(seeds):
        assert r.totals[k] == olc_core.run("randomized_weighted_majority", s.X, s.y, eta=0.3, seed=sd).n_mistakes
    tr = olc_core.run("randomized_weighted_majority", s.X, s.y, eta=0.3)
    assert r.expected[-1] == pytest.approx(tr.proof.series["expected_M"][-1], rel=1e-12)
    assert r.bound == pytest.approx(tr.proof.mistake_bound)
    assert r.rounds[0] == 0 and r.rounds[-1] == 200
    assert np.all(np.diff(r.band, axis=1) >= 0) and np.all(r.band[0] <= r.band[-1])
    assert r.band[:, -1].min() >= r.totals.min() and r.band[:, -1].max() <= r.totals.max()


def test_realised_mistakes_average_to_the_expected_count():
    # on a fixed stream the draws are independent: M = Σ_t Bernoulli(F_t), E[M] = Σ F_t,
    # Var[M] = Σ F_t(1 − F_t). The mean over S seeds is within 5 standard errors (p ≈ 6e-7; seeds fixed).
    s = experts(T=400, N=10, error_rates=np.linspace(0.15, 0.6, 10), seed=2)
    S = 400
    r = realised_mistakes(s.X, s.y, seeds=S, eta=0.4)
    F = olc_core.run("randomized_weighted_majority", s.X, s.y, eta=0.4).columns["F"]
    se = math.sqrt(float(np.sum(F * (1 - F))) / S)
    assert abs(r.totals.mean() - F.sum()) < 5 * se
    assert r.totals.var() == pytest.approx(float(np.sum(F * (1 - F))), rel=0.25)
    assert r.totals.mean() <= r.bound


def test_adversary_against_the_weighted_majority_gives_F_at_least_half():
    s = adversary(T=200, N=16, beta=0.6, update="every_round", seed=1)
    tr = olc_core.run("randomized_weighted_majority", s.X, s.y, eta=0.4)
    assert np.all(tr.columns["F"] >= 0.5 - 1e-12)      # the label is against the weighted majority
    assert tr.proof.violations() == [] and tr.proof.series["expected_M"][-1] <= tr.proof.mistake_bound


def test_eta_one():
    # η = 1: a wrong expert loses all its weight. With a perfect expert the bound is ln N.
    s = experts(T=50, N=8, error_rates=[0.0, 0.5, 0.5, 0.4, 0.3, 0.6, 0.2, 0.5], seed=6)
    tr = olc_core.run("randomized_weighted_majority", s.X, s.y, eta=1.0)
    assert tr.proof.mistake_bound == pytest.approx(math.log(8))
    assert tr.proof.violations() == []
    # without one, all weight vanishes: the learner predicts +1, F_t = 1[y_t = −1], no bound
    s2 = experts(T=50, N=4, error_rates=[0.1, 0.5, 0.5, 0.4], seed=6)
    tr2 = olc_core.run("randomized_weighted_majority", s2.X, s2.y, eta=1.0)
    p = tr2.proof
    assert p.mistake_bound is None and p.failed_assumptions[0].rounds.size == 1
    dead = int(p.failed_assumptions[0].rounds[0]) + 1
    assert np.all(tr2.predictions[dead:] == 1)
    np.testing.assert_array_equal(tr2.columns["F"][dead:], (s2.y[dead:] < 0).astype(float))
    assert p.violations() == []


@st.composite
def streams(draw):
    T = draw(st.integers(1, 80))
    N = draw(st.integers(1, 10))
    seed = draw(st.integers(0, 10_000))
    rng = np.random.default_rng(seed)
    if draw(st.booleans()):
        s = experts(T=T, N=N, error_rates=rng.uniform(0, 0.7, N), seed=seed)
        return s.X, s.y
    return np.where(rng.random((T, N)) < 0.5, 1, -1), np.where(rng.random(T) < 0.5, 1, -1)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_property_sandwich_equality_and_expected_bound(data):
    X, y = data.draw(streams())
    eta = data.draw(st.sampled_from([0.01, 0.1, 0.3, 0.5, 0.8, 0.99]))
    seed = data.draw(st.integers(0, 2**31))
    tr = olc_core.run("randomized_weighted_majority", X, y, eta=eta, seed=seed)
    p = tr.proof
    assert p.violations() == []
    m = (np.asarray(X) != np.asarray(y)[:, None]).sum(axis=0)
    F = tr.columns["F"]
    bound = (math.log(X.shape[1]) + m.min() * math.log(1 / (1 - eta))) / eta
    assert p.mistake_bound == pytest.approx(bound, rel=1e-12)
    assert F.sum() <= bound * (1 + 1e-12)
    if eta <= 0.5:
        e = tr.proofs["eta_form"]
        assert e.violations() == [] and F.sum() <= (1 + eta) * m.min() + math.log(X.shape[1]) / eta
    ref = naive_rwm(np.asarray(X, float), np.asarray(y, float), {"eta": eta, "seed": seed})
    assert tr.mistakes.tolist() == ref.mistakes
    np.testing.assert_allclose(tr.log_weights_at(tr.T), ref.weights[-1], rtol=1e-9, atol=1e-9)


def test_long_run_no_underflow():
    s = experts(T=20_000, N=2_000, error_rates=np.random.default_rng(1).uniform(0.2, 0.5, 2000), seed=1,
                exact=False, groups=5)
    with np.errstate(all="raise"):
        tr = olc_core.run("randomized_weighted_majority", s.X, s.y, eta=0.3, seed=0)
        p = tr.proof
        assert p.violations() == []
    assert np.isfinite(p.series["log_phi"]).all() and p.series["log_phi"][-1] < -1000
    assert np.isfinite(tr.log_weights_at(tr.T)).all()
    assert p.series["expected_M"][-1] <= p.mistake_bound


@pytest.mark.parametrize("alg,eta", [("randomized_weighted_majority", 1.0), ("randomized_weighted_majority", 0.7),
                                     ("weighted_majority", 0.8)])
def test_eta_form_running_bound_is_na_when_eta_above_half(alg, eta):
    """For η > ½ the η form is no bound (ln(1/(1−η)) ≤ η + η² fails): its running bound is n/a at every
    round, never a ✗, while the exact form still reports its own verdicts (review issue 11 §8)."""
    s = experts(T=80, N=6, error_rates=np.linspace(0.2, 0.5, 6), seed=3)
    kw = {"eta": eta} if alg.startswith("randomized") else {"beta": 1.0 - eta}
    tr = olc_core.run(alg, s.X, s.y, **kw)
    ef = tr.proofs["eta_form"]
    assert not ef.applies and ef.mistake_bound is None
    assert np.isnan(np.asarray(ef.series["running_eta_bound"], dtype=float)).all()
    assert not [v for v in ef.violations() if v.chain == "running bound"]
    small = olc_core.run(alg, s.X, s.y, **({"eta": 0.3} if alg.startswith("randomized") else {"beta": 0.7}))
    assert np.isfinite(np.asarray(small.proofs["eta_form"].series["running_eta_bound"], dtype=float)).all()


def test_band_quantiles_are_mistake_counts_some_run_made():
    # a mistake count is a whole number: the band's quantiles are discrete (inverted CDF), never 38.05
    s = experts(T=300, N=10, error_rates=np.linspace(0.1, 0.5, 10), seed=3)
    r = realised_mistakes(s.X, s.y, seeds=100, eta=0.3)
    assert np.array_equal(r.band, np.round(r.band))
    lo, hi = r.band[0, -1], r.band[-1, -1]
    assert lo in r.totals and hi in r.totals
    # the inverted-CDF quantile: the smallest count that ≥ q of the runs do not exceed
    for q, v in zip(r.quantiles, r.band[:, -1]):
        assert (r.totals <= v).mean() >= q and (r.totals < v).mean() < q
    assert ((r.totals >= lo) & (r.totals <= hi)).mean() >= 0.9
