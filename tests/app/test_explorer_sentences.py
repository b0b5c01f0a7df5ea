"""Issue 20: the Bound explorer's sentences — RWM's bound-attaining stream, label noise per learner, sources."""
from __future__ import annotations

import numpy as np

import olc_core
from olc_ui.lessons.bound_explorer import lesson as L
from tests.app.pagetest import open_page, page_path, shown

PAGE = page_path("bound_explorer")


def test_rwm_worst_case_says_at_least_half_and_gives_the_rates_from_the_table():
    assert "near ½" not in L.WORST_TEXT["randomized_weighted_majority"]
    assert "at least ½" in L.WORST_TEXT["randomized_weighted_majority"]
    at = open_page(PAGE, timeout=300, alg="randomized_weighted_majority", worst="true", param="eta",
                   eta_lo="0.05", eta_hi="0.95", points="2", seeds="2", N="10", T="1000")
    assert not at.exception and not at.error
    info = shown(at, "info")
    t = olc_core.sweep("randomized_weighted_majority", "eta", [0.05, 0.95], seeds=2, T=1000, worst_case=True, N=10)
    for eta in (0.05, 0.95):
        r = float(np.median((t["mistakes"] / t["T"])[t["value"] == eta]))
        assert f"{r:.2f} at η = {eta:g}" in info
    assert "0.51 at η = 0.05" in info and "0.78 at η = 0.95" in info
    assert "≥ ½, as the adversary makes Fₜ ≥ ½" in info
    # the bound names its note
    assert "[000] §1.2" in " ".join(c.value for c in at.caption)


def test_noise_help_is_per_learner():
    assert "TD_γ" in L.more("perceptron") and "still has a bound" in L.more("perceptron")
    assert "n/a" in L.more("winnow") and "n/a" in L.more("halving")
    assert "does not become n/a" in L.more("weighted_majority")
    assert "Label noise" not in L.more("margin_perceptron")
    # no sentence says noise makes every bound n/a
    assert "label noise, say), the theorem gives no bound" not in L.MORE
    at = open_page(PAGE, timeout=300)
    assert "non-separable theorem of [004]" in " ".join(m.value for m in at.markdown)


def test_wm_sweep_names_note_001():
    at = open_page(PAGE, timeout=300, alg="weighted_majority", param="N", N_lo="2", N_hi="20", points="2",
                   seeds="1", T="100")
    assert "note [001] (eq. 6)" in " ".join(c.value for c in at.caption)


def test_wm_noise_help_does_not_say_every_expert_errs_more():
    """An expert whose advice is a coin flip errs as often on flipped labels: noise need not make
    *every* expert err more; what it does is count a flipped round against every expert that was right."""
    from olc_ui.lessons.bound_explorer.lesson import more
    text = more("weighted_majority")
    assert "every expert err more" not in text and "flipped label" in text
