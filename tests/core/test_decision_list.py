"""The decision-list learner (the level algorithm, [004] §2.2): the notes' example step by step, the tie
rules, property tests of the level potential, Rivest's greedy comparator, edge cases."""
from __future__ import annotations

import itertools
import time

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import olc_core
from olc_core.learners.decision_list import fallen, level_contents, levels_at, rule_names
from olc_core.proofs.boolean import DecisionList, consistent_decision_list
from olc_core.streams import boolean as sb

SETTINGS = dict(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])

NOTES_TARGET = [("x1", 0), ("¬x2", 1), (True, 0)]   # x1 → False, else ¬x2 → True, else False


def _lv(tr, t):
    return tr.weights_at(t).astype(int).tolist()


def _names(tr, t):
    n = tr.info["n"]
    return [[rule_names(n)[r] for r in level] for level in levels_at(tr, t)]


# ----------------------------------------------------------------------------- the notes' example


@pytest.mark.parametrize("tie", ["first", "majority"])
def test_notes_example_step_by_step(tie):
    """n = 2, target x1→0, ¬x2→1, True→0 (L = 3 rules, the final True rule counted).
    Rules in order: x1→1, x1→0, ¬x1→1, ¬x1→0, x2→1, x2→0, ¬x2→1, ¬x2→0, True→1, True→0.

    round 0: x = 01 (label 0). Level 1 fires ¬x1→1, ¬x1→0, x2→1, x2→0, True→1, True→0.
      'first': ¬x1→1 comes first -> predict 1; 'majority': 3 vs 3, a tie -> 1. The notes: "say it
      chooses to predict positively". Wrong: ¬x1→1, x2→1, True→1 fall to level 2.
    round 1: x = 00 (label 1). Level 1 fires ¬x1→0, ¬x2→1, ¬x2→0, True→0.
      'first': ¬x1→0 -> 0; 'majority': 1 vs 3 -> 0. The notes: "might choose to predict that this will be
      negative". Wrong: ¬x1→0, ¬x2→0, True→0 fall to level 2.
    round 2: x = 10 (label 0, by x1→0). Level 1 fires x1→1, x1→0, ¬x2→1.
      'first': x1→1 -> 1; 'majority': 2 vs 1 -> 1. Wrong: x1→1 and ¬x2→1 fall to level 2.
    round 3: x = 11 (label 0). Level 1 fires x1→0, x2→0 -> 0: right, nothing moves.
    """
    X = np.array([[0, 1], [0, 0], [1, 0], [1, 1]])
    y = np.array([0, 1, 0, 0])
    tr = olc_core.run("decision_list", X, y, comparator=NOTES_TARGET, tie=tie)
    assert tr.predictions.tolist() == [1, 0, 1, 0]
    assert tr.mistakes.tolist() == [0, 1, 2]
    assert tr.columns["level"].tolist() == [1, 1, 1, 1]
    #                     x1→1 x1→0 ¬x1→1 ¬x1→0 x2→1 x2→0 ¬x2→1 ¬x2→0 T→1 T→0
    assert _lv(tr, 0) == [1, 1, 1, 1, 1, 1, 1, 1, 1, 1]
    assert _lv(tr, 1) == [1, 1, 2, 1, 2, 1, 1, 1, 2, 1]
    assert _lv(tr, 2) == [1, 1, 2, 2, 2, 1, 1, 2, 2, 2]
    assert _lv(tr, 3) == [2, 1, 2, 2, 2, 1, 2, 2, 2, 2]
    assert _lv(tr, 4) == _lv(tr, 3)
    # the notes' h after each of its two steps, level by level
    assert _names(tr, 1) == [["x1→1", "x1→0", "¬x1→0", "x2→0", "¬x2→1", "¬x2→0", "True→0"],
                             ["¬x1→1", "x2→1", "True→1"]]
    assert _names(tr, 2) == [["x1→1", "x1→0", "x2→0", "¬x2→1"],
                             ["¬x1→1", "¬x1→0", "x2→1", "¬x2→0", "True→1", "True→0"]]
    t, frm, moved = fallen(tr, 2)
    assert (t, frm, moved.tolist()) == (2, 1, [0, 6])                  # x1→1 and ¬x2→1 fell from level 1
    p = tr.proof
    # caps: x1→0 is target rule 1 (cap 1), ¬x2→1 rule 2 (cap 2), True→0 rule 3 (cap 3), others L+1 = 4
    assert p.constants["caps"].tolist() == [4, 1, 4, 4, 4, 4, 2, 4, 4, 3]
    assert p.series["Phi"].tolist() == [0, 3, 6, 8]
    assert p.series["cap_sum"][0] == 0 + 1 + 2 + 7 * 3 == 24
    assert p.series["tight"][0] == 30 and p.series["notes_bound"][0] == 40
    assert p.series["target_excess"].tolist() == [0, 0, 0, 0]      # target rule i at level ≤ i
    assert p.series["max_level"].tolist() == [1, 2, 2, 2]
    assert p.mistake_bound == 40.0 and p.constants["L"] == 3
    assert p.violations() == [] and p.failed_assumptions == []


