"""Beat the bound, the Perceptron game's rules (olc_core/games/perceptron.py) and its computer adversary
(olc_core/games/perceptron_adversary.py), issue 35 §4:

- a move is admissible exactly when ‖x‖ ≤ R and y⟨w*, x⟩ ≥ γ (checked against Fractions, point by point);
- every accepted sequence meets the theorem's assumptions by the proof's own checks
  (``trace.proof.failed_assumptions`` empty, no violation) and M ≤ ⌊R²/γ²⌋ (hypothesis over random admissible play);
- a refused move never changes the game; an impossible setting says why;
- the run's floats are exact on the grid: the core's weights and predictions are the integer replay's;
- "no admissible move is a mistake" is true (every admissible grid point checked) and then no move ever errs;
- the argument's room from the current w never exceeds the theorem's and the game never exceeds it;
- the greedy adversary errs on every move it plays and forces at least as many mistakes as random admissible play.
"""
from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from olc_core.games.perceptron import (DIRECTIONS, GRID, MAX_MOVES, GameState, Move, PerceptronGame, Refusal,
                                       argument_room, encode_moves, parse_moves)
from olc_core.games.perceptron_adversary import greedy_game, greedy_move, random_game, random_move

SETTINGS = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow], max_examples=60)

DIRS = sorted(DIRECTIONS)


@st.composite
def games(draw) -> PerceptronGame:
    R = Fraction(draw(st.integers(2, 8)), 4)                   # 0.5 … 2
    g = Fraction(draw(st.integers(5, 60)), 100) * R            # γ/R in 0.05 … 0.6
    return PerceptronGame.make(draw(st.sampled_from(DIRS)), g, R)


def _admissible(game: PerceptronGame, m: Move) -> bool:
    """The rule straight from the theorem, in Fractions."""
    x = (Fraction(m.i, GRID), Fraction(m.j, GRID))
    w = (Fraction(game.p, game.r), Fraction(game.q, game.r))
    return x[0] ** 2 + x[1] ** 2 <= game.radius ** 2 and m.label * (w[0] * x[0] + w[1] * x[1]) >= game.gamma


def test_directions_are_unit_vectors_in_every_quadrant():
    assert len(DIRECTIONS) >= 40
    for (p, q, r) in DIRECTIONS.values():
        assert p * p + q * q == r * r
    angles = sorted(math.degrees(math.atan2(q, p)) % 360 for p, q, r in DIRECTIONS.values())
    assert max(b - a for a, b in zip(angles, angles[1:] + [angles[0] + 360])) < 20


def test_refusals_say_which_rule_with_numbers():
    g = PerceptronGame.make("36.87", "0.25", "1")           # w* = (0.8, 0.6)
    out = g.refusal(Move(65, 0, 1))
    assert out.kind == "outside" and out.text == "outside the disc: ‖x‖ = 1.016 > R = 1"
    band = g.refusal(Move(0, 4, -1))
    assert band.kind == "band" and "|⟨w*, x⟩| = 0.0375 < γ = 0.25" in band.text
    side = g.refusal(Move(-64, 0, 1))
    assert side.kind == "side" and "y⟨w*, x⟩ = −0.8 ≤ −γ = −0.25" in side.text and "label is −1" in side.text
    assert g.refusal(Move(-64, 0, -1)) is None
    # on the band's edge exactly: admissible (w* = (1, 0), γ = 1/4 = 16/64)
    e = PerceptronGame.make("0.00", "0.25", "1")
    assert e.refusal(Move(16, 40, 1)) is None and e.refusal(Move(15, 40, 1)).kind == "band"
    assert e.refusal(Move(64, 0, 1)) is None and e.refusal(Move(64, 1, 1)).kind == "outside"


def test_printed_numbers_keep_the_relation():
    """A point just outside the disc prints enough digits: never 'R = 1 > R = 1'."""
    g = PerceptronGame.make("0.00", "0.3", "1")
    out = g.refusal(Move(64, 1, 1)).text               # ‖x‖ = 1.000122…
    a, b = out.split("‖x‖ = ")[1].split(" > R = ")
    assert Fraction(a) > Fraction(b) == 1


@pytest.mark.parametrize("gamma,R,words", [("1.5", "1", "impossible in a disc of radius R = 1"),
                                           ("1.01", "1", "γ = 1.01"), ("0", "1", "must be positive"),
                                           ("1", "1", "not on the grid")])
