"""The registry the conformance suite runs over.

Every learner adds a module ``tests/core/cases_<name>.py`` defining ``CASES``, a
list of :class:`Case`: how to make a small stream that meets the theorem's
assumptions, and an independent plain-loop implementation (``naive``) written
straight from the notes, which the trace must agree with round by round.
"""
from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

import numpy as np


@dataclass
class NaiveRun:
    mistakes: list[int]
    weights: list[np.ndarray]        # before each round t = 0 … T (T + 1 entries)
    predictions: list[float] | None = None


@dataclass
class Case:
    id: str
    algorithm: str
    make: Callable[[int], tuple[np.ndarray, np.ndarray, dict[str, Any]]]  # seed -> (X, y, params)
    naive: Callable[[np.ndarray, np.ndarray, dict[str, Any]], NaiveRun]
    conservative: bool                 # weights change only on mistake rounds
    log_weights: bool = False          # naive weights are logs: compare trace.log_weights_at
    exact: bool = True                 # weights must agree bit for bit (else rtol/atol 1e-9)
    seeds: tuple[int, ...] = (0, 1, 2)
    extra: dict[str, Any] = field(default_factory=dict)


def all_cases() -> list[Case]:
    out: list[Case] = []
    for path in sorted(Path(__file__).parent.glob("cases_*.py")):
        mod = importlib.import_module(f"tests.core.{path.stem}")
        out.extend(mod.CASES)
    return out
