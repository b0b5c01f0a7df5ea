"""Weighted Majority: hand-worked rounds, exact ties, parameters, β = 0, the sandwich on random and
adversarial streams (hypothesis), and a long run with N = 10⁴ experts over 10⁵ rounds."""
from __future__ import annotations

import math
import time
import warnings
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import olc_core
from olc_core.learners.weighted_majority import exact_vote_sign
from olc_core.streams.experts import adversary, experts
from tests.core.cases_experts import naive_weighted_majority

L2 = math.log(0.5)
X3 = np.array([[1, 1, -1], [-1, 1, 1], [1, -1, -1]])
Y3 = np.array([-1, 1, 1])


def test_hand_worked_on_mistake():
    # round 0: w = (1,1,1), W+ = 2 > W- = 1 → ŷ = +1, y = -1: mistake; experts 0,1 wrong → w = (½,½,1), Φ = 2
    # round 1: W+ = ½ + 1 = 1.5 > ½ → ŷ = +1 = y: no change (on_mistake)
    # round 2: W+ = ½ < W- = 1.5 → ŷ = -1, y = +1: mistake; experts 1,2 wrong → w = (½,¼,½), Φ = 1.25
    tr = olc_core.run("weighted_majority", X3, Y3, beta=0.5)
    assert tr.predictions.tolist() == [1, 1, -1]
    assert tr.mistakes.tolist() == [0, 2]
    expect = [[1, 1, 1], [.5, .5, 1], [.5, .5, 1], [.5, .25, .5]]
    for t in range(4):
        np.testing.assert_allclose(tr.weights_at(t), expect[t], rtol=0, atol=0)
    np.testing.assert_array_equal(tr.log_weights_at(3), [L2, 2 * L2, L2])
    p = tr.proof
    np.testing.assert_allclose(np.exp(p.series["log_phi"]), [3, 2, 2, 1.25], rtol=1e-15)
    np.testing.assert_allclose(np.exp(p.series["upper"]), [3, 2.25, 2.25, 3 * 0.75 ** 2], rtol=1e-15)
    # best expert i* = 2 (m = 1: wrong only on round 2), penalised once (round 2)
    assert p.constants["best_expert"] == 2 and p.constants["m_star"] == 1
    np.testing.assert_allclose(np.exp(p.series["lower_best"]), [1, 1, 1, .5])
    np.testing.assert_allclose(np.exp(p.series["log_w_best"]), [1, 1, 1, .5])
    # expert mistakes m_t = (0,0,0), (1,1,0), (2,1,0), (2,2,1); penalties p_3 = (1,2,1): slack min(m - p) = 0
    np.testing.assert_array_equal(p.series["m_star"], [0, 0, 0, 1])
    np.testing.assert_array_equal(p.series["slack"], [0, 0, 0, 0])
    assert p.mistake_bound == pytest.approx(math.log(6) / math.log(4 / 3), rel=1e-15)   # 6.2283
    assert p.mistake_bound == pytest.approx(6.2283, abs=1e-4)
    eta = tr.proofs["eta_form"]
    assert eta.mistake_bound == pytest.approx(2 * 1.5 * 1 + 2 * math.log(3) / 0.5)       # 7.3944
    assert p.violations() == [] and eta.violations() == []
    np.testing.assert_allclose(tr.columns["wrong_fraction"], [2 / 3, 1 / 4, 3 / 4])


def test_hand_worked_every_round():
    # round 1 now also penalises expert 0 (wrong, although the learner was right): w = (¼,½,1), Φ = 1.75
    # round 2: W+ = ¼ < 1.5 → ŷ = -1: mistake; w = (¼,¼,½), Φ = 1
    tr = olc_core.run("weighted_majority", X3, Y3, eta=0.5, update="every_round")
    assert tr.mistakes.tolist() == [0, 2]
    np.testing.assert_allclose(np.exp(tr.proof.series["log_phi"]), [3, 2, 1.75, 1.0], rtol=1e-15)
    np.testing.assert_allclose(tr.weights_at(2), [.25, .5, 1])
    np.testing.assert_allclose(tr.weights_at(3), [.25, .25, .5])
    step = tr.proof.series["step"][:3]
    np.testing.assert_allclose(step, [math.log(2 / 3), math.log(1.75 / 2), math.log(1 / 1.75)])
    np.testing.assert_allclose(tr.proof.series["step_bound"][:3], [math.log(.75), 0, math.log(.75)])
    assert tr.proof.violations() == []


