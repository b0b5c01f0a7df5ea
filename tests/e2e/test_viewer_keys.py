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


def _playing(page) -> bool:
    return page.get_attribute(".olc-viewer", "data-playing") == "true"


def _press_on(page, control: str, key: str, expect_at: int) -> None:
    """Focus the viewer's ``control`` button, press ``key``: the button is pressed once (the browser's
    default), the viewer lands on ``expect_at`` and does not play (checked again after a pause: Play would
    have moved it on by then)."""
    page.locator(f'.olc-viewer [data-control="{control}"]').focus()
    assert page.evaluate("() => document.activeElement.dataset.control") == control
    page.keyboard.press(key)
    _at(page, expect_at)
    page.wait_for_timeout(700)                   # an absence check: Play (5 rounds a second) would move it
    _at(page, expect_at)
    assert not _playing(page), f"{key} on a focused {control} started Play"


def test_space_and_enter_on_a_focused_button_press_it_and_space_elsewhere_plays(page, url):
    """Space on a focused Next, Previous or Next-mistake button used to start Play (Next went 1 → 5):
    Space and Enter on a focused button press that button; Space on the page (or the viewer) plays."""
    _open(page, url, "t=0&T=200")
    mistakes = page.evaluate("() => document.querySelector('.olc-viewer').olcViewer.mistakes.slice()")
    assert len(mistakes) >= 3
    _press_on(page, "next", " ", 1)
    _press_on(page, "next", "Enter", 2)
    _press_on(page, "previous", " ", 1)
    _press_on(page, "previous", "Enter", 0)
    _press_on(page, "next-mistake", " ", mistakes[0] + 1)
    _press_on(page, "next-mistake", "Enter", mistakes[1] + 1)
    # Space with nothing focused (a click on the page's heading) plays, and pauses again
    page.locator('[data-testid="stMain"] h1').first.click()
    start = int(page.get_attribute(".olc-viewer", "data-position"))
    page.keyboard.press(" ")
    page.wait_for_function("n => +document.querySelector('.olc-viewer').dataset.position > n + 1", arg=start)
    assert _playing(page)
    page.keyboard.press(" ")
    page.wait_for_function("() => document.querySelector('.olc-viewer').dataset.playing !== 'true'")
    # so does Space on the viewer itself (focused, not one of its buttons)
    page.locator(".olc-viewer").first.focus()
    page.keyboard.press(" ")
    page.wait_for_function("() => document.querySelector('.olc-viewer').dataset.playing === 'true'")
    page.keyboard.press(" ")
    page.wait_for_function("() => document.querySelector('.olc-viewer').dataset.playing !== 'true'")
