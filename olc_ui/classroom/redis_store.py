"""The class session's store in Redis: several processes (scripts/serve.sh K), several machines, one Redis.

Keys (prefix ``olc:class:``), every session key with a TTL of OLC_CLASS_IDLE_S renewed by the
lecturer's activity (so an idle session vanishes on its own):

==================  ==========================================================================
``s:<code>``        hash: ``digest`` (the key's SHA-256), ``page``, ``query``, ``seq``, ``state`` (JSON),
                    ``at``, ``eyes``, ``q`` (the open question, JSON), ``qid``, ``qch`` (``|id|id|``)
``m:<code>``        set: the students' ids (the members: joined and not left)
``a:<code>``        sorted set: the present students' ids, scored by until when (ms) they are counted (renewed by
                    each sign of life of a connection; ``joined`` and ``answered`` count only these)
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
import functools
import json
import threading

import redis
import redis.asyncio as aioredis

from olc_ui.classroom import codes
from olc_ui.classroom.messages import dumps
from olc_ui.classroom.store import (FAILED_JOIN_WINDOW_S, FAILED_JOINS_PER_WINDOW, GONE_SENTENCE, NOT_A_QUESTION,
                                    NOT_PROPOSALS, RESYNC, Bound, ClassError, Deliver, Gone, Limits, Refused, Store,
                                    Unreachable, _Subscribers, new_sid, now_ms, proposals_result, proposing,
                                    reveal_result)

P = "olc:class:"
LIVE = P + "live"

# KEYS: s k m v t live a   ARGV: now_ms idle_ms code ...   (the refresh every lecturer message does)
_REFRESH = """
local ttl = tonumber(ARGV[2])
for i = 1, 5 do if i ~= 2 then redis.call('PEXPIRE', KEYS[i], ttl) end end
redis.call('PEXPIRE', KEYS[7], ttl)
redis.call('SET', KEYS[2], 'live', 'PX', 2 * ttl)
redis.call('ZADD', KEYS[6], ARGV[1], ARGV[3])
"""
# the present students (a: forgetting the expired ones), the open question's answers among them
_LIB = """
local function present(a, now)
  redis.call('ZREMRANGEBYSCORE', a, '-inf', now)
  return redis.call('ZCARD', a)
end
local function answered(a, v)
  local n = 0
  for _, sid in ipairs(redis.call('HKEYS', v)) do
    if redis.call('ZSCORE', a, sid) then n = n + 1 end
  end
  return n
end
local function open_q(s, a, v)
  local qid = redis.call('HGET', s, 'qid')
  if qid and qid ~= '' then return {qid, answered(a, v)} end
  return {'', -1}
end
"""
_CREATE = """
redis.call('ZREMRANGEBYSCORE', KEYS[6], '-inf', tonumber(ARGV[1]) - tonumber(ARGV[2]))
if redis.call('EXISTS', KEYS[1]) == 1 or redis.call('EXISTS', KEYS[2]) == 1 then return -1 end
if redis.call('ZCARD', KEYS[6]) >= tonumber(ARGV[7]) then return 0 end
redis.call('DEL', KEYS[3], KEYS[4], KEYS[5], KEYS[7])
redis.call('HSET', KEYS[1], 'digest', ARGV[4], 'page', ARGV[5], 'query', ARGV[6], 'seq', 0, 'eyes', '0',
           'q', '', 'qid', '', 'qch', '')
