"""The board of "Beat the bound" on Winnow (pure: a game state in, a JSON-ready spec out).

The main figure is the game's own, built so that a move appends to it: the browser's game mode
(assets/viewer_game_bars.js) draws a move at the click of "Label 1" / "Label 0" by pushing one round onto these
arrays — the weights after it, the example's variables, the moved weights and their factor, the caption — from
the exact integer exponents of the weights (``w_i = (1+β)^{e_i}``), with the same float operations as here, so the
board it draws is the one this module makes from the run (tests/ui/test_game_bars_js.py checks that under node).
The potential, the sandwich that closes and the proof ledger are the Winnow lesson's (``winnow_spec`` on the
game's run): the browser does not recompute them, they follow from the run.

Main figure traces, in this order (the game mode relies on it): 0 the weights as bars from the weight 1 (log
scale), 1 the threshold N, 2 the cap (1+β)N, 3 the round's example (a mark over each variable that is on), 4 where
the weights a mistake moved were, 5 their factor (×(1+β) or ÷(1+β)).

While the target is hidden (``shown`` False) nothing here names its variables: the bars are all alike, the
caption does not count the relevant variables, and the lesson's ledger leaves out its per-variable lines.
"""
from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

from olc_core.games._numbers import decimal_text, pair
from olc_core.games.winnow import MAX_MOVES, WinnowGame, WinnowState, WMove

from olc_ui.lessons.winnow.view import IRR_COLOR, REL_COLOR, winnow_spec
from olc_ui.shared.describe_view import describe, var
from olc_ui.shared.game_bars import arrays_of, bottom, ticks
from olc_ui.shared.spec_tools import axis, layout as spec_layout
from olc_ui.viewer.spec import jsonable

__all__ = ["board_spec", "board_options", "exponent_states", "TITLE", "HIDDEN_AXIS"]

TITLE = "The adversary's examples against Winnow: the weights after the round (log scale)"
HIDDEN_AXIS = "variables (the target is hidden)"
SHOWN_AXIS = "variables (hatched green: the target's)"
ROW_COLOR = "#333333"
#: the row of the round's example over the bars: its own axis, above the weights'
ROWS_AXIS = {"domain": [0.9, 1], "range": [0, 1], "visible": False, "fixedrange": True}


def _base_text(game: WinnowGame) -> str:
    return f"{1 + game.beta:g}"


def constants(game: WinnowGame) -> dict[str, float]:
    """The board's floats, computed once (the browser receives them): log₁₀ of the base, of N and of (1+β)N, the
    row of the example's marks (on a second y axis over the weights', 0 … 1), the top and the pad under the lowest
    bar."""
    lb = math.log10(1.0 + game.beta)
    thr = math.log10(game.N)
    cap = math.log10((1.0 + game.beta) * game.N)
    return {"lb": lb, "thr": thr, "cap": cap, "row": 0.5, "top": cap + 0.12 * cap, "pad": 0.1 * cap + lb,
            "floor": 0.0, "ticks_to": cap}


def exponent_states(game: WinnowGame, moves: tuple[WMove, ...]) -> tuple[list[list[int]], list[int]]:
    """The weights' exponents in each state (all 0 first; one state after each mistake) and the 0-based mistake
    rounds, replayed exactly (Winnow predicts 1 iff Σ_{x_i=1} (1+β)^{e_i} > N)."""
    b = 1 + Fraction(game.beta)
    e = [0] * game.N
    states, mistakes = [list(e)], []
    for t, m in enumerate(moves):
        score = sum((b ** e[i] for i in range(game.N) if m.x[i]), Fraction(0))
        pred = int(score > game.N)
        if pred != m.label:
            step = 1 if m.label == 1 else -1
            e = [e[i] + step * m.x[i] for i in range(game.N)]
            states.append(list(e))
            mistakes.append(t)
    return states, mistakes


def _on_text(x: tuple[int, ...]) -> str:
    on = [var(i) for i, b in enumerate(x) if b]
    return (", ".join(on) + " on") if on else "no variable on"


def _arrays(game: WinnowGame, moves, states, mistakes, c: dict) -> dict[str, Any]:
    lb, xs = c["lb"], list(range(1, game.N + 1))
    A: dict[str, Any] = {"g_bx": [xs for _ in states], "g_by": [[e * lb for e in s] for s in states],
                         "g_er": [], "g_ex": [], "g_ey": [], "g_mx": [], "g_mp": [], "g_my": [], "g_mt": []}
    for t, m in enumerate(moves):
        for i, b in enumerate(m.x):
            if b:
                A["g_er"].append(t), A["g_ex"].append(i + 1), A["g_ey"].append(c["row"])
    bt = _base_text(game)
    for j, t in enumerate(mistakes):
        m, after = moves[t], states[j + 1]
        s = 1 if m.label == 1 else -1
        on = [i for i, b in enumerate(m.x) if b]
        A["g_mx"].append([i + 1 for i in on])
        A["g_mp"].append([(after[i] - s) * lb for i in on])
        A["g_my"].append([(after[i] + 0.6 * s) * lb for i in on])
        A["g_mt"].append([("×" if s > 0 else "÷") + bt for _ in on])
    return A


