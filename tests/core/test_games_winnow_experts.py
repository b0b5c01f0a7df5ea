"""Beat the bound, the Winnow and experts games' rules (olc_core/games/winnow.py, olc_core/games/experts.py), issue 35 §4:
every accepted sequence meets the theorem's assumptions by the proof's own checks and the bound holds (hypothesis
over random admissible play mixed with the computer's moves); a refused move never changes the game; "no admissible
move can be a mistake any more" is the truth (checked over every admissible move on small games); the caps are the
largest integers the bounds allow (exactly); the computer forces at least as many mistakes as random admissible play.
"""
from __future__ import annotations

import itertools
import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from olc_core.games import experts as E
from olc_core.games import winnow as Wn
from olc_core.proofs.winnow import bound as winnow_bound

SETTINGS = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow], max_examples=40)


# ------------------------------------------------------------------------------------------ Winnow

@pytest.mark.parametrize("beta,N,k", [(1.0, 8, 1), (1.0, 16, 2), (1.0, 32, 3), (0.5, 12, 2), (2.0, 9, 1), (2.0, 27, 2),
                                      (3.0, 16, 1), (0.25, 20, 4), (1.0, 1024, 2)])
def test_winnow_cap_is_the_largest_integer_below_the_bound(beta, N, k):
    c = Wn.cap(beta, N, k)
    B = winnow_bound(beta, N, k)
    assert c < B + 1e-9 and c + 1 >= B - 1e-9
    if abs(B - round(B)) < 1e-9:            # the bound is an integer (β = 1, N a power of 2; β = 2, N a power of 3)
        assert c == round(B) - 1           # M < B strictly


def test_winnow_refusals():
    g = Wn.WinnowGame.make(8, 1, 1.0, 0)          # the target: x₅
    assert g.relevant == (4,)
    s = g.play([Wn.WMove((1, 0, 0, 0, 1, 0, 0, 0), 1)])
    before = (s.moves, s.M, s.exponents.tolist())
    for bad in (Wn.WMove((0, 0, 0, 0, 1, 0, 0, 0), 0), Wn.WMove((1, 1, 0, 0, 0, 0, 0, 0), 1)):
        out = s.then(bad)
        assert isinstance(out, str) and out.startswith("the label must be")
        assert (s.moves, s.M, s.exponents.tolist()) == before
    with pytest.raises(ValueError, match="move 1 is refused: the label must be 0"):
        g.play([Wn.WMove((1, 0, 0, 0, 0, 0, 0, 0), 1)])
    with pytest.raises(ValueError, match="has 3 variables but N = 8"):
        Wn.parse("101:1", 8)


@SETTINGS
@given(st.integers(8, 20), st.integers(1, 3), st.sampled_from([0.5, 1.0, 2.0]), st.integers(0, 2**20),
       st.integers(1, 60), st.floats(0, 1))
def test_every_winnow_game_meets_the_theorem(N, k, beta, seed, T, share):
    g = Wn.WinnowGame.make(N, k, beta, seed)
    rng = np.random.default_rng(seed)
    s = g.play([])
    for _ in range(T):
        m = Wn.computer_move(s) if rng.random() < share else None
        if m is None:
            x = tuple(int(b) for b in (rng.random(N) < 0.3))
            m = Wn.WMove(x, g.target_label(x))
        s = s.then(m)
        assert not isinstance(s, str)
    p = s.trace.proof
    assert p.failed_assumptions == [] and p.violations() == []
    assert s.M <= g.cap < p.mistake_bound + 1e-9
    # the exponents are the trace's
    assert np.allclose(np.asarray(s.trace.weights_at(s.T)), (1 + beta) ** s.exponents.astype(float))


@pytest.mark.parametrize("N,k,beta,seed", [(8, 1, 1.0, 0), (8, 2, 1.0, 1), (9, 1, 2.0, 2)])
def test_winnow_no_further_mistake_is_the_truth(N, k, beta, seed):
    """can_err against every one of the 2^N examples, along the computer's game; once False, nothing errs."""
    g = Wn.WinnowGame.make(N, k, beta, seed)
    comp = Wn.computer_game(g)
    X = np.array(list(itertools.product([0, 1], repeat=N)))
    for t in range(comp.T + 1):
        s = g.play(comp.moves[:t])
        w = [(1 + Fraction(beta)) ** int(e) for e in s.exponents]          # exact
        errs = any(int(sum((w[i] for i in range(N) if x[i]), Fraction(0)) > N) != g.target_label(x) for x in X)
        assert s.can_err == errs, t
    assert not comp.can_err
    after = g.play(list(comp.moves) + list(Wn.random_game(g, 40, 5).moves))
    assert after.M == comp.M


@pytest.mark.parametrize("N,k,beta", [(8, 1, 1.0), (12, 2, 1.0), (16, 2, 0.5), (32, 3, 1.0), (20, 4, 2.0)])
def test_winnow_computer_beats_random_play(N, k, beta):
    for seed in range(4):
        g = Wn.WinnowGame.make(N, k, beta, seed)
        comp = Wn.computer_game(g)
        assert comp.M == comp.T and comp.trace.proof.failed_assumptions == [] and comp.M <= g.cap
        for r in range(8):
            assert comp.M >= Wn.random_game(g, Wn.MAX_MOVES, 100 * seed + r).M


