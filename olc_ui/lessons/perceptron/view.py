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

import numpy as np

from olc_core.proofs.perceptron import td_bound_quadratic
from olc_core.proofs.perceptron import td_bounds

from olc_ui.shared.plane_view import _band, _main_2d, _main_3d, _main_bars, _scale_per_round, _weights_by_state, chords, clip_line  # noqa: F401
from olc_ui.shared.sandwich_view import Curve, _crossing_name, _fmt_bound, _no_crossing_note, log_axis_ticks, sandwich
from olc_ui.shared.spec_tools import COLORS, ND, const as _const, holds as _holds, ledger as _ledger
from olc_ui.shared.spec_tools import by_state as _state, holds_value as _holds_value, proof_value as _pval, sig
from olc_ui.viewer.spec import jsonable, per_state

from .describe import describe_perceptron

__all__ = ["perceptron_spec", "clip_line", "chords"]


# ------------------------------------------------------------------------------------------ sandwiches

CHAIN_COLORS = (COLORS["lower"], COLORS["inner"], COLORS["norm"], COLORS["upper"])
WHOLE_RUN = "#c5a8dd"   # the lower bound with TDᵧ over the whole run (the one the mistake bound solves)


def _separable_sandwiches(proof, arrays: dict) -> list[dict]:
    """Proof A (norm potential) and proof B (cosine potential) against M, closing at R²/γ²."""
    c = proof.constants
    g, R, bound = c.get("gamma"), float(c["radius"]), proof.mistake_bound
    ok = proof.applies and bound is not None and math.isfinite(bound)
    fa = (lambda m: m * g) if ok else None
    fr = (lambda m: np.sqrt(m) * R) if ok else None
    note = "" if ok else _no_crossing_note(proof)
    a = sandwich("sandwich_A", "Proof A (norm potential): Mγ ≤ ⟨w*, w⟩ ≤ ‖w‖ ≤ √M·R", proof,
                 [Curve("M_gamma", "Mγ", COLORS["lower"], fa), Curve("inner", "⟨w*, w⟩", COLORS["inner"]),
                  Curve("norm", "‖w‖", COLORS["norm"]), Curve("sqrtM_R", "√M·R", COLORS["upper"], fr)], arrays,
                 crossing=(bound, g * bound) if ok else None, crossing_name=_crossing_name("M = R²/γ²", bound) if ok else "",
                 note=note)
    fl = (lambda m: np.sqrt(m) * (g / R)) if ok else None
    b = sandwich("sandwich_B", "Proof B (cosine potential): √M·γ/R ≤ cos∠(w, w*) ≤ 1", proof,
                 [Curve("cos_lower", "√M·γ/R", COLORS["lower"], fl), Curve("cosine", "cos∠(w, w*)", COLORS["inner"]),
                  Curve("one", "1", COLORS["upper"], (lambda m: np.ones_like(m)) if ok else None)], arrays,
                 crossing=(bound, 1.0) if ok else None, crossing_name=_crossing_name("M = R²/γ²", bound) if ok else "",
                 note=note)
    return [a, b]


def _floor(*norms) -> float:
    """Where a lower bound on ⟨w*, w⟩ stops saying anything: below −max‖w‖ (⟨w*, w⟩ ≥ −‖w‖ always)."""
    top = max(float(np.nanmax(np.asarray(n, dtype=float))) for n in norms)
    return -1.15 * max(top, 1e-12)


