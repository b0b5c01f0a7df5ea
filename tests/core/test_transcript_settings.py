"""The transcript's "page's settings" list holds the settings the run uses, never one it ignores (a hidden
slider's value that would contradict the run's parameters). The list is built by olc_ui.shared.transcript."""
from __future__ import annotations

import numpy as np

import olc_core
from olc_core import transcript
from olc_ui.lessons.compare import lesson as C
from olc_ui.lessons.exponentiated_update import lesson as G
from olc_ui.lessons.perceptron import lesson as P
from olc_ui.lessons.winnow import lesson as W
from olc_ui.shared.config import encode
from olc_ui.shared.transcript import used_settings


def _link(settings, **changed) -> dict[str, str]:
    out = {s.key: encode(s, s.default) for s in settings}
    out.update({k: str(v) for k, v in changed.items()})
    return out


def test_the_exponentiated_update_lists_neither_the_hidden_delta_nor_the_unused_eta():
    link = _link(G.SETTINGS, data="sparse", eta_opt="1", eta="0.5", delta="0.1")
    used = used_settings(G.TRANSCRIPT, link)
    assert "eta" not in used and "delta" not in used and used["eta_opt"] == "1" and used["N"] == link["N"]
    # the run's own η and δ (δ = 1/k, η = artanh δ) are what the transcript's parameters show
    s = olc_core.streams.sparse_simplex(T=50, N=20, k=3, seed=0)
    tr = olc_core.run("normalized_winnow", s.X, s.y, comparator=s.comparator, delta=s.info["delta"])
    md = transcript.markdown(tr, page="exponentiated_update", settings=used)
    setting = md[md.index("## The setting"):md.index("## The theorem")]
    assert "eta = 0.5" not in setting and "delta = 0.1" not in setting
    assert "eta\\_opt = 1" in setting
    # the slider's η is used when the switch is off; δ when the data are drawn with a margin δ
    assert used_settings(G.TRANSCRIPT, _link(G.SETTINGS, eta_opt="0", eta="0.5"))["eta"] == "0.5"
    assert used_settings(G.TRANSCRIPT, _link(G.SETTINGS, data="continuous", delta="0.2"))["delta"] == "0.2"


def test_the_compare_page_sparse_preset_lists_no_expert_settings():
    link = _link(C.SETTINGS, preset="sparse")
    used = used_settings(C.TRANSCRIPT, link)
    assert set(used) == C.visible({**{s.key: s.default for s in C.SETTINGS}, "preset": "sparse"})
    assert not {"experts", "beta", "eta", "best", "worst"} & set(used)
    used = used_settings(C.TRANSCRIPT, _link(C.SETTINGS, preset="experts"))
    assert "beta" in used and "k" not in used


def test_the_perceptron_lists_the_td_gamma_settings_only_when_its_page_uses_them():
    link = _link(P.SETTINGS + P.TD_SETTINGS, gbest="0", gtd="0.3")
    sep = olc_core.run("perceptron", [[1.0, 0.0], [0.0, 1.0]], [1, 1])
    noisy = olc_core.run("perceptron", [[1.0, 0.0], [1.0, 0.0], [0.0, 1.0]], [1, -1, 1])
    assert sep.proof.applies and not noisy.proof.applies
    assert not {"gbest", "gtd"} & set(used_settings(P.TRANSCRIPT, link, sep))
    assert used_settings(P.TRANSCRIPT, link, noisy)["gtd"] == "0.3"
    assert "gtd" not in used_settings(P.TRANSCRIPT, {**link, "gbest": "1"}, noisy)
    assert "pts" not in used_settings(P.TRANSCRIPT, link, sep)   # clicked points: only with data = click
    clicked = {**link, "data": "click", "pts": "0.1,0.2,1"}
    assert used_settings(P.TRANSCRIPT, clicked, sep)["pts"] == "0.1,0.2,1"


def test_a_page_without_settings_keeps_its_link_whole():
    link = {"a": "1", "seed": "2"}
    assert used_settings(None, link) == link
    assert np.all([k in used_settings(W.TRANSCRIPT, {"zzz": "1"}) for k in ("zzz",)])
