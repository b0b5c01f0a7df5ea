"""Compiled passes over X for the exponentiated update (normalised Winnow) and anything else that
needs :func:`olc_core._support.numeric.rowdot`'s exact sums fast (numba, optional).

Every function here has a numpy twin and gives the same bits:

* :func:`rowdot` — ``Σ_j A[i, j]·v[j]`` summed sequentially over j = 0 … d−1 from 0.0, as
  :func:`olc_core._support.numeric.rowdot` (the kernel keeps the order of each row's sum and interleaves
  four rows, so four independent addition chains run at once; no fused multiply-add: numba's
  default ``fastmath=False``).
* :func:`signed_parts` — ``P = rowdot(max(X, 0), z)`` and ``Q = rowdot(max(−X, 0), z)`` in one
  pass, without the two T × N temporaries. A term ``±0`` leaves a sum that started at +0.0
  unchanged (x + ±0 = x for x ≠ 0, and +0 + ±0 = +0), so each part's sum is the same whether the
  zero terms of the other sign are added or not.
* :func:`scan_rows` — the exponentiated update's rounds from ``t`` on with fixed weights: each row's
  ``P, Q`` as :func:`signed_parts`, its sign, score ``e·(P − Q)`` and near-tie test, stopping at the
  first row that is a mistake, a near tie or has both parts below 2⁻⁹⁰⁰ (the caller handles that
  row), or that has an entry outside [−1, 1] or NaN (checked before the row is used, so a caller may
  leave the box check of X to the scan). The kernel reads four rows at a time and stops within them (at most three rows read in
  vain per stop); the twin reads blocks of rows.
* :func:`first_row_outside_unit_box` — the first row with an entry outside [−1, 1] (NaN included),
  or −1, in one pass without temporaries; :func:`rowdot_in_box` does it and :func:`rowdot` in one pass.

Small inputs (fewer than :data:`MIN_CELLS` cells) take the numpy twin (no compile); a caller that
works on blocks of one X decides once for the whole X (``compiled=``). ``OLC_CORE_ENGINE=numpy`` in the environment makes every call take the numpy twin.

>>> import numpy as np
>>> A = np.array([[1e16, 1.0, -1e16], [1.0, 2.0, 3.0]])
>>> rowdot(A, np.ones(3)).tolist()        # sequential: (1e16 + 1) − 1e16 = 0 in float64
[0.0, 6.0]
>>> P, Q = signed_parts(np.array([[1.0, -1.0, 0.5]]), np.array([0.5, 0.25, 1.0]))
>>> P.tolist(), Q.tolist()
([1.0], [0.25])
>>> first_row_outside_unit_box(np.array([[1.0, -1.0], [0.0, 1.5]])), first_row_outside_unit_box(np.zeros((2, 2)))
(1, -1)
"""
from __future__ import annotations

import time

import numpy as np

from .._support import numeric as _numeric
from . import engine
from .engine import jit, resolve_engine

__all__ = ["rowdot", "rowdot_in_box", "signed_parts", "scan_rows", "SCAN_END", "SCAN_MISTAKE", "SCAN_NEAR", "SCAN_SMALL",
           "SCAN_OUTSIDE", "first_row_outside_unit_box", "use_compiled", "MIN_CELLS"]

#: below this many cells (rows × columns) the numpy twin is used
MIN_CELLS = 1 << 14
_CHUNK_CELLS = 1 << 16
_kernels: dict[str, object] = {}
#: what stopped :func:`scan_rows`: the end of X, a float-certain mistake, a near tie, both parts tiny,
#: an entry outside [−1, 1] (or NaN)
SCAN_END, SCAN_MISTAKE, SCAN_NEAR, SCAN_SMALL, SCAN_OUTSIDE = 0, 1, 2, 3, 4
_SMALL = 2.0 ** -900


