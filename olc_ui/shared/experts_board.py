"""The board of "Beat the bound" on Weighted Majority, Randomised WM and Halving (pure: a game's moves in, a JSON-ready
spec out), shared by the experts' game (olc_ui/lessons/experts/adversary_view.py, which adds the experts lesson's
charts of the run) and the Halving page's (olc_ui/lessons/halving/adversary_view.py: the hypotheses of a class as the
experts, :data:`EXPERTS` and ``every_round`` on its game).

The main figure is the game's own, built so that a move appends to it: the browser's game mode
(assets/viewer_game_bars.js) draws a move at the click of "Outcome +1" / "Outcome −1" by pushing one round onto
these arrays — each expert's weight after it, its advice (right or wrong) and its mistakes so far, where the
penalised weights were, the caption — from exact integers (an expert's weight is ``β^{c_i}``, c_i its penalties:
WM on its mistakes, RWM on every round it was wrong; Halving's 1 or 0), with the same float operations as here
(tests/ui/test_game_bars_js.py). The learner's answer is exact: WM's weighted vote (a tie goes to +1) in
fractions, Halving's count; RWM draws an expert at random, so its board gives the chance of a mistake Fₜ (exact)
and leaves the draw to the run (the lesson's chart of mistakes).

Main figure traces, in this order: 0 the weights as bars (WM, RWM: log scale, hanging from the weight 1; Halving:
1 in the version space, 0 out), 1 the budget's floor β^{m*} (WM, RWM; Halving: none drawn), 2 the round's right
advice, 3 its wrong advice (marked +1 / −1), 4 each expert's mistakes so far, 5 where a penalised weight was.
"""
from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

from olc_core.games._numbers import decimal_text, pair
from olc_core.games.experts import MAX_MOVES, EMove, ExpertsGame, ExpertsState

from olc_ui.shared.describe_view import describe
from olc_ui.shared.game_bars import bottom, ticks
from olc_ui.shared.spec_tools import axis, layout as spec_layout

__all__ = ["board_options", "board_main", "moves_options", "replay", "constants", "title", "TITLE", "KINDS",
           "EXPERTS"]

TITLE = "The adversary's rounds against the learner: each expert's weight after the round"


def title(game) -> str:
    """The board's title: Halving's bars are 0 or 1, in or out of the version space (the experts, or on the Halving
    page the hypotheses of the game's class), not weights that shrink."""
    if KINDS[game.learner] != "halving":
        return TITLE
    return (f"The adversary's rounds against Halving: which {_words(game)[1]} are still in the version space "
            "after the round")
KINDS = {"weighted_majority": "wm", "randomized_weighted_majority": "rwm", "halving": "halving"}
BAR = "#7f9fbf"
#: the rows over the bars (the round's advice, the mistakes so far): their own axis, above the weights'
ROWS_AXIS = {"domain": [0.78, 1], "range": [0, 1], "visible": False, "fixedrange": True}
RIGHT, WRONG = "#1b5e20", "#c0392b"
#: what the bars stand for, one and many, and what each says on a round: the experts and their advice (the Halving
#: page's game, olc_ui/lessons/halving/adversary_view.py, draws the hypotheses of a class and their labels)
EXPERTS = ("expert", "experts", "advice")
#: beyond this many bars, the rows over them are marks without their signs (the signs would overlap)
TEXT_ROWS_MAX = 16


def _words(game) -> tuple[str, str, str]:
    return getattr(game, "words", EXPERTS)


def _every(game) -> bool:
    """Whether the board keeps a state for every round (the Halving page's game: its lesson's charts step by round),
    not only for the rounds that change the weights."""
    return bool(getattr(game, "every_round", False))


def _beta(game: ExpertsGame) -> Fraction:
    """The penalty factor as the exact fraction of its float (WM β, RWM 1 − η)."""
    return Fraction(game.beta)


def _base_text(game: ExpertsGame) -> str:
    return f"{game.beta:g}"


