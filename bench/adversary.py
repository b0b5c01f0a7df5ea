#!/usr/bin/env python3
"""What a move of "Beat the bound" costs in a real (headless) Chromium: the click → the board at the new round.

    .venv/bin/python bench/adversary.py            # every game below, all their moves; ~1 minute
    .venv/bin/python bench/adversary.py --smoke    # one game, 2 moves: shows the bench works (CI), no measurement

Each game opens its page with ``?mode=adversary`` (app.py, Debian's Chromium driven by Playwright,
tests/e2e/stbrowser.py) at a projector's 1100×800 and plays its moves at a human pace: a move is timed from
the click event (capture phase, in the page: stbrowser's probe) to the first animation frame after the step
viewer shows it — ``data-position`` = the move's number and the caption starting "Round t of t" — then a task
(after that frame's paint); the next move waits until the server has answered (the run's board drawn, the
script idle). The Perceptron's moves are clicks on the board at the point's place (the label switch set
first, not timed); Winnow's and the experts' moves are set with the page's checkboxes (not timed), then the
label or outcome button is timed; the Halving page's moves are an instance chosen in the move panel's list (typed
into it, not timed), then the label button (timed). Every game's move is drawn in the page (viewer_game_plane.js,
viewer_game_bars.js) before the server's run follows. The last line: ``adversary: games=N moves=M median_ms=…
max_ms=…``.
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "e2e"))
sys.path.insert(0, str(ROOT / "bench"))
sys.path.insert(0, str(ROOT))
from stbrowser import INSTRUMENT_JS, StreamlitServer, launch_kwargs  # noqa: E402
from ui_latency import WAIT_COND_JS  # noqa: E402

from olc_core.games import experts as E  # noqa: E402
from olc_core.games import halving as Hg  # noqa: E402
from olc_core.games import winnow as Wn  # noqa: E402
from olc_core.games.perceptron import Move, PerceptronGame  # noqa: E402

#: the Perceptron games: (query, moves); the moves admissible in their game (checked before the browser starts)
PERCEPTRON = [
    ("ws=36.87&gamma=0.2&R=1", [Move(16, 60, 1), Move(60, -20, 1), Move(48, 36, 1), Move(-10, -50, -1),
                                 Move(50, -10, 1), Move(-30, -40, -1)]),
    ("ws=0.00&gamma=0.1&R=1", [Move(20, 50, 1), Move(25, -50, 1), Move(-20, 45, -1), Move(-25, -45, -1),
                               Move(40, 10, 1), Move(-35, 5, -1), Move(15, -30, 1), Move(-15, 30, -1)]),
    ("ws=118.07&gamma=0.25&R=1.5", [Move(-40, 60, 1), Move(60, -60, -1), Move(-90, 20, 1), Move(30, -70, -1)]),
]

#: Winnow and experts games: (query, moves), the computer's first moves of each game (admissible); their moves are
#: set with the page's checkboxes (fragment reruns, not timed), then the label / outcome button (timed)
WINNOW = [("aN=12&ak=2&abeta=1&aseed=3", list(Wn.computer_game(Wn.WinnowGame.make(12, 2, 1.0, 3)).moves[:6]))]
EXPERTS = [("ealg=weighted_majority&eN=4&erate=0.5&ebudget=1",
            list(E.computer_game(E.ExpertsGame.make("weighted_majority", 4, 0.5, 1)).moves[:5])),
           ("ealg=randomized_weighted_majority&eN=4&erate=0.5&ebudget=1",
            list(E.computer_game(E.ExpertsGame.make("randomized_weighted_majority", 4, 0.5, 1)).moves[:5])),
           ("ealg=halving&eN=8", list(E.computer_game(E.ExpertsGame.make("halving", 8)).moves[:3]))]

#: the Halving page's games: (query, moves), the computer's game on each class (every move a mistake), then two
#: instances Halving gets right (with the target's labels)
def _halving(cls: str, K: int, n: int, seed: int) -> tuple[str, list[Hg.HMove]]:
    g = Hg.HalvingGame.make(cls, K, n, seed)
    s = Hg.computer_game(g)
    right = [j for j in range(len(g.plus)) if j not in s.mistake_instances][:2]
    return (f"hcls={cls}&hK={K}&hn={n}&hseed={seed}", list(s.moves) + [Hg.HMove(j, g.target_label(j)) for j in right])


HALVING = [_halving("thresholds", 16, 4, 0), _halving("halfplanes", 16, 4, 1), _halving("conj", 16, 4, 2),
           _halving("disj", 16, 5, 3)]

#: watch, from before the click, for the first frame that shows move t (position t, caption "Round t of t:"): the
#: time of that frame's paint (a rAF, then a task) and whether the viewer still held the previous run (drawn by the
#: page) or the server's new one; armed in the page before the click, so that a Playwright call returning late on a
#: loaded machine cannot delay (or hide) the observation
ARM = r"""(args) => {
  window.__olcDrawn = null;
  const shown = () => { const v = document.querySelector('.olc-viewer');
    return v && v.dataset.position === String(args.t) &&
           v.querySelector('.olc-caption').textContent.startsWith(`Round ${args.t} of ${args.t}:`); };
  let seen = false;
  const done = () => {
    if (seen) return;
    seen = true;
    mo.disconnect();
    const by = document.querySelector('.olc-viewer').dataset.runId === args.before ? "page" : "server";
    requestAnimationFrame(() => setTimeout(() => { window.__olcDrawn = {painted: performance.now(), by}; }, 0));
  };
  const mo = new MutationObserver(() => { if (shown()) done(); });
  mo.observe(document.documentElement, {subtree: true, childList: true, attributes: true, characterData: true});
  const tick = () => { if (seen) return; if (shown()) done(); else requestAnimationFrame(tick); };
  requestAnimationFrame(tick);
}"""

SERVED = r"""(() => {
  const v = document.querySelector('.olc-viewer');
  const app = document.querySelector('[data-test-script-state]');
  return v && v.dataset.ready === 'true' && v.dataset.runId !== args.before &&
         v.querySelector('.olc-caption').textContent.startsWith(`Round ${args.t} of ${args.t}:`) &&
         app && app.dataset.testScriptState === 'notRunning';
})()"""

AT = """([x, y]) => {
  const gd = document.querySelector('.olc-plot[data-figure-id=main]');
  const fl = gd._fullLayout, b = gd.getBoundingClientRect();
  return [b.left + fl.xaxis._offset + fl.xaxis.l2p(x), b.top + fl.yaxis._offset + fl.yaxis.l2p(y)];
}"""


#: who drew each timed frame ("page" or "server"), in order
DRAWN_BY: list[str] = []


def wait(page, cond: str, args: dict, timeout_ms: int = 60_000) -> dict:
    return page.evaluate(WAIT_COND_JS, {"cond": cond, "args": args, "timeout_ms": timeout_ms})


def drawn(page) -> tuple[float, str]:
    """The armed watch's result: ms from the click (the probe's capture-phase time) to the frame that showed the
    move, and who drew it ("page" or "server")."""
    page.wait_for_function("() => window.__olcDrawn !== null", timeout=60_000)
    r = page.evaluate("() => ({...window.__olcDrawn, click: (window.__stProbe.actions.filter(a => a[1] === 'click')"
                      ".pop() || [null])[0]})")
    return r["painted"] - r["click"], r["by"]


def idle(page) -> None:
    page.wait_for_function("() => document.querySelector('[data-test-script-state]')?.dataset.testScriptState"
                           " === 'notRunning'", timeout=60_000)


def play_perceptron(page, url: str, query: str, moves: list[Move]) -> list[float]:
    game = PerceptronGame.make(*(dict(kv.split("=") for kv in query.split("&"))[k] for k in ("ws", "gamma", "R")))
    game.play(moves)      # every move admissible (with room around it): a refused one would never be drawn
    page.goto(f"{url}/perceptron?mode=adversary&{query}")
    page.wait_for_selector('.olc-viewer[data-ready="true"]', timeout=120_000)
    idle(page)
    page.wait_for_timeout(800)
    out = []
    for t, m in enumerate(moves, start=1):
        radio = page.locator(".st-key-perceptron_adversary_label").get_by_text("+1" if m.label > 0 else "−1",
                                                                                exact=True)
        if not page.locator(".st-key-perceptron_adversary_label input[type=radio]").nth(
                0 if m.label > 0 else 1).is_checked():
            radio.click()
            idle(page)
        page.locator(".olc-plot[data-figure-id=main]").scroll_into_view_if_needed()
        x, y = page.evaluate(AT, [m.i / 64, m.j / 64])   # (a pixel may be wider than the grid: a neighbour's point)
        before = page.evaluate("() => document.querySelector('.olc-viewer').dataset.runId")
        page.evaluate(ARM, {"t": t, "before": before})
        page.mouse.click(x, y)
        ms, by = drawn(page)
        out.append(ms)
        DRAWN_BY.append(by)
        print(f"perceptron {query} move {t:2d} ({m.i}, {m.j}, {m.label:+d}): {ms:7.1f} ms (drawn by the {by})",
              flush=True)
        wait(page, SERVED, {"before": before, "t": t})
        idle(page)
        page.wait_for_timeout(300)
    return out


def set_boxes(page, key: str, want: list[bool]) -> None:
    for i, on in enumerate(want):
        box = page.locator(f".st-key-{key}{i} input[type=checkbox]")
        if box.is_checked() != on:
            page.locator(f".st-key-{key}{i} label").first.click()
            page.wait_for_function("([k, on]) => { const e = document.querySelector(`.st-key-${k} input`); "
                                   "return e && e.checked === on; }", arg=[f"{key}{i}", on], timeout=60_000)
            idle(page)


def play_buttons(page, url: str, path: str, query: str, steps: list[tuple[list[bool], str]], name: str) -> list[float]:
    """A game whose moves are checkboxes (``…bit{i}`` / ``…adv{i}``) and a button: each step (boxes, button key)."""
    page.goto(f"{url}/{path}?mode=adversary&{query}")
    page.locator(f".st-key-{steps[0][1]} button").wait_for(timeout=120_000)
    idle(page)
    out = []
    for t, (boxes, button) in enumerate(steps, start=1):
        prefix = "winnow_adversary_bit" if path == "winnow" else "experts_adversary_adv"
        set_boxes(page, prefix, boxes)
        out.append(timed_press(page, button, t, f"{name} {query} move {t:2d}"))
    return out


def timed_press(page, button: str, t: int, name: str) -> float:
    """Move t, at the press of the page's button ``button`` (a key): ms from the click to the frame that shows it
    (who drew it recorded); then the server's answer, waited for."""
    page.wait_for_timeout(150)
    before = page.evaluate("() => (document.querySelector('.olc-viewer') || {dataset: {}}).dataset.runId || ''")
    page.evaluate(ARM, {"t": t, "before": before})
    page.locator(f".st-key-{button} button").click()
    ms, by = drawn(page)
    DRAWN_BY.append(by)
    print(f"{name}: {ms:7.1f} ms (drawn by the {by})", flush=True)
    wait(page, SERVED, {"before": before, "t": t})
    idle(page)
    page.wait_for_timeout(300)
    return ms