# --------------------------------------------------------------------------- kernels (plain Python)
def _rowdot_py(A, v, out):
    n, d = A.shape
    i = 0
    while i + 4 <= n:
        s0 = 0.0
        s1 = 0.0
        s2 = 0.0
        s3 = 0.0
        for j in range(d):
            vj = v[j]
            s0 += A[i, j] * vj
            s1 += A[i + 1, j] * vj
            s2 += A[i + 2, j] * vj
            s3 += A[i + 3, j] * vj
        out[i] = s0
        out[i + 1] = s1
        out[i + 2] = s2
        out[i + 3] = s3
        i += 4
    while i < n:
        s = 0.0
        for j in range(d):
            s += A[i, j] * v[j]
        out[i] = s
        i += 1


def _signed_parts_py(X, z, P, Q):
    n, d = X.shape
    i = 0
    while i + 4 <= n:   # four rows: eight independent addition chains
        p0 = 0.0
        q0 = 0.0
        p1 = 0.0
        q1 = 0.0
        p2 = 0.0
        q2 = 0.0
        p3 = 0.0
        q3 = 0.0
        for j in range(d):
            zj = z[j]
            a = X[i, j]
            b = X[i + 1, j]
            c = X[i + 2, j]
            e = X[i + 3, j]
            p0 += (a if a > 0.0 else 0.0) * zj
            q0 += (-a if a < 0.0 else 0.0) * zj
            p1 += (b if b > 0.0 else 0.0) * zj
            q1 += (-b if b < 0.0 else 0.0) * zj
            p2 += (c if c > 0.0 else 0.0) * zj
            q2 += (-c if c < 0.0 else 0.0) * zj
            p3 += (e if e > 0.0 else 0.0) * zj
            q3 += (-e if e < 0.0 else 0.0) * zj
        P[i] = p0
        Q[i] = q0
        P[i + 1] = p1
        Q[i + 1] = q1
        P[i + 2] = p2
        Q[i + 2] = q2
        P[i + 3] = p3
        Q[i + 3] = q3
        i += 4
    while i < n:
        p = 0.0
        q = 0.0
        for j in range(d):
            a = X[i, j]
            p += (a if a > 0.0 else 0.0) * z[j]
            q += (-a if a < 0.0 else 0.0) * z[j]
        P[i] = p
        Q[i] = q
        i += 1


def _first_bad_row_py(X):
    n, d = X.shape
    for i in range(n):
        ok = True
        for j in range(d):
            x = X[i, j]
            ok &= (x >= -1.0) & (x <= 1.0)   # False for NaN; no branch in the inner loop
        if not ok:
            return i
    return -1


def _rowdot_in_box_py(A, v, out):
    """:func:`_rowdot_py` and :func:`_first_bad_row_py` in one pass: the first row with an entry outside
    [−1, 1] (or NaN), −1 when none; ``out`` holds the dots of the rows before it."""
    n, d = A.shape
    i = 0
    while i + 4 <= n:
        s0 = 0.0
        s1 = 0.0
        s2 = 0.0
        s3 = 0.0
        ok = True
        for j in range(d):
            vj = v[j]
            a0 = A[i, j]
            a1 = A[i + 1, j]
            a2 = A[i + 2, j]
            a3 = A[i + 3, j]
            ok &= (a0 >= -1.0) & (a0 <= 1.0) & (a1 >= -1.0) & (a1 <= 1.0)
            ok &= (a2 >= -1.0) & (a2 <= 1.0) & (a3 >= -1.0) & (a3 <= 1.0)
            s0 += a0 * vj
            s1 += a1 * vj
            s2 += a2 * vj
            s3 += a3 * vj
        if not ok:
            break
        out[i] = s0
        out[i + 1] = s1
        out[i + 2] = s2
        out[i + 3] = s3
        i += 4
    while i < n:
        s = 0.0
        ok = True
        for j in range(d):
            a = A[i, j]
            ok &= (a >= -1.0) & (a <= 1.0)
            s += a * v[j]
        if not ok:
            return i
        out[i] = s
        i += 1
    return -1


