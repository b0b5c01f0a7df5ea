"""Predict-then-reveal options for the set learners: Halving on its own page (how many hypotheses survive the
round), the conjunction learner (which literals leave h) and the decision-list learner (mistake or not; the rules
that fall). The learners on expert advice (Weighted Majority, Halving's advice, RWM) are in ``experts``.

Every ``answer`` is the run's: Halving's version-space sizes (``trace.weights_at``), the conjunction learner's
``false_literals`` column and predictions, the decision-list learner's mistakes and
``olc_core.learners.decision_list.fallen``.
"""
from __future__ import annotations

from typing import Any

import numpy as np
from olc_core.learners.decision_list import fallen
from olc_core.proofs.boolean import literal_truth, rule_name

from olc_ui.viewer.questions.base import MAX_NAMED, common, rounds, state_before

__all__ = ["conjunction_options", "decision_list_options", "halving_options"]

def halving_options(trace, y) -> dict[str, Any]:
    """The options for Halving: how many of the version space's |Hₜ| hypotheses survive the round. ``answer``:
    "all", "half" (at most half: a mistake keeps only the minority that was right) or "most" (more than half but
    not all: only when inconsistent hypotheses are removed on every round), from the run's |Hₜ| before and after
    (``version_space_size``; after the last round, ``trace.weights_at(T)``)."""
    n = rounds(trace)
    out = common(trace, n)
    full = np.asarray(trace.columns["version_space_size"], dtype=np.int64)
    size = full[:n]
    after = full[1:n + 1] if n < trace.T else np.append(full[1:], np.count_nonzero(trace.weights_at(int(trace.T))))
    vote = np.asarray(trace.columns["vote"][:n], dtype=np.float64)   # (n₊ − n₋)/|Hₜ| (0 when Hₜ is empty)
    plus = np.rint(size * (1.0 + vote) / 2.0).astype(np.int64)
    answer = np.where(after == size, "all", np.where(2 * after <= size, "half", "most"))
    out.update(kind="halving", label=np.asarray(y[:n], dtype=np.float64).astype(int).tolist(), size=size.tolist(),
               after=after.astype(np.int64).tolist(), plus=plus.tolist(), answer=answer.tolist())
    return out


def conjunction_options(trace, X, y) -> dict[str, Any]:
    """The options for the elimination learner: which literals leave h. ``answer``: "false" (a false negative,
    ŷ = 0 and y = 1: the literals of h false in x leave) or "none" (every other round; a false positive is a
    mistake without an update); ``false`` is the run's ``false_literals`` column, ``size`` |h| before the round."""
    n = rounds(trace)
    out = common(trace, n)
    X = np.asarray(X)[:n]
    lab = np.asarray(y[:n], dtype=np.float64).astype(int)
    pred = np.asarray(trace.predictions[:n], dtype=np.int64)
    size = state_before(trace, n, lambda w: float(np.count_nonzero(w))).astype(np.int64)
    fn = (pred == 0) & (lab == 1)
    out.update(kind="conj", label=lab.tolist(), pred=pred.tolist(), size=size.tolist(),
               false=np.asarray(trace.columns["false_literals"][:n], dtype=np.int64).tolist(),
               answer=np.where(fn, "false", "none").tolist())
    if X.shape[1] <= 2 * MAX_NAMED:
        out["x"] = ["".join("1" if v else "0" for v in row) for row in X]
    return out


def decision_list_options(trace, X, y) -> dict[str, Any]:
    """The options for the level algorithm: mistake or not (``answer`` "none" / "fall"); the reveal names the rule
    read (the run's ``rule`` and ``level`` columns; with the "majority" ``tie`` rule, a firing rule of the majority
    output) and, at a mistake, the rules that fell (``fallen``)."""
    n = rounds(trace)
    out = common(trace, n)
    X = np.asarray(X)[:n]
    nv = int(trace.info["n"])
    fell: list = [None] * n
    for k, t in enumerate(np.asarray(trace.mistakes, dtype=np.int64)):
        if t >= n:
            break
        fell[int(t)] = [rule_name(int(r), nv) for r in fallen(trace, k)[2]]
    out.update(kind="dl", label=np.asarray(y[:n], dtype=np.float64).astype(int).tolist(),
               pred=np.asarray(trace.predictions[:n], dtype=np.int64).tolist(),
               level=np.asarray(trace.columns["level"][:n], dtype=np.int64).tolist(),
               rule=[rule_name(int(r), nv) for r in np.asarray(trace.columns["rule"][:n])], fell=fell,
               tie=str(trace.info.get("tie", "first")),
               answer=np.where(np.asarray(out["mistake"], dtype=bool), "fall", "none").tolist())
    if out["tie"] == "majority":    # the predicting level's firing rules by output: [say 1, say 0] (a tie: 1)
        outputs = 1 - (np.arange(4 * nv + 2) % 2)
        lv_col = np.asarray(trace.columns["level"][:n], dtype=np.int64)
        votes = []
        for t in range(n):
            at = np.repeat(literal_truth(X[t]), 2) & (np.asarray(trace.weights_at(t)) == lv_col[t])
            votes.append([int(np.sum(at & (outputs == 1))), int(np.sum(at & (outputs == 0)))])
        out["votes"] = votes
    if X.shape[1] <= 2 * MAX_NAMED:
        out["x"] = ["".join("1" if v else "0" for v in row) for row in X]
    return out
