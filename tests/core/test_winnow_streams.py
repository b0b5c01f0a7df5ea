"""Streams for the Winnow lesson: a uint8 sparse disjunction equal to the float one, and the adversary
that makes Winnow err on every forced round with labels that are still the target disjunction's."""
from __future__ import annotations

import numpy as np
import pytest

import olc_core
from olc_core.streams.winnow_extra import winnow_adversary


@pytest.mark.parametrize("T,N,k,noise", [(1, 1, 1, 0.0), (300, 50, 3, 0.1), (5000, 900, 2, 0.0)])
def test_sparse_disjunction_dtype_gives_the_same_stream(T, N, k, noise):
    a = olc_core.streams.sparse_disjunction(T=T, N=N, k=k, seed=7, noise=noise)
    b = olc_core.streams.sparse_disjunction(T=T, N=N, k=k, seed=7, noise=noise, dtype=np.uint8)
    assert a.X.dtype == np.float64 and b.X.dtype == np.uint8
    assert np.array_equal(a.X, b.X) and np.array_equal(a.y, b.y) and np.array_equal(a.comparator, b.comparator)
    assert np.array_equal(a.y, np.maximum(a.X[:, a.comparator].max(axis=1), 0) != a.info["flipped"])


@pytest.mark.parametrize("T,N,k,beta", [(60, 16, 1, 1.0), (400, 100, 3, 1.0), (600, 200, 2, 0.3),
                                        (300, 50, 4, 3.0), (50, 2, 1, 1.0), (30, 5, 5, 1.0)])
def test_adversary_forces_mistakes_within_the_bound(T, N, k, beta):
    s = winnow_adversary(T=T, N=N, k=k, beta=beta, seed=1)
    assert s.X.dtype == np.uint8 and s.X.shape == (T, N)
    # the labels are the target disjunction's on every round
    assert np.array_equal(s.y, s.X[:, s.comparator].max(axis=1).astype(float))
    tr = olc_core.run("winnow", s.X, s.y, beta=beta, comparator=s.comparator)
    f = s.info["forced"]
    assert f >= 1
    assert tr.mistakes[:f].tolist() == list(range(f))          # Winnow errs on every forced round
    p = tr.proof
    assert p.violations() == [] and p.mistake_bound is not None
    assert tr.n_mistakes <= p.mistake_bound


def test_adversary_reaches_most_of_the_bound():
    s = winnow_adversary(T=1000, N=256, k=2, beta=1.0, seed=0)
    tr = olc_core.run("winnow", s.X, s.y, beta=1.0, comparator=s.comparator)
    # 2 + 3·2·(8 + 1) = 56; a random stream of the same size makes far fewer
    assert tr.proof.mistake_bound == pytest.approx(56.0)
    assert s.info["forced"] >= 0.7 * 56
    r = olc_core.streams.sparse_disjunction(T=1000, N=256, k=2, seed=0)
    assert olc_core.run("winnow", r.X, r.y, beta=1.0, comparator=r.comparator).n_mistakes < s.info["forced"]


def test_adversary_rejects_bad_arguments():
    with pytest.raises(ValueError, match="k must be"):
        winnow_adversary(T=10, N=5, k=6, beta=1.0)
    with pytest.raises(ValueError, match="beta"):
        winnow_adversary(T=10, N=5, k=1, beta=0.0)
