"""olc_plot (issue 36 §3): a run's sandwich, a 2-D run's plane and the weights, each with a slider over the
rounds, built from the app's figure code — every frame is the figure the page shows at that position, and
every number a frame draws is read from the trace."""
from __future__ import annotations

import re
import subprocess
import sys

import numpy as np
import pytest

import olc_core
import olc_plot
from olc_ui.lessons.perceptron.view import perceptron_spec
from olc_ui.shared.spec_tools import sig
from olc_ui.viewer.snapshot import figures_at
from olc_ui.viewer.spec import jsonable
from tests.conftest import ROOT
from tests.core.cases import all_cases

CASES = {c.id: c for c in all_cases()}


def _frame(fig, p: int):
    return next(f for f in fig.frames if f.name == str(p))


def _now_markers(fig, p: int) -> dict[str, float]:
    """The "now" marker of each series at position p: {series name: y}."""
    fr = _frame(fig, p)
    out = {}
    for i, tr in zip(fr.traces, fr.data):
        name = fig.data[i].name or ""
        if name.endswith(" now") and tr.y is not None and len(tr.y) == 1:
            out[name[:-4]] = tr.y[0]
    return out


@pytest.mark.parametrize("cid", sorted(CASES))
def test_the_sandwich_marks_each_series_of_the_chain_at_every_step(cid):
    case = CASES[cid]
    X, y, params = case.make(0)
    tr = olc_core.run(case.algorithm, X, y, **params)
    p = tr.proof
    fig = olc_plot.sandwich(tr)
    steps = [int(s.label) for s in fig.layout.sliders[0].steps]
    assert steps[0] == 0 and steps[-1] == tr.T and len(fig.frames) == len(steps)
    keys = [k for k in p.chains[0].keys if np.isfinite(np.asarray(p.series[k], dtype=float)).any()]
    names = [olc_plot.text(p.label(k)) for k in keys]
    for pos in steps[:: max(1, len(steps) // 12)] + [tr.T]:
        k = p.index(pos)
        now = _now_markers(fig, pos)
        assert set(now) == set(names), (now, names)
        for key, name in zip(keys, names):
            want = float(sig(np.asarray(p.series[key], dtype=float)[k], 7))
            got = now[name]
            assert (got is None and not np.isfinite(want)) or got == pytest.approx(want, rel=1e-12), (pos, key)
    note = " ".join(a.text for a in fig.layout.annotations)
    if p.mistake_bound is not None:
        assert repr(p.mistake_bound) in note
    else:
        assert "No bound" in note and all(a.name in note for a in p.failed_assumptions)


def test_legend_names_are_plain_text():
    for case in CASES.values():
        X, y, params = case.make(0)
        tr = olc_core.run(case.algorithm, X, y, **params)
        for name in tr.proofs:
            p = tr.proofs[name]
            for key in {k for ch in p.chains for k in ch.keys}:
                t = olc_plot.text(p.label(key))
                assert t and not re.search(r"[\\{}]", t), (p.label(key), t)


def test_the_plane_is_the_pages_main_chart_at_every_step():
    s = olc_core.streams.separable(T=150, d=2, gamma=0.1, radius=1.0, seed=3)
    tr = olc_core.run("perceptron", s.X, s.y, comparator=s.comparator)
    fig = olc_plot.plane(tr, s.X, s.y)
    spec = jsonable(perceptron_spec(tr, s.X, s.y, run_id="t"))
    page = spec["figures"][0]
    assert [t.name for t in fig.data] == [t.get("name") for t in page["figure"]["data"]]
    for pos in (0, 1, int(tr.mistakes[-1]) + 1, 77, tr.T):
        want = figures_at(spec, pos)[0]["data"]
        fr = _frame(fig, pos)
        for i, got in zip(fr.traces, fr.data):
            for axis in ("x", "y"):
                a, b = want[i].get(axis), getattr(got, axis)
                assert list(a or []) == list(b or []), (pos, i, axis)


def test_the_weights_are_the_traces_weights():
    s = olc_core.streams.sparse_disjunction(T=200, N=50, k=2, seed=0)
    tr = olc_core.run("winnow", s.X, s.y)
    fig = olc_plot.weights(tr, top=8)
    cols = [int(c) - 1 for c in fig.data[0].x]
    assert len(cols) == 8
    final = tr.log_weights_at(tr.T)
    assert set(np.argsort(-final, kind="stable")[:8]) == set(cols)
    for step in fig.layout.sliders[0].steps:
        t = int(step.label)
        assert list(_frame(fig, t).data[0].y) == tr.log_weights_at(t)[cols].tolist()
    lo, hi = fig.layout.yaxis.range
    assert lo <= float(np.min(final[cols])) and hi >= float(np.max(final[cols]))
    pt = olc_core.run("perceptron", *olc_core.streams.separable(T=50, d=3, gamma=0.1, radius=1.0, seed=0))
    fig = olc_plot.weights(pt)
    assert list(_frame(fig, 50).data[0].y) == pt.weights_at(50).tolist() and fig.layout.yaxis.title.text == "wᵢ"


def test_from_spec_draws_any_page_figure():
    s = olc_core.streams.separable(T=80, d=2, gamma=0.1, radius=1.0, seed=1)
    tr = olc_core.run("perceptron", s.X, s.y, comparator=s.comparator)
    spec = jsonable(perceptron_spec(tr, s.X, s.y, run_id="t"))
    fig = olc_plot.from_spec(spec, "sandwich_A", position=40)
    assert fig.layout.sliders[0].steps[fig.layout.sliders[0].active].label == "40"
    i = [f["id"] for f in spec["figures"]].index("sandwich_A")
    assert [t.x for t in fig.data] == [tuple(t["x"]) if t.get("x") is not None else None
                                       for t in figures_at(spec, 40)[i]["data"]]
    with pytest.raises(ValueError, match="no figure 'nope'"):
        olc_plot.from_spec(spec, "nope")


def test_plane_says_what_it_draws():
    s = olc_core.streams.sparse_disjunction(T=50, N=20, k=2, seed=0)
    with pytest.raises(ValueError, match="2-D run of the Perceptron"):
        olc_plot.plane(olc_core.run("winnow", s.X, s.y), s.X, s.y)


BLOCK = """
import importlib.abc, sys
class Block(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in {blocked!r}:
            raise ImportError(name + " is blocked for this test")
sys.meta_path.insert(0, Block())
"""


def test_olc_plot_needs_no_streamlit_and_says_when_plotly_is_missing():
    code = BLOCK.format(blocked=("streamlit",)) + (
        "import olc_core, olc_plot\n"
        "s = olc_core.streams.separable(T=60, d=2, gamma=0.1, radius=1.0, seed=0)\n"
        "tr = olc_core.run('perceptron', s.X, s.y, comparator=s.comparator)\n"
        "olc_plot.sandwich(tr); olc_plot.plane(tr, s.X, s.y); olc_plot.weights(tr)\n"
        "assert not [m for m in sys.modules if m.split('.')[0] == 'streamlit']\nprint('ok')\n")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0 and out.stdout.strip() == "ok", out.stderr
    code = BLOCK.format(blocked=("plotly",)) + "import olc_plot\n"
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert out.returncode != 0 and "pip install plotly" in out.stderr
