"""Predict, then reveal in the real app (headless Chromium, presentation mode at 1100×800): → asks about the
next round without drawing it, the class's key answers, the update is drawn, graded with the run's answer,
and tallied; Shift+→ asks about the next mistake; no click into the viewer first."""
from __future__ import annotations

import numpy as np
import pytest

import olc_core
from olc_ui.viewer import predict

pytest.importorskip("playwright")
from playwright.sync_api import expect  # noqa: E402

from viewerpage import VIEWER  # noqa: E402

T, SEED, START = 200, 0, 5


@pytest.fixture(scope="module")
def url(streamlit_app) -> str:
    return streamlit_app("app.py")


@pytest.fixture(scope="module")
def answers():
    s = olc_core.streams.separable(T=T, d=2, gamma=0.1, radius=1.0, seed=SEED)
    tr = olc_core.run("perceptron", s.X, s.y, comparator=s.comparator)
    return tr, predict.perceptron_options(tr, s.X, s.y)


def _key(o, r: int) -> str:
    return {"none": "n", "mistake": "m", "acw": "a", "cw": "c", "line": "l"}[o["answer"][r - 1]]


def _position(page) -> int:
    return int(page.get_attribute(VIEWER, "data-position"))


def test_the_class_answers_before_the_round_is_drawn(page, url, answers):
    tr, o = answers
    page.set_viewport_size({"width": 1100, "height": 800})
    page.goto(f"{url}/perceptron?data=generated&d=2&gamma=0.1&R=1&T={T}&seed={SEED}&present=1&predict=1&t={START}")
    page.wait_for_selector(f'{VIEWER}[data-ready="true"]', timeout=90_000)
    panel = page.locator(f"{VIEWER} .olc-predict")
    expect(panel).to_have_attribute("data-state", "idle")
    assert _position(page) == START
    # → asks about round START + 1 and draws nothing yet; the example is ringed on the chart
    page.keyboard.press("ArrowRight")
    expect(panel).to_have_attribute("data-state", "asking")
    assert _position(page) == START and panel.get_attribute("data-round") == str(START + 1)
    ring = page.evaluate("""() => { const gd = document.querySelector('.olc-plot[data-figure-id="main"]');
        const t = gd.data.find(d => d.name === 'the round to predict'); return [t.x, t.y]; }""")
    assert ring == [[o["px"][START]], [o["py"][START]]]
    # the right key: the update is drawn, graded ✓, tallied
    page.keyboard.press(_key(o, START + 1))
    expect(panel).to_have_attribute("data-state", "right")
    assert _position(page) == START + 1
    expect(panel).to_contain_text("Class: 1 right of 1")
    # Shift+→ asks about the next mistake, stopping just before it; a wrong answer is graded ✗
    m = int(tr.mistakes[np.searchsorted(tr.mistakes, START + 1)])     # 0-based round of the next mistake
    page.keyboard.press("Shift+ArrowRight")
    expect(panel).to_have_attribute("data-state", "asking")
    assert _position(page) == m and panel.get_attribute("data-round") == str(m + 1)
    page.keyboard.press("n")                                          # "no mistake": wrong, it is one
    expect(panel).to_have_attribute("data-state", "wrong")
    assert _position(page) == m + 1
    expect(panel).to_contain_text("Class: 1 right of 2")
    expect(panel).to_contain_text(f"Round {m + 1}:")
    # stepping back never asks
    page.keyboard.press("ArrowLeft")
    expect(panel).to_have_attribute("data-state", "idle")
    assert _position(page) == m


def test_on_the_experts_page_later_rounds_stay_covered(page, url):
    """The advice strip (with the learner's ŷ row) and the cumulative mistakes would give the answers away:
    in predict mode they are covered beyond the round on screen, and the cover follows the steps."""
    page.set_viewport_size({"width": 1100, "height": 800})
    page.goto(f"{url}/experts?alg=wm&predict=1&t=10")
    page.wait_for_selector(f'{VIEWER}[data-ready="true"]', timeout=90_000)

    def cover(fid):
        return page.evaluate("""fid => { const gd = document.querySelector(`.olc-plot[data-figure-id="${fid}"]`);
            const s = (gd.layout.shapes || []).filter(s => s.fillcolor === '#ffffff' && s.layer === 'above');
            return s.length ? s[s.length - 1].x0 : null; }""", fid)

    assert cover("advice") == 10.5 and cover("mistakes") == 10
    panel = page.locator(f"{VIEWER} .olc-predict")
    page.locator(VIEWER).first.focus()
    page.keyboard.press("ArrowRight")
    expect(panel).to_have_attribute("data-state", "asking")
    assert cover("advice") == 10.5                                    # round 11 is asked about: still covered
    expect(panel).to_contain_text("Round 11: the label is")
    page.keyboard.press("n")
    expect(panel).not_to_have_attribute("data-state", "asking")
    page.wait_for_function("""() => { const gd = document.querySelector('.olc-plot[data-figure-id="advice"]');
        return gd.layout.shapes.some(s => s.fillcolor === '#ffffff' && s.x0 === 11.5); }""")
