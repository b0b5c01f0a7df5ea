"""The allowed range of every parameter of every learner, declared in one place.

A learner never checks its own hyper-parameters: :func:`validate` does, against
the table :data:`PARAMETERS`, and raises ``ValueError`` with a message that names
the parameter and its allowed range (the scikit-learn ``Interval`` idea).

>>> validate("winnow", {"beta": 0.5})["beta"]
0.5
>>> validate("winnow", {"beta": -1})
Traceback (most recent call last):
...
ValueError: winnow: beta must be a number in (0, inf) (got -1)
>>> validate("perceptron", {"bta": 1})
Traceback (most recent call last):
...
ValueError: perceptron: unknown parameter 'bta'; allowed: comparator, gamma, engine
"""
from __future__ import annotations

import math
import numbers
from dataclasses import dataclass
from typing import Any

__all__ = ["Real", "Integer", "Options", "Anything", "Param", "PARAMETERS", "LABELS", "validate"]


@dataclass(frozen=True)
class Real:
    """A real number in an interval; ``closed`` is "both", "left", "right" or "neither"."""

    low: float = -math.inf
    high: float = math.inf
    closed: str = "both"

    def describe(self) -> str:
        left = "[" if self.closed in ("both", "left") and math.isfinite(self.low) else "("
        right = "]" if self.closed in ("both", "right") and math.isfinite(self.high) else ")"
        return f"a number in {left}{_fmt(self.low)}, {_fmt(self.high)}{right}"

    def check(self, value: Any) -> float:
        if isinstance(value, bool) or not isinstance(value, numbers.Real):
            raise TypeError
        v = float(value)
        if math.isnan(v):
            raise TypeError
        lo_ok = v >= self.low if self.closed in ("both", "left") else v > self.low
        hi_ok = v <= self.high if self.closed in ("both", "right") else v < self.high
        if not (lo_ok and hi_ok):
            raise TypeError
        return v


@dataclass(frozen=True)
class Integer:
    """An integer in the closed interval [low, high]."""

    low: int = 0
    high: int | None = None

    def describe(self) -> str:
        return f"an integer in [{self.low}, {'inf' if self.high is None else self.high}]"

    def check(self, value: Any) -> int:
        if isinstance(value, bool) or not isinstance(value, numbers.Integral):
            raise TypeError
        v = int(value)
        if v < self.low or (self.high is not None and v > self.high):
            raise TypeError
        return v


@dataclass(frozen=True)
class Options:
    """One of a fixed set of strings."""

    values: tuple[str, ...]

    def describe(self) -> str:
        return "one of " + ", ".join(repr(v) for v in self.values)

    def check(self, value: Any) -> str:
        if value not in self.values:
            raise TypeError
        return value


@dataclass(frozen=True)
class Anything:
    """An array-like or object checked by the learner itself (comparators, hypotheses)."""

    what: str

    def describe(self) -> str:
        return self.what

    def check(self, value: Any) -> Any:
        return value


@dataclass(frozen=True)
class Param:
    name: str
    constraint: Real | Integer | Options | Anything
    default: Any = None
    optional: bool = True  # None is allowed (means "choose / measure it for me")
    doc: str = ""


def _fmt(x: float) -> str:
    if math.isinf(x):
        return "inf" if x > 0 else "-inf"
    return f"{x:g}"


_ENGINE = Param("engine", Options(("auto", "numpy", "numba")), "auto", False,
                "inner loop: numba when installed ('auto'), or plain numpy; both give identical results")
_SEED = Param("seed", Integer(0, 2**63 - 1), 0, False, "seed of the learner's own randomness")

