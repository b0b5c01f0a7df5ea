"""Fuzzing every lesson page (issue 15): seeded random links and widget moves, extremes and hostile values.

Each case opens a page (AppTest) with a link from tests/fuzzgen.py, then moves a few random widgets
(a slider to its ends, another option, a toggle, a button) and reruns. Every run: no exception,
every refused value of the link explained on the page (the decoder's own message, shown as text),
nothing from the link rendered as Markdown or HTML, no value echoed past 80 characters.

CI runs a small seeded sample (3 links per page and the extremes table); the long run:
``pytest tests/app/test_fuzz_pages.py --fuzz-full`` (or ``OLC_FUZZ=full``; ``OLC_FUZZ_N=…`` sets the
number of links per page, ``OLC_FUZZ_SEED=…`` the first seed). Counts and results: docs/robustness.md.
"""
from __future__ import annotations

import random
import re

import pytest

from tests.app.pagetest import open_page, page_path, unescape
from tests.app.test_untrusted_text import bodies
from tests.fuzzgen import expected_problems, first_seed, fuzz_full, n_cases, page_settings
from tests.fuzzgen import case as fuzz_case
from tests.hostile import unescaped

PAGES = sorted(page_settings())

#: the extremes the issue names, one link each (T = 0 and noise 1/2 are refused: the page must say so); the
#: heaviest runs (seconds each) are marked slow: --fuzz-full runs them
SLOW = pytest.mark.slow
EXTREMES = [
    pytest.param("perceptron", {"gamma": "0.01", "R": "5", "T": "10000"}, marks=SLOW),
    ("perceptron", {"T": "0", "noise": "0.5"}),
    ("perceptron", {"T": "1", "d": "3", "noise": "0.3", "gbest": "0", "gtd": "0.005"}),
    ("margin_perceptron", {"gamma": "0.02", "gamma_alg": "0.01", "passes": "200", "T": "2000"}),
    ("margin_perceptron", {"T": "1", "until": "0"}),
    ("experts", {"beta": "0", "N": "1", "T": "2000"}),
    ("experts", {"beta": "-0", "alg": "rwm", "N": "1", "T": "1"}),
    ("experts", {"beta": "0.99", "update": "every_round", "best": "0.5", "worst": "1", "errors": "exact"}),
    pytest.param("experts", {"eta": "0.01", "alg": "rwm", "runs": "500", "T": "2000", "N": "50"}, marks=SLOW),
    ("experts", {"beta": "5e-324", "data": "adversary", "N": "50", "T": "2000"}),
    ("experts", {"noise": "0.5", "T": "0"}),
    ("halving", {"K": "1", "T": "1"}),
    ("halving", {"K": "720", "T": "500", "stream": "adversary"}),
    ("halving", {"cls": "conj", "n": "10", "update": "every_round", "noise": "0.3"}),
    ("boolean_concepts", {"mode": "conj", "n": "1", "k": "1", "T": "1"}),
    ("boolean_concepts", {"mode": "conj", "n": "12", "k": "12", "prate": "1", "T": "1000"}),
    ("boolean_concepts", {"mode": "conj", "n": "3", "k": "0", "prate": "0"}),
    ("boolean_concepts", {"mode": "conj", "n": "2", "k": "12"}),
    ("boolean_concepts", {"mode": "dl", "dn": "8", "L": "9", "dT": "1000", "tie": "majority", "dnoise": "0.3"}),
    ("boolean_concepts", {"mode": "adversary", "an": "1", "moves": "1:1,0:0"}),
    ("boolean_concepts", {"mode": "learner", "ln": "10", "preds": "1" * 10}),
    ("winnow", {"N": "2", "k": "2", "T": "1"}),
    ("winnow", {"N": "2", "k": "50"}),
    pytest.param("winnow", {"N": "10000", "k": "50", "T": "10000", "beta": "0.05"}, marks=SLOW),
    pytest.param("winnow", {"data": "adversary", "N": "10000", "T": "10000", "beta": "3"}, marks=SLOW),
    ("exponentiated_update", {"N": "3", "k": "3", "eta_opt": "0", "eta": "0.01"}),
    ("exponentiated_update", {"N": "2", "k": "49", "T": "1"}),
    ("exponentiated_update", {"data": "continuous", "delta": "0.9", "eta_opt": "0", "eta": "5", "T": "2000",
                              "N": "100"}),
    ("exponentiated_update", {"data": "continuous", "delta": "0.01", "noise": "0.3"}),
    pytest.param("ftrl", {"gamma": "0.01", "alpha": "0.05", "T": "3000", "runs": "500", "d": "5"}, marks=SLOW),
    ("ftrl", {"T": "1", "R": "0.55", "alpha": "10", "noise": "0.3"}),
]


def pytest_generate_tests(metafunc):
    if "fuzz_seed" in metafunc.fixturenames:
        n, s0 = n_cases(fuzz_full(metafunc.config)), first_seed()
        metafunc.parametrize("page,fuzz_seed", [(p, i) for p in PAGES for i in range(s0, s0 + n)])


