"""AppTest over the Bound explorer: the numbers shown equal direct olc_core.run calls on the same seeds, the
settings live in the URL, the bound-attaining switch, n/a where an assumption fails, and bad or extreme
settings reported as messages (never a traceback)."""
from __future__ import annotations

import json
import math
from fractions import Fraction

import numpy as np

import olc_core
from olc_core._exact.perceptron_bound import perceptron_bound
from olc_ui.lessons.bound_explorer import lesson as L
from olc_ui.lessons.bound_explorer.lesson import param_label
from olc_ui.lessons.bound_explorer.view import fmt, sweep_values
from tests.app.pagetest import metric, open_page, page_text, shown, url
from tests.conftest import ROOT

PAGE = str(ROOT / "pages" / "bound_explorer.py")


def _open(**query):
    return open_page(PAGE, timeout=180, **query)


def _charts(at) -> list[dict]:
    return [json.loads(c.proto.spec) for c in at.get("plotly_chart")]


def _table(at):
    [df] = at.dataframe
    return df.value


def test_default_sweep_numbers_are_direct_runs():
    at = _open()
    assert not at.exception and not at.error
    assert at.title[0].value == "Bound explorer: how tight are the bounds?"
    values, _ = sweep_values(0.05, 0.3, 8, "linear", False)
    med, bounds, rmax = [], [], []
    for g in values:
        m, b = [], []
        for seed in range(5):
            s = olc_core.streams.separable(1000, 5, g, 1.0, seed)
            tr = olc_core.run("perceptron", s.X, s.y, comparator=s.comparator, gamma=g)
            m.append(tr.n_mistakes)
            # the sweep's bound: R²/γ² exactly (olc_core._exact.perceptron_bound), within rounding of the proof's float
            B = perceptron_bound(s.X, s.y, tr.proof.constants["comparator"], g)
            assert abs(float(B) - tr.proof.mistake_bound) <= 1e-12 * float(B)
            b.append(B)
            assert not tr.proof.failed_assumptions
        med.append(float(np.median(m)))
        bounds.append(float(np.median([float(x) for x in b])))
        rmax.append(max(float(Fraction(x) / y) for x, y in zip(m, b)))
    df = _table(at)
    assert df["γ"].tolist() == [fmt(g) for g in values]
    assert df["measured: median"].tolist() == [fmt(x) for x in med]
    assert df["bound: median"].tolist() == [fmt(x) for x in bounds]
    assert df["max"].tolist() == [fmt(x) for x in rmax]
    assert set(df["assumptions"]) == {"✓ hold"}
    mistakes, ratio = _charts(at)
    assert mistakes["data"][1]["y"] == med and mistakes["data"][-1]["y"] == bounds
    assert ratio["data"][1]["x"] == values
    assert metric(at, "Runs") == "40"
    assert metric(at, "Largest ratio measured / bound") == f"{max(rmax):.3f}"
    assert metric(at, "…reached at γ =") == fmt(values[int(np.argmax(rmax))])
    assert "40 runs of the learner (8 values × 5 seeds)" in shown(at, "caption")
    assert [b.label for b in at.get("download_button")] == [   # the sweep taken home: tests/app/test_take_home.py
        "Download the table (CSV: one row per run)", "Download this sweep as a notebook (.ipynb)",
        "Download this sweep as one offline file (HTML)"]
    q = url(at)
    assert q["alg"] == "perceptron" and q["param"] == "gamma" and q["gamma_lo"] == "0.05" and q["seeds"] == "5"
    assert q["worst"] == "0" and q["d"] == "5" and q["T"] == "1000"


