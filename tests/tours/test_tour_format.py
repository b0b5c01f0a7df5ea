"""The tour file format (docs/tours.md): the schema (checked by jsonschema), the checks against the pages' declared
settings, and messages that name the stop and the field; a bad file in the folder breaks nothing else."""
from __future__ import annotations

import copy
import json

import jsonschema
import pytest

from olc_ui.shared.tours.format import MAX_BYTES, TOUR_SCHEMA, TourError, parse, problems
from olc_ui.shared.tours.store import read_bytes, read_folder

from tests.tours.tourtest import tables

GOOD = {
    "format": "olc-tour/1", "id": "demo", "title": "A demo tour", "note": "000",
    "stops": [
        {"page": "perceptron", "settings": {"gamma": 0.2, "T": 60, "cmp": "planted"}, "t": 12,
         "text": "Each mistake adds at least $\\gamma$ to $\\langle w^*, w\\rangle$.", "ref": "[000] §3.2, step 3",
         "claim": {"kind": "compare", "left": "series:inner", "op": ">=", "right": "series:M_gamma"}},
        {"page": "winnow", "settings": {"N": 50, "beta": 1}, "t": 40, "text": "**Winnow** promotes.",
         "ref": "[000] §4.1", "claim": {"kind": "no_violation"}},
        {"page": "boolean_concepts", "settings": {"mode": "dl", "dn": 3, "L": 2}, "t": 30, "text": "Levels.",
         "ref": "[004] §2.2", "claim": {"kind": "compare", "left": "M", "op": "<=", "right": "bound"}},
    ],
}


@pytest.fixture(scope="module")
def pages():
    return tables()


def _with(path: str, value, base=GOOD) -> dict:
    """GOOD with the field at ``path`` (dotted; numbers index lists) set to ``value`` (or removed: ``...``)."""
    doc = copy.deepcopy(base)
    *head, last = [int(p) if p.isdigit() else p for p in path.split(".")]
    node = doc
    for p in head:
        node = node[p]
    if value is ...:
        del node[last]
    else:
        node[last] = value
    return doc


def test_the_schema_is_a_valid_json_schema():
    jsonschema.Draft202012Validator.check_schema(TOUR_SCHEMA)


def test_a_good_tour_parses(pages):
    tour = parse(GOOD, pages)
    assert tour.id == "demo" and len(tour) == 3
    s = tour.stops[0]
    assert s.page == "perceptron" and s.t == 12 and s.settings == {"gamma": "0.2", "T": "60", "cmp": "planted"}
    assert s.query() == {"gamma": "0.2", "T": "60", "cmp": "planted", "t": "12"}
    assert tour.stops[1].settings["beta"] == "1"


@pytest.mark.parametrize("path,value,message", [
    ("stops.1.page", "winnoww", "stop 2, field page: 'winnoww' is not a page a tour can visit"),
    ("stops.0.settings.gama", 0.2, "stop 1, field settings.gama: not a setting of the page perceptron"),
    ("stops.0.settings.gamma", 0.9, "stop 1, field settings.gamma: gamma must be between 0.01 and 0.5 (got '0.9')"),
    ("stops.0.settings.T", 2.5, "stop 1, field settings.T: T must be a whole number (got '2.5')"),
    ("stops.0.settings.cmp", "best", "stop 1, field settings.cmp: cmp must be one of planted, max-margin (got 'best')"),
    ("stops.2.settings.dn", 99, "stop 3, field settings.dn: dn must be between 1 and 8 (got '99')"),
    ("stops.1.text", "word " * 61, "stop 2, field text: 61 words; a stop's text has at most 60"),
    ("stops.1.text", "see [the notes](https://example.org)", "stop 2, field text: "),
    ("stops.1.text", "an odd $ sign", "stop 2, field text: an odd number of $"),
])
def test_a_problem_against_the_pages_names_the_stop_and_the_field(pages, path, value, message):
    found = [str(p) for p in problems(_with(path, value), pages)]
    assert any(f.startswith(message) for f in found), found
    with pytest.raises(TourError) as e:
        parse(_with(path, value), pages)
    assert message in str(e.value)


