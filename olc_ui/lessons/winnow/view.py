r"""Step-viewer spec for the Winnow lesson (pure: a trace and its data in, a JSON-ready dict out).

Littlestone's Winnow on 0/1 examples ``X`` (T × N) with 0/1 labels ``y``. Every number comes
from the run: the exact integer exponents of the weights (``w_i = (1+β)^{e_i}``,
``trace.history.snapshots``), the per-round log scores and predictions, and the proof's series
and checks (:mod:`olc_core.proofs.winnow`). The view converts exponents to weights for the
axis labels and draws.

Figures (ids):

* ``weights`` — the weights as bars on a log scale: the y axis is the exponent ``e_i``
  (``log_{1+β} w_i``, labelled in weights), the threshold N and the cap ``(1+β)N`` drawn, the
  relevant variables highlighted. For N > :data:`SMALL_N` only the relevant variables, the
  :data:`N_TOP` largest other weights (named on their bars) and a band (min / median / max)
  for the remaining ones are drawn: the spec holds ``k + N_TOP + 3`` numbers per state, never N.
  On a mistake the moved weights show where they were (a grey tick) and the factor
  (× (1+β) or ÷ (1+β)).
* ``potential`` — ``Φ = Σ w_i`` against the mistake count, between its floor ``N/(1+β)`` and its
  upper bound ``N + βNm⁺ − (β/(1+β))Nm⁻``, revealed as the student steps.
* ``bound`` — the sandwich that closes: ``M`` against ``(1+β)/β + (2+β)m⁺`` (the proof's
  "total mistakes" chain), both drawn against M; the cap on m⁺ turns the upper one into the
  flat mistake bound, and the diagonal M meets it at the crossing (drawn, region beyond
  shaded; log axes when the crossing is far beyond the run).
"""
from __future__ import annotations

import math
from typing import Any

import numpy as np

from olc_ui.shared.sandwich_view import LN10, log_ticks
from olc_ui.shared.spec_tools import (axis, by_round, by_state, COLORS, const, holds, layout, ledger as _ledger, live_relations,
                         not_applicable)
from olc_ui.viewer.spec import jsonable

from .describe import describe_winnow

__all__ = ["winnow_spec", "exponent_summary", "promotions", "SMALL_N", "N_TOP", "crossing"]

SMALL_N = 60
N_TOP = 8
REL_COLOR = "#2ca02c"
#: what the relevant-variable steps need of the data (shown where that fails: "n/a — needs …")
NEEDS = "labels from the OR of the relevant variables"
IRR_COLOR = "#8fa8c4"
_SUP = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")


# ------------------------------------------------------------------------------------------ the run's state

def _exponents(trace) -> np.ndarray:
    """The exponent vectors of every state after a mistake (M × N int64; state 0, all zeros, not included).
    M × N numbers: only for small N (the bars of every variable); otherwise :func:`_exponent_rows`."""
    S = np.asarray(trace.history.snapshots, dtype=np.int64).reshape(-1, trace.d)
    return S


def _snapshot_rows(trace, a: int, b: int) -> np.ndarray:
    """The exponent vectors after mistakes ``a … b-1`` ((b − a) × N int64): replayed from the data a block
    at a time when the history keeps only checkpoints (:class:`olc_core.trace.RowReplayHistory`, asked for
    in order), else a slice of the stored snapshots."""
    h = trace.history
    if hasattr(h, "snapshot_rows"):
        return h.snapshot_rows(a, b)
    return np.asarray(h.snapshots[a:b], dtype=np.int64).reshape(-1, trace.d)


def _exponent_rows(trace, a: int, b: int) -> np.ndarray:
    """The exponent vectors of the states ``a … b-1`` ((b − a) × N int64; state 0 all zeros, state s the one
    after s mistakes)."""
    rows = _snapshot_rows(trace, max(a - 1, 0), b - 1)
    if a == 0:
        rows = np.vstack([np.zeros((1, trace.d), dtype=np.int64), rows])
    return rows


def _exponent_columns(trace, cols: np.ndarray) -> np.ndarray:
    """The exponents of the variables ``cols`` in every state ((M + 1) × len(cols) int64, state 0 all
    zeros): only those columns of the data are read when the history replays them."""
    h = trace.history
    if hasattr(h, "columns"):
        E = np.asarray(h.columns(cols), dtype=np.int64)
    else:
        E = np.asarray(h.snapshots, dtype=np.int64).reshape(-1, trace.d)[:, cols]
    return np.vstack([np.zeros((1, len(cols)), dtype=np.int64), E])