""" + _REFRESH + "return 1"
_TOUCH = "if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end\n" + _REFRESH + "return 1"
_STATE = """
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
local seq = redis.call('HINCRBY', KEYS[1], 'seq', 1)
redis.call('HSET', KEYS[1], 'state', ARGV[4], 'at', ARGV[1])
""" + _REFRESH + "return seq"
_OPEN = _LIB + """
if redis.call('EXISTS', KEYS[1]) == 0 then return -1 end
redis.call('HSET', KEYS[1], 'q', ARGV[4], 'qid', ARGV[5], 'qch', ARGV[6])
redis.call('DEL', KEYS[4])
""" + _REFRESH + "return present(KEYS[7], tonumber(ARGV[1]))"
# take the open question ARGV[4] off the session (close or reveal): {q, students present, tally length, their votes}
_TAKE = _LIB + """
if redis.call('EXISTS', KEYS[1]) == 0 then return -1 end
if redis.call('HGET', KEYS[1], 'qid') ~= ARGV[4] then return -2 end
local q = redis.call('HGET', KEYS[1], 'q')
local n = present(KEYS[7], tonumber(ARGV[1]))
local flat, votes = redis.call('HGETALL', KEYS[4]), {}
for i = 1, #flat, 2 do
  if redis.call('ZSCORE', KEYS[7], flat[i]) then votes[#votes + 1] = flat[i]; votes[#votes + 1] = flat[i + 1] end
end
redis.call('HSET', KEYS[1], 'q', '', 'qid', '', 'qch', '')
redis.call('DEL', KEYS[4])
""" + _REFRESH + "return {q, n, redis.call('LLEN', KEYS[5]), votes}"
_EYES = "if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end\nredis.call('HSET', KEYS[1], 'eyes', ARGV[4])\n" \
        + _REFRESH + "return 1"
_END = """
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
redis.call('DEL', KEYS[1], KEYS[3], KEYS[4], KEYS[5], KEYS[7])
redis.call('SET', KEYS[2], 'ended', 'PX', 2 * tonumber(ARGV[2]))
redis.call('ZREM', KEYS[6], ARGV[3])
return 1
"""
# the students' scripts: KEYS as _keys (s k m v t live a), ARGV: now_ms idle_ms code, then as each says
# ARGV[4..7]: sid (or '') new_sid max_students present_ms  -> {sid, present, grew} | {-1} gone | {-2} full
_JOIN = _LIB + """
if redis.call('EXISTS', KEYS[1]) == 0 then return {-1} end
local now = tonumber(ARGV[1])
local untl, ttl = now + tonumber(ARGV[7]), redis.call('PTTL', KEYS[1])
present(KEYS[7], now)
if ARGV[4] ~= '' and redis.call('SISMEMBER', KEYS[3], ARGV[4]) == 1 then
  local was = redis.call('ZSCORE', KEYS[7], ARGV[4])
  redis.call('ZADD', KEYS[7], untl, ARGV[4])
  redis.call('PEXPIRE', KEYS[7], ttl)
  return {ARGV[4], redis.call('ZCARD', KEYS[7]), was and 0 or 1}
end
if redis.call('SCARD', KEYS[3]) >= tonumber(ARGV[6]) then
  for _, x in ipairs(redis.call('SMEMBERS', KEYS[3])) do
    if not redis.call('ZSCORE', KEYS[7], x) then redis.call('SREM', KEYS[3], x); redis.call('HDEL', KEYS[4], x) end
  end
  if redis.call('SCARD', KEYS[3]) >= tonumber(ARGV[6]) then return {-2} end
end
redis.call('SADD', KEYS[3], ARGV[5])
redis.call('PEXPIRE', KEYS[3], ttl)
redis.call('ZADD', KEYS[7], untl, ARGV[5])
redis.call('PEXPIRE', KEYS[7], ttl)
return {ARGV[5], redis.call('ZCARD', KEYS[7]), 1}
"""
# ARGV[4..5]: sid present_ms  -> {present, grew} | {-1}
_ALIVE = _LIB + """
if redis.call('EXISTS', KEYS[1]) == 0 then return {-1} end
local now = tonumber(ARGV[1])
present(KEYS[7], now)
if redis.call('SISMEMBER', KEYS[3], ARGV[4]) == 0 then return {redis.call('ZCARD', KEYS[7]), 0} end
local was = redis.call('ZSCORE', KEYS[7], ARGV[4])
redis.call('ZADD', KEYS[7], now + tonumber(ARGV[5]), ARGV[4])
redis.call('PEXPIRE', KEYS[7], redis.call('PTTL', KEYS[1]))
return {redis.call('ZCARD', KEYS[7]), was and 0 or 1}
"""
# ARGV[4]: sid  -> {present, answered (-1: no open question), fell, qid} | {-1}
_DEPART = _LIB + """
if redis.call('EXISTS', KEYS[1]) == 0 then return {-1} end
local fell = redis.call('ZREM', KEYS[7], ARGV[4])
local n = present(KEYS[7], tonumber(ARGV[1]))
local q = open_q(KEYS[1], KEYS[7], KEYS[4])
return {n, q[2], fell, q[1]}
"""
# -> {present, answered (-1: no open question), qid} | {-1}
_COUNT = _LIB + """
if redis.call('EXISTS', KEYS[1]) == 0 then return {-1} end
local n = present(KEYS[7], tonumber(ARGV[1]))
local q = open_q(KEYS[1], KEYS[7], KEYS[4])
return {n, q[2], q[1]}
"""
# ARGV[4]: sid  -> {present, answered (-1: no open question), removed, qid} | {-1}
_LEAVE = _LIB + """
if redis.call('EXISTS', KEYS[1]) == 0 then return {-1} end
local removed = redis.call('SREM', KEYS[3], ARGV[4])
redis.call('HDEL', KEYS[4], ARGV[4])
redis.call('ZREM', KEYS[7], ARGV[4])
local n = present(KEYS[7], tonumber(ARGV[1]))
local q = open_q(KEYS[1], KEYS[7], KEYS[4])
return {n, q[2], removed, q[1]}
"""
# ARGV[4..7]: sid qid answer present_ms  -> {answered, present} | {-1} gone | {-2} not open | {-3} not a choice
_VOTE = _LIB + """
if redis.call('EXISTS', KEYS[1]) == 0 then return {-1} end
if redis.call('HGET', KEYS[1], 'qid') ~= ARGV[5] then return {-2} end
local qch = redis.call('HGET', KEYS[1], 'qch')
if (qch ~= '*' and not string.find(qch, '|' .. ARGV[6] .. '|', 1, true)) or redis.call('SISMEMBER', KEYS[3], ARGV[4]) == 0 then
  return {-3}
end
local now, ttl = tonumber(ARGV[1]), redis.call('PTTL', KEYS[1])
redis.call('HSET', KEYS[4], ARGV[4], ARGV[6])
redis.call('PEXPIRE', KEYS[4], ttl)
redis.call('ZADD', KEYS[7], now + tonumber(ARGV[7]), ARGV[4])
redis.call('PEXPIRE', KEYS[7], ttl)
local n = present(KEYS[7], now)
return {answered(KEYS[7], KEYS[4]), n}
"""


def _keys(code: str) -> list[str]:
    return [f"{P}s:{code}", f"{P}k:{code}", f"{P}m:{code}", f"{P}v:{code}", f"{P}t:{code}", LIVE, f"{P}a:{code}"]


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
            ("eyes", _EYES), ("end", _END), ("join", _JOIN), ("vote", _VOTE), ("leave", _LEAVE), ("alive", _ALIVE),
            ("depart", _DEPART), ("count", _COUNT))}
        self._subs = _Subscribers()
        self._aio_lock = threading.Lock()
        self._aio: dict[asyncio.AbstractEventLoop, _Listener] = {}

    def _idle_ms(self) -> int:
        return max(1, int(self.limits.idle_s * 1000))

    def _present_ms(self) -> int:
        return max(1, int(self.limits.present_s * 1000))

    def _run(self, name: str, code: str, *argv, keys: list[str] | None = None):
        return self._scripts[name](keys=keys or _keys(code), args=[now_ms(), self._idle_ms(), code, *argv])

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
        got = self._run("join", code, sid or "", new_sid(), self.limits.max_students, self._present_ms())
        if got[0] == -1:
            raise Gone(GONE_SENTENCE)
        if got[0] == -2:
            raise Bound(self.limits.students_sentence())
        return got[0], int(got[1]), bool(got[2])

    def alive(self, code: str, sid: str) -> tuple[int, bool]:
        got = self._run("alive", code, sid, self._present_ms())
        if got[0] == -1:
            raise Gone(GONE_SENTENCE)
        return int(got[0]), bool(got[1])

    @staticmethod
    def _counted(got) -> tuple[int, tuple[str, int] | None]:
        """(present, (qid, answered) or None) from a script's {present, answered or -1, …, qid}."""
        if got[0] == -1:
            raise Gone(GONE_SENTENCE)
        answered = int(got[1])
        return int(got[0]), ((got[-1], answered) if answered >= 0 else None)

    def depart(self, code: str, sid: str) -> tuple[int, tuple[str, int] | None, bool]:
        got = self._run("depart", code, sid)
        return (*self._counted(got), bool(got[2]))

    def count(self, code: str) -> tuple[int, tuple[str, int] | None]:
        return self._counted(self._run("count", code))

    def leave(self, code: str, sid: str | None) -> tuple[int, tuple[str, int] | None, bool]:
        got = self._run("leave", code, sid or "")
        return (*self._counted(got), bool(got[2]))

    def snapshot(self, code: str, sid: str | None = None) -> dict:
        s, v, t, a = _keys(code)[0], _keys(code)[3], _keys(code)[4], _keys(code)[6]
        with self.r.pipeline(transaction=True) as p:
            h, here, votes, rows = p.hgetall(s).zrangebyscore(a, f"({now_ms()}", "+inf").hgetall(v).lrange(t, 0, -1).execute()
        if not h:
            raise Gone(GONE_SENTENCE)
        here = set(here)
        joined = len(here)
        state = None
        if h.get("state"):
            state = {**json.loads(h["state"]), "seq": int(h["seq"]), "at": int(h["at"])}
        question = None
        if h.get("q"):
            question = {**json.loads(h["q"]), "answered": sum(1 for x in votes if x in here), "joined": joined}
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
        qch = "*" if proposing(question) else "|" + "|".join(c["id"] for c in question["choices"]) + "|"   # *: any move
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
        got = self._run("vote", code, sid, qid, answer, self._present_ms())
        if got[0] == -1:
            raise Gone(GONE_SENTENCE)
        if got[0] == -2:
            raise Refused("This question is not open any more.")
        if got[0] == -3:
            raise Refused("This answer is not one of the question's choices.")
        return int(got[0]), int(got[1])

    def reveal(self, code: str, qid: str, correct: str) -> tuple[dict, list[dict]]:
        q = json.loads(self.r.hget(f"{P}s:{code}", "q") or "null")
        if q is not None and q.get("qid") == qid and proposing(q):
            raise Refused(NOT_A_QUESTION)
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

    def show(self, code: str, qid: str) -> dict:
        q = json.loads(self.r.hget(f"{P}s:{code}", "q") or "null")
        if q is not None and q.get("qid") == qid and not proposing(q):
            raise Refused(NOT_PROPOSALS)
        try:
            q, joined, _, votes = self._take(code, qid)
        except Refused:
            raise Refused("This round of proposals is not open.") from None
        if not proposing(q):           # a question opened meanwhile (taken: as a close would)
            raise Refused(NOT_PROPOSALS)
        return proposals_result(qid, votes, joined)

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


def _unreachable(fn):
    """Redis not answering (refused, reset, timed out: a restart) is :class:`Unreachable`, a ClassError with a sentence."""
    @functools.wraps(fn)
    def guarded(*args, **kwargs):
        try:
            return fn(*args, **kwargs)
        except (redis.exceptions.ConnectionError, redis.exceptions.TimeoutError) as exc:
            raise Unreachable(f"The class session store (Redis) is not reachable: {exc}") from None
    return guarded


for _name in ("create", "seed", "lookup", "check_key", "touch", "join", "alive", "depart", "count", "leave", "snapshot",
              "set_state", "open_question", "close_question", "vote", "reveal", "show", "set_eyes", "end", "failed_join",
              "join_blocked", "purge", "publish"):
    setattr(RedisStore, _name, _unreachable(getattr(RedisStore, _name)))


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
        broken = False
        while True:
            try:
                msg = await self.pubsub.get_message(ignore_subscribe_messages=True, timeout=1.0)
            except asyncio.CancelledError:
                raise
            except Exception:  # noqa: BLE001 - Redis went away: retry (the client reconnects and subscribes again)
                broken = True
                await asyncio.sleep(0.5)
                continue
            if broken:         # subscribed again: what was published meanwhile never came; the hub welcomes again
                broken = False
                for code in self.subs.codes():
                    self.subs.deliver(code, RESYNC)
            if msg is not None and msg.get("type") == "message":
                self.subs.deliver(msg["channel"][prefix:], msg["data"])
            elif msg is None and not self.pubsub.subscribed:
                await asyncio.sleep(0.05)
