r"""The Halving algorithm (Mitchell 1997; Littlestone 1988) [001].

A finite class H; the version space starts as ``H_1 = H``.

* Prediction: the majority vote of ``H_t`` on ``x_t``; **ties (and an empty
  version space) predict +1**.
* Update: on a mistake keep only the hypotheses that labelled ``x_t``
  correctly (``update="on_mistake"``, [001], the default); with
  ``update="every_round"`` the inconsistent ones are removed on every round.
* ``hypotheses=None``: ``X`` is the (T, |H|) matrix of every hypothesis' labels
  (±1, or 0/1 read as −1/+1), like expert advice — Halving is then Weighted
  Majority with β = 0. Otherwise ``hypotheses`` is a class from
  :mod:`olc_core.hypotheses` (thresholds, half-planes through the origin,
  monotone conjunctions or disjunctions) and ``X`` holds its instances.
* Weights: ``weights_at(t)`` is the indicator of ``H_t`` (1.0 alive, 0.0
  removed), stored as one removal round per hypothesis (O(|H|) memory).

Proof (:func:`olc_core.proofs.experts.halving_proof`): ``1 ≤ |H_t| ≤ |H|/2^{M_t}``
(log scale) at every state, hence ``M ≤ log₂|H|``; its assumption is that some
hypothesis of H is consistent with every label, and when none is, the failing
round (where the consistent set becomes empty) is reported and
``mistake_bound`` is None. :func:`olc_core.hypotheses.dimensions` gives
``VC(H) ≤ opt(H) ≤ M_Halving(H) ≤ log₂|H|``.

>>> import numpy as np, olc_core
>>> from olc_core.hypotheses import Thresholds
>>> H = Thresholds((0.2, 0.4, 0.6, 0.8))           # target: x ≥ 0.6
>>> X = np.array([[0.5], [0.7], [0.3]]); y = np.array([-1, 1, -1])
>>> tr = olc_core.run("halving", X, y, hypotheses=H)
>>> tr.predictions.tolist(), tr.mistakes.tolist()  # 0.5: votes 2 (+) vs 2 (−), tie → +1: wrong
([1, 1, -1], [0])
>>> tr.weights_at(1).tolist(), tr.proof.mistake_bound, tr.proof.violations()
([0.0, 0.0, 1.0, 1.0], 2.0, [])
"""
from __future__ import annotations

from typing import Any, Callable

import numpy as np

from .._support.validate import as_labels
from ..hypotheses import HypothesisClass
from ..proofs import experts as proofs
from ..trace import Trace
from .weighted_majority import advice_matrix

__all__ = ["run", "VersionSpaceHistory", "version_space"]

NAME = "halving"
#: elements (rows × hypotheses) evaluated at once
_BLOCK_ELEMS = 1 << 21
_FIRST_ROWS = 64


class VersionSpaceHistory:
    """``H_t`` as the round each hypothesis was removed: alive before round t iff ``t < removed_before[h]``."""

    def __init__(self, removed_before: np.ndarray):
        self.removed_before = removed_before

    def raw_at(self, t: int) -> np.ndarray:
        return (t < self.removed_before).astype(np.float64)

    def alive_at(self, t: int) -> np.ndarray:
        """Indices of the hypotheses in the version space before round t."""
        return np.flatnonzero(t < self.removed_before)

    @property
    def nbytes(self) -> int:
        return int(self.removed_before.nbytes)


def _plus_fn(X, hyp) -> tuple[Callable[[int, int, np.ndarray], np.ndarray], int, int, np.ndarray | Any]:
    """``plus(t0, t1, idx)``: (t1 − t0, len(idx)) bool, True where hypothesis ``idx[j]`` labels round t's
    instance +1 (rows t0 … t1 − 1)."""
    if hyp is None:
        A, enc = advice_matrix(X, NAME)
        on = enc[0]
        return (lambda t0, t1, idx: A[t0:t1, idx] == on), A.shape[0], A.shape[1], A
    if not isinstance(hyp, HypothesisClass):
        raise ValueError(f"{NAME}: hypotheses must be None (X = the (T, |H|) label matrix) or a class from "
                         f"olc_core.hypotheses (Thresholds, HalfPlanes, MonotoneConjunctions, "
                         f"MonotoneDisjunctions); got {type(hyp).__name__}")
    Xi = hyp.check_instances(X, NAME)
    return (lambda t0, t1, idx: hyp.predict(Xi[t0:t1], idx) > 0), Xi.shape[0], hyp.size, Xi


