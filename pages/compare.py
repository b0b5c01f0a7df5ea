"""Lesson: learners against each other on the same rounds — one cursor, every learner's proof side by side."""
import streamlit as st

from olc_ui.lessons.compare import lesson as L
from olc_ui.shared import page, safe, state
from olc_ui.shared.data import DataError

page.setup("Compare learners")
st.title("Compare learners on the same rounds")

# 1. settings, from the URL
with st.sidebar:
    st.header("Comparison")
    v = state.bind(L.PAGE, L.SETTINGS, show=L.visible)
page.intro(L.INTRO)
for problem in state.problems(L.PAGE):
    safe.notice("warning", "A setting in the link was not valid: ", f"{problem}.")
for note in L.notes(v):
    st.caption(note)

# 2. the stream and the cached core runs
try:
    setup = L.load(v)
except (DataError, ValueError) as exc:  # unusable settings, or a parameter the core refuses
    safe.notice("error", "These settings cannot be run: ", f"{exc}.")
    state.write_url(L.SETTINGS, v)
    st.stop()

st.info(L.why(v, setup))

# 3. one spec for every learner (pure), 4. render
spec = L.spec_for(setup)
spec, position = page.step_view(spec, key="compare_viewer", settings=L.SETTINGS, values=v,
                                trace={lane.trace.algorithm: lane.trace for lane in setup.lanes})

L.summary_panel(setup)
if v["preset"] != "experts":
    L.sweep_panel(v)
L.downloads_panel(setup, spec, position)
