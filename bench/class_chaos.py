#!/usr/bin/env python3
"""``bench/load.py --class --students N --chaos``: a class session through faults (issue 34 §3; docs/load.md).

Starts ``scripts/serve.sh 2`` (nginx, two Streamlit processes, its redis-server with its append-only file) with a session
of its own (OLC_CLASS_SEED), then one lecturer and N students, websocket clients of ``/olc-class/ws`` through nginx,
each with a route cookie of its own (so they spread over both processes, as browsers do, and each keeps its process).
Each client does what viewer_class.js does: answers ``ping``, reconnects after a close with a back-off (0.5 s … 5 s)
saying hello again with its key or student id; a student whose welcome lacks the answer it gave sends it again; the
lecturer sends its state again on each welcome.

The run: the lecturer steps; question 1 opens, every student answers, then **the lecturer's process is killed**
(SIGKILL: the lecturer and the students on it reconnect through nginx to the other process; serve.sh starts it again);
once they are welcomed again the question is revealed (its counts against the students' answers: votes lost). More
steps; question 2 opens, every student answers, then **the redis-server is restarted** (SIGTERM; serve.sh starts it
again from its append-only file: every connection is welcomed again, or reconnects); question 2 is revealed. Last, more
steps: a student that does not reach the lecturer's last round is lost after the faults.

Last line: ``class: students=N lag_p95_ms=… lag_max_ms=… votes_lost=… errors=… reconnected=R/F lost_after_fault=L``
(F: the clients a fault cut off — closed, or welcomed again by the hub —, R: those welcomed again within 30 s; the lag
counts the steps received live; errors: ``error``/``refused`` messages, a client that could not join, a question not
answered in time). The line before: per fault, the time from the fault to each cut-off client's new welcome.
"""
from __future__ import annotations

import asyncio
import json
import os
import re
import secrets
import signal
import subprocess
import sys
import time
from pathlib import Path

import websockets

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))
from load_class import CHOICES, Run, percentile  # noqa: E402
from olc_ui.classroom import codes  # noqa: E402

#: how long clients cut off by a fault have to be welcomed again
RECONNECT_WINDOW_S = 30.0
BACKOFF_S = (0.5, 5.0)


class Client:
    """A class client through nginx with a route cookie of its own, reconnecting as viewer_class.js does."""

    def __init__(self, name: str, ws_url: str, hello: dict, run: Run, args):
        self.name, self.ws_url, self.hello, self.run, self.args = name, ws_url, dict(hello), run, args
        self.cookie = f"olc_route={secrets.token_hex(8)}"
        self.ws = None
        self.upstream = None
        self.welcomes: list[float] = []          # monotonic times of each welcome
        self.closes: list[float] = []            # monotonic times of each lost connection
        self.welcome_msg: dict | None = None
        self.done = False
        self.task = None
        self.first = asyncio.get_running_loop().create_future()

    def start(self):
        self.task = asyncio.ensure_future(self._run())

    async def _run(self):
        delay = BACKOFF_S[0]
        while not self.done:
            try:
                async with websockets.connect(self.ws_url, additional_headers={"Cookie": self.cookie},
                                              open_timeout=self.args.timeout, max_size=2**20, close_timeout=1) as ws:
                    self.upstream = ws.response.headers.get("X-Olc-Upstream", "direct")
                    await ws.send(json.dumps(self.hello))
                    self.ws = ws
                    async for text in ws:
                        msg = json.loads(text)
                        kind = msg.get("type")
                        if kind == "ping":
                            await ws.send('{"type": "pong"}')
                            continue
                        if kind == "welcome":
                            delay = BACKOFF_S[0]
                            self.welcomes.append(time.monotonic())
                            self.welcome_msg = msg
                            if msg.get("sid"):
                                self.hello["sid"] = msg["sid"]
                            if not self.first.done():
                                self.first.set_result(True)
                        elif kind in ("error", "refused"):
                            self.run.error(f"{self.name}: {msg}")
                        elif kind == "ended":
                            self.done = True
                        await self.on(kind, msg)
            except (OSError, asyncio.TimeoutError, websockets.WebSocketException):
                pass
            self.ws = None
            if self.done:
                return
            self.closes.append(time.monotonic())
            await asyncio.sleep(delay)
            delay = min(BACKOFF_S[1], delay * 2)

    async def send(self, msg: dict) -> bool:
        ws = self.ws
        if ws is None:
            return False
        try:
            await ws.send(json.dumps(msg))
            return True
        except websockets.WebSocketException:
            return False

    async def on(self, kind: str, msg: dict) -> None:
        pass

    async def stop(self):
        self.done = True
        if self.ws is not None:
            await self.ws.close()
        self.task.cancel()


