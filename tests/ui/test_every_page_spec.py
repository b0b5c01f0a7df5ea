"""Rules every lesson page's charts follow (issue 13 §2, §4, §5), tested as data over each page's spec
as the page builds it (tests/ui/page_specs.py): the sandwich closes (its crossing is a point of the
figure, inside the axes), legends stay short, no caret maths in what a student reads on a chart,
labels never sit on the curves, numbers read as what they are."""
from __future__ import annotations

import math
import re

import numpy as np
import pytest

from olc_ui.viewer.snapshot import caption_at, figures_at
from olc_ui.viewer.spec import validate_spec

from . import page_specs as P

CARET = re.compile(r"[\^_]")


def _crossing_traces(spec: dict) -> list[tuple[dict, dict]]:
    return [(f, t) for f in spec["figures"] for t in f["figure"]["data"] if t.get("meta") == "crossing"]


def _within(axis: dict, v: float) -> bool:
    lo, hi = axis["range"]
    x = math.log10(v) if axis.get("type") == "log" else v
    return lo <= x <= hi


def _expected_crossing(label: str, trace) -> float:
    """Where the page's outer bounds meet, from the core run's proof objects."""
    if label == "perceptron, label noise":
        return trace.proofs["nonseparable"].constants["bound_quadratic"]
    if label == "margin_perceptron":
        return trace.proof.constants["bound_tight"]
    if label == "boolean_concepts, conjunctions":
        return trace.proof.constants["bound_tight"]       # n + 1 − |c|
    if label == "boolean_concepts, decision lists":
        return trace.proof.constants["cap_sum"]           # Σ(capᵣ − 1)
    if label == "winnow":
        from olc_ui.lessons.winnow.view import crossing
        return crossing(trace.proof)[0]
    return trace.proof.mistake_bound


@pytest.mark.parametrize("label", ["perceptron", "perceptron, label noise", "perceptron, γ = 0.02",
                                   "perceptron, d = 3", "margin_perceptron", "winnow", "exponentiated_update",
                                   "experts", "halving", "boolean_concepts, conjunctions",
                                   "boolean_concepts, decision lists"])
def test_the_sandwich_closes_on_screen(label):
    spec, trace = P.spec(label)
    validate_spec(spec)
    want = _expected_crossing(label, trace)
    hits = _crossing_traces(spec)
    assert hits, f"{label}: no figure holds the crossing point"
    for fig, t in hits:
        assert t["x"][0] == pytest.approx(want, rel=1e-6), label
        lay = fig["figure"]["layout"]
        xa = lay.get(f"xaxis{t['xaxis'][1:]}" if t.get("xaxis", "x") != "x" else "xaxis")
        assert _within(xa, t["x"][0]), f"{label}: the crossing M = {t['x'][0]} is off the chart {xa['range']}"
        assert t.get("showlegend", True) and t["name"], f"{label}: the crossing is not named in the legend"


@pytest.mark.parametrize("label", P.labels())
def test_legends_have_at_most_six_entries(label):
    spec, _ = P.spec(label)
    for f in spec["figures"]:
        ents = P.legend_entries(f["figure"])
        assert len(ents) <= 6, f"{label} / {f['id']}: {len(ents)} legend entries: {ents}"


def _read_texts(fig: dict) -> list[str]:
    """What a student reads on a chart: its title, legend entries, axis titles and notes."""
    lay = fig["figure"]["layout"]
    out = [fig["title"]] + P.legend_entries(fig["figure"])
    for k, v in lay.items():
        if k.startswith(("xaxis", "yaxis")) and isinstance(v, dict):
            out.append((v.get("title") or {}).get("text", "") if isinstance(v.get("title"), dict) else v.get("title", ""))
    out += [a.get("text", "") for a in lay.get("annotations", [])]
    for t in fig["figure"]["data"]:
        if "text" in t and t.get("mode", "").find("text") >= 0:
            out += [s for s in t["text"] if isinstance(s, str)]
    return [s for s in out if s]


@pytest.mark.parametrize("label", P.labels())
def test_no_caret_maths_in_titles_legends_axes_or_notes(label):
    spec, _ = P.spec(label)
    bad = [(f["id"], s) for f in spec["figures"] for s in _read_texts(f) if CARET.search(s)]
    assert not bad, f"{label}: caret maths on a chart: {bad}"


@pytest.mark.parametrize("label", ["perceptron", "perceptron, label noise", "perceptron, γ = 0.02",
                                   "margin_perceptron", "experts", "boolean_concepts, conjunctions",
                                   "boolean_concepts, decision lists"])
def test_sandwich_labels_sit_outside_the_plot(label):
    """No annotation inside the plot area (it would cover a curve: at γ = 0.02 the Mγ line hid under
    the crossing's note); the crossing is named in the legend, notes go under the axis."""
    spec, _ = P.spec(label)
    for f in spec["figures"]:
        if not f["id"].startswith("sandwich"):
            continue
        for a in f["figure"]["layout"].get("annotations", []):
            assert a.get("yref") == "paper" and a.get("y", 1) <= 0 and a.get("yshift", 0) < 0, (f["id"], a)


def test_non_separable_lower_curves_are_cut_off_and_say_so():
    spec, trace = P.spec("perceptron, label noise")
    sp = trace.proofs["nonseparable"]
    assert float(np.min(sp.series["td_lower"])) < -2 * float(np.max(sp.series["norm"]))  # it would plunge
    for fid in ("sandwich_A", "sandwich_B"):
        fig = next(f for f in spec["figures"] if f["id"] == fid)
        lay = fig["figure"]["layout"]
        notes = " ".join(a["text"].replace("<br>", " ") for a in lay["annotations"])
        assert "cut off below" in notes and "says nothing" in notes
        assert lay["yaxis"]["range"][0] >= -1.2 * float(np.max(
            sp.series["norm"] if fid == "sandwich_A" else trace.proofs["hinge"].series["norm_u"])) - 1e-9
    # "so far" (the run, checked at every round) and "over the whole run" (the bound) are told apart
    names = P.legend_entries(spec["figures"][1]["figure"])
    assert "γM − TDᵧ so far" in names
    assert f"γM − TDᵧ, TDᵧ over the whole run = {sp.constants['TD']:.4g}" in names


def test_the_perceptron_caption_never_prints_plus_zero():
    spec, trace = P.spec("perceptron")
    assert float(np.asarray(trace.columns["score"])[0]) == 0.0          # w = 0 on the first round
    assert "w·x = 0," in caption_at(spec, 1) and "+0" not in caption_at(spec, 1)


def test_no_arrowhead_at_the_origin_while_w_is_zero():
    spec, trace = P.spec("perceptron")
    main = figures_at(spec, 0)[0]
    w = next(t for t in main["data"] if t.get("name", "").startswith("w (") or t.get("name") == "w")
    assert w["x"] == [] and w["y"] == []


def test_ten_thousand_points_are_faded():
    from olc_ui.shared.plane_view import point_style
    size, opacity = point_style(10_000)["seen"]
    assert size <= 4 and opacity <= 0.5
    assert point_style(200)["seen"][1] > 0.9


@pytest.mark.parametrize("label", ["perceptron", "perceptron, label noise", "margin_perceptron"])
def test_no_caption_prints_a_signed_zero(label):
    spec, trace = P.spec(label)
    for p in range(0, min(spec["T"], 60) + 1):
        cap = caption_at(spec, p)
        assert not re.search(r"= [+−-]0(\.0+)?(?!\.?\d)", cap), (p, cap)
        # the label y and the prediction ŷ are written alike (one minus sign for both)
        assert "y = -1" not in cap, (p, cap)
