"""Step-viewer specs for the Halving lesson (pure: a trace, its stream and its class in, a JSON-ready dict out).

Everything drawn comes from the run: the version space is ``trace.history`` (the
round each hypothesis left), the vote is ``trace.columns["vote"]`` and
``trace.columns["version_space_size"]``, the sandwich is the proof's series and its
own per-state checks (``proof.check_matrix()``); which hypotheses vote +1 on an
instance is the class's own ``predict``. Nothing else is computed here except
drawing geometry (where a direction sits on the ring, the cells of a grid).

Main figure, by class:

* half-planes through the origin — the K normal directions on a ring around the
  unit circle of instances: the survivors (and the arc they span), those removed at
  this round, those removed earlier; the target's boundary; the current instance as
  an arrow and the half of the ring that votes +1 on it;
* thresholds on a line — instances on one row, thresholds on another: the surviving
  interval, the current instance and the thresholds θ ≤ x that vote +1;
* monotone conjunctions / disjunctions on n bits — a compact grid of the 2ⁿ
  hypotheses (cell = set S of variables): survivors, removed, the target, and (for
  classes that are not too big) the vote of each survivor on the current instance.

Second figure: |H_t| against the mistake count M on a log scale, with 1 and |H|/2^M;
the upper line meets 1 at M = log₂|H| (the theorem). Ledger: the sandwich at this
round with the proof's ✓/✗, the bound, and whether some hypothesis is still
consistent with every label so far.

Every position is its own viewer state (``breaks = 1 … T``): the vote and the
removals are per round, and the viewer's ``row_current`` draws one row per round,
so per-round shapes go through ``state`` ops (see the report in the page's commit).
"""
from __future__ import annotations

import math
from typing import Any

import numpy as np

from olc_core.hypotheses import HalfPlanes, HypothesisClass, MonotoneConjunctions, MonotoneDisjunctions, Thresholds

from olc_ui.shared.spec_tools import COLORS, ND, ledger as _ledger, line_trace as _line, points_trace as _pts, position_holds, position_states
from olc_ui.shared.spec_tools import not_applicable
from olc_ui.viewer.spec import jsonable

from .describe import describe_halving

#: what 1 ≤ |Hₜ| needs (the record marks it n/a where that fails)
NEEDS = "a hypothesis of H consistent with every label"

__all__ = ["halving_spec", "votes_drawn", "arc_polyline", "grid_cells", "removal_rounds",
           "VOTE_ROWS_CAP", "RING", "EMPTY_Y"]

#: Colours of the hypotheses (labels keep the site-wide blue +1 / red −1; the target is green like w*).
ALIVE = "#6a3d9a"
ALIVE_BAND = "rgba(106,61,154,0.22)"
GONE = "#c9c9c9"
NOW = "#111111"
TARGET = COLORS["wstar"]
PLUS_FILL = "rgba(31,111,180,0.16)"
MINUS_FILL = "rgba(212,58,47,0.10)"
#: Radius of the ring of directions (instances lie on the unit circle).
RING = 1.3
#: Where an empty version space is drawn on the log-scale chart (below 1).
EMPTY_Y = 0.5
#: Most (round, hypothesis) pairs whose individual vote is drawn on the grid.
VOTE_ROWS_CAP = 12_000


# ------------------------------------------------------------------------------------------ pure pieces

def removal_rounds(trace) -> np.ndarray:
    """The 0-based round at whose end each hypothesis left the version space (T: never).

    >>> import numpy as np, olc_core
    >>> from olc_core.hypotheses import Thresholds
    >>> H = Thresholds((0.2, 0.4, 0.6, 0.8))
    >>> tr = olc_core.run("halving", np.array([[0.5], [0.7]]), np.array([-1, 1]), hypotheses=H)
    >>> removal_rounds(tr).tolist()
    [0, 0, 2, 2]
    """
    return np.asarray(trace.history.removed_before, dtype=np.int64) - 1


def arc_polyline(angles: np.ndarray, radius: float = RING, max_points: int = 48) -> tuple[list, list] | None:
    """A polyline along the circle of ``radius`` through the span of ``angles`` (radians; a set
    contiguous on the circle, as a version space of half-planes is): from the first to the last
    angle after the largest gap; the whole circle when the gaps are all equal and the set is full.

    >>> xs, ys = arc_polyline(np.radians([80.0, 90.0, 100.0]), 1.0)
    >>> round(xs[0], 3), round(ys[-1], 3), len(xs) >= 3
    (0.174, 0.985, True)
    """
    a = np.sort(np.mod(np.asarray(angles, dtype=float), 2 * np.pi))
    if a.size == 0:
        return None
    if a.size == 1:
        start, span = a[0], 0.0
    else:
        gaps = np.diff(np.concatenate([a, [a[0] + 2 * np.pi]]))
        j = int(np.argmax(gaps))
        if np.allclose(gaps, gaps[0]):  # evenly spread: the whole circle
            start, span = a[0], 2 * np.pi
        else:
            start = a[(j + 1) % a.size]
            span = 2 * np.pi - gaps[j]
    n = int(min(max_points, max(2, math.ceil(span / math.radians(4)) + 1)))
    t = start + np.linspace(0.0, span, n)
    return (np.round(radius * np.cos(t), 4).tolist(), np.round(radius * np.sin(t), 4).tolist())


