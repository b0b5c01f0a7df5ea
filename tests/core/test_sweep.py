"""olc_core.sweep: every cell is a direct olc_core.run on the same seeded stream; the bound-attaining
streams reach ratio 1 where the theorem is tight; clear errors; the table's CSV; Halving's worst case."""
from __future__ import annotations

import csv
import doctest
import io
import math
import pathlib
import re
from fractions import Fraction

import numpy as np
import pytest

import olc_core
from olc_core import streams as S
from olc_core.sweep import COLUMNS, SWEEPS

ROOT = pathlib.Path(__file__).resolve().parents[2]


def exact_r2_over_g2(X, y, u, gamma=None):
    """The reference: R²/γ² in Fractions over every row (no float pass), γ the exact margin of u's direction
    (the given γ when that is smaller)."""
    F = [[Fraction(float(v)) for v in row] for row in np.asarray(X)]
    U = [Fraction(float(v)) for v in u]
    r2 = max(sum(v * v for v in row) for row in F)
    m = min(int(yt) * sum(a * b for a, b in zip(row, U)) for row, yt in zip(F, y))
    g2 = m * m / sum(v * v for v in U)
    if gamma is not None:
        g2 = min(g2, Fraction(float(gamma)) ** 2)
    return r2 / g2


def _direct(algorithm, seed, T, v, param):
    """The stream and parameters of one cell, written out here (not through olc_core.sweep)."""
    if algorithm == "perceptron":
        g = v if param == "gamma" else 0.1
        s = S.separable(T, 5, g, 1.0, seed, noise=v if param == "noise" else 0.0)
        tr = olc_core.run("perceptron", s.X, s.y, comparator=s.comparator, gamma=g)
        p = tr.proof if tr.proof.mistake_bound is not None else tr.proofs["nonseparable"]
        return tr.n_mistakes, p
    if algorithm == "winnow":
        s = S.sparse_disjunction(T, 100, 3, seed)
        tr = olc_core.run("winnow", s.X, s.y, comparator=s.comparator, beta=v)
    elif algorithm == "normalized_winnow":
        s = S.sparse_simplex(T, int(v), 3, seed)
        tr = olc_core.run("normalized_winnow", s.X, s.y, comparator=s.comparator)
    elif algorithm == "weighted_majority":
        s = S.experts(T, 10, np.linspace(0.1, 0.5, 10), seed)
        tr = olc_core.run("weighted_majority", s.X, s.y, beta=v)
    elif algorithm == "randomized_weighted_majority":
        s = S.experts(T, int(v), np.linspace(0.1, 0.5, int(v)), seed)
        tr = olc_core.run("randomized_weighted_majority", s.X, s.y, eta=0.5, seed=seed)
        return tr.proof.constants["expected_mistakes"], tr.proof
    elif algorithm == "halving":
        s = S.experts(T, int(v), np.r_[0.0, np.full(int(v) - 1, 0.5)], seed, exact=False)
        tr = olc_core.run("halving", s.X, s.y)
    elif algorithm == "margin_perceptron":
        s = S.separable(T, 5, v, 1.0, seed)
        tr = olc_core.run("margin_perceptron", s.X, s.y, comparator=s.comparator, gamma=v)
    elif algorithm == "conjunction":
        s = S.conjunction(T, int(v), 3, seed)
        tr = olc_core.run("conjunction", s.X, s.y, comparator=s.comparator)
    else:
        s = S.decision_list(T, int(v), 3, seed)
        tr = olc_core.run("decision_list", s.X, s.y, comparator=s.comparator)
    return tr.n_mistakes, tr.proof


CASES = [("perceptron", "gamma", [0.05, 0.2]), ("perceptron", "noise", [0.0, 0.1]),
         ("margin_perceptron", "gamma", [0.1, 0.3]), ("winnow", "beta", [0.5, 2.0]),
         ("normalized_winnow", "N", [9, 40]), ("weighted_majority", "beta", [0.3, 0.9]),
         ("randomized_weighted_majority", "N", [3, 20]), ("halving", "N", [5, 32]),
         ("conjunction", "n", [4, 12]), ("decision_list", "n", [4, 12])]


