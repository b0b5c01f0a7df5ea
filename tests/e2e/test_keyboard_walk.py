"""The tab order, walked (issue 23 §2): on every lesson page, in normal and in presentation mode, at 1100×800.

From the top of the page Tab is pressed until the focus comes back to the first stop (at most
:data:`MAX_STOPS` presses). Each stop fails the test when
- its element's box (for a visually hidden input, the box of the wrapper that draws its ring), once the browser scrolled it into view, is not in the viewport (a box larger than
  the viewport must at least overlap it) — e.g. a link in a collapsed, off-screen sidebar (olc_ui/shared/focus.py
  makes that sidebar inert), or
- its focus is not visible: neither the element nor the wrapper drawn around it (up to :data:`RING_LEVELS`
  ancestors: a switch's label around its hidden input) has an outline of ≥ 2 px whose colour has ≥ 3:1
  contrast against the background behind it (WCAG 1.4.11; the background is the first opaque
  background-color among the ancestors, else the page's).
The first stop must be the skip link "Skip to the step controls" on a page with a step viewer, and
Enter on it must land on one of the viewer's step controls (``.olc-controls button``).
The browser's own stop between the end and the start of the page (the document body) is skipped.
A stop in a table (st.dataframe) is read again after :data:`GRID_SETTLE_MS`: the grid moves the focus from its
canvas to the selected cell's element in its accessibility tree a moment after the Tab (no box of its own; the
ring is the canvas's).
"""
from __future__ import annotations

import pytest

pytest.importorskip("playwright")
from stbrowser import INSTRUMENT_JS  # noqa: E402

from olc_ui.catalog import available  # noqa: E402
from test_axe import MODES, NO_VIEWER, open_rendered  # noqa: E402

W, H = 1100, 800
PAGES = [row[4] for row in available()]
MAX_STOPS = 120
RING_LEVELS = 4
GRID_SETTLE_MS = 600   # a table's cell takes the focus from its canvas within this (measured: after 30 ms, not yet)
SKIP_TEXT = "Skip to the step controls"

#: What the focused element looks like: its box and whether a visible ring is drawn on it or a close wrapper.
STOP_JS = """(levels) => {
  const e = document.activeElement;
  if (!e || e === document.body || e === document.documentElement) return null;
  const rgba = (s) => { const m = s.match(/[\\d.]+/g) || []; return m.map(Number).concat([1]).slice(0, 4); };
  const lum = ([r, g, b]) => { const f = (c) => { c /= 255; return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b); };
  const ratio = (a, b) => { const [x, y] = [lum(a), lum(b)].sort((p, q) => p - q); return (y + 0.05) / (x + 0.05); };
  const background = (node) => {
    for (let n = node; n; n = n.parentElement) {
      const c = rgba(getComputedStyle(n).backgroundColor);
      if (c[3] >= 0.99) return c;
    }
    const b = rgba(getComputedStyle(document.body).backgroundColor);
    return b[3] >= 0.99 ? b : [255, 255, 255, 1];
  };
  let ring = null;
  for (let n = e, i = 0; n && i <= levels; n = n.parentElement, i++) {
    const s = getComputedStyle(n);
    const w = parseFloat(s.outlineWidth) || 0;
    const c = rgba(s.outlineColor);
    if (s.outlineStyle !== 'none' && w >= 2 && c[3] >= 0.99) {
      const bg = background(n.parentElement || n);
      ring = { level: i, width: w, contrast: ratio(c, bg), node: n };
      if (ring.contrast >= 3) break;
    }
  }
  // a visually hidden input (a switch's, a slider's) is seen as the wrapper that draws its ring
  const r = (ring && ring.level > 0 ? ring.node : e).getBoundingClientRect();
  if (ring) delete ring.node;
  return { tag: e.tagName, testid: e.getAttribute('data-testid'), cls: String(e.className || '').slice(0, 40),
    name: (e.getAttribute('aria-label') || e.textContent || '').trim().slice(0, 50),
    box: [r.left, r.top, r.right, r.bottom], ring,
    control: !!e.closest('.olc-controls') && e.tagName === 'BUTTON', grid: !!e.closest('[data-testid="stDataFrame"]') };
}"""


def in_view(box: list[float]) -> bool:
    left, top, right, bottom = box
    if right - left <= 0 or bottom - top <= 0:
        return False
    overlaps = right > 0 and bottom > 0 and left < W and top < H
    fits = right - left <= W and bottom - top <= H
    inside = left >= -1 and top >= -1 and right <= W + 1 and bottom <= H + 1
    return overlaps and (inside or not fits)