def test_fallen_and_level_contents():
    X = np.array([[0, 1], [0, 0]])
    tr = olc_core.run("decision_list", X, np.array([0, 1]), comparator=NOTES_TARGET)
    t, frm, moved = fallen(tr, 0)
    assert (t, frm) == (0, 1) and moved.tolist() == [2, 4, 8]          # ¬x1→1, x2→1, True→1
    t, frm, moved = fallen(tr, 1)
    assert (t, frm) == (1, 1) and moved.tolist() == [3, 7, 9]          # ¬x1→0, ¬x2→0, True→0
    assert [g.tolist() for g in level_contents(np.array([1, 3, 1, 3]))] == [[0, 2], [], [1, 3]]
    assert tr.columns["rule"].tolist() == [2, 3]


def test_tie_rules_differ():
    """n = 1. round 0: x = 1, y = 0: both predict 1 (x1→1 first; 2 vs 2 -> 1); x1→1, True→1 fall.
    round 1: x = 0, y = 1: level 1 fires ¬x1→1, ¬x1→0, True→0. 'first' reads ¬x1→1 -> 1 (right);
    'majority' sees 1 vs 2 -> 0 (wrong: ¬x1→0 and True→0 fall)."""
    X = np.array([[1], [0]])
    y = np.array([0, 1])
    first = olc_core.run("decision_list", X, y, tie="first")
    maj = olc_core.run("decision_list", X, y, tie="majority")
    assert first.predictions.tolist() == [1, 1] and first.mistakes.tolist() == [0]
    assert maj.predictions.tolist() == [1, 0] and maj.mistakes.tolist() == [0, 1]
    #                         x1→1 x1→0 ¬x1→1 ¬x1→0 T→1 T→0
    assert _lv(first, 2) == [2, 1, 1, 1, 2, 1]
    assert _lv(maj, 2) == [2, 1, 1, 2, 2, 2]
    assert maj.columns["rule"].tolist() == [0, 3]
    for tr in (first, maj):
        assert tr.proof.violations() == [] and tr.proof.mistake_bound is not None


def test_every_mistake_moves_at_least_the_rule_read():
    s = sb.decision_list(T=400, n=5, L=4, seed=7)
    for tie in ("first", "majority"):
        tr = olc_core.run("decision_list", s.X, s.y, tie=tie)
        for k, t in enumerate(tr.mistakes):
            _, frm, moved = fallen(tr, k)
            r = int(tr.columns["rule"][t])
            assert r in moved.tolist()
            assert (tr.weights_at(int(t))[moved] == frm).all() and (tr.weights_at(int(t) + 1)[moved] == frm + 1).all()


# ----------------------------------------------------------------------------- independent brute force

