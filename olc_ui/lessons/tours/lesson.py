"""The Tours page: every tour of the ``tours/`` folder (docs/tours.md) as a card — title, note, number of stops, its
description — with links to its first stop, as it is and in presentation mode; the folder's bad files with their
problems (a bad file breaks nothing else).

A tour file's text is untrusted (a lecturer may drop any file into the folder): the cards are escaped HTML
(olc_ui/shared/safe.py), the links are built from the checked stop (olc_ui/shared/tours/bar.py ``stop_href``).
"""
from __future__ import annotations

import html

import streamlit as st

from olc_ui.shared import safe
from olc_ui.shared.tours import offline as tour_offline
from olc_ui.shared.tours.bar import stop_href
from olc_ui.shared.tours.format import Tour
from olc_ui.shared.tours.store import Found

__all__ = ["INTRO", "CLASS", "card_html", "list_tours", "one_card", "bad_files", "take_home", "offline_button"]

#: the list's class (each card: ``olc-tour-card`` with ``data-tour``)
CLASS = "olc-tours"
#: how to give a lecture from a tour (the README says the same in three lines)
INTRO = ("Pick a lecture below. Each **stop** opens a lesson page at the settings and the round that show one step "
       "of the note's argument, with a few sentences, the note's reference and a claim that the page checks on its "
       "own run. In the lecture hall open it in **presentation mode** and press **PageDown** (a clicker's next) "
       "and **PageUp** to move between stops; the arrow keys step the run inside a stop.")

_CSS = f"""<style>
.{CLASS} {{ display: grid; grid-template-columns: repeat(auto-fill, minmax(20rem, 1fr)); gap: 0.8rem; }}
.{CLASS} .olc-tour-card {{ border: 1px solid rgba(128, 128, 128, 0.55); border-radius: 10px; padding: 0.7rem 0.9rem; }}
.{CLASS} h2 {{ font-size: 1.15rem; margin: 0 0 0.3rem 0; padding: 0; line-height: 1.35; }}
.{CLASS} h2 a {{ color: inherit; }}
.{CLASS} p {{ margin: 0.2rem 0; line-height: 1.45; }}
.{CLASS} .olc-tour-meta {{ opacity: 0.85; font-size: 0.95rem; }}
.{CLASS} .olc-tour-links {{ display: flex; flex-wrap: wrap; gap: 0.5rem; margin-top: 0.5rem; }}
.{CLASS} .olc-tour-links a {{ border: 1px solid rgba(128, 128, 128, 0.7); border-radius: 0.5rem; padding: 0.3rem 0.8rem;
  color: inherit; text-decoration: none; min-height: 44px; display: inline-flex; align-items: center; }}
.{CLASS} a:focus-visible {{ outline: 3px solid light-dark(#1f6feb, #79c0ff); outline-offset: 2px; }}
</style>"""


def card_html(tour: Tour) -> str:
    """One tour's card (pure: tested as data)."""
    first = html.escape(stop_href(tour, 0))
    present = html.escape(stop_href(tour, 0, {"present": "1"}))
    title = html.escape(safe.clip(tour.title, 120))
    note = f"note [{html.escape(tour.note)}] · " if tour.note else ""
    desc = f"<p>{html.escape(safe.clip(tour.description, 400))}</p>" if tour.description else ""
    return (f'<article class="olc-tour-card" data-tour="{html.escape(tour.id)}">'
            f'<h2><a href="{first}" target="_self">{title}</a></h2>'
            f'<p class="olc-tour-meta">{note}{len(tour)} stops</p>{desc}'
            f'<div class="olc-tour-links"><a href="{first}" target="_self">Start the tour</a>'
            f'<a href="{present}" target="_self">Start in presentation mode</a></div></article>')


def list_tours(tours: list[Tour]) -> None:
    """Every tour as a card, in the order given."""
    if not tours:
        st.info("No tour found: the app's tours/ folder is empty.")
        return
    st.html(_CSS + f'<div class="{CLASS}">' + "".join(card_html(t) for t in tours) + "</div>")


def one_card(tour: Tour, tables: dict, runs: dict, where: str) -> None:
    """One tour's card on its own (a student's draft, an opened file: ``where``), with its offline file's button."""
    st.html(_CSS + f'<div class="{CLASS}">{card_html(tour)}</div>')
    offline_button(st.container(), tour, tables, runs, key=f"olc_tour_offline_{where}")


def offline_button(where, tour: Tour, tables: dict, runs: dict, *, key: str) -> None:
    """"Download … as one offline file (HTML)": the tour's stops as sections, each with its text, reference, claim
    and step viewer (olc_ui/shared/tours/offline.py), built when clicked."""
    where.download_button(f"Download {safe.md(safe.clip(tour.title, 80))} as one offline file (HTML)",
                          data=lambda: tour_offline.tour_html(tour, tables, runs),
                          file_name=tour_offline.file_name(tour), mime="text/html", on_click="ignore", key=key,
                          icon=":material/download:")


def take_home(tours: list[Tour], tables: dict, runs: dict) -> None:
    """A lecture to take home: each tour as one offline file (the step viewers and their runs, the network off)."""
    if not tours:
        return
    st.subheader("Take a lecture home")
    st.caption("One HTML file per tour, for a course's web page, a learning platform or a train: every stop as a "
               "section with its text, reference and claim (decided on the stop's run) and the stop's step viewer at "
               "its round — it opens from disk and needs no network. Built when you click (a few seconds).")
    box = st.container()
    for tour in tours:
        offline_button(box, tour, tables, runs, key=f"olc_tour_offline_{tour.id}")


def bad_files(found: Found) -> None:
    """The folder's files that are not good tours, each with its problems (inert text)."""
    for name, problems in sorted(found.problems.items()):
        safe.notice("warning", "A file in the tours folder is not a tour that can be used: ",
                    f"{name}: " + "; ".join(problems[:5]) + (f"; and {len(problems) - 5} more" if len(problems) > 5 else "")
                    + ".")
