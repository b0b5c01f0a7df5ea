"""olc — online linear classification and its mistake-bound proofs.

The entry file is a router only: every lesson is a short script in pages/.
    streamlit run app.py
"""
import streamlit as st

st.set_page_config(page_title="olc · online linear classification", page_icon="➗", layout="wide")

PAGES = {
    "Start": [
        st.Page("pages/home.py", title="Home: the online protocol", icon="🏠", default=True, url_path="home"),
    ],
    "Linear classifiers": [
        st.Page("pages/perceptron.py", title="Perceptron", icon="📐", url_path="perceptron"),
        st.Page("pages/margin_perceptron.py", title="Margin Perceptron", icon="📏", url_path="margin-perceptron"),
    ],
}

st.navigation(PAGES).run()
