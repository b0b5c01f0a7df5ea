"""The class session's store: one small interface, two backends (docs/class-session.md).

:class:`Store` is what the hub (olc_ui/classroom/hub.py) and the page side call; :class:`MemoryStore`
keeps everything in this process (the default: ``bash scripts/app.sh``), ``RedisStore``
(olc_ui/classroom/redis_store.py) in a Redis shared by several processes (``scripts/serve.sh K``).
Both pass the same tests (tests/classroom/).

Every call is synchronous and thread-safe: Streamlit's script threads call ``create`` / ``lookup``, the
hub calls the rest from the server's event loop (through a worker thread when ``blocking``: a Redis
call waits on the network). Publish/subscribe carries a session's messages to every connection of it,
in every process: ``publish`` from any thread, ``subscribe`` from the event loop whose ``deliver``
(a plain function taking the message's JSON text) is then called in that loop.

Codes reaching the store are already normalised (codes.normalise); the hub has checked the types and
lengths of every field (hub.py), the store checks what needs the session: the open question, its
choices, the bounds.
"""
from __future__ import annotations

import asyncio
import os
import secrets
import threading
import time
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Callable

from olc_ui.classroom import codes
from olc_ui.classroom.messages import dumps

Deliver = Callable[[str], None]

ENDED_BY_LECTURER = "the lecturer ended the session"
EXPIRED = "the session expired"
#: the session vanished from the store while its clients were connected (a Redis restarted without persistence)
LOST = "the server lost the session (its store restarted without it): start a new one"
#: what a store delivers to every code of this process when its subscription came back after the store was
#: unreachable (the messages published meanwhile never came): the hub welcomes each connection again
RESYNC = '{"type":"resync"}'
#: failed joins (unknown, malformed or expired codes, wrong keys) allowed per client address per window
FAILED_JOINS_PER_WINDOW = 20
FAILED_JOIN_WINDOW_S = 60.0
#: the hub closes a connection that has said nothing (no ``pong`` to its ``ping``) for this many heartbeats
SILENT_BEATS = 3
#: a student stays counted this many heartbeats after its connection's last sign of life (a crashed process's
#: students drop out of the count by themselves; a live connection renews it every heartbeat)
PRESENT_BEATS = 4


class ClassError(Exception):
    """A sentence for the person who asked (``why``): a bound, an unknown or expired code, a refused vote."""

    def __init__(self, why: str):
        super().__init__(why)
        self.why = why


class Gone(ClassError):
    """The code names no live session (unknown, ended or expired)."""


class Bound(ClassError):
    """A bound of docs/class-session.md was reached (sessions per store, students per session)."""


class Refused(ClassError):
    """A student's vote the open question does not take (no open question, another qid, not a choice)."""


class Unreachable(ClassError):
    """The store (Redis) does not answer just now: the hub closes the connection without an ``error`` (the browser
    reconnects with its back-off and is welcomed again once the store is back)."""


@dataclass(frozen=True)
class Limits:
    """The bounds, from the environment (docs/class-session.md, "Roles and trust"), and the heartbeat: the hub
    pings every connection every ``beat_s`` seconds (OLC_CLASS_BEAT_S)."""
    idle_s: float = 10800.0
    max_sessions: int = 200
    max_students: int = 500
    beat_s: float = 5.0

    @classmethod
    def from_env(cls, env=None) -> "Limits":
        env = os.environ if env is None else env
        return cls(idle_s=float(env.get("OLC_CLASS_IDLE_S", cls.idle_s)),
                   max_sessions=int(env.get("OLC_CLASS_MAX_SESSIONS", cls.max_sessions)),
                   max_students=int(env.get("OLC_CLASS_MAX_STUDENTS", cls.max_students)),
                   beat_s=max(0.05, float(env.get("OLC_CLASS_BEAT_S", cls.beat_s))))

    @property
    def present_s(self) -> float:
        """How long a student stays counted after its connection's last sign of life."""
        return PRESENT_BEATS * self.beat_s

    def sessions_sentence(self) -> str:
        return (f"This server already runs {self.max_sessions} class sessions, its limit "
                "(OLC_CLASS_MAX_SESSIONS): end one or try again later.")

    def students_sentence(self) -> str:
        return (f"This class session is full: {self.max_students} students have joined, the limit "
                "(OLC_CLASS_MAX_STUDENTS).")


