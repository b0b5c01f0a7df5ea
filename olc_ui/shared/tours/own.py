"""A student's or lecturer's own tours (issue 33 §4): built from the app's views, opened from a file, carried by a
link.

- Every lesson page's sidebar has **Add this view to a tour**: the page, its settings and the round on screen, a
  note (≤ 60 words) and a claim to check (no inequality fails / the mistakes within the bound / the theorem's
  assumptions hold), appended to the session's draft. The draft is edited on the Tours page (title, each stop's
  note, reorder, remove) and downloads as a tour file (docs/tours.md).
- A tour file opened on the Tours page (an upload) is checked like the folder's (a bad one gets every problem named
  by stop and field, and nothing else changes).
- A draft or an opened tour is kept by this server process under an id made from its content (``own-<hash>``), so
  its stops' links work after a page load; and a small one also travels in the link itself (``tourdata=``: the
  file, compressed), so a copied link opens it on any server.
"""
from __future__ import annotations

import base64
import hashlib
import json
import threading
import zlib
from collections import OrderedDict
from dataclasses import replace
from typing import Any

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


def remember(doc: dict[str, Any]) -> Tour:
    """Check ``doc`` (a tour file's JSON: schema and texts) and keep it in this process under its own id (see
    :func:`own_id`); the tour, with that id. :class:`TourError` when it is not a tour."""
    tour = _canonical(doc)
    with _lock:
        _kept[tour.id] = tour
        _kept.move_to_end(tour.id)
        while len(_kept) > _KEEP:
            _kept.popitem(last=False)
    return tour


def recall(tour_id: str) -> Tour | None:
    with _lock:
        return _kept.get(tour_id)


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
