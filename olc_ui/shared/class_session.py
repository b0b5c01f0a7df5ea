"""A class session on a lesson page: the "Start a class session" button, ``?class=`` in a link, the viewer's
``class`` mode and the settings bridge (docs/class-session.md is the contract).

- :func:`setup` (called by :func:`olc_ui.shared.page.setup` on every lesson page, after presentation mode) reads
  ``?class=<code>`` (untrusted: checked against the code alphabet, then looked up in the store; a bad, unknown or
  expired code is said in one sentence through olc_ui/shared/safe.py and the page works on its own), keeps the
  session in this Streamlit session's state, keeps ``class`` in the URL the page writes, and gives every step
  viewer on the page the ``class`` mode (:data:`olc_ui.viewer.spec.MODES_KEY`).
- :func:`offer` (called by :func:`olc_ui.shared.page.step_view`) draws the button in the sidebar, under the
  Presentation mode switch; in a session, the code and "Leave the class session" instead.
- :func:`mode_options` builds the mode's options: ``{code, role, key, ws, join, qr, page, query}``; the lecturer's
  key only in the lecturer's own session, never in a URL.
- :func:`apply_settings` is the settings bridge: a following student's viewer asks (``class_settings``) for the
  lecturer's query; it is applied to the page's widgets before the script runs (the page frame hands it to the viewer:
  ``viewer(…, on_class_settings=apply_settings)``, olc_ui/shared/page.py).
"""
from __future__ import annotations

import functools
import ipaddress
import os
import re
import socket
import time
from typing import Any, NamedTuple
from urllib.parse import parse_qsl, urlencode, urlsplit

import segno
import streamlit as st
from streamlit import config as st_config
from streamlit.runtime.scriptrunner import get_script_run_ctx

from olc_ui.shared import present, safe, state
from olc_ui.viewer.spec import MODES_KEY

try:  # the store and the push endpoint (olc_ui/classroom/, built next to this module)
    from olc_ui.classroom import lookup as _store_lookup, start_session as _store_start
except ImportError:  # pragma: no cover - a checkout without the server side
    _store_lookup = _store_start = None

__all__ = ["CODE_ALPHABET", "EXCLUDED", "PUBLIC_URL_ENV", "SESSION_KEY", "WS_SUFFIX", "Join", "apply_settings", "check_code",
           "current", "join_link", "join_target", "lan_address", "leave", "mode_options", "offer", "page_query", "qr_data_uri",
           "setup", "with_class", "ws_path"]

#: The characters of a class code (no 0/O, no 1/I/L) and its length.
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 6
_CODE_RE = re.compile(f"[{CODE_ALPHABET}]{{{CODE_LENGTH}}}")
#: Query parameters that are not the page's settings (never sent as the lecturer's query).
EXCLUDED = ("t", "class", "present", "hide")
#: This Streamlit session's class session: {code, role, key (lecturer only), join_page}.
SESSION_KEY = "_olc_class"
_LEFT = "_olc_class_left"        # a code this session left: the link that still carries it does not rejoin
_BAD = "_olc_class_bad"          # (page, sentence) said about a bad ?class= in the link
WS_SUFFIX = "olc-class/ws"
#: the container of the "Start a class session" button in presentation mode (fixed in the top bar: present.py's CSS)
TOP_KEY = "olc_class_top"
#: Pages without a step viewer: no class session button there (the class panel is the viewer's).
NO_VIEWER = frozenset({"", "home", "bound_explorer"})
_SLOTS: dict[str, Any] = {}   # Streamlit session id -> this run's sidebar slot for the class controls
_MAX_SLOTS = 2000


def check_code(raw: object) -> str | None:
    """The class code in ``raw`` (spaces dropped, upper case), or None when it cannot be one.

    >>> check_code(" abc-deF "), check_code("ABCDE2"), check_code("ABCD0E"), check_code("<b>x</b>")
    ('ABCDEF', 'ABCDE2', None, None)
    """
    code = re.sub(r"[\s-]+", "", str(raw)[:64])[: CODE_LENGTH + 1].upper()
    return code if _CODE_RE.fullmatch(code) else None