# ------------------------------------------------------------------------------------------ experts

@pytest.mark.parametrize("N,beta,m", [(2, 0.5, 0), (4, 0.5, 1), (8, 0.25, 2), (16, 0.5, 0), (3, 0.75, 4), (8, 0.5, 3)])
def test_wm_cap_is_the_floor_of_the_bound(N, beta, m):
    g = E.ExpertsGame.make("weighted_majority", N, beta, m)
    B = (math.log(N) + m * math.log(1 / beta)) / math.log(2 / (1 + beta))
    assert g.cap <= B + 1e-9 < g.cap + 1
    assert E.ExpertsGame.make("halving", 8).cap == 3 and E.ExpertsGame.make("halving", 15).cap == 3


def test_experts_refusals_keep_the_game():
    g = E.ExpertsGame.make("weighted_majority", 3, 0.5, 1)
    s = g.play(E.parse("++-:-,+-+:-", 3))                # expert mistakes (2, 1, 1)
    assert s.expert_mistakes.tolist() == [2, 1, 1]
    before = (s.moves, s.M)
    out = s.then(E.EMove((1, 1, 1), -1))                 # everyone wrong: the best would have 2 > m* = 1
    assert isinstance(out, str) and "the best would have 2 mistakes" in out
    assert (s.moves, s.M) == before
    h = E.ExpertsGame.make("halving", 4)
    with pytest.raises(ValueError, match="no expert would be consistent with every outcome"):
        h.play([E.EMove((1, 1, 1, 1), -1)])
    assert E.parse("+ -:+", 3) == [E.EMove((1, 1, -1), 1)]    # a '+' read as a space from a URL


@SETTINGS
@given(st.sampled_from(E.LEARNERS), st.integers(2, 10), st.sampled_from([0.25, 0.5, 0.75]), st.integers(0, 4),
       st.integers(0, 2**20), st.integers(1, 40), st.floats(0, 1))
def test_every_experts_game_meets_the_theorem(learner, N, rate, budget, seed, T, share):
    g = E.ExpertsGame.make(learner, N, rate, budget)
    rng = np.random.default_rng(seed)
    s = g.play([])
    for _ in range(T):
        m = E.computer_move(s) if rng.random() < share else None
        if m is None:
            a = tuple(int(v) for v in rng.choice([-1, 1], size=N))
            y = int(rng.choice([-1, 1]))
            m = E.EMove(a, y)
            if isinstance(s.then(m), str):
                a = list(a)
                a[int(np.argmin(s.expert_mistakes))] = y
                m = E.EMove(tuple(a), y)
        s = s.then(m)
        assert not isinstance(s, str)
    p = s.trace.proof
    assert p.failed_assumptions == [] and p.violations() == []
    assert s.expert_mistakes.min() <= g.budget
    if g.deterministic:
        assert s.M <= g.cap and s.M <= p.mistake_bound + 1e-9
    else:
        assert s.expected <= g.bound + 1e-9 and s.expected <= p.mistake_bound + 1e-9


@pytest.mark.parametrize("learner,N,rate,budget", [("halving", 8, 0.5, 0), ("halving", 5, 0.5, 0),
                                                   ("weighted_majority", 3, 0.5, 1), ("weighted_majority", 4, 0.25, 2)])
def test_no_further_mistake_is_the_truth_for_deterministic_learners(learner, N, rate, budget):
    """can_err against every admissible move (all 2^N advice vectors, both outcomes), along the computer's game."""
    g = E.ExpertsGame.make(learner, N, rate, budget)
    comp = E.computer_game(g)
    moves = [E.EMove(a, y) for a in itertools.product([-1, 1], repeat=N) for y in (-1, 1)]
    for t in range(comp.T + 1):
        s = g.play(comp.moves[:t])
        exists = False
        for m in moves:
            nxt = s.then(m)
            if not isinstance(nxt, str) and nxt.trace.n_mistakes > s.M:
                exists = True
                break
        assert s.can_err == exists, t
    assert not comp.can_err


@pytest.mark.parametrize("learner,N,rate,budget", [("halving", 8, 0.5, 0), ("halving", 16, 0.5, 0),
                                                   ("weighted_majority", 8, 0.5, 2), ("weighted_majority", 6, 0.25, 1),
                                                   ("randomized_weighted_majority", 8, 0.5, 2),
                                                   ("randomized_weighted_majority", 4, 0.3, 0),
                                                   ("randomized_weighted_majority", 12, 0.8, 3)])
def test_experts_computer_beats_random_play(learner, N, rate, budget):
    g = E.ExpertsGame.make(learner, N, rate, budget)
    comp = E.computer_game(g)
    assert comp.trace.proof.failed_assumptions == []
    for seed in range(10):
        rnd = E.random_game(g, E.MAX_MOVES, seed)
        if g.deterministic:
            assert comp.M >= rnd.M and comp.M <= g.cap
        else:
            assert comp.expected >= rnd.expected and comp.expected <= g.bound
