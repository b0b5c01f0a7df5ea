"""The step viewer's JavaScript modules (olc_ui/viewer/assets/viewer*.js): the bundle the component runs
parses, every module imports what it uses from its siblings (the bundle shares one scope, so a
missing import would only break the modules under node), mode modules plug in through
viewer_modes.js, and presentation mode's figure styling (text ≥ 16 px, lines ≥ 3 px) under node."""
from __future__ import annotations

import json
import re
import shutil
import subprocess

import pytest

from olc_ui.viewer.assets import ASSET_DIR, bundle_js, trim_js
from tests.conftest import ROOT

NODE = shutil.which("node")
MODULES = sorted(p for p in ASSET_DIR.glob("viewer*.js") if p.name != "viewer_export.js")


def test_bundle_has_every_module_once_dependencies_first():
    b = bundle_js()
    order = re.findall(r"^// ---- (\S+)$", b, re.M)
    assert sorted(order) == sorted(p.name for p in MODULES) and len(set(order)) == len(order)
    assert order[-1] == "viewer.js"
    assert order.index("viewer_modes.js") < order.index("viewer_present.js") < order.index("viewer_mode_list.js")
    assert not re.search(r'^\s*import\b', b, re.M)
    assert len(re.findall(r"^export default function", b, re.M)) == 1


def test_bundler_rejects_what_it_cannot_bundle(tmp_path):
    (tmp_path / "viewer.js").write_text('import { a as b } from "./x.js";\nexport default function () {}\n')
    (tmp_path / "x.js").write_text("export const a = 1;\n")
    with pytest.raises(ValueError, match="renamed imports"):
        bundle_js(asset_dir=tmp_path)
    (tmp_path / "viewer.js").write_text('import { a } from "./x.js";\nexport default function () {}\n')
    (tmp_path / "x.js").write_text('import { c } from "./viewer.js";\nexport const a = 1;\n')
    with pytest.raises(ValueError, match="cycle"):
        bundle_js(asset_dir=tmp_path)
    (tmp_path / "x.js").write_text("export default 1;\n")
    with pytest.raises(ValueError, match="only the entry module"):
        bundle_js(asset_dir=tmp_path)


def _declared(text: str) -> set[str]:
    return set(re.findall(r"\b(?:const|let|var|function|class)\s+(\w+)", text))


def test_each_module_imports_the_sibling_names_it_uses():
    exports = {p.name: set(re.findall(r"^export (?:const|let|function|async function|class) (\w+)", p.read_text(), re.M))
               for p in MODULES}
    missing = []
    for p in MODULES:
        text = p.read_text()
        body = re.sub(r"//.*", "", _IMPORTS.sub("", text))
        imported = {n.strip() for names in _IMPORTS.findall(text) for n in names.split(",") if n.strip()}
        local = _declared(body)
        for other, names in exports.items():
            for n in names - local if other != p.name else ():
                if re.search(r"(?<![\w.$])" + re.escape(n) + r"\b(?!\s*:)", body) and n not in imported:
                    missing.append(f"{p.name} uses {n} from {other}")
        for n in imported:  # nothing imported that no sibling exports
            if not any(n in names for names in exports.values()):
                missing.append(f"{p.name} imports {n}, which no module exports")
    assert not missing, missing


_IMPORTS = re.compile(r'^import\s+\{([^}]*)\}\s+from\s+"\./[\w.]+";', re.M)


def test_trim_keeps_every_token_and_refuses_strings_over_lines():
    """The bundle's lines are trimmed (assets.trim_js: 74 → 50 kB brotli): only blanks around a line, blank lines and
    comments that cannot be inside a string or a regular expression go; the text inside a string stays as written (a minifier tried, rjsmin, wrote `x = ${a}`
    as `x=${a}`: text on screen changed); a string that spans lines, whose line breaks and blanks are its text,
    is refused rather than changed."""
    src = ("  const a = 1;  // why\n\n  // a comment line\n    return `x = ${a}, ` + 'y  =  2' + \"//not\";  // kept\n"
           "/* a block\n   // inside it\n*/\n  // the end */ of nothing\n  x = y / 2; // kept: a slash before it\n"
           "  f(a, b);   // gone */ no: kept\n  g();   // gone\n")
    assert trim_js(src) == ("const a = 1;\nreturn `x = ${a}, ` + 'y  =  2' + \"//not\";  // kept\n/* a block\n*/\n"
                            "// the end */ of nothing\nx = y / 2; // kept: a slash before it\n"
                            "f(a, b);   // gone */ no: kept\ng();")
    with pytest.raises(ValueError, match="several lines"):
        trim_js("const t = `two\n  lines`;\n")
    with pytest.raises(ValueError, match="several lines"):
        trim_js("const s = 'two \\\n  lines';\n")
    b = bundle_js()
    assert not re.search(r"^[ \t]|[ \t]$|\n\n", b, re.M)
    assert all(ln.startswith("// ---- ") or not ln.startswith("//") for ln in b.split("\n"))


