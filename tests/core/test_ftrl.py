"""The randomised FTRL linear classifier [002]: hand-worked rounds, the regret bound on arbitrary and
adversarial streams (and that it is not vacuous), seeds, the expected-vs-realised mistakes, extremes,
the checkpoint replay."""
from __future__ import annotations

import math
import time

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import olc_core
from olc_core._support.numeric import rowdot
from tests.core.cases_ftrl import naive_ftrl

ALG = "ftrl_randomized"
SQ2 = math.sqrt(2.0)


def run(X, y, **kw):
    return olc_core.run(ALG, np.asarray(X, dtype=float), np.asarray(y, dtype=float), **kw)


def adversarial_labels(X, alpha, tie=1.0):
    """y_t chosen against the learner's current p_t (computed by the plain formula): y_t = −sign(p_t)."""
    T, d = X.shape
    theta = np.zeros(d)
    y = np.empty(T)
    for t in range(T):
        if t == 0:
            w = np.zeros(d)
        else:
            v = (alpha / math.sqrt(t)) * theta
            n = math.sqrt(float(v @ v))
            w = v / n if n > 1.0 else v
        p = float(w @ X[t])
        y[t] = -1.0 if p > 0 else (1.0 if p < 0 else tie)
        theta += y[t] * X[t] / 2.0
    return y


def independent_series(X, y, alpha, ps):
    """Regret and both bounds after t rounds, t = 0..T, in plain Python from the naive p_t."""
    T, d = X.shape
    S = [0.0] * d
    cum_yp, D, L2 = 0.0, 0.0, 0.0
    regret, bdata, bsqrt = [0.0], [0.0], [0.0]
    for t in range(T):
        S = [S[j] + y[t] * X[t, j] for j in range(d)]
        cum_yp += y[t] * ps[t]
        g2 = sum(X[t, j] ** 2 for j in range(d)) / 4.0
        D += g2 if t == 0 else g2 / math.sqrt(t)        # 1-based round s = t+1 has weight 1/√(s−1)
        L2 = max(L2, g2)
        k = t + 1
        expected = sum((1.0 - y[s] * ps[s]) / 2.0 for s in range(k))
        best = k / 2.0 - math.sqrt(sum(c * c for c in S)) / 2.0
        regret.append(expected - best)
        bdata.append(math.sqrt(k) / (2 * alpha) + alpha / 2 * D)
        bsqrt.append(math.sqrt(k) * (1 / (2 * alpha) + alpha * L2))
    return np.array(regret), np.array(bdata), np.array(bsqrt)