def _nonseparable_sandwiches(sp, hp, arrays: dict) -> list[dict]:
    """The TD_γ proof and the hinge-loss proof against M, each closing where its whole-run lower line
    meets the upper curve (the exact root of the quadratic; the stated bound is a dotted line)."""
    g, R, TD = float(sp.constants["gamma"]), float(sp.constants["radius"]), float(sp.constants["TD"])
    xq = float(sp.constants["bound_quadratic"])
    floor_a = _floor(sp.series["norm"])
    cut = "is cut off below −max‖w‖: there it says nothing, since ⟨w*, w⟩ ≥ −‖w‖ always."
    a = sandwich(
        "sandwich_A", f"TDᵧ proof (γ = {g:.4g}): γM − TDᵧ ≤ ⟨w*, w⟩ ≤ ‖w‖ ≤ √M·R", sp,
        [Curve(None, f"γM − TDᵧ, TDᵧ over the whole run = {TD:.4g}", WHOLE_RUN, lambda m: g * m - TD,
               label="γM − TDᵧ (whole run)"),
         Curve("td_lower", "γM − TDᵧ so far", COLORS["lower"]), Curve("inner", "⟨w*, w⟩", COLORS["inner"]),
         Curve("norm", "‖w‖", COLORS["norm"]), Curve("sqrtM_R", "√M·R", COLORS["upper"], lambda m: np.sqrt(m) * R)],
        arrays, crossing=(xq, math.sqrt(xq) * R), crossing_name=_crossing_name("M", xq),
        stated=(sp.mistake_bound, "R²/γ² + 2TDᵧ/γ"), floor=floor_a, floor_note="γM − TDᵧ " + cut,
        note=f"The stated bound R²/γ² + (2/γ)·TDᵧ = {_fmt_bound(sp.mistake_bound)} (dotted) rounds the crossing up.")
    L, ua = float(hp.constants["L"]), float(hp.constants["a"])
    xh = td_bound_quadratic(1.0, L, ua)   # M − L = a√M: the same quadratic with γ = 1, TD = L, R = a
    b = sandwich(
        "sandwich_B", "Hinge-loss proof, u = w*/γ: M − L(u) ≤ ⟨u, w⟩ ≤ ‖u‖‖w‖ ≤ ‖u‖R√M", hp,
        [Curve(None, f"M − L(u), L(u) over the whole run = {L:.4g}", WHOLE_RUN, lambda m: m - L,
               label="M − L(u) (whole run)"),
         Curve("hinge_lower", "M − L(u) so far", COLORS["lower"]), Curve("inner_u", "⟨u, w⟩", COLORS["inner"]),
         Curve("norm_u", "‖u‖‖w‖", COLORS["norm"]), Curve("upper_u", "‖u‖R√M", COLORS["upper"], lambda m: ua * np.sqrt(m))],
        arrays, crossing=(xh, ua * math.sqrt(xh)), crossing_name=_crossing_name("M", xh),
        stated=(hp.mistake_bound, "L + a√L + a²"), floor=_floor(hp.series["norm_u"]),
        floor_note="M − L(u) " + cut.replace("⟨w*, w⟩ ≥ −‖w‖", "⟨u, w⟩ ≥ −‖u‖‖w‖").replace("max‖w‖", "max ‖u‖‖w‖"),
        note=f"The stated bound L + a√L + a² = {_fmt_bound(hp.mistake_bound)} (dotted) rounds the crossing up.")
    return [a, b]


# ------------------------------------------------------------------------------------------ ledgers

def _separable_ledger(proof, K: int) -> list[dict]:
    S = proof.series
    g, R, bound = proof.constants.get("gamma"), float(proof.constants["radius"]), proof.mistake_bound
    vals = {"M": _state(np.arange(K), "d"), "gamma": _const(g, ".4g"), "R": _const(R, ".4g"),
            "Mg": _state(S["M_gamma"]), "inner": _state(S["inner"]), "norm": _state(S["norm"]),
            "sMR": _state(S["sqrtM_R"]), "cl": _state(S["cos_lower"]), "cos": _state(S["cosine"])}
    reasons = {ch.name: ch.reasons for ch in proof.chains}
    rA, rB = reasons["norm potential (A)"], reasons["cosine potential (B)"]

    def line(latex, keys, links, reason):
        return {"latex": latex, "values": {k: vals[k] for k in keys},
                "holds": {"by": "state", "data": _holds(proof, links)}, "reason": reason}
    lines = [
        line(r"M\gamma = «M»\cdot«gamma» = «Mg» \;\le\; \langle w^*, w\rangle = «inner»", ("M", "gamma", "Mg", "inner"),
             [("M_gamma", "inner")], "A. " + rA[0]),
        line(r"\langle w^*, w\rangle = «inner» \;\le\; \lVert w\rVert = «norm»", ("inner", "norm"),
             [("inner", "norm")], "A. " + rA[1]),
        line(r"\lVert w\rVert = «norm» \;\le\; \sqrt{M}\,R = \sqrt{«M»}\cdot«R» = «sMR»", ("norm", "M", "R", "sMR"),
             [("norm", "sqrtM_R")], "A. " + rA[2]),
        line(r"\sqrt{M}\,\gamma/R = «cl» \;\le\; \cos\angle(w, w^*) = «cos» \;\le\; 1", ("cl", "cos"),
             [("cos_lower", "cosine"), ("cosine", "one")], "B. " + rB[0] + "; " + rB[1]),
    ]
    if bound is not None:
        lines.append({"latex": r"M\gamma \le \sqrt{M}R \;\Rightarrow\; M = «M» \;\le\; R^2/\gamma^2 = «bound»",
                      "values": {"M": vals["M"], "bound": _const(bound, ".5g")},
                      "holds": {"by": "state", "data": _holds(proof, [("M", "mistake_bound")])},
                      "reason": "the outer bounds cross at M = R²/γ²: no run can make more mistakes"})
    else:
        why = "; ".join(f"{a.name}: {a.detail}" for a in proof.failed_assumptions)
        lines.append({"latex": r"M \le R^2/\gamma^2 \;\text{does not apply}",
                      "reason": f"an assumption of the theorem fails ({why})"})
    return lines


