#!/usr/bin/env python3
"""What a student's phone downloads when it opens a link, and how soon it shows the first chart.

    .venv/bin/python bench/join.py                       # /perceptron and a class join link; starts its server
    .venv/bin/python bench/join.py --link /winnow --runs 5
    .venv/bin/python bench/join.py --url http://127.0.0.1:8500 --seed ABC234:<key>   # e.g. behind serve.sh
    .venv/bin/python bench/join.py --smoke               # a quick run that shows the bench works (tests/bench)

A phone as Chromium emulates it (Debian's Chromium through Playwright, tests/e2e/stbrowser.py): 390×844 CSS
pixels, scale 3, touch, a mobile viewport; the network throttled through the DevTools protocol
(``Network.emulateNetworkConditions``) to "Fast 3G" as issue 34 defines it: 1.6 Mbit/s down (200,000 B/s),
750 kbit/s up, 150 ms of latency per request. ``--preset devtools`` takes instead the figures DevTools' own
"Fast 3G" menu entry applies (throughputs × 0.9, latency 150 ms × 3.75 = 562.5 ms: every request waits 0.56 s, and
Streamlit's frontend makes ~130 of them, 6 at a time over HTTP/1.1). The server's caches are warm: one unthrottled
visit per link first, not counted, then ``--settle`` seconds (15) for what the server compresses in the background.

* **first visit** — a fresh browser context (an empty cache), the link opened, until the page is done:
  the step viewer ready, and no byte on any connection for ``--quiet`` seconds (2 s). Bytes are counted on
  the wire, by a TCP relay between the browser and the server that counts what passes in each direction:
  every HTTP response (headers included, compressed as sent) and every websocket frame (compressed, if the
  connection negotiated permessage-deflate), nothing estimated. Requests: every HTTP request and websocket
  the page opened (DevTools' ``Network.requestWillBeSent`` / ``webSocketCreated``), data: URLs excluded.
* **first chart** — on that same throttled first visit: the time from navigation start to the first chart
  of the step viewer in the page (a ``.olc-plot .main-svg`` element, found by a MutationObserver installed
  before the page's own scripts: ``performance.now()`` at that moment).
* **repeat visit** — the same browser context (its cache), a new tab, the same link again, bytes counted
  the same way: what a student's second visit (or a reload) costs.

Each link is visited ``--runs`` times (default 3: a fresh context each), the medians reported; per run, the
resources largest on the wire (type, size, Content-Encoding, Cache-Control) and anything sent uncompressed
that compresses (text, JavaScript, CSS, JSON, SVG over 1 kB without Content-Encoding) are printed.
Last lines, one per link, the class link last:
``join: page=… first_visit_kb=… requests=… repeat_visit_kb=… fast3g_first_chart_s=…`` (kB = 1,000 bytes).
Targets (issue 34): first visit ≤ 1,200 kB, repeat visit ≤ 150 kB, first chart on Fast 3G ≤ 8 s.

The class join link is ``<url>/perceptron?class=<code>``: the bench starts its server with
``OLC_CLASS_SEED=<code>:<key>`` (a session made at start, as bench/load_class.py does); with ``--url`` give
the server the same variable and ``--seed`` here. The timings are wall-clock on this machine: a loaded
machine (other jobs, a slow server) makes them longer; the bytes do not depend on it.
"""
from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "e2e"))
from olc_ui.classroom import codes  # noqa: E402
from stbrowser import StreamlitServer, launch_kwargs  # noqa: E402

#: "Fast 3G": bytes/s and ms, as issue 34 states it (1.6 Mbit/s, 150 ms), and as DevTools' menu entry applies it.
PRESETS = {"issue": {"downloadThroughput": 1.6e6 / 8, "uploadThroughput": 750e3 / 8, "latency": 150.0},
           "devtools": {"downloadThroughput": 1.6e6 / 8 * 0.9, "uploadThroughput": 750e3 / 8 * 0.9,
                        "latency": 150 * 3.75}}
PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 3, "is_mobile": True,
         "has_touch": True}
TARGETS = {"first_visit_kb": 1200, "repeat_visit_kb": 150, "fast3g_first_chart_s": 8}
VIEWER_READY = '.olc-viewer[data-ready="true"]'
#: Installed before the page's scripts: the moment the first chart of the viewer is in the page.
FIRST_CHART_JS = r"""
(() => {
  const seen = () => document.querySelector('.olc-plot .main-svg');
  const mark = () => { if (window.__olcFirstChart === undefined && seen()) window.__olcFirstChart = performance.now(); };
  new MutationObserver(mark).observe(document, {subtree: true, childList: true});
})();
"""
COMPRESSIBLE = ("text/", "javascript", "json", "css", "svg", "xml")


