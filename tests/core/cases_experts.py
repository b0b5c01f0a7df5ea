"""Conformance cases for Weighted Majority, Randomised Weighted Majority and Halving.

The naive replays are written straight from the notes with exact rational
weights (fractions.Fraction): no log space, no scaling, no exact-tie machinery —
so they check the fast learners' arithmetic, tie rule and update variants
independently. Log weights are compared (``log_weights=True``).
"""
from __future__ import annotations

import math
from fractions import Fraction

import numpy as np

from olc_core.hypotheses import MonotoneConjunctions, Thresholds
from olc_core.streams.experts import adversary, experts, target_concept
from tests.core.cases import Case, NaiveRun


def _log(w: Fraction) -> float:
    if w == 0:
        return -math.inf
    f = float(w)
    if f > 1e-300:
        return math.log(f)
    return math.log(w.numerator) - math.log(w.denominator)  # tiny weights: big integers, no underflow


def _beta(params, default=0.5) -> Fraction:
    if params.get("beta") is not None:
        return Fraction(params["beta"])
    if params.get("eta") is not None:
        return Fraction(1.0 - params["eta"])  # the learner's β is the float 1 − η
    return Fraction(1.0 - default)


def _says_plus(v) -> bool:
    return v > 0  # advice +1 (or 1 in 0/1 advice)


def naive_weighted_majority(X, y, params):
    """[001]: w = 1; ŷ = +1 iff Σ_{a=+1} w ≥ Σ_{a=−1} w; wrong experts' w ← βw (every round [000] or on mistakes)."""
    beta = _beta(params)
    every = params.get("update", "on_mistake") == "every_round"
    T, N = X.shape
    w = [Fraction(1)] * N
    weights, mistakes, preds = [[0.0] * N], [], []
    for t in range(T):
        plus = sum((w[i] for i in range(N) if _says_plus(X[t, i])), Fraction(0))
        minus = sum((w[i] for i in range(N) if not _says_plus(X[t, i])), Fraction(0))
        yhat = 1 if plus >= minus else -1
        preds.append(float(yhat))
        if yhat != y[t]:
            mistakes.append(t)
        if every or yhat != y[t]:
            w = [w[i] * beta if (1 if _says_plus(X[t, i]) else -1) != y[t] else w[i] for i in range(N)]
        weights.append([_log(v) for v in w])
    return NaiveRun(mistakes, weights, preds)


def naive_rwm(X, y, params):
    """[000]: draw I with P(I = i) = w_i/Φ (U_t·Φ inside expert i's interval), predict its advice,
    then w_i ← w_i(1 − η) for every wrong expert."""
    beta = _beta(params)
    U = np.random.default_rng(params.get("seed", 0)).random(len(y))
    T, N = X.shape
    w = [Fraction(1)] * N
    weights, mistakes, preds = [[0.0] * N], [], []
    for t in range(T):
        phi = sum(w, Fraction(0))
        target = Fraction(float(U[t])) * phi
        acc, chosen = Fraction(0), None
        for i in range(N):
            acc += w[i]
            if target < acc:
                chosen = i
                break
        yhat = (1 if _says_plus(X[t, chosen]) else -1) if chosen is not None else 1
        preds.append(float(yhat))
        if yhat != y[t]:
            mistakes.append(t)
        w = [w[i] * beta if (1 if _says_plus(X[t, i]) else -1) != y[t] else w[i] for i in range(N)]
        weights.append([_log(v) for v in w])
    return NaiveRun(mistakes, weights, preds)


def _halving(labels_of, T, H, y, every):
    alive = list(range(H))
    weights, mistakes, preds = [[1.0] * H], [], []
    for t in range(T):
        lab = {h: labels_of(t, h) for h in alive}
        plus = sum(1 for h in alive if lab[h] == 1)
        yhat = 1 if plus >= len(alive) - plus else -1
        preds.append(float(yhat))
        if yhat != y[t]:
            mistakes.append(t)
        if every or yhat != y[t]:
            alive = [h for h in alive if lab[h] == y[t]]
        weights.append([1.0 if h in alive else 0.0 for h in range(H)])
    return NaiveRun(mistakes, weights, preds)


