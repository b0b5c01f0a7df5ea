r"""Weighted Majority (Littlestone & Warmuth 1994) [000, 001].

N experts give advice ``a_{t,i} ∈ {-1, +1}`` (``X`` of shape (T, N); 0/1 advice is
accepted too and read as 0 → −1, 1 → +1, as [001] writes it; a matrix may not
mix −1 and 0). Labels ``y_t ∈ {-1, +1}``.

* Weights ``w_{1,i} = 1``. Each weight is ``w_{t,i} = β^{p_{t,i}}`` where
  ``p_{t,i}`` counts the penalties expert i received so far; the run stores the
  integer exponents ``p`` only (``weight_kind = "log"``: ``log w = p·ln β``,
  exact, never under- or overflowing; ``β = 0`` gives ``log w ∈ {0, -inf}``).
* Prediction: ``ŷ_t = +1`` iff ``W⁺ ≥ W⁻`` where ``W^± = Σ_{i: a_{t,i} = ±1} w_{t,i}``:
  **ties go to +1**, decided in exact arithmetic (the float vote is used when
  it is further from 0 than its rounding error bound, otherwise the sign of
  ``Σ_i ±β^{p_i}`` is computed with integers/fractions — see
  :func:`exact_vote_sign`).
* Penalty ``w_i ← β·w_i`` for every expert with ``a_{t,i} ≠ y_t``: on every round
  (``update="every_round"``, [000]) or only on rounds where the learner erred
  (``update="on_mistake"``, [001], the default).
* Parameters: give ``beta`` (β ∈ [0, 1)) or ``eta`` (η = 1 − β ∈ (0, 1]), or both
  if they agree (|β − (1 − η)| ≤ 1e-12); neither: β = η = ½. ``β = 0`` is Halving.

The proof (:func:`olc_core.proofs.experts.weighted_majority_proofs`) checks, at
every round, ``β^{m_{i*}} ≤ w_{i*} ≤ Φ_t ≤ N((1+β)/2)^{M}`` (log scale) for the
best expert ``i*`` of the run, ``max_i w_i ≤ Φ`` and ``p_i ≤ m_i`` (so
``β^{m_i} ≤ w_i``) for every expert, and the bound
``M ≤ (ln N + m* ln(1/β)) / ln(2/(1+β))`` [001] (for η ≤ ½ also
``M ≤ 2(1+η)m* + 2 ln N/η``, proof ``"eta_form"``).

>>> import numpy as np, olc_core
>>> X = np.array([[1, 1, -1], [-1, 1, 1], [1, -1, -1]]); y = np.array([-1, 1, 1])
>>> tr = olc_core.run("weighted_majority", X, y, beta=0.5)
>>> tr.predictions.tolist(), tr.mistakes.tolist()   # W⁺ = 2 > 1; 1.5 > .5; .5 < 1.5
([1, 1, -1], [0, 2])
>>> tr.weights_at(3).tolist()                      # experts 0,1 penalised at round 0; 1,2 at round 2
[0.5, 0.25, 0.5]
>>> tr.proof.constants["m_star"], round(tr.proof.mistake_bound, 4), tr.proof.violations()
(1, 6.2283, [])
"""
from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import numpy as np

from olc_core._support.numeric import Grow
from olc_core._support.validate import as_labels, real_matrix
from olc_core.proofs import experts as proofs
from olc_core.trace import CheckpointHistory, SnapshotHistory, Trace

__all__ = ["run", "advice_matrix", "resolve_beta", "exact_vote_sign", "ExpertWeights", "WeightState",
           "expert_mistakes"]

NAME = "weighted_majority"
EPS = 2.0 ** -52
#: memory budget (bytes) for stored weight exponents (snapshots / checkpoints)
HISTORY_BUDGET = 64 << 20
_BLOCK_ELEMS = 1 << 22