# ---------------------------------------------------------------- hand-worked
def test_three_rounds_by_hand():
    # α = 3, x_1 = (1, 0), y_1 = +1; x_2 = (0.6, 0.8), y_2 = −1; x_3 = (0, 1), y_3 = +1. ‖g_t‖² = ¼ each.
    X = [[1.0, 0.0], [0.6, 0.8], [0.0, 1.0]]
    y = [1, -1, 1]
    tr = run(X, y, eta=3.0, seed=0)
    r2 = math.sqrt(2.0)
    # round 1: w_1 = 0, p_1 = 0, ℓ = ½; θ_1 = (½, 0)
    # round 2: w_2 = Π(3·(½, 0)/√1) = Π((1.5, 0)) = (1, 0) (projected); p_2 = 0.6; ℓ = (1 + 0.6)/2 = 0.8; θ_2 = (0.2, −0.4)
    # round 3: w_3 = 3(0.2, −0.4)/√2, ‖·‖ = 3√0.1 ≈ 0.949 < 1 (not projected); p_3 = −1.2/√2; ℓ = (1 + 1.2/√2)/2
    # after:   θ_3 = (0.2, 0.1), w_4 = 3θ_3/√3 = √3(0.2, 0.1)
    np.testing.assert_array_equal(tr.weights_at(0), [0.0, 0.0])
    np.testing.assert_array_equal(tr.weights_at(1), [1.0, 0.0])
    np.testing.assert_allclose(tr.weights_at(2), [0.6 / r2, -1.2 / r2], rtol=1e-14)
    np.testing.assert_allclose(tr.weights_at(3), [0.2 * math.sqrt(3), 0.1 * math.sqrt(3)], rtol=1e-14)
    np.testing.assert_allclose(tr.columns["p"], [0.0, 0.6, -1.2 / r2], rtol=1e-14, atol=0)
    np.testing.assert_allclose(tr.columns["expected_loss"], [0.5, 0.8, (1 + 1.2 / r2) / 2], rtol=1e-14)
    np.testing.assert_allclose(tr.columns["expected_loss"], [0.5, 0.8, 0.9242640687119285], rtol=1e-14)
    pr = tr.proof
    # E[M_t] = 0, ½, 1.3, 2.2242641; ‖S_t‖ = 2‖θ_t‖ = 0, 1, 2√0.2, 2√0.05
    np.testing.assert_allclose(pr.series["expected_mistakes"], [0, 0.5, 1.3, 2.2242640687119285], rtol=1e-14)
    best = [0.0, 0.0, 1 - math.sqrt(0.2), 1.5 - math.sqrt(0.05)]            # t/2 − ‖S_t‖/2
    np.testing.assert_allclose(pr.series["best_loss"], best, rtol=1e-13, atol=1e-15)
    np.testing.assert_allclose(pr.series["best_loss"], [0, 0, 0.5527864045, 1.2763932023], rtol=1e-9)
    np.testing.assert_allclose(pr.series["regret"], [0, 0.5, 0.7472135955, 0.9478708664], rtol=1e-9)
    # data bound √t/(2α) + (α/2)(‖g_1‖² + Σ_{s≥2}‖g_s‖²/√(s−1)) = √t/6 + 1.5·(¼, ½, ½ + ¼/√2)
    bdata = [0, 1 / 6 + 0.375, r2 / 6 + 0.75, math.sqrt(3) / 6 + 1.5 * (0.5 + 0.25 / r2)]
    np.testing.assert_allclose(pr.series["bound_data"], bdata, rtol=1e-14)
    np.testing.assert_allclose(pr.series["bound_data"], [0, 0.5416666667, 0.9857022604, 1.3038401775], rtol=1e-9)
    # √t (1/(2α) + αL²) = √t (1/6 + 3/4)
    np.testing.assert_allclose(pr.series["bound_sqrt"], [math.sqrt(t) * (1 / 6 + 0.75) for t in range(4)],
                               rtol=1e-14)
    assert pr.mistake_bound == pytest.approx(1.5 - math.sqrt(0.05) + math.sqrt(3) * (1 / 6 + 0.75), rel=1e-14)
    assert pr.mistake_bound == pytest.approx(2.8641064425, rel=1e-9)
    assert pr.bounded == "expected_mistakes"
    assert pr.violations() == []
    # default comparator: the best u in hindsight, S_3/‖S_3‖ = (2, 1)/√5
    np.testing.assert_allclose(tr.info["comparator"], [2 / math.sqrt(5), 1 / math.sqrt(5)], rtol=1e-14)
    assert pr.series["regret_u"][-1] == pytest.approx(pr.series["regret"][-1], rel=1e-12)
    # realised mistakes: the rounds where the seeded random ±1 output missed the label
    pred = tr.predictions
    assert set(np.unique(pred).tolist()) <= {-1, 1}
    assert tr.mistakes.tolist() == [t for t in range(3) if pred[t] != y[t]]
    assert pr.series["mistakes"][-1] == tr.n_mistakes
    U = np.random.default_rng(0).random(3)
    assert pred.tolist() == [1 if U[t] < (1 + tr.columns["p"][t]) / 2 else -1 for t in range(3)]


def test_round_one_attains_the_data_bound():
    # one round, ‖x‖ = 1, α = 2 = 1/‖g_1‖: regret ½ = 1/(2α) + α‖g_1‖²/2 = ¼ + ¼ (AM–GM with equality)
    tr = run([[0.6, 0.8]], [1], eta=2.0)
    pr = tr.proof
    assert pr.series["regret"][1] == pytest.approx(0.5, rel=1e-15)
    assert pr.series["bound_data"][1] == pytest.approx(0.5, rel=1e-15)
    assert pr.violations() == []
    # and for any other α the bound is strict
    pr3 = run([[0.6, 0.8]], [1], eta=3.0).proof
    assert pr3.series["regret"][1] < pr3.series["bound_data"][1] - 0.01


