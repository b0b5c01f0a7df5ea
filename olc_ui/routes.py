"""The server side of ``streamlit run app.py``: Streamlit's own server plus two small middlewares.

Why (docs/deployment.md, "Direct links"): opened on a direct link such as ``/perceptron?T=50``,
Streamlit's frontend cannot tell whether ``perceptron`` is a page or a prefix the app is served
under, so it probes ``/perceptron/_stcore/health`` and ``/perceptron/_stcore/host-config`` before
the root (``PD()``/``VD()`` in streamlit/static/static/js/index.*.js), and Streamlit's server
answers both with 404 on purpose (``_RESERVED_STATIC_PATH_SUFFIXES`` in
streamlit/web/server/starlette/starlette_static_routes.py): a 200 there would make the frontend take
``/perceptron`` for the server's root. Chromium logs each 404 as a red console error.

The server does know: it was asked for the page ``perceptron`` under its ``server.baseUrlPath``.
:class:`PageBaseMiddleware` adds that to the HTML page Streamlit serves for such a path: one inline
script, run before Streamlit's bundle, that sets ``window.__streamlit.BACKEND_BASE_URL`` (the
frontend's setting for where its server lives) to the page's own URL minus the page path, so that a
prefix added by a proxy in front is kept. The frontend then probes that root only. Everything else
(status, caching, the HTML itself) is Streamlit's; if the page does not look as expected (no
``<head>``, not HTML, a URL that does not end in the page path), nothing is changed and the frontend
probes as before: two 404s in the console, nothing broken.

:class:`AssetMiddleware` serves, compressed once per process and file and cached by the browser for a year
(``Cache-Control: immutable``; their names change with their content), what a first visit downloads: the step
viewer's libraries (plotly.js, KaTeX, the figure download: what olc_ui/viewer/assets.py copies into ``static/olc/``)
and Streamlit's own frontend (``/static/…/*.js|css``, which Streamlit sends uncompressed on purpose rather than
compress it again on every request), and the icon font cut to the icons the app shows (olc_ui/static_files.py).
Any other path, a range or an odd request goes on to Streamlit.

Every other response that compresses (a page's HTML, JSON) is compressed by Starlette's ``GZipMiddleware``, the
outermost layer: it leaves alone what is already encoded, so the files above are not compressed twice, and it
compresses the page HTML :class:`PageBaseMiddleware` edited (whose request went on without ``Accept-Encoding``).
"""
from __future__ import annotations

import asyncio
import json
import re
from pathlib import Path

import streamlit as st
from starlette.middleware import Middleware
from starlette.middleware.gzip import GZipMiddleware

from olc_ui import static_files
from olc_ui.viewer import assets as viewer_assets

#: A page path as olc's links have them (``perceptron``, ``margin_perceptron``): letters, digits,
#: ``_`` and ``-`` segments. Anything else (a file name with a dot, an encoded character) is left alone.
_PAGE_PATH = re.compile(r"[A-Za-z0-9_-]+(?:/[A-Za-z0-9_-]+)*")
#: First segments that are Streamlit's own routes, never a page.
_NOT_PAGES = frozenset({"_stcore", "static", "media", "component", "app"})
#: Request headers dropped for a page's HTML: the body is edited (so not gzip-encoded, and not a
#: 304 against the unedited file's validators).
_DROPPED_REQUEST = frozenset({b"accept-encoding", b"if-none-match", b"if-modified-since"})
#: Response headers that describe the unedited body.
_DROPPED_RESPONSE = frozenset({b"content-length", b"etag", b"last-modified"})


#: The default page's url path (olc_ui/catalog.py, app.py): Streamlit serves the default page at the root
#: only, so a link to ``/home`` opened "Page not found"; it is redirected to the root, query kept.
DEFAULT_PAGE = "home"


def redirect_to_root(rel: str, base_url: str | None, query: bytes) -> bytes | None:
    """The Location for a request of the default page by its own path (``/home?x=1`` → ``/?x=1``), else None.

    >>> redirect_to_root("home", "", b"round=3"), redirect_to_root("home", "/olc/", b""), redirect_to_root("perceptron", "", b"")
    (b'/?round=3', b'/olc/', None)
    """
    if rel != DEFAULT_PAGE:
        return None
    base = (base_url or "").strip("/")
    root = f"/{base}/" if base else "/"
    return root.encode() + (b"?" + query if query else b"")


