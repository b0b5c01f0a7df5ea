"""Step-viewer specs for the Perceptron lessons (pure: a trace and its stream in, a JSON-ready dict out).

Everything drawn comes from the run: the points and labels of the stream, the
weights after every mistake (``trace.weights_at``), the proof's series and its own
per-state checks (``proof.check_matrix()``). Nothing is computed here that the
core did not compute, except drawing geometry (where a line w·x = 0 crosses the
view, how to scale arrows to fit).

Main figure (d = 2: the plane; d = 3: a 3-D view; larger d: the weight vector as
bars): points by label as not-yet-seen / seen / current, the rounds that were
mistakes ringed, the comparator w* with its margin band, the current hyperplane
and the five before it, and at a mistake the vectors w_t, y_t·x_t, w_{t+1} tip to
tail. Sandwiches against the mistake count M: proof A (norm potential) and B
(cosine potential) when the data meet the theorem's assumptions, otherwise the
TD_γ proof and the hinge-loss proof, which need no assumption on the data.
"""
from __future__ import annotations

import math
from typing import Any

import numpy as np

from .spec_tools import COLORS, const as _const, holds as _holds, ledger as _ledger, line_trace as _line
from .spec_tools import arrow_trace as _arrow, points_trace as _pts, sandwich_figure as _sandwich
from .spec_tools import by_state as _state, holds_value as _holds_value, proof_value as _pval, sig
from .viewer import jsonable

__all__ = ["perceptron_spec", "margin_perceptron_spec", "clip_line", "chords"]

from .spec_tools import ND  # noqa: E402  (decimals kept for plotted coordinates)


# ------------------------------------------------------------------------------------------ geometry