# ---------------------------------------------------------------- property tests
def _ball_rows(draw, T, d):
    raw = draw(st.lists(st.lists(st.floats(-1.5, 1.5, allow_nan=False), min_size=d, max_size=d),
                        min_size=T, max_size=T))
    X = np.array(raw, dtype=float).reshape(T, d)
    n = np.sqrt((X * X).sum(axis=1))
    X = X / np.maximum(1.0, n)[:, None]
    kinds = draw(st.lists(st.sampled_from(["keep", "keep", "unit", "zero", "tiny"]), min_size=T, max_size=T))
    for t, k in enumerate(kinds):
        n = float(np.linalg.norm(X[t]))
        if k == "unit" and n > 1e-150:      # (the norm of a subnormal row underflows)
            X[t] = X[t] / n
        elif k == "zero":
            X[t] = 0.0
        elif k == "tiny":
            X[t] = X[t] * 1e-7
    return X


@st.composite
def streams(draw, adversarial=None):
    d = draw(st.integers(1, 4))
    T = draw(st.integers(1, 40))
    X = _ball_rows(draw, T, d)
    alpha = draw(st.one_of(st.sampled_from([SQ2, 1e-6, 1e6, 2.0, 0.5]),
                           st.floats(-6, 6).map(lambda e: 10.0 ** e)))
    adv = draw(st.booleans()) if adversarial is None else adversarial
    if adv:
        y = adversarial_labels(X, alpha, tie=draw(st.sampled_from([-1.0, 1.0])))
    else:
        y = np.array(draw(st.lists(st.sampled_from([-1.0, 1.0]), min_size=T, max_size=T)))
    return X, y, alpha, draw(st.integers(0, 2**32))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(streams())
def test_regret_bound_at_every_round(s):
    X, y, alpha, seed = s
    tr = run(X, y, eta=alpha, seed=seed)
    pr = tr.proof
    assert pr.failed_assumptions == []
    assert pr.violations() == []
    reg, bd, bs = pr.series["regret"], pr.series["bound_data"], pr.series["bound_sqrt"]
    tol = 1e-9 * np.maximum(np.maximum(np.abs(reg), np.abs(bd)), 1e-300) + 1e-15
    assert np.all(reg <= bd + tol)
    assert np.all(bd <= bs * (1 + 1e-12) + 1e-300)
    assert np.all(pr.series["expected_mistakes"] <= pr.series["mistakes_upper"] * (1 + 1e-12) + 1e-12)
    assert pr.series["expected_mistakes"][-1] <= pr.mistake_bound * (1 + 1e-12)
    assert np.all(pr.series["regret_u"] <= pr.series["regret"] + 1e-9 * (1 + np.abs(pr.series["regret"])))
    # the learner stays in the ball, p_t is a probability up to rounding
    for t in range(tr.T + 1):
        assert np.linalg.norm(tr.weights_at(t)) <= 1 + 1e-12
    assert np.all(np.abs(tr.columns["p"]) <= 1 + 1e-9)
    # every series agrees with an independent plain-Python replay of the theorem's quantities
    ref, ps = naive_ftrl(X, y, {"eta": alpha, "seed": seed}, return_p=True)
    np.testing.assert_allclose(tr.columns["p"], ps, rtol=1e-9, atol=1e-12)
    r_reg, r_bd, r_bs = independent_series(X, y, alpha, ps)
    np.testing.assert_allclose(reg, r_reg, rtol=1e-9, atol=1e-12 * (tr.T + 1))
    np.testing.assert_allclose(bd, r_bd, rtol=1e-12)
    np.testing.assert_allclose(bs, r_bs, rtol=1e-12)
    # the default comparator is the best u in hindsight: regret against it equals the regret at T
    assert pr.series["regret_u"][-1] == pytest.approx(reg[-1], rel=1e-9, abs=1e-9)


