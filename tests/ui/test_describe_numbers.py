"""Every number in every chart description, read back against the run (issue 32 §3).

For every page's spec (built as the page builds it: tests/ui/describe_oracles.py), at the start, the first
mistake, a middle mistake, the middle and the end, each figure's description is filled as the browser fills it
(olc_ui.viewer.snapshot's formatter, which tests/ui/test_chart_describe.py holds equal to viewer_a11y.js under
node); every ``name = value`` in it is compared with the quantity it names, computed from the trace (the value
printed must be a rounding of it), every printed comparison must hold on the printed numbers, and no digit may
be left that no name accounts for. A figure must say what its oracle requires (the current example with its
label, the learner's state, the bounds by name)."""
from __future__ import annotations

import bisect
import re

import pytest

from olc_ui.viewer.snapshot import description_at

from . import describe_oracles as O
from .describe_read import read

#: phrases of the generic reader that read a figure's coordinates (removed in issue 32): none may come back
COORDINATE_WORDS = [r"current example: [^\s,;]+ [-−\d]", r"\blowest [-−\d.e]+ at\b", r"\blargest [-−\d.e]+ \(",
                    r"\bsmallest [-−\d.e]+ \(", r"\d+ bars\b", r"log₁₀ of ", r"see the caption for this round",
                    r"this chart does not change with the round", r"× crossing at", r"\(log scale\) [-−\d]",
                    r"mistakes M \(log scale\)"]


def text_at(spec: dict, fig: dict, p: int) -> str:
    return description_at(spec, fig, p)


