r"""Normalised Winnow — the exponentiated update [003] §2.2.

``x ∈ [−1, 1]^N`` (‖x‖∞ ≤ 1; an entry outside raises ``ValueError`` naming the
round), ``y ∈ {−1, +1}``. ``w_1 = (1/N, …, 1/N)``; predict ``sign(⟨w, x⟩)``; round
t is a mistake iff ``y_t⟨w_t, x_t⟩ ≤ 0`` (``⟨w, x⟩ = 0`` is a mistake for either
label, as the proof needs; ``predictions`` records 0 there). On a mistake
``w_i ← w_i e^{η y_t x_{t,i}} / Z_t`` with ``Z_t = Σ_i w_i e^{η y_t x_{t,i}}``;
otherwise nothing (conservative).

**Log space.** The state is the vector of log weights, renormalised with
log-sum-exp after every update (trace ``weight_kind="log"``), so neither
``e^{ηΣ}`` overflowing nor tiny weights underflowing can happen. The sign of
``⟨w, x⟩ = P − Q`` (positive part ``P = Σ_{x_i>0} w_i x_i``, negative part
``Q = Σ_{x_i<0} w_i |x_i|``) is computed from the weights shifted by their
largest log weight; rows whose two parts both fall below 2⁻⁹⁰⁰ of the largest
weight are recomputed from per-row log-sum-exps of ``ln w_i + ln|x_i|``.

**Exact decisions (ties).** ``⟨w, x⟩ = 0`` is decided as exact arithmetic decides it, not by
rounding. The weights are ``w_i ∝ e^{η r_i}`` with the exact counts ``r_i = Σ_{mistakes} y_s x_{s,i}``
(integers while mistake rows are in {−1, 0, 1}; with ±1 features and η = ½ ln 2 — the default for
δ = 1/3 — sums like ``2√2 − 4/√2`` are exactly 0 and frequent). Every float score comes with a
rigorous bound on its error (rounding of the log weights accumulated over the mistakes, of the
shift, exp and the dot products); a round whose score is within that bound of 0 is decided exactly
by :func:`olc_core._exact.exp_sums.exact_sign`, and listed in ``columns["exact_decision"]``. What η is:
a float within 8 ulps of ``½ ln(a/b)`` (b ≤ 1000; e.g. ``artanh(1/3) = ½ ln 2``, ``artanh 0.6 = ln 2``)
is read as exactly that number, any other float as itself (a rational); ``info["eta_read_as"]``
says which. Guarantee: for that η the sign, the tie (recorded as score 0.0, prediction 0) and the
mistake flag of every round are exactly those of the algorithm in exact arithmetic (the zero test
is exact by Lindemann–Weierstrass / Capelli; a nonzero sign is certified with ``decimal`` and an
error bound), assuming IEEE float64 and numpy's exp within 2 ulps. The stored log weights are the
float ones (they feed the proof, whose checks carry their own tolerance).

**Learning rate.** ``eta`` when given; otherwise ``½ ln((1+δ)/(1−δ)) = artanh δ``
(the optimum of [003]) with δ the ``delta`` parameter or, when absent, the
measured margin ``min_t y_t⟨u, x_t⟩`` of the comparator u (δ is capped at
1 − 10⁻⁶ for this purpose; artanh 1 = ∞). When no positive margin exists (the
theorem does not apply) and neither is given, η = ½ (``info["eta_source"]``).

**Comparator.** The caller's ``comparator`` (non-negative, rescaled to sum 1),
or :func:`olc_core.comparators.simplex_margin`, which returns a certified
interval for the best margin over the simplex (replaced by the best single
feature ``e_j`` when that vertex has a larger margin, e.g. when one feature always
agrees with y).

Hand-worked example, ``N = 2``, ``u = (0.8, 0.2)`` (margin δ = 0.6, so
``η = artanh 0.6 = ln 2``, ``cosh η = 5/4``):

* round 0: ``x = (1, −1)``, y = +1: ``⟨w, x⟩ = ½ − ½ = 0`` → mistake;
  ``Z = ½·2 + ½·½ = 5/4`` and ``w = (1, ¼)/(5/4) = (0.8, 0.2) = u``: Φ drops from
  ``KL(u‖½,½) = 0.8 ln 1.6 + 0.2 ln 0.4 = 0.19274 = C`` to 0 (every link is tight);
* rounds 1–3: ``⟨w, x⟩ = 1, −0.7, −0.6``: all correct.

>>> import numpy as np, olc_core
>>> X = np.array([[1.0, -1.0], [1.0, 1.0], [-1.0, 0.5], [-1.0, 1.0]]); y = np.array([1, 1, -1, -1])
>>> tr = olc_core.run("normalized_winnow", X, y, comparator=[0.8, 0.2])
>>> tr.mistakes.tolist(), tr.predictions.tolist(), tr.weights_at(4).round(12).tolist()
([0], [0, 1, -1, -1], [0.8, 0.2])
>>> p = tr.proof
>>> round(p.constants["eta"], 9), round(p.constants["C"], 6), round(p.mistake_bound, 4), p.violations()
(0.693147181, 0.192745, 3.5962, [])
"""
from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import numpy as np

