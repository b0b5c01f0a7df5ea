r"""Step-viewer specs for the exponentiated-update lesson (normalised Winnow; pure: a trace in, a JSON dict out).

Everything drawn comes from the run ``olc_core.run("normalized_winnow", X, y, …)``: the
weights ``trace.weights_at(p)`` (a probability vector), the comparator ``u``
(``trace.info["comparator"]``), the per-round columns ``score`` (⟨wₜ, xₜ⟩, exactly 0.0
on a tie, which the core decides in exact arithmetic) and ``comparator_margin``
(yₜ⟨u, xₜ⟩), the proof's series (``kl``, ``kl_upper``, ``lnN_upper``, ``C``, …), its
constants (``C``, ``ln_N``, ``phi_1``, ``eta_optimal``, ``eta_max``, the bounds) and
its own per-state checks (``proof.check_matrix()``). The view draws; it derives no
maths. The one curve drawn beyond the run, C as a function of η, is the core's own
:func:`olc_core.proofs.normalized_winnow.C_of` evaluated on a grid.

Figures (ids):

* ``weights`` — the weights wₜ as bars (they sum to 1) and the comparator u as diamonds.
* ``margins`` — per round, the comparator's margin yₜ⟨u, xₜ⟩ (≥ δ, the dashed line, when
  the margin assumption holds) and the learner's yₜ⟨wₜ, xₜ⟩, revealed as the student steps
  (≤ 0: a mistake; exactly 0 is a tie, a mistake too).
* ``sandwich`` — Φ = KL(u‖w) against the mistake count M between its lower bound 0 and the
  upper bounds Φ₁ − C·M ≤ ln N − C·M, the bounds drawn to where they cross (M = ln N / C,
  the mistake bound) and the region beyond shaded; the run's trajectory revealed step by
  step. When the crossing is far beyond the run an inset zooms on the run.
* ``eta`` — C(η) = ηδ − ln cosh η, with the optimum η* = artanh δ and the run's η marked.
"""
from __future__ import annotations

import math
from typing import Any

import numpy as np

from olc_core.proofs.normalized_winnow import C_of

from olc_ui.shared import inset
from olc_ui.shared.spec_tools import (axis, COLORS, layout, ledger as _ledger, live_relations, not_applicable, position_holds,
                         position_states, sig)
from olc_ui.viewer.spec import jsonable, with_infinities

from .describe import describe_eg

__all__ = ["eg_spec", "below_best_eta_bound", "sandwich_geometry", "eta_curve", "FAR", "W_COLOR", "U_COLOR"]

W_COLOR = "#7f9fbf"
#: what the margin steps need of the data (shown where that fails: "n/a — needs …")
NEEDS = "a margin y⟨u, x⟩ ≥ δ on every round"
U_COLOR = "#2ca02c"
PHI1_COLOR = "#ff8c00"
SHADE = "rgba(214,39,40,0.10)"
ND = 5


_axis, _layout = axis, layout


def _shown(a, fmt: str) -> np.ndarray:
    """Values rounded exactly as ``format(v, fmt)`` shows them (the browser then prints what Python would)."""
    return np.array([float(format(v, fmt)) + 0.0 if math.isfinite(v) else v for v in np.asarray(a, dtype=float).tolist()])


def _f(v) -> float | None:
    return None if v is None or not math.isfinite(float(v)) else float(v)


# ------------------------------------------------------------------------------------------ weights

