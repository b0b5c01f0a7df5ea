"""Each page's charts get a plotly.js bundle that holds every trace type they use, and the smallest that does (issue 34
§1): the basic bundle (scatter, bar, pie) for every 2-D page, the gl3d one for the 3-D view, never the full 4.8 MB
bundle. The specs are every page's, as the page builds them (tests/ui/page_specs.py)."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from olc_ui.lessons.perceptron import lesson as L
from olc_ui.viewer import assets
from tests.ui import page_specs

ROOT = Path(__file__).resolve().parents[2]
PLOTLY_DIR = ROOT / "olc_ui" / "viewer" / "assets" / "plotly"


def registered(bundle: Path) -> set[str]:
    """The trace types a plotly.js bundle registers (its trace modules' ``moduleType:"trace",name:"…"``)."""
    found = set(re.findall(r'moduleType:"trace",name:"(\w+)"', bundle.read_text(encoding="utf-8")))
    assert "scatter" in found, f"{bundle.name}: no trace module found: the pattern is stale"
    return found


def bundle_file(url: str) -> Path:
    name = url.rsplit("/", 1)[1]
    vendored = PLOTLY_DIR / name
    return vendored if vendored.is_file() else assets._plotly_js()[0]


def test_the_vendored_bundles_hold_what_the_code_says():
    assert registered(PLOTLY_DIR / f"plotly-basic-{assets.PLOTLY_BASIC_VERSION}.min.js") == assets.BASIC_TRACE_TYPES
    assert registered(PLOTLY_DIR / f"plotly-gl3d-{assets.PLOTLY_BASIC_VERSION}.min.js") == assets.GL3D_TRACE_TYPES
    head = (PLOTLY_DIR / f"plotly-gl3d-{assets.PLOTLY_BASIC_VERSION}.min.js").read_text(encoding="utf-8")[:200]
    assert f"plotly.js (gl3d - minified) v{assets.PLOTLY_BASIC_VERSION}" in head


@pytest.mark.parametrize("label", page_specs.labels())
def test_every_pages_bundle_has_every_trace_type_its_spec_uses(label):
    spec, _ = page_specs.spec(label)
    types = {t.get("type", "scatter") for f in spec["figures"] for t in f["figure"]["data"]}
    urls = assets._asset_urls()
    url = assets.plotly_url(urls, types)
    assert types <= registered(bundle_file(url)), f"{label}: {sorted(types)} not all in {url}"
    assert url != urls["plotly"], f"{label}: the full plotly.js bundle for {sorted(types)}"
    three_d = bool(types & {"scatter3d", "mesh3d"})
    assert url == urls["plotly_3d" if three_d else "plotly_basic"]


def _gl3d_glyphs() -> dict[str, str]:
    """The gl3d bundle's marker symbols: each drawn as one character of the page's fonts."""
    text = (PLOTLY_DIR / f"plotly-gl3d-{assets.PLOTLY_BASIC_VERSION}.min.js").read_text(encoding="utf-8")
    found = re.search(r'\{circle:"([^"]+)","circle-open":"([^"]+)",square:"([^"]+)","square-open":"([^"]+)",'
                      r'diamond:"([^"]+)","diamond-open":"([^"]+)",cross:"([^"]+)",x:"([^"]+)"\}', text)
    assert found, "the gl3d bundle's marker symbol table was not found: the pattern is stale"
    names = ["circle", "circle-open", "square", "square-open", "diamond", "diamond-open", "cross", "x"]
    return {n: g.encode("ascii").decode("unicode_escape") if g.startswith("\\u") else g
            for n, g in zip(names, found.groups())}


def test_3d_markers_are_characters_every_font_has():
    """A 3-D marker is drawn as a character (gl3d): every symbol a 3-D spec uses is ASCII or a geometric shape
    (U+25A0–U+25FF: DejaVu Sans and the common system fonts have them). "x" is U+274C, an emoji: a review saw the
    −1 points of /perceptron?d=3 as tofu boxes in Debian's chromium."""
    glyphs = _gl3d_glyphs()
    assert glyphs["x"] == "\u274c" and glyphs["square"] == "\u25a0"
    spec, _ = page_specs.spec("perceptron, d = 3")
    used = {t["marker"]["symbol"] for f in spec["figures"] for t in f["figure"]["data"]
            if t.get("type") == "scatter3d" and "symbol" in t.get("marker", {})}
    assert used, "no 3-D marker found"
    for symbol in used:
        g = glyphs[symbol]
        assert g.isascii() or 0x25A0 <= ord(g) <= 0x25FF, f"{symbol}: drawn as U+{ord(g):04X}"


def test_the_html_preload_agrees_with_the_3d_rule():
    """olc_ui/routes.py preloads the 2-D bundle for a page unless its query makes a 3-D view (assets.THREE_D_QUERY):
    the Perceptron's d = 3 is the one (its spec above is 3-D; its other settings are 2-D)."""
    assert set(assets.THREE_D_QUERY) == {"perceptron"} and assets.THREE_D_QUERY["perceptron"] == (b"d", b"3")
    d3 = {s.key: s.default for s in L.SETTINGS} | {"d": 3}
    d2 = {s.key: s.default for s in L.SETTINGS}
    assert L.full_plotly(L.load_data(d3, None)) and not L.full_plotly(L.load_data(d2, None))
    names = [u.rsplit("/", 1)[1] for u, _ in assets.preload_urls("perceptron", b"T=50&d=3")]
    assert not any(n.startswith("plotly") for n in names)


def test_the_viewer_pages_are_the_pages_that_mount_the_viewer():
    mounting = {p.stem for p in (ROOT / "pages").glob("*.py")
                if re.search(r"\b(step_view|viewer|preload)\(", p.read_text(encoding="utf-8"))}
    assert mounting == set(assets.VIEWER_PAGES)
