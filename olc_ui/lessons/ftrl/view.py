r"""Step-viewer specs for the randomised FTRL classifier lesson (pure: a run and its stream in, a JSON-ready dict out).

The learner [002] plays ``w_t`` in the unit ball, predicts +1 with probability
``(1 + ⟨w_t, x_t⟩)/2`` and pays the expected loss ``ℓ_t(w_t) = (1 − y_t⟨w_t, x_t⟩)/2``.
The theorem (``trace.proof``, :mod:`olc_core.proofs.ftrl_randomized`) bounds the
regret against every ``‖u‖ ≤ 1`` by ``√T(‖u‖²/(2α) + αL²)`` and so the **expected**
mistakes by ``min_u Σℓ_t(u) + √T(1/(2α) + αL²)``; it is a bound in the number of
rounds T, not in the mistake count. Every number drawn comes from the run: the
per-round columns (``p``, ``prob_plus``, ``expected_loss``), the weights
(``trace.weights_at``), the proof's series, constants, labels and its own
per-state checks (``proof.check_matrix()``). Nothing here does the proof's maths.

Figures (ids):

* ``plane`` (d = 2 only) — the unit ball, the points seen so far, the current
  point, ``w_t`` (used on round t) and ``w_{t+1}``, and the best ``u`` in hindsight.
* ``prob`` — the probability of predicting +1 at every round seen, by label
  (a good learner puts +1's high and −1's low); realised mistakes ringed.
* ``mistakes`` — expected mistakes ``E[M_t]``, the best ``‖u‖ ≤ 1`` in hindsight
  ``min_u Σℓ_s(u)``, the theorem's upper bound, this seed's realised mistakes and
  the band of realised mistakes over many seeded runs; revealed as the student steps;
  the end point ``(T, bound)`` is the largest E[M_T] the theorem allows.
* ``regret`` — the sandwich of the proof against t: ``regret ≤ data-dependent bound
  ≤ √t(1/(2α) + αL_t²)``, revealed as the student steps, the end point ``(T, √T(…))``.
* ``alpha`` — the theorem's √T bound and the measured regret at T for a sweep of
  learning rates (each a core run), the theorem's α* = 1/(√2 L) and the chosen α marked.

Positions: ``p`` rounds processed. The weights change on every round, so every
position is a state (``breaks = 1 … T``); the proof has one state per position too.

>>> upto_rounds(3).tolist()   # position q ≥ 1 is drawn by rows_before once p > q (rounds < p − 1)
[0, 0, 1, 2]
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

import olc_core

from olc_ui.shared.spec_tools import axis, by_position, by_round, COLORS, layout, ledger as _ledger, position_holds, sig
from olc_ui.viewer.spec import jsonable

from .describe import DATA_BOUND, describe_ftrl

__all__ = ["ftrl_spec", "best_u", "best_u_mistakes", "best_loss_note", "BEST_NAME", "MISTAKES_TITLE", "over_bound", "over_bound_text", "realised_name", "UPPER_NAME", "OVER_NOTE", "Band",
           "realised_band", "AlphaSweep", "alpha_sweep", "upto_rounds", "last_segments", "band_grid",
           "QUANTILES"]

ND = 5
QUANTILES = (0.05, 0.5, 0.95)
FAINT_POINTS = 600
EXP_COLOR = "#ff8c00"
BEST_COLOR = "#2ca02c"


# ------------------------------------------------------------------------------------------ runs (core calls)

@dataclass(frozen=True)
class Band:
    """Realised mistakes of seeded runs: ``counts[i, j]`` = mistakes of seed ``seeds[i]`` in the first
    ``grid[j]`` rounds; ``band[q]`` the quantile ``quantiles[q]`` over seeds; ``mean`` the mean."""
    seeds: tuple[int, ...]
    grid: np.ndarray
    counts: np.ndarray
    quantiles: tuple[float, ...]
    band: np.ndarray
    mean: np.ndarray

    @property
    def totals(self) -> np.ndarray:
        return self.counts[:, -1]


def band_grid(T: int, points: int = 400) -> np.ndarray:
    """At most ``points + 1`` positions 0 … T (0 and T included) where the band is drawn."""
    return np.unique(np.linspace(0, T, min(points, T) + 1).round().astype(np.int64))


def realised_band(X, y, *, eta: float, runs: int, points: int = 400) -> Band:
    """Run the learner with seeds 0 … runs−1 (each a plain ``olc_core.run``) and collect its realised mistakes."""
    seeds = tuple(range(int(runs)))
    counts = None
    grid = None
    for i, s in enumerate(seeds):
        tr = olc_core.run("ftrl_randomized", X, y, eta=eta, seed=s)
        if counts is None:
            grid = band_grid(tr.T, points)
            counts = np.empty((len(seeds), len(grid)), dtype=np.int64)
        counts[i] = tr.mistakes_before_each_round()[grid]
    band = np.quantile(counts, QUANTILES, axis=0, method="inverted_cdf")  # discrete: counts some run made
    return Band(seeds, grid, counts, QUANTILES, band, counts.mean(axis=0))


@dataclass(frozen=True)
class AlphaSweep:
    """The run at several learning rates: α, the theorem's √T regret bound, the measured regret at T
    (against the best u in hindsight) and the expected mistakes, each from ``olc_core.run``."""
    alphas: np.ndarray
    regret_bound: np.ndarray
    regret: np.ndarray
    expected: np.ndarray
    mistake_bound: np.ndarray


def alpha_sweep(X, y, alphas) -> AlphaSweep:
    """One core run per α (the seed does not change these deterministic quantities)."""
    alphas = np.unique(np.asarray(alphas, dtype=float))
    rb, rg, em, mb = [], [], [], []
    for a in alphas:
        p = olc_core.run("ftrl_randomized", X, y, eta=float(a), seed=0).proof
        rb.append(p.constants["regret_bound"])
        rg.append(float(p.series["regret"][-1]))
        em.append(p.constants["expected_mistakes"])
        mb.append(p.mistake_bound if p.mistake_bound is not None else math.nan)
    return AlphaSweep(alphas, np.array(rb), np.array(rg), np.array(em), np.array(mb))


# ------------------------------------------------------------------------------------------ small helpers

def upto_rounds(T: int) -> np.ndarray:
    """``rounds`` for a per-position curve drawn with ``rows_before``: positions 0 and 1 get round 0,
    position q ≥ 1 round q − 1; so at position p ≥ 2 the op shows positions 0 … p − 1 (rounds < p − 1).
    The last piece, from p − 1 to p, is a ``state`` segment (:func:`last_segments`)."""
    return np.concatenate([[0], np.arange(T, dtype=np.int64)])


def last_segments(values) -> tuple[list, list]:
    """Per position p (= state p): the segment from position p − 1 to p (none at p = 0)."""
    v = np.asarray(values, dtype=float)
    xs = [None] + [[q - 1, q] for q in range(1, v.size)]
    ys = [None] + [[v[q - 1], v[q]] for q in range(1, v.size)]
    return xs, ys


_axis = axis


def _layout(**kw) -> dict:
    return layout(**{"margin": {"l": 58, "r": 12, "t": 8, "b": 46}, **kw})


def _line(name, x, y, color, width=2.5, dash="solid", **kw) -> dict:
    return {"type": "scatter", "mode": "lines", "name": name, "x": x, "y": y,
            "line": {"color": color, "width": width, "dash": dash}, "hoverinfo": "skip", **kw}


def _marker(name, color, size=11, symbol="circle") -> dict:
    return {"type": "scatter", "mode": "markers", "name": name, "x": [], "y": [], "showlegend": False,
            "marker": {"color": color, "size": size, "symbol": symbol, "line": {"color": "#fff", "width": 2}},
            "hovertemplate": f"{name} now: %{{y:.4g}}<extra></extra>"}


def _pts(name, color, symbol, size, opacity=1.0, legend=True, line=None) -> dict:
    mk = {"color": color, "symbol": symbol, "size": size, "opacity": opacity}
    if line:
        mk["line"] = line
    return {"type": "scatter", "mode": "markers", "name": name, "x": [], "y": [], "marker": mk,
            "showlegend": legend, "hoverinfo": "skip"}


_pos, _rnd = by_position, by_round


def _const(v, fmt: str = ".4g") -> dict:
    return {"const": None if v is None or not math.isfinite(float(v)) else float(v), "fmt": fmt}


def _range(*arrays, pad_frac: float = 0.06) -> list[float]:
    v = np.concatenate([np.asarray(a, dtype=float).ravel() for a in arrays])
    v = v[np.isfinite(v)]
    lo, hi = (float(v.min()), float(v.max())) if v.size else (0.0, 1.0)
    pad = max(pad_frac * (hi - lo), 0.5)
    return [round(lo - pad, 4), round(hi + pad, 4)]


def weights_by_position(trace) -> np.ndarray:
    """(T + 1, d): ``weights_at(p)``, the w after p rounds (the one played on round p + 1)."""
    return np.vstack([np.asarray(trace.weights_at(p), dtype=float) for p in range(trace.T + 1)])


# ------------------------------------------------------------------------------------------ figures

def _plane_figure(trace, X, y, W: np.ndarray, arrays: dict) -> dict:
    """d = 2: the unit ball, the points, w_t (played on round t), w_{t+1} and the best u in hindsight."""
    T = trace.T
    pos, neg = np.flatnonzero(y > 0), np.flatnonzero(y <= 0)
    mis = np.asarray(trace.mistakes, dtype=np.int64)
    arrays.update({"r_pos": pos, "x_pos": X[pos, 0].round(ND), "y_pos": X[pos, 1].round(ND),
                   "r_neg": neg, "x_neg": X[neg, 0].round(ND), "y_neg": X[neg, 1].round(ND),
                   "r_mis": mis, "x_mis": X[mis, 0].round(ND), "y_mis": X[mis, 1].round(ND)})
    z = np.zeros(T + 1)
    Wr = W.round(ND)
    nz = np.hypot(Wr[:, 0], Wr[:, 1]) > 0                     # no arrow for w = 0 (an arrowhead alone at 0)
    arrays["wn_x"] = [v if ok else None for v, ok in zip(np.stack([z, Wr[:, 0]], axis=1).tolist(), nz)]
    arrays["wn_y"] = [v if ok else None for v, ok in zip(np.stack([z, Wr[:, 1]], axis=1).tolist(), nz)]
    arrays["wu_x"] = [None] + arrays["wn_x"][:-1]             # state p: the w played on round p
    arrays["wu_y"] = [None] + arrays["wn_y"][:-1]
    th = np.linspace(0, 2 * math.pi, 121)
    u = np.asarray(trace.info["comparator"], dtype=float)
    data = [
        _pts("not seen yet, y = +1", COLORS["pos_faint"], "circle", 6, 0.6, legend=False),      # 0
        _pts("not seen yet, y = −1", COLORS["neg_faint"], "x", 6, 0.7, legend=False),           # 1
        _pts("seen, y = +1", COLORS["pos"], "circle", 7, 0.95),                                  # 2
        _pts("seen, y = −1", COLORS["neg"], "x", 7, 0.95),                                       # 3
        _pts("realised mistakes so far", COLORS["mistake"], "circle-open", 11, 0.8,
             line={"width": 1.5, "color": COLORS["mistake"]}),                                   # 4
        {**_line("the unit ball ‖w‖ ≤ 1 (and ‖x‖ ≤ 1)", np.cos(th).round(4), np.sin(th).round(4), "#888", 1.5,
                 "dot"), "showlegend": False},                                                   # 5 (named in the title)
        {**_line("u* (best ‖u‖ ≤ 1, whole run)", [0.0, round(float(u[0]), ND)], [0.0, round(float(u[1]), ND)],
                 BEST_COLOR, 2.5, "dash"), "mode": "lines+markers",
         "marker": {"symbol": "arrow", "angleref": "previous", "size": [0, 12], "color": BEST_COLOR}},  # 6
        {**_line("wₜ (played on round t)", [], [], COLORS["old"], 2.5), "mode": "lines+markers",
         "marker": {"symbol": "arrow", "angleref": "previous", "size": [0, 13], "color": COLORS["old"]}},  # 7
        {**_line("wₜ₊₁ (after round t)", [], [], COLORS["w"], 3.5), "mode": "lines+markers",
         "marker": {"symbol": "arrow", "angleref": "previous", "size": [0, 15], "color": COLORS["w"]}},  # 8
        _pts("current, y = +1", COLORS["pos"], "circle", 18, 1.0, legend=False, line={"color": "#000", "width": 2.5}),
        _pts("current, y = −1", COLORS["neg"], "x", 18, 1.0, legend=False, line={"color": "#000", "width": 1.5}),
    ]
    dyn = [
        {"trace": 0, "op": "rows_all", "render": "canvas", "rounds": "r_pos", "x": "x_pos", "y": "y_pos"},
        {"trace": 1, "op": "rows_all", "render": "canvas", "rounds": "r_neg", "x": "x_neg", "y": "y_neg"},
        {"trace": 2, "op": "rows_before", "render": "canvas", "rounds": "r_pos", "x": "x_pos", "y": "y_pos"},
        {"trace": 3, "op": "rows_before", "render": "canvas", "rounds": "r_neg", "x": "x_neg", "y": "y_neg"},
        {"trace": 4, "op": "rows_before", "render": "canvas", "rounds": "r_mis", "x": "x_mis", "y": "y_mis"},
        {"trace": 7, "op": "state", "x": "wu_x", "y": "wu_y"},
        {"trace": 8, "op": "state", "x": "wn_x", "y": "wn_y"},
        {"trace": 9, "op": "row_current", "rounds": "r_pos", "x": "x_pos", "y": "y_pos"},
        {"trace": 10, "op": "row_current", "rounds": "r_neg", "x": "x_neg", "y": "y_neg"},
    ]
    layout = _layout(xaxis=_axis("x₁", range=[-1.12, 1.12], zeroline=False),
                     yaxis=_axis("x₂", range=[-1.12, 1.12], scaleanchor="x", zeroline=False))
    return {"id": "plane", "title": "The unit ball ‖w‖ ≤ 1 (dotted): points, wₜ and the best u in hindsight", "height": 470,
            "figure": {"data": data, "layout": layout}, "config": {"displayModeBar": False}, "dynamic": dyn}


def _prob_figure(trace, y, arrays: dict) -> dict:
    """P(ŷ = +1) = (1 + pₜ)/2 at each round seen, by label; realised mistakes ringed."""
    T = trace.T
    prob = np.asarray(trace.columns["prob_plus"], dtype=float).round(4)
    rounds = np.arange(T)
    pos, neg = rounds[y > 0], rounds[y <= 0]
    mis = np.asarray(trace.mistakes, dtype=np.int64)
    arrays.update({"pr_rp": pos, "pr_xp": pos + 1, "pr_yp": prob[pos], "pr_rn": neg, "pr_xn": neg + 1,
                   "pr_yn": prob[neg], "pr_rm": mis, "pr_xm": mis + 1, "pr_ym": prob[mis]})
    data = [
        _pts("y = +1: P(ŷ = +1)", COLORS["pos"], "circle", 6, 0.9),
        _pts("y = −1: P(ŷ = +1)", COLORS["neg"], "x", 6, 0.9),
        _pts("realised mistake", COLORS["mistake"], "circle-open", 10, 0.7, line={"width": 1.2, "color": "#000"}),
        _line("½ (w·x = 0: a fair coin)", [0.5, T + 0.5], [0.5, 0.5], "#999", 1.2, "dot", showlegend=False),
        _pts("current, y = +1", COLORS["pos"], "circle", 15, 1.0, legend=False, line={"color": "#000", "width": 2}),
        _pts("current, y = −1", COLORS["neg"], "x", 15, 1.0, legend=False, line={"color": "#000", "width": 1.5}),
    ]
    dyn = [
        {"trace": 0, "op": "rows_before", "render": "canvas", "rounds": "pr_rp", "x": "pr_xp", "y": "pr_yp"},
        {"trace": 1, "op": "rows_before", "render": "canvas", "rounds": "pr_rn", "x": "pr_xn", "y": "pr_yn"},
        {"trace": 2, "op": "rows_before", "render": "canvas", "rounds": "pr_rm", "x": "pr_xm", "y": "pr_ym"},
        {"trace": 4, "op": "row_current", "rounds": "pr_rp", "x": "pr_xp", "y": "pr_yp"},
        {"trace": 5, "op": "row_current", "rounds": "pr_rn", "x": "pr_xn", "y": "pr_yn"},
    ]
    layout = _layout(xaxis=_axis("round t", range=[0.5, T + 0.5], **({"dtick": 1} if T <= 12 else {})),
                     yaxis=_axis("P(ŷₜ = +1) = (1 + ⟨wₜ, xₜ⟩)/2", range=[-0.04, 1.04]))
    return {"id": "prob", "title": "The probability of predicting +1, round by round (+1's should sit high, −1's low)",
            "height": 300, "figure": {"data": data, "layout": layout}, "config": {"displayModeBar": False},
            "dynamic": dyn}


def _revealed(key: str, name: str, values, color: str, arrays: dict, data: list, dyn: list, *,
              width=3.0, dash="solid", faint=True, shape="linear") -> None:
    """A per-position curve: faint in full (when ``faint``), bold up to the current position, a marker now."""
    arrays[key] = np.asarray(values, dtype=float).round(4)
    x = np.asarray(arrays["pos_t"])
    if faint:  # context only: at most FAINT_POINTS points (the first and the last kept)
        idx = np.unique(np.linspace(0, x.size - 1, min(x.size, FAINT_POINTS)).round().astype(np.int64))
        data.append({**_line(name + " (whole run)", x[idx], arrays[key][idx], color, 1.2, dash, showlegend=False),
                     "opacity": 0.35, "line": {"color": color, "width": 1.2, "dash": dash, "shape": shape}})
    data.append({**_line(name, [], [], color, width, dash), "line": {"color": color, "width": width, "dash": dash,
                                                                     "shape": shape},
                 "hovertemplate": f"{name}<br>after %{{x}} rounds: %{{y:.4g}}<extra></extra>"})
    dyn.append({"trace": len(data) - 1, "op": "rows_before", "rounds": "pos_r", "x": "pos_t", "y": key})
    seg_x, arrays[key + "_sy"] = last_segments(arrays[key])
    arrays.setdefault("seg_x", seg_x)          # the same for every curve: sent once
    data.append({**data[-1], "name": name + " (this round)", "showlegend": False, "hoverinfo": "skip"})
    data[-1].pop("hovertemplate", None)
    dyn.append({"trace": len(data) - 1, "op": "state", "x": "seg_x", "y": key + "_sy"})
    data.append(_marker(name, color))
    dyn.append({"trace": len(data) - 1, "op": "point_position", "x": "pos_t", "y": key})


def _end_point(name: str, T: int, value: float, color: str, text: str) -> tuple[dict, dict]:
    """The theorem's bound at T: the point (T, bound), with a label."""
    tr = {"type": "scatter", "mode": "markers", "name": name, "x": [T], "y": [round(float(value), 4)],
          "marker": {"symbol": "diamond", "size": 14, "color": color, "line": {"color": "#000", "width": 1}},
          "hovertemplate": f"{text}<extra></extra>"}
    ann = {"x": T, "y": round(float(value), 4), "xref": "x", "yref": "y", "xanchor": "right", "yanchor": "bottom",
           "showarrow": False, "font": {"size": 13}, "bgcolor": "rgba(255,255,255,0.85)", "text": text}
    return tr, ann


