"""``adversary`` of olc_core/streams/experts.py at commit 7dce59a (verbatim; imports made absolute)."""
from __future__ import annotations

import numpy as np

from olc_core.streams.base import Stream

_BLOCK_ELEMS = 1 << 22


def _check(cond: bool, msg: str) -> None:
    if not cond:
        raise ValueError(msg)


def _int(v, name: str, low: int = 1) -> int:
    _check(isinstance(v, (int, np.integer)) and not isinstance(v, bool) and v >= low,
           f"{name} must be an integer ≥ {low} (got {v!r})")
    return int(v)


def _mistakes(A: np.ndarray, y: np.ndarray) -> np.ndarray:
    T, N = A.shape
    out = np.zeros(N, dtype=np.int64)
    rows = max(1, _BLOCK_ELEMS // N)
    for s in range(0, T, rows):
        out += (A[s:s + rows] != y[s:s + rows, None]).sum(axis=0)
    return out


def adversary(T: int, N: int, beta: float = 0.5, update: str = "on_mistake", seed: int = 0) -> Stream:
    """Advice that halves Weighted Majority's weight, labelled against its prediction (WM errs every round).

    Each round the experts are sorted by weight (random order among equals) and
    given alternately +1 and −1 (which sign goes first is a coin flip), so each
    side holds about half of Φ; the label is the opposite of WM's exact
    prediction for ``beta``/``update``. Then every round is a mistake and
    ``Φ_{t+1} ≈ (1+β)/2·Φ_t`` — the upper curve of the sandwich is nearly
    attained. With ``update="every_round"`` the same weights are those of RWM
    with η = 1 − β, and the stream is the one against RWM's weighted majority.
    """
    from olc_core.learners.weighted_majority import WeightState  # the learner's own exact vote

    T, N = _int(T, "T"), _int(N, "N", 2)
    _check(0.0 <= beta < 1.0, f"beta must be in [0, 1) (got {beta!r})")
    _check(update in ("on_mistake", "every_round"), "update must be 'on_mistake' or 'every_round'")
    rng = np.random.default_rng([seed, 12])
    st = WeightState(N, beta)
    A = np.empty((T, N), dtype=np.int8)
    y = np.empty(T)
    signs = np.array([1, -1], dtype=np.int8)
    with np.errstate(under="ignore"):
        for t in range(T):
            order = np.lexsort((rng.random(N), st.c))
            a = np.empty(N, dtype=np.int8)
            first = signs[int(rng.integers(2))]
            a[order[0::2]] = first
            a[order[1::2]] = -first
            yhat, _ = st.predict(a, (1, -1))
            A[t] = a
            y[t] = -yhat
            st.penalise(a != -yhat)  # the learner errs on every round: both variants penalise
    m = _mistakes(A, y.astype(np.int8))
    best = int(np.argmin(m))
    return Stream(A, y, best, {"kind": "adversary", "T": T, "N": N, "beta": beta, "update": update,
                               "expert_mistakes": m, "m_star": int(m[best]), "best_expert": best, "seed": seed})
