"""The viewer's figures as they stand at one position, computed in Python.

The browser applies a spec's dynamic ops (docs/viewer-spec.md) at every step; this
module applies the same ops to produce plain plotly figure dicts for a position:
the figure download, and tests that check what a student sees at a given round
(as data, not pixels).

>>> from olc_ui.viewer.spec import minimal_spec
>>> spec = minimal_spec(T=4, mistakes=[1])
>>> state_index(spec, 0), state_index(spec, 2), state_index(spec, 4)
(0, 1, 1)
"""
from __future__ import annotations

import bisect
import copy
from typing import Any

from olc_ui.viewer.spec import REL_LATEX

__all__ = ["state_index", "apply_op", "figures_at", "ledger_at", "caption_at", "describe_values", "description_at",
           "minus_sign", "MINUS"]

BLANK = object()  # a "by round" value at p = 0 (no round played yet)


def state_index(spec: dict, p: int) -> int:
    """k(p): the number of breaks ≤ p."""
    return bisect.bisect_right(spec["breaks"], p)


def _rows(spec: dict, op: dict, keep) -> dict[str, list]:
    arrays = spec["arrays"]
    rounds = arrays[op["rounds"]]
    idx = [i for i, r in enumerate(rounds) if keep(r)]
    out = {}
    for key in ("x", "y", "z", "text", "color"):
        if key in op:
            src = arrays[op[key]]
            out[key] = [src[i] for i in idx]
    return out


def apply_op(spec: dict, op: dict, p: int) -> dict[str, list]:
    """The trace data (x, y and, when given, z, text, color) op ``op`` sets at position ``p``."""
    arrays = spec["arrays"]
    k = state_index(spec, p)
    cur = p - 1
    name = op["op"]
    if name == "rows_before":
        return _rows(spec, op, lambda r: r < cur)
    if name == "rows_from":
        return _rows(spec, op, lambda r: r > cur)
    if name == "row_current":
        return _rows(spec, op, lambda r: r == cur)
    if name == "rows_all":
        return _rows(spec, op, lambda r: True)
    out: dict[str, list] = {}
    keys = [key for key in ("x", "y", "z", "text", "color") if key in op]
    if name == "state":
        for key in keys:
            v = arrays[op[key]][k]
            out[key] = [] if v is None else list(v)
        return out
    if name == "state_window":
        back = op.get("back", 1)
        for key in keys:
            parts = []
            for j in range(max(0, k - back), k):
                v = arrays[op[key]][j]
                if v is None:
                    continue
                if parts:
                    parts.append(None)
                parts.extend(v)
            out[key] = parts
        return out
    if name == "on_mistake":  # shown when the state changed at the end of round p (p is a break)
        changed = k >= 1 and spec["breaks"][k - 1] == p
        for key in keys:
            v = arrays[op[key]][k - 1] if changed else None
            out[key] = [] if v is None else list(v)
        return out
    if name == "point_state":
        for key in keys:
            out[key] = [arrays[op[key]][k]]
        return out
    if name == "point_position":
        for key in keys:
            out[key] = [arrays[op[key]][p]]
        return out
    if name == "vline_position":
        return {"x": [p, p], "y": list(op["y"])}
    raise ValueError(f"unknown op {name!r}")


def figures_at(spec: dict, p: int) -> list[dict]:
    """Every figure of the spec with its dynamic traces filled in for position ``p``."""
    out = []
    for f in spec["figures"]:
        fig = copy.deepcopy(f["figure"])
        for op in f.get("dynamic", []):
            tr = fig["data"][op["trace"]]
            for key, val in apply_op(spec, op, p).items():
                if key == "color":
                    tr.setdefault("marker", {})["color"] = val
                else:
                    tr[key] = val
        fig.setdefault("layout", {})
        if f.get("title"):
            fig["layout"]["title"] = {"text": f["title"]}
        out.append(fig)
    return out


def _value(spec: dict, src: dict, p: int) -> Any:
    if "const" in src:
        v = src["const"]
    else:
        by = src["by"]
        if by == "state":
            v = src["data"][state_index(spec, p)]
        elif by == "position":
            v = src["data"][p]
        else:
            if p == 0:
                return BLANK
            v = src["data"][p - 1]
    if v is not None and "labels" in src:
        v = src["labels"][int(v)]
    return v