def stop_problems(stop: dict) -> list[str]:
    out = []
    if not in_view(stop["box"]):
        out.append(f"outside the viewport at {[round(v) for v in stop['box']]}")
    ring = stop["ring"]
    if ring is None:
        out.append("no visible focus ring (outline ≥ 2 px) on it or its wrapper")
    elif ring["contrast"] < 3:
        out.append(f"focus ring contrast {ring['contrast']:.2f}:1 < 3:1")
    return out


@pytest.fixture(scope="module")
def url(streamlit_app) -> str:
    return streamlit_app("app.py")


@pytest.fixture(scope="module")
def walker(browser):
    ctx = browser.new_context(viewport={"width": W, "height": H})
    ctx.add_init_script(INSTRUMENT_JS)
    pg = ctx.new_page()
    pg.set_default_timeout(60_000)
    errors: list[str] = []
    pg.on("pageerror", lambda exc: errors.append(f"uncaught: {exc}"))
    yield pg
    ctx.close()
    assert not errors, errors


def walk(pg) -> list[dict]:
    """Tab from the top of a freshly opened page until the first stop comes round again (the focus is left
    there); the stops in order."""
    assert pg.evaluate("() => document.activeElement === document.body"), "a freshly opened page has no focus yet"
    stops: list[dict] = []
    first = None
    for _ in range(MAX_STOPS):
        pg.keyboard.press("Tab")
        pg.wait_for_timeout(30)
        stop = pg.evaluate(STOP_JS, RING_LEVELS)
        if stop is not None and stop["grid"]:
            # a table (st.dataframe) moves the focus a moment later from its canvas to the selected cell's element
            pg.wait_for_timeout(GRID_SETTLE_MS)
            stop = pg.evaluate(STOP_JS, RING_LEVELS)
        if stop is None:
            continue   # the browser's own stop at the end of the document
        key = (stop["tag"], stop["testid"], stop["cls"], stop["name"], tuple(round(v) for v in stop["box"]))
        if first is None:
            first = key
        elif key[:4] == first[:4] and stops:
            break
        stops.append(stop)
    return stops


@pytest.mark.parametrize("mode", list(MODES))
@pytest.mark.parametrize("path", PAGES)
def test_tab_order_visible_and_on_screen(walker, url, path, mode):
    pg = walker
    open_rendered(pg, url, path, MODES[mode])
    stops = walk(pg)
    assert len(stops) >= 3, f"{path} [{mode}]: only {len(stops)} tab stops"
    bad = [f"#{i} {s['tag']} {s['testid'] or s['cls']!r} {s['name']!r}: " + "; ".join(p)
           for i, s in enumerate(stops) if (p := stop_problems(s))]
    assert not bad, f"{path} [{mode}]: {len(bad)} of {len(stops)} tab stops fail:\n" + "\n".join(bad)
    if path in NO_VIEWER:
        assert all(s["name"] != SKIP_TEXT for s in stops), "a skip link to step controls on a page without any"
        return
    assert stops[0]["name"] == SKIP_TEXT, f"{path} [{mode}]: the first tab stop is {stops[0]}"
    # the walk ended back on the first stop: Enter on the skip link lands on a step control, on screen
    assert pg.evaluate("() => document.activeElement.textContent") == SKIP_TEXT
    pg.keyboard.press("Enter")
    pg.wait_for_timeout(200)
    landed = pg.evaluate(STOP_JS, RING_LEVELS)
    assert landed and landed["control"], f"{path} [{mode}]: the skip link moved the focus to {landed}"
    assert not stop_problems(landed), stop_problems(landed)


def test_collapsed_sidebar_is_inert_until_opened(walker, url):
    """Presentation mode starts with the sidebar collapsed: its content is inert; opening it restores it."""
    pg = walker
    open_rendered(pg, url, "perceptron", "present=1")
    content = '[data-testid="stSidebarContent"]'
    assert pg.get_attribute('[data-testid="stSidebar"]', "data-collapsed") == "true"
    assert pg.evaluate(f"() => document.querySelector('{content}').hasAttribute('inert')")
    pg.click('[data-testid="stExpandSidebarButton"] button, button[data-testid="stExpandSidebarButton"]')
    pg.wait_for_function(f"() => !document.querySelector('{content}').hasAttribute('inert')", timeout=10_000)
    link = pg.locator('.st-key-olc_nav [data-testid="stPageLink"] a').first
    link.focus()
    assert pg.evaluate("() => !!document.activeElement.closest('[data-testid=\"stSidebar\"]')")
