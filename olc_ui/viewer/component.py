"""The step viewer: a Streamlit custom component (v2) that steps through a finished run in the browser.

Python builds a JSON *spec* (docs/viewer-spec.md; olc_ui/viewer/spec.py validates it) once per run;
:func:`viewer` mounts the component, which draws the spec's plotly figures, KaTeX ledger and caption and
steps through the run without a server round trip per step. It returns the current
position; the browser reports it only when stepping pauses.

    from olc_ui.viewer.component import viewer
    p = viewer(spec, key="perceptron")       # 0 … spec["T"]

A page whose spec takes a while to build or send calls :func:`preload` early in its script, so the browser
loads plotly.js and KaTeX while Python still works (the viewer then finds them loaded).
"""
from __future__ import annotations

import functools
import hashlib
import json
import re
from collections import OrderedDict
from pathlib import Path
from typing import Any, Callable

import streamlit as st

from olc_ui.viewer.assets import (BASIC_TRACE_TYPES, GL3D_TRACE_TYPES, assets as served_assets, bundle_js,
                                  component_js, plotly_url, script_js, viewer_css)
from olc_ui.viewer.spec import MODES_KEY, _is_int, validate_spec

__all__ = ["viewer", "preload", "last_key", "live_positions", "take_game_move"]

COMPONENT_NAME = "olc_step_viewer"


@functools.lru_cache(maxsize=1)
def _component():
    return st.components.v2.component(
        COMPONENT_NAME,
        js=component_js(),     # imports the viewer's module, a cached file (olc_ui/viewer/assets.py)
        css=viewer_css(),      # assets/viewer.css without its comments (every visit's websocket carries it)
        isolate_styles=False,  # plotly.js styles and KaTeX fonts live in the document
    )


#: What DOMPurify (st.html's sanitiser) takes for markup inside a script's text: it drops such a script whole
_MARKUP_RE = re.compile(r"<[/\w!]")


@functools.lru_cache(maxsize=1)
def _libs_js() -> str:
    """assets/viewer_libs.js as a classic script's body, without its comment lines: the viewer's own loader, so a
    preload fills the very cache (``window.__olcViewerLibs``, by URL) the viewer reads."""
    code = "\n".join(ln for ln in script_js("viewer_libs.js").splitlines() if not ln.lstrip().startswith("//"))
    if _MARKUP_RE.search(code):
        raise ValueError("viewer_libs.js: `<` followed by a letter, `/` or `!` outside a comment line: st.html "
                         "would drop the preload script (write `a < b` with a space)")
    return code


def _libs(assets: dict[str, str], full: bool, types=None) -> dict[str, str]:
    """The libraries the viewer loads: the plotly.js bundle for trace ``types`` (olc_ui/viewer/assets.py, plotly_url);
    without them, the basic bundle unless ``full`` (a 3-D view: the gl3d bundle)."""
    types = types if types is not None else (GL3D_TRACE_TYPES if full else {"scatter"})
    return {"plotly": plotly_url(assets, types),
            "katex_js": assets["katex_js"], "katex_css": assets["katex_css"]}


@functools.lru_cache(maxsize=1)
def _bidi_chunk() -> str | None:
    """The file name of Streamlit's lazily loaded chunk that mounts a v2 component (``static/js/BidiComponent.<hash>.js``),
    when exactly one is installed and Streamlit's main bundle imports it; else None."""
    static = Path(st.__file__).resolve().parent / "static"
    chunks = sorted((static / "static" / "js").glob("BidiComponent.*.js"))
    try:
        main = re.search(r'src="\./(static/js/index\.[\w-]+\.js)"', (static / "index.html").read_text(encoding="utf-8"))
        imports = (static / main.group(1)).read_text(encoding="utf-8") if main else ""
    except OSError:
        return None
    if len(chunks) != 1 or not re.fullmatch(r"BidiComponent\.[\w-]+\.js", chunks[0].name):
        return None
    return chunks[0].name if f"./{chunks[0].name}" in imports else None


