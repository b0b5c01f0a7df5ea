"""The Winnow lesson in the real app, in headless Chromium: a deep link, "Next mistake" moves the round,
the moved weights show their factor, the bound sandwich's marker and the ledger change, the URL follows."""
from __future__ import annotations

import numpy as np
import pytest

import olc_core

pytest.importorskip("playwright")
from playwright.sync_api import expect  # noqa: E402

VIEWER = ".olc-viewer"
T, N, K, SEED = 300, 30, 2, 1
START = 20


@pytest.fixture(scope="module")
def url(streamlit_app) -> str:
    return streamlit_app("app.py")


def _trace(page, figure: str, name: str) -> dict | None:
    return page.evaluate("""([f, n]) => {
        const gd = document.querySelector(`.olc-plot[data-figure-id="${f}"]`);
        const t = gd.data.find(d => d.name === n);
        return t ? {x: Array.from(t.x || []), y: Array.from(t.y || []), text: Array.from(t.text || [])} : null;
    }""", [figure, name])


def test_deep_link_next_mistake_redraws(page, url):
    s = olc_core.streams.sparse_disjunction(T=T, N=N, k=K, seed=SEED, dtype=np.uint8)
    tr = olc_core.run("winnow", s.X, s.y, beta=1.0, comparator=s.comparator)
    page.goto(f"{url}/winnow?N={N}&k={K}&T={T}&seed={SEED}&t={START}")
    page.wait_for_selector(f'{VIEWER}[data-ready="true"]', timeout=90_000)
    cap = page.locator(f"{VIEWER} .olc-caption")
    expect(cap).to_contain_text(f"Round {START} of {T}")
    for fid in ("weights", "potential", "bound"):
        page.wait_for_selector(f'.olc-plot[data-figure-id="{fid}"] .main-svg')
    ledger_before = page.inner_text(f"{VIEWER} .olc-ledger")
    marker_before = _trace(page, "bound", "M now")
    page.get_by_role("button", name="Next mistake", exact=True).click()
    m = int(tr.mistakes[np.searchsorted(tr.mistakes, START)])
    target = m + 1
    expect(cap).to_contain_text(f"Round {target} of {T}")
    expect(cap).to_contain_text("MISTAKE")
    k = tr.mistakes_before(target)
    page.wait_for_function("""k => {
        const gd = document.querySelector('.olc-plot[data-figure-id="bound"]');
        const t = gd.data.find(d => d.name === 'M now');
        return t && t.x.length === 1 && t.x[0] === k;
    }""", arg=k)
    assert _trace(page, "bound", "M now") != marker_before
    bars = page.evaluate("""() => {
        const gd = document.querySelector('.olc-plot[data-figure-id="weights"]');
        return {y: Array.from(gd.data[0].y), base: gd.data[0].base};
    }""")
    L = tr.log_base
    assert np.asarray(bars["y"]) + bars["base"] == pytest.approx(tr.log_weights_at(target) / L, abs=1e-6)
    factor = _trace(page, "weights", "factor")
    assert factor["x"] == (np.flatnonzero(s.X[m]) + 1).tolist()
    assert set(factor["text"]) == ({"×2"} if s.y[m] == 1 else {"÷2"})
    assert page.inner_text(f"{VIEWER} .olc-ledger") != ledger_before
    marks = page.locator(f"{VIEWER} .olc-ledger .olc-mark").all_inner_texts()
    assert marks and set(marks) == {"✓"}
    page.wait_for_function("t => new URL(location.href).searchParams.get('t') === String(t)", arg=target)
