"""The randomised FTRL lesson in the real app, in headless Chromium (Debian's): a deep link, "Next mistake"
moves the round, the ledger and the charts change to the run's numbers, the URL follows, a reload keeps it;
the band of seeded runs is drawn."""
from __future__ import annotations

import re

import pytest

import olc_core

pytest.importorskip("playwright")
from playwright.sync_api import expect  # noqa: E402

from viewerpage import VIEWER, caption, trace_by_name  # noqa: E402

T, ALPHA, SEED, RUNS = 160, 0.9, 2, 20
START = 40


@pytest.fixture(scope="module")
def url(streamlit_app) -> str:
    return streamlit_app("app.py")


@pytest.fixture(scope="module")
def run():
    s = olc_core.streams.separable(T=T, d=2, gamma=0.1, radius=1.0, seed=0)
    return s, olc_core.run("ftrl_randomized", s.X, s.y, eta=ALPHA, seed=SEED)




def test_deep_link_next_mistake_redraws_and_the_url_follows(page, url, run):
    s, tr = run
    page.goto(f"{url}/ftrl?T={T}&alpha={ALPHA}&seed={SEED}&runs={RUNS}&t={START}")
    page.wait_for_selector(f'{VIEWER}[data-ready="true"]', timeout=90_000)
    expect(caption(page)).to_contain_text(f"Round {START} of {T}")
    for fid in ("plane", "prob", "mistakes", "regret", "alpha"):
        page.wait_for_selector(f'.olc-plot[data-figure-id="{fid}"] .main-svg')
    ledger_before = page.inner_text(f"{VIEWER} .olc-ledger")
    em_before = trace_by_name(page, "mistakes", "E[Mₜ] = Σ ℓₛ(wₛ) (expected mistakes)", "markers")
    assert em_before["x"] == [START]

    page.get_by_role("button", name="Next mistake", exact=True).click()
    target = int(tr.mistakes[tr.mistakes >= START][0]) + 1      # first realised mistake on a round ≥ START + 1
    expect(caption(page)).to_contain_text(f"Round {target} of {T}")
    expect(caption(page)).to_contain_text("MISTAKE")
    page.wait_for_function("""p => {
        const gd = document.querySelector('.olc-plot[data-figure-id="regret"]');
        const t = gd.data.find(d => d.name === 'regret Σ ℓₛ(wₛ) − ℓₛ(u*ₜ)' && d.mode === 'markers');
        return t && t.x.length === 1 && t.x[0] === p;
    }""", arg=target)
    S = tr.proof.series
    reg = trace_by_name(page, "regret", "regret Σ ℓₛ(wₛ) − ℓₛ(u*ₜ)", "markers")
    assert reg["y"][0] == pytest.approx(S["regret"][target], abs=1e-4)
    em = trace_by_name(page, "mistakes", "E[Mₜ] = Σ ℓₛ(wₛ) (expected mistakes)", "markers")
    assert em != em_before and em["y"][0] == pytest.approx(S["expected_mistakes"][target], abs=1e-4)
    w = trace_by_name(page, "plane", "wₜ₊₁ (after round t)")
    assert [w["x"][1], w["y"][1]] == pytest.approx(tr.weights_at(target).tolist(), abs=1e-5)
    ledger = page.inner_text(f"{VIEWER} .olc-ledger")
    assert ledger != ledger_before
    marks = page.locator(f"{VIEWER} .olc-ledger .olc-mark").all_inner_texts()
    assert marks and set(marks) <= {"✓", "—"} and "✓" in marks
    page.wait_for_function("t => new URL(location.href).searchParams.get('t') === String(t)", arg=target)
    assert re.search(rf"[?&]alpha={ALPHA}(&|$)", page.url) and re.search(rf"[?&]seed={SEED}(&|$)", page.url)
    band = trace_by_name(page, "mistakes", f"realised M: 5%–95% of {RUNS} seeded runs (dotted: median)")
    assert band is not None and band["x"][-1] == T and max(band["y"]) > 0

    page.reload()
    page.wait_for_selector(f'{VIEWER}[data-ready="true"]', timeout=90_000)
    expect(caption(page)).to_contain_text(f"Round {target} of {T}")
