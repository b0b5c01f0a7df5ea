"""The exponentiated-update lesson's spec builders, tested as data: numbers from the run, the sandwich drawn to
its crossing (M = ln N / C) with the region beyond shaded, an inset when the crossing is far, the trajectory
revealed state by state, ties shown as 0, assumptions failing → no bound; the upload checks of the lesson."""
from __future__ import annotations

import math

import numpy as np
import pytest

import olc_core
from olc_core.proofs.normalized_winnow import C_of
from olc_ui.shared import data as olc_data
from olc_ui.lessons.exponentiated_update.lesson import OutsideBox, assumption_rows, load_data, unit_box_problem
from olc_ui.lessons.exponentiated_update.view import eg_spec, eta_curve, sandwich_geometry
from olc_ui.viewer.snapshot import caption_at, figures_at, ledger_at
from olc_ui.viewer.spec import validate_spec


def _sparse(T=300, N=20, k=3, noise=0.0, seed=0, eta=None):
    s = olc_core.streams.sparse_simplex(T=T, N=N, k=k, seed=seed, noise=noise)
    tr = olc_core.run("normalized_winnow", s.X, s.y, comparator=s.comparator, delta=s.info["delta"], eta=eta)
    return s, tr


def _fig(spec, fid):
    return next(f for f in spec["figures"] if f["id"] == fid)


def _trace(fig, name):
    return next(t for t in fig["data"] if t.get("name") == name)


@pytest.fixture(scope="module")
def default():
    s, tr = _sparse()
    spec = eg_spec(tr, s.X, s.y, run_id="t")
    validate_spec(spec)
    return s, tr, spec


def test_spec_shape_and_stops(default):
    s, tr, spec = default
    assert [f["id"] for f in spec["figures"]] == ["weights", "margins", "sandwich", "eta"]
    assert spec["mistake_rounds"] == tr.mistakes.tolist()
    assert spec["breaks"] == (tr.mistakes + 1).tolist()
    assert spec["T"] == tr.T == 300


def test_sandwich_is_drawn_to_its_crossing_and_beyond_is_shaded(default):
    s, tr, spec = default
    p = tr.proof
    fig = _fig(spec, "sandwich")["figure"]
    bound = p.mistake_bound
    # the crossing point M = ln N / C (the proof's bound) is in the figure's data, at Φ = 0
    cross = next(t for t in fig["data"] if t.get("meta") == "crossing")
    assert cross["x"][0] == pytest.approx(bound, rel=1e-5) and cross["y"] == [0.0]
    up = _trace(fig, "ln N − C·M")
    assert up["x"][0] == 0 and up["y"][0] == pytest.approx(p.constants["ln_N"], rel=1e-5)
    assert up["x"][-1] == pytest.approx(bound, rel=1e-5) and up["y"][-1] == pytest.approx(0.0, abs=1e-5)
    phi1 = _trace(fig, "Φ₁ − C·M")
    assert phi1["y"][0] == pytest.approx(p.constants["phi_1"], rel=1e-5)
    assert phi1["x"][-1] == pytest.approx(p.constants["bound_phi1"], rel=1e-5)
    # the region beyond the crossing is shaded, and the axis reaches past it
    [shade] = [sh for sh in fig["layout"]["shapes"] if sh.get("fillcolor", "").startswith("rgba(214")]
    assert shade["x0"] == pytest.approx(bound, rel=1e-5) and shade["x1"] == fig["layout"]["xaxis"]["range"][1]
    assert fig["layout"]["xaxis"]["range"][1] > bound
    assert "xaxis2" not in fig["layout"]  # 16 mistakes, bound 53: no inset needed
    text = " ".join(a["text"] for a in fig["layout"]["annotations"])
    assert f"{bound:.4g}" in text and f"{p.constants['bound_2lnN_over_delta2']:.4g}" in text


def _phi_path(spec, p, name="Φ = KL(u‖w), the run"):
    fig = figures_at(spec, p)[2]
    pts = [(x, y) for x, y in zip(_trace(fig, name)["x"], _trace(fig, name)["y"]) if x is not None]
    seg = _trace(fig, "the last mistake's drop")
    return pts, list(zip(seg["x"], seg["y"])), _trace(fig, "Φ now")


