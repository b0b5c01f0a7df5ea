"""Halving: hand-worked rounds, the version-space sandwich (hypothesis), non-realisable streams,
agreement with WM at β = 0, and VC ≤ opt ≤ M_Halving ≤ log₂|H| by brute force."""
from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import olc_core
from olc_core.hypotheses import (HalfPlanes, MonotoneConjunctions, MonotoneDisjunctions, Thresholds, dimensions,
                                 label_matrix)
from olc_core.streams.experts import experts, target_concept
from tests.core.cases_experts import naive_halving



def test_hand_worked_thresholds():
    # H = {x ≥ .2, x ≥ .4, x ≥ .6, x ≥ .8}, target x ≥ .6.
    # round 0, x = .5: (+, +, −, −) tie → +1, y = −1: mistake, keep {.6, .8}: |H_1| = 2 ≤ 4/2
    # round 1, x = .7: (+, −) tie → +1 = y (every_round removes x ≥ .8 here). round 2, x = .3: −1 = y.
    # round 3, x = .65: (+, −) tie → +1 = y
    H = Thresholds((0.2, 0.4, 0.6, 0.8))
    X = np.array([[0.5], [0.7], [0.3], [0.65]])
    y = np.array([-1, 1, -1, 1])
    tr = olc_core.run("halving", X, y, hypotheses=H)
    assert tr.predictions.tolist() == [1, 1, -1, 1] and tr.mistakes.tolist() == [0]
    assert tr.columns["version_space_size"].tolist() == [4, 2, 2, 2]
    p = tr.proof
    assert p.state_rounds.tolist() == [0, 1]
    np.testing.assert_allclose(np.exp(p.series["log_size"]), [4, 2])
    np.testing.assert_allclose(np.exp(p.series["upper"]), [4, 2])          # equality: exactly half removed
    assert p.mistake_bound == 2.0 and p.violations() == [] and p.applies
    assert p.constants["n_consistent"] == 1
    ev = olc_core.run("halving", X, y, hypotheses=H, update="every_round")
    assert ev.columns["version_space_size"].tolist() == [4, 2, 1, 1]
    assert ev.mistakes.tolist() == [0] and ev.proof.state_rounds.tolist() == [0, 1, 2]
    np.testing.assert_array_equal(ev.weights_at(4), [0, 0, 1, 0])
    np.testing.assert_array_equal(tr.weights_at(4), [0, 0, 1, 1])
    assert ev.history.alive_at(4).tolist() == [2]


def test_hand_worked_matrix_ties_and_pruning():
    # 4 hypotheses' labels per round (columns = hypotheses); hypothesis 3 is the target
    X = np.array([[1, 1, -1, -1],     # 2 vs 2: tie → +1, y = −1: mistake → keep {2, 3}
                  [1, -1, 1, -1],     # H_t = {2, 3}: (+, −) tie → +1, y = −1: mistake → keep {3}
                  [-1, -1, -1, 1]])   # {3}: +1 = y
    y = np.array([-1, -1, 1])
    tr = olc_core.run("halving", X, y)
    assert tr.predictions.tolist() == [1, 1, 1] and tr.mistakes.tolist() == [0, 1]
    np.testing.assert_array_equal(tr.weights_at(3), [0, 0, 0, 1])
    np.testing.assert_allclose(np.exp(tr.proof.series["log_size"]), [4, 2, 1])
    np.testing.assert_allclose(np.exp(tr.proof.series["upper"]), [4, 2, 1])   # M = log₂|H| is attained
    assert tr.n_mistakes == tr.proof.mistake_bound == 2.0 and tr.proof.violations() == []


