"""The class session's incoming messages, checked field by field (docs/class-session.md, "Messages").

Each ``check_<type>`` takes the parsed JSON object a client sent and returns a fresh dict with only the
fields the contract names, of the types and lengths it allows; anything else raises :class:`Invalid`
with one sentence. Nothing a client sends passes on unchecked: the hub forwards these dicts only.

>>> check_state({"type": "state", "page": "perceptron", "query": "gamma=0.1", "run": "ab12", "position": 3,
...              "playing": False, "asking": None, "junk": 1})["position"]
3
>>> check_vote({"qid": "q1", "answer": "yes"})
{'qid': 'q1', 'answer': 'yes'}
>>> check_vote({"qid": "q1", "answer": ["yes"]})
Traceback (most recent call last):
...
olc_ui.classroom.messages.Invalid: "answer" must be a short identifier.
"""
from __future__ import annotations

import json
import re

#: the largest frame the hub reads (a question with 12 choices is under 4 KB)
MAX_FRAME = 16 * 1024
LECTURER_ONLY = frozenset({"state", "open", "reveal", "close", "show", "eyes", "end"})
STUDENT_ONLY = frozenset({"vote", "leave"})
KNOWN = LECTURER_ONLY | STUDENT_ONLY | {"hello", "ping", "pong"}

_ID = re.compile(r"[A-Za-z0-9_.:\-]{1,64}")
_PAGE = re.compile(r"[A-Za-z0-9_\-]{1,64}(?:/[A-Za-z0-9_\-]{1,64}){0,3}")
_SID = re.compile(r"[A-Za-z0-9_\-]{1,64}")
MAX_QUERY = 4000
MAX_TEXT = 600
MAX_LABEL = 200
MAX_CHOICES = 12
MAX_ROUND = 10**9
#: a tour's stop in ``state`` (docs/tours.md): the tour's id, the stop (1-based), an own tour's file (``tourdata``)
_TOUR_ID = re.compile(r"[a-z0-9][a-z0-9-]{0,47}")
_TOUR_DATA = re.compile(r"[A-Za-z0-9_\-]{1,1800}")
MAX_STOPS = 60


class Invalid(ValueError):
    """A message the contract does not allow; ``str()`` is the sentence sent back."""


def parse(text) -> dict:
    """The JSON object of one frame (text), or :class:`Invalid`."""
    if not isinstance(text, str):
        raise Invalid("Messages are JSON text frames.")
    if len(text) > MAX_FRAME:
        raise Invalid(f"A message may be at most {MAX_FRAME} characters.")
    try:
        msg = json.loads(text)
    except ValueError:
        raise Invalid("A message must be a JSON object.") from None
    if not isinstance(msg, dict) or not isinstance(msg.get("type"), str):
        raise Invalid("A message must be a JSON object with a \"type\".")
    if msg["type"] not in KNOWN:
        raise Invalid("Unknown message type.")
    return msg


def ident(msg: dict, name: str) -> str:
    v = msg.get(name)
    if not isinstance(v, str) or not _ID.fullmatch(v):
        raise Invalid(f"\"{name}\" must be a short identifier.")
    return v


def text(msg: dict, name: str, limit: int, pattern: re.Pattern | None = None) -> str:
    v = msg.get(name)
    if not isinstance(v, str) or len(v) > limit or (pattern is not None and not pattern.fullmatch(v)):
        raise Invalid(f"\"{name}\" must be a string of at most {limit} characters.")
    return v


def integer(msg: dict, name: str, optional: bool = False) -> int | None:
    v = msg.get(name)
    if v is None and optional:
        return None
    if isinstance(v, bool) or not isinstance(v, int) or not 0 <= v <= MAX_ROUND:
        raise Invalid(f"\"{name}\" must be a whole number from 0" + (" or null." if optional else "."))
    return v


def boolean(msg: dict, name: str) -> bool:
    v = msg.get(name)
    if not isinstance(v, bool):
        raise Invalid(f"\"{name}\" must be true or false.")
    return v


def check_hello(msg: dict) -> dict:
    """``{code, key}`` or ``{code, sid}`` (sid None for a new student); the code is normalised by the hub."""
    code = msg.get("code")
    if not isinstance(code, str) or len(code) > 32:
        code = None
    out = {"code": code}
    if "key" in msg:
        key = msg.get("key")
        out["key"] = key if isinstance(key, str) and len(key) <= 128 else ""
    else:
        sid = msg.get("sid")
        out["sid"] = sid if isinstance(sid, str) and _SID.fullmatch(sid) else None
    return out