def _nonseparable_ledger(sp, hp) -> list[dict]:
    """Both proofs are checked before every round (TD_γ grows between mistakes): values per position.
    TD_γ and L(u) "so far" (rounds 1 to the one shown: position p is the state after p rounds) in the chains; "over
    the whole run" in the bounds."""
    S, g, R = sp.series, sp.constants["gamma"], sp.constants["radius"]
    v = {"M": _pval(sp, sp.n_mistakes, "d"), "gamma": _const(g, ".4g"), "R": _const(R, ".4g"),
         "TD": _pval(sp, S["TD"]), "lo": _pval(sp, S["td_lower"]), "inner": _pval(sp, S["inner"]),
         "norm": _pval(sp, S["norm"]), "sMR": _pval(sp, S["sqrtM_R"]), "hl": _pval(hp, hp.series["hinge_lower"]),
         "iu": _pval(hp, hp.series["inner_u"]), "nu": _pval(hp, hp.series["norm_u"]),
         "uu": _pval(hp, hp.series["upper_u"]), "L": _pval(hp, hp.series["L"]),
         "TDall": _const(sp.constants["TD"], ".4g"), "Lall": _const(hp.constants["L"], ".4g"),
         "bound": _const(sp.mistake_bound, ".5g"), "hb": _const(hp.mistake_bound, ".5g")}
    rT = sp.chains[0].reasons

    def line(latex, keys, proof, links, reason):
        return {"latex": latex, "values": {k: v[k] for k in keys}, "holds": _holds_value(proof, links), "reason": reason}
    return [
        line(r"\gamma M - \mathrm{TD}_\gamma^{\text{so far}} = «gamma»\cdot«M» - «TD» = «lo» \;\le\; "
             r"\langle w^*, w\rangle = «inner»", ("gamma", "M", "TD", "lo", "inner"), sp, [("td_lower", "inner")],
             rT[0] + " (TD_γ so far: rounds 1 to this one)"),
        line(r"\langle w^*, w\rangle = «inner» \;\le\; \lVert w\rVert = «norm» \;\le\; \sqrt{M}\,R = «sMR»",
             ("inner", "norm", "sMR"), sp, [("inner", "norm"), ("norm", "sqrtM_R")], f"{rT[1]}; {rT[2]}"),
        line(r"M = «M» \;\le\; R^2/\gamma^2 + (2/\gamma)\,\mathrm{TD}_\gamma^{\text{whole run}} = "
             r"R^2/\gamma^2 + (2/\gamma)\cdot«TDall» = «bound»", ("M", "TDall", "bound"), sp, [("M", "mistake_bound")],
             "solve γM − TD_γ ≤ R√M for M, with TD_γ over the whole run"),
        line(r"M - L(u)^{\text{so far}} = «hl» \;\le\; \langle u, w\rangle = «iu» \;\le\; \lVert u\rVert\lVert w\rVert "
             r"= «nu» \;\le\; \lVert u\rVert R\sqrt{M} = «uu»", ("hl", "iu", "nu", "uu"), hp,
             [("hinge_lower", "inner_u"), ("inner_u", "norm_u"), ("norm_u", "upper_u")],
             "hinge-loss form [002] with u = w*/γ (L(u) so far: rounds 1 to this one)"),
        line(r"M = «M» \;\le\; L + a\sqrt{L} + a^2 = «hb», \; L = L(u)^{\text{whole run}} = «Lall»",
             ("M", "hb", "Lall"), hp, [("M", "mistake_bound")], f"a = ‖u‖R = {hp.constants['a']:.4g}"),
    ]