def test_tie_goes_to_plus_one_exactly():
    # round 0 penalises experts 1,2 → w = (1, ½, ½); round 1: W+ = ½ + ½ = 1 = W- → tie → +1
    X = np.array([[1, -1, -1], [-1, 1, 1], [-1, 1, 1]])
    y = np.array([1, -1, -1])
    tr = olc_core.run("weighted_majority", X, y, beta=0.5)
    assert tr.predictions.tolist() == [-1, 1, -1]
    assert tr.columns["vote"][1] == 0.0


def test_near_tie_decided_in_exact_arithmetic():
    # β = 0.1 (the float is 0.1000000000000000055…, so 10β > 1): after the two rounds below expert 0 has
    # weight β and experts 1…10 have β² each. Round 2: expert 0 says +1 (W+ = β), the ten say -1 (W- = 10β²).
    # Exactly W- > W+, so ŷ = -1; a float sum puts the two within rounding of each other.
    assert Fraction(0.1) * 10 > 1
    N = 11
    X = np.array([[-1] * N, [1] + [-1] * 10, [1] + [-1] * 10])
    y = np.array([1, 1, 1])
    tr = olc_core.run("weighted_majority", X, y, beta=0.1, update="every_round")
    np.testing.assert_array_equal(tr.history.counts_at(2), [1] + [2] * 10)
    assert tr.predictions[2] == -1
    assert naive_weighted_majority(X.astype(float), y.astype(float),
                                   {"beta": 0.1, "update": "every_round"}).predictions[2] == -1.0


def test_exact_vote_sign_unit():
    plus = np.array([False, True, True])
    assert exact_vote_sign(np.array([0, 1, 1]), plus, 0.5) == 0            # -1 + ½ + ½
    assert exact_vote_sign(np.array([0, 1, 1]), plus, 0.5000001) == 1
    assert exact_vote_sign(np.array([0, 1, 1]), plus, 0.4999999) == -1
    assert exact_vote_sign(np.array([5, 5]), np.array([True, False]), 0.3) == 0
    # β = 1/3 is not a float: the exact answer follows the float's binary value
    b = Fraction(1 / 3)
    want = (b ** 3 > 3 * b ** 4) - (b ** 3 < 3 * b ** 4)
    assert exact_vote_sign(np.array([3, 4, 4, 4]), np.array([True, False, False, False]), 1 / 3) == want
    assert exact_vote_sign(np.array([0, 0, 2]), np.array([True, False, True]), 0.0) == 0   # β = 0: only c = 0 counts


def test_parameters_beta_eta():
    a = olc_core.run("weighted_majority", X3, Y3)
    assert a.info["beta"] == 0.5                                   # default β = η = ½
    b = olc_core.run("weighted_majority", X3, Y3, eta=0.25)
    assert b.info["beta"] == 0.75
    c = olc_core.run("weighted_majority", X3, Y3, eta=0.25, beta=0.75)
    assert c.info["beta"] == 0.75
    with pytest.raises(ValueError, match="disagree"):
        olc_core.run("weighted_majority", X3, Y3, eta=0.25, beta=0.5)
    with pytest.raises(ValueError, match=r"beta must be a number in \[0, 1\)"):
        olc_core.run("weighted_majority", X3, Y3, beta=1.0)
    with pytest.raises(ValueError, match=r"eta must be a number in \(0, 1\]"):
        olc_core.run("weighted_majority", X3, Y3, eta=0.0)
    with pytest.raises(ValueError, match="update"):
        olc_core.run("weighted_majority", X3, Y3, update="sometimes")


def test_advice_encodings_and_bad_advice():
    a = olc_core.run("weighted_majority", X3, Y3, beta=0.5)
    b = olc_core.run("weighted_majority", (X3 > 0).astype(np.int8), Y3, beta=0.5)
    c = olc_core.run("weighted_majority", X3 > 0, Y3, beta=0.5)
    for other in (b, c):
        np.testing.assert_array_equal(other.predictions, a.predictions)
        np.testing.assert_array_equal(other.log_weights_at(3), a.log_weights_at(3))
    with pytest.raises(ValueError, match="mixes -1"):
        olc_core.run("weighted_majority", np.array([[1, -1], [0, 1]]), np.array([1, 1]))
    with pytest.raises(ValueError, match="found 0.5 at round 2, expert 1"):
        olc_core.run("weighted_majority", np.array([[1, -1], [0.5, 1]]), np.array([1, 1]))
    with pytest.raises(ValueError, match="found 2 at round 1"):
        olc_core.run("weighted_majority", np.array([[2, -1]], dtype=np.int8), np.array([1]))
    with pytest.raises(ValueError, match="NaN"):
        olc_core.run("weighted_majority", np.array([[1.0, np.inf]]), np.array([1]))
    X = X3.copy()
    olc_core.run("weighted_majority", X, Y3)
    np.testing.assert_array_equal(X, X3)


