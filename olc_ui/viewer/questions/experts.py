"""Predict-then-reveal options for the learners on expert advice: Weighted Majority and Halving (will the vote
err?) and Randomised Weighted Majority (what share of the weight do the wrong experts hold — its chance of a
mistake, known before the draw).

Every number is the run's, read from its log weights before the round (``trace.log_weights_at``, exact in the
core: ``c·ln β``, ``−∞`` for a weight β = 0 zeroed, ``ln 0/1`` for Halving's version space), so a share the
floats would round to 0.0 is still known to be positive, and a weight that is 0 is known to be 0. The wrong
experts' share against ½ is decided as exact arithmetic would (``exact_vote_sign`` on the integer exponents, the
counts for Halving) where the float share is within 10⁻⁹ of ½. Four cases, per round:

* ``empty`` — every weight is 0 (WM with β = 0 or RWM with η = 1 after every expert erred; Halving's version
  space emptied by noise): the vote is a tie, which predicts +1; RWM has no expert to draw and predicts +1;
* ``right`` — no expert is wrong;
* ``zero`` — some experts are wrong but they hold no weight (β = 0, η = 1, or outside the version space);
* ``share`` — the wrong experts hold a positive share (``share``; ``tiny``: its text when it is below the
  smallest float), compared with ½ in ``rel``; ``rest`` is the share the others hold (0 when they hold none;
  ``rest_tiny`` its text below the smallest float), so that a share near 1 is printed "all but …".
"""
from __future__ import annotations

import math
from typing import Any

import numpy as np
from olc_core._support.numeric import logsumexp
from olc_core.learners.weighted_majority import exact_vote_sign

from olc_ui.viewer.questions.base import MAX_NAMED, common, rounds, sci_text

__all__ = ["EXPERTS_COVER", "experts_options", "rwm_options", "vote_shares"]

#: experts' charts that show later rounds (the advice strip with the learner's ŷ row, the cumulative mistakes):
#: the mode covers them beyond the round on screen (x = round + offset)
EXPERTS_COVER = {"advice": 0.5, "mistakes": 0.0}
#: a float share further than this from ½ is on its side of ½ (its rounding error is below 1e-12)
HALF_MARGIN = 1e-9


def _right(X, lab: np.ndarray) -> np.ndarray:
    """(rounds, N): the experts whose advice (±1, or 0/1 read as −1/+1) is the label."""
    return (np.asarray(X) > 0) == (lab > 0)[:, None]


def _exact_half(trace, t: int, alive: np.ndarray, right: np.ndarray) -> int:
    """sign(W_right − W_wrong) before round t, exactly: Halving's counts, or the integer exponents of β^c."""
    if trace.algorithm == "halving":
        k = int(np.count_nonzero(alive & right)) - int(np.count_nonzero(alive & ~right))
        return (k > 0) - (k < 0)
    c = trace.history.counts_at(t)
    return exact_vote_sign(c[alive], right[alive], float(trace.info["beta"]))


