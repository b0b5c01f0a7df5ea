"""The proof's record of what was checked (olc_core.proofs.base: Proof.links, steps, verdicts, numbers,
summary; issue 32 §5): each verdict kind on hand-worked proofs and small runs, the whole-run summary
against the per-state record, and properties — on streams meeting the theorem's assumptions no step fails,
is n/a or restates a false assumption; on noisy streams no step fails at all (every step that can be false
there declares the assumption it needs) and every n/a names an assumption that fails."""
from __future__ import annotations

import tracemalloc

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import olc_core
from olc_core import streams
from olc_core.hypotheses import Thresholds
from olc_core.proofs.base import NUMBERS, VERDICTS, Assumption, Chain, Proof, Step
from olc_core.streams import boolean as sb
from olc_core.streams.experts import experts, target_concept
from olc_core.streams.winnow_extra import simplex_continuous


def _toy(series, chains, assumptions=(), undefined=None, bound=None):
    return Proof(name="toy", theorem=r"M \le 2", T=3, state_rounds=np.array([0, 2]), n_mistakes=np.array([0, 1]),
                 series={k: np.asarray(v, dtype=float) for k, v in series.items()}, chains=chains,
                 assumptions=assumptions, undefined=undefined, mistake_bound=bound)


def _verdicts(proof, k):
    return [(s.name, s.verdict) for s in proof.steps(k)]


# ------------------------------------------------------------------------------ each verdict, by hand

def test_holds_and_its_step_carries_everything_it_claims():
    p = _toy({"lo": [0, 0.5], "hi": [0, 1.0]}, (Chain("c", ("lo", "hi"), reasons=("why",)),))
    p.labels.update(lo=r"\ell", hi=r"h")
    [s0] = p.steps(0)
    [s1] = p.steps_at(3)
    assert isinstance(s1, Step) and s1.state == 1 and s1.round == 2
    assert (s1.chain, s1.index, s1.lo, s1.hi, s1.lo_label, s1.hi_label) == ("c", 0, "lo", "hi", r"\ell", "h")
    assert (s1.lhs, s1.rhs, s1.relation, s1.reason, s1.needs, s1.failed) == (0.5, 1.0, "≤", "why", (), ())
    assert (s0.verdict, s0.numbers, s1.verdict, s1.numbers, s1.why) == ("holds", "hold", "holds", "hold", "")
    assert s1.holds and p.summary().all_hold and not p.summary().defect


def test_tol_equal_sides_of_a_strict_link_and_sides_the_wrong_way_by_less_than_the_tolerance():
    p = _toy({"a": [1.0, 1.0 + 1e-12], "b": [1.0, 1.0], "c": [2.0, 1.0]},
             (Chain("x", ("a", "b")), Chain("y", ("b", "c"), strict=(True,))))
    assert _verdicts(p, 0) == [("a ≤ b", "holds"), ("b < c", "holds")]
    assert _verdicts(p, 1) == [("a ≤ b", "tol"), ("b < c", "tol")]
    assert p.steps(1)[1].relation == "<" and p.steps(1)[0].holds
    assert not p.violations()                   # the check itself passes within its tolerance
    S = p.summary()
    assert S.all_hold and S.count("tol") == 2 and S.count("holds") == 2


def test_fails_a_claimed_step_is_false_and_the_summary_says_where():
    p = _toy({"lo": [0, 1.0], "phi": [0, 0.5]}, (Chain("c", ("lo", "phi")),), bound=2.0)
    assert _verdicts(p, 1) == [("lo ≤ phi", "fails"), ("M ≤ mistake_bound", "holds")]
    s = p.summary().links[0]
    assert s.count("fails") == 1 and s.count("holds") == 1 and s.first_failing == (2,) and s.evaluated == 2
    assert p.summary().defect and list(p.states_with("lo ≤ phi", "fails")) == [1]
    [v] = p.violations()                        # violations() says the same, as before
    assert (v.round, v.name, v.lhs, v.rhs, v.needs) == (2, "lo ≤ phi", 1.0, 0.5, ())


