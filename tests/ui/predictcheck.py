"""Helpers for the predict-then-reveal truth tests (tests/ui/test_predict_truth_*.py): the browser's view of many
runs in one node call, and the numbers of a reveal read back and compared with the trace."""
from __future__ import annotations

import math
import re
import shutil

import pytest

from tests.conftest import node_eval

needs_node = pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")

#: a number as the reveals print it ("−0.25", "+1.5", "1.23e-05", "1000")
NUM = r"[−+]?\d+(?:\.\d+)?(?:e[+-]\d+)?"

_ROUNDS = ("data.map(o => Array.from({length: o.rounds}, (_, i) => [m.rightAnswer(o, i + 1), "
           "m.choices(o, i + 1).map(c => c[1]), m.questionText(o, i + 1), m.revealText(o, i + 1)]))")


def browser(tmp_path, options: list[dict]) -> list[list]:
    """For each options dict, every round's [right answer, choice ids, question, reveal] as viewer_questions.js
    gives them; checked for what every kind must do (the right answer is one of the choices, no "undefined" or
    "NaN" in the text, the question fits a phone)."""
    got = node_eval(tmp_path, "viewer_questions.js", _ROUNDS, options)
    for o, rounds in zip(options, got):
        for i, (right, ids, q, rev) in enumerate(rounds):
            assert right == o["answer"][i] and right in ids, (i, right, ids)
            assert q.startswith(f"Round {i + 1}: ") and len(q) <= 240, q
            for text in (q, rev):
                assert "undefined" not in text and "NaN" not in text and "null" not in text, text
    return got


def value(text: str) -> float:
    """A printed number read back."""
    return float(text.replace("−", "-").replace("+", ""))


def rounds_to(text: str, exact: float) -> bool:
    """Whether ``text`` is ``exact`` printed to the digits it shows (a correct rounding, with a hair of slack for
    the float ``exact`` itself)."""
    p = value(text)
    if exact == 0 or p == 0:
        return p == exact
    mant = text.replace("−", "").replace("+", "").split("e")[0]
    digits = len(mant.replace(".", "").lstrip("0")) or 1
    if "." not in mant and mant.endswith("0") and abs(p) >= 10:    # a whole number printed whole: every digit counts
        digits = len(mant)
    unit = 10.0 ** (math.floor(math.log10(abs(p))) - digits + 1)
    return abs(p - exact) <= 0.5 * unit * (1 + 1e-9) + 1e-12 * abs(exact)


REL = {"<": lambda a, b: a < b, "≤": lambda a, b: a <= b, "=": lambda a, b: a == b, "≥": lambda a, b: a >= b,
       ">": lambda a, b: a > b}


def printed_holds(a: str, rel: str, b: str) -> bool:
    """The printed comparison ``a rel b`` holds of the printed numbers."""
    return REL[rel](value(a), value(b))


def find(pattern: str, text: str) -> re.Match:
    m = re.search(pattern, text)
    assert m, f"{pattern!r} not in {text!r}"
    return m
