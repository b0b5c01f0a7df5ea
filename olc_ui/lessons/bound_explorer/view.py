"""The Bound explorer's pure builders: the swept values, the two figures and the summary rows.

Everything here reads an :class:`olc_core.SweepTable` (or its ``summary()``) and returns
plain data — lists, dicts, Plotly figure dicts — so it is tested as data, without
Streamlit. No maths of the theorems: every number comes from the table.

>>> sweep_values(1, 100, 3, "log", True)
([1, 10, 100], None)
>>> sweep_values(0.0, 1.0, 3, "log", False)[1]
'a logarithmic spacing needs From > 0 (choose even spacing, or a From above 0)'
"""
from __future__ import annotations

import math
from typing import Any

import numpy as np

from olc_core._exact.perceptron_bound import exceeds, median

__all__ = ["ALG_NAMES", "MEASURED", "sweep_values", "mistakes_figure", "ratio_figure", "summary_rows", "describe_sweep",
           "na_values", "theorems", "proof_per_value", "vacuous", "tightest", "fmt"]

ALG_NAMES = {
    "perceptron": "Perceptron", "margin_perceptron": "Margin Perceptron", "winnow": "Winnow",
    "normalized_winnow": "Exponentiated update (normalised Winnow)", "weighted_majority": "Weighted Majority",
    "randomized_weighted_majority": "Randomised Weighted Majority", "halving": "Halving",
    "conjunction": "Conjunctions (elimination)", "decision_list": "Decision lists",
}
#: what the ``mistakes`` column holds, per learner (the quantity its theorem bounds)
MEASURED = {"margin_perceptron": "updates U", "randomized_weighted_majority": "expected mistakes E[M]"}

BAND = "rgba(31, 119, 180, 0.18)"
BLUE = "#1f77b4"
RED = "#d62728"


def fmt(x: float) -> str:
    """A number as the page shows it (4 significant digits; n/a for NaN)."""
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "n/a"
    if float(x) == int(x) and abs(x) < 1e9:
        return str(int(x))
    return f"{x:.4g}"


def sweep_values(lo: float, hi: float, points: int, scale: str, integer: bool) -> tuple[list, str | None]:
    """``points`` values from ``lo`` to ``hi`` (either order), evenly spaced on a linear or log scale;
    integers rounded and repeated ones dropped. Returns (values, problem or None)."""
    a, b = sorted((float(lo), float(hi)))
    if scale == "log":
        if a <= 0:
            return [], "a logarithmic spacing needs From > 0 (choose even spacing, or a From above 0)"
        v = np.geomspace(a, b, int(points))
    else:
        v = np.linspace(a, b, int(points))
    if integer:
        out = list(dict.fromkeys(int(round(x)) for x in v))
    else:
        out = list(dict.fromkeys(float(f"{x:.6g}") for x in v))
    return out, None


def _clean(a) -> list:
    return [None if (x is None or not math.isfinite(float(x))) else float(x) for x in a]


def _band(x: list, lo, hi, name: str, color: str) -> dict:
    return {"type": "scatter", "x": x + x[::-1], "y": _clean(hi) + _clean(lo)[::-1], "fill": "toself",
            "fillcolor": color, "line": {"width": 0}, "name": name, "hoverinfo": "skip", "mode": "lines"}


def _xaxis(x: list, xlabel: str, log_x: bool) -> dict:
    """Ticks at the swept values themselves when there are few (a log axis would label 2, 5, 10, 2, 5 …)."""
    ax = {"title": {"text": xlabel}, "type": "log" if log_x else "linear"}
    if log_x and x:
        if len(x) <= 10:
            ax.update({"tickvals": x, "ticktext": [fmt(v) for v in x]})
        else:
            ax["dtick"] = 1
    return ax


def _layout(title: str, xlabel: str, ylabel: str, log_x: bool, log_y: bool, x: list) -> dict:
    yaxis = {"title": {"text": ylabel}, "type": "log" if log_y else "linear"}
    yaxis.update({"dtick": 1} if log_y else {"rangemode": "tozero"})   # log: decades only (1, 10, 100, …)
    xaxis = _xaxis(x, xlabel, log_x)
    for ax in (xaxis, yaxis):  # explicit: Streamlit's chart theme would draw ticks and titles at ~10-12 px
        ax["tickfont"] = {"size": FONT_PX}
        ax["title"]["font"] = {"size": FONT_PX}
    return {"title": {"text": title, "font": {"size": FONT_PX + 2}, "x": 0, "xanchor": "left"}, "height": 470,
            "margin": {"l": 64, "r": 20, "t": 40, "b": 10},
            "legend": {"orientation": "h", "y": -0.2, "yanchor": "top", "x": 0, "font": {"size": FONT_PX}},
            "xaxis": xaxis, "yaxis": yaxis, "font": {"size": FONT_PX}, "hoverlabel": {"font": {"size": FONT_PX}}}


#: The smallest chart text: 16 px, readable from the back of a room (presentation mode's minimum), always.
FONT_PX = 16


