"""The Perceptron's proofs, read off a finished run.

* :func:`separable_proof` — proof A, the norm potential [000, 004]:
  ``Mγ ≤ ⟨w*, w⟩ ≤ ‖w‖ ≤ √M·R``, and proof B, the cosine potential [003]:
  ``√M·γ/R ≤ cos∠(w, w*) ≤ 1``; both give ``M ≤ R²/γ²`` when every round has
  ``y_t⟨w*, x_t⟩ ≥ γ > 0``.
* :func:`nonseparable_proof` — [004]: ``γM − TD_γ ≤ ⟨w*, w⟩ ≤ ‖w‖ ≤ √M·R`` for any
  unit w* and γ > 0, so ``M ≤ R²/γ² + (2/γ)·TD_γ`` (the notes' form has R = 1;
  solving the quadratic exactly gives the tighter ``bound_quadratic``).
* :func:`hinge_proof` — [002]: for ``u = w*/γ``, ``M − L(u) ≤ ⟨u, w⟩ ≤ ‖u‖‖w‖ ≤
  ‖u‖R√M``, so ``M ≤ L(u) + a√L(u) + a²`` with ``a = ‖u‖R``.
* :func:`best_gamma` — the γ in (0, R] that makes the TD_γ bound smallest for a run.

In the separable proofs the states are the weight vectors between mistakes: state k
(k mistakes so far) is in force before rounds ``mistakes[k-1]+1 … mistakes[k]``. The
TD_γ and hinge proofs are checked before every round (state t = 0 … T), because their
lower bound falls on correct rounds inside the margin band too.

>>> import numpy as np
>>> g, b = best_gamma(np.array([0.5, 0.5, -0.1]), 1.0)
>>> round(g, 4), round(b, 4)
(1.0, 5.2)
"""
from __future__ import annotations

import math
import sys
from fractions import Fraction
from typing import Any, Callable

import numpy as np

from .._kernels import checks
from .._kernels.engine import resolve_engine
from .base import DEFAULT_TOL, Assumption, Chain, Proof
from .._support.words import agree, count

__all__ = ["separable_proof", "nonseparable_proof", "hinge_proof", "best_gamma", "td_bound", "td_bounds",
           "hinge_bound"]

LABELS = {
    "M_gamma": r"M\gamma",
    "inner": r"\langle w^*, w\rangle",
    "norm": r"\lVert w\rVert",
    "sqrtM_R": r"\sqrt{M}\,R",
    "cos_lower": r"\sqrt{M}\,\gamma/R",
    "cosine": r"\cos\angle(w, w^*)",
    "one": "1",
    "td_lower": r"\gamma M - \mathrm{TD}_\gamma\ \text{(over the rounds so far)}",
    "hinge_lower": r"M - L(u)\ \text{(over the rounds so far)}",
    "inner_u": r"\langle u, w\rangle",
    "norm_u": r"\lVert u\rVert\,\lVert w\rVert",
    "upper_u": r"\lVert u\rVert R\sqrt{M}",
}


#: Margins y⟨w*, x⟩ are sums of terms of size ≤ R: a margin short of γ by less than
#: ASSUMPTION_TOL·R is rounding (e.g. a point planted at exactly γ), not a failed assumption.
ASSUMPTION_TOL = 1e-12


#: From this many states on, the compiled pass checks the links (fewer: numpy on the series).
FUSED_CHECK_MIN_STATES = 4096


#: R²/γ² (and the TD_γ and hinge bounds) above this is not a float: the proofs then say so
#: instead of claiming an infinite bound.
FLOAT_MAX = sys.float_info.max


def sq_ratio(a: float, b: float) -> float:
    """``a²/b²`` for a, b > 0, the same number at every scale of the data: both are first divided by
    the power of two nearest the larger (exact), so the squares neither underflow nor overflow when
    a and b are both tiny or both huge; ``a*a/(b*b)`` otherwise, the form of the notes (inf only when
    the ratio itself is beyond the float range).

    >>> sq_ratio(5.0, 3.0) == sq_ratio(5e-170, 3e-170) == sq_ratio(5 * 2.0**-1000, 3 * 2.0**-1000) == 25 / 9
    True
    """
    e = math.frexp(max(a, b))[1]
    a, b = math.ldexp(a, -e), math.ldexp(b, -e)
    bb = b * b
    if bb >= sys.float_info.min:
        return a * a / bb
    q = a / b          # b tiny next to a: the ratio first (inf when it is beyond the float range)
    return q * q


