"""Issue 20 (7): on a noisy stream, the steps of "The proof in four steps" that need the target's labels say so,
with the run's own numbers — never a step stated as if it held."""
from __future__ import annotations

import numpy as np

from tests.app.pagetest import open_page, page_path

STEPS = "The proof in four steps, with this run's numbers"


def _steps(at) -> str:
    [exp] = [e for e in at.expander if e.label == STEPS]
    return " ".join(m.value for m in exp.markdown)


def test_winnow_noise_steps_give_the_demotions_of_relevant_weights():
    at = open_page(page_path("winnow"), timeout=300, noise=0.1)
    assert not at.exception
    from olc_ui.lessons.winnow import lesson as L
    v = {s.key: s.default for s in L.SETTINGS}
    v["noise"] = 0.1
    tr = L.run_winnow(v, L.load_data(v, None))
    S = tr.proof.series
    dem = int(S["rel_demotions"][-1])
    stray = int(np.count_nonzero((np.diff(S["m_plus"]) > 0) & (np.diff(S["rel_promotions"]) == 0)))
    assert dem == 20
    text = _steps(at)
    assert f"here relevant weights were demoted **{dem}** times, so the step does not hold on this run" in text
    assert f"here **{stray}** of the m⁺ = {int(S['m_plus'][-1])} promotions promoted no relevant variable" in text


def test_winnow_without_noise_has_no_such_remark():
    at = open_page(page_path("winnow"), timeout=300)
    assert "This step needs labels" not in _steps(at)


def test_conjunctions_noise_steps_count_false_positives():
    at = open_page(page_path("boolean_concepts"), timeout=300, noise=0.1)
    assert not at.exception
    text = _steps(at)
    assert "**This step needs labels from the target conjunction $c$**" in text
    assert "mistakes were false positives, so this step does not hold on this run" in text


def test_decision_lists_noise_steps_say_the_target_rule_fell():
    at = open_page(page_path("boolean_concepts"), timeout=300, mode="dl", dnoise=0.1)
    assert not at.exception
    text = _steps(at)
    assert "**This step needs labels from the target list**" in text
    assert "fell **1** level below its place, so the step does not hold on this run" in text


def test_exponentiated_update_noise_step_two_needs_the_margin():
    at = open_page(page_path("exponentiated_update"), timeout=300, noise=0.1)
    assert not at.exception
    assert "This step needs the margin" in _steps(at) and "does not hold on this run" in _steps(at)


def test_halving_noise_step_needs_a_consistent_hypothesis():
    at = open_page(page_path("halving"), timeout=300, noise=0.2)
    assert not at.exception
    assert "Here no hypothesis labels every round" in _steps(at)
    at = open_page(page_path("experts"), timeout=300, alg="halving", noise=0.2)
    assert "This step needs an expert consistent with every label" in _steps(at)


def test_experts_page_bounds_name_their_note():
    at = open_page(page_path("experts"), timeout=300)
    assert "(note [001], eq. 6)" in _steps(at)
    at = open_page(page_path("experts"), timeout=300, alg="rwm", eta=0.3)
    assert "note [000] §1.2" in _steps(at) and "(note [000], eq. 2)" in _steps(at)
