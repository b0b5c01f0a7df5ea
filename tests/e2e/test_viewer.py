"""The step viewer in headless Chromium (Debian's), on the demo app with a real Perceptron run.

Every wait is on a state the page exposes (the caption, ``.olc-viewer[data-position]``,
``gd.data``, the URL, Streamlit's script state); the one fixed pause checks that
nothing moves after "Pause".
"""
from __future__ import annotations

import re

import numpy as np
import pytest

import olc_core

pytest.importorskip("playwright")
from playwright.sync_api import expect  # noqa: E402

APP = "tests/e2e/apps/viewer_demo.py"
T = 300
VIEWER = ".olc-viewer"


@pytest.fixture(scope="module")
def mistakes() -> np.ndarray:
    """The 0-based mistake rounds of the run the demo shows (seed 0), computed here independently."""
    s = olc_core.streams.separable(T=T, d=2, gamma=0.05, seed=0)
    return olc_core.run("perceptron", s.X, s.y, comparator=s.comparator).mistakes


@pytest.fixture(scope="module")
def url(streamlit_app) -> str:
    return streamlit_app(APP)


def open_viewer(page, url: str, query: str) -> None:
    page.goto(f"{url}/{query}")
    page.wait_for_selector(f'{VIEWER}[data-ready="true"]', timeout=90_000)  # plotly.js is 4.7 MB


def position(page) -> int:
    return int(page.get_attribute(VIEWER, "data-position"))


def wait_position(page, p: int) -> None:
    page.wait_for_function("p => document.querySelector('.olc-viewer').dataset.position === String(p)", arg=p)


def caption(page):
    return page.locator(f"{VIEWER} .olc-caption")


def trace_data(page, figure: str, trace: int) -> dict:
    return page.evaluate("""([f, t]) => {
        const gd = document.querySelector(`.olc-plot[data-figure-id="${f}"]`);
        return {x: Array.from(gd.data[t].x), y: Array.from(gd.data[t].y)};
    }""", [figure, trace])


def url_t(page) -> str | None:
    m = re.search(r"[?&]t=(\d+)", page.url)
    return m.group(1) if m else None


def python_sees(page, p: int):
    return page.locator('[data-testid="stMarkdown"]', has_text=f"Python sees position {p} ")


def btn(page, name: str):
    return page.get_by_role("button", name=name, exact=True)


def test_deep_link_next_mistake_url_and_reload(page, url, mistakes):
    open_viewer(page, url, f"?T={T}&t=40")
    expect(caption(page)).to_contain_text(f"Round 40 of {T}")
    assert position(page) == 40
    # the controls carry the spec's accessible names
    for name in ("First", "Previous mistake", "Previous", "Play", "Next", "Next mistake", "Last"):
        expect(btn(page, name)).to_have_count(1)
    expect(page.get_by_role("slider", name="Round")).to_have_value("40")
    expect(page.get_by_role("combobox", name="Speed")).to_have_count(1)
    speeds = page.get_by_role("combobox", name="Speed").locator("option").all_inner_texts()
    assert speeds[:2] == ["1 round/s", "2 rounds/s"], speeds   # not "1 rounds/s"

    hyper_before = trace_data(page, "main", 6)        # w·x = 0 in the state at t = 40
    marker_before = trace_data(page, "sandwich", 4)   # the sandwich's marker on Mγ
    ledger_before = page.inner_text(f"{VIEWER} .olc-ledger")
    nxt = int(mistakes[np.searchsorted(mistakes, 40)])  # first mistake round >= 40 (0-based)
    target = nxt + 1                                    # the position that shows it as current

    btn(page, "Next mistake").click()
    expect(caption(page)).to_contain_text(f"Round {target} of {T}")
    expect(caption(page)).to_contain_text("MISTAKE")
    # dynamic traces were restyled: the hyperplane moved, the update arrows appeared
    page.wait_for_function("""() => {
        const gd = document.querySelector('.olc-plot[data-figure-id="main"]');
        return gd.data[8].x.length === 2 && gd.data[8].x[0] !== null;
    }""")
    assert trace_data(page, "main", 6) != hyper_before
    assert trace_data(page, "sandwich", 4) != marker_before
    k = int(np.searchsorted(mistakes, target - 1, side="right"))  # mistakes so far, incl. this one
    assert trace_data(page, "sandwich", 4)["x"] == [k]
    assert page.inner_text(f"{VIEWER} .olc-ledger") != ledger_before
    assert page.locator(f"{VIEWER} .olc-ledger .olc-mark").all_inner_texts() == ["✓", "✓"]
    # mirrored to the URL at once, reported to Python once stepping paused
    page.wait_for_function("t => new URL(location.href).searchParams.get('t') === String(t)", arg=target)
    expect(python_sees(page, target)).to_be_visible()

    page.reload()
    page.wait_for_selector(f'{VIEWER}[data-ready="true"]', timeout=60_000)
    assert position(page) == target
    expect(caption(page)).to_contain_text(f"Round {target} of {T}")
    assert url_t(page) == str(target)