def constants(game: ExpertsGame) -> dict[str, float]:
    """The board's floats, computed once (the browser receives them): the rows of the round's advice and of the
    mistakes so far sit on a second y axis over the weights' (0 … 1), the same height whatever the weights' range."""
    if game.learner == "halving":
        return {"lb": 1.0, "row": 0.3, "row2": 0.82, "top": 1.1, "pad": 0.05, "floor": 0.0, "budget_y": 0.0,
                "ticks_to": 1.0}
    lb = math.log10(game.beta)
    D = -(game.budget + 1) * lb
    return {"lb": lb, "row": 0.3, "row2": 0.82, "top": 0.1 * D, "pad": 0.12 * D, "floor": -D,
            "budget_y": game.budget * lb, "ticks_to": 0.0}


def replay(game: ExpertsGame, moves: tuple[EMove, ...]) -> dict[str, Any]:
    """Exactly, round by round: each state's penalty counts c (one state per change of the weights: WM and Halving
    after each mistake, RWM after each round with a wrong expert), the learner's answer (WM, Halving) or Fₜ (RWM),
    each expert's mistakes after the round, and the rounds that changed the weights."""
    N, b, kind = game.N, _beta(game), KINDS[game.learner]
    c, m = [0] * N, [0] * N
    out: dict[str, Any] = {"states": [list(c)], "changes": [], "pred": [], "wp": [], "wm": [], "F": [], "m": [],
                           "mistakes": [], "alive": []}
    for t, mv in enumerate(moves):
        wrong = [int(a != mv.outcome) for a in mv.advice]
        if kind == "halving":
            alive = [int(ci == 0) for ci in c]
            plus = sum(a for a, v in zip(alive, mv.advice) if v > 0)
            minus = sum(alive) - plus
            pred = 1 if plus >= minus else -1
            out["wp"].append(Fraction(plus)), out["wm"].append(Fraction(minus)), out["alive"].append(sum(alive))
        else:
            w = [b ** ci for ci in c]
            plus = sum((w[i] for i in range(N) if mv.advice[i] > 0), Fraction(0))
            minus = sum(w, Fraction(0)) - plus
            pred = 1 if plus >= minus else -1
            out["wp"].append(plus), out["wm"].append(minus)
            out["F"].append(sum((w[i] for i in range(N) if wrong[i]), Fraction(0)) / (plus + minus))
        out["pred"].append(pred)
        if kind != "rwm" and pred != mv.outcome:
            out["mistakes"].append(t)
        update = any(wrong) if kind == "rwm" else pred != mv.outcome
        if update or _every(game):          # (every round: a round without an update keeps the weights)
            if update:
                c = [ci + wi for ci, wi in zip(c, wrong)]
            out["states"].append(list(c))
            out["changes"].append(t)
        m = [mi + wi for mi, wi in zip(m, wrong)]
        out["m"].append(list(m))
    return out


def _height(kind: str, ci: int, lb: float) -> float:
    return (1.0 if ci == 0 else 0.0) if kind == "halving" else ci * lb


def _arrays(game: ExpertsGame, moves, R: dict, c: dict) -> dict[str, Any]:
    kind, lb, N = KINDS[game.learner], c["lb"], game.N
    xs = list(range(1, N + 1))
    A: dict[str, Any] = {"g_bx": [xs for _ in R["states"]], "g_by": [[_height(kind, ci, lb) for ci in s]
                                                                       for s in R["states"]]}
    for k in ("g_rr", "g_rx", "g_ry", "g_rt", "g_wr", "g_wx", "g_wy", "g_wt", "g_mr", "g_mx", "g_my", "g_mt"):
        A[k] = []
    for t, mv in enumerate(moves):
        for i, a in enumerate(mv.advice):
            side = "g_w" if a != mv.outcome else "g_r"
            A[side + "r"].append(t), A[side + "x"].append(i + 1), A[side + "y"].append(c["row"])
            A[side + "t"].append("+1" if a > 0 else "−1")
            A["g_mr"].append(t), A["g_mx"].append(i + 1), A["g_my"].append(c["row2"])
            A["g_mt"].append(str(R["m"][t][i]))
    A["g_px"], A["g_py"] = [], []
    for j, t in enumerate(R["changes"]):
        before, after = R["states"][j], R["states"][j + 1]
        moved = [i for i in range(N) if _height(kind, after[i], lb) != _height(kind, before[i], lb)]
        A["g_px"].append([i + 1 for i in moved])
        A["g_py"].append([_height(kind, before[i], lb) for i in moved])
    return A


