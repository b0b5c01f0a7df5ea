"""The claim vocabulary of a tour's stops (olc_core/claims.py), on runs worked out by hand.

Every verdict is checked against numbers computed here on paper, and every sentence against the words and the
numbers it must state: a sentence is never false, whether the claim holds or fails."""
from __future__ import annotations

import math

import jsonschema
import numpy as np
import pytest

import olc_core
from olc_core.claims import CLAIM_SCHEMA, KINDS, ClaimError, evaluate, terms_of
from olc_core.proofs.base import Chain, Proof


@pytest.fixture(scope="module")
def tight():
    """The tight instance in d = 3: x_t = e_t, y_t = +1, w* = (1,1,1)/√3. Every round is a mistake; after t rounds
    w = e_1 + … + e_t, so ⟨w*, w⟩ = t/√3 = Mγ (γ = 1/√3) and ‖w‖ = √t = √M·R (R = 1); the bound R²/γ² = 3."""
    s = olc_core.streams.tight_perceptron(3)
    return olc_core.run("perceptron", s.X, s.y, comparator=s.comparator)


@pytest.fixture(scope="module")
def crossed():
    """Two copies of x = (1, 0) with labels +1 then −1, against w* = (1, 0): round 2 has y⟨w*, x⟩ = −1, so the
    margin assumption fails there (round 2 counted from 1); the Perceptron errs on both rounds (score 0, then 1
    against y = −1), and the theorem claims no bound."""
    X = np.array([[1.0, 0.0], [1.0, 0.0]])
    return olc_core.run("perceptron", X, np.array([1, -1]), comparator=np.array([1.0, 0.0]))


def test_the_tight_instance_at_round_2(tight):
    p = tight.proof.at(2)
    assert p["inner"] == pytest.approx(2 / math.sqrt(3)) and p["norm"] == pytest.approx(math.sqrt(2))
    v = evaluate({"kind": "compare", "left": "M", "op": "==", "right": 2}, tight, 2)
    assert v.holds and v.sentence == "After 2 rounds: $M = 2 = 2$."
    v = evaluate({"kind": "compare", "left": "M", "op": "<=", "right": "bound"}, tight, 2)
    assert v.holds and v.sentence == "After 2 rounds: $M = 2 \\le 3 = R^2/\\gamma^2$ (the theorem's bound)."
    v = evaluate({"kind": "meets", "lower": "M_gamma", "potential": "inner"}, tight, 2)
    assert v.holds and v.kind == "meets"
    assert v.sentence == ("After 2 rounds: $M\\gamma = 1.155 = 1.155 = \\langle w^*, w\\rangle$: the lower bound "
                          "meets the potential.")
    v = evaluate({"kind": "compare", "left": "series:norm", "op": "==", "right": "series:sqrtM_R"}, tight, 2)
    assert v.holds and "1.414 = 1.414" in v.sentence


def test_a_claim_that_fails_states_the_relation_that_is_true(tight):
    v = evaluate({"kind": "compare", "left": "M", "op": "<=", "right": 1}, tight, 2)
    assert not v.holds and v.sentence == "After 2 rounds: $M = 2 > 1$."
    v = evaluate({"kind": "compare", "left": "M", "op": "<", "right": 2}, tight, 2)
    assert not v.holds and v.sentence == "After 2 rounds: $M = 2 = 2$."
    # ⟨w*, w⟩ is on its lower bound Mγ, not strictly above it
    v = evaluate({"kind": "compare", "left": "series:inner", "op": ">", "right": "series:M_gamma"}, tight, 2)
    assert not v.holds and v.values["relation"] == "="
    # at round 0 the lower bound 0 meets the potential 0 too; below it the upper bound √M R is not met by ⟨w*, w⟩
    assert evaluate({"kind": "meets", "lower": "M_gamma", "potential": "inner"}, tight, 0).holds
    v = evaluate({"kind": "meets", "lower": "inner", "potential": "sqrtM_R"}, tight, 2)
    assert not v.holds and v.sentence.endswith("the lower bound is below the potential, not on it.")
    assert "1.155 < 1.414" in v.sentence


