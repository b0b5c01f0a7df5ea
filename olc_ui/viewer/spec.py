"""The step viewer's spec: its validation (docs/viewer-spec.md), and the helpers spec builders use to make
one (:func:`jsonable`, :func:`with_infinities`, :func:`minimal_spec`).

The viewer itself is a Streamlit custom component (v2) that steps through a finished run in the browser
(olc_ui/viewer/component.py); its JS/CSS and vendored libraries are olc_ui/viewer/assets.py's.

>>> spec = minimal_spec(T=3, mistakes=[1])
>>> validate_spec(spec) is None
True
>>> validate_spec({**spec, "position": 9})
Traceback (most recent call last):
...
ValueError: viewer spec: position: must be an integer in [0, T=3] (got 9)
"""
from __future__ import annotations

import math
import numbers
import re
from typing import Any

import numpy as np

__all__ = ["validate_spec", "jsonable", "with_infinities", "minimal_spec", "per_state", "OPS", "FORMAT_RE", "REL_LATEX",
           "MODES_KEY"]

#: Session-state key of the viewer modes a page runs in ({name: options}, docs/viewer-spec.md
#: "Modes"), e.g. {"present": {"hide": [...]}} written by olc_ui/shared/present.py on every page run.
MODES_KEY = "_olc_viewer_modes"
#: Dynamic trace operations (docs/viewer-spec.md, "Dynamic trace ops").
OPS = ("rows_before", "rows_from", "row_current", "rows_all", "state", "state_window", "on_mistake",
       "point_state", "point_position", "vline_position")
_ROW_OPS = ("rows_before", "rows_from", "row_current", "rows_all")
_CANVAS_OPS = ("rows_before", "rows_from", "rows_all")
_OP_KEYS = {
    **{op: {"x", "y", "rounds", "z", "text", "color"} for op in _ROW_OPS},
    "state": {"x", "y", "z", "text", "color"},
    "state_window": {"x", "y", "z", "back"},
    "on_mistake": {"x", "y", "z", "text"},
    "point_state": {"x", "y", "text"},
    "point_position": {"x", "y", "text"},
    "vline_position": {"y"},
}
#: Number formats: a subset of Python's format spec ([sign][,][.precision][type]),
#: rendered identically by the browser; or "text".
#: the relations a ledger value of fmt "rel" may print (raw LaTeX: a closed list, nothing else passes)
REL_LATEX = {r"\le": "≤", "<": "<", ">": ">", r"\ge": "≥", r"\overset{?}{\le}": "≤?", r"\overset{?}{<}": "<?"}
FORMAT_RE = re.compile(r"^([+\- ]?)(,?)(?:\.(\d+))?([dfeg%]?)$")
_NAME_RE = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
_BUILTINS = ("t", "T", "k")
#: LaTeX commands whose argument is text or a symbol's name, never a number: a value
#: named like their argument is a clash (``\mathrm{TD}`` with a value ``TD``).
_TEXT_COMMANDS = ("mathrm", "text", "textrm", "textbf", "textit", "textsf", "texttt", "mathit", "mathbf",
                  "mathsf", "mathtt", "mathcal", "mathbb", "mathfrak", "mathscr", "operatorname",
                  "boldsymbol", "mbox", "label", "begin", "end")
_CLASH_RE = re.compile(r"\\(" + "|".join(_TEXT_COMMANDS) + r")\s*\{([A-Za-z_][A-Za-z0-9_]*)\}")


# --------------------------------------------------------------------------- validation

def _fail(path: str, msg: str) -> None:
    raise ValueError(f"viewer spec: {path}: {msg}")


def _is_int(v: Any) -> bool:
    return isinstance(v, numbers.Integral) and not isinstance(v, bool)


def _is_num(v: Any) -> bool:
    return isinstance(v, numbers.Real) and not isinstance(v, bool) and math.isfinite(v)


def _sorted_ints(v: Any, path: str, lo: int, hi: int, strict: bool) -> list:
    if not isinstance(v, list):
        _fail(path, f"must be a list of integers (got {type(v).__name__})")
    prev = None
    for i, x in enumerate(v):
        if not _is_int(x) or not lo <= x <= hi:
            _fail(f"{path}[{i}]", f"must be an integer in [{lo}, {hi}] (got {x!r})")
        if prev is not None and (x < prev or (strict and x == prev)):
            _fail(path, f"must be sorted {'strictly ' if strict else ''}ascending (entry {i}: {x} after {prev})")
        prev = x
    return v


