"""Predict, then reveal on every learner's page: each kind's options (olc_ui/viewer/questions/) are the run's
answers — small runs checked by hand, and every round of seeded runs checked against the trace's columns and
weights — and the browser module (viewer_questions.js, under node) offers them and grades with them."""
from __future__ import annotations

import shutil

import numpy as np
import pytest

import olc_core
from olc_core.hypotheses import Thresholds
from olc_ui.viewer import predict
from tests.conftest import node_eval

NODE = shutil.which("node")
needs_node = pytest.mark.skipif(NODE is None, reason="node is not installed")

#: what the browser says for every round: [right answer, "key:id" per choice, question, reveal]
ALL_ROUNDS = ("Array.from({length: data.rounds}, (_, i) => [m.rightAnswer(data, i + 1), "
              "m.choices(data, i + 1).map(c => c[0] + ':' + c[1]), m.questionText(data, i + 1), "
              "m.revealText(data, i + 1)])")


def _browser(tmp_path, o):
    """The JS view of every round, checked for what every kind must do: the right answer is the run's
    (``answer``) and one of the choices; keys are single distinct letters; the question fits a phone."""
    got = node_eval(tmp_path, "viewer_questions.js", ALL_ROUNDS, o)
    for i, (right, ch, q, rev) in enumerate(got):
        if "answer" in o:
            assert right == o["answer"][i]
        keys = [c.split(":")[0] for c in ch]
        assert right in [c.split(":")[1] for c in ch]
        assert all(len(k) == 1 and k.isupper() for k in keys) and len(set(keys)) == len(keys)
        assert q.startswith(f"Round {i + 1}: ") and len(q) <= 220 and rev and "undefined" not in q + rev
        assert "NaN" not in q + rev
    return got


# ------------------------------------------------------------------ the Margin Perceptron

@needs_node
def test_margin_perceptron_by_hand(tmp_path):
    # γ/2 = 0.25. Round 1 sets w = y₁x₁ = (1, 0); round 2: x = (0, 1), s = 0 — inside the band, a margin mistake,
    # w = (1, 1); round 3: x = (1, 1)/√2, s = 1 ≥ 0.25: no update; round 4: x = (−1, 0.2)/‖·‖, y = −1,
    # s = −0.555, y·s = 0.555: no update. Then (−1, 0.1)/‖·‖ labelled +1 against w = (1, 0): s = −0.995 ≤ −0.25,
    # the wrong side: a mistake.
    X = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0], [-1.0, 0.2]])
    tr = olc_core.run("margin_perceptron", X, np.array([1, 1, 1, -1]), gamma=0.5, passes=1)
    o = predict.margin_perceptron_options(tr)
    assert o["answer"] == ["init", "band", "none", "none"] and o["mistake"] == [1, 1, 0, 0]
    assert o["example"] == [1, 2, 3, 4] and o["gamma"] == 0.5
    assert o["px"][2] == pytest.approx(2 ** -0.5) and o["score"][3] == pytest.approx(-0.5547002)
    got = _browser(tmp_path, o)
    assert got[0][1] == ["U:init", "N:none"] and got[1][1] == ["N:none", "B:band", "M:mistake"]
    assert got[1][3] == "s = 0 and y = +1: s lies in the band (−0.25, 0.25) — a margin mistake: w += y·x."
    assert got[3][3] == "s = −0.5547 and y = −1: y·s = 0.5547 ≥ γ/2 = 0.25 — no update, w stays."
    tr2 = olc_core.run("margin_perceptron", np.array([[1.0, 0.0], [-1.0, 0.1]]), np.array([1, 1]), gamma=0.5,
                       passes=1)
    o2 = predict.margin_perceptron_options(tr2)
    assert o2["answer"] == ["init", "mistake"]
    assert _browser(tmp_path, o2)[1][3] == "s = −0.995 and y = +1: y·s = −0.995 ≤ −γ/2 = −0.25 — a mistake: w += y·x."


