"""Every stop of every shipped tour, on its page's own run: a change to a learner (or a page) that breaks a lecture
fails here.

Each stop is opened with AppTest from its link alone — the stop's settings, every other setting at its default, its
round, ``tour`` and ``stop`` — exactly as Previous / Next / PageDown open it in a browser. The page runs its own
cached core run, hands it to the tour bar, and the bar must say that the stop's claim holds, with the viewer opened
at the stop's round and no complaint about the link."""
from __future__ import annotations

import re

import pytest

from olc_ui.shared.tours.format import MAX_WORDS, words
from olc_ui.shared.tours.store import FOLDER, read_folder

from tests.app.pagetest import shown, viewer_spec
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
    assert viewer_spec(at)["position"] == stop.t
    b = bar(at)
    assert b is not None, "no tour bar on the stop's page"
    assert (b["tour"], b["stop"], b["stops"]) == (tour.id, str(k + 1), str(len(tour)))
    assert b["claim"] == "holds", b["claim_text"]
    assert b["claim_text"].startswith("✓ Claim holds:")