@settings(max_examples=150, deadline=None)
@given(streams(adversarial=True))
def test_regret_bound_against_a_given_comparator(s):
    X, y, alpha, seed = s
    rng = np.random.default_rng(seed)
    u = rng.normal(size=X.shape[1])
    u *= rng.uniform(0, 1) / np.linalg.norm(u)
    tr = run(X, y, eta=alpha, seed=seed, comparator=u)
    pr = tr.proof
    assert pr.violations() == []
    assert tr.info["comparator_source"] == "given"
    # independent: Σ ℓ_s(w_s) − ℓ_s(u) from the definition
    el = (1 - y * tr.columns["p"]) / 2
    lu = (1 - y * (X @ u)) / 2
    want = np.concatenate([[0.0], np.cumsum(el - lu)])
    np.testing.assert_allclose(pr.series["regret_u"], want, rtol=1e-9, atol=1e-12)
    assert np.all(want <= pr.series["bound_data_u"] + 1e-9 * np.maximum(1, np.abs(want)))


def test_adversarial_streams_long():
    rng = np.random.default_rng(3)
    for alpha in (SQ2, 0.05, 1.0, 5.0, 300.0):
        for d in (1, 3):
            X = rng.normal(size=(1500, d))
            X /= np.linalg.norm(X, axis=1)[:, None]
            X[::7] *= rng.uniform(0, 1, size=(len(X[::7]), 1))
            y = adversarial_labels(X, alpha)
            pr = run(X, y, eta=alpha, seed=1).proof
            assert pr.violations() == [], (alpha, d)
            assert pr.series["expected_mistakes"][-1] <= pr.mistake_bound


def test_bound_is_not_vacuous_on_adversarial_streams():
    T = 2000
    X = np.zeros((T, 2))
    X[:, 0] = 1.0
    # default α = √2 (best for L = ½): the adversary gets at least half of the √(T/2) bound
    pr = run(X, adversarial_labels(X, SQ2)).proof
    reg, bound = pr.series["regret"][-1], pr.series["bound_sqrt"][-1]
    assert bound == pytest.approx(math.sqrt(T / 2), rel=1e-12)
    assert 0 < reg <= bound <= 2.1 * reg
    # random unit x_t in 3-D against the learner: same picture
    rng = np.random.default_rng(0)
    Z = rng.normal(size=(T, 3))
    Z /= np.linalg.norm(Z, axis=1)[:, None]
    pr = run(Z, adversarial_labels(Z, SQ2)).proof
    assert pr.series["bound_sqrt"][-1] <= 2.1 * pr.series["regret"][-1]
    # a larger α: the bound is within 12 % of the adversary's regret
    pr = run(X, adversarial_labels(X, 5.0), eta=5.0).proof
    assert pr.series["bound_sqrt"][-1] <= 1.12 * pr.series["regret"][-1]
    assert pr.violations() == []
    # and the expected mistakes sit close under the mistake bound
    assert pr.mistake_bound - pr.series["expected_mistakes"][-1] <= 0.12 * pr.series["regret"][-1]


# ---------------------------------------------------------------- randomness
def _noise_stream(T=200, d=2, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(T, d))
    X /= np.maximum(1.0, np.linalg.norm(X, axis=1))[:, None] * 2
    y = rng.choice([-1.0, 1.0], size=T)
    return X, y


def test_same_seed_same_predictions_different_seed_different():
    X, y = _noise_stream()
    a, b, c = run(X, y, seed=5), run(X, y, seed=5), run(X, y, seed=6)
    np.testing.assert_array_equal(a.predictions, b.predictions)
    np.testing.assert_array_equal(a.mistakes, b.mistakes)
    assert not np.array_equal(a.predictions, c.predictions)
    # the randomness does not touch the weights or the expected loss
    np.testing.assert_array_equal(a.columns["p"], c.columns["p"])
    np.testing.assert_array_equal(a.proof.series["expected_mistakes"], c.proof.series["expected_mistakes"])
    # x = 0 everywhere: p = 0, fair coins; two seeds agree on 200 coins with probability 2^-200
    Z = np.zeros((200, 3))
    assert not np.array_equal(run(Z, y, seed=1).predictions, run(Z, y, seed=2).predictions)