def test_printed_digits_show_the_order(tight):
    """γ = 1/√3 = 0.57735026918…: against 0.57735026 it takes 8 digits for the printed numbers to differ."""
    v = evaluate({"kind": "compare", "left": "const:gamma", "op": ">", "right": 0.57735026}, tight, 3)
    assert v.holds and v.sentence == "After 3 rounds: $\\gamma = 0.57735027 > 0.57735026$."
    v = evaluate({"kind": "compare", "left": "const:gamma", "op": "<", "right": 0.57735026}, tight, 3)
    assert not v.holds and "0.57735027 > 0.57735026" in v.sentence


def test_values_equal_within_the_proofs_tolerance_are_equal(tight):
    """At round 3 the outer curves meet (M = 3 = R²/γ²): Mγ = 3/√3 and √M·R = √3 are computed two ways and differ
    in the last bits (…776 and …772): within the proof's relative tolerance 10⁻⁹ they are equal, so ≤, ≥ and ==
    hold, and <, > and != do not."""
    p = tight.proof.at(3)
    assert p["M_gamma"] != p["sqrtM_R"]
    for op, holds in (("<=", True), (">=", True), ("==", True), ("<", False), (">", False), ("!=", False)):
        v = evaluate({"kind": "compare", "left": "series:M_gamma", "op": op, "right": "series:sqrtM_R"}, tight, 3)
        assert v.holds is holds, op
        assert v.values["within_tolerance"] and "equal within the proof's tolerance" in v.sentence
        assert "1.732" in v.sentence


def test_the_mistake_of_the_last_round_and_the_bound(tight):
    v = evaluate({"kind": "mistake", "is": True}, tight, 3)
    assert v.holds and v.sentence == "Round 3, the last one processed, was a mistake (mistake number 3)."
    assert not evaluate({"kind": "mistake", "is": False}, tight, 3).holds
    assert not evaluate({"kind": "mistake", "is": True}, tight, 0).holds
    v = evaluate({"kind": "bound", "claimed": True}, tight, 3)
    # the run has three proofs (separable, TD_γ, hinge): the bound is named by its proof
    assert v.holds and v.sentence == "The bound of “Perceptron, separable data” on this run: $R^2/\\gamma^2 = 3$."


def test_no_violation_on_a_correct_run(tight):
    v = evaluate({"kind": "no_violation"}, tight, 3)
    # proofs A (3 links), B (2 links) and the bound (1 link), in the 4 states before rounds 1 … 4
    assert v.holds and v.sentence == ("Up to round 3, every inequality of the proof holds: 6 links checked in each "
                                      "of 4 states (the learner before each round and after the last).")


def test_a_failing_assumption_and_no_bound(crossed):
    assert crossed.n_mistakes == 2 and crossed.proof.mistake_bound is None
    v = evaluate({"kind": "assumption", "name": "margin", "holds": False}, crossed, 2)
    assert v.holds
    assert v.sentence == ("The assumption $y_t\\langle w^*, x_t\\rangle \\ge \\gamma > 0 \\text{ for every round } t$ "
                          "fails on 1 of 2 rounds (the first: round 2, counted from 1) — w* puts 1 round on the "
                          "wrong side or on the hyperplane (y⟨w*,x⟩ ≤ 0): the data are not separated by this w*; the "
                          "bound of “Perceptron, separable data” is not claimed.")
    assert not evaluate({"kind": "assumption", "name": "margin", "holds": True}, crossed, 2).holds
    v = evaluate({"kind": "compare", "left": "M", "op": "<=", "right": "bound"}, crossed, 2)
    assert not v.holds
    assert v.sentence == ("After 2 rounds: the theorem claims no bound on this run (the assumption margin fails), so "
                          "$M \\le R^2/\\gamma^2$ is not claimed.")
    v = evaluate({"kind": "bound", "claimed": False}, crossed, 2)
    assert v.holds and v.sentence == ("The theorem of “Perceptron, separable data” claims no bound on this run: the "
                                      "assumption margin fails.")
    # the TD_γ proof of the same run needs no margin: it claims a bound
    assert evaluate({"kind": "bound", "claimed": True, "proof": "nonseparable"}, crossed, 2).holds


