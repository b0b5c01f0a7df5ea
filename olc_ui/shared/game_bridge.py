"""The class session's settings bridge on a "Beat the bound" game (issue 35 §3). A game's step viewer lives in a
Streamlit fragment, so the bridge (a following student's viewer asking for the lecturer's settings:
:func:`olc_ui.shared.class_session.apply_settings`) reruns only the fragment: the game's moves (a setting without a
widget) are then the lecturer's, but a setting with a widget in the sidebar (the game's N, the class, …) would keep
the widget's old value in the browser, and the next rerun (a checkbox of the move panel) would send it back. So when
the bridge changes anything but the moves, the fragment's next run asks for a run of the whole page
(:func:`rerun_if_needed`), which draws the sidebar's widgets with the lecturer's values."""
from __future__ import annotations

from typing import Any, Callable

import streamlit as st

from olc_ui.shared import class_session, state

__all__ = ["bridge", "rerun_if_needed"]


def _values(groups: list[tuple[str, list]]) -> dict[str, Any]:
    out = {}
    for group, settings in groups:
        try:
            out.update({f"{group}.{k}": v for k, v in state.current(group, settings).items()})
        except KeyError:          # not bound yet on this page
            pass
    return out


def bridge(groups: list[tuple[str, list]], moves_key: str, flag: str) -> Callable[[object], None]:
    """The viewer's ``on_class_settings`` for a game: the class session's bridge, and ``flag`` set when it changed a
    setting other than the moves (``moves_key``)."""
    def apply(value: object) -> None:
        before = _values(groups)
        class_session.apply_settings(value)
        after = _values(groups)
        if any(before.get(k) != v for k, v in after.items() if not k.endswith(f".{moves_key}")):
            st.session_state[flag] = True
    return apply


def rerun_if_needed(flag: str) -> None:
    """In the game's fragment: a run of the whole page when the bridge changed a setting with a widget."""
    if st.session_state.pop(flag, False):
        st.rerun(scope="app")
