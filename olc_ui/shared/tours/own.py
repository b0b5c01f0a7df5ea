"""A student's or lecturer's own tours (issue 33 §4): built from the app's views, opened from a file, carried by a
link.

- Every lesson page's sidebar has **Add this view to a tour**: the page, its settings and the round on screen, a
  note (≤ 60 words) and a claim to check (no inequality fails / the mistakes within the bound / the theorem's
  assumptions hold), appended to the session's draft. The draft is edited on the Tours page (title, each stop's
  note, reorder, remove) and downloads as a tour file (docs/tours.md).
- A tour file opened on the Tours page (an upload) is checked like the folder's (a bad one gets every problem named
  by stop and field, and nothing else changes).
- A draft or an opened tour is kept under an id made from its content (``own-<hash>``), so its stops' links work
  after a page load: by this server process, and, when ``OLC_REDIS_URL`` is set (scripts/serve.sh: several
  processes, as the class sessions are), in Redis too (``olc:tour:<id>``, for ``OLC_TOUR_TTL_S`` seconds, 30 days by
  default, renewed when it is opened), so that every process finds it; a small one also travels in the link itself
  (``tourdata=``: the file, compressed), so a copied link opens it on any server.
"""
from __future__ import annotations

import base64
import functools
import hashlib
import json
import logging
import os
import threading
import zlib
from collections import OrderedDict
from dataclasses import replace
from typing import Any

import redis

from olc_ui.shared.tours.format import FORMAT, MAX_BYTES, Tour, TourError, parse, Problem

__all__ = ["CLAIMS", "LINK_MAX", "doc_of", "own_id", "remember", "recall", "link_data", "from_link", "draft_doc"]

#: the claims a stop made from a view can check, by their label
CLAIMS = {
    "Every inequality of the proof holds up to this round": {"kind": "no_violation"},
    "The mistakes stay within the theorem's bound": {"kind": "compare", "left": "bounded", "op": "<=",
                                                     "right": "bound"},
    "The theorem gives a bound on these data": {"kind": "bound", "claimed": True},
}
#: a tour travels in its links only up to this many characters of ``tourdata``
LINK_MAX = 1800
_KEEP = 64
_lock = threading.Lock()
_kept: "OrderedDict[str, Tour]" = OrderedDict()


def doc_of(tour: Tour) -> dict[str, Any]:
    """The tour file of ``tour`` (what the download writes; it reads back as the same tour)."""
    stops = []
    for s in tour.stops:
        stop = {"page": s.page, "settings": dict(s.settings), "t": s.t, "text": s.text, "ref": s.ref,
                "claim": s.claim}
        if s.hide:
            stop["hide"] = s.hide
        if s.run:
            stop["run"] = s.run
        if s.ask:
            stop["ask"] = True
        if s.point:
            stop["point"] = dict(s.point)
        stops.append(stop)
    doc = {"format": FORMAT, "id": tour.id, "title": tour.title}
    if tour.note:
        doc["note"] = tour.note
    if tour.description:
        doc["description"] = tour.description
    doc["stops"] = stops
    return doc


def own_id(doc: dict[str, Any]) -> str:
    """The id a tour is kept under: ``own-`` and a hash of its content (its own ``id`` left out)."""
    body = json.dumps({k: v for k, v in doc.items() if k != "id"}, sort_keys=True, ensure_ascii=False)
    return "own-" + hashlib.blake2b(body.encode(), digest_size=6).hexdigest()


def _canonical(doc: dict[str, Any]) -> Tour:
    """The tour of ``doc`` (checked: schema and texts) under the id of its canonical file (settings as the URL
    writes them), so that the same tour always has the same id, however its file spelled it."""
    tour = parse({**doc, "id": "own-pending"})
    return replace(tour, id=own_id(doc_of(tour)))


_LOG = logging.getLogger(__name__)
#: Redis keys of own tours (the class sessions' are ``olc:class:``)
REDIS_PREFIX = "olc:tour:"
_TTL_DEFAULT_S = 30 * 24 * 3600


