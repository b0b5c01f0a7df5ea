"""The tour bar on a lesson page (AppTest): stop k of n, Previous / Next as the next stops' links, the URL keeping
``tour`` and ``stop``, presentation mode carried along, a claim that fails said so with its numbers, a stop the page
cannot show said so naming the field, a student exploring inside a stop, bad links, untrusted text kept inert; and
the /tours page."""
from __future__ import annotations

import json

import pytest

from streamlit.testing.v1 import AppTest

from olc_ui.shared.tours import store
from olc_ui.shared.tours.bar import OWN_KEY, stop_href
from olc_ui.shared.tours.format import parse

from tests.app.pagetest import open_page, page_path, shown, url, viewer_data, viewer_spec
from tests.tours.test_tour_format import GOOD
from tests.tours.tourtest import bar, open_stop, stop_query

TOUR = store.shipped().tours["000-perceptron-and-winnow"]


def _own(doc: dict, k: int = 0, **extra) -> AppTest:
    """AppTest of stop k of a tour the student opened from a file (kept in the session, looked up first)."""
    tour = parse(doc)
    page, query = stop_query(tour, k)
    at = AppTest.from_file(page_path(page), default_timeout=120)
    at.session_state[OWN_KEY] = {tour.id: tour}
    for key, v in {**query, **extra}.items():
        at.query_params[key] = v
    return at.run()


def test_a_stop_shows_its_place_its_links_and_keeps_them_in_the_url():
    k = 5                                           # stop 6 of 17: the Perceptron, step 2, at round 70
    at = open_stop(TOUR, k)
    b = bar(at)
    assert (b["tour"], b["stop"], b["stops"], b["claim"]) == (TOUR.id, "6", "17", "holds")
    body = b["html"]
    assert "Stop 6 of 17" in body and "[000] §3.2, step 2, eq. (5)–(13)" in body
    assert f'href="{stop_href(TOUR, k - 1).replace("&", "&amp;")}"' in body
    assert f'href="{stop_href(TOUR, k + 1).replace("&", "&amp;")}"' in body
    assert 'class="olc-tour-btn olc-tour-prev"' in body and 'aria-label="Next stop (PageDown)"' in body
    assert b["claim_text"] == "✓ Claim holds: After 70 rounds: \\lVert w\\rVert = 1.162 \\le 2 = \\sqrt{M}\\,R."
    q = url(at)
    assert (q["tour"], q["stop"], q["t"], q["gamma"], q["T"]) == (TOUR.id, "6", "70", "0.1", "200")


def test_the_first_stop_has_no_previous_and_the_last_ends_the_tour():
    first = bar(open_stop(TOUR, 0))["html"]
    assert '<span class="olc-tour-btn olc-tour-prev" aria-disabled="true"' in first
    last = bar(open_stop(TOUR, len(TOUR) - 1))["html"]
    assert "olc-tour-btn olc-tour-next" not in last and 'class="olc-tour-btn olc-tour-end" href="tours"' in last


def test_presentation_mode_is_carried_to_the_next_stop():
    at = open_stop(TOUR, 5, present="1")
    b = bar(at)
    assert 'class="olc-tour olc-tour-present' in b["html"]
    assert stop_href(TOUR, 6, {"present": "1"}).replace("&", "&amp;") in b["html"]
    assert url(at)["present"] == "1" and url(at)["stop"] == "6"


def test_a_claim_that_fails_on_the_run_says_so_with_its_numbers():
    doc = json.loads(json.dumps(GOOD))
    doc["stops"][0]["claim"] = {"kind": "compare", "left": "M", "op": "<=", "right": 1}
    b = bar(_own(doc))
    assert b["claim"] == "fails"
    assert b["claim_text"].startswith("✗ Claim fails on this run: After 12 rounds: M = ")
    assert " > 1." in b["claim_text"]


def test_a_stop_the_page_cannot_show_names_the_field():
    doc = json.loads(json.dumps(GOOD))
    doc["stops"][0]["settings"]["gama"] = 0.2
    doc["stops"][0]["t"] = 999
    b = bar(_own(doc))
    assert b["claim"] == "fails"
    assert ("stop 1, field settings.gama: not a setting of this page; field t: 999 is past the end of this run "
            "(T = 60 rounds)") in b["claim_text"]
    doc = json.loads(json.dumps(GOOD))
    doc["stops"][0]["claim"] = {"kind": "compare", "left": "series:nope", "op": "<=", "right": 1}
    b = bar(_own(doc))
    assert b["claim"] == "fails" and ("the claim cannot be evaluated on this run: left: series 'nope' is not a series "
                                      "of the proof 'separable'") in b["claim_text"]


@pytest.mark.parametrize("field,value,said", [
    ("point", {"chart": "nope"}, "stop 1, field point.chart: 'nope' is not a chart of this page (its charts: main, "
                                 "sandwich_A, sandwich_B)"),
    ("point", {"ledger": 9}, "stop 1, field point.ledger: line 9 of a proof ledger of 5 lines"),
    ("ask", True, None),          # the Perceptron asks about rounds 1 to 60 here: fine
])
def test_a_stop_that_points_at_what_the_page_lacks_names_the_field(field, value, said):
    doc = json.loads(json.dumps(GOOD))
    doc["stops"][0][field] = value
    b = bar(_own(doc))
    if said is None:
        assert b["claim"] == "holds" and "<strong>Predict:</strong> round 12," in b["html"]
    else:
        assert b["claim"] == "fails" and said in b["claim_text"]
        assert "olc-tour-look" not in b["html"]


