"""A "<" in a legend name survives wrapping (issue 32 §7: the projector showed "band |⟨w*,x⟩|  γ"): the wrap split a
name into words with ``(?:<[^>]*>|[^\\s<])+``, which matches no bare "<", so the "<" was dropped. Plotly draws a "<"
that opens none of its tags as typed; the viewer's wrap (presentation mode's two-column legend, viewer_present.js;
the phone's legend, viewer_phone.js) now keeps every character, and only plotly's own tags are taken as markup."""
from __future__ import annotations

import re

import numpy as np

from olc_ui.shared.plane_view import _comparator_layer
from tests.conftest import node_eval

#: the Perceptron's band name as plane_view.py makes it, and names mixing plotly's tags with "<" and ">"
NAMES = ["margin band |⟨w*,x⟩| < γ = 0.0723", "points, band |⟨w*,x⟩| < γ = 0.05 and the learner's w",
         "x<sup>2</sup> < y > z: <b>a</b> <i>b c</i> & d", "M < 4.2 (shaded: beyond it)", "<b>1 <</b> 2", "a<b",
         "w·x &lt; 0 on mistakes < 3"]


def _plain(name: str) -> str:
    """What plotly shows of a label, spaces and line breaks aside: its tags (only plotly's) left out."""
    name = re.sub(r"<br\s*/?>", " ", name, flags=re.I)
    name = re.sub(r"</?(?:b|i|em|sup|sub|a|span|s|u)(?:\s[^<>]*)?/?>", "", name, flags=re.I)
    return "".join(name.split())


def test_the_wrap_keeps_every_character(tmp_path):
    got = node_eval(tmp_path, "viewer_present.js", "data.names.map((n) => data.widths.map((c) => m.wrapName(n, c)))",
                    {"names": NAMES, "widths": [8, 10, 14, 20, 60]})
    for name, wraps in zip(NAMES, got):
        for w in wraps:
            assert _plain(w) == _plain(name), (name, w)
    band = got[0][1]
    assert "< γ" in band.replace("<br>", " ") and band.count("<br>") >= 2, band


def test_the_projector_legend_keeps_the_band_name(tmp_path):
    """presentFigure at the projector's width on the comparator's traces as plane_view.py makes them (a horizontal
    legend of four entries: two columns, names wrapped): every name keeps its "<"."""
    data: list = []
    _comparator_layer(np.array([1.0, 0.5]), 0.0723, 1.0, data)
    data += [{"type": "scatter", "name": n} for n in ("seen, y = +1", "seen, y = −1")]
    layout = {"legend": {"orientation": "h"}, "margin": {"l": 40, "r": 10}}
    got = node_eval(tmp_path, "viewer_present.js", "(() => { const d = data.d.map((t) => ({...t})), l = {...data.l};"
                    " m.presentFigure(d, l, 16, 3, 520); return d.map((t) => t.name || null); })()",
                    {"d": data, "l": layout})
    band = [(t["name"], g) for t, g in zip(data, got) if "band" in t["name"]]
    assert band and all("<br>" in g and _plain(g) == _plain(n) for n, g in band), band


def test_the_phone_legend_keeps_the_band_name(tmp_path):
    data = [{"type": "scatter", "name": n} for n in NAMES[:4]]
    got = node_eval(tmp_path, "viewer_phone.js", "(() => { const d = data.d; m.phoneLegend(d, {margin: {l: 40, r: 10}},"
                    " 12, data.w); return d.map((t) => t.name); })()", {"d": data, "w": 2000})
    assert [_plain(n) for n in got] == [_plain(n) for n in NAMES[:4]]       # one row: whole
    narrow = node_eval(tmp_path, "viewer_phone.js", "(() => { const d = data.d; m.phoneLegend(d, {margin: {l: 40, r: 10}},"
                       " 12, data.w); return d.map((t) => t.name); })()", {"d": data, "w": 390})
    assert "<" in _plain(narrow[0]) and "<" in _plain(narrow[3]), narrow
