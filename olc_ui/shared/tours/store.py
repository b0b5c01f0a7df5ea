"""Where tours come from: the ``tours/`` folder next to the app (the shipped lectures, and any file a lecturer puts
there), read once per change of the folder; every file checked (olc_ui/shared/tours/format.py) and a bad one
reported by name, never breaking the others.

>>> shipped().problems    # every file of tours/ is a good tour
{}
"""
from __future__ import annotations

import functools
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from olc_ui.shared.config import Setting
from olc_ui.shared.safe import clip
from olc_ui.shared.tours.format import MAX_BYTES, Problem, Tour, TourError, parse

__all__ = ["FOLDER", "Found", "read_bytes", "read_folder", "shipped", "lookup"]

#: the folder of tour files, next to app.py
FOLDER = Path(__file__).resolve().parents[3] / "tours"


@dataclass
class Found:
    """The tours of a folder by id, and each bad file's problems (by file name)."""

    tours: dict[str, Tour] = field(default_factory=dict)
    problems: dict[str, list[str]] = field(default_factory=dict)
    files: dict[str, str] = field(default_factory=dict)     # tour id → its file name


def read_bytes(raw: bytes, tables: dict[str, list[Setting]] | None = None) -> Tour:
    """A tour from a file's bytes (an upload, a file of the folder, a link's copy): at most :data:`MAX_BYTES`,
    UTF-8 JSON, checked against the format (and, with ``tables``, every stop's page and settings).
    :class:`TourError` with every problem otherwise."""
    if len(raw) > MAX_BYTES:
        raise TourError([Problem(None, "(the file)", f"{len(raw):,} bytes; a tour file has at most {MAX_BYTES:,}")])
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise TourError([Problem(None, "(the file)", f"not UTF-8 text (byte {exc.start + 1})")]) from None
    try:
        data: Any = json.loads(text)
    except json.JSONDecodeError as exc:
        raise TourError([Problem(None, "(the file)", f"not JSON: {clip(exc.msg, 80)} at line {exc.lineno}, "
                                                     f"column {exc.colno}")]) from None
    return parse(data, tables)


def read_folder(folder: Path, tables: dict[str, list[Setting]] | None = None) -> Found:
    """Every ``*.json`` of ``folder`` (sorted by name): the good tours by id, the bad files with their problems;
    a second file with an id already read is a problem of its own."""
    found = Found()
    if not folder.is_dir():
        return found
    for path in sorted(folder.glob("*.json")):
        try:
            if path.stat().st_size > MAX_BYTES:
                raise TourError([Problem(None, "(the file)", f"{path.stat().st_size:,} bytes; a tour file has at "
                                                             f"most {MAX_BYTES:,}")])
            tour = read_bytes(path.read_bytes(), tables)
        except TourError as exc:
            found.problems[path.name] = [str(p) for p in exc.problems]
            continue
        except OSError as exc:
            found.problems[path.name] = [f"cannot be read ({clip(exc.strerror or exc, 80)})"]
            continue
        if tour.id in found.tours:
            found.problems[path.name] = [f"field id: {tour.id!r} is the id of {found.files[tour.id]} too"]
            continue
        found.tours[tour.id] = tour
        found.files[tour.id] = path.name
    return found


def _signature(folder: Path) -> tuple:
    if not folder.is_dir():
        return ()
    return tuple((p.name, p.stat().st_mtime_ns, p.stat().st_size) for p in sorted(folder.glob("*.json")))


@functools.lru_cache(maxsize=4)
def _cached(folder: str, signature: tuple) -> Found:
    return read_folder(Path(folder))


def shipped(folder: Path | None = None) -> Found:
    """The tours of the app's ``tours/`` folder (schema and texts checked; each page checks its own stop's settings
    when it opens it), read again only when a file there changes."""
    folder = folder or FOLDER
    return _cached(str(folder), _signature(folder))


def lookup(tour_id: str, extra: dict[str, Tour] | None = None) -> Tour | None:
    """The tour with this id: one of ``extra`` (e.g. the student's own, opened from a file) or of the folder."""
    if extra and tour_id in extra:
        return extra[tour_id]
    return shipped().tours.get(tour_id)
