"""HalfPlanes labels a point by its exact side of each line (on the line: +1), never by cos/sin rounding."""
from __future__ import annotations

import math
from decimal import Decimal, localcontext

import numpy as np
import pytest

from olc_core.hypotheses import HalfPlanes

SCALES = (2.0 ** -1000, 1e-300, 2.0 ** -60, 0.3, 1.0, 7.5, 1e10, 2.0 ** 70, 1e300)
_DIR = {0: (1, 0), 1: (1, 1), 2: (0, 1), 3: (-1, 1), 4: (-1, 0), 5: (-1, -1), 6: (0, -1), 7: (1, -1)}


def test_repros():
    assert HalfPlanes(4).predict([[1.0, 0.0]], range(4)).tolist() == [[1, 1, -1, 1]]
    assert HalfPlanes(8).predict([[1.0, 1.0]], range(8)).tolist() == [[1, 1, 1, 1, -1, -1, -1, 1]]


@pytest.mark.parametrize("K", [2, 4, 8, 16, 24, 40, 720])
def test_points_on_lines_at_multiples_of_45_degrees(K):
    """θ_k = jπ/4: the line is spanned by the integer direction (−s_j, c_j); its points are +1 for h_k
    and for the opposite normal; a point moved off by one ulp-sized step is on the right side."""
    H = HalfPlanes(K)
    ks = [k for k in range(K) if (8 * k) % K == 0]
    for k in ks:
        c, s = _DIR[(8 * k // K) % 8]
        for a in SCALES:
            for sgn in (1.0, -1.0):
                on = np.array([[-s * a * sgn, c * a * sgn]])
                assert H.predict(on, [k])[0, 0] == 1, (k, a, sgn)
                # off the line by a relative 2^-50 along the normal (c, s) (or by a one-ulp change)
                step = a * 2.0 ** -50
                plus = on + step * np.array([[c, s]])
                minus = on - step * np.array([[c, s]])
                assert H.predict(plus, [k])[0, 0] == 1 and H.predict(minus, [k])[0, 0] == -1, (k, a, sgn)
    # the origin is on every line
    assert (H.predict(np.zeros((1, 2)), range(K)) == 1).all()


# ------------------------------------------------------------ lines with irrational slopes
def _pi_machin(digits: int) -> Decimal:
    """π = 16 arctan(1/5) − 4 arctan(1/239) (an independent series from the core's)."""
    def arctan_inv(n: int) -> Decimal:
        x = Decimal(1) / n
        x2, term, total, k = x * x, x, x, 1
        while True:
            term *= -x2
            k += 2
            add = term / k
            if abs(add) < Decimal(10) ** (-digits - 5):
                return total
            total += add
    with localcontext() as ctx:
        ctx.prec = digits + 10
        return 16 * arctan_inv(5) - 4 * arctan_inv(239)


def _side(x1: float, x2: float, k: int, K: int, offset: float) -> int:
    """sign(x₁ cos θ + x₂ sin θ) at 120 digits (Taylor series around the nearest multiple of π/2)."""
    with localcontext() as ctx:
        ctx.prec = 140
        pi = _pi_machin(140)
        th = Decimal(offset) + 2 * pi * k / K
        q = (th / (pi / 2)).to_integral_value()
        r = th - q * pi / 2
        c = s = Decimal(0)
        term, n = Decimal(1), 0
        while abs(term) > Decimal(10) ** -150:
            if n % 2 == 0:
                c += term if n % 4 == 0 else -term
            else:
                s += term if n % 4 == 1 else -term
            n += 1
            term = term * r / n
        cq, sq = [(c, s), (-s, c), (-c, -s), (s, -c)][int(q) % 4]
        dot = Decimal(x1) * cq + Decimal(x2) * sq
        assert abs(dot) > Decimal(10) ** -100 * (abs(Decimal(x1)) + abs(Decimal(x2)))
        return 1 if dot > 0 else -1


@pytest.mark.parametrize("K,offset,step", [(3, 0.0, 1), (5, 0.0, 1), (6, 0.0, 1), (12, 0.0, 1), (360, 0.0, 7),
                                           (720, 0.0, 11), (8, 0.1, 1), (32, 1e5, 3)])
def test_points_rounded_onto_other_lines_get_their_exact_side(K, offset, step):
    """No nonzero float point lies on these lines; a point computed to be on one (a·(−sin θ, cos θ) in
    floats) is off it by rounding, and must get the side exact arithmetic gives, not cos/sin noise.
    Points moved off by a relative 1e-9 along the normal are on that side."""
    H = HalfPlanes(K, offset)
    th = H.angles()
    float_wrong = 0
    for k in range(0, K, step):
        if offset == 0.0 and (8 * k) % K == 0:
            continue  # a line at a multiple of 45°: the test above
        c, s = math.cos(th[k]), math.sin(th[k])
        for a in SCALES[1:-1]:
            for sgn in (1.0, -1.0):
                x1, x2 = -sgn * a * s, sgn * a * c
                got = int(H.predict(np.array([[x1, x2]]), [k])[0, 0])
                want = _side(x1, x2, k, K, offset)
                assert got == want, (k, a, sgn)
                float_wrong += (1 if x1 * c + x2 * s >= 0 else -1) != want
                off = 1e-9 * a * np.array([[c, s]])
                assert H.predict(np.array([[x1, x2]]) + off, [k])[0, 0] == 1
                assert H.predict(np.array([[x1, x2]]) - off, [k])[0, 0] == -1
    if K in (6, 12, 360):
        assert float_wrong > 0  # the plain float test does get some of these wrong
