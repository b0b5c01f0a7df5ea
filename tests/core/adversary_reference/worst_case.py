"""``halving_adversary`` of olc_core/streams/worst_case.py at commit 7dce59a (verbatim; imports made absolute)."""
from __future__ import annotations

import numpy as np

from olc_core.streams.base import Stream

__all__ = ["halving_adversary"]


def _check(cond: bool, msg: str) -> None:
    if not cond:
        raise ValueError(msg)


def _is_int(v) -> bool:
    return isinstance(v, (int, np.integer)) and not isinstance(v, (bool, np.bool_))


def halving_adversary(T: int, N: int, seed: int = 0) -> Stream:
    """``T`` rounds of advice from ``N`` hypotheses against Halving (module docstring): ⌊log₂ N⌋ forced mistakes.

    ``comparator`` is the index of the hypothesis consistent with every label;
    ``info["forced"]`` the number of forced rounds (min(T, ⌊log₂ N⌋)).
    """
    _check(_is_int(T) and T >= 1, f"T must be an integer ≥ 1 (got {T!r})")
    _check(_is_int(N) and N >= 1, f"N must be an integer ≥ 1 (got {N!r})")
    T, N = int(T), int(N)
    rng = np.random.default_rng([seed, 14])
    A = np.where(rng.random((T, N)) < 0.5, 1, -1).astype(np.int8)
    y = np.empty(T)
    alive = rng.permutation(N)
    t = 0
    while t < T and alive.size >= 2:
        m = alive.size
        plus, minus = alive[: m // 2], alive[m // 2:]     # odd m: the −1 side has one more
        A[t, plus], A[t, minus] = 1, -1
        if m % 2 == 0:        # a tie: Halving predicts +1, the label is −1
            y[t], alive = -1.0, minus
        else:                 # majority −1: Halving predicts −1, the label is +1
            y[t], alive = 1.0, plus
        t += 1
    forced = t
    survivor = int(alive[0])
    y[t:] = A[t:, survivor]
    return Stream(A, y, survivor, {"kind": "halving-adversary", "T": T, "N": N, "forced": forced,
                                   "seed": seed, "order": "generated"})
