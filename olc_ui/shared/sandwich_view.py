"""The sandwich chart: a proof's chain against the mistake count M, closing on screen.

The rule every lesson follows (the Weighted Majority page set it): the proven bounds are drawn as
functions of M out to where they cross (the largest M the proof allows), the run's own series are
revealed as the student steps (``rows_before``), markers and a thin vertical line sit at the current
M, the region beyond the crossing is shaded, and the crossing is a point of the figure's data (a
trace with ``meta: "crossing"``). When the crossing lies far beyond the run the M axis is
logarithmic (and the value axis too when every drawn value is positive), so the run and the
crossing are both on screen. No label sits inside the plot: the crossing and the shading are named
in the legend, notes go under the axis.

The numbers come from the proof: its series (the run), its constants (the bound curves are the
proof's own formulas of M with the proof's constants), its bound and crossing.
"""
from __future__ import annotations

import math
import re
import textwrap
from dataclasses import dataclass
from typing import Callable

import numpy as np

from olc_ui.shared.spec_tools import per_position, sig

__all__ = ["Curve", "sandwich", "far", "FAR", "SHADE", "log_axis_ticks", "log_ticks", "LN10"]

FAR = (25.0, 6.0)             # the crossing is "far" beyond M_run when M > max(25, 6 M_run): log axes
SHADE = "rgba(120,120,120,0.13)"
NOW_SYMBOLS = ("circle", "square", "diamond", "triangle-up", "triangle-down", "pentagon")
#: line styles: the proven bounds dashed, the run's series solid / dotted, each its own within a chart, so a
#: student who cannot tell the colours apart reads them by dash, marker shape and label (WCAG 1.4.1)
BOUND_DASHES = ("dash", "dashdot", "longdash")
RUN_DASHES = ("solid", "dot", "longdashdot")
LABEL_COLOR = "#222222"  # the direct labels: dark text (AA contrast on the white chart), the line beside it coloured
MAX_ROWS = 1500               # revealed trajectory points per series (decimated beyond)


@dataclass(frozen=True)
class Curve:
    """A series of the chain: ``key`` in ``proof.series`` (the run's value, revealed and marked), its
    legend ``name`` and ``color``; ``f`` (a function of M from the proof's constants) when the proof
    bounds it by a formula of M, drawn dashed out to the crossing."""
    key: str | None   # None: a bound curve only (no series of the run behind it)
    name: str
    color: str
    f: Callable[[np.ndarray], np.ndarray] | None = None
    label: str | None = None  # the direct label on the chart (default: ``name`` without tags)


#: Characters per line of a note under the axis (a half-width chart at 1100 px, 16 px text).
NOTE_WIDTH = 56

def far(crossing_x: float, m_run: float) -> bool:
    return crossing_x > max(FAR[0], FAR[1] * max(m_run, 1.0))