def _dl_tables(n):
    """Truth tables of every function a decision list computes on n bits: the closure of the
    constants under f = (ℓ ? b : g) for every literal ℓ and output b."""
    pts = np.array(list(itertools.product([0, 1], repeat=n)))
    lits = [pts[:, i] == 1 for i in range(n)] + [pts[:, i] == 0 for i in range(n)]
    tables = {tuple([0] * len(pts)), tuple([1] * len(pts))}
    while True:
        new = set(tables)
        for g in tables:
            ga = np.array(g)
            for lit in lits:
                for b in (0, 1):
                    new.add(tuple(np.where(lit, b, ga)))
        if new == tables:
            return tables
        tables = new


_TABLES = {n: _dl_tables(n) for n in (1, 2, 3)}


def _some_list_fits(X, y, n):
    idx = [int("".join(str(int(b)) for b in row), 2) for row in X]
    return any(all(tab[i] == int(lab) for i, lab in zip(idx, y)) for tab in _TABLES[n])


def test_brute_force_knows_xor():
    assert len(_TABLES[2]) == 14            # all 16 functions of 2 bits but XOR and XNOR
    assert not _some_list_fits(np.array([[0, 0], [0, 1], [1, 0], [1, 1]]), [0, 1, 1, 0], 2)


# ----------------------------------------------------------------------------- properties

@st.composite
def target_list(draw, n):
    L = draw(st.integers(1, 5))
    rules = [(draw(st.sampled_from([i for i in range(-n, n + 1) if i])), draw(st.integers(0, 1)))
             for _ in range(L - 1)]
    return DecisionList.parse(rules + [(None, draw(st.integers(0, 1)))], n)


@st.composite
def consistent_stream(draw):
    n = draw(st.integers(1, 5))
    c = draw(target_list(n))
    T = draw(st.integers(1, 40))
    X = np.array(draw(st.lists(st.lists(st.integers(0, 1), min_size=n, max_size=n), min_size=T, max_size=T)))
    return X, c(X).astype(int), c, draw(st.sampled_from(["first", "majority"]))


@settings(**SETTINGS)
@given(consistent_stream())
def test_property_levels_on_consistent_streams(data):
    X, y, c, tie = data
    n = X.shape[1]
    R = 4 * n + 2
    for comparator in (c, None):
        tr = olc_core.run("decision_list", X, y, comparator=comparator, tie=tie)
        p = tr.proof
        assert p.failed_assumptions == [] and p.violations() == []
        target = p.constants["target"]
        L = target.L
        np.testing.assert_array_equal(target(X), y)
        assert p.mistake_bound == R * (L + 1)
        # every step recomputed by hand from the weights
        M = tr.mistakes_before_each_round()
        ridx = target.rule_indices
        for t in range(tr.T + 1):
            lv = tr.weights_at(t).astype(int)
            assert lv.min() >= 1 and lv.max() <= L + 1                      # no rule below level L+1
            assert all(lv[r] <= i + 1 for i, r in enumerate(ridx))          # target rule i at level ≤ i
            phi = int((lv - 1).sum())
            assert M[t] <= phi <= R * L <= R * (L + 1)
        if comparator is not None:
            assert tr.n_mistakes <= R * c.L


@st.composite
def any_stream(draw):
    n = draw(st.integers(1, 3))
    T = draw(st.integers(1, 25))
    X = np.array(draw(st.lists(st.lists(st.integers(0, 1), min_size=n, max_size=n), min_size=T, max_size=T)))
    y = np.array(draw(st.lists(st.integers(0, 1), min_size=T, max_size=T)))
    return X, y, draw(st.sampled_from(["first", "majority"]))


@settings(**SETTINGS)
@given(any_stream())
def test_property_arbitrary_labels(data):
    """Random labels: consistency decided independently (closure of all decision-list functions)."""
    X, y, tie = data
    n = X.shape[1]
    tr = olc_core.run("decision_list", X, y, tie=tie)
    p = tr.proof
    if _some_list_fits(X, y, n):
        assert p.failed_assumptions == [] and p.violations() == []
        np.testing.assert_array_equal(p.constants["target"](X), y)
    else:
        assert p.mistake_bound is None and p.constants["target"] is None
        [a] = p.failed_assumptions
        assert a.name == "consistent" and a.rounds.size > 0
        assert not _some_list_fits(X[a.rounds], y[a.rounds], n)      # the rounds are a real certificate
        assert p.violations() == []                                  # M ≤ Φ needs no assumption; the rest n/a
    assert (p.series["M"] <= p.series["Phi"]).all()


