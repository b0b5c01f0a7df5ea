"""Lesson: the Margin Perceptron — updates on margin mistakes too, and finds a separator of margin ≥ γ/2."""
import numpy as np
import streamlit as st

from olc_ui.lessons.margin_perceptron import lesson as L
from olc_ui.shared import page, safe, state, uploads
from olc_ui.shared.data import DataError, NeedsInput
from olc_ui.viewer import predict

page.setup("Margin Perceptron")
st.title("The Margin Perceptron")
page.intro(
    "Examples are scaled to $\\lVert x\\rVert = 1$ and $w_1 = y_1 x_1$. With $s = \\langle w, x\\rangle/\\lVert w\\rVert$, "
    "the learner predicts $+$ if $s \\ge \\gamma/2$, $-$ if $s \\le -\\gamma/2$, and calls a **margin mistake** "
    "when $s$ falls in the band $(-\\gamma/2, \\gamma/2)$; on either kind of mistake $w \\leftarrow w + yx$. "
    "If the data have margin $\\gamma$, each update adds at least $\\gamma$ to $\\langle w^*, w\\rangle$ while "
    "$\\lVert w\\rVert$ grows by at most $3\\gamma/4$ once it is large, so there are at most $12/\\gamma^2$ "
    "updates — and cycling through the data stops with a separator of margin at least $\\gamma/2$."
)

with st.sidebar:
    st.header("Data")
    v = state.bind(L.PAGE, L.SETTINGS, show=L.visible)
    upload = None
    if v["data"] == "upload":
        upload = uploads.upload_box(L.PAGE, "CSV file: x1, x2, label",
                                    help="labels −1/+1 (or 0/1); at most 10,000 rows")
for problem in state.problems(L.PAGE):
    safe.notice("warning", "A setting in the link was not valid: ", f"{problem}.")
if v["data"] == "click":
    L.click_canvas(v, L.PAGE, L.SETTINGS)

try:
    data = L.load_data(v, upload)
    trace = L.run_margin(data, float(v["gamma_alg"]), L.passes_for(v, len(data.y)))
except DataError as exc:  # NeedsInput: nothing given yet; otherwise the data are unusable
    safe.notice(*(("info", "To start: ") if isinstance(exc, NeedsInput) else ("error", "These data cannot be used: ")),
                f"{exc}.")
    state.write_url(L.SETTINGS, v)
    st.stop()
except ValueError as exc:  # an out-of-range parameter, reported by the core
    safe.notice("error", "These settings cannot be run: ", f"{exc}.")
    state.write_url(L.SETTINGS, v)
    st.stop()

spec = L.spec_for(data, trace, v)
spec, position = page.step_view(spec, key="margin_viewer", settings=L.SETTINGS, values=v, cap=L.CAP,
                                ask=predict.margin_perceptron_options(trace), ask_page=L.PAGE, trace=trace)

info = trace.info
p = trace.proof
with st.container(border=True):
    st.markdown("#### What the run did")
    cols = st.columns(5)
    cols[0].metric("Passes over the data", f"{info['passes_run']}")
    cols[1].metric("Updates U", f"{trace.n_mistakes}", help="the first example (w₁ = y₁x₁) counts as an update")
    kind = np.asarray(trace.columns["kind"])
    cols[2].metric("Margin mistakes", f"{int((kind == 1).sum())}", help="updates where |s| < γ/2")
    cols[3].metric("Bound 12/γ²", f"{p.mistake_bound:.5g}" if p.mistake_bound is not None else "n/a",
                   help=None if p.mistake_bound is not None else "the theorem's assumption fails on these data")
    fm = info["final_margin"]
    fm_text = f"{fm:.4f}".replace("-", "−") if fm is not None else "undefined"   # the minus sign, as the viewer writes it
    cols[4].metric("Final margin", fm_text, help="min over the examples of y⟨w, x⟩/‖w‖ for the final w" + (
        "" if fm is not None else "; the final w is 0 (its updates cancelled out), so it draws no hyperplane "
        "and has no margin"))
    g = info["gamma"]
    if info["converged"]:
        st.success(f"The last pass made no update: every example now has $y\\langle w, x\\rangle/\\lVert w\\rVert "
                   f"\\ge \\gamma/2 = {g / 2:.4g}$ — the final margin is {fm:.4f}"
                   + L.margin_comparison(trace, L.data_max_margin(data, trace)))
    elif v["until"]:
        st.warning(f"Stopped after {info['passes_run']} pass(es) with updates still happening: that is as many "
                   f"passes as the theorem could need (12/γ² + 1 when the data have margin γ = {g:.4g}), or the "
                   f"page's limit of {L.MAX_PRESENTATIONS:,} presentations. The final margin ({fm_text}) is not "
                   f"guaranteed to reach γ/2 = {g / 2:.4g}"
                   + (": the data do not have margin γ (see below)" if not p.applies else "")
                   + L.margin_comparison(trace, L.data_max_margin(data, trace)))
    else:
        st.info(f"Stopped after the {info['passes_run']} pass(es) asked for, with updates still happening: the "
                f"final margin ({fm_text}) is not yet guaranteed to reach γ/2 = {g / 2:.4g}. Tick 'Cycle until a pass "
                "makes no update' to let it finish.")
    if p.applies:
        st.markdown(f"The data have margin {p.constants['measured_margin']:.4g} ≥ γ = {g:.4g} for the comparator "
                    f"$w^*$ ({info.get('comparator_source')}): the theorem applies, $U \\le 12/\\gamma^2 = "
                    f"{p.mistake_bound:.5g}$. " + L.crossing_text(p, g)
                    + f" The run made **{trace.n_mistakes}** updates.")
    else:
        for a in p.failed_assumptions:
            st.error(f"The theorem **does not apply**: {safe.md(a.detail)}. The sandwich's lower bound may then fail — "
                     "watch the ledger.")
ex = np.asarray(trace.columns["example"])
L.downloads(trace, data, spec, position, name="margin_perceptron", X=info["examples"][ex], y=info["labels"][ex])
