"""The Perceptron (Rosenblatt 1958) [000, 001, 003, 004].

``w_1 = 0``; predict ``ŷ_t = sign(⟨w_t, x_t⟩)``; round t is a mistake iff
``y_t⟨w_t, x_t⟩ ≤ 0`` (a point on the hyperplane is a mistake for either label,
as the proofs need [003]); on a mistake ``w ← w + y_t x_t``, otherwise nothing.
Predictions are recorded as ``sign(⟨w_t, x_t⟩) ∈ {-1, 0, +1}``: 0 means "on the
hyperplane", which is a mistake whatever the label.

The proof's comparator w* is the caller's ``comparator`` (normalised to unit
length) or, when absent, the maximum-margin separator through the origin
(:func:`olc_core.comparators.max_margin`). The run records only: the score
``⟨w_t, x_t⟩`` and the comparator's margin ``y_t⟨w*, x_t⟩`` per round, and per
mistake the new weights, ``⟨w*, w⟩`` and ``‖w‖²``.

Scale: the Perceptron makes the same mistakes on c·X as on X for every c > 0. In floating point
this holds exactly for c a power of two (the scores are then 4^k times, the weights 2^k times
those on X, bit for bit) while the data stay within ``SCALE_MIN ≤ max‖x_t‖ ≤ SCALE_MAX``
(1e-100 … 1e100); for other c each entry of c·X is rounded, so only a score within rounding of 0
could change sign. Data outside that range are refused with a message (the scores ⟨w, x⟩ would
underflow to 0 or overflow). The bounds are computed scale-free (R²/γ² from R/γ).

>>> import numpy as np, olc_core
>>> X = np.array([[0.5, 1.0], [-1.0, 0.5], [0.2, -1.0], [1.0, 0.2]]); y = np.array([1, -1, 1, 1])
>>> tr = olc_core.run("perceptron", X, y, comparator=[1.0, 0.0])
>>> tr.mistakes.tolist(), tr.weights_at(4).tolist()        # round 1 has w·x = 0: a mistake
([0, 1, 2], [1.7, -0.5])
>>> tr.proof.constants["gamma"], tr.proof.mistake_bound, tr.proof.violations()   # R² = 1.25
(0.2, 31.25, [])
"""
from __future__ import annotations

from typing import Any

import numpy as np

from .._comparators.max_margin import drive, search_steps
from .._exact.perceptron_bound import perceptron_bound
from .._kernels import engine as kernel_engine
from .._kernels import perceptron as compiled
from .._kernels.margin_scan import SHIFT, block_minima
from .._support.numeric import Grow, rowdot, rowsq
from .._support.validate import as_labels, as_matrix, as_vector, bad_label
from ..comparators import MaxMargin, max_margin, separability_text, soft_margin_direction, unit
from ..proofs import perceptron as proofs
from ..trace import SnapshotHistory, Trace

__all__ = ["run", "perceptron_numpy", "perceptron_numba", "resolve_comparator"]

NAME = "perceptron"


