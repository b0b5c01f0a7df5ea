"""Conformance cases for the randomised FTRL linear classifier [002], with a plain-Python replay.

The naive learner is written straight from the formulas, not from the engine's
arithmetic: ``w_{t+1} = Π_V(α θ_t/√t)`` with ``‖v‖ = sqrt(Σ v_j²)`` and ``v/‖v‖``
when outside the ball, so weights agree to rounding (``exact=False``). The
random predictions use the documented draw: ``U = default_rng(seed).random(T)``,
``ŷ_t = +1`` iff ``U_t < (1 + p_t)/2``.
"""
from __future__ import annotations

import math

import numpy as np

from tests.core.cases import Case, NaiveRun


def naive_ftrl(X, y, params, *, return_p=False):
    """FTRL over the unit ball with regulariser √t‖w‖²/(2α) for w_{t+1}, linear losses (1 − y⟨w,x⟩)/2."""
    alpha = float(params.get("eta", math.sqrt(2.0)))
    seed = int(params.get("seed", 0))
    T, d = len(X), len(X[0])
    U = np.random.default_rng(seed).random(T).tolist()
    theta = [0.0] * d
    w = [0.0] * d
    weights, mistakes, preds, ps = [list(w)], [], [], []
    for t in range(T):
        x = [float(v) for v in X[t]]
        p = sum(w[j] * x[j] for j in range(d))
        ps.append(p)
        yhat = 1.0 if U[t] < (1.0 + p) / 2.0 else -1.0
        preds.append(yhat)
        if yhat != y[t]:
            mistakes.append(t)
        theta = [theta[j] + y[t] * x[j] / 2.0 for j in range(d)]     # θ_t = Σ_{s≤t} y_s x_s / 2
        scale = alpha / math.sqrt(t + 1)                               # t + 1 rounds seen
        v = [scale * th for th in theta]
        n = math.sqrt(sum(c * c for c in v))
        w = [c / n for c in v] if n > 1.0 else v
        weights.append(list(w))
    run = NaiveRun(mistakes, [np.array(v) for v in weights], preds)
    return (run, ps) if return_p else run


def _unit_ball_stream(seed, T=80, d=3):
    """A noisy linearly-separable-ish stream inside the unit ball."""
    rng = np.random.default_rng(1000 + seed)
    X = rng.normal(size=(T, d))
    X /= np.maximum(1.0, np.linalg.norm(X, axis=1))[:, None] * rng.uniform(1.0, 2.0, size=(T, 1))
    u = np.ones(d) / math.sqrt(d)
    y = np.where(X @ u >= 0, 1.0, -1.0)
    flip = rng.random(T) < 0.1
    y[flip] = -y[flip]
    return X, y


def _make(seed):
    X, y = _unit_ball_stream(seed)
    return X, y, {"seed": 7 + seed}


def _make_comparator(seed):
    X, y = _unit_ball_stream(seed, T=50, d=2)
    return X, y, {"eta": 0.5, "seed": seed, "comparator": np.array([0.6, -0.8])}


CASES = [
    Case("ftrl-default", "ftrl_randomized", _make, naive_ftrl, conservative=False, exact=False),
    Case("ftrl-comparator", "ftrl_randomized", _make_comparator, naive_ftrl, conservative=False, exact=False),
]
