"""AppTest over the Compare page: the numbers shown are direct olc_core.run calls on the same rounds,
deep links, settings mirrored in the URL, bad links and bad settings reported as inert messages."""
from __future__ import annotations

import numpy as np

import olc_core
from olc_core.streams.compare import dense_instances, sparse_instances, views
from olc_ui.lessons.compare.lesson import SWEEP_T
from olc_ui.viewer.snapshot import caption_at, ledger_at
from tests.app.pagetest import open_page, page_path, shown, url, viewer_spec

PAGE = page_path("compare")


def _runs(stream) -> dict:
    return {alg: olc_core.run(alg, v.X, v.y, comparator=v.comparator) for alg, v in views(stream).items()}


def _summary(at) -> list[dict]:
    df = next(d for d in at.dataframe if "measured constants" in d.value.columns).value
    return df.to_dict("records")


def test_default_sparse_target_numbers_come_from_the_core():
    at = open_page(PAGE, timeout=300)
    assert not at.exception and not at.error
    assert at.title[0].value == "Compare learners on the same rounds"
    runs = _runs(dense_instances(T=300, N=100, k=2, seed=0))
    rows = _summary(at)
    assert [r["learner"] for r in rows] == ["Perceptron", "Winnow", "Exponentiated update"]
    for r, tr in zip(rows, runs.values()):
        assert r["mistakes M"] == tr.n_mistakes
        assert r["theorem's bound"] == f"{tr.proof.mistake_bound:.5g}"
    assert f"γ = {runs['perceptron'].proof.constants['gamma']:.4g}" in rows[0]["measured constants"]
    spec = viewer_spec(at)
    assert [f["id"] for f in spec["figures"]] == ["mistakes", "w0", "w1", "w2", "s0", "s1", "s2"]
    assert spec["mistake_rounds"] == sorted(set().union(*[set(t.mistakes.tolist()) for t in runs.values()]))
    # the ledger at a round: each learner's mistakes so far and its bound
    p = 150
    text = " ".join(line["latex"] for line in ledger_at(spec, p))
    for tr in runs.values():
        assert f"{tr.proof.mistake_bound:.5g}" in text
    cap = caption_at(spec, p)
    assert f"Winnow {int(runs['winnow'].mistakes_before(p))}" in cap
    assert "Why Winnow wins here" in shown(at, "info")
    q = url(at)
    assert q["preset"] == "sparse" and q["N"] == "100" and q["k"] == "2" and q["T"] == "300" and q["t"] == "0"


def test_sweep_numbers_are_direct_runs():
    at = open_page(PAGE, timeout=300)
    table = next(d for d in at.dataframe if "seed" in d.value.columns).value
    assert len(table) == 3 * 7 * 5 and sorted(set(table["N"])) == [10, 32, 100, 316, 1000, 3162, 10000]
    for N, seed in ((10, 0), (1000, 3)):
        runs = _runs(dense_instances(T=SWEEP_T["sparse"], N=N, k=2, seed=seed))
        got = table[(table["N"] == N) & (table["seed"] == seed)]
        assert got["mistakes"].tolist() == [tr.n_mistakes for tr in runs.values()]
        assert got["bound"].tolist() == [f"{tr.proof.mistake_bound:.6g}" for tr in runs.values()]
    chart = at.get("plotly_chart")
    assert chart, "the chart of mistakes against N is drawn"


def test_deep_link_dense_target_opens_the_same_runs_at_the_round():
    at = open_page(PAGE, timeout=300, preset="dense", N=40, T=200, seed=3, t=57)
    assert not at.exception and not at.error
    spec = viewer_spec(at)
    assert spec["position"] == 57 and spec["T"] == 200
    runs = _runs(sparse_instances(T=200, N=40, k=20, ones=1, seed=3))
    assert [r["mistakes M"] for r in _summary(at)] == [tr.n_mistakes for tr in runs.values()]
    # here the exponentiated update ties the Perceptron on mistakes: the Perceptron wins on its bound only
    assert runs["perceptron"].n_mistakes == runs["normalized_winnow"].n_mistakes
    assert "Where the Perceptron wins here: on its bound, not on mistakes" in shown(at, "info")
    assert url(at)["preset"] == "dense" and url(at)["t"] == "57"


