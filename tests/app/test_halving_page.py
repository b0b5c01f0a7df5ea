"""AppTest over the Halving lesson: real content from the run, deep links, widgets mirrored in the URL,
bad links reported, extreme settings answered with a message."""
from __future__ import annotations

import math

import numpy as np
import pytest

import olc_core
from olc_core.hypotheses import HalfPlanes, MonotoneConjunctions, Thresholds, dimensions
from olc_core.streams.experts import target_concept
from olc_ui.viewer.snapshot import caption_at, ledger_at
from tests.app.pagetest import metric, open_page, page_text, shown, url, viewer_data, viewer_spec, viewers
from tests.conftest import ROOT
from tests.wrong_sentences import normalise

HALVING = str(ROOT / "pages" / "halving.py")


def _open(**query):
    return open_page(HALVING, timeout=120, **query)


_spec = viewer_spec
_metric = metric


def _text(at) -> str:
    return page_text(at, latex=True)


def _core(H, T=50, seed=0, noise=0.0, update="on_mistake"):
    s = target_concept(H, T=T, seed=seed, noise=noise)
    return s, olc_core.run("halving", s.X, s.y, hypotheses=H, update=update)


def test_default_run_numbers_come_from_the_core():
    at = _open()
    assert not at.exception
    assert at.title[0].value == "Halving: the version space"
    s, tr = _core(HalfPlanes(32))
    assert _metric(at, "|H| (hypotheses)") == "32"
    assert _metric(at, "Bound log₂|H|") == "5"
    assert _metric(at, "Mistakes M (whole run)") == str(tr.n_mistakes)
    assert _metric(at, "Left at the end") == str(int(tr.weights_at(tr.T).sum()))
    assert "Realisable" in _text(at) and s.info["description"] in _text(at)
    spec = _spec(at)
    assert spec["T"] == 50 and spec["mistake_rounds"] == tr.mistakes.tolist()
    assert [f["id"] for f in spec["figures"]] == ["main", "sandwich"]
    assert "32 half-planes" in spec["figures"][0]["title"]
    # VC ≤ opt ≤ M_Halving ≤ log₂|H| with the core's numbers
    d = dimensions(HalfPlanes(32))
    assert any(f"\\mathrm{{VC}}(H) = {d.vc}" in x.value and f"\\mathrm{{opt}}(H) = {d.opt}" in x.value
               and f"= {d.halving}" in x.value and "\\checkmark" in x.value for x in at.markdown)
    # every setting, the seed and the position are in the URL
    q = url(at)
    assert (q["cls"], q["K"], q["seed"], q["t"], q["update"], q["stream"]) == \
        ("halfplanes", "32", "0", "0", "on_mistake", "random")
    assert [b.proto.label for b in at.get("download_button")] == [
        "Download the trace (CSV)", "Download the proof (Markdown + KaTeX)", "Download the proof (LaTeX)",
        "Download this run as a notebook (.ipynb)", "Download this run as one offline file (HTML)",
    ]
    assert viewer_data(at)["download"] == "halving"   # the figure: from the viewer, of the round on screen


def test_deep_link_opens_the_same_run_at_the_same_round():
    at = _open(cls="thresholds", K=16, seed=3, T=80, update="every_round", t=23)
    assert not at.exception
    spec = _spec(at)
    assert spec["position"] == 23 and spec["T"] == 80
    s, tr = _core(Thresholds.grid(16), T=80, seed=3, update="every_round")
    assert spec["mistake_rounds"] == tr.mistakes.tolist()
    size = int(tr.weights_at(23).sum())
    assert ledger_at(spec, 23)[0]["latex"].endswith(f"|H_{{t+1}}| = {size}")
    assert f"xₜ = {s.X[22, 0]:.3f}" in caption_at(spec, 23)
    q = url(at)
    assert (q["t"], q["seed"], q["cls"], q["K"], q["update"]) == ("23", "3", "thresholds", "16", "every_round")


def test_widget_changes_are_mirrored_in_the_url():
    at = _open()
    at.radio(key="halving__cls").set_value("conj").run()
    assert url(at)["cls"] == "conj"
    at.slider(key="halving__n").set_value(4).run()
    assert url(at)["n"] == "4"
    assert _metric(at, "|H| (hypotheses)") == "16"
    assert "monotone conjunctions" in _spec(at)["figures"][0]["title"]
    at.radio(key="halving__update").set_value("every_round").run()
    at.slider(key="halving__T").set_value(120).run()
    assert url(at)["update"] == "every_round" and url(at)["T"] == "120"
    assert _spec(at)["T"] == 120
    keys = {w.key for w in at.slider}
    assert "halving__n" in keys and "halving__K" not in keys      # K means nothing for conjunctions


