"""The numpy sums that must match the compiled kernels bit for bit (olc_core._support.numeric.rowdot,
rowwise_dot, and the numpy twin of olc_core._kernels.winnow.signed_parts) sum each row sequentially,
from 0.0, j = 0 … d−1: checked against plain Python loops on entries that make the order visible, at
shapes that cross their block sizes (a transposed block of one row is the case numpy would sum
pairwise), without numba."""
from __future__ import annotations

import numpy as np
import pytest

from olc_core._kernels import winnow as K
from olc_core._support import numeric as _numeric

from .bitwise import hard_matrix, same


def loop_rowdot(A, B):
    """Σ_j A[i, j]·B[i, j] (B broadcast) in plain Python floats: the reference order."""
    B = np.broadcast_to(B, A.shape)
    out = []
    for a, b in zip(A.tolist(), B.tolist()):
        s = 0.0
        for x, w in zip(a, b):
            s += float(x) * w
        out.append(s)
    return np.array(out, dtype=np.float64)


# (n, d): one row; block widths 1…5 after full blocks (2¹⁶ cells per block); d just above the loop's 16
SHAPES = [(1, 17), (1, 300), (2, 40), (3, 1000), (5, 17), (66, 1000), (67, 1000), (69, 1000), (200, 333)]


@pytest.mark.parametrize("n,d", SHAPES)
def test_rowdot_and_rowwise_dot_sum_each_row_in_order(n, d):
    rng = np.random.default_rng(31 * n + d)
    for _ in range(3):
        A = hard_matrix(rng, n, d)
        v = hard_matrix(rng, 1, d)[0]
        assert same(_numeric.rowdot(A, v), loop_rowdot(A, v[None, :]))
        B = hard_matrix(rng, n, d)
        assert same(_numeric.rowwise_dot(A, B), loop_rowdot(A, B))
    U = (rng.random((n, d)) < 0.4).astype(np.uint8)            # Winnow's X: uint8
    v = hard_matrix(rng, 1, d)[0]
    assert same(_numeric.rowdot(U, v), loop_rowdot(U.astype(np.float64), v[None, :]))
    A = np.zeros((n, d))
    A[:, :3] = (1e16, 1.0, -1e16)                                # pairwise would keep the 1
    assert same(_numeric.rowdot(A, np.ones(d)), np.zeros(n))


@pytest.mark.parametrize("n,d", SHAPES)
def test_signed_parts_twin_sums_each_part_in_order(n, d):
    rng = np.random.default_rng(7 * n + d)
    for scale in (1.0, 30.0, 745.0, 800.0):      # z from 1 down to subnormal and 0
        X = np.clip(hard_matrix(rng, n, d), -1.0, 1.0)
        with np.errstate(under="ignore"):
            z = np.exp(-rng.random(d) * scale)
        P, Q = K.signed_parts(X, z, compiled=False)
        assert same(P, loop_rowdot(np.maximum(X, 0.0), z[None, :]))
        assert same(Q, loop_rowdot(np.maximum(-X, 0.0), z[None, :]))
    X = rng.choice([-1.0, 0.0, 1.0], size=(n, d))                 # ±1 features, as the sweeps draw them
    z = np.exp(-rng.random(d) * 50.0)
    P, Q = K.signed_parts(X, z, compiled=False)
    assert same(P, loop_rowdot(np.maximum(X, 0.0), z[None, :]))
    assert same(Q, loop_rowdot(np.maximum(-X, 0.0), z[None, :]))
