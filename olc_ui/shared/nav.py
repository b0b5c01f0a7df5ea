"""The lesson menu in the sidebar, drawn by the router (app.py) on every page.

Streamlit's own sidebar navigation nests its ``<li>`` in ``<div>`` s inside the ``<ul>`` (axe-core's
``list`` / ``listitem``, WCAG 1.3.1; issue 23 §1), so app.py hides it (``st.navigation(...,
position="hidden")``) and this draws the same menu from the same pages: a heading per section of
olc_ui/catalog.py, then one ``st.page_link`` per lesson with its title and icon, in reading order.
It is drawn from app.py, not from the page's setup, because a page link names a page the router
registered: a lesson run on its own (AppTest on the file) has none.
"""
from __future__ import annotations

import streamlit as st

__all__ = ["KEY", "sidebar"]

#: The menu's container key: its element carries the class ``st-key-olc_nav`` (the browser tests find the links there).
KEY = "olc_nav"

_CSS = """<style>
.st-key-olc_nav { gap: 0; }
.st-key-olc_nav [data-testid="stMarkdownContainer"] { margin: 0.7rem 0 0.15rem 0.5rem; }
.st-key-olc_nav [data-testid="stMarkdownContainer"] p { font-size: 0.85rem; font-weight: 600; margin: 0; }
.st-key-olc_nav [data-testid="stPageLink"] a { padding-top: 0.2rem; padding-bottom: 0.2rem; margin: 0.05rem 0; }
</style>"""


def sidebar(sections: dict[str, list]) -> None:
    """``sections``: {section title: [st.Page, ...]}, as given to st.navigation (the titles are the catalog's)."""
    with st.sidebar.container(key=KEY):
        st.html(_CSS)
        for section, pages in sections.items():
            st.markdown(section)
            for p in pages:
                st.page_link(p, label=p.title, icon=p.icon)