def check(at, page: str, query: dict[str, str]) -> None:
    """The page ran, said what was wrong with the link, and showed nothing from it as Markdown."""
    assert not at.exception, (query, [e.value for e in at.exception])
    texts = bodies(at)
    bad = {t[:120]: leaked(t, query) for t in texts if leaked(t, query)}
    assert not bad, (query, bad)
    said = " ".join(unescape(e.value) for e in list(at.warning) + list(at.error))
    for problem in expected_problems(page_settings()[page], query):
        assert problem in said, (query, problem, said[:600])
    for t in texts:
        assert "x" * 81 not in t and "y" * 81 not in t


def leaked(body: str, query: dict[str, str]) -> list[str]:
    """The dangerous pieces of the link's values that a Markdown body carries verbatim (tests/hostile.py's
    check, limited to what this link held: the page's own Markdown may use :red[…] or $…$)."""
    found = unescaped(body)
    values = " ".join(query.values())
    return [h for h in found if h in values or h.startswith("more than")]


def _choices(w) -> list:
    opts = list(getattr(w, "options", []) or [])
    return opts


def poke(at, rng: random.Random) -> str | None:
    """Move one random widget the way a student can (a slider or number box to an end or anywhere, another
    option, a toggle, a button); the widget's label, or None when the page has none."""
    kinds = [k for k in ("slider", "number_input", "selectbox", "radio", "toggle", "button") if len(getattr(at, k))]
    if not kinds:
        return None
    kind = rng.choice(kinds)
    live = [w for w in getattr(at, kind) if not getattr(w.proto, "disabled", False)]
    if not live:
        return None
    w = rng.choice(live)
    if kind in ("slider", "number_input"):
        lo, hi = w.min, w.max
        if lo is None or hi is None:
            return None
        v = rng.choice((lo, hi, rng.uniform(lo, hi) if isinstance(lo, float) else rng.randint(int(lo), int(hi))))
        w.set_value(type(w.value)(v) if w.value is not None else v)
    elif kind in ("selectbox", "radio"):
        opts = _choices(w)
        if not opts:
            return None
        w.set_value(rng.choice(opts)) if kind == "radio" else w.select_index(rng.randrange(len(opts)))
    elif kind == "toggle":
        w.set_value(not w.value)
    else:
        w.click()
    return f"{kind}:{w.label}"


def run_case(page: str, query: dict[str, str], rng: random.Random, moves: int = 2) -> list[str]:
    at = open_page(page_path(page), **query)
    check(at, page, query)
    done = []
    for _ in range(moves):
        label = poke(at, rng)
        if label is None:
            break
        done.append(label)
        at.run()
        assert not at.exception, (query, done, [e.value for e in at.exception])
    return done


def test_fuzzed_links_and_widget_moves(page, fuzz_seed):
    rng = random.Random(f"{page}:{fuzz_seed}")
    query = fuzz_case(rng, page_settings()[page])
    run_case(page, query, rng)


@pytest.mark.parametrize("page,query", EXTREMES,
                         ids=[f"{(e.values if hasattr(e, 'values') else e)[0]}-{i}" for i, e in enumerate(EXTREMES)])
def test_extremes(page, query):
    run_case(page, query, random.Random(0), moves=1)


def test_refused_extremes_are_explained():
    """T = 0 and noise 1/2 are outside every page's range: the page names both (a check that check() checks)."""
    at = open_page(page_path("perceptron"), T="0", noise="0.5")
    said = " ".join(unescape(w.value) for w in at.warning)
    assert "T must be between 1 and 10000 (got '0')" in said and "noise must be between 0 and 0.3 (got '0.5')" in said


@pytest.mark.parametrize("data", ["upload", "click"])
def test_found_by_fuzzing_td_settings_refused_while_waiting_for_data(data):
    """Fuzz seeds perceptron-42/43: a bad gbest/gtd in a link to the upload or click source (no data yet) was
    replaced by its default without a word (only the first settings group's problems were shown)."""
    at = open_page(page_path("perceptron"), data=data, gbest="maybe", gtd="2.005")
    check(at, "perceptron", {"data": data, "gbest": "maybe", "gtd": "2.005"})
    said = " ".join(unescape(w.value) for w in at.warning)
    assert "gbest must be 0 or 1 (got 'maybe'); using 1" in said and "gtd must be between 0.005 and 2" in said


def test_found_by_fuzzing_negative_zero_is_zero():
    """experts?beta=-0&best=-0&worst=-0: the page showed "β = -0", "error rates -0 … -0" and ln(1/-0), and wrote
    beta=-0 back to the URL (float("-0") is −0.0; the decoder now returns 0)."""
    from tests.app.pagetest import page_text, url
    at = open_page(page_path("experts"), beta="-0", best="-0", worst="-0", noise="-0.0")
    assert not at.exception
    txt = page_text(at, latex=True, warnings=True)
    assert "β = 0 " in txt and not re.search(r"(?<![\w.])-0(?![\d.])", txt), txt
    assert {k: url(at)[k] for k in ("beta", "best", "worst", "noise")} == {"beta": "0", "best": "0", "worst": "0",
                                                                         "noise": "0"}
