"""The step viewer's Python side: spec validation, JSON helpers, static assets, the mount.

The browser side is tested in tests/e2e/test_viewer.py; here the viewer's number
formatter (olc_ui/viewer/assets/viewer.js) is also run under node, when node is installed,
against Python's format().
"""
from __future__ import annotations

import copy
import json
import shutil
import sys

import numpy as np
import pytest

import olc_core
from olc_ui.viewer import assets as va
from olc_ui.viewer import component as ov
from olc_ui.viewer import spec as vs
from tests.conftest import ROOT, node_eval

sys.path.insert(0, str(ROOT / "tests" / "e2e" / "apps"))
from perceptron_spec import build_spec  # noqa: E402


@pytest.fixture(scope="module")
def perceptron_spec() -> dict:
    s = olc_core.streams.separable(T=120, d=2, gamma=0.05, seed=0)
    tr = olc_core.run("perceptron", s.X, s.y, comparator=s.comparator)
    return build_spec(tr, s.X, s.y, run_id="p-120")


@pytest.fixture(scope="module")
def noisy_spec() -> dict:
    s = olc_core.streams.noisy(T=400, d=2, gamma=0.05, noise=0.1, seed=0)
    tr = olc_core.run("perceptron", s.X, s.y, comparator=s.comparator)
    return build_spec(tr, s.X, s.y, run_id="n-400")


def test_valid_specs_pass(perceptron_spec, noisy_spec):
    vs.validate_spec(vs.minimal_spec())
    vs.validate_spec(vs.minimal_spec(T=0))
    vs.validate_spec(perceptron_spec)
    vs.validate_spec(noisy_spec)
    json.dumps(perceptron_spec, allow_nan=False)  # plain JSON, no NaN


def test_perceptron_spec_is_the_runs_data(perceptron_spec):
    """The demo spec carries the run's own numbers: breaks = mistakes + 1, ledger per state."""
    s = olc_core.streams.separable(T=120, d=2, gamma=0.05, seed=0)
    tr = olc_core.run("perceptron", s.X, s.y, comparator=s.comparator)
    assert perceptron_spec["mistake_rounds"] == tr.mistakes.tolist()
    assert perceptron_spec["breaks"] == (tr.mistakes + 1).tolist()
    K = tr.n_mistakes + 1
    line = perceptron_spec["ledger"]["lines"][0]
    assert line["values"]["inner"]["data"] == pytest.approx(tr.proof.series["inner"].tolist())
    assert line["holds"]["data"] == [1] * K  # separable data: the proof's checks hold at every state
    w = tr.weights_at(int(tr.mistakes[0]) + 1)
    hx, hy = perceptron_spec["arrays"]["hp_x"][1], perceptron_spec["arrays"]["hp_y"][1]
    # the hyperplane of state 1 is perpendicular to w and through the origin
    assert w[0] * hx[0] + w[1] * hy[0] == pytest.approx(0, abs=1e-3)
    assert w[0] * hx[1] + w[1] * hy[1] == pytest.approx(0, abs=1e-3)


def _set(spec: dict, path: str, value) -> dict:
    spec = copy.deepcopy(spec)
    keys = path.split("/")
    cur = spec
    for k in keys[:-1]:
        cur = cur[int(k)] if isinstance(cur, list) else cur[k]
    last = keys[-1]
    if value is _DEL:
        del cur[last]
    elif isinstance(cur, list):
        cur[int(last)] = value
    else:
        cur[last] = value
    return spec


_DEL = object()

