"""The Perceptron lessons' main chart (pure): the plane with the stream, the comparator, the learner's
hyperplane and, at a mistake, the update as arrows tip to tail (d = 2); a 3-D view (d = 3); the weight
vector as bars (larger d). Drawing geometry only (where a line crosses the view, how to scale arrows to
fit): every number comes from the run.

The 2-D chart is built one layer at a time (points, comparator, rings, learner, update) and its legend is
folded into at most six entries (:func:`olc_ui.shared.spec_tools.legend_groups`): one click on an entry shows or
hides its whole group.
"""
from __future__ import annotations

import math
from typing import Any

import numpy as np

from olc_ui.shared.spec_tools import COLORS, ND, arrow_trace as _arrow, legend_groups, legend_rank, line_trace as _line
from olc_ui.shared.spec_tools import points_trace as _pts

__all__ = ["clip_line", "chords", "point_style"]


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

def _arrow_arrays(W: np.ndarray, L: float, arrays: dict) -> tuple[str, dict[str, list[float]]]:
    """The current w as an arrow from the origin, and the update at a mistake (wₜ, yₜxₜ, wₜ₊₁ tip to
    tail), scaled together to fit the view. No arrow where the vector is 0 (w = 0 before the first
    mistake: an arrowhead alone at the origin would mean nothing)."""
    K = W.shape[0]
    n = np.hypot(W[:, 0], W[:, 1])
    with np.errstate(divide="ignore"):
        s = np.where(n > 0, np.minimum(1.0, 0.9 * L / np.where(n > 0, n, 1.0)), 1.0)
    tip = (W * s[:, None]).round(ND)
    arrays["w_x"] = [[0.0, float(tip[k, 0])] if n[k] > 0 else None for k in range(K)]
    arrays["w_y"] = [[0.0, float(tip[k, 1])] if n[k] > 0 else None for k in range(K)]
    w0, w1 = W[:-1], W[1:]
    n0 = np.hypot(w0[:, 0], w0[:, 1])
    big = np.maximum.reduce([n0, np.hypot(w1[:, 0], w1[:, 1]), np.hypot(*(w1 - w0).T), np.full(K - 1, 1e-300)])
    sc = np.minimum(1.0, 0.9 * L / big)
    a0, a1 = (w0 * sc[:, None]).round(ND), (w1 * sc[:, None]).round(ND)
    arrays["aw_x"] = [[0.0, float(a0[j, 0])] if n0[j] > 0 else None for j in range(K - 1)]
    arrays["aw_y"] = [[0.0, float(a0[j, 1])] if n0[j] > 0 else None for j in range(K - 1)]
    arrays["ax_x"], arrays["ax_y"] = np.stack([a0[:, 0], a1[:, 0]], 1), np.stack([a0[:, 1], a1[:, 1]], 1)
    z = np.zeros(K - 1)
    arrays["an_x"], arrays["an_y"] = np.stack([z, a1[:, 0]], 1), np.stack([z, a1[:, 1]], 1)
    w_name = "w (arrows scaled to fit)" if (s < 0.999).any() or (sc < 0.999).any() else "w"
    return w_name, {"update": sc.tolist(), "state": s.tolist()}


def point_style(T: int) -> dict[str, tuple[float, float]]:
    """(size, opacity) of the stream's points: smaller and fainter as T grows, so that T = 10⁴ points
    read as a cloud with its two labels, never as a solid smear.

    >>> point_style(200)["seen"], point_style(10_000)["seen"]
    ((7, 0.95), (3.5, 0.4))
    """
    if T <= 1000:
        return {"seen": (7, 0.95), "unseen": (6, 0.6)}
    if T <= 3000:
        return {"seen": (5, 0.6), "unseen": (4, 0.35)}
    return {"seen": (3.5, 0.4), "unseen": (3, 0.22)}


def _points_layer(T: int, data: list, dynamic: list) -> None:
    st = point_style(T)
    layers = [("not seen yet, y = +1", "pos_faint", "circle", "unseen", False, "pos", "rows_all", "pos"),
              ("not seen yet, y = −1", "neg_faint", "x", "unseen", False, "neg", "rows_all", "neg"),
              ("seen, y = +1", "pos", "circle", "seen", True, "pos", "rows_before", "pos"),
              ("seen, y = −1", "neg", "x", "seen", True, "neg", "rows_before", "neg")]
    for name, color, symbol, kind, legend, group, op, nm in layers:
        size, opacity = st[kind]
        data.append(_pts(name, COLORS[color], symbol, size, opacity, legend=legend, group=group))
        dynamic.append({"trace": len(data) - 1, "op": op, "render": "canvas", "rounds": f"r_{nm}", "x": f"x_{nm}",
                        "y": f"y_{nm}"})


