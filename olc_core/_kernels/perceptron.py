"""The Perceptron's compiled loops (numba, optional) and the driver that runs them, growing the
per-mistake buffers and splitting a long run over two threads. Never required: every loop here has a
numpy twin in :mod:`olc_core.learners.perceptron` that gives bit-identical results.

Exactness rules both twins follow (tested): every dot product is summed
sequentially over j = 0 … d-1 (no pairwise or SIMD reassociation, no fused
multiply-add: numba's default ``fastmath=False`` keeps IEEE order), and the
update is ``w[j] = w[j] + y * x[j]``.

The engine (numba or numpy), the compile cache and the worker thread: :mod:`olc_core._kernels.engine`.
"""
from __future__ import annotations

import threading
import time
from concurrent.futures import Future

import numpy as np

from . import engine

__all__ = ["perceptron_kernel", "perceptron", "BlockMinima", "SPLIT_PROBE", "SPLIT_MIN_T", "SPLIT_MIN_MISTAKE_RATE"]


def _record2_py(M, t, w0, w1, a0, a1, mis, snaps, inner, norm, sr):
    """Record mistake ``M`` at round ``t`` in d = 2, the new weights being (w0, w1): the round,
    the round the new state starts at (``sr[M+1] = t+1``, for the proof), the weights, ⟨w*, w⟩ and
    ‖w‖. Returns 1 when ‖w‖² left the normal float range (the caller then recomputes that norm with
    scaling), else 0. (In the loop these stores cost nothing measurable: they fill the stalls of its
    mispredicted branches; a separate pass after the loop measured 0.1–0.4 ms each.)"""
    mis[M] = t
    sr[M + 1] = t + 1
    snaps[M, 0] = w0
    snaps[M, 1] = w1
    a = 0.0
    a += a0 * w0
    a += a1 * w1
    b = 0.0
    b += w0 * w0
    b += w1 * w1
    inner[M + 1] = a
    norm[M + 1] = np.sqrt(b)
    return (b < 1e-290) | (b > 1e290)


def _update_py(M, t, yt, X, w, wstar, mis, snaps, inner, norm, sr):
    """The update ``w ← w + y_t x_t`` (in place) for mistake ``M`` at round ``t``, recorded as
    :func:`_record2_py` does (any d)."""
    a = 0.0
    b = 0.0
    for j in range(X.shape[1]):
        w[j] = w[j] + yt * X[t, j]
        snaps[M, j] = w[j]
        a += wstar[j] * w[j]
        b += w[j] * w[j]
    mis[M] = t
    sr[M + 1] = t + 1
    inner[M + 1] = a
    norm[M + 1] = np.sqrt(b)
    return (b < 1e-290) | (b > 1e290)


def _flush_py(bmin, t, shift, bm):
    """Lower ``bmin`` of round t's block to ``bm`` (the minimum since the last flush; none when
    ``bmin`` is empty or ``bm`` is +inf); returns +inf, the next block's starting minimum."""
    if bmin.shape[0] > 0 and t >= 0:
        b = t >> shift
        if bm < bmin[b]:
            bmin[b] = bm
    return np.inf


_record2 = _record2_py
_update = _update_py
_flush = _flush_py
_loop2 = None  # the two loops of _perceptron_py (defined below)
_loopd = None
# compiled helpers: set by _inline_helpers() before a kernel that calls them compiles


def _inline_helpers() -> None:
    """Compile the helpers the kernels call, inlined into them (numba reads these globals when
    it compiles a kernel)."""
    global _record2, _update, _flush, _data2, _loop2, _loopd
    if _record2 is _record2_py:
        _data2 = engine.numba.njit(nogil=True, error_model="numpy")(_data2_py)
        _record2 = engine.numba.njit(inline="always")(_record2_py)
        _update = engine.numba.njit(inline="always")(_update_py)
        _flush = engine.numba.njit(inline="always")(_flush_py)
        _loop2 = engine.numba.njit(inline="always")(_loop2_py)
        _loopd = engine.numba.njit(inline="always")(_loopd_py)