def play_halving(page, url: str, query: str, moves: list[Hg.HMove]) -> list[float]:
    """A Halving game: each move's instance typed into the move panel's list and chosen (not timed), then its label
    button (timed)."""
    q = dict(kv.split("=") for kv in query.split("&"))
    game = Hg.HalvingGame.make(q["hcls"], int(q["hK"]), int(q["hn"]), int(q["hseed"]))
    game.play(moves)      # every move admissible: a refused one would never be drawn
    page.goto(f"{url}/halving?mode=adversary&{query}")
    page.wait_for_selector('.olc-viewer[data-ready="true"]', timeout=120_000)
    idle(page)
    out = []
    for t, m in enumerate(moves, start=1):
        text = game.instance_text(m.j) + ":"
        box = page.locator(".st-key-halving_adversary_inst input[role=combobox]")
        box.click()
        box.fill(text)
        page.get_by_role("option").filter(has_text=text).first.click()
        page.wait_for_function("(t) => document.querySelector('.st-key-halving_adversary_inst input').value"
                               ".startsWith(t)", arg=text, timeout=60_000)
        idle(page)
        out.append(timed_press(page, f"halving_adversary_lab{1 if m.label > 0 else 0}", t,
                               f"halving {query} move {t:2d} ({Hg.encode([m])})"))
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--smoke", action="store_true", help="one game, 2 moves: shows the bench works")
    args = ap.parse_args()
    games = [(q, m[:2]) for q, m in PERCEPTRON[:1]] if args.smoke else PERCEPTRON
    winnow = [] if args.smoke else [(q, [([bool(b) for b in m.x], f"winnow_adversary_lab{m.label}") for m in ms])
                                    for q, ms in WINNOW]
    experts = [] if args.smoke else [(q, [([a > 0 for a in m.advice], f"experts_adversary_out{1 if m.outcome > 0 else 0}")
                                          for m in ms]) for q, ms in EXPERTS]
    halving = [] if args.smoke else HALVING
    py = str(ROOT / ".venv" / "bin" / "python") if (ROOT / ".venv" / "bin" / "python").exists() else sys.executable
    from playwright.sync_api import sync_playwright

    load0 = os.getloadavg()
    ms: list[float] = []
    per_game: list[tuple[str, list[float]]] = []
    with StreamlitServer(ROOT / "app.py", cwd=ROOT, python=py) as srv, sync_playwright() as pw:
        browser = pw.chromium.launch(**launch_kwargs())
        ctx = browser.new_context(viewport={"width": 1100, "height": 800})
        ctx.add_init_script(INSTRUMENT_JS)
        page = ctx.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        for query, moves in games:
            per_game.append((f"perceptron {query}", play_perceptron(page, srv.url, query, moves)))
        for query, steps in winnow:
            per_game.append((f"winnow {query}", play_buttons(page, srv.url, "winnow", query, steps, "winnow")))
        for query, steps in experts:
            per_game.append((f"experts {query}", play_buttons(page, srv.url, "experts", query, steps, "experts")))
        for query, moves in halving:
            per_game.append((f"halving {query}", play_halving(page, srv.url, query, moves)))
        for name, got in per_game:
            ms += got
            print(f"{name}: median {statistics.median(got):.0f} ms, max {max(got):.0f} ms")
        print(f"drawn by the page: {DRAWN_BY.count('page')} of {len(DRAWN_BY)} moves")
        print(f"chromium {browser.version}; load average {load0[0]:.1f} → {os.getloadavg()[0]:.1f} on "
              f"{os.cpu_count()} cores")
        if errors:
            print("page errors:", errors)
        browser.close()
    print(f"adversary: games={len(games) + len(winnow) + len(experts) + len(halving)} moves={len(ms)} median_ms={statistics.median(ms):.0f} max_ms={max(ms):.0f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