@settings(**SETTINGS)
@given(st.integers(1, 6), st.integers(1, 4), st.integers(0, 2**31), st.floats(0.05, 0.4))
def test_property_noisy_streams(n, L, seed, noise):
    L = min(L, n + 1)
    s = sb.decision_list(T=80, n=n, L=L, seed=seed, noise=noise)
    tr = olc_core.run("decision_list", s.X, s.y, comparator=s.comparator)
    flipped = np.flatnonzero(s.info["flipped"])
    if flipped.size:
        a = {x.name: x for x in tr.proof.failed_assumptions}["target"]
        assert a.rounds.tolist() == flipped.tolist()
        assert tr.proof.mistake_bound is None
    else:
        assert tr.proof.violations() == [] and tr.proof.mistake_bound == (4 * n + 2) * (L + 1)
    tr2 = olc_core.run("decision_list", s.X, s.y)
    fit = consistent_decision_list(s.X, s.y)
    if fit.consistent:
        assert tr2.proof.violations() == [] and tr2.proof.mistake_bound is not None
    else:
        assert tr2.proof.mistake_bound is None
        assert tr2.proof.failed_assumptions[0].rounds.size > 0
        if n <= 3:
            r = tr2.proof.failed_assumptions[0].rounds
            assert not _some_list_fits(s.X[r], s.y[r], n)


def test_inconsistent_duplicate_is_the_certificate():
    X = np.array([[1, 0], [0, 1], [1, 0], [1, 1]])
    y = np.array([1, 0, 0, 1])
    tr = olc_core.run("decision_list", X, y)
    [a] = tr.proof.failed_assumptions
    assert a.rounds.tolist() == [0, 2] and "both labels" in a.detail
    xor = olc_core.run("decision_list", np.array([[0, 0], [0, 1], [1, 0], [1, 1]]), np.array([0, 1, 1, 0]))
    [a] = xor.proof.failed_assumptions
    assert a.rounds.tolist() == [0, 1, 2, 3] and xor.proof.mistake_bound is None
    assert np.isnan(xor.proof.series["tight"]).all()       # no target: not defined, not checked


def test_greedy_is_consistent():
    """11→1, 10→1, 01→1, 00→0. Pure literals: x1 (covers 11, 10: label 1) and x2 (11, 01: label 1), both
    covering 2: the lower index x1 wins. Left 01→1, 00→0: x2→1 and ¬x2→0 cover one each: x2.
    Left 00: True→0."""
    fit = consistent_decision_list(np.array([[1, 1], [1, 0], [0, 1], [0, 0]]), np.array([1, 1, 1, 0]))
    assert fit.consistent and str(fit.rules) == "x1→1, x2→1, True→0"
    np.testing.assert_array_equal(fit.rules(np.array([[1, 1], [1, 0], [0, 1], [0, 0]])), [1, 1, 1, 0])
    const = consistent_decision_list(np.array([[1, 0], [0, 1]]), np.array([1, 1]))
    assert str(const.rules) == "True→1" and const.rules.L == 1
    s = sb.decision_list(T=500, n=8, L=5, seed=4)
    fit = consistent_decision_list(s.X, s.y)
    assert fit.consistent and fit.rules.L <= 2 * 8 + 1
    np.testing.assert_array_equal(fit.rules(s.X), s.y)


# ----------------------------------------------------------------------------- formats, streams, long runs


