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
from olc_core._support.params import validate
from tests.core.experts_reference import halving as old_halving
from tests.core.experts_reference import randomized_weighted_majority as old_rwm
from tests.core.experts_reference import weighted_majority as old_wm

RTOL = 1e-12


@contextmanager
def engine(name: str):
    """``OLC_CORE_ENGINE=name`` inside the block (the variable restored after)."""
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
    """Equal infinities/NaNs; finite values to 1e-12 (relative, or absolute on the series' scale:
    log-space sums). ``log_phi_pred`` = ln Φ_t + ln(1 − ηF_t) loses digits when ηF_t ≈ 1 (β ≈ 0), in
    the old code as in the new: ~ε/(1 − ηF_t), so 1e-6 absolute there."""
    a, b = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    assert a.shape == b.shape, what
    inf = ~np.isfinite(b)
    assert np.array_equal(a[inf], b[inf], equal_nan=True), what
    scale = max(1.0, float(np.abs(b[~inf]).max())) if (~inf).any() else 1.0   # log-space differences: absolute
    atol = 1e-6 if what == "log_phi_pred" else RTOL * scale
    np.testing.assert_allclose(a[~inf], b[~inf], rtol=RTOL, atol=atol, err_msg=what)


def _equal(a, b) -> bool:
    a, b = np.asarray(a), np.asarray(b)
    return np.array_equal(a, b, equal_nan=a.dtype.kind == "f" and b.dtype.kind == "f")


def _same_proof(p, q, float_series=()):
    assert p.name == q.name and p.mistake_bound == q.mistake_bound
    assert np.array_equal(p.state_rounds, q.state_rounds) and np.array_equal(p.n_mistakes, q.n_mistakes)
    assert set(p.series) == set(q.series)
    for k in q.series:
        if k in float_series or np.asarray(q.series[k]).dtype.kind == "f":
            _same_floats(p.series[k], q.series[k], k)
        else:
            assert _equal(p.series[k], q.series[k]), k
    vp, vq = p.violations(), q.violations()
    # the old loops' proofs flagged RWM's step link at η = 1 − 1e-9 (ln(1 − ηF) had ~7 digits): the new
    # proofs check it exactly (test_rwm_potential_step.py) and flag nothing on these correct runs
    step = {"potential step (≤)", "potential step (≥)"}
    assert [v for v in vp if v.chain in step] == []
    assert [v for v in vp if v.chain not in step] == [v for v in vq if v.chain not in step]
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


# ---------------------------------------------------------------------------- Weighted Majority
BETAS = (0.0, 1e-9, 0.05, 0.5, 0.6, 0.9, 0.999999)


def _check_wm(new, old):
    assert np.array_equal(new.predictions, old.predictions) and np.array_equal(new.mistakes, old.mistakes)
    _same_floats(new.columns["vote"], old.columns["vote"], "vote")
    _same_floats(new.columns["wrong_fraction"], old.columns["wrong_fraction"], "wrong_fraction")
    assert np.array_equal(new.info["expert_mistakes"], old.info["expert_mistakes"])
    assert new.info["best_expert"] == old.info["best_expert"]
    _same_history(new, old, new.T)
    for name in ("beta_form", "eta_form"):
        _same_proof(new.proofs[name], old.proofs[name], float_series=("log_phi", "Phi", "log_Phi"))


@pytest.mark.parametrize("update", ["on_mistake", "every_round"])
@pytest.mark.parametrize("seed,T,N,kind", STREAMS)
def test_weighted_majority_matches_the_per_round_loop(seed, T, N, kind, update):
    rng = np.random.default_rng(100 + seed)
    A, y = _advice(rng, T, N, kind)
    for beta in BETAS:
        p = validate("weighted_majority", {"beta": beta, "update": update})
        old = old_wm.run(A, y, p)
        for eng in ("numpy", "numba"):
            with engine(eng):
                _check_wm(olc_core.run("weighted_majority", A, y, **p), old)


def _tie_stream(T, beta_num):
    """Two opposite experts, and three experts (+, −, −): votes β^a − β^b and 1·β^a − 2·β^b, exact ties."""
    rng = np.random.default_rng(beta_num)
    a = np.where(rng.random(T) < 0.5, 1, -1)
    A = np.stack([a, -a, -a, a], axis=1).astype(np.int8)
    return A, np.where(rng.random(T) < 0.5, 1, -1)


@pytest.mark.parametrize("update", ["on_mistake", "every_round"])
def test_weighted_majority_exact_ties_go_to_plus_one_in_both_engines(update):
    for beta in (0.5, 0.25, 0.75, 1 / 3):
        A, y = _tie_stream(400, int(beta * 100))
        p = validate("weighted_majority", {"beta": beta, "update": update})
        old = old_wm.run(A, y, p)
        ties = np.flatnonzero(old.columns["vote"] == 0)
        assert ties.size and (old.predictions[ties] == 1).all()      # the stream really ties
        for eng in ("numpy", "numba"):
            with engine(eng):
                _check_wm(olc_core.run("weighted_majority", A, y, **p), old)


def test_weighted_majority_engines_bit_identical():
    pytest.importorskip("numba")
    from olc_core.streams.experts import adversary, experts
    streams = [experts(3000, N, np.linspace(0.1, 0.5, N), seed) for seed, N in ((0, 1), (1, 10), (2, 300))]
    streams.append(adversary(500, 7, 0.9, "on_mistake", 3))
    for st in streams:
        for beta in BETAS:
            p = validate("weighted_majority", {"beta": beta})
            runs = []
            for eng in ("numpy", "numba"):
                with engine(eng):
                    runs.append(olc_core.run("weighted_majority", st.X, st.y, **p))
            a, b = runs
            assert np.array_equal(a.predictions, b.predictions)
            assert np.array_equal(a.columns["vote"], b.columns["vote"])
            for name in ("beta_form", "eta_form"):
                for k in a.proofs[name].series:
                    assert _equal(a.proofs[name].series[k], b.proofs[name].series[k]), k


