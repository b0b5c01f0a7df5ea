"""AppTest over the Experts lesson: numbers from the core, deep links, widgets mirrored in the URL, bad links
and extreme settings reported as messages (never a traceback)."""
from __future__ import annotations


import numpy as np
from streamlit.testing.v1 import AppTest

import olc_core
from olc_core.learners.randomized_weighted_majority import realised_mistakes
from olc_ui.lessons.experts.lesson import rates
from olc_ui.viewer.snapshot import ledger_at
from tests.app.pagetest import metric, open_page, page_text, shown, url, viewer_data, viewer_spec, viewers
from tests.conftest import ROOT

PAGE = str(ROOT / "pages" / "experts.py")


def _open(**query):
    return open_page(PAGE, timeout=90, **query)


_spec = viewer_spec
_metric = metric


def _text(at) -> str:
    return page_text(at)


def _messages(at: AppTest, kind: str) -> str:
    return shown(at, kind)


def _stream(T=300, N=10, best=0.1, worst=0.45, errors="correlated", groups=2, noise=0.0, seed=0):
    return olc_core.streams.experts(T=T, N=N, error_rates=rates(best, worst, N), seed=seed, noise=noise,
                                    exact=errors == "exact", groups=groups if errors == "correlated" else None)


def test_default_run_numbers_come_from_the_core():
    at = _open()
    assert not at.exception and not at.error
    assert at.title[0].value == "Learning from expert advice"
    s = _stream()
    tr = olc_core.run("weighted_majority", s.X, s.y, beta=0.5, update="on_mistake")
    p = tr.proof
    assert _metric(at, "Mistakes M (whole run)") == str(tr.n_mistakes)
    assert _metric(at, "Best expert m*") == str(p.constants["m_star"])
    assert _metric(at, "Bound on M") == f"{p.mistake_bound:.5g}"
    assert f"{p.mistake_bound:.5g}" in _messages(at, "success")
    spec = _spec(at)
    assert spec["T"] == 300 and spec["mistake_rounds"] == tr.mistakes.tolist()
    assert [f["id"] for f in spec["figures"]] == ["weights", "sandwich", "advice", "mistakes"]
    assert any(f"{p.mistake_bound:.5g}" in line["latex"] for line in ledger_at(spec, 300))
    # every setting, the seed and the round are in the URL
    q = url(at)
    assert q["alg"] == "wm" and q["beta"] == "0.5" and q["update"] == "on_mistake" and q["seed"] == "0"
    assert q["N"] == "10" and q["T"] == "300" and q["data"] == "experts" and q["t"] == "0"
    # the comparison table runs all three learners on the same advice
    [table] = at.dataframe
    df = table.value
    assert df["mistakes M"].tolist()[0] == tr.n_mistakes
    hv = olc_core.run("halving", s.X, s.y)
    assert df["mistakes M"].tolist()[2] == hv.n_mistakes
    labels = [b.label for b in at.get("download_button")]
    assert labels == [  # the figure: from the viewer, of the round on screen
        "Download the trace (CSV)", "Download the proof (Markdown + KaTeX)", "Download the proof (LaTeX)",
        "Download this run as a notebook (.ipynb)", "Download this run as one offline file (HTML)",
    ]
    assert viewer_data(at)["download"] == "experts"


def test_deep_link_opens_the_same_rwm_run_at_the_same_round():
    at = _open(alg="rwm", eta=0.3, seed=2, draw=5, runs=30, N=8, T=250, errors="exact", t=57)
    assert not at.exception
    spec = _spec(at)
    assert spec["position"] == 57 and spec["T"] == 250
    s = _stream(T=250, N=8, errors="exact", seed=2)
    tr = olc_core.run("randomized_weighted_majority", s.X, s.y, eta=0.3, seed=5)
    assert spec["mistake_rounds"] == tr.mistakes.tolist()
    assert _metric(at, "E[M] = Σ Fₜ") == f"{tr.info['expected_mistakes']:.4g}"
    assert _metric(at, "Bound on E[M]") == f"{tr.proof.mistake_bound:.5g}"
    band = realised_mistakes(s.X, s.y, seeds=30, eta=0.3)
    mis = spec["figures"][3]["figure"]["data"]
    hi = next(t for t in mis if t.get("name") == "5%–95% of 30 runs")
    assert np.allclose(hi["y"], band.band[2], atol=0.01)
    assert "of 30 seeded runs on the same advice" in _messages(at, "success")
    q = url(at)
    assert q["t"] == "57" and q["draw"] == "5" and q["eta"] == "0.3" and q["alg"] == "rwm"


