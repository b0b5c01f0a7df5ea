"""The class session's store in Redis: several processes (scripts/serve.sh K), several machines, one Redis.

Keys (prefix ``olc:class:``), every session key with a TTL of OLC_CLASS_IDLE_S renewed by the
lecturer's activity (so an idle session vanishes on its own):

==================  ==========================================================================
``s:<code>``        hash: ``digest`` (the key's SHA-256), ``page``, ``query``, ``seq``, ``state`` (JSON),
                    ``at``, ``eyes``, ``q`` (the open question, JSON), ``qid``, ``qch`` (``|id|id|``)
``m:<code>``        set: the students' ids (joined = its size)
``v:<code>``        hash: student id -> answer to the open question (a changed vote replaces the field)
``t:<code>``        list: the tally rows (JSON)
``k:<code>``        ``live`` / ``ended``, TTL 2 × idle: tells "expired" from "unknown" after the rest is gone
``live``            sorted set: code -> last lecturer activity (ms), for OLC_CLASS_MAX_SESSIONS
``f:<address>``     failed joins of a client address in the current minute (INCR, TTL 60 s)
==================  ==========================================================================

What must be atomic is one Lua script each (bounds on create and join, the question checks of a vote,
taking a question for its reveal). Messages: one pub/sub channel per session, ``olc:class:c:<code>``;
the synchronous client (script threads, the hub's worker threads) publishes, one ``redis.asyncio``
connection per process and event loop subscribes and hands messages to the hub. A restarted process
finds every session Redis holds (the store keeps nothing in the process).
"""
from __future__ import annotations

import asyncio
import contextlib
import json
import threading

import redis
import redis.asyncio as aioredis

from olc_ui.classroom import codes
from olc_ui.classroom.messages import dumps
from olc_ui.classroom.store import (FAILED_JOIN_WINDOW_S, FAILED_JOINS_PER_WINDOW, GONE_SENTENCE, Bound, ClassError,
                                    Deliver, Gone, Limits, Refused, Store, _Subscribers, new_sid, now_ms,
                                    reveal_result)

P = "olc:class:"
LIVE = P + "live"

# KEYS: s k m v t live   ARGV: now_ms idle_ms code ...   (the refresh every lecturer message does)
_REFRESH = """
local ttl = tonumber(ARGV[2])
for i = 1, 5 do if i ~= 2 then redis.call('PEXPIRE', KEYS[i], ttl) end end
redis.call('SET', KEYS[2], 'live', 'PX', 2 * ttl)
redis.call('ZADD', KEYS[6], ARGV[1], ARGV[3])
"""
_CREATE = """
redis.call('ZREMRANGEBYSCORE', KEYS[6], '-inf', tonumber(ARGV[1]) - tonumber(ARGV[2]))
if redis.call('EXISTS', KEYS[1]) == 1 or redis.call('EXISTS', KEYS[2]) == 1 then return -1 end
if redis.call('ZCARD', KEYS[6]) >= tonumber(ARGV[7]) then return 0 end
redis.call('DEL', KEYS[3], KEYS[4], KEYS[5])
redis.call('HSET', KEYS[1], 'digest', ARGV[4], 'page', ARGV[5], 'query', ARGV[6], 'seq', 0, 'eyes', '0',
           'q', '', 'qid', '', 'qch', '')
""" + _REFRESH + "return 1"
_TOUCH = "if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end\n" + _REFRESH + "return 1"
_STATE = """
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
local seq = redis.call('HINCRBY', KEYS[1], 'seq', 1)
redis.call('HSET', KEYS[1], 'state', ARGV[4], 'at', ARGV[1])
""" + _REFRESH + "return seq"
_OPEN = """
if redis.call('EXISTS', KEYS[1]) == 0 then return -1 end
redis.call('HSET', KEYS[1], 'q', ARGV[4], 'qid', ARGV[5], 'qch', ARGV[6])
redis.call('DEL', KEYS[4])
""" + _REFRESH + "return redis.call('SCARD', KEYS[3])"
# take the open question ARGV[4] off the session (close or reveal): {q, votes..., joined, tally length}
_TAKE = """
if redis.call('EXISTS', KEYS[1]) == 0 then return -1 end
if redis.call('HGET', KEYS[1], 'qid') ~= ARGV[4] then return -2 end
local q = redis.call('HGET', KEYS[1], 'q')
local votes = redis.call('HGETALL', KEYS[4])
redis.call('HSET', KEYS[1], 'q', '', 'qid', '', 'qch', '')
redis.call('DEL', KEYS[4])
""" + _REFRESH + "return {q, redis.call('SCARD', KEYS[3]), redis.call('LLEN', KEYS[5]), votes}"
_EYES = "if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end\nredis.call('HSET', KEYS[1], 'eyes', ARGV[4])\n" \
        + _REFRESH + "return 1"
