"""What makes a lesson page's first load cheaper (issue 24, "first load"), without a browser:

- olc_ui.viewer.spec.per_state: per-position data that change only at breaks, sent per state, show the same at
  every position (checked with the Python twin of the viewer, olc_ui/viewer/snapshot.py);
- olc_ui.viewer.component: the spec's JSON is the same text, its large parts dumped once per object; the preload
  script is the viewer's own loader, in a form st.html runs;
- olc_ui.routes.AssetMiddleware: the viewer's libraries served immutable, compressed once, nothing else touched.

The browser side (the preload fills the cache the viewer reads; the page looks the same) is in
tests/e2e/test_perceptron_page.py and bench/ui_latency.py.
"""
from __future__ import annotations

import gzip
import json

import numpy as np
import pytest

import olc_core
from olc_ui import routes
from olc_ui.lessons.perceptron.view import perceptron_spec
from olc_ui.viewer import component, snapshot
from olc_ui.viewer.spec import STATE_SUFFIX, minimal_spec, per_state, validate_spec
from tests.conftest import run_async


def _run(noise: float, T: int = 400):
    s = olc_core.streams.separable(T=T, d=2, gamma=0.05, seed=3, noise=noise)
    tr = olc_core.run("perceptron", s.X, s.y, comparator=s.comparator)
    return tr, s


def _positions(T: int, breaks: list[int]) -> list[int]:
    around = {q for b in breaks[:30] for q in (b - 1, b, b + 1)}
    return sorted({0, 1, T - 1, T, *range(0, T + 1, 37), *around} & set(range(T + 1)))


@pytest.mark.parametrize("noise, use", [(0.1, "nonseparable"), (0.0, "separable"), (0.1, "separable")])
def test_the_perceptron_spec_is_valid_and_has_nothing_left_to_move(noise, use):
    tr, s = _run(noise)
    full = perceptron_spec(tr, s.X, s.y, run_id="r", use=use)    # per_state is applied inside it
    validate_spec(full)
    assert json.dumps(per_state(full)) == json.dumps(full)        # idempotent


def test_per_state_on_a_noisy_run_is_smaller_and_the_same_on_screen():
    tr, s = _run(0.1, T=600)
    spec = perceptron_spec(tr, s.X, s.y, run_id="r", use="nonseparable")
    # rebuild the per-position form: every per-state copy back to one entry per position
    k_of_p = [snapshot.state_index(spec, p) for p in range(spec["T"] + 1)]
    lines = spec["ledger"]["lines"]
    moved = [v for ln in lines for v in ln.get("values", {}).values() if v.get("by") == "state"]
    assert moved, "the TD_γ ledger's per-mistake values (M, ⟨w*, w⟩, ‖w‖, …) go per state"
    assert any(op["op"] == "point_state" for f in spec["figures"] for op in f.get("dynamic", []))
    assert any(n.endswith(STATE_SUFFIX) for n in spec["arrays"])
    wide = _per_position(spec, k_of_p)
    validate_spec(wide)
    assert len(json.dumps(per_state(wide))) < 0.8 * len(json.dumps(wide))
    assert json.dumps(per_state(wide), sort_keys=True) == json.dumps(per_state(spec), sort_keys=True)
    for p in _positions(spec["T"], spec["breaks"]):
        assert snapshot.figures_at(spec, p) == snapshot.figures_at(wide, p), p
        assert snapshot.ledger_at(spec, p) == snapshot.ledger_at(wide, p), p
        assert snapshot.caption_at(spec, p) == snapshot.caption_at(wide, p), p