UPPER_NAME = "bound on E[Mₜ]: min Σℓₛ(u) + √t(1/(2α) + αLₜ²)"
#: the comparator's curve is a LOSS of the randomised classifier u, not a count of mistakes ([002])
BEST_NAME = "best ‖u‖ ≤ 1: min Σ ℓₛ(u), its expected loss (not a count of mistakes)"
MISTAKES_TITLE = ("Expected and realised mistakes; the best ‖u‖ ≤ 1's expected loss Σℓ(u) = Σ(1 − y⟨u,x⟩)/2 "
                  "(a loss, not a count of mistakes)")


def best_u(X, y) -> np.ndarray:
    """The best ‖u‖ ≤ 1 in hindsight for the linear loss: u* = S/‖S‖, S = Σₜ yₜxₜ (0 when S = 0)."""
    S = (np.asarray(y, dtype=float)[:, None] * np.asarray(X, dtype=float)).sum(axis=0)
    n = float(np.linalg.norm(S))
    return S / n if n > 0 else S


def best_u_mistakes(X, y) -> int:
    """Rounds where sign(⟨u*, x⟩) errs (yₜ⟨u*, xₜ⟩ ≤ 0): what u* does as a deterministic classifier."""
    u = best_u(X, y)
    return int(np.count_nonzero(np.asarray(y, dtype=float) * (np.asarray(X, dtype=float) @ u) <= 0))