def _source(src: Any, path: str, T: int, K: int, *, holds: bool = False) -> None:
    if not isinstance(src, dict):
        _fail(path, "must be a dict: {'const': v} or {'by': 'state'|'position'|'round', 'data': [...]}")
    allowed = {"const", "by", "data", "fmt", "labels"}
    extra = set(src) - allowed
    if extra:
        _fail(path, f"unknown key(s) {sorted(extra)}")
    if "const" in src:
        if "by" in src or "data" in src:
            _fail(path, "give either 'const' or 'by' + 'data', not both")
        v = src["const"]
        if not (v is None or isinstance(v, (str, bool)) or _is_num(v)):
            _fail(f"{path}.const", f"must be a finite number, a string, a bool or None (got {v!r})")
        data = [v]
    else:
        by = src.get("by")
        lengths = {"state": K, "position": T + 1, "round": T}
        if by not in lengths:
            _fail(f"{path}.by", f"must be 'state', 'position' or 'round' (got {by!r})")
        data = src.get("data")
        if not isinstance(data, list):
            _fail(f"{path}.data", "must be a list")
        if len(data) != lengths[by]:
            what = {"state": "K = len(breaks) + 1", "position": "T + 1", "round": "T"}[by]
            _fail(f"{path}.data", f"by {by!r} needs {lengths[by]} entries ({what}), got {len(data)}")
    fmt = src.get("fmt")
    if fmt is not None and (not isinstance(fmt, str) or (fmt not in ("text", "rel") and not FORMAT_RE.match(fmt))):
        _fail(f"{path}.fmt", f"must be 'text', 'rel' or a format like 'd', '.4g', '.3f', '+.3f', ',d' (got {fmt!r})")
    labels = src.get("labels")
    if fmt == "rel" and not (isinstance(labels, list) and labels and all(s in REL_LATEX for s in labels)):
        _fail(f"{path}.labels", f"with fmt 'rel', labels are relations printed as LaTeX, each one of "
                                f"{sorted(REL_LATEX)} (got {labels!r})")
    if labels is not None:
        if not isinstance(labels, list) or not all(isinstance(s, str) for s in labels):
            _fail(f"{path}.labels", "must be a list of strings")
        for i, v in enumerate(data):
            if v is not None and not (_is_int(v) and 0 <= v < len(labels)):
                _fail(f"{path}.data[{i}]", f"with labels, entries are label indices in [0, {len(labels)}) or None "
                                           f"(got {v!r})")
    if holds:
        for i, v in enumerate(data):
            if v not in (0, 1, None):  # True / False / 1.0 / 0.0 compare equal and are accepted
                _fail(f"{path}.data[{i}]", f"must be 1 (holds), 0 (fails) or None (not defined) (got {v!r})")


def _array(arrays: dict, name: Any, path: str) -> list:
    if not isinstance(name, str):
        _fail(path, f"must name an entry of spec['arrays'] (got {name!r})")
    if name not in arrays:
        _fail(path, f"names array {name!r}, which is not in spec['arrays']")
    return arrays[name]


def _nested(arr: list, path: str, n: int, what: str) -> None:
    if len(arr) != n:
        _fail(path, f"needs {n} entries ({what}), got {len(arr)}")
    for i, part in enumerate(arr):
        if part is not None and not isinstance(part, list):
            _fail(f"{path}[{i}]", f"must be a list (one trace's points) or None (got {type(part).__name__})")