# --------------------------------------------------------------------------- the counting relay

class Relay:
    """A TCP relay on 127.0.0.1 (its own thread and event loop) in front of ``target``: counts the bytes."""

    def __init__(self, target_host: str, target_port: int):
        self.target = (target_host, target_port)
        self.down = self.up = 0
        self.last = time.monotonic()
        self.connections: list[dict] = []
        self._loop = asyncio.new_event_loop()
        self._ready = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self.port = 0

    def start(self) -> "Relay":
        self._thread.start()
        self._ready.wait(10)
        return self

    def reset(self) -> None:
        self.down = self.up = 0
        self.connections = []
        self.last = time.monotonic()

    def _run(self) -> None:
        asyncio.set_event_loop(self._loop)
        server = self._loop.run_until_complete(asyncio.start_server(self._client, "127.0.0.1", 0))
        self.port = server.sockets[0].getsockname()[1]
        self._ready.set()
        self._loop.run_forever()

    async def _client(self, reader, writer) -> None:
        try:
            up_reader, up_writer = await asyncio.open_connection(*self.target)
        except OSError:
            writer.close()
            return
        conn = {"first": b"", "down": 0, "up": 0}
        self.connections.append(conn)

        async def pipe(src, dst, direction):
            try:
                while data := await src.read(65536):
                    if direction == "up":
                        if not conn["first"]:
                            conn["first"] = data.split(b"\r\n", 1)[0][:200]
                        self.up += len(data)
                        conn["up"] += len(data)
                    else:
                        self.down += len(data)
                        conn["down"] += len(data)
                    self.last = time.monotonic()
                    dst.write(data)
                    await dst.drain()
            except (ConnectionError, OSError):
                pass
            finally:
                try:
                    dst.close()
                except Exception:  # already closed
                    pass

        await asyncio.gather(pipe(reader, up_writer, "up"), pipe(up_reader, writer, "down"))

    def websocket_down(self) -> int:
        return sum(c["down"] for c in self.connections if b"/_stcore/stream" in c["first"]
                   or b"/olc-class/ws" in c["first"])

    def stop(self) -> None:
        self._loop.call_soon_threadsafe(self._loop.stop)


# --------------------------------------------------------------------------- one visit

@dataclass
class Visit:
    kb: float
    requests: int
    ws_kb: float
    first_chart_s: float | None
    seconds: float
    resources: list[dict] = field(default_factory=list)


def _watch(cdp) -> dict:
    """Every request of the tab (DevTools events): url, type, response headers, bytes on the wire."""
    seen: dict[str, dict] = {}

    def sent(e):
        if not e["request"]["url"].startswith("data:"):
            seen.setdefault(e["requestId"], {"url": e["request"]["url"], "type": e.get("type", ""),
                                             "t0": e.get("timestamp", 0.0)})

    def got(e):
        r = seen.get(e["requestId"])
        if r is not None:
            h = {k.lower(): v for k, v in e["response"].get("headers", {}).items()}
            r.update(status=e["response"]["status"], mime=e["response"].get("mimeType", ""),
                     encoding=h.get("content-encoding", ""), cache=h.get("cache-control", ""),
                     cached=bool(e["response"].get("fromDiskCache") or e["response"].get("fromPrefetchCache")))

    def done(e):
        r = seen.get(e["requestId"])
        if r is not None:
            r["bytes"], r["t1"] = e.get("encodedDataLength", 0), e.get("timestamp", 0.0)

    cdp.on("Network.requestWillBeSent", sent)
    cdp.on("Network.responseReceived", got)
    cdp.on("Network.loadingFinished", done)
    cdp.on("Network.webSocketCreated", lambda e: seen.setdefault(e["requestId"], {"url": e["url"], "type": "WebSocket"}))
    return seen


