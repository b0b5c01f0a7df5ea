"""Issue 20: curves that coincide are detected from the data, drawn one over the other, and said."""
from __future__ import annotations

from olc_ui.lessons.compare.view import coincidence_note, coinciding, sweep_figure


def test_coinciding_finds_equal_series_only():
    assert coinciding([[0, 1, 2], [0, 1, 3], [0, 1, 2]]) == {2: 0}
    assert coinciding([[0, 1], [0, 2]]) == {}
    assert coincidence_note(["A", "B", "C"], {2: 0}) == "the A curve lies under the C curve (dashed)"


def _rows(eg_shift: int) -> list[dict]:
    rows = []
    for N in (10, 100):
        for seed in range(3):
            m = N // 10 + seed
            for alg, mm in (("perceptron", m), ("winnow", 2 * m), ("normalized_winnow", m + eg_shift)):
                rows.append({"algorithm": alg, "N": N, "seed": seed, "mistakes": mm, "bound": 10.0 * N})
    return rows


def test_sweep_figure_dashes_a_curve_equal_to_another_and_notes_it():
    fig = sweep_figure(_rows(0), T=300)
    eg = next(d for d in fig["data"] if d["name"].startswith("Exponentiated update: mistakes"))
    assert eg["line"]["dash"] == "dash" and "dashed over it" in eg["name"]
    assert fig["layout"]["annotations"][0]["text"].startswith(
        "The Perceptron mistakes curve lies under the Exponentiated update mistakes curve")
    fig = sweep_figure(_rows(1), T=300)
    assert "annotations" not in fig["layout"]
    assert all(d["line"].get("dash") != "dash" for d in fig["data"] if d["name"].endswith("(median)"))
