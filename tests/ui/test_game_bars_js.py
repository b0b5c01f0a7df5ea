"""Beat the bound on Winnow and on the experts, a move judged and drawn in the browser
(olc_ui/viewer/assets/viewer_game_bars.js):

- the board it appends is, array for array, the board of the run on the moves (adversary_view.board_spec, which
  asserts that its mistakes and states are ``olc_core.run``'s): the weights in every state, the round's example or
  advice, the moved weights, the caption, the axis when a move lowers the lowest bar — from the empty board or from
  the server's board after any number of moves, for Winnow (shown and hidden targets, several β) and for WM, RWM
  and Halving (several budgets and rates);
- the browser admits exactly the moves the core admits;
- the axis's bottom and ticks are game_bars.py's.
"""
from __future__ import annotations

import json

import numpy as np
import pytest

from olc_core.games import experts as E
from olc_core.games import winnow as W
from olc_ui.lessons.experts import adversary_view as EV
from olc_ui.lessons.winnow import adversary_view as WV
from olc_ui.shared.game_bars import bottom, ticks

from tests.conftest import node_eval

APPLY_W = """data.map(g => { let st = g.st; return g.moves.map(([x, label]) => {
  st = m.applyWinnowMove(g.spec, g.o, st, x, label).st;
  return JSON.parse(JSON.stringify(g.spec));
}); })"""
APPLY_E = """data.map(g => { let st = g.st; return g.moves.map(([x, label]) => {
  st = m.applyExpertsMove(g.spec, g.o, st, x, label).st;
  return JSON.parse(JSON.stringify(g.spec));
}); })"""
ADMIT = "data.map(g => g.moves.map(([x, label]) => m.barsAdmissible(g.o, g.st, x, label)))"


def board(spec: dict, rwm: bool = False) -> dict:
    """What a board spec draws: the main figure (its data and layout), its arrays, the caption, the stops."""
    main = next(f for f in spec["figures"] if f["id"] == "main")
    dyn = [a for op in main["dynamic"] for k, a in op.items() if k in ("x", "y", "text", "rounds", "color")]
    cap = spec["caption"]
    return {"T": spec["T"], "breaks": list(spec["breaks"]),
            "mistake_rounds": None if rwm else list(spec["mistake_rounds"]),
            "arrays": {k: spec["arrays"][k] for k in sorted(set(dyn))}, "figure": main["figure"],
            "caption": {k: v["data"] for k, v in cap["values"].items() if k.startswith("g")},
            "template": cap["template"]}


def _json(spec: dict) -> dict:
    return json.loads(json.dumps(spec))


def _winnow_moves(game: W.WinnowGame, rng, T: int) -> list[W.WMove]:
    """Random examples, the computer's worst case now and then (so that weights are promoted and demoted)."""
    out, s = [], game.play([])
    for _ in range(T):
        m = W.computer_move(s) if rng.random() < 0.5 else None
        if m is None:
            x = tuple(int(b) for b in rng.random(game.N) < rng.uniform(0.05, 0.5))
            m = W.WMove(x, game.target_label(x))
        out.append(m)
        s = s.then(m)
    return out


@pytest.mark.parametrize("seed", range(4))
def test_a_winnow_move_drawn_in_the_browser_is_the_runs_board(tmp_path, seed):
    rng = np.random.default_rng(seed)
    games, expected = [], []
    for _ in range(6):
        game = W.WinnowGame.make(int(rng.integers(8, 33)), int(rng.integers(1, 4)),
                                 float(rng.choice([0.25, 0.5, 1.0, 1.5, 3.0])), int(rng.integers(100)))
        T = int(rng.integers(1, 16))
        moves = _winnow_moves(game, rng, T)
        k = int(rng.integers(0, T))
        shown = bool(rng.random() < 0.5)
        st = game.play(moves[:k])
        o = WV.board_options(game, st, "winnow_adversary")
        games.append({"spec": _json(WV.board_spec(st, run_id="x", shown=shown)), "o": o,
                      "st": {"E": o["E"], "lo": o["lo"], "M": o["M"]},
                      "moves": [[list(m.x), m.label] for m in moves[k:]]})
        expected.append([board(_json(WV.board_spec(game.play(moves[: t + 1]), run_id="x", shown=shown)))
                         for t in range(k, T)])
    got = node_eval(tmp_path, "viewer_game_bars.js", APPLY_W, games)
    lowered = 0
    for g, (js, py) in enumerate(zip(got, expected)):
        for t, (a, b) in enumerate(zip(js, py)):
            assert board(a) == b, (seed, g, t, games[g]["moves"])
        lowered += js[-1]["figures"][0]["figure"]["layout"]["yaxis"]["range"][0] != \
            games[g]["spec"]["figures"][0]["figure"]["layout"]["yaxis"]["range"][0]
    assert lowered        # some move lowered the lowest bar: the axis the browser recomputed is Python's