def _op(op: Any, path: str, spec: dict, n_traces: int, used: set) -> None:
    if not isinstance(op, dict):
        _fail(path, "must be a dict")
    name = op.get("op")
    if name not in OPS:
        _fail(f"{path}.op", f"must be one of {', '.join(OPS)} (got {name!r})")
    trace = op.get("trace")
    if not _is_int(trace) or not 0 <= trace < n_traces:
        _fail(f"{path}.trace", f"must be a trace index in [0, {n_traces}) (got {trace!r})")
    if trace in used:
        _fail(f"{path}.trace", f"trace {trace} is already driven by another dynamic op")
    used.add(trace)
    render = op.get("render", "svg")
    if render not in ("svg", "canvas"):
        _fail(f"{path}.render", f"must be 'svg' or 'canvas' (got {render!r})")
    if render == "canvas" and name not in _CANVAS_OPS:
        _fail(f"{path}.render", f"'canvas' is for {', '.join(_CANVAS_OPS)} only")
    if name == "rows_all" and render != "canvas":
        _fail(f"{path}.render", "rows_all (a static point layer) needs render 'canvas'")
    extra = set(op) - _OP_KEYS[name] - {"op", "trace", "render"}
    if extra:
        _fail(path, f"unknown key(s) {sorted(extra)} for op {name!r}")
    arrays, T, K = spec["arrays"], spec["T"], len(spec["breaks"]) + 1
    if name == "vline_position":
        y = op.get("y")
        if not (isinstance(y, list) and len(y) == 2 and all(_is_num(v) for v in y)):
            _fail(f"{path}.y", f"must be [lo, hi] (got {y!r})")
        return
    for key in ("x", "y"):
        if key not in op:
            _fail(path, f"op {name!r} needs {key!r}")
    optional = [k for k in ("z", "text", "color") if k in op]
    if name in _ROW_OPS:
        rounds = _array(arrays, op.get("rounds"), f"{path}.rounds")
        _sorted_ints(rounds, f"arrays[{op['rounds']!r}]", 0, max(T - 1, 0), strict=False)
        for key in ("x", "y", *optional):
            a = _array(arrays, op[key], f"{path}.{key}")
            if not isinstance(a, list) or len(a) != len(rounds):
                _fail(f"{path}.{key}", f"array {op[key]!r} must have one entry per row of {op['rounds']!r} "
                                       f"({len(rounds)}), got {len(a) if isinstance(a, list) else type(a).__name__}")
    elif name in ("state", "state_window"):
        for key in ("x", "y", *optional):
            _nested(_array(arrays, op[key], f"{path}.{key}"), f"arrays[{op[key]!r}]", K, "one per state")
        if name == "state_window":
            back = op.get("back", 1)
            if not _is_int(back) or back < 1:
                _fail(f"{path}.back", f"must be an integer >= 1 (got {back!r})")
    elif name == "on_mistake":
        for key in ("x", "y", *optional):
            _nested(_array(arrays, op[key], f"{path}.{key}"), f"arrays[{op[key]!r}]", len(spec["breaks"]),
                    "one per entry of breaks")
    else:  # point_state, point_position
        n, what = (K, "one per state") if name == "point_state" else (T + 1, "T + 1, one per position")
        for key in ("x", "y", *optional):
            a = _array(arrays, op[key], f"{path}.{key}")
            if not isinstance(a, list) or len(a) != n:
                _fail(f"arrays[{op[key]!r}]", f"needs {n} entries ({what}), "
                                              f"got {len(a) if isinstance(a, list) else type(a).__name__}")


def validate_spec(spec: Any) -> None:
    """Raise ``ValueError`` (naming the faulty part) unless ``spec`` is a well-formed viewer spec.

    Checks the shape described in docs/viewer-spec.md: types, lengths (per state,
    per position, per round), sorted stop lists, that every array a dynamic op or a
    value names exists, formats, and that the layout places every figure once.
    """
    T = _run(spec)
    _arrays(spec)
    K = len(spec["breaks"]) + 1
    ids = _figures(spec)
    ledger = spec.get("ledger")
    if ledger is not None:
        _ledger(ledger, T, K)
    if spec.get("caption") is not None:
        _caption(spec["caption"], T, K)
    if spec.get("layout") is not None:
        _layout(spec["layout"], ids, ledger is not None)