def _axis_y(lo: float, c: dict, bt: str) -> dict:
    y0 = bottom(lo, c["floor"], c["pad"])
    tv, tt = ticks(y0, c["ticks_to"], c["lb"], bt)
    return axis("weight wᵢ (log scale)", range=[y0, c["top"]], tickvals=tv, ticktext=tt, zeroline=False)


def _main(game: WinnowGame, states, c: dict, shown: bool) -> dict:
    N, lb, bt = game.N, c["lb"], _base_text(game)
    rel = set(game.relevant) if shown else set()
    lo = min(min(s) for s in states) * lb
    xs = list(range(1, N + 1))
    line = lambda name, y, color, dash: {  # noqa: E731
        "type": "scatter", "mode": "lines", "name": name, "x": [0.4, N + 0.6], "y": [y, y],
        "line": {"color": color, "width": 2, "dash": dash}, "hoverinfo": "skip"}
    bars = {"type": "bar", "name": "wᵢ", "x": xs, "y": [0] * N, "base": 0, "showlegend": False, "hoverinfo": "skip",
            "marker": {"color": [REL_COLOR if i in rel else IRR_COLOR for i in range(N)],
                       "line": {"color": "#1b2a3a", "width": 1}}}
    if rel:
        bars["marker"]["pattern"] = {"shape": ["/" if i in rel else "" for i in range(N)], "fgcolor": "#ffffff",
                                     "fillmode": "overlay", "size": 7, "solidity": 0.3}
    data = [
        bars,
        line(f"threshold N = {N}: ŷ = 1 iff w·x > N", c["thr"], "#444444", "dot"),
        line(f"cap (1+β)N = {(1 + game.beta) * N:g}: no weight passes it", c["cap"], "#d62728", "dash"),
        {"type": "scatter", "mode": "markers", "name": "the round's example: ■ over each variable on", "x": [None],
         "y": [None], "yaxis": "y2", "marker": {"symbol": "square", "size": 11 if N <= 16 else 8, "color": ROW_COLOR},
         "hoverinfo": "skip"},
        {"type": "scatter", "mode": "markers", "name": "where a moved weight was", "x": [None], "y": [None],
         "marker": {"symbol": "line-ew", "size": 16 if N <= 16 else 9, "color": "#555555",
                    "line": {"width": 2.5, "color": "#555555"}}, "hoverinfo": "skip"},
        {"type": "scatter", "mode": "text", "name": "factor", "x": [None], "y": [None], "text": [""],
         "showlegend": False, "textfont": {"size": 12, "color": "#000000"}, "hoverinfo": "skip"},
    ]
    ticks_x = {"tickvals": xs if N <= 16 else xs[::2], "ticktext": [var(i) for i in range(N)][:: 1 if N <= 16 else 2]}
    layout = spec_layout(xaxis=axis(SHOWN_AXIS if rel else HIDDEN_AXIS, range=[0.4, N + 0.6], **ticks_x),
                         yaxis={**_axis_y(lo, c, bt), "domain": [0, 0.86]}, yaxis2=ROWS_AXIS, bargap=0.2,
                         showlegend=True, dragmode=False, hovermode=False)
    dynamic = [{"trace": 0, "op": "state", "x": "g_bx", "y": "g_by"},
               {"trace": 3, "op": "row_current", "rounds": "g_er", "x": "g_ex", "y": "g_ey"},
               {"trace": 4, "op": "on_mistake", "x": "g_mx", "y": "g_mp"},
               {"trace": 5, "op": "on_mistake", "x": "g_mx", "y": "g_my", "text": "g_mt"}]
    return {"id": "main", "title": TITLE, "height": 360, "figure": {"data": data, "layout": layout},
            "config": {"displayModeBar": False}, "dynamic": dynamic}


def _what(game: WinnowGame) -> list[str]:
    """What a round did: the caption's words (the browser's too)."""
    bt = _base_text(game)
    return ["correct: no update", f"MISTAKE on a positive → promote: every active weight × {bt}",
            f"MISTAKE on a negative → demote: every active weight ÷ {bt}"]


