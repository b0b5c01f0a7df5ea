"""The randomised FTRL lesson's viewer spec, tested as data: what a student sees at a round is the run's."""
from __future__ import annotations

import json
import math

import numpy as np
import pytest

import olc_core
from olc_ui.lessons.ftrl.view import BEST_NAME, alpha_sweep, band_grid, ftrl_spec, last_segments, realised_band, upto_rounds
from olc_ui.viewer.snapshot import caption_at, figures_at, ledger_at
from olc_ui.viewer.spec import validate_spec

T, ALPHA, SEED, RUNS = 200, 1.1, 3, 40


def _fig(spec: dict, fid: str, p: int) -> dict:
    i = [f["id"] for f in spec["figures"]].index(fid)
    return figures_at(spec, p)[i]


def _named(fig: dict, name: str, mode: str | None = None) -> dict:
    hits = [t for t in fig["data"] if t.get("name") == name and (mode is None or t.get("mode") == mode)]
    assert hits, f"no trace {name!r} in {[t.get('name') for t in fig['data']]}"
    return hits[0]


@pytest.fixture(scope="module")
def run():
    s = olc_core.streams.separable(T=T, d=2, gamma=0.1, radius=1.0, seed=1, noise=0.05)
    tr = olc_core.run("ftrl_randomized", s.X, s.y, eta=ALPHA, seed=SEED)
    band = realised_band(s.X, s.y, eta=ALPHA, runs=RUNS)
    sweep = alpha_sweep(s.X, s.y, [0.1, 0.5, ALPHA, math.sqrt(2), 4.0])
    spec = ftrl_spec(tr, s.X, s.y, run_id="t", band=band, sweep=sweep)
    return s, tr, band, sweep, spec


def test_spec_is_valid_json_and_follows_the_run(run):
    s, tr, band, sweep, spec = run
    validate_spec(spec)
    json.dumps(spec, allow_nan=False)
    assert spec["T"] == T and spec["mistake_rounds"] == tr.mistakes.tolist()
    assert spec["breaks"] == list(range(1, T + 1))          # the weights change every round
    assert [f["id"] for f in spec["figures"]] == ["plane", "prob", "mistakes", "regret", "alpha"]
    placed = [x for col in spec["layout"]["columns"] for x in col]
    assert sorted(placed) == sorted([f["id"] for f in spec["figures"]] + ["ledger"])
    # the proof's sandwich heads a column, so it is on the first screen (projected, it started at y ≈ 865)
    assert [col[0] for col in spec["layout"]["columns"]] == ["plane", "regret"]


def test_band_equals_direct_core_runs_on_the_same_seeds(run):
    s, tr, band, sweep, spec = run
    assert band.seeds == tuple(range(RUNS))
    grid = band_grid(T)
    assert band.grid.tolist() == grid.tolist() and grid[0] == 0 and grid[-1] == T
    direct = np.array([olc_core.run("ftrl_randomized", s.X, s.y, eta=ALPHA, seed=k).mistakes_before_each_round()
                       for k in range(RUNS)])
    assert np.array_equal(band.counts, direct[:, grid])
    assert np.array_equal(band.totals, [olc_core.run("ftrl_randomized", s.X, s.y, eta=ALPHA, seed=k).n_mistakes
                                        for k in range(RUNS)])
    # discrete quantiles: each a count one of the runs made (never 40.95 mistakes)
    assert np.array_equal(band.band, np.quantile(direct[:, grid], (0.05, 0.5, 0.95), axis=0, method="inverted_cdf"))
    assert np.array_equal(band.band, np.round(band.band))
    assert np.allclose(band.mean, direct[:, grid].mean(axis=0))
    # the seed shown is one of the band's runs: its realised count is that run's
    assert tr.n_mistakes == direct[SEED, -1]
    # drawn: the band's upper edge and median, to 2 decimals
    fig = _fig(spec, "mistakes", 0)
    hi = _named(fig, f"realised M: 5%–95% of {RUNS} seeded runs (dotted: median)")
    mid = _named(fig, f"realised M: median of {RUNS} runs")
    assert hi["x"] == grid.tolist() and np.allclose(hi["y"], band.band[2], atol=0.006)
    assert np.allclose(mid["y"], band.band[1], atol=0.006)