def _run(spec: Any) -> int:
    """Check the run's part of the spec (its keys, T, position, stops and speed); return T."""
    if not isinstance(spec, dict):
        _fail("spec", f"must be a dict (got {type(spec).__name__})")
    for key in ("version", "run_id", "T", "position", "url_param", "breaks", "mistake_rounds", "arrays", "figures"):
        if key not in spec:
            _fail(key, "is missing")
    known = {"version", "run_id", "T", "position", "url_param", "breaks", "mistake_rounds", "extra_stops", "arrays",
             "figures", "ledger", "caption", "layout", "speed"}
    extra = set(spec) - known
    if extra:
        _fail("spec", f"unknown key(s) {sorted(extra)}")
    if spec["version"] != 1 or isinstance(spec["version"], bool):
        _fail("version", f"must be 1 (got {spec['version']!r})")
    if not isinstance(spec["run_id"], str) or not spec["run_id"]:
        _fail("run_id", f"must be a non-empty string (got {spec['run_id']!r})")
    T = spec["T"]
    if not _is_int(T) or T < 0:
        _fail("T", f"must be an integer >= 0 (got {T!r})")
    p = spec["position"]
    if not _is_int(p) or not 0 <= p <= T:
        _fail("position", f"must be an integer in [0, T={T}] (got {p!r})")
    if not isinstance(spec["url_param"], str) or not re.match(r"^[A-Za-z0-9_.\-]+$", spec["url_param"]):
        _fail("url_param", f"must be a query parameter name like 't' (got {spec['url_param']!r})")
    _sorted_ints(spec["breaks"], "breaks", 0, T, strict=True)
    _sorted_ints(spec["mistake_rounds"], "mistake_rounds", 0, max(T - 1, 0), strict=True)
    if T == 0 and spec["mistake_rounds"]:
        _fail("mistake_rounds", "must be empty when T = 0")
    extra_stops = spec.get("extra_stops", {})
    if not isinstance(extra_stops, dict):
        _fail("extra_stops", "must be a dict {name: sorted 0-based rounds}")
    for name, rounds in extra_stops.items():
        if not isinstance(name, str) or not name.strip() or name == "mistake":
            _fail("extra_stops", f"names must be non-empty strings other than 'mistake' (got {name!r})")
        _sorted_ints(rounds, f"extra_stops[{name!r}]", 0, max(T - 1, 0), strict=True)
    speed = spec.get("speed")
    if speed is not None and not (_is_num(speed) and speed > 0):
        _fail("speed", f"must be a positive number of rounds per second (got {speed!r})")
    return T


def _arrays(spec: dict) -> None:
    arrays = spec["arrays"]
    if not isinstance(arrays, dict) or not all(isinstance(k, str) for k in arrays):
        _fail("arrays", "must be a dict {name: list}")
    for name, a in arrays.items():
        if not isinstance(a, list):
            _fail(f"arrays[{name!r}]", f"must be a list (got {type(a).__name__})")


def _figures(spec: dict) -> list[str]:
    """Check every figure; return their ids."""
    figures = spec["figures"]
    if not isinstance(figures, list):
        _fail("figures", "must be a list")
    ids: list[str] = []
    for i, fig in enumerate(figures):
        ids.append(_figure(fig, f"figures[{i}]", spec, ids))
    return ids


def _figure(fig: Any, path: str, spec: dict, ids: list[str]) -> str:
    """Check one figure (``ids``: the figures' ids before it); return its id."""
    if not isinstance(fig, dict):
        _fail(path, "must be a dict")
    extra = set(fig) - {"id", "title", "height", "figure", "dynamic", "config", "note", "describe"}
    if extra:
        _fail(path, f"unknown key(s) {sorted(extra)}")
    if "note" in fig and not isinstance(fig["note"], str):
        _fail(f"{path}.note", "must be a string (plain text, shown under the figure)")
    fid = fig.get("id")
    if not isinstance(fid, str) or not fid or fid == "ledger":
        _fail(f"{path}.id", f"must be a non-empty string other than 'ledger' (got {fid!r})")
    if fid in ids:
        _fail(f"{path}.id", f"duplicate figure id {fid!r}")
    if "title" in fig and not isinstance(fig["title"], str):
        _fail(f"{path}.title", "must be a string")
    h = fig.get("height", 400)
    if not _is_int(h) or not 80 <= h <= 4000:
        _fail(f"{path}.height", f"must be an integer number of pixels in [80, 4000] (got {h!r})")
    f = fig.get("figure")
    if not isinstance(f, dict) or not isinstance(f.get("data"), list) or \
            not all(isinstance(t, dict) for t in f["data"]):
        _fail(f"{path}.figure", "must be a plotly figure dict {'data': [trace dicts], 'layout': {...}}")
    if not isinstance(f.get("layout", {}), dict):
        _fail(f"{path}.figure.layout", "must be a dict")
    if not isinstance(fig.get("config", {}), dict):
        _fail(f"{path}.config", "must be a dict of plotly config options")
    dyn = fig.get("dynamic", [])
    if not isinstance(dyn, list):
        _fail(f"{path}.dynamic", "must be a list of ops")
    used: set = set()
    for j, op in enumerate(dyn):
        _op(op, f"{path}.dynamic[{j}]", spec, len(f["data"]), used)
    if "describe" not in fig:   # a text alternative written from the run (olc_ui/shared/describe_view.py): required
        _fail(f"{path}.describe", "is missing: every figure needs a description written from its run (name, "
                                  "template, values), never one read off the plot")
    _describe(fig["describe"], f"{path}.describe", spec)
    return fid