def _per_position(spec: dict, k_of_p: list[int]) -> dict:
    """The spec as it was before per_state: per-state sources and copies expanded to one entry per position."""
    def src(v):
        if isinstance(v, dict) and v.get("by") == "state" and "data" in v:
            return {**v, "by": "position", "data": [v["data"][k] for k in k_of_p]}
        return v
    arrays = dict(spec["arrays"])
    for name in [n for n in arrays if n.endswith(STATE_SUFFIX)]:
        per_k = arrays.pop(name)
        wide = [per_k[k] for k in k_of_p]
        base = name[: -len(STATE_SUFFIX)]
        assert arrays.setdefault(base, wide) == wide    # an original kept for another use holds the same
    figures = []
    for f in spec["figures"]:
        dyn = [{**op, "op": "point_position", **{k: op[k][: -len(STATE_SUFFIX)] for k in ("x", "y", "text") if k in op}}
               if op["op"] == "point_state" and op["x"].endswith(STATE_SUFFIX) else op for op in f.get("dynamic", [])]
        g = {**f, "dynamic": dyn}
        if "describe" in f:
            g["describe"] = {**f["describe"], "values": {
                n: ({**v, "by": "position", "array": v["array"][: -len(STATE_SUFFIX)]}
                    if str(v.get("array", "")).endswith(STATE_SUFFIX) else v)
                for n, v in f["describe"].get("values", {}).items()}}
        figures.append(g)
    ledger = {**spec["ledger"], "lines": [
        {**ln, **({"values": {n: src(v) for n, v in ln["values"].items()}} if "values" in ln else {}),
         **({"holds": src(ln["holds"])} if ln.get("holds") is not None else {})} for ln in spec["ledger"]["lines"]]}
    return {**spec, "arrays": arrays, "figures": figures, "ledger": ledger}


def test_per_state_keeps_data_that_change_between_breaks_and_odd_breaks():
    s = minimal_spec(T=5, mistakes=[1, 3])          # breaks 2, 4
    s["ledger"]["lines"][0]["values"]["M"] = {"by": "position", "data": [0, 0, 1, 2, 2, 2], "fmt": "d"}  # not a step
    s["ledger"]["lines"][0]["values"]["N"] = {"by": "position", "data": [0, 0, 1.0, 1, 2, 2], "fmt": "d"}  # 1.0 ≠ 1
    out = per_state(s)
    assert out["ledger"]["lines"][0]["values"] == s["ledger"]["lines"][0]["values"]
    s["ledger"]["lines"][0]["values"] = {"M": {"by": "position", "data": [0, 0, 1, 1, 2, 2], "fmt": "d"}}
    assert per_state(s)["ledger"]["lines"][0]["values"]["M"] == {"by": "state", "data": [0, 1, 2], "fmt": "d"}
    assert s["ledger"]["lines"][0]["values"]["M"]["by"] == "position"    # the spec passed in is not changed
    odd = {**s, "breaks": [2, 2]}
    assert per_state(odd) is odd


def test_spec_json_is_the_same_text_and_each_large_part_is_dumped_once(monkeypatch):
    tr, s = _run(0.1)
    spec = perceptron_spec(tr, s.X, s.y, run_id="once", use="nonseparable")
    assert component._dump_spec(spec) == component._dump(spec)
    calls = []
    real = component._dump
    monkeypatch.setattr(component, "_dump", lambda v: calls.append(type(v).__name__) or real(v))
    component._dump_spec({**spec, "position": 7})        # the page's shallow copy: the same parts
    assert set(calls) <= {"str", "int"}, calls       # keys and scalars only
    with pytest.raises(ValueError, match="NaN"):
        component._dump_spec({**spec, "arrays": {**spec["arrays"], "bad": [float("nan")]}})


def test_preload_script_is_the_viewers_loader_in_a_form_st_html_runs():
    js = component._libs_js()
    assert "function loadLibs(" in js and "function loadScript(" in js and "__olcViewerLibs" in js
    assert "export " not in js and not component._MARKUP_RE.search(js)   # DOMPurify would drop the script
    assert "</script" not in js


# ------------------------------------------------------------------------------------------ serving the libraries

def _serve(mw, path, *, method="GET", headers=()):
    seen = {}

    async def inner(scope, receive, send):
        seen["passed"] = scope["path"]
        await send({"type": "http.response.start", "status": 404, "headers": []})
        await send({"type": "http.response.body", "body": b"", "more_body": False})

    sent = []

    async def send(m):
        sent.append(m)

    async def receive():
        return {"type": "http.request", "body": b"", "more_body": False}

    app = routes.AssetMiddleware(inner, **mw)
    run_async(app({"type": "http", "method": method, "path": path, "headers": list(headers)}, receive, send))
    return seen.get("passed"), sent[0]["status"], dict(sent[0]["headers"]), b"".join(m.get("body", b"") for m in sent[1:])


