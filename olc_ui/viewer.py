"""The step viewer: a Streamlit custom component (v2) that steps through a finished run in the browser.

Python builds a JSON *spec* (docs/viewer-spec.md) once per run; :func:`viewer` mounts
the component, which draws the spec's plotly figures, KaTeX ledger and caption and
steps through the run without a server round trip per step. It returns the current
position; the browser reports it only when stepping pauses.

    import olc_ui.viewer as ov
    p = ov.viewer(spec, key="perceptron")       # 0 … spec["T"]

Assets: plotly.js (the full bundle from the installed ``plotly`` package, and the
vendored basic bundle ``olc_ui/assets/plotly``, 4x smaller, used when every trace is a
scatter, bar or pie) and KaTeX (vendored in ``olc_ui/assets/katex``) are copied at
import time into ``static/olc/`` next to the app's main script and served by
Streamlit's static file serving (``.streamlit/config.toml``:
``[server] enableStaticServing = true``), so the browser loads each once per page and
caches it.

>>> spec = minimal_spec(T=3, mistakes=[1])
>>> validate_spec(spec) is None
True
>>> validate_spec({**spec, "position": 9})
Traceback (most recent call last):
...
ValueError: viewer spec: position: must be an integer in [0, T=3] (got 9)
"""
from __future__ import annotations

import functools
import hashlib
import json
import logging
import math
import numbers
import os
import re
import shutil
import tempfile
from collections import OrderedDict
from pathlib import Path
from typing import Any

from .position import _mounted, last_key, position_from_query, start_position  # noqa: F401  (re-exported)

__all__ = ["viewer", "bundle_js", "validate_spec", "jsonable", "with_infinities", "start_position", "position_from_query", "minimal_spec",
           "ensure_static_assets", "OPS", "FORMAT_RE", "REL_LATEX"]

_LOG = logging.getLogger(__name__)

ASSET_DIR = Path(__file__).resolve().parent / "assets"
KATEX_VERSION = "0.19.1"
#: The vendored plotly.js basic bundle (scatter, bar, pie): used when a spec needs no
#: other trace type and the installed plotly package ships the same plotly.js version.
PLOTLY_BASIC_VERSION = "4.1.1"
BASIC_TRACE_TYPES = frozenset({"scatter", "bar", "pie"})
#: Sub-folder of the app's ``static/`` folder that this module fills.
STATIC_SUBDIR = "olc"
COMPONENT_NAME = "olc_step_viewer"
#: Session-state key of the viewer modes a page runs in ({name: options}, docs/viewer-spec.md
#: "Modes"), e.g. {"present": {"hide": [...]}} written by olc_ui/present.py on every page run.
MODES_KEY = "_olc_viewer_modes"
#: The figure download (built in the browser from the round on screen), loaded on the first click.
EXPORT_JS = "viewer_export.js"

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
    arrays = spec["arrays"]
    if not isinstance(arrays, dict) or not all(isinstance(k, str) for k in arrays):
        _fail("arrays", "must be a dict {name: list}")
    for name, a in arrays.items():
        if not isinstance(a, list):
            _fail(f"arrays[{name!r}]", f"must be a list (got {type(a).__name__})")
    K = len(spec["breaks"]) + 1

    figures = spec["figures"]
    if not isinstance(figures, list):
        _fail("figures", "must be a list")
    ids: list[str] = []
    for i, fig in enumerate(figures):
        path = f"figures[{i}]"
        if not isinstance(fig, dict):
            _fail(path, "must be a dict")
        extra = set(fig) - {"id", "title", "height", "figure", "dynamic", "config", "note"}
        if extra:
            _fail(path, f"unknown key(s) {sorted(extra)}")
        if "note" in fig and not isinstance(fig["note"], str):
            _fail(f"{path}.note", "must be a string (plain text, shown under the figure)")
        fid = fig.get("id")
        if not isinstance(fid, str) or not fid or fid == "ledger":
            _fail(f"{path}.id", f"must be a non-empty string other than 'ledger' (got {fid!r})")
        if fid in ids:
            _fail(f"{path}.id", f"duplicate figure id {fid!r}")
        ids.append(fid)
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

    ledger = spec.get("ledger")
    if ledger is not None:
        if not isinstance(ledger, dict) or not isinstance(ledger.get("lines"), list):
            _fail("ledger", "must be a dict {'title': str, 'lines': [...]}")
        if "title" in ledger and not isinstance(ledger["title"], str):
            _fail("ledger.title", "must be a string")
        for i, line in enumerate(ledger["lines"]):
            path = f"ledger.lines[{i}]"
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

    caption = spec.get("caption")
    if caption is not None:
        if not isinstance(caption, dict) or not isinstance(caption.get("template"), str):
            _fail("caption", "must be a dict {'template': str, 'values': {...}}")
        extra = set(caption) - {"template", "start", "values"}
        if extra:
            _fail("caption", f"unknown key(s) {sorted(extra)}")
        if "start" in caption and not isinstance(caption["start"], str):
            _fail("caption.start", "must be a string")
        _values(caption.get("values", {}), "caption.values", T, K)

    layout = spec.get("layout")
    if layout is not None:
        cols = layout.get("columns") if isinstance(layout, dict) else None
        if not isinstance(cols, list) or not cols or not all(isinstance(c, list) for c in cols):
            _fail("layout.columns", "must be a non-empty list of lists of figure ids (or 'ledger')")
        extra = set(layout) - {"columns", "widths"}
        if extra:
            _fail("layout", f"unknown key(s) {sorted(extra)}")
        placed = [x for c in cols for x in c]
        expected = ids + (["ledger"] if ledger is not None else [])
        for x in placed:
            if x not in expected:
                _fail("layout.columns", f"{x!r} is not a figure id{' or ledger' if ledger is not None else ''}")
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
    import numpy as np
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
    try:
        import numpy as np
    except ImportError:  # pragma: no cover - numpy is a dependency
        np = None
    if np is not None and isinstance(obj, np.ndarray):
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
    if np is not None and isinstance(obj, np.bool_):
        return bool(obj)
    if isinstance(obj, numbers.Integral):
        return int(obj)
    if isinstance(obj, numbers.Real):
        x = float(obj)
        if not math.isfinite(x):
            return None
        return round(x, ndigits) if ndigits is not None else x
    return obj


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
                     "dynamic": [{"trace": 0, "op": "row_current", "rounds": "r", "x": "x", "y": "y"}]}],
        "ledger": {"title": "Ledger", "lines": [{"latex": "M = {M}", "values": {"M": {"by": "state", "data": list(
            range(K)), "fmt": "d"}}, "holds": {"by": "state", "data": [1] * K}, "reason": "counting"}]},
        "caption": {"template": "Round {t} of {T}"},
        "layout": {"columns": [["main", "ledger"]]},
    }


