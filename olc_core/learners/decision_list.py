"""Learning a decision list with the level algorithm, in the mistake-bound model [004] §2.2.

``x ∈ {0,1}^n``, ``y ∈ {0,1}``. The learner keeps the 4n+2 rules
``x_1→1, x_1→0, ¬x_1→1, ¬x_1→0, …, ¬x_n→0, True→1, True→0`` (rule r has the
condition literal ``r // 2`` and output ``1 − r % 2``; the names come from
:func:`olc_core.proofs.boolean.rule_names`), each on a level; all start on level 1.
The state (the trace's weights, ``trace.d = 4n+2``) is the level of each rule.

* Predict: take the first level that holds a rule whose condition is true in x
  (True→1 and True→0 always fire, so there is one) and read the prediction from
  its firing rules by the fixed **tie rule** (parameter ``tie``):
  ``"first"`` (default) — the firing rule that comes first in the order above
  (the notes' "select some rule that fires"); ``"majority"`` — the majority output
  of the level's firing rules, a tie predicting 1.
* On a mistake: every rule of that level that fired and predicted wrongly moves
  to the next level (so at least the rule read moves). Nothing else changes.

Both tie rules reproduce the notes' example (n = 2; 01 then 00: predict 1, then 0).

The proof (:func:`olc_core.proofs.boolean.decision_list_proof`):
``M ≤ Φ_t = Σ_r (level_r − 1) ≤ Σ_r (cap_r − 1) ≤ (4n+2)·L ≤ (4n+2)(L+1)``, L the
target's number of rules counting the final True→B_L; the target is the
caller's ``comparator`` or, when absent, one found by Rivest's greedy algorithm.

Columns: ``level`` (the predicting level) and ``rule`` (the rule the prediction
was read from; for "majority", the first firing rule of that level with the
majority output). :func:`level_contents`, :func:`levels_at` and :func:`fallen`
give what a page needs to draw the levels and the rules falling.

>>> import numpy as np, olc_core
>>> X = np.array([[0, 1], [0, 0]]); y = np.array([0, 1])       # the notes' example
>>> tr = olc_core.run("decision_list", X, y, comparator=[("x1", 0), ("¬x2", 1), (True, 0)])
>>> tr.predictions.tolist(), tr.mistakes.tolist()
([1, 0], [0, 1])
>>> [[rule_name(r, 2) for r in level] for level in levels_at(tr, 2)]
[['x1→1', 'x1→0', 'x2→0', '¬x2→1'], ['¬x1→1', '¬x1→0', 'x2→1', '¬x2→0', 'True→1', 'True→0']]
>>> tr.proof.mistake_bound, tr.proof.constants["bound_tight"], tr.proof.violations()
(40.0, 30, [])
"""
from __future__ import annotations

from typing import Any

import numpy as np

from .._support.numeric import Grow
from .._support.validate import as_labels, as_matrix, check_binary
from ..proofs import boolean as proofs
from ..proofs.boolean import rule_name, rule_names  # noqa: F401  (re-exported for pages)
from ..trace import SnapshotHistory, Trace

__all__ = ["run", "level_algorithm", "predict_block", "level_contents", "levels_at", "fallen", "rule_name",
           "rule_names"]

NAME = "decision_list"
_MAX_CELLS = 1 << 21


