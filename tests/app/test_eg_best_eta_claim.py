"""Issue 20 (10): "ln N / C ≤ 2 ln N/δ²" is printed only when it holds for this run's η.

(The core gives 2 ln N/δ² only at η = artanh δ, so the page already claimed it only there; the view now also
checks the inequality on the run's numbers before writing "≤", and says ">" otherwise.)"""
from __future__ import annotations

from olc_ui.lessons.exponentiated_update.view import below_best_eta_bound
from tests.app.pagetest import metric, open_page, page_path, viewer_spec

PAGE = page_path("exponentiated_update")


def _texts(at) -> tuple[list[str], list[str]]:
    spec = viewer_spec(at)
    ledger = [ln["latex"] for ln in spec["ledger"]["lines"] if r"\ln N / C" in ln["latex"]]
    notes = [a["text"] for f in spec["figures"] for a in f["figure"]["layout"].get("annotations", [])
             if "ln N / C" in a.get("text", "")]
    return ledger, notes


def test_at_the_optimal_eta_the_chain_is_claimed():
    at = open_page(PAGE, timeout=300)
    ledger, notes = _texts(at)
    assert any(r"\le\; 2\ln N/\delta^2" in t for t in ledger)
    assert any("≤ 2 ln N/δ²" in t for t in notes)


def test_at_another_eta_the_page_does_not_claim_it():
    at = open_page(PAGE, timeout=300, eta_opt="false", eta="0.6")
    assert not at.exception
    b, b2 = float(metric(at, "Bound ln N / C").replace(",", "")), float(metric(at, "2 ln N / δ²").replace(",", ""))
    assert b > b2          # this η is far from artanh δ: ln N / C is the larger
    ledger, notes = _texts(at)
    assert ledger and not any(r"\le\; 2\ln N/\delta^2" in t for t in ledger)
    assert notes and not any("≤ 2 ln N/δ²" in t for t in notes)


def test_relation_helper():
    assert below_best_eta_bound(52.9, 53.9) == "le" and below_best_eta_bound(60.0, 53.9) == "gt"
    assert below_best_eta_bound(None, 1.0) is None and below_best_eta_bound(1.0, None) is None
