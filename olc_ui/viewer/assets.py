"""The step viewer's assets: its ES modules and stylesheet (``assets/viewer*.js``, ``viewer.css``, bundled
into the one module the component runs) and the libraries it loads (plotly.js, KaTeX), copied into the app's
``static/olc/`` and served by Streamlit's static file serving.

Assets: plotly.js (the full bundle from the installed ``plotly`` package, and two vendored partial bundles in
``olc_ui/viewer/assets/plotly``: the basic one, 4x smaller, used when every trace is a scatter, bar or pie, and the
gl3d one, for a 3-D view) and KaTeX (vendored in ``olc_ui/viewer/assets/katex``) are copied at
import time into ``static/olc/`` next to the app's main script and served by
Streamlit's static file serving (``.streamlit/config.toml``:
``[server] enableStaticServing = true``), so the browser loads each once per page and
caches it.
"""
from __future__ import annotations

import functools
import hashlib
import json
import logging
import os
import re
import shutil
import tempfile
from pathlib import Path

import plotly
from streamlit import config as st_config

__all__ = ["ASSET_DIR", "VIEWER_PAGES", "component_js", "GL3D_TRACE_TYPES", "bundle_js", "trim_css", "trim_js", "viewer_css", "plotly_url", "preload_urls", "script_js", "static_dir", "ensure_static_assets", "assets", "KATEX_VERSION", "BASIC_TRACE_TYPES"]

_LOG = logging.getLogger(__name__)

ASSET_DIR = Path(__file__).resolve().parent / "assets"
KATEX_VERSION = "0.19.1"
#: The vendored plotly.js basic bundle (scatter, bar, pie): used when a spec needs no
#: other trace type and the installed plotly package ships the same plotly.js version.
PLOTLY_BASIC_VERSION = "4.1.1"
BASIC_TRACE_TYPES = frozenset({"scatter", "bar", "pie"})
#: The vendored gl3d bundle (same version): the 3-D traces and scatter, for a 3-D view (the Perceptron with d = 3)
#: instead of the full bundle (1.75 MB against 4.8 MB).
GL3D_TRACE_TYPES = frozenset({"scatter", "scatter3d", "mesh3d", "surface", "isosurface", "volume", "cone", "streamtube"})
#: Sub-folder of the app's ``static/`` folder that this module fills.
STATIC_SUBDIR = "olc"
#: The figure download (built in the browser from the round on screen), loaded on the first click.
EXPORT_JS = "viewer_export.js"


#: The pages (url paths) whose script mounts the step viewer: their HTML asks the browser for the viewer's libraries
#: at once (olc_ui/routes.py, :func:`preload_urls`), while Streamlit's frontend loads and connects, rather than once
#: the page's script has run. tests/ui/test_static_files.py checks it against pages/*.py.
VIEWER_PAGES = frozenset({"perceptron", "margin_perceptron", "ftrl", "winnow", "exponentiated_update", "experts",
                          "halving", "boolean_concepts", "compare"})
#: The query that makes a page draw in 3-D, whose plotly.js is not the 2-D bundle (the Perceptron with d = 3:
#: olc_ui/lessons/perceptron/lesson.py, ``full_plotly``; a test checks the two agree).
THREE_D_QUERY = {"perceptron": (b"d", b"3")}


# --------------------------------------------------------------------------- assets

@functools.lru_cache(maxsize=1)
def source_sans() -> dict:
    """``assets/fonts/source-sans.json``: the text font's Latin files that olc_ui/static_files.py serves in place of
    Streamlit's."""
    return json.loads((ASSET_DIR / "fonts" / "source-sans.json").read_text(encoding="utf-8"))


def _plotly_js() -> tuple[Path, str]:
    path = Path(plotly.__file__).resolve().parent / "package_data" / "plotly.min.js"
    with open(path, "rb") as fh:
        head = fh.read(400).decode("utf-8", "replace")
    m = re.search(r"plotly\.js v(\d+\.\d+\.\d+)", head)
    return path, (m.group(1) if m else "unknown")


def _copy_if_stale(src: Path, dst: Path) -> None:
    """Copy ``src`` to ``dst`` unless an identical-size copy is there (atomic rename)."""
    try:
        if dst.is_file() and dst.stat().st_size == src.stat().st_size:
            return
    except OSError:
        pass
    dst.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{dst.name}.", dir=str(dst.parent))
    os.close(fd)
    try:
        shutil.copyfile(src, tmp)
        os.chmod(tmp, 0o644)
        os.replace(tmp, dst)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)