def page_path(path: str, base_url: str | None) -> str | None:
    """The page part of request ``path`` under ``base_url`` (``server.baseUrlPath``), or None.

    >>> page_path("/perceptron", ""), page_path("/olc/perceptron", "/olc/"), page_path("/", "")
    ('perceptron', 'perceptron', None)
    """
    base = (base_url or "").strip("/")
    prefix = f"/{base}" if base else ""
    if prefix and not path.startswith(prefix + "/"):
        return None
    rel = path[len(prefix):].strip("/")
    if not _PAGE_PATH.fullmatch(rel) or rel.split("/")[0] in _NOT_PAGES:
        return None
    return rel


def base_url_script(rel: str) -> bytes:
    """The inline script for the page at ``rel``: BACKEND_BASE_URL = this URL minus ``/rel``."""
    page = json.dumps("/" + rel)  # rel matched _PAGE_PATH: nothing to escape inside <script>
    return ("<script>/* olc_ui/routes.py: where Streamlit's server is, so that the frontend does not "
            "probe <page>/_stcore/health (a 404) first */(function(){"
            "var s=window.__streamlit||{};if(s.BACKEND_BASE_URL)return;"
            f"var page={page},p=location.pathname.replace(/\\/+$/,'');"
            "if(p.slice(-page.length)!==page)return;"
            "var u=new URL(location.href);u.pathname=p.slice(0,-page.length)+'/';u.search='';u.hash='';"
            "window.__streamlit=Object.assign({},s,{BACKEND_BASE_URL:u.href});})();</script>"
            ).encode()


def preload_links(rel: str, query: bytes) -> bytes:
    """``<link rel="preload">`` for what the page's step viewer will load (olc_ui/viewer/assets.py, preload_urls), each
    URL relative to the page's own (``rel`` has no ``..``: one ``../`` per ``/`` in it), so a proxy's prefix is kept.

    >>> preload_links("bound_explorer", b""), preload_links("a/b", b"")
    (b'', b'')
    >>> b'href="app/static/olc/katex-' in preload_links("winnow", b"")
    True
    """
    up = "../" * rel.count("/")
    return "".join(f'<link rel="modulepreload" href="{up}{url}">' if kind == "modulepreload" else
                   f'<link rel="preload" href="{up}{url}" as="{kind}">'
                   for url, kind in viewer_assets.preload_urls(rel, query)).encode()


def inject(html: bytes, script: bytes) -> bytes | None:
    """``html`` with ``script`` first in its ``<head>``; None when there is no ``<head>``."""
    at = html.find(b"<head>")
    if at < 0:
        return None
    at += len(b"<head>")
    return html[:at] + script + html[at:]


def _is_plain_html(start: dict) -> bool:
    headers = {k.lower(): v for k, v in start.get("headers", [])}
    return (start.get("status") == 200 and headers.get(b"content-type", b"").startswith(b"text/html")
            and b"content-encoding" not in headers)


class PageBaseMiddleware:
    """ASGI middleware: on a page's HTML, tell Streamlit's frontend where its server is (see above)."""

    def __init__(self, app, base_url: str | None = None):
        self.app = app
        self._base_url = base_url

    def base_url(self) -> str:
        if self._base_url is not None:
            return self._base_url
        return st.get_option("server.baseUrlPath") or ""

    async def __call__(self, scope, receive, send):
        rel = None
        if scope["type"] == "http" and scope.get("method") == "GET":
            rel = page_path(scope.get("path", ""), self.base_url())
        if rel is None:
            await self.app(scope, receive, send)
            return
        location = redirect_to_root(rel, self.base_url(), scope.get("query_string", b""))
        if location is not None:
            await send({"type": "http.response.start", "status": 307,
                        "headers": [(b"location", location), (b"content-length", b"0")]})
            await send({"type": "http.response.body", "body": b"", "more_body": False})
            return
        headers = [(k, v) for k, v in scope.get("headers", []) if k.lower() not in _DROPPED_REQUEST]
        head = base_url_script(rel) + preload_links(rel, scope.get("query_string", b""))
        await self.app(dict(scope, headers=headers), receive, _Editor(send, head))


class _Editor:
    """The ``send`` of one page request: holds a 200 HTML response, adds the script, sends it on."""

    def __init__(self, send, script: bytes):
        self.send, self.script = send, script
        self.start: dict | None = None
        self.chunks: list[bytes] = []

    async def __call__(self, message):
        if message["type"] == "http.response.start" and _is_plain_html(message):
            self.start = message
            return
        if message["type"] != "http.response.body" or self.start is None:
            await self.send(message)
            return
        self.chunks.append(message.get("body", b""))
        if message.get("more_body", False):
            return
        original = b"".join(self.chunks)
        body = inject(original, self.script) or original
        headers = [(k, v) for k, v in self.start.get("headers", []) if k.lower() not in _DROPPED_RESPONSE]
        headers.append((b"content-length", str(len(body)).encode()))
        await self.send(dict(self.start, headers=headers))
        await self.send({"type": "http.response.body", "body": body, "more_body": False})