def current() -> dict[str, Any] | None:
    """This Streamlit session's class session ({code, role, key?, join_page}) or None."""
    got = st.session_state.get(SESSION_KEY)
    return got if isinstance(got, dict) and got.get("code") else None


def ws_path() -> str:
    """The push endpoint's path: ``<baseUrlPath>/olc-class/ws``."""
    base = str(st.get_option("server.baseUrlPath") or "").strip("/")
    return f"/{base}/{WS_SUFFIX}" if base else f"/{WS_SUFFIX}"


def _page_path() -> str:
    """The url path of the page running (``perceptron``): the router's, else the script's file stem (AppTest)."""
    ctx = get_script_run_ctx()
    if ctx is None:
        return ""
    try:
        info = ctx.pages_manager.get_pages().get(ctx.page_script_hash) or {}
        if info.get("url_pathname"):
            return str(info["url_pathname"])
    except Exception:  # noqa: BLE001 - a Streamlit without the pages manager: fall back to the file name
        pass
    return str(getattr(ctx, "main_script_path", "") or "").rsplit("/", 1)[-1].removesuffix(".py")


#: the address students open, when it is not the one the lecturer's browser shows (a proxy, a public name):
#: ``OLC_PUBLIC_URL=https://olc.example.edu/olc`` (scheme, host, port and path up to the pages)
PUBLIC_URL_ENV = "OLC_PUBLIC_URL"


class Join(NamedTuple):
    """The join link, and for the lecturer a sentence when students may not be able to open it (else None)."""
    link: str
    note: str | None


def _this_computer(host: str) -> bool:
    """Whether ``host`` names the computer it is typed on (a loopback or unspecified address, ``localhost``)."""
    h = host.strip("[]").lower()
    if h == "localhost" or h.endswith(".localhost"):
        return True
    try:
        ip = ipaddress.ip_address(h)
    except ValueError:
        return False
    return ip.is_loopback or ip.is_unspecified


def join_target(code: str, page: str, url: str | None, *, base: str = "", public: str = "", proxied: bool = False,
                server_address: str | None = None, lan: str | None = None) -> Join:
    """The join link of ``page`` and, when the lecturer's address (``url``) is this computer's own (127.0.0.1,
    localhost), what students should open instead, or why they cannot yet.

    ``public``: OLC_PUBLIC_URL; ``proxied``: the request came through a proxy (nginx: X-Forwarded-For), which may
    listen elsewhere than Streamlit; ``server_address``: Streamlit's ``server.address`` (None: every interface);
    ``lan``: this computer's address on its network, when one was found.

    >>> join_target("ABC234", "perceptron", "http://10.0.0.5:8501/perceptron").link
    'http://10.0.0.5:8501/perceptron?class=ABC234'
    >>> j = join_target("ABC234", "perceptron", "http://localhost:8501/perceptron", lan="192.168.1.5")
    >>> j.link, j.note.split(":")[0]
    ('http://192.168.1.5:8501/perceptron?class=ABC234', 'The link and the QR code use this computer’s network address, 192.168.1.5')
    >>> join_target("ABC234", "winnow", "http://127.0.0.1:8501/", public="https://olc.example.edu/olc/").link
    'https://olc.example.edu/olc/winnow?class=ABC234'
    """
    query = urlencode({"class": code})
    path = "/".join(p for p in (base.strip("/"), page) if p)
    if public:
        return Join(f"{public.rstrip('/')}/{page}?{query}", None)
    parts = urlsplit(url) if url else None
    if parts is None or not parts.hostname:
        return Join(f"/{path}?{query}", None)
    if not _this_computer(parts.hostname):
        return Join(f"{parts.scheme}://{parts.netloc}/{path}?{query}", None)
    here = parts.hostname
    port = f":{parts.port}" if parts.port else ""
    own = f"{parts.scheme}://{parts.netloc}/{path}?{query}"
    instead = f"{parts.scheme}://{f'[{lan}]' if ':' in lan else lan}{port}/{path}" if lan else None
    public_hint = f"set {PUBLIC_URL_ENV} to the address students open"
    if proxied:
        return Join(own, f"Students cannot open {here}: it is this computer. Open this page at an address they can "
                         "reach" + (f" (this computer’s network address is {lan}, if the proxy listens there)" if lan
                                    else "") + f", or {public_hint}.")
    bound = (server_address or "").strip()
    if bound and _this_computer(bound):
        fix = f"open {instead}" if instead else "open this page at this computer’s network address"
        return Join(own, f"Students cannot open {here}: it is this computer, and this server listens only on it "
                         f"(server.address = {bound}). Start it with --server.address 0.0.0.0 and {fix}, or "
                         f"{public_hint}.")
    if bound:                      # Streamlit listens on one address of the network: that one
        lan = bound
    if not lan:
        return Join(own, f"Students cannot open {here}: it is this computer, and no network address of it was "
                         f"found. Open this page at an address students can reach, or {public_hint}.")
    host = f"[{lan}]" if ":" in lan else lan
    return Join(f"{parts.scheme}://{host}{port}/{path}?{query}",
                f"The link and the QR code use this computer’s network address, {lan}: {here} opens only on this "
                "computer.")