def test_trajectory_is_revealed_state_by_state():
    # the hand-worked example of the core: a mistake at round 0 (1-based round 1), then none
    X = np.array([[1.0, -1.0], [1.0, 1.0], [-1.0, 0.5], [-1.0, 1.0]])
    y = np.array([1, 1, -1, -1])
    tr = olc_core.run("normalized_winnow", X, y, comparator=[0.8, 0.2])
    spec = eg_spec(tr, X, y, run_id="hand")
    validate_spec(spec)
    kl = tr.proof.series["kl"]
    pts, seg, now = _phi_path(spec, 0)
    assert pts == [] and seg == [] and now["x"] == [0] and now["y"][0] == pytest.approx(kl[0], rel=1e-6)
    pts, seg, now = _phi_path(spec, 1)                      # after the mistake: the drop is drawn
    assert [s[0] for s in seg] == [0, 1] and seg[1][1] == pytest.approx(kl[1], abs=1e-9)
    assert now["x"] == [1]
    for p in (2, 4):                                         # later: the whole path so far
        pts, seg, now = _phi_path(spec, p)
        assert [x for x, _ in pts] == [0, 1] and seg == []
    # a longer run: at every position the path holds exactly the states in force
    s, tr = _sparse(T=120)
    spec = eg_spec(tr, s.X, s.y, run_id="long")
    for p in range(0, 121, 7):
        pts, seg, now = _phi_path(spec, p)
        k = tr.mistakes_before(p)
        shown = sorted({x for x, _ in pts} | {x for x, _ in seg})
        assert shown == (list(range(k + 1)) if p >= 1 and (pts or seg) else [])
        assert now["x"] == [k] and now["y"][0] == pytest.approx(tr.proof.series["kl"][k], rel=1e-6)


def test_ledger_numbers_come_from_the_proof(default):
    s, tr, spec = default
    p = tr.proof
    t = int(tr.mistakes[5]) + 1
    k = tr.mistakes_before(t)
    rows = ledger_at(spec, t)
    assert all(r["holds"] is True for r in rows)
    tex = " ".join(r["latex"] for r in rows)
    for v in (p.series["kl"][k], p.series["kl_upper"][k], p.series["lnN_upper"][k], p.series["kl_drop"][k],
              p.series["log_Z"][k], p.constants["C"], p.mistake_bound, p.constants["bound_2lnN_over_delta2"]):
        assert f"{v:.5g}" in tex, v
    assert rows[-1]["latex"].startswith(f"M = {k} ")
    # before any mistake the per-mistake links are not defined yet: "—", not ✓ or ✗
    assert [r["holds"] for r in ledger_at(spec, 0)][3:6] == [None, None, None]


def test_a_tie_is_shown_as_a_score_of_zero_and_a_mistake(default):
    s, tr, spec = default
    score = np.asarray(tr.columns["score"])
    ties = np.flatnonzero(score == 0.0)
    assert ties.size >= 1, "the default stream has exact ties (η = ½ ln 2, ±1 features)"
    t = int(ties[0])
    assert t in tr.mistakes.tolist()
    cap = caption_at(spec, t + 1)
    assert "score ⟨wₜ, xₜ⟩ = 0 —" in cap and "a score of exactly 0 counts as a MISTAKE" in cap
    assert spec["caption"]["values"]["s"]["data"][t] == 0.0
    # the margins chart plots it at exactly 0, among the mistakes
    assert spec["arrays"]["mg_w"][t] == 0.0
    fig = figures_at(spec, t + 1)[1]
    cur = _trace(fig, "this round")
    assert cur["x"] == [t + 1] and cur["y"] == [0.0]
    later = figures_at(spec, t + 2)[1]
    assert (t + 1, 0.0) in list(zip(_trace(later, "learner, mistake (≤ 0)")["x"], _trace(later, "learner, mistake (≤ 0)")["y"]))


