"""Widgets bound to the URL: a page's settings start from its link and write it back.

On a page's first run in a session (or when its widgets were cleaned up after the
student visited another page) every setting is read from ``st.query_params``
(defaults where absent; a bad value is reported and replaced by the default). The
widgets then own the values, and every run writes them all back to the URL, with
the viewer's position, so a copied link opens the same run at the same step.
"""
from __future__ import annotations

from typing import Any

import streamlit as st

from .config import Setting, changed_url, url_values

__all__ = ["bind", "write_url", "problems"]


def _wkey(page: str, s: Setting) -> str:
    return f"{page}__{s.key}"


def bind(page: str, settings: list[Setting], *, container=None, show=None) -> dict[str, Any]:
    """Create the widgets for ``settings`` and return every value.

    ``show``: the keys to draw widgets for (a set, or a function of the current values
    returning one); the others keep their values without a widget. Call once per group
    and run: a widget's key cannot be written after the widget is drawn.
    """
    keys = [_wkey(page, s) for s in settings]
    flag = f"__{page}__from_url"
    if not st.session_state.get(flag) or any(k not in st.session_state for k in keys):
        values, bad = url_values(settings, dict(st.query_params))
        for s, k in zip(settings, keys):
            st.session_state[k] = values[s.key]
        st.session_state[flag] = True
        st.session_state[f"__{page}__problems"] = bad
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
    return out


def _widget(box, s: Setting, key: str) -> Any:
    kind = s.extra.get("widget")
    if s.kind == "choice":
        labels = s.extra.get("labels", {})
        fmt = (lambda v: labels.get(v, v))
        if kind == "select":
            return box.selectbox(s.label, s.options, key=key, help=s.help or None, format_func=fmt)
        return box.radio(s.label, s.options, key=key, help=s.help or None, format_func=fmt,
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


def write_url(settings: list[Setting], values: dict[str, Any], extra: dict[str, str] | None = None) -> None:
    """Mirror the values (and ``extra``, e.g. the position) into the URL, only when they changed."""
    q = changed_url(settings, values, extra)
    if dict(st.query_params) != q:
        st.query_params.from_dict(q)


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
