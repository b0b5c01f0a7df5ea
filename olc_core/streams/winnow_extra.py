"""More streams for the two Winnows: continuous features with a simplex margin
(exponentiated update), and a demotion chain that drives one Winnow weight far
below the smallest float (Littlestone's Winnow with a large β).

>>> s = simplex_continuous(T=300, N=6, k=2, delta=0.2, seed=3)
>>> import numpy as np
>>> m = s.y * (s.X @ s.comparator)
>>> bool(abs(m.min() - 0.2) < 1e-12), bool(np.abs(s.X).max() <= 1.0), float(s.comparator.sum())
(True, True, 1.0)
>>> a = winnow_adversary(T=40, N=16, k=1, beta=1.0, seed=0)
>>> a.info["forced"], int(a.X[0].sum()), a.y[:3].tolist()    # round 1: the relevant variable and 14 others, y = 1
(10, 15, [1.0, 0.0, 0.0])
>>> c = winnow_demotion_chain(T=10, N=5, seed=0)
>>> c.X[:4].tolist(), c.y[:4].tolist(), c.comparator.tolist()
([[1, 1, 1, 1, 0], [0, 1, 0, 0, 1], [0, 0, 1, 0, 1], [0, 0, 0, 1, 1]], [1.0, 0.0, 0.0, 0.0], [0])
"""
from __future__ import annotations

import math
from fractions import Fraction

import numpy as np

from .._exact.powers import exact_greater
from .base import Stream

__all__ = ["simplex_continuous", "winnow_demotion_chain", "winnow_adversary"]


def _check(cond: bool, msg: str) -> None:
    if not cond:
        raise ValueError(msg)


def _int(v) -> bool:
    return isinstance(v, (int, np.integer))


def simplex_continuous(T: int, N: int, k: int, delta: float, seed: int = 0, *, noise: float = 0.0) -> Stream:
    """Features uniform in [−1, 1]^N, labelled by ``sign⟨u, x⟩`` for ``u = 1/k`` on ``k`` relevant features,
    keeping only points with ``|⟨u, x⟩| ≥ δ`` (rejection sampling).

    One point is rescaled (on its relevant coordinates) to margin exactly δ, so the
    measured margin is δ (up to rounding). ``noise`` flips labels (``info["flipped"]``).
    """
    _check(_int(T) and T >= 1, f"T must be an integer ≥ 1 (got {T!r})")
    _check(_int(N) and N >= 1, f"N must be an integer ≥ 1 (got {N!r})")
    _check(_int(k) and 1 <= k <= N, f"k must be an integer in [1, N] (got {k!r})")
    _check(0.0 < delta < 1.0, f"delta must be in (0, 1) (got {delta!r})")
    _check(0.0 <= noise <= 1.0, f"noise must be in [0, 1] (got {noise!r})")
    rng = np.random.default_rng([seed, 11])
    T, N, k = int(T), int(N), int(k)
    relevant = np.sort(rng.choice(N, size=k, replace=False))
    u = np.zeros(N)
    u[relevant] = 1.0 / k
    chunks, have = [], 0
    while have < T:
        n = 2 * (T - have) + 64
        P = rng.uniform(-1.0, 1.0, (n, N))
        P = P[np.abs(P[:, relevant].mean(axis=1)) >= delta]
        chunks.append(P)
        have += len(P)
    X = np.ascontiguousarray(np.concatenate(chunks)[:T])
    i0 = int(rng.integers(T))
    mean = X[i0, relevant].mean()
    X[i0, relevant] *= delta / abs(mean)
    margin = X[:, relevant].mean(axis=1)
    y = np.where(margin > 0, 1.0, -1.0)
    flipped = rng.random(T) < noise if noise > 0 else np.zeros(T, dtype=bool)
    y[flipped] *= -1.0
    return Stream(X, y, u, {"kind": "simplex-continuous", "N": N, "k": k, "delta": float(delta),
                            "relevant": relevant, "noise": float(noise), "flipped": flipped,
                            "margins": y * margin, "seed": seed, "order": "generated"})


def winnow_demotion_chain(T: int, N: int, seed: int = 0) -> Stream:
    """A stream for Littlestone's Winnow whose target is ``x_0`` alone, built to crush one weight.

    Variables: 0 (relevant), carriers 1 … N−2, and the crushed variable N−1.

    * round 0: ``x = {0, 1, …, N−2}``, y = 1 (w·x = N−1 ≤ N: every one of them is promoted);
    * rounds i = 1 … N−2: ``x = {i, N−1}``, y = 0 (w·x = (1+β) + w_{N−1} > N when 1+β ≥ N: a
      demotion of carrier i back to 1 and of variable N−1, once more);
    * then ``T − (N−1)`` random rows (bits on with probability ½) labelled ``x_0``.

    With ``β ≥ N − 1`` the learner makes exactly the N−1 prefix mistakes and none after, and the
    weight of variable N−1 ends at ``(1+β)^{−(N−2)}`` — e.g. 10⁻³⁷² for β = 10⁶, N = 64, far below the
    smallest float. X is ``uint8`` (no float copy is needed for Winnow).
    """
    _check(_int(N) and N >= 3, f"N must be an integer ≥ 3 (got {N!r})")
    _check(_int(T) and T >= N - 1, f"T must be an integer ≥ N − 1 = {N - 1} (got {T!r})")
    T, N = int(T), int(N)
    rng = np.random.default_rng([seed, 12])
    X = np.empty((T, N), dtype=np.uint8)
    X[0] = 1
    X[0, N - 1] = 0
    X[1:N - 1] = 0
    idx = np.arange(1, N - 1)
    X[idx, idx] = 1
    X[1:N - 1, N - 1] = 1
    X[N - 1:] = rng.integers(0, 2, size=(T - (N - 1), N), dtype=np.uint8)
    y = X[:, 0].astype(np.float64)
    return Stream(X, y, np.array([0], dtype=np.int64),
                  {"kind": "winnow-demotion-chain", "N": N, "prefix": N - 1, "crushed": N - 1,
                   "seed": seed, "order": "generated"})


