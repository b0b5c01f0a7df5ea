"""The conjunction learner (elimination, [004] §2.1): hand-worked rounds, the false-positive outcome,
the adversary lower bound, property tests of the sandwich, edge cases."""
from __future__ import annotations

import itertools
import time

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import olc_core
from olc_core.learners.conjunction import hypothesis_literals
from olc_core.proofs.boolean import Conjunction, most_specific_conjunction
from olc_core.streams import boolean as sb

SETTINGS = dict(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _lits(w):
    return np.asarray(w).astype(int).tolist()


# ----------------------------------------------------------------------------- hand-worked


def test_hand_worked_notes_example():
    """n = 4 (the notes' first mistake on 1001 leaves x1 ¬x2 ¬x3 x4), target c = x1 ∧ x4.

    round 0: x = 1001, y = 1; h = all 8 literals, 4 of them false in x -> ŷ = 0: false negative;
             remove ¬x1, x2, x3, ¬x4 -> h = x1 ¬x2 ¬x3 x4 (|h| = n = 4)
    round 1: x = 1101, y = 1; ¬x2 is false -> ŷ = 0: false negative; h = x1 ¬x3 x4 (|h| = 3)
    round 2: x = 0101, y = 0; x1 is false -> ŷ = 0: right
    round 3: x = 1001, y = 1; every literal of h true -> ŷ = 1: right
    """
    X = np.array([[1, 0, 0, 1], [1, 1, 0, 1], [0, 1, 0, 1], [1, 0, 0, 1]])
    y = np.array([1, 1, 0, 1])
    tr = olc_core.run("conjunction", X, y, comparator="x1 ∧ x4")
    assert tr.predictions.tolist() == [0, 0, 0, 1]
    assert tr.mistakes.tolist() == [0, 1]
    assert tr.columns["false_literals"].tolist() == [4, 1, 1, 0]
    #                                x1 ¬x1 x2 ¬x2 x3 ¬x3 x4 ¬x4
    assert _lits(tr.weights_at(0)) == [1, 1, 1, 1, 1, 1, 1, 1]
    assert _lits(tr.weights_at(1)) == [1, 0, 0, 1, 0, 1, 1, 0]
    assert _lits(tr.weights_at(2)) == [1, 0, 0, 0, 0, 1, 1, 0]
    assert _lits(tr.weights_at(4)) == _lits(tr.weights_at(2))
    assert hypothesis_literals(tr, 2) == ["x1", "¬x3", "x4"]
    p = tr.proof
    assert p.state_rounds.tolist() == [0, 1, 2]
    assert p.series["h_size"].tolist() == [8, 4, 3]
    assert p.series["h_upper"].tolist() == [8, 4, 3]      # 2n, n, n − 1: attained
    assert p.series["c_size"].tolist() == [2, 2, 2]
    assert p.series["c_outside"].tolist() == [0, 0, 0]
    assert p.series["bound_c"].tolist() == [3, 3, 3]      # n + 1 − |c| = 5 − 2
    assert p.mistake_bound == 5.0 and p.violations() == [] and p.failed_assumptions == []
    assert tr.d == 8 and tr.info["no_consistent_conjunction"] is None

    # no target given: the most specific consistent conjunction x1 ∧ ¬x3 ∧ x4 = h_T, so the sandwich closes
    tr2 = olc_core.run("conjunction", X, y)
    p2 = tr2.proof
    assert str(p2.constants["target"]) == "x1 ∧ ¬x3 ∧ x4"
    assert tr2.info["comparator_source"] == "most specific consistent conjunction"
    assert p2.series["c_size"][-1] == p2.series["h_size"][-1] == 3
    assert p2.series["bound_c"][-1] == 2 == tr2.n_mistakes      # M = n + 1 − |c|: attained
    assert p2.violations() == []


def test_false_positive_is_recorded_not_raised():
    """n = 2. round 0: 11, y = 1 -> false negative, h = x1 x2.
    round 1: 11, y = 0 -> h(x) = 1: false positive, "no consistent conjunction"; h unchanged.
    round 2: 10, y = 1 -> false negative, h = x1.   round 3: 01, y = 0 -> ŷ = 0, right."""
    X = np.array([[1, 1], [1, 1], [1, 0], [0, 1]])
    y = np.array([1, 0, 1, 0])
    tr = olc_core.run("conjunction", X, y)
    assert tr.predictions.tolist() == [0, 1, 0, 0]
    assert tr.mistakes.tolist() == [0, 1, 2]
    assert tr.info["no_consistent_conjunction"] == 1
    assert tr.info["no_consistent_conjunction_rounds"].tolist() == [1]
    assert tr.columns["false_positive"].tolist() == [False, True, False, False]
    assert _lits(tr.weights_at(1)) == [1, 0, 1, 0]
    assert _lits(tr.weights_at(2)) == [1, 0, 1, 0]           # no update on the false positive
    assert _lits(tr.weights_at(3)) == [1, 0, 0, 0]           # still learns from false negatives
    p = tr.proof
    assert p.mistake_bound is None
    [a] = p.failed_assumptions
    assert a.name == "consistent" and a.rounds.tolist() == [1]
    assert "no consistent conjunction" in a.detail
    # exactly the step that needs the assumption fails: every mistake a false negative
    v = p.violations()
    assert {x.name for x in v} == {"M ≤ M_fn"}
    assert [(x.round, x.lhs, x.rhs) for x in v] == [(2, 2.0, 1.0), (3, 3.0, 2.0)]

    # with a target that the labels contradict, that assumption fails too, with its rounds
    tr2 = olc_core.run("conjunction", X, y, comparator=[1])
    names = {a.name: a.rounds.tolist() for a in tr2.proof.failed_assumptions}
    assert names == {"target": [1], "consistent": [1]}


def test_given_target_wrong_but_data_consistent():
    X = np.array([[1, 1], [1, 0], [0, 1]])
    y = np.array([1, 1, 0])                     # x1 labels these; x2 does not
    tr = olc_core.run("conjunction", X, y, comparator=["x2"])
    assert [a.name for a in tr.proof.failed_assumptions] == ["target"]
    assert tr.proof.failed_assumptions[0].rounds.tolist() == [1, 2]
    assert tr.proof.mistake_bound is None
    # c ⊆ h fails where the learner dropped x2: reported, not hidden
    assert any(v.name == "c_outside ≤ zero" for v in tr.proof.violations())
    ok = olc_core.run("conjunction", X, y, comparator=["x1"])
    assert ok.proof.violations() == [] and ok.proof.mistake_bound == 3.0


# ----------------------------------------------------------------------------- the adversary


def _hash_predictor(x, X_past, y_past):
    # deterministic, history dependent
    return int((int(x.sum()) * 7 + len(y_past) * 3 + int(np.sum(y_past))) % 3 == 0)


@pytest.mark.parametrize("n", [1, 2, 5, 12])
@pytest.mark.parametrize("predict", [sb.elimination_predictor, sb.constant_predictor(1), sb.constant_predictor(0),
                                     _hash_predictor], ids=["elimination", "always1", "always0", "hash"])
def test_adversary_forces_n_mistakes(n, predict):
    s = sb.conjunction_adversary(n, predict)
    preds = s.info["predictions"]
    assert s.X.shape == (n, n)
    assert (s.X.sum(axis=1) == n - 1).all() and (np.diag(s.X) == 0).all()    # every bit but bit i
    assert int(np.sum(preds != s.y)) == n == s.info["forced_mistakes"]
    # the labels are a (monotone) conjunction's: the one built from the predictions
    assert all(v > 0 for v in s.comparator.literals)
    np.testing.assert_array_equal(s.comparator(s.X), s.y)
    assert s.comparator.literals == tuple(int(i) + 1 for i in np.flatnonzero(preds == 1))


@pytest.mark.parametrize("n", [1, 3, 8])
def test_adversary_against_our_learner(n):
    s = sb.conjunction_adversary(n, sb.elimination_predictor)
    tr = olc_core.run("conjunction", s.X, s.y, comparator=s.comparator)
    assert tr.predictions.tolist() == s.info["predictions"].tolist() == [0] * n
    assert tr.n_mistakes == n                      # n ≤ n + 1: the lower bound meets the upper bound within 1
    assert tr.proof.violations() == [] and tr.proof.mistake_bound == n + 1
    assert str(s.comparator) == "True"             # it never predicted 1: the target is the empty conjunction


def test_adversary_interactive():
    a = sb.ConjunctionAdversary(3)
    assert a.next_example().tolist() == [0, 1, 1]
    with pytest.raises(ValueError, match="record"):
        a.reveal()
    a.record(True)
    with pytest.raises(ValueError, match="already"):
        a.record(0)
    assert a.reveal() == 0
    assert str(a.target()) == "x1" and a.undecided().tolist() == [2, 3]
    assert a.next_example().tolist() == [1, 0, 1]
    assert a.play(0) == 1
    assert a.play(1) == 0
    assert a.done and a.mistakes == 3
    assert str(a.target()) == "x1 ∧ x3"
    s = a.stream()
    np.testing.assert_array_equal(s.y, [0, 1, 0])
    np.testing.assert_array_equal(s.comparator(s.X), s.y)
    with pytest.raises(ValueError, match="all n examples"):
        a.next_example()
    with pytest.raises(ValueError, match="0 or 1"):
        sb.ConjunctionAdversary(2).record(2)


# ----------------------------------------------------------------------------- properties

def _all_conjunction_tables(n):
    """Truth tables (over the 2^n points in itertools.product order) of every conjunction:
    each variable absent / positive / negated (3^n), plus the constant 0."""
    pts = np.array(list(itertools.product([0, 1], repeat=n)))
    tables = {tuple([0] * len(pts))}
    for choice in itertools.product([0, 1, -1], repeat=n):
        ok = np.ones(len(pts), dtype=bool)
        for i, c in enumerate(choice):
            if c == 1:
                ok &= pts[:, i] == 1
            elif c == -1:
                ok &= pts[:, i] == 0
        tables.add(tuple(ok.astype(int)))
    return pts, tables


def _some_conjunction_fits(X, y, n):
    pts, tables = _all_conjunction_tables(n)
    idx = [int("".join(str(int(b)) for b in row), 2) for row in X]
    return any(all(tab[i] == int(lab) for i, lab in zip(idx, y)) for tab in tables)


@st.composite
def consistent_stream(draw):
    n = draw(st.integers(1, 6))
    # a target: each variable absent / positive / negated; sometimes also a complementary pair
    choice = draw(st.lists(st.sampled_from([0, 1, -1]), min_size=n, max_size=n))
    lits = [s * (i + 1) for i, s in enumerate(choice) if s]
    if draw(st.booleans()) and draw(st.integers(0, 9)) == 0:
        lits += [1, -1]                                     # unsatisfiable target: no positives
    T = draw(st.integers(1, 40))
    X = np.array(draw(st.lists(st.lists(st.integers(0, 1), min_size=n, max_size=n), min_size=T, max_size=T)))
    c = Conjunction.parse(lits, n)
    if c.satisfiable and draw(st.booleans()):               # make some examples positive
        for t in range(T):
            if draw(st.booleans()):
                for v in c.literals:
                    X[t, abs(v) - 1] = 1 if v > 0 else 0
    return X, c(X).astype(int), c


def _check_sandwich_by_hand(tr, c, n):
    """Every inequality of the notes, recomputed from the weights at every round."""
    M = tr.mistakes_before_each_round()
    for t in range(tr.T + 1):
        h = tr.weights_at(t).astype(bool)
        m = int(M[t])
        assert not (c.mask & ~h).any()                                  # c ⊆ h
        assert c.size <= h.sum() <= 2 * n - n * (m >= 1) - max(m - 1, 0)
        if m >= 1:
            assert m <= n + 1 - c.size
    assert tr.n_mistakes <= n + 1


@settings(**SETTINGS)
@given(consistent_stream())
def test_property_sandwich_on_consistent_streams(data):
    X, y, c = data
    n = X.shape[1]
    for comparator in (c, None):
        tr = olc_core.run("conjunction", X, y, comparator=comparator)
        p = tr.proof
        assert p.failed_assumptions == []
        assert p.violations() == []
        assert p.mistake_bound == n + 1 and tr.n_mistakes <= p.mistake_bound
        assert tr.info["no_consistent_conjunction"] is None
        target = c if comparator is not None else p.constants["target"]
        _check_sandwich_by_hand(tr, target, n)
        assert tr.n_mistakes <= p.constants["bound_tight"]
    if not c.satisfiable:
        assert tr.n_mistakes == 0


@st.composite
def any_stream(draw):
    n = draw(st.integers(1, 4))
    T = draw(st.integers(1, 30))
    X = np.array(draw(st.lists(st.lists(st.integers(0, 1), min_size=n, max_size=n), min_size=T, max_size=T)))
    y = np.array(draw(st.lists(st.integers(0, 1), min_size=T, max_size=T)))
    return X, y


@settings(**SETTINGS)
@given(any_stream())
def test_property_arbitrary_labels(data):
    """Random labels: the proof agrees with a brute force over all 3^n + 1 conjunctions."""
    X, y = data
    n = X.shape[1]
    tr = olc_core.run("conjunction", X, y)
    p = tr.proof
    fits = _some_conjunction_fits(X, y, n)
    fp = tr.info["no_consistent_conjunction_rounds"]
    if fits:
        assert p.failed_assumptions == [] and p.violations() == [] and fp.size == 0
        assert tr.n_mistakes <= p.mistake_bound
    else:
        assert p.mistake_bound is None
        [a] = p.failed_assumptions
        assert a.name == "consistent" and a.rounds.size > 0
        # the rounds are negatives, and with the positives they admit no conjunction
        assert (y[a.rounds] == 0).all()
        keep = np.concatenate([np.flatnonzero(y == 1), a.rounds])
        assert not _some_conjunction_fits(X[keep], y[keep], n)
        # every "no consistent conjunction" the learner meets is among them
        assert set(fp.tolist()) <= set(a.rounds.tolist())
        # the only inequality that can fail is "every mistake is a false negative", and only after an FP
        for v in p.violations():
            assert v.name == "M ≤ M_fn" and v.round > fp[0]
    # whatever the labels: the algorithmic part of the sandwich, and the learner = literals of all positives so far
    assert (p.series["h_size"] <= p.series["h_upper"]).all()
    for t in range(tr.T):
        assert tr.predictions[t] == sb.elimination_predictor(X[t], X[:t], y[:t])
    if fp.size:
        for t in fp:
            np.testing.assert_array_equal(tr.weights_at(int(t) + 1), tr.weights_at(int(t)))


@settings(**SETTINGS)
@given(st.integers(2, 6), st.integers(0, 2**31), st.floats(0.05, 0.4))
def test_property_noisy_streams(n, seed, noise):
    """Label noise: when the noisy labels are no conjunction's, the failure is reported with rounds."""
    s = sb.conjunction(T=60, n=n, seed=seed, noise=noise)
    tr = olc_core.run("conjunction", s.X, s.y)
    fit = most_specific_conjunction(s.X, s.y)
    if fit.consistent:
        assert tr.proof.violations() == [] and tr.proof.mistake_bound == n + 1
    else:
        assert tr.proof.mistake_bound is None
        assert [a.name for a in tr.proof.failed_assumptions] == ["consistent"]
        assert tr.proof.failed_assumptions[0].rounds.size > 0
    tr2 = olc_core.run("conjunction", s.X, s.y, comparator=s.comparator)
    if s.info["flipped"].any():
        a = {x.name: x for x in tr2.proof.failed_assumptions}["target"]
        assert a.rounds.tolist() == np.flatnonzero(s.info["flipped"]).tolist()
        assert tr2.proof.mistake_bound is None
    else:
        assert tr2.proof.failed_assumptions == [] and tr2.proof.violations() == []


# ----------------------------------------------------------------------------- edge cases and formats


def test_all_negative_stream_and_single_round():
    X = np.array([[0, 1, 1], [1, 1, 1]])
    tr = olc_core.run("conjunction", X, np.array([0, 0]))
    assert tr.n_mistakes == 0
    c = tr.proof.constants["target"]
    assert c.size == 6 and not c.satisfiable          # no positives: every literal survives
    assert tr.proof.series["bound_c"].tolist() == [0.0] and tr.proof.violations() == []
    one = olc_core.run("conjunction", np.array([[1]]), np.array([1]))
    assert one.mistakes.tolist() == [0] and _lits(one.weights_at(1)) == [1, 0]
    assert one.proof.series["h_size"].tolist() == [2, 1] and one.proof.violations() == []


def test_comparator_formats_agree():
    n = 4
    forms = [[1, -3], ["x1", "¬x3"], ["x1", "~x3"], "x1 ∧ ¬x3", "x1 & not x3", "x1 and !x3",
             np.array([1, -3]), np.array([1, 0, 0, 0, 0, 1, 0, 0], dtype=bool), Conjunction(4, (1, -3))]
    for f in forms:
        assert Conjunction.parse(f, n).literals == (1, -3), f
    assert Conjunction.parse("True", n).literals == () and Conjunction.parse([], n).size == 0
    X = np.array([[1, 0, 0, 1]])
    for bad, msg in [([5], "out of range"), (["x9"], "outside"), ([0], "out of range"),
                     (np.zeros(3, dtype=bool), "length 2n"), (["y1"], "cannot read"), (Conjunction(3, ()), "bits")]:
        with pytest.raises(ValueError, match=msg):
            olc_core.run("conjunction", X, [1], comparator=bad)


def test_binary_input_checked():
    with pytest.raises(ValueError, match="0/1"):
        olc_core.run("conjunction", np.array([[0, 2]]), np.array([1]))
    with pytest.raises(ValueError, match="labels"):
        olc_core.run("conjunction", np.array([[0, 1]]), np.array([-1]))


def test_streams_are_seeded_and_labelled_by_the_target():
    a = sb.conjunction(T=500, n=8, k=4, seed=3)
    b = sb.conjunction(T=500, n=8, k=4, seed=3)
    np.testing.assert_array_equal(a.X, b.X)
    np.testing.assert_array_equal(a.y, b.y)
    assert a.comparator == b.comparator and a.comparator.size == 4
    np.testing.assert_array_equal(a.comparator(a.X), a.y)
    assert 0.35 < a.y.mean() < 0.65                      # positive_rate ½
    mono = sb.conjunction(T=50, n=6, k=3, seed=1, negated=False)
    assert all(v > 0 for v in mono.comparator.literals)
    noisy = sb.conjunction(T=400, n=5, seed=2, noise=0.2)
    flipped = noisy.info["flipped"]
    assert 0.1 < flipped.mean() < 0.3
    np.testing.assert_array_equal(noisy.comparator(noisy.X) != noisy.y, flipped)
    with pytest.raises(ValueError, match="k must be"):
        sb.conjunction(T=5, n=3, k=4)


def test_long_run_is_fast_and_stores_little():
    s = sb.conjunction(T=300_000, n=40, k=5, seed=0)
    t0 = time.perf_counter()
    tr = olc_core.run("conjunction", s.X, s.y, comparator=s.comparator)
    assert time.perf_counter() - t0 < 10.0
    assert tr.proof.violations() == [] and tr.n_mistakes <= 41
    assert tr.history.nbytes < 10_000                   # at most n + 1 snapshots of 2n bytes
    assert tr.n_mistakes == tr.proof.K - 1
