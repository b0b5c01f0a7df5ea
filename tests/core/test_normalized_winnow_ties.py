"""Normalised Winnow decides ⟨w, x⟩ = 0 (a mistake for either label) as exact arithmetic does.

With ±1 features and η = ½ ln q (q rational: η = artanh δ for δ = 1/3 is ½ ln 2) every weight is
∝ (√q)^{k_i} with integer k_i, so exact ties are frequent; the reference learner below computes in
ℚ(√q) — numbers A + B√q with rational A, B — and the core must match it at every round."""
from __future__ import annotations

import math
from decimal import Decimal, localcontext
from fractions import Fraction

import numpy as np
import pytest

import olc_core


def _sign_a_plus_b_sqrt(A: Fraction, B: Fraction, q: Fraction) -> int:
    """sign(A + B√q), exactly."""
    if A >= 0 and B >= 0:
        return 1 if (A or B) else 0
    if A <= 0 and B <= 0:
        return -1
    d = A * A - q * B * B  # A and B of opposite signs: compare |A| with |B|√q
    s = (d > 0) - (d < 0)
    return s if A > 0 else -s


def exact_reference(X: np.ndarray, y: np.ndarray, q: Fraction) -> tuple[list[int], list[int]]:
    """[003] §2.2 with η = ½ ln q exactly, features in {−1, 0, 1}: w_i ∝ (√q)^{k_i},
    ⟨w, x⟩ ∝ A + B√q (even k_i in A, odd in B); mistake iff y·sign ≤ 0; then k_i += y x_i."""
    T, N = X.shape
    k = [0] * N
    mistakes, preds = [], []
    for t in range(T):
        A = B = Fraction(0)
        for i in range(N):
            xi = int(X[t, i])
            if xi and k[i] % 2 == 0:
                A += xi * q ** (k[i] // 2)
            elif xi:
                B += xi * q ** ((k[i] - 1) // 2)
        s = _sign_a_plus_b_sqrt(A, B, q)
        preds.append(s)
        if y[t] * s <= 0:
            mistakes.append(t)
            k = [k[i] + int(y[t]) * int(X[t, i]) for i in range(N)]
    return mistakes, preds


def literal_reference(X: np.ndarray, y: np.ndarray, eta: float) -> tuple[list[int], list[int]]:
    """The same with η the float read as a rational: e^η is transcendental (Lindemann), so the score
    Σ_k c_k e^{ηk} is 0 iff every c_k = Σ_{k_i=k} x_i is 0; otherwise its sign at 100 digits."""
    T, N = X.shape
    k = [0] * N
    mistakes, preds = [], []
    for t in range(T):
        c: dict[int, int] = {}
        for i in range(N):
            c[k[i]] = c.get(k[i], 0) + int(X[t, i])
        if all(v == 0 for v in c.values()):
            s = 0
        else:
            with localcontext() as ctx:
                ctx.prec = 100
                e = Decimal(eta)
                v = sum(Decimal(ci) * (e * kk).exp() for kk, ci in c.items())
            s = 1 if v > 0 else -1
        preds.append(s)
        if y[t] * s <= 0:
            mistakes.append(t)
            k = [k[i] + int(y[t]) * int(X[t, i]) for i in range(N)]
    return mistakes, preds


def _check(tr, mistakes, preds):
    assert tr.mistakes.tolist() == mistakes
    assert tr.predictions.tolist() == preds
    ties = np.flatnonzero(np.asarray(preds) == 0)
    assert np.all(tr.columns["score"][ties] == 0.0)  # a tie is recorded as exactly 0
    return ties.size


def test_hand_worked_tie_at_half_ln_2():
    # η = ½ ln 2, N = 6, x = (1,−1,−1,1,−1,−1) twice, y = +1.
    # round 0: ⟨w, x⟩ = (2 − 4)/6 < 0 → mistake; w ∝ (e^η, e^−η, e^−η, e^η, e^−η, e^−η) = (√2, 1/√2, …).
    # round 1: ⟨w, x⟩ ∝ 2√2 − 4/√2 = 2√2 − 2√2 = 0 → a tie: prediction 0, a mistake (y⟨w,x⟩ ≤ 0).
    X = np.array([[1, -1, -1, 1, -1, -1]] * 2, dtype=float)
    y = np.array([1, 1])
    for kw in ({"eta": 0.5 * math.log(2.0)}, {"delta": 1 / 3}):  # the default η for δ = 1/3 is ½ ln 2
        tr = olc_core.run("normalized_winnow", X, y, comparator=[.5, 0, 0, .5, 0, 0], **kw)
        assert tr.mistakes.tolist() == [0, 1]
        assert tr.predictions.tolist() == [-1, 0]
        assert tr.columns["score"][0] == pytest.approx(-1 / 3) and tr.columns["score"][1] == 0.0
        assert tr.info["eta_read_as"].startswith("½ ln 2")
        assert tr.columns["exact_decision"].tolist() == [False, True]
    # the weights after the two mistakes: ∝ (e^{2η}, e^{−2η}, …) = (2, ½, ½, 2, ½, ½), sum 6
    np.testing.assert_allclose(tr.weights_at(2), [1 / 3, 1 / 12, 1 / 12, 1 / 3, 1 / 12, 1 / 12], rtol=1e-14)


@pytest.mark.parametrize("k,q", [(3, Fraction(2)), (5, Fraction(3, 2))])
def test_default_eta_matches_exact_arithmetic_on_pm1_streams(k, q):
    """η = artanh(1/k) (the default for the stream's δ = 1/k) = ½ ln((k+1)/(k−1)), 150 streams each."""
    ties = 0
    for seed in range(150):
        N = k + 1 + seed % 9
        s = olc_core.streams.sparse_simplex(T=60, N=N, k=k, seed=seed)
        tr = olc_core.run("normalized_winnow", s.X, s.y, comparator=s.comparator, delta=1.0 / k)
        ties += _check(tr, *exact_reference(s.X, s.y, q))
    assert ties >= 50  # the streams do exercise ties
    assert tr.info["eta_read_as"].startswith(f"½ ln {q}")


@pytest.mark.parametrize("eta,q", [(0.5 * math.log(2.0), Fraction(2)), (math.log(2.0), Fraction(4)),
                                   (0.5 * math.log(3.0), Fraction(3)), (math.atanh(0.5), Fraction(3))])
def test_given_eta_of_the_form_half_ln_q(eta, q):
    ties = 0
    for seed in range(100):
        s = olc_core.streams.sparse_simplex(T=50, N=4 + seed % 7, k=3, seed=1000 + seed)
        tr = olc_core.run("normalized_winnow", s.X, s.y, comparator=s.comparator, eta=eta)
        ties += _check(tr, *exact_reference(s.X, s.y, q))
    assert ties >= 20


@pytest.mark.parametrize("eta", [0.3, 0.5, 1.0])
def test_other_eta_is_the_float_read_exactly(eta):
    ties = 0
    for seed in range(60):
        s = olc_core.streams.sparse_simplex(T=50, N=4 + seed % 7, k=3, seed=2000 + seed)
        tr = olc_core.run("normalized_winnow", s.X, s.y, comparator=s.comparator, eta=eta)
        ties += _check(tr, *literal_reference(s.X, s.y, eta))
    assert ties >= 10
    assert tr.info["eta_read_as"].startswith(repr(eta))


def test_real_features_tie_through_equal_exponents():
    # η = 0.2 (read as the rational float). Feature 0 gets exponent 0.5 + 0.25 over two mistakes, feature 1
    # gets 0.75 in one: equal, so x = (1, −1, 0, 0) is an exact tie at round 2 — but floats reach the two
    # log weights by different roundings (they differ by 2.2e-16), and the float score is not 0.
    # round 0: ⟨w,x⟩ = (0.5 − 2)/4 < 0, mistake; round 1: ∝ 0.25e^{0.1} + 0.75 − 2e^{−0.2} < 0, mistake.
    X = np.array([[0.5, 0.0, -1.0, -1.0], [0.25, 0.75, -1.0, -1.0], [1.0, -1.0, 0.0, 0.0]])
    y = np.array([1, 1, 1])
    tr = olc_core.run("normalized_winnow", X, y, comparator=[.5, .5, 0, 0], eta=0.2)
    lw = tr.log_weights_at(2)
    assert lw[0] != lw[1]  # the float state cannot see the tie
    assert tr.mistakes.tolist() == [0, 1, 2]
    assert tr.predictions.tolist() == [-1, -1, 0]
    assert tr.columns["score"][2] == 0.0 and tr.columns["exact_decision"][2]