def perceptron_numpy(X: np.ndarray, y: np.ndarray, wstar: np.ndarray | None):
    """The Perceptron loop in numpy: margins for a block of upcoming rounds while w is constant.

    Returns ``score, cmargin, mistakes, snapshots, inner, norm, R², min cmargin, #{t: cmargin ≤ 0},
    state rounds`` exactly as the compiled kernel does (``inner``/``norm`` have the initial state 0 first;
    ``inner`` is all zeros without a comparator; the state rounds are ``[0, mistakes + 1]``).
    """
    T, d = X.shape
    w = np.zeros(d)
    score = np.empty(T)
    mis = Grow((), np.int64)
    snaps = Grow((d,), np.float64)
    t, B = 0, 64
    rowwise = d <= ROWWISE_D and X.dtype == np.float64 and y.dtype == np.float64
    while t < T:
        if rowwise and B <= ROWWISE_B:      # mistakes close together: round by round in Python floats
            t, w, B = _dense_rounds(X, y, w, t, score, mis, snaps)
            continue
        e = min(T, t + B)
        s = rowdot(X[t:e], w)
        score[t:e] = s
        bad = np.flatnonzero(y[t:e] * s <= 0.0)
        if bad.size == 0:
            t, B = e, min(2 * B, 1 << 16)
            continue
        i = t + int(bad[0])
        w = w + y[i] * X[i]
        mis.append(i)
        snaps.append(w)
        B = int(min(1 << 16, max(16, 2 * int(bad[0]) + 16)))
        t = i + 1
    S = snaps.array()
    inner = np.concatenate([[0.0], rowdot(S, wstar) if wstar is not None else np.zeros(len(S))])
    norm = state_norms(np.concatenate([[0.0], rowsq(S)]), S)
    cmargin = y * rowdot(X, wstar) if wstar is not None else np.zeros(0)
    cmin = float(cmargin.min()) if wstar is not None else np.inf
    nonpos = int(np.count_nonzero(cmargin <= 0.0))
    r2 = float(rowsq(X).max())
    m = mis.array()
    return score, cmargin, m, S, inner, norm, r2, cmin, nonpos, np.concatenate([[0], m + 1]).astype(np.int64)


#: the numpy loop goes round by round in Python floats while mistakes come within ROWWISE_B // 2 − 8 rounds of
#: each other and d ≤ ROWWISE_D: a round then costs about a microsecond, where a block of rows costs some
#: thirty numpy calls per mistake
ROWWISE_D, ROWWISE_B = 8, 32


