"""Tours: the lectures of the notes as sequences of live stops (issue 33; docs/tours.md).

This page checks every tour against every page a tour can visit, so it reads each lesson's declared settings (the
tables the lesson pages bind); a tour's offline file asks each page for its stops' runs (``stop_run``: the calls the
page makes), only when that file is downloaded."""
import streamlit as st

from olc_ui.lessons.boolean_concepts import lesson as boolean
from olc_ui.lessons.compare import lesson as compare
from olc_ui.lessons.experts import lesson as experts
from olc_ui.lessons.exponentiated_update import lesson as eg
from olc_ui.lessons.ftrl import lesson as ftrl
from olc_ui.lessons.halving import lesson as halving
from olc_ui.lessons.margin_perceptron import lesson as margin
from olc_ui.lessons.perceptron import lesson as perceptron
from olc_ui.lessons.tours import lesson as L
from olc_ui.lessons.winnow import lesson as winnow
from olc_ui.shared import page
from olc_ui.shared.tours import author
from olc_ui.shared.tours.store import FOLDER, read_folder

#: every page a tour can visit, with the settings it hands its step viewer (tests/tours/tourtest.py: the same)
TABLES = {"perceptron": perceptron.SETTINGS + perceptron.TD_SETTINGS, "margin_perceptron": margin.SETTINGS,
          "ftrl": ftrl.SETTINGS, "winnow": winnow.SETTINGS, "exponentiated_update": eg.SETTINGS,
          "experts": experts.SETTINGS, "halving": halving.SETTINGS, "compare": compare.SETTINGS,
          "boolean_concepts": boolean.MODE_SETTINGS + [s for g in boolean.GROUPS.values() for s in g]}

#: each page's run for a stop's settings (the offline file of a tour: olc_ui/shared/tours/offline.py)
RUNS = {"perceptron": perceptron.stop_run, "margin_perceptron": margin.stop_run, "ftrl": ftrl.stop_run,
        "winnow": winnow.stop_run, "exponentiated_update": eg.stop_run, "experts": experts.stop_run,
        "halving": halving.stop_run, "compare": compare.stop_run, "boolean_concepts": boolean.stop_run}

page.setup("Tours")
st.title("Lectures as tours")
page.intro(L.INTRO)

found = read_folder(FOLDER, TABLES)
shipped = sorted(found.tours.values(), key=lambda t: (t.note, t.id))
L.list_tours(shipped)
L.bad_files(found)
L.take_home(shipped, TABLES, RUNS)

# the student's own: the draft made with "Add this view to a tour" on the lesson pages, and a tour file opened here
author.editor(TABLES, lambda tour: L.one_card(tour, TABLES, RUNS, "draft"))
author.opener(TABLES, lambda tour: L.one_card(tour, TABLES, RUNS, "opened"))
author.keep_draft()     # the draft in this browser: it survives a reload (olc_ui/shared/tours/author.py)