def version_space(plus, T: int, H: int, y: np.ndarray, every_round: bool):
    """Run Halving: predictions, mistakes, the round each hypothesis left, and the size after each change.

    The version space only changes on an update, so the votes of the rounds up to the next update are
    evaluated together (a block of rows, doubled while no update happens); a mistake at least halves a
    non-empty version space, so on_mistake needs at most log₂|H| + 1 blocks that end early.
    """
    alive = np.arange(H, dtype=np.int64)
    removed = np.full(H, T + 1, dtype=np.int64)
    pred = np.ones(T, dtype=np.int8)
    vote = np.zeros(T)
    size_before = np.zeros(T, dtype=np.int64)
    changes: list[int] = []
    sizes: list[int] = []
    t, rows = 0, _FIRST_ROWS
    while t < T and alive.size:
        n = alive.size
        t1 = min(T, t + max(1, min(rows, _BLOCK_ELEMS // n)))
        P = plus(t, t1, alive)
        n_plus = np.count_nonzero(P, axis=1)
        yhat = np.where(2 * n_plus >= n, 1, -1).astype(np.int8)
        yb = y[t:t1]
        if every_round:
            event = (P != (yb > 0)[:, None]).any(axis=1)
        else:
            event = yhat != yb
        k = int(np.argmax(event)) if event.any() else t1 - t - 1
        e = t + k + 1
        pred[t:e] = yhat[:k + 1]
        vote[t:e] = (2 * n_plus[:k + 1] - n) / n
        size_before[t:e] = n
        if event[k]:
            keep = P[k] if yb[k] > 0 else ~P[k]
            if not keep.all():
                removed[alive[~keep]] = e
                alive = alive[keep]
                changes.append(e - 1)
                sizes.append(alive.size)
            rows = _FIRST_ROWS
        else:
            rows *= 2
        t = e
    # an empty version space: every later round predicts +1 with vote 0 (the arrays' initial values)
    return (pred, vote, size_before, removed, np.asarray(changes, dtype=np.int64),
            np.asarray(sizes, dtype=np.int64))


def consistent_set(plus, T: int, H: int, y: np.ndarray) -> tuple[np.ndarray, int | None]:
    """The hypotheses consistent with every label, and the round on which that set became empty (or None)."""
    cons = np.arange(H, dtype=np.int64)
    t = 0
    while t < T:
        t1 = min(T, t + max(1, _BLOCK_ELEMS // cons.size))
        wrong = plus(t, t1, cons) != (y[t:t1] > 0)[:, None]
        bad = wrong.any(axis=0)
        if bad.all():  # the set empties on the last of its members' first wrong rounds
            return cons[:0], t + int(np.argmax(wrong, axis=0).max())
        cons = cons[~bad]
        t = t1
    return cons, None


def run(X, y, params: dict[str, Any]) -> Trace:
    hyp = params["hypotheses"]
    plus, T, H, _ = _plus_fn(X, hyp)
    y = as_labels(y, "pm1", T, NAME)
    every_round = params["update"] == "every_round"
    pred, vote, size_before, removed, changes, sizes = version_space(plus, T, H, y, every_round)
    mistakes = np.flatnonzero(pred != y).astype(np.int64)
    if every_round:  # the version space is exactly the set of hypotheses consistent so far
        consistent = np.flatnonzero(removed > T)
        empty_round = int(changes[sizes == 0][0]) if (sizes == 0).any() else None
    else:
        consistent, empty_round = consistent_set(plus, T, H, y)
    info: dict[str, Any] = {"H_size": H, "update": params["update"], "hypotheses": hyp,
                            "class": "label matrix" if hyp is None else hyp.name,
                            "consistent": consistent, "tie_rule": "ties (and an empty version space) predict +1"}
    constants = {"class": info["class"]}
    if hyp is not None and consistent.size:
        constants["consistent_example"] = hyp.describe(int(consistent[0]))
    proof = proofs.halving_proof(T=T, H_size=H, mistakes=mistakes, change_rounds=changes, sizes_after=sizes,
                                 realisable=consistent.size > 0, empty_round=empty_round,
                                 n_consistent=int(consistent.size), update=params["update"], constants=constants)
    return Trace(algorithm=NAME, params=params, T=T, d=H, mistakes=mistakes, predictions=pred,
                 history=VersionSpaceHistory(removed), weight_kind="linear",
                 columns={"vote": vote, "version_space_size": size_before},
                 proofs={"halving": proof}, primary="halving", info=info)