# --------------------------------------------------------------------------- assets

def _plotly_js() -> tuple[Path, str]:
    import plotly

    path = Path(plotly.__file__).resolve().parent / "package_data" / "plotly.min.js"
    with open(path, "rb") as fh:
        head = fh.read(400).decode("utf-8", "replace")
    m = re.search(r"plotly\.js v(\d+\.\d+\.\d+)", head)
    return path, (m.group(1) if m else "unknown")


def _copy_if_stale(src: Path, dst: Path) -> None:
    """Copy ``src`` to ``dst`` unless an identical-size copy is there (atomic rename)."""
    try:
        if dst.is_file() and dst.stat().st_size == src.stat().st_size:
            return
    except OSError:
        pass
    dst.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{dst.name}.", dir=str(dst.parent))
    os.close(fd)
    try:
        shutil.copyfile(src, tmp)
        os.chmod(tmp, 0o644)
        os.replace(tmp, dst)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)


def ensure_static_assets(app_dir: str | os.PathLike) -> dict[str, str]:
    """Copy plotly.js and KaTeX into ``<app_dir>/static/olc/`` if missing; return their URLs.

    URLs are relative to the Streamlit server's base URL (``app/static/…``). Files are
    named by version, so a new plotly or KaTeX gets a new URL (no stale browser cache).
    """
    root = Path(app_dir) / "static" / STATIC_SUBDIR
    urls = _asset_urls()
    plotly_src, _ = _plotly_js()
    _copy_if_stale(plotly_src, root / Path(urls["plotly"]).name)
    if "plotly_basic" in urls:
        _copy_if_stale(ASSET_DIR / "plotly" / f"plotly-basic-{PLOTLY_BASIC_VERSION}.min.js",
                       root / Path(urls["plotly_basic"]).name)
    ksrc = ASSET_DIR / "katex"
    for f in [ksrc / "katex.min.js", ksrc / "katex.min.css", *sorted((ksrc / "fonts").glob("*.woff2"))]:
        _copy_if_stale(f, root / f"katex-{KATEX_VERSION}" / f.relative_to(ksrc))
    _copy_if_stale(ASSET_DIR / EXPORT_JS, root / Path(urls["export"]).name)
    return urls


