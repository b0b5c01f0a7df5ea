"""olc — online linear classification and its mistake-bound proofs.

The entry file is a router only: every lesson is a short script in pages/.
    streamlit run app.py
"""
import streamlit as st

from olc_ui.lessons import available

st.set_page_config(page_title="olc · online linear classification", page_icon="➗", layout="wide")

sections: dict[str, list] = {}
for section, script, title, icon, path, _ in available():
    sections.setdefault(section, []).append(
        st.Page(script, title=title, icon=icon, url_path=path, default=(path == "home")))

st.navigation(sections).run()
