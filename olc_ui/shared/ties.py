"""A score of exactly 0: the convention each page's learner uses, with its source in the notes, and what it did
in the run on the page (issue 32 §4).

The notes differ on the Perceptron's tie. [003] §2.1 (like [000] §3 and [001], which predict sign(w·x)) counts
a round as a mistake iff ``yₜ⟨wₜ, xₜ⟩ ≤ 0``: a score of 0 is no label, a mistake whatever the label. [004] §1
predicts + iff ``w·x > 0``: a score of 0 predicts −, a mistake only on a positive label. The core uses [003]'s
(olc_core/learners/perceptron.py; the exponentiated update too, olc_core/learners/normalized_winnow.py, from
[003] §2.2). Either keeps the mistake bound: an update happens only on a round with ``yₜ⟨wₜ, xₜ⟩ ≤ 0``.

:func:`zero_note` says, from a run's scores and labels, on which rounds the score was exactly 0 and whether
[004]'s rule would have given the same run (it does when every such round has yₜ = +1).
"""
from __future__ import annotations

import numpy as np

from olc_core._support.words import count

from olc_ui.shared.spec_tools import rounds_text

__all__ = ["PERCEPTRON_RULE", "zero_rounds", "zero_note"]

#: The Perceptron's tie convention with its sources (plain text; shown where a page decides on a score of 0)
PERCEPTRON_RULE = ("a score ⟨wₜ, xₜ⟩ = 0 counts as a mistake whatever the label (ŷₜ = sign 0 is no label: "
                   "a mistake iff yₜ⟨wₜ, xₜ⟩ ≤ 0, as in [003] §2.1); [004] §1 predicts + iff w·x > 0 instead, "
                   "so there a score of 0 is a mistake only when yₜ = +1")


def zero_rounds(score) -> np.ndarray:
    """The 0-based rounds whose score is exactly 0 (the core decides ties exactly and records them as 0.0)."""
    return np.flatnonzero(np.asarray(score, dtype=float) == 0.0)


def zero_note(score, y, learner: str = "the Perceptron") -> str:
    """What the tie convention did in this run, with its rounds: a sentence (plain text)."""
    z = zero_rounds(score)
    if not z.size:
        return f"In this run {learner} never scored exactly 0."
    yz = np.asarray(y, dtype=float)[z]
    n = int(z.size)
    head = (f"In this run {learner} scored exactly ⟨wₜ, xₜ⟩ = 0 "
            + (f"on round {int(z[0]) + 1}, counted as a mistake" if n == 1 else
               f"on {count(n, 'round')} ({rounds_text(z)}), each counted as a mistake"))
    neg = z[yz < 0]
    if not neg.size:
        return (head + f"; {'its label was' if n == 1 else 'each had the label'} yₜ = +1, so [004]'s "
                "rule errs there too and gives the same run.")
    return (head + f"; round {int(neg[0]) + 1} has yₜ = −1, where [004]'s rule predicts − and makes no mistake, so "
            "under [004]'s rule the run would differ from that round on.")