def test_margin_perceptron_answers_follow_the_run():
    s = olc_core.streams.separable(T=60, d=2, gamma=0.1, radius=1.0, seed=3)
    tr = olc_core.run("margin_perceptron", s.X, s.y, gamma=0.2, passes=4)
    o = predict.margin_perceptron_options(tr)
    kind = tr.columns["kind"]
    half = 0.1
    for t in range(o["rounds"]):
        ys = o["label"][t] * o["score"][t]
        assert o["mistake"][t] == int(o["answer"][t] != "none")
        assert {0: "none", 1: "band", 2: "mistake", 3: "init"}[int(kind[t])] == o["answer"][t]
        if o["answer"][t] == "none":
            assert ys >= half - 1e-12
        elif o["answer"][t] == "band":
            assert abs(o["score"][t]) < half + 1e-12
        elif o["answer"][t] == "mistake":
            assert ys <= -half + 1e-12
        w = tr.weights_at(t)        # an update adds y·x: w changes exactly at the rounds answered with an update
        assert np.any(tr.weights_at(t + 1) != w) == (o["answer"][t] != "none")
    assert {"none", "band", "init"} <= set(o["answer"])


# ------------------------------------------------------------------ Winnow

@needs_node
def test_winnow_by_hand(tmp_path):
    # olc_core.learners.winnow's worked example, N = 4, β = 1: promote, demote, promote, promote (a tie w·x = N)
    X = np.array([[1, 0, 1, 1], [0, 1, 1, 1], [1, 1, 0, 0], [1, 0, 0, 0]])
    y = np.array([1, 0, 1, 1])
    tr = olc_core.run("winnow", X, y, beta=1.0, comparator=[0])
    o = predict.winnow_options(tr, X, y)
    assert o["answer"] == ["promote", "demote", "promote", "promote"] and o["N"] == 4 and o["base"] == 2.0
    assert o["active"] == [3, 3, 2, 1] and o["on"] == [[1, 3, 4], [2, 3, 4], [1, 2], [1]] and o["pred"] == [0, 1, 0, 0]
    got = _browser(tmp_path, o)
    assert got[0][1] == ["N:none", "P:promote", "D:demote"]
    assert got[0][2] == ("Round 1: y = 1; x has 3 active features (1, 3, 4). ŷ = 1 iff their weights sum to more "
                         "than N = 4. Which update?")
    assert got[1][3] == "w·x = 5 > N = 4, so ŷ = 1 but y = 0: a demotion — the 3 active weights ÷2."
    assert o["rel"] == ["<", ">", "<", "="]      # round 4 is the tie w·x = N, decided exactly
    assert got[3][3] == "w·x = N = 4 (a tie: not above N), so ŷ = 0 but y = 1: a promotion — the 1 active weight ×2."
    assert got[2][3] == "w·x = 2.5 < N = 4, so ŷ = 0 but y = 1: a promotion — the 2 active weights ×2."


def test_winnow_answers_follow_the_weights():
    s = olc_core.streams.sparse_disjunction(T=300, N=20, k=2, seed=1, noise=0.05, dtype=np.uint8)
    tr = olc_core.run("winnow", s.X, s.y, beta=1.0)
    o = predict.winnow_options(tr, s.X, s.y)
    for t in range(o["rounds"]):
        a, b = tr.log_weights_at(t), tr.log_weights_at(t + 1)
        on = s.X[t] != 0
        step = {"none": 0.0, "promote": np.log(2.0), "demote": -np.log(2.0)}[o["answer"][t]]
        assert b[on] - a[on] == pytest.approx(np.full(on.sum(), step)) and np.array_equal(b[~on], a[~on])
    assert {"none", "promote", "demote"} <= set(o["answer"])


# ------------------------------------------------------------------ the exponentiated update