def _axis_y(game: ExpertsGame, lo: float, c: dict) -> dict:
    if game.learner == "halving":
        return axis("weight (1: in the version space)", range=[-c["pad"], c["top"]], tickvals=[0, 1],
                    ticktext=["0", "1"], zeroline=False)
    y0 = bottom(lo, c["floor"], c["pad"])
    tv, tt = ticks(y0, c["ticks_to"], c["lb"], _base_text(game))
    return axis("weight wᵢ (log scale)", range=[y0, c["top"]], tickvals=tv, ticktext=tt, zeroline=False)


def _main(game: ExpertsGame, R: dict, c: dict) -> dict:
    kind, N = KINDS[game.learner], game.N
    one, _, advice = _words(game)
    xs = list(range(1, N + 1))
    text = N <= TEXT_ROWS_MAX
    lo = min(min(_height(kind, ci, c["lb"]) for ci in s) for s in R["states"])
    row = lambda name, color, symbol: {  # noqa: E731
        "type": "scatter", "mode": "markers+text" if text else "markers", "name": name, "x": [None], "y": [None], "text": [""], "yaxis": "y2",
        "textposition": "top center", "textfont": {"size": 12, "color": color},
        "marker": {"symbol": symbol, "size": 10, "color": color, "line": {"color": color, "width": 2}},
        "hoverinfo": "skip"}
    fac = "β" if kind == "wm" else "1 − η"
    floor = ({"type": "scatter", "mode": "lines", "name": f"{fac} to the m* = {game.budget}: an expert within the "
              "budget weighs at least this", "x": [0.4, N + 0.6], "y": [c["budget_y"], c["budget_y"]],
              "line": {"color": "#9467bd", "width": 2, "dash": "dash"}, "hoverinfo": "skip"}
             if kind != "halving" else
             {"type": "scatter", "mode": "lines", "name": "floor", "x": [None], "y": [None], "showlegend": False,
              "hoverinfo": "skip"})
    data = [
        {"type": "bar", "name": "wᵢ", "x": xs, "y": [0] * N, "base": 0, "showlegend": False, "hoverinfo": "skip",
         "marker": {"color": BAR, "line": {"color": "#1b2a3a", "width": 1}}},
        floor,
        row(f"right {advice} (●{', its sign above' if text else ''})", RIGHT, "circle"),
        row(f"wrong {advice} (✕{', its sign above' if text else ''})", WRONG, "x-thin-open"),
        {"type": "scatter", "mode": "text", "name": "mistakes so far mᵢ (the top row)", "x": [None], "y": [None],
         "visible": text,
         "text": [""], "textfont": {"size": 12, "color": "#000000"}, "hoverinfo": "skip", "yaxis": "y2"},
        {"type": "scatter", "mode": "markers", "x": [None], "y": [None],
         "name": "where a penalised weight was" if kind != "halving" else f"where {'an' if one[0] in 'aeiou' else 'a'} {one} that left stood",
         "marker": {"symbol": "line-ew", "size": 18, "color": "#555555", "line": {"width": 2.5, "color": "#555555"}},
         "hoverinfo": "skip"},
    ]
    shown = xs[::-(-N // TEXT_ROWS_MAX)]
    layout = spec_layout(xaxis=axis(f"{one} i", range=[0.4, N + 0.6], tickvals=shown,
                                    ticktext=[str(i) for i in shown]),
                         yaxis={**_axis_y(game, lo, c), "domain": [0, 0.74]}, yaxis2=ROWS_AXIS, bargap=0.2,
                         showlegend=True, dragmode=False, hovermode=False)
    dynamic = [{"trace": 0, "op": "state", "x": "g_bx", "y": "g_by"},
               {"trace": 2, "op": "row_current", "rounds": "g_rr", "x": "g_rx", "y": "g_ry", "text": "g_rt"},
               {"trace": 3, "op": "row_current", "rounds": "g_wr", "x": "g_wx", "y": "g_wy", "text": "g_wt"},
               {"trace": 4, "op": "row_current", "rounds": "g_mr", "x": "g_mx", "y": "g_my", "text": "g_mt"},
               {"trace": 5, "op": "on_mistake", "x": "g_px", "y": "g_py"}]
    return {"id": "main", "title": title(game), "height": 360, "figure": {"data": data, "layout": layout},
            "config": {"displayModeBar": False}, "dynamic": dynamic}


def _what(game: ExpertsGame) -> list[str]:
    """What a round did: the caption's words (the browser's too)."""
    if game.learner == "halving":
        return ["correct: no change", f"MISTAKE → the wrong {_words(game)[1]} leave the version space"]
    return ["correct: no update", f"MISTAKE → the wrong experts' weights × β = {_base_text(game)}"]


def _template(game: ExpertsGame) -> tuple[str, str]:
    N, kind, budget = game.N, KINDS[game.learner], game.budget
    head = "Round {t} of {T}: "
    if kind == "halving":
        _, many, _ = _words(game)
        return (head + "of the {ghs} " + many + " left, {gnp} say +1 and {gnm} say −1, outcome y = {gy}; the majority "
                "(a tie goes to +1) says ŷ = {gyhat}: {gwhat}. Mistakes so far M = {gM}.",
                f"Before your first round all {N} {many} are in the version space; the learner follows their "
                "majority (a tie goes to +1).")
    if kind == "wm":
        return (head + "{gnp} of " + str(N) + " experts say +1, outcome y = {gy}; the weighted vote W₊ = {gwp} "
                "{gcmp} W₋ = {gwm} → ŷ = {gyhat}: {gwhat}. Mistakes so far M = {gM}; the best expert has {gbest} "
                "(budget m* = " + str(budget) + ").",
                f"Before your first round every weight is 1 (Φ = N = {N}); the learner follows the weighted vote "
                "(a tie goes to +1).")
    return (head + "{gnp} of " + str(N) + " experts say +1, outcome y = {gy}; the wrong experts held Fₜ = {gF} of "
            "the weight, the learner's chance of a mistake (its draw: in the chart of mistakes); every wrong expert's "
            "weight × (1 − η) = " + _base_text(game) + ". The best expert has {gbest} (budget m* = " + str(budget)
            + ").",
            f"Before your first round every weight is 1 (Φ = N = {N}); the learner draws an expert in proportion "
            "to its weight and follows it.")


def _caption(game: ExpertsGame, moves, R: dict) -> dict:
    kind, what = KINDS[game.learner], _what(game)
    V: dict[str, list] = {k: [] for k in ("gnp", "gnm", "ghs", "gy", "gwp", "gwm", "gcmp", "gyhat", "gwhat", "gM",
                                          "gbest", "gF")}
    M = 0
    for t, mv in enumerate(moves):
        pred = R["pred"][t]
        V["gnp"].append(sum(1 for a in mv.advice if a > 0) if kind != "halving" else int(R["wp"][t]))
        V["gnm"].append(int(R["wm"][t]) if kind == "halving" else 0)
        V["ghs"].append(R["alive"][t] if kind == "halving" else 0)
        V["gy"].append("+1" if mv.outcome > 0 else "−1")
        rel = ">=" if pred > 0 else "<"
        wp, wm = pair(R["wp"][t], R["wm"][t], rel, 4)
        V["gwp"].append(wp), V["gwm"].append(wm), V["gcmp"].append("≥" if pred > 0 else "<")
        V["gyhat"].append("+1" if pred > 0 else "−1")
        V["gwhat"].append(what[int(pred != mv.outcome)])
        M += int(pred != mv.outcome)
        V["gM"].append(M)
        V["gbest"].append(f"m = {min(R['m'][t])}")
        V["gF"].append(decimal_text(R["F"][t], 3) if kind == "rwm" else "")
    template, start = _template(game)
    values = {k: {"by": "round", "data": v, "fmt": "d" if k in ("gnp", "gnm", "ghs", "gM") else "text"}
              for k, v in V.items() if "{" + k + "}" in template}
    return {"template": template, "start": start, "values": values}


def _describe(game: ExpertsGame, R: dict, caption: dict) -> dict:
    kind, b = KINDS[game.learner], _beta(game)
    if kind == "halving":
        one, many, _ = _words(game)
        ws = ["in the version space: " + (", ".join(f"{one} {i + 1}" for i, ci in enumerate(s) if ci == 0) or "none")
              for s in R["states"]]
        head = f"The board: which of the {game.N} {many} are still in the version space (weight 1) and which left (0)."
    else:
        ws = ["w = (" + ", ".join(decimal_text(b ** ci, 4) for ci in s) + ")" for s in R["states"]]
        head = (f"The board: the {game.N} experts' weights on a log scale, hanging from 1, and the floor "
                f"{_base_text(game)} to the m* = {game.budget} that an expert within the budget never falls below (it sits on it at m = m*).")
    v = caption["values"]
    vals = {"w": {"by": "state", "data": ws, "fmt": "text"}, "y": {"caption": "gy"}}
    if "gyhat" in v:
        vals["yhat"] = {"caption": "gyhat"}
    said = "the learner said ŷ = {yhat}" if "yhat" in vals else "the learner drew an expert"
    # what y is: the outcome the experts advise on, or on the Halving page the instance's label
    y = "outcome y" if _words(game) == EXPERTS else "label y"
    name = ("the experts' weights" if kind != "halving" else f"which {_words(game)[1]} are still in the version space")
    return describe(f"The board: the adversary's rounds and {name}",
                    head + " At round {t} of {T}: " + y + " = {y}; " + said + ". After the round, {w}.", vals,
                    [[y, "y"]] + ([["the learner's ŷ", "yhat"]] if "yhat" in vals else [])
                    + [["weights", "w"]], start=head + f" Before the first round: {ws[0]}.")


def board_options(game: ExpertsGame, state: ExpertsState, group: str) -> dict[str, Any]:
    """The board's game mode (assets/viewer_game_bars.js, kinds "wm", "rwm", "halving"): the rules (the budget),
    the penalty factor as an exact fraction, each expert's penalties and mistakes now, the page's checkboxes and
    outcome buttons, and the texts and floats of this module."""
    return moves_options(game, state.moves, group)


def moves_options(game, moves, group: str) -> dict[str, Any]:
    """:func:`board_options` after these moves (the Halving page's game: its hypotheses as the experts)."""
    b = _beta(game)
    R = replay(game, moves)
    c = constants(game)
    kind = KINDS[game.learner]
    lo = min(min(_height(kind, ci, c["lb"]) for ci in s) for s in R["states"])
    return {"kind": kind, "n": game.N, "max": MAX_MOVES, "budget": game.budget,
            "beta": [str(b.numerator), str(b.denominator)], "C": R["states"][-1],
            "m": R["m"][-1] if R["m"] else [0] * game.N, "M": len(R["mistakes"]), "lo": lo, **c,
            "base_text": _base_text(game), "bit": f".st-key-{group}_adv{{i}} input",
            "buttons": {"1": f".st-key-{group}_out1 button", "-1": f".st-key-{group}_out0 button"},
            "what": _what(game), "every_round": _every(game)}


def board_main(game, moves) -> dict:
    """The viewer spec of the board alone after the moves (before any run's charts join it)."""
    c = constants(game)
    R = replay(game, moves)
    caption = _caption(game, moves, R)
    main = {**_main(game, R, c), "describe": _describe(game, R, caption)}
    return {"version": 1, "run_id": "", "T": len(moves), "position": len(moves), "url_param": "t",
            "breaks": [t + 1 for t in R["changes"]], "mistake_rounds": list(R["mistakes"]),
            "arrays": _arrays(game, moves, R, c), "caption": caption, "figures": [main],
            "layout": {"columns": [["main"]]}}
