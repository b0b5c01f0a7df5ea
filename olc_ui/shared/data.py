"""Data a student brings: an uploaded CSV of labelled points, or points clicked onto the canvas.

Every problem becomes a :class:`DataError` with a message for the page (shown with
``st.error``, as plain text); nothing from a file is ever rendered as HTML.

>>> X, y, notes = parse_points_csv(b"x1,x2,label\\n0.5,1,1\\n-1,0.2,-1\\n")
>>> X.tolist(), y.tolist(), notes
([[0.5, 1.0], [-1.0, 0.2]], [1.0, -1.0], [])
>>> parse_points_csv(b"x1,x2,label\\n0.5,abc,1\\n")
Traceback (most recent call last):
...
olc_ui.shared.data.DataError: row 2, column 'x2': 'abc' is not a number
>>> decode_points(encode_points(np.array([[0.1, -0.25]]), np.array([-1.0])))
(array([[ 0.1 , -0.25]]), array([-1.]))
"""
from __future__ import annotations

import csv
import io
import math

import numpy as np

from olc_ui.shared.safe import quote

__all__ = ["DataError", "NeedsInput", "parse_points_csv", "parse_binary_csv", "encode_points", "decode_points", "MAX_UPLOAD_BYTES", "MAX_ROWS",
           "MAX_CLICKED", "trace_csv"]

#: the one upload limit: .streamlit/config.toml's server.maxUploadSize (in MiB, as Streamlit counts) must match
UPLOAD_LIMIT_MB = 1
MAX_UPLOAD_BYTES = UPLOAD_LIMIT_MB * 1024 * 1024
MAX_ROWS = 10_000
MAX_CLICKED = 300
LABEL_NAMES = ("label", "y", "class", "target")


class DataError(ValueError):
    """A problem with the student's data, worded for the page."""


class NeedsInput(DataError):
    """Nothing to run yet: the student still has to give the data (not an error)."""


def _shown(s: str, n: int = 40) -> str:
    """A value from the file, named in a message: cut short, one line, quoted (see olc_ui.shared.safe)."""
    return quote(s, n)


