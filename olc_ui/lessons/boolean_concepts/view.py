"""Step-viewer specs for the mistake-bound lessons of [004] §2 (pure: a run in, a JSON-ready dict out).

* :func:`conjunction_spec` — elimination: the literal table ``x₁ ¬x₁ … xₙ ¬xₙ`` with the
  target's literals, the hypothesis h (literals crossed out as false negatives arrive)
  and each literal's value on the current example; the sandwich
  ``|c| ≤ |hₜ| ≤ 2n − n[M⁺ ≥ 1] − (M⁺ − 1)₊`` against M; the ledger from the proof's links.
* :func:`decision_list_spec` — the level algorithm: the 4n+2 rules in a grid (a column per
  condition literal, a row per level), falling one level at each mistake, the target
  list's rules ringed with their floors; ``M ≤ Φₜ ≤ Σ(cap − 1) ≤ (4n+2)L ≤ (4n+2)(L+1)``.
* :func:`learner_game_spec` — the student is the learner, ConjunctionAdversary the
  adversary: the examples shown, the student's predictions, the revealed labels, and
  the ledger of the lower bound (every round a mistake; the target so far agrees).

Every number comes from the core: the run's weights (``trace.weights_at``), columns,
proof series and the proof's own per-state checks (``proof.check_matrix`` through
:func:`olc_ui.shared.spec_tools.holds`). Here only positions, colours and texts are chosen.
"""
from __future__ import annotations

import math
from typing import Any

import numpy as np

from olc_core.learners.decision_list import fallen
from olc_core.proofs.boolean import Conjunction, literal_name, rule_name

from olc_ui.shared import caps
from olc_ui.shared.common import agree, count, rounds_text
from olc_ui.shared.sandwich_view import Curve, sandwich as sandwich_chart
from olc_ui.shared.spec_tools import COLORS, by_state, const, holds, ledger, not_applicable
from olc_ui.lessons.boolean_concepts.describe import (describe_conjunction, describe_conjunction_start,
                                                      describe_decision_list, describe_learner_game)
from olc_ui.viewer.spec import jsonable

__all__ = ["CONJ_WHAT", "C_NAME", "C_ROW", "C_TRUE", "GREEN", "PALE_TARGET", "RED", "TARGET", "assumption_text", "bits", "conjunction_spec", "conjunction_start_spec",
           "false_literal_labels", "decision_list_spec", "learner_game_spec",
           "literal_states", "pretty", "rule_levels", "rule_x"]

_SUB = str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉")

GREEN = "#2a9d3f"
RED = "#d43a2f"
IN_H = "#1f4e79"
OUT_H = "#e9e9e9"
NOW = "#ff8c00"
TARGET = "#2ca02c"
PALE_TARGET = "#9bbf9b"
#: the literal table's row c: its name in the legend and its tick, when some conjunction labels the examples / not
C_NAME = ("in the target c", "in c: true on every positive (no target fits)")
C_ROW = ("target c", "c (positives only)")
C_TRUE = "c = True (the empty conjunction: every example is positive)"


def pretty(name: str) -> str:
    """``x12`` → ``x₁₂``, ``¬x3→0`` → ``¬x₃→0`` (the subscript only after an x)."""
    out, sub = [], False
    for ch in name:
        if ch == "x":
            sub = True
            out.append(ch)
        elif ch.isdigit() and sub:
            out.append(ch.translate(_SUB))
        else:
            sub = False
            out.append(ch)
    return "".join(out)


def bits(x) -> str:
    """An example as the bit string a student reads: ``[1, 0, 0, 1]`` → ``1001``."""
    return "".join("1" if float(v) != 0 else "0" for v in np.asarray(x).ravel())


def assumption_text(a, proof) -> str:
    """Why an assumption of the theorem fails, for a student: rounds 1-based, literals with subscripts."""
    r = rounds_text(np.asarray(a.rounds))
    n = len(a.rounds)
    rr = f"{agree(n, 'round', 'rounds')} {r}"
    c = proof.constants
    if a.name == "target":
        what = "target list" if "L" in c else "target"
        tgt = c.get("target")
        return f"the {what} {pretty(str(tgt)) if tgt is not None else ''} labels {rr} differently from y"
    if a.name == "consistent" and "most_specific" in c:
        return (f"no conjunction is consistent with these labels: {rr} {agree(n, 'is labelled 0 but satisfies', 'are labelled 0 but satisfy')} "
                f"{pretty(str(c['most_specific']))}, the literals true on every positive example, so every "
                "conjunction that labels the positives 1 labels them 1 too")
    if a.name == "consistent":
        return (f"no decision list labels {rr} as given (Rivest's greedy algorithm finds none, and it finds "
                "one whenever one exists)")
    return f"{a.name} fails on {rr}"


def _labels(strings: list[str]) -> tuple[list[int], list[str]]:
    """Text per round as indices into a list of distinct strings (a viewer value with labels)."""
    table: dict[str, int] = {}
    idx = [table.setdefault(s, len(table)) for s in strings]
    return idx, list(table)


def _marker_size(columns: int, width_px: float = 620.0, most: float = 34.0) -> float:
    return float(max(12.0, min(most, 0.78 * width_px / max(columns, 1))))


def _font_size(columns: int) -> int:
    return 15 if columns <= 10 else 13 if columns <= 16 else 11


def _run_inputs(trace, X, y):
    """``X, y`` as arrays (checked against the trace), ``T, n``, the proof, its series, its number
    of states K and the mistake rounds: what every figure builder here starts from."""
    X = np.asarray(X)
    y = np.asarray(y)
    T, n = X.shape
    if T != trace.T:
        raise ValueError("X does not match the trace")
    proof = trace.proof
    return X, y, T, n, proof, proof.series, proof.K, np.asarray(trace.mistakes, dtype=np.int64)


def _table_layout(xaxis: dict, yaxis: dict, left: int, shapes: list, annotations: list, **extra) -> dict:
    """The layout the literal table and the level chart share (white, legend below, fixed axes)."""
    return {"xaxis": xaxis, "yaxis": yaxis, "margin": {"l": left, "r": 10, "t": 40, "b": 10},
            "legend": {"orientation": "h", "y": -0.02, "yanchor": "top", "x": 0, "font": {"size": 13}},
            "font": {"size": 14}, "plot_bgcolor": "#ffffff", "paper_bgcolor": "#ffffff", "shapes": shapes,
            "annotations": annotations, **extra}


