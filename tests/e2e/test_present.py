"""Presentation mode (issue 13 §1) in a real browser at a projector's 1100×800: on every lesson page with
``?present=1`` the step controls and the first chart of each viewer column (the hyperplane / weights chart
and the sandwich) lie on the first screen, text is ≥ 18 px and chart text ≥ 16 px, Streamlit's header is
gone; the keys step without a click into the chart; ``?hide=`` removes the named controls."""
from __future__ import annotations

import pytest

pytest.importorskip("playwright")
from playwright.sync_api import expect  # noqa: E402

from olc_ui.catalog import LESSONS  # noqa: E402

W, H = 1100, 800
PAGES = [row[4] for row in LESSONS]
#: pages without a step viewer (home: a table; the bound explorer: st.plotly_chart sweeps)
NO_VIEWER = {"home", "bound_explorer"}


@pytest.fixture(scope="module")
def url(streamlit_app) -> str:
    return streamlit_app("app.py")


@pytest.fixture
def projector(browser):
    """A 1100×800 page (the conftest's ``page`` is 1280×900); console errors fail the test."""
    ctx = browser.new_context(viewport={"width": W, "height": H})
    pg = ctx.new_page()
    pg.set_default_timeout(60_000)
    errors: list[str] = []
    pg.on("pageerror", lambda exc: errors.append(f"uncaught: {exc}"))
    pg.on("console", lambda m: errors.append(m.text) if m.type == "error" and "olc viewer" in m.text else None)
    yield pg
    ctx.close()
    assert not errors, errors


def open_page(pg, url: str, path: str, query: str = "present=1") -> None:
    pg.goto(f"{url.rstrip('/')}/{path}?{query}")
    pg.wait_for_selector('[data-testid="stMain"] h1', timeout=90_000)
    # the page's presentation styles (st.html) take effect: its switch's label is drawn at 18 px
    pg.wait_for_function("""() => { const p = document.querySelector('.st-key-olc_present_switch [data-testid="stWidgetLabel"] p');
        return p && parseFloat(getComputedStyle(p).fontSize) >= 18; }""", timeout=60_000)
    if path not in NO_VIEWER:
        pg.wait_for_selector('.olc-viewer[data-ready="true"][data-present="true"]', timeout=90_000)
        # the figures are fitted to the window once drawn: wait until their sizes settle
        pg.wait_for_function("""() => { const s = [...document.querySelectorAll('.olc-plot')]
            .map(g => g._fullLayout ? g._fullLayout.height : -1).join(',');
            const same = window.__olcLast === s; window.__olcLast = s; return same; }""", polling=300)


LAYOUT_JS = """() => {
  const box = (e) => { const r = e.getBoundingClientRect(); return {top: r.top, bottom: r.bottom, left: r.left, right: r.right}; };
  const cols = [...document.querySelectorAll('.olc-column')].map(c => {
    const f = c.querySelector('.olc-plot'); return f ? {id: f.dataset.figureId, ...box(f)} : null; }).filter(Boolean);
  const ctl = document.querySelector('.olc-controls');
  return {cols, controls: ctl ? box(ctl) : null, scrollY: document.querySelector('[data-testid="stMain"]').scrollTop};
}"""

FONTS_JS = """() => {
  const px = (e) => parseFloat(getComputedStyle(e).fontSize);
  const shown = (e) => { const r = e.getBoundingClientRect(); return r.width > 0 && r.height > 0 && e.textContent.trim(); };
  const body = [...document.querySelectorAll(
      '[data-testid="stMain"] [data-testid="stMarkdownContainer"] p, [data-testid="stMain"] [data-testid="stMarkdownContainer"] li,'
      + ' .olc-caption, .olc-btn .olc-label, .olc-readout, .olc-reason, .olc-key-item, .olc-figure-title, .olc-ledger-title')]
    .filter(e => shown(e) && !e.closest('.katex') && !e.closest('[data-testid="stSidebar"]'))
    .map(e => [e.className || e.tagName, e.textContent.trim().slice(0, 40), px(e)]);
  const chart = [...document.querySelectorAll('.olc-plot svg text')]
    .filter(e => e.textContent.trim())
    .map(e => [e.getAttribute('class') || 'text', e.textContent.trim().slice(0, 30), px(e)]);
  return {body, chart};
}"""


