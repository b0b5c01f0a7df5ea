"""The maximum-margin separator through the origin, with certificates (see :mod:`olc_core.comparators`).

Wolfe's minimum-norm-point algorithm runs on a small *working set* of the points
``z_t = y_t x_t``: a sample spread over the stream first, then the points that violate the optimality
condition ``⟨z_t, p⟩ ≥ ‖p‖² − tol·R²`` of the current point p, found in one vectorised
pass over all T rounds (compiled with numba when it is available). The margin is set by
the few points nearest the boundary, so two or three passes usually certify the answer.

Three verdicts, never more than the arithmetic proves:

* ``separable`` — the returned unit w has measured margin above :func:`resolution` (the
  rounding error of a float dot product here), so it really separates the data; the
  interval ``margin ≤ γ_opt ≤ upper`` holds (``upper = ‖p‖`` for a convex combination p
  of the z_t).
* ``inseparable`` — an exact rational certificate (:mod:`olc_core._exact.hull`): weights
  λ ≥ 0, Σλ = 1, with Σ λ_t z_t = 0 exactly over ``support`` (Gordan's theorem).
* ``unresolved`` — neither: the search stopped (``reason="iterations"``) or the best
  margin is below what floating point resolves here (``reason="resolution"``).
"""
from __future__ import annotations

import math
from dataclasses import dataclass, replace
from fractions import Fraction

import numpy as np

from .._exact.hull import LazyCertificate, certificate_for, is_certificate, verified_square
from .._kernels.margin_scan import Scanner

__all__ = ["MaxMargin", "max_margin", "euclid", "unit", "resolution", "search_steps", "drive"]

#: Below this many rounds the search runs on all of them (no working set, no compiled pass).
SMALL = 4096
#: Size of the first working set (a sample spread over the stream) and most violators added per pass.
SAMPLE, ADD = 8192, 1024
#: The sample is taken in runs of this many consecutive rounds.
RUN = 64
#: Up to this dimension the working set after the first full pass is the corral and the violators only.
LOW_D = 3
EPS = float(np.finfo(np.float64).eps)

METHOD = ("Wolfe's minimum-norm-point algorithm on z_t = y_t x_t (homogeneous separator, no bias) on a working "
          "set certified against every round; certified gap = upper - margin; inseparability only with an exact "
          "rational certificate (0 a convex combination of the z_t on the rounds listed)")


@dataclass(frozen=True)
class MaxMargin:
    separable: bool
    w: np.ndarray | None
    margin: float          # min_t y_t <w, x_t> for the w returned, exactly as rowdot computes it (-inf: none)
    upper: float           # no unit vector has a larger margin than this
    support: np.ndarray    # rounds of the certificate (inseparable) or of the final corral (unresolved)
    iterations: int
    converged: bool
    method: str = METHOD
    proved_inseparable: bool = False  # exact: 0 = Σ λ_t y_t x_t over ``support``, λ ≥ 0, Σλ = 1
    reason: str = ""                  # unresolved: "iterations" or "resolution"
    resolution: float = 0.0           # margins at most this are not resolved by float arithmetic here
    certificate: tuple = ()           # the exact weights λ (fractions.Fraction) over ``support``

    @property
    def gap(self) -> float:
        return self.upper - self.margin if self.separable else float("nan")

    @property
    def status(self) -> str:
        """"separable", "inseparable" (exact certificate) or "unresolved"."""
        return "separable" if self.separable else "inseparable" if self.proved_inseparable else "unresolved"


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


def resolution(d: int, R: float) -> float:
    """A bound on the rounding error of a computed margin ``y⟨w, x⟩`` (‖w‖ = 1, ‖x‖ ≤ R, d terms):
    a measured margin above it is positive in exact arithmetic too."""
    return 2.0 * (d + 2) * EPS * R


