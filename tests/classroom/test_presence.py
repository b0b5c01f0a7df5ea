"""The heartbeat over a real websocket, both backends (issue 32 §7: "3 of 7 answered" with 3 students): the hub
pings every connection each beat; ``joined`` and ``answered`` count the students whose connections are alive — a
closed tab at once, a socket that never answers (a raw client, a frozen phone) after SILENT_BEATS beats — and a
second tab of one student (the same id) counts once."""
from __future__ import annotations

import asyncio
import time

from olc_ui.classroom.store import SILENT_BEATS
from tests.classroom.conftest import WS, stuck_client
from tests.classroom.test_hub import OPEN
from tests.conftest import run_async

BEAT = 0.2


async def until_joined(c: WS, n: int, timeout: float) -> float:
    """Read ``c`` until a ``joined`` with ``n`` arrives; the seconds it took."""
    t0 = time.monotonic()
    while True:
        msg = await c.expect("joined", max(0.05, timeout - (time.monotonic() - t0)))
        if msg["n"] == n:
            return time.monotonic() - t0


def test_only_live_connections_are_counted(make_store, serve):
    store = make_store(beat_s=BEAT)
    code, key = store.create("perceptron", "")

    async def go(url):
        async with WS(url, pong=True) as lec, WS(url, pong=True) as s1, WS(url, pong=True) as s2, \
                WS(url) as mute:
            await lec.hello(code, key=key)
            sid1 = (await s1.hello(code))["sid"]
            w = await s2.hello(code)
            assert w["beat"] == BEAT                                 # the browser's watchdog reads it
            await mute.hello(code)                                   # reads, never answers a ping
            raw = stuck_client(url, {"type": "hello", "code": code})   # never reads, never answers
            try:
                await until_joined(lec, 4, 3)
                async with WS(url, pong=True) as tab2:               # s1's second tab: the same student
                    assert (await tab2.hello(code, sid=sid1))["joined"] == 4
                assert store.count(code)[0] == 4                     # its close leaves s1 counted
                await lec.send(OPEN)
                await mute.expect("question")
                await s1.send({"type": "vote", "qid": "q1", "answer": "left"})
                await mute.send({"type": "vote", "qid": "q1", "answer": "right"})
                # the two silent sockets drop out after SILENT_BEATS beats, the mute one's vote with it
                took = await until_joined(lec, 2, 10 * SILENT_BEATS * BEAT)
                assert took < (SILENT_BEATS + 3) * BEAT + 1.0, took
                assert await mute.closed()
                assert store.count(code) == (2, ("q1", 1))
                await s2.__aexit__(None, None, None)                 # a closed tab: at once
                assert await until_joined(lec, 1, 2) < BEAT + 0.5
                got = await lec.expect("answered")
                assert (got["n"], got["joined"]) == (1, 1)
                await asyncio.sleep(8 * BEAT)                        # s1 answers every ping: it stays
                assert store.count(code) == (1, ("q1", 1)) and s1.pings >= 4 and lec.pings >= 4
                await lec.send({"type": "reveal", "qid": "q1", "correct": "left"})
                r = await s1.expect("reveal")
                assert (r["counts"], r["answered"], r["joined"]) == ({"left": 1, "right": 0}, 1, 1)
            finally:
                raw.close()
    with serve(store) as srv:
        run_async(asyncio.wait_for(go(srv.url), 60))