def _weights_figure(trace, arrays: dict) -> dict:
    proof = trace.proof
    N = trace.d
    xs = list(range(1, N + 1))
    W = [np.asarray(trace.weights_at(int(p)), dtype=float) for p in proof.state_rounds]
    u = np.asarray(trace.info["comparator"], dtype=float)
    arrays["wb_x"] = [xs] * len(W)
    arrays["wb_y"] = [sig(w, 5) for w in W]
    top = max(max(float(w.max()) for w in W), float(u.max()), 1.0 / N) * 1.1
    data = [
        {"type": "bar", "name": "weights wᵢ (Σ wᵢ = 1)", "x": xs, "y": [0] * N,
         "marker": {"color": W_COLOR}, "hovertemplate": "feature %{x}: w = %{y:.4g}<extra></extra>"},
        {"type": "scatter", "mode": "markers", "name": "comparator uᵢ > 0 (Σ uᵢ = 1)",
         "x": (np.flatnonzero(u > 0) + 1).tolist(), "y": sig(u[u > 0], 5),
         "marker": {"symbol": "diamond", "size": max(6, min(13, 500 // max(N, 1))), "color": U_COLOR,
                    "line": {"color": "#ffffff", "width": 1}},
         "hovertemplate": "feature %{x}: u = %{y:.4g}<extra></extra>"},
    ]
    layout = _layout(xaxis=_axis("feature i", range=[0.4, N + 0.6], **({"dtick": 1} if N <= 25 else {})),
                     yaxis=_axis("weight", range=[0, round(top, 4)]), bargap=0.15)
    return {"id": "weights", "title": "The weights wₜ after the round: a probability vector; u: the comparator",
            "height": 300, "figure": {"data": data, "layout": layout}, "config": {"displayModeBar": False},
            "dynamic": [{"trace": 0, "op": "state", "x": "wb_x", "y": "wb_y"}]}


# ------------------------------------------------------------------------------------------ margins

def _margins_figure(trace, y: np.ndarray, arrays: dict) -> dict:
    T = trace.T
    c = trace.proof.constants
    um = np.asarray(trace.columns["comparator_margin"], dtype=float)
    ys = y * np.asarray(trace.columns["score"], dtype=float)
    mis = np.asarray(trace.columns["is_mistake"], dtype=bool)
    r = np.arange(T)
    arrays["mg_r"] = r
    arrays["mg_t"] = r + 1
    arrays["mg_u"] = sig(um, 5)
    arrays["mg_w"] = sig(ys, 5)
    for name, keep in (("ok", ~mis), ("bad", mis)):
        arrays[f"mg_{name}_r"] = r[keep]
        arrays[f"mg_{name}_t"] = r[keep] + 1
        arrays[f"mg_{name}_w"] = sig(ys[keep], 5)
    delta = _f(c.get("delta"))
    lo = min(-0.05, float(np.nanmin(ys)) if T else 0.0, float(np.nanmin(um)) if T else 0.0)
    hi = max(0.05, float(np.nanmax(ys)) if T else 0.0, float(np.nanmax(um)) if T else 0.0)
    pad = 0.08 * (hi - lo)
    yr = [round(lo - pad, 4), round(hi + pad, 4)]
    size = 7 if T <= 300 else 4
    xpad = max(0.5, 0.02 * T)  # markers at t = 1 and t = T are drawn whole
    x0, x1 = round(1 - xpad, 3), round(T + xpad, 3)
    data = [
        {"type": "scatter", "mode": "lines", "name": "y⟨w,x⟩ = 0: a mistake on or below", "x": [x0, x1],
         "y": [0, 0], "line": {"color": "#444444", "width": 1.2}, "hoverinfo": "skip"},
        {"type": "scatter", "mode": "markers", "name": "y⟨u, x⟩ (comparator), rounds so far", "x": [None], "y": [None],
         "marker": {"color": U_COLOR, "size": size, "opacity": 0.7, "symbol": "diamond-open", "line": {"width": 1.2}},
         "hoverinfo": "skip"},
        {"type": "scatter", "mode": "markers", "name": "y⟨wₜ, xₜ⟩ learner, correct", "x": [None], "y": [None],
         "marker": {"color": COLORS["pos"], "size": size}, "hoverinfo": "skip"},
        {"type": "scatter", "mode": "markers", "name": "learner, mistake (≤ 0)", "x": [None], "y": [None],
         "marker": {"color": COLORS["neg"], "size": size + 1, "symbol": "x"}, "hoverinfo": "skip"},
    ]
    if delta is not None:  # on top of the points: the comparator's margins sit on it
        data.append({"type": "scatter", "mode": "lines", "name": f"δ = {delta:.4g}", "x": [x0, x1],
                     "y": [round(delta, ND)] * 2, "line": {"color": U_COLOR, "width": 2, "dash": "dash"},
                     "hoverinfo": "skip"})
    n0 = len(data)
    data += [
        {"type": "scatter", "mode": "markers", "name": "this round", "x": [], "y": [], "showlegend": False,
         "marker": {"color": "#111111", "size": 13, "symbol": "circle-open", "line": {"width": 2.5}},
         "hovertemplate": "round %{x}: y⟨w,x⟩ = %{y:.4g}<extra></extra>"},
        {"type": "scatter", "mode": "markers", "name": "this round, u", "x": [], "y": [], "showlegend": False,
         "marker": {"color": U_COLOR, "size": 13, "symbol": "diamond-open", "line": {"width": 2.5}},
         "hovertemplate": "round %{x}: y⟨u,x⟩ = %{y:.4g}<extra></extra>"},
    ]
    dyn = [{"trace": 1, "op": "rows_before", "rounds": "mg_r", "x": "mg_t", "y": "mg_u", "render": "canvas"},
           {"trace": 2, "op": "rows_before", "rounds": "mg_ok_r", "x": "mg_ok_t", "y": "mg_ok_w",
            "render": "canvas"},
           {"trace": 3, "op": "rows_before", "rounds": "mg_bad_r", "x": "mg_bad_t", "y": "mg_bad_w"},
           {"trace": n0, "op": "row_current", "rounds": "mg_r", "x": "mg_t", "y": "mg_w"},
           {"trace": n0 + 1, "op": "row_current", "rounds": "mg_r", "x": "mg_t", "y": "mg_u"}]
    layout = _layout(xaxis=_axis("round t", range=[x0, x1], **({"dtick": 1} if T <= 12 else {})),
                     yaxis=_axis("margin y⟨·, x⟩", range=yr))
    return {"id": "margins", "title": "Margins per round: the comparator's y⟨u, x⟩ ≥ δ, the learner's y⟨wₜ, xₜ⟩",
            "height": 300, "figure": {"data": data, "layout": layout}, "config": {"displayModeBar": False},
            "dynamic": dyn}


# ------------------------------------------------------------------------------------------ sandwich

#: the crossing counts as "far" (an inset zooms on the run) beyond max(FAR[0], FAR[1] × the run's M)
FAR = (25.0, 6.0)


def sandwich_geometry(proof) -> dict[str, Any]:
    """Where the sandwich's bounds go, from the proof's constants: the crossing ``(M, 0)`` of
    ln N − C·M with 0 (``None`` when C ≤ 0 or undefined), whether the theorem's bound is proven there
    (``proven``: every assumption holds), the x range, and whether the crossing is far (an inset).

    >>> import olc_core, numpy as np
    >>> tr = olc_core.run("normalized_winnow", np.array([[1.0, -1.0], [1.0, 1.0]]), np.array([1, 1]), comparator=[0.8, 0.2])
    >>> g = sandwich_geometry(tr.proof); round(g["crossing"][0], 4), g["proven"], g["far"]
    (3.5962, True, False)
    """
    c = proof.constants
    C = _f(c.get("C"))
    lnN = float(c["ln_N"])
    M_run = float(proof.n_mistakes[-1])
    crossing = None
    if C is not None and C > 0 and lnN > 0:
        # the proof's own bound when it holds; else the same formula's point, drawn but not proven
        x = proof.mistake_bound if proof.mistake_bound is not None else c.get("ln_N") / C
        crossing = (float(x), 0.0) if math.isfinite(x) else None
    far = crossing is not None and crossing[0] > max(FAR[0], FAR[1] * max(M_run, 1.0))
    x_hi = max(M_run, 1.0) * 1.1
    if crossing is not None:
        x_hi = max(x_hi, crossing[0] * 1.12)
    phi1_cross = None
    if crossing is not None and c.get("phi_1") is not None:
        phi1_cross = float(c["phi_1"]) / C
    return {"C": C, "ln_N": lnN, "crossing": crossing, "proven": proof.mistake_bound is not None, "far": far,
            "x_hi": x_hi, "M_run": M_run, "phi1_cross": phi1_cross}


def _line(name, x, y, color, width=2.5, dash="solid", xaxis=None, legend=True, hover=None) -> dict:
    t = {"type": "scatter", "mode": "lines", "name": name, "x": x, "y": y, "showlegend": legend,
         "line": {"color": color, "width": width, "dash": dash}}
    if hover:
        t["hovertemplate"] = hover
    else:
        t["hoverinfo"] = "skip"
    if xaxis:
        t["xaxis"], t["yaxis"] = xaxis
    return t


def _sandwich_layer(g: dict, proof, arrays: dict, x_end: float, axes=None, legend=True) -> tuple[list, list]:
    """The bounds (to x_end, or to their crossing) and the revealed trajectory, on one pair of axes."""
    S = proof.series
    C, lnN = g["C"], g["ln_N"]
    data, dyn = [], []
    data.append(_line("lower bound 0", [0, round(x_end, 4)], [0, 0], COLORS["lower"], 2.5, "dot", axes, legend))
    if C is not None:
        # each bound its own dash (not told apart by colour alone: issue 23 §3)
        for key, name, start, color, dash in (("lnN_upper", "ln N − C·M", lnN, COLORS["upper"], "dash"),
                                              ("kl_upper", "Φ₁ − C·M", float(S["kl"][0]), PHI1_COLOR, "longdash")):
            x1 = x_end
            if C > 0:
                x1 = min(x_end, start / C)  # to where it meets 0 (the crossing), or the edge of these axes
            data.append(_line(name, [0, round(x1, ND)], [round(start, ND), round(start - C * x1, ND)], color,
                              2.5, dash, axes, legend,
                              hover=f"{name}<br>M = %{{x:.4g}}: %{{y:.4g}}<extra></extra>"))
    n0 = len(data)
    pre = "" if legend else " "
    data += [
        _line("Φ = KL(u‖w), the run" + pre, [None], [None], COLORS["w"], 3, "solid", axes, legend),
        _line("the last mistake's drop" + pre, [], [], COLORS["w"], 3, "solid", axes, False),
        {"type": "scatter", "mode": "markers", "name": "Φ now" + pre, "x": [], "y": [], "showlegend": False,
         "marker": {"color": COLORS["w"], "size": 12, "line": {"color": "#fff", "width": 2}},
         "hovertemplate": "M = %{x}: Φ = %{y:.5g}<extra></extra>"},
        {"type": "scatter", "mode": "markers", "name": "ln N − C·M now" + pre, "x": [], "y": [], "showlegend": False,
         "marker": {"color": COLORS["upper"], "size": 11, "symbol": "diamond", "line": {"color": "#fff", "width": 1.5}},
         "hovertemplate": "M = %{x}: ln N − C·M = %{y:.5g}<extra></extra>"},
    ]
    if axes:
        for t in data[n0:]:
            t["xaxis"], t["yaxis"] = axes
    dyn += [{"trace": n0, "op": "rows_before", "rounds": "sw_rows_r", "x": "sw_rows_M", "y": "sw_rows_kl"},
            {"trace": n0 + 1, "op": "on_mistake", "x": "sw_seg_M", "y": "sw_seg_kl"},
            {"trace": n0 + 2, "op": "point_state", "x": "sw_M", "y": "sw_kl"}]
    if C is not None:
        dyn.append({"trace": n0 + 3, "op": "point_state", "x": "sw_M", "y": "sw_lnu"})
    return data, dyn


def _trajectory_arrays(proof, arrays: dict) -> None:
    """The states' (M, Φ) for the viewer: a row per state revealed by ``rows_before`` (state j + 1, made by
    the mistake at round m_j, is shown from position m_j + 1 on: its row's round is m_j − 1, and 0 for the
    first state and a mistake at round 0 — that one step is drawn by the ``on_mistake`` segment)."""
    S = proof.series
    M = proof.n_mistakes.astype(int)
    kl = sig(np.asarray(S["kl"], dtype=float), 7)
    mistakes = proof.state_rounds[1:] - 1
    arrays["sw_M"] = M
    arrays["sw_kl"] = kl
    arrays["sw_lnu"] = sig(np.asarray(S["lnN_upper"], dtype=float), 7)
    arrays["sw_rows_r"] = np.concatenate([[0], np.maximum(mistakes - 1, 0)]).astype(int)
    arrays["sw_rows_M"] = M
    arrays["sw_rows_kl"] = kl
    arrays["sw_seg_M"] = [[int(M[j]), int(M[j + 1])] for j in range(len(M) - 1)]
    arrays["sw_seg_kl"] = [[float(kl[j]), float(kl[j + 1])] for j in range(len(M) - 1)]


def _sandwich_figure(trace, arrays: dict) -> dict:
    proof = trace.proof
    g = sandwich_geometry(proof)
    c = proof.constants
    S = proof.series
    _trajectory_arrays(proof, arrays)
    x_hi = g["x_hi"]
    data, dyn = _sandwich_layer(g, proof, arrays, x_hi)
    kl = np.asarray(S["kl"], dtype=float)
    top = max(g["ln_N"], float(np.nanmax(kl)), 1e-3)
    if g["C"] is not None and g["C"] < 0:
        top = max(top, g["ln_N"] - g["C"] * x_hi)
    ylo, yhi = -0.06 * top, 1.1 * top
    shapes, ann = [], []
    cross = g["crossing"]
    if cross is not None:
        bx = cross[0]
        data.append({"type": "scatter", "mode": "markers", "name": f"× crossing at M = ln N / C = {bx:.4g}",
                     "meta": "crossing", "x": [round(bx, ND)],
                     "y": [0.0], "marker": {"color": COLORS["upper"], "size": 12, "symbol": "x"},
                     "hovertemplate": "the bounds cross at M = ln N / C = %{x:.5g}<extra></extra>"})
        if g["proven"]:
            shapes.append({"type": "rect", "xref": "x", "yref": "paper", "x0": round(bx, ND), "x1": round(x_hi, 4),
                           "y0": 0, "y1": 1, "fillcolor": SHADE, "line": {"width": 0}, "layer": "below"})
            b2 = _f(c.get("bound_2lnN_over_delta2"))
            text = f"M ≤ ln N / C = {bx:.4g}" + {
                "le": f" ≤ 2 ln N/δ² = {b2:.4g}" if b2 is not None else "",
                "gt": f" > 2 ln N/δ² = {b2:.4g}<br>(2 ln N/δ² caps ln N / C at η = artanh δ, not at this η)"
                if b2 is not None else "", None: ""}[below_best_eta_bound(bx, b2)]
            ann.append(_crossing_note("no run gets past the crossing (×)<br>" + text, g["far"]))
        else:
            ann.append(_crossing_note(f"ln N / C = {bx:.4g} (×): not a bound here<br>(an assumption fails)", g["far"]))
    else:
        ann.append({"x": 0.98, "xref": "paper", "y": 0.97, "yref": "paper", "xanchor": "right", "yanchor": "top",
                    "showarrow": False, "font": {"size": 13}, "bgcolor": "rgba(255,255,255,0.85)",
                    "text": "no crossing: C ≤ 0 or undefined — no bound"})
    below = g["far"] and cross is not None  # the note goes under the axis (the zoom takes the free upper part)
    layout = _layout(xaxis=_axis("mistakes M", range=[-0.02 * x_hi, round(x_hi, 4)],
                                 **({"dtick": 1} if x_hi <= 12 else {})),
                     yaxis=_axis("nats", range=[round(ylo, 4), round(yhi, 4)]), shapes=shapes, annotations=ann,
                     **({"margin": {"l": 62, "r": 12, "t": 8, "b": 92}} if below else {}))
    if g["far"]:
        _add_inset(g, proof, arrays, data, dyn, layout, top)
    return {"id": "sandwich", "title": "The sandwich 0 ≤ Φ = KL(u‖wₜ) ≤ Φ₁ − C·M ≤ ln N − C·M, against M",
            "height": 420, "figure": {"data": data, "layout": layout}, "config": {"displayModeBar": False},
            "dynamic": dyn}


def _crossing_note(text: str, far: bool) -> dict:
    """The crossing's note where it covers no curve: the bounds and the run all lie under the line from
    (0, ln N) to the crossing, so the top right corner is empty — unless a zoom is drawn (far: it takes that part), then
    under the x axis (below its title)."""
    pos = ({"x": 1.0, "y": -0.15, "yanchor": "top"} if far else {"x": 0.995, "y": 0.99, "yanchor": "top"})
    return {**pos, "xref": "paper", "yref": "paper", "xanchor": "right", "showarrow": False, "font": {"size": 13},
            "bgcolor": "rgba(255,255,255,0.85)", "align": "right", "text": text}


def _add_inset(g, proof, arrays, data, dyn, layout, top) -> None:
    """The crossing is far beyond the run: a zoom on the run (0 … 1.15 × its M) where its box (axes, ticks,
    title above its axes) covers no curve of the main plot, no crossing and no shaded area, under the legend
    (olc_ui.shared.inset, as on the Compare page); else beside the main plot."""
    x2 = max(g["M_run"], 1.0) * 1.15
    xr, yr = layout["xaxis"]["range"], layout["yaxis"]["range"]
    # every point the main plot draws a curve through: the bounds (straight lines) and the whole run
    S = proof.series
    points = np.concatenate([inset.segment_points(t["x"], t["y"], xr, yr) for t in data if t.get("mode") == "lines"]
                            + [inset.segment_points(proof.n_mistakes, S["kl"], xr, yr),
                               inset.segment_points([0, x2, x2, 0, 0], np.array([-1, -1, 1, 1, -1]) * 0.04 * top
                                                    + np.array([0, 0, 1, 1, 0]) * top, xr, yr)])  # the zoomed area
    spot = inset.inset_spot(points, ((g["crossing"][0] - xr[0]) / (xr[1] - xr[0]), 0.0))
    if spot is None:
        layout["xaxis"]["domain"] = list(inset.BESIDE_MAIN)
        dx, dy = (list(d) for d in inset.BESIDE_INSET)
    else:
        dx, dy = list(spot[0]), list(spot[1])
    d2, dy2 = _sandwich_layer(g, proof, arrays, x2, axes=("x2", "y2"), legend=False)
    n = len(data)
    for op in dy2:
        op["trace"] += n
    data += d2
    dyn += dy2
    layout["xaxis2"] = _axis("", domain=dx, range=[0, round(x2, 4)], anchor="y2", **({"dtick": 1} if x2 <= 12 else {}))
    layout["yaxis2"] = _axis("", domain=dy, range=[round(-0.05 * top, 4), round(1.08 * top, 4)], anchor="x2")
    for ax in ("xaxis2", "yaxis2"):
        layout[ax].update(showline=True, linecolor="#999999", mirror=True, tickfont={"size": 10})
    layout["annotations"] = layout["annotations"] + [
        {"x": dx[0], "xref": "paper", "y": dy[1], "yref": "paper", "xanchor": "left", "yanchor": "bottom",
         "showarrow": False, "font": {"size": 11}, "text": "zoom on the run"}]  # short: 16 px in presentation mode
    x0, x1, y0, y1 = inset.inset_box(dx, dy)
    layout["shapes"] = layout["shapes"] + [
        {"type": "rect", "xref": "paper", "yref": "paper", "x0": x0, "x1": x1, "y0": y0, "y1": y1,
         "fillcolor": "#ffffff", "line": {"width": 0}, "layer": "below"},
        {"type": "rect", "xref": "x", "yref": "y", "x0": 0, "x1": round(x2, 4), "y0": round(-0.04 * top, 4),
         "y1": round(1.04 * top, 4), "line": {"color": "#999999", "width": 1, "dash": "dot"}}]


# ------------------------------------------------------------------------------------------ eta

def eta_curve(proof, n: int = 240) -> dict[str, Any] | None:
    """C(η) on a grid from 0 past the largest η with C > 0 (the core's C_of), the optimum and the run's η;
    None when δ is undefined (no positive margin)."""
    c = proof.constants
    delta = _f(c.get("delta"))
    if delta is None:
        return None
    eta, opt, emax = float(c["eta"]), _f(c.get("eta_optimal")), _f(c.get("eta_max"))
    hi = max(1.25 * (emax if emax is not None else 2 * eta), 1.15 * eta, 0.1)
    xs = np.linspace(0.0, hi, n)
    ys = np.array([C_of(float(e), delta) for e in xs])
    return {"eta": xs, "C": ys, "delta": delta, "eta_run": eta, "C_run": float(c["C"]), "eta_opt": opt,
            "C_opt": C_of(opt, delta) if opt is not None else None, "eta_max": emax, "hi": hi}


def _eta_figure(trace) -> dict:
    cur = eta_curve(trace.proof)
    if cur is None:
        layout = _layout(xaxis=_axis("η"), yaxis=_axis("C"), annotations=[
            {"x": 0.5, "y": 0.5, "xref": "paper", "yref": "paper", "showarrow": False, "font": {"size": 14},
             "text": "no positive margin δ: C = ηδ − ln cosh η is undefined"}])
        return {"id": "eta", "title": "C(η) = ηδ − ln cosh η", "height": 260,
                "figure": {"data": [], "layout": layout}, "config": {"displayModeBar": False}}
    ys = cur["C"]
    lo, hi = float(min(ys.min(), cur["C_run"], 0.0)), float(max(ys.max(), 0.0))
    pad = 0.08 * (hi - lo or 1.0)
    lo = max(lo, -3.0 * max(hi, 1e-9))  # the curve falls fast past η_max: keep the hump visible
    data = [
        _line("C(η) = ηδ − ln cosh η", sig(cur["eta"], 6), sig(ys, 6), COLORS["w"], 2.5,
              hover="η = %{x:.4g}: C = %{y:.4g}<extra></extra>"),
        _line("C = 0", [0, round(cur["hi"], 4)], [0, 0], "#888888", 1, "dot"),
    ]
    if cur["eta_opt"] is not None:
        data.append({"type": "scatter", "mode": "markers",
                     "name": f"optimum η* = ½ ln((1+δ)/(1−δ)) = {cur['eta_opt']:.4g}",
                     "x": [cur["eta_opt"]], "y": [cur["C_opt"]],
                     "marker": {"color": U_COLOR, "size": 13, "symbol": "star", "line": {"color": "#fff", "width": 1}},
                     "hovertemplate": "optimum: η* = %{x:.5g}, C = %{y:.5g}<extra></extra>"})
    # the run's η last, as a ring around the point: the star shows through when η = η*
    data.append({"type": "scatter", "mode": "markers",
                 "name": f"this run: η = {cur['eta_run']:.4g}, C = {cur['C_run']:.4g}",
                 "x": [cur["eta_run"]], "y": [cur["C_run"]],
                 "marker": {"color": COLORS["upper"], "size": 22, "symbol": "circle-open", "line": {"width": 3}},
                 "hovertemplate": "this run: η = %{x:.5g}, C = %{y:.5g}<extra></extra>"})
    layout = _layout(xaxis=_axis("learning rate η", range=[0, round(cur["hi"], 4)]),
                     yaxis=_axis("C: the drop of Φ per mistake", range=[round(lo - pad, 5), round(hi + pad, 5)]))
    layout["legend"] = {**layout["legend"], "font": {"size": 12}}
    return {"id": "eta", "title": f"C(η) for δ = {cur['delta']:.4g}: the bound is ln N / C, best at η*",
            "height": 280, "figure": {"data": data, "layout": layout}, "config": {"displayModeBar": False}}


# ------------------------------------------------------------------------------------------ ledger

def _ledger_lines(trace) -> list[dict]:
    proof = trace.proof
    S = proof.series
    c = proof.constants
    idx = position_states(proof)
    reasons = {ch.name: ch.reasons for ch in proof.chains}

    def P(key, fmt=".5g"):
        return {"by": "position", "data": with_infinities(_shown(np.asarray(S[key], dtype=float)[idx], fmt)), "fmt": fmt}

    def H(*links):
        return {"by": "position", "data": position_holds(proof, list(links))}

    Mv = {"by": "position", "data": trace.mistakes_before_each_round(), "fmt": "d"}
    Cv = {"const": _f(c.get("C")), "fmt": ".5g"}
    # Φ₁ − C·M written with one sign: "− 0.5·13" for C ≥ 0, "+ 0.65834·13" for C < 0 (never "− −0.65834·13")
    neg = c.get("C") is not None and c["C"] < 0
    minus_CM = r" + «Ca»\cdot{«M»}" if neg else r" - «C»\cdot{«M»}"
    Ca = {"const": _f(-c["C"]) if neg else None, "fmt": ".5g"}
    r0 = reasons["KL potential"]
    lines = [
        {"latex": r"0 \;\le\; \Phi_{t+1} = \mathrm{KL}(u\,\|\,w_{t+1}) = «kl»", "values": {"kl": P("kl")},
         "holds": H(("zero", "kl")), "reason": r0[0]},
        {"latex": r"\Phi_{t+1} = «kl» \;\le\; \Phi_1 - C\,M = «phi1»" + minus_CM + " = «klu»",
         "values": {"kl": P("kl"), "phi1": {"const": _f(c["phi_1"]), "fmt": ".5g"}, "M": Mv,
                    "C" if not neg else "Ca": Ca if neg else Cv, "klu": P("kl_upper")},
         "holds": H(("kl", "kl_upper")), "reason": r0[1]},
        {"latex": r"\Phi_1 - C\,M = «klu» \;\le\; \ln N - C\,M = \ln {«N»}" + minus_CM + " = «lnu»",
         "values": {"klu": P("kl_upper"), "N": {"const": int(c["N"]), "fmt": "d"}, "M": Mv,
                    "C" if not neg else "Ca": Ca if neg else Cv, "lnu": P("lnN_upper")},
         "holds": H(("kl_upper", "lnN_upper")), "reason": r0[2]},
        {"latex": r"\text{last mistake: } C = «C» \;\le\; \Phi_t - \Phi_{t+1} = «drop»",
         "values": {"C": Cv, "drop": P("kl_drop")}, "holds": H(("C", "kl_drop")),
         "reason": reasons["per-mistake decrease"][0]},
        {"latex": r"\ln Z_t = «lz» \;\le\; \ln\cosh\eta = «lc»",
         "values": {"lz": P("log_Z"), "lc": {"const": _f(c["log_cosh_eta"]), "fmt": ".5g"}},
         "holds": H(("log_Z", "log_cosh_eta")), "reason": reasons["normaliser"][0]},
        {"latex": r"\delta = «d» \;\le\; y_t\langle u, x_t\rangle = «um» \text{ at the last mistake}",
         "values": {"d": {"const": _f(c.get("delta")), "fmt": ".5g"}, "um": P("margin_at_mistake")},
         "holds": H(("delta", "margin_at_mistake")), "reason": reasons["margin on mistakes"][0]},
    ]
    links = [("zero", "kl"), ("kl", "kl_upper"), ("kl_upper", "lnN_upper"), ("C", "kl_drop"),
             ("log_Z", "log_cosh_eta")]
    # the last line checks the margin assumption itself at the last mistake: its ✗ says where it fails
    lines = [not_applicable(line, proof, [lk], NEEDS) for line, lk in zip(lines[:-1], links)] + [
        live_relations(lines[-1], [position_holds(proof, [("delta", "margin_at_mistake")])], "position")]
    if "half_delta_sq" in S:
        lines.append({"latex": r"\delta^2/2 = «h» \;\le\; C = «C»",
                      "values": {"h": {"const": _f(c["half_delta_squared"]), "fmt": ".5g"}, "C": Cv},
                      "holds": H(("half_delta_sq", "C")), "reason": reasons["optimal learning rate"][0]})
    bound = proof.mistake_bound
    if bound is not None:
        b2 = _f(c.get("bound_2lnN_over_delta2"))
        rel = below_best_eta_bound(float(bound), b2)
        tail = {"le": r" \;\le\; 2\ln N/\delta^2 = «b2»",
                "gt": r" \quad (> 2\ln N/\delta^2 = «b2»\text{, a cap at } \eta = \operatorname{artanh}\delta"
                      r"\text{, not at this } \eta)", None: ""}[rel]
        vals = {"M": Mv, "b": {"const": float(bound), "fmt": ".5g"}}
        if b2 is not None:
            vals["b2"] = {"const": b2, "fmt": ".5g"}
        lines.append({"latex": r"M = «M» \;\le\; \ln N / C = «b»" + tail, "values": vals,
                      "holds": H(("M", "mistake_bound")),
                      "reason": "0 ≤ ln N − C·M: the two ends of the sandwich cross at M = ln N / C"})
    else:
        why = "; ".join(a.detail for a in proof.failed_assumptions) or "an assumption fails"
        lines.append({"latex": r"M \le \ln N / C \;\;\text{n/a: the theorem does not apply}", "na": True,
                      "reason": why})
    return _ledger(lines)


def below_best_eta_bound(bound: float | None, b2: float | None) -> str | None:
    """How this run's ln N / C compares with 2 ln N/δ² (the bound at η = artanh δ, where C ≥ δ²/2):
    "le" when ln N / C ≤ 2 ln N/δ² holds on this run (relative tolerance 1e-9, as the proofs' checks),
    "gt" when it does not (another η), None when either is missing. The page writes "≤" only for "le"."""
    if bound is None or b2 is None or not math.isfinite(bound) or not math.isfinite(b2):
        return None
    return "le" if bound <= b2 * (1 + 1e-9) else "gt"


# ------------------------------------------------------------------------------------------ caption

def _phrases(strings: list[str]) -> dict:
    labels: dict[str, int] = {}
    data = [labels.setdefault(t, len(labels)) for t in strings]
    return {"by": "round", "data": data, "fmt": "text", "labels": list(labels)}


def _caption(trace, y: np.ndarray) -> dict:
    score = np.asarray(trace.columns["score"], dtype=float)
    mis = np.asarray(trace.columns["is_mistake"], dtype=bool)
    exact = np.asarray(trace.columns["exact_decision"], dtype=bool)
    what = []
    for s, m, e in zip(score.tolist(), mis.tolist(), exact.tolist()):
        if s == 0.0:
            w = ("⟨wₜ, xₜ⟩ = 0 exactly" + (" (a tie, decided in exact arithmetic)" if e else " (a tie)")
                 + ": a score of exactly 0 counts as a MISTAKE → wᵢ ← wᵢ·e^(η y xᵢ) / Z")
        elif m:
            w = "the sign is wrong: MISTAKE → wᵢ ← wᵢ·e^(η y xᵢ) / Z"
        else:
            w = "correct: no update" + (" (the sign decided in exact arithmetic)" if e else "")
        what.append(w)
    vals: dict[str, Any] = {
        "y": {"by": "round", "data": np.where(y > 0, 1, -1), "fmt": "+d"},
        "s": {"by": "round", "data": _shown(score, ".4g"), "fmt": ".4g"},
        "um": {"by": "round", "data": _shown(np.asarray(trace.columns["comparator_margin"], dtype=float), ".4g"),
               "fmt": ".4g"},
        "what": _phrases(what),
        "M": {"by": "position", "data": trace.mistakes_before_each_round(), "fmt": "d"},
        "phi": {"by": "position", "data": _shown(np.asarray(trace.proof.series["kl"], dtype=float)
                                                 [position_states(trace.proof)], ".4g"), "fmt": ".4g"},
    }
    template = ("Round {t} of {T}: label y = {y}, the learner's score ⟨wₜ, xₜ⟩ = {s} — {what}. "
                "Comparator: y⟨u, x⟩ = {um}. Mistakes so far M = {M}; Φ = KL(u‖w) = {phi}.")
    start = ("Round 0 of {T}: w₁ = (1/N, …, 1/N), Φ₁ = KL(u‖w₁) = " + f"{float(trace.proof.constants['phi_1']):.4g}"
             + " ≤ ln N. Press Next or Play.")
    return {"template": template, "start": start, "values": vals}


# ------------------------------------------------------------------------------------------ the spec

def eg_spec(trace, X, y, *, run_id: str, position: int = 0) -> dict:
    """The viewer spec for a normalised Winnow run on ``X`` (T × N, entries in [−1, 1]) and labels ``y``."""
    if trace.algorithm != "normalized_winnow":
        raise ValueError(f"not a normalised Winnow run: {trace.algorithm}")
    X = np.asarray(X)
    y = np.asarray(y, dtype=np.float64)
    if X.shape != (trace.T, trace.d):
        raise ValueError("the data do not match the trace")
    arrays: dict[str, Any] = {}
    figures = [_weights_figure(trace, arrays), _margins_figure(trace, y, arrays),
               _sandwich_figure(trace, arrays), _eta_figure(trace)]
    mistakes = np.asarray(trace.mistakes, dtype=np.int64)
    spec = {
        "version": 1, "run_id": run_id, "T": int(trace.T), "position": int(position), "url_param": "t",
        "breaks": (mistakes + 1).tolist(), "mistake_rounds": mistakes, "arrays": arrays, "figures": figures,
        "ledger": {"title": "Proof ledger after round t (natural logarithms; w_{t+1}: the weights after it)",
                   "lines": _ledger_lines(trace)},
        "caption": _caption(trace, y),
        "layout": {"columns": [["weights", "margins", "eta"], ["sandwich", "ledger"]], "widths": [1, 1]},
        "speed": int(max(2, min(200, trace.T // 25))),
    }
    return describe_eg(jsonable(spec), trace, y)