@needs_node
def test_exponentiated_update_by_hand(tmp_path):
    # olc_core.learners.normalized_winnow's worked example: round 1, ⟨w, x⟩ = 0 is a mistake, w goes (½, ½) → (0.8, 0.2):
    # feature 1 (y·x₁ = 1 > 0) grew, feature 2 shrank — exactly those with y·xᵢ > 0; Z = 5/4, η = ln 2, so
    # θ = ln Z/η = log₂ 1.25 = 0.3219; rounds 2–4 are right
    X = np.array([[1.0, -1.0], [1.0, 1.0], [-1.0, 0.5], [-1.0, 1.0]])
    y = np.array([1, 1, -1, -1])
    tr = olc_core.run("normalized_winnow", X, y, comparator=[0.8, 0.2])
    o = predict.eg_options(tr, X, y)
    assert o["answer"] == ["exact", "none", "none", "none"] and o["grew"][0] == [1] and o["up"][0] == o["down"][0] == 1
    assert o["plus"] == [[1], [1, 2], [1], [1]] and o["eta"] == pytest.approx(np.log(2))
    assert o["theta"][0] == pytest.approx(np.log2(1.25)) and o["theta_sign"][0] == 1 and o["same"][0] == 0
    got = _browser(tmp_path, o)
    assert got[0][1] == ["N:none", "E:exact", "S:fewer", "O:more"]
    assert got[0][2] == ("Round 1: y = +1; y·xᵢ > 0 for feature 1 (of 2). Will y⟨w, x⟩ ≤ 0 (a mistake) — "
                         "and which wᵢ grow (×e^(η·y·xᵢ)/Z)?")
    assert got[0][3] == ("y⟨w, x⟩ = 0 ≤ 0: a mistake. wᵢ ×e^(η·y·xᵢ)/Z with η = 0.693: wᵢ grows iff y·xᵢ > ln Z/η = "
                         "0.322. Feature 1 grew (exactly those with y·xᵢ > 0), 1 shrank.")
    assert got[2][3] == "y⟨w, x⟩ = +0.7 > 0: no mistake, w stays."


def test_exponentiated_update_gains_follow_the_weights():
    s = olc_core.streams.sparse_simplex(T=200, N=8, k=3, seed=2, noise=0.1)
    tr = olc_core.run("normalized_winnow", s.X, s.y)
    o = predict.eg_options(tr, s.X, s.y)
    for t in range(o["rounds"]):
        a, b = tr.log_weights_at(t), tr.log_weights_at(t + 1)
        assert (o["answer"][t] != "none") == bool(o["mistake"][t]) == (o["label"][t] * o["score"][t] <= 0)
        if o["answer"][t] == "none":
            assert np.array_equal(a, b)
            continue
        # the log-ratio of the update is η·y·xᵢ − ln Z: larger exactly where y·xᵢ is larger
        yx = o["label"][t] * s.X[t]
        assert b - a - o["eta"] * yx == pytest.approx(np.full(len(a), (b - a - o["eta"] * yx)[0]), abs=1e-9)
        # a weight that did not move in exact arithmetic may move by a rounding (round 71: every y·xᵢ = −1, Z = e^−η,
        # and one float log weight moved by 4e-16): beyond 1e-12 the floats have the sign
        grew, plus = b - a > 1e-12, yx > 0
        assert o["grew"][t] == (np.flatnonzero(grew) + 1).tolist() and o["down"][t] == int((b - a < -1e-12).sum())
        assert o["same"][t] == int((np.abs(b - a) <= 1e-12).sum())
        assert o["answer"][t] == ("exact" if np.array_equal(grew, plus) else "fewer" if grew.sum() < plus.sum()
                                  else "more")
    assert "exact" in o["answer"] and "none" in o["answer"]


# ------------------------------------------------------------------ randomised FTRL

@needs_node
def test_ftrl_by_hand(tmp_path):
    # olc_core.learners.ftrl_randomized's three rounds with α = 3: p = 0 (w = 0), 0.6 (y = −1), −0.849 (y = +1)
    X = np.array([[1.0, 0.0], [0.6, 0.8], [0.0, 1.0]])
    y = np.array([1, -1, 1])
    tr = olc_core.run("ftrl_randomized", X, y, eta=3.0, seed=0)
    o = predict.ftrl_options(tr, X, y)
    assert o["answer"] == ["half", "below", "below"] and o["figure"] == "plane" and o["px"] == [1.0, 0.6, 0.0]
    assert o["pright"] == pytest.approx([0.5, 0.2, (1 - 0.848528137) / 2])
    got = _browser(tmp_path, o)
    assert got[1][1] == ["A:above", "H:half", "B:below"]
    assert got[1][3] == (f"⟨w, x⟩ = +0.6, y = −1: P(ŷ = y) = (1 + y·⟨w, x⟩)/2 = 0.2. The coin gave ŷ = "
                         f"{'+1' if o['pred'][1] > 0 else '−1'}"
                         f" — {'a mistake' if o['mistake'][1] else 'no mistake'}.")


