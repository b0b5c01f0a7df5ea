"""Lesson: the Perceptron and its mistake bound M ≤ R²/γ², step by step."""
import streamlit as st

from olc_ui.lessons.perceptron import adversary as A
from olc_ui.lessons.perceptron import lesson as L
from olc_ui.shared import page, safe, state, uploads
from olc_ui.shared.data import DataError, NeedsInput
from olc_ui.viewer.component import preload

page.setup("Perceptron")
if A.part() == "adversary":   # ?mode=adversary: beat the bound, the student as the adversary (issue 35)
    A.page()
    st.stop()
st.title("The Perceptron and its mistake bound")
page.intro(
    "On a mistake the Perceptron adds $y_t x_t$ to $w$; a score $\\langle w_t, x_t\\rangle = 0$ counts as a mistake "
    "whatever the label, as in [003] ([004] predicts $+$ iff $w\\cdot x > 0$: the box under the charts says what "
    "that changes in this run). Two quantities tell the proof: $\\langle w^*, w\\rangle$ "
    "grows by at least $\\gamma$ per mistake, while $\\lVert w\\rVert$ grows by at most $R^2$ in square. "
    "Step through the run and watch the **sandwich** $M\\gamma \\le \\langle w^*, w\\rangle \\le \\lVert w\\rVert "
    "\\le \\sqrt{M}R$ close in: **when every point has margin at least $\\gamma$** for the unit $w^*$ the outer "
    "curves cross at $M = R^2/\\gamma^2$, so no run on those data can make more mistakes. A flipped label takes that margin "
    "from the planted $w^*$ (it errs on every flipped point), but noisy data can still be separable: the "
    "max-margin comparator finds another $w^*$ when one exists. Without a margin for $w^*$ that bound does not "
    "apply, and the page draws the TDᵧ sandwich, "
    "which holds for every unit $w^*$ and $\\gamma > 0$ and closes at "
    "$R^2/\\gamma^2 + (2/\\gamma)\\,\\mathrm{TD}_\\gamma$."
)

# 1. settings, from the URL
with st.sidebar:
    st.header("Data")
    v = state.bind(L.PAGE, L.SETTINGS, show=L.visible)
    src = v["data"]
    upload = None
    if src == "upload":
        upload = uploads.upload_box(L.PAGE, "CSV file: x1, x2 (x3), label",
                                    help="labels −1/+1 (or 0/1); at most 10,000 rows")
ALL = L.SETTINGS + L.TD_SETTINGS

if src == "click":   # the heading is in the canvas's instruction line (the canvas fits a 1100×800 screen)
    L.click_canvas(v, L.PAGE, L.SETTINGS)

# 2. the data and the cached core run
run_v, margin_note = L.valid_margin(v)
if margin_note:
    st.warning(margin_note)
try:
    data = L.load_data(run_v, upload)
except DataError as exc:  # NeedsInput: nothing given yet; otherwise the data are unusable
    safe.notice(*(("info", "To start: ") if isinstance(exc, NeedsInput) else ("error", "These data cannot be used: ")),
                f"{exc}.")
    state.write_url(ALL, {**v, **state.bind(L.PAGE + "_td", L.TD_SETTINGS, show=set())})
    for problem in state.problems(L.PAGE) + state.problems(L.PAGE + "_td"):
        safe.notice("warning", "A setting in the link was not valid: ", f"{problem}.")
    st.stop()
preload(full=L.full_plotly(data))   # plotly.js and KaTeX load in the browser while the run and its spec are made

trace = L.run_perceptron(data)
separable = trace.proof.applies
gamma_td = None
trace_td = None
with st.sidebar:
    if not separable:
        st.header("TDᵧ bound")
    g = state.bind(L.PAGE + "_td", L.TD_SETTINGS, show=set() if separable else (
        lambda cur: {"gbest"} if cur["gbest"] else {"gbest", "gtd"}))
v.update(g)
for problem in state.problems(L.PAGE) + state.problems(L.PAGE + "_td"):
    safe.notice("warning", "A setting in the link was not valid: ", f"{problem}.")
if not separable:
    gamma_td = None if g["gbest"] else float(g["gtd"])
    trace_td = L.run_perceptron(data, gamma_td) if gamma_td is not None else trace

# 3. the spec (pure), 4. render: the step viewer first; on a browser's first load what follows it comes once the
# viewer has drawn (olc_ui/shared/page.py, step_view)
shown = trace_td if trace_td is not None else trace
use = "separable" if separable else "nonseparable"
spec = L.spec_for(data, shown, gamma_td=gamma_td, use=use)
spec, position = page.step_view(spec, key="perceptron_viewer", settings=ALL, values=v, cap=L.CAP,
                                ask=L.ask_for(data, shown, gamma_td=gamma_td, use=use), ask_page=L.PAGE, trace=shown)
L.assumption_panel(trace, data)
if not separable:
    L.nonseparable_panel(trace_td, data)
with st.expander("The proof in five steps, with this run's numbers"):
    c = trace.proof.constants
    st.markdown(
        "1. **Potential.** Track $\\langle w^*, w\\rangle$ and $\\lVert w\\rVert$; both change only on mistakes.\n"
        "2. **Lower bound.** A mistake adds $y_t\\langle w^*, x_t\\rangle \\ge \\gamma$ to $\\langle w^*, w\\rangle$, "
        "so after $M$ mistakes $\\langle w^*, w\\rangle \\ge M\\gamma$.\n"
        "3. **Upper bound.** A mistake adds $\\lVert x_t\\rVert^2 + 2y_t\\langle w, x_t\\rangle \\le R^2$ to "
        "$\\lVert w\\rVert^2$ (the middle term is $\\le 0$ exactly because it was a mistake), so "
        "$\\lVert w\\rVert \\le \\sqrt{M}R$.\n"
        "4. **Combine** with Cauchy–Schwarz, $\\langle w^*, w\\rangle \\le \\lVert w\\rVert$ for a unit $w^*$: "
        "$M\\gamma \\le \\sqrt{M}R$.\n"
        "5. **Solve:** $M \\le R^2/\\gamma^2$"
        + (f" $= {c['radius']:.4g}^2/{c['gamma']:.4g}^2 = {trace.proof.mistake_bound:.5g}$ here."
           if trace.proof.mistake_bound is not None else " — not for these data (see the assumptions above).")
        + "\n\nProof B divides the same two facts: $\\cos\\angle(w, w^*) = \\langle w^*, w\\rangle/\\lVert w\\rVert "
        "\\ge \\sqrt{M}\\gamma/R$, and a cosine is at most 1. The **tight instance** ($x_t = e_t$) attains the "
        "bound: every round is a mistake and $M = d = R^2/\\gamma^2$."
    )
L.downloads(shown, data, spec, position)