def visit(context, url: str, relay: Relay, *, throttle: dict | None, quiet: float, timeout: float) -> Visit:
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    cdp.send("Network.enable")
    if throttle:
        cdp.send("Network.emulateNetworkConditions", {"offline": False, **throttle})
    seen = _watch(cdp)
    relay.reset()
    t0 = time.monotonic()
    page.goto(url, wait_until="commit", timeout=timeout * 1000)
    page.wait_for_selector(VIEWER_READY, timeout=timeout * 1000)
    while time.monotonic() - relay.last < quiet and time.monotonic() - t0 < timeout:
        time.sleep(0.1)
    first_chart = page.evaluate("() => window.__olcFirstChart")
    seconds = time.monotonic() - t0
    down, ws = relay.down, relay.websocket_down()
    cdp.detach()
    page.close()
    resources = sorted(seen.values(), key=lambda r: -r.get("bytes", 0))
    return Visit(kb=down / 1000, requests=len(seen), ws_kb=ws / 1000,
                 first_chart_s=None if first_chart is None else first_chart / 1000, seconds=seconds,
                 resources=resources)


def uncompressed(resources: list[dict]) -> list[dict]:
    """Responses that compress but were sent without Content-Encoding (over 1 kB on the wire)."""
    return [r for r in resources if r.get("bytes", 0) > 1000 and not r.get("encoding") and r.get("status") == 200
            and any(m in r.get("mime", "") for m in COMPRESSIBLE)]


def describe(v: Visit, top: int, timeline: bool = False) -> str:
    lines = [f"    {v.kb:8.1f} kB on the wire ({v.ws_kb:.1f} kB of it over websockets), {v.requests} requests, "
             f"first chart {'—' if v.first_chart_s is None else f'{v.first_chart_s:.2f} s'}, done after {v.seconds:.1f} s"]
    for r in v.resources[:top]:
        path = urlsplit(r["url"]).path
        lines.append(f"      {r.get('bytes', 0) / 1000:8.1f} kB  {r.get('type', ''):10} {r.get('encoding') or '-':5} "
                     f"{(r.get('cache') or '-')[:38]:38} {path[-70:]}")
    if timeline and v.resources:
        start = min(r.get("t0", 0.0) for r in v.resources)
        for r in sorted(v.resources, key=lambda r: r.get("t0", 0.0)):
            if r.get("bytes", 0) > 5000 or r.get("type") == "WebSocket":
                lines.append(f"      {r.get('t0', start) - start:6.2f} → {r.get('t1', start) - start:6.2f} s  {r.get('bytes', 0) / 1000:7.1f} kB "
                             f"{urlsplit(r['url']).path.rsplit('/', 1)[-1][:60]}")
    bad = uncompressed(v.resources)
    if bad:
        lines.append("      sent uncompressed: " + ", ".join(f"{urlsplit(r['url']).path.rsplit('/', 1)[-1]} "
                                                           f"({r['bytes'] / 1000:.1f} kB)" for r in bad))
    return "\n".join(lines)


# --------------------------------------------------------------------------- the bench

def measure_link(browser, url: str, relay: Relay, args) -> dict:
    preset = PRESETS[args.preset]
    throttle = None if args.no_throttle else dict(preset, latency=args.rtt_ms if args.rtt_ms is not None
                                                  else preset["latency"])
    firsts, repeats = [], []
    for i in range(args.runs):
        ctx = browser.new_context(**PHONE)
        ctx.add_init_script(FIRST_CHART_JS)
        try:
            first = visit(ctx, url, relay, throttle=throttle, quiet=args.quiet, timeout=args.timeout)
            repeat = visit(ctx, url, relay, throttle=throttle, quiet=args.quiet, timeout=args.timeout)
        finally:
            ctx.close()
        print(f"  run {i + 1}: first visit\n{describe(first, args.top, args.timeline)}", flush=True)
        print(f"  run {i + 1}: repeat visit\n{describe(repeat, min(args.top, 8))}", flush=True)
        firsts.append(first)
        repeats.append(repeat)
    charts = [v.first_chart_s for v in firsts if v.first_chart_s is not None]
    return {"first_visit_kb": statistics.median(v.kb for v in firsts),
            "requests": statistics.median(v.requests for v in firsts),
            "repeat_visit_kb": statistics.median(v.kb for v in repeats),
            "fast3g_first_chart_s": statistics.median(charts) if len(charts) == len(firsts) else None}


def load_average() -> str:
    try:
        return " ".join(Path("/proc/loadavg").read_text().split()[:3])
    except OSError:
        return "?"


