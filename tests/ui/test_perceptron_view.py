"""The Perceptron lessons' viewer specs, tested as data: what a student sees at a round is the run's."""
from __future__ import annotations

import math

import numpy as np
import pytest

import olc_core
from olc_ui.lessons.margin_perceptron.view import margin_perceptron_spec
from olc_ui.lessons.perceptron.view import clip_line, perceptron_spec
from olc_ui.viewer.snapshot import caption_at, figures_at, ledger_at, state_index
from olc_ui.viewer.spec import validate_spec



def _by_name(fig: dict, name: str) -> dict:
    hits = [t for t in fig["data"] if t.get("name") == name]
    assert hits, f"no trace named {name!r} in {[t.get('name') for t in fig['data']]}"
    return hits[0]


@pytest.fixture(scope="module")
def separable():
    s = olc_core.streams.separable(T=300, d=2, gamma=0.05, radius=1.0, seed=2)
    tr = olc_core.run("perceptron", s.X, s.y, comparator=s.comparator)
    return s, tr, perceptron_spec(tr, s.X, s.y, run_id="t")


def test_spec_is_valid_and_follows_the_run(separable):
    s, tr, spec = separable
    validate_spec(spec)
    assert spec["T"] == 300
    assert spec["mistake_rounds"] == tr.mistakes.tolist()
    assert spec["breaks"] == (tr.mistakes + 1).tolist()
    assert [f["id"] for f in spec["figures"]] == ["main", "sandwich_A", "sandwich_B"]


def test_main_chart_at_every_mistake_shows_the_update(separable):
    s, tr, spec = separable
    for m in tr.mistakes[:6]:
        p = int(m) + 1                         # just after the mistake on round m
        main = figures_at(spec, p)[0]
        w_before, w_after = tr.weights_at(p - 1), tr.weights_at(p)
        # the learner's hyperplane is w·x = 0 for the weights after the update
        hp = _by_name(main, "w·x = 0 (the learner)")
        direction = np.array([hp["x"][1] - hp["x"][0], hp["y"][1] - hp["y"][0]])
        assert abs(direction @ w_after) <= 1e-3 * np.linalg.norm(direction) * np.linalg.norm(w_after)
        # the arrows: w_t, then y_t x_t from its tip, ending at w_{t+1} (all scaled by one factor)
        a0 = _by_name(main, "wₜ (before)")
        a1 = _by_name(main, "yₜ·xₜ (the update)")
        a2 = _by_name(main, "wₜ₊₁ (after)")
        if np.linalg.norm(w_before) > 0:
            tip_before = np.array([a0["x"][1], a0["y"][1]])
        else:  # w = 0: no wₜ arrow (an arrowhead alone at the origin), yₜ·xₜ starts at the origin
            assert a0["x"] == [] and a0["y"] == []
            tip_before = np.zeros(2)
        assert np.allclose([a1["x"][0], a1["y"][0]], tip_before, atol=1e-4)
        assert np.allclose([a1["x"][1], a1["y"][1]], [a2["x"][1], a2["y"][1]], atol=1e-4)
        n_after = np.linalg.norm(w_after)
        scale = math.hypot(a2["x"][1], a2["y"][1]) / n_after
        assert np.allclose(np.array([a2["x"][1], a2["y"][1]]) / scale, w_after, atol=1e-3 / scale)
        if np.linalg.norm(w_before) > 0:
            assert np.allclose(tip_before / scale, w_before, atol=1e-3 / scale)
        # the current example is the one of round m, drawn with its label
        cur = _by_name(main, "current, y = +1" if s.y[m] > 0 else "current, y = −1")
        assert np.allclose([cur["x"][0], cur["y"][0]], s.X[m], atol=1e-4)


def test_no_update_arrows_on_a_correct_round(separable):
    s, tr, spec = separable
    correct = next(t for t in range(tr.T) if t not in set(tr.mistakes.tolist()))
    main = figures_at(spec, correct + 1)[0]
    assert _by_name(main, "yₜ·xₜ (the update)")["x"] == []


def test_seen_points_are_exactly_the_earlier_rounds(separable):
    s, tr, spec = separable
    p = 120
    main = figures_at(spec, p)[0]
    seen = len(_by_name(main, "seen, y = +1")["x"]) + len(_by_name(main, "seen, y = −1")["x"])
    assert seen == p - 1                       # rounds 1 … p-1; round p is the current one
    ringed = _by_name(main, "mistake rounds so far")
    assert len(ringed["x"]) == int(np.sum(tr.mistakes < p - 1))


