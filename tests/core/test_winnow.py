"""Littlestone's Winnow [000] §4: hand-worked runs, exact ties, the proof's sandwich on random
streams (hypothesis), broken assumptions, extreme β and a 10⁶-round run."""
from __future__ import annotations

import math
import time
import warnings
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import olc_core
from olc_core.learners.winnow import exact_greater, parse_disjunction
from olc_core.proofs import winnow as wp
from olc_core.streams.winnow_extra import winnow_demotion_chain

ALGORITHMIC_CHAINS = ("potential Φ = Σ w", "floor of Φ", "mistakes on negatives", "total mistakes", "weight cap")


def naive_exponents(X, y, beta):
    """[000] Algorithm 4 with exact rational weights; also the integer exponents of 1+β."""
    T, N = X.shape
    base = 1 + Fraction(beta)
    w = [Fraction(1)] * N
    k = [0] * N
    mistakes, preds, snaps = [], [], []
    for t in range(T):
        s = sum((w[i] for i in range(N) if X[t, i]), Fraction(0))
        yhat = 1 if s > N else 0
        preds.append(yhat)
        if yhat != y[t]:
            mistakes.append(t)
            step = 1 if y[t] == 1 else -1
            for i in range(N):
                if X[t, i]:
                    w[i] = w[i] * base if step == 1 else w[i] / base
                    k[i] += step
            snaps.append(list(k))
    return mistakes, preds, snaps


# ---------------------------------------------------------------- hand-worked examples
def test_hand_worked_beta_one():
    # N = 4, β = 1, target x_0 (k = 1). Weights, Φ and the upper bound N + βN m⁺ − β/(1+β) N m⁻:
    # round 0: x=1011, w·x=3 ≤ 4 → ŷ=0, y=1 (FN): w=(2,1,2,2)   Φ=7    upper 4+4·1      = 8
    # round 1: x=0111, w·x=5 > 4 → ŷ=1, y=0 (FP): w=(2,½,1,1)   Φ=4.5  upper 8−½·4·1    = 6
    # round 2: x=1100, w·x=2.5   → ŷ=0, y=1 (FN): w=(4,1,1,1)   Φ=7    upper 4+8−2      = 10
    # round 3: x=1000, w·x=4 = N (tie, not > N) → ŷ=0 (FN): w=(8,1,1,1)  Φ=11  upper 4+12−2 = 14
    # relevant w_0 = 2³ = (1+β)N = 8 (equality); m⁺ = 3 = k(1 + log₂4) (equality);
    # m⁻ = 1 < 2 + 2·3 = 8; M = 4 < 2 + 3·1·(2+1) = 11; floor N/(1+β) = 2 < Φ.
    X = np.array([[1, 0, 1, 1], [0, 1, 1, 1], [1, 1, 0, 0], [1, 0, 0, 0]], dtype=float)
    y = np.array([1, 0, 1, 1])
    tr = olc_core.run("winnow", X, y, beta=1.0, comparator=[0])
    assert tr.mistakes.tolist() == [0, 1, 2, 3]
    assert tr.predictions.tolist() == [0, 1, 0, 0]
    assert tr.history.snapshots.tolist() == [[1, 0, 1, 1], [1, -1, 0, 0], [2, 0, 0, 0], [3, 0, 0, 0]]
    assert tr.weight_kind == "exponent" and tr.log_base == math.log(2.0)
    np.testing.assert_allclose(tr.weights_at(2), [2, 0.5, 1, 1], rtol=1e-15)
    assert tr.columns["exact_decision"].tolist() == [False, False, False, True]
    np.testing.assert_allclose(np.exp(tr.columns["log_score"]), [3, 5, 2.5, 4], rtol=1e-14)
    p = tr.proof
    np.testing.assert_allclose(np.exp(p.series["log_phi"]), [4, 7, 4.5, 7, 11], rtol=1e-14)
    np.testing.assert_allclose(np.exp(p.series["log_upper"]), [4, 8, 6, 10, 14], rtol=1e-14)
    assert p.series["m_plus"].tolist() == [0, 1, 1, 2, 3]
    assert p.series["m_minus"].tolist() == [0, 0, 1, 1, 1]
    assert p.series["rel_promotions"].tolist() == [0, 1, 1, 2, 3]
    assert p.series["rel_demotions"].tolist() == [0, 0, 0, 0, 0]
    assert p.series["k_cap"].tolist() == [3.0] * 5
    np.testing.assert_allclose(p.series["log_w_rel_max"], np.log([1, 2, 2, 4, 8]), rtol=1e-14)
    np.testing.assert_allclose(p.series["log_cap"], math.log(8.0), rtol=1e-15)
    assert p.series["m_minus_cap"].tolist() == [2, 4, 4, 6, 8]
    assert p.series["total_cap"].tolist() == [2, 5, 5, 8, 11]
    assert p.mistake_bound == 11.0 and p.constants["mistake_bound_sharp"] == 10.0
    assert p.constants["k"] == 1
    assert p.violations() == [] and p.failed_assumptions == []


