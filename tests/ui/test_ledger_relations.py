"""No proof ledger prints a relation that its own numbers contradict.

With label noise a step that needs the failed assumption is marked n/a; before, its line still read
``C = 0.056633 ≤ Φₜ − Φₜ₊₁ = −0.0961639`` (the exponentiated update) or ``Σ_{i∈R} dᵢ = 1 ≤ 0`` (Winnow):
a false inequality under a neutral mark. Now each relation of such a line prints as its numbers decide
(olc_ui.shared.spec_tools.live_relations). The ledger is read as the viewer shows it (olc_ui.viewer.snapshot.ledger_at,
which the browser's formatter matches) at every position where the proof's state changes."""
from __future__ import annotations

import re

import numpy as np
import pytest

from olc_ui.viewer.snapshot import ledger_at, state_index
from olc_ui.shared.spec_tools import live_relations
from olc_ui.viewer.spec import validate_spec
from tests.ui import page_specs as PS

NUM = r"-?\d+(?:\.\d+)?(?:e[+-]?\d+)?"
#: a relation between two sides, as a ledger line writes it (its spacing \; around it or not)
REL = re.compile(r"(?<![A-Za-z\\])(\\le|\\ge|<|>)(?![A-Za-z])")
LEFT = re.compile(rf"=\s*[{{]?({NUM})\s*(?:\\[;,!: ]|\\quad|\s|[{{}}])*$")     # "= number" closing the left side
RIGHT = re.compile(rf"^(?:\\[;,!: ]|\s|[{{}}])*({NUM})(?:\s|[{{}}]|\\[;,!: ])*$")  # a side that is a number
LAST = re.compile(rf"=\s*[{{]?({NUM})(?![\d.]|\s*\\cdot|\s*[-+*/^_}}])")          # or its last "= number"

TRUE = {r"\le": lambda a, b: a <= b, r"\ge": lambda a, b: a >= b, "<": lambda a, b: a < b, ">": lambda a, b: a > b}


def printed(latex: str) -> list[tuple[float, str, float]]:
    """(a, relation, b) for each relation with a number just before it and the first number after it."""
    latex = re.sub(r"\\overset\{\?\}\{[^{}]*\}", " ? ", latex)  # an undefined side: no claim
    out, pieces = [], REL.split(latex)
    for i in range(1, len(pieces) - 1, 2):
        left, rel, right = pieces[i - 1], pieces[i], pieces[i + 1]
        right = re.split(r"\\quad|:|(?<!\\),", REL.split(right)[0])[0]  # up to the next relation, note or clause
        a = LEFT.search(left)
        b = RIGHT.search(right) or (LAST.findall(right) or [None])[-1]
        if a and b:
            out.append((float(a.group(1)), rel, float(b if isinstance(b, str) else b.group(1))))
    return out


def false_lines(spec: dict) -> list[str]:
    states = [int(x) for x in np.unique([state_index(spec, p) for p in range(spec["T"] + 1)])]
    first = {}
    for p in range(spec["T"] + 1):
        first.setdefault(state_index(spec, p), p)
    positions = sorted(set(first.values()) | {spec["T"]})
    bad, seen = [], 0
    for p in positions:
        for row in ledger_at(spec, p):
            for a, rel, b in printed(row["latex"]):
                seen += 1
                if not TRUE[rel](a, b):
                    bad.append(f"p = {p}: {a!r} {rel} {b!r} in {row['latex']!r}")
    assert states and seen >= len(positions), f"only {seen} relations read: the parser misses this page's lines"
    return bad


#: every page (its defaults and a class's variants) and the noisy streams where steps read n/a
SPECS = [(label, lambda label=label: PS.spec(label)[0]) for label in PS.labels()] + [
    ("winnow, label noise 0.1", lambda: PS.winnow(noise=0.1)[0]),
    ("exponentiated_update, label noise 0.1", lambda: PS.eg(noise=0.1)[0]),
    ("boolean_concepts, conjunctions, noise 0.1", lambda: PS.boolean("conj", noise=0.1)[0]),
    ("boolean_concepts, decision lists, noise 0.1", lambda: PS.boolean("dl", noise=0.1)[0]),
]


def test_the_parser_reads_a_ledger_line():
    assert printed(r"\text{last mistake: } C = 0.056633 \;\le\; \Phi_t - \Phi_{t+1} = -0.0961639") == [
        (0.056633, r"\le", -0.0961639)]
    assert printed(r"\textstyle\sum_{i\in R} d_i = 1 {>} 0 \quad\text{(never demoted)}") == [(1.0, ">", 0.0)]
    assert printed(r"M^+ = 3 \;\le\; n + 1 - |c| = 4 \;\le\; n + 1 = 5") == [(3.0, r"\le", 4.0), (4.0, r"\le", 5.0)]


@pytest.mark.parametrize("label, build", SPECS, ids=[s[0] for s in SPECS])
def test_no_ledger_line_prints_a_false_relation(label, build):
    spec = build()
    validate_spec(spec)
    assert spec.get("ledger", {}).get("lines"), label
    bad = false_lines(spec)
    assert not bad, f"{len(bad)} false relations, e.g. {bad[:3]}"


def test_the_noisy_steps_that_fail_read_greater_not_le():
    """The issue's own lines: Winnow with noise (Σ dᵢ > 0 once a relevant weight is demoted), the
    exponentiated update with noise (C > Φₜ − Φₜ₊₁ at a mistake where the potential rose)."""
    spec = PS.winnow(noise=0.1)[0]
    seen = {row["latex"] for p in range(spec["T"] + 1) for row in ledger_at(spec, p) if row.get("na")}
    assert any(re.search(r"d_i = [1-9]\d* > 0", s) for s in seen), sorted(seen)[:5]
    spec = PS.eg(noise=0.1)[0]
    seen = {row["latex"] for p in range(spec["T"] + 1) for row in ledger_at(spec, p)}
    assert any(re.search(rf"C = {NUM} \\;>\\; \\Phi_t", s) for s in seen), sorted(seen)[:5]


def test_live_relations_leaves_a_line_it_cannot_pair_alone():
    line = {"latex": r"a = «a» \le b = «b» \le c", "values": {}}
    assert live_relations(line, [[1]]) is line
    with pytest.raises(ValueError):
        validate_spec({"T": 1, "breaks": [], "figures": [], "ledger": {"lines": [
            {"latex": "{v_r}", "values": {"v_r": {"const": 0, "fmt": "rel", "labels": [r"\href{x}"]}}}]}})
