"""AppTest over the Perceptron lessons: real content from the run, deep links, widgets mirrored in the URL."""
from __future__ import annotations

import numpy as np

import olc_core
from olc_ui.lessons.perceptron import lesson as L
from olc_ui.viewer.snapshot import ledger_at
from tests.app.pagetest import metric, open_page, page_text, prose, shown, url, viewer_spec, viewers
from tests.conftest import ROOT

PERCEPTRON = str(ROOT / "pages" / "perceptron.py")
MARGIN = str(ROOT / "pages" / "margin_perceptron.py")


def _open(path: str, **query):
    return open_page(path, timeout=90, **query)


_spec, _metric, _text = viewer_spec, metric, page_text


def test_default_run_numbers_come_from_the_core():
    at = _open(PERCEPTRON)
    assert not at.exception
    assert at.title[0].value == "The Perceptron and its mistake bound"
    s = olc_core.streams.separable(T=200, d=2, gamma=0.1, radius=1.0, seed=0)
    tr = olc_core.run("perceptron", s.X, s.y, comparator=s.comparator)
    assert _metric(at, "Mistakes M (whole run)") == str(tr.n_mistakes)
    assert _metric(at, "Bound R²/γ²") == f"{tr.proof.mistake_bound:.5g}"
    assert "the theorem applies" in _text(at)
    spec = _spec(at)
    assert spec["T"] == 200 and spec["mistake_rounds"] == tr.mistakes.tolist()
    assert [f["id"] for f in spec["figures"]] == ["main", "sandwich_A", "sandwich_B"]
    assert len(spec["ledger"]["lines"]) == 5
    # every setting and the position are in the URL
    q = url(at)
    assert q["gamma"] == "0.1" and q["seed"] == "0" and q["t"] == "0" and q["data"] == "generated"


def test_deep_link_opens_the_same_run_at_the_same_round():
    at = _open(PERCEPTRON, seed=3, noise=0.1, gamma=0.2, T=300, t=37)
    assert not at.exception
    spec = _spec(at)
    assert spec["position"] == 37 and spec["T"] == 300
    s = olc_core.streams.separable(T=300, d=2, gamma=0.2, radius=1.0, seed=3, noise=0.1)
    flipped = np.flatnonzero(s.info["flipped"])
    err = shown(at, "error")
    assert "does not apply" in err and f"{flipped[0] + 1}," in err      # 1-based rounds in the message
    assert "TD_γ bound" in _text(at) or "TD" in _text(at)
    assert "TDᵧ proof" in spec["figures"][1]["title"]
    assert url(at)["t"] == "37" and url(at)["seed"] == "3"
    # no positive margin: the tile names the measured minimum, not a "γ", and the separable bound is n/a
    tr = olc_core.run("perceptron", s.X, s.y, comparator=s.comparator)
    low = float(np.min(s.y * (s.X @ s.comparator)))
    assert low < 0 and _metric(at, "min yₜ⟨w*,xₜ⟩ ≤ 0") == f"{low:.4g}".replace("-", "−")
    assert _metric(at, "Bound R²/γ²") == "n/a" and tr.proof.mistake_bound is None
    assert not [m for m in at.metric if m.label.startswith("Margin γ")]


def test_widget_changes_are_mirrored_in_the_url():
    at = _open(PERCEPTRON)
    at.slider(key="perceptron__T").set_value(500).run()
    at.slider(key="perceptron__gamma").set_value(0.25).run()
    assert url(at)["T"] == "500" and url(at)["gamma"] == "0.25"
    assert _spec(at)["T"] == 500
    at.radio(key="perceptron__data").set_value("tight").run()
    assert url(at)["data"] == "tight"
    assert _spec(at)["figures"][0]["figure"]["data"][0]["type"] == "bar"
    assert _metric(at, "Mistakes M (whole run)") == "10" and _metric(at, "Bound R²/γ²") == "10"


