"""The board of "Beat the bound" on the Halving page (pure: a game state in, a JSON-ready spec out).

The board is the experts' Halving board (olc_ui/shared/experts_board.py), with the hypotheses of the
game's class H as the experts: on a round each hypothesis "advises" its own label of the instance (exact: the
game's bit masks, olc_core/games/halving.py), is in the version space (1) until Halving errs on a round whose label
it contradicts (0), and the learner's answer is the majority of the version space (a tie goes to +1) — Halving's
rule, counted in integers. So the browser's game mode (assets/viewer_game_bars.js, kind "halving" with the class's
labels ``plus``) draws a move at the click of "Label +1" / "Label −1" by pushing one round onto the board's arrays,
as the run will draw it (tests/ui/test_game_halving_js.py). The board keeps a state every round, as the Halving
lesson's charts do; after the first move they join it from the game's run (``halving_spec``): the class's own
picture of the version space, the sandwich 1 ≤ |Hₜ| ≤ |H|/2ᴹ and the proof's ledger.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import olc_core
from olc_core.games.halving import MAX_MOVES, HalvingState, HMove
from olc_core.games.experts import EMove

from olc_ui.shared import experts_board as board
from olc_ui.lessons.halving.view import halving_spec
from olc_ui.shared.game_bars import with_run
from olc_ui.viewer.spec import jsonable

__all__ = ["board_spec", "board_options", "proposed", "WORDS"]

#: what the board's bars stand for (one, many) and what each says on a round
WORDS = ("hypothesis", "hypotheses", "label")


@dataclass(frozen=True)
class _Hypotheses:
    """The class's hypotheses as the experts' board draws its experts (kind "halving"), a state every round."""
    N: int
    learner: str = "halving"
    beta: float = 0.0
    budget: int = 0
    every_round: bool = True
    words: tuple[str, str, str] = WORDS


def _advice(s: HalvingState, j: int) -> tuple[int, ...]:
    """Each hypothesis's label of instance j (the game's exact bit mask)."""
    mask = s.game.plus[j]
    return tuple(1 if (mask >> i) & 1 else -1 for i in range(s.game.H.size))


def _rounds(s: HalvingState) -> list[EMove]:
    return [EMove(_advice(s, m.j), m.label) for m in s.moves]


def _template(s: HalvingState) -> tuple[str, str]:
    n = s.game.H.size
    return ("Round {t} of {T}: {gx}, label y = {gy}; of the {ghs} hypotheses in Hₜ, {gnp} say +1 and {gnm} say "
            "−1, and Halving follows their majority (a tie goes to +1): ŷ = {gyhat}, {gwhat}. Mistakes so far M = {gM}.",
            f"Before the first round all {n} hypotheses of H are in the version space; Halving follows their "
            "majority (a tie goes to +1).")


def board_spec(s: HalvingState, *, run_id: str, shown: bool) -> dict:
    """The viewer spec of the game after its moves: the board, and (after a move) the lesson's version space, its
    sandwich and ledger of the game's run (the target drawn only when ``shown``)."""
    g = s.game
    spec = {**board.board_main(_Hypotheses(g.H.size), _rounds(s)), "run_id": run_id}
    template, start = _template(s)
    spec["caption"] = {**spec["caption"], "template": template, "start": start}
    spec["caption"]["values"]["gx"] = {"by": "round", "data": [g.instance_text(m.j) for m in s.moves], "fmt": "text"}
    if s.trace is not None:
        if spec["mistake_rounds"] != s.trace.mistakes.tolist():
            raise AssertionError("the board's mistakes are not the run's")
        every = olc_core.run("halving", s.X, s.y, hypotheses=g.H, update="every_round")
        run = halving_spec(s.trace, s.X, s.y, g.H, run_id=run_id, target=g.target if shown else None,
                           consistent=every.proof.per_round("size"),
                           title=f"The version space of the game over {g.H.size} {g.H.name}")
        if list(run["breaks"]) != spec["breaks"]:
            raise AssertionError("the board's rounds are not the run's")
        figures = [{**f, "id": "space"} if f["id"] == "main" else f for f in run["figures"]]
        spec = with_run(spec, run, figures, {"columns": [["main", "space"], ["sandwich", "ledger"]],
                                             "widths": [1.3, 1]})
    return jsonable(spec)


def board_options(s: HalvingState, group: str) -> dict[str, Any]:
    """The board's game mode (assets/viewer_game_bars.js, kind "halving" on a class): the experts' options for the
    hypotheses, and the class's rules — each instance's labels by the hypotheses (``plus``: a string of 0/1, hypothesis
    i at i), the target's index (the rule: the label must be the target's), each instance's text (the move panel's
    list and the caption) — the move panel's list and its label buttons."""
    g = s.game
    n = g.H.size
    return {**board.moves_options(_Hypotheses(n), _rounds(s), group), "max": MAX_MOVES,
            "plus": [format(mask, f"0{n}b")[::-1] for mask in g.plus], "target": g.target,
            "texts": [g.instance_text(j) for j in range(len(g.plus))], "select": f".st-key-{group}_inst",
            "buttons": {"1": f".st-key-{group}_lab1 button", "-1": f".st-key-{group}_lab0 button"}}


def proposed(text: str, size: int) -> HMove:
    """A move in the class's short form: the instance's index, then the label (1: +1, 0: −1): ``"12:1"``."""
    j, _, lab = str(text).partition(":")
    if not j.isdigit() or int(j) >= size or lab not in ("0", "1"):
        raise ValueError(f"{str(text)[:40]!r} is not an instance and a label like '12:1'")
    return HMove(int(j), 1 if lab == "1" else -1)