def test_keyboard_stepping(page, url, mistakes):
    open_viewer(page, url, f"?T={T}&t=10")
    page.focus(VIEWER)
    page.keyboard.press("ArrowRight")
    wait_position(page, 11)
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    wait_position(page, 9)
    page.keyboard.press("Shift+ArrowRight")
    first_after = int(mistakes[np.searchsorted(mistakes, 9)]) + 1
    wait_position(page, first_after)
    expect(caption(page)).to_contain_text(f"Round {first_after} of {T}")
    page.keyboard.press("Shift+ArrowLeft")
    prev = [m + 1 for m in mistakes.tolist() if m + 1 < first_after]
    wait_position(page, prev[-1] if prev else first_after)
    page.keyboard.press("End")
    wait_position(page, T)
    page.keyboard.press("Home")
    wait_position(page, 0)
    expect(caption(page)).to_contain_text("nothing seen yet")
    # keys work from a focused control too (the scrubber handles them the same way)
    page.get_by_role("slider", name="Round").focus()
    page.keyboard.press("ArrowRight")
    wait_position(page, 1)
    page.wait_for_function("() => new URL(location.href).searchParams.get('t') === '1'")


def test_play_advances_then_pause_stops(page, url):
    open_viewer(page, url, f"?T={T}&t=0")
    page.get_by_role("combobox", name="Speed").select_option("50")
    btn(page, "Play").click()
    expect(btn(page, "Pause")).to_be_visible()
    page.wait_for_function("() => +document.querySelector('.olc-viewer').dataset.position >= 15")
    btn(page, "Pause").click()
    expect(btn(page, "Play")).to_be_visible()
    stopped = position(page)
    assert 15 <= stopped < T
    page.wait_for_timeout(600)  # an absence check: nothing may move after Pause
    assert position(page) == stopped
    expect(caption(page)).to_contain_text(f"Round {stopped} of {T}")
    page.wait_for_function("t => new URL(location.href).searchParams.get('t') === String(t)", arg=stopped)
    expect(python_sees(page, stopped)).to_be_visible()
    # Space toggles play from the keyboard, and play stops by itself at T
    page.focus(VIEWER)
    page.keyboard.press("End")
    wait_position(page, T)
    page.keyboard.press("Home")
    wait_position(page, 0)
    page.get_by_role("combobox", name="Speed").select_option("2000")
    page.focus(VIEWER)
    page.keyboard.press("Space")
    page.wait_for_function(f"() => document.querySelector('.olc-viewer').dataset.position === '{T}'"
                           " && document.querySelector('.olc-viewer').dataset.playing === 'false'")
    expect(btn(page, "Play")).to_be_visible()


def test_rerun_keeps_position_new_run_rebuilds(page, url):
    from stbrowser import mark, wait_for_rerun

    open_viewer(page, url, f"?T={T}&t=25")
    btn(page, "Next").click()
    wait_position(page, 26)
    expect(python_sees(page, 26)).to_be_visible()
    # tag the plot: a rebuild would replace it (Plotly.purge + a new div)
    page.evaluate("() => { document.querySelector('.olc-plot[data-figure-id=main]').__tag = 'same'; }")
    since = mark(page)
    btn(page, "Rerun the script").click()
    assert wait_for_rerun(page, since)["ok"]
    assert position(page) == 26
    assert page.evaluate("() => document.querySelector('.olc-plot[data-figure-id=main]').__tag") == "same"
    expect(python_sees(page, 26)).to_be_visible()

    # a new run (another seed): rebuilt, and it opens at the position in the URL
    old_run = page.get_attribute(VIEWER, "data-run-id")
    page.get_by_role("radiogroup", name="Seed").get_by_text("1", exact=True).click()
    page.wait_for_function("r => document.querySelector('.olc-viewer').dataset.runId !== r", arg=old_run)
    page.wait_for_selector(f'{VIEWER}[data-ready="true"]')
    assert page.get_attribute(VIEWER, "data-run-id").endswith("seed1")
    assert page.evaluate("() => document.querySelector('.olc-plot[data-figure-id=main]').__tag") is None
    assert position(page) == 26
    expect(caption(page)).to_contain_text(f"Round 26 of {T}")
    expect(python_sees(page, 26)).to_be_visible()