def test_bad_values_in_a_link_are_reported_and_replaced():
    at = _open(PERCEPTRON, gamma="abc", T=99999, order="sideways")
    assert not at.exception
    warnings = shown(at, "warning")
    assert "gamma must be a number" in warnings and "T must be between 1 and 10000" in warnings
    assert "order must be one of" in warnings
    assert _spec(at)["T"] == 200 and url(at)["gamma"] == "0.1"


def test_three_d_and_clicked_points():
    at = _open(PERCEPTRON, d=3, T=150)
    assert not at.exception
    types = {t["type"] for t in _spec(at)["figures"][0]["figure"]["data"]}
    assert "scatter3d" in types and "mesh3d" in types
    at = _open(PERCEPTRON, data="click", pts="0.5,0.2,1;-0.4,0.3,-1;0.1,-0.6,1")
    assert not at.exception
    assert _spec(at)["T"] == 3
    assert any(c.label == "Label of the next point" for c in at.radio)


def test_waiting_for_an_upload_is_information_not_an_error():
    at = _open(PERCEPTRON, data="upload")
    assert not at.exception and not at.error
    assert "choose a CSV file" in shown(at, "info")


def test_td_gamma_slider_sets_the_bound():
    at = _open(PERCEPTRON, noise=0.1, gbest=0, gtd=0.08)
    assert not at.exception
    spec = _spec(at)
    assert "γ = 0.08" in spec["figures"][1]["title"]
    s = olc_core.streams.separable(T=200, d=2, gamma=0.1, radius=1.0, seed=0, noise=0.1)
    tr = olc_core.run("perceptron", s.X, s.y, comparator=s.comparator, gamma=0.08)
    b = tr.proofs["nonseparable"].mistake_bound
    assert any(f"{b:.5g}" in line["latex"] for line in ledger_at(spec, spec["T"]))
    at.toggle(key="perceptron_td__gbest").set_value(True).run()
    assert url(at)["gbest"] == "1"
    assert "γ = 0.08" not in _spec(at)["figures"][1]["title"]


def test_extreme_sliders_give_a_message_not_a_traceback():
    at = _open(PERCEPTRON, gamma=0.5, R=0.5)
    assert not at.exception and not at.error      # γ ≥ R: a warning and a valid γ (see the test below)
    assert "is impossible with radius R = 0.5" in shown(at, "warning")
    at = _open(PERCEPTRON, T=1)
    assert not at.exception and _spec(at)["T"] == 1


def test_margin_perceptron_page():
    at = _open(MARGIN, T=40, gamma=0.25, gamma_alg=0.25)
    assert not at.exception
    s = olc_core.streams.separable(T=40, d=2, gamma=0.25, radius=1.0, seed=0)
    tr = olc_core.run("margin_perceptron", s.X, s.y, gamma=0.25, comparator=s.comparator, passes=None)
    assert _metric(at, "Updates U") == str(tr.n_mistakes)
    assert _metric(at, "Final margin") == f"{tr.info['final_margin']:.4f}"
    assert "The last pass made no update" in _text(at)
    spec = _spec(at)
    assert spec["T"] == tr.T and "margin mistake" in spec["extra_stops"]
    at = _open(MARGIN, T=40, gamma=0.2, gamma_alg=0.9)
    assert "does not apply" in shown(at, "error")
    at.toggle(key="margin__until").set_value(False).run()
    at.slider(key="margin__passes").set_value(2).run()
    assert url(at)["passes"] == "2" and url(at)["until"] == "0"


def test_margin_perceptron_final_w_zero_has_no_margin():
    """Two copies of one point with opposite labels: the updates cancel, the final w is 0 and has no
    margin at all — the page says 'undefined', never '-inf' (review issue 11 §8)."""
    at = _open(MARGIN, data="click", pts="1,1,1;1,1,-1", until=0, passes=5)
    assert not at.exception
    assert _metric(at, "Final margin") == "undefined"
    text = _text(at) + shown(at, "warning")
    assert "inf" not in text and "undefined" in text