def grid_cells(n: int) -> tuple[np.ndarray, np.ndarray, int, int]:
    """Cell (column, row) of every subset S ⊆ {0 … n−1} (index = bit mask): the low ⌈n/2⌉ bits pick
    the column, the others the row. Returns (col, row, n_cols, n_rows).

    >>> c, r, nc, nr = grid_cells(3)
    >>> c.tolist(), r.tolist(), nc, nr
    ([0, 1, 2, 3, 0, 1, 2, 3], [0, 0, 0, 0, 1, 1, 1, 1], 4, 2)
    """
    a = (n + 1) // 2
    idx = np.arange(1 << n, dtype=np.int64)
    return idx & ((1 << a) - 1), idx >> a, 1 << a, 1 << (n - a)


def _subset_label(bits: list[int]) -> str:
    return " ".join(f"x{j + 1}" for j in bits) if bits else "∅"


def _half_annulus(phi: float, r_in: float, r_out: float, n: int = 9) -> tuple[list, list]:
    """The half of the annulus r_in ≤ |z| ≤ r_out facing direction ``phi`` (a closed polygon)."""
    t = phi + np.linspace(-np.pi / 2, np.pi / 2, n)
    xs = np.concatenate([r_out * np.cos(t), r_in * np.cos(t[::-1]), [r_out * np.cos(t[0])]])
    ys = np.concatenate([r_out * np.sin(t), r_in * np.sin(t[::-1]), [r_out * np.sin(t[0])]])
    return np.round(xs, 3).tolist(), np.round(ys, 3).tolist()


def _bits(x: np.ndarray) -> str:
    return "".join(str(int(v)) for v in x)


# ------------------------------------------------------------------------------------------ hypothesis layer

#: the legend entry of the removed hypotheses, which also stands for those removed at this round (folded into it):
#: it names their ✕, which a student otherwise took for an instance with y = −1
GONE_NAME = "removed earlier (this round: ✕)"


def _hypothesis_layer(arrays: dict, data: list, dyn: list, trace, hx: np.ndarray, hy: np.ndarray,
                      texts: list[str], *, symbol: str, size: float, gone_symbol: str | None = None) -> None:
    """Survivors, those removed at this round and those removed earlier, as four traces.

    A hypothesis removed at the end of round r (0-based) is alive at positions p ≤ r, removed *now* at
    p = r + 1 and removed earlier after that: rows_from / state / rows_before on its removal round.
    """
    T = trace.T
    rr = removal_rounds(trace)
    order = np.argsort(rr, kind="stable")
    left = order[rr[order] < T]            # removed at some round, in round order
    stay = order[rr[order] >= T]           # never removed
    arrays["h_r"] = rr[left]
    arrays["h_x"] = np.round(hx[left], ND)
    arrays["h_y"] = np.round(hy[left], ND)
    arrays["h_t"] = [texts[i] for i in left]
    now_x: list = [None] * (T + 1)
    now_y: list = [None] * (T + 1)
    for i in left:
        p = int(rr[i]) + 1
        if now_x[p] is None:
            now_x[p], now_y[p] = [], []
        now_x[p].append(round(float(hx[i]), ND))
        now_y[p].append(round(float(hy[i]), ND))
    arrays["now_x"], arrays["now_y"] = now_x, now_y
    base = len(data)
    gone = _pts(GONE_NAME, GONE, gone_symbol or symbol, size * 0.8, 0.9, group="gone")
    hover = {"hovertemplate": "%{text}<extra>in Hₜ</extra>", "hoverinfo": "text"}
    keep = "diamond" if symbol == "circle" else symbol  # not the examples' circles: a cue beside colour (WCAG 1.4.1)
    alive = {**_pts("in the version space Hₜ", ALIVE, keep, size, 1.0, group="alive"), **hover}
    stay_tr = {**_pts("in the version space Hₜ", ALIVE, keep, size, 1.0, legend=False, group="alive"), **hover,
               "x": np.round(hx[stay], ND), "y": np.round(hy[stay], ND), "text": [texts[i] for i in stay]}
    thin = symbol == "line-ns-open"
    now = _pts("removed at this round", NOW, "x-thin-open" if thin else "x", size * (0.6 if thin else 1.1),
               1.0, line={"width": 2.5, "color": NOW})
    data += [gone, alive, stay_tr, now]
    dyn += [{"trace": base, "op": "rows_before", "rounds": "h_r", "x": "h_x", "y": "h_y"},
            {"trace": base + 1, "op": "rows_from", "rounds": "h_r", "x": "h_x", "y": "h_y", "text": "h_t"},
            {"trace": base + 3, "op": "state", "x": "now_x", "y": "now_y"}]


def _alive_before(trace) -> list[np.ndarray]:
    """Indices of H_t before every round t (length T; only call when Σ|H_t| is small)."""
    rr = removal_rounds(trace)
    order = np.argsort(rr, kind="stable")
    srt = rr[order]
    return [order[np.searchsorted(srt, t, side="left"):] for t in range(trace.T)]


# ------------------------------------------------------------------------------------------ main figures