# ------------------------------------------------------------------------------------------ conjunctions

def literal_states(trace) -> np.ndarray:
    """(K, 2n) 0/1: the hypothesis in every state of the proof (state k: after the k-th mistake)."""
    rounds = trace.proof.state_rounds
    return np.vstack([np.asarray(trace.weights_at(int(t))) != 0 for t in rounds]).astype(np.int8)


def _conj_states(H: np.ndarray, names: list[str], arrays: dict) -> None:
    """Per state: the literals h keeps and those crossed out; at a mistake, those it just crossed out."""
    K = H.shape[0]
    # the hypothesis in every state: kept literals, crossed-out literals
    keep_x, keep_y, keep_t, out_x, out_y, out_t = [], [], [], [], [], []
    for k in range(K):
        kept = np.flatnonzero(H[k])
        gone = np.flatnonzero(H[k] == 0)
        keep_x.append(kept.tolist())
        keep_y.append([2] * kept.size)
        keep_t.append([names[j] for j in kept])
        out_x.append(gone.tolist())
        out_y.append([2] * gone.size)
        out_t.append([f"<s>{names[j]}</s>" for j in gone])
    arrays.update(h_x=keep_x, h_y=keep_y, h_t=keep_t, o_x=out_x, o_y=out_y, o_t=out_t)
    # at a mistake: the literals it crossed out (a false positive crosses out none)
    now_x, now_y = [], []
    for k in range(1, K):
        gone = np.flatnonzero((H[k - 1] == 1) & (H[k] == 0))
        now_x.append(gone.tolist())
        now_y.append([2] * gone.size)
    arrays.update(now_x=now_x, now_y=now_y)



def _conj_main(X, T: int, n: int, names: list[str], target, arrays: dict, title: str, fits: bool = True) -> dict:
    """The literal table: the target c, the hypothesis h (kept / crossed out), each literal's value on xₜ.

    ``fits``: some conjunction labels the examples (or a target was given); otherwise c is only the most
    specific conjunction true on the positives, and the table does not call it a target."""
    cmask = np.asarray(target.mask, dtype=bool) if target is not None else np.zeros(2 * n, dtype=bool)
    c_row, c_name = (C_ROW[0], C_NAME[0]) if fits else (C_ROW[1], C_NAME[1])
    size = _marker_size(2 * n)
    font = _font_size(2 * n)
    B = X != 0
    truth = np.empty((T, 2 * n), dtype=bool)                    # each literal's value on x_t
    truth[:, 0::2] = B
    truth[:, 1::2] = ~B
    arrays["r_all"] = np.arange(T)
    arrays["row1"] = [1] * T

    data: list[dict] = []
    cx = np.flatnonzero(cmask)
    data.append({"type": "scatter", "mode": "markers+text", "name": c_name,
                 "x": cx.tolist(), "y": [3] * cx.size, "text": [names[j] for j in cx],
                 "textfont": {"color": "#ffffff", "size": font},
                 "marker": {"symbol": "square", "size": size, "color": TARGET if fits else PALE_TARGET},
                 "hovertemplate": "%{text} is " + c_name + "<extra></extra>"})
    data.append({"type": "scatter", "mode": "markers+text", "name": "crossed out of h", "x": [], "y": [],
                 "text": [], "textfont": {"color": "#8a8a8a", "size": font},
                 "marker": {"symbol": "square", "size": size, "color": OUT_H, "line": {"color": "#c8c8c8",
                                                                                      "width": 1}},
                 "hoverinfo": "skip"})
    data.append({"type": "scatter", "mode": "markers+text", "name": "in h", "x": [], "y": [], "text": [],
                 "textfont": {"color": "#ffffff", "size": font},
                 "marker": {"symbol": "square", "size": size, "color": IN_H}, "hoverinfo": "skip"})
    data.append({"type": "scatter", "mode": "markers", "name": "crossed out at this round (0 on xₜ)",
                 "x": [], "y": [], "hoverinfo": "skip",
                 "marker": {"symbol": "x-thin-open", "size": size * 0.95, "color": NOW,
                            "line": {"color": NOW, "width": 4}}})
    dynamic = [
        {"trace": 1, "op": "state", "x": "o_x", "y": "o_y", "text": "o_t"},
        {"trace": 2, "op": "state", "x": "h_x", "y": "h_y", "text": "h_t"},
        {"trace": 3, "op": "on_mistake", "x": "now_x", "y": "now_y"},
    ]
    for j in range(2 * n):       # one trace per literal: its value (1 / 0) on the current example
        arrays[f"lx{j}"] = [j] * T
        arrays[f"lt{j}"] = np.where(truth[:, j], "1", "0").tolist()
        arrays[f"lc{j}"] = np.where(truth[:, j], GREEN, RED).tolist()
        data.append({"type": "scatter", "mode": "markers+text", "name": f"{names[j]} on xₜ", "x": [], "y": [],
                     "text": [], "showlegend": False, "hoverinfo": "skip",
                     "textfont": {"color": "#ffffff", "size": font + 1},
                     "marker": {"symbol": "circle", "size": size * 0.85, "color": GREEN}})
        dynamic.append({"trace": len(data) - 1, "op": "row_current", "rounds": "r_all", "x": f"lx{j}",
                        "y": "row1", "text": f"lt{j}", "color": f"lc{j}"})
    shapes = [{"type": "line", "x0": 2 * i + 1.5, "x1": 2 * i + 1.5, "y0": 0.5, "y1": 3.5,
               "line": {"color": "#dddddd", "width": 1}} for i in range(n - 1)]
    annotations = []
    if target is None:
        annotations.append({"x": -0.5, "y": 3, "xanchor": "left", "showarrow": False, "font": {"size": 14},
                            "text": "no consistent conjunction: no target"})
    elif target.size == 0:
        annotations.append({"x": -0.5, "y": 3, "xanchor": "left", "showarrow": False, "font": {"size": 14},
                            "text": C_TRUE})
    layout = _table_layout(
        {"range": [-0.6, 2 * n - 0.4], "tickvals": list(range(2 * n)), "ticktext": names, "side": "top",
         "showgrid": False, "zeroline": False, "fixedrange": True, "tickfont": {"size": font + 1}},
        {"range": [0.45, 3.55], "tickvals": [1, 2, 3], "ticktext": ["value on xₜ", "hypothesis h", c_row],
         "showgrid": False, "zeroline": False, "fixedrange": True, "tickfont": {"size": 14}},
        110, shapes, annotations, showlegend=True)
    return {"id": "main", "title": title or "The literal table: h keeps the literals true on every positive",
            "height": 330, "figure": {"data": data, "layout": layout}, "config": {"displayModeBar": False},
            "dynamic": dynamic}



