#!/usr/bin/env python3
"""What a lecturer's PageDown costs: every shipped tour walked in a real (headless) Chromium, each PageDown timed
to the next stop drawn.

    .venv/bin/python bench/tour.py            # every stop of every tour in tours/ (~72 stops); ~2-3 minutes
    .venv/bin/python bench/tour.py --smoke    # the first 3 stops of one tour: shows the bench works (CI)

The app (app.py) in Debian's Chromium driven by Playwright (tests/e2e/stbrowser.py), in presentation mode at a
projector's 1100×800, one browser context per tour: its first stop is opened (not timed), then for each next stop
PageDown is pressed and timed from the key press to the first animation frame after the next stop is drawn — its
tour bar with ``data-stop`` = k, its claim decided (``data-claim``), its maths typeset, and the step viewer ready at
the stop's round (``data-position`` = t; a stop that asks about its round: t − 1) on the very run the bar's claim was
decided on (the bar's ``data-run`` = the viewer's ``data-run-id``). A PageDown to a stop on another page opens its
link (a page load from a warm browser cache); to a stop on the same page it moves without a page load (the viewer's
tour mode: the round at once, the stop's settings and bar by one rerun; docs/tours.md). Each run of this script
starts its own server, so every stop's core run is computed when the stop is first reached (nothing is cached from
an earlier walk). The last line: ``tour: tours=N stops=M median_ms=… max_ms=…`` (M: the timed PageDowns).
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "e2e"))
sys.path.insert(0, str(ROOT))
from playwright.sync_api import sync_playwright  # noqa: E402
from stbrowser import StreamlitServer, launch_kwargs  # noqa: E402

from olc_ui.shared.tours.bar import stop_href  # noqa: E402
from olc_ui.shared.tours.store import shipped  # noqa: E402

#: the stop k (1-based) is drawn: its bar, its claim decided, its maths typeset, the viewer ready at round t
DRAWN = """([k, t]) => {
  const b = document.querySelector('.olc-tour');
  const v = document.querySelector('.olc-viewer');
  return !!(b && b.dataset.stop === String(k) && b.dataset.claim && getComputedStyle(b).visibility === 'visible' &&
    (!b.querySelector('.olc-tex') || b.querySelector('.olc-tex .katex')) &&
    v && v.dataset.ready === 'true' && v.dataset.position === String(t) && b.dataset.run === v.dataset.runId);
}"""


def opens_at(stop) -> int:
    """The round the viewer shows when the stop is drawn: its round, or just before it for a stop that asks about it."""
    return stop.t - 1 if stop.ask else stop.t


FRAME = "() => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)))"


def walk(browser, url: str, tour, last: int) -> tuple[list[float], list[str]]:
    """PageDown through stops 2 … last of ``tour``: the times (ms) and the claims that did not hold."""
    ctx = browser.new_context(viewport={"width": 1100, "height": 800})
    page = ctx.new_page()
    page.set_default_timeout(120_000)
    times, bad = [], []
    try:
        page.goto(f"{url}/{stop_href(tour, 0, {'present': '1'})}")
        page.wait_for_function(DRAWN, arg=[1, opens_at(tour.stops[0])])
        for k in range(1, last):
            t0 = time.perf_counter()
            page.keyboard.press("PageDown")
            page.wait_for_function(DRAWN, arg=[k + 1, opens_at(tour.stops[k])], polling="raf")
            page.evaluate(FRAME)
            times.append((time.perf_counter() - t0) * 1000)
            claim = page.evaluate("() => document.querySelector('.olc-tour').dataset.claim")
            if claim != "holds":
                bad.append(f"{tour.id} stop {k + 1}: {claim}")
    finally:
        ctx.close()
    return times, bad


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--smoke", action="store_true", help="the first 3 stops of one tour (CI: the bench works)")
    args = ap.parse_args()
    tours = sorted(shipped().tours.values(), key=lambda t: t.id)
    if args.smoke:
        tours = tours[:1]

    times: list[float] = []
    bad: list[str] = []
    with StreamlitServer(ROOT / "app.py", cwd=ROOT, python=sys.executable) as srv, sync_playwright() as pw:
        browser = pw.chromium.launch(**launch_kwargs())
        try:
            for tour in tours:
                last = min(len(tour), 3) if args.smoke else len(tour)
                got, wrong = walk(browser, srv.url.rstrip("/"), tour, last)
                print(f"{tour.id}: {len(got)} PageDowns, median {statistics.median(got):.0f} ms, "
                      f"max {max(got):.0f} ms; " + ", ".join(f"{x:.0f}" for x in got), flush=True)
                times += got
                bad += wrong
        finally:
            browser.close()
    for b in bad:
        print("claim not holding:", b)
    print(f"tour: tours={len(tours)} stops={len(times)} median_ms={statistics.median(times):.0f} "
          f"max_ms={max(times):.0f}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
