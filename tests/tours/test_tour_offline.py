"""A tour as one offline HTML file (issue 36 §1, olc_ui/shared/tours/offline.py): one section per stop with its text,
reference and claim decided on the stop's run, and that run's step viewer (opened in Chromium with the network off:
tests/e2e/test_offline_file.py).

The runs in the file are the pages' own: for every distinct stop (page and settings) of the shipped tours, the spec
a page's ``stop_run`` gives is the spec the page sends its step viewer when the stop's link opens it (AppTest)."""
from __future__ import annotations

import json
import re

import pytest

from olc_ui.shared.config import url_values
from olc_ui.shared.tours import offline as tour_offline
from olc_ui.shared.tours.format import Stop, Tour
from olc_ui.shared.tours.store import FOLDER, read_folder

from tests.app.pagetest import viewer_spec
from tests.e2e.test_offline_file import payload
from tests.hostile import HOSTILE
from tests.tours.tourtest import open_stop, runs, tables

FOUND = read_folder(FOLDER, tables())
#: the first stop of each distinct run (page and settings) of the shipped tours
DISTINCT: dict[tuple, tuple[str, int]] = {}
for _id, _tour in sorted(FOUND.tours.items()):
    for _k, _stop in enumerate(_tour.stops):
        DISTINCT.setdefault((_stop.page, tuple(sorted(_stop.settings.items()))), (_id, _k))


def _ids(key: tuple) -> str:
    return key[0] + ":" + ",".join(f"{k}={v}" for k, v in key[1])


@pytest.mark.parametrize("key", sorted(DISTINCT), ids=[_ids(k) for k in sorted(DISTINCT)])
def test_a_stops_run_in_the_file_is_the_one_its_page_shows(key):
    tour_id, k = DISTINCT[key]
    tour = FOUND.tours[tour_id]
    stop = tour.stops[k]
    at = open_stop(tour, k)
    assert not at.exception, [e.message for e in at.exception]
    want = viewer_spec(at)
    values, problems = url_values(tables()[stop.page], stop.settings)
    assert not problems
    spec, _ = runs()[stop.page](values)
    got = json.loads(json.dumps(spec, allow_nan=False))
    got.pop("position", None)
    want.pop("position", None)
    assert got.keys() == want.keys()
    for part in got:
        assert got[part] == want[part], part


def _sections(text: str) -> list[str]:
    return re.findall(r'<section class="olc-stop".*?</section>', text, re.S)


@pytest.mark.parametrize("tour_id", sorted(FOUND.tours))
def test_every_shipped_tour_is_one_file_of_its_stops(tour_id):
    tour = FOUND.tours[tour_id]
    text = tour_offline.tour_html(tour, tables(), runs())
    sections = _sections(text)
    assert len(sections) == len(tour)
    for k, (sec, stop) in enumerate(zip(sections, tour.stops), start=1):
        assert f'id="stop-{k}"' in sec and f"Stop {k} of {len(tour)}" in sec
        assert 'data-claim="holds"' in sec and "✓ Claim holds:" in sec, (k, sec[:400])
        assert f'data-t="{stop.t}"' in sec and 'class="olc-stop-run"' in sec
    data = payload(text)
    distinct = {(s.page, tuple(sorted(s.settings.items()))) for s in tour.stops}
    assert len(data["runs"]) == len(distinct)           # stops on the same run share it
    print(f"{tour_id}: {len(text.encode()):,} bytes, {len(tour)} stops, {len(distinct)} runs")


def test_a_stop_that_cannot_be_shown_says_why_and_a_tours_text_is_inert():
    claim = {"kind": "no_violation"}
    stops = (Stop("perceptron", {"T": "50"}, 60, "A *note* with $x^2$.", HOSTILE[1] + HOSTILE[0], claim),
             Stop("boolean_concepts", {"mode": "adversary"}, 0, "A game.", "[004] §2", claim),
             Stop("perceptron", {"T": "50"}, 10, "Fine.", "[000] §1", claim))
    tour = Tour("demo", HOSTILE[4], stops, note="000")
    text = tour_offline.tour_html(tour, tables(), runs())
    first, game, fine = _sections(text)
    assert 'data-claim="fails"' in first and "past the end of this run (T = 50 rounds)" in first
    assert 'class="olc-stop-run"' not in first
    assert "&lt;img src=http://host.invalid/x.png&gt;" in first and "<img" not in text
    assert "[click me](https://example.org/x)" in first and "<a href" not in first and "<em>note</em>" in first
    assert 'data-claim="fails"' in game and "has no run a file can carry" in game
    assert 'data-claim="holds"' in fine and 'data-run="0"' in fine
    assert "<b>Y</b>" not in text.split("<body>", 1)[1].split("<script", 1)[0]
    assert len(payload(text)["runs"]) == 1
    assert tour_offline.file_name(Tour("A b/../c", "t", stops)) == "tour-abc-offline.html"