#: one colour and dash per theorem when a sweep crosses from one theorem to another (noise > 0, say)
_THEOREM_STYLES = ((RED, "dash"), ("#9467bd", "dot"), ("#ff7f0e", "dashdot"), ("#2ca02c", "longdash"))


def _split(y, proofs: list[str] | None) -> list[tuple[str | None, list]]:
    """(theorem, y with None where another theorem's bound is shown) per theorem, in sweep order; one series
    (theorem None) when one theorem covers every value — points of different theorems are never joined."""
    y = _clean(y)
    names = list(dict.fromkeys(proofs or []))
    if len(names) <= 1:
        return [(None, y)]
    return [(n, [b if p == n else None for b, p in zip(y, proofs)]) for n in names]


def short(theorem: str) -> str:
    """A proof's name for a legend: without the learner's name before the first comma, TD_γ as TDᵧ."""
    return theorem.split(", ", 1)[-1].replace("_γ", "ᵧ")


def _bound_series(x: list, y, proofs: list[str] | None) -> list[dict]:
    out = []
    for i, (name, ys) in enumerate(_split(y, proofs)):
        color, dash = _THEOREM_STYLES[i % len(_THEOREM_STYLES)]
        out.append({"type": "scatter", "mode": "lines+markers", "x": x, "y": ys,
                    "name": "the theorem's bound" if name is None else f"bound: {short(name)}",
                    "line": {"color": color, "width": 3, "dash": dash}, "marker": {"symbol": "diamond"},
                    "connectgaps": False})
    return out


def _bands(x: list, lo, hi, proofs: list[str] | None, name: str, color: str) -> list[dict]:
    """A min–max band over seeds: one per theorem, over that theorem's values only (one legend entry)."""
    groups = [list(range(len(x)))] if len(set(proofs or [])) <= 1 else \
        [[i for i, p in enumerate(proofs) if p == n] for n in dict.fromkeys(proofs)]
    return [{**_band([x[i] for i in idx], np.asarray(lo)[idx], np.asarray(hi)[idx], name, color),
             "legendgroup": name, "showlegend": k == 0} for k, idx in enumerate(groups)]


def mistakes_figure(summary: dict, xlabel: str, measured: str, log_x: bool, proofs: list[str] | None = None) -> dict:
    """Measured (median, min–max band over seeds) against the theorem's bound, per swept value.

    ``proofs``: the theorem whose bound is shown at each value (:func:`proof_per_value`); several theorems
    give one named series each. The y axis is logarithmic when the numbers span more than two decades."""
    x = [float(v) for v in summary["value"]]
    pos = np.concatenate([summary["mistakes_min"], summary["bound_median"]])
    pos = pos[np.isfinite(pos)]
    log_y = bool(pos.size and pos.min() > 0 and pos.max() / pos.min() > 100)
    data = [_band(x, summary["mistakes_min"], summary["mistakes_max"], "measured: min–max over seeds", BAND),
            {"type": "scatter", "mode": "lines+markers", "x": x, "y": _clean(summary["mistakes_median"]),
             "name": f"measured {measured} (median)", "line": {"color": BLUE, "width": 3}},
            *_bound_series(x, summary["bound_median"], proofs)]
    if not np.allclose(np.nan_to_num(summary["bound_max"]), np.nan_to_num(summary["bound_min"]), rtol=1e-9, atol=0):
        data[2:2] = _bands(x, summary["bound_min"], summary["bound_max"], proofs, "bound: min–max over seeds",
                           "rgba(214, 39, 40, 0.12)")
    return {"data": data, "layout": _layout(f"Measured {measured} and the bound", xlabel, measured, log_x, log_y, x)}


def ratio_figure(summary: dict, xlabel: str, log_x: bool, proofs: list[str] | None = None) -> dict:
    """The tightness ratio measured/bound (median and min–max over seeds); 1 is the bound attained.
    Against several theorems (``proofs``), one median series per theorem, never joined across them."""
    x = [float(v) for v in summary["value"]]
    top = np.nanmax(np.r_[summary["ratio_max"], 1.0]) if np.isfinite(summary["ratio_max"]).any() else 1.0
    ratios = [{"type": "scatter", "mode": "lines+markers", "x": x, "y": ys,
               "name": "measured / bound (median)" if name is None else f"median: {short(name)}",
               "line": {"color": BLUE, "width": 3, "dash": ("solid", "dot", "dashdot", "longdash")[i % 4]},
               "connectgaps": False}
              for i, (name, ys) in enumerate(_split(summary["ratio_median"], proofs))]
    data = [*_bands(x, summary["ratio_min"], summary["ratio_max"], proofs, "min–max over seeds", BAND), *ratios,
            {"type": "scatter", "mode": "lines", "x": [min(x), max(x)] if x else [], "y": [1.0, 1.0],
             "name": "ratio 1: the bound attained", "line": {"color": RED, "width": 2, "dash": "dot"}}]
    lay = _layout("Tightness: measured / bound", xlabel, "measured / bound", log_x, False, x)
    lay["yaxis"]["range"] = [0, float(top) * 1.08]
    return {"data": data, "layout": lay}