def test_impossible_settings_say_why(gamma, R, words):
    g = PerceptronGame.make("36.87", gamma, R)
    assert g.problem is not None and words in g.problem and g.bound is None
    with pytest.raises(ValueError, match="impossible|positive|grid"):
        g.play([])


def test_a_margin_just_below_the_radius_is_not_called_equal_to_it():
    """γ = 0.999 < R = 1 leaves no grid point in the caps (a link can ask for it): the reason must not say
    "γ = 0.999 = R" nor "only x = ±R·w* does" (a review found both: a whole cap of points meets the rules)."""
    g = PerceptronGame.make("36.87", "0.999", "1")
    assert len(g.cap) == 0 and g.bound is None
    assert "= R" not in g.problem and "±R·w*" not in g.problem
    assert "γ = 0.999 and R = 1" in g.problem and "R − γ = 0.001 deep" in g.problem
    with pytest.raises(ValueError, match="grid"):
        g.play([])


def test_margin_equal_to_radius_on_an_axis_is_a_game():
    g = PerceptronGame.make("90.00", "1", "1")         # only ±(0, 1) are admissible, and they are on the grid
    assert g.problem is None and g.bound == 1 and len(g.cap) == 1
    s = g.play([Move(0, 64, 1), Move(0, -64, -1)])
    assert s.M == 1 and not s.can_err and s.trace.proof.failed_assumptions == []


@SETTINGS
@given(games(), st.lists(st.tuples(st.integers(-140, 140), st.integers(-140, 140), st.sampled_from([1, -1])),
                         max_size=30))
def test_the_rule_is_the_theorems_assumption(game, raw):
    for i, j, lab in raw:
        m = Move(i, j, lab)
        assert (game.refusal(m) is None) == _admissible(game, m), m


@SETTINGS
@given(games(), st.integers(0, 2**31), st.integers(1, MAX_MOVES), st.floats(0, 1))
def test_every_admissible_game_meets_the_theorem(game, seed, T, greedy_share):
    """Random admissible play mixed with the greedy adversary: the proof's own assumption checks find nothing,
    no inequality fails, and M ≤ ⌊R²/γ²⌋ — with the game's R, and with the run's measured R."""
    rng = np.random.default_rng(seed)
    state = game.play([])
    for _ in range(T):
        m = greedy_move(state) if rng.random() < greedy_share else None
        nxt = state.then(m or random_move(game, rng))
        assert not isinstance(nxt, Refusal)
        state = nxt
    p = state.trace.proof
    assert p.failed_assumptions == [] and p.violations() == []
    assert state.M <= game.bound and state.theorem_left >= 0
    assert state.M <= p.mistake_bound * (1 + 1e-12)
    assert p.constants["radius"] <= float(game.radius) and p.constants["gamma"] == float(game.gamma)
    _exact_replay(state)


def _exact_replay(state: GameState) -> None:
    """The core's float run is exact on the grid: its weights are the integer replay's, its predictions the
    exact signs (a score of 0 included)."""
    tr = state.trace
    assert np.array_equal(np.asarray(tr.weights_at(tr.T)) * GRID, state.W)
    W = np.zeros(2, np.int64)
    for t, m in enumerate(state.moves):
        s = int(W[0] * m.i + W[1] * m.j)
        assert int(tr.predictions[t]) == (s > 0) - (s < 0)
        assert tr.columns["score"][t] * GRID * GRID == s
        if m.label * s <= 0:
            W = W + m.label * np.array([m.i, m.j])


def test_a_refused_move_never_changes_the_game():
    g = PerceptronGame.make("36.87", "0.25", "1")
    s = g.play([Move(16, 60, 1)])
    before = (s.moves, s.W.tolist(), s.M)
    for bad in (Move(0, 0, 1), Move(100, 0, 1), Move(-64, 0, 1)):
        out = s.then(bad)
        assert isinstance(out, Refusal)
        assert (s.moves, s.W.tolist(), s.M) == before
    with pytest.raises(ValueError, match="move 2 is refused: inside the band"):
        g.play([Move(16, 60, 1), Move(0, 0, 1)])
    kept, why = g.admissible_prefix([Move(16, 60, 1), Move(0, 0, 1), Move(60, -20, 1)])
    assert kept == [Move(16, 60, 1)] and why.startswith("move 2 is refused")
    full = g.play([Move(16, 60, 1)] * MAX_MOVES)
    assert full.then(Move(16, 60, 1)).kind == "full"