def test_what_the_theorem_bounds_for_randomised_weighted_majority():
    """N = 2 experts, η = ½. Round 1: advice (+1, −1), y = +1: the wrong expert holds half the weight, F₁ = ½, and
    its weight becomes ½. Round 2: advice (−1, +1), y = +1: the wrong expert now holds 1/(1 + ½) = ⅔. So after 2
    rounds the expected number of mistakes ΣF_t = ½ + ⅔ = 7/6. The sentence sums over the rounds so far, with no
    index bound: "Σ_{s<t}" read with t = 2 rounds counted from 1 would leave out round 2 (a tour's student read it
    so)."""
    X = np.array([[1, -1], [-1, 1]])
    tr = olc_core.run("randomized_weighted_majority", X, np.array([1, 1]), eta=0.5, seed=0)
    v = evaluate({"kind": "compare", "left": "bounded", "op": "==", "right": 7 / 6}, tr, 2)
    assert v.holds and v.values["left"] == pytest.approx(7 / 6)
    assert v.sentence == ("After 2 rounds: $\\mathbb{E}[M] = \\sum_s F_s = 1.167 = 1.167$ (equal within the proof's "
                          "tolerance).")
    v = evaluate({"kind": "compare", "left": "bounded", "op": "<=", "right": "bound"}, tr, 2)
    assert v.holds and "the theorem's bound" in v.sentence


def test_halving_keeps_the_consistent_experts():
    """|H| = 4 experts. Round 1: advice (+, +, +, −), the majority says +1, y = −1: a mistake, and only expert 4
    is kept. Round 2: advice (−, +, +, +), expert 4 says +1 = y. So M = 1 and |H₂| = 1 ≤ |H|/2^M = 2; log₂|H| = 2."""
    X = np.array([[1, 1, 1, -1], [-1, 1, 1, 1]])
    tr = olc_core.run("halving", X, np.array([-1, 1]))
    assert evaluate({"kind": "compare", "left": "M", "op": "==", "right": 1}, tr, 2).holds
    assert evaluate({"kind": "compare", "left": "series:size", "op": "==", "right": 1}, tr, 2).holds
    v = evaluate({"kind": "compare", "left": "series:size", "op": "<=", "right": "series:upper_size"}, tr, 2)
    assert v.holds and "1 \\le 2" in v.sentence
    assert evaluate({"kind": "compare", "left": "bound", "op": "==", "right": 2}, tr, 2).holds


def _toy_trace():
    """A stub trace around the proof of olc_core/proofs/base.py's docstring: lo ≤ phi fails in the state before
    round 2 (lo = 1 > phi = 0.5)."""
    p = Proof(name="toy", theorem="M \\le 2", T=3, state_rounds=np.array([0, 2]), n_mistakes=np.array([0, 1]),
              series={"lo": np.array([0.0, 1.0]), "phi": np.array([0.0, 0.5])},
              chains=(Chain("toy", ("lo", "phi")),), mistake_bound=2.0)

    class Stub:
        T = 3
        proofs = {"toy": p}
        proof = p
        mistakes = np.array([1])

        def mistakes_before(self, t):
            return int(np.searchsorted(self.mistakes, t))

    return Stub()


def test_a_violation_is_found_up_to_its_round_only():
    tr = _toy_trace()
    assert evaluate({"kind": "no_violation"}, tr, 1).holds
    v = evaluate({"kind": "no_violation"}, tr, 3)
    assert not v.holds
    assert v.sentence == ("Up to round 3, 1 inequality of the proof fails; the first, lo ≤ phi in the state before "
                          "round 2, has $1 > 0.5$.")


def test_a_conjunction_holds_when_every_claim_holds(tight):
    both = {"kind": "all", "of": [{"kind": "compare", "left": "M", "op": "==", "right": 3},
                                  {"kind": "meets", "lower": "M_gamma", "potential": "inner"}]}
    v = evaluate(both, tight, 3)
    assert v.holds and v.values["each"] == [True, True]
    assert v.sentence == ("After 3 rounds: $M = 3 = 3$ and $M\\gamma = 1.732 = 1.732 = \\langle w^*, w\\rangle$: the "
                          "lower bound meets the potential.")
    both["of"][0]["right"] = 2
    assert not evaluate(both, tight, 3).holds
    assert terms_of(both) == ["M", "series:M_gamma", "series:inner"]


