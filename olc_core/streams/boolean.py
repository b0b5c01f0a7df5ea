"""Streams for the mistake-bound learners [004] §2: conjunctions, decision lists, and the adversary.

* :func:`conjunction` — seeded 0/1 examples labelled by a target conjunction
  (literals possibly negated), optional label noise.
* :func:`decision_list` — seeded 0/1 examples labelled by a target decision list.
* :func:`conjunction_adversary` / :class:`ConjunctionAdversary` — the lower bound
  of [004]: example i has every bit set but bit i; its label is the opposite of the
  learner's prediction, and the target is the monotone conjunction of the x_i the
  learner predicted 1 on. Every label is that target's, and every round is a
  mistake: any deterministic learner makes n mistakes on n examples.

The learner of the adversary is a function ``predict(x, X_past, y_past) -> 0/1``
(any deterministic online learner is one: its prediction is a function of the
current example and of what it has seen). :func:`elimination_predictor` is our
conjunction learner in that form; :func:`constant_predictor` always says the same.

>>> s = conjunction_adversary(3, elimination_predictor)
>>> s.X.astype(int).tolist(), s.y.astype(int).tolist(), str(s.comparator)
([[0, 1, 1], [1, 0, 1], [1, 1, 0]], [1, 1, 1], 'True')
>>> a = ConjunctionAdversary(2)
>>> a.next_example().tolist(); a.record(1); a.reveal()
[0, 1]
0
>>> a.play(0), a.done, str(a.target()), a.mistakes
(1, True, 'x1', 2)
"""
from __future__ import annotations

from typing import Any, Callable

import numpy as np

from ..proofs.boolean import Conjunction, DecisionList
from .base import Stream

__all__ = ["conjunction", "decision_list", "conjunction_adversary", "ConjunctionAdversary",
           "elimination_predictor", "constant_predictor", "Conjunction", "DecisionList"]

Predictor = Callable[[np.ndarray, np.ndarray, np.ndarray], Any]


def _check(cond: bool, msg: str) -> None:
    if not cond:
        raise ValueError(msg)


def _is_int(v: Any) -> bool:
    return isinstance(v, (int, np.integer)) and not isinstance(v, (bool, np.bool_))


def _noise(rng: np.random.Generator, y: np.ndarray, noise: float) -> np.ndarray:
    flipped = rng.random(y.shape[0]) < noise if noise > 0 else np.zeros(y.shape[0], dtype=bool)
    y[flipped] = 1.0 - y[flipped]
    return flipped


def conjunction(T: int, n: int, k: int | None = None, seed: int = 0, *, target: Any = None, negated: bool = True,
                positive_rate: float | None = 0.5, noise: float = 0.0) -> Stream:
    """``T`` examples of ``n`` bits labelled by a conjunction of ``k`` literals (default ``min(3, n)``).

    The target (``comparator``, a :class:`Conjunction`) is ``target`` when given
    (anything :meth:`Conjunction.parse` reads), else ``k`` literals on distinct
    variables, each negated with probability ½ (``negated=False``: monotone).
    Bits are uniform; on a ``positive_rate`` share of the rounds (drawn at random)
    the target's literals are then made true, so about that share is positive
    (``positive_rate=None``: plain uniform bits, positives with probability 2^-k).
    ``noise`` flips each label with that probability (``info["flipped"]``).
    """
    _check(_is_int(T) and T >= 1, f"T must be an integer ≥ 1 (got {T!r})")
    _check(_is_int(n) and n >= 1, f"n must be an integer ≥ 1 (got {n!r})")
    _check(0.0 <= noise <= 1.0, f"noise must be in [0, 1] (got {noise!r})")
    _check(positive_rate is None or 0.0 <= positive_rate <= 1.0,
           f"positive_rate must be in [0, 1] or None (got {positive_rate!r})")
    T, n = int(T), int(n)
    rng = np.random.default_rng([seed, 11])
    if target is not None:
        c = Conjunction.parse(target, n, "target")
    else:
        k = min(3, n) if k is None else k
        _check(_is_int(k) and 0 <= k <= n, f"k must be an integer in [0, n] = [0, {n}] (got {k!r})")
        var = np.sort(rng.choice(n, size=int(k), replace=False)) + 1
        sign = np.where(rng.random(int(k)) < 0.5, -1, 1) if negated else np.ones(int(k), dtype=np.int64)
        c = Conjunction(n, tuple(int(s * v) for s, v in zip(sign, var)))
    X = (rng.random((T, n)) < 0.5).astype(np.float64)
    if positive_rate is not None and c.satisfiable and c.size:
        force = rng.random(T) < positive_rate
        for s in c.literals:
            X[force, abs(s) - 1] = 1.0 if s > 0 else 0.0
    y = c(X).astype(np.float64)
    flipped = _noise(rng, y, noise)
    return Stream(X, y, c, {"kind": "conjunction", "n": n, "k": c.size, "target": str(c), "noise": float(noise),
                            "positive_rate": positive_rate, "flipped": flipped, "seed": seed, "order": "generated"})


