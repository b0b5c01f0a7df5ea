"""Home: the online protocol (receive x, predict, receive y, update) with a small live run."""
import numpy as np
import streamlit as st

import olc_core

from olc_ui.catalog import available
from olc_ui.lessons.perceptron.view import perceptron_spec
from olc_ui.shared import common, page, state, tables, ties
from olc_ui.shared.config import Setting
from olc_ui.shared.transcript import PageSettings

page.setup("Online linear classification")
st.title("Online linear classification")
st.markdown(
    "Every lesson here runs a learner **round by round** and checks, at every round, each "
    "inequality of its mistake-bound proof. Nothing on screen is drawn by hand: every number "
    "comes from the run."
)

st.subheader("The online protocol")
st.markdown(
    "For $t = 1, 2, \\dots, T$:\n"
    "1. the learner **receives** an instance $x_t \\in \\mathbb{R}^d$;\n"
    "2. it **predicts** a label $\\hat y_t \\in \\{-1, +1\\}$ (the Perceptron predicts the sign of "
    "$\\langle w_t, x_t\\rangle$; a point on its line, score $0$, gets no label, which counts as a mistake, as "
    "in [003] — [004] predicts $+$ iff $w\\cdot x > 0$ instead, so there a score of $0$ errs only when $y_t = +1$);\n"
    "3. it **receives** the true label $y_t$ — a *mistake* if $\\hat y_t \\ne y_t$;\n"
    "4. it **updates** its hypothesis.\n\n"
    "No assumption is made about where the examples come from: the guarantees hold for "
    "*every* sequence that meets the theorem's assumptions, even one chosen by an adversary."
)

st.subheader("A live example: the Perceptron on six points")
X = np.array([[0.8, 0.4], [-0.6, 0.5], [0.3, -0.9], [-0.9, -0.2], [0.9, 0.5], [0.2, -0.3]])
y = np.array([1, -1, 1, -1, 1, 1])


@st.cache_resource(show_spinner=False)
def _six_point_run():
    """The same six points for everyone: one run per server process."""
    return olc_core.run("perceptron", X, y, comparator=[0.8, -0.6])


@st.cache_resource(show_spinner=False)
def _six_point_spec() -> dict:
    """The run's step-viewer spec, as the Perceptron page draws a run (the offline file's viewer)."""
    return perceptron_spec(_six_point_run(), X, y, run_id="home-six-points", title="The Perceptron on six points")


trace = _six_point_run()
SETTINGS = [Setting("round", "Round", "int", len(y), lo=1, hi=len(y), step=1,
                   help="Show the protocol up to this round")]
#: the downloads' settings: the round shown names no file (the run is the same at every round)
DOWNLOADS = PageSettings(declared=SETTINGS, used=lambda values, run: set())
t = state.bind("home", SETTINGS)["round"]
state.write_url(SETTINGS, {"round": t})
rows = []
for s in range(t):
    w = trace.weights_at(s)
    score = float(trace.columns["score"][s])
    yhat = int(trace.predictions[s])
    rows.append({
        "t": s + 1,
        "x_t": f"({X[s, 0]:+.1f}, {X[s, 1]:+.1f})",
        "w_t": f"({w[0]:+.2f}, {w[1]:+.2f})",
        "⟨w_t, x_t⟩": f"{score:+.2f}",
        "ŷ_t": {1: "+1", -1: "−1", 0: "0 (on the line)"}[yhat],
        "y_t": {1: "+1", -1: "−1"}[int(y[s])],
        "mistake": "✗ mistake: w ← w + y_t x_t" if trace.columns["is_mistake"][s] else "✓ no update",
    })
tables.table(rows, key="home_rounds", label="The six rounds", hide_index=True, width="stretch",
             column_config={"t": st.column_config.NumberColumn(width=36),
                            "x_t": st.column_config.TextColumn(width=100),
                            "w_t": st.column_config.TextColumn(width=100),
                            "⟨w_t, x_t⟩": st.column_config.TextColumn(width=80),
                            "ŷ_t": st.column_config.TextColumn(width=110),
                            "y_t": st.column_config.TextColumn(width=40),
                            "mistake": st.column_config.TextColumn(width=230)})
st.caption("ŷₜ is the sign of ⟨wₜ, xₜ⟩. When ⟨wₜ, xₜ⟩ = 0 (as at round 1, where w₁ = 0) the point is on the "
           "line w·x = 0 and the Perceptron commits to no label: that counts as a mistake, and it updates. "
           + ties.zero_note(trace.columns["score"], y))
wT = trace.weights_at(t)
proof = trace.proof
st.markdown(
    f"After {common.count(t, 'round')}: **{common.count(trace.mistakes_before(t), 'mistake')}**, $w = ({wT[0]:+.2f}, {wT[1]:+.2f})$. "
    f"With the comparator $w^* = (0.8, -0.6)$ these data have margin "
    f"$\\gamma = {proof.constants['gamma']:.2f}$ and radius $R = {proof.constants['radius']:.2f}$, so the "
    f"theorem promises at most $R^2/\\gamma^2 = {proof.mistake_bound:.1f}$ mistakes on *any* ordering."
)
st.markdown("**Take this run home:** its rounds (CSV), the proof written out, a notebook that reruns it, and the "
            "step viewer as one offline file (it opens at the round shown here).")
common.downloads(trace, _six_point_spec(), t, "home", X, y, settings=DOWNLOADS)

st.subheader("Lessons")
for _section, script, title, icon, _path, summary in available()[1:]:
    st.page_link(script, label=f"**{title}**", icon=icon)
    st.caption(summary)   # on its own line: a page link is one line and cuts a long label short
