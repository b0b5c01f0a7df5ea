"""Chart descriptions (issue 23 §3): every figure of every page spec has a valid ``describe`` entry, and the
browser's description text (viewer_a11y.js ``describeText``, run under node) is the template filled with the
spec's values at that position exactly as Python's formatter prints them (olc_ui.viewer.snapshot), at
several positions of every page; the data table's rows name values of the description."""
from __future__ import annotations

import re
import shutil

import pytest

from olc_ui.shared.describe_view import plain
from olc_ui.viewer.snapshot import _fill, describe_values, state_index
from olc_ui.viewer.spec import minimal_spec, validate_spec

from ..conftest import node_eval
from . import page_specs as P


def _resolved(spec: dict, d: dict) -> dict:
    return describe_values(spec, d)


@pytest.mark.parametrize("label", P.labels())
def test_every_figure_is_described(label):
    spec, _ = P.spec(label)
    validate_spec(spec)
    for f in spec["figures"]:
        d = f["describe"]
        assert d["name"].strip() and "{t}" in d["template"], (label, f["id"])
        names = set(d["values"])
        assert {n for _, n in d["table"]} <= names | {"t", "T", "k"}
        assert set(d["values"]) <= {n for _, n in d["table"]}, "every value has its row in the data table"


@pytest.mark.parametrize("label", P.labels())
def test_no_description_reads_out_an_empty_value(label):
    """At round 0 there is no current example: the text says so instead of "x₁ , x₂ ." (seen on /perceptron)."""
    spec, _ = P.spec(label)
    T = spec["T"]
    for f in spec["figures"]:
        d = f["describe"]
        for p in sorted({0, 1, T // 2, T}):
            tpl = d["start"] if p == 0 and d.get("start") else d["template"]
            text = _fill(spec, tpl, _resolved(spec, d), p)
            assert not re.search(r"[^\s:;,] [,;.]$|[^\s:;,] [,;] ", text) and "{" not in text, (label, f["id"], p, text)


def test_a_bad_describe_is_rejected():
    spec = minimal_spec(T=3, mistakes=[1])
    d = spec["figures"][0]["describe"]
    for bad, msg in [({**d, "template": ""}, "template"), ({**d, "extra": 1}, "unknown"),
                     ({**d, "table": [["x", "nope"]]}, "table"),
                     ({**d, "values": {"a": {"by": "state", "array": "missing"}}}, "missing"),
                     ({**d, "values": {"a": {"caption": "nope"}}, "table": [["a", "a"]]}, "caption")]:
        spec["figures"][0]["describe"] = bad
        with pytest.raises(ValueError, match=msg):
            validate_spec(spec)


def test_a_figure_without_a_description_written_from_its_run_is_refused():
    """No chart gets a description read off its coordinates (issue 32 §3): a figure with none is refused."""
    spec = minimal_spec(T=3, mistakes=[1])
    del spec["figures"][0]["describe"]
    with pytest.raises(ValueError, match="describe.*missing"):
        validate_spec(spec)
    import olc_ui.shared.describe_view as dv
    assert not hasattr(dv, "describe_figures") and not hasattr(dv, "_auto")


def test_plain_text_of_legend_names():
    assert plain("β<sup>m(i*)</sup>") == "β^(m(i*))"
    assert plain("a<br>b <b>c</b>") == "a b c"


JS = """await (async () => {
  const a = await import(new URL('./viewer_a11y.js', process.argv[2]));
  const v = {};
  for (const C of [m.LedgerMethods, a.A11yMethods])
    for (const n of Object.getOwnPropertyNames(C.prototype)) if (n !== 'constructor') v[n] = C.prototype[n];
  return data.map(c => {
    v.T = c.T; v.arrays = c.arrays; v.mistakes = c.mistakes; v.spec = {caption: c.caption};
    const f = {spec: {id: c.id}, a11y: {desc: c.desc}};
    f.a11y.values = v.describeValues(c.desc);
    return [v.describeText(f, c.p, c.k), v.roundText(c.p)];
  });
})()"""


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_the_browser_fills_descriptions_as_python_does(tmp_path):
    cases, want = [], []
    for label in P.labels():
        spec, _ = P.spec(label)
        T = spec["T"]
        for f in spec["figures"]:
            d = f["describe"]
            used = {s["array"] for s in d["values"].values() if "array" in s}
            arrays = {k: spec["arrays"][k] for k in used}
            for p in sorted({0, 1, T // 2, T}):
                k = state_index(spec, p)
                tpl = d["start"] if p == 0 and d.get("start") else d["template"]
                cases.append({"T": T, "arrays": arrays, "mistakes": spec["mistake_rounds"], "id": f["id"],
                              "desc": d, "p": p, "k": k, "caption": spec.get("caption")})
                m = sum(1 for r in spec["mistake_rounds"] if r <= p - 1)
                want.append((_fill(spec, tpl, _resolved(spec, d), p),
                             f"round 0 of {T}, nothing seen yet" if p == 0
                             else f"round {p} of {T}, {m} mistake{'' if m == 1 else 's'}"))
    got = node_eval(tmp_path, "viewer_ledger.js", JS, cases)
    assert len(got) == len(want) > 40
    for (g_text, g_round), (w_text, w_round), c in zip(got, want, cases):
        assert g_text == w_text, (c["id"], c["p"])  # a minus sign (U+2212) in both: snapshot.minus_sign
        assert g_round == w_round
