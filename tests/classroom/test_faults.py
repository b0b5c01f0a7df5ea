"""Faults in the middle of a lecture, at the hub and the store (docs/class-session.md, issue 34 §3): a redis-server of
the test's own, killed and started again mid-session.

- With its append-only file (as scripts/serve.sh runs it): the session comes back as it was; the connections that
  stayed open are welcomed again (the store's subscription came back: what was published meanwhile never came) with the
  lecturer's state, the open question and the student's vote; the lecturer's next state reaches the student.
- Without persistence: every client is told plainly that the session ended (``ended``, why: lost), never left
  following nothing; a client that comes back to it (its key, its student id) is told the same.
- While Redis is down, a message that needs it closes the connection without an ``error`` (the browser reconnects).
"""
from __future__ import annotations

import asyncio
import signal
import subprocess
import time

import pytest
import redis

from olc_ui.classroom import store as st
from olc_ui.classroom.redis_store import RedisStore
from olc_ui.classroom.store import Limits
from tests.classroom.conftest import REDIS_SERVER, WS, free_port
from tests.classroom.test_hub import OPEN, STATE
from tests.conftest import run_async


class OwnRedis:
    """A redis-server on a fixed port and directory that a test stops and starts again: SIGTERM (a restart: Redis
    writes and fsyncs its append-only file as it stops) or SIGKILL (``hard``: Redis down at once)."""

    def __init__(self, tmp_path, aof: bool):
        self.port, self.dir, self.aof = free_port(), tmp_path, aof
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.proc = None

    def start(self):
        persist = ["--appendonly", "yes", "--appendfsync", "everysec"] if self.aof else ["--appendonly", "no"]
        self.proc = subprocess.Popen([REDIS_SERVER, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
                                      "--dir", str(self.dir), *persist], stdout=subprocess.DEVNULL,
                                     stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 20
        while True:
            try:
                redis.Redis.from_url(self.url).ping()
                return
            except (redis.exceptions.ConnectionError, redis.exceptions.BusyLoadingError):
                assert time.monotonic() < deadline and self.proc.poll() is None, "redis-server did not start"
                time.sleep(0.05)

    def kill(self, hard: bool = True):
        self.proc.send_signal(signal.SIGKILL if hard else signal.SIGTERM)
        self.proc.wait(10)

    def stop(self):
        if self.proc is not None and self.proc.poll() is None:
            self.kill()


@pytest.fixture
def own_redis(tmp_path):
    if REDIS_SERVER is None:
        pytest.skip("redis-server is not installed (Debian: apt-get install -y redis-server)")
    made = []

    def make(aof: bool) -> OwnRedis:
        r = OwnRedis(tmp_path, aof)
        r.start()
        made.append(r)
        return r
    yield make
    for r in made:
        r.stop()


def _restart(r: OwnRedis, down_s: float) -> None:
    r.kill(hard=not r.aof)
    time.sleep(down_s)
    r.start()


async def _in_thread(fn, *args):
    return await asyncio.get_running_loop().run_in_executor(None, fn, *args)


def _session(own_redis, aof: bool, beat_s: float):
    """A redis-server of the test's own (with or without its append-only file), a store on it and a class session in
    it: (the server, the store, the code, the lecturer's key)."""
    r = own_redis(aof=aof)
    store = RedisStore(r.url, Limits(beat_s=beat_s))
    return (r, store, *store.create("perceptron", ""))


def _run(serve, store, go) -> None:
    """``go(url)`` against a hub on ``store``, within 60 s."""
    with serve(store) as srv:
        run_async(asyncio.wait_for(go(srv.url), 60))


async def joined(lec, stu, code: str, key: str) -> str:
    """The lecturer and a student join session ``code``, the lecturer's state reaches the student: the student's id."""
    assert (await lec.hello(code, key=key))["role"] == "lecturer"
    sid = (await stu.hello(code))["sid"]
    await lec.send(STATE)
    await stu.expect("state")
    return sid


async def open_and_vote(lec, stu, answer: str, question: dict) -> None:
    """The lecturer opens ``question`` (its qid), the student answers it and is told the vote was taken."""
    await lec.send(question)
    await stu.expect("question")
    await stu.send({"type": "vote", "qid": question["qid"], "answer": answer})
    await stu.expect("voted")


def test_a_redis_restart_with_its_append_only_file_keeps_the_session(own_redis, serve):
    r, store, code, key = _session(own_redis, aof=True, beat_s=0.5)

    async def go(url):
        async with WS(url, pong=True) as lec, WS(url, pong=True) as stu:
            sid = await joined(lec, stu, code, key)
            await open_and_vote(lec, stu, "right", OPEN)
            await lec.expect("answered")
            await _in_thread(_restart, r, 1.0)
            again = await stu.expect("welcome", timeout=15)       # welcomed again, nothing lost
            assert again["sid"] == sid and again["state"]["position"] == 7
            assert again["question"]["qid"] == "q1" and again["question"]["mine"] == "right"
            assert (await lec.expect("welcome", timeout=15))["question"]["answered"] == 1
            await lec.send({**STATE, "position": 8})
            assert (await stu.expect("state", timeout=10))["position"] == 8
    _run(serve, store, go)
    assert store.lookup(code) == "ok"
    store.close()


def test_a_redis_restart_without_persistence_says_the_session_ended(own_redis, serve):
    r, store, code, key = _session(own_redis, aof=False, beat_s=0.5)

    async def go(url):
        async with WS(url, pong=True) as lec, WS(url, pong=True) as stu:
            sid = await joined(lec, stu, code, key)
            await _in_thread(_restart, r, 0.5)
            for ws in (lec, stu):
                assert (await ws.expect("ended", timeout=15))["why"] == st.LOST
                assert await ws.closed()
        for hello in ({"key": key}, {"sid": sid}):          # coming back to it: told the same, plainly
            async with WS(url) as back:
                got = await back.hello(code, **hello)
                assert got == {"type": "ended", "why": st.LOST} and await back.closed()
        async with WS(url) as stranger:                     # a code never seen: the usual error
            assert (await stranger.hello(code))["type"] == "error"
    _run(serve, store, go)
    store.close()


def test_redis_down_closes_the_connection_without_an_error(own_redis, serve):
    r, store, code, key = _session(own_redis, aof=True, beat_s=30)

    async def go(url):
        async with WS(url) as lec:
            assert (await lec.hello(code, key=key))["role"] == "lecturer"
            await _in_thread(r.kill)
            await lec.send(STATE)
            got = []
            with pytest.raises(Exception):
                while True:
                    got.append(await lec.recv(10))
            assert [m for m in got if m["type"] == "error"] == []
        async with WS(url) as again:                     # a hello while down: closed, no error either
            await again.send({"type": "hello", "code": code, "key": key})
            assert await again.closed(10)
        await _in_thread(r.start)
        async with WS(url) as back:                      # back up: welcomed, as the session was
            assert (await back.hello(code, key=key))["role"] == "lecturer"
    _run(serve, store, go)
    store.close()
