"""Presentation mode through AppTest: the switch on every lesson page, its URL round trip
(``?present=1`` turns it on, the switch writes it back, off leaves the link as it was), the viewer's
``present`` mode and ``?hide`` (known names passed on, unknown ones reported as inert text)."""
from __future__ import annotations

import pytest

from olc_ui.shared import present
from olc_ui.catalog import LESSONS
from olc_ui.shared.state import URL_KEY
from olc_ui.viewer.spec import MODES_KEY
from streamlit.testing.v1 import AppTest

from tests.conftest import ROOT
from tests.app.pagetest import open_page, page_path, url, viewer_data, viewers

PAGES = [row[4] for row in LESSONS]


def switch(at):
    [t] = [t for t in at.toggle if t.label == "Presentation mode"]
    return t


@pytest.mark.parametrize("name", PAGES)
def test_every_page_has_the_switch_and_reads_present_from_the_link(name):
    if name == "home":  # the home page links to the others: it runs under the router (app.py)
        at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
        at.query_params["present"] = "1"
        at.run()
    else:
        at = open_page(page_path(name), present="1")
    assert not at.exception
    assert switch(at).value is True
    assert url(at)["present"] == "1"
    assert at.session_state[MODES_KEY] == {"present": {"hide": []}}
    if viewers(at):
        assert viewer_data(at)["modes"] == {"present": {"hide": []}}


def test_switch_round_trip_on_then_off():
    at = open_page(page_path("perceptron"))
    assert switch(at).value is False
    assert "present" not in at.session_state[URL_KEY]  # a normal link is unchanged
    assert viewer_data(at)["modes"] == {}
    switch(at).set_value(True).run()
    assert url(at)["present"] == "1" and viewer_data(at)["modes"] == {"present": {"hide": []}}
    assert url(at)["gamma"] == "0.1"  # the page's own settings stay in the link
    switch(at).set_value(False).run()
    assert "present" not in at.session_state[URL_KEY] and viewer_data(at)["modes"] == {}


def test_hide_known_names_reach_the_viewer_unknown_ones_are_reported_as_text():
    at = open_page(page_path("perceptron"), present="1", hide="Speed,download,settings,**evil**,speed")
    assert not at.exception
    assert viewer_data(at)["modes"] == {"present": {"hide": ["speed", "download"]}}
    assert url(at)["hide"] == "Speed,download,settings,**evil**,speed"  # the link keeps what it said
    notes = [c.value for c in at.caption]
    [note] = [n for n in notes if "hide" in n]
    assert "\\*\\*evil\\*\\*" in note  # inert: escaped Markdown, not bold
    assert "speed" not in note.split("Known")[0]


def test_hide_without_present_changes_nothing_on_screen():
    at = open_page(page_path("perceptron"), hide="speed")
    assert viewer_data(at)["modes"] == {}
    assert url(at)["hide"] == "speed"  # kept in the link for when presentation mode is switched on


def test_bad_present_value_is_reported_and_off():
    at = open_page(page_path("perceptron"), present="maybe")
    assert switch(at).value is False
    assert any("present must be 0 or 1" in w.value for w in at.warning)


def test_parse_hide():
    assert present.parse_hide("") == ([], [])
    assert present.parse_hide("keys, LEDGER ,x") == (["keys", "ledger"], ["x"])
    assert set(present.VIEWER_HIDEABLE) <= set(present.HIDEABLE)