def preload(*, full: bool = False) -> None:
    """Start loading plotly.js (``full``: the bundle of a 3-D view; else the basic one, for scatter, bar and pie traces)
    and KaTeX now, while the page script goes on: the step viewer mounted later finds them loaded, or loading,
    instead of asking for them only once its spec has arrived. Draws nothing (a script-only element, which
    olc_ui/shared/page.py's CSS gives no row)."""
    urls = json.dumps(_libs(served_assets(), full))
    chunk = _bidi_chunk()  # Streamlit's code that mounts the component, imported now rather than with the spec
    mount = f'import(new URL("static/js/{chunk}", serverBase()).href).catch(() => {{}});\n' if chunk else ""
    st.sidebar.html(f"<script>(() => {{\n{_libs_js()}\nconst l = loadLibs({urls});\n"
                    f"l.plotly.catch(() => {{}}); l.katex.catch(() => {{}});\n{mount}}})();</script>",
                    unsafe_allow_javascript=True)


_VALID: OrderedDict[str, None] = OrderedDict()
#: The JSON of the large parts of the specs shown lately, by identity: ``id(part) -> (part, its JSON)`` (the part
#: is held, so its id is not reused). Specs are built once per run and cached (``st.cache_resource``): their parts
#: are the same objects on every rerun and in every session, and are never changed once shown.
_PARTS: OrderedDict[int, tuple[Any, str]] = OrderedDict()
_PARTS_MAX = 96


def _dump(spec: Any) -> str:
    try:
        return json.dumps(spec, allow_nan=False, separators=(",", ":"))
    except ValueError as exc:
        raise ValueError("viewer spec: contains NaN or infinity; use None for undefined values "
                         "(olc_ui.viewer.jsonable converts)") from exc
    except TypeError as exc:
        raise ValueError(f"viewer spec: not plain JSON data ({exc}); convert numpy arrays and scalars "
                         "with olc_ui.viewer.jsonable") from exc


def _part(value: Any) -> str:
    """``value``'s JSON, from :data:`_PARTS` when this same object was dumped before."""
    if not isinstance(value, (dict, list)):
        return _dump(value)
    hit = _PARTS.get(id(value))
    if hit is not None and hit[0] is value:
        _PARTS.move_to_end(id(value))
        return hit[1]
    text = _dump(value)
    _PARTS[id(value)] = (value, text)
    while len(_PARTS) > _PARTS_MAX:
        _PARTS.popitem(last=False)
    return text


def _dump_spec(spec: dict) -> str:
    """The spec's JSON, the same text as :func:`_dump`'s, with each top-level part's from :func:`_part`
    (a rerun with the same run's spec dumps nothing again)."""
    if not isinstance(spec, dict) or not all(isinstance(k, str) for k in spec):
        return _dump(spec)
    return "{" + ",".join(f"{_dump(k)}:{_part(v)}" for k, v in spec.items()) + "}"


#: The first line of the data the viewer is sent (see :func:`_payload`)
PAYLOAD_HEAD = b"olc-viewer "


def _payload(spec_json: str, rest: dict) -> bytes:
    """The viewer's data as Streamlit forwards them untouched: ``olc-viewer <digest>``, a newline, then the JSON of
    ``{"spec": …, **rest}``. Sent as a dict, the data would be dumped twice more by Streamlit on every run (its
    message, and its element identity's hash: ~0.2 s for a 2.7 MB spec); bytes are sent as they are, and the browser
    parses the JSON only when the digest differs from the last one it parsed (a rerun sends the same bytes)."""
    rest_json = _dump(rest)
    body = ('{"spec":' + spec_json + ("," + rest_json[1:] if len(rest_json) > 2 else "}")).encode("utf-8")
    return PAYLOAD_HEAD + hashlib.blake2b(body, digest_size=16).hexdigest().encode("ascii") + b"\n" + body


