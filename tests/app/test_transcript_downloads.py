"""Every lesson page offers the proof transcript (Markdown + KaTeX, LaTeX) next to the trace CSV; the
files are named after the page and its changed settings, and their content names the page's learner.

AppTest has no server, so a deferred download's bytes are never asked for: the tests watch
``download_button`` and call the data callables the page handed it."""
from __future__ import annotations

import pytest

from olc_core._transcript.texdoc import md_text, tex_text
from olc_ui.catalog import available
from olc_ui.shared.transcript import png_available
from tests.app.pagetest import open_page, page_path
from tests.hostile import HOSTILE, unescaped

LABELS = ["Download the trace (CSV)", "Download the proof (Markdown + KaTeX)", "Download the proof (LaTeX)"]
PNG = "Download the figure at the end of the run (PNG)"
#: the run as a notebook (tests/app/test_notebook_downloads.py executes it)
NOTEBOOK = "Download this run as a notebook (.ipynb)"
#: the run as one offline HTML file (tests/e2e/test_offline_file.py opens it with the network off)
OFFLINE = "Download this run as one offline file (HTML)"

#: each page's default run, the learner its proof is about (as the transcript's title names it),
#: and a setting to change (which the file names then carry)
PAGES = {
    "perceptron": ("Perceptron, separable data", {"seed": "3"}, "perceptron-seed3"),
    "margin_perceptron": ("Margin Perceptron", {"seed": "2"}, "margin_perceptron-seed2"),
    "ftrl": ("Randomised FTRL linear classifier", {"seed": "4"}, "ftrl-seed4"),
    "winnow": ("Winnow (Littlestone)", {"seed": "5"}, "winnow-seed5"),
    "exponentiated_update": ("exponentiated update", {"seed": "6"}, "exponentiated_update-seed6"),
    "experts": ("Weighted Majority", {"seed": "7"}, "experts_weighted_majority-seed7"),
    "halving": ("Halving", {"seed": "8"}, "halving-seed8"),
    "boolean_concepts": ("Conjunctions by elimination", {"seed": "9"}, "boolean_conjunction-seed9"),
    "compare": ("Perceptron", {"seed": "4"}, "compare_perceptron-seed4"),
}


@pytest.fixture
def downloads(monkeypatch):
    """Every download button a page draws, in any container: (label, data, file name), in order."""
    from streamlit.delta_generator import DeltaGenerator

    seen: list[tuple] = []
    real = DeltaGenerator.download_button

    def spy(self, label, data=None, file_name=None, **kw):
        seen.append((label, data, file_name))
        return real(self, label, data=data, file_name=file_name, **kw)

    monkeypatch.setattr(DeltaGenerator, "download_button", spy)
    return seen


def test_every_lesson_page_is_listed():
    # the bound explorer shows sweeps of many runs, not one run: its download is the sweep's table (CSV)
    assert {row[4] for row in available()} - {"home", "bound_explorer"} == set(PAGES)


@pytest.mark.parametrize("page", sorted(PAGES))
def test_every_lesson_page_offers_the_proof_transcript(page, downloads):
    learner, query, stem = PAGES[page]
    at = open_page(page_path(page), **query)
    assert not at.exception, at.exception
    png = [PNG] if png_available() else []  # PNG: with the optional kaleido only
    if page == "compare":  # the comparison's one offline file (one viewer), then each of its three learners' files
        labels = [OFFLINE] + (LABELS + [NOTEBOOK] + png) * 3
    else:
        labels = LABELS + [NOTEBOOK, OFFLINE] + png
    assert [b.label for b in at.get("download_button")] == labels
    assert [label for label, _, _ in downloads] == labels
    (_, csv, csv_name), (_, md, md_name), (_, tex, tex_name) = [d for d in downloads if d[0] != OFFLINE][:3]
    assert (csv_name, md_name, tex_name) == (f"{stem}-trace.csv", f"{stem}-proof.md", f"{stem}-proof.tex")
    md, tex = md(), tex()
    assert md.startswith("# Proof transcript: ") and md_text(learner) in md.splitlines()[0]
    assert tex_text(learner) in tex and "\\begin{document}" in tex and tex.isascii()
    for key, value in query.items():  # the page's settings, as in its link
        assert f"{key} = {value}" in md
    assert csv().startswith("round,")