def test_mistakes_chart_reveals_the_run_and_ends_at_the_bound(run):
    s, tr, band, sweep, spec = run
    S = tr.proof.series
    for p in (0, 1, 2, 57, T):
        fig = _fig(spec, "mistakes", p)
        for name, key in (("E[Mₜ] = Σ ℓₛ(wₛ) (expected mistakes)", "expected_mistakes"),
                          (BEST_NAME, "best_loss"),
                          (f"realised Mₜ (seed {SEED}): one draw; E[Mₜ] is bounded", "mistakes")):
            now = _named(fig, name, "markers")
            assert now["x"] == [p] and now["y"][0] == pytest.approx(S[key][p], abs=1e-4)
            line = _named(fig, name, "lines")        # revealed up to p − 1, then the segment p − 1 → p
            seg = _named(fig, name + " (this round)")
            shown_x = [x for x in (line["x"] or []) if x is not None] + [x for x in (seg["x"] or []) if x is not None]
            assert sorted(set(shown_x)) == list(range(0, p + 1)) if p >= 1 else shown_x == []
            assert max(shown_x, default=0) == p   # nothing beyond the current position
    M_real = tr.mistakes_before_each_round()
    assert np.array_equal(S["mistakes"], M_real)
    # the end point: the largest E[M] at T the theorem allows, from the proof
    end = _named(_fig(spec, "mistakes", 0), "the theorem's bound on E[M] at T")
    assert end["x"] == [T] and end["y"][0] == pytest.approx(tr.proof.mistake_bound, abs=1e-4)
    up = _named(_fig(spec, "mistakes", 0), "bound on E[Mₜ]: min Σℓₛ(u) + √t(1/(2α) + αLₜ²) (whole run)")
    assert up["x"][-1] == T and up["y"][-1] == pytest.approx(tr.proof.mistake_bound, abs=1e-4)


#: the data-dependent bound's legend: the formula the core computes, with round 1 apart (no √(s−1) = 0 below it)
LEGEND_BD = "data-dependent bound √t/(2α) + (α/2)(‖g₁‖² + Σₛ₌₂ᵗ ‖gₛ‖²/√(s−1))"


def test_the_data_dependent_legend_is_the_formula_the_core_computes(run):
    """Issue 32 §4: the legend read (α/2)Σ‖gₛ‖²/√(s−1), undefined at s = 1; the core adds ‖g₁‖² apart."""
    s, tr, band, sweep, spec = run
    assert "Σ‖gₛ‖²/√(s−1)" not in json.dumps(spec, ensure_ascii=False)
    a = tr.proof.constants["alpha"]
    g2 = np.einsum("ij,ij->i", s.X, s.X) / 4.0                      # ‖gₛ‖² = ‖xₛ‖²/4, gₛ = −yₛxₛ/2
    for t in (1, 2, 37, T):
        want = math.sqrt(t) / (2 * a) + (a / 2) * (g2[0] + sum(g2[j - 1] / math.sqrt(j - 1) for j in range(2, t + 1)))
        assert tr.proof.series["bound_data"][t] == pytest.approx(want, rel=1e-12)
        fig = _fig(spec, "regret", t)
        assert _named(fig, LEGEND_BD, "markers")["y"][0] == pytest.approx(want, abs=1e-4)


def test_regret_sandwich_and_its_end_point(run):
    s, tr, band, sweep, spec = run
    S = tr.proof.series
    c = tr.proof.constants
    for p in (1, 80, T):
        fig = _fig(spec, "regret", p)
        r = _named(fig, "regret Σ ℓₛ(wₛ) − ℓₛ(u*ₜ)", "markers")["y"][0]
        bd = _named(fig, LEGEND_BD, "markers")["y"][0]
        bs = _named(fig, "√t(1/(2α) + αLₜ²)", "markers")["y"][0]
        assert (r, bd, bs) == pytest.approx((S["regret"][p], S["bound_data"][p], S["bound_sqrt"][p]), abs=1e-4)
        assert r <= bd <= bs
    end = _named(_fig(spec, "regret", 0), "the theorem's regret bound at T")
    assert end["x"] == [T] and end["y"][0] == pytest.approx(c["regret_bound"], abs=1e-4)
    assert c["regret_bound"] == pytest.approx(S["bound_sqrt"][-1])