@pytest.mark.parametrize("path,value,message", [
    ("stops.0.t", -1, "stop 1, field t: -1 is less than the minimum of 0"),
    ("stops.0.t", "12", "stop 1, field t: '12' is not of type 'integer'"),
    ("stops.0.claim", ..., "stop 1, field claim: missing (a required field)"),
    ("stops.0.colour", "red", "stop 1, field colour: not a field of the format (see docs/tours.md)"),
    ("stops.0.claim.op", "≤", "stop 1, field claim.op: '≤' is not one of"),
    ("stops.0.claim.kind", "sandwich", "stop 1, field claim.kind: 'sandwich' is not one of"),
    ("stops.1.claim.proof", "cos ine", "stop 2, field claim.proof: 'cos ine' does not match"),
    ("stops.0.settings.pts", ["a"], "stop 1, field settings.pts: ['a'] is not of type 'string', 'number', 'boolean'"),
    ("id", "Demo Tour", "field id: 'Demo Tour' does not match"),
    ("format", "olc-tour/2", "field format: 'olc-tour/1' was expected"),
    ("stops", [], "field stops: [] should be non-empty"),
    ("stops.0.ask", "yes", "stop 1, field ask: 'yes' is not of type 'boolean'"),
    ("stops.0.point", {}, "stop 1, field point: {} should be non-empty"),
    ("stops.0.point", {"ledger": 1, "chart": "main"}, "stop 1, field point: {'ledger': 1, 'chart': 'main'} has too many"),
    ("stops.0.point", {"line": 1}, "stop 1, field point.line: not a field of the format"),
    ("stops.0.point", {"ledger": 0}, "stop 1, field point.ledger: 0 is less than the minimum of 1"),
    ("stops.0.point", {"chart": "<b>"}, "stop 1, field point.chart: '<b>' does not match"),
])
def test_a_problem_of_the_schema_names_the_stop_and_the_field(path, value, message):
    found = [str(p) for p in problems(_with(path, value))]
    assert any(f.startswith(message) for f in found), found


def test_a_stop_that_asks_and_points_parses_and_its_link_turns_the_question_on(pages):
    doc = _with("stops.0.point", {"ledger": 3}, _with("stops.0.ask", True))
    s = parse(doc, pages).stops[0]
    assert s.ask is True and s.point == {"ledger": 3}
    assert s.query() == {"gamma": "0.2", "T": "60", "cmp": "planted", "predict": "1", "t": "12"}
    assert parse(GOOD, pages).stops[0].ask is False and parse(GOOD, pages).stops[0].point is None


def test_pages_are_checked_only_with_their_tables():
    """Without the pages' tables (a lesson page checks its own stop when it opens it) only the schema and the texts
    are checked."""
    assert problems(_with("stops.0.settings.gama", 0.2)) == []
    assert problems(_with("stops.1.text", "word " * 61))


def test_bytes_that_are_not_a_tour(pages):
    with pytest.raises(TourError, match=r"field \(the file\): 200,001 bytes; a tour file has at most 200,000"):
        read_bytes(b" " * (MAX_BYTES + 1))
    with pytest.raises(TourError, match=r"not UTF-8 text \(byte 1\)"):
        read_bytes(b"\xff{}")
    with pytest.raises(TourError, match=r"not JSON: Expecting ',' delimiter at line 1, column 9"):
        read_bytes(b'{"a": 1 "b": 2}')
    assert read_bytes(json.dumps(GOOD).encode(), pages).id == "demo"


def test_a_bad_file_in_the_folder_breaks_nothing_else(tmp_path, pages):
    (tmp_path / "a.json").write_text(json.dumps(GOOD))
    (tmp_path / "b.json").write_text(json.dumps(_with("stops.0.t", -3)))
    (tmp_path / "c.json").write_text("{not json")
    (tmp_path / "d.json").write_text(json.dumps(GOOD))          # the same id again
    (tmp_path / "e.json").write_text(json.dumps(_with("id", "other")))
    (tmp_path / "notes.txt").write_text("not a tour")
    found = read_folder(tmp_path, pages)
    assert sorted(found.tours) == ["demo", "other"] and found.files == {"demo": "a.json", "other": "e.json"}
    assert found.problems == {
        "b.json": ["stop 1, field t: -3 is less than the minimum of 0"],
        "c.json": ["field (the file): not JSON: Expecting property name enclosed in double quotes at line 1, "
                   "column 2"],
        "d.json": ["field id: 'demo' is the id of a.json too"],
    }
