"""Where a step viewer opens: a link's ``?t=…`` (checked like every other setting in a link), else the round
the student last saw.

A bad ``t`` in a link (``?t=abc``, ``?t=-5``, ``?t=1e99``) is reported with the other bad settings'
words ("A setting in the link was not valid: t must be a whole number (got 'abc'); using 0") and the
viewer opens at the default; a ``t`` past the run's last round opens at the last round, with a note.
The text of the link goes through :mod:`olc_ui.shared.safe` (quoted, clipped, escaped).
"""
from __future__ import annotations

from typing import Any, NamedTuple

import streamlit as st

from olc_ui.shared import state
from olc_ui.shared.safe import notice, quote
from olc_ui.viewer.component import _mounted, last_key
from olc_ui.viewer.spec import _is_int

__all__ = ["LinkProblem", "link_position", "position_from_query", "query_position", "start_position", "start_position_checked",
           "report"]


class LinkProblem(NamedTuple):
    """What was wrong with a link's round: ``kind`` "invalid" (not a round: the default is used) or
    "clamped" (past the end: the last round is shown), and the plain-text message."""
    kind: str
    text: str


def link_position(raw: Any, T: int, param: str = "t", default: int = 0) -> tuple[int, LinkProblem | None]:
    """The position a link's raw ``param`` value stands for in a run of ``T`` rounds, and its problem.

    >>> link_position("7", 10), link_position(None, 10)
    ((7, None), (0, None))
    >>> link_position("abc", 10)[1].text
    "t must be a whole number of rounds (got 'abc'); using 0"
    >>> link_position("25", 10)
    (10, LinkProblem(kind='clamped', text="t = '25' is past the end of this run (T = 10 rounds); showing the last round, 10"))
    """
    default = max(0, min(T, int(default)))
    if raw is None:
        return default, None
    text = str(raw).strip()
    try:
        p = int(text)
    except ValueError:        # "abc", "1e99", "2.5", and integers too long for int()
        return default, LinkProblem("invalid", f"{param} must be a whole number of rounds (got {quote(raw)}); "
                                               f"using {default}")
    if p < 0:
        return default, LinkProblem("invalid", f"{param} must be between 0 and {T} (got {quote(raw)}); "
                                               f"using {default}")
    if p > T:
        return T, LinkProblem("clamped", f"{param} = {quote(raw)} is past the end of this run (T = {T} rounds); "
                                         f"showing the last round, {T}")
    return p, None


def position_from_query(T: int, param: str = "t", default: int = 0) -> int:
    """The position in the page URL's query (``?t=…``), clamped to [0, T]; ``default`` if absent or bad."""
    return query_position(T, param, default)[0]


def query_position(T: int, param: str = "t", default: int = 0) -> tuple[int, LinkProblem | None]:
    """:func:`link_position` of the page URL's ``param`` (the link the page stands for: olc_ui/shared/state.link)."""
    return link_position(state.link().get(param), T, param, default)


def start_position_checked(key: str, T: int, param: str = "t") -> tuple[int, LinkProblem | None]:
    """:func:`start_position` and, when the position came from the link, what was wrong with the link's value."""
    if (not _mounted(key) or state.moved()) and param in state.link():
        return query_position(T, param)
    last = st.session_state.get(last_key(key))
    if _is_int(last):
        return max(0, min(T, int(last))), None
    return query_position(T, param)


def start_position(key: str, T: int, param: str = "t") -> int:
    """Where a viewer should open a (new) run, clamped to [0, T].

    When the viewer is (re)mounted (the session's first run of the page, or back from
    another page: its widget state was cleaned up) a link's ``?t=…`` wins; otherwise the
    position :func:`viewer` last returned for ``key`` in this session (so a page keeps its
    step across visits to other pages); else the URL's ``?t=…``; else 0.

    After the first run of a page the URL is not a source: the browser rewrites it
    with ``history.replaceState``, which Streamlit's ``st.query_params`` does not see.
    """
    return start_position_checked(key, T, param)[0]


def report(problem: LinkProblem | None, where=None) -> None:
    """Show a link's bad round as the pages show every bad setting (a warning), or a note when it was past the
    end of the run (an info box)."""
    if problem is None:
        return
    if problem.kind == "invalid":
        notice("warning", "A setting in the link was not valid: ", f"{problem.text}.", where=where)
    else:
        notice("info", "The link's round: ", f"{problem.text}.", where=where)
