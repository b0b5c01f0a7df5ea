"""Issue 20 (5): the FTRL page says that min Σℓ(u) is the randomised classifier's expected loss, not mistakes."""
from __future__ import annotations

from olc_ui.lessons.ftrl.view import best_u_mistakes
from tests.app.pagetest import open_page, page_path, viewer_spec

PAGE = page_path("ftrl")


def test_best_loss_is_called_a_loss_in_the_chart_the_ledger_and_the_summary():
    at = open_page(PAGE, timeout=300)
    assert not at.exception and not at.error
    spec = viewer_spec(at)
    mis = next(f for f in spec["figures"] if f["id"] == "mistakes")
    assert "not a count of mistakes" in mis["title"] and "(1 − y⟨u,x⟩)/2" in mis["title"]
    assert "against the best ‖u‖ ≤ 1 in hindsight" not in mis["title"]
    names = [d.get("name", "") for d in mis["figure"]["data"]]
    assert any("its expected loss (not a count of mistakes)" in n for n in names)
    reasons = " ".join(ln.get("reason", "") for ln in spec["ledger"]["lines"])
    assert "is the best u's expected loss as a randomised classifier" in reasons
    caps = " ".join(c.value for c in at.caption)
    assert "not a count of mistakes" in caps and "ℓₜ(u) = (1 − yₜ⟨u, xₜ⟩)/2" in caps
    assert any("(a loss)" in m.label for m in at.metric)


def test_the_best_u_as_a_sign_classifier_counts_its_own_mistakes():
    import numpy as np
    X = np.array([[0.5, 0.0], [-0.5, 0.0], [0.1, 0.0]])
    y = np.array([1.0, -1.0, -1.0])
    assert best_u_mistakes(X, y) == 1      # u* = (1, 0): the third point is on the wrong side