def ensure_static_assets(app_dir: str | os.PathLike) -> dict[str, str]:
    """Copy plotly.js and KaTeX into ``<app_dir>/static/olc/`` if missing; return their URLs.

    URLs are relative to the Streamlit server's base URL (``app/static/…``). Files are
    named by version, so a new plotly or KaTeX gets a new URL (no stale browser cache).
    """
    root = Path(app_dir) / "static" / STATIC_SUBDIR
    urls = _asset_urls()
    plotly_src, _ = _plotly_js()
    _copy_if_stale(plotly_src, root / Path(urls["plotly"]).name)
    for key, name in (("plotly_basic", "basic"), ("plotly_3d", "gl3d")):
        if key in urls:
            _copy_if_stale(ASSET_DIR / "plotly" / f"plotly-{name}-{PLOTLY_BASIC_VERSION}.min.js", root / Path(urls[key]).name)
    ksrc = ASSET_DIR / "katex"
    for f in [ksrc / "katex.min.js", ksrc / "katex.min.css", *sorted((ksrc / "fonts").glob("*.woff2"))]:
        _copy_if_stale(f, root / f"katex-{KATEX_VERSION}" / f.relative_to(ksrc))
    _copy_if_stale(ASSET_DIR / EXPORT_JS, root / Path(urls["export"]).name)
    module = root / Path(urls["viewer"]).name
    if not module.is_file():
        fd, tmp = tempfile.mkstemp(prefix=f".{module.name}.", dir=str(root))
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(bundle_js())
        os.chmod(tmp, 0o644)
        os.replace(tmp, module)
    return urls


def _asset_urls() -> dict[str, str]:
    """Where the browser finds each asset, relative to the server's base URL."""
    _, plotly_ver = _plotly_js()
    base = f"app/static/{STATIC_SUBDIR}"
    urls = {"plotly": f"{base}/plotly-{plotly_ver}.min.js",
            "katex_js": f"{base}/katex-{KATEX_VERSION}/katex.min.js",
            "katex_css": f"{base}/katex-{KATEX_VERSION}/katex.min.css"}
    urls["export"] = f"{base}/{_export_name()}"
    urls["viewer"] = f"{base}/{_viewer_name()}"
    if plotly_ver == PLOTLY_BASIC_VERSION:
        urls["plotly_basic"] = f"{base}/plotly-basic-{PLOTLY_BASIC_VERSION}.min.js"
        urls["plotly_3d"] = f"{base}/plotly-gl3d-{PLOTLY_BASIC_VERSION}.min.js"
    return urls


def plotly_url(urls: dict[str, str], types) -> str:
    """The plotly.js bundle for a spec whose traces are of ``types``: the basic one when they are all basic, the gl3d
    one for a 3-D view, else the full bundle (each partial bundle only when it is plotly.py's plotly.js version).

    >>> u = _asset_urls()
    >>> [plotly_url(u, t).rsplit("/", 1)[1] for t in ({"scatter", "bar"}, {"scatter", "scatter3d", "mesh3d"}, {"heatmap"})]
    ['plotly-basic-4.1.1.min.js', 'plotly-gl3d-4.1.1.min.js', 'plotly-4.1.1.min.js']
    """
    types = set(types)
    if types <= BASIC_TRACE_TYPES and "plotly_basic" in urls:
        return urls["plotly_basic"]
    if types <= GL3D_TRACE_TYPES and "plotly_3d" in urls:
        return urls["plotly_3d"]
    return urls["plotly"]


@functools.lru_cache(maxsize=1)
def _export_name() -> str:
    """viewer_export.js's served name, by content (a changed file gets a new URL: no stale cache)."""
    h = hashlib.blake2b((ASSET_DIR / EXPORT_JS).read_bytes(), digest_size=6).hexdigest()
    return f"viewer_export-{h}.js"


def preload_urls(page: str, query: bytes) -> list[tuple[str, str]]:
    """What page ``page`` (its url path) opened with ``query`` will load for its step viewer, as (URL relative to the
    server's base, and ``"modulepreload"``, ``"script"`` or ``"style"``): the viewer's module, KaTeX and the 2-D plotly.js
    bundle; no plotly.js for a 3-D view (its
    bundle is another); nothing for a page without the viewer.

    >>> [u.rsplit("/", 1)[1][:7] for u, _ in preload_urls("winnow", b"N=100")]
    ['viewer-', 'katex.m', 'katex.m', 'plotly-']
    >>> [u.rsplit("/", 1)[1][:7] for u, _ in preload_urls("perceptron", b"T=50&d=3")], preload_urls("bound_explorer", b"")
    (['viewer-', 'katex.m', 'katex.m'], [])
    """
    if page not in VIEWER_PAGES:
        return []
    urls = _asset_urls()
    out = [(urls["viewer"], "modulepreload"), (urls["katex_js"], "script"), (urls["katex_css"], "style")]
    three_d = THREE_D_QUERY.get(page)
    if "plotly_basic" in urls and not (three_d and b"=".join(three_d) in query.split(b"&")):
        out.append((urls["plotly_basic"], "script"))
    return out