@pytest.mark.parametrize("direction,gamma,R", [("0.00", "0.25", "0.5"), ("36.87", "0.2", "0.75"),
                                               ("118.07", "0.1", "0.5")])
def test_no_admissible_mistake_is_checked_on_every_point(direction, gamma, R):
    """can_err is the truth over every admissible grid point and label (Fractions), along a greedy game and a
    random one; once False, no admissible move errs and random play makes no further mistake."""
    game = PerceptronGame.make(direction, gamma, R)
    n = int(game.radius * GRID)
    pts = [(i, j) for i in range(-n, n + 1) for j in range(-n, n + 1)]
    for state in (greedy_game(game), random_game(game, 40, 3)):
        for t in range(state.T + 1):
            s = game.play(state.moves[:t])
            w = (int(s.W[0]), int(s.W[1]))
            exists = any(_admissible(game, Move(i, j, lab)) and lab * (w[0] * i + w[1] * j) <= 0
                         for i, j in pts for lab in (1, -1))
            assert s.can_err == exists, t
    final = greedy_game(game)
    assert not final.can_err
    after = game.play(list(final.moves) + list(random_game(game, 30, 9).moves))
    assert after.M == final.M


def test_the_arguments_room_from_here():
    """From the current w the argument allows at most ⌊R²/γ²⌋ − M more; the game then never makes more."""
    for direction, gamma in (("0.00", "0.1"), ("36.87", "0.2"), ("208.07", "0.15")):
        game = PerceptronGame.make(direction, gamma, "1")
        final = greedy_game(game)
        for t in range(final.T + 1):
            s = game.play(final.moves[:t])
            assert 0 <= s.argument_left <= s.theorem_left
            assert final.M - s.M <= s.argument_left
        assert game.play([]).argument_left == game.bound
    assert argument_room(Fraction(0), Fraction(0), Fraction(1, 4), Fraction(1)) == 16
    # I = 1, N² = 1 (w = w*), γ = ½, R = 1: (1 + m/2)² ≤ 1 + m ⇔ m²/4 ≤ 0: m = 0
    assert argument_room(Fraction(1), Fraction(1), Fraction(1, 2), Fraction(1)) == 0


@pytest.mark.parametrize("gamma", ["0.1", "0.2", "0.3"])
@pytest.mark.parametrize("direction", ["0.00", "36.87", "151.93", "286.26"])
def test_the_computer_forces_at_least_as_many_mistakes_as_random_play(direction, gamma):
    game = PerceptronGame.make(direction, gamma, "1")
    comp = greedy_game(game)
    assert comp.M == comp.T                               # a mistake on every move it plays
    assert not comp.can_err or comp.T == MAX_MOVES
    assert comp.trace.proof.failed_assumptions == [] and comp.M <= game.bound
    for seed in range(12):
        rnd = random_game(game, comp.T, seed)
        assert comp.M >= rnd.M, seed
        longer = random_game(game, MAX_MOVES, 100 + seed)
        assert comp.M >= longer.M, seed


def test_the_computer_continues_a_game():
    game = PerceptronGame.make("36.87", "0.1", "1")
    start = [Move(16, 60, 1), Move(60, -20, 1)]
    s = greedy_game(game, start)
    assert s.moves[:2] == tuple(start) and s.M == s.T and not s.can_err
    assert greedy_move(s) is None


def test_moves_round_trip_and_bad_links():
    moves = [Move(48, 36, 1), Move(-40, 30, -1), Move(0, -64, 1)]
    assert parse_moves(encode_moves(moves)) == moves and encode_moves(moves) == "48:36:1,-40:30:-1,0:-64:1"
    assert parse_moves("") == [] and parse_moves("1:2:+,3:4:-") == [Move(1, 2, 1), Move(3, 4, -1)]
    for bad, words in (("1:2", "move 1"), ("1:2:+,x:1:-", "move 2"), ("1:2:3", "move 1"),
                       ("9999:0:+", "far outside"), (",".join(["1:1:+"] * (MAX_MOVES + 1)), "at most")):
        with pytest.raises(ValueError, match=words):
            parse_moves(bad)
