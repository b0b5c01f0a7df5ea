"""What each lesson page sends its step viewer at most, stated on the page in one short caption.

Every page bounds the run it draws (its settings' ranges, an upload's 1 MB and 10,000 rows, and its own
caps), so the spec sent to the browser stays under :data:`SPEC_BUDGET_MB` at the page's largest
run (tests/app/test_draw_caps.py measures it; docs/robustness.md lists the sizes). Each lesson states its
cap as ``CAP = caps.text(...)`` with the numbers read from the constants it uses, so a caption cannot drift
from its cap; the page shows it under its viewer (:func:`show`).
"""
from __future__ import annotations

import streamlit as st

from olc_ui.shared.data import MAX_ROWS, UPLOAD_LIMIT_MB

__all__ = ["SPEC_BUDGET_MB", "FILE", "text", "show"]

#: the largest step-viewer spec (JSON) any page sends, at its largest run
SPEC_BUDGET_MB = 5
#: an uploaded file's cap, as the captions say it
FILE = f"a file: at most {MAX_ROWS:,} rows and {UPLOAD_LIMIT_MB} MB"


def text(what: str) -> str:
    """A page's drawing cap as its caption says it (``what``: the page's own limits)."""
    return f"Drawing cap: {what}; the step viewer receives at most {SPEC_BUDGET_MB} MB."


def show(cap: str) -> None:
    """The caption under the page's step viewer (``cap``: the lesson's ``CAP``)."""
    st.caption(cap)
