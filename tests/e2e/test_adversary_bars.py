"""Beat the bound on Winnow and on the experts, a move drawn in the browser (viewer_game_bars.js), in the real app
(headless Chromium) at a projector's 1100×800 (clicks) and on a phone at 390×844 (taps): at the first frame that shows
the new round the viewer still holds the previous run (the board was drawn in the page, not by the server), the run's
charts and ledger wait behind a note and every description says so; the server's run, when it comes, draws exactly
the same board (the weights, the round's marks, the axis, the caption) — through promotions and demotions (Winnow)
and penalties (WM), including a move that lowers the axis's bottom."""
from __future__ import annotations

import pytest

pytest.importorskip("playwright")
from playwright.sync_api import expect  # noqa: E402

from olc_core.games import experts as E  # noqa: E402
from olc_core.games import winnow as Wn  # noqa: E402
from viewerpage import VIEWER  # noqa: E402

SIZES = {"projector": dict(viewport={"width": 1100, "height": 800}),
         "phone": dict(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True, device_scale_factor=2)}

#: the board as drawn: the viewer's run id and position, the caption, every trace of the main figure, its y axis
BOARD = """() => {
  const v = document.querySelector('.olc-viewer');
  const gd = v.querySelector('.olc-plot[data-figure-id=main]');
  const arr = (a) => a === undefined || a === null ? null : typeof a === 'string' ? a : Array.from(a);
  return {run: v.dataset.runId, p: v.dataset.position, caption: v.querySelector('.olc-caption').textContent,
          traces: gd.data.map(t => [t.name, arr(t.x), arr(t.y), arr(t.text)]),
          range: Array.from(gd.layout.yaxis.range), ticks: Array.from(gd.layout.yaxis.ticktext || [])};
}"""

#: from the next animation frame on, keep the board at the first frame that shows round t
WATCH = """(t) => {
  window.__olcCaught = null;
  const shown = () => { const v = document.querySelector('.olc-viewer');
    return v && v.dataset.position === String(t) && v.querySelector('.olc-caption').textContent.startsWith(`Round ${t} of ${t}:`); };
  const tick = () => {
    if (shown()) {
      window.__olcCaught = {board: (%s)(), pending: document.querySelectorAll('.olc-game-pending').length,
        desc: [...document.querySelectorAll('.olc-viewer .olc-plot')].map(gd =>
          document.getElementById(gd.getAttribute('aria-describedby')).textContent)};
    } else requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
}""" % BOARD


@pytest.fixture(scope="module")
def url(streamlit_app) -> str:
    return streamlit_app("app.py")


def _idle(page) -> None:
    page.wait_for_function("() => document.querySelector('[data-test-script-state]')?.dataset.testScriptState"
                           " === 'notRunning'", timeout=60_000)


def _set_boxes(page, prefix: str, want: list[bool], touch: bool) -> None:
    for i, on in enumerate(want):
        box = page.locator(f".st-key-{prefix}{i} input[type=checkbox]")
        if box.is_checked() != on:
            label = page.locator(f".st-key-{prefix}{i} label").first
            label.scroll_into_view_if_needed()
            label.tap() if touch else label.click()
            expect(box).to_be_checked(checked=on, timeout=30_000)
            _idle(page)


def _play(page, size: str, prefix: str, steps: list[tuple[list[bool], str]], runs: list[str]) -> dict:
    """Each step: its checkboxes, then its button (clicked or tapped); the board caught at its first frame must be
    the previous run's viewer, and the server's board the same. Returns the last served board."""
    touch = size == "phone"
    served = None
    for t, ((boxes, button), run) in enumerate(zip(steps, runs), start=1):
        _set_boxes(page, prefix, boxes, touch)
        served = drawn_in_the_page(page, t, button, run, touch)
    return served


def drawn_in_the_page(page, t: int, button: str, run: str, touch: bool) -> dict:
    """Move t at the press of the page's button ``button`` (a key; clicked or tapped): the board caught at its first
    frame must be the previous run's viewer, and the server's board (run ``run``) the same. Returns the served board."""
    before = page.evaluate("() => document.querySelector('.olc-viewer').dataset.runId")
    page.evaluate(WATCH, t)
    target = page.locator(f".st-key-{button} button")
    target.scroll_into_view_if_needed()
    target.tap() if touch else target.click()
    page.wait_for_function("() => window.__olcCaught !== null", timeout=30_000)
    got = page.evaluate("() => window.__olcCaught")
    drawn = got["board"]
    assert drawn["run"] == before, f"move {t}: the new round was drawn by the server's run, not in the browser"
    # the run's charts and ledger (from the second move on: the start board has none) wait for the run
    assert (got["pending"] > 0 or t == 1) and all("follows from the run" in d for d in got["desc"]), got
    page.wait_for_function(f"() => document.querySelector('.olc-viewer').dataset.runId === {run!r} && "
                           "document.querySelector('.olc-viewer').dataset.ready === 'true'", timeout=60_000)
    _idle(page)
    served = page.evaluate(BOARD)
    assert {**drawn, "run": run} == served, t
    assert not page.locator(".olc-game-pending").count()
    return served