def _perceptron_py(X, y, wstar, has_wstar, t0, t1, w, M0, score, cmargin, mis, snaps, inner, norm, sr, r2max, cmin,
                   nonpos, nodd, v, bmin, shift):
    """The Perceptron on rounds ``t0 … t1-1`` with weights ``w`` (updated in place) and ``M0`` mistakes so far.

    Writes per round the score ⟨w, x⟩ and the comparator margin y⟨w*, x⟩, and per mistake the
    round, the new weights, ⟨w*, w⟩ and ‖w‖ (``inner``/``norm`` index k+1 for mistake k).
    Counts the rounds with y⟨w*, x⟩ ≤ 0 (``nonpos``) and the states whose ‖w‖² left the
    normal float range (``nodd``: the caller recomputes those norms with scaling).
    Returns ``(t_stop, M, r2max, cmin, nonpos, nodd, bad_row)``: ``t_stop < t1`` when the
    snapshot buffers are full (the caller grows them and resumes); ``bad_row >= 0`` at a
    non-finite row of X, ``bad_row = -2`` when some label is not ±1 (the caller finds the first).
    When ``bmin`` is not empty, also the minimum of ``y⟨v, x⟩`` over each block of ``2^shift`` rounds
    (``bmin[t >> shift]`` lowered to it: the max-margin search's full pass, fused into this one).

    The ``t < 0`` and ``M < 0`` tests never fire: they tell LLVM the indices are not negative,
    which compiles out numba's negative-index wraparound on every access (1.5 ms of 7.5 ms
    at T = 10⁶, d = 2).
    """
    if M0 < 0:
        return t0, M0, r2max, cmin, nonpos, nodd, -3
    if X.shape[1] == 2:  # the lecture-hall case
        return _loop2(X, y, wstar, has_wstar, t0, t1, w, M0, score, cmargin, mis, snaps, inner, norm, sr, r2max, cmin,
                      nonpos, nodd, v, bmin, shift)
    return _loopd(X, y, wstar, has_wstar, t0, t1, w, M0, score, cmargin, mis, snaps, inner, norm, sr, r2max, cmin, nonpos,
                  nodd, v, bmin, shift)


def _loop2_py(X, y, wstar, has_wstar, t0, t1, w, M, score, cmargin, mis, snaps, inner, norm, sr, r2max, cmin, nonpos, nodd,
              v, bmin, shift):
    """:func:`_perceptron_py`'s loop in d = 2, the lecture-hall case: the same arithmetic, the two coordinates
    in registers."""
    cap = snaps.shape[0]
    bad_row = -1
    nbad = 0  # labels other than ±1 seen: reported as bad_row = -2 (the caller finds the first)
    hasb = bmin.shape[0] > 0
    mask = (1 << shift) - 1
    w0 = w[0]
    w1 = w[1]
    a0 = wstar[0]
    a1 = wstar[1]
    v0 = v[0]
    v1 = v[1]
    bm = np.inf
    for t in range(t0, t1):
        if t < 0:
            continue
        if M == cap:
            w[0] = w0
            w[1] = w1
            _flush(bmin, t - 1, shift, bm)
            return t, M, r2max, cmin, nonpos, nodd, -2 if nbad > 0 else bad_row
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
            nonpos += c <= 0.0
        if hasb:
            g = 0.0
            g += x0 * v0
            g += x1 * v1
            bm = min(bm, yt * g)  # as the search's own pass (olc_core._kernels.margin_scan), without a branch
            if (t & mask) == mask:
                bm = _flush(bmin, t, shift, bm)
        if yt * s <= 0.0:
            w0 = w0 + yt * x0
            w1 = w1 + yt * x1
            nodd += _record2(M, t, w0, w1, a0, a1, mis, snaps, inner, norm, sr)
            M += 1
    w[0] = w0
    w[1] = w1
    _flush(bmin, t1 - 1, shift, bm)
    return t1, M, r2max, cmin, nonpos, nodd, -2 if nbad > 0 and bad_row < 0 else bad_row


