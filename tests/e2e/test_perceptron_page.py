"""The Perceptron lesson in the real app, in headless Chromium (Debian's): a deep link, stepping
mistake by mistake, the URL, a reload, and an uploaded file (bad, then good)."""
from __future__ import annotations

import re

import numpy as np
import pytest

import olc_core

pytest.importorskip("playwright")
from playwright.sync_api import expect  # noqa: E402

from viewerpage import VIEWER, caption, trace_by_name  # noqa: E402

T = 400
SEED = 1


@pytest.fixture(scope="module")
def url(streamlit_app) -> str:
    return streamlit_app("app.py")


@pytest.fixture(scope="module")
def run():
    s = olc_core.streams.separable(T=T, d=2, gamma=0.1, radius=1.0, seed=SEED)
    return s, olc_core.run("perceptron", s.X, s.y, comparator=s.comparator)




def test_deep_link_step_to_the_next_mistake_and_reload(page, url, run):
    s, tr = run
    page.goto(f"{url}/perceptron?seed={SEED}&T={T}&t=20")
    page.wait_for_selector(f'{VIEWER}[data-ready="true"]', timeout=90_000)
    expect(caption(page)).to_contain_text(f"Round 20 of {T}")
    # the assumption panel shows the run's own numbers
    expect(page.get_by_text("the theorem applies")).to_be_visible()
    hyper_before = trace_by_name(page, "main", "w·x = 0 (the learner)")
    ledger_before = page.inner_text(f"{VIEWER} .olc-ledger")

    page.get_by_role("button", name="Next mistake", exact=True).click()
    m = int(tr.mistakes[np.searchsorted(tr.mistakes, 20)])     # first mistake on rounds ≥ 20 (0-based)
    target = m + 1
    expect(caption(page)).to_contain_text(f"Round {target} of {T}")
    expect(caption(page)).to_contain_text("MISTAKE")
    page.wait_for_function("""() => {
        const gd = document.querySelector('.olc-plot[data-figure-id="main"]');
        const t = gd.data.find(d => d.name === 'yₜ·xₜ (the update)');
        return t && t.x.length === 2;
    }""")
    hyper = trace_by_name(page, "main", "w·x = 0 (the learner)")
    assert hyper != hyper_before
    # the drawn hyperplane is w·x = 0 for the weights after this mistake
    w = tr.weights_at(target)
    direction = np.array([hyper["x"][1] - hyper["x"][0], hyper["y"][1] - hyper["y"][0]])
    assert abs(direction @ w) <= 1e-3 * np.linalg.norm(direction) * np.linalg.norm(w)
    ledger = page.inner_text(f"{VIEWER} .olc-ledger")
    assert ledger != ledger_before
    marks = page.locator(f"{VIEWER} .olc-ledger .olc-mark").all_inner_texts()
    assert marks and set(marks) == {"✓"}
    page.wait_for_function("t => new URL(location.href).searchParams.get('t') === String(t)", arg=target)
    assert re.search(rf"[?&]seed={SEED}(&|$)", page.url)

    page.reload()
    page.wait_for_selector(f'{VIEWER}[data-ready="true"]', timeout=90_000)
    expect(caption(page)).to_contain_text(f"Round {target} of {T}")


def test_uploaded_files_bad_then_good(page, url, tmp_path):
    page.goto(f"{url}/perceptron?data=upload")
    expect(page.get_by_text("choose a CSV file")).to_be_visible(timeout=60_000)
    bad = tmp_path / "bad.csv"
    bad.write_text("x1,x2,label\n0.5,<b>oops</b>,1\n0.1,0.2,-1\n")
    page.locator('input[type="file"]').set_input_files(str(bad))
    alert = page.locator('[data-testid="stAlertContentError"]')
    expect(alert).to_contain_text("'<b>oops</b>' is not a number", timeout=60_000)   # shown as text, not HTML
    assert page.locator('[data-testid="stAlertContentError"] b').count() == 0
    good = tmp_path / "good.csv"
    good.write_text("x1,x2,label\n0.5,0.9,1\n-0.4,0.3,-1\n0.8,-0.2,1\n-0.7,-0.6,-1\n")
    page.locator('input[type="file"]').set_input_files(str(good))
    page.wait_for_selector(f'{VIEWER}[data-ready="true"]', timeout=90_000)
    expect(caption(page)).to_contain_text("of 4")
    assert page.locator('[data-testid="stAlertContentError"]').count() == 0