def best_loss_note(trace, X, y) -> str:
    """The sentence under the chart: min Σℓ(u) is the randomised classifier's expected loss, not mistakes."""
    c = trace.proof.constants
    k = best_u_mistakes(X, y)
    return (f"min Σℓₜ(u) = {float(c['best_loss']):.4g} is the expected loss of the best u used as the randomised "
            f"classifier, ℓₜ(u) = (1 − yₜ⟨u, xₜ⟩)/2 per round — not a count of mistakes: the same u* used as "
            f"sign(⟨u*, x⟩) errs on {k} of the {trace.T} rounds. A u with margin γ still pays (1 − γ)/2 on a round "
            "where yₜ⟨u, xₜ⟩ = γ, so on separable data the comparator's loss can be large while a separator makes "
            "no mistake; [002] notes that restricting u to the unit ball makes the competitor weak.")
OVER_NOTE = "(not a violation)"   # the ledger's, after "Mₜ = … vs E[Mₜ] = …, its bound = …": KaTeX cannot wrap \text


def realised_name(seed: int) -> str:
    """The legend of the realised count: one draw, not what the theorem bounds."""
    return f"realised Mₜ (seed {seed}): one draw; E[Mₜ] is bounded"


def over_bound(proof) -> np.ndarray:
    """Per position p = 0 … T: this seed's realised Mₚ is above the bound on E[Mₚ] (the proof's series)."""
    S = proof.series
    return np.asarray(S["mistakes"], dtype=float) > np.asarray(S["mistakes_upper"], dtype=float)


