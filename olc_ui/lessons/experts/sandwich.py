"""The experts pages' sandwich (Weighted Majority, RWM, Halving on experts), on a log scale against the
mistake count: the proof's chain revealed as the student steps, the proven upper line N·rᴹ and the whole
run's lower level out to where they cross (the bound; a log M axis when it is far beyond the run), the
crossing a point of the data, the region beyond it shaded."""
from __future__ import annotations

import math

import numpy as np

from olc_ui.lessons.experts.plot import BEST_COLOR, LD, SHADE, _finite, _l10, _range, _thin_idx
from olc_ui.shared.sandwich_view import LN10, log_ticks
from olc_ui.shared.spec_tools import COLORS, axis as _axis, layout as _layout, position_states

__all__ = ["sandwich_figure"]

#: per series: its line style and its current-value marker (no meaning by colour alone, WCAG 1.4.1)
PATH_STYLE = {"log_phi": ("solid", "circle"), "log_size": ("solid", "circle"), "log_w_best": ("longdash", "square"),
              "lower_best": ("dashdot", "diamond"), "upper": ("dash", "triangle-up")}


def _revealed_paths(paths, vals, arrays: dict, data: list, dyn: list, T: int) -> None:
    """The run's own curves of the sandwich, revealed as the student steps: the row of position i has
    round i − 2, so ``rows_before`` shows it from position i on (thinned, the shape kept)."""
    x = np.asarray(arrays["sw_x"], dtype=float)
    keep = np.unique(np.concatenate([_thin_idx(x, v) for v in vals] + [np.array([0], dtype=int)]))
    arrays["sw_tr_r"] = np.clip(keep - 2, 0, max(T - 1, 0))
    arrays["sw_tr_x"] = x[keep]
    for (key, name, color), v in zip(paths, vals):
        arrays[f"l10_{key}"] = v
        arrays[f"sw_tr_{key}"] = np.asarray(v)[keep]
        data.append({"type": "scatter", "mode": "lines", "name": name, "x": [None], "y": [None],
                     "line": {"color": color, "width": 2.5, "dash": PATH_STYLE[key][0]},
                     "hovertemplate": f"{name}: 10^%{{y:.3f}}<extra></extra>"})
        dyn.append({"trace": len(data) - 1, "op": "rows_before", "rounds": "sw_tr_r", "x": "sw_tr_x",
                    "y": f"sw_tr_{key}"})


def _chain(algo: str, c: dict, S, M_pos) -> tuple:
    """Per algorithm: the x values (M, or E[M] for RWM), the run's paths, the upper line's slope per unit
    of x (log scale), the lower level, and their names."""
    if algo == "weighted_majority":
        beta = float(c["beta"])
        x = np.asarray(M_pos, dtype=float)
        x_title = "mistakes M"
        paths = [("lower_best", "β<sup>m(i*)</sup>", COLORS["lower"]), ("log_w_best", "w(i*)", BEST_COLOR),
                 ("log_phi", "Φ", COLORS["w"])]
        slope = math.log((1.0 + beta) / 2.0)
        upper_name = "N((1+β)/2)<sup>M</sup>"
        lower_final = float(S["lower_best"][-1])
        lower_name = f"β<sup>m*</sup>, m* = {int(c['m_star'])}"
        bound_label = "M ≤ (ln N + m* ln(1/β)) / ln(2/(1+β))"
    elif algo == "randomized_weighted_majority":
        eta = float(c["eta"])
        x = np.asarray(S["expected_M"], dtype=float)
        x_title = "expected mistakes E[M] = Σ Fₜ"
        paths = [("lower_best", "w(i*) = (1−η)<sup>m(i*)</sup>", COLORS["lower"]), ("log_phi", "Φ", COLORS["w"])]
        slope = -eta
        upper_name = "N·e<sup>−η ΣF</sup>"
        lower_final = float(S["lower_best"][-1])
        lower_name = f"(1−η)<sup>m*</sup>, m* = {int(c['m_star'])}"
        bound_label = "E[M] ≤ (ln N + m* ln(1/(1−η))) / η"
    else:
        x = np.asarray(M_pos, dtype=float)
        x_title = "mistakes M"
        paths = [("log_size", "|Hₜ|", COLORS["w"])]
        slope = -math.log(2.0)
        upper_name = "|H|/2<sup>M</sup>"
        lower_final = 0.0
        lower_name = "1"
        bound_label = "M ≤ log₂|H|"
    return x, x_title, paths, slope, upper_name, lower_final, lower_name, bound_label


