"""The compare page's stream: one 0/1 disjunction stream, and each learner's reading of it."""
from __future__ import annotations

import math

import numpy as np
import pytest

import olc_core
from olc_core.streams.compare import dense_instances, sparse_instances, views


@pytest.mark.parametrize("make", [lambda s: dense_instances(T=300, N=30, k=3, seed=s),
                                  lambda s: sparse_instances(T=300, N=30, k=15, ones=2, seed=s)])
@pytest.mark.parametrize("seed", [0, 7])
def test_views_read_the_same_examples_with_the_planted_margins(make, seed):
    s = make(seed)
    rel = s.comparator
    assert np.array_equal(s.y, s.X[:, rel].max(axis=1))  # a monotone disjunction of the relevant variables
    v = views(s)
    k = rel.size
    P, W, E = v["perceptron"], v["winnow"], v["normalized_winnow"]
    assert W.X is s.X and np.array_equal(W.y, s.y)
    for view in (P, E):  # (x, −1) and labels ±1: the same rounds
        assert np.array_equal(view.X[:, :-1], s.X) and np.all(view.X[:, -1] == -1.0)
        assert np.array_equal(view.y, 2 * s.y - 1)
    # the Perceptron's w*: unit norm, margin exactly 1/√(4k+1) (attained when some label is −1 or one bit on)
    assert np.linalg.norm(P.comparator) == pytest.approx(1.0)
    m = P.y * (P.X @ P.comparator)
    assert m.min() == pytest.approx(1 / math.sqrt(4 * k + 1)) and P.info["gamma"] == pytest.approx(m.min())
    # the exponentiated update's u: on the simplex, margin exactly δ = 1/(2k+1)
    assert E.comparator.min() >= 0 and E.comparator.sum() == pytest.approx(1.0)
    d = E.y * (E.X @ E.comparator)
    assert d.min() == pytest.approx(1 / (2 * k + 1)) and E.info["delta"] == pytest.approx(d.min())


def test_each_learner_runs_its_theorem_on_its_view():
    s = dense_instances(T=400, N=50, k=2, seed=4)
    for alg, v in views(s).items():
        tr = olc_core.run(alg, v.X, v.y, comparator=v.comparator)
        p = tr.proof
        assert p.applies and not p.violations()
        assert tr.n_mistakes <= p.mistake_bound
    tr = olc_core.run("perceptron", views(s)["perceptron"].X, views(s)["perceptron"].y,
                      comparator=views(s)["perceptron"].comparator)
    R2 = float((views(s)["perceptron"].X ** 2).sum(axis=1).max())
    assert tr.proof.mistake_bound == pytest.approx(R2 * (4 * 2 + 1))  # R²/γ² = R²(4k+1)


def test_streams_are_seeded_and_shaped():
    a, b = dense_instances(T=50, N=20, k=2, seed=5), dense_instances(T=50, N=20, k=2, seed=5)
    assert np.array_equal(a.X, b.X) and np.array_equal(a.comparator, b.comparator)
    assert not np.array_equal(a.X, dense_instances(T=50, N=20, k=2, seed=6).X)
    s = sparse_instances(T=40, N=9, k=3, ones=1, seed=2)
    assert (s.X.sum(axis=1) == 1).all() and s.X.dtype == np.uint8


@pytest.mark.parametrize("kw, msg", [(dict(T=0, N=5, k=1), "T must"), (dict(T=5, N=5, k=6), "k must"),
                                     (dict(T=5, N=0, k=1), "N must"), (dict(T=5, N=5, k=1, ones=6), "ones must")])
def test_bad_arguments_are_named(kw, msg):
    make = sparse_instances if "ones" in kw else dense_instances
    with pytest.raises(ValueError, match=msg):
        make(**kw)