def over_bound_text(proof, p: int) -> str:
    """The chart's note at position p where the realised count is above the bound (numbers from the proof)."""
    S = proof.series
    return (f"Mₜ = {int(S['mistakes'][p])} > {float(S['mistakes_upper'][p]):.4g}, the bound on E[Mₜ]: "
            f"not a violation<br>(one draw; the theorem bounds E[Mₜ] = {float(S['expected_mistakes'][p]):.4g})")


def _over_bound_notes(proof, arrays: dict, data: list, dyn: list) -> None:
    """Where the realised Mₜ is above the bound on E[Mₜ]: a note at the realised point, at that position only
    (two traces: the note to the right of the point in the first half of the run, to its left in the second)."""
    over = over_bound(proof)
    if not over.any():
        return
    M = np.asarray(proof.series["mistakes"], dtype=float)
    T = over.size - 1
    for side, half in (("right", np.arange(T + 1) <= T / 2), ("left", np.arange(T + 1) > T / 2)):
        show = over & half
        if not show.any():
            continue
        key = f"mk_over_{side}"
        arrays[key + "_x"] = [p if show[p] else None for p in range(T + 1)]
        arrays[key + "_y"] = [float(M[p]) if show[p] else None for p in range(T + 1)]
        arrays[key + "_t"] = [over_bound_text(proof, p) if show[p] else None for p in range(T + 1)]
        data.append({"type": "scatter", "mode": "text", "name": "realised Mₜ above the bound on E[Mₜ]", "x": [],
                     "y": [], "text": [], "textposition": f"top {side}", "showlegend": False, "hoverinfo": "skip",
                     "cliponaxis": False, "textfont": {"size": 12, "color": COLORS["upper"]}})
        dyn.append({"trace": len(data) - 1, "op": "point_position", "x": key + "_x", "y": key + "_y",
                    "text": key + "_t"})