BAD = [
    # (path, new value, part of the message)
    ("run_id", _DEL, "run_id: is missing"),
    ("run_id", "", "run_id: must be a non-empty string"),
    ("version", 2, "version: must be 1"),
    ("T", -1, "T: must be an integer >= 0"),
    ("T", True, "T: must be an integer"),
    ("position", 11, "position: must be an integer in [0, T=10]"),
    ("position", 1.5, "position: must be an integer"),
    ("url_param", "t&x", "url_param"),
    ("breaks", [5, 3], "breaks: must be sorted strictly ascending"),
    ("breaks", [11], "breaks[0]: must be an integer in [0, 10]"),
    ("mistake_rounds", [10], "mistake_rounds[0]: must be an integer in [0, 9]"),
    ("extra_stops", {"mistake": [1]}, "extra_stops"),
    ("extra_stops", {"margin mistake": [3, 3]}, "sorted strictly"),
    ("speed", 0, "speed"),
    ("colour", "red", "unknown key(s) ['colour']"),
    ("arrays/x", (1, 2), "arrays['x']: must be a list"),
    ("figures/0/id", "ledger", "figures[0].id"),
    ("figures/0/height", 10, "figures[0].height"),
    ("figures/0/figure", {"layout": {}}, "figures[0].figure"),
    ("figures/0/dynamic/0/op", "rows_after", "dynamic[0].op: must be one of"),
    ("figures/0/dynamic/0/trace", 1, "dynamic[0].trace: must be a trace index in [0, 1)"),
    ("figures/0/dynamic/0/x", "nope", "names array 'nope'"),
    ("figures/0/dynamic/0/render", "canvas", "'canvas' is for rows_before, rows_from, rows_all only"),
    ("figures/0/dynamic/0/op", "rows_all", "rows_all (a static point layer) needs render 'canvas'"),
    ("figures/0/dynamic/0/back", 3, "unknown key(s) ['back']"),
    ("arrays/y", [0.0] * 9, "must have one entry per row of 'r' (10)"),
    ("arrays/r", list(range(9, -1, -1)), "must be sorted ascending"),
    ("ledger/lines/0/values/M/data", [0], "by 'state' needs 2 entries"),
    ("ledger/lines/0/values/M/fmt", ".4x", "fmt"),
    ("ledger/lines/0/values/M/by", "time", "by: must be 'state', 'position' or 'round'"),
    ("ledger/lines/0/values/t", {"const": 1}, "'t' is a built-in name"),
    ("ledger/lines/0/holds/data", [1, 2], "must be 1 (holds), 0 (fails) or None"),
    ("ledger/lines/0/latex", "", "latex: must be a non-empty string"),
    ("ledger/lines/0/latex", r"\mathrm{M} = {M}", r"\mathrm{M} would show the value 'M'"),
    ("ledger/lines/0/latex", r"\text{k} \le {M}", r"\text{k} would show the value 'k'"),
    ("ledger/lines/0/values/M", {"const": 1, "by": "state", "data": [0, 1]}, "not both"),
    ("ledger/lines/0/values/M/labels", ["a"], "label indices in [0, 1)"),
    ("caption/values", {"n": {"by": "round", "data": [1]}}, "by 'round' needs 10 entries (T)"),
    ("caption/template", 3, "caption"),
    ("layout/columns", [["main"]], "not placed: ['ledger']"),
    ("layout/columns", [["main", "ledger", "main"]], "placed more than once"),
    ("layout/columns", [["main", "ledger", "other"]], "'other' is not a figure id"),
    ("layout/widths", [1, 2], "layout.widths"),
]


@pytest.mark.parametrize("path,value,message", BAD, ids=[b[0] + ":" + b[2][:30] for b in BAD])
def test_malformed_spec_raises(path, value, message):
    spec = _set(vs.minimal_spec(T=10, mistakes=[4]), path, value)
    with pytest.raises(ValueError, match="viewer spec") as exc:
        vs.validate_spec(spec)
    assert message in str(exc.value)


def test_op_shapes(perceptron_spec):
    spec = perceptron_spec
    K = len(spec["breaks"]) + 1
    # state arrays: one entry per state
    bad = _set(spec, "arrays/hp_x", spec["arrays"]["hp_x"][:-1])
    with pytest.raises(ValueError, match=rf"needs {K} entries \(one per state\)"):
        vs.validate_spec(bad)
    # on_mistake: one entry per break
    bad = _set(spec, "arrays/ax_x", spec["arrays"]["ax_x"] + [None])
    with pytest.raises(ValueError, match="one per entry of breaks"):
        vs.validate_spec(bad)
    # point_state: flat, one per state
    bad = _set(spec, "arrays/s_norm", spec["arrays"]["s_norm"][:2])
    with pytest.raises(ValueError, match="one per state"):
        vs.validate_spec(bad)
    # a trace driven twice
    dyn = spec["figures"][0]["dynamic"]
    bad = _set(spec, "figures/0/dynamic", dyn + [dict(dyn[-1])])
    with pytest.raises(ValueError, match="already driven"):
        vs.validate_spec(bad)
    # a state entry that is not a list
    bad = _set(spec, "arrays/hp_y", [3.0] * K)
    with pytest.raises(ValueError, match=r"hp_y'\]\[0\]: must be a list"):
        vs.validate_spec(bad)