def _loopd_py(X, y, wstar, has_wstar, t0, t1, w, M, score, cmargin, mis, snaps, inner, norm, sr, r2max, cmin, nonpos, nodd,
              v, bmin, shift):
    """:func:`_perceptron_py`'s loop in any dimension d."""
    d = X.shape[1]
    cap = snaps.shape[0]
    bad_row = -1
    nbad = 0  # labels other than ±1 seen: reported as bad_row = -2 (the caller finds the first)
    hasb = bmin.shape[0] > 0
    mask = (1 << shift) - 1
    bm = np.inf
    for t in range(t0, t1):
        if t < 0:
            continue
        if M == cap:
            _flush(bmin, t - 1, shift, bm)
            return t, M, r2max, cmin, nonpos, nodd, -2 if nbad > 0 else bad_row
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
            nonpos += c <= 0.0
        if hasb:  # its own loop over the row (in cache): the loop above stays as it was without minima
            g = 0.0
            for j in range(d):
                g += X[t, j] * v[j]
            bm = min(bm, yt * g)
            if (t & mask) == mask:
                bm = _flush(bmin, t, shift, bm)
        if yt * s <= 0.0:
            nodd += _update(M, t, yt, X, w, wstar, mis, snaps, inner, norm, sr)
            M += 1
    _flush(bmin, t1 - 1, shift, bm)
    return t1, M, r2max, cmin, nonpos, nodd, -2 if nbad > 0 and bad_row < 0 else bad_row


def _perceptron_learn_py(X, y, wstar, t0, w, M0, score, mis, snaps, inner, norm, sr, nodd):
    """The learner's half of :func:`_perceptron_py` (rounds ``t0 … T-1``): the score, the mistakes
    and the per-mistake records, nothing that depends on the data alone. Same arithmetic, so the
    same values; rows that are not finite or labels that are not ±1 are the other half's to find
    (the run is then refused, whatever this half computed after them).
    Returns ``(t_stop, M, nodd)``, ``t_stop < T`` when the buffers are full."""
    T, d = X.shape
    cap = snaps.shape[0]
    M = M0
    if M < 0:
        return t0, M, nodd
    if d == 2:
        w0 = w[0]
        w1 = w[1]
        a0 = wstar[0]
        a1 = wstar[1]
        for t in range(t0, T):
            if t < 0:
                continue
            if M == cap:
                w[0] = w0
                w[1] = w1
                return t, M, nodd
            x0 = X[t, 0]
            x1 = X[t, 1]
            s = 0.0
            s += x0 * w0
            s += x1 * w1
            score[t] = s
            yt = y[t]
            if yt * s <= 0.0:
                w0 = w0 + yt * x0
                w1 = w1 + yt * x1
                nodd += _record2(M, t, w0, w1, a0, a1, mis, snaps, inner, norm, sr)
                M += 1
        w[0] = w0
        w[1] = w1
        return T, M, nodd
    for t in range(t0, T):
        if t < 0:
            continue
        if M == cap:
            return t, M, nodd
        s = 0.0
        for j in range(d):
            s += X[t, j] * w[j]
        score[t] = s
        yt = y[t]
        if yt * s <= 0.0:
            nodd += _update(M, t, yt, X, w, wstar, mis, snaps, inner, norm, sr)
            M += 1
    return T, M, nodd


