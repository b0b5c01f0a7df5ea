"""The step viewer's control row in normal (not presentation) mode, in a real browser: it fits on one line at a
laptop's 1100 px (the sidebar open; before, "Last" wrapped alone onto a second line) and wraps in tidy rows at a
phone's 390 px: the five steps, the two mistake jumps, the scrubber, the speed and the download."""
from __future__ import annotations

import pytest

pytest.importorskip("playwright")

from viewerpage import expect_position, open_viewer  # noqa: E402


@pytest.fixture(scope="module")
def url(streamlit_app) -> str:
    return streamlit_app("app.py")


_open, _at = open_viewer, expect_position


ROWS_JS = """() => {
  const v = document.querySelector('.olc-viewer').getBoundingClientRect();
  const out = {right: v.right, left: v.left, ctl: {}};
  for (const e of document.querySelectorAll('.olc-viewer .olc-controls .olc-btn, .olc-viewer .olc-speed, .olc-viewer .olc-scrub')) {
    const r = e.getBoundingClientRect();
    const name = e.dataset.control || (e.classList.contains('olc-download') ? 'download' : e.className.replace('olc-', ''));
    out.ctl[name] = {top: Math.round(r.top), left: r.left, right: r.right, bottom: Math.round(r.bottom)};
  }
  return out;
}"""

STEPS = ["first", "previous-mistake", "previous", "play", "next", "next-mistake", "last"]


def test_controls_fit_one_row_at_1100_and_wrap_in_rows_at_390(browser, url):
    ctx = browser.new_context(viewport={"width": 1100, "height": 800})
    page = ctx.new_page()
    try:
        _open(page, url)
        lay = page.evaluate(ROWS_JS)
        c = lay["ctl"]
        assert len({c[s]["top"] for s in STEPS}) == 1, c          # every step button on one row
        assert all(c[k]["right"] <= lay["right"] + 0.5 for k in c), c
        assert c["speed"]["top"] >= c["last"]["bottom"] - 1       # the speed, scrubber, download row below
        page.set_viewport_size({"width": 390, "height": 844})
        page.wait_for_function("() => document.querySelector('.olc-viewer').getBoundingClientRect().width < 400")
        page.wait_for_timeout(300)
        lay = page.evaluate(ROWS_JS)
        c = lay["ctl"]
        row1 = {c[s]["top"] for s in ("first", "previous", "play", "next", "last")}
        row2 = {c[s]["top"] for s in ("previous-mistake", "next-mistake")}
        assert len(row1) == 1 and len(row2) == 1 and min(row2) > min(row1), c
        assert c["scrub"]["top"] > max(row2) and c["speed"]["top"] == c["download"]["top"] > c["scrub"]["top"], c
        assert all(lay["left"] - 0.5 <= c[k]["left"] and c[k]["right"] <= lay["right"] + 0.5 for k in c), c
    finally:
        ctx.close()
