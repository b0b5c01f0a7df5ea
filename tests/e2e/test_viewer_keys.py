"""The step viewer in normal (not presentation) mode, in a real browser: the keys step without a click into
the viewer (before, only presentation mode listened on the document; a student had to click into the chart
first) and leave a focused slider or number box alone."""
from __future__ import annotations

import pytest

pytest.importorskip("playwright")

from viewerpage import expect_position, open_viewer  # noqa: E402


@pytest.fixture(scope="module")
def url(streamlit_app) -> str:
    return streamlit_app("app.py")


_open, _at = open_viewer, expect_position


def test_keys_step_without_a_click_but_not_from_a_slider_or_number_box(page, url):
    _open(page, url)
    assert page.evaluate("() => !document.activeElement || !document.activeElement.closest('.olc-viewer')")
    page.keyboard.press("ArrowRight")
    _at(page, 1)
    page.keyboard.press("End")
    T = page.evaluate("() => document.querySelector('.olc-viewer').olcViewer.T")
    _at(page, T)
    page.keyboard.press("Home")
    _at(page, 0)
    mistakes = page.evaluate("() => document.querySelector('.olc-viewer').olcViewer.mistakes.slice()")
    page.keyboard.press("Shift+ArrowRight")
    _at(page, mistakes[0] + 1)
    # a focused slider keeps its keys: ← on "Label noise" at its minimum moves neither it nor the viewer
    slider = page.locator('[data-testid="stSidebar"] [data-testid="stSlider"]').filter(has_text="Label noise") \
        .get_by_role("slider")
    slider.focus()
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("Home")
    page.wait_for_timeout(400)                   # an absence check: the viewer must not have moved
    _at(page, mistakes[0] + 1)
    # so does a number box (the caret moves, not the round)
    box = page.locator('[data-testid="stSidebar"] input[type="number"]').first
    box.focus()
    page.keyboard.press("ArrowRight")
    page.keyboard.press("End")
    page.wait_for_timeout(400)
    _at(page, mistakes[0] + 1)
    # after a click on the page's text (the focus leaves the box) the arrows step again
    page.locator('[data-testid="stMain"] h1').first.click()
    page.keyboard.press("ArrowLeft")
    _at(page, mistakes[0])
