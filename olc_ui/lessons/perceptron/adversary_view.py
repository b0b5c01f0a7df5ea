"""The board of "Beat the bound" on the Perceptron (pure: a game state in, a JSON-ready spec out).

The main figure is built so that a move appends to it: the browser's game mode (assets/viewer_game_plane.js)
draws a move at the click by pushing one round onto these arrays — the point, the learner's line and the
direction of w after it, the caption's values — with the same float operations as here, so the board it draws
is the one this module makes from the run (tests/ui/test_game_plane_js.py checks that under node). The sandwich
and the ledger are proofs A and B of the run (olc_ui/lessons/perceptron/view.py's), which the browser does not
recompute: they wait for the run.

Main figure traces, in this order (the game mode relies on it): 0 the disc ‖x‖ ≤ R, 1 the band |⟨w*, x⟩| < γ,
2 w* (both empty while w* is hidden), 3 and 4 the points seen with label +1 and −1, 5 rings on the mistakes,
6 the current point, 7 the learner's line ⟨w, x⟩ = 0, 8 the direction of w.
"""
from __future__ import annotations

import math
from typing import Any

import numpy as np

from olc_core.games.perceptron import GRID, GameState, Move, PerceptronGame

from olc_ui.lessons.perceptron.describe import describe_separable_sandwiches
from olc_ui.lessons.perceptron.view import _separable_ledger, _separable_sandwiches
from olc_ui.shared.describe_view import describe
from olc_ui.shared.spec_tools import COLORS, ledger
from olc_ui.viewer.spec import jsonable

__all__ = ["board_spec", "start_board", "coord_text", "w_text", "view_half", "TITLE", "START", "WHAT", "YHAT", "LABEL_TEXT",
           "HIDDEN_NAME"]

TITLE = "The adversary's points against the Perceptron"
START = ("Before your first move: w = 0, so ⟨w, x⟩ = 0 on every point and the first point is a mistake "
         "whatever its label. Click inside the disc, off the band.")
#: the caption's words, shared with the browser (game_options)
WHAT = ["correct, no update", "MISTAKE → w ← w + y·x"]
YHAT = {1: "+1", -1: "−1", 0: "0 (on the line: a mistake)"}
LABEL_TEXT = {1: "+1", -1: "−1"}
HIDDEN_NAME = "w* (hidden until the end)"
TEMPLATE = "Round {t} of {T}: x = {x}, y = {y}; ⟨w, x⟩ = {score}, ŷ = {yhat} → {what}. Mistakes M = {k}."


def view_half(game: PerceptronGame) -> float:
    """Half the side of the square the board shows (a margin of 10% around the disc)."""
    return 1.1 * float(game.radius)


def coord_text(i: int) -> str:
    """i/64 exactly (at most six decimals), with a minus sign: "0.25", "−0.015625", "1"."""
    s = f"{i / GRID:.6f}".rstrip("0").rstrip(".")
    return "0" if s in ("-0", "") else s.replace("-", "−")


def _line(W: tuple[int, int], L: float) -> tuple[list, list]:
    """The learner's line ⟨w, x⟩ = 0 across the square [−L, L]² (none while w = 0): the browser's twin computes
    the same floats in the same order."""
    w0, w1 = W[0] / GRID, W[1] / GRID
    m = max(abs(w0), abs(w1))
    if m == 0:
        return [None], [None]
    s = L / m
    return [s * w1, -(s * w1)], [-(s * w0), s * w0]


def _arrow(W: tuple[int, int], R: float) -> tuple[list, list]:
    """The direction of w, drawn R/2 long from 0 (none while w = 0)."""
    w0, w1 = W[0] / GRID, W[1] / GRID
    n = math.sqrt(w0 * w0 + w1 * w1)
    if n == 0:
        return [None], [None]
    s = 0.5 * R / n
    return [0, s * w0], [0, s * w1]


def _states(moves: tuple[Move, ...]) -> tuple[list[tuple[int, int]], list[int]]:
    """The learner's w in grid units in each state (0 first), and the 0-based mistake rounds (exact replay: the
    run's floats are exact on the grid, tests/core/test_perceptron_game.py)."""
    W, states, mistakes = (0, 0), [(0, 0)], []
    for t, m in enumerate(moves):
        if m.label * (W[0] * m.i + W[1] * m.j) <= 0:
            W = (W[0] + m.label * m.i, W[1] + m.label * m.j)
            states.append(W)
            mistakes.append(t)
    return states, mistakes


