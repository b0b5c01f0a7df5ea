"""Beat the bound on the Perceptron, a move judged and drawn in the browser (olc_ui/viewer/assets/viewer_game_plane.js):

- the refusals are the core's (olc_core/games/perceptron.py ``refusal``): the same rule, words and printed numbers, on
  random points of every kind (outside the disc, in the band, the wrong side, exactly on the band's edge);
- the board it appends is, array for array, the board of the run on the moves (adversary_view.board_spec on
  ``olc_core.run``): the points, the rings on the mistakes, the learner's line and direction in every state, the
  caption and the board's description — from the empty board or from the server's board after any number of moves.
"""
from __future__ import annotations

import json

import numpy as np
import pytest

from olc_core.games.perceptron import DIRECTIONS, GRID, Move, PerceptronGame
from olc_core.games.perceptron_adversary import random_move
from olc_ui.lessons.perceptron import adversary as A
from olc_ui.lessons.perceptron.adversary_view import board_spec

from tests.conftest import node_eval

APPLY = """data.map(g => { let W = g.W; return g.moves.map(([i, j, label]) => {
  W = m.applyPlaneMove(g.spec, g.o, W, i, j, label).W;
  return JSON.parse(JSON.stringify(g.spec));
}); })"""
REFUSE = "data.map(g => g.moves.map(([i, j, label]) => m.planeRefusal(g.o, i, j, label)))"


def server_spec(game: PerceptronGame, moves, shown: bool = True) -> dict:
    return json.loads(json.dumps(board_spec(game.play(moves), run_id="x", shown=shown)))


def board(spec: dict) -> dict:
    """What a board spec draws of the plane, the caption and the board's description."""
    main = next(f for f in spec["figures"] if f["id"] == "main")
    keep = ["rp", "xp", "yp", "rn", "xn", "yn", "rm", "xm", "ym", "ra", "xa", "ya", "ca", "hx", "hy", "wx", "wy"]
    cap = spec["caption"]
    return {"T": spec["T"], "breaks": list(spec["breaks"]), "mistake_rounds": list(spec["mistake_rounds"]),
            "arrays": {k: spec["arrays"][k] for k in keep}, "caption": {k: v["data"] for k, v in cap["values"].items()},
            "template": cap["template"], "start": cap.get("start"), "figure": main["figure"],
            "describe": main["describe"]}


def _game(rng) -> PerceptronGame:
    R = [0.5, 0.75, 1.0, 1.25, 2.0][int(rng.integers(5))]
    g = round(float(rng.uniform(0.05, 0.6)) * R, 2)
    return PerceptronGame.make(list(DIRECTIONS)[int(rng.integers(len(DIRECTIONS)))], g, R)


def _moves(game: PerceptronGame, rng, T: int) -> list[Move]:
    out, state = [], game.play([])
    for _ in range(T):
        m = random_move(game, rng)
        if rng.random() < 0.5:    # a mistake where one exists: the learner's line moves
            Z = state.mistake_moves
            if len(Z):
                z = Z[int(rng.integers(len(Z)))]
                m = Move(int(z[0]), int(z[1]), 1) if rng.random() < 0.5 else Move(-int(z[0]), -int(z[1]), -1)
        out.append(m)
        state = state.then(m)
    return out


@pytest.mark.parametrize("seed", range(5))
def test_a_move_drawn_in_the_browser_is_the_runs_board(tmp_path, seed):
    rng = np.random.default_rng(seed)
    games, expected = [], []
    for _ in range(8):
        game = _game(rng)
        T = int(rng.integers(1, 14))
        moves = _moves(game, rng, T)
        k = int(rng.integers(0, T))               # the server's board after k moves; the browser plays the rest
        shown = bool(rng.random() < 0.7)
        st = game.play(moves[:k])
        games.append({"spec": server_spec(game, moves[:k], shown), "W": [int(st.W[0]), int(st.W[1])],
                      "o": A.game_options(game, st, shown), "moves": [[m.i, m.j, m.label] for m in moves[k:]]})
        expected.append([board(server_spec(game, moves[: t + 1], shown)) for t in range(k, T)])
    got = node_eval(tmp_path, "viewer_game_plane.js", APPLY, games)
    for g, (js, py) in enumerate(zip(got, expected)):
        for t, (a, b) in enumerate(zip(js, py)):
            assert board(a) == b, (seed, g, t, games[g]["moves"])


@pytest.mark.parametrize("seed", range(4))
def test_the_browser_refuses_as_the_core_does(tmp_path, seed):
    rng = np.random.default_rng(100 + seed)
    games, expected = [], []
    for _ in range(10):
        game = _game(rng)
        n = int(2.2 * float(game.radius) * GRID)
        raw = [(int(rng.integers(-n, n + 1)), int(rng.integers(-n, n + 1)), int(rng.choice([1, -1]))) for _ in range(60)]
        # the band's edge and the disc's rim exactly, when the grid has such points
        cap = game.cap
        edge = cap[(game.p * cap[:, 0] + game.q * cap[:, 1]) * game.gamma.denominator
                   == game.gamma.numerator * game.r * GRID]
        raw += [(int(z[0]), int(z[1]), 1) for z in edge[:3]] + [(int(-z[0]), int(-z[1]), 1) for z in edge[:3]]
        raw += [(int(game.radius * GRID), 0, 1), (0, -int(game.radius * GRID) - 1, -1)]
        st = game.play([])
        games.append({"o": A.game_options(game, st, True), "moves": raw})
        want = []
        for i, j, lab in raw:
            r = game.refusal(Move(i, j, lab))
            want.append(None if r is None else {"kind": r.kind, "text": r.text})
        expected.append(want)
    got = node_eval(tmp_path, "viewer_game_plane.js", REFUSE, games)
    kinds = set()
    for js, py in zip(got, expected):
        assert js == py
        kinds |= {r["kind"] if r else None for r in py}
    assert kinds == {None, "outside", "band", "side"}


def test_the_first_move_on_the_empty_board(tmp_path):
    game = PerceptronGame.make("36.87", "0.25", "1")
    moves = [Move(16, 60, 1), Move(60, -20, 1), Move(0, 0, 1)]
    games = [{"spec": server_spec(game, []), "W": [0, 0], "o": A.game_options(game, game.play([]), True),
              "moves": [[m.i, m.j, m.label] for m in moves[:2]]}]
    got = node_eval(tmp_path, "viewer_game_plane.js", APPLY, games)[0]
    assert [board(s) for s in got] == [board(server_spec(game, moves[: t + 1])) for t in range(2)]
    assert got[0]["caption"]["values"]["yhat"]["data"] == ["0 (on the line: a mistake)"]
    assert got[1]["mistake_rounds"] == [0, 1]