@pytest.mark.parametrize("size", sorted(SIZES))
def test_winnow_moves_drawn_in_the_browser(browser, url, size):
    game = Wn.WinnowGame.make(8, 1, 1.0, 0)
    moves = list(Wn.computer_game(game).moves[:6])     # the 6th demotes a weight below 1
    ctx = browser.new_context(**SIZES[size])
    page = ctx.new_page()
    try:
        page.goto(f"{url}/winnow?mode=adversary&aN=8&ak=1&aseed=0")
        page.wait_for_selector(f'{VIEWER}[data-ready="true"]', timeout=90_000)
        _idle(page)
        low = page.evaluate(BOARD)["range"][0]
        runs = [f"wadv-8-1-1-0-1-{Wn.encode(moves[: t + 1])}" for t in range(len(moves))]
        served = _play(page, size, "winnow_adversary_bit",
                       [([bool(b) for b in m.x], f"winnow_adversary_lab{m.label}") for m in moves], runs)
        assert served["range"][0] < low                     # a demotion lowered the axis, in the page as on the server
        assert page.evaluate("() => new URLSearchParams(location.search).get('amoves')") == Wn.encode(moves)
    finally:
        ctx.close()


@pytest.mark.parametrize("size", sorted(SIZES))
def test_experts_moves_drawn_in_the_browser(browser, url, size):
    game = E.ExpertsGame.make("weighted_majority", 4, 0.5, 1)
    moves = list(E.computer_game(game).moves[:4])
    ctx = browser.new_context(**SIZES[size])
    page = ctx.new_page()
    try:
        page.goto(f"{url}/experts?mode=adversary&ealg=weighted_majority&eN=4&erate=0.5&ebudget=1")
        page.wait_for_selector(f'{VIEWER}[data-ready="true"]', timeout=90_000)
        _idle(page)
        runs = [f"eadv-weighted_majority-4-0.5-1-{E.encode(moves[: t + 1])}" for t in range(len(moves))]
        served = _play(page, size, "experts_adversary_adv",
                       [([a > 0 for a in m.advice], f"experts_adversary_out{1 if m.outcome > 0 else 0}")
                        for m in moves], runs)
        assert "MISTAKE" in served["caption"]
        assert page.evaluate("() => new URLSearchParams(location.search).get('emoves')") == E.encode(moves)
    finally:
        ctx.close()


@pytest.mark.parametrize("size", sorted(SIZES))
def test_winnow_hidden_target_then_revealed(browser, url, size):
    """The target hidden: the moves are drawn in the page all the same, with no bar marked as the target's; Reveal
    (a click or a tap) marks them."""
    game = Wn.WinnowGame.make(8, 1, 1.0, 0, hidden=True)
    moves = list(Wn.computer_game(game).moves[:2])
    ctx = browser.new_context(**SIZES[size])
    page = ctx.new_page()
    marked = ("() => { const d = document.querySelector('.olc-plot[data-figure-id=main]').data[0];"
              " return Boolean(d.marker && d.marker.pattern); }")
    try:
        page.goto(f"{url}/winnow?mode=adversary&aN=8&ak=1&aseed=0&ahide=1")
        page.wait_for_selector(f'{VIEWER}[data-ready="true"]', timeout=90_000)
        _idle(page)
        expect(page.get_by_text("is hidden until the end")).to_be_visible()
        runs = [f"wadv-8-1-1-0-0-{Wn.encode(moves[: t + 1])}" for t in range(len(moves))]
        _play(page, size, "winnow_adversary_bit",
              [([bool(b) for b in m.x], f"winnow_adversary_lab{m.label}") for m in moves], runs)
        assert not page.evaluate(marked)
        button = page.locator(".st-key-winnow_adversary_reveal_btn button")
        button.scroll_into_view_if_needed()
        button.tap() if size == "phone" else button.click()
        expect(page.get_by_text("The target is the OR of 1 of these")).to_be_visible(timeout=30_000)
        page.wait_for_function(marked, timeout=30_000)
    finally:
        ctx.close()
