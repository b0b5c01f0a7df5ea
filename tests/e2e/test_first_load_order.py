"""Issue 24, the first load: on a browser's first run of a lesson page the step viewer's charts are drawn before
anything under the viewer reaches the browser (olc_ui/shared/page.py, step_view); the viewer then reports that it
has drawn, and the rest of the page follows without the viewer drawing again. Back from another page, the same;
a later rerun (a setting changed) draws the whole page at once."""
from __future__ import annotations

import pytest

pytest.importorskip("playwright")
from playwright.sync_api import expect  # noqa: E402

from viewerpage import VIEWER, caption  # noqa: E402

QUERY = "T=400&seed=1&noise=0.1&t=0"

#: Installed before the page loads: when the Perceptron's viewer (its TD curve: no other page has one) first shows
#: ready, and when the first thing under it (its assumption panel's heading) appears, in ms since navigation.
ORDER_JS = """
window.__order = {};
new MutationObserver(() => {
  const o = window.__order, now = Math.round(performance.now());
  if (!('ready' in o) && document.querySelector('.olc-viewer[data-ready="true"] .olc-plot[data-figure-id="td_curve"]'))
    o.ready = now;
  if (!('below' in o) && [...document.querySelectorAll('[data-testid=stMain] h4')].some(
      (h) => h.textContent.includes('Assumptions and constants of this run'))) o.below = now;
}).observe(document, {subtree: true, childList: true, attributes: true});
"""


@pytest.fixture(scope="module")
def url(streamlit_app) -> str:
    return streamlit_app("app.py")


def _builds(page) -> float:
    return page.evaluate(f"() => document.querySelector('{VIEWER}').olcViewer.timing.build")


def _first_load(page, target: str) -> dict:
    page.goto(target)
    page.wait_for_function("() => window.__order && 'below' in window.__order", timeout=90_000)
    return page.evaluate("() => window.__order")


def test_the_viewer_is_drawn_before_what_lies_under_it_and_the_rest_follows(page, url):
    page.add_init_script(ORDER_JS)
    order = _first_load(page, f"{url}/perceptron?{QUERY}")
    assert order["ready"] < order["below"], order
    # the whole page is there: the panels with the run's numbers, the proof, the downloads
    expect(page.get_by_text("Assumptions and constants of this run")).to_be_visible()
    expect(page.get_by_text("The proof in five steps, with this run's numbers")).to_be_visible()
    expect(page.locator("[data-testid=stDownloadButton]").first).to_be_visible()
    # … and the viewer did not draw again for it: one build, still at round 0
    built = _builds(page)
    page.wait_for_timeout(800)
    assert _builds(page) == built
    expect(caption(page)).to_contain_text("Round 0 of 400")


def test_back_from_another_page_the_same_order(page, url):
    page.add_init_script(ORDER_JS)
    _first_load(page, f"{url}/perceptron?{QUERY}")
    page.get_by_role("link", name="Winnow", exact=True).click()
    page.wait_for_selector(f'{VIEWER}[data-ready="true"]', timeout=90_000)
    page.evaluate("() => { window.__order = {}; }")   # the viewer of the page we come back to, from now on
    page.go_back()
    page.wait_for_function("() => 'below' in window.__order", timeout=90_000)
    order = page.evaluate("() => window.__order")
    assert order["ready"] < order["below"], order
    expect(page.get_by_text("Assumptions and constants of this run")).to_be_visible()


def test_a_setting_changed_later_draws_the_whole_page_in_one_run(page, url):
    page.goto(f"{url}/perceptron?{QUERY}")
    expect(page.get_by_text("Assumptions and constants of this run")).to_be_visible(timeout=90_000)
    # the whole page first: the panel's heading can be drawn before its metrics (a lazily loaded element)
    expect(page.locator("[data-testid=stMain] [data-testid=stMetric]").first).to_be_visible()
    # from now on, the panels must never leave the page
    page.evaluate("""() => { window.__gone = false; new MutationObserver(() => {
        if (!document.querySelector('[data-testid=stMain] [data-testid=stMetric]')) window.__gone = true;
      }).observe(document, {subtree: true, childList: true});
      window.__metric = document.querySelector('[data-testid=stMain] [data-testid=stMetric]'); }""")
    seed = page.get_by_label("Seed")
    seed.fill("2")
    seed.press("Enter")
    expect(caption(page)).to_contain_text("Round 0 of 400", timeout=30_000)
    page.wait_for_function(f"() => document.querySelector('{VIEWER}').dataset.ready === 'true'")
    page.wait_for_timeout(1000)
    assert page.evaluate("() => window.__metric !== null && window.__gone === false") is True
    # … nor drawn again: the same element, its number updated (an element missing before the viewer on this run
    # shifted every one after it, and Streamlit replaced them all)
    assert page.evaluate("() => document.contains(window.__metric)") is True
    expect(page.get_by_text("Assumptions and constants of this run")).to_be_visible()
