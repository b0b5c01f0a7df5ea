"""The downloaded standalone figure (assets/viewer_export.js) keeps each figure's on-screen size and
aspect: a sandwich drawn in a narrow column was stretched to the page's full width in the file, its
axes squashed (issue 13 §7)."""
from __future__ import annotations

import pytest

pytest.importorskip("playwright")

SIZES_JS = """() => [...document.querySelectorAll(%s)].map(g => [Math.round(g._fullLayout.width), Math.round(g._fullLayout.height)])"""


@pytest.fixture(scope="module")
def url(streamlit_app) -> str:
    return streamlit_app("app.py")


def test_exported_figures_have_their_on_screen_sizes(page, url, tmp_path):
    page.goto(f"{url}/perceptron?t=40")
    page.wait_for_selector('.olc-viewer[data-ready="true"]', timeout=90_000)
    shown = page.evaluate(SIZES_JS % "'.olc-plot'")
    assert len(shown) == 3 and shown[1][0] < 0.6 * shown[1][1] * 4  # the sandwiches sit in a narrow column
    with page.expect_download(timeout=60_000) as info:
        page.get_by_role("button", name="Download the figure at this round (HTML)").click()
    path = tmp_path / "figure.html"
    info.value.save_as(path)
    page.goto(path.as_uri())
    page.wait_for_function("() => [...document.querySelectorAll('.fig')].every(g => g._fullLayout)")
    exported = page.evaluate(SIZES_JS % "'.fig'")
    assert len(exported) == len(shown)
    for (w0, h0), (w1, h1) in zip(shown, exported):
        assert abs(w0 - w1) <= 1 and abs(h0 - h1) <= 1, f"on screen {w0}×{h0}, exported {w1}×{h1}"
    # side by side as in the viewer: the two sandwiches share a row when the page is wide enough
    tops = page.evaluate("() => [...document.querySelectorAll('.fig')].map(g => Math.round(g.getBoundingClientRect().top))")
    assert tops[1] == tops[2]
