"""Predict, then reveal, against the trace, for the vote and set learners on every kind of stream their pages offer:
Weighted Majority at the β slider's ends (β = 0: weights that vanish, every weight 0; β = 0.01 with shares below the
smallest float; β = 0.99) and against the adversary (exact ties of the vote), Halving on advice (experts outside the
version space, an emptied version space), Randomised WM (η = 1: no weight left, no expert to draw; η = 0.01), Halving
on its own page, the conjunction and decision-list learners. For every round the graded answer is recomputed from
the trace's state (the integer exponents, exact rationals), independently of olc_ui, and every claim of the reveal
the browser prints is read back and checked."""
from __future__ import annotations

import math
import re
from fractions import Fraction

import numpy as np
import pytest

import olc_core
from olc_core.hypotheses import Thresholds
from olc_core.learners.decision_list import rule_name
from olc_core.proofs.boolean import literal_truth
from olc_ui.viewer import predict
from tests.ui.predictcheck import NUM, browser, find, needs_node, printed_holds, rounds_to, value

pytestmark = needs_node

HALF = {"<": "less than half", "=": "exactly half", ">": "more than half"}


def _weights(tr, t) -> list[Fraction]:
    """The exact weights before round t: β^c from the integer exponents (0 where β = 0 and c > 0); Halving's 0/1."""
    if tr.algorithm == "halving":
        return [Fraction(int(v)) for v in tr.weights_at(t)]
    b = Fraction(float(tr.info["beta"]))
    return [b ** int(c) if (b or not c) else Fraction(0) for c in tr.history.counts_at(t)]


def _log10(text: str) -> float:
    """log₁₀ of a printed positive number, also one below the smallest float ("3.2e-400")."""
    mant, _, exp = text.partition("e")
    return math.log10(float(mant)) + (int(exp) if exp else 0)


def _log10_exact(f: Fraction) -> float:
    return math.log10(f.numerator) - math.log10(f.denominator)


def _pm(v) -> str:
    return "+1" if v > 0 else "−1"


def _share_claim(rev: str, lead: str, wrong: Fraction, right: Fraction) -> str:
    """Checks "<lead> S of the weight" against the exact share wrong/(wrong + right); returns the words after it."""
    m = find(rf"{re.escape(lead)} (all but {NUM}|all|{NUM}) of the weight", rev)
    text, share = m.group(1), wrong / (wrong + right)
    if text == "all":
        assert right == 0
    elif text.startswith("all but"):
        rest = right / (wrong + right)
        got = text.split()[-1]
        if "e-" in got and float(rest) == 0.0:              # below the smallest float: compare the logarithms
            assert abs(math.log10(value(got)) - (math.log10(rest.numerator) - math.log10(rest.denominator))) < 0.01
        else:
            assert rounds_to(got, float(rest)) and value(got) > 0
    elif float(share) == 0.0:                                # below the smallest float: compare the logarithms
        assert abs(_log10(text) - _log10_exact(share)) < 0.01
    else:
        assert rounds_to(text, float(share)) and 0 < value(text) < 1
        rel = "<" if share < Fraction(1, 2) else "=" if share == Fraction(1, 2) else ">"
        assert printed_holds(text, rel, "0.5")
    return rev[m.end():]


# ------------------------------------------------------------------ Weighted Majority and Halving on advice

