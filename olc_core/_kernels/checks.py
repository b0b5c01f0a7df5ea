"""The proofs' link checks: :func:`link_bad` (every chain's verdict, a ≤ b within tolerance) and the
Perceptron proof's fused verdict pass (compiled with numba when available; the numpy forms give identical
verdicts, tested), and the per-process tables of mistake counts and their square roots."""
from __future__ import annotations

import time

import numpy as np

from . import engine

__all__ = ["link_bad", "link_bad_numpy", "perceptron_checks", "counts", "square_roots"]

#: series shorter than this are checked by the numpy form (≈ 0.1 ms a link): the kernel gains nothing there,
#: and loading a process's first compiled kernel costs ≈ 65 MB of resident memory (LLVM), e.g. 25 % of
#: a Winnow run's budget at N = T = 10⁴ (bench/winnow_memory.py)
_COMPILED_FROM = 1 << 14

_bad1 = None  # compiled (inlined) before the verdict kernel compiles: see _compile_checks


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
    if engine.resolve_engine("auto") != "numba" or a.shape[0] < _COMPILED_FROM:
        return link_bad_numpy(a, b, tol, scale_floor, log)
    kernels = engine.KERNELS
    if "link_bad" not in kernels:
        t0 = time.perf_counter()
        k = engine.jit(_link_bad_py)
        k(np.zeros(1), np.zeros(1), 1e-9, 0.0, False)
        engine.COMPILE_SECONDS["link_bad"] = time.perf_counter() - t0
        kernels["link_bad"] = k
    return kernels["link_bad"](np.ascontiguousarray(a), np.ascontiguousarray(b), float(tol), float(scale_floor),
                                bool(log))


def _perceptron_checks_py(inner, normv, g, gR, R, usable, rfinite, bound, tol, scale_a, k0, has_inner, roots):
    """The verdicts of the states ``k0 … k0+n-1`` whose ⟨w*,w⟩ and ‖w‖ are ``inner``/``normv``
    (column i is state k0 + i). The array is made here, so LLVM knows it aliases nothing and
    vectorises the pass (2× faster than writing into one passed in). ``has_inner`` False: no
    comparator, ⟨w*,w⟩ is NaN in every state (``inner`` is not read), so every link with ⟨w*,w⟩ or
    the cosine on a side is not checked (False, as NaN gives in the formula). ``roots[i]``: √(k0 + i), as
    ``np.sqrt`` gives it (correctly rounded, so the same float as computing it here: a table made once
    saves the pass its most expensive operation)."""
    n = normv.shape[0]
    out = np.empty((6, n), np.bool_)
    Rv = R if rfinite else np.nan
    if not has_inner:
        for i in range(n):
            kf = float(k0 + i)
            out[0, i] = False
            out[1, i] = False
            out[2, i] = _bad1(normv[i], roots[i] * Rv, tol, scale_a)
            out[3, i] = False
            out[4, i] = False
            out[5, i] = _bad1(kf, bound, tol, 1.0)
    elif usable:
        for i in range(n):
            kf = float(k0 + i)
            norm = normv[i]
            sqrtk = roots[i]
            cosine = inner[i] / norm
            out[0, i] = _bad1(kf * g, inner[i], tol, scale_a)
            out[1, i] = _bad1(inner[i], norm, tol, scale_a)
            out[2, i] = _bad1(norm, sqrtk * Rv, tol, scale_a)
            out[3, i] = _bad1(sqrtk * gR, cosine, tol, 1.0)
            out[4, i] = _bad1(cosine, 1.0, tol, 1.0)
            out[5, i] = _bad1(kf, bound, tol, 1.0)
    else:  # no usable γ: Mγ and √M·γ/R are NaN, so their links are not checked (False)
        for i in range(n):
            kf = float(k0 + i)
            norm = normv[i]
            cosine = inner[i] / norm
            out[0, i] = False
            out[1, i] = _bad1(inner[i], norm, tol, scale_a)
            out[2, i] = _bad1(norm, roots[i] * Rv, tol, scale_a)
            out[3, i] = False
            out[4, i] = _bad1(cosine, 1.0, tol, 1.0)
            out[5, i] = _bad1(kf, bound, tol, 1.0)
    return out


