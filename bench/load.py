#!/usr/bin/env python3
"""A lecture hall at the protocol level: N simulated students against one olc server.

    .venv/bin/python bench/load.py --students 30                   # starts its own server (a free port)
    .venv/bin/python bench/load.py --students 100 --url http://127.0.0.1:8500 --server-pid 123 --server-pid 124
    .venv/bin/python bench/load.py --students 30 --browser         # + one real Chromium doing the same steps
    .venv/bin/python bench/load.py --students 1 --cpu-per-kind     # one student alone: server CPU per kind
    .venv/bin/python bench/load.py --students 1 --cpu-per-kind --reps 5   # the same, five times as many actions

Each student is one websocket session speaking Streamlit's own protocol (bench/stproto.py:
the BackMsg / ForwardMsg protobufs the browser exchanges), so the server is measured, not
a fleet of browsers. The students arrive over ``--ramp`` seconds, all on the same link
(``--link``, what an instructor shares), and then, at a human pace (``--think`` seconds
between actions, ±50 %), repeat: move the γ slider to one of a few nearby values, step
to the next three mistakes (the viewer's position report, as the browser sends it when
stepping pauses), switch to another lesson and come back. Every answer is checked: the
run finished without an exception element, the slider's new value came back in the URL
the page writes, the step's position too, the page switch landed on the page asked for.
A failed check, a timeout or a dropped connection is an error.

Printed: per interaction kind the count, median / p95 / max latency (request sent ->
``script_finished``), errors; the server's CPU seconds per interaction (/proc of the
server's PIDs: the one started here, or ``--server-pid``); its resident memory growth
per session (peak RSS while all are connected minus the RSS after a warm-up session).
The last line: ``load: students=N p95_ms=… errors=…``. ``--smoke``: 2 students for 3 s on a server
started here (CI: tests/bench/test_bench_smoke.py; the protocol checks: tests/ui/test_load_protocol.py).

``--class``: a class session instead (one lecturer steps, N students follow and vote): bench/load_class.py,
last line ``class: students=N lag_p95_ms=… lag_max_ms=… votes_lost=… errors=…``.

Loopback only; bounded in time (``--duration`` after the last arrival, then every
student stops; a request waits at most ``--timeout`` seconds).
"""
from __future__ import annotations

import argparse
import asyncio
import os
import random
import sys
import threading
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))
sys.path.insert(0, str(ROOT / "tests" / "e2e"))
import load_class  # noqa: E402
import stproto  # noqa: E402
from stproto import Client, ProtocolError, widget_states  # noqa: E402

KINDS = ("open", "slider", "step", "switch")
PAGE = "perceptron"
OTHER_PAGE = "winnow"
SLIDER = "perceptron__gamma"
VIEWER = "perceptron_viewer"


@dataclass
class Stats:
    latencies: dict[str, list[float]] = field(default_factory=lambda: {k: [] for k in KINDS})
    errors: dict[str, list[str]] = field(default_factory=lambda: {k: [] for k in KINDS})
    upstreams: dict[str, int] = field(default_factory=dict)

    def error(self, kind: str, what: str) -> None:
        self.errors[kind].append(what[:300])


def percentile(xs: list[float], q: float) -> float | None:
    if not xs:
        return None
    s = sorted(xs)
    return s[min(len(s) - 1, max(0, int(round(q / 100 * (len(s) - 1)))))]


# ------------------------------------------------------------------------------ one student

