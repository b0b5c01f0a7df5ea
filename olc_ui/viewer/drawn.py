"""A lesson page's first load in a browser: the step viewer's charts are drawn before what lies under it.

Sent together, Streamlit's text, formulas and widgets under the viewer and the viewer's spec share the browser's
one main thread, and the charts came ~0.5 s later than with the viewer alone (docs/benchmarks.md §2, "First
load"). So on a browser's first run of a page, :func:`olc_ui.shared.page.step_view` hands the viewer a one-time
token (:func:`expect`, through a tiny script element) and, once the viewer is sent, waits (:func:`wait`, at most
:data:`WAIT_S`) until the browser says it has drawn: the viewer POSTs the token to :data:`PATH` (:func:`route`, in
app.py's ``st.App(routes=…)``), which wakes the waiting script, and the rest of the page follows in the same run —
no second run, so nothing races a Back or Forward press. Without the signal (no JavaScript, another process
behind a load balancer without the route cookie, a hidden tab) the run goes on after :data:`WAIT_S`.

Holds no Streamlit state; the registry is per process (the browser's requests stick to one process:
scripts/nginx.conf.template)."""
from __future__ import annotations

import secrets
import threading
import time

import streamlit as st
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

__all__ = ["PATH", "WAIT_S", "expect", "route", "signal", "token_js", "wait"]

#: The endpoint, under the server's base URL path (the viewer finds it next to Streamlit's own files)
PATH = "olc-viewer/drawn"
#: The longest a run waits for the browser's signal (s)
WAIT_S = 2.0
#: Tokens waited for at once, at most (a flood of first loads cannot grow the registry without bound)
MAX_WAITING = 10_000

_LOCK = threading.Lock()
_WAITING: dict[str, threading.Event] = {}


def expect(token: str | None = None) -> str:
    """Register a new token (or ``token``) to wait for; returns it."""
    token = token or secrets.token_urlsafe(12)
    with _LOCK:
        if len(_WAITING) >= MAX_WAITING:
            _WAITING.pop(next(iter(_WAITING)))
        _WAITING[token] = threading.Event()
    return token


def token_js(token: str) -> str:
    """The script that hands ``token`` to the viewer (``window.__olcDrawn``; the viewer, once drawn, POSTs it).
    Tokens are URL-safe base64: nothing to escape."""
    if not token or not all(c.isalnum() or c in "-_" for c in token):
        raise ValueError("drawn: a token is URL-safe base64")
    return f'window.__olcDrawn = "{token}";'


def signal(token: str) -> bool:
    """The browser has drawn the viewer of ``token``: wake its run. False for a token nobody waits for."""
    with _LOCK:
        ev = _WAITING.get(token)
    if ev is None:
        return False
    ev.set()
    return True


def wait(token: str, timeout: float = WAIT_S, should_stop=None) -> bool:
    """Block until ``token`` is signalled, ``timeout`` s have passed, or ``should_stop()`` (checked every 20 ms)
    holds; forget the token. True when it was signalled."""
    with _LOCK:
        ev = _WAITING.get(token)
    if ev is None:
        return False
    end = time.monotonic() + timeout
    try:
        while not ev.is_set():
            left = end - time.monotonic()
            if left <= 0 or (should_stop is not None and should_stop()):
                break
            ev.wait(min(0.02, left))
        return ev.is_set()
    finally:
        with _LOCK:
            _WAITING.pop(token, None)


async def _endpoint(request: Request) -> Response:
    """204 for a well-formed token, waited for or not (a run that stopped waiting — a click elsewhere, the time
    was up — is no error of the browser's: its console stays clean); 400 otherwise."""
    token = request.query_params.get("t", "")
    if not 0 < len(token) <= 64:
        return Response(status_code=400)
    signal(token)
    return Response(status_code=204)


def route(base_url: str | None = None) -> Route:
    """The POST endpoint at ``/<baseUrlPath>/olc-viewer/drawn?t=<token>``."""
    base = (st.get_option("server.baseUrlPath") if base_url is None else base_url or "").strip("/")
    return Route(f"/{base}/{PATH}" if base else f"/{PATH}", _endpoint, methods=["POST"])