def test_undefined_values_are_said_so(tight):
    """cos∠(w, w*) is undefined while w = 0 (round 0)."""
    v = evaluate({"kind": "compare", "left": "series:cosine", "op": "<=", "right": "series:one"}, tight, 0)
    assert not v.holds and v.sentence == "After 0 rounds: $\\cos\\angle(w, w^*)$ is not defined at this round."


@pytest.mark.parametrize("claim,t,field", [
    ({"kind": "nope"}, 1, "kind:"),
    ({"kind": "compare", "left": "M", "op": "≤", "right": 1}, 1, "op:"),
    ({"kind": "compare", "left": "series:nope", "op": "<=", "right": 1}, 1, "left: series 'nope'"),
    ({"kind": "compare", "left": "M", "op": "<=", "right": "Mistakes"}, 1, "right:"),
    ({"kind": "compare", "left": "M", "op": "<=", "right": "const:comparator"}, 1, "right: constant 'comparator'"),
    ({"kind": "compare", "left": "M", "op": "<=", "right": float("nan")}, 1, "right:"),
    ({"kind": "meets", "lower": "M_gamma"}, 1, "potential:"),
    ({"kind": "assumption", "name": "convexity", "holds": True}, 1, "name: 'convexity'"),
    ({"kind": "bound", "claimed": True, "proof": "cosine"}, 1, "proof: 'cosine'"),
    ({"kind": "no_violation"}, 4, "t:"),
    ({"kind": "no_violation"}, -1, "t:"),
    ({"kind": "all", "of": []}, 1, "of:"),
])
def test_a_claim_that_cannot_be_evaluated_names_its_field(tight, claim, t, field):
    with pytest.raises(ClaimError) as e:
        evaluate(claim, tight, t)
    assert field in str(e.value)


def test_sentences_keep_their_maths_apart(tight, crossed):
    """The text parts hold no $ (a renderer typesets exactly the tex parts)."""
    claims = [{"kind": k} for k in ("no_violation",)] + [
        {"kind": "compare", "left": "M", "op": "<=", "right": "bound"},
        {"kind": "assumption", "name": "margin", "holds": False}, {"kind": "bound", "claimed": True}]
    for tr in (tight, crossed):
        for c in claims:
            for kind, text in evaluate(c, tr, 2).parts:
                assert kind in ("text", "tex") and (kind == "tex" or "$" not in text)


def test_the_schema_accepts_the_vocabulary_and_refuses_the_rest():
    validator = jsonschema.Draft202012Validator(CLAIM_SCHEMA)
    jsonschema.Draft202012Validator.check_schema(CLAIM_SCHEMA)
    good = [{"kind": "compare", "left": "M", "op": "<=", "right": "bound"},
            {"kind": "compare", "left": "series:inner", "op": ">", "right": 0.5, "proof": "separable"},
            {"kind": "meets", "lower": "M_gamma", "potential": "inner"}, {"kind": "no_violation"},
            {"kind": "assumption", "name": "margin", "holds": False}, {"kind": "bound", "claimed": True},
            {"kind": "mistake", "is": True}, {"kind": "all", "of": [{"kind": "no_violation"}]}]
    assert {c["kind"] for c in good} == set(KINDS)
    for c in good:
        assert not list(validator.iter_errors(c)), c
    bad = [{"kind": "compare", "left": "M", "right": 1}, {"kind": "compare", "left": "M", "op": "<=", "right": 1,
                                                           "colour": "red"},
           {"kind": "compare", "left": "Mistakes", "op": "<=", "right": 1}, {"kind": "assumption", "name": "m"},
           {"kind": "all", "of": []}, {"kind": "sandwich"}, {"kind": "mistake", "is": "yes"}, ["no_violation"]]
    for c in bad:
        assert list(validator.iter_errors(c)), c


