"""Each chart's text alternative (WCAG 1.1.1, issue 23 §3): a short name and a description that follows
the round, and the numbers of its "Data at this round" table — the figure's ``describe`` entry of the
viewer spec (docs/viewer-spec.md, "Chart descriptions").

:func:`describe_figures` gives every figure of a spec that has none a description read off the figure
itself, so a new chart gets one too: the values its markers show at the current state or position (its
``point_state`` / ``point_position`` traces, labelled by their legend names, with the x of the first as
the x axis' title), the current example of its ``row_current`` traces (by round, labelled by the axis
titles), the crossing of a sandwich (its legend entry), and for a chart that does not move with the round
the lowest point of each named curve. Python decides every value (arrays of the spec, or per-round arrays
built here); the browser only selects the current entry and formats it (viewer_a11y.js).

>>> from olc_ui.viewer.spec import minimal_spec, validate_spec
>>> spec = describe_figures(minimal_spec(T=3, mistakes=[1]))
>>> d = spec["figures"][0]["describe"]
>>> d["name"], d["template"]
('Rounds', 'Rounds at round {t} of {T}: current example: x {cur_x}, y {cur_y}.')
>>> validate_spec(spec) is None
True
"""
from __future__ import annotations

import math
import re
from typing import Any

__all__ = ["describe_figures", "describe", "plain", "LOG10_LABEL"]

LOG10_LABEL = "log₁₀ of "
_TAG = re.compile(r"<[^>]+>")
_SUP = re.compile(r"<sup>(.*?)</sup>")
_MAX_VALUES = 8      # values in one description (a screen reader reads them all)
_MAX_STATIC = 4      # curves summarised on a chart that does not move with the round


def plain(text: str) -> str:
    """A legend name or title as plain text: ``β<sup>m</sup>`` → ``β^(m)``, other tags dropped.

    >>> plain("N((1+β)/2)<sup>M</sup><br>bound")
    'N((1+β)/2)^(M) bound'
    """
    s = _SUP.sub(lambda m: f"^({m.group(1)})", str(text))
    s = s.replace("<br>", " ")
    return re.sub(r"\s+", " ", _TAG.sub("", s)).strip()


def describe(name: str, template: str, values: dict[str, dict], table: list[list[str]] | None = None,
             start: str | None = None) -> dict:
    """A figure's ``describe`` entry: ``template`` is filled like the caption's ({t}, {T}, {k} and the
    ``values``' names); ``table`` lists the "Data at this round" rows as [label, value name]."""
    out: dict[str, Any] = {"name": name, "template": template, "values": values,
                           "table": table if table is not None else [[n, n] for n in values]}
    if start:
        out["start"] = start
    return out


def _axis_title(layout: dict, key: str, fallback: str) -> str:
    ax = layout.get(key) or {}
    t = ax.get("title")
    text = t.get("text") if isinstance(t, dict) else t
    return plain(text) if text else fallback


def _axis_keys(trace: dict) -> tuple[str, str]:
    xa, ya = trace.get("xaxis", "x"), trace.get("yaxis", "y")
    return "xaxis" + xa[1:], "yaxis" + ya[1:]


def _numeric(a: list) -> bool:
    return all(v is None or v in ("inf", "-inf") or (isinstance(v, (int, float)) and not isinstance(v, bool))
               for v in a)


def _label(name: str) -> str:
    return re.sub(r"\s+now$", "", plain(name)).strip() or "value"


def _point_values(fig: dict, arrays: dict, log10: bool, vals: dict, rows: list, T: int) -> None:
    data, layout = fig["figure"]["data"], fig["figure"].get("layout", {})
    seen: set[str] = set()
    # the x of the markers is worth saying on a numeric axis (M, t), not on bars or relabelled ticks
    x_done = any(t.get("type") == "bar" for t in data)
    for op in fig.get("dynamic", []):
        if op["op"] not in ("point_state", "point_position"):
            continue
        t = data[op["trace"]]
        label = _label(t.get("name", ""))
        ya = arrays.get(op["y"])
        if label in seen or not isinstance(ya, list) or not _numeric(ya) or len(vals) >= _MAX_VALUES \
                or len(set(ya)) <= 1:   # a constant: a marker's place (▼ the current round), not a value
            continue
        seen.add(label)
        by = "state" if op["op"] == "point_state" else "position"
        xk, yk = _axis_keys(t)
        if not x_done and _numeric(arrays.get(op["x"], [""])) and "tickvals" not in layout.get(xk, {}):
            x_done = True
            name = f"v{len(vals)}"
            vals[name] = {"by": by, "array": op["x"], "fmt": ".4g"}
            rows.append([_axis_title(layout, xk, "x"), name])
        name = f"v{len(vals)}"
        vals[name] = {"by": by, "array": op["y"], "fmt": ".4g"}
        rows.append([(LOG10_LABEL if log10 else "") + label, name])


