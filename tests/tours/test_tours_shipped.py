"""Every stop of every shipped tour, on its page's own run: a change to a learner (or a page) that breaks a lecture
fails here.

Each stop is opened with AppTest from its link alone — the stop's settings, every other setting at its default, its
round, ``tour`` and ``stop`` — exactly as Previous / Next / PageDown open it in a browser. The page runs its own
cached core run, hands it to the tour bar, and the bar must say that the stop's claim holds, on the run the viewer
shows, with the viewer opened at the stop's round (a stop that asks about its round: just before it, the question on)
and no complaint about the link; what a stop points at is on its page."""
from __future__ import annotations

import re

import pytest

from olc_ui.shared.tours.format import MAX_WORDS, words
from olc_ui.shared.tours.store import FOLDER, read_folder

from tests.app.pagetest import shown, viewer_data, viewer_spec
from tests.tours.tourtest import bar, open_stop, tables

NOTES = ("000", "001", "002", "003", "004")
FOUND = read_folder(FOLDER, tables())
STOPS = [(tour_id, k) for tour_id, tour in sorted(FOUND.tours.items()) for k in range(len(tour))]


def test_the_shipped_tours_are_good_files():
    assert FOUND.problems == {}
    assert sorted(t.note for t in FOUND.tours.values()) == list(NOTES)


@pytest.mark.parametrize("tour_id", sorted(FOUND.tours))
def test_each_tour_follows_its_note(tour_id):
    """At least 8 stops, each citing the tour's note; texts within 60 words."""
    tour = FOUND.tours[tour_id]
    assert len(tour) >= 8
    for k, stop in enumerate(tour.stops, start=1):
        assert stop.ref.startswith(f"[{tour.note}] "), (k, stop.ref)
        assert words(stop.text) <= MAX_WORDS, (k, words(stop.text))
        assert re.search(r"(§|slide|eq\.|Theorem|Algorithm)", stop.ref), (k, stop.ref)


@pytest.mark.parametrize("tour_id,k", STOPS, ids=[f"{t}-stop{k + 1}" for t, k in STOPS])
def test_every_stop_holds_on_its_run(tour_id, k):
    tour = FOUND.tours[tour_id]
    stop = tour.stops[k]
    at = open_stop(tour, k)
    assert not at.exception, [e.message for e in at.exception]
    assert "A setting in the link was not valid" not in shown(at, "warning")
    spec = viewer_spec(at)
    # a stop that asks about its round opens just before it (the answer draws it); the claim is about the round
    assert spec["position"] == (stop.t - 1 if stop.ask else stop.t)
    b = bar(at)
    assert b is not None, "no tour bar on the stop's page"
    assert (b["tour"], b["stop"], b["stops"]) == (tour.id, str(k + 1), str(len(tour)))
    assert b["claim"] == "holds", b["claim_text"]
    assert b["claim_text"].startswith("✓ Claim holds:")
    assert b["run"] == str(spec["run_id"])
    if stop.ask:            # the page asks about the stop's round: predict-then-reveal is on, the bar says so
        assert "predict" in viewer_data(at)["modes"] and f"<strong>Predict:</strong> round {stop.t}," in b["html"]
        assert f'data-ask="{stop.t}"' in b["html"] and 'class="olc-tour-claim-after"' in b["html"]
    if stop.point:          # what it points at is on the page, named in the bar
        assert '<span id="olc-tour-look"><strong>Look at:</strong> ' in b["html"]
        if "chart" in stop.point:
            assert stop.point["chart"] in {f["id"] for f in spec["figures"]}
        else:
            assert stop.point["ledger"] <= len(spec["ledger"]["lines"])
    mode = viewer_data(at)["modes"]["tour"]
    assert mode["stop"] == k + 1 and mode["stops"][k].get("ask", False) == stop.ask and \
        mode["stops"][k].get("point") == stop.point


def test_the_shipped_tours_ask_and_point():
    """The notes' arguments ask questions and point at steps: stops that do, in every note but [002]'s (whose
    classifier's first round is a fair coin) a question, and in every note a pointer."""
    for tour in FOUND.tours.values():
        assert any(s.point for s in tour.stops), tour.id
        assert tour.note == "002" or any(s.ask for s in tour.stops), tour.id