def test_mean_realised_mistakes_matches_expected_loss():
    X, y = _noise_stream(T=150, seed=4)
    n = 600
    first = run(X, y, seed=0)
    q = first.columns["expected_loss"]        # P(ŷ_t ≠ y_t), the same for every seed
    E = float(q.sum())
    var = float((q * (1 - q)).sum())          # variance of one run's mistake count (independent coins)
    counts = np.array([run(X, y, seed=s).n_mistakes for s in range(n)])
    sd_mean = math.sqrt(var / n)
    assert abs(counts.mean() - E) <= 5 * sd_mean, (counts.mean(), E, sd_mean)
    # the sample variance matches too (loosely: its own sd is about var·√(2/n))
    assert 0.7 * var <= counts.var() <= 1.3 * var
    # single runs do exceed the bound's expectation sometimes: the theorem is about E[M]
    assert first.proof.series["expected_mistakes"][-1] == pytest.approx(E, rel=1e-12)


def test_seed_is_a_validated_parameter():
    X, y = _noise_stream(T=5)
    with pytest.raises(ValueError, match="seed"):
        run(X, y, seed=-1)
    with pytest.raises(ValueError, match="eta"):
        run(X, y, eta=0.0)
    with pytest.raises(ValueError, match="eta"):
        run(X, y, eta=-1.0)


# ---------------------------------------------------------------- extremes and errors
@pytest.mark.parametrize("alpha", [1e-6, 1e6, 1e-300, 1e300])
def test_extreme_alpha(alpha):
    X, y = _noise_stream(T=300, d=3, seed=2)
    X[0] = [1.0, 0.0, 0.0]
    tr = run(X, y, eta=alpha, seed=3)
    pr = tr.proof
    assert pr.violations() == []
    assert np.all(np.isfinite(tr.columns["p"]))
    for t in (0, 1, 2, 150, 300):
        w = tr.weights_at(t)
        assert np.all(np.isfinite(w)) and np.linalg.norm(w) <= 1 + 1e-12
    if alpha >= 1e6:   # from round 2 on, the learner sits on the sphere
        assert np.linalg.norm(tr.weights_at(1)) == pytest.approx(1.0, rel=1e-12)
    else:              # the learner barely moves: p ≈ 0, expected loss ≈ ½
        assert np.max(np.abs(tr.columns["p"])) < 1e-3
    assert pr.series["expected_mistakes"][-1] <= pr.mistake_bound


def test_one_round():
    tr = run([[0.0, -0.5]], [-1], eta=SQ2, seed=0)
    assert tr.T == 1
    np.testing.assert_array_equal(tr.weights_at(0), [0.0, 0.0])
    np.testing.assert_allclose(tr.weights_at(1), [0.0, SQ2 * 0.25], rtol=1e-15)  # α·y x/2 = √2·(0, ¼)
    pr = tr.proof
    assert pr.series["regret"].tolist() == [0.0, 0.25]   # ½ − (½ − ‖x‖/2)
    assert pr.series["bound_data"][1] == pytest.approx(1 / (2 * SQ2) + SQ2 / 2 * 0.0625, rel=1e-15)
    assert pr.mistake_bound == pytest.approx(0.25 + 1 / (2 * SQ2) + SQ2 * 0.0625, rel=1e-15)
    assert pr.violations() == []


def test_norm_exactly_one_accepted_and_longer_rejected():
    rng = np.random.default_rng(1)
    X = rng.normal(size=(50, 4))
    X /= np.linalg.norm(X, axis=1)[:, None]             # ‖x‖ = 1 up to rounding
    X[0] = [1.0, 0.0, 0.0, 0.0]
    X[1] = [0.6, 0.8, 0.0, 0.0]
    y = adversarial_labels(X, SQ2)
    tr = run(X, y)
    assert tr.proof.violations() == []
    assert tr.proof.constants["L"] == pytest.approx(0.5, rel=1e-12)
    bad = X.copy()
    bad[17] *= 1.001
    with pytest.raises(ValueError, match=r"round 18 .*1\.001"):
        run(bad, y)
    bad[17] = [3.0, 4.0, 0.0, 0.0]
    with pytest.raises(ValueError, match=r"round 18 has ‖x_t‖ = 5"):
        run(bad, y)