#: w*'s arrow: its direction, drawn 0.35 of the view's half-width long whatever the scale (it was named "w* (unit)"
#: while drawn about 0.5 long: a student measured it)
WSTAR_ARROW = "w* (its direction; not to scale)"


def _comparator_layer(wstar, gamma_band: float, L: float, data: list) -> str:
    """w*·x = 0, its margin band and w*'s direction as an arrow (static); the legend entry's name."""
    if wstar is None:
        return ""
    name = "comparator: w*·x = 0, w*"
    band = _band(wstar, gamma_band, L) if gamma_band and gamma_band > 0 else None
    if band is not None:
        data.append({"type": "scatter", "mode": "lines", "name": f"margin band |⟨w*,x⟩| < γ = {gamma_band:.3g}",
                     "x": band[0], "y": band[1], "fill": "toself", "fillcolor": COLORS["band"],
                     "line": {"width": 0}, "hoverinfo": "skip"})
        name += f", band |⟨w*,x⟩| < γ = {gamma_band:.3g}"
    star = clip_line(wstar, L)
    if star is not None:
        data.append(_line("w*·x = 0 (comparator)", COLORS["wstar"], 2, "dash", x=star[0], y=star[1]))
        u = np.asarray(wstar, dtype=float) / np.linalg.norm(wstar) * 0.35 * L
        xs, ys = _seg(0, 0, *u)
        data.append({**_arrow(WSTAR_ARROW, COLORS["wstar"], 2), "x": xs, "y": ys,
                     "marker": {"symbol": "arrow", "angleref": "previous", "size": [0, 12], "color": COLORS["wstar"]}})
    return name


def _ring_layer(highlight, name: str, arrays: dict, data: list, dynamic: list) -> None:
    """Rounds marked by pink squares (a failed assumption, or a positive hinge term: size by size class; squares,
    not the mistakes' circles, so the two read apart without colour), a
    static layer on the viewer's canvas (thousands of SVG rings would be repainted at every step)."""
    if highlight is None or not len(highlight[0]):
        return
    hr, hx, hy, hc = highlight
    for c, size in enumerate((9, 14, 20)):
        m = np.asarray(hc) == c
        if not m.any():
            continue
        arrays[f"hl{c}_r"], arrays[f"hl{c}_x"], arrays[f"hl{c}_y"] = hr[m], hx[m], hy[m]
        data.append(_pts(name, COLORS["bad"], "square-open", size, 0.6, line={"width": 1.5, "color": COLORS["bad"]}))
        dynamic.append({"trace": len(data) - 1, "op": "rows_all", "render": "canvas", "rounds": f"hl{c}_r",
                        "x": f"hl{c}_x", "y": f"hl{c}_y"})


#: the update's three arrows told apart without their colours (WCAG 1.4.1): a line style, an arrowhead and a
#: label at the tip each — wₜ dotted with an open head, yₜ·xₜ solid, wₜ₊₁ dashed with a wide head
UPDATE_ARROWS = {"wt": ("dot", "arrow-open", "wₜ", "top left"), "yx": ("solid", "arrow", "", ""),
                 "wnext": ("dash", "arrow-wide", "wₜ₊₁", "top right")}


def _update_arrow(name: str, kind: str) -> dict:
    dash, head, label, where = UPDATE_ARROWS[kind]
    t = _arrow(name, COLORS[kind])
    t["line"] = {**t["line"], "dash": dash}
    t["marker"] = {**t["marker"], "symbol": head, "line": {"width": 2, "color": COLORS[kind]}}
    if label:  # the label at the tip (the second point); the update's arrow ends where wₜ₊₁ does: no label
        t.update(mode="lines+markers+text", text=["", label], textposition=where,
                 textfont={"size": 15, "color": "#111111"})
    return t