def _dense_rounds(X, y, w, t: int, score, mis, snaps, span: int = 256):
    """Rounds t … (at most t + span − 1) of :func:`perceptron_numpy`, one by one in Python floats: the same
    operations in the same order as its blocks (the score ``0.0 + x₀w₀ + x₁w₁ + …`` as :func:`rowdot` with
    d ≤ 16, the update ``w + y·x``), so the same bits. Stops after ROWWISE_B rounds without a mistake;
    returns ``(t, w, B)`` for the block loop."""
    T = X.shape[0]
    e = min(T, t + span)
    rows, labels, wl = X[t:e].tolist(), y[t:e].tolist(), w.tolist()
    quiet = 0
    for k in range(e - t):
        xr, yk = rows[k], labels[k]
        s = 0.0
        for xj, wj in zip(xr, wl):
            s += xj * wj
        score[t + k] = s
        if yk * s <= 0.0:
            wl = [wj + yk * xj for wj, xj in zip(wl, xr)]
            w = np.array(wl)
            mis.append(t + k)
            snaps.append(w)
            quiet = 0
        else:
            quiet += 1
            if quiet >= ROWWISE_B:
                return t + k + 1, w, 64
    return e, w, (16 if quiet < ROWWISE_B // 2 else 64)


def perceptron_numba(X: np.ndarray, y: np.ndarray, wstar: np.ndarray | None, split: bool | None = None,
                     minima: compiled.BlockMinima | None = None):
    """The same loop compiled with numba (finiteness and labels checked in the pass; on long runs
    with frequent mistakes, in two halves on two threads: see :func:`olc_core._kernels.perceptron.perceptron`;
    ``minima``: the max-margin search's block minima computed in the same pass)."""
    score, cmargin, mis, S, inner, norm, r2, cmin, nonpos, nodd, bad_row, sr = compiled.perceptron(X, y, wstar, split,
                                                                                                  minima)
    if bad_row >= 0:
        raise ValueError(f"{NAME}: X has a NaN or infinite value at round {bad_row + 1}")
    if bad_row == -2:
        bad_label(y, int(np.flatnonzero(np.abs(y) != 1.0)[0]), "pm1", NAME)
    if bad_row != -1:
        raise RuntimeError(f"{NAME}: the compiled loop stopped with code {bad_row}")
    if nodd:  # some ‖w‖² under- or overflowed: the same rescaled norms as the numpy loop
        norm = state_norms(np.concatenate([[0.0], rowsq(S)]), S)
    return score, cmargin, mis, S, inner, norm, float(r2), float(cmin), int(nonpos), sr


def state_norms(norm2: np.ndarray, S: np.ndarray) -> np.ndarray:
    """‖w‖ in every state from the loop's ‖w‖² (initial state first); where the square left
    the normal float range (tiny or huge weights) it is recomputed with scaling from the
    stored weights, so Cauchy–Schwarz is not "violated" by an underflowed square."""
    norm = np.sqrt(norm2)
    odd = np.flatnonzero((norm2[1:] < 1e-290) | (norm2[1:] > 1e290))
    for j in odd:
        w = S[j]
        s = float(np.max(np.abs(w)))
        norm[j + 1] = 0.0 if s == 0.0 else s * float(np.sqrt(rowsq((w / s)[None, :])[0]))
    return norm


#: The Perceptron runs on data whose longest example has SCALE_MIN ≤ max‖x_t‖ ≤ SCALE_MAX. Its scores
#: ⟨w, x_t⟩ are of size up to M·‖x‖² and ‖w‖² up to M·R²: within this range they stay finite for any
#: number of rounds below 10¹⁰⁰, and a coordinate 10⁻¹⁰⁰ times smaller than R still gives normal
#: (not subnormal) products, so the run on c·X makes exactly the mistakes of the run on X for every
#: power of two c that keeps the data in range. Outside it the run is refused with a message.
SCALE_MIN, SCALE_MAX = 1e-100, 1e100


def check_scale(R: float, algorithm: str = NAME) -> None:
    """Refuse data whose longest example ``R = max‖x_t‖`` is outside [SCALE_MIN, SCALE_MAX] (R = 0,
    all-zero data, is the proof's to report)."""
    if R == 0.0 or SCALE_MIN <= R <= SCALE_MAX:
        return
    # enough digits that the number shown is visibly outside the range
    shown = next((f for f in (f"{R:.{p}g}" for p in (3, 6, 17)) if not SCALE_MIN <= float(f) <= SCALE_MAX), repr(R))
    limit = "below about 1e-300 round to 0" if R < SCALE_MIN else "above about 1e308 are infinite"
    raise ValueError(
        f"{algorithm}: the data's scale is out of range: the longest example has length ‖x‖ = {shown}, but the "
        f"Perceptron needs it between {SCALE_MIN:g} and {SCALE_MAX:g}: its scores ⟨w, x⟩ are of size about "
        f"‖x‖², and floating-point numbers {limit}. "
        f"Multiply X by a positive number to bring it into range: that does not change the Perceptron's "
        f"mistakes.")


def radius(X: np.ndarray, r2: float) -> float:
    """``R = max_t ‖x_t‖`` from the loop's ``max ‖x_t‖²``, recomputed with scaling only
    when the square left the normal float range (tiny or huge data)."""
    if 1e-290 < r2 < 1e290:
        return float(np.sqrt(r2))
    s = float(np.max(np.abs(X)))
    if s == 0.0:
        return 0.0
    return s * float(np.sqrt(rowsq(X / s).max()))


def resolve_comparator(X: np.ndarray, y: np.ndarray, comparator, algorithm: str, mm: MaxMargin | None = None
                       ) -> tuple[np.ndarray | None, dict]:
    """The unit w* the proof uses, and how it was found (with the max-margin certificate; ``mm``: the
    search's result when the caller already has it)."""
    d = X.shape[1]
    if comparator is not None:
        w = as_vector(comparator, d, algorithm, "comparator")
        if not np.any(w):
            raise ValueError(f"{algorithm}: comparator must be a non-zero vector")
        u = unit(w)
        return u, {"comparator_source": "given", "comparator": u}
    mm = max_margin(X, y) if mm is None else mm
    info: dict[str, Any] = {"comparator_method": mm.method, "max_margin_upper": mm.upper,
                            "max_margin_iterations": mm.iterations, "max_margin_converged": mm.converged}
    if mm.separable:
        info.update(comparator_source="max-margin", comparator=mm.w, max_margin_gap=mm.gap, separability="separable")
        return mm.w, info
    info.update(comparator_source=None, comparator=None, certificate_rounds=mm.support, separability=mm.status,
                separability_detail=separability_text(mm))
    return None, info


def _check_finite(X: np.ndarray) -> None:
    """Every entry finite, and the data's scale within what the proof computes (before any search)."""
    if not np.isfinite(X).all():
        t = int(np.flatnonzero(~np.isfinite(X).all(axis=1))[0])
        raise ValueError(f"{NAME}: X has a NaN or infinite value at round {t + 1}")
    with np.errstate(over="ignore", under="ignore"):  # radius() rescales when ‖x‖² leaves the float range
        r2 = float(rowsq(X).max())
    check_scale(radius(X, r2))


def _learn(X, y, params, engine):
    """The loop with its comparator. With the compiled loop and no comparator given, the max-margin search
    runs in the same pass: its first step (Wolfe on a sample of the rounds), then the block minima of its
    full pass computed by the learner's loop (which needs no w*), then the rest of the search (a few blocks
    read again). w*'s columns then come from the search's certified direction (its margins, the same float
    expression as the loop's) and the snapshots."""
    loop = perceptron_numba if engine == "numba" else perceptron_numpy
    if engine != "numba" or params["comparator"] is not None:
        if engine != "numba":
            _check_finite(X)
        wstar, cinfo = resolve_comparator(X, y, params["comparator"], NAME)
        return wstar, cinfo, loop(X, y, wstar)
    out, mm = _learn_and_search(X, y)
    wstar, cinfo = resolve_comparator(X, y, None, NAME, mm)
    if wstar is not None:  # certified: its exact minimum margin is positive, so no round has margin ≤ 0
        out[1] = _margins_when_read(X, y, wstar)   # y_t⟨w*, x_t⟩ as the loop computes it, when first read
        out[4] = np.concatenate([[0.0], rowdot(out[3], wstar)])
        out[7], out[8] = mm.margin, 0
    return wstar, cinfo, tuple(out)


def _learn_and_search(X, y):
    """The compiled learner with no comparator, and the max-margin search (the same result as
    :func:`max_margin`, which it falls back to on data of extreme scale or when it fails)."""
    if X.size < CONCURRENT_MIN:
        out = list(perceptron_numba(X, y, None))   # checks X and y (raises on bad data)
        return out, max_margin(X, y)
    try:
        gen, scan = search_steps(X, y)
        steps = _Steps(gen)
    except Exception:  # noqa: BLE001 - max_margin below reports it
        steps = None
    minima = None
    if steps is not None:
        if kernel_engine.threads() >= 2 and SEARCH_CONCURRENT:
            minima = compiled.BlockMinima(kernel_engine.worker().submit(_search_first, steps), len(X), SHIFT, block_minima)
        else:  # the first step in this thread, while the loop's first rounds run on the worker
            minima = compiled.BlockMinima(None, len(X), SHIFT, block_minima, first=lambda: _search_first(steps))
    out = list(perceptron_numba(X, y, None, minima=minima))   # checks X and y (raises on bad data)
    if minima is None or minima.failed:
        return out, max_margin(X, y)
    first = minima.future.result()
    if first is None:                       # the search ended in its first step (e.g. a certificate)
        return out, steps.verdict
    try:
        with np.errstate(all="ignore"):
            scan.set_full(minima.v, minima.bmin, out[6])
            return out, drive(steps.gen, scan, minima.v)
    except Exception:  # noqa: BLE001 - e.g. data of extreme scale: the plain search handles (or reports) it
        return out, max_margin(X, y)


class _Steps:
    def __init__(self, gen):
        self.gen, self.verdict = gen, None


def _search_first(steps):
    """The search's first step: the direction of the full pass it needs, or None (``steps.verdict`` set)."""
    with np.errstate(all="ignore"):
        try:
            return next(steps.gen)
        except StopIteration as stop:
            steps.verdict = stop.value
            return None


def _margins_when_read(X, y, wstar):
    """``y * rowdot(X, w*)`` (the loops' own expression), computed on the first call only."""
    memo: list = []

    def get() -> np.ndarray:
        if not memo:
            memo.append(y * rowdot(X, wstar))
        return memo[0]
    return get


#: From this many entries (T·d) on, the compiled learner computes the max-margin search's full pass.
CONCURRENT_MIN = 100_000
#: Run the search's first step on the worker thread while the loop starts (the loop then runs in chunks
#: until its direction is known, and the rounds before are caught up on the worker). Off: measured slower
#: on the 2-core machine (the first step's Python code holds the GIL that the loop needs between chunks);
#: instead the first step runs in the calling thread while the loop's first rounds run on the worker.
SEARCH_CONCURRENT = False


def run(X, y, params: dict[str, Any]) -> Trace:
    X = as_matrix(X, NAME, check_finite=False)
    T, d = X.shape
    engine = kernel_engine.resolve_engine(params["engine"])
    y = as_labels(y, "pm1", T, NAME, check_values=engine != "numba")  # the compiled loop checks X and y itself
    with np.errstate(over="ignore"):  # only out-of-range data overflow, and check_scale refuses them below
        wstar, cinfo, out = _learn(X, y, params, engine)
    score, cmargin, mistakes, S, inner, norm, r2, cmin, nonpos, state_rounds = out
    if callable(cmargin) and params["gamma"] is not None:  # a given γ is checked round by round
        cmargin = cmargin()
    R = radius(X, r2)
    check_scale(R)  # the compiled loop checked X on its way (the scores are not used if this fails)
    has = wstar is not None
    cm = cmargin if has else None
    info = dict(cinfo, radius=R, engine=engine)
    primary = proofs.separable_proof(T=T, mistakes=mistakes, inner=inner if has else None, norm=norm, radius=R,
                                     cmargin=cm, gamma=params["gamma"], comparator_info=cinfo,
                                     min_margin=cmin if has else None, n_nonpositive=nonpos if has else None,
                                     state_rounds=state_rounds,
                                     exact_bound=(lambda: perceptron_bound(X, y, wstar, params["gamma"])) if has else None)

    # the non-separable proofs need some unit w*: the one above, or a soft-margin fit
    def _ns_inputs():
        if has:
            cmw = cmargin() if callable(cmargin) else cmargin
            return wstar, cmw, inner, {"comparator_source": cinfo["comparator_source"], "comparator": wstar}
        u = soft_margin_direction(X, y)
        inner_u = np.concatenate([[0.0], rowdot(S, u)])
        return u, y * rowdot(X, u), inner_u, {"comparator_source": "soft-margin fit", "comparator": u}

    cache: dict[str, Any] = {}

    def ns_inputs():
        if "v" not in cache:
            u, cmu, inner_u, ci = _ns_inputs()
            g = params["gamma"] if params["gamma"] is not None else proofs.best_gamma(cmu, R)[0]
            cache["v"] = (u, cmu, inner_u, ci, g)
        return cache["v"]

    def nonsep():
        u, cmu, inner_u, ci, g = ns_inputs()
        return proofs.nonseparable_proof(T=T, mistakes=mistakes, inner=inner_u, norm=norm, radius=R,
                                         cmargin=cmu, gamma=g, comparator_info=ci)

    def hinge():
        u, cmu, inner_u, ci, g = ns_inputs()
        return proofs.hinge_proof(T=T, mistakes=mistakes, inner=inner_u, norm=norm, radius=R,
                                  cmargin=cmu, gamma=g, comparator_info=ci)

    columns: dict[str, Any] = {"score": score}
    if has:
        columns["comparator_margin"] = cmargin
    return Trace(algorithm=NAME, params=params, T=T, d=d, mistakes=mistakes,
                 predictions=lambda: np.sign(score).astype(np.int8),
                 history=SnapshotHistory(np.zeros(d), mistakes, S), weight_kind="linear",
                 columns=columns, proofs={"separable": primary, "nonseparable": nonsep, "hinge": hinge},
                 primary="separable", info=info)