def test_zero_instances():
    Z = np.zeros((40, 2))
    y = np.where(np.arange(40) % 3 == 0, 1.0, -1.0)
    tr = run(Z, y, seed=0)
    pr = tr.proof
    assert np.all(tr.columns["p"] == 0) and np.all(tr.columns["expected_loss"] == 0.5)
    for t in range(41):
        np.testing.assert_array_equal(tr.weights_at(t), [0.0, 0.0])
    assert np.all(pr.series["regret"] == 0) and pr.constants["L"] == 0
    np.testing.assert_allclose(pr.series["bound_sqrt"], np.sqrt(np.arange(41)) / (2 * SQ2), rtol=1e-15)
    assert pr.mistake_bound == pytest.approx(20 + math.sqrt(40) / (2 * SQ2), rel=1e-15)
    np.testing.assert_array_equal(tr.info["comparator"], [0.0, 0.0])   # S_T = 0: u = 0 is a best u
    assert pr.violations() == []


def test_comparator_checks():
    X, y = _noise_stream(T=20)
    with pytest.raises(ValueError, match="comparator"):
        run(X, y, comparator=[0.8, 0.8])                       # ‖u‖ > 1
    with pytest.raises(ValueError, match="comparator"):
        run(X, y, comparator=[1.0, 0.0, 0.0])                  # wrong length
    with pytest.raises(ValueError, match="comparator"):
        run(X, y, comparator=[np.nan, 0.0])
    u = np.array([0.6, 0.8]) * (1 + 1e-15)                      # unit up to rounding: accepted
    tr = run(X, y, comparator=u)
    assert np.linalg.norm(tr.info["comparator"]) <= 1.0
    assert tr.proof.violations() == []


# ---------------------------------------------------------------- weights: checkpoints and replay
def test_replay_is_bit_identical_to_the_run():
    rng = np.random.default_rng(7)
    T, d = 300, 20                                   # d > 16: the cumsum path of the row dot products
    X = rng.normal(size=(T, d))
    X /= np.maximum(1.0, np.linalg.norm(X, axis=1))[:, None]
    y = adversarial_labels(X, 3.0)
    tr = run(X, y, eta=3.0)
    every = tr.history.every
    assert every < T and len(tr.history.states) == T // every + 1
    p = tr.columns["p"]
    for t in range(T + 1):
        w = tr.weights_at(t)
        if t < T:   # the weights replayed are exactly the ones the run predicted with
            assert rowdot(X[t:t + 1], w)[0] == p[t], t
        if t in (1, 2, every - 1, every, every + 1, 5 * every + 3, T - 1, T):
            short = run(X[:t], y[:t], eta=3.0) if t > 0 else None
            if short is not None:
                np.testing.assert_array_equal(short.weights_at(t), w)
                np.testing.assert_array_equal(short.columns["p"], p[:t])
    # agrees with the plain formula to rounding
    ref = naive_ftrl(X, y, {"eta": 3.0})
    for t in range(0, T + 1, 37):
        np.testing.assert_allclose(tr.weights_at(t), ref.weights[t], rtol=1e-12, atol=1e-15)


def test_replay_detects_an_input_changed_after_the_run():
    X, y = _noise_stream(T=100)
    tr = run(X, y)
    assert tr.weights_at(10) is not None
    X[5, 0] += 0.01                                  # the trace keeps a reference to X, not a copy
    with pytest.raises(RuntimeError, match="changed"):
        tr.weights_at(10)
    y2 = -y                                          # y is copied: changing it afterwards is harmless
    tr2 = olc_core.run(ALG, X, y2)
    w = tr2.weights_at(50)                           # replays rounds 48, 49 from the checkpoint at 48
    y2[:] = -y2
    np.testing.assert_array_equal(tr2.weights_at(50), w)


