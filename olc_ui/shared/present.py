"""Presentation mode: every lesson page projected at 1100×800 and taught from the keyboard.

``?present=1`` in the link, or the "Presentation mode" switch on every page (bound to the URL
like the other settings, :func:`olc_ui.shared.state.bind`; it stays on across the lessons of a
session). :func:`setup` is called by :func:`olc_ui.shared.page.setup`, so a page gets it from its one
setup call. In presentation mode:

- the sidebar starts collapsed (the page's settings stay one click away, behind the "Settings"
  button at the top left) and Streamlit's header (toolbar, main menu, Deploy) is hidden;
- the page's text is ≥ 18 px and the step viewer is in its ``present`` mode
  (assets/viewer_present.js): larger controls, chart text ≥ 16 px, lines ≥ 3 px, figures
  sized to the window, keys that work without a click into the viewer, a key legend;
- ``?hide=a,b`` leaves out the named controls (TensorFlow Playground's ``hide``): the names are
  :data:`HIDEABLE`'s; unknown ones are reported as inert text (olc_ui/shared/safe.py) and ignored.

The viewer gets the mode through session state (:data:`olc_ui.viewer.spec.MODES_KEY`), written on
every run of every page, so a page needs no argument for it.
"""
from __future__ import annotations

from typing import Any

import streamlit as st

from olc_ui.shared import safe, state
from olc_ui.shared.config import Setting
from olc_ui.viewer.spec import MODES_KEY

__all__ = ["PAGE", "SETTINGS", "HIDEABLE", "setup", "is_on", "parse_hide", "css"]

PAGE = "present"
_ON = "_olc_present_on"   # this run's state, for the page's own layout choices (olc_ui.shared.page.intro)
_WAS_ON = "_olc_present_was_on"
SETTINGS = [
    Setting("present", "Presentation mode", "bool", False,
            help="Large text and charts for a projector; the step controls work from the keyboard "
                 "(→/← step, Shift+→/← mistakes, Space play, Home/End, ? for the list)."),
    Setting("hide", "Hidden controls", "text", "", extra={"max_len": 400}),
]

#: The names ``?hide=`` accepts, and what each leaves out (presentation mode only).
HIDEABLE = {
    "first": "the First button", "last": "the Last button",
    "previous": "the Previous button", "next": "the Next button",
    "mistakes": "the Previous/Next mistake buttons", "stops": "the other Previous/Next buttons (e.g. margin mistakes)",
    "play": "the Play button", "speed": "the speed list", "round": "the round slider",
    "download": "the figure download", "caption": "the caption above the charts",
    "ledger": "the proof ledger", "keys": "the key legend",
    "settings": "the page's settings (the sidebar and its button)",
    "switch": "the Presentation mode switch",
}
#: Of those, the ones the step viewer applies (assets/viewer_present.js HIDE_SELECTORS).
VIEWER_HIDEABLE = ("first", "last", "previous", "next", "mistakes", "stops", "play", "speed", "round",
                   "download", "caption", "ledger", "keys")


def parse_hide(raw: str) -> tuple[list[str], list[str]]:
    """``?hide=`` as (known names, unknown names), each in order, without repeats.

    >>> parse_hide(" Speed, download,,nope,speed")
    (['speed', 'download'], ['nope'])
    """
    known: list[str] = []
    unknown: list[str] = []
    for part in str(raw).split(","):
        name = part.strip().lower()
        if not name:
            continue
        target = known if name in HIDEABLE else unknown
        if name not in target:
            target.append(name)
    return known, unknown


def _switch_key() -> str:
    return state.wkey(PAGE, SETTINGS[0])


def _peek_on() -> bool:
    """Whether presentation mode is on this run, before the switch is drawn (the switch's own
    value once it exists; on a first visit, the link's or the session's)."""
    key = _switch_key()
    if key in st.session_state:
        return bool(st.session_state[key])
    values, _ = state.entry_values(PAGE, SETTINGS)
    return bool(values["present"])


def setup() -> dict[str, Any]:
    """Draw the switch, apply the mode to the page and the viewer; returns {present, hide}.

    Call after the page's ``st.set_page_config`` (:func:`olc_ui.shared.page.setup` does both)."""
    on = _peek_on()
    if on:
        st.set_page_config(initial_sidebar_state="collapsed")
    elif st.session_state.get(_WAS_ON):  # switched off: the settings (and the switch) come back into view
        st.set_page_config(initial_sidebar_state="expanded")
    st.session_state[_WAS_ON] = on
    hidden_switch = on and "switch" in parse_hide(_peek_hide())[0]
    box = st.container(key="olc_present_switch") if on else st.sidebar.container(key="olc_present_switch_side")
    v = state.bind(PAGE, SETTINGS, container=box, show=set() if hidden_switch else {"present"})
    on = bool(v["present"])
    st.session_state[_ON] = on
    hide, unknown = parse_hide(v["hide"])
    st.session_state[state.URL_EXTRA_KEY] = ({"present": "1"} if on else {}) | ({"hide": v["hide"]} if hide or unknown else {})
    st.session_state[MODES_KEY] = {"present": {"hide": [h for h in hide if h in VIEWER_HIDEABLE]}} if on else {}
    if on:
        st.html(f"<style>{css(hide)}</style>")
        if unknown:
            safe.notice("caption", "Not a control that `hide` knows (ignored): ",
                        ", ".join(safe.quote(u, 30) for u in unknown[:10]) + f". Known: {', '.join(HIDEABLE)}.")
    for problem in state.problems(PAGE):
        safe.notice("warning", "A setting in the link was not valid: ", f"{problem}.")
    return {"present": on, "hide": hide}