def _affine_minimizer(ZS: np.ndarray) -> np.ndarray:
    """Weights α (Σα = 1) of the point of the affine hull of the rows of ZS nearest 0."""
    k = ZS.shape[0]
    if k == 1:
        return np.ones(1)
    B = ZS[1:] - ZS[0]
    if k == 2:  # the segment: β = −⟨b, z₀⟩/‖b‖² (the normal equations in one dimension)
        bb = float(B[0] @ B[0])
        if bb > 0.0 and math.isfinite(bb):
            beta = -float(B[0] @ ZS[0]) / bb
            if math.isfinite(beta):
                return np.array([1.0 - beta, beta])
    elif k == 3:  # the same Cholesky test and solve as below, in scalars (a 2×2 system)
        beta = _solve2(B, ZS[0])
        if beta is not None:
            return np.array([1.0 - beta[0] - beta[1], beta[0], beta[1]])
    # the normal equations (BBᵀ)β = −B z₀ by Cholesky when B's rows are well apart from dependent
    # (hundreds of times faster than an SVD for a corral of a hundred points); else least squares
    G = B @ B.T
    try:
        L = np.linalg.cholesky(G)
        dg = np.diag(L)
        if dg.min() > 1e-6 * dg.max():
            beta = np.linalg.solve(L.T, np.linalg.solve(L, -(B @ ZS[0])))
            if np.isfinite(beta).all():
                return np.concatenate([[1.0 - beta.sum()], beta])
    except np.linalg.LinAlgError:
        pass
    beta, *_ = np.linalg.lstsq(B.T, -ZS[0], rcond=None)
    return np.concatenate([[1.0 - beta.sum()], beta])


def _solve2(B: np.ndarray, z0: np.ndarray):
    """β with (BBᵀ)β = −B z₀ for the two rows of B, by a 2×2 Cholesky factorisation, or None when its
    pivots are not well apart from dependent (as :func:`_affine_minimizer` asks) or not finite."""
    b0, b1 = B[0], B[1]
    a, b, c = float(b0 @ b0), float(b0 @ b1), float(b1 @ b1)
    r0, r1 = -float(b0 @ z0), -float(b1 @ z0)
    if not (a > 0.0 and math.isfinite(a) and math.isfinite(c)):
        return None
    l11 = math.sqrt(a)
    l21 = b / l11
    q = c - l21 * l21
    if not q > 0.0:
        return None
    l22 = math.sqrt(q)
    if not min(l11, l22) > 1e-6 * max(l11, l22):
        return None
    u0 = r0 / l11
    u1 = (r1 - l21 * u0) / l22
    x1 = u1 / l22
    x0 = (u0 - l21 * x1) / l11
    return (x0, x1) if math.isfinite(x0) and math.isfinite(x1) else None


def _minor_cycles(Z, S, lam):
    """Wolfe's minor cycles: move to the affine minimiser of the corral, dropping points that leave."""
    for _ in range(len(S) + 1):
        alpha = _affine_minimizer(Z[S])
        pos = alpha > 1e-14
        if pos.all():
            return S, alpha
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
    return S, lam


@dataclass
class _Wolfe:
    p: np.ndarray
    S: np.ndarray          # local indices of the corral
    lam: np.ndarray
    it: int
    converged: bool
    cert: tuple | None


def _wolfe(Z: np.ndarray, Rz2: float, tol: float, max_iter: int, S=None, lam=None) -> _Wolfe:
    """Wolfe's algorithm on the rows of Z (warm-started from corral S with weights lam).

    Once ‖p‖ is at the float floor the search no longer stops on the tolerance: it keeps adding
    points until an exact certificate that 0 is in the hull is found, or no point improves p.
    """
    m, d = Z.shape
    R = math.sqrt(Rz2)
    zero_tol = 1e-10 * R
    floor = 64.0 * (d + 2) * EPS * R   # 0 is in the corral's affine hull up to rounding
    if S is None:
        S = np.array([int(np.argmin(np.einsum("ij,ij->i", Z, Z)))], dtype=np.int64)
        lam = np.ones(1)
    if d == 2 and len(S) <= 2:  # the plane: corrals of one or two points, the minor cycles in closed form
        done, S, lam, it2 = _wolfe_plane(Z, Rz2, tol, max_iter, S, lam)
        if done is not None:
            return done
        max_iter = max(1, max_iter - it2)  # near 0: the general steps, which look for a certificate
    p = lam @ Z[S]
    tried: set = set()

    def attempt():
        key = tuple(sorted(S.tolist()))
        if key in tried:
            return None
        tried.add(key)
        return certificate_for(Z[S])

    converged, it = False, 0
    for it in range(1, max_iter + 1):
        np_ = euclid(p)
        if np_ <= zero_tol and (len(S) == d + 1 or np_ <= floor):
            cert = attempt()
            if cert is not None:
                return _Wolfe(p, S, lam, it, True, cert)
        pp = float(p @ p)
        g = Z @ p
        j = int(np.argmin(g))
        if (pp - g[j] <= tol * Rz2 and np_ > zero_tol) or g[j] >= pp:
            converged = True
            break
        if j in S:  # no progress possible in floating point
            converged = pp - g[j] <= 1e-9 * Rz2
            break
        S, lam = _minor_cycles(Z, np.append(S, j), np.append(lam, 0.0))
        p = lam @ Z[S]
    cert = attempt() if euclid(p) <= zero_tol else None
    return _Wolfe(p, S, lam, it, converged or cert is not None, cert)


