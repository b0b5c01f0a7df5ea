"""Randomised WM's potential step ``Φ_{t+1} = Φ_t(1 − ηF_t)`` near η = 1: no false violations, real ones flagged.

The old check formed ``ln Φ_t + log1p(−ηF_t)`` from the float F_t: at η = 1 − 10⁻⁹ with ηF_t ≈ 1 it lost
seven digits (and at β = 10⁻³⁰⁰ it gave −inf), so every correct run flagged the identity. The proof now
compares ``ln(keep_t + βF_t)`` with ``ln(Φ_{t+1}/Φ_t)`` from the integer exponents, shrunk by a rigorous
rounding bound (:func:`olc_core.proofs.experts.rwm_step_pred`); these tests hold it to both halves of the
contract: correct runs never flag, and a potential or an F_t that breaks the identity is flagged.
"""
from __future__ import annotations

import numpy as np
import pytest

import olc_core
from olc_core.proofs import experts as proofs
from olc_core.streams.experts import adversary, experts

ETAS = (1 - 1e-9, 1 - 3e-9, 1 - 1e-7, 1 - 1e-12, 1 - 2.0 ** -40, 1 - 1e-5)
STEP_CHAINS = {"potential step (≤)", "potential step (≥)"}


def _streams(eta, seed):
    rates = np.linspace(0.1, 0.5, 10)
    e = experts(1500, 10, rates, seed)
    yield e.X, e.y
    yield (e.X > 0).astype(np.uint8), e.y                      # 0/1 advice
    a = adversary(1500, 7 + seed % 2, 1.0 - eta, "every_round", seed)
    yield a.X, a.y
    c = experts(800, 40, 0.3, seed, exact=False, groups=3)        # correlated crowds, many weights
    yield c.X, c.y


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("eta", ETAS)
def test_no_false_step_violations_near_eta_one(eta, seed):
    for X, y in _streams(eta, seed):
        tr = olc_core.run("randomized_weighted_majority", X, y, eta=eta, seed=seed)
        for name in ("expected", "eta_form"):
            assert tr.proofs[name].violations() == [], (name, tr.proofs[name].violations()[:2])


@pytest.mark.parametrize("beta,T,N", [(1e-300, 20_000, 10), (1e-100, 30_000, 4), (1e-9, 100_000, 6)])
def test_no_false_step_violations_with_huge_log_potentials(beta, T, N):
    """ln Φ ≈ −10⁶ … −10⁷ (the adversary: every round a mistake): one ulp of ln Φ is ~10⁻⁹ (the tolerance)."""
    s = adversary(T, N, beta, "every_round", 1)
    tr = olc_core.run("randomized_weighted_majority", s.X, s.y, beta=beta, seed=1)
    assert tr.proof.series["log_phi"][-1] < -1e6
    assert tr.proof.violations() == []


def _captured(monkeypatch, eta, seed=0, T=400):
    """The keyword arguments the learner gives ``rwm_proofs`` (to rebuild the proof from altered inputs)."""
    got = {}
    real = proofs.rwm_proofs

    def spy(**kw):
        got.update(kw)
        return real(**kw)

    monkeypatch.setattr(proofs, "rwm_proofs", spy)
    s = adversary(T, 6, 1.0 - eta, "every_round", seed) if seed % 2 else experts(T, 10, np.linspace(0.1, 0.5, 10), seed)
    tr = olc_core.run("randomized_weighted_majority", s.X, s.y, eta=eta, seed=seed)
    assert tr.proof.violations() == []
    return {k: (v.copy() if isinstance(v, np.ndarray) else v) for k, v in got.items()}, real


def _step_rounds(kw, real):
    return {v.round for v in real(**kw)["expected"].violations() if v.chain in STEP_CHAINS}


@pytest.mark.parametrize("seed", [0, 1])
@pytest.mark.parametrize("eta", [1 - 1e-9, 0.5, 0.05])
def test_real_step_violations_are_flagged(monkeypatch, eta, seed):
    kw, real = _captured(monkeypatch, eta, seed)
    assert _step_rounds(kw, real) == set()
    F = kw["F"]
    t = int(np.flatnonzero((F > 0.01) & (F < 0.99))[5])
    # (a) a potential that does not follow the identity: Φ_{t+1} off by a relative 1e-7 (ln Φ and its parts)
    bad = dict(kw, log_phi=kw["log_phi"].copy(), log_sum=kw["log_sum"].copy())
    bad["log_phi"][t + 1:] += 1e-7
    bad["log_sum"][t + 1:] += 1e-7
    assert _step_rounds(bad, real) == {t}   # the link of state t: Φ_{t+1} vs Φ_t(1 − ηF_t)
    # (b) the same with ln Φ alone altered (its parts untouched): the identity still fails there
    bad = dict(kw, log_phi=kw["log_phi"].copy())
    bad["log_phi"][t + 1] -= 1e-7
    assert _step_rounds(bad, real) == {t, t + 1}
    # (c) an F_t (the series the bound sums) that is not the run's weight fraction: off by a relative 1e-6
    bad = dict(kw, F=F.copy())
    bad["F"][t] *= 1 + 1e-6
    assert _step_rounds(bad, real) == {t}


def test_the_allowance_is_tiny():
    """The rounding bound shrinks a discrepancy by ~1e-14 at most: a step off by 1e-9 (the tolerance) in
    ln Φ still shows as off by 1e-9 to ~1e-14."""
    N, eta = 10, 1 - 1e-9
    beta = 1.0 - eta
    F = np.array([0.999999, 0.5, 1.0])
    keep = 1.0 - F
    base = np.array([0, 0, 0, 0])
    q = keep + beta * F
    log_sum = np.concatenate([[np.log(10.0)], np.log(10.0) + np.cumsum(np.log(q))])
    log_phi = log_sum.copy()
    exact = proofs.rwm_step_pred(log_phi, F, eta, N, keep, base, log_sum, beta)
    np.testing.assert_allclose(exact, log_phi[1:], rtol=0, atol=1e-13)
    log_sum2, log_phi2 = log_sum.copy(), log_phi.copy()
    log_sum2[2:] += 2e-9
    log_phi2[2:] += 2e-9
    off = proofs.rwm_step_pred(log_phi2, F, eta, N, keep, base, log_sum2, beta)
    assert abs((log_phi2[2] - off[1]) - 2e-9) < 1e-13