def test_noisy_labels_name_the_round_where_no_hypothesis_is_left():
    at = _open(noise=0.2, seed=0)
    assert not at.exception
    s, tr = _core(HalfPlanes(32), noise=0.2)
    a = tr.proof.failed_assumptions[0]
    err = shown(at, "error")
    assert "does not apply" in err and f"round **{int(a.rounds[0]) + 1}**" in err
    flipped = np.flatnonzero(s.info["flipped"])
    assert f"rounds {flipped[0] + 1}," in err
    assert _metric(at, "Bound log₂|H|") == "n/a"
    assert _metric(at, "Consistent") == "0"
    spec = _spec(at)
    assert "does not apply" in ledger_at(spec, spec["T"])[2]["latex"]
    sizes = [int(tr.weights_at(p).sum()) for p in range(tr.T + 1)]
    p0 = sizes.index(0)                                       # Halving's own version space empties too
    assert f"became empty after round **{p0}**" in _text(at)
    # 1 ≤ |H_t| needs a consistent hypothesis, which these data lack: n/a (never ✗, issue 32), its relation as
    # its numbers decide (1 > 0 once the version space is empty)
    at_p0, before = ledger_at(spec, p0)[0], ledger_at(spec, p0 - 1)[0]
    assert at_p0["na"] and before["na"] and at_p0["holds"] is None
    assert "1 \\;>\\; |H_{t+1}| = 0" in at_p0["latex"] and "1 \\;\\le\\; |H_{t+1}|" in before["latex"]
    # … and the words above the chart say so (they said "marks 1 ≤ |Hₜ| with ✗": a student found n/a there)
    assert "From there 1 \\le |H_t| is false: the ledger marks it n/a (not claimed)" in normalise(_text(at))


def test_bad_values_in_a_link_are_reported_and_replaced():
    at = _open(K=0, cls="circles", T="abc", noise=0.9, t=999)
    assert not at.exception
    warnings = shown(at, "warning")
    assert "K must be between 1 and 720" in warnings and "cls must be one of" in warnings
    assert "T must be a whole number" in warnings and "noise must be between 0 and 0.3" in warnings
    spec = _spec(at)
    assert spec["T"] == 50 and spec["position"] == 50          # t beyond T: the last round
    assert url(at)["K"] == "32" and url(at)["cls"] == "halfplanes"


@pytest.mark.parametrize("query, size", [({"K": 1}, 1), ({"cls": "thresholds", "K": 1}, 1),
                                         ({"cls": "conj", "n": 1}, 2), ({"cls": "disj", "n": 1, "T": 1}, 2),
                                         ({"T": 1}, 32), ({"K": 1, "stream": "adversary"}, 1)])
def test_extreme_settings_give_a_page_not_a_traceback(query, size):
    at = _open(**query)
    assert not at.exception and not at.error
    assert _metric(at, "|H| (hypotheses)") == str(size)
    assert _metric(at, "Bound log₂|H|") == f"{math.log2(size):.4g}"
    assert _spec(at)["T"] == int(query.get("T", 50))
    assert ("nothing to learn" in shown(at, "info")) is (size == 1)


def test_huge_classes_show_the_cores_refusal_or_say_why_not():
    at = _open(K=720, T=200)
    assert not at.exception and not at.error
    info = shown(at, "info")
    with pytest.raises(ValueError) as exc:
        dimensions(HalfPlanes(720))
    assert str(exc.value) in info                         # the core's own message
    at = _open(cls="conj", n=7)
    info = shown(at, "info")
    assert "|H| = 128" in info and "at most 63 hypotheses" in info
    assert _metric(at, "|H| (hypotheses)") == "128"


def test_adversary_attains_log2_H():
    at = _open(cls="conj", n=5, stream="adversary", T=30)
    assert not at.exception
    assert _metric(at, "Mistakes M (whole run)") == "5" and _metric(at, "Bound log₂|H|") == "5"
    text = _text(at)
    assert "Adversarial stream" in text and "first **5** rounds" in text
    assert "the adversary attained Halving's worst case" in text
    spec = _spec(at)
    assert spec["mistake_rounds"] == [0, 1, 2, 3, 4]
    assert "Label noise" not in [s.label for s in at.slider]       # no noise for the adversary
    d = dimensions(MonotoneConjunctions(5))
    assert d.halving == 5