def test_ftrl_answers_follow_the_run():
    s = olc_core.streams.separable(T=300, d=3, gamma=0.1, radius=1.0, seed=5, noise=0.1)
    tr = olc_core.run("ftrl_randomized", s.X, s.y, seed=1)
    o = predict.ftrl_options(tr, s.X, s.y)
    assert "px" not in o                                   # 3-D: nothing to ring
    for t in range(o["rounds"]):
        yp = s.y[t] * float(np.dot(tr.weights_at(t), s.X[t]))
        assert o["answer"][t] == ("above" if yp > 1e-12 else "below" if yp < -1e-12 else "half")
        assert o["pright"][t] == pytest.approx(1 - tr.columns["expected_loss"][t])
        assert o["mistake"][t] == int(o["pred"][t] != s.y[t])


# ------------------------------------------------------------------ Randomised Weighted Majority

@needs_node
def test_rwm_by_hand(tmp_path):
    # η = ½. Round 1: expert 2 wrong, weights (1, 1): F = ½ — "half or more"; round 2: w = (1, ½), expert 2 wrong
    # again: F = ⅓ — "less than half"; round 3: nobody wrong — F = 0
    X = np.array([[1, -1], [1, -1], [1, 1]])
    y = np.array([1, 1, 1])
    tr = olc_core.run("randomized_weighted_majority", X, y, eta=0.5, seed=3)
    o = predict.experts_options(tr, X, y, "rwm")
    assert o["kind"] == "rwm" and o["answer"] == ["high", "low", "zero"] and o["wrong"] == pytest.approx([0.5, 1 / 3, 0])
    assert o["eta"] == 0.5 and o["says"] == [[1], [1], [1, 2]] and o["cover"] == {"advice": 0.5, "mistakes": 0.0}
    got = _browser(tmp_path, o)
    assert got[0][1] == ["Z:zero", "L:low", "H:high"]
    c = o["chosen"][1]
    assert got[1][3] == ("The wrong experts held 0.333 of the weight (less than half): a mistake with that probability; "
                         f"their weights ×0.5. The draw picked expert {c}, who said {'−1' if c == 2 else '+1'} — "
                         f"{'a mistake' if c == 2 else 'no mistake'}.")
    assert got[2][3] == ("No expert was wrong: no weight changes and there is no chance of a mistake. The draw picked "
                         f"expert {o['chosen'][2]}, who said +1.")


def test_rwm_answers_follow_the_weights():
    e = olc_core.streams.experts(T=200, N=5, error_rates=[0.1, 0.2, 0.3, 0.4, 0.45], seed=4)
    tr = olc_core.run("randomized_weighted_majority", e.X, e.y, eta=0.3, seed=2)
    o = predict.experts_options(tr, e.X, e.y, "rwm")
    for t in range(o["rounds"]):
        w = np.exp(tr.log_weights_at(t))
        wrong = e.X[t] != e.y[t]
        F = w[wrong].sum() / w.sum()
        assert o["answer"][t] == ("zero" if not wrong.any() else "low" if F < 0.5 else "high")
        # the wrong experts, and only they, lose weight: ×(1 − η)
        assert np.allclose(np.exp(tr.log_weights_at(t + 1)), w * np.where(wrong, 0.7, 1.0))
        assert o["mistake"][t] == int(e.X[t, o["chosen"][t] - 1] != e.y[t])


# ------------------------------------------------------------------ Halving

