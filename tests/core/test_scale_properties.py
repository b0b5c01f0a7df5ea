"""Hypothesis: every learner in olc_core.ALGORITHMS at scales 2^k (|k| ≤ 1000) and 10^±300 of its
conformance streams (tests/core/cases_*.py) either gives the run and proofs of the unscaled stream or
refuses / reports the scale with a message that says what is wrong.

* Real-valued X, scale-free by the theorem: the Perceptron (in 1e-100 ≤ max‖x‖ ≤ 1e100, refused
  outside), the Margin Perceptron (normalises every example: any scale), Halving on half-planes
  through the origin (a sign of a linear form).
* Real-valued X with a unit assumption, not scale-free: the FTRL classifier (‖x‖ ≤ 1) and
  normalised Winnow (‖x‖∞ ≤ 1): scaled up past the assumption they are refused naming it; scaled
  down they are different runs (their updates are not homogeneous in x) whose proofs hold, with
  the bound computed or a failed assumption that says why not.
* Boolean / expert-advice inputs (Winnow, the conjunction and decision-list learners, Weighted
  Majority, its randomised version, Halving on a label matrix): X must be 0/1 or ±1, so a scaled X
  is not an input, and it is refused naming the allowed values.
"""
from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import olc_core
from olc_core.hypotheses import HalfPlanes
from olc_core.learners.perceptron import SCALE_MAX, SCALE_MIN
from tests.core.cases import all_cases

SETTINGS = settings(deadline=None, max_examples=25, suppress_health_check=[HealthCheck.too_slow],
                    derandomize=True)
SCALES = st.one_of(st.integers(-1000, 1000).map(lambda k: 2.0 ** k), st.sampled_from([1e-300, 1e300]))

SCALE_FREE = {"perceptron", "margin_perceptron"}
UNIT_BALL = {"ftrl_randomized", "normalized_winnow"}
DISCRETE = {"winnow", "conjunction", "decision_list", "weighted_majority", "randomized_weighted_majority",
            "halving"}
CASES = {c.id: c for c in all_cases()}


def test_every_algorithm_is_classified():
    assert set(olc_core.ALGORITHMS) == SCALE_FREE | UNIT_BALL | DISCRETE


def _ids(algorithms):
    return sorted(i for i, c in CASES.items() if c.algorithm in algorithms)


def _verdicts(proof):
    return ([(v.chain, v.link) if hasattr(v, "chain") else str(v) for v in proof.violations()],
            [(a.name, a.holds) for a in proof.assumptions])


def _same_run(a, b, exact: bool):
    assert a.mistakes.tolist() == b.mistakes.tolist()
    assert a.proofs.keys() == b.proofs.keys()
    for name in a.proofs:
        p, q = a.proofs[name], b.proofs[name]
        assert _verdicts(p) == _verdicts(q), name
        if q.mistake_bound is None:
            assert p.mistake_bound is None
        else:
            assert p.mistake_bound == pytest.approx(q.mistake_bound, rel=1e-12 if not exact else 1e-15), name


def _norm_max(X):
    top = float(np.abs(X).max())
    return top * float(np.linalg.norm(X / top, axis=1).max())


@SETTINGS
@given(case_id=st.sampled_from(_ids(SCALE_FREE)), seed=st.sampled_from([0, 1]), c=SCALES)
def test_perceptron_family_same_run_or_scale_refused(case_id, seed, c):
    case = CASES[case_id]
    X, y, params = case.make(seed)
    base = olc_core.run(case.algorithm, X, y, **params)
    R = _norm_max(X) * c
    if case.algorithm == "perceptron" and not SCALE_MIN <= R <= SCALE_MAX:
        with pytest.raises(ValueError) as exc:
            olc_core.run(case.algorithm, X * c, y, **params)
        msg = str(exc.value)
        assert "the data's scale is out of range: the longest example has length ‖x‖ = " in msg
        assert f"between {SCALE_MIN:g} and {SCALE_MAX:g}" in msg and "Multiply X by a positive number" in msg
        return
    tr = olc_core.run(case.algorithm, X * c, y, **params)
    exact = math.frexp(c)[0] == 0.5
    _same_run(tr, base, exact)
    if exact and case.algorithm == "perceptron":      # the scores scale exactly: no decision can change
        np.testing.assert_array_equal(tr.columns["score"], base.columns["score"] * c * c)


