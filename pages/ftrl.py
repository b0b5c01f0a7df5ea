"""Lesson: the randomised online linear classifier via FTRL [002] and its expected-mistake bound."""
import streamlit as st

from olc_ui.lessons.ftrl import lesson as L
from olc_ui.shared import page, safe, state, uploads
from olc_ui.shared.data import DataError, NeedsInput
from olc_ui.viewer import predict

page.setup("Randomised FTRL classifier")
st.title("The randomised FTRL linear classifier")
page.intro(L.INTRO)

# 1. settings, from the URL
with st.sidebar:
    st.header("Data and learner")
    v = state.bind(L.PAGE, L.SETTINGS, show=L.visible)
    upload = None
    if v["data"] == "upload":
        upload = uploads.upload_box(L.PAGE, "CSV file: x1, x2 (x3), label — every ‖x‖ ≤ 1",
                                    help="labels −1/+1 (or 0/1); at most 10,000 rows")
for problem in state.problems(L.PAGE):
    safe.notice("warning", "A setting in the link was not valid: ", f"{problem}.")

# 2. the data and the cached core runs
try:
    data = L.load_data(v, upload)
    trace = L.run_ftrl(data, v)
    band = L.band_for(data, v)
    sweep = L.sweep_for(data, trace)
except DataError as exc:  # NeedsInput: nothing given yet; otherwise the data are unusable
    safe.notice(*(("info", "To start: ") if isinstance(exc, NeedsInput) else ("error", "These data cannot be used: ")),
                f"{exc}.")
    state.write_url(L.SETTINGS, v)
    st.stop()
except ValueError as exc:  # a parameter or a row the core refuses
    safe.notice("error", "These settings cannot be run: ", f"{exc}.")
    state.write_url(L.SETTINGS, v)
    st.stop()

c = trace.proof.constants
with st.sidebar:
    best = float(c["best_alpha"])
    if L.is_best(float(v["alpha"]), best):
        st.caption(f"α is the theorem's choice α* = 1/(√2·L) = {best:.4g} (L = {c['L']:.4g}).")
    else:
        st.caption(f"The theorem's choice: α* = 1/(√2·L) = {best:.4g} (L = max‖gₜ‖ = {c['L']:.4g}); "
                   "it minimises the √T bound (the α chart marks it).")
        st.button(f"Use the theorem's α* = {best:.4g}", on_click=L.use_best_alpha, args=(best,),
                  key="ftrl_best_alpha", icon=":material/target:", disabled=not 0.05 <= best <= 10.0)
for kind, text in L.notes(v, trace):
    getattr(st, kind)(text)

# 3. the spec (pure), 4. render
spec = L.spec_for(data, v, trace, band, sweep)
spec, position = page.step_view(spec, key="ftrl_viewer", settings=L.SETTINGS, values=v, cap=L.CAP,
                                ask=predict.ftrl_options(trace, data.X, data.y), ask_page=L.PAGE, trace=trace)

L.summary_panel(data, trace, band)
L.proof_steps(trace)
L.downloads(trace, data, spec, position)
