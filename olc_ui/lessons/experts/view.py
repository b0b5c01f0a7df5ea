r"""Step-viewer specs for the Experts lesson (pure: a trace and its advice in, a JSON-ready dict out).

Weighted Majority, Randomised Weighted Majority and Halving run on the same expert
advice ``X`` (T × N, ±1) and labels ``y``. Everything drawn comes from the run:
the learner's (log) weights ``trace.log_weights_at(p)``, its predictions and
per-round columns (``wrong_fraction``, ``F``, ``chosen_expert``, ``vote``), the
proof's series (``proof.series``: natural logs of the potential and its bounds)
and the proof's own per-state checks (``proof.check_matrix()``). The view only
converts natural logs to powers of ten for the axes and draws.

Figures (ids):

* ``weights`` — the experts' weights as bars on a log scale (a bar hangs from the
  bottom of the axis up to ``w_i``), with the potential ``Φ_t = Σ w_i``, its upper
  bound and the best expert's lower bound drawn on the same axis: the whole
  sandwich at the current round. Weights that are only ever 0 or 1 (Halving, β = 0,
  η = 1) are drawn on a linear axis: the version space.
* ``advice`` — the advice matrix as a heat map (rows: experts, plus the label and
  the learner's prediction; pale cells are wrong advice), the current round marked
  ▼ ▲. The matrix is a palette PNG under the axes (drawn once), so every trace is a
  scatter or a bar: the viewer animates the markers without redrawing the matrix
  (a plotly heatmap trace is cleared by the viewer's ``Plotly.animate``, and needs
  the full plotly bundle).
* ``mistakes`` — cumulative mistakes of the learner against the best expert so far
  and the theorem's running bound; for RWM also the expected mistakes ``Σ F_t`` and
  the band of realised mistakes over many seeded runs.
* ``sandwich`` — the proof's chain in log scale against the mistake count (the
  expected mistake count for RWM), with the proven bounds drawn to where they must
  cross: the mistake bound.

Positions: ``p`` rounds processed (0 … T). States (``breaks``) are the positions
where the weights change, so the per-state weight bars stay small; every other
value is given per position or per round.

>>> log_ticks(-6.2, 0.4)[1]
['10⁻⁶', '10⁻⁵', '10⁻⁴', '10⁻³', '10⁻²', '10⁻¹', '1']
"""
from __future__ import annotations

import base64
import math
import struct
import zlib
from typing import Any

import numpy as np

from olc_ui.lessons.experts.plot import BEST_COLOR, LD, SHADE, _finite, _l10, _range, _thin_idx  # noqa: F401
from olc_ui.lessons.experts.sandwich import sandwich_figure
from olc_ui.shared.sandwich_view import LN10, log_ticks  # noqa: F401  (LN10: tests read it here)
from olc_ui.shared.spec_tools import axis, COLORS, layout, ledger as _ledger, position_holds, position_states, state_holds
from olc_ui.shared.spec_tools import not_applicable
from olc_ui.viewer.spec import jsonable, with_infinities

from .describe import describe_experts

__all__ = ["experts_spec", "log_ticks", "weight_breaks", "advice_classes", "cell_templates", "png_data_uri", "ALG_NAMES",
           "LN10"]

ALG_NAMES = {"weighted_majority": "Weighted Majority", "randomized_weighted_majority": "Randomised Weighted Majority",
             "halving": "Halving"}
EXPERT_COLOR = "#7f9fbf"
ADVICE_COLORS = {  # heat map: says −1 / +1, right (strong) or wrong (pale)
    -2: "#c0392b", -1: "#f3c1bb", 1: "#b9d3ec", 2: "#1f6fb4"}


# ------------------------------------------------------------------------------------------ small helpers

def _round_holds(proof, links, T: int) -> list:
    """Per round (a link checked in the state before the round, e.g. a one-round step): 1 / 0 / None."""
    return [None if v < 0 else v for v in state_holds(proof, links)[position_states(proof)[:T]].tolist()]


def _sig(a, n: int = 6) -> np.ndarray:
    """Values rounded to ``n`` significant digits, exactly as ``format(v, f".{n}g")`` rounds (short JSON)."""
    a = np.asarray(a, dtype=np.float64)
    return np.array([float(f"{v:.{n}g}") + 0.0 if math.isfinite(v) else v for v in a.tolist()], dtype=np.float64)


def _shown(a, fmt: str) -> np.ndarray:
    """Values rounded to what the format shows (so the browser's rounding cannot differ from Python's)."""
    a = np.asarray(a, dtype=np.float64)
    if fmt.endswith("g"):
        return _sig(a, int(fmt[fmt.index(".") + 1:-1]) if "." in fmt else 6)
    if fmt.endswith("f"):
        return np.round(a, int(fmt[fmt.index(".") + 1:-1])) + 0.0
    return a + 0.0


def _pos(a, fmt: str = ".4g") -> dict:
    return {"by": "position", "data": with_infinities(_shown(a, fmt)), "fmt": fmt}


def _rnd(a, fmt: str = ".4g", labels: list[str] | None = None) -> dict:
    a = np.asarray(a)
    out = {"by": "round", "data": with_infinities(_shown(a, fmt)) if a.dtype.kind == "f" else a,
           "fmt": "text" if labels else fmt}
    if labels:
        out["labels"] = labels
    return out


def _phrases(strings: list[str]) -> dict:
    """A per-round phrase written in Python, sent as labels (the distinct phrases) and indices."""
    labels: dict[str, int] = {}
    data = [labels.setdefault(t, len(labels)) for t in strings]
    return {"by": "round", "data": data, "fmt": "text", "labels": list(labels)}


def _const(v, fmt: str = ".4g") -> dict:
    return {"const": None if v is None or not math.isfinite(float(v)) else float(v), "fmt": fmt}