def test_beta_zero_is_halving_with_and_without_a_perfect_expert():
    s = experts(T=60, N=8, error_rates=[0.0, 0.3, 0.5, 0.5, 0.4, 0.2, 0.6, 0.1], seed=3)
    tr = olc_core.run("weighted_majority", s.X, s.y, beta=0.0)
    assert tr.proof.mistake_bound == 3.0                           # log₂ 8 with m* = 0
    assert tr.n_mistakes <= 3 and tr.proof.violations() == []
    h = olc_core.run("halving", s.X, s.y)
    np.testing.assert_array_equal(h.predictions, tr.predictions)   # Halving is WM with β = 0
    lw = tr.log_weights_at(tr.T)
    assert set(lw.tolist()) <= {0.0, -math.inf}
    # now no perfect expert: m* > 0, ln(1/β) = ∞, the theorem gives nothing
    s2 = experts(T=60, N=8, error_rates=[0.05, 0.3, 0.5, 0.5, 0.4, 0.2, 0.6, 0.1], seed=3)
    tr2 = olc_core.run("weighted_majority", s2.X, s2.y, beta=0.0)
    p = tr2.proof
    assert p.mistake_bound is None
    [a] = p.failed_assumptions
    assert a.name == "beta_or_perfect_expert" and len(a.rounds) == 1
    first = [int(np.flatnonzero(s2.X[:, i] != s2.y)[0]) for i in range(8)]
    assert a.rounds[0] == max(first)                               # the round the last perfect expert erred
    assert p.violations() == []                                    # the sandwich itself still holds
    assert tr2.proofs["eta_form"].mistake_bound is None            # η = 1 > ½


def test_eta_form_needs_eta_at_most_half():
    s = experts(T=80, N=6, error_rates=[0.1, 0.2, 0.3, 0.4, 0.5, 0.3], seed=2)
    tr = olc_core.run("weighted_majority", s.X, s.y, eta=0.7)
    assert tr.proof.mistake_bound is not None
    e = tr.proofs["eta_form"]
    assert e.mistake_bound is None and e.failed_assumptions[0].name == "eta_at_most_half"
    tr2 = olc_core.run("weighted_majority", s.X, s.y, eta=0.5)
    assert tr2.n_mistakes <= tr2.proofs["eta_form"].mistake_bound


def test_adversary_nearly_attains_the_upper_curve():
    for beta in (0.2, 0.5, 0.8):
        s = adversary(T=400, N=32, beta=beta, seed=5)
        tr = olc_core.run("weighted_majority", s.X, s.y, beta=beta)
        p = tr.proof
        assert tr.n_mistakes == 400 and p.violations() == []
        assert tr.n_mistakes <= p.mistake_bound
        gap = p.series["upper"] - p.series["log_phi"]              # log N((1+β)/2)^M − log Φ ≥ 0
        assert gap.min() >= -1e-9
        # N = 2^5 equal weights split exactly in half for the first rounds: Φ = N((1+β)/2)^M, equality
        np.testing.assert_allclose(gap[:6], 0.0, atol=1e-12)
        assert gap[6] > 0.0                                        # then the weight classes get odd sizes
        # the bound is nearly reached: M / bound = 0.64, 0.83, 0.89 for β = 0.2, 0.5, 0.8
        assert tr.n_mistakes / p.mistake_bound > {0.2: 0.6, 0.5: 0.8, 0.8: 0.85}[beta]