from .._exact.exp_sums import EtaSpec, exact_sign, exact_value
from .._kernels.winnow import (SCAN_END, SCAN_NEAR, SCAN_OUTSIDE, SCAN_SMALL, first_row_outside_unit_box, rowdot, rowdot_in_box,
                             scan_rows, signed_parts, use_compiled)
from .._support.numeric import Grow, logsumexp
from .._support.validate import as_labels, as_matrix, as_vector, first_bad
from ..comparators import simplex_margin
from ..proofs import normalized_winnow as proofs
from ..proofs.base import Assumption
from ..trace import SnapshotHistory, Trace
from .._support.words import agree, count

__all__ = ["run", "normalized_winnow_loop", "resolve_simplex", "check_unit_box", "weight_moves", "WeightMoves"]

NAME = "normalized_winnow"

_MAX_CELLS = 1 << 21
_CHUNK = 1 << 16
_SMALL = 2.0 ** -900
_U = 2.0 ** -53
#: η when no δ is known (the theorem does not apply then; any η > 0 runs the algorithm)
FALLBACK_ETA = 0.5


def check_unit_box(X: np.ndarray, algorithm: str = NAME) -> None:
    """Every entry of X lies in [−1, 1] (‖x_t‖∞ ≤ 1): one pass without temporaries
    (:func:`olc_core._kernels.winnow.first_row_outside_unit_box`); the message names the first entry outside."""
    t0 = first_row_outside_unit_box(X)
    if t0 < 0:
        return
    for a in range(t0, X.shape[0], _CHUNK):
        blk = X[a:a + _CHUNK]
        bad = np.abs(blk) > 1.0
        if bad.any():
            t = first_bad(bad)
            j = int(np.flatnonzero(bad[t])[0])
            raise ValueError(f"{algorithm}: every entry of X must be in [-1, 1] (‖x_t‖∞ ≤ 1); found "
                             f"{blk[t, j]:g} at round {a + t + 1}, feature {j + 1}")


def _raise_outside(X: np.ndarray) -> None:
    """Raise the error of the input checks for an X with an entry outside [−1, 1] (NaN or ±inf named first)."""
    as_matrix(X, NAME)
    check_unit_box(X)
    raise AssertionError("unreachable: X has an entry outside [-1, 1]")


def _lse_rows(G: np.ndarray) -> np.ndarray:
    """Row-wise log Σ exp, -inf for rows that are all -inf."""
    m = G.max(axis=1)
    safe = np.where(np.isfinite(m), m, 0.0)
    with np.errstate(under="ignore", divide="ignore"):
        return np.log(np.exp(G - safe[:, None]).sum(axis=1)) + safe


