"""The Margin Perceptron [004, §1.1]: the Perceptron that also updates on margin mistakes.

Examples are normalised to ``‖x‖ = 1`` (the learner divides each x by its norm;
an all-zero row is rejected). ``w_1 = y_1 x_1`` (the first example; its round is
counted as the first update, prediction recorded as 0). For later rounds
``s = ⟨w, x⟩/‖w‖``: predict +1 if ``s ≥ γ/2``, −1 if ``s ≤ −γ/2``, and a *margin
mistake* (prediction 0) if ``s ∈ (−γ/2, γ/2)``; update ``w ← w + y x`` on a mistake
or a margin mistake, i.e. whenever ``y·s < γ/2``. (If ever ``w = 0``, s is taken as
0: a margin mistake.)

``passes`` runs the learner over the data set that many times, stopping early after
a pass without an update (``None``: until a pass makes no update — guaranteed within
``12/γ² + 1`` passes when the data have margin γ, so it stops there, or after 10⁶
presentations, if not). The trace's rounds are the
presentations; ``columns["example"]`` says which example each one showed.

>>> import numpy as np, olc_core
>>> X = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]); y = np.array([1, 1, 1])
>>> tr = olc_core.run("margin_perceptron", X, y, gamma=0.5, comparator=[1.0, 1.0], passes=None)
>>> tr.mistakes.tolist(), tr.weights_at(tr.T).tolist()   # round 0 initialises w = y_1 x_1
([0, 1], [1.0, 1.0])
>>> tr.info["converged"], round(tr.info["final_margin"], 4), tr.proof.mistake_bound
(True, 0.7071, 48.0)
"""
from __future__ import annotations

import math
import sys
from typing import Any

import numpy as np

from .._support.numeric import Grow, rowdot, rowsq
from .._support.validate import as_labels, as_matrix, as_vector
from ..comparators import max_margin, separability_text, unit
from ..proofs.base import Assumption, Chain, Proof
from ..proofs.perceptron import ASSUMPTION_TOL
from ..trace import SnapshotHistory, Trace
from .._support.words import agree, count

__all__ = ["run", "normalize"]

NAME = "margin_perceptron"
MAX_PRESENTATIONS = 1_000_000

#: kind of each round (columns["kind"])
CORRECT, MARGIN_MISTAKE, MISTAKE, INIT = 0, 1, 2, 3


def normalize(X: np.ndarray, algorithm: str = NAME) -> np.ndarray:
    """Each row divided by its Euclidean norm (sequential sum of squares), at any scale: each row is
    first divided by the power of two nearest its largest entry (exact), so ‖x‖² neither underflows
    nor overflows; the result is the same, bit for bit, as ``x/‖x‖`` wherever that does not.

    >>> normalize(np.array([[3.0, 4.0], [3.0, -4.0]]) * [[2.0 ** -1050], [2.0 ** 1000]]).tolist()
    [[0.6, 0.8], [0.6, -0.8]]
    """
    top = np.max(np.abs(X), axis=1)
    if (top == 0).any():
        t = int(np.flatnonzero(top == 0)[0])
        raise ValueError(f"{algorithm}: examples are normalised to length 1, but example {t + 1} (counting from 1) "
                         "is the zero vector, which has no direction; remove it or move it off the origin")
    Xs = np.ldexp(X, -np.frexp(top)[1][:, None])
    return Xs / np.sqrt(rowsq(Xs))[:, None]


def bound_12(gamma: float) -> float:
    """``12/γ²`` written ``12·(1/γ)²`` (no division by an underflowed γ²; inf beyond the float range)."""
    r = 1.0 / gamma
    return 12.0 * (r * r)


def _finite_or_none(v: float) -> float | None:
    return v if math.isfinite(v) else None


