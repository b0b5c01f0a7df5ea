"""Optional compiled inner loops (numba). Never required: every kernel here has a
numpy twin in the learner's module that gives bit-identical results.

Exactness rules both twins follow (tested): every dot product is summed
sequentially over j = 0 … d-1 (no pairwise or SIMD reassociation, no fused
multiply-add: numba's default ``fastmath=False`` keeps IEEE order), and the
update is ``w[j] = w[j] + y * x[j]``.

``OLC_CORE_ENGINE=numpy`` in the environment makes "auto" mean numpy.
"""
from __future__ import annotations

import os
import time

import numpy as np

__all__ = ["available", "resolve_engine", "perceptron_kernel", "perceptron", "link_bad", "link_bad_numpy", "compile_seconds"]

_kernels: dict[str, object] = {}
_compile_seconds: dict[str, float] = {}

try:  # pragma: no cover - depends on the environment
    import numba as _numba
except Exception:  # ImportError, or a numba that fails with this numpy
    _numba = None


def available() -> bool:
    return _numba is not None


def resolve_engine(engine: str) -> str:
    """'auto' -> 'numba' when numba is importable (and not disabled), else 'numpy'."""
    if engine == "auto":
        if os.environ.get("OLC_CORE_ENGINE", "").lower() == "numpy" or not available():
            return "numpy"
        return "numba"
    if engine == "numba" and not available():
        raise ValueError("engine='numba' was asked for but numba is not installed; use engine='numpy'")
    return engine


def compile_seconds() -> dict[str, float]:
    """Seconds spent compiling (or loading from numba's cache) each kernel in this process."""
    return dict(_compile_seconds)


def _jit(fn):
    try:
        return _numba.njit(cache=True, nogil=True)(fn)
    except Exception:  # read-only install: no cache locator
        return _numba.njit(nogil=True)(fn)


def _perceptron_py(X, y, wstar, has_wstar, t0, w, M0, score, cmargin, mis, snaps, inner, norm2, r2max, cmin):
    """The Perceptron from round ``t0`` with weights ``w`` (updated in place) and ``M0`` mistakes so far.

    Writes per round the score ⟨w, x⟩ and the comparator margin y⟨w*, x⟩, and per mistake the
    round, the new weights, ⟨w*, w⟩ and ‖w‖² (``inner``/``norm2`` index k+1 for mistake k).
    Returns ``(t_stop, M, r2max, cmin, bad_row)``: ``t_stop < T`` when the snapshot buffers
    are full (the caller grows them and resumes); ``bad_row >= 0`` at a non-finite row of X,
    ``bad_row = -2 - t`` when the label of round t is not ±1.
    """
    T, d = X.shape
    cap = snaps.shape[0]
    M = M0
    bad_row = -1
    if d == 2:  # the lecture-hall case: same arithmetic, the two coordinates in registers
        w0 = w[0]
        w1 = w[1]
        a0 = wstar[0]
        a1 = wstar[1]
        for t in range(t0, T):
            if M == cap:
                w[0] = w0
                w[1] = w1
                return t, M, r2max, cmin, bad_row
            x0 = X[t, 0]
            x1 = X[t, 1]
            s = 0.0
            s += x0 * w0
            s += x1 * w1
            xx = 0.0
            xx += x0 * x0
            xx += x1 * x1
            if not np.isfinite(xx):
                if not (np.isfinite(x0) and np.isfinite(x1)):
                    bad_row = t
                    break
            score[t] = s
            if xx > r2max:
                r2max = xx
            yt = y[t]
            if yt != 1.0 and yt != -1.0:
                bad_row = -2 - t
                break
            if has_wstar:
                c = 0.0
                c += x0 * a0
                c += x1 * a1
                c = yt * c
                cmargin[t] = c
                if c < cmin:
                    cmin = c
            if yt * s <= 0.0:
                w0 = w0 + yt * x0
                w1 = w1 + yt * x1
                mis[M] = t
                snaps[M, 0] = w0
                snaps[M, 1] = w1
                a = 0.0
                a += a0 * w0
                a += a1 * w1
                b = 0.0
                b += w0 * w0
                b += w1 * w1
                inner[M + 1] = a
                norm2[M + 1] = b
                M += 1
        w[0] = w0
        w[1] = w1
        return T, M, r2max, cmin, bad_row
    for t in range(t0, T):
        if M == cap:
            return t, M, r2max, cmin, bad_row
        s = 0.0
        xx = 0.0
        c = 0.0
        for j in range(d):
            xj = X[t, j]
            s += xj * w[j]
            xx += xj * xj
            c += xj * wstar[j]
        if not np.isfinite(xx):
            for j in range(d):
                if not np.isfinite(X[t, j]):
                    bad_row = t
            if bad_row >= 0:
                break
        score[t] = s
        if xx > r2max:
            r2max = xx
        yt = y[t]
        if yt != 1.0 and yt != -1.0:
            bad_row = -2 - t
            break
        if has_wstar:
            c = yt * c
            cmargin[t] = c
            if c < cmin:
                cmin = c
        if yt * s <= 0.0:
            a = 0.0
            b = 0.0
            for j in range(d):
                w[j] = w[j] + yt * X[t, j]
                snaps[M, j] = w[j]
                a += wstar[j] * w[j]
                b += w[j] * w[j]
            mis[M] = t
            inner[M + 1] = a
            norm2[M + 1] = b
            M += 1
    return T, M, r2max, cmin, bad_row


