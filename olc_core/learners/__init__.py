"""The learners, one module each (``run(X, y, params)`` plays the rounds and returns a Trace), and :func:`run`,
which checks the parameters and calls the learner by name (:func:`olc_core.run` is this one)."""
from __future__ import annotations

import importlib
import importlib.util
from typing import Any

from .._support.params import validate
from ..trace import Trace

__all__ = ["run", "ALGORITHMS"]

_ALL = {
    "perceptron": "olc_core.learners.perceptron",
    "margin_perceptron": "olc_core.learners.margin_perceptron",
    "winnow": "olc_core.learners.winnow",
    "normalized_winnow": "olc_core.learners.normalized_winnow",
    "weighted_majority": "olc_core.learners.weighted_majority",
    "randomized_weighted_majority": "olc_core.learners.randomized_weighted_majority",
    "halving": "olc_core.learners.halving",
    "ftrl_randomized": "olc_core.learners.ftrl_randomized",
    "conjunction": "olc_core.learners.conjunction",
    "decision_list": "olc_core.learners.decision_list",
}
_MODULES = {name: mod for name, mod in _ALL.items() if importlib.util.find_spec(mod) is not None}

#: The algorithm names :func:`run` accepts (those implemented).
ALGORITHMS: tuple[str, ...] = tuple(_MODULES)


def run(algorithm: str, X: Any, y: Any, **params: Any) -> Trace:
    """Run ``algorithm`` on the stream ``(X, y)`` round by round and return its :class:`Trace`.

    Raises ``ValueError`` for an unknown algorithm or parameter, an out-of-range
    value, or bad input (wrong shape, NaN/inf, labels outside the convention).
    """
    if not isinstance(algorithm, str) or algorithm not in _MODULES:
        known = ", ".join(ALGORITHMS)
        if algorithm in _ALL:
            raise ValueError(f"algorithm {algorithm!r} is not implemented yet; implemented: {known}")
        raise ValueError(f"unknown algorithm {algorithm!r}; implemented: {known}")
    checked = validate(algorithm, params)
    module = importlib.import_module(_MODULES[algorithm])
    return module.run(X, y, checked)
