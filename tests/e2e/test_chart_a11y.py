"""Charts for a student who cannot see them (issue 23 §3), in Chromium on every lesson page:

- every chart (``.olc-plot``) is role="img" with a non-empty accessible name and a non-empty description
  (aria-describedby), and both change when the round changes;
- "Data at this round" opens a real <table> (caption, th scope) whose numbers are the spec's values at the
  round on screen, formatted in Python here (olc_ui.viewer.snapshot's formatter), and follow the round;
- every plotly chart on every page, the ones outside the step viewer too (st.plotly_chart: the bound explorer's, the
  compare page's sweep, the click canvas), has a role and an accessible name (issue 32 §6);
- during Play the status region announces at most one mistake every 2 s (it announced every round before),
  one announcement once Play pauses, and the scrubber carries aria-valuetext ("round 37 of 200, 5 mistakes").
"""
from __future__ import annotations

import bisect
import time

import pytest

pytest.importorskip("playwright")
from stbrowser import INSTRUMENT_JS, wait_for_rerun  # noqa: E402

from olc_ui.catalog import available  # noqa: E402
from olc_ui.viewer.snapshot import _fill, describe_values  # noqa: E402

PAGES = [row[4] for row in available() if row[4] not in ("home", "bound_explorer")]
VIEWER = ".olc-viewer"

CHARTS_JS = """() => [...document.querySelectorAll('.olc-viewer .olc-plot')].map(gd => {
  const ids = (gd.getAttribute('aria-describedby') || '').split(/\\s+/).filter(Boolean);
  return {id: gd.dataset.figureId, role: gd.getAttribute('role'), name: gd.getAttribute('aria-label') || '',
          desc: ids.map(i => (document.getElementById(i) || {}).textContent || '').join(' ')};
})"""


@pytest.fixture(scope="module")
def url(streamlit_app) -> str:
    return streamlit_app("app.py")


@pytest.fixture(scope="module")
def tab(browser):
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    ctx.add_init_script(INSTRUMENT_JS)
    pg = ctx.new_page()
    pg.set_default_timeout(60_000)
    errors: list[str] = []
    pg.on("pageerror", lambda exc: errors.append(str(exc)))
    pg.errors = errors
    yield pg
    ctx.close()


def open_page(pg, url: str, path: str, query: str = "") -> None:
    pg.goto(f"{url.rstrip('/')}/{path}" + (f"?{query}" if query else ""))
    pg.wait_for_selector('.olc-viewer[data-ready="true"]', timeout=90_000)
    assert wait_for_rerun(pg, 0.0, expect_run=False, quiet_ms=500).get("ok")
    pg.wait_for_selector('.olc-viewer[data-ready="true"]', timeout=90_000)


def step_to(pg, p: int) -> None:
    """Go to position p through the viewer's own setPosition (as the scrubber does); wait for the render."""
    pg.evaluate("p => { const v = document.querySelector('.olc-viewer').olcViewer; v.pause(false); v.setPosition(p); }", p)
    pg.wait_for_function("p => document.querySelector('.olc-viewer').dataset.position === String(p)", arg=p)
    pg.wait_for_timeout(450)  # the descriptions settle (throttled only during Play)


@pytest.mark.parametrize("path", PAGES)
def test_every_chart_has_a_name_and_a_description_that_follow_the_round(tab, url, path):
    open_page(tab, url, path)
    T = int(tab.evaluate("() => document.querySelector('.olc-viewer').olcViewer.T"))
    assert T >= 2, path
    step_to(tab, 1)
    first = tab.evaluate(CHARTS_JS)
    assert first, f"{path}: no chart"
    for c in first:
        assert c["role"] == "img", (path, c)
        assert c["name"].strip() and c["desc"].strip(), (path, c)
        assert "round 1 of" in c["name"] and "round 1 of" in c["desc"], (path, c)
    step_to(tab, T)
    last = {c["id"]: c for c in tab.evaluate(CHARTS_JS)}
    for c in first:
        d = last[c["id"]]
        assert d["name"] != c["name"] and d["desc"] != c["desc"], (path, c["id"], c["desc"], d["desc"])
        assert f"round {T} of {T}" in d["desc"], (path, d)
    assert not tab.errors, tab.errors


