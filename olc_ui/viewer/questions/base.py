"""What every kind of predict-then-reveal question shares: how many rounds are asked about, the
per-round mistake flags, and a per-round value of the learner's state *before* the round."""
from __future__ import annotations

import math
from typing import Any, Callable

import numpy as np

__all__ = ["MAX_NAMED", "MAX_ROUNDS", "common", "named", "rounds", "sci_text", "state_before"]

#: The rounds the mode asks about: the first MAX_ROUNDS (the options travel with the page).
MAX_ROUNDS = 2000
#: Questions name items (experts, features) by number when there are at most this many.
MAX_NAMED = 12


def rounds(trace) -> int:
    return min(int(trace.T), MAX_ROUNDS)


def common(trace, n: int) -> dict[str, Any]:
    """``rounds``, ``T`` and the 0/1 ``mistake`` flag of each of the first ``n`` rounds (from ``trace.mistakes``)."""
    mistake = np.zeros(n, dtype=np.int8)
    m = np.asarray(trace.mistakes, dtype=np.int64)
    mistake[m[m < n]] = 1
    return {"rounds": n, "T": int(trace.T), "mistake": mistake.tolist()}


def state_before(trace, n: int, f: Callable[[np.ndarray], float], changes=None) -> np.ndarray:
    """Per round (0-based, the first ``n``): ``f`` of the weights before it. The weights change only at the rounds
    ``changes`` (default ``trace.mistakes``), so ``f`` is evaluated once per change."""
    c = np.asarray(trace.mistakes if changes is None else changes, dtype=np.int64)
    c = c[c < n]
    after = np.array([f(np.asarray(trace.weights_at(int(t) + 1))) for t in c], dtype=np.float64)
    first = f(np.asarray(trace.weights_at(0)))
    k = np.searchsorted(c, np.arange(n), side="left")          # changes before each round
    if not c.size:
        return np.full(n, first, dtype=np.float64)
    return np.where(k == 0, first, after[np.maximum(k - 1, 0)])


def named(mask: np.ndarray) -> list[list[int]] | None:
    """Per row of a boolean (rounds, items) ``mask``: the 1-based items set, when a row has at most
    :data:`MAX_NAMED` items (None otherwise: the question then gives a count)."""
    mask = np.asarray(mask, dtype=bool)
    if mask.ndim != 2 or mask.shape[1] > MAX_NAMED:
        return None
    return [(np.flatnonzero(row) + 1).tolist() for row in mask]


def sci_text(log10: float, digits: int = 3) -> str:
    """A positive number given by its base-10 logarithm (one too small or too large for a float), in the
    viewer's scientific notation with ``digits`` significant digits: ``sci_text(-400.5)`` is ``"3.16e-401"``."""
    e = math.floor(log10)
    m = float(f"{10.0 ** (log10 - e):.{digits - 1}f}")
    if m >= 10.0:
        m, e = m / 10.0, e + 1
    return f"{m:.{digits}g}e{'-' if e < 0 else '+'}{abs(e):02d}"