def test_ledger_numbers_and_checks_are_the_proofs(run):
    s, tr, band, sweep, spec = run
    S = tr.proof.series
    p = 80
    rows = ledger_at(spec, p)
    text = " ".join(r["latex"] for r in rows)
    for key in ("regret", "bound_data", "bound_sqrt", "expected_mistakes", "mistakes_upper", "regret_u"):
        assert format(float(S[key][p]), ".4g") in text, key
    assert format(tr.proof.mistake_bound, ".5g") in text
    assert format(float(tr.columns["prob_plus"][p - 1]), ".4g") in rows[0]["latex"]
    assert rows[0]["holds"] is None and rows[-1]["holds"] is None     # definitions and the random count
    assert all(r["holds"] is True for r in rows[1:-1])              # every link of the proof holds here
    assert "{" + str(p) + "}" in text or f"sqrt{{{p}}}" in text or f"\\sqrt{p}" in text  # √t shows the round
    assert "^" not in rows[-1]["reason"]


def test_ledger_marks_a_failing_link(run):
    """✗ comes from the proof's own check: a forged regret series makes its line fail (not a constant ✓)."""
    s = run[0]
    tr = olc_core.run("ftrl_randomized", s.X, s.y, eta=ALPHA, seed=SEED)   # a fresh run: the fixture's stays intact
    proof = tr.proof
    proof.series["regret"] = proof.series["bound_data"] + np.where(np.arange(T + 1) >= 10, 1.0, 0.0)
    proof._checked = None                                                # the checks are cached per proof
    forged = ftrl_spec(tr, s.X, s.y, run_id="forged")
    assert ledger_at(forged, 9)[1]["holds"] is True
    assert ledger_at(forged, 10)[1]["holds"] is False


def test_plane_shows_the_weights_played_and_after(run):
    s, tr, band, sweep, spec = run
    for p in (1, 2, 100, T):
        fig = _fig(spec, "plane", p)
        after = _named(fig, "wₜ₊₁ (after round t)")
        played = _named(fig, "wₜ (played on round t)")
        assert [after["x"][1], after["y"][1]] == pytest.approx(tr.weights_at(p).tolist(), abs=1e-5)
        if np.any(tr.weights_at(p - 1)):
            assert [played["x"][1], played["y"][1]] == pytest.approx(tr.weights_at(p - 1).tolist(), abs=1e-5)
        else:                                   # w = 0: no arrow (an arrowhead alone at the origin)
            assert played["x"] == [] and played["y"] == []
        assert np.hypot(after["x"][1], after["y"][1]) <= 1 + 1e-5       # the ball
    assert _named(_fig(spec, "plane", 0), "wₜ₊₁ (after round t)")["x"] == []     # w₀ = 0: nothing drawn
    u = _named(_fig(spec, "plane", 0), "u* (best ‖u‖ ≤ 1, whole run)")
    assert [u["x"][1], u["y"][1]] == pytest.approx(tr.info["comparator"].tolist(), abs=1e-5)


def test_probabilities_and_caption_follow_the_round(run):
    s, tr, band, sweep, spec = run
    p = 42
    fig = _fig(spec, "prob", p)
    prob = tr.columns["prob_plus"]
    pts = _named(fig, "y = +1: P(ŷ = +1)")
    assert all(x <= p - 1 for x in pts["x"])                                # seen rounds only (1-based x)
    for x, yv in zip(pts["x"], pts["y"]):
        assert s.y[x - 1] > 0 and yv == pytest.approx(prob[x - 1], abs=1e-4)
    cap = caption_at(spec, p)
    assert f"Round {p} of {T}" in cap and format(float(prob[p - 1]), ".3f") in cap
    assert f"M = {tr.mistakes_before_each_round()[p]}" in cap
    assert ("MISTAKE" in cap) == bool(tr.columns["is_mistake"][p - 1])
    assert "fair coin" in caption_at(spec, 0)