class ChaosStudent(Client):
    def __init__(self, i, ws_url, code, run, args):
        super().__init__(f"student {i}", ws_url, {"type": "hello", "code": code}, run, args)
        self.i = i
        self.got: dict[int, float] = {}
        self.at = 0                               # the lecturer's round this student shows
        self.answers: dict[str, str] = {}

    async def on(self, kind, msg):
        if kind == "state":
            self.got.setdefault(msg["position"], time.perf_counter())
            self.at = msg["position"]
        elif kind == "welcome":
            if msg.get("state"):
                self.at = msg["state"]["position"]
            q = msg.get("question")
            mine = self.answers.get(q["qid"]) if q else None
            if mine is not None and q.get("mine") != mine:     # as viewer_class_answers.js: the lost answer again
                await self.send({"type": "vote", "qid": q["qid"], "answer": mine})
        elif kind == "question":
            answer = CHOICES[(self.i + len(self.answers)) % 2]["id"]
            self.answers[msg["qid"]] = answer
            await self.send({"type": "vote", "qid": msg["qid"], "answer": answer})


class ChaosLecturer(Client):
    def __init__(self, ws_url, code, key, run, args):
        super().__init__("lecturer", ws_url, {"type": "hello", "code": code, "key": key}, run, args)
        self.state: dict | None = None
        self.answered: dict[str, int] = {}
        self.reveals: dict[str, dict] = {}

    async def on(self, kind, msg):
        if kind == "welcome" and self.state is not None:
            await self.send(self.state)              # as viewer_class.js: its state again on each welcome
        elif kind == "answered":
            self.answered[msg["qid"]] = msg["n"]
        elif kind == "reveal":
            self.reveals[msg["qid"]] = msg

    async def step(self, position: int):
        self.state = {"type": "state", "page": "perceptron", "query": self.run.query, "run": self.run.run_id,
                      "position": position, "playing": False, "asking": None}
        self.run.sent[position] = time.perf_counter()
        await self.send(self.state)

    async def until(self, test, timeout: float) -> bool:
        deadline = time.monotonic() + timeout
        while not test():
            if time.monotonic() > deadline:
                return False
            await asyncio.sleep(0.05)
        return True

    async def must_send(self, msg: dict, timeout: float) -> bool:
        deadline = time.monotonic() + timeout
        while not await self.send(msg):
            if time.monotonic() > deadline:
                return False
            await asyncio.sleep(0.1)
        return True


class Serve:
    """scripts/serve.sh 2 on free ports, with OLC_CLASS_SEED."""

    def __init__(self, seed: str):
        from tests.ui.test_serve_script import _base_port   # the free-port search the serve tests use
        import pytest  # noqa: F401 - _base_port's skip is pytest's
        self.port = _base_port(2)
        env = dict(os.environ, OLC_CLASS_SEED=seed, OLC_PYTHON=sys.executable)
        env.pop("OLC_REDIS_URL", None)
        self.proc = subprocess.Popen(["bash", str(ROOT / "scripts" / "serve.sh"), "2", "--port", str(self.port)],
                                     cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                                     start_new_session=True)
        self.log: list[str] = []
        line, deadline = "", time.monotonic() + 180
        while time.monotonic() < deadline and self.proc.poll() is None:
            line = self.proc.stdout.readline()
            self.log.append(line)
            m = re.search(r"\(PID (\d+)\)", line)
            if line.startswith("serve: redis-server") and m:
                self.redis_pid = int(m.group(1))
            if line.startswith("serve: http"):
                break
        m = re.search(r"run dir (\S+)\)", line)
        if not m:
            self.stop()
            raise SystemExit("class --chaos: serve.sh did not come up:\n" + "".join(self.log[-20:]))
        self.run_dir = Path(m.group(1))
        self.url = f"http://127.0.0.1:{self.port}"

    def pid_on(self, port: int) -> int:
        return [int(x) for x in (self.run_dir / "pids").read_text().split()][port - self.port - 1]

    def stop(self):
        if self.proc.poll() is None:
            os.kill(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(30)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)


def _back(c, t0: float) -> float | None:
    """When ``c`` was welcomed again after the fault at t0 (after its last lost connection since), or None."""
    closes = [t for t in c.closes if t >= t0]
    later = [t for t in c.welcomes if t > t0 and all(t > x for x in closes)]
    return later[0] if later and c.ws is not None else None


async def _after_fault(clients, t0: float, expected: list) -> tuple[list, list[float]]:
    """Wait (at most RECONNECT_WINDOW_S) until every client the fault at t0 cut off — ``expected`` (on the killed
    process; every client for Redis, which the hub welcomes again) and any whose connection was lost since — is
    welcomed again. Returns (the cut-off clients, their times from the fault to the new welcome)."""
    def cut():
        return list(set(expected) | {c for c in clients if any(t >= t0 for t in c.closes)})
    while time.monotonic() < t0 + RECONNECT_WINDOW_S:
        await asyncio.sleep(0.2)
        if time.monotonic() - t0 > 1.5 and all(_back(c, t0) is not None for c in cut()):
            break
    hit = cut()
    return hit, [b - t0 for b in (_back(c, t0) for c in hit) if b is not None]


