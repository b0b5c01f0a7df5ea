"""AppTest over the exponentiated-update lesson: numbers from the core, deep links, the η slider and its one-click
optimum, the assumption panel, ties shown as 0, bad links and unusable settings reported as messages."""
from __future__ import annotations

import numpy as np
import pytest

import olc_core
from olc_ui.viewer.snapshot import caption_at, ledger_at
from tests.app.pagetest import metric, open_page, page_path, page_text, shown, url, viewer_spec

PAGE = page_path("exponentiated_update")


def _open(**query):
    return open_page(PAGE, timeout=120, **query)


def _marks(at) -> dict[str, str]:
    """The assumption panel: each assumption's name and its mark (✓, ✗ or —)."""
    out = {}
    for m in at.markdown:
        for mark, tag in (("✓", ":green[**✓**] **"), ("✗", ":red[**✗**] **"), ("—", "**—** **")):
            if m.value.startswith(tag):
                out[m.value[len(tag):].split("**")[0].replace("\\", "")] = mark
    return out


def _core(T=300, N=20, k=3, noise=0.0, seed=0, eta=None):
    s = olc_core.streams.sparse_simplex(T=T, N=N, k=k, seed=seed, noise=noise)
    return s, olc_core.run("normalized_winnow", s.X, s.y, comparator=s.comparator, delta=s.info["delta"], eta=eta)


def test_default_run_numbers_come_from_the_core():
    at = _open()
    assert not at.exception and not at.error
    assert at.title[0].value.startswith("The exponentiated update")
    s, tr = _core()
    p, c = tr.proof, tr.proof.constants
    assert metric(at, "Mistakes M (whole run)") == str(tr.n_mistakes)
    assert metric(at, "Margin δ") == f"{c['delta']:.4g}"
    assert metric(at, "Learning rate η") == f"{c['eta']:.4g}"
    assert metric(at, "C = ηδ − ln cosh η") == f"{c['C']:.4g}"
    assert metric(at, "Bound ln N / C") == f"{p.mistake_bound:.5g}"
    assert metric(at, "2 ln N / δ²") == f"{c['bound_2lnN_over_delta2']:.5g}"
    spec = viewer_spec(at)
    assert spec["T"] == 300 and spec["mistake_rounds"] == tr.mistakes.tolist()
    # the potential at a round, in the ledger, is the proof's
    t = int(tr.mistakes[4]) + 1
    assert f"{p.series['kl'][5]:.5g}" in ledger_at(spec, t)[0]["latex"]
    text = page_text(at)
    assert "a score of exactly 0 counts as a mistake" in text
    assert f"{p.mistake_bound:.5g}" in shown(at, "success")
    # the green box is a sentence: where Φ starts, that it stays ≥ 0, the drop per mistake, then the bound
    ok = shown(at, "success")
    assert f"starts at $\\Phi_1 = {c['phi_1']:.4g}" in ok and "is never negative, and drops by at least" in ok
    assert f"M \\le \\Phi_1 / C = {c['bound_phi1']:.5g} \\le \\ln N / C = {p.mistake_bound:.5g}" in ok
    assert "and $\\Phi \\ge 0$ starts" not in ok
    # every assumption holds: ✓ on each, and the bound stated
    assert set(_marks(at).values()) == {"✓"} and len(_marks(at)) == 5
    # the float-range assumption in words, not jargon
    assert "the numbers stay within what floating point represents" in _marks(at) and "float range" not in text
    assert f"ln N / C = {p.mistake_bound:.4g} is below the largest floating-point number" in text
    q = url(at)
    assert q["data"] == "sparse" and q["N"] == "20" and q["k"] == "3" and q["seed"] == "0" and q["eta_opt"] == "1"
    assert q["t"] == "0"
    # the figure at the round on screen is the step viewer's own download (built in the browser)
    assert [b.label for b in at.get("download_button")] == [
        "Download the trace (CSV)", "Download the proof (Markdown + KaTeX)", "Download the proof (LaTeX)",
        "Download this run as a notebook (.ipynb)", "Download this run as one offline file (HTML)",
    ]


def test_a_tie_round_shows_score_zero_on_the_page():
    at = _open()
    _, tr = _core()
    tie = int(np.flatnonzero(np.asarray(tr.columns["score"]) == 0.0)[0])
    spec = viewer_spec(at)
    assert spec["caption"]["values"]["s"]["data"][tie] == 0
    assert "score ⟨wₜ, xₜ⟩ = 0 — ⟨wₜ, xₜ⟩ = 0 exactly" in caption_at(spec, tie + 1)
    assert "⟨wₜ, xₜ⟩ = 0 exactly" in shown(at, "info") and "counts as a mistake" in shown(at, "info")


