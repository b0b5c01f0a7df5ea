"""Beat the bound: the Perceptron in the plane against a student (or the computer) who chooses every point and
its label [003, 004].

The game is fixed at the start: a unit comparator w*, a margin γ and a radius R. A move is a point x and a
label y; it is **admissible** iff ‖x‖ ≤ R and y⟨w*, x⟩ ≥ γ — exactly the theorem's assumptions, so every
sequence of admissible moves is a stream on which M ≤ R²/γ² must hold. A refused move says why (outside the
disc, inside the band |⟨w*, x⟩| < γ, or on the wrong side of w*'s line for that label) and never changes the
game.

Everything a rule decides is decided in exact arithmetic:

* points lie on the grid (i/64, j/64) (``GRID``): a power of two, so the float Perceptron of ``olc_core.run``
  computes every score and every weight exactly (small integers over 64 and 64²) and decides the score-0 tie
  as exact arithmetic would;
* w* is a rational unit vector (p/r, q/r) with p² + q² = r² (``DIRECTIONS``: the Pythagorean directions), γ
  and R are exact fractions (settings given as decimals), so ‖x‖ ≤ R and y⟨w*, x⟩ ≥ γ are integer comparisons.

The game's trace *is* a Perceptron run: :meth:`PerceptronGame.play` runs ``olc_core.run("perceptron", X, y,
comparator=w*, gamma=γ)`` on the accepted moves, so the proof's own series, checks and assumption checks
(``trace.proof.failed_assumptions``) and the transcript are those of any run. On top of the run the game says
what the theorem still allows (⌊R²/γ²⌋ − M), what the same argument allows from the current w (the sandwich
started from ⟨w*, w⟩ and ‖w‖ instead of 0), and whether any admissible move can still be a mistake (a search
of every admissible grid point: when none can, w never changes again and the learner makes no further
mistake in this game).

>>> g = PerceptronGame.make("36.87", gamma="0.25", radius="1")
>>> g.bound, g.refusal(Move(0, 4, 1)).kind, g.refusal(Move(64, 0, -1)).kind, g.refusal(Move(64, 64, 1)).kind
(16, 'band', 'side', 'outside')
>>> s = g.play([Move(16, 60, 1), Move(60, -20, 1)])
>>> s.M, s.trace.proof.failed_assumptions, s.theorem_left, s.can_err
(2, [], 14, False)
>>> g.play([Move(48, 36, 1)]).can_err          # w = (0.75, 0.5625) points along w*: no admissible point errs
False
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cached_property
from typing import Sequence

import numpy as np

from .. import learners
from ._numbers import Fraction, as_fraction, decimal_text, pair

__all__ = ["GRID", "MAX_MOVES", "DIRECTIONS", "Move", "Refusal", "PerceptronGame", "GameState", "direction_key",
           "parse_moves", "encode_moves"]

#: Grid points per unit: points are (i/GRID, j/GRID), exact in binary floating point.
GRID = 64
#: A game keeps at most this many moves (a link carries them all).
MAX_MOVES = 80
#: The largest radius a game takes (the grid of admissible points stays small: about π(R·GRID)² points).
MAX_RADIUS = Fraction(4)


def _pythagorean() -> list[tuple[int, int, int]]:
    """Every (p, q, r) with p² + q² = r², gcd 1, r ≤ 41, in the four quadrants, and the axes."""
    prim = [(1, 0, 1)]
    for r in range(2, 42):
        for p in range(1, r):
            q2 = r * r - p * p
            q = math.isqrt(q2)
            if q * q == q2 and q > 0 and math.gcd(p, q) == 1:
                prim.append((p, q, r))
    out = set()
    for p, q, r in prim:
        for a, b in ((p, q), (-q, p), (-p, -q), (q, -p)):
            out.add((a, b, r))
    return sorted(out, key=lambda v: math.atan2(v[1], v[0]) % (2 * math.pi))


def direction_key(v: tuple[int, int, int]) -> str:
    """The direction's angle in degrees, two decimals: its name in a link (``ws=36.87``)."""
    return f"{math.degrees(math.atan2(v[1], v[0])) % 360:.2f}"


#: The unit comparators a game may fix, by the name a link uses (the angle in degrees): rational unit vectors.
DIRECTIONS: dict[str, tuple[int, int, int]] = {direction_key(v): v for v in _pythagorean()}


