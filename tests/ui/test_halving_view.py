"""The Halving lesson's viewer specs, tested as data: what a student sees at a round is the run's.

Positions: p = number of rounds processed; the current round is p (1-based), index p − 1; the version
space shown is the one after that round's update. Every expected value below is recomputed from the
core (the trace, its proof, the class's own predict), never from the spec.
"""
from __future__ import annotations

import doctest
import json
import math

import numpy as np
import pytest

import olc_core
import olc_ui.lessons.halving.view as hv
from olc_core.hypotheses import HalfPlanes, MonotoneConjunctions, MonotoneDisjunctions, Thresholds
from olc_core.streams.experts import target_concept
from olc_ui.lessons.halving.lesson import adversary_stream
from olc_ui.lessons.halving.view import arc_polyline, grid_cells, halving_spec, votes_drawn
from olc_ui.viewer.snapshot import caption_at, figures_at, ledger_at, state_index
from olc_ui.viewer.spec import validate_spec


def _by_name(fig: dict, name: str) -> dict:
    hits = [t for t in fig["data"] if t.get("name") == name]
    assert hits, f"no trace named {name!r} in {[t.get('name') for t in fig['data']]}"
    return hits[0]


def _points(fig: dict, name: str) -> set[tuple[float, float]]:
    """Every (x, y) of the traces named ``name`` (the survivors are split over two traces)."""
    out = set()
    for t in fig["data"]:
        if t.get("name") == name:
            out |= {(round(a, 3), round(b, 3)) for a, b in zip(t["x"], t["y"])}
    return out


def _make(H, T=60, seed=1, noise=0.0, update="on_mistake"):
    s = target_concept(H, T=T, seed=seed, noise=noise)
    tr = olc_core.run("halving", s.X, s.y, hypotheses=H, update=update)
    every = olc_core.run("halving", s.X, s.y, hypotheses=H, update="every_round")
    spec = halving_spec(tr, s.X, s.y, H, run_id="t", target=int(s.comparator),
                        consistent=every.proof.per_round("size"))
    return s, tr, spec


@pytest.fixture(scope="module")
def planes():
    return (HalfPlanes(32),) + _make(HalfPlanes(32), seed=3)


@pytest.fixture(scope="module")
def noisy():
    return (HalfPlanes(32),) + _make(HalfPlanes(32), seed=0, noise=0.2)


def test_doctests_of_the_view_module():
    res = doctest.testmod(hv)
    assert res.attempted >= 4 and res.failed == 0


def test_spec_is_valid_and_every_position_is_a_state(planes):
    H, s, tr, spec = planes
    validate_spec(spec)
    assert spec["T"] == 60
    assert spec["mistake_rounds"] == tr.mistakes.tolist() and tr.n_mistakes >= 2
    assert spec["breaks"] == list(range(1, 61))          # k(p) = p: per-round shapes go through state ops
    assert [state_index(spec, p) for p in (0, 7, 60)] == [0, 7, 60]
    assert [f["id"] for f in spec["figures"]] == ["main", "sandwich"]
    assert spec["layout"]["columns"] == [["main"], ["sandwich", "ledger"]]


def test_version_space_after_each_mistake_is_the_runs(planes):
    H, s, tr, spec = planes
    ang = H.angles()
    ring = {i: (round(hv.RING * math.cos(a), 3), round(hv.RING * math.sin(a), 3)) for i, a in enumerate(ang)}
    for m in tr.mistakes:
        p = int(m) + 1
        main = figures_at(spec, p)[0]
        before = np.flatnonzero(tr.weights_at(p - 1) > 0)
        after = np.flatnonzero(tr.weights_at(p) > 0)
        assert _points(main, "in the version space Hₜ") == {ring[i] for i in after}
        gone_now = set(before) - set(after)
        assert _points(main, "removed at this round") == {ring[i] for i in gone_now}
        assert len(gone_now) >= len(before) / 2                       # a mistake removes at least half
        gone_before = set(range(H.size)) - set(before)
        assert _points(main, "removed earlier (this round: ✕)") == {ring[i] for i in gone_before}
        # the ones removed are exactly those that voted for the wrong label
        wrong = before[(H.predict(s.X[m:m + 1], before)[0] > 0) != (s.y[m] > 0)]
        assert set(wrong) == gone_now


def test_nothing_removed_on_a_correct_round(planes):
    H, s, tr, spec = planes
    correct = next(t for t in range(tr.T) if t not in set(tr.mistakes.tolist()))
    main = figures_at(spec, correct + 1)[0]
    assert _by_name(main, "removed at this round")["x"] == []
    assert len(_points(main, "in the version space Hₜ")) == int(tr.weights_at(correct + 1).sum())