def _mistakes_figure(trace, proof, arrays: dict, band: Band | None, seed: int) -> dict:
    T = trace.T
    S = proof.series
    data: list = []
    dyn: list = []
    tops = [S["mistakes_upper"], S["mistakes"]]
    if band is not None:
        lo, mid, hi = (np.asarray(b, dtype=float).round(2) for b in band.band)
        q = band.quantiles
        data += [
            _line(f"realised, {q[0]:.0%}", band.grid, lo, "rgba(0,0,0,0)", 0, showlegend=False),
            {**_line(f"realised M: {q[0]:.0%}–{q[2]:.0%} of {len(band.seeds)} seeded runs (dotted: median)",
                     band.grid, hi, "rgba(0,0,0,0)", 0), "fill": "tonexty", "fillcolor": "rgba(255,140,0,0.20)",
             "legendgroup": "band", "hovertemplate": f"{q[2]:.0%} of runs ≤ %{{y}} after %{{x}} rounds<extra></extra>"},
            {**_line(f"realised M: median of {len(band.seeds)} runs", band.grid, mid, EXP_COLOR, 1.2, "dot"),
             "showlegend": False, "legendgroup": "band"},   # one entry with the band (≤ 6 entries)
        ]
        tops.append(hi)
    _revealed("mk_best", BEST_NAME, S["best_loss"], BEST_COLOR, arrays, data, dyn, dash="dot")  # a second cue (WCAG 1.4.1)
    _revealed("mk_up", UPPER_NAME, S["mistakes_upper"], COLORS["upper"], arrays, data, dyn, width=2.5, dash="dash")
    _revealed("mk_em", "E[Mₜ] = Σ ℓₛ(wₛ) (expected mistakes)", S["expected_mistakes"], EXP_COLOR, arrays, data, dyn)
    _revealed("mk_M", realised_name(seed), S["mistakes"], COLORS["w"], arrays, data, dyn, width=2,
              faint=False, shape="hv")
    _over_bound_notes(proof, arrays, data, dyn)
    ann = []
    b = proof.mistake_bound
    if b is not None:
        tr, a = _end_point("the theorem's bound on E[M] at T", T, b, COLORS["upper"], f"E[M] at T ≤ {b:.5g} ")
        data.append(tr)
        ann.append(a)
        tops.append([b])
    yr = _range(*tops, [0.0])
    data.append({**_line("current round", [], [], "#888", 1.5, "dot"), "showlegend": False})
    dyn.append({"trace": len(data) - 1, "op": "vline_position", "y": yr})
    layout = _layout(xaxis=_axis("rounds so far t", range=[0, max(T, 1) * 1.02], **({"dtick": 1} if T <= 12 else {})),
                     yaxis=_axis("mistakes", range=yr), annotations=ann)
    return {"id": "mistakes", "title": MISTAKES_TITLE,
            "height": 380, "figure": {"data": data, "layout": layout}, "config": {"displayModeBar": False},
            "dynamic": dyn}