@pytest.mark.parametrize("algorithm,param,values", CASES)
def test_every_cell_equals_a_direct_run(algorithm, param, values):
    t = olc_core.sweep(algorithm, param, values, seeds=[0, 3, 7], T=400)
    assert len(t) == 6 and t["value"].tolist() == [float(v) for v in values for _ in range(3)]
    assert t["seed"].tolist() == [0, 3, 7, 0, 3, 7]
    for i in range(len(t)):
        m, proof = _direct(algorithm, int(t["seed"][i]), 400, t["value"][i], param)
        assert t["mistakes"][i] == pytest.approx(m, rel=0, abs=0)
        b = proof.mistake_bound
        assert t["holds"][i] == (not proof.failed_assumptions) and t["proof"][i] == proof.name
        if b is None:
            assert math.isnan(t["bound"][i]) and math.isnan(t["ratio"][i]) and t["bound_exact"][i] is None
            continue
        if algorithm == "perceptron" and proof.name == "Perceptron, separable data":
            # R²/γ² exactly (Fraction over every row), then rounded once; within rounding of the proof's float
            s = S.separable(400, 5, t["value"][i] if param == "gamma" else 0.1, 1.0, int(t["seed"][i]))
            ref = exact_r2_over_g2(s.X, s.y, proof.constants["comparator"], t["value"][i] if param == "gamma"
                                   else 0.1)
            assert t["bound_exact"][i] == ref and abs(float(ref) - b) <= 1e-12 * b
        else:
            ref = Fraction(b)                      # the other bounds: their floats
        assert t["bound_exact"][i] == ref and t["bound"][i] == float(ref)
        if b > 0:
            assert t["ratio"][i] == float(Fraction(m) / ref)
    assert np.all(t["mistakes"][t["holds"]] <= t["bound"][t["holds"]])


def test_noise_breaks_halvings_assumption_and_the_bound_reads_nan():
    t = olc_core.sweep("halving", "noise", [0.0, 0.2], seeds=2, T=300, N=16)
    assert t["holds"].tolist() == [True, True, False, False]
    assert np.isnan(t["bound"][2:]).all() and np.isnan(t["ratio"][2:]).all()
    assert all("consistent" in w for w in t["why"][2:]) and t["why"][0] == ""
    s = t.summary()
    assert s["holds"].tolist() == [True, False] and math.isnan(s["bound_median"][1])


def test_worst_case_streams_attain_the_bounds():
    p = olc_core.sweep("perceptron", "d", [1, 4, 25], seeds=2, worst_case=True)
    assert p["mistakes"].tolist() == [1, 1, 4, 4, 25, 25] and np.allclose(p["ratio"], 1.0)
    h = olc_core.sweep("halving", "N", [2, 8, 64, 100], seeds=2, T=50, worst_case=True)
    assert h["mistakes"].tolist() == [1, 1, 3, 3, 6, 6, 6, 6]
    assert np.allclose(h["ratio"][:6], 1.0) and h["ratio"][6] == 6 / math.log2(100)
    c = olc_core.sweep("conjunction", "n", [3, 30], seeds=1, worst_case=True)
    assert c["mistakes"].tolist() == [3, 30] and c["bound"].tolist() == [4, 31]
    w = olc_core.sweep("weighted_majority", "beta", [0.5, 0.7], seeds=2, T=300, N=8, worst_case=True)
    assert (w["mistakes"] == 300).all() and w["holds"].all()      # an error on every round
    assert np.all(w["ratio"] > 0.8) and np.all(w["mistakes"] <= w["bound"])


@pytest.mark.parametrize("engine", ["numba", "numpy"])
def test_the_perceptrons_tight_streams_meet_the_bound_exactly(engine, monkeypatch):
    """x_t = e_t: M = d = R²/γ² exactly. The float formula gave 2.0000000000000004 at d = 2 (then "vacuous",
    above T = 2) and 2.999999999999999 at d = 3 (ratio 1.0000000000000002, M above the bound)."""
    from olc_ui.lessons.bound_explorer.view import vacuous

    monkeypatch.setenv("OLC_CORE_ENGINE", engine)
    d = list(range(1, 13))
    t = olc_core.sweep("perceptron", "d", d, seeds=2, worst_case=True)
    for i in range(len(t)):
        s = S.tight_perceptron(int(t["value"][i]))
        ref = exact_r2_over_g2(s.X, s.y, s.comparator)
        assert ref == int(t["value"][i]) == t["mistakes"][i] == t["T"][i]
        assert t["bound"][i] == float(ref) and t["ratio"][i] == 1.0
    assert (t["mistakes"] <= t["bound"]).all() and vacuous(t) == []
    assert t["bound_exact"].tolist() == [Fraction(v) for v in d for _ in range(2)]
    s = t.summary()
    assert s["ratio_max"].tolist() == [1.0] * 12 and s["bound_median"].tolist() == [float(v) for v in d]


