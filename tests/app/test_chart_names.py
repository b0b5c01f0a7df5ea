"""Issue 32 §6: every chart a page draws with st.plotly_chart carries its accessible name in its figure
(layout.meta.olc_name, read by olc_ui/shared/chart_names.py's script in the browser: tests/e2e/test_chart_a11y.py)."""
from __future__ import annotations

import json

from olc_ui.shared.chart_names import JS, NAME_KEY, named
from tests.app.pagetest import open_page, page_path


def _names(at) -> list[str]:
    return [json.loads(c.proto.spec)["layout"].get("meta", {}).get(NAME_KEY, "") for c in at.get("plotly_chart")]


def test_named_keeps_other_meta_and_the_script_reads_the_same_key():
    fig = named({"data": [], "layout": {"meta": {"x": 1}}}, "A chart")
    assert fig["layout"]["meta"] == {"x": 1, NAME_KEY: "A chart"}
    assert named({"data": []}, "B")["layout"]["meta"] == {NAME_KEY: "B"}
    assert f"meta.{NAME_KEY}" in JS and "'aria-label'" in JS and "'role'" in JS


def test_the_bound_explorers_two_charts_are_named_by_what_they_show():
    at = open_page(page_path("bound_explorer"), timeout=300)
    assert not at.exception
    assert _names(at) == [
        "Measured mistakes M and the theorem's bound, against γ: margin γ of the planted w*, median and range over 5 "
        "seeds per value",
        "Tightness: measured / bound, against γ: margin γ of the planted w*, median and range over 5 seeds per value "
        "(1: the bound is attained)"]
    at = open_page(page_path("bound_explorer"), timeout=300, alg="winnow", seeds=2, points=2, T=200)
    assert all(n.startswith(s) and "against N: variables" in n and "over 2 seeds" in n
               for n, s in zip(_names(at), ("Measured mistakes M and the theorem's bound", "Tightness")))


def test_the_compare_pages_sweep_chart_and_the_click_canvas_are_named():
    at = open_page(page_path("compare"), timeout=300)
    [name] = _names(at)
    assert name.startswith("Mistakes against N (k = 2 relevant, T = 300): each learner's mistakes, median and range "
                           "over 5 seeds, and its theorem's bound")
    at = open_page(page_path("perceptron"), timeout=300, data="click", pts="0.5,0.5,1;-0.5,0.2,-1")
    assert _names(at) == ["Click canvas: 2 points so far; a click adds a point labelled +1"]
