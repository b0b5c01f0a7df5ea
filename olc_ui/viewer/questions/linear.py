"""Predict-then-reveal options for the linear learners: the Margin Perceptron (update or not, and which
kind), Winnow (no update, a promotion or a demotion), the exponentiated update (mistake or not, and which
weights grow) and the randomised FTRL classifier (is its probability of the right label above ½?).

Every ``answer`` is the run's: the Margin Perceptron's ``kind`` column, Winnow's mistake flags with the label
(and w·x against N as the core decided it, exactly on near-ties), the exponentiated update's mistake flags and
how each weight moved at the update (``olc_core.learners.normalized_winnow.weight_moves``: the log weights
before and after, near-ties in exact arithmetic), FTRL's ``p`` column.
"""
from __future__ import annotations

import math
from typing import Any

import numpy as np
from olc_core._exact.powers import exact_compare
from olc_core._support.numeric import logsumexp
from olc_core.learners.normalized_winnow import weight_moves

from olc_ui.viewer.questions.base import MAX_NAMED, common, named, rounds, sci_text, state_before

__all__ = ["eg_options", "ftrl_options", "margin_perceptron_options", "winnow_options"]

#: the Margin Perceptron's round kinds (olc_core.learners.margin_perceptron: CORRECT, MARGIN_MISTAKE, MISTAKE, INIT)
MARGIN_ANSWERS = ("none", "band", "mistake", "init")


def _finite(a) -> list:
    a = np.asarray(a, dtype=np.float64)
    return [float(v) if np.isfinite(v) else None for v in a]


def margin_perceptron_options(trace, figure: str = "main") -> dict[str, Any] | None:
    """The options for a 2-D Margin Perceptron run (rounds are presentations: the examples as the run saw them,
    normalised to ‖x‖ = 1, ring on ``figure``). ``answer``: "init" (w = 0: w becomes y·x), "none" (y·s ≥ γ/2),
    "band" (|s| < γ/2: a margin mistake; also when w = 0, where s is taken as 0: ``wzero``) or "mistake"
    (y·s ≤ −γ/2), from the run's ``kind`` column."""
    ex = np.asarray(trace.columns["example"])
    X = np.asarray(trace.info["examples"], dtype=np.float64)
    if X.ndim != 2 or X.shape[1] != 2:
        return None
    n = rounds(trace)
    out = common(trace, n)
    ex = ex[:n]
    kind = np.asarray(trace.columns["kind"][:n], dtype=np.int64)
    wzero = state_before(trace, n, lambda w: float(not np.any(w))).astype(int)   # s is taken as 0 when w = 0
    out.update(kind="margin", figure=figure, px=X[ex, 0].tolist(), py=X[ex, 1].tolist(), wzero=wzero.tolist(),
               label=np.asarray(trace.info["labels"], dtype=np.float64)[ex].astype(int).tolist(),
               score=_finite(trace.columns["score"][:n]), gamma=float(trace.info["gamma"]),
               example=(ex + 1).tolist(), answer=[MARGIN_ANSWERS[k] for k in kind])
    return out


def winnow_options(trace, X, y) -> dict[str, Any]:
    """The options for a Winnow run on 0/1 data: ``answer`` "none", "promote" (a mistake on y = 1: the active
    weights ×(1+β)) or "demote" (y = 0: ÷(1+β)); ``score`` is the run's w·x, ``N`` its threshold and ``rel`` w·x
    against N (">", "=", "<") as the core decided it — exactly on the rounds it decided exactly
    (``exact_decision``: the tie w·x = N is told from "<" here, :func:`olc_core._exact.powers.exact_compare`);
    ``big``: the text of a w·x too small or too large for a float (from the log weights)."""
    n = rounds(trace)
    out = common(trace, n)
    X = np.asarray(X)[:n] != 0
    lab = np.asarray(y[:n], dtype=np.float64).astype(int)
    mis = np.asarray(out["mistake"], dtype=bool)
    pred = np.asarray(trace.predictions[:n], dtype=np.int64)
    N = int(X.shape[1])
    rel = np.where(pred == 1, ">", "<").astype(object)
    base = trace.info["base_fraction"]
    for t in np.flatnonzero(np.asarray(trace.columns["exact_decision"][:n]) & (pred == 0)).tolist():
        k = np.asarray(trace.history.raw_at(t), dtype=np.int64)[X[t]]
        rel[t] = "=" if exact_compare(k, base.numerator, base.denominator, N) == 0 else "<"
    score = np.asarray(trace.columns["score"][:n], dtype=np.float64)
    big: list = [None] * n
    for t in np.flatnonzero(X.any(axis=1) & ~((score >= 1e-300) & (score < np.inf))).tolist():
        ls = logsumexp(trace.log_weights_at(t)[X[t]])   # w·x beyond a float (or lost in the run's shifted sum)
        big[t] = sci_text(ls / math.log(10.0))
    answer = np.where(~mis, "none", np.where(lab == 1, "promote", "demote"))
    out.update(kind="winnow", label=lab.tolist(), N=N, base=float(trace.base),
               active=X.sum(axis=1).astype(int).tolist(), score=_finite(score), rel=rel.tolist(),
               pred=pred.tolist(), answer=answer.tolist())
    if any(b is not None for b in big):
        out["big"] = big
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