#: Every plotly chart on the page, the step viewer's and st.plotly_chart's alike: role, accessible name, and the name
#: the page registered for it (olc_ui/shared/chart_names.py: window.__olcChartNames, key -> {name, text}, the chart in
#: the container keyed "<key>_named"; the viewer's charts have none).
EVERY_CHART_JS = """() => [...document.querySelectorAll('.js-plotly-plot')].map(gd => {
  const named = Object.entries(window.__olcChartNames || {})
    .filter(([key]) => { const box = document.querySelector(`.st-key-${key}_named`); return box && box.contains(gd); });
  return {viewer: !!gd.closest('.olc-viewer'), id: gd.dataset.figureId || null, role: gd.getAttribute('role'),
          name: (gd.getAttribute('aria-label') || '').trim(),
          registered: named.length === 1 && typeof named[0][1].name === 'string' ? named[0][1].name : null,
          controls: !!gd.querySelector('button, a[href], input, select, textarea, [tabindex]:not([tabindex="-1"])')};
})"""
#: Every page of the catalog with its default settings, and the click canvas (a chart drawn by st.plotly_chart too)
NAMED = [(row[4], "") for row in available()] + [("perceptron", "data=click&pts=0.5,0.5,1;-0.5,0.2,-1")]


def _settled(pg, url: str, path: str, query: str) -> None:
    where = "" if path == "home" else path
    pg.goto(f"{url.rstrip('/')}/{where}" + (f"?{query}" if query else ""))
    pg.wait_for_selector('[data-testid="stMain"] h1', timeout=90_000)
    if pg.locator(".olc-viewer").count():
        pg.wait_for_selector('.olc-viewer[data-ready="true"]', timeout=90_000)
    assert wait_for_rerun(pg, 0.0, expect_run=False, quiet_ms=500).get("ok")
    pg.wait_for_timeout(300)   # the naming script runs on the next frame after a chart is drawn


@pytest.mark.parametrize("path,query", NAMED, ids=[p + ("-" + q.split("&")[0] if q else "") for p, q in NAMED])
def test_every_plotly_chart_on_every_page_has_an_accessible_name(tab, url, path, query):
    """Issue 32 §6: the bound explorer's two charts and the compare page's mistakes-against-N chart (drawn by
    st.plotly_chart, outside the step viewer) had no role and no name. Every .js-plotly-plot is now role="img" — or
    "figure" when it holds plotly's toolbar buttons, so they stay reachable — with a name: the viewer's its chart's
    name and the round, the others the name the page registered for that chart (window.__olcChartNames)."""
    _settled(tab, url, path, query)
    charts = tab.evaluate(EVERY_CHART_JS)
    expect = {"bound_explorer": 2, "compare": 1}.get(path, 0) + (1 if query.startswith("data=click") else 0)
    assert sum(not c["viewer"] for c in charts) == expect, (path, charts)
    for c in charts:
        assert c["role"] == ("figure" if c["controls"] and not c["viewer"] else "img"), (path, c)
        assert c["name"] and c["name"] != c["id"], (path, c)
        if c["viewer"]:
            assert "round " in c["name"], (path, c)
        else:
            assert c["registered"] and c["name"] == c["registered"], (path, c)
    assert not tab.errors, tab.errors


def _expected_rows(spec: dict, fig_id: str, p: int) -> list[tuple[str, str]]:
    fig = next(f for f in spec["figures"] if f["id"] == fig_id)
    d = fig["describe"]
    vals = describe_values(spec, d)
    return [(label, _fill(spec, "{" + name + "}", vals, p)) for label, name in d["table"]]