_axis, _layout = axis, layout


def _binary(trace) -> bool:
    """Weights only ever 0 or 1: Halving, WM with β = 0, RWM with η = 1."""
    if trace.algorithm == "halving":
        return True
    return float(trace.info.get("beta", 0.5)) == 0.0


def weight_breaks(trace) -> tuple[list[int], list[np.ndarray]]:
    """Positions where the weights change, and the weights (natural logs; 0/1 for Halving) in each state."""
    get = trace.weights_at if trace.algorithm == "halving" else trace.log_weights_at
    prev = np.asarray(get(0), dtype=np.float64)
    states = [prev]
    breaks = []
    for p in range(1, trace.T + 1):
        cur = np.asarray(get(p), dtype=np.float64)
        if not np.array_equal(cur, prev):
            breaks.append(p)
            states.append(cur)
            prev = cur
    return breaks, states


def _steps(x, y) -> tuple[list, list]:
    """A step function drawn with line shape "hv": only the points where it changes (and the last)."""
    x, y = np.asarray(x), np.asarray(y, dtype=float)
    if y.size == 0:
        return [], []
    keep = np.ones(y.size, dtype=bool)
    keep[1:] = (y[1:] != y[:-1]) & ~(np.isnan(y[1:]) & np.isnan(y[:-1]))
    keep[-1] = True
    return x[keep].tolist(), y[keep].tolist()


def _thin(x, y, max_points: int = 700) -> tuple[list, list]:
    """A path without repeated points, evenly thinned to at most ``max_points`` (the last one kept)."""
    x, y = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    idx = _thin_idx(x, y, max_points)
    return x[idx].tolist(), y[idx].tolist()


# ------------------------------------------------------------------------------------------ figures

