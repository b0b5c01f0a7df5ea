"""A tour file: its JSON Schema (checked by the ``jsonschema`` library), its model, and the checks a schema cannot
make (a known page, the page's own settings with values in their declared ranges, a text the viewer can typeset).

The format is documented in docs/tours.md. Everything in a tour file is untrusted (a file may be uploaded or come
in a link): every problem is reported as a :class:`Problem` naming the stop (counted from 1) and the field, and
shown through olc_ui/shared/safe.py; nothing in a file is ever executed or rendered as markup.

>>> t = parse({"format": "olc-tour/1", "id": "demo", "title": "A demo", "note": "000", "stops": [
...     {"page": "perceptron", "settings": {"gamma": 0.2, "T": 50}, "t": 10, "text": "Watch $M\\\\gamma$ grow.",
...      "ref": "[000] §3.2", "claim": {"kind": "no_violation"}}]})
>>> t.stops[0].query()
{'gamma': '0.2', 'T': '50', 't': '10'}
>>> [str(p) for p in problems({"format": "olc-tour/1", "id": "x", "title": "X", "stops": [{"page": "perceptron",
...     "settings": {}, "t": "ten", "text": "Look.", "ref": "", "claim": {"kind": "no_violation"}, "colour": 1}]})]
['stop 1, field colour: not a field of the format (see docs/tours.md)', "stop 1, field ref: '' should be non-empty", "stop 1, field t: 'ten' is not of type 'integer'"]
"""
from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from typing import Any

import jsonschema

from olc_core.claims import CLAIM_SCHEMA

from olc_ui.shared.config import Setting, decode
from olc_ui.shared.safe import clip
from olc_ui.viewer.prose import to_html

__all__ = ["FORMAT", "MAX_WORDS", "MAX_STOPS", "MAX_BYTES", "TOUR_SCHEMA", "Problem", "Stop", "Tour", "TourError",
           "encode_value", "parse", "problems", "words"]

FORMAT = "olc-tour/1"
#: a stop's text: at most this many words (the issue's 60)
MAX_WORDS = 60
MAX_STOPS = 60
#: a tour file larger than this is refused before it is read
MAX_BYTES = 200_000
_ID = r"^[a-z0-9][a-z0-9-]{0,47}$"
_KEY = r"^[A-Za-z][A-Za-z0-9_]{0,31}$"

#: The tour format as JSON Schema (draft 2020-12). docs/tours.md describes each field.
TOUR_SCHEMA: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "olc tour",
    "type": "object",
    "required": ["format", "id", "title", "stops"],
    "additionalProperties": False,
    "properties": {
        "format": {"const": FORMAT},
        "id": {"type": "string", "pattern": _ID},
        "title": {"type": "string", "minLength": 1, "maxLength": 120},
        "note": {"type": "string", "pattern": r"^[0-9]{3}$"},
        "description": {"type": "string", "maxLength": 400},
        "stops": {"type": "array", "minItems": 1, "maxItems": MAX_STOPS, "items": {"$ref": "#/$defs/stop"}},
    },
    "$defs": {
        **CLAIM_SCHEMA["$defs"],
        "stop": {
            "type": "object",
            "required": ["page", "settings", "t", "text", "ref", "claim"],
            "additionalProperties": False,
            "properties": {
                "page": {"type": "string", "pattern": r"^[a-z_]{1,40}$"},
                "settings": {"type": "object", "maxProperties": 40,
                             "propertyNames": {"pattern": _KEY},
                             "additionalProperties": {"type": ["string", "number", "boolean"],
                                                      "maxLength": 400}},
                "t": {"type": "integer", "minimum": 0, "maximum": 1_000_000},
                "hide": {"type": "string", "maxLength": 200, "pattern": r"^[a-z,]*$"},
                "run": {"type": "string", "pattern": r"^[a-z_]{1,40}$"},
                "text": {"type": "string", "minLength": 1, "maxLength": 700},
                "ref": {"type": "string", "minLength": 1, "maxLength": 160},
                "claim": {"$ref": "#/$defs/claim"},
                "ask": {"type": "boolean"},
                "point": {"type": "object", "minProperties": 1, "maxProperties": 1, "additionalProperties": False,
                          "properties": {"ledger": {"type": "integer", "minimum": 1, "maximum": 200},
                                         "chart": {"type": "string", "pattern": r"^[A-Za-z0-9_\-]{1,40}$"}}},
            },
        },
    },
}


@functools.lru_cache(maxsize=1)
def _validator() -> jsonschema.protocols.Validator:
    jsonschema.Draft202012Validator.check_schema(TOUR_SCHEMA)
    return jsonschema.Draft202012Validator(TOUR_SCHEMA)


@dataclass(frozen=True)
class Problem:
    """What is wrong in a tour file: the stop (1-based; None: the tour itself), the field, and why."""

    stop: int | None
    field: str
    message: str

    def __str__(self) -> str:
        where = f"stop {self.stop}, field {self.field}" if self.stop is not None else f"field {self.field}"
        return f"{where}: {self.message}"


class TourError(ValueError):
    """A tour file that cannot be used; ``problems`` lists every problem found."""

    def __init__(self, problems: list[Problem]):
        self.problems = list(problems)
        super().__init__("; ".join(str(p) for p in self.problems[:5]) +
                         (f"; and {len(self.problems) - 5} more" if len(self.problems) > 5 else ""))


