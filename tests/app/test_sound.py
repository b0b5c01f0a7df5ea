"""Sound through AppTest (olc_ui/shared/sound.py): the "Sound" switch in the sidebar of every page with the
step viewer (and of no other page), off by default; ``?sound=1`` turns it on and gives the viewer its ``sound``
mode, with the pitch's source read off the page's spec; the switch writes ``sound=1`` back into the link and
leaves a link without it as it was; presentation mode keeps it in the sidebar and keeps its own mode."""
from __future__ import annotations

import pytest

from olc_ui.catalog import LESSONS
from olc_ui.shared.state import URL_KEY
from olc_ui.shared import sound

from tests.app.pagetest import open_page, page_path, url, viewer_data, viewers

PAGES = [row[4] for row in LESSONS if row[4] != "home"]


def switches(at) -> list:
    return [t for t in at.sidebar.toggle if t.label == "Sound"]


@pytest.mark.parametrize("name", PAGES)
def test_every_viewer_page_has_the_switch_and_reads_sound_from_the_link(name):
    at = open_page(page_path(name), sound="1")
    assert not at.exception
    if not viewers(at):
        assert switches(at) == [] and not [t for t in at.toggle if t.label == "Sound"]
        return
    [t] = switches(at)
    assert t.value is True and t.help and "mistake" in t.help
    data = viewer_data(at)
    assert data["modes"]["sound"] == sound.options(data["spec"])
    assert url(at)["sound"] == "1"


@pytest.mark.parametrize("name,source", [("perceptron", True), ("halving", True), ("ftrl", False)])
def test_off_by_default_and_the_round_trip(name, source):
    at = open_page(page_path(name))
    [t] = switches(at)
    assert t.value is False
    assert "sound" not in viewer_data(at)["modes"] and "sound" not in at.session_state[URL_KEY]
    t.set_value(True).run()
    data = viewer_data(at)
    opts = data["modes"]["sound"]
    assert url(at)["sound"] == "1" and opts["low"] < opts["high"]
    assert ("x" in opts) is source
    if source:   # the sandwich's markers and the crossing, as the spec has them
        assert opts["x"] in data["spec"]["arrays"] and opts["bound"] > 0
    run_id = data["spec"]["run_id"]
    switches(at)[0].set_value(False).run()
    assert "sound" not in viewer_data(at)["modes"] and "sound" not in at.session_state[URL_KEY]
    assert viewer_data(at)["spec"]["run_id"] == run_id   # the same run: the switch changes only the mode


def test_presentation_mode_keeps_the_switch_in_the_sidebar():
    at = open_page(page_path("perceptron"), present="1", sound="1")
    assert not at.exception
    [t] = switches(at)
    assert t.value is True
    modes = viewer_data(at)["modes"]
    assert set(modes) == {"present", "sound"} and modes["present"] == {"hide": []}
    at = open_page(page_path("perceptron"), present="1")
    assert switches(at)[0].value is False and set(viewer_data(at)["modes"]) == {"present"}


def test_predict_and_sound_together():
    at = open_page(page_path("perceptron"), predict="1", sound="1")
    assert not at.exception
    assert {"predict", "sound"} <= set(viewer_data(at)["modes"])


def test_a_bad_sound_value_is_reported_and_off():
    at = open_page(page_path("perceptron"), sound="loud")
    assert switches(at)[0].value is False
    assert "sound" not in viewer_data(at)["modes"] and "sound" not in url(at)
    assert any("sound" in w.value for w in at.warning)
