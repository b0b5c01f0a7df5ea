"""Issue 20 (9): at a projector's 1100×800 the adversary game's bit checkboxes read x₁ … x₆ in full
(the label text is not clipped: its box holds all of it, and the rendered text is the whole label)."""
from __future__ import annotations

import pytest

pytest.importorskip("playwright")

from viewerpage import VIEWER  # noqa: E402

LABELS = [f"x{s}" for s in "₁₂₃₄₅₆"]


@pytest.fixture(scope="module")
def url(streamlit_app) -> str:
    return streamlit_app("app.py")


def test_bit_labels_are_not_clipped_at_1100x800(page, url):
    page.set_viewport_size({"width": 1100, "height": 800})
    page.goto(f"{url}/boolean_concepts?mode=adversary&an=6&moves=111111:1")
    page.wait_for_selector(f'{VIEWER}[data-ready="true"]', timeout=90_000)
    boxes = page.locator('[class*="st-key-boolean_adv_bit"] [data-testid="stCheckbox"]')
    boxes.first.wait_for(timeout=30_000)
    assert boxes.count() == 6
    got = page.evaluate("""() => [...document.querySelectorAll('[class*="st-key-boolean_adv_bit"] [data-testid="stCheckbox"]')]
        .map(cb => {
            const lab = cb.querySelector('[data-testid="stWidgetLabel"], [data-testid="stMarkdownContainer"]') || cb;
            const els = [lab, ...lab.querySelectorAll('*')];
            const clipped = els.filter(e => e.scrollWidth > e.clientWidth + 1 && getComputedStyle(e).overflow !== 'visible');
            const r = lab.getBoundingClientRect();
            return {text: lab.innerText.trim(), clipped: clipped.length, width: r.width,
                    ellipsis: els.some(e => getComputedStyle(e).textOverflow === 'ellipsis' && e.scrollWidth > e.clientWidth + 1)};
        })""")
    assert [g["text"] for g in got] == LABELS, got
    page.screenshot(path="/tmp/adversary_labels_1100.png", full_page=False)
    assert not [g for g in got if g["clipped"] or g["ellipsis"]], got