_END = """
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
redis.call('DEL', KEYS[1], KEYS[3], KEYS[4], KEYS[5])
redis.call('SET', KEYS[2], 'ended', 'PX', 2 * tonumber(ARGV[2]))
redis.call('ZREM', KEYS[6], ARGV[3])
return 1
"""
# KEYS: s m   ARGV: sid (or '') new_sid max_students
_JOIN = """
if redis.call('EXISTS', KEYS[1]) == 0 then return {-1} end
if ARGV[1] ~= '' and redis.call('SISMEMBER', KEYS[2], ARGV[1]) == 1 then
  return {ARGV[1], redis.call('SCARD', KEYS[2]), 0}
end
local n = redis.call('SCARD', KEYS[2])
if n >= tonumber(ARGV[3]) then return {-2} end
redis.call('SADD', KEYS[2], ARGV[2])
redis.call('PEXPIRE', KEYS[2], redis.call('PTTL', KEYS[1]))
return {ARGV[2], n + 1, 1}
"""
# KEYS: s m v   ARGV: sid   -> {joined, answered (-1: no open question), removed, qid}
_LEAVE = """
if redis.call('EXISTS', KEYS[1]) == 0 then return {-1} end
local removed = redis.call('SREM', KEYS[2], ARGV[1])
redis.call('HDEL', KEYS[3], ARGV[1])
local qid = redis.call('HGET', KEYS[1], 'qid')
local answered = -1
if qid and qid ~= '' then answered = redis.call('HLEN', KEYS[3]) else qid = '' end
return {redis.call('SCARD', KEYS[2]), answered, removed, qid}
"""
# KEYS: s m v   ARGV: sid qid answer
_VOTE = """
if redis.call('EXISTS', KEYS[1]) == 0 then return {-1} end
if redis.call('HGET', KEYS[1], 'qid') ~= ARGV[2] then return {-2} end
local qch = redis.call('HGET', KEYS[1], 'qch')
if not string.find(qch, '|' .. ARGV[3] .. '|', 1, true) or redis.call('SISMEMBER', KEYS[2], ARGV[1]) == 0 then
  return {-3}
end
redis.call('HSET', KEYS[3], ARGV[1], ARGV[3])
redis.call('PEXPIRE', KEYS[3], redis.call('PTTL', KEYS[1]))
return {redis.call('HLEN', KEYS[3]), redis.call('SCARD', KEYS[2])}
"""


def _keys(code: str) -> list[str]:
    return [f"{P}s:{code}", f"{P}k:{code}", f"{P}m:{code}", f"{P}v:{code}", f"{P}t:{code}", LIVE]


def channel(code: str) -> str:
    return f"{P}c:{code}"


