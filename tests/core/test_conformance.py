"""One suite over every learner: determinism, no input mutation, conservativeness,
agreement with an independent naive replay, the API surface, and bad input."""
from __future__ import annotations

import copy

import numpy as np
import pytest

import olc_core
from tests.core.cases import all_cases

CASES = all_cases()
PARAMS = [pytest.param(c, s, id=f"{c.id}-seed{s}") for c in CASES for s in c.seeds]


def _same_trace(a, b):
    assert a.T == b.T
    np.testing.assert_array_equal(a.mistakes, b.mistakes)
    np.testing.assert_array_equal(a.predictions, b.predictions)
    for t in range(a.T + 1):
        np.testing.assert_array_equal(a.weights_at(t), b.weights_at(t))
    pa, pb = a.proof, b.proof
    assert pa.mistake_bound == pb.mistake_bound
    assert set(pa.series) == set(pb.series)
    for k in pa.series:
        np.testing.assert_array_equal(pa.series[k], pb.series[k])


def test_every_algorithm_has_a_case():
    assert {c.algorithm for c in CASES} >= set(olc_core.ALGORITHMS)


@pytest.mark.parametrize("case,seed", PARAMS)
def test_deterministic_and_inputs_not_mutated(case, seed):
    X, y, params = case.make(seed)
    X0, y0, p0 = X.copy(), y.copy(), copy.deepcopy(params)
    a = olc_core.run(case.algorithm, X, y, **params)
    np.testing.assert_array_equal(X, X0)
    np.testing.assert_array_equal(y, y0)
    for k, v in p0.items():
        np.testing.assert_array_equal(np.asarray(params[k], dtype=object), np.asarray(v, dtype=object))
    X2, y2, params2 = case.make(seed)
    b = olc_core.run(case.algorithm, X2, y2, **params2)
    _same_trace(a, b)


@pytest.mark.parametrize("case,seed", PARAMS)
def test_agrees_with_naive_replay(case, seed):
    X, y, params = case.make(seed)
    tr = olc_core.run(case.algorithm, X, y, **params)
    ref = case.naive(X.copy(), y.copy(), dict(params))
    assert tr.mistakes.tolist() == list(ref.mistakes)
    assert len(ref.weights) == tr.T + 1
    for t in range(tr.T + 1):
        got = tr.log_weights_at(t) if case.log_weights else tr.weights_at(t)
        want = np.asarray(ref.weights[t], dtype=np.float64)
        if case.exact:
            np.testing.assert_array_equal(got, want, err_msg=f"weights before round {t}")
        else:
            np.testing.assert_allclose(got, want, rtol=1e-9, atol=1e-9, err_msg=f"weights before round {t}")
    if ref.predictions is not None:
        np.testing.assert_array_equal(np.asarray(tr.predictions, dtype=float), np.asarray(ref.predictions, float))


@pytest.mark.parametrize("case,seed", PARAMS)
def test_conservative_learners_change_weights_only_on_mistakes(case, seed):
    if not case.conservative:
        pytest.skip("not a conservative learner")
    X, y, params = case.make(seed)
    tr = olc_core.run(case.algorithm, X, y, **params)
    flag = tr.columns["is_mistake"]
    changed = 0
    for t in range(tr.T):
        if not flag[t]:
            np.testing.assert_array_equal(tr.weights_at(t + 1), tr.weights_at(t), err_msg=f"round {t}")
        else:
            changed += 1
    assert changed == tr.n_mistakes


@pytest.mark.parametrize("case,seed", PARAMS)
def test_api_surface_and_theorem_on_good_streams(case, seed):
    X, y, params = case.make(seed)
    tr = olc_core.run(case.algorithm, X, y, **params)
    if case.extra.get("passes"):  # several passes over the data: rounds are presentations
        assert tr.T % len(y) == 0 and tr.T >= len(y)
    else:
        assert tr.T == len(y)
    assert tr.predictions.shape == (tr.T,)
    assert tr.mistakes.dtype.kind == "i" and np.all(np.diff(tr.mistakes) > 0)
    assert tr.columns["is_mistake"].sum() == tr.n_mistakes
    with pytest.raises(IndexError):
        tr.weights_at(tr.T + 1)
    with pytest.raises(IndexError):
        tr.weights_at(-1)
    # the case's stream meets the theorem's assumptions: nothing fails, the bound holds
    assert tr.proof.failed_assumptions == []
    assert tr.proof.violations() == []
    assert tr.proof.mistake_bound is not None
    # the theorem bounds proof.bounded: the mistake count, or the expected mistakes of a randomised learner
    assert tr.proof.series[tr.proof.bounded][-1] <= tr.proof.mistake_bound * (1 + 1e-9)


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_bad_input_raises_value_error(case):
    X, y, params = case.make(0)
    bad = X.copy()
    bad[len(bad) // 2, 0] = np.nan
    with pytest.raises(ValueError, match="NaN"):
        olc_core.run(case.algorithm, bad, y, **params)
    with pytest.raises(ValueError):
        olc_core.run(case.algorithm, X[:, :, None], y, **params)
    with pytest.raises(ValueError, match="rounds"):
        olc_core.run(case.algorithm, X, y[:-1], **params)
    wrong = y.copy()
    wrong[0] = 7
    with pytest.raises(ValueError, match="labels"):
        olc_core.run(case.algorithm, X, wrong, **params)
    with pytest.raises(ValueError, match="unknown parameter"):
        olc_core.run(case.algorithm, X, y, no_such_parameter=1, **params)
    with pytest.raises(ValueError, match="empty"):
        olc_core.run(case.algorithm, X[:0], y[:0], **params)
    for not_numbers in (X.astype(str), np.zeros(X.shape, dtype="datetime64[s]")):
        with pytest.raises(ValueError, match="must hold numbers"):
            olc_core.run(case.algorithm, not_numbers, y, **params)