def test_na_keeps_what_its_numbers_say_and_names_the_failed_assumption():
    target = Assumption("target", "y = c(x)", False, np.array([1]))
    p = _toy({"lo": [0, 1.0], "phi": [0.5, 0.5], "u": [np.nan, 2.0]},
             (Chain("c", ("lo", "phi", "u"), link_needs=(("target",), ("target",))),), (target,),
             undefined={"u": "no u before round 1"})
    s = p.steps(0)
    assert [(x.verdict, x.numbers, x.failed, x.needs) for x in s] == [
        ("na", "hold", ("target",), ("target",)), ("na", "undefined", ("target",), ("target",))]
    assert s[1].why == "no u before round 1"
    assert [(x.verdict, x.numbers) for x in p.steps(1)] == [("na", "fail"), ("na", "hold")]
    a, b = p.summary().links
    assert a.count("na") == 2 and a.count_numbers("hold") == 1 and a.count_numbers("fail") == 1
    assert b.count("na") == 2 and b.count_numbers("undefined") == 1 and b.why == "no u before round 1"
    assert not p.summary().defect and p.summary().count("fails") == 0
    # violations() still lists the false step, with the assumption it needs
    assert [(v.round, v.needs) for v in p.violations()] == [(2, ("target",))]


def test_undefined_says_why_in_the_proofs_words_per_state():
    p = _toy({"lo": [np.nan, np.nan], "hi": [1.0, 1.0]}, (Chain("c", ("lo", "hi")),),
             undefined={"lo": [("before round 1", np.array([True, False])), ("no lo here", lambda: np.array([0, 1]) > 0)]})
    assert [(s.verdict, s.why) for s in p.steps(0)] == [("undefined", "before round 1")]
    assert [(s.verdict, s.why) for s in p.steps(1)] == [("undefined", "no lo here")]
    s = p.summary().links[0]
    assert s.count("undefined") == 2 and s.first_undefined == (0, 2) and s.evaluated == 0
    assert s.why == "before round 1; no lo here" and not p.summary().all_hold
    # ±inf is a value: 0 ≤ −inf is false, not undefined
    q = _toy({"lo": [0.0, 0.0], "hi": [1.0, -np.inf]}, (Chain("c", ("lo", "hi"), log=True),))
    assert _verdicts(q, 1) == [("lo ≤ hi", "fails")]


def test_assumption_a_chain_that_restates_its_assumption_is_false_not_a_defect():
    margin = Assumption("margin", r"\delta \le m", False, np.array([1]))
    p = _toy({"delta": [0.1, 0.1], "m": [0.3, -0.2]},
             (Chain("margin", ("delta", "m"), needs=("margin",), restates="margin"),), (margin,))
    assert _verdicts(p, 0) == [("delta ≤ m", "holds")] and _verdicts(p, 1) == [("delta ≤ m", "assumption")]
    lk = p.links[0]
    assert lk.needs == () and lk.failed == () and lk.restates == "margin"
    assert not p.summary().defect and p.summary().count("assumption") == 1
    assert [v.needs for v in p.violations()] == [("margin",)]   # violations() unchanged


def test_every_verdict_and_reading_is_named():
    assert VERDICTS == ("holds", "tol", "fails", "undefined", "na", "assumption")
    assert NUMBERS == ("hold", "tol", "fail", "undefined")
    with pytest.raises(ValueError, match="share a name"):
        _toy({"a": [0, 0], "b": [1, 1]}, (Chain("x", ("a", "b")), Chain("y", ("a", "b"))))


def test_checks_at_reads_the_record():
    p = _toy({"lo": [0, 1.0], "phi": [0, 0.5]}, (Chain("c", ("lo", "phi")),))
    [row] = p.checks_at(3)
    assert row["verdict"] == "fails" and row["holds"] is False and row["lhs"] == 1.0


# ------------------------------------------------------------------------------ each verdict, on small runs

def test_halving_with_no_consistent_hypothesis_one_le_h_is_na_never_fails():
    # two experts, both rounds (+, −); labels +1 then −1: expert 2 leaves after round 1, expert 1 after round 2
    tr = olc_core.run("halving", np.array([[1.0, -1.0], [1.0, -1.0]]), np.array([1, -1]), update="every_round")
    p = tr.proof
    assert not p.applies and [a.name for a in p.failed_assumptions] == ["realisable"]
    assert list(p.series["log_size"]) == [np.log(2), 0.0, -np.inf]
    assert [(s.verdict, s.numbers) for s in p.steps(2)] == [("na", "fail"), ("holds", "hold")]
    assert [(s.verdict, s.numbers) for s in p.steps(1)] == [("na", "hold"), ("holds", "hold")]
    assert p.links[0].failed == ("realisable",) and p.links[1].needs == ()
    assert not p.summary().defect


