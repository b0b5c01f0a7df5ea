"""The push endpoint: a websocket route at ``<server.baseUrlPath>/olc-class/ws`` (docs/class-session.md).

One :class:`Hub` per process. A connection says ``hello`` first (its role is fixed then: the lecturer
with the right key, else a student), then each message is checked (olc_ui/classroom/messages.py),
checked against the role (a student's lecturer-only message is ``refused`` and changes nothing),
applied to the store and published; every connection of the session, in every process, gets the
published messages through the store's publish/subscribe.

A heartbeat keeps the counts true: every ``limits.beat_s`` seconds the hub sends each connection a ``ping``; a
connection that has sent nothing (no ``pong``) for :data:`~olc_ui.classroom.store.SILENT_BEATS` beats is dropped
(closed, and its student no longer present), and each ``pong`` renews the student's presence in the store. A closed
connection's student stops being present at once (unless another connection of this process has the same id); a
process that died leaves its students to expire (``limits.present_s``). After each beat the hub recounts its rooms
and publishes ``joined`` (and ``answered``) when the store's count moved.

Fan-out never waits on one socket: each connection has its own send queue and sender task, a published
message is put on every queue of the session at once (``put_nowait``), and a connection whose queue
overflows (a client that stopped reading) is closed. Store calls that wait on the network (Redis) run
in a small thread pool, so the event loop (which also serves Streamlit's own websockets) never blocks.
"""
from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import logging
import time
from concurrent.futures import ThreadPoolExecutor

from starlette.websockets import WebSocket, WebSocketDisconnect

from olc_ui.classroom import codes, messages, store as st
from olc_ui.classroom.messages import Invalid, dumps

log = logging.getLogger(__name__)

#: messages waiting for one connection before it counts as stuck and is closed
QUEUE_MAX = 512
#: seconds a new connection has to say hello
HELLO_TIMEOUT_S = 10.0
#: the close code sent after an ``error`` (1008: policy violation)
CLOSE_POLICY = 1008
_ENDED_PREFIX = '{"type":"ended"'


def client_address(websocket: WebSocket) -> str:
    """The address failed joins are counted against: the peer, or behind our nginx (a loopback peer)
    the last X-Forwarded-For hop (the one nginx added; earlier hops are whatever the client sent)."""
    peer = websocket.client.host if websocket.client else ""
    try:
        loopback = ipaddress.ip_address(peer).is_loopback
    except ValueError:
        loopback = False
    forwarded = websocket.headers.get("x-forwarded-for", "")
    if loopback and forwarded:
        return forwarded.split(",")[-1].strip()[:64] or peer
    return peer


class Conn:
    """One websocket: its role, its send queue and the task that drains it."""

    def __init__(self, websocket: WebSocket):
        self.ws = websocket
        self.queue: asyncio.Queue[str | None] = asyncio.Queue(QUEUE_MAX)
        self.role = self.code = self.sid = None
        self.heard = time.monotonic()     # the last frame received (a sign of life)
        self.departed = False             # its student's presence given up (closed, silent or left)
        self.welcomed = False
        self.pending: list[str] = []      # published before the welcome was queued
        self.closing = False
        self.sender = asyncio.ensure_future(self._drain())

    def push(self, text: str) -> None:
        if self.closing:
            return
        if not self.welcomed:
            self.pending.append(text)
            return
        try:
            self.queue.put_nowait(text)
        except asyncio.QueueFull:
            log.warning("class %s: a connection did not keep up; closed", self.code)
            self.closing = True
            self._abandon()
            return
        if text.startswith(_ENDED_PREFIX):
            self.close_after(None)

    def send(self, message: dict) -> None:
        """A message to this connection alone (in order with the published ones)."""
        if self.welcomed or message.get("type") == "welcome":
            self.push(dumps(message))
        else:
            self.pending.append(dumps(message))

    def welcome(self, message: dict) -> None:
        self.welcomed = True
        self.push(dumps(message))
        pending, self.pending = self.pending, []
        for text in pending:
            self.push(text)

    def close_after(self, message: dict | None) -> None:
        """Send ``message`` (if any) after what is queued, then close."""
        if self.closing:
            return
        self.closing = True
        if message is not None:
            with contextlib.suppress(asyncio.QueueFull):
                self.queue.put_nowait(dumps(message))
        try:
            self.queue.put_nowait(None)
        except asyncio.QueueFull:
            self._abandon()

    def _abandon(self) -> None:
        """A client that stopped reading: drop what waits for it, stop its sender (blocked on a full socket
        buffer: the server's flow control), close it (waiting at most a few seconds)."""
        while not self.queue.empty():
            self.queue.get_nowait()
        self.sender.cancel()
        asyncio.ensure_future(self._close())

    async def _drain(self) -> None:
        try:
            while True:
                text = await self.queue.get()
                if text is None:
                    break
                await self.ws.send_text(text)
        except Exception:  # noqa: BLE001 - the socket is gone: nothing more to send
            pass
        await self._close()

    async def _close(self) -> None:
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self.ws.close(CLOSE_POLICY if self.closing else 1000), 5)