def test_alpha_chart_is_one_core_run_per_alpha_with_the_theorems_choice_marked(run):
    s, tr, band, sweep, spec = run
    for a, rb, rg in zip(sweep.alphas, sweep.regret_bound, sweep.regret):
        pr = olc_core.run("ftrl_randomized", s.X, s.y, eta=float(a)).proof
        assert rb == pr.constants["regret_bound"] and rg == pr.series["regret"][-1]
    fig = _fig(spec, "alpha", 0)
    best = tr.proof.constants["best_alpha"]
    assert best == pytest.approx(math.sqrt(2))                           # L = ½ on these data
    [line] = fig["layout"]["shapes"]
    assert line["x0"] == pytest.approx(math.log10(best), abs=1e-4)
    you = _named(fig, f"your α = {ALPHA:.4g}")
    assert you["x"][0] == pytest.approx(math.log10(ALPHA), abs=1e-4)
    assert you["y"][0] == pytest.approx(tr.proof.constants["regret_bound"], abs=1e-4)
    # the bound is smallest at the theorem's α among the swept values
    i = int(np.argmin(sweep.regret_bound))
    assert sweep.alphas[i] == pytest.approx(math.sqrt(2))


def test_position_helpers():
    assert upto_rounds(3).tolist() == [0, 0, 1, 2]
    xs, ys = last_segments([0.0, 1.0, 3.0])
    assert xs == [None, [0, 1], [1, 2]] and ys == [None, [0.0, 1.0], [1.0, 3.0]]


def test_three_dimensions_have_no_plane_and_T1_works():
    s = olc_core.streams.separable(T=30, d=3, gamma=0.1, seed=0)
    tr = olc_core.run("ftrl_randomized", s.X, s.y)
    spec = ftrl_spec(tr, s.X, s.y, run_id="d3")
    validate_spec(spec)
    assert [f["id"] for f in spec["figures"]] == ["prob", "mistakes", "regret"]
    s1 = olc_core.streams.separable(T=1, d=2, gamma=0.1, seed=0)
    tr1 = olc_core.run("ftrl_randomized", s1.X, s1.y)
    spec1 = ftrl_spec(tr1, s1.X, s1.y, run_id="t1", band=realised_band(s1.X, s1.y, eta=math.sqrt(2), runs=10))
    validate_spec(spec1)
    assert len(ledger_at(spec1, 1)) == 7


def test_refuses_another_learner():
    s = olc_core.streams.separable(T=10, d=2, gamma=0.1, seed=0)
    tr = olc_core.run("perceptron", s.X, s.y)
    with pytest.raises(ValueError, match="not a randomised FTRL run"):
        ftrl_spec(tr, s.X, s.y, run_id="x")


def test_theorem_row_states_the_bound_at_T_with_the_runs_final_expectation(run):
    """The theorem's row compares E[M_T] (the whole run's, a constant) with the bound at T — not the
    expected mistakes so far — and its ✓ is the proof's own check at T, the same at every round."""
    s, tr, band, sweep, spec = run
    c, S = tr.proof.constants, tr.proof.series
    for p in (0, 80, T):
        row = ledger_at(spec, p)[-2]
        assert r"\mathbb{E}[M_T]" in row["latex"] and r"\mathbb{E}[M_t]" not in row["latex"]
        assert row["latex"].startswith(r"\mathbb{E}[M_T] = " + format(c["expected_mistakes"], ".4g") + " ")
        assert row["holds"] is True
        assert "E[M_T]" in row["reason"]
    assert format(float(S["expected_mistakes"][80]), ".4g") not in ledger_at(spec, 80)[-2]["latex"]
    # ✗ from the proof's check at T, shown from the first round on (a forged final expectation)
    tr2 = olc_core.run("ftrl_randomized", s.X, s.y, eta=ALPHA, seed=SEED)
    proof = tr2.proof
    proof.series["expected_mistakes"] = proof.series["expected_mistakes"].copy()
    proof.series["expected_mistakes"][-1] = proof.mistake_bound + 1.0
    proof._checked = None
    forged = ftrl_spec(tr2, s.X, s.y, run_id="forged-T")
    assert ledger_at(forged, 0)[-2]["holds"] is False and ledger_at(forged, 80)[-2]["holds"] is False
    assert ledger_at(forged, 80)[-3]["holds"] is True          # the running row at t = 80 still holds