def _caption(game: WinnowGame, moves, states) -> dict:
    b, N = 1 + Fraction(game.beta), game.N
    what = _what(game)
    V: dict[str, list] = {k: [] for k in ("gx", "gy", "gsc", "gcmp", "gyhat", "gwhat", "gM")}
    k = 0
    for m in moves:
        e = states[k]
        score = sum((b ** e[i] for i in range(N) if m.x[i]), Fraction(0))
        pred = int(score > N)
        rel = ">" if pred else "<="
        V["gx"].append(_on_text(m.x))
        V["gy"].append(m.label)
        V["gsc"].append(pair(score, Fraction(N), rel, 6)[0])
        V["gcmp"].append(">" if pred else "≤")
        V["gyhat"].append(pred)
        V["gwhat"].append(what[0 if pred == m.label else 1 if m.label == 1 else 2])
        k += int(pred != m.label)
        V["gM"].append(k)
    text = lambda d: {"by": "round", "data": d, "fmt": "text"}  # noqa: E731
    return {"template": "Round {t} of {T}: {gx}, label y = {gy}; w·x = {gsc} {gcmp} N = " + str(N)
                        + " → ŷ = {gyhat}: {gwhat}. Mistakes so far M = {gM}.",
            "start": (f"Before your first example every weight is 1, so w·x is the number of variables on, at most "
                      f"N = {N}: Winnow predicts 0 until a weight grows."),
            "values": {"gx": text(V["gx"]), "gy": {"by": "round", "data": V["gy"], "fmt": "d"},
                       "gsc": text(V["gsc"]), "gcmp": text(V["gcmp"]),
                       "gyhat": {"by": "round", "data": V["gyhat"], "fmt": "d"}, "gwhat": text(V["gwhat"]),
                       "gM": {"by": "round", "data": V["gM"], "fmt": "d"}}}


def _describe(game: WinnowGame, states, shown: bool) -> dict:
    b = 1 + Fraction(game.beta)
    ws = ["w = (" + ", ".join(decimal_text(b ** e, 6) for e in s) + ")" for s in states]
    target = (" The target is the OR of " + ", ".join(var(i) for i in game.relevant) + ".") if shown else \
        " The target is hidden."
    head = (f"The board: Winnow's {game.N} weights on a log scale, the threshold N = {game.N} and the cap "
            f"(1+β)N = {(1 + game.beta) * game.N:g}.{target}")
    return describe("The board: the adversary's examples and Winnow's weights",
                    head + " At round {t} of {T}: {x}, label y = {y}; the learner said ŷ = {yhat}: {what}. "
                    "The weights after the round, {w}; mistakes so far {k}.",
                    {"x": {"caption": "gx"}, "y": {"caption": "gy"}, "yhat": {"caption": "gyhat"},
                     "what": {"caption": "gwhat"}, "w": {"by": "state", "data": ws, "fmt": "text"}},
                    [["the example", "x"], ["label y", "y"], ["the learner's ŷ", "yhat"], ["weights", "w"]],
                    start=head + f" Before the first example: every weight is 1, {ws[0]}.")


def board_options(game: WinnowGame, state: WinnowState, group: str) -> dict[str, Any]:
    """The board's game mode (assets/viewer_game_bars.js, kind "winnow"): the rules (the target's variables, the
    base 1 + β as an exact fraction), the exponents now, the page's checkboxes and label buttons, and the texts
    and floats of this module, so that a move drawn in the browser reads as the run's."""
    b = 1 + Fraction(game.beta)
    states, mistakes = exponent_states(game, state.moves)
    c = constants(game)
    return {"kind": "winnow", "n": game.N, "max": MAX_MOVES, "relevant": list(game.relevant),
            "base": [str(b.numerator), str(b.denominator)], "E": states[-1],
            "lo": min(min(s) for s in states) * c["lb"], "M": len(mistakes), **c, "base_text": _base_text(game),
            "bit": f".st-key-{group}_bit{{i}} input", "buttons": {"1": f".st-key-{group}_lab1 button",
                                                                  "0": f".st-key-{group}_lab0 button"},
            "what": _what(game), "on_none": "no variable on", "var": [var(i) for i in range(game.N)]}


def board_spec(state: WinnowState, *, run_id: str, shown: bool) -> dict:
    """The viewer spec of the game after its moves: the board, and (after a move) the lesson's potential, the
    sandwich that closes and the ledger of the game's run."""
    game, moves = state.game, state.moves
    c = constants(game)
    states, mistakes = exponent_states(game, moves)
    caption = _caption(game, moves, states)
    main = {**_main(game, states, c, shown), "describe": _describe(game, states, shown)}
    spec: dict[str, Any] = {"version": 1, "run_id": run_id, "T": len(moves), "position": len(moves), "url_param": "t",
                            "breaks": [t + 1 for t in mistakes], "mistake_rounds": list(mistakes),
                            "arrays": _arrays(game, moves, states, mistakes, c), "caption": caption,
                            "figures": [main], "layout": {"columns": [["main"]]}}
    if state.trace is not None:
        run = winnow_spec(state.trace, state.X, state.y, run_id=run_id, per_variable=shown)
        if run["breaks"] != spec["breaks"]:
            raise AssertionError("the board's mistakes are not the run's")
        figures = [f for f in run["figures"] if f["id"] != "weights"]       # the board stands for the weights
        spec["figures"] += figures
        spec["arrays"] = {**{k: run["arrays"][k] for k in sorted(arrays_of(figures))}, **spec["arrays"]}
        values = {k: v for k, v in run["caption"]["values"].items() if shown or k != "ron"}
        spec["caption"] = {**caption, "values": {**values, **caption["values"]}}
        spec["ledger"] = run["ledger"]
        spec["layout"] = {"columns": [["main", "potential"], ["bound", "ledger"]], "widths": [1.1, 1]}
        spec["speed"] = 2
    return jsonable(spec)
