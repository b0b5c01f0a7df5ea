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


#: the board as drawn: the viewer's run id and position, the caption, and every trace of the literal table
BOARD = """() => {
  const v = document.querySelector('.olc-viewer');
  const gd = v.querySelector('.olc-plot[data-figure-id=main]');
  const arr = (a) => a === undefined || a === null ? null : typeof a === 'string' ? a : Array.from(a);
  return {run: v.dataset.runId, p: v.dataset.position, caption: v.querySelector('.olc-caption').textContent,
          traces: gd.data.map(t => [t.name, arr(t.x), arr(t.y), arr(t.text), arr(t.marker && t.marker.color)]),
          ticks: Array.from(gd.layout.yaxis.ticktext), notes: (gd.layout.annotations || []).map(a => a.text)};
}"""

#: click the label button from inside the page and return the board at the first frame that shows round t
CLICK_AND_CATCH = """async ([label, t]) => {
  const btn = document.querySelector(`.st-key-boolean_adv_lab${label} [data-testid^="stBaseButton"]`);
  const shown = () => { const v = document.querySelector('.olc-viewer');
    return v && v.dataset.position === String(t) && v.querySelector('.olc-caption').textContent.startsWith(`Round ${t} of ${t}:`); };
  const t0 = performance.now();
  btn.click();
  await new Promise(r => { const tick = () => shown() ? r() : requestAnimationFrame(tick); tick(); });
  return {ms: performance.now() - t0, board: (%s)(), desc: (%s)()};
}""" % (BOARD, "() => [...document.querySelectorAll('.olc-viewer .olc-plot')].map(gd => "
        "document.getElementById(gd.getAttribute('aria-describedby')).textContent)")

#: every chart's description, as a screen reader reads it
DESCRIPTIONS = """() => [...document.querySelectorAll('.olc-viewer .olc-plot')].map(gd =>
  document.getElementById(gd.getAttribute('aria-describedby')).textContent)"""


def _set_bits(page, bits: str) -> None:
    for i, b in enumerate(bits):
        box = page.locator(f".st-key-boolean_adv_bit{i} input[type=checkbox]")
        if box.is_checked() != (b == "1"):
            page.locator(f".st-key-boolean_adv_bit{i} label").first.click()
            expect(box).to_be_checked(checked=b == "1", timeout=30_000)
    page.wait_for_function("() => document.querySelector('[data-test-script-state]')?.dataset.testScriptState"
                           " === 'notRunning'", timeout=30_000)


def test_a_move_is_drawn_in_the_browser_and_the_run_agrees(page, url):
    """Issue 24: the board and caption at the new round come from the browser at the click (the viewer still
    holds the previous run), and the server's run, when it comes, draws exactly the same board — through a
    first move, false negatives, a correct round and a false positive (c stops fitting)."""
    page.set_viewport_size({"width": 1100, "height": 800})
    page.goto(f"{url}/boolean_concepts?mode=adversary&an=3")
    page.wait_for_selector(f'{VIEWER}[data-ready="true"]', timeout=90_000)
    expect(caption(page)).to_contain_text("Before your first move")       # the board is there before any move
    moves: list[str] = []
    for move in ("111:1", "011:1", "000:0", "111:0"):
        bits, label = move.split(":")
        _set_bits(page, bits)
        before = page.evaluate("() => document.querySelector('.olc-viewer').dataset.runId")
        got = page.evaluate(CLICK_AND_CATCH, [label, len(moves) + 1])
        moves.append(move)
        drawn = got["board"]
        assert drawn["run"] == before, "the new round was drawn by the server's run, not in the browser"
        run = f"adv-3-{','.join(moves)}"
        page.wait_for_function(f"() => document.querySelector('.olc-viewer').dataset.runId === '{run}' && "
                               "document.querySelector('.olc-viewer').dataset.ready === 'true'", timeout=60_000)
        served = page.evaluate(BOARD)
        assert {**drawn, "run": run} == served, move
        # until the run came, no description read values not computed for the new round (issue 32 §3); then the
        # run's own: the move's bit string and label
        assert all("follows from the run" in d for d in got["desc"]), got["desc"]
        page.wait_for_timeout(400)   # the descriptions settle
        main = page.evaluate(DESCRIPTIONS)[0]
        assert f"xₜ = {bits} with label yₜ = {label}" in main, main
        assert not page.locator(".olc-game-pending").count()                  # the sandwich and ledger are back
    assert "FALSE POSITIVE" in served["caption"] and served["ticks"][2] == "c (positives only)"
    assert page.evaluate("() => new URLSearchParams(location.search).get('moves')") == ",".join(moves)