def test_sandwich_markers_and_ledger_are_the_proofs_numbers(separable):
    s, tr, spec = separable
    proof = tr.proof
    for p in (0, int(tr.mistakes[2]) + 1, tr.T):
        k = state_index(spec, p)
        assert k == tr.mistakes_before(p)
        figA = figures_at(spec, p)[1]
        markers = [t for t in figA["data"] if t.get("mode", "").startswith("markers") and t["x"] and t.get("meta") != "crossing"]
        got = sorted(round(t["y"][0], 4) for t in markers)
        want = sorted(round(float(proof.series[key][k]), 4) for key in ("M_gamma", "inner", "norm", "sqrtM_R"))
        assert got == pytest.approx(want, abs=1e-4)
        lines = ledger_at(spec, p)
        checks = proof.check_matrix()
        assert lines[0]["holds"] is (not checks["M_gamma ≤ inner"][k])
        assert f"{proof.series['inner'][k]:.4g}" in lines[0]["latex"]
        assert f"{k}" in lines[-1]["latex"] and f"{proof.mistake_bound:.5g}" in lines[-1]["latex"]
    assert "Round 0 of 300" in caption_at(spec, 0)
    m = int(tr.mistakes[1])
    assert "MISTAKE" in caption_at(spec, m + 1) and f"Round {m + 1} of 300" in caption_at(spec, m + 1)


def test_non_separable_run_shows_the_td_proof_and_the_hinge_terms():
    s = olc_core.streams.noisy(T=400, d=2, gamma=0.05, noise=0.1, seed=1)
    tr = olc_core.run("perceptron", s.X, s.y, comparator=s.comparator)
    spec = perceptron_spec(tr, s.X, s.y, run_id="n")
    validate_spec(spec)
    ns = tr.proofs["nonseparable"]
    titles = [f["title"] for f in spec["figures"]]
    assert "TDᵧ proof" in titles[1] and "Hinge-loss proof" in titles[2]
    main = figures_at(spec, 1)[0]
    rings = [t for t in main["data"] if t.get("name", "").startswith("hinge max(0, γ − y⟨w*,x⟩) > 0")]
    assert sum(len(t["x"]) for t in rings) == int(np.sum(np.asarray(ns.constants["hinge"]) > 0))
    assert [t["marker"]["size"] for t in rings] == sorted(t["marker"]["size"] for t in rings)
    lines = ledger_at(spec, tr.T)
    assert f"{ns.mistake_bound:.5g}" in lines[2]["latex"] and lines[2]["holds"] is True


def test_failed_assumption_rounds_are_highlighted_and_no_bound_in_the_ledger():
    s = olc_core.streams.separable(T=200, d=2, gamma=0.05, radius=1.0, seed=0)
    tr = olc_core.run("perceptron", s.X, s.y, comparator=s.comparator, gamma=0.3)
    spec = perceptron_spec(tr, s.X, s.y, run_id="g", use="separable")
    main = figures_at(spec, 0)[0]
    bad = _by_name(main, "rounds where the assumption fails")
    assert len(bad["x"]) == len(tr.proof.failed_assumptions[0].rounds)
    assert np.allclose(np.c_[bad["x"], bad["y"]], s.X[tr.proof.failed_assumptions[0].rounds], atol=1e-4)
    assert "does not apply" in ledger_at(spec, 0)[-1]["latex"]


def test_three_d_and_bars():
    s = olc_core.streams.separable(T=80, d=3, gamma=0.1, seed=0)
    tr = olc_core.run("perceptron", s.X, s.y, comparator=s.comparator)
    spec = perceptron_spec(tr, s.X, s.y, run_id="3")
    validate_spec(spec)
    main = figures_at(spec, int(tr.mistakes[0]) + 1)[0]
    plane = _by_name(main, "w·x = 0 (the learner)")
    corners = np.array([plane["x"], plane["y"], plane["z"]]).T
    w = tr.weights_at(int(tr.mistakes[0]) + 1)
    assert np.abs(corners @ w).max() <= 1e-3 * np.linalg.norm(w) * np.abs(corners).max()
    t = olc_core.streams.tight_perceptron(12)
    tt = olc_core.run("perceptron", t.X, t.y, comparator=t.comparator)
    spec = perceptron_spec(tt, t.X, t.y, run_id="b")
    bars = figures_at(spec, 5)[0]["data"][0]
    assert bars["type"] == "bar" and bars["y"] == pytest.approx(tt.weights_at(5).tolist())


def test_margin_perceptron_spec_band_and_margin_mistakes():
    s = olc_core.streams.separable(T=50, d=2, gamma=0.2, seed=3)
    tr = olc_core.run("margin_perceptron", s.X, s.y, gamma=0.2, comparator=s.comparator, passes=None)
    spec = margin_perceptron_spec(tr, run_id="m")
    validate_spec(spec)
    kind = np.asarray(tr.columns["kind"])
    mm = np.flatnonzero(kind == 1)
    assert spec["extra_stops"]["margin mistake"] == mm.tolist()
    p = int(tr.mistakes[-1]) + 1
    main = figures_at(spec, p)[0]
    band = _by_name(main, "band ±γ/2 around w·x = 0")
    assert len(band["x"]) == 5                       # a closed polygon
    marks = _by_name(main, "margin mistakes so far")
    assert len(marks["x"]) == int(np.sum(mm < p - 1))
    assert ledger_at(spec, tr.T)[-1]["holds"] is True


