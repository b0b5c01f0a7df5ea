#!/usr/bin/env python3
"""What a Streamlit rerun costs the server before any olc code runs: a base per run and a cost per element.

    .venv/bin/python bench/rerun_floor.py                 # n = 0, 20, 88, 200 elements, 60 reruns each
    .venv/bin/python bench/rerun_floor.py --no-compression
    .venv/bin/python bench/rerun_floor.py --smoke         # CI: n = 0, 20; 5 reruns each

Serves bench/apps/elements_app.py (``n`` Markdown elements and a slider) with the app's own config
(.streamlit/config.toml: the websocket compressed, no gc.collect() after a run), from the repository root, one
Streamlit process; one protocol client (bench/stproto.py: the browser's messages) asks for reruns back to back and
the server's CPU seconds (/proc) are divided by the reruns. A lesson page's full run sends ~88 messages (the
Perceptron page: docs/load.md, "200 students on one process"), so this says how much of its CPU is Streamlit's
whatever the page computes. Printed: one line per n, then the least-squares line through them; last line
``rerun_floor: base_ms=… per_element_ms=… n_max=… ms_at_n_max=…``.
"""
from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))
sys.path.insert(0, str(ROOT / "tests" / "e2e"))
import stproto  # noqa: E402
from load import proc_cpu_rss  # noqa: E402

APP = ROOT / "bench" / "apps" / "elements_app.py"


async def cpu_per_rerun(url: str, pid: int, reruns: int) -> tuple[float, int]:
    """Server CPU ms per rerun, and the messages one rerun sent."""
    c = stproto.Client(url)
    await c.connect()
    try:
        run = await c.rerun()
        for _ in range(2):                      # warm: the script compiled, the message cache filled
            run = await c.rerun()
        cpu0 = proc_cpu_rss([pid])[0]
        for _ in range(reruns):
            run = await c.rerun()
        if run.exceptions:
            raise RuntimeError(f"the app raised {run.exceptions[0]}")
        return 1000 * (proc_cpu_rss([pid])[0] - cpu0) / reruns, run.n_msgs
    finally:
        await c.close()


def fit(xs: list[int], ys: list[float]) -> tuple[float, float]:
    """Least squares ``y = a + b x``."""
    n = len(xs)
    mx, my = sum(xs) / n, sum(ys) / n
    sxx = sum((x - mx) ** 2 for x in xs)
    b = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sxx
    return my - b * mx, b


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sizes", default="0,20,88,200", help="element counts, comma-separated")
    ap.add_argument("--reruns", type=int, default=60, help="reruns per size")
    ap.add_argument("--no-compression", action="store_true", help="the websocket uncompressed")
    ap.add_argument("--smoke", action="store_true", help="n = 0, 20; 5 reruns each (CI)")
    args = ap.parse_args(argv)
    sizes = [0, 20] if args.smoke else [int(s) for s in args.sizes.split(",")]
    reruns = 5 if args.smoke else args.reruns
    if len(set(sizes)) < 2:
        ap.error("--sizes needs two different counts")
    from stbrowser import StreamlitServer

    with tempfile.TemporaryDirectory() as tmp:
        app = Path(tmp) / "elements_app.py"
        app.write_text(APP.read_text(encoding="utf-8"), encoding="utf-8")
        extra = ["--server.enableWebsocketCompression=false"] if args.no_compression else []
        with StreamlitServer(app, cwd=ROOT, extra_args=extra) as srv:
            ys = []
            for n in sizes:
                (Path(tmp) / "n").write_text(str(n), encoding="utf-8")
                ms, msgs = asyncio.run(cpu_per_rerun(srv.url, srv.pid, reruns))
                ys.append(ms)
                print(f"n = {n:4d} elements: {ms:6.2f} ms of server CPU per rerun ({msgs} messages)")
    base, per = fit(sizes, ys)
    print(f"least squares: {base:.2f} ms per run + {per:.3f} ms per element"
          + (" (websocket uncompressed)" if args.no_compression else " (websocket compressed: the app's config)"))
    print(f"rerun_floor: base_ms={base:.2f} per_element_ms={per:.3f} n_max={max(sizes)} ms_at_n_max={ys[sizes.index(max(sizes))]:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
