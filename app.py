"""olc — online linear classification and its mistake-bound proofs.

The entry file is a router only: every lesson is a short script in pages/.
    streamlit run app.py
"""
from pathlib import Path

import streamlit as st

st.set_page_config(page_title="olc · online linear classification", page_icon="➗", layout="wide")

HERE = Path(__file__).resolve().parent

#: (section, script, title, icon, url path) for every lesson, in reading order
LESSONS = [
    ("Start", "pages/home.py", "Home: the online protocol", "🏠", "home"),
    ("Linear classifiers", "pages/perceptron.py", "Perceptron", "📐", "perceptron"),
    ("Linear classifiers", "pages/margin_perceptron.py", "Margin Perceptron", "📏", "margin-perceptron"),
    ("Expert advice", "pages/experts.py", "Weighted Majority, RWM, Halving", "🗳️", "experts"),
    ("Expert advice", "pages/halving.py", "Halving: the version space", "✂️", "halving"),
    ("Mistake-bound model", "pages/boolean_concepts.py", "Conjunctions and decision lists", "🔣", "boolean"),
]

sections: dict[str, list] = {}
for section, script, title, icon, path in LESSONS:
    if (HERE / script).exists():  # a lesson appears once its page is there
        sections.setdefault(section, []).append(
            st.Page(script, title=title, icon=icon, url_path=path, default=(path == "home")))

st.navigation(sections).run()