def test_hand_worked_beta_half_with_ties():
    # N = 3, β = ½ (factor 3/2), target x_0. Every decision but the last is a tie w·x = N = 3.
    # round 0: x=111, w·x = 3 (tie) → ŷ=0, y=1: w=(3/2,3/2,3/2)  Φ=9/2  upper 3+3/2      = 9/2 (equality)
    # round 1: x=011, w·x = 3 (tie) → ŷ=0, y=0: correct, no change
    # round 2: x=110, w·x = 3 (tie) → ŷ=0, y=1: w=(9/4,9/4,3/2)   Φ=6    upper 3+3        = 6   (equality)
    # round 3: x=011, w·x = 15/4 > 3 → ŷ=1, y=0: w=(9/4,3/2,1)   Φ=19/4 upper 6−(1/3)·3 = 5
    # bound (1+β)/β + (2+β)k(1 + log_{3/2} 3) = 3 + 2.5·(1 + 2.7095…) = 12.2738…
    X = np.array([[1, 1, 1], [0, 1, 1], [1, 1, 0], [0, 1, 1]])
    y = np.array([1, 0, 1, 0])
    tr = olc_core.run("winnow", X, y, beta=0.5, comparator=[True, False, False])
    assert tr.mistakes.tolist() == [0, 2, 3]
    assert tr.predictions.tolist() == [0, 0, 0, 1]
    assert tr.columns["exact_decision"].tolist() == [True, True, True, False]
    assert tr.history.snapshots.tolist() == [[1, 1, 1], [2, 2, 1], [2, 1, 0]]
    np.testing.assert_allclose(tr.weights_at(4), [2.25, 1.5, 1.0], rtol=1e-15)
    p = tr.proof
    np.testing.assert_allclose(np.exp(p.series["log_phi"]), [3, 4.5, 6, 4.75], rtol=1e-14)
    np.testing.assert_allclose(np.exp(p.series["log_upper"]), [3, 4.5, 6, 5], rtol=1e-14)
    np.testing.assert_allclose(np.exp(p.series["log_floor"]), 2.0, rtol=1e-14)
    expected = 3.0 + 2.5 * (1.0 + math.log(3.0) / math.log(1.5))
    assert p.mistake_bound == pytest.approx(expected, rel=1e-15)
    assert p.violations() == []


