r"""Exact signs of sums of exponentials ``S = Σ_i x_i e^{η r_i}`` (normalised Winnow's ⟨w, x⟩ up to a
positive factor), for floats ``x_i`` and exact rational exponent counts ``r_i``.

**Which real number η is.** η arrives as a float. When ``e^{2η}`` is (up to the float's rounding) a
rational ``q = a/b`` with ``b ≤ 1000`` — precisely: ``q`` is ``Fraction(e^{2η}).limit_denominator(1000)``
and the float ``½ ln q`` lies within :data:`SNAP_ULPS` units in the last place of η — η is read as
exactly ``½ ln q``. This is the case of ``η = artanh δ = ½ ln((1+δ)/(1−δ))`` for every δ = m/n with
small n (δ = 1/3: η = ½ ln 2; δ = 0.6: η = ln 2), the default learning rate. Any other η is read as
the float itself, a rational number.

**The zero test is exact** (no tolerance). Write ``q = p^e`` with ``p`` rational and not a perfect
power, and ``ρ_i = e r_i / 2`` so that ``e^{η r_i} = p^{ρ_i}``. Group the terms by ``ρ_i mod 1``:
``S = Σ_c p^{f_c} A_c`` with rational ``A_c`` (integer powers of p times x_i, exact). The numbers
``p^{j/n}`` (j < n) are linearly independent over ℚ (``t^n − p`` is irreducible by Capelli's theorem,
p > 0 not a perfect power), so ``S = 0`` iff every ``A_c = 0``. For η a non-zero rational the exponents
``η r_i`` are distinct rationals for distinct ``r_i`` and, by the Lindemann–Weierstrass theorem, the
``e^{η r}`` are linearly independent over the algebraic numbers: ``S = 0`` iff for each value r the
``x_i`` with ``r_i = r`` sum to 0 (the groups are the distinct ``r_i``). Either way, when the nonzero
``A_c`` all have one sign that is the sign of S; otherwise S ≠ 0 and its sign is found by evaluating
S with :mod:`decimal` (``ln``/``exp``/arithmetic correctly rounded) together with a rigorous bound on
the evaluation error, doubling the precision until ``|S| >`` the bound (this terminates: S ≠ 0).

>>> from fractions import Fraction
>>> spec = EtaSpec(0.5 * math.log(2.0))
>>> spec.q, spec.p, spec.e
(Fraction(2, 1), Fraction(2, 1), 1)
>>> exact_sign([1, -1, -1, 1, -1, -1], [1, -1, -1, 1, -1, -1], spec)   # 2√2 − 4/√2 = 0: a tie
(0, 0)
>>> exact_sign([1.0, -1.0], [3, 0], spec), exact_sign([1.0, -3.0], [3, 0], spec)  # 2√2 − 1 > 0, 2√2 − 3 < 0
((1, 40), (-1, 40))
>>> lit = EtaSpec(0.3); lit.q is None                    # e^{0.6} is no small fraction: η = 0.3 exactly
True
>>> exact_sign([0.5, -0.5, 1.0], [2, 2, 1], lit)[0], exact_sign([1.0, -1.0], [2, 1], lit)[0]
(1, 1)
"""
from __future__ import annotations

import math
from decimal import MAX_EMAX, MIN_EMIN, Context, Decimal
from fractions import Fraction
from typing import Sequence

__all__ = ["EtaSpec", "exact_sign", "SNAP_ULPS", "SNAP_DEN"]

#: η within this many ulps of ½ ln(a/b) (b ≤ SNAP_DEN) is read as exactly ½ ln(a/b)
SNAP_ULPS = 8
SNAP_DEN = 1000
_START_DIGITS = 40


def _iroot(n: int, k: int) -> int | None:
    """The integer k-th root of n ≥ 0 when n is a perfect k-th power, else None."""
    r = int(round(n ** (1.0 / k)))
    for c in (r - 1, r, r + 1):
        if c >= 0 and c ** k == n:
            return c
    return None


def _perfect_power(q: Fraction) -> tuple[Fraction, int]:
    """``q = p^e`` with e as large as possible (p then is not a perfect power)."""
    a, b = q.numerator, q.denominator
    for e in range(max(a, b).bit_length(), 1, -1):
        ra, rb = _iroot(a, e), _iroot(b, e)
        if ra is not None and rb is not None:
            return Fraction(ra, rb), e
    return q, 1


def _snap(eta: float) -> Fraction | None:
    """The rational q with η = ½ ln q (to SNAP_ULPS ulps, denominator ≤ SNAP_DEN), or None."""
    if not 0.0 < eta <= 10.0:
        return None
    q = Fraction(math.exp(2.0 * eta)).limit_denominator(SNAP_DEN)
    if q <= 1:
        return None
    half_ln_q = 0.5 * math.log1p(float((q.numerator - q.denominator) / Fraction(q.denominator)))
    return q if abs(half_ln_q - eta) <= SNAP_ULPS * math.ulp(eta) else None


