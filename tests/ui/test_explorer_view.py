"""The Bound explorer's pure builders, tested as data: values, figures, table rows, n/a reasons."""
from __future__ import annotations

import math

import numpy as np
import pytest

import olc_core
from olc_ui.lessons.bound_explorer import lesson as L
from olc_ui.lessons.bound_explorer import view as V


@pytest.fixture(scope="module")
def noisy():
    return olc_core.sweep("halving", "noise", [0.0, 0.1, 0.2], seeds=3, T=200, N=16)


@pytest.fixture(scope="module")
def gamma():
    return olc_core.sweep("perceptron", "gamma", [0.05, 0.1, 0.3], seeds=3, T=400, d=3)


def test_sweep_values():
    assert V.sweep_values(0.1, 0.3, 3, "linear", False) == ([0.1, 0.2, 0.3], None)
    assert V.sweep_values(0.3, 0.1, 3, "linear", False) == ([0.1, 0.2, 0.3], None)     # either order
    assert V.sweep_values(1, 4, 8, "linear", True) == ([1, 2, 3, 4], None)               # repeats dropped
    assert V.sweep_values(2, 1024, 10, "log", True) == ([2, 4, 8, 16, 32, 64, 128, 256, 512, 1024], None)
    vals, problem = V.sweep_values(0, 5, 4, "log", True)
    assert vals == [] and "logarithmic spacing needs From > 0" in problem


def test_mistakes_figure_draws_the_tables_numbers(gamma):
    s = gamma.summary()
    fig = V.mistakes_figure(s, "γ: margin", "mistakes M", False)
    band, med, bound = fig["data"]          # the bound is the same for every seed: no bound band
    assert med["y"] == s["mistakes_median"].tolist() and med["x"] == [0.05, 0.1, 0.3]
    assert bound["y"] == pytest.approx([400.0, 100.0, 100 / 9])
    assert band["x"] == [0.05, 0.1, 0.3, 0.3, 0.1, 0.05]
    assert band["y"] == s["mistakes_max"].tolist() + s["mistakes_min"].tolist()[::-1]
    low = min(s["mistakes_min"].min(), 100 / 9)
    assert fig["layout"]["yaxis"]["type"] == ("log" if 400 / low > 100 else "linear")
    assert "^" not in str(fig) and "_" not in fig["layout"]["title"]["text"]


def test_mistakes_figure_log_axis_when_numbers_span_decades():
    s = {"value": np.array([1.0, 2.0]), "mistakes_min": np.array([1.0, 2.0]), "mistakes_median": np.array([1., 2.]),
         "mistakes_max": np.array([1.0, 2.0]), "bound_median": np.array([10.0, 1000.0]),
         "bound_min": np.array([10.0, 1000.0]), "bound_max": np.array([10.0, 1000.0])}
    fig = V.mistakes_figure(s, "x", "mistakes M", True)
    assert fig["layout"]["yaxis"]["type"] == "log" and fig["layout"]["yaxis"]["dtick"] == 1
    assert fig["layout"]["xaxis"]["tickvals"] == [1.0, 2.0] and fig["layout"]["xaxis"]["ticktext"] == ["1", "2"]


def test_na_bound_is_a_gap_not_a_number(noisy):
    s = noisy.summary()
    fig = V.mistakes_figure(s, "noise", "mistakes M", False)
    bound = [t for t in fig["data"] if t["name"] == "the theorem's bound"][0]
    assert bound["y"][0] == 4.0 and bound["y"][1:] == [None, None]
    r = V.ratio_figure(s, "noise", False)
    assert r["data"][1]["y"][1:] == [None, None] and r["data"][2]["y"] == [1.0, 1.0]
    assert r["layout"]["yaxis"]["range"][1] >= 1.0
    rows = V.summary_rows(s, "noise")
    assert rows[0]["assumptions"] == "✓ hold" and rows[1]["assumptions"] == "✗ fail: n/a"
    assert rows[1]["bound: median"] == "n/a" and rows[1]["ratio: median"] == "n/a"
    na = V.na_values(noisy)
    assert [v for v, _ in na] == [0.1, 0.2] and all("consistent" in why for _, why in na)
    assert V.tightest(s) == (s["ratio_max"][0], 0.0)


def test_summary_rows_and_theorems(gamma):
    s = gamma.summary()
    rows = V.summary_rows(s, "γ")
    assert [r["γ"] for r in rows] == ["0.05", "0.1", "0.3"]
    assert rows[0]["bound: median"] == "400" and rows[2]["bound: median"] == V.fmt(100 / 9)
    assert rows[1]["measured: median"] == V.fmt(s["mistakes_median"][1])
    assert V.theorems(gamma) == [("Perceptron, separable data", [0.05, 0.1, 0.3])]
    noise = olc_core.sweep("perceptron", "noise", [0.0, 0.1], seeds=1, T=300)
    assert [n for n, _ in V.theorems(noise)] == ["Perceptron, separable data", noise["proof"][1]]


def test_tightest_none_without_a_bound():
    s = {"ratio_max": np.array([math.nan, math.nan]), "value": np.array([1.0, 2.0])}
    assert V.tightest(s) is None


