"""Exact rational certificates that the origin lies in the convex hull of a few points.

Floats are exact rationals (``m·2^e``), so whether 0 is a convex combination of some
float vectors ``z_1 … z_k`` is a question about rationals, answered here without
rounding: the system ``Σ λ_i z_i = 0, Σ λ_i = 1`` is solved in integers (fraction-free
Gaussian elimination, Bareiss) and the solution accepted only if every ``λ_i ≥ 0``; it is
then checked again, term by term, with :class:`fractions.Fraction`.

By Gordan's theorem such a λ proves that no vector w has ``⟨w, z_i⟩ > 0`` for every i:
points ``x_i`` with labels ``y_i`` and ``z_i = y_i x_i`` are not linearly separable through
the origin (every unit vector has margin ≤ 0 on them).

>>> import numpy as np
>>> lam = hull_certificate(np.array([[1.0, 0.0], [-1.0, 0.5], [-1.0, -0.5]]))
>>> [str(v) for v in lam], is_certificate(np.array([[1.0, 0.0], [-1.0, 0.5], [-1.0, -0.5]]), lam)
(['1/2', '1/4', '1/4'], True)
>>> hull_certificate(np.array([[1.0, 1e-11], [-1.0, 1e-11]])) is None   # separated by (0, 1)
True
"""
from __future__ import annotations

import math
from fractions import Fraction

import numpy as np

__all__ = ["hull_certificate", "is_certificate"]


def _integer_rows(Z: np.ndarray) -> list[list[int]]:
    """The rows of ``[Zᵀ; 1ᵀ | 0; 1]`` as integers: each coordinate row scaled by a power of two
    (a row scaling does not change the solutions)."""
    k, d = Z.shape
    rows = []
    for j in range(d):
        fr = [float(v).as_integer_ratio() for v in Z[:, j]]
        den = max(q for _, q in fr)  # powers of two: the largest is a multiple of every other
        rows.append([n * (den // q) for n, q in fr] + [0])
    rows.append([1] * k + [1])
    return rows


def _solve(rows: list[list[int]], k: int) -> list[Fraction] | None:
    """A rational solution of the integer system (free variables 0), or None if it has none."""
    A = np.array(rows, dtype=object)
    n = A.shape[0]
    prev = 1
    r = 0
    pivots = []
    for c in range(k):
        nz = [i for i in range(r, n) if A[i, c] != 0]
        if not nz:
            continue
        p = nz[0]
        if p != r:
            A[[r, p]] = A[[p, r]]
        if r + 1 < n:
            # Bareiss step: every entry stays an integer (a minor of the original matrix)
            A[r + 1:, c + 1:] = (A[r, c] * A[r + 1:, c + 1:] - A[r + 1:, c:c + 1] * A[r, c + 1:]) // prev
            A[r + 1:, c] = 0
        prev = A[r, c]
        pivots.append(c)
        r += 1
        if r == n:
            break
    if any(A[i, k] != 0 for i in range(r, n)):
        return None  # inconsistent: 0 is not even in the affine hull
    lam = [Fraction(0)] * k
    for i in range(r - 1, -1, -1):
        c = pivots[i]
        s = Fraction(int(A[i, k]))
        for j in pivots[i + 1:]:
            s -= int(A[i, j]) * lam[j]
        lam[c] = s / int(A[i, c])
    return lam


def is_certificate(Z: np.ndarray, lam) -> bool:
    """Exactly: every λ_i ≥ 0, Σ λ_i = 1 and Σ λ_i z_i = 0 (Z's rows as exact rationals)."""
    Z = np.asarray(Z, dtype=np.float64)
    lam = [Fraction(v) for v in lam]
    if len(lam) != Z.shape[0] or any(v < 0 for v in lam) or sum(lam) != 1:
        return False
    for j in range(Z.shape[1]):
        if sum((v * Fraction(float(z)) for v, z in zip(lam, Z[:, j]) if v), Fraction(0)) != 0:
            return False
    return True


def hull_certificate(Z: np.ndarray) -> tuple[Fraction, ...] | None:
    """Exact weights λ ≥ 0 with ``Σ λ_i = 1`` and ``Σ λ_i z_i = 0`` over the rows z_i of Z, or None
    when none was found (free variables are set to 0: None does not prove that none exists)."""
    Z = np.asarray(Z, dtype=np.float64)
    k = Z.shape[0]
    if k == 0 or not np.isfinite(Z).all():
        return None
    scale = float(np.max(np.abs(Z)))
    if scale == 0.0:
        return (Fraction(1),) + (Fraction(0),) * (k - 1)
    if not math.isfinite(scale):
        return None
    lam = _solve(_integer_rows(Z), k)
    if lam is None or any(v < 0 for v in lam):
        return None
    lam = tuple(lam)
    return lam if is_certificate(Z, lam) else None
