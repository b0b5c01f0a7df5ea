"""What every lesson page does first: make sure it runs under the router, then the wide layout.

Streamlit keeps, per server process, a flag saying whether the app uses its old
``pages/`` folder mode; it is cleared the first time ``st.navigation`` runs (in
app.py). Until then a deep link (``/perceptron?…``) opened on a freshly started
server runs the page script *without* app.py: a menu of bare file names and the
default narrow layout. A page that finds the flag still set clears it and reruns,
so the same request goes through app.py's navigation (the page's url path equals
its file stem, so the rerun resolves to the same page). The layout is set here too,
so a page looks the same however it is run (the router, or AppTest on the file).
Every page also lists, in the sidebar, the lecture notes its bracketed citations
([000]–[004]) refer to.
"""
from __future__ import annotations

import streamlit as st
from streamlit import runtime
from streamlit.runtime.scriptrunner_utils.script_requests import ScriptRequestType
from streamlit.runtime.scriptrunner_utils.script_run_context import get_script_run_ctx

from olc_ui.shared import caps, class_session, focus, state
from olc_ui.shared import position as link
from olc_ui.shared import present  # the switch and, when on, presentation mode (olc_ui/shared/present.py)
from olc_ui.shared import sound    # the Sound switch and mode (olc_ui/shared/sound.py)
from olc_ui.shared.config import Setting
from olc_ui.shared.tours import author as tour_author   # "Add this view to a tour" (issue 33 §4)
from olc_ui.shared.tours import bar as tour_bar   # a tour's stop: its bar above the viewer (issue 33)
from olc_ui.shared.tours import cues as tour_cues  # … what it asks and points at
from olc_ui.viewer import predict
from olc_ui.viewer import drawn    # the first load's order: the viewer's charts first
from olc_ui.viewer.component import _mounted, viewer
from olc_ui.viewer.prose import prose  # the intro: HTML whose formulas the viewer's KaTeX typesets

try:
    from streamlit.runtime.pages_manager import PagesManager
except ImportError:  # pragma: no cover - a Streamlit without the flag
    PagesManager = None

__all__ = ["PREDICT_SETTINGS", "SOURCES", "intro", "setup", "step_view"]

#: The predict-then-reveal switch of a page whose run has questions (kept in the URL as ``predict``; the mode's
#: options are the run's: olc_ui/viewer/predict.py)
PREDICT_SETTINGS = [Setting("predict", "Predict, then reveal", "bool", False,
                            help="Before each round is drawn the class answers a question about it (mistake or not? "
                                 "on the Perceptron how w moves, on Winnow which update, on the exponentiated update "
                                 "which weights grow, on Halving how many hypotheses survive …); each answer has its "
                                 "key, shown on its button. → asks the next round, Shift+→ jumps to just before the "
                                 "next mistake.")]

SOURCES = (
    ("[000]", "K. Kitani (lecturer), D. Chen (scribe): *Online Linear Classification*, lecture notes — "
              "Weighted Majority, Randomised Weighted Majority, the Perceptron and Winnow."),
    ("[001]", "J. Boyd-Graber (University of Colorado Boulder; slides adapted from M. Mohri): *Online "
              "Learning* — Halving, Weighted Majority (and why to randomise), the Perceptron."),
    ("[002]", "F. Orabona: *Introduction to Online Learning* (Boston University, Fall 2019), the lecture on "
              "online linear classification — the hinge-loss Perceptron bound and the randomised FTRL classifier."),
    ("[003]", "Lecture notes on learning a perfect committee of experts — the Perceptron, and Winnow with "
              "normalised weights (the exponentiated update) and its relative-entropy proof."),
    ("[004]", "M.-F. Balcan: *8803 Machine Learning Theory*, Lecture 3 (19 January 2010) — the mistake-bound "
              "model, conjunctions, decision lists, the adversary's lower bound, the Perceptron with TD_γ, and the "
              "Margin Perceptron."),
)