@pytest.mark.parametrize("path", PAGES)
def test_present_first_screen_text_sizes_no_header(projector, url, path):
    pg = projector
    open_page(pg, url, path)
    # Streamlit's header (toolbar, main menu, Deploy) is hidden; the sidebar is collapsed
    for tid in ("stMainMenu", "stToolbarActions", "stAppDeployButton"):
        assert pg.locator(f'[data-testid="{tid}"]:visible').count() == 0, tid
    side = pg.evaluate("() => document.querySelector('[data-testid=\"stSidebar\"]').getBoundingClientRect().right")
    assert side <= 0, f"the sidebar is open ({side})"
    expect(pg.get_by_role("switch", name="Presentation mode")).to_be_checked()
    fonts = pg.evaluate(FONTS_JS)
    assert fonts["body"], "no text measured"
    small = [f for f in fonts["body"] if f[2] < 18]
    assert not small, f"body text below 18 px: {small[:8]}"
    if path in NO_VIEWER:
        return
    assert fonts["chart"], "no chart text measured"
    small = [f for f in fonts["chart"] if f[2] < 16]
    assert not small, f"chart text below 16 px: {small[:8]}"
    lay = pg.evaluate(LAYOUT_JS)
    assert lay["scrollY"] == 0
    assert lay["controls"] and 0 <= lay["controls"]["top"] and lay["controls"]["bottom"] <= H
    assert len(lay["cols"]) >= 2, f"{path}: the charts are not side by side: {lay}"
    for c in lay["cols"]:  # the first chart of each column: the hyperplane / weights chart, the sandwich
        assert 0 <= c["top"] and c["bottom"] <= H and 0 <= c["left"] and c["right"] <= W, f"{path}: {c} off screen"


def test_keys_step_without_a_click_and_legend(projector, url):
    pg = projector
    open_page(pg, url, "perceptron", "present=1&t=0")
    assert pg.evaluate("() => document.activeElement === document.body || !document.activeElement.closest('.olc-viewer')")
    expect(pg.locator(".olc-keys")).to_contain_text("Shift+→ / ←")
    pg.keyboard.press("ArrowRight")
    expect(pg.locator(".olc-viewer")).to_have_attribute("data-position", "1")
    mistakes = pg.evaluate("() => document.querySelector('.olc-viewer').olcViewer.mistakes.slice()")
    nxt = next(m + 1 for m in mistakes if m + 1 > 1)  # the position showing the next mistake round
    pg.keyboard.press("Shift+ArrowRight")
    expect(pg.locator(".olc-viewer")).to_have_attribute("data-position", str(nxt))
    pg.keyboard.press("Shift+ArrowLeft")
    pg.wait_for_function(f"() => +document.querySelector('.olc-viewer').dataset.position < {nxt}")
    pg.keyboard.press("End")
    T = pg.evaluate("() => document.querySelector('.olc-viewer').olcViewer.T")
    expect(pg.locator(".olc-viewer")).to_have_attribute("data-position", str(T))
    pg.keyboard.press("Home")
    expect(pg.locator(".olc-viewer")).to_have_attribute("data-position", "0")
    pg.keyboard.press("Space")
    expect(pg.locator(".olc-viewer")).to_have_attribute("data-playing", "true")
    pg.keyboard.press("Space")
    expect(pg.locator(".olc-viewer")).to_have_attribute("data-playing", "false")
    pg.keyboard.press("?")
    expect(pg.get_by_role("dialog", name="Keyboard shortcuts")).to_contain_text("next / previous mistake")
    pg.keyboard.press("Escape")
    expect(pg.get_by_role("dialog", name="Keyboard shortcuts")).to_have_count(0)


def test_hide_removes_named_controls_and_reports_unknown_names(projector, url):
    pg = projector
    open_page(pg, url, "perceptron", "present=1&hide=speed,download,mistakes,settings,no_such_thing")
    expect(pg.get_by_role("button", name="Next", exact=True)).to_be_visible()
    expect(pg.get_by_role("combobox", name="Speed")).to_be_hidden()
    expect(pg.get_by_role("button", name="Download the figure at this round (HTML)")).to_be_hidden()
    expect(pg.get_by_role("button", name="Next mistake")).to_be_hidden()
    expect(pg.locator('[data-testid="stExpandSidebarButton"]')).to_be_hidden()
    expect(pg.locator('[data-testid="stMain"]')).to_contain_text("'no_such_thing'")
    # the keys still work with the buttons hidden, and the link keeps the hide list
    pg.keyboard.press("Shift+ArrowRight")
    pg.wait_for_function("() => +document.querySelector('.olc-viewer').dataset.position > 0")
    pg.wait_for_function("() => new URL(location.href).searchParams.get('hide') === "
                         "'speed,download,mistakes,settings,no_such_thing'")


def test_switch_turns_presentation_off_and_on_in_place(projector, url):
    pg = projector
    open_page(pg, url, "perceptron", "present=1&t=5")
    pg.get_by_role("switch", name="Presentation mode").click(force=True)
    pg.wait_for_selector(".olc-viewer:not([data-present])")
    pg.wait_for_function("() => !new URL(location.href).searchParams.has('present')")
    expect(pg.locator(".olc-viewer")).to_have_attribute("data-position", "5")  # the step is kept
    pg.wait_for_function("() => document.querySelector('header[data-testid=\"stHeader\"]').getBoundingClientRect().height > 0")
    # on again from the sidebar's switch: the arrows step at once (the focused switch has no use for them)
    pg.locator('[data-testid="stSidebar"]').get_by_role("switch", name="Presentation mode").click(force=True)
    pg.wait_for_selector('.olc-viewer[data-present="true"][data-ready="true"]')
    pg.wait_for_function("() => new URL(location.href).searchParams.get('present') === '1'")
    pg.keyboard.press("ArrowRight")
    expect(pg.locator(".olc-viewer")).to_have_attribute("data-position", "6")


