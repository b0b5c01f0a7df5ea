#!/usr/bin/env python3
"""What a move of "Play the adversary" costs in a real (headless) Chromium: click → board and caption at the new round.

    .venv/bin/python bench/game_latency.py                       # 12 moves at n = 4 from an empty game; ~1 minute
    .venv/bin/python bench/game_latency.py --root /tmp/olc-main  # the same moves on another checkout (before/after)
    .venv/bin/python bench/game_latency.py --smoke               # 3 moves: shows the bench works (CI), no measurement

The boolean-concepts lesson (app.py, /boolean_concepts?mode=adversary&an=4), opened with no move, in
Debian's Chromium driven by Playwright (tests/e2e/stbrowser.py), at 1280×900. For each move: the bits are
set with the page's checkboxes (each a fragment rerun, waited for, not timed), then the "Label 1" / "Label 0"
click is timed from the click event (capture phase, in the page) to the first animation frame after the
step viewer shows the new round — ``data-position`` = the move's number, the caption starting
"Round t of t", and the literal table's "in h" trace (gd.data) equal to the elimination learner's h after
the move (computed here by olc_core.run) — then a task (after that frame's paint). The first move is the
first click of the page (the viewer may not exist before it). Moves are at a human pace: the next one
waits until the server has answered the previous one (the viewer's run id names the moves and the script
is idle). The last line: ``game: moves=N median_ms=… max_ms=…``.
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "e2e"))
sys.path.insert(0, str(ROOT / "bench"))
sys.path.insert(0, str(ROOT))
from stbrowser import INSTRUMENT_JS, StreamlitServer, launch_kwargs  # noqa: E402
from ui_latency import WAIT_COND_JS  # noqa: E402

import olc_core  # noqa: E402
from olc_core.proofs.boolean import literal_name  # noqa: E402

#: 12 moves at n = 4: false negatives, correct answers both ways and a false positive (the labels stop
#: being a conjunction's at move 11)
MOVES = ["1111:1", "0111:1", "0011:0", "1011:1", "0001:0", "0101:0", "0111:1", "0000:0", "1001:0", "0011:1",
         "0111:0", "1111:1"]

#: the viewer shows round args.t of args.t, and the literal table's h is args.h (literal names, subscripts)
DRAWN = r"""(() => {
  const v = document.querySelector('.olc-viewer');
  if (!v || v.dataset.position !== String(args.t)) return false;
  if (!v.querySelector('.olc-caption').textContent.startsWith(`Round ${args.t} of ${args.t}:`)) return false;
  const gd = v.querySelector('.olc-plot[data-figure-id=main]');
  const h = gd && gd.data && gd.data.find(t => t.name === 'in h');
  if (!h) return false;
  const got = (h.text || []).filter(s => s !== null).join(' ');
  return got === args.h;
})()"""

SERVED = r"""(() => {
  const v = document.querySelector('.olc-viewer');
  const app = document.querySelector('[data-test-script-state]');
  return v && v.dataset.runId === args.run && v.dataset.ready === 'true' &&
         app && app.dataset.testScriptState === 'notRunning';
})()"""

_SUB = str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉")


def h_after(moves: list[str], n: int) -> str:
    """The literal names of the learner's h after these moves, as the literal table prints them."""
    X = np.array([[float(b) for b in m.split(":")[0]] for m in moves])
    y = np.array([float(m.split(":")[1]) for m in moves])
    w = olc_core.run("conjunction", X, y).weights_at(len(moves))
    return " ".join(literal_name(int(j)).translate(_SUB) for j in np.flatnonzero(w))


def wait(page, cond: str, args: dict, timeout_ms: int = 60_000) -> dict:
    return page.evaluate(WAIT_COND_JS, {"cond": cond, "args": args, "timeout_ms": timeout_ms})


def set_bits(page, bits: str) -> None:
    for i, b in enumerate(bits):
        box = page.locator(f".st-key-boolean_adv_bit{i} input[type=checkbox]")
        if box.is_checked() != (b == "1"):
            page.locator(f".st-key-boolean_adv_bit{i} label").first.click()
            page.wait_for_function(
                "([i, on]) => { const e = document.querySelector(`.st-key-boolean_adv_bit${i} input`);"
                " const app = document.querySelector('[data-test-script-state]');"
                " return e && e.checked === on && app && app.dataset.testScriptState === 'notRunning'; }",
                arg=[i, b == "1"], timeout=60_000)
    page.wait_for_timeout(150)


def play(page, moves: list[str], n: int) -> list[float]:
    out = []
    for t, move in enumerate(moves, start=1):
        bits, label = move.split(":")
        set_bits(page, bits)
        page.get_by_role("button", name=f"Label {label}", exact=True).click()
        r = wait(page, DRAWN, {"t": t, "h": h_after(moves[:t], n)})
        out.append(r["painted"] - r["click"])
        print(f"move {t:2d} {move}: {out[-1]:7.1f} ms", flush=True)
        wait(page, SERVED, {"run": f"adv-{n}-{','.join(moves[:t])}"})
        page.wait_for_timeout(300)
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--root", default=str(ROOT), help="the checkout whose app.py is served (default this one)")
    ap.add_argument("--moves", type=int, default=len(MOVES), help=f"moves to play (at most {len(MOVES)})")
    ap.add_argument("--smoke", action="store_true", help="3 moves: shows the bench works, not a measurement")
    args = ap.parse_args()
    moves = MOVES[: 3 if args.smoke else max(1, min(args.moves, len(MOVES)))]
    n = 4
    root = Path(args.root).resolve()
    py = str(ROOT / ".venv" / "bin" / "python") if (ROOT / ".venv" / "bin" / "python").exists() else sys.executable
    from playwright.sync_api import sync_playwright

    load0 = os.getloadavg()
    with StreamlitServer(root / "app.py", cwd=root, python=py) as srv, sync_playwright() as pw:
        browser = pw.chromium.launch(**launch_kwargs())
        ctx = browser.new_context(viewport={"width": 1280, "height": 900})
        ctx.add_init_script(INSTRUMENT_JS)
        page = ctx.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(f"{srv.url}/boolean_concepts?mode=adversary&an={n}")
        page.locator(".st-key-boolean_adv_lab1 button").first.wait_for(timeout=120_000)
        page.wait_for_function("() => document.querySelector('[data-test-script-state]')"
                               "?.dataset.testScriptState === 'notRunning'", timeout=60_000)
        page.wait_for_timeout(1000)   # the page's first load settles (a viewer, if any, drawn)
        ms = play(page, moves, n)
        print(f"chromium {browser.version}; root {root}; load average {load0[0]:.1f} → {os.getloadavg()[0]:.1f} "
              f"on {os.cpu_count()} cores; first move {ms[0]:.0f} ms")
        if errors:
            print("page errors:", errors)
        browser.close()
    print(f"game: moves={len(ms)} median_ms={statistics.median(ms):.0f} max_ms={max(ms):.0f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