def test_not_realisable_reports_the_round_and_gives_no_bound():
    X = np.array([[1, -1], [1, -1], [-1, 1]])
    y = np.array([1, -1, 1])              # h0 fails on round 1, h1 on round 0: nothing left after round 1
    for update in ("on_mistake", "every_round"):
        tr = olc_core.run("halving", X, y, update=update)
        p = tr.proof
        assert p.mistake_bound is None
        [a] = p.failed_assumptions
        assert a.name == "realisable" and a.rounds.tolist() == [1]
    # with noise on a concept stream the failure round is where the last consistent hypothesis dies
    H = Thresholds.grid(32)
    s = target_concept(H, T=300, seed=4, noise=0.1)
    tr = olc_core.run("halving", s.X, s.y, hypotheses=H)
    L = H.predict(s.X, np.arange(32))
    first_bad = [int(np.flatnonzero(L[:, h] != s.y)[0]) for h in range(32)]
    assert tr.proof.failed_assumptions[0].rounds.tolist() == [max(first_bad)]
    # the array is 0-based; the text counts rounds as a reader does
    assert f"rounds 1 … {max(first_bad) + 1}:" in tr.proof.failed_assumptions[0].detail
    assert tr.proof.mistake_bound is None
    # the empty version space then breaks the lower link 1 ≤ |H_t|, and the ledger says so
    ev = olc_core.run("halving", s.X, s.y, hypotheses=H, update="every_round")
    viol = ev.proof.violations()
    assert viol and all(v.name == "zero ≤ log_size" for v in viol)
    assert viol[0].round == max(first_bad) + 1


def test_matrix_halving_is_weighted_majority_with_beta_zero():
    s = experts(T=120, N=32, error_rates=[0.0] + [0.45] * 31, seed=9)
    for update in ("on_mistake", "every_round"):
        h = olc_core.run("halving", s.X, s.y, update=update)
        w = olc_core.run("weighted_majority", s.X, s.y, beta=0.0, update=update)
        np.testing.assert_array_equal(h.predictions, w.predictions)
        for t in (0, 10, 60, 120):
            np.testing.assert_array_equal(h.weights_at(t), w.weights_at(t))


def test_bad_hypotheses_and_instances():
    with pytest.raises(ValueError, match="hypotheses must be None"):
        olc_core.run("halving", np.zeros((3, 1)), np.ones(3), hypotheses="thresholds")
    with pytest.raises(ValueError, match=r"shape \(T, 2\)"):
        olc_core.run("halving", np.zeros((3, 1)), np.ones(3), hypotheses=HalfPlanes(8))
    with pytest.raises(ValueError, match="0/1"):
        olc_core.run("halving", np.full((3, 2), 0.5), np.ones(3), hypotheses=MonotoneConjunctions(2))
    with pytest.raises(ValueError, match="thresholds"):
        Thresholds((0.1, 0.1))
    with pytest.raises(ValueError):
        MonotoneConjunctions(21)


CLASSES = [Thresholds.grid(12), HalfPlanes(24), HalfPlanes(7, offset=0.3), MonotoneConjunctions(5),
           MonotoneDisjunctions(5), MonotoneConjunctions(12)]


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(k=st.integers(0, len(CLASSES) - 1), T=st.integers(1, 120), seed=st.integers(0, 10_000),
       update=st.sampled_from(["on_mistake", "every_round"]), data=st.data())
def test_property_realisable_streams(k, T, seed, update, data):
    H = CLASSES[k]
    target = data.draw(st.integers(0, H.size - 1))
    s = target_concept(H, T=T, seed=seed, target=target)
    tr = olc_core.run("halving", s.X, s.y, hypotheses=H, update=update)
    p = tr.proof
    assert p.failed_assumptions == [] and p.violations() == []
    assert tr.n_mistakes <= math.log2(H.size)
    size = p.series["size"]
    assert np.all(size >= 1) and np.all(size <= H.size / 2.0 ** p.n_mistakes)
    assert tr.weights_at(T)[target] == 1.0                       # the target is never removed
    if H.size <= 64:  # the naive replay on the class's label matrix
        L = H.predict(s.X, np.arange(H.size)).astype(float)
        ref = naive_halving(L, s.y, {"update": update})
        assert tr.mistakes.tolist() == ref.mistakes


@settings(max_examples=60, deadline=None)
@given(T=st.integers(1, 50), H=st.integers(1, 20), seed=st.integers(0, 10_000),
       update=st.sampled_from(["on_mistake", "every_round"]))
