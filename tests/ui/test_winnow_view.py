"""The Winnow lesson's viewer spec, tested as data: what a student sees at a round is the run's."""
from __future__ import annotations

import json
import math

import numpy as np
import pytest

import olc_core
from olc_core.streams.winnow_extra import winnow_adversary
from olc_ui.shared.data import DataError, parse_binary_csv
from olc_ui.viewer.snapshot import caption_at, figures_at, ledger_at
from olc_ui.viewer.spec import validate_spec
from olc_ui.lessons.winnow.view import N_TOP, crossing, exponent_summary, promotions, winnow_spec


def _fig(spec: dict, fid: str, p: int) -> dict:
    i = [f["id"] for f in spec["figures"]].index(fid)
    return figures_at(spec, p)[i]


def _crossing(fig: dict) -> dict:
    [t] = [t for t in fig["data"] if t.get("meta") == "crossing"]
    return t


def _by_name(fig: dict, name: str) -> dict:
    hits = [t for t in fig["data"] if t.get("name") == name]
    assert hits, f"no trace named {name!r} in {[t.get('name') for t in fig['data']]}"
    return hits[0]


def _run(T=300, N=30, k=2, seed=1, noise=0.0, beta=1.0):
    s = olc_core.streams.sparse_disjunction(T=T, N=N, k=k, seed=seed, noise=noise, dtype=np.uint8)
    tr = olc_core.run("winnow", s.X, s.y, beta=beta, comparator=s.comparator)
    return s, tr, winnow_spec(tr, s.X, s.y, run_id="w")


@pytest.fixture(scope="module")
def small():
    return _run()


@pytest.fixture(scope="module")
def large():
    return _run(T=600, N=2000, k=3, seed=2)


def test_spec_is_valid_and_follows_the_run(small):
    s, tr, spec = small
    validate_spec(spec)
    json.dumps(spec, allow_nan=False)
    assert spec["T"] == 300 and spec["mistake_rounds"] == tr.mistakes.tolist()
    assert spec["breaks"] == (tr.mistakes + 1).tolist()
    assert [f["id"] for f in spec["figures"]] == ["weights", "potential", "bound"]


def test_small_n_bars_are_the_runs_exponents(small):
    s, tr, spec = small
    L = tr.log_base
    for p in (0, int(tr.mistakes[0]) + 1, int(tr.mistakes[-1]) + 1, 150, tr.T):
        bars = _fig(spec, "weights", p)["data"][0]
        drawn = np.asarray(bars["y"]) + bars["base"]
        assert drawn.tolist() == pytest.approx((tr.log_weights_at(p) / L).tolist(), abs=1e-9)
    colors = _fig(spec, "weights", 0)["data"][0]["marker"]["color"]
    assert {i for i, c in enumerate(colors) if c == colors[s.comparator[0]]} == set(s.comparator.tolist())
    # threshold N and cap (1+β)N in exponent units (log base 1+β), from the proof's series
    fig = _fig(spec, "weights", 0)
    assert _by_name(fig, "threshold N (ŷ = 1 iff w·x > N)")["y"][0] == pytest.approx(math.log(30) / L)
    cap = _by_name(fig, "cap (1+β)N: no weight passes it")["y"][0]
    assert cap == pytest.approx(tr.proof.series["log_cap"][0] / L)


def test_a_mistake_shows_the_moved_weights_and_the_factor(small):
    s, tr, spec = small
    L = tr.log_base
    for j in (0, 1, len(tr.mistakes) - 1):
        r = int(tr.mistakes[j])
        fig = _fig(spec, "weights", r + 1)
        before, factor = _by_name(fig, "before this mistake"), _by_name(fig, "factor")
        active = np.flatnonzero(s.X[r]) + 1
        assert before["x"] == active.tolist()
        assert (np.asarray(before["y"]) == np.round(tr.log_weights_at(r)[active - 1] / L)).all()
        assert set(factor["text"]) == ({"×2"} if s.y[r] == 1 else {"÷2"})
        # at the next (correct or not) position nothing is marked unless it is a mistake too
    correct = next(t for t in range(tr.T) if t not in set(tr.mistakes.tolist()))
    assert _by_name(_fig(spec, "weights", correct + 1), "factor")["x"] in ([], [None])


