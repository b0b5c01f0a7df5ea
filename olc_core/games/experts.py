"""Beat the bound: Weighted Majority, Randomised WM and Halving against a student (or the computer) who sets every
expert's advice and the outcome [000, 001].

The game fixes, at the start, N experts, the learner and its rate, and a budget m* of mistakes for the best
expert (Halving: m* = 0, some expert consistent with every outcome). A move (advice a ∈ {±1}^N, outcome y) is
admissible iff afterwards some expert has made at most m* mistakes — the theorem's assumption, so every accepted
sequence meets M ≤ (ln N + m* ln(1/β))/ln(2/(1+β)) (WM), E[M] ≤ (ln N + m* ln(1/(1−η)))/η (RWM) or
M ≤ log₂ N (Halving) with the game's m* (the run's proof uses the best expert's actual count, at most m*).

Exact where a rule decides: a deterministic learner's weights are β^{c_i} (c_i: the rounds where expert i was
wrong and the weights were updated), compared as fractions (β read as the float it is, as the learner reads
it), so "no admissible move can be a mistake any more" is decided exactly: the learner errs on a move iff the
experts advising against the outcome weigh at least as much as those advising it (a tie predicts +1), and some
expert must stay within the budget.

The computer's adversary: for WM and Halving, the experts that may be wrong are split so that the wrong side
just outweighs the right (the learner errs while losing as little weight as it can — the halving split of
:func:`olc_core.streams.halving_adversary`, by weight); for RWM, the split (the wrong side's share of the weight) that,
played to the end of the game, collects the most expected mistakes (:func:`_spread`).

>>> g = ExpertsGame.make("halving", N=8)
>>> s = computer_game(g)
>>> s.M, g.cap, s.can_err, s.trace.proof.failed_assumptions
(3, 3, False, [])
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
from .._support.words import count

__all__ = ["EMove", "ExpertsGame", "ExpertsState", "LEARNERS", "encode", "parse", "computer_move", "computer_game",
           "random_game", "MAX_MOVES"]

MAX_MOVES = 60
LEARNERS = ("weighted_majority", "randomized_weighted_majority", "halving")


@dataclass(frozen=True)
class EMove:
    """Each expert's advice (±1) and the outcome (±1)."""
    advice: tuple[int, ...]
    outcome: int


def encode(moves: Sequence[EMove]) -> str:
    """``"+-+:-,++-:+"``: the advice of each expert, then the outcome."""
    sign = lambda v: "+" if v > 0 else "-"  # noqa: E731
    return ",".join("".join(map(sign, m.advice)) + ":" + sign(m.outcome) for m in moves)


def parse(text: str, N: int) -> list[EMove]:
    """The moves of :func:`encode` (a "+" read as a space from a URL's query is a "+" too)."""
    text = (text or "").strip()
    if not text:
        return []
    out = []
    for n, tok in enumerate(text.split(","), 1):
        adv, _, y = tok.replace(" ", "+").strip().partition(":")
        if not adv or set(adv) - {"+", "-"} or y not in ("+", "-"):
            raise ValueError(f"move {n} ({tok.strip()[:40]!r}) is not advice and an outcome like '+-+:-'")
        if len(adv) != N:
            raise ValueError(f"move {n} has advice from {len(adv)} experts but N = {N}")
        out.append(EMove(tuple(1 if c == "+" else -1 for c in adv), 1 if y == "+" else -1))
    if len(out) > MAX_MOVES:
        raise ValueError(f"{len(out)} moves; a game keeps at most {MAX_MOVES}")
    return out


