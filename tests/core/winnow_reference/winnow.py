r"""Winnow, Littlestone's version, for monotone disjunctions [000] §4.

``x ∈ {0,1}^N``, ``y ∈ {0,1}``; ``w_1 = (1, …, 1)``. Predict ``ŷ = 1`` iff
``w·x > N`` (threshold N, **strict**: ``w·x = N`` predicts 0, as in [000]).
Update ``w_i ← w_i (1+β)^{(y−ŷ) x_i}``: a false negative multiplies the active
weights by ``1+β`` (promotion), a false positive divides them by ``1+β``
(demotion); a correct round changes nothing (conservative).

**Exact state.** Every weight is an integer power of ``1+β``, so the state is
the integer exponent vector ``k`` (``w_i = (1+β)^{k_i}``; trace
``weight_kind="exponent"``, ``log_base = ln(1+β)``): it never overflows or
underflows and :meth:`~olc_core.trace.Trace.log_weights_at` is ``k·ln(1+β)``.
``weights_at`` returns the float weights (0 where they underflow).

**Exact decisions.** ``Σ_{i: x_i=1} (1+β)^{k_i} > N`` is evaluated in log space
(the shifted exponentials of log-sum-exp, ``m = max_i k_i ln(1+β)``) together
with a rigorous bound on its floating-point error; when the float sum is within
that bound of ``N`` (ties such as β = 1 with a sum of powers of two equal to
N), the comparison is redone in exact integer arithmetic on the rational
``1+β = P/Q`` (β the float given, read exactly): the decision is always the one
the algorithm makes in exact arithmetic. Rounds decided that way are listed in
``columns["exact_decision"]``.

Between mistakes the weights are constant, so whole blocks of upcoming rounds
are evaluated at once. X may be float or integer/bool (a 0/1 ``uint8`` array is
used as is, without a float copy).

The proof (:mod:`olc_core.proofs.winnow`) uses the caller's ``comparator`` (the
relevant variables of the target disjunction: indices, or a 0/1 mask of length
N — a boolean array is always a mask; an integer array of length N with only
0/1 entries is read as a mask unless it is strictly increasing) or, when
absent, a consistent disjunction found greedily
(:func:`olc_core.comparators.consistent_disjunction`).

Hand-worked example, ``N = 4``, ``β = 1``, target ``x_0``:

* round 0: ``x = 1011``, ``w·x = 3 ≤ 4`` → ŷ = 0, y = 1: promote → ``w = (2,1,2,2)``, Φ = 7;
* round 1: ``x = 0111``, ``w·x = 5 > 4`` → ŷ = 1, y = 0: demote → ``w = (2,½,1,1)``, Φ = 4.5;
* round 2: ``x = 1100``, ``w·x = 2.5`` → ŷ = 0, y = 1: promote → ``w = (4,1,1,1)``, Φ = 7;
* round 3: ``x = 1000``, ``w·x = 4 = N`` (a tie: not > N) → ŷ = 0, y = 1: promote → ``w = (8,1,1,1)``.

>>> import numpy as np, olc_core
>>> X = np.array([[1, 0, 1, 1], [0, 1, 1, 1], [1, 1, 0, 0], [1, 0, 0, 0]]); y = np.array([1, 0, 1, 1])
>>> tr = olc_core.run("winnow", X, y, beta=1.0, comparator=[0])
>>> tr.mistakes.tolist(), tr.predictions.tolist(), tr.weights_at(4).round(12).tolist()   # exp(k·ln 2)
([0, 1, 2, 3], [0, 1, 0, 0], [8.0, 1.0, 1.0, 1.0])
>>> tr.history.snapshots.tolist()                        # the exact state: exponents of 1+β
[[1, 0, 1, 1], [1, -1, 0, 0], [2, 0, 0, 0], [3, 0, 0, 0]]
>>> tr.columns["exact_decision"].tolist()                 # round 3 is the tie w·x = N
[False, False, False, True]
>>> tr.proof.mistake_bound, tr.proof.violations()          # 2 + 3k(log2 N + 1) with k = 1
(11.0, [])
"""
from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import numpy as np

