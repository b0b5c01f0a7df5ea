"""Learning a conjunction by elimination, in the mistake-bound model [004] §2.1.

``x ∈ {0,1}^n``, ``y ∈ {0,1}``. The hypothesis h is a set of literals, stored as a
0/1 vector over the 2n literals in the notes' order ``x_1, ¬x_1, …, x_n, ¬x_n``
(these are the trace's weights, so ``trace.d = 2n``). h starts with all 2n
literals, so ``h(x) = 0`` for every x. Predict ``ŷ = h(x)`` (1 iff every literal
of h is true in x).

* False negative (ŷ = 0, y = 1): remove from h the literals false in x.
* False positive (ŷ = 1, y = 0): "no consistent conjunction" — h is the most
  specific conjunction true on every positive example so far, so every
  conjunction that labels those positives 1 labels x 1 too. This is recorded,
  not raised: the round goes into ``trace.info["no_consistent_conjunction_rounds"]``
  (and ``columns["false_positive"]``), and the proof's assumption "consistent"
  fails there. Afterwards the learner **keeps predicting with h, still removes
  literals on false negatives, and never updates on a false positive** (a false
  positive is a mistake without a weight change; the learner is conservative).

The proof (:func:`olc_core.proofs.boolean.conjunction_proof`) uses the caller's
``comparator`` (a target conjunction) or, when absent, the most specific
consistent conjunction (the literals true in every positive example).
Sandwich: ``|c| ≤ |h_t| ≤ 2n − n·[M⁺ ≥ 1] − (M⁺ − 1)₊`` (M⁺: false negatives),
``M = M⁺`` when the labels are a conjunction's, hence ``M ≤ n + 1 − |c| ≤ n + 1``.

The run records the number of literals of h false in each x_t
(``columns["false_literals"]``; ŷ = 1 iff it is 0) and h after each false
negative (at most n + 1 of them, whatever the data).

>>> import numpy as np, olc_core
>>> X = np.array([[1, 0, 0, 1], [1, 1, 0, 1], [0, 1, 0, 1]]); y = np.array([1, 1, 0])
>>> tr = olc_core.run("conjunction", X, y)
>>> tr.mistakes.tolist(), tr.predictions.tolist()
([0, 1], [0, 0, 0])
>>> tr.weights_at(1).astype(int).tolist()          # [004]: first mistake on 1001 leaves x1 ¬x2 ¬x3 x4
[1, 0, 0, 1, 0, 1, 1, 0]
>>> str(tr.proof.constants["target"]), tr.proof.mistake_bound, tr.proof.violations()
('x1 ∧ ¬x3 ∧ x4', 5.0, [])
"""
from __future__ import annotations

from typing import Any

import numpy as np

from .._support.numeric import Grow
from .._support.validate import as_labels, as_matrix, check_binary
from ..proofs import boolean as proofs
from ..trace import SnapshotHistory, Trace

__all__ = ["run", "elimination", "hypothesis_literals"]

NAME = "conjunction"

#: rows per block: the block's X @ v costs block × n
_MAX_CELLS = 1 << 22


def elimination(X: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The elimination loop: ``false_literals`` per round, the false-negative rounds, h after each.

    While h is fixed, the number of h's literals false in x is
    ``Σ_{x_i ∈ h} (1 − x_i) + Σ_{¬x_i ∈ h} x_i = |h ∩ {x_i}| + x·(neg − pos)``,
    computed for a block of upcoming rounds at once (exact: small integers).
    """
    T, n = X.shape
    h = np.ones(2 * n, dtype=np.int8)
    false_lits = np.empty(T, dtype=np.int64)
    fn_rounds = Grow((), np.int64)
    snaps = Grow((2 * n,), np.int8)
    cap = max(64, _MAX_CELLS // max(n, 1))
    t, B = 0, 64
    while t < T:
        e = min(T, t + B)
        pos = h[0::2].astype(np.float64)
        neg = h[1::2].astype(np.float64)
        cnt = X[t:e] @ (neg - pos) + pos.sum()
        false_lits[t:e] = np.rint(cnt).astype(np.int64)
        bad = np.flatnonzero((false_lits[t:e] > 0) & (y[t:e] == 1.0))
        if bad.size == 0:
            t, B = e, min(2 * B, cap)
            continue
        i = t + int(bad[0])
        truth = proofs.literal_truth(X[i])[:-1]
        h = h & truth.astype(np.int8)
        fn_rounds.append(i)
        snaps.append(h)
        B = int(min(cap, max(16, 2 * int(bad[0]) + 16)))
        t = i + 1
    return false_lits, fn_rounds.array().copy(), snaps.array().copy()


def hypothesis_literals(trace: Trace, t: int) -> list[str]:
    """The literals of h before round ``t``, by name (e.g. ``['x1', '¬x3']``)."""
    w = trace.weights_at(t)
    return [proofs.literal_name(int(j)) for j in np.flatnonzero(w)]


def run(X, y, params: dict[str, Any]) -> Trace:
    X = as_matrix(X, NAME)
    T, n = X.shape
    y = as_labels(y, "01", T, NAME)
    check_binary(X, NAME)
    target, cinfo, assumptions = proofs.resolve_conjunction(X, y, params["comparator"], NAME)
    false_lits, fn_rounds, H = elimination(X, y)
    pred = (false_lits == 0).astype(np.int8)
    mistakes = np.flatnonzero(pred != y).astype(np.int64)
    fn_flag = y[mistakes] == 1.0
    fp_rounds = mistakes[~fn_flag]
    info = dict(cinfo, n=n, literals=[proofs.literal_name(j) for j in range(2 * n)],
                no_consistent_conjunction=int(fp_rounds[0]) if fp_rounds.size else None,
                no_consistent_conjunction_rounds=fp_rounds,
                after_false_positive="keeps predicting with h; never updates on a false positive")
    proof = proofs.conjunction_proof(T=T, n=n, mistakes=mistakes, false_negative=fn_flag, H=H, target=target,
                                     assumptions=assumptions, info=cinfo)

    def false_positive():
        flag = np.zeros(T, dtype=bool)
        flag[fp_rounds] = True
        return flag

    return Trace(algorithm=NAME, params=params, T=T, d=2 * n, mistakes=mistakes, predictions=pred,
                 history=SnapshotHistory(np.ones(2 * n, dtype=np.int8), fn_rounds, H), weight_kind="linear",
                 columns={"false_literals": false_lits, "false_positive": false_positive},
                 proofs={"elimination": proof}, primary="elimination", info=info)