GONE_SENTENCE = "This class code is wrong or has expired: check it with your lecturer."
MALFORMED_SENTENCE = ("This is not a class code: a code is 6 letters and digits (no 0, O, 1, I or L).")
RATE_SENTENCE = "Too many wrong class codes from this address: wait a minute before trying again."


def new_sid() -> str:
    """A student's id: random, opaque, kept by the browser in sessionStorage."""
    return secrets.token_urlsafe(12)


def now_ms() -> int:
    return int(time.time() * 1000)


def reveal_result(question: dict, votes: dict[str, str], correct: str, joined: int, n: int) -> dict:
    """The tally row of a revealed question (the ``reveal`` message is the same numbers): ``votes`` are the answers of
    the students connected at the reveal, ``joined`` how many they are.

    >>> q = {"qid": "q1", "round": 3, "page": "perceptron", "text": "Mistake?",
    ...      "choices": [{"id": "y", "label": "yes"}, {"id": "n", "label": "no"}]}
    >>> r = reveal_result(q, {"a": "y", "b": "n", "c": "y"}, "y", joined=4, n=1)
    >>> r["counts"], r["answered"], r["share"], r["correct_label"]
    ({'y': 2, 'n': 1}, 3, 0.6667, 'yes')
    """
    counts = {c["id"]: 0 for c in question["choices"]}
    for answer in votes.values():
        if answer in counts:
            counts[answer] += 1
    answered = sum(counts.values())
    label = next(c["label"] for c in question["choices"] if c["id"] == correct)
    return {"n": n, "qid": question["qid"], "page": question["page"], "round": question["round"],
            "text": question["text"], "choices": [dict(c) for c in question["choices"]],
            "correct": correct, "correct_label": label, "counts": counts,
            "answered": answered, "joined": joined,
            "share": round(counts[correct] / answered, 4) if answered else None}


#: the most distinct proposals a ``proposals`` message carries (the most proposed first)
MAX_PROPOSALS = 100
NOT_A_QUESTION = "A round of proposals is shown, not revealed."
NOT_PROPOSALS = "This question is revealed, not shown."


def proposals_result(qid: str, votes: dict[str, str], joined: int) -> dict:
    """The ``proposals`` message's numbers for a round of proposals: each distinct move with how many students
    proposed it (the most proposed first, then in order; at most :data:`MAX_PROPOSALS`), how many proposed.

    >>> proposals_result("p1", {"a": "3:4:1", "b": "0:9:-1", "c": "3:4:1"}, joined=4)
    {'qid': 'p1', 'counts': [['3:4:1', 2], ['0:9:-1', 1]], 'answered': 3, 'joined': 4}
    """
    n: dict[str, int] = {}
    for answer in votes.values():
        n[answer] = n.get(answer, 0) + 1
    ranked = sorted(n.items(), key=lambda kv: (-kv[1], kv[0]))[:MAX_PROPOSALS]
    return {"qid": qid, "counts": [[k, v] for k, v in ranked], "answered": len(votes), "joined": joined}


def proposing(question: dict | None) -> bool:
    return bool(question) and question.get("kind") == "propose"


def reveal_message(row: dict) -> dict:
    """The ``reveal`` message of a tally row."""
    return {"type": "reveal", **{k: row[k] for k in ("qid", "correct", "counts", "answered", "joined", "share")}}


def choice_ids(question: dict) -> list[str]:
    return [c["id"] for c in question["choices"]]


