"""The push endpoint over a real websocket (uvicorn + the hub), both backends: hello/welcome, roles (a student's
lecturer-only messages are refused and change nothing), fan-out, votes, reveal, a returning student catching
up, malformed messages, bad codes, bounds, and the failed-join limit per address."""
from __future__ import annotations

import asyncio
import json

from olc_ui.classroom import hub as hub_mod
from olc_ui.classroom.messages import LECTURER_ONLY, MAX_FRAME
from olc_ui.classroom.store import FAILED_JOINS_PER_WINDOW, GONE_SENTENCE, MALFORMED_SENTENCE, RATE_SENTENCE
from tests.classroom.conftest import WS, stuck_client
from tests.conftest import run_async

STATE = {"type": "state", "page": "perceptron", "query": "gamma=0.1", "run": "r1", "position": 7,
         "playing": False, "asking": None}
OPEN = {"type": "open", "qid": "q1", "round": 7, "page": "perceptron", "text": "Which way does w turn?",
        "choices": [{"id": "left", "label": "towards x"}, {"id": "right", "label": "away from x"}]}
#: a well-formed example of every lecturer-only message (a student sends each)
LECTURER_MSGS = {"state": STATE, "open": OPEN, "reveal": {"type": "reveal", "qid": "q1", "correct": "left"},
                 "close": {"type": "close", "qid": "q1"}, "show": {"type": "show", "qid": "q1"}, "eyes": {"type": "eyes", "on": True}, "end": {"type": "end"}}


def test_hello_welcome_and_fan_out(store, serve):
    code, key = store.create("perceptron", "")

    async def go(url):
        async with WS(url) as lec, WS(url) as s1, WS(url) as s2:
            w = await lec.hello(code, key=key)
            assert (w["type"], w["role"], w["code"], w["state"], w["joined"]) == ("welcome", "lecturer", code, None, 0)
            w1 = await s1.hello(code.lower())
            assert (w1["role"], w1["joined"]) == ("student", 1) and w1["sid"] and "key" not in json.dumps(w1)
            assert key not in json.dumps(w1)
            assert (await lec.expect("joined"))["n"] == 1
            await s2.hello(code)
            assert (await lec.expect("joined"))["n"] == 2
            await lec.send(STATE)
            for c in (lec, s1, s2):
                got = await c.expect("state")
                assert got["position"] == 7 and got["seq"] == 1 and got["query"] == "gamma=0.1"
            await lec.send({"type": "eyes", "on": True})
            assert (await s2.expect("eyes"))["on"] is True
            await s1.send({"type": "ping"})
            assert (await s1.expect("pong"))["type"] == "pong"
            await lec.send({"type": "end"})
            for c in (s1, s2, lec):
                assert (await c.expect("ended"))["why"] == "the lecturer ended the session"
                assert await c.closed()
    with serve(store) as srv:
        run_async(go(srv.url))
    assert store.lookup(code) == "expired"


def test_a_question_voted_changed_and_revealed(store, serve):
    code, key = store.create("perceptron", "")

    async def go(url):
        async with WS(url) as lec, WS(url) as a, WS(url) as b, WS(url) as c:
            await lec.hello(code, key=key)
            for s in (a, b, c):
                await s.hello(code)
            await lec.send(OPEN)
            q = await a.expect("question")
            assert (q["qid"], q["answered"], q["joined"], [x["id"] for x in q["choices"]]) == ("q1", 0, 3, ["left", "right"])
            await a.send({"type": "vote", "qid": "q1", "answer": "right"})
            assert await a.expect("voted") == {"type": "voted", "qid": "q1", "answer": "right"}
            assert (await lec.expect("answered"))["n"] == 1
            await a.send({"type": "vote", "qid": "q1", "answer": "left"})      # changed: replaces
            assert (await lec.expect("answered"))["n"] == 1
            await b.send({"type": "vote", "qid": "q1", "answer": "left"})
            assert (await lec.expect("answered")) == {"type": "answered", "qid": "q1", "n": 2, "joined": 3}
            await c.send({"type": "vote", "qid": "q1", "answer": "both"})      # not a choice
            assert (await c.expect("refused"))["what"] == "vote"
            await c.send({"type": "vote", "qid": "q0", "answer": "left"})      # not the open question
            assert (await c.expect("refused"))["what"] == "vote"
            await lec.send({"type": "reveal", "qid": "q1", "correct": "left"})
            for s in (lec, a, b, c):
                r = await s.expect("reveal")
                assert (r["counts"], r["answered"], r["joined"], r["share"]) == ({"left": 2, "right": 0}, 2, 3, 1.0)
                t = await s.expect("tally")
                assert [row["qid"] for row in t["rows"]] == ["q1"] and t["rows"][0]["correct_label"] == "towards x"
    with serve(store) as srv:
        run_async(go(srv.url))