@dataclass(frozen=True)
class ExpertsGame:
    learner: str
    N: int
    rate: float = 0.5          # β for WM, η for RWM (unused by Halving)
    budget: int = 0            # m*: the best expert's mistakes at most (Halving: 0)
    update: str = "on_mistake"

    @classmethod
    def make(cls, learner: str, N: int, rate: float = 0.5, budget: int = 0, update: str = "on_mistake"):
        if learner not in LEARNERS:
            raise ValueError(f"unknown learner {learner!r}")
        if not 2 <= int(N) <= 16:
            raise ValueError(f"N must be in 2–16 (got {N})")
        if learner != "halving" and not 0 < float(rate) < 1:
            raise ValueError(f"the rate must be in (0, 1) (got {rate})")
        return cls(learner, int(N), float(rate), 0 if learner == "halving" else int(budget), update)

    @property
    def deterministic(self) -> bool:
        return self.learner != "randomized_weighted_majority"

    @property
    def beta(self) -> float:
        return 0.0 if self.learner == "halving" else self.rate if self.learner == "weighted_majority" else 1 - self.rate

    @cached_property
    def bound(self) -> float:
        """The theorem's bound with the game's m*."""
        N, m = self.N, self.budget
        if self.learner == "halving":
            return math.log2(N)
        if self.learner == "weighted_majority":
            b = self.rate
            return (math.log(N) + m * math.log(1 / b)) / math.log(2 / (1 + b))
        return (math.log(N) + m * math.log(1 / (1 - self.rate))) / self.rate

    @cached_property
    def cap(self) -> int | None:
        """The largest M the bound allows, for a deterministic learner (⌊bound⌋, exact: Halving ⌊log₂ N⌋; WM to 50
        digits, then exactly when the bound is within 1e-30 of an integer); None for RWM (a bound on E[M])."""
        if self.learner == "halving":
            return self.N.bit_length() - 1
        if self.learner != "weighted_majority":
            return None
        with localcontext() as ctx:
            ctx.prec = 50
            b = Fraction(self.rate)
            num = Decimal(self.N).ln() + self.budget * (1 / _dec(b)).ln()
            B = num / (2 / (1 + _dec(b))).ln()
            n = int(B.to_integral_value())
            if abs(B - n) > Decimal("1e-30"):
                return int(B.to_integral_value(rounding="ROUND_FLOOR"))
        return n if _wm_bound_at_least(self.N, self.budget, b, n) else n - 1

    def refusal(self, state: "ExpertsState", m: EMove) -> str | None:
        """Why the move is refused (no expert would stay within the budget), or None."""
        if len(m.advice) != self.N or m.outcome not in (1, -1) or any(a not in (1, -1) for a in m.advice):
            raise ValueError("a move is N pieces of advice ±1 and an outcome ±1")
        after = state.expert_mistakes + (np.array(m.advice) != m.outcome)
        if after.min() <= self.budget:
            return None
        who = ("be consistent with every outcome" if self.learner == "halving" else
               f"have at most m* = {count(self.budget, 'mistake')}")
        return f"no expert would {who}: the best would have {count(int(after.min()), 'mistake')} (expert " \
               f"{int(after.argmin()) + 1})"

    def play(self, moves: Sequence[EMove]) -> "ExpertsState":
        s = ExpertsState(self, ())
        for n, m in enumerate(moves, 1):
            out = s.then(m)
            if isinstance(out, str):
                raise ValueError(f"move {n} is refused: {out}")
            s = out
        return s

    def admissible_prefix(self, moves: Sequence[EMove]) -> tuple[list[EMove], str | None]:
        s = ExpertsState(self, ())
        for n, m in enumerate(moves):
            out = s.then(m)
            if isinstance(out, str):
                return list(moves[:n]), f"move {n + 1} is refused: {out}"
            s = out
        return list(moves), None


def _dec(f: Fraction) -> Decimal:
    return Decimal(f.numerator) / Decimal(f.denominator)


def _wm_bound_at_least(N: int, m: int, b: Fraction, n: int) -> bool:
    """(ln N + m ln(1/β))/ln(2/(1+β)) ≥ n ⇔ N·β^(−m) ≥ (2/(1+β))^n, exactly."""
    return N * (1 / b) ** m >= (2 / (1 + b)) ** n


@dataclass(frozen=True)
class ExpertsState:
    game: ExpertsGame
    moves: tuple[EMove, ...]

    @property
    def T(self) -> int:
        return len(self.moves)

    @cached_property
    def A(self) -> np.ndarray:
        return np.array([m.advice for m in self.moves], dtype=np.float64).reshape(-1, self.game.N)

    @cached_property
    def y(self) -> np.ndarray:
        return np.array([float(m.outcome) for m in self.moves])

    @cached_property
    def expert_mistakes(self) -> np.ndarray:
        return (self.A != self.y[:, None]).sum(axis=0).astype(np.int64) if self.T else np.zeros(self.game.N, np.int64)

    @cached_property
    def trace(self):
        if not self.moves:
            return None
        g = self.game
        kw = {"halving": {}, "weighted_majority": {"beta": g.rate, "update": g.update},
              "randomized_weighted_majority": {"eta": g.rate, "seed": 0}}[g.learner]
        return learners.run(g.learner, self.A, self.y, **kw)

    @property
    def M(self) -> int:
        return 0 if self.trace is None else int(self.trace.n_mistakes)

    @property
    def expected(self) -> float:
        """RWM: the expected mistakes ΣF_t (the quantity its theorem bounds)."""
        return 0.0 if self.trace is None else float(self.trace.proof.constants.get("expected_mistakes", self.M))

    @cached_property
    def counts(self) -> np.ndarray:
        """c_i: the rounds where expert i was wrong and the weights were updated (w_i = β^{c_i}), exactly."""
        if self.trace is None:
            return np.zeros(self.game.N, np.int64)
        rounds = np.arange(self.T) if (self.game.update == "every_round" or not self.game.deterministic) \
            else np.asarray(self.trace.mistakes)
        return (self.A[rounds] != self.y[rounds, None]).sum(axis=0).astype(np.int64)

    def weights(self) -> list[Fraction]:
        b = Fraction(self.game.beta)
        return [b ** int(c) if not (b == 0 and c == 0) else Fraction(1) for c in self.counts]

    def then(self, m: EMove) -> "ExpertsState | str":
        why = self.game.refusal(self, m)
        if why is not None:
            return why
        if self.T >= MAX_MOVES:
            return f"a game keeps at most {MAX_MOVES} moves"
        return ExpertsState(self.game, self.moves + (m,))

    @property
    def can_err(self) -> bool:
        """Deterministic learners: whether some admissible move is still a mistake (exact); RWM: always True."""
        return _split(self) is not None if self.game.deterministic else True


