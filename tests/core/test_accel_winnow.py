"""The compiled passes of olc_core._kernels.winnow give the bits of their numpy twins, the exponentiated
update gives the same trace with and without them, and the one-pass input checks still report what the
separate checks reported (NaN first, then labels, then the first entry outside [−1, 1])."""
from __future__ import annotations

import math

import numpy as np
import pytest

import olc_core
from olc_core._kernels import engine as kernel_engine
from olc_core._kernels import winnow as K
from olc_core._support import numeric as _numeric
from olc_core.learners.winnow import as_binary_matrix
from olc_core.streams.compare import dense_instances, views

from .bitwise import hard_matrix, same

needs_numba = pytest.mark.skipif(not kernel_engine.available(), reason="numba is not installed")


SHAPES = [(1, 1), (3, 5), (4, 16), (5, 17), (7, 33), (64, 100), (129, 1000), (1001, 7)]


@needs_numba
@pytest.mark.parametrize("n,d", SHAPES)
def test_rowdot_kernel_is_numeric_rowdot_bit_for_bit(n, d):
    rng = np.random.default_rng(n * 1000 + d)
    for _ in range(5):
        A = hard_matrix(rng, n, d)
        v = hard_matrix(rng, 1, d)[0]
        assert same(K.rowdot(A, v, compiled=True), _numeric.rowdot(A, v))
    A = np.array([[1e16, 1.0, -1e16] + [0.0] * (d - 3)] * n) if d >= 3 else np.ones((n, d))
    assert same(K.rowdot(A, np.ones(d), compiled=True), _numeric.rowdot(A, np.ones(d)))


@needs_numba
@pytest.mark.parametrize("n,d", SHAPES)
def test_signed_parts_kernel_is_the_two_numpy_rowdots(n, d):
    rng = np.random.default_rng(7 * n + d)
    for scale in (1.0, 30.0, 745.0, 800.0):      # z from 1 down to subnormal and 0
        X = np.clip(hard_matrix(rng, n, d), -1.0, 1.0)
        with np.errstate(under="ignore"):
            z = np.exp(-rng.random(d) * scale)
        P, Q = K.signed_parts(X, z, compiled=True)
        assert same(P, _numeric.rowdot(np.maximum(X, 0.0), z))
        assert same(Q, _numeric.rowdot(np.maximum(-X, 0.0), z))
        P2, Q2 = K.signed_parts(X, z, compiled=False)
        assert same(P2, P) and same(Q2, Q)


@pytest.mark.parametrize("compiled", [False, pytest.param(True, marks=needs_numba)])
def test_first_row_outside_the_unit_box(compiled):
    X = np.zeros((300, 70))
    X[:, 3] = 1.0
    X[:, 4] = -1.0
    assert K.first_row_outside_unit_box(X, compiled) == -1
    for row, val in ((0, math.nextafter(1.0, 2.0)), (299, math.nextafter(-1.0, -2.0)), (150, math.nan),
                     (17, math.inf), (250, -math.inf)):
        Y = X.copy()
        Y[row, 69] = val
        Y[row + 1:, 0] = 2.0               # later rows worse: the first one counts
        assert K.first_row_outside_unit_box(Y, compiled) == row


def _trace_bits(tr):
    return [tr.mistakes, tr.predictions, tr.columns["score"], tr.columns["comparator_margin"],
            tr.columns["exact_decision"], tr.history.snapshots, tr.proof.mistake_bound, tr.info["exact_decisions"]]


def _streams():
    for seed in range(4):
        yield olc_core.streams.sparse_simplex(T=3000, N=64 + 37 * seed, k=3, seed=seed), {}
        s = olc_core.streams.sparse_simplex(T=3000, N=6 + seed, k=3, seed=100 + seed)  # η = ½ ln 2: exact ties
        yield s, {"eta": 0.5 * math.log(2.0)}
    v = views(dense_instances(T=2000, N=300, k=2, seed=3))["normalized_winnow"]
    yield v, {}
    s = olc_core.streams.sparse_simplex(T=500, N=40, k=5, seed=9)
    yield type(s)(s.X * 0.75, s.y, s.comparator, s.info), {}        # entries ±0.75: float counts (Fractions)


