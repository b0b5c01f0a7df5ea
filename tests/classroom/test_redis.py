"""Past one process: two RedisStore objects on one redis-server stand for two Streamlit processes. A session
made through one is seen by the other, a lecturer connected to one drives a student connected to the other
(pub/sub), and a store made afresh (a restarted process) still has every session."""
from __future__ import annotations

import asyncio

from olc_ui.classroom.redis_store import RedisStore
from olc_ui.classroom.store import Limits
from tests.classroom.conftest import WS
from tests.classroom.test_hub import OPEN, STATE
from tests.conftest import run_async


def test_a_second_process_sees_the_session_and_gets_the_push(redis_url, serve):
    a, b = RedisStore(redis_url, Limits()), RedisStore(redis_url, Limits())
    code, key = a.create("perceptron", "gamma=0.1")
    assert b.lookup(code) == "ok" and b.check_key(code, key)

    async def go(url_a, url_b):
        async with WS(url_a) as lec, WS(url_b) as s_b, WS(url_a) as s_a:
            assert (await lec.hello(code, key=key))["role"] == "lecturer"
            sid = (await s_b.hello(code))["sid"]
            await s_a.hello(code)
            assert (await lec.expect("joined"))["n"] in (1, 2)
            await lec.send(STATE)
            assert (await s_b.expect("state"))["position"] == 7          # across processes, through Redis
            await lec.send(OPEN)
            await s_b.expect("question")
            await s_b.send({"type": "vote", "qid": "q1", "answer": "right"})
            got = await lec.expect("answered")
            assert (got["n"], got["joined"]) == (1, 2)
            await lec.send({"type": "reveal", "qid": "q1", "correct": "right"})
            assert (await s_a.expect("reveal"))["counts"] == {"left": 0, "right": 1}
            await lec.send({"type": "end"})
            assert (await s_b.expect("ended"))["why"] == "the lecturer ended the session"
            return sid
    with serve(a) as srv_a, serve(b) as srv_b:
        run_async(asyncio.wait_for(go(srv_a.url, srv_b.url), 30))
    assert a.lookup(code) == b.lookup(code) == "expired"


def test_a_restarted_process_loses_no_session(redis_url, serve):
    first = RedisStore(redis_url, Limits())
    code, key = first.create("perceptron", "")
    sid, _, _ = first.join(code, None)
    first.set_state(code, {"page": "perceptron", "query": "", "run": "r", "position": 5, "playing": False,
                           "asking": None})
    first.open_question(code, {k: v for k, v in OPEN.items() if k != "type"})
    first.vote(code, sid, "q1", "left")
    first.close()
    again = RedisStore(redis_url, Limits())                   # the process came back: nothing in memory

    async def go(url):
        async with WS(url) as back, WS(url) as lec:
            w = await back.hello(code, sid=sid)
            assert w["sid"] == sid and w["state"]["position"] == 5 and w["question"]["mine"] == "left"
            assert (await lec.hello(code, key=key))["role"] == "lecturer"
    with serve(again) as srv:
        run_async(go(srv.url))


def test_an_idle_session_expires_in_redis_by_itself(redis_url):
    s = RedisStore(redis_url, Limits(idle_s=0.5))
    code, _ = s.create("perceptron", "")
    ttl = s.r.pttl(f"olc:class:s:{code}")
    assert 0 < ttl <= 500
    run_async(asyncio.sleep(0.7))
    assert s.lookup(code) == "expired"
