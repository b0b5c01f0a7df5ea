"""The class session's Python API: what the pages (olc_ui/shared/class_session.py) and app.py call.

    code, key = start_session("perceptron", "gamma=0.1&T=50")   # raises SessionLimit (a sentence) past a bound
    lookup(code)          # "ok" | "unknown" | "expired" | "malformed"   (a code as typed or from ?class=)
    normalise(code)       # the code upper-cased without spaces/dashes, or None
    routes()              # [WebSocketRoute(<baseUrlPath>/olc-class/ws)] for st.App(routes=...)

The store is one per process (get_store): a RedisStore when ``OLC_REDIS_URL`` is set (scripts/serve.sh),
else a MemoryStore. ``OLC_CLASS_SEED=CODE:KEY`` (off by default; bench/load_class.py sets it on a server
it starts) creates that one session with that key when the store is made: only whoever sets the
server's environment can use it, and they own the server already.
"""
from __future__ import annotations

import os
import threading

import streamlit as st
from starlette.routing import WebSocketRoute
from starlette.websockets import WebSocket

from olc_ui.classroom import codes, store as store_mod
from olc_ui.classroom.hub import Hub
from olc_ui.classroom.redis_store import RedisStore

#: the endpoint's path under server.baseUrlPath
WS_PATH = "olc-class/ws"
SessionLimit = store_mod.Bound
ClassError = store_mod.ClassError
normalise = codes.normalise

_lock = threading.Lock()
_store: store_mod.Store | None = None
_hub: Hub | None = None


def make_store(env=None) -> store_mod.Store:
    """A new store as the environment says (OLC_REDIS_URL, OLC_CLASS_* bounds, OLC_CLASS_SEED)."""
    env = os.environ if env is None else env
    limits = store_mod.Limits.from_env(env)
    url = env.get("OLC_REDIS_URL", "").strip()
    made = RedisStore(url, limits) if url else store_mod.MemoryStore(limits)
    seed = env.get("OLC_CLASS_SEED", "")
    code, _, key = seed.partition(":")
    if seed and codes.normalise(code) == code and len(key) >= 20:
        made.seed(code, key)
    return made


def get_store() -> store_mod.Store:
    """This process's store (made on first use)."""
    global _store
    with _lock:
        if _store is None:
            _store = make_store()
        return _store


def reset(new_store: store_mod.Store | None = None) -> None:
    """Tests: use ``new_store`` (or a fresh one from the environment on next use) and a fresh hub."""
    global _store, _hub
    with _lock:
        _store, _hub = new_store, None


def hub() -> Hub:
    global _hub
    s = get_store()
    with _lock:
        if _hub is None or _hub.store is not s:
            _hub = Hub(s)
        return _hub


def start_session(page: str, query: str) -> tuple[str, str]:
    """A new class session started on ``page`` (url path) with its settings ``query``: (code, key).

    The key goes only to the lecturer's own browser (the viewer's data), never into a URL.
    Raises :class:`SessionLimit` (``.why``: one sentence) past OLC_CLASS_MAX_SESSIONS."""
    return get_store().create(str(page)[:200], str(query)[:4000])


def lookup(typed) -> str:
    """``"ok"``, ``"unknown"``, ``"expired"`` (ended or idle too long) or ``"malformed"`` for a code as typed."""
    code = codes.normalise(typed)
    if code is None:
        return "malformed"
    return get_store().lookup(code)


def ws_path(base_url: str | None = None) -> str:
    """``/<baseUrlPath>/olc-class/ws`` (``/olc-class/ws`` at the root)."""
    base = (st.get_option("server.baseUrlPath") if base_url is None else base_url or "").strip("/")
    return f"/{base}/{WS_PATH}" if base else f"/{WS_PATH}"


async def _endpoint(websocket: WebSocket) -> None:
    await hub().serve(websocket)


def routes(base_url: str | None = None) -> list:
    """The routes for app.py's ``st.App(routes=...)``: the class session's websocket endpoint."""
    return [WebSocketRoute(ws_path(base_url), _endpoint)]