def test_exact_tie_with_mixed_exponents():
    # β = 1, N = 8. After these rounds w = (2, 1, 1, ½, ½, ½, 2, 1) (exponents 1,0,0,−1,−1,−1,1,0):
    # round 0: x={0,1}, y=1: sum 2 → promote → w0=w1=2
    # round 1: x={0,2}, y=1: sum 3 → promote → w0=4, w2=2
    # round 2: x={0..5}, y=0: sum 4+2+2+1+1+1 = 11 > 8 → demote
    # round 3: x={6}, y=1: sum 1 → promote → w6=2
    # round 4: x={0,1,2,3,4,6,7}: 2+1+1+½+½+2+1 = 8 = N exactly → ŷ = 0 (exact), a FN
    # round 5: x={0,1,2,3,4,5,6,7} after the promotion: 4+2+2+1+1+½+4+2 = 16.5 > 8 → ŷ = 1
    # round 6: x={1,5}: 2 + ½ → ŷ = 0
    rows = [{0, 1}, {0, 2}, {0, 1, 2, 3, 4, 5}, {6}, {0, 1, 2, 3, 4, 6, 7}, set(range(8)), {1, 5}]
    X = np.zeros((len(rows), 8))
    for t, r in enumerate(rows):
        X[t, sorted(r)] = 1
    y = np.array([1, 1, 0, 1, 1, 1, 0])
    tr = olc_core.run("winnow", X, y, beta=1.0)
    assert tr.history.snapshots[3].tolist() == [1, 0, 0, -1, -1, -1, 1, 0]
    assert tr.predictions.tolist() == [0, 0, 1, 0, 0, 1, 0]
    assert tr.mistakes.tolist() == [0, 1, 2, 3, 4]
    assert bool(tr.columns["exact_decision"][4])  # too close to N for floats: decided exactly
    np.testing.assert_allclose(np.exp(tr.columns["log_score"][4]), 8.0, rtol=1e-14)
    assert tr.proof.violations() == []


def test_exact_tie_that_floats_get_wrong():
    # β = ½, N = 7. round 0: x={1,2,3}, y=1: sum 3 → promote; round 1: x={2,3}, y=1: sum 3 → promote;
    # now w = (1, 3/2, 9/4, 9/4, 1, 1, 1) and round 2 has x={0,1,2,3}: 1 + 3/2 + 9/4 + 9/4 = 7 = N exactly,
    # so ŷ = 0 and the round is a false negative. Summed in floats (shifted exponentials
    # exp((k_i − 2)·ln 1.5)) this sum comes out a few ulps above the threshold; the exact check decides.
    X = np.zeros((3, 7))
    X[0, [1, 2, 3]] = 1
    X[1, [2, 3]] = 1
    X[2, [0, 1, 2, 3]] = 1
    y = np.array([1, 1, 1])
    tr = olc_core.run("winnow", X, y, beta=0.5, comparator=[0, 1, 2, 3])
    assert tr.history.snapshots[1].tolist() == [0, 1, 2, 2, 0, 0, 0]
    assert tr.predictions.tolist() == [0, 0, 0]
    assert tr.mistakes.tolist() == [0, 1, 2]
    assert tr.columns["exact_decision"].tolist() == [False, False, True]
    assert tr.history.snapshots[2].tolist() == [1, 2, 3, 3, 0, 0, 0]
    assert tr.proof.violations() == []


def test_exact_greater_against_fractions():
    rng = np.random.default_rng(5)
    for beta in (1.0, 0.5, 0.1, 3.0, 1e-6, 1e6):
        base = 1 + Fraction(beta)
        for _ in range(200):
            e = rng.integers(-6, 7, size=int(rng.integers(0, 6)))
            N = int(rng.integers(1, 9))
            want = sum((base ** int(v) for v in e), Fraction(0)) > N
            assert exact_greater(e, base.numerator, base.denominator, N) == want
    # a sum exceeding N by a hair: 8 + 2^-60
    assert exact_greater(np.array([3, -60]), 2, 1, 8) is True
    assert exact_greater(np.array([3]), 2, 1, 8) is False


# ---------------------------------------------------------------- exactness against Fractions
@settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(N=st.integers(1, 8), T=st.integers(1, 60), beta=st.sampled_from([1.0, 0.5, 0.25, 3.0, 1.0 / 3.0, 2.0]),
       seed=st.integers(0, 2**32 - 1), dtype=st.sampled_from(["float", "uint8", "bool"]))
