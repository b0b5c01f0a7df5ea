"""Passes over every round for the max-margin search (:mod:`olc_core._comparators.max_margin`).

Every margin is ``y_t · (0.0 + x_t1 w_1 + … + x_td w_d)``, summed in that order — the float
expression of :func:`olc_core._support.numeric.rowdot`, of the Perceptron's loops and of the numpy
fallback here — so the compiled passes (numba, when installed) and numpy give the same numbers
and hence the same decisions.

* :meth:`Scanner.full` — each block of :data:`BLOCK` rounds' minimum margin, and max ‖x_t‖².
* :meth:`Scanner.risky` — after the candidate w moved from the w of the last full pass, the
  blocks that may hold a violator: ``|⟨z, w⟩ − ⟨z, w_ref⟩| ≤ ‖z‖·‖w − w_ref‖ ≤ R‖w − w_ref‖``
  (plus the rounding of both margins), so a block whose minimum under ``w_ref`` exceeds the
  threshold by more than that cannot hold one. Only those blocks are read again.
* :meth:`Scanner.exact` — the margins of chosen blocks: their minimum and the rounds below a
  threshold (the most violating blocks first).
* :meth:`Scanner.exact_min` — the exact minimum margin under the final w over every round, reading
  only the blocks whose bound lies below the running minimum (the certificate needs no full pass;
  the Perceptron computes w*'s margin column only when it is read).
"""
from __future__ import annotations

import math

import numpy as np

from .._support.numeric import rowdot
from . import engine

__all__ = ["Scanner", "BLOCK", "SHIFT", "block_minima"]

SHIFT = 6
BLOCK = 1 << SHIFT
#: From twice this many blocks on, a full pass runs as two halves on two threads (when allowed).
SPLIT_BLOCKS = 2048
#: Below this many entries (T·d) the numpy passes are used (compiling would cost more).
COMPILED_MIN = 200_000
EPS = float(np.finfo(np.float64).eps)


def _block_minima_py(X, y, w, bmin):
    """Every block's minimum margin (into ``bmin``) and max_t ‖x_t‖² (returned)."""
    T, d = X.shape
    r2 = 0.0
    for b in range(bmin.shape[0]):
        a = b * BLOCK
        e = min(T, a + BLOCK)
        m = np.inf
        if d == 2:  # the same sums, unrolled (0.0 + a + b)
            w0, w1 = w[0], w[1]
            for t in range(a, e):
                u, v = X[t, 0], X[t, 1]
                s = 0.0
                s += u * w0
                s += v * w1
                q = 0.0
                q += u * u
                q += v * v
                m = min(m, y[t] * s)
                r2 = max(r2, q)
        else:
            for t in range(a, e):
                s, q = 0.0, 0.0
                for j in range(d):
                    s += X[t, j] * w[j]
                    q += X[t, j] * X[t, j]
                m = min(m, y[t] * s)
                r2 = max(r2, q)
        bmin[b] = m
    return r2


def _blocks_exact_py(X, y, w, thr, blocks, out):
    """Over ``blocks`` in the order given: the minimum margin, the first round attaining it, and the
    rounds with margin below ``thr`` (the first len(out) of them, into ``out``; their number returned)."""
    T, d = X.shape
    gmin, jmin, n = np.inf, -1, 0
    for i in range(blocks.shape[0]):
        a = blocks[i] * BLOCK
        e = min(T, a + BLOCK)
        for t in range(a, e):
            s = 0.0
            for j in range(d):
                s += X[t, j] * w[j]
            g = y[t] * s
            if g < gmin:
                gmin, jmin = g, t
            if g < thr and n < out.shape[0]:
                out[n] = t
                n += 1
    return gmin, jmin, n


_kernels: dict = {}


def _compiled() -> dict:
    if not _kernels:
        _kernels.update(minima=engine.jit(_block_minima_py), exact=engine.jit(_blocks_exact_py))
    return _kernels


def block_minima(X: np.ndarray, y: np.ndarray, w: np.ndarray, bmin: np.ndarray) -> None:
    """The minima of ``y_t⟨w, x_t⟩`` over the blocks of the rounds of ``X`` (``bmin[b]`` for the rounds
    ``b·BLOCK …``), as :meth:`Scanner.full` computes them: for the rounds a fused pass did not cover."""
    if len(X) == 0:
        return
    if engine.resolve_engine("auto") == "numba" and X.size >= COMPILED_MIN // 8:
        _compiled()["minima"](X, y, w, bmin)
        return
    g = y * rowdot(X, w)
    nb = bmin.shape[0]
    pad = np.full(nb * BLOCK, np.inf)
    pad[:len(g)] = g
    bmin[:] = pad.reshape(nb, BLOCK).min(axis=1)


