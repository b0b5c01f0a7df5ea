"""Widgets bound to the URL: a page's settings start from its link and write it back.

On a page's first run in a session, or when its widgets were cleaned up after the
student visited another page, the settings come from the link if it carries any of
them (defaults where absent; a bad value is reported and replaced by the default),
else from the values the page had when the student left it (kept per page in
session state, under keys no widget owns), else the defaults. The widgets then own
the values, and every run writes them all back to the URL (the viewer keeps the
position ``t`` there itself), so a copied link opens the same run at the same step.

The URL is written in the browser with ``history.replaceState`` (olc_ui/shared/url_sync.js),
not with ``st.query_params``: Streamlit's frontend answers every server-side query
change with ``history.pushState``, which gave each page load and each settings change
a history entry of its own.
"""
from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

import streamlit as st

from streamlit.runtime.scriptrunner_utils.script_run_context import get_script_run_ctx

from olc_ui.shared.config import Setting, changed_url, url_values

__all__ = ["apply_query", "apply_every", "begin_run", "link", "move_to_link", "moved", "set_link", "bind", "current", "forget_problems", "write_url", "problems", "url_params",
           "URL_KEY", "URL_EXTRA_KEY", "wkey", "entry_values"]

#: Session-state key holding the query the last run asked the browser to show (for tests).
URL_KEY = "_olc_url"
#: Session-state key of query parameters every page's URL carries besides its own settings
#: (presentation mode's ``present`` / ``hide``, written by olc_ui/shared/present.py on every run).
URL_EXTRA_KEY = "_olc_url_extra"
#: Session-state key of the link a move inside the page stands for ({page, seen, params}: :func:`set_link`)
LINK_KEY = "_olc_link"
#: Session-state key of the groups of settings each page's runs bound ({page: {group: settings}}), for the class
#: session's settings bridge (:func:`apply_query`) and a tour's move (:func:`apply_every`).
GROUPS_KEY = "_olc_groups"


def _wkey(page: str, s: Setting) -> str:
    return f"{page}__{s.key}"


def wkey(page: str, s: Setting) -> str:
    """The session-state key of ``s``'s widget on ``page``."""
    return _wkey(page, s)


def entry_values(page: str, settings: list[Setting]) -> tuple[dict[str, Any], list[str]]:
    """The values ``page``'s settings open with, and the link's problems (see :func:`bind`)."""
    return _entry_values(page, settings)


def _saved_key(page: str) -> str:
    return f"_olc_saved::{page}"


def _page_hash() -> str | None:
    ctx = get_script_run_ctx()
    return getattr(ctx, "page_script_hash", None) if ctx is not None else None


def link() -> dict[str, str]:
    """The query of the link the page stands for: ``st.query_params`` (the address the page was opened at), unless a
    move inside the page since then stood for another link (:func:`set_link`: a tour's next stop on the same page, a
    class session's stop) — as long as the page and Streamlit's copy of the address are still those it was made on
    (a page switch, or Back, which hands Streamlit the new address, ends it)."""
    params = {k: str(v) for k, v in st.query_params.items()}
    got = st.session_state.get(LINK_KEY)
    if isinstance(got, dict) and got.get("page") == _page_hash() and got.get("seen") == params:
        return dict(got["params"])
    return params


def set_link(params: dict[str, str], move: bool = False) -> None:
    """Make ``params`` the page's link (:func:`link`) without a page load: the browser shows that address
    (``history.pushState`` in the viewer's tour mode, or the settings bridge of a class session); Streamlit's own
    copy (``st.query_params``) stays the one the page was opened at, since writing it would add a history entry.
    ``move`` (a callback's, before the page's run): that run opens the viewer at the link's round (:func:`moved`)."""
    if move:
        st.session_state[_MOVE_NEXT_KEY] = _page_hash() or ""
    st.session_state[LINK_KEY] = {"page": _page_hash(), "seen": {k: str(v) for k, v in st.query_params.items()},
                                  "params": {k: str(v) for k, v in params.items()}}


def _entry_values(page: str, settings: list[Setting]) -> tuple[dict[str, Any], list[str]]:
    """The values a page opens with: the link's (it wins), else the ones it had when left, else defaults."""
    params = link()
    kept = st.session_state.get(_saved_key(page))
    from_link = [s for s in settings if s.key in params]
    if not kept or from_link:
        values, bad = url_values(settings, params)
        if kept:  # a link naming some settings: the others keep the values the page had
            values.update({s.key: kept[s.key] for s in settings if s.key not in params and s.key in kept})
        return values, bad
    return {s.key: kept.get(s.key, s.default) for s in settings}, []