def _current_row(fig: dict, arrays: dict, fid: str, vals: dict, rows: list, T: int) -> str | None:
    """The current example's coordinates (the rows of its row_current traces), one entry per round."""
    data, layout = fig["figure"]["data"], fig["figure"].get("layout", {})
    ops = [op for op in fig.get("dynamic", []) if op["op"] == "row_current"
           and _numeric(arrays[op["x"]]) and _numeric(arrays[op["y"]])]
    if not ops or T == 0:
        return None
    keys = ["x", "y"] + (["z"] if all("z" in op and _numeric(arrays[op["z"]]) for op in ops) else [])
    cur: dict[str, list] = {k: [None] * T for k in keys}
    for op in ops:
        for i, r in enumerate(arrays[op["rounds"]]):
            if 0 <= r < T and cur["x"][r] is None:
                for k in keys:
                    cur[k][r] = arrays[op[k]][i]
    t0 = data[ops[0]["trace"]]
    xk, yk = _axis_keys(t0)
    scene = layout.get("scene") or {}
    titles = {"x": _axis_title(scene or layout, "xaxis" if scene else xk, "x"),
              "y": _axis_title(scene or layout, "yaxis" if scene else yk, "y"),
              "z": _axis_title(scene, "zaxis", "z")}
    for k in keys:
        arrays[f"{fid}_cur_{k}"] = cur[k]
        vals[f"cur_{k}"] = {"by": "round", "array": f"{fid}_cur_{k}", "fmt": ".3g"}
        rows.append([f"current example, {titles[k]}", f"cur_{k}"])
    return "current example: " + ", ".join(f"{titles[k]} {{cur_{k}}}" for k in keys)


def _bars(fig: dict, arrays: dict, fid: str, log10: bool, vals: dict, rows: list, label: str | None) -> str | None:
    """A bar chart drawn per state (weights): its largest and smallest bar (top = base + height), as text
    per state; ``label`` names what the bar tops are when the trace's name does not say it."""
    data = fig["figure"]["data"]
    for op in fig.get("dynamic", []):
        t = data[op["trace"]]
        if op["op"] != "state" or t.get("type") != "bar":
            continue
        texts = []
        b = t.get("base", 0) if isinstance(t.get("base", 0), (int, float)) else 0
        ax = fig["figure"].get("layout", {}).get(_axis_keys(t)[0], {})
        names = dict(zip(ax.get("tickvals", []), ax.get("ticktext", [])))
        for xs, ys in zip(arrays[op["x"]], arrays[op["y"]]):
            pts = [(y + b, x) for x, y in zip(xs or [], ys or []) if isinstance(y, (int, float))]
            if not pts:
                texts.append("—")
                continue
            (lo, xlo), (hi, xhi) = min(pts), max(pts)
            xlo, xhi = names.get(xlo, xlo), names.get(xhi, xhi)
            f = (lambda v: f"{10 ** v:.4g}") if log10 else (lambda v: f"{v:.4g}")
            texts.append(f"largest {f(hi)} ({plain(str(xhi))}), smallest {f(lo)} ({plain(str(xlo))}), "
                         f"{len(pts)} bars")
        labels = sorted(set(texts))
        index = {s: i for i, s in enumerate(labels)}
        vals["bars"] = {"by": "state", "data": [index[s] for s in texts], "labels": labels, "fmt": "text"}
        name = label or plain(t.get("name") or "bars")
        rows.append([name, "bars"])
        return f"{name}: {{bars}}"
    return None


def _lowest(fig: dict) -> list[str]:
    """For a chart that does not move with the round: each named curve's lowest point, as text."""
    data, layout = fig["figure"]["data"], fig["figure"].get("layout", {})
    out = []
    for t in data:
        xs, ys = t.get("x"), t.get("y")
        if not t.get("name") or not isinstance(xs, list) or not isinstance(ys, list) or len(xs) != len(ys) or len(ys) < 3:
            continue
        pts = [(y, x) for x, y in zip(xs, ys) if isinstance(x, (int, float)) and isinstance(y, (int, float))
               and math.isfinite(x) and math.isfinite(y)]
        if not pts:
            continue
        y, x = min(pts)
        xk, _ = _axis_keys(t)
        out.append(f"{plain(t['name'])}: lowest {y:.4g} at {_axis_title(layout, xk, 'x')} = {x:.4g}")
        if len(out) >= _MAX_STATIC:
            break
    return out


def _auto(fig: dict, spec: dict, log10: bool, bar_label: str | None) -> dict:
    arrays, T, fid = spec["arrays"], spec["T"], fig["id"]
    name = plain(fig.get("title") or fid)
    vals: dict[str, dict] = {}
    rows: list[list[str]] = []
    bars = _bars(fig, arrays, fid, log10, vals, rows, bar_label)
    _point_values(fig, arrays, log10, vals, rows, T)
    parts = ([bars] if bars else []) + [f"{label} {{{v}}}" for label, v in rows if v != "bars"]
    current = _current_row(fig, arrays, fid, vals, rows, T)
    if current:
        parts.append(current)
    for t in fig["figure"]["data"]:
        if t.get("meta") == "crossing" and t.get("name"):
            parts.append(plain(t["name"]))
    if not fig.get("dynamic"):
        parts += _lowest(fig)
        if not parts:
            parts.append("this chart does not change with the round")
    body = "; ".join(parts) if parts else "see the caption for this round"
    # round 0 has no current example: say so rather than read out empty coordinates
    start = "; ".join("no example seen yet" if p == current else p for p in parts) if current else None
    return describe(name, f"{name} at round {{t}} of {{T}}: {body}.", vals, rows,
                    start=f"{name} at round {{t}} of {{T}}: {start}." if start else None)


def describe_figures(spec: dict, log10: tuple[str, ...] = (), bar_labels: dict[str, str] | None = None) -> dict:
    """``spec`` (JSON-ready) with a ``describe`` entry on every figure that has none (module docstring);
    ``log10``: ids of figures whose marker values are log₁₀ of what the axis labels (said so in the text);
    ``bar_labels``: per figure id, what its bars' tops are (e.g. exponents)."""
    for fig in spec.get("figures", []):
        if "describe" not in fig:
            fig["describe"] = _auto(fig, spec, fig["id"] in log10, (bar_labels or {}).get(fig["id"]))
    return spec
