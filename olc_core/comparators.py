"""Comparators the proofs use when the caller gives none, each with a certificate.

* :func:`max_margin` — the maximum-margin unit separator through the origin
  (Perceptron family), by Wolfe's minimum-norm-point algorithm on the points
  ``z_t = y_t x_t`` (on a working set, certified against every round: see
  :mod:`olc_core._comparators.max_margin`): the max-margin direction is the point of their convex
  hull nearest the origin, and its distance is the max margin. The result carries a
  certified interval ``margin ≤ γ_opt ≤ upper``: ``margin`` is measured for the
  vector returned, and no unit vector has margin above ``upper`` (a convex
  combination of the ``z_t`` of norm ``upper``). Its ``status`` is "separable",
  "inseparable" — only with an exact rational certificate that the hull contains
  the origin (``support`` lists the rounds, ``certificate`` the weights) — or
  "unresolved" (the search stopped, or the best margin is below what floating
  point resolves): :func:`separability_text` says which in words.
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
>>> r2 = max_margin(np.array([[1.0, 1e-11], [-1.0, 1e-11]]), np.array([1, 1]))
>>> r2.status, r2.w.tolist(), r2.margin          # separable, by a margin of 1e-11
('separable', [0.0, 1.0], 1e-11)
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ._comparators.max_margin import MaxMargin, _affine_minimizer, euclid, max_margin, resolution, unit  # noqa: F401
from ._support.words import count

__all__ = ["euclid", "unit", "MaxMargin", "max_margin", "resolution", "separability_text", "soft_margin_direction", "consistent_disjunction", "Disjunction",
           "simplex_margin", "SimplexMargin"]


def separability_text(mm: MaxMargin, data: str = "the data") -> str:
    """What a failed search for a separator proved, in words (empty for a separable result)."""
    n = count(len(mm.support), "round")
    if mm.separable:
        return ""
    if mm.proved_inseparable:
        return (f"{data} are not linearly separable through the origin: on the {n} listed, an exact rational "
                "check finds a convex combination of the yₜxₜ equal to 0, so every unit vector has margin "
                "at most 0 there and these rounds alone rule out a separator")
    if mm.reason == "iterations":
        return (f"no separator through the origin was found within {mm.iterations} iterations: every unit vector "
                f"has a margin of at most {mm.upper:.2g}, too small to certify; whether {data} are separable "
                "was not decided, and the theorem is not applied")
    return (f"the best margin of {data} is below what floating point resolves here: no unit vector has a margin "
            f"above {mm.upper:.2g}, no vector found has a measured margin above the rounding error "
            f"{mm.resolution:.2g}, and no exact certificate of inseparability was found — so {data} are neither "
            "shown separable nor shown inseparable, and the theorem is not applied")


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


#: cells of X read at once by :func:`consistent_disjunction` (a block of rows, never a T × N copy)
_DJ_BLOCK_CELLS = 1 << 22


def consistent_disjunction(X: np.ndarray, y: np.ndarray) -> Disjunction:
    """A small monotone disjunction consistent with 0/1 examples, or the rounds that rule one out.

    X is read a block of rows at a time (a T = N = 10⁴ matrix's ``X != 0`` alone was 100 MB); only
    the positive rows' candidate columns are gathered for the greedy cover."""
    X = np.asarray(X)
    y = np.asarray(y) != 0
    T, N = X.shape
    step = max(1, _DJ_BLOCK_CELLS // max(N, 1))
    on_in_negative = np.zeros(N, dtype=bool)
    for a in range(0, T, step):
        neg = ~y[a:a + step]
        if neg.any():
            on_in_negative |= (X[a:a + step][neg] != 0).any(axis=0)
    allowed = ~on_in_negative
    pos = np.flatnonzero(y)
    cand = np.flatnonzero(allowed)
    P = np.empty((len(pos), cand.size), dtype=bool)  # the positive rows on the candidate variables
    pstep = max(1, _DJ_BLOCK_CELLS // max(cand.size, 1))
    for a in range(0, len(pos), pstep):
        P[a:a + pstep] = X[np.ix_(pos[a:a + pstep], cand)] != 0
    covered_possible = P.any(axis=1)
    if not covered_possible.all():
        return Disjunction(False, np.zeros(0, dtype=np.int64), pos[~covered_possible].astype(np.int64))
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