def bind(page: str, settings: list[Setting], *, container=None, show=None, adjust=None) -> dict[str, Any]:
    """Create the widgets for ``settings`` and return every value.

    ``show``: the keys to draw widgets for (a set, or a function of the current values
    returning one); the others keep their values without a widget. ``adjust``: a function of
    the current values returning the ones to change before the widgets are drawn (e.g. a
    choice another setting restricts). Call once per group and run: a widget's key cannot
    be written after the widget is drawn.
    """
    keys = [_wkey(page, s) for s in settings]
    if any(k not in st.session_state for k in keys):  # first run here, or back from another page
        values, bad = _entry_values(page, settings)
        for s, k in zip(settings, keys):
            st.session_state[k] = values[s.key]
        st.session_state[f"__{page}__problems"] = bad
    if adjust is not None:
        by_key = {s.key: k for s, k in zip(settings, keys)}
        for key, value in adjust({s.key: st.session_state[k] for s, k in zip(settings, keys)}).items():
            st.session_state[by_key[key]] = value
    box = container if container is not None else st
    if callable(show):
        show = set(show({s.key: st.session_state[k] for s, k in zip(settings, keys)}))
    out: dict[str, Any] = {}
    for s, k in zip(settings, keys):
        if show is not None and s.key not in show:
            out[s.key] = st.session_state[k]
            # keep the value alive even when its widget is not drawn this run
            st.session_state[k] = st.session_state[k]
            continue
        out[s.key] = _widget(box, s, k)
    st.session_state[_saved_key(page)] = dict(out)  # outlives the widgets' keys
    _groups()[page] = list(settings)
    return out


def _groups() -> dict[str, list[Setting]]:
    """The groups of settings this page's runs bound ({group: settings}), kept per page (a run that is interrupted
    before it binds them all leaves them known: a callback of the next run reads them)."""
    every = st.session_state.get(GROUPS_KEY)
    if not isinstance(every, dict):
        every = st.session_state[GROUPS_KEY] = {}
    return every.setdefault(_page_hash() or "", {})


#: Session-state keys: the address Streamlit reported on each page's last run ({page: query}); the page whose link
#: moved to another tour stop on this run (:func:`moved`)
SEEN_KEY = "_olc_seen_query"
MOVED_KEY = "_olc_link_moved"
_MOVE_NEXT_KEY = "_olc_link_move_next"     # set_link(move=True) in a callback: the run that follows moved


def begin_run() -> bool:
    """A page's run starts (olc_ui/shared/page.py setup). True when the address Streamlit reports for this page is not
    the one of its last run: Back or Forward between two entries of the same page (Streamlit then reruns the page
    with that entry's address, but its widgets keep their values). (The groups of settings are kept per page, see
    :func:`_groups`: nothing to forget.)"""
    st.session_state.pop(MOVED_KEY, None)
    page = _page_hash() or ""
    if st.session_state.pop(_MOVE_NEXT_KEY, None) == page:
        st.session_state[MOVED_KEY] = page
    now = {k: str(v) for k, v in st.query_params.items()}
    seen = st.session_state.get(SEEN_KEY)
    if not isinstance(seen, dict):
        seen = st.session_state[SEEN_KEY] = {}
    ctx = get_script_run_ctx()
    history = bool(getattr(ctx, "is_history_navigation", False))     # Streamlit's own word for Back / Forward
    changed = (page in seen and seen[page] != now) or (history and page in seen)
    seen[page] = now
    if changed:       # a move inside the page stood for another link (set_link): the new address ends it
        st.session_state.pop(LINK_KEY, None)
    return changed


def move_to_link() -> None:
    """This run opens the page as its link (:func:`link`) says, as a page load would: every group of settings takes
    the link's values (defaults where it names none), and the viewer opens at the link's round (:func:`moved`).
    For Back and Forward between two stops of a tour on one page (olc_ui/shared/tours/bar.setup)."""
    apply_every(link())
    st.session_state[MOVED_KEY] = _page_hash() or ""


def moved() -> bool:
    """Whether this run opens the page at its link's round (:func:`move_to_link`)."""
    return st.session_state.get(MOVED_KEY) == (_page_hash() or "")


def apply_query(params: dict[str, str]) -> None:
    """Give the page's widgets the values of ``params`` as if they came from a link (a bad value: the default),
    before the script runs (a callback: the class session's settings bridge, olc_ui/shared/class_session.py).
    Only the groups of the page's runs that ``params`` names a setting of are set; in those, a setting the
    query leaves out takes its default (a page's query names every setting, olc_ui/shared/config.changed_url)."""
    for group, settings in _groups().items():
        if not any(s.key in params for s in settings):
            continue
        values, _ = url_values(settings, params)
        for s in settings:
            st.session_state[_wkey(group, s)] = values[s.key]
        st.session_state[_saved_key(group)] = dict(values)