def test_perceptron_cosine_before_round_1_is_undefined_with_its_reason():
    tr = olc_core.run("perceptron", [[2.0, 0.0], [0.0, 1.0]], [1, 1], comparator=[0.6, 0.8])
    s = {x.name: x for x in tr.proof.steps(0)}
    assert s["cosine ≤ one"].verdict == "undefined" and s["cosine ≤ one"].why.startswith("w = 0")
    assert s["cos_lower ≤ cosine"].verdict == "undefined" and s["M_gamma ≤ inner"].verdict == "holds"
    assert all(x.verdict == "holds" for x in tr.proof.steps(1))
    assert tr.proof.links[0].needs == ("margin",) and tr.proof.links[1].needs == ()


def test_margin_perceptron_with_a_mislabelled_point_u_gamma_is_na_and_a_value():
    # (1, 0) labelled +1 then −1, w* = (1, 0), γ = ½: the first update gives ⟨w*, w⟩ = 1, the second 0
    tr = olc_core.run("margin_perceptron", [[1.0, 0.0], [1.0, 0.0]], [1, -1], gamma=0.5, passes=1,
                      comparator=[1.0, 0.0])
    p = tr.proof
    assert p.event == "update" and not p.applies
    assert [(s.verdict, s.numbers, s.lhs, s.rhs) for s in p.steps(2)][0] == ("na", "fail", 1.0, 0.0)
    assert [s.verdict for s in p.steps(2)][1:] == ["holds", "holds"]
    # without a separator Uγ is still a value (U·γ), ⟨w*, w⟩ is not
    tr = olc_core.run("margin_perceptron", [[1.0, 0.0], [-1.0, 0.0]], [1, 1], gamma=0.2, passes=1)
    s = tr.proof.steps(1)
    assert s[0].lhs == 0.2 and s[0].verdict == "na" and s[0].numbers == "undefined"
    assert s[1].verdict == "undefined" and "no comparator" in s[1].why


def test_exponentiated_update_with_noise_restated_margin_is_assumption_and_the_rest_na():
    s = streams.sparse_simplex(T=200, N=20, k=3, seed=0, noise=0.1)
    tr = olc_core.run("normalized_winnow", s.X, s.y, comparator=s.comparator, delta=1 / 3)
    S = {x.link.name: x for x in tr.proof.summary().links}
    assert S["delta ≤ margin_at_mistake"].count("assumption") > 0 and S["C ≤ kl_drop"].count("na") == S["C ≤ kl_drop"].states
    assert S["log_Z ≤ log_cosh_eta"].count("undefined") == 1 and S["zero ≤ kl"].count("holds") == S["zero ≤ kl"].states
    assert not tr.proof.summary().defect


# ------------------------------------------------------------------------------ summary = the per-state record

def _summary_matches_steps(proof):
    S = proof.summary(first=proof.K)
    per = [proof.steps(k) for k in range(proof.K)]
    for j, s in enumerate(S.links):
        col = [row[j] for row in per]
        assert all(x.name == s.link.name for x in col)
        for v in VERDICTS:
            assert s.count(v) == sum(x.verdict == v for x in col), (s.link.name, v)
        for n in NUMBERS:
            assert s.count_numbers(n) == sum(x.numbers == n for x in col), (s.link.name, n)
        assert list(s.first_failing) == [x.round for x in col if x.numbers == "fail"]
        assert list(s.first_undefined) == [x.round for x in col if x.numbers == "undefined"]


@pytest.mark.parametrize("noise", [0.0, 0.15])
def test_the_summary_is_the_per_state_record_counted(noise):
    s = streams.separable(T=120, d=2, gamma=0.1, radius=1.0, seed=3, noise=noise)
    for tr in (olc_core.run("perceptron", s.X, s.y, comparator=s.comparator),
               olc_core.run("margin_perceptron", s.X, s.y, gamma=0.1, passes=2, comparator=s.comparator)):
        for p in tr.proofs.values():
            _summary_matches_steps(p)
    s = streams.sparse_simplex(T=150, N=10, k=3, seed=1, noise=noise)
    _summary_matches_steps(olc_core.run("normalized_winnow", s.X, s.y, comparator=s.comparator, delta=0.5).proof)
    H = Thresholds.grid(8)
    s = target_concept(H, T=60, seed=2, noise=noise)
    _summary_matches_steps(olc_core.run("halving", s.X, s.y, hypotheses=H).proof)