def _expert_runs():
    e = olc_core.streams.experts(T=150, N=6, error_rates=[0.05, 0.3, 0.4, 0.5, 0.5, 0.5], seed=1, noise=0.05)
    for beta, update in [(0.0, "on_mistake"), (0.01, "every_round"), (0.99, "on_mistake"), (0.5, "every_round")]:
        yield e.X, e.y, "wm", olc_core.run("weighted_majority", e.X, e.y, beta=beta, update=update)
    u = olc_core.streams.experts(T=400, N=4, error_rates=[0.0, 0.5, 0.5, 0.5], seed=2)   # shares below 1e-308
    yield u.X, u.y, "wm", olc_core.run("weighted_majority", u.X, u.y, beta=0.01, update="every_round")
    a = olc_core.streams.adversary(T=80, N=6, beta=0.5, seed=3)                # exact ties of the vote
    yield a.X, a.y, "wm", olc_core.run("weighted_majority", a.X, a.y, beta=0.5)
    yield e.X, e.y, "halving", olc_core.run("halving", e.X, e.y)                        # emptied by the noise
    one = olc_core.streams.experts(T=30, N=1, error_rates=0.3, seed=4)                  # N = 1
    yield one.X, one.y, "wm", olc_core.run("weighted_majority", one.X, one.y, beta=0.0)


def test_weighted_majority_and_halving_reveals_are_the_runs(tmp_path):
    runs = list(_expert_runs())
    opts = [predict.experts_options(tr, X, y, alg) for X, y, alg, tr in runs]
    cases = set()
    for (X, y, alg, tr), o, rounds in zip(runs, opts, browser(tmp_path, opts)):
        for i, (right, ids, q, rev) in enumerate(rounds):
            w, says = _weights(tr, i), np.asarray(X[i]) > 0
            wrong = [not (s == (y[i] > 0)) for s in says]
            W_wrong = sum((wi for wi, bad in zip(w, wrong) if bad), Fraction(0))
            W_right = sum((wi for wi, bad in zip(w, wrong) if not bad), Fraction(0))
            tie = W_wrong == W_right
            mistake = W_wrong > W_right or (tie and y[i] < 0)         # ties predict +1
            assert mistake == bool(o["mistake"][i]) and right == ("mistake" if mistake else "none")
            assert ids == ["none", "mistake"] and rev.endswith("a mistake." if mistake else "no mistake.")
            k = sum(wrong)
            n_right, N = len(wrong) - k, len(wrong)
            assert (f"; {n_right} of the {N} expert{'s' if N > 1 else ''} say{'s' if n_right == 1 else ''} "
                    f"{_pm(y[i])}") in q
            if W_wrong + W_right == 0:
                cases.add("empty")
                assert ("The version space is empty" if alg == "halving" else "Every expert's weight is 0") in rev
                assert alg == "halving" or tr.info["beta"] == 0.0
            elif k == 0:
                cases.add("right")
                assert rev == f"Every expert said {_pm(y[i])}: the vote is right — no mistake."
            elif W_wrong == 0:
                cases.add("zero")
                them = f"The {k} expert{'s' if k > 1 else ''} that said {_pm(-y[i])}"
                assert rev.startswith(them) and ("outside the version space" if alg == "halving" else "no weight") in rev
            elif alg == "halving":
                cases.add("share")
                n, bad = int(W_wrong + W_right), int(W_wrong)
                rel = "<" if 2 * bad < n else "=" if 2 * bad == n else ">"
                assert rev.startswith(f"{bad} of the {n} experts in the version space said {_pm(-y[i])} — {HALF[rel]}")
            else:
                rest = _share_claim(rev, f"The experts that said {_pm(-y[i])} held", W_wrong, W_right)
                rel = "<" if W_wrong < W_right else "=" if tie else ">"
                cases.add(("share", rel, float(W_wrong / (W_wrong + W_right)) == 0.0))
                assert rest.startswith(f" — {HALF[rel]}: ")
                assert ("a tie, which predicts +1" in rest) == tie
    assert {"empty", "right", "zero", "share", ("share", "<", False), ("share", ">", False), ("share", "=", False),
            ("share", "<", True)} <= cases, cases


# ------------------------------------------------------------------ Randomised Weighted Majority

