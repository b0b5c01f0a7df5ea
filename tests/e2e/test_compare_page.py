"""The Compare page in the real app, in headless Chromium: a deep link, then "Next mistake" moves the ONE
shared cursor, and every chart (the mistakes, each learner's weights and sandwich) and the ledger change."""
from __future__ import annotations

import numpy as np
import pytest

import olc_core
from olc_core.streams.compare import sparse_instances, views

pytest.importorskip("playwright")
from playwright.sync_api import expect  # noqa: E402

from viewerpage import VIEWER, caption  # noqa: E402

T, N, SEED = 200, 40, 3
K = (N + 1) // 2  # the dense preset: half the variables relevant, one bit on per example


@pytest.fixture(scope="module")
def url(streamlit_app) -> str:
    return streamlit_app("app.py")


@pytest.fixture(scope="module")
def runs():
    s = sparse_instances(T=T, N=N, k=K, ones=1, seed=SEED)
    return [olc_core.run(alg, v.X, v.y, comparator=v.comparator) for alg, v in views(s).items()]


def _data(page, fid: str) -> list:
    return page.evaluate("""f => Array.from(document.querySelector(`.olc-plot[data-figure-id="${f}"]`).data)
        .map(d => ({name: d.name, x: Array.from(d.x || []), y: Array.from(d.y || [])}))""", fid)


def test_deep_link_next_mistake_moves_every_chart_and_the_ledger(page, url, runs):
    # a start whose next mistake (of any learner) is a mistake of all three, so every chart must move
    union = sorted(set().union(*[set(tr.mistakes.tolist()) for tr in runs]))
    common = [m for m in union if all(m in set(tr.mistakes.tolist()) for tr in runs) and m >= 10]
    m = common[0]
    start = max(u for u in union if u < m) + 1  # the round shown after the previous mistake
    page.goto(f"{url}/compare?preset=dense&N={N}&T={T}&seed={SEED}&t={start}")
    page.wait_for_selector(f'{VIEWER}[data-ready="true"]', timeout=120_000)
    expect(caption(page)).to_contain_text(f"Round {start} of {T}")
    ids = ["mistakes", "w0", "w1", "w2", "s0", "s1", "s2"]
    for fid in ids:
        page.wait_for_selector(f'.olc-plot[data-figure-id="{fid}"] .main-svg')
    before = {fid: _data(page, fid) for fid in ids}
    ledger_before = page.inner_text(f"{VIEWER} .olc-ledger")

    page.get_by_role("button", name="Next mistake", exact=True).click()
    target = m + 1
    expect(caption(page)).to_contain_text(f"Round {target} of {T}")
    expect(caption(page)).to_contain_text("MISTAKE")
    page.wait_for_function(f"() => document.querySelector('{VIEWER}').dataset.position === '{target}'")
    after = {fid: _data(page, fid) for fid in ids}
    for fid in ids:
        assert after[fid] != before[fid], f"chart {fid} did not change"
    assert page.inner_text(f"{VIEWER} .olc-ledger") != ledger_before
    # what moved is each learner's run: its mistakes so far, its weights, its sandwich's mistake count
    for i, tr in enumerate(runs):
        name = {0: "Perceptron", 1: "Winnow", 2: "Exponentiated update"}[i]
        now = next(d for d in after["mistakes"] if d["name"] == name + " now")
        assert now["x"] == [target] and now["y"] == [tr.mistakes_before(target)]
        marks = [d for d in after[f"s{i}"] if d["name"].endswith(" now")]
        assert marks[0]["x"][0] == pytest.approx(tr.mistakes_before(target))
    bars = after["w0"][0]["y"]
    assert np.allclose(bars, runs[0].weights_at(target), atol=1e-4)
    # the round is mirrored in the URL
    page.wait_for_function(f"() => new URL(location.href).searchParams.get('t') === '{target}'")
