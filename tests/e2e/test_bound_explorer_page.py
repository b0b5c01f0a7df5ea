"""The Bound explorer in the real app, in headless Chromium (Debian's): a deep link to Halving's worst case
draws the measured mistakes of olc_core.sweep (ratio 1 at powers of two), the CSV download is the sweep's
table, and the bound-attaining switch turned off redraws the charts from the random streams and writes the URL."""
from __future__ import annotations

import pytest

import olc_core

pytest.importorskip("playwright")
from playwright.sync_api import expect  # noqa: E402

VALUES = [2, 4, 8, 16, 32, 64]
LINK = "alg=halving&worst=1&param=N&N_lo=2&N_hi=64&points=6&scale=log&seeds=2&T=50"
PLOTS = '[data-testid="stPlotlyChart"] .js-plotly-plot'


@pytest.fixture(scope="module")
def url(streamlit_app) -> str:
    return streamlit_app("app.py")


def _medians(page) -> list:
    return page.evaluate(f"""() => {{
        const gd = document.querySelectorAll('{PLOTS}')[0];
        return Array.from(gd.data.find(d => d.name.startsWith('measured mistakes')).y);
    }}""")


def _wait_medians(page, want: list) -> None:
    page.wait_for_function(f"""want => {{
        const gds = document.querySelectorAll('{PLOTS}');
        if (gds.length !== 2 || !gds[0].data) return false;
        const t = gds[0].data.find(d => d.name.startsWith('measured mistakes'));
        return t && JSON.stringify(Array.from(t.y)) === JSON.stringify(want);
    }}""", arg=want, timeout=90_000)


def test_deep_link_worst_case_csv_and_the_switch(page, url):
    page.set_viewport_size({"width": 1100, "height": 800})
    worst = olc_core.sweep("halving", "N", VALUES, seeds=2, T=50, worst_case=True)
    page.goto(f"{url}/bound_explorer?{LINK}")
    expect(page.locator("h1").first).to_contain_text("Bound explorer", timeout=90_000)
    _wait_medians(page, worst.summary()["mistakes_median"].tolist())
    assert _medians(page) == [1.0, 2.0, 3.0, 4.0, 5.0, 6.0]
    ratio = page.evaluate(f"""() => Array.from(document.querySelectorAll('{PLOTS}')[1].data
        .find(d => d.name.startsWith('measured / bound')).y)""")
    assert ratio == pytest.approx([1.0] * 6)

    with page.expect_download() as dl:
        page.get_by_role("button", name="Download the table (CSV: one row per run)").click()
    assert open(dl.value.path(), encoding="utf-8").read() == worst.to_csv()

    page.get_by_text("Bound-attaining streams (the worst case)").click()
    random = olc_core.sweep("halving", "N", VALUES, seeds=2, T=50)
    _wait_medians(page, random.summary()["mistakes_median"].tolist())
    page.wait_for_function("() => new URL(location.href).searchParams.get('worst') === '0'", timeout=30_000)
    assert "N_hi=64" in page.url
