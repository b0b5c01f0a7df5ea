"""Predict, then reveal: the class answers a question about each round before it is drawn.

A viewer mode (assets/viewer_predict.js, docs/viewer-spec.md "Modes"): with it on, stepping
forward first shows round t's example with its label and the learner as it stands before
the round (the hyperplane and x_t on the Perceptron's chart; the weights and the advice on
the experts' page), asks the question, and draws the update only after the answer; a tally
counts the right answers. Each kind's keys are on its buttons (the Perceptron: N no mistake, A / C a mistake
that turns w anticlockwise / clockwise, L one that keeps w on its line through 0; M mistake while w = 0).
Everything runs in the browser.

Every learner's page has its question (docs/viewer-spec.md "Predict, then reveal"), built from the core's run
in olc_ui/viewer/questions/ — the Perceptron (``perceptron``: how w moves, decided exactly from the run's
weights), Weighted Majority, Halving on advice and Randomised WM (``experts``: the wrong experts' share from
the log weights), the Margin Perceptron, Winnow, the exponentiated update, randomised FTRL (``linear``), Halving's
own page and the conjunction / decision-list learners (``discrete``) — and re-exported from here
(``predict.<kind>_options``). Every answer is the run's; at most :data:`MAX_ROUNDS` rounds are asked about (the
page says so).
"""
from __future__ import annotations

from typing import Any

import streamlit as st

from olc_ui.viewer.questions.base import MAX_NAMED, MAX_ROUNDS
from olc_ui.viewer.questions.discrete import conjunction_options, decision_list_options, halving_options
from olc_ui.viewer.questions.experts import experts_options, rwm_options
from olc_ui.viewer.questions.linear import eg_options, ftrl_options, margin_perceptron_options, winnow_options
from olc_ui.viewer.questions.perceptron import perceptron_options
from olc_ui.viewer.spec import MODES_KEY

__all__ = ["MAX_NAMED", "MAX_ROUNDS", "conjunction_options", "decision_list_options",
           "eg_options", "experts_options", "ftrl_options", "halving_options", "margin_perceptron_options", "modes",
           "perceptron_options", "rwm_options", "winnow_options"]

def modes(options: dict[str, Any] | None) -> dict[str, Any]:
    """The viewer modes of this run: the page's (e.g. presentation mode's) plus predict-then-reveal."""
    base = dict(st.session_state.get(MODES_KEY) or {})
    if options is not None:
        base["predict"] = options
    return base
