"""Helpers for the bit-for-bit tests of the engines' twins (test_accel_winnow.py, test_numeric_twins.py)."""
from __future__ import annotations

import numpy as np


def same(a, b) -> bool:
    """Equal dtype, shape and bytes: the same bits, ±0 and NaN payloads included."""
    a, b = np.asarray(a), np.asarray(b)
    return a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes()


def hard_matrix(rng, n, d):
    """Entries that make summation order visible (pairwise and sequential sums differ): mixed magnitudes,
    cancellation, ±0, subnormals, ±1."""
    kind = rng.integers(6, size=(n, d))
    A = np.choose(kind, [rng.standard_normal((n, d)), np.where(rng.random((n, d)) < 0.5, -1.0, 1.0),
                         rng.standard_normal((n, d)) * 1e16, np.full((n, d), -0.0), np.full((n, d), 5e-324),
                         rng.random((n, d)) * 1e-300])
    return np.ascontiguousarray(A)
