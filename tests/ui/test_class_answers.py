"""The class's answers to predict-then-reveal (olc_ui/viewer/assets/viewer_class_answers.js, under node): the
question ids, the `open` message built from the run's question, the distribution and share as text, and the
session's CSV (every field quoted, formulas defused, one count column per choice label, no names)."""
from __future__ import annotations

import csv
import io
import re
import shutil

import numpy as np
import pytest

import olc_core
from olc_ui.viewer import predict
from tests.conftest import node_eval

pytestmark = pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")


def _js(tmp_path, expression: str, data=None):
    return node_eval(tmp_path, "viewer_class_answers.js", expression, data)


def _options():
    X = np.array([[1.0, 0.0], [0.0, 1.0], [-1.0, -1.0], [0.0, -1.0]])
    y = np.array([1.0, -1.0, 1.0, 1.0])
    return predict.perceptron_options(olc_core.run("perceptron", X, y), X, y)


def test_question_ids_say_page_run_and_round_and_differ_per_stamp(tmp_path):
    got = _js(tmp_path, "[m.questionId('perceptron', 'run-abc:1', 7, 'k1'), m.questionId('perceptron', 'run-abc:1', 7, 'k2'),"
                        " m.qidParts(m.questionId('experts', 'r9', 12, 'x')), m.runTag('r9'), m.runTag('r8'),"
                        " m.qidParts('nonsense'), m.qidParts(null)]")
    a, b, parts, tag9, tag8, bad, none = got
    assert a != b and a.startswith("perceptron:") and a.endswith(":7:k1")
    assert parts == {"page": "experts", "run": tag9, "round": 12}
    assert tag9 != tag8 and tag9.isalnum()
    assert bad is None and none is None


def test_question_ids_fit_the_hubs_identifiers_and_say_whether_a_student_has_the_run(tmp_path):
    got = _js(tmp_path, "[m.questionId('lessons/per ceptron', 'a'.repeat(500), 2000, 'mx0pk7xr0zz'),"
                        " m.sameRun(m.questionId('perceptron', 'run1', 3, 's'), 'perceptron', 'run1'),"
                        " m.sameRun(m.questionId('perceptron', 'run1', 3, 's'), 'perceptron', 'run2'),"
                        " m.sameRun(m.questionId('perceptron', 'run1', 3, 's'), 'experts', 'run1')]")
    qid, same, other_run, other_page = got
    assert re.fullmatch(r"[A-Za-z0-9_.:\-]{1,64}", qid) and qid.startswith("lessons-per-ceptron:")
    assert same is True and other_run is False and other_page is False


def test_open_message_is_the_runs_question_and_choices(tmp_path):
    o = _options()
    msg = _js(tmp_path, "m.openMessage(data, 2, 'perceptron', 'run1', 's0')", o)
    assert msg["type"] == "open" and msg["round"] == 2 and msg["page"] == "perceptron"
    assert msg["qid"].endswith(":2:s0")
    assert msg["text"].startswith("Round 2: x = (0, 1)") and "how will w move" in msg["text"]
    assert msg["choices"] == [{"id": "none", "label": "No mistake"},
                              {"id": "acw", "label": "Mistake: w turns anticlockwise"},
                              {"id": "cw", "label": "Mistake: w turns clockwise"},
                              {"id": "line", "label": "Mistake: w stays on its line through 0 (or becomes 0)"}]


def test_distribution_counts_percentages_and_the_right_one(tmp_path):
    choices = [{"id": "none", "label": "No mistake"}, {"id": "acw", "label": "Anticlockwise"},
               {"id": "cw", "label": "Clockwise"}]
    rows, lines = _js(tmp_path, "(() => { const d = m.distribution(data, {none: 1, cw: 2}, 'cw');"
                                " return [d, d.map(m.distributionLine)]; })()", choices)
    assert [(r["id"], r["n"], r["pct"], r["right"]) for r in rows] == [
        ("none", 1, 33, False), ("acw", 0, 0, False), ("cw", 2, 67, True)]
    assert lines == ["No mistake: 1 answer (33%)", "Anticlockwise: 0 answers (0%)", "Clockwise: 2 answers (67%) ✓ right"]
    empty = _js(tmp_path, "m.distribution(data, {}, 'none').map(r => r.pct)", choices)
    assert empty == [0, 0, 0]


