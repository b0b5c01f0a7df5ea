"""Predict, then reveal on every learner's page in the real app (headless Chromium): switched on from the link,
→ asks about the next round with the kind's own question and choices (each with its key in a <kbd>), the right
answer — the run's, read from the same page under AppTest — given by key is graded ✓, a wrong one given by click
is graded ✗ and named, the reveal says what happened, and the tally counts. The 2-D kinds ring the example."""
from __future__ import annotations

import pytest

from tests.app.pagetest import open_page, page_path, viewer_data

pytest.importorskip("playwright")
from playwright.sync_api import expect  # noqa: E402

from viewerpage import VIEWER  # noqa: E402

START = 3
# page, query, the kind, what the reveal of a round says in every case (a phrase of the kind's reveal), ring figure
KINDS = [
    ("margin_perceptron", {}, "margin", ("update", "w stays"), "main"),
    ("winnow", {}, "winnow", ("N = ",), None),
    ("exponentiated_update", {}, "eg", ("y⟨w, x⟩ = ",), None),
    ("ftrl", {}, "ftrl", ("P(ŷ = y) = ",), "plane"),
    ("halving", {}, "halving", ("majority vote was",), None),
    ("experts", {"alg": "rwm"}, "rwm", ("wrong",), None),
    ("boolean_concepts", {"mode": "conj"}, "conj", ("leave",), None),
    ("boolean_concepts", {"mode": "dl"}, "dl", ("Level ",), None),
]


@pytest.fixture(scope="module")
def url(streamlit_app) -> str:
    return streamlit_app("app.py")


def _buttons(panel):
    """[(kbd key, answer id, text)] of the choices on screen."""
    return [(b.locator("kbd").inner_text(), b.get_attribute("data-answer"), b.evaluate("b => b.lastChild.textContent.trim()"))
            for b in panel.locator(".olc-predict-answer").all()]


@pytest.mark.parametrize("name, query, kind, says, ring", KINDS, ids=[k[2] for k in KINDS])
def test_each_learner_asks_its_question(page, url, name, query, kind, says, ring):
    at = open_page(page_path(name), predict="1", t=str(START), **query)     # the same run, read as the page sends it
    o = viewer_data(at)["modes"]["predict"]
    assert o["kind"] == kind
    page.set_viewport_size({"width": 1100, "height": 800})
    q = "&".join(f"{k}={v}" for k, v in query.items())
    page.goto(f"{url}/{name}?predict=1&t={START}" + (f"&{q}" if q else ""))
    page.wait_for_selector(f'{VIEWER}[data-ready="true"]', timeout=90_000)
    panel = page.locator(f"{VIEWER} .olc-predict")
    expect(panel).to_have_attribute("data-state", "idle")
    page.locator(VIEWER).first.focus()
    page.keyboard.press("ArrowRight")
    expect(panel).to_have_attribute("data-state", "asking")
    assert page.get_attribute(VIEWER, "data-position") == str(START)
    expect(panel).to_contain_text(f"Round {START + 1}: ")
    choices = _buttons(panel)
    assert len(choices) >= 2 and all(len(k) == 1 and k.isupper() for k, _, _ in choices)
    right = o["answer"][START]
    [key] = [k for k, a, _ in choices if a == right]
    if ring:
        got = page.evaluate("""f => { const gd = document.querySelector(`.olc-plot[data-figure-id="${f}"]`);
            const t = gd.data.find(d => d.name === 'the round to predict'); return t ? [t.x, t.y] : null; }""", ring)
        assert got == [[o["px"][START]], [o["py"][START]]]
    # the run's answer, by key: ✓, the round drawn, tallied
    page.keyboard.press(key.lower())
    expect(panel).to_have_attribute("data-state", "right")
    assert page.get_attribute(VIEWER, "data-position") == str(START + 1)
    expect(panel).to_contain_text("✓ Right.")
    expect(panel).to_contain_text("Class: 1 right of 1")
    text = panel.locator(".olc-predict-say").inner_text()
    assert text.startswith(f"Round {START + 1}: ") and any(s in text for s in says), text
    # the next round, a wrong answer by click: ✗, the right one named
    page.keyboard.press("ArrowRight")
    expect(panel).to_have_attribute("data-state", "asking")
    expect(panel).to_have_attribute("data-round", str(START + 2))
    right2 = o["answer"][START + 1]
    choices = _buttons(panel)
    wrong = next(a for _, a, _ in choices if a != right2)
    panel.locator(f'.olc-predict-answer[data-answer="{wrong}"]').click()
    expect(panel).to_have_attribute("data-state", "wrong")
    named = next(t for _, a, t in choices if a == right2)
    expect(panel).to_contain_text(f"the answer was “{named}”")
    expect(panel).to_contain_text("Class: 1 right of 2")


def test_the_question_fits_a_phone(page, url):
    """At 390 px the question, its choices and the reveal wrap inside the panel: nothing wider than the screen."""
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{url}/winnow?predict=1&t={START}")
    page.wait_for_selector(f'{VIEWER}[data-ready="true"]', timeout=90_000)
    panel = page.locator(f"{VIEWER} .olc-predict")
    page.locator(VIEWER).first.focus()
    page.keyboard.press("ArrowRight")
    expect(panel).to_have_attribute("data-state", "asking")
    wide = page.evaluate("""() => { const p = document.querySelector('.olc-predict');
        const r = p.getBoundingClientRect();
        return [r.right, p.scrollWidth - p.clientWidth,
                Math.max(...Array.from(p.querySelectorAll('.olc-predict-answer')).map(b => b.getBoundingClientRect().right))]; }""")
    assert wide[0] <= 390 and wide[1] <= 1 and wide[2] <= 390, wide
