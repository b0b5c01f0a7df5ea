"""Issue 20: the Compare page's sentences say what the stream and the run show, with the run's numbers."""
from __future__ import annotations

import math

import numpy as np

import olc_core
from olc_core.streams.compare import dense_instances, sparse_instances, views
from tests.app.pagetest import open_page, page_path, shown, viewer_spec

PAGE = page_path("compare")


def _runs(stream) -> dict:
    return {alg: olc_core.run(alg, v.X, v.y, comparator=v.comparator) for alg, v in views(stream).items()}


def test_sparse_says_how_many_bits_the_stream_turns_on():
    for k, on in ((2, 100 * (1 - 2 ** -0.5)), (1, 50.0)):
        at = open_page(PAGE, timeout=300, preset="sparse", N=100, k=k, T=300)
        info = shown(at, "info")
        assert f"1 − 2^(−1/k) = {1 - 2 ** (-1 / k):.3f}" in info
        assert f"N·(1 − 2^(−1/k)) = {on:.1f} bits are on" in info
        assert "ln 2/k" not in info and "34.7" not in info and "69.3" not in info
        runs = _runs(dense_instances(T=300, N=100, k=k, seed=0))
        assert f"Winnow has the fewest mistakes ({runs['winnow'].n_mistakes})" in info


def test_dense_says_the_mistakes_tie_and_the_perceptron_wins_on_its_bound():
    at = open_page(PAGE, timeout=300, preset="dense", N=100, T=300)
    info = shown(at, "info")
    runs = _runs(sparse_instances(T=300, N=100, k=50, ones=1, seed=0))
    m = runs["perceptron"].n_mistakes
    assert m == runs["normalized_winnow"].n_mistakes
    assert f"Perceptron and Exponentiated update tie on mistakes ({m} each" in info
    assert "wins here: on its bound, not on mistakes" in info
    assert f"Perceptron has the lowest bound ({runs['perceptron'].proof.mistake_bound:.5g})" in info
    assert "Why the Perceptron wins here" not in info
    # the coinciding curves: dashed over, and said
    spec = viewer_spec(at)
    mis = next(f for f in spec["figures"] if f["id"] == "mistakes")
    assert "the Perceptron curve lies under the Exponentiated update curve" in mis["title"]
    eg = [d for d in mis["figure"]["data"] if d["name"].startswith("Exponentiated update (= Perceptron")]
    assert eg and eg[0]["line"]["dash"] == "dash"
    note = mis["figure"]["layout"]["annotations"][0]["text"]
    assert note.startswith("The Perceptron curve lies under the Exponentiated update curve")


def test_experts_gives_each_learners_factors_on_ln_N_and_m_star():
    at = open_page(PAGE, timeout=300, preset="experts", beta=0.5, eta=0.5)
    info = shown(at, "info")
    a_wm = 1 / math.log(2 / 1.5)
    assert f"{a_wm:.3g}·ln N + {math.log(2) * a_wm:.3g}·m*" in info       # 3.48·ln N + 2.41·m*
    assert f"{1 / 0.5:.3g}·ln N + {math.log(2) / 0.5:.3g}·m*" in info      # 2·ln N + 1.39·m*
    assert f"log₂ N = {1 / math.log(2):.3g}·ln N" in info
    assert "more than Halving's" in info and "[001] eq. 6" in info and "[000] §1.2" in info
    assert "pay ln N plus" not in info


def test_the_bounds_name_their_note_in_the_table_and_the_ledger():
    at = open_page(PAGE, timeout=300, preset="experts")
    df = next(d for d in at.dataframe if "measured constants" in d.value.columns).value
    src = df["the bound's source"].tolist()
    assert src[0].startswith("[001] eq. 6") and "[000] eq. 2" in src[1] and src[2].startswith("[001]")
    spec = viewer_spec(at)
    reasons = [ln.get("reason", "") for ln in spec["ledger"]["lines"]]
    assert any("[001] eq. 6" in r for r in reasons) and any("[000] §1.2" in r for r in reasons)


def test_dense_sweep_chart_says_the_curves_coincide():
    import json
    at = open_page(PAGE, timeout=300, preset="dense", N=100, T=300)
    [chart] = at.get("plotly_chart")
    fig = json.loads(chart.proto.spec)
    notes = [a["text"] for a in fig["layout"].get("annotations", [])]
    assert any(n.startswith("The Perceptron mistakes curve lies under the Exponentiated update mistakes curve")
               for n in notes)
    eg = next(d for d in fig["data"] if d["name"].startswith("Exponentiated update: mistakes"))
    assert eg["line"]["dash"] == "dash"


def test_a_dense_k_is_not_called_sparse_and_ln_N_says_which_N():
    """At k = N every variable matters: the page must not say "only k of N matter"; and the exponentiated
    update's ln N is ln(N + 1) (the constant threshold feature), which the sentence says with its value."""
    at = open_page(PAGE, timeout=300, preset="sparse", N=10, k=10, T=300)
    info = shown(at, "info")
    assert "Only k = 10" not in info and "k = 10 of the N = 10 variables matter (a target this dense" in info
    caps = shown(at, "caption")
    assert f"N + 1 = 11 features" in caps and f"ln 11 = {math.log(11):.4g}" in caps
    at = open_page(PAGE, timeout=300, preset="sparse", N=100, k=2, T=300)
    assert "Only k = 2 of the N = 100 variables matter" in shown(at, "info")
    assert f"ln 101 = {math.log(101):.4g}" in shown(at, "caption")


def test_an_infinite_factor_on_m_star_is_said_not_printed_as_inf():
    from olc_ui.lessons.compare.lesson import _times_m
    assert _times_m(2.41, "β = 0") == "2.41·m*"
    assert "inf·m*" not in _times_m(math.inf, "β = 0") and "finite only when m* = 0" in _times_m(math.inf, "β = 0")
