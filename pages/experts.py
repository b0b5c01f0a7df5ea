"""Lesson: learning from expert advice — Weighted Majority, Randomised Weighted Majority and Halving."""
import streamlit as st

from olc_ui.lessons.experts import adversary as A
from olc_ui.lessons.experts import lesson as L
from olc_ui.shared import page, safe, state
from olc_ui.shared.data import DataError
from olc_ui.viewer import predict

page.setup("Learning from expert advice")
if A.part() == "adversary":   # ?mode=adversary: beat the bound, the student as the adversary (issue 35)
    A.page()
    st.stop()
st.title("Learning from expert advice")

# 1. settings, from the URL
with st.sidebar:
    st.header("Learner")
    v = state.bind(L.PAGE, L.LEARNER_SETTINGS, show=L.visible_learner)
    st.header("Expert advice")
    v.update(state.bind(L.DATA_PAGE, L.DATA_SETTINGS, show=L.visible_data))
page.intro(L.INTRO[v["alg"]])
for problem in state.problems(L.PAGE) + state.problems(L.DATA_PAGE):
    safe.notice("warning", "A setting in the link was not valid: ", f"{problem}.")
if v["data"] == "experts":
    st.button("Show the worst case: labels chosen against the weighted majority (the adversary)",
              on_click=L.show_adversary, key="experts_adversary_button", icon=":material/swords:")

# 2. the advice and the cached core run
try:
    adv = L.load_advice(v)
    trace = L.run_learner(v, adv)
    band = L.band_for(v, adv)
except (DataError, ValueError) as exc:  # unusable settings, or a parameter the core refuses
    safe.notice("error", "These settings cannot be run: ", f"{exc}.")
    state.write_url(L.SETTINGS, v)
    st.stop()

for kind, text in L.notes(v, adv, trace):
    getattr(st, kind)(text)
if not trace.proof.applies and v["data"] == "experts":
    st.button("Give expert 1 no mistakes (best error rate 0, no label noise)", on_click=L.give_perfect_expert,
              key="experts_perfect_button")

# 3. the spec (pure), 4. render
spec = L.spec_for(v, adv, trace, band)
spec, position = page.step_view(spec, key="experts_viewer", settings=L.SETTINGS, values=v, cap=L.CAP,
                                ask=predict.experts_options(trace, adv.X, adv.y, v["alg"]), ask_page=L.PAGE,
                                trace=trace)

L.summary_panel(v, adv, trace, band)
L.comparison_panel(v, adv)
L.proof_steps(v, trace)
L.downloads(trace, adv, spec, position)
