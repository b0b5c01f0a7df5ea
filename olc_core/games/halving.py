"""Beat the bound: Halving over a finite class H against a student (or the computer) who chooses every instance and
its label [001] §8.

The game fixes, at the start, a class H of the Halving page (half-planes through the origin at K angles, thresholds
on a line, monotone conjunctions or disjunctions on n bits) and a target h* ∈ H (drawn from a seed; shown, or hidden
until the end). The instances are the class's natural domain D (``H.natural_domain()``: one instance for every
behaviour of H, so nothing is lost by choosing among them). A move (an instance of D, a label ±1) is admissible iff
the label is h*'s — exactly the theorem's assumption (realisable: some hypothesis of H, h*, labels every round), so
every accepted sequence is a stream on which M ≤ log₂|H| must hold. A refused move says why and never changes the
game.

The game's trace is ``olc_core.run("halving", X, y, hypotheses=H)`` on the accepted moves (pruning on mistakes, as
Halving [001] does), with the proof's own checks. Everything a rule decides is exact: the version space H_t is a set
of hypotheses (a bit mask), the vote counts are integers (a tie predicts +1), so "Halving errs on this instance"
and "no admissible instance can be a mistake any more" are decided without floats.

The computer's adversary knows h*: each move is an instance on which Halving errs (h* in the minority of H_t's vote),
chosen so that the most further mistakes can still be forced — computed exactly by a search over the version spaces
that mistakes leave (a round Halving gets right changes nothing) — and, among those, the one that splits H_t most
evenly (the known worst case: the minority that stays as large as it can be). Random admissible play: random
instances of D with h*'s labels. No admissible sequence forces more mistakes than the computer's (the search is over
every chain of mistakes).

>>> g = HalvingGame.make("thresholds", K=16, seed=0)
>>> g.cap, g.describe_target()
(4, 'x ≥ 0.53125')
>>> s = computer_game(g)
>>> s.M, s.can_err, s.trace.proof.failed_assumptions
(3, False, [])
>>> g.refusal(HMove(0, 1))
'the label must be −1: the target h* = x ≥ 0.53125 labels x = 0 −1'
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cached_property
from typing import Sequence

import numpy as np

from .. import learners
from ..hypotheses import HalfPlanes, HypothesisClass, MonotoneConjunctions, MonotoneDisjunctions, Thresholds

__all__ = ["HMove", "HalvingGame", "HalvingState", "CLASSES", "K_RANGE", "N_RANGE", "MAX_MOVES", "encode", "parse",
           "hypothesis_class", "computer_move", "computer_game", "random_game", "SEARCH_BUDGET"]

CLASSES = ("halfplanes", "thresholds", "conj", "disj")
K_RANGE = (2, 64)
N_RANGE = (1, 6)
MAX_MOVES = 60
#: version spaces the exact search may visit before the computer falls back to the most even split
SEARCH_BUDGET = 200_000


@dataclass(frozen=True)
class HMove:
    """An instance (its index in the class's natural domain) and its label ±1."""
    j: int
    label: int


def encode(moves: Sequence[HMove]) -> str:
    """``"3:+,12:-"``."""
    return ",".join(f"{m.j}:{'+' if m.label > 0 else '-'}" for m in moves)


def parse(text: str, size: int) -> list[HMove]:
    """The moves of :func:`encode` (a "+" read from a URL's query as a space is a "+" too); ValueError naming the
    first that is not one, or whose instance is not among the ``size`` of the domain."""
    text = (text or "").strip()
    if not text:
        return []
    out = []
    for n, tok in enumerate(text.split(","), 1):
        j, _, lab = tok.replace(" ", "+").strip().partition(":")
        if not j.isdigit() or lab not in ("+", "-"):
            raise ValueError(f"move {n} ({tok.strip()[:40]!r}) is not an instance and a label like '3:+'")
        if int(j) >= size:
            raise ValueError(f"move {n}: instance {int(j)} is not among the {size} of this class")
        out.append(HMove(int(j), 1 if lab == "+" else -1))
    if len(out) > MAX_MOVES:
        raise ValueError(f"{len(out)} moves; a game keeps at most {MAX_MOVES}")
    return out


def hypothesis_class(cls: str, K: int, n: int) -> HypothesisClass:
    """The class of the Halving page these settings stand for."""
    if cls == "halfplanes":
        return HalfPlanes(int(K))
    if cls == "thresholds":
        return Thresholds.grid(int(K))
    if cls == "conj":
        return MonotoneConjunctions(int(n))
    if cls == "disj":
        return MonotoneDisjunctions(int(n))
    raise ValueError(f"unknown class {cls!r}; choose one of {', '.join(CLASSES)}")


def _sign(v: int) -> str:
    return "+1" if v > 0 else "−1"


@dataclass(frozen=True)
class HalvingGame:
    cls: str
    K: int
    n: int
    seed: int
    hidden: bool = False

    @classmethod
    def make(cls, kind: str, K: int = 16, n: int = 4, seed: int = 0, hidden: bool = False) -> "HalvingGame":
        if kind not in CLASSES:
            raise ValueError(f"unknown class {kind!r}; choose one of {', '.join(CLASSES)}")
        if kind in ("halfplanes", "thresholds") and not K_RANGE[0] <= int(K) <= K_RANGE[1]:
            raise ValueError(f"K must be in {K_RANGE[0]}–{K_RANGE[1]} (got {K})")
        if kind in ("conj", "disj") and not N_RANGE[0] <= int(n) <= N_RANGE[1]:
            raise ValueError(f"n must be in {N_RANGE[0]}–{N_RANGE[1]} (got {n})")
        return cls(kind, int(K), int(n), int(seed), bool(hidden))

    @cached_property
    def H(self) -> HypothesisClass:
        return hypothesis_class(self.cls, self.K, self.n)

    @cached_property
    def D(self) -> np.ndarray:
        """The instances a move chooses from: the class's natural domain (every behaviour of H shows on it)."""
        return np.asarray(self.H.natural_domain(), dtype=np.float64).reshape(-1, self.H.dim)

    @cached_property
    def plus(self) -> list[int]:
        """For each instance of D, the bit mask of the hypotheses that label it +1 (exact: the class's predict)."""
        P = self.H.predict(self.D, np.arange(self.H.size)) > 0
        return [int(sum(1 << int(h) for h in np.flatnonzero(row))) for row in P]

    @property
    def full(self) -> int:
        return (1 << self.H.size) - 1

    @cached_property
    def target(self) -> int:
        """h*'s index in H, drawn from the seed."""
        return int(np.random.default_rng([self.seed, 38]).integers(self.H.size))

    def target_label(self, j: int) -> int:
        return 1 if (self.plus[j] >> self.target) & 1 else -1

    def agree(self, j: int) -> int:
        """The hypotheses that label instance j as h* does (the version space after Halving errs there)."""
        return self.plus[j] if self.target_label(j) > 0 else self.full & ~self.plus[j]

    @property
    def cap(self) -> int:
        """⌊log₂|H|⌋, exactly: the most mistakes the theorem allows."""
        return self.H.size.bit_length() - 1

    def describe_target(self) -> str:
        return self.H.describe(self.target)

    def instance_text(self, j: int) -> str:
        """Instance j as the page writes it: "x = 0.4375", "x at 67.5°", "x = 10110" (bit x₁ first)."""
        x = self.D[j]
        if self.cls == "thresholds":
            return f"x = {x[0]:.6g}"
        if self.cls == "halfplanes":
            return f"x at {math.degrees(math.atan2(x[1], x[0])) % 360:.6g}°"
        return "x = " + "".join(str(int(b)) for b in x)

    def refusal(self, m: HMove) -> str | None:
        """Why the move is refused (its label is not h*'s), or None; a hidden target is not named."""
        if not 0 <= m.j < len(self.plus) or m.label not in (1, -1):
            raise ValueError("a move is an instance of the class's domain and a label ±1")
        want = self.target_label(m.j)
        if m.label == want:
            return None
        who = "the target h*" if self.hidden else f"the target h* = {self.describe_target()}"
        return f"the label must be {_sign(want)}: {who} labels {self.instance_text(m.j)} {_sign(want)}"

    def play(self, moves: Sequence[HMove]) -> "HalvingState":
        s = HalvingState(self, ())
        for n, m in enumerate(moves, 1):
            out = s.then(m)
            if isinstance(out, str):
                raise ValueError(f"move {n} is refused: {out}")
            s = out
        return s

    def admissible_prefix(self, moves: Sequence[HMove]) -> tuple[list[HMove], str | None]:
        s = HalvingState(self, ())
        for n, m in enumerate(moves):
            out = s.then(m)
            if isinstance(out, str):
                return list(moves[:n]), f"move {n + 1} is refused: {out}"
            s = out
        return list(moves), None


def _errs(game: HalvingGame, V: int, j: int) -> bool:
    """Whether Halving with version space V errs on instance j (its vote, a tie to +1, against h*'s label)."""
    n_plus = (V & game.plus[j]).bit_count()
    pred = 1 if 2 * n_plus >= V.bit_count() else -1
    return pred != game.target_label(j)


@dataclass(frozen=True)
class HalvingState:
    game: HalvingGame
    moves: tuple[HMove, ...]

    @property
    def T(self) -> int:
        return len(self.moves)

    @cached_property
    def X(self) -> np.ndarray:
        return self.game.D[[m.j for m in self.moves]].reshape(-1, self.game.H.dim)

    @cached_property
    def y(self) -> np.ndarray:
        return np.array([float(m.label) for m in self.moves])

    @cached_property
    def replay(self) -> tuple[list[int], list[int], list[int]]:
        """Exactly: the version space before each round (bit masks), Halving's prediction on each, and its mistakes
        (0-based rounds); the version space after the last round is ``version_space``."""
        g, V = self.game, self.game.full
        before, preds, mistakes = [], [], []
        for t, m in enumerate(self.moves):
            before.append(V)
            n_plus = (V & g.plus[m.j]).bit_count()
            pred = 1 if 2 * n_plus >= V.bit_count() else -1
            preds.append(pred)
            if pred != m.label:
                mistakes.append(t)
                V &= g.agree(m.j)
        before.append(V)
        return before, preds, mistakes

    @property
    def version_space(self) -> int:
        """H_t after the moves, as a bit mask over H (h* always in it)."""
        return self.replay[0][-1]

    @property
    def size(self) -> int:
        return self.version_space.bit_count()

    @cached_property
    def trace(self):
        if not self.moves:
            return None
        return learners.run("halving", self.X, self.y, hypotheses=self.game.H, update="on_mistake")

    @property
    def M(self) -> int:
        return len(self.replay[2])

    @property
    def left(self) -> int:
        """How many more mistakes the theorem allows: ⌊log₂|H|⌋ − M."""
        return self.game.cap - self.M

    @property
    def argument_left(self) -> int:
        """How many more the version space's own argument allows: each further mistake at least halves H_t, which
        keeps h*, so at most ⌊log₂|H_t|⌋ more."""
        return self.size.bit_length() - 1

    def vote(self, j: int) -> tuple[int, int]:
        """How many hypotheses of H_t label instance j +1 and −1."""
        V = self.version_space
        p = (V & self.game.plus[j]).bit_count()
        return p, V.bit_count() - p

    @cached_property
    def mistake_instances(self) -> list[int]:
        """The instances of D on which Halving errs now (with h*'s label): the moves that are mistakes."""
        return [j for j in range(len(self.game.plus)) if _errs(self.game, self.version_space, j)]

    @property
    def can_err(self) -> bool:
        """Whether some admissible move is still a mistake (exact). False: H_t's vote is h*'s on every instance,
        and H_t changes only on a mistake, so Halving never errs again."""
        return bool(self.mistake_instances)

    def then(self, m: HMove) -> "HalvingState | str":
        why = self.game.refusal(m)
        if why is not None:
            return why
        if self.T >= MAX_MOVES:
            return f"a game keeps at most {MAX_MOVES} moves"
        return HalvingState(self.game, self.moves + (m,))


class _Search:
    """The most mistakes an adversary can still force from version space V (a round Halving gets right changes
    nothing, so only chains of mistakes count), memoised; None once the budget is spent."""

    def __init__(self, game: HalvingGame, budget: int = SEARCH_BUDGET):
        self.game, self.budget, self.memo = game, budget, {}

    def best(self, V: int) -> int | None:
        if V in self.memo:
            return self.memo[V]
        self.budget -= 1
        if self.budget < 0:
            return None
        out = 0
        for j in range(len(self.game.plus)):
            if _errs(self.game, V, j):
                sub = self.best(V & self.game.agree(j))
                if sub is None:
                    return None
                out = max(out, 1 + sub)
        self.memo[V] = out
        return out


def computer_move(state: HalvingState, search: _Search | None = None) -> HMove | None:
    """The computer's next move: an instance where Halving errs from which the most further mistakes can be forced
    (exact search; beyond its budget, none preferred), the most even split among those (the largest minority stays),
    then the lowest index. None when no admissible move is a mistake or the game is full."""
    g = state.game
    if state.T >= MAX_MOVES or not state.can_err:
        return None
    search = search or _Search(g)
    V = state.version_space

    def key(j: int):
        after = V & g.agree(j)
        further = search.best(after)
        return (-1 if further is None else further, after.bit_count(), -j)
    j = max(state.mistake_instances, key=key)
    return HMove(j, g.target_label(j))


def computer_game(game: HalvingGame, moves: Sequence[HMove] = (), limit: int = MAX_MOVES) -> HalvingState:
    """``moves``, then the computer's adversary while it can force a mistake (at most ``limit`` moves in all)."""
    s = game.play(moves)
    search = _Search(game)
    while s.T < limit:
        m = computer_move(s, search)
        if m is None:
            break
        s = HalvingState(game, s.moves + (m,))
    return s


def random_game(game: HalvingGame, T: int, seed: int) -> HalvingState:
    """T random instances of the domain with h*'s labels."""
    rng = np.random.default_rng([seed, 39])
    js = rng.integers(len(game.plus), size=min(T, MAX_MOVES))
    return game.play([HMove(int(j), game.target_label(int(j))) for j in js])