def test_large_n_draws_relevant_largest_others_and_a_band(large):
    s, tr, spec = large
    L = tr.log_base
    rel = s.comparator
    irr = np.setdiff1d(np.arange(2000), rel)
    arrays = spec["arrays"]
    assert all(len(row) == rel.size + N_TOP for row in arrays["wb_y"])  # never N numbers per state
    for p in (0, int(tr.mistakes[5]) + 1, tr.T):
        e = np.round(tr.log_weights_at(p) / L).astype(int)
        fig = _fig(spec, "weights", p)
        bars = fig["data"][0]
        drawn = (np.asarray(bars["y"]) + bars["base"]).round().astype(int)
        assert drawn[:rel.size].tolist() == e[rel].tolist()
        top = np.sort(e[irr])[::-1][:N_TOP]
        assert drawn[rel.size:].tolist() == top.tolist()
        names = bars["text"][rel.size:]
        assert [e[int(n[1:].translate(str.maketrans("₀₁₂₃₄₅₆₇₈₉", "0123456789"))) - 1] for n in names] == top.tolist()
        rest = np.sort(e[irr])[:-N_TOP]
        band = _by_name(fig, "the other 1,989: min … max")
        assert band["y"] == [rest.min(), rest.max()]
        assert _by_name(fig, "their median")["y"] == [np.median(rest)]
    assert len(json.dumps(spec)) < 250_000


def test_exponent_summary_in_blocks_equals_one_block(large):
    s, tr, _ = large
    a = exponent_summary(tr, s.comparator, chunk=7)
    b = exponent_summary(tr, s.comparator, chunk=10_000)
    for key in a:
        assert np.array_equal(a[key], b[key], equal_nan=True)


def test_the_bound_sandwich_closes_at_its_crossing(small):
    s, tr, spec = small
    p = tr.proof
    b = p.mistake_bound
    assert crossing(p) == (b, b)
    fig = _fig(spec, "bound", tr.T)
    x = _crossing(fig)
    assert x["x"] == [pytest.approx(b)] and x["y"] == [pytest.approx(b)]
    flat = _by_name(fig, "bound (1+β)/β + (2+β)k(1 + log₍₁₊β₎N)")
    assert flat["y"] == [b, b] and flat["x"][-1] > b
    diag = _by_name(fig, DIAG)
    assert diag["x"] == diag["y"] and diag["x"][-1] > b     # the diagonal runs past the crossing
    [rect] = fig["layout"]["shapes"]
    assert rect["x0"] == b                                  # shaded beyond it
    # the run's trajectory is revealed as the student steps: the proof's total_cap series
    run = _by_name(fig, "(1+β)/β + (2+β)m⁺ (the run)")
    assert run["y"] == pytest.approx(p.series["total_cap"].tolist())
    j = 4
    mid = _by_name(_fig(spec, "bound", int(tr.mistakes[j - 1]) + 1), "(1+β)/β + (2+β)m⁺ (the run)")
    assert len(mid["y"]) == j + 1 and mid["y"][-1] == pytest.approx(p.series["total_cap"][j])


DIAG = "y = M: the left side of M < …, as a function of M"


def test_the_crossing_is_labelled_as_the_bound_not_the_runs_count(small):
    """The crossing is the largest M the proof allows (the bound), not the run's mistakes."""
    s, tr, spec = small
    b = tr.proof.mistake_bound
    fig = _fig(spec, "bound", tr.T)
    text = _crossing(fig)["name"]                            # named in the legend, not written on the chart
    assert text.startswith(f"× the curves cross: M < {b:.4g}") and tr.n_mistakes < b
    assert not fig["layout"]["annotations"]
    assert f"M = {b:.4g}" not in json.dumps(fig, ensure_ascii=False)
    diag = _by_name(fig, DIAG)                               # the diagonal says what it is in the legend
    assert diag.get("showlegend", True) and diag["line"]["dash"] == "dot"


