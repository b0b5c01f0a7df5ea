"""The Experts lesson's viewer specs, tested as data: what a student sees at a round is the run's."""
from __future__ import annotations

import json
import math

import numpy as np
import pytest

import olc_core
from olc_core.learners.randomized_weighted_majority import realised_mistakes
from olc_ui.lessons.experts.view import LN10, experts_spec, log_ticks, weight_breaks
from olc_ui.viewer.snapshot import caption_at, figures_at, ledger_at
from olc_ui.viewer.spec import validate_spec


def _fig(spec: dict, fid: str, p: int) -> dict:
    i = [f["id"] for f in spec["figures"]].index(fid)
    return figures_at(spec, p)[i]


def _by_name(fig: dict, name: str, markers: bool | None = None) -> dict:
    hits = [t for t in fig["data"] if t.get("name") == name
            and (markers is None or (t.get("mode") == "markers") == markers)]
    assert hits, f"no trace named {name!r} in {[t.get('name') for t in fig['data']]}"
    return hits[0]


def _g(v: float, fmt: str = ".4g") -> str:
    """A number as the ledger writes it (−0 shows as 0)."""
    return format(float(v) + 0.0, fmt)


def _stream(**kw):
    args = dict(T=300, N=10, error_rates=np.linspace(0.1, 0.45, 10), seed=0, exact=False, groups=2)
    args.update(kw)
    return olc_core.streams.experts(**args)


@pytest.fixture(scope="module")
def wm():
    s = _stream()
    tr = olc_core.run("weighted_majority", s.X, s.y, beta=0.5, update="on_mistake")
    return s, tr, experts_spec(tr, s.X, s.y, run_id="wm")


@pytest.fixture(scope="module")
def rwm():
    s = _stream()
    tr = olc_core.run("randomized_weighted_majority", s.X, s.y, eta=0.3, seed=4)
    band = realised_mistakes(s.X, s.y, seeds=40, eta=0.3)
    return s, tr, band, experts_spec(tr, s.X, s.y, run_id="rwm", band=band)


def test_spec_is_valid_and_follows_the_run(wm):
    s, tr, spec = wm
    validate_spec(spec)
    assert spec["T"] == 300 and spec["mistake_rounds"] == tr.mistakes.tolist()
    assert [f["id"] for f in spec["figures"]] == ["weights", "sandwich", "advice", "mistakes"]
    # states are exactly the positions where the weights change: after each mistake ([001] updates)
    assert spec["breaks"] == (tr.mistakes + 1).tolist()
    json.dumps(spec, allow_nan=False)


def test_weight_bars_are_the_runs_log_weights(wm):
    s, tr, spec = wm
    i_star = tr.info["best_expert"]
    for p in (0, int(tr.mistakes[3]) + 1, 157, tr.T):
        bars = _fig(spec, "weights", p)["data"][0]
        assert bars["type"] == "bar" and bars["x"] == list(range(1, 11))
        drawn = np.asarray(bars["y"]) + bars["base"]                 # bars hang from the axis bottom
        assert drawn == pytest.approx(tr.log_weights_at(p) / LN10, abs=2e-3)
        assert bars["marker"]["color"][i_star] != bars["marker"]["color"][(i_star + 1) % 10]
    # the weights only move on a mistake: the bars at a correct round equal those just before it
    correct = next(t for t in range(50, 300) if t not in set(tr.mistakes.tolist()))
    assert _fig(spec, "weights", correct + 1)["data"][0]["y"] == _fig(spec, "weights", correct)["data"][0]["y"]