def _learner_layer(w_name: str, band: bool, data: list, dynamic: list) -> None:
    """Mistake rings so far, the last five hyperplanes, (the ±γ/2 band), w·x = 0, w, the update arrows and
    the current example: the traces the viewer updates at every step."""
    layers = [
        (_pts("mistake rounds so far", COLORS["mistake"], "circle-open", 11, 0.8,
              line={"width": 1.5, "color": COLORS["mistake"]}),
         {"op": "rows_before", "render": "canvas", "rounds": "r_mis", "x": "x_mis", "y": "y_mis"}),
        (_line("last 5 w·x = 0", COLORS["old"], 1.5, "dot", opacity=0.8),
         {"op": "state_window", "x": "hp_x", "y": "hp_y", "back": 5})]
    if band:
        layers.append(({"type": "scatter", "mode": "lines", "name": "band ±γ/2 around w·x = 0", "x": [], "y": [],
                        "fill": "toself", "fillcolor": "rgba(177,95,216,0.12)", "hoverinfo": "skip",
                        "line": {"width": 1, "color": COLORS["margin"], "dash": "dot"}},
                       {"op": "state", "x": "bd_x", "y": "bd_y"}))
    layers += [
        (_line("w·x = 0 (the learner)", COLORS["w"], 3.5), {"op": "state", "x": "hp_x", "y": "hp_y"}),
        ({**_arrow(w_name, COLORS["w"], 1.5), "opacity": 0.5}, {"op": "state", "x": "w_x", "y": "w_y"}),
        (_update_arrow("wₜ (before)", "wt"), {"op": "on_mistake", "x": "aw_x", "y": "aw_y"}),
        (_update_arrow("yₜ·xₜ (the update)", "yx"), {"op": "on_mistake", "x": "ax_x", "y": "ax_y"}),
        (_update_arrow("wₜ₊₁ (after)", "wnext"), {"op": "on_mistake", "x": "an_x", "y": "an_y"}),
        (_pts("current, y = +1", COLORS["pos"], "circle", 18, 1.0, legend=False, line={"color": "#000", "width": 2.5}),
         {"op": "row_current", "rounds": "r_pos", "x": "x_pos", "y": "y_pos"}),
        (_pts("current, y = −1", COLORS["neg"], "x", 18, 1.0, legend=False, line={"color": "#000", "width": 1.5}),
         {"op": "row_current", "rounds": "r_neg", "x": "x_neg", "y": "y_neg"})]
    for tr, op in layers:
        data.append(tr)
        dynamic.append({"trace": len(data) - 1, **op})


MANY_MISTAKES = 150   # beyond this many, the mistake rings start hidden (one click shows them)


def _fold_legend(data: list, *, w_name: str, band: bool, comparator: str, ring_name: str, n_mistakes: int,
                 extra_rings: tuple[str, str] = ("", "")) -> None:
    """At most six legend entries: seen +1, seen −1, the learner, the update, the comparator, the rings."""
    learner = ["w·x = 0 (the learner)", w_name, "last 5 w·x = 0"] + (["band ±γ/2 around w·x = 0"] if band else [])
    rings = ["mistake rounds so far"] + ([extra_rings[0]] if extra_rings[0] else []) + ([ring_name] if ring_name else [])
    ring_text = "rings: mistakes so far" + (f", {extra_rings[1]}" if extra_rings[0] else "") + \
        ("<br>pink squares: " + ring_name if ring_name else "")
    groups = [
        {"id": "learner", "members": learner, "style": {"mode": "lines", "line": {"color": COLORS["w"], "width": 3.5}},
         "name": "the learner: w·x = 0 and w" + (", band ±γ/2" if band else "") + " (dotted: the last 5)"},
        {"id": "update", "members": ["wₜ (before)", "yₜ·xₜ (the update)", "wₜ₊₁ (after)"],
         "style": {"mode": "lines", "line": {"color": COLORS["yx"], "width": 3}},
         "name": "at a mistake: wₜ (dotted) + yₜ·xₜ (solid) = wₜ₊₁ (dashed)"},
        {"id": "comparator", "members": ["w*·x = 0 (comparator)", WSTAR_ARROW] + [
            t["name"] for t in data if t.get("name", "").startswith("margin band")],
         "style": {"mode": "lines", "line": {"color": COLORS["wstar"], "width": 2, "dash": "dash"}}, "name": comparator},
        {"id": "rings", "members": rings, "hidden": n_mistakes > MANY_MISTAKES, "name": ring_text,
         "style": {"mode": "markers", "marker": {"symbol": "circle-open", "size": 11, "color": COLORS["mistake"],
                                                 "line": {"width": 1.5}}}},
    ]
    legend_groups(data, [g for g in groups if g["name"]])
    legend_rank(data, ["seen, y = +1", "seen, y = −1"])