@dataclass(frozen=True)
class Move:
    """The point (i/GRID, j/GRID) with label ±1."""
    i: int
    j: int
    label: int

    def x(self) -> tuple[float, float]:
        return (self.i / GRID, self.j / GRID)


@dataclass(frozen=True)
class Refusal:
    """Why a move is not admissible: ``kind`` is "outside", "band", "side" (or "full": the game holds its last move); ``text`` says it with the numbers."""
    kind: str
    text: str


def encode_moves(moves: Sequence[Move]) -> str:
    """``"48:36:1,-40:30:-1"``: each move i:j:y is the point (i/64, j/64) with label y = ±1 (no "+": a URL's query
    reads it as a space)."""
    return ",".join(f"{m.i}:{m.j}:{m.label}" for m in moves)


def parse_moves(text: str) -> list[Move]:
    """The moves of ``encode_moves``; ValueError naming the first one that is not a move."""
    text = (text or "").strip()
    if not text:
        return []
    out = []
    for n, tok in enumerate(text.split(","), 1):
        parts = tok.strip().split(":")
        try:
            if len(parts) != 3 or parts[2] not in ("+", "-", "1", "-1"):
                raise ValueError
            out.append(Move(int(parts[0]), int(parts[1]), 1 if parts[2] in ("+", "1") else -1))
        except ValueError:
            raise ValueError(f"move {n} ({tok.strip()[:20]!r}) is not a point and a label like '48:36:1'") from None
        if abs(out[-1].i) > MAX_RADIUS * GRID or abs(out[-1].j) > MAX_RADIUS * GRID:
            raise ValueError(f"move {n} lies far outside every disc a game allows")
    if len(out) > MAX_MOVES:
        raise ValueError(f"{len(out)} moves; a game keeps at most {MAX_MOVES}")
    return out


