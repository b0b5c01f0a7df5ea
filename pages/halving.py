"""Lesson: Halving — the version space shrinks by half at every mistake, so M ≤ log₂|H|."""
import streamlit as st

from olc_ui.lessons.halving import adversary as A
from olc_ui.lessons.halving import lesson as L
from olc_ui.shared import page, safe, state
from olc_ui.viewer import predict

page.setup("Halving")
if A.part() == "adversary":   # ?mode=adversary: beat the bound, the student as the adversary (issue 35)
    A.page()
    st.stop()
st.title("Halving: the version space")
page.intro(
    "A finite class $H$ of hypotheses, one of which (the target $h^*$) labels the stream. Halving keeps the "
    "**version space** $H_t$ — the hypotheses not yet caught out on one of its mistakes — and predicts the **majority vote** "
    "of $H_t$ (a tie goes to $+1$). On a mistake the side the vote followed, at least half of $H_t$, was wrong and "
    "leaves; on a "
    "correct round $H_t$ stays as it is (the page can also prune on every round: a setting). Step through the run and watch "
    "$1 \\le |H_t| \\le |H|/2^M$: the two bounds meet at $M = \\log_2|H|$, so no stream labelled by a hypothesis "
    "of $H$ can force more mistakes."
)

# 1. settings, from the URL
with st.sidebar:
    st.header("Class and stream")
    v = state.bind(L.PAGE, L.SETTINGS, show=L.visible)
for problem in state.problems(L.PAGE):
    safe.notice("warning", "A setting in the link was not valid: ", f"{problem}.")

# 2. the cached core run
try:
    run = L.load_run(v)
except ValueError as exc:  # the core refuses a class or stream it cannot run, and says why
    safe.notice("error", "This run cannot be made: ", f"{exc}.")
    state.write_url(L.SETTINGS, v)
    st.stop()

# 3. the spec (pure), 4. render
spec = L.spec_for(run)
spec, position = page.step_view(spec, key="halving_viewer", settings=L.SETTINGS, values=v, cap=L.CAP,
                                ask=predict.halving_options(run.trace, run.y), ask_page=L.PAGE, trace=run.trace)

L.assumption_panel(run)
L.dimensions_panel(v, run)
with st.expander("The proof in four steps, with this run's numbers"):
    L.proof_steps(run)
L.downloads(run, spec, position)