@needs_node
def test_halving_by_hand(tmp_path):
    # thresholds 0.2, 0.4, 0.6, 0.8 (h_θ(x) = +1 iff x ≥ θ), pruned on every round. x = 0.3, y = −1: only h_0.2 says
    # +1, the vote is right, h_0.2 leaves: 4 → 3 ("more than half"); x = 0.5, y = −1: h_0.4 leaves, 3 → 2;
    # x = 0.7, y = +1: h_0.6 says +1, h_0.8 −1, a tie votes +1 — right; h_0.8 leaves: 2 → 1 ("half or fewer")
    H = Thresholds((0.2, 0.4, 0.6, 0.8))
    X = np.array([[0.3], [0.5], [0.7]])
    y = np.array([-1, -1, 1])
    tr = olc_core.run("halving", X, y, hypotheses=H, update="every_round")
    o = predict.halving_options(tr, y)
    assert o["size"] == [4, 3, 2] and o["after"] == [3, 2, 1] and o["plus"] == [1, 1, 1]
    assert o["answer"] == ["most", "most", "half"] and o["mistake"] == [0, 0, 0]
    got = _browser(tmp_path, o)
    assert got[0][1] == ["A:all", "H:half", "S:most"]
    assert got[0][2] == "Round 1: y = −1; of |Hₜ| = 4, 1 say +1 and 3 say −1 (a tie votes +1). How many survive the round?"
    assert got[0][3] == "The majority vote was right — no mistake: the 1 that said +1 leaves — |Hₜ| goes 4 → 3."
    # Halving proper (prune on mistakes): x = 0.3 right (all 4 stay); x = 0.5 is a 2–2 tie, +1, wrong: the 2 that
    # said −1 survive
    tr = olc_core.run("halving", X, y, hypotheses=H)
    o = predict.halving_options(tr, y)
    assert o["answer"] == ["all", "half", "all"] and o["after"] == [4, 2, 2] and o["mistake"] == [0, 1, 0]
    assert _browser(tmp_path, o)[1][3] == ("The majority vote was wrong — a mistake: the 2 that said +1 leave — "
                                           "|Hₜ| goes 4 → 2.")


@pytest.mark.parametrize("update", ["on_mistake", "every_round"])
def test_halving_survivors_are_the_runs(update):
    s = olc_core.streams.experts(T=150, N=32, error_rates=[0.0] + [0.5] * 31, seed=6)
    tr = olc_core.run("halving", s.X, s.y, update=update)
    o = predict.halving_options(tr, s.y)
    for t in range(o["rounds"]):
        before, after = tr.weights_at(t), tr.weights_at(t + 1)
        assert o["size"][t] == before.sum() and o["after"][t] == after.sum()
        assert o["plus"][t] == int(((s.X[t] == 1) & (before > 0)).sum())
        n, a = o["size"][t], o["after"][t]
        assert o["answer"][t] == ("all" if a == n else "half" if 2 * a <= n else "most")
    assert "half" in o["answer"]


# ------------------------------------------------------------------ the conjunction and decision-list learners

@needs_node
def test_conjunction_by_hand(tmp_path):
    # [004]'s example: h starts with all 8 literals; 1001 (y = 1): 4 literals false in x leave (h = x1 ¬x2 ¬x3 x4);
    # 1101 (y = 1): ¬x2 leaves; 0101 (y = 0): x1 is false, ŷ = 0 = y; 1111 (y = 1): ¬x3 leaves, h = x1 ∧ x4
    X = np.array([[1, 0, 0, 1], [1, 1, 0, 1], [0, 1, 0, 1], [1, 1, 1, 1]])
    y = np.array([1, 1, 0, 1])
    tr = olc_core.run("conjunction", X, y)
    o = predict.conjunction_options(tr, X, y)
    assert o["answer"] == ["false", "false", "none", "false"] and o["size"] == [8, 4, 3, 3]
    assert o["false"] == [4, 1, 1, 1] and o["x"] == ["1001", "1101", "0101", "1111"]
    got = _browser(tmp_path, o)
    assert got[0][1] == ["N:none", "F:false", "T:true"]
    assert got[0][2] == "Round 1: x = 1001, y = 1; h has 8 literals. Which literals leave h?"
    assert got[0][3] == "4 literals of h are false in x, so ŷ = 0 but y = 1 — a false negative: they leave, h keeps 4."
    assert got[2][3] == "1 literal of h false in x: ŷ = 0 = y — nothing leaves (only positive examples teach)."
    assert got[3][3] == "1 literal of h is false in x, so ŷ = 0 but y = 1 — a false negative: it leaves, h keeps 2."