def _asset_urls() -> dict[str, str]:
    """Where the browser finds each asset, relative to the server's base URL."""
    _, plotly_ver = _plotly_js()
    base = f"app/static/{STATIC_SUBDIR}"
    urls = {"plotly": f"{base}/plotly-{plotly_ver}.min.js",
            "katex_js": f"{base}/katex-{KATEX_VERSION}/katex.min.js",
            "katex_css": f"{base}/katex-{KATEX_VERSION}/katex.min.css"}
    urls["export"] = f"{base}/{_export_name()}"
    if plotly_ver == PLOTLY_BASIC_VERSION:
        urls["plotly_basic"] = f"{base}/plotly-basic-{PLOTLY_BASIC_VERSION}.min.js"
    return urls


@functools.lru_cache(maxsize=1)
def _export_name() -> str:
    """viewer_export.js's served name, by content (a changed file gets a new URL: no stale cache)."""
    h = hashlib.blake2b((ASSET_DIR / EXPORT_JS).read_bytes(), digest_size=6).hexdigest()
    return f"viewer_export-{h}.js"


_ASSETS_BY_DIR: dict[str, dict[str, str]] = {}


def _served_app_dir() -> str | None:
    """The folder of the script ``streamlit run`` serves (its ``static/`` is what the
    browser gets at ``app/static/``); None without a server (AppTest, a bare import)."""
    from streamlit import config as st_config

    path = getattr(st_config, "_main_script_path", None)
    return str(Path(path).resolve().parent) if path else None


def _assets() -> dict[str, str]:
    app_dir = _served_app_dir()
    if app_dir is None:  # nothing serves static files here: copy nothing
        return _asset_urls()
    got = _ASSETS_BY_DIR.get(app_dir)
    if got is None:
        try:
            got = ensure_static_assets(app_dir)
        except OSError as exc:  # read-only deployment: the browser will say what is missing
            _LOG.warning("olc_ui.viewer: could not copy plotly.js / KaTeX into %s/static: %s", app_dir, exc)
            got = _asset_urls()
        _ASSETS_BY_DIR[app_dir] = got
    return got


# --------------------------------------------------------------------------- the component

_IMPORT_RE = re.compile(r'^import\s+(?:\{([^}]*)\}\s+from\s+)?"\./([A-Za-z0-9_]+\.js)";[ \t]*\n?', re.M)
_EXPORT_RE = re.compile(r"^export\s+(?=(?:const|let|function|async\s+function|class)\s)", re.M)


def bundle_js(entry: str = "viewer.js", asset_dir: Path = ASSET_DIR) -> str:
    """The viewer's ES modules (``olc_ui/assets/viewer*.js``) as the one module the component runs.

    Streamlit runs a v2 component's ``js`` as one module with no URL of its own, so its relative
    imports could not be resolved: the modules are concatenated, dependencies first. Each module
    may only use ``import { a, b } from "./x.js";`` (or ``import "./x.js";``, for a mode module
    that registers itself) and ``export`` on a top-level declaration; the entry module keeps its
    ``export default`` and ``export const``. Top-level names share one scope in the bundle, so two
    modules may not declare the same name (the bundle would not parse: tests/ui check it under node).
    Under node (tests) the files import each other as the real modules they are.
    """
    order: list[str] = []
    texts: dict[str, str] = {}

    def visit(name: str, stack: tuple[str, ...]) -> None:
        if name in texts:
            return
        if name in stack:
            raise ValueError(f"viewer JS: import cycle {' -> '.join(stack + (name,))}")
        text = (asset_dir / name).read_text(encoding="utf-8")
        for names, dep in _IMPORT_RE.findall(text):
            if " as " in names:
                raise ValueError(f"viewer JS: {name}: renamed imports ('as') are not supported by the bundler")
            visit(dep, stack + (name,))
        if re.search(r"^\s*import\b", _IMPORT_RE.sub("", text), re.M):
            raise ValueError(f"viewer JS: {name}: only `import {{ … }} from \"./x.js\";` is supported")
        texts[name] = text
        order.append(name)

    visit(entry, ())
    parts = []
    for name in order:
        body = _IMPORT_RE.sub("", texts[name])
        if name != entry:
            if re.search(r"^export\s+(default|\{)", body, re.M):
                raise ValueError(f"viewer JS: {name}: only the entry module may `export default` or `export {{…}}`")
            body = _EXPORT_RE.sub("", body)
        parts.append(f"// ---- {name}\n{body}")
    return "\n".join(parts)


@functools.lru_cache(maxsize=1)
def _component():
    import streamlit as st

    return st.components.v2.component(
        COMPONENT_NAME,
        js=bundle_js(),
        css=(ASSET_DIR / "viewer.css").read_text(encoding="utf-8"),
        isolate_styles=False,  # plotly.js styles and KaTeX fonts live in the document
    )