def test_potential_and_its_bounds_on_the_weights_chart(wm):
    s, tr, spec = wm
    S = tr.proof.series
    i_star = tr.info["best_expert"]
    for p in (0, int(tr.mistakes[5]) + 1, 200):
        fig = _fig(spec, "weights", p)
        phi = _by_name(fig, "Φ = Σ wᵢ")
        assert phi["y"][0] == pytest.approx(S["log_phi"][p] / LN10, abs=2e-3) == phi["y"][1]
        up = _by_name(fig, "upper N((1+β)/2)<sup>M</sup>")
        assert up["y"][0] == pytest.approx(S["upper"][p] / LN10, abs=2e-3)
        lo = _by_name(fig, "lower β<sup>m(i*)</sup>")
        assert lo["x"] == [i_star + 1] and lo["y"][0] == pytest.approx(S["lower_best"][p] / LN10, abs=2e-3)
        assert lo["y"][0] <= phi["y"][0] <= up["y"][0] + 1e-3             # the sandwich, drawn
    tv = fig["layout"]["yaxis"]["tickvals"]
    assert len(tv) >= 3 and fig["layout"]["yaxis"]["ticktext"][-1] in ("1", "10")


def _decode_png(uri: str) -> tuple[np.ndarray, list[str]]:
    """The palette PNG the view writes (8-bit indices, filter "Up"): (indices, palette)."""
    import base64
    import struct
    import zlib

    raw = base64.b64decode(uri.split(",", 1)[1])
    assert raw[:8] == b"\x89PNG\r\n\x1a\n"
    pos, chunks = 8, {}
    while pos < len(raw):
        n, = struct.unpack(">I", raw[pos:pos + 4])
        kind, data = raw[pos + 4:pos + 8], raw[pos + 8:pos + 8 + n]
        assert struct.unpack(">I", raw[pos + 8 + n:pos + 12 + n])[0] == zlib.crc32(kind + data) & 0xFFFFFFFF
        chunks[kind] = chunks.get(kind, b"") + data
        pos += 12 + n
    w, h = struct.unpack(">II", chunks[b"IHDR"][:8])
    rows = np.frombuffer(zlib.decompress(chunks[b"IDAT"]), dtype=np.uint8).reshape(h, w + 1)
    assert (rows[:, 0] == 2).all()
    pix = np.cumsum(rows[:, 1:].astype(np.int64), axis=0) % 256          # undo "Up"
    plte = chunks[b"PLTE"]
    palette = ["#" + plte[i:i + 3].hex() for i in range(0, len(plte), 3)]
    return pix, palette