def _experts_moves(game: E.ExpertsGame, rng, T: int) -> list[E.EMove]:
    out, s = [], game.play([])
    for _ in range(T):
        m = E.computer_move(s) if rng.random() < 0.5 else None
        if m is None:
            m = E.EMove(tuple(int(v) for v in rng.choice([-1, 1], size=game.N)), int(rng.choice([-1, 1])))
            if isinstance(s.then(m), str):
                adv = list(m.advice)
                adv[int(np.argmin(s.expert_mistakes))] = m.outcome
                m = E.EMove(tuple(adv), m.outcome)
        out.append(m)
        s = s.then(m)
    return out


@pytest.mark.parametrize("learner", E.LEARNERS)
@pytest.mark.parametrize("seed", range(3))
def test_an_experts_move_drawn_in_the_browser_is_the_runs_board(tmp_path, learner, seed):
    rng = np.random.default_rng([seed, len(learner)])
    games, expected = [], []
    for _ in range(6):
        game = E.ExpertsGame.make(learner, int(rng.integers(2, 13)), float(rng.choice([0.05, 0.3, 0.5, 0.75, 0.95])),
                                  int(rng.integers(0, 4)))
        T = int(rng.integers(1, 20))
        moves = _experts_moves(game, rng, T)
        k = int(rng.integers(0, T))
        st = game.play(moves[:k])
        o = EV.board_options(game, st, "experts_adversary")
        games.append({"spec": _json(EV.board_spec(st, run_id="x")), "o": o,
                      "st": {"C": o["C"], "m": o["m"], "lo": o["lo"], "M": o["M"]},
                      "moves": [[list(m.advice), m.outcome] for m in moves[k:]]})
        expected.append([board(_json(EV.board_spec(game.play(moves[: t + 1]), run_id="x")),
                               rwm=learner == "randomized_weighted_majority") for t in range(k, T)])
    got = node_eval(tmp_path, "viewer_game_bars.js", APPLY_E, games)
    same_boards(got, expected, games, seed, rwm=learner == "randomized_weighted_majority")


def same_boards(got: list, expected: list, games: list, seed, rwm: bool = False) -> None:
    """Every board the browser drew (per game, per move) is the board Python drew after the same moves."""
    for g, (js, py) in enumerate(zip(got, expected)):
        for t, (a, b) in enumerate(zip(js, py)):
            assert board(a, rwm=rwm) == b, (seed, g, t, games[g]["moves"])


def test_the_browser_admits_what_the_core_admits(tmp_path):
    rng = np.random.default_rng(7)
    games, expected = [], []
    for _ in range(6):
        game = W.WinnowGame.make(int(rng.integers(8, 33)), int(rng.integers(1, 5)), 1.0, int(rng.integers(100)))
        raw = [(list(int(b) for b in rng.random(game.N) < 0.2), int(rng.integers(2))) for _ in range(40)]
        games.append({"o": WV.board_options(game, game.play([]), "g"), "st": {}, "moves": raw})
        expected.append([game.refusal(W.WMove(tuple(x), lab)) is None for x, lab in raw])
    for _ in range(6):
        game = E.ExpertsGame.make(str(rng.choice(E.LEARNERS)), int(rng.integers(2, 8)), 0.5, int(rng.integers(0, 3)))
        s = E.random_game(game, int(rng.integers(0, 12)), int(rng.integers(100)))
        raw = [(list(int(v) for v in rng.choice([-1, 1], size=game.N)), int(rng.choice([-1, 1]))) for _ in range(40)]
        o = EV.board_options(game, s, "g")
        games.append({"o": o, "st": {"m": o["m"]}, "moves": raw})
        expected.append([not isinstance(s.then(E.EMove(tuple(a), y)), str) for a, y in raw])
    got = node_eval(tmp_path, "viewer_game_bars.js", ADMIT, games)
    assert got == expected
    assert any(not v for g in expected for v in g) and any(v for g in expected for v in g)


def test_the_axis_is_game_bars_py(tmp_path):
    rng = np.random.default_rng(3)
    cases = []
    for _ in range(300):
        lb = float(rng.choice([np.log10(1.25), np.log10(2.0), np.log10(4.0), np.log10(0.5), np.log10(0.95),
                               np.log10(0.05)]))
        lo = -abs(float(rng.normal(0, 4)))
        hi = float(rng.uniform(0, 3)) if lb > 0 else 0.0
        cases.append([lo, hi, lb, "b", float(rng.uniform(-2, 0)), float(rng.uniform(0.01, 0.5))])
    got = node_eval(tmp_path, "viewer_game_bars.js",
                    "data.map(([lo, hi, lb, bt, fl, pad]) => [m.barsTicks(lo, hi, lb, bt), m.barsBottom(lo, fl, pad)])",
                    cases)
    want = [[list(ticks(lo, hi, lb, bt)), bottom(lo, fl, pad)] for lo, hi, lb, bt, fl, pad in cases]
    assert got == json.loads(json.dumps(want))