class Hub:
    """Every class connection of this process, grouped by session code."""

    def __init__(self, store: st.Store):
        self.store = store
        self.rooms: dict[str, set[Conn]] = {}
        self._deliver: dict[str, callable] = {}
        self._pool = ThreadPoolExecutor(max_workers=8, thread_name_prefix="olc-class") if store.blocking else None
        self._sweeper: asyncio.Task | None = None
        self._beater: asyncio.Task | None = None
        self._counts: dict[str, tuple] = {}    # code -> the (present, open question) this hub last published

    async def call(self, fn, *args):
        """A store call: in the thread pool when it waits on I/O, else right here."""
        if self._pool is None:
            return fn(*args)
        return await asyncio.get_running_loop().run_in_executor(self._pool, fn, *args)

    # -- rooms
    async def enter(self, conn: Conn) -> None:
        room = self.rooms.setdefault(conn.code, set())
        room.add(conn)
        if conn.code not in self._deliver:
            deliver = self._fan_out(conn.code)
            self._deliver[conn.code] = deliver
            await self.store.subscribe(conn.code, deliver)
        if self._sweeper is None or self._sweeper.done():
            self._sweeper = asyncio.ensure_future(self._sweep())
        if self._beater is None or self._beater.done():
            self._beater = asyncio.ensure_future(self._beat())

    async def leave(self, conn: Conn) -> None:
        room = self.rooms.get(conn.code)
        if room is None or conn not in room:
            return
        room.discard(conn)
        if not room:
            del self.rooms[conn.code]
            self._counts.pop(conn.code, None)
            deliver = self._deliver.pop(conn.code, None)
            if deliver is not None:
                await self.store.unsubscribe(conn.code, deliver)

    def _fan_out(self, code: str):
        def deliver(text: str) -> None:
            if text == st.RESYNC:
                asyncio.ensure_future(self._resync(code))
                return
            for conn in list(self.rooms.get(code, ())):
                conn.push(text)
        return deliver

    async def _gone_message(self, code: str) -> dict:
        """The ``ended`` message of a session the store no longer has: lost (unknown: the store restarted without
        it) or over (ended, expired)."""
        with contextlib.suppress(st.ClassError):
            if await self.call(self.store.lookup, code) == "unknown":
                return {"type": "ended", "why": st.LOST}
        return {"type": "ended", "why": st.EXPIRED}

    async def _resync(self, code: str) -> None:
        """The store's subscription came back after the store was unreachable (messages published meanwhile never
        came): each connection of the session here is welcomed again with the store's state (the browser catches up
        as on a reconnect), or told the session ended when the store no longer has it (never a silent split)."""
        try:
            status = await self.call(self.store.lookup, code)
            if status != "ok":
                self._fan_out(code)(dumps(await self._gone_message(code)))
                return
            for conn in list(self.rooms.get(code, ())):
                if conn.closing or not conn.welcomed:
                    continue
                if conn.role == "student" and not conn.departed:
                    await self.call(self.store.alive, code, conn.sid)
                snap = await self.call(self.store.snapshot, code, conn.sid)
                conn.send(self._welcome(conn, snap))
            self._counts.pop(code, None)         # the next beat publishes the counts
        except st.Unreachable:
            return                               # down again: its next resubscription resyncs
        except st.Gone:
            self._fan_out(code)(dumps(await self._gone_message(code)))

    def _welcome(self, conn: Conn, snap: dict) -> dict:
        welcome = {"type": "welcome", "role": conn.role, "code": conn.code, "beat": self.store.limits.beat_s, **snap}
        if conn.sid is not None:
            welcome["sid"] = conn.sid
        return welcome

    async def _sweep(self) -> None:
        """Now and then: forget what expired; end this process's rooms whose session expired."""
        period = max(0.2, min(30.0, self.store.limits.idle_s / 4))
        while self.rooms:
            await asyncio.sleep(period)
            with contextlib.suppress(st.Unreachable):       # the store down: its clients reconnect meanwhile
                await self.call(self.store.purge)
                for code in list(self.rooms):
                    if await self.call(self.store.lookup, code) != "ok":
                        self._fan_out(code)(dumps(await self._gone_message(code)))

    async def _beat(self) -> None:
        """Every ``beat_s``: drop the silent connections, ping the others, publish the counts that moved."""
        beat = self.store.limits.beat_s
        while self.rooms:
            await asyncio.sleep(beat)
            now = time.monotonic()
            for code, room in list(self.rooms.items()):
                for conn in list(room):
                    if now - conn.heard > st.SILENT_BEATS * beat:
                        await self._drop(conn)
                    elif conn.welcomed and not conn.closing:
                        conn.send({"type": "ping"})
                with contextlib.suppress(st.ClassError):
                    if code in self.rooms:
                        got = await self.call(self.store.count, code)
                        if got != self._counts.get(code):
                            await self._publish_counts(code, *got)

    async def _publish_counts(self, code: str, joined: int, open_q: tuple[str, int] | None) -> None:
        """``joined`` (and, with a question open, ``answered``) to everyone of the session."""
        self._counts[code] = (joined, open_q)
        await self.call(self.store.publish, code, {"type": "joined", "n": joined})
        if open_q is not None:
            await self.call(self.store.publish, code,
                            {"type": "answered", "qid": open_q[0], "n": open_q[1], "joined": joined})

    async def _depart(self, conn: Conn) -> None:
        """The connection's student is no longer present (unless another connection here has its id)."""
        if conn.departed or conn.role != "student" or conn.code is None:
            return
        conn.departed = True
        if any(c.sid == conn.sid and not c.departed for c in self.rooms.get(conn.code, ())):
            return
        with contextlib.suppress(st.ClassError):
            joined, open_q, fell = await self.call(self.store.depart, conn.code, conn.sid)
            if fell:
                await self._publish_counts(conn.code, joined, open_q)

    async def _drop(self, conn: Conn) -> None:
        """A connection silent for SILENT_BEATS beats: out of its room and the count, then closed."""
        await self.leave(conn)
        await self._depart(conn)
        if not conn.closing:
            conn.closing = True
            conn._abandon()

    # -- one connection
    async def serve(self, websocket: WebSocket) -> None:
        await websocket.accept()
        conn = Conn(websocket)
        try:
            if await self._hello(conn, client_address(websocket)):
                await self._loop(conn)
        except WebSocketDisconnect:
            pass
        except st.Unreachable:
            # the store (Redis) is down or restarting: no error (the browser would give up), a close; the browser
            # reconnects with its back-off and is welcomed once the store answers again
            log.warning("class hub: the store is unreachable; a connection closed to reconnect")
            conn.close_after(None)
        except Exception:  # noqa: BLE001 - one connection's failure must not take the hub down
            log.exception("class hub: a connection failed")
            conn.close_after({"type": "error", "why": "The server failed on this message."})
        finally:
            if conn.code is not None:
                await self.leave(conn)
                with contextlib.suppress(Exception):   # the store down: the presence expires by itself
                    await self._depart(conn)
            if not conn.closing:
                conn.close_after(None)
            await asyncio.wait([conn.sender], timeout=5)

    async def _receive(self, conn: Conn, timeout: float | None = None) -> dict | None:
        """The next message, parsed; None when the client left. An invalid one: ``error`` and close."""
        frame = await asyncio.wait_for(conn.ws.receive(), timeout)
        if frame["type"] == "websocket.disconnect":
            return None
        conn.heard = time.monotonic()
        return messages.parse(frame.get("text"))

    async def _hello(self, conn: Conn, address: str) -> bool:
        try:
            msg = await self._receive(conn, HELLO_TIMEOUT_S)
        except (asyncio.TimeoutError, Invalid) as exc:
            conn.close_after({"type": "error", "why": str(exc) or "Say hello first."})
            return False
        if msg is None:
            return False
        if msg["type"] != "hello":
            conn.close_after({"type": "error", "why": "The first message must be hello."})
            return False
        hello = messages.check_hello(msg)
        why = await self._admit(conn, hello, address)
        if why is not None:
            code = codes.normalise(hello["code"])
            if (code is not None and (hello.get("key") or hello.get("sid"))
                    and await self.call(self.store.lookup, code) == "unknown"):
                # someone who was in the session (a key, a student's id) and finds it gone from the store
                conn.close_after({"type": "ended", "why": st.LOST})
            else:
                conn.close_after({"type": "error", "why": why})
            return False
        return True

    async def _admit(self, conn: Conn, hello: dict, address: str) -> str | None:
        """Fix the connection's role and session and queue its welcome; else the sentence why not."""
        s = self.store
        if await self.call(s.join_blocked, address):
            return st.RATE_SENTENCE
        code = codes.normalise(hello["code"])
        if code is None:
            await self.call(s.failed_join, address)
            return st.MALFORMED_SENTENCE
        try:
            if "key" in hello:
                if not await self.call(s.check_key, code, hello["key"]):
                    await self.call(s.failed_join, address)
                    return (st.GONE_SENTENCE if await self.call(s.lookup, code) != "ok"
                            else "This is not the lecturer's key for this class session.")
                await self.call(s.touch, code)
                conn.role, conn.code = "lecturer", code
            else:
                sid, joined, grew = await self.call(s.join, code, hello["sid"])
                conn.role, conn.code, conn.sid = "student", code, sid
            await self.enter(conn)
            snap = await self.call(s.snapshot, code, conn.sid)
        except st.Gone as exc:
            await self.call(s.failed_join, address)
            return exc.why
        except st.Bound as exc:
            return exc.why
        conn.welcome(self._welcome(conn, snap))
        if conn.role == "student" and grew:
            q = snap["question"]
            await self._publish_counts(code, snap["joined"], (q["qid"], q["answered"]) if q else None)
        return None

    def _invalid(self, conn: Conn, what: str, exc: Invalid) -> bool:
        """An invalid message after hello: the lecturer's is ``refused`` (its connection, which drives the class,
        stays open); a student's gets an ``error`` and a close. True when the connection goes on."""
        if conn.role == "lecturer":
            conn.send({"type": "refused", "what": what, "why": str(exc)})
            return True
        conn.close_after({"type": "error", "why": str(exc)})
        return False

    async def _loop(self, conn: Conn) -> None:
        while not conn.closing:
            try:
                msg = await self._receive(conn)
            except Invalid as exc:
                if self._invalid(conn, "message", exc):
                    continue
                return
            if msg is None:
                return
            kind = msg["type"]
            if kind == "ping":
                conn.send({"type": "pong"})
            elif kind == "pong":
                await self._alive(conn)
            elif kind == "hello":
                conn.send({"type": "refused", "what": "hello", "why": "This connection has said hello already."})
            elif (kind in messages.LECTURER_ONLY) != (conn.role == "lecturer"):
                conn.send({"type": "refused", "what": kind})
            else:
                await self._apply(conn, kind, msg)

    async def _alive(self, conn: Conn) -> None:
        """A student's ``pong``: present for ``present_s`` more (counted again if it had been forgotten)."""
        if conn.role != "student" or conn.departed:
            return
        try:
            joined, grew = await self.call(self.store.alive, conn.code, conn.sid)
            if grew:
                await self._publish_counts(conn.code, *(await self.call(self.store.count, conn.code)))
        except st.Unreachable:
            pass                  # the store restarting: the connection stays (welcomed again when the store is back)
        except st.Gone:
            conn.close_after(await self._gone_message(conn.code))

    async def _apply(self, conn: Conn, kind: str, msg: dict) -> None:
        """A message the sender's role may send: checked, applied to the store, published."""
        try:
            fields = getattr(messages, f"check_{kind}")(msg) if kind != "end" else {}
            await getattr(self, f"_on_{kind}")(conn, fields)
        except Invalid as exc:
            self._invalid(conn, kind, exc)
        except st.Refused as exc:
            conn.send({"type": "refused", "what": kind, "why": exc.why})
        except st.Gone:           # the session ended, expired or was lost while this connection was in it
            conn.close_after(await self._gone_message(conn.code))

    async def _on_state(self, conn: Conn, f: dict) -> None:
        state = await self.call(self.store.set_state, conn.code, f)
        await self.call(self.store.publish, conn.code, {"type": "state", **state})

    async def _on_open(self, conn: Conn, f: dict) -> None:
        q = await self.call(self.store.open_question, conn.code, f)
        await self.call(self.store.publish, conn.code, {"type": "question", **q})

    async def _on_close(self, conn: Conn, f: dict) -> None:
        if not await self.call(self.store.close_question, conn.code, f["qid"]):
            raise st.Refused("This question is not open.")
        await self.call(self.store.publish, conn.code, {"type": "closed", "qid": f["qid"]})

    async def _on_vote(self, conn: Conn, f: dict) -> None:
        n, joined = await self.call(self.store.vote, conn.code, conn.sid, f["qid"], f["answer"])
        conn.send({"type": "voted", "qid": f["qid"], "answer": f["answer"]})
        await self.call(self.store.publish, conn.code, {"type": "answered", "qid": f["qid"], "n": n, "joined": joined})

    async def _on_leave(self, conn: Conn, f: dict) -> None:
        """A student leaves: no longer counted (its vote on the open question dropped); then the close."""
        joined, open_q, removed = await self.call(self.store.leave, conn.code, conn.sid)
        conn.departed = True
        conn.close_after(None)
        if removed:
            await self._publish_counts(conn.code, joined, open_q)

    async def _on_reveal(self, conn: Conn, f: dict) -> None:
        row, rows = await self.call(self.store.reveal, conn.code, f["qid"], f["correct"])
        await self.call(self.store.publish, conn.code, st.reveal_message(row))
        await self.call(self.store.publish, conn.code, {"type": "tally", "rows": rows})

    async def _on_show(self, conn: Conn, f: dict) -> None:
        """A round of proposals shown: each distinct move proposed with its count, to everyone (no names)."""
        out = await self.call(self.store.show, conn.code, f["qid"])
        await self.call(self.store.publish, conn.code, {"type": "proposals", **out})

    async def _on_eyes(self, conn: Conn, f: dict) -> None:
        await self.call(self.store.set_eyes, conn.code, f["on"])
        await self.call(self.store.publish, conn.code, {"type": "eyes", "on": f["on"]})

    async def _on_end(self, conn: Conn, f: dict) -> None:
        await self.call(self.store.end, conn.code)
        await self.call(self.store.publish, conn.code, {"type": "ended", "why": st.ENDED_BY_LECTURER})
