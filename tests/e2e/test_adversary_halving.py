"""Beat the bound on the Halving page, in the real app (headless Chromium), at a projector's 1100×800 (clicks) and on
a phone at 390×844 (taps): the board is there from round 0; an instance chosen in the move panel's list and a label
give a round drawn in the page (viewer_game_bars.js: at the first frame that shows it the viewer still holds the
previous run, the run's charts wait behind a note and every description says so), and the server's run then draws
exactly the same board (the version space, each hypothesis's label, the caption); the URL holds the moves, a refused
label says why and changes nothing (the board and the address stay), and the computer's adversary plays the game to
its end."""
from __future__ import annotations

import pytest

pytest.importorskip("playwright")
from playwright.sync_api import expect  # noqa: E402

from olc_core.games import halving as Hg  # noqa: E402
from test_adversary_bars import BOARD, drawn_in_the_page  # noqa: E402
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
    target = page.locator(f".st-key-{key} button").first
    target.scroll_into_view_if_needed()
    target.tap() if touch else target.click()
    _idle(page)


def _choose(page, text: str, touch: bool) -> None:
    box = page.locator(".st-key-halving_adversary_inst button[aria-haspopup=listbox]")
    box.scroll_into_view_if_needed()
    box.tap() if touch else box.click()
    option = page.get_by_role("option").filter(has_text=text).first
    option.tap() if touch else option.click()
    _idle(page)


def _query(page, name: str) -> str:
    return page.evaluate(f"() => new URLSearchParams(location.search).get('{name}') || ''")


def _label_key(label: int) -> str:
    return "halving_adversary_lab1" if label > 0 else "halving_adversary_lab0"


@pytest.mark.parametrize("size", sorted(SIZES))
def test_halving_game_in_the_browser(browser, url, size):
    g = Hg.HalvingGame.make("thresholds", 16, seed=0)                    # h*: x ≥ 0.53125
    wrong = g.play([]).mistake_instances[0]
    first = Hg.HMove(wrong, g.target_label(wrong))
    moves = [first, *Hg.computer_game(g, [first]).moves[1:2]]            # mistakes: the version space shrinks
    right = next(j for j in range(len(g.plus)) if j not in Hg.HalvingState(g, tuple(moves)).mistake_instances)
    moves.append(Hg.HMove(right, g.target_label(right)))                 # and a round Halving gets right
    ctx = browser.new_context(**SIZES[size])
    page = ctx.new_page()
    touch = size == "phone"
    try:
        page.goto(f"{url}/halving?mode=adversary&hcls=thresholds&hK=16&hseed=0")
        page.wait_for_selector(f'{VIEWER}[data-ready="true"]', timeout=90_000)   # the board from round 0
        _idle(page)
        expect(caption(page)).to_contain_text("Before the first round all 16 hypotheses of H")
        start = page.evaluate(BOARD)
        _press(page, "halving_adversary_lab1", touch)                    # x = 0 (the first), label +1: refused
        expect(page.get_by_text("the label must be −1")).to_be_visible()
        assert _query(page, "hmoves") == "" and page.evaluate(BOARD) == start    # nothing changed
        for t, m in enumerate(moves, start=1):
            _choose(page, g.instance_text(m.j) + ":", touch)
            drawn_in_the_page(page, t, _label_key(m.label), f"hadv-thresholds-16-4-0-1-{Hg.encode(moves[:t])}",
                              touch)
        assert _query(page, "hmoves") == Hg.encode(moves) and Hg.HalvingState(g, tuple(moves)).can_err
        _press(page, "halving_adversary_cend", touch)
        comp = Hg.computer_game(g, moves)
        page.wait_for_function(f"() => new URLSearchParams(location.search).get('hmoves') === "
                               f"{Hg.encode(comp.moves)!r}", timeout=30_000)
        expect(page.get_by_text("No admissible instance can be a mistake any more")).to_be_visible(timeout=30_000)
        expect(page.locator(".st-key-halving_adversary_cend button")).to_be_disabled()
        if touch:
            assert page.locator(VIEWER).bounding_box()["width"] <= 390
    finally:
        ctx.close()
