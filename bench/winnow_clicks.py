"""'Next mistake' click → caption changed, on the Winnow page (N = T = 10⁴) and on the Experts page.

    /work/main/.venv/bin/python bench/winnow_clicks.py http://localhost:8621 [--clicks 20]

Needs a running server of this app (streamlit run app.py). Each click is timed in the page, from the
click event to the first animation frame after the caption's text changed; clicks are 600 ms apart
(past the viewer's 400 ms position report). Prints median and p95 per page.
"""
from __future__ import annotations

import argparse
import statistics
import time

from playwright.sync_api import sync_playwright

PAGES = {"winnow N=T=10⁴": "/winnow?N=10000&k=3&T=10000&t=0",
         "experts (default)": "/experts?t=0"}

JS = """() => new Promise(resolve => {
    const cap = document.querySelector('.olc-viewer .olc-caption');
    const before = cap.textContent;
    const btn = [...document.querySelectorAll('.olc-viewer button')].find(b => b.getAttribute('aria-label') === 'Next mistake');
    const t0 = performance.now();
    const check = () => {
        if (cap.textContent !== before) requestAnimationFrame(() => resolve(performance.now() - t0));
        else requestAnimationFrame(check);
    };
    btn.click();
    requestAnimationFrame(check);
})"""


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("base")
    ap.add_argument("--clicks", type=int, default=20)
    a = ap.parse_args()
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path="/usr/bin/chromium", args=["--disable-gpu", "--disable-quic"])
        for name, path in PAGES.items():
            pg = b.new_page(viewport={"width": 1100, "height": 800})
            t0 = time.perf_counter()
            pg.goto(a.base + path)
            pg.wait_for_selector('.olc-viewer[data-ready="true"]', timeout=300_000)
            load = time.perf_counter() - t0
            times = []
            for _ in range(a.clicks):
                times.append(pg.evaluate(JS))
                time.sleep(0.6)
            times.sort()
            p95 = times[min(len(times) - 1, int(0.95 * len(times)))]
            print(f"{name}: first load → drawn {load:.1f} s; click → caption changed: median "
                  f"{statistics.median(times):.0f} ms, p95 {p95:.0f} ms ({len(times)} clicks)")
            pg.close()
        b.close()


if __name__ == "__main__":
    main()
