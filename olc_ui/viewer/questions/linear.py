"""Predict-then-reveal options for the linear learners: the Margin Perceptron (update or not, and which
kind), Winnow (no update, a promotion or a demotion), the exponentiated update (mistake or not, and which
weights gain) and the randomised FTRL classifier (is its probability of the right label above ½?).

Every ``answer`` is the run's: the Margin Perceptron's ``kind`` column, Winnow's and the exponentiated
update's mistake flags with the label, FTRL's ``p`` column; the reveal's numbers are the run's columns and
weights (``trace.log_weights_at`` before and after each update).
"""
from __future__ import annotations

from typing import Any

import numpy as np

from olc_ui.viewer.questions.base import MAX_NAMED, common, named, rounds

__all__ = ["eg_options", "ftrl_options", "margin_perceptron_options", "winnow_options"]

#: the Margin Perceptron's round kinds (olc_core.learners.margin_perceptron: CORRECT, MARGIN_MISTAKE, MISTAKE, INIT)
MARGIN_ANSWERS = ("none", "band", "mistake", "init")


def _finite(a) -> list:
    a = np.asarray(a, dtype=np.float64)
    return [float(v) if np.isfinite(v) else None for v in a]


def margin_perceptron_options(trace, figure: str = "main") -> dict[str, Any] | None:
    """The options for a 2-D Margin Perceptron run (rounds are presentations: the examples as the run saw them,
    normalised to ‖x‖ = 1, ring on ``figure``). ``answer``: "init" (w = 0: w becomes y·x), "none" (y·s ≥ γ/2),
    "band" (|s| < γ/2: a margin mistake) or "mistake" (y·s ≤ −γ/2), from the run's ``kind`` column."""
    ex = np.asarray(trace.columns["example"])
    X = np.asarray(trace.info["examples"], dtype=np.float64)
    if X.ndim != 2 or X.shape[1] != 2:
        return None
    n = rounds(trace)
    out = common(trace, n)
    ex = ex[:n]
    kind = np.asarray(trace.columns["kind"][:n], dtype=np.int64)
    out.update(kind="margin", figure=figure, px=X[ex, 0].tolist(), py=X[ex, 1].tolist(),
               label=np.asarray(trace.info["labels"], dtype=np.float64)[ex].astype(int).tolist(),
               score=_finite(trace.columns["score"][:n]), gamma=float(trace.info["gamma"]),
               example=(ex + 1).tolist(), answer=[MARGIN_ANSWERS[k] for k in kind])
    return out


def winnow_options(trace, X, y) -> dict[str, Any]:
    """The options for a Winnow run on 0/1 data: ``answer`` "none", "promote" (a mistake on y = 1: the active
    weights ×(1+β)) or "demote" (y = 0: ÷(1+β)); ``score`` is the run's w·x, ``N`` its threshold."""
    n = rounds(trace)
    out = common(trace, n)
    X = np.asarray(X)[:n] != 0
    lab = np.asarray(y[:n], dtype=np.float64).astype(int)
    mis = np.asarray(out["mistake"], dtype=bool)
    answer = np.where(~mis, "none", np.where(lab == 1, "promote", "demote"))
    out.update(kind="winnow", label=lab.tolist(), N=int(X.shape[1]), base=float(trace.base),
               active=X.sum(axis=1).astype(int).tolist(), score=_finite(trace.columns["score"][:n]),
               pred=np.asarray(trace.predictions[:n], dtype=np.int64).tolist(), answer=answer.tolist())
    if (on := named_rows(X)) is not None:
        out["on"] = on
    return out


def named_rows(mask: np.ndarray) -> list | None:
    """Per row: the 1-based items set when the row has at most MAX_NAMED of them, else None (one list)."""
    mask = np.asarray(mask, dtype=bool)
    if mask.shape[1] <= MAX_NAMED:
        return named(mask)
    rows = [(np.flatnonzero(r) + 1).tolist() if r.sum() <= MAX_NAMED else None for r in mask]
    return rows if any(r is not None for r in rows) else None


def eg_options(trace, X, y) -> dict[str, Any]:
    """The options for an exponentiated-update (normalised Winnow) run: ``answer`` "none" or "gain" (a mistake:
    every wᵢ is multiplied by e^{η·y·xᵢ} and renormalised, so the weights with y·xᵢ > 0 gain on the others);
    per mistake the features whose weight grew / shrank in absolute terms (from the run's log weights)."""
    n = rounds(trace)
    out = common(trace, n)
    X = np.asarray(X, dtype=np.float64)[:n]
    lab = np.asarray(y[:n], dtype=np.float64).astype(int)
    N = int(X.shape[1])
    up = np.zeros(n, dtype=np.int64)
    down = np.zeros(n, dtype=np.int64)
    grew: list = [None] * n
    for t in np.asarray(trace.mistakes, dtype=np.int64):
        if t >= n:
            break
        a = np.asarray(trace.log_weights_at(int(t)), dtype=np.float64)
        b = np.asarray(trace.log_weights_at(int(t) + 1), dtype=np.float64)
        up[t], down[t] = int((b > a).sum()), int((b < a).sum())
        if N <= MAX_NAMED:
            grew[t] = (np.flatnonzero(b > a) + 1).tolist()
    mis = np.asarray(out["mistake"], dtype=bool)
    out.update(kind="eg", label=lab.tolist(), N=N, eta=float(trace.proof.constants["eta"]),
               score=_finite(trace.columns["score"][:n]), answer=np.where(mis, "gain", "none").tolist(),
               favoured=(lab[:, None] * X > 0).sum(axis=1).astype(int).tolist(), up=up.tolist(), down=down.tolist())
    if N <= MAX_NAMED:
        out["grew"] = grew
        out["plus"] = named(lab[:, None] * X > 0)
    return out


def ftrl_options(trace, X, y, figure: str = "plane") -> dict[str, Any]:
    """The options for a randomised FTRL run: ``answer`` "above" / "half" / "below" — the learner's probability
    of the right label, (1 + y·⟨w, x⟩)/2, against ½ (the sign of y·p from the run's ``p`` column), known before
    the coin flip; the reveal adds the flip (the run's prediction). In 2-D the example is ringed on ``figure``."""
    n = rounds(trace)
    out = common(trace, n)
    X = np.asarray(X, dtype=np.float64)[:n]
    lab = np.asarray(y[:n], dtype=np.float64).astype(int)
    p = np.asarray(trace.columns["p"][:n], dtype=np.float64)
    yp = lab * p
    out.update(kind="ftrl", label=lab.tolist(), score=p.tolist(), pright=((1.0 + yp) / 2.0).tolist(),
               pred=np.asarray(trace.predictions[:n], dtype=np.int64).tolist(),
               answer=np.where(yp > 0, "above", np.where(yp < 0, "below", "half")).tolist(),
               # the realised mistakes and the regret are drawn for every round (x = rounds so far): covered
               # beyond the round on screen, so that they do not tell the coin flip ahead of the reveal
               cover={"mistakes": 0.0, "regret": 0.0})
    if X.shape[1] == 2:
        out.update(figure=figure, px=X[:, 0].tolist(), py=X[:, 1].tolist())
    return out
