"""The exponentiated-update lesson in the real app, in headless Chromium: a deep link, "Next mistake" moves the
round and redraws the weights, the sandwich's trajectory and the ledger; a CSV with an entry outside [−1, 1] is
refused with a message naming its row."""
from __future__ import annotations

import numpy as np
import pytest

import olc_core

pytest.importorskip("playwright")
from playwright.sync_api import expect  # noqa: E402

from viewerpage import VIEWER, trace_by_name  # noqa: E402

T, N, K, SEED = 300, 20, 3, 0
START = 40


@pytest.fixture(scope="module")
def url(streamlit_app) -> str:
    return streamlit_app("app.py")


@pytest.fixture(scope="module")
def run():
    s = olc_core.streams.sparse_simplex(T=T, N=N, k=K, seed=SEED)
    return s, olc_core.run("normalized_winnow", s.X, s.y, comparator=s.comparator, delta=s.info["delta"])


def test_deep_link_next_mistake_redraws(page, url, run):
    s, tr = run
    page.goto(f"{url}/exponentiated_update?data=sparse&N={N}&k={K}&T={T}&seed={SEED}&t={START}")
    page.wait_for_selector(f'{VIEWER}[data-ready="true"]', timeout=90_000)
    caption = page.locator(f"{VIEWER} .olc-caption")
    expect(caption).to_contain_text(f"Round {START} of {T}")
    for fid in ("weights", "margins", "sandwich", "eta"):
        page.wait_for_selector(f'.olc-plot[data-figure-id="{fid}"] .main-svg')
    bars_before = trace_by_name(page, "weights", "weights wᵢ (Σ wᵢ = 1)")["y"]
    path_before = trace_by_name(page, "sandwich", "Φ = KL(u‖w), the run")
    ledger_before = page.inner_text(f"{VIEWER} .olc-ledger")

    page.get_by_role("button", name="Next mistake", exact=True).click()
    m = int(tr.mistakes[np.searchsorted(tr.mistakes, START)])
    target = m + 1
    expect(caption).to_contain_text(f"Round {target} of {T}")
    expect(caption).to_contain_text("MISTAKE")
    k = tr.mistakes_before(target)
    page.wait_for_function("""k => {
        const gd = document.querySelector('.olc-plot[data-figure-id="sandwich"]');
        const t = gd.data.find(d => d.name === 'Φ now');
        return t && t.x.length === 1 && t.x[0] === k;
    }""", arg=k)
    now = trace_by_name(page, "sandwich", "Φ now")
    assert now["y"][0] == pytest.approx(tr.proof.series["kl"][k], rel=1e-6)
    drop = trace_by_name(page, "sandwich", "the last mistake's drop")
    assert drop["x"] == [k - 1, k]
    assert trace_by_name(page, "sandwich", "Φ = KL(u‖w), the run") != path_before
    bars = trace_by_name(page, "weights", "weights wᵢ (Σ wᵢ = 1)")["y"]
    assert bars != bars_before and np.asarray(bars) == pytest.approx(tr.weights_at(target), rel=1e-4)
    assert page.inner_text(f"{VIEWER} .olc-ledger") != ledger_before
    marks = page.locator(f"{VIEWER} .olc-ledger .olc-mark").all_inner_texts()
    assert marks and set(marks) == {"✓"}
    page.wait_for_function("t => new URL(location.href).searchParams.get('t') === String(t)", arg=target)


def test_upload_outside_the_box_names_the_row(page, url, tmp_path):
    f = tmp_path / "box.csv"
    f.write_text("x1,x2,x3,label\n0.5,-1,0.25,1\n0.2,0.3,-1.75,-1\n")
    page.goto(f"{url}/exponentiated_update?data=upload")
    page.locator('[data-testid="stFileUploaderDropzoneInput"]').set_input_files(str(f))
    err = page.locator('[data-testid="stAlertContentError"]').first
    expect(err).to_contain_text("row 3 has x3 = -1.75, outside [−1, 1]", timeout=60_000)
    expect(page.get_by_text("‖x‖∞ ≤ 1", exact=False).first).to_be_visible()