def test_a_far_crossing_uses_log_axes_and_keeps_the_crossing():
    s = olc_core.streams.sparse_disjunction(T=15, N=10_00, k=20, seed=0, dtype=np.uint8)
    tr = olc_core.run("winnow", s.X, s.y, beta=1.0, comparator=s.comparator)
    spec = winnow_spec(tr, s.X, s.y, run_id="far")
    fig = _fig(spec, "bound", 15)
    b = tr.proof.mistake_bound
    assert b > 6 * max(tr.n_mistakes, 4)
    assert fig["layout"]["xaxis"]["type"] == "log" and fig["layout"]["yaxis"]["type"] == "log"
    assert _crossing(fig)["x"] == [pytest.approx(b)]
    assert 10 ** fig["layout"]["xaxis"]["range"][1] > b


def test_ledger_numbers_are_the_proofs(small):
    s, tr, spec = small
    p = tr.proof
    for t in (0, int(tr.mistakes[3]) + 1, tr.T):
        at = p.at(t)
        rows = ledger_at(spec, t)
        assert all(r["holds"] is True for r in rows), [r["latex"] for r in rows if not r["holds"]]
        text = " ".join(r["latex"] for r in rows)
        assert f"\\Phi_{{t+1}} = {format(math.exp(at['log_phi']), '.6g')} " in text
        assert f"m^- = {int(at['m_minus'])} " in text
        assert f"M = {at['n_mistakes']} " in text
    last = ledger_at(spec, tr.T)[-1]["latex"]
    assert r"2 + 3\cdot{2}" in last and last.endswith(f"= {p.mistake_bound:.6g}")     # β = 1: 2 + 3k(log₂N + 1)


def test_per_variable_sandwich_rows(small):
    s, tr, spec = small
    L = tr.log_base
    rows = ledger_at(spec, tr.T)
    for i in s.comparator.tolist():
        e = int(round(tr.log_weights_at(tr.T)[i] / L))
        row = next(r for r in rows if f"w_{{{i + 1}}} " in r["latex"])
        assert f"(1+\\beta)^{{{e}}}" in row["latex"] and row["holds"] is True
        P, D = promotions(tr, s.X, s.y, np.array([i]))
        # p_i and d_i name the counts (no bare p, no "1 promotions")
        assert (f"p_{{{i + 1}}} = {int(P[-1, 0])}\\ \\text{{(promotions)}}" in row["latex"]
                and f"d_{{{i + 1}}} = {int(D[-1, 0])}\\ \\text{{(demotions)}}" in row["latex"]), row["latex"]
        assert f"p_{{{i + 1}}} \\le 1 + " in row["latex"]
    d_row = next(r for r in rows if r"\sum_{i\in R} d_i" in r["latex"])
    p_row = next(r for r in rows if r"\sum_{i\in R} p_i" in r["latex"])
    assert "dᵢ = the demotions of relevant variable i" in d_row["reason"]
    assert "pᵢ = the promotions of relevant variable i" in p_row["reason"]


def test_noisy_labels_make_the_bound_not_applicable():
    s, tr, spec = _run(T=300, N=30, k=2, seed=1, noise=0.1)
    assert tr.proof.mistake_bound is None
    last = ledger_at(spec, tr.T)[-1]
    assert "n/a" in last["latex"] and last["holds"] is None and "round" in last["reason"]
    fig = _fig(spec, "bound", tr.T)
    assert not [t for t in fig["data"] if t.get("name") == "crossing"]
    assert "no bound" in fig["layout"]["annotations"][0]["text"]


def test_caption_at_a_promotion_and_a_demotion(small):
    s, tr, spec = small
    r = int(tr.mistakes[0])
    cap = caption_at(spec, r + 1)
    assert f"Round {r + 1} of 300" in cap and ("promote" if s.y[r] == 1 else "demote") in cap
    neg = next(int(m) for m in tr.mistakes if s.y[m] == 0)
    cap = caption_at(spec, neg + 1)
    assert "÷ 2" in cap and "> N = 30" in cap and f"x has {int(s.X[neg].sum())} ones" in cap
    assert caption_at(spec, 0).startswith("Round 0 of 300: every weight is 1, Φ = N = 30")