def test_a_student_sending_lecturer_messages_is_refused_and_nothing_changes(store, serve):
    code, key = store.create("perceptron", "")

    async def go(url):
        async with WS(url) as lec, WS(url) as stu:
            await lec.hello(code, key=key)
            await lec.send(STATE)
            await lec.expect("state")
            w = await stu.hello(code)
            before = store.snapshot(code)
            for kind in sorted(LECTURER_ONLY):
                await stu.send(LECTURER_MSGS[kind])
                assert await stu.expect("refused") == {"type": "refused", "what": kind}
            await stu.send({"type": "hello", "code": code, "key": "x" * 43})   # a second hello cannot promote it
            assert (await stu.expect("refused"))["what"] == "hello"
            await stu.send({"type": "ping"})
            await stu.expect("pong")
            assert store.snapshot(code) == before and store.lookup(code) == "ok"
            assert w["state"]["position"] == 7
            await lec.send({"type": "vote", "qid": "q1", "answer": "left"})    # and the lecturer does not vote
            assert (await lec.expect("refused"))["what"] == "vote"
    with serve(store) as srv:
        run_async(go(srv.url))


def test_a_dropped_student_reconnects_with_its_sid_and_catches_up(store, serve):
    code, key = store.create("perceptron", "")

    async def go(url):
        async with WS(url) as lec:
            await lec.hello(code, key=key)
            async with WS(url) as stu:
                sid = (await stu.hello(code))["sid"]
                await lec.send(OPEN)
                await stu.expect("question")
                await stu.send({"type": "vote", "qid": "q1", "answer": "right"})
                await stu.expect("voted")
            # dropped; meanwhile the lecturer steps on
            await lec.send({**STATE, "position": 12})
            await lec.send({"type": "eyes", "on": True})
            await lec.expect("eyes")
            async with WS(url) as back:
                w = await back.hello(code, sid=sid)
                assert w["sid"] == sid and w["joined"] == 1 and w["eyes"] is True
                assert w["state"]["position"] == 12 and w["state"]["seq"] == 1
                assert w["question"]["qid"] == "q1" and w["question"]["mine"] == "right"
                await back.send({"type": "vote", "qid": "q1", "answer": "left"})
                assert (await back.expect("voted"))["answer"] == "left"
                assert store.snapshot(code)["question"]["answered"] == 1      # still one vote: replaced
                lec2 = await WS(url).__aenter__()                  # the lecturer's reload: answered, no mine
                w = await lec2.hello(code, key=key)
                assert w["role"] == "lecturer" and w["question"]["answered"] == 1 and "mine" not in w["question"]
            # the student's tab closed: not counted, nor its vote, at once (the vote is kept for its return)
            assert await lec2.expect("joined") == {"type": "joined", "n": 0}
            assert await lec2.expect("answered") == {"type": "answered", "qid": "q1", "n": 0, "joined": 0}
            assert store.snapshot(code, sid)["question"]["mine"] == "left"
            await lec2.__aexit__(None, None, None)
    with serve(store) as srv:
        run_async(go(srv.url))


def test_bad_codes_keys_and_messages_get_an_error_and_a_close(store, serve):
    code, key = store.create("perceptron", "")
    unknown = "ABC234" if code != "ABC234" else "ABC235"

    async def one(url, first, *then):
        async with WS(url) as c:
            await c.send(first)
            got = None
            for m in then:
                got = await c.recv()
                await c.send(m)
            got = await c.expect("error")
            assert await c.closed()
            return got["why"]

    async def go(url):
        assert await one(url, {"type": "hello", "code": unknown}) == GONE_SENTENCE
        assert await one(url, {"type": "hello", "code": "0OIL"}) == MALFORMED_SENTENCE
        assert "not the lecturer's key" in await one(url, {"type": "hello", "code": code, "key": key[::-1]})
        assert "hello" in await one(url, {"type": "ping"})
        assert "JSON" in await one(url, "{not json")
        assert "JSON" in await one(url, "[1, 2]")
        assert "Unknown" in await one(url, {"type": "hello", "code": code}, {"type": "shout", "text": "hi"})
        assert str(MAX_FRAME) in await one(url, {"type": "hello", "code": code}, "x" * (MAX_FRAME + 1))
        bad_vote = {"type": "vote", "qid": "q1", "answer": {"$ne": 1}}
        assert "answer" in await one(url, {"type": "hello", "code": code}, bad_vote)
    with serve(store) as srv:
        run_async(go(srv.url))
    assert store.lookup(code) == "ok"                    # none of it harmed the session