def test_a_series_of_logarithms_is_named_as_one():
    """Weighted Majority's sandwich is kept in logs (its chains are marked ``log``) while its labels name the
    quantities (Φ_t): a sentence must write ln(Φ_t) = …, never Φ_t = (a logarithm). One expert right, one wrong, on
    one round with β = ½ (update on every round): Φ = 1 + ½, so ln Φ = ln 1.5 = 0.4055."""
    tr = olc_core.run("weighted_majority", np.array([[1, -1]]), np.array([1]), beta=0.5, update="every_round")
    v = evaluate({"kind": "compare", "left": "series:log_phi", "op": "==", "right": math.log(1.5)}, tr, 1)
    assert v.holds and v.sentence.startswith("After 1 round: $\\ln\\left(\\Phi_t\\right) = 0.4055 = 0.4055$")
    v = evaluate({"kind": "compare", "left": "series:log_w_best", "op": "<=", "right": "series:log_phi"}, tr, 1)
    assert v.holds and v.sentence == ("After 1 round: $\\ln\\left(w_{i^*}\\right) = 0 \\le 0.4055 = "
                                      "\\ln\\left(\\Phi_t\\right)$.")


def test_a_claim_on_the_last_updates_value_names_the_round_of_that_update():
    """ln Z_t and Φ_t − Φ_{t+1} of the exponentiated update belong to the update (``proof.at_update``): after 3
    rounds whose only mistake was round 1 they are round 1's, and the sentence says so (a tour's student read
    "After 5 rounds: ln Z_t" as round 5, which was no mistake). A claim on the state (M) keeps the plain lead."""
    X = np.array([[1.0, -1.0], [1.0, -1.0], [1.0, -1.0]])
    y = np.array([1, 1, 1])
    tr = olc_core.run("normalized_winnow", X, y, comparator=[1.0, 0.0], eta=math.log(2.0))
    assert tr.mistakes.tolist() == [0]                      # round 1 (score 0 is a mistake), then right
    v = evaluate({"kind": "compare", "left": "series:log_Z", "op": "<=", "right": "series:log_cosh_eta"}, tr, 3)
    assert v.holds and v.sentence.startswith("After 3 rounds, at the last mistake (round 1): $\\ln Z_t = ")
    v = evaluate({"kind": "compare", "left": "M", "op": "==", "right": 1}, tr, 3)
    assert v.sentence.startswith("After 3 rounds: $M = 1")
    v = evaluate({"kind": "compare", "left": "series:kl_drop", "op": ">=", "right": 0}, tr, 0)
    assert v.sentence.startswith("After 0 rounds: ") and "not defined" in v.sentence    # no update yet


def test_a_claim_on_the_margin_perceptron_counts_updates_and_writes_u():
    """The margin Perceptron's proof counts updates, margin mistakes included (``proof.event == "update"``): its
    claims write U, as its page and [004] Theorem 2 do (a tour's student read "M = 4 ≤ 300" beside a text on U)."""
    s = olc_core.streams.separable(T=60, d=2, gamma=0.2, seed=0)
    tr = olc_core.run("margin_perceptron", s.X, s.y, gamma=0.2, passes=3)
    assert tr.proof.event == "update" and tr.n_mistakes == 4
    v = evaluate({"kind": "compare", "left": "M", "op": "<=", "right": "bound"}, tr, tr.T)
    assert v.holds and v.sentence.startswith(f"After {tr.T} rounds: $U = 4 \\le 300")
    assert evaluate({"kind": "compare", "left": "bounded", "op": "<=", "right": "bound"}, tr, tr.T).sentence.startswith(
        f"After {tr.T} rounds: $U = 4")


def test_every_inequality_holds_says_what_a_state_is():
    """A Perceptron's state lasts from one update to the next (M + 1 states); Weighted Majority's every round: the
    sentence says which, with the counts (a tour's student met "7 states" for 200 rounds, undefined)."""
    X = np.array([[1.0, 0.0], [1.0, 0.1], [0.0, 1.0], [0.1, 1.0]])
    y = np.array([1, 1, 1, 1])
    tr = olc_core.run("perceptron", X, y)
    assert tr.mistakes.tolist() == [0, 2]
    v = evaluate({"kind": "no_violation"}, tr, 4)
    assert v.holds and "in each of 3 states (a state is the learner from one update to the next: 4 rounds, 3 states)" \
        in v.sentence
    tr = olc_core.run("weighted_majority", np.array([[1, -1], [1, -1]]), np.array([1, -1]), beta=0.5)
    v = evaluate({"kind": "no_violation"}, tr, 2)
    assert v.holds and "in each of 3 states (the learner before each round and after the last)" in v.sentence
