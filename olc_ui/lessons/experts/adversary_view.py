"""The board of "Beat the bound" on Weighted Majority, Randomised WM and Halving (pure: a game state in, a JSON-ready
spec out): the game's own board (olc_ui/shared/experts_board.py, drawn in the browser at a move by
assets/viewer_game_bars.js) and, after a move, the experts lesson's sandwich, advice map, chart of mistakes and proof
ledger (``experts_spec`` on the game's run): they follow from the run.
"""
from __future__ import annotations

from olc_core.games.experts import ExpertsState

from olc_ui.lessons.experts.view import experts_spec
from olc_ui.shared.experts_board import KINDS, TITLE, board_main, board_options, replay
from olc_ui.shared.game_bars import with_run
from olc_ui.viewer.spec import jsonable

__all__ = ["board_spec", "board_options", "replay", "TITLE", "KINDS"]


def board_spec(state: ExpertsState, *, run_id: str) -> dict:
    """The viewer spec of the game after its moves: the board, and (after a move) the lesson's sandwich, advice map,
    chart of mistakes and ledger of the game's run."""
    game = state.game
    spec = {**board_main(game, state.moves), "run_id": run_id}
    if state.trace is not None:
        run = experts_spec(state.trace, state.A, state.y, run_id=run_id)
        if list(run["breaks"]) != spec["breaks"]:
            raise AssertionError("the board's changes of the weights are not the run's")
        if game.deterministic and list(run["mistake_rounds"]) != spec["mistake_rounds"]:
            raise AssertionError("the board's mistakes are not the run's")
        spec["mistake_rounds"] = run["mistake_rounds"]      # RWM: the run's draws
        figures = [f for f in run["figures"] if f["id"] != "weights"]       # the board stands for the weights
        spec = with_run(spec, run, figures, {"columns": [["main", "advice", "mistakes"], ["sandwich", "ledger"]],
                                             "widths": [1, 1]})
    return jsonable(spec)