def _scan_py(X, y, z, t, escale, a1, a2, c3, score, pred, pq):
    """8·r + code for the first row r ≥ t that stops the scan (8·n when none; see :func:`scan_rows`);
    ``pq``: room for the parts and box flags of four rows."""
    n, d = X.shape
    i = t
    while i < n:
        h = 4 if i + 4 <= n else 1
        p0 = 0.0
        q0 = 0.0
        p1 = 0.0
        q1 = 0.0
        p2 = 0.0
        q2 = 0.0
        p3 = 0.0
        q3 = 0.0
        o0 = True
        o1 = True
        o2 = True
        o3 = True
        if h == 4:
            for j in range(d):
                zj = z[j]
                a = X[i, j]
                b = X[i + 1, j]
                c = X[i + 2, j]
                e = X[i + 3, j]
                o0 &= (a >= -1.0) & (a <= 1.0)   # False for NaN
                o1 &= (b >= -1.0) & (b <= 1.0)
                o2 &= (c >= -1.0) & (c <= 1.0)
                o3 &= (e >= -1.0) & (e <= 1.0)
                a *= zj          # max(a, 0)·z is a·z or +0, and max(−a, 0)·z is −(a·z) or +0: the same bits
                b *= zj
                c *= zj
                e *= zj
                p0 += a if a > 0.0 else 0.0
                q0 += -a if a < 0.0 else 0.0
                p1 += b if b > 0.0 else 0.0
                q1 += -b if b < 0.0 else 0.0
                p2 += c if c > 0.0 else 0.0
                q2 += -c if c < 0.0 else 0.0
                p3 += e if e > 0.0 else 0.0
                q3 += -e if e < 0.0 else 0.0
        else:
            for j in range(d):
                a = X[i, j]
                o0 &= (a >= -1.0) & (a <= 1.0)
                p0 += (a if a > 0.0 else 0.0) * z[j]
                q0 += (-a if a < 0.0 else 0.0) * z[j]
        pq[0] = p0
        pq[1] = q0
        pq[2] = p1
        pq[3] = q1
        pq[4] = p2
        pq[5] = q2
        pq[6] = p3
        pq[7] = q3
        pq[8] = 1.0 if o0 else 0.0
        pq[9] = 1.0 if o1 else 0.0
        pq[10] = 1.0 if o2 else 0.0
        pq[11] = 1.0 if o3 else 0.0
        for k in range(h):   # the rounds in order, each decided as by the numpy twin
            r = i + k
            p = pq[2 * k]
            q = pq[2 * k + 1]
            if pq[8 + k] == 0.0:
                return 8 * r + 4
            if p < 2.0 ** -900 and q < 2.0 ** -900:
                return 8 * r + 3
            diff = p - q
            s = 1 if diff > 0.0 else (-1 if diff < 0.0 else 0)
            score[r] = escale * diff
            pred[r] = s
            if abs(diff) <= 2.0 * ((p + q) * a1 * a2 + c3):
                return 8 * r + 2
            if y[r] * s <= 0.0:
                return 8 * r + 1
        i += h
    return 8 * n


_SOURCES = {"rowdot": _rowdot_py, "signed_parts": _signed_parts_py, "first_bad_row": _first_bad_row_py,
            "rowdot_in_box": _rowdot_in_box_py, "scan": _scan_py}


def _kernel(name: str):
    """The compiled kernel ``name`` (compiled, or loaded from numba's cache, on first use)."""
    k = _kernels.get(name)
    if k is None:
        t0 = time.perf_counter()
        k = jit(_SOURCES[name])
        one, v = np.zeros((1, 1)), np.zeros(1)
        if name == "first_bad_row":
            k(one)
        elif name == "scan":
            k(one, np.ones(1), v, 0, 1.0, 0.0, 0.0, 0.0, np.zeros(1), np.zeros(1, dtype=np.int8), np.zeros(12))
        elif name in ("rowdot", "rowdot_in_box"):
            k(one, v, np.zeros(1))
        else:
            k(one, v, np.zeros(1), np.zeros(1))
        engine.COMPILE_SECONDS[f"winnow_{name}"] = time.perf_counter() - t0
        _kernels[name] = k
    return k


def use_compiled(A: np.ndarray) -> bool:
    """Whether the kernels serve A: a float64 matrix of at least :data:`MIN_CELLS` cells, numba available
    and not disabled (``OLC_CORE_ENGINE=numpy``). A caller working on blocks of one X asks once, for X."""
    return (A.dtype == np.float64 and A.ndim == 2 and A.shape[0] * A.shape[1] >= MIN_CELLS
            and resolve_engine("auto") == "numba")