def decode_payload(raw: bytes) -> dict:
    """The data :func:`_payload` made, as a dict (for tests and benches that read Streamlit's messages)."""
    head, sep, body = bytes(raw).partition(b"\n")
    if not sep or not head.startswith(PAYLOAD_HEAD):
        raise ValueError("not the step viewer's data")
    return json.loads(body)


def last_key(key: str) -> str:
    """The session-state key of the position the viewer ``key`` last returned."""
    return f"_olc_viewer_last::{key}"


#: Session-state key of the positions the viewers of this session last returned, by run (``run_id -> t``)
LIVE_KEY = "_olc_viewer_live"
_LIVE_MAX = 16


def live_positions() -> dict[str, int]:
    """This session's ``{run_id: position}`` as the viewers last returned it: the same dict object from run to run, so
    that what reads it later (a download built when clicked, olc_ui/shared/common.py) sees the position of the
    viewer's latest run, also of a run of the viewer's fragment alone (olc_ui/shared/page.py: a step reruns only the
    viewer, not the download buttons under it)."""
    got = st.session_state.get(LIVE_KEY)
    if not isinstance(got, dict):
        got = st.session_state[LIVE_KEY] = {}
    return got


def _mounted(key: str) -> bool:
    """Whether the component ``key`` has state from an earlier run of this page (not cleaned up)."""
    try:
        return key in st.session_state
    except Exception:  # pragma: no cover - no session
        return False


def _touch(pin_key: str) -> None:
    pin = st.session_state.get(pin_key)
    if isinstance(pin, dict):
        pin["touched"] = True


def _class_settings(key: str, apply: Callable[[object], None] | None) -> None:
    """The class session's settings bridge: a following student's viewer sent the lecturer's query
    (``setStateValue("class_settings", {query, run})``); ``apply`` (the page's, olc_ui/shared/class_session.py)
    gives it to the page's widgets before the script runs."""
    got = st.session_state.get(key)
    if apply is not None:
        apply(got.get("class_settings") if hasattr(got, "get") else None)


def _game_move_key(key: str) -> str:
    return f"_olc_viewer_game_move::{key}"


def _game_move(key: str) -> None:
    """A game mode's move from the board (``setStateValue("game_move", …)``, e.g. a point clicked on the plane:
    assets/viewer_game_plane.js), kept for the page's next run to take (:func:`take_game_move`)."""
    got = st.session_state.get(key)
    st.session_state[_game_move_key(key)] = got.get("game_move") if hasattr(got, "get") else None


def take_game_move(key: str) -> Any:
    """The move the board of viewer ``key`` sent since the last call (None if none): each is taken once."""
    return st.session_state.pop(_game_move_key(key), None)


def _position(pin_key: str, key: str, goto: Callable[[object], int | None] | None) -> None:
    """The browser reported a position: the run on screen was stepped (``pin["touched"]``). A tour's move to
    another stop on this page reports ``{t, tour_stop: {tour, stop}}`` (assets/viewer_tour.js: one report, one
    rerun): ``goto`` (the page's, olc_ui/shared/tours/bar.goto) gives the page the stop's settings and returns its
    round, where a new run then opens (the run on screen was moved there by the browser itself)."""
    _touch(pin_key)
    got = st.session_state.get(key)
    moved = got.get("position") if hasattr(got, "get") else None
    if isinstance(moved, dict) and goto is not None:
        t = goto(moved.get("tour_stop"))
        if _is_int(t):
            st.session_state[last_key(key)] = int(t)


