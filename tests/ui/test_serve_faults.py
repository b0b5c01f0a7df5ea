"""scripts/serve.sh under faults (issue 34 §3; docs/class-session.md, "Faults in the middle of a lecture").

``serve.sh 2`` (skipped without nginx or redis-server): a class session with its lecturer on one process and a
student on the other, both through nginx (each browser's route cookie); one process is killed (SIGKILL): its client
reconnects through nginx to the other within 5 s and is welcomed on the lecturer's round with the open question and
its vote; serve.sh starts the killed process again on its port (and says so in $RUN/pids). The redis-server is
stopped (SIGTERM, as a restart does): serve.sh starts it again from its append-only file and the session is as it was.
"""
from __future__ import annotations

import asyncio
import json
import os
import signal
import time
import urllib.request

import pytest
import websockets

from olc_ui.classroom.redis_store import RedisStore
from olc_ui.classroom.store import Limits
from tests.classroom.test_faults import open_and_vote
from tests.conftest import run_async
from tests.ui.test_serve_script import NGINX, REDIS, _alive, _upstream, healthy, served  # noqa: F401 - the fixture

pytestmark = [pytest.mark.skipif(NGINX is None, reason="nginx is not installed (Debian: apt-get install -y nginx)"),
              pytest.mark.skipif(REDIS is None, reason="redis-server is not installed (apt-get install -y redis-server)")]

STATE = {"type": "state", "page": "perceptron", "query": "", "run": "r1", "position": 12, "playing": False,
         "asking": None}
OPEN = {"type": "open", "qid": "q1", "round": 12, "page": "perceptron", "text": "Mistake?",
        "choices": [{"id": "yes", "label": "yes"}, {"id": "no", "label": "no"}]}


def _cookies(url: str, port: int) -> dict[int, str]:
    """A route cookie for each process (its port), as two browsers would get."""
    found: dict[int, str] = {}
    for _ in range(40):
        up, cookie = _upstream(url)
        found.setdefault(int(up.rsplit(":", 1)[1]), cookie)
        if len(found) == 2:
            return found
    pytest.fail(f"nginx sent every browser to one process: {found}")


class Browser:
    """A class client as viewer_class.js is: through nginx with its cookie, answering ping, reconnecting after a
    close with a back-off from 0.5 s, saying hello again with its key or student id."""

    def __init__(self, url: str, cookie: str, hello: dict):
        self.ws_url = url.replace("http://", "ws://") + "/olc-class/ws"
        self.cookie, self.hello = cookie, dict(hello)
        self.inbox: asyncio.Queue = asyncio.Queue()
        self.ws = None
        self.closed_at = None
        self.task = None

    async def start(self):
        self.task = asyncio.ensure_future(self._run())

    async def _run(self):
        delay = 0.5
        while True:
            try:
                async with websockets.connect(self.ws_url, additional_headers={"Cookie": self.cookie},
                                              close_timeout=1) as ws:
                    self.ws = ws
                    await ws.send(json.dumps(self.hello))
                    async for text in ws:
                        msg = json.loads(text)
                        if msg["type"] == "ping":
                            await ws.send('{"type": "pong"}')
                            continue
                        if msg["type"] == "welcome":
                            delay = 0.5
                            if msg.get("sid"):
                                self.hello["sid"] = msg["sid"]
                        self.inbox.put_nowait(msg)
            except (OSError, websockets.WebSocketException):
                pass
            self.ws = None
            if self.closed_at is None:
                self.closed_at = time.monotonic()
            await asyncio.sleep(delay)
            delay = min(5.0, delay * 2)

    async def send(self, msg: dict):
        await self.ws.send(json.dumps(msg))

    async def expect(self, kind: str, timeout: float = 20.0) -> dict:
        deadline = time.monotonic() + timeout
        while True:
            msg = await asyncio.wait_for(self.inbox.get(), max(0.01, deadline - time.monotonic()))
            if msg["type"] == kind:
                return msg

    async def stop(self):
        self.task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await self.task