def _conj_sandwich(proof, S, n: int, arrays: dict) -> dict:
    applies = proof.applies
    fp = int(proof.constants.get("false_positives", 0))
    closes = applies and fp == 0   # then every mistake is a false negative: M⁺ = M, the bounds are functions of M
    csz = float(S["c_size"][0])
    tight = float(proof.constants["bound_tight"])
    sandwich = sandwich_chart(
        "sandwich", "|c| ≤ |hₜ| ≤ 2n − n·[M⁺ ≥ 1] − (M⁺ − 1)₊ against the mistakes M", proof,
        [Curve("c_size", "|c|", COLORS["lower"], (lambda M: np.full_like(M, csz)) if closes else None),
         Curve("h_size", "|hₜ|", COLORS["inner"]),
         Curve("h_upper", "2n − n[M⁺≥1] − (M⁺−1)₊", COLORS["upper"],
               (lambda M: 2.0 * n - n * (M >= 1) - np.maximum(M - 1.0, 0.0)) if closes else None)], arrays,
        crossing=(tight, csz) if closes else None,
        crossing_name=f"× crossing at M = n + 1 − |c| = {tight:.0f}",
        stated=(float(proof.mistake_bound), "n + 1") if closes and proof.mistake_bound != tight else None,
        note=f"The theorem states M ≤ n + 1 = {n + 1} (dotted) for every conjunction." if closes else "No crossing drawn: " + (
            "a false positive (the labels are no conjunction's): M⁺ < M." if applies else "an assumption fails."))
    sandwich["figure"]["layout"]["yaxis"]["title"] = {"text": "number of literals"}

    return sandwich


def _conj_ledger(proof, S, K: int, n: int) -> list[dict]:
    r = {ch.name: ch.reasons for ch in proof.chains}
    vals = {"M": by_state(np.arange(K), "d"), "Mfn": by_state(S["M_fn"], "d"), "Mfp": by_state(S["M_fp"], "d"),
            "cs": by_state(S["c_size"], "d"), "hs": by_state(S["h_size"], "d"), "hu": by_state(S["h_upper"], "d"),
            "co": by_state(S["c_outside"], "d"), "bc": by_state(S["bound_c"], "d"),
            "n1": by_state(S["n_plus_1"], "d"), "n": const(n, "d")}
    lines = [
        {"latex": r"|c \setminus h_t| = «co» \;\le\; 0",
         "values": {"co": vals["co"]}, "holds": {"by": "state", "data": holds(proof, [("c_outside", "zero")])},
         "reason": "c ⊆ h: " + r["target inside h"][0]},
        {"latex": r"|c| = «cs» \;\le\; |h_t| = «hs»",
         "values": {k: vals[k] for k in ("cs", "hs")},
         "holds": {"by": "state", "data": holds(proof, [("c_size", "h_size")])},
         "reason": r["literal count |h|"][0]},
        {"latex": r"|h_t| = «hs» \;\le\; 2n - n\,[M^+ \ge 1] - (M^+ - 1)_+ = «hu»",
         "values": {k: vals[k] for k in ("hs", "hu")},
         "holds": {"by": "state", "data": holds(proof, [("h_size", "h_upper")])},
         "reason": r["literal count |h|"][1]},
        {"latex": r"M = «M» \;\le\; M^+ = «Mfn»",
         "values": {k: vals[k] for k in ("M", "Mfn")},
         "holds": {"by": "state", "data": holds(proof, [("M", "M_fn")])},
         "reason": r["no false positive"][0]},
        {"latex": r"M^+ = «Mfn» \;\le\; n + 1 - |c| = «bc» \;\le\; n + 1 = «n1»",
         "values": {k: vals[k] for k in ("Mfn", "bc", "n1")},
         "holds": {"by": "state", "data": holds(proof, [("M_fn", "bound_c"), ("bound_c", "n_plus_1")])},
         "reason": "; ".join(r["mistake count"])},
    ]
    links = [[("c_outside", "zero")], [("c_size", "h_size")], [("h_size", "h_upper")], [("M", "M_fn")],
             [("M_fn", "bound_c"), ("bound_c", "n_plus_1")]]
    lines = [not_applicable(ln, proof, lk, "labels from the target conjunction") for ln, lk in zip(lines, links)]
    if proof.mistake_bound is not None:
        lines.append({"latex": r"M = «M» \;\le\; n + 1 = «bound»",
                      "values": {"M": vals["M"], "bound": const(proof.mistake_bound, "d")},
                      "holds": {"by": "state", "data": holds(proof, [("M", "mistake_bound")])},
                      "reason": "the theorem [004]: at most n + 1 mistakes on any sequence a conjunction labels"})
    else:
        why = "; ".join(assumption_text(a, proof) for a in proof.failed_assumptions)
        lines.append({"latex": r"M \le n + 1 \;\text{ is not claimed: an assumption fails}", "na": True,
                      "reason": why})

    return lines


#: what the caption says a round did (index: 0 correct, 1 false negative, 2 false positive; + 3 on a noisy label)
CONJ_WHAT = ["correct, h unchanged", "FALSE NEGATIVE → cross out the literals that are 0 on xₜ",
             "FALSE POSITIVE → no consistent conjunction (h unchanged)",
             "correct, h unchanged (a noisy label)",
             "FALSE NEGATIVE on a noisy label → cross out the literals that are 0 on xₜ",
             "FALSE POSITIVE on a noisy label → no consistent conjunction (h unchanged)"]


def false_literal_labels(most: int) -> list[str]:
    """The caption's words for k = 0 … ``most`` literals of h false on xₜ."""
    return [f"{count(k, 'literal')} of h {agree(k, 'is', 'are')}" for k in range(most + 1)]