class Store(ABC):
    """A class session's state and messages (see the module docstring). Codes are normalised."""

    #: whether calls wait on I/O (the hub then calls them from a worker thread)
    blocking = False

    def __init__(self, limits: Limits | None = None):
        self.limits = limits or Limits.from_env()

    # -- sessions
    @abstractmethod
    def create(self, page: str, query: str) -> tuple[str, str]:
        """A new session: (code, lecturer key). Raises :class:`Bound` past OLC_CLASS_MAX_SESSIONS."""

    @abstractmethod
    def seed(self, code: str, key: str, page: str = "", query: str = "") -> None:
        """Create the session ``code`` with the given key unless it exists (bench hook, OLC_CLASS_SEED)."""

    @abstractmethod
    def lookup(self, code: str) -> str:
        """``"ok"``, ``"unknown"`` or ``"expired"`` (ended by the lecturer or idle too long)."""

    @abstractmethod
    def check_key(self, code: str, key) -> bool:
        """Whether ``key`` is the lecturer key of the live session ``code``."""

    @abstractmethod
    def touch(self, code: str) -> None:
        """Lecturer activity: the idle clock starts again."""

    # A student is *joined* (a member: its id, its votes) from its first hello until it leaves, and *present*
    # while one of its connections shows signs of life (renewed by :meth:`alive`, dropped by :meth:`depart`, else
    # forgotten ``limits.present_s`` after the last sign). Every count a message carries — ``joined`` and
    # ``answered`` — is of the present students: a closed tab, a stalled phone or a silent socket is not counted.
    @abstractmethod
    def join(self, code: str, sid: str | None) -> tuple[str, int, bool]:
        """A student's connection says hello (a new student, or one returning with ``sid``): it is present. Returns
        (sid, students present, whether the count grew). Raises :class:`Gone`, or :class:`Bound` past
        OLC_CLASS_MAX_STUDENTS present (members no longer present are forgotten first)."""

    @abstractmethod
    def alive(self, code: str, sid: str) -> tuple[int, bool]:
        """A sign of life of ``sid``'s connection (its ``pong``): present for ``limits.present_s`` more. Returns
        (students present, whether the count grew: it had been forgotten). A student who left is not made present.
        Raises :class:`Gone`."""

    @abstractmethod
    def depart(self, code: str, sid: str) -> tuple[int, tuple[str, int] | None, bool]:
        """``sid``'s connection closed (its last one in this process): no longer present, still a member (its vote
        is kept and counts again when it comes back). Returns (students present, (the open question's qid,
        answered) or None, whether the count fell). Raises :class:`Gone`."""

    @abstractmethod
    def count(self, code: str) -> tuple[int, tuple[str, int] | None]:
        """(students present, (the open question's qid, answered) or None), forgetting who has not shown a sign
        of life for ``limits.present_s``. Raises :class:`Gone`."""

    @abstractmethod
    def leave(self, code: str, sid: str | None) -> tuple[int, tuple[str, int] | None, bool]:
        """A student leaves: no longer joined, its vote on the open question dropped. Returns (students present,
        (the open question's qid, answered) or None, whether ``sid`` was joined). Raises :class:`Gone`."""

    @abstractmethod
    def snapshot(self, code: str, sid: str | None = None) -> dict:
        """``{state, joined, question, eyes, tally}`` for a ``welcome`` (``joined``: students present);
        ``question`` carries ``answered`` and, with ``sid``, ``mine`` (that student's answer or None).
        Raises :class:`Gone`."""

    # -- the lecturer's messages (each one is lecturer activity)
    @abstractmethod
    def set_state(self, code: str, state: dict) -> dict:
        """Keep the lecturer's state; returns it with ``seq`` (a counter per session) and ``at`` (ms)."""

    @abstractmethod
    def open_question(self, code: str, question: dict) -> dict:
        """Open ``question`` (``qid, round, page, text, choices``), replacing an open one and its votes;
        returns the ``question`` message's fields (with ``answered`` and ``joined``)."""

    @abstractmethod
    def close_question(self, code: str, qid: str) -> bool:
        """Close the open question ``qid`` without revealing it; False when it is not the open one."""

    @abstractmethod
    def vote(self, code: str, sid: str, qid: str, answer: str) -> tuple[int, int]:
        """Record (or replace) a joined student's answer (a sign of life too): (answered, present).
        Raises :class:`Refused`."""

    @abstractmethod
    def reveal(self, code: str, qid: str, correct: str) -> tuple[dict, list[dict]]:
        """Close the open question ``qid`` with its right answer: (its tally row — the answers of the students
        present —, every tally row). Raises :class:`Refused` when ``qid`` is not open or ``correct`` is not one of
        its choices."""

    @abstractmethod
    def show(self, code: str, qid: str) -> dict:
        """A round of proposals (``open`` with kind "propose"): its counts (:func:`proposals_result`); it closes.
        Refused when ``qid`` is not the open round, or is a question (revealed, not shown)."""

    @abstractmethod
    def set_eyes(self, code: str, on: bool) -> None:
        """"All eyes here" on or off."""

    @abstractmethod
    def end(self, code: str) -> None:
        """The lecturer ends the session: its code then looks up as ``"expired"``."""

    # -- failed joins per client address
    @abstractmethod
    def failed_join(self, address: str) -> None:
        """Count a failed join (unknown / malformed / expired code, wrong key) from ``address``."""

    @abstractmethod
    def join_blocked(self, address: str) -> bool:
        """Whether ``address`` has had FAILED_JOINS_PER_WINDOW failed joins in the current window."""

    # -- messages
    @abstractmethod
    def publish(self, code: str, message: dict) -> None:
        """Send ``message`` to every subscriber of ``code``, in every process."""

    @abstractmethod
    async def subscribe(self, code: str, deliver: Deliver) -> None:
        """From the event loop: ``deliver(text)`` (in that loop) for each message published to ``code``."""

    @abstractmethod
    async def unsubscribe(self, code: str, deliver: Deliver) -> None:
        """Undo :meth:`subscribe`."""

    def purge(self) -> None:
        """Forget what has expired (sessions, tombstones, rate-limit windows). Called now and then."""


