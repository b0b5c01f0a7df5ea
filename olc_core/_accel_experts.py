"""Fast paths of the expert learners (Weighted Majority, Randomised WM): blocks of rounds at once.

The weights of WM and RWM are ``w_{t,i} = β^{c_{t,i}}`` with integer exponents ``c``
(penalty counts), so everything the learners report is a function of the counts
before each round, ``C_t = c_0 + Σ_{s<t} penalised_s``: an exclusive cumulative
sum over rounds. :func:`count_blocks` yields those counts a block of rows at a
time (bounded memory for any T·N) and :func:`scaled_weights` turns a block into
the floats ``β^{C_{t,i} − min_i C_{t,i}}`` (one table of powers, a gather — never
an underflow where it matters: the largest weight of a row is 1). Only WM's
on_mistake update is sequential (the counts depend on the learner's mistakes):
its decisions come from :func:`wm_decisions` — a compiled kernel (numba, optional)
or its numpy twin, which evaluates the vote of every round up to the next
mistake at once. Decisions are exact (ties → +1 via ``exact_vote_sign``), so
both engines give the same decisions, and everything else is computed from the
counts by the same numpy code: the traces are bit-identical.

``OLC_CORE_ENGINE=numpy`` in the environment makes "auto" mean numpy.
"""
from __future__ import annotations

import math
from typing import Callable, Iterator

import numpy as np

from ._accel import available, resolve_engine

__all__ = ["count_blocks", "scaled_weights", "log_phi_rows", "vote_tolerance", "wm_decisions"]

EPS = 2.0 ** -52
#: elements (rows × experts) per block
BLOCK_ELEMS = 1 << 20