def _nearest_on_segment(a0, a1, b0, b1):
    """The point of the segment [a, b] nearest 0, as ``(t, x0, x1)`` with the point ``a + t(b − a)``."""
    e0, e1 = b0 - a0, b1 - a1
    ee = e0 * e0 + e1 * e1
    t = 0.0 if not ee > 0.0 else min(1.0, max(0.0, -(a0 * e0 + a1 * e1) / ee))
    return t, a0 + t * e0, a1 + t * e1


def _wolfe_plane(Z, Rz2, tol, max_iter, S, lam):
    """Wolfe's algorithm in the plane while 0 is not near: the corral is a point or a segment, and adding the
    most violating point z_j makes a segment or a triangle whose nearest point to 0 (on its boundary when 0
    is outside it) is found in closed form — what the minor cycles compute, without a linear solve. Returns
    ``(result, S, lam, iterations)``; result None when p comes near 0 or the triangle may hold 0 (the caller
    continues with the general steps from S, lam, which look for an exact certificate)."""
    zero_tol = 1e-10 * math.sqrt(Rz2)
    S, lam = [int(i) for i in S], [float(v) for v in lam]
    p = np.asarray(lam) @ Z[S]
    converged, it = False, 0
    for it in range(1, max_iter + 1):
        if euclid(p) <= zero_tol:
            return None, np.array(S, np.int64), np.array(lam), it - 1
        pp = float(p @ p)
        g = Z @ p
        j = int(np.argmin(g))
        if pp - g[j] <= tol * Rz2 or g[j] >= pp:
            converged = True
            break
        if j in S:  # no progress possible in floating point
            converged = pp - g[j] <= 1e-9 * Rz2
            break
        pts = S + [j]
        P = [(float(Z[i, 0]), float(Z[i, 1])) for i in pts]
        if len(pts) == 3:
            c = [P[a][0] * P[b][1] - P[a][1] * P[b][0] for a, b in ((0, 1), (1, 2), (2, 0))]
            if min(c) >= 0.0 or max(c) <= 0.0:  # 0 in the triangle (or on it, or too close to tell)
                return None, np.array(S, np.int64), np.array(lam), it - 1
        best = None
        for a, b in ((0, 1), (1, 2), (0, 2)) if len(pts) == 3 else ((0, 1),):
            t, x0, x1 = _nearest_on_segment(*P[a], *P[b])
            n2 = x0 * x0 + x1 * x1
            if best is None or n2 < best[0]:
                best = (n2, a, b, t, x0, x1)
        _, a, b, t, x0, x1 = best
        S, lam = [pts[a], pts[b]], [1.0 - t, t]
        if lam[1] <= 1e-14 or lam[0] <= 1e-14:  # an end point: the corral is one point
            S, lam = ([pts[b]], [1.0]) if lam[0] <= 1e-14 else ([pts[a]], [1.0])
        p = np.array([x0, x1]) if len(S) == 2 else Z[S[0]].copy()
    Sa, la = np.array(S, np.int64), np.array(lam)
    return _Wolfe(p, Sa, la, it, converged, None), Sa, la, it


class _Rescale(Exception):
    """‖x‖² leaves the normal float range: the search reruns on data scaled by a power of two."""


def _normal(r2: float) -> bool:
    return 1e-280 < r2 < 1e280