def _loop(Xh: np.ndarray, y: np.ndarray, gamma: float, passes: int | None):
    n, d = Xh.shape
    half = gamma / 2.0
    w = y[0] * Xh[0]
    upd = Grow((), np.int64)
    snaps = Grow((d,), np.float64)
    upd.append(0)
    snaps.append(w)
    score_chunks, kind_chunks = [np.array([0.0])], [np.array([INIT], np.int8)]
    start = 1                      # within the current pass
    done_passes, converged = 0, False
    total = 1
    # "until a pass makes no update": the theorem guarantees it within 12/γ² + 1 passes when the
    # data have margin γ; if that many passes still update, the assumption fails: stop there
    # (capped: the presentations stop at MAX_PRESENTATIONS anyway, and 12/γ² may exceed the float range)
    max_passes = passes if passes is not None else int(math.ceil(min(bound_12(gamma), MAX_PRESENTATIONS))) + 1
    while True:
        pass_updates = 1 if done_passes == 0 else 0
        i = start
        B = 64
        while i < n:
            e = min(n, i + B)
            nw = math.sqrt(float(rowsq(w[None, :])[0]))
            dots = rowdot(Xh[i:e], w)
            s = dots / nw if nw > 0 else np.zeros(e - i)
            ys = y[i:e] * s
            bad = np.flatnonzero(ys < half)
            stop = e if bad.size == 0 else i + int(bad[0]) + 1
            m = stop - i
            score_chunks.append(s[:m].copy())
            kinds = np.zeros(m, np.int8)
            if bad.size:
                j = int(bad[0])
                kinds[j] = MISTAKE if ys[j] <= -half else MARGIN_MISTAKE
                t_global = total + j
                w = w + y[i + j] * Xh[i + j]
                upd.append(t_global)
                snaps.append(w)
                pass_updates += 1
                B = int(min(1 << 14, max(16, 2 * j + 16)))
            else:
                B = min(2 * B, 1 << 14)
            kind_chunks.append(kinds)
            total += m
            i = stop
            if total >= MAX_PRESENTATIONS and passes is None:
                break
        done_passes += 1
        start = 0
        if pass_updates == 0:
            converged = True
        if (max_passes is not None and done_passes >= max_passes) or converged:
            break
        if total >= MAX_PRESENTATIONS:
            break
    score = np.concatenate(score_chunks)
    kind = np.concatenate(kind_chunks)
    return score, kind, upd.array(), snaps.array(), done_passes, converged


def _final_margin(Xh, y, w) -> float | None:
    """min_t y_t⟨w, x_t⟩/‖w‖ for the final w; None when w = 0 (no hyperplane, so no margin at all)."""
    nw = math.sqrt(float(rowsq(w[None, :])[0]))
    if nw == 0:
        return None
    return float(np.min(y * rowdot(Xh, w) / nw))


def run(X, y, params: dict[str, Any]) -> Trace:
    X = as_matrix(X, NAME)
    n, d = X.shape
    y = as_labels(y, "pm1", n, NAME)
    Xh = normalize(X)
    comparator = params["comparator"]
    info: dict[str, Any] = {"normalized": True, "examples": Xh, "labels": y}
    if comparator is not None:
        wstar = as_vector(comparator, d, NAME, "comparator")
        if not np.any(wstar):
            raise ValueError(f"{NAME}: comparator must be a non-zero vector")
        wstar = unit(wstar)
        info["comparator_source"] = "given"
    else:
        mm = max_margin(Xh, y)
        info.update(comparator_method=mm.method, max_margin_upper=mm.upper)
        if mm.separable:
            wstar = mm.w
            info.update(comparator_source="max-margin", max_margin_gap=mm.gap, separability="separable")
        else:
            wstar = None
            info.update(comparator_source=None, certificate_rounds=mm.support, separability=mm.status,
                        separability_detail=separability_text(mm, "the normalised data"))
    gamma = params["gamma"]
    cm = y * rowdot(Xh, wstar) if wstar is not None else None
    if gamma is None:
        if cm is None or cm.min() <= 0:
            why = ("the data are not linearly separable through the origin" if
                   info.get("separability") == "inseparable" else
                   "no separator through the origin with a margin that floating point resolves was found "
                   "(the data were neither shown separable nor shown inseparable)")
            raise ValueError(f"{NAME}: give gamma in (0, 1]: {why}, so there is no margin to default to")
        gamma = float(min(1.0, cm.min()))
    info["comparator"] = wstar
    score, kind, upd, S, passes_run, converged = _loop(Xh, y, gamma, params["passes"])
    T = len(score)
    example = np.arange(T) % n
    final = _final_margin(Xh, y, S[-1])
    info.update(passes_run=passes_run, converged=converged, final_margin=final, gamma=gamma,
                n_examples=n)
    proof = _proof(T=T, updates=upd, S=S, wstar=wstar, cm=cm, gamma=gamma, example=example, info=info)

    def predictions():
        p = np.where(score >= gamma / 2, 1, np.where(score <= -gamma / 2, -1, 0)).astype(np.int8)
        p[0] = 0
        return p

    columns = {"score": score, "kind": kind, "example": example, "pass": np.arange(T) // n,
               "is_margin_mistake": lambda: kind == MARGIN_MISTAKE}
    return Trace(algorithm=NAME, params=dict(params, gamma=gamma), T=T, d=d, mistakes=upd, predictions=predictions,
                 history=SnapshotHistory(np.zeros(d), upd, S), weight_kind="linear", columns=columns,
                 proofs={"margin": proof}, primary="margin", info=info)