def parse_args(argv=None) -> argparse.Namespace:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--url", help="a running server (default: start `streamlit run app.py` on a free port)")
    ap.add_argument("--seed", help="CODE:KEY the server at --url was started with (OLC_CLASS_SEED), for the class link")
    ap.add_argument("--link", action="append", help="a path to open (repeatable; default /perceptron and the class "
                                                    "join link /perceptron?class=<code>)")
    ap.add_argument("--runs", type=int, default=3, help="visits per link, each in a fresh context (default 3)")
    ap.add_argument("--preset", choices=sorted(PRESETS), default="issue",
                    help="Fast 3G as issue 34 states it (default: 1.6 Mbit/s, 150 ms) or as DevTools applies it")
    ap.add_argument("--rtt-ms", type=float, default=None, help="latency per request in ms (instead of the preset's)")
    ap.add_argument("--settle", type=float, default=15.0, help="seconds after the warm-up visits (background work)")
    ap.add_argument("--no-throttle", action="store_true", help="no network throttling (bytes only)")
    ap.add_argument("--quiet", type=float, default=2.0, help="a visit is done after this many seconds without a byte")
    ap.add_argument("--timeout", type=float, default=180.0, help="seconds a visit may take")
    ap.add_argument("--top", type=int, default=15, help="resources listed per first visit")
    ap.add_argument("--timeline", action="store_true", help="when each resource over 5 kB started and ended")
    ap.add_argument("--smoke", action="store_true", help="tiny run: /perceptron once, unthrottled (tests/bench)")
    args = ap.parse_args(argv)
    if args.url and not args.seed and not args.link:
        ap.error("--url needs --seed CODE:KEY for the class join link (or give --link)")
    if args.smoke:
        args.runs, args.no_throttle, args.top, args.quiet, args.settle = 1, True, 5, 1.0, 0.0
        args.link = args.link or ["/perceptron"]
    return args


def main(argv=None) -> int:
    args = parse_args(argv)
    from playwright.sync_api import sync_playwright

    server = None
    if args.url:
        base = args.url.rstrip("/")
        code = (args.seed or "").partition(":")[0]
    else:
        code, key = codes.new_code(), codes.new_key()
        server = StreamlitServer(ROOT / "app.py", cwd=ROOT, python=sys.executable)
        os.environ["OLC_CLASS_SEED"] = f"{code}:{key}"      # the server's environment is this one's
        try:
            server.start()
        finally:
            os.environ.pop("OLC_CLASS_SEED", None)
        base = server.url
    links = args.link or ["/perceptron", f"/perceptron?class={code}"]
    parts = urlsplit(base)
    relay = Relay(parts.hostname, parts.port or 80).start()
    front = f"http://127.0.0.1:{relay.port}{parts.path.rstrip('/')}"
    results = {}
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(**launch_kwargs())
            try:
                warm = browser.new_context(**PHONE)
                for link in links:        # the server's caches warm: one unthrottled visit, not counted
                    visit(warm, front + link, relay, throttle=None, quiet=0.5, timeout=args.timeout)
                warm.close()
                time.sleep(args.settle)
                for link in links:
                    net = "unthrottled" if args.no_throttle else f"Fast 3G ({args.preset}: {PRESETS[args.preset]})"
                    print(f"{link}  (load average {load_average()}; {net})", flush=True)
                    results[link] = measure_link(browser, front + link, relay, args)
            finally:
                browser.close()
    finally:
        relay.stop()
        if server is not None:
            server.stop()
    print("\n| link | first visit kB | requests | repeat visit kB | first chart on Fast 3G s |")
    print("|---|---:|---:|---:|---:|")
    for link, r in results.items():
        chart = "—" if r["fast3g_first_chart_s"] is None else f"{r['fast3g_first_chart_s']:.1f}"
        print(f"| {link.replace(code, '<code>') if code else link} | {r['first_visit_kb']:,.0f} | {r['requests']:.0f} "
              f"| {r['repeat_visit_kb']:,.0f} | {chart} |")
    print("targets: " + ", ".join(f"{k} ≤ {v:,}" for k, v in TARGETS.items())
          + ("  (unthrottled: the first-chart time is not a Fast 3G one)" if args.no_throttle else ""))
    for link, r in results.items():
        page = urlsplit(link).path.strip("/") + ("+class" if "class=" in link else "")
        chart = "nan" if r["fast3g_first_chart_s"] is None or args.no_throttle else f"{r['fast3g_first_chart_s']:.1f}"
        print(f"join: page={page} first_visit_kb={r['first_visit_kb']:.0f} requests={r['requests']:.0f} "
              f"repeat_visit_kb={r['repeat_visit_kb']:.0f} fast3g_first_chart_s={chart}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
