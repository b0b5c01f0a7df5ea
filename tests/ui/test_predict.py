"""Predict, then reveal: the mode's options are the run's answers (olc_ui/viewer/predict.py), and the browser module
(olc_ui/viewer/assets/viewer_predict.js, under node) asks and grades with them."""
from __future__ import annotations

import shutil

import numpy as np
import pytest

import olc_core
from olc_ui.viewer import predict
from tests.conftest import node_eval

NODE = shutil.which("node")


def _hand_run():
    # w0 = 0: round 1 is a mistake (score 0), w = (1, 0); round 2: (0, 1) labelled -1 scores 0 -> a mistake,
    # w = (1, -1): a clockwise turn of 45°; round 3: (-1, -1) labelled +1 scores 0 -> a mistake, w = (0, -2):
    # clockwise 45° again; round 4: (0, -1) labelled +1 scores 2 -> no mistake.
    X = np.array([[1.0, 0.0], [0.0, 1.0], [-1.0, -1.0], [0.0, -1.0]])
    y = np.array([1.0, -1.0, 1.0, 1.0])
    return X, y, olc_core.run("perceptron", X, y)


def test_perceptron_options_are_the_runs_answers_by_hand():
    X, y, tr = _hand_run()
    assert tr.mistakes.tolist() == [0, 1, 2]
    o = predict.perceptron_options(tr, X, y)
    assert o["kind"] == "perceptron" and o["rounds"] == o["T"] == 4
    assert o["mistake"] == [1, 1, 1, 0]
    assert o["wzero"] == [1, 0, 0, 0]                       # w = 0 only before the first round
    assert o["answer"] == ["mistake", "cw", "cw", "none"] and o["turn"] == [0, -1, -1, 0]
    assert o["angle"][0] is None and o["angle"][3] is None
    assert o["angle"][1] == pytest.approx(-45.0) and o["angle"][2] == pytest.approx(-45.0)
    assert o["score"] == tr.columns["score"].tolist() == [0.0, 0.0, 0.0, 2.0]
    assert o["px"] == X[:, 0].tolist() and o["py"] == X[:, 1].tolist() and o["label"] == [1, -1, 1, 1]


def test_turn_angles_follow_the_weights_on_a_random_run():
    s = olc_core.streams.separable(T=300, d=2, gamma=0.05, radius=1.0, seed=4)
    tr = olc_core.run("perceptron", s.X, s.y, comparator=s.comparator)
    o = predict.perceptron_options(tr, s.X, s.y)
    for t in tr.mistakes[1:]:
        a, b = tr.weights_at(int(t)), tr.weights_at(int(t) + 1)
        cross = a[0] * b[1] - a[1] * b[0]
        assert o["turn"][t] == int(np.sign(cross)) != 0
        cos = np.dot(a, b) / np.linalg.norm(a) / np.linalg.norm(b)
        assert abs(o["angle"][t]) == pytest.approx(np.degrees(np.arccos(np.clip(cos, -1, 1))), abs=1e-6)
    assert sum(o["mistake"]) == tr.n_mistakes


def test_only_a_2d_perceptron_gets_questions_and_rwm_gets_its_own():
    s = olc_core.streams.separable(T=50, d=3, gamma=0.1, radius=1.0, seed=0)
    assert predict.perceptron_options(olc_core.run("perceptron", s.X, s.y), s.X, s.y) is None
    e = olc_core.streams.experts(T=40, N=5, error_rates=[0.1, 0.2, 0.3, 0.4, 0.45], seed=1)
    tr = olc_core.run("randomized_weighted_majority", e.X, e.y, eta=0.3, seed=0)
    assert predict.experts_options(tr, e.X, e.y, "rwm")["kind"] == "rwm"   # its prediction is drawn: its own question


