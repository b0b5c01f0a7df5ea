"""Beat the bound: games in which a student (or the computer) is the adversary, choosing every example and its
label within a theorem's assumptions, against a learner whose mistakes the theorem bounds (issue 35).

Each game's rules decide exactly which moves are admissible; the accepted moves are a stream, and the game's
trace is ``olc_core.run`` on it, so the proof's own checks say that the assumptions held and the bound stood.

* :mod:`olc_core.games.perceptron` — points in the disc with margin γ for a fixed unit w*;
* :mod:`olc_core.games.perceptron_adversary` — the computer's adversary and random admissible play;
* :mod:`olc_core.games.winnow` — examples labelled by a k-disjunction fixed at the start, and Winnow's worst case;
* :mod:`olc_core.games.experts` — every expert's advice and the outcome, with a budget m* for the best expert;
* :mod:`olc_core.games.halving` — instances of a finite class's domain labelled by a target fixed at the start.
"""
from . import experts, halving, perceptron, winnow
from .perceptron import DIRECTIONS, GRID, GameState, Move, PerceptronGame, Refusal

__all__ = ["experts", "halving", "perceptron", "winnow", "DIRECTIONS", "GRID", "GameState", "Move", "PerceptronGame", "Refusal"]