def _regret_figure(trace, proof, arrays: dict) -> dict:
    T = trace.T
    S = proof.series
    c = proof.constants
    data: list = []
    dyn: list = []
    _revealed("rg_bs", "√t(1/(2α) + αLₜ²)", S["bound_sqrt"], COLORS["upper"], arrays, data, dyn, width=2.5,
              dash="dash")
    _revealed("rg_bd", DATA_BOUND, S["bound_data"], COLORS["lower"],
              arrays, data, dyn, width=2.5, dash="dashdot")
    _revealed("rg_r", "regret Σ ℓₛ(wₛ) − ℓₛ(u*ₜ)", S["regret"], COLORS["w"], arrays, data, dyn)
    rb = float(c["regret_bound"])
    tr, a = _end_point("the theorem's regret bound at T", T, rb, COLORS["upper"], f"regret at T ≤ √T(1/(2α) + αL²) = {rb:.4g} ")
    data.append(tr)
    yr = _range(S["bound_sqrt"], S["regret"], [0.0, rb])
    data.append({**_line("current round", [], [], "#888", 1.5, "dot"), "showlegend": False})
    dyn.append({"trace": len(data) - 1, "op": "vline_position", "y": yr})
    layout = _layout(xaxis=_axis("rounds so far t", range=[0, max(T, 1) * 1.02], **({"dtick": 1} if T <= 12 else {})),
                     yaxis=_axis("regret against the best ‖u‖ ≤ 1", range=yr), annotations=[a])
    return {"id": "regret", "title": "The proof's sandwich: regret ≤ data-dependent bound ≤ √t(1/(2α) + αL²)",
            "height": 360, "figure": {"data": data, "layout": layout}, "config": {"displayModeBar": False},
            "dynamic": dyn}


def _alpha_figure(proof, sweep: AlphaSweep) -> dict:
    """Static: the √T bound and the measured regret at T against α (log axis), α* and the chosen α marked."""
    c = proof.constants
    a = sweep.alphas
    lx = np.log10(a).round(4)
    alpha, best = float(c["alpha"]), float(c["best_alpha"])
    data = [
        {**_line("√T(1/(2α) + αL²): the theorem's regret bound", lx, sig(sweep.regret_bound, 6), COLORS["upper"], 2.5,
                 "dash"), "hovertemplate": "α = %{customdata:.4g}: bound %{y:.4g}<extra></extra>", "customdata": a},
        {**_line("measured regret at T", lx, sig(sweep.regret, 6), COLORS["w"], 2.5), "mode": "lines+markers",
         "marker": {"size": 5}, "hovertemplate": "α = %{customdata:.4g}: regret %{y:.4g}<extra></extra>",
         "customdata": a},
    ]
    ys = _range(sweep.regret_bound, sweep.regret, [0.0], pad_frac=0.04)
    shapes, ann = [], []
    if math.isfinite(best) and best > 0:
        bx = round(math.log10(best), 4)
        shapes.append({"type": "line", "x0": bx, "x1": bx, "y0": ys[0], "y1": ys[1], "xref": "x", "yref": "y",
                       "line": {"color": BEST_COLOR, "width": 2, "dash": "dot"}})
        ann.append({"x": bx, "y": 1, "xref": "x", "yref": "paper", "yanchor": "top", "xanchor": "left",
                    "showarrow": False, "font": {"size": 13, "color": BEST_COLOR},
                    "text": f" theorem's α* = 1/(√2·L) = {best:.4g}"})
    data.append({"type": "scatter", "mode": "markers", "name": f"your α = {alpha:.4g}",
                 "x": [round(math.log10(alpha), 4)], "y": [round(float(c["regret_bound"]), 4)],
                 "marker": {"symbol": "diamond", "size": 14, "color": COLORS["upper"], "line": {"color": "#000",
                                                                                                  "width": 1.5}},
                 "hovertemplate": "your α: bound %{y:.4g}<extra></extra>"})
    lo, hi = float(lx.min()), float(lx.max())
    k0, k1 = math.floor(lo), math.ceil(hi)
    tv = [math.log10(m) + k for k in range(k0, k1 + 1) for m in (1, 2, 5) if lo - 0.01 <= math.log10(m) + k <= hi + 0.01]
    layout = _layout(xaxis=_axis("learning rate α (log scale)", range=[lo - 0.05, hi + 0.05],
                                 tickvals=[round(t, 4) for t in tv], ticktext=[f"{10 ** t:.3g}" for t in tv],
                                 zeroline=False),
                     yaxis=_axis("regret at T", range=ys), shapes=shapes, annotations=ann)
    return {"id": "alpha", "title": "The learning rate α: the √T bound and the measured regret (one run per α)",
            "height": 320, "figure": {"data": data, "layout": layout}, "config": {"displayModeBar": False},
            "dynamic": []}