def summary_rows(summary: dict, param: str) -> list[dict[str, Any]]:
    """One row per swept value: the median and range of the measured numbers, the bound, the ratio."""
    rows = []
    for i, v in enumerate(summary["value"]):
        lo, hi = summary["mistakes_min"][i], summary["mistakes_max"][i]
        rows.append({param: fmt(v), "measured: median": fmt(summary["mistakes_median"][i]),
                     "min – max": f"{fmt(lo)} – {fmt(hi)}",
                     "bound: median": fmt(summary["bound_median"][i]),
                     "ratio: median": fmt(summary["ratio_median"][i]),
                     "max": fmt(summary["ratio_max"][i]),
                     "assumptions": "✓ hold" if summary["holds"][i] else "✗ fail: n/a"})
    return rows


def na_values(table) -> list[tuple[float, str]]:
    """(value, the reason in words) for each value where some seed's assumptions failed (first reason)."""
    out: dict[float, str] = {}
    for v, ok, why in zip(table["value"], table["holds"], table["why"]):
        if not ok and float(v) not in out:
            out[float(v)] = str(why)
    return list(out.items())


def theorems(table) -> list[tuple[str, list[float]]]:
    """(the proof's name, the values where its bound is the one shown), in sweep order."""
    out: dict[str, list[float]] = {}
    for v, name in zip(table["value"], table["proof"]):
        vals = out.setdefault(str(name), [])
        if float(v) not in vals:
            vals.append(float(v))
    return list(out.items())


def proof_per_value(table) -> list[str]:
    """The theorem whose bound is shown at each swept value (in sweep order; its first seed's)."""
    out: dict[float, str] = {}
    for v, name in zip(table["value"], table["proof"]):
        out.setdefault(float(v), str(name))
    return list(out.values())


def vacuous(table) -> list[tuple[float, float, int]]:
    """(value, the bound's median, T) where the bound's median exceeds the rounds T: M ≤ T holds anyway, so
    the bound says nothing there. Decided on the exact bounds (the table's ``bound_exact``, when it has them):
    the Perceptron's R²/γ² = T = d on the bound-attaining stream is not "above T" by a float's rounding."""
    out = []
    exact = table.columns.get("bound_exact") if hasattr(table, "columns") else None
    for v in dict.fromkeys(table["value"].tolist()):
        rows = table["value"] == v
        T = int(np.min(table["T"][rows]))
        b = table["bound"][rows]
        b = b[np.isfinite(b)]
        if exact is not None:
            m = median(x for x in exact[rows] if x is not None)
        else:
            m = median(b.tolist()) if b.size else None
        if m is not None and exceeds(m, T):
            out.append((float(v), float(m), T))
    return out


def tightest(summary: dict) -> tuple[float, float] | None:
    """(the largest ratio over every seed, the value where it is reached), or None when no bound applies."""
    r = np.asarray(summary["ratio_max"], dtype=float)
    if not np.isfinite(r).any():
        return None
    i = int(np.nanargmax(r))
    return float(r[i]), float(summary["value"][i])


#: swept values a chart's description reads out one by one (beyond: the first ones and the last)
LISTED = 12


def describe_sweep(summary: dict, symbol: str, measured: str) -> tuple[str, str]:
    """The two charts' text alternatives: (measured against the bound, the tightness ratio), each swept value
    with the numbers its chart plots (the summary's medians and ranges over seeds), as the table prints them."""
    vals = list(summary["value"])
    idx = list(range(len(vals))) if len(vals) <= LISTED else list(range(LISTED - 1)) + [len(vals) - 1]
    cut = "" if len(vals) <= LISTED else f" (the first {LISTED - 1} and the last of {len(vals)} values)"
    m_parts, r_parts = [], []
    for i in idx:
        at = f"{symbol} = {fmt(vals[i])}"
        b = summary["bound_median"][i]
        bound = f"the bound {fmt(b)}" if b is not None and math.isfinite(float(b)) else "no bound (an assumption fails)"
        m_parts.append(f"{at}: measured median {fmt(summary['mistakes_median'][i])}, from "
                       f"{fmt(summary['mistakes_min'][i])} to {fmt(summary['mistakes_max'][i])} over the seeds; {bound}")
        r = summary["ratio_median"][i]
        r_parts.append(f"{at}: median {fmt(r)}, largest {fmt(summary['ratio_max'][i])}"
                       if r is not None and math.isfinite(float(r)) else f"{at}: no ratio (no bound)")
    mistakes = (f"Measured {measured} against the theorem's bound, for each swept value{cut}: " + "; ".join(m_parts)
                + ".")
    ratio = ("Tightness, measured / bound (1: the bound attained), for each swept value"
             f"{cut}: " + "; ".join(r_parts) + ".")
    return mistakes, ratio