def _signs(Xb: np.ndarray, lw: np.ndarray, drift: float, compiled: bool | None = None):
    """sign(⟨w, x⟩) ∈ {−1, 0, 1}, ⟨w, x⟩, and ``near`` (True where floats cannot vouch for the sign) for
    a block of rows (weights given by their logs; ``drift`` bounds the error of the log-weight
    differences ``lw_i − lw_j`` against the exact ``η(r_i − r_j)``).

    Bound for the shifted sum: ``z_i = exp(lw_i − m)`` is within relative ``E = expm1(drift + u·(R + 4))``
    of the exact ratio (R = max_i |lw_i − m|; subtraction ½ulp, exp ≤ 2 ulp: generous), the sequential
    dot products add ``γ_N Σ|x_i| z_i``, ``P − Q`` ½ulp, subnormal terms ``N·2⁻¹⁰⁷⁴`` absolute; twice the
    sum of these is the bound. Rows in the log-sum-exp path get the analogous bound on ``lP − lQ``.
    """
    N = lw.shape[0]
    m = float(lw.max())
    with np.errstate(under="ignore"):
        z = np.exp(lw - m)
    P, Q = signed_parts(Xb, z, compiled)   # rowdot(max(±Xb, 0), z), in one pass
    sgn = np.sign(P - Q).astype(np.int8)
    score = math.exp(m) * (P - Q)
    R = m - float(lw.min())
    E = math.expm1(drift + _U * (R + 4.0))
    near = np.abs(P - Q) <= 2.0 * ((P + Q) * (E + (N + 2) * _U) * (1.0 + E) + N * 2.0 ** -1070)
    small = np.flatnonzero((P < _SMALL) & (Q < _SMALL))
    if small.size:  # both parts lost in the shift: per-row log-sum-exp of ln w_i + ln|x_i|
        Xs = Xb[small]
        with np.errstate(divide="ignore"):
            G = np.log(np.abs(Xs)) + lw
        lP = _lse_rows(np.where(Xs > 0, G, -np.inf))
        lQ = _lse_rows(np.where(Xs < 0, G, -np.inf))
        both_empty = np.isneginf(lP) & np.isneginf(lQ)
        with np.errstate(invalid="ignore"):
            s = np.where(both_empty, 0, np.sign(lP - lQ))
            big = np.maximum(np.maximum(np.abs(lP), np.abs(lQ)), np.abs(lw).max())
            tol = 2.0 * (drift + _U * (N + 16.0) + 8.0 * _U * np.where(np.isfinite(big), big, 0.0))
            near[small] = ~both_empty & ~(np.abs(lP - lQ) > tol)
        sgn[small] = s.astype(np.int8)
        with np.errstate(under="ignore"):
            score[small] = np.exp(lP) - np.exp(lQ)
    return sgn, score, near


class ExactExponents:
    """The exact exponent counts ``r_i = Σ_{mistakes s} y_s x_{s,i}`` (``w_i ∝ e^{η r_i}``): int64 while
    every mistake row lies in {−1, 0, 1}, then Python Fractions (brought up to date only when asked)."""

    def __init__(self, X: np.ndarray, y: np.ndarray):
        self.X, self.y = X, y
        self.k = np.zeros(X.shape[1], dtype=np.int64)
        self.frac: list[Fraction] | None = None
        self.pending: list[int] = []

    def add(self, i: int) -> None:
        row = self.X[i]
        if self.frac is None and not self.pending and np.all((row == 0.0) | (np.abs(row) == 1.0)):
            self.k += int(self.y[i]) * row.astype(np.int64)
        else:
            self.pending.append(i)

    def relative_to(self, j: int) -> list:
        """``r_i − r_j`` for every i (ints or Fractions)."""
        if not self.pending and self.frac is None:
            return (self.k - self.k[j]).tolist()
        if self.frac is None:
            self.frac = [Fraction(v) for v in self.k.tolist()]
        for i in self.pending:
            yi = int(self.y[i])
            self.frac = [a + yi * Fraction(b) for a, b in zip(self.frac, self.X[i].tolist())]
        self.pending = []
        rj = self.frac[j]
        return [a - rj for a in self.frac]


def _decide_exactly(x: np.ndarray, lw: np.ndarray, ex: ExactExponents, spec: EtaSpec, fsgn: int,
                    fscore: float) -> tuple[int, float]:
    """The exact sign of ⟨w, x⟩ and the score to record (0.0 on a tie; the float one when its sign is right)."""
    j = int(np.argmax(lw))
    r = ex.relative_to(j)
    xs = x.tolist()
    s, digits = exact_sign(xs, r, spec)
    if s == 0:
        return 0, 0.0
    if s == fsgn:
        return s, fscore
    v = math.exp(float(lw[j])) * exact_value(xs, r, spec, digits)
    return s, (v if v != 0.0 and (v > 0) == (s > 0) else math.copysign(5e-324, s))