def test_experts_three_learners_on_the_same_advice():
    at = open_page(PAGE, timeout=300, preset="experts", experts=8, best=0.1, worst=0.4, beta=0.6, eta=0.3,
                   T=150, seed=2)
    assert not at.exception and not at.error
    a = olc_core.streams.experts(T=150, N=8, error_rates=np.linspace(0.1, 0.4, 8), seed=2, exact=False)
    wm = olc_core.run("weighted_majority", a.X, a.y, beta=0.6)
    rwm = olc_core.run("randomized_weighted_majority", a.X, a.y, eta=0.3, seed=2)
    hv = olc_core.run("halving", a.X, a.y)
    rows = _summary(at)
    assert [r["mistakes M"] for r in rows] == [wm.n_mistakes, rwm.n_mistakes, hv.n_mistakes]
    assert rows[0]["theorem's bound"] == f"{wm.proof.mistake_bound:.5g}"
    assert rows[1]["theorem's bound"] == f"{rwm.proof.mistake_bound:.5g} (on E[M])"
    assert f"m* = {wm.proof.constants['m_star']}" in rows[0]["measured constants"]
    # no perfect expert: Halving's theorem gives no bound, and the page says why
    assert hv.proof.mistake_bound is None and rows[2]["theorem's bound"].startswith("n/a")
    assert hv.proof.failed_assumptions[0].detail in shown(at, "info")
    spec = viewer_spec(at)
    mis = next(f for f in spec["figures"] if f["id"] == "mistakes")
    assert any(t["name"].startswith("best expert") for t in mis["figure"]["data"])
    assert not any(d for d in at.dataframe if "seed" in d.value.columns)  # no N sweep for expert advice


def test_bad_link_values_are_reported_as_inert_text_and_replaced():
    at = open_page(PAGE, timeout=300, preset="[x](https://evil.example)", N="abc", T=5, preset_extra=1)
    assert not at.exception
    warn = shown(at, "warning")
    assert "A setting in the link was not valid" in warn
    assert "preset must be one of" in warn and "N must be a whole number" in warn and "T must be between" in warn
    raw = " ".join(w.value for w in at.warning)
    assert "](https" not in raw  # the link text is escaped: no live Markdown link
    assert viewer_spec(at)["T"] == 300  # the defaults are used


def test_worst_below_best_is_explained():
    at = open_page(PAGE, timeout=300, preset="experts", best=0.4, worst=0.1)
    assert not at.exception
    err = shown(at, "error")
    assert "These settings cannot be run" in err and "below the best one's" in err


def test_long_wide_runs_are_capped_and_say_so():
    at = open_page(PAGE, timeout=300, preset="dense", N=200, T=1000)
    assert not at.exception and not at.error
    from olc_ui.lessons.compare.lesson import MAX_CELLS
    T = MAX_CELLS // 201
    assert viewer_spec(at)["T"] == T
    assert f"T is capped at {T} rounds" in shown(at, "caption")
    runs = _runs(sparse_instances(T=T, N=200, k=100, ones=1, seed=0))
    assert [r["mistakes M"] for r in _summary(at)] == [tr.n_mistakes for tr in runs.values()]


def test_many_experts_cap_the_rounds_too():
    at = open_page(PAGE, timeout=300, preset="experts", experts=50, T=1000)
    assert not at.exception and not at.error
    from olc_ui.lessons.compare.lesson import MAX_CELLS
    T = MAX_CELLS // 150
    assert viewer_spec(at)["T"] == T and f"T is capped at {T} rounds for N = 50 experts" in shown(at, "caption")


def test_presentation_mode_zooms_cover_no_curve_and_no_legend():
    """Defect (review pr_cmp.png, c10.png): the zoom's title ran into the legend and the zooms covered the bound
    curves and the crossing area. Every zoom on the page, at the end of the run, covers none of them."""
    from olc_ui.viewer.snapshot import figures_at
    from tests.ui.test_compare_view import inset_clear_of_curves

    at = open_page(PAGE, timeout=300, present="1")
    assert not at.exception
    spec = viewer_spec(at)
    zooms = [f for f in figures_at(spec, spec["T"]) if "xaxis2" in f["layout"]]
    assert zooms
    for fig in zooms:
        inset_clear_of_curves(fig)
