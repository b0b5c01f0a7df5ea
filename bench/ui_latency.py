#!/usr/bin/env python3
"""What a step costs in a real (headless) Chromium: a lesson page's step viewer against Streamlit's floor.

    .venv/bin/python bench/ui_latency.py                  # the Perceptron page; ~2-3 minutes on 2 cores
    .venv/bin/python bench/ui_latency.py --page winnow    # the Winnow page at N = T = 10^4
    .venv/bin/python bench/ui_latency.py --clicks 60 --json bench-out.json

Measured, with Debian's Chromium driven by Playwright (see tests/e2e/stbrowser.py):

* floor: bench/apps/floor_app.py, one button and one small plotly chart redrawn per
  click (a server rerun + st.plotly_chart). Click -> the new chart drawn.
* viewer, ``--page perceptron`` (default): the Perceptron lesson page (app.py, /perceptron;
  ``--app demo``: the test demo tests/e2e/apps/viewer_demo.py) at T = 10^4 on noisy data
  (2071 mistakes). "Next mistake" click -> caption, main chart (gd.data of the
  hyperplane), sandwich marker and ledger all show the new state.
* viewer, ``--page winnow``: the Winnow lesson page (app.py,
  /winnow?N=10000&k=3&T=10000: seed 0, beta = 1, no noise). "Next mistake" click ->
  caption, ledger, the bound sandwich's "M now" marker at the new mistake count and the
  weights chart's bars (relevant + largest others) equal to the run's exponents at the
  new state (computed here by olc_ui.lessons.winnow.view.winnow_spec, as the page does). Also
  prints the spec's JSON size and build time (bench/winnow_spec_size.py: other sources).
* Both: from the click event (capture phase, in the page) to the first animation frame
  after the DOM reached the new state, then a task (i.e. after that frame's paint).
  Clicks are at a human pace: the next one waits until the previous one's server
  rerun (the floor's, or the viewer's debounced position report) has finished.
  Rounds of 10 clicks alternate between the two apps.
* play: frames drawn per second (position changes, one per rendered frame) while
  playing at 200 rounds/s, from t = 0 and from t = 8000.
* first load: navigation -> charts drawn (floor: the plotly chart's SVG; viewer: all
  figures and the ledger drawn, and the point canvas on the Perceptron page), fresh
  browser context (empty cache) each time, server warmed by one throwaway load, loads
  alternating. The viewer's own timings (spec received, libraries loaded, figures
  plotted; ms since navigation) are printed as a breakdown. A lesson page sends what lies
  under its viewer once the viewer has drawn (olc_ui/shared/page.py, step_view): the time
  until the whole page is drawn (its download buttons there) is printed too, beside the charts'.

Prints a table with the ratios to the floor and the targets (click median <= 1.5x,
p95 <= 2x, play >= 20 fps, first load <= 1.5x), and says which are met. Starts and
stops its own servers. The last line sums it up:
``ui: first_load_ratio=… next_mistake_ratio=… next_mistake_p95_ratio=… play_fps=…`` (the viewer's
over the floor's; the slower play). ``--smoke``: a tiny run (T = 2000, 10 clicks, one load, 1 s of
play) that shows the bench still works (tests/bench/test_bench_smoke.py runs it), not a measurement.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "e2e"))
sys.path.insert(0, str(ROOT))
from stbrowser import INSTRUMENT_JS, StreamlitServer, launch_kwargs, mark, percentile, wait_for_rerun  # noqa: E402

FLOOR_APP = ROOT / "bench" / "apps" / "floor_app.py"
VIEWER_APP = ROOT / "tests" / "e2e" / "apps" / "viewer_demo.py"

#: Resolves when ``cond`` (a JS expression) holds, checked on every DOM mutation and
#: every frame; returns the time it first held and the time after the next frame's paint.
WAIT_COND_JS = r"""
async ({cond, args, timeout_ms}) => {
  const check = new Function('args', `return (${cond});`);
  const t0 = performance.now();
  const ok = () => { try { return !!check(args); } catch (e) { return false; } };
  let tDone = null;
  await new Promise((resolve, reject) => {
    const finish = () => { tDone = performance.now(); mo.disconnect(); resolve(); };
    const mo = new MutationObserver(() => { if (tDone === null && ok()) finish(); });
    if (ok()) { tDone = performance.now(); resolve(); return; }
    mo.observe(document.documentElement, {subtree: true, childList: true, attributes: true, characterData: true});
    const tick = () => {
      if (tDone !== null) return;
      if (ok()) finish();
      else if (performance.now() - t0 > timeout_ms) { mo.disconnect(); reject(new Error('timeout: ' + cond)); }
      else requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });
  await new Promise(r => requestAnimationFrame(() => setTimeout(r, 0)));
  const clicks = (window.__stProbe ? window.__stProbe.actions : []).filter(a => a[1] === 'click');
  return {done: tDone, painted: performance.now(), click: clicks.length ? clicks[clicks.length - 1][0] : null};
}
"""

FLOOR_DRAWN = ("[...document.querySelectorAll('[data-testid=stPlotlyChart] .gtitle')]"
               ".some(e => e.textContent === args.title)")

#: Perceptron page: the dynamic traces that must show the new state, found by figure id and trace name (and
#: mode, when a name is shared), never by position in gd.data (the traces move as the figures grow):
#: ``now`` is the sandwich's trace whose x is the current mistake count M
NAMES = {
    "demo": {"hyper": "w·x = 0", "update": "yₜxₜ", "sandwich": "sandwich", "now": ["Mγ", "markers"]},
    "lesson": {"hyper": "w·x = 0 (the learner)", "update": "yₜ·xₜ (the update)", "sandwich": "sandwich_A",
               "now": ["M now", "lines"]},
}

MAIN_SNAPSHOT = r"""(a) => {
  const d = document.querySelector('.olc-plot[data-figure-id=main]').data;
  const h = d.find(t => t.name === a.hyper), u = d.find(t => t.name === a.update);
  return JSON.stringify([h.x, h.y, u.x, u.y]);
}"""

VIEWER_STATE = r"""(() => {
  const v = document.querySelector('.olc-viewer');
  if (!v || v.dataset.ready !== 'true' || v.dataset.position !== String(args.p)) return false;
  if (!v.querySelector('.olc-caption').textContent.startsWith(`Round ${args.p} of`)) return false;
  const d = v.querySelector('.olc-plot[data-figure-id=main]').data;
  const h = d.find(t => t.name === args.hyper), u = d.find(t => t.name === args.update);
  const sw = v.querySelector(`.olc-plot[data-figure-id=${args.sandwich}]`).data;
  const now = sw.find(t => t.name === args.now[0] && (t.mode || 'lines+markers') === args.now[1]);
  if (JSON.stringify([h.x, h.y, u.x, u.y]) === args.main_before) return false;
  if (!now || !now.x || now.x[0] !== args.k) return false;
  return v.querySelector('.olc-ledger').textContent !== args.ledger_before;
})()"""

#: The Perceptron subject's named traces that are missing from the page (checked once it is drawn: a renamed
#: trace is reported at once instead of as a timeout on every click)
MISSING_TRACES = r"""(a) => {
  const fig = (id) => { const e = document.querySelector(`.olc-plot[data-figure-id=${id}]`); return e && e.data; };
  const out = [], main = fig('main'), sw = fig(a.sandwich);
  if (!main) out.push('figure main'); if (!sw) out.push(`figure ${a.sandwich}`);
  for (const n of [a.hyper, a.update]) if (main && !main.some(t => t.name === n)) out.push(`main: ${n}`);
  if (sw && !sw.some(t => t.name === a.now[0] && (t.mode || 'lines+markers') === a.now[1]))
    out.push(`${a.sandwich}: ${a.now[0]} (${a.now[1]})`);
  return out;
}"""

VIEWER_READY = ("(() => { const v = document.querySelector('.olc-viewer');"
                " return !!v && v.dataset.ready === 'true' && !!v.querySelector('canvas.olc-points'); })()")

#: A lesson page drawn whole: its download buttons, the last thing on it, are there (after the panels)
LESSON_WHOLE = "!!document.querySelector('[data-testid=stMain] [data-testid=stDownloadButton]')"

#: Winnow page: all three figures drawn and the ledger typeset (no point canvas on this page)
WINNOW_READY = r"""(() => {
  const v = document.querySelector('.olc-viewer');
  if (!v || v.dataset.ready !== 'true' || !v.querySelector('.olc-ledger .katex')) return false;
  return ['weights', 'potential', 'bound'].every(id => !!v.querySelector(`.olc-plot[data-figure-id=${id}] .main-svg`));
})()"""

#: Winnow page, after "Next mistake" to round p (state k): caption, the bound sandwich's
#: "M now" marker at k, the weights chart's bars = the run's state k, a new ledger
WINNOW_STATE = r"""(() => {
  const v = document.querySelector('.olc-viewer');
  if (!v || v.dataset.ready !== 'true' || v.dataset.position !== String(args.p)) return false;
  if (!v.querySelector('.olc-caption').textContent.startsWith(`Round ${args.p} of`)) return false;
  const fig = (id) => v.querySelector(`.olc-plot[data-figure-id=${id}]`).data;
  const m = fig('bound').find(t => t.name === 'M now');
  if (!m || m.x.length !== 1 || m.x[0] !== args.k) return false;
  const y = fig('weights')[0].y;
  if (y.length !== args.bars.length || !args.bars.every((b, i) => y[i] === b)) return false;
  return v.querySelector('.olc-ledger').textContent !== args.ledger_before;
})()"""

FLOOR_READY = ("!![...document.querySelectorAll('[data-testid=stPlotlyChart] .gtitle')]"
               ".find(e => e.textContent === 'click 0')")

PLAY_JS = r"""
async (ms) => {
  const v = document.querySelector('.olc-viewer');
  let changes = 0;
  const mo = new MutationObserver(recs => { for (const r of recs) if (r.attributeName === 'data-position') changes++; });
  mo.observe(v, {attributes: true, attributeFilter: ['data-position']});
  const frames = [];
  let on = true;
  const tick = (ts) => { frames.push(ts); if (on) requestAnimationFrame(tick); };
  requestAnimationFrame(tick);
  const p0 = +v.dataset.position, t0 = performance.now();
  await new Promise(r => setTimeout(r, ms));
  on = false; mo.disconnect();
  const dt = (performance.now() - t0) / 1000, p1 = +v.dataset.position;
  const iv = frames.slice(1).map((t, i) => t - frames[i]).sort((a, b) => a - b);
  const q = (x) => iv.length ? iv[Math.min(iv.length - 1, Math.floor(x * iv.length))] : null;
  return {fps: changes / dt, rounds_per_s: (p1 - p0) / dt, p0, p1, frame_ms_median: q(0.5), frame_ms_p95: q(0.95),
          frames_over_50ms: iv.filter(x => x > 50).length, frames: iv.length};
}
"""


def wait_cond(page, cond: str, args: dict | None = None, timeout_ms: int = 60_000) -> dict:
    try:
        return page.evaluate(WAIT_COND_JS, {"cond": cond, "args": args or {}, "timeout_ms": timeout_ms})
    except Exception:
        print("state at timeout:", page.evaluate("""() => { const v = document.querySelector('.olc-viewer');
            return v ? {pos: v.dataset.position, ready: v.dataset.ready,
                        caption: v.querySelector('.olc-caption').textContent} : document.title; }"""), args)
        raise


def new_page(browser, url: str, *, viewport=(1280, 900)):
    ctx = browser.new_context(viewport={"width": viewport[0], "height": viewport[1]})
    ctx.add_init_script(INSTRUMENT_JS)
    page = ctx.new_page()
    errors: list[str] = []
    import re
    noise = re.compile(r"/_stcore/(health|host-config)")  # Streamlit probes these on sub-page URLs: harmless 404s

    def on_console(m):
        if m.type == "error" and not noise.search((m.location or {}).get("url", "")):
            errors.append(m.text)
    page.on("console", on_console)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.errors = errors
    page.goto(url)
    return page


def stats(xs: list[float]) -> dict:
    return {"n": len(xs), "median": statistics.median(xs) if xs else None, "p95": percentile(xs, 95),
            "min": min(xs) if xs else None, "max": max(xs) if xs else None}


class Subject:
    """The page under test: where it is, when it is drawn, and what "the new state" after a click is."""

    def __init__(self, *, label: str, app_path: Path, query: str, ready: str, mistakes, info: dict,
                 whole: str | None = None):
        self.label, self.app_path, self.query, self.ready, self.whole = label, app_path, query, ready, whole
        self.mistakes, self.info = mistakes, info

    def snapshot(self, page) -> dict:
        """What must change on the click (read just before it)."""
        return {"ledger_before": page.evaluate("() => document.querySelector('.olc-ledger').textContent")}

    def state(self, target: int, k: int, before: dict) -> tuple[str, dict]:
        """The JS condition (and its args) for: the viewer shows round ``target``, state ``k``."""
        raise NotImplementedError

    def check(self, page) -> None:
        """Raise if what :meth:`state` looks for is not on the drawn page."""


class PerceptronSubject(Subject):
    def __init__(self, args):
        import olc_core
        if args.data == "noisy":
            s = olc_core.streams.noisy(T=args.T, d=2, gamma=0.05, noise=0.1, seed=0)
        else:
            s = olc_core.streams.separable(T=args.T, d=2, gamma=0.05, seed=0)
        mistakes = olc_core.run("perceptron", s.X, s.y, comparator=s.comparator).mistakes
        self.names = NAMES[args.app]
        if args.app == "lesson":
            app, query = ROOT / "app.py", (f"perceptron?T={args.T}&gamma=0.05&seed=0"
                                           f"&noise={0.1 if args.data == 'noisy' else 0}")
        else:
            app, query = VIEWER_APP, f"?T={args.T}&data={args.data}"
        demo = " demo" if args.app == "demo" else ""
        super().__init__(label=f"perceptron{demo} T={args.T} {args.data}", app_path=app, query=query,
                         ready=VIEWER_READY, mistakes=mistakes, info={"T": args.T, "data": args.data, "mistakes": int(len(mistakes))},
                         whole=LESSON_WHOLE if args.app == "lesson" else None)

    def snapshot(self, page) -> dict:
        return {**super().snapshot(page), "main_before": page.evaluate(MAIN_SNAPSHOT, self.names)}

    def check(self, page) -> None:
        missing = page.evaluate(MISSING_TRACES, self.names)
        if missing:
            raise SystemExit(f"ui_latency: the page has no trace {', '.join(missing)} (bench/ui_latency.py NAMES)")

    def state(self, target, k, before):
        return VIEWER_STATE, {"p": target, "k": k, **before, **self.names}


class WinnowSubject(Subject):
    def __init__(self, args):
        import time

        import numpy as np

        import olc_core
        from olc_ui.lessons.winnow.view import winnow_spec
        t0 = time.perf_counter()
        s = olc_core.streams.sparse_disjunction(T=args.T, N=args.N, k=args.k, seed=0, noise=0.0, dtype=np.uint8)
        t1 = time.perf_counter()
        tr = olc_core.run("winnow", s.X, s.y, beta=1.0, comparator=s.comparator)  # the page's defaults
        t2 = time.perf_counter()
        spec = winnow_spec(tr, s.X, s.y, run_id="bench")
        t3 = time.perf_counter()
        size = len(json.dumps(spec, allow_nan=False))
        self.bars = spec["arrays"]["wb_y"]  # per state: the weights chart's bar heights
        info = {"T": args.T, "N": args.N, "k": args.k, "mistakes": int(tr.n_mistakes), "stream_s": t1 - t0,
                "run_s": t2 - t1, "spec_s": t3 - t2, "spec_json_bytes": size,
                "bars_per_state": len(self.bars[0])}
        super().__init__(label=f"winnow N={args.N} T={args.T}", app_path=ROOT / "app.py",
                         query=f"winnow?N={args.N}&k={args.k}&T={args.T}", ready=WINNOW_READY,
                         mistakes=np.asarray(tr.mistakes), info=info, whole=LESSON_WHOLE)

    def state(self, target, k, before):
        return WINNOW_STATE, {"p": target, "k": k, "bars": self.bars[k], **before}


def measure_loads(browser, urls: dict[str, tuple[str, str]], n: int, whole: str | None = None) -> dict:
    """First loads, alternating, each in a fresh context, after one warm-up load of each. ``whole``: for the
    viewer, a condition met once the whole page is drawn (a lesson page sends what lies under its viewer after the
    viewer has drawn: olc_ui/shared/page.py, step_view); its time is reported beside the charts'."""
    for url, ready in urls.values():
        p = new_page(browser, url)
        wait_cond(p, ready, timeout_ms=180_000)
        p.context.close()
    loads = {name: [] for name in urls}
    wholes = []
    parts = []
    busy = []  # the machine's 1-minute load average before each round of loads (other processes share it)
    for _ in range(n):
        busy.append(round(os.getloadavg()[0], 1))
        for name, (url, ready) in urls.items():
            p = new_page(browser, url)
            r = wait_cond(p, ready, timeout_ms=120_000)
            loads[name].append(r["painted"])  # ms since navigation start
            if name == "viewer":
                parts.append(p.evaluate("() => document.querySelector('.olc-viewer').olcViewer.timing"))
                if whole:
                    wholes.append(wait_cond(p, whole, timeout_ms=120_000)["painted"])
            p.context.close()
    print("first loads (ms):", {k: [round(x) for x in v] for k, v in loads.items()}, "load average before each:", busy,
          flush=True)
    out = {k: stats(v) for k, v in loads.items()}
    if wholes:
        print("viewer page, whole page drawn (ms):", [round(x) for x in wholes], flush=True)
        out["viewer_whole"] = stats(wholes)
    out["viewer_timing"] = {key: statistics.median(t[key] for t in parts) for key in parts[0]} if parts else {}
    return out


def measure_clicks(floor, viewer, subject: Subject, clicks: int) -> dict:
    """Rounds of 10 clicks, alternating: floor "Redraw", viewer "Next mistake"."""
    import numpy as np
    mistakes = subject.mistakes
    lat = {"floor": [], "viewer": []}
    report_rerun = []
    n_floor = p = 0
    for _ in range(max(1, clicks // 10)):
        floor.bring_to_front()
        for _ in range(10):
            n_floor += 1
            since = mark(floor)
            floor.get_by_role("button", name="Redraw").click()
            r = wait_cond(floor, FLOOR_DRAWN, {"title": f"click {n_floor}"})
            lat["floor"].append(r["painted"] - r["click"])
            wait_for_rerun(floor, since, quiet_ms=100)
        viewer.bring_to_front()
        for _ in range(10):
            j = int(np.searchsorted(mistakes, p, side="left"))  # next mistake round >= p (0-based)
            if j >= len(mistakes):
                raise SystemExit(f"only {len(mistakes)} mistakes: ask for fewer clicks")
            target = int(mistakes[j]) + 1
            k = int(np.searchsorted(mistakes, target - 1, side="right"))
            cond, cargs = subject.state(target, k, subject.snapshot(viewer))
            since = mark(viewer)
            viewer.get_by_role("button", name="Next mistake", exact=True).click()
            r = wait_cond(viewer, cond, cargs)
            lat["viewer"].append(r["painted"] - r["click"])
            # the debounced report to Python: one rerun once stepping paused
            w = wait_for_rerun(viewer, since, run_start_ms=3000, quiet_ms=100)
            if w.get("t_done") and w.get("t_run_start"):
                report_rerun.append(w["t_done"] - w["t_run_start"])
            p = target
    print("click latencies (ms):", {k: [round(x) for x in v] for k, v in lat.items()}, flush=True)
    return {"click_ms": {k: stats(v) for k, v in lat.items()}, "report_rerun_ms": stats(report_rerun)}


def measure_play(browser, viewer_url: str, subject: Subject, T: int, seconds: float, errors: list) -> dict:
    plays = {}
    for start in (0, 8000):
        if start > T - 1000:
            continue
        pg = new_page(browser, viewer_url + f"&t={start}")
        wait_cond(pg, subject.ready, timeout_ms=120_000)
        pg.get_by_role("combobox", name="Speed").select_option("200")
        pg.get_by_role("button", name="Play", exact=True).click()
        plays[f"from_t{start}"] = pg.evaluate(PLAY_JS, int(seconds * 1000))
        pg.get_by_role("button", name="Pause", exact=True).click()
        errors.extend(pg.errors)
        pg.context.close()
    return plays


def _verdict(ok: bool) -> str:
    return "met" if ok else "NOT met"


def report(out: dict, subject: Subject) -> None:
    c, lo = out["click_ms"], out["first_load_ms"]
    rows = [
        ("click -> redrawn, median (ms)", c["floor"]["median"], c["viewer"]["median"], 1.5),
        ("click -> redrawn, p95 (ms)", c["floor"]["p95"], c["viewer"]["p95"], 2.0),
        ("first load -> charts drawn, median (ms)", lo["floor"]["median"], lo["viewer"]["median"], 1.5),
    ]
    print()
    print(f"| measure | floor | {subject.label} | ratio | target | met? |")
    print("|---|---|---|---|---|---|")
    for name, f, v, target in rows:
        print(f"| {name} | {f:.0f} | {v:.0f} | {v / f:.2f}x | <= {target:g}x | {_verdict(v / f <= target)} |")
    if "viewer_whole" in lo:
        w = lo["viewer_whole"]["median"]
        print(f"| first load -> whole page drawn (under the viewer too), median (ms) | {lo['floor']['median']:.0f} "
              f"| {w:.0f} | {w / lo['floor']['median']:.2f}x | - | - |")
    for key, r in out["play"].items():
        print(f"| play at 200 rounds/s, {key.replace('_', ' ')}: frames/s | - | {r['fps']:.1f} "
              f"(frame median {r['frame_ms_median']:.1f} ms, p95 {r['frame_ms_p95']:.1f} ms) | - | >= 20 "
              f"| {_verdict(r['fps'] >= 20)} |")
    rr = out["report_rerun_ms"]
    if rr["n"]:
        print(f"\nviewer's position report (one rerun when stepping pauses, spec re-sent): "
              f"median {rr['median']:.0f} ms, p95 {rr['p95']:.0f} ms (off the click path)")
    vt = lo.get("viewer_timing") or {}
    if vt:
        print("viewer's first load, medians in ms since navigation: " +
              ", ".join(f"{k} {v:.0f}" for k, v in vt.items()) +
              " (build: spec received; libs: plotly + KaTeX loaded; plotted: every figure drawn)")
    i = subject.info
    if "spec_json_bytes" in i:
        print(f"winnow N={i['N']} T={i['T']} k={i['k']}: M = {i['mistakes']}; stream {i['stream_s']:.2f} s, "
              f"run {i['run_s']:.2f} s, spec {i['spec_s']:.2f} s, spec JSON {i['spec_json_bytes'] / 1e3:.0f} kB, "
              f"{i['bars_per_state']} bars per state")
    print(f"machine: {out['cpus']} CPUs, load average {out['loadavg_start'][0]:.2f} at the start, "
          f"{out['loadavg_end'][0]:.2f} at the end (other processes share it: numbers vary)")
    if out.get("console_errors"):
        print("console errors:", out["console_errors"])
    fps = min((r["fps"] for r in out["play"].values()), default=float("nan"))
    print(f"ui: first_load_ratio={lo['viewer']['median'] / lo['floor']['median']:.2f} "
          f"next_mistake_ratio={c['viewer']['median'] / c['floor']['median']:.2f} "
          f"next_mistake_p95_ratio={c['viewer']['p95'] / c['floor']['p95']:.2f} play_fps={fps:.1f}")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--page", default="perceptron", choices=["perceptron", "winnow"],
                    help="the lesson page under test (default perceptron)")
    ap.add_argument("--clicks", type=int, default=30, help="clicks per app (default 30, in rounds of 10)")
    ap.add_argument("--loads", type=int, default=3, help="first loads per app (default 3)")
    ap.add_argument("--play-seconds", type=float, default=4.0)
    ap.add_argument("--T", type=int, default=10_000)
    ap.add_argument("--data", default="noisy", choices=["noisy", "separable"], help="perceptron page only")
    ap.add_argument("--app", default="lesson", choices=["lesson", "demo"],
                    help="perceptron page only. lesson: the Perceptron lesson page of app.py (default); "
                         "demo: tests/e2e/apps/viewer_demo.py")
    ap.add_argument("--N", type=int, default=10_000, help="winnow page only: variables (default 10^4)")
    ap.add_argument("--k", type=int, default=3, help="winnow page only: relevant variables (default 3)")
    ap.add_argument("--json", help="also write the raw numbers here")
    ap.add_argument("--smoke", action="store_true",
                    help="a tiny run that only shows the bench works (CI): 10 clicks, 1 load, 1 s of play, T = 2000")
    args = ap.parse_args()
    if args.smoke:
        args.clicks, args.loads, args.play_seconds, args.T = 10, 1, 1.0, 2000
        args.N = min(args.N, 2000)

    from playwright.sync_api import sync_playwright

    subject = PerceptronSubject(args) if args.page == "perceptron" else WinnowSubject(args)
    out: dict = {"page": args.page, **subject.info, "cpus": os.cpu_count(), "loadavg_start": os.getloadavg()}
    errors: list[str] = []
    py = str(ROOT / ".venv" / "bin" / "python") if (ROOT / ".venv" / "bin" / "python").exists() else sys.executable
    with StreamlitServer(FLOOR_APP, cwd=ROOT, python=py) as floor_srv, \
            StreamlitServer(subject.app_path, cwd=ROOT, python=py) as viewer_srv, sync_playwright() as pw:
        browser = pw.chromium.launch(**launch_kwargs())
        out["browser"] = f"chromium {browser.version}"
        floor_url, viewer_url = floor_srv.url + "/", viewer_srv.url + "/" + subject.query
        print(f"{out['browser']}; {subject.query} ({len(subject.mistakes)} mistakes)", flush=True)
        out["first_load_ms"] = measure_loads(browser, {"floor": (floor_url, FLOOR_READY),
                                                       "viewer": (viewer_url + "&t=0", subject.ready)}, args.loads,
                                             whole=subject.whole)
        floor = new_page(browser, floor_url)
        wait_cond(floor, FLOOR_READY, timeout_ms=120_000)
        viewer = new_page(browser, viewer_url + "&t=0")
        wait_cond(viewer, subject.ready, timeout_ms=120_000)
        subject.check(viewer)
        out.update(measure_clicks(floor, viewer, subject, args.clicks))
        errors.extend(floor.errors + viewer.errors)
        out["play"] = measure_play(browser, viewer_url, subject, args.T, args.play_seconds, errors)
        browser.close()
    if errors:
        out["console_errors"] = errors
    out["loadavg_end"] = os.getloadavg()
    report(out, subject)
    if args.json:
        Path(args.json).write_text(json.dumps(out, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