def test_property_matrix_any_stream(T, H, seed, update):
    rng = np.random.default_rng(seed)
    X = np.where(rng.random((T, H)) < 0.5, 1, -1)
    y = np.where(rng.random(T) < 0.5, 1, -1)
    if rng.random() < 0.5:
        X[:, rng.integers(H)] = y                               # make it realisable half of the time
    tr = olc_core.run("halving", X, y, update=update)
    p = tr.proof
    consistent = np.flatnonzero((X == y[:, None]).all(axis=0))
    assert p.applies == (consistent.size > 0)
    if p.applies:
        assert p.violations() == [] and tr.n_mistakes <= math.log2(H)
        assert p.constants["n_consistent"] == consistent.size
    else:
        assert p.mistake_bound is None
        prefix_ok = np.cumprod(X == y[:, None], axis=0).sum(axis=1)    # consistent after each round
        assert p.failed_assumptions[0].rounds.tolist() == [int(np.flatnonzero(prefix_ok == 0)[0])]
        # the upper link |H_t| ≤ |H|/2^M holds whatever the data
        assert all(v.name == "zero ≤ log_size" for v in p.violations())
    ref = naive_halving(X.astype(float), y.astype(float), {"update": update})
    assert tr.mistakes.tolist() == ref.mistakes


# ---------------------------------------------------------------------------- dimensions
def _brute_vc(L):
    h, m = L.shape
    best = 0
    for k in range(1, m + 1):
        if 2 ** k > h:
            break
        if any(len({tuple(r) for r in L[:, list(S)]}) == 2 ** k for S in itertools.combinations(range(m), k)):
            best = k
    return best


def _brute_ldim(L):
    rows = [tuple(r) for r in np.unique(L, axis=0)]

    def rec(V):
        if len(V) <= 1:
            return len(V) - 1
        best = 0
        for j in range(L.shape[1]):
            pos = frozenset(r for r in V if r[j] > 0)
            neg = V - pos
            if pos and neg:
                best = max(best, 1 + min(rec(pos), rec(neg)))
        return best
    return rec(frozenset(rows))


@pytest.mark.parametrize("H,known", [
    (MonotoneConjunctions(3), (3, 3, 3)), (MonotoneConjunctions(4), (4, 4, 4)),
    (MonotoneDisjunctions(4), (4, 4, 4)), (Thresholds.grid(7), (1, 2, 2)), (Thresholds.grid(8), (1, 3, 3)),
    (Thresholds.grid(31), (1, 4, 4)), (HalfPlanes(4), (2, 2, 2)), (HalfPlanes(8), (2, 3, 3)),
    # 64 or more distinct hypotheses: bit masks beyond 63 bits (a numpy int64 shift used to overflow)
    (Thresholds.grid(70), (1, 6, 6)), (Thresholds.grid(256), (1, 8, 8)),
])
def test_dimensions_known_values_and_chain(H, known):
    d = dimensions(H)
    assert (d.vc, d.opt, d.halving) == known
    assert d.holds and d.log2_size == math.log2(H.size)
    L = label_matrix(H, H.natural_domain())
    if L.shape[1] <= 12:
        assert d.vc == _brute_vc(L) and d.opt == _brute_ldim(L)
    assert dimensions(H, update="every_round").halving >= d.opt


def test_dimensions_on_the_stream_bound_the_run():
    # on the distinct instances of a stream, the run's mistakes are at most M_Halving ≤ log₂|H|
    for H, seed in ((HalfPlanes(16), 1), (MonotoneConjunctions(4), 2), (Thresholds.grid(20), 3)):
        s = target_concept(H, T=60, seed=seed)
        for update in ("on_mistake", "every_round"):
            d = dimensions(H, np.unique(s.X, axis=0), update=update)
            tr = olc_core.run("halving", s.X, s.y, hypotheses=H, update=update)
            assert d.holds and tr.n_mistakes <= d.halving <= d.log2_size
    # a label matrix works too (the rounds are the points), duplicates counted for the vote
    Lm = np.array([[1, 1, -1], [1, 1, -1], [-1, 1, 1], [1, -1, 1]])
    d = dimensions(Lm)
    assert (d.size, d.n_distinct) == (4, 3) and d.holds


def test_dimensions_caps():
    with pytest.raises(ValueError, match="cap"):
        dimensions(HalfPlanes(400))
    with pytest.raises(ValueError, match="too big"):
        dimensions(MonotoneConjunctions(20))
    with pytest.raises(ValueError, match="steps"):
        dimensions(MonotoneConjunctions(6), max_steps=50)


def test_large_class_run():
    H = MonotoneConjunctions(16)                                   # 65 536 hypotheses
    s = target_concept(H, T=2_000, seed=0, target=0b1010_0000_0110_0001)
    tr = olc_core.run("halving", s.X, s.y, hypotheses=H)
    assert tr.proof.violations() == [] and tr.n_mistakes <= 16
    assert tr.weights_at(tr.T)[0b1010_0000_0110_0001] == 1.0
