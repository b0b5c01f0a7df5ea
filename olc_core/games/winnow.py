"""Beat the bound: Winnow against a student (or the computer) who chooses every example x ∈ {0,1}^N and its label
[000] §4.

The game fixes, at the start, N (8–32), the factor 1 + β and a target monotone disjunction of k variables (drawn
from a seed; shown, or hidden until the end). A move is admissible iff its label is the target's on x —
y = ⋁_{i∈R} x_i, exactly the theorem's assumption — so every accepted sequence is a stream on which
M < (1+β)/β + (2+β)·k·(1 + log_{1+β} N) must hold (β = 1: 2 + 3k(log₂N + 1), [000] eq. 42). A refused move
says why and never changes the game.

The game's trace is ``olc_core.run("winnow", X, y, beta=β, comparator=R)`` on the accepted moves: promotions m⁺
and demotions m⁻, the potential Φ and its sandwich, each relevant weight's cap, with the proof's own checks.
:func:`cap` is the largest M the theorem allows (M < B, decided exactly: B has a logarithm in it).

The computer's adversary is the project's worst case for Winnow (:func:`olc_core.streams.winnow_adversary`),
played from the game's current weights: a false positive on the heaviest irrelevant variables while they weigh
more than N together, else a false negative on the lightest relevant variable with irrelevant ones added while
w·x ≤ N, else nothing more can be forced.

>>> g = WinnowGame.make(N=8, k=1, beta=1.0, seed=0)
>>> g.relevant, cap(g.beta, g.N, g.k)
((4,), 13)
>>> g.refusal(WMove((0, 0, 0, 0, 1, 0, 0, 0), 0))
'the label must be 1: x₅ is on, and the target disjunction contains it (a positive example)'
>>> g.refusal(WMove((1, 0, 0, 0, 1, 0, 0, 0), 1)) is None
True
>>> s = computer_game(g)
>>> s.M, s.trace.proof.failed_assumptions, s.M <= cap(g.beta, g.N, g.k)
(7, [], True)
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from decimal import Decimal, localcontext
from fractions import Fraction
from functools import cached_property
from typing import Sequence

import numpy as np

from .. import learners
from ..streams.winnow_extra import _demotion, _promotion

__all__ = ["WMove", "WinnowGame", "WinnowState", "cap", "encode", "parse", "computer_move", "computer_game",
           "random_game", "MAX_MOVES", "N_RANGE"]

MAX_MOVES = 80
N_RANGE = (8, 32)


@dataclass(frozen=True)
class WMove:
    """An example (N bits) and its label 0/1."""
    x: tuple[int, ...]
    label: int


def encode(moves: Sequence[WMove]) -> str:
    """``"00100000:1,11000000:0"``."""
    return ",".join("".join(map(str, m.x)) + f":{m.label}" for m in moves)


def parse(text: str, N: int) -> list[WMove]:
    """The moves of :func:`encode`; ValueError naming the first that is not one (or has another length than N)."""
    text = (text or "").strip()
    if not text:
        return []
    out = []
    for n, tok in enumerate(text.split(","), 1):
        bits, _, lab = tok.strip().partition(":")
        if not bits or set(bits) - {"0", "1"} or lab not in ("0", "1"):
            raise ValueError(f"move {n} ({tok.strip()[:40]!r}) is not an example and a label like '00100000:1'")
        if len(bits) != N:
            raise ValueError(f"move {n} has {len(bits)} variables but N = {N}")
        out.append(WMove(tuple(int(b) for b in bits), int(lab)))
    if len(out) > MAX_MOVES:
        raise ValueError(f"{len(out)} moves; a game keeps at most {MAX_MOVES}")
    return out


def cap(beta: float, N: int, k: int) -> int:
    """The largest integer M with M < B = (1+β)/β + (2+β)·k·(1 + log_{1+β} N), β read as the float it is (as the
    learner reads it). B is computed to 50 digits; only when it lies within 1e-30 of an integer n is the case
    decided exactly: B = n iff (1+β)^r = N for the rational r = (n − a)/c − 1 (a = (1+β)/β, c = (2+β)k)."""
    bf = Fraction(beta)
    b, a, c = 1 + bf, (1 + bf) / bf, (2 + bf) * k
    with localcontext() as ctx:
        ctx.prec = 50
        B = _dec(a) + _dec(c) * (1 + Decimal(N).ln() / _dec(b).ln())
        n = int(B.to_integral_value())
        if abs(B - n) > Decimal("1e-30"):
            return math.ceil(B) - 1
    r = (n - a) / c - 1          # B = n iff b^r = N, i.e. b^p = N^q for r = p/q (an r with a huge p or q: not equal)
    exact = 0 <= r.numerator < 10_000 and r.denominator < 10_000 and \
        b.numerator ** r.numerator == N ** r.denominator * b.denominator ** r.numerator
    return n - 1 if exact or B < n else n


def _dec(f: Fraction) -> Decimal:
    return Decimal(f.numerator) / Decimal(f.denominator)


@dataclass(frozen=True)
class WinnowGame:
    N: int
    k: int
    beta: float
    seed: int
    hidden: bool = False

    @classmethod
    def make(cls, N: int, k: int, beta: float, seed: int, hidden: bool = False) -> "WinnowGame":
        if not (N_RANGE[0] <= int(N) <= N_RANGE[1]) or not (1 <= int(k) <= int(N)):
            raise ValueError(f"N must be in {N_RANGE[0]}–{N_RANGE[1]} and 1 ≤ k ≤ N (got N = {N}, k = {k})")
        if not (math.isfinite(beta) and beta > 0):
            raise ValueError(f"β must be a number > 0 (got {beta})")
        return cls(int(N), int(k), float(beta), int(seed), bool(hidden))

    @cached_property
    def relevant(self) -> tuple[int, ...]:
        """The target's variables (0-based), drawn from the seed."""
        rng = np.random.default_rng([self.seed, 35])
        return tuple(int(i) for i in np.sort(rng.choice(self.N, size=self.k, replace=False)))

    @property
    def cap(self) -> int:
        return cap(self.beta, self.N, self.k)

    def target_label(self, x: Sequence[int]) -> int:
        return int(any(x[i] for i in self.relevant))

    def refusal(self, m: WMove) -> str | None:
        """Why the move is refused (its label is not the target's), or None. A hidden target is not named: a refused
        positive example says that some variable of the target is on, not which.

        >>> g = WinnowGame.make(N=8, k=1, beta=1.0, seed=0, hidden=True)
        >>> g.refusal(WMove((0, 0, 0, 0, 1, 0, 0, 0), 0))
        'the label must be 1: a variable of the target disjunction is on (a positive example)'
        """
        if len(m.x) != self.N or m.label not in (0, 1):
            raise ValueError("an example has N bits and a label 0 or 1")
        want = self.target_label(m.x)
        if m.label == want:
            return None
        if want and self.hidden:
            return "the label must be 1: a variable of the target disjunction is on (a positive example)"
        if want:
            on = [i for i in self.relevant if m.x[i]]
            return (f"the label must be 1: x{_sub(on[0] + 1)} is on, and the target disjunction contains it "
                    "(a positive example)")
        return "the label must be 0: no variable of the target disjunction is on (a negative example)"

    def play(self, moves: Sequence[WMove]) -> "WinnowState":
        for n, m in enumerate(moves, 1):
            why = self.refusal(m)
            if why is not None:
                raise ValueError(f"move {n} is refused: {why}")
        if len(moves) > MAX_MOVES:
            raise ValueError(f"a game keeps at most {MAX_MOVES} moves")
        return WinnowState(self, tuple(moves))

    def admissible_prefix(self, moves: Sequence[WMove]) -> tuple[list[WMove], str | None]:
        for n, m in enumerate(moves):
            why = self.refusal(m)
            if why is not None:
                return list(moves[:n]), f"move {n + 1} is refused: {why}"
        return list(moves), None