def test_matches_exact_rational_winnow_on_any_data(N, T, beta, seed, dtype):
    rng = np.random.default_rng(seed)
    X = (rng.random((T, N)) < rng.uniform(0.2, 0.9)).astype(np.float64)
    y = (rng.random(T) < 0.5).astype(np.float64)  # arbitrary labels: exactness is about the algorithm
    mistakes, preds, snaps = naive_exponents(X, y, beta)
    Xin = X if dtype == "float" else X.astype(np.uint8 if dtype == "uint8" else bool)
    tr = olc_core.run("winnow", Xin, y, beta=beta)
    assert tr.mistakes.tolist() == mistakes
    assert tr.predictions.tolist() == preds
    assert tr.history.snapshots.tolist() == snaps
    # the algorithmic part of the proof holds on any data
    bad = [v for v in tr.proof.violations() if v.chain in ALGORITHMIC_CHAINS]
    assert bad == []


# ---------------------------------------------------------------- the theorem on good streams
@settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(N=st.integers(1, 24), k=st.integers(1, 4), T=st.integers(1, 300),
       beta=st.one_of(st.sampled_from([1.0, 0.5, 2.0]), st.floats(1e-3, 1e3)),
       seed=st.integers(0, 10**6), given_comparator=st.booleans())
def test_sandwich_holds_on_disjunction_streams(N, k, T, beta, seed, given_comparator):
    assume(k <= N)
    s = olc_core.streams.sparse_disjunction(T=T, N=N, k=k, seed=seed)
    params = {"beta": beta}
    if given_comparator:
        params["comparator"] = s.comparator
    tr = olc_core.run("winnow", s.X, s.y, **params)
    p = tr.proof
    assert p.failed_assumptions == []
    assert p.violations() == []
    assert p.mistake_bound is not None
    assert tr.n_mistakes <= p.mistake_bound
    assert tr.n_mistakes < p.constants["mistake_bound_sharp"]
    if given_comparator:
        assert p.constants["k"] == k
    else:
        assert "greedy" in tr.info["comparator_method"] and tr.info["comparator_source"].startswith("consistent")
    # every state's potential is within its sandwich (checked directly as well)
    assert np.all(p.series["log_phi"] <= p.series["log_upper"] + 1e-9)
    assert np.all(p.series["log_phi"] > p.series["log_floor"] - 1e-9)


# ---------------------------------------------------------------- broken assumptions
@settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(N=st.integers(2, 16), k=st.integers(1, 3), T=st.integers(5, 200), noise=st.floats(0.05, 0.5),
       beta=st.sampled_from([1.0, 0.5, 4.0]), seed=st.integers(0, 10**6))
def test_label_noise_names_the_flipped_rounds(N, k, T, noise, beta, seed):
    assume(k <= N)
    s = olc_core.streams.sparse_disjunction(T=T, N=N, k=k, seed=seed, noise=noise)
    flipped = np.flatnonzero(s.info["flipped"])
    assume(flipped.size > 0)
    tr = olc_core.run("winnow", s.X, s.y, beta=beta, comparator=s.comparator)
    p = tr.proof
    assert p.mistake_bound is None
    [a] = p.failed_assumptions
    assert a.name == "target disjunction"
    assert a.rounds.tolist() == flipped.tolist()
    # the potential sandwich is algorithmic: it still holds
    assert [v for v in p.violations() if v.chain in ALGORITHMIC_CHAINS] == []


def test_no_consistent_disjunction_reports_the_rounds():
    # x = 11 labelled 1 but both variables are on in negative examples: no monotone disjunction fits
    X = np.array([[1, 0], [1, 1], [0, 1], [0, 0]])
    y = np.array([0, 1, 0, 0])
    tr = olc_core.run("winnow", X, y)
    p = tr.proof
    assert p.mistake_bound is None
    [a] = p.failed_assumptions
    assert a.rounds.tolist() == [1]
    assert "no monotone disjunction" in a.detail
    assert tr.info["comparator_source"] is None
    assert np.isnan(p.series["k_cap"]).all()
    assert p.violations() == []  # the algorithmic chains hold; the relevant-variable ones are not defined


