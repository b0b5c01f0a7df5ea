r"""Exact side of a line through the origin: ``x₁ cos θ + x₂ sin θ ≥ 0`` for ``θ = offset + 2πk/K``, in
exact real arithmetic (x, offset: floats read exactly; π, cos, sin: the real ones).

**Exact zeros.** For ``offset = 0`` and θ a multiple of π/4 (``8k ≡ 0 mod K``), ``cos θ`` and ``sin θ``
are 0, ±1 or ±√2/2 with equal magnitudes, and the sign is that of ``c·x₁ + s·x₂`` with c, s ∈ {−1, 0, 1}:
one IEEE addition, whose sign (and zero) is exact. For every other θ the product is 0 only at
x = 0: ``tan θ`` is irrational (Niven: tan of a rational multiple of π is rational only for 0, ±1;
with a nonzero rational offset, tan θ is transcendental by Lindemann) and cos θ, sin θ ≠ 0, so
``x₂/x₁ = −cot θ`` has no rational solution.

**Signs.** Elsewhere the float product decides when it is further from 0 than a bound on its error
(θ's rounding, cos/sin within 1 ulp, the products and the sum; ×4); otherwise (points within
rounding of a line) the product is evaluated with :mod:`decimal` (π by the series in the decimal
docs, cos/sin by Taylor series, 10 guard digits), doubling the digits until it is clear of
``10^{5−digits}·(|x₁|+|x₂|)``; it is not 0, so this ends.

>>> halfplane_nonneg(np.array([[1.0, 0.0]]), np.arange(4), 4, 0.0).tolist()   # on the lines of k = 1, 3
[[True, True, False, True]]
>>> halfplane_nonneg(np.array([[1.0, 1.0]]), np.arange(8), 8, 0.0)[0, [3, 7]].tolist()
[True, True]
"""
from __future__ import annotations

import math
from decimal import Decimal, localcontext
from functools import lru_cache

import numpy as np

__all__ = ["halfplane_nonneg", "angles"]

_U = 2.0 ** -53
#: (sign cos θ, sign sin θ) for θ = jπ/4, j = 0 … 7 (|cos| = |sin| for odd j)
_CS = np.array([(1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1)], dtype=np.float64)


def angles(K: int, offset: float, k: np.ndarray | None = None) -> np.ndarray:
    """The float angles ``offset + 2πk/K``."""
    k = np.arange(K) if k is None else np.asarray(k, dtype=np.int64)
    return offset + 2.0 * np.pi * k / K


@lru_cache(maxsize=8)
def _pi(digits: int) -> Decimal:
    """π to ``digits`` significant digits (the series of the :mod:`decimal` documentation)."""
    with localcontext() as ctx:
        ctx.prec = digits + 2
        three = Decimal(3)
        lasts, t, s, n, na, d, da = 0, three, 3, 1, 0, 0, 24
        while s != lasts:
            lasts = s
            n, na = n + na, na + 8
            d, da = d + da, da + 32
            t = (t * n) / d
            s += t
    return +s


def _cos_sin(theta: Decimal, digits: int) -> tuple[Decimal, Decimal]:
    """cos θ and sin θ by Taylor series after reducing θ to [−π, π] (context precision ``digits``)."""
    two_pi = 2 * _pi(digits)
    theta = theta - two_pi * (theta / two_pi).to_integral_value()
    eps = Decimal(10) ** (-digits - 2)
    c, s = Decimal(0), Decimal(0)
    term, n = Decimal(1), 0  # θ^n / n!
    while True:
        if n % 4 == 0:
            c += term
        elif n % 4 == 1:
            s += term
        elif n % 4 == 2:
            c -= term
        else:
            s -= term
        n += 1
        term = term * theta / n
        if abs(term) < eps and n > 2:
            return c, s


def _exact_one(x1: float, x2: float, k: int, K: int, offset: float) -> bool:
    """``x₁ cos θ + x₂ sin θ ≥ 0`` for a θ that is not a multiple of π/4 (or has an offset), exactly."""
    if x1 == 0.0 and x2 == 0.0:
        return True
    digits = 40
    extra = max(0, int(math.log10(abs(offset) + 10.0))) + 10
    while True:
        with localcontext() as ctx:
            ctx.prec = digits + extra
            theta = Decimal(offset) + 2 * _pi(digits + extra) * k / K
            c, s = _cos_sin(theta, digits + extra)
            dot = Decimal(x1) * c + Decimal(x2) * s
            tol = (abs(Decimal(x1)) + abs(Decimal(x2))) * Decimal(10) ** (5 - digits)
            if abs(dot) > tol:
                return dot > 0
        digits *= 2


def halfplane_nonneg(X: np.ndarray, k: np.ndarray, K: int, offset: float) -> np.ndarray:
    """``(n, m)`` bool: ``x_i·(cos θ_{k_j}, sin θ_{k_j}) ≥ 0`` in exact arithmetic (see the module doc)."""
    X = np.asarray(X, dtype=np.float64)
    k = np.asarray(k, dtype=np.int64)
    th = angles(K, offset, k)
    x1, x2 = X[:, :1], X[:, 1:2]
    # each row scaled by a power of two (exact) so that max |x| ∈ [½, 1): no overflow in the float pass
    e = np.frexp(np.maximum(np.abs(x1), np.abs(x2)))[1]
    s1, s2 = np.ldexp(x1, -e), np.ldexp(x2, -e)
    dot = s1 * np.cos(th)[None, :] + s2 * np.sin(th)[None, :]
    bound = 4.0 * (np.abs(s1) + np.abs(s2)) * (8.0 * _U * (abs(offset) + 2.0 * math.pi) + 4.0 * _U) + 2.0 ** -1000
    out = dot >= 0.0
    near = np.abs(dot) <= bound
    if offset == 0.0:
        special = (8 * k) % K == 0
        if special.any():
            cs = _CS[((8 * k[special]) // K) % 8]
            out[:, special] = (cs[None, :, 0] * x1 + cs[None, :, 1] * x2) >= 0.0  # one rounding: sign exact
            near[:, special] = False
    for i, j in np.argwhere(near).tolist():
        out[i, j] = _exact_one(float(X[i, 0]), float(X[i, 1]), int(k[j]), K, offset)
    return out