def test_a_stop_that_asks_about_a_round_the_page_does_not_ask_names_the_field():
    doc = json.loads(json.dumps(GOOD))
    doc["stops"][0].update({"ask": True, "t": 0})
    b = bar(_own(doc))
    assert b["claim"] == "fails" and "stop 1, field ask: the page asks about rounds 1 to 60; the stop's round is t = 0" \
        in b["claim_text"]


def test_a_stop_that_asks_opens_before_its_round_with_the_question_and_covers_its_claim():
    doc = json.loads(json.dumps(GOOD))
    doc["stops"][0].update({"ask": True, "point": {"chart": "sandwich_A"}})
    at = _own(doc)
    b = bar(at)
    assert b["claim"] == "holds" and 'data-ask="12"' in b["html"]
    assert viewer_spec(at)["position"] == 11 and "predict" in viewer_data(at)["modes"]
    assert ('<span id="olc-tour-look"><strong>Look at:</strong> the chart “Proof A (norm potential): Mγ ≤ ⟨w*, w⟩ ≤ '
            '‖w‖ ≤ √M·R”.</span>') in b["html"]
    # the statement about round 12 is in the bar, covered while the viewer stands before it (viewer_tour.js)
    assert '<span class="olc-tour-claim-after">' in b["html"] and "shown once round 12 is drawn." in b["html"]
    assert url(at)["predict"] == "1"


def test_exploring_inside_a_stop_is_not_checked_against_the_stops_claim():
    at = open_stop(TOUR, 5)
    at.slider(key="perceptron__gamma").set_value(0.2).run()
    b = bar(at)
    assert b["claim"] == "off"
    assert b["claim_text"] == ("Claim not checked here: the run on screen is not this stop's (Margin γ changed); the "
                               "claim is about the stop's run at round 70.")
    assert url(at)["stop"] == "6"


def test_untrusted_text_stays_inert():
    doc = json.loads(json.dumps(GOOD))
    doc["title"] = '<img src=x onerror="alert(1)">'
    doc["stops"][0]["ref"] = "[000] <script>alert(2)</script>"
    doc["stops"][0]["text"] = "A formula $\\href{javascript:alert(3)}{x}$ stays maths."
    body = bar(_own(doc))["html"]
    assert "<img" not in body and "&lt;img src=x onerror=&quot;alert(1)&quot;&gt;" in body
    assert "<script>alert(2)" not in body and "&lt;script&gt;alert(2)&lt;/script&gt;" in body
    assert '<span class="olc-tex">\\href{javascript:alert(3)}{x}</span>' in body


def test_bad_links_are_said_and_break_nothing():
    at = open_page(page_path("perceptron"), tour="<b>nope</b>", stop="1")
    assert not at.exception and bar(at) is None
    assert "The tour in the link is not one this app knows: '<b>nope</b>'." in shown(at, "warning")
    at = open_page(page_path("perceptron"), tour=TOUR.id, stop="99")
    assert bar(at) is None and "the tour 'Online linear classification: the Perceptron and Winnow' has stops 1 to " \
                                "17." in shown(at, "warning")
    at = open_page(page_path("winnow"), tour=TOUR.id, stop="6")      # stop 6 is on the Perceptron page
    assert bar(at) is None
    assert "stop 6 of 'Online linear classification: the Perceptron and Winnow' is on the page 'perceptron'." in \
        shown(at, "info")


def test_the_tours_page_lists_every_tour_with_links_to_its_first_stop():
    at = open_page(page_path("tours"))
    assert not at.exception
    [body] = [h.proto.body for h in at.get("html") if 'class="olc-tours"' in h.proto.body]
    for tour in store.shipped().tours.values():
        assert f'data-tour="{tour.id}"' in body and f"note [{tour.note}] · {len(tour)} stops" in body
        assert stop_href(tour, 0).replace("&", "&amp;") in body
        assert stop_href(tour, 0, {"present": "1"}).replace("&", "&amp;") in body
        assert f"tour={tour.id}&amp;stop=1" in body


def test_a_bad_file_in_the_folder_is_named_on_the_tours_page(tmp_path, monkeypatch):
    (tmp_path / "good.json").write_text(json.dumps(GOOD))
    bad = json.loads(json.dumps(GOOD))
    bad["id"] = "bad"
    bad["stops"][1]["settings"]["N"] = 1
    (tmp_path / "bad.json").write_text(json.dumps(bad))
    monkeypatch.setattr(store, "FOLDER", tmp_path)
    at = open_page(page_path("tours"))
    assert not at.exception
    [body] = [h.proto.body for h in at.get("html") if 'class="olc-tours"' in h.proto.body]
    assert 'data-tour="demo"' in body and 'data-tour="bad"' not in body
    assert ("A file in the tours folder is not a tour that can be used: bad.json: stop 2, field settings.N: N must be "
            "between 2 and 10000 (got '1').") in shown(at, "warning")