def _compiled(A: np.ndarray, compiled: bool | None) -> bool:
    if compiled is None:
        return use_compiled(A)
    return bool(compiled) and A.dtype == np.float64 and A.ndim == 2 and A.size > 0


# --------------------------------------------------------------------------- the functions
def rowdot(A: np.ndarray, v: np.ndarray, compiled: bool | None = None) -> np.ndarray:
    """:func:`olc_core._support.numeric.rowdot` (bit for bit), compiled for large float64 A (``compiled``: the
    caller's :func:`use_compiled`; None asks it for A)."""
    if not _compiled(A, compiled):
        return _numeric.rowdot(A, v)
    out = np.empty(A.shape[0])
    _kernel("rowdot")(np.ascontiguousarray(A), np.ascontiguousarray(v, dtype=np.float64), out)
    return out


def _signed_parts_np(X: np.ndarray, z: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The numpy twin of :func:`signed_parts`. Large float rows: the terms ``a = x·z`` once per block,
    written transposed as in :func:`olc_core._support.numeric.rowdot`; ``P = Σ max(a, 0)`` and
    ``Q = −Σ min(a, 0)`` summed sequentially down the block (``max(x, 0)·z`` is ``x·z`` or ±0 and
    ``max(−x, 0)·z`` is ``−(x·z)`` or ±0, z ≥ 0; a ±0 term leaves a nonzero sum unchanged; negating a
    sum of negated terms gives the same bits, rounding being symmetric; a −0 result becomes +0 as
    rowdot's)."""
    n, d = X.shape
    if d <= 16 or n == 0 or X.dtype != np.float64:
        return _numeric.rowdot(np.maximum(X, 0.0), z), _numeric.rowdot(np.maximum(-X, 0.0), z)
    z = np.asarray(z, dtype=np.float64)
    P, Q = np.empty(n), np.empty(n)
    rows = max(1, _CHUNK_CELLS // d)
    buf, part = np.empty(d * min(n, rows)), np.empty(d * min(n, rows))
    for a in range(0, n, rows):
        b = min(n, a + rows)
        if b - a < _numeric._MIN_WIDTH:   # one column: numpy would reduce along it, pairwise
            P[a:b] = _numeric.rowdot(np.maximum(X[a:b], 0.0), z)
            Q[a:b] = -_numeric.rowdot(np.maximum(-X[a:b], 0.0), z)   # negated back below
            continue
        M = buf[: d * (b - a)].reshape(d, b - a)
        H = part[: d * (b - a)].reshape(d, b - a)
        np.multiply(X[a:b].T, z[:, None], out=M)
        np.add.reduce(np.maximum(M, 0.0, out=H), axis=0, out=P[a:b])
        np.add.reduce(np.minimum(M, 0.0, out=H), axis=0, out=Q[a:b])
    np.negative(Q, out=Q)
    P += 0.0
    Q += 0.0
    return P, Q


def signed_parts(X: np.ndarray, z: np.ndarray, compiled: bool | None = None) -> tuple[np.ndarray, np.ndarray]:
    """``(rowdot(max(X, 0), z), rowdot(max(−X, 0), z))`` bit for bit, in one pass (z finite, ≥ 0)."""
    if not _compiled(X, compiled):
        return _signed_parts_np(X, z)
    P, Q = np.empty(X.shape[0]), np.empty(X.shape[0])
    _kernel("signed_parts")(np.ascontiguousarray(X), np.ascontiguousarray(z, dtype=np.float64), P, Q)
    return P, Q


def first_row_outside_unit_box(X: np.ndarray, compiled: bool | None = None) -> int:
    """The first row of X with an entry outside [−1, 1] or NaN (−1 when none)."""
    if _compiled(X, compiled):
        return int(_kernel("first_bad_row")(np.ascontiguousarray(X)))
    rows = max(1, _CHUNK_CELLS // max(X.shape[1], 1))
    for a in range(0, X.shape[0], rows):
        blk = X[a:a + rows]
        if not (blk.min() >= -1.0 and blk.max() <= 1.0):    # False on NaN too
            bad = ~((blk >= -1.0) & (blk <= 1.0))
            return a + int(np.flatnonzero(bad.any(axis=1))[0])
    return -1


def rowdot_in_box(A: np.ndarray, v: np.ndarray, compiled: bool | None = None) -> tuple[np.ndarray | None, int]:
    """``(rowdot(A, v), −1)`` when every entry of A is in [−1, 1], else ``(None, first row outside)``: one
    pass over A for both when compiled (the dots bit for bit those of :func:`rowdot`)."""
    if not _compiled(A, compiled):
        bad = first_row_outside_unit_box(A, False)
        return (_numeric.rowdot(A, v) if bad < 0 else None), bad
    out = np.empty(A.shape[0])
    bad = int(_kernel("rowdot_in_box")(np.ascontiguousarray(A), np.ascontiguousarray(v, dtype=np.float64), out))
    return (out if bad < 0 else None), bad


def _scan_np(X, y, z, t, escale, a1, a2, c3, score, pred, block):
    """The numpy twin of :func:`_scan_py` (blocks of ``block`` rows, doubling up to :data:`_CHUNK_CELLS` cells:
    the rows of a block after a stop are computed in vain, and a larger block sums no faster)."""
    n = X.shape[0]
    cap = max(64, _CHUNK_CELLS // max(X.shape[1], 1))
    block = min(block, cap)
    while t < n:
        e = min(n, t + block)
        blk = X[t:e]
        out = np.zeros(e - t, dtype=bool)
        if not (blk.min() >= -1.0 and blk.max() <= 1.0):     # False on NaN too
            out = ~((blk >= -1.0) & (blk <= 1.0)).all(axis=1)
            blk = np.where(out[:, None], 0.0, blk)             # those rows stop the scan before use
        P, Q = signed_parts(blk, z, False)
        diff = P - Q
        sgn = np.sign(diff).astype(np.int8)
        sc = escale * diff
        small = (P < _SMALL) & (Q < _SMALL)
        near = np.abs(diff) <= 2.0 * ((P + Q) * a1 * a2 + c3)
        stop = np.flatnonzero(out | small | near | (y[t:e] * sgn <= 0))
        if stop.size:
            k = int(stop[0])
            score[t:t + k + 1], pred[t:t + k + 1] = sc[:k + 1], sgn[:k + 1]
            code = SCAN_OUTSIDE if out[k] else (SCAN_SMALL if small[k] else (SCAN_NEAR if near[k] else SCAN_MISTAKE))
            return t + k, code
        score[t:e], pred[t:e] = sc, sgn
        t, block = e, min(2 * block, cap)
    return n, SCAN_END


def scan_rows(X: np.ndarray, y: np.ndarray, z: np.ndarray, t: int, escale: float, a1: float, a2: float, c3: float,
              score: np.ndarray, pred: np.ndarray, compiled: bool, block: int = 64) -> tuple[int, int]:
    """``(r, code)``: the rounds t … r−1 are correct predictions the floats vouch for, and row r stops the
    scan (``code``: :data:`SCAN_MISTAKE`, :data:`SCAN_NEAR`, :data:`SCAN_SMALL`, :data:`SCAN_OUTSIDE`;
    r = n with :data:`SCAN_END`). The weights are ``z`` (shifted, ≤ 1); ``score[i] = escale·(P − Q)`` and
    ``pred[i] = sign(P − Q)`` are written for the rounds t … r (for r only when its code is MISTAKE or NEAR);
    a row is near when ``|P − Q| ≤ 2((P + Q)·a1·a2 + c3)``. Kernel and twin give the same bits
    (``block``: the twin's first block of rows)."""
    if not _compiled(X, compiled):
        return _scan_np(X, y, z, t, escale, a1, a2, c3, score, pred, block)
    code = int(_kernel("scan")(X, y, z, int(t), float(escale), float(a1), float(a2), float(c3), score, pred,
                               np.empty(12)))
    return code >> 3, code & 7
