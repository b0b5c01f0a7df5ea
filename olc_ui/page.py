"""What every lesson page does first: make sure it runs under the router, then the wide layout.

Streamlit keeps, per server process, a flag saying whether the app uses its old
``pages/`` folder mode; it is cleared the first time ``st.navigation`` runs (in
app.py). Until then a deep link (``/perceptron?…``) opened on a freshly started
server runs the page script *without* app.py: a menu of bare file names and the
default narrow layout. A page that finds the flag still set clears it and reruns,
so the same request goes through app.py's navigation (the page's url path equals
its file stem, so the rerun resolves to the same page). The layout is set here too,
so a page looks the same however it is run (the router, or AppTest on the file).
"""
from __future__ import annotations

import streamlit as st

__all__ = ["setup"]


def setup(title: str) -> None:
    try:
        from streamlit.runtime.pages_manager import PagesManager
    except ImportError:  # pragma: no cover - a Streamlit without the flag
        PagesManager = None
    if PagesManager is not None and PagesManager.uses_pages_directory and _under_server():
        PagesManager.uses_pages_directory = False
        st.rerun()
    st.set_page_config(page_title=f"{title} · olc", page_icon="➗", layout="wide")


def _under_server() -> bool:
    """True in a served app (AppTest has no runtime, and manages the flag itself)."""
    try:
        from streamlit import runtime
        return runtime.exists()
    except Exception:  # pragma: no cover
        return False
