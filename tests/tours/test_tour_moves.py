"""Moving between the stops of a tour without a page load (AppTest; issue 33 §3, §5): the viewer's tour mode reports a
move (``{t, tour_stop}``) and olc_ui/shared/tours/bar.goto gives the page the stop's settings, its round and its bar;
Back and Forward hand Streamlit the entry's address and the page opens as that link says; a class session's settings
bridge brings the lecturer's stop (bar.follow_class). The browser's side is tested in tests/e2e/test_tours.py and
test_tours_class.py.

The page runs inside a wrapper file named after it (so the page's url path is the same), whose button calls the
callback the step viewer would call, before the page's run, as Streamlit calls a component's."""
from __future__ import annotations

import textwrap

import pytest
from streamlit.testing.v1 import AppTest

from olc_ui.shared import class_session
from olc_ui.shared.tours import store

from tests.app.pagetest import page_path, url, viewer_spec
from tests.tours.tourtest import bar, stop_query

TOUR = store.shipped().tours["000-perceptron-and-winnow"]


@pytest.fixture
def wrapped(tmp_path):
    """``wrapped(page, **query)``: AppTest of the page inside a wrapper whose "move" button calls ``bar.goto`` with
    ``st.session_state["move"]`` and whose "bridge" button calls the page frame's class bridge."""
    def make(page: str, **query) -> AppTest:
        path = tmp_path / f"{page}.py"
        path.write_text(textwrap.dedent(f"""
            import runpy
            import streamlit as st
            from olc_ui.shared import page as frame
            from olc_ui.shared.tours import bar
            st.button("move", on_click=lambda: bar.goto(st.session_state.get("move")))
            st.button("bridge", on_click=lambda: frame._class_bridge(st.session_state.get("bridge")))
            runpy.run_path({page_path(page)!r}, run_name="__main__")
        """), encoding="utf-8")
        at = AppTest.from_file(str(path), default_timeout=120)
        for k, v in query.items():
            at.query_params[k] = v
        return at.run()
    return make


def _press(at: AppTest, label: str, value) -> AppTest:
    at.session_state[label] = value
    [b] = [b for b in at.button if b.label == label]
    return b.click().run()


def test_a_move_to_a_stop_on_the_same_page_opens_it_as_its_link(wrapped):
    page, query = stop_query(TOUR, 8, {"present": "1"})          # stop 9: the Perceptron's generated data, round 200
    at = wrapped(page, **query)
    assert (bar(at)["stop"], viewer_spec(at)["T"], url(at)["data"]) == ("9", 200, "generated")
    at = _press(at, "move", {"tour": TOUR.id, "stop": 10, "at": 1})      # stop 10: the tight instance, round 10
    b, q = bar(at), url(at)
    assert (b["stop"], b["claim"]) == ("10", "holds"), b
    assert (q["data"], q["tour"], q["stop"], q["present"]) == ("tight", TOUR.id, "10", "1")
    spec = viewer_spec(at)
    assert spec["T"] == 10 and spec["position"] == TOUR.stops[9].t
    assert b["run"] == str(spec["run_id"])                    # the claim was decided on the run the viewer shows


def test_a_move_every_setting_the_stop_does_not_name_takes_its_default(wrapped):
    page, query = stop_query(TOUR, 8)
    at = wrapped(page, **{**query, "seed": "7"})              # a student changed the seed inside the stop
    assert bar(at)["claim"] == "off" and url(at)["seed"] == "7"
    at = _press(at, "move", {"tour": TOUR.id, "stop": 8, "at": 1})
    assert (bar(at)["stop"], bar(at)["claim"], url(at)["seed"]) == ("8", "holds", "0")


@pytest.mark.parametrize("move", [{"tour": TOUR.id, "stop": 11, "at": 1},     # Winnow's: another page
                                  {"tour": TOUR.id, "stop": 99, "at": 1}, {"tour": "no-such-tour", "stop": 2},
                                  {"tour": TOUR.id, "stop": "3"}, {"tour": TOUR.id, "stop": True}, "junk", None])
def test_a_move_that_names_no_stop_on_this_page_changes_nothing(wrapped, move):
    page, query = stop_query(TOUR, 8)
    at = wrapped(page, **query)
    at = _press(at, "move", move)
    assert (bar(at)["stop"], bar(at)["claim"], url(at)["stop"], url(at)["data"]) == ("9", "holds", "9", "generated")
    assert not at.exception


def test_back_to_an_earlier_stop_opens_it_as_its_link(wrapped):
    """Back (or Forward) hands Streamlit the entry's address: the page's settings, round and bar are that link's,
    though its widgets held another stop's values."""
    page, query = stop_query(TOUR, 8)
    at = wrapped(page, **query)
    entry = url(at)                                            # the entry of stop 9, as url_sync wrote it
    at = _press(at, "move", {"tour": TOUR.id, "stop": 10, "at": 1})
    assert url(at)["data"] == "tight"
    for k, v in entry.items():
        at.query_params[k] = v
    at.run()
    assert (bar(at)["stop"], bar(at)["claim"], url(at)["data"]) == ("9", "holds", "generated")
    assert viewer_spec(at)["T"] == 200 and viewer_spec(at)["position"] == 200


def test_a_class_bridge_brings_the_lecturers_stop_and_takes_it_away(wrapped):
    page, query = stop_query(TOUR, 8)
    at = wrapped(page, T="50")                                 # a student who joined: the page, not yet the stop
    at.session_state[class_session.SESSION_KEY] = {"code": "ABCDEF", "role": "student", "join_page": page}
    at.run()
    assert bar(at) is None
    settings = "&".join(f"{k}={v}" for k, v in query.items() if k not in ("t", "tour", "stop"))
    at = _press(at, "bridge", {"query": settings, "run": "x", "at": 1, "t": 200, "tour": {"id": TOUR.id, "stop": 9}})
    b = bar(at)
    assert (b["stop"], b["claim"], url(at)["tour"], url(at)["stop"], url(at)["T"]) == ("9", "holds", TOUR.id, "9", "200")
    at = _press(at, "bridge", {"query": settings, "run": "x", "at": 2, "t": 5, "tour": None})   # the lecturer left
    assert bar(at) is None and "tour" not in url(at)
    # out of a class session the bridge brings nothing
    at.session_state[class_session.SESSION_KEY] = None
    at = _press(at, "bridge", {"query": settings, "run": "x", "at": 3, "t": 5, "tour": {"id": TOUR.id, "stop": 9}})
    assert bar(at) is None