PLOT_SHARE_JS = """() => [...document.querySelectorAll('[data-testid="stMain"] .js-plotly-plot')].map(g => {
  const r = g.getBoundingClientRect();
  const p = g.querySelector('.nsewdrag') || g.querySelector('.bglayer rect');
  const sb = g.querySelector('.legend .scrollbar');
  return {id: g.dataset.figureId || g.closest('[data-testid]').dataset.testid, fig: r.height,
          plot: p ? p.getBoundingClientRect().height : 0,
          legendScrolls: !!sb && parseFloat(sb.getAttribute('height') || '0') > 0};
})"""


@pytest.mark.parametrize("path", [p for p in PAGES if p != "home"])
def test_present_plot_areas_dominate_and_legends_do_not_scroll(projector, url, path):
    """Projected, legends at 16 px took half of each chart and some scrolled over the plot: every figure's
    plot area (its first subplot) is ≥ 45 % of the figure's height, and no legend has a scroll bar."""
    pg = projector
    if path == "bound_explorer":  # no step viewer: its charts are st.plotly_chart
        pg.goto(f"{url.rstrip('/')}/{path}?present=1")
        pg.wait_for_selector('[data-testid="stMain"] .js-plotly-plot .nsewdrag', timeout=120_000)
        small = pg.evaluate("""() => [...document.querySelectorAll('[data-testid="stMain"] .js-plotly-plot svg text')]
            .filter(e => e.textContent.trim()).map(e => parseFloat(getComputedStyle(e).fontSize)).filter(px => px < 16)""")
        assert not small, f"bound explorer chart text below 16 px: {small[:8]}"
    else:
        open_page(pg, url, path)
    pg.wait_for_timeout(800)  # the ticks are thinned after the fitted heights settle
    figs = pg.evaluate(PLOT_SHARE_JS)
    assert figs, f"{path}: no figure"
    squashed = [f for f in figs if f["plot"] < 0.45 * f["fig"]]
    assert not squashed, f"{path}: plot area under 45 % of the figure: {squashed}"
    scrolling = [f["id"] for f in figs if f["legendScrolls"]]
    assert not scrolling, f"{path}: legends scroll: {scrolling}"


def test_present_noisy_perceptron_band_has_no_outline_and_notes_leave_the_figure(projector, url):
    """The non-separable run's busiest charts; the green w* band (a filled polygon, outline width 0) is
    drawn without the 3 px purple outline; the TD sandwich's notes are text under the chart."""
    pg = projector
    open_page(pg, url, "perceptron", "present=1&noise=0.1&T=1000&t=500")
    figs = pg.evaluate(PLOT_SHARE_JS)
    assert all(f["plot"] >= 0.45 * f["fig"] for f in figs), figs
    widths = pg.evaluate("""() => { const g = document.querySelector('.olc-plot[data-figure-id="main"]');
        return g.data.filter(t => t.fill && t.fill !== 'none').map(t => (t.line || {}).width); }""")
    assert widths and all(w is None or w <= 1 for w in widths), widths
    notes = pg.locator(".olc-figure-notes").first
    expect(notes).to_contain_text("× marks where the bounds cross")
    assert float(notes.evaluate("e => parseFloat(getComputedStyle(e).fontSize)")) >= 16


def test_a_tour_stop_projected_keeps_readable_plots(projector, url):
    """A tour's stop stands above the charts (its text and claim): fitted to what was left of the window, the
    first chart of each column kept a 64 px plot with its axis title over its tick labels (000 stop 1, Weighted
    Majority). Now no fitted figure's plot area is under 170 px — the page scrolls instead — and none is
    squashed under 45 % of its figure."""
    pg = projector
    open_page(pg, url, "experts", "alg=wm&beta=0.5&update=every_round&N=10&T=300&t=300"
                                  "&tour=000-perceptron-and-winnow&stop=1&present=1")
    expect(pg.locator(".olc-tour")).to_contain_text("Stop 1 of")
    pg.wait_for_timeout(800)
    figs = {f["id"]: f for f in pg.evaluate(PLOT_SHARE_JS)}
    for fid in ("weights", "sandwich"):
        assert figs[fid]["plot"] >= 169, figs
        assert figs[fid]["plot"] >= 0.45 * figs[fid]["fig"], figs