def _rows(proof, keys: list[str]) -> np.ndarray:
    """The states drawn in the revealed trajectory: all of them, or (many states) a subset keeping
    each bucket's first, lowest and highest value of every series, and every state where M changes
    while there are few of those."""
    K = proof.K
    if K <= MAX_ROWS:
        return np.arange(K)
    keep = {0, K - 1}
    edges = np.linspace(0, K, MAX_ROWS // (2 * max(1, len(keys))) + 1).astype(int)
    for key in keys:
        v = np.asarray(proof.series[key], dtype=float)
        vv = np.where(np.isfinite(v), v, 0.0)
        for a, b in zip(edges[:-1], edges[1:]):
            if b > a:
                keep.update((int(a), int(a + np.argmin(vv[a:b])), int(a + np.argmax(vv[a:b]))))
    return np.array(sorted(keep))


def _grid(x_lo: float, x_hi: float, log: bool, n: int = 300) -> np.ndarray:
    return np.geomspace(x_lo, x_hi, n) if log else np.linspace(0.0, x_hi, n)


def _y_range(values: list[np.ndarray], log: bool, floor: float | None) -> tuple[float, float]:
    fin = np.concatenate([np.asarray(v, dtype=float).ravel() for v in values])
    fin = fin[np.isfinite(fin)]
    if log:
        fin = fin[fin > 0]
        lo, hi = (float(fin.min()), float(fin.max())) if fin.size else (0.1, 10.0)
        return math.log10(lo) - 0.1, math.log10(hi) + 0.15
    fin = np.concatenate([fin, [0.0]])
    lo, hi = float(fin.min()), float(fin.max())
    pad = 0.06 * (hi - max(lo, floor if floor is not None else lo) or 1.0)
    if floor is not None and lo - pad < floor:
        return floor, hi + pad          # cut exactly at the floor
    return lo - pad, hi + pad


def _line(name, x, y, color, width=2.5, dash="solid", legend=True, hover=None, **kw) -> dict:
    t = {"type": "scatter", "mode": "lines", "name": name, "x": x, "y": y, "showlegend": legend,
         "line": {"color": color, "width": width, "dash": dash}, **kw}
    if hover:
        t["hovertemplate"] = hover
    else:
        t["hoverinfo"] = "skip"
    return t


def sandwich(fig_id: str, title: str, proof, curves: list[Curve], arrays: dict, *,
             crossing: tuple[float, float] | None, crossing_name: str = "", stated: tuple[float, str] | None = None,
             x_title: str = "mistakes M", floor: float | None = None, floor_note: str = "",
             note: str = "", height: int = 340) -> dict:
    """The sandwich figure of ``proof`` (see the module docstring).

    ``crossing``: (M, value) where the outer bounds meet (None: they do not, e.g. an assumption fails;
    then ``note`` says why, under the axis). ``stated``: (M, label) of the theorem's stated bound when it
    is looser than the crossing (drawn as a dotted vertical line). ``floor``: values below it say
    nothing and are cut off (``floor_note`` says so under the axis).
    """
    M = np.asarray(proof.n_mistakes, dtype=float)
    m_run = float(M[-1]) if M.size else 0.0
    x_cross = crossing[0] if crossing is not None and math.isfinite(crossing[0]) else None
    x_end = max(x_cross or 0.0, stated[0] if stated and math.isfinite(stated[0]) else 0.0)
    log_x = x_cross is not None and far(x_cross, m_run)
    x_hi = max(m_run, 1.0, x_end * 1.08) * 1.03
    x_lo = 0.7 if log_x else 0.0
    grid = _grid(x_lo, x_hi, log_x)
    run_keys = [c.key for c in curves if c.f is None and c.key]
    rows = _rows(proof, [c.key for c in curves if c.key])
    shown = M[rows] >= (1 if log_x else 0)
    values = [np.asarray(proof.series[c.key], dtype=float)[rows][shown] for c in curves if c.key]
    # the bounds count up to the crossing only: beyond it they part again and would squash the run
    upto = grid[grid <= x_cross] if x_cross is not None and np.any(grid <= x_cross) else grid
    values += [c.f(upto) for c in curves if c.f is not None]
    if crossing is not None:
        values.append(np.array([crossing[1]]))
    log_y = log_x and floor is None and all(np.all(np.asarray(v)[np.isfinite(v)] > 0) for v in values)
    ylo, yhi = _y_range(values, log_y, floor)
    yl, yh = (10 ** ylo, 10 ** yhi) if log_y else (ylo, yhi)

    data, dyn = [], []
    if x_cross is not None:  # the region no run can reach, under everything
        data.append(_line("beyond the crossing", [x_cross, x_hi, x_hi, x_cross, x_cross], [yl, yl, yh, yh, yl],
                          SHADE, 0, legend=False, fill="toself", fillcolor=SHADE))
    bounds = [c for c in curves if c.f is not None]
    for j, c in enumerate(bounds):
        yb = sig(c.f(grid), 7)
        data.append(_line(c.name, sig(grid, 6), yb, c.color, 2.5, BOUND_DASHES[j % len(BOUND_DASHES)],
                          hover=f"{c.name}<br>M = %{{x:.4g}}: %{{y:.5g}}<extra></extra>"))
    x_lab = _label_x(m_run, x_cross, x_hi, log_x)
    ends = [_label_at(c, x_lab, grid, yl, yh) for c in bounds]
    for c, end in zip(bounds, ends):  # each bound named on the chart, between the run and the crossing
        if end is not None:
            above = sum(e is not None and e[1] > end[1] for e in ends)
            data.append(_end_label(c, *end, top=above == 0 or 2 * above < len(bounds)))
    # on a log axis of M the states before the first mistake (M = 0) have no place: drawn, plotly ran their segment
    # in from the axis's left edge (M ≈ 0.7) at values the run never had (a student's reading)
    _trajectories(fig_id, proof, curves, rows[shown], run_keys, arrays, data, dyn)
    _now(fig_id, proof, curves, arrays, data, dyn, yl, yh)
    if stated is not None and math.isfinite(stated[0]) and stated[0] != x_cross:
        data.append(_line(stated[1], [stated[0], stated[0]], [yl, yh], "#444", 1.5, "dot", legend=False,
                          hover=f"{stated[1]} = {stated[0]:.6g}<extra></extra>"))
    if crossing is not None:
        data.append({"type": "scatter", "mode": "markers", "name": crossing_name, "meta": "crossing",
                     "x": [float(sig(crossing[0], 7))], "y": [float(sig(crossing[1], 7))],
                     "marker": {"symbol": "x-thin", "size": 16, "color": "#000", "line": {"width": 3, "color": "#000"}},
                     "hovertemplate": f"{crossing_name}<extra></extra>"})
    beyond = ("× marks where the bounds cross: no run gets past it (shaded)." if crossing is not None else "")
    notes = [t for t in (beyond, floor_note if floor is not None else "", note) if t]
    layout = _layout(x_title, (x_lo, x_hi), log_x, (ylo, yhi), log_y, notes)
    n_lines = sum(len(textwrap.wrap(t, NOTE_WIDTH, break_long_words=False) or [""]) for t in notes)
    return {"id": fig_id, "title": title, "height": height + (22 * n_lines),
            "figure": {"data": data, "layout": layout}, "config": {"displayModeBar": False}, "dynamic": dyn}


def _short(c: Curve) -> str:
    return c.label or re.sub(r"<[^>]*>", "", c.name)


def _label_x(m_run: float, x_cross: float | None, x_hi: float, log_x: bool) -> float:
    """Where the bounds are named: halfway (on the axis' own scale) from the run's last M to the crossing,
    clear of both the run and the crossing's ×; when that gap is narrow (under a quarter of the axis), halfway
    across the shaded region beyond the crossing instead; with no crossing, 80 % of the way across."""
    if x_cross is None:
        return 0.8 * x_hi
    f = (lambda v: math.log10(max(v, 1e-9))) if log_x else (lambda v: v)
    a = max(m_run, 1.0 if log_x else 0.0)
    span = f(x_hi) - f(0.7 if log_x else 0.0)
    if f(x_cross) - f(a) < 0.25 * span <= f(x_hi) - f(x_cross):
        a, x_cross = x_cross, x_hi
    elif x_cross <= a:
        return 0.8 * x_hi
    return math.sqrt(a * x_cross) if log_x else (a + x_cross) / 2


def _label_at(c: Curve, x: float, grid: np.ndarray, yl: float, yh: float) -> tuple[float, float] | None:
    """A bound curve's point at ``x`` if it is inside the plot, else its point inside nearest to ``x``
    (None: none inside)."""
    v = float(np.asarray(c.f(np.array([x], dtype=float)), dtype=float)[0])
    if math.isfinite(v) and yl <= v <= yh:
        return float(sig(x, 6)), float(sig(v, 7))
    vals = np.asarray(c.f(grid), dtype=float)
    inside = np.flatnonzero(np.isfinite(vals) & (vals >= yl) & (vals <= yh))
    if not inside.size:
        return None
    i = int(inside[np.argmin(np.abs(grid[inside] - x))])
    return float(sig(grid[i], 6)), float(sig(vals[i], 7))


def _end_label(c: Curve, x: float, y: float, top: bool) -> dict:
    """A bound's name written on it, above it (the highest bound) or under it (a text trace: plotly keeps
    it on the curve on any axis)."""
    return {"type": "scatter", "mode": "text", "name": c.name + " (label)", "meta": "label", "showlegend": False,
            "x": [x], "y": [y], "text": [_short(c)], "hoverinfo": "skip",
            "textposition": "top center" if top else "bottom center", "textfont": {"size": 13, "color": LABEL_COLOR}}


def _trajectories(fig_id, proof, curves, rows, run_keys, arrays, data, dyn) -> None:
    """The run's own series, revealed as the student steps: the row of state k (in force from position
    s_k on) has round s_k − 2, so ``rows_before`` shows it exactly from position s_k (the first two
    positions show their state's marker only)."""
    if not run_keys:
        return
    s = np.asarray(proof.state_rounds, dtype=np.int64)[rows]
    arrays[f"{fig_id}_tr_r"] = np.clip(s - 2, 0, max(proof.T - 1, 0))
    arrays[f"{fig_id}_tr_M"] = np.asarray(proof.n_mistakes)[rows]
    for j, c in enumerate(c for c in curves if c.f is None and c.key):
        arrays[f"{fig_id}_tr_{c.key}"] = sig(np.asarray(proof.series[c.key], dtype=float)[rows], 7)
        data.append(_line(c.name, [None], [None], c.color, 2.5, RUN_DASHES[j % len(RUN_DASHES)],
                          hover=f"{c.name}<br>M = %{{x}}: %{{y:.6g}}<extra></extra>"))
        dyn.append({"trace": len(data) - 1, "op": "rows_before", "rounds": f"{fig_id}_tr_r",
                    "x": f"{fig_id}_tr_M", "y": f"{fig_id}_tr_{c.key}"})


def _now(fig_id, proof, curves, arrays, data, dyn, yl, yh) -> None:
    """Markers at the current state on every series, and a thin line at the current M."""
    op = "point_position" if per_position(proof) else "point_state"
    arrays[f"{fig_id}_M"] = np.asarray(proof.n_mistakes).tolist()
    m_max = int(np.max(proof.n_mistakes)) if len(proof.n_mistakes) else 0
    arrays[f"{fig_id}_now_x"] = [[m, m] for m in range(m_max + 1)]
    arrays[f"{fig_id}_now_y"] = [[sig(yl, 7).item(), sig(yh, 7).item()]] * (m_max + 1)
    data.append(_line("M now", [], [], "#9a9a9a", 1, legend=False))
    dyn.append({"trace": len(data) - 1, "op": "state", "x": f"{fig_id}_now_x", "y": f"{fig_id}_now_y"})
    runs = [c for c in curves if c.key and c.f is None]
    for j, c in enumerate(c for c in curves if c.key):
        arrays[f"{fig_id}_{c.key}"] = sig(np.asarray(proof.series[c.key], dtype=float), 7)
        # each series' marker has its own shape too, and the run's series their name beside it (a bound is
        # named on its curve): no meaning by colour alone (WCAG 1.4.1)
        t = {"type": "scatter", "mode": "markers", "name": c.name + " now", "showlegend": False,
             "x": [], "y": [], "marker": {"color": c.color, "size": 12, "symbol": NOW_SYMBOLS[j % len(NOW_SYMBOLS)],
                                          "line": {"color": "#fff", "width": 2}},
             "hovertemplate": f"{c.name} now: %{{y:.6g}}<extra></extra>"}
        if any(c is r for r in runs):
            k = next(i for i, r in enumerate(runs) if r is c)
            t.update(mode="markers+text", text=[_short(c)], textfont={"size": 13, "color": LABEL_COLOR},
                     cliponaxis=False,
                     textposition="middle right" if k < len(runs) / 2 and len(runs) > 1 else "top left")
        data.append(t)
        dyn.append({"trace": len(data) - 1, "op": op, "x": f"{fig_id}_M", "y": f"{fig_id}_{c.key}"})


def _tick_text(v: float) -> str:
    """A tick value written in full: 0.2, 0.05, 5, 2000 (never "2" for 0.2)."""
    return f"{v:.12g}" if 1e-4 <= v < 1e6 else f"{v:.0e}".replace("e-0", "e-").replace("e+0", "e")


def log_axis_ticks(rng: list[float], max_decades: int = 6) -> dict:
    """Ticks of a plotly log axis whose range is ``rng`` (log₁₀ units): over a short range (≤ 2.2
    decades) explicit values 1, 2, 5 per decade labelled in full (plotly's "D2" labels 0.2 as "2");
    over more, one tick every k decades so that at most ``max_decades`` + 1 show.

    >>> log_axis_ticks([-1.05, 0.05])["ticktext"]
    ['0.1', '0.2', '0.5', '1']
    >>> log_axis_ticks([-10.5, 0.2])
    {'dtick': 2}
    """
    lo, hi = sorted(rng)
    if hi - lo <= 2.2:
        vals = [m * 10.0 ** e for e in range(math.floor(lo) - 1, math.ceil(hi) + 1) for m in (1, 2, 5)]
        vals = [float(f"{v:.12g}") for v in vals if lo - 1e-9 <= math.log10(v) <= hi + 1e-9]
        if len(vals) >= 2:
            return {"tickmode": "array", "tickvals": vals, "ticktext": [_tick_text(v) for v in vals]}
    return {"dtick": max(1, math.ceil((hi - lo) / max_decades))}


def _layout(x_title, x_range, log_x, y_range, log_y, notes: list[str]) -> dict:
    def rng(lo, hi, log):
        return [round(math.log10(lo), 5), round(math.log10(hi), 5)] if log else [round(lo - 0.02 * hi, 5), round(hi, 5)]
    xa = {"title": {"text": x_title + (" (log scale)" if log_x else "")}, "range": rng(*x_range, log_x),
          "gridcolor": "#efefef", "tickfont": {"size": 13}, "fixedrange": True}
    if log_x:
        xa.update(type="log", **log_axis_ticks(xa["range"]))
    elif x_range[1] <= 12:
        xa["dtick"] = 1
    ya = {"range": [round(y_range[0], 5), round(y_range[1], 5)], "gridcolor": "#efefef", "tickfont": {"size": 13},
          "fixedrange": True}
    if log_y:
        ya.update(type="log", **log_axis_ticks(ya["range"]))
    # notes under the axis, each wrapped to the width of a half-page chart (plotly does not wrap text)
    wrapped = [textwrap.wrap(t, NOTE_WIDTH, break_long_words=False) or [""] for t in notes]
    lines = sum(len(w) for w in wrapped)
    b = 48 + (16 + 20 * lines if notes else 0)
    ann, shift = [], -62
    for w in wrapped:
        ann.append({"name": "note", "x": 0, "xref": "paper", "y": 0, "yref": "paper", "yshift": shift, "xanchor": "left",
                    "yanchor": "top", "showarrow": False, "align": "left", "font": {"size": 12.5, "color": "#444"},
                    "text": "<br>".join(w)})
        shift -= 20 * len(w)
    return {"xaxis": xa, "yaxis": ya, "margin": {"l": 58, "r": 12, "t": 8, "b": b},
            "legend": {"orientation": "h", "y": 1.02, "yanchor": "bottom", "x": 0, "font": {"size": 12.5}},
            "font": {"size": 14}, "plot_bgcolor": "#ffffff", "paper_bgcolor": "#ffffff", "annotations": ann,
            "hovermode": "closest"}


# ------------------------------------------------------------------------------------------ the crossing's notes

def _fmt_bound(b: float) -> str:
    """A mistake bound as every place on the page prints it (5 significant digits)."""
    return f"{b:.5g}"


def _crossing_name(what: str, x: float) -> str:
    """The crossing's legend entry (short: a long entry would stack the whole legend in one column)."""
    return f"× crossing at {what} = {_fmt_bound(x)}"


def _no_crossing_note(proof) -> str:
    why = "; ".join(a.detail or a.name for a in proof.failed_assumptions)
    return f"No crossing drawn: an assumption of the theorem fails ({why})." if why else ""


# ------------------------------------------------------------------------------------------ log-scale ticks

#: ln 10: a natural log over LN10 is the log₁₀ a log-scale axis plots
LN10 = math.log(10.0)
_SUP = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")


def _pow10_text(k: int) -> str:
    if k == 0:
        return "1"
    if k == 1:
        return "10"
    return "10" + str(k).translate(_SUP)


def _num_text(v: float) -> str:
    s = f"{v:.3g}"
    return s if "e" not in s else _pow10_text(int(round(math.log10(v))))


def log_ticks(lo: float, hi: float, max_ticks: int = 7, twos: bool = False) -> tuple[list[float], list[str]]:
    """Tick positions and labels for an axis that shows log₁₀ of positive values in [lo, hi].

    Over more than about a decade: powers of ten (every 1, 2, 5, 10, … decades so that at
    most ``max_ticks`` show), labelled 1, 10, 10⁻³, …; over less: the values 1, 2, 5 × 10ᵏ
    (or 1 … 9 × 10ᵏ) written as numbers.

    >>> log_ticks(0, 1.5)
    ([0.0, 1.0], ['1', '10'])
    >>> log_ticks(-0.2, 0.75)[1]
    ['1', '2', '5']
    >>> log_ticks(-0.1, 1.3, twos=True)[1]       # counts that halve: powers of two
    ['1', '2', '4', '8', '16']
    """
    if not (math.isfinite(lo) and math.isfinite(hi)) or hi <= lo:
        return [], []
    if twos:
        l2 = math.log10(2.0)
        k0, k1 = math.ceil(lo / l2 - 1e-9), math.floor(hi / l2 + 1e-9)
        step = max(1, -(-(k1 - k0 + 1) // max_ticks))
        ks = list(range(k0, k1 + 1, step))
        return [round(k * l2, 6) for k in ks], [str(2 ** k) if k >= 0 else "2" + str(k).translate(_SUP) for k in ks]
    span = hi - lo
    if span <= 1.3:
        for mants in ((1, 2, 5), (1, 2, 3, 4, 5, 6, 7, 8, 9)):
            vals = [math.log10(m) + e for e in range(math.floor(lo) - 1, math.ceil(hi) + 1) for m in mants]
            vals = [round(v, 6) for v in vals if lo - 1e-9 <= v <= hi + 1e-9]
            if len(vals) >= 2:
                break
        return vals, [_num_text(10 ** v) for v in vals]
    step = 1
    for s in (1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 5000, 10_000, 20_000, 50_000, 100_000):
        step = s
        if span / s <= max_ticks:
            break
    k0, k1 = math.ceil(lo / step), math.floor(hi / step)
    ks = [k * step for k in range(k0, k1 + 1)]
    return [float(k) for k in ks], [_pow10_text(k) for k in ks]