#: Streamlit draws st.caption in its faded text colour (#828180 on white, 3.88:1), under WCAG 1.4.3's 4.5:1
#: (issue 23 §1). The theme's text colour at 80 % opacity stays faded but reads ≥ 6:1 on the light theme's
#: white and on the dark theme's near-black alike.
CAPTION_CSS = """<style>
[data-testid="stCaptionContainer"] { color: inherit; opacity: 0.8; }
</style>"""

#: A phone (≤ 640 px wide; issue 25). The page's intro is folded (:func:`intro` draws it both ways, this
#: shows one); the title is smaller; the sidebar (the settings) becomes a sheet over the bottom 42 % of the screen,
#: so the chart above it stays in view (Streamlit closes it on a tap outside it, e.g. on the chart), with the
#: page's own settings first and the lesson menu, Presentation mode and Sources after them; its buttons and
#: the one that opens it are 44×44 px. Tables drawn by olc_ui/shared/tables.py show their stacked form
#: (``olc_narrow_*``) instead of the dataframe (``olc_wide_*``); Plotly's toolbar (over the charts' titles on a
#: touch screen) is hidden on st.plotly_chart charts. The step viewer lays itself out for a phone
#: (assets/viewer_phone.js).
PHONE_MAX_PX = 640
PHONE_CSS = f"""<style>
/* a script-only st.html (focus.py's) takes no row of the page (it kept a 16 px gap above the charts) */
[data-testid="stElementContainer"]:has(> [data-testid="stHtml"] > script:only-child) {{ display: none !important; }}
/* the form a screen does not show takes no row either (nor its wrapper's gap) */
@media (min-width: {PHONE_MAX_PX + 1}px) {{ :is(.st-key-olc_intro_fold, [class*="st-key-olc_narrow_"],
  [data-testid="stLayoutWrapper"]:has(> :is(.st-key-olc_intro_fold, [class*="st-key-olc_narrow_"]))) {{ display: none !important; }} }}
@media (max-width: {PHONE_MAX_PX}px) {{
  :is(.st-key-olc_intro_full, [class*="st-key-olc_wide_"],
    [data-testid="stLayoutWrapper"]:has(> :is(.st-key-olc_intro_full, [class*="st-key-olc_wide_"]))) {{ display: none !important; }}
  [data-testid="stPlotlyChart"] .modebar-container {{ display: none !important; }}
  .olc-stack {{ display: flex; flex-direction: column; gap: 6px; }}
  .olc-stack-row {{ border: 1px solid rgba(128, 128, 128, 0.45); border-radius: 8px; padding: 6px 10px; }}
  .olc-stack-row dl {{ display: flex; flex-wrap: wrap; gap: 2px 12px; margin: 0; font-size: 0.95rem; line-height: 1.35; }}
  .olc-stack-row dl > div {{ display: flex; gap: 0.5em; flex: 1 1 40%; min-width: 0; }}
  .olc-stack-row dl > div.olc-stack-long {{ flex-basis: 100%; }}
  .olc-stack-row dl, .olc-stack-row dd {{ padding: 0 !important; margin: 0 !important; }}
  .olc-stack-row dt {{ opacity: 0.8; font-weight: 400; flex: none; white-space: nowrap; padding: 0 !important; margin: 0 !important; }}
  .olc-stack-row .olc-stack-long dt {{ white-space: normal; max-width: 50%; }}
  .olc-stack-row dd {{ margin: 0; min-width: 0; font-variant-numeric: tabular-nums; overflow-wrap: break-word; }}
  .olc-stack-row dl > div:first-child {{ flex-basis: 100%; }}
  .olc-stack-row dl > div:first-child > :is(dt, dd) {{ font-weight: 700; opacity: 1; }}
  [data-testid="stMainBlockContainer"] {{ padding-top: 3.75rem !important; padding-left: 1rem !important;
    padding-right: 1rem !important; }}
  [data-testid="stMain"] h1 {{ font-size: 1.6rem !important; line-height: 1.25 !important; padding: 0.25rem 0 0.25rem !important; }}
  [data-testid="stSidebar"][data-collapsed="false"] {{ position: fixed !important; left: 0 !important; top: auto !important; bottom: 0 !important; z-index: 999991;
    height: 42vh !important; max-height: 42vh !important; width: 100vw !important; min-width: 100vw !important;
    max-width: 100vw !important; border-top: 2px solid rgba(128, 128, 128, 0.5); border-radius: 12px 12px 0 0;
    box-shadow: 0 -8px 24px rgba(0, 0, 0, 0.25); }}
  [data-testid="stSidebarHeader"] {{ height: auto !important; padding-top: 0.25rem !important; padding-bottom: 0 !important; }}
  [data-testid="stSidebarCollapseButton"] button, [data-testid="stExpandSidebarButton"],
  [data-testid="stSidebarCollapsedControl"] button {{ min-width: 44px !important; min-height: 44px !important; }}
  [data-testid="stSidebarUserContent"] {{ padding-top: 0.25rem !important; }}
  [data-testid="stSidebarUserContent"] :is(.st-key-olc_nav, :has(> .st-key-olc_nav)) {{ order: 90; }}
  [data-testid="stSidebarUserContent"] :is(.st-key-olc_class_side, :has(> .st-key-olc_class_side),
    .st-key-olc_present_switch_side, :has(> .st-key-olc_present_switch_side)) {{ order: 91; }}
  [data-testid="stSidebarUserContent"] :is(.st-key-olc_sources, :has(> .st-key-olc_sources)) {{ order: 92; }}
  [data-testid="stSidebar"] [data-testid="stSlider"] [role="slider"] {{ width: 24px; height: 24px; }}
}}
</style>"""