def clip_line(w: np.ndarray, L: float, offset: float = 0.0) -> list[list[float]] | None:
    """Endpoints of the line ``w·x = offset·‖w‖`` inside the square [-L, L]², as [[x0, x1], [y0, y1]].

    >>> clip_line(np.array([1.0, 0.0]), 2.0)
    [[0.0, 0.0], [-2.0, 2.0]]
    """
    w = np.asarray(w, dtype=float)
    n = float(math.hypot(w[0], w[1]))
    if n == 0.0 or not math.isfinite(n):
        return None
    u = w / n
    p0 = u * offset                      # a point on the line
    dvec = np.array([-u[1], u[0]])       # its direction
    ts = []
    for i in range(2):
        if abs(dvec[i]) > 1e-15:
            ts += [(-L - p0[i]) / dvec[i], (L - p0[i]) / dvec[i]]
    ts = sorted(ts)
    if len(ts) < 2:
        return None
    lo, hi = ts[len(ts) // 2 - 1], ts[len(ts) // 2]
    a, b = p0 + lo * dvec, p0 + hi * dvec
    if np.any(np.abs(a) > L * (1 + 1e-9)) or np.any(np.abs(b) > L * (1 + 1e-9)):
        return None
    return [[round(float(a[0]), ND), round(float(b[0]), ND)], [round(float(a[1]), ND), round(float(b[1]), ND)]]


def chords(W: np.ndarray, L: float) -> tuple[np.ndarray, np.ndarray]:
    """For each row w of W, the chord of w·x = 0 through the square [-L, L]² (vectorised):
    x and y arrays of shape (K, 2); NaN (no line) where w = 0.

    >>> chords(np.array([[1.0, 0.0], [0.0, 0.0]]), 2.0)[1].tolist()
    [[2.0, -2.0], [nan, nan]]
    """
    W = np.asarray(W, dtype=float)
    n = np.hypot(W[:, 0], W[:, 1])
    ok = (n > 0) & np.isfinite(n)
    safe = np.where(ok, n, 1.0)
    d = np.stack([-W[:, 1] / safe, W[:, 0] / safe], axis=1)       # unit direction of the line
    with np.errstate(divide="ignore"):
        t = L / np.maximum(np.abs(d[:, 0]), np.abs(d[:, 1]))       # where it leaves the square
    ends = (d * np.where(ok, t, np.nan)[:, None]).round(ND)
    x = np.stack([ends[:, 0], -ends[:, 0]], axis=1)
    y = np.stack([ends[:, 1], -ends[:, 1]], axis=1)
    return x, y


def _band(w: np.ndarray, gamma: float, L: float) -> tuple[list, list] | None:
    """The polygon between the lines ⟨w*, x⟩ = ±γ inside the view (for a fill)."""
    a = clip_line(w, L, gamma)
    b = clip_line(w, L, -gamma)
    if a is None or b is None:
        return None
    xs = [a[0][0], a[0][1], b[0][1], b[0][0], a[0][0]]
    ys = [a[1][0], a[1][1], b[1][1], b[1][0], a[1][0]]
    return xs, ys


def _plane3(w: np.ndarray, L: float) -> list[list[float]] | None:
    """Four corners of the plane w·x = 0 within the cube [-L, L]³ (x, y, z lists)."""
    w = np.asarray(w, dtype=float)
    n = float(np.linalg.norm(w))
    if n == 0.0 or not math.isfinite(n):
        return None
    u = w / n
    a = np.cross(u, [1.0, 0.0, 0.0] if abs(u[0]) < 0.9 else [0.0, 1.0, 0.0])
    a /= np.linalg.norm(a)
    b = np.cross(u, a)
    c = [(s * a + t * b) * L * 1.2 for s, t in ((-1, -1), (1, -1), (1, 1), (-1, 1))]
    return [[round(float(p[i]), ND) for p in c] for i in range(3)]


# ------------------------------------------------------------------------------------------ pieces

def _seg(x0, y0, x1, y1) -> tuple[list, list]:
    return [round(float(x0), ND), round(float(x1), ND)], [round(float(y0), ND), round(float(y1), ND)]


def _layout2(L: float, height_hint: str = "") -> dict:
    axis = {"range": [-L, L], "zeroline": True, "zerolinecolor": "#d9d9d9", "gridcolor": "#efefef",
            "fixedrange": True, "tickfont": {"size": 13}}
    return {
        "xaxis": {**axis, "title": {"text": "x₁"}},
        "yaxis": {**axis, "title": {"text": "x₂"}, "scaleanchor": "x", "scaleratio": 1},
        "margin": {"l": 50, "r": 10, "t": 10, "b": 45},
        "legend": {"orientation": "h", "y": 1.01, "yanchor": "bottom", "x": 0, "font": {"size": 13}},
        "font": {"size": 14}, "plot_bgcolor": "#ffffff", "paper_bgcolor": "#ffffff",
    }


def _weights_by_state(trace) -> np.ndarray:
    """(K, d): the weights in every state (state k: after the k-th mistake)."""
    h = trace.history
    return np.vstack([np.asarray(h.initial, dtype=float)[None, :], np.asarray(h.snapshots, dtype=float)])


# ------------------------------------------------------------------------------------------ main figures

def _main_2d(trace, X, y, *, wstar, gamma_band, highlight, highlight_name, L, W, title, band_fn=None):
    mistakes = np.asarray(trace.mistakes)
    K = W.shape[0]
    pos, neg = np.flatnonzero(y > 0), np.flatnonzero(y <= 0)
    arrays: dict[str, Any] = {
        "r_pos": pos, "x_pos": X[pos, 0].round(ND), "y_pos": X[pos, 1].round(ND),
        "r_neg": neg, "x_neg": X[neg, 0].round(ND), "y_neg": X[neg, 1].round(ND),
        "r_mis": mistakes, "x_mis": X[mistakes, 0].round(ND), "y_mis": X[mistakes, 1].round(ND),
    }
    hx, hy = chords(W, L)
    arrays["hp_x"], arrays["hp_y"] = hx, hy
    if band_fn is not None:  # the margin perceptron's ±γ/2 band around the current hyperplane
        bands = [band_fn(W[k]) for k in range(K)]
        arrays["bd_x"] = [b[0] if b else None for b in bands]
        arrays["bd_y"] = [b[1] if b else None for b in bands]
    # the current w as an arrow from the origin, and the update at a mistake, scaled together to fit
    n = np.hypot(W[:, 0], W[:, 1])
    with np.errstate(divide="ignore"):
        s = np.where(n > 0, np.minimum(1.0, 0.9 * L / np.where(n > 0, n, 1.0)), 1.0)
    tip = (W * s[:, None]).round(ND)
    zero = np.zeros(K)
    arrays["w_x"] = np.stack([zero, tip[:, 0]], axis=1)
    arrays["w_y"] = np.stack([zero, tip[:, 1]], axis=1)
    w0, w1 = W[:-1], W[1:]
    big = np.maximum.reduce([np.hypot(w0[:, 0], w0[:, 1]), np.hypot(w1[:, 0], w1[:, 1]),
                             np.hypot(*(w1 - w0).T), np.full(K - 1, 1e-300)])
    sc = np.minimum(1.0, 0.9 * L / big)
    w_name = "w (arrows scaled to fit)" if (s < 0.999).any() or (sc < 0.999).any() else "w"
    a0, a1 = (w0 * sc[:, None]).round(ND), (w1 * sc[:, None]).round(ND)
    z = np.zeros(K - 1)
    arrays["aw_x"], arrays["aw_y"] = np.stack([z, a0[:, 0]], 1), np.stack([z, a0[:, 1]], 1)
    arrays["ax_x"], arrays["ax_y"] = np.stack([a0[:, 0], a1[:, 0]], 1), np.stack([a0[:, 1], a1[:, 1]], 1)
    arrays["an_x"], arrays["an_y"] = np.stack([z, a1[:, 0]], 1), np.stack([z, a1[:, 1]], 1)
    scale = sc.tolist()

    data = [
        _pts("not seen yet, y = +1", COLORS["pos_faint"], "circle", 6, 0.6, legend=False, group="pos"),  # 0
        _pts("not seen yet, y = −1", COLORS["neg_faint"], "x", 6, 0.7, legend=False, group="neg"),       # 1
        _pts("seen, y = +1", COLORS["pos"], "circle", 7, 0.95, group="pos"),                   # 2
        _pts("seen, y = −1", COLORS["neg"], "x", 7, 0.95, group="neg"),                        # 3
    ]
    static = []
    if wstar is not None:
        band = _band(wstar, gamma_band, L) if gamma_band and gamma_band > 0 else None
        if band is not None:
            static.append({"type": "scatter", "mode": "lines", "name": f"margin band |⟨w*,x⟩| < γ = {gamma_band:.3g}",
                           "x": band[0], "y": band[1], "fill": "toself", "fillcolor": COLORS["band"],
                           "line": {"width": 0}, "hoverinfo": "skip"})
        star = clip_line(wstar, L)
        if star is not None:
            static.append(_line("w*·x = 0 (comparator)", COLORS["wstar"], 2, "dash", x=star[0], y=star[1]))
            u = np.asarray(wstar, dtype=float) / np.linalg.norm(wstar) * 0.35 * L
            xs, ys = _seg(0, 0, *u)
            static.append({**_arrow("w* (unit)", COLORS["wstar"], 2), "x": xs, "y": ys,
                           "marker": {"symbol": "arrow", "angleref": "previous", "size": [0, 12],
                                      "color": COLORS["wstar"]}})
    # highlighted examples (failed assumption, or a positive hinge term: ring size by size class)
    # are a static layer drawn on the viewer's canvas: thousands of SVG rings would be repainted
    # with every step of the plot they sit in
    hl_ops = []
    if highlight is not None and len(highlight[0]):
        hr, hx, hy, hc = highlight
        first = True
        for c, size in enumerate((9, 14, 20)):
            m = np.asarray(hc) == c
            if not m.any():
                continue
            arrays[f"hl{c}_r"], arrays[f"hl{c}_x"], arrays[f"hl{c}_y"] = hr[m], hx[m], hy[m]
            data.append({**_pts(highlight_name, COLORS["bad"], "circle-open", size, 0.6, legend=first,
                                line={"width": 1.5, "color": COLORS["bad"]}), "legendgroup": "hl"})
            hl_ops.append({"trace": len(data) - 1, "op": "rows_all", "render": "canvas", "rounds": f"hl{c}_r",
                           "x": f"hl{c}_x", "y": f"hl{c}_y"})
            first = False
    data += static
    i0 = len(data)
    dyn_specs = [
        (_pts("mistake rounds so far", COLORS["mistake"], "circle-open", 11, 0.8,
              line={"width": 1.5, "color": COLORS["mistake"]}),
         {"op": "rows_before", "render": "canvas", "rounds": "r_mis", "x": "x_mis", "y": "y_mis"}),
        (_line("last 5 w·x = 0", COLORS["old"], 1.5, "dot", opacity=0.8), {"op": "state_window",
                                                                                          "x": "hp_x",
                                                                              "y": "hp_y", "back": 5}),
    ]
    if band_fn is not None:
        dyn_specs.append(({"type": "scatter", "mode": "lines", "name": "band ±γ/2 around w·x = 0",
                           "x": [], "y": [], "fill": "toself", "fillcolor": "rgba(177,95,216,0.12)",
                           "line": {"width": 1, "color": COLORS["margin"], "dash": "dot"}, "hoverinfo": "skip"},
                          {"op": "state", "x": "bd_x", "y": "bd_y"}))
    dyn_specs += [
        (_line("w·x = 0 (the learner)", COLORS["w"], 3.5), {"op": "state", "x": "hp_x", "y": "hp_y"}),
        ({**_arrow(w_name, COLORS["w"], 1.5), "opacity": 0.5}, {"op": "state", "x": "w_x",
                                                                                  "y": "w_y"}),
        (_arrow("wₜ (before)", COLORS["wt"]), {"op": "on_mistake", "x": "aw_x", "y": "aw_y"}),
        (_arrow("yₜ·xₜ (the update)", COLORS["yx"]), {"op": "on_mistake", "x": "ax_x", "y": "ax_y"}),
        (_arrow("wₜ₊₁ (after)", COLORS["wnext"]), {"op": "on_mistake", "x": "an_x", "y": "an_y"}),
        (_pts("current, y = +1", COLORS["pos"], "circle", 18, 1.0, legend=False,
              line={"color": "#000", "width": 2.5}),
         {"op": "row_current", "rounds": "r_pos", "x": "x_pos", "y": "y_pos"}),
        (_pts("current, y = −1", COLORS["neg"], "x", 18, 1.0, legend=False, line={"color": "#000", "width": 1.5}),
         {"op": "row_current", "rounds": "r_neg", "x": "x_neg", "y": "y_neg"}),
    ]
    dynamic = [
        {"trace": 0, "op": "rows_all", "render": "canvas", "rounds": "r_pos", "x": "x_pos", "y": "y_pos"},
        {"trace": 1, "op": "rows_all", "render": "canvas", "rounds": "r_neg", "x": "x_neg", "y": "y_neg"},
        {"trace": 2, "op": "rows_before", "render": "canvas", "rounds": "r_pos", "x": "x_pos", "y": "y_pos"},
        {"trace": 3, "op": "rows_before", "render": "canvas", "rounds": "r_neg", "x": "x_neg", "y": "y_neg"},
        *hl_ops,
    ]
    for i, (tr, op) in enumerate(dyn_specs):
        data.append(tr)
        dynamic.append({"trace": i0 + i, **op})
    fig = {"id": "main", "title": title, "height": 600, "figure": {"data": data, "layout": _layout2(L)},
           "config": {"displayModeBar": False}, "dynamic": dynamic}
    return fig, arrays, scale


def _main_3d(trace, X, y, *, wstar, L, W, title):
    mistakes = np.asarray(trace.mistakes)
    K = W.shape[0]
    pos, neg = np.flatnonzero(y > 0), np.flatnonzero(y <= 0)
    arrays: dict[str, Any] = {}
    for nm, idx in (("pos", pos), ("neg", neg), ("mis", mistakes)):
        arrays[f"r_{nm}"] = idx
        for j, c in enumerate("xyz"):
            arrays[f"{c}_{nm}"] = X[idx, j].round(ND)
    planes = [_plane3(W[k], L) for k in range(K)]
    for j, c in enumerate("xyz"):
        arrays[f"pl_{c}"] = [p[j] if p else None for p in planes]
    ax_w = {c: [] for c in "xyz"}
    for k in range(K):
        n = float(np.linalg.norm(W[k]))
        s = min(1.0, 0.9 * L / n) if n > 0 else 1.0
        for j, c in enumerate("xyz"):
            ax_w[c].append([0.0, round(float(s * W[k][j]), ND)])
    for c in "xyz":
        arrays[f"w_{c}"] = ax_w[c]

    def p3(name, color, symbol, size, opacity=1.0, legend=True):
        return {"type": "scatter3d", "mode": "markers", "name": name, "x": [], "y": [], "z": [],
                "marker": {"color": color, "symbol": symbol, "size": size, "opacity": opacity},
                "showlegend": legend, "hoverinfo": "skip"}
    data = [
        p3("not seen yet, y = +1", COLORS["pos_faint"], "circle", 2.5, 0.5),
        p3("not seen yet, y = −1", COLORS["neg_faint"], "x", 2.5, 0.6),
        p3("seen, y = +1", COLORS["pos"], "circle", 3.5),
        p3("seen, y = −1", COLORS["neg"], "x", 3.5),
        p3("mistake rounds so far", COLORS["mistake"], "circle-open", 6),
        {"type": "mesh3d", "name": "w·x = 0 (the learner)", "x": [], "y": [], "z": [], "i": [0, 0], "j": [1, 2],
         "k": [2, 3], "color": "#555555", "opacity": 0.35, "showlegend": True, "hoverinfo": "skip"},
        {"type": "scatter3d", "mode": "lines", "name": "w", "x": [], "y": [], "z": [],
         "line": {"color": COLORS["w"], "width": 6}, "hoverinfo": "skip"},
        p3("current example", "#ffbf00", "diamond", 9, legend=True),
    ]
    arrays["r_all"] = np.arange(trace.T)
    for j, c in enumerate("xyz"):
        arrays[f"{c}_all"] = X[:, j].round(ND)
    dynamic = [
        {"trace": 0, "op": "rows_from", "rounds": "r_pos", "x": "x_pos", "y": "y_pos", "z": "z_pos"},
        {"trace": 1, "op": "rows_from", "rounds": "r_neg", "x": "x_neg", "y": "y_neg", "z": "z_neg"},
        {"trace": 2, "op": "rows_before", "rounds": "r_pos", "x": "x_pos", "y": "y_pos", "z": "z_pos"},
        {"trace": 3, "op": "rows_before", "rounds": "r_neg", "x": "x_neg", "y": "y_neg", "z": "z_neg"},
        {"trace": 4, "op": "rows_before", "rounds": "r_mis", "x": "x_mis", "y": "y_mis", "z": "z_mis"},
        {"trace": 5, "op": "state", "x": "pl_x", "y": "pl_y", "z": "pl_z"},
        {"trace": 6, "op": "state", "x": "w_x", "y": "w_y", "z": "w_z"},
        {"trace": 7, "op": "row_current", "rounds": "r_all", "x": "x_all", "y": "y_all", "z": "z_all"},
    ]
    if wstar is not None:
        p = _plane3(np.asarray(wstar, dtype=float), L)
        if p is not None:
            data.append({"type": "mesh3d", "name": "w*·x = 0 (comparator)", "x": p[0], "y": p[1], "z": p[2],
                         "i": [0, 0], "j": [1, 2], "k": [2, 3], "color": COLORS["wstar"], "opacity": 0.18,
                         "showlegend": True, "hoverinfo": "skip"})
    rng = [-L, L]
    layout = {"scene": {"xaxis": {"range": rng, "title": {"text": "x₁"}}, "yaxis": {"range": rng, "title": {"text": "x₂"}},
                        "zaxis": {"range": rng, "title": {"text": "x₃"}}, "aspectmode": "cube"},
              "margin": {"l": 0, "r": 0, "t": 10, "b": 0}, "font": {"size": 14},
              "legend": {"orientation": "h", "y": 1.0, "yanchor": "bottom", "x": 0, "font": {"size": 13}},
              "uirevision": "keep"}
    fig = {"id": "main", "title": title, "height": 600, "figure": {"data": data, "layout": layout},
           "config": {"displayModeBar": False}, "dynamic": dynamic}
    return fig, arrays


def _main_bars(trace, *, wstar, W, title):
    K, d = W.shape
    idx = list(range(1, d + 1))
    arrays = {"bar_x": [idx] * K, "bar_y": [W[k].round(ND) for k in range(K)]}
    data = [{"type": "bar", "name": "w (the learner)", "x": idx, "y": [0] * d, "marker": {"color": COLORS["w"]},
             "hoverinfo": "x+y"}]
    if wstar is not None:
        data.append({"type": "scatter", "mode": "markers", "name": "w* (comparator, unit)", "x": idx,
                     "y": np.asarray(wstar, dtype=float).round(ND), "marker": {"color": COLORS["wstar"],
                                                                              "symbol": "line-ew-open", "size": 26,
                                                                              "line": {"width": 3}}})
    top = float(np.abs(W).max()) if W.size else 1.0
    layout = {"xaxis": {"title": {"text": "coordinate i"}, "dtick": 1, "fixedrange": True},
              "yaxis": {"title": {"text": "wᵢ"}, "range": [-1.05 * max(top, 1.0), 1.05 * max(top, 1.0)],
                        "fixedrange": True},
              "margin": {"l": 50, "r": 10, "t": 10, "b": 45}, "font": {"size": 14},
              "legend": {"orientation": "h", "y": 1.01, "yanchor": "bottom", "x": 0}}
    fig = {"id": "main", "title": title, "height": 420, "figure": {"data": data, "layout": layout},
           "config": {"displayModeBar": False}, "dynamic": [{"trace": 0, "op": "state", "x": "bar_x", "y": "bar_y"}]}
    return fig, arrays


# ------------------------------------------------------------------------------------------ sandwiches

def _extent(bound: float | None, K: int) -> float | None:
    """How far right to draw the proven bounds: to their crossing, unless that is far beyond the run."""
    if bound is None or not math.isfinite(bound):
        return None
    return bound * 1.08 if bound <= max(25.0, 6.0 * (K - 1)) else None


# ------------------------------------------------------------------------------------------ the spec

def perceptron_spec(trace, X, y, *, run_id: str, position: int = 0, title: str = "", use: str | None = None,
                    view: float | None = None) -> dict:
    """The viewer spec for a Perceptron run on ``(X, y)``.

    ``use``: "separable" (proofs A and B) or "nonseparable" (TD_γ and hinge proofs);
    default: separable when its assumptions hold.
    """
    X = np.asarray(X, dtype=np.float64)
    y = np.asarray(y, dtype=np.float64)
    T, d = X.shape
    if T != trace.T:
        raise ValueError("X does not match the trace")
    proof = trace.proof
    mode = use or ("separable" if proof.applies else "nonseparable")
    W = _weights_by_state(trace)
    K = W.shape[0]
    mistakes = np.asarray(trace.mistakes, dtype=np.int64)
    R = float(proof.constants["radius"])
    L = float(view) if view else max(1e-9, 1.12 * R)
    arrays: dict[str, Any] = {}

    if mode == "separable":
        sp = proof
        wstar = trace.info.get("comparator")
        gband = proof.constants.get("gamma") or 0.0
        fa = proof.failed_assumptions
        hl = None
        hl_name = ""
        if fa and len(fa[0].rounds) and d == 2:
            r = np.asarray(fa[0].rounds)
            hl = (r, X[r, 0].round(ND), X[r, 1].round(ND), np.ones(len(r), dtype=int))
            hl_name = "rounds where the assumption fails"
    else:
        sp = trace.proofs["nonseparable"]
        wstar = sp.constants.get("comparator")
        gband = sp.constants["gamma"]
        hinge = np.asarray(sp.constants["hinge"])
        r = np.flatnonzero(hinge > 0)
        hl = None
        hl_name = "hinge max(0, γ − y⟨w*,x⟩) > 0 (larger ring: larger term)"
        if len(r) and d == 2:
            h = hinge[r]
            rel = h / max(float(h.max()), 1e-300)
            hl = (r, X[r, 0].round(ND), X[r, 1].round(ND), np.digitize(rel, [1 / 3, 2 / 3]))

    title = title or "The stream and the Perceptron's hyperplane"
    if d == 2:
        main, a, scales = _main_2d(trace, X, y, wstar=wstar, gamma_band=gband, highlight=hl,
                                   highlight_name=hl_name, L=L, W=W, title=title)
    elif d == 3:
        main, a = _main_3d(trace, X, y, wstar=wstar, L=L, W=W, title=title)
        scales = None
    else:
        main, a = _main_bars(trace, wstar=wstar, W=W, title=title)
        scales = None
    arrays.update(a)

    figures = [main]
    S = sp.series
    ledger_lines = []
    if mode == "separable":
        g = proof.constants.get("gamma")
        bound = proof.mistake_bound
        ok_g = g is not None and g > 0 and math.isfinite(R) and R > 0
        ext = _extent(R * R / (g * g), K) if ok_g else None
        smooth_a = {"M_gamma": (lambda m: m * g), "sqrtM_R": (lambda m: np.sqrt(m) * R)} if ok_g and ext else None
        figures.append(_sandwich(
            "sandwich_A", "Proof A (norm potential): Mγ ≤ ⟨w*,w⟩ ≤ ‖w‖ ≤ √M·R", proof,
            ["M_gamma", "inner", "norm", "sqrtM_R"], ["Mγ", "⟨w*, w⟩", "‖w‖", "√M·R"],
            [COLORS["lower"], COLORS["inner"], COLORS["norm"], COLORS["upper"]], arrays,
            bound=(R * R / (g * g)) if ok_g else None, bound_label="R²/γ²", smooth=smooth_a, x_extent=ext, crossing=True))
        smooth_b = {"cos_lower": (lambda m: np.sqrt(m) * g / R), "one": (lambda m: np.ones_like(m))} \
            if ok_g and ext else None
        figures.append(_sandwich(
            "sandwich_B", "Proof B (cosine potential): √M·γ/R ≤ cos∠(w, w*) ≤ 1", proof,
            ["cos_lower", "cosine", "one"], ["√M·γ/R", "cos∠(w, w*)", "1"],
            [COLORS["lower"], COLORS["inner"], COLORS["upper"]], arrays,
            bound=(R * R / (g * g)) if ok_g else None, bound_label="R²/γ²", smooth=smooth_b, x_extent=ext, crossing=True))
        vals = {"M": _state(np.arange(K), "d"), "gamma": _const(g, ".4g"), "R": _const(R, ".4g"),
                "Mg": _state(S["M_gamma"]), "inner": _state(S["inner"]), "norm": _state(S["norm"]),
                "sMR": _state(S["sqrtM_R"]), "cl": _state(S["cos_lower"]), "cos": _state(S["cosine"])}
        reasons = {ch.name: ch.reasons for ch in proof.chains}
        rA = reasons["norm potential (A)"]
        rB = reasons["cosine potential (B)"]
        ledger_lines += [
            {"latex": r"M\gamma = «M»\cdot«gamma» = «Mg» \;\le\; \langle w^*, w\rangle = «inner»",
             "values": {k: vals[k] for k in ("M", "gamma", "Mg", "inner")},
             "holds": {"by": "state", "data": _holds(proof, [("M_gamma", "inner")])}, "reason": "A. " + rA[0]},
            {"latex": r"\langle w^*, w\rangle = «inner» \;\le\; \lVert w\rVert = «norm»",
             "values": {k: vals[k] for k in ("inner", "norm")},
             "holds": {"by": "state", "data": _holds(proof, [("inner", "norm")])}, "reason": "A. " + rA[1]},
            {"latex": r"\lVert w\rVert = «norm» \;\le\; \sqrt{M}\,R = \sqrt{«M»}\cdot«R» = «sMR»",
             "values": {k: vals[k] for k in ("norm", "M", "R", "sMR")},
             "holds": {"by": "state", "data": _holds(proof, [("norm", "sqrtM_R")])}, "reason": "A. " + rA[2]},
            {"latex": r"\sqrt{M}\,\gamma/R = «cl» \;\le\; \cos\angle(w, w^*) = «cos» \;\le\; 1",
             "values": {k: vals[k] for k in ("cl", "cos")},
             "holds": {"by": "state", "data": _holds(proof, [("cos_lower", "cosine"), ("cosine", "one")])},
             "reason": "B. " + rB[0] + "; " + rB[1]},
        ]
        if bound is not None:
            ledger_lines.append({
                "latex": r"M\gamma \le \sqrt{M}R \;\Rightarrow\; M = «M» \;\le\; R^2/\gamma^2 = «bound»",
                "values": {"M": vals["M"], "bound": _const(bound, ".5g")},
                "holds": {"by": "state", "data": _holds(proof, [("M", "mistake_bound")])},
                "reason": "the outer bounds cross at M = R²/γ²: no run can make more mistakes"})
        else:
            why = "; ".join(f"{a.name}: {a.detail}" for a in proof.failed_assumptions)
            ledger_lines.append({"latex": r"M \le R^2/\gamma^2 \;\text{does not apply}",
                                 "reason": f"an assumption of the theorem fails ({why})"})
    else:
        hp = trace.proofs["hinge"]
        g = sp.constants["gamma"]
        bound = sp.mistake_bound
        ext = _extent(bound, K)
        figures.append(_sandwich(
            "sandwich_A", f"TD_γ proof (γ = {g:.3g}): γM − TD_γ ≤ ⟨w*,w⟩ ≤ ‖w‖ ≤ √M·R", sp,
            ["td_lower", "inner", "norm", "sqrtM_R"], ["γM − TD_γ", "⟨w*, w⟩", "‖w‖", "√M·R"],
            [COLORS["lower"], COLORS["inner"], COLORS["norm"], COLORS["upper"]], arrays,
            bound=bound, bound_label="R²/γ² + 2TD_γ/γ", x_extent=ext))
        figures.append(_sandwich(
            "sandwich_B", "Hinge-loss proof, u = w*/γ: M − L(u) ≤ ⟨u,w⟩ ≤ ‖u‖‖w‖ ≤ ‖u‖R√M", hp,
            ["hinge_lower", "inner_u", "norm_u", "upper_u"], ["M − L(u)", "⟨u, w⟩", "‖u‖‖w‖", "‖u‖R√M"],
            [COLORS["lower"], COLORS["inner"], COLORS["norm"], COLORS["upper"]], arrays,
            bound=hp.mistake_bound, bound_label="L + a√L + a²", x_extent=_extent(hp.mistake_bound, K)))
        figures.append(_td_curve_figure(sp, trace.n_mistakes))
        # both proofs are checked before every round (TD_γ grows between mistakes): values per position
        vals = {"M": _pval(sp, sp.n_mistakes, "d"), "gamma": _const(g, ".4g"), "R": _const(R, ".4g"),
                "TD": _pval(sp, S["TD"]), "lo": _pval(sp, S["td_lower"]), "inner": _pval(sp, S["inner"]),
                "norm": _pval(sp, S["norm"]), "sMR": _pval(sp, S["sqrtM_R"]),
                "hl": _pval(hp, hp.series["hinge_lower"]), "iu": _pval(hp, hp.series["inner_u"]),
                "nu": _pval(hp, hp.series["norm_u"]), "uu": _pval(hp, hp.series["upper_u"]),
                "L": _pval(hp, hp.series["L"])}
        rT = sp.chains[0].reasons
        ledger_lines += [
            {"latex": r"\gamma M - \mathrm{TD}_\gamma = «gamma»\cdot«M» - «TD» = «lo» \;\le\; "
                      r"\langle w^*, w\rangle = «inner»",
             "values": {k: vals[k] for k in ("gamma", "M", "TD", "lo", "inner")},
             "holds": _holds_value(sp, [("td_lower", "inner")]), "reason": rT[0]},
            {"latex": r"\langle w^*, w\rangle = «inner» \;\le\; \lVert w\rVert = «norm» \;\le\; "
                      r"\sqrt{M}\,R = «sMR»",
             "values": {k: vals[k] for k in ("inner", "norm", "sMR")},
             "holds": _holds_value(sp, [("inner", "norm"), ("norm", "sqrtM_R")]),
             "reason": f"{rT[1]}; {rT[2]}"},
            {"latex": r"M = «M» \;\le\; R^2/\gamma^2 + (2/\gamma)\,\mathrm{TD}_\gamma = «bound»",
             "values": {"M": vals["M"], "bound": _const(bound, ".5g")},
             "holds": _holds_value(sp, [("M", "mistake_bound")]),
             "reason": "solve γM − TD ≤ R√M for M (TD_γ over the whole run)"},
            {"latex": r"M - L(u) = «hl» \;\le\; \langle u, w\rangle = «iu» \;\le\; \lVert u\rVert\lVert w\rVert "
                      r"= «nu» \;\le\; \lVert u\rVert R\sqrt{M} = «uu»",
             "values": {k: vals[k] for k in ("hl", "iu", "nu", "uu")},
             "holds": _holds_value(hp, [("hinge_lower", "inner_u"), ("inner_u", "norm_u"),
                                        ("norm_u", "upper_u")]),
             "reason": "hinge-loss form [002] with u = w*/γ"},
            {"latex": r"M = «M» \;\le\; L(u) + a\sqrt{L(u)} + a^2 = «hb»",
             "values": {"M": vals["M"], "hb": _const(hp.mistake_bound, ".5g")},
             "holds": _holds_value(hp, [("M", "mistake_bound")]),
             "reason": f"a = ‖u‖R = {hp.constants['a']:.4g}, L(u) = {hp.constants['L']:.4g} over the whole run"},
        ]
    ledger = {"title": "Proof ledger at this round", "lines": _ledger(ledger_lines)}

    # caption
    score = np.asarray(trace.columns["score"])
    pred = np.asarray(trace.predictions)
    is_m = np.asarray(trace.columns["is_mistake"]).astype(int)
    cvals = {
        "y": {"by": "round", "data": np.where(y > 0, 1, -1), "fmt": "+d"},
        "score": {"by": "round", "data": sig(score), "fmt": "+.4g"},
        "yhat": {"by": "round", "data": (np.sign(pred).astype(int) + 1), "fmt": "text",
                 "labels": ["−1", "0 (on the line: a mistake)", "+1"]},
        "what": {"by": "round", "data": is_m, "fmt": "text", "labels": ["correct, no update",
                                                                          "MISTAKE → w ← w + y·x"]},
    }
    template = "Round {t} of {T}: y = {y}, w·x = {score}, ŷ = {yhat} → {what}. Mistakes so far M = {k}."
    if scales is not None:
        cvals["scale"] = {"by": "round", "data": _scale_per_round(mistakes, scales, T), "fmt": "text",
                          "labels": ["", " (arrows drawn at reduced scale)"]}
        template = template[:-1] + "{scale}."
    caption = {"template": template, "start": "Round 0 of {T}: nothing seen yet, w = 0. Press Next or Play.",
               "values": cvals}
    side = [f["id"] for f in figures[1:] if f["id"] != "td_curve"] + ["ledger"]
    left = ["main"] + [f["id"] for f in figures if f["id"] == "td_curve"]
    spec = {
        "version": 1, "run_id": run_id, "T": int(T), "position": int(position), "url_param": "t",
        "breaks": mistakes + 1, "mistake_rounds": mistakes, "arrays": arrays, "figures": figures,
        "ledger": ledger, "caption": caption,
        "layout": {"columns": [left, side], "widths": [1.1, 1]},
        "speed": int(max(2, min(500, T // 30))),
    }
    return jsonable(spec)


def _td_curve_figure(ns, n_mistakes: int) -> dict:
    """The TD_γ bound and the hinge-form bound as functions of γ (static), with the γ used and the best γ."""
    from olc_core.proofs.perceptron import td_bounds

    c = ns.constants
    g_used, g_best, b_best = float(c["gamma"]), float(c["best_gamma"]), float(c["best_bound"])
    R = float(c["radius"])
    # γ ∈ (0, R]: no unit w* has a margin above R (a γ asked above R is still drawn)
    hi = max(R, g_used) if math.isfinite(R) and R > 0 else max(3 * g_best, 1.5 * g_used)
    lo = max(min(hi / 400, g_used / 2, g_best / 2), hi * 1e-6)
    gammas = np.geomspace(lo, hi, 300)
    cur = td_bounds(np.asarray(c["margins"]), c["radius"], gammas)
    ymax = float(min(np.nanmax(cur["td_bound"]), 4 * max(b_best, n_mistakes, 1)))
    data = [
        {"type": "scatter", "mode": "lines", "name": "R²/γ² + 2·TD_γ/γ", "x": gammas.round(6),
         "y": sig(cur["td_bound"], 6), "line": {"color": COLORS["upper"], "width": 2.5},
         "hovertemplate": "γ = %{x:.4g}: bound %{y:.5g}<extra></extra>"},
        {"type": "scatter", "mode": "lines", "name": "L + a√L + a² (u = w*/γ)", "x": gammas.round(6),
         "y": sig(cur["hinge_bound"], 6), "line": {"color": COLORS["lower"], "width": 2, "dash": "dash"},
         "hovertemplate": "γ = %{x:.4g}: hinge bound %{y:.5g}<extra></extra>"},
        {"type": "scatter", "mode": "lines", "name": f"mistakes made M = {n_mistakes}", "x": [gammas[0], gammas[-1]],
         "y": [n_mistakes, n_mistakes], "line": {"color": "#444", "width": 1.5, "dash": "dot"}, "hoverinfo": "skip"},
        {"type": "scatter", "mode": "markers", "name": f"γ used = {g_used:.4g}", "x": [g_used],
         "y": [ns.mistake_bound], "marker": {"size": 12, "color": "#111"},
         "hovertemplate": "γ used %{x:.4g}: bound %{y:.5g}<extra></extra>"},
        {"type": "scatter", "mode": "markers", "name": f"best γ = {g_best:.4g}", "x": [g_best], "y": [b_best],
         "marker": {"size": 14, "symbol": "star", "color": COLORS["upper"]},
         "hovertemplate": "best γ %{x:.4g}: bound %{y:.5g}<extra></extra>"},
    ]
    layout = {"xaxis": {"title": {"text": "γ, the margin asked of the comparator w* (up to R)"}, "type": "log",
                        "gridcolor": "#efefef"},
              "yaxis": {"title": {"text": "mistake bound"}, "range": [0, ymax], "gridcolor": "#efefef"},
              "margin": {"l": 55, "r": 10, "t": 10, "b": 45}, "font": {"size": 14},
              "legend": {"orientation": "h", "y": 1.02, "yanchor": "bottom", "x": 0, "font": {"size": 12}},
              "plot_bgcolor": "#ffffff", "paper_bgcolor": "#ffffff"}
    return {"id": "td_curve", "title": "Which γ gives the smallest bound? (the same run, every γ up to R)", "height": 330,
            "figure": {"data": data, "layout": layout}, "config": {"displayModeBar": False}, "dynamic": []}


def _scale_per_round(mistakes: np.ndarray, scales: list[float], T: int) -> np.ndarray:
    out = np.zeros(T, dtype=int)
    for m, s in zip(mistakes, scales):
        out[m] = 1 if s < 0.999 else 0
    return out


def margin_perceptron_spec(trace, *, run_id: str, position: int = 0, title: str = "") -> dict:
    """The viewer spec for a Margin Perceptron run (2-D, examples normalised to the unit circle)."""
    Xh = np.asarray(trace.info["examples"], dtype=float)
    n, d = Xh.shape
    if d != 2:
        raise ValueError("the Margin Perceptron lesson draws 2-D data")
    ex = np.asarray(trace.columns["example"])
    X = Xh[ex]
    p = trace.proof
    gamma = float(trace.info["gamma"])
    y_ex = None
    # labels per presentation: from the sign convention of the run (y·x was added at updates)
    y = np.asarray(trace.info["labels"], dtype=float)[ex]
    _ = y_ex
    W = _weights_by_state(trace)
    K = W.shape[0]
    L = 1.15
    wstar = trace.info.get("comparator")
    hl = None
    fa = p.failed_assumptions
    if fa and len(fa[0].rounds):
        bad_ex = np.unique(ex[np.asarray(fa[0].rounds)])
        hl = (bad_ex, Xh[bad_ex, 0].round(ND), Xh[bad_ex, 1].round(ND), np.ones(len(bad_ex), dtype=int))

    def band(w):
        nw = float(np.hypot(*w))
        if nw == 0:
            return None
        return _band(w, gamma / 2, L)

    main, arrays, scales = _main_2d(trace, X, y, wstar=wstar, gamma_band=gamma if wstar is not None else 0.0,
                                    highlight=hl, highlight_name="examples with margin below γ", L=L, W=W,
                                    title=title or "Margin Perceptron on the unit circle", band_fn=band)
    kind = np.asarray(trace.columns["kind"])
    mm = np.flatnonzero(kind == 1)
    arrays["r_mm"] = mm
    arrays["x_mm"] = X[mm, 0].round(ND)
    arrays["y_mm"] = X[mm, 1].round(ND)
    main["figure"]["data"].append(_pts("margin mistakes so far", COLORS["margin"], "diamond-open", 13,
                                       line={"width": 2, "color": COLORS["margin"]}))
    main["dynamic"].append({"trace": len(main["figure"]["data"]) - 1, "op": "rows_before", "render": "canvas",
                            "rounds": "r_mm", "x": "x_mm", "y": "y_mm"})
    S = p.series
    bound = p.mistake_bound
    figures = [main]
    figures.append(_sandwich(
        "sandwich_A", "Uγ ≤ ⟨w*,w⟩ ≤ ‖w‖ ≤ 1 + 2/γ + 3Uγ/4 (U: updates, the first included)", p,
        ["U_gamma", "inner", "norm", "norm_upper"], ["Uγ", "⟨w*, w⟩", "‖w‖", "1 + 2/γ + 3Uγ/4"],
        [COLORS["lower"], COLORS["inner"], COLORS["norm"], COLORS["upper"]], arrays,
        bound=bound, bound_label="12/γ²", x_extent=_extent(bound, K), x_title="updates U",
        bound_note=None if bound is None else
        f"the curves cross at U = 4/γ + 8/γ² = {p.constants['bound_tight']:.4g} ≤ 12/γ² = {bound:.4g} →"))
    r = p.chains[0].reasons
    vals = {"U": _state(np.arange(K), "d"), "gamma": _const(gamma), "Ug": _state(S["U_gamma"]),
            "inner": _state(S["inner"]), "norm": _state(S["norm"]), "up": _state(S["norm_upper"])}
    lines = [
        {"latex": r"U\gamma = «U»\cdot«gamma» = «Ug» \;\le\; \langle w^*, w\rangle = «inner»",
         "values": {k: vals[k] for k in ("U", "gamma", "Ug", "inner")},
         "holds": {"by": "state", "data": _holds(p, [("U_gamma", "inner")])}, "reason": r[0]},
        {"latex": r"\langle w^*, w\rangle = «inner» \;\le\; \lVert w\rVert = «norm»",
         "values": {k: vals[k] for k in ("inner", "norm")},
         "holds": {"by": "state", "data": _holds(p, [("inner", "norm")])}, "reason": r[1]},
        {"latex": r"\lVert w\rVert = «norm» \;\le\; 1 + 2/\gamma + 3U\gamma/4 = «up»",
         "values": {k: vals[k] for k in ("norm", "up")},
         "holds": {"by": "state", "data": _holds(p, [("norm", "norm_upper")])}, "reason": r[2]},
    ]
    if bound is not None:
        lines.append({"latex": r"U = «U» \;\le\; 12/\gamma^2 = «bound»",
                      "values": {"U": vals["U"], "bound": _const(bound, ".5g")},
                      "holds": {"by": "state", "data": _holds(p, [("M", "mistake_bound")])},
                      "reason": "Uγ ≤ 1 + 2/γ + 3Uγ/4 gives U ≤ 4/γ + 8/γ² ≤ 12/γ² (γ ≤ 1)"})
    else:
        lines.append({"latex": r"U \le 12/\gamma^2 \;\text{does not apply}",
                      "reason": "; ".join(a.detail for a in p.failed_assumptions)})
    score = np.asarray(trace.columns["score"])
    kinds = ["correct", "MARGIN MISTAKE (|s| < γ/2) → update", "MISTAKE → update", "first example: w = y·x"]
    caption = {
        "template": "Presentation {t} of {T} (pass {pass}, example {ex}): y = {y}, s = w·x/‖w‖ = {s} → {what}. "
                    "Updates so far U = {k}.",
        "start": "Nothing seen yet. Press Next or Play.",
        "values": {"pass": {"by": "round", "data": np.asarray(trace.columns["pass"]) + 1, "fmt": "d"},
                   "ex": {"by": "round", "data": ex + 1, "fmt": "d"},
                   "y": {"by": "round", "data": np.where(y > 0, 1, -1), "fmt": "+d"},
                   "s": {"by": "round", "data": score, "fmt": "+.4f"},
                   "what": {"by": "round", "data": kind.astype(int), "fmt": "text", "labels": kinds}},
    }
    mistakes = np.asarray(trace.mistakes, dtype=np.int64)
    caption["values"]["scale"] = {"by": "round", "data": _scale_per_round(mistakes, scales, trace.T), "fmt": "text",
                                  "labels": ["", " (arrows drawn at reduced scale)"]}
    caption["template"] = caption["template"][:-1] + "{scale}."
    spec = {
        "version": 1, "run_id": run_id, "T": int(trace.T), "position": int(position), "url_param": "t",
        "breaks": mistakes + 1, "mistake_rounds": mistakes, "extra_stops": {"margin mistake": mm},
        "arrays": arrays, "figures": figures, "ledger": {"title": "Proof ledger at this round", "lines": _ledger(lines)},
        "caption": caption, "layout": {"columns": [["main"], ["sandwich_A", "ledger"]], "widths": [1.1, 1]},
        "speed": int(max(2, min(300, trace.T // 30))),
    }
    return jsonable(spec)