def check_state(msg: dict) -> dict:
    run = msg.get("run")
    if isinstance(run, bool) or not isinstance(run, (str, int)) or (isinstance(run, str) and len(run) > 128):
        raise Invalid("\"run\" must be the viewer's run id.")
    return {"page": text(msg, "page", 200, _PAGE), "query": text(msg, "query", MAX_QUERY), "run": run,
            "position": integer(msg, "position"), "playing": boolean(msg, "playing"),
            "asking": integer(msg, "asking", optional=True), "tour": check_tour(msg.get("tour"))}


def check_tour(tour) -> dict | None:
    """The lecturer's tour stop in ``state``: None (not on a tour), or ``{id, stop}`` and, for an own tour small
    enough to travel in its links, ``data`` (its ``tourdata``, docs/tours.md).

    >>> check_tour({"id": "000-perceptron-and-winnow", "stop": 3, "x": 1})
    {'id': '000-perceptron-and-winnow', 'stop': 3}
    >>> check_tour({"id": "<b>", "stop": 3})
    Traceback (most recent call last):
    ...
    olc_ui.classroom.messages.Invalid: "tour" must be null or {id, stop, data}: a tour's id, a stop from 1 to 60.
    """
    if tour is None:
        return None
    bad = Invalid(f"\"tour\" must be null or {{id, stop, data}}: a tour's id, a stop from 1 to {MAX_STOPS}.")
    if not isinstance(tour, dict):
        raise bad
    tid, stop, data = tour.get("id"), tour.get("stop"), tour.get("data")
    if not isinstance(tid, str) or not _TOUR_ID.fullmatch(tid) or isinstance(stop, bool) or not isinstance(stop, int) \
            or not 1 <= stop <= MAX_STOPS or (data is not None and (not isinstance(data, str) or not _TOUR_DATA.fullmatch(data))):
        raise bad
    return {"id": tid, "stop": stop, **({"data": data} if data is not None else {})}


def check_choices(msg: dict) -> list[dict]:
    choices = msg.get("choices")
    if not isinstance(choices, list) or not 2 <= len(choices) <= MAX_CHOICES:
        raise Invalid(f"\"choices\" must be a list of 2 to {MAX_CHOICES} choices.")
    out = []
    for c in choices:
        if not isinstance(c, dict):
            raise Invalid("Each choice must be an object {id, label}.")
        out.append({"id": ident(c, "id"), "label": text(c, "label", MAX_LABEL)})
    if len({c["id"] for c in out}) != len(out):
        raise Invalid("The choices' ids must differ.")
    return out


def check_open(msg: dict) -> dict:
    """A question (``choices`` to vote among), or with ``kind: "propose"`` a round of proposals: the class proposes
    the adversary's next move of a game, each answer a move in the game's own short form (no choices; shown as
    counts per distinct move by ``show``)."""
    kind = msg.get("kind", "question")
    if kind not in ("question", "propose"):
        raise Invalid("\"kind\" must be \"question\" or \"propose\".")
    out = {"qid": ident(msg, "qid"), "round": integer(msg, "round", optional=True),
           "page": text(msg, "page", 200, _PAGE), "text": text(msg, "text", MAX_TEXT),
           "choices": check_choices(msg) if kind == "question" else []}
    if kind == "propose":
        out["kind"] = "propose"
    return out


def check_vote(msg: dict) -> dict:
    return {"qid": ident(msg, "qid"), "answer": ident(msg, "answer")}


def check_reveal(msg: dict) -> dict:
    return {"qid": ident(msg, "qid"), "correct": ident(msg, "correct")}


def check_close(msg: dict) -> dict:
    return {"qid": ident(msg, "qid")}


def check_show(msg: dict) -> dict:
    return {"qid": ident(msg, "qid")}


def check_leave(msg: dict) -> dict:
    return {}


def check_eyes(msg: dict) -> dict:
    return {"on": boolean(msg, "on")}


def dumps(message: dict) -> str:
    """A message as the JSON text frame sent (compact)."""
    return json.dumps(message, separators=(",", ":"))
