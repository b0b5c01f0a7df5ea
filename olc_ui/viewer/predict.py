"""Predict, then reveal: the class answers a question about each round before it is drawn.

A viewer mode (assets/viewer_predict.js, docs/viewer-spec.md "Modes"): with it on, stepping
forward first shows round t's example with its label and the learner as it stands before
the round (the hyperplane and x_t on the Perceptron's chart; the weights and the advice on
the experts' page), asks the question, and draws the update only after the answer; a tally
counts the right answers. Keys: N (no mistake), M (mistake), and on the Perceptron A / C
(a mistake that turns w anticlockwise / clockwise). Everything runs in the browser.

Every learner's page has its question (docs/viewer-spec.md "Predict, then reveal"): the Perceptron and
Weighted Majority / Halving on the experts page are built here; the Margin Perceptron, Winnow, the
exponentiated update, randomised FTRL (olc_ui/viewer/questions/linear.py), Randomised WM, Halving's own
page and the conjunction / decision-list learners (olc_ui/viewer/questions/discrete.py) next to it, and
re-exported from here (``predict.<kind>_options``).

This module builds the mode's options from the core's run — every answer is the run's:
``is_mistake`` per round, the score ⟨w, x⟩ (Perceptron), the share of the weight on the
wrong side (Weighted Majority's ``wrong_fraction``; Halving's from its ``vote``), and the
angle w turned through at each mistake (from ``trace.weights_at``). At most
:data:`MAX_ROUNDS` rounds are asked about (the page says so).
"""
from __future__ import annotations

from typing import Any

import numpy as np
import streamlit as st

from olc_ui.viewer.questions.base import MAX_NAMED, MAX_ROUNDS, common
from olc_ui.viewer.questions.discrete import (EXPERTS_COVER, conjunction_options, decision_list_options,
                                              halving_options, rwm_options)
from olc_ui.viewer.questions.linear import eg_options, ftrl_options, margin_perceptron_options, winnow_options
from olc_ui.viewer.spec import MODES_KEY

__all__ = ["MAX_NAMED", "MAX_ROUNDS", "conjunction_options", "decision_list_options",
           "eg_options", "experts_options", "ftrl_options", "halving_options", "margin_perceptron_options", "modes",
           "perceptron_options", "rwm_options", "turn_angles", "winnow_options"]

def modes(options: dict[str, Any] | None) -> dict[str, Any]:
    """The viewer modes of this run: the page's (e.g. presentation mode's) plus predict-then-reveal."""
    base = dict(st.session_state.get(MODES_KEY) or {})
    if options is not None:
        base["predict"] = options
    return base


def turn_angles(trace, rounds: np.ndarray) -> np.ndarray:
    """For each round in ``rounds`` (0-based mistakes): the signed angle, in degrees, w turns through at that
    update (+ anticlockwise); NaN where w was 0 before it (w *becomes* yₜxₜ: no turn to speak of)."""
    out = np.full(len(rounds), np.nan)
    for i, t in enumerate(np.asarray(rounds, dtype=np.int64)):
        a = np.asarray(trace.weights_at(int(t)), dtype=np.float64)
        b = np.asarray(trace.weights_at(int(t) + 1), dtype=np.float64)
        if not np.any(a):
            continue
        out[i] = np.degrees(np.arctan2(a[0] * b[1] - a[1] * b[0], a[0] * b[0] + a[1] * b[1]))
    return out


def zero_before(trace, n: int) -> np.ndarray:
    """Per round (0-based, the first ``n``): whether w = 0 before it (the weights change only at mistakes)."""
    m = np.asarray(trace.mistakes, dtype=np.int64)
    m = m[m < n]
    zero_after = np.array([not np.any(trace.weights_at(int(t) + 1)) for t in m], dtype=bool)
    k = np.searchsorted(m, np.arange(n), side="left")          # mistakes before each round
    return np.where(k == 0, not np.any(trace.weights_at(0)), zero_after[np.maximum(k - 1, 0)] if m.size else True)


def perceptron_options(trace, X, y, figure: str = "main") -> dict[str, Any] | None:
    """The mode's options for a 2-D Perceptron run (None in other dimensions: the chart is the question)."""
    X = np.asarray(X, dtype=np.float64)
    if X.ndim != 2 or X.shape[1] != 2:
        return None
    n = min(int(trace.T), MAX_ROUNDS)
    out = common(trace, n)
    m = np.asarray(trace.mistakes, dtype=np.int64)
    m = m[m < n]
    ang = np.full(n, np.nan)
    ang[m] = turn_angles(trace, m)
    turn = np.where(np.isnan(ang), 0, np.sign(ang)).astype(int)
    out.update(kind="perceptron", figure=figure, px=X[:n, 0].tolist(), py=X[:n, 1].tolist(),
               wzero=zero_before(trace, n).astype(int).tolist(),
               label=np.asarray(y[:n], dtype=np.float64).astype(int).tolist(),
               score=np.asarray(trace.columns["score"][:n], dtype=np.float64).tolist(),
               turn=turn.tolist(), angle=[None if np.isnan(a) else float(a) for a in ang])
    return out


def experts_options(trace, X, y, alg: str) -> dict[str, Any] | None:
    """The mode's options for Weighted Majority or Halving on ±1 advice; for RWM (``alg`` "rwm": its prediction is
    drawn at random, so "mistake or not?" has no answer before the draw) :func:`rwm_options`' question."""
    if alg == "rwm":
        return rwm_options(trace, X, y)
    if alg not in ("wm", "halving"):
        return None
    n = min(int(trace.T), MAX_ROUNDS)
    out = common(trace, n)
    X = np.asarray(X)[:n]
    lab = np.asarray(y[:n], dtype=np.float64).astype(int)
    if alg == "wm":
        wrong = np.asarray(trace.columns["wrong_fraction"][:n], dtype=np.float64)
        whose = "of the weight"
    else:   # Halving: vote = (n₊ − n₋)/n over the version space
        wrong = (1.0 - lab * np.asarray(trace.columns["vote"][:n], dtype=np.float64)) / 2.0
        whose = "of the version space"
    agree = X == lab[:, None]
    out.update(kind="experts", whose=whose, label=lab.tolist(), N=int(X.shape[1]),
               agree=agree.sum(axis=1).astype(int).tolist(), wrong=wrong.tolist(),
               cover=dict(EXPERTS_COVER))   # the charts that show later rounds, covered beyond the round on screen
    if X.shape[1] <= MAX_NAMED:   # which experts say the label, by number (1-based), when they fit in a line
        out["says"] = [(np.flatnonzero(a) + 1).tolist() for a in agree]
    return out
