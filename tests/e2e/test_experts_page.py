"""The Experts lesson in the real app, in headless Chromium (Debian's): a deep link to a Weighted Majority
run, "Next mistake" moves the round and redraws the weights, the sandwich and the ledger; the position is
mirrored in the URL and a reload opens the same round; the RWM band is drawn."""
from __future__ import annotations

import re

import numpy as np
import pytest

import olc_core
from olc_ui.lessons.experts.lesson import rates

pytest.importorskip("playwright")
from playwright.sync_api import expect  # noqa: E402

from viewerpage import VIEWER, caption, trace_by_name  # noqa: E402

T, N, SEED, BETA = 240, 8, 3, 0.6
START = 30


@pytest.fixture(scope="module")
def url(streamlit_app) -> str:
    return streamlit_app("app.py")


@pytest.fixture(scope="module")
def run():
    s = olc_core.streams.experts(T=T, N=N, error_rates=rates(0.1, 0.45, N), seed=SEED, exact=False, groups=2)
    return s, olc_core.run("weighted_majority", s.X, s.y, beta=BETA, update="on_mistake")




def test_deep_link_next_mistake_redraws_and_the_url_follows(page, url, run):
    s, tr = run
    page.goto(f"{url}/experts?alg=wm&beta={BETA}&N={N}&T={T}&seed={SEED}&t={START}")
    page.wait_for_selector(f'{VIEWER}[data-ready="true"]', timeout=90_000)
    expect(caption(page)).to_contain_text(f"Round {START} of {T}")
    # every chart is drawn, the advice matrix (an image under the axes) included
    for fid in ("weights", "sandwich", "advice", "mistakes"):
        page.wait_for_selector(f'.olc-plot[data-figure-id="{fid}"] .main-svg')
    page.wait_for_function("""() => document.querySelectorAll(
        '.olc-plot[data-figure-id="advice"] .imagelayer image').length === 1""")
    bars_before = page.evaluate(
        """() => Array.from(document.querySelector('.olc-plot[data-figure-id="weights"]').data[0].y)""")
    phi_before = trace_by_name(page, "sandwich", "Φ", "markers")
    ledger_before = page.inner_text(f"{VIEWER} .olc-ledger")
    # index notation in the ledger's words is set as sub/superscripts, not shown as "Φ_{t+1}"
    assert "_{" not in ledger_before and "^{" not in ledger_before
    assert page.locator(f"{VIEWER} .olc-ledger-title sub").first.inner_text() == "t+1"

    page.get_by_role("button", name="Next mistake", exact=True).click()
    m = int(tr.mistakes[np.searchsorted(tr.mistakes, START)])   # first mistake on rounds ≥ START (0-based)
    target = m + 1
    expect(caption(page)).to_contain_text(f"Round {target} of {T}")
    expect(caption(page)).to_contain_text("MISTAKE")
    # the sandwich's marker moved to the new mistake count and the run's potential
    page.wait_for_function("""k => {
        const gd = document.querySelector('.olc-plot[data-figure-id="sandwich"]');
        const t = gd.data.find(d => d.name === 'Φ' && d.mode === 'markers');
        return t && t.x.length === 1 && t.x[0] === k;
    }""", arg=tr.mistakes_before(target))
    phi = trace_by_name(page, "sandwich", "Φ", "markers")
    assert phi != phi_before
    assert phi["y"][0] == pytest.approx(tr.proof.series["log_phi"][target] / np.log(10), abs=2e-3)
    # the weight bars are the learner's weights after this mistake (log scale, from the axis bottom)
    bars = page.evaluate("""() => {
        const gd = document.querySelector('.olc-plot[data-figure-id="weights"]');
        return {y: Array.from(gd.data[0].y), base: gd.data[0].base};
    }""")
    assert bars["y"] != bars_before
    assert np.asarray(bars["y"]) + bars["base"] == pytest.approx(tr.log_weights_at(target) / np.log(10), abs=2e-3)
    # the advice matrix marks this round's column, and stays drawn after the step
    assert trace_by_name(page, "advice", "current round")["x"] == [target, target]
    assert trace_by_name(page, "advice", "current round ▼")["x"] == [target]
    assert page.evaluate("""() => document.querySelectorAll(
        '.olc-plot[data-figure-id="advice"] .imagelayer image').length""") == 1
    assert page.inner_text(f"{VIEWER} .olc-ledger") != ledger_before
    marks = page.locator(f"{VIEWER} .olc-ledger .olc-mark").all_inner_texts()
    assert marks and set(marks) == {"✓"}
    page.wait_for_function("t => new URL(location.href).searchParams.get('t') === String(t)", arg=target)
    assert re.search(rf"[?&]seed={SEED}(&|$)", page.url) and re.search(rf"[?&]beta={BETA}(&|$)", page.url)

    page.reload()
    page.wait_for_selector(f'{VIEWER}[data-ready="true"]', timeout=90_000)
    expect(caption(page)).to_contain_text(f"Round {target} of {T}")


def test_rwm_band_is_drawn(page, url):
    page.goto(f"{url}/experts?alg=rwm&eta=0.4&runs=20&N=6&T=150&t=75")
    page.wait_for_selector(f'{VIEWER}[data-ready="true"]', timeout=90_000)
    expect(caption(page)).to_contain_text("Round 75 of 150")
    expect(caption(page)).to_contain_text("Drew expert")
    band = trace_by_name(page, "mistakes", "5%–95% of 20 runs")
    assert band is not None and len(band["x"]) == 151 and max(band["y"]) > 0
    em = trace_by_name(page, "mistakes", "E[M] = Σ Fₜ", "markers")
    assert em["x"] == [75]