def _caption_of(xs: list[str], y, fl, pred, kind) -> dict:
    xi, xl = _labels(xs)
    return {
        "template": "Round {t} of {T}: xₜ = {x}, yₜ = {y}. {nf} 0 on xₜ, so h(xₜ) = {yhat} "
                    "→ {what}. Mistakes so far M = {k}.",
        "start": "Round 0 of {T}: h holds all 2n literals, so h(x) = 0 for every x. Press Next or Play.",
        "values": {"x": {"by": "round", "data": xi, "fmt": "text", "labels": xl},
                   "y": {"by": "round", "data": (np.asarray(y) != 0).astype(int), "fmt": "d"},
                   "nf": {"by": "round", "data": fl, "fmt": "text",
                          "labels": false_literal_labels(int(np.max(fl, initial=0)))},
                   "yhat": {"by": "round", "data": pred, "fmt": "d"},
                   "what": {"by": "round", "data": kind, "fmt": "text", "labels": CONJ_WHAT}},
    }


def _conj_caption(trace, X, y, m, T: int, flipped) -> dict:
    fl = np.asarray(trace.columns["false_literals"])
    pred = np.asarray(trace.predictions).astype(int)
    kind = np.zeros(T, dtype=int)
    kind[m] = np.where(y[m] != 0, 1, 2)
    if flipped is not None:
        kind = np.where(np.asarray(flipped, dtype=bool)[:T], kind + 3, kind)
    return _caption_of([bits(X[t]) for t in range(T)], y, fl, pred, kind)


def conjunction_start_spec(n: int, *, run_id: str, title: str = "", start: str = "") -> dict:
    """The literal table before any round (no run yet: the core needs one): h and c hold all 2n literals.

    The adversary game opens on it, so that its first move is drawn by a viewer already on the page."""
    names = [pretty(literal_name(j)) for j in range(2 * n)]
    arrays: dict[str, Any] = {}
    _conj_states(np.ones((1, 2 * n), dtype=np.int8), names, arrays)
    main = _conj_main(np.zeros((0, n)), 0, n, names, Conjunction.from_mask(np.ones(2 * n, dtype=bool)), arrays,
                      title)
    caption = _caption_of([], np.zeros(0), np.zeros(0, dtype=int), np.zeros(0, dtype=int), np.zeros(0, dtype=int))
    if start:
        caption["start"] = start
    spec = {"version": 1, "run_id": run_id, "T": 0, "position": 0, "url_param": "t", "breaks": [],
            "mistake_rounds": [], "arrays": arrays, "figures": [main], "caption": caption,
            "layout": {"columns": [["main"]]}}
    return describe_conjunction_start(jsonable(spec), n)


