"""AppTest over the randomised FTRL lesson: numbers from the core, deep links, the theorem's α in one click,
the band from direct core runs, uploads checked row by row, bad links and settings reported as messages."""
from __future__ import annotations

import math


import numpy as np

import olc_core
from olc_ui.catalog import LESSONS
from olc_ui.viewer.snapshot import ledger_at
from tests.app.pagetest import metric, open_page, page_path, shown, url, viewer_spec

PAGE = page_path("ftrl")


def _open(**query):
    return open_page(PAGE, timeout=120, **query)


def _stream(T=300, d=2, gamma=0.1, R=1.0, noise=0.0, seed=0):
    return olc_core.streams.separable(T=T, d=d, gamma=gamma, radius=R, seed=seed, noise=noise)


def test_registered_right_after_the_margin_perceptron():
    scripts = [row[1] for row in LESSONS]
    i = scripts.index("pages/ftrl.py")
    assert scripts[i - 1] == "pages/margin_perceptron.py"
    assert LESSONS[i] == ("Linear classifiers", "pages/ftrl.py", "Randomised FTRL classifier", ":material/casino:",
                          "ftrl", "predict +1 with probability (1 + ⟨w, x⟩)/2: expected mistakes against the best "
                                  "‖u‖ ≤ 1")


def test_default_run_numbers_come_from_the_core():
    at = _open()
    assert not at.exception and not at.error
    s = _stream()
    tr = olc_core.run("ftrl_randomized", s.X, s.y, eta=float("1.414213562"), seed=0)
    p, c = tr.proof, tr.proof.constants
    assert metric(at, "E[M] = Σ ℓₜ(wₜ)") == f"{c['expected_mistakes']:.4g}"
    assert metric(at, "Best ‖u‖ ≤ 1: min Σ ℓₜ(u) (a loss)") == f"{c['best_loss']:.4g}"
    assert metric(at, "Regret at T") == f"{float(p.series['regret'][-1]):.4g}"
    assert metric(at, "Bound on E[M]") == f"{p.mistake_bound:.5g}"
    assert metric(at, "Realised M (seed 0)") == str(tr.n_mistakes)
    spec = viewer_spec(at)
    assert spec["T"] == 300 and spec["mistake_rounds"] == tr.mistakes.tolist()
    rows = ledger_at(spec, 120)
    text = " ".join(r["latex"] for r in rows)
    assert f"{p.mistake_bound:.5g}" in text and format(float(p.series["expected_mistakes"][120]), ".4g") in text
    assert format(float(p.series["regret"][120]), ".4g") in text
    q = url(at)
    assert q["data"] == "generated" and q["alpha"] == "1.414213562" and q["seed"] == "0" and q["runs"] == "100"
    assert q["T"] == "300" and q["t"] == "0"
    # the default α is the theorem's: the page says so and offers no button to restore it (the sidebar's one
    # button is the class session's)
    assert "α is the theorem's choice" in shown(at, "caption")
    assert [b.label for b in at.button] == ["Start a class session"]
    labels = [b.label for b in at.get("download_button")]
    assert labels == [  # the figure at the round shown: the viewer's own button
        "Download the trace (CSV)", "Download the proof (Markdown + KaTeX)", "Download the proof (LaTeX)",
        "Download this run as a notebook (.ipynb)", "Download this run as one offline file (HTML)",
    ]


def test_deep_link_opens_the_same_run_and_the_band_is_direct_core_runs():
    at = _open(T=150, gamma=0.2, noise=0.1, sseed=4, alpha=0.7, seed=9, runs=20, t=37)
    assert not at.exception
    spec = viewer_spec(at)
    assert spec["position"] == 37 and spec["T"] == 150
    s = _stream(T=150, gamma=0.2, noise=0.1, seed=4)
    tr = olc_core.run("ftrl_randomized", s.X, s.y, eta=0.7, seed=9)
    assert spec["mistake_rounds"] == tr.mistakes.tolist()
    assert metric(at, "Realised M (seed 9)") == str(tr.n_mistakes)
    totals = np.array([olc_core.run("ftrl_randomized", s.X, s.y, eta=0.7, seed=k).n_mistakes for k in range(20)])
    lo, hi = (int(q) for q in np.quantile(totals, (0.05, 0.95), method="inverted_cdf"))
    inside = int(((totals >= lo) & (totals <= hi)).sum())
    assert (f"of 20 seeded runs on the same examples, {inside} ({inside / 20:.0%}) made between {lo} and {hi} mistakes "
            f"(the 5% and 95% quantiles of their counts; mean {totals.mean():.4g})") in shown(at, "success")
    fig = spec["figures"][[f["id"] for f in spec["figures"]].index("mistakes")]["figure"]
    band = next(t for t in fig["data"] if t.get("name") == "realised M: 5%–95% of 20 seeded runs (dotted: median)")
    assert band["y"][-1] == round(hi, 2)
    q = url(at)
    assert q["t"] == "37" and q["alpha"] == "0.7" and q["seed"] == "9" and q["sseed"] == "4"