@functools.lru_cache(maxsize=1)
def _viewer_name() -> str:
    """The step viewer's module's served name (:func:`bundle_js`, by content): ``viewer-<hash>.js``."""
    return f"viewer-{hashlib.blake2b(bundle_js().encode(), digest_size=6).hexdigest()}.js"


def component_js() -> str:
    """The component's own ``js``: a stub that imports the step viewer's module (:func:`bundle_js`, 205 kB, its lines
    trimmed) from ``static/olc/`` and is it. Inline, Streamlit would send the whole module over the websocket to every
    session, on every visit; as a file it is sent brotli-compressed (51 kB) and cached for good, and a
    lesson page's HTML asks for it at once (:func:`preload_urls`)."""
    url = json.dumps(_asset_urls()["viewer"])
    return ("// olc step viewer: its module (olc_ui/viewer/assets.py, component_js)\n"
            "const s = document.querySelector('script[src*=\"/static/js/index\"]');\n"
            "const base = s && s.src ? s.src.slice(0, s.src.lastIndexOf('static/js/')) : new URL('./', location.href).href;\n"
            f"const viewer = await import(new URL({url}, base).href);\n"
            "export default viewer.default;\n")


_ASSETS_BY_DIR: dict[str, dict[str, str]] = {}


def _served_app_dir() -> str | None:
    """The folder of the script ``streamlit run`` serves (its ``static/`` is what the
    browser gets at ``app/static/``); None without a server (AppTest, a bare import)."""
    path = getattr(st_config, "_main_script_path", None)
    return str(Path(path).resolve().parent) if path else None


def static_dir() -> Path | None:
    """The folder this module fills and the browser reads at ``app/static/olc/`` (None without a server)."""
    app_dir = _served_app_dir()
    return Path(app_dir) / "static" / STATIC_SUBDIR if app_dir else None


def assets() -> dict[str, str]:
    app_dir = _served_app_dir()
    if app_dir is None:  # nothing serves static files here: copy nothing
        return _asset_urls()
    got = _ASSETS_BY_DIR.get(app_dir)
    if got is None:
        try:
            got = ensure_static_assets(app_dir)
        except OSError as exc:  # read-only deployment: the browser will say what is missing
            _LOG.warning("olc_ui.viewer.assets: could not copy plotly.js / KaTeX into %s/static: %s", app_dir, exc)
            got = _asset_urls()
        _ASSETS_BY_DIR[app_dir] = got
    return got


_IMPORT_RE = re.compile(r'^import\s+(?:\{([^}]*)\}\s+from\s+)?"\./([A-Za-z0-9_]+\.js)";[ \t]*\n?', re.M)
_EXPORT_RE = re.compile(r"^export\s+(?=(?:const|let|function|async\s+function|class)\s)", re.M)


def bundle_js(entry: str = "viewer.js", asset_dir: Path = ASSET_DIR) -> str:
    """The viewer's ES modules (``olc_ui/viewer/assets/viewer*.js``) as the one module the component runs.

    Streamlit runs a v2 component's ``js`` as one module with no URL of its own, so its relative
    imports could not be resolved: the modules are concatenated, dependencies first. Each module
    may only use ``import { a, b } from "./x.js";`` (or ``import "./x.js";``, for a mode module
    that registers itself) and ``export`` on a top-level declaration; the entry module keeps its
    ``export default`` and ``export const``. Top-level names share one scope in the bundle, so two
    modules may not declare the same name (the bundle would not parse: tests/ui check it under node).
    Under node (tests) the files import each other as the real modules they are.
    """
    order: list[str] = []
    texts: dict[str, str] = {}

    def visit(name: str, stack: tuple[str, ...]) -> None:
        if name in texts:
            return
        if name in stack:
            raise ValueError(f"viewer JS: import cycle {' -> '.join(stack + (name,))}")
        text = (asset_dir / name).read_text(encoding="utf-8")
        for names, dep in _IMPORT_RE.findall(text):
            if " as " in names:
                raise ValueError(f"viewer JS: {name}: renamed imports ('as') are not supported by the bundler")
            visit(dep, stack + (name,))
        if re.search(r"^\s*import\b", _IMPORT_RE.sub("", text), re.M):
            raise ValueError(f"viewer JS: {name}: only `import {{ … }} from \"./x.js\";` is supported")
        texts[name] = text
        order.append(name)

    visit(entry, ())
    parts = []
    for name in order:
        body = _IMPORT_RE.sub("", texts[name])
        if name != entry:
            if re.search(r"^export\s+(default|\{)", body, re.M):
                raise ValueError(f"viewer JS: {name}: only the entry module may `export default` or `export {{…}}`")
            body = _EXPORT_RE.sub("", body)
        parts += [f"// ---- {name}", trim_js(body, name)]
    return "\n".join(p for p in parts if p)