def is_on() -> bool:
    """Whether this run of the page is in presentation mode (after :func:`setup`)."""
    return bool(st.session_state.get(_ON, False))


def _peek_hide() -> str:
    key = state.wkey(PAGE, SETTINGS[1])
    if key in st.session_state:
        return str(st.session_state[key])
    values, _ = state.entry_values(PAGE, SETTINGS)
    return str(values["hide"])


#: Page styles in presentation mode (Streamlit 1.67's test ids). The fixed buttons' background is the theme's: the app
#: root sets ``color-scheme`` (light or dark), which ``light-dark()`` follows (white read 1.1:1 under a dark theme's text).
_CSS = """
header[data-testid="stHeader"] { background: var(--st-background-color, light-dark(#ffffff, #171614)); height: 3.1rem;
  min-height: 0; overflow: visible; }
[data-testid="stMain"] { scroll-padding-top: 3.4rem; }
[data-testid="stMainMenu"], [data-testid="stAppDeployButton"], [data-testid="stDecoration"],
[data-testid="stStatusWidget"], [data-testid="stToolbarActions"] { display: none !important; }
[data-testid="stExpandSidebarButton"] { position: fixed; top: 0.5rem; left: 0.5rem; z-index: 999990;
  background: var(--st-background-color, light-dark(#ffffff, #171614)); border: 1px solid rgba(128, 128, 128, 0.5); border-radius: 0.5rem; }
[data-testid="stExpandSidebarButton"]::after { content: "Settings"; font-size: 16px; padding: 0 0.5rem 0 0.1rem; }
[data-testid="stMainBlockContainer"] { padding-bottom: 2rem !important; max-width: 100% !important; }
[data-testid="stMain"] { font-size: 18px; }
[data-testid="stMain"] [data-testid="stMarkdownContainer"] p,
[data-testid="stMain"] [data-testid="stMarkdownContainer"] li,
[data-testid="stMain"] [data-testid="stCaptionContainer"],
[data-testid="stMain"] [data-testid="stWidgetLabel"] p,
[data-testid="stMain"] [data-testid="stExpander"] summary p { font-size: 18px !important; }
[data-testid="stMain"] h1 { font-size: 30px !important; padding: 0 9rem 0.2rem 0 !important; line-height: 1.2 !important; }
[data-testid="stMain"] h2, [data-testid="stMain"] h3 { font-size: 24px !important; }
.st-key-olc_present_switch { position: fixed !important; top: 0.5rem; right: 1rem; z-index: 999990;
  width: auto !important; background: var(--st-background-color, light-dark(#ffffff, #171614)); padding: 0.1rem 0.5rem; border-radius: 0.5rem; }
.st-key-olc_present_switch [data-testid="stWidgetLabel"] p { font-size: 18px !important; }
/* the top bar: Settings, "What this lesson shows" (its text opens over the page), "Start a class session" and the
   switch, fixed on the header's band (what scrolls passes under the band, not under the buttons; a scroll into view
   stops below it), so the charts start higher; the fixed boxes' wrappers take no row (nor its gap) */
[data-testid="stLayoutWrapper"]:has(> :is(.st-key-olc_present_switch, .st-key-olc_class_top)) { display: contents; }
[data-testid="stMainBlockContainer"] { padding-top: 3.2rem !important; }
[data-testid="stMain"] .st-key-olc_intro_fold_open { position: fixed !important; top: 0.5rem; left: 7.5rem; z-index: 999991;
  width: auto !important; max-width: min(760px, calc(100vw - 9rem)); }
.st-key-olc_intro_fold_open details { background: var(--st-background-color, light-dark(#ffffff, #171614)); }
.st-key-olc_intro_fold_open summary { padding-top: 0.1rem !important; padding-bottom: 0.1rem !important; }
.st-key-olc_intro_fold_open summary p { font-size: 16px !important; }
.st-key-olc_intro_fold_open [data-testid="stExpanderDetails"] { max-height: 75vh; overflow: auto; }
.st-key-olc_intro_fold_open details[open] { box-shadow: 0 12px 32px rgba(0, 0, 0, 0.3); }
.st-key-olc_class_top { position: fixed !important; top: 0.5rem; left: 25rem; z-index: 999990; width: auto !important; }
.st-key-olc_class_top button { min-height: 0; padding: 0.1rem 0.6rem; background: var(--st-background-color, light-dark(#ffffff, #171614)); }
.st-key-olc_class_top button p { font-size: 16px !important; }
"""
_HIDE_CSS = {
    "settings": '[data-testid="stSidebar"], [data-testid="stSidebarCollapsedControl"], '
                '[data-testid="stExpandSidebarButton"] { display: none !important; }',
}


def css(hide: list[str] | tuple = ()) -> str:
    """The page's presentation-mode style sheet (plus the page-level ``hide`` names)."""
    return _CSS + "".join(_HIDE_CSS.get(h, "") for h in hide)