@st.composite
def random_streams(draw):
    T = draw(st.integers(1, 60))
    N = draw(st.integers(1, 9))
    seed = draw(st.integers(0, 10_000))
    rng = np.random.default_rng(seed)
    kind = draw(st.sampled_from(["random", "rates", "adversary", "copies"]))
    if kind == "adversary" and N >= 2:
        beta = draw(st.sampled_from([0.0, 0.1, 0.5, 0.9, 0.999]))
        s = adversary(T=T, N=N, beta=beta, seed=seed)
        return s.X, s.y, beta
    if kind == "copies":  # duplicated experts: many exact ties
        base = np.where(rng.random((T, max(1, N // 2))) < 0.5, 1, -1)
        X = np.concatenate([base, -base], axis=1)[:, :N] if N > 1 else base
    elif kind == "rates":
        s = experts(T=T, N=N, error_rates=rng.uniform(0, 0.6, N), seed=seed)
        return s.X, s.y, None
    else:
        X = np.where(rng.random((T, N)) < 0.5, 1, -1)
    y = np.where(rng.random(T) < 0.5, 1, -1)
    return X, y, None


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_property_sandwich_and_bounds(data):
    X, y, beta = data.draw(random_streams())
    if beta is None:
        beta = data.draw(st.sampled_from([0.0, 0.05, 0.3, 0.5, 0.7, 0.95, 0.9999]))
    update = data.draw(st.sampled_from(["on_mistake", "every_round"]))
    tr = olc_core.run("weighted_majority", X, y, beta=beta, update=update)
    p = tr.proof
    assert p.violations() == []
    m = (np.asarray(X) != np.asarray(y)[:, None]).sum(axis=0)
    assert p.constants["m_star"] == m.min()
    if beta > 0 or m.min() == 0:
        assert p.mistake_bound is not None and tr.n_mistakes <= p.mistake_bound * (1 + 1e-12)
    else:
        assert p.mistake_bound is None and p.failed_assumptions[0].rounds.size == 1
    if beta >= 0.5:
        e = tr.proofs["eta_form"]
        assert e.violations() == [] and tr.n_mistakes <= e.mistake_bound
    ref = naive_weighted_majority(np.asarray(X, float), np.asarray(y, float), {"beta": beta, "update": update})
    assert tr.mistakes.tolist() == ref.mistakes
    np.testing.assert_allclose(tr.log_weights_at(tr.T), ref.weights[-1], rtol=1e-12, atol=1e-12)


def test_long_run_ten_thousand_experts_hundred_thousand_rounds():
    T, N = 100_000, 10_000
    t0 = time.perf_counter()
    rates = np.random.default_rng(0).uniform(0.1, 0.5, N)
    s = experts(T=T, N=N, error_rates=rates, seed=0, exact=False, groups=7)    # correlated crowds: WM errs
    assert s.X.dtype == np.int8
    gen = time.perf_counter() - t0
    for update in ("on_mistake", "every_round"):
        t1 = time.perf_counter()
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            with np.errstate(all="raise"):
                tr = olc_core.run("weighted_majority", s.X, s.y, beta=0.7, update=update)
                p = tr.proof
                viol = p.violations()
        took = time.perf_counter() - t1
        print(f"{update}: {took:.1f} s, M = {tr.n_mistakes}, m* = {p.constants['m_star']}, "
              f"bound = {p.mistake_bound:.1f}, stream {gen:.1f} s")
        assert viol == []
        assert p.failed_assumptions == [] and tr.n_mistakes <= p.mistake_bound
        assert tr.n_mistakes > 50                                    # a non-trivial run
        for key in ("log_phi", "upper", "lower_best", "log_w_best", "log_w_max"):
            assert np.isfinite(p.series[key]).all(), key
        for t in (0, 12_345, T // 2, T):
            lw = tr.log_weights_at(t)
            assert np.isfinite(lw).all() and lw.max() <= 0.0
        assert p.series["log_phi"][-1] < -100 or update == "on_mistake"   # Φ far below float range's comfort
        assert tr.history.nbytes < 200 * 2**20                      # no T×N copy
        assert took < 60


def test_history_paths_agree(monkeypatch):
    # on_mistake keeps snapshots after each mistake while they fit the budget, else checkpoints replayed
    # from the advice with the learner's own update: both must give the same weights at every round
    import olc_core.learners.weighted_majority as wm
    s = experts(T=120, N=10, error_rates=np.linspace(0.2, 0.5, 10), seed=2, exact=False, groups=3)
    for update in ("on_mistake", "every_round"):
        a = olc_core.run("weighted_majority", s.X, s.y, beta=0.6, update=update)
        assert 5 < a.n_mistakes < 115                              # mistake and non-mistake rounds
        monkeypatch.setattr(wm, "HISTORY_BUDGET", 200)             # 200 bytes: 5 snapshots at most
        b = olc_core.run("weighted_majority", s.X, s.y, beta=0.6, update=update)
        monkeypatch.undo()
        assert type(b.history.counts_history).__name__ == "CheckpointHistory"
        for t in range(121):
            np.testing.assert_array_equal(a.log_weights_at(t), b.log_weights_at(t), err_msg=f"round {t}")


def test_halving_as_wm_names_the_round_the_last_perfect_expert_erred():
    """β = 0 and every expert errs: the failed assumption names the round (1-based) on which the last
    expert without a mistake made its first one (review issue 11 §8d)."""
    X = np.array([[1, 1], [1, -1], [1, 1]])       # expert 2 errs on round 2, expert 1 on round 3
    y = np.array([1, 1, -1])
    tr = olc_core.run("weighted_majority", X, y, beta=0.0)
    [a] = tr.proof.failed_assumptions
    assert a.rounds.tolist() == [2] and "first mistake on round 3" in a.detail, a.detail