async def chaos_session(args, srv: Serve, code: str, key: str) -> dict:
    run = Run()
    ws_url = srv.url.replace("http://", "ws://") + "/olc-class/ws"
    lec = ChaosLecturer(ws_url, code, key, run, args)
    lec.start()
    await asyncio.wait_for(lec.first, args.timeout)
    students = [ChaosStudent(i, ws_url, code, run, args) for i in range(args.students)]
    for k in range(0, len(students), 25):
        for s in students[k:k + 25]:
            s.start()
        done, _ = await asyncio.wait([s.first for s in students[k:k + 25]], timeout=args.timeout)
    joined = [s for s in students if s.first.done()]
    for s in students:
        if not s.first.done():
            run.error(f"{s.name}: could not join")
    for c in joined:
        run.upstreams[c.upstream] = run.upstreams.get(c.upstream, 0) + 1
    everyone = joined + [lec]
    steps, p = args.steps, 0
    faults, votes_lost, cut_all, back_all = [], 0, set(), set()

    async def walk(n):
        nonlocal p
        for _ in range(n):
            p += 1
            await lec.step(p)
            await asyncio.sleep(args.interval)

    async def question(qid, fault):
        nonlocal votes_lost
        await lec.must_send({"type": "open", "qid": qid, "round": p, "page": "perceptron",
                             "text": f"A mistake at round {p}?", "choices": CHOICES}, args.timeout)
        if not await lec.until(lambda: lec.answered.get(qid, 0) >= len(joined), args.timeout):
            run.error(f"question {qid}: {lec.answered.get(qid, 0)} of {len(joined)} answered in time")
        name, t0, expected = fault()
        hit, times = await _after_fault(everyone, t0, expected)
        back = [c for c in hit if _back(c, t0) is not None]
        cut_all.update(hit)
        back_all.update(back)
        faults.append((name, len(hit), len(back), times))
        await lec.must_send({"type": "reveal", "qid": qid, "correct": "yes"}, args.timeout)
        if not await lec.until(lambda: qid in lec.reveals, args.timeout):
            run.error(f"question {qid}: no reveal")
            return
        want = {c["id"]: 0 for c in CHOICES}
        for s in joined:
            if qid in s.answers:
                want[s.answers[qid]] += 1
        got = lec.reveals[qid]["counts"]
        votes_lost += sum(max(0, n - got.get(c, 0)) for c, n in want.items())

    def kill_lecturers_process():
        port = int(lec.upstream.rsplit(":", 1)[1])
        pid = srv.pid_on(port)
        t0 = time.monotonic()
        os.kill(pid, signal.SIGKILL)
        return f"the lecturer's process (port {port}) killed", t0, [c for c in everyone if c.upstream == lec.upstream]

    def restart_redis():
        t0 = time.monotonic()
        os.kill(srv.redis_pid, signal.SIGTERM)
        return "the redis-server restarted", t0, list(everyone)

    await walk(max(1, steps // 3))
    await question("q1", kill_lecturers_process)
    await walk(max(1, steps // 3))
    await question("q2", restart_redis)
    await walk(max(1, steps - 2 * (steps // 3)))
    last = p
    await asyncio.sleep(min(args.timeout, 3.0))
    lost = [s for s in joined if s.at != last]
    lags = [s.got[q] - t for s in joined for q, t in run.sent.items() if q in s.got]
    await lec.must_send({"type": "end"}, args.timeout)
    await asyncio.sleep(0.5)
    for c in everyone:
        await c.stop()
    return {"run": run, "lags": lags, "lost": votes_lost, "joined": len(joined), "faults": faults,
            "reconnected": len(back_all), "cut": len(cut_all), "lost_after_fault": len(lost)}


def main(args) -> int:
    code, key = codes.new_code(), codes.new_key()
    srv = Serve(f"{code}:{key}")
    try:
        res = asyncio.run(chaos_session(args, srv, code, key))
    finally:
        srv.stop()
    run, lags = res["run"], res["lags"]
    ms = lambda x: "–" if x is None else f"{1000 * x:.0f}"   # noqa: E731
    print(f"\n{args.students} students ({res['joined']} joined) through serve.sh 2's nginx ({srv.url}); "
          f"{args.steps} steps every {args.interval:g} s, 2 questions, 2 faults")
    print("students per backend (at the start): " + ", ".join(f"{u}: {n}" for u, n in sorted(run.upstreams.items())))
    print(f"lag lecturer send → student receipt (live): n={len(lags)} median {ms(percentile(lags, 50))} ms, "
          f"p95 {ms(percentile(lags, 95))} ms, max {ms(max(lags) if lags else None)} ms")
    for e in run.errors[:5]:
        print(f"  error: {e}")
    for name, cut, back, times in res["faults"]:
        print(f"fault: {name}: {back} of {cut} clients cut off welcomed again; fault → welcome median "
              f"{percentile(times, 50) or 0:.2f} s, max {max(times) if times else 0:.2f} s")
    print(f"class: students={args.students} lag_p95_ms={ms(percentile(lags, 95))} "
          f"lag_max_ms={ms(max(lags) if lags else None)} votes_lost={res['lost']} errors={len(run.errors)} "
          f"reconnected={res['reconnected']}/{res['cut']} lost_after_fault={res['lost_after_fault']}")
    return 0 if lags else 1
