"""Conformance cases for the Perceptron (both engines) with a plain-loop replay."""
from __future__ import annotations

import numpy as np

import olc_core
from olc_core._kernels import engine as kernel_engine
from tests.core.cases import Case, NaiveRun


def naive_perceptron(X, y, params):
    """Straight from the notes: w = 0; mistake iff y<w,x> <= 0; then w += y x.
    The dot product is summed left to right, as the engines do."""
    T, d = X.shape
    w = [0.0] * d
    weights, mistakes, preds = [np.array(w)], [], []
    for t in range(T):
        s = 0.0
        for j in range(d):
            s += X[t, j] * w[j]
        preds.append(float(np.sign(s)))
        if y[t] * s <= 0:
            mistakes.append(t)
            w = [w[j] + y[t] * X[t, j] for j in range(d)]
        weights.append(np.array(w))
    return NaiveRun(mistakes, weights, preds)


def _make(seed, engine):
    s = olc_core.streams.separable(T=60, d=3, gamma=0.1, radius=1.5, seed=seed)
    return s.X, s.y, {"comparator": s.comparator, "engine": engine}


def _make_auto_comparator(seed):
    s = olc_core.streams.separable(T=40, d=2, gamma=0.2, radius=1.0, seed=seed)
    return s.X, s.y, {"engine": "numpy"}


CASES = [
    Case("perceptron-numpy", "perceptron", lambda s: _make(s, "numpy"), naive_perceptron, conservative=True),
    Case("perceptron-maxmargin", "perceptron", _make_auto_comparator, naive_perceptron, conservative=True),
]
if kernel_engine.available():
    CASES.append(Case("perceptron-numba", "perceptron", lambda s: _make(s, "numba"), naive_perceptron,
                      conservative=True))


def naive_margin_perceptron(X, y, params):
    """[004] §1.1 as a plain loop over passes: normalise, w_1 = y_1 x_1, update iff y·s < γ/2."""
    n, d = X.shape
    Xh = []
    for t in range(n):
        ss = 0.0
        for j in range(d):
            ss += X[t, j] * X[t, j]
        Xh.append([X[t, j] / np.sqrt(ss) for j in range(d)])
    gamma = params["gamma"]
    w = [y[0] * v for v in Xh[0]]
    weights, mistakes = [np.zeros(d), np.array(w)], [0]
    t = 1
    first = True
    passes = params.get("passes", 1)
    done = 0
    while True:
        updates = 1 if first else 0
        for i in range(1 if first else 0, n):
            nw = 0.0
            for j in range(d):
                nw += w[j] * w[j]
            nw = np.sqrt(nw)
            dot = 0.0
            for j in range(d):
                dot += Xh[i][j] * w[j]
            s = dot / nw if nw > 0 else 0.0
            if y[i] * s < gamma / 2:
                w = [w[j] + y[i] * Xh[i][j] for j in range(d)]
                mistakes.append(t)
                updates += 1
            weights.append(np.array(w))
            t += 1
        first = False
        done += 1
        if (passes is not None and done >= passes) or updates == 0:
            break
    return NaiveRun(mistakes, weights)


def _make_margin(seed):
    s = olc_core.streams.separable(T=25, d=2, gamma=0.15, radius=1.0, seed=seed)
    return s.X, s.y, {"gamma": 0.15, "comparator": s.comparator, "passes": None}


def _make_margin_one_pass(seed):
    s = olc_core.streams.separable(T=40, d=3, gamma=0.2, radius=2.0, seed=seed)
    return s.X, s.y, {"gamma": 0.1, "comparator": s.comparator}


CASES += [
    Case("margin-perceptron-until-no-update", "margin_perceptron", _make_margin, naive_margin_perceptron,
         conservative=True, extra={"passes": True}),
    Case("margin-perceptron-one-pass", "margin_perceptron", _make_margin_one_pass, naive_margin_perceptron,
         conservative=True),
]
