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

__all__ = ["available", "resolve_engine", "perceptron_kernel", "compile_seconds"]

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


def _perceptron_py(X, y, wstar, has_wstar):
    T, d = X.shape
    w = np.zeros(d)
    score = np.empty(T)
    cmargin = np.empty(T if has_wstar else 0)
    cap = 1024 if T > 1024 else T
    mis = np.empty(cap, np.int64)
    snaps = np.empty((cap, d))
    inner = np.empty(cap)
    norm2 = np.empty(cap)
    M = 0
    r2max = 0.0
    bad_row = -1
    for t in range(T):
        s = 0.0
        xx = 0.0
        c = 0.0
        for j in range(d):
            xj = X[t, j]
            s += xj * w[j]
            xx += xj * xj
            if has_wstar:
                c += xj * wstar[j]
        if not np.isfinite(xx):
            ok = True
            for j in range(d):
                if not np.isfinite(X[t, j]):
                    ok = False
            if not ok:
                bad_row = t
                break
        score[t] = s
        if xx > r2max:
            r2max = xx
        yt = y[t]
        if has_wstar:
            cmargin[t] = yt * c
        if yt * s <= 0.0:
            for j in range(d):
                w[j] = w[j] + yt * X[t, j]
            if M == cap:
                cap2 = cap * 2
                mis2 = np.empty(cap2, np.int64)
                snaps2 = np.empty((cap2, d))
                inner2 = np.empty(cap2)
                norm22 = np.empty(cap2)
                mis2[:M] = mis[:M]
                snaps2[:M] = snaps[:M]
                inner2[:M] = inner[:M]
                norm22[:M] = norm2[:M]
                mis, snaps, inner, norm2, cap = mis2, snaps2, inner2, norm22, cap2
            mis[M] = t
            a = 0.0
            b = 0.0
            for j in range(d):
                snaps[M, j] = w[j]
                if has_wstar:
                    a += wstar[j] * w[j]
                b += w[j] * w[j]
            inner[M] = a
            norm2[M] = b
            M += 1
    return score, cmargin, mis[:M], snaps[:M], inner[:M], norm2[:M], r2max, bad_row


def perceptron_kernel():
    """The compiled Perceptron loop (compiled on first use, cached on disk by numba)."""
    if "perceptron" not in _kernels:
        t0 = time.perf_counter()
        k = _jit(_perceptron_py)
        # compile (or load from the cache) now, so the first run's timing is the run's own
        k(np.zeros((1, 1)), np.ones(1), np.zeros(1), True)
        _compile_seconds["perceptron"] = time.perf_counter() - t0
        _kernels["perceptron"] = k
    return _kernels["perceptron"]