def test_every_group_offers_each_parameter_with_a_range_and_the_page_checks_sizes():
    for alg, group in L.GROUPS.items():
        keys = {s.key for s in group}
        for p in L.params_of(alg):
            assert {p, f"{p}_lo", f"{p}_hi"} <= keys
        assert {"param", "points", "scale", "seeds"} <= keys
    assert L.check_size("winnow", "N", [10, 20000], 20, {"k": 3, "beta": 1.0, "noise": 0.0, "T": 10_000}) \
        .startswith("one stream would hold 200,000,000 numbers")
    assert "values × seeds × T × width" in L.check_size("perceptron", "gamma", [0.1] * 20, 20,
                                                        {"d": 100, "noise": 0.0, "T": 100_000})
    assert L.check_size("perceptron", "gamma", [0.1, 0.2], 5, {"d": 5, "noise": 0.0, "T": 1000}) is None


def test_page_texts_have_no_caret_maths():
    texts = [L.INTRO, L.MORE, *L.WORST_TEXT.values()] + [s.label for g in L.GROUPS.values() for s in g]
    assert not [t for t in texts if "^" in t or "_{" in t]


def _font_sizes(layout: dict):
    """(where, size) of every text in a layout: its font, title, legend, hover label, each axis's ticks and title."""
    yield "font", layout.get("font", {}).get("size")
    yield "title", layout.get("title", {}).get("font", {}).get("size")
    yield "legend", layout.get("legend", {}).get("font", {}).get("size")
    yield "hoverlabel", layout.get("hoverlabel", {}).get("font", {}).get("size")
    for key in ("xaxis", "yaxis"):
        yield key + ".tickfont", layout[key].get("tickfont", {}).get("size")
        yield key + ".title", layout[key].get("title", {}).get("font", {}).get("size")


def test_chart_text_is_at_least_16_px(gamma):
    """Projected, the bound explorer's charts had ~10 px ticks and legend: Streamlit's chart theme fills
    in whatever size the figure leaves unset, so every size is set, ≥ 16 px."""
    s = gamma.summary()
    for fig in (V.mistakes_figure(s, "γ: margin", "mistakes M", False), V.ratio_figure(s, "γ: margin", True)):
        small = [(w, px) for w, px in _font_sizes(fig["layout"]) if not (isinstance(px, (int, float)) and px >= 16)]
        assert not small, small


def test_perceptron_noise_draws_each_theorem_as_its_own_series_and_names_the_vacuous_bounds():
    """Defect: one 'theorem's bound' line joined R²/γ² (noise 0) to the TD_γ bound (noise > 0), and bounds above
    T (vacuous) were drawn without a word."""
    t = olc_core.sweep("perceptron", "noise", [0.0, 0.1, 0.2], seeds=2, T=1000, d=5, gamma=0.1)
    s = t.summary()
    proofs = V.proof_per_value(t)
    assert len(set(proofs)) == 2 and proofs[1] == proofs[2] != proofs[0]
    for fig, prefix in ((V.mistakes_figure(s, "noise", "mistakes M", False, proofs), "bound: "),
                        (V.ratio_figure(s, "noise", False, proofs), "median: ")):
        series = [d for d in fig["data"] if d["name"].startswith(prefix) and "fill" not in d]
        assert [d["name"] for d in series] == [prefix + V.short(n) for n in dict.fromkeys(proofs)]
        for d, theorem in zip(series, dict.fromkeys(proofs)):   # one theorem's points only: never joined across
            own = [p == theorem for p in proofs]
            assert all((y is None) != o for y, o in zip(d["y"], own)) and d["connectgaps"] is False
    bounds = [d for d in V.mistakes_figure(s, "noise", "mistakes M", False, proofs)["data"]
              if d["name"].startswith("bound: ") and "fill" not in d]
    assert bounds[0]["y"][0] == s["bound_median"][0] and bounds[1]["y"][1:] == s["bound_median"][1:].tolist()
    assert [b["name"] for b in bounds] == ["bound: separable data", "bound: non-separable data (TDᵧ)"]
    bands = [d for d in V.mistakes_figure(s, "noise", "mistakes M", False, proofs)["data"]
             if d["name"].startswith("bound: min–max")]
    # a band per theorem, over its own values only (the TDᵧ bound varies over seeds)
    assert [(b["x"], b["showlegend"]) for b in bands] == [([0.0, 0.0], True), ([0.1, 0.2, 0.2, 0.1], False)]
    ratio_bands = [d for d in V.ratio_figure(s, "noise", False, proofs)["data"] if "fill" in d]
    assert [b["x"] for b in ratio_bands] == [[0.0, 0.0], [0.1, 0.2, 0.2, 0.1]]
    vac = V.vacuous(t)
    assert [v for v, _, _ in vac] == [x for x, b in zip(s["value"], s["bound_median"]) if b > 1000] == [0.1, 0.2]
    assert all(b == m and T == 1000 for (_, b, T), m in zip(vac, s["bound_median"][1:]))
