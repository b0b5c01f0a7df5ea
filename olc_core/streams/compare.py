"""One stream, three learners: 0/1 instances labelled by a monotone disjunction, and each
learner's view of the same examples (for the compare page: Perceptron vs Winnow vs the
exponentiated update, [001], [003], [004]).

The examples are ``x_t ∈ {0, 1}^N`` labelled ``y_t = 1`` iff some relevant variable is on.

* Winnow reads them as they are (0/1 features, 0/1 labels, the relevant variables).
* The Perceptron and the exponentiated update read ``x̃_t = (x_t, −1)`` (a constant feature
  −1 is the threshold) with labels ``±1``. The direction ``v = (2·1_rel, 1)`` separates them:
  ``⟨v, x̃⟩ = 2·#(relevant on) − 1`` is ≥ 1 on a positive example and −1 on a negative one.
  Normalised in ℓ₂ it is the Perceptron's ``w* = v/√(4k+1)``, margin ``γ = 1/√(4k+1)``;
  normalised in ℓ₁ it is the exponentiated update's ``u = v/(2k+1)`` (u ≥ 0, Σu = 1),
  margin ``δ = 1/(2k+1)``. Nothing else changes between the learners.

Two kinds of instances ([Kivinen–Warmuth–Auer 1997] set them against each other):

* :func:`dense_instances`: each bit on with probability ``1 − 2^{−1/k}`` (about half the
  labels positive): about ``N ln 2 / k`` bits on, so the Perceptron's R² grows with N while
  Winnow's bound grows with k log N (a sparse target);
* :func:`sparse_instances`: exactly ``ones`` bits on per example, a target of many relevant
  variables (a dense target): R² = ones + 1 stays small, the Perceptron's bound 4k + 1 …

>>> s = sparse_instances(T=6, N=5, k=3, ones=1, seed=0)
>>> v = views(s)
>>> v["perceptron"].X.shape, v["winnow"].X.shape, sorted(v)
((6, 6), (6, 5), ['normalized_winnow', 'perceptron', 'winnow'])
>>> import numpy as np
>>> g = v["perceptron"].y * (v["perceptron"].X @ v["perceptron"].comparator)
>>> bool(np.allclose(g.min(), 1 / np.sqrt(13)))
True
>>> d = v["normalized_winnow"].y * (v["normalized_winnow"].X @ v["normalized_winnow"].comparator)
>>> bool(np.allclose(d.min(), 1 / 7)), float(v["normalized_winnow"].comparator.sum())
(True, 1.0)
"""
from __future__ import annotations

import math

import numpy as np

from ._draws import fill_below
from .base import Stream

__all__ = ["dense_instances", "sparse_instances", "views"]


def _check(cond: bool, msg: str) -> None:
    if not cond:
        raise ValueError(msg)


def _ints(T, N, k) -> tuple[int, int, int]:
    _check(isinstance(N, (int, np.integer)) and N >= 1, f"N must be an integer ≥ 1 (got {N!r})")
    _check(isinstance(k, (int, np.integer)) and 1 <= k <= N, f"k must be an integer in [1, N] (got {k!r})")
    _check(isinstance(T, (int, np.integer)) and T >= 1, f"T must be an integer ≥ 1 (got {T!r})")
    return int(T), int(N), int(k)


def _label(X: np.ndarray, relevant: np.ndarray, info: dict) -> Stream:
    y = X[:, relevant].max(axis=1).astype(np.float64)
    return Stream(X, y, relevant, info)


def dense_instances(T: int, N: int, k: int, seed: int = 0) -> Stream:
    """0/1 instances, each bit on with probability ``1 − 2^{−1/k}``, labelled by a disjunction of
    ``k`` of the ``N`` variables (drawn with the seed). ``comparator``: the relevant variables.

    >>> s = dense_instances(T=200, N=40, k=2, seed=1)
    >>> s.X.dtype.name, s.info["kind"], 0.3 < float(s.y.mean()) < 0.7
    ('uint8', 'dense instances', True)
    """
    T, N, k = _ints(T, N, k)
    rng = np.random.default_rng([seed, 14, 1])
    relevant = np.sort(rng.choice(N, size=k, replace=False))
    p = 1.0 - 2.0 ** (-1.0 / k)
    X = np.empty((T, N), dtype=np.uint8)
    fill_below(rng, p, X)  # (rng.random((T, N)) < p) as uint8, drawn in blocks (same numbers)
    return _label(X, relevant, {"kind": "dense instances", "N": N, "k": k, "p_on": p, "seed": seed})


def sparse_instances(T: int, N: int, k: int, ones: int = 1, seed: int = 0) -> Stream:
    """0/1 instances with exactly ``ones`` bits on (chosen uniformly), labelled by a disjunction of
    ``k`` of the ``N`` variables. ``comparator``: the relevant variables.

    >>> s = sparse_instances(T=50, N=8, k=4, ones=2, seed=3)
    >>> sorted(set(s.X.sum(axis=1).tolist())), s.info["kind"]
    ([2], 'sparse instances')
    """
    T, N, k = _ints(T, N, k)
    _check(isinstance(ones, (int, np.integer)) and 1 <= ones <= N,
           f"ones must be an integer in [1, N] (got {ones!r})")
    rng = np.random.default_rng([seed, 14, 2])
    relevant = np.sort(rng.choice(N, size=k, replace=False))
    X = np.zeros((T, N), dtype=np.uint8)
    if ones == 1:
        X[np.arange(T), rng.integers(N, size=T)] = 1
    else:
        cols = np.argsort(rng.random((T, N)), axis=1)[:, :ones]
        X[np.arange(T)[:, None], cols] = 1
    return _label(X, relevant, {"kind": "sparse instances", "N": N, "k": k, "ones": int(ones), "seed": seed})


def views(stream: Stream) -> dict[str, Stream]:
    """Each learner's reading of the same examples (see the module's docstring): ``X``, ``y``,
    ``comparator`` and ``info`` (``gamma`` or ``delta`` of the planted comparator)."""
    X01 = np.asarray(stream.X)
    y01 = np.asarray(stream.y, dtype=np.float64)
    rel = np.asarray(stream.comparator, dtype=np.int64)
    T, N = X01.shape
    k = rel.size
    Xt = np.empty((T, N + 1), dtype=np.float64)
    Xt[:, :N] = X01
    Xt[:, N] = -1.0
    ypm = np.where(y01 > 0, 1.0, -1.0)
    v = np.zeros(N + 1)
    v[rel] = 2.0
    v[N] = 1.0
    info = dict(stream.info)
    return {
        "perceptron": Stream(Xt, ypm, v / math.sqrt(4 * k + 1), {**info, "gamma": 1.0 / math.sqrt(4 * k + 1)}),
        "winnow": Stream(X01, y01, rel, info),
        "normalized_winnow": Stream(Xt, ypm, v / (2 * k + 1), {**info, "delta": 1.0 / (2 * k + 1)}),
    }
