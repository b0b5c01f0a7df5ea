"""Streams for the linear learners: separable with a margin, label noise, sparse
disjunctions (Winnow), ±1 features with a sparse non-negative u (exponentiated
update), and the tight Perceptron instance.

>>> s = separable(T=500, d=3, gamma=0.2, radius=2.0, seed=1)
>>> import numpy as np
>>> m = s.y * (s.X @ s.comparator)
>>> bool(abs(m.min() - 0.2) < 1e-12), bool(abs(np.linalg.norm(s.X, axis=1).max() - 2.0) < 1e-12)
(True, True)
>>> t = tight_perceptron(4)
>>> t.X.tolist()[1], t.info["gamma"]
([0.0, 1.0, 0.0, 0.0], 0.5)
"""
from __future__ import annotations

import math

import numpy as np

from ._draws import fill_below, fill_signs
from .base import Stream, reorder

__all__ = ["separable", "noisy", "sparse_disjunction", "sparse_simplex", "tight_perceptron"]


def _check(cond: bool, msg: str) -> None:
    if not cond:
        raise ValueError(msg)


def _unit(rng: np.random.Generator, d: int) -> np.ndarray:
    v = rng.standard_normal(d)
    n = np.linalg.norm(v)
    while n == 0.0:  # pragma: no cover - probability 0
        v = rng.standard_normal(d)
        n = np.linalg.norm(v)
    return v / n


def _ball(rng: np.random.Generator, n: int, d: int, R: float) -> np.ndarray:
    g = rng.standard_normal((n, d))
    g /= np.linalg.norm(g, axis=1, keepdims=True)
    return g * (R * rng.random(n) ** (1.0 / d))[:, None]


def separable(T: int, d: int, gamma: float, radius: float = 1.0, seed: int = 0, *, noise: float = 0.0,
              order: str = "generated") -> Stream:
    """``T`` points in the ball of radius ``radius`` in ``d`` dimensions, labelled by a planted unit w*,
    none closer to its hyperplane than ``gamma``.

    Points are uniform in the ball minus the band ``|⟨w*, x⟩| < γ`` (rejection
    sampling; when the band holds most of the ball, the component along w* is
    drawn uniformly in ``[γ, R]`` instead). One point is moved to margin exactly γ
    and one to norm exactly R, so the measured margin and radius are the ones
    asked for. ``noise`` flips each label with that probability (``info["flipped"]``);
    ``order`` is "generated", "margin" (hardest first) or "random".
    """
    _check(isinstance(T, (int, np.integer)) and T >= 1, f"T must be an integer ≥ 1 (got {T!r})")
    _check(isinstance(d, (int, np.integer)) and d >= 1, f"d must be an integer ≥ 1 (got {d!r})")
    _check(radius > 0 and math.isfinite(radius), f"radius must be > 0 (got {radius!r})")
    _check(0 < gamma < radius, f"gamma must be in (0, radius) = (0, {radius:g}) (got {gamma!r})")
    _check(0.0 <= noise <= 1.0, f"noise must be in [0, 1] (got {noise!r})")
    rng = np.random.default_rng([seed, 1])
    T, d = int(T), int(d)
    R = float(radius)
    w = _unit(rng, d)
    # acceptance rate of the band rejection, estimated on a pilot sample
    pilot = _ball(rng, 2000, d, R) @ w
    acc = float(np.mean(np.abs(pilot) >= gamma))
    if acc >= 0.05 or d == 1:
        chunks, have = [], 0
        while have < T:
            n = int((T - have) / max(acc, 0.05) * 1.2) + 16
            P = _ball(rng, n, d, R)
            P = P[np.abs(P @ w) >= gamma]
            chunks.append(P)
            have += len(P)
        X = np.concatenate(chunks)[:T]
    else:
        t = rng.uniform(gamma, R, T) * rng.choice([-1.0, 1.0], T)
        G = rng.standard_normal((T, d))
        G -= np.outer(G @ w, w)
        G /= np.linalg.norm(G, axis=1, keepdims=True)
        r = np.sqrt(np.maximum(R * R - t * t, 0.0)) * rng.random(T) ** (1.0 / (d - 1))
        X = t[:, None] * w + G * r[:, None]
    X = np.ascontiguousarray(X)
    # pin the margin and the radius
    i0 = int(rng.integers(T))
    proj = X[i0] @ w
    X[i0] += (math.copysign(gamma, proj) - proj) * w
    if T > 1:
        i1 = int(rng.integers(T - 1))
        i1 = i1 + (i1 >= i0)
        X[i1] *= R / np.linalg.norm(X[i1])
    elif np.linalg.norm(X[i0]) > R:  # pragma: no cover
        X[i0] *= R / np.linalg.norm(X[i0])
    m = X @ w
    y = np.where(m > 0, 1.0, -1.0)
    flipped = rng.random(T) < noise if noise > 0 else np.zeros(T, dtype=bool)
    y[flipped] *= -1.0
    info = {"kind": "separable" if noise == 0 else "noisy", "gamma": float(gamma), "radius": R, "d": d,
            "noise": float(noise), "seed": seed, "margins": y * m, "flipped": flipped, "order": "generated"}
    return reorder(Stream(X, y, w, info), order, seed)


def noisy(T: int, d: int, gamma: float, noise: float, radius: float = 1.0, seed: int = 0, *,
          order: str = "generated") -> Stream:
    """:func:`separable` with each label flipped with probability ``noise``."""
    return separable(T, d, gamma, radius, seed, noise=noise, order=order)


