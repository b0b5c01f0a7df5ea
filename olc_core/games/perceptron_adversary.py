"""The computer's adversary in the Perceptron game, and random admissible play to compare it with.

The greedy adversary plays, while some admissible move is still a mistake, the one that leaves the learner's w
at the largest angle from w* — the lowest cosine potential cos∠(w, w*) of proof B, whose lower bound √M·γ/R
is what ends the game. Each of its moves is a mistake (it errs on every move it plays), and it stops when no
admissible move can be one. It does not shrink ‖w‖: a low cosine needs ⟨w*, w⟩ small *and* ‖w‖ large, the way
the tight instance (M = R²/γ²) makes ‖w‖² grow by the full R² at every mistake.

In the plane it cannot reach ⌊R²/γ²⌋: the tight instance needs d ≥ R²/γ² orthogonal directions. On the
settings tested (tests/core/test_perceptron_game.py) it forces about 40% of the bound, and on every seeded game
at least as many mistakes as random admissible play with the same number of moves.

>>> from olc_core.games.perceptron import PerceptronGame
>>> g = PerceptronGame.make("0.00", gamma="0.2", radius="1")
>>> s = greedy_game(g)
>>> s.M, g.bound, s.can_err, s.trace.proof.failed_assumptions
(11, 25, False, [])
"""
from __future__ import annotations

from typing import Sequence

import numpy as np

from .perceptron import MAX_MOVES, GameState, Move, PerceptronGame

__all__ = ["greedy_move", "greedy_game", "random_move", "random_game"]


def _cosines(game: PerceptronGame, W: np.ndarray, Z: np.ndarray) -> np.ndarray:
    """cos∠(w + z, w*) for each row z (grid units); w + z = 0 (cosine undefined) counts as the lowest, −2."""
    Wn = W[None, :] + Z
    inner = (game.p * Wn[:, 0] + game.q * Wn[:, 1]).astype(np.float64)
    norm = np.sqrt((Wn * Wn).sum(axis=1).astype(np.float64)) * game.r
    with np.errstate(invalid="ignore", divide="ignore"):
        cos = inner / norm
    return np.where(norm > 0, cos, -2.0)


def greedy_move(state: GameState) -> Move | None:
    """The admissible mistake that leaves w at the largest angle from w* (ties: the first in the game's list of
    admissible moves), as a point with label +1 if its margin side allows, else −x with −1; None when no
    admissible move is a mistake."""
    Z = state.mistake_moves
    if len(Z) == 0:
        return None
    z = Z[int(np.argmin(_cosines(state.game, state.W, Z)))]
    return Move(int(z[0]), int(z[1]), 1)


def greedy_game(game: PerceptronGame, moves: Sequence[Move] = (), limit: int = MAX_MOVES) -> GameState:
    """``moves``, then the greedy adversary until no admissible move is a mistake or the game holds ``limit`` moves."""
    state = game.play(moves)
    played = list(moves)
    W = state.W.copy()
    while len(played) < limit:
        Z = game.cap[game.cap @ W <= 0]
        if len(Z) == 0:
            break
        z = Z[int(np.argmin(_cosines(game, W, Z)))]
        played.append(Move(int(z[0]), int(z[1]), 1))
        W = W + z
    return game.play(played)


def random_move(game: PerceptronGame, rng: np.random.Generator) -> Move:
    """An admissible move drawn uniformly: a grid point of the disc with margin γ and the label its side needs."""
    z = game.cap[int(rng.integers(len(game.cap)))]
    flip = 1 if rng.random() < 0.5 else -1
    return Move(int(flip * z[0]), int(flip * z[1]), flip)


def random_game(game: PerceptronGame, T: int, seed: int) -> GameState:
    """T admissible moves drawn uniformly (seeded)."""
    rng = np.random.default_rng(seed)
    return game.play([random_move(game, rng) for _ in range(min(T, MAX_MOVES))])