def test_rwm_chance_of_a_mistake_is_the_runs(tmp_path):
    e = olc_core.streams.experts(T=120, N=5, error_rates=[0.1, 0.3, 0.4, 0.5, 0.5], seed=5)
    runs = [(e.X, e.y, olc_core.run("randomized_weighted_majority", e.X, e.y, eta=eta, seed=s))
            for eta, s in [(1.0, 0), (0.99, 1), (0.01, 2), (0.5, 3)]]
    a = olc_core.streams.adversary(T=60, N=4, beta=0.5, update="every_round", seed=6)
    runs.append((a.X, a.y, olc_core.run("randomized_weighted_majority", a.X, a.y, eta=0.5, seed=4)))
    opts = [predict.rwm_options(tr, X, y) for X, y, tr in runs]
    seen = set()
    for (X, y, tr), o, rounds in zip(runs, opts, browser(tmp_path, opts)):
        beta = tr.info["beta"]
        for i, (right, ids, q, rev) in enumerate(rounds):
            w, wrong = _weights(tr, i), (np.asarray(X[i]) > 0) != (y[i] > 0)
            W = sum(w, Fraction(0))
            W_wrong = sum((wi for wi, bad in zip(w, wrong) if bad), Fraction(0))
            chance = (Fraction(int(y[i] < 0)) if W == 0 else W_wrong / W)
            want = "zero" if chance == 0 else "low" if chance < Fraction(1, 2) else "high"
            assert right == want and ids == ["zero", "low", "high"]
            c = int(tr.columns["chosen_expert"][i])
            assert np.array_equal(np.asarray(tr.history.counts_at(i + 1)) - tr.history.counts_at(i), wrong.astype(int))
            if W == 0:
                seen.add("empty")
                assert c == -1 and tr.predictions[i] == 1 and "every weight is 0" in q
                assert rev.startswith("No weight is left, so no expert is drawn: the learner predicts +1 — ")
                assert f"(its chance was {int(chance)})" in rev
                continue
            said = _pm(1 if X[i, c] > 0 else -1)
            assert f"The draw picked expert {c + 1}, who said {said}" in rev and tr.predictions[i] == (1 if X[i, c] > 0 else -1)
            if not wrong.any():
                seen.add("right")
                assert rev.startswith("No expert was wrong: no weight changes")
            elif W_wrong == 0:
                seen.add("zero")
                assert beta == 0.0 and f"that said {_pm(-y[i])} hold" in rev and "no weight (η = 1" in rev
            else:
                rest = _share_claim(rev, "The wrong experts held", W_wrong, W - W_wrong)
                rel = "<" if 2 * W_wrong < W else "=" if 2 * W_wrong == W else ">"
                seen.add(("share", rel))
                assert rest.startswith(f" ({HALF[rel]}): a mistake with that probability")
                assert rev.endswith("a mistake." if tr.predictions[i] != y[i] else "no mistake.")
    assert {"empty", "right", "zero", ("share", "<"), ("share", "="), ("share", ">")} <= seen, seen


# ------------------------------------------------------------------ Halving on its own page

@pytest.mark.parametrize("update", ["on_mistake", "every_round"])
def test_halving_page_survivors_are_the_runs(tmp_path, update):
    rng = np.random.default_rng(8)
    H = Thresholds(tuple(np.round(np.linspace(0.05, 0.95, 19), 2)))
    runs = []
    for noise in (0.0, 0.3):
        X = rng.random((60, 1))
        y = np.where(X[:, 0] >= 0.5, 1, -1)
        y[rng.random(60) < noise] *= -1
        runs.append((X, y, olc_core.run("halving", X, y, hypotheses=H, update=update)))
    opts = [predict.halving_options(tr, y) for X, y, tr in runs]
    empty = small = 0
    for (X, y, tr), o, rounds in zip(runs, opts, browser(tmp_path, opts)):
        for i, (right, ids, q, rev) in enumerate(rounds):
            n, a = int(tr.weights_at(i).sum()), int(tr.weights_at(i + 1).sum())
            assert right == ("all" if a == n else "half" if 2 * a <= n else "most")
            assert right in ids and (("most" in ids) == (n >= 3))    # no answer offered that cannot be right
            if n in (1, 2):
                small += 1
            if n == 0:
                empty += 1
                assert ids == ["all"] and rev.startswith("The version space is empty: Halving predicts +1")
            elif a == n:
                assert rev.endswith(f": all {n} stay.")
            else:
                verb = 'leaves' if n - a == 1 else 'leave'
                assert rev.endswith(f"the {n - a} that said {_pm(-y[i])} {verb} — |Hₜ| goes {n} → {a}.")
    assert empty and small