# ------------------------------------------------------------------------------ in memory

@dataclass
class _Session:
    digest: str
    page: str
    query: str
    active: float                          # time.monotonic() of the last lecturer activity
    seq: int = 0
    state: dict | None = None
    students: set = field(default_factory=set)
    present: dict = field(default_factory=dict)   # sid -> until when (clock) it is counted
    question: dict | None = None
    votes: dict = field(default_factory=dict)
    eyes: bool = False
    tally: list = field(default_factory=list)


class _Subscribers:
    """deliver functions per code, each with the event loop it belongs to (shared by both backends' local side)."""

    def __init__(self):
        self._lock = threading.Lock()
        self._by_code: dict[str, list[tuple[asyncio.AbstractEventLoop, Deliver]]] = {}

    def add(self, code: str, deliver: Deliver) -> bool:
        """Add; True when it is the code's first subscriber in this process."""
        loop = asyncio.get_running_loop()
        with self._lock:
            subs = self._by_code.setdefault(code, [])
            subs.append((loop, deliver))
            return len(subs) == 1

    def remove(self, code: str, deliver: Deliver) -> bool:
        """Remove; True when the code has no subscriber left in this process."""
        with self._lock:
            subs = [s for s in self._by_code.get(code, []) if s[1] is not deliver]
            if subs:
                self._by_code[code] = subs
                return False
            self._by_code.pop(code, None)
            return True

    def codes(self) -> list[str]:
        with self._lock:
            return list(self._by_code)

    def deliver(self, code: str, text: str) -> None:
        with self._lock:
            subs = list(self._by_code.get(code, ()))
        try:
            running = asyncio.get_running_loop()
        except RuntimeError:
            running = None
        for loop, fn in subs:
            if loop is running:
                fn(text)
            elif not loop.is_closed():
                loop.call_soon_threadsafe(fn, text)