_VALID: OrderedDict[str, None] = OrderedDict()


def _dump(spec: Any) -> str:
    try:
        return json.dumps(spec, allow_nan=False, separators=(",", ":"))
    except ValueError as exc:
        raise ValueError("viewer spec: contains NaN or infinity; use None for undefined values "
                         "(olc_ui.viewer.jsonable converts)") from exc
    except TypeError as exc:
        raise ValueError(f"viewer spec: not plain JSON data ({exc}); convert numpy arrays and scalars "
                         "with olc_ui.viewer.jsonable") from exc


def _touch(pin_key: str) -> None:
    import streamlit as st

    pin = st.session_state.get(pin_key)
    if isinstance(pin, dict):
        pin["touched"] = True


def viewer(spec: dict, *, key: str, download: str | None = None, modes: dict | None = None) -> int:
    """Mount the step viewer for ``spec`` and return the current position (0 … T).

    The viewer offers "Download the figure at this round (HTML)", built in the browser
    from the round on screen, saved as ``<download>_round_<t>.html`` (``download``
    defaults to ``key`` without its ``_viewer`` suffix).

    ``spec["position"]`` is used when the run (``run_id``) is new to this viewer;
    afterwards the position is the browser's, reported when stepping pauses. With the
    same ``run_id`` the browser keeps its position and draws nothing again.
    ``modes``: the viewer modes to run in ({name: options}; default: the page's, from
    ``st.session_state[MODES_KEY]``, e.g. presentation mode's).
    Raises ``ValueError`` for a malformed spec (see :func:`validate_spec`).
    """
    import streamlit as st

    if not isinstance(key, str) or not key:
        raise ValueError("viewer: key must be a non-empty string")
    blob = _dump(spec)
    digest = hashlib.blake2b(blob.encode("utf-8"), digest_size=16).hexdigest()
    if digest not in _VALID:
        validate_spec(spec)
        _VALID[digest] = None
        while len(_VALID) > 64:
            _VALID.popitem(last=False)
    else:
        _VALID.move_to_end(digest)

    if not st.get_option("server.enableStaticServing"):
        st.error("The step viewer needs Streamlit's static file serving: start the app from the repository "
                 "root (its .streamlit/config.toml sets `[server] enableStaticServing = true`).")

    T = spec["T"]
    pin_key = f"_olc_viewer_pin::{key}"
    pin = st.session_state.get(pin_key)
    # a remount (back from another page) starts a fresh component: it opens at spec["position"]
    mounted = _mounted(key)
    if not isinstance(pin, dict) or pin.get("run_id") != spec["run_id"] or not mounted:
        # back from another page without a link's ?t=: the browser may resume at the round it
        # last showed of this run (a round reached during Play was never reported to Python)
        resume = not mounted and spec.get("url_param", "t") not in st.query_params
        pin = {"run_id": spec["run_id"], "position": spec["position"], "touched": False, "resume": resume}
        st.session_state[pin_key] = pin
    # The data sent stays identical while run_id does (so the browser does not even
    # re-parse it): the position in it is the one this run started at.
    data_spec = spec if spec["position"] == pin["position"] else {**spec, "position": pin["position"]}
    assets = _assets()
    types = {t.get("type", "scatter") for f in spec["figures"] for t in f["figure"]["data"]}
    chosen = {"plotly": assets["plotly_basic"] if "plotly_basic" in assets and types <= BASIC_TRACE_TYPES
              else assets["plotly"], "katex_js": assets["katex_js"], "katex_css": assets["katex_css"],
              "export": assets["export"]}
    name = download or (key[: -len("_viewer")] if key.endswith("_viewer") else key)
    if modes is None:
        modes = st.session_state.get(MODES_KEY) or {}
    result = _component()(key=key, data={"spec": data_spec, "assets": chosen, "download": name,
                                         "resume": bool(pin.get("resume")), "modes": modes},
                          on_position_change=functools.partial(_touch, pin_key))
    state = result.get("position") if hasattr(result, "get") else None
    current = max(0, min(T, int(state))) if pin["touched"] and _is_int(state) else int(pin["position"])
    st.session_state[last_key(key)] = current
    return current


# Copy the assets as soon as the module is imported by a served app, so the first
# page load does not wait for the copy.
if _served_app_dir() is not None:  # pragma: no cover - depends on the runtime
    try:
        _assets()
    except Exception as exc:  # never break an import over a copy
        _LOG.warning("olc_ui.viewer: static assets not prepared at import: %s", exc)