def test_clip_line_stays_in_the_view():
    rng = np.random.default_rng(0)
    for _ in range(200):
        w = rng.standard_normal(2)
        L = float(rng.uniform(0.5, 3))
        seg = clip_line(w, L)
        pts = np.array(seg).T
        assert np.all(np.abs(pts) <= L + 1e-5)  # coordinates are rounded to 5 decimals
        assert np.abs(pts @ w).max() <= 1e-4 * np.linalg.norm(w) * L
        assert np.linalg.norm(pts[1] - pts[0]) >= L * 2 * 0.999    # a full chord through the origin


def test_td_ledger_and_sandwich_move_on_rounds_without_a_mistake():
    # the TD_γ shown is the one checked: it grows on a correct round inside the margin band
    s = olc_core.streams.noisy(T=400, d=2, gamma=0.05, noise=0.1, seed=1)
    tr = olc_core.run("perceptron", s.X, s.y, comparator=s.comparator)
    ns = tr.proofs["nonseparable"]
    spec = perceptron_spec(tr, s.X, s.y, run_id="n")
    hinge = np.asarray(ns.constants["hinge"])
    is_m = np.zeros(tr.T, bool)
    is_m[tr.mistakes] = True
    t = int(np.flatnonzero((hinge > 0) & ~is_m)[0])          # a correct round with a positive hinge term
    before, after = ledger_at(spec, t), ledger_at(spec, t + 1)  # position p: after p rounds
    td_b, td_a = (float(np.sum(hinge[:p])) for p in (t, t + 1))
    assert td_a > td_b
    assert f"{td_b:.4g}" in before[0]["latex"] and f"{td_a:.4g}" in after[0]["latex"]
    assert before[0]["holds"] is True and after[0]["holds"] is True
    # position t + 1 is "Round t + 1" on screen: its TD_γ sums rounds 1 … t + 1, that round included (a student read
    # "the rounds before this one" at round 200 against a value that held round 200's term)
    assert "TD_γ so far: rounds 1 to this one" in after[0]["reason"]
    assert "L(u) so far: rounds 1 to this one" in after[3]["reason"]
    sand = figures_at(spec, t + 1)[1]
    lower_now = _by_name(sand, "γM − TDᵧ so far now")
    assert lower_now["x"] == [int(np.sum(tr.mistakes < t + 1))]
    assert lower_now["y"][0] == pytest.approx(ns.constants["gamma"] * lower_now["x"][0] - td_a, abs=1e-4)


def test_td_curve_spans_gamma_up_to_R_and_marks_the_best():
    s = olc_core.streams.noisy(T=300, d=2, gamma=0.1, noise=0.1, seed=3, radius=2.0)
    tr = olc_core.run("perceptron", s.X, s.y, comparator=s.comparator)
    ns = tr.proofs["nonseparable"]
    R = ns.constants["radius"]
    fig = next(f for f in perceptron_spec(tr, s.X, s.y, run_id="c")["figures"] if f["id"] == "td_curve")
    curve = fig["figure"]["data"][0]
    assert max(curve["x"]) == pytest.approx(R, rel=1e-6) and min(curve["x"]) > 0
    best = next(t for t in fig["figure"]["data"] if t["name"].startswith("best γ"))
    assert 0 < best["x"][0] <= R and best["y"][0] == pytest.approx(ns.constants["best_bound"])
    assert min(v for v in curve["y"] if v is not None) >= ns.constants["best_bound"] * (1 - 1e-6)