def test_not_json_is_a_value_error():
    spec = vs.minimal_spec()
    spec["arrays"]["y"] = [float("nan")] * 10
    with pytest.raises(ValueError, match="NaN or infinity"):
        ov._dump(spec)
    spec["arrays"]["y"] = np.zeros(10)
    with pytest.raises(ValueError, match="jsonable"):
        ov._dump(spec)
    with pytest.raises(ValueError, match="must be a dict"):
        vs.validate_spec([1, 2])


def test_jsonable():
    out = vs.jsonable({"a": np.array([1.5, np.nan, np.inf]), "b": np.arange(3), "c": (np.float32(2.0), True),
                       "d": np.bool_(True), "e": [np.int64(7), None, "x"]}, ndigits=3)
    assert out == {"a": [1.5, None, None], "b": [0, 1, 2], "c": [2.0, True], "d": True, "e": [7, None, "x"]}
    assert json.dumps(out, allow_nan=False)
    assert type(out["b"][0]) is int


def test_ensure_static_assets(tmp_path):
    urls = va.ensure_static_assets(tmp_path)
    assert urls["plotly"].startswith("app/static/olc/plotly-") and urls["plotly"].endswith(".min.js")
    for url in urls.values():
        f = tmp_path / url.removeprefix("app/")
        assert f.is_file() and f.stat().st_size > 1000, url
    plotly_file = tmp_path / urls["plotly"].removeprefix("app/")
    assert plotly_file.read_bytes()[:200] == va._plotly_js()[0].read_bytes()[:200]
    fonts = list((tmp_path / "static/olc" / f"katex-{va.KATEX_VERSION}" / "fonts").glob("*.woff2"))
    assert len(fonts) == 20
    # the stylesheet's woff2 fonts are all there
    css = (tmp_path / urls["katex_css"].removeprefix("app/")).read_text()
    wanted = {p.split("/")[-1] for p in __import__("re").findall(r"url\((fonts/[^)]+\.woff2)\)", css)}
    assert wanted == {f.name for f in fonts}
    mtime = plotly_file.stat().st_mtime_ns
    va.ensure_static_assets(tmp_path)  # already there: not copied again
    assert plotly_file.stat().st_mtime_ns == mtime


APP = '''
import streamlit as st
from olc_ui.viewer import component as ov
from olc_ui.viewer import spec as vs
spec = vs.minimal_spec(T=10, mistakes=[2, 5], run_id=st.session_state.get("run", "a"))
spec["position"] = st.session_state.get("p0", 3)
if st.session_state.get("broken"):
    spec["breaks"] = [5, 2]
p = ov.viewer(spec, key="v")
st.write(f"position={p}")
'''


def test_viewer_mounts_in_apptest():
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_string(APP, default_timeout=30).run()
    assert not at.exception
    assert at.markdown[-1].value == "position=3"
    # same run, another initial position: the run's first position stands
    at.session_state["p0"] = 7
    at.run()
    assert at.markdown[-1].value == "position=3"
    # a new run starts at its own position
    at.session_state["run"] = "b"
    at.run()
    assert at.markdown[-1].value == "position=7"
    at.session_state["broken"] = True
    at.run()
    # a broken spec stops the page; students see that an error occurred, not its text
    # (.streamlit/config.toml: client.showErrorDetails = "none"; the message is in the server log)
    assert at.exception and "breaks" not in at.exception[0].message


NODE = shutil.which("node")


def _viewer_js(tmp_path, expression: str, data=None):
    """Evaluate ``expression`` under node with ``m._testing`` (viewer.js's test hooks) and ``data`` (JSON) bound;
    return its JSON value."""
    return node_eval(tmp_path, "viewer.js", expression, data)


@pytest.mark.skipif(NODE is None, reason="node is not installed")
def test_js_number_format_matches_python(tmp_path):
    rng = np.random.default_rng(0)
    cases = []
    fmts = [".4g", ".3g", ".1g", ".6g", ".3f", "+.3f", ".0f", ".2e", "+.4g", ",.2f", " .2f", "g", ".3%"]
    for _ in range(3000):
        v = float(rng.choice([-1, 1]) * 10 ** rng.uniform(-7, 9))
        r = rng.random()
        if r < 0.3:
            v = float(np.round(v, int(rng.integers(0, 8))))
        elif r < 0.5:  # exact binary ties (0.125, 2.5, …): Python rounds them to even
            v = float(rng.integers(-4000, 4000)) / 2 ** int(rng.integers(0, 12))
        cases.append([v, str(rng.choice(fmts))])
    cases += [[float(x), f] for x in (0.125, 0.375, 2.5, 0.03125, 9.5, 0.0, 1e-5, 123456.0, 1e21 / 3)
              for f in (".2f", ".0f", ".3g", ".1g", ".0e", ".2e")]
    cases += [[int(n), f] for n in (0, 7, -12, 1234567, 10 ** 12) for f in ("d", "+d", ",d")]
    cases = [c for c in cases if not (c[1].endswith("%") and abs(c[0]) > 1e6)]
    got = _viewer_js(tmp_path, "data.map(([v, f]) => m._testing.formatNumber(v, f))", cases)
    mismatches = [(v, f, g, format(v, f)) for (v, f), g in zip(cases, got) if g != format(v, f)]
    assert not mismatches, mismatches[:10]


