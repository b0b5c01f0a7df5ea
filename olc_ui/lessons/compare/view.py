r"""Step-viewer spec for the Compare page: several learners on one stream, ONE round cursor.

Pure: finished runs in, a JSON-ready dict out. Every learner ("lane") gets its weights chart
(``w<i>``) and its own sandwich (``s<i>``), from its own core proof; one chart (``mistakes``)
holds every learner's cumulative mistakes (and, on expert advice, the best expert's). They all
live in ONE spec, so the viewer's step controls move them together.

Positions ``p = 0 … T`` are shared. The spec's ``breaks`` are the union of the positions where
some learner's weights change; each learner's bars are given for every such state. Everything
else (sandwich markers, ledger, caption) is given per position, read from each proof's states
with ``searchsorted(state_rounds, p)``.

A sandwich (docs: LESSON.md) is the proof's potential between its two proven bounds, drawn
against the learner's mistake count M out to where the bounds cross (the mistake bound), the
region beyond shaded; the run's trajectory is revealed as the student steps. When the crossing
lies far beyond the run, an inset zooms on the run so that both show.

>>> sandwich_geometry.__name__
'sandwich_geometry'
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from olc_ui.shared.inset import BESIDE_INSET as _BESIDE_INSET, BESIDE_MAIN as _BESIDE_MAIN, inset_box
from olc_ui.shared.inset import inset_spot as _inset_spot
from olc_ui.shared.spec_tools import axis as _axis
from olc_ui.shared.spec_tools import layout as _layout
from olc_ui.shared.spec_tools import state_holds
from olc_ui.viewer.spec import jsonable, with_infinities

from .describe import describe_compare

__all__ = ["Lane", "NAMES", "SOURCES", "coinciding", "LANE_COLORS", "compare_spec", "sandwich_geometry", "union_breaks", "sweep_figure",
           "position_index"]

NAMES = {"perceptron": "Perceptron", "winnow": "Winnow", "normalized_winnow": "Exponentiated update",
         "weighted_majority": "Weighted Majority", "randomized_weighted_majority": "Randomised WM",
         "halving": "Halving"}
#: the note each learner's bound comes from (the form the core proves), shown wherever the bound is
SOURCES = {
    "perceptron": "[000], [004]: M ≤ R²/γ²",
    "winnow": "[000] §4: M ≤ (1+β)/β + (2+β)k(1 + log₁₊β N)",
    "normalized_winnow": "[003] §2.2: M ≤ ln N / C",
    "weighted_majority": "[001] eq. 6 (its β form): M ≤ (ln N + m*·ln(1/β)) / ln(2/(1+β))",
    "randomized_weighted_majority": "the potential Φₜ₊₁ = Φₜ(1 − ηFₜ) of [000] §1.2: "
                                    "E[M] ≤ (ln N + m*·ln(1/(1−η))) / η; for η ≤ ½ it gives [000] eq. 2, "
                                    "E[M] − m* ≤ ηm* + ln N/η",
    "halving": "[001] (Halving, Littlestone): M ≤ log₂|H|",
}
LANE_COLORS = ["#1f6fb4", "#d62728", "#2ca02c"]
BEST_COLOR = "#7f7f7f"
REL_COLOR, OTHER_COLOR, CONST_COLOR = "#2ca02c", "#9fb4c9", "#444444"
LN10 = math.log(10.0)
#: a zoom on the run is drawn when the crossing is this many times the run's extent
INSET_FACTOR = 4.0
SANDWICH_HEIGHT = WEIGHTS_HEIGHT = 320


@dataclass(frozen=True)
class Lane:
    """One learner of the comparison: its run and the matrix it read (``relevant``: the coordinates
    of the planted comparator, coloured on the weights chart; the last coordinate of a
    Perceptron / exponentiated-update view is the constant feature −1)."""

    trace: Any
    X: np.ndarray
    y: np.ndarray
    relevant: tuple = ()
    constant_last: bool = False

    @property
    def algorithm(self) -> str:
        return self.trace.algorithm

    @property
    def name(self) -> str:
        return NAMES.get(self.trace.algorithm, self.trace.algorithm)


# ------------------------------------------------------------------------------------------ helpers

def position_index(proof) -> np.ndarray:
    """The proof state in force at each position p = 0 … T."""
    return np.searchsorted(proof.state_rounds, np.arange(proof.T + 1), side="right") - 1


def _holds(proof, links: list[tuple[str, str]], idx: np.ndarray) -> list:
    """Per position, from the proof's record (spec_tools.state_holds): 1 every link holds, 0 one fails, None
    undefined."""
    v = state_holds(proof, links)[idx]
    return [None if x < 0 else int(x) for x in v.tolist()]


def _sig(a, n: int = 6) -> np.ndarray:
    """Rounded to ``n`` significant digits as ``format(v, f'.{n}g')`` does (the browser then prints
    exactly what Python prints)."""
    a = np.asarray(a, dtype=np.float64)
    return np.array([float(f"{v:.{n}g}") + 0.0 if math.isfinite(v) else v for v in a.tolist()], dtype=np.float64)


def _pos(a, fmt: str = ".4g") -> dict:
    a = np.asarray(a, dtype=np.float64)
    return {"by": "position", "data": with_infinities(_sig(a, 7) if fmt != "d" else a), "fmt": fmt}


def _const(v, fmt: str = ".4g") -> dict:
    return {"const": None if v is None or not math.isfinite(float(v)) else float(v), "fmt": fmt}


def union_breaks(lanes: list[Lane]) -> list[int]:
    """Positions where some learner's weights change (sorted, 1 … T)."""
    out: set[int] = set()
    for ln in lanes:
        tr = ln.trace
        if tr.algorithm in ("randomized_weighted_majority", "weighted_majority", "halving"):
            get = tr.weights_at if tr.algorithm == "halving" else tr.log_weights_at
            prev = np.asarray(get(0), dtype=float)
            for p in range(1, tr.T + 1):
                cur = np.asarray(get(p), dtype=float)
                if not np.array_equal(cur, prev):
                    out.add(p)
                    prev = cur
        else:  # mistake-driven: the weights change after each mistake round
            out.update((np.asarray(tr.mistakes, dtype=np.int64) + 1).tolist())
    return sorted(out)