class RedisStore(Store):
    """The store in the Redis at ``url`` (``redis://host:port/db``); see the module docstring."""

    blocking = True

    def __init__(self, url: str, limits: Limits | None = None):
        super().__init__(limits)
        self.url = url
        self.r = redis.Redis.from_url(url, decode_responses=True, socket_timeout=10, health_check_interval=30)
        self._scripts = {name: self.r.register_script(src) for name, src in (
            ("create", _CREATE), ("touch", _TOUCH), ("state", _STATE), ("open", _OPEN), ("take", _TAKE),
            ("eyes", _EYES), ("end", _END), ("join", _JOIN), ("vote", _VOTE), ("leave", _LEAVE))}
        self._subs = _Subscribers()
        self._aio_lock = threading.Lock()
        self._aio: dict[asyncio.AbstractEventLoop, _Listener] = {}

    def _idle_ms(self) -> int:
        return max(1, int(self.limits.idle_s * 1000))

    def _run(self, name: str, code: str, *argv, keys: list[str] | None = None):
        try:
            return self._scripts[name](keys=keys or _keys(code), args=[now_ms(), self._idle_ms(), code, *argv])
        except redis.exceptions.ConnectionError as exc:
            raise ClassError(f"The class session store (Redis) is not reachable: {exc}") from None

    def create(self, page: str, query: str) -> tuple[str, str]:
        key = codes.new_key()
        for _ in range(20):
            code = codes.new_code()
            got = self._run("create", code, codes.digest(key), page, query, self.limits.max_sessions)
            if got == 0:
                raise Bound(self.limits.sessions_sentence())
            if got == 1:
                return code, key
        raise ClassError("No free class code was found: try again.")

    def seed(self, code: str, key: str, page: str = "", query: str = "") -> None:
        self._run("create", code, codes.digest(key), page, query, self.limits.max_sessions)

    def lookup(self, code: str) -> str:
        live, known = self.r.exists(f"{P}s:{code}"), self.r.exists(f"{P}k:{code}")
        return "ok" if live else "expired" if known else "unknown"

    def check_key(self, code: str, key) -> bool:
        return codes.key_matches(self.r.hget(f"{P}s:{code}", "digest"), key)

    def touch(self, code: str) -> None:
        if not self._run("touch", code):
            raise Gone(GONE_SENTENCE)

    def join(self, code: str, sid: str | None) -> tuple[str, int, bool]:
        got = self._scripts["join"](keys=_keys(code)[0:3:2], args=[sid or "", new_sid(), self.limits.max_students])
        if got[0] == -1:
            raise Gone(GONE_SENTENCE)
        if got[0] == -2:
            raise Bound(self.limits.students_sentence())
        return got[0], int(got[1]), bool(got[2])

    def leave(self, code: str, sid: str | None) -> tuple[int, tuple[str, int] | None, bool]:
        s, _, m, v, *_ = _keys(code)
        got = self._scripts["leave"](keys=[s, m, v], args=[sid or ""])
        if got[0] == -1:
            raise Gone(GONE_SENTENCE)
        joined, answered, removed, qid = int(got[0]), int(got[1]), bool(got[2]), got[3]
        return joined, ((qid, answered) if answered >= 0 else None), removed

    def snapshot(self, code: str, sid: str | None = None) -> dict:
        s, m, v, t = _keys(code)[0], _keys(code)[2], _keys(code)[3], _keys(code)[4]
        with self.r.pipeline(transaction=True) as p:
            h, joined, votes, rows = p.hgetall(s).scard(m).hgetall(v).lrange(t, 0, -1).execute()
        if not h:
            raise Gone(GONE_SENTENCE)
        state = None
        if h.get("state"):
            state = {**json.loads(h["state"]), "seq": int(h["seq"]), "at": int(h["at"])}
        question = None
        if h.get("q"):
            question = {**json.loads(h["q"]), "answered": len(votes), "joined": joined}
            if sid is not None:
                question["mine"] = votes.get(sid)
        return {"state": state, "joined": joined, "question": question, "eyes": h.get("eyes") == "1",
                "tally": [json.loads(r) for r in rows]}

    def set_state(self, code: str, state: dict) -> dict:
        at = now_ms()
        seq = self._run("state", code, dumps(state))
        if not seq:
            raise Gone(GONE_SENTENCE)
        return {**state, "seq": int(seq), "at": at}

    def open_question(self, code: str, question: dict) -> dict:
        qch = "|" + "|".join(c["id"] for c in question["choices"]) + "|"
        joined = self._run("open", code, dumps(question), question["qid"], qch)
        if joined == -1:
            raise Gone(GONE_SENTENCE)
        return {**question, "answered": 0, "joined": int(joined)}

    def _take(self, code: str, qid: str):
        got = self._run("take", code, qid)
        if got == -1:
            raise Gone(GONE_SENTENCE)
        if got == -2:
            raise Refused("This question is not open.")
        q, joined, n_rows, flat = got
        return json.loads(q), int(joined), int(n_rows), dict(zip(flat[::2], flat[1::2]))

    def close_question(self, code: str, qid: str) -> bool:
        try:
            self._take(code, qid)
        except Refused:
            return False
        return True

    def vote(self, code: str, sid: str, qid: str, answer: str) -> tuple[int, int]:
        s, _, m, v, *_ = _keys(code)
        got = self._scripts["vote"](keys=[s, m, v], args=[sid, qid, answer])
        if got[0] == -1:
            raise Gone(GONE_SENTENCE)
        if got[0] == -2:
            raise Refused("This question is not open any more.")
        if got[0] == -3:
            raise Refused("This answer is not one of the question's choices.")
        return int(got[0]), int(got[1])

    def reveal(self, code: str, qid: str, correct: str) -> tuple[dict, list[dict]]:
        q = json.loads(self.r.hget(f"{P}s:{code}", "q") or "null")
        if q is not None and q.get("qid") == qid and correct not in [c["id"] for c in q["choices"]]:
            raise Refused("The right answer is not one of the question's choices.")
        q, joined, n_rows, votes = self._take(code, qid)
        if correct not in [c["id"] for c in q["choices"]]:        # another question opened meanwhile
            raise Refused("The right answer is not one of the question's choices.")
        row = reveal_result(q, votes, correct, joined, n_rows + 1)
        t = f"{P}t:{code}"
        with self.r.pipeline(transaction=True) as p:
            p.rpush(t, dumps(row)).pexpire(t, self._idle_ms()).lrange(t, 0, -1)
            rows = p.execute()[2]
        return row, [json.loads(r) for r in rows]

    def set_eyes(self, code: str, on: bool) -> None:
        if not self._run("eyes", code, "1" if on else "0"):
            raise Gone(GONE_SENTENCE)

    def end(self, code: str) -> None:
        if not self._run("end", code):
            raise Gone(GONE_SENTENCE)

    def failed_join(self, address: str) -> None:
        k = f"{P}f:{address}"
        with self.r.pipeline(transaction=True) as p:
            p.incr(k).expire(k, int(FAILED_JOIN_WINDOW_S), nx=True).execute()

    def join_blocked(self, address: str) -> bool:
        return int(self.r.get(f"{P}f:{address}") or 0) >= FAILED_JOINS_PER_WINDOW

    def purge(self) -> None:
        self.r.zremrangebyscore(LIVE, "-inf", now_ms() - self._idle_ms())

    # -- messages
    def publish(self, code: str, message: dict) -> None:
        self.r.publish(channel(code), dumps(message))

    def _listener(self) -> "_Listener":
        loop = asyncio.get_running_loop()
        with self._aio_lock:
            for old in [lp for lp in self._aio if lp.is_closed()]:
                del self._aio[old]
            if loop not in self._aio:
                self._aio[loop] = _Listener(self.url, self._subs)
            return self._aio[loop]

    async def subscribe(self, code: str, deliver: Deliver) -> None:
        if self._subs.add(code, deliver):
            await self._listener().subscribe(channel(code))

    async def unsubscribe(self, code: str, deliver: Deliver) -> None:
        if self._subs.remove(code, deliver):
            await self._listener().unsubscribe(channel(code))

    def close(self) -> None:
        """Close the synchronous connections (tests; a process's store lives as long as it)."""
        self.r.close()


