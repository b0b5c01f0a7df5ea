"""Beat the bound on the Halving page, a move judged and drawn in the browser (viewer_game_bars.js, the experts'
Halving board with the class's hypotheses: olc_ui/lessons/halving/adversary_view.py):

- the board it appends is, array for array, the board of the game's run on the moves (board_spec, which asserts that
  its mistakes and its rounds are ``olc_core.run``'s): the version space in every state, each hypothesis's label of
  the round's instance, the hypotheses that left, the caption with the instance — from the empty board or from the
  server's board after any number of moves, for every class (half-planes, thresholds, conjunctions, disjunctions;
  several sizes, the target shown or hidden);
- the browser admits exactly the moves the core admits (the target's label), and reads the class's proposals
  ("12:1") as the core does.
"""
from __future__ import annotations

import numpy as np
import pytest

from olc_core.games import halving as Hg
from olc_ui.lessons.halving import adversary_view as HV

from tests.conftest import node_eval
from tests.ui.test_game_bars_js import ADMIT, _json, board, same_boards

APPLY_H = """data.map(g => { let st = g.st; return g.moves.map(([j, label]) => {
  st = m.applyHalvingMove(g.spec, g.o, st, j, label).st;
  return JSON.parse(JSON.stringify(g.spec));
}); })"""


def _game(rng) -> Hg.HalvingGame:
    cls = str(rng.choice(Hg.CLASSES))
    return Hg.HalvingGame.make(cls, int(rng.integers(2, 65)), int(rng.integers(1, 7)), int(rng.integers(1000)),
                               bool(rng.random() < 0.5))


def _moves(game: Hg.HalvingGame, rng, T: int) -> list[Hg.HMove]:
    """Random instances with the target's labels, the computer's worst case now and then (so that Halving errs)."""
    out, s = [], game.play([])
    for _ in range(T):
        m = Hg.computer_move(s) if rng.random() < 0.5 else None
        if m is None:
            j = int(rng.integers(len(game.plus)))
            m = Hg.HMove(j, game.target_label(j))
        out.append(m)
        s = Hg.HalvingState(game, s.moves + (m,))
    return out


@pytest.mark.parametrize("seed", range(4))
def test_a_halving_move_drawn_in_the_browser_is_the_runs_board(tmp_path, seed):
    rng = np.random.default_rng([seed, 35])
    games, expected = [], []
    for _ in range(6):
        game = _game(rng)
        T = int(rng.integers(1, 14))
        moves = _moves(game, rng, T)
        k = int(rng.integers(0, T))
        shown = bool(rng.random() < 0.5)
        st = game.play(moves[:k])
        o = HV.board_options(st, "halving_adversary")
        games.append({"spec": _json(HV.board_spec(st, run_id="x", shown=shown)), "o": o,
                      "st": {"C": o["C"], "m": o["m"], "lo": o["lo"], "M": o["M"]},
                      "moves": [[m.j, m.label] for m in moves[k:]]})
        expected.append([board(_json(HV.board_spec(game.play(moves[: t + 1]), run_id="x", shown=shown)))
                         for t in range(k, T)])
    got = node_eval(tmp_path, "viewer_game_bars.js", APPLY_H, games)
    same_boards(got, expected, games, seed)
    assert any(py[-1]["mistake_rounds"] for py in expected)    # the version space the browser shrank is the run's
    assert any(len(py[-1]["mistake_rounds"]) < py[-1]["T"] for py in expected)   # and one it kept


def test_the_browser_admits_what_the_core_admits(tmp_path):
    rng = np.random.default_rng(11)
    games, expected = [], []
    for _ in range(8):
        game = _game(rng)
        s = Hg.random_game(game, int(rng.integers(0, 8)), int(rng.integers(100)))
        raw = [(int(rng.integers(len(game.plus))), int(rng.choice([-1, 1]))) for _ in range(40)]
        o = HV.board_options(s, "g")
        games.append({"o": o, "st": {"m": o["m"]}, "moves": raw})
        expected.append([game.refusal(Hg.HMove(j, y)) is None for j, y in raw])
    got = node_eval(tmp_path, "viewer_game_bars.js", ADMIT, games)
    assert got == expected
    assert any(not v for g in expected for v in g) and any(v for g in expected for v in g)


def test_a_proposal_reads_as_the_core_reads_it():
    assert HV.proposed("12:1", 17) == Hg.HMove(12, 1) and HV.proposed("0:0", 17) == Hg.HMove(0, -1)
    for bad in ("17:1", "3:+", "-1:0", "a:1", "3", ""):
        with pytest.raises(ValueError):
            HV.proposed(bad, 17)