def parse_points_csv(raw: bytes, *, dims: tuple[int, ...] = (2, 3), max_rows: int = MAX_ROWS,
                     with_first_row: bool = False) -> tuple:
    """Points (x1, x2[, x3]) and labels from a CSV file.

    A header row is optional (``x1,x2,label``; the label column may be called label,
    y, class or target); without one, the last column is the label. Labels must be
    −1/+1 (0/1 is accepted and read as −1/+1, with a note). Returns ``(X, y, notes)``, and with
    ``with_first_row`` also the row number (as these messages count rows) of the first data row,
    so a later check can name the row of point i as ``i + first_row``.
    """
    rows = _csv_rows(raw, max_rows)
    first = [c.strip() for c in rows[0]]

    if all(_numeric(c) for c in first):
        header = None
        width = len(first)
        if width - 1 not in dims:
            raise DataError(f"expected {' or '.join(str(d + 1) for d in dims)} columns (x1, x2[, x3], label); "
                            f"the first row has {width}")
        names = [f"x{i + 1}" for i in range(width - 1)] + ["label"]
        body = rows
        line0 = 1
    else:
        header = [c.lower() for c in first]
        li = _label_column(first, header)
        if li is None:
            raise DataError("no label column: name it 'label' (or y, class, target), e.g. a header "
                            "x1,x2,label")
        feats = [i for i in range(len(header)) if i != li]
        if len(feats) not in dims:
            named = ", ".join(_shown(first[i], 15) for i in feats[:6]) + (", …" if len(feats) > 6 else "")
            raise DataError(f"expected {' or '.join(str(d) for d in dims)} feature columns besides the label; "
                            f"found {len(feats):,} ({named or 'none'})")
        names = [first[i] for i in feats] + [first[li]]
        order = feats + [li]
        body = [[r[i] if i < len(r) else "" for i in order] + ([] if len(r) <= len(header) else ["…"])
                for r in rows[1:]]
        width = len(order)
        line0 = 2
    if not body:
        raise DataError("the file has a header but no data rows")
    if len(body) > max_rows:
        raise DataError(f"the file has {len(body):,} rows; the limit is {max_rows:,}")
    vals = np.empty((len(body), width))
    for r, row in enumerate(body):
        if len(row) != width:
            raise DataError(f"row {r + line0} has {len(row)} fields; expected {width}")
        for c, cell in enumerate(row):
            cell = cell.strip()
            if cell == "":
                raise DataError(f"row {r + line0}, column {_shown(names[c], 15)}: empty cell")
            try:
                v = float(cell)
            except ValueError:
                raise DataError(f"row {r + line0}, column {_shown(names[c], 15)}: {_shown(cell)} is not a number") \
                    from None
            if not math.isfinite(v):
                raise DataError(f"row {r + line0}, column {_shown(names[c], 15)}: {_shown(cell)} is not a finite "
                                "number (NaN or infinity)")
            vals[r, c] = v
    X, y = vals[:, :-1].copy(), vals[:, -1].copy()
    notes: list[str] = []
    labels = set(np.unique(y).tolist())
    if labels <= {0.0, 1.0} and 0.0 in labels:
        y = np.where(y == 1.0, 1.0, -1.0)
        notes.append("labels 0/1 were read as −1/+1")
        labels = set(np.unique(y).tolist())
    if not labels <= {-1.0, 1.0}:
        bad = sorted(labels - {-1.0, 1.0})[:3]
        raise DataError(f"labels must be −1 or +1 (or 0/1); found {', '.join(f'{b:g}' for b in bad)}")
    if len(labels) < 2:
        raise DataError(f"every label is {int(next(iter(labels))):+d}: a classifier needs both classes")
    if np.abs(X).max() > 1e6:
        raise DataError("coordinates above 10⁶ in size: rescale the data")
    if (np.abs(X).sum(axis=1) == 0).all():
        raise DataError("every point is at the origin")
    return (X, y, notes, line0) if with_first_row else (X, y, notes)


def _numeric(c: str) -> bool:
    """Whether a cell reads as a number (a first row of numbers is data, not a header)."""
    try:
        float(c)
        return True
    except ValueError:
        return False


def _csv_rows(raw: bytes, max_rows: int, max_fields: int = 10_001) -> list[list[str]]:
    """The non-blank rows of an uploaded CSV (size, binary and encoding checked as for points).

    Memory and time stay bounded before any row is parsed: the bytes are capped (the upload limit),
    then the lines (a file of a million short or blank lines is refused by counting its line breaks),
    and reading stops at the first row past ``max_rows`` data rows or with more than ``max_fields``
    fields. A cell the csv module cannot read (a line break inside an unquoted cell, a cell over
    131,072 characters) is a message naming its row, never a traceback."""
    if raw is None or len(raw) == 0:
        raise DataError("the file is empty")
    if len(raw) > MAX_UPLOAD_BYTES:
        raise DataError(f"the file is {len(raw) / 2**20:.1f} MB; the limit is {UPLOAD_LIMIT_MB} MB "
                        f"(at most {max_rows:,} rows)")
    if b"\x00" in raw[:4096]:
        raise DataError("this is not a text (CSV) file")
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        line = raw[:e.start].count(b"\n") + 1
        raise DataError(f"row {line} is not UTF-8 text (byte 0x{raw[e.start]:02x}); save the file as a CSV "
                        "(comma-separated values) file in UTF-8") from None
    lines = text.count("\n") + text.count("\r") - text.count("\r\n")
    if lines > 2 * max_rows + 2:
        raise DataError(f"the file has {lines:,} lines; the limit is {max_rows:,} rows")
    try:
        delim = csv.Sniffer().sniff(text[:2048], delimiters=",;\t").delimiter
    except csv.Error:
        delim = ","
    rows: list[list[str]] = []
    reader = csv.reader(io.StringIO(text, newline=None), delimiter=delim)  # \r, \r\n and \n end a row
    try:
        for r in reader:
            if len(r) > max_fields:
                raise DataError(f"row {len(rows) + 1} has {len(r):,} fields; the limit is {max_fields:,}")
            if any(c.strip() for c in r):
                rows.append(r)
                if len(rows) > max_rows + 1:  # a header and max_rows data rows at most
                    raise DataError(f"the file has more than {max_rows:,} rows; the limit is {max_rows:,}")
    except csv.Error as e:
        why = "a cell is longer than 131,072 characters" if "field limit" in str(e) else str(e)
        raise DataError(f"row {len(rows) + 1} cannot be read as CSV: {why}") from None
    if not rows:
        raise DataError("the file has no rows")
    return rows