def _ttl_s() -> int:
    try:
        return max(60, int(os.environ.get("OLC_TOUR_TTL_S", _TTL_DEFAULT_S)))
    except ValueError:
        return _TTL_DEFAULT_S


@functools.lru_cache(maxsize=4)
def _client(url: str) -> redis.Redis:
    return redis.Redis.from_url(url, decode_responses=True, socket_timeout=2, socket_connect_timeout=2)


def _redis() -> redis.Redis | None:
    """The Redis every process of this app shares (``OLC_REDIS_URL``), or None."""
    url = os.environ.get("OLC_REDIS_URL", "").strip()
    return _client(url) if url else None


def _keep(tour: Tour) -> None:
    with _lock:
        _kept[tour.id] = tour
        _kept.move_to_end(tour.id)
        while len(_kept) > _KEEP:
            _kept.popitem(last=False)


def remember(doc: dict[str, Any]) -> Tour:
    """Check ``doc`` (a tour file's JSON: schema and texts) and keep it under its own id (see :func:`own_id`): in
    this process, and in Redis when the app has one (every process then finds it); the tour, with that id.
    :class:`TourError` when it is not a tour. Redis unreachable: kept in this process only (and said in the log)."""
    tour = _canonical(doc)
    _keep(tour)
    r = _redis()
    if r is not None:
        try:
            r.set(REDIS_PREFIX + tour.id, json.dumps(doc_of(tour), ensure_ascii=False), ex=_ttl_s())
        except redis.exceptions.RedisError as exc:
            _LOG.warning("own tour %s not kept in Redis: %s", tour.id, exc)
    return tour


def recall(tour_id: str) -> Tour | None:
    """The own tour kept under ``tour_id``: this process's copy, else Redis's (read as the untrusted file it was:
    checked again, and its content must give that very id), else None."""
    with _lock:
        tour = _kept.get(tour_id)
    if tour is not None or not tour_id.startswith("own-"):
        return tour
    r = _redis()
    if r is None:
        return None
    try:
        with r.pipeline() as pipe:         # read it, and renew its time (GETEX needs Redis 6.2)
            raw, _ = pipe.get(REDIS_PREFIX + tour_id).expire(REDIS_PREFIX + tour_id, _ttl_s()).execute()
    except redis.exceptions.RedisError as exc:
        _LOG.warning("own tour %s not read from Redis: %s", tour_id, exc)
        return None
    if not raw or len(raw) > MAX_BYTES:
        return None
    try:
        tour = _canonical(json.loads(raw))
    except (ValueError, TourError):
        return None
    if tour.id != tour_id:
        return None
    _keep(tour)
    return tour


def link_data(tour: Tour) -> str | None:
    """The tour as a link's ``tourdata`` (its file, zlib-compressed, base64url), or None when longer than
    :data:`LINK_MAX`."""
    raw = json.dumps(doc_of(tour), separators=(",", ":"), ensure_ascii=False).encode()
    data = base64.urlsafe_b64encode(zlib.compress(raw, 9)).decode().rstrip("=")
    return data if len(data) <= LINK_MAX else None


def from_link(tour_id: str, data: str) -> Tour:
    """The tour a link carries (``tour=own-…&tourdata=…``): decoded, checked, its content matching its id, kept.
    :class:`TourError` otherwise."""
    bad = TourError([Problem(None, "tourdata", "the link's tour cannot be read (cut short or changed?)")])
    if len(data) > 4 * LINK_MAX:
        raise bad
    try:
        raw = zlib.decompressobj().decompress(base64.urlsafe_b64decode(data + "=" * (-len(data) % 4)), MAX_BYTES)
        doc = json.loads(raw.decode("utf-8"))
    except (ValueError, zlib.error, UnicodeDecodeError):
        raise bad from None
    if not isinstance(doc, dict) or _canonical(doc).id != tour_id:
        raise bad
    return remember(doc)


def draft_doc(title: str, stops: list[dict[str, Any]]) -> dict[str, Any]:
    """A draft's tour file (stops as the sidebar's "Add this view" made them)."""
    return {"format": FORMAT, "id": "draft", "title": title or "My tour", "stops": stops}