def _sub(n: int) -> str:
    return str(n).translate(str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉"))


@dataclass(frozen=True)
class WinnowState:
    game: WinnowGame
    moves: tuple[WMove, ...]

    @property
    def T(self) -> int:
        return len(self.moves)

    @cached_property
    def X(self) -> np.ndarray:
        return np.array([m.x for m in self.moves], dtype=np.uint8).reshape(-1, self.game.N)

    @cached_property
    def y(self) -> np.ndarray:
        return np.array([float(m.label) for m in self.moves])

    @cached_property
    def trace(self):
        if not self.moves:
            return None
        return learners.run("winnow", self.X, self.y, beta=self.game.beta, comparator=list(self.game.relevant))

    @property
    def M(self) -> int:
        return 0 if self.trace is None else int(self.trace.n_mistakes)

    @cached_property
    def exponents(self) -> np.ndarray:
        """The learner's weights as exponents of 1 + β (exact integers), after the moves."""
        e = np.zeros(self.game.N, dtype=np.int64)
        if self.trace is not None:
            for t in self.trace.mistakes:
                e += (2 * int(self.y[t]) - 1) * self.X[t].astype(np.int64)
        return e

    @property
    def promotions(self) -> int:
        return 0 if self.trace is None else int(sum(self.y[t] == 1 for t in self.trace.mistakes))

    @property
    def demotions(self) -> int:
        return self.M - self.promotions

    @property
    def left(self) -> int:
        """How many more mistakes the theorem allows (the largest M below its bound, minus M)."""
        return self.game.cap - self.M

    def _weight(self, i: int) -> Fraction:
        b = 1 + Fraction(self.game.beta)
        return b ** int(self.exponents[i])

    @cached_property
    def light_relevant(self) -> tuple[int, ...]:
        """The relevant variables whose weight is still ≤ N (exact): a positive example of one of them alone has
        w·x ≤ N, a false negative."""
        return tuple(i for i in self.game.relevant if self._weight(i) <= self.game.N)

    @cached_property
    def irrelevant_weight(self) -> Fraction:
        """Σ of the irrelevant weights (exact): above N, the negative example of all of them is a false positive."""
        return sum((self._weight(i) for i in range(self.game.N) if i not in self.game.relevant), Fraction(0))

    @property
    def can_err(self) -> bool:
        """Whether some admissible example is still a mistake (exact): a relevant weight ≤ N (a false negative),
        or irrelevant weights summing to more than N (a false positive). False: w never changes again."""
        return bool(self.light_relevant) or self.irrelevant_weight > self.game.N

    def then(self, m: WMove) -> "WinnowState | str":
        why = self.game.refusal(m)
        if why is not None:
            return why
        if self.T >= MAX_MOVES:
            return f"a game keeps at most {MAX_MOVES} moves"
        return WinnowState(self.game, self.moves + (m,))


def computer_move(state: WinnowState) -> WMove | None:
    """The worst case's next move from the current weights (None when it can force no further mistake)."""
    g = state.game
    rel = np.array(g.relevant, dtype=np.int64)
    irr = np.setdiff1d(np.arange(g.N), rel)
    base = 1 + Fraction(g.beta)
    P, Q, L = base.numerator, base.denominator, math.log1p(g.beta)
    e = state.exponents
    x, lab = _demotion(e, irr, L, P, Q, g.N), 0
    if x is None:
        x, lab = _promotion(e, rel, irr, L, P, Q, g.N), 1
    if x is None:
        return None
    bits = np.zeros(g.N, dtype=int)
    bits[x] = 1
    return WMove(tuple(int(b) for b in bits), lab)


def computer_game(game: WinnowGame, moves: Sequence[WMove] = (), limit: int = MAX_MOVES) -> WinnowState:
    """``moves``, then the computer's adversary while it can force a mistake (at most ``limit`` moves in all)."""
    state = game.play(moves)
    while state.T < limit:
        m = computer_move(state)
        if m is None:
            break
        state = WinnowState(game, state.moves + (m,))
    return state


def random_game(game: WinnowGame, T: int, seed: int) -> WinnowState:
    """T examples with each bit on with probability 1 − 2^(−1/k) (about half positive), labelled by the target."""
    rng = np.random.default_rng([seed, 36])
    p = 1.0 - 2.0 ** (-1.0 / game.k)
    X = (rng.random((min(T, MAX_MOVES), game.N)) < p).astype(int)
    return game.play([WMove(tuple(int(b) for b in x), game.target_label(x)) for x in X])