def exponent_summary(trace, relevant: np.ndarray, n_top: int = N_TOP, chunk: int | None = None) -> dict[str, np.ndarray]:
    """Per state (K = M + 1): the relevant variables' exponents (K × k), the ``n_top`` largest other
    exponents and their variables (K × n_top, largest first), and min / median / max of the rest.

    Works on blocks of states: never more than ``chunk`` × N numbers at once (default: 2¹⁹ / N states,
    4 MB of exponents; the states are replayed from the data block by block, not all built first)."""
    N = trace.d
    chunk = max(16, (1 << 19) // max(N, 1)) if chunk is None else int(chunk)
    rel = np.asarray(relevant, dtype=np.int64)
    irr = np.setdiff1d(np.arange(N), rel)
    K = int(np.asarray(trace.mistakes).shape[0]) + 1
    n_top = min(n_top, irr.size)
    R = irr.size - n_top
    out = {"rel": np.zeros((K, rel.size), dtype=np.int64), "top_var": np.zeros((K, n_top), dtype=np.int64),
           "top_e": np.zeros((K, n_top), dtype=np.int64), "rest": np.full((K, 3), np.nan)}
    kth = sorted({0, (R - 1) // 2, R // 2, R - 1} | set(range(R, R + n_top))) if R > 0 else list(range(n_top))
    for a in range(0, K, chunk):
        b = min(K, a + chunk)
        rows = _exponent_rows(trace, a, b)
        out["rel"][a:b] = rows[:, rel]
        E = rows[:, irr]
        del rows
        if irr.size == 0:
            continue
        order = np.argpartition(E, kth, axis=1) if kth else np.zeros((b - a, 0), dtype=np.int64)
        top = order[:, R:R + n_top][:, ::-1]  # largest first
        out["top_var"][a:b] = irr[top]
        out["top_e"][a:b] = np.take_along_axis(E, top, axis=1)
        if R > 0:
            srt = lambda j: np.take_along_axis(E, order[:, j:j + 1], axis=1)[:, 0].astype(float)  # noqa: E731
            out["rest"][a:b, 0] = srt(0)
            out["rest"][a:b, 1] = (srt((R - 1) // 2) + srt(R // 2)) / 2
            out["rest"][a:b, 2] = srt(R - 1)
    return out


def promotions(trace, X, y, relevant: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per state, each relevant variable's promotions and demotions so far (counted from the mistakes)."""
    rel = np.asarray(relevant, dtype=np.int64)
    mis = np.asarray(trace.mistakes, dtype=np.int64)
    Xm = (np.asarray(X)[mis][:, rel] != 0).astype(np.int64)
    pos = (np.asarray(y)[mis] == 1)[:, None]
    zero = np.zeros((1, rel.size), dtype=np.int64)
    return (np.vstack([zero, np.cumsum(Xm * pos, axis=0)]), np.vstack([zero, np.cumsum(Xm * ~pos, axis=0)]))


def crossing(proof) -> tuple[float, float] | None:
    """Where the bound sandwich closes: the diagonal M meets the flat bound at (bound, bound)."""
    b = proof.mistake_bound
    return None if b is None or not math.isfinite(b) else (float(b), float(b))


# ------------------------------------------------------------------------------------------ helpers

_axis = axis


def _layout(**kw) -> dict:
    return layout(**{"showlegend": True, **kw})


def _var(i: int) -> str:
    return "x" + str(int(i) + 1).translate(str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉"))


def _weight_ticks(lo_e: float, hi_e: float, L: float, base: float) -> tuple[list, list]:
    """Ticks of the exponent axis, labelled as weights: (1+β)^e when few, powers of ten otherwise."""
    if hi_e - lo_e <= 10 and float(base).is_integer():
        es = list(range(math.ceil(lo_e), math.floor(hi_e) + 1))
        b = f"{base:g}"
        return es, ["1" if e == 0 else (b if e == 1 else b + str(e).translate(_SUP)) for e in es]
    tv, tt = log_ticks(lo_e * L / LN10, hi_e * L / LN10)
    return [round(v * LN10 / L, 4) for v in tv], tt


def _line(name, x, y, color, width=2.0, dash="solid", **kw) -> dict:
    return {"type": "scatter", "mode": "lines", "name": name, "x": x, "y": y,
            "line": {"color": color, "width": width, "dash": dash}, "hoverinfo": "skip", **kw}


def _marker(name, color, size=12, **kw) -> dict:
    return {"type": "scatter", "mode": "markers", "name": name, "x": [], "y": [], "showlegend": False,
            "marker": {"color": color, "size": size, "line": {"color": "#fff", "width": 2}}, "hoverinfo": "skip", **kw}


# ------------------------------------------------------------------------------------------ weights figure

def _slots(trace, rel: np.ndarray, summ: dict | None) -> dict[str, Any]:
    """x positions of what is drawn: every variable (small N), or relevant | largest others | band."""
    N = trace.d
    if summ is None:
        return {"small": True, "x_rel": (rel + 1).tolist(), "n": N}
    k, n_top = rel.size, summ["top_var"].shape[1]
    x_rel = list(range(1, k + 1))
    x_top = list(range(k + 2, k + 2 + n_top)) if k else list(range(1, n_top + 1))
    x_band = (x_top[-1] if x_top else k) + 2
    return {"small": False, "x_rel": x_rel, "x_top": x_top, "x_band": x_band, "n": x_band}


def _moves(trace, X, y, rel, summ, sl, E_all) -> dict[str, list]:
    """Per mistake: the drawn weights it moved, where they were, and the factor's label."""
    base = float(trace.base)
    up, down = f"×{base:g}", f"÷{base:g}"
    xs, prev, ty, tx = [], [], [], []
    for j, r in enumerate(np.asarray(trace.mistakes, dtype=np.int64).tolist()):
        act = np.asarray(X[r]) != 0
        step = 1 if float(y[r]) == 1.0 else -1
        if sl["small"]:
            pairs = [(i + 1, int(E_all[j + 1][i])) for i in np.flatnonzero(act).tolist()]
        else:
            pairs = [(x, int(summ["rel"][j + 1][c])) for c, x in enumerate(sl["x_rel"]) if act[rel[c]]]
            pairs += [(x, int(summ["top_e"][j + 1][c])) for c, x in enumerate(sl["x_top"])
                      if act[summ["top_var"][j + 1][c]]]
        xs.append([p[0] for p in pairs])
        prev.append([p[1] - step for p in pairs])
        ty.append([p[1] + (0.45 if step > 0 else -0.45) for p in pairs])
        tx.append([up if step > 0 else down for _ in pairs])
    return {"x": xs, "prev": prev, "ty": ty, "text": tx}


WEIGHTS_HEIGHT = 340
HEADROOM_PX = 24  # room over the tallest bar's ×2 label


def _rest_band(N: int, rel: np.ndarray, summ: dict, sl: dict, arrays: dict, data: list, dyn: list) -> None:
    """For large N, the weights neither relevant nor among the largest: their min … max band and median (traces 1, 2)."""
    K = summ["rel"].shape[0]
    xb = sl["x_band"]
    rest = summ["rest"]
    arrays["band_x"] = [[xb, xb] if np.isfinite(r[0]) else [] for r in rest]
    arrays["band_y"] = [[r[0], r[2]] if np.isfinite(r[0]) else [] for r in rest]
    arrays["med_x"] = [xb] * K
    arrays["med_y"] = [r[1] if np.isfinite(r[1]) else None for r in rest]
    n_rest = N - rel.size - len(sl["x_top"])
    data.append(_line(f"the other {n_rest:,}: min … max", [], [], IRR_COLOR, width=14))
    dyn.append({"trace": 1, "op": "state", "x": "band_x", "y": "band_y"})
    data.append({"type": "scatter", "mode": "markers", "name": "their median", "x": [], "y": [],
                 "marker": {"symbol": "line-ew", "size": 22, "line": {"width": 3, "color": "#333"}},
                 "hoverinfo": "skip"})
    dyn.append({"trace": 2, "op": "point_state", "x": "med_x", "y": "med_y"})


def _relevant_pattern(relevant: list[bool]) -> dict:
    """The relevant variables' bars hatched (their colour is not the only cue, WCAG 1.4.1)."""
    return {"shape": ["/" if r else "" for r in relevant], "fgcolor": "#ffffff", "fillmode": "overlay", "size": 7,
            "solidity": 0.3}


def _weights_figure(trace, X, y, proof, rel: np.ndarray, arrays: dict, summ: dict | None) -> dict:
    N, L = trace.d, float(trace.log_base)
    base = float(trace.base)
    sl = _slots(trace, rel, summ)
    thr_e = math.log(N) / L
    cap_e = float(proof.series["log_cap"][0]) / L
    if sl["small"]:
        E_all = np.vstack([np.zeros((1, N), dtype=np.int64), _exponents(trace)])
        lo, hi = float(E_all.min()), float(E_all.max())
    else:
        E_all = None
        vals = [summ["rel"], summ["top_e"], summ["rest"][:, [0, 2]]]
        fin = np.concatenate([np.asarray(v, dtype=float).ravel() for v in vals])
        fin = fin[np.isfinite(fin)]
        lo, hi = float(fin.min()), float(fin.max())
    ybot = math.floor(min(lo, 0.0)) - 1
    # headroom: the factor label (centred 0.45 above the tallest bar) stays ≥ HEADROOM_PX below the top edge
    a = HEADROOM_PX / (WEIGHTS_HEIGHT - 8 - 48)  # the plot's height in px (margins of _layout)
    ytop = max(hi + 0.9, cap_e + 0.9, (hi + 0.45 - a * ybot) / (1.0 - a))
    data, dyn = [], []
    mk = lambda a: np.asarray(a, dtype=np.int64) - ybot  # noqa: E731  (bars hang from the axis bottom)
    relset = set(rel.tolist())
    if sl["small"]:
        xs = list(range(1, N + 1))
        arrays["wb_x"] = [xs] * E_all.shape[0]
        arrays["wb_y"] = [mk(r) for r in E_all]
        data.append({"type": "bar", "name": "wᵢ", "x": xs, "y": [0] * N, "base": ybot, "showlegend": False,
                     "marker": {"color": [REL_COLOR if i in relset else IRR_COLOR for i in range(N)],
                                "pattern": _relevant_pattern([i in relset for i in range(N)])},
                     "hoverinfo": "skip"})
        dyn.append({"trace": 0, "op": "state", "x": "wb_x", "y": "wb_y"})
        ticks = {"tickvals": xs if N <= 25 else xs[::5], "ticktext": [_var(i) for i in range(N)][:: 1 if N <= 25 else 5]}
    else:
        K = summ["rel"].shape[0]
        x_all = sl["x_rel"] + sl["x_top"]
        arrays["wb_x"] = [x_all] * K
        arrays["wb_y"] = [mk(np.concatenate([summ["rel"][j], summ["top_e"][j]])) for j in range(K)]
        arrays["wb_text"] = [[""] * rel.size + [_var(v) for v in summ["top_var"][j]] for j in range(K)]
        data.append({"type": "bar", "name": "wᵢ", "x": x_all, "y": [0] * len(x_all), "base": ybot,
                     "showlegend": False, "text": [""] * len(x_all), "textposition": "inside",
                     "insidetextanchor": "start", "textangle": -90, "textfont": {"size": 11, "color": "#1b2a3a"},
                     "marker": {"color": [REL_COLOR] * rel.size + [IRR_COLOR] * len(sl["x_top"]),
                                "pattern": _relevant_pattern([True] * rel.size + [False] * len(sl["x_top"]))},
                     "hoverinfo": "skip"})
        dyn.append({"trace": 0, "op": "state", "x": "wb_x", "y": "wb_y", "text": "wb_text"})
        _rest_band(N, rel, summ, sl, arrays, data, dyn)
        tv = sl["x_rel"] + [(sl["x_top"][0] + sl["x_top"][-1]) / 2 if sl["x_top"] else 0, sl["x_band"]]
        tt = [_var(i) for i in rel] + ["largest other weights", "the rest"]
        ticks = {"tickvals": tv, "ticktext": tt}
    x_hi = sl["n"] + 0.6
    data.append(_line("threshold N (ŷ = 1 iff w·x > N)", [0.4, x_hi], [thr_e, thr_e], "#444", 1.5, "dot"))
    data.append(_line("cap (1+β)N: no weight passes it", [0.4, x_hi], [cap_e, cap_e], COLORS["upper"], 2, "dash"))
    mv = _moves(trace, X, y, rel, summ, sl, E_all)
    arrays["mv_x"], arrays["mv_prev"], arrays["mv_ty"], arrays["mv_text"] = mv["x"], mv["prev"], mv["ty"], mv["text"]
    data.append({"type": "scatter", "mode": "markers", "name": "before this mistake", "x": [], "y": [],
                 "marker": {"symbol": "line-ew", "size": 18 if N <= 25 else 10, "color": "#555",
                            "line": {"width": 2.5, "color": "#555"}}, "hoverinfo": "skip"})
    dyn.append({"trace": len(data) - 1, "op": "on_mistake", "x": "mv_x", "y": "mv_prev"})
    data.append({"type": "scatter", "mode": "text", "name": "factor", "x": [], "y": [], "text": [],
                 "showlegend": False, "textfont": {"size": 12, "color": "#000"}, "hoverinfo": "skip"})
    dyn.append({"trace": len(data) - 1, "op": "on_mistake", "x": "mv_x", "y": "mv_ty", "text": "mv_text"})
    yv, yt = _weight_ticks(ybot, ytop, L, base)
    layout = _layout(xaxis=_axis("hatched green bars: the target's relevant variables", range=[0.4, x_hi], **ticks),
                     yaxis=_axis("weight wᵢ (log scale)", range=[ybot, ytop], tickvals=yv, ticktext=yt),
                     bargap=0.2)
    title = ("Weights after the round (log scale)" if sl["small"] else
             f"Weights after the round (log scale): the relevant ones, the {len(sl['x_top'])} largest others, "
             f"and the rest as a band")
    return {"id": "weights", "title": title, "height": WEIGHTS_HEIGHT, "figure": {"data": data, "layout": layout},
            "config": {"displayModeBar": False}, "dynamic": dyn}


# ------------------------------------------------------------------------------------------ sandwiches

def _reveal_rounds(trace) -> list[int]:
    """For ``rows_before`` (rows with round < p − 1): state j ≥ 1 is shown from the position where it
    starts, p = (its mistake) + 1; state 0 from p = 2 (rounds cannot be negative: before that the
    marker of the current state stands alone)."""
    return [0] + np.maximum(np.asarray(trace.mistakes, dtype=np.int64) - 1, 0).tolist()


def _potential_figure(trace, proof, arrays: dict) -> dict:
    S = proof.series
    M = proof.n_mistakes.astype(float)
    l10 = lambda key: (np.asarray(S[key], dtype=float) / LN10).round(4) + 0.0  # noqa: E731
    arrays["pot_r"] = _reveal_rounds(trace)
    arrays["pot_M"] = M
    arrays["pot_phi"], arrays["pot_up"] = l10("log_phi"), l10("log_upper")
    floor = float(S["log_floor"][0]) / LN10
    x_hi = max(float(M[-1]), 1.0) * 1.05
    data = [
        _line("floor N/(1+β)", [0, x_hi], [floor, floor], COLORS["lower"], 2, "dot"),
        _line("upper N + βNm⁺ − βNm⁻/(1+β)", [], [], COLORS["upper"], 2.5, "dash"),
        _line("Φ = Σ wᵢ", [], [], COLORS["w"], 2.5),
        _marker("upper now", COLORS["upper"]), _marker("Φ now", COLORS["w"]),
    ]
    dyn = [{"trace": 1, "op": "rows_before", "rounds": "pot_r", "x": "pot_M", "y": "pot_up"},
           {"trace": 2, "op": "rows_before", "rounds": "pot_r", "x": "pot_M", "y": "pot_phi"},
           {"trace": 3, "op": "point_state", "x": "pot_M", "y": "pot_up"},
           {"trace": 4, "op": "point_state", "x": "pot_M", "y": "pot_phi"}]
    vals = np.concatenate([arrays["pot_phi"], arrays["pot_up"], [floor]])
    vals = vals[np.isfinite(vals)]
    lo, hi = float(vals.min()), float(vals.max())
    pad = max(0.08, 0.07 * (hi - lo))
    tv, tt = log_ticks(lo - pad, hi + pad)
    layout = _layout(xaxis=_axis("mistakes M", range=[-0.02 * x_hi, x_hi], **({"dtick": 1} if x_hi <= 12 else {})),
                     yaxis=_axis("log scale", range=[lo - pad, hi + pad], tickvals=tv, ticktext=tt))
    return {"id": "potential", "title": "Potential Φ = Σ wᵢ between its floor and its upper bound",
            "height": 300, "figure": {"data": data, "layout": layout}, "config": {"displayModeBar": False},
            "dynamic": dyn}


def _bound_figure(trace, proof, arrays: dict) -> dict:
    """M < (1+β)/β + (2+β)m⁺ ≤ bound, against M: the diagonal meets the flat bound at the crossing."""
    S = proof.series
    M = proof.n_mistakes.astype(float)
    arrays["bd_r"] = _reveal_rounds(trace)
    arrays["bd_M"] = M
    arrays["bd_tc"] = np.asarray(S["total_cap"], dtype=float).round(4)
    b = proof.mistake_bound
    m_end = float(M[-1])
    far = b is not None and b > 6.0 * max(m_end, 4.0)
    top_data = max(float(np.nanmax(arrays["bd_tc"])), m_end, 1.0)
    x_hi = (b * 1.25 if far else b * 1.12) if b is not None else max(m_end, 1.0) * 1.1
    y_hi = max(x_hi, top_data * 1.08)
    lo = 0.8 if far else 0.0
    diag = np.geomspace(lo, x_hi, 60) if far else np.array([0.0, x_hi])
    data = [_line("y = M: the left side of M < …, as a function of M", diag.round(4), diag.round(4), COLORS["w"], 2, "dot"),
            _line("(1+β)/β + (2+β)m⁺ (the run)", [], [], COLORS["inner"], 2.5),
            _marker("M now", COLORS["w"]), _marker("(1+β)/β + (2+β)m⁺ now", COLORS["inner"])]
    dyn = [{"trace": 1, "op": "rows_before", "rounds": "bd_r", "x": "bd_M", "y": "bd_tc"},
           {"trace": 2, "op": "point_state", "x": "bd_M", "y": "bd_M"},
           {"trace": 3, "op": "point_state", "x": "bd_M", "y": "bd_tc"}]
    shapes, ann = [], []
    if b is not None:
        c = crossing(proof)
        data.append(_line("bound (1+β)/β + (2+β)k(1 + log₍₁₊β₎N)", [lo, x_hi], [b, b], COLORS["upper"], 2.5, "dash"))
        # named in the legend, not written on the chart (a label there would cover the curves)
        data.append({"type": "scatter", "mode": "markers", "meta": "crossing", "x": [c[0]], "y": [c[1]],
                     "name": f"× the curves cross: M < {b:.4g} (shaded: beyond it)",
                     "marker": {"symbol": "x", "size": 13, "color": COLORS["upper"]},
                     "hovertemplate": f"the sandwich closes: M < {b:.6g}, the bound<extra></extra>"})
        shapes.append({"type": "rect", "xref": "x", "yref": "paper", "x0": math.log10(b) if far else b,
                       "x1": math.log10(x_hi) if far else x_hi, "y0": 0, "y1": 1, "layer": "below",
                       "fillcolor": "rgba(214,39,40,0.08)", "line": {"width": 0}})
    else:
        ann.append({"x": 1, "xref": "paper", "y": 0.02, "yref": "paper", "xanchor": "right", "yanchor": "bottom",
                    "showarrow": False, "font": {"size": 13},
                    "text": "no bound: the labels are not a monotone disjunction's"})
    if far:
        xa = _axis("mistakes M (log scale)", type="log", range=[math.log10(lo), math.log10(x_hi)])
        ya = _axis("mistakes (log scale)", type="log", range=[math.log10(lo), math.log10(y_hi)])
    else:
        xa = _axis("mistakes M", range=[0, x_hi], **({"dtick": 1} if x_hi <= 12 else {}))
        ya = _axis("mistakes", range=[0, y_hi])
    layout = _layout(xaxis=xa, yaxis=ya, shapes=shapes, annotations=ann)
    return {"id": "bound", "title": "The sandwich closes: M < (1+β)/β + (2+β)m⁺ ≤ the bound",
            "height": 340, "figure": {"data": data, "layout": layout}, "config": {"displayModeBar": False},
            "dynamic": dyn}


# ------------------------------------------------------------------------------------------ ledger

def _exp_series(proof, key: str) -> np.ndarray:
    """A log series of the proof as the number it is the log of (Φ, a weight, a bound)."""
    with np.errstate(over="ignore", invalid="ignore"):
        return np.exp(np.asarray(proof.series[key], dtype=float))


def _per_variable_lines(trace, X, y, proof, rel: np.ndarray, reasons: dict) -> list[dict]:
    """Each relevant weight's own sandwich (for k ≤ 4): w_i = (1+β)^{p_i} ≤ (1+β)N, p_i ≤ 1 + log₍₁₊β₎N."""
    if rel.size == 0 or rel.size > 4:
        return []
    E = _exponent_columns(trace, rel)
    P, D = promotions(trace, X, y, rel)
    L = float(trace.log_base)
    cap = float(proof.constants["per_variable_promotions_cap"])
    links = [("rel_demotions", "zero"), ("log_w_rel_max", "log_w_max"), ("log_w_max", "log_cap"),
             ("k_max_promotions", "k_cap")]
    ok = holds(proof, links)
    out = []
    for c, i in enumerate(rel.tolist()):
        with np.errstate(over="ignore"):
            w = np.exp(E[:, c] * L)
        # this variable's own two relations, as its numbers decide (w_i ≤ (1+β)N: p_i ≤ its cap)
        log_cap = float(proof.series["log_cap"][0])
        own = [(E[:, c] * L <= log_cap + 1e-9 * max(1.0, abs(log_cap))).astype(int).tolist(),
               (P[:, c] <= cap).astype(int).tolist()]
        out.append(not_applicable(live_relations({
            "latex": r"w_{«var»} = (1+\beta)^{«e»} = «w» \le (1+\beta)N = «cw»:\;\; p_{«var»} = «p»\ \text{(promotions)}, "
                     r"d_{«var»} = «d»\ \text{(demotions)}, \; p_{«var»} \le 1 + \log_{1+\beta} N = «pc»",
            "values": {"var": const(i + 1, "d"), "e": by_state(E[:, c].astype(float), "d"), "w": by_state(w, ".6g"),
                       "cw": const(math.exp(float(proof.series["log_cap"][0])), ".6g"),
                       "p": by_state(P[:, c].astype(float), "d"), "d": by_state(D[:, c].astype(float), "d"),
                       "pc": const(cap, ".4g")},
            "holds": {"by": "state", "data": ok},
            "reason": f"relevant variable x_{{{i + 1}}}: " + reasons["relevant variables never demoted"][0]
                      + "; " + reasons["weight cap"][1]}, own), proof, links, NEEDS))
    return out


def _relevant_lines(proof, st, R: dict) -> list[tuple[dict, list]]:
    """The steps that need the labels to be the target disjunction's, each with its links."""
    def H(*links):
        return {"by": "state", "data": holds(proof, list(links))}
    dem = [("rel_demotions", "zero")]
    pos = [("m_plus", "rel_promotions"), ("rel_promotions", "k_max_promotions"), ("k_max_promotions", "k_cap")]
    return [
        # the words under the formula, not in it: a \text{…} cannot wrap (it ran past the game's narrow column)
        ({"latex": r"\textstyle\sum_{i\in R} d_i = «rd» \le 0",
          "values": {"rd": st("rel_demotions", "d")}, "holds": H(*dem),
          "reason": "on the target's labels relevant weights are never demoted: dᵢ = the demotions of relevant "
                    "variable i so far; " + R["relevant variables never demoted"][0]},
         dem),
        ({"latex": r"m^+ = «mp» \le \textstyle\sum_{i\in R} p_i = «rp» \le k\max_{i\in R} p_i = «kmp» "
                   r"\le k(1 + \log_{1+\beta} N) = «kc»",
          "values": {"mp": st("m_plus", "d"), "rp": st("rel_promotions", "d"), "kmp": st("k_max_promotions", "d"),
                     "kc": st("k_cap", ".5g")},
          "holds": H(*pos),
          "reason": "pᵢ = the promotions of relevant variable i so far; " + "; ".join(R["mistakes on positives"])},
         pos),
    ]


def _ledger_lines(trace, X, y, proof, rel: np.ndarray | None) -> list[dict]:
    S = proof.series
    c = proof.constants
    R = {ch.name: ch.reasons for ch in proof.chains}
    st = lambda key, fmt=".6g": by_state(np.asarray(S[key], dtype=float), fmt)  # noqa: E731
    ex = lambda key, fmt=".6g": by_state(_exp_series(proof, key), fmt)  # noqa: E731
    H = lambda *links: {"by": "state", "data": holds(proof, list(links))}  # noqa: E731
    lines = [
        {"latex": r"0 < \tfrac{N}{1+\beta} = «fl» < \Phi_{t+1} = «phi»",
         "values": {"fl": ex("log_floor"), "phi": ex("log_phi")},
         "holds": H(("log_zero", "log_phi"), ("log_floor", "log_phi")),
         "reason": R["potential Φ = Σ w"][0] + "; " + R["floor of Φ"][0]},
        {"latex": r"\Phi_{t+1} = «phi» \le N + \beta N m^+ - \tfrac{\beta}{1+\beta} N m^- = «up»"
                  r"\quad (m^+ = «mp»,\ m^- = «mm»)",
         "values": {"phi": ex("log_phi"), "up": ex("log_upper"), "mp": st("m_plus", "d"), "mm": st("m_minus", "d")},
         "holds": H(("log_phi", "log_upper")), "reason": R["potential Φ = Σ w"][1]},
        {"latex": r"m^- = «mm» < 1 + (1+\beta)m^+ = «ms» < \tfrac{1+\beta}{\beta} + (1+\beta)m^+ = «mc»",
         "values": {"mm": st("m_minus", "d"), "ms": st("m_minus_sharp", ".6g"), "mc": st("m_minus_cap", ".6g")},
         "holds": H(("m_minus", "m_minus_sharp"), ("m_minus_sharp", "m_minus_cap")),
         "reason": R["mistakes on negatives"][0]},
        {"latex": r"\max_{i\in R} w_i = «wr» \le \max_i w_i = «wm» \le (1+\beta)N = «cap»",
         "values": {"wr": ex("log_w_rel_max"), "wm": ex("log_w_max"), "cap": ex("log_cap")},
         "holds": H(("log_w_rel_max", "log_w_max"), ("log_w_max", "log_cap")),
         "reason": R["weight cap"][1]},
    ]
    if rel is not None:
        lines += _per_variable_lines(trace, X, y, proof, rel, R)
    lines += [not_applicable(line, proof, links, NEEDS) for line, links in _relevant_lines(proof, st, R)]
    lines += [
        {"latex": r"M = «M» < \tfrac{1+\beta}{\beta} + (2+\beta)m^+ = «tc»",
         "values": {"M": st("M", "d"), "tc": st("total_cap", ".6g")}, "holds": H(("M", "total_cap")),
         "reason": R["total mistakes"][0]},
    ]
    b = proof.mistake_bound
    if b is None:
        why = "; ".join(a.detail for a in proof.failed_assumptions) or "no target disjunction"
        lines.append({"latex": r"M < \tfrac{1+\beta}{\beta} + (2+\beta)k(1 + \log_{1+\beta}N)\;\text{: n/a}", "na": True,
                      "reason": "the theorem needs labels from a monotone disjunction: " + why})
    else:
        tex = r"M = «M» < \tfrac{1+\beta}{\beta} + (2+\beta)k(1 + \log_{1+\beta}N) = «b»"
        if float(c["beta"]) == 1.0:
            tex = r"M = «M» < 2 + 3\cdot{«k»}\,(\log_2 {«N»} + 1) = «b»"
        lines.append({"latex": tex, "values": {"M": st("M", "d"), "b": const(b, ".6g"), "k": const(c["k"], "d"),
                                               "N": const(c["N"], "d")},
                      "holds": H(("M", "mistake_bound")),
                      "reason": f"m⁺ ≤ k(1 + log₍₁₊β₎N) in the line above: the sandwich closes (k = {c['k']}, "
                                f"N = {c['N']}, β = {c['beta']:g}; the floor N/(1+β) gives the sharper "
                                f"{c['mistake_bound_sharp']:.6g})"})
    return _ledger(lines)


# ------------------------------------------------------------------------------------------ caption

def _caption(trace, X, y, proof, rel: np.ndarray | None) -> dict:
    T, N = trace.T, trace.d
    A = np.asarray(X)
    on = np.empty(T, dtype=np.int64)
    ron = np.zeros(T, dtype=np.int64)
    rows = max(1, (1 << 20) // max(N, 1))     # blocks of ≈ 1 MB of the data (4,096 rows were 40 MB at N = 10⁴)
    for a in range(0, T, rows):
        blk = A[a:a + rows] != 0
        on[a:a + rows] = np.count_nonzero(blk, axis=1)
        if rel is not None and rel.size:
            ron[a:a + rows] = np.count_nonzero(blk[:, rel], axis=1)
    pred = np.asarray(trace.predictions).astype(np.int64)
    yy = np.asarray(y).astype(np.int64)
    with np.errstate(over="ignore"):
        score = np.exp(np.asarray(trace.columns["log_score"], dtype=float))
    base = float(trace.base)
    what = np.where(pred == yy, 0, np.where(yy == 1, 1, 2))
    vals = {
        "on": by_round(on, "d"), "y": by_round(yy, "d"), "yhat": by_round(pred, "d"),
        "sc": by_round(score, ".6g"), "cmp": by_round(pred, labels=["≤", ">"]),
        "what": by_round(what, labels=["correct: no update",
                                       f"MISTAKE on a positive → promote: every active weight × {base:g}",
                                       f"MISTAKE on a negative → demote: every active weight ÷ {base:g}"]),
        "M": by_state(proof.n_mistakes.astype(float), "d"),
        "mp": by_state(np.asarray(proof.series["m_plus"], dtype=float), "d"),
        "mm": by_state(np.asarray(proof.series["m_minus"], dtype=float), "d"),
    }
    rel_txt = ""
    if rel is not None:
        vals["ron"] = by_round(ron, "d")
        rel_txt = " ({ron} of the " + str(rel.size) + " relevant)"
    template = ("Round {t} of {T}: x has {on} ones" + rel_txt + ", label y = {y}; w·x = {sc} {cmp} N = "
                + f"{N:,}" + " → ŷ = {yhat}: {what}. Mistakes so far M = {M} (m⁺ = {mp}, m⁻ = {mm}).")
    return {"template": template, "values": vals,
            "start": f"Round 0 of {{T}}: every weight is 1, Φ = N = {N:,}. Press Next or Next mistake."}


# ------------------------------------------------------------------------------------------ the spec

def winnow_spec(trace, X, y, *, run_id: str, position: int = 0, per_variable: bool = True) -> dict:
    """The viewer spec for a Winnow run on ``X`` (T × N, 0/1) and ``y`` (0/1). ``per_variable=False`` leaves out
    the ledger's lines of each relevant variable (they name the target's variables: a game that hides them)."""
    A = np.asarray(X)
    y = np.asarray(y, dtype=np.float64)
    T, N = A.shape
    if trace.algorithm != "winnow":
        raise ValueError(f"not a Winnow run: {trace.algorithm}")
    if T != trace.T or N != trace.d:
        raise ValueError("the data do not match the trace")
    proof = trace.proof
    rel_c = proof.constants.get("relevant")
    rel = None if rel_c is None else np.asarray(rel_c, dtype=np.int64)
    arrays: dict[str, Any] = {}
    rel0 = rel if rel is not None else np.zeros(0, dtype=np.int64)
    summ = None if N <= SMALL_N else exponent_summary(trace, rel0)
    figures = [_weights_figure(trace, A, y, proof, rel0, arrays, summ),
               _potential_figure(trace, proof, arrays), _bound_figure(trace, proof, arrays)]
    mistakes = np.asarray(trace.mistakes, dtype=np.int64)
    spec = {
        "version": 1, "run_id": run_id, "T": int(T), "position": int(position), "url_param": "t",
        "breaks": (mistakes + 1).tolist(), "mistake_rounds": mistakes, "arrays": arrays, "figures": figures,
        "ledger": {"title": "Proof ledger after round t (Φ_{t+1}, w: the weights after it)",
                   "lines": _ledger_lines(trace, A, y, proof, rel if per_variable else None)},
        "caption": _caption(trace, A, y, proof, rel),
        "layout": {"columns": [["weights", "potential"], ["bound", "ledger"]], "widths": [1.1, 1]},
        "speed": int(max(2, min(200, T // 25))),
    }
    E = np.vstack([np.zeros((1, N), dtype=np.int64), _exponents(trace)]) if summ is None else None
    return describe_winnow(jsonable(spec), trace, rel, E=E, summ=summ)