@needs_numba
def test_the_exponentiated_update_is_the_same_with_and_without_the_kernels(monkeypatch):
    ties = 0
    for s, extra in _streams():
        monkeypatch.delenv("OLC_CORE_ENGINE", raising=False)
        assert K.use_compiled(np.asarray(s.X))
        a = olc_core.run("normalized_winnow", s.X, s.y, comparator=s.comparator, **extra)
        monkeypatch.setenv("OLC_CORE_ENGINE", "numpy")
        assert not K.use_compiled(np.asarray(s.X))
        b = olc_core.run("normalized_winnow", s.X, s.y, comparator=s.comparator, **extra)
        for x, y in zip(_trace_bits(a), _trace_bits(b)):
            assert same(x, y)
        ties += int(a.info["exact_decisions"])
    assert ties > 0                                     # the exact tie decisions ran on the compiled path too


@pytest.mark.parametrize("engine", ["numpy", pytest.param("auto", marks=needs_numba)])
def test_input_errors_keep_their_order_and_messages(engine, monkeypatch):
    monkeypatch.setenv("OLC_CORE_ENGINE", engine)
    X = np.where(np.random.default_rng(0).random((200, 100)) < 0.5, -1.0, 1.0)
    y = np.ones(200)
    bad = X.copy()
    bad[150, 7] = 1.5
    with pytest.raises(ValueError, match=r"\[-1, 1\].*found 1.5 at round 151, feature 8"):
        olc_core.run("normalized_winnow", bad, y)
    nan = bad.copy()
    nan[190, 2] = math.nan                  # a NaN anywhere is reported before the entry outside the box
    with pytest.raises(ValueError, match="NaN or infinite value at round 191"):
        olc_core.run("normalized_winnow", nan, y)
    y0 = y.copy()
    y0[3] = 0.0                              # a bad label before the entry outside the box
    with pytest.raises(ValueError, match="found 0 at round 4"):
        olc_core.run("normalized_winnow", bad, y0)
    with pytest.raises(ValueError, match="NaN or infinite value at round 191"):
        olc_core.run("normalized_winnow", nan, y0)


@pytest.mark.parametrize("dtype,val", [(np.uint8, 2), (np.uint8, 255), (np.uint16, 300), (np.int8, -1),
                                       (np.int64, 2), (np.int32, -7)])
def test_winnow_integer_input_is_checked_in_one_pass_and_still_named(dtype, val):
    X = np.zeros((500, 40), dtype=dtype)
    X[::3, 5] = 1
    assert as_binary_matrix(X) is X or np.array_equal(as_binary_matrix(X), X)
    X[321, 17] = val
    with pytest.raises(ValueError, match=f"0/1; found {val} at round 322, feature 18"):
        as_binary_matrix(X)


@pytest.mark.parametrize("compiled", [False, pytest.param(True, marks=needs_numba)])
@pytest.mark.parametrize("n,d", SHAPES)
def test_rowdot_in_box_is_rowdot_and_the_box_check_in_one_pass(compiled, n, d):
    rng = np.random.default_rng(3 * n + d)
    X = np.clip(hard_matrix(rng, n, d), -1.0, 1.0)
    v = hard_matrix(rng, 1, d)[0]
    dots, bad = K.rowdot_in_box(X, v, compiled)
    assert bad == -1 and same(dots, _numeric.rowdot(X, v))
    for row in {0, n - 1, n // 2, max(0, n - 2)}:      # the first bad row, wherever it falls in a group of 4
        Y = X.copy()
        Y[row, d - 1] = np.nan if row % 2 else -1.5
        Y[row + 1:, 0] = 7.0
        dots, bad = K.rowdot_in_box(Y, v, compiled)
        assert dots is None and bad == row == K.first_row_outside_unit_box(Y, compiled)


@pytest.mark.parametrize("engine", ["numpy", pytest.param("auto", marks=needs_numba)])
def test_a_bad_comparator_is_still_reported_after_the_data_checks(engine, monkeypatch):
    monkeypatch.setenv("OLC_CORE_ENGINE", engine)
    X = np.where(np.random.default_rng(1).random((300, 80)) < 0.5, -1.0, 1.0)
    y = np.ones(300)
    u = np.zeros(80)
    u[:3] = 2.0                                       # valid, rescaled to sum 1
    tr = olc_core.run("normalized_winnow", X, y, comparator=u)
    assert same(tr.columns["comparator_margin"], y * _numeric.rowdot(X, u / 6.0))
    bad = X.copy()
    bad[200, 1] = -2.0
    for comp in (-u, np.zeros(80), u[:5]):            # negative, zero sum, wrong length
        with pytest.raises(ValueError, match=r"found -2 at round 201, feature 2"):
            olc_core.run("normalized_winnow", bad, y, comparator=comp)
        with pytest.raises(ValueError, match="comparator"):
            olc_core.run("normalized_winnow", X, y, comparator=comp)