_ASSET_PATH = re.compile(r"[A-Za-z0-9_-][A-Za-z0-9._-]*(?:/[A-Za-z0-9_-][A-Za-z0-9._-]*)*")
#: a year: the names change with the content (olc_ui/viewer/assets.py; Streamlit's hashed file names)
IMMUTABLE = b"public, max-age=31536000, immutable"


def _under(path: str, base_url: str | None, prefix: str) -> str | None:
    base = (base_url or "").strip("/")
    full = (f"/{base}" if base else "") + prefix
    if not path.startswith(full):
        return None
    rel = path[len(full):]
    if not _ASSET_PATH.fullmatch(rel) or ".." in rel or Path(rel).suffix not in static_files.TYPES:
        return None
    return rel


def asset_path(path: str, base_url: str | None) -> str | None:
    """The file under ``static/olc/`` that request ``path`` asks for, or None.

    >>> asset_path("/app/static/olc/katex-0.19.1/katex.min.js", ""), asset_path("/olc/app/static/olc/x.js", "/olc/")
    ('katex-0.19.1/katex.min.js', 'x.js')
    >>> asset_path("/app/static/olc/../secret.js", ""), asset_path("/app/static/other.js", ""), asset_path("/x.js", "")
    (None, None, None)
    """
    return _under(path, base_url, f"/app/static/{viewer_assets.STATIC_SUBDIR}/")


def streamlit_path(path: str, base_url: str | None) -> str | None:
    """The file of Streamlit's frontend (under ``streamlit/static/static/``) that request ``path`` asks for, or None.

    >>> streamlit_path("/static/js/index.Ab1.js", ""), streamlit_path("/olc/static/css/index.C1.css", "/olc/")
    ('js/index.Ab1.js', 'css/index.C1.css')
    >>> streamlit_path("/static/js/../../x.js", ""), streamlit_path("/static/media/a.png", ""), streamlit_path("/x/static/a.js", "")
    (None, None, None)
    """
    return _under(path, base_url, "/static/")


class AssetMiddleware:
    """ASGI middleware: the files of a first visit, compressed once, cached by the browser (see above)."""

    def __init__(self, app, base_url: str | None = None, root: str | Path | None = None):
        self.app = app
        self._base_url, self._root = base_url, root
        self._compressed = static_files.Compressed()

    def root(self) -> Path | None:
        return Path(self._root) if self._root is not None else viewer_assets.static_dir()

    def _file(self, scope) -> Path | None:
        if scope["type"] != "http" or scope.get("method") not in ("GET", "HEAD"):
            return None
        if any(k.lower() == b"range" for k, _ in scope.get("headers", [])):
            return None
        base = self._base_url if self._base_url is not None else (st.get_option("server.baseUrlPath") or "")
        path = scope.get("path", "")
        rel = streamlit_path(path, base)
        if rel is not None:
            return static_files.streamlit_file(rel)
        rel, root = asset_path(path, base), self.root()
        if rel is None or root is None:
            return None
        file = (root / rel).resolve()
        return file if file.is_relative_to(root.resolve()) and file.is_file() else None

    async def __call__(self, scope, receive, send):
        file = self._file(scope)
        if file is None:
            await self.app(scope, receive, send)
            return
        headers = {k.lower(): v for k, v in scope.get("headers", [])}
        ctype, compressible = static_files.TYPES[file.suffix]
        accept = headers.get(b"accept-encoding", b"")
        codings = tuple(c for c in ("br", "gzip") if compressible and static_files.accepts(accept, c.encode()))
        body, _, coding = await asyncio.to_thread(self._compressed.body, file, codings)
        # no ETag: a file cached as immutable for a year is never revalidated (and 120 of them on a first visit)
        out = [(b"content-type", ctype), (b"cache-control", IMMUTABLE)]
        if compressible:
            out.append((b"vary", b"Accept-Encoding"))
        out += [(b"content-length", str(len(body)).encode())] + ([(b"content-encoding", coding.encode())] if coding else [])
        await send({"type": "http.response.start", "status": 200, "headers": out})
        await send({"type": "http.response.body", "body": b"" if scope["method"] == "HEAD" else body, "more_body": False})


def middleware() -> list:
    """The middleware list for ``st.App(..., middleware=...)`` in app.py."""
    return [Middleware(GZipMiddleware, minimum_size=500, compresslevel=6),
            Middleware(PageBaseMiddleware), Middleware(AssetMiddleware)]
