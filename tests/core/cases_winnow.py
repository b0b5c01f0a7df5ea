"""Conformance cases for Littlestone's Winnow and normalised Winnow, with plain-Python replays
written straight from the notes ([000] Algorithm 4, [003] §2.2)."""
from __future__ import annotations

import math
from fractions import Fraction

import numpy as np

import olc_core
from olc_core.streams.winnow_extra import simplex_continuous
from tests.core.cases import Case, NaiveRun


def _log_fraction(w: Fraction) -> float:
    return math.log(w.numerator) - math.log(w.denominator)


def naive_winnow(X, y, params):
    """[000] Algorithm 4 in exact rational arithmetic: w = 1; ŷ = 1[w·x > N]; w_i ← w_i (1+β)^{(y−ŷ)x_i}.

    Returns the natural logs of the weights (compare with ``log_weights_at``)."""
    T, N = X.shape
    base = 1 + Fraction(float(params.get("beta", 1.0)))
    w = [Fraction(1)] * N
    weights, mistakes, preds = [np.zeros(N)], [], []
    for t in range(T):
        s = Fraction(0)
        for i in range(N):
            if X[t, i]:
                s += w[i]
        yhat = 1 if s > N else 0
        preds.append(float(yhat))
        if yhat != int(y[t]):
            mistakes.append(t)
            factor = base if y[t] == 1 else 1 / base
            w = [w[i] * factor if X[t, i] else w[i] for i in range(N)]
        weights.append(np.array([_log_fraction(v) for v in w]))
    return NaiveRun(mistakes, weights, preds)


def naive_normalized_winnow(X, y, params):
    """[003] §2.2 in plain floats: w = 1/N; mistake iff y(w·x) ≤ 0; then w_i ← w_i e^{η y x_i} / Z.

    η: the given one, or ½ln((1+δ)/(1−δ)) with δ the given one or min_t y_t⟨u, x_t⟩."""
    T, N = X.shape
    eta = params.get("eta")
    if eta is None:
        delta = params.get("delta")
        if delta is None:
            u = [float(v) for v in params["comparator"]]
            su = sum(u)
            u = [v / su for v in u]
            delta = min(y[t] * sum(u[i] * X[t, i] for i in range(N)) for t in range(T))
        eta = 0.5 * math.log((1 + delta) / (1 - delta))
    w = [1.0 / N] * N
    weights, mistakes, preds = [np.log(np.array(w))], [], []
    for t in range(T):
        s = sum(w[i] * X[t, i] for i in range(N))
        preds.append(float(np.sign(s)))
        if y[t] * s <= 0:
            mistakes.append(t)
            w = [w[i] * math.exp(eta * y[t] * X[t, i]) for i in range(N)]
            Z = sum(w)
            w = [v / Z for v in w]
        weights.append(np.log(np.array(w)))
    return NaiveRun(mistakes, weights, preds)


def _winnow_planted(seed):
    s = olc_core.streams.sparse_disjunction(T=120, N=16, k=2, seed=seed)
    return s.X, s.y, {"beta": 1.0, "comparator": s.comparator}


def _winnow_auto(seed):
    s = olc_core.streams.sparse_disjunction(T=100, N=10, k=3, seed=seed)
    return s.X, s.y, {"beta": 0.5}


def _winnow_ties(seed):
    # β = 1 and N = 8: sums of powers of two hit the threshold N exactly on many rounds
    s = olc_core.streams.sparse_disjunction(T=150, N=8, k=2, seed=seed, p_on=0.45)
    return s.X, s.y, {"beta": 1.0, "comparator": s.comparator}


def _winnow_beta3(seed):
    s = olc_core.streams.sparse_disjunction(T=100, N=12, k=2, seed=seed + 10)
    return s.X, s.y, {"beta": 3.0, "comparator": s.comparator}


def _nw_continuous(seed):
    s = simplex_continuous(T=150, N=10, k=2, delta=0.15, seed=seed)
    return s.X, s.y, {"comparator": s.comparator}


def _nw_pm1(seed):
    s = olc_core.streams.sparse_simplex(T=150, N=11, k=3, seed=seed)
    return s.X, s.y, {"comparator": s.comparator, "eta": 0.3, "delta": 1.0 / 3.0}


def _nw_auto(seed):
    s = simplex_continuous(T=80, N=6, k=1, delta=0.3, seed=seed + 20)
    return s.X, s.y, {"eta": 0.4}


CASES = [
    Case("winnow-planted", "winnow", _winnow_planted, naive_winnow, conservative=True, log_weights=True,
         exact=False),
    Case("winnow-auto-comparator", "winnow", _winnow_auto, naive_winnow, conservative=True, log_weights=True,
         exact=False),
    Case("winnow-ties-beta1", "winnow", _winnow_ties, naive_winnow, conservative=True, log_weights=True,
         exact=False),
    Case("winnow-beta3", "winnow", _winnow_beta3, naive_winnow, conservative=True, log_weights=True,
         exact=False),
    Case("normalized-winnow-continuous", "normalized_winnow", _nw_continuous, naive_normalized_winnow,
         conservative=True, log_weights=True, exact=False),
    Case("normalized-winnow-pm1", "normalized_winnow", _nw_pm1, naive_normalized_winnow, conservative=True,
         log_weights=True, exact=False),
    Case("normalized-winnow-auto-comparator", "normalized_winnow", _nw_auto, naive_normalized_winnow,
         conservative=True, log_weights=True, exact=False),
]
