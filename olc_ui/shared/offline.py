"""A page's run as one offline HTML file (issue 36 §1): the step viewer itself — its JavaScript and CSS, plotly.js,
KaTeX with its fonts — and the run's spec, all inside one file that steps, plays, jumps to mistakes, answers the
keys and shows the ledger, the caption and the chart descriptions as the page does, opened from disk with the
network off.

How it is made: the viewer's modules are the bundle the Streamlit component runs (``assets.bundle_js``), its
default export handed to the page as ``window.__olcMount``; plotly.js (the bundle the page loads: the basic one when every
trace is a scatter, bar or pie, the gl3d one for a 3-D view, else the whole library; :func:`bundle`), KaTeX's script and
the viewer's bundle are stored gzip-compressed in base64 and unpacked by the browser's own ``DecompressionStream``
into inline scripts, the viewer's last (in a strict function of its own), and the viewer's
library cache (``window.__olcViewerLibs``, viewer_libs.js) is filled with them, so it asks for no URL; KaTeX's
fonts are ``data:`` URLs in its stylesheet; the spec is gzip-compressed JSON too. A Content-Security-Policy
(``default-src 'none'``) forbids the file any request: nothing leaves the page. The viewer's own "figure at
this round" download is left out (its file would be a part of this one).

A run whose spec is larger than :data:`MAX_SPEC_BYTES` is not written: :func:`too_large` says so, with the
largest T that fits.
"""
from __future__ import annotations

import base64
import functools
import gzip
import html
import json
import re
from collections import OrderedDict
from pathlib import Path
from typing import Any

from olc_core import transcript
from olc_core._transcript.texdoc import clip

from olc_ui.viewer import assets as viewer_assets
from olc_ui.viewer.assets import ASSET_DIR, PLOTLY_BASIC_VERSION, bundle_js, viewer_css

__all__ = ["offline_html", "fixed_size", "spec_bytes", "too_large", "MAX_SPEC_BYTES", "file_name", "packed", "script_text",
           "plotly_path", "page_html", "viewer_parts", "CSP", "UNPACK_JS", "FILL_LIBS_JS",
           "LIB_URLS", "NEEDS", "bundle", "spec_bundle", "trace_types"]

#: the largest spec (its JSON, before compression) an offline file carries
MAX_SPEC_BYTES = 24_000_000
#: names the viewer's library loader resolves to the inlined libraries (absolute URLs no request is made for)
LIB_URLS = {"plotly": "olc-offline:plotly", "katex_js": "olc-offline:katex.js", "katex_css": "olc-offline:katex.css"}
#: nothing may leave the page: no fetch, no script, style, font or image from anywhere but the file itself
CSP = ("default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; font-src data:; "
       "img-src data: blob:; connect-src 'none'; base-uri 'none'; form-action 'none'")


def packed(data: bytes) -> str:
    """gzip (level 9, no timestamp: the same bytes give the same file) then base64."""
    return base64.b64encode(gzip.compress(data, compresslevel=9, mtime=0)).decode("ascii")


def script_text(s: str) -> str:
    """Text for inside a <script>: no ``</script`` or ``<!--`` can end or change the element."""
    return re.sub(r"</(script)", r"<\\/\1", s, flags=re.I).replace("<!--", "<\\!--")


@functools.lru_cache(maxsize=1)
def _katex_css() -> str:
    """KaTeX's stylesheet with its woff2 fonts as data: URLs (the other formats dropped), as the figure export
    does (olc_ui/shared/common.py, viewer_export.js)."""
    k = ASSET_DIR / "katex"
    css = (k / "katex.min.css").read_text(encoding="utf-8")

    def font(m: re.Match) -> str:
        data = base64.b64encode((k / "fonts" / f"{m.group(1)}.woff2").read_bytes()).decode("ascii")
        return f'src:url(data:font/woff2;base64,{data}) format("woff2")'

    return re.sub(r'src:url\(fonts/([A-Za-z0-9_-]+)\.woff2\) format\("woff2"\)(?:,url\([^)]*\) format\("[a-z]+"\))*',
                  font, css)