def _split(state: ExpertsState):
    """A move on which a deterministic learner errs, the wrong side as light as it can be; None if none exists.

    Some expert must end within the budget: if one has room (m_i < m*) none needs protecting; otherwise one expert
    at the budget (the lightest) is right. The others are added to the right side, heaviest first, while the right
    side stays at most half the weight: the learner then follows the wrong side (a tie predicts +1, so the right
    side's advice is −1)."""
    g = state.game
    w = state.weights()
    total = sum(w, Fraction(0))
    mis = state.expert_mistakes
    room = bool((mis < g.budget).any())
    at_budget = [i for i in range(g.N) if mis[i] == g.budget]
    if not room and not at_budget:
        return None
    protect = None if room else min(at_budget, key=lambda i: (w[i], i))
    right, wr = ([protect], w[protect]) if protect is not None else ([], Fraction(0))
    if 2 * wr > total:
        return None
    for i in sorted(range(g.N), key=lambda i: (-w[i], i)):
        if i != protect and 2 * (wr + w[i]) <= total:
            right.append(i)
            wr += w[i]
    advice = tuple(-1 if i in right else 1 for i in range(g.N))
    return EMove(advice, -1)


def computer_move(state: ExpertsState) -> EMove | None:
    """The computer's next move (None when a deterministic learner can err no more, or the game is full)."""
    if state.T >= MAX_MOVES:
        return None
    return _split(state) if state.game.deterministic else _spread(state)


#: RWM's candidate policies: the wrong side's share of the weight (a halving-like split at 0.5)
SHARES = (0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 1.0)


def _rwm_wrong(w: np.ndarray, m: np.ndarray, budget: int, share: float) -> list[int] | None:
    """The experts a split policy makes wrong: the heaviest that fit under ``share`` of the weight (the lightest
    alone if none does), keeping right the lightest expert at the budget when none has room; None if no move is
    admissible."""
    N = len(w)
    room = bool((m < budget).any())
    at = [i for i in range(N) if m[i] == budget]
    if not room and not at:
        return None
    keep = None if room else min(at, key=lambda i: (w[i], i))
    cand = [i for i in range(N) if i != keep]
    W, wrong, cum = float(w.sum()), [], 0.0
    for i in sorted(cand, key=lambda i: (-w[i], i)):
        if cum + w[i] <= share * W:
            wrong.append(i)
            cum += w[i]
    return wrong or [min(cand, key=lambda i: (w[i], i))]


def _rollout(w: np.ndarray, m: np.ndarray, budget: int, eta: float, rounds: int, share: float) -> float:
    """The expected mistakes ΣF_t a split policy collects in ``rounds`` more rounds (RWM's own update)."""
    w, m, total = w.copy(), m.copy(), 0.0
    for _ in range(rounds):
        wrong = _rwm_wrong(w, m, budget, share)
        if wrong is None:
            break
        total += float(w[wrong].sum() / w.sum())
        w[wrong] *= 1 - eta
        m[wrong] += 1
    return total


def _spread(state: ExpertsState) -> EMove:
    """RWM: the move of the split policy (:data:`SHARES`) that collects the most expected mistakes over the rounds
    left of the game, each policy played out to the end with RWM's own update (ties: the first share)."""
    g = state.game
    w = np.array([float(v) for v in state.weights()])
    m = state.expert_mistakes.astype(np.int64)
    rounds = MAX_MOVES - state.T
    best = max(SHARES, key=lambda sh: _rollout(w, m, g.budget, g.rate, rounds, sh))
    wrong = _rwm_wrong(w, m, g.budget, best)
    return EMove(tuple(1 if i in wrong else -1 for i in range(g.N)), -1)


def computer_game(game: ExpertsGame, moves: Sequence[EMove] = (), limit: int = MAX_MOVES) -> ExpertsState:
    s = game.play(moves)
    while s.T < limit:
        m = computer_move(s)
        if m is None:
            break
        s = ExpertsState(game, s.moves + (m,))
    return s


def random_game(game: ExpertsGame, T: int, seed: int) -> ExpertsState:
    """T random admissible moves: random advice and outcome; if that leaves no expert within the budget, the best
    expert's advice is set to the outcome."""
    rng = np.random.default_rng([seed, 37])
    s = game.play([])
    for _ in range(min(T, MAX_MOVES)):
        a = rng.choice([-1, 1], size=game.N)
        y = int(rng.choice([-1, 1]))
        m = EMove(tuple(int(v) for v in a), y)
        if isinstance(s.then(m), str):
            a[int(np.argmin(s.expert_mistakes))] = y
            m = EMove(tuple(int(v) for v in a), y)
        s = ExpertsState(game, s.moves + (m,))
    return s
