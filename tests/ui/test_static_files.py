"""A first visit's files are sent compressed and cached for good, in one process (issue 34 §1; olc_ui/static_files.py,
olc_ui/routes.py); the icon font is cut to the icons the app can show. Behind nginx: tests/ui/test_serve_script.py.

At the ASGI level (the middleware alone, Streamlit's real files), then against a real ``streamlit run app.py``: every
response a lesson's first visit needs that compresses comes with ``Content-Encoding``, Streamlit's frontend and the
viewer's libraries with ``Cache-Control: immutable``, the websocket with permessage-deflate.
"""
from __future__ import annotations

import base64
import gzip
import hashlib
import http.client
import json
import os
import re
import sys
import time
from pathlib import Path

import pytest

from olc_ui import routes, static_files
from olc_ui.viewer import assets as viewer_assets
from tests.conftest import run_async

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "e2e"))
from stbrowser import StreamlitServer  # noqa: E402

STATIC = static_files.streamlit_static()
INDEX_JS = re.search(r'src="\./static/(js/index\.[\w-]+\.js)"',
                     (STATIC.parent / "index.html").read_text(encoding="utf-8")).group(1)
ICONS = json.loads((static_files.ICON_DIR / "icons.json").read_text(encoding="utf-8"))
SANS = json.loads((static_files.FONT_DIR / "source-sans.json").read_text(encoding="utf-8"))
ICON_RE = re.compile(rb":material/([a-z0-9_]+):")
GZ = [(b"accept-encoding", b"gzip, deflate")]       # brotli: test_brotli_is_made_in_the_background


def _serve(path, *, method="GET", headers=(), base_url=""):
    seen, sent = {}, []

    async def inner(scope, receive, send):
        seen["passed"] = scope["path"]
        await send({"type": "http.response.start", "status": 404, "headers": []})
        await send({"type": "http.response.body", "body": b"", "more_body": False})

    async def send(m):
        sent.append(m)

    async def receive():
        return {"type": "http.request", "body": b"", "more_body": False}

    app = routes.AssetMiddleware(inner, base_url=base_url)
    run_async(app({"type": "http", "method": method, "path": path, "headers": list(headers)}, receive, send))
    return seen.get("passed"), sent[0]["status"], dict(sent[0]["headers"]), b"".join(m.get("body", b"") for m in sent[1:])


def test_streamlits_own_scripts_are_sent_compressed_once_and_immutable():
    raw = (STATIC / INDEX_JS).read_bytes()
    passed, status, h, body = _serve(f"/olc/static/{INDEX_JS}", headers=GZ, base_url="/olc")
    assert passed is None and status == 200
    assert h[b"content-encoding"] == b"gzip" and gzip.decompress(body) == raw
    assert len(body) < len(raw) / 2 and h[b"content-length"] == str(len(body)).encode()
    assert h[b"cache-control"] == routes.IMMUTABLE and h[b"vary"] == b"Accept-Encoding"
    assert h[b"content-type"].startswith(b"text/javascript")
    assert b"etag" not in h                 # immutable for a year: never revalidated, no validator sent
    _, _, h2, plain = _serve(f"/static/{INDEX_JS}", headers=[(b"accept-encoding", b"gzip;q=0, identity")])
    assert b"content-encoding" not in h2 and plain == raw
    css = next((STATIC / "css").glob("index.*.css")).name
    _, _, h3, body3 = _serve(f"/static/css/{css}", headers=GZ)
    assert h3[b"content-encoding"] == b"gzip" and h3[b"content-type"].startswith(b"text/css")


def test_brotli_is_made_in_the_background_and_sent_once_ready():
    brotli = pytest.importorskip("brotli")
    raw = (STATIC / INDEX_JS).read_bytes()
    comp = static_files.Compressed()
    body, etag, coding = comp.body(STATIC / INDEX_JS, ("br", "gzip"))
    assert coding == "gzip" and gzip.decompress(body) == raw          # not ready yet: gzip now, brotli in the background
    for _ in range(600):
        body, etag, coding = comp.body(STATIC / INDEX_JS, ("br", "gzip"))
        if coding == "br":
            break
        time.sleep(0.1)
    assert coding == "br" and brotli.decompress(body) == raw and etag.endswith(b'-br"')
    assert len(body) < len(gzip.compress(raw, 9))
    assert comp.body(STATIC / INDEX_JS, ("gzip",))[2] == "gzip" and comp.body(STATIC / INDEX_JS, ())[0] == raw