class _State:
    """What the scan needs from the weights (fixed between mistakes): ``z = e^{lw − m}``, ``e^m`` and the
    constants of :func:`_signs`'s near-tie bound, computed as there."""

    def __init__(self, lw: np.ndarray, drift: float):
        N = lw.shape[0]
        self.m = m = float(lw.max())
        with np.errstate(under="ignore"):
            self.z = np.exp(lw - m)
        self.escale = math.exp(m)
        E = math.expm1(drift + _U * (m - float(lw.min()) + 4.0))
        self.a1, self.a2, self.c3 = E + (N + 2) * _U, 1.0 + E, N * 2.0 ** -1070

    def lse(self) -> float:
        """``logsumexp(lw)`` from z and m, the same bits (the same operations on the same arrays)."""
        return float((np.log(self.z.sum(keepdims=True)) + self.m)[0])


def _round_at(X, y, r: int, code: int, lw, drift, st: _State, ex, spec, score, pred, exact) -> bool:
    """Settle round r where the scan stopped (a tiny-parts row by :func:`_signs`, a near tie exactly);
    True when it is a mistake."""
    if code == SCAN_SMALL:
        sgn, sc, near = _signs(X[r:r + 1], lw, drift, False)
        s, f, is_near = int(sgn[0]), float(sc[0]), bool(near[0])
    else:
        s, f, is_near = int(pred[r]), float(score[r]), code == SCAN_NEAR
    if is_near:
        s, f = _decide_exactly(X[r], lw, ex, spec, s, f)
        exact.append(r)
    score[r], pred[r] = f, s
    return y[r] * s <= 0