def test_conjunction_removals_are_the_runs():
    s = olc_core.streams.conjunction(T=200, n=8, k=2, seed=3, noise=0.05)
    tr = olc_core.run("conjunction", s.X, s.y)
    o = predict.conjunction_options(tr, s.X, s.y)
    for t in range(o["rounds"]):
        a, b = tr.weights_at(t), tr.weights_at(t + 1)
        removed = int(a.sum() - b.sum())
        assert o["size"][t] == a.sum()
        assert (o["answer"][t] == "false") == (removed > 0)
        if removed:
            assert removed == o["false"][t]
    assert "false" in o["answer"]


@needs_node
def test_decision_list_by_hand(tmp_path):
    # [004]'s example (n = 2): 01 then 00; both rounds mistakes, the wrong firing rules of level 1 fall
    X = np.array([[0, 1], [0, 0]])
    y = np.array([0, 1])
    tr = olc_core.run("decision_list", X, y, comparator=[("x1", 0), ("¬x2", 1), (True, 0)])
    o = predict.decision_list_options(tr, X, y)
    assert o["answer"] == ["fall", "fall"] and o["level"] == [1, 1]
    assert o["fell"] == [["¬x1→1", "x2→1", "True→1"], ["¬x1→0", "¬x2→0", "True→0"]]
    got = _browser(tmp_path, o)
    assert got[0][3] == "Level 1 predicted ŷ = 1 (rule ¬x1→1), y = 0: a mistake — ¬x1→1, x2→1, True→1 fall to level 2."


def test_every_kind_is_sent_long_runs_first_rounds_only():
    s = olc_core.streams.separable(T=predict.MAX_ROUNDS + 300, d=2, gamma=0.1, radius=1.0, seed=0)
    tr = olc_core.run("ftrl_randomized", s.X, s.y, seed=0)
    o = predict.ftrl_options(tr, s.X, s.y)
    assert o["rounds"] == predict.MAX_ROUNDS and o["T"] == tr.T
    assert all(len(o[k]) == predict.MAX_ROUNDS for k in ("answer", "label", "score", "pright", "pred", "px", "py"))


# ------------------------------------------------------------------ numbers in a printed comparison

@needs_node
def test_printed_comparisons_hold_of_the_printed_numbers(tmp_path):
    """viewer_format.js: the fewest digits (from 3) with which the printed numbers still satisfy the relation;
    whole numbers whole; null when the relation is not true of the two floats."""
    got = node_eval(tmp_path, "viewer_format.js",
                    "[m.printedPair(100.0625, 100, '>'), m.printedPair(1000.5, 1000, '>'), m.printedPair(0.1, 0.1, '='),"
                    " m.printedPair(1, 2, '>'), m.printedPair(-0.0999999, -0.1, '>'), m.numText(1000), m.numText(1234.5),"
                    " m.numText(-2.5e-7), m.printedHolding(0.5000001, [['>', 0.5]]), m.printedHolding(179.99999, [['<', 180]]),"
                    " m.printedHolding(0.5, [['<', 0.5]]), m.printedHolding(0.999, [['<', 1], ['>', 0]])]")
    assert got[0] == ["100.1", "100", 4] and got[1] == ["1000.5", "1000", 6] and got[2] == ["0.1", "0.1", 3]
    assert got[3] is None and got[4] == ["−0.0999999", "−0.1", 6]
    assert got[5:8] == ["1000", "1234", "−2.5e-07"]
    assert got[8] == {"text": "0.5000001", "digits": 9} and got[9] == {"text": "179.99999", "digits": 9}
    assert got[10] is None and got[11] == {"text": "0.999", "digits": 3}


def test_numbers_beyond_a_float_are_written_from_their_logarithm():
    from olc_ui.viewer.questions.base import sci_text
    assert sci_text(-400.5) == "3.16e-401" and sci_text(-5.0) == "1e-05" and sci_text(400.0) == "1e+400"
    assert sci_text(2.99999999) == "1e+03"        # 999.99… to 3 digits