@pytest.mark.skipif(NODE is None, reason="node is not installed")
def test_bundle_parses_under_node(tmp_path):
    f = tmp_path / "bundle.mjs"
    f.write_text(bundle_js())
    subprocess.run([NODE, "--check", str(f)], check=True, capture_output=True, timeout=60)


@pytest.mark.skipif(NODE is None, reason="node is not installed")
def test_present_figure_text_and_lines(tmp_path):
    script = tmp_path / "p.mjs"
    script.write_text(
        "globalThis.document = {}; globalThis.window = {};\n"
        "const m = await import(process.argv[2]);\n"
        "const data = [{type: 'scatter', mode: 'lines', line: {width: 1}}, {type: 'scatter', mode: 'markers+text'},"
        " {type: 'bar'}];\n"
        "const layout = {font: {size: 11}, xaxis: {title: {text: 'M'}}, yaxis2: {tickfont: {size: 20}},"
        " legend: {}, annotations: [{text: 'a'}], title: 'T'};\n"
        "m.presentFigure(data, layout);\n"
        "console.log(JSON.stringify({data, layout}));\n")
    js = (ROOT / "olc_ui" / "viewer" / "assets" / "viewer_present.js").as_uri()
    out = json.loads(subprocess.run([NODE, str(script), js], check=True, capture_output=True, text=True,
                                    timeout=60).stdout)
    L, D = out["layout"], out["data"]
    assert L["font"]["size"] == 16 and L["xaxis"]["tickfont"]["size"] == 16
    assert L["xaxis"]["title"] == {"text": "M", "font": {"size": 16}}
    assert L["yaxis2"]["tickfont"]["size"] == 20  # larger text stays larger
    assert L["legend"]["font"]["size"] == 16 and L["annotations"][0]["font"]["size"] == 16
    assert L["title"]["font"]["size"] == 18
    assert D[0]["line"]["width"] == 3 and D[1]["textfont"]["size"] == 16 and "line" not in D[2]


def _present(tmp_path, data: str, layout: str, width: int = 0) -> dict:
    script = tmp_path / "q.mjs"
    script.write_text(
        "globalThis.document = {}; globalThis.window = {};\n"
        "const m = await import(process.argv[2]);\n"
        f"const data = {data};\nconst layout = {layout};\n"
        f"m.presentFigure(data, layout, 16, 3, {width});\n"
        "console.log(JSON.stringify({data, layout}));\n")
    js = (ROOT / "olc_ui" / "viewer" / "assets" / "viewer_present.js").as_uri()
    return json.loads(subprocess.run([NODE, str(script), js], check=True, capture_output=True, text=True,
                                     timeout=60).stdout)


@pytest.mark.skipif(NODE is None, reason="node is not installed")
def test_present_figure_keeps_outlines_of_filled_shapes_and_hidden_lines(tmp_path):
    """The w* band (fill "toself", outline width 0) got a 3 px purple outline in presentation mode."""
    out = _present(tmp_path,
                   "[{type: 'scatter', mode: 'lines', fill: 'toself', line: {width: 0, color: 'purple'}},"
                   " {type: 'scatter', fill: 'tonexty', line: {width: 1}},"
                   " {type: 'scatter', mode: 'lines', line: {width: 0}},"
                   " {type: 'scatter', mode: 'lines', fill: 'none', line: {width: 1}}]", "{}")
    D = out["data"]
    assert D[0]["line"]["width"] == 0 and D[1]["line"]["width"] == 1 and D[2]["line"]["width"] == 0
    assert D[3]["line"]["width"] == 3