def perceptron_kernel():
    """The compiled Perceptron loop (compiled on first use, cached on disk by numba)."""
    if "perceptron" not in _kernels:
        t0 = time.perf_counter()
        k = _jit(_perceptron_py)
        # compile (or load from the cache) now, so the first run's timing is the run's own
        for d in (1, 2):
            k(np.zeros((1, d)), np.ones(1), np.zeros(d), True, 0, np.zeros(d), 0, np.empty(1), np.empty(1),
              np.empty(1, np.int64), np.empty((1, d)), np.zeros(2), np.zeros(2), 0.0, np.inf)
        _compile_seconds["perceptron"] = time.perf_counter() - t0
        _kernels["perceptron"] = k
    return _kernels["perceptron"]


def perceptron(X: np.ndarray, y: np.ndarray, wstar: np.ndarray | None):
    """Run the compiled loop, growing the per-mistake buffers as needed.

    Returns ``score, cmargin, mistakes, snapshots, inner, norm2, max‖x‖², min cmargin, bad_row``.
    """
    k = perceptron_kernel()
    T, d = X.shape
    has = wstar is not None
    wv = wstar if has else np.zeros(d)
    cap = int(min(T, max(1024, min(T // 4, (256 << 20) // (8 * d)))))  # virtual until written
    score = np.empty(T)
    cmargin = np.empty(T if has else 0)
    mis = np.empty(cap, np.int64)
    snaps = np.empty((cap, d))
    inner = np.zeros(cap + 1)
    norm2 = np.zeros(cap + 1)
    w = np.zeros(d)
    t, M, r2, cmin, bad = 0, 0, 0.0, np.inf, -1
    while True:
        t, M, r2, cmin, bad = k(X, y, wv, has, t, w, M, score, cmargin, mis, snaps, inner, norm2, r2, cmin)
        if t >= T or bad != -1:
            break
        cap *= 2  # buffers full: grow and resume where the loop stopped
        mis = np.concatenate([mis, np.empty(cap - len(mis), np.int64)])
        snaps = np.concatenate([snaps, np.empty((cap - len(snaps), d))])
        inner = np.concatenate([inner, np.zeros(cap + 1 - len(inner))])
        norm2 = np.concatenate([norm2, np.zeros(cap + 1 - len(norm2))])
    return score, cmargin, mis[:M], snaps[:M], inner[:M + 1], norm2[:M + 1], r2, cmin, bad


def link_bad_numpy(a: np.ndarray, b: np.ndarray, tol: float, scale_floor: float, log: bool) -> np.ndarray:
    """True where ``a ≤ b`` fails beyond the tolerance; NaN on either side is not checked.

    Linear series: ``a − b > tol·max(|a|, |b|, scale_floor)`` (a plain ``a − b > 0``
    when that scale is infinite). Log series: ``a − b > tol``.
    """
    with np.errstate(invalid="ignore", over="ignore", under="ignore"):
        diff = a - b
        if log:
            return diff > tol
        scale = np.abs(a)
        np.maximum(scale, np.abs(b), out=scale)
        np.maximum(scale, scale_floor, out=scale)
        scale *= tol
        bad = diff > scale
        inf = np.isinf(scale)
        if inf.any():
            bad[inf] = diff[inf] > 0
    return bad


def _link_bad_py(a, b, tol, scale_floor, log):
    n = a.shape[0]
    out = np.empty(n, np.bool_)
    for i in range(n):
        diff = a[i] - b[i]
        if log:
            out[i] = diff > tol
            continue
        sc = abs(a[i])
        ab = abs(b[i])
        if ab > sc:
            sc = ab
        if scale_floor > sc:
            sc = scale_floor
        sc = sc * tol
        if np.isinf(sc):
            out[i] = diff > 0.0
        else:
            out[i] = diff > sc
    return out


def link_bad(a: np.ndarray, b: np.ndarray, tol: float, scale_floor: float, log: bool) -> np.ndarray:
    """:func:`link_bad_numpy`, compiled in one pass when numba is available (identical result)."""
    if resolve_engine("auto") != "numba" or a.shape[0] < 4096:
        return link_bad_numpy(a, b, tol, scale_floor, log)
    if "link_bad" not in _kernels:
        t0 = time.perf_counter()
        k = _jit(_link_bad_py)
        k(np.zeros(1), np.zeros(1), 1e-9, 0.0, False)
        _compile_seconds["link_bad"] = time.perf_counter() - t0
        _kernels["link_bad"] = k
    return _kernels["link_bad"](np.ascontiguousarray(a), np.ascontiguousarray(b), float(tol), float(scale_floor),
                                bool(log))
