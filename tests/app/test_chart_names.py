"""Issue 32 §6: every chart a page draws with st.plotly_chart (outside the step viewer) gets an accessible name
and a description, sent by olc_ui/shared/chart_names.py's script beside it (in the browser: tests/e2e/test_chart_a11y.py).
Here: the names the page sends, one per chart, in the order the charts are drawn."""
from __future__ import annotations

import json
import re

from olc_ui.shared.chart_names import script
from tests.app.pagetest import open_page, page_path

_DATA = re.compile(r"Object\.assign\(names, (\{.*?\})\);", re.S)


def _named(at) -> list[dict]:
    out = []
    for el in at.get("html"):
        m = _DATA.search(el.proto.body or "")
        if m:
            out.extend(json.loads(m.group(1)).values())
    return out


def _names(at) -> list[str]:
    return [d["name"] for d in _named(at)]


def test_the_script_carries_the_name_and_text_as_data():
    s = script("k", "A <b>chart</b>", "x = 1 < 2")
    m = _DATA.search(s)
    assert m and json.loads(m.group(1)) == {"k": {"name": "A <b>chart</b>", "text": "x = 1 < 2"}}
    assert "<b>" not in m.group(1)  # "<" escaped: nothing of the texts is read as HTML


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