@pytest.mark.skipif(NODE is None, reason="node is not installed")
def test_present_figure_puts_a_busy_legend_in_two_columns(tmp_path):
    names = ["seen, y = +1", "seen, y = −1", "the learner: w·x = 0 and w (dotted: the last 5)",
             "at a mistake: wₜ (grey) + yₜ·xₜ (orange) = wₜ₊₁ (blue)", "γM − TDᵧ, TDᵧ over the whole run = 123.4",
             "rings: mistakes so far<br>pink: hinge max(0, γ − y⟨w*,x⟩) > 0 (larger ring: larger term)"]
    data = "[" + ",".join(f"{{type: 'scatter', name: {json.dumps(n)}}}" for n in names) + "]"
    out = _present(tmp_path, data, "{legend: {orientation: 'h', traceorder: 'grouped'}, margin: {l: 58, r: 12},"
                   " xaxis: {scaleanchor: 'y'}, yaxis: {}}", width=470)
    L, D = out["layout"], out["data"]
    assert L["legend"]["entrywidthmode"] == "pixels" and 150 <= L["legend"]["entrywidth"] <= 200
    assert L["legend"]["traceorder"] == "normal"  # grouped would stack each group in its own column
    got = [t["name"] for t in D]
    assert got[0] == names[0] and got[2] == "the learner" and got[5] == "rings: mistakes so<br>far"
    assert got[4].replace("<br>", " ") == names[4] and got[4].count("<br>") == 2  # wrapped, not cut
    assert all(len(line) <= 19 for n in got for line in n.split("<br>"))
    assert L["xaxis"]["constrain"] == "domain" and L["yaxis"]["constrain"] == "domain"
    # a short legend, or no width known: left as it was
    few = _present(tmp_path, "[{type: 'scatter', name: 'a'}, {type: 'scatter', name: 'b'}]",
                   "{legend: {orientation: 'h'}}", width=470)
    assert "entrywidth" not in few["layout"]["legend"]


@pytest.mark.skipif(NODE is None, reason="node is not installed")
def test_present_thins_ticks_and_takes_notes_out(tmp_path):
    """The experts' sandwich, fitted to ~185 px, had six 16 px labels 10⁻¹⁰ … 1 touching; notes under a
    sandwich's axis (six lines at 16 px) left the plot ~100 px of a 455 px figure."""
    script = tmp_path / "t.mjs"
    script.write_text(
        "globalThis.document = {}; globalThis.window = {};\n"
        "const m = await import(process.argv[2]);\n"
        "const ax = {tickvals: [-10, -8, -6, -4, -2, 0], ticktext: ['a', 'b', 'c', 'd', 'e', '1']};\n"
        "const lay = {margin: {l: 58, b: 200}, annotations: [{text: 'keep', x: 0.5, y: 0.5},"
        " {name: 'note', text: 'one<br>two <b>x</b>'}, {xref: 'paper', yref: 'paper', y: 0, yanchor: 'top', yshift: -62,"
        " text: 'three'}]};\n"
        "const notes = m.takeNotes(lay);\n"
        "console.log(JSON.stringify({few: m.thinnedTicks('yaxis', ax, 185), roomy: m.thinnedTicks('yaxis', ax, 400),"
        " log: m.thinnedTicks('yaxis', {type: 'log', dtick: 1, range: [-10, 0]}, 185), notes, lay}));\n")
    js = (ROOT / "olc_ui" / "viewer" / "assets" / "viewer_present.js").as_uri()
    out = json.loads(subprocess.run([NODE, str(script), js], check=True, capture_output=True, text=True,
                                    timeout=60).stdout)
    assert out["few"] == {"yaxis.tickvals": [-8, -4, 0], "yaxis.ticktext": ["b", "d", "1"]}  # "1" is kept
    assert out["roomy"] is None
    assert out["log"] == {"yaxis.dtick": 2}
    assert out["notes"] == [["one", "two x"], ["three"]]
    assert [a["text"] for a in out["lay"]["annotations"]] == ["keep"] and out["lay"]["margin"]["b"] == 62
