"""Beat the bound on Winnow and on the experts page, in the real app (headless Chromium), at a projector's 1100×800 and
on a phone at 390×844 (taps): a move set with the page's controls is drawn on the board (the run's), the URL holds
it, and a refused one says why and changes nothing."""
from __future__ import annotations

import pytest

pytest.importorskip("playwright")
from playwright.sync_api import expect  # noqa: E402

from viewerpage import VIEWER, caption  # noqa: E402

SIZES = {"projector": dict(viewport={"width": 1100, "height": 800}),
         "phone": dict(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True, device_scale_factor=2)}


@pytest.fixture(scope="module")
def url(streamlit_app) -> str:
    return streamlit_app("app.py")


def _idle(page) -> None:
    page.wait_for_function("() => document.querySelector('[data-test-script-state]')?.dataset.testScriptState"
                           " === 'notRunning'", timeout=60_000)


def _press(page, key: str, touch: bool) -> None:
    target = page.locator(f".st-key-{key} button, .st-key-{key} label").first
    target.scroll_into_view_if_needed()
    if touch:
        target.tap()
    else:
        target.click()
    _idle(page)


def _query(page, name: str) -> str:
    return page.evaluate(f"() => new URLSearchParams(location.search).get('{name}') || ''")


@pytest.mark.parametrize("size", sorted(SIZES))
def test_winnow_game_in_the_browser(browser, url, size):
    ctx = browser.new_context(**SIZES[size])
    page = ctx.new_page()
    try:
        page.goto(f"{url}/winnow?mode=adversary&aN=8&ak=1&aseed=0")
        page.locator(".st-key-winnow_adversary_lab1 button").wait_for(timeout=90_000)
        _idle(page)
        touch = size == "phone"
        _press(page, "winnow_adversary_lab1", touch)           # nothing on, label 1: refused (a negative example)
        expect(page.get_by_text("the label must be 0")).to_be_visible()
        assert _query(page, "amoves") == ""
        _press(page, "winnow_adversary_bit4", touch)           # x₅, the target
        _press(page, "winnow_adversary_lab1", touch)
        page.wait_for_function("() => new URLSearchParams(location.search).get('amoves') === '00001000:1'",
                               timeout=30_000)
        page.wait_for_selector(f'{VIEWER}[data-ready="true"]', timeout=60_000)
        expect(caption(page)).to_contain_text("Round 1 of 1")
        if touch:
            assert page.locator(VIEWER).bounding_box()["width"] <= 390
    finally:
        ctx.close()


@pytest.mark.parametrize("size", sorted(SIZES))
def test_experts_game_in_the_browser(browser, url, size):
    ctx = browser.new_context(**SIZES[size])
    page = ctx.new_page()
    try:
        page.goto(f"{url}/experts?mode=adversary&ealg=halving&eN=4")
        page.locator(".st-key-experts_adversary_out0 button").wait_for(timeout=90_000)
        _idle(page)
        touch = size == "phone"
        _press(page, "experts_adversary_out0", touch)          # every expert says +1, outcome −1: none consistent
        expect(page.get_by_text("no expert would be consistent with every outcome")).to_be_visible()
        assert _query(page, "emoves") == ""
        _press(page, "experts_adversary_adv0", touch)          # expert 1 now says −1
        _press(page, "experts_adversary_out0", touch)
        page.wait_for_function("() => new URLSearchParams(location.search).get('emoves') === '-+++:-'",
                               timeout=30_000)
        page.wait_for_selector(f'{VIEWER}[data-ready="true"]', timeout=60_000)
        expect(caption(page)).to_contain_text("Round 1 of 1")
        # only expert 1 is still consistent: the game is over, and says so
        expect(page.get_by_text("No admissible move can be a mistake any more")).to_be_visible(timeout=30_000)
        expect(page.locator(".st-key-experts_adversary_cend button")).to_be_disabled()
    finally:
        ctx.close()
