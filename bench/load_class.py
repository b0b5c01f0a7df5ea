#!/usr/bin/env python3
"""A class session at the protocol level: one lecturer, N students, the push endpoint measured.

    .venv/bin/python bench/load.py --class --students 100            # starts its own server (one process)
    .venv/bin/python bench/load_class.py --students 100              # the same
    OLC_CLASS_SEED=ABC234:<key> bash scripts/serve.sh 2 --port 8500 &
    .venv/bin/python bench/load_class.py --students 100 --url http://127.0.0.1:8500 --seed ABC234:<key>

The lecturer and every student are websocket clients of ``/olc-class/ws`` speaking the class protocol
(docs/class-session.md), as viewer_class.js does. The lecturer steps ``--steps`` times (a ``state`` with the
next position every ``--interval`` seconds) and opens ``--questions`` questions among the steps; every
student follows, and answers each question after a random 0-0.5 s (one in five changes its answer once);
the lecturer reveals once the ``answered`` count reaches every student (or after ``--timeout``).

Measured: per step and student, the time from the lecturer's send to that student's receipt of the
``state`` (the protocol-level "the student's page shows the round": the browser then only moves the
viewer's position, without a rerun); votes lost: for each question, the students' last answers against
the counts of the server's ``reveal``. Errors: a connection that fails or is closed, an ``error`` or
``refused`` message, a step a student never received within ``--timeout``. Last line:
``class: students=N lag_p95_ms=… lag_max_ms=… votes_lost=… errors=…``.

``--browser``: one real Chromium student (Playwright, the system Chromium) joins too, through the join link
(``<url>/perceptron?class=<code>``), and the lecturer steps *its* run (the run id and settings its viewer
shows, so that following moves the round in the browser, as with a real lecturer on the same page). Per step:
the time from the lecturer's send to the new round drawn on that page — the viewer's ``data-position`` on
``.olc-viewer`` changing (set when the round is drawn), seen by a MutationObserver. The clocks: the page stamps
``performance.timeOrigin + performance.now()`` (wall-clock milliseconds, sub-millisecond, monotonic within the
page) and the bench stamps ``time.time()`` at the send; both read this machine's system clock, and the page's
``Date.now()`` is kept beside each stamp so the offset between the two readings is printed (a few ms at most
when nothing stepped the clock). Its median, p95 and max are printed on the line before the last.

Getting a session from outside: a session is made by a lecturer's page run (its key goes only to that
browser). The bench instead starts its server with ``OLC_CLASS_SEED=CODE:KEY`` (a random code and key of
its own): the server's store then creates that one session at start (olc_ui/classroom/api.py). The variable
is off by default and only whoever sets a server's environment can use it. With ``--url`` (a server started
by hand, e.g. ``scripts/serve.sh 2``), give the server the same variable and ``--seed`` here. Behind
nginx each websocket without a route cookie lands on a random process: the students split across them
(the ``X-Olc-Upstream`` header of each handshake is counted).
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import sys
import time
from pathlib import Path

import websockets

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))
sys.path.insert(0, str(ROOT / "tests" / "e2e"))
from olc_ui.classroom import codes  # noqa: E402
from stproto import check_loopback  # noqa: E402

CHOICES = [{"id": "yes", "label": "a mistake"}, {"id": "no", "label": "no mistake"}]


def percentile(xs: list[float], q: float) -> float | None:
    if not xs:
        return None
    s = sorted(xs)
    return s[min(len(s) - 1, max(0, int(round(q / 100 * (len(s) - 1)))))]


class Run:
    """What every client saw: send times, receipt times, votes, errors."""

    def __init__(self):
        self.sent: dict[int, float] = {}          # position -> perf_counter() of the lecturer's send
        self.sent_wall: dict[int, float] = {}     # position -> time.time() of the same send (the browser's clock)
        self.run_id, self.query = "bench", "T=200"   # the run the lecturer steps (--browser: the browser's)
        self.errors: list[str] = []
        self.upstreams: dict[str, int] = {}

    def error(self, what: str) -> None:
        self.errors.append(what[:300])


class Student:
    def __init__(self, i: int, args, run: Run):
        self.i, self.args, self.run = i, args, run
        self.rng = random.Random(7000 + i)
        self.got: dict[int, float] = {}           # position -> receipt time
        self.answers: dict[str, str] = {}         # qid -> last answer sent
        self.acked: dict[str, str] = {}
        self.ws = None
        self.tasks: list[asyncio.Task] = []

    async def connect(self, url: str, code: str) -> None:
        self.ws = await websockets.connect(url, open_timeout=self.args.timeout, max_size=2**20)
        up = self.ws.response.headers.get("X-Olc-Upstream", "direct")
        self.run.upstreams[up] = self.run.upstreams.get(up, 0) + 1
        await self.ws.send(json.dumps({"type": "hello", "code": code}))
        welcome = json.loads(await asyncio.wait_for(self.ws.recv(), self.args.timeout))
        if welcome.get("type") != "welcome":
            raise RuntimeError(f"student {self.i}: {welcome}")

    async def read(self) -> None:
        try:
            async for text in self.ws:
                t = time.perf_counter()
                msg = json.loads(text)
                kind = msg.get("type")
                if kind == "ping":                    # the hub's heartbeat: a silent student is not counted
                    await self.ws.send('{"type": "pong"}')
                elif kind == "state":
                    self.got.setdefault(msg["position"], t)
                elif kind == "question":
                    self.tasks.append(asyncio.ensure_future(self.vote(msg["qid"])))
                elif kind == "voted":
                    self.acked[msg["qid"]] = msg["answer"]
                elif kind in ("error", "refused"):
                    self.run.error(f"student {self.i}: {msg}")
                elif kind == "ended":
                    return
        except websockets.ConnectionClosed as exc:
            self.run.error(f"student {self.i}: connection closed: {exc}")

    async def vote(self, qid: str) -> None:
        await asyncio.sleep(self.rng.uniform(0, 0.5))
        answer = self.rng.choice(CHOICES)["id"]
        self.answers[qid] = answer
        await self.ws.send(json.dumps({"type": "vote", "qid": qid, "answer": answer}))
        if self.rng.random() < 0.2:               # changes its mind once
            await asyncio.sleep(self.rng.uniform(0, 0.3))
            answer = "no" if answer == "yes" else "yes"
            self.answers[qid] = answer
            await self.ws.send(json.dumps({"type": "vote", "qid": qid, "answer": answer}))


class Lecturer:
    def __init__(self, args, run: Run):
        self.args, self.run = args, run
        self.ws = None
        self.answered: dict[str, int] = {}
        self.reveals: dict[str, dict] = {}
        self.changed = asyncio.Event()

    async def connect(self, url: str, code: str, key: str) -> None:
        self.ws = await websockets.connect(url, open_timeout=self.args.timeout, max_size=2**20)
        await self.ws.send(json.dumps({"type": "hello", "code": code, "key": key}))
        welcome = json.loads(await asyncio.wait_for(self.ws.recv(), self.args.timeout))
        if welcome.get("role") != "lecturer":
            raise SystemExit(f"class: the lecturer was not admitted: {welcome}")

    async def read(self) -> None:
        try:
            async for text in self.ws:
                msg = json.loads(text)
                if msg["type"] == "ping":
                    await self.ws.send('{"type": "pong"}')
                elif msg["type"] == "answered":
                    self.answered[msg["qid"]] = msg["n"]
                elif msg["type"] == "reveal":
                    self.reveals[msg["qid"]] = msg
                elif msg["type"] in ("error", "refused"):
                    self.run.error(f"lecturer: {msg}")
                elif msg["type"] == "ended":
                    return
                self.changed.set()
        except websockets.ConnectionClosed as exc:
            self.run.error(f"lecturer: connection closed: {exc}")

    async def until(self, test, timeout: float) -> bool:
        deadline = time.monotonic() + timeout
        while not test():
            self.changed.clear()
            left = deadline - time.monotonic()
            if left <= 0:
                return False
            try:
                await asyncio.wait_for(self.changed.wait(), left)
            except asyncio.TimeoutError:
                return test()
        return True

    async def step(self, position: int) -> None:
        msg = {"type": "state", "page": "perceptron", "query": self.run.query, "run": self.run.run_id,
               "position": position, "playing": False, "asking": None}
        self.run.sent_wall[position] = time.time()
        self.run.sent[position] = time.perf_counter()
        await self.ws.send(json.dumps(msg))

    async def ask(self, qid: str, position: int, n_students: int) -> dict | None:
        await self.ws.send(json.dumps({"type": "open", "qid": qid, "round": position, "page": "perceptron",
                                       "text": f"A mistake at round {position}?", "choices": CHOICES}))
        if not await self.until(lambda: self.answered.get(qid, 0) >= n_students, self.args.timeout):
            self.run.error(f"question {qid}: {self.answered.get(qid, 0)} of {n_students} answered in time")
        await asyncio.sleep(0.6)                  # the last changed answers (≤ 0.3 s after the first)
        await self.ws.send(json.dumps({"type": "reveal", "qid": qid, "correct": "yes"}))
        if not await self.until(lambda: qid in self.reveals, self.args.timeout):
            self.run.error(f"question {qid}: no reveal")
            return None
        return self.reveals[qid]


#: In the browser student's page: stamp every change of the viewer's drawn round (data-position).
WATCH_JS = """() => {
  const v = document.querySelector('.olc-viewer');
  window.__olcDrawn = [];
  new MutationObserver(() => window.__olcDrawn.push(
      [Number(v.dataset.position), performance.timeOrigin + performance.now(), Date.now()]))
    .observe(v, {attributes: true, attributeFilter: ['data-position']});
  const m = v.olcViewer.modes.find(m => m && m.link && m.o);
  const q = new URLSearchParams(m && typeof m.o.query === 'string' ? m.o.query : location.search);
  for (const k of ['t', 'class', 'present', 'hide']) q.delete(k);
  return {run: String(v.olcViewer.runId), query: q.toString(), role: m ? m.link.role : null};
}"""


class BrowserStudent:
    """One real Chromium student (Playwright's async API, the system Chromium) on the join link."""

    def __init__(self, args, run: Run):
        self.args, self.run = args, run
        self.pw = self.browser = self.page = None

    async def join(self, page_url: str) -> None:
        from playwright.async_api import async_playwright
        from stbrowser import launch_kwargs

        self.pw = await async_playwright().start()
        self.browser = await self.pw.chromium.launch(**launch_kwargs())
        self.page = await self.browser.new_page(viewport={"width": 1280, "height": 900})
        self.page.on("pageerror", lambda exc: self.run.error(f"browser: uncaught: {exc}"))
        await self.page.goto(page_url)
        await self.page.wait_for_selector('.olc-viewer[data-ready="true"] .olc-class[data-connected="true"]',
                                          timeout=120_000)
        got = await self.page.evaluate(WATCH_JS)
        if got.get("role") != "student":
            self.run.error(f"browser: joined as {got.get('role')}")
        self.run.run_id, self.run.query = got["run"], got["query"]   # the lecturer steps the browser's run

    async def lags(self) -> tuple[list[float], float]:
        """Per step the send → drawn time (s), and the largest |Date.now() − timeOrigin-based| stamp (ms)."""
        drawn = await self.page.evaluate("() => window.__olcDrawn")
        first: dict[int, float] = {}
        skew = 0.0
        for pos, at, now in drawn:
            first.setdefault(int(pos), at)
            skew = max(skew, abs(now - at))
        out = [first[p] / 1000 - t0 for p, t0 in self.run.sent_wall.items() if p in first]
        if len(out) < len(self.run.sent_wall):
            self.run.error(f"browser: {len(self.run.sent_wall) - len(out)} steps never drawn")
        return out, skew

    async def close(self) -> None:
        if self.browser is not None:
            await self.browser.close()
        if self.pw is not None:
            await self.pw.stop()


async def session(args, ws_url: str, code: str, key: str) -> dict:
    run = Run()
    lec = Lecturer(args, run)
    await lec.connect(ws_url, code, key)
    browser = BrowserStudent(args, run) if args.browser else None
    if browser is not None:
        await browser.join(f"{args.url.rstrip('/')}/perceptron?class={code}")
    readers = [asyncio.ensure_future(lec.read())]
    students = [Student(i, args, run) for i in range(args.students)]
    for k in range(0, len(students), 25):         # arrive in batches (a hall scanning the QR code)
        got = await asyncio.gather(*(s.connect(ws_url, code) for s in students[k:k + 25]), return_exceptions=True)
        for s, g in zip(students[k:k + 25], got):
            if isinstance(g, BaseException):
                run.error(f"student {s.i}: could not join: {type(g).__name__}: {g}")
    joined = [s for s in students if s.ws is not None and s.ws.state.name == "OPEN"]
    readers += [asyncio.ensure_future(s.read()) for s in joined]
    ask_at = {round((q + 0.5) * args.steps / args.questions) for q in range(args.questions)}
    lost = 0
    for p in range(1, args.steps + 1):
        await lec.step(p)
        await asyncio.sleep(args.interval)
        if p in ask_at:
            qid = f"q{p}"
            reveal = await lec.ask(qid, p, len(joined))
            want = {c["id"]: 0 for c in CHOICES}
            for s in joined:
                if qid in s.answers:
                    want[s.answers[qid]] += 1
            got = (reveal or {}).get("counts", {})
            lost += sum(max(0, n - got.get(c, 0)) for c, n in want.items())
    await asyncio.sleep(min(args.timeout, 2.0))   # the last step's stragglers
    await lec.ws.send(json.dumps({"type": "end"}))
    await asyncio.wait(readers, timeout=args.timeout)
    lags, missing = [], 0
    for s in joined:
        for p, t0 in run.sent.items():
            if p in s.got:
                lags.append(s.got[p] - t0)
            else:
                missing += 1
    if missing:
        run.error(f"{missing} steps never reached a student")
    for s in joined + [lec]:
        await s.ws.close()
    drawn, skew = (await browser.lags()) if browser is not None else (None, None)
    if browser is not None:
        await browser.close()
    return {"run": run, "lags": lags, "lost": lost, "joined": len(joined), "missing": missing, "drawn": drawn,
            "skew_ms": skew}


def parse_args(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--class", dest="klass", action="store_true", help="(bench/load.py's switch; implied here)")
    ap.add_argument("--students", type=int, default=None, help="students (websocket clients); default 100")
    ap.add_argument("--url", help="a running server or serve.sh's nginx (loopback only); default: start one")
    ap.add_argument("--seed", help="CODE:KEY the server at --url was started with (OLC_CLASS_SEED)")
    ap.add_argument("--steps", type=int, default=50, help="lecturer's steps (default 50)")
    ap.add_argument("--questions", type=int, default=5, help="questions opened among the steps (default 5)")
    ap.add_argument("--interval", type=float, default=0.4, help="seconds between the lecturer's steps")
    ap.add_argument("--timeout", type=float, default=20.0, help="seconds an expected message may take")
    ap.add_argument("--browser", action="store_true",
                    help="one real Chromium student besides the simulated ones: the lag to the round drawn")
    ap.add_argument("--smoke", action="store_true", help="a tiny run (CI): 4 students, 6 steps, 2 questions")
    ap.add_argument("--chaos", action="store_true",
                    help="through serve.sh 2 (started here): the lecturer's process killed while question 1 is open, "
                         "the redis-server restarted while question 2 is; bench/class_chaos.py")
    args = ap.parse_args(argv)
    if args.smoke:
        args.students = args.students or 4
        args.steps, args.questions, args.interval = 6, 2, 0.05
    args.students = 100 if args.students is None else args.students
    if args.students < 1 or args.steps < 1 or not 0 <= args.questions <= args.steps:
        ap.error("--students and --steps must be at least 1, --questions at most --steps")
    if args.url and not args.seed:
        ap.error("--url needs --seed CODE:KEY (the OLC_CLASS_SEED the server was started with)")
    return args


def report(args, res: dict, where: str) -> None:
    run, lags = res["run"], res["lags"]
    ms = lambda x: "–" if x is None else f"{1000 * x:.0f}"   # noqa: E731
    print(f"\n{args.students} students ({res['joined']} joined) on {where}; {args.steps} steps every "
          f"{args.interval:g} s, {args.questions} questions")
    print(f"lag lecturer send → student receipt: n={len(lags)} median {ms(percentile(lags, 50))} ms, "
          f"p95 {ms(percentile(lags, 95))} ms, max {ms(max(lags) if lags else None)} ms")
    if len(run.upstreams) > 1 or "direct" not in run.upstreams:
        print("students per backend: " + ", ".join(f"{u}: {n}" for u, n in sorted(run.upstreams.items())))
    if res.get("drawn") is not None:
        d = res["drawn"]
        print(f"lag lecturer send → round drawn in Chromium (1 browser student): n={len(d)} median "
              f"{ms(percentile(d, 50))} ms, p95 {ms(percentile(d, 95))} ms, max {ms(max(d) if d else None)} ms "
              f"(page clock vs Date.now(): ≤ {res['skew_ms']:.1f} ms apart)")
    for e in run.errors[:5]:
        print(f"  error: {e}")
    print(f"class: students={args.students} lag_p95_ms={ms(percentile(lags, 95))} "
          f"lag_max_ms={ms(max(lags) if lags else None)} votes_lost={res['lost']} errors={len(run.errors)}")


def main(argv=None) -> int:
    args = parse_args(argv)
    if args.chaos:
        if args.url or args.browser:
            raise SystemExit("--chaos starts its own serve.sh 2: no --url, no --browser")
        import class_chaos
        return class_chaos.main(args)
    server = None
    if args.url is None:
        from stbrowser import StreamlitServer

        code, key = codes.new_code(), codes.new_key()
        os.environ["OLC_CLASS_SEED"] = f"{code}:{key}"
        os.environ.pop("OLC_REDIS_URL", None)          # one process: its in-memory store
        server = StreamlitServer(ROOT / "app.py", cwd=ROOT).start()
        args.url = server.url
    else:
        code, _, key = args.seed.partition(":")
    host, port = check_loopback(args.url)
    base = args.url.split("://", 1)[1].split("/", 1)[1] if "/" in args.url.split("://", 1)[1] else ""
    ws_url = f"ws://{host}:{port}/{base.strip('/') + '/' if base.strip('/') else ''}olc-class/ws"
    try:
        res = asyncio.run(session(args, ws_url, code, key))
    finally:
        if server is not None:
            server.stop()
    report(args, res, ws_url + (" (a server started here)" if server else ""))
    return 0 if res["lags"] else 1


if __name__ == "__main__":
    sys.exit(main())