#: the minus sign a number is printed with in text (U+2212), as the viewer prints it (viewer_format.js formatValue)
MINUS = "\u2212"


def minus_sign(s: str) -> str:
    """A formatted number as text reads it: its leading hyphen-minus as the minus sign (U+2212), the one rule the
    viewer's ``formatValue`` follows (a ledger line's LaTeX keeps ``-``: KaTeX draws it as a minus).

    >>> minus_sign("-1"), minus_sign("+0.25"), minus_sign("1e-05")
    ('−1', '+0.25', '1e-05')
    """
    return MINUS + s[1:] if s.startswith("-") else s


def _fmt(v: Any, fmt: str | None, latex: bool = False) -> str:
    if v is BLANK:  # a "by round" value before any round: as the viewer prints it
        return r"\text{n/a}" if latex else ""
    if v is None:
        return "—"
    if v in ("inf", "-inf"):  # ±∞ tokens of a value source
        return ({"inf": r"\infty", "-inf": r"-\infty"} if latex else {"inf": "∞", "-inf": "−∞"})[v]
    if fmt == "rel":  # a relation (olc_ui.viewer.spec.REL_LATEX): its LaTeX in a ledger line, its sign in text
        return str(v) if latex else REL_LATEX.get(str(v), str(v))
    if fmt == "text" or isinstance(v, str):
        return str(v)
    if fmt is None:
        out = str(v)
    else:
        try:
            out = format(v, fmt) if fmt != "d" else str(int(v))
        except (ValueError, TypeError):
            return str(v)
    return out if latex else minus_sign(out)


def _fill(spec: dict, template: str, values: dict, p: int, latex: bool = False) -> str:
    builtins = {"t": str(p), "T": str(spec["T"]), "k": str(state_index(spec, p))}
    out = template
    for name, src in values.items():
        out = out.replace("{" + name + "}", _fmt(_value(spec, src, p), src.get("fmt"), latex))
    for name, v in builtins.items():
        out = out.replace("{" + name + "}", v)
    return out


def ledger_at(spec: dict, p: int) -> list[dict[str, Any]]:
    """Each ledger line at ``p``: the LaTeX with the numbers substituted, and holds (True/False/None)."""
    rows = []
    for line in (spec.get("ledger") or {}).get("lines", []):
        h = line.get("holds")
        holds = None if h is None else _value(spec, h, p)
        holds = None if holds is BLANK else holds
        row = {"latex": _fill(spec, line["latex"], line.get("values", {}), p, latex=True),
               "holds": None if holds is None else bool(holds), "reason": line.get("reason", "")}
        if line.get("na"):
            row["na"] = True  # not applicable: the step needs an assumption that fails on these data
        rows.append(row)
    return rows


def caption_at(spec: dict, p: int) -> str:
    cap = spec.get("caption")
    if not cap:
        return ""
    if p == 0 and cap.get("start"):
        return _fill(spec, cap["start"], {}, p)
    return _fill(spec, cap["template"], cap.get("values", {}), p)


def describe_values(spec: dict, desc: dict) -> dict:
    """A chart description's value sources with their references resolved, as viewer_a11y.js resolves them: an
    ``array`` of the spec, or a ``caption`` value (the same numbers the caption prints, sent once)."""
    out = {}
    for name, src in desc.get("values", {}).items():
        if "caption" in src:
            src = {**spec["caption"]["values"][src["caption"]], **{k: v for k, v in src.items() if k != "caption"}}
        if "array" in src:
            src = {**{k: v for k, v in src.items() if k != "array"}, "data": spec["arrays"][src["array"]]}
        out[name] = src
    return out


def description_at(spec: dict, fig: dict, p: int) -> str:
    """A figure's description at position ``p`` as the browser writes it (its ``start`` text at p = 0)."""
    d = fig["describe"]
    tpl = d["start"] if p == 0 and d.get("start") else d["template"]
    return _fill(spec, tpl, describe_values(spec, d), p)
