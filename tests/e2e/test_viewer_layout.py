"""The step viewer's control row in normal (not presentation) mode, in a real browser: it fits on one line at a
laptop's 1100 px (the sidebar open; before, "Last" wrapped alone onto a second line) and, resized to a phone's
390 px, lays itself out again as the phone's step bar (viewer_phone.js, issue 25) in tidy rows: the five steps,
then the two mistake jumps and the Ledger jump, then the scrubber, the bar stuck to the bottom of the screen; the
speed and the download in a row of their own after the charts. Every control visible, inside the viewer and
≥ 44×44 px."""
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
  const box = (e) => { if (!e) return null; const r = e.getBoundingClientRect();
    return {top: Math.round(r.top), left: r.left, right: r.right, bottom: Math.round(r.bottom)}; };
  const plots = [...document.querySelectorAll('.olc-viewer .olc-plot')].map((e) => e.getBoundingClientRect().bottom);
  const out = {right: v.right, left: v.left, ctl: {}, bar: box(document.querySelector('.olc-viewer .olc-phone-bar')),
    chart_bottom: plots.length ? Math.max(...plots) : null, scroll_width: document.scrollingElement.scrollWidth};
  const sel = ['.olc-controls .olc-btn', '.olc-speed', '.olc-scrub', '.olc-phone-bar .olc-btn']
    .map((s) => '.olc-viewer ' + s).join(', ');
  for (const e of document.querySelectorAll(sel)) {
    const r = e.getBoundingClientRect(), st = getComputedStyle(e);
    const name = e.dataset.control || (e.classList.contains('olc-download') ? 'download' : e.className.replace('olc-', ''));
    // the speed's box is its label and list: the list is the control
    const hit = e.classList.contains('olc-speed') ? e.querySelector('select') : e;
    const hr = hit.getBoundingClientRect();
    out.ctl[name] = {top: Math.round(r.top), left: r.left, right: r.right, bottom: Math.round(r.bottom),
      where: e.closest('.olc-phone-bar') ? 'bar' : 'controls',
      visible: r.width > 0 && r.height > 0 && st.visibility !== 'hidden' && st.display !== 'none' && +st.opacity > 0,
      hit: {top: hr.top, bottom: hr.bottom, left: hr.left, right: hr.right}};
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
        page.wait_for_selector(".olc-viewer.olc-phone .olc-phone-bar .olc-nav", timeout=30_000)
        page.wait_for_function("() => document.querySelector('.olc-viewer').getBoundingClientRect().width < 400")
        page.wait_for_timeout(300)
        page.locator(".olc-viewer .olc-caption").scroll_into_view_if_needed()
        page.wait_for_timeout(200)
        lay = page.evaluate(ROWS_JS)
        c = lay["ctl"]
        bar = lay["bar"]
        want = [*STEPS, "ledger", "scrub", "speed", "download"]
        assert all(k in c for k in want), sorted(c)
        # the step bar: five steps, then the mistake jumps and the Ledger jump, then the scrubber
        assert {c[k]["where"] for k in [*STEPS, "ledger", "scrub"]} == {"bar"}, c
        first, second = ("first", "previous", "play", "next", "last"), ("previous-mistake", "next-mistake", "ledger")
        row1, row2 = {c[s]["top"] for s in first}, {c[s]["top"] for s in second}
        assert len(row1) == 1 and len(row2) == 1 and min(row2) >= max(c[s]["bottom"] for s in first), c
        assert c["scrub"]["top"] >= max(c[s]["bottom"] for s in second), c
        # in each row the controls are side by side (left to right, none over another)
        for row in (first, second):
            assert all(c[a]["right"] <= c[b]["left"] + 0.5 for a, b in zip(row, row[1:])), (row, c)
        # the speed and the download: one row of their own, after the charts
        assert c["speed"]["where"] == c["download"]["where"] == "controls", c
        assert c["speed"]["top"] == c["download"]["top"] and c["speed"]["top"] > lay["chart_bottom"], c
        for k in want:                     # every control visible, inside the viewer, at least 44 px tall and wide
            b = c[k]
            assert b["visible"], (k, b)
            assert lay["left"] - 0.5 <= b["left"] and b["right"] <= lay["right"] + 0.5, (k, b, lay)
            h = b["hit"]
            assert h["bottom"] - h["top"] >= 44 and h["right"] - h["left"] >= 44, (k, b)
        # no row overflows: the bar and the viewer are no wider than the screen, the bar is on it
        assert lay["scroll_width"] <= 390 and bar["left"] >= 0 and bar["right"] <= 390.5, lay
        assert 0 <= bar["top"] and bar["bottom"] <= 844 + 1, bar
    finally:
        ctx.close()
