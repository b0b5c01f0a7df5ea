"""The lessons of the app, in reading order (the router and the home page both read this table)."""
from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

#: (section, script, title, icon, url path, one-line summary). The url path is the script's file
#: stem: a deep link opened on a fresh server is first resolved against the pages/ folder.
LESSONS = [
    ("Start", "pages/home.py", "Home: the online protocol", ":material/home:", "home",
     "the protocol and a live run"),
    ("Linear classifiers", "pages/perceptron.py", "Perceptron", ":material/show_chart:", "perceptron",
     "M ≤ R²/γ²: the norm and cosine sandwiches; non-separable data and the TD_γ bound"),
    ("Linear classifiers", "pages/margin_perceptron.py", "Margin Perceptron", ":material/straighten:", "margin_perceptron",
     "updates on margin mistakes, ≤ 12/γ² of them, and stops with margin ≥ γ/2"),
    ("Linear classifiers", "pages/ftrl.py", "Randomised FTRL classifier", ":material/casino:", "ftrl",
     "predict +1 with probability (1 + ⟨w, x⟩)/2: expected mistakes against the best ‖u‖ ≤ 1"),
    ("Multiplicative updates", "pages/winnow.py", "Winnow", ":material/trending_up:", "winnow",
     "promote and demote: M = O(k log N) when few of many features matter"),
    ("Multiplicative updates", "pages/exponentiated_update.py", "The exponentiated update", ":material/balance:",
     "exponentiated_update", "normalised Winnow: the relative-entropy potential and M ≤ 2 ln N/δ²"),
    ("Expert advice", "pages/experts.py", "Weighted Majority, RWM, Halving", ":material/groups:", "experts",
     "multiplicative weights on experts' advice, the log-scale sandwich"),
    ("Expert advice", "pages/halving.py", "Halving: the version space", ":material/content_cut:", "halving",
     "the version space halves at each mistake: M ≤ log₂|H|"),
    ("Mistake-bound model", "pages/boolean_concepts.py", "Conjunctions and decision lists", ":material/functions:", "boolean_concepts",
     "elimination, the level algorithm, and the adversary game"),
    ("Compare", "pages/compare.py", "Compare learners", ":material/compare_arrows:", "compare",
     "several learners on the same rounds, one cursor: mistakes, weights and each one's sandwich"),
    ("Theorems against runs", "pages/bound_explorer.py", "Bound explorer", ":material/query_stats:", "bound_explorer",
     "sweep a parameter over many seeded runs: measured mistakes against the bound, and the tightness ratio"),
]


#: Pages of the menu that are not lessons (no step viewer of their own), after the lessons: the lectures as tours
#: (issue 33; docs/tours.md). Same columns as LESSONS.
MORE = [
    ("Lectures", "pages/tours.py", "Lectures as tours", ":material/tour:", "tours",
     "each lecture note taught stop by stop, every stop's claim checked on its run"),
]


def available() -> list[tuple]:
    """The lessons whose page exists (a lesson appears once its page is there)."""
    return [row for row in LESSONS if (ROOT / row[1]).exists()]


def menu() -> list[tuple]:
    """Every page of the router and its menu: the lessons, then :data:`MORE`."""
    return available() + [row for row in MORE if (ROOT / row[1]).exists()]
