"""What every lesson page does first: the wide layout and its browser-tab title.

The router (app.py) sets the same; a page sets it again so that it looks the same
however it is run (from the router, or on its own: ``streamlit run pages/x.py``,
AppTest). Streamlit allows several ``set_page_config`` calls in a run.
"""
from __future__ import annotations

import streamlit as st

__all__ = ["setup"]


def setup(title: str) -> None:
    st.set_page_config(page_title=f"{title} · olc", page_icon="➗", layout="wide")