def setup(title: str) -> None:
    if PagesManager is not None and PagesManager.uses_pages_directory and _under_server():
        PagesManager.uses_pages_directory = False
        st.rerun()
    st.set_page_config(page_title=f"{title} · olc", page_icon="➗", layout="wide")
    back = state.begin_run()   # Back / Forward between two entries of this page (olc_ui/shared/state.py)
    tour_bar.setup(back)    # ?tour=…&stop=k: the stop's settings on Back / Forward (olc_ui/shared/tours/bar.py)
    present.setup()
    class_session.setup()   # ?class= in the link, the class mode of the viewers (olc_ui/shared/class_session.py)
    tour_bar.keep()         # … and tour and stop stay in the URL the page writes
    st.html(CAPTION_CSS + PHONE_CSS)
    focus.setup()           # focus ring, skip link, inert collapsed sidebar (olc_ui/shared/focus.py)
    with st.sidebar.container(key="olc_sources"), st.expander("Sources [000]–[004]", icon=":material/menu_book:"):
        st.markdown("The bracketed numbers on these pages cite these lecture notes. The maths comes from "
                    "them; the numbers and every checked inequality come from the run on the page.\n\n"
                    + "\n".join(f"- **{key}** {text}" for key, text in SOURCES))


def _under_server() -> bool:
    """True in a served app (AppTest has no runtime, and manages the flag itself)."""
    try:
        return runtime.exists()
    except Exception:  # pragma: no cover
        return False


#: The key of the folded intro's expander (its open state: :func:`intro` draws the text only while it is open)
INTRO_FOLD_KEY = "olc_intro_fold_open"


def intro(text: str) -> None:
    """The lesson's opening paragraph (trusted prose: ``**bold**``, ``*italic*`` and ``$…$`` formulas, typeset by
    the step viewer's KaTeX: olc_ui/viewer/prose.py): as it is, or in presentation mode folded into an expander, so
    that the charts and the step controls start higher on the projected screen. On a phone it is folded too: both
    are drawn, and :data:`PHONE_CSS` shows the one that fits the screen. The folded copy's text is drawn only while
    it is open (opening it reruns the page): on a wide screen it is never shown."""
    if present.is_on():
        _folded_intro(text)
        return
    with st.container(key="olc_intro_full"):
        prose(text)
    with st.container(key="olc_intro_fold"):
        _folded_intro(text)