def test_deep_link_halving_worst_case_reaches_ratio_one():
    at = _open(alg="halving", worst="1", param="N", N_lo="2", N_hi="64", points="6", scale="log", seeds="2", T="50")
    assert not at.exception and not at.error
    df = _table(at)
    assert df["N"].tolist() == ["2", "4", "8", "16", "32", "64"]
    for n, m, r in zip(df["N"], df["measured: median"], df["ratio: median"]):
        s = olc_core.streams.halving_adversary(T=50, N=int(n), seed=0)
        tr = olc_core.run("halving", s.X, s.y)
        assert m == fmt(tr.n_mistakes) and r == fmt(tr.n_mistakes / tr.proof.mistake_bound) == "1"
    assert metric(at, "Largest ratio measured / bound") == "1.000"
    assert "Bound-attaining stream — Halving:" in page_text(at)
    assert url(at)["worst"] == "1" and url(at)["N_hi"] == "64"


def test_rwm_shows_expected_mistakes_from_the_core():
    at = _open(alg="randomized_weighted_majority", param="eta", eta_lo="0.2", eta_hi="0.8", points="2", seeds="2",
               N="5", T="200")
    assert not at.exception and not at.error
    df = _table(at)
    for eta, m in zip(df["η"], df["measured: median"]):
        e = []
        for seed in range(2):
            s = olc_core.streams.experts(200, 5, np.linspace(0.1, 0.5, 5), seed)
            tr = olc_core.run("randomized_weighted_majority", s.X, s.y, eta=float(eta), seed=seed)
            e.append(tr.proof.constants["expected_mistakes"])
        assert m == fmt(float(np.median(e)))
    assert _charts(at)[0]["layout"]["yaxis"]["title"]["text"] == "expected mistakes E[M]"


def test_noise_breaks_an_assumption_and_the_bound_reads_na_with_the_reason():
    at = _open(alg="halving", param="noise", noise_lo="0", noise_hi="0.2", points="2", scale="linear", seeds="2",
               N="16", T="200")
    assert not at.exception and not at.error
    df = _table(at)
    assert df["assumptions"].tolist() == ["✓ hold", "✗ fail: n/a"] and df["bound: median"].tolist()[1] == "n/a"
    warn = shown(at, "warning")
    assert "At noise = 0.2 the theorem's assumption fails" in warn and "consistent" in warn
    assert _charts(at)[0]["data"][-1]["y"][1] is None


def test_bad_link_values_are_reported_and_replaced():
    at = _open(alg="nope", gamma_lo="abc", seeds="999", points="3")
    assert not at.exception
    warn = shown(at, "warning")
    assert "alg must be one of" in warn and "gamma_lo must be a number" in warn and "seeds must be between" in warn
    assert len(_table(at)) == 3


def test_extreme_settings_get_clear_messages():
    at = _open(alg="winnow", param="N", N_lo="10", N_hi="20000", T="10000")
    assert not at.exception and not at.dataframe
    assert "This sweep cannot be run: one stream would hold 200,000,000 numbers" in shown(at, "error")
    at = _open(alg="weighted_majority", param="beta", beta_lo="0.5", beta_hi="3", points="2", seeds="1")
    assert not at.exception and not at.dataframe
    err = shown(at, "error")
    assert "These settings cannot be run: beta = 3, seed 0: weighted_majority: beta must be" in err
    at = _open(alg="halving", param="noise", scale="log")
    assert "logarithmic spacing needs From > 0" in shown(at, "error")
    at = _open(alg="decision_list", worst="1")
    assert not at.exception and "No bound-attaining stream is built here for Decision lists" in shown(at, "warning")


def test_perceptron_noise_uses_the_nonseparable_theorem():
    at = _open(alg="perceptron", param="noise", noise_lo="0", noise_hi="0.1", points="2", seeds="1", T="300")
    assert not at.exception and not at.error
    s = olc_core.streams.separable(300, 5, 0.1, 1.0, 0, noise=0.1)
    tr = olc_core.run("perceptron", s.X, s.y, comparator=s.comparator, gamma=0.1)
    assert tr.proof.mistake_bound is None
    b = tr.proofs["nonseparable"].mistake_bound
    assert _table(at)["bound: median"].tolist()[1] == fmt(b) and math.isfinite(b)
    cap = shown(at, "caption")
    assert "Perceptron, separable data" in cap and tr.proofs["nonseparable"].name in cap