# ---------------------------------------------------------------------------- Randomised WM
@pytest.mark.parametrize("seed,T,N,kind", STREAMS)
def test_rwm_matches_the_per_round_loop(seed, T, N, kind):
    rng = np.random.default_rng(200 + seed)
    A, y = _advice(rng, T, N, kind)
    for beta in BETAS:
        p = validate("randomized_weighted_majority", {"beta": beta, "seed": seed})
        new, old = olc_core.run("randomized_weighted_majority", A, y, **p), old_rwm.run(A, y, p)
        assert np.array_equal(new.columns["chosen_expert"], old.columns["chosen_expert"])
        assert np.array_equal(new.predictions, old.predictions) and np.array_equal(new.mistakes, old.mistakes)
        _same_floats(new.columns["F"], old.columns["F"], "F")
        _same_floats(new.info["expected_mistakes"], old.info["expected_mistakes"], "E[M]")
        assert np.array_equal(new.info["expert_mistakes"], old.info["expert_mistakes"])
        _same_history(new, old, T)
        for name in ("expected", "eta_form"):
            _same_proof(new.proofs[name], old.proofs[name],
                        float_series=("log_phi", "Phi", "log_Phi", "EM", "expected_mistakes", "F"))


def test_rwm_realised_mistakes_match_the_per_round_loop():
    from olc_core.streams.experts import experts
    for seed, (T, N, eta) in enumerate([(300, 5, 0.3), (1000, 40, 0.9), (200, 3, 1.0), (50, 1, 0.5)]):
        st = experts(T, N, np.linspace(0.1, 0.5, N), seed)
        from olc_core.learners.randomized_weighted_majority import realised_mistakes
        new, old = realised_mistakes(st.X, st.y, seeds=25, eta=eta), old_rwm.realised_mistakes(st.X, st.y, 25, eta=eta)
        assert np.array_equal(new.totals, old.totals) and np.array_equal(new.rounds, old.rounds)
        assert np.array_equal(new.band, old.band) and np.array_equal(new.mean, old.mean)
        _same_floats(new.expected, old.expected, "expected")
        assert new.bound == old.bound
        one = olc_core.run("randomized_weighted_majority", st.X, st.y, eta=eta, seed=3)
        assert new.totals[3] == one.n_mistakes


def test_weighted_majority_on_mistake_segment_and_block_series_bit_identical(monkeypatch):
    """The on_mistake series come from runs between mistakes (few mistakes, many experts) or from blocks of
    rounds (many mistakes, few experts): both ways must give the same bits, and the old loop's values."""
    import olc_core.learners.weighted_majority as wm
    from olc_core.streams.experts import adversary, experts
    streams = [experts(2000, N, np.linspace(0.1, 0.5, N), seed) for seed, N in ((0, 1), (1, 10), (2, 300))]
    streams.append(adversary(400, 7, 0.9, "on_mistake", 3))
    for st in streams:
        for beta in (0.0, 0.3, 0.9):
            p = validate("weighted_majority", {"beta": beta})
            runs = []
            for cost in (0, 10 ** 12):      # 0: always blocks; 10^12: always runs between mistakes
                monkeypatch.setattr(wm, "SEGMENT_COST", cost)
                runs.append(olc_core.run("weighted_majority", st.X, st.y, **p))
            a, b = runs
            assert np.array_equal(a.columns["vote"], b.columns["vote"])
            for t in (0, 1, st.y.size // 2, st.y.size):
                assert np.array_equal(a.history.raw_at(t), b.history.raw_at(t))
            for k in a.proof.series:
                assert _equal(a.proof.series[k], b.proof.series[k]), k
            _check_wm(a, old_wm.run(st.X, st.y, p))


def test_advice_checks_report_what_the_old_ones_did():
    """The advice check reads each block fewer times now: same encodings, same messages (first bad cell)."""
    from olc_core.learners.weighted_majority import advice_matrix
    rng = np.random.default_rng(7)
    for trial in range(60):
        T, N = int(rng.integers(1, 40)), int(rng.integers(1, 30))
        kind = ("pm1", "01", "float01", "u8")[trial % 4]
        A, _ = _advice(rng, T, N, "pm1" if kind == "pm1" else kind)
        if kind == "01":
            A = (A > 0).astype(np.int16)
        A = A.copy()
        bad = trial % 3
        if bad == 1:       # a mix of −1 and 0
            A = np.where(A > 0, 1, -1).astype(np.int8 if kind != "float01" else np.float64)
            A[rng.integers(T), rng.integers(N)] = 0
        elif bad == 2:     # a value outside {−1, 0, 1}
            A = A.astype(np.float64) if kind == "float01" else A.astype(np.int16)
            A[rng.integers(T), rng.integers(N)] = (2, -3, 0.5, np.nan)[trial % 4] if kind == "float01" else 2
        got = want = None
        try:
            got = advice_matrix(A, "weighted_majority")[1]
        except ValueError as e:
            got = str(e)
        try:
            want = old_wm.advice_matrix(A, "weighted_majority")[1]
        except ValueError as e:
            want = str(e)
        assert got == want, (trial, got, want)
