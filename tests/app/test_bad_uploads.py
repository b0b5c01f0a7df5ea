"""Bad uploads on every page that takes a file (issue 15): each gets a message naming what is wrong (the row
and column where there is one), shown as plain text; nothing from the file renders as Markdown or HTML;
the page never raises. The parser's own tests: tests/ui/test_data.py; the list: docs/robustness.md."""
from __future__ import annotations

import re

import pytest

from olc_ui.shared.data import MAX_UPLOAD_BYTES
from tests.app.pagetest import open_page, page_path, shown

#: every lesson page with an upload box
UPLOAD_PAGES = ["perceptron", "margin_perceptron", "ftrl", "exponentiated_update", "winnow"]
BINARY = {"winnow"}  # 0/1 columns; the others take numbers

SCRIPT = b"<script>alert(1)</script>"
#: (name, file, what the error must say on a page of numbers, on Winnow's 0/1 page)
FILES = [
    ("nan", b"x1,x2,label\n1,0,1\nNaN,0,-1\n", "row 3, column 'x1': 'NaN' is not a finite number",
     "row 3, column 'x1': 'NaN' is not 0 or 1"),
    ("inf", b"x1,x2,label\n1,0,1\n0,-inf,-1\n", "row 3, column 'x2': '-inf' is not a finite number",
     "row 3, column 'x2': '-inf' is not 0 or 1"),
    ("text cell", b"x1,x2,label\n1,0,1\n0,two,-1\n", "row 3, column 'x2': 'two' is not a number",
     "row 3, column 'x2': 'two' is not 0 or 1"),
    ("wrong columns", b"a,b,c\n1,0,1\n", "no label column", None),  # Winnow reads the last column, and says so
    ("missing column", b"x1,x2,label\n1,0,1\n0,1\n", "row 3, column 'label': empty cell",
     "row 3 has 2 fields; expected 3"),
    ("one class", b"x1,x2,label\n1,0,1\n0,1,1\n", "every label is +1", None),  # Winnow runs one-class 0/1 data
    ("zero rows", b"x1,x2,label\n", "the file has a header but no data rows", "the file has a header but no data rows"),
    ("a million rows", b"1,0,1\n" * 1_000_000, "the file is 5.7 MB; the limit is 1 MB", "the file is 5.7 MB"),
    ("a million blank lines", b"\n" * 1_000_000, "1,000,000 lines; the limit is 10,000 rows", "1,000,000 lines"),
    ("over the limit", b"x1,x2,label\n" + b"0.1,0.2,1\n" * (MAX_UPLOAD_BYTES // 10 + 1), "the limit is 1 MB",
     "the limit is 1 MB"),
    ("not UTF-8", b"x1,x2,label\n1,0,1\n0,1,-1 caf\xe9\n", "row 3 is not UTF-8 text (byte 0xe9)",
     "row 3 is not UTF-8 text (byte 0xe9)"),
    ("script header", b"x1," + SCRIPT + b",label\n1,oops,1\n", "column '<script>alert(…': 'oops' is not a number",
     "column '<script>alert(…': 'oops' is not 0 or 1"),
    ("HTML in a cell", b"x1,x2,label\n1,<img src=x onerror=alert(1)>,1\n", "'<img src=x onerror=alert(1)>' is not a",
     "'<img src=x onerror=alert(1)>' is not 0 or 1"),
    ("BOM and semicolons", b"\xef\xbb\xbfx1;x2;label\n1;zz;1\n", "row 2, column 'x2': 'zz' is not a number",
     "row 2, column 'x2': 'zz' is not 0 or 1"),
    ("decimal commas", b"x1;x2;label\n0,1;0,2;1\n", "row 2, column 'x1': '0,1' is not a number", "'0,1' is not 0 or 1"),
    ("two label columns", b"x1,label,y\n1,1,1\n", "2 columns are named like a label", "2 columns are named like a label"),
    ("a cell of 200,000 characters", b"x1,x2,label\n" + b"1" * 200_000 + b",2,1\n",
     "row 2 cannot be read as CSV: a cell is longer than 131,072 characters", "a cell is longer than"),
    ("binary", b"\x89PNG\r\n\x1a\n\x00\x00\x00", "this is not a text (CSV) file", "this is not a text (CSV) file"),
]
CASES = [(page, f) for page in UPLOAD_PAGES for f in FILES]


def upload(page: str, name: str, content: bytes):
    at = open_page(page_path(page), data="upload")
    at.file_uploader[0].set_value((name, content, "text/csv"))
    return at.run()


def rendered_html(at) -> list[str]:
    """Bodies (Markdown, alerts, captions) holding an unescaped '<script' or '<img' a renderer would read as a
    tag (safe.md writes them as '\\<script')."""
    out = []
    for kind in ("markdown", "warning", "error", "info", "success", "caption"):
        out += [e.value for e in getattr(at, kind) if re.search(r"(?<!\\)<(script|img)", e.value)]
    return out


@pytest.mark.parametrize("page,f", CASES, ids=[f"{p}-{f[0]}" for p, f in CASES])
def test_bad_upload_is_a_plain_message(page, f):
    name, content, says, says_binary = f
    at = upload(page, "data<b>.csv", content)
    assert not at.exception, [e.value for e in at.exception]
    err = shown(at, "error")
    want = says_binary if page in BINARY else says
    if want is not None:
        assert want in err, err[:400]
    assert rendered_html(at) == []
    for e in at.error:  # the file's text reaches the page escaped, and cut short
        assert len(e.value) < 1200