def _main_halfplanes(trace, X, y, H: HalfPlanes, target: int | None, arrays: dict) -> dict:
    T = trace.T
    ang = H.angles()
    hx, hy = RING * np.cos(ang), RING * np.sin(ang)
    texts = [H.describe(i) for i in range(H.size)]
    data: list = []
    dyn: list = []
    t = np.linspace(0, 2 * np.pi, 121)
    data.append(_line("instances lie on the unit circle", "#dddddd", 1, x=np.round(np.cos(t), 3).tolist(),
                      y=np.round(np.sin(t), 3).tolist(), legend=False))
    data.append(_line("ring of the K normal directions", "#e6e6e6", 1, x=np.round(RING * np.cos(t), 3).tolist(),
                      y=np.round(RING * np.sin(t), 3).tolist(), legend=False))
    # + voters on the current instance: the half of the ring within 90° of xₜ
    phi = np.arctan2(X[:, 1], X[:, 0])
    vx: list = [None]
    vy: list = [None]
    ax_: list = [None]
    ay_: list = [None]
    for r in range(T):
        a, b = _half_annulus(float(phi[r]), RING - 0.13, RING + 0.13)
        vx.append(a)
        vy.append(b)
        ax_.append([0.0, round(float(X[r, 0]), ND)])
        ay_.append([0.0, round(float(X[r, 1]), ND)])
    arrays.update(vote_x=vx, vote_y=vy, xarr_x=ax_, xarr_y=ay_)
    data.append({"type": "scatter", "mode": "lines", "name": "directions voting +1 on xₜ (within 90°)",
                 "x": [], "y": [], "fill": "toself", "fillcolor": PLUS_FILL, "line": {"width": 0, "shape": "spline"},
                 "hoverinfo": "skip"})
    dyn.append({"trace": len(data) - 1, "op": "state", "x": "vote_x", "y": "vote_y"})
    # the arc spanned by the version space after this round
    rr = removal_rounds(trace)
    ax_list, ay_list = [], []
    cache: dict[int, tuple] = {}
    for p in range(T + 1):
        alive = np.flatnonzero(rr >= p)
        key = alive.size
        if key not in cache:
            cache[key] = arc_polyline(ang[alive]) if alive.size else None
        arc = cache[key]
        ax_list.append(arc[0] if arc else None)
        ay_list.append(arc[1] if arc else None)
    arrays.update(arc_x=ax_list, arc_y=ay_list)
    data.append({**_line("arc spanned by Hₜ", ALIVE_BAND, 12), "line": {"color": ALIVE_BAND, "width": 12}})
    dyn.append({"trace": len(data) - 1, "op": "state", "x": "arc_x", "y": "arc_y"})
    if target is not None:
        u = np.array([math.cos(ang[target]), math.sin(ang[target])])
        L = 1.55
        data.append(_line("target's boundary ⟨u*, x⟩ = 0", TARGET, 2, "dash", legend=False,
                          x=[round(-L * u[1], ND), round(L * u[1], ND)], y=[round(L * u[0], ND), round(-L * u[0], ND)]))
        data.append({**_pts("target h* (normal u*, dashed: its boundary)", TARGET, "star", 20, 1.0,
                            line={"color": "#ffffff", "width": 1}),
                     "x": [round(RING * 1.13 * u[0], ND)], "y": [round(RING * 1.13 * u[1], ND)]})
    _points_layer(arrays, data, dyn, X, y, T)
    _hypothesis_layer(arrays, data, dyn, trace, hx, hy, texts, symbol="circle", size=9 if H.size <= 120 else 6)
    data.append({"type": "scatter", "mode": "lines+markers", "name": "xₜ (the current instance)", "x": [], "y": [],
                 "showlegend": False,
                 "line": {"color": "#333333", "width": 2.5}, "hoverinfo": "skip",
                 "marker": {"symbol": "arrow", "angleref": "previous", "size": [0, 14], "color": "#333333"}})
    dyn.append({"trace": len(data) - 1, "op": "state", "x": "xarr_x", "y": "xarr_y"})
    L = 1.6
    axis = {"range": [-L, L], "zeroline": False, "showgrid": False, "fixedrange": True, "showticklabels": False}
    layout = {"xaxis": {**axis}, "yaxis": {**axis, "scaleanchor": "x", "scaleratio": 1},
              "margin": {"l": 10, "r": 10, "t": 10, "b": 10}, **_common_layout()}
    return {"data": data, "layout": layout, "dynamic": dyn}


def _points_layer(arrays: dict, data: list, dyn: list, X: np.ndarray, y: np.ndarray, T: int,
                  *, row: float | None = None) -> None:
    """Instances by label: not seen yet (faint), seen, the current one (big)."""
    pos, neg = np.flatnonzero(y > 0), np.flatnonzero(y <= 0)
    xs = X[:, 0]
    ys = np.full(T, row) if row is not None else X[:, 1]
    arrays.update(r_pos=pos, x_pos=np.round(xs[pos], ND), y_pos=np.round(ys[pos], ND),
                  r_neg=neg, x_neg=np.round(xs[neg], ND), y_neg=np.round(ys[neg], ND))
    base = len(data)
    data += [
        _pts("not seen yet, y = +1", COLORS["pos_faint"], "circle", 7, 0.6, legend=False, group="pos"),
        _pts("not seen yet, y = −1", COLORS["neg_faint"], "x", 7, 0.7, legend=False, group="neg"),
        _pts("y = +1 (faint: not seen yet)", COLORS["pos"], "circle", 8, 0.95, group="pos"),
        _pts("y = −1", COLORS["neg"], "x", 8, 0.95, group="neg"),
        _pts("current, y = +1", COLORS["pos"], "circle", 18, 1.0, legend=False, line={"color": "#000", "width": 2.5}),
        _pts("current, y = −1", COLORS["neg"], "x", 18, 1.0, legend=False, line={"color": "#000", "width": 1.5}),
    ]
    dyn += [
        {"trace": base, "op": "rows_from", "rounds": "r_pos", "x": "x_pos", "y": "y_pos"},
        {"trace": base + 1, "op": "rows_from", "rounds": "r_neg", "x": "x_neg", "y": "y_neg"},
        {"trace": base + 2, "op": "rows_before", "rounds": "r_pos", "x": "x_pos", "y": "y_pos"},
        {"trace": base + 3, "op": "rows_before", "rounds": "r_neg", "x": "x_neg", "y": "y_neg"},
        {"trace": base + 4, "op": "row_current", "rounds": "r_pos", "x": "x_pos", "y": "y_pos"},
        {"trace": base + 5, "op": "row_current", "rounds": "r_neg", "x": "x_neg", "y": "y_neg"},
    ]