#: each page that takes an upload, its upload key (olc_ui.shared.uploads) and a small file it accepts
UPLOADS = {
    "perceptron": ("perceptron", b"x1,x2,label\n1,0,1\n0,1,1\n-1,0,-1\n"),
    "margin_perceptron": ("margin", b"x1,x2,label\n1,0,1\n0,1,1\n-1,0,-1\n"),
    "ftrl": ("ftrl", b"x1,x2,label\n1,0,1\n0,1,1\n-1,0,-1\n"),
    "winnow": ("winnow", b"x1,x2,x3,label\n1,0,0,1\n0,1,0,0\n0,0,1,1\n"),
    "exponentiated_update": ("eg", b"x1,x2,label\n1,-1,1\n-1,1,-1\n1,1,1\n"),
}


@pytest.mark.parametrize("page", sorted(UPLOADS))
def test_a_hostile_upload_name_is_named_inert_in_the_transcript(page, downloads):
    from streamlit.testing.v1 import AppTest

    key, csv = UPLOADS[page]
    at = AppTest.from_file(page_path(page), default_timeout=120)
    at.query_params["data"] = "upload"
    name = HOSTILE[0] + " " + HOSTILE[3] + " " + HOSTILE[1]
    at.session_state[f"_olc_upload::{key}"] = {"name": name, "data": csv, "id": "hostile"}
    at.run()
    assert not at.exception, at.exception
    assert [label for label, _, _ in downloads][:3] == LABELS, [e.value for e in at.error]
    (_, _, csv_name), (_, md, md_name), (_, tex, _) = downloads[:3]
    assert md_name == f"{page}-dataupload-proof.md" and csv_name == f"{page}-dataupload-trace.csv"
    md, tex = md(), tex()
    assert "- Uploaded file: " + md_text(name[:79] + "…") in md
    assert not unescaped(md)
    assert "Uploaded file: " + tex_text(name[:79] + "…") in tex and "\\color" not in tex


def test_file_names_carry_the_settings_that_differ_from_the_defaults_and_no_free_text():
    from olc_ui.lessons.boolean_concepts import lesson as B
    from olc_ui.lessons.experts import lesson as E
    from olc_ui.lessons.perceptron import lesson as P
    from olc_ui.shared.transcript import changed_settings

    link = {"data": "click", "d": "2", "gamma": "0.2", "seed": "0", "pts": "0.1,0.2,1;0.3,0.4,-1", "zz": "1"}
    assert changed_settings(P.TRANSCRIPT, link) == {"data": "click", "gamma": "0.2"}
    assert changed_settings(E.TRANSCRIPT, {"alg": "rwm", "seed": "0"}) == {"alg": "rwm"}
    assert changed_settings(B.GAME_TRANSCRIPT, {"mode": "adversary", "moves": "0101", "an": "4"}) == {
        "mode": "adversary"}
    assert changed_settings(None, {"a": "1"}) == {"a": "1"}


def test_png_export_is_optional_and_says_what_it_needs(monkeypatch):
    import olc_ui.shared.transcript as T

    monkeypatch.setattr(T, "png_available", lambda: False)
    with pytest.raises(RuntimeError, match="kaleido"):
        T.figure_png({"figures": [], "T": 0}, 0)


@pytest.mark.skipif(not png_available(), reason="PNG export needs the optional package kaleido (>= 1) and a "
                    "Chromium; the shared venv has no kaleido (docs/api.md, 'Figures as PNG')")
def test_the_figure_at_the_end_of_the_run_exports_as_png(downloads):
    at = open_page(page_path("perceptron"), seed="3")
    assert not at.exception
    [(_, data, name)] = [d for d in downloads if d[0] == PNG]
    png = data()
    assert name == "perceptron-seed3-figure.png" and png[:8] == b"\x89PNG\r\n\x1a\n" and len(png) > 5000


def test_file_names_leave_out_a_changed_setting_the_run_does_not_use(downloads):
    """With the optimal η* on, the η slider is not used by the run: a changed η must not name the files
    (a reader would take the file for a run at η = 0.7), while a used setting (the seed) still does."""
    at = open_page(page_path("exponentiated_update"), eta="0.7", seed="6")
    assert not at.exception, at.exception
    names = [name for _, _, name in downloads[:3]]
    assert names == ["exponentiated_update-seed6-trace.csv", "exponentiated_update-seed6-proof.md",
                     "exponentiated_update-seed6-proof.tex"], names
