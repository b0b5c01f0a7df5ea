"""A table that keeps its numbers on a phone (issue 25).

:func:`table` draws the rows twice: as ``st.dataframe`` (what a wider screen shows) and as a stacked list, one
card per row, each cell a "column: value" line (what a phone shows: nothing to swipe sideways, no number column
hidden off to the right). :data:`olc_ui.shared.page.PHONE_CSS` shows one of the two by the screen's width (the
containers' keys start with ``olc_wide_`` / ``olc_narrow_``). The cards are HTML built here with every column
name and cell escaped (:func:`stacked_html`): the rows are the run's numbers and the code's own names, and even
so no text reaches the page as markup. Empty cells are left out of a card; the first cell (what the row is) heads
it on a line of its own, long cells (:data:`LONG`) get a line each, the others go two to a line.

>>> print(stacked_html([{"t": 1, "x": "(+0.8, <b>)"}], label="rounds"))  # doctest: +NORMALIZE_WHITESPACE
<div class="olc-stack" role="list" aria-label="rounds"><div class="olc-stack-row" role="listitem"><dl><div><dt>t</dt><dd>1</dd></div><div><dt>x</dt><dd>(+0.8, &lt;b&gt;)</dd></div></dl></div></div>
"""
from __future__ import annotations

import html
from typing import Any, Iterable, Mapping

import streamlit as st

__all__ = ["table", "stacked_html", "LONG"]

#: A cell whose column name and value are longer than this (characters) takes a line of its own in its card;
#: shorter ones go two to a line.
LONG = 24
_LONG = ' class="olc-stack-long"'


def _cell(value: Any) -> str:
    if value is None:
        return ""
    return str(value).strip()


def stacked_html(rows: Iterable[Mapping[str, Any]], *, label: str) -> str:
    """One card per row: its cells as a definition list (column, value), escaped; empty cells left out."""
    cards = []
    for row in rows:
        items = "".join(f"<div{_LONG if len(str(k)) + len(_cell(v)) > LONG else ''}><dt>{html.escape(str(k))}</dt>"
                        f"<dd>{html.escape(_cell(v))}</dd></div>" for k, v in row.items() if _cell(v) != "")
        cards.append(f'<div class="olc-stack-row" role="listitem"><dl>{items}</dl></div>')
    return f'<div class="olc-stack" role="list" aria-label="{html.escape(label)}">{"".join(cards)}</div>'


def table(rows: list[Mapping[str, Any]], *, key: str, label: str,
          narrow: list[Mapping[str, Any]] | None = None, **dataframe: Any) -> None:
    """``st.dataframe(rows, **dataframe)`` on a wide screen, the same rows stacked on a phone.

    ``key`` names the pair of containers; ``label`` is the stacked list's accessible name (what the rows are);
    ``narrow``, when given, is what the phone stacks instead: the same numbers in fewer, fuller cards (e.g. one
    card per group of rows)."""
    with st.container(key=f"olc_wide_{key}"):
        st.dataframe(rows, **dataframe)
    with st.container(key=f"olc_narrow_{key}"):
        st.html(stacked_html(rows if narrow is None else narrow, label=label))