def _label_column(first: list[str], header: list[str]) -> int | None:
    """The index of the label column (None when no column has a label name); DataError when several do."""
    lab = [i for i, c in enumerate(header) if c in LABEL_NAMES]
    if len(lab) > 1:
        named = ", ".join(_shown(first[i], 15) for i in lab[:4])
        raise DataError(f"{len(lab)} columns are named like a label ({named}): keep one label column "
                        "(label, y, class or target)")
    return lab[0] if lab else None


def parse_binary_csv(raw: bytes, *, max_rows: int = MAX_ROWS, max_cols: int = 10_000
                     ) -> tuple[np.ndarray, np.ndarray, list[str]]:
    """0/1 examples (x1 … xN) and 0/1 labels from a CSV file, for Winnow.

    A header row is optional (the label column may be called label, y, class or target; without
    one, or without a header, the last column is the label). Every cell must be 0 or 1; a cell that
    is not gets a message naming its row (as the file numbers it) and column. Returns ``(X, y, notes)``
    with X ``uint8``.

    >>> X, y, notes = parse_binary_csv(b"a,b,label\\n1,0,1\\n0,0,0\\n")
    >>> X.tolist(), y.tolist(), notes
    ([[1, 0], [0, 0]], [1.0, 0.0], [])
    >>> parse_binary_csv(b"a,b,label\\n1,2,1\\n")
    Traceback (most recent call last):
    ...
    olc_ui.shared.data.DataError: row 2, column 'b': '2' is not 0 or 1
    """
    rows = _csv_rows(raw, max_rows)
    first = [c.strip() for c in rows[0]]

    if all(_numeric(c) for c in first):  # no header: a bad number in it is reported as a cell
        names = [f"x{i + 1}" for i in range(len(first) - 1)] + ["label"]
        order = list(range(len(first)))
        body, line0, notes = rows, 1, []
    else:
        header = [c.lower() for c in first]
        found = _label_column(first, header)
        li = len(first) - 1 if found is None else found
        notes = [] if found is not None else [f"no column is named label (or y, class, target): the last one, "
                                f"{_shown(first[li], 15)}, is read as the label"]
        order = [i for i in range(len(first)) if i != li] + [li]
        names = [first[i] for i in order]
        body, line0 = rows[1:], 2
    width = len(order)
    if width < 2:
        raise DataError("expected at least two columns: x1, …, xN and a label")
    if width - 1 > max_cols:
        raise DataError(f"the file has {width - 1:,} feature columns; the limit is {max_cols:,}")
    if not body:
        raise DataError("the file has a header but no data rows")
    if len(body) > max_rows:
        raise DataError(f"the file has {len(body):,} rows; the limit is {max_rows:,}")
    vals = np.empty((len(body), width), dtype=np.uint8)
    for r, row in enumerate(body):
        if len(row) != len(first):
            raise DataError(f"row {r + line0} has {len(row)} fields; expected {len(first)}")
        for c, j in enumerate(order):
            cell = row[j].strip()
            if cell == "":
                raise DataError(f"row {r + line0}, column {_shown(names[c], 15)}: empty cell")
            if cell in ("0", "1"):
                vals[r, c] = cell == "1"
                continue
            try:
                v = float(cell)
            except ValueError:
                v = None
            if v in (0.0, 1.0):  # 1.0, 0e0 …: the number is 0 or 1
                vals[r, c] = v == 1.0
                continue
            raise DataError(f"row {r + line0}, column {_shown(names[c], 15)}: {_shown(cell)} is not 0 or 1")
    X, y = np.ascontiguousarray(vals[:, :-1]), vals[:, -1].astype(np.float64)
    return X, y, notes