def sandwich_figure(trace, proof, M_pos, N: int, arrays: dict) -> dict:
    """The proof's chain (log scale) against the mistake count, with the proven bounds to their crossing."""
    algo = trace.algorithm
    S = proof.series
    idx = position_states(proof)
    c = proof.constants
    x, x_title, paths, slope, upper_name, lower_final, lower_name, bound_label = _chain(algo, c, S, M_pos)
    bound = proof.mistake_bound
    x_end = float(x[-1]) if x.size else 0.0
    x_hi = max(x_end, 1.0)
    has_bound = bound is not None and math.isfinite(bound)
    far = has_bound and bound > max(25.0, 6.0 * max(x_end, 1.0))   # then the x axis is logarithmic
    if has_bound:
        x_hi = max(x_hi, bound * 1.08)
    x_hi *= 1.03
    x_lo = 0.7 if far else 0.0
    arrays["sw_x"] = x.round(4)
    data, dyn = [], []
    lf = lower_final / LN10 if math.isfinite(lower_final) else None
    vals = [np.asarray(_l10(np.asarray(S[key], dtype=float)[idx])) for key, _, _ in paths]
    xs = np.geomspace(x_lo, x_hi, 200) if far else np.linspace(0.0, x_hi, 200)
    up = (math.log(N) + slope * xs) / LN10
    fin = _finite(*vals, up, [lf] if lf is not None else [])
    ylo, yhi = _range(fin, top=math.log10(N))
    if has_bound:  # beyond the crossing: no run gets there (under everything)
        data.append({"type": "scatter", "mode": "lines", "name": "beyond the crossing", "showlegend": False,
                     "x": [bound, x_hi, x_hi, bound, bound], "y": [ylo, ylo, yhi, yhi, ylo], "fill": "toself",
                     "fillcolor": SHADE, "line": {"width": 0, "color": SHADE}, "hoverinfo": "skip"})
    _revealed_paths(paths, vals, arrays, data, dyn, trace.T)
    arrays["l10_upper"] = _l10(np.asarray(S["upper"], dtype=float)[idx])
    data.append({"type": "scatter", "mode": "lines", "name": upper_name, "x": xs.round(4), "y": up.round(LD),
                 "line": {"color": COLORS["upper"], "width": 2.5, "dash": "dash"},
                 "hovertemplate": f"{upper_name}<br>at %{{x:.1f}}: 10^%{{y:.3f}}<extra></extra>"})
    if lf is not None:
        data.append({"type": "scatter", "mode": "lines", "name": lower_name, "x": [round(x_lo, 4), round(x_hi, 4)],
                     "y": [round(lf, LD), round(lf, LD)], "line": {"color": COLORS["lower"], "width": 2, "dash": "dot"},
                     "hovertemplate": f"{lower_name}: 10^%{{y:.3f}}<extra></extra>"})
    ann = []
    if has_bound and lf is not None:
        what = "E[M]" if algo == "randomized_weighted_majority" else "M"
        # the bound uses the whole run's m* (the ledger's running bound uses m*ₜ so far): say which
        final = f"the bound with the final m* = {int(c['m_star'])}" if "m_star" in c else "the bound"
        data.append({"type": "scatter", "mode": "markers", "meta": "crossing", "x": [float(bound)], "y": [round(lf, LD)],
                     "name": f"× crossing: {final}, {what} ≤ {bound:.4g} (shaded beyond)",
                     "marker": {"symbol": "x-thin", "size": 16, "color": "#000", "line": {"width": 3, "color": "#000"}},
                     "hovertemplate": f"{final}: {bound_label} = {bound:.6g}<extra></extra>"})
    elif not has_bound:
        ann.append({"x": 0, "xref": "paper", "y": 0, "yref": "paper", "yshift": -62, "xanchor": "left",
                    "yanchor": "top", "showarrow": False, "font": {"size": 12.5}, "text": "no bound: an assumption fails"})
    for key, name, color in paths + [("upper", upper_name, COLORS["upper"])]:
        data.append({"type": "scatter", "mode": "markers", "name": name, "x": [], "y": [], "showlegend": False,
                     "marker": {"color": color, "size": 12, "symbol": PATH_STYLE[key][1],
                                "line": {"color": "#fff", "width": 2}},
                     "hovertemplate": f"{name} now: 10^%{{y:.3f}}<extra></extra>"})
        dyn.append({"trace": len(data) - 1, "op": "point_position", "x": "sw_x", "y": f"l10_{key}"})
    tv, tt = log_ticks(ylo, yhi, twos=algo == "halving")
    if far:
        xa = _axis(x_title + " (log scale)", type="log", range=[math.log10(x_lo), math.log10(x_hi)], dtick=1)
    else:
        xa = _axis(x_title, range=[-0.02 * x_hi, x_hi])
    if not far and algo != "randomized_weighted_majority" and x_hi <= 12:
        xa["dtick"] = 1  # mistakes are whole numbers
    layout = _layout(xaxis=xa,
                     yaxis=_axis("log scale", range=[ylo, yhi], tickvals=tv, ticktext=tt), annotations=ann,
                     **({"margin": {"l": 62, "r": 12, "t": 8, "b": 80}} if ann else {}))
    title = {"weighted_majority": "Sandwich: β to the power m* ≤ w(i*) ≤ Φ ≤ N·((1+β)/2)ᴹ, against M",
             "randomized_weighted_majority": "Sandwich: (1−η) to the power m* ≤ Φ ≤ N·exp(−η ΣF), against E[M]",
             "halving": "Sandwich: 1 ≤ |Hₜ| ≤ |H|/2ᴹ, against M"}[algo]
    return {"id": "sandwich", "title": title, "height": 380, "figure": {"data": data, "layout": layout},
            "config": {"displayModeBar": False}, "dynamic": dyn}