# ------------------------------------------------------------------ the conjunction and decision-list learners

def test_conjunction_and_decision_list_reveals_are_the_runs(tmp_path):
    c = olc_core.streams.conjunction(T=120, n=6, k=2, seed=3, noise=0.1)
    ctr = olc_core.run("conjunction", c.X, c.y)
    d = olc_core.streams.decision_list(T=120, n=3, L=3, seed=4, noise=0.1)
    dtrs = [olc_core.run("decision_list", d.X, d.y, tie=tie) for tie in ("first", "majority")]
    opts = [predict.conjunction_options(ctr, c.X, c.y)] + [predict.decision_list_options(tr, d.X, d.y) for tr in dtrs]
    got = browser(tmp_path, opts)
    for i, (right, ids, q, rev) in enumerate(got[0]):
        a, b = ctr.weights_at(i).astype(int), ctr.weights_at(i + 1).astype(int)
        x = c.X[i].astype(int)
        false = int(sum(a[2 * j] * (1 - x[j]) + a[2 * j + 1] * x[j] for j in range(len(x))))
        pred = int(false == 0)
        assert int(ctr.predictions[i]) == pred and f"ŷ = {pred}" in rev and f"h has {a.sum()} literal" in q
        assert right == ("false" if (pred, c.y[i]) == (0, 1) else "none")
        if right == "false":
            assert a.sum() - b.sum() == false and rev.startswith(f"{false} literal") and f"h keeps {b.sum()}" in rev
        else:
            assert np.array_equal(a, b) and rev.endswith("nothing leaves.") or "nothing leaves (only" in rev
    ties = 0
    for tr, rounds in zip(dtrs, got[1:]):
        n = int(tr.info["n"])
        for i, (right, ids, q, rev) in enumerate(rounds):
            a, b = tr.weights_at(i), tr.weights_at(i + 1)
            lv, rule = int(tr.columns["level"][i]), rule_name(int(tr.columns["rule"][i]), n)
            assert rev.startswith(f"Level {lv} predicted ŷ = {int(tr.predictions[i])} (")
            assert (f"among them {rule})" if tr.info["tie"] == "majority" else f"(rule {rule})") in rev
            if tr.info["tie"] == "majority":    # the level's firing rules counted by output, a tie called one
                fires = np.repeat(literal_truth(d.X[i]), 2) & (a == lv)
                one = int(np.sum(fires[0::2]))
                zero = int(np.sum(fires[1::2]))
                k = one + zero
                words = f"{k} firing rule{'s' if k != 1 else ''}"
                assert (f"a tie among its {words}, {one} to {zero}, which predicts 1;" if one == zero else
                        f"the majority of its {words}: {one} say 1, {zero} say 0;") in rev, rev
                assert int(tr.predictions[i]) == int(one >= zero)
                ties += one == zero
            fell = [rule_name(int(r), n) for r in np.flatnonzero(a != b)]
            assert right == ("fall" if fell else "none")
            if fell:
                verb = "falls" if len(fell) == 1 else "fall"
                assert rev.endswith(f"a mistake — {', '.join(fell)} {verb} to level {lv + 1}.") and \
                    (b[a != b] == lv + 1).all()
    assert ties, "no tied vote in the majority run: the tie's words went untested"
