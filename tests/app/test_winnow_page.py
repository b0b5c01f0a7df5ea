"""AppTest over the Winnow lesson: numbers from the core, deep links, bad input as clear messages."""
from __future__ import annotations

import numpy as np

import olc_core
from olc_core.streams.winnow_extra import winnow_adversary
from olc_ui.viewer.snapshot import caption_at, ledger_at
from tests.app.pagetest import metric, open_page, page_path, page_text, shown, url, viewer_spec

PAGE = page_path("winnow")


def _core(T=500, N=100, k=3, noise=0.0, seed=0, beta=1.0):
    s = olc_core.streams.sparse_disjunction(T=T, N=N, k=k, seed=seed, noise=noise, dtype=np.uint8)
    return s, olc_core.run("winnow", s.X, s.y, beta=beta, comparator=s.comparator)


def test_default_run_numbers_come_from_the_core():
    at = open_page(PAGE)
    assert not at.exception and not at.error
    s, tr = _core()
    p = tr.proof
    assert metric(at, "Mistakes M (whole run)") == str(tr.n_mistakes)
    assert metric(at, "Promotions m⁺") == str(int(p.series["m_plus"][-1]))
    assert metric(at, "Demotions m⁻") == str(int(p.series["m_minus"][-1]))
    assert metric(at, "Bound on M") == f"{p.mistake_bound:.5g}"
    assert f"{p.mistake_bound:.5g}" in shown(at, "success")
    spec = viewer_spec(at)
    assert spec["T"] == 500 and spec["mistake_rounds"] == tr.mistakes.tolist()
    t = int(tr.mistakes[5]) + 1  # the potential at a round, as the ledger prints it
    phi = float(np.exp(p.at(t)["log_phi"]))
    assert any(f"\\Phi_{{t+1}} = {phi:.6g} " in r["latex"] for r in ledger_at(spec, t))
    q = url(at)
    assert q["beta"] == "1" and q["N"] == "100" and q["k"] == "3" and q["T"] == "500" and q["t"] == "0"


def test_deep_link_opens_the_same_run_at_the_same_round():
    at = open_page(PAGE, beta=0.5, N=40, k=2, T=300, seed=4, t=77)
    assert not at.exception and not at.error
    s, tr = _core(T=300, N=40, k=2, seed=4, beta=0.5)
    spec = viewer_spec(at)
    assert spec["position"] == 77 and spec["mistake_rounds"] == tr.mistakes.tolist()
    assert metric(at, "Bound on M") == f"{tr.proof.mistake_bound:.5g}"
    assert caption_at(spec, 77).startswith("Round 77 of 300")


def test_noise_gives_no_bound_and_says_why():
    at = open_page(PAGE, N=30, k=2, T=300, noise=0.1, seed=1)
    assert not at.exception
    s, tr = _core(T=300, N=30, k=2, noise=0.1, seed=1)
    assert tr.proof.mistake_bound is None
    assert metric(at, "Bound on M") == "n/a"
    assert "no bound" in shown(at, "error") and "monotone disjunction" in shown(at, "error")


def test_adversary_source_forces_mistakes():
    at = open_page(PAGE, data="adversary", N=64, k=2, T=200)
    assert not at.exception and not at.error
    s = winnow_adversary(T=200, N=64, k=2, beta=1.0, seed=0)
    tr = olc_core.run("winnow", s.X, s.y, beta=1.0, comparator=s.comparator)
    assert metric(at, "Mistakes M (whole run)") == str(tr.n_mistakes)
    assert f"first {s.info['forced']} rounds" in shown(at, "info")


def test_k_above_n_is_a_clear_message():
    at = open_page(PAGE, N=5, k=9)
    assert not at.exception
    assert "k = 9 relevant variables cannot be chosen among N = 5 variables" in shown(at, "error")


def test_bad_link_values_are_reported_and_replaced():
    at = open_page(PAGE, beta="abc", N="99999")
    assert not at.exception and not at.error
    w = shown(at, "warning")
    assert "beta must be a number" in w and "N must be between 2 and 10000" in w
    assert metric(at, "Mistakes M (whole run)") == str(_core()[1].n_mistakes)


def test_waiting_for_an_upload_is_information():
    at = open_page(PAGE, data="upload")
    assert not at.exception and not at.error
    assert "0/1 columns" in shown(at, "info")
    assert "Winnow" in page_text(at)