@pytest.mark.parametrize("path", ["perceptron", "experts", "winnow", "ftrl"])
def test_the_data_table_holds_the_specs_numbers_at_this_round(tab, url, path):
    open_page(tab, url, path)
    spec = tab.evaluate("() => document.querySelector('.olc-viewer').olcViewer.spec")
    T = spec["T"]
    checked = 0
    for fig in spec["figures"]:
        if not fig["describe"]["table"]:
            continue
        box = tab.locator(f'{VIEWER} .olc-figure[data-figure-id="{fig["id"]}"]')
        toggle = box.get_by_role("button", name="Data at this round")
        if toggle.get_attribute("aria-expanded") != "true":
            toggle.click()
        for p in (max(1, T // 3), T):  # a minus sign (U+2212) in both: olc_ui.viewer.snapshot.minus_sign
            step_to(tab, p)
            table = box.locator("table")
            assert f"data at round {p} of {T}" in table.locator("caption").inner_text()
            assert table.locator("thead th[scope=col]").count() == 2
            got = [(r.locator("th[scope=row]").inner_text().strip(), r.locator("td").inner_text().strip())
                   for r in table.locator("tbody tr").all()]
            want = [(label, text.strip()) for label, text in _expected_rows(spec, fig["id"], p)]
            assert got == want, (path, fig["id"], p)
            checked += 1
        toggle.click()
        assert toggle.get_attribute("aria-expanded") == "false" and box.locator(".olc-data").is_hidden()
    assert checked >= 2, path
    assert not tab.errors, tab.errors


def test_play_announces_mistakes_and_pauses_not_every_round(tab, url):
    open_page(tab, url, "perceptron")
    v = "document.querySelector('.olc-viewer')"
    step_to(tab, 0)
    spec = tab.evaluate(f"() => {v}.olcViewer.spec")
    T, mistakes = spec["T"], spec["mistake_rounds"]
    # the scrubber's value text
    step_to(tab, 37)
    m = bisect.bisect_right(mistakes, 36)
    slider = tab.locator(VIEWER).get_by_role("slider", name="Round", exact=True)
    assert slider.get_attribute("aria-valuetext") == f"round 37 of {T}, {m} mistake{'s' if m != 1 else ''}"
    # the caption is no live region; the status region said the caption once stepping settled
    assert tab.locator(f"{VIEWER} .olc-caption").get_attribute("aria-live") is None
    status = tab.locator(f"{VIEWER} [role=status]")
    assert status.inner_text() == tab.locator(f"{VIEWER} .olc-caption").inner_text()
    step_to(tab, 0)
    tab.evaluate(f"() => {{ const s = {v}.querySelector('.olc-speed select'); s.value = '5'; }}")
    before = int(tab.evaluate(f"() => +({v}.dataset.announcements || 0)"))
    texts: list[str] = []
    tab.evaluate(f"""() => {{ window.__said = []; const el = {v}.querySelector('[role=status]');
        new MutationObserver(() => window.__said.push(el.textContent)).observe(el, {{childList: true, characterData: true, subtree: true}}); }}""")
    tab.get_by_role("button", name="Play", exact=True).click()
    time.sleep(2.2)
    played_to = int(tab.evaluate(f"() => +{v}.dataset.position"))
    during = tab.evaluate("() => window.__said.slice()")
    tab.get_by_role("button", name="Pause", exact=True).click()
    tab.wait_for_timeout(700)
    after = tab.evaluate("() => window.__said.slice()")
    texts = after[len(during):]
    assert played_to >= 8, played_to  # about 11 rounds in 2.2 s at 5 rounds/s
    seen = bisect.bisect_right(mistakes, played_to - 1)
    assert seen >= 1, "the run has no mistake in the rounds played"
    # at most one announcement per 2 s during Play, each of a mistake
    assert 1 <= len(during) <= 2, during
    assert all(t.startswith("Mistake at round") for t in during), during
    # one after the pause: the caption of the round on screen
    assert len(texts) == 1 and texts[0] == tab.locator(f"{VIEWER} .olc-caption").inner_text(), texts
    assert int(tab.evaluate(f"() => +({v}.dataset.announcements || 0)")) == before + len(during) + 1
    assert not tab.errors, tab.errors


EVERY_PLOT_JS = """() => [...document.querySelectorAll('.js-plotly-plot')].map(gd => {
  const ids = (gd.getAttribute('aria-describedby') || '').split(/\\s+/).filter(Boolean);
  return {role: gd.getAttribute('role'), name: gd.getAttribute('aria-label') || '',
          desc: ids.map(i => (document.getElementById(i) || {}).textContent || '').join(' ')};
})"""


@pytest.mark.parametrize("path", ["bound_explorer", "compare", "perceptron?data=click"])
def test_every_plotly_chart_has_a_name_and_a_description(tab, url, path):
    """Outside the step viewer too (st.plotly_chart: the Bound explorer's two charts, the Compare page's sweep;
    olc_ui/shared/chart_names.py): every .js-plotly-plot on the page is role="img" (the viewer's) or "figure" (one
    with plotly's mode bar: an image may hold no control) with a name and a description that says its numbers
    (issue 32 §6: they had no accessible name)."""
    tab.goto(f"{url.rstrip('/')}/{path}")
    tab.wait_for_selector('[data-testid="stMain"] h1', timeout=90_000)
    want = {"bound_explorer": 2, "compare": 1, "perceptron?data=click": 1}[path]
    outside = ".js-plotly-plot:not(.olc-viewer .js-plotly-plot)"
    tab.wait_for_function(f"n => document.querySelectorAll('{outside}').length >= n", arg=want, timeout=120_000)
    assert wait_for_rerun(tab, 0.0, expect_run=False, quiet_ms=500).get("ok")
    tab.wait_for_function("""() => [...document.querySelectorAll('.js-plotly-plot')]
        .every(gd => ['img', 'figure'].includes(gd.getAttribute('role')) && gd.getAttribute('aria-label'))""",
                      timeout=30_000)
    plots = tab.evaluate(EVERY_PLOT_JS)
    assert len(plots) >= want
    for c in plots:
        assert c["role"] in ("img", "figure") and c["name"].strip() and c["desc"].strip(), (path, c)
        assert any(ch.isdigit() for ch in c["desc"]), (path, c)   # the numbers it plots (the canvas: its range)
    assert not tab.errors, tab.errors
