"""The step-viewer spec of a Margin Perceptron run (pure: a trace in, a JSON-ready dict out): the unit circle with
the margin band γ/2 around the current hyperplane, the margin mistakes, the sandwich Uγ ≤ ⟨w*, w⟩ ≤ ‖w‖ ≤ 1 + 2/γ + 3Uγ/4
against the updates, its ledger and caption. The plane's drawing is shared with the Perceptron (olc_ui/shared/plane_view.py)."""
from __future__ import annotations

import math

import numpy as np

from olc_ui.shared.plane_view import _band, _main_2d, _scale_per_round, _weights_by_state
from olc_ui.shared.sandwich_view import Curve, _crossing_name, _fmt_bound, _no_crossing_note, sandwich
from olc_ui.shared.spec_tools import COLORS, ND, const as _const, holds as _holds, ledger as _ledger, points_trace as _pts
from olc_ui.shared.spec_tools import by_state as _state, not_applicable, sig
from olc_ui.viewer.spec import jsonable

from .describe import describe_margin

__all__ = ["margin_perceptron_spec"]


def _margin_sandwich(p, gamma: float, arrays: dict) -> dict:
    """Uγ ≤ ⟨w*, w⟩ ≤ ‖w‖ ≤ 1 + 2/γ + 3Uγ/4 against the updates U: the outer bounds meet at
    U = 4/γ + 8/γ² (the proof's ``bound_tight``), under the stated 12/γ² (a dotted line)."""
    bound, tight = p.mistake_bound, p.constants.get("bound_tight")
    ok = bound is not None and tight is not None and math.isfinite(tight)
    g = gamma
    return sandwich(
        "sandwich_A", "Uγ ≤ ⟨w*, w⟩ ≤ ‖w‖ ≤ 1 + 2/γ + 3Uγ/4 (U: updates, the first included)", p,
        [Curve("U_gamma", "Uγ", COLORS["lower"], (lambda u: u * g) if ok else None),
         Curve("inner", "⟨w*, w⟩", COLORS["inner"]), Curve("norm", "‖w‖", COLORS["norm"]),
         Curve("norm_upper", "1 + 2/γ + 3Uγ/4", COLORS["upper"], (lambda u: 1 + 2 / g + 0.75 * u * g) if ok else None)],
        arrays, crossing=(tight, g * tight) if ok else None,
        crossing_name=_crossing_name("U", tight) if ok else "", stated=(bound, "12/γ²") if ok else None,
        x_title="updates U",
        note=(f"The curves cross at U = 4/γ + 8/γ² = {_fmt_bound(tight)}; as γ ≤ 1, that is ≤ 12/γ² = "
              f"{_fmt_bound(bound)} (dotted), the theorem's bound." if ok else _no_crossing_note(p)))


def _margin_ledger(p, K: int, gamma: float) -> list[dict]:
    S = p.series
    bound = p.mistake_bound
    r = p.chains[0].reasons
    vals = {"U": _state(np.arange(K), "d"), "gamma": _const(gamma), "Ug": _state(S["U_gamma"]),
            "inner": _state(S["inner"]), "norm": _state(S["norm"]), "up": _state(S["norm_upper"])}
    lines = [
        not_applicable({"latex": r"U\gamma = «U»\cdot«gamma» = «Ug» \;\le\; \langle w^*, w\rangle = «inner»",
                        "values": {k: vals[k] for k in ("U", "gamma", "Ug", "inner")},
                        "holds": {"by": "state", "data": _holds(p, [("U_gamma", "inner")])}, "reason": r[0]},
                       p, [("U_gamma", "inner")], "a margin y⟨w*, x⟩ ≥ γ on every (normalised) example"),
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
    return lines


def _margin_caption(trace, ex, y, kind, mistakes, scales) -> dict:
    score = np.asarray(trace.columns["score"], dtype=float) + 0.0   # −0 + 0 = +0
    kinds = ["correct", "MARGIN MISTAKE (|s| < γ/2) → update", "MISTAKE → update", "first example: w was the zero vector (so s is taken as zero), and w becomes y·x"]
    return {
        "template": "Step {t} of {T} (pass {pass}, example {ex}): y = {y}, s = w·x/‖w‖ = {s} → {what}. "
                    "Updates so far U = {k}{scale}.",
        "start": "Nothing seen yet. Press Next or Play.",
        "values": {"pass": {"by": "round", "data": np.asarray(trace.columns["pass"]) + 1, "fmt": "d"},
                   "ex": {"by": "round", "data": ex + 1, "fmt": "d"},
                   "y": {"by": "round", "data": np.where(y > 0, 1, 0), "fmt": "text", "labels": ["−1", "+1"]},
                   # no forced sign: s = 0 prints "0.0000", never "+0.0000"
                   "s": {"by": "round", "data": score, "fmt": ".4f"},
                   "what": {"by": "round", "data": kind.astype(int), "fmt": "text", "labels": kinds},
                   "scale": {"by": "round", "data": _scale_per_round(mistakes, scales, trace.T), "fmt": "text",
                             "labels": ["", " (arrows drawn at reduced scale)"]}},
    }


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

    kind = np.asarray(trace.columns["kind"])
    mm = np.flatnonzero(kind == 1)
    extra = (_pts("margin mistakes so far", COLORS["margin"], "diamond-open", 13,
                  line={"width": 2, "color": COLORS["margin"]}),
             {"op": "rows_before", "render": "canvas", "rounds": "r_mm", "x": "x_mm", "y": "y_mm"},
             "margin mistakes (◇)")
    main, arrays, scales = _main_2d(trace, X, y, wstar=wstar, gamma_band=gamma if wstar is not None else 0.0,
                                    highlight=hl, highlight_name="examples with margin below γ", L=L, W=W,
                                    title=title or "Margin Perceptron on the unit circle", band_fn=band, extra=extra)
    arrays["r_mm"] = mm
    arrays["x_mm"] = X[mm, 0].round(ND)
    arrays["y_mm"] = X[mm, 1].round(ND)
    figures = [main, _margin_sandwich(p, gamma, arrays)]
    lines = _margin_ledger(p, K, gamma)
    mistakes = np.asarray(trace.mistakes, dtype=np.int64)
    caption = _margin_caption(trace, ex, y, kind, mistakes, scales)
    spec = {
        "version": 1, "run_id": run_id, "T": int(trace.T), "position": int(position), "url_param": "t",
        "breaks": mistakes + 1, "mistake_rounds": mistakes, "extra_stops": {"margin mistake": mm},
        "arrays": arrays, "figures": figures, "ledger": {"title": "Proof ledger at this round", "lines": _ledger(lines)},
        "caption": caption, "layout": {"columns": [["main"], ["sandwich_A", "ledger"]], "widths": [1.1, 1]},
        "speed": int(max(2, min(300, trace.T // 30))),
    }
    return describe_margin(jsonable(spec), trace, gamma)