def test_switching_the_learner_on_the_page_is_not_reported_as_a_bad_link():
    """The link holds the previous learner's sweep (param=gamma); picking Winnow on the page starts Winnow's own
    settings without a 'setting in the link was not valid' warning (a student did nothing wrong)."""
    at = _open(alg="perceptron", param="gamma")
    assert not at.exception and "not valid" not in shown(at, "warning")
    w = next(x for x in at.selectbox if x.key == "bound_explorer__alg") if any(
        x.key == "bound_explorer__alg" for x in at.selectbox) else next(x for x in at.radio if x.key == "bound_explorer__alg")
    w.set_value("winnow").run()
    assert not at.exception
    assert "not valid" not in shown(at, "warning")
    # a link that names a parameter the learner does not have is still reported
    at = _open(alg="winnow", param="gamma")
    assert "not valid" in shown(at, "warning")


def _widget(at, key):
    return next(w for kind in ("selectbox", "toggle", "radio") for w in at.get(kind) if w.key == key)


def test_bound_attaining_switch_from_the_default_page_moves_the_parameter():
    """Defect: turning the switch on from the default page (Perceptron sweeping γ) left an empty progress bar
    and "cannot sweep 'gamma'"; the parameter choice now offers only d and moves there, saying so."""
    at = _open()
    _widget(at, "bound_explorer__worst").set_value(True).run()
    assert not at.exception and not at.error and not at.get("progress")
    param = _widget(at, "bound_explorer__perceptron__param")
    assert param.value == "d" and list(param.options) == [param_label("perceptron", "d")]
    assert "cannot sweep γ, so the page sweeps d instead" in shown(at, "info")
    assert len(_charts(at)) == 2 and url(at)["param"] == "d"


def test_every_learner_with_the_switch_on_and_off():
    from olc_core.sweep import SWEEPS
    for alg in SWEEPS:
        at = _open(alg=alg, seeds="1", T="100", points="2")
        assert not at.exception and not at.error, alg
        for worst in (True, False):
            _widget(at, "bound_explorer__worst").set_value(worst).run()
            assert not at.exception and not at.error and not at.get("progress"), (alg, worst)
            param = _widget(at, f"bound_explorer__{alg}__param")
            offered = [p for p in L.params_of(alg) if not (worst and SWEEPS[alg].worst is not None)
                       or p in SWEEPS[alg].worst_keys]
            assert list(param.options) == [param_label(alg, p) for p in offered], (alg, worst)
            assert param.value in offered
            if worst and alg not in L.WORST_TEXT:
                assert "No bound-attaining stream is built here" in shown(at, "warning")
            else:
                assert len(_charts(at)) == 2, (alg, worst)


def test_a_value_the_core_refuses_leaves_no_progress_bar():
    at = _open(alg="weighted_majority", param="beta", beta_lo="0.5", beta_hi="3", points="2", seeds="1")
    assert "These settings cannot be run" in shown(at, "error") and not at.get("progress")


def test_perceptron_noise_sweep_names_each_theorem_and_the_vacuous_bounds():
    at = _open(alg="perceptron", param="noise", noise_lo="0", noise_hi="0.3", points="4", seeds="3")
    assert not at.exception and not at.error
    mistakes, _ = _charts(at)
    names = [d["name"] for d in mistakes["data"]]
    assert "bound: separable data" in names and "bound: non-separable data (TDᵧ)" in names
    df = _table(at)
    info = shown(at, "info")
    vac = [(n, b) for n, b in zip(df["noise"], df["bound: median"]) if float(b) > 1000]
    assert vac and "vacuous" in info and "M ≤ T holds trivially" in info
    for n, b in vac:
        assert f"noise = {n} (bound {b}, T = 1000)" in info