def viewer(spec: dict, *, key: str, download: str | None = None, modes: dict | None = None,
           on_class_settings: Callable[[object], None] | None = None,
           on_tour_stop: Callable[[object], int | None] | None = None) -> int:
    """Mount the step viewer for ``spec`` and return the current position (0 … T).

    The viewer offers "Download the figure at this round (HTML)", built in the browser
    from the round on screen, saved as ``<download>_round_<t>.html`` (``download``
    defaults to ``key`` without its ``_viewer`` suffix).

    ``spec["position"]`` is used when the run (``run_id``) is new to this viewer;
    afterwards the position is the browser's, reported when stepping pauses. With the
    same ``run_id`` the browser keeps its position and draws nothing again.
    ``modes``: the viewer modes to run in ({name: options}; default: the page's, from
    ``st.session_state[MODES_KEY]``, e.g. presentation mode's). ``on_class_settings``: in a class session, what
    takes the lecturer's settings a following student's viewer sends (the viewer imports no page code: the page
    frame, olc_ui/shared/page.py, hands it ``class_session.apply_settings``). ``on_tour_stop``: on a tour's stop,
    what moves the page to another stop of it on the same page (the page frame hands it olc_ui/shared/tours/bar.goto).
    Raises ``ValueError`` for a malformed spec (see :func:`validate_spec`).
    """
    if not isinstance(key, str) or not key:
        raise ValueError("viewer: key must be a non-empty string")
    blob = _dump_spec(spec)
    digest = hashlib.blake2b(blob.encode("utf-8"), digest_size=16).hexdigest()
    if digest not in _VALID:
        validate_spec(spec)
        _VALID[digest] = None
        while len(_VALID) > 64:
            _VALID.popitem(last=False)
    else:
        _VALID.move_to_end(digest)

    if not st.get_option("server.enableStaticServing"):
        st.error("The step viewer needs Streamlit's static file serving: start the app from the repository "
                 "root (its .streamlit/config.toml sets `[server] enableStaticServing = true`).")

    T = spec["T"]
    pin_key = f"_olc_viewer_pin::{key}"
    pin = st.session_state.get(pin_key)
    # a remount (back from another page) starts a fresh component: it opens at spec["position"]
    mounted = _mounted(key)
    if not isinstance(pin, dict) or pin.get("run_id") != spec["run_id"] or not mounted:
        # back from another page without a link's ?t=: the browser may resume at the round it
        # last showed of this run (a round reached during Play was never reported to Python)
        resume = not mounted and spec.get("url_param", "t") not in st.query_params
        pin = {"run_id": spec["run_id"], "position": spec["position"], "touched": False, "resume": resume}
        st.session_state[pin_key] = pin
    # The data sent stays identical while run_id does (so the browser does not even
    # re-parse it): the position in it is the one this run started at.
    data_spec = spec if spec["position"] == pin["position"] else {**spec, "position": pin["position"]}
    assets = served_assets()
    types = {t.get("type", "scatter") for f in spec["figures"] for t in f["figure"]["data"]}
    chosen = {**_libs(assets, full=False, types=types), "export": assets["export"]}
    name = download or (key[: -len("_viewer")] if key.endswith("_viewer") else key)
    if modes is None:
        modes = st.session_state.get(MODES_KEY) or {}
    payload = _payload(blob if data_spec is spec else _dump_spec(data_spec),
                       {"assets": chosen, "download": name, "resume": bool(pin.get("resume")), "modes": modes})
    result = _component()(key=key, data=payload,
                          on_position_change=functools.partial(_position, pin_key, key, on_tour_stop),
                          on_class_settings_change=functools.partial(_class_settings, key, on_class_settings),
                          on_game_move_change=functools.partial(_game_move, key))
    state = result.get("position") if hasattr(result, "get") else None
    if isinstance(state, dict):       # a tour's move: {t, tour_stop}
        state = state.get("t")
    current = max(0, min(T, int(state))) if pin["touched"] and _is_int(state) else int(pin["position"])
    st.session_state[last_key(key)] = current
    live = live_positions()
    live.pop(str(spec["run_id"]), None)
    live[str(spec["run_id"])] = current
    while len(live) > _LIVE_MAX:
        live.pop(next(iter(live)))
    return current