def _perceptron_data_py(X, y, wstar, has_wstar, t0, cmargin, r2max, cmin, nonpos, v, bmin, shift):
    """The data's half of :func:`_perceptron_py` (rounds ``t0 … T-1``): finiteness, max ‖x‖², the
    labels, and the comparator margin y⟨w*, x⟩ with its minimum and the count of rounds ≤ 0; the
    block minima of y⟨v, x⟩ when ``bmin`` is not empty.
    Returns ``(r2max, cmin, nonpos, nbad, bad_row)`` (``bad_row`` the first non-finite row, or -1)."""
    T, d = X.shape
    hasb = bmin.shape[0] > 0
    if d == 2 and not hasb and t0 >= 0:
        r2f, cminf, nonposf, nbad, exact = _data2(X, y, wstar, has_wstar, t0, cmargin)
        if exact:  # the same values as the loop below (see _data2)
            return (r2f if r2f > r2max else r2max), (cminf if cminf < cmin else cmin), nonpos + nonposf, nbad, -1
    nbad = 0
    mask = (1 << shift) - 1
    bm = np.inf
    for t in range(t0, T):
        if t < 0:
            continue
        xx = 0.0
        c = 0.0
        for j in range(d):
            xj = X[t, j]
            xx += xj * xj
            c += xj * wstar[j]
        if not np.isfinite(xx):
            for j in range(d):
                if not np.isfinite(X[t, j]):
                    return r2max, cmin, nonpos, nbad, t
        if xx > r2max:
            r2max = xx
        yt = y[t]
        nbad += (yt != 1.0) & (yt != -1.0)
        if has_wstar:
            c = yt * c
            cmargin[t] = c
            if c < cmin:
                cmin = c
            nonpos += c <= 0.0
        if hasb:
            g = 0.0
            for j in range(d):
                g += X[t, j] * v[j]
            bm = min(bm, y[t] * g)
            if (t & mask) == mask:
                bm = _flush(bmin, t, shift, bm)
    _flush(bmin, T - 1, shift, bm)
    return r2max, cmin, nonpos, nbad, -1


def _data2_py(X, y, wstar, has_wstar, t0, cmargin):
    """The data half's quantities in d = 2 on rounds ``t0 … T-1`` without a branch per round, so that LLVM
    vectorises the passes: max ‖x‖² as the largest bit pattern (for floats ≥ +0 the order of their bits
    as integers is their order: an integer maximum vectorises, a float one does not without fast-math),
    min y⟨w*,x⟩ likewise through the order-preserving map of a float's bits to a signed integer, the rounds
    with y⟨w*,x⟩ ≤ 0 and the labels other than ±1 counted. Returns ``(max ‖x‖², min y⟨w*,x⟩, #≤0, #bad
    labels, exact)``; ``exact`` False when the values may differ from the sequential loop's (a ‖x‖² that
    is not finite — a non-finite row, or one whose square overflows —, a bad label, or a minimum margin
    of 0, where −0.0 and +0.0 are equal to the loop but not to the integer map): the caller then runs
    the loop. Otherwise every ‖x‖² is a finite float ≥ +0 and every margin finite (an overflow of
    y⟨w*,x⟩ with a unit w* needs some x_j² to overflow), so the maxima and minima are the loop's."""
    T = X.shape[0]
    nx = 0
    nbad = 0
    r2i = 0
    for t in range(t0, T):
        x0 = X[t, 0]
        x1 = X[t, 1]
        xx = 0.0
        xx += x0 * x0
        xx += x1 * x1
        nx += not np.isfinite(xx)
        r2i = max(r2i, np.float64(xx).view(np.int64))
        yt = y[t]
        nbad += (yt != 1.0) & (yt != -1.0)
    r2 = np.int64(r2i).view(np.float64)
    cmin = np.inf
    nonpos = 0
    if has_wstar and nx == 0 and nbad == 0:
        a0 = wstar[0]
        a1 = wstar[1]
        for t in range(t0, T):
            c = 0.0
            c += X[t, 0] * a0
            c += X[t, 1] * a1
            cmargin[t] = y[t] * c
        ki = 0x7FF0000000000000  # +inf's bits, its own key
        for t in range(t0, T):
            c = cmargin[t]
            i = np.float64(c).view(np.int64)
            ki = min(ki, i ^ ((i >> 63) & 0x7FFFFFFFFFFFFFFF))
            nonpos += c <= 0.0
        cmin = np.int64(ki ^ ((ki >> 63) & 0x7FFFFFFFFFFFFFFF)).view(np.float64)
    return r2, cmin, nonpos, nbad, nx == 0 and nbad == 0 and cmin != 0.0


_data2 = _data2_py
_loop2 = _loop2_py
_loopd = _loopd_py