class MemoryStore(Store):
    """Everything in this process's memory, behind one lock (the default store)."""

    def __init__(self, limits: Limits | None = None, clock: Callable[[], float] = time.monotonic):
        super().__init__(limits)
        self._clock = clock
        self._lock = threading.RLock()
        self._sessions: dict[str, _Session] = {}
        self._gone: dict[str, float] = {}              # code -> when it ended or expired (clock)
        self._fails: dict[str, tuple[float, int]] = {}  # address -> (window start, failures)
        self._subs = _Subscribers()

    def _live(self, code: str) -> _Session:
        s = self._sessions.get(code)
        if s is not None and self._clock() - s.active > self.limits.idle_s:
            self._bury(code)
            s = None
        if s is None:
            raise Gone(GONE_SENTENCE)
        return s

    def _bury(self, code: str) -> None:
        self._sessions.pop(code, None)
        self._gone[code] = self._clock()

    def purge(self) -> None:
        with self._lock:
            now = self._clock()
            for code in [c for c, s in self._sessions.items() if now - s.active > self.limits.idle_s]:
                self._bury(code)
            for code in [c for c, t in self._gone.items() if now - t > self.limits.idle_s]:
                del self._gone[code]
            for addr in [a for a, (t, _) in self._fails.items() if now - t > FAILED_JOIN_WINDOW_S]:
                del self._fails[addr]

    def create(self, page: str, query: str) -> tuple[str, str]:
        key = codes.new_key()
        with self._lock:
            self.purge()
            if len(self._sessions) >= self.limits.max_sessions:
                raise Bound(self.limits.sessions_sentence())
            code = codes.new_code()
            while code in self._sessions or code in self._gone:
                code = codes.new_code()
            self._sessions[code] = _Session(codes.digest(key), page, query, self._clock())
        return code, key

    def seed(self, code: str, key: str, page: str = "", query: str = "") -> None:
        with self._lock:
            if code not in self._sessions:
                self._sessions[code] = _Session(codes.digest(key), page, query, self._clock())

    def lookup(self, code: str) -> str:
        with self._lock:
            try:
                self._live(code)
            except Gone:
                return "expired" if code in self._gone else "unknown"
            return "ok"

    def check_key(self, code: str, key) -> bool:
        with self._lock:
            s = self._sessions.get(code)
            digest = s.digest if s is not None and self.lookup(code) == "ok" else None
        return codes.key_matches(digest, key)

    def touch(self, code: str) -> None:
        with self._lock:
            self._live(code).active = self._clock()

    def _present(self, s: _Session) -> dict:
        """The session's present students (sid -> until when), the expired forgotten."""
        now = self._clock()
        for sid in [x for x, until in s.present.items() if until <= now]:
            del s.present[sid]
        return s.present

    def _mark(self, s: _Session, sid: str) -> bool:
        """``sid`` present for ``present_s`` more; whether it was not present."""
        was = sid in self._present(s)
        s.present[sid] = self._clock() + self.limits.present_s
        return not was

    def _votes(self, s: _Session) -> dict:
        """The votes of the present students."""
        present = self._present(s)
        return {sid: a for sid, a in s.votes.items() if sid in present}

    def _counts(self, s: _Session) -> tuple[int, tuple[str, int] | None]:
        joined = len(self._present(s))
        return joined, ((s.question["qid"], len(self._votes(s))) if s.question is not None else None)

    def join(self, code: str, sid: str | None) -> tuple[str, int, bool]:
        with self._lock:
            s = self._live(code)
            if sid is not None and sid in s.students:
                grew = self._mark(s, sid)
                return sid, len(s.present), grew
            if len(s.students) >= self.limits.max_students:    # forget the members no longer present
                present = self._present(s)
                s.students = {x for x in s.students if x in present}
                s.votes = {x: a for x, a in s.votes.items() if x in present}
            if len(s.students) >= self.limits.max_students:
                raise Bound(self.limits.students_sentence())
            sid = new_sid()
            s.students.add(sid)
            self._mark(s, sid)
            return sid, len(s.present), True

    def alive(self, code: str, sid: str) -> tuple[int, bool]:
        with self._lock:
            s = self._live(code)
            grew = self._mark(s, sid) if sid in s.students else False
            return len(self._present(s)), grew

    def depart(self, code: str, sid: str) -> tuple[int, tuple[str, int] | None, bool]:
        with self._lock:
            s = self._live(code)
            fell = self._present(s).pop(sid, None) is not None
            return (*self._counts(s), fell)

    def count(self, code: str) -> tuple[int, tuple[str, int] | None]:
        with self._lock:
            return self._counts(self._live(code))

    def leave(self, code: str, sid: str | None) -> tuple[int, tuple[str, int] | None, bool]:
        with self._lock:
            s = self._live(code)
            removed = sid is not None and sid in s.students
            s.students.discard(sid)
            s.votes.pop(sid, None)
            s.present.pop(sid, None)
            return (*self._counts(s), removed)

    def snapshot(self, code: str, sid: str | None = None) -> dict:
        with self._lock:
            s = self._live(code)
            joined, open_q = self._counts(s)
            question = None
            if s.question is not None:
                question = {**s.question, "answered": open_q[1], "joined": joined}
                if sid is not None:
                    question["mine"] = s.votes.get(sid)
            return {"state": dict(s.state) if s.state else None, "joined": joined,
                    "question": question, "eyes": s.eyes, "tally": [dict(r) for r in s.tally]}

    def set_state(self, code: str, state: dict) -> dict:
        with self._lock:
            s = self._live(code)
            s.active = self._clock()
            s.seq += 1
            s.state = {**state, "seq": s.seq, "at": now_ms()}
            return dict(s.state)

    def open_question(self, code: str, question: dict) -> dict:
        with self._lock:
            s = self._live(code)
            s.active = self._clock()
            s.question, s.votes = dict(question), {}
            return {**question, "answered": 0, "joined": len(self._present(s))}

    def close_question(self, code: str, qid: str) -> bool:
        with self._lock:
            s = self._live(code)
            s.active = self._clock()
            if s.question is None or s.question["qid"] != qid:
                return False
            s.question, s.votes = None, {}
            return True

    def vote(self, code: str, sid: str, qid: str, answer: str) -> tuple[int, int]:
        with self._lock:
            s = self._live(code)
            if s.question is None or s.question["qid"] != qid:
                raise Refused("This question is not open any more.")
            if (not proposing(s.question) and answer not in choice_ids(s.question)) or sid not in s.students:
                raise Refused("This answer is not one of the question's choices.")
            s.votes[sid] = answer
            self._mark(s, sid)
            joined, open_q = self._counts(s)
            return open_q[1], joined

    def reveal(self, code: str, qid: str, correct: str) -> tuple[dict, list[dict]]:
        with self._lock:
            s = self._live(code)
            s.active = self._clock()
            if s.question is None or s.question["qid"] != qid:
                raise Refused("This question is not open.")
            if proposing(s.question):
                raise Refused(NOT_A_QUESTION)
            if correct not in choice_ids(s.question):
                raise Refused("The right answer is not one of the question's choices.")
            row = reveal_result(s.question, self._votes(s), correct, len(self._present(s)), len(s.tally) + 1)
            s.tally.append(row)
            s.question, s.votes = None, {}
            return dict(row), [dict(r) for r in s.tally]

    def show(self, code: str, qid: str) -> dict:
        with self._lock:
            s = self._live(code)
            s.active = self._clock()
            if s.question is None or s.question["qid"] != qid:
                raise Refused("This round of proposals is not open.")
            if not proposing(s.question):
                raise Refused(NOT_PROPOSALS)
            out = proposals_result(qid, self._votes(s), len(self._present(s)))
            s.question, s.votes = None, {}
            return out

    def set_eyes(self, code: str, on: bool) -> None:
        with self._lock:
            s = self._live(code)
            s.active, s.eyes = self._clock(), bool(on)

    def end(self, code: str) -> None:
        with self._lock:
            self._live(code)
            self._bury(code)

    def failed_join(self, address: str) -> None:
        with self._lock:
            now = self._clock()
            start, n = self._fails.get(address, (now, 0))
            if now - start > FAILED_JOIN_WINDOW_S:
                start, n = now, 0
            self._fails[address] = (start, n + 1)
            if len(self._fails) > 100_000:
                self.purge()

    def join_blocked(self, address: str) -> bool:
        with self._lock:
            start, n = self._fails.get(address, (0.0, 0))
            return n >= FAILED_JOINS_PER_WINDOW and self._clock() - start <= FAILED_JOIN_WINDOW_S

    def publish(self, code: str, message: dict) -> None:
        self._subs.deliver(code, dumps(message))

    async def subscribe(self, code: str, deliver: Deliver) -> None:
        self._subs.add(code, deliver)

    async def unsubscribe(self, code: str, deliver: Deliver) -> None:
        self._subs.remove(code, deliver)