def test_spec_doc_lists_every_op():
    doc = (ROOT / "docs" / "viewer-spec.md").read_text()
    for op in vs.OPS:
        assert f"`{op}" in doc, op


@pytest.mark.skipif(NODE is None, reason="node is not installed")
def test_js_prints_infinities_and_undefined_like_the_python_snapshot(tmp_path):
    from olc_ui.viewer.snapshot import _fmt
    cases = [["inf", ".4g"], ["-inf", ".4g"], [None, ".4g"], [2.5, ".4g"]]
    got = _viewer_js(tmp_path, "data.map(([v, f]) => m._testing.formatValue(v, f))", cases)
    assert [g["text"] for g in got] == ["∞", "−∞", "—", "2.5"] == [_fmt(v, f) for v, f in cases]
    assert [g["latex"] for g in got[:2]] == ["\\infty", "-\\infty"] == [_fmt(v, f, latex=True) for v, f in cases[:2]]


@pytest.mark.skipif(NODE is None, reason="node is not installed")
def test_a_per_round_value_before_any_round_prints_alike_in_js_and_python(tmp_path):
    """At p = 0 a "by round" value has no round: blank in a caption, "n/a" in a ledger line (not an empty slot)."""
    from olc_ui.viewer.snapshot import BLANK, _fmt, ledger_at
    got = _viewer_js(tmp_path, "m._testing.formatValue(m._testing.BLANK, '.4g')")
    assert got == {"text": _fmt(BLANK, ".4g"), "latex": _fmt(BLANK, ".4g", latex=True)} == {"text": "", "latex": "\\text{n/a}"}
    spec = {"T": 2, "breaks": [], "ledger": {"lines": [{"latex": "d = {v} \\le 1", "values": {"v": {"by": "round", "data": [0.5, 2.0], "fmt": ".2f"}},
                                                     "holds": {"by": "round", "data": [True, False]}}]}}
    assert ledger_at(spec, 0) == [{"latex": "d = \\text{n/a} \\le 1", "holds": None, "reason": ""}]
    assert ledger_at(spec, 2)[0]["holds"] is False and "2.00" in ledger_at(spec, 2)[0]["latex"]


@pytest.mark.skipif(NODE is None, reason="node is not installed")
def test_a_relation_value_prints_alike_in_js_and_python(tmp_path):
    """fmt "rel" (olc_ui.shared.spec_tools.live_relations): the label's LaTeX in a ledger line, its sign in text;
    a label outside the closed list prints "?" in the browser (and the validator refuses it)."""
    from olc_ui.viewer.snapshot import _fmt
    from olc_ui.viewer.spec import REL_LATEX
    labels = [">", "\\le", "\\overset{?}{\\le}"]
    got = _viewer_js(tmp_path, "data.map(v => m._testing.formatValue(v, 'rel', " + json.dumps(labels) + "))", [0, 1, 2])
    assert [g["latex"] for g in got] == labels == [_fmt(x, "rel", latex=True) for x in labels]
    assert [g["text"] for g in got] == [">", "≤", "≤?"] == [REL_LATEX[x] for x in labels]
    assert _viewer_js(tmp_path, "m._testing.formatValue(0, 'rel', ['\\\\href{x}'])") == {"text": "?", "latex": "?"}


INDEX_CASES = ["A. each mistake adds y_t⟨w*,x_t⟩ ≥ γ", "Φ_{t+1} ≤ (1+β)/2·Φ_t", "w_{i*} = β^{p_{i*}} ≥ β^{m_{i*}}",
               "m*_t = min_i m_{t,i}", "TD_γ over the whole run", "2^M ≤ |H|", "level_r ≤ cap_r", "no marker",
               "an unmatched _{brace", "a marker at the end_", "x_ y", "<b>not html</b>_{<i>}", "e^{−ηF_t}"]