def apply_every(params: dict[str, str]) -> None:
    """As :func:`apply_query`, for every group of settings the page's runs bound, named in ``params`` or not
    (a setting ``params`` leaves out takes its default): the page as a link of ``params`` alone opens it."""
    for group, settings in _groups().items():
        values, _ = url_values(settings, params)
        for s in settings:
            st.session_state[_wkey(group, s)] = values[s.key]
        st.session_state[_saved_key(group)] = dict(values)


def url_params(settings: list[Setting], values: dict[str, Any]) -> dict[str, str]:
    """The page's settings as query parameters (every setting), as :func:`write_url` writes them."""
    return changed_url(settings, values)


def current(page: str, settings: list[Setting]) -> dict[str, Any]:
    """The values :func:`bind` holds now, without drawing a widget (e.g. in a fragment's rerun, where the
    page's widgets were drawn by an earlier full run); the kept copy is refreshed so they outlive the page."""
    keys = [_wkey(page, s) for s in settings]
    if any(k not in st.session_state for k in keys):
        raise KeyError(f"{page}: bind() has not run for these settings")
    out = {s.key: st.session_state[k] for s, k in zip(settings, keys)}
    st.session_state[_saved_key(page)] = dict(out)
    return out


def _widget(box, s: Setting, key: str) -> Any:
    kind = s.extra.get("widget")
    if s.kind == "choice":
        labels = s.extra.get("labels", {})
        fmt = (lambda v: labels.get(v, v))
        options = s.extra.get("choices", s.options)   # the ones offered now (the link may name any option)
        if kind == "select":
            return box.selectbox(s.label, options, key=key, help=s.help or None, format_func=fmt)
        return box.radio(s.label, options, key=key, help=s.help or None, format_func=fmt,
                         horizontal=s.extra.get("horizontal", False))
    if s.kind == "bool":
        return box.toggle(s.label, key=key, help=s.help or None)
    if s.kind == "text":
        return st.session_state[key]  # set by the page itself (e.g. clicked points), no widget
    if kind == "number":
        return box.number_input(s.label, min_value=s.lo, max_value=s.hi, step=s.step or 1, key=key,
                                help=s.help or None)
    # value: the one the session holds (it wins over a default anyway); given, Streamlit need not build the whole
    # filtered session state to learn whether the slider is a range (a tenth of a page's run at 200 students,
    # docs/load.md; .streamlit/config.toml silences the warning a default beside a state value would log)
    return box.slider(s.label, min_value=s.lo, max_value=s.hi, value=st.session_state[key], step=s.step, key=key,
                      help=s.help or None, format=s.fmt)


@functools.lru_cache(maxsize=1)
def _url_component():
    js = (Path(__file__).resolve().parent / "url_sync.js").read_text(encoding="utf-8")
    return st.components.v2.component("olc_url_sync", js=js)


def write_url(settings: list[Setting], values: dict[str, Any], extra: dict[str, str] | None = None) -> None:
    """Mirror the values into the browser's URL in place (``history.replaceState``: no history entry).

    ``extra`` (e.g. the viewer's position ``t``) is written only where the URL has none: the
    step viewer keeps ``t`` up to date in the browser, and the server's copy can be behind."""
    params = changed_url(settings, values)
    params.update(st.session_state.get(URL_EXTRA_KEY) or {})
    fallback = {k: str(v) for k, v in (extra or {}).items()}
    st.session_state[URL_KEY] = {**params, **fallback}
    _url_component()(key="olc_url_sync", data={"params": params, "fallback": fallback})


def forget_problems(page: str) -> None:
    """Drop what was wrong with the link for ``page`` (e.g. values the link held for another group that a
    switch on the page replaced: not the student's mistake, nothing to report)."""
    st.session_state[f"__{page}__problems"] = []


def problems(page: str) -> list[str]:
    """What was wrong with the link this page was opened with (bad values replaced by defaults)."""
    return list(st.session_state.get(f"__{page}__problems", []))


def set_value(page: str, settings: list[Setting], key: str, value: Any) -> None:
    """Change a setting programmatically (call before its widget is drawn, e.g. in a callback)."""
    for s in settings:
        if s.key == key:
            st.session_state[_wkey(page, s)] = value
            return
    raise KeyError(key)