from olc_core._exact.powers import exact_greater
from olc_core._support.numeric import Grow
from olc_core._support.validate import as_labels, as_matrix, first_bad
from olc_core.comparators import consistent_disjunction
from tests.core.winnow_reference import proof as proofs
from olc_core.trace import SnapshotHistory, Trace
from olc_core._support.words import agree, count

__all__ = ["run", "winnow_loop", "exact_greater", "parse_disjunction", "as_binary_matrix"]

NAME = "winnow"

#: cells (rows × N) evaluated per block at most
_MAX_CELLS = 1 << 21
_CHUNK = 1 << 16
# floating-point error constants (see ``_decide``)
_U = 2.0 ** -53
_SAFETY = 4.0


def as_binary_matrix(X, algorithm: str = NAME) -> np.ndarray:
    """X as a (T, N) array of 0/1 values: integer/bool input is kept as is (no float copy),
    anything else goes through :func:`olc_core._support.validate.as_matrix` (finite float64)."""
    try:
        A = np.asarray(X)
    except Exception:
        return as_matrix(X, algorithm)  # raises the shared message
    if A.dtype.kind in "biu" and A.ndim == 2 and A.shape[0] >= 1 and A.shape[1] >= 1:
        A = np.ascontiguousarray(A)
    else:
        A = as_matrix(A, algorithm)
    if A.dtype.kind != "b" and not _zero_one(A):  # one pass without temporaries; locate the entry if not
        T = A.shape[0]
        for a in range(0, T, _CHUNK):
            blk = A[a:a + _CHUNK]
            bad = (blk != 0) & (blk != 1)
            if bad.any():
                t = first_bad(bad)
                j = int(np.flatnonzero(bad[t])[0])
                raise ValueError(f"{algorithm}: X must be 0/1; found {float(blk[t, j]):g} at round {a + t + 1}, "
                                 f"feature {j + 1}")
    return A


def _zero_one(A: np.ndarray) -> bool:
    """Every entry of A is 0 or 1: for unsigned integers ``max ≤ 1`` (one reduction, no temporary array);
    for other dtypes the entries must also be whole numbers (checked by the caller)."""
    if A.dtype.kind == "u":
        return int(A.max()) <= 1
    if A.dtype.kind == "i":
        return int(A.min()) >= 0 and int(A.max()) <= 1
    return False


def _decide(Xb: np.ndarray, k: np.ndarray, L: float, lnN: float):
    """Log scores and decisions (1, 0, or -1 = too close to N for floats) for a block of rows.

    Terms ``z_i = exp(k_i L − m)`` approximate ``(1+β)^{k_i} e^{−m}`` with relative error at most
    ``r_i`` (error of L times |k_i|, rounding of ``k_i L`` and of the shift, and of exp); the row sum
    (positive terms, any order) adds ``n·u`` relative; the threshold ``N e^{−m}`` is computed with
    error ``r_N``. A row is decided in floats only when the two sides differ by more than
    ``4×`` the sum of these bounds; otherwise the caller decides it exactly.
    """
    tl = k.astype(np.float64) * L
    m = float(tl.max())
    with np.errstate(under="ignore"):  # terms far below the largest one vanish: accounted for in err
        z = np.exp(tl - m)
        r = 2.0 * (np.abs(tl) * 4 * _U + np.abs(tl - m) * _U + 4 * _U)
        # one pass for both sums; their order does not matter: the bound n·u·S holds for any order of
        # summation of positive terms (and x_i z_i is exact), and near-ties are decided exactly anyway
        SE = Xb @ np.stack([z, z * r], axis=1)
        S, E = SE[:, 0], SE[:, 1]
        n = Xb.sum(axis=1, dtype=np.float64)
        err = _SAFETY * (E + n * 2 * _U * S + n * 2.0 ** -1074)
    thr = math.exp(lnN - m)
    rthr = _SAFETY * 2.0 * (abs(lnN) * 2 * _U + abs(lnN - m) * _U + 2 * _U)
    dec = np.full(S.shape[0], -1, dtype=np.int8)
    dec[S - err > thr * (1.0 + rthr)] = 1
    dec[S + err < thr * (1.0 - rthr)] = 0
    with np.errstate(divide="ignore"):
        log_score = np.log(S) + m
    return dec, log_score