def test_comparator_formats_agree():
    forms = [NOTES_TARGET, [(1, 0), (-2, 1), (None, 0)], ["x1 -> 0", "¬x2 → 1", "True -> 0"],
             "x1→0, ¬x2→1, True→0", "x1 -> 0; else ~x2 -> 1; else 0",
             [("x1", False), ("not x2", True), ("else", 0)],
             DecisionList(2, ((1, 0), (-2, 1), (None, 0)))]
    for f in forms:
        assert DecisionList.parse(f, 2).rules == ((1, 0), (-2, 1), (None, 0)), f
    X = np.array([[0, 1]])
    for bad, msg in [([("x1", 0)], "end with"), ([(True, 0), ("x1", 1)], "not the last"), ([("x1", 2), (True, 0)],
                     "0 or 1"), ([("x3", 1), (True, 0)], "outside"), ([], "at least"), ([("x1",)], "pair")]:
        with pytest.raises(ValueError, match=msg):
            olc_core.run("decision_list", X, [0], comparator=bad)
    with pytest.raises(ValueError, match="tie must be one of"):
        olc_core.run("decision_list", X, [0], tie="random")


def test_streams_are_seeded_and_labelled_by_the_target():
    a = sb.decision_list(T=600, n=6, L=4, seed=5)
    b = sb.decision_list(T=600, n=6, L=4, seed=5)
    np.testing.assert_array_equal(a.X, b.X)
    assert a.comparator == b.comparator and a.comparator.L == 4
    np.testing.assert_array_equal(a.comparator(a.X), a.y)
    assert a.comparator.rules[-2][1] != a.comparator.rules[-1][1]
    # coverage "rule": each rule decides about a quarter of the rounds
    c = a.comparator
    decided = np.zeros(len(a.y), dtype=int) - 1
    for i, (lit, _) in enumerate(c.rules):
        fires = np.ones(len(a.y), bool) if lit is None else (a.X[:, abs(lit) - 1] == (1 if lit > 0 else 0))
        decided[(decided < 0) & fires] = i
    assert (np.bincount(decided, minlength=4) > 100).all()
    given = sb.decision_list(T=50, n=2, target=NOTES_TARGET, seed=1)
    np.testing.assert_array_equal(given.comparator(given.X), given.y)
    with pytest.raises(ValueError, match="L must be"):
        sb.decision_list(T=5, n=2, L=4)


def test_long_noisy_run():
    s = sb.decision_list(T=60_000, n=8, L=4, seed=0, noise=0.05)
    t0 = time.perf_counter()
    tr = olc_core.run("decision_list", s.X, s.y, comparator=s.comparator)
    assert time.perf_counter() - t0 < 30.0
    assert tr.proof.mistake_bound is None and tr.n_mistakes > 100
    # M ≤ Φ holds whatever the labels; the target's invariants may fail and are reported
    p = tr.proof
    assert (p.series["M"] <= p.series["Phi"]).all()
    clean = sb.decision_list(T=60_000, n=8, L=4, seed=0)
    tr = olc_core.run("decision_list", clean.X, clean.y, comparator=clean.comparator, tie="majority")
    assert tr.proof.violations() == [] and tr.n_mistakes <= tr.proof.constants["bound_tight"]


def test_uniform_bits_let_rule_i_decide_with_probability_two_to_the_minus_i():
    """The page's words for coverage="uniform": rule i < L decides with probability 2⁻ⁱ, the final rule the rest
    (2^-(L-1)): each literal rule is on its own variable, so it fires on half the examples the earlier ones let by."""
    n, L, T = 5, 4, 40_000
    s = sb.decision_list(T=T, n=n, L=L, seed=3, coverage="uniform")
    B = s.X.astype(bool)
    open_ = np.ones(T, dtype=bool)
    share = []
    for lit, _ in s.comparator.rules:
        fires = np.ones(T, dtype=bool) if lit is None else (B[:, abs(lit) - 1] if lit > 0 else ~B[:, abs(lit) - 1])
        share.append(float(np.mean(open_ & fires)))
        open_ &= ~fires
    want = [2.0 ** -i for i in range(1, L)] + [2.0 ** -(L - 1)]
    assert share == pytest.approx(want, abs=0.01), (share, want)