def test_alpha_chart_axes_say_what_they_show(run):
    fig = _fig(run[4], "alpha", 0)
    assert fig["layout"]["yaxis"]["title"]["text"] == "regret at T"
    assert fig["layout"]["xaxis"]["title"]["text"].startswith("learning rate α")


def _over_notes(fig: dict) -> list[str]:
    """The texts of the mistakes chart's per-step notes on screen (the realised count above the bound)."""
    return [t for tr in fig["data"] if tr.get("name") == "realised Mₜ above the bound on E[Mₜ]"
            for t in (tr.get("text") or []) if t]


def _check_over_bound_statements(spec: dict, tr, positions) -> None:
    S = tr.proof.series
    over = S["mistakes"] > S["mistakes_upper"]
    for p in positions:
        M, up, em = int(S["mistakes"][p]), float(S["mistakes_upper"][p]), float(S["expected_mistakes"][p])
        notes = _over_notes(_fig(spec, "mistakes", p))
        last = ledger_at(spec, p)[-1]
        cap = caption_at(spec, p)
        assert format(up, ".4g") in last["latex"] and format(em, ".4g") in last["latex"]  # M against the bound
        assert "the theorem bounds the expectation E[Mₜ]" in last["reason"]
        if over[p]:
            assert notes == [f"Mₜ = {M} > {up:.4g}, the bound on E[Mₜ]: not a violation<br>(one draw; the theorem "
                             f"bounds E[Mₜ] = {em:.4g})"], (p, notes)
            assert "not a violation" in last["latex"] and last["holds"] is None
        else:
            assert notes == [] and "not a violation" not in last["latex"], p
        if p:   # the caption states M against E[M] and its bound at every step (the note is on the chart)
            assert f"M = {M}; expected E[M] = {em:.2f}, whose bound at round {p} is {up:.2f}." in cap


def test_realised_count_above_the_bound_is_said_to_be_no_violation(run):
    """The theorem bounds E[M]; where this seed's Mₜ is above the bound on E[Mₜ] the chart and the ledger say (at
    that step only) that it is not a violation, with E[Mₜ] and the bound from the proof; the caption gives both."""
    s, tr, band, sweep, spec = run
    S = tr.proof.series
    over = np.flatnonzero(S["mistakes"] > S["mistakes_upper"])
    assert over.size and over.size < T                     # this seed runs above the bound, briefly
    _check_over_bound_statements(spec, tr, sorted({0, 1, 2, 57, T, *over.tolist(), *(over + 1).tolist()}))
    legend = [t["name"] for t in _fig(spec, "mistakes", 0)["data"] if t.get("showlegend", True)]
    assert f"realised Mₜ (seed {SEED}): one draw; E[Mₜ] is bounded" in legend
    assert "bound on E[Mₜ]: min Σℓₛ(u) + √t(1/(2α) + αLₜ²)" in legend


def test_realised_count_above_the_bound_late_in_the_run_and_at_T():
    """The page's default stream, learner seed 2: Mₜ is above the bound in the second half and at T (92 > 91.09)."""
    s = olc_core.streams.separable(T=300, d=2, gamma=0.1, radius=1.0, seed=0, noise=0.0)
    tr = olc_core.run("ftrl_randomized", s.X, s.y, eta=math.sqrt(2), seed=2)
    spec = ftrl_spec(tr, s.X, s.y, run_id="late")
    validate_spec(spec)
    S = tr.proof.series
    over = np.flatnonzero(S["mistakes"] > S["mistakes_upper"])
    assert over.min() > 150 and over.max() == 300 and tr.n_mistakes > tr.proof.mistake_bound
    _check_over_bound_statements(spec, tr, sorted({0, 100, 241, *over.tolist()}))
    [late] = [t for t in _fig(spec, "mistakes", 300)["data"] if t.get("name") == "realised Mₜ above the bound on E[Mₜ]"]
    assert late["textposition"] == "top left"              # near the right edge: the note reads leftwards