def _masked_lse(LW: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """Row-wise log Σ exp of the entries of ``LW`` where ``mask`` (−inf for an empty row)."""
    return logsumexp(np.where(mask, LW, -np.inf), axis=1)


def _half(trace, t: int, share: float, alive: np.ndarray, right: np.ndarray) -> tuple[str, float]:
    """The share against ½ (decided exactly within 10⁻⁹ of it), and the float share put on that side of ½."""
    if abs(share - 0.5) > HALF_MARGIN:
        return ("<" if share < 0.5 else ">"), share
    rel = {1: "<", 0: "=", -1: ">"}[_exact_half(trace, t, alive, right)]
    if rel == "=":
        return rel, 0.5
    on_side = share != 0.5 and (share < 0.5) == (rel == "<")
    return rel, (share if on_side else math.nextafter(0.5, 0.0 if rel == "<" else 1.0))


def _text_if_lost(value: float, log_value: float) -> str | None:
    """The text of a positive number whose float is 0.0 (below the smallest float), from its logarithm."""
    return sci_text(log_value / math.log(10.0)) if value == 0.0 and log_value > -np.inf else None


def vote_shares(trace, right: np.ndarray, n: int) -> dict[str, list]:
    """Per round t < n (``right``: (n, N) the experts that say the label): the case (``empty``, ``right``,
    ``zero``, ``share``), the experts wrong and those of them holding weight, the share of the weight they hold
    (None when every weight is 0), its text when the float underflows, the others' share (``rest``, ``rest_tiny``),
    the share's relation to ½, and |Hₜ| (weights > 0)."""
    LW = np.array([trace.log_weights_at(t) for t in range(n)], dtype=np.float64).reshape(n, right.shape[1])
    alive = LW > -np.inf
    held, others = ~right & alive, right & alive
    with np.errstate(invalid="ignore"):
        lse_alive = _masked_lse(LW, alive)
        log_share = np.minimum(0.0, _masked_lse(LW, held) - lse_alive)
        log_rest = np.minimum(0.0, _masked_lse(LW, others) - lse_alive)
    case = np.where(~alive.any(axis=1), "empty", np.where(right.all(axis=1), "right",
                                                          np.where(~held.any(axis=1), "zero", "share")))
    out: dict[str, list] = {"case": case.tolist(), "nwrong": (~right).sum(axis=1).tolist(),
                            "held": held.sum(axis=1).tolist(), "alive": alive.sum(axis=1).tolist(),
                            "share": [None] * n, "tiny": [None] * n, "rest": [None] * n, "rest_tiny": [None] * n,
                            "rel": [None] * n}
    for t in np.flatnonzero(case != "empty").tolist():
        if case[t] != "share":
            out["share"][t], out["rel"][t] = 0.0, "<"
            continue
        share, rest = math.exp(log_share[t]), math.exp(log_rest[t])
        out["tiny"][t], out["rest_tiny"][t] = _text_if_lost(share, log_share[t]), _text_if_lost(rest, log_rest[t])
        out["rel"][t], out["share"][t] = _half(trace, t, share, alive[t], right[t])
        out["rest"][t] = rest
    return out


def experts_options(trace, X, y, alg: str) -> dict[str, Any] | None:
    """The options for Weighted Majority or Halving on ±1 advice (``alg`` "wm" / "halving"): will the vote err?
    ``answer`` "none" / "mistake" from ``trace.mistakes``; the reveal's case and share from :func:`vote_shares`.
    For RWM (``alg`` "rwm": its prediction is drawn at random, so "mistake or not?" has no answer before the
    draw) :func:`rwm_options`' question."""
    if alg == "rwm":
        return rwm_options(trace, X, y)
    if alg not in ("wm", "halving"):
        return None
    n = rounds(trace)
    out = common(trace, n)
    lab = np.asarray(y[:n], dtype=np.float64).astype(int)
    right = _right(np.asarray(X)[:n], lab)
    whose = "of the weight" if alg == "wm" else "of the version space"
    out.update(kind="experts", alg=alg, whose=whose, label=lab.tolist(), N=int(right.shape[1]),
               agree=right.sum(axis=1).astype(int).tolist(), beta=float(trace.info.get("beta", 0.0)),
               answer=np.where(np.asarray(out["mistake"], dtype=bool), "mistake", "none").tolist(),
               cover=dict(EXPERTS_COVER), **vote_shares(trace, right, n))
    out["wrong"] = out["share"]
    if right.shape[1] <= MAX_NAMED:   # which experts say the label, by number (1-based), when they fit in a line
        out["says"] = [(np.flatnonzero(a) + 1).tolist() for a in right]
    return out


def rwm_options(trace, X, y) -> dict[str, Any]:
    """The options for Randomised Weighted Majority: its prediction is drawn, so "mistake or not?" has no answer
    before the draw; the question is its chance of a mistake — the share of the weight on the wrong experts, whose
    weights the round multiplies by β = 1 − η; with every weight 0 (η = 1) no expert can be drawn, the learner
    predicts +1, and the chance is 1 when y = −1, else 0. ``answer``: "zero" (the chance is exactly 0), "low"
    (below ½), "high" (½ or more), decided from the log weights (:func:`vote_shares`); the reveal adds the draw
    (``chosen``, 1-based; 0 when no expert could be drawn) and whether it erred."""
    n = rounds(trace)
    out = common(trace, n)
    lab = np.asarray(y[:n], dtype=np.float64).astype(int)
    right = _right(np.asarray(X)[:n], lab)
    v = vote_shares(trace, right, n)
    answer = []
    for case, rel, yt in zip(v["case"], v["rel"], lab.tolist()):
        if case == "empty":
            answer.append("high" if yt < 0 else "zero")
        elif case in ("right", "zero"):
            answer.append("zero")
        else:
            answer.append("low" if rel == "<" else "high")
    out.update(kind="rwm", label=lab.tolist(), N=int(right.shape[1]), agree=right.sum(axis=1).astype(int).tolist(),
               eta=float(trace.info["eta"]), beta=float(trace.info["beta"]),
               chosen=(np.asarray(trace.columns["chosen_expert"][:n]) + 1).tolist(),
               pred=np.asarray(trace.predictions[:n], dtype=np.int64).tolist(), answer=answer,
               cover=dict(EXPERTS_COVER), **v)
    out["wrong"] = out["share"]
    if right.shape[1] <= MAX_NAMED:
        out["says"] = [(np.flatnonzero(a) + 1).tolist() for a in right]
    return out