def block_rows(N: int) -> int:
    return max(1, BLOCK_ELEMS // max(N, 1))


def count_blocks(A: np.ndarray, yv: np.ndarray, penalised: np.ndarray | None, c0: np.ndarray
                 ) -> Iterator[tuple[int, int, np.ndarray, np.ndarray]]:
    """``(s, e, wrong, C)`` for consecutive row blocks: ``wrong[t − s, i] = (A[t, i] ≠ yv[t])`` and
    ``C[t − s]`` the counts before round t (int32: a count is below T < 2^31). ``penalised``: (T,) bool, the rounds whose
    wrong experts are penalised (None: every round). ``c0`` (int64, N) is updated in place to
    the counts after the last block."""
    T, N = A.shape
    step = block_rows(N)
    for s in range(0, T, step):
        e = min(T, s + step)
        wrong = A[s:e] != yv[s:e, None]
        pen = wrong if penalised is None else wrong & penalised[s:e, None]
        C = np.cumsum(pen, axis=0, dtype=np.int32)
        C -= pen
        C += c0.astype(np.int32)
        c0[:] = C[-1] + pen[-1]
        yield s, e, wrong, C


def power_table(beta: float, kmax: int) -> np.ndarray:
    """``β^k`` for k = 0 … kmax (``np.power``; β = 0 gives 1, 0, 0, …)."""
    with np.errstate(under="ignore"):
        return np.power(float(beta), np.arange(int(kmax) + 1, dtype=np.float64))


def scaled_weights(C: np.ndarray, beta: float) -> tuple[np.ndarray, np.ndarray]:
    """``(w, base)``: ``w[r, i] = β^{C[r, i] − base[r]}`` with ``base[r] = min_i C[r, i]`` (β > 0); for
    β = 0 the weights are 0/1 (1 iff never penalised) and ``base`` is 0."""
    if beta == 0.0:
        return (C == 0).astype(np.float64), np.zeros(C.shape[0], dtype=np.int64)
    base = C.min(axis=1)
    K = C - base[:, None]
    return power_table(beta, int(K.max()) if K.size else 0)[K], base


def log_phi_rows(phi: np.ndarray, base: np.ndarray, beta: float) -> np.ndarray:
    """``ln Φ = base·ln β + ln(Σ scaled weights)`` per row (−inf where the scaled sum is 0)."""
    out = np.full(phi.shape, -math.inf)
    pos = phi > 0
    lb = math.log(beta) if beta > 0 else 0.0
    out[pos] = np.where(base[pos] != 0, base[pos] * lb, 0.0) + np.log(phi[pos])
    return out


def vote_tolerance(N: int, phi: np.ndarray | float) -> np.ndarray | float:
    """A bound on the rounding error of ``Σ_i ±β^{k_i}`` computed from rounded powers in any order
    (each power within an ulp, at most N terms summed; underflowed terms below 2^-1022 each)."""
    return 4.0 * (N + 8) * EPS * phi + 2.0 ** -1000


# ---------------------------------------------------------------------------- WM on_mistake decisions
def _wm_kernel_py(A, yv, y, on, beta, c, t0, pred, is_mis):
    """Rounds t0 … T−1 of WM (on_mistake) with float weights, sequential sums; ``c`` (int64
    exponents) updated in place. Returns the first round whose vote is within its rounding
    bound of 0 (the caller decides it exactly and calls again from the next round), or T."""
    T, N = A.shape
    w = np.empty(N)
    base = c.min()
    for i in range(N):
        w[i] = beta ** float(c[i] - base) if beta > 0.0 else (1.0 if c[i] == 0 else 0.0)
    since = 0
    for t in range(t0, T):
        d = 0.0
        phi = 0.0
        for i in range(N):
            phi += w[i]
            if A[t, i] == on:
                d += w[i]
            else:
                d -= w[i]
        if beta == 0.0:
            tau = -1.0  # d is an exact integer: d == 0 is the tie (→ +1)
        else:
            tau = 4.0 * (N + since + 8) * 2.220446049250313e-16 * phi + 2.0 ** -1000
        if -tau <= d <= tau and beta > 0.0:
            return t
        yhat = 1 if d >= 0.0 else -1
        pred[t] = yhat
        if yhat != y[t]:
            is_mis[t] = True
            for i in range(N):
                if A[t, i] != yv[t]:
                    c[i] += 1
                    w[i] *= beta
            since += 1
            if beta > 0.0:
                phi = 0.0
                for i in range(N):
                    phi += w[i]
                if phi < 2.0 ** -500:  # rescale from the exact exponents
                    base = c.min()
                    for i in range(N):
                        w[i] = beta ** float(c[i] - base)
                    since = 0
    return T


def _wm_numpy(A, yv, y, on, beta, c, t0, pred, is_mis):
    """The numpy twin of :func:`_wm_kernel_py`: the weights are fixed until the next mistake, so the
    votes of a block of rounds are one matrix–vector product (the block doubles while no mistake)."""
    T, N = A.shape
    rows = 16
    t = t0
    while t < T:
        w, _ = scaled_weights(c[None, :], beta)
        w = w[0]
        phi = float(w.sum())
        e = min(T, t + min(rows, block_rows(N)))
        d = 2.0 * ((A[t:e] == on) @ w) - phi
        tau = -1.0 if beta == 0.0 else vote_tolerance(N, phi)
        yhat = np.where(d >= 0.0, 1, -1)
        amb = np.abs(d) <= tau
        stop = (yhat != y[t:e]) | amb
        k = int(np.argmax(stop)) if stop.any() else e - t
        pred[t:t + k] = yhat[:k]
        if k == e - t:
            t, rows = e, rows * 2
            continue
        if amb[k]:
            return t + k
        pred[t + k] = yhat[k]
        is_mis[t + k] = True
        c += A[t + k] != yv[t + k]
        t, rows = t + k + 1, 16
    return T


_kernel: list = []


def _compiled():
    if not _kernel:
        import numba
        try:
            _kernel.append(numba.njit(cache=True, nogil=True)(_wm_kernel_py))
        except Exception:  # read-only install: no cache locator
            _kernel.append(numba.njit(nogil=True)(_wm_kernel_py))
    return _kernel[0]


def wm_decisions(A: np.ndarray, yv: np.ndarray, y: np.ndarray, on, beta: float,
                 exact_sign: Callable[[np.ndarray, np.ndarray], int], engine: str = "auto"
                 ) -> tuple[np.ndarray, np.ndarray]:
    """WM with ``update="on_mistake"``: its predictions (int8) and mistake flags, decided exactly
    (``exact_sign(counts, plus)`` for the rounds a float vote cannot decide; ties → +1)."""
    T, N = A.shape
    pred = np.ones(T, dtype=np.int8)
    is_mis = np.zeros(T, dtype=np.bool_)
    c = np.zeros(N, dtype=np.int64)
    step = _compiled() if resolve_engine(engine) == "numba" and available() else _wm_numpy
    yy = np.ascontiguousarray(y, dtype=np.int64)
    t = 0
    while t < T:
        t = int(step(A, yv, yy, A.dtype.type(on), float(beta), c, t, pred, is_mis))
        if t >= T:
            break
        yhat = 1 if exact_sign(c, A[t] == on) >= 0 else -1
        pred[t] = yhat
        if yhat != y[t]:
            is_mis[t] = True
            c += A[t] != yv[t]
        t += 1
    return pred, is_mis
