"""A first visit on a phone sends only what the page draws (issue 34 §1; olc_ui/static_files.py, docs/load.md).

In Chromium at 390×844: every response that compresses arrives compressed; no file comes twice (KaTeX once: the
page's Markdown maths is typeset by the viewer's KaTeX, not by a second copy in Streamlit's rehype-katex chunk); the icon font is
the 10 kB subset and every icon on the page is drawn as one glyph (a ligature of the subset, not its name spelled
out); the text font is the Latin subset and no other text font comes; the 2-D page
loads the basic plotly.js bundle, never the gl3d or the full one; a 3-D view draws its chart with the gl3d bundle
and loads no other plotly.js. The conftest's ``page`` fixture fails each test on any console error.
"""
from __future__ import annotations

import json
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from olc_ui import static_files

pytest.importorskip("playwright")

from stbrowser import INSTRUMENT_JS  # noqa: E402

VIEWER_READY = '.olc-viewer[data-ready="true"]'
ICONS = json.loads((static_files.FONT_DIR / "icons.json").read_text(encoding="utf-8"))
SANS = json.loads((static_files.FONT_DIR / "source-sans.json").read_text(encoding="utf-8"))
COMPRESSIBLE = ("javascript", "css", "json", "html", "svg")

#: Each Material icon on the page: its name and its drawn width against its font size (a ligature is one glyph,
#: about 1 em wide; a name the font cannot join is spelled out, several em wide).
ICON_WIDTHS = """() => [...document.querySelectorAll('[data-testid=stIconMaterial]')]
  .filter(e => e.getBoundingClientRect().width > 0)
  .map(e => ({name: e.textContent, em: e.getBoundingClientRect().width / parseFloat(getComputedStyle(e).fontSize),
              family: getComputedStyle(e).fontFamily}))"""


@pytest.fixture
def phone(browser):
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=3, is_mobile=True,
                              has_touch=True)
    ctx.add_init_script(INSTRUMENT_JS)
    pg = ctx.new_page()
    pg.set_default_timeout(90_000)
    errors: list[str] = []
    pg.on("console", lambda m: m.type == "error" and errors.append(f"console: {m.text}"))
    pg.on("pageerror", lambda exc: errors.append(f"uncaught: {exc}"))
    responses: list = []
    pg.on("response", lambda r: responses.append(r))
    pg.responses = responses
    yield pg
    ctx.close()
    assert not errors, "browser console errors:\n" + "\n".join(errors)


def _visit(page, url: str) -> list[dict]:
    page.goto(url)
    page.wait_for_selector(VIEWER_READY)
    page.wait_for_timeout(1500)                  # what comes under the viewer, after it has drawn
    out = []
    for r in page.responses:
        if r.url.startswith(("data:", "blob:")) or r.status != 200:      # blob: the component's own code, local
            continue
        h = r.all_headers()
        out.append({"path": urlsplit(r.url).path, "type": h.get("content-type", ""),
                    "encoding": h.get("content-encoding", ""), "length": len(r.body())})
    return out


def test_a_lesson_on_a_phone_loads_each_file_once_compressed(phone, streamlit_app):
    url = streamlit_app("app.py")
    got = _visit(phone, url + "/perceptron?T=60&seed=1")
    paths = [r["path"] for r in got]
    twice = sorted({p for p in paths if paths.count(p) > 1})
    assert not twice, f"fetched twice: {twice}"
    raw = [r["path"] for r in got if any(t in r["type"] for t in COMPRESSIBLE) and r["length"] > 1000
           and not r["encoding"]]
    assert not raw, f"sent uncompressed: {raw}"
    plotly = [p.rsplit("/", 1)[1] for p in paths if "/plotly" in p]
    assert len(plotly) == 1 and plotly[0].startswith("plotly-basic-"), plotly
    assert sum("katex.min.js" in p for p in paths) == 1            # the viewer's KaTeX, once
    icon = next(r for r in got if r["path"].endswith(_file_name(ICONS["source"])))
    assert icon["length"] == ICONS["subset_bytes"]                  # the subset, not the 375 kB font
    icons = phone.evaluate(ICON_WIDTHS)
    assert icons, "no Material icon on the page: the check is stale"
    spelled = [i for i in icons if i["em"] > 1.6]
    assert not spelled, f"icons drawn as their names (not in the subset?): {spelled}"
    assert all("Material Symbols" in i["family"] for i in icons)
    # Markdown maths: typeset by the viewer's KaTeX through the small module served for Streamlit's rehype-katex chunk
    chunk = [r for r in got if "/rehype-katex." in r["path"]]
    assert chunk and chunk[0]["length"] < 10_000, chunk
    maths = phone.evaluate("""() => ({ok: document.querySelectorAll('[data-testid=stMarkdownContainer] .katex math').length,
      bad: document.querySelectorAll('[data-testid=stMarkdownContainer] .katex-error').length})""")
    assert maths["ok"] > 3 and maths["bad"] == 0, maths
    # the text font: Streamlit's file is the Latin subset, the only text font fetched (γ: the browser's next font)
    sans = [r for r in got if r["type"].startswith("font/") and "Material" not in r["path"] and "KaTeX" not in r["path"]]
    assert [r["path"].rsplit("/", 1)[1] for r in sans] == [Path(SANS["swaps"][0]["streamlit"]).name]
    assert sans[0]["length"] == (static_files.FONT_DIR / SANS["swaps"][0]["file"]).stat().st_size
    assert "γ" in phone.inner_text("body")


def _file_name(source: str) -> str:
    return source.rsplit("/", 1)[1]


def test_a_3d_view_draws_with_the_gl3d_bundle_alone(phone, streamlit_app):
    url = streamlit_app("app.py")
    got = _visit(phone, url + "/perceptron?T=40&d=3")
    plotly = [r["path"].rsplit("/", 1)[1] for r in got if "/plotly" in r["path"]]
    assert len(plotly) == 1 and plotly[0].startswith("plotly-gl3d-"), plotly      # not the basic, not the full
    phone.wait_for_selector(".olc-viewer .gl-container canvas", state="attached")      # the scene's WebGL canvas
    drawn = phone.evaluate("""() => [...document.querySelectorAll('.olc-viewer .js-plotly-plot')]
      .map(gd => (gd._fullData || []).map(t => t.type))""")
    assert any("scatter3d" in d and "mesh3d" in d for d in drawn), drawn
