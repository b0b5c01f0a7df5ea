"""Beat the bound on the Perceptron, in the real app (headless Chromium): a click on the board is judged in the
browser — an inadmissible point is refused at once with the rule and its numbers, and nothing changes; an
admissible one is drawn before the server answers, and the run's board, when it comes, is the one drawn — at a
projector's 1100×800 (the median click → drawn under 300 ms) and on a phone at 390×844, where a tap places a point.
A link replays the game, which steps back like any run."""
from __future__ import annotations

import statistics

import pytest

pytest.importorskip("playwright")
from playwright.sync_api import expect  # noqa: E402

from viewerpage import VIEWER, board_pixel, caption  # noqa: E402

from olc_core.games.perceptron import PerceptronGame, encode_moves, Move  # noqa: E402


@pytest.fixture(scope="module")
def url(streamlit_app) -> str:
    return streamlit_app("app.py")


#: the board as drawn: the run id, position, caption and every trace of the main figure
BOARD = """() => {
  const v = document.querySelector('.olc-viewer');
  const gd = v.querySelector('.olc-plot[data-figure-id=main]');
  const arr = (a) => a === undefined || a === null ? null : typeof a === 'string' ? a : Array.from(a);
  return {run: v.dataset.runId, p: v.dataset.position, caption: v.querySelector('.olc-caption').textContent,
          traces: gd.data.map(t => [t.name, arr(t.x), arr(t.y), arr(t.marker && t.marker.color)])};
}"""

#: where data point (x, y) is on the screen
AT = """([x, y]) => {
  const gd = document.querySelector('.olc-plot[data-figure-id=main]');
  const fl = gd._fullLayout, b = gd.getBoundingClientRect();
  return [b.left + fl.xaxis._offset + fl.xaxis.l2p(x), b.top + fl.yaxis._offset + fl.yaxis.l2p(y)];
}"""

#: click at data point (x, y) from inside the page; the board at the first frame that shows round t
CLICK_AND_CATCH = """async ([x, y, t]) => {
  const gd = document.querySelector('.olc-plot[data-figure-id=main]');
  const [cx, cy] = (%s)([x, y]);
  const shown = () => { const v = document.querySelector('.olc-viewer');
    return v.dataset.position === String(t) && v.querySelector('.olc-caption').textContent.startsWith(`Round ${t} of ${t}:`); };
  const t0 = performance.now();
  gd.dispatchEvent(new MouseEvent('click', {clientX: cx, clientY: cy, bubbles: true, cancelable: true}));
  const ok = await new Promise(r => { const tick = () => shown() ? r(true) : performance.now() - t0 > 10000 ? r(false)
    : requestAnimationFrame(tick); tick(); });
  const refused = document.querySelector('.olc-game-refused');
  return {ms: ok ? performance.now() - t0 : null, board: (%s)(), refused: refused && refused.textContent};
}""" % (AT, BOARD)


def _ready(page) -> None:
    page.wait_for_selector(f'{VIEWER}[data-ready="true"]', timeout=90_000)


def _settled(page) -> None:
    """The page's script has finished and the board is in view (a tap lands where it was aimed)."""
    page.wait_for_function("() => document.querySelector('[data-test-script-state]')?.dataset.testScriptState"
                           " === 'notRunning'", timeout=30_000)
    page.locator(".olc-plot[data-figure-id=main]").scroll_into_view_if_needed()
    page.wait_for_timeout(300)


def _moves_in_url(page) -> str:
    return page.evaluate("() => new URLSearchParams(location.search).get('moves') || ''")