class Scanner:
    """The passes over one stream's ``z_t = y_t x_t`` (see the module docstring). ``threads``: at most
    this many threads for a full pass (1 when the caller runs another pass at the same time)."""

    def __init__(self, X: np.ndarray, y: np.ndarray, threads: int = 2):
        self.X, self.y = X, y
        T, d = X.shape
        self.nb = -(-T // BLOCK)
        self.compiled = engine.resolve_engine("auto") == "numba" and T * d >= COMPILED_MIN
        self.split = self.compiled and threads >= 2 and engine.threads() >= 2 and self.nb >= 2 * SPLIT_BLOCKS
        self.ref = None          # the w of the last full pass
        self.bmin = None
        self.r2 = None

    def _g(self, rows: np.ndarray, w: np.ndarray) -> np.ndarray:
        return self.y[rows] * rowdot(self.X[rows], w)

    def full(self, w: np.ndarray) -> float:
        """Block minima under ``w`` (kept as the reference for :meth:`risky`); returns max ‖x_t‖²."""
        X, y, nb = self.X, self.y, self.nb
        bmin = np.empty(nb)
        if self.compiled:
            k = _compiled()["minima"]
            if self.split:  # two halves at once (the kernel releases the GIL)
                h = nb // 2
                other = engine.worker().submit(k, X[h * BLOCK:], y[h * BLOCK:], w, bmin[h:])
                r2 = max(k(X[:h * BLOCK], y[:h * BLOCK], w, bmin[:h]), other.result())
            else:
                r2 = k(X, y, w, bmin)
        else:
            g = y * rowdot(X, w)
            pad = np.full(nb * BLOCK, np.inf)
            pad[:len(g)] = g
            bmin[:] = pad.reshape(nb, BLOCK).min(axis=1)
            r2 = float(rowdot(X * X, np.ones(X.shape[1])).max()) if len(X) else 0.0
        self.ref, self.bmin, self.r2 = np.array(w, dtype=np.float64), bmin, float(r2)
        return self.r2

    def set_full(self, w: np.ndarray, bmin: np.ndarray, r2: float) -> None:
        """Take the results of a full pass under ``w`` made elsewhere (fused into the Perceptron's loop:
        the same float expressions, so the same numbers as :meth:`full`)."""
        if bmin.shape != (self.nb,):
            raise ValueError("block minima of the wrong length")
        self.ref, self.bmin, self.r2 = np.array(w, dtype=np.float64), bmin, float(r2)

    def _slack(self, w: np.ndarray) -> float:
        """How far a block's minimum under ``w`` can lie below its minimum under the reference: the
        margins under each are within (d + 2)·eps·R of exact (unit vectors), and the exact ones differ by
        at most ‖z‖·‖w − w_ref‖ ≤ R·‖w − w_ref‖. Zero when w is the reference (the same floats)."""
        if np.array_equal(w, self.ref):
            return 0.0
        R = math.sqrt(self.r2) * (1.0 + 1e-12)
        d = self.X.shape[1]
        return 2.0 * (d + 2) * EPS * R + R * float(np.sqrt(np.sum((w - self.ref) ** 2))) * (1.0 + 1e-12)

    def risky(self, w: np.ndarray, thr: float) -> np.ndarray | None:
        """The blocks that may hold a round with margin below ``thr`` under ``w``, most violating first
        (bounded from the last full pass); None when they are many (a full pass is then cheaper)."""
        blocks = np.flatnonzero(self.bmin - self._slack(w) < thr)
        if len(blocks) > self.nb // 4:
            return None
        return blocks[np.argsort(self.bmin[blocks], kind="stable")].astype(np.int64)

    def below(self, thr: float) -> np.ndarray:
        """After a full pass: the blocks whose minimum is below ``thr`` (exactly), most violating first;
        at least the block of the overall minimum."""
        blocks = np.flatnonzero(self.bmin < thr)
        if not len(blocks):
            return np.array([int(np.argmin(self.bmin))], np.int64)
        return blocks[np.argsort(self.bmin[blocks], kind="stable")].astype(np.int64)

    def exact(self, w: np.ndarray, thr: float, blocks: np.ndarray, cap: int) -> tuple[float, int, np.ndarray]:
        """The margins of ``blocks`` under ``w``: (minimum, its round, at most ``cap`` rounds below ``thr``)."""
        if self.compiled:
            out = np.empty(cap, np.int64)
            gmin, jmin, n = _compiled()["exact"](self.X, self.y, w, thr, blocks, out)
            return float(gmin), int(jmin), out[:n]
        rows = (blocks[:, None] * BLOCK + np.arange(BLOCK)[None, :]).ravel()
        rows = rows[rows < len(self.X)]
        if not len(rows):
            return np.inf, -1, np.zeros(0, np.int64)
        g = self._g(rows, w)
        i = int(np.argmin(g))
        return float(g[i]), int(rows[i]), rows[np.flatnonzero(g < thr)[:cap]].astype(np.int64)

    def exact_min(self, w: np.ndarray, m: float, j: int, done: np.ndarray) -> tuple[float, int]:
        """The exact minimum margin under ``w`` over every round (and a round attaining it), given the
        minimum ``m`` (at round ``j``) over the blocks ``done``: only blocks whose lower bound is at most
        the running minimum are read."""
        lower = self.bmin - self._slack(w)
        seen = np.zeros(self.nb, bool)
        seen[done] = True
        order = np.flatnonzero((lower <= m) & ~seen)
        order = order[np.argsort(lower[order], kind="stable")]
        i = 0
        while i < len(order) and lower[order[i]] <= m:
            chunk = order[i:i + 64]
            chunk = chunk[lower[chunk] <= m]
            g, jj, _ = self.exact(w, -np.inf, np.sort(chunk).astype(np.int64), 1)
            if g < m:
                m, j = g, jj
            i += 64
        return m, j