def test_widget_changes_are_mirrored_in_the_url():
    at = _open()
    at.slider(key="experts__beta").set_value(0.8).run()
    assert url(at)["beta"] == "0.8"
    s = _stream()
    tr = olc_core.run("weighted_majority", s.X, s.y, beta=0.8, update="on_mistake")
    assert _spec(at)["mistake_rounds"] == tr.mistakes.tolist()
    at.radio(key="experts__update").set_value("every_round").run()
    assert url(at)["update"] == "every_round"
    tr = olc_core.run("weighted_majority", s.X, s.y, beta=0.8, update="every_round")
    assert _metric(at, "Mistakes M (whole run)") == str(tr.n_mistakes)
    at.slider(key="experts_data__N").set_value(6).run()
    at.slider(key="experts_data__noise").set_value(0.1).run()
    assert url(at)["N"] == "6" and url(at)["noise"] == "0.1"
    at.radio(key="experts__alg").set_value("halving").run()
    assert url(at)["alg"] == "halving"
    assert _spec(at)["figures"][0]["figure"]["layout"]["yaxis"]["range"] == [0, 1.15]   # the version space
    # the learner's own widgets: β only for WM, η only for RWM
    labels = [s.label for s in at.slider]
    assert not any(lab.startswith("β") or lab.startswith("η") for lab in labels)


def test_bad_values_in_a_link_are_reported_and_replaced():
    at = _open(beta="abc", T=99999, alg="sideways", N=0)
    assert not at.exception
    warnings = _messages(at, "warning")
    assert "beta must be a number" in warnings and "T must be between 1 and 2000" in warnings
    assert "alg must be one of" in warnings and "N must be between 1 and 50" in warnings
    assert _spec(at)["T"] == 300 and url(at)["beta"] == "0.5" and url(at)["alg"] == "wm"


def test_beta_zero_without_a_perfect_expert_is_a_message_with_a_fix():
    at = _open(beta=0)
    assert not at.exception
    err = _messages(at, "error")
    assert "no bound" in err and "β = 0" in err and "m* = " in err
    assert _metric(at, "Bound on M") == "n/a"
    assert any("does not apply" in line["latex"] for line in ledger_at(_spec(at), 300))
    at = _open(alg="halving")
    assert "no expert is consistent" in _messages(at, "error")
    at.button(key="experts_perfect_button").click().run()
    assert not at.error and url(at)["best"] == "0" and url(at)["noise"] == "0"
    s = _stream(best=0.0)
    hv = olc_core.run("halving", s.X, s.y)
    assert _metric(at, "Bound log₂|H|") == f"{hv.proof.mistake_bound:.5g}"
    assert _metric(at, "Mistakes M (whole run)") == str(hv.n_mistakes)


def test_adversary_is_one_click_and_nearly_reaches_the_bound():
    at = _open(T=200)
    at.button(key="experts_adversary_button").click().run()
    assert not at.exception
    assert url(at)["data"] == "adversary"
    assert _metric(at, "Mistakes M (whole run)") == "200"
    a = olc_core.streams.adversary(T=200, N=10, beta=0.5, update="on_mistake")
    tr = olc_core.run("weighted_majority", a.X, a.y, beta=0.5)
    assert _metric(at, "Bound on M") == f"{tr.proof.mistake_bound:.5g}"
    assert f"reached {200 / tr.proof.mistake_bound:.0%} of it" in shown(at, "caption")
    # the adversary plays against the chosen learner: RWM's weights (every round, β = 1 − η)
    at = _open(alg="rwm", eta=0.25, data="adversary", T=150)
    assert not at.exception
    a = olc_core.streams.adversary(T=150, N=10, beta=0.75, update="every_round")
    tr = olc_core.run("randomized_weighted_majority", a.X, a.y, eta=0.25, seed=0)
    assert _spec(at)["mistake_rounds"] == tr.mistakes.tolist()


def test_extreme_settings_give_a_message_not_a_traceback():
    cases = [
        (dict(data="adversary", N=1), "error", "at least two experts"),
        (dict(N=1), "info", "one expert"),
        (dict(T=1), "info", "single round"),
        (dict(beta=0.99), "info", "β close to 1"),
        (dict(beta=0.01), "info", "β = 0.01 is close to 0"),
        (dict(alg="rwm", eta=0.01), "info", "η = 0.01 is close to 0"),
        (dict(alg="rwm", eta=1), "error", "η = 1 and every expert errs"),
        (dict(N=50, T=2000), "info", "capped at 600 rounds"),
        (dict(best=0.4, worst=0.1), "error", "below the best one's"),
    ]
    for query, kind, text in cases:
        at = _open(**query)
        assert not at.exception, query
        assert text in _messages(at, kind), (query, _messages(at, kind))
    at = _open(N=50, T=2000)
    assert _spec(at)["T"] == 600 and url(at)["T"] == "2000"
    at = _open(T=1)
    assert _spec(at)["T"] == 1


def test_rwm_spread_of_seeded_runs_is_in_whole_mistakes():
    """The review saw '90% made between 32 and 38.05': a quantile of mistake counts is a count."""
    import re
    at = _open(alg="rwm")
    assert not at.exception
    m = re.search(r"of (\d+) seeded runs on the same advice, (\d+) \((\d+)%\) made between (\S+) and (\S+) mistakes "
                  r"\(the 5% and 95% quantiles of their counts", shown(at, "success"))
    assert m, shown(at, "success")
    S, inside, pct = int(m[1]), int(m[2]), int(m[3])
    lo, hi = m[4], m[5]
    assert lo.isdigit() and hi.isdigit(), (lo, hi)              # whole numbers, no 38.05
    assert inside / S >= 0.9 and pct == round(100 * inside / S)
