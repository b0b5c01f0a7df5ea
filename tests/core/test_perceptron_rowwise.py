"""The numpy Perceptron loop goes round by round in Python floats where mistakes come close together
(small d): the same bits as its blocks of rows (and so as the compiled loop, which other tests compare)."""
from __future__ import annotations

import numpy as np
import pytest

import olc_core
from olc_core.learners import perceptron as PL


def _streams():
    for seed, noise in ((0, 0.0), (1, 0.05), (2, 0.2), (3, 0.45)):
        s = olc_core.streams.separable(4000, 5, 0.1, 1.0, seed, noise=noise)
        yield s.X, s.y, s.comparator
    rng = np.random.default_rng(5)
    for d in (1, 2, 8):   # mixed magnitudes and cancellation: the order of each sum shows
        kind = rng.integers(4, size=(3000, d))
        X = np.choose(kind, [rng.standard_normal((3000, d)), rng.standard_normal((3000, d)) * 1e8,
                             np.full((3000, d), -0.0), rng.standard_normal((3000, d)) * 1e-8])
        y = np.where(rng.random(3000) < 0.5, -1.0, 1.0)
        yield np.ascontiguousarray(X), y, None


@pytest.mark.parametrize("case", range(7))
def test_round_by_round_is_the_blocks_bit_for_bit(case, monkeypatch):
    X, y, u = list(_streams())[case]
    monkeypatch.setattr(PL, "ROWWISE_D", 0)
    blocks = PL.perceptron_numpy(X, y, u)
    monkeypatch.setattr(PL, "ROWWISE_D", 8)
    calls, dense = [], PL._dense_rounds
    monkeypatch.setattr(PL, "_dense_rounds", lambda *a, **k: calls.append(1) or dense(*a, **k))
    rows = PL.perceptron_numpy(X, y, u)
    assert case < 2 or len(calls) > 3            # mistakes close together: the round-by-round path ran
    for a, b in zip(blocks, rows):
        a, b = np.asarray(a), np.asarray(b)
        assert a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes()