def decision_list(T: int, n: int, L: int = 3, seed: int = 0, *, target: Any = None, coverage: str = "rule",
                  noise: float = 0.0) -> Stream:
    """``T`` examples of ``n`` bits labelled by a decision list of ``L`` rules (the final True→B_L included).

    The target (``comparator``, a :class:`DecisionList`) is ``target`` when given,
    else ``L − 1`` rules on distinct variables (so ``L ≤ n + 1``), each literal
    negated with probability ½, random outputs with the last literal rule's output
    different from the final one's (so no rule is redundant). ``coverage="rule"``
    draws for each round which rule decides it (uniformly among the L) and sets
    the bits so that it does, the others uniform; ``"uniform"``: plain uniform
    bits (rule i < L decides with probability 2^-i, the final True→B_L the
    remaining 2^-(L-1)). Labels are the list's, then
    ``noise`` flips each with that probability (``info["flipped"]``).
    """
    _check(_is_int(T) and T >= 1, f"T must be an integer ≥ 1 (got {T!r})")
    _check(_is_int(n) and n >= 1, f"n must be an integer ≥ 1 (got {n!r})")
    _check(0.0 <= noise <= 1.0, f"noise must be in [0, 1] (got {noise!r})")
    _check(coverage in ("rule", "uniform"), f"coverage must be 'rule' or 'uniform' (got {coverage!r})")
    T, n = int(T), int(n)
    rng = np.random.default_rng([seed, 12])
    if target is not None:
        c = DecisionList.parse(target, n, "target")
    else:
        _check(_is_int(L) and 1 <= L <= n + 1, f"L must be an integer in [1, n + 1] = [1, {n + 1}] (got {L!r})")
        L = int(L)
        var = rng.choice(n, size=L - 1, replace=False) + 1
        sign = np.where(rng.random(L - 1) < 0.5, -1, 1)
        outs = (rng.random(L) < 0.5).astype(int)
        if L >= 2:
            outs[-2] = 1 - outs[-1]
        rules = [(int(s * v), int(b)) for s, v, b in zip(sign, var, outs[:-1])] + [(None, int(outs[-1]))]
        c = DecisionList(n, tuple(rules))
    X = (rng.random((T, n)) < 0.5).astype(np.float64)
    if coverage == "rule":
        which = rng.integers(0, c.L, size=T)      # the rule meant to decide each round
        for i, (s, _) in enumerate(c.rules):
            if s is None:
                continue
            v, on = abs(s) - 1, 1.0 if s > 0 else 0.0
            X[which > i, v] = 1.0 - on           # earlier rules must not fire …
            X[which == i, v] = on                # … and this one must
        # a later rule may reuse an earlier variable; labels are the list's in any case
    y = c(X).astype(np.float64)
    flipped = _noise(rng, y, noise)
    return Stream(X, y, c, {"kind": "decision_list", "n": n, "L": c.L, "target": str(c), "noise": float(noise),
                            "coverage": coverage, "flipped": flipped, "seed": seed, "order": "generated"})


# --------------------------------------------------------------------------- the adversary
def _as_bit(p: Any) -> int:
    if isinstance(p, (bool, np.bool_)):
        return int(p)
    if isinstance(p, (int, np.integer, float, np.floating)) and float(p) in (0.0, 1.0):
        return int(p)
    raise ValueError(f"a prediction must be 0 or 1 (or True/False); got {p!r}")


