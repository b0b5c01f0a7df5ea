"""The Perceptron's R²/γ² as an exact rational (olc_core/_exact/perceptron_bound.py) and the proof's link M ≤ R²/γ²
decided with it: on x_t = e_t, M = d = R²/γ² exactly, while the float formula gives 2.0000000000000004
(d = 2) and 2.999999999999999 (d = 3). Checked against Fraction over every row, on both engines."""
from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

import olc_core
from olc_core._exact import perceptron_bound as xb
from olc_core.proofs import perceptron as pp
from tests.core.test_sweep import _near_tie_streams, exact_r2_over_g2


@pytest.mark.parametrize("engine", ["numba", "numpy"])
def test_tight_streams_bound_is_d_and_the_proof_says_so_exactly(engine, monkeypatch):
    monkeypatch.setenv("OLC_CORE_ENGINE", engine)
    for d in range(1, 13):
        s = olc_core.streams.tight_perceptron(d)
        tr = olc_core.run("perceptron", s.X, s.y, comparator=s.comparator)
        B = xb.perceptron_bound(s.X, s.y, tr.proof.constants["comparator"])
        assert B == exact_r2_over_g2(s.X, s.y, tr.proof.constants["comparator"]) == d == tr.n_mistakes
        assert abs(tr.proof.mistake_bound - d) <= 4 * np.spacing(float(d))   # the float: within rounding
        assert tr.proof.violations() == [] and not tr.proof.check_matrix()["M ≤ mistake_bound"].any()


def test_the_bound_link_is_decided_exactly_not_within_the_tolerance():
    """An exact bound just below M (by 1e-12: far inside the relative tolerance 1e-9) is a violation; the
    same bound at M is not; and the exact bound is not even computed when M is below half the float."""
    s = olc_core.streams.tight_perceptron(3)
    tr = olc_core.run("perceptron", s.X, s.y, comparator=s.comparator)
    M = tr.n_mistakes
    kw = dict(T=tr.T, mistakes=tr.mistakes, inner=np.array([0.0, 1, 2, 3]) / np.sqrt(3),
              norm=np.sqrt(np.arange(4.0)), radius=1.0, cmargin=np.full(3, 1 / np.sqrt(3)), gamma=None,
              comparator_info={"comparator": s.comparator})
    below = pp.separable_proof(**kw, exact_bound=lambda: Fraction(M) - Fraction(1, 10 ** 12))
    assert [v.name for v in below.violations()] == ["M ≤ mistake_bound"]
    assert below.check_matrix()["M ≤ mistake_bound"].tolist() == [False, False, False, True]
    at = pp.separable_proof(**kw, exact_bound=lambda: Fraction(M))
    assert at.violations() == []
    tol = pp.separable_proof(**kw)      # without the exact bound: the float within the tolerance
    assert tol.violations() == []



def test_the_exact_bound_is_computed_only_for_runs_near_it(monkeypatch):
    import olc_core.learners.perceptron as lp

    def never(*a, **k):
        raise AssertionError("the exact bound was computed for a run far below it")
    monkeypatch.setattr(lp, "perceptron_bound", never)
    far = olc_core.streams.separable(T=2000, d=3, gamma=0.05, seed=1)
    tr = olc_core.run("perceptron", far.X, far.y, comparator=far.comparator)
    assert 2 * tr.n_mistakes < tr.proof.mistake_bound and tr.proof.violations() == []
    s = olc_core.streams.tight_perceptron(4)
    with pytest.raises(AssertionError, match="far below"):       # M = d: near its bound, so computed
        olc_core.run("perceptron", s.X, s.y, comparator=s.comparator)


@pytest.mark.parametrize("engine", ["numba", "numpy"])
def test_near_ties_the_proofs_verdict_agrees_with_the_exact_reference(engine, monkeypatch):
    monkeypatch.setenv("OLC_CORE_ENGINE", engine)
    for X, y, u, g in _near_tie_streams():
        tr = olc_core.run("perceptron", X, y, comparator=u, gamma=g)
        if tr.proof.mistake_bound is None:
            continue
        ref = exact_r2_over_g2(X, y, tr.proof.constants["comparator"], g)
        assert xb.perceptron_bound(X, y, tr.proof.constants["comparator"], g) == ref
        bad = tr.proof.check_matrix()["M ≤ mistake_bound"]
        assert bad.tolist() == [Fraction(int(m)) > ref for m in tr.proof.n_mistakes]


def test_candidate_rows_find_the_exact_extremes_among_near_equal_floats():
    """Rows of norm 1 ± rounding (normalised in floats) and margins equal up to rounding: the rows summed
    exactly are chosen by a certified error bound, so the maximum and the minimum are the exact ones."""
    rng = np.random.default_rng(7)
    for d in (1, 2, 5, 40):
        X = rng.normal(size=(300, d))
        X /= np.linalg.norm(X, axis=1, keepdims=True)
        u = rng.normal(size=d)
        y = np.sign(X @ u)
        y[y == 0] = 1
        F = [[Fraction(float(v)) for v in row] for row in X]
        assert xb.radius_sq(X) == max(sum(v * v for v in row) for row in F)
        U = [Fraction(float(v)) for v in u]
        assert xb.min_margin(X, y, u) == min(int(t) * sum(a * b for a, b in zip(row, U)) for row, t in zip(F, y))