def predict_block(B: np.ndarray, lv: np.ndarray, tie: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Predictions, predicting levels and rules read for the examples ``B`` (bool, rows) under levels ``lv``."""
    m, n = B.shape
    R = 4 * n + 2
    lv = np.asarray(lv, dtype=np.int64)
    if tie == "first":
        key = lv * R + np.arange(R)
        kl = np.minimum(key[0::2], key[1::2])          # per literal j = 0 … 2n (2n: True)
        kx = np.where(B, kl[0:2 * n:2], kl[1:2 * n:2])  # the true literal of each variable
        kmin = np.minimum(kx.min(axis=1), kl[2 * n]) if n else np.full(m, kl[0])
        rule = kmin % R
        level = kmin // R
        pred = (1 - rule % 2).astype(np.int8)
        return pred, level, rule
    # majority of the firing rules of the first firing level; a tie predicts 1
    l1, l0 = lv[0::2], lv[1::2]                          # per literal: level of its →1 and →0 rules
    ll = np.minimum(l1, l0)
    lx = np.where(B, ll[0:2 * n:2], ll[1:2 * n:2])
    level = np.minimum(lx.min(axis=1), ll[2 * n])
    a1 = np.where(B, l1[0:2 * n:2], l1[1:2 * n:2]) == level[:, None]
    a0 = np.where(B, l0[0:2 * n:2], l0[1:2 * n:2]) == level[:, None]
    t1 = l1[2 * n] == level
    t0 = l0[2 * n] == level
    v1 = a1.sum(axis=1) + t1
    v0 = a0.sum(axis=1) + t0
    pred = (v1 >= v0).astype(np.int8)
    # the first firing rule of that level with the predicted output
    j = 2 * np.arange(n) + (~B)                          # literal index of the true literal per variable
    big = np.int64(R)
    r1 = np.where(a1, 2 * j, big).min(axis=1, initial=big)
    r1 = np.minimum(r1, np.where(t1, 4 * n, big))
    r0 = np.where(a0, 2 * j + 1, big).min(axis=1, initial=big)
    r0 = np.minimum(r0, np.where(t0, 4 * n + 1, big))
    rule = np.where(pred == 1, r1, r0)
    return pred, level, rule


def level_algorithm(X: np.ndarray, y: np.ndarray, tie: str):
    """The level algorithm: predictions, levels and rules read per round, mistakes, levels after each mistake."""
    T, n = X.shape
    R = 4 * n + 2
    lv = np.ones(R, dtype=np.int64)
    out = 1 - (np.arange(R) % 2)
    pred = np.empty(T, dtype=np.int8)
    level = np.empty(T, dtype=np.int64)
    rule = np.empty(T, dtype=np.int64)
    mis = Grow((), np.int64)
    snaps = Grow((R,), np.int32)   # levels ≤ M + 1: 4 bytes per rule per mistake
    cap = max(16, _MAX_CELLS // max(n, 1))
    t, B = 0, 64
    while t < T:
        e = min(T, t + B)
        p, lev, r = predict_block(X[t:e] != 0.0, lv, tie)
        pred[t:e], level[t:e], rule[t:e] = p, lev, r
        bad = np.flatnonzero(p != y[t:e])
        if bad.size == 0:
            t, B = e, min(2 * B, cap)
            continue
        i = t + int(bad[0])
        fires = np.repeat(proofs.literal_truth(X[i]), 2)
        move = fires & (lv == level[i]) & (out != int(y[i]))
        lv = lv + move
        mis.append(i)
        snaps.append(lv)
        B = int(min(cap, max(16, 2 * int(bad[0]) + 16)))
        t = i + 1
    return pred, level, rule, mis.array().copy(), snaps.array().copy()


def level_contents(levels: np.ndarray) -> list[np.ndarray]:
    """Rule indices on each level 1, 2, … (in the canonical order), from a vector of levels."""
    lv = np.asarray(levels).astype(np.int64)
    return [np.flatnonzero(lv == k) for k in range(1, int(lv.max()) + 1)]


def levels_at(trace: Trace, t: int) -> list[np.ndarray]:
    """The hypothesis before round ``t``: rule indices on each level (name them with :func:`rule_name`)."""
    return level_contents(trace.weights_at(t))


def fallen(trace: Trace, k: int) -> tuple[int, int, np.ndarray]:
    """The k-th mistake (0-based): its round, the level the rules fell from, and the rules that fell."""
    t = int(trace.mistakes[k])
    before, after = trace.weights_at(t), trace.weights_at(t + 1)
    moved = np.flatnonzero(after != before)
    return t, int(trace.columns["level"][t]), moved


def run(X, y, params: dict[str, Any]) -> Trace:
    X = as_matrix(X, NAME)
    T, n = X.shape
    y = as_labels(y, "01", T, NAME)
    check_binary(X, NAME)
    tie = params["tie"]
    target, cinfo, assumptions = proofs.resolve_decision_list(X, y, params["comparator"], NAME)
    pred, level, rule, mistakes, S = level_algorithm(X, y, tie)
    R = 4 * n + 2
    info = dict(cinfo, n=n, rules=proofs.rule_names(n), tie=tie)
    proof = proofs.decision_list_proof(T=T, n=n, mistakes=mistakes, S=S, target=target, assumptions=assumptions,
                                       info=cinfo, tie=tie)
    return Trace(algorithm=NAME, params=params, T=T, d=R, mistakes=mistakes, predictions=pred,
                 history=SnapshotHistory(np.ones(R, dtype=np.int32), mistakes, S), weight_kind="linear",
                 columns={"level": level, "rule": rule}, proofs={"levels": proof}, primary="levels", info=info)
