"""Lesson: the mistake-bound model ([004] §2) — conjunctions, decision lists, and the adversary's lower bound."""
import streamlit as st

from olc_ui.lessons.boolean_concepts import adversary as B
from olc_ui.lessons.boolean_concepts import lesson as L
from olc_ui.shared import class_session, common, page, safe, state
from olc_ui.viewer import predict
from olc_ui.shared.position import query_position, report, start_position

page.setup("Conjunctions and decision lists")
st.title("The mistake-bound model: conjunctions and decision lists")
page.intro(
    "A learner **learns a class C in the mistake-bound model** if, for every target $c \\in C$ and **every** "
    "ordering of examples labelled by $c$ — even one chosen by an adversary — it makes at most "
    "$p(n, \\mathrm{size}(c))$ mistakes, a polynomial. Conjunctions over $n$ bits: at most $n + 1$ "
    "(elimination), and no deterministic learner can be guaranteed fewer than $n$. Decision lists of length $L$: "
    "at most $(4n+2)(L+1)$ (the level algorithm)."
)

# 1. settings, from the URL: the part of the lesson, then that part's settings
m = state.bind(L.PAGE + "_mode", L.MODE_SETTINGS)
mode = m["mode"]
SHOW = {"conj": L.conj_visible, "dl": L.dl_visible, "adversary": {"an"}, "learner": {"ln"}}
with st.sidebar:
    st.header({"conj": "Conjunction learner", "dl": "Decision-list learner", "adversary": "Play the adversary",
               "learner": "Be the learner"}[mode])
    vals = {name: state.bind(f"{L.PAGE}_{name}", group, show=SHOW[name] if name == mode else set())
            for name, group in L.GROUPS.items()}
v = vals[mode]
for group in ["_mode"] + [f"_{name}" for name in L.GROUPS]:
    for problem in state.problems(L.PAGE + group):
        safe.notice("warning", "A setting in the link was not valid: ", f"{problem}.")
SETTINGS = L.MODE_SETTINGS + L.GROUPS[mode]

# where a viewer opens: a shared link's ?t= on the first run (and a tour's stop's, on a move to it); then, for a new run, where the student was
# (as on the Perceptron lesson); for a new game state, the latest move; after switching parts, the start
previous_mode = st.session_state.get(f"{L.PAGE}_previous_mode")
st.session_state[f"{L.PAGE}_previous_mode"] = mode
VIEWER = f"{L.PAGE}_{mode}_viewer"


def opens_at(T: int, default: int = 0) -> int:
    if previous_mode is None or state.moved():     # a link's first run, or a tour's move to another stop
        start, problem = query_position(T, "t", default)
        report(problem)           # a bad ?t= in the link: said as every bad setting is
        return start
    if previous_mode != mode:
        return default
    return start_position(VIEWER, T) if default == 0 else default


if mode in ("conj", "dl"):
    # 2. the data and the cached core run
    try:
        stream, key, label = (L.conj_data if mode == "conj" else L.dl_data)(v)
        trace = L.run_conj(stream, key) if mode == "conj" else L.run_dl(stream, key, v["tie"])
    except ValueError as exc:  # settings that do not go together (L.SettingError), or the core's own check
        safe.notice("error", "These settings do not go together: ", f"{exc}.")
        state.write_url(SETTINGS, {**m, **v})
        st.stop()
    # 3. the spec (pure), 4. render, with predict, then reveal: which literals leave h / mistake or not, from the run
    spec = (L.conj_spec_for if mode == "conj" else L.dl_spec_for)(stream, trace, key, label, opens_at(trace.T))
    ask = (predict.conjunction_options if mode == "conj" else predict.decision_list_options)(trace, stream.X, stream.y)
    spec, position = page.step_view(spec, key=VIEWER, settings=SETTINGS, values={**m, **v}, cap=L.CAP, ask=ask,
                                    ask_page=L.PAGE, start=spec["position"], trace=trace)
    if mode == "conj":
        L.conj_panel(trace, stream)
        with st.expander("The proof in four steps, with this run's numbers"):
            st.markdown(L.conj_steps(trace))
        common.downloads(trace, spec, position, "boolean_conjunction", stream.X, stream.y, settings=L.CONJ_TRANSCRIPT)
    else:
        L.dl_panel(trace, stream)
        with st.expander("The proof in four steps, with this run's numbers"):
            st.markdown(L.dl_steps(trace))
        common.downloads(trace, spec, position, "boolean_decision_list", stream.X, stream.y, settings=L.DL_TRANSCRIPT)

elif mode == "adversary":
    def publish(values, extra):
        state.write_url(SETTINGS, {**m, **v, **values}, extra)

    # the game is a fragment (a move reruns it alone): the class session's button is drawn here, in the full run;
    # the board's viewer has the class mode from the page's modes (class_session.setup)
    class_session.offer(SETTINGS, {**m, **v})
    B.play(int(v["an"]), publish, lambda T: opens_at(T, T), settings=L.GAME_TRANSCRIPT)

else:
    spec, position, game, preds = L.learner_game(v, lambda T: opens_at(T, T))
    spec, position = page.step_view(spec, key=VIEWER, settings=SETTINGS, values={**m, **v, "preds": preds},
                                    cap=L.CAP, start=spec["position"])
    L.game_downloads(spec, position, game)