def _viewer_module() -> str:
    """The viewer's bundle as a script: its default export becomes ``window.__olcMount``; the start script runs it,
    unpacked, inside a strict function of its own (:data:`FILL_LIBS_JS`), as a module's scope would keep it."""
    js = bundle_js()
    js, n = re.subn(r"^export default function \(component\)", "window.__olcMount = function (component)", js,
                    flags=re.M)
    if n != 1:
        raise ValueError("viewer.js: expected one `export default function (component)`")
    return re.sub(r"^export (const|function|class) ", r"\1 ", js, flags=re.M)


#: plotly.js's bundles a file can carry, by name: the name :func:`bundle` picks is the one the app loads
#: (olc_ui/viewer/assets.py ``plotly_url``: basic, else gl3d for a 3-D view, else the whole library)
_BUNDLE_KEYS = {"plotly_basic": "basic", "plotly_3d": "gl3d", "plotly": "full"}


def trace_types(figures) -> set[str]:
    """The plotly trace types of ``figures`` (plotly figure dicts)."""
    return {t.get("type", "scatter") for fig in figures for t in fig.get("data", [])}


def bundle(types) -> str:
    """The plotly.js bundle a file needs for traces of ``types``: ``"basic"``, ``"gl3d"`` or ``"full"`` — the rule
    the app's pages follow (``assets.plotly_url``), the partial bundles only when the installed plotly ships their
    version of plotly.js.

    >>> bundle({"scatter", "bar"}), bundle({"scatter", "scatter3d"}), bundle({"heatmap"})
    ('basic', 'gl3d', 'full')
    """
    _, version = viewer_assets._plotly_js()
    keys = dict(_BUNDLE_KEYS) if version == PLOTLY_BASIC_VERSION else {"plotly": "full"}
    return viewer_assets.plotly_url(keys, frozenset(types))


def spec_bundle(*specs: dict) -> str:
    """:func:`bundle` for every figure of ``specs`` together (a tour's file carries one bundle for all its stops)."""
    return bundle(trace_types(f["figure"] for s in specs for f in s.get("figures", [])))


def plotly_path(which: str = "basic") -> Path:
    """plotly.js as the file carries it: ``which`` of :func:`bundle` (a partial bundle only when the installed
    plotly package ships its plotly.js version, else the whole library)."""
    path, version = viewer_assets._plotly_js()
    if which in ("basic", "gl3d") and version == PLOTLY_BASIC_VERSION:
        path = ASSET_DIR / "plotly" / f"plotly-{which}-{PLOTLY_BASIC_VERSION}.min.js"
    return path


@functools.lru_cache(maxsize=3)
def _fixed(which: str) -> tuple[str, str]:
    """(head, tail): everything of the file but the spec and the page's words, with plotly.js's bundle ``which``."""
    libs = {"plotly": packed(plotly_path(which).read_bytes()),
            "katex": packed((ASSET_DIR / "katex" / "katex.min.js").read_bytes()),
            "viewer": packed(_viewer_module().encode("utf-8"))}
    head = (f"<style>{_OWN_CSS}</style><style>{viewer_css()}</style><style>{_katex_css()}</style>")
    tail = (f'<script type="application/octet-stream" id="olc-lib-plotly">{libs["plotly"]}</script>'
            f'<script type="application/octet-stream" id="olc-lib-katex">{libs["katex"]}</script>'
            f'<script type="application/octet-stream" id="olc-lib-viewer">{libs["viewer"]}</script>')
    return head, tail


def viewer_parts(which: str = "basic") -> tuple[str, str]:
    """(head, tail) of a file holding the step viewer: the styles (``head``); plotly.js (bundle ``which``) and KaTeX
    packed, and the viewer's module (``tail``). A start script of the caller's, after ``tail``, unpacks them
    (:data:`UNPACK_JS`) and mounts the viewer with ``window.__olcMount``."""
    return _fixed(which)


def fixed_size(which: str = "basic") -> int:
    """Bytes of the file that do not depend on the run (its libraries, the viewer, the styles), with plotly.js's
    bundle ``which`` (:func:`bundle`)."""
    head, tail = _fixed(which)
    return len((head + tail + _start()).encode("utf-8"))


