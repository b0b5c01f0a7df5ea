"""The floor of a Streamlit rerun, for bench/rerun_floor.py: ``n`` plain Markdown elements (``n`` read from the file
``n`` next to this script on every run, so that one server measures every size) and one sidebar slider. No olc
code: what a rerun of this costs is Streamlit's own machinery per run and per element."""
from pathlib import Path

import streamlit as st

size = Path(__file__).with_name("n")
n = int(size.read_text() or 0) if size.exists() else 0
g = st.sidebar.slider("g", 0.0, 1.0, 0.5, key="g")
for i in range(n):
    st.markdown(f"line {i} at {g}")