class EtaSpec:
    """The exact η a run uses: ``½ ln q`` (``q`` set) or the float read as a rational (``q`` None).

    ``err`` bounds ``|η_float − η_exact|`` (0 for a rational η); ``text`` says which in words.
    """

    def __init__(self, eta: float):
        self.float = float(eta)
        self.q = _snap(self.float)
        if self.q is not None:
            self.p, self.e = _perfect_power(self.q)
            # ½ln q in floats is within ~2 ulps of the real one; the snap allowed SNAP_ULPS more
            self.err = (SNAP_ULPS + 4) * math.ulp(self.float)
            self.text = f"½ ln {self.q} (read exactly)"
            self.rational = None
        else:
            self.p, self.e, self.err = None, 0, 0.0
            self.rational = Fraction(self.float)
            self.text = f"{self.float!r} (the float, read exactly as a rational number)"


def _groups(x: Sequence[float], r: Sequence, spec: EtaSpec) -> dict:
    """``{key: (A, lam)}``: S = Σ_key A·e^{lam} with rational A and λ given as (coefficient, uses ln p)."""
    out: dict = {}
    if spec.q is None:
        for xi, ri in zip(x, r):
            if xi != 0.0:
                key = Fraction(ri)
                out[key] = out.get(key, 0) + Fraction(xi)
        return {k: (A, (spec.rational * k, False)) for k, A in out.items()}
    base: dict = {}
    for xi, ri in zip(x, r):
        if xi != 0.0:
            rho = Fraction(ri) * spec.e / 2
            fl = math.floor(rho)
            key = rho - fl
            base.setdefault(key, []).append((fl, Fraction(xi)))
    for key, terms in base.items():
        lo = min(fl for fl, _ in terms)
        A = sum((xi * spec.p ** (fl - lo) for fl, xi in terms), Fraction(0))
        out[key] = (A, (key + lo, True))
    return out


def _evaluate(terms: list, spec: EtaSpec, digits: int) -> tuple[Decimal, Decimal]:
    """``S`` evaluated with ``digits`` significant digits, and a bound on its error."""
    ctx = Context(prec=digits, Emax=MAX_EMAX, Emin=MIN_EMIN)
    eps = Decimal(10) ** (1 - digits)  # each correctly rounded operation: relative error ≤ eps/2
    if spec.p is not None:
        la, lb = ctx.ln(Decimal(spec.p.numerator)), ctx.ln(Decimal(spec.p.denominator))
        L, err_L = ctx.subtract(la, lb), eps * (abs(la) + abs(lb) + 1)
    total, mag, err = Decimal(0), Decimal(0), Decimal(0)
    for A, (coef, uses_lnp) in terms:
        c = ctx.divide(Decimal(coef.numerator), Decimal(coef.denominator))
        lam = ctx.multiply(c, L) if uses_lnp else c
        err_lam = eps * (abs(lam) + 1) + (abs(c) * err_L if uses_lnp else 0)
        M = ctx.exp(lam)
        a = ctx.divide(Decimal(A.numerator), Decimal(A.denominator))
        t = ctx.multiply(a, M)
        total = ctx.add(total, t)
        mag += abs(t)
        err += abs(t) * (2 * err_lam + 3 * eps)
    err = 4 * (err + len(terms) * eps * mag) + Decimal(10) ** (MIN_EMIN + 10)
    return total, err


def exact_sign(x: Sequence[float], r: Sequence, spec: EtaSpec) -> tuple[int, int]:
    """``(sign of Σ_i x_i e^{η r_i}, decimal digits used)``: sign ∈ {−1, 0, 1}, exact; 0 digits when the
    grouped coefficients decide it (all zero: a tie; all of one sign)."""
    terms = [v for v in _groups(x, r, spec).values() if v[0] != 0]
    if not terms:
        return 0, 0
    signs = {1 if A > 0 else -1 for A, _ in terms}
    if len(signs) == 1:
        return signs.pop(), 0
    digits = _START_DIGITS
    while True:  # S ≠ 0 (proved by the zero test), so enough digits always decide
        total, err = _evaluate(terms, spec, digits)
        if abs(total) > err:
            return (1 if total > 0 else -1), digits
        digits *= 2


def exact_value(x: Sequence[float], r: Sequence, spec: EtaSpec, digits: int = _START_DIGITS) -> float:
    """``Σ_i x_i e^{η r_i}`` to about ``digits`` digits (for display; its sign may be off only when
    :func:`exact_sign` needed more digits)."""
    terms = [v for v in _groups(x, r, spec).values() if v[0] != 0]
    if not terms:
        return 0.0
    total, _ = _evaluate(terms, spec, max(digits, _START_DIGITS))
    return float(total)