class Student:
    """One student's tab: opens the link, then slider / steps / page switch until the deadline."""

    def __init__(self, i: int, args, stats: Stats, deadline: float):
        self.i, self.args, self.stats, self.deadline = i, args, stats, deadline
        self.rng = random.Random(1000 + i)
        self.client: Client | None = None
        self.states: dict = {}
        self.page_hash = ""
        self.pages: dict[str, str] = {}
        self.position = 0
        self.stops: list[int] = []
        self.T = 1
        self.elements: dict = {}
        self.fragments: dict[str, str] = {}
        self.query = ""

    async def timed(self, kind: str, coro):
        t0 = time.perf_counter()
        try:
            await coro
        except (asyncio.TimeoutError, TimeoutError):
            self.stats.error(kind, f"student {self.i}: no answer within {self.args.timeout:g} s")
            return False
        except Exception as exc:  # noqa: BLE001 - every failure is counted and reported
            self.stats.error(kind, f"student {self.i}: {type(exc).__name__}: {exc}")
            return False
        self.stats.latencies[kind].append(time.perf_counter() - t0)
        return True

    def absorb(self, run, kind: str) -> None:
        if run.exceptions:
            raise ProtocolError(f"{kind}: the page raised {run.exceptions[0]}")
        if run.status == stproto.ForwardMsg.FINISHED_FRAGMENT_RUN_SUCCESSFULLY:
            # a fragment's run redraws its own elements; the browser keeps the rest of the page as it was
            fresh = widget_states(run, self.states)
            self.states = {**self.states, **fresh}
            self.elements = {**self.elements, **{w: el for w, (_, el) in run.elements.items()}}
            self.fragments = {**self.fragments, **run.fragments}
            return
        self.states = widget_states(run, self.states)
        self.elements = {w: el for w, (_, el) in run.elements.items()}
        self.fragments = dict(run.fragments)
        self.page_hash = run.page_hash
        self.pages = run.pages or self.pages
        spec = run.components.get("olc_step_viewer", {}).get("spec")
        if spec:
            self.stops = [r + 1 for r in spec.get("mistake_rounds", [])]
            self.T = spec["T"]

    def url_params(self, run) -> dict:
        """The query the page asks the browser to show (settings that differ from the defaults, and t)."""
        data = run.components.get("olc_url_sync", {})
        return {**data.get("fallback", {}), **data.get("params", {})}

    async def open(self) -> None:
        cookie = await asyncio.get_running_loop().run_in_executor(None, first_get, self.args.url, self.args.link)
        self.client = Client(self.args.url, cookie=cookie, timeout_s=self.args.timeout)
        await self.client.connect()
        up = self.client.upstream or "direct"
        self.stats.upstreams[up] = self.stats.upstreams.get(up, 0) + 1
        path, _, query = self.args.link.lstrip("/").partition("?")
        run = await self.client.rerun(query=query, page_name=path)
        self.absorb(run, "open")
        if "olc_step_viewer" not in run.components:
            raise ProtocolError(f"open: no step viewer drawn for {self.args.link!r}")
        self.query = query

    async def slider(self) -> None:
        st, el = self.client_el(SLIDER)
        value = round(min(el.max, max(el.min, el.default[0] + el.step * self.rng.randint(-2, 2))), 6)
        del st.double_array_value.data[:]
        st.double_array_value.data.append(value)
        run = await self.client.rerun(query=self.query, page_hash=self.page_hash, widgets=list(self.states.values()))
        self.absorb(run, "slider")
        got = self.url_params(run).get("gamma", el.default[0])
        if abs(float(got) - value) > 1e-9:
            raise ProtocolError(f"slider: sent γ = {value}, the page wrote gamma = {got!r}")
        self.position = 0

    def client_el(self, suffix: str):
        for wid, st in self.states.items():
            if wid.endswith("-" + suffix):
                return st, self.elements[wid]
        raise ProtocolError(f"no widget {suffix!r} on the page")

    async def step(self) -> None:
        nxt = [s for s in self.stops if s > self.position]
        self.position = nxt[0] if nxt else min(self.position + 1, self.T)
        vid = next((w for w in self.elements if w.endswith("-" + VIEWER)), None)
        if vid is None:
            raise ProtocolError("step: no step viewer on the page")
        self.states[vid] = stproto.WidgetState(id=vid, json_value=f'{{"position":{self.position}}}')
        run = await self.client.rerun(query=self.query, page_hash=self.page_hash, widgets=list(self.states.values()),
                                      fragment_id=self.fragments.get(vid, ""))    # the browser's: the viewer's fragment
        got = self.url_params(run).get("t")
        self.absorb(run, "step")
        if got != str(self.position):
            raise ProtocolError(f"step: sent position {self.position}, the page wrote t = {got!r}")

    async def switch(self) -> None:
        for target in (OTHER_PAGE, PAGE):
            want = self.pages.get(target)
            if not want:
                raise ProtocolError(f"switch: no page {target!r} in the navigation")
            run = await self.client.rerun(page_hash=want)
            self.absorb(run, "switch")
            if run.page_hash != want:
                raise ProtocolError(f"switch: asked for {target}, the server ran page {run.page_hash}")
        self.query = ""
        self.position = int(self.url_params(run).get("t", 0) or 0)

    async def think(self) -> None:
        t = self.args.think * self.rng.uniform(0.5, 1.5)
        await asyncio.sleep(max(0.0, min(t, self.deadline - time.monotonic())))

    async def main(self) -> None:
        await asyncio.sleep(self.args.ramp * self.i / max(1, self.args.students))
        ok = await self.timed("open", self.open())
        plan = ["slider", "step", "step", "step", "switch"]
        k = self.rng.randrange(len(plan))
        while ok and time.monotonic() < self.deadline:
            await self.think()
            if time.monotonic() >= self.deadline:
                break
            kind = plan[k % len(plan)]
            k += 1
            ok = await self.timed(kind, getattr(self, kind)())
        if self.client is not None:
            try:
                await self.client.close()
            except Exception:  # noqa: BLE001 - closing a broken socket
                pass


