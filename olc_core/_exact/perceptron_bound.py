r"""The Perceptron's bound R²/γ² as an exact rational, so that "M ≤ R²/γ²", "R²/γ² > T" and the
ratio M/(R²/γ²) are decided as exact arithmetic decides them, not by the rounding of a float.

**Which rational.** Every float is an exact rational (``m·2^e``), and so are the squares the bound
is made of: with the data's rows ``x_t``, labels ``y_t = ±1`` and the proof's comparator ``u`` (a float
vector, not exactly of length 1 after rounding), the theorem is applied to the *direction* of ``u``:

* ``R² = max_t ‖x_t‖²`` (exact sums of exact squares);
* ``γ*² = m*² / ‖u‖²`` with ``m* = min_t y_t⟨u, x_t⟩`` (exact): the margin of the unit vector u/‖u‖,
  squared — a rational although ‖u‖ is a square root;
* γ² = γ*² when the proof measured γ, and ``min(γ_given², γ*²)`` when the caller gave γ: a given γ
  the data meet only within the assumption's rounding tolerance is the data's own margin γ* (the
  theorem applies to γ*, and not to a γ above it).

Then ``R²/γ²`` is exact. On the bound-attaining stream (x_t = e_t, y_t = +1, u ∝ (1, …, 1))
every ``u_i`` is the same float, so ``γ*² = u_1²/(d·u_1²) = 1/d`` and the bound is exactly d, while
the float formula gives 2.0000000000000004 at d = 2 and 2.999999999999999 at d = 3.

**Cost.** Only the rows that can hold the maximum of ‖x_t‖² or the minimum of y⟨u, x_t⟩ are summed
exactly: a float sum of n terms is within ``γ_n = n·2^-53/(1 − n·2^-53)`` times the sum of the terms'
absolute values of the exact one (any order of summation, with or without FMA), plus underflow; a
row whose float value is further than twice that bound from the float extreme cannot hold the
exact one. Three float passes over X and, typically, one or two rows in :class:`fractions.Fraction`.

>>> import numpy as np
>>> X = np.eye(3); y = np.ones(3); u = np.full(3, 1 / np.sqrt(3))
>>> perceptron_bound(X, y, u)                       # R² = 1, γ² = 1/3
Fraction(3, 1)
>>> perceptron_bound(X, y, u, gamma=0.5)            # a given γ below γ* = 1/√3: R²/γ² = 4
Fraction(4, 1)
>>> ratio(3, Fraction(3)), exceeds(Fraction(3), 3), median([Fraction(1), Fraction(2)])
(1.0, False, Fraction(3, 2))
"""
from __future__ import annotations

import math
from fractions import Fraction
from typing import Iterable, Sequence

import numpy as np

__all__ = ["perceptron_bound", "radius_sq", "min_margin", "ratio", "exceeds", "median", "as_fraction"]

_U = 2.0 ** -53
_TINY = 2.0 ** -1000   # covers every underflow of a d-term sum (d·2^-1074 for d < 2^70)


def _gamma_n(n: int) -> float:
    """γ_n = n·u/(1 − n·u), rounded up generously (×2)."""
    return 2.0 * n * _U / (1.0 - n * _U)


def _exact_dot(a: np.ndarray, b: np.ndarray) -> Fraction:
    """Σ a_i b_i exactly (floats read as rationals), in integers over a common power of two."""
    terms = []
    for x, z in zip(a.tolist(), b.tolist()):
        if x != 0.0 and z != 0.0:
            p, q = x.as_integer_ratio()
            r, s = z.as_integer_ratio()
            terms.append((p * r, q * s))          # the denominators are powers of two
    if not terms:
        return Fraction(0)
    den = max(q for _, q in terms)
    return Fraction(sum(p * (den // q) for p, q in terms), den)


def _candidates_max(v: np.ndarray, err: np.ndarray) -> np.ndarray:
    return np.flatnonzero(v + err >= np.max(v - err))


def _candidates_min(v: np.ndarray, err: np.ndarray) -> np.ndarray:
    return np.flatnonzero(v - err <= np.min(v + err))


def radius_sq(X: np.ndarray) -> Fraction:
    """``max_t ‖x_t‖²`` exactly."""
    X = np.asarray(X, dtype=np.float64)
    g = _gamma_n(X.shape[1] + 1)
    with np.errstate(over="ignore", under="ignore"):
        s = np.einsum("ij,ij->i", X, X)
    if not np.isfinite(s).all():
        rows = range(X.shape[0])
    else:
        rows = _candidates_max(s, g * s + _TINY).tolist()
    return max(_exact_dot(X[t], X[t]) for t in rows)


def min_margin(X: np.ndarray, y: np.ndarray, u: np.ndarray) -> Fraction:
    """``min_t y_t⟨u, x_t⟩`` exactly (y_t = ±1)."""
    X = np.asarray(X, dtype=np.float64)
    u = np.asarray(u, dtype=np.float64)
    y = np.asarray(y, dtype=np.float64)
    g = _gamma_n(X.shape[1] + 1)
    with np.errstate(over="ignore", under="ignore", invalid="ignore"):
        m = y * (X @ u)
        a = np.abs(X) @ np.abs(u)
        err = g * (1.0 + g) * a + _TINY
    if not (np.isfinite(m).all() and np.isfinite(err).all()):
        rows = range(X.shape[0])
    else:
        rows = _candidates_min(m, err).tolist()
    return min((_exact_dot(X[t], u) if y[t] > 0 else -_exact_dot(X[t], u)) for t in rows)


def perceptron_bound(X, y, u, gamma: float | None = None) -> Fraction | None:
    """R²/γ² exactly (module docstring), or None when the direction of ``u`` does not separate the data
    exactly (its exact smallest margin is ≤ 0: no exact γ > 0) or every x_t is 0."""
    if u is None:
        return None
    u = np.asarray(u, dtype=np.float64)
    if not np.isfinite(u).all() or not u.any():
        return None
    m = min_margin(X, y, u)
    r2 = radius_sq(X)
    if m <= 0 or r2 == 0:
        return None
    g2 = m * m / _exact_dot(u, u)
    if gamma is not None:
        gg = Fraction(float(gamma))
        if gg <= 0:
            return None
        g2 = min(g2, gg * gg)
    return r2 / g2


def as_fraction(x) -> Fraction | None:
    """A float, int or Fraction as an exact rational (None for None or NaN; inf is not a rational)."""
    if x is None:
        return None
    if isinstance(x, Fraction):
        return x
    f = float(x)
    if math.isnan(f) or math.isinf(f):
        return None
    return Fraction(f)


def ratio(measured, bound) -> float:
    """``measured / bound`` correctly rounded from the exact quotient (NaN when the bound is missing,
    infinite or 0): 1.0 exactly when they are equal, ≤ 1 whenever measured ≤ bound."""
    b = as_fraction(bound)
    m = as_fraction(measured)
    if b is None or m is None or b <= 0:
        return math.nan
    return float(m / b)


def exceeds(bound, T) -> bool:
    """Exactly ``bound > T`` (False for a missing bound)."""
    b = as_fraction(bound)
    return b is not None and b > Fraction(T)


def median(values: Iterable) -> Fraction | None:
    """The exact median of rationals (the mean of the two middle ones for an even count); None if empty."""
    v: Sequence[Fraction] = sorted(as_fraction(x) for x in values if as_fraction(x) is not None)
    n = len(v)
    if n == 0:
        return None
    return v[n // 2] if n % 2 else (v[n // 2 - 1] + v[n // 2]) / 2
