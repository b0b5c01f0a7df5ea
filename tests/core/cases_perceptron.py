"""Conformance cases for the Perceptron (both engines) with a plain-loop replay."""
from __future__ import annotations

import numpy as np

import olc_core
from olc_core import _accel
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
if _accel.available():
    CASES.append(Case("perceptron-numba", "perceptron", lambda s: _make(s, "numba"), naive_perceptron,
                      conservative=True))
