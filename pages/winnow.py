"""Lesson: Littlestone's Winnow — promote and demote, M = O(k log N) when few of many features matter."""
import streamlit as st

from olc_ui.lessons.winnow import adversary as A
from olc_ui.lessons.winnow import lesson as L
from olc_ui.shared import page, safe, state, uploads
from olc_ui.shared.data import DataError, NeedsInput
from olc_ui.viewer import predict

page.setup("Winnow")
if A.part() == "adversary":   # ?mode=adversary: beat the bound, the student as the adversary (issue 35)
    A.page()
    st.stop()
st.title("Winnow: multiplicative updates")

# 1. settings, from the URL
with st.sidebar:
    st.header("Learner")
    v = state.bind(L.PAGE, L.LEARNER_SETTINGS)
    st.header("Examples")
    v.update(state.bind(L.DATA_PAGE, L.DATA_SETTINGS, show=L.visible_data))
    upload = None
    if v["data"] == "upload":
        upload = uploads.upload_box(L.PAGE, "CSV file: 0/1 columns x1 … xN, then a 0/1 label",
                                    help="every cell 0 or 1; at most 10,000 rows")
page.intro(L.INTRO)
for problem in state.problems(L.PAGE) + state.problems(L.DATA_PAGE):
    safe.notice("warning", "A setting in the link was not valid: ", f"{problem}.")
if v["data"] == "generated":
    st.button("Show the worst case: examples chosen to make Winnow err (the adversary)", on_click=L.show_adversary,
              key="winnow_adversary_button", icon=":material/swords:")

# 2. the data and the cached core run
try:
    data = L.load_data(v, upload)
    trace = L.run_winnow(v, data)
except DataError as exc:  # NeedsInput: nothing given yet; otherwise the data are unusable
    safe.notice(*(("info", "To start: ") if isinstance(exc, NeedsInput) else ("error", "These data cannot be used: ")),
                f"{exc}.")
    state.write_url(L.SETTINGS, v)
    st.stop()
except ValueError as exc:  # a parameter the core refuses
    safe.notice("error", "These settings cannot be run: ", f"{exc}.")
    state.write_url(L.SETTINGS, v)
    st.stop()

for note in data.notes:
    safe.notice("info", "About your file: ", f"{note}.")
for kind, text in L.notes(v, data, trace):
    getattr(st, kind)(text)

# 3. the spec (pure), 4. render
spec = L.spec_for(v, data, trace)
spec, position = page.step_view(spec, key="winnow_viewer", settings=L.SETTINGS, values=v, cap=L.CAP,
                                ask=predict.winnow_options(trace, data.X, data.y), ask_page=L.PAGE, trace=trace)

L.summary_panel(v, data, trace)
L.proof_steps(v, trace)
L.downloads(trace, data, spec, position)