def test_relevant_variable_demoted_breaks_only_its_link():
    # target x_0 claimed, but round 1 is a negative example with x_0 on after a promotion
    X = np.array([[1, 1, 1, 1], [1, 1, 1, 1], [1, 0, 0, 0]])
    y = np.array([1, 0, 1])
    tr = olc_core.run("winnow", X, y, beta=1.0, comparator=[0])
    p = tr.proof
    assert [a.rounds.tolist() for a in p.failed_assumptions] == [[1]]
    names = {v.name for v in p.violations()}
    assert names == {"rel_demotions ≤ zero"}


# ---------------------------------------------------------------- extreme β
@pytest.mark.parametrize("beta", [1e-6, 1e6])
def test_extreme_beta_exact_and_sound(beta):
    s = olc_core.streams.sparse_disjunction(T=150, N=10, k=2, seed=3, p_on=0.35)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with np.errstate(all="raise"):
            tr = olc_core.run("winnow", s.X, s.y, beta=beta, comparator=s.comparator)
    mistakes, preds, snaps = naive_exponents(s.X, s.y, beta)
    assert tr.mistakes.tolist() == mistakes and tr.history.snapshots.tolist() == snaps
    p = tr.proof
    assert p.violations() == [] and p.failed_assumptions == []
    assert tr.n_mistakes <= p.mistake_bound
    assert np.isfinite(p.series["log_upper"]).all() and np.isfinite(p.series["log_phi"]).all()
    if beta == 1e6:
        assert tr.n_mistakes >= 1
        assert p.constants["per_variable_promotions_cap"] == pytest.approx(1 + math.log(10) / math.log1p(1e6))


def test_log_upper_is_exact_under_cancellation():
    # β = 1e6: 1 + β·m⁺ − β·m⁻/(1+β) with m⁺ = 1, m⁻ = 1_000_000 is 1 + 1e6 − 1e12/(1e6+1) = 2 − 1/(1e6+1)·…
    b = Fraction(1e6)
    for mp, mm in [(1, 10**6), (3, 3 * 10**6 + 2), (0, 0), (2, 1)]:
        v = 1 + b * mp - b * mm / (1 + b)
        got = wp.log_upper(7, 1e6, np.array([mp]), np.array([mm]))[0]
        want = math.log(7) + math.log(v.numerator) - math.log(v.denominator) if v > 0 else -math.inf
        assert got == pytest.approx(want, abs=1e-11)


# ---------------------------------------------------------------- inputs
def test_comparator_forms_agree():
    s = olc_core.streams.sparse_disjunction(T=80, N=6, k=2, seed=1)
    mask = np.zeros(6, dtype=bool)
    mask[s.comparator] = True
    a = olc_core.run("winnow", s.X, s.y, comparator=s.comparator.tolist()).proof
    b = olc_core.run("winnow", s.X, s.y, comparator=mask).proof
    c = olc_core.run("winnow", s.X, s.y, comparator=mask.astype(int)).proof
    assert a.constants["relevant"].tolist() == b.constants["relevant"].tolist() == c.constants["relevant"].tolist()
    assert parse_disjunction([0, 1], 2).tolist() == [0, 1]          # strictly increasing: indices
    assert parse_disjunction([1, 0], 2).tolist() == [0]             # a 0/1 mask
    assert parse_disjunction(np.array([False, True]), 2).tolist() == [1]
    assert parse_disjunction([], 3).tolist() == []


@pytest.mark.parametrize("bad,match", [([5], "outside"), ([1, 1, 2], "twice"), ([0.5], "integers"),
                                       ([[0, 1]], "1-D"), (np.array([True, False]), "length N")])