def test_an_invalid_message_from_the_lecturer_is_refused_and_the_lecturer_keeps_the_class(store, serve):
    """One bad message (a reloaded lecturer's reveal without its right answer) must not end the connection that
    drives the class: ``refused`` with why, and the next valid message works."""
    code, key = store.create("perceptron", "")

    async def go(url):
        async with WS(url) as lec, WS(url) as stu:
            await lec.hello(code, key=key)
            await stu.hello(code)
            await lec.send(OPEN)
            await stu.expect("question")
            bad = [({"type": "reveal", "qid": "q1"}, "reveal", "correct"),
                   ({**STATE, "position": "7"}, "state", "position"),
                   ({**OPEN, "choices": [{"id": "a b", "label": "x"}, {"id": "b", "label": "y"}]}, "open", "identifier"),
                   ("{not json", "message", "JSON"), ({"type": "shout"}, "message", "Unknown"),
                   ("x" * (MAX_FRAME + 1), "message", str(MAX_FRAME))]
            for msg, what, says in bad:
                await lec.send(msg)
                got = await lec.expect("refused")
                assert got["what"] == what and says in got["why"], got
            assert store.snapshot(code)["question"]["qid"] == "q1"     # nothing changed
            await lec.send({"type": "reveal", "qid": "q1", "correct": "left"})
            assert (await stu.expect("reveal"))["correct"] == "left"
            await lec.send(STATE)
            assert (await stu.expect("state"))["position"] == 7
    with serve(store) as srv:
        run_async(go(srv.url))


def test_a_student_who_leaves_is_no_longer_counted(store, serve):
    code, key = store.create("perceptron", "")

    async def go(url):
        async with WS(url) as lec, WS(url) as a, WS(url) as b:
            await lec.hello(code, key=key)
            await a.hello(code)
            await b.hello(code)
            assert (await lec.expect("joined"))["n"] == 1
            assert (await lec.expect("joined"))["n"] == 2
            await lec.send(OPEN)
            await b.expect("question")
            await b.send({"type": "vote", "qid": "q1", "answer": "left"})
            assert (await lec.expect("answered"))["n"] == 1
            await b.send({"type": "leave"})
            assert await b.closed()                                   # the server closes the left student's socket
            assert (await lec.expect("joined"))["n"] == 1
            assert await lec.expect("answered") == {"type": "answered", "qid": "q1", "n": 0, "joined": 1}
            assert (await a.expect("joined"))["n"] == 1
            await lec.send({"type": "leave"})                           # the lecturer does not "leave": refused
            assert (await lec.expect("refused"))["what"] == "leave"
            assert store.snapshot(code)["joined"] == 1
    with serve(store) as srv:
        run_async(go(srv.url))
    assert store.snapshot(code)["joined"] == 0                            # every connection closed


def test_bounds_over_the_websocket(make_store, serve):
    store = make_store(max_students=2)
    code, _ = store.create("perceptron", "")

    async def go(url):
        async with WS(url) as a, WS(url) as b, WS(url) as c:
            assert (await a.hello(code))["role"] == "student"
            await b.hello(code)
            err = await c.hello(code)
            assert err["type"] == "error" and "OLC_CLASS_MAX_STUDENTS" in err["why"] and await c.closed()
    with serve(store) as srv:
        run_async(go(srv.url))


def test_failed_joins_per_address_are_limited(store, serve):
    code, key = store.create("perceptron", "")
    unknown = "ABC234" if code != "ABC234" else "ABC235"

    async def go(url):
        for i in range(FAILED_JOINS_PER_WINDOW):
            async with WS(url) as c:
                assert (await c.hello(unknown if i % 2 else "bad"))["type"] == "error"
        async with WS(url) as c:                       # now even the right code is refused from here
            assert (await c.hello(code)) == {"type": "error", "why": RATE_SENTENCE}
        async with WS(url) as c:
            assert (await c.hello(code, key=key))["why"] == RATE_SENTENCE
        # behind our nginx (a loopback peer) the address is X-Forwarded-For's last hop: another address
        async with WS(url, {"X-Forwarded-For": "203.0.113.9, 198.51.100.7"}) as c:
            assert (await c.hello(code))["type"] == "welcome"
    with serve(store) as srv:
        run_async(go(srv.url))
    assert store.join_blocked("127.0.0.1") and not store.join_blocked("198.51.100.7")


