"""Beat the bound, the Halving game's rules (olc_core/games/halving.py), issue 35 §4: every accepted sequence meets the
theorem's assumption (realisable) by the proof's own checks and the bound holds (hypothesis over random admissible
play mixed with the computer's moves, every class); the game's exact replay is the core run's; a refused move never
changes the game; "no admissible move can be a mistake any more" is the truth (every instance tried against the core
run); the computer forces at least as many mistakes as random admissible play, and as many as any admissible sequence
(brute force on small classes)."""
from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import olc_core
from olc_core.games import halving as Hg

SETTINGS = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow], max_examples=40)
GAMES = st.one_of(st.tuples(st.sampled_from(["thresholds", "halfplanes"]), st.integers(2, 64), st.just(3)),
                  st.tuples(st.sampled_from(["conj", "disj"]), st.just(8), st.integers(1, 6)))


@SETTINGS
@given(GAMES, st.integers(0, 2**20), st.integers(1, 40), st.floats(0, 1))
def test_every_halving_game_meets_the_theorem(cls_K_n, seed, T, share):
    cls, K, n = cls_K_n
    g = Hg.HalvingGame.make(cls, K, n, seed)
    rng = np.random.default_rng(seed)
    s = g.play([])
    for _ in range(T):
        m = Hg.computer_move(s) if rng.random() < share else None
        if m is None:
            j = int(rng.integers(len(g.plus)))
            m = Hg.HMove(j, g.target_label(j))
        s = s.then(m)
        assert not isinstance(s, str)
    p = s.trace.proof
    assert p.failed_assumptions == [] and p.violations() == []
    assert s.M == s.trace.n_mistakes <= g.cap <= math.log2(g.H.size) < p.mistake_bound + 1e-9
    # the game's exact replay is the core run's: predictions, mistakes, the version space's size
    _, preds, mistakes = s.replay
    assert preds == s.trace.predictions.astype(int).tolist() and mistakes == s.trace.mistakes.tolist()
    assert s.size == int(p.series["size"][-1]) and (s.version_space >> g.target) & 1
    assert s.M + s.argument_left <= g.cap


def test_halving_refusals_change_nothing():
    g = Hg.HalvingGame.make("thresholds", 16, seed=0)          # h*: x ≥ 0.53125
    s = g.play([Hg.HMove(16, 1)])
    before = (s.moves, s.M, s.version_space)
    for bad in (Hg.HMove(0, 1), Hg.HMove(16, -1)):
        out = s.then(bad)
        assert isinstance(out, str) and out.startswith("the label must be")
        assert (s.moves, s.M, s.version_space) == before
    assert "x ≥ 0.53125" in s.then(Hg.HMove(0, 1))
    hidden = Hg.HalvingGame.make("thresholds", 16, seed=0, hidden=True)
    assert hidden.refusal(Hg.HMove(0, 1)) == "the label must be −1: the target h* labels x = 0 −1"
    with pytest.raises(ValueError, match="move 1 is refused: the label must be −1"):
        g.play([Hg.HMove(0, 1)])
    kept, why = g.admissible_prefix([Hg.HMove(16, 1), Hg.HMove(0, 1), Hg.HMove(1, -1)])
    assert kept == [Hg.HMove(16, 1)] and why.startswith("move 2 is refused")
    with pytest.raises(ValueError, match="instance 17 is not among the 17"):
        Hg.parse("17:+", 17)
    assert Hg.parse("3: ,4:-", 17) == [Hg.HMove(3, 1), Hg.HMove(4, -1)]     # a '+' read from a URL as a space
    assert Hg.encode(Hg.parse("3:+,4:-", 17)) == "3:+,4:-"
    with pytest.raises(ValueError, match="K must be in 2–64"):
        Hg.HalvingGame.make("halfplanes", 65)


@pytest.mark.parametrize("cls,K,n,seed", [("thresholds", 16, 1, 0), ("halfplanes", 12, 1, 3), ("conj", 2, 4, 1),
                                          ("disj", 2, 4, 2), ("halfplanes", 64, 1, 5)])
def test_no_further_mistake_is_the_truth(cls, K, n, seed):
    """can_err against every instance of the domain, along the computer's game: the core run on the moves then that
    instance (with h*'s label) errs on it iff the game says some instance errs."""
    g = Hg.HalvingGame.make(cls, K, n, seed)
    comp = Hg.computer_game(g)
    assert not comp.can_err
    for t in range(comp.T + 1):
        s = g.play(comp.moves[:t])
        erring = []
        for j in range(len(g.plus)):
            X = np.vstack([s.X, g.D[j:j + 1]])
            y = np.append(s.y, g.target_label(j))
            tr = olc_core.run("halving", X, y, hypotheses=g.H, update="on_mistake")
            if s.T in tr.mistakes.tolist():
                erring.append(j)
        assert erring == s.mistake_instances and s.can_err == bool(erring), (t, erring)


@pytest.mark.parametrize("cls,K,n", [("thresholds", 16, 1), ("halfplanes", 24, 1), ("conj", 2, 5), ("disj", 2, 5),
                                     ("thresholds", 64, 1), ("halfplanes", 64, 1), ("conj", 2, 6)])
def test_the_computer_forces_at_least_random_play(cls, K, n):
    for seed in range(6):
        g = Hg.HalvingGame.make(cls, K, n, seed)
        comp = Hg.computer_game(g)
        assert comp.trace is None or comp.trace.proof.failed_assumptions == []
        assert comp.M <= g.cap
        for r in range(5):
            assert Hg.random_game(g, 60, 100 * seed + r).M <= comp.M, (seed, r)


@pytest.mark.parametrize("cls,K,n", [("thresholds", 4, 1), ("thresholds", 7, 1), ("halfplanes", 4, 1),
                                     ("halfplanes", 5, 1), ("conj", 2, 2), ("conj", 2, 3), ("disj", 2, 3)])
def test_the_computer_forces_as_many_as_any_sequence(cls, K, n):
    """Brute force: every sequence of ⌊log₂|H|⌋ admissible moves (a round Halving gets right changes nothing, so a
    longer one forces no more) against the core run; the computer's game reaches the maximum."""
    for seed in range(3):
        g = Hg.HalvingGame.make(cls, K, n, seed)
        best = 0
        for js in itertools.product(range(len(g.plus)), repeat=g.cap):
            X = g.D[list(js)].reshape(len(js), g.H.dim)
            y = np.array([g.target_label(j) for j in js], dtype=float)
            best = max(best, olc_core.run("halving", X, y, hypotheses=g.H, update="on_mistake").n_mistakes)
        assert Hg.computer_game(g).M == best, (cls, K, n, seed)