@pytest.fixture()
def olc_static(tmp_path):
    root = tmp_path / "static" / "olc"
    (root / "katex-0.19.1" / "fonts").mkdir(parents=True)
    (root / "plotly-basic-4.1.1.min.js").write_text("var Plotly = {};" * 500)
    (root / "katex-0.19.1" / "fonts" / "KaTeX_Main-Regular.woff2").write_bytes(b"wOF2" + bytes(300))
    (tmp_path / "secret.js").write_text("no")
    return root


def test_libraries_are_served_immutable_and_compressed(olc_static):
    mw = {"base_url": "/olc", "root": olc_static}
    gz = [(b"accept-encoding", b"gzip, deflate")]    # brotli: tests/ui/test_static_files.py
    passed, status, h, body = _serve(mw, "/olc/app/static/olc/plotly-basic-4.1.1.min.js", headers=gz)
    assert passed is None and status == 200
    assert h[b"cache-control"] == routes.IMMUTABLE and h[b"content-encoding"] == b"gzip"
    assert gzip.decompress(body) == (olc_static / "plotly-basic-4.1.1.min.js").read_bytes()
    assert h[b"content-length"] == str(len(body)).encode() and h[b"content-type"].startswith(b"text/javascript")
    # again: the same bytes (compressed once), a 304 on the ETag, the raw file without gzip, HEAD without a body
    assert _serve(mw, "/olc/app/static/olc/plotly-basic-4.1.1.min.js", headers=gz)[3] == body
    assert b"etag" not in h                 # cached for a year as immutable: never revalidated
    _, _, h2, raw = _serve(mw, "/olc/app/static/olc/plotly-basic-4.1.1.min.js")
    assert b"content-encoding" not in h2 and raw == (olc_static / "plotly-basic-4.1.1.min.js").read_bytes()
    assert _serve(mw, "/olc/app/static/olc/plotly-basic-4.1.1.min.js", method="HEAD")[3] == b""
    _, _, h3, font = _serve(mw, "/olc/app/static/olc/katex-0.19.1/fonts/KaTeX_Main-Regular.woff2", headers=gz)
    assert b"content-encoding" not in h3 and font.startswith(b"wOF2")    # already compressed


@pytest.mark.parametrize("path, kw", [
    ("/olc/app/static/olc/../../secret.js", {}),
    ("/olc/app/static/olc/%2e%2e/secret.js", {}),
    ("/olc/app/static/olc/missing.js", {}),
    ("/olc/app/static/olc/plotly-basic-4.1.1.min.js", {"method": "POST"}),
    ("/olc/app/static/olc/plotly-basic-4.1.1.min.js", {"headers": [(b"range", b"bytes=0-9")]}),
    ("/app/static/olc/plotly-basic-4.1.1.min.js", {}),          # not under the base path
    ("/olc/static/js/index.js", {}),                           # Streamlit's own
    ("/olc/perceptron", {}),
])
def test_everything_else_goes_on_to_streamlit(olc_static, path, kw):
    passed, status, _, _ = _serve({"base_url": "/olc", "root": olc_static}, path, **kw)
    assert passed == path and status == 404


def test_middleware_list_keeps_the_page_base_first():
    """gzip outermost (it compresses the page HTML the page base edited, and leaves the assets' own gzip alone)."""
    names = [m.cls.__name__ for m in routes.middleware()]
    assert names == ["GZipMiddleware", "PageBaseMiddleware", "AssetMiddleware"]


def test_no_per_position_copy_of_a_step_function_is_left_in_the_page_spec():
    tr, s = _run(0.1, T=300)
    spec = perceptron_spec(tr, s.X, s.y, run_id="r", use="nonseparable")
    k = np.searchsorted(spec["breaks"], np.arange(spec["T"] + 1), side="right")
    for ln in spec["ledger"]["lines"]:
        for v in ln.get("values", {}).values():
            if v.get("by") == "position":
                d = v["data"]
                assert any(d[p] != d[p - 1] for p in range(1, len(d)) if k[p] == k[p - 1]), "a step left per position"