def _near_tie_streams():
    """Small streams whose mistake count and R²/γ² nearly tie: x_t = e_t rotated by a float orthogonal
    matrix (rows of norm 1 ± rounding, w* along their sum), scaled by powers of two and not, with and without
    a given γ near the margin, and planted-margin streams with few rounds."""
    rng = np.random.default_rng(20)
    for k in range(40):
        d = int(rng.integers(1, 7))
        Q, _ = np.linalg.qr(rng.normal(size=(d, d)))
        X = Q * (1.0 if k % 3 else rng.uniform(0.5, 2.0))
        y = np.where(rng.random(d) < 0.5, 1.0, -1.0)
        X = X * y[:, None]                                    # y_t x_t = the rotated e_t
        u = (X * y[:, None]).sum(axis=0)
        yield X, y, u, None
        yield X, y, u, float(np.min(y * (X @ (u / np.linalg.norm(u)))))   # γ given: the float margin
    for seed in range(20):
        s = S.separable(int(rng.integers(2, 12)), int(rng.integers(1, 5)), 0.3, 1.0, seed)
        yield s.X, s.y, s.comparator, 0.3


@pytest.mark.parametrize("engine", ["numba", "numpy"])
def test_count_against_bound_is_decided_exactly_on_near_ties(engine, monkeypatch):
    """On streams where M and R²/γ² nearly tie the sweep's cell (bound, ratio, M ≤ bound, bound > T) agrees
    with the Fraction reference; every such stream has its ratio within 1e-9 of 1 or well apart."""
    from olc_core.sweep import _measure
    from olc_core._exact.perceptron_bound import exceeds

    monkeypatch.setenv("OLC_CORE_ENGINE", engine)
    ties = 0
    for X, y, u, g in _near_tie_streams():
        tr = olc_core.run("perceptron", X, y, comparator=u, gamma=g)
        row = _measure("perceptron", tr, S.Stream(X, y, u, {}))
        if tr.proof.mistake_bound is None:
            assert row[8] is None
            continue
        ref = exact_r2_over_g2(X, y, tr.proof.constants["comparator"], g)
        M = tr.n_mistakes
        _, measured, _, bound, ratio, holds, _, _, exact = row
        assert exact == ref and bound == float(ref) and ratio == float(Fraction(M) / ref)
        assert (ratio <= 1.0) == (M <= ref) or float(Fraction(M) / ref) == 1.0      # monotone rounding
        assert exceeds(exact, len(y)) == (ref > len(y)) and exceeds(exact, M) == (ref > M)
        ties += abs(float(ref) - M) < 1e-9 * M
    assert ties >= 20            # the streams do tie to within rounding (the float formula's trouble)


@pytest.mark.parametrize("N", [1, 2, 3, 5, 7, 16, 17, 100, 1024])
def test_halving_adversary_forces_floor_log2_n_mistakes(N):
    s = S.halving_adversary(T=40, N=N, seed=N)
    tr = olc_core.run("halving", s.X, s.y)
    k = int(math.floor(math.log2(N)))
    assert tr.mistakes.tolist() == list(range(k)) and s.info["forced"] == k
    assert np.array_equal(s.X[:, s.comparator], s.y)            # one hypothesis is right on every round
    assert tr.proof.violations() == [] and not tr.proof.failed_assumptions
    assert tr.proof.mistake_bound == pytest.approx(math.log2(N))
    assert np.array_equal(S.halving_adversary(T=40, N=N, seed=N).X, s.X)


def test_results_do_not_depend_on_threads_and_progress_reaches_the_total():
    calls = []
    a = olc_core.sweep("perceptron", "gamma", np.linspace(0.05, 0.3, 4), seeds=3, T=300, threads=1)
    b = olc_core.sweep("perceptron", "gamma", np.linspace(0.05, 0.3, 4), seeds=3, T=300, threads=2,
                       progress=lambda d, n: calls.append((d, n)))
    assert a.to_csv() == b.to_csv()
    assert calls and calls[-1] == (12, 12) and all(n == 12 for _, n in calls)


def test_a_learner_parameter_sweep_generates_each_stream_once(monkeypatch):
    made = []
    real = S.sparse_disjunction
    monkeypatch.setattr(S, "sparse_disjunction", lambda *a, **k: made.append(a[3]) or real(*a, **k))
    olc_core.sweep("winnow", "beta", [0.5, 1.0, 2.0, 4.0], seeds=2, T=200)
    assert sorted(made) == [0, 1]
    made.clear()
    olc_core.sweep("winnow", "N", [20, 40], seeds=2, T=200)
    assert sorted(made) == [0, 0, 1, 1]