def test_a_failing_planted_comparator_is_not_called_inseparability():
    """T=8, noise=0.2, seed=6: the planted w* errs on a flipped label, yet the max-margin search finds
    a separator. With the planted w* the page must not say the data are not separable (review issue 11
    §8a); with the max-margin comparator the theorem applies."""
    at = _open(PERCEPTRON, T=8, noise=0.2, seed=6, cmp="planted")
    assert not at.exception
    said = shown(at, "info") + shown(at, "error")
    assert "does not make them inseparable" in said and "Without separability" not in said
    assert "not linearly separable" not in said
    help_text = next(s.help for s in L.SETTINGS if s.key == "noise")
    assert "stop being separable" not in help_text
    at = _open(PERCEPTRON, T=8, noise=0.2, seed=6, cmp="max-margin")
    assert "the theorem applies" in shown(at, "success")


def test_label_noise_page_promises_only_what_holds_and_names_the_proof_of_inseparability():
    """Issue 13 §4: the introduction does not promise M ≤ R²/γ² for every run; with the max-margin search the
    failed assumption reads as "not separable" with the certificate's rounds; TDᵧ so far / whole run."""
    at = _open(PERCEPTRON, noise=0.1, T=300, cmp="max-margin")
    assert not at.exception
    intro = prose(at)[0]
    assert "when every point has margin at least" in intro and "that bound does not apply" in intro
    # noisy data can stay separable (issue 32 §4): the planted w* loses its margin, not the data their separability
    assert "With label noise no such" not in intro and "noisy data can still be separable" in intro
    s = olc_core.streams.separable(T=300, d=2, gamma=0.1, radius=1.0, seed=0, noise=0.1)
    tr = olc_core.run("perceptron", s.X, s.y)
    assert tr.info["separability"] == "inseparable"
    cert = np.asarray(tr.proof.failed_assumptions[0].rounds)
    err = shown(at, "error")
    assert "prove that the data are **not separable**" in err and f"{cert[0] + 1}" in err
    assert "ringed in pink" not in err                        # the pink rings are the hinge terms here
    assert "over the whole run" in _text(at)
    assert any("TDᵧ *so far*" in c.value and "*over the whole run*" in c.value for c in at.caption)


def test_margin_perceptron_compares_with_the_datas_largest_margin_not_the_planted_one():
    """γ = 1 for the algorithm: its final margin beats the planted w*'s, never the data's largest margin
    (the page once called the planted w*'s margin 'the data's own margin')."""
    import re

    from olc_core.comparators import max_margin
    at = _open(MARGIN, gamma_alg=1.0)
    assert not at.exception
    text = page_text(at, warnings=True)
    assert "own margin" not in text
    m = re.search(r"The final margin \(([0-9.]+)\) is not guaranteed.*?\(the largest margin any unit w has on these "
                  r"data is ([0-9.e-]+); the planted w\*'s margin is ([0-9.]+)\)", text)
    assert m, text
    fm, best, planted = (float(g) for g in m.groups())
    s = olc_core.streams.separable(T=int(url(at)["T"]), d=2, gamma=float(url(at)["gamma"]), radius=1.0, seed=0)
    tr = olc_core.run("margin_perceptron", s.X, s.y, gamma=1.0, comparator=s.comparator, passes=None)
    mm = max_margin(tr.info["examples"], tr.info["labels"])
    assert fm == round(tr.info["final_margin"], 4) and planted == float(f"{tr.proof.constants['measured_margin']:.4g}")
    assert fm > planted                                       # the case the student misread
    assert best == float(f"{max(mm.margin, tr.info['final_margin']):.4g}") and best >= fm
    assert mm.upper >= tr.info["final_margin"] - 1e-12
    # the failed assumption is about the given w*, not the data
    assert "for the given w* (its smallest margin y⟨w*, x⟩ is 0.2424)" in shown(at, "error")


def test_converged_margin_perceptron_names_whose_margin_it_quotes():
    at = _open(MARGIN, gamma_alg=0.2)
    text = shown(at, "success")
    assert "The last pass made no update" in text and "own margin" not in text
    assert "the largest margin any unit w has on these data is" in text and "the planted w*'s margin is 0.2424" in text