# ------------------------------------------------------------------------------------------ weights

def _weight_values(ln: Lane, p: int) -> np.ndarray:
    """What the bars show after p rounds: Perceptron w; the others' weights as log₁₀ (Halving 0/1)."""
    tr = ln.trace
    if tr.algorithm == "perceptron":
        return np.asarray(tr.weights_at(p), dtype=float)
    if tr.algorithm == "halving":
        return (np.asarray(tr.weights_at(p), dtype=float) > 0).astype(float)
    return np.asarray(tr.log_weights_at(p), dtype=float) / LN10


def _weights_figure(i: int, ln: Lane, breaks: list[int], arrays: dict) -> dict:
    tr = ln.trace
    states = [_weight_values(ln, 0)] + [_weight_values(ln, b) for b in breaks]
    d = states[0].size
    xs = list(range(1, d + 1))
    rel = set(int(r) for r in ln.relevant)
    colors = [CONST_COLOR if (ln.constant_last and j == d - 1) else REL_COLOR if j in rel else OTHER_COLOR
              for j in range(d)]
    S = np.vstack(states)
    fin = S[np.isfinite(S)]
    linear = tr.algorithm in ("perceptron", "halving")
    if linear:
        lo, hi = min(0.0, float(fin.min()) if fin.size else 0.0), max(1.0 if tr.algorithm == "halving" else 0.0,
                                                                        float(fin.max()) if fin.size else 1.0)
        pad = 0.08 * (hi - lo or 1.0)
        base, ybot, ytop = 0.0, lo - pad, hi + pad
        ys = [np.round(s, 4) for s in states]
    else:
        lo, hi = (float(fin.min()), float(fin.max())) if fin.size else (-1.0, 0.0)
        pad = max(0.15, 0.07 * (hi - lo))
        ybot, ytop = lo - pad, hi + pad
        base = ybot
        ys = [np.round(np.where(np.isfinite(s), s - ybot, 0.0), 3) for s in states]
    arrays[f"w{i}_x"] = [xs] * len(states)
    arrays[f"w{i}_y"] = ys
    bar = {"type": "bar", "name": "weights", "x": xs, "y": [0] * d, "base": round(base, 4),
           "marker": {"color": colors}, "showlegend": False,
           "hovertemplate": "coordinate %{x}<extra></extra>"}
    data = [bar]
    # legend entries (empty traces, one per colour) so the colours are explained
    names = [("relevant (the target's)", REL_COLOR), ("irrelevant", OTHER_COLOR)] if rel else []
    if ln.constant_last:
        names.append(("threshold (feature −1)", CONST_COLOR))
    if tr.algorithm in ("weighted_majority", "randomized_weighted_majority", "halving"):
        names = [("experts", OTHER_COLOR)]
    for nm, col in names:
        data.append({"type": "bar", "name": nm, "x": [None], "y": [None], "marker": {"color": col}})
    if tr.algorithm == "winnow":
        th = math.log10(float(tr.info.get("threshold", tr.d)))
        data.append({"type": "scatter", "mode": "lines", "name": f"threshold θ = {tr.d}",
                     "x": [0.5, d + 0.5], "y": [th, th], "line": {"color": "#111", "dash": "dash", "width": 1.5},
                     "hoverinfo": "skip"})
        ytop = max(ytop, th + pad)
    yaxis = _axis({"perceptron": "wᵢ", "halving": "wᵢ (1: in the version space)"}.get(
        tr.algorithm, "weight wᵢ (log₁₀)"), range=[ybot, ytop])
    if tr.algorithm == "halving":
        yaxis["tickvals"] = [0, 1]
    elif not linear:
        tv = list(range(math.ceil(ybot), math.floor(ytop) + 1))
        step = max(1, -(-len(tv) // 6))
        yaxis["tickvals"] = tv[::step]
        yaxis["ticktext"] = [_pow10(t) for t in tv[::step]]
    what = {"perceptron": "the hyperplane's normal w (last bar: the threshold)",
            "winnow": "the weights, log scale (the dashed line is the threshold θ = N)",
            "normalized_winnow": "the weights wₜ (a probability vector), log scale (last: the threshold's)",
            "weighted_majority": "the experts' weights, log scale", "randomized_weighted_majority":
            "the experts' weights, log scale", "halving": "1 while an expert is consistent, 0 once removed"}
    layout = _layout(xaxis=_axis("expert i" if not rel else "coordinate i", range=[0.4, d + 0.6]),
                     yaxis=yaxis, bargap=0.1, barmode="overlay")
    return {"id": f"w{i}", "title": f"{ln.name}: {what.get(tr.algorithm, 'weights')}", "height": WEIGHTS_HEIGHT,
            "figure": {"data": data, "layout": layout}, "config": {"displayModeBar": False},
            "dynamic": [{"trace": 0, "op": "state", "x": f"w{i}_x", "y": f"w{i}_y"}]}


_SUP = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")


def _pow10(k: int) -> str:
    return "1" if k == 0 else "10" if k == 1 else "10" + str(k).translate(_SUP)




# ------------------------------------------------------------------------------------------ sandwiches

def sandwich_geometry(trace) -> dict[str, Any]:
    """What a learner's sandwich draws, from its proof's constants and series: the run's x series
    (``x``: the mistake count, or E[M] for RWM), the trajectories between the bounds (``run``:
    (label, series key, scale)), the two proven bounds as functions of x (``bounds``: (label, f,
    colour)), the point where they cross (``crossing``, None when the theorem gives no bound),
    and titles. The crossing's x is the proof's mistake bound."""
    p = trace.proof
    c = p.constants
    b = p.mistake_bound
    alg = trace.algorithm
    g: dict[str, Any] = {"x": "M", "x_title": "mistakes M", "x_name": "M", "scale": 1.0}
    if alg == "perceptron":
        gam, R = float(c["gamma"]), float(c["radius"])
        g.update(run=[("⟨w*, w⟩", "inner"), ("‖w‖", "norm")], y_title="",
                 bounds=[("Mγ (lower)", lambda M: gam * M, "#9467bd"), ("R√M (upper)", lambda M: R * np.sqrt(M),
                                                                         "#d62728")],
                 crossing=(b, gam * b) if b is not None else None,
                 title="Perceptron: Mγ ≤ ⟨w*, w⟩ ≤ ‖w‖ ≤ R√M, so M ≤ R²/γ²")
    elif alg == "winnow":
        beta = float(c["beta"])
        a0 = (1 + beta) / beta
        g.update(run=[("(1+β)/β + (2+β)m⁺", "total_cap")], y_title="",
                 bounds=[("M (the mistakes)", lambda M: M, "#9467bd"),
                         ("(1+β)/β + (2+β)k(1 + log₁₊β N)", lambda M: np.full_like(M, b if b is not None else np.nan),
                          "#d62728")],
                 crossing=(b, b) if b is not None else None,
                 title="Winnow: M ≤ (1+β)/β + (2+β)m⁺ ≤ (1+β)/β + (2+β)k(1 + log₁₊β N)")
        g["a0"] = a0
    elif alg == "normalized_winnow":
        C, lnN, phi1 = float(c["C"]), float(c["ln_N"]), float(c["phi_1"])
        g.update(run=[("Φ = KL(u‖wₜ)", "kl")], y_title="",
                 bounds=[("0 (lower)", lambda M: np.zeros_like(M), "#9467bd"),
                         ("ln N − C·M (upper)", lambda M: lnN - C * M, "#d62728"),
                         ("Φ₁ − C·M", lambda M: phi1 - C * M, "#ff9896")],
                 crossing=(b, 0.0) if b is not None else None,
                 title="Exponentiated update: 0 ≤ KL(u‖wₜ) ≤ ln N − C·M, so M ≤ ln N / C")
    elif alg in ("weighted_majority", "randomized_weighted_majority"):
        wm = alg == "weighted_majority"
        N, ms = int(c["N"]), int(c["m_star"])
        if wm:
            beta = float(c["beta"])
            lo = ms * math.log(beta) if beta > 0 else -math.inf
            up = (lambda M: math.log(N) + M * math.log((1 + beta) / 2))
            names = ("m*·ln β (lower)", "ln N + M·ln((1+β)/2) (upper)")
        else:
            eta = float(c["eta"])
            lo = ms * math.log(1 - eta) if eta < 1 else -math.inf
            up = (lambda M: math.log(N) - eta * M)
            names = ("m*·ln(1−η) (lower)", "ln N − η·E[M] (upper)")
            g.update(x="expected_M", x_title="expected mistakes E[M] = Σ Fₜ", x_name="E[M]")
        g.update(run=[("ln Φ", "log_phi"), ("ln w(i*)", "log_w_best")], y_title="natural log",
                 bounds=[(names[0], lambda M: np.full_like(M, lo), "#9467bd"), (names[1], up, "#d62728")],
                 crossing=(b, lo) if b is not None else None,
                 title=("Weighted Majority: m*·ln β ≤ ln Φ ≤ ln N + M·ln((1+β)/2)" if wm else
                        "Randomised WM: m*·ln(1−η) ≤ ln Φ ≤ ln N − η·E[M]"))
    elif alg == "halving":
        l2N = math.log2(int(c["H_size"]))
        g.update(run=[("log₂|Hₜ|", "log_size")], scale=1 / math.log(2), y_title="log₂ of the size",
                 bounds=[("0 = log₂ 1 (lower)", lambda M: np.zeros_like(M), "#9467bd"),
                         ("log₂|H| − M (upper)", lambda M: l2N - M, "#d62728")],
                 crossing=(b, 0.0) if b is not None else None,
                 title="Halving: 1 ≤ |Hₜ| ≤ |H|/2ᴹ, so M ≤ log₂|H|")
    else:
        raise ValueError(f"no sandwich for {alg}")
    return g


def _layer(i: int, g: dict, grid: np.ndarray, run_colors: list[str], axes: dict | None, legend: bool,
           data: list, dyn: list) -> None:
    """The bound curves over ``grid`` and the run's revealed trajectory and current markers, on one pair of axes."""
    for name, f, col in g["bounds"]:
        data.append({"type": "scatter", "mode": "lines", "name": name, "x": np.round(grid, 4),
                     "y": _sig(np.asarray(f(grid), dtype=float), 6), "showlegend": legend,
                     "line": {"color": col, "width": 2.2, "dash": "dash"}, "hoverinfo": "skip", **(axes or {})})
    for j, (name, _key) in enumerate(g["run"]):
        data.append({"type": "scatter", "mode": "lines+markers", "name": name + " (the run)", "x": [], "y": [],
                     "showlegend": legend, "line": {"color": run_colors[j], "width": 2.5}, "marker": {"size": 4},
                     "hoverinfo": "skip", **(axes or {})})
        dyn.append({"trace": len(data) - 1, "op": "rows_before", "rounds": f"s{i}_r", "x": f"s{i}_x",
                    "y": f"s{i}_y{j}"})
        data.append({"type": "scatter", "mode": "markers", "name": name + " now", "showlegend": False,
                     "x": [], "y": [], "marker": {"color": run_colors[j], "size": 12, "line": {"color": "#fff",
                                                                                            "width": 2}},
                     "hoverinfo": "skip", **(axes or {})})
        dyn.append({"trace": len(data) - 1, "op": "point_position", "x": f"s{i}_xp", "y": f"s{i}_y{j}p"})


def _num(v: float) -> str:
    """A bound as a reader wants it: 47.86, 423, 94,156 (never 9.416e+04)."""
    return f"{v:,.0f}" if abs(v) >= 1e4 else f"{v:.4g}"


def _y_range(g: dict, grid: np.ndarray, runs: list[np.ndarray], extra: list[float], x_max: float) -> list[float]:
    """The run, the crossing and the two proven bounds (the first two curves) up to ``x_max``."""
    vals = [r[np.isfinite(r)] for r in runs] + [np.asarray(extra, dtype=float)]
    for _name, f, _col in g["bounds"][:2]:
        yb = np.asarray(f(grid), dtype=float)
        vals.append(yb[(grid <= x_max) & np.isfinite(yb)])
    allv = np.concatenate([v for v in vals if v.size] + [np.zeros(1)])
    lo, hi = float(allv.min()), float(allv.max())
    pad = 0.07 * (hi - lo or 1.0)
    return [lo - pad, hi + pad]


def _sandwich_figure(i: int, ln: Lane, arrays: dict) -> dict:
    tr = ln.trace
    proof = tr.proof
    g = sandwich_geometry(tr)
    idx = position_index(proof)
    S = proof.series
    xs = np.asarray(S[g["x"]], dtype=float)
    x_run = max(float(np.nanmax(xs)) if xs.size else 0.0, 1.0)
    cross = g["crossing"]
    cx = float(cross[0]) if cross is not None and cross[0] is not None and math.isfinite(cross[0]) else None
    x_end = max(x_run, cx if cx is not None else 0.0) * 1.12
    # rows_before shows rows with round < p − 1: state j (from position state_rounds[j]) gets round
    # state_rounds[j] − 2, clipped at 0 (rounds cannot be negative: before p = 2 the marker stands alone)
    arrays[f"s{i}_r"] = np.maximum(np.asarray(proof.state_rounds, dtype=np.int64) - 2, 0).tolist()
    arrays[f"s{i}_x"] = _sig(xs, 6)
    arrays[f"s{i}_xp"] = _sig(xs[idx], 6)
    runs = []
    for j, (_name, key) in enumerate(g["run"]):
        ys = np.asarray(S[key], dtype=float) * g["scale"]
        runs.append(ys)
        arrays[f"s{i}_y{j}"] = _sig(ys, 6)
        arrays[f"s{i}_y{j}p"] = _sig(ys[idx], 6)
    run_colors = [LANE_COLORS[i % 3], "#17becf"]
    data: list[dict] = []
    dyn: list[dict] = []
    grid = np.linspace(0.0, x_end, 240)
    _layer(i, g, grid, run_colors, None, True, data, dyn)
    shapes = []
    extra = []
    if cx is not None:
        cy = float(cross[1])
        extra.append(cy)
        data.append({"type": "scatter", "mode": "markers", "name": f"bounds cross: {g['x_name']} ≤ {_num(cx)} "
                     "(shaded: beyond it)", "x": [cx], "y": [cy],
                     "marker": {"symbol": "x", "size": 13, "color": "#111", "line": {"width": 1}},
                     "hovertemplate": f"the bounds cross at {cx:.6g}<extra></extra>"})
        shapes.append({"type": "rect", "xref": "x", "yref": "paper", "x0": cx, "x1": x_end, "y0": 0, "y1": 1,
                       "fillcolor": "rgba(120,120,120,0.13)", "line": {"width": 0}, "layer": "below"})
    layout = _layout(xaxis=_axis(g["x_title"], range=[-0.02 * x_end, x_end]),
                     yaxis=_axis(g["y_title"], range=_y_range(g, grid, runs, extra, cx if cx is not None else 0.0)),
                     shapes=shapes, annotations=[])
    if cx is None:
        why = ", ".join(f"«{a.name}»" for a in proof.failed_assumptions) or "an assumption"
        layout["annotations"].append(
            {"x": 0.99, "xref": "paper", "y": 0.03, "yref": "paper", "xanchor": "right", "yanchor": "bottom",
             "showarrow": False, "font": {"size": 12}, "bgcolor": "rgba(255,240,240,0.9)",
             "text": f"no bound here: {why[:50]} fails"})
    elif cx > INSET_FACTOR * x_run:
        _inset(i, g, x_run, runs, run_colors, data, dyn, layout, _drawn_points(g, grid, xs, runs, layout),
               (cx, float(cross[1])))
    layout["legend"]["font"] = {"size": 11}
    return {"id": f"s{i}", "title": g["title"], "height": SANDWICH_HEIGHT, "figure": {"data": data, "layout": layout},
            "config": {"displayModeBar": False}, "dynamic": dyn}


def _drawn_points(g: dict, grid: np.ndarray, xs: np.ndarray, runs: list[np.ndarray], layout: dict) -> np.ndarray:
    """Every point the main plot draws a curve through (the bounds, densified, and the whole run), in paper
    coordinates (0 … 1 across the plot area)."""
    (x0, x1), (y0, y1) = layout["xaxis"]["range"], layout["yaxis"]["range"]
    fine = np.linspace(grid[0], grid[-1], 4 * grid.size)
    pts = [(fine, np.asarray(f(fine), dtype=float)) for _n, f, _c in g["bounds"]] + [(xs, r) for r in runs]
    px = np.concatenate([(x - x0) / (x1 - x0) for x, _ in pts])
    py = np.concatenate([(y - y0) / (y1 - y0) for _, y in pts])
    ok = np.isfinite(px) & np.isfinite(py)
    return np.column_stack([px[ok], py[ok]])


def _inset(i, g, x_run, runs, run_colors, data, dyn, layout, points, cross) -> None:
    """The crossing is far beyond the run: a zoom on the run (0 … 1.15 × its extent) where it covers no curve,
    no crossing and no shaded area (else beside the main plot); its title inside the plot area, under the legend."""
    x_hi = 1.15 * x_run
    grid = np.linspace(0.0, x_hi, 120)
    _layer(i, g, grid, run_colors, {"xaxis": "x2", "yaxis": "y2"}, False, data, dyn)
    (a, b), (c, d) = layout["xaxis"]["range"], layout["yaxis"]["range"]
    spot = _inset_spot(points, ((cross[0] - a) / (b - a), (cross[1] - c) / (d - c)))
    if spot is None:
        layout["xaxis"]["domain"] = list(_BESIDE_MAIN)
        dx, dy = _BESIDE_INSET
    else:
        dx, dy = (list(spot[0]), list(spot[1]))
    layout["xaxis2"] = _axis("", domain=list(dx), anchor="y2", range=[-0.03 * x_hi, x_hi])
    layout["yaxis2"] = _axis("", domain=list(dy), anchor="x2", range=_y_range(g, grid, runs, [], x_hi))
    for ax in ("xaxis2", "yaxis2"):
        layout[ax].update(showline=True, linecolor="#999", mirror=True, tickfont={"size": 10})
    layout["annotations"].append({"x": dx[0], "xref": "paper", "y": dy[1], "yref": "paper", "xanchor": "left",
                                  "yanchor": "bottom", "showarrow": False, "font": {"size": 11},
                                  "text": "zoom on the run"})
    x0, x1, y0, y1 = inset_box(dx, dy)
    layout["shapes"].append({"type": "rect", "xref": "paper", "yref": "paper", "x0": x0, "x1": x1,
                             "y0": y0, "y1": y1, "fillcolor": "#ffffff", "line": {"width": 0}, "layer": "below"})


# ------------------------------------------------------------------------------------------ mistakes

def coinciding(series: list) -> dict[int, int]:
    """``{j: i}`` for each series j equal, point for point, to an earlier series i (the first such i): drawn
    later, j's curve would hide i's. Series are compared exactly (NaN equal to NaN)."""
    out: dict[int, int] = {}
    arrs = [np.asarray(a, dtype=float) for a in series]
    for j in range(len(arrs)):
        for i in range(j):
            if arrs[i].shape == arrs[j].shape and np.array_equal(arrs[i], arrs[j], equal_nan=True):
                out[j] = out.get(i, i)
                break
    return out


def coincidence_note(names: list[str], same: dict[int, int]) -> str:
    """"the X curve lies under the Y curve" for each pair :func:`coinciding` found (X drawn first)."""
    return "; ".join(f"the {names[i]} curve lies under the {names[j]} curve (dashed)" for j, i in same.items())


def _mistakes_figure(lanes: list[Lane], arrays: dict) -> dict:
    T = lanes[0].trace.T
    pos = np.arange(T + 1)
    arrays["m_pos"] = pos.tolist()
    arrays["m_r"] = np.maximum(pos - 2, 0).tolist()  # rows_before shows r < p − 1: position q once p ≥ max(q, 2)
    data, dyn, top = [], [], 1.0
    counts = [ln.trace.mistakes_before_each_round() for ln in lanes]
    same = coinciding(counts)    # a curve equal to an earlier one is drawn dashed over it, and said
    for i, ln in enumerate(lanes):
        M = counts[i].astype(float)
        top = max(top, float(M[-1]))
        col = LANE_COLORS[i % 3]
        dash = "dash" if i in same else "solid"
        name = ln.name + (f" (= {lanes[same[i]].name}: dashed over it)" if i in same else "")
        arrays[f"m{i}"] = M.astype(int).tolist()
        data.append({"type": "scatter", "mode": "lines", "name": ln.name, "x": pos.tolist(), "y": M.astype(int),
                     "line": {"color": col, "width": 1.5, "shape": "hv", "dash": dash}, "opacity": 0.3,
                     "showlegend": False, "hoverinfo": "skip"})
        data.append({"type": "scatter", "mode": "lines", "name": name, "x": [], "y": [],
                     "line": {"color": col, "width": 3, "shape": "hv", "dash": dash}, "hoverinfo": "skip"})
        dyn.append({"trace": len(data) - 1, "op": "rows_before", "rounds": "m_r", "x": "m_pos", "y": f"m{i}"})
        data.append({"type": "scatter", "mode": "markers", "name": ln.name + " now", "showlegend": False,
                     "x": [], "y": [], "hoverinfo": "skip",
                     "marker": ({"color": col, "size": 10} if i not in same else
                                {"color": "rgba(0,0,0,0)", "size": 15, "line": {"color": col, "width": 2.5}})})
        dyn.append({"trace": len(data) - 1, "op": "point_position", "x": "m_pos", "y": f"m{i}"})
        if ln.algorithm == "randomized_weighted_majority":
            em = np.asarray(ln.trace.proof.series["expected_M"], dtype=float)[position_index(ln.trace.proof)]
            data.append({"type": "scatter", "mode": "lines", "name": "Randomised WM: E[M] = Σ Fₜ",
                         "x": pos.tolist(), "y": _sig(em, 5), "line": {"color": col, "width": 1.5, "dash": "dot"},
                         "hoverinfo": "skip"})
    best = next((ln for ln in lanes if "m_star" in ln.trace.proof.series), None)
    if best is not None:
        ms = np.asarray(best.trace.proof.series["m_star"], dtype=float)[position_index(best.trace.proof)]
        arrays["m_best"] = ms.astype(int).tolist()
        data.append({"type": "scatter", "mode": "lines", "name": "best expert so far (m*ₜ)", "x": pos.tolist(),
                     "y": ms.astype(int), "line": {"color": BEST_COLOR, "width": 2, "dash": "dash", "shape": "hv"},
                     "hoverinfo": "skip"})
        data.append({"type": "scatter", "mode": "markers", "name": "m* now", "showlegend": False, "x": [], "y": [],
                     "marker": {"color": BEST_COLOR, "size": 9}, "hoverinfo": "skip"})
        dyn.append({"trace": len(data) - 1, "op": "point_position", "x": "m_pos", "y": "m_best"})
    data.append({"type": "scatter", "mode": "lines", "name": "round t", "showlegend": False, "x": [], "y": [],
                 "line": {"color": "#888", "width": 1, "dash": "dot"}, "hoverinfo": "skip"})
    dyn.append({"trace": len(data) - 1, "op": "vline_position", "y": [0, top * 1.06]})
    layout = _layout(xaxis=_axis("round t", range=[0, T]), yaxis=_axis("mistakes so far", range=[0, top * 1.08]))
    title = "Cumulative mistakes, all learners on the same rounds"
    if same:
        note = coincidence_note([ln.name for ln in lanes], same)
        title += ": " + note
        # bottom right: cumulative counts rise from the bottom left, so that corner stays clear
        layout["annotations"] = [{"x": 0.99, "xref": "paper", "y": 0.02, "yref": "paper", "xanchor": "right",
                                  "yanchor": "bottom", "showarrow": False, "align": "right", "font": {"size": 12},
                                  "bgcolor": "rgba(255,255,255,0.85)", "text": note[0].upper() + note[1:]}]
    return {"id": "mistakes", "title": title, "height": 300,
            "figure": {"data": data, "layout": layout}, "config": {"displayModeBar": False}, "dynamic": dyn}


# ------------------------------------------------------------------------------------------ ledger, caption

#: per algorithm: (LaTeX with «a» «b» … placeholders for series keys in order, series keys, links)
_CHAINS = {
    "perceptron": (r"M\gamma = «a» \le \langle w^*, w\rangle = «b» \le \lVert w\rVert = «c» \le R\sqrt{M} = «d»",
                   ["M_gamma", "inner", "norm", "sqrtM_R"],
                   [("M_gamma", "inner"), ("inner", "norm"), ("norm", "sqrtM_R")]),
    "winnow": (r"M = «a» \le \tfrac{1+\beta}{\beta} + (2+\beta)m^+ = «b», \quad m^+ = «c» \le "
               r"k(1 + \log_{1+\beta} N) = «d»",
               ["M", "total_cap", "m_plus", "k_cap"],
               [("M", "total_cap"), ("m_plus", "rel_promotions"), ("rel_promotions", "k_max_promotions"),
                ("k_max_promotions", "k_cap")]),
    "normalized_winnow": (r"0 \le \mathrm{KL}(u\,\|\,w) = «a» \le \Phi_1 - CM = «b» \le \ln N - CM = «c»",
                          ["kl", "kl_upper", "lnN_upper"],
                          [("zero", "kl"), ("kl", "kl_upper"), ("kl_upper", "lnN_upper")]),
    "weighted_majority": (r"m^*\ln\beta = «a» \le \ln w_{i^*} = «b» \le \ln\Phi = «c» \le "
                          r"\ln N + M\ln\tfrac{1+\beta}{2} = «d»",
                          ["lower_best", "log_w_best", "log_phi", "upper"],
                          [("lower_best", "log_w_best"), ("log_w_best", "log_phi"), ("log_phi", "upper")]),
    "randomized_weighted_majority": (r"m^*\ln(1-\eta) = «a» \le \ln w_{i^*} = «b» \le \ln\Phi = «c» \le "
                                     r"\ln N - \eta\textstyle\sum F = «d»",
                                     ["lower_best", "log_w_best", "log_phi", "upper"],
                                     [("lower_best", "log_w_best"), ("log_w_best", "log_phi"),
                                      ("log_phi", "upper")]),
    "halving": (r"1 \le |H_{t+1}| = «a» \le |H|/2^{M} = «b»", ["size", "upper_size"],
                [("zero", "log_size"), ("log_size", "upper")]),
}
_BOUND_TEX = {"perceptron": r"R^2/\gamma^2", "winnow": r"\tfrac{1+\beta}{\beta} + (2+\beta)k(1+\log_{1+\beta}N)",
              "normalized_winnow": r"\ln N / C", "weighted_majority":
              r"\frac{\ln N + m^*\ln(1/\beta)}{\ln(2/(1+\beta))}", "randomized_weighted_majority":
              r"\frac{\ln N + m^*\ln(1/(1-\eta))}{\eta}", "halving": r"\log_2|H|"}


def _reasons(proof, links: list[tuple[str, str]]) -> str:
    """The proof's own reason for each link (the chain that asserts it), in order, without repeats."""
    out: list[str] = []
    for lo, hi in links:
        for ch in proof.chains:
            keys = list(ch.keys)
            for j in range(len(keys) - 1):
                if keys[j] == lo and keys[j + 1] == hi and ch.reasons and j < len(ch.reasons):
                    if ch.reasons[j] not in out:
                        out.append(ch.reasons[j])
    return "; ".join(out)


def _ledger_lines(i: int, ln: Lane) -> list[dict]:
    proof = ln.trace.proof
    idx = position_index(proof)
    tex, keys, links = _CHAINS[ln.algorithm]
    vals = {}
    for j, key in enumerate(keys):
        name = f"q{i}{'abcd'[j]}"
        v = np.asarray(proof.series[key], dtype=float)[idx]
        fmt = "d" if key in ("M", "m_plus", "size") else ".4g"
        vals[name] = _pos(v, fmt)
        tex = tex.replace(f"«{'abcd'[j]}»", "{" + name + "}")
    why = _reasons(proof, links)
    lines = [{"latex": r"\textbf{" + ln.name + r":}\; " + tex, "values": vals,
              "holds": {"by": "position", "data": _holds(proof, links, idx)}, "reason": why}]
    bkey = proof.bounded if proof.bounded in proof.series else "M"
    what = r"\mathbb{E}[M]" if bkey == "expected_M" else "M"
    if proof.mistake_bound is not None:
        cur = np.asarray(proof.series[bkey], dtype=float)[idx]
        lines.append({"latex": what + f" = {{q{i}m}} \\le " + _BOUND_TEX[ln.algorithm] + f" = {{q{i}b}}",
                      "values": {f"q{i}m": _pos(cur, "d" if bkey == "M" else ".4g"),
                                 f"q{i}b": _const(proof.mistake_bound, ".5g")},
                      "holds": {"by": "position", "data": _holds(proof, [(bkey, "mistake_bound")], idx)},
                      "reason": "the two bounds of the sandwich cross here: the theorem's mistake bound ("
                                + SOURCES.get(ln.algorithm, "") + ")"})
    else:
        lines.append({"latex": what + r" \le " + _BOUND_TEX[ln.algorithm] + r"\;\text{ does not apply}",
                      "reason": "; ".join(a.detail for a in proof.failed_assumptions)})
    return lines


def _caption(lanes: list[Lane]) -> dict:
    T = lanes[0].trace.T
    y = np.asarray(lanes[0].y, dtype=float)
    ypm = np.where(y > 0, 1, -1)
    vals: dict[str, Any] = {"lab": {"by": "round", "data": ypm.tolist(), "fmt": "+d"}}
    parts, tots = [], []
    for i, ln in enumerate(lanes):
        is_m = np.zeros(T, dtype=int)
        is_m[np.asarray(ln.trace.mistakes, dtype=np.int64)] = 1
        vals[f"e{i}"] = {"by": "round", "data": is_m.tolist(), "fmt": "text", "labels": ["✓", "✗ MISTAKE"]}
        vals[f"n{i}"] = {"by": "position", "data": ln.trace.mistakes_before_each_round().tolist(), "fmt": "d"}
        parts.append(f"{ln.name} {{e{i}}}")
        tots.append(f"{ln.name} {{n{i}}}")
    tmpl = "Round {t} of {T}, label {lab}: " + ", ".join(parts) + ". Mistakes so far: " + ", ".join(tots) + "."
    return {"template": tmpl, "values": vals, "start": "Round 0 of {T}: nothing seen yet. Press Next or Play."}


def compare_spec(lanes: list[Lane], *, run_id: str, position: int = 0) -> dict:
    """One viewer spec holding every learner's charts, so one cursor moves them all."""
    if not lanes:
        raise ValueError("no learner to compare")
    T = lanes[0].trace.T
    if any(ln.trace.T != T for ln in lanes):
        raise ValueError("the learners ran on streams of different lengths")
    breaks = union_breaks(lanes)
    arrays: dict[str, Any] = {}
    figures = [_mistakes_figure(lanes, arrays)]
    figures += [_weights_figure(i, ln, breaks, arrays) for i, ln in enumerate(lanes)]
    figures += [_sandwich_figure(i, ln, arrays) for i, ln in enumerate(lanes)]
    lines = [line for i, ln in enumerate(lanes) for line in _ledger_lines(i, ln)]
    mistakes = sorted(set().union(*[set(np.asarray(ln.trace.mistakes).tolist()) for ln in lanes]))
    n = len(lanes)
    spec = {
        "version": 1, "run_id": run_id, "T": int(T), "position": int(position), "url_param": "t",
        "breaks": breaks, "mistake_rounds": mistakes,
        "arrays": arrays, "figures": figures,
        "ledger": {"title": "Each learner's proof after round t (✓: the inequality holds on this run)",
                   "lines": lines},
        "caption": _caption(lanes),
        # wide: each learner's weights beside its sandwich; narrow (stacked): the mistakes, the weights,
        # the ledger, the sandwiches
        "layout": {"columns": [["mistakes"] + [f"w{i}" for i in range(n)], [f"s{i}" for i in range(n)] + ["ledger"]],
                   "widths": [1, 1]},
        "speed": int(max(2, min(100, T // 25))),
    }
    return describe_compare(jsonable(spec), lanes)


# ------------------------------------------------------------------------------------------ the N sweep

def sweep_figure(rows: list[dict], *, T: int | None = None, title: str = "") -> dict:
    """Mistakes against N (log axes): per learner the median over seeds (line), the range (bars),
    and the theorem's bound (median over the same runs, dashed, same colour); ``T``: the rounds per
    run, drawn as the ceiling no mistake count can pass. ``rows``: dicts with
    ``algorithm``, ``N``, ``seed``, ``mistakes``, ``bound`` (None when the theorem gives none)."""
    algs = list(dict.fromkeys(r["algorithm"] for r in rows))
    data = []
    stats = []
    for alg in algs:
        Ns = sorted({r["N"] for r in rows if r["algorithm"] == alg})
        med, lo, hi, bnd, every = [], [], [], [], []
        for N in Ns:
            m = np.array([r["mistakes"] for r in rows if r["algorithm"] == alg and r["N"] == N], dtype=float)
            b = [r["bound"] for r in rows if r["algorithm"] == alg and r["N"] == N and r["bound"] is not None]
            med.append(float(np.median(m)))
            lo.append(float(m.min()))
            hi.append(float(m.max()))
            bnd.append(float(np.median(b)) if b else None)
            every += [N, *m.tolist()]
        stats.append((Ns, med, lo, hi, bnd, every))
    same = coinciding([st[5] for st in stats])   # the same mistakes on every run: one curve would hide the other
    for i, alg in enumerate(algs):
        Ns, med, lo, hi, bnd, _ = stats[i]
        col = LANE_COLORS[i % 3]
        over = i in same
        data.append({"type": "scatter", "mode": "lines+markers",
                     "name": f"{NAMES.get(alg, alg)}: mistakes (median)"
                             + (f" = {NAMES.get(algs[same[i]], algs[same[i]])}'s, dashed over it" if over else ""),
                     "x": Ns, "y": med, "line": {"color": col, "width": 2.5, "dash": "dash" if over else "solid"},
                     "marker": {"size": 13, "symbol": "circle-open", "line": {"width": 2.5}} if over else {"size": 8},
                     "error_y": {"type": "data", "symmetric": False, "array": [h - m for h, m in zip(hi, med)],
                                 "arrayminus": [m - l for m, l in zip(med, lo)], "color": col, "thickness": 1.5},
                     "customdata": list(zip(lo, hi)),
                     "hovertemplate": "N = %{x}: median %{y}, range %{customdata[0]}–%{customdata[1]}<extra></extra>"})
        data.append({"type": "scatter", "mode": "lines+markers", "name": f"{NAMES.get(alg, alg)}: its bound",
                     "x": Ns, "y": bnd, "line": {"color": col, "width": 2, "dash": "dash"},
                     "marker": {"size": 6, "symbol": "diamond-open"},
                     "hovertemplate": "N = %{x}: bound %{y:.4g}<extra></extra>"})
    if T is not None and rows:  # no learner can make more mistakes than there are rounds
        Ns = sorted({r["N"] for r in rows})
        data.append({"type": "scatter", "mode": "lines", "name": f"T = {T} rounds: a mistake on every round",
                     "x": [Ns[0], Ns[-1]], "y": [T, T], "line": {"color": "#999", "width": 1.5, "dash": "dot"},
                     "hoverinfo": "skip"})
    layout = _layout(xaxis=_axis("number of features N (log axis)", type="log", dtick=1),
                     yaxis=_axis("mistakes (log axis)", type="log", dtick=1), height=420)
    layout["margin"]["t"] = 40
    layout["legend"] = {"orientation": "h", "y": -0.2, "yanchor": "top", "x": 0, "font": {"size": 12}}
    if title:
        layout["title"] = {"text": title, "font": {"size": 15}}
    if same:
        note = coincidence_note([f"{NAMES.get(a, a)} mistakes" for a in algs], same)
        layout["annotations"] = [{"x": 0.01, "xref": "paper", "y": 0.99, "yref": "paper", "xanchor": "left",
                                  "yanchor": "top", "showarrow": False, "align": "left", "font": {"size": 12},
                                  "bgcolor": "rgba(255,255,255,0.85)", "text": note[0].upper() + note[1:]
                                  + " (the same count on every run)"}]
    return jsonable({"data": data, "layout": layout})