class _Listener:
    """One ``redis.asyncio`` pub/sub connection of an event loop: channels in, the hub's deliver out."""

    def __init__(self, url: str, subs: _Subscribers):
        self.client = aioredis.Redis.from_url(url, decode_responses=True)
        self.pubsub = self.client.pubsub(ignore_subscribe_messages=True)
        self.subs = subs
        self.task: asyncio.Task | None = None

    async def subscribe(self, ch: str) -> None:
        await self.pubsub.subscribe(ch)
        if self.task is None or self.task.done():
            self.task = asyncio.ensure_future(self._read())

    async def unsubscribe(self, ch: str) -> None:
        with contextlib.suppress(Exception):
            await self.pubsub.unsubscribe(ch)

    async def _read(self) -> None:
        prefix = len(P) + 2
        while True:
            try:
                msg = await self.pubsub.get_message(ignore_subscribe_messages=True, timeout=1.0)
            except asyncio.CancelledError:
                raise
            except Exception:  # noqa: BLE001 - Redis went away: retry (the client reconnects)
                await asyncio.sleep(0.5)
                continue
            if msg is not None and msg.get("type") == "message":
                self.subs.deliver(msg["channel"][prefix:], msg["data"])
            elif msg is None and not self.pubsub.subscribed:
                await asyncio.sleep(0.05)