def _py_parts(parts):
    return [p if isinstance(p, str) else {"tag": p[0], "parts": _py_parts(p[1])} for p in parts]


@pytest.mark.skipif(NODE is None, reason="node is not installed")
def test_index_notation_parses_alike_in_js_and_python(tmp_path):
    from olc_ui.shared.common import index_parts
    got = _viewer_js(tmp_path, "data.map(m._testing.indexParts)", INDEX_CASES)
    assert got == [_py_parts(index_parts(s)) for s in INDEX_CASES]


def test_index_notation_as_html():
    from olc_ui.shared.common import rich_html
    assert rich_html("Φ_{t+1} ≤ Φ_t") == "Φ<sub>t+1</sub> ≤ Φ<sub>t</sub>"
    assert rich_html("w_{i*} = β^{p_{i*}}") == "w<sub>i*</sub> = β<sup>p<sub>i*</sub></sup>"
    assert rich_html("2^M, an unmatched _{x, the end_") == "2<sup>M</sup>, an unmatched _{x, the end_"
    assert rich_html("<b>x</b>_{<i>}") == "&lt;b&gt;x&lt;/b&gt;<sub>&lt;i&gt;</sub>"   # text is escaped, never HTML


@pytest.mark.skipif(NODE is None, reason="node is not installed")
def test_js_unpacks_the_bytes_python_sends_and_parses_them_once(tmp_path):
    """The viewer's data travel as bytes (olc_ui.viewer.component._payload: Streamlit would dump a dict twice more
    per run). viewer.js reads back exactly what Python meant, parses the same bytes only once (a rerun resends
    them), parses new ones, and takes nothing that lacks the header."""
    from olc_ui.viewer.component import _payload, decode_payload

    spec = {"T": 3, "run_id": "r1", "note": "γ ≤ ‖x‖ — ünïcode", "x": [0.1, 2.5e-300, None]}
    rest = {"assets": {"plotly": "p.js"}, "download": "perceptron", "resume": False, "modes": {}}
    first = _payload(json.dumps(spec, separators=(",", ":")), rest)
    second = _payload(json.dumps({**spec, "run_id": "r2"}, separators=(",", ":")), rest)
    assert decode_payload(first) == {"spec": spec, **rest}
    got = _viewer_js(tmp_path, """(() => {
      const v = {}, u = m._testing.unpack, b = (xs) => Uint8Array.from(xs);
      const a = u(v, b(data[0])), again = u(v, b(data[0])), other = u(v, b(data[1]));
      return {a, same: again === a, other_run: other.spec.run_id, plain: u(v, {spec: 1}),
              bad: u(v, b([123, 125])), buffer: u({}, b(data[0]).buffer).spec.run_id};
    })()""", [list(first), list(second)])
    assert got["a"] == {"spec": spec, **rest}
    assert got["same"] is True and got["other_run"] == "r2"
    assert got["plain"] == {"spec": 1} and got["bad"] is None and got["buffer"] == "r1"


def test_python_prints_a_numbers_minus_sign_as_the_viewer_does():
    """olc_ui.viewer.snapshot and viewer_format.js formatValue follow one rule: a formatted number's leading "-"
    is the minus sign U+2212 in text (caption, description, data table); a ledger line's LaTeX keeps "-"."""
    from olc_ui.viewer.snapshot import caption_at, ledger_at
    from olc_ui.viewer.spec import minimal_spec

    spec = minimal_spec(T=2, mistakes=[0])
    spec["caption"] = {"template": "score {s}, margin {m}, n {n}, label {y}",
                       "values": {"s": {"by": "round", "data": [-1.5, 0.25], "fmt": "+.2f"},
                                  "m": {"by": "round", "data": [-0.001, 2.0], "fmt": ".3g"},
                                  "n": {"by": "round", "data": [-3, 4], "fmt": "d"},
                                  "y": {"by": "round", "data": [0, 1], "labels": ["-1", "+1"]}}}
    spec["ledger"] = {"lines": [{"latex": "x = {s}", "values": {"s": {"by": "round", "data": [-1.5, 0.25],
                                                                          "fmt": ".2f"}}}]}
    assert caption_at(spec, 1) == "score −1.50, margin −0.001, n −3, label -1"   # a label is text, as written
    assert caption_at(spec, 2) == "score +0.25, margin 2, n 4, label +1"
    assert ledger_at(spec, 1)[0]["latex"] == "x = -1.50"