def test_experts_options_weighted_majority_and_halving():
    e = olc_core.streams.experts(T=120, N=6, error_rates=[0.05, 0.2, 0.3, 0.4, 0.45, 0.5], seed=2)
    wm = olc_core.run("weighted_majority", e.X, e.y, beta=0.5)
    o = predict.experts_options(wm, e.X, e.y, "wm")
    assert o["mistake"] == [int(t in set(wm.mistakes.tolist())) for t in range(120)]
    assert o["wrong"] == pytest.approx(wm.columns["wrong_fraction"].tolist(), rel=1e-12)
    assert o["agree"] == (e.X == e.y[:, None]).sum(axis=1).tolist() and o["N"] == 6
    # a mistake is exactly a round where the wrong experts held at least half (ties go to +1)
    for t in range(120):
        w = o["wrong"][t]
        if abs(w - 0.5) > 1e-9:
            assert o["mistake"][t] == int(w > 0.5)
    hv = olc_core.run("halving", e.X, e.y)
    h = predict.experts_options(hv, e.X, e.y, "halving")
    assert h["whose"] == "of the version space"
    assert h["wrong"] == pytest.approx([None if c == "empty" else v for c, v in
                                        zip(h["case"], ((1 - e.y * hv.columns["vote"]) / 2).tolist())])


def test_long_runs_are_asked_about_their_first_rounds_only():
    s = olc_core.streams.separable(T=predict.MAX_ROUNDS + 500, d=2, gamma=0.05, radius=1.0, seed=0)
    tr = olc_core.run("perceptron", s.X, s.y, comparator=s.comparator)
    o = predict.perceptron_options(tr, s.X, s.y)
    assert o["rounds"] == predict.MAX_ROUNDS and o["T"] == tr.T
    assert all(len(o[k]) == predict.MAX_ROUNDS for k in ("mistake", "px", "py", "label", "score", "turn", "angle",
                                                            "wzero"))


def _js(tmp_path, expression: str, data):
    return node_eval(tmp_path, "viewer_questions.js", expression, data)


@pytest.mark.skipif(NODE is None, reason="node is not installed")
def test_the_browser_grades_with_the_runs_answers(tmp_path):
    X, y, tr = _hand_run()
    o = predict.perceptron_options(tr, X, y)
    got = _js(tmp_path, "[1, 2, 3, 4].map(r => [m.rightAnswer(data, r), m.questionText(data, r), m.revealText(data, r)])", o)
    assert [g[0] for g in got] == ["mistake", "cw", "cw", "none"]
    assert "w = 0." in got[0][1] and "how will w move" in got[1][1]
    assert got[1][2] == "⟨w, x⟩ = 0 and y = −1: a score of 0 counts as a mistake; w += y·x turned w 45° clockwise."
    assert got[3][2] == "⟨w, x⟩ = +2 and y = +1: the signs agree — no mistake, w stays."
    e = olc_core.streams.experts(T=60, N=4, error_rates=[0.1, 0.3, 0.4, 0.5], seed=3)
    wm = olc_core.run("weighted_majority", e.X, e.y, beta=0.5)
    w = predict.experts_options(wm, e.X, e.y, "wm")
    got = _js(tmp_path, "Array.from({length: 60}, (_, i) => m.rightAnswer(data, i + 1))", w)
    assert got == ["mistake" if m else "none" for m in w["mistake"]]



def test_experts_options_name_who_says_the_label_and_cover_later_rounds():
    e = olc_core.streams.experts(T=50, N=5, error_rates=[0.1, 0.2, 0.3, 0.4, 0.45], seed=5)
    wm = olc_core.run("weighted_majority", e.X, e.y, beta=0.5)
    o = predict.experts_options(wm, e.X, e.y, "wm")
    assert o["says"] == [(np.flatnonzero(e.X[t] == e.y[t]) + 1).tolist() for t in range(50)]
    assert [len(s) for s in o["says"]] == o["agree"]
    assert o["cover"] == {"advice": 0.5, "mistakes": 0.0}
    big = olc_core.streams.experts(T=20, N=predict.MAX_NAMED + 1, error_rates=[0.3] * (predict.MAX_NAMED + 1),
                                   seed=1)
    tr = olc_core.run("weighted_majority", big.X, big.y, beta=0.5)
    assert "says" not in predict.experts_options(tr, big.X, big.y, "wm")