def _arrays(game: PerceptronGame, moves: tuple[Move, ...]) -> tuple[dict[str, Any], list[int], list[tuple[int, int]]]:
    L, R = view_half(game), float(game.radius)
    states, mistakes = _states(moves)
    A: dict[str, Any] = {k: [] for k in ("rp", "xp", "yp", "rn", "xn", "yn", "rm", "xm", "ym", "ra", "xa", "ya", "ca")}
    for t, m in enumerate(moves):
        x, y = m.i / GRID, m.j / GRID
        side = "p" if m.label > 0 else "n"
        A["r" + side].append(t), A["x" + side].append(x), A["y" + side].append(y)
        A["ra"].append(t), A["xa"].append(x), A["ya"].append(y)
        A["ca"].append(COLORS["pos"] if m.label > 0 else COLORS["neg"])
    for t in mistakes:
        A["rm"].append(t), A["xm"].append(moves[t].i / GRID), A["ym"].append(moves[t].j / GRID)
    lines = [_line(W, L) for W in states]
    arrows = [_arrow(W, R) for W in states]
    A["hx"], A["hy"] = [a for a, _ in lines], [b for _, b in lines]
    A["wx"], A["wy"] = [a for a, _ in arrows], [b for _, b in arrows]
    return A, mistakes, states


def _setting_traces(game: PerceptronGame, shown: bool) -> list[dict]:
    """The disc, and (when shown) the band and w*."""
    R, L = float(game.radius), view_half(game)
    a = np.linspace(0, 2 * np.pi, 181)
    disc = {"type": "scatter", "mode": "lines", "name": f"the disc ‖x‖ ≤ R = {R:g}", "x": (R * np.cos(a)).round(5),
            "y": (R * np.sin(a)).round(5), "fill": "toself", "fillcolor": "#ffffff",
            "line": {"color": "#555555", "width": 2}, "hoverinfo": "skip"}
    if not shown:
        none = {"x": [None], "y": [None], "hoverinfo": "skip", "showlegend": False}
        return [disc, {"type": "scatter", "mode": "lines", "name": "band", **none},
                {"type": "scatter", "mode": "lines", "name": HIDDEN_NAME, **none, "showlegend": True,
                 "line": {"color": COLORS["wstar"], "dash": "dot"}}]
    w, g = game.wstar, float(game.gamma)
    perp = np.array([-w[1], w[0]]) * 2 * L
    corners = [g * w + perp, g * w - perp, -g * w - perp, -g * w + perp, g * w + perp]
    band = {"type": "scatter", "mode": "lines", "name": f"the band |⟨w*, x⟩| < γ = {g:g} (refused)",
            "x": [round(float(c[0]), 5) for c in corners], "y": [round(float(c[1]), 5) for c in corners],
            "fill": "toself", "fillcolor": "rgba(44,160,44,0.16)", "line": {"color": COLORS["wstar"], "width": 1},
            "hoverinfo": "skip"}
    star = {"type": "scatter", "mode": "lines+markers", "name": "w* (unit; drawn R/2 long)",
            "x": [0, round(0.5 * R * w[0], 5)], "y": [0, round(0.5 * R * w[1], 5)],
            "line": {"color": COLORS["wstar"], "width": 3}, "marker": {"size": [0, 11], "symbol": "diamond"},
            "hoverinfo": "skip"}
    return [disc, band, star]


def _main(game: PerceptronGame, shown: bool, title: str) -> dict:
    L = view_half(game)
    pts = lambda name, color, symbol, size, **kw: {  # noqa: E731
        "type": "scatter", "mode": "markers", "name": name, "x": [None], "y": [None],
        "marker": {"color": color, "symbol": symbol, "size": size, **kw}, "hoverinfo": "skip"}
    data = _setting_traces(game, shown) + [
        pts("y = +1", COLORS["pos"], "circle", 10),
        pts("y = −1", COLORS["neg"], "x", 10),
        pts("a mistake", COLORS["mistake"], "circle-open", 17, line={"width": 2}),
        pts("this round's point", COLORS["pos"], "circle", 15, line={"color": "#000000", "width": 2}),
        {"type": "scatter", "mode": "lines", "name": "the learner's line ⟨w, x⟩ = 0", "x": [None], "y": [None],
         "line": {"color": COLORS["w"], "width": 3}, "hoverinfo": "skip"},
        {"type": "scatter", "mode": "lines+markers", "name": "w (direction)", "x": [None], "y": [None],
         "line": {"color": COLORS["wnext"], "width": 3}, "marker": {"size": [0, 10], "symbol": "triangle-up"},
         "hoverinfo": "skip"},
    ]
    axis = {"range": [-L, L], "zeroline": True, "fixedrange": True, "gridcolor": "#eeeeee", "constrain": "domain"}
    layout = {"xaxis": {**axis}, "yaxis": {**axis, "scaleanchor": "x"},
              "margin": {"l": 40, "r": 10, "t": 10, "b": 30}, "plot_bgcolor": "#d9d9d9", "paper_bgcolor": "#ffffff",
              "legend": {"orientation": "h", "y": -0.08, "yanchor": "top", "x": 0, "font": {"size": 12}},
              "dragmode": False,
              "hovermode": False, "font": {"size": 14}}
    dynamic = [
        {"trace": 3, "op": "rows_before", "rounds": "rp", "x": "xp", "y": "yp"},
        {"trace": 4, "op": "rows_before", "rounds": "rn", "x": "xn", "y": "yn"},
        {"trace": 5, "op": "rows_before", "rounds": "rm", "x": "xm", "y": "ym"},
        {"trace": 6, "op": "row_current", "rounds": "ra", "x": "xa", "y": "ya", "color": "ca"},
        {"trace": 7, "op": "state", "x": "hx", "y": "hy"},
        {"trace": 8, "op": "state", "x": "wx", "y": "wy"},
    ]
    return {"id": "main", "title": title, "height": 470, "figure": {"data": data, "layout": layout},
            "config": {"displayModeBar": False}, "dynamic": dynamic}


