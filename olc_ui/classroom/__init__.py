"""The class session's server side (docs/class-session.md): codes, the store, the push endpoint.

Pages call :func:`start_session` and :func:`lookup`; app.py passes :func:`routes` to ``st.App``.
olc_core never imports this package.
"""
from olc_ui.classroom.api import ClassError, SessionLimit, get_store, lookup, normalise, routes, start_session, ws_path

__all__ = ["ClassError", "SessionLimit", "get_store", "lookup", "normalise", "routes", "start_session", "ws_path"]
