"""The vectorised / compiled expert learners (issue 14 speed) against the original per-round loops.

``tests/core/experts_reference`` holds the learners as they were before (verbatim, imports made
absolute). Every discrete result must be identical (predictions, mistakes, the exponent history,
the version space, RWM's chosen experts, the proofs' integer series, bounds and verdicts); the
floats the old loops computed with a running product (votes, log Φ, F_t) agree to 1e-12 relative
(the new code computes β^k directly). With numba, both engines must give bit-identical traces.
"""
from __future__ import annotations

import os
from contextlib import contextmanager

import numpy as np
import pytest

import olc_core
from olc_core._params import validate
from tests.core.experts_reference import halving as old_halving
from tests.core.experts_reference import randomized_weighted_majority as old_rwm
from tests.core.experts_reference import weighted_majority as old_wm

RTOL = 1e-12


@contextmanager
def engine(name: str):
    old = os.environ.get("OLC_CORE_ENGINE")
    os.environ["OLC_CORE_ENGINE"] = name
    try:
        yield
    finally:
        if old is None:
            del os.environ["OLC_CORE_ENGINE"]
        else:
            os.environ["OLC_CORE_ENGINE"] = old


def _advice(rng, T, N, kind):
    """Random advice with many ties: few distinct columns (duplicated experts), some ±1, some 0/1."""
    base = rng.integers(0, 2, size=(T, max(1, N // 3 if kind == "dup" else N)))
    A = base[:, rng.integers(0, base.shape[1], size=N)] if kind == "dup" else base
    y = np.where(rng.random(T) < 0.5, 1, -1)
    if kind == "pm1" or kind == "dup":
        A = np.where(A > 0, 1, -1).astype(np.int8)
    elif kind == "float01":
        A = A.astype(np.float64)
    else:
        A = A.astype(np.uint8)
    return A, y


STREAMS = [(s, T, N, kind) for s, (T, N) in enumerate([(1, 1), (7, 1), (50, 2), (200, 3), (300, 4), (400, 10),
                                                       (500, 64), (300, 129), (150, 1000)])
           for kind in ("pm1", "dup", "float01", "u8")]


def _same_floats(a, b, what):
    a, b = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    assert a.shape == b.shape, what
    inf = ~np.isfinite(b)
    assert np.array_equal(a[inf], b[inf]), what
    np.testing.assert_allclose(a[~inf], b[~inf], rtol=RTOL, atol=1e-300, err_msg=what)


def _same_proof(p, q, float_series=()):
    assert p.name == q.name and p.mistake_bound == q.mistake_bound
    assert np.array_equal(p.state_rounds, q.state_rounds) and np.array_equal(p.n_mistakes, q.n_mistakes)
    assert set(p.series) == set(q.series)
    for k in q.series:
        if k in float_series:
            _same_floats(p.series[k], q.series[k], k)
        else:
            assert np.array_equal(p.series[k], q.series[k]), k
    assert [(v.round, v.name) for v in p.violations()] == [(v.round, v.name) for v in q.violations()]
    assert [a.name for a in p.failed_assumptions] == [a.name for a in q.failed_assumptions]
    assert p.constants.keys() == q.constants.keys()
    for k in q.constants:
        a, b = p.constants[k], q.constants[k]
        if isinstance(b, float) and k not in float_series:
            _same_floats(a, b, k)
        elif isinstance(b, np.ndarray):
            assert np.array_equal(a, b), k
        else:
            assert a == b or (isinstance(b, float) and abs(a - b) <= RTOL * abs(b)), k


def _same_history(new, old, T):
    for t in sorted({0, 1, T // 3, T // 2, T - 1, T}):
        assert np.array_equal(new.weights_at(t), old.weights_at(t)) or np.allclose(
            new.log_weights_at(t), old.log_weights_at(t), rtol=RTOL), t
        assert np.array_equal(np.asarray(new.history.raw_at(t)), np.asarray(old.history.raw_at(t))), t


# ---------------------------------------------------------------------------- Halving
@pytest.mark.parametrize("update", ["on_mistake", "every_round"])
@pytest.mark.parametrize("seed,T,N,kind", STREAMS)
def test_halving_matches_the_per_round_loop(seed, T, N, kind, update):
    rng = np.random.default_rng(seed)
    A, y = _advice(rng, T, N, kind)
    if seed % 2:  # realisable: one column is the label
        j = int(rng.integers(N))
        A[:, j] = np.where(y > 0, 1, A.min() if A.min() < 0 else 0)
    p = validate("halving", {"update": update})
    new, old = olc_core.run("halving", A, y, **p), old_halving.run(A, y, p)
    _check_halving(new, old)


def _check_halving(new, old):
    assert np.array_equal(new.predictions, old.predictions) and np.array_equal(new.mistakes, old.mistakes)
    for k in ("vote", "version_space_size"):
        assert np.array_equal(new.columns[k], old.columns[k]), k
    assert np.array_equal(new.history.removed_before, old.history.removed_before)
    assert np.array_equal(new.info["consistent"], old.info["consistent"])
    _same_proof(new.proof, old.proof)


def test_halving_with_hypothesis_classes_matches():
    from olc_core.hypotheses import HalfPlanes, MonotoneConjunctions, Thresholds
    from olc_core.streams.experts import target_concept
    for H in (Thresholds(tuple(np.linspace(0, 1, 33))), HalfPlanes(24), MonotoneConjunctions(5)):
        for seed in range(3):
            st = target_concept(H, 300, seed)
            y = st.y.copy()
            if seed == 2:
                y[::7] *= -1  # not realisable
            for update in ("on_mistake", "every_round"):
                p = validate("halving", {"hypotheses": H, "update": update})
                _check_halving(olc_core.run("halving", st.X, y, **p), old_halving.run(st.X, y, p))
