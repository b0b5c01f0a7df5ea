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

The bound-attaining stream against WM (:func:`olc_core.streams.experts.adversary`) is built here too:
:func:`adversary_rounds` decides the learner's exact vote from the integer counts (no replay of the
learner; compiled kernel or numpy twin, the same stream), its draws read a block at a time
(:func:`adversary_draws`).

``OLC_CORE_ENGINE=numpy`` in the environment makes "auto" mean numpy.
"""
from __future__ import annotations

import math
from typing import Callable, Iterator

import numpy as np

from .engine import available, jit, resolve_engine

try:  # a helper the compiled kernels call (and plain Python, without numba)
    from numba.extending import register_jitable as jitable
except Exception:  # pragma: no cover - numba is optional
    def jitable(fn):
        return fn

__all__ = ["count_blocks", "scaled_weights", "log_phi_rows", "vote_tolerance", "wm_decisions", "adversary_draws",
           "adversary_rounds", "raw_draws_ok"]

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


class _Powers:
    """``β^k`` for the decision twin, one table per run grown by doubling (:func:`power_table` on a longer
    range: the same powers, within an ulp of β^k — all the votes' rounding bounds assume). ``scaled(C)`` is
    :func:`scaled_weights`'s ``w`` without a new table per block."""

    def __init__(self, beta: float):
        self.beta = float(beta)
        self.table = power_table(self.beta, 64)

    def scaled(self, C: np.ndarray) -> np.ndarray:
        if self.beta == 0.0:
            return (C == 0).astype(np.float64)
        K = C - C.min(axis=-1, keepdims=True)
        kmax = int(K.max()) if K.size else 0
        if kmax >= self.table.shape[0]:
            self.table = power_table(self.beta, max(kmax, 2 * self.table.shape[0]))
        return self.table[K]


def _votes(A, on, C, beta, powers: _Powers | None = None):
    """Each row's vote ``Σ_i ±β^{C_i}`` (scaled: the largest weight of a row is 1) and its rounding bound
    (−1 for β = 0: the vote is an exact integer, 0 is the tie)."""
    w = scaled_weights(C, beta)[0] if powers is None else powers.scaled(C)
    phi = w.sum(axis=1)
    d = 2.0 * np.einsum("ij,ij->i", A == on, w) - phi
    tau = np.full(d.shape, -1.0) if beta == 0.0 else vote_tolerance(A.shape[1], phi)
    return d, tau


def _steady_block(A, yv, y, on, beta, c, t, e, pred, is_mis, powers: _Powers | None = None):
    """Rounds t … e−1 guessing no mistake (the weights fixed: one product). Returns ``(k, status)``: the
    first k rounds are float-certain correct predictions (recorded); round t + k is a mistake
    (``"mistake"``, recorded and ``c`` updated), undecided in floats (``"tie"``), or past e (``"end"``)."""
    w = scaled_weights(c[None, :], beta)[0][0] if powers is None else powers.scaled(c)
    phi = float(w.sum())
    d = 2.0 * ((A[t:e] == on) @ w) - phi
    tau = -1.0 if beta == 0.0 else vote_tolerance(A.shape[1], phi)
    yhat = np.where(d >= 0.0, 1, -1)
    amb = np.abs(d) <= tau
    stop = (yhat != y[t:e]) | amb
    k = int(np.argmax(stop)) if stop.any() else e - t
    pred[t:t + k] = yhat[:k]
    if k == e - t:
        return k, "end"
    if amb[k]:
        return k, "tie"
    pred[t + k] = yhat[k]
    is_mis[t + k] = True
    c += A[t + k] != yv[t + k]
    return k, "mistake"


def _erring_block(A, yv, y, on, beta, c, t, e, pred, is_mis, powers: _Powers | None = None):
    """Rounds t … e−1 guessing that every one is a mistake (the adversary's streams: WM errs every round):
    the counts before each round are then a running sum of the rows' penalties, and every vote is
    evaluated at once. Returns ``(k, status)``: the first k rounds are float-certain mistakes (recorded,
    ``c`` updated); round t + k is predicted right (``"right"``, recorded: no update), undecided in floats
    (``"tie"``), or past e (``"end"``)."""
    pen = A[t:e] != yv[t:e, None]
    C = np.cumsum(pen, axis=0, dtype=np.int64)
    C -= pen
    C += c
    d, tau = _votes(A[t:e], on, C, beta, powers)
    yhat = np.where(d >= 0.0, 1, -1)
    amb = np.abs(d) <= tau
    stop = (yhat == y[t:e]) | amb
    k = int(np.argmax(stop)) if stop.any() else e - t
    pred[t:t + k] = yhat[:k]
    is_mis[t:t + k] = True
    if k:
        c[:] = C[k - 1] + pen[k - 1]
    if k == e - t:
        return k, "end"
    if amb[k]:
        return k, "tie"
    pred[t + k] = yhat[k]
    return k, "right"


def _wm_numpy(A, yv, y, on, beta, c, t0, pred, is_mis):
    """The numpy twin of :func:`_wm_kernel_py`. Between mistakes the weights are fixed, so the votes up to
    the next mistake are one matrix–vector product; in a run of mistakes the counts are a running sum,
    so the votes up to the next correct round are one pass too. It guesses "no mistake" after a correct
    round and "a mistake" after a mistake while mistakes come in runs (a mistake right after one; not after
    an "a mistake" guess failed at once), on blocks that double while the guess holds. Every vote is
    decided in floats only outside its rounding bound, so the decisions are the exact ones, as the
    kernel's."""
    T, N = A.shape
    rows, t, erring, runs = 16, t0, True, True
    powers, most = _Powers(beta), block_rows(N)
    while t < T:
        e = min(T, t + min(rows, most))
        k, status = (_erring_block if erring else _steady_block)(A, yv, y, on, beta, c, t, e, pred, is_mis, powers)
        if status == "tie":
            return t + k
        if status == "end":
            t, rows = e, rows * 2
            continue
        if k == 0:      # the guess failed at once: mistakes come in runs (guess them) only while runs are seen
            runs = status == "mistake"
        t, rows, erring = t + k + 1, 16, status == "mistake" and runs
    return T


_kernel: list = []


def _compiled():
    if not _kernel:
        _kernel.append(jit(_wm_kernel_py))  # cached by numba, or compiled per process on a read-only install
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


# ---------------------------------------------------------------------------- the adversaries' streams
#: rounds per block of the adversary's draws (even: a pair of rounds takes 2N + 1 raw words)
ADV_BLOCK_ELEMS = 1 << 18
_raw_ok: list = []


def _draws_public(rng: np.random.Generator, rows: int, N: int) -> tuple[np.ndarray, np.ndarray]:
    """The adversary's draws through the public API, round by round: ``rng.random(N)`` (as the
    integers ``u·2⁵³``, exact) then ``rng.integers(2)`` (0 → the first sign is +1, 1 → −1)."""
    u = np.empty((rows, N), dtype=np.uint64)
    first = np.empty(rows, dtype=np.int8)
    for r in range(rows):
        u[r] = (rng.random(N) * 9007199254740992.0).astype(np.uint64)
        first[r] = 1 - 2 * int(rng.integers(2))
    return u, first


def _draws_raw(rng: np.random.Generator, rows: int, N: int) -> tuple[np.ndarray, np.ndarray]:
    """The same draws from the raw 64-bit words of the bit generator, a block at once. numpy's PCG64
    gives ``random()`` = (word >> 11)·2⁻⁵³, one word per double, and ``integers(2)`` = the top bit of a
    32-bit half word: the low half of a new word, its high half kept for the next call. So a pair of
    rounds reads 2N + 1 words: N doubles, the coin word, N doubles (``raw_draws_ok`` checks this)."""
    K = -(-rows // 2)
    R = rng.bit_generator.random_raw(K * (2 * N + 1)).reshape(K, 2 * N + 1)
    u = np.empty((2 * K, N), dtype=np.uint64)
    np.right_shift(R[:, :N], 11, out=u[0::2])
    np.right_shift(R[:, N + 1:], 11, out=u[1::2])
    coin = np.empty(2 * K, dtype=np.uint64)
    coin[0::2] = (R[:, N] >> 31) & 1
    coin[1::2] = R[:, N] >> 63
    first = (1 - 2 * coin.astype(np.int8)).astype(np.int8)
    return u[:rows], first[:rows]


def raw_draws_ok() -> bool:
    """Whether :func:`_draws_raw` reproduces :func:`_draws_public` with this numpy (checked once, on a few
    seeds, odd and even round counts): otherwise the adversary draws through the public API."""
    if not _raw_ok:
        ok = True
        try:
            for seed, rows, N in ((0, 5, 3), (1, 6, 1), (2, 3, 8)):
                ua, fa = _draws_public(np.random.default_rng([seed, 12]), rows, N)
                ub, fb = _draws_raw(np.random.default_rng([seed, 12]), rows, N)
                ok = ok and np.array_equal(ua, ub) and np.array_equal(fa, fb)
        except Exception:  # pragma: no cover - a bit generator without random_raw
            ok = False
        _raw_ok.append(bool(ok))
    return _raw_ok[0]


def adversary_draws(rng: np.random.Generator, T: int, N: int) -> Iterator[tuple[int, int, np.ndarray, np.ndarray]]:
    """``(s, e, u, first)`` for blocks of rounds: ``u[t − s]`` the tie-break draws of round t as integers
    (``rng.random(N)·2⁵³``), ``first[t − s]`` the sign of the heaviest side; exactly the values the
    round-by-round ``rng.random(N)``, ``rng.integers(2)`` calls give (the generator is used up after)."""
    rows = max(2, (ADV_BLOCK_ELEMS // max(N, 1)) & ~1)
    draw = _draws_raw if raw_draws_ok() else _draws_public
    for s in range(0, T, rows):
        e = min(T, s + rows)
        u, first = draw(rng, e - s, N)
        yield s, e, u, first


@jitable
def _sort_round(c, grp, ur, order, lvl, start, cnt, bk):
    """``order`` = the experts sorted by (count ``c``, draw ``ur``, index), given ``grp`` (the experts
    grouped by count, ascending). Each expert goes to a bucket at the start of its count's segment plus
    its draw's share of the segment (monotone in (count, draw), ~1 expert a bucket: the draws are
    uniform), a counting sort by bucket, then an insertion sort that only moves experts within a bucket."""
    N = grp.shape[0]
    g = 0
    start[0] = 0
    for j in range(N):
        if j > 0 and c[grp[j]] != c[grp[j - 1]]:
            g += 1
            start[g] = j
        lvl[grp[j]] = g
    start[g + 1] = N
    cnt[:N + 1] = 0
    for i in range(N):
        lo = start[lvl[i]]
        n = np.uint64(start[lvl[i] + 1] - lo)
        bk[i] = lo + np.int64(((ur[i] >> np.uint64(21)) * n) >> np.uint64(32))
        cnt[bk[i] + 1] += 1
    for b in range(N):
        cnt[b + 1] += cnt[b]
    for i in range(N):
        order[cnt[bk[i]]] = i
        cnt[bk[i]] += 1
    for i in range(1, N):
        x = order[i]
        j = i
        while j > 0:
            k = order[j - 1]
            if lvl[k] > lvl[x] or (lvl[k] == lvl[x] and (ur[k] > ur[x] or (ur[k] == ur[x] and k > x))):
                order[j] = k
                j -= 1
            else:
                break
        order[j] = x


def _adversary_kernel_py(u, first, c, beta_zero, A, y):
    """Rounds of the WM adversary (streams.experts.adversary): experts sorted by (count, draw, index),
    signs alternating from ``first``; the learner's exact vote is ``first`` unless it is a tie (β > 0:
    N even and the sorted counts equal in pairs; β = 0: an even number of weight-1 experts), when it is
    +1; the label is its opposite and the experts that agreed with the vote are penalised (``c``).
    ``grp`` keeps the experts grouped by count (ascending): a count grows by at most 1 a round, so the
    next grouping is a merge of the unpenalised and the penalised experts (O(N) a round)."""
    R, N = u.shape
    grp = np.argsort(c, kind="mergesort")
    order = np.empty(N, np.int64)
    tmp = np.empty(N, np.int64)
    kept = np.empty(N, np.int64)
    lvl = np.empty(N, np.int64)
    start = np.empty(N + 1, np.int64)
    cnt = np.empty(N + 1, np.int64)
    bk = np.empty(N, np.int64)
    for r in range(R):
        _sort_round(c, grp, u[r], order, lvl, start, cnt, bk)
        f = first[r]
        if beta_zero:
            k = 0
            for i in range(N):
                if c[i] == 0:
                    k += 1
            tie = k % 2 == 0
        else:
            tie = N % 2 == 0
            if tie:
                for j in range(0, N, 2):
                    if c[order[j]] != c[order[j + 1]]:
                        tie = False
                        break
        yhat = 1 if tie else f
        nk, npen = 0, 0
        for j in range(N):
            i = order[j]
            a = f if j % 2 == 0 else -f
            A[r, i] = a
            if a == yhat:
                c[i] += 1
                tmp[npen] = i
                npen += 1
            else:
                kept[nk] = i
                nk += 1
        y[r] = -yhat
        ik, ip = 0, 0
        for j in range(N):  # merge: both lists ascend in the new counts
            if ip == npen or (ik < nk and c[kept[ik]] <= c[tmp[ip]]):
                grp[j] = kept[ik]
                ik += 1
            else:
                grp[j] = tmp[ip]
                ip += 1


#: up to this many experts the numpy twin's rounds run on Python lists (2–3× faster than numpy calls on
#: ten numbers; at N = 50 numpy is 2× faster)
ADV_LISTS_MAX_N = 24


def _adversary_lists(u, first, c, beta_zero, A, y):
    """:func:`_adversary_numpy` on Python lists, for a few experts: ``sorted`` by (count, draw) is stable,
    as ``np.lexsort`` is, so the order, the decisions and the stream are the same."""
    R, N = u.shape
    cl, ul, fl = c.tolist(), u.tolist(), first.tolist()
    idx = range(N)
    rows, ys = [], [0.0] * R
    for r in range(R):
        ur = ul[r]
        order = sorted(idx, key=lambda i: (cl[i], ur[i]))  # noqa: B023 - used at once, in this round
        if beta_zero:
            tie = cl.count(0) % 2 == 0
        else:
            tie = N % 2 == 0 and all(cl[order[j]] == cl[order[j + 1]] for j in range(0, N, 2))
        f = fl[r]
        yhat = 1 if tie else f
        row = [0] * N
        heavy, light = order[0::2], order[1::2]
        for i in heavy:
            row[i] = f
        for i in light:
            row[i] = -f
        rows.append(row)
        for i in (heavy if yhat == f else light):
            cl[i] += 1
        ys[r] = float(-yhat)
    if R:
        A[:] = rows
        y[:] = ys
    c[:] = cl


def _adversary_numpy(u, first, c, beta_zero, A, y):
    """The numpy twin of :func:`_adversary_kernel_py` (same decisions, round by round)."""
    R, N = u.shape
    if N <= ADV_LISTS_MAX_N:
        _adversary_lists(u, first, c, beta_zero, A, y)
        return
    for r in range(R):
        order = np.lexsort((u[r], c))
        if beta_zero:
            tie = int(np.count_nonzero(c == 0)) % 2 == 0
        else:
            cs = c[order]
            tie = N % 2 == 0 and bool(np.array_equal(cs[0::2], cs[1::2]))
        f = int(first[r])
        yhat = 1 if tie else f
        A[r, order[0::2]] = f
        A[r, order[1::2]] = -f
        c[order[(0 if yhat == f else 1)::2]] += 1
        y[r] = -yhat


_adv_kernel: list = []


def _adversary_compiled():
    if not _adv_kernel:
        _adv_kernel.append(jit(_adversary_kernel_py))
    return _adv_kernel[0]


def adversary_rounds(rng: np.random.Generator, T: int, N: int, beta: float, engine: str = "auto"
                     ) -> tuple[np.ndarray, np.ndarray]:
    """The advice (T, N) int8 and labels (T,) float of :func:`olc_core.streams.experts.adversary`."""
    A = np.empty((T, N), dtype=np.int8)
    y = np.empty(T)
    c = np.zeros(N, dtype=np.int64)
    step = _adversary_compiled() if resolve_engine(engine) == "numba" and available() else _adversary_numpy
    for s, e, u, first in adversary_draws(rng, T, N):
        step(u, first, c, beta == 0.0, A[s:e], y[s:e])
    return A, y
