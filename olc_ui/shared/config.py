"""One declared table of a page's settings, and its codec to and from the URL.

Every widget a page shows is a :class:`Setting`; its value lives in the URL query
parameters (so a link reproduces the run, seed included) and in session state
(so the widget keeps it). A bad value in a link is replaced by the default and
reported, never a traceback.

>>> s = Setting("gamma", "Margin γ", "float", 0.1, lo=0.01, hi=0.5)
>>> decode(s, "0.25"), encode(s, 0.25)
(0.25, '0.25')
>>> decode(s, "9")
Traceback (most recent call last):
...
ValueError: gamma must be between 0.01 and 0.5 (got '9')
>>> decode(Setting("order", "Order", "choice", "generated", options=("generated", "random")), "random")
'random'
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from olc_ui.shared.safe import quote

__all__ = ["Setting", "decode", "encode", "url_values", "changed_url"]


@dataclass(frozen=True)
class Setting:
    key: str                      # the URL query key
    label: str
    kind: str                     # "float", "int", "choice", "bool", "text"
    default: Any
    lo: float | None = None
    hi: float | None = None
    step: float | None = None
    options: tuple = ()
    help: str = ""
    fmt: str | None = None
    extra: dict = field(default_factory=dict)


def decode(s: Setting, raw: str) -> Any:
    """The value a URL string stands for; ValueError when it is not allowed."""
    raw = str(raw).strip()
    if s.kind in ("float", "int"):
        try:
            v = float(raw) if s.kind == "float" else int(raw)
        except ValueError:
            raise ValueError(f"{s.key} must be a {'number' if s.kind == 'float' else 'whole number'} "
                             f"(got {quote(raw)})") from None
        if isinstance(v, float) and not math.isfinite(v):
            raise ValueError(f"{s.key} must be finite (got {quote(raw)})")
        v = v + 0  # −0 is 0 (a link's "-0" was shown as β = -0 and written back to the URL)
        if (s.lo is not None and v < s.lo) or (s.hi is not None and v > s.hi):
            raise ValueError(f"{s.key} must be between {s.lo:g} and {s.hi:g} (got {quote(raw)})")
        return v
    if s.kind == "choice":
        if raw not in s.options:
            raise ValueError(f"{s.key} must be one of {', '.join(map(str, s.options))} (got {quote(raw)})")
        return raw
    if s.kind == "bool":
        if raw.lower() in ("1", "true", "yes", "on"):
            return True
        if raw.lower() in ("0", "false", "no", "off"):
            return False
        raise ValueError(f"{s.key} must be 0 or 1 (got {quote(raw)})")
    if s.kind == "text":
        if len(raw) > s.extra.get("max_len", 4000):
            raise ValueError(f"{s.key} is too long ({len(raw):,} characters; at most {s.extra.get('max_len', 4000):,})")
        check = s.extra.get("check")  # e.g. the clicked points' decoder: a bad link is a bad setting
        if check is not None:
            try:
                check(raw)
            except ValueError as exc:
                raise ValueError(f"{s.key}: {exc}") from None
        return raw
    raise ValueError(f"unknown setting kind {s.kind!r}")


def encode(s: Setting, v: Any) -> str:
    if s.kind == "float":
        return f"{float(v):.10g}"
    if s.kind == "int":
        return str(int(v))
    if s.kind == "bool":
        return "1" if v else "0"
    return str(v)


def url_values(settings: list[Setting], params: dict[str, str]) -> tuple[dict[str, Any], list[str]]:
    """Values for every setting from URL params (defaults where absent or bad) and the problems found."""
    out, problems = {}, []
    for s in settings:
        if s.key in params:
            try:
                out[s.key] = decode(s, params[s.key])
                continue
            except ValueError as exc:
                problems.append(f"{exc}; using {encode(s, s.default) or 'none'}")
        out[s.key] = s.default
    return out, problems


def changed_url(settings: list[Setting], values: dict[str, Any], extra: dict[str, str] | None = None
                ) -> dict[str, str]:
    """The query parameters for these values: every setting (so a link is explicit) plus ``extra``."""
    q = {s.key: encode(s, values[s.key]) for s in settings if s.key in values}
    q.update(extra or {})
    return q