def test_advice_heat_map_marks_wrong_advice_and_the_current_round(wm):
    s, tr, spec = wm
    fig = _fig(spec, "advice", 42)
    [img] = fig["layout"]["images"]
    assert (img["x"], img["sizex"], img["y"], img["sizey"]) == (0.5, 300, -0.5, 13)
    pix, palette = _decode_png(img["source"])
    h, w = pix.shape
    row_h, col_w = h // 13, w // 300
    # a row every cell's body covers (+1 fills the top 70 %, −1 the bottom 70 %) and inside a wrong cell's outline
    colors = np.array(palette)[pix[row_h * 3 // 8::row_h, col_w // 2::col_w]]
    assert colors.shape == (13, 300)
    legend = {t["name"]: t["marker"]["color"] for t in fig["data"] if t.get("showlegend", True) and t["x"] == [None]}
    strong = np.where(s.X.T > 0, legend["says +1, right"], legend["says −1, right"])
    pale = np.where(s.X.T > 0, legend["+1, wrong"], legend["−1, wrong"])
    wrong = s.X.T != s.y[None, :]
    assert np.array_equal(colors[3:], np.where(wrong, pale, strong))        # experts: pale = wrong
    assert np.array_equal(colors[0], np.where(s.y > 0, legend["says +1, right"], legend["says −1, right"]))
    mis = np.isin(np.arange(300), tr.mistakes)
    pred_plus = tr.predictions > 0
    want = np.where(pred_plus, np.where(mis, legend["+1, wrong"], legend["says +1, right"]),
                    np.where(mis, legend["−1, wrong"], legend["says −1, right"]))
    assert np.array_equal(colors[1], want)                                  # the learner's row
    assert set(colors[2]) == {"#ffffff"}                                    # the blank row
    line = _by_name(fig, "current round")
    assert line["x"] == [42, 42]                                            # the current column is marked
    assert _by_name(fig, "current round ▼")["x"] == [42]
    assert _fig(spec, "advice", 0)["data"][-2]["x"] == [0]                  # before round 1: left of the image
    ticks = dict(zip(fig["layout"]["yaxis"]["tickvals"], fig["layout"]["yaxis"]["ticktext"]))
    assert ticks[3 + tr.info["best_expert"]].endswith("★")
    # every trace is a scatter: the viewer can animate it, and the basic plotly bundle draws it
    assert {t["type"] for f in spec["figures"] for t in f["figure"]["data"]} <= {"scatter", "bar"}


def test_sandwich_markers_and_the_crossing_at_the_bound(wm):
    s, tr, spec = wm
    p_ = tr.proof
    S = p_.series
    M = tr.mistakes_before_each_round()
    for p in (0, int(tr.mistakes[-1]) + 1, tr.T):
        fig = _fig(spec, "sandwich", p)
        marks = {t["name"]: t for t in fig["data"] if t.get("mode") == "markers"}
        assert marks["Φ"]["x"] == [M[p]] and marks["Φ"]["y"][0] == pytest.approx(S["log_phi"][p] / LN10, abs=2e-3)
        assert marks["β<sup>m(i*)</sup>"]["y"][0] == pytest.approx(S["lower_best"][p] / LN10, abs=2e-3)
        assert marks["N((1+β)/2)<sup>M</sup>"]["y"][0] == pytest.approx(S["upper"][p] / LN10, abs=2e-3)
    bound = p_.mistake_bound
    # the proven upper line and the whole run's lower level meet exactly at the bound
    up = _by_name(fig, "N((1+β)/2)<sup>M</sup>", markers=False)
    lo = _by_name(fig, f"β<sup>m*</sup>, m* = {p_.constants['m_star']}")
    y_up_at_bound = np.interp(bound, up["x"], up["y"])
    assert y_up_at_bound == pytest.approx(lo["y"][0], abs=0.02)
    assert max(up["x"]) > bound > M[-1]
    [cross] = [t for t in fig["data"] if t.get("meta") == "crossing"]     # the crossing, a point of the chart
    assert cross["x"] == [pytest.approx(bound)] and cross["y"][0] == pytest.approx(lo["y"][0])
    # the run's curve is revealed as the student steps: at position p, only the positions up to p
    p = int(tr.mistakes[3]) + 1
    phi = _by_name(_fig(spec, "sandwich", p), "Φ", markers=False)
    assert max(phi["x"]) == M[p] and phi["y"][-1] == pytest.approx(S["log_phi"][p] / LN10, abs=2e-3)


def test_ledger_numbers_and_marks_come_from_the_proof(wm):
    s, tr, spec = wm
    p_ = tr.proof
    S = p_.series
    checks = p_.check_matrix()
    for p in (0, int(tr.mistakes[2]) + 1, tr.T):
        lines = ledger_at(spec, p)
        assert _g(S["lower_best"][p]) in lines[0]["latex"] and _g(S["log_w_best"][p]) in lines[0]["latex"]
        assert lines[0]["holds"] is (not checks["lower_best ≤ log_w_best"][p])
        assert _g(S["log_phi"][p]) in lines[2]["latex"] and _g(S["upper"][p]) in lines[2]["latex"]
        assert all(line["holds"] in (True, None) for line in lines)   # data meeting the theorem: no ✗
        final = next(line for line in lines if f"{p_.mistake_bound:.5g}" in line["latex"])
        assert f"M_t = {tr.mistakes_before(p)}" in final["latex"]   # the mistakes so far, named M_t
    # the one-round step: defined only once a round was played
    assert ledger_at(spec, 0)[4]["holds"] is None
    m = int(tr.mistakes[4])
    step = ledger_at(spec, m + 1)[4]
    assert step["holds"] is True and _g(S["step_bound"][m]) in step["latex"]


def test_caption_says_what_happened_this_round(wm):
    s, tr, spec = wm
    assert "every weight is 1" in caption_at(spec, 0)
    m = int(tr.mistakes[1])
    cap = caption_at(spec, m + 1)
    assert f"Round {m + 1} of 300" in cap and "MISTAKE" in cap
    assert f"{int((s.X[m] > 0).sum())} of 10 experts say +1" in cap
    assert f"{tr.columns['wrong_fraction'][m]:.3f}" in cap and f"M = {tr.mistakes_before(m + 1)}" in cap
    ok = next(t for t in range(300) if t not in set(tr.mistakes.tolist()))
    assert "correct: no update" in caption_at(spec, ok + 1)


def test_every_round_update_changes_the_weights_on_every_round_with_a_wrong_expert():
    s = _stream(T=120)
    tr = olc_core.run("weighted_majority", s.X, s.y, beta=0.7, update="every_round")
    spec = experts_spec(tr, s.X, s.y, run_id="er")
    validate_spec(spec)
    some_wrong = (s.X != s.y[:, None]).any(axis=1)
    assert spec["breaks"] == (np.flatnonzero(some_wrong) + 1).tolist()
    p = 77
    assert np.asarray(_fig(spec, "weights", p)["data"][0]["y"]) + _fig(spec, "weights", p)["data"][0]["base"] \
        == pytest.approx(tr.log_weights_at(p) / LN10, abs=2e-3)
    assert "correct; the wrong experts' weights × β" in caption_at(spec, next(
        t + 1 for t in range(120) if t not in set(tr.mistakes.tolist())))


def test_rwm_expected_mistakes_band_and_sandwich(rwm):
    s, tr, band, spec = rwm
    validate_spec(spec)
    S = tr.proof.series
    fig = _fig(spec, "mistakes", 150)
    hi = _by_name(fig, "5%–95% of 40 runs")
    assert hi["x"] == band.rounds.tolist() and hi["y"] == pytest.approx(band.band[2].tolist(), abs=0.01)
    lo = fig["data"][0]
    assert lo["y"] == pytest.approx(band.band[0].tolist(), abs=0.01)
    em = _by_name(fig, "E[M] = Σ Fₜ", markers=True)
    assert em["x"] == [150] and em["y"][0] == pytest.approx(S["expected_M"][150], abs=1e-3)
    me = _by_name(fig, "learner M", markers=True)
    assert me["y"] == [tr.mistakes_before(150)]
    # the sandwich runs against the expected mistakes, and crosses at the bound on E[M]
    sw = _fig(spec, "sandwich", 150)
    phi = next(t for t in sw["data"] if t.get("name") == "Φ" and t.get("mode") == "markers")
    assert phi["x"][0] == pytest.approx(S["expected_M"][150], abs=1e-3)
    [cross] = [t for t in sw["data"] if t.get("meta") == "crossing"]
    assert cross["x"][0] == pytest.approx(tr.proof.mistake_bound)
    lines = ledger_at(spec, 150)
    assert all(line["holds"] in (True, None) for line in lines)
    assert any(f"{tr.proof.mistake_bound:.5g}" in line["latex"] for line in lines)
    cap = caption_at(spec, 150)
    assert f"Drew expert {int(tr.columns['chosen_expert'][149]) + 1}" in cap
    assert f"{tr.columns['F'][149]:.3f}" in cap
    # after round t = 150 the ledger's potential is Φ_{t+1} and its bound sums F_1 … F_150 (the caption's F
    # of round 150 included); the round line relates Φ_{t+1} to Φ_t through that F
    F = np.asarray(tr.columns["F"], dtype=float)
    up = math.log(10) - 0.3 * float(np.sum(F[:150]))
    phi_line = next(line for line in lines if "sum_{s\\le t} F_s" in line["latex"])
    assert phi_line["latex"].startswith("\\ln\\Phi_{t+1} =") and phi_line["latex"].endswith(_g(up))
    step = next(line for line in lines if line["latex"].startswith("F_t ="))
    assert step["latex"].startswith(f"F_t = {_g(F[149])}")


def test_halving_on_the_same_advice_draws_the_version_space():
    s = _stream(error_rates=np.r_[0.0, np.linspace(0.2, 0.45, 7)], N=8, exact=True, groups=None)
    tr = olc_core.run("halving", s.X, s.y)
    spec = experts_spec(tr, s.X, s.y, run_id="h")
    validate_spec(spec)
    assert tr.proof.applies
    for p in (0, int(tr.mistakes[0]) + 1, tr.T):
        bars = _fig(spec, "weights", p)["data"][0]
        assert bars["y"] == tr.weights_at(p).astype(int).tolist()       # 1: still in the version space
        lines = ledger_at(spec, p)
        size = int(tr.weights_at(p).sum())
        assert f"|H_{{t+1}}| = {size}" in lines[0]["latex"] and lines[0]["holds"] is True
    assert "\\log_2 {8} = 3" in ledger_at(spec, tr.T)[-1]["latex"]
    assert _fig(spec, "sandwich", 0)["layout"]["yaxis"]["ticktext"] == ["1", "2", "4", "8"]
    assert "experts in the version space" in caption_at(spec, 5)


def test_no_perfect_expert_shows_the_failure_not_a_bound():
    s = _stream(T=200)
    tr = olc_core.run("halving", s.X, s.y)
    spec = experts_spec(tr, s.X, s.y, run_id="hf")
    validate_spec(spec)
    assert tr.proof.mistake_bound is None
    lines = ledger_at(spec, tr.T)
    assert "does not apply" in lines[-1]["latex"]
    # 1 ≤ |H_t| = 0 is false, but it needs an expert consistent with every label: n/a, never ✗ (issue 32)
    assert lines[0]["na"] and lines[0]["holds"] is None and "1 \\;>\\; |H_{t+1}| = 0" in lines[0]["latex"]
    assert lines[0]["reason"].startswith("n/a — needs an expert consistent with every label (fails at round ")
    sw = _fig(spec, "sandwich", tr.T)
    assert any("no bound" in a["text"] for a in sw["layout"]["annotations"])
    # WM with β = 0 is the same learner: no bound either, and nothing undefined breaks the spec
    tw = olc_core.run("weighted_majority", s.X, s.y, beta=0.0)
    spec = experts_spec(tw, s.X, s.y, run_id="b0")
    validate_spec(spec)
    json.dumps(spec, allow_nan=False)
    assert "does not apply" in [line for line in ledger_at(spec, 200) if "does not apply" in line["latex"]][0]["latex"]
    assert _fig(spec, "weights", 200)["layout"]["yaxis"]["range"] == [0, 1.15]


def test_adversary_nearly_reaches_the_bound():
    a = olc_core.streams.adversary(T=400, N=16, beta=0.5)
    tr = olc_core.run("weighted_majority", a.X, a.y, beta=0.5)
    spec = experts_spec(tr, a.X, a.y, run_id="adv")
    assert tr.n_mistakes == 400 and spec["mistake_rounds"] == list(range(400))
    b = tr.proof.mistake_bound
    assert 0.75 * b <= tr.n_mistakes <= b
    # in log scale Φ falls at most a quarter faster than its upper bound N((1+β)/2)^M
    sw = _fig(spec, "sandwich", 400)
    marks = {t["name"]: t["y"][0] for t in sw["data"] if t.get("mode") == "markers"}
    assert marks["Φ"] <= marks["N((1+β)/2)<sup>M</sup>"]
    assert marks["N((1+β)/2)<sup>M</sup>"] - marks["Φ"] < 0.25 * abs(marks["N((1+β)/2)<sup>M</sup>"] - math.log10(16))
    assert ledger_at(spec, 400)[6]["holds"] is True


@pytest.mark.parametrize("alg,kw,N,T", [
    ("weighted_majority", {"beta": 0.99}, 10, 50),
    ("weighted_majority", {"beta": 0.01, "update": "every_round"}, 10, 50),
    ("weighted_majority", {"beta": 0.5}, 1, 30),
    ("weighted_majority", {"beta": 0.5}, 5, 1),
    ("randomized_weighted_majority", {"eta": 0.01, "seed": 0}, 10, 60),
    ("randomized_weighted_majority", {"eta": 1.0, "seed": 0}, 10, 60),
    ("halving", {}, 1, 1),
])
def test_extreme_settings_build_valid_specs(alg, kw, N, T):
    s = olc_core.streams.experts(T=T, N=N, error_rates=0.2, seed=1)
    tr = olc_core.run(alg, s.X, s.y, **kw)
    band = realised_mistakes(s.X, s.y, seeds=10, eta=kw["eta"]) if "eta" in kw else None
    spec = experts_spec(tr, s.X, s.y, run_id="x", band=band)
    validate_spec(spec)
    json.dumps(spec, allow_nan=False)
    for p in (0, T):
        figures_at(spec, p)
        assert len(ledger_at(spec, p)) >= 3 and caption_at(spec, p)


def test_weight_breaks_and_log_ticks():
    s = _stream(T=60)
    tr = olc_core.run("weighted_majority", s.X, s.y, beta=0.5)
    breaks, states = weight_breaks(tr)
    assert breaks == (tr.mistakes + 1).tolist() and len(states) == len(breaks) + 1
    for lo, hi in [(-6.2, 0.4), (-0.2, 0.75), (-400.0, 1.0), (-0.12, 0.12), (0.0, 1.7)]:
        vals, text = log_ticks(lo, hi)
        assert len(vals) >= 2 and len(vals) == len(text) and vals == sorted(vals)
        assert all(lo - 1e-9 <= v <= hi + 1e-9 for v in vals)
        for v, t in zip(vals, text):                    # each label names the value 10^v
            if "⁻" in t or t.startswith("10"):
                continue
            assert float(t) == pytest.approx(10 ** v, rel=0.02)
    assert log_ticks(-6.2, 0.4)[1][0] == "10⁻⁶" and log_ticks(0.0, 0.0) == ([], [])
    vals, text = log_ticks(-0.1, math.log10(40), twos=True)           # Halving: |H_t| halves
    assert text == ["1", "2", "4", "8", "16", "32"] and vals[3] == pytest.approx(math.log10(8))
    assert math.isclose(LN10, math.log(10))


def test_vanished_weight_is_minus_infinity_and_the_caption_says_nothing_was_drawn():
    s = olc_core.streams.experts(T=40, N=3, error_rates=np.array([0.4, 0.4, 0.4]), seed=0, exact=False, groups=1)
    tr = olc_core.run("randomized_weighted_majority", s.X, s.y, eta=1.0, seed=1)
    spec = experts_spec(tr, s.X, s.y, run_id="eta1")
    validate_spec(spec)
    json.dumps(spec, allow_nan=False)
    lp = np.asarray(tr.proof.series["log_phi"], dtype=float)
    p0 = int(np.flatnonzero(np.isinf(lp))[0])          # Φ reached 0 in round p0 (after p0 rounds)
    line = next(x for x in ledger_at(spec, p0) if x["latex"].startswith("\\ln w_{i^*}"))
    assert line["latex"].endswith("\\ln\\Phi_{t+1} = -\\infty") and line["holds"] is True   # −∞ ≤ −∞, not "—"
    assert tr.columns["chosen_expert"][p0] == -1
    cap = caption_at(spec, p0 + 1)
    assert "Every weight is 0" in cap and "Nothing to draw" in cap and "Drew expert" not in cap
    assert "η = 1" in _fig(spec, "weights", 0)["layout"]["title"]["text"]
    tw = olc_core.run("weighted_majority", s.X, s.y, beta=0.0)
    sw = experts_spec(tw, s.X, s.y, run_id="b0")
    p1 = int(np.flatnonzero(np.isinf(np.asarray(tw.proof.series["log_phi"], dtype=float)))[0])
    assert "ties predict +1" in caption_at(sw, p1 + 1) and "held" not in caption_at(sw, p1 + 1)
    assert "β = 0" in _fig(sw, "weights", 0)["layout"]["title"]["text"]


@pytest.mark.parametrize("which", ["wm", "rwm"])
def test_the_crossing_and_the_running_bound_say_which_m_star_they_use(which, request):
    """The sandwich's crossing is the bound with the whole run's m*; the ledger's and the mistakes chart's
    running bound uses m*ₜ (the best expert's mistakes so far): each says which, with the run's numbers."""
    s, tr, *_, spec = request.getfixturevalue(which)
    p_ = tr.proof
    S, c = p_.series, p_.constants
    ms, bound = int(c["m_star"]), p_.mistake_bound
    what = "M" if which == "wm" else "E[M]"
    [cross] = [t for t in _fig(spec, "sandwich", 0)["data"] if t.get("meta") == "crossing"]
    assert cross["name"] == f"× crossing: the bound with the final m* = {ms}, {what} ≤ {bound:.4g} (shaded beyond)"
    assert cross["hovertemplate"].startswith(f"the bound with the final m* = {ms}: ")
    p = next(q for q in range(tr.T + 1) if 0 < S["m_star"][q] < ms)          # mid-run: m*ₜ below the final m*
    rows = ledger_at(spec, p)
    [running] = [r for r in rows if r"\text{running bound, }" in r["latex"]]
    assert running["latex"].endswith(rf"{{(\text{{running bound, }} m^*_t = {int(S['m_star'][p])})}}")
    assert _g(S["running_bound"][p]) in running["latex"] and "m*ₜ: the best expert's mistakes so far" in running["reason"]
    [final] = [r for r in rows if r"\text{the bound, final }" in r["latex"]]
    assert final["latex"].endswith(rf"= {bound:.5g} \quad {{(\text{{the bound, final }} m^* = {ms})}}")
    assert "the final m* of the whole run" in final["reason"]
    assert S["running_bound"][-1] == pytest.approx(bound)                      # at T the two are the same
    names = [t["name"] for t in _fig(spec, "mistakes", 0)["data"]]
    assert f"running bound on {what} (with m*ₜ so far)" in names


def test_weighted_majority_explains_why_the_best_expert_can_weigh_less():
    # the review's run (c8): the green best expert i* has less weight than expert 2 at the end
    s = olc_core.streams.experts(T=300, N=10, error_rates=np.linspace(0.1, 0.45, 10), seed=0, groups=2, exact=False)
    found = False
    for seed in range(40):
        s = olc_core.streams.experts(T=300, N=10, error_rates=np.linspace(0.1, 0.45, 10), seed=seed, groups=2,
                                     exact=False)
        tr = olc_core.run("weighted_majority", s.X, s.y, beta=0.5, update="on_mistake")
        i_star = tr.info["best_expert"]
        lw = tr.log_weights_at(tr.T)
        j = int(np.argmax(lw))
        if lw[j] > lw[i_star]:
            found = True
            break
    assert found
    spec = experts_spec(tr, s.X, s.y, run_id="wm")
    validate_spec(spec)
    note = spec["figures"][0]["note"]
    wrong = (s.X > 0) != (s.y[:, None] > 0)
    on_m = wrong[tr.mistakes].sum(axis=0)
    # the weights are β^(mistakes on WM's own mistake rounds): the note's numbers are the run's
    assert np.allclose(lw, on_m * math.log(0.5))
    assert f"(M = {tr.n_mistakes} of {tr.T})" in note
    assert f"i* = expert {i_star + 1} erred on {on_m[i_star]} of them ({wrong[:, i_star].sum()} in all)" in note
    assert f"expert {j + 1} on only {on_m[j]} ({wrong[:, j].sum()} in all), so at the end expert {j + 1} outweighs i*" in note
    assert note.endswith("The best expert of the whole run need not have the largest weight at round t.")
    # RWM and Halving carry no such note
    rwm = olc_core.run("randomized_weighted_majority", s.X, s.y, eta=0.3)
    assert "note" not in experts_spec(rwm, s.X, s.y, run_id="r")["figures"][0]