def test_far_crossing_gets_an_inset_and_keeps_the_crossing():
    s, tr = _sparse(T=600, N=100, k=9)
    g = sandwich_geometry(tr.proof)
    assert g["far"] and g["crossing"][0] == tr.proof.mistake_bound
    spec = eg_spec(tr, s.X, s.y, run_id="far")
    validate_spec(spec)
    fig = _fig(spec, "sandwich")["figure"]
    assert fig["layout"]["xaxis2"]["range"][1] == pytest.approx(tr.n_mistakes * 1.15, rel=1e-3)
    assert fig["layout"]["xaxis"]["range"][1] > tr.proof.mistake_bound
    assert next(t for t in fig["data"] if t.get("meta") == "crossing")["x"][0] == pytest.approx(tr.proof.mistake_bound, rel=1e-5)
    inset = [t for t in fig["data"] if t.get("xaxis") == "x2"]
    assert inset and any(t["name"].startswith("Φ now") for t in inset)
    # both the main and the inset markers follow the run
    at = figures_at(spec, 300)[2]
    k = tr.mistakes_before(300)
    nows = [t for t in at["data"] if t["name"].startswith("Φ now")]
    assert len(nows) == 2 and all(t["x"] == [k] for t in nows)


def test_failing_margin_gives_no_bound_and_no_shading():
    s, tr = _sparse(noise=0.05)
    p = tr.proof
    assert p.mistake_bound is None and not p.applies
    spec = eg_spec(tr, s.X, s.y, run_id="noisy")
    validate_spec(spec)
    fig = _fig(spec, "sandwich")["figure"]
    assert not [sh for sh in fig["layout"]["shapes"] if sh.get("fillcolor", "").startswith("rgba(214")]
    assert "not a bound here" in " ".join(a["text"] for a in fig["layout"]["annotations"])
    last = ledger_at(spec, tr.T)
    assert "n/a" in last[-1]["latex"] and last[-1]["holds"] is None
    assert "below δ" in last[-1]["reason"]
    # the margin link fails (✗) after a mistake on a flipped round, and only the links of the proof are checked
    bad = [t for t in tr.mistakes if s.info["flipped"][t]]
    assert bad
    row = ledger_at(spec, int(bad[0]) + 1)[5]
    assert row["latex"].startswith(r"\delta") and row["holds"] is False
    rows = assumption_rows(tr, s.X)
    assert [r["holds"] for r in rows][:3] == [True, True, False]


def test_too_large_eta_has_no_crossing():
    s, tr = _sparse(eta=2.0)
    assert tr.proof.constants["C"] < 0 and tr.proof.mistake_bound is None
    g = sandwich_geometry(tr.proof)
    assert g["crossing"] is None
    spec = eg_spec(tr, s.X, s.y, run_id="eta2")
    validate_spec(spec)
    fig = _fig(spec, "sandwich")["figure"]
    assert "no crossing" in " ".join(a["text"] for a in fig["layout"]["annotations"])
    assert [r["holds"] for r in assumption_rows(tr, s.X)][3] is False


def test_eta_curve_marks_the_optimum_and_the_run(default):
    s, tr, spec = default
    c = tr.proof.constants
    cur = eta_curve(tr.proof)
    assert cur["eta_opt"] == c["eta_optimal"] == pytest.approx(0.5 * math.log(2.0))
    assert cur["C_opt"] == pytest.approx(c["C"]) and cur["C_opt"] >= max(cur["C"]) - 1e-12
    fig = _fig(spec, "eta")["figure"]
    opt = next(t for t in fig["data"] if t["name"].startswith("optimum η*"))
    assert opt["x"] == [pytest.approx(c["eta_optimal"])] and opt["y"] == [pytest.approx(C_of(c["eta_optimal"], c["delta"]))]
    run = next(t for t in fig["data"] if t["name"].startswith("this run"))
    assert run["x"] == [pytest.approx(c["eta"])] and run["y"] == [pytest.approx(c["C"])]


def test_weights_bars_are_the_run_weights(default):
    s, tr, spec = default
    t = int(tr.mistakes[2]) + 1
    bars = figures_at(spec, t)[0]["data"][0]
    assert np.asarray(bars["y"]) == pytest.approx(tr.weights_at(t), rel=1e-4)
    assert sum(bars["y"]) == pytest.approx(1.0, abs=1e-3)
    ut = _fig(spec, "weights")["figure"]["data"][1]
    u = np.asarray(tr.info["comparator"])
    assert ut["x"] == (np.flatnonzero(u > 0) + 1).tolist() and np.asarray(ut["y"]) == pytest.approx(u[u > 0], rel=1e-4)


