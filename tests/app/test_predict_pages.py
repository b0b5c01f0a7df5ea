"""Predict, then reveal on the pages (AppTest): the switch is there where a question has an answer (a 2-D
Perceptron, Weighted Majority, Halving), kept in the URL, and the viewer gets the run's answers."""
from __future__ import annotations

from tests.app.pagetest import open_page, page_path, url, viewer_data


def test_pages_offer_the_switch_and_send_the_runs_answers():
    at = open_page(page_path("perceptron"), predict="1", T="120", seed="2")
    assert not at.exception
    assert at.toggle(key="perceptron_predict__predict").value is True
    data = viewer_data(at)
    o = data["modes"]["predict"]
    assert o["kind"] == "perceptron" and o["T"] == 120
    assert [i for i, m in enumerate(o["mistake"]) if m] == data["spec"]["mistake_rounds"]
    assert url(at)["predict"] == "1"
    at.toggle(key="perceptron_predict__predict").set_value(False).run()
    assert "predict" not in viewer_data(at)["modes"] and url(at)["predict"] == "0"
    # no question in 3-D: no switch
    at = open_page(page_path("perceptron"), d="3")
    assert not at.exception and not [t for t in at.toggle if t.key == "perceptron_predict__predict"]
    at = open_page(page_path("experts"), predict="1", alg="wm")
    assert not at.exception
    o = viewer_data(at)["modes"]["predict"]
    assert o["kind"] == "experts" and [i for i, m in enumerate(o["mistake"]) if m] == viewer_data(at)["spec"]["mistake_rounds"]
    at = open_page(page_path("experts"), predict="1", alg="rwm")
    assert not at.exception and "predict" not in viewer_data(at)["modes"]