@dataclass(frozen=True)
class PerceptronGame:
    """The rules: w* = (p/r, q/r), γ and R exact; ``hidden``: w* is not drawn until the end (the rules do not change)."""
    p: int
    q: int
    r: int
    gamma: Fraction
    radius: Fraction
    hidden: bool = False

    @classmethod
    def make(cls, direction: str, gamma, radius, hidden: bool = False) -> "PerceptronGame":
        """A game from a direction's name (``DIRECTIONS``) and γ, R as decimals; ValueError for an unknown direction."""
        if direction not in DIRECTIONS:
            raise ValueError(f"w* at {direction}° is not one of the game's directions")
        p, q, r = DIRECTIONS[direction]
        return cls(p, q, r, as_fraction(gamma), as_fraction(radius), hidden)

    # ------------------------------------------------------------------ the setting
    @property
    def wstar(self) -> np.ndarray:
        return np.array([self.p / self.r, self.q / self.r])

    @property
    def direction(self) -> str:
        return direction_key((self.p, self.q, self.r))

    @property
    def bound(self) -> int | None:
        """⌊R²/γ²⌋, exactly; None when the setting is impossible."""
        if self.problem is not None:
            return None
        b = self.radius ** 2 / self.gamma ** 2
        return b.numerator // b.denominator

    @property
    def bound_exact(self) -> Fraction:
        return self.radius ** 2 / self.gamma ** 2

    @cached_property
    def problem(self) -> str | None:
        """Why no game can be played with this setting (a sentence), or None."""
        g, R = self.gamma, self.radius
        if g <= 0 or R <= 0:
            return f"γ and R must be positive (γ = {decimal_text(g, 6)}, R = {decimal_text(R, 6)})"
        if R > MAX_RADIUS:
            return f"R = {decimal_text(R, 6)} is larger than a game's board allows (R ≤ {decimal_text(MAX_RADIUS, 3)})"
        if g > R:
            sg, sR = pair(g, R, ">")
            return (f"a margin γ = {sg} is impossible in a disc of radius R = {sR}: every point has "
                    f"|⟨w*, x⟩| ≤ ‖w*‖‖x‖ ≤ R < γ, so no point and label meet y⟨w*, x⟩ ≥ γ (lower γ or raise R)")
        if len(self.cap) == 0 and g == R:
            return (f"with γ = {decimal_text(g, 6)} = R no point of the grid (steps of 1/{GRID}) meets "
                    f"‖x‖ ≤ R and y⟨w*, x⟩ ≥ γ: only x = ±R·w* does, and it is not on the grid (lower γ)")
        if len(self.cap) == 0:      # γ just below R: the caps where the rules hold are too thin for the grid
            sg, sR = pair(g, R, "<")
            return (f"with γ = {sg} and R = {sR} no point of the grid (steps of 1/{GRID}) meets ‖x‖ ≤ R and "
                    f"y⟨w*, x⟩ ≥ γ: the points that do fill two caps of the disc, R − γ = {decimal_text(R - g, 6)} "
                    "deep, and no grid point lies in them (lower γ or raise R)")
        return None

    @cached_property
    def cap(self) -> np.ndarray:
        """Every admissible move as z = y·x in grid units, (n, 2) int64: ‖z‖ ≤ R and ⟨w*, z⟩ ≥ γ (point z with
        label +1, or −z with label −1)."""
        if self.gamma <= 0 or self.radius <= 0 or self.radius > MAX_RADIUS:
            return np.zeros((0, 2), np.int64)
        n = int(self.radius * GRID)
        i, j = (a.ravel() for a in np.meshgrid(np.arange(-n, n + 1), np.arange(-n, n + 1), indexing="ij"))
        Rn, Rd = self.radius.numerator, self.radius.denominator
        gn, gd = self.gamma.numerator, self.gamma.denominator
        ok = (i * i + j * j) * (Rd * Rd) <= (Rn * GRID) ** 2
        ok &= (self.p * i + self.q * j) * gd >= gn * self.r * GRID
        return np.stack([i[ok], j[ok]], axis=1).astype(np.int64)

    # ------------------------------------------------------------------ one move
    def margin(self, m: Move) -> Fraction:
        """y⟨w*, x⟩ exactly."""
        return Fraction(m.label * (self.p * m.i + self.q * m.j), self.r * GRID)

    def norm2(self, m: Move) -> Fraction:
        return Fraction(m.i * m.i + m.j * m.j, GRID * GRID)

    def refusal(self, m: Move) -> Refusal | None:
        """None when the move is admissible, else why not (the first rule it breaks: the disc, the band, the side)."""
        if m.label not in (1, -1):
            raise ValueError("a label is +1 or −1")
        n2, R = self.norm2(m), self.radius
        if n2 > R * R:
            a, b = pair(_sqrt_down(n2), R, ">")
            return Refusal("outside", f"outside the disc: ‖x‖ = {a} > R = {b}")
        s = self.margin(m)
        inner = s * m.label          # ⟨w*, x⟩
        if abs(inner) < self.gamma:
            a, b = pair(abs(inner), self.gamma, "<")
            return Refusal("band", f"inside the band: |⟨w*, x⟩| = {a} < γ = {b}, so neither label has margin γ")
        if s < 0:
            a, b = pair(s, -self.gamma, "<=")
            other = "−1" if m.label > 0 else "+1"
            return Refusal("side", f"the wrong side: y⟨w*, x⟩ = {a} ≤ −γ = {b}; on this side of w*'s line a point's "
                                   f"label is {other}")
        return None

    def play(self, moves: Sequence[Move]) -> "GameState":
        """The game after these moves; ValueError (naming the move) if one is refused or the setting is impossible."""
        if self.problem is not None:
            raise ValueError(self.problem)
        for n, m in enumerate(moves, 1):
            why = self.refusal(m)
            if why is not None:
                raise ValueError(f"move {n} is refused: {why.text}")
        return GameState(self, tuple(moves))

    def admissible_prefix(self, moves: Sequence[Move]) -> tuple[list[Move], str | None]:
        """The moves up to the first refused one, and why that one was refused (None when all are admissible)."""
        for n, m in enumerate(moves):
            why = self.refusal(m)
            if why is not None:
                return list(moves[:n]), f"move {n + 1} is refused: {why.text}"
        return list(moves), None


