"""Predict-then-reveal options for the 2-D Perceptron: mistake or not, and how w moves.

A mistake adds y·x to w. How w moves is read from the run's weights before and after the round
(``trace.weights_at``), decided in exact arithmetic on those floats (every float is a rational: the 2-D cross
product ``det(wₜ, wₜ₊₁)`` and the ratio ``wₜ₊₁ = λ·wₜ`` are computed with :class:`fractions.Fraction`), never
from a rounded angle:

* ``acw`` / ``cw`` — ``det(wₜ, wₜ₊₁) > 0`` / ``< 0``: w turns anticlockwise / clockwise (by ``angle`` degrees);
* ``line`` — ``det = 0``: y·x lies on w's line through 0 and w only changes length or direction along it:
  ``move`` says how, with ``scale`` = λ: "shorter" (0 < λ < 1), "zero" (λ = 0: w vanishes), "reversed" (λ < 0:
  w flips to point the other way), "same" (λ = 1: x = 0), "longer" (λ > 1: never at a mistake, where
  y⟨w, x⟩ ≤ 0);
* ``mistake`` — w = 0 before the round (the first round, or after w vanished): w becomes y·x.
"""
from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import numpy as np

from olc_ui.viewer.questions.base import common, rounds

__all__ = ["perceptron_options", "turn"]


def _move(lam: Fraction) -> str:
    if lam < 0:
        return "reversed"
    if lam == 0:
        return "zero"
    return "shorter" if lam < 1 else ("same" if lam == 1 else "longer")


def turn(a, b) -> tuple[str, float | None, float | None, str | None]:
    """How w moved from ``a`` to ``b`` (2-vectors of floats, ``a`` ≠ 0), exactly: ``(answer, angle in degrees
    (+ anticlockwise; None on its line), λ with b = λa (None off its line), move on the line)``."""
    a0, a1, b0, b1 = (Fraction(float(v)) for v in (a[0], a[1], b[0], b[1]))
    det, dot = a0 * b1 - a1 * b0, a0 * b0 + a1 * b1
    if det != 0:
        angle = math.degrees(math.atan2(float(det), float(dot)))
        if angle == 0.0:           # a turn too small for a float: its sign still says which way
            angle = math.copysign(5e-324, det)
        elif abs(angle) == 180.0:  # nearly reversed, but off the line: short of 180°
            angle = math.copysign(math.nextafter(180.0, 0.0), det)
        return ("acw" if det > 0 else "cw"), angle, None, None
    lam = b0 / a0 if a0 != 0 else b1 / a1
    return "line", None, float(lam), _move(lam)


def perceptron_options(trace, X, y, figure: str = "main") -> dict[str, Any] | None:
    """The mode's options for a 2-D Perceptron run (None in other dimensions: the chart is the question).
    ``answer`` per round: "none", "mistake" (w = 0 before it), "acw", "cw" or "line" (:func:`turn`); ``wzero``,
    ``turn`` (+1 / −1 / 0), ``angle``, ``scale`` and ``move`` for the reveal."""
    X = np.asarray(X, dtype=np.float64)
    if X.ndim != 2 or X.shape[1] != 2:
        return None
    n = rounds(trace)
    out = common(trace, n)
    answer, wzero, angle, scale, move = ["none"] * n, [0] * n, [None] * n, [None] * n, [None] * n
    w, start = np.asarray(trace.weights_at(0), dtype=np.float64), 0
    for t in [int(t) for t in trace.mistakes if t < n]:   # w changes only at mistakes
        zero = not np.any(w)
        wzero[start:t + 1] = [int(zero)] * (t + 1 - start)
        after = np.asarray(trace.weights_at(t + 1), dtype=np.float64)
        if zero:
            answer[t] = "mistake"
        else:
            answer[t], angle[t], scale[t], move[t] = turn(w, after)
        w, start = after, t + 1
    wzero[start:n] = [int(not np.any(w))] * (n - start)
    out.update(kind="perceptron", figure=figure, px=X[:n, 0].tolist(), py=X[:n, 1].tolist(), wzero=wzero,
               label=np.asarray(y[:n], dtype=np.float64).astype(int).tolist(),
               score=np.asarray(trace.columns["score"][:n], dtype=np.float64).tolist(), answer=answer,
               turn=[{"acw": 1, "cw": -1}.get(a, 0) for a in answer], angle=angle, scale=scale, move=move)
    return out