def max_margin(X: np.ndarray, y: np.ndarray, *, tol: float = 1e-13, max_iter: int | None = None,
               threads: int = 2) -> MaxMargin:
    """Maximum-margin unit separator through the origin (see the module docstring).
    ``threads``: at most this many for a pass over the data (1 when the caller is busy on the other)."""
    X = np.ascontiguousarray(X, dtype=np.float64)
    y = np.ascontiguousarray(y, dtype=np.float64)
    if max_iter is None:
        max_iter = 100 * (X.shape[1] + 1) + 1000
    try:
        return _search(X, y, tol, max_iter, threads=threads)
    except _Rescale:
        pass
    amax = float(np.max(np.abs(X))) if X.size else 0.0
    if amax == 0.0:  # every x_t = 0: x_0 = 0 is the certificate (margin 0 for every w)
        return MaxMargin(False, None, -np.inf, 0.0, np.array([0], np.int64), 0, True, proved_inseparable=True,
                         certificate=(Fraction(1),))
    e = math.frexp(amax)[1]
    r = _search(np.ldexp(X, -e), y, tol, max_iter, rescaled=True, threads=threads)  # exact unless entries fall below 2^-1074
    f = math.ldexp(1.0, e)
    if r.proved_inseparable:
        Z = y[r.support, None] * X[r.support]
        if isinstance(r.certificate, LazyCertificate) and verified_square(Z) is not None:
            return replace(r, certificate=LazyCertificate(Z))
        if not isinstance(r.certificate, LazyCertificate) and is_certificate(Z, r.certificate):
            return r
        return MaxMargin(False, None, -np.inf, 0.0, r.support, r.iterations, r.converged, reason="resolution",
                         resolution=r.resolution * f)
    return replace(r, margin=r.margin * f, upper=r.upper * f, resolution=r.resolution * f)


def _search(X, y, tol, max_iter, rescaled=False, threads=2) -> MaxMargin:
    scan = Scanner(X, y, threads)
    return drive(_steps(X, y, tol, max_iter, rescaled, scan), scan)


def drive(steps, scan: Scanner, w=None) -> MaxMargin:
    """Run the search's steps to their verdict, making each full pass they ask for (``w``: the pass
    the steps asked for last, already made by the caller, e.g. fused into the Perceptron's loop)."""
    try:
        if w is None:
            w = next(steps)
            scan.full(w)
        while True:
            w = steps.send(None)
            scan.full(w)
    except StopIteration as stop:
        return stop.value


def search_steps(X: np.ndarray, y: np.ndarray, *, tol: float = 1e-13, max_iter: int | None = None):
    """The search of :func:`max_margin` as steps, for a caller that makes the first full pass itself:
    ``(steps, scan)``; ``next(steps)`` runs Wolfe on the working set and yields the direction w of the
    full pass it needs (``scan.set_full(w, block minima, max‖x‖²)``, then :func:`drive` with w), or stops
    with the verdict. The same decisions, hence the same result, as :func:`max_margin` on data of normal
    scale; raises ``_Rescale`` otherwise (the caller then calls :func:`max_margin`)."""
    X = np.ascontiguousarray(X, dtype=np.float64)
    y = np.ascontiguousarray(y, dtype=np.float64)
    if max_iter is None:
        max_iter = 100 * (X.shape[1] + 1) + 1000
    scan = Scanner(X, y, 2)
    return _steps(X, y, tol, max_iter, False, scan), scan


