"""More streams for the two Winnows: continuous features with a simplex margin
(exponentiated update), and a demotion chain that drives one Winnow weight far
below the smallest float (Littlestone's Winnow with a large β).

>>> s = simplex_continuous(T=300, N=6, k=2, delta=0.2, seed=3)
>>> import numpy as np
>>> m = s.y * (s.X @ s.comparator)
>>> bool(abs(m.min() - 0.2) < 1e-12), bool(np.abs(s.X).max() <= 1.0), float(s.comparator.sum())
(True, True, 1.0)
>>> c = winnow_demotion_chain(T=10, N=5, seed=0)
>>> c.X[:4].tolist(), c.y[:4].tolist(), c.comparator.tolist()
([[1, 1, 1, 1, 0], [0, 1, 0, 0, 1], [0, 0, 1, 0, 1], [0, 0, 0, 1, 1]], [1.0, 0.0, 0.0, 0.0], [0])
"""
from __future__ import annotations

import numpy as np

from .base import Stream

__all__ = ["simplex_continuous", "winnow_demotion_chain"]


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