def tight_perceptron(d: int) -> Stream:
    """``x_t = e_t`` (t = 1 … d), ``y_t = +1``, ``w* = (1, …, 1)/√d``: γ = 1/√d, R = 1,
    and the Perceptron errs on every round, so M = d = R²/γ² (the bound is attained)."""
    _check(isinstance(d, (int, np.integer)) and d >= 1, f"d must be an integer ≥ 1 (got {d!r})")
    d = int(d)
    X = np.eye(d)
    y = np.ones(d)
    w = np.full(d, 1.0 / math.sqrt(d))
    return Stream(X, y, w, {"kind": "tight", "gamma": 1.0 / math.sqrt(d), "radius": 1.0, "d": d,
                            "margins": y * (X @ w), "order": "generated"})


def _buffer(out: np.ndarray, n: int) -> np.ndarray:
    _check(isinstance(out, np.ndarray) and out.dtype == np.float64 and out.flags.c_contiguous and out.size >= n,
           f"out must be a C-contiguous float64 array of at least {n} entries")
    return out.reshape(-1)[:n]


def sparse_disjunction(T: int, N: int, k: int, seed: int = 0, *, p_on: float | None = None,
                       noise: float = 0.0, dtype=np.float64) -> Stream:
    """0/1 examples labelled by a monotone disjunction of ``k`` of the ``N`` variables (Winnow).

    Each bit is on with probability ``p_on`` (default ``1 − 2^{-1/k}``, so about
    half the examples are positive). ``comparator`` is the sorted array of the
    relevant variables; ``noise`` flips labels. ``dtype`` is X's dtype (``np.uint8``
    keeps a T = N = 10⁴ stream at 100 MB instead of 800 MB); the rows are drawn in
    blocks, so every dtype gives the same stream.

    >>> a = sparse_disjunction(T=50, N=7, k=2, seed=4)
    >>> b = sparse_disjunction(T=50, N=7, k=2, seed=4, dtype=np.uint8)
    >>> b.X.dtype.name, bool((a.X == b.X).all()), bool((a.y == b.y).all())
    ('uint8', True, True)
    """
    _check(isinstance(N, (int, np.integer)) and N >= 1, f"N must be an integer ≥ 1 (got {N!r})")
    _check(isinstance(k, (int, np.integer)) and 1 <= k <= N, f"k must be an integer in [1, N] (got {k!r})")
    _check(isinstance(T, (int, np.integer)) and T >= 1, f"T must be an integer ≥ 1 (got {T!r})")
    _check(0.0 <= noise <= 1.0, f"noise must be in [0, 1] (got {noise!r})")
    rng = np.random.default_rng([seed, 2])
    p = 1.0 - 2.0 ** (-1.0 / k) if p_on is None else float(p_on)
    _check(0.0 < p <= 1.0, f"p_on must be in (0, 1] (got {p_on!r})")
    relevant = np.sort(rng.choice(int(N), size=int(k), replace=False))
    T, N = int(T), int(N)
    X = np.empty((T, N), dtype=dtype)
    fill_below(rng, p, X)  # rng.random((T, N)) < p, drawn in blocks (same numbers, no float array)
    y = X[:, relevant].max(axis=1).astype(np.float64)
    flipped = rng.random(T) < noise if noise > 0 else np.zeros(T, dtype=bool)
    y[flipped] = 1.0 - y[flipped]
    return Stream(X, y, relevant, {"kind": "disjunction", "N": N, "k": int(k), "p_on": p, "noise": noise,
                                   "flipped": flipped, "seed": seed, "order": "generated"})


def sparse_simplex(T: int, N: int, k: int, seed: int = 0, *, noise: float = 0.0,
                   out: np.ndarray | None = None) -> Stream:
    """±1 features labelled by the majority of ``k`` (odd) relevant ones: ``u`` puts 1/k on each,
    so ``y_t⟨u, x_t⟩ ≥ δ = 1/k`` on every round (for the exponentiated update).

    ``out``: a C-contiguous float64 array of at least T·N entries to draw X into (X is then a view of
    its first T·N entries; :func:`olc_core.sweep` reuses one per seed, so a T × N stream does not cost
    fresh zeroed pages per value). The stream is the same with or without it."""
    _check(isinstance(N, (int, np.integer)) and N >= 1, f"N must be an integer ≥ 1 (got {N!r})")
    _check(isinstance(k, (int, np.integer)) and 1 <= k <= N and k % 2 == 1,
           f"k must be an odd integer in [1, N] (got {k!r})")
    _check(isinstance(T, (int, np.integer)) and T >= 1, f"T must be an integer ≥ 1 (got {T!r})")
    rng = np.random.default_rng([seed, 3])
    relevant = np.sort(rng.choice(int(N), size=int(k), replace=False))
    u = np.zeros(int(N))
    u[relevant] = 1.0 / k
    n = int(T) * int(N)
    X = (np.empty(n) if out is None else _buffer(out, n)).reshape(int(T), int(N))
    fill_signs(rng, X)  # where(rng.random((T, N)) < ½, −1, 1), drawn in blocks (same numbers)
    y = np.where(X[:, relevant].sum(axis=1) > 0, 1.0, -1.0)
    flipped = rng.random(int(T)) < noise if noise > 0 else np.zeros(int(T), dtype=bool)
    y[flipped] *= -1.0
    return Stream(X, y, u, {"kind": "simplex", "N": int(N), "k": int(k), "delta": 1.0 / k, "noise": noise,
                            "margins": y * (X @ u), "flipped": flipped, "seed": seed, "order": "generated"})