def _main_thresholds(trace, X, y, H: Thresholds, target: int | None, arrays: dict) -> dict:
    T = trace.T
    th = np.asarray(H.thresholds)
    gap = (th[-1] - th[0]) / max(len(th) - 1, 1) or 1.0
    lo, hi = float(min(th[0] - gap / 2, X[:, 0].min())), float(max(th[-1] + gap / 2, X[:, 0].max()))
    pad = 0.04 * (hi - lo)
    lo, hi = lo - pad, hi + pad
    texts = [H.describe(i) for i in range(H.size)]
    data: list = []
    dyn: list = []
    Y_INST, Y_HYP = 1.0, 0.0
    # θ ≤ xₜ vote +1: a band over the thresholds' row from the left edge to xₜ, and a line at xₜ
    bx: list = [None]
    by: list = [None]
    lx: list = [None]
    ly: list = [None]
    for r in range(T):
        x = round(float(X[r, 0]), ND)
        bx.append([round(lo, ND), x, x, round(lo, ND), round(lo, ND)])
        by.append([-0.28, -0.28, 0.28, 0.28, -0.28])
        lx.append([x, x])
        ly.append([-0.45, 1.3])
    arrays.update(band_x=bx, band_y=by, cur_x=lx, cur_y=ly)
    data.append({"type": "scatter", "mode": "lines", "name": "thresholds θ ≤ xₜ vote +1", "x": [], "y": [],
                 "fill": "toself", "fillcolor": PLUS_FILL, "line": {"width": 0}, "hoverinfo": "skip"})
    dyn.append({"trace": 0, "op": "state", "x": "band_x", "y": "band_y"})
    data.append(_line("xₜ", "#333333", 1.5, "dot", legend=False))
    dyn.append({"trace": 1, "op": "state", "x": "cur_x", "y": "cur_y"})
    # the interval spanned by the version space after this round
    rr = removal_rounds(trace)
    ix, iy = [], []
    for p in range(T + 1):
        alive = np.flatnonzero(rr >= p)
        if alive.size:
            a, b = float(th[alive].min()), float(th[alive].max())
            w = 0.12 * gap
            ix.append([round(a - w, ND), round(b + w, ND)])
            iy.append([Y_HYP, Y_HYP])
        else:
            ix.append(None)
            iy.append(None)
    arrays.update(iv_x=ix, iv_y=iy)
    data.append({**_line("interval spanned by Hₜ", ALIVE_BAND, 18), "line": {"color": ALIVE_BAND, "width": 18}})
    dyn.append({"trace": 2, "op": "state", "x": "iv_x", "y": "iv_y"})
    if target is not None:
        data.append(_line(f"target h*: {H.describe(target)}", TARGET, 2.5, "dash",
                          x=[round(float(th[target]), ND)] * 2, y=[-0.5, 1.35]))
    _points_layer(arrays, data, dyn, X, y, T, row=Y_INST)
    _hypothesis_layer(arrays, data, dyn, trace, th, np.full(H.size, Y_HYP), texts,
                      symbol="line-ns-open", size=22 if H.size <= 80 else 14)
    layout = {
        "xaxis": {"range": [lo, hi], "title": {"text": "instances x and thresholds θ"},
                  "zeroline": False, "gridcolor": "#efefef", "fixedrange": True, "tickfont": {"size": 13}},
        "yaxis": {"range": [-0.6, 1.45], "tickvals": [Y_HYP, Y_INST], "fixedrange": True,
                  "ticktext": ["thresholds θ", "instances x"], "tickfont": {"size": 14}, "showgrid": False,
                  "zeroline": False},
        "margin": {"l": 100, "r": 10, "t": 10, "b": 45}, **_common_layout()}
    layout["legend"] = {**layout["legend"], "y": -0.3}
    return {"data": data, "layout": layout, "dynamic": dyn}