def _caption(trace, y, mistakes, scales, T: int) -> dict:
    score = np.asarray(trace.columns["score"])
    pred = np.asarray(trace.predictions)
    is_m = np.asarray(trace.columns["is_mistake"]).astype(int)
    cvals = {
        "y": {"by": "round", "data": np.where(y > 0, 1, 0), "fmt": "text", "labels": ["−1", "+1"]},
        # no sign forced: w·x = 0 (w = 0 before the first mistake) prints "0", never "+0" (−0 + 0 = +0)
        "score": {"by": "round", "data": sig(score + 0.0), "fmt": ".4g"},
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
    return {"template": template, "start": "Round 0 of {T}: nothing seen yet, w = 0. Press Next or Play.",
            "values": cvals}


# ------------------------------------------------------------------------------------------ the spec

def _highlights(trace, X, mode: str, sp, d: int):
    """The rounds ringed on the main chart: where the separable assumption fails, or (non-separable)
    where the hinge term is positive, in three ring sizes by the term's size."""
    if mode == "separable":
        fa = sp.failed_assumptions
        if fa and len(fa[0].rounds) and d == 2:
            r = np.asarray(fa[0].rounds)
            return (r, X[r, 0].round(ND), X[r, 1].round(ND), np.ones(len(r), dtype=int)), \
                "rounds where the assumption fails"
        return None, ""
    hinge = np.asarray(sp.constants["hinge"])
    r = np.flatnonzero(hinge > 0)
    name = "hinge max(0, γ − y⟨w*,x⟩) > 0 (larger ring: larger term)"
    if not (len(r) and d == 2):
        return None, name
    h = hinge[r]
    rel = h / max(float(h.max()), 1e-300)
    return (r, X[r, 0].round(ND), X[r, 1].round(ND), np.digitize(rel, [1 / 3, 2 / 3])), name


def _main_figure(trace, X, y, *, wstar, gband, hl, hl_name, L, W, title):
    d = X.shape[1]
    if d == 2:
        return _main_2d(trace, X, y, wstar=wstar, gamma_band=gband, highlight=hl, highlight_name=hl_name, L=L, W=W,
                        title=title)
    if d == 3:
        return (*_main_3d(trace, X, y, wstar=wstar, L=L, W=W, title=title), None)
    return (*_main_bars(trace, wstar=wstar, W=W, title=title), None)


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
    sp = proof if mode == "separable" else trace.proofs["nonseparable"]
    W = _weights_by_state(trace)
    mistakes = np.asarray(trace.mistakes, dtype=np.int64)
    R = float(proof.constants["radius"])
    wstar = trace.info.get("comparator") if mode == "separable" else sp.constants.get("comparator")
    gband = (proof.constants.get("gamma") or 0.0) if mode == "separable" else sp.constants["gamma"]
    hl, hl_name = _highlights(trace, X, mode, sp, d)
    main, arrays, scales = _main_figure(trace, X, y, wstar=wstar, gband=gband, hl=hl, hl_name=hl_name,
                                        L=float(view) if view else max(1e-9, 1.12 * R), W=W,
                                        title=title or "The stream and the Perceptron's hyperplane")
    if mode == "separable":
        figures = [main] + _separable_sandwiches(proof, arrays)
        ledger_lines = _separable_ledger(proof, W.shape[0])
    else:
        hp = trace.proofs["hinge"]
        figures = [main] + _nonseparable_sandwiches(sp, hp, arrays) + [_td_curve_figure(sp, trace.n_mistakes)]
        ledger_lines = _nonseparable_ledger(sp, hp)
    side = [f["id"] for f in figures[1:] if f["id"] != "td_curve"] + ["ledger"]
    left = ["main"] + [f["id"] for f in figures if f["id"] == "td_curve"]
    spec = {
        "version": 1, "run_id": run_id, "T": int(T), "position": int(position), "url_param": "t",
        "breaks": mistakes + 1, "mistake_rounds": mistakes, "arrays": arrays, "figures": figures,
        "ledger": {"title": "Proof ledger at this round", "lines": _ledger(ledger_lines)},
        "caption": _caption(trace, y, mistakes, scales, T),
        "layout": {"columns": [left, side], "widths": [1.1, 1]},
        "speed": int(max(2, min(500, T // 30))),
    }
    spec = describe_perceptron(jsonable(spec), trace, X, y, mode=mode, sp=sp,
                               hp=trace.proofs["hinge"] if mode != "separable" else None, wstar=wstar, band=gband)
    # per state what changes only on mistakes: a third less JSON to send at T = 10⁴ on noisy data
    return per_state(spec)


def _td_curve_figure(ns, n_mistakes: int) -> dict:
    """The TD_γ bound and the hinge-form bound as functions of γ (static), with the γ used and the best γ."""
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
        {"type": "scatter", "mode": "lines", "name": "R²/γ² + 2·TDᵧ/γ", "x": gammas.round(6),
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
    x_rng = [round(math.log10(gammas[0]), 5), round(math.log10(gammas[-1]), 5)]
    layout = {"xaxis": {"title": {"text": "γ, the margin asked of the comparator w* (up to R)"}, "type": "log",
                        "range": x_rng, "gridcolor": "#efefef", **log_axis_ticks(x_rng)},
              "yaxis": {"title": {"text": "mistake bound"}, "range": [0, ymax], "gridcolor": "#efefef"},
              "margin": {"l": 55, "r": 10, "t": 10, "b": 45}, "font": {"size": 14},
              "legend": {"orientation": "h", "y": 1.02, "yanchor": "bottom", "x": 0, "font": {"size": 12}},
              "plot_bgcolor": "#ffffff", "paper_bgcolor": "#ffffff"}
    return {"id": "td_curve", "title": "Which γ gives the smallest bound? (the same run, every γ up to R)", "height": 330,
            "figure": {"data": data, "layout": layout}, "config": {"displayModeBar": False}, "dynamic": []}