def _weights_sum_greater(e: np.ndarray, P: int, Q: int, N: int) -> bool:
    """The learner's own exact test of Σ (1+β)^{e_i} > N."""
    return exact_greater(e, P, Q, N)


def winnow_adversary(T: int, N: int, k: int, beta: float, seed: int = 0) -> Stream:
    """Examples chosen against Littlestone's Winnow (threshold N, factor ``1+β``) so that it errs as long as
    it can, every label still that of a monotone disjunction of ``k`` relevant variables.

    The adversary keeps Winnow's integer exponents and, each round:

    * if the irrelevant weights sum to more than N, shows the heaviest irrelevant variables until their
      weight passes N, labelled 0: a false positive (a demotion removing little more than ``βN/(1+β)``);
    * else, if a relevant variable still has weight ≤ N, shows the lightest one with as many irrelevant
      variables (lightest first) as keep ``w·x ≤ N``, labelled 1: a false negative (a promotion adding
      almost ``βN``);
    * else it can force nothing more: the rest are random rows (bits on with probability
      ``1 − 2^{-1/k}``) labelled by the disjunction.

    Every forced decision is checked in exact arithmetic (the learner's ``exact_greater``), so the
    learner errs on each of the ``info["forced"]`` first rounds. X is ``uint8``.
    """
    _check(_int(N) and N >= 2, f"N must be an integer ≥ 2 (got {N!r})")
    _check(_int(k) and 1 <= k <= N, f"k must be an integer in [1, N] (got {k!r})")
    _check(_int(T) and T >= 1, f"T must be an integer ≥ 1 (got {T!r})")
    _check(math.isfinite(beta) and beta > 0, f"beta must be a number > 0 (got {beta!r})")
    T, N, k = int(T), int(N), int(k)
    rng = np.random.default_rng([seed, 13])
    relevant = np.sort(rng.choice(N, size=k, replace=False))
    irr = np.setdiff1d(np.arange(N), relevant)
    base = 1 + Fraction(float(beta))
    P, Q = base.numerator, base.denominator
    L = math.log1p(beta)
    e = np.zeros(N, dtype=np.int64)
    X = np.zeros((T, N), dtype=np.uint8)
    y = np.zeros(T)
    t = 0
    while t < T:
        x = _demotion(e, irr, L, P, Q, N)
        lab = 0.0
        if x is None:
            x = _promotion(e, relevant, irr, L, P, Q, N)
            lab = 1.0
        if x is None:
            break
        X[t, x] = 1
        y[t] = lab
        e[x] += 1 if lab else -1
        t += 1
    forced = t
    if t < T:
        p = 1.0 - 2.0 ** (-1.0 / k)
        X[t:] = rng.random((T - t, N)) < p
        y[t:] = X[t:, relevant].max(axis=1)
    return Stream(X, y, relevant, {"kind": "winnow-adversary", "N": N, "k": k, "beta": float(beta),
                                   "forced": forced, "seed": seed, "order": "generated"})


def _demotion(e, irr, L, P, Q, N):
    """The heaviest irrelevant variables whose weights just pass N (None when all of them do not)."""
    if irr.size == 0:
        return None
    m = float(e[irr].max()) * L
    order = irr[np.argsort(-e[irr], kind="stable")]
    csum = np.cumsum(np.exp(e[order] * L - m))
    j = int(np.searchsorted(csum, N * np.exp(-m) * (1 + 1e-9), side="right"))
    if j >= order.size:
        return None if not _weights_sum_greater(e[order], P, Q, N) else order
    x = order[:j + 1]
    return x if _weights_sum_greater(e[x], P, Q, N) else None


def _promotion(e, relevant, irr, L, P, Q, N):
    """The lightest relevant variable of weight ≤ N with the lightest irrelevant ones, w·x ≤ N (or None)."""
    i = int(relevant[np.argmin(e[relevant])])
    if _weights_sum_greater(e[[i]], P, Q, N):
        return None
    order = irr[np.argsort(e[irr], kind="stable")]
    budget = (N - float(np.exp(e[i] * L))) * (1 - 1e-9)
    csum = np.cumsum(np.exp(e[order] * L))
    x = np.concatenate([[i], order[:int(np.searchsorted(csum, budget, side="right"))]]).astype(np.int64)
    return x if not _weights_sum_greater(e[x], P, Q, N) else np.array([i], dtype=np.int64)