def test_margin_sandwich_note_names_where_the_curves_really_cross():
    # Uγ and 1 + 2/γ + 3Uγ/4 meet at U = 4/γ + 8/γ², not at the looser 12/γ²
    s = olc_core.streams.separable(T=50, d=2, gamma=0.2, seed=3)
    tr = olc_core.run("margin_perceptron", s.X, s.y, gamma=0.2, comparator=s.comparator, passes=None)
    spec = margin_perceptron_spec(tr, run_id="m")
    [sand] = [f for f in spec["figures"] if f["id"] == "sandwich_A"]
    g = 0.2
    cross = 4 / g + 8 / g ** 2
    lo = g * cross
    hi = 1 + 2 / g + 0.75 * g * cross
    assert lo == pytest.approx(hi)                           # the crossing really is there
    [pt] = [t for t in sand["figure"]["data"] if t.get("meta") == "crossing"]
    assert pt["x"] == [pytest.approx(cross)] and pt["y"] == [pytest.approx(lo)]
    assert f"U = {cross:.5g}" in pt["name"]
    assert f"U = 4/γ + 8/γ² = {cross:.5g}; as γ ≤ 1, that is ≤ 12/γ² = {12 / g ** 2:.5g} (dotted)" in \
        sand["figure"]["layout"]["annotations"][-1]["text"].replace("<br>", " ")
    stated = _by_name(sand["figure"], "12/γ²")                # the stated, looser bound: a dotted line
    assert stated["x"] == [pytest.approx(12 / g ** 2)] * 2
    # the Perceptron's A sandwich: Mγ and √M·R do cross at R²/γ², drawn as a point of the chart
    s2 = olc_core.streams.separable(T=60, d=2, gamma=0.05, seed=0)
    tr2 = olc_core.run("perceptron", s2.X, s2.y, comparator=s2.comparator)
    a = [f for f in perceptron_spec(tr2, s2.X, s2.y, run_id="p")["figures"] if f["id"] == "sandwich_A"][0]
    b = tr2.proof.mistake_bound
    [pt] = [t for t in a["figure"]["data"] if t.get("meta") == "crossing"]
    assert pt["x"] == [pytest.approx(b)] and f"R²/γ² = {b:.5g}" in pt["name"]


def test_every_arrow_on_the_main_chart_is_named_in_the_legend_in_its_own_colour():
    s = olc_core.streams.noisy(T=200, d=2, gamma=0.1, noise=0.1, seed=3)
    tr = olc_core.run("perceptron", s.X, s.y, comparator=s.comparator)
    main = perceptron_spec(tr, s.X, s.y, run_id="n")["figures"][0]
    data = main["figure"]["data"]
    arrows = [t for t in data if str(t.get("marker", {}).get("symbol", "")).startswith("arrow")]
    assert len(arrows) == 5
    colours = [t["line"]["color"] for t in arrows]
    assert len(set(colours)) == len(colours)
    names = [t["name"] for t in arrows]
    assert "w* (its direction; not to scale)" in names and any(n == "w" or n == "w (arrows scaled to fit)" for n in names)
    # every arrow belongs to a legend entry that names it (the update's three by their line styles)
    entries = {t["legendgroup"]: t["name"] for t in data if t.get("showlegend") and t.get("legendgroup")}
    for t in arrows:
        assert t["legendgroup"] in entries
    assert entries["update"] == "at a mistake: wₜ (dotted) + yₜ·xₜ (solid) = wₜ₊₁ (dashed)"
    g = tr.proofs["nonseparable"].constants["gamma"]                    # the band is the TD_γ's, and says so
    assert any(t["name"] == f"margin band |⟨w*,x⟩| < γ = {g:.3g}" for t in data)
    assert f"band |⟨w*,x⟩| < γ = {g:.3g}" in entries["comparator"]


def test_the_caption_says_reduced_scale_on_every_round_whose_arrows_are_shortened():
    """The weights after a round are drawn shortened too (state k = the mistakes up to it), not only the update's
    arrows on a mistake: a student read "w" drawn 0.97 long for ‖w‖ = 1.427 with no note in the caption."""
    from olc_ui.shared.plane_view import _scale_per_round
    mistakes = np.array([0, 3])
    assert _scale_per_round(mistakes, {"update": [1.0, 1.0], "state": [1.0, 1.0, 0.5]}, 5).tolist() == [0, 0, 0, 1, 1]
    assert _scale_per_round(mistakes, {"update": [0.5, 1.0], "state": [1.0, 1.0, 1.0]}, 5).tolist() == [1, 0, 0, 0, 0]
    for T, seed, gamma, shortened in ((300, 2, 0.05, True), (200, 3, 0.1, False)):  # ‖w‖ 1.98 drawn 1.01; 0.496
        s = olc_core.streams.separable(T=T, d=2, gamma=gamma, radius=1.0, seed=seed)
        tr = olc_core.run("perceptron", s.X, s.y, comparator=s.comparator)
        spec = perceptron_spec(tr, s.X, s.y, run_id="x")
        flags = spec["caption"]["values"]["scale"]["data"]
        k = len(tr.mistakes)
        drawn = math.hypot(spec["arrays"]["w_x"][k][1], spec["arrays"]["w_y"][k][1])
        assert (drawn < np.linalg.norm(np.asarray(tr.weights_at(tr.T))) * 0.999) == shortened
        assert flags[-1] == int(shortened) and tr.T - 1 not in set(tr.mistakes.tolist())   # not a mistake round
        assert caption_at(spec, tr.T).endswith(" (arrows drawn at reduced scale).") == shortened