def _main_2d(trace, X, y, *, wstar, gamma_band, highlight, highlight_name, L, W, title, band_fn=None,
             extra=None):
    """The plane: the stream (not seen yet / seen / current), the comparator and its margin band, rings,
    the learner's hyperplane with the five before it, and at a mistake the update's arrows.
    ``extra``: (trace, op, ring legend text) for one more ring layer (the margin mistakes)."""
    mistakes = np.asarray(trace.mistakes)
    pos, neg = np.flatnonzero(y > 0), np.flatnonzero(y <= 0)
    arrays: dict[str, Any] = {
        "r_pos": pos, "x_pos": X[pos, 0].round(ND), "y_pos": X[pos, 1].round(ND),
        "r_neg": neg, "x_neg": X[neg, 0].round(ND), "y_neg": X[neg, 1].round(ND),
        "r_mis": mistakes, "x_mis": X[mistakes, 0].round(ND), "y_mis": X[mistakes, 1].round(ND),
    }
    arrays["hp_x"], arrays["hp_y"] = chords(W, L)
    if band_fn is not None:  # the margin perceptron's ±γ/2 band around the current hyperplane
        bands = [band_fn(W[k]) for k in range(W.shape[0])]
        arrays["bd_x"] = [b[0] if b else None for b in bands]
        arrays["bd_y"] = [b[1] if b else None for b in bands]
    w_name, scale = _arrow_arrays(W, L, arrays)
    data: list[dict] = []
    dynamic: list[dict] = []
    _points_layer(int(trace.T), data, dynamic)
    _ring_layer(highlight, highlight_name, arrays, data, dynamic)
    comparator = _comparator_layer(wstar, gamma_band, L, data)
    _learner_layer(w_name, band_fn is not None, data, dynamic)
    extra_rings = ("", "")
    if extra is not None:
        tr, op, text = extra
        data.append(tr)
        dynamic.append({"trace": len(data) - 1, **op})
        extra_rings = (tr["name"], text)
    _fold_legend(data, w_name=w_name, band=band_fn is not None, comparator=comparator,
                 ring_name=highlight_name if highlight is not None and len(highlight[0]) else "",
                 n_mistakes=len(mistakes), extra_rings=extra_rings)
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

    # gl3d draws a marker as a character of the page's fonts: "x" is U+274C, an emoji (a tofu box where no emoji
    # font is installed, a red emoji whatever the colour where one is); the −1 points are squares (U+25A0)
    def p3(name, color, symbol, size, opacity=1.0, legend=True):
        return {"type": "scatter3d", "mode": "markers", "name": name, "x": [], "y": [], "z": [],
                "marker": {"color": color, "symbol": symbol, "size": size, "opacity": opacity},
                "showlegend": legend, "hoverinfo": "skip"}
    data = [
        p3("not seen yet, y = +1", COLORS["pos_faint"], "circle", 2.5, 0.5),
        p3("not seen yet, y = −1", COLORS["neg_faint"], "square", 2.5, 0.6),
        p3("seen, y = +1", COLORS["pos"], "circle", 3.5),
        p3("seen, y = −1", COLORS["neg"], "square", 3.5),
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
    for t in data:  # six entries: the unseen points join their label's entry, w the learner's plane
        grp = {"not seen yet, y = +1": "pos", "seen, y = +1": "pos", "not seen yet, y = −1": "neg",
               "seen, y = −1": "neg", "w·x = 0 (the learner)": "learner", "w": "learner"}.get(t["name"])
        if grp:
            t["legendgroup"] = grp
        if t["name"] in ("not seen yet, y = +1", "not seen yet, y = −1", "w"):
            t["showlegend"] = False
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


def _scale_per_round(mistakes: np.ndarray, scales: dict[str, list[float]], T: int) -> np.ndarray:
    """1 on each round (0-based) whose drawn arrows are shortened to fit the view: the update's on a mistake, or the
    weights' after the round (state k = the mistakes up to it: docs/viewer-spec.md). Counting the update's alone, a
    caption said nothing at a round whose w arrow was shortened (a student's reading)."""
    out = np.zeros(T, dtype=int)
    for m, s in zip(mistakes, scales["update"]):
        out[m] = 1 if s < 0.999 else 0
    state = np.asarray(scales["state"], dtype=float)
    hit = np.zeros(T, dtype=int)
    hit[np.asarray(mistakes, dtype=int)] = 1
    out |= (state[np.cumsum(hit)] < 0.999).astype(int)
    return out
