"""Exact numbers for the games: settings read as fractions, and two numbers printed with as many digits as
it takes for the printed decimals to satisfy the relation the exact numbers satisfy ("‖x‖ = 1.0078 > R = 1",
never "1 > 1").

>>> pair(Fraction(129, 128), Fraction(1), ">")
('1.008', '1')
>>> pair(Fraction(1, 3), Fraction(333, 1000), ">")
('0.3333', '0.333')
"""
from __future__ import annotations

import math
import operator
from decimal import Decimal
from fractions import Fraction

__all__ = ["Fraction", "as_fraction", "decimal_text", "exponent", "pair", "REL"]

REL = {"<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge, "=": operator.eq}


def as_fraction(v) -> Fraction:
    """A setting as an exact fraction: a float through its shortest decimal (0.1 is 1/10, not the binary
    float), an int, a decimal string or a Fraction as it is."""
    if isinstance(v, Fraction):
        return v
    if isinstance(v, float):
        if not math.isfinite(v):
            raise ValueError(f"{v} is not a number a game can use")
        return Fraction(Decimal(repr(v)))
    return Fraction(v)


def decimal_text(v: Fraction, digits: int) -> str:
    """``v`` rounded to ``digits`` significant digits, without trailing zeros ("0.25", "1", "−0.3")."""
    if v == 0:
        return "0"
    e = exponent(v)
    places = max(0, digits - 1 - e)
    q = round(v * 10 ** places)
    s = str(abs(q)) if places == 0 else _places(abs(q), places)
    return ("−" if q < 0 else "") + s


def exponent(v: Fraction) -> int:
    """The e with 10**e ≤ |v| < 10**(e + 1), exactly (v ≠ 0)."""
    n, d = abs(v.numerator), v.denominator
    if n >= d:
        return len(str(n // d)) - 1
    k = 1
    while n * 10 ** k < d:
        k += 1
    return -k


def _places(q: int, places: int) -> str:
    body = str(q).rjust(places + 1, "0")
    head, tail = body[:-places], body[-places:].rstrip("0")
    return head + ("." + tail if tail else "")


def _value(text: str) -> Fraction:
    return Fraction(text.replace("−", "-"))


def pair(a: Fraction, b: Fraction, rel: str, digits: int = 4) -> tuple[str, str]:
    """``a`` and ``b`` printed with the fewest digits (from ``digits``) for which the printed decimals satisfy
    ``rel`` (which ``a`` and ``b`` satisfy); exact numbers print exactly when nothing shorter does."""
    if not REL[rel](a, b):
        raise ValueError(f"{a} {rel} {b} is false")
    for d in range(digits, 40):
        sa, sb = decimal_text(a, d), decimal_text(b, d)
        if REL[rel](_value(sa), _value(sb)):
            return sa, sb
    return str(a), str(b)