def _folded_intro(text: str) -> None:
    box = st.expander("What this lesson shows", icon=":material/menu_book:", key=INTRO_FOLD_KEY, on_change="rerun")
    if box.open:
        with box:
            prose(text)


def step_view(spec: dict, *, key: str, settings: list, values: dict, cap: str | None = None,
              ask: dict | None = None, ask_page: str | None = None, start: int | None = None,
              modes: dict | None = None, trace=None) -> tuple[dict, int]:
    """What every lesson page does with its run's spec: open the step viewer where the student was (a link's
    ``?t=``, else the round last shown), state the page's draw cap (``cap``: its lesson's ``CAP``, olc_ui/shared/caps.py), and
    write the settings and the round into the URL; in a class session, the viewer's ``class`` mode (and the
    sidebar's "Start a class session" button, olc_ui/shared/class_session.py). ``ask``: predict-then-reveal options for this run
    (olc_ui/viewer/predict.py), offered by a switch kept under ``ask_page`` (above the viewer; in presentation
    mode in the sidebar). A page with its own rule for where the viewer opens passes ``start`` (and says a bad
    link's round itself); ``modes``: the page's own viewer modes (e.g. a game's) instead of the page's default ones.
    ``trace``: the run on screen, on which a tour stop's claim is decided (the tour bar, drawn above the viewer when
    the link opens a stop: olc_ui/shared/tours/bar.py).
    Returns (the spec sent, the position)."""
    # the page's first run with this viewer (a first load, or back from elsewhere) in a browser: the viewer's charts
    # are drawn before what lies under it is sent (olc_ui/viewer/drawn.py)
    token = drawn.expect() if not _mounted(key) and _runs_javascript() else None
    own_settings = settings    # the page's own table (before predict's switch joins it): what a tour's stop names
    from_link = (not _mounted(key) or state.moved()) and "t" in state.link()
    if start is None:
        start, problem = link.start_position_checked(key, spec["T"])
        link.report(problem)      # a bad ?t= in the link: said as every bad setting is
    start = tour_bar.opening(start, from_link)     # a stop that asks about its round opens just before it
    spec = {**spec, "position": start}
    if ask is not None:
        # in presentation mode the switch sits in the sidebar: a row above the viewer would take its height
        # from the projected charts (their plot areas are sized to the screen)
        values.update(state.bind(f"{ask_page}_predict", PREDICT_SETTINGS,
                                 container=st.sidebar if present.is_on() else None))
        settings = settings + PREDICT_SETTINGS
        modes = predict.modes(ask if values.get("predict") else None) if modes is None else {
            **modes, **({"predict": ask} if values.get("predict") else {})}
    modes = sound.with_sound(modes, spec, sound.bind())   # the sidebar's switch; each screen's own, not the class's
    modes = class_session.with_class(modes, settings, values)
    class_session.offer(settings, values)
    # on every run, so that the elements after it keep their places from run to run (one missing on the run after
    # a first load shifted them all: the panels under the viewer were drawn again)
    st.html(f"<script>{drawn.token_js(token) if token is not None else 'void 0;'}</script>",
            unsafe_allow_javascript=True)
    shown = tour_bar.draw(trace=trace, settings=settings, values=values, T=int(spec["T"]), run=str(spec["run_id"]),
                          view=tour_cues.view_of(spec, ask))
    modes = tour_bar.with_tour(modes, shown["mode"] if shown else None)
    st.session_state.pop(WHOLE_PAGE_KEY, None)     # this is a run of the whole page: none is owed
    position = _viewer_part(spec, key, modes, settings, values)
    adding = tour_author.add_view(tour_bar.current_page(), own_settings, values, position)
    # the sidebar's "Add this view (round t)", while open, says the round: a step then reruns the whole page
    st.session_state[READS_T_KEY] = position if adding else None
    if cap is not None:
        caps.show(cap)
    tour_author.keep_draft()    # the tour draft in the browser: it survives a reload (olc_ui/shared/tours/author.py)
    if token is not None:
        drawn.wait(token, should_stop=_interrupted)   # what the page draws under the viewer comes once it has drawn
    return spec, position