@pytest.mark.parametrize("path, kw", [
    ("/static/js/../../__init__.py", {}),
    ("/static/js/missing.abc.js", {}),
    ("/static/media/SourceSansVF-Upright.woff2", {}),       # not compressible: Streamlit sends it
    (f"/static/{INDEX_JS}", {"method": "POST"}),
    (f"/static/{INDEX_JS}", {"headers": [(b"range", b"bytes=0-9")]}),
    ("/index.html", {}),
    ("/static/../index.html", {}),
])
def test_anything_else_goes_on_to_streamlit(path, kw):
    assert _serve(path, **kw)[0] == path


def test_the_icon_font_is_the_subset_at_streamlits_url():
    name = Path(ICONS["source"]).name
    src = STATIC / "media" / name
    assert src.is_file(), f"the installed Streamlit has no {name}: rerun scripts/subset_icons.py"
    assert hashlib.sha256(src.read_bytes()).hexdigest() == ICONS["source_sha256"], \
        "the installed Streamlit's icon font is not the one the subset was cut from: rerun scripts/subset_icons.py"
    passed, status, h, body = _serve(f"/static/media/{name}", headers=GZ)
    subset = (static_files.ICON_DIR / "MaterialSymbolsRounded-subset.woff2").read_bytes()
    assert passed is None and status == 200 and body == subset and body.startswith(b"wOF2")
    assert h[b"content-type"] == b"font/woff2" and b"content-encoding" not in h
    assert len(subset) < src.stat().st_size / 20


def test_the_subset_has_every_icon_the_code_and_streamlit_name():
    """A new ``:material/x:`` in the code (or a Streamlit that draws another icon of its own) needs the subset made
    again (scripts/subset_icons.py); otherwise the icon's name would show as text."""
    named: set[bytes] = set()
    for path in [ROOT / "app.py", *ROOT.glob("pages/*.py"), *ROOT.joinpath("olc_ui").rglob("*.py")]:
        named |= set(ICON_RE.findall(path.read_bytes()))
    assert named, "found no icon in the code: the pattern is stale"
    for path in (STATIC / "js").glob("*.js"):
        named |= set(ICON_RE.findall(path.read_bytes()))
    missing = {n.decode() for n in named} - set(ICONS["names"]) - set(ICONS["not_in_the_font"])
    assert not missing, f"icons not in the subset: {sorted(missing)}; run scripts/subset_icons.py"


def test_another_streamlits_fonts_are_served_whole(monkeypatch, tmp_path):
    names = [f"media/{Path(ICONS['source']).name}"] + [s["streamlit"] for s in SANS["swaps"]]
    (tmp_path / "media").mkdir()
    for name in names:
        (tmp_path / name).write_bytes(b"wOF2 another version")
    monkeypatch.setattr(static_files, "streamlit_static", lambda: tmp_path)
    static_files.icon_font.cache_clear()
    static_files.font_swaps.cache_clear()
    static_files.swaps.cache_clear()
    try:
        assert static_files.icon_font() is None and static_files.font_swaps() == {} == static_files.swaps()
        assert all(static_files.streamlit_file(n) is None for n in names)
    finally:
        static_files.icon_font.cache_clear()
        static_files.font_swaps.cache_clear()
        static_files.swaps.cache_clear()


def test_the_text_font_is_cut_to_what_the_app_writes():
    """Streamlit's Source Sans 3 (every script in one 170 kB file per style) is served cut to Latin-1, Greek and the
    characters the app writes (scripts/subset_text_font.py); a new character in the code needs the cut made again,
    unless Streamlit's font never had it (drawn by the browser's next font either way)."""
    for swap in SANS["swaps"]:
        src = STATIC / swap["streamlit"]
        assert hashlib.sha256(src.read_bytes()).hexdigest() == swap["sha256"], f"{src.name}: another Streamlit"
        passed, status, h, body = _serve(f"/static/{swap['streamlit']}", headers=GZ)
        assert passed is None and body == (static_files.FONT_DIR / swap["file"]).read_bytes()
        assert body.startswith(b"wOF2") and len(body) < src.stat().st_size / 3
    blocks = [tuple(int(x, 16) for x in b[2:].split("-")) for b in SANS["blocks"]]
    paths = [*ROOT.joinpath("olc_ui").rglob("*.py"), *ROOT.glob("pages/*.py"),
             *ROOT.joinpath("olc_ui", "viewer", "assets").glob("viewer*.js")]
    written = {c for p in paths for c in p.read_text(encoding="utf-8") if ord(c) >= 0x80}
    assert "γ" in written and "≤" in written
    outside = {c for c in written if not any(a <= ord(c) <= b for a, b in blocks)}
    known = set(SANS["code_chars"]) | set(SANS["code_chars_not_in_the_font"])
    assert outside <= known, f"the code writes {sorted(outside - known)}: run scripts/subset_text_font.py"