#: name -> tuple of Param, in the order shown in error messages.
PARAMETERS: dict[str, tuple[Param, ...]] = {
    "perceptron": (
        Param("comparator", Anything("a non-zero vector of length d (w*, normalised to unit length)")),
        Param("gamma", Real(0, math.inf, "neither"), doc="margin the proof assumes; measured when absent"),
        _ENGINE,
    ),
    "margin_perceptron": (
        Param("gamma", Real(0, 1, "right"), doc="margin parameter: band ±γ/2; the max margin when absent"),
        Param("passes", Integer(1, 100_000), 1, doc="passes over the data; None = until a pass makes no update"),
        Param("comparator", Anything("a non-zero vector of length d (w*, normalised to unit length)")),
    ),
    "winnow": (
        Param("beta", Real(0, math.inf, "neither"), 1.0, False, "promotion factor 1+β"),
        Param("comparator", Anything("the relevant variables of a monotone disjunction (indices or a 0/1 mask)")),
    ),
    "normalized_winnow": (
        Param("eta", Real(0, 1e6, "right"), doc="learning rate; ½ln((1+δ)/(1−δ)) when absent (at most 1e6: "
              "log weights move by up to 2η per mistake and must stay far inside the float range)"),
        Param("delta", Real(0, 1, "right"), doc="margin the proof assumes (y⟨u,x⟩ ≤ ‖u‖₁‖x‖∞ ≤ 1, so δ ≤ 1); "
              "measured when absent"),
        Param("comparator", Anything("a non-negative vector u of length N with sum 1")),
    ),
    "weighted_majority": (
        Param("beta", Real(0, 1, "left"), doc="penalty factor β = 1 − η (β = 0 is Halving); "
              "give beta or eta (both only if equal); neither: β = ½"),
        Param("eta", Real(0, 1, "right"), doc="penalty rate η = 1 − β"),
        Param("update", Options(("every_round", "on_mistake")), "on_mistake", False,
              "penalise wrong experts on every round [000] or only on the learner's mistakes [001]"),
    ),
    "randomized_weighted_majority": (
        Param("eta", Real(0, 1, "right"), doc="penalty rate: w ← w(1 − η) for wrong experts; ½ when neither "
              "eta nor beta is given"),
        Param("beta", Real(0, 1, "left"), doc="β = 1 − η (give one of beta, eta)"),
        _SEED,
    ),
    "halving": (
        Param("hypotheses", Anything("None (X is then the (T, |H|) ±1 or 0/1 matrix of every hypothesis' "
                                     "labels) or a class from olc_core.hypotheses (X holds the instances)")),
        Param("update", Options(("on_mistake", "every_round")), "on_mistake", False,
              "prune the version space on mistakes [001] or on every round"),
    ),
    "ftrl_randomized": (
        Param("eta", Real(0, math.inf, "neither"), math.sqrt(2.0), False, "FTRL learning rate α of [002]"),
        Param("comparator", Anything("a vector u with ‖u‖ ≤ 1 (the best u in hindsight when absent)")),
        _SEED,
    ),
    "conjunction": (
        Param("comparator", Anything("the target conjunction: literals ±i (x_i / ¬x_i, 1-based) or names "
                                     "('x1', '¬x3'), a string 'x1 ∧ ¬x3', or a boolean mask over the 2n "
                                     "literals x_1, ¬x_1, …, x_n, ¬x_n; the most specific consistent "
                                     "conjunction when absent")),
    ),
    "decision_list": (
        Param("comparator", Anything("the target decision list: rules (literal, output) ending with "
                                     "(True, output), e.g. [('x1', 0), ('¬x2', 1), (True, 0)]; its length L "
                                     "(final True rule included) sets the bound; found by Rivest's greedy "
                                     "algorithm when absent")),
        Param("tie", Options(("first", "majority")), "first", False,
              "rule read at the first firing level: the first firing rule in the order x1→1, x1→0, ¬x1→1, …, "
              "True→1, True→0 ('first'), or the majority output of its firing rules, ties → 1 ('majority')"),
    ),
}

#: name -> label convention: "pm1" = {-1, +1}, "01" = {0, 1}.
LABELS: dict[str, str] = {
    "perceptron": "pm1",
    "margin_perceptron": "pm1",
    "winnow": "01",
    "normalized_winnow": "pm1",
    "weighted_majority": "pm1",
    "randomized_weighted_majority": "pm1",
    "halving": "pm1",
    "ftrl_randomized": "pm1",
    "conjunction": "01",
    "decision_list": "01",
}


def validate(algorithm: str, params: dict[str, Any]) -> dict[str, Any]:
    """Check ``params`` against the table; return them with defaults filled in."""
    if algorithm not in PARAMETERS:
        raise ValueError(f"unknown algorithm {algorithm!r}; choose one of {', '.join(PARAMETERS)}")
    table = {p.name: p for p in PARAMETERS[algorithm]}
    for name in params:
        if name not in table:
            allowed = ", ".join(table) or "none"
            raise ValueError(f"{algorithm}: unknown parameter {name!r}; allowed: {allowed}")
    out: dict[str, Any] = {}
    for name, p in table.items():
        value = params.get(name, p.default)
        if value is None:
            if not p.optional and p.default is not None:
                raise ValueError(f"{algorithm}: {name} must be {p.constraint.describe()} (got None)")
            out[name] = None
            continue
        try:
            out[name] = p.constraint.check(value)
        except TypeError:
            raise ValueError(f"{algorithm}: {name} must be {p.constraint.describe()} (got {value!r})") from None
    return out