def test_the_vote_is_the_half_of_the_ring_facing_the_instance(planes):
    H, s, tr, spec = planes
    for r in (0, int(tr.mistakes[1]), 30):
        main = figures_at(spec, r + 1)[0]
        band = _by_name(main, "directions voting +1 on xₜ (within 90°)")
        xs, ys = np.array(band["x"]), np.array(band["y"])
        mid = np.arctan2(ys[len(xs) // 4], xs[len(xs) // 4])        # the middle of the outer arc
        phi = math.atan2(s.X[r, 1], s.X[r, 0])
        assert abs(math.remainder(mid - phi, 2 * math.pi)) < 1e-2
        # every + voter of the core's class lies within 90° of xₜ, every − voter beyond
        plus = H.predict(s.X[r:r + 1], np.arange(H.size))[0] > 0
        d = np.abs(np.remainder(H.angles() - phi + np.pi, 2 * np.pi) - np.pi)
        assert np.all(d[plus] <= np.pi / 2 + 1e-9) and np.all(d[~plus] > np.pi / 2 - 1e-9)
        arrow = _by_name(main, "xₜ (the current instance)")
        assert np.allclose([arrow["x"][1], arrow["y"][1]], s.X[r], atol=1e-4)
    assert _by_name(figures_at(spec, 0)[0], "directions voting +1 on xₜ (within 90°)")["x"] == []


def test_arc_spans_the_survivors(planes):
    H, s, tr, spec = planes
    p = int(tr.mistakes[2]) + 1
    arc = _by_name(figures_at(spec, p)[0], "arc spanned by Hₜ")
    alive = np.flatnonzero(tr.weights_at(p) > 0)
    ends = {round(math.degrees(math.atan2(arc["y"][i], arc["x"][i])) % 360, 1) for i in (0, -1)}
    assert ends == {round(math.degrees(H.angles()[i]) % 360, 1) for i in (alive.min(), alive.max())} or \
        len(alive) == 1


def test_sandwich_marker_and_ledger_follow_the_proof(planes):
    H, s, tr, spec = planes
    proof = tr.proof
    for p in (0, int(tr.mistakes[0]) + 1, int(tr.mistakes[-1]) + 1, tr.T):
        size = int(tr.weights_at(p).sum())
        M = tr.mistakes_before(p)
        sand = figures_at(spec, p)[1]
        now = _by_name(sand, "|Hₜ| now")
        assert (now["x"], now["y"]) == ([M], [size])
        up = _by_name(sand, "|H|/2ᴹ now")
        assert up["y"] == [pytest.approx(32 / 2 ** M)]
        rows = ledger_at(spec, p)
        assert rows[0]["latex"].endswith(f"|H_{{t+1}}| = {size}") and rows[0]["holds"] is True
        assert f"\\frac{{32}}{{2^{{{M}}}}} = {32 / 2 ** M:.4g}" in rows[1]["latex"] and rows[1]["holds"] is True
        assert rows[2]["latex"] == f"M = {M} \\;\\le\\; \\log_2|H| = 5" and rows[2]["holds"] is True
        assert rows[3]["latex"] == "|C_t| = 1 \\;\\ge\\; 1" or p < tr.T          # the target alone at the end
    assert proof.mistake_bound == 5.0 and proof.violations() == []
    upper = _by_name(figures_at(spec, 0)[1], "|H|/2ᴹ (upper bound)")
    assert upper["y"][0] == 32 and upper["y"][-1] < 1   # meets 1 at M = log₂|H| = 5 inside the chart
    assert _by_name(figures_at(spec, 0)[1], "log₂|H| (the bound)")["x"] == [5.0, 5.0]


def test_caption_gives_the_vote_of_the_run(planes):
    H, s, tr, spec = planes
    m = int(tr.mistakes[1])
    alive = np.flatnonzero(tr.weights_at(m) > 0)
    plus = int((H.predict(s.X[m:m + 1], alive)[0] > 0).sum())
    cap = caption_at(spec, m + 1)
    assert f"Vote of the version space (|Hₜ| = {alive.size}): {plus} for +1, {alive.size - plus} for −1" in cap
    after = int(tr.weights_at(m + 1).sum())
    assert f"Removed {alive.size - after}, left {after}; mistakes M = 2." in cap
    assert "MISTAKE" in cap
    start = caption_at(spec, 0)
    assert start.startswith("Round 0 of 60: nothing seen yet") and "(32 hypotheses)" in start


def test_noisy_labels_fail_where_the_consistent_set_empties(noisy):
    H, s, tr, spec = noisy
    proof = tr.proof
    assert proof.mistake_bound is None
    empty = int(proof.failed_assumptions[0].rounds[0])               # 0-based round
    last = ledger_at(spec, tr.T)
    assert "does not apply" in last[2]["latex"] and f"from round {empty + 1}" in last[2]["reason"]
    cons = ledger_at(spec, empty)[3]
    assert cons["holds"] is True and "\\ge\\; 1" in cons["latex"]
    after = ledger_at(spec, empty + 1)[3]
    assert after["holds"] is False and after["latex"].startswith("|C_t| = 0")
    # Halving's own version space empties later (it prunes on mistakes only): 1 ≤ |H_t| is false there, but it
    # needs realisable data, which these are not: n/a (never ✗, issue 32), written with the relation that holds
    sizes = [int(tr.weights_at(p).sum()) for p in range(tr.T + 1)]
    p0 = sizes.index(0)
    assert p0 > empty
    before, at = ledger_at(spec, p0 - 1)[0], ledger_at(spec, p0)[0]
    assert before["na"] and at["na"] and before["holds"] is None and at["holds"] is None
    assert "1 \\;\\le\\; |H_{t+1}|" in before["latex"] and "1 \\;>\\; |H_{t+1}| = 0" in at["latex"]
    assert at["reason"].startswith(f"n/a — needs a hypothesis of H consistent with every label (fails at round {empty + 1})")
    assert ledger_at(spec, p0)[1]["holds"] is True                   # 0 ≤ |H|/2^M still holds
    sand = figures_at(spec, p0)[1]
    assert _by_name(sand, "|Hₜ| now")["y"] == [hv.EMPTY_Y]
    assert "version space empty (|Hₜ| = 0)" in [t["name"] for t in sand["data"]]
    m = next(int(r) for r in tr.mistakes if r >= p0)
    assert "the version space is empty, the vote 0 : 0 is a tie → +1" in caption_at(spec, m + 1)


def test_thresholds_line_band_interval_and_target():
    H = Thresholds.grid(16)
    s, tr, spec = _make(H, T=40, seed=2)
    validate_spec(spec)
    th = np.asarray(H.thresholds)
    for r in (0, int(tr.mistakes[0]), 20):
        main = figures_at(spec, r + 1)[0]
        band = _by_name(main, "thresholds θ ≤ xₜ vote +1")
        assert max(band["x"]) == pytest.approx(s.X[r, 0], abs=1e-5)
        alive = np.flatnonzero(tr.weights_at(r + 1) > 0)
        iv = _by_name(main, "interval spanned by Hₜ")
        assert iv["x"][0] < th[alive].min() and iv["x"][1] > th[alive].max()
        assert {x for x, _ in _points(main, "in the version space Hₜ")} == {round(v, 3) for v in th[alive]}
        cur = _by_name(main, "current, y = +1" if s.y[r] > 0 else "current, y = −1")
        assert cur["x"] == [pytest.approx(s.X[r, 0], abs=1e-5)] and cur["y"] == [1.0]
    target = _by_name(figures_at(spec, 0)[0], f"target h*: {H.describe(int(s.comparator))}")
    assert target["x"][0] == pytest.approx(th[int(s.comparator)])


@pytest.mark.parametrize("cls", [MonotoneConjunctions, MonotoneDisjunctions])
def test_grid_cells_and_each_survivors_vote(cls):
    H = cls(4)
    s, tr, spec = _make(H, T=40, seed=5)
    validate_spec(spec)
    col, row, nc, nr = grid_cells(4)
    assert (nc, nr) == (4, 4) and votes_drawn(tr, H)
    for r in [int(m) for m in tr.mistakes] + [int(tr.mistakes[-1]) + 1]:
        main = figures_at(spec, r + 1)[0]
        alive = np.flatnonzero(tr.weights_at(r) > 0)
        plus = alive[H.predict(s.X[r:r + 1], alive)[0] > 0]
        minus = np.setdiff1d(alive, plus)
        assert _points(main, "voted +1 on xₜ") == {(float(col[i]), float(row[i])) for i in plus}
        assert _points(main, "voted −1 on xₜ") == {(float(col[i]), float(row[i])) for i in minus}
        bits = "".join(str(int(v)) for v in s.X[r])
        assert _by_name(main, "current instance")["text"] == [f"xₜ = {bits}   yₜ = {'+1' if s.y[r] > 0 else '−1'}"]
        assert f"xₜ = {bits}" in caption_at(spec, r + 1)
    star = _by_name(figures_at(spec, 0)[0], f"target h*: {H.describe(int(s.comparator))}")
    assert (star["x"][0], star["y"][0]) == (col[int(s.comparator)], row[int(s.comparator)])


def test_big_grids_leave_out_per_hypothesis_votes_and_stay_lean():
    H = MonotoneDisjunctions(10)
    s, tr, spec = _make(H, T=500, seed=0)
    validate_spec(spec)
    heavy = int(np.asarray(tr.columns["version_space_size"]).sum()) > hv.VOTE_ROWS_CAP
    assert votes_drawn(tr, H) is (not heavy)
    names = [t["name"] for t in spec["figures"][0]["figure"]["data"]]
    assert ("voted +1 on xₜ" in names) is (not heavy)
    assert len(json.dumps(spec)) < 700_000


def test_every_round_pruning_stops_and_consistent_count():
    H = HalfPlanes(24)
    s, tr, spec = _make(H, T=60, seed=4, update="every_round")
    validate_spec(spec)
    is_m = set(tr.mistakes.tolist())
    sizes = [int(tr.weights_at(p).sum()) for p in range(tr.T + 1)]
    prunes = [t for t in range(tr.T) if sizes[t + 1] < sizes[t] and t not in is_m]
    assert prunes and spec["extra_stops"]["pruning"] == prunes
    assert "the hypotheses that disagreed with yₜ are pruned" in caption_at(spec, prunes[0] + 1)
    # pruning every round, the version space is exactly the consistent set
    assert [ledger_at(spec, p)[3]["latex"] for p in (0, 30)] == [f"|C_t| = {sizes[p]} \\;\\ge\\; 1" for p in (0, 30)]


@pytest.mark.parametrize("H", [HalfPlanes(1), Thresholds.grid(1), MonotoneConjunctions(1), HalfPlanes(2)])
def test_extreme_classes_and_one_round(H):
    for T in (1, 5):
        s, tr, spec = _make(H, T=T, seed=0)
        validate_spec(spec)
        assert spec["T"] == T
        rows = ledger_at(spec, T)
        assert rows[2]["latex"].endswith(f"\\log_2|H| = {math.log2(H.size):.4g}")
        figures_at(spec, T)
        caption_at(spec, T)


def test_arc_polyline_and_grid_cells():
    full = arc_polyline(np.radians(np.arange(0, 360, 45.0)), 1.0)
    assert np.allclose([full[0][0], full[1][0]], [1.0, 0.0]) and np.allclose([full[0][-1], full[1][-1]], [1.0, 0.0])
    wrap = arc_polyline(np.radians([350.0, 0.0, 10.0]), 1.0)        # across 0°: from 350° to 10°
    a0 = math.degrees(math.atan2(wrap[1][0], wrap[0][0])) % 360
    a1 = math.degrees(math.atan2(wrap[1][-1], wrap[0][-1])) % 360
    assert (round(a0), round(a1)) == (350, 10)
    assert arc_polyline(np.array([])) is None
    c, r, nc, nr = grid_cells(5)
    assert (nc, nr) == (8, 4) and len(set(zip(c.tolist(), r.tolist()))) == 32


@pytest.mark.parametrize("H", [HalfPlanes(32), Thresholds.grid(64), MonotoneConjunctions(5), MonotoneDisjunctions(6),
                               HalfPlanes(2), MonotoneConjunctions(1)])
def test_adversary_forces_a_mistake_on_every_round_it_plays(H):
    X, y, target, forced = adversary_stream(H, 40, seed=2)
    tr = olc_core.run("halving", X, y, hypotheses=H)
    assert forced == int(math.floor(math.log2(H.size)))                # log₂|H| attained for these classes
    assert tr.mistakes[:forced].tolist() == list(range(forced))
    assert tr.proof.applies and tr.n_mistakes == forced <= tr.proof.mistake_bound
    assert (H.predict(X, np.array([target]))[:, 0] == y).all()          # the target labels everything
    X2, y2, t2, f2 = adversary_stream(H, 40, seed=2)
    assert np.array_equal(X, X2) and np.array_equal(y, y2) and (t2, f2) == (target, forced)
    spec = halving_spec(tr, X, y, H, run_id="a", target=target)
    validate_spec(spec)
    assert len(ledger_at(spec, 40)) == 3                                # no consistent-count line without it


@pytest.mark.parametrize("cls, join", [(MonotoneConjunctions, " ∧ "), (MonotoneDisjunctions, " ∨ ")])
def test_grid_numbers_variables_from_one_as_the_other_pages_do(cls, join):
    """The conjunctions page and every transcript write x₁ … xₙ: the Halving grid's labels, hover texts
    and the target's name number the same variables from 1 (S = {1, 3}: x1 ∧ x3), never x0."""
    H = cls(4)
    assert H.describe(0b0101) == join.join(["x1", "x3"])
    s, tr, spec = _make(H, T=20, seed=5)
    text = json.dumps(spec, ensure_ascii=False)
    assert "x0" not in text and "x4" in text and "x5" not in text
    main = figures_at(spec, 0)[0]
    assert main["layout"]["xaxis"]["ticktext"] == ["∅", "x1", "x2", "x1 x2"]
    assert main["layout"]["xaxis"]["title"]["text"].startswith("variables of S among x1…x2")
    assert main["layout"]["yaxis"]["title"]["text"] == "… among x3…x4"