def test_streamlits_markdown_maths_chunk_is_the_small_module_on_the_viewers_katex():
    """Streamlit's rehype-katex chunk (a second KaTeX, 265 kB) is served as assets/streamlit/rehype-katex.js: it imports
    only chunks this Streamlit has, and loads the KaTeX version the viewer serves."""
    meta = json.loads((static_files.STREAMLIT_SWAPS / "swaps.json").read_text(encoding="utf-8"))
    (swap,) = meta["swaps"]
    src = STATIC / swap["streamlit"]
    assert hashlib.sha256(src.read_bytes()).hexdigest() == swap["sha256"], "another Streamlit: drop or redo the swap"
    module = (static_files.STREAMLIT_SWAPS / swap["file"]).read_text(encoding="utf-8")
    for dep in re.findall(r'from "\./([\w.-]+\.js)"', module):
        assert (STATIC / "js" / dep).is_file(), dep
        assert f'"./{dep}"' in src.read_text(encoding="utf-8")           # the original imports it too
    assert f"katex-{viewer_assets.KATEX_VERSION}/katex.min.js" in module and "export default function" in module
    passed, status, h, body = _serve(f"/static/{swap['streamlit']}", headers=GZ)
    assert passed is None and gzip.decompress(body) == module.encode() and len(module) < src.stat().st_size / 20


def test_the_tree_for_nginx_has_each_file_beside_its_gzip(tmp_path):
    app_dir = tmp_path / "app"
    n = static_files.write_tree(tmp_path / "www", app_dir)
    www = tmp_path / "www"
    assert n > 300
    js = www / "static" / INDEX_JS
    assert js.resolve() == (STATIC / INDEX_JS).resolve()
    assert gzip.decompress((www / "static" / (INDEX_JS + ".gz")).read_bytes()) == js.read_bytes()
    font = www / "static" / "media" / Path(ICONS["source"]).name
    assert font.read_bytes() == (static_files.ICON_DIR / "MaterialSymbolsRounded-subset.woff2").read_bytes()
    assert not font.with_name(font.name + ".gz").exists()
    olc = sorted((www / "app" / "static" / "olc").rglob("*.min.js"))
    assert olc and all(gzip.decompress(p.with_name(p.name + ".gz").read_bytes()) == p.read_bytes() for p in olc)


# --------------------------------------------------------------------------- a real server

@pytest.fixture(scope="module")
def server():
    srv = StreamlitServer(ROOT / "app.py", cwd=ROOT, python=sys.executable).start()
    yield srv
    srv.stop()


def _get(port, path, headers=None):
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    try:
        c.request("GET", path, headers={"Accept-Encoding": "gzip, deflate", **(headers or {})})
        r = c.getresponse()
        return r.status, {k.lower(): v for k, v in r.getheaders()}, r.read()
    finally:
        c.close()


def test_a_lessons_first_visit_comes_compressed_from_one_process(server):
    status, h, body = _get(server.port, "/perceptron")
    assert status == 200 and h.get("content-encoding") == "gzip" and b"BACKEND_BASE_URL" in gzip.decompress(body)
    status, h, body = _get(server.port, f"/static/{INDEX_JS}")
    assert status == 200 and h.get("content-encoding") == "gzip" and "immutable" in h["cache-control"]
    assert gzip.decompress(body) == (STATIC / INDEX_JS).read_bytes()
    status, h, body = _get(server.port, "/")
    assert status == 200 and h.get("content-encoding") == "gzip"
    status, h, _ = _get(server.port, f"/static/media/{Path(ICONS['source']).name}")
    assert status == 200 and int(h["content-length"]) == ICONS["subset_bytes"]
    # the viewer's libraries: copied into static/olc/ when the page first ran (the /perceptron above)
    plotly = next(p for p in (ROOT / "static" / "olc").glob("plotly-basic-*.min.js"))
    status, h, body = _get(server.port, f"/app/static/olc/{plotly.name}")
    assert status == 200 and h.get("content-encoding") == "gzip" and "immutable" in h["cache-control"]


def test_the_websocket_is_compressed(server):
    key = base64.b64encode(os.urandom(16)).decode()
    status, h, _ = _get(server.port, "/_stcore/stream", {
        "Connection": "Upgrade", "Upgrade": "websocket", "Sec-WebSocket-Version": "13", "Sec-WebSocket-Key": key,
        "Sec-WebSocket-Extensions": "permessage-deflate; client_max_window_bits",
        "Sec-WebSocket-Protocol": "streamlit", "Origin": f"http://127.0.0.1:{server.port}"})
    assert status == 101 and "permessage-deflate" in h.get("sec-websocket-extensions", "")