def test_long_run_is_fast_and_small():
    rng = np.random.default_rng(0)
    T, d = 100_000, 3
    X = rng.normal(size=(T, d))
    X /= np.maximum(1.0, np.linalg.norm(X, axis=1))[:, None]
    y = np.where(X @ np.array([1.0, -1.0, 0.5]) + 0.3 * rng.normal(size=T) >= 0, 1.0, -1.0)
    t0 = time.perf_counter()
    tr = run(X, y, seed=1)
    pr = tr.proof
    v = pr.violations()
    elapsed = time.perf_counter() - t0
    assert v == []
    assert elapsed < 2.0, elapsed
    assert tr.history.nbytes <= T * d * 8 / 100          # checkpoints only, never T × d
    t0 = time.perf_counter()
    w = tr.weights_at(77_777)
    assert time.perf_counter() - t0 < 0.1
    assert rowdot(X[77_777:77_778], w)[0] == tr.columns["p"][77_777]
    assert pr.series["expected_mistakes"][-1] <= pr.mistake_bound
    # on this nearly separable stream the regret is far below the √T bound
    assert pr.series["regret"][-1] < 0.5 * pr.series["bound_sqrt"][-1]


# ---------------------------------------------------------------- the checks can fail
def _proof_for(X, y, p, alpha):
    """The proof read off a run whose p_t are given (e.g. a falsified run)."""
    from olc_core.proofs.ftrl_randomized import regret_proof
    T = len(y)
    S = np.cumsum(y[:, None] * X, axis=0) / 2
    norm_theta = np.concatenate([[0.0], np.linalg.norm(S, axis=1)])
    return regret_proof(T=T, y=y, p=p, norm_theta=norm_theta, gsq=(X * X).sum(axis=1) / 4, alpha=alpha,
                        mistakes=np.zeros(0, dtype=np.int64), cmargin=np.zeros(T), u_norm2=0.0,
                        comparator_info={})


def test_violations_are_reported_for_a_falsified_run():
    # a "learner" that always plays p_t = −y_t (the worst point of the ball) has regret ≈ t
    rng = np.random.default_rng(0)
    X = rng.normal(size=(200, 2))
    X /= np.linalg.norm(X, axis=1)[:, None]
    y = np.where(X[:, 0] >= 0, 1.0, -1.0)
    pr = _proof_for(X, y, -y * 1.0, SQ2)
    names = {v.name for v in pr.violations()}
    assert "regret ≤ bound_data" in names and "expected_mistakes ≤ mistake_bound" in names
    bad = [v for v in pr.violations() if v.name == "regret ≤ bound_data"]
    assert bad[0].round <= 3 and bad[0].lhs > bad[0].rhs
    # the real learner on the same stream: nothing fails
    assert run(X, y).proof.violations() == []


def test_tolerance_is_tight_where_the_bound_is_attained():
    # α = 2, ‖x_1‖ = 1: regret ½ equals the bound; playing p_1 slightly worse than 0 must be flagged
    X, y = np.array([[0.6, 0.8]]), np.array([1.0])
    assert _proof_for(X, y, np.array([0.0]), 2.0).violations() == []
    bad = _proof_for(X, y, np.array([-1e-7]), 2.0).violations()
    assert [(v.round, v.name) for v in bad][:1] == [(1, "regret ≤ bound_data")]


@pytest.mark.parametrize("v", [2.22507384e-316, 1e-310, 1e-200, 1e-160])
def test_the_best_comparator_stays_in_the_ball_on_tiny_data(v):
    """Hypothesis found X = [[2.2e-316, 2.2e-316]]: S_T/‖S_T‖ with a subnormal ‖S_T‖ lost bits and gave
    ‖u‖² > 1 + 1e-9, so the comparator assumption failed; the direction is now taken after scaling by max|S_T|."""
    X = np.array([[v, v]])
    tr = run(X, np.array([-1.0]), eta=SQ2, seed=0)
    assert tr.info["comparator_source"] == "best in hindsight"
    u = np.asarray(tr.info["comparator"])
    assert np.all(u < 0) and abs(float(np.sum(u * u)) - 1.0) <= 1e-12   # −x/‖x‖: y = −1
    assert tr.proof.failed_assumptions == [] and tr.proof.violations() == []