def test_a_slow_reader_does_not_hold_the_others(store, serve, monkeypatch):
    """Fan-out puts on every connection's queue: a student that never reads does not delay the rest; once
    its queue overflows (past the socket buffers) it is dropped, its memory bounded, and the
    others get every message."""
    monkeypatch.setattr(hub_mod, "QUEUE_MAX", 64)
    code, key = store.create("perceptron", "")
    n = 1500

    seen = {}

    async def read_all(c):
        last = None
        while last is None or last["position"] < n - 1:
            last = await c.expect("state", 30)
            seen[c] = last["position"]
        return last

    async def go(srv):
        async with WS(srv.url) as lec, WS(srv.url) as s:
            await lec.hello(code, key=key)
            stuck = stuck_client(srv.url, {"type": "hello", "code": code})
            await s.hello(code)
            readers = [asyncio.ensure_future(read_all(c)) for c in (lec, s)]
            for p in range(n):
                while min(seen.get(lec, -1), seen.get(s, -1)) < p - 16:     # the readers keep up
                    await asyncio.sleep(0.001)
                await lec.send({**STATE, "position": p, "query": "x" * 3900})
            got = await asyncio.gather(*readers)
            assert [g["seq"] for g in got] == [n, n]
            live = [c for c in srv.hub.rooms.get(code, ()) if not c.closing]
            stuck.close()
            assert len(live) == 2 and {c.role for c in live} == {"lecturer", "student"}
    with serve(store) as srv:
        run_async(asyncio.wait_for(go(srv), 60))


def test_an_idle_session_ends_its_connections(make_store, serve):
    """No lecturer message for OLC_CLASS_IDLE_S: every connection gets ``ended`` ("the session expired")."""
    store = make_store(idle_s=0.6)
    code, _ = store.create("perceptron", "")

    async def go(url):
        async with WS(url) as stu:
            assert (await stu.hello(code))["type"] == "welcome"
            assert await stu.expect("ended", 5) == {"type": "ended", "why": "the session expired"}
            assert await stu.closed()
    with serve(store) as srv:
        run_async(go(srv.url))
    assert store.lookup(code) == "expired"


def test_the_class_proposes_a_move_and_the_lecturer_shows_the_counts(store, serve):
    """issue 35 §3 over the websocket: the lecturer opens a round of proposals, each student proposes a move (one per
    student), the lecturer's count says how many proposed and never which, ``show`` sends everyone each distinct move
    with its count; a student may not show, and a proposal round cannot be revealed."""
    code, key = store.create("perceptron", "")
    opening = {"type": "open", "kind": "propose", "qid": "p1", "round": 2, "page": "perceptron", "text": "Your move"}

    async def go(url):
        async with WS(url) as lec, WS(url) as a, WS(url) as b:
            await lec.hello(code, key=key)
            for s in (a, b):
                await s.hello(code)
            await lec.send(opening)
            q = await a.expect("question")
            assert (q["qid"], q["kind"], q["choices"], q["joined"]) == ("p1", "propose", [], 2)
            await a.send({"type": "vote", "qid": "p1", "answer": "16:60:1"})
            assert (await lec.expect("answered")) == {"type": "answered", "qid": "p1", "n": 1, "joined": 2}
            await b.send({"type": "vote", "qid": "p1", "answer": "0:1:-1"})
            await b.send({"type": "vote", "qid": "p1", "answer": "16:60:1"})     # changed: replaces
            assert (await lec.expect("answered"))["n"] == 2
            await a.send({"type": "show", "qid": "p1"})
            assert (await a.expect("refused"))["what"] == "show"
            await lec.send({"type": "reveal", "qid": "p1", "correct": "16:60:1"})
            assert (await lec.expect("refused"))["what"] == "reveal"
            await lec.send({"type": "show", "qid": "p1"})
            for s in (lec, a, b):
                assert await s.expect("proposals") == {"type": "proposals", "qid": "p1",
                                                       "counts": [["16:60:1", 2]], "answered": 2, "joined": 2}
    with serve(store) as srv:
        run_async(go(srv.url))