def positions(spec: dict) -> list[int]:
    """The start, the first mistake, a middle mistake, the middle and the end (positions showing that round)."""
    T, mist = spec["T"], spec["mistake_rounds"]
    out = {0, 1, T // 2, T}
    if mist:
        out |= {mist[0] + 1, mist[len(mist) // 2] + 1, mist[-1] + 1}
    return sorted(p for p in out if 0 <= p <= T)


@pytest.fixture(scope="module", params=list(O.BUILDERS))
def case(request):
    return request.param, O.build(request.param)


def test_every_number_names_the_quantity_it_is(case):
    label, c = case
    spec = c.spec
    T = spec["T"]
    checked = 0
    for fig in spec["figures"]:
        for p in positions(spec):
            text = text_at(spec, fig, p)
            allowed = c.allowed + (f"round {p} of {T}", f"Round {p}:", f"step {p} of {T}", f"Step {p}:")
            problems, seen = read(text, c.oracle(fig["id"], p), allowed)
            assert not problems, (label, fig["id"], p, problems, text)
            if p >= 1:
                missing = c.required.get(fig["id"], set()) - set(seen)
                assert not missing, (label, fig["id"], p, f"does not say {missing}", text)
            checked += len(seen)
    assert checked >= len(spec["figures"]) * len(positions(spec)), label   # a number per figure and position at least


def test_no_description_reads_coordinates(case):
    label, c = case
    for fig in c.spec["figures"]:
        d = fig["describe"]
        for p in positions(c.spec):
            text = text_at(c.spec, fig, p)
            for pat in COORDINATE_WORDS:
                assert not re.search(pat, text), (label, fig["id"], p, pat, text)
        assert "log₁₀" not in " ".join(r[0] for r in d["table"]), (label, fig["id"])


def test_the_reader_catches_a_wrong_number():
    """The check can fail: a value off by one printed unit, a coordinate with no name, a false comparison."""
    from .describe_read import read as r
    assert not r("after M = 3 mistakes, a = 0.25 ≤ b = 0.5", {"M": 3, "a": 0.25, "b": 0.5})[0]
    assert r("after M = 4 mistakes", {"M": 3})[0]
    assert r("a = 0.26", {"a": 0.25})[0]
    assert r("current example: x 0, y 1", {"a": 1})[0]
    assert r("a = 0.5 ≤ b = 0.25", {"a": 0.5, "b": 0.25})[0]
    assert r("a = 0.5 > b = 0.5", {"a": 0.5000001, "b": 0.5})[0]        # the printed digits must show it
    assert not r("w = (0.1, -0.25)", {"w": (0.1, -0.25)})[0]
    assert not r("0 ≤ a = 0.5 ≤ 1", {"a": 0.5})[0]
    assert r("0 ≤ a = -0.5", {"a": -0.5})[0] and r("a = 1.5 ≤ 1", {"a": 1.5})[0]
    assert r("w = (0.1, -0.26)", {"w": (0.1, -0.25)})[0]


def test_a_mistake_position_is_checked(case):
    label, c = case
    mist = c.spec["mistake_rounds"]
    if mist:
        assert any(p - 1 in mist for p in positions(c.spec)[1:]), label
        assert bisect.bisect_left(mist, c.spec["T"]) == len(mist)


def test_every_description_is_well_formed(case):
    """A name, the round in the text, every value in the data table (as tests/ui/test_chart_describe.py asks of
    the default pages), on every page of this list too."""
    from olc_ui.viewer.spec import validate_spec
    label, c = case
    validate_spec(c.spec)
    for f in c.spec["figures"]:
        d = f["describe"]
        assert d["name"].strip() and "{t}" in d["template"] and "{T}" in d["template"], (label, f["id"])
        assert set(d["values"]) <= {n for _, n in d["table"]}, (label, f["id"])


@pytest.mark.parametrize("label", ["perceptron", "exponentiated_update, continuous, label noise",
                                   "boolean_concepts, conjunctions, label noise", "experts, RWM η = 1",
                                   "halving, disjunctions, label noise"])
def test_the_verdicts_read_are_the_proofs_own(label):
    """describe_view.link_verdicts reads at once what proof.checks_at(t) says state by state (holds True /
    False / None, the failed assumptions a link needs)."""
    from olc_ui.shared.describe_view import link_verdicts
    c = O.build(label)
    for tr in c.traces:
        for proof in (getattr(tr, "proofs", None) or {"p": tr.proof}).values():
            got = link_verdicts(proof)
            for k, s in enumerate(proof.state_rounds.tolist()):
                for row in proof.checks_at(int(s)):
                    d = got[(row["lhs_key"], row["rhs_key"])]
                    assert d["holds"][k] == row["holds"] and list(d["na"][k]) == row["needs_failed"], (label, k, row)


def test_the_explorers_and_the_sweeps_charts_say_their_numbers():
    """The charts drawn outside the step viewer (st.plotly_chart: the Bound explorer's two, the Compare page's
    sweep) are described by the numbers they plot, as the page's table prints them (olc_ui.shared.chart_names
    names them in the browser)."""
    import olc_core
    from olc_ui.lessons.bound_explorer import view as V
    from olc_ui.lessons.compare.describe import describe_sweep
    s = olc_core.sweep("perceptron", "gamma", [0.05, 0.1, 0.2], seeds=3, T=200).summary()
    said_m, said_r = V.describe_sweep(s, "γ", "mistakes M")
    for i, v in enumerate(s["value"]):
        seg = said_m.split(f"γ = {V.fmt(v)}: ")[1].split("; γ =")[0]
        assert seg.startswith(f"measured median {V.fmt(s['mistakes_median'][i])}, from {V.fmt(s['mistakes_min'][i])} "
                              f"to {V.fmt(s['mistakes_max'][i])} over the seeds; the bound {V.fmt(s['bound_median'][i])}")
        assert f"γ = {V.fmt(v)}: median {V.fmt(s['ratio_median'][i])}, largest {V.fmt(s['ratio_max'][i])}" in said_r
    rows = [{"algorithm": "winnow", "N": 10, "seed": k, "mistakes": m, "bound": 20.0} for k, m in enumerate((3, 5, 4))]
    assert describe_sweep(rows, {"winnow": "Winnow"}, 300).endswith("Winnow: N = 10: median 4 (from 3 to 5), bound 20.")


def test_a_chart_names_script_escapes_its_texts():
    from olc_ui.shared.chart_names import script
    js = script("k", "a</script><b>", "x < y")
    assert "</script><b>" not in js and "\\u003c/script>" in js and js.count("</script>") == 1
