"""Lesson: the exponentiated update (normalised Winnow) — the relative-entropy potential and M ≤ 2 ln N/δ²."""
import streamlit as st

from olc_ui.lessons.exponentiated_update import lesson as L
from olc_ui.shared import page, safe, state, uploads
from olc_ui.shared.data import DataError, NeedsInput
from olc_ui.viewer import predict

page.setup("The exponentiated update")
st.title("The exponentiated update (normalised Winnow)")
page.intro(L.INTRO)

# 1. settings, from the URL
with st.sidebar:
    st.header("Data")
    v = state.bind(L.PAGE, L.DATA_SETTINGS, show=L.visible)
    upload = None
    if v["data"] == "upload":
        upload = uploads.upload_box(L.PAGE, "CSV file: x1, …, xN (each in [−1, 1]), label",
                                    help="labels −1/+1 (or 0/1); at most 10,000 rows and 100 features")
    st.header("Learner")
    v.update(state.bind(L.LEARNER_PAGE, L.LEARNER_SETTINGS, show={"eta_opt"}))
    v["eta"] = L.eta_slider(st, optimal=bool(v["eta_opt"]))
    eta_slot = st.container()
for problem in state.problems(L.PAGE) + state.problems(L.LEARNER_PAGE):
    safe.notice("warning", "A setting in the link was not valid: ", f"{problem}.")

# 2. the data and the cached core run
try:
    data = L.load_data(v, upload)
    trace = L.run_eg(v, data)
except DataError as exc:  # NeedsInput: nothing given yet; otherwise the data are unusable
    safe.notice(*(("info", "To start: ") if isinstance(exc, NeedsInput) else ("error", "These data cannot be used: ")),
                f"{exc}.")
    if isinstance(exc, L.OutsideBox):  # the assumption panel says which assumption fails
        L.assumption_panel(L.assumption_rows(None, exc.X, "an entry is outside [−1, 1]"), None)
    state.write_url(L.SETTINGS, v)
    st.stop()
except ValueError as exc:  # a parameter the core refuses
    safe.notice("error", "These settings cannot be run: ", f"{exc}.")
    state.write_url(L.SETTINGS, v)
    st.stop()

L.optimum_button(eta_slot, trace)
for kind, text in L.notes(v, data, trace):
    getattr(st, kind)(text)

# 3. the spec (pure), 4. render
spec = L.spec_for(v, data, trace)
spec, position = page.step_view(spec, key="eg_viewer", settings=L.SETTINGS, values=v, cap=L.CAP,
                                ask=predict.eg_options(trace, data.X, data.y), ask_page=L.PAGE, trace=trace)

L.summary_panel(data, trace)
L.assumption_panel(L.assumption_rows(trace, data.X), trace.proof.mistake_bound)
L.proof_steps(trace)
L.downloads(trace, data, spec, position)