def winnow_loop(X: np.ndarray, y: np.ndarray, beta: float):
    """The Winnow run: ``(log_score, predictions, mistakes, snapshots, exact_rounds)``.

    ``snapshots[j]`` is the int64 exponent vector after mistake ``j``;
    ``exact_rounds`` the rounds whose decision needed exact arithmetic.
    """
    T, N = X.shape
    base = 1 + Fraction(beta)
    P, Q = base.numerator, base.denominator
    L = math.log1p(beta)
    lnN = math.log(N)
    k = np.zeros(N, dtype=np.int64)
    log_score = np.empty(T)
    pred = np.empty(T, dtype=np.int8)
    mis = Grow((), np.int64)
    snaps = Grow((N,), np.int64)
    exact = Grow((), np.int64)
    cap = max(64, _MAX_CELLS // N)
    t, B = 0, 64
    while t < T:
        e = min(T, t + B)
        Xb = X[t:e]
        dec, ls = _decide(Xb, k, L, lnN)
        yb = y[t:e]
        wrong = np.flatnonzero((dec >= 0) & (dec != yb))
        stop = int(wrong[0]) if wrong.size else e - t  # first mistake decided in floats (or block end)
        for i in np.flatnonzero(dec[:stop] < 0).tolist():  # near-ties before it: decide exactly, in order
            row = Xb[i]
            dec[i] = 1 if exact_greater(k[row != 0], P, Q, N) else 0
            exact.append(t + i)
            if dec[i] != yb[i]:
                stop = i
                break
        if stop == e - t:  # no mistake in the block
            log_score[t:e] = ls
            pred[t:e] = dec
            t, B = e, min(2 * B, cap)
            continue
        i = t + stop
        log_score[t:i + 1] = ls[:stop + 1]
        pred[t:i + 1] = dec[:stop + 1]
        step = 1 if y[i] == 1 else -1  # y − ŷ on a mistake
        k = k + step * (X[i] != 0)
        mis.append(i)
        snaps.append(k)
        B = int(min(cap, max(16, 2 * stop + 16)))
        t = i + 1
    return log_score, pred, mis.array(), snaps.array(), exact.array()


def parse_disjunction(comparator, N: int, algorithm: str = NAME) -> np.ndarray:
    """The relevant variables (sorted int64 indices) from indices or a 0/1 mask of length N."""
    try:
        a = np.asarray(comparator)
    except Exception:
        raise ValueError(f"{algorithm}: comparator must be indices or a 0/1 mask of the relevant variables") \
            from None
    if a.ndim != 1:
        raise ValueError(f"{algorithm}: comparator must be a 1-D array of variable indices or a 0/1 mask of "
                         f"length {N}; got shape {a.shape}")
    if a.dtype.kind == "b":
        if a.shape[0] != N:
            raise ValueError(f"{algorithm}: a boolean comparator mask must have length N = {N}; got {a.shape[0]}")
        return np.flatnonzero(a).astype(np.int64)
    if a.size == 0:
        return np.zeros(0, dtype=np.int64)
    if a.dtype.kind not in "iuf":
        raise ValueError(f"{algorithm}: comparator must hold integers (variable indices) or 0/1 (a mask)")
    f = a.astype(np.float64)
    if not np.isfinite(f).all() or (f != np.round(f)).any():
        raise ValueError(f"{algorithm}: comparator entries must be integers (variable indices or a 0/1 mask)")
    v = f.astype(np.int64)
    zero_one = bool(np.all((v == 0) | (v == 1)))
    increasing = bool(np.all(np.diff(v) > 0))
    if v.shape[0] == N and zero_one and not increasing:
        return np.flatnonzero(v).astype(np.int64)
    if (v < 0).any() or (v >= N).any():
        bad = int(v[(v < 0) | (v >= N)][0])
        raise ValueError(f"{algorithm}: comparator index {bad} is outside 0..{N - 1}")
    if np.unique(v).shape[0] != v.shape[0]:
        raise ValueError(f"{algorithm}: comparator lists a variable twice")
    return np.sort(v)


def _or_of(X: np.ndarray, relevant: np.ndarray) -> np.ndarray:
    out = np.zeros(X.shape[0], dtype=bool)
    for i in relevant.tolist():
        out |= X[:, i] != 0
    return out


def resolve_disjunction(X: np.ndarray, y: np.ndarray, comparator) -> tuple[np.ndarray | None, dict[str, Any]]:
    """The target disjunction the proof uses, how it was found, and the rounds where the labels disagree."""
    T, N = X.shape
    if comparator is not None:
        rel = parse_disjunction(comparator, N)
        bad = np.flatnonzero(_or_of(X, rel) != (y != 0)).astype(np.int64)
        return rel, {"comparator_source": "given", "comparator": rel, "failing_rounds": bad,
                     "consistency_detail": "" if bad.size == 0 else
                     (f"{count(bad.size, 'round')} {agree(bad.size, 'has', 'have')} labels that differ from the OR of the given relevant variables "
                      f"(first: round {int(bad[0]) + 1})")}
    dj = consistent_disjunction(X, y)
    info: dict[str, Any] = {"comparator_method": dj.method}
    if dj.consistent:
        info.update(comparator_source="consistent disjunction (greedy)", comparator=dj.relevant,
                    failing_rounds=np.zeros(0, dtype=np.int64), consistency_detail="")
        return dj.relevant, info
    fr = dj.failing_rounds
    shown = ", ".join(str(int(r) + 1) for r in fr[:8]) + (", …" if fr.size > 8 else "")
    info.update(comparator_source=None, comparator=None, failing_rounds=fr,
                consistency_detail=(f"no monotone disjunction is consistent with the labels: positive "
                                    f"{agree(fr.size, 'round', 'rounds')} {shown} {agree(fr.size, 'has', 'have')} every active variable also active in some negative example"))
    return None, info


def run(X, y, params: dict[str, Any]) -> Trace:
    X = as_binary_matrix(X)
    T, N = X.shape
    y = as_labels(y, "01", T, NAME)
    beta = float(params["beta"])
    rel, cinfo = resolve_disjunction(X, y, params["comparator"])
    log_score, pred, mistakes, S, exact_rounds = winnow_loop(X, y, beta)
    L = math.log1p(beta)
    positive = y[mistakes] == 1.0  # false negatives (promotions)
    if rel is not None and rel.size:
        Xm = (X[mistakes][:, rel] != 0).astype(np.int64)  # M × k
        promos = np.cumsum(Xm * positive[:, None], axis=0)
        demos = np.cumsum(Xm * (~positive)[:, None], axis=0)
    else:
        promos = demos = np.zeros((len(mistakes), 0), dtype=np.int64)
    info = dict(cinfo, log_base=L, base_fraction=(1 + Fraction(beta)), threshold=N,
                exact_decisions=int(exact_rounds.size))
    proof = proofs.winnow_proof(T=T, N=N, beta=beta, log_base=L, mistakes=mistakes, positive=positive,
                                exponents=S, relevant=rel, rel_promotions=promos, rel_demotions=demos,
                                comparator_info=cinfo)

    def exact_col():
        flag = np.zeros(T, dtype=bool)
        flag[exact_rounds] = True
        return flag

    def score_col():
        with np.errstate(over="ignore", under="ignore"):
            return np.exp(log_score)

    columns: dict[str, Any] = {"log_score": log_score, "score": score_col, "exact_decision": exact_col}
    return Trace(algorithm=NAME, params=params, T=T, d=N, mistakes=mistakes, predictions=pred,
                 history=SnapshotHistory(np.zeros(N, dtype=np.int64), mistakes, S), weight_kind="exponent",
                 log_base=L, base=1.0 + beta, columns=columns, proofs={"potential": proof}, primary="potential", info=info)