#: Session-state flag: a callback of the viewer changed more than its round (the settings, the tour's stop), so the
#: run that follows must be the whole page's, not the viewer's fragment alone (:func:`_viewer_part`)
WHOLE_PAGE_KEY = "_olc_step_whole_page"
#: Session-state key: the round the page outside the viewer's fragment shows (None when it shows none)
READS_T_KEY = "_olc_step_reads_t"


@st.fragment
def _viewer_part(spec: dict, key: str, modes: dict | None, settings: list, values: dict) -> int:
    """The step viewer and the URL it stands for, as a Streamlit fragment: a step (the browser's report of the round
    on screen) reruns this alone, not the page around it — the sidebar's widgets, the panels and the downloads are
    not built again for a new round, which none of them shows (the offline file reads the round when clicked,
    olc_ui/shared/common.py). A callback that changed the settings or the tour's stop (:data:`WHOLE_PAGE_KEY`), or a
    round the page shows outside (:data:`READS_T_KEY`), asks for a run of the whole page instead. A fragment's rerun
    is handed the arguments of the page's last run: the same spec, modes and settings (docs/load.md, "200 students on
    one process")."""
    if st.session_state.pop(WHOLE_PAGE_KEY, False):    # set by a callback before this run (the page's own run pops it)
        st.rerun(scope="app")
    position = viewer(spec, key=key, modes=modes, on_class_settings=_class_bridge, on_tour_stop=_tour_stop)
    state.write_url(settings, values, {"t": str(position)})
    shows = st.session_state.get(READS_T_KEY)
    if shows is not None and shows != position and _fragment_rerun():
        st.rerun(scope="app")
    return position


def _fragment_rerun() -> bool:
    """Whether this run is a fragment's alone (not the whole page's)."""
    ctx = get_script_run_ctx()
    return bool(getattr(ctx, "fragment_ids_this_run", None))


def _tour_stop(value: object) -> int | None:
    """A tour's move to another stop on this page (olc_ui/shared/tours/bar.goto): its settings are the page's."""
    t = tour_bar.goto(value)
    if t is not None:
        st.session_state[WHOLE_PAGE_KEY] = True
    return t


def _class_bridge(value: object) -> None:
    """A class session's settings bridge (a following student's viewer sent the lecturer's settings, round and tour
    stop): the page's widgets take the settings, and the page stands for the lecturer's stop (its tour bar)."""
    st.session_state[WHOLE_PAGE_KEY] = True
    class_session.apply_settings(value)
    if class_session.current() is not None:
        tour_bar.follow_class(value)


def _interrupted() -> bool:
    """Whether Streamlit has asked this run to stop or rerun (a click elsewhere, a page change)."""
    ctx = get_script_run_ctx()
    requests = getattr(ctx, "script_requests", None)
    return requests is not None and getattr(requests, "_state", ScriptRequestType.CONTINUE) != ScriptRequestType.CONTINUE


def _runs_javascript() -> bool:
    """Whether this session's client is a web browser (every one sends a User-Agent starting "Mozilla/"), which
    runs the viewer's script that signals when it has drawn (olc_ui/viewer/drawn.py). AppTest (no headers) and the
    protocol clients of bench/load.py run none: they are sent the whole page at once."""
    try:
        agent = st.context.headers.get("User-Agent") or ""
    except Exception:  # pragma: no cover - no session
        return False
    return agent.startswith("Mozilla/")