def test_csv_round_trip():
    t = olc_core.sweep("halving", "noise", [0.0, 0.3], seeds=2, T=100, N=8)
    rows = list(csv.DictReader(io.StringIO(t.to_csv())))
    assert len(rows) == 4 and list(rows[0]) == list(COLUMNS)
    for i, r in enumerate(rows):
        assert float(r["mistakes"]) == t["mistakes"][i] and int(r["seed"]) == t["seed"][i]
        assert r["bound"] == ("" if math.isnan(t["bound"][i]) else repr(float(t["bound"][i])))
        assert r["holds"] == ("true" if t["holds"][i] else "false") and r["why"] == t["why"][i]


@pytest.mark.parametrize("call,match", [
    (lambda: olc_core.sweep("perceptronn", "gamma", [0.1]), "unknown algorithm 'perceptronn'"),
    (lambda: olc_core.sweep("perceptron", "beta", [0.1]), "cannot sweep 'beta'; sweep-able: d, gamma, noise, T"),
    (lambda: olc_core.sweep("perceptron", "gamma", [0.1], dd=3), "unknown setting 'dd'"),
    (lambda: olc_core.sweep("perceptron", "d", [2.5]), "d must be an integer"),
    (lambda: olc_core.sweep("perceptron", "gamma", [0.1, 1.5], seeds=2, T=50),
     r"gamma = 1.5, seed 0: gamma must be in \(0, radius\)"),
    (lambda: olc_core.sweep("perceptron", "gamma", [float("nan")]), "finite"),
    (lambda: olc_core.sweep("perceptron", "gamma", []), "values is empty"),
    (lambda: olc_core.sweep("perceptron", "gamma", [0.1], seeds=0), "seeds must be"),
    (lambda: olc_core.sweep("decision_list", "n", [3], worst_case=True), "no bound-attaining stream"),
    (lambda: olc_core.sweep("perceptron", "gamma", [0.1], worst_case=True), "bound-attaining stream cannot sweep"),
    (lambda: olc_core.sweep("normalized_winnow", "k", [2], T=20), "k must be an odd integer"),
    (lambda: olc_core.sweep("weighted_majority", "beta", [1.0], T=20), "beta must be"),
])
def test_clear_errors(call, match):
    with pytest.raises(ValueError, match=match):
        call()


def test_every_sweepable_learner_is_an_algorithm():
    assert set(SWEEPS) <= set(olc_core.ALGORITHMS)


def test_the_api_docs_example_runs():
    text = (ROOT / "docs" / "api.md").read_text(encoding="utf-8")
    section = text.split("## `olc_core.sweep", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```pycon\n(.*?)```", section, flags=re.S)
    assert blocks, "docs/api.md has no sweep example"
    test = doctest.DocTestParser().get_doctest("\n".join(blocks), {}, "api.md sweep", "docs/api.md", 0)
    assert test.examples
    runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE)
    runner.run(test)
    assert runner.failures == 0


@pytest.mark.parametrize("algorithm,param,v,worst", [("winnow", "beta", 0.5, False), ("halving", "N", 8, True),
                                                     ("randomized_weighted_majority", "eta", 0.3, True)])
def test_cell_inputs_reproduce_a_cell(algorithm, param, v, worst):
    from olc_core.sweep import cell_inputs

    t = olc_core.sweep(algorithm, param, [v], seeds=[4], T=120, worst_case=worst)
    st, params = cell_inputs(algorithm, 4, {**t.settings, param: v}, worst)
    tr = olc_core.run(algorithm, st.X, st.y, **params)
    got = tr.proof.constants["expected_mistakes"] if algorithm == "randomized_weighted_majority" else tr.n_mistakes
    assert got == t["mistakes"][0] and tr.n_mistakes == t["realised"][0]


def test_an_interrupted_sweep_stops_its_workers(monkeypatch):
    runs, real = [], olc_core.run
    monkeypatch.setattr(olc_core, "run", lambda *a, **k: runs.append(1) or real(*a, **k))

    started = []

    def stop(done, total):
        started.append(len(runs))
        raise KeyboardInterrupt     # what a page rerun does to its script

    with pytest.raises(KeyboardInterrupt):
        olc_core.sweep("halving", "N", list(range(2, 200)), seeds=2, T=2000, progress=stop)
    # each of the 2 workers finishes at most the cell it was in (cells are fast now: count from the interrupt)
    assert len(runs) <= started[0] + 2 < 396