def test_the_summary_of_a_long_run_makes_no_object_per_state():
    s = streams.separable(T=200_000, d=3, gamma=0.05, radius=1.0, seed=0, noise=0.2)
    p = olc_core.run("perceptron", s.X, s.y, comparator=s.comparator).proofs["nonseparable"]
    for key in p.series:               # every series made, and the check: what the summary adds is measured
        p.series[key]
    p.check_matrix()
    tracemalloc.start()
    S = p.summary()
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert S.states == p.K == 200_001 and sum(s.count("holds") + s.count("tol") for s in S.links) == S.checks
    # a Python object per state and link would take ≥ 56 bytes each; the record keeps two int8 codes
    assert peak < 12 * p.K * len(S.links), peak


# ------------------------------------------------------------------------------ properties

_FAST = settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _runs_for(seed: int, noise: float):
    """Every learner on a small seeded stream, with this label noise."""
    s = streams.separable(T=80, d=2, gamma=0.15, radius=1.0, seed=seed, noise=noise)
    yield olc_core.run("perceptron", s.X, s.y, comparator=s.comparator)
    yield olc_core.run("margin_perceptron", s.X, s.y, gamma=0.15, passes=2, comparator=s.comparator)
    s = streams.sparse_disjunction(T=150, N=30, k=2, seed=seed, noise=noise, dtype=np.uint8)
    yield olc_core.run("winnow", s.X, s.y, beta=1.0, comparator=s.comparator)
    s = streams.sparse_simplex(T=120, N=10, k=3, seed=seed, noise=noise)
    yield olc_core.run("normalized_winnow", s.X, s.y, comparator=s.comparator, delta=s.info["delta"])
    s = simplex_continuous(T=100, N=8, k=2, delta=0.2, seed=seed, noise=noise)
    yield olc_core.run("normalized_winnow", s.X, s.y, comparator=s.comparator)
    e = experts(T=100, N=6, error_rates=[0.0 if noise == 0 else 0.05, 0.1, 0.2, 0.3, 0.4, 0.5], seed=seed, noise=noise)
    A = e.X.astype(np.float64)
    yield olc_core.run("weighted_majority", A, e.y, beta=0.5)
    yield olc_core.run("weighted_majority", A, e.y, beta=0.0, update="every_round")
    yield olc_core.run("randomized_weighted_majority", A, e.y, eta=0.7, seed=seed)
    H = Thresholds.grid(8)
    s = target_concept(H, T=60, seed=seed, noise=noise)
    yield olc_core.run("halving", s.X, s.y, hypotheses=H)
    s = sb.conjunction(T=80, n=5, k=2, seed=seed, noise=noise)
    yield olc_core.run("conjunction", s.X, s.y, comparator=s.comparator)
    yield olc_core.run("conjunction", s.X, s.y)
    s = sb.decision_list(T=80, n=4, L=3, seed=seed, noise=noise)
    yield olc_core.run("decision_list", s.X, s.y, comparator=s.comparator)
    yield olc_core.run("decision_list", s.X, s.y)
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(80, 3))
    X /= 1.2 * np.maximum(1.0, np.linalg.norm(X, axis=1))[:, None]
    y = np.where(X @ np.ones(3) >= 0, 1.0, -1.0)
    y[rng.random(80) < noise] *= -1
    yield olc_core.run("ftrl_randomized", X, y, seed=seed)


def _check_na(p):
    failing = {a.name for a in p.failed_assumptions}
    for s in p.summary().links:
        assert set(s.link.failed) <= failing and set(s.link.failed) <= set(s.link.needs)
        assert (s.count("na") == s.states) == bool(s.link.failed)
        if s.count("undefined"):
            assert s.why, f"{p.name}: {s.link.name} is undefined without the proof's reason"


@_FAST
@given(seed=st.integers(0, 10_000))
def test_on_streams_meeting_the_assumptions_every_claimed_step_holds(seed):
    for tr in _runs_for(seed, 0.0):
        for p in tr.proofs.values():
            if not p.applies:
                continue        # e.g. WM with β = 0 and no perfect expert, RWM's η form at η > ½
            S = p.summary()
            assert S.count("fails") == S.count("na") == S.count("assumption") == 0, p.name
            _check_na(p)


@_FAST
@given(seed=st.integers(0, 10_000), noise=st.floats(0.05, 0.35))
def test_on_noisy_streams_no_step_fails_and_every_na_names_a_failing_assumption(seed, noise):
    for tr in _runs_for(seed, noise):
        for p in tr.proofs.values():
            S = p.summary()
            bad = [(s.link.chain, s.link.name, s.first_failing) for s in S.having("fails")]
            assert not bad, f"{tr.algorithm} / {p.name}: a step the proof claims fails on noisy data: {bad}"
            _check_na(p)