def _describe(desc: Any, path: str, spec: dict) -> None:
    """A figure's text alternative: name, template (+ start), values (a source may name an array of
    the spec instead of holding its data: ``{"by": "state", "array": "M_now"}``, or a value of the caption:
    ``{"caption": "y"}``), table rows."""
    if not isinstance(desc, dict):
        _fail(path, "must be a dict {'name', 'template', 'values', 'table'}")
    extra = set(desc) - {"name", "template", "start", "values", "table"}
    if extra:
        _fail(path, f"unknown key(s) {sorted(extra)}")
    for key in ("name", "template"):
        if not isinstance(desc.get(key), str) or not desc[key].strip():
            _fail(f"{path}.{key}", "must be a non-empty string (plain text)")
    if "start" in desc and not isinstance(desc["start"], str):
        _fail(f"{path}.start", "must be a string")
    values = desc.get("values", {})
    if not isinstance(values, dict):
        _fail(f"{path}.values", "must be a dict {name: source}")
    resolved = {}
    for name, src in values.items():
        if isinstance(src, dict) and "caption" in src:   # the caption's own value, sent once
            cap = (spec.get("caption") or {}).get("values") or {}
            if src["caption"] not in cap or set(src) - {"caption", "fmt"}:
                _fail(f"{path}.values[{name!r}]", f"names no caption value {src['caption']!r} (or has keys "
                                                  "besides 'caption' and 'fmt')")
            src = {**cap[src["caption"]], **{k: v for k, v in src.items() if k != "caption"}}
        if isinstance(src, dict) and "array" in src:
            if "data" in src or "const" in src:
                _fail(f"{path}.values[{name!r}]", "give 'array' or 'data' / 'const', not both")
            rest = {k: v for k, v in src.items() if k != "array"}
            src = {**rest, "data": _array(spec["arrays"], src["array"], f"{path}.values[{name!r}].array")}
        resolved[name] = src
    _values(resolved, f"{path}.values", spec["T"], len(spec["breaks"]) + 1)
    table = desc.get("table", [])
    names = set(values) | set(_BUILTINS)
    if not isinstance(table, list) or not all(
            isinstance(r, list) and len(r) == 2 and isinstance(r[0], str) and r[1] in names for r in table):
        _fail(f"{path}.table", "must be a list of [label, value name] rows (a name of values, or t, T, k)")


def _ledger(ledger: Any, T: int, K: int) -> None:
    if not isinstance(ledger, dict) or not isinstance(ledger.get("lines"), list):
        _fail("ledger", "must be a dict {'title': str, 'lines': [...]}")
    if "title" in ledger and not isinstance(ledger["title"], str):
        _fail("ledger.title", "must be a string")
    for i, line in enumerate(ledger["lines"]):
        _ledger_line(line, f"ledger.lines[{i}]", T, K)