def _caption(game: PerceptronGame, moves: tuple[Move, ...], states: list[tuple[int, int]]) -> dict:
    xs, ys, score, yhat, what = [], [], [], [], []
    k = 0
    for m in moves:
        W = states[k]
        s = W[0] * m.i + W[1] * m.j
        xs.append(f"({coord_text(m.i)}, {coord_text(m.j)})")
        ys.append(LABEL_TEXT[m.label])
        score.append(s / (GRID * GRID) + 0.0)
        yhat.append(YHAT[(s > 0) - (s < 0)])
        mistake = m.label * s <= 0
        what.append(WHAT[int(mistake)])
        k += int(mistake)
    text = lambda data: {"by": "round", "data": data, "fmt": "text"}  # noqa: E731
    return {"template": TEMPLATE, "start": START,
            "values": {"x": text(xs), "y": text(ys), "score": {"by": "round", "data": score, "fmt": ".4g"},
                       "yhat": text(yhat), "what": text(what)}}


def w_text(W: tuple[int, int]) -> str:
    return f"w = ({coord_text(W[0])}, {coord_text(W[1])})"


def _describe(caption: dict, states: list[tuple[int, int]], shown: bool) -> dict:
    """The board's text alternative: the round's point, label and answer (the caption's values) and w."""
    v = caption["values"]
    where = "the disc, the band and w*" if shown else "the disc (w* hidden)"
    return describe(f"The board: {where}, the adversary's points and the learner's line",
                    "The board at round {t} of {T}: the point x = {x}, label y = {y}; the learner said ŷ = {yhat}; "
                    "now {w}; mistakes so far {k}.",
                    {"x": v["x"], "y": v["y"], "yhat": v["yhat"],
                     "w": {"by": "state", "data": [w_text(W) for W in states], "fmt": "text"}},
                    [["the point x", "x"], ["label y", "y"], ["the learner's ŷ", "yhat"], ["weights", "w"]],
                    start="The board before the first move: " + where + "; w = 0.")


def start_board(game: PerceptronGame, *, run_id: str, shown: bool, title: str = TITLE) -> dict:
    """The board before the first move (no run yet): the disc, the band and w* when shown."""
    return board_spec(game.play([]), run_id=run_id, shown=shown, title=title)


def board_spec(state: GameState, *, run_id: str, shown: bool, title: str = TITLE) -> dict:
    """The viewer spec of the game after its moves: the board, and (after a move) proofs A and B of the run with
    their ledger."""
    game, moves = state.game, state.moves
    arrays, mistakes, states = _arrays(game, moves)
    caption = _caption(game, moves, states)
    figures = [{**_main(game, shown, title), "describe": _describe(caption, states, shown)}]
    spec: dict[str, Any] = {"version": 1, "run_id": run_id, "T": len(moves), "position": len(moves), "url_param": "t",
                            "breaks": [t + 1 for t in mistakes], "mistake_rounds": list(mistakes), "arrays": arrays,
                            "caption": caption, "layout": {"columns": [["main"]]}}
    if state.trace is not None:
        proof = state.trace.proof
        figures += _separable_sandwiches(proof, arrays)
        spec["ledger"] = {"title": "Proof ledger at this round", "lines": ledger(_separable_ledger(proof, len(states)))}
        spec["layout"] = {"columns": [["main"], ["sandwich_A", "sandwich_B", "ledger"]], "widths": [1.15, 1]}
        spec["speed"] = 2
    spec["figures"] = figures
    spec = jsonable(spec)
    # every chart described from the run (no description read off the plot): the board above, proofs A and B here
    return describe_separable_sandwiches(spec, state.trace.proof) if state.trace is not None else spec