#: The sizes of the specs measured lately: their key (:func:`_size_key`) -> (the spec's lists and dicts, held so that
#: their ids are not reused while the key stands, its size in bytes)
_SIZES: OrderedDict[tuple, tuple[tuple, int]] = OrderedDict()
_SIZES_MAX = 64


def _size_key(spec: dict) -> tuple | None:
    """A spec's key in :data:`_SIZES`: each top-level list and dict by identity, every other value by its value; None
    when a value cannot be a key. A page builds each run's spec once (cached) and adds its position on every rerun
    (a new dict around the same parts, which are never changed once built: olc_ui/viewer/component.py ``_PARTS``)."""
    key = tuple((k, ("id", id(v)) if isinstance(v, (dict, list)) else ("v", type(v).__name__, v))
                for k, v in spec.items())
    try:
        hash(key)
    except TypeError:
        return None
    return key


def spec_bytes(spec: dict) -> int:
    """The spec's JSON size in bytes (remembered: a rerun of the page measures its run's spec once, not on every run;
    it was a tenth of the server's time per step of the viewer, docs/load.md)."""
    key = _size_key(spec)
    hit = _SIZES.get(key) if key is not None else None
    if hit is not None:
        _SIZES.move_to_end(key)
        return hit[1]
    n = len(json.dumps(spec, allow_nan=False, separators=(",", ":")).encode("utf-8"))
    if key is not None:
        _SIZES[key] = (tuple(v for v in spec.values() if isinstance(v, (dict, list))), n)
        while len(_SIZES) > _SIZES_MAX:
            _SIZES.popitem(last=False)
    return n


def too_large(spec: dict) -> str | None:
    """None when the run fits in one file; else what to say: its size, the limit and the largest T that fits
    (the spec grows about linearly with T)."""
    n = spec_bytes(spec)
    if n <= MAX_SPEC_BYTES:
        return None
    T = int(spec["T"])
    fits = max(1, int(T * MAX_SPEC_BYTES / n * 0.95))
    return (f"This run is too large for one offline file: its data take {n / 1e6:.1f} MB and a file carries at most "
            f"{MAX_SPEC_BYTES / 1e6:.0f} MB. With T = {fits:,} rounds (or fewer) it fits.")


def offline_html(spec: dict, *, page: str, title: str = "", settings: dict[str, str] | None = None,
                 source: str | None = None, position: int | None = None) -> str:
    """The run as one self-contained HTML file (see the module docstring); ValueError when :func:`too_large`."""
    why = too_large(spec)
    if why:
        raise ValueError(why)
    spec = dict(spec)
    if position is not None:
        spec["position"] = max(0, min(int(spec["T"]), int(position)))
    payload = {"spec": spec, "assets": LIB_URLS, "download": page, "resume": False, "modes": {}}
    payload_b64 = packed(json.dumps(payload, allow_nan=False, separators=(",", ":")).encode("utf-8"))
    head, tail = _fixed(spec_bundle(spec))
    esc = (lambda s, n=80: html.escape(clip(s, n), quote=True))  # a caller's text: one line, clipped, escaped
    shown = title or (spec.get("figures") or [{}])[0].get("title", "") or page
    about = [f"Saved from olc's page <b>{esc(page)}</b>: {int(spec['T']):,} rounds, every one in this file "
             "(it needs no network). Keys: → / ← the next / previous round, Shift+→ / ← the next / previous mistake, "
             "Space play / pause, Home / End the first / last round."]
    if source:
        about.append(f"Uploaded file: {esc(source)}")
    if settings:
        about.append("Settings: " + ", ".join(f"{esc(k)} = {esc(v)}" for k, v in settings.items()))
    words = "".join(f"<p class=\"olc-offline-about\">{a}</p>" for a in about)
    body = (f"<main><h1>{esc(shown, 200)}</h1>{words}<div id=\"olc-run\"></div>"
            f"<noscript>This file draws the run with JavaScript: allow scripts to see it.</noscript></main>"
            f'<script type="application/octet-stream" id="olc-payload">{payload_b64}</script>{tail}'
            f'<script type="module">{script_text(_start())}</script>')
    return page_html(shown, head, body)


