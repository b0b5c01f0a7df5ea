"""One's own tours (issue 33 §4): "Add this view to a tour" on a lesson page, the draft edited on the Tours page
(reorder, edit, remove), downloaded as a file that reads back as the same tour, opened from an upload (a bad file's
problems named by stop and field, nothing else broken), and carried by its links to a fresh session."""
from __future__ import annotations

import json
from urllib.parse import parse_qsl, urlsplit

import pytest
from streamlit.testing.v1 import AppTest

from olc_ui.lessons.perceptron import lesson as perceptron
from olc_ui.shared.tours import own
from olc_ui.shared.tours.author import ADD_KEY, DRAFT_KEY, draft_stop
from olc_ui.shared.tours.bar import stop_href
from olc_ui.shared.tours.store import FOLDER, read_bytes, read_folder

from tests.app.pagetest import page_path, shown
from tests.tours.test_tour_format import GOOD
from tests.tours.tourtest import bar, tables


def _page(name: str, session: dict | None = None, **query) -> AppTest:
    at = AppTest.from_file(page_path(name), default_timeout=120)
    for k, v in (session or {}).items():
        at.session_state[k] = v
    for k, v in query.items():
        at.query_params[k] = str(v)
    return at.run()


def _draft(*stops) -> dict:
    return {"title": "Three views", "n": len(stops), "stops": [{"uid": i + 1, **s} for i, s in enumerate(stops)]}


STOP = {"page": "perceptron", "settings": {"T": "50"}, "t": 12, "text": "First.", "ref": "[000] §3",
        "claim": {"kind": "no_violation"}}


def test_a_stop_names_only_the_settings_that_differ_from_their_defaults():
    values = {s.key: s.default for s in perceptron.SETTINGS} | {"gamma": 0.2, "T": 50}
    s = draft_stop("perceptron", perceptron.SETTINGS, values, 7, "  Look   here. ", "", next(iter(own.CLAIMS)))
    assert s == {"page": "perceptron", "settings": {"gamma": "0.2", "T": "50"}, "t": 7, "text": "Look here.",
                 "ref": "(my own stop)", "claim": {"kind": "no_violation"}}


def test_add_this_view_on_a_lesson_page():
    at = _page("perceptron", T=50, gamma=0.2, t=12)
    assert not at.text_area and not [b for b in at.sidebar.button if "Add this view" in b.label]   # drawn when open
    at.session_state[ADD_KEY] = True
    at.run()
    at.text_area(key="olc_tour_add_note").set_value("Watch $M\\gamma$.")
    at.text_input(key="olc_tour_add_ref").set_value("[000] §3.2")
    at.button(key="olc_tour_add_go").click().run()
    [stop] = at.session_state[DRAFT_KEY]["stops"]
    assert {k: stop[k] for k in ("page", "settings", "t", "text", "ref")} == {
        "page": "perceptron", "settings": {"gamma": "0.2", "T": "50"}, "t": 12, "text": "Watch $M\\gamma$.",
        "ref": "[000] §3.2"}
    assert "Added as stop 1 of your tour (edit it on the Tours page)." in [c.value for c in at.sidebar.caption]


def test_the_draft_is_reordered_edited_removed_and_downloaded():
    second = {**STOP, "t": 20, "text": "Second."}
    third = {**STOP, "page": "winnow", "settings": {"N": "50"}, "t": 30, "text": "Third."}
    at = _page("tours", {DRAFT_KEY: _draft(STOP, second, third)})
    at.button(key="olc_tour_up_3").click().run()                 # Third moves above Second
    at.button(key="olc_tour_rm_1").click().run()                 # First goes
    at.text_area(key="olc_tour_text_2").set_value("Second, edited.").run()
    stops = at.session_state[DRAFT_KEY]["stops"]
    assert [(s["uid"], s["text"]) for s in stops] == [(3, "Third."), (2, "Second, edited.")]
    # the draft's: its file, then its offline file (the shipped tours' offline files come before, one each)
    labels = [b.proto.label for b in at.get("download_button")]
    assert labels[-2:] == ["Download the tour (JSON)", "Download Three views as one offline file (HTML)"]
    assert len(labels) == 2 + len(read_folder(FOLDER, tables()).tours)
    d = at.session_state[DRAFT_KEY]
    doc = own.draft_doc(d["title"], [{k: v for k, v in s.items() if k != "uid"} for s in d["stops"]])
    tour = read_bytes(json.dumps(doc).encode(), tables())       # the file reads back, checked against every page
    assert tour.title == "Three views"
    assert [(s.page, s.t, s.text) for s in tour.stops] == [("winnow", 30, "Third."), ("perceptron", 20,
                                                                                       "Second, edited.")]
    card = [h.proto.body for h in at.get("html") if f'data-tour="{own.remember(doc).id}"' in h.proto.body]
    assert card and "tourdata=" in card[0]


def test_an_own_tours_link_opens_it_in_a_fresh_session():
    tour = own.remember(dict(GOOD))
    href = own.link_data(tour)
    assert href is not None
    parts = urlsplit(stop_href(tour, 0))
    query = dict(parse_qsl(parts.query))
    assert query["tour"] == tour.id and query["tourdata"] == href
    own._kept.clear()                                             # another server process: only the link knows it
    at = _page("perceptron", **query)
    b = bar(at)
    assert b["tour"] == tour.id and b["claim"] == "holds"
    query["tourdata"] = href[:-8] + "AAAAAAAA"                     # changed on the way
    own._kept.clear()
    at = _page("perceptron", **query)
    assert bar(at) is None
    assert "The tour in the link cannot be opened: field tourdata: the link's tour cannot be read (cut short or " \
           "changed?)." in shown(at, "warning")


def test_an_uploaded_tour_file_is_opened_or_its_problems_named():
    at = _page("tours")
    at.file_uploader(key="olc_tour_open").set_value(("mine.json", json.dumps(GOOD).encode(), "application/json"))
    at.run()
    assert not at.exception
    assert any('data-tour="own-' in h.proto.body and "A demo tour" in h.proto.body for h in at.get("html"))
    bad = json.loads(json.dumps(GOOD))
    bad["stops"][0]["settings"]["gamma"] = 0.9
    bad["stops"][2]["t"] = -1
    at = _page("tours")
    at.file_uploader(key="olc_tour_open").set_value(("bad.json", json.dumps(bad).encode(), "application/json"))
    at.run()
    assert not at.exception
    assert "This file is not a tour that can be opened: bad.json: stop 3, field t: -1 is less than the minimum of " \
           "0." in shown(at, "error")
    assert any('class="olc-tours"' in h.proto.body for h in at.get("html"))    # the shipped tours are still listed


@pytest.mark.parametrize("raw", [b"\xff", b"{", b" " * 200_001])
def test_an_upload_that_is_not_json_is_named(raw):
    at = _page("tours")
    at.file_uploader(key="olc_tour_open").set_value(("x.json", raw, "application/json"))
    at.run()
    assert not at.exception and "This file is not a tour that can be opened: x.json: field (the file): " in \
        shown(at, "error")
