"""A Streamlit client at the protocol level: what the browser sends and reads over /_stcore/stream.

Used by bench/load.py (many simulated students) and its tests. Written after the frames
Streamlit 1.67's own browser client exchanges (recorded with Playwright from Chromium):

* connect to ``ws://host:port/_stcore/stream`` with the subprotocol ``streamlit``;
* first message: ``BackMsg.rerun_script`` with the link's ``query_string``, ``page_name``
  = the URL path (``perceptron``) and an empty ``page_script_hash``; the server answers
  with ``new_session``, ``navigation`` (every page's ``page_script_hash`` and
  ``url_pathname``, and the current page's hash), the run's ``delta`` messages and
  ``script_finished`` (``FINISHED_EARLY_FOR_RERUN`` when a deep link is resolved on a
  fresh server and the run restarts: keep reading until ``FINISHED_SUCCESSFULLY``);
* every later rerun sends the state of *every* widget of the page (radio and selectbox:
  the option's text in ``string_value``; slider: ``double_array_value``; integer
  number input: ``int_value``; a custom component v2: ``json_value`` with its state,
  ``{"position": p}`` for the step viewer) and the page's ``page_script_hash``;
* a page switch (a sidebar link) sends the target's ``page_script_hash``, no widget states
  and no query string;
* ``cached_message_hashes``: the hashes of the large ``new_element`` messages the client
  keeps (``metadata.cacheable``); the server then sends ``ref_hash`` instead of the
  element. The browser forgets a message not seen for ``max_cached_message_age`` runs.
"""
from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
from streamlit.proto.WidgetStates_pb2 import WidgetState

LOOPBACK = {"127.0.0.1", "localhost", "::1"}
DONE = {ForwardMsg.FINISHED_SUCCESSFULLY, ForwardMsg.FINISHED_WITH_COMPILE_ERROR,
        ForwardMsg.FINISHED_FRAGMENT_RUN_SUCCESSFULLY}


class ProtocolError(RuntimeError):
    """The server's answer is not what Streamlit's client expects (or a run failed)."""