def normalized_winnow_loop(X: np.ndarray, y: np.ndarray, eta: float):
    """The run: ``(score, predictions, mistakes, log-weight snapshots, ln Z per mistake, exact rounds)``.

    Between mistakes :func:`olc_core._kernels.winnow.scan_rows` runs the rounds the floats decide; a
    round whose float score is within its error bound of 0 is decided by :func:`_decide_exactly`
    (``exact rounds``), in order."""
    T, N = X.shape
    X = np.ascontiguousarray(X)
    yf = np.ascontiguousarray(y, dtype=np.float64)
    spec = EtaSpec(eta)
    ex = ExactExponents(X, y)
    lw = np.full(N, -math.log(N))
    drift = 0.0
    score = np.empty(T)
    pred = np.empty(T, dtype=np.int8)
    mis, exact = Grow((), np.int64), Grow((), np.int64)
    snaps = Grow((N,), np.float64)
    logz = Grow((), np.float64)
    cap = max(64, _MAX_CELLS // N)
    compiled = use_compiled(X)  # decided once for the whole X
    st = _State(lw, drift)
    t, B = 0, 64
    with np.errstate(under="ignore"):
        while t < T:
            r, code = scan_rows(X, yf, st.z, t, st.escale, st.a1, st.a2, st.c3, score, pred, compiled, B)
            if code == SCAN_END:
                break
            if code == SCAN_OUTSIDE:    # X's box check was left to the scan (run): the same errors as before
                _raise_outside(X)
            if not _round_at(X, y, r, code, lw, drift, st, ex, spec, score, pred, exact):
                t = r + 1
                continue
            step = (eta * y[r]) * X[r]
            v = lw + step
            lz = logsumexp(v)
            logz.append(lz - st.lse())  # ln Z_t, with Σ w_t = 1 up to rounding
            lw = v - lz
            xm = float(np.abs(X[r]).max())
            drift += 2.0 * (_U * float(np.abs(step).max()) + spec.err * xm + _U * float(np.abs(v).max())
                            + _U * float(np.abs(lw).max()))
            ex.add(r)
            mis.append(r)
            snaps.append(lw)
            st = _State(lw, drift)
            B = int(min(cap, max(16, 2 * (r - t) + 16)))
            t = r + 1
    return score, pred, mis.array(), snaps.array(), logz.array(), exact.array(), spec


def _given_simplex(comparator, N: int) -> np.ndarray:
    """The caller's comparator rescaled to Σu = 1 (``ValueError`` when it is not a valid one)."""
    u = as_vector(comparator, N, NAME, "comparator")
    if (u < 0).any():
        raise ValueError(f"{NAME}: comparator must be non-negative (u_i ≥ 0); found {u[u < 0][0]:g} at "
                         f"index {int(np.flatnonzero(u < 0)[0])}")
    if float(u.sum()) <= 0.0:
        raise ValueError(f"{NAME}: comparator must have a positive sum (it is rescaled to Σu = 1)")
    return u / float(u.sum())


def resolve_simplex(X: np.ndarray, y: np.ndarray, comparator) -> tuple[np.ndarray, dict[str, Any]]:
    """The comparator u on the simplex, and how it was found."""
    N = X.shape[1]
    if comparator is not None:
        u = _given_simplex(comparator, N)
        s = float(as_vector(comparator, N, NAME, "comparator").sum())
        return u, {"comparator_source": "given", "comparator": u, "comparator_rescaled_from_sum": s}
    sm = simplex_margin(X, y)
    info = {"comparator_source": "simplex margin", "comparator": sm.u, "comparator_method": sm.method,
            "simplex_margin": sm.margin, "simplex_margin_upper": sm.upper, "simplex_margin_iterations": sm.iterations}
    # the game's averaged strategy only approaches a vertex optimum (one feature that always agrees
    # with y); the N vertices are checked exactly in one pass and kept when better
    vm = np.full(N, np.inf)
    for a in range(0, X.shape[0], _CHUNK):
        vm = np.minimum(vm, (y[a:a + _CHUNK, None] * X[a:a + _CHUNK]).min(axis=0))
    j = int(np.argmax(vm))
    if vm[j] > sm.margin:
        u = np.zeros(N)
        u[j] = 1.0
        info.update(comparator_source="best single feature (a vertex of the simplex)", comparator=u,
                    vertex=j, vertex_margin=float(vm[j]))
        return u, info
    return sm.u, info


def _margin_assumption(cmargin: np.ndarray, delta_param: float | None, N: int, cinfo: dict[str, Any]
                       ) -> tuple[float | None, Assumption, dict[str, Any]]:
    """δ for the proof, and the margin assumption with the rounds where it fails."""
    measured = float(cmargin.min())
    statement = (r"y_t\langle u, x_t\rangle \ge \delta > 0 \text{ for every round } t"
                 r"\quad (u \ge 0,\ \textstyle\sum_i u_i = 1)")
    info: dict[str, Any] = {"delta_measured": measured, "delta_param": delta_param}
    if delta_param is not None:
        tol = 1e-9 * delta_param + 4.0 * N * 2.0 ** -53  # rounding of ⟨u, x⟩
        bad = np.flatnonzero(cmargin < delta_param - tol)
        delta = min(delta_param, measured) if bad.size == 0 else delta_param
        if bad.size == 0 and delta <= 0.0:
            bad = np.flatnonzero(cmargin <= 0.0)
        ok = bad.size == 0
        detail = (f"δ = {delta:.6g} (given {delta_param:.6g}); the smallest y⟨u,x⟩ is {measured:.6g}" if ok else
                  f"{count(bad.size, 'round')} {agree(bad.size, 'has', 'have')} margin y⟨u,x⟩ below δ = {delta_param:.6g} "
                  f"(the smallest is {measured:.6g}, at round {int(np.argmin(cmargin)) + 1})")
        return delta, Assumption("margin", statement, ok, bad.astype(np.int64), detail), info
    bad = np.flatnonzero(cmargin <= 0.0)
    ok = measured > 0.0
    if ok:
        detail = f"δ = {measured:.6g}, the smallest y⟨u,x⟩ over the rounds"
    else:
        detail = (f"u puts {count(bad.size, 'round')} on the wrong side or on the hyperplane (y⟨u,x⟩ ≤ 0; "
                  f"the smallest margin is {measured:.6g})")
        if cinfo.get("comparator_source") == "simplex margin":
            up = cinfo["simplex_margin_upper"]
            detail += (f"; no u in the simplex has a margin above {up:.6g} (proved by a weighting of the rounds: the minimax value of the margin game)"
                       if up <= 0 else f"; the best margin over the simplex is at most {up:.6g}")
    return (measured if ok else None), Assumption("margin", statement, ok, bad.astype(np.int64), detail), info


def _support_dots(X: np.ndarray, u: np.ndarray) -> np.ndarray:
    """``rowdot(X, u)`` bit for bit when X is finite, reading only u's support: the terms ``x·0 = ±0`` leave
    a sequential sum that started at +0.0 unchanged (it is never −0)."""
    out = np.zeros(X.shape[0])
    for j in np.flatnonzero(u).tolist():
        out += X[:, j] * u[j]
    return out


def _checked_dots(X: np.ndarray, comparator) -> tuple[bool | None, np.ndarray | None]:
    """Whether every entry of X is in [−1, 1] (so X is finite too), and ``rowdot(X, u)`` for a valid given
    comparator u (None otherwise): one pass over X for both. An invalid comparator is reported later, in
    its place among the checks. With a sparse u (at most a quarter of the features) the dots are
    :func:`_support_dots`; with the kernels X is not read here then: the box check is left to the run's
    scan, which checks each row before it uses it (``None`` for inside)."""
    u = None
    if comparator is not None:
        try:
            u = _given_simplex(comparator, X.shape[1])
        except ValueError:
            u = None
    if u is None:
        return first_row_outside_unit_box(X) < 0, None
    if 4 * int(np.count_nonzero(u)) <= X.shape[1]:
        if use_compiled(X):
            return None, _support_dots(X, u)
        inside = first_row_outside_unit_box(X) < 0       # the numpy twin: a pass of min/max, then u's support
        return inside, (_support_dots(X, u) if inside else None)
    dots, bad = rowdot_in_box(X, u)
    return bad < 0, dots


def _labels(X: np.ndarray, y, inside: bool | None) -> np.ndarray:
    """y checked; when the box check of X was left to the scan, a bad X is still reported before bad labels
    when the checks report it first (a NaN or an infinity)."""
    try:
        return as_labels(y, "pm1", X.shape[0], NAME)
    except ValueError:
        if inside is None and first_row_outside_unit_box(X) >= 0:
            as_matrix(X, NAME)
        raise


def run(X, y, params: dict[str, Any]) -> Trace:
    X = as_matrix(X, NAME, check_finite=False)
    inside, dots = _checked_dots(X, params["comparator"])
    if inside is False:
        X = as_matrix(X, NAME)  # a NaN or an infinity raises here, with the shared message
    T, N = X.shape
    y = _labels(X, y, inside)
    if inside is False:
        check_unit_box(X)
    u, cinfo = resolve_simplex(X, y, params["comparator"])
    cmargin = y * (dots if dots is not None else rowdot(X, u))
    delta, assumption, dinfo = _margin_assumption(cmargin, params["delta"], N, cinfo)
    eta = params["eta"]
    if eta is not None:
        eta_source, optimal = "given", False
    else:
        d_for_eta = params["delta"] if params["delta"] is not None else delta
        if d_for_eta is not None and d_for_eta > 0:
            eta = proofs.eta_optimal(d_for_eta)
            eta_source = "artanh(δ), the optimum of [003]" + (" (δ capped at 1 − 1e-6)"
                                                              if d_for_eta > proofs.DELTA_CAP else "")
            optimal = True
        else:
            eta, eta_source, optimal = FALLBACK_ETA, "fallback (no positive margin to tune η to)", False
    eta = float(eta)
    score, pred, mistakes, S, logz, exact_rounds, spec = normalized_winnow_loop(X, y, eta)
    info = dict(cinfo, **dinfo, eta=eta, eta_source=eta_source, eta_read_as=spec.text,
                exact_decisions=int(exact_rounds.size))
    proof = proofs.normalized_winnow_proof(
        T=T, N=N, eta=eta, delta=delta, u=u, cmargin=cmargin, mistakes=mistakes, log_weights=S, log_Z=logz,
        margin_assumption=assumption, eta_is_optimal=optimal,
        constants=dict(cinfo, eta_source=eta_source, delta_measured=dinfo["delta_measured"],
                       delta_param=params["delta"]))
    def exact_col():
        flag = np.zeros(T, dtype=bool)
        flag[exact_rounds] = True
        return flag

    columns: dict[str, Any] = {"score": score, "comparator_margin": cmargin, "exact_decision": exact_col}
    return Trace(algorithm=NAME, params=params, T=T, d=N, mistakes=mistakes, predictions=pred,
                 history=SnapshotHistory(np.full(N, -math.log(N)), mistakes, S), weight_kind="log",
                 columns=columns, proofs={"kl": proof}, primary="kl", info=info)


class WeightMoves:
    """How each weight moved at the update of round ``t`` (a mistake): ``moves[i]`` is +1 (wᵢ grew), 0 (unchanged)
    or −1 (shrank); ``theta`` = ``ln Z_t / η`` — ``wᵢ`` grows iff ``y_t x_{t,i} > θ`` (``wᵢ ← wᵢ e^{η y xᵢ}/Z``);
    ``theta_sign`` its exact sign (``theta`` is the float; ``None`` when its sign is not the exact one)."""

    __slots__ = ("t", "moves", "theta", "theta_sign", "exact")

    def __init__(self, t: int, moves: np.ndarray, theta: float | None, theta_sign: int, exact: bool):
        self.t, self.moves, self.theta, self.theta_sign, self.exact = t, moves, theta, theta_sign, exact


def _grows_exactly(v: Fraction, r: list, yx: list, spec: EtaSpec) -> int:
    """Sign of ``e^{η v}·Σ_j e^{η r_j} − Σ_j e^{η(r_j + y x_j)}`` (= sign of ``η v − ln Z``), exactly."""
    N = len(r)
    return exact_sign([1.0] * N + [-1.0] * N, [rj + v for rj in r] + [rj + a for rj, a in zip(r, yx)], spec)[0]


def weight_moves(trace: Trace, X, y, upto: int | None = None) -> list[WeightMoves]:
    """Per mistake round ``t < upto`` of a normalised-Winnow run on ``(X, y)``: how each weight moved
    (:class:`WeightMoves`), as the trace's log weights say (``log_weights_at(t)`` against ``t + 1``), each
    comparison within its rounding error of a tie decided in exact arithmetic (the exact exponents
    ``r_i = Σ_{mistakes s < t} y_s x_{s,i}``, η as the run read it, :func:`exact_sign`).

    The error bound of ``lw_{t+1,i} − lw_{t,i}`` is the run's own (its ``drift``, accumulated the same way over the
    updates, on both states) plus the rounding of the normalisations and the subtraction, taken 4× over.

    >>> import olc_core
    >>> X = np.array([[1.0, -1.0], [0.0, 0.0]]); y = np.array([1, 1])
    >>> tr = olc_core.run("normalized_winnow", X, y, comparator=[0.8, 0.2])
    >>> [(m.t, m.moves.tolist(), m.theta_sign) for m in weight_moves(tr, X, y)]   # x = 0: Z = 1, nothing moves
    [(0, [1, -1], 1), (1, [0, 0], 0)]
    """
    X = np.asarray(X, dtype=np.float64)
    y = np.asarray(y, dtype=np.float64)
    eta = float(trace.info["eta"])
    spec = EtaSpec(eta)
    ex = ExactExponents(X, y)
    N = X.shape[1]
    out: list[WeightMoves] = []
    drift = 0.0
    for t in np.asarray(trace.mistakes, dtype=np.int64).tolist():
        if upto is not None and t >= upto:
            break
        a, b = trace.log_weights_at(t), trace.log_weights_at(t + 1)
        step = (eta * y[t]) * X[t]
        v = a + step
        before = drift
        drift += 2.0 * (_U * float(np.abs(step).max()) + spec.err * float(np.abs(X[t]).max())
                        + _U * float(np.abs(v).max()) + _U * float(np.abs(b).max()))
        tol = 4.0 * (before + drift + 2.0 * spec.err + _U * (float(np.abs(a).max()) + float(np.abs(b).max())
                                                           + float(np.abs(step).max()) + 4.0 * (N + 4)))
        d = b - a
        moves = np.sign(d).astype(np.int8)
        yx = y[t] * X[t]
        lnz = float(logsumexp(v) - logsumexp(a))
        near = np.flatnonzero(np.abs(d) <= tol)
        sign_lnz = int(np.sign(lnz))
        exact = bool(near.size) or abs(lnz) <= tol
        if exact:
            r = ex.relative_to(int(np.argmax(a)))
            exs = [int(y[t]) * Fraction(c) for c in X[t].tolist()]
            for val in np.unique(yx[near]).tolist():
                moves[yx == val] = _grows_exactly(Fraction(val), r, exs, spec)
            if abs(lnz) <= tol:
                sign_lnz = -_grows_exactly(Fraction(0), r, exs, spec)
        ex.add(t)
        theta = 0.0 if sign_lnz == 0 else (lnz / eta if int(np.sign(lnz)) == sign_lnz else None)
        out.append(WeightMoves(t, moves, theta, sign_lnz, exact))
    return out