def _warm_args(which: str, d: int) -> tuple:
    """A one-round call of each Perceptron kernel in d dimensions (compiles its signature)."""
    X, y, w = np.zeros((1, d)), np.ones(1), np.zeros(d)
    if which == "perceptron":
        return (X, y, w, True, 0, 1, np.zeros(d), 0, np.empty(1), np.empty(1), np.empty(1, np.int64),
                np.empty((1, d)), np.zeros(2), np.zeros(2), np.zeros(2, np.int64), 0.0, np.inf, 0, 0, w,
                np.full(1, np.inf), 8)
    if which == "perceptron_learn":
        return (X, y, w, 0, np.zeros(d), 0, np.empty(1), np.empty(1, np.int64), np.empty((1, d)), np.zeros(2),
                np.zeros(2), np.zeros(2, np.int64), 0)
    return (X, y, w, True, 0, np.empty(1), 0.0, np.inf, 0, w, np.full(1, np.inf), 8)


_PERCEPTRON_KERNELS = {"perceptron": _perceptron_py, "perceptron_learn": _perceptron_learn_py,
                       "perceptron_data": _perceptron_data_py}


def perceptron_kernel(which: str = "perceptron"):
    """A compiled Perceptron loop (compiled on first use, cached on disk by numba): ``"perceptron"``
    (one pass does everything), ``"perceptron_learn"`` and ``"perceptron_data"`` (its two halves)."""
    if which not in engine.KERNELS:
        t0 = time.perf_counter()
        _inline_helpers()
        k = engine.jit(_PERCEPTRON_KERNELS[which])
        for d in (1, 2):  # compile (or load from the cache) now, so the first run's timing is the run's own
            k(*_warm_args(which, d))
        engine.COMPILE_SECONDS[which] = time.perf_counter() - t0
        engine.KERNELS[which] = k
    return engine.KERNELS[which]