def _main_grid(trace, X, y, H: MonotoneConjunctions | MonotoneDisjunctions, target: int | None,
               arrays: dict) -> dict:
    T = trace.T
    n = H.n
    col, row, nc, nr = grid_cells(n)
    texts = [f"S = {{{', '.join(str(j + 1) for j in H._vars(i))}}}: {H.describe(i)}" for i in range(H.size)]
    size = float(min(34, max(7, 460 / max(nc, nr * 1.6))))
    data: list = []
    dyn: list = []
    if votes_drawn(trace, H):
        px_: list = [None]
        py_: list = [None]
        mx_: list = [None]
        my_: list = [None]
        for t, alive in enumerate(_alive_before(trace)):
            if alive.size == 0:
                px_.append(None); py_.append(None); mx_.append(None); my_.append(None)  # noqa: E702
                continue
            plus = H.predict(X[t:t + 1], alive)[0] > 0
            a, b = alive[plus], alive[~plus]
            px_.append(col[a].tolist()); py_.append(row[a].tolist())  # noqa: E702
            mx_.append(col[b].tolist()); my_.append(row[b].tolist())  # noqa: E702
        arrays.update(vp_x=px_, vp_y=py_, vm_x=mx_, vm_y=my_)
        data.append(_pts("voted +1 on xₜ", COLORS["pos"], "square-open", size * 1.32, 1.0,
                         line={"width": 3, "color": COLORS["pos"]}))
        dyn.append({"trace": len(data) - 1, "op": "state", "x": "vp_x", "y": "vp_y"})
        data.append(_pts("voted −1 on xₜ", COLORS["neg"], "square-open", size * 1.32, 1.0,
                         line={"width": 3, "color": COLORS["neg"]}))
        dyn.append({"trace": len(data) - 1, "op": "state", "x": "vm_x", "y": "vm_y"})
    _hypothesis_layer(arrays, data, dyn, trace, col.astype(float), row.astype(float), texts,
                      symbol="square", size=size)
    if target is not None:
        # drawn by the viewer like the hypothesis layer (one point per position, always the same): the viewer
        # draws static traces beneath every dynamic one, and the star must stay on top of its cell
        arrays.update(tg_x=[int(col[target])] * (T + 1), tg_y=[int(row[target])] * (T + 1))
        data.append(_pts(f"target h*: {H.describe(target)}", TARGET, "star", size * 0.9, 1.0,
                         line={"color": "#ffffff", "width": 1}))
        dyn.append({"trace": len(data) - 1, "op": "point_state", "x": "tg_x", "y": "tg_y"})
    # the current instance and its label, written above the grid
    lab = [f"xₜ = {_bits(X[r])}   yₜ = {'+1' if y[r] > 0 else '−1'}" for r in range(T)]
    arrays.update(cx=[None] + [(nc - 1) / 2] * T, cy=[None] + [-0.95] * T, ctext=[None] + lab)
    data.append({"type": "scatter", "mode": "text", "name": "current instance", "x": [], "y": [], "text": [],
                 "textfont": {"size": 17, "color": "#222222"}, "showlegend": False, "hoverinfo": "skip"})
    dyn.append({"trace": len(data) - 1, "op": "point_state", "x": "cx", "y": "cy", "text": "ctext"})
    a = (n + 1) // 2
    low = [[j for j in range(a) if (c >> j) & 1] for c in range(nc)]
    high = [[a + j for j in range(n - a) if (r >> j) & 1] for r in range(nr)]
    if n <= 6:
        xt = [_subset_label(s) for s in low]
        yt = [_subset_label(s) for s in high]
    else:  # bit strings (variable j first) keep the ticks short
        xt = ["".join("1" if (c >> j) & 1 else "0" for j in range(a)) for c in range(nc)]
        yt = ["".join("1" if (r >> j) & 1 else "0" for j in range(n - a)) for r in range(nr)]
    layout = {
        "xaxis": {"range": [-0.7, nc - 0.3], "tickvals": list(range(nc)), "ticktext": xt, "fixedrange": True,
                  "title": {"text": f"variables of S among x1…x{a}" + ("" if n <= 6 else " (the j-th bit: xj ∈ S)")},
                  "showgrid": False, "zeroline": False, "tickangle": 0 if nc <= 8 else -60,
                  "tickfont": {"size": 13 if nc <= 16 else 10}},
        "yaxis": {"range": [nr - 0.4, -1.5], "tickvals": list(range(nr)), "ticktext": yt, "fixedrange": True,
                  "title": {"text": f"… among x{a + 1}…x{n}" if n > a else ""}, "showgrid": False,
                  "zeroline": False, "tickfont": {"size": 13 if nr <= 16 else 10}},
        "margin": {"l": 70, "r": 10, "t": 10, "b": 10}, **_common_layout(),
    }
    layout["legend"] = {**layout["legend"], "y": -0.14 if nc <= 8 else -0.3}
    return {"data": data, "layout": layout, "dynamic": dyn}


def _common_layout() -> dict:
    return {"legend": {"orientation": "h", "y": -0.02, "yanchor": "top", "x": 0, "font": {"size": 13},
                       "itemsizing": "constant"},
            "font": {"size": 14}, "plot_bgcolor": "#ffffff", "paper_bgcolor": "#ffffff", "hovermode": "closest"}


# ------------------------------------------------------------------------------------------ the sandwich chart

#: Entries folded into another's (one legend entry, one click shows or hides both): at most six.
FOLD = {"arc spanned by Hₜ": "in the version space Hₜ", "interval spanned by Hₜ": "in the version space Hₜ",
        "removed at this round": GONE_NAME}


def _fold_legend(data: list[dict]) -> None:
    names = {t.get("name") for t in data if t.get("showlegend", True)}
    for t in data:
        lead = FOLD.get(t.get("name"))
        if lead in names:
            t["showlegend"] = False
            t["legendgroup"] = lead
            for u in data:
                if u.get("name") == lead:
                    u["legendgroup"] = lead