class ConjunctionAdversary:
    """The adversary of [004] §2.1, one round at a time (a page, or a student, plays the learner).

    Round i (0-based) shows the example with every bit set but bit i. Once the
    learner's prediction is recorded, :meth:`reveal` gives the label, which is the
    opposite: a prediction of 1 puts x_{i+1} into the target (so the example, whose
    bit i is 0, is negative), a prediction of 0 leaves it out (the example
    satisfies the target: positive). The state is a few small arrays.
    """

    def __init__(self, n: int):
        _check(_is_int(n) and n >= 1, f"n must be an integer ≥ 1 (got {n!r})")
        self.n = int(n)
        self.predictions = np.full(self.n, -1, dtype=np.int8)   # -1: not yet
        self.labels = np.full(self.n, -1, dtype=np.int8)
        self.round = 0                                          # rounds whose label is revealed

    @property
    def done(self) -> bool:
        return self.round >= self.n

    @property
    def mistakes(self) -> int:
        """Mistakes so far: every revealed round is one."""
        return int(np.sum(self.labels[: self.round] != self.predictions[: self.round]))

    def example(self, i: int) -> np.ndarray:
        x = np.ones(self.n, dtype=np.int8)
        x[i] = 0
        return x

    def next_example(self) -> np.ndarray:
        """The current round's example (0/1, int8)."""
        _check(not self.done, "the adversary has shown all n examples")
        return self.example(self.round)

    def record(self, prediction: Any) -> None:
        """The learner's prediction for the current example (0 or 1); recorded once."""
        _check(not self.done, "the adversary has shown all n examples")
        _check(self.predictions[self.round] < 0, f"a prediction for round {self.round} is already recorded")
        self.predictions[self.round] = _as_bit(prediction)

    def reveal(self) -> int:
        """The current example's label (the opposite of the prediction); moves to the next round."""
        _check(not self.done, "the adversary has shown all n examples")
        p = int(self.predictions[self.round])
        _check(p >= 0, f"record the learner's prediction for round {self.round} before revealing the label")
        self.labels[self.round] = 1 - p
        self.round += 1
        return 1 - p

    def play(self, prediction: Any) -> int:
        """Record the prediction and reveal the label."""
        self.record(prediction)
        return self.reveal()

    def target(self) -> Conjunction:
        """The monotone target built so far: x_{i+1} for each revealed round i predicted 1.

        Variables of rounds not yet played are undecided (:meth:`undecided`); their
        examples have not been shown, so any choice keeps the labels so far.
        """
        r = self.round
        return Conjunction(self.n, tuple(int(i) + 1 for i in np.flatnonzero(self.predictions[:r] == 1)))

    def undecided(self) -> np.ndarray:
        """1-based variables whose membership in the target is not fixed yet."""
        return np.arange(self.round + 1, self.n + 1)

    def stream(self) -> Stream:
        """The rounds revealed so far as a stream (comparator: the target so far)."""
        r = self.round
        X = np.ones((r, self.n))
        X[np.arange(r), np.arange(r)] = 0.0
        return Stream(X, self.labels[:r].astype(np.float64), self.target(),
                      {"kind": "conjunction_adversary", "n": self.n, "predictions": self.predictions[:r].copy(),
                       "forced_mistakes": self.mistakes, "target": str(self.target()), "order": "generated"})


def conjunction_adversary(n: int, predict: Predictor) -> Stream:
    """Play the adversary against ``predict(x, X_past, y_past) -> 0/1`` for n rounds; every round is a mistake.

    ``x``, ``X_past`` (rounds so far × n) and ``y_past`` are float arrays; the
    learner sees each label after predicting. ``info["predictions"]`` holds its
    predictions, ``comparator`` the target conjunction the labels are consistent with.
    """
    if not callable(predict):
        raise ValueError("predict must be a function predict(x, X_past, y_past) -> 0/1")
    adv = ConjunctionAdversary(n)
    X = np.ones((adv.n, adv.n))
    X[np.arange(adv.n), np.arange(adv.n)] = 0.0
    y = np.zeros(adv.n)
    for i in range(adv.n):
        adv.record(predict(X[i].copy(), X[:i].copy(), y[:i].copy()))
        y[i] = adv.reveal()
    return adv.stream()


def elimination_predictor(x: np.ndarray, X_past: np.ndarray, y_past: np.ndarray) -> int:
    """Our conjunction learner as a predictor: h = the literals true in every positive example so far.

    (Elimination removes, on each false negative, the literals false in x; a
    positive example it predicts correctly already satisfies h, so h is the same.)
    """
    x = np.asarray(x) != 0
    P = np.asarray(X_past)[np.asarray(y_past) != 0] != 0
    if P.shape[0] == 0:
        return 0  # all 2n literals: never true
    pos_ok = ~P.all(axis=0) | x       # literal x_i in h needs x_i = 1
    neg_ok = P.any(axis=0) | ~x       # literal ¬x_i in h needs x_i = 0
    return int(bool(pos_ok.all() and neg_ok.all()))


def constant_predictor(b: int) -> Predictor:
    """A predictor that always says ``b``."""
    bit = _as_bit(b)

    def predict(x: np.ndarray, X_past: np.ndarray, y_past: np.ndarray) -> int:
        return bit
    predict.__name__ = f"always_{bit}"
    return predict