def test_bad_comparator(bad, match):
    X = np.eye(3)
    with pytest.raises(ValueError, match=match):
        olc_core.run("winnow", X, np.array([1, 0, 0]), comparator=bad)


def test_non_binary_input():
    with pytest.raises(ValueError, match="0/1; found 2 at round 2, feature 1"):
        olc_core.run("winnow", np.array([[1, 0], [2, 0]]), np.array([1, 0]))
    with pytest.raises(ValueError, match="0/1"):
        olc_core.run("winnow", np.array([[1, 0], [0.5, 0]]), np.array([1, 0]))
    with pytest.raises(ValueError, match="beta"):
        olc_core.run("winnow", np.eye(2), np.array([1, 0]), beta=0.0)


# ---------------------------------------------------------------- a long run
def test_million_rounds_with_a_weight_far_below_the_smallest_float():
    """10⁶ rounds, N = 64, β = 10⁶: the demotion chain drives one weight to (1+β)^{-62} ≈ 10^{-372}
    (0.0 as a float), then 999 937 random rounds of the target x_0 make no mistake."""
    s = winnow_demotion_chain(T=1_000_000, N=64, seed=0)
    t0 = time.perf_counter()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with np.errstate(all="raise"):
            tr = olc_core.run("winnow", s.X, s.y, beta=1e6, comparator=s.comparator)
            p = tr.proof
        viol = p.violations()
    elapsed = time.perf_counter() - t0
    assert tr.n_mistakes == 63 and tr.mistakes[-1] == 62
    lw = tr.log_weights_at(tr.T)
    assert np.isfinite(lw).all()
    assert lw[63] == pytest.approx(-62 * math.log1p(1e6), rel=1e-15)
    assert tr.history.snapshots[-1][63] == -62
    assert tr.weights_at(tr.T)[63] == 0.0  # the float weight underflows; the state does not
    assert viol == [] and p.failed_assumptions == []
    assert tr.n_mistakes <= p.mistake_bound
    assert np.isfinite(p.series["log_phi"]).all() and np.isfinite(p.series["log_upper"]).all()
    assert elapsed < 10.0, elapsed


def test_noisy_steps_name_the_assumption_they_need():
    s = olc_core.streams.sparse_disjunction(T=500, N=100, k=3, seed=0, noise=0.1)
    tr = olc_core.run("winnow", s.X, s.y, beta=1.0, comparator=s.comparator)
    p = tr.proof
    v = p.violations()
    assert v, "the relevant-variable links do fail on these labels"
    # every failing link relies on the failed assumption: not applicable, not a contradiction
    assert {x.chain for x in v} <= {"relevant variables never demoted", "mistakes on positives"}
    assert {x.needs for x in v} == {("target disjunction",)}
    rows = p.checks_at(tr.T)
    na = [r for r in rows if r["needs_failed"]]
    assert {r["chain"] for r in na} == {"relevant variables never demoted", "mistakes on positives"}
    assert all(r["holds"] is None for r in na)
    assert all(r["holds"] is True for r in rows if not r["needs_failed"])


def test_a_real_violation_needs_nothing():
    # a chain that holds on any data, with its assumptions holding, keeps an empty ``needs``
    from olc_core.proofs.base import Assumption, Chain, Proof
    p = Proof(name="toy", theorem="", T=2, state_rounds=np.array([0, 1]), n_mistakes=np.array([0, 1]),
              series={"a": np.array([0.0, 2.0]), "b": np.array([1.0, 1.0])},
              chains=(Chain("c", ("a", "b"), needs=("h",)),), assumptions=(Assumption("h", "h", True),))
    [x] = p.violations()
    assert x.needs == () and p.checks_at(2)[0]["holds"] is False
    with pytest.raises(ValueError, match="unknown assumption"):
        Proof(name="toy", theorem="", T=2, state_rounds=np.array([0]), n_mistakes=np.array([0]),
              series={"a": np.zeros(1)}, chains=(Chain("c", ("a", "a"), needs=("nope",)),))