def _size_figure(proof, arrays: dict) -> dict:
    """|H_t| against M on a log scale with 1 ≤ |H_t| ≤ |H|/2^M, the current state marked."""
    Hs = int(proof.constants["H_size"])
    log2H = math.log2(Hs)
    M = proof.n_mistakes.astype(int)
    size = proof.series["size"].astype(int)
    x_hi = max(float(M.max()), log2H, 1.0) * 1.06 + 0.3
    y_lo = EMPTY_Y * 0.7
    m_end = min(x_hi, math.log2(Hs / y_lo))
    xs = np.linspace(0.0, m_end, 2)
    data = [
        _line("1 (lower bound)", COLORS["lower"], 2.5, "dashdot", x=[0.0, round(x_hi, 3)], y=[1, 1]),
        {**_line("|H|/2ᴹ (upper bound)", COLORS["upper"], 2.5, "dash", x=xs.round(4).tolist(),
                             y=(Hs * 2.0 ** -xs).tolist()),
         "hovertemplate": "|H|/2ᴹ at M = %{x:.2f}: %{y:.4g}<extra></extra>"},
    ]
    ok = size > 0
    if log2H <= x_hi:  # beyond the crossing: no run gets there (under the curves)
        data.insert(0, {"type": "scatter", "mode": "lines", "name": "beyond the crossing", "showlegend": False,
                        "x": [round(log2H, 4), round(x_hi, 4), round(x_hi, 4), round(log2H, 4), round(log2H, 4)],
                        "y": [y_lo, y_lo, Hs * 1.6, Hs * 1.6, y_lo], "fill": "toself", "hoverinfo": "skip",
                        "fillcolor": "rgba(120,120,120,0.13)", "line": {"width": 0, "color": "rgba(0,0,0,0)"}})
    # the measured |Hₜ|, revealed as the student steps (state k, in force from position s_k: round s_k − 2)
    arrays["sz_tr_r"] = np.clip(np.asarray(proof.state_rounds) - 2, 0, max(proof.T - 1, 0))
    arrays["sz_tr_M"] = M.tolist()
    arrays["sz_tr_H"] = [int(s) if s > 0 else None for s in size]
    data.append({"type": "scatter", "mode": "lines+markers" if proof.K <= 80 else "lines", "name": "|Hₜ| (measured)",
                 "x": [None], "y": [None], "line": {"color": "#111111", "width": 2.5},
                 "marker": {"size": 6}, "hovertemplate": "M = %{x}: |Hₜ| = %{y}<extra></extra>", "connectgaps": False})
    dyn0 = [{"trace": len(data) - 1, "op": "rows_before", "rounds": "sz_tr_r", "x": "sz_tr_M", "y": "sz_tr_H"}]
    if (~ok).any():
        data.append({**_pts("version space empty (|Hₜ| = 0)", COLORS["neg"], "x", 9, 1.0),
                     "x": M[~ok].tolist(), "y": [EMPTY_Y] * int((~ok).sum())})
    if log2H <= x_hi:
        data.append({**_line("log₂|H| (the bound)", "#444444", 1.5, "dot", x=[round(log2H, 4)] * 2,
                             y=[y_lo, Hs * 1.6]), "showlegend": False})
        data.append({"type": "scatter", "mode": "markers", "meta": "crossing", "x": [log2H], "y": [1],
                     "name": f"× crossing at M = log₂|H| = {log2H:.4g} (shaded beyond)",
                     "marker": {"symbol": "x-thin", "size": 16, "color": "#000", "line": {"width": 3, "color": "#000"}},
                     "hovertemplate": "the bounds meet at M = log₂|H| = %{x:.4g}<extra></extra>"})
    # current state, per position
    idx = position_states(proof)
    arrays["sz_M"] = M[idx].tolist()
    arrays["sz_H"] = [int(s) if s > 0 else EMPTY_Y for s in size[idx]]
    arrays["sz_U"] = [float(v) if v >= y_lo * 0.5 else None for v in proof.series["upper_size"][idx]]
    base = len(data)
    data.append({**_pts("|Hₜ| now", "#111111", "circle", 14, 1.0, legend=False, line={"color": "#fff", "width": 2})})
    data.append({**_pts("|H|/2ᴹ now", COLORS["upper"], "square", 12, 1.0, legend=False,
                        line={"color": "#fff", "width": 2})})
    dyn = dyn0 + [{"trace": base, "op": "point_state", "x": "sz_M", "y": "sz_H"},
                  {"trace": base + 1, "op": "point_state", "x": "sz_M", "y": "sz_U"}]
    ticks = [EMPTY_Y] + [2 ** j for j in range(0, int(log2H) + 1, max(1, int(log2H) // 6 + 1))]
    layout = {
        "xaxis": {"title": {"text": "mistakes M"}, "range": [-0.05 * x_hi, x_hi], "gridcolor": "#efefef",
                  "tickfont": {"size": 13}, "fixedrange": True},
        "yaxis": {"type": "log", "range": [math.log10(y_lo), math.log10(Hs * 1.6)], "gridcolor": "#efefef",
                  "tickvals": ticks, "ticktext": ["0 (empty)"] + [str(v) for v in ticks[1:]],
                  "title": {"text": "|Hₜ|, log scale", "standoff": 4}, "tickfont": {"size": 13},
                  "fixedrange": True},
        "margin": {"l": 95, "r": 10, "t": 10, "b": 45},
        "legend": {"orientation": "h", "y": 1.02, "yanchor": "bottom", "x": 0, "font": {"size": 13}},
        "font": {"size": 14}, "plot_bgcolor": "#ffffff", "paper_bgcolor": "#ffffff", "hovermode": "closest",
    }
    return {"id": "sandwich", "title": "1 ≤ |Hₜ| ≤ |H|/2ᴹ: the lines meet at M = log₂|H|", "height": 330,
            "figure": {"data": data, "layout": layout}, "config": {"displayModeBar": False}, "dynamic": dyn}


# ------------------------------------------------------------------------------------------ the spec

def _instance_caption(H: HypothesisClass, X: np.ndarray) -> tuple[dict, str]:
    if isinstance(H, HalfPlanes):
        deg = np.mod(np.degrees(np.arctan2(X[:, 1], X[:, 0])), 360.0)
        return {"by": "round", "data": deg, "fmt": ".0f"}, "xₜ at {x}°"
    if isinstance(H, Thresholds):
        return {"by": "round", "data": X[:, 0], "fmt": ".3f"}, "xₜ = {x}"
    strings = [_bits(r) for r in X]
    uniq = sorted(set(strings))
    pos = {s: i for i, s in enumerate(uniq)}
    return {"by": "round", "data": [pos[s] for s in strings], "fmt": "text", "labels": uniq}, "xₜ = {x}"


def _halving_ledger(proof, T: int, consistent) -> tuple[dict, dict, np.ndarray, int]:
    """The ledger, per position (k = p), and the per-position series the caption shares."""
    S = {name: proof.per_round(name) for name in ("size", "upper_size")}
    Mp = proof.per_round("n_mistakes")
    Hs = int(proof.constants["H_size"])
    reasons = proof.chains[0].reasons
    vals = {"size": {"by": "state", "data": S["size"], "fmt": "d"}, "M": {"by": "state", "data": Mp, "fmt": "d"},
            "H": {"const": Hs, "fmt": "d"}, "up": {"by": "state", "data": S["upper_size"], "fmt": ".4g"}}
    lines = [
        not_applicable({"latex": r"1 \;\le\; |H_{t+1}| = «size»", "values": {"size": vals["size"]},
                        "holds": {"by": "state", "data": position_holds(proof, [("zero", "log_size")])},
                        "reason": reasons[0]}, proof, [("zero", "log_size")], NEEDS),
        {"latex": r"|H_{t+1}| = «size» \;\le\; \frac{|H|}{2^{M}} = \frac{«H»}{2^{«M»}} = «up»",
         "values": {k: vals[k] for k in ("size", "H", "M", "up")},
         "holds": {"by": "state", "data": position_holds(proof, [("log_size", "upper")])}, "reason": reasons[1]},
    ]
    bound = proof.mistake_bound
    if bound is not None:
        lines.append({"latex": r"M = «M» \;\le\; \log_2|H| = «bound»",
                      "values": {"M": vals["M"], "bound": {"const": bound, "fmt": ".4g"}},
                      "holds": {"by": "state", "data": position_holds(proof, [("M", "mistake_bound")])},
                      "reason": "1 ≤ |H|/2^M means 2^M ≤ |H|: the two bounds on |Hₜ| cross at M = log₂|H|, so no "
                                "realisable stream can force more mistakes"})
    else:
        a = proof.failed_assumptions[0]
        when = f" (from round {int(a.rounds[0]) + 1})" if len(a.rounds) else ""
        lines.append({"latex": r"M \le \log_2|H| \;\text{does not apply}",
                      "reason": f"no hypothesis of H is consistent with every label{when}: the first inequality "
                                "needs one that is never removed"})
    if consistent is not None:
        a = proof.assumptions[0]
        empty = int(a.rounds[0]) if (not a.holds and len(a.rounds)) else None
        ok = [1 if empty is None or p <= empty else 0 for p in range(T + 1)]
        lines.append({"latex": r"|C_t| = «cons» \;\ge\; 1",
                      "values": {"cons": {"by": "state", "data": np.asarray(consistent), "fmt": "d"}},
                      "holds": {"by": "state", "data": ok},
                      "reason": "Cₜ: the hypotheses of H that agree with every label so far. Realisability (the "
                                "theorem's assumption) asks for one that agrees with all of them"})
    ledger = {"title": "Proof ledger after round t (H_{t+1}: the version space after it)",
              "lines": _ledger(lines)}

    return ledger, S, Mp, Hs


def _halving_caption(trace, proof, H, X, y, S: dict, Mp, Hs: int) -> tuple[dict, np.ndarray, np.ndarray]:
    n_before = np.asarray(trace.columns["version_space_size"], dtype=np.int64)
    vote = np.asarray(trace.columns["vote"], dtype=float)
    n_plus = np.rint((vote + 1.0) * n_before / 2.0).astype(np.int64)
    pos_sizes = proof.per_round("size").astype(np.int64)
    removed = pos_sizes[:-1] - pos_sizes[1:]
    pred = np.asarray(trace.predictions)
    is_m = np.asarray(trace.columns["is_mistake"]).astype(bool)
    tied = 2 * n_plus == n_before           # a tied vote has no majority: the tie rule picked +1, that half leaves
    what = np.where(is_m, np.where(n_before == 0, 3, np.where(tied, 4, 1)), np.where(removed > 0, 2, 0))
    xval, xtpl = _instance_caption(H, X)
    cvals = {
        "x": xval,
        "y": {"by": "round", "data": np.where(y > 0, 1, -1), "fmt": "+d"},
        "n": {"by": "round", "data": n_before, "fmt": "d"},
        "plus": {"by": "round", "data": n_plus, "fmt": "d"},
        "minus": {"by": "round", "data": n_before - n_plus, "fmt": "d"},
        "yhat": {"by": "round", "data": np.where(pred > 0, 1, -1), "fmt": "+d"},
        "what": {"by": "round", "data": what, "fmt": "text",
                 "labels": ["correct: nothing removed", "MISTAKE: the majority was wrong and leaves",
                            "correct; the hypotheses that disagreed with yₜ are pruned",
                            "MISTAKE: the version space is empty, the vote 0 : 0 is a tie → +1",
                            "MISTAKE: the vote was tied, +1 by the tie rule, and the half that voted +1 leaves"]},
        "rm": {"by": "round", "data": removed, "fmt": "d"},
        "size": {"by": "state", "data": S["size"], "fmt": "d"},
        "M": {"by": "state", "data": Mp, "fmt": "d"},
    }
    template = ("Round {t} of {T}: " + xtpl + ", yₜ = {y}. Vote of the version space (|Hₜ| = {n}): {plus} for +1, "
                "{minus} for −1 → ŷ = {yhat}: {what}. Removed {rm}, left {size}; mistakes M = {M}.")
    caption = {"template": template, "values": cvals,
               "start": f"Round 0 of {{T}}: nothing seen yet; the version space is all of H ({Hs} hypotheses). "
                        "Press Next or Play."}
    return caption, removed, is_m


def halving_spec(trace, X: np.ndarray, y: np.ndarray, H: HypothesisClass, *, run_id: str, target: int | None = None,
                 consistent: np.ndarray | None = None, position: int = 0, title: str = "") -> dict:
    """The viewer spec for a Halving run over a class ``H`` of :mod:`olc_core.hypotheses`.

    ``consistent``: per position p = 0 … T, how many hypotheses agree with every label of the first p
    rounds (the version space of the same stream run with ``update="every_round"``; None: taken from this
    run when it prunes every round, else the line is left out). ``target``: the index of the hypothesis
    that labelled the stream (drawn as h*).
    """
    X = np.asarray(X, dtype=float)
    y = np.asarray(y, dtype=float)
    T = trace.T
    proof = trace.proof
    every = trace.params.get("update") == "every_round"
    if consistent is None and every:
        consistent = proof.per_round("size")
    arrays: dict[str, Any] = {}
    if isinstance(H, HalfPlanes):
        main = _main_halfplanes(trace, X, y, H, target, arrays)
    elif isinstance(H, Thresholds):
        main = _main_thresholds(trace, X, y, H, target, arrays)
    elif isinstance(H, (MonotoneConjunctions, MonotoneDisjunctions)):
        main = _main_grid(trace, X, y, H, target, arrays)
    else:
        raise ValueError(f"the Halving lesson draws half-planes, thresholds, monotone conjunctions or "
                         f"disjunctions; got {type(H).__name__}")
    _fold_legend(main["data"])
    title = title or f"Halving over {H.size} {H.name}"
    if isinstance(H, (MonotoneConjunctions, MonotoneDisjunctions)):
        op = "∧" if isinstance(H, MonotoneConjunctions) else "∨"
        title += f" — the cell of S is h_S(x) = {op} of the xⱼ, j ∈ S"
    main_fig = {"id": "main", "title": title,
                "height": 660 if isinstance(H, HalfPlanes) else (500 if isinstance(H, Thresholds) else 640),
                "figure": {"data": main["data"], "layout": main["layout"]}, "config": {"displayModeBar": False},
                "dynamic": main["dynamic"]}
    figures = [main_fig, _size_figure(proof, arrays)]

    ledger, S, Mp, Hs = _halving_ledger(proof, T, consistent)
    caption, removed, is_m = _halving_caption(trace, proof, H, X, y, S, Mp, Hs)
    mistakes = np.asarray(trace.mistakes, dtype=np.int64)
    stops: dict[str, Any] = {}
    if every:
        prunes = np.flatnonzero((removed > 0) & ~is_m)
        if prunes.size:
            stops["pruning"] = prunes
    spec = {
        "version": 1, "run_id": run_id, "T": int(T), "position": int(position), "url_param": "t",
        "breaks": np.arange(1, T + 1), "mistake_rounds": mistakes, "extra_stops": stops,
        "arrays": arrays, "figures": figures, "ledger": ledger, "caption": caption,
        "layout": {"columns": [["main"], ["sandwich", "ledger"]], "widths": [1.3, 1]},
        "speed": int(max(1, min(60, T // 25))),
    }
    return describe_halving(jsonable(spec), trace, H, target)


def votes_drawn(trace, H: HypothesisClass) -> bool:
    """Whether the spec draws each hypothesis' vote on the current instance: always for half-planes and
    thresholds (a shaded half of the ring / of the line), for the grids only when Σ_t |H_t| ≤
    :data:`VOTE_ROWS_CAP` (one marker per hypothesis and round)."""
    if isinstance(H, (HalfPlanes, Thresholds)):
        return True
    return int(np.asarray(trace.columns["version_space_size"], dtype=np.int64).sum()) <= VOTE_ROWS_CAP
