"""Play the adversary, in the real app (headless Chromium, a projector's 1100×800): the move panel sits
beside the board on the first screen; a move is one fragment rerun — the board, the URL and the panel's
account of the move follow, and the page above the game (title, part switch) is not redrawn."""
from __future__ import annotations

import pytest

pytest.importorskip("playwright")
from playwright.sync_api import expect  # noqa: E402

from viewerpage import VIEWER, caption  # noqa: E402


@pytest.fixture(scope="module")
def url(streamlit_app) -> str:
    return streamlit_app("app.py")


def _box(page, selector: str) -> dict:
    return page.locator(selector).first.bounding_box()


def test_a_move_answers_beside_the_board(page, url):
    page.set_viewport_size({"width": 1100, "height": 800})
    page.goto(f"{url}/boolean_concepts?mode=adversary&an=4&moves=1111:1")
    page.wait_for_selector(f'{VIEWER}[data-ready="true"]', timeout=90_000)
    expect(caption(page)).to_contain_text("Round 1 of 1")
    panel = page.locator(".st-key-boolean_adv_panel")
    board, box = _box(page, VIEWER), panel.bounding_box()
    assert box["x"] >= board["x"] + board["width"] - 1          # beside the board, not below it
    assert box["y"] < 800 and board["y"] < 800                     # both start on the first screen
    # the buttons read the same whatever the learner would predict; no prediction shown before the hint
    assert not page.get_by_text("the learner predicts").count()
    # the title above the game is the same DOM node after a move (a fragment rerun does not redraw the page)
    page.evaluate("() => { document.querySelector('h1').dataset.mark = 'before'; }")
    page.get_by_role("button", name="Label 0", exact=True).click()
    page.wait_for_function("() => new URLSearchParams(location.search).get('moves') === '1111:1,0000:0'",
                           timeout=30_000)
    expect(caption(page)).to_contain_text("Round 2 of 2", timeout=30_000)
    expect(panel).to_contain_text("Round 2")
    expect(panel).to_contain_text("your label")
    expect(panel).to_contain_text("it labels every move so far as you did")
    assert page.evaluate("() => document.querySelector('h1').dataset.mark") == "before"