def _weights_figure(trace, breaks, states, proof, M_pos, i_star: int, N: int, arrays: dict) -> dict:
    K = len(states)
    xs = list(range(1, N + 1))
    colors = [BEST_COLOR if i == i_star else EXPERT_COLOR for i in range(N)]
    bar_cue = _best_cue(N, i_star)
    arrays["wb_x"] = [xs] * K
    binary = _binary(trace)
    if binary:
        arrays["wb_y"] = [np.where(np.asarray(s) > 0 if trace.algorithm == "halving" else np.isfinite(s), 1, 0)
                          for s in states]
        data = [{"type": "bar", "name": "weight wᵢ (1: still in the version space)", "x": xs, "y": [0] * N,
                 "marker": {"color": colors, "pattern": bar_cue["pattern"]}, **bar_cue["text"],
                 "hovertemplate": "expert %{x}: w = %{y}<extra></extra>"}]
        layout = _layout(xaxis=_axis("expert i (hatched, “best”: i*)", range=[0.4, N + 0.6], dtick=1 if N <= 25 else 5),
                         yaxis=_axis("weight wᵢ", range=[0, 1.15], tickvals=[0, 1]), bargap=0.15)
        title = ("Weights: 1 while an expert is consistent, 0 once removed (the version space)"
                 if trace.algorithm == "halving" else
                 "Weights: β = 0 removes an expert at its first penalty" if trace.algorithm == "weighted_majority"
                 else "Weights: η = 1 removes an expert at its first penalty (its weight × (1 − η) = 0)")
        return {"id": "weights", "title": title, "height": 300, "figure": {"data": data, "layout": layout},
                "config": {"displayModeBar": False}, "dynamic": [{"trace": 0, "op": "state", "x": "wb_x",
                                                                   "y": "wb_y"}]}
    S = proof.series
    T = trace.T
    L = [_l10(s) for s in states]
    phi10 = _l10(S["log_phi"])
    up10 = _l10(S["upper"])
    lo10 = _l10(S["lower_best"])
    fin = _finite(*L, phi10, up10, lo10)
    ybot, ytop = _range(fin, top=math.log10(N))
    arrays["wb_y"] = [np.round(np.where(np.isfinite(l), l - ybot, 0.0), LD) for l in L]
    # Φ_t and its upper bound change only where the weights (and M) do: one segment per state
    first_pos = np.concatenate([[0], np.asarray(breaks, dtype=np.int64)])
    seg_x = [0.5, N + 0.5]
    arrays["phi_x"] = [seg_x] * K
    arrays["phi_y"] = [[phi10[p], phi10[p]] if np.isfinite(phi10[p]) else None for p in first_pos]
    arrays["up_x"] = [seg_x] * K
    arrays["up_y"] = [[up10[p], up10[p]] for p in first_pos]
    # the best expert's lower bound β^{m_{i*}} changes on every round i* is wrong: one point per position
    arrays["lo_x"] = [i_star + 1] * (T + 1)
    arrays["l10_lower_best"] = lo10[position_states(proof)]
    algo = trace.algorithm
    lname = "lower β<sup>m(i*)</sup>" if algo == "weighted_majority" else "lower (1−η)<sup>m(i*)</sup>"
    uname = "upper N((1+β)/2)<sup>M</sup>" if algo == "weighted_majority" else "upper N·e<sup>−η ΣF</sup>"
    data = [
        {"type": "bar", "name": "wᵢ", "x": xs, "y": [0] * N, "base": round(ybot, LD),
         "marker": {"color": colors, "pattern": bar_cue["pattern"]}, **bar_cue["text"], "hoverinfo": "skip",
         "showlegend": False},
        {"type": "scatter", "mode": "lines", "name": "Φ = Σ wᵢ", "x": [], "y": [],
         "line": {"color": COLORS["w"], "width": 3}, "hovertemplate": "Φₜ: 10^%{y:.3f}<extra></extra>"},
        {"type": "scatter", "mode": "lines", "name": uname, "x": [], "y": [],
         "line": {"color": COLORS["upper"], "width": 2.5, "dash": "dash"},
         "hovertemplate": "upper bound: 10^%{y:.3f}<extra></extra>"},
        {"type": "scatter", "mode": "markers", "name": lname, "x": [], "y": [],
         "marker": {"symbol": "line-ew", "size": max(10, min(40, 420 // max(N, 1))), "color": COLORS["lower"],
                    "line": {"width": 4, "color": COLORS["lower"]}},
         "hovertemplate": "lower bound: 10^%{y:.3f}<extra></extra>"},
    ]
    tv, tt = log_ticks(ybot, ytop)
    layout = _layout(xaxis=_axis("expert i (hatched, “best”: i*, the best expert of the run)", range=[0.4, N + 0.6],
                                 dtick=1 if N <= 25 else 5),
                     yaxis=_axis("weight (log scale)", range=[ybot, ytop], tickvals=tv, ticktext=tt), bargap=0.15)
    dyn = [{"trace": 0, "op": "state", "x": "wb_x", "y": "wb_y"},
           {"trace": 1, "op": "state", "x": "phi_x", "y": "phi_y"},
           {"trace": 2, "op": "state", "x": "up_x", "y": "up_y"},
           {"trace": 3, "op": "point_position", "x": "lo_x", "y": "l10_lower_best"}]
    return {"id": "weights", "title": "Expert weights after the round, log scale",
            "height": 330, "figure": {"data": data, "layout": layout}, "config": {"displayModeBar": False},
            "dynamic": dyn}


def _best_cue(N: int, i_star: int) -> dict:
    """The best expert's bar told apart without its colour (WCAG 1.4.1): a hatch and the word "best" in it."""
    return {"pattern": {"shape": ["x" if i == i_star else "" for i in range(N)], "fgcolor": "#ffffff", "fillmode": "overlay",
                        "size": 7, "solidity": 0.25},
            "text": {"text": ["best" if i == i_star else "" for i in range(N)], "textposition": "inside",
                     "textangle": "auto", "insidetextanchor": "start", "textfont": {"size": 12, "color": "#000000"}}}


def weights_note(trace, A: np.ndarray, y: np.ndarray, i_star: int) -> str | None:
    """Why the best expert of the whole run (green) need not have the largest weight, with the run's numbers
    (Weighted Majority with β > 0; None for the other learners)."""
    if trace.algorithm != "weighted_majority" or not trace.info.get("beta"):
        return None
    wrong = (np.asarray(A) > 0) != (np.asarray(y)[:, None] > 0)               # (T, N): expert i wrong on round t
    total = wrong.sum(axis=0)
    every = trace.info.get("update") == "every_round"
    pen = total if every else wrong[np.asarray(trace.mistakes, dtype=np.int64)].sum(axis=0)
    j = int(np.argmin(pen))                                                  # the largest weight at the end
    M, T = trace.n_mistakes, trace.T
    if every:
        return (f"Every expert's weight is β^(its mistakes so far), so at round t the heaviest expert is the best "
                f"so far, which need not be i* = expert {i_star + 1}, the best of the whole run "
                f"({int(total[i_star])} mistakes in {T} rounds).")
    star = f"i* = expert {i_star + 1} erred on {int(pen[i_star])} of them ({int(total[i_star])} in all)"
    if pen[j] < pen[i_star]:
        star += (f", expert {j + 1} on only {int(pen[j])} ({int(total[j])} in all), so at the end expert {j + 1} "
                 f"outweighs i*")
    return (f"Weights count mistakes only on the rounds where WM itself erred (M = {M} of {T}): w_i = β^(those "
            f"mistakes of i so far). {star}. The best expert of the whole run need not have the largest weight at "
            f"round t.")


def png_data_uri(index_rows: np.ndarray, palette: list[str]) -> str:
    """A palette PNG (8-bit indices into ``palette``, "#rrggbb") as a data: URI (zlib only, no imaging library)."""
    rows = np.ascontiguousarray(index_rows, dtype=np.uint8)
    h, w = rows.shape
    up = np.empty_like(rows)
    up[0] = rows[0]
    up[1:] = rows[1:] - rows[:-1]                       # PNG filter "Up" (mod 256): repeated rows become zeros
    raw = np.hstack([np.full((h, 1), 2, dtype=np.uint8), up]).tobytes()

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    plte = b"".join(bytes.fromhex(c[1:]) for c in palette)
    png = (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 3, 0, 0, 0))
           + chunk(b"PLTE", plte) + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b""))
    return "data:image/png;base64," + base64.b64encode(png).decode("ascii")


#: heat map classes → palette index (the blank row between the learner and the experts is white)
_CLASSES = (-2, -1, 1, 2)
_WHITE = 4


