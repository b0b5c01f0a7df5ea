"""Log axes label their ticks in full: plotly's dtick "D2" labels 0.2 and 0.5 as "2" and "5" (a student
read 0.1, 2, 5, 1 bottom to top on the Perceptron's Proof B chart), and a log axis left to plotly's
defaults labels "5 0.01 2 5 0.1 2 5 1" (the "Which γ" chart)."""
from __future__ import annotations

import math

import pytest

import olc_core
from olc_ui.lessons.perceptron.view import perceptron_spec
from olc_ui.shared.sandwich_view import log_axis_ticks


def _log_axes(spec: dict):
    for f in spec["figures"]:
        lay = f["figure"]["layout"]
        for key, ax in lay.items():
            if key[1:5] == "axis" and isinstance(ax, dict) and ax.get("type") == "log":
                yield f["id"], key, ax


def _check_full_labels(ax: dict) -> None:
    assert ax.get("dtick") != "D2" and ax.get("dtick") != "D1"
    if "tickvals" in ax:
        assert len(ax["tickvals"]) == len(ax["ticktext"]) >= 2
        for v, t in zip(ax["tickvals"], ax["ticktext"]):
            assert float(t) == pytest.approx(v, rel=1e-9), (v, t)
    else:  # decades only: plotly writes 0.01, 0.1, 1, 10 (or 10⁻⁵ …) in full
        assert isinstance(ax.get("dtick"), int) and ax["dtick"] >= 1, ax


def test_short_range_is_one_two_five_per_decade_in_full():
    t = log_axis_ticks([math.log10(0.08), math.log10(1.1)])
    assert t["ticktext"] == ["0.1", "0.2", "0.5", "1"] and t["tickvals"] == [0.1, 0.2, 0.5, 1.0]
    t = log_axis_ticks([math.log10(0.004), math.log10(0.3)])
    assert t["ticktext"] == ["0.005", "0.01", "0.02", "0.05", "0.1", "0.2"]
    assert log_axis_ticks([0.2, 2.3])["ticktext"] == ["2", "5", "10", "20", "50", "100"]


def test_long_range_has_few_decade_ticks():
    for lo, hi in ((-10.5, 0.2), (0, 3), (-40, 1)):
        d = log_axis_ticks([lo, hi])["dtick"]
        assert isinstance(d, int) and (hi - lo) / d <= 6


@pytest.mark.parametrize("kind", ["separable", "noisy"])
def test_every_perceptron_log_axis_labels_its_ticks_in_full(kind):
    if kind == "separable":
        s = olc_core.streams.separable(T=300, d=2, gamma=0.05, radius=1.0, seed=2)
    else:
        s = olc_core.streams.noisy(T=1000, d=2, gamma=0.1, noise=0.1, seed=0)
    tr = olc_core.run("perceptron", s.X, s.y, comparator=s.comparator)
    axes = list(_log_axes(perceptron_spec(tr, s.X, s.y, run_id="x")))
    assert axes, "no log axis to check"
    if kind == "noisy":
        assert any(fid == "td_curve" and key == "xaxis" for fid, key, _ in axes)
    for fid, key, ax in axes:
        _check_full_labels(ax)


def test_a_log_axis_of_m_draws_the_run_from_its_first_mistake():
    """On a log axis of M the run's revealed trajectory starts at M = 1: the state before the first mistake (M = 0,
    potentials 0) has no place there, and drawn, plotly ran its segment in from the axis's left edge at values the
    run never had (a student read ⟨w*, w⟩ ≈ 0.33 at M ≈ 0.7 on the Perceptron's Proof A chart)."""
    s = olc_core.streams.separable(T=300, d=2, gamma=0.05, radius=1.0, seed=2)
    tr = olc_core.run("perceptron", s.X, s.y, comparator=s.comparator)
    spec = perceptron_spec(tr, s.X, s.y, run_id="x")
    checked = 0
    for f in spec["figures"]:
        if f["figure"]["layout"].get("xaxis", {}).get("type") != "log":
            continue
        for d in f.get("dynamic", []):
            if d.get("op") == "rows_before":
                ms = spec["arrays"][d["x"]]
                assert ms and min(ms) >= 1, (f["id"], ms[:5])
                assert len(spec["arrays"][d["y"]]) == len(ms) == len(spec["arrays"][d["rounds"]])
                checked += 1
    assert checked >= 2, "no trajectory on a log axis of M to check"