def first_get(url: str, link: str) -> str | None:
    """GET the link as a browser does first; the routing cookie a balancer sets (scripts/serve.sh), if any."""
    with urllib.request.urlopen(url.rstrip("/") + "/" + link.lstrip("/"), timeout=30) as r:
        r.read()
        cookies = [c.split(";", 1)[0] for c in r.headers.get_all("Set-Cookie") or []]
    return "; ".join(cookies) or None


# ------------------------------------------------------------------------------ the server

def proc_cpu_rss(pids: list[int]) -> tuple[float, int]:
    """(CPU seconds, resident bytes) summed over ``pids`` (Linux /proc)."""
    tick, page = os.sysconf("SC_CLK_TCK"), os.sysconf("SC_PAGE_SIZE")
    cpu, rss = 0.0, 0
    for pid in pids:
        try:
            with open(f"/proc/{pid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            cpu += (int(fields[11]) + int(fields[12])) / tick
            with open(f"/proc/{pid}/statm") as f:
                rss += int(f.read().split()[1]) * page
        except (OSError, IndexError, ValueError):
            pass
    return cpu, rss


class Sampler(threading.Thread):
    """Peak RSS of the server processes, every 0.25 s."""

    def __init__(self, pids: list[int]):
        super().__init__(daemon=True)
        self.pids, self.peak, self.stop = pids, 0, threading.Event()

    def run(self) -> None:
        while not self.stop.is_set():
            self.peak = max(self.peak, proc_cpu_rss(self.pids)[1])
            self.stop.wait(0.25)


async def warm_up(args, n_backends: int) -> None:
    """One session through every step (imports, caches filled) on each backend, then closed: the baseline.

    Behind a balancer each session lands where its route cookie sends it: new sessions until
    ``n_backends`` distinct ones were seen (at most 8 per backend)."""
    seen: set[str] = set()
    for i in range(8 * max(1, n_backends)):
        stats = Stats()
        s = Student(-1 - i, args, stats, time.monotonic() + 120)
        await s.timed("open", s.open())
        for kind in ("slider", "step", "switch"):
            await s.timed(kind, getattr(s, kind)())
        if s.client is not None:
            await s.client.close()
        errs = [e for v in stats.errors.values() for e in v]
        if errs:
            raise SystemExit(f"load: the warm-up session failed: {errs[0]}")
        seen.add(s.client.upstream or "direct")
        if len(seen) >= n_backends:
            return


async def hall(args, pids: list[int]) -> dict:
    await warm_up(args, len(pids))
    await asyncio.sleep(1.0)
    cpu0, rss0 = proc_cpu_rss(pids)
    sampler = Sampler(pids)
    sampler.start()
    stats = Stats()
    t0 = time.monotonic()
    deadline = t0 + args.ramp + args.duration
    students = [Student(i, args, stats, deadline) for i in range(args.students)]
    own0 = time.process_time()
    await asyncio.wait_for(asyncio.gather(*(s.main() for s in students)), args.ramp + args.duration + 2 * args.timeout)
    own = time.process_time() - own0
    sampler.stop.set()
    sampler.join()
    cpu1, _ = proc_cpu_rss(pids)
    return {"stats": stats, "cpu": cpu1 - cpu0, "rss0": rss0, "peak": max(sampler.peak, rss0),
            "wall": time.monotonic() - t0, "client_cpu": own}


async def cpu_per_kind(args, pids: list[int]) -> dict[str, float]:
    """One student alone, back to back: server CPU seconds per step, slider move and page switch (there and back)."""
    await warm_up(args, len(pids))
    s = Student(0, args, Stats(), float("inf"))
    await s.open()
    out = {}
    for kind, n in (("step", 20 * args.reps), ("slider", 10 * args.reps), ("switch", 6 * args.reps)):
        cpu0 = proc_cpu_rss(pids)[0]
        for _ in range(n):
            if kind == "step":
                s.position = 0
            await getattr(s, kind)()
        out[kind] = (proc_cpu_rss(pids)[0] - cpu0) / n
    await s.client.close()
    return out


async def soak(args, pids: list[int], n: int) -> list[float]:
    """One student, ``n`` interactions back to back (steps, a slider move and a page switch in
    every ten): the server's RSS (MiB) after each hundred."""
    s = Student(0, args, Stats(), float("inf"))
    await s.open()
    rss = []
    for i in range(n):
        await (s.slider() if i % 10 == 0 else s.switch() if i % 10 == 5 else s.step())
        if s.position >= s.T:
            s.position = 0
        if (i + 1) % 100 == 0:
            rss.append(proc_cpu_rss(pids)[1] / 2**20)
    await s.client.close()
    return rss


# ------------------------------------------------------------------------------ the real browser

def browser_spot_check(url: str, link: str, start: threading.Event, out: dict, stop_at: float) -> None:
    """One Chromium tab doing the students' steps while the load runs (Playwright, /usr/bin/chromium)."""
    from playwright.sync_api import sync_playwright
    from stbrowser import INSTRUMENT_JS, launch_kwargs, mark, wait_for_rerun

    lat: dict[str, list[float]] = {k: [] for k in KINDS}
    errors: list[str] = []
    try:
        with sync_playwright() as pw:
            b = pw.chromium.launch(**launch_kwargs())
            ctx = b.new_context(viewport={"width": 1400, "height": 900})
            ctx.add_init_script(INSTRUMENT_JS)
            page = ctx.new_page()
            start.wait(120)
            t0 = time.perf_counter()
            page.goto(url.rstrip("/") + "/" + link.lstrip("/"))
            page.get_by_role("button", name="Next mistake", exact=True).wait_for(timeout=120_000)
            lat["open"].append(time.perf_counter() - t0)

            def act(kind: str, do) -> None:
                since = mark(page)
                do()
                r = wait_for_rerun(page, since, timeout_s=60)
                if not r.get("ok"):
                    errors.append(f"{kind}: {r.get('reason')}")
                elif r.get("t_done") is not None and r.get("t_action") is not None:
                    lat[kind].append((r["t_done"] - r["t_action"]) / 1000)

            slider = page.locator('[data-testid="stSidebar"] [data-testid="stSlider"] input[type=range]').nth(1)
            k = 0
            while time.monotonic() < stop_at:
                key = "ArrowRight" if k % 2 == 0 else "ArrowLeft"
                act("slider", lambda: (slider.focus(), page.keyboard.press(key)))
                for _ in range(3):      # the viewer reports its position once stepping pauses
                    nxt = page.get_by_role("button", name="Next mistake", exact=True)
                    if not nxt.is_enabled():     # past the last mistake: back to the start first
                        act("step", lambda: page.get_by_role("button", name="First", exact=True).click())
                    act("step", lambda: nxt.click())
                act("switch", lambda: page.get_by_role("link", name="Winnow").first.click())
                act("switch", lambda: page.get_by_role("link", name="Perceptron", exact=True).first.click())
                page.get_by_role("button", name="Next mistake", exact=True).wait_for(timeout=60_000)
                k += 1
            b.close()
    except Exception as exc:  # noqa: BLE001 - reported beside the table
        errors.append(f"{type(exc).__name__}: {str(exc)[:200]}")
    out.update(latencies=lat, errors=errors)


# ------------------------------------------------------------------------------ report

def fmt_ms(x: float | None) -> str:
    return "–" if x is None else f"{1000 * x:.0f}"


def report(args, res: dict, n_pids: int, browser: dict | None) -> float | None:
    st: Stats = res["stats"]
    n_all = sum(len(v) for v in st.latencies.values())
    print(f"\n{args.students} students on {args.url}{args.link} ({n_pids} server process(es)), "
          f"ramp {args.ramp:g} s, {args.duration:g} s, think {args.think:g} s; wall {res['wall']:.1f} s")
    print(f"{'interaction':<12}{'n':>6}{'median ms':>11}{'p95 ms':>9}{'max ms':>9}{'errors':>8}")
    for k in KINDS:
        xs = st.latencies[k]
        print(f"{k:<12}{len(xs):>6}{fmt_ms(percentile(xs, 50)):>11}{fmt_ms(percentile(xs, 95)):>9}"
              f"{fmt_ms(max(xs) if xs else None):>9}{len(st.errors[k]):>8}")
    every = [x for v in st.latencies.values() for x in v]
    p95 = percentile(every, 95)
    n_err = sum(len(v) for v in st.errors.values())
    print(f"{'all':<12}{n_all:>6}{fmt_ms(percentile(every, 50)):>11}{fmt_ms(p95):>9}"
          f"{fmt_ms(max(every) if every else None):>9}{n_err:>8}")
    if n_pids:
        per = res["cpu"] / n_all if n_all else float("nan")
        print(f"server CPU: {res['cpu']:.1f} s over {res['wall']:.1f} s ({res['cpu'] / res['wall']:.2f} cores), "
              f"{per * 1000:.0f} ms per interaction")
        print(f"server memory: {res['rss0'] / 2**20:.0f} MiB after the warm-up, peak {res['peak'] / 2**20:.0f} MiB: "
              f"{(res['peak'] - res['rss0']) / 2**20 / max(1, args.students):.2f} MiB per session")
    print(f"load client CPU (this process, all {args.students} students): {res.get('client_cpu', 0):.1f} s")
    if len(st.upstreams) > 1 or "direct" not in st.upstreams:
        print("sessions per backend: " + ", ".join(f"{u}: {n}" for u, n in sorted(st.upstreams.items())))
    for k in KINDS:
        for e in st.errors[k][:3]:
            print(f"  error ({k}): {e}")
    if browser is not None:
        lat = browser.get("latencies", {})
        parts = [f"{k} median {fmt_ms(percentile(lat.get(k, []), 50))} ms (n={len(lat.get(k, []))})" for k in KINDS]
        print("real browser (Chromium, same steps, beside the load): " + "; ".join(parts)
              + f"; errors: {len(browser.get('errors', []))}" + "".join(f"\n  browser error: {e}" for e in browser.get("errors", [])[:3]))
    print(f"load: students={args.students} p95_ms={fmt_ms(p95)} errors={n_err}")
    return p95


def parse_args(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--students", type=int, help="simulated students (websocket sessions); required but with --smoke")
    ap.add_argument("--url", help="a running server (loopback only); default: start one on a free port")
    ap.add_argument("--server-pid", type=int, action="append", default=[],
                    help="PID of a server process behind --url (repeat; for CPU and memory)")
    ap.add_argument("--link", default="/perceptron", help="the link every student opens (default /perceptron)")
    ap.add_argument("--duration", type=float, default=60.0, help="seconds of activity after the last arrival")
    ap.add_argument("--ramp", type=float, default=None, help="seconds over which students arrive (default N/5, ≤ 30)")
    ap.add_argument("--think", type=float, default=3.0, help="mean seconds between a student's actions")
    ap.add_argument("--timeout", type=float, default=60.0, help="seconds a request may take before it is an error")
    ap.add_argument("--browser", action="store_true", help="one real Chromium tab doing the same steps")
    ap.add_argument("--server-arg", action="append", default=[],
                    help="an extra `streamlit run` option for the server started here (e.g. --server-arg=--runner.postScriptGC=true)")
    ap.add_argument("--soak", type=int, metavar="K", default=0,
                    help="instead: one student, K interactions back to back; the server's RSS every hundred")
    ap.add_argument("--cpu-per-kind", action="store_true",
                    help="instead: one student alone, the server's CPU per step / slider move / page switch")
    ap.add_argument("--reps", type=int, default=1,
                    help="with --cpu-per-kind: K times 20 steps, 10 slider moves and 6 switches (/proc's CPU clock "
                         "counts in 10 ms ticks: more repetitions, a finer figure)")
    ap.add_argument("--smoke", action="store_true",
                    help="a tiny run (CI): 2 students for 3 s, think 0.3 s, ramp 0.5 s (unless given)")
    args = ap.parse_args(argv)
    if args.smoke:
        args.students = args.students or 2
        if "--duration" not in (argv or sys.argv):
            args.duration = 3.0
        if "--think" not in (argv or sys.argv):
            args.think = 0.3
        if args.ramp is None:
            args.ramp = 0.5
    if args.students is None:
        ap.error("--students is required (or --smoke)")
    if args.students < 1:
        ap.error("--students must be at least 1")
    if args.ramp is None:
        args.ramp = min(30.0, args.students / 5)
    return args


def main(argv=None) -> int:
    if "--class" in (sys.argv[1:] if argv is None else argv):      # a class session: bench/load_class.py
        return load_class.main(argv)
    args = parse_args(argv)
    server = None
    if args.url is None:
        from stbrowser import StreamlitServer

        server = StreamlitServer(ROOT / "app.py", cwd=ROOT, extra_args=args.server_arg).start()
        args.url, args.server_pid = server.url, [server.pid]
    stproto.check_loopback(args.url)
    try:
        if (args.soak or args.cpu_per_kind) and not args.server_pid:
            raise SystemExit("load: --soak and --cpu-per-kind need the server's PID (--server-pid) with --url")
        if args.soak:
            got = asyncio.run(soak(args, args.server_pid, args.soak))
            print("server RSS (MiB) after each 100 interactions: " + ", ".join(f"{x:.1f}" for x in got))
            return 0
        if args.cpu_per_kind:
            got = asyncio.run(cpu_per_kind(args, args.server_pid))
            for kind, sec in got.items():
                print(f"server CPU per {kind}: {1000 * sec:.1f} ms" + (" (there and back: two runs)" if kind == "switch" else ""))
            return 0
        browser, started, thread = None, threading.Event(), None
        if args.browser:
            browser = {}
            stop_at = time.monotonic() + 60 + args.ramp + args.duration
            thread = threading.Thread(target=browser_spot_check, daemon=True,
                                      args=(args.url, args.link, started, browser, stop_at))
            thread.start()
        res = asyncio.run(_with_start(args, started))
        if thread is not None:
            thread.join(args.timeout + 60)
        p95 = report(args, res, len(args.server_pid), browser)
    finally:
        if server is not None:
            server.stop()
    return 0 if p95 is not None else 1


async def _with_start(args, started: threading.Event) -> dict:
    task = asyncio.create_task(hall(args, args.server_pid))
    await asyncio.sleep(0)
    started.set()
    return await task


if __name__ == "__main__":
    sys.exit(main())