def page_html(title: str, head: str, body: str) -> str:
    """An offline file's skeleton: the doctype, the Content-Security-Policy (:data:`CSP`) and ``title`` (a
    caller's text: clipped to 200 characters and escaped); ``head`` and ``body`` are the caller's HTML."""
    t = html.escape(clip(title, 200), quote=True)
    return ("<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">"
            f"<meta http-equiv=\"Content-Security-Policy\" content=\"{CSP}\">"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
            f"<title>{t} — olc</title>{head}</head><body>{body}</body></html>")


def file_name(stem_settings: dict[str, str], page: str) -> str:
    """``page-settings-offline.html`` (as the transcript names its files)."""
    return transcript.file_name(page, stem_settings, "html", what="offline")


_OWN_CSS = ("body{margin:0;background:#fff;color:#31333f;font-family:\"Source Sans Pro\",system-ui,sans-serif}"
            "main{max-width:1400px;margin:0 auto;padding:1em 1.25em}h1{font-size:1.5em;margin:.2em 0 .4em}"
            ".olc-offline-about{margin:.2em 0;color:#444;font-size:.95em}#olc-run{margin-top:.8em}")

#: two functions an offline file's start script uses: ``olcUnpack(id)``, the text of a packed (gzip, base64) script
#: element, unpacked by the browser's DecompressionStream; ``olcRun(code, name)``, a library's code run as an inline
#: script, returning the global it defines (``name``) and leaving any earlier one in place
UNPACK_JS = r"""
async function olcUnpack(id) {
  const b64 = document.getElementById(id).textContent.trim();
  const bin = atob(b64);
  const bytes = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
  return await new Response(stream).text();
}
function olcRun(code, name) {
  const before = window[name];
  const s = document.createElement("script");
  s.textContent = code;
  document.head.appendChild(s);
  const mine = window[name];
  if (before !== undefined) window[name] = before;
  return mine;
}
"""

#: what a file says when it cannot draw (a browser without DecompressionStream, say)
NEEDS = "It needs a browser with DecompressionStream (Chrome or Edge 80+, Firefox 113+, Safari 16.4+)."

#: the libraries unpacked into the viewer's library cache (its names: ``__LIB_URLS__``), as a start script does
FILL_LIBS_JS = r"""
async function olcLibs(URLS) {
  const [plotly, katex, viewer] = await Promise.all(
    [olcUnpack("olc-lib-plotly"), olcUnpack("olc-lib-katex"), olcUnpack("olc-lib-viewer")]);
  const libs = window.__olcViewerLibs || (window.__olcViewerLibs = {});
  libs[URLS.plotly] = Promise.resolve(olcRun(plotly, "Plotly"));
  libs[URLS.katex_js] = Promise.resolve(olcRun(katex, "katex"));
  libs[URLS.katex_css] = Promise.resolve(null);
  const s = document.createElement("script");
  s.textContent = '(function () {"use strict";\n' + viewer + "\n})();";
  document.head.appendChild(s);
  if (typeof window.__olcMount !== "function") throw new Error("the viewer's script did not run");
}
"""

#: unpack the libraries and the payload, fill the viewer's library cache, mount the viewer
_START = r"""
(async function () {
  "use strict";
  const box = document.getElementById("olc-run");
  try {
    await olcLibs(__LIB_URLS__);
    const data = JSON.parse(await olcUnpack("olc-payload"));
    const t = new URLSearchParams(window.location.search).get(data.spec.url_param || "t");
    if (t !== null && /^[0-9]+$/.test(t)) data.spec.position = Math.min(Number(t), data.spec.T);
    window.__olcMount({ data, parentElement: box, setStateValue: () => {} });
  } catch (err) {
    box.textContent = "This file could not draw the run: " + (err && err.message ? err.message : err) + ". __NEEDS__";
    box.setAttribute("role", "alert");
  }
})();
"""


def _start() -> str:
    return (UNPACK_JS + FILL_LIBS_JS + _START).replace("__LIB_URLS__", json.dumps(LIB_URLS)).replace("__NEEDS__", NEEDS)