@SETTINGS
@given(c=SCALES, seed=st.integers(0, 3))
def test_halving_on_half_planes_is_scale_free(c, seed):
    """sign(cos θ·x₁ + sin θ·x₂) does not depend on the scale of x (exactly so for powers of two while
    the products are not subnormal; the angles are kept away from the boundaries' multiples of π/2)."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(40, 2))
    H = HalfPlanes(12, offset=0.1)
    y = np.where(X @ np.array([math.cos(0.1), math.sin(0.1)]) >= 0, 1.0, -1.0)
    base = olc_core.run("halving", X, y, hypotheses=H)
    tr = olc_core.run("halving", X * c, y, hypotheses=H)
    _same_run(tr, base, True)


@SETTINGS
@given(case_id=st.sampled_from(_ids(UNIT_BALL)), seed=st.sampled_from([0, 1]), c=SCALES)
def test_unit_ball_learners_refuse_or_prove(case_id, seed, c):
    case = CASES[case_id]
    X, y, params = case.make(seed)
    Xc = X * c
    if case.algorithm == "ftrl_randomized":
        too_big = _norm_max(X) * c > 1.0 + 1e-9
        expected = r"every ‖x_t‖ must be at most 1, else \(1 \+ ⟨w, x_t⟩\)/2 is not a probability; round \d+ has ‖x_t‖ = "
    else:
        too_big = float(np.abs(Xc).max()) > 1.0
        expected = r"every entry of X must be in \[-1, 1\] \(‖x_t‖∞ ≤ 1\); found "
    if too_big:
        with pytest.raises(ValueError, match=expected) as exc:
            olc_core.run(case.algorithm, Xc, y, **params)
        assert "inf" not in str(exc.value) and "nan" not in str(exc.value)
        return
    tr = olc_core.run(case.algorithm, Xc, y, **params)
    for p in tr.proofs.values():
        if not p.failed_assumptions:     # (a failed one, e.g. a given δ the shrunk data no longer have,
            assert p.violations() == []  #  may show its sandwich breaking: that is the point of showing it)
        if p.mistake_bound is not None:
            assert math.isfinite(p.mistake_bound)
        for a in p.failed_assumptions:   # e.g. the margin δ shrank with X: said in words, with numbers
            assert a.detail and "nan" not in a.detail and " inf" not in a.detail
            if a.name == "float range":
                assert "so no bound is stated" in a.detail
        if case.algorithm == "ftrl_randomized":
            base = olc_core.run(case.algorithm, X, y, **params).proof.constants
            assert p.constants["L"] == pytest.approx(base["L"] * c, rel=1e-15)


@pytest.mark.parametrize("case_id", sorted({c.algorithm: i for i, c in sorted(CASES.items(), reverse=True)
                                           if c.algorithm in DISCRETE and i != "halving-thresholds"}.values()))
@pytest.mark.parametrize("c", [1e-300, 2.0 ** -1000, 3.0, 1e300])
def test_discrete_inputs_are_not_scaled_they_are_refused(case_id, c):
    """Boolean features / expert advice: the learners read X as 0/1 or ±1 values, nothing else."""
    case = CASES[case_id]
    X, y, params = case.make(0)
    with pytest.raises(ValueError, match=r"X must (be 0/1|hold -1/\+1 advice \(or 0/1\)); found ") as exc:
        olc_core.run(case.algorithm, X * c, y, **params)
    assert "at round" in str(exc.value)


@pytest.mark.parametrize("c", [1e-300, 2.0 ** -1000, 3.0, 1e300])
def test_halving_on_thresholds_reads_the_scaled_points_as_other_points(c):
    """Thresholds h_θ(x) = [x ≥ θ] have fixed θ: scaled instances are another stream, not a scaled one.
    The proof still checks; when no threshold labels the scaled stream it says so (no bound claimed)."""
    case = CASES["halving-thresholds"]
    X, y, params = case.make(0)
    tr = olc_core.run("halving", X * c, y, **params)
    p = tr.proof
    if p.failed_assumptions:
        assert p.mistake_bound is None and all(a.detail for a in p.failed_assumptions)
    else:
        assert p.violations() == [] and tr.n_mistakes <= p.mistake_bound
