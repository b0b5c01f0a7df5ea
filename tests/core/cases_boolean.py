"""Conformance cases for the mistake-bound learners of [004] §2 (conjunctions, decision lists),
each with a plain-Python replay written straight from the notes (sets and lists, no numpy in the loop)."""
from __future__ import annotations

import numpy as np

from olc_core.streams import boolean as sb
from tests.core.cases import Case, NaiveRun

# ----------------------------------------------------------------------------- conjunctions


def naive_conjunction(X, y, params):
    """[004] §2.1: h = {x1, ¬x1, …, xn, ¬xn}; predict h(x); on a false negative remove the literals
    of h false in x; on a false positive ("no consistent conjunction") change nothing.
    Weights: 1 for each literal of h, in the order x1, ¬x1, x2, ¬x2, …"""
    T, n = X.shape
    h = {(i, s) for i in range(n) for s in (True, False)}   # (variable, positive?)

    def weights():
        return np.array([1.0 if (i, s) in h else 0.0 for i in range(n) for s in (True, False)])

    def true_in(lit, x):
        i, s = lit
        return (x[i] == 1) if s else (x[i] == 0)

    out, mistakes, preds = [weights()], [], []
    for t in range(T):
        x = [int(v) for v in X[t]]
        p = 1 if all(true_in(lit, x) for lit in h) else 0
        preds.append(float(p))
        if p != int(y[t]):
            mistakes.append(t)
            if p == 0:
                h = {lit for lit in h if true_in(lit, x)}
        out.append(weights())
    return NaiveRun(mistakes, out, preds)


def _conj_given(seed):
    s = sb.conjunction(T=60, n=5, k=2 + seed % 2, seed=seed)
    return s.X, s.y, {"comparator": s.comparator}


def _conj_found(seed):
    s = sb.conjunction(T=40, n=4, k=2, seed=seed + 10, positive_rate=0.4)
    return s.X, s.y, {}


def _conj_signed(seed):
    # the target given as signed literals, uniform bits
    s = sb.conjunction(T=80, n=3, target=[1, -3], seed=seed, positive_rate=None)
    return s.X, s.y, {"comparator": [1, -3]}


# ----------------------------------------------------------------------------- decision lists


def _rules(n):
    """The 4n+2 rules in the notes' order: (variable or None, positive literal?, output)."""
    out = []
    for i in range(n):
        for s in (True, False):
            for b in (1, 0):
                out.append((i, s, b))
    out.append((None, True, 1))
    out.append((None, True, 0))
    return out


def naive_decision_list(X, y, params):
    """[004] §2.2: h is a list of sets of rules, starting with one set holding all 4n+2 rules.
    Predict from the first set with a rule that fires; on a mistake move every rule of that set
    that fired and predicted wrongly to the next set. Tie rule: 'first' = the firing rule that comes
    first in the order x1→1, x1→0, ¬x1→1, …, True→0; 'majority' = majority output, ties → 1.
    Weights: the (1-based) position of each rule's set."""
    T, n = X.shape
    rules = _rules(n)
    tie = params.get("tie", "first")
    sets = [list(range(len(rules)))]

    def fires(r, x):
        i, s, _ = rules[r]
        return True if i is None else (x[i] == 1) == s

    def weights():
        w = [0.0] * len(rules)
        for k, group in enumerate(sets):
            for r in group:
                w[r] = float(k + 1)
        return np.array(w)

    out, mistakes, preds = [weights()], [], []
    for t in range(T):
        x = [int(v) for v in X[t]]
        k = next(k for k, group in enumerate(sets) if any(fires(r, x) for r in group))
        firing = sorted(r for r in sets[k] if fires(r, x))
        if tie == "first":
            p = rules[firing[0]][2]
        else:
            ones = sum(1 for r in firing if rules[r][2] == 1)
            p = 1 if ones >= len(firing) - ones else 0
        preds.append(float(p))
        if p != int(y[t]):
            mistakes.append(t)
            wrong = [r for r in firing if rules[r][2] != int(y[t])]
            if k + 1 == len(sets):
                sets.append([])
            sets[k] = [r for r in sets[k] if r not in wrong]
            sets[k + 1] = sets[k + 1] + wrong
        out.append(weights())
    return NaiveRun(mistakes, out, preds)


def _dl_given(seed, tie):
    s = sb.decision_list(T=70, n=4, L=3 + seed % 2, seed=seed)
    return s.X, s.y, {"comparator": s.comparator, "tie": tie}


def _dl_found(seed):
    s = sb.decision_list(T=50, n=3, L=3, seed=seed + 20, coverage="uniform")
    return s.X, s.y, {"tie": "first"}


CASES = [
    Case("conjunction-given", "conjunction", _conj_given, naive_conjunction, conservative=True),
    Case("conjunction-most-specific", "conjunction", _conj_found, naive_conjunction, conservative=True),
    Case("conjunction-signed-literals", "conjunction", _conj_signed, naive_conjunction, conservative=True),
    Case("decision-list-first", "decision_list", lambda s: _dl_given(s, "first"), naive_decision_list,
         conservative=True),
    Case("decision-list-majority", "decision_list", lambda s: _dl_given(s, "majority"), naive_decision_list,
         conservative=True),
    Case("decision-list-greedy", "decision_list", _dl_found, naive_decision_list, conservative=True),
]