def trim_js(text: str, name: str = "viewer JS") -> str:
    r"""``text`` without what only a reader needs: each line's leading and trailing blanks, blank lines, whole-line
    ``//`` comments, and a line's closing ``//`` comment where no quote or slash comes before it (so that it cannot be
    inside a string or a regular expression). The bundle's brotli size: 74 → 50 kB when written (a phone's first
    visit, issue 34); 51 kB with the Halving game and the class link's faults since.
    It changes no token, so the program is the same (acorn's parses of the bundle before and after were compared when
    this was written: identical; tests/ui/test_viewer_modules.py checks these rules and that the bundle parses under
    node), provided no string spans lines: a line with an odd number of backticks (a template literal over several
    lines, whose blanks are its text) or ending in a backslash (a string continued) is refused. A comment line that
    could end a block comment (``*/``) is kept.

    >>> trim_js("  const a = 1;   // one\n\n    // a comment line\n  return `x = ${a}`;  // two\n")
    'const a = 1;\nreturn `x = ${a}`;  // two'
    """
    out = []
    for line in text.split("\n"):
        code = line.strip()
        if not code:
            continue
        if code.startswith("//") and "*/" not in code:
            continue
        if code.count("`") % 2 or code.endswith("\\"):
            raise ValueError(f"{name}: a string over several lines ({code[:60]!r}): the bundle's lines are trimmed; "
                             "join it into one line")
        cut = code.find("//")
        if cut > 0 and not any(c in code[:cut] for c in "'\"`/") and "*/" not in code[cut:]:
            code = code[:cut].rstrip()       # no quote or slash before it: the comment starts there
        out.append(code)
    return "\n".join(out)


@functools.lru_cache(maxsize=1)
def viewer_css() -> str:
    """``assets/viewer.css`` as a page receives it (:func:`trim_css`: 32 → 26 kB; every visit's websocket carries it)."""
    return trim_css((ASSET_DIR / "viewer.css").read_text(encoding="utf-8"))


def trim_css(text: str) -> str:
    r"""CSS without its comments, blank lines and the blanks around each line; a string is kept as written (CSS's
    strings hold no raw line break, so no line's blanks are a string's).

    >>> trim_css('/* a "note" */\n  .a { content: "/* not a comment */"; }  /* gone */\n\n  .b\'s { x: 1 }\n')
    '.a { content: "/* not a comment */"; }\n.b\'s { x: 1 }'
    """
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if c == "/" and text.startswith("/*", i):
            end = text.find("*/", i + 2)
            if end < 0:
                raise ValueError("CSS: a comment that does not end")
            i = end + 2
        elif c in "'\"":
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            out.append(text[i:j + 1])
            i = j + 1
        else:
            out.append(c)
            i += 1
    return "\n".join(ln.strip() for ln in "".join(out).split("\n") if ln.strip())


def script_js(entry: str, asset_dir: Path = ASSET_DIR) -> str:
    """:func:`bundle_js` of ``entry`` without its ``export`` keywords: the body of a classic ``<script>`` (wrap it
    in a function, or its top-level names become the page's globals). ``entry`` may not ``export default``."""
    body = _EXPORT_RE.sub("", bundle_js(entry, asset_dir))
    if re.search(r"^export\b", body, re.M):
        raise ValueError(f"viewer JS: {entry}: a classic script cannot `export default` or `export {{…}}`")
    return body


# Copy the assets as soon as the module is imported by a served app, so the first
# page load does not wait for the copy.
if _served_app_dir() is not None:  # pragma: no cover - depends on the runtime
    try:
        assets()
    except Exception as exc:  # never break an import over a copy
        _LOG.warning("olc_ui.viewer.assets: static assets not prepared at import: %s", exc)