def _sqrt_down(v: Fraction) -> Fraction:
    """√v rounded down to 12 decimals (a grid point's ‖x‖ is beyond R by far more than 1e-12 when it is beyond R:
    ‖x‖² − R² is a fraction with a small denominator)."""
    return Fraction(math.isqrt(v.numerator * 10 ** 24 // v.denominator), 10 ** 12)


@dataclass(frozen=True)
class GameState:
    """The game after its moves: the Perceptron's run on them (``trace``, None before the first move) and what
    the theorem and the search over admissible moves say about the next ones."""
    game: PerceptronGame
    moves: tuple[Move, ...]

    @property
    def T(self) -> int:
        return len(self.moves)

    @cached_property
    def X(self) -> np.ndarray:
        return np.array([m.x() for m in self.moves], dtype=np.float64).reshape(-1, 2)

    @cached_property
    def y(self) -> np.ndarray:
        return np.array([float(m.label) for m in self.moves])

    @cached_property
    def trace(self):
        """``olc_core.run("perceptron", …)`` on the moves with the game's w* and γ (None before a move)."""
        if not self.moves:
            return None
        return learners.run("perceptron", self.X, self.y, comparator=self.game.wstar, gamma=float(self.game.gamma))

    @cached_property
    def W(self) -> np.ndarray:
        """The learner's weights in grid units (integers: w = W/GRID), replayed exactly from the moves."""
        W = np.zeros(2, np.int64)
        for m in self.moves:
            if m.label * (W[0] * m.i + W[1] * m.j) <= 0:
                W = W + m.label * np.array([m.i, m.j], np.int64)
        return W

    def then(self, m: Move) -> "GameState | Refusal":
        """The game after one more move, or the move's :class:`Refusal` (this state is unchanged either way)."""
        why = self.game.refusal(m)
        if why is not None:
            return why
        if self.T >= MAX_MOVES:
            return Refusal("full", f"a game keeps at most {MAX_MOVES} moves")
        return GameState(self.game, self.moves + (m,))

    @property
    def M(self) -> int:
        return 0 if self.trace is None else int(self.trace.n_mistakes)

    @property
    def theorem_left(self) -> int:
        """⌊R²/γ²⌋ − M: the mistakes the theorem still allows."""
        return int(self.game.bound) - self.M

    def predicts(self, m: Move) -> int:
        """The learner's answer on the point of ``m``: sign⟨w, x⟩ ∈ {−1, 0, +1} (0: on the line, a mistake)."""
        return int(np.sign(self.W[0] * m.i + self.W[1] * m.j))

    def errs(self, m: Move) -> bool:
        return m.label * (self.W[0] * m.i + self.W[1] * m.j) <= 0

    @cached_property
    def mistake_moves(self) -> np.ndarray:
        """Every admissible z = y·x (grid units) on which the learner errs now: ⟨w, z⟩ ≤ 0."""
        cap = self.game.cap
        return cap[cap @ self.W <= 0]

    @property
    def can_err(self) -> bool:
        """Whether some admissible move is still a mistake; False: w never changes again in this game."""
        return len(self.mistake_moves) > 0

    @cached_property
    def inner(self) -> Fraction:
        """⟨w*, w⟩ exactly."""
        return Fraction(int(self.game.p * self.W[0] + self.game.q * self.W[1]), self.game.r * GRID)

    @cached_property
    def norm2(self) -> Fraction:
        """‖w‖² exactly."""
        return Fraction(int(self.W @ self.W), GRID * GRID)

    @cached_property
    def argument_left(self) -> int:
        """The largest m for which m more mistakes fit the proof's argument started from the current w: each adds
        at least γ to ⟨w*, w⟩ and at most R² to ‖w‖², and ⟨w*, w⟩ ≤ ‖w‖; so I + mγ ≤ √(N² + mR²) (I = ⟨w*, w⟩,
        N = ‖w‖). Never more than ``theorem_left``."""
        return argument_room(self.inner, self.norm2, self.game.gamma, self.game.radius)


def argument_room(inner: Fraction, norm2: Fraction, gamma: Fraction, radius: Fraction) -> int:
    """The largest integer m ≥ 0 with I + mγ ≤ 0 or (I + mγ)² ≤ N² + mR² (exact)."""
    def fits(m: int) -> bool:
        lo = inner + m * gamma
        return lo <= 0 or lo * lo <= norm2 + m * radius * radius
    hi = 1
    while fits(hi):
        hi *= 2
    lo = 0
    if not fits(0):
        return -1
    while hi - lo > 1:          # fits(lo), not fits(hi); the set of m that fit is an interval from 0
        mid = (lo + hi) // 2
        lo, hi = (mid, hi) if fits(mid) else (lo, mid)
    return lo
