"""Comparators the proofs use when the caller gives none, each with a certificate.

* :func:`max_margin` — the maximum-margin unit separator through the origin
  (Perceptron family), by Wolfe's minimum-norm-point algorithm on the points
  ``z_t = y_t x_t``: the max-margin direction is the point of their convex hull
  nearest the origin, and its distance is the max margin. The result carries a
  certified interval ``margin ≤ γ_opt ≤ upper``: ``margin`` is measured for the
  vector returned, and no unit vector has margin above ``upper`` (a convex
  combination of the ``z_t`` of norm ``upper``). When the hull contains the origin
  (``upper`` ≈ 0) the data are not linearly separable through the origin, and
  ``support`` lists rounds that no linear separator classifies all correctly
  with a margin above ``upper``.
* :func:`soft_margin_direction` — a unit direction for non-separable data (an
  L2-regularised squared-hinge fit); any unit vector gives a valid TD_γ bound, a
  good one gives a small bound.
* :func:`consistent_disjunction` — a small monotone disjunction consistent with
  0/1 data (greedy set cover), for Winnow.
* :func:`simplex_margin` — a non-negative ``u`` with ``Σu = 1`` and a large
  margin ``min_t y_t⟨u, x_t⟩`` (the value of a matrix game, solved by
  multiplicative weights with a duality-gap certificate), for the exponentiated
  update.

>>> import numpy as np
>>> X = np.array([[1.0, 0.2], [0.8, -0.3], [-1.0, 0.1]]); y = np.array([1, 1, -1])
>>> r = max_margin(X, y)
>>> r.separable, round(r.margin, 4), r.gap < 1e-12
(True, 0.8544, True)
>>> r.w.round(4).tolist()
[0.9363, -0.3511]
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

__all__ = ["euclid", "unit", "MaxMargin", "max_margin", "soft_margin_direction", "consistent_disjunction", "Disjunction",
           "simplex_margin", "SimplexMargin"]


@dataclass(frozen=True)
class MaxMargin:
    separable: bool
    w: np.ndarray | None
    margin: float          # min_t y_t <w, x_t> for the w returned (-inf when none)
    upper: float           # no unit vector has a larger margin than this
    support: np.ndarray    # rounds in Wolfe's final corral
    iterations: int
    converged: bool
    method: str = ("Wolfe's minimum-norm-point algorithm on z_t = y_t x_t "
                   "(homogeneous separator, no bias); certified gap = upper - margin")
    proved_inseparable: bool = False  # the origin is in the hull of the z_t over ``support`` (up to rounding)

    @property
    def gap(self) -> float:
        return self.upper - self.margin if self.separable else float("nan")


def euclid(v: np.ndarray) -> float:
    """‖v‖ without underflow or overflow of the squares (scaled by max |v_i| first).

    >>> euclid(np.array([3e-170, 4e-170]))
    5e-170
    """
    v = np.asarray(v, dtype=np.float64)
    s = float(np.max(np.abs(v))) if v.size else 0.0
    if s == 0.0 or not np.isfinite(s):
        return s
    u = v / s
    return s * float(np.sqrt(u @ u))


def unit(v: np.ndarray) -> np.ndarray:
    """v / ‖v‖, computed so that tiny or huge v still give a unit vector (v ≠ 0)."""
    v = np.asarray(v, dtype=np.float64)
    u = v / float(np.max(np.abs(v)))
    return u / float(np.sqrt(u @ u))


def _affine_minimizer(ZS: np.ndarray) -> np.ndarray:
    """Weights α (Σα = 1) of the point of the affine hull of the rows of ZS nearest 0."""
    k = ZS.shape[0]
    if k == 1:
        return np.ones(1)
    B = ZS[1:] - ZS[0]
    beta, *_ = np.linalg.lstsq(B.T, -ZS[0], rcond=None)
    return np.concatenate([[1.0 - beta.sum()], beta])


def max_margin(X: np.ndarray, y: np.ndarray, *, tol: float = 1e-13, max_iter: int | None = None) -> MaxMargin:
    """Maximum-margin unit separator through the origin (see module docstring)."""
    X = np.asarray(X, dtype=np.float64)
    y = np.asarray(y, dtype=np.float64)
    T, d = X.shape
    norms2 = np.einsum("ij,ij->i", X, X)
    Rz2 = float(norms2.max())
    empty = np.zeros(0, dtype=np.int64)
    if Rz2 == 0.0:  # every x_t = 0: nothing separates
        return MaxMargin(False, None, -np.inf, 0.0, np.array([0], dtype=np.int64), 0, True,
                         proved_inseparable=True)
    zero_tol = 1e-10 * np.sqrt(Rz2)
    if max_iter is None:
        max_iter = 100 * (d + 1) + 1000

    def Z(idx):
        return y[idx, None] * X[idx]

    j0 = int(np.argmin(norms2))
    S = np.array([j0], dtype=np.int64)
    lam = np.ones(1)
    p = Z(S)[0]
    converged = False
    it = 0
    for it in range(1, max_iter + 1):
        pp = float(p @ p)
        if pp <= zero_tol ** 2:
            converged = True
            break
        g = y * (X @ p)
        j = int(np.argmin(g))
        if pp - g[j] <= tol * Rz2:
            converged = True
            break
        if j in S:  # no progress possible in floating point
            converged = pp - g[j] <= 1e-9 * Rz2
            break
        S = np.append(S, j)
        lam = np.append(lam, 0.0)
        for _ in range(len(S) + 1):  # minor cycles
            alpha = _affine_minimizer(Z(S))
            pos = alpha > 1e-14
            if pos.all():
                lam = alpha
                break
            neg = ~pos
            denom = lam[neg] - alpha[neg]
            with np.errstate(divide="ignore", invalid="ignore"):
                ratios = np.where(denom > 0, lam[neg] / denom, 0.0)
            theta = float(np.clip(ratios.min(), 0.0, 1.0))
            lam = (1 - theta) * lam + theta * alpha
            keep = lam > 1e-14
            keep[np.flatnonzero(neg)[np.argmin(ratios)]] = False  # the point that hit zero leaves
            if not keep.any():
                keep[np.argmax(lam)] = True
            S, lam = S[keep], lam[keep]
            lam = np.clip(lam, 0.0, None)
            lam /= lam.sum()
        p = lam @ Z(S)
    upper = euclid(p)
    if upper <= zero_tol:
        return MaxMargin(False, None, -np.inf, upper, np.sort(S), it, converged, proved_inseparable=True)
    w = unit(p)
    margin = float(np.min(y * (X @ w)))
    if margin <= 0.0:
        return MaxMargin(False, None, -np.inf, upper, np.sort(S), it, False)
    return MaxMargin(True, w, margin, max(upper, margin), empty, it, converged)


def soft_margin_direction(X: np.ndarray, y: np.ndarray, *, lam: float = 1e-3, iterations: int | None = None
                          ) -> np.ndarray:
    """A unit vector fitting non-separable data well: minimiser of
    ``lam/2 ‖u‖² + mean_t max(0, 1 − y_t⟨u, x_t⟩/R)²`` by accelerated gradient descent.

    Any unit vector is a valid comparator for the TD_γ bound; this one makes it small.
    """
    X = np.asarray(X, dtype=np.float64)
    y = np.asarray(y, dtype=np.float64)
    T, d = X.shape
    R = float(np.sqrt(np.einsum("ij,ij->i", X, X).max())) or 1.0
    if iterations is None:
        iterations = int(np.clip(3e8 / max(1, T * d), 30, 400))
    L = lam + 2.0  # Lipschitz constant of the gradient on data scaled to radius 1
    u = np.zeros(d)
    v = u.copy()
    tk = 1.0
    for _ in range(iterations):
        m = y * (X @ v) / R
        r = np.maximum(0.0, 1.0 - m)
        grad = lam * v - (2.0 / T) * (X.T @ (r * y)) / R
        u_new = v - grad / L
        t_new = (1 + np.sqrt(1 + 4 * tk * tk)) / 2
        v = u_new + ((tk - 1) / t_new) * (u_new - u)
        u, tk = u_new, t_new
    n = float(np.linalg.norm(u))
    if n == 0.0 or not np.isfinite(n):
        s = (y[:, None] * X).sum(axis=0)
        n = float(np.linalg.norm(s))
        if n == 0.0:
            e = np.zeros(d)
            e[0] = 1.0
            return e
        return s / n
    return u / n


@dataclass(frozen=True)
class Disjunction:
    consistent: bool
    relevant: np.ndarray            # variable indices (empty when inconsistent)
    failing_rounds: np.ndarray      # positive rounds no consistent disjunction covers
    method: str = ("greedy set cover over the variables never on in a negative example "
                   "(a consistent monotone disjunction; small, not always the smallest)")


def consistent_disjunction(X: np.ndarray, y: np.ndarray) -> Disjunction:
    """A small monotone disjunction consistent with 0/1 examples, or the rounds that rule one out."""
    X = np.asarray(X) != 0
    y = np.asarray(y) != 0
    allowed = ~X[~y].any(axis=0) if (~y).any() else np.ones(X.shape[1], dtype=bool)
    pos = np.flatnonzero(y)
    covered_possible = X[pos][:, allowed].any(axis=1) if allowed.any() else np.zeros(len(pos), dtype=bool)
    if not covered_possible.all():
        return Disjunction(False, np.zeros(0, dtype=np.int64), pos[~covered_possible].astype(np.int64))
    cand = np.flatnonzero(allowed)
    P = X[pos][:, cand]
    uncovered = np.ones(len(pos), dtype=bool)
    chosen: list[int] = []
    while uncovered.any():
        counts = P[uncovered].sum(axis=0)
        j = int(np.argmax(counts))
        chosen.append(int(cand[j]))
        uncovered &= ~P[:, j]
    if not chosen and len(cand):  # no positives: any allowed variable is consistent
        chosen.append(int(cand[0]))
    return Disjunction(True, np.array(sorted(chosen), dtype=np.int64), np.zeros(0, dtype=np.int64))


@dataclass(frozen=True)
class SimplexMargin:
    u: np.ndarray
    margin: float        # min_t y_t <u, x_t> for the u returned
    upper: float         # no u in the simplex does better
    iterations: int
    method: str = ("multiplicative weights on the matrix game max_u min_t y_t<u, x_t> "
                   "(averaged strategies; certified gap = upper - margin)")


def simplex_margin(X: np.ndarray, y: np.ndarray, *, iterations: int = 3000, tol: float = 1e-4) -> SimplexMargin:
    """Approximately the best margin ``max_{u ≥ 0, Σu = 1} min_t y_t⟨u, x_t⟩`` (entries of X in [-1, 1])."""
    X = np.asarray(X, dtype=np.float64)
    y = np.asarray(y, dtype=np.float64)
    T, N = X.shape
    eta_u = np.sqrt(8 * np.log(max(N, 2)) / iterations)
    eta_p = np.sqrt(8 * np.log(max(T, 2)) / iterations)
    lu = np.zeros(N)  # log weights of the column (u) player: maximises
    lp = np.zeros(T)  # log weights of the row (round) player: minimises
    su = np.zeros(N)
    sp = np.zeros(T)
    best_u, best_lo, best_hi = np.full(N, 1.0 / N), -np.inf, np.inf
    it = 0
    for it in range(1, iterations + 1):
        u = np.exp(lu - lu.max()); u /= u.sum()
        p = np.exp(lp - lp.max()); p /= p.sum()
        su += u
        sp += p
        lu += eta_u * (X.T @ (y * p))
        lp -= eta_p * (y * (X @ u))
        if it % 100 == 0 or it == iterations:
            ua = su / it
            pa = sp / it
            lo = float(np.min(y * (X @ ua)))
            hi = float(np.max(X.T @ (y * pa)))
            if lo > best_lo:
                best_u, best_lo = ua.copy(), lo
            best_hi = min(best_hi, hi)
            if best_hi - best_lo <= tol:
                break
    return SimplexMargin(best_u, best_lo, best_hi, it)