def _bad1_py(a, b, tol, scale_floor):
    """One element of link_bad_numpy (linear series), without a branch (so the pass vectorises):
    where the scale is infinite, ``diff > sc`` is False and the verdict is ``diff > 0``."""
    diff = a - b
    sc = abs(a)
    ab = abs(b)
    if ab > sc:
        sc = ab
    if scale_floor > sc:
        sc = scale_floor
    sc = sc * tol
    return (diff > sc) | (np.isinf(sc) & (diff > 0.0))


def _compile_checks():
    """The verdict kernel, compiled (or loaded from numba's cache) once, with :func:`_bad1_py` inlined."""
    global _bad1
    numba = engine.numba
    t0 = time.perf_counter()
    if _bad1 is None:
        _bad1 = numba.njit(inline="always", error_model="numpy")(_bad1_py)
    warm = (np.zeros(1), np.zeros(1), 0.1, 0.1, 1.0, True, True, 1.0, 1e-9, 1.0, 0, True, np.zeros(1))
    try:
        k = numba.njit(cache=True, nogil=True, error_model="numpy")(_perceptron_checks_py)
        k(*warm)
    except Exception:  # no cache locator
        k = numba.njit(nogil=True, error_model="numpy")(_perceptron_checks_py)
        k(*warm)
    engine.COMPILE_SECONDS["perceptron_checks"] = time.perf_counter() - t0
    engine.KERNELS["perceptron_checks"] = k
    return k


#: From this many states on, the verdict pass runs as two halves on two threads (when allowed). Measured at
#: 2·10⁵ states (the noisy 10⁶ stream): one thread 0.25 ms, two 0.45 ms (waking the worker and joining the
#: halves cost more than the pass, and far more when the other core is busy), so only for passes of several ms.
CHECKS_SPLIT_MIN = 1 << 21


def perceptron_checks(inner, norm, g, gR, R, usable, rfinite, bound, tol, scale_a, has_inner=True) -> np.ndarray:
    """The verdict of every link of the Perceptron's proofs A and B (and M ≤ bound) per state,
    in one compiled pass: rows Mγ≤⟨w*,w⟩, ⟨w*,w⟩≤‖w‖, ‖w‖≤√M·R, √M·γ/R≤cos, cos≤1, M≤bound.

    Each value is the same float expression as the materialised series (olc_core.proofs.perceptron),
    and each verdict the same formula as :func:`link_bad_numpy`, so the verdicts are identical.
    ``has_inner=False``: no comparator (``inner`` all NaN, not read). Long proofs are checked in two
    halves at once (the states are independent)."""
    k = engine.KERNELS.get("perceptron_checks") or _compile_checks()
    norm = np.ascontiguousarray(norm, dtype=np.float64)
    inner = np.ascontiguousarray(inner, dtype=np.float64) if has_inner else norm  # not read
    K = norm.shape[0]
    args = (float(g), float(gR), float(R), bool(usable), bool(rfinite), float(bound), float(tol), float(scale_a))
    roots = square_roots(K)
    if K >= CHECKS_SPLIT_MIN and engine.threads() >= 2:
        h = K // 2
        fut = engine.worker().submit(k, inner[:h], norm[:h], *args, 0, bool(has_inner), roots[:h])
        try:
            second = k(inner[h:], norm[h:], *args, h, bool(has_inner), roots[h:])
        finally:
            first = fut.result()
        return np.concatenate([first, second], axis=1)
    return k(inner, norm, *args, 0, bool(has_inner), roots)


#: The tables of :func:`counts` and :func:`square_roots` are kept for up to this many states (8 bytes each).
TABLE_MAX = 1 << 21
_tables: dict[str, np.ndarray] = {}


def _table(name: str, n: int, make) -> np.ndarray:
    """The first n entries of a per-process table ``make(m)`` (m ≥ n), read-only; made anew beyond TABLE_MAX."""
    if n > TABLE_MAX:
        a = make(n)
        a.flags.writeable = False
        return a
    a = _tables.get(name)
    if a is None or a.shape[0] < n:
        a = make(min(TABLE_MAX, max(n, 2 * (0 if a is None else a.shape[0]), 4096)))
        a.flags.writeable = False
        _tables[name] = a
    return a[:n]


def counts(n: int) -> np.ndarray:
    """``np.arange(n)`` (int64), read-only, from a table made once per process."""
    return _table("counts", n, lambda m: np.arange(m, dtype=np.int64))


def square_roots(n: int) -> np.ndarray:
    """``np.sqrt(np.arange(n))`` (float64), read-only, from a table made once per process."""
    return _table("roots", n, lambda m: np.sqrt(np.arange(m, dtype=np.float64)))