#: the exponentiated update at a mistake: the weights that grow (G) against those with y·xᵢ > 0 (P). G = {y·xᵢ > θ}
#: and P = {y·xᵢ > 0} with θ = ln Zₜ/η, so one contains the other: "exact" (G = P: always on ±1 features), "fewer"
#: (G ⊊ P: θ > 0 and some 0 < y·xᵢ ≤ θ), "more" (G ⊋ P: θ < 0 and some θ < y·xᵢ ≤ 0)
EG_ANSWERS = ("exact", "fewer", "more")


def _eg_answer(grew: np.ndarray, plus: np.ndarray) -> str:
    if np.array_equal(grew, plus):
        return "exact"
    if not (grew & ~plus).any():
        return "fewer"
    if (plus & ~grew).any():  # G = {y·xᵢ > θ} and P = {y·xᵢ > 0} are nested: cannot happen
        raise AssertionError("the weights that grew and those with y·xᵢ > 0 are not nested")
    return "more"


def _theta_between(m, yx: np.ndarray) -> float | None:
    """θ = ln Z/η of a mistake as a float on the same side of every y·xᵢ of the row as the exact θ: equal to the
    value of the weights that stayed, above those that shrank, below those that grew (a float θ within rounding
    of one of them is moved just past it), so that "wᵢ grows iff y·xᵢ > θ" holds of the printed θ too."""
    if m.theta_sign == 0:
        return 0.0
    if (m.moves == 0).any():
        return float(yx[m.moves == 0][0])
    th = m.theta
    if th is None:
        return None
    if (m.moves < 0).any() and th <= (lo := float(yx[m.moves < 0].max())):
        th = math.nextafter(lo, math.inf)
    if (m.moves > 0).any() and th >= (hi := float(yx[m.moves > 0].min())):
        th = math.nextafter(hi, -math.inf)
    return th if (th > 0) == (m.theta_sign > 0) else None


def eg_options(trace, X, y) -> dict[str, Any]:
    """The options for an exponentiated-update (normalised Winnow) run: ``answer`` "none" or, at a mistake (every
    wᵢ ×e^{η·y·xᵢ}/Z, so wᵢ grows iff y·xᵢ > θ = ln Z/η), how the weights that grew compare with those with
    y·xᵢ > 0 (:data:`EG_ANSWERS`), from how each weight moved in the run
    (:func:`olc_core.learners.normalized_winnow.weight_moves`); per mistake ``up`` / ``same`` / ``down`` (the
    weights that grew, stayed, shrank), ``theta`` (:func:`_theta_between`; None where its float has not the exact
    sign ``theta_sign``)
    and, when N ≤ 12, the features that grew (``grew``)."""
    n = rounds(trace)
    out = common(trace, n)
    X = np.asarray(X, dtype=np.float64)[:n]
    lab = np.asarray(y[:n], dtype=np.float64).astype(int)
    N = int(X.shape[1])
    positive = lab[:, None] * X > 0
    answer = ["none"] * n
    up, same, down = [0] * n, [0] * n, [0] * n
    theta, theta_sign, grew = [None] * n, [0] * n, [None] * n
    below, above = [None] * n, [None] * n        # the largest y·xᵢ that shrank, the smallest that grew
    for m in weight_moves(trace, X, lab, upto=n):
        t, g = m.t, m.moves > 0
        answer[t] = _eg_answer(g, positive[t])
        up[t], same[t], down[t] = int(g.sum()), int((m.moves == 0).sum()), int((m.moves < 0).sum())
        yx = lab[t] * X[t]
        theta[t], theta_sign[t] = _theta_between(m, yx), m.theta_sign
        below[t] = float(yx[m.moves < 0].max()) if (m.moves < 0).any() else None
        above[t] = float(yx[m.moves > 0].min()) if (m.moves > 0).any() else None
        if N <= MAX_NAMED:
            grew[t] = (np.flatnonzero(g) + 1).tolist()
    out.update(kind="eg", label=lab.tolist(), N=N, eta=float(trace.proof.constants["eta"]),
               score=_finite(trace.columns["score"][:n]), answer=answer,
               favoured=positive.sum(axis=1).astype(int).tolist(), up=up, same=same, down=down, theta=theta,
               theta_sign=theta_sign, theta_below=below, theta_above=above)
    if N <= MAX_NAMED:
        out["grew"] = grew
        out["plus"] = named(positive)
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