def test_one_click_sets_the_theorems_learning_rate():
    at = _open(alpha=0.3, R=0.5 + 0.1)
    assert not at.exception
    s = _stream(R=0.6)
    best = olc_core.run("ftrl_randomized", s.X, s.y, eta=0.3).proof.constants["best_alpha"]
    assert math.isclose(best, 1 / (math.sqrt(2) * 0.3))   # L = R/2 on these data (one row has ‖x‖ = R)
    [btn] = [b for b in at.button if b.key != "olc_class_start"]   # (the other: "Start a class session")
    assert btn.label == f"Use the theorem's α* = {best:.4g}"
    btn.click().run()
    assert not at.exception
    assert url(at)["alpha"] == f"{best:.10g}"
    tr = olc_core.run("ftrl_randomized", s.X, s.y, eta=float(f"{best:.10g}"), seed=0)
    assert metric(at, "Bound on E[M]") == f"{tr.proof.mistake_bound:.5g}"
    assert "α is the theorem's choice" in shown(at, "caption")
    assert [b.label for b in at.button] == ["Start a class session"]


def test_bad_values_in_a_link_are_reported_and_replaced():
    at = _open(alpha="fast", T=99999, data="sideways", runs=3)
    assert not at.exception
    w = shown(at, "warning")
    assert "alpha must be a number" in w and "T must be between 1 and 3000" in w
    assert "data must be one of" in w and "runs must be between 10 and 500" in w
    assert viewer_spec(at)["T"] == 300 and url(at)["alpha"] == "1.414213562"


def test_waiting_for_an_upload_and_a_broken_file_are_messages():
    at = _open(data="upload")
    assert not at.exception and not at.error
    assert "every row with ‖x‖ ≤ 1" in shown(at, "info")
    at = _upload(_open(data="upload"), b"x1,x2,label\n0.5,abc,1\n")
    assert not at.exception
    assert "These data cannot be used: row 2, column 'x2': 'abc' is not a number" in shown(at, "error")


def _upload(at, content: bytes):
    at.file_uploader[0].set_value(("pts.csv", content, "text/csv"))
    return at.run()


def test_upload_runs_and_a_long_row_is_named():
    good = b"x1,x2,label\n0.5,0.1,1\n-0.3,0.2,-1\n0.6,0.6,1\n-0.7,-0.1,-1\n"
    at = _upload(_open(data="upload"), good)
    assert not at.exception and not at.error
    X = np.array([[0.5, 0.1], [-0.3, 0.2], [0.6, 0.6], [-0.7, -0.1]])
    tr = olc_core.run("ftrl_randomized", X, np.array([1, -1, 1, -1]), eta=float("1.414213562"))
    assert metric(at, "E[M] = Σ ℓₜ(wₜ)") == f"{tr.proof.constants['expected_mistakes']:.4g}"
    bad = b"x1,x2,label\n0.5,0.1,1\n0.9,0.9,-1\n0.6,0.6,1\n2,0,-1\n"
    at = _upload(_open(data="upload"), bad)
    assert not at.exception
    err = shown(at, "error")
    assert "row 3 has ‖x‖ = 1.27279 > 1 (2 rows in all)" in err and "largest norm (2)" in err
    # without a header the first row is row 1
    at = _upload(_open(data="upload"), b"0.1,0.1,1\n1.5,0,-1\n")
    assert "row 2 has ‖x‖ = 1.5 > 1" in shown(at, "error")
    # scaled into the ball on request, and said so
    at = _upload(_open(data="upload", scale=1), bad)
    assert not at.exception and not at.error
    assert "divided by the largest norm, 2" in shown(at, "caption")
    Xb = np.array([[0.5, 0.1], [0.9, 0.9], [0.6, 0.6], [2.0, 0.0]]) / 2.0
    tr = olc_core.run("ftrl_randomized", Xb, np.array([1, -1, 1, -1]), eta=float("1.414213562"))
    assert metric(at, "Bound on E[M]") == f"{tr.proof.mistake_bound:.5g}"


def test_a_realised_count_above_the_bound_is_said_to_be_no_violation():
    """Learner seed 2 on the default stream ends with M = 92 above the bound on E[M] (91.09): the summary says it
    is not a violation and shows E[M] against the bound, all from the run; seed 0 (below it) says nothing of it."""
    s = _stream()
    tr = olc_core.run("ftrl_randomized", s.X, s.y, eta=float("1.414213562"), seed=2)
    p, c = tr.proof, tr.proof.constants
    assert tr.n_mistakes > p.mistake_bound
    at = _open(seed=2, runs=10)
    assert not at.exception
    assert metric(at, "Realised M (seed 2)") == str(tr.n_mistakes)
    assert [m.help for m in at.metric if m.label == "Realised M (seed 2)"] == [
        "one draw of the learner's coins: the theorem bounds E[M], not this count"]
    text = shown(at, "success")
    assert (f"This seeded run made **{tr.n_mistakes}** mistakes, more than the bound {p.mistake_bound:.5g}: not a "
            f"violation — the theorem bounds the expected count $\\mathbb{{E}}[M_T] = {c['expected_mistakes']:.4g}$"
            in text)
    at0 = _open(runs=10)
    assert "not a violation" not in shown(at0, "success")