def encode_points(X: np.ndarray, y: np.ndarray) -> str:
    """Clicked points as a short URL value: ``x,y,label;…`` (3 decimals)."""
    return ";".join(f"{a:.3g},{b:.3g},{int(lab):d}" for (a, b), lab in zip(np.round(X, 3), y))


def decode_points(s: str) -> tuple[np.ndarray, np.ndarray]:
    """Inverse of :func:`encode_points`; DataError on anything malformed."""
    if not s:
        return np.zeros((0, 2)), np.zeros(0)
    parts = s.split(";")
    if len(parts) > MAX_CLICKED:
        raise DataError(f"at most {MAX_CLICKED} clicked points")
    X, y = [], []
    for i, p in enumerate(parts):
        f = p.split(",")
        try:
            a, b, lab = float(f[0]), float(f[1]), int(f[2])
        except (ValueError, IndexError):
            raise DataError(f"clicked point {i + 1} is malformed ({_shown(p, 20)})") from None
        if lab not in (-1, 1) or not (math.isfinite(a) and math.isfinite(b)) or max(abs(a), abs(b)) > 100:
            raise DataError(f"clicked point {i + 1} is out of range ({_shown(p, 20)})")
        X.append((a, b))
        y.append(float(lab))
    return np.array(X, dtype=float), np.array(y, dtype=float)


#: trace columns holding 0-based indices (written 1-based; −1, "none", is written empty)
INDEX_COLUMNS = frozenset({"example", "pass", "chosen_expert", "rule"})


def trace_csv(trace, X: np.ndarray | None = None, y: np.ndarray | None = None, max_weights: int = 64) -> str:
    """The run, one row per round: the example (when given), the label, the learner's prediction,
    whether it erred, the mistake count, every per-round column of the trace, and the weights
    after the round (the first ``max_weights`` of them).

    Rounds and the index columns (:data:`INDEX_COLUMNS`: example, pass, chosen expert, rule) count
    from 1, as the pages do; an index of −1 (e.g. no expert drawn) is left empty."""
    T = trace.T
    out = io.StringIO()
    w = csv.writer(out)
    M_before = trace.mistakes_before_each_round()
    cols = ["round"]
    if X is not None:
        X = np.asarray(X)
        cols += [f"x{j + 1}" for j in range(X.shape[1])]
    if y is not None:
        cols.append("y")
    cols += ["prediction", "mistake", "mistakes_so_far"]
    extra = []
    for name in trace.columns:
        if name == "is_mistake":
            continue
        col = np.asarray(trace.columns[name])
        if col.shape == (T,) and col.dtype.kind in "biuf":
            if name in INDEX_COLUMNS and col.dtype.kind in "iu":
                col = np.where(col >= 0, col + 1, -1)
            extra.append((name, col))
    cols += [name for name, _ in extra]
    d = min(trace.d, max_weights)
    cols += [f"w{j + 1}_after" for j in range(d)]
    w.writerow(cols)
    pred = np.asarray(trace.predictions)
    flag = trace.columns["is_mistake"]

    def num(v) -> str:
        return f"{v:.17g}" if isinstance(v, float) else str(v)
    for t in range(T):
        row = [t + 1]
        if X is not None:
            row += [num(float(v)) for v in X[t]]
        if y is not None:
            row.append(num(float(y[t])) if float(y[t]) != int(y[t]) else int(y[t]))
        row += [num(pred[t].item()), int(flag[t]), int(M_before[t + 1])]
        row += ["" if name in INDEX_COLUMNS and col[t] < 0 else num(col[t].item()) for name, col in extra]
        row += [num(float(v)) for v in trace.weights_at(t + 1)[:d]]
        w.writerow(row)
    return out.getvalue()