def lan_address() -> str | None:
    """This computer's address on its network (the source address of its default route; a UDP socket's connect
    sends nothing), or None; looked up at most once a minute."""
    return _lan_address(int(time.monotonic() // 60))


@functools.lru_cache(maxsize=1)
def _lan_address(minute: int) -> str | None:  # noqa: ARG001 - the cache's key: one lookup a minute
    for family, probe in ((socket.AF_INET, "192.0.2.1"), (socket.AF_INET6, "2001:db8::1")):
        try:
            with socket.socket(family, socket.SOCK_DGRAM) as sock:
                sock.connect((probe, 9))
                addr = ipaddress.ip_address(sock.getsockname()[0].split("%")[0])
        except (OSError, ValueError):
            continue
        if not (addr.is_loopback or addr.is_link_local or addr.is_unspecified):
            return str(addr)
    return None


def join_link(code: str, page: str) -> Join:
    """The join link (``<origin><baseUrlPath>/<page>?class=<code>``) for this browser's request: :func:`join_target`
    with this server's settings (relative to the server when the browser's URL is unknown, as in AppTest)."""
    try:
        url = st.context.url
        headers = st.context.headers
    except Exception:  # noqa: BLE001 - no browser context (AppTest)
        url, headers = None, {}
    public = os.environ.get(PUBLIC_URL_ENV, "").strip()
    if public and not re.match(r"https?://[^/\s]+", public):
        public = ""
    browser = str(st.get_option("browser.serverAddress") or "")
    if not public and st_config.is_manually_set("browser.serverAddress") and browser and not _this_computer(browser):
        public = f"http://{browser}:{st.get_option('browser.serverPort')}/" + str(st.get_option("server.baseUrlPath") or "").strip("/")
    local = bool(url) and _this_computer(urlsplit(url).hostname or "")
    return join_target(code, page, url, base=str(st.get_option("server.baseUrlPath") or ""), public=public,
                       proxied=bool(headers and headers.get("X-Forwarded-For")),
                       server_address=st.get_option("server.address"), lan=lan_address() if local else None)


@functools.lru_cache(maxsize=64)
def qr_data_uri(link: str) -> str:
    """The QR code of ``link`` as an SVG data URI (segno; dark on white, a quiet zone of 2 modules)."""
    return segno.make(link, error="m").svg_data_uri(scale=4, border=2, dark="#000000", light="#ffffff")


def page_query(params: dict[str, Any]) -> str:
    """The page's settings as a query string, without ``t``, ``class``, ``present``, ``hide``.

    >>> page_query({"T": "50", "t": "3", "class": "ABCDEF", "present": "1", "seed": "2"})
    'T=50&seed=2'
    """
    return urlencode([(k, str(v)) for k, v in params.items() if k not in EXCLUDED])


def _check(code: str) -> str | None:
    """None when ``code`` is a running session, else why not (a phrase with no untrusted text in it)."""
    if _store_lookup is None:
        return "class sessions are not available on this server"
    try:
        found = _store_lookup(code)
    except Exception:  # noqa: BLE001 - the store down: said, never a traceback
        return "the class session could not be looked up just now"
    if isinstance(found, dict):
        status = str(found.get("status") or ("ok" if found.get("code") else "unknown"))
    elif isinstance(found, str):
        status = found
    else:
        status = "ok" if found else "unknown"
    if status in ("ok", "open", "active", "running"):
        return None
    if status in ("ended", "expired"):
        return "that class session has ended or expired"
    if status == "malformed":
        return "not a class code (six letters and digits)"
    return "no class session has that code"


def _read_link(page: str) -> None:
    """``?class=<code>`` in the link: join as a student, or say in one sentence why not."""
    raw = st.query_params.get("class")
    if raw is None:
        return
    code = check_code(raw)
    sess = current()
    if (sess is not None and code == sess["code"]) or (code is not None and code == st.session_state.get(_LEFT)):
        return
    why = _check(code) if code is not None else "not a class code (six letters and digits)"
    if why is None:
        st.session_state[SESSION_KEY] = {"code": code, "role": "student", "join_page": page}
        st.session_state.pop(_BAD, None)
        return
    st.session_state[_BAD] = (page, f"the class code {safe.quote(raw, 20)} in the link: {why}; "
                                    "the page works on its own.")


def setup() -> None:
    """Every lesson page's class session part (after presentation mode's setup, which writes the page's modes)."""
    page = _page_path()
    _read_link(page)
    sess = current()
    if sess is not None:
        st.session_state[state.URL_EXTRA_KEY] = {**(st.session_state.get(state.URL_EXTRA_KEY) or {}),
                                                 "class": sess["code"]}
        modes = {k: v for k, v in (st.session_state.get(MODES_KEY) or {}).items() if k != "class"}
        st.session_state[MODES_KEY] = {"class": mode_options(sess, page, None), **modes}
    bad = st.session_state.get(_BAD)
    if isinstance(bad, tuple) and bad[0] == page:
        safe.notice("warning", "Class session: ", bad[1])
    ctx = get_script_run_ctx()
    if ctx is not None:
        _SLOTS.pop(ctx.session_id, None)
        if len(_SLOTS) > _MAX_SLOTS:   # runs that never reached offer() (a page without step_view)
            _SLOTS.clear()
        if page not in NO_VIEWER:
            # presentation mode folds the sidebar away: the button sits in the top bar, by the Settings button
            top = present.is_on() and sess is None
            _SLOTS[ctx.session_id] = (st.container(key=TOP_KEY) if top else st.sidebar.container(key="olc_class_side"))


def mode_options(sess: dict[str, Any], page: str, query: str | None) -> dict[str, Any]:
    """The viewer's ``class`` mode options (docs/class-session.md): the key only in the lecturer's own session;
    ``query`` None: the browser takes the page's settings from its address bar."""
    join = join_link(sess["code"], sess.get("join_page") or page)
    # the QR code goes to every role: a reloaded lecturer's tab opens as a student in Python (a new Streamlit
    # session) and is the lecturer again in the browser (its key in sessionStorage), which draws the panel
    opts: dict[str, Any] = {"code": sess["code"], "role": sess["role"], "ws": ws_path(), "join": join.link,
                            "qr": qr_data_uri(join.link), "page": page, "query": query, "reach": join.note}
    if sess["role"] == "lecturer" and sess.get("key"):
        opts["key"] = sess["key"]
    return opts


def with_class(modes: dict[str, Any] | None, settings: list, values: dict[str, Any]) -> dict[str, Any] | None:
    """The viewer modes of a page's run in a class session: ``modes`` (default the page's) with ``class`` first
    (its ``beforeStep`` holds a student's own step while "all eyes here" is on); unchanged outside a session."""
    sess = current()
    if sess is None:
        return modes
    base = modes if modes is not None else dict(st.session_state.get(MODES_KEY) or {})
    query = page_query(state.url_params(settings, values))
    return {"class": mode_options(sess, _page_path(), query), **{k: v for k, v in base.items() if k != "class"}}


def offer(settings: list, values: dict[str, Any]) -> None:
    """The sidebar's class session controls, once per run, in the slot :func:`setup` made."""
    ctx = get_script_run_ctx()
    slot = _SLOTS.pop(ctx.session_id, None) if ctx is not None else None
    if slot is None:
        return
    sess = current()
    with slot:
        if sess is None:
            query = page_query(state.url_params(settings, values))
            st.button("Start a class session", key="olc_class_start", icon=":material/groups:",
                      on_click=_start, args=(_page_path(), query),
                      help="Students join with a code or a QR code and follow your steps and settings on their "
                           "own screens.")
        else:
            for role, text in _said(sess).items():
                with st.container(key=f"olc_class_said_{role}"):
                    st.caption(text)
            st.button("Leave the class session", key="olc_class_leave", on_click=leave)


def _said(sess: dict[str, Any]) -> dict[str, str]:
    """The sidebar's sentence on this session, by role. Only a lecturer's own Streamlit session is sure of its role:
    a lecturer's tab reloaded opens a new Streamlit session from the ``?class=`` link (a student's, to Python) and is
    the lecturer again in the browser (its key in the tab's sessionStorage). So a link's session draws both
    sentences: the student's shows, and the lecturer's instead once the class mode in the browser has connected as
    the lecturer (it sets ``data-olc-class-role`` on the document; viewer.css shows the one for that role)."""
    lead = f"Class session {sess['code']} (you lead it)."
    if sess["role"] == "lecturer":
        return {"lead": lead}
    return {"student": f"Class session {sess['code']}: you joined it; your screen follows the lecturer's steps "
                       "(or explore on your own).", "lecturer": lead}


def _start(page: str, query: str) -> None:
    if _store_start is None:
        st.session_state[_BAD] = (page, "class sessions are not available on this server.")
        return
    try:
        code, key = _store_start(page, query)
    except Exception as exc:  # noqa: BLE001 - a bound (too many sessions) or the store down: said in one line
        why = getattr(exc, "why", None) or "the server could not start one just now"
        st.session_state[_BAD] = (page, f"no class session could be started: {why}")
        return
    st.session_state[SESSION_KEY] = {"code": str(code), "role": "lecturer", "key": str(key), "join_page": page}
    st.session_state.pop(_BAD, None)
    st.session_state.pop(_LEFT, None)


def leave() -> None:
    """Forget this Streamlit session's class session (the link that still carries its code does not rejoin)."""
    sess = current()
    if sess is not None:
        st.session_state[_LEFT] = sess["code"]
    st.session_state.pop(SESSION_KEY, None)
    extra = dict(st.session_state.get(state.URL_EXTRA_KEY) or {})
    extra.pop("class", None)
    st.session_state[state.URL_EXTRA_KEY] = extra


def apply_settings(value: object) -> None:
    """The settings bridge: a following student's viewer sent ``{query: <the lecturer's query>}``; the page's
    widgets take those values (checked as a link's are) before the script runs. ``{rejoin: <code>}``: see
    :func:`_rejoin`."""
    if isinstance(value, dict) and isinstance(value.get("rejoin"), str):
        _rejoin(value["rejoin"])
        return
    if not isinstance(value, dict) or current() is None:
        return
    query = value.get("query")
    if not isinstance(query, str) or len(query) > 100_000:
        return
    params = {k: v for k, v in parse_qsl(query, keep_blank_values=True) if k not in EXCLUDED}
    state.apply_query(params)


def _rejoin(raw: str) -> None:
    """The browser's class connection outlived this Streamlit session: its process died and the page's connection
    moved to another process, a new Streamlit session that knows no class session (Streamlit's frontend sends the
    query string the page was opened with, which a lecturer's did not carry: ``class`` was added to the address bar
    later). The viewer, rebuilt without the class mode though nobody pressed "Leave the class session", asks for it
    again (docs/class-session.md, "Faults in the middle of a lecture"): joined as a link's ``?class=`` joins (a
    lecturer's key in the tab makes it the lecturer again in the browser), unless this session left that code or it is
    no running session."""
    code = check_code(raw)
    if code is None or current() is not None or code == st.session_state.get(_LEFT) or _check(code) is not None:
        return
    st.session_state[SESSION_KEY] = {"code": code, "role": "student", "join_page": _page_path()}