def range_assumption(bound: float, gamma: float, radius: float, what: str) -> Assumption:
    """The proof's bound must be a float: for γ tiny next to R it is not (R²/γ² > 1.8e308)."""
    ok = bool(math.isfinite(bound))
    return Assumption("float range", r"(R/\gamma)^2 < 1.8\cdot 10^{308}", ok, np.zeros(0, np.int64),
                      "" if ok else (f"γ = {gamma:.3g} is too small next to R = {radius:.3g}: {what} would exceed "
                                     f"the largest float ({FLOAT_MAX:.3g}), so no bound is stated (it needs "
                                     f"γ/R above about 1e-154)"))


def _scale(x: float) -> float:
    """Size of the terms a chain's series are summed from (sets the check's tolerance)."""
    return x if math.isfinite(x) and x > 0 else 1e-300


def _states(T: int, mistakes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The rounds the states start at, and their mistake counts 0 … M (read-only, from a table)."""
    K = len(mistakes) + 1
    state_rounds = np.empty(K, dtype=np.int64)
    state_rounds[0] = 0
    np.add(mistakes, 1, out=state_rounds[1:])
    return state_rounds, checks.counts(K)


def _with_zero(a: np.ndarray | None, K: int) -> np.ndarray:
    """A per-state array (initial state first); NaN when the quantity is not defined."""
    if a is None:
        return np.full(K, np.nan)
    a = np.asarray(a, dtype=np.float64)
    if a.shape != (K,):
        raise ValueError(f"expected one value per state ({K}), got shape {a.shape}")
    return a


def _margin_assumption(cmargin: Any, gamma: float | None, measured: float | None, n_nonpositive: int | None,
                       R: float, comparator_info: dict[str, Any]) -> tuple[float | None, Assumption]:
    """The γ the proof uses and its assumption: "separable" (failed) when no comparator separates the data,
    else "margin" — y⟨w*,x⟩ > 0 on every round (γ measured), or ≥ the given γ within rounding."""
    if cmargin is None:
        return None, Assumption(
            "separable", r"\text{some unit } w^* \text{ has } y_t\langle w^*, x_t\rangle \ge \gamma > 0 "
                         r"\text{ for every round } t",
            False, np.asarray(comparator_info.get("certificate_rounds", []), dtype=np.int64),
            comparator_info.get("separability_detail", "the data are not linearly separable through the origin"))
    g = measured if gamma is None else float(gamma)
    # the scan for failing rounds is needed only when the smallest margin fails
    if gamma is None:
        ok = measured > 0.0
        if ok:
            bad: Any = np.zeros(0, np.int64)
            nbad = 0
        elif n_nonpositive is not None:
            cm = cmargin
            bad = lambda: np.flatnonzero((cm() if callable(cm) else cm) <= 0.0)  # noqa: E731 - when asked for
            nbad = int(n_nonpositive)
        else:
            bad = np.flatnonzero(cmargin <= 0.0)
            nbad = len(bad)
        detail = (f"γ = {measured:.6g}, the smallest y⟨w*,x⟩ over the rounds" if ok else
                  f"w* puts {count(nbad, 'round')} on the wrong side or on the hyperplane "
                  "(y⟨w*,x⟩ ≤ 0): the data are not separated by this w*")
    else:
        threshold = g - ASSUMPTION_TOL * R
        ok = measured >= threshold
        bad = np.zeros(0, np.int64) if ok else np.flatnonzero(cmargin < threshold)
        detail = (f"γ = {g:.6g} (given); the smallest y⟨w*,x⟩ is {measured:.6g}" if ok else
                  f"{count(len(bad), 'round')} {agree(len(bad), 'has', 'have')} margin y⟨w*,x⟩ below γ = {g:.6g} "
                  f"(the smallest is {measured:.6g})")
    return g, Assumption("margin", r"y_t\langle w^*, x_t\rangle \ge \gamma > 0 \text{ for every round } t", ok,
                         bad if callable(bad) else bad.astype(np.int64), detail)


def _derived_series(k: np.ndarray, g: float | None, R: float, usable: bool, inner_s: np.ndarray | None,
                    norm_s: np.ndarray) -> dict[str, Any]:
    """Every series of proofs A and B; the derived ones (M, Mγ, √M·R, 1, the cosine and its lower bound) are
    rows of one block computed the first time one of them is read (each series a callable until then)."""
    K = len(k)
    gR = g / R if usable else math.nan
    block: list[np.ndarray] = []

    def derived() -> np.ndarray:
        """Every derived series as a row of one block (one allocation: see olc_core._kernels.perceptron._buffers),
        computed the first time one of them is asked for."""
        if not block:
            b = np.empty((7, K))
            kf, sqrtk, M_gamma, sqrtM_R, one, cosine, cos_lower = b
            kf[:] = k
            sqrtk[:] = checks.square_roots(K)   # np.sqrt(kf)
            if usable:
                np.multiply(kf, g, out=M_gamma)
                np.multiply(sqrtk, gR, out=cos_lower)
            else:
                M_gamma.fill(np.nan)
                cos_lower.fill(np.nan)
            if R < math.inf:
                np.multiply(sqrtk, R, out=sqrtM_R)
            else:
                sqrtM_R.fill(np.nan)
            one.fill(1.0)
            if inner_s is None:
                cosine.fill(np.nan)  # NaN / ‖w‖
            else:
                with np.errstate(divide="ignore", invalid="ignore"):
                    np.divide(inner_s, norm_s, out=cosine)  # 0/0 = NaN for w = 0: not defined, not checked
            block.append(b)
        return block[0]

    rows = ("M", "_sqrtk", "M_gamma", "sqrtM_R", "one", "cosine", "cos_lower")
    series: dict[str, Any] = {name: (lambda i=i: derived()[i]) for i, name in enumerate(rows) if not name.startswith("_")}
    series["inner"] = inner_s if inner_s is not None else (lambda: np.full(K, np.nan))
    series["norm"] = norm_s
    return series


def _chains(R: float, K: int, margin: str) -> tuple[Chain, ...]:
    """Proof A (the norm potential) and proof B (the cosine potential), each link with its reason; the links
    with γ need the margin assumption (named ``margin``), the others hold for any unit w* on any data."""
    return (
        Chain("norm potential (A)", ("M_gamma", "inner", "norm", "sqrtM_R"), scale=_scale(R * max(1, K - 1)),
              link_needs=((margin,), (), ()),
              reasons=("each mistake adds y_t⟨w*,x_t⟩ ≥ γ to ⟨w*,w⟩",
                       "Cauchy–Schwarz with ‖w*‖ = 1",
                       "each mistake adds ‖x_t‖² + 2y_t⟨w,x_t⟩ ≤ R² to ‖w‖² (y_t⟨w,x_t⟩ ≤ 0 on a mistake)")),
        Chain("cosine potential (B)", ("cos_lower", "cosine", "one"), scale=1.0, link_needs=((margin,), ()),
              reasons=("divide Mγ ≤ ⟨w*,w⟩ by ‖w‖ ≤ √M·R", "a cosine is at most 1")),
    )


def _undefined(g: float | None, R: float, has_inner: bool) -> dict[str, str]:
    """Why each series of proofs A and B is NaN where it is."""
    no_w = "no comparator w*: no unit vector separates these data through the origin"
    if g is None:
        no_gamma = "no γ: " + no_w
    elif not g > 0.0:
        no_gamma = f"γ = {g:.6g} is not positive: w* does not separate these data with a margin"
    else:
        no_gamma = "R = max‖x_t‖ is " + ("0 (every x_t is 0)" if R == 0.0 else "not a float (‖x_t‖² overflows)")
    out = {"M_gamma": no_gamma, "cos_lower": no_gamma,
           "sqrtM_R": "R = max‖x_t‖ is not a float (‖x_t‖² overflows)",
           "cosine": "w = 0: the cosine of its angle with w* is 0/0" if has_inner else no_w}
    if not has_inner:
        out["inner"] = no_w
    return out


def _fused_checker(proof: Proof, inner_s: np.ndarray | None, norm_s: np.ndarray, g: float | None, R: float,
                   usable: bool) -> Callable[[], dict[str, np.ndarray]]:
    """Every link's verdict in one compiled pass from ⟨w*,w⟩ and ‖w‖ (the derived series never made: the same
    float operations, so identical verdicts)."""
    names = [proof.link_name(lo, hi, st) for ch in proof.chains for lo, hi, st, _ in ch.links()]
    scale_a = proof.chains[0].scale
    pb = proof.mistake_bound
    gR = g / R if usable else math.nan

    def checker() -> dict[str, np.ndarray]:
        m = checks.perceptron_checks(norm_s if inner_s is None else inner_s, norm_s,
                                     float(g) if usable else math.nan, gR, R, usable, R < math.inf,
                                     math.nan if pb is None else pb, DEFAULT_TOL, scale_a,
                                     has_inner=inner_s is not None)
        rows_ = list(m) if pb is not None else list(m[:5])
        return dict(zip(names, rows_))
    return checker


def separable_proof(*, T: int, mistakes: np.ndarray, inner: np.ndarray | None, norm: np.ndarray,
                    radius: float, cmargin: np.ndarray | None, gamma: float | None,
                    comparator_info: dict[str, Any], min_margin: float | None = None,
                    n_nonpositive: int | None = None, state_rounds: np.ndarray | None = None,
                    exact_bound: Callable[[], Fraction | None] | None = None) -> Proof:
    """Proofs A and B of ``M ≤ R²/γ²``.

    ``inner``/``norm``: ⟨w*, w⟩ and ‖w‖ in each state (the initial w = 0 first);
    ``cmargin[t] = y_t⟨w*, x_t⟩`` (None when no comparator separates the data; with ``min_margin`` and
    ``n_nonpositive`` given it may be a zero-argument callable, read only to list failing rounds);
    ``gamma``: the γ the caller asked the proof to assume (None: the measured
    margin ``min_t cmargin[t]``, or ``min_margin`` when the loop already found it);
    ``n_nonpositive``: the number of rounds with ``cmargin[t] ≤ 0`` when the loop already
    counted them (the rounds themselves are then listed on first access);
    ``state_rounds``: ``[0, mistakes + 1]`` when the loop already recorded it;
    ``exact_bound``: R²/γ² as an exact rational (:func:`olc_core._exact.perceptron_bound.perceptron_bound`), called
    (then dropped) only when the run's mistakes reach half the float bound: the link M ≤ R²/γ² is then
    decided exactly (:func:`_exact_bound_link`) instead of within the checks' relative tolerance.
    """
    if state_rounds is None:
        state_rounds, k = _states(T, mistakes)
    else:
        k = checks.counts(len(mistakes) + 1)
    K = len(k)
    R = float(radius)
    constants: dict[str, Any] = {"radius": R, **comparator_info}
    if cmargin is None:
        measured = None
    else:
        measured = float(np.min(cmargin)) if min_margin is None else float(min_margin)
    constants["measured_margin"] = measured
    g, margin = _margin_assumption(cmargin, gamma, measured, n_nonpositive, R, comparator_info)
    assumptions: list[Assumption] = [margin]
    if not (0.0 < R < math.inf):
        assumptions.append(Assumption("radius", r"0 < R = \max_t \lVert x_t\rVert < \infty", False,
                                      np.arange(T, dtype=np.int64),
                                      "every x_t is 0" if R == 0.0 else "‖x_t‖² overflows a float"))
    constants["gamma"] = g
    usable = g is not None and g > 0.0 and 0.0 < R < math.inf
    inner_s = _with_zero(inner, K) if inner is not None else None   # None: NaN in every state, made when read
    norm_s = _with_zero(norm, K)
    series = _derived_series(k, g, R, usable, inner_s, norm_s)
    bound = sq_ratio(R, g) if usable else None
    if usable and not math.isfinite(bound):
        assumptions.append(range_assumption(bound, g, R, "R²/γ² = (R/γ)²"))
    constants["delta"] = g / R if usable else None
    constants["bound_formula"] = r"R^2/\gamma^2"
    proof = Proof(name="Perceptron, separable data", theorem=r"M \le R^2/\gamma^2", T=T,
                  state_rounds=state_rounds, n_mistakes=k, series=series, chains=_chains(R, K, margin.name),
                  assumptions=tuple(assumptions), mistake_bound=bound, constants=constants,
                  labels=dict(LABELS), undefined=_undefined(g, R, inner_s is not None))
    if resolve_engine("auto") == "numba" and K >= FUSED_CHECK_MIN_STATES:
        proof._checker = _fused_checker(proof, inner_s, norm_s, g, R, usable)
    if exact_bound is not None and proof.mistake_bound is not None and 2.0 * float(k[-1]) >= proof.mistake_bound:
        b_exact = exact_bound()
        if b_exact is not None:
            _exact_bound_link(proof, b_exact)
    return proof


def _exact_bound_link(proof: Proof, b_exact: Fraction) -> None:
    """Decide the link ``M ≤ R²/γ²`` in exact arithmetic: it fails where M > R²/γ² (M an integer: where
    M > ⌊R²/γ²⌋), not where M exceeds the float bound by more than the relative tolerance. On the tight
    stream x_t = e_t, M = d = R²/γ² while the float is 2.999999999999999 at d = 3: the tolerance said
    "holds" there too, but would also have passed an M above the exact bound by less than 1e-9·M.

    Only runs whose mistakes reach half the float bound b get here: below, every M_k < b/2 < R²/γ² (b is
    within rounding of R²/γ², or below it when the given γ is above the data's exact margin), and the
    tolerance check already says "holds" everywhere."""
    name = proof.link_name(proof.bounded, "mistake_bound")
    floor_b = b_exact.numerator // b_exact.denominator
    inner = proof._checker

    def checker() -> dict[str, np.ndarray]:
        if inner is not None:
            out = dict(inner())
        else:
            out = {proof.link_name(lo, hi, st): proof._link_bad(ch, lo, hi, DEFAULT_TOL)
                   for ch in proof.chains for lo, hi, st, _ in ch.links()}
        out[name] = proof.n_mistakes > floor_b
        return out
    proof._checker = checker


def td_bound(gamma: float, td: float, radius: float) -> float:
    """``R²/γ² + (2/γ)·TD_γ`` (the form of [004] with R = 1), scale-free (:func:`sq_ratio`, and TD_γ/γ
    is a ratio); inf only where the bound itself is beyond the float range (γ tiny next to R)."""
    if not (gamma > 0.0):
        return math.inf
    with np.errstate(over="ignore", invalid="ignore"):
        first = sq_ratio(radius, gamma) if radius > 0.0 else 0.0
        v = np.float64(first) + 2.0 * (np.float64(td) / np.float64(gamma))
    return float(v) if not np.isnan(v) else math.inf


def td_bound_quadratic(gamma: float, td: float, radius: float) -> float:
    """The largest M with ``γM − TD ≤ R√M`` (solving the quadratic exactly)."""
    r, q = radius / gamma, td / gamma    # ratios first: the same numbers at every scale of the data
    s = (r + math.sqrt(r * r + 4.0 * q)) / 2.0
    return max(s * s, q)


def hinge_bound(L: float, a: float) -> float:
    """``L + a√L + a²`` ([002], a = ‖u‖R)."""
    return L + a * math.sqrt(max(L, 0.0)) + a * a


def td_bounds(cmargin: np.ndarray, radius: float, gammas: np.ndarray) -> dict[str, np.ndarray]:
    """For each γ in ``gammas``: TD_γ, the TD bound R²/γ² + 2TD_γ/γ, and the hinge-form bound
    L + a√L + a² with u = w*/γ (L = TD_γ/γ, a = R/γ), for these margins y_t⟨w*, x_t⟩.

    >>> td_bounds(np.array([0.5, -0.1]), 1.0, np.array([0.5]))["TD"].tolist()
    [0.6]
    """
    m = np.sort(np.asarray(cmargin, dtype=np.float64))
    S = np.concatenate([[0.0], np.cumsum(m)])
    g = np.asarray(gammas, dtype=np.float64)
    k = np.searchsorted(m, g, side="left")          # margins below γ
    td = np.maximum(0.0, k * g - S[k])
    R = float(radius)
    with np.errstate(divide="ignore", over="ignore", invalid="ignore"):
        tdb = R * R / g ** 2 + 2.0 * td / g
        L = td / g
        a = R / g
        hb = L + a * np.sqrt(L) + a * a
    return {"gamma": g, "TD": td, "td_bound": tdb, "hinge_bound": hb}


def best_gamma(cmargin: np.ndarray, radius: float) -> tuple[float, float]:
    """The γ in (0, R] minimising ``R²/γ² + (2/γ)·TD_γ`` for these margins ``y_t⟨w*, x_t⟩``, and that bound.

    Only 0 < γ ≤ R = max‖x_t‖ is searched: no unit w* has a margin above R, and for γ > R the
    bound is either larger than at γ = R or larger than 2T − 1 (worthless, as M ≤ T). On each
    interval between sorted margins, TD_γ = kγ − S_k, so the bound is a quadratic in 1/γ; its
    minimum is at an endpoint or at γ = R²/S_k: all such candidates up to R are evaluated.

    The search runs on the margins and R divided by the power of two 2^e nearest R (exact), so it
    gives the same γ/R and the same bound at every scale of the data; γ is scaled back by 2^e.
    """
    m = np.sort(np.asarray(cmargin, dtype=np.float64))
    R = float(radius)
    if not (0.0 < R < math.inf):  # every x_t = 0 (or R overflows): no scale to search
        return 1.0, td_bound(1.0, float(np.sum(np.maximum(0.0, 1.0 - m))), radius)
    e = math.frexp(R)[1]
    g, b = _best_gamma_unit(np.ldexp(m, -e), math.ldexp(R, -e))
    return math.ldexp(g, e), b


def _best_gamma_unit(m: np.ndarray, R: float) -> tuple[float, float]:
    """:func:`best_gamma` for sorted margins m and 1/2 ≤ R < 1."""
    R2 = R * R
    S = np.concatenate([[0.0], np.cumsum(m)])  # S[k] = sum of the k smallest margins
    cands = [m[m > 0], np.array([R])]
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        stat = np.where(S[1:] > 0, R2 / S[1:], np.nan)
    cands.append(stat[np.isfinite(stat) & (stat > 0)])
    c = np.unique(np.concatenate(cands))
    with np.errstate(over="ignore", under="ignore"):
        c = c[(c <= R) & (c * c > 0)]  # γ² must be a normal float for the bound to mean anything
    kk = np.searchsorted(m, c, side="left")
    td = kk * c - S[kk]
    with np.errstate(over="ignore", divide="ignore", invalid="ignore"):
        vals = R2 / (c * c) + 2.0 * td / c
    vals = np.where(np.isnan(vals), np.inf, vals)
    i = int(np.argmin(vals))
    g = float(c[i])
    return g, td_bound(g, float(np.sum(np.maximum(0.0, g - m))), R)


def _per_round(T: int, mistakes: np.ndarray, per_state: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """States for a proof checked at every round: state_rounds = 0 … T, the mistakes M_t made on
    rounds before t, and a per-mistake-state array (initial state first) expanded to every round."""
    t = np.arange(T + 1, dtype=np.int64)
    M_t = np.searchsorted(np.asarray(mistakes, dtype=np.int64), t, side="left").astype(np.int64)
    return t, M_t, np.asarray(per_state, dtype=np.float64)[M_t]


def nonseparable_proof(*, T: int, mistakes: np.ndarray, inner: np.ndarray, norm: np.ndarray, radius: float,
                       cmargin: np.ndarray, gamma: float, comparator_info: dict[str, Any]) -> Proof:
    """The TD_γ proof of [004] for any unit w* and any γ > 0, checked at every round.

    TD_γ grows on every round (a point inside the margin band need not be a mistake), so
    the state here is the round: before round t, γM_t − TD_γ(rounds < t) ≤ ⟨w*, w⟩ —
    the number the page shows as "TD_γ so far" is the one checked.
    """
    K0 = len(mistakes) + 1
    R = float(radius)
    g = float(gamma)
    hinge = np.maximum(0.0, g - cmargin)
    TD = np.concatenate([[0.0], np.cumsum(hinge)])   # TD_γ over rounds before t, t = 0 … T
    td_total = float(TD[-1])
    state_rounds, k, inner_t = _per_round(T, mistakes, _with_zero(inner, K0))
    norm_t = _with_zero(norm, K0)[k]
    kf = k.astype(np.float64)
    series = {
        "td_lower": g * kf - TD,
        "inner": inner_t,
        "norm": norm_t,
        "sqrtM_R": np.sqrt(kf) * R,
        "TD": TD,
    }
    bg, bb = best_gamma(cmargin, R)
    constants = {"radius": R, "gamma": g, "TD": td_total, "bound_quadratic": td_bound_quadratic(g, td_total, R),
                 "best_gamma": bg, "best_bound": bb, "bound_formula": r"R^2/\gamma^2 + (2/\gamma)\,\mathrm{TD}_\gamma",
                 "hinge": hinge, "margins": np.asarray(cmargin), **comparator_info}
    bound = td_bound(g, td_total, R)
    scale = _scale(max(R * max(1, K0 - 1), g * max(1, K0 - 1), td_total))
    chains = (Chain("TD potential", ("td_lower", "inner", "norm", "sqrtM_R"), scale=scale,
                    reasons=("each mistake adds y_t⟨w*,x_t⟩ ≥ γ − max(0, γ − y_t⟨w*,x_t⟩) to ⟨w*,w⟩",
                             "Cauchy–Schwarz with ‖w*‖ = 1",
                             "each mistake adds at most R² to ‖w‖²")),)
    labels = dict(LABELS, TD=r"\mathrm{TD}_\gamma\ \text{(over the rounds so far)}")
    return Proof(name="Perceptron, non-separable data (TD_γ)",
                 theorem=r"M \le R^2/\gamma^2 + (2/\gamma)\,\mathrm{TD}_\gamma", T=T,
                 state_rounds=state_rounds, n_mistakes=k, series=series, chains=chains,
                 assumptions=(Assumption("gamma", r"\gamma > 0", g > 0),
                              range_assumption(bound, g, R, "R²/γ²")),
                 mistake_bound=bound, constants=constants, labels=labels)


def hinge_proof(*, T: int, mistakes: np.ndarray, inner: np.ndarray, norm: np.ndarray, radius: float,
                cmargin: np.ndarray, gamma: float, comparator_info: dict[str, Any]) -> Proof:
    """The hinge-loss proof of [002] for ``u = w*/γ`` (so ‖u‖ = 1/γ, L(u) = TD_γ/γ), checked at
    every round: before round t, M_t − L(u; rounds < t) ≤ ⟨u, w⟩ ≤ ‖u‖‖w‖ ≤ ‖u‖R√M_t."""
    K0 = len(mistakes) + 1
    R = float(radius)
    g = float(gamma)
    unorm = 1.0 / g
    loss = np.maximum(0.0, 1.0 - cmargin / g)
    L_t = np.concatenate([[0.0], np.cumsum(loss)])   # L(u) over rounds before t, t = 0 … T
    L_total = float(L_t[-1])
    state_rounds, k, inner_t = _per_round(T, mistakes, _with_zero(inner, K0))
    norm_t = _with_zero(norm, K0)[k]
    kf = k.astype(np.float64)
    series = {
        "hinge_lower": kf - L_t,
        "inner_u": inner_t / g,
        "norm_u": norm_t / g,
        "upper_u": (R / g) * np.sqrt(kf),   # ‖u‖R = R/γ: the ratio, not 1/γ (which overflows first) times R
        "L": L_t,
    }
    a = R / g
    constants = {"radius": R, "gamma": g, "u_norm": unorm, "L": L_total, "a": a,
                 "bound_formula": r"L(u) + \lVert u\rVert R\sqrt{L(u)} + \lVert u\rVert^2R^2", **comparator_info}
    bound = hinge_bound(L_total, a)
    scale = _scale(max(a * max(1, K0 - 1), K0 - 1, L_total))
    chains = (Chain("hinge potential", ("hinge_lower", "inner_u", "norm_u", "upper_u"), scale=scale,
                    reasons=("each mistake adds y_t⟨u,x_t⟩ ≥ 1 − max(0, 1 − y_t⟨u,x_t⟩) to ⟨u,w⟩ "
                             "(and L(u) never decreases between mistakes)",
                             "Cauchy–Schwarz", "‖w‖ ≤ R√M")),)
    labels = dict(LABELS, L=r"L(u)\ \text{(over the rounds so far)}")
    return Proof(name="Perceptron, hinge loss (Orabona)",
                 theorem=r"M \le L(u) + \lVert u\rVert R\sqrt{L(u)} + \lVert u\rVert^2 R^2", T=T,
                 state_rounds=state_rounds, n_mistakes=k, series=series, chains=chains,
                 assumptions=(Assumption("gamma", r"\gamma > 0", g > 0),
                              range_assumption(bound, g, R, "‖u‖²R² = (R/γ)²")),
                 mistake_bound=bound, constants=constants, labels=labels)
