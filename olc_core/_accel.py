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
    ``bad_row = -2`` when some label is not ±1 (the caller finds the first).
    """
    T, d = X.shape
    cap = snaps.shape[0]
    M = M0
    bad_row = -1
    nbad = 0  # labels other than ±1 seen: reported as bad_row = -2 (the caller finds the first)
    if d == 2:  # the lecture-hall case: same arithmetic, the two coordinates in registers
        w0 = w[0]
        w1 = w[1]
        a0 = wstar[0]
        a1 = wstar[1]
        for t in range(t0, T):
            if M == cap:
                w[0] = w0
                w[1] = w1
                return t, M, r2max, cmin, -2 if nbad > 0 else bad_row
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
            nbad += (yt != 1.0) & (yt != -1.0)  # counted, not branched on: a break here costs 3x
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
        return T, M, r2max, cmin, -2 if nbad > 0 and bad_row < 0 else bad_row
    for t in range(t0, T):
        if M == cap:
            return t, M, r2max, cmin, -2 if nbad > 0 else bad_row
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
        nbad += (yt != 1.0) & (yt != -1.0)
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
    return T, M, r2max, cmin, -2 if nbad > 0 and bad_row < 0 else bad_row


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


def _buffers(cap: int, d: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The per-mistake buffers (rounds, weights, ⟨w*,w⟩, ‖w‖²) carved out of one allocation.

    Fresh memory costs a page fault per 4 KB page on first write (a few µs each on a
    virtual machine); one block large enough for numpy to back it with huge pages costs
    a fraction of four separate mid-size arrays.
    """
    n = cap * 8 + cap * d * 8 + 2 * (cap + 1) * 8
    arena = np.empty(n, np.uint8)
    o = 0
    mis = arena[o:o + cap * 8].view(np.int64)
    o += cap * 8
    snaps = arena[o:o + cap * d * 8].view(np.float64).reshape(cap, d)
    o += cap * d * 8
    inner = arena[o:o + (cap + 1) * 8].view(np.float64)
    o += (cap + 1) * 8
    norm2 = arena[o:o + (cap + 1) * 8].view(np.float64)
    inner[0] = 0.0
    norm2[0] = 0.0
    return mis, snaps, inner, norm2


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
    mis, snaps, inner, norm2 = _buffers(cap, d)
    w = np.zeros(d)
    t, M, r2, cmin, bad = 0, 0, 0.0, np.inf, -1
    while True:
        t, M, r2, cmin, bad = k(X, y, wv, has, t, w, M, score, cmargin, mis, snaps, inner, norm2, r2, cmin)
        if t >= T or bad != -1:
            break
        cap *= 2  # buffers full: grow and resume where the loop stopped
        mis2, snaps2, inner2, norm22 = _buffers(cap, d)
        mis2[:M], snaps2[:M], inner2[:M + 1], norm22[:M + 1] = mis[:M], snaps[:M], inner[:M + 1], norm2[:M + 1]
        mis, snaps, inner, norm2 = mis2, snaps2, inner2, norm22
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


def _perceptron_checks_py(inner, normv, g, gR, R, usable, rfinite, bound, tol, scale_a):
    K = inner.shape[0]
    out = np.zeros((6, K), np.bool_)
    nan = np.nan
    for k in range(K):
        kf = float(k)
        norm = normv[k]
        sqrtk = np.sqrt(kf)
        Mg = kf * g if usable else nan
        cl = sqrtk * gR if usable else nan
        sMR = sqrtk * R if rfinite else nan
        cosine = inner[k] / norm
        out[0, k] = _bad1(Mg, inner[k], tol, scale_a)
        out[1, k] = _bad1(inner[k], norm, tol, scale_a)
        out[2, k] = _bad1(norm, sMR, tol, scale_a)
        out[3, k] = _bad1(cl, cosine, tol, 1.0)
        out[4, k] = _bad1(cosine, 1.0, tol, 1.0)
        out[5, k] = _bad1(kf, bound, tol, 1.0)
    return out


def _bad1_py(a, b, tol, scale_floor):
    """One element of link_bad_numpy (linear series)."""
    diff = a - b
    sc = abs(a)
    ab = abs(b)
    if ab > sc:
        sc = ab
    if scale_floor > sc:
        sc = scale_floor
    sc = sc * tol
    if np.isinf(sc):
        return diff > 0.0
    return diff > sc


def perceptron_checks(inner, norm, g, gR, R, usable, rfinite, bound, tol, scale_a) -> np.ndarray:
    """The verdict of every link of the Perceptron's proofs A and B (and M ≤ bound) per state,
    in one compiled pass: rows Mγ≤⟨w*,w⟩, ⟨w*,w⟩≤‖w‖, ‖w‖≤√M·R, √M·γ/R≤cos, cos≤1, M≤bound.

    Each value is the same float expression as the materialised series (olc_core.proofs.perceptron),
    and each verdict the same formula as :func:`link_bad_numpy`, so the verdicts are identical."""
    global _bad1
    if "perceptron_checks" not in _kernels:
        t0 = time.perf_counter()
        _bad1 = _numba.njit(inline="always", error_model="numpy")(_bad1_py)
        try:
            k = _numba.njit(cache=True, nogil=True, error_model="numpy")(_perceptron_checks_py)
            k(np.zeros(1), np.zeros(1), 0.1, 0.1, 1.0, True, True, 1.0, 1e-9, 1.0)
        except Exception:  # no cache locator
            k = _numba.njit(nogil=True, error_model="numpy")(_perceptron_checks_py)
            k(np.zeros(1), np.zeros(1), 0.1, 0.1, 1.0, True, True, 1.0, 1e-9, 1.0)
        _compile_seconds["perceptron_checks"] = time.perf_counter() - t0
        _kernels["perceptron_checks"] = k
    return _kernels["perceptron_checks"](np.ascontiguousarray(inner, dtype=np.float64),
                                         np.ascontiguousarray(norm, dtype=np.float64), float(g), float(gR),
                                         float(R), bool(usable), bool(rfinite), float(bound), float(tol),
                                         float(scale_a))


_bad1 = _bad1_py