def check_loopback(url: str) -> tuple[str, int]:
    """(host, port) of ``url``; refuses any host but the loopback (the bench never loads another machine)."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "ws") or parts.hostname not in LOOPBACK or parts.port is None:
        raise SystemExit(f"load: only http://127.0.0.1:PORT (loopback) is allowed, got {url!r}")
    return parts.hostname, parts.port


def initial_state(kind: str, el: Any) -> WidgetState | None:
    """The state the browser reports for a widget it has just drawn (None: it reports none)."""
    ws = WidgetState(id=el.id)
    if kind in ("radio", "selectbox"):
        ws.string_value = el.raw_value if el.set_value else el.options[el.default]
    elif kind == "slider":
        ws.double_array_value.data.extend(el.value if el.set_value else el.default)
    elif kind == "number_input":
        v = el.value if el.set_value else el.default
        if el.data_type == el.INT:
            ws.int_value = int(v)
        else:
            ws.double_value = v
    elif kind in ("checkbox",):
        ws.bool_value = el.value if el.set_value else el.default
    else:  # buttons, downloads, components before their first report: nothing
        return None
    return ws


@dataclass
class Run:
    """What one script run sent: the widgets and components drawn, the page, errors, bytes."""
    elements: dict[str, tuple[str, Any]] = field(default_factory=dict)   # widget id -> (kind, element)
    fragments: dict[str, str] = field(default_factory=dict)              # widget id -> its fragment's id (if in one)
    components: dict[str, dict] = field(default_factory=dict)            # component name -> its data (JSON)
    page_hash: str = ""
    pages: dict[str, str] = field(default_factory=dict)                  # url path -> page_script_hash
    headings: list[str] = field(default_factory=list)
    exceptions: list[str] = field(default_factory=list)
    status: int | None = None
    n_msgs: int = 0
    n_bytes: int = 0


class Client:
    """One browser tab's websocket session (asyncio, ``websockets``)."""

    def __init__(self, http_url: str, *, cookie: str | None = None, timeout_s: float = 60.0):
        host, port = check_loopback(http_url)
        self.ws_url = f"ws://{host}:{port}/_stcore/stream"
        self.origin = f"http://{host}:{port}"
        self.cookie = cookie
        self.timeout_s = timeout_s
        self.ws = None
        self.cache: dict[str, ForwardMsg] = {}        # hash -> message (the browser's message cache)
        self.last_used: dict[str, int] = {}           # hash -> run index it was last seen in
        self.max_age = 2
        self.runs = 0
        self.upstream: str | None = None              # X-Olc-Upstream header (behind scripts/serve.sh)

    async def connect(self) -> None:
        from websockets.asyncio.client import connect

        headers = {"Cookie": self.cookie} if self.cookie else None
        self.ws = await asyncio.wait_for(connect(
            self.ws_url, subprotocols=["streamlit"], origin=self.origin, additional_headers=headers,
            max_size=None, open_timeout=self.timeout_s, ping_interval=None), self.timeout_s)
        self.upstream = self.ws.response.headers.get("X-Olc-Upstream")

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()
            self.ws = None

    def back_msg(self, *, query: str = "", page_name: str = "", page_hash: str = "",
                 widgets: list[WidgetState] = (), fragment_id: str = "") -> BackMsg:
        """The rerun request the browser sends (with the hashes of the messages it keeps); ``fragment_id``: a widget
        drawn in a fragment (``st.fragment``) asks for that fragment's run alone, as the browser does."""
        msg = BackMsg()
        cs = msg.rerun_script
        cs.query_string = query
        cs.page_name = page_name
        cs.page_script_hash = page_hash
        cs.widget_states.SetInParent()
        cs.widget_states.widgets.extend(widgets)
        cs.context_info.timezone = "UTC"
        cs.context_info.locale = "en-US"
        cs.context_info.url = self.origin + "/" + page_name
        cs.cached_message_hashes.extend(sorted(self.cache))
        if fragment_id:
            cs.fragment_id = fragment_id
        return msg

    async def rerun(self, **kw) -> Run:
        """Send a rerun request and read until its script has finished."""
        await self.ws.send(self.back_msg(**kw).SerializeToString())
        return await asyncio.wait_for(self._read_run(), self.timeout_s)

    async def _read_run(self) -> Run:
        run = Run()
        while True:
            raw = await self.ws.recv()
            run.n_msgs += 1
            run.n_bytes += len(raw)
            msg = ForwardMsg()
            msg.ParseFromString(raw)
            kind = msg.WhichOneof("type")
            if kind == "ref_hash":
                cached = self.cache.get(msg.ref_hash)
                if cached is None:
                    raise ProtocolError(f"ref_hash {msg.ref_hash} not in the client's cache")
                self.last_used[msg.ref_hash] = self.runs
                msg, kind = cached, cached.WhichOneof("type")
            elif msg.metadata.cacheable:
                self.cache[msg.hash] = msg
                self.last_used[msg.hash] = self.runs
            if kind == "new_session":
                self.max_age = msg.new_session.config.max_cached_message_age or self.max_age
                run = Run(n_msgs=run.n_msgs, n_bytes=run.n_bytes)   # a restarted run starts over
            elif kind == "navigation":
                run.page_hash = msg.navigation.page_script_hash
                run.pages = {p.url_pathname or "": p.page_script_hash for p in msg.navigation.app_pages}
            elif kind == "delta" and msg.delta.WhichOneof("type") == "new_element":
                _element(run, msg.delta.new_element, msg.delta.fragment_id)
            elif kind == "script_finished" and msg.script_finished in DONE:
                run.status = msg.script_finished
                self._age_cache()
                if msg.script_finished == ForwardMsg.FINISHED_WITH_COMPILE_ERROR:
                    run.exceptions.append("compile error")
                return run

    def _age_cache(self) -> None:
        self.runs += 1
        for h in [h for h, r in self.last_used.items() if self.runs - r > self.max_age]:
            self.cache.pop(h, None)
            self.last_used.pop(h, None)


def _element(run: Run, el: Any, fragment_id: str = "") -> None:
    kind = el.WhichOneof("type")
    body = getattr(el, kind)
    if fragment_id and getattr(body, "id", ""):
        run.fragments[body.id] = fragment_id
    if kind == "exception":
        run.exceptions.append(f"{body.type}: {body.message}"[:200])
    elif kind == "heading":
        run.headings.append(body.body)
    elif kind == "bidi_component":
        try:
            if body.WhichOneof("data") == "bytes":  # the step viewer's: a line "olc-viewer <digest>", then JSON
                run.components[body.component_name] = json.loads(body.bytes.partition(b"\n")[2])
            else:
                run.components[body.component_name] = json.loads(body.json) if body.json else {}
        except ValueError:
            run.components[body.component_name] = {}
        run.elements[body.id] = (kind, body)
    elif getattr(body, "id", ""):
        run.elements[body.id] = (kind, body)


def widget_states(run: Run, before: dict[str, WidgetState] | None = None) -> dict[str, WidgetState]:
    """The states the browser reports after drawing ``run`` (widget id -> state).

    A widget the browser already had keeps the browser's value unless the server sets it
    (``set_value``); a widget no longer drawn is dropped; a new one starts at its value."""
    before = before or {}
    out = {}
    for wid, (kind, el) in run.elements.items():
        if wid in before and not getattr(el, "set_value", False):
            out[wid] = before[wid]
            continue
        ws = initial_state(kind, el)
        if ws is not None:
            out[wid] = ws
    return out


def find_widget(run: Run, suffix: str) -> tuple[str, Any]:
    """(id, element) of the widget whose key ends the id (``perceptron__gamma``)."""
    for wid, (_, el) in run.elements.items():
        if wid.endswith("-" + suffix):
            return wid, el
    raise ProtocolError(f"no widget with key {suffix!r} in the run")