def _ledger_line(line: Any, path: str, T: int, K: int) -> None:
    if not isinstance(line, dict):
        _fail(path, "must be a dict")
    extra = set(line) - {"latex", "values", "holds", "reason", "na"}
    if extra:
        _fail(path, f"unknown key(s) {sorted(extra)}")
    if "na" in line and (line["na"] is not True or "holds" in line):
        _fail(f"{path}.na", "must be true, on a line without holds (a step not applicable to these data)")
    if not isinstance(line.get("latex"), str) or not line["latex"]:
        _fail(f"{path}.latex", "must be a non-empty string")
    if "reason" in line and not isinstance(line["reason"], str):
        _fail(f"{path}.reason", "must be a string (plain text)")
    _values(line.get("values", {}), f"{path}.values", T, K)
    names = set(line.get("values", {})) | set(_BUILTINS)
    for m in _CLASH_RE.finditer(line["latex"]):
        if m.group(2) in names:
            _fail(f"{path}.latex", f"\\{m.group(1)}{{{m.group(2)}}} would show the value {m.group(2)!r}: "
                                   "every {name} of a value (or of t, T, k) is replaced; rename the value")
    if "holds" in line and line["holds"] is not None:
        _source(line["holds"], f"{path}.holds", T, K, holds=True)


def _caption(caption: Any, T: int, K: int) -> None:
    if not isinstance(caption, dict) or not isinstance(caption.get("template"), str):
        _fail("caption", "must be a dict {'template': str, 'values': {...}}")
    extra = set(caption) - {"template", "start", "values"}
    if extra:
        _fail("caption", f"unknown key(s) {sorted(extra)}")
    if "start" in caption and not isinstance(caption["start"], str):
        _fail("caption.start", "must be a string")
    _values(caption.get("values", {}), "caption.values", T, K)


def _layout(layout: Any, ids: list[str], has_ledger: bool) -> None:
    cols = layout.get("columns") if isinstance(layout, dict) else None
    if not isinstance(cols, list) or not cols or not all(isinstance(c, list) for c in cols):
        _fail("layout.columns", "must be a non-empty list of lists of figure ids (or 'ledger')")
    extra = set(layout) - {"columns", "widths"}
    if extra:
        _fail("layout", f"unknown key(s) {sorted(extra)}")
    placed = [x for c in cols for x in c]
    expected = ids + (["ledger"] if has_ledger else [])
    for x in placed:
        if x not in expected:
            _fail("layout.columns", f"{x!r} is not a figure id{' or ledger' if has_ledger else ''}")
    dup = {x for x in placed if placed.count(x) > 1}
    if dup:
        _fail("layout.columns", f"placed more than once: {sorted(dup)}")
    missing = [x for x in expected if x not in placed]
    if missing:
        _fail("layout.columns", f"not placed: {missing}")
    widths = layout.get("widths")
    if widths is not None and (not isinstance(widths, list) or len(widths) != len(cols)
                               or not all(_is_num(w) and w > 0 for w in widths)):
        _fail("layout.widths", "must be one positive number per column")

def _values(values: Any, path: str, T: int, K: int) -> None:
    if not isinstance(values, dict):
        _fail(path, "must be a dict {name: source}")
    for name, src in values.items():
        if not isinstance(name, str) or not _NAME_RE.match(name):
            _fail(path, f"value names must be identifiers (got {name!r})")
        if name in _BUILTINS:
            _fail(path, f"{name!r} is a built-in name (t = position, T, k = state index)")
        _source(src, f"{path}[{name!r}]", T, K)


# --------------------------------------------------------------------------- helpers for spec builders

INF_TOKENS = ("inf", "-inf")  # a value source's ±∞ (JSON has no infinity): printed ∞ / −∞


def with_infinities(a: Any) -> Any:
    """A value source's data with ±inf kept, as the tokens "inf" / "-inf" (NaN still becomes null):
    the ledger can then say ln w = −∞ (a weight that reached 0), not "—" (undefined).

    >>> import numpy as np
    >>> jsonable(with_infinities(np.array([1.5, -np.inf, np.nan, np.inf])))
    [1.5, '-inf', None, 'inf']
    """
    arr = np.asarray(a)
    if arr.dtype.kind != "f" or not np.isinf(arr).any():
        return a
    out = arr.astype(object)
    out[arr == np.inf] = "inf"
    out[arr == -np.inf] = "-inf"
    return out