# ------------------------------------------------------------------------------------------ uploads

def test_an_entry_outside_the_unit_box_is_named_by_its_row():
    X = np.array([[0.5, -0.2], [0.1, 1.5], [2.0, 0.0]])
    msg = unit_box_problem(X, header=1)
    assert msg.startswith("row 3 has x2 = 1.5, outside [−1, 1]") and "2 rows" in msg
    assert unit_box_problem(X, header=0).startswith("row 2 has x2 = 1.5")
    assert unit_box_problem(np.clip(X, -1, 1), header=1) is None


def test_upload_outside_the_box_is_refused_with_the_row():
    raw = b"x1,x2,x3,label\n0.5,-1,0.25,1\n0.2,0.3,-1.75,-1\n"
    with pytest.raises(OutsideBox) as e:
        load_data({"data": "upload"}, raw)
    assert str(e.value).startswith("row 3 has x3 = -1.75, outside [−1, 1]")
    rows = assumption_rows(None, e.value.X, "outside")
    assert [r["holds"] for r in rows] == [False, None, None]
    with pytest.raises(OutsideBox) as e:               # no header: the data start on row 1
        load_data({"data": "upload"}, b"0.5,-1,0.25,1\n0.2,3,-1,-1\n")
    assert str(e.value).startswith("row 2 has x2 = 3")


def test_upload_in_the_box_runs():
    raw = b"x1,x2,x3,label\n1,-1,0.5,1\n-1,1,0.5,-1\n1,0.2,-0.5,1\n"
    d = load_data({"data": "upload"}, raw)
    assert d.X.shape == (3, 3) and d.comparator is None and d.delta is None
    with pytest.raises(olc_data.DataError, match="at most 100"):
        load_data({"data": "upload"}, (",".join(["0"] * 150) + ",1\n").encode())


def test_margins_reveal_the_comparator_as_the_student_steps_and_keep_delta_visible(default):
    s, tr, spec = default
    T = tr.T
    i = [f["id"] for f in spec["figures"]].index("margins")
    um = tr.columns["comparator_margin"]
    for p in (0, 1, 50, T):
        fig = figures_at(spec, p)[i]
        u = _trace(fig, "y⟨u, x⟩ (comparator), rounds so far")
        assert list(u["x"]) == list(range(1, p))            # the rounds before this one, as the learner's
        assert u["y"] == pytest.approx([float(v) for v in um[: max(p - 1, 0)]], abs=1e-4)
        assert u["marker"]["symbol"] == "diamond-open"      # hollow: the δ line shows through
    names = [t.get("name") for t in fig["data"]]
    d = names.index(f"δ = {tr.proof.constants['delta']:.4g}")
    assert d > names.index("y⟨u, x⟩ (comparator), rounds so far")  # δ drawn on top of the comparator
    assert d > names.index("y⟨wₜ, xₜ⟩ learner, correct")
    lo, hi = fig["layout"]["xaxis"]["range"]
    assert lo <= 1 - 0.015 * T and hi >= T + 0.015 * T           # round 1's and round T's points are whole


def _note_box(fig, width_px=460):
    """The crossing note's box in paper coordinates (estimated: 7.5 px a character, 18 px a line)."""
    lay = fig["layout"]
    [a] = [a for a in lay["annotations"] if "no run gets past" in a["text"]]
    ax = a["x"]
    if a["xref"] == "x":
        xr = lay["xaxis"]["range"]
        ax = (ax - xr[0]) / (xr[1] - xr[0])
    assert a["yref"] == "paper"
    fig_height = 420 - lay["margin"]["t"] - lay["margin"]["b"]
    lines = a["text"].split("<br>")
    w = max(len(s) for s in lines) * 7.5 / width_px
    h = len(lines) * 18 / fig_height
    x1 = ax if a["xanchor"] == "right" else ax + w
    y1 = a["y"] if a["yanchor"] == "top" else a["y"] + h
    return x1 - w, x1, y1 - h, y1