def test_click_points_instruction_comes_first_and_the_buttons_fit():
    """Defect: "click on the canvas below" under the canvas, the canvas's bottom off a 800 px screen, and the
    button label cut to "Remove the last po…"."""
    import json
    at = _open(PERCEPTRON, data="click")
    assert not at.exception and not at.error
    info = shown(at, "info")
    assert "click on the canvas above" in info and "below" not in info
    assert "**Click points onto the canvas:** pick the label of the next point" in shown(at, "markdown")
    assert [b.label for b in at.button] == ["Undo last point", "Clear all points"]
    [canvas] = [json.loads(c.proto.spec) for c in at.get("plotly_chart")]
    assert canvas["layout"]["height"] <= 300


def test_margin_at_the_radius_warns_and_runs_with_a_valid_margin():
    """Defect: γ = 0.5 with R = 0.5 (both allowed by the sliders) replaced the page by an error."""
    at = _open(PERCEPTRON, gamma=0.5, R=0.5, T=100)
    assert not at.exception and not at.error
    assert "the page uses γ = 0.49" in shown(at, "warning")
    s = olc_core.streams.separable(T=100, d=2, gamma=0.49, radius=0.5, seed=0)
    tr = olc_core.run("perceptron", s.X, s.y, comparator=s.comparator, gamma=0.49)
    assert _spec(at)["T"] == 100 and _metric(at, "Bound R²/γ²") == f"{tr.proof.mistake_bound:.5g}"
    assert url(at)["gamma"] == "0.5"        # the slider keeps the student's value; the warning names the one used


def test_noisy_run_says_which_gamma_the_band_uses():
    """Defect: with noise the band and the title used γ = 0.28 (the TD bound's best γ) while the sidebar read 0.10."""
    at = _open(PERCEPTRON, noise=0.1, gamma=0.1, T=200)
    assert not at.exception and "does not apply" in shown(at, "error")     # R²/γ² fails: the TD_γ bound is shown
    s = olc_core.streams.separable(T=200, d=2, gamma=0.1, radius=1.0, seed=0, noise=0.1)
    tr = olc_core.run("perceptron", s.X, s.y, comparator=s.comparator, gamma=0.1)
    g = tr.proofs["nonseparable"].constants["best_gamma"]
    main = _spec(at)["figures"][0]
    assert f"band: γ = {g:.3g}, the γ that minimises the TDᵧ bound; the stream was generated with margin 0.1" \
        in main["title"]
    assert any(f"γ = {g:.3g}" in d.get("name", "") for d in main["figure"]["data"])
    at = _open(PERCEPTRON, noise=0.1, gamma=0.1, T=200, gbest=0, gtd=0.08)
    assert "band: γ = 0.08, the γ chosen for the TDᵧ bound" in _spec(at)["figures"][0]["title"]


def test_negative_numbers_in_the_pages_text_carry_the_minus_sign():
    """A negative number a student reads outside maths is written with the minus sign U+2212, as the viewer and the
    rest of the page write it (a review found "-0.9998", "-0.9706" and "-0.901" on these two pages with noise)."""
    import re
    math = re.compile(r"\$\$.*?\$\$|\$[^$]*\$", re.S)
    hyphen_number = re.compile(r"(?<![\w\-\\^_{(])-\d")
    for path, query in ((MARGIN, {"noise": "0.3"}), (PERCEPTRON, {"noise": "0.1"}),
                        (PERCEPTRON, {"noise": "0.3", "cmp": "planted"})):
        at = _open(path, **query)
        assert not at.exception
        texts = [e.value for kind in ("markdown", "error", "warning", "info", "success", "caption")
                 for e in getattr(at, kind)] + [f"{m.label}: {m.value}" for m in at.metric]
        found = [t for t in texts if hyphen_number.search(math.sub(" ", t))]
        assert found == [], found
        assert "−0.9" in " ".join(texts)          # the negative margins are there, with the minus sign
