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

__all__ = ["hull_certificate", "is_certificate", "verified_square", "LazyCertificate", "certificate_for"]

#: Above this many points a system that is not square and nonsingular is not solved exactly (it takes
#: seconds in Python integers): the search then reports "unresolved" instead of waiting.
EXACT_MAX = 40
_U = 2.0 ** -53


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


def hull_certificate(Z: np.ndarray, exact_max: int | None = EXACT_MAX) -> tuple[Fraction, ...] | None:
    """Exact weights λ ≥ 0 with ``Σ λ_i = 1`` and ``Σ λ_i z_i = 0`` over the rows z_i of Z, or None
    when none was found (free variables are set to 0: None does not prove that none exists) or
    Z has more than ``exact_max`` rows (None: no limit)."""
    Z = np.asarray(Z, dtype=np.float64)
    k = Z.shape[0]
    if k == 0 or not np.isfinite(Z).all() or (exact_max is not None and k > exact_max):
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


def _up(x, m: int):
    """An upper bound for the exact value of a float sum of ``m`` non-negative float terms (or a
    product): ``fl`` is within a factor ``1 + γ_m`` of it, plus ``m`` underflows of 2^-1075 each."""
    return x * (1.0 + 4.0 * (m + 4) * _U) + m * 2.0 ** -1074


def verified_square(Z: np.ndarray) -> np.ndarray | None:
    """For ``k = d + 1`` points (the rows of Z) whose system ``Σ λ_i z_i = 0, Σ λ_i = 1`` is square:
    float weights λ̃ and a proof, from floating-point error bounds alone, that the *exact* system is
    nonsingular and its unique solution λ* has every ``λ*_i > 0`` — so λ* is an exact certificate.
    None when this cannot be shown (singular or ill-conditioned, a weight near 0, or out of range).

    The proof (Rump's verified linear solve): with M the system's matrix (rows scaled by powers
    of two: exact), R ≈ M⁻¹ and λ̃ = R e refined once, every float product and sum is bounded by
    ``γ_m = m·u/(1 − m·u)`` times the sum of absolute terms (any order of summation, with or
    without FMA), plus underflow. If ``‖I − RM‖∞ ≤ α < 1`` then M is nonsingular and
    ``‖λ* − λ̃‖∞ ≤ ‖R(e − Mλ̃)‖∞ / (1 − α)``; λ* > 0 when every λ̃_i exceeds that bound.

    >>> Z = np.array([[1.0, 0.0], [-1.0, 0.5], [-1.0, -0.5]])
    >>> verified_square(Z).round(6).tolist()
    [0.5, 0.25, 0.25]
    >>> verified_square(np.array([[1.0, 0.0], [-1.0, 0.5], [1.0, -0.5]])) is None   # 0 outside the hull
    True
    """
    Z = np.asarray(Z, dtype=np.float64)
    k, d = Z.shape
    if k != d + 1 or not np.isfinite(Z).all():
        return None
    M = np.vstack([Z.T, np.ones((1, k))])
    e = np.zeros(k)
    e[-1] = 1.0
    amax = np.abs(M).max(axis=1)
    if not (amax > 0).all():
        return None
    ex = np.frexp(amax)[1]
    nz = np.where(M != 0, np.abs(M), np.inf).min(axis=1)
    if (np.ldexp(nz, -ex) < 2.0 ** -1000).any() or (amax > 2.0 ** 1000).any():
        return None  # a row scaling would round (subnormal) or products could overflow: not here
    M, e = np.ldexp(M, -ex[:, None]), np.ldexp(e, -ex)
    with np.errstate(all="ignore"):
        try:
            R = np.linalg.inv(M)
        except np.linalg.LinAlgError:
            return None
        if not np.isfinite(R).all():
            return None
        lam = R @ e
        lam = lam + R @ (e - M @ lam)
        n = k
        g = _up(n * _U / (1.0 - n * _U), 1)
        absRM = _up(np.abs(R) @ np.abs(M), n)
        E = _up(np.abs(np.eye(n) - R @ M), 1) + g * absRM
        alpha = _up(float(E.sum(axis=1).max()), n)
        if not alpha < 0.5:
            return None
        g1 = _up((n + 1) * _U / (1.0 - (n + 1) * _U), 1)
        r = _up(np.abs(e - M @ lam), 1) + g1 * _up(np.abs(e) + np.abs(M) @ np.abs(lam), n + 1)
        bound = _up(float(_up(np.abs(R) @ r, n).max()) / (1.0 - alpha), 2)
        if not (np.isfinite(bound) and np.isfinite(lam).all()) or not (lam > _up(bound, 1)).all():
            return None
    return lam


class LazyCertificate(tuple):
    """The exact certificate of a system :func:`verified_square` proved: its weights as
    :class:`fractions.Fraction`, computed by exact elimination only when they are first read
    (seconds for a hundred points), since their existence and positivity are already proved."""

    def __new__(cls, Z: np.ndarray):
        obj = super().__new__(cls)
        obj._Z = np.asarray(Z, dtype=np.float64)
        obj._lam = None
        return obj

    def _get(self) -> tuple:
        if self._lam is None:
            lam = hull_certificate(self._Z, exact_max=None)
            if lam is None:  # cannot happen: the proof above says the unique solution is positive
                raise ArithmeticError("a verified hull certificate has no exact solution")
            self._lam = tuple(lam)
        return self._lam

    def __len__(self):
        return self._Z.shape[0]

    def __iter__(self):
        return iter(self._get())

    def __getitem__(self, i):
        return self._get()[i]

    def __repr__(self):
        return f"LazyCertificate({len(self)} points, exact weights computed on first read)"

    def permuted(self, order) -> "LazyCertificate":
        return LazyCertificate(self._Z[np.asarray(order)])


def certificate_for(Z: np.ndarray):
    """An exact certificate that 0 is a convex combination of the rows of Z, or None: proved by
    :func:`verified_square` when the system is square (its weights computed when read), else solved
    exactly for at most :data:`EXACT_MAX` points."""
    Z = np.asarray(Z, dtype=np.float64)
    if Z.shape[0] == Z.shape[1] + 1 and verified_square(Z) is not None:
        return LazyCertificate(Z)
    return hull_certificate(Z)
