"""Columns as rows, as an HTML table and as a pandas DataFrame (pandas optional: olc_core needs numpy only).

The trace and the sweep table hand their columns (equal-length numpy arrays, by name) to these helpers, so
both iterate, display and convert the same way.

>>> import numpy as np
>>> cols = {"round": np.arange(2), "score": np.array([0.5, -1.0])}
>>> [tuple(r) for r in rows(cols, "Round")]
[(0, 0.5), (1, -1.0)]
>>> next(rows(cols, "Round")).score
0.5
>>> html_table(["a", "b<c"], [["1", "x & y"]])
'<table><thead><tr><th>a</th><th>b&lt;c</th></tr></thead><tbody><tr><td>1</td><td>x &amp; y</td></tr></tbody></table>'
"""
from __future__ import annotations

import html
from collections import namedtuple
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import numpy as np

__all__ = ["rows", "html_table", "data_frame", "PANDAS_MISSING"]

#: what to_pandas() says when pandas is not installed
PANDAS_MISSING = ("to_pandas() needs pandas, which olc_core does not install (it needs numpy only): "
                  "pip install pandas")


def rows(columns: Mapping[str, np.ndarray], name: str) -> Iterator[tuple]:
    """One named tuple per row (field names made valid identifiers where a column's name is not one), each
    value a Python scalar (``.item()``)."""
    names = list(columns)
    Row = namedtuple(name, names, rename=True)
    arrays = [np.asarray(columns[k]) for k in names]
    n = len(arrays[0]) if arrays else 0
    for i in range(n):
        yield Row(*(a[i].item() if hasattr(a[i], "item") else a[i] for a in arrays))


def html_table(header: Sequence[str], body: Sequence[Sequence[Any]]) -> str:
    """An HTML table, every cell's text escaped."""
    esc = (lambda v: html.escape(str(v), quote=False))
    head = "".join(f"<th>{esc(h)}</th>" for h in header)
    rows_ = "".join("<tr>" + "".join(f"<td>{esc(c)}</td>" for c in row) + "</tr>" for row in body)
    return f"<table><thead><tr>{head}</tr></thead><tbody>{rows_}</tbody></table>"


def _pandas():
    """pandas, imported only when a conversion asks for it (an optional dependency of olc_core)."""
    try:
        import pandas
    except ImportError as e:
        raise ImportError(PANDAS_MISSING) from e
    return pandas


def data_frame(columns: Mapping[str, np.ndarray], index: str | None = None):
    """A pandas DataFrame of the columns (``index``: the column to index the rows by)."""
    pd = _pandas()
    df = pd.DataFrame({k: np.asarray(v) for k, v in columns.items()})
    return df.set_index(index) if index is not None else df