def _whose(info: dict) -> str:
    """Which w* a margin belongs to: the one given (e.g. the generator's planted one), or the data's best."""
    return "given" if info.get("comparator_source") == "given" else "maximum-margin"


def _proof(*, T, updates, S, wstar, cm, gamma, example, info) -> Proof:
    K = len(updates) + 1
    state_rounds = np.concatenate([[0], updates + 1])
    k = np.arange(K, dtype=np.int64)
    kf = k.astype(np.float64)
    norm = np.concatenate([[0.0], np.sqrt(rowsq(S))])
    inner = np.concatenate([[0.0], rowdot(S, wstar)]) if wstar is not None else np.full(K, np.nan)
    series = {
        "U_gamma": kf * gamma,
        "inner": inner,
        "norm": norm,
        "norm_upper": 1.0 + 2.0 / gamma + 0.75 * kf * gamma,
    }
    if wstar is None:
        ass = Assumption("margin", r"\text{some unit } w^* \text{ has } y\langle w^*, x\rangle \ge \gamma "
                                   r"\text{ for every (normalised) example}",
                         False, np.asarray(info.get("certificate_rounds", []), dtype=np.int64),
                         info["separability_detail"])
    else:
        bad_examples = np.flatnonzero(cm < gamma - ASSUMPTION_TOL)  # unit-norm examples: R = 1
        ok = bad_examples.size == 0
        rounds = np.flatnonzero(np.isin(example, bad_examples)) if not ok else np.zeros(0, np.int64)
        ass = Assumption("margin", r"y\langle w^*, x\rangle \ge \gamma \text{ for every (normalised) example}", ok,
                         rounds.astype(np.int64),
                         f"γ = {gamma:.4g}; the smallest y⟨w*, x⟩ over the (normalised) examples is {cm.min():.4g}"
                         if ok else (f"{count(bad_examples.size, 'example')} {agree(bad_examples.size, 'has', 'have')} "
                                     f"margin below γ = {gamma:.4g} for the {_whose(info)} w* (its smallest margin "
                                     f"y⟨w*, x⟩ is {cm.min():.4g})".replace("-", "−")))
    constants = {"gamma": gamma, "comparator": wstar, "measured_margin": None if cm is None else float(cm.min()),
                 "bound_formula": r"12/\gamma^2",
                 "bound_tight": _finite_or_none(4.0 / gamma + 8.0 * (1.0 / gamma) * (1.0 / gamma)),
                 "final_margin": info["final_margin"], "converged": info["converged"],
                 "passes_run": info["passes_run"]}
    labels = {"U_gamma": r"U\gamma", "inner": r"\langle w^*, w\rangle", "norm": r"\lVert w\rVert",
              "norm_upper": r"1 + 2/\gamma + 3U\gamma/4", "M": "U", "mistake_bound": r"12/\gamma^2"}
    chain = Chain("margin perceptron", ("U_gamma", "inner", "norm", "norm_upper"), scale=float(max(1, K - 1)),
                  link_needs=(("margin",), (), ()),
                  reasons=("each update (the first included) adds y⟨w*,x⟩ ≥ γ to ⟨w*,w⟩",
                           "Cauchy–Schwarz with ‖w*‖ = 1",
                           "‖w‖ grows by ≤ 1 per update, and by ≤ 3γ/4 once ‖w‖ ≥ 2/γ"))
    bound = bound_12(gamma)
    fits = math.isfinite(bound)
    in_range = Assumption("float range", r"12/\gamma^2 < 1.8\cdot 10^{308}", fits, np.zeros(0, np.int64),
                          "" if fits else (f"γ = {gamma:.3g} is too small: 12/γ² would exceed the largest float "
                                           f"({sys.float_info.max:.3g}), so no bound is stated (it needs γ above "
                                           "about 2.6e-154)"))
    return Proof(name="Margin Perceptron", theorem=r"U \le 12/\gamma^2", T=T, state_rounds=state_rounds,
                 n_mistakes=k, series=series, chains=(chain,), assumptions=(ass, in_range),
                 mistake_bound=bound, constants=constants, labels=labels, event="update",
                 undefined={"inner": "no comparator w*: no unit vector separates these (normalised) data "
                                     "through the origin"})