# ------------------------------------------------------------------------------------------ ledger, caption

def _numbered(tex: str) -> str:
    """A proof label with its running t (and T) shown as the current numbers: ``\\sqrt{t}`` → √57
    (the viewer replaces ``{t}`` by a brace group, the HTML snapshot by the bare number)."""
    return tex.replace("{t}", "{{t}}").replace("{T}", "{{T}}")


def _over_labels(proof, note: str) -> dict:
    """A per-position text value: ``note`` where the realised count is above the bound on E[Mₜ], else nothing."""
    return {"by": "position", "data": over_bound(proof).astype(int).tolist(), "fmt": "text", "labels": ["", note]}


def _ledger_lines(trace, proof, seed: int, best_mistakes: int) -> list[dict]:
    S = proof.series
    c = proof.constants
    lab = {k: _numbered(v) for k, v in proof.labels.items()}
    reasons = {ch.name: ch.reasons for ch in proof.chains}
    P = lambda key, fmt=".4g": _pos(S[key], fmt)  # noqa: E731  (the proof has one state per position)
    H = lambda *links: {"by": "position", "data": position_holds(proof, list(links))}  # noqa: E731
    r_reg = reasons["regret against the best u in the ball"]
    lines = [
        {"latex": r"p_t = \langle w_t, x_t\rangle = «p»,\;\; P(\hat y_t = +1) = \tfrac{1 + p_t}{2} = «pp},\;\; "
                  r"\ell_t(w_t) = \tfrac{1 - y_t p_t}{2} = «el»".replace("«pp}", "«pp»"),
         "values": {"p": _rnd(trace.columns["p"]), "pp": _rnd(trace.columns["prob_plus"]),
                    "el": _rnd(trace.columns["expected_loss"])},
         "reason": "this round: the learner's score, its chance of predicting +1, and its expected 0/1 loss"},
        {"latex": lab["regret"] + r" = «reg» \;\le\; " + lab["bound_data"] + r" = «bd»",
         "values": {"reg": P("regret"), "bd": P("bound_data")}, "holds": H(("regret", "bound_data")),
         "reason": r_reg[0]},
        {"latex": r"«bd» \;\le\; " + lab["bound_sqrt"] + r" = «bs»",
         "values": {"bd": P("bound_data"), "bs": P("bound_sqrt")}, "holds": H(("bound_data", "bound_sqrt")),
         "reason": r_reg[1]},
        {"latex": lab["regret_u"] + r" = «ru» \;\le\; «reg» \quad (u = u^*_T,\ \text{best over the whole run})",
         "values": {"ru": P("regret_u"), "reg": P("regret")}, "holds": H(("regret_u", "regret")),
         "reason": reasons["the comparator u against the best u in hindsight"][0]},
        {"latex": lab["expected_mistakes"] + r" = «em» \;\le\; " + lab["mistakes_upper"] + r" = «mu»",
         "values": {"em": P("expected_mistakes"), "mu": P("mistakes_upper")},
         "holds": H(("expected_mistakes", "mistakes_upper")), "reason": reasons["expected mistakes"][0]},
    ]
    b = proof.mistake_bound
    if b is not None:
        lines.append({
            "latex": r"\mathbb{E}[M_T] = «emT» \;\le\; " + lab["mistake_bound"] + r" = «best» + «rb» = «mb»",
            "values": {"emT": _const(c["expected_mistakes"]), "best": _const(c["best_loss"]),
                       "rb": _const(c["regret_bound"]), "mb": _const(b, ".5g")},
            # the statement at T: one check, the proof's own at the last state, shown at every round
            "holds": {"const": position_holds(proof, [("expected_mistakes", "mistake_bound")])[-1]},
            "reason": "the theorem at T = %d (α = %.4g, L = max‖gₜ‖ = %.4g): the whole run's expected mistakes "
                      "E[M_T] against the largest value it allows (the row above is the same bound after t rounds); "
                      "%.4g = min Σℓₜ(u) is the best u's expected loss as a randomised classifier, "
                      "ℓₜ(u) = (1 − yₜ⟨u, xₜ⟩)/2, not a count of mistakes (sign(⟨u*, x⟩) errs on %d rounds)"
                      % (c["T"], c["alpha"], c["L"], c["best_loss"], best_mistakes)})
    else:
        why = "; ".join(a.detail for a in proof.failed_assumptions)
        lines.append({"latex": r"\text{the bound on }\mathbb{E}[M_T]\text{ does not apply}", "reason": why})
    lines.append({"latex": r"M_t\ \text{(realised, seed «seed»)} = «M» \quad \text{vs}\quad \mathbb{E}[M_t] = «em»"
                           r",\;\; \text{its bound} = «mu» \quad «over»",
                  "values": {"seed": _const(seed, "d"), "M": P("mistakes", "d"), "em": P("expected_mistakes"),
                             "mu": P("mistakes_upper"), "over": _over_labels(proof, OVER_NOTE)},
                  "reason": "random: the theorem bounds the expectation E[Mₜ], not one run's count Mₜ, which may be "
                            "above E[Mₜ]'s bound (see the band)"})
    return _ledger(lines)