def test_adversary_spec_at_large_n():
    s = winnow_adversary(T=400, N=3000, k=2, beta=1.0, seed=0)
    tr = olc_core.run("winnow", s.X, s.y, beta=1.0, comparator=s.comparator)
    spec = winnow_spec(tr, s.X, s.y, run_id="adv")
    validate_spec(spec)
    assert spec["mistake_rounds"][:s.info["forced"]] == list(range(s.info["forced"]))


def test_binary_csv_messages_name_row_and_column():
    with pytest.raises(DataError, match=r"row 3, column 'b': '0\.5' is not 0 or 1"):
        parse_binary_csv(b"a,b,label\n1,0,1\n0,0.5,0\n")
    with pytest.raises(DataError, match=r"row 1, column 'x2': '7' is not 0 or 1"):
        parse_binary_csv(b"1,7,1\n")
    with pytest.raises(DataError, match="row 2 has 2 fields; expected 3"):
        parse_binary_csv(b"a,b,y\n1,0\n")
    X, y, notes = parse_binary_csv(b"y,a,b\n1,1,0\n0,0,0\n")   # the label column by its name
    assert X.tolist() == [[1, 0], [0, 0]] and y.tolist() == [1.0, 0.0] and notes == []
    X, y, notes = parse_binary_csv(b"a,b,out\n1,0,1\n")
    assert notes and "'out'" in notes[0]
    # an untrusted header is quoted and cut short in the message
    with pytest.raises(DataError) as exc:
        parse_binary_csv(("[x](https://e.org)" + "z" * 50 + ",label\n2,1\n").encode())
    assert str(exc.value) == "row 2, column '[x](https://e.…': '2' is not 0 or 1"


@pytest.mark.parametrize("which", ["small", "large"])
def test_factor_labels_have_headroom_below_the_top_edge(which, request):
    """The ×2 / ÷2 label over the tallest bar keeps ≥ 20 px (at the chart's height) below the top edge."""
    s, tr, spec = request.getfixturevalue(which)
    f = next(f for f in spec["figures"] if f["id"] == "weights")
    lay = f["figure"]["layout"]
    ybot, ytop = lay["yaxis"]["range"]
    px_per_unit = (f["height"] - lay["margin"]["t"] - lay["margin"]["b"]) / (ytop - ybot)
    highest = max(max(ty) for ty in spec["arrays"]["mv_ty"] if ty)
    assert (ytop - highest) * px_per_unit >= 20


def test_noisy_labels_show_the_relevant_variable_steps_as_not_applicable():
    # the review's run: /winnow?beta=1&data=generated&N=100&k=3&T=500&noise=0.1&seed=0&t=500
    s, tr, spec = _run(T=500, N=100, k=3, seed=0, noise=0.1)
    flipped = np.flatnonzero(s.info["flipped"])
    assert flipped.size and tr.proof.mistake_bound is None
    rows = ledger_at(spec, tr.T)
    rel = [r for r in rows if r"\sum_{i\in R}" in r["latex"] or r"\log_{1+\beta} N = " in r["latex"]]
    assert len(rel) == 3 + 2                                    # one per relevant variable, Σd_i, m⁺ ≤ Σp_i
    first = ", ".join(str(int(r) + 1) for r in flipped[:3])
    for r in rel:  # neutral, never ✗, saying what is needed and where it fails (1-based rounds)
        assert r.get("na") and r["holds"] is None, r
        assert r["reason"].startswith("n/a — needs labels from the OR of the relevant variables "
                                      f"(fails at rounds {first}"), r["reason"]
    # the steps that hold on any 0/1 data keep their live check
    live = [r for r in rows if not r.get("na")]
    assert [r["holds"] for r in live] == [True] * len(live)
    assert any(r"\Phi_{t+1}" in r["latex"] for r in live) and any(r"\max_i w_i" in r["latex"] for r in live)
    assert rows[-1].get("na")                                     # the bound itself: n/a


def test_clean_labels_keep_every_relevant_step_checked(small):
    s, tr, spec = small
    rows = ledger_at(spec, tr.T)
    assert not any(r.get("na") for r in rows)
    assert all(r["holds"] is True for r in rows if r"\sum_{i\in R}" in r["latex"])