def _pids(served) -> list[int]:
    return [int(x) for x in (served["run"] / "pids").read_text().split()]


@pytest.mark.parametrize("victim", ["student", "lecturer"])
def test_a_killed_process_its_clients_reconnect_to_the_other(served, victim):
    url, port = served["url"], served["port"]
    cookies = _cookies(url, port)
    store = RedisStore((served["run"] / "redis_url").read_text().strip(), Limits())
    code, key = store.create("perceptron", "")
    lec_port, stu_port = sorted(cookies) if victim == "student" else sorted(cookies)[::-1]
    dead_port = stu_port if victim == "student" else lec_port
    pids = _pids(served)
    dead_pid = pids[dead_port - port - 1]

    async def go():
        lec = Browser(url, cookies[lec_port], {"type": "hello", "code": code, "key": key})
        stu = Browser(url, cookies[stu_port], {"type": "hello", "code": code})
        await lec.start()
        assert (await lec.expect("welcome"))["role"] == "lecturer"
        await stu.start()
        sid = (await stu.expect("welcome"))["sid"]
        await lec.send(STATE)
        await stu.expect("state")
        await open_and_vote(lec, stu, "no", OPEN)
        victim_b = stu if victim == "student" else lec
        killed = time.monotonic()
        await asyncio.get_running_loop().run_in_executor(None, os.kill, dead_pid, 9)
        again = await victim_b.expect("welcome", timeout=15)
        took = time.monotonic() - killed
        assert took < 5.0, f"reconnected after {took:.1f} s"
        assert again["state"]["position"] == 12 and again["question"]["qid"] == "q1"
        assert again["question"]["answered"] == 1
        if victim == "student":
            assert again["sid"] == sid and again["question"]["mine"] == "no"
        await lec.send({**STATE, "position": 13})            # the class goes on
        assert (await stu.expect("state"))["position"] == 13
        await lec.send({"type": "reveal", "qid": "q1", "correct": "no"})
        assert (await stu.expect("reveal"))["counts"] == {"yes": 0, "no": 1}
        for b in (lec, stu):
            await b.stop()
        return took
    took = run_async(asyncio.wait_for(go(), 90))
    print(f"\n{victim}'s process killed: reconnected through nginx in {took:.2f} s")
    store.close()
    deadline = time.monotonic() + 120                        # serve.sh starts it again on its port
    while time.monotonic() < deadline and not (dead_pid not in _pids(served) and healthy(dead_port)):
        time.sleep(0.5)
    assert dead_pid not in _pids(served) and healthy(dead_port) and all(_alive(p) for p in _pids(served))
    assert served["proc"].poll() is None


def test_a_restarted_redis_server_comes_back_with_the_session(served):
    url = (served["run"] / "redis_url").read_text().strip()
    store = RedisStore(url, Limits())
    code, key = store.create("perceptron", "")
    sid, _, _ = store.join(code, None)
    store.set_state(code, {k: v for k, v in STATE.items() if k != "type"})
    store.open_question(code, {k: v for k, v in OPEN.items() if k != "type"})
    store.vote(code, sid, "q1", "yes")
    redis_pid = served["redis"]
    assert redis_pid is not None and _alive(redis_pid)
    os.kill(redis_pid, signal.SIGTERM)          # a restart: Redis writes and fsyncs its append-only file as it stops
    deadline = time.monotonic() + 30
    snap = None
    while time.monotonic() < deadline:
        try:
            snap = store.snapshot(code, sid)
            break
        except Exception:  # noqa: BLE001 - not back yet
            time.sleep(0.2)
    assert snap is not None, "redis-server did not come back"
    assert snap["state"]["position"] == 12 and snap["question"]["qid"] == "q1" and snap["question"]["mine"] == "yes"
    assert store.check_key(code, key) and store.lookup(code) == "ok"
    assert served["proc"].poll() is None
    store.close()