@pytest.mark.parametrize("far", [False, True])
def test_the_crossing_note_covers_no_curve(default, far):
    if far:
        s, tr = _sparse(T=600, N=100, k=9)
        spec = eg_spec(tr, s.X, s.y, run_id="far")
    else:
        s, tr, spec = default
    fig = figures_at(spec, tr.T)[2]
    x0, x1, y0, y1 = _note_box(fig)
    xr, yr = fig["layout"]["xaxis"]["range"], fig["layout"]["yaxis"]["range"]
    for t in fig["data"]:
        if t.get("xaxis") == "x2" or not t.get("x"):
            continue
        pts = [(x, y) for x, y in zip(t["x"], t["y"]) if x is not None and y is not None]
        # each drawn segment, sampled, in paper coordinates
        for (xa, ya), (xb, yb) in zip(pts, pts[1:] or pts):
            for f in np.linspace(0, 1, 200):
                px = ((xa + f * (xb - xa)) - xr[0]) / (xr[1] - xr[0])
                py = ((ya + f * (yb - ya)) - yr[0]) / (yr[1] - yr[0])
                assert not (x0 <= px <= x1 and y0 <= py <= y1), (t["name"], px, py, (x0, x1, y0, y1))


def test_eta_chart_shows_both_markers_when_the_run_uses_the_optimum(default):
    """η = η* (the default): the run's marker is a ring drawn over the star, wider than it — both visible."""
    s, tr, spec = default
    c = tr.proof.constants
    assert c["eta"] == pytest.approx(c["eta_optimal"])
    data = _fig(spec, "eta")["figure"]["data"]
    names = [t["name"] for t in data]
    i_run = next(i for i, n in enumerate(names) if n.startswith("this run"))
    i_opt = next(i for i, n in enumerate(names) if n.startswith("optimum η*"))
    run, opt = data[i_run]["marker"], data[i_opt]["marker"]
    assert i_run > i_opt                                     # drawn on top
    assert run["symbol"] == "circle-open" and run["size"] >= opt["size"] + 6


def test_noisy_labels_show_the_margin_steps_as_not_applicable():
    s, tr = _sparse(T=500, N=50, k=3, noise=0.1)
    spec = eg_spec(tr, s.X, s.y, run_id="noisy")
    validate_spec(spec)
    [a] = tr.proof.failed_assumptions
    assert a.name == "margin" and a.rounds.size
    rows = ledger_at(spec, tr.T)
    first = ", ".join(str(int(r) + 1) for r in a.rounds[:3])
    na = [r for r in rows if r.get("na")]
    # Φ ≤ Φ₁ − CM, the per-mistake decrease, and the bound
    assert len(na) == 3 and all(r["holds"] is None for r in na)
    for r in na[:-1]:
        assert r["reason"].startswith(f"n/a — needs a margin y⟨u, x⟩ ≥ δ on every round (fails at rounds {first}")
    live = [r for r in rows if not r.get("na")]   # Φ ≥ 0, Φ₁ ≤ ln N, ln Z ≤ ln cosh η, δ²/2 ≤ C: any data
    margin = live.pop(3)                          # the assumption itself, checked at the last mistake
    assert margin["latex"].startswith(r"\delta =") and margin["holds"] is not None
    assert len(live) == 4 and all(r["holds"] is True for r in live)
    s, tr = _sparse(T=500, N=50, k=3)
    clean = ledger_at(eg_spec(tr, s.X, s.y, run_id="clean"), 500)
    assert not any(r.get("na") for r in clean[:-1]) and all(r["holds"] for r in clean)


#: the room the zoom's tick labels take left of and under its axes, in paper units (the test's own, not the view's)
_TICKS_X, _TICKS_Y = 0.07, 0.1
#: the plot area's width of the sandwich in presentation mode at 1100 px (a 462 px chart, 62 + 12 px margins)
_PLOT_PX = 388