def _buffers(cap: int, d: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The per-mistake buffers (rounds, weights, ⟨w*,w⟩, ‖w‖, the rounds the states start at: 0 first)
    carved out of one allocation.

    Fresh memory costs a page fault per 4 KB page on first write (a few µs each on a
    virtual machine); one block large enough for numpy to back it with huge pages costs
    a fraction of four separate mid-size arrays.
    """
    n = cap * 8 + cap * d * 8 + 3 * (cap + 1) * 8
    arena = np.empty(n, np.uint8)
    o = 0
    mis = arena[o:o + cap * 8].view(np.int64)
    o += cap * 8
    snaps = arena[o:o + cap * d * 8].view(np.float64).reshape(cap, d)
    o += cap * d * 8
    inner = arena[o:o + (cap + 1) * 8].view(np.float64)
    o += (cap + 1) * 8
    norm = arena[o:o + (cap + 1) * 8].view(np.float64)
    o += (cap + 1) * 8
    sr = arena[o:o + (cap + 1) * 8].view(np.int64)
    inner[0] = 0.0
    norm[0] = 0.0
    sr[0] = 0
    return mis, snaps, inner, norm, sr


#: Rounds the one-pass loop runs before deciding whether to split the rest in two threads (enough to tell
#: a stream with a mistake every few rounds from one with a handful; the split waits for them).
SPLIT_PROBE = 1 << 13
#: Runs of at most this many rounds are not split (the worker's start would cost more than its half).
SPLIT_MIN_T = 1 << 16
#: Split only when at least this fraction of the probed rounds were mistakes: the loop is
#: then bound by its serial chain (a mistake changes w, and the next score waits for it),
#: and the data-only half runs on the other core for free. With few mistakes the one-pass
#: loop streams X once and is faster than two threads reading it twice.
SPLIT_MIN_MISTAKE_RATE = 0.02


class BlockMinima:
    """The max-margin search's first full pass, fused into the Perceptron's loop: the minimum of
    ``y_t⟨v, x_t⟩`` over each block of ``2^shift`` rounds, for a direction v that the worker thread is
    still computing (``future`` gives v, or None when the search needs no pass). Rounds the loop ran
    before v was known are covered by ``catch_up(X[:t], y[:t], v, bmin[:blocks])`` on the worker.
    ``first`` (instead of a future): a callable giving v, which :func:`perceptron` calls in its own
    thread while the first :data:`PREFIX` rounds of the loop run on the worker (the callable may hold
    the GIL: the loop does not need it)."""

    def __init__(self, future, T: int, shift: int, catch_up, first=None):
        self.future, self.shift, self.catch_up, self.first = future, shift, catch_up, first
        self.bmin = np.full(-(-T >> shift), np.inf)
        self.v = None
        self.failed = False
        self._pending = []

    def resolve(self, X, y, t: int, inline: bool = False) -> bool:
        """Read v once the future is done (``t``: the rounds the loop has run, a multiple of the block
        unless it is every round); start the catch-up. True when the loop should compute minima."""
        try:
            v = self.future.result()
        except Exception:  # noqa: BLE001 - the search's own error is the caller's to report
            self.failed, v = True, None
        if v is None:
            return False
        self.v = np.ascontiguousarray(v, dtype=np.float64)
        if t > 0:
            nb = -(-t >> self.shift)
            args = (X[:t], y[:t], self.v, self.bmin[:nb])
            if inline:
                self.catch_up(*args)
            else:
                self._pending.append(engine.worker().submit(self.catch_up, *args))
        return True

    def wait(self) -> None:
        for f in self._pending:
            f.result()
        self._pending.clear()


#: While the direction of the fused block minima is not known yet, the loop runs in chunks of this many rounds.
CHUNK = 1 << 15
#: With ``BlockMinima.first``: the rounds the worker runs while the caller's thread computes the direction.
PREFIX = 1 << 17


def _first(minima: BlockMinima) -> None:
    """Complete ``minima.future`` with the direction ``minima.first()`` computes (or its exception)."""
    try:
        minima.future.set_result(minima.first())
    except Exception as e:  # noqa: BLE001 - read by BlockMinima.resolve (the caller reports it)
        minima.future.set_exception(e)


class _Run:
    """One run of :func:`perceptron`: the per-mistake buffers, the loop's running state (round ``t``, mistakes
    ``M``, max ‖x‖², min margin, #≤0, odd norms, bad row) and the block minima's direction ``v`` once known."""

    def __init__(self, X: np.ndarray, y: np.ndarray, wstar: np.ndarray | None, minima: BlockMinima | None):
        T, d = X.shape
        self.X, self.y, self.T, self.d, self.minima = X, y, T, d, minima
        self.has = wstar is not None
        self.wv = wstar if self.has else np.zeros(d)
        self.cap = int(min(T, max(1024, min(T // 4, (256 << 20) // (8 * d)))))  # virtual until written
        self.score = np.empty(T)
        self.cmargin = np.empty(T if self.has else 0)
        self.mis, self.snaps, self.inner, self.norm, self.sr = _buffers(self.cap, d)
        self.w = np.zeros(d)
        self.t, self.M, self.r2, self.cmin, self.nonpos, self.nodd, self.bad = 0, 0, 0.0, np.inf, 0, 0, -1
        self.v, self.bmin, self.shift = np.zeros(d), np.empty(0), 0
        self.pending = minima is not None
        self.first_later = False  # the direction is computed on the worker, before the data half (see split_rest)
        self.t_split = 0
        self.kernel = perceptron_kernel()

    def grow(self) -> None:
        """Buffers full: double them and keep what the loop wrote (it resumes where it stopped)."""
        M = self.M
        self.cap *= 2
        mis2, snaps2, inner2, norm_2, sr2 = _buffers(self.cap, self.d)
        mis2[:M], snaps2[:M], inner2[:M + 1], norm_2[:M + 1] = self.mis[:M], self.snaps[:M], self.inner[:M + 1], \
            self.norm[:M + 1]
        sr2[:M + 1] = self.sr[:M + 1]
        self.mis, self.snaps, self.inner, self.norm, self.sr = mis2, snaps2, inner2, norm_2, sr2

    def resolve(self, t_done: int, inline: bool = False) -> None:
        """Read the minima's direction (:meth:`BlockMinima.resolve`); the loop computes minima from here on."""
        self.pending = False
        if self.minima.resolve(self.X, self.y, t_done, inline):
            self.v, self.bmin, self.shift = self.minima.v, self.minima.bmin, self.minima.shift

    def one_pass(self, t_end: int, chunks: bool = True) -> None:
        """The one-pass kernel up to round ``t_end`` (in chunks while the minima's direction is pending)."""
        k, X, y, minima = self.kernel, self.X, self.y, self.minima
        while self.t < t_end and self.bad == -1:
            if self.pending and chunks and minima.future.done():
                self.resolve(self.t)
            t = self.t
            stop = min(t_end, (t // CHUNK + 1) * CHUNK) if self.pending and chunks else t_end
            while True:
                (self.t, self.M, self.r2, self.cmin, self.nonpos, self.nodd,
                 self.bad) = k(X, y, self.wv, self.has, self.t, stop, self.w, self.M, self.score, self.cmargin,
                               self.mis, self.snaps, self.inner, self.norm, self.sr, self.r2, self.cmin, self.nonpos,
                               self.nodd, self.v, self.bmin, self.shift)
                if self.t >= stop or self.bad != -1:
                    break
                self.grow()

    def direction_first(self, split: bool) -> None:
        """With ``minima.first``: compute the direction now, the loop's first rounds on the worker meanwhile;
        or, when the probe will split the run, leave it to the worker before the data half (``first_later``)."""
        minima, T = self.minima, self.T
        minima.future = Future()
        if split:  # the probe first (its rounds' minima are caught up once the direction is known)
            self.one_pass(min(T, SPLIT_PROBE), False)
            self.first_later = self.t < T and self.bad == -1 and self.M >= SPLIT_MIN_MISTAKE_RATE * self.t
        if not self.first_later:
            pre = None
            if engine.threads() >= 2 and T > 2 * PREFIX:  # the loop's first rounds on the worker meanwhile
                pre = engine.worker().submit(self.one_pass, PREFIX, False)  # one call: no GIL needed until it returns
            try:
                _first(minima)
            finally:
                if pre is not None:
                    pre.result()
            self.resolve(self.t)

    def prelude(self):
        """The data half's first step: the search's first step (when the worker computes it) and the probe's minima."""
        if self.first_later:
            _first(self.minima)
        if self.pending:
            self.resolve(self.t_split, inline=True)
        return self.v, self.bmin, self.shift

    def split_rest(self) -> None:
        """The rest of the run as two halves at once: the learner in this thread, the data half in chunks that
        the worker takes (and this thread too once the learner is done)."""
        learn = perceptron_kernel("perceptron_learn")
        self.t_split = self.t
        half = _DataHalf(self.X, self.y, self.wv, self.has, self.t_split, self.cmargin, self.prelude)
        fut = engine.worker().submit(half.work)
        try:
            while True:
                self.t, self.M, self.nodd = learn(self.X, self.y, self.wv, self.t, self.w, self.M, self.score,
                                                  self.mis, self.snaps, self.inner, self.norm, self.sr, self.nodd)
                if self.t >= self.T:
                    break
                self.grow()
        finally:
            started = not fut.cancel()  # cancelled: the worker never started (the other core busy)
            half.work()                 # the chunks not taken yet (all of them when cancelled)
            if started:
                fut.result()
        self.r2, self.cmin, self.nonpos, self.bad = half.combine(self.r2, self.cmin, self.nonpos)

    def result(self) -> tuple:
        M = self.M
        return (self.score, self.cmargin, self.mis[:M], self.snaps[:M], self.inner[:M + 1], self.norm[:M + 1], self.r2,
                self.cmin, self.nonpos, self.nodd, self.bad, self.sr[:M + 1])


def perceptron(X: np.ndarray, y: np.ndarray, wstar: np.ndarray | None, split: bool | None = None,
               minima: BlockMinima | None = None):
    """Run the compiled loop, growing the per-mistake buffers as needed.

    The one-pass kernel runs the first :data:`SPLIT_PROBE` rounds. When mistakes were frequent
    there and two CPUs are available (``split=None``; True/False force it), the rest runs as two
    halves at once: the learner in this thread, the data-only quantities (finiteness, R, labels,
    y⟨w*,x⟩) in a worker thread (numba releases the GIL). Every value is the same float
    expression either way, so the results are identical (tested). ``minima``: also the block minima
    of the max-margin search's first pass (:class:`BlockMinima`), from the rounds after its direction
    is known (the loop runs in chunks until then). With ``minima.first`` (the direction computed by a
    callable): when the probe splits the run, the worker computes the direction and then runs the data
    half with the minima (the probe's rounds caught up), while the learner runs to the end in this
    thread from the probe on; otherwise the caller's thread computes it while the worker runs the loop's
    first :data:`PREFIX` rounds.

    Returns ``score, cmargin, mistakes, snapshots, inner, norm, max‖x‖², min cmargin,
    #{t: cmargin ≤ 0}, #odd norms, bad_row, state rounds`` (``[0, mistakes + 1]``).
    """
    T = X.shape[0]
    run = _Run(X, y, wstar, minima)
    if split is None:
        split = engine.threads() >= 2 and T > max(2 * SPLIT_PROBE, SPLIT_MIN_T)
    if run.pending and minima.first is not None:
        run.direction_first(split)
    run.one_pass(min(T, max(run.t, SPLIT_PROBE)) if split else T)
    if run.t < T and run.bad == -1 and run.M < SPLIT_MIN_MISTAKE_RATE * run.t:
        run.one_pass(T)  # few mistakes: the one pass to the end
    elif run.t < T and run.bad == -1:
        run.split_rest()
    if run.pending:  # the direction came after the last round: its minima over every round
        run.resolve(run.t, inline=True)
    if minima is not None:
        minima.wait()
    return run.result()


#: The data half of a split run is cut into chunks of this many rounds (a multiple of every block of minima),
#: which the worker takes in order and the learner's thread too once the learner is done.
DATA_CHUNK = 1 << 17


class _DataHalf:
    """The data half of a split run (:func:`_perceptron_data_py` on rounds ``t0 … T-1``) in chunks that either
    thread may take: the worker from the start, the learner's thread when its loop ends, so that a worker
    that got no CPU (the other core busy) does not hold the run up. ``prelude()`` runs first, once, in
    whichever thread comes first (the search's first step; it returns the minima's direction, array and
    shift). The chunks' results are combined in round order with the loop's own comparisons, so the
    values are the single pass's (see :meth:`combine`)."""

    def __init__(self, X, y, wv, has, t0, cmargin, prelude):
        self.X, self.y, self.wv, self.has, self.cmargin, self.prelude = X, y, wv, has, cmargin, prelude
        T = X.shape[0]
        inner = list(range((t0 // DATA_CHUNK + 1) * DATA_CHUNK, T, DATA_CHUNK))
        self.edges = [t0] + inner + [T]
        self.results: list = [None] * (len(self.edges) - 1)
        self.lock, self.ready = threading.Lock(), threading.Event()
        self.taken, self.next, self.args = False, 0, None
        self.kernel = perceptron_kernel("perceptron_data")

    def work(self) -> None:
        with self.lock:
            first, self.taken = not self.taken, True
        if first:
            try:
                self.args = self.prelude()
            finally:
                self.ready.set()
        else:
            self.ready.wait()
        if self.args is None:  # the prelude failed: its exception is the other thread's to report
            return
        v, bmin, shift = self.args
        while True:
            with self.lock:
                i, self.next = self.next, self.next + 1
            if i >= len(self.results):
                return
            a, e = self.edges[i], self.edges[i + 1]
            self.results[i] = self.kernel(self.X[:e], self.y[:e], self.wv, self.has, a, self.cmargin, 0.0, np.inf,
                                          0, v, bmin, shift)

    def combine(self, r2: float, cmin: float, nonpos: int) -> tuple:
        """``(max ‖x‖², min margin, #≤0, bad_row)`` after the probe's ``r2, cmin, nonpos``: chunk by chunk in
        round order, the larger ‖x‖² and the smaller margin only when strictly so (the first of equal
        values, −0.0 or +0.0, stays, as in the loop), up to the first chunk with a non-finite row (whose
        first one is the run's: the loop stops there); -2 when some label is not ±1."""
        nbad = 0
        for r2c, cminc, nonposc, nbadc, badc in self.results:
            if badc >= 0:
                return r2, cmin, nonpos, badc
            r2 = r2c if r2c > r2 else r2
            cmin = cminc if cminc < cmin else cmin
            nonpos += nonposc
            nbad += nbadc
        return r2, cmin, nonpos, (-2 if nbad > 0 else -1)