def _steps(X, y, tol, max_iter, rescaled, scan):
    """The search (a generator): yields each direction w whose full pass it needs (the caller makes it:
    ``scan.full(w)`` or a fused pass), returns the verdict."""
    T, d = X.shape
    cand = _sample(T)
    S = lam = None
    its = 0
    dropped = False
    while True:
        Zc = y[cand, None] * X[cand]
        R2c = scan.r2 if scan.r2 is not None else float(np.einsum("ij,ij->i", Zc, Zc).max())
        if not _normal(R2c) and not rescaled:
            raise _Rescale
        res = _wolfe(Zc, R2c, tol, max(1, max_iter - its), S, lam)
        its += res.it
        rounds = cand[res.S]
        if res.cert is not None:
            order = np.argsort(rounds)
            cert = (res.cert.permuted(order) if isinstance(res.cert, LazyCertificate)
                    else tuple(res.cert[i] for i in order))
            return MaxMargin(False, None, -np.inf, 0.0, rounds[order], its, True, proved_inseparable=True,
                             certificate=cert)
        upper = euclid(res.p)
        w = unit(res.p) if upper > 0.0 else None
        if w is None:  # p = 0 in floats without a certificate: nothing separates that floats resolve
            yield np.zeros(d)  # a full pass for max ‖x‖²
            if not _normal(scan.r2) and not rescaled:
                raise _Rescale
            return _verdict(None, -np.inf, upper, rounds, its, res.converged, d, scan.r2)
        # a point with ⟨z, w⟩ < thr violates Wolfe's optimality condition (at the float floor: any
        # point below ‖p‖, as the search itself uses there)
        blocks = scan.risky(w, _threshold(upper, tol, scan.r2)) if scan.ref is not None else None
        if blocks is None:  # a full pass, the new reference for the bounds
            yield w
            if not _normal(scan.r2) and not rescaled:
                raise _Rescale
        thr = _threshold(upper, tol, scan.r2)
        if blocks is None:
            blocks = scan.below(thr)
        gmin, jmin, viol = scan.exact(w, thr, blocks, ADD)
        if not len(viol):  # certified: no other block can hold a round below thr; the exact minimum
            gmin, jmin = scan.exact_min(w, gmin, jmin, blocks)
            return _verdict(w, gmin, upper, rounds, its, True, d, scan.r2)
        # in low dimension the corral and the violators carry the solution: the rest of the sample is dropped
        # once (later the working set only grows, so the search ends)
        base = np.sort(rounds) if d <= LOW_D and not dropped else cand
        dropped = True
        new = _merged(base, np.append(viol, jmin) if jmin >= 0 else viol)
        if len(new) == len(base) or its >= max_iter:
            return _verdict(w, gmin, upper, rounds, its, len(cand) == T and res.converged, d, scan.r2)
        S, lam = np.searchsorted(new, rounds), res.lam
        cand = new


def _sample(T: int) -> np.ndarray:
    """The first working set: every round, or SAMPLE rounds spread over the stream in RUN runs of
    consecutive rounds (a few memory pages each, not one page per round), strictly increasing."""
    if T <= max(SMALL, SAMPLE):
        return np.arange(T)
    k = SAMPLE // RUN
    if T < SAMPLE + RUN * k:  # the runs would overlap: single rounds, evenly strided (T − 1 ≥ SAMPLE − 1)
        return np.arange(SAMPLE, dtype=np.int64) * (T - 1) // (SAMPLE - 1)
    starts = np.arange(k, dtype=np.int64) * (T - RUN) // (k - 1)
    return (starts[:, None] + np.arange(RUN, dtype=np.int64)[None, :]).ravel()


def _threshold(upper: float, tol: float, r2: float) -> float:
    """Wolfe's optimality threshold for ⟨z_t, w⟩ (w = p/‖p‖, upper = ‖p‖): ‖p‖ − tol·R²/‖p‖, or ‖p‖
    itself at the float floor."""
    return upper - tol * r2 / upper if upper > 1e-10 * math.sqrt(r2) else upper


def _merged(cand: np.ndarray, more: np.ndarray) -> np.ndarray:
    """The sorted union of the sorted rounds ``cand`` and the rounds ``more`` (a sort of the few new ones
    and one merge: no hashing of the whole working set)."""
    if len(cand) <= 4096:  # small: one sort of both
        return np.unique(np.concatenate([cand, np.asarray(more, dtype=cand.dtype)]))
    more = np.unique(more)
    more = more[~np.isin(more, cand, assume_unique=True, kind="sort")] if len(more) else more
    if not len(more):
        return cand
    out = np.concatenate([cand, more])
    out.sort(kind="mergesort")
    return out


def _verdict(w, margin, upper, rounds, its, converged, d, Rz2) -> MaxMargin:
    res = resolution(d, math.sqrt(Rz2))
    if w is not None and margin > res:
        return MaxMargin(True, w, margin, max(upper, margin), np.zeros(0, np.int64), its, converged,
                         resolution=res)
    reason = "iterations" if not converged and upper > 1e-10 * math.sqrt(Rz2) else "resolution"
    return MaxMargin(False, None, -np.inf, upper, np.sort(rounds), its, converged, reason=reason, resolution=res)