def test_clicks_are_judged_and_drawn_as_the_run_draws_them(page, url):
    page.set_viewport_size({"width": 1100, "height": 800})
    page.goto(f"{url}/perceptron?mode=adversary&ws=36.87&gamma=0.2&R=1")
    _ready(page)
    expect(caption(page)).to_contain_text("Before your first move")
    assert page.locator(VIEWER).bounding_box()["y"] < 800        # the board's viewer starts on the first screen
    game = PerceptronGame.make("36.87", "0.2", "1")
    moves: list[Move] = []
    times = []
    # a first point (score 0: a mistake), a mistake, a correct point, a point with label −1
    for m in (Move(16, 60, 1), Move(60, -20, 1), Move(48, 36, 1), Move(-10, -50, -1), Move(50, -10, 1)):
        page.locator(".st-key-perceptron_adversary_label").get_by_text("+1" if m.label > 0 else "−1",
                                                                        exact=True).click()
        page.wait_for_function("() => document.querySelector('[data-test-script-state]')?.dataset.testScriptState"
                               " === 'notRunning'", timeout=30_000)
        before = page.evaluate("() => document.querySelector('.olc-viewer').dataset.runId")
        got = page.evaluate(CLICK_AND_CATCH, [m.i / 64, m.j / 64, len(moves) + 1])
        assert got["ms"] is not None, (m, got["refused"], got["board"]["caption"])
        moves.append(m)
        times.append(got["ms"])
        drawn = got["board"]
        assert drawn["run"] == before, "the round was drawn by the server, not in the browser"
        page.wait_for_function(f"() => new URLSearchParams(location.search).get('moves') === '{encode_moves(moves)}'",
                               timeout=30_000)
        page.wait_for_function("(r) => document.querySelector('.olc-viewer').dataset.runId !== r && "
                               "document.querySelector('.olc-viewer').dataset.ready === 'true'", arg=before,
                               timeout=60_000)
        served = page.evaluate(BOARD)
        assert {**drawn, "run": served["run"]} == served, m
        assert not page.locator(".olc-game-pending").count()
    state = game.play(moves)
    expect(page.locator("[data-testid=stMarkdownContainer]").filter(has_text="still allowed")).to_contain_text(
        f"mistakes M = {state.M} · the theorem: M ≤ ⌊R²/γ²⌋ = 25 · still allowed: {25 - state.M}")
    assert statistics.median(times) <= 300, times


def test_a_refused_click_says_why_and_changes_nothing(page, url):
    page.set_viewport_size({"width": 1100, "height": 800})
    page.goto(f"{url}/perceptron?mode=adversary&ws=0.00&gamma=0.25&R=1&moves=16:40:1")
    _ready(page)
    board = page.evaluate(BOARD)
    for (x, y), words in (((0.0, 0.5), "inside the band: |⟨w*, x⟩| = 0 < γ = 0.25"),
                          ((1.05, 0.0), "outside the disc: ‖x‖ = 1.047 > R = 1"),
                          ((-0.5, 0.0), "the wrong side: y⟨w*, x⟩ = −0.5 ≤ −γ = −0.25")):
        cx, cy = board_pixel(page, x, y)
        page.mouse.click(cx, cy)
        expect(page.locator(".olc-game-refused")).to_contain_text(words)
    page.wait_for_timeout(1500)
    assert page.evaluate(BOARD) == board and _moves_in_url(page) == "16:40:1"


def test_a_link_replays_the_game_and_steps_back(page, url):
    page.set_viewport_size({"width": 1100, "height": 800})
    game = PerceptronGame.make("36.87", "0.2", "1")
    moves = [Move(0, 60, 1), Move(-40, -20, -1), Move(0, 50, 1)]
    page.goto(f"{url}/perceptron?mode=adversary&ws=36.87&gamma=0.2&R=1&moves={encode_moves(moves)}&t=3")
    _ready(page)
    expect(caption(page)).to_contain_text("Round 3 of 3")
    page.get_by_role("button", name="Previous", exact=True).click()
    expect(caption(page)).to_contain_text("Round 2 of 3")
    expect(page.locator(VIEWER)).to_have_attribute("data-position", "2")
    assert game.play(moves).M == 1 and game.play(moves).can_err
    page.get_by_role("button", name="Computer plays on").click()
    page.wait_for_function("() => (new URLSearchParams(location.search).get('moves') || '').split(',').length > 3",
                           timeout=30_000)
    expect(page.get_by_text("No admissible move can be a mistake any more")).to_be_visible(timeout=30_000)


def test_a_phone_places_a_point_by_tapping(browser, url):
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True,
                              device_scale_factor=2)
    page = ctx.new_page()
    try:
        page.goto(f"{url}/perceptron?mode=adversary&ws=90.00&gamma=0.25&R=1")
        _ready(page)
        _settled(page)
        box = page.locator(".olc-plot[data-figure-id=main]").bounding_box()
        assert box["width"] <= 390 and box["x"] >= 0
        cx, cy = board_pixel(page, 0.25, 0.5)           # (16, 32): margin 0.5 for w* = (0, 1)
        page.touchscreen.tap(cx, cy)
        page.wait_for_function("() => new URLSearchParams(location.search).get('moves') === '16:32:1'", timeout=30_000)
        _ready(page)
        expect(caption(page)).to_contain_text("Round 1 of 1: x = (0.25, 0.5), y = +1")
        _settled(page)
        cx, cy = board_pixel(page, 0.5, 0.0)            # in the band
        page.touchscreen.tap(cx, cy)
        expect(page.locator(".olc-game-refused")).to_contain_text("inside the band")
        page.wait_for_timeout(1000)
        assert _moves_in_url(page) == "16:32:1"
    finally:
        ctx.close()