# ---------------------------------------------------------------------------- input
def advice_matrix(X, algorithm: str, name: str = "X") -> tuple[np.ndarray, tuple[float, float]]:
    """The advice as a C-contiguous (T, N) array in its own dtype (no float copy of int8 advice).

    Returns ``(A, (on, off))``: the value meaning +1 and the one meaning −1
    (``(1, -1)`` for ±1 advice, ``(1, 0)`` for 0/1 or boolean advice). Checked
    block by block: NaN/inf, values other than ±1 / 0/1, a mix of −1 and 0.
    """
    A = real_matrix(X, algorithm, name=name, column="expert")
    if A.dtype.kind == "b":
        A = A.view(np.uint8)
    A = np.ascontiguousarray(A)
    T, N = A.shape
    is_float = A.dtype.kind == "f"
    rows = max(1, _BLOCK_ELEMS // N)
    has_neg = has_zero = False
    first_zero = first_neg = None
    for s in range(0, T, rows):
        blk = A[s:s + rows]
        if is_float:
            fin = np.isfinite(blk)
            if not fin.all():
                t = s + int(np.flatnonzero(~fin.all(axis=1))[0])
                raise ValueError(f"{algorithm}: {name} has a NaN or infinite value at round {t + 1}")
            ok = (blk == 1.0) | (blk == -1.0) | (blk == 0.0)
        else:
            lo, hi = blk.min(), blk.max()
            ok = None if (lo >= -1 and hi <= 1) else ((blk == 1) | (blk == -1) | (blk == 0))
        if ok is not None and not ok.all():
            r = int(np.flatnonzero(~ok.all(axis=1))[0])
            j = int(np.flatnonzero(~ok[r])[0])
            raise ValueError(f"{algorithm}: {name} must hold -1/+1 advice (or 0/1); found {blk[r, j].item():g} "
                             f"at round {s + r + 1}, expert {j + 1}")
        z = blk == 0
        if first_zero is None and z.any():
            r = int(np.flatnonzero(z.any(axis=1))[0])
            first_zero = (s + r, int(np.flatnonzero(z[r])[0]))
        if first_neg is None and blk.min() < 0:
            r = int(np.flatnonzero((blk < 0).any(axis=1))[0])
            first_neg = (s + r, int(np.flatnonzero(blk[r] < 0)[0]))
        has_zero |= first_zero is not None
        has_neg |= first_neg is not None
    if has_zero and has_neg:
        raise ValueError(f"{algorithm}: {name} must be all -1/+1 or all 0/1 advice; it mixes -1 (round "
                         f"{first_neg[0] + 1}, expert {first_neg[1] + 1}) and 0 (round {first_zero[0] + 1}, expert "
                         f"{first_zero[1] + 1})")
    return A, ((1, 0) if has_zero else (1, -1))


def label_values(y: np.ndarray, enc: tuple[float, float], dtype) -> np.ndarray:
    """Each label written in the advice's encoding (so ``a != yv[t]`` marks wrong experts)."""
    on, off = enc
    return np.where(y > 0, on, off).astype(dtype)


def resolve_beta(params: dict[str, Any], algorithm: str, default_eta: float = 0.5) -> float:
    """β from ``beta`` / ``eta`` (exactly one needed; both only if β = 1 − η)."""
    b, e = params.get("beta"), params.get("eta")
    if b is not None and e is not None:
        if abs(b - (1.0 - e)) > 1e-12:
            raise ValueError(f"{algorithm}: beta = {b:g} and eta = {e:g} disagree (β must be 1 − η); "
                             "give only one of them")
        return float(b)
    if b is not None:
        return float(b)
    return 1.0 - float(default_eta if e is None else e)


def expert_mistakes(A: np.ndarray, yv: np.ndarray, rows: np.ndarray | None = None) -> np.ndarray:
    """``m_i`` = number of rounds (all, or ``rows``) on which expert i's advice differs from the label."""
    T, N = A.shape
    out = np.zeros(N, dtype=np.int64)
    step = max(1, _BLOCK_ELEMS // N)
    if rows is None:
        for s in range(0, T, step):
            out += (A[s:s + step] != yv[s:s + step, None]).sum(axis=0)
    else:
        rows = np.asarray(rows, dtype=np.int64)
        for s in range(0, len(rows), step):
            r = rows[s:s + step]
            out += (A[r] != yv[r, None]).sum(axis=0)
    return out


# ---------------------------------------------------------------------------- exact vote
def exact_vote_sign(counts: np.ndarray, plus: np.ndarray, beta: float) -> int:
    """Sign (−1, 0, +1) of ``Σ_i s_i β^{c_i}`` in exact arithmetic, ``s_i = +1`` where ``plus``, else −1.

    β is taken as the exact binary fraction of the float. Terms are grouped by
    exponent (``D_k = Σ_{c_i = k} s_i``) and summed from the largest weight down
    with :class:`fractions.Fraction`, stopping as soon as the partial sum exceeds
    the largest possible remainder ``Σ_{later}|D_k| β^{k_next}``.

    >>> exact_vote_sign(np.array([0, 1, 1]), np.array([False, True, True]), 0.5)   # -1 + .5 + .5
    0
    >>> exact_vote_sign(np.array([0, 1, 1]), np.array([False, True, True]), 0.6)
    1
    """
    c = np.asarray(counts, dtype=np.int64)
    s = np.where(np.asarray(plus, dtype=bool), 1, -1)
    if c.size == 0:
        return 0
    if beta == 0.0:
        v = int(s[c == 0].sum())
        return (v > 0) - (v < 0)
    k = c - c.min()
    D = np.bincount(k, weights=s.astype(np.float64))  # integers, exact (|D_k| ≤ N < 2^53)
    nz = np.flatnonzero(D)
    if nz.size == 0:
        return 0
    ks = nz.tolist()
    Dk = [int(v) for v in D[nz]]
    rem = np.cumsum(np.abs(D[nz])[::-1])[::-1].tolist()  # rem[j] = Σ_{l ≥ j} |D_l|
    b = Fraction(beta)
    partial = Fraction(0)
    ref = ks[0]
    for j in range(len(ks)):
        if partial == 0:
            ref = ks[j]  # the partial sum is 0 in any scale: move the reference exponent
        partial += Dk[j] * b ** (ks[j] - ref)
        if j + 1 == len(ks):
            break
        if abs(partial) > int(rem[j + 1]) * b ** (ks[j + 1] - ref):
            break
    return (partial > 0) - (partial < 0)


# ---------------------------------------------------------------------------- the weights
class WeightState:
    """Weights ``w_i = β^{c_i}`` as integer exponents ``c`` plus a scaled float copy for the vote.

    ``wt[i] = β^{c_i − base}`` (so ``Φ = β^{base} · Σ wt``); the copy is rebuilt
    from the exact exponents whenever its sum falls below 2^-500, so it never
    underflows where it matters. ``since`` counts the multiplications since the
    last rebuild (the float copy's relative error is at most ``(since + 4)·ε``).
    ``wt`` is padded with zeros to a multiple of 128 (block sums for sampling).
    """

    PAD = 128

    def __init__(self, N: int, beta: float):
        self.N = N
        self.beta = float(beta)
        self.log_beta = math.log(beta) if beta > 0 else -math.inf
        self.c = np.zeros(N, dtype=np.int32)
        n_pad = -(-N // self.PAD) * self.PAD
        self.wt = np.zeros(n_pad)
        self.wt[:N] = 1.0
        self.w = self.wt[:N]  # view
        self.base = 0
        self.since = 0
        self.phi_s = float(N)  # Σ wt

    def log_phi(self) -> float:
        if self.phi_s <= 0.0:
            return -math.inf
        return (self.base * self.log_beta if self.base else 0.0) + math.log(self.phi_s)

    def vote(self, a: np.ndarray, on_off: tuple[float, float]) -> float:
        """``(W⁺ − W⁻)/β^{base}`` in floating point."""
        s = float(np.dot(a, self.w))
        return s if on_off[1] != 0 else 2.0 * s - self.phi_s

    def tol(self) -> float:
        """A bound on the rounding error of :meth:`vote` (absolute, in the scaled units)."""
        return 4.0 * (self.N + self.since + 8) * EPS * self.phi_s + 2.0 ** -1000

    def predict(self, a: np.ndarray, on_off: tuple[float, float]) -> tuple[int, float]:
        """ŷ ∈ {−1, +1} (ties → +1, exact) and the float vote."""
        d = self.vote(a, on_off)
        tau = self.tol()
        if d > tau:
            return 1, d
        if d < -tau:
            return -1, d
        sgn = exact_vote_sign(self.c, a == on_off[0], self.beta)
        return (1 if sgn >= 0 else -1), d

    def penalise(self, wrong: np.ndarray) -> None:
        """``w_i ← β w_i`` for the experts marked ``wrong``."""
        self.c += wrong
        self.w *= np.where(wrong, self.beta, 1.0)
        self.since += 1
        self.phi_s = float(self.wt.sum())
        if self.beta > 0.0 and self.phi_s < 2.0 ** -500:
            self.rebuild()

    def rebuild(self) -> None:
        self.base = int(self.c.min())
        self.w[:] = np.power(self.beta, (self.c - self.base).astype(np.float64))
        self.since = 0
        self.phi_s = float(self.wt.sum())


class ExpertWeights:
    """History of multiplicative expert weights ``w_i = β^{c_i}`` stored as integer exponents.

    ``raw_at(t)`` gives the natural logs (``c·ln β``; for β = 0: 0 where c = 0,
    −inf elsewhere), which is what a ``weight_kind="log"`` trace expects;
    ``counts_at(t)`` gives the exponents themselves.
    """

    def __init__(self, counts_history, beta: float):
        self.counts_history = counts_history
        self.beta = float(beta)
        self.log_beta = math.log(beta) if beta > 0 else -math.inf

    def counts_at(self, t: int) -> np.ndarray:
        return np.asarray(self.counts_history.raw_at(t)).astype(np.int64)

    def raw_at(self, t: int) -> np.ndarray:
        c = self.counts_at(t)
        if self.beta > 0.0:
            return c * self.log_beta + 0.0  # + 0.0: no -0.0
        return np.where(c == 0, 0.0, -np.inf)

    @property
    def nbytes(self) -> int:
        return int(self.counts_history.nbytes)


def counts_history(A: np.ndarray, yv: np.ndarray, update_rows: np.ndarray | None, checkpoints: list,
                   every: int, T: int, snapshots=None, change_rounds=None):
    """A history of the exponents: snapshots after each change, or checkpoints replayed from the advice.

    ``update_rows``: a (T,) bool array, True where the learner penalised (None: every round).
    """
    N = A.shape[1]
    if snapshots is not None:
        return SnapshotHistory(np.zeros(N, dtype=np.int32), change_rounds, snapshots)

    def advance(state: np.ndarray, t0: int, t1: int) -> np.ndarray:
        state = state.astype(np.int64)
        if update_rows is None:
            rows = None if t1 <= t0 else np.arange(t0, t1)
        else:
            rows = t0 + np.flatnonzero(update_rows[t0:t1])
        if rows is not None and len(rows):
            state += (A[rows] != yv[rows, None]).sum(axis=0)
        return state.astype(np.int32)

    return CheckpointHistory(checkpoints, every, advance, T)


def checkpoint_every(T: int, N: int) -> int:
    return int(max(16, -(-T * N * 4 // HISTORY_BUDGET)))


# ---------------------------------------------------------------------------- the run
def run_weighted_majority(A: np.ndarray, y: np.ndarray, enc: tuple[float, float], beta: float,
                          every_round: bool) -> dict[str, Any]:
    """The learner's loop (one pass, O(N) numpy work per round) and every per-round quantity the proof reads."""
    T, N = A.shape
    yv = label_values(y, enc, A.dtype)
    st = WeightState(N, beta)
    pred = np.empty(T, dtype=np.int8)
    vote = np.empty(T)
    is_mis = np.zeros(T, dtype=bool)
    log_phi = np.empty(T + 1)
    m_star = np.zeros(T + 1, dtype=np.int64)      # min_i m_{t,i}
    slack = np.zeros(T + 1, dtype=np.int64)       # min_i (m_{t,i} − p_{t,i})
    min_p = np.zeros(T + 1, dtype=np.int64)       # min_i p_{t,i}
    log_phi[0] = st.log_phi()
    m = None if every_round else np.zeros(N, dtype=np.int32)   # expert mistakes (= c when every_round)
    g = None if every_round else np.zeros(N, dtype=np.int32)   # m − c
    every = checkpoint_every(T, N)
    checkpoints: list[np.ndarray] = []
    snap_ok = not every_round
    snaps = Grow((N,), np.int32) if snap_ok else None
    max_snaps = max(1, HISTORY_BUDGET // (4 * N))
    snaps_box = [snap_ok, snaps]
    # far-behind experts' scaled float weights may underflow: harmless (the vote's error bound covers it,
    # and the exact integer exponents never underflow)
    with np.errstate(under="ignore"):
        _wm_loop(A, y, yv, enc, st, every_round, every, checkpoints, pred, vote, is_mis, log_phi, m_star,
                 slack, min_p, m, g, snaps_box, max_snaps)
    snap_ok, snaps = snaps_box
    mistakes = np.flatnonzero(is_mis).astype(np.int64)
    m_final = st.c.astype(np.int64) if every_round else m.astype(np.int64)
    if snap_ok:
        hist = counts_history(A, yv, None, [], every, T, snapshots=snaps.array().copy(), change_rounds=mistakes)
    else:
        hist = counts_history(A, yv, None if every_round else is_mis, checkpoints, every, T)
    return dict(yv=yv, pred=pred, vote=vote, is_mis=is_mis, mistakes=mistakes, log_phi=log_phi,
                m_star=m_star, slack=slack, min_p=min_p, m_final=m_final, history=hist)


def _wm_loop(A, y, yv, enc, st, every_round, every, checkpoints, pred, vote, is_mis, log_phi, m_star, slack,
             min_p, m, g, snaps_box, max_snaps):
    T = A.shape[0]
    snap_ok, snaps = snaps_box
    for t in range(T):
        if t % every == 0:
            checkpoints.append(st.c.copy())
        a = A[t]
        yhat, d = st.predict(a, enc)
        pred[t] = yhat
        vote[t] = d / st.phi_s if st.phi_s > 0 else 0.0
        mis = yhat != y[t]
        is_mis[t] = mis
        wrong = a != yv[t]
        if every_round:
            st.penalise(wrong)
            m_star[t + 1] = st.c.min()
            min_p[t + 1] = m_star[t + 1]
        else:
            m += wrong
            if mis:
                st.penalise(wrong)
                min_p[t + 1] = st.c.min()
                if snap_ok:
                    if snaps.n < max_snaps:
                        snaps.append(st.c)
                    else:
                        snap_ok, snaps = False, None
            else:
                g += wrong
                min_p[t + 1] = min_p[t]
            m_star[t + 1] = m.min()
            slack[t + 1] = g.min()
        log_phi[t + 1] = st.log_phi()
    snaps_box[:] = [snap_ok, snaps]


def best_expert_series(A: np.ndarray, yv: np.ndarray, m_final: np.ndarray, update_rows: np.ndarray | None):
    """i* = argmin_i m_{T,i} (smallest index on ties), and its m_{t,i*}, p_{t,i*} for t = 0 … T."""
    i_star = int(np.argmin(m_final))
    col = A[:, i_star] != yv
    m_col = np.concatenate([[0], np.cumsum(col)]).astype(np.int64)
    p_col = m_col if update_rows is None else np.concatenate([[0], np.cumsum(col & update_rows)]).astype(np.int64)
    return i_star, m_col, p_col


def run(X, y, params: dict[str, Any]) -> Trace:
    A, enc = advice_matrix(X, NAME)
    T, N = A.shape
    y = as_labels(y, "pm1", T, NAME)
    beta = resolve_beta(params, NAME)
    every_round = params["update"] == "every_round"
    r = run_weighted_majority(A, y, enc, beta, every_round)
    i_star, m_col, p_col = best_expert_series(A, r["yv"], r["m_final"], None if every_round else r["is_mis"])
    mistakes = r["mistakes"]
    vote = r["vote"]
    args = dict(T=T, N=N, beta=beta, update=params["update"], mistakes=mistakes, log_phi=r["log_phi"],
                m_star=r["m_star"], slack=r["slack"], min_p=r["min_p"], i_star=i_star, m_best=m_col,
                p_best=p_col)
    cache: dict[str, Any] = {}

    def both():
        if "p" not in cache:
            cache["p"] = proofs.weighted_majority_proofs(**args)
        return cache["p"]

    info = {"beta": beta, "eta": 1.0 - beta, "update": params["update"], "n_experts": N,
            "advice_encoding": "pm1" if enc[1] == -1 else "01", "best_expert": i_star,
            "expert_mistakes": r["m_final"], "tie_rule": "ties (W⁺ = W⁻, exact) predict +1"}
    wrong_frac = lambda: (1.0 - y * vote) / 2.0  # noqa: E731  weight fraction of wrong experts, per round
    return Trace(algorithm=NAME, params=params, T=T, d=N, mistakes=mistakes, predictions=r["pred"],
                 history=ExpertWeights(r["history"], beta), weight_kind="log",
                 columns={"vote": vote, "wrong_fraction": wrong_frac},
                 proofs={"beta_form": lambda: both()["beta_form"], "eta_form": lambda: both()["eta_form"]},
                 primary="beta_form", info=info)
