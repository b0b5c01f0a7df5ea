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

from olc_ui.shared.config import Setting, changed_url, url_values

__all__ = ["apply_query", "begin_run", "bind", "current", "forget_problems", "write_url", "problems", "url_params",
           "URL_KEY", "URL_EXTRA_KEY", "wkey", "entry_values"]

#: Session-state key holding the query the last run asked the browser to show (for tests).
URL_KEY = "_olc_url"
#: Session-state key of query parameters every page's URL carries besides its own settings
#: (presentation mode's ``present`` / ``hide``, written by olc_ui/shared/present.py on every run).
URL_EXTRA_KEY = "_olc_url_extra"
#: Session-state key of the groups of settings the page's last run bound ({group: settings}), for the class
#: session's settings bridge (:func:`apply_query`).
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


def _entry_values(page: str, settings: list[Setting]) -> tuple[dict[str, Any], list[str]]:
    """The values a page opens with: the link's (it wins), else the ones it had when left, else defaults."""
    params = dict(st.query_params)
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
    groups = st.session_state.get(GROUPS_KEY)
    if not isinstance(groups, dict):
        groups = st.session_state[GROUPS_KEY] = {}
    groups[page] = list(settings)
    return out


def begin_run() -> None:
    """A page's run starts (olc_ui/shared/page.py setup): forget the groups the last run bound."""
    st.session_state[GROUPS_KEY] = {}


def apply_query(params: dict[str, str]) -> None:
    """Give the page's widgets the values of ``params`` as if they came from a link (a bad value: the default),
    before the script runs (a callback: the class session's settings bridge, olc_ui/shared/class_session.py).
    Only the groups of the page's last run that ``params`` names a setting of are set; in those, a setting the
    query leaves out takes its default (a page's query names every setting, olc_ui/shared/config.changed_url)."""
    for group, settings in (st.session_state.get(GROUPS_KEY) or {}).items():
        if not any(s.key in params for s in settings):
            continue
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
    return box.slider(s.label, min_value=s.lo, max_value=s.hi, step=s.step, key=key, help=s.help or None,
                      format=s.fmt)


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
