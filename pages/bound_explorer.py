"""Bound explorer: one learner, one parameter swept, many seeded runs per value, measured against the theorem."""
import streamlit as st

from olc_ui.lessons.bound_explorer import lesson as L
from olc_ui.lessons.bound_explorer import view as V
from olc_ui.shared import page, safe, state

page.setup("Bound explorer")
st.title("Bound explorer: how tight are the bounds?")

# 1. settings, from the URL: the learner, then its own group (parameter, range, the others held fixed)
with st.sidebar:
    st.header("Learner")
    main = state.bind(L.PAGE, L.MAIN_SETTINGS)
    alg, worst = main["alg"], main["worst"]
    st.header("Sweep")
    # a learner picked on the page (not in the link): the link's sweep settings were the previous learner's
    switched = st.session_state.get("_explorer_alg", alg) != alg
    st.session_state["_explorer_alg"] = alg
    # the parameter choice follows the switch: the bound-attaining stream sweeps only what it reads
    adjust, moved = L.follow_switch(alg, worst)
    v = state.bind(L.group_page(alg), L.group_for(alg, worst), show=L.visible(alg, worst), adjust=adjust)
    if switched:
        state.forget_problems(L.group_page(alg))
page.intro(L.INTRO)
with st.expander("How to read this page", icon=":material/help:"):
    st.markdown(L.more(alg))
L.notice_problems(state.problems(L.PAGE) + state.problems(L.group_page(alg)))
state.write_url(L.MAIN_SETTINGS + L.GROUPS[alg], {**main, **v})
if worst:
    if alg in L.WORST_TEXT:
        st.info(f"**Bound-attaining stream — {V.ALG_NAMES[alg]}:** {L.WORST_TEXT[alg]}")
        if moved():
            st.info(L.moved_text(alg, *moved()), icon=":material/swap_horiz:")
    else:
        st.warning(f"No bound-attaining stream is built here for {V.ALG_NAMES[alg]}; the learners with one: "
                   + ", ".join(V.ALG_NAMES[a] for a in L.WORST_TEXT) + ". Turn the switch off, or pick one of them.")
        st.stop()

# 2. the values, the size check, the (cached) sweep
p = v["param"]
values, problem = L.values_for(alg, v)
fixed = L.fixed_for(alg, v)
too_big = problem or L.check_size(alg, p, values, v["seeds"], fixed)
if too_big:
    safe.notice("error", "This sweep cannot be run: ", f"{too_big}.")
    st.stop()
try:
    table = L.run_sweep(alg, p, values, v["seeds"], worst, fixed)
except ValueError as exc:   # a value the core refuses, named with its seed
    safe.notice("error", "These settings cannot be run: ", f"{exc}.")
    st.stop()

# 3. the charts and the table, every number from olc_core.sweep
L.panels(alg, p, v, table, values)
