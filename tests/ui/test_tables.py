"""olc_ui/shared/tables.py: the stacked form of a table (what a phone shows) escapes every name and cell, leaves
empty cells out, gives long cells a line of their own, and keeps the rows' order."""
from __future__ import annotations

from olc_ui.shared.tables import LONG, stacked_html


def test_every_name_and_cell_is_escaped():
    out = stacked_html([{"<b>col</b>": "<img src=x onerror=alert(1)>", "a&b": '"q"'}], label="x<y")
    assert "<img" not in out and "<b>" not in out
    assert "&lt;img src=x onerror=alert(1)&gt;" in out and "&lt;b&gt;col&lt;/b&gt;" in out
    assert "a&amp;b" in out and "&quot;q&quot;" in out and 'aria-label="x&lt;y"' in out


def test_empty_cells_left_out_rows_in_order_long_cells_marked():
    rows = [{"t": 1, "E[M]": "", "none": None, "note": "x" * LONG}, {"t": 2, "E[M]": "0.5"}]
    out = stacked_html(rows, label="rounds")
    assert out.count('role="listitem"') == 2 and out.index("<dd>1</dd>") < out.index("<dd>2</dd>")
    assert out.count("<dt>E[M]</dt>") == 1 and "<dt>none</dt>" not in out
    assert out.count('class="olc-stack-long"') == 1 and '<div class="olc-stack-long"><dt>note</dt>' in out
