"""Long runs of the multiplicative learners (issue 15): 10⁶ rounds keep exact proofs in log space.

Winnow and the exponentiated update have their million-round tests in test_winnow.py and
test_normalized_winnow.py; Weighted Majority, RWM and Halving have theirs here. Every run raises on
any floating-point overflow, underflow, division by zero or invalid operation (``np.errstate(all=
"raise")``), its proof has no violation, and its potentials stay finite far below the float range.
The 10⁶-round runs are marked ``slow`` (``pytest --fuzz-full`` runs them; times: docs/robustness.md).
"""
from __future__ import annotations

import math
import tracemalloc
import warnings

import numpy as np
import pytest

import olc_core
from olc_core.proofs import winnow as wp
from olc_core.streams.experts import experts

MILLION = 1_000_000


def _strict(fn):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with np.errstate(all="raise"):
            tr = fn()
            p = tr.proof
            viol = p.violations()
    return tr, p, viol


def _advice(T: int, N: int, seed: int):
    rates = np.random.default_rng(seed).uniform(0.05, 0.5, N)
    return experts(T=T, N=N, error_rates=rates, seed=seed, exact=False, groups=3)


@pytest.mark.slow
@pytest.mark.parametrize("beta,update", [(0.5, "on_mistake"), (0.999, "every_round"), (1e-9, "on_mistake")])
def test_weighted_majority_million_rounds(beta, update):
    s = _advice(MILLION, 16, 1)
    tr, p, viol = _strict(lambda: olc_core.run("weighted_majority", s.X, s.y, beta=beta, update=update))
    assert viol == [] and p.failed_assumptions == []
    assert tr.n_mistakes <= p.mistake_bound
    assert np.isfinite(p.series["log_phi"]).all()
    lw = tr.log_weights_at(tr.T)
    assert np.isfinite(lw).all() and lw.max() <= 0.0
    if beta <= 0.5:
        assert p.series["log_phi"][-1] < -1000  # Φ far below the smallest float: only its log is kept


@pytest.mark.slow
def test_weighted_majority_beta_zero_million_rounds():
    """β = 0 with a perfect expert (Halving on experts): at most log₂ N mistakes; wrong experts' weights are
    exactly 0 (log −∞), never a NaN."""
    rates = np.r_[0.0, np.random.default_rng(4).uniform(0.05, 0.5, 15)]
    s = experts(T=MILLION, N=16, error_rates=rates, seed=4, exact=False, groups=3)
    tr, p, viol = _strict(lambda: olc_core.run("weighted_majority", s.X, s.y, beta=0.0))
    assert viol == [] and p.failed_assumptions == []
    assert tr.n_mistakes <= p.mistake_bound <= math.log2(16) + 1e-12
    lw = tr.log_weights_at(tr.T)
    assert not np.isnan(lw).any() and lw[0] == 0.0


@pytest.mark.slow
@pytest.mark.parametrize("eta", [0.5])  # 10⁶ RWM rounds take minutes (≈ 0.5 ms a round): one η
def test_rwm_million_rounds(eta):
    s = _advice(MILLION, 16, 2)
    tr, p, viol = _strict(lambda: olc_core.run("randomized_weighted_majority", s.X, s.y, eta=eta, seed=0))
    assert viol == [] and p.failed_assumptions == []
    assert np.isfinite(p.series["log_phi"]).all() and p.series["log_phi"][-1] < -1000
    assert p.series["expected_M"][-1] <= p.mistake_bound
    assert np.isfinite(tr.log_weights_at(tr.T)).all()


@pytest.mark.slow
def test_halving_million_rounds():
    """720 half-planes, a realisable stream of 10⁶ points: at most log₂ 720 < 10 mistakes, all proved."""
    from olc_core.hypotheses import HalfPlanes
    H = HalfPlanes(720)
    rng = np.random.default_rng(3)
    a = rng.uniform(0, 2 * np.pi, MILLION)
    X = np.c_[np.cos(a), np.sin(a)]
    y = H.predict(X, np.array([123]))[:, 0]
    tr, p, viol = _strict(lambda: olc_core.run("halving", X, y, hypotheses=H))
    assert viol == [] and p.applies
    assert tr.n_mistakes <= p.mistake_bound == pytest.approx(math.log2(720))
    assert tr.columns["version_space_size"][-1] >= 1


def test_winnow_proof_memory_is_a_block_not_copies_of_the_run():
    """The proof forms log-weights in row blocks: a 3,000 × 4,000 run's exponents (96 MB) are not copied into
    float matrices (before: three float copies of the M × N exponents, 1.8 GB peak at N = T = 10⁴, β = 0.05)."""
    M, N = 3000, 4000
    rng = np.random.default_rng(0)
    expo = np.cumsum(rng.integers(-1, 2, size=(M, N), dtype=np.int64), axis=0)
    pos = rng.random(M) < 0.5
    tracemalloc.start()
    base = tracemalloc.get_traced_memory()[0]
    p = wp.winnow_proof(T=M, N=N, beta=0.5, log_base=math.log1p(0.5), mistakes=np.arange(M), positive=pos,
                        exponents=expo, relevant=None, rel_promotions=np.zeros((M, 0)),
                        rel_demotions=np.zeros((M, 0)), comparator_info={})
    peak = tracemalloc.get_traced_memory()[1] - base
    tracemalloc.stop()
    assert peak < expo.nbytes / 2, (peak, expo.nbytes)  # before: > 3 × expo.nbytes
    logs = expo.astype(np.float64) * math.log1p(0.5)
    ref = logs.max(axis=1) + np.log(np.exp(logs - logs.max(axis=1)[:, None]).sum(axis=1))
    np.testing.assert_array_equal(p.series["log_phi"][1:], ref)
    np.testing.assert_array_equal(p.series["log_w_max"][1:], logs.max(axis=1))