def _caption(trace, X, y) -> dict:
    pred = np.where(np.asarray(trace.predictions) > 0, 1, -1)
    is_m = np.asarray(trace.columns["is_mistake"]).astype(int)
    vals: dict[str, Any] = {
        "y": _rnd(np.where(np.asarray(y) > 0, 1, -1), "+d"),
        "yhat": _rnd(pred, "+d"),
        "pp": _rnd(np.asarray(trace.columns["prob_plus"], dtype=float), ".3f"),
        "el": _rnd(np.asarray(trace.columns["expected_loss"], dtype=float), ".3f"),
        "what": _rnd(is_m, labels=["correct", "MISTAKE"]),
        "M": _pos(trace.mistakes_before_each_round(), "d"),
        "EM": _pos(trace.proof.series["expected_mistakes"], ".2f"),
        "UB": _pos(trace.proof.series["mistakes_upper"], ".2f"),
    }   # no per-step note here (a line that comes and goes would move the charts while playing): on the chart
    template = ("Round {t} of {T}: label y = {y}; the learner predicts +1 with probability {pp}, "
                "the draw gives ŷ = {yhat} → {what} (expected loss {el}). "
                "Mistakes so far M = {M}; expected E[M] = {EM}, whose bound at round {t} is {UB}.")
    return {"template": template, "start": "Round 0 of {T}: w₁ = 0, so the first prediction is a fair coin. "
                                           "Press Next or Play.", "values": vals}


# ------------------------------------------------------------------------------------------ the spec

def ftrl_spec(trace, X, y, *, run_id: str, band: Band | None = None, sweep: AlphaSweep | None = None,
              position: int = 0) -> dict:
    """The viewer spec for a randomised FTRL run on ``X`` (T × d, ‖xₜ‖ ≤ 1) and labels ``y`` (±1)."""
    X = np.asarray(X, dtype=float)
    y = np.asarray(y, dtype=float)
    T, d = X.shape
    if trace.algorithm != "ftrl_randomized":
        raise ValueError(f"not a randomised FTRL run: {trace.algorithm}")
    if T != trace.T or d != trace.d:
        raise ValueError("the stream does not match the trace")
    proof = trace.proof
    seed = int(trace.info["seed"])
    arrays: dict[str, Any] = {"pos_t": np.arange(T + 1), "pos_r": upto_rounds(T)}
    figures = []
    if d == 2:
        figures.append(_plane_figure(trace, X, y, weights_by_position(trace), arrays))
    figures.append(_prob_figure(trace, y, arrays))
    figures.append(_mistakes_figure(trace, proof, arrays, band, seed))
    figures.append(_regret_figure(trace, proof, arrays))
    if sweep is not None:
        figures.append(_alpha_figure(proof, sweep))
    ids = [f["id"] for f in figures]
    left = [i for i in ("plane", "prob", "alpha") if i in ids]
    right = [i for i in ("regret", "mistakes") if i in ids] + ["ledger"]  # the proof's sandwich on the first screen
    spec = {
        "version": 1, "run_id": run_id, "T": int(T), "position": int(position), "url_param": "t",
        "breaks": list(range(1, T + 1)), "mistake_rounds": np.asarray(trace.mistakes, dtype=np.int64),
        "arrays": arrays, "figures": figures,
        "ledger": {"title": "Proof ledger after round t (the states after t rounds)",
                   "lines": _ledger_lines(trace, proof, seed, best_u_mistakes(X, y))},
        "caption": _caption(trace, X, y),
        "layout": {"columns": [left, right], "widths": [1, 1]},
        "speed": int(max(2, min(200, T // 25))),
    }
    return describe_ftrl(jsonable(spec), trace, X, band=band, sweep=sweep)