def naive_halving(X, y, params):
    """[001]: predict the majority of the version space (ties +1); on a mistake keep the consistent hypotheses."""
    every = params.get("update", "on_mistake") == "every_round"
    hyp = params.get("hypotheses")
    T = len(y)
    if hyp is None:
        return _halving(lambda t, h: 1 if X[t, h] > 0 else -1, T, X.shape[1], y, every)
    if isinstance(hyp, Thresholds):
        th = list(hyp.thresholds)
        return _halving(lambda t, h: 1 if X[t, 0] >= th[h] else -1, T, len(th), y, every)
    if isinstance(hyp, MonotoneConjunctions):
        n = hyp.n
        return _halving(lambda t, h: 1 if all(X[t, j] == 1 for j in range(n) if (h >> j) & 1) else -1,
                        T, 1 << n, y, every)
    raise NotImplementedError(type(hyp))


# ---------------------------------------------------------------------------- streams
def _wm_stream(seed, update, beta=None, eta=None, zero_one=False):
    rates = [0.05, 0.1, 0.2, 0.3, 0.4, 0.45, 0.5]
    s = experts(T=60, N=7, error_rates=rates, seed=seed)
    X = s.X.astype(np.float64)
    if zero_one:
        X = (X > 0).astype(np.float64)
    params = {"update": update}
    if beta is not None:
        params["beta"] = beta
    if eta is not None:
        params["eta"] = eta
    return X, s.y, params


def _wm_perfect(seed):
    s = experts(T=40, N=8, error_rates=[0.0, 0.3, 0.4, 0.5, 0.5, 0.6, 0.2, 0.45], seed=seed)
    return s.X.astype(np.float64), s.y, {"beta": 0.0, "update": "on_mistake"}


def _wm_adversary(seed):
    s = adversary(T=40, N=6, beta=0.6, seed=seed)
    return s.X.astype(np.float64), s.y, {"beta": 0.6, "update": "every_round"}


def _rwm_stream(seed, eta):
    s = experts(T=50, N=6, error_rates=[0.1, 0.2, 0.3, 0.4, 0.5, 0.6], seed=seed)
    return s.X.astype(np.float64), s.y, {"eta": eta, "seed": 17 + seed}


def _halving_matrix(seed, update):
    s = experts(T=50, N=16, error_rates=[0.0] + [0.5] * 15, seed=seed)
    return s.X.astype(np.float64), s.y, {"update": update}


def _halving_thresholds(seed):
    H = Thresholds.grid(16)
    s = target_concept(H, T=40, seed=seed)
    return s.X, s.y, {"hypotheses": H, "update": "on_mistake"}


def _halving_conj(seed):
    H = MonotoneConjunctions(4)
    s = target_concept(H, T=40, seed=seed)
    return s.X, s.y, {"hypotheses": H, "update": "every_round"}


CASES = [
    Case("wm-on-mistake", "weighted_majority", lambda s: _wm_stream(s, "on_mistake", beta=0.5),
         naive_weighted_majority, conservative=True, log_weights=True, exact=False),
    Case("wm-every-round-01-advice", "weighted_majority",
         lambda s: _wm_stream(s, "every_round", eta=0.3, zero_one=True),
         naive_weighted_majority, conservative=False, log_weights=True, exact=False),
    Case("wm-beta0-perfect-expert", "weighted_majority", _wm_perfect, naive_weighted_majority,
         conservative=True, log_weights=True, exact=False),
    Case("wm-adversary", "weighted_majority", _wm_adversary, naive_weighted_majority,
         conservative=False, log_weights=True, exact=False),
    Case("rwm-eta0.4", "randomized_weighted_majority", lambda s: _rwm_stream(s, 0.4), naive_rwm,
         conservative=False, log_weights=True, exact=False),
    Case("rwm-eta0.8", "randomized_weighted_majority", lambda s: _rwm_stream(s, 0.8), naive_rwm,
         conservative=False, log_weights=True, exact=False),
    Case("halving-matrix-on-mistake", "halving", lambda s: _halving_matrix(s, "on_mistake"), naive_halving,
         conservative=True),
    Case("halving-matrix-every-round", "halving", lambda s: _halving_matrix(s, "every_round"), naive_halving,
         conservative=False),
    Case("halving-thresholds", "halving", _halving_thresholds, naive_halving, conservative=True),
    Case("halving-conjunctions", "halving", _halving_conj, naive_halving, conservative=False),
]