def cell_templates(cell: int) -> np.ndarray:
    """(5, cell) palette indices down one cell of the advice image, per class (−1 right, −1 wrong, +1 wrong,
    +1 right, blank): the advice is told without its colour too (WCAG 1.4.1) — +1 fills the upper 70 % of
    the cell, −1 the lower 70 %; wrong advice is pale inside a stroke of the strong colour (outlined), right
    advice solid.

    >>> cell_templates(10)[:, :].tolist()[3], cell_templates(10)[1].tolist()
    ([3, 3, 3, 3, 3, 3, 3, 4, 4, 4], [4, 4, 4, 0, 1, 1, 1, 1, 1, 0])
    """
    body, stroke = round(0.7 * cell), max(1, cell // 7)
    t = np.full((5, cell), _WHITE, dtype=np.uint8)
    for k, (strong, pale, lo) in enumerate(((0, 1, cell - body), (0, 1, cell - body), (3, 2, 0), (3, 2, 0))):
        t[k, lo:lo + body] = strong
        if k in (1, 2):                                   # wrong: pale inside the stroke
            t[k, lo + stroke:lo + body - stroke] = pale
    return t


def advice_classes(trace, A: np.ndarray, y: np.ndarray) -> np.ndarray:
    """(N + 3, T) cell classes: ±2 says ±1 and is right, ±1 says ±1 and is wrong; rows: the label, the
    learner's prediction, a blank row (0), then the experts."""
    T, N = A.shape
    plus = A > 0
    right = plus == (y[:, None] > 0)
    z_exp = np.where(plus, 1, -1) * np.where(right, 2, 1)
    pred = np.asarray(trace.predictions)
    z_lab = np.where(y > 0, 2, -2)
    z_pred = np.where(pred > 0, 1, -1) * np.where(pred == np.where(y > 0, 1, -1), 2, 1)
    return np.vstack([z_lab, z_pred, np.zeros(T, dtype=int), z_exp.T]).astype(np.int8)


def _advice_figure(trace, A: np.ndarray, y: np.ndarray, i_star: int, arrays: dict) -> dict:
    """The advice matrix as an image (drawn once; the viewer then only moves the current-round marker)."""
    T, N = A.shape
    z = advice_classes(trace, A, y)
    idx = np.full(z.shape, _WHITE, dtype=np.uint8)
    for i, c in enumerate(_CLASSES):
        idx[z == c] = i
    # crisp cells when the browser scales the image: each cell a block of pixels, a white line between rows
    kx = max(1, -(-1200 // T))
    cell, gap = (14, 2) if N <= 30 else (10, 2)
    block = np.full((z.shape[0], cell + gap, T), _WHITE, dtype=np.uint8)
    block[:, :cell, :] = np.transpose(cell_templates(cell)[idx], (0, 2, 1))
    pix = np.repeat(block.reshape(-1, T), kx, axis=1)
    palette = [ADVICE_COLORS[c] for c in _CLASSES] + ["#ffffff"]
    rows = ["label yₜ", "learner ŷₜ"] + [f"expert {i + 1}" + (" ★" if i == i_star else "") for i in range(N)]
    ys = [0, 1] + list(range(3, N + 3))        # a blank row (2) between the learner and the experts
    step = 1 if N <= 20 else (2 if N <= 40 else 5)
    keep = [0, 1] + [2 + i for i in range(N) if i == 0 or (i + 1) % step == 0 or i == i_star]
    image = {"source": png_data_uri(pix, palette), "xref": "x", "yref": "y", "x": 0.5, "y": -0.5, "sizex": T,
             "sizey": N + 3, "sizing": "stretch", "xanchor": "left", "yanchor": "top", "layer": "below"}
    legend = [{"type": "scatter", "mode": "markers", "name": name, "x": [None], "y": [None], "hoverinfo": "skip",
               "marker": {"symbol": "triangle-up" if c > 0 else "triangle-down", "size": 13, "color": ADVICE_COLORS[c],
                          "line": {"width": 2 if abs(c) == 1 else 0, "color": ADVICE_COLORS[2 if c > 0 else -2]}}}
              for c, name in ((2, "says +1, right"), (1, "+1, wrong"), (-2, "says −1, right"), (-1, "−1, wrong"))]
    pad = 0.6 + 0.015 * (N + 3)                # room inside the axes for the ▼ / ▲ markers
    top, bottom = -0.5 - pad / 2, N + 2.5 + pad / 2
    arrays["adv_x"] = list(range(T + 1))
    arrays["adv_top"] = [round(top, 3)] * (T + 1)
    arrays["adv_bottom"] = [round(bottom, 3)] * (T + 1)
    cur = [
        {"type": "scatter", "mode": "lines", "name": "current round", "x": [], "y": [], "showlegend": False,
         "line": {"color": "rgba(0,0,0,0.5)", "width": 1.2}, "hoverinfo": "skip"},
        {"type": "scatter", "mode": "markers", "name": "current round ▼", "x": [], "y": [], "showlegend": False,
         "marker": {"symbol": "triangle-down", "size": 12, "color": "#111111"},
         "hovertemplate": "round %{x}<extra></extra>"},
        {"type": "scatter", "mode": "markers", "name": "current round ▲", "x": [], "y": [], "showlegend": False,
         "marker": {"symbol": "triangle-up", "size": 12, "color": "#111111"},
         "hoverinfo": "skip"},
    ]
    data = legend + cur
    n0 = len(legend)
    layout = _layout(
        xaxis=_axis("round t", range=[0.5, T + 0.5], showgrid=False, zeroline=False,
                    **({"dtick": 1} if T <= 12 else {})),
        yaxis={"range": [N + 2.5 + pad, -0.5 - pad], "tickvals": [ys[i] for i in keep], "ticktext": [rows[i] for i in keep],
               "tickfont": {"size": 12 if N <= 30 else 11}, "fixedrange": True, "showgrid": False,
               "zeroline": False},
        images=[image], margin={"l": 92, "r": 12, "t": 22, "b": 48})
    layout["legend"] = {**layout["legend"], "y": 1.06}
    height = int(min(860, max(260, 130 + (15 if N <= 30 else 13) * (N + 3))))  # rows stay readable
    return {"id": "advice", "title": "Advice (+1 high, −1 low, outlined: wrong); ▼ current round",
            "height": height, "figure": {"data": data, "layout": layout}, "config": {"displayModeBar": False},
            "dynamic": [{"trace": n0, "op": "vline_position", "y": [-0.5, N + 2.5]},
                        {"trace": n0 + 1, "op": "point_position", "x": "adv_x", "y": "adv_top"},
                        {"trace": n0 + 2, "op": "point_position", "x": "adv_x", "y": "adv_bottom"}]}


def _mistakes_figure(trace, proof, M_pos, arrays: dict, band=None) -> dict:
    T = trace.T
    algo = trace.algorithm
    S = proof.series
    x = np.arange(T + 1)
    idx = position_states(proof)
    arrays["mk_t"] = x
    arrays["mk_M"] = M_pos
    data, dyn, tops = [], [], [float(M_pos[-1])]
    if band is not None:
        r = np.asarray(band.rounds)
        lo, mid, hi = (np.asarray(band.band[i], dtype=float) for i in range(3))
        q = band.quantiles
        data += [
            {"type": "scatter", "mode": "lines", "name": f"realised, {q[0]:.0%}", "x": r, "y": lo.round(2),
             "line": {"width": 0}, "showlegend": False, "hoverinfo": "skip"},
            {"type": "scatter", "mode": "lines", "name": f"{q[0]:.0%}–{q[2]:.0%} of {len(band.seeds)} runs",
             "x": r, "y": hi.round(2), "fill": "tonexty", "fillcolor": "rgba(255,140,0,0.22)", "line": {"width": 0},
             "hovertemplate": "at least 95%% of runs made ≤ %{y} mistakes by round %{x}<extra></extra>".replace(
                 "%%", "%")},
            {"type": "scatter", "mode": "lines", "name": "median run", "x": r, "y": mid.round(2),
             "line": {"color": "#ff8c00", "width": 1.5, "dash": "dot"}, "hoverinfo": "skip"},
        ]
        tops.append(float(hi.max()))
    series = [("mk_M", "learner M", COLORS["w"], 3, "solid")]
    if algo == "randomized_weighted_majority":
        arrays["mk_EM"] = np.asarray(S["expected_M"], dtype=float).round(4)
        series.append(("mk_EM", "E[M] = Σ Fₜ", "#ff8c00", 3, "solid"))
        tops.append(float(S["expected_M"][-1]))
    if "m_star" in S:
        arrays["mk_ms"] = np.asarray(S["m_star"], dtype=float)[idx]
        series.append(("mk_ms", "best expert m*ₜ", BEST_COLOR, 2.5, "solid"))
        tops.append(float(S["m_star"][-1]))
    if "running_bound" in S:
        rb = np.asarray(S["running_bound"], dtype=float)[idx]
        arrays["mk_rb"] = _sig(rb, 5)
        what = "E[M]" if algo == "randomized_weighted_majority" else "M"
        series.append(("mk_rb", f"running bound on {what} (with m*ₜ so far)", COLORS["upper"], 2, "dash"))
    top = max(tops) * 1.15 + 1.0
    bound = proof.mistake_bound
    if "running_bound" in S:
        rbf = _finite(S["running_bound"])
        if rbf.size and rbf.max() <= 4.0 * top:
            top = max(top, float(rbf.max()) * 1.05)
    elif bound is not None and bound <= 4.0 * top:
        top = max(top, bound * 1.1)
    for i, (key, name, color, width, dash) in enumerate(series):
        smooth = key == "mk_EM"
        lx, ly = _thin(x, arrays[key], 600) if smooth else _steps(x, arrays[key])
        data.append({"type": "scatter", "mode": "lines", "name": name, "x": lx, "y": ly,
                     "line": {"color": color, "width": width, "dash": dash, "shape": "linear" if smooth else "hv"},
                     "hovertemplate": f"{name}<br>after %{{x}} rounds: %{{y:.4g}}<extra></extra>"})
    n_static = len(data)
    for i, (key, name, color, width, dash) in enumerate(series):
        data.append({"type": "scatter", "mode": "markers", "name": name, "x": [], "y": [], "showlegend": False,
                     "marker": {"color": color, "size": 11, "line": {"color": "#fff", "width": 2}},
                     "hovertemplate": f"{name} now: %{{y:.4g}}<extra></extra>"})
        dyn.append({"trace": len(data) - 1, "op": "point_position", "x": "mk_t", "y": key})
    ann = []
    if algo == "halving" and bound is not None:
        data.insert(n_static, {"type": "scatter", "mode": "lines", "name": f"bound log₂|H| = {bound:.4g}",
                               "x": [0, T], "y": [bound, bound],
                               "line": {"color": COLORS["upper"], "width": 2, "dash": "dash"}, "hoverinfo": "skip"})
        for d in dyn:
            d["trace"] += 1
        top = max(top, bound * 1.1)
    if bound is not None and bound > top:
        ann.append({"x": 1, "xref": "paper", "y": 1, "yref": "paper", "xanchor": "right", "yanchor": "top",
                    "showarrow": False, "font": {"size": 13},
                    "text": (f"bound with the final m* = {int(proof.constants['m_star'])}: {bound:.4g} ↑ (off the chart)"
                             if "m_star" in proof.constants else f"bound = {bound:.4g} ↑ (off the chart)")})
    data.append({"type": "scatter", "mode": "lines", "name": "current round", "x": [], "y": [], "showlegend": False,
                 "line": {"color": "#888888", "width": 1.5, "dash": "dot"}, "hoverinfo": "skip"})
    dyn.append({"trace": len(data) - 1, "op": "vline_position", "y": [0, round(top, 3)]})
    layout = _layout(xaxis=_axis("rounds so far", range=[0, max(T, 1)], **({"dtick": 1} if T <= 12 else {})),
                     yaxis=_axis("cumulative mistakes", range=[0, round(top, 3)]), annotations=ann)
    return {"id": "mistakes", "title": "Cumulative mistakes: learner and best expert",
            "height": 330, "figure": {"data": data, "layout": layout}, "config": {"displayModeBar": False},
            "dynamic": dyn}


# ------------------------------------------------------------------------------------------ ledger

def _ledger_lines(trace, proof, M_pos, N: int) -> list[dict]:
    """The ledger: the potential's chain and the bounds (Weighted Majority, RWM), or the version space's (Halving)."""
    idx = position_states(proof)
    reasons = {ch.name: ch.reasons for ch in proof.chains}
    P = lambda key, fmt=".4g": _pos(np.asarray(proof.series[key], dtype=float)[idx], fmt)  # noqa: E731
    Mv = _pos(M_pos, "d")
    if trace.algorithm in ("weighted_majority", "randomized_weighted_majority"):
        lines = _potential_lines(trace, proof, P, Mv, reasons, N) + _bound_lines(trace, proof, P, Mv, reasons, N)
    else:  # halving
        lines = _halving_lines(proof, P, Mv, reasons, N)
    return _ledger(lines)


def _potential_lines(trace, proof, P, Mv, reasons: dict, N: int) -> list[dict]:
    """Weighted Majority's or RWM's potential chain, ln w_{i*} ≤ ln Φ ≤ its upper bound, and its step per round."""
    T = trace.T
    S = proof.series
    c = proof.constants
    lines: list[dict] = []
    wm = trace.algorithm == "weighted_majority"
    r0 = reasons["potential, best expert i*"]
    par = r"\beta" if wm else r"(1-\eta)"
    lines += [
        {"latex": r"m_{i^*}\ln " + par + r" = «lo» \;\le\; \ln w_{i^*} = «lwb»",
         "values": {"lo": P("lower_best"), "lwb": P("log_w_best")},
         "holds": {"by": "position", "data": position_holds(proof, [("lower_best", "log_w_best")])},
         "reason": r0[0]},
        {"latex": r"\ln w_{i^*} = «lwb» \;\le\; \ln\Phi_{t+1} = «lphi»",
         "values": {"lwb": P("log_w_best"), "lphi": P("log_phi")},
         "holds": {"by": "position", "data": position_holds(proof, [("log_w_best", "log_phi")])},
         "reason": r0[1]},
    ]
    if wm:
        lines.append({
            "latex": r"\ln\Phi_{t+1} = «lphi» \;\le\; \ln {«N»} + {«M»}\,\ln\tfrac{1+{«beta»}}{2} = «up»",
            "values": {"lphi": P("log_phi"), "N": _const(N, "d"), "M": Mv, "beta": _const(c["beta"]),
                       "up": P("upper")},
            "holds": {"by": "position", "data": position_holds(proof, [("log_phi", "upper")])}, "reason": r0[2]})
        r1 = reasons["every expert: lower"][0]
        lines.append({
            "latex": r"\max_i \ln w_i = «lwm» \le \ln\Phi_{t+1}, \quad \min_i (m_i - p_i) = «slack» \ge 0",
            "values": {"lwm": P("log_w_max"), "slack": P("slack", "d")},
            "holds": {"by": "position",
                      "data": position_holds(proof, [("log_w_max", "log_phi"), ("zero", "slack")])},
            "reason": "every expert i (p_i = its penalties, m_i = its mistakes): " + r1})
        lines.append({
            "latex": r"\ln\Phi_{t+1} - \ln\Phi_t = «step» \;\le\; \ln\tfrac{1+\beta}{2}\text{ on a mistake, else }0"
                     r" \;=\; «sb»",
            "values": {"step": _rnd(np.asarray(S["step"], dtype=float)[:T]),
                       "sb": _rnd(np.asarray(S["step_bound"], dtype=float)[:T])},
            "holds": {"by": "round", "data": _round_holds(proof, [("step", "step_bound")], T)},
            "reason": "this round: " + reasons["one round"][0]})
    else:
        lines.append({
            "latex": r"\ln\Phi_{t+1} = «lphi» \;\le\; \ln {«N»} - {«eta»}\textstyle\sum_{s\le t} F_s = «up»",
            "values": {"lphi": P("log_phi"), "N": _const(N, "d"), "eta": _const(c["eta"]), "up": P("upper")},
            "holds": {"by": "position", "data": position_holds(proof, [("log_phi", "upper")])}, "reason": r0[2]})
        lines.append({
            "latex": r"F_t = «F»:\;\; \ln\Phi_{t+1} = «nxt» \;=\; \ln\Phi_t + \ln(1 - \eta F_t) = «pred»",
            "values": {"F": _rnd(np.asarray(S["F"], dtype=float)[:T]),
                       "nxt": _rnd(np.asarray(S["log_phi_next"], dtype=float)[:T]),
                       "pred": _rnd(np.asarray(S["log_phi_pred"], dtype=float)[:T])},
            "holds": {"by": "round", "data": _round_holds(
                proof, [("log_phi_next", "log_phi_pred"), ("log_phi_pred", "log_phi_next")], T)},
            "reason": "this round (Φ before it): " + reasons["potential step (≤)"][0]})
    return lines


def _bound_lines(trace, proof, P, Mv, reasons: dict, N: int) -> list[dict]:
    """The running bound, the theorem's bound (or why it does not apply) and its η form."""
    wm = trace.algorithm == "weighted_majority"
    c = proof.constants
    lines: list[dict] = []
    what = "M_t" if wm else r"\mathbb{E}[M_t]"
    bkey = "M" if wm else "expected_M"
    rb_tex = (r"\frac{\ln N + m^*_t\ln(1/\beta)}{\ln(2/(1+\beta))}" if wm else
              r"\frac{\ln N + m^*_t\ln(1/(1-\eta))}{\eta}")
    # the parentheses braced (one group): KaTeX broke the line at their "=", leaving "1)" alone (seen at 1100 px)
    lines.append({
        "latex": what + r" = «cur» \;\le\; " + rb_tex + r" = «rb» \quad {(\text{running bound, } m^*_t = «ms»)}",
        "values": {"cur": Mv if wm else P("expected_M"), "rb": P("running_bound"), "ms": P("m_star", "d")},
        "holds": {"by": "position", "data": position_holds(proof, [(bkey, "running_bound")])},
        "reason": "the running bound: " + reasons["running bound"][0] + " (m*ₜ: the best expert's mistakes so "
                  "far; at T, m*ₜ is the final m* and this is the bound)"})
    bound = proof.mistake_bound
    if bound is not None:
        f_tex = (r"\frac{\ln {«N»} + {«mstar»}\ln(1/{«beta»})}{\ln(2/(1+{«beta»}))}" if wm else
                 r"\frac{\ln {«N»} + {«mstar»}\ln(1/(1-{«eta»}))}{{«eta»}}")
        vals = {"cur": Mv if wm else P("expected_M"), "N": _const(N, "d"), "mstar": _const(c["m_star"], "d"),
                "bound": _const(bound, ".5g")}
        vals.update({"beta": _const(c["beta"])} if wm else {"eta": _const(c["eta"])})
        lines.append({
            "latex": what + r" = «cur» \;\le\; " + f_tex + r" = «bound» \quad {(\text{the bound, final } m^* = «mstar»)}",
            "values": vals,
            "holds": {"by": "position", "data": position_holds(proof, [(bkey, "mistake_bound")])},
            "reason": "the bound: the theorem with the final m* of the whole run (so it bounds the mistakes so "
                      "far, and at the end all of them): the sandwich's lower and upper curves cross here"
                      + ("" if wm else "; it bounds the expected count, not one run's realised M")
                      + ("; the β form of note [001], eq. 6" if wm else
                         "; from the potential Φₜ₊₁ = Φₜ(1 − ηFₜ) of RWM, note [000] §1.2")})
    else:
        why = "; ".join(a.detail for a in proof.failed_assumptions)
        lines.append({"latex": r"\text{the bound on }" + ("M" if wm else r"\mathbb{E}[M]") +
                               r"\text{ does not apply}", "reason": why})
    ef = trace.proofs["eta_form"]
    if ef.mistake_bound is not None:
        tex = r"2(1+\eta)m^* + \frac{2\ln N}{\eta}" if wm else r"(1+\eta)m^* + \frac{\ln N}{\eta}"
        lines.append({
            "latex": what + r" = «cur» \;\le\; " + tex
            + r" = «b2» \quad (\eta = «eta» \le \tfrac12)",
            "values": {"cur": Mv if wm else P("expected_M"), "b2": _const(ef.mistake_bound, ".5g"),
                       "eta": _const(c["eta"])},
            "holds": {"by": "position", "data": position_holds(ef, [(bkey, "mistake_bound")])},
            "reason": "the η form (uses ln(1/(1−η)) ≤ η + η², true for η ≤ ½)"
                      + ("; note [000], eq. 1 (its regret M − m* ≤ (1+2η)m* + 2 ln N/η)" if wm else
                         "; note [000], eq. 2 (its expected regret E[M] − m* ≤ ηm* + ln N/η)")})
    return lines


def _halving_lines(proof, P, Mv, reasons: dict, N: int) -> list[dict]:
    """Halving's version space: 1 ≤ |H_{t+1}| ≤ |H|/2^M, hence M ≤ log₂|H|."""
    lines: list[dict] = []
    r0 = reasons["version space"]
    lines += [
        not_applicable({"latex": r"1 \;\le\; |H_{t+1}| = «size»", "values": {"size": P("size", "d")},
                        "holds": {"by": "position", "data": position_holds(proof, [("zero", "log_size")])},
                        "reason": r0[0]}, proof, [("zero", "log_size")], "an expert consistent with every label"),
        {"latex": r"|H_{t+1}| = «size» \;\le\; |H|/2^{M} = {«N»}/2^{«M»} = «ub»",
         "values": {"size": P("size", "d"), "N": _const(N, "d"), "M": Mv, "ub": P("upper_size")},
         "holds": {"by": "position", "data": position_holds(proof, [("log_size", "upper")])}, "reason": r0[1]},
    ]
    bound = proof.mistake_bound
    if bound is not None:
        lines.append({"latex": r"M_t = «M» \;\le\; \log_2 |H| = \log_2 {«N»} = «bound»",
                      "values": {"M": Mv, "N": _const(N, "d"), "bound": _const(bound, ".4g")},
                      "holds": {"by": "position", "data": position_holds(proof, [("M", "mistake_bound")])},
                      "reason": "|H|/2^M ≥ 1 forces M ≤ log₂|H|"})
    else:
        why = "; ".join(a.detail for a in proof.failed_assumptions)
        lines.append({"latex": r"M \le \log_2|H| \;\text{does not apply}", "reason": why})
    return lines


# ------------------------------------------------------------------------------------------ caption

def _caption(trace, A: np.ndarray, y: np.ndarray, M_pos, proof) -> dict:
    T, N = A.shape
    algo = trace.algorithm
    plus = (A > 0).sum(axis=1)
    is_m = np.asarray(trace.columns["is_mistake"]).astype(int)
    vals: dict[str, Any] = {
        "np": _rnd(plus, "d"),
        "y": _rnd(np.where(y > 0, 1, -1), "+d"),
        "yhat": _rnd(np.where(np.asarray(trace.predictions) > 0, 1, -1), "+d"),
        "M": _pos(M_pos, "d"),
    }
    idx = position_states(proof)
    if algo != "halving":  # Φ > 0 before round t
        alive = np.isfinite(np.asarray(proof.series["log_phi"], dtype=float)[idx][:T])
    if algo == "weighted_majority":
        upd = trace.info["update"]
        wf = np.asarray(trace.columns["wrong_fraction"], dtype=float)
        vals["held"] = _phrases([f"The wrong experts held {f:.3f} of the weight" if a else
                                 "Every weight is 0 (Φ = 0): the vote is a tie, and ties predict +1"
                                 for f, a in zip(wf.tolist(), alive.tolist())])
        if upd == "on_mistake":
            labels = ["correct: no update", "MISTAKE → the wrong experts' weights × β"]
        else:
            labels = ["correct; the wrong experts' weights × β", "MISTAKE → the wrong experts' weights × β"]
        vals["what"] = _rnd(is_m, labels=labels)
        vals["ms"] = _pos(np.asarray(proof.series["m_star"], dtype=float)[idx], "d")
        template = ("Round {t} of {T}: {np} of " + str(N) + " experts say +1, label y = {y}. {held}; "
                    "the weighted vote says ŷ = {yhat} → {what}. "
                    "Mistakes so far M = {M}; best expert so far m* = {ms}.")
    elif algo == "randomized_weighted_majority":
        ch = np.asarray(trace.columns["chosen_expert"])
        F = np.asarray(trace.columns["F"], dtype=float)
        vals["F"] = _phrases([f"The wrong experts hold Fₜ = {f:.3f} of the weight (the chance of a mistake)" if a
                              else f"Every weight is 0 (Φ = 0): the learner predicts +1, a mistake with chance "
                                   f"Fₜ = {f:.0f}" for f, a in zip(F.tolist(), alive.tolist())])
        vals["ch"] = _phrases([f"Drew expert {c + 1}" if c >= 0 else "Nothing to draw" for c in ch.tolist()])
        vals["what"] = _rnd(is_m, labels=["correct", "MISTAKE"])
        vals["EM"] = _pos(np.asarray(proof.series["expected_M"], dtype=float), ".2f")
        template = ("Round {t} of {T}: {np} of " + str(N) + " experts say +1, label y = {y}. {F}. "
                    "{ch}: ŷ = {yhat} → {what}; every wrong expert's weight × (1 − η). "
                    "Mistakes so far M = {M}, expected E[M] = {EM}.")
    else:
        size = np.asarray(trace.columns["version_space_size"])
        alive_plus = np.array([int(((trace.weights_at(t) > 0) & (A[t] > 0)).sum()) for t in range(T)])
        vals["hp"] = _rnd(alive_plus, "d")
        vals["hs"] = _rnd(size, "d")
        vals["size"] = _pos(np.asarray(proof.series["size"], dtype=float)[idx], "d")
        labels = (["correct: no change", "MISTAKE → the wrong experts leave the version space"]
                  if trace.info["update"] == "on_mistake" else
                  ["correct; the wrong experts leave the version space",
                   "MISTAKE → the wrong experts leave the version space"])
        vals["what"] = _rnd(is_m, labels=labels)
        template = ("Round {t} of {T}: {hp} of the {hs} experts in the version space say +1, label y = {y}; "
                    "the majority says ŷ = {yhat} → {what}. Now |Hₜ₊₁| = {size}; mistakes so far M = {M}.")
    start = {"weighted_majority": "Round 0 of {T}: every weight is 1, Φ = N = " + str(N) + ". Press Next or Play.",
             "randomized_weighted_majority": "Round 0 of {T}: every weight is 1, Φ = N = " + str(N) +
             ". Press Next or Play.",
             "halving": "Round 0 of {T}: all " + str(N) + " experts are in the version space. Press Next or Play."}
    return {"template": template, "start": start[algo], "values": vals}


# ------------------------------------------------------------------------------------------ the spec

def experts_spec(trace, X, y, *, run_id: str, band=None, position: int = 0) -> dict:
    """The viewer spec for a Weighted Majority, RWM or Halving run on the advice ``X`` (T × N) and labels ``y``.

    ``band``: for RWM, the :class:`~olc_core.learners.randomized_weighted_majority.RealisedMistakes`
    of many seeded runs on the same advice (drawn as a band on the mistakes chart).
    """
    A = np.asarray(X)
    y = np.asarray(y, dtype=np.float64)
    T, N = A.shape
    if T != trace.T or N != trace.d:
        raise ValueError("the advice does not match the trace")
    if trace.algorithm not in ALG_NAMES:
        raise ValueError(f"not an expert-advice learner: {trace.algorithm}")
    proof = trace.proof
    M_pos = trace.mistakes_before_each_round()
    i_star = int(trace.info.get("best_expert", -1))
    if i_star < 0:  # Halving: a consistent expert if any, else the one with fewest mistakes
        m = (A > 0) != (y[:, None] > 0)
        i_star = int(np.argmin(m.sum(axis=0)))
    breaks, states = weight_breaks(trace)
    arrays: dict[str, Any] = {}
    wfig = _weights_figure(trace, breaks, states, proof, M_pos, i_star, N, arrays)
    note = weights_note(trace, A, y, i_star)
    if note:
        wfig["note"] = note
    figures = [
        wfig,
        sandwich_figure(trace, proof, M_pos, N, arrays),
        _advice_figure(trace, A, y, i_star, arrays),
        _mistakes_figure(trace, proof, M_pos, arrays, band),
    ]
    mistakes = np.asarray(trace.mistakes, dtype=np.int64)
    spec = {
        "version": 1, "run_id": run_id, "T": int(T), "position": int(position), "url_param": "t",
        "breaks": breaks, "mistake_rounds": mistakes, "arrays": arrays, "figures": figures,
        "ledger": {"title": "Proof ledger after round t (H_{t+1}: the version space after it)"
                   if trace.algorithm == "halving" else
                   "Proof ledger after round t (natural logarithms; Φ_{t+1}: the weights after it)",
                   "lines": _ledger_lines(trace, proof, M_pos, N)},
        "caption": _caption(trace, A, y, M_pos, proof),
        "layout": {"columns": [["weights", "advice", "mistakes"], ["sandwich", "ledger"]], "widths": [1, 1]},
        "speed": int(max(2, min(200, T // 25))),
    }
    return describe_experts(jsonable(spec), trace, A, y, states, i_star, band)