def conjunction_spec(trace, X, y, *, run_id: str, position: int = 0, title: str = "",
                     flipped: np.ndarray | None = None) -> dict:
    """The viewer spec for an elimination run on ``(X, y)`` (0/1 examples and labels)."""
    X, y, T, n, proof, S, K, m = _run_inputs(trace, X, y)
    H = literal_states(trace)                                   # (K, 2n)
    names = [pretty(literal_name(j)) for j in range(2 * n)]
    arrays: dict[str, Any] = {}
    _conj_states(H, names, arrays)
    # labels no conjunction gives (and no target given): c is only the most specific conjunction on the positives
    fits = bool(proof.constants.get("consistent", True)) or proof.constants.get("comparator_source") == "given"
    main = _conj_main(X, T, n, names, proof.constants.get("target"), arrays, title, fits)
    sandwich = _conj_sandwich(proof, S, n, arrays)
    lines = _conj_ledger(proof, S, K, n)
    caption = _conj_caption(trace, X, y, m, T, flipped)
    fp_rounds = np.asarray(trace.info.get("no_consistent_conjunction_rounds", []), dtype=np.int64)
    spec = {
        "version": 1, "run_id": run_id, "T": int(T), "position": int(position), "url_param": "t",
        "breaks": m + 1, "mistake_rounds": m, "arrays": arrays, "figures": [main, sandwich],
        "ledger": {"title": "Proof ledger at this round", "lines": ledger(lines)}, "caption": caption,
        "layout": {"columns": [["main", "ledger"], ["sandwich"]], "widths": [1.5, 1]},
        "speed": int(max(1, min(60, T // 20))),
    }
    if fp_rounds.size:
        spec["extra_stops"] = {"false positive": np.unique(fp_rounds)}
    return describe_conjunction(jsonable(spec), trace, H)


# ------------------------------------------------------------------------------------------ decision lists

def rule_x(r: int) -> float:
    """Where rule r sits: the column of its condition literal, →1 left of centre, →0 right."""
    return r // 2 + (-0.24 if r % 2 == 0 else 0.24)


def rule_levels(trace) -> np.ndarray:
    """(K, 4n+2): every rule's level in every state (state k: after the k-th mistake)."""
    return np.vstack([np.asarray(trace.weights_at(int(t))) for t in trace.proof.state_rounds]).astype(np.int64)


def _dl_sandwich(proof, arrays: dict) -> dict:
    """M ≤ Φₜ ≤ Σ(capᵣ − 1): the diagonal M meets the flat Σ(capᵣ − 1) at M = Σ(capᵣ − 1) ≤ (4n+2)L ≤ the
    stated (4n+2)(L+1) (a dotted line; the chain in the note under the axis)."""
    c, b = proof.constants, proof.mistake_bound
    ok = b is not None and "cap_sum" in c
    cap = float(c["cap_sum"]) if ok else math.nan
    note = (f"M ≤ Σ(capᵣ − 1) = {c['cap_sum']} ≤ (4n+2)L = {c['bound_tight']} ≤ (4n+2)(L+1) = {b:.0f} (dotted)."
            if ok else "No crossing drawn: no decision list is consistent with these labels (or none is given).")
    return sandwich_chart(
        "sandwich", "M ≤ Φₜ = Σᵣ (levelᵣ − 1) ≤ Σᵣ (capᵣ − 1) against the mistakes M", proof,
        [Curve("M", "M", COLORS["lower"], (lambda m: m) if ok else None), Curve("Phi", "Φₜ", COLORS["inner"]),
         Curve("cap_sum", "Σ(capᵣ − 1)", COLORS["upper"], (lambda m: np.full_like(m, cap)) if ok else None)],
        arrays, crossing=(cap, cap) if ok else None,
        crossing_name=f"× crossing at M = Σ(capᵣ − 1) = {cap:.0f}",
        stated=(float(b), "(4n+2)(L+1)") if ok else None, note=note)


def _dl_falls(trace, m, xs: list, outs: list, size: float, arrays: dict, data: list, dynamic: list) -> None:
    """At a mistake: where the fallen rules were, the fall, where they are now."""
    gx, gy, ax, ay, fx, fy, ft = [], [], [], [], [], [], []
    for k in range(len(m)):
        _, lev, moved = fallen(trace, k)
        gx.append([xs[r] for r in moved])
        gy.append([lev] * len(moved))
        fx.append([xs[r] for r in moved])
        fy.append([lev + 1] * len(moved))
        ft.append([str(outs[r]) for r in moved])
        lx, ly = [], []
        for r in moved:
            if lx:
                lx.append(None)
                ly.append(None)
            lx += [xs[r], xs[r]]
            ly += [lev + 0.25, lev + 0.75]
        ax.append(lx)
        ay.append(ly)
    arrays.update(g_x=gx, g_y=gy, a_x=ax, a_y=ay, f_x=fx, f_y=fy, f_t=ft)
    data.append({"type": "scatter", "mode": "markers", "name": "where the fallen rules were", "x": [], "y": [],
                 "marker": {"symbol": "square-dot", "size": size, "color": "rgba(255,140,0,0.15)",
                            "line": {"color": NOW, "width": 1.5}}, "hoverinfo": "skip", "showlegend": False})
    dynamic.append({"trace": len(data) - 1, "op": "on_mistake", "x": "g_x", "y": "g_y"})
    data.append({"type": "scatter", "mode": "lines", "name": "fall", "x": [], "y": [], "showlegend": False,
                 "line": {"color": NOW, "width": 2.5, "dash": "dot"}, "hoverinfo": "skip"})
    dynamic.append({"trace": len(data) - 1, "op": "on_mistake", "x": "a_x", "y": "a_y"})
    data.append({"type": "scatter", "mode": "markers", "name": "fell one level at this mistake", "x": [], "y": [],
                 "marker": {"symbol": "square-open", "size": size + 8, "color": NOW,
                            "line": {"color": NOW, "width": 3.5}}, "hoverinfo": "skip"})
    dynamic.append({"trace": len(data) - 1, "op": "on_mistake", "x": "f_x", "y": "f_y"})


def _dl_ledger(proof, S, K: int, R: int, Ltarget) -> list[dict]:
    vals = {"M": by_state(np.arange(K), "d"), "Phi": by_state(S["Phi"], "d"), "cap": by_state(S["cap_sum"], "d"),
            "tight": by_state(S["tight"], "d"), "nb": by_state(S["notes_bound"], "d"),
            "ex": by_state(S["target_excess"], "d"), "ml": by_state(S["max_level"], "d"),
            "L1": by_state(S["L_plus_1"], "d"), "R": const(R, "d"),
            "L": const(Ltarget, "d") if Ltarget else const(None)}
    r = {ch.name: ch.reasons for ch in proof.chains}
    rp = r["level potential"]
    lines = [
        {"latex": r"M = «M» \;\le\; \Phi_t = \textstyle\sum_r (\mathrm{level}_r - 1) = «Phi»",
         "values": {k: vals[k] for k in ("M", "Phi")}, "holds": {"by": "state", "data": holds(proof, [("M", "Phi")])},
         "reason": rp[0]},
        {"latex": r"\Phi_t = «Phi» \;\le\; \textstyle\sum_r (\mathrm{cap}_r - 1) = «cap»",
         "values": {k: vals[k] for k in ("Phi", "cap")},
         "holds": {"by": "state", "data": holds(proof, [("Phi", "cap_sum")])}, "reason": rp[1]},
        {"latex": r"\textstyle\sum_r (\mathrm{cap}_r - 1) = «cap» \;\le\; (4n+2)L = «R»\cdot«L» = «tight»",
         "values": {k: vals[k] for k in ("cap", "R", "L", "tight")},
         "holds": {"by": "state", "data": holds(proof, [("cap_sum", "tight")])}, "reason": rp[2]},
        {"latex": r"(4n+2)L = «tight» \;\le\; (4n+2)(L+1) = «nb»",
         "values": {k: vals[k] for k in ("tight", "nb")},
         "holds": {"by": "state", "data": holds(proof, [("tight", "notes_bound")])}, "reason": rp[3]},
        {"latex": r"\max_i\,(\mathrm{level}(c_i) - i) = «ex» \;\le\; 0",
         "values": {"ex": vals["ex"]}, "holds": {"by": "state", "data": holds(proof, [("target_excess", "zero")])},
         "reason": r["target rule i stays at level ≤ i"][0]},
        {"latex": r"\max_r \mathrm{level}_r = «ml» \;\le\; L + 1 = «L1»",
         "values": {k: vals[k] for k in ("ml", "L1")},
         "holds": {"by": "state", "data": holds(proof, [("max_level", "L_plus_1")])},
         "reason": r["no rule below level L+1"][0]},
    ]
    links = [[("M", "Phi")], [("Phi", "cap_sum")], [("cap_sum", "tight")], [("tight", "notes_bound")],
             [("target_excess", "zero")], [("max_level", "L_plus_1")]]
    lines = [not_applicable(ln, proof, lk, "labels from the target decision list") for ln, lk in zip(lines, links)]
    if proof.mistake_bound is not None:
        lines.append({"latex": r"M = «M» \;\le\; (4n+2)(L+1) = «bound»",
                      "values": {"M": vals["M"], "bound": const(proof.mistake_bound, "d")},
                      "holds": {"by": "state", "data": holds(proof, [("M", "mistake_bound")])},
                      "reason": "the theorem [004]: the potential closes the sandwich"})
    else:
        why = "; ".join(assumption_text(a, proof) for a in proof.failed_assumptions)
        lines.append({"latex": r"M \le (4n+2)(L+1) \;\text{ is not claimed: an assumption fails}", "na": True,
                      "reason": why})

    return lines


def _dl_caption(trace, X, y, m, T: int, n: int, R: int, lvl, rule, flipped) -> dict:
    pred = np.asarray(trace.predictions).astype(int)
    fell = np.zeros(T, dtype=int)
    for k, t in enumerate(m):
        fell[t] = len(fallen(trace, k)[2])
    xi, xl = _labels([bits(X[t]) for t in range(T)])
    ri, rl = _labels([pretty(rule_name(int(rr), n)) for rr in rule])
    noisy = np.asarray(flipped, dtype=bool)[:T] if flipped is not None else np.zeros(T, dtype=bool)
    wi, wl = _labels([(f"MISTAKE → the {fell[t]} rules of level {lvl[t]} that fire on xₜ and say {pred[t]} fall "
                       f"to level {lvl[t] + 1}" if fell[t] > 1 else
                       f"MISTAKE → the one rule of level {lvl[t]} that fires on xₜ and says {pred[t]} falls to "
                       f"level {lvl[t] + 1}") if fell[t] else "correct, nothing moves" for t in range(T)])
    ni, nl = _labels(["" if not noisy[t] else " (a noisy label)" for t in range(T)])
    return {
        "template": "Round {t} of {T}: xₜ = {x}, yₜ = {y}{noisy}. The first level with a firing rule is "
                    "level {lvl}; it reads {rule}, so ŷ = {yhat} → {what}. Mistakes so far M = {k}.",
        "start": "Round 0 of {T}: all 4n+2 = " + str(R) + " rules on level 1. Press Next or Play.",
        "values": {"x": {"by": "round", "data": xi, "fmt": "text", "labels": xl},
                   "y": {"by": "round", "data": (y != 0).astype(int), "fmt": "d"},
                   "noisy": {"by": "round", "data": ni, "fmt": "text", "labels": nl},
                   "lvl": {"by": "round", "data": lvl, "fmt": "d"},
                   "rule": {"by": "round", "data": ri, "fmt": "text", "labels": rl},
                   "yhat": {"by": "round", "data": pred, "fmt": "d"},
                   "what": {"by": "round", "data": wi, "fmt": "text", "labels": wl}},
    }


def _dl_round_layer(trace, X, n: int, T: int, xs: list, size: float, arrays: dict, data: list,
                    dynamic: list) -> tuple[np.ndarray, np.ndarray]:
    """Per round: which conditions fire on xₜ, the first level with a firing rule, the rule read."""
    B = X != 0
    lvl = np.asarray(trace.columns["level"]).astype(int)
    rule = np.asarray(trace.columns["rule"]).astype(int)
    arrays["r_all"] = np.arange(T)
    arrays["fire_y"] = [0.42] * T
    for i in range(n):
        arrays[f"fx{i}"] = np.where(B[:, i], 2 * i, 2 * i + 1).tolist()
        data.append({"type": "scatter", "mode": "markers", "name": "condition true on xₜ (fires)", "x": [], "y": [],
                     "marker": {"symbol": "triangle-down", "size": 13, "color": GREEN}, "hoverinfo": "skip",
                     "showlegend": i == 0, "legendgroup": "fires"})
        dynamic.append({"trace": len(data) - 1, "op": "row_current", "rounds": "r_all", "x": f"fx{i}",
                        "y": "fire_y"})
    data.append({"type": "scatter", "mode": "markers", "name": "True (always fires)", "x": [2 * n], "y": [0.42],
                 "marker": {"symbol": "triangle-down", "size": 13, "color": GREEN}, "hoverinfo": "skip",
                 "showlegend": False, "legendgroup": "fires"})
    arrays["read_x"] = [xs[r] for r in rule]
    arrays["read_y"] = lvl.tolist()
    data.append({"type": "scatter", "mode": "markers", "name": "the rule read (the prediction)", "x": [], "y": [],
                 "marker": {"symbol": "circle-open", "size": size + 16, "color": "#111111",
                            "line": {"color": "#111111", "width": 3}}, "hoverinfo": "skip"})
    dynamic.append({"trace": len(data) - 1, "op": "row_current", "rounds": "r_all", "x": "read_x", "y": "read_y"})
    arrays["lvl_x"] = [-0.75] * T
    data.append({"type": "scatter", "mode": "markers", "name": "first level with a rule that fires", "x": [],
                 "y": [], "marker": {"symbol": "triangle-right", "size": 18, "color": "#111111"},
                 "hoverinfo": "skip"})
    dynamic.append({"trace": len(data) - 1, "op": "row_current", "rounds": "r_all", "x": "lvl_x", "y": "read_y"})
    return lvl, rule


def _dl_layout(n: int, deepest: int, Ltarget, font: int) -> dict:
    """The levels' grid: the literals across the top, a row per level, the target's floor L + 1 dashed."""
    names = [pretty(literal_name(j, n)) for j in range(2 * n + 1)]
    shapes = [{"type": "line", "x0": j + 0.5, "x1": j + 0.5, "y0": 0.3, "y1": deepest + 0.5,
               "line": {"color": "#e4e4e4", "width": 1}} for j in range(2 * n)]
    shapes += [{"type": "line", "x0": -0.5, "x1": 2 * n + 0.5, "y0": lv + 0.5, "y1": lv + 0.5,
                "line": {"color": "#eeeeee", "width": 1}} for lv in range(1, deepest)]
    annotations = []
    if Ltarget:
        shapes.append({"type": "line", "x0": -0.5, "x1": 2 * n + 0.5, "y0": Ltarget + 1.5, "y1": Ltarget + 1.5,
                       "line": {"color": TARGET, "width": 2, "dash": "dash"}})
        annotations.append({"x": 2 * n + 0.5, "y": Ltarget + 1.5, "xanchor": "right", "yanchor": "top",
                            "showarrow": False, "font": {"size": 13, "color": TARGET},
                            "text": f"no rule goes below level L + 1 = {Ltarget + 1}"})
    return _table_layout(
        {"range": [-1.1, 2 * n + 0.6], "tickvals": list(range(2 * n + 1)), "ticktext": names, "side": "top",
         "showgrid": False, "zeroline": False, "fixedrange": True, "tickfont": {"size": font + 1}},
        {"range": [deepest + (0.9 if Ltarget else 0.6), 0.2], "tickvals": list(range(1, deepest + 1)),
         "ticktext": [f"level {lv}" for lv in range(1, deepest + 1)], "showgrid": False, "zeroline": False,
         "fixedrange": True, "tickfont": {"size": 14}},
        70, shapes, annotations)


def decision_list_spec(trace, X, y, *, run_id: str, position: int = 0, title: str = "",
                       flipped: np.ndarray | None = None) -> dict:
    """The viewer spec for a level-algorithm run on ``(X, y)``."""
    X, y, T, n, proof, S, K, m = _run_inputs(trace, X, y)
    R = 4 * n + 2
    LV = rule_levels(trace)                                     # (K, R)
    target = proof.constants.get("target")
    Ltarget = proof.constants.get("L")
    deepest = int(max(LV.max(), (Ltarget + 1) if Ltarget else 1))
    cols = 2 * n + 1
    size = float(max(11.0, min(28.0, 0.42 * 600.0 / (cols + 1.5))))   # two rules side by side per column
    font = 15 if size >= 24 else 13 if size >= 17 else 11
    xs = [round(rule_x(r), 3) for r in range(R)]
    outs = [1 - r % 2 for r in range(R)]
    arrays: dict[str, Any] = {"rl_x": [xs] * K, "rl_y": [LV[k].tolist() for k in range(K)]}

    data: list[dict] = []
    dynamic: list[dict] = []
    # 0: the floor of each target rule (rule i never goes below level i), static
    if target is not None:
        tr = [int(v) for v in target.rule_indices]
        data.append({"type": "scatter", "mode": "markers", "name": "target rule i (framed): floor at level i",
                     "x": [xs[r] for r in tr], "y": [i + 1.42 for i in range(len(tr))],
                     "marker": {"symbol": "line-ew", "size": size * 1.25, "line": {"color": TARGET, "width": 4}},
                     "hovertemplate": "target rule %{text}<extra></extra>",
                     "text": [f"{i + 1}: {pretty(rule_name(r, n))} stays on level ≤ {i + 1}" for i, r in
                              enumerate(tr)]})
        arrays["tg_x"] = [[xs[r] for r in tr]] * K
        arrays["tg_y"] = [[int(LV[k][r]) for r in tr] for k in range(K)]
    # the rules (x fixed per rule, y = level per state)
    data.append({"type": "scatter", "mode": "markers+text", "name": "rule: its output (1 / 0) written on it", "x": [], "y": [],
                 "text": [str(o) for o in outs], "textfont": {"color": "#ffffff", "size": font},
                 "marker": {"symbol": "square", "size": size, "color": [COLORS["pos"] if o else COLORS["neg"]
                                                                        for o in outs]},
                 "customdata": [pretty(rule_name(r, n)) for r in range(R)],
                 "hovertemplate": "%{customdata} on level %{y}<extra></extra>"})
    dynamic.append({"trace": len(data) - 1, "op": "state", "x": "rl_x", "y": "rl_y"})
    if target is not None:
        data[0]["legendgroup"] = "target"   # one legend entry for the target's rules and their floors
        data.append({"type": "scatter", "mode": "markers", "name": "a rule of the target list", "x": [], "y": [],
                     "showlegend": False, "legendgroup": "target",
                     "marker": {"symbol": "square-open", "size": size + 10, "color": TARGET,
                                "line": {"color": TARGET, "width": 3}}, "hoverinfo": "skip"})
        dynamic.append({"trace": len(data) - 1, "op": "state", "x": "tg_x", "y": "tg_y"})
    _dl_falls(trace, m, xs, outs, size, arrays, data, dynamic)
    lvl, rule = _dl_round_layer(trace, X, n, T, xs, size, arrays, data, dynamic)

    layout = _dl_layout(n, deepest, Ltarget, font)
    main = {"id": "main", "title": title or "The levels: every rule starts on level 1 and falls on mistakes",
            "height": int(min(760, 240 + 62 * deepest)), "figure": {"data": data, "layout": layout},
            "config": {"displayModeBar": False}, "dynamic": dynamic}

    sandwich = _dl_sandwich(proof, arrays)

    lines = _dl_ledger(proof, S, K, R, Ltarget)
    caption = _dl_caption(trace, X, y, m, T, n, R, lvl, rule, flipped)
    spec = {
        "version": 1, "run_id": run_id, "T": int(T), "position": int(position), "url_param": "t",
        "breaks": m + 1, "mistake_rounds": m, "arrays": arrays, "figures": [main, sandwich],
        "ledger": {"title": "Proof ledger at this round", "lines": ledger(lines)}, "caption": caption,
        "layout": {"columns": [["main"], ["sandwich", "ledger"]], "widths": [round(1.3 + 0.08 * max(0, n - 3), 2), 1]},
        "speed": int(max(1, min(60, T // 20))),
    }
    return describe_decision_list(jsonable(spec), trace, LV)


# ------------------------------------------------------------------------------------------ be the learner

def _learner_cells(n: int, X: np.ndarray, pred: np.ndarray, lab: np.ndarray, next_example) -> dict[str, list]:
    """Per state k (k rounds revealed): the board's cells — the revealed rows with ŷ and y, then the example
    waiting for a prediction with "?" (x, y, text and colour of every cell)."""
    T = int(X.shape[0])
    cx, cy, ct, cc = [], [], [], []
    for k in range(T + 1):
        xs, ys, ts, cs = [], [], [], []
        for i in range(k):
            for j in range(n):
                xs.append(j)
                ys.append(i + 1)
                ts.append(str(int(X[i, j] != 0)))
                cs.append("#f2c14e" if X[i, j] == 0 else "#dcdcdc")
            xs += [n + 0.3, n + 1.5]
            ys += [i + 1, i + 1]
            ts += [str(pred[i]), str(lab[i])]
            cs += ["#9467bd", RED]
        if k < T or (next_example is not None and k == T):
            ex = X[k] if k < T else np.asarray(next_example)
            for j in range(n):
                xs.append(j)
                ys.append(k + 1)
                ts.append(str(int(ex[j] != 0)))
                cs.append("#f7e3b0" if ex[j] == 0 else "#efefef")
            xs += [n + 0.3, n + 1.5]
            ys += [k + 1, k + 1]
            ts += ["?", "?"]
            cs += ["#efefef", "#efefef"]
        cx.append(xs)
        cy.append(ys)
        ct.append(ts)
        cc.append(cs)
    return {"c_x": cx, "c_y": cy, "c_t": ct, "c_c": cc}


def _learner_figure(n: int, rows: int) -> dict:
    """The board: one row per example (bits, the student's ŷ, the adversary's y), filled per state."""
    cols = n + 2
    size = _marker_size(cols, most=38.0)
    font = _font_size(cols) + 1
    data = [{"type": "scatter", "mode": "markers+text", "name": "cells", "x": [], "y": [], "text": [],
             "textfont": {"size": font, "color": "#111111"}, "showlegend": False, "hoverinfo": "skip",
             "marker": {"symbol": "square", "size": size, "color": "#dcdcdc"}}]
    dynamic = [{"trace": 0, "op": "state", "x": "c_x", "y": "c_y", "text": "c_t", "color": "c_c"}]
    ticks = [pretty(f"x{j + 1}") for j in range(n)] + ["your ŷ", "label y"]
    layout = {
        "xaxis": {"range": [-0.6, n + 2.1], "tickvals": list(range(n)) + [n + 0.3, n + 1.5], "ticktext": ticks,
                  "side": "top", "showgrid": False, "zeroline": False, "fixedrange": True,
                  "tickfont": {"size": font}},
        "yaxis": {"range": [rows + 0.6, 0.4], "tickvals": list(range(1, rows + 1)),
                  "ticktext": [f"example {i}" for i in range(1, rows + 1)], "showgrid": False, "zeroline": False,
                  "fixedrange": True, "tickfont": {"size": 14}},
        "margin": {"l": 90, "r": 10, "t": 40, "b": 10}, "font": {"size": 14}, "showlegend": False,
        "plot_bgcolor": "#ffffff", "paper_bgcolor": "#ffffff",
        "shapes": [{"type": "line", "x0": n - 0.5, "x1": n - 0.5, "y0": 0.4, "y1": rows + 0.6,
                    "line": {"color": "#bbbbbb", "width": 2}}],
    }
    return {"id": "main", "title": "The adversary's examples: example i has every bit set but bit i",
            "height": int(min(640, 130 + 48 * rows)), "figure": {"data": data, "layout": layout},
            "config": {"displayModeBar": False}, "dynamic": dynamic}


def _learner_ledger(n: int, M: np.ndarray, ti: list, tl: list, agree: list[int],
                    elimination_mistakes: int | None) -> list[dict]:
    """The ledger of states k = 0 … T: nothing is checked (✓/✗) before it happened — the counts from the
    first round on, the lower bound and the elimination learner's count once all n rounds are played."""
    K = M.size
    T = K - 1
    over = T == n                                   # the game is over at state T = n, and only there
    at_end = lambda v: [None] * (K - 1) + [v if over else None]  # noqa: E731
    lines = [
        {"latex": r"M = «M» \;=\; t = {t}",
         "values": {"M": by_state(M, "d")},
         "holds": {"by": "state", "data": [None] + [int(M[k] == k) for k in range(1, K)]},
         "reason": "every revealed round is a mistake: the label is the opposite of your prediction"},
        {"latex": r"c_t = «c»:\; c_t(x_i) = y_i \text{ on } «ag» \text{ of the } t = {t} \text{ rounds}",
         "values": {"c": {"by": "state", "data": ti, "fmt": "text", "labels": tl}, "ag": by_state(agree[:K], "d")},
         "holds": {"by": "state", "data": [None] + [int(agree[k] == k) for k in range(1, K)]},
         "reason": "the target: x_i for each round i you predicted 1 (that example, with bit i = 0, is "
                   "negative); a round you predicted 0 leaves x_i out (the example satisfies c: positive)"},
        {"latex": r"\text{at the end: } M \;\ge\; n = «n»",
         "values": {"n": const(n, "d")},
         "holds": {"by": "state", "data": at_end(int(M[-1] >= n))},
         "reason": "no deterministic learner makes fewer than n mistakes in the worst case [004]; checked once "
                   "all n rounds are played (the first line counts M so far)"},
    ]
    if elimination_mistakes is not None:
        me = int(elimination_mistakes)
        lines.append({"latex": r"\text{elimination, at the end: } n = «n» \;\le\; M = «Me» \;\le\; n + 1",
                      "values": {"n": const(n, "d"), "Me": {"by": "state", "data": at_end(me), "fmt": "d"}},
                      "holds": {"by": "state", "data": at_end(int(n <= me <= n + 1))},
                      "reason": "the elimination learner against the same adversary (its own game of n rounds): it "
                                "is deterministic too, and the lower bound n and its upper bound n + 1 meet within "
                                "one; shown once your n rounds are played"})
    return lines


def learner_game_spec(n: int, X, predictions, labels, targets: list, agree: list[int], *, run_id: str,
                      position: int | None = None, next_example=None, elimination_mistakes: int | None = None
                      ) -> dict:
    """The viewer spec of the game where the student predicts and the adversary of [004] labels.

    ``X`` (rounds revealed × n), ``predictions``, ``labels``: the rounds so far, from
    ConjunctionAdversary; ``targets[k]``: the target conjunction after k rounds (k = 0 … T);
    ``agree[k]``: how many of the first k labels that target gives (the core's
    Conjunction evaluated on the examples); ``next_example``: the example waiting for a
    prediction (None when the game is over); ``elimination_mistakes``: the mistakes our
    elimination learner makes against the same adversary (the core's conjunction_adversary),
    shown once the student's game is over.
    """
    X = np.asarray(X).reshape(-1, n)
    T = int(X.shape[0])
    pred = np.asarray(predictions, dtype=int)[:T]
    lab = np.asarray(labels, dtype=int)[:T]
    wrong = (pred != lab).astype(int)
    if not wrong.all():
        raise ValueError("every revealed round of the adversary's game is a mistake")
    K = T + 1
    arrays: dict[str, Any] = _learner_cells(n, X, pred, lab, next_example)
    fig = _learner_figure(n, max(T + (1 if next_example is not None else 0), 1))
    M = np.cumsum(np.concatenate([[0], wrong]))
    ti, tl = _labels([str(c) for c in targets[:K]])
    lines = _learner_ledger(n, M, ti, tl, agree, elimination_mistakes)
    caption = {
        "template": "After {t} of n = " + str(n) + " rounds: M = {k} mistakes; the target so far c = {c}.",
        "start": "No round played yet: the first example waits for your prediction.",
        "values": {"c": {"by": "state", "data": ti, "fmt": "text", "labels": tl}},
    }
    mistakes = np.flatnonzero(wrong).astype(np.int64)
    spec = {
        "version": 1, "run_id": run_id, "T": T, "position": int(T if position is None else position),
        "url_param": "t", "breaks": mistakes + 1, "mistake_rounds": mistakes, "arrays": arrays, "figures": [fig],
        "ledger": {"title": "The lower bound, at this round", "lines": ledger(lines)}, "caption": caption,
        "layout": {"columns": [["main"], ["ledger"]], "widths": [1.1, 1]},
    }
    return describe_learner_game(jsonable(spec), n, X, pred, lab, next_example is not None)


#: the page's drawing cap, stated under its viewer (olc_ui/shared/caps.py)
CAP = caps.text("at most 1,000 rounds and 12 variables (a decision list: 8; a game: 10)")