def encode_value(v: Any) -> str:
    """A setting's value in a tour file as the URL carries it (``true`` → ``1``, ``0.2`` → ``0.2``)."""
    if isinstance(v, bool):
        return "1" if v else "0"
    return repr(v) if isinstance(v, float) else str(v)


@dataclass(frozen=True)
class Stop:
    page: str
    settings: dict[str, str]    # as the URL carries them
    t: int
    text: str
    ref: str
    claim: dict
    hide: str = ""
    run: str = ""               # on a page that shows several runs (Compare): the learner the claim reads
    ask: bool = False           # predict-then-reveal's question about round t (the viewer at t − 1)
    point: dict | None = None   # {"ledger": line (1-based)} or {"chart": figure id}: what the stop points at

    def query(self) -> dict[str, str]:
        """The stop's query parameters (its settings, predict-then-reveal on for a stop that asks, then the round)."""
        return {**self.settings, **({"predict": "1"} if self.ask else {}), "t": str(self.t)}


@dataclass(frozen=True)
class Tour:
    id: str
    title: str
    stops: tuple[Stop, ...]
    note: str = ""
    description: str = ""

    def __len__(self) -> int:
        return len(self.stops)


def words(text: str) -> int:
    """The words of a stop's text (a formula counts as one word per space-separated piece)."""
    return len(text.split())


def _field(path) -> tuple[int | None, str]:
    parts = list(path)
    if len(parts) >= 2 and parts[0] == "stops" and isinstance(parts[1], int):
        return parts[1] + 1, ".".join(str(p) for p in parts[2:]) or "(the stop)"
    return None, ".".join(str(p) for p in parts) or "(the tour)"


def _schema_problems(data: Any) -> list[Problem]:
    out = []
    for e in sorted(_validator().iter_errors(data), key=lambda e: [str(p) for p in e.absolute_path]):
        path = list(e.absolute_path)
        if e.validator == "required":          # the field that is missing is the one to name
            missing = re.match(r"'([^']*)' is a required property", e.message)
            path += [missing.group(1)] if missing else []
            message = "missing (a required field)"
        elif e.validator == "additionalProperties":
            extra = re.findall(r"'([^']*)'", e.message.split("(", 1)[-1])
            path += [", ".join(extra)] if extra else []
            message = "not a field of the format (see docs/tours.md)"
        else:
            message = e.message
        stop, field = _field(path)
        out.append(Problem(stop, clip(field, 80), clip(message, 200)))
    return out


def _setting_problems(k: int, stop: dict, table: list[Setting]) -> list[Problem]:
    known = {s.key: s for s in table}
    out = []
    for key, raw in stop["settings"].items():
        if key not in known:
            out.append(Problem(k, f"settings.{key}", f"not a setting of the page {stop['page']} "
                                                     f"(its settings: {', '.join(known)})"))
            continue
        try:
            decode(known[key], encode_value(raw))
        except ValueError as exc:
            out.append(Problem(k, f"settings.{key}", clip(str(exc), 200)))
    return out


def _text_problems(k: int, stop: dict) -> list[Problem]:
    out = []
    n = words(stop["text"])
    if n > MAX_WORDS:
        out.append(Problem(k, "text", f"{n} words; a stop's text has at most {MAX_WORDS}"))
    try:
        to_html(stop["text"])
    except ValueError as exc:
        out.append(Problem(k, "text", clip(str(exc).removeprefix("prose: "), 200)))
    return out


def problems(data: Any, tables: dict[str, list[Setting]] | None = None) -> list[Problem]:
    """Every problem of a tour file's parsed JSON ``data``: the schema's first, then (when the schema holds) each
    stop's page (one of ``tables``, {page: its declared settings}), its settings (known to that page, each value
    decoded by the page's own :func:`olc_ui.shared.config.decode`: in range) and its text (≤ :data:`MAX_WORDS`
    words, Markdown the viewer's typesetter draws). ``tables=None`` checks the schema and the texts only (a page
    checks its own stop's settings when it opens it)."""
    found = _schema_problems(data)
    if found:
        return found
    for k, stop in enumerate(data["stops"], start=1):
        if tables is not None:
            if stop["page"] not in tables:
                found.append(Problem(k, "page", f"{clip(stop['page'], 40)!r} is not a page a tour can visit "
                                                f"({', '.join(sorted(tables))})"))
            else:
                found += _setting_problems(k, stop, tables[stop["page"]])
        found += _text_problems(k, stop)
    return found


def parse(data: Any, tables: dict[str, list[Setting]] | None = None) -> Tour:
    """The :class:`Tour` in a tour file's parsed JSON; :class:`TourError` listing every problem otherwise."""
    found = problems(data, tables)
    if found:
        raise TourError(found)
    stops = tuple(Stop(page=s["page"], settings={k: encode_value(v) for k, v in s["settings"].items()},
                       t=int(s["t"]), text=s["text"], ref=s["ref"], claim=s["claim"], hide=s.get("hide", ""),
                       run=s.get("run", ""), ask=bool(s.get("ask", False)), point=s.get("point"))
                  for s in data["stops"])
    return Tour(id=data["id"], title=data["title"], stops=stops, note=data.get("note", ""),
                description=data.get("description", ""))


def stop_index(raw: Any, n: int) -> int | None:
    """A link's ``stop=k`` (1-based) as an index 0 … n−1, or None when it is not one."""
    s = str(raw).strip()
    if not re.fullmatch(r"[0-9]{1,4}", s):
        return None
    k = int(s)
    return k - 1 if 1 <= k <= n else None