def jsonable(obj: Any, ndigits: int | None = None) -> Any:
    """``obj`` as plain JSON data: numpy arrays and scalars to lists / Python numbers,
    tuples to lists, NaN and ±inf to None; floats rounded to ``ndigits`` when given.

    Numeric arrays are converted whole (vectorised), not element by element: a
    lesson's spec holds ~10⁵ numbers and is rebuilt whenever its run changes.

    >>> import numpy as np
    >>> jsonable({"a": np.array([1.23456, np.nan]), "b": (np.int64(3), np.inf)}, ndigits=2)
    {'a': [1.23, None], 'b': [3, None]}
    """
    if isinstance(obj, np.ndarray):
        if obj.dtype.kind == "f":
            a = np.round(obj, ndigits) if ndigits is not None else obj
            finite = np.isfinite(a)
            if finite.all():
                return a.tolist()
            out = a.astype(object)
            out[~finite] = None
            return out.tolist()
        if obj.dtype.kind in "c" or obj.dtype == object:
            return [jsonable(v, ndigits) for v in obj.tolist()]
        return obj.tolist()
    if isinstance(obj, dict):
        return {str(k): jsonable(v, ndigits) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        if obj and all(type(v) is float for v in obj):  # a plain list of floats: one pass
            if ndigits is not None:
                return [round(v, ndigits) if math.isfinite(v) else None for v in obj]
            return [v if math.isfinite(v) else None for v in obj]
        return [jsonable(v, ndigits) for v in obj]
    if isinstance(obj, bool) or obj is None or isinstance(obj, str):
        return obj
    if isinstance(obj, np.bool_):
        return bool(obj)
    if isinstance(obj, numbers.Integral):
        return int(obj)
    if isinstance(obj, numbers.Real):
        x = float(obj)
        if not math.isfinite(x):
            return None
        return round(x, ndigits) if ndigits is not None else x
    return obj


def _step_function(data: Any, T: int, is_break: bytearray) -> bool:
    """Whether ``data`` (one entry per position) changes only at breaks: the same value, of the same type
    (1 and 1.0 print differently), at every position of a state."""
    if not isinstance(data, list) or len(data) != T + 1:
        return False
    prev = data[0]
    for p in range(1, T + 1):
        v = data[p]
        if not is_break[p] and (type(v) is not type(prev) or v != prev):
            return False
        prev = v
    return True


def _array_refs(figures: list) -> set:
    """The names of the arrays the figures' dynamic ops and descriptions read."""
    ops = {op[k] for f in figures for op in f.get("dynamic", [])
           for k in ("x", "y", "z", "text", "color", "rounds") if isinstance(op.get(k), str)}
    return ops | {v["array"] for f in figures for v in ((f.get("describe") or {}).get("values") or {}).values()
                  if isinstance(v, dict) and isinstance(v.get("array"), str)}


#: the name of an array's per-state copy made by :func:`per_state`
STATE_SUFFIX = "__by_state"


def per_state(spec: dict) -> dict:
    """``spec`` with its per-position data that change only at breaks sent per state (K = len(breaks) + 1 entries
    instead of T + 1): the viewer shows exactly the same at every position, from a smaller spec.

    Ledger, caption and chart-description value sources ``{"by": "position", …}`` become ``{"by": "state", …}``
    (a description's array by its per-state copy, ``<name>__by_state``), and a ``point_position`` op whose arrays
    are all such step functions becomes ``point_state`` on their copies (the viewer then redraws its trace only
    when the state changes). An array nothing reads per position any more is dropped. A spec whose breaks are not
    strictly increasing in [1, T] is returned as it is. Pure: the spec passed in is not changed (the parts that do
    not change are shared with the result).

    >>> s = minimal_spec(T=4, mistakes=[1])
    >>> s["ledger"]["lines"][0]["values"]["M"] = {"by": "position", "data": [0, 0, 1, 1, 1], "fmt": "d"}
    >>> per_state(s)["ledger"]["lines"][0]["values"]["M"]
    {'by': 'state', 'data': [0, 1], 'fmt': 'd'}
    """
    T, breaks, arrays = spec["T"], spec["breaks"], spec["arrays"]
    if any(not (1 <= b <= T) for b in breaks) or any(b <= a for a, b in zip(breaks, breaks[1:])):
        return spec
    is_break = bytearray(T + 1)
    for b in breaks:
        is_break[b] = 1
    starts = [0, *breaks]
    copies: dict[str, list] = {}
    memo: dict[str, bool] = {}

    def copy_of(name: Any) -> str | None:
        """The name of the per-state copy of array ``name`` (made on first use), None if it has none."""
        if not isinstance(name, str) or name not in arrays or name + STATE_SUFFIX in arrays:
            return None
        if name not in memo:
            memo[name] = _step_function(arrays[name], T, is_break)
        if not memo[name]:
            return None
        copies.setdefault(name + STATE_SUFFIX, [arrays[name][s] for s in starts])
        return name + STATE_SUFFIX

    def source(src: Any) -> Any:
        if not isinstance(src, dict) or src.get("by") != "position":
            return src
        if "data" in src:
            ok = _step_function(src["data"], T, is_break)
            return {**src, "by": "state", "data": [src["data"][s] for s in starts]} if ok else src
        name = copy_of(src.get("array"))
        return {**src, "by": "state", "array": name} if name else src

    def op(o: dict) -> dict:
        keys = [k for k in ("x", "y", "text") if k in o]
        if o.get("op") != "point_position" or not all(copy_of(o[k]) for k in keys):
            return o
        return {**o, "op": "point_state", **{k: copy_of(o[k]) for k in keys}}

    def values(vals: Any) -> Any:
        return {n: source(v) for n, v in vals.items()} if isinstance(vals, dict) else vals

    def figure(f: dict) -> dict:
        out = {**f, "dynamic": [op(o) for o in f.get("dynamic", [])]}
        desc = f.get("describe")
        if isinstance(desc, dict) and "values" in desc:
            out["describe"] = {**desc, "values": values(desc["values"])}
        return out

    figures = [figure(f) for f in spec["figures"]]
    gone = _array_refs(spec["figures"]) - _array_refs(figures)
    out = {**spec, "figures": figures, "arrays": {**{n: a for n, a in arrays.items() if n not in gone}, **copies}}
    if isinstance(spec.get("ledger"), dict):
        out["ledger"] = {**spec["ledger"], "lines": [
            {**ln, **({"values": values(ln["values"])} if "values" in ln else {}),
             **({"holds": source(ln["holds"])} if ln.get("holds") is not None else {})}
            for ln in spec["ledger"].get("lines", [])]}
    if isinstance(spec.get("caption"), dict) and "values" in spec["caption"]:
        out["caption"] = {**spec["caption"], "values": values(spec["caption"]["values"])}
    return out


def minimal_spec(T: int = 10, mistakes: list[int] | None = None, run_id: str = "demo") -> dict:
    """A small valid spec (one figure with a current-round marker, a one-line ledger), for tests and docs."""
    mistakes = sorted(mistakes or [])
    K = len(mistakes) + 1
    return {
        "version": 1, "run_id": run_id, "T": T, "position": 0, "url_param": "t",
        "breaks": [m + 1 for m in mistakes], "mistake_rounds": mistakes,
        "arrays": {"r": list(range(T)), "x": [float(i) for i in range(T)], "y": [0.0] * T,
                   "M": list(range(K))},
        "figures": [{"id": "main", "title": "Rounds", "height": 300,
                     "figure": {"data": [{"type": "scatter", "mode": "markers", "x": [], "y": []}],
                                "layout": {"xaxis": {"range": [-1, T]}, "yaxis": {"range": [-1, 1]}}},
                     "dynamic": [{"trace": 0, "op": "row_current", "rounds": "r", "x": "x", "y": "y"}],
                     "describe": {"name": "Rounds", "template": "Rounds at round {t} of {T}: mistakes so far M = {k}.",
                                  "values": {}, "table": [["mistakes M", "k"]]}}],
        "ledger": {"title": "Ledger", "lines": [{"latex": "M = {M}", "values": {"M": {"by": "state", "data": list(
            range(K)), "fmt": "d"}}, "holds": {"by": "state", "data": [1] * K}, "reason": "counting"}]},
        "caption": {"template": "Round {t} of {T}"},
        "layout": {"columns": [["main", "ledger"]]},
    }