def test_share_and_count_texts(tmp_path):
    got = _js(tmp_path, "[m.shareText(2/3, 3), m.shareText(null, 0), m.shareText(0, 4), m.shareText(1, 1),"
                        " m.answeredText(2, 3), m.answeredText(0, 0)]")
    assert got == ["Share correct: 67% (2 of 3).", "Nobody answered.", "Share correct: 0% (0 of 4).",
                   "Share correct: 100% (1 of 1).", "2 of 3 answered", "0 of 0 answered"]


def test_csv_cells_are_quoted_and_formulas_defused(tmp_path):
    cells = ["plain", 'say "hi"', "a,b", "line\nbreak", "=1+1", "+cmd", "-2", "@SUM(A1)", "\tx", 3, None, ""]
    got = _js(tmp_path, "data.map(m.csvCell)", cells)
    assert got == ['"plain"', '"say ""hi"""', '"a,b"', '"line\nbreak"', "\"'=1+1\"", "\"'+cmd\"", "\"'-2\"",
                   "\"'@SUM(A1)\"", "\"'\tx\"", '"3"', '""', '""']


def test_session_csv_has_the_columns_and_one_count_column_per_label(tmp_path):
    rows = [
        {"n": 1, "qid": "perceptron:a:2:x", "page": "perceptron", "round": 2, "text": "Round 2: =HYPERLINK(\"x\")?",
         "correct": "cw", "correct_label": "Mistake: w turns clockwise", "counts": {"none": 1, "cw": 2},
         "answered": 3, "joined": 3, "share": 2 / 3},
        {"n": 2, "qid": "experts:b:5:y", "page": "experts", "round": 5, "text": "Round 5, \"quoted\", with commas",
         "correct": "none", "correct_label": "No mistake", "counts": {"mistake": 0, "none": 0, "odd": 1},
         "answered": 0, "joined": 4, "share": None},
    ]
    labels = {"perceptron:a:2:x": [{"id": "none", "label": "No mistake"}, {"id": "acw", "label": "Mistake: w turns anticlockwise"},
                                   {"id": "cw", "label": "Mistake: w turns clockwise"}],
              "experts:b:5:y": [{"id": "none", "label": "No mistake"}, {"id": "mistake", "label": "Mistake"}]}
    text = _js(tmp_path, "m.tallyCsv(data.rows, (row) => data.labels[row.qid])", {"rows": rows, "labels": labels})
    assert text.endswith("\r\n")
    table = list(csv.reader(io.StringIO(text, newline="")))
    assert table[0] == ["n", "page", "round", "question", "right answer", "answered", "joined", "share correct",
                        "No mistake", "Mistake: w turns anticlockwise", "Mistake: w turns clockwise", "Mistake", "odd"]
    # a choice the question offered and nobody chose: 0; one it never offered: empty (issue 32 §7)
    assert table[1] == ["1", "perceptron", "2", "Round 2: =HYPERLINK(\"x\")?", "Mistake: w turns clockwise", "3", "3",
                        "0.667", "1", "0", "2", "", ""]
    assert table[2] == ["2", "experts", "5", "Round 5, \"quoted\", with commas", "No mistake", "0", "4", "", "0", "",
                        "", "0", "1"]
    assert len(table) == 3


def test_a_question_text_starting_with_a_formula_is_defused_in_the_csv(tmp_path):
    rows = [{"n": 1, "qid": "q", "page": "=cmd|' /C calc'!A0", "round": 1, "text": "-1+1", "correct": "none",
             "correct_label": "@x", "counts": {}, "answered": 0, "joined": 0, "share": None}]
    table = list(csv.reader(io.StringIO(_js(tmp_path, "m.tallyCsv(data, () => [])", rows), newline="")))
    assert table[1][1] == "'=cmd|' /C calc'!A0" and table[1][3] == "'-1+1" and table[1][4] == "'@x"


def test_the_csv_is_named_after_the_session_and_the_day(tmp_path):
    got = _js(tmp_path, "[m.csvName('ABC234', new Date(2025, 0, 7)), m.csvName('AB/C2', new Date(2025, 10, 30))]")
    assert got == ["class-ABC234-2025-01-07.csv", "class-ABC2-2025-11-30.csv"]
