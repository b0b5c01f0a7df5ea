"""Hypothesis: the Perceptron family's sandwiches hold at every round on streams meeting
the assumptions, and failures are reported (no bound claimed) on streams that break them."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, example, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import olc_core
from olc_core.learners.perceptron import SCALE_MIN

SETTINGS = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def separable_streams(draw):
    T = draw(st.integers(1, 80))
    d = draw(st.integers(1, 5))
    R = draw(st.floats(0.1, 10.0))
    gamma = draw(st.floats(0.01, 0.9)) * R
    seed = draw(st.integers(0, 2**31))
    order = draw(st.sampled_from(["generated", "margin", "random"]))
    return olc_core.streams.separable(T=T, d=d, gamma=gamma, radius=R, seed=seed, order=order)


def _every_state_holds(proof):
    for name, bad in proof.check_matrix().items():
        assert not bad.any(), f"{proof.name}: {name} fails at states {np.flatnonzero(bad)[:5]}"
    assert proof.violations() == []


@SETTINGS
@given(separable_streams(), st.sampled_from(["numpy", "auto"]))
def test_separable_streams_meet_the_theorem(s, engine):
    tr = olc_core.run("perceptron", s.X, s.y, comparator=s.comparator, engine=engine)
    p = tr.proof
    assert p.failed_assumptions == []
    _every_state_holds(p)
    assert tr.n_mistakes <= p.mistake_bound * (1 + 1e-9)
    # the measured constants are those the stream was planted with
    assert abs(p.constants["gamma"] - s.info["gamma"]) <= 1e-9 * s.info["radius"]
    assert abs(p.constants["radius"] - s.info["radius"]) <= 1e-9 * s.info["radius"] or s.T == 1


@SETTINGS
@given(separable_streams())
def test_max_margin_comparator_gives_a_bound_no_worse_than_the_planted_one(s):
    tr = olc_core.run("perceptron", s.X, s.y)
    p = tr.proof
    assert p.failed_assumptions == [] and p.violations() == []
    assert tr.info["comparator_source"] == "max-margin"
    assert p.constants["gamma"] >= s.info["gamma"] * (1 - 1e-7)   # max margin ≥ planted margin
    assert tr.n_mistakes <= p.mistake_bound * (1 + 1e-9)  # attained with equality for T = 1


@SETTINGS
@given(st.integers(2, 60), st.integers(1, 4), st.integers(0, 2**31), st.floats(0.05, 0.5))
def test_label_noise_is_reported_and_no_bound_claimed(T, d, seed, noise):
    s = olc_core.streams.noisy(T=T, d=d, gamma=0.1, noise=noise, seed=seed)
    assume(s.info["flipped"].any())
    tr = olc_core.run("perceptron", s.X, s.y, comparator=s.comparator)
    [fa] = tr.proof.failed_assumptions
    assert set(fa.rounds.tolist()) == set(np.flatnonzero(s.info["flipped"]).tolist())
    assert tr.proof.mistake_bound is None
    # the non-separable theorems need no assumption on the data: they hold, with their bounds
    for name in ("nonseparable", "hinge"):
        q = tr.proofs[name]
        _every_state_holds(q)
        assert tr.n_mistakes <= q.mistake_bound * (1 + 1e-9)


@SETTINGS
@given(hnp.arrays(np.float64, st.tuples(st.integers(1, 40), st.integers(1, 4)),
                  elements=st.floats(-5, 5, allow_subnormal=False)),
       st.integers(0, 2**31), st.floats(0.001, 3.0))
@example(X=np.array([[2.87559221e-161]]), seed=0, gamma=1.0)  # too small a scale: refused with a message
@example(X=np.array([[1.0, 0.0], [1.0, 1e-160]]), seed=3, gamma=1.0)  # ‖w‖² = 1e-320 after the 2nd mistake
def test_arbitrary_data_either_separable_with_bound_or_reported(X, seed, gamma):
    y = np.random.default_rng(seed).choice([-1.0, 1.0], len(X))
    top = float(np.abs(X).max())
    R = top * float(np.max(np.linalg.norm(X / top, axis=1))) if top > 0 else 0.0   # no underflow
    if 0.0 < R < SCALE_MIN:   # every entry tiny: ‖x‖² and the scores underflow
        with pytest.raises(ValueError, match=r"scale is out of range: the longest example has length ‖x‖ = "
                                             r".*between 1e-100 and 1e\+100"):
            olc_core.run("perceptron", X, y)
        return
    tr = olc_core.run("perceptron", X, y)
    p = tr.proof
    if p.failed_assumptions:
        assert p.mistake_bound is None
        assert len(p.failed_assumptions[0].rounds) >= 1
    else:
        _every_state_holds(p)
        assert tr.n_mistakes <= p.mistake_bound * (1 + 1e-9)
    # TD_γ: any γ the student picks gives a valid bound
    tg = olc_core.run("perceptron", X, y, gamma=gamma)
    q = tg.proofs["nonseparable"]
    _every_state_holds(q)
    assert tg.n_mistakes <= q.mistake_bound * (1 + 1e-9)


@SETTINGS
@given(separable_streams(), st.sampled_from([1, 2, None]))
def test_margin_perceptron_sandwich_and_final_margin(s, passes):
    Xh = s.X / np.linalg.norm(s.X, axis=1, keepdims=True)
    margin = float(np.min(s.y * (Xh @ s.comparator)))      # normalising only raises the margin
    gamma = min(1.0, margin)
    tr = olc_core.run("margin_perceptron", s.X, s.y, gamma=gamma, comparator=s.comparator, passes=passes)
    p = tr.proof
    assert p.failed_assumptions == []
    _every_state_holds(p)
    assert tr.n_mistakes <= 12 / gamma ** 2 * (1 + 1e-9)
    if tr.info["converged"]:
        assert tr.info["final_margin"] >= gamma / 2 * (1 - 1e-9)
    if passes is None:
        assert tr.info["converged"]


@SETTINGS
@given(separable_streams(), st.floats(1.01, 3.0))
def test_margin_perceptron_with_too_large_gamma_reports_the_examples(s, factor):
    Xh = s.X / np.linalg.norm(s.X, axis=1, keepdims=True)
    m = s.y * (Xh @ s.comparator)
    gamma = min(1.0, float(m.min()) * factor)
    assume(gamma > m.min())
    tr = olc_core.run("margin_perceptron", s.X, s.y, gamma=gamma, comparator=s.comparator)
    [fa] = tr.proof.failed_assumptions
    assert set(fa.rounds.tolist()) == set(np.flatnonzero(m < gamma).tolist())
    assert tr.proof.mistake_bound is None
