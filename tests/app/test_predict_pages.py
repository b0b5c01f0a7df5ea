"""Predict, then reveal on the pages (AppTest): every learner's page has the switch (the Perceptron only in 2-D),
kept in the URL, and the viewer gets the run's answers."""
from __future__ import annotations

import pytest

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
    assert not at.exception
    o = viewer_data(at)["modes"]["predict"]
    assert o["kind"] == "rwm" and o["cover"] == {"advice": 0.5, "mistakes": 0.0}
    assert [i for i, m in enumerate(o["mistake"]) if m] == viewer_data(at)["spec"]["mistake_rounds"]


# page, its switch's key, the kind, extra query parameters, the answers the kind can give
KINDS = [
    ("margin_perceptron", "margin", "margin", {}, {"init", "none", "band", "mistake"}),
    ("winnow", "winnow", "winnow", {}, {"none", "promote", "demote"}),
    ("exponentiated_update", "eg", "eg", {}, {"none", "exact", "fewer", "more"}),
    ("ftrl", "ftrl", "ftrl", {}, {"above", "half", "below"}),
    ("halving", "halving", "halving", {}, {"all", "half", "most"}),
    ("boolean_concepts", "boolean", "conj", {"mode": "conj"}, {"none", "false"}),
    ("boolean_concepts", "boolean", "dl", {"mode": "dl"}, {"none", "fall"}),
]


@pytest.mark.parametrize("name, key, kind, query, answers", KINDS, ids=[k[2] for k in KINDS])
def test_every_learners_page_offers_its_question(name, key, kind, query, answers):
    at = open_page(page_path(name), predict="1", **query)
    assert not at.exception
    toggle = at.toggle(key=f"{key}_predict__predict")
    assert toggle.value is True and toggle.label == "Predict, then reveal"
    data = viewer_data(at)
    o = data["modes"]["predict"]
    assert o["kind"] == kind and o["T"] == data["spec"]["T"] and len(o["answer"]) == o["rounds"] == min(o["T"], 2000)
    assert set(o["answer"]) <= answers
    # the question's mistakes are the run's, as the viewer's own stops know them
    assert [i for i, m in enumerate(o["mistake"]) if m] == [t for t in data["spec"]["mistake_rounds"] if t < o["rounds"]]
    assert url(at)["predict"] == "1"
    toggle.set_value(False).run()
    assert not at.exception and "predict" not in viewer_data(at)["modes"] and url(at)["predict"] == "0"