def test_deep_link_with_a_chosen_eta_and_the_one_click_optimum():
    at = _open(eta_opt=0, eta=0.8, t=57, seed=4)
    assert not at.exception
    s, tr = _core(seed=4, eta=0.8)
    spec = viewer_spec(at)
    assert spec["position"] == 57 and spec["mistake_rounds"] == tr.mistakes.tolist()
    assert metric(at, "Learning rate η") == "0.8"
    assert metric(at, "C = ηδ − ln cosh η") == f"{tr.proof.constants['C']:.4g}"
    [btn] = [b for b in at.button if b.key == "eg_use_optimum"]
    opt = tr.proof.constants["eta_optimal"]
    assert f"{opt:.4g}" in btn.label and not btn.disabled
    btn.click().run()
    assert not at.exception
    _, best = _core(seed=4)
    assert url(at)["eta_opt"] == "1"
    assert metric(at, "Learning rate η") == f"{opt:.4g}"
    assert viewer_spec(at)["mistake_rounds"] == best.mistakes.tolist()
    assert at.slider(key="eg_learner__eta").value == pytest.approx(round(opt, 2))
    # the slider is disabled while the optimum is on: switching it off, then moving the slider, runs its η
    assert at.slider(key="eg_learner__eta").disabled
    at.toggle(key="eg_learner__eta_opt").set_value(False).run()
    at.slider(key="eg_learner__eta").set_value(0.5).run()
    assert url(at)["eta_opt"] == "0" and url(at)["eta"] == "0.5"
    _, half = _core(seed=4, eta=0.5)
    assert viewer_spec(at)["mistake_rounds"] == half.mistakes.tolist()


def test_failing_assumptions_make_the_bound_na():
    at = _open(noise=0.05)
    assert not at.exception
    s, tr = _core(noise=0.05)
    assert metric(at, "Bound ln N / C") == "n/a" and metric(at, "2 ln N / δ²") == "n/a"
    text = page_text(at)
    marks = _marks(at)
    assert marks["margin y⟨u, x⟩ ≥ δ > 0"] == "✗" and marks["‖x‖∞ ≤ 1"] == "✓"
    assert list(marks.values()).count("✗") == 1
    assert "Bound: n/a" in text
    assert "below δ = 0.333333" in text
    at = _open(eta_opt=0, eta=2.0)
    assert metric(at, "Bound ln N / C") == "n/a"
    assert _marks(at)["C = ηδ − ln cosh η > 0"] == "✗" and "is too large for δ" in page_text(at)


def test_bad_link_and_unusable_settings_are_messages():
    at = _open(N="abc", k="4")
    assert not at.exception
    warn = shown(at, "warning")
    assert "N must be a whole number (got 'abc'); using 20" in warn
    at = _open(k=31, N=20)
    assert not at.exception and "k = 31 relevant features is more than N = 20" in shown(at, "error")
    at = _open(data="continuous", k=21, N=40, delta=0.9)
    assert not at.exception and "almost no point has |⟨u, x⟩| ≥ δ = 0.9" in shown(at, "error")
    at = _open(data="upload")
    assert not at.exception and not at.error and "To start" in shown(at, "info")


def test_continuous_stream_runs_with_its_margin():
    at = _open(data="continuous", k=5, delta=0.2, N=30, T=200, seed=2)
    assert not at.exception and not at.error
    s = olc_core.streams.winnow_extra.simplex_continuous(T=200, N=30, k=5, delta=0.2, seed=2)
    tr = olc_core.run("normalized_winnow", s.X, s.y, comparator=s.comparator, delta=0.2)
    assert metric(at, "Mistakes M (whole run)") == str(tr.n_mistakes)
    assert metric(at, "Bound ln N / C") == f"{tr.proof.mistake_bound:.5g}"


def test_too_large_eta_keeps_the_fixed_bound_and_writes_one_sign():
    """η = 2 > η_max(δ): C < 0. 2 ln N/δ² is still a number of N and δ (shown); the η-form ln N / C is
    n/a because it needs C > 0; the ledger writes Φ₁ − C·M as "+ |C|·M", never "− −|C|·M"."""
    at = _open(eta_opt=0, eta=2.0)
    assert not at.exception
    s, tr = _core(eta=2.0)
    c = tr.proof.constants
    assert c["C"] < 0
    b2 = 2 * np.log(c["N"]) / c["delta"] ** 2
    assert metric(at, "2 ln N / δ²") == f"{b2:.5g}" == "53.923"
    [m] = [m for m in at.metric if m.label == "Bound ln N / C"]
    assert m.value == "n/a" and "needs C > 0" in m.help
    rows = ledger_at(viewer_spec(at), tr.T)
    text = " ".join(r["latex"] for r in rows)
    assert "- -" not in text.replace(" ", " ") and "--" not in text.replace(" ", "")
    M = tr.n_mistakes
    assert f"= {c['phi_1']:.5g} + {-c['C']:.5g}\\cdot{{{M}}} = " in text
    assert f"\\ln {{{c['N']}}} + {-c['C']:.5g}\\cdot{{{M}}} = " in text
    # the proof's step 3 does not say "lowers Φ by at least" a negative number and stop there (a student's reading)
    steps = next(m.value for m in at.markdown if "The normaliser" in m.value)
    assert f"$= {c['C']:.4g} \\le 0$: here that says nothing — a mistake may raise $\\Phi$" in steps


def test_eta_slider_is_disabled_while_the_optimum_is_on():
    """Defect: with "use the optimal η" on, the slider looked enabled at 0.50 while the run used 0.3466."""
    at = _open()
    assert not at.exception and url(at)["eta_opt"] == "1"
    sl = at.slider(key="eg_learner__eta")
    assert sl.disabled and "not used: the optimal η* is on" in sl.label
    _, tr = _core(seed=0)
    assert f"This run: η = {tr.info['eta']:.6g}" in shown(at, "caption")
    at.toggle(key="eg_learner__eta_opt").set_value(False).run()
    sl = at.slider(key="eg_learner__eta")
    assert not sl.disabled and sl.label == "η: learning rate" and url(at)["eta"] == "0.5"