def zoom_clear_of_curves(fig) -> None:
    """The zoom's whole box — its axes, its tick labels (left, below) and its title (above its axes, not over its
    own curves) — holds no point of a main-plot curve (each segment sampled finely), stays left of the crossing
    (×) and the shaded area beyond it, and under the legend (which sits above the plot area)."""
    lay = fig["layout"]
    (dx0, dx1), (dy0, dy1) = lay["xaxis2"]["domain"], lay["yaxis2"]["domain"]
    [title] = [a for a in lay["annotations"] if a["text"].startswith("zoom on the run")]
    assert title["yanchor"] == "bottom" and title["y"] >= dy1 and title["xanchor"] == "left" and title["x"] >= dx0 - _TICKS_X
    x0, x1, y0, y1 = dx0 - _TICKS_X, dx1 + 0.01, dy0 - _TICKS_Y, title["y"] + 0.08   # 0.08: one line of title
    assert y1 <= 1.0 and lay["legend"]["y"] >= 1.0 and lay["legend"]["yanchor"] == "bottom"
    # the title in presentation mode (16 px, about 0.5 × 16 px a character) on the page's narrowest sandwich
    # (presentation mode's right-hand column: a plot about 380 px wide) ends inside the box
    assert title["x"] + len(title["text"]) * 8 / _PLOT_PX <= x1, title["text"]
    xd = lay["xaxis"].get("domain", [0, 1])
    xr, yr = lay["xaxis"]["range"], lay["yaxis"]["range"]
    seen = 0
    for t in fig["data"]:
        if t.get("xaxis") == "x2" or not t.get("x") or isinstance(t["x"][0], list):
            continue
        xs = np.array([np.nan if v is None else v for v in t["x"]], dtype=float)
        ys = np.array([np.nan if v is None else v for v in t["y"]], dtype=float)
        px = xd[0] + (xd[1] - xd[0]) * (xs - xr[0]) / (xr[1] - xr[0])
        py = (ys - yr[0]) / (yr[1] - yr[0])
        fx = np.concatenate([np.linspace(a, b, 2000) for a, b in zip(px[:-1], px[1:])] or [px])
        fy = np.concatenate([np.linspace(a, b, 2000) for a, b in zip(py[:-1], py[1:])] or [py])
        inside = (fx >= x0) & (fx <= x1) & (fy >= y0) & (fy <= y1)
        assert not inside.any(), (t["name"], fx[inside][:3], fy[inside][:3], (x0, x1, y0, y1))
        seen += np.isfinite(fx).sum() > 0
        if t.get("meta") == "crossing":
            assert x1 < px[0] or x0 >= xd[1]
    assert seen >= 4     # the three bounds, the run, the crossing (at least)


@pytest.mark.parametrize("kind, T, N, k, delta, noise", [
    ("sparse", 600, 100, 9, None, 0.0),          # M = 98, the crossing at 744
    ("sparse", 600, 100, 9, None, 0.02),         # noisy: the crossing is drawn but not proven
    ("continuous", 300, 20, 3, 0.3, 0.0),        # M = 9: unit ticks in the zoom
    ("continuous", 2000, 100, 9, 0.02, 0.0),     # the crossing at 23,000
])
def test_the_zoom_covers_no_curve_no_crossing_and_no_legend(kind, T, N, k, delta, noise):
    """Defect (as on the Compare page): the zoom's tick labels sat on the main plot's ln N − C·M line and its title
    lay over the zoom's own curves. At the end of the run and mid-run, its whole box covers none of them."""
    if kind == "sparse":
        s = olc_core.streams.sparse_simplex(T=T, N=N, k=k, seed=0, noise=noise)
        d = s.info["delta"]
    else:
        s = olc_core.streams.winnow_extra.simplex_continuous(T=T, N=N, k=k, delta=delta, seed=0, noise=noise)
        d = delta
    tr = olc_core.run("normalized_winnow", s.X, s.y, comparator=s.comparator, delta=d)
    assert sandwich_geometry(tr.proof)["far"]
    spec = eg_spec(tr, s.X, s.y, run_id="zoom")
    validate_spec(spec)
    for p in (tr.T // 3, tr.T):
        zoom_clear_of_curves(figures_at(spec, p)[2])
