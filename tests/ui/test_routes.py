"""olc_ui.routes: the middleware that spares direct links two console 404s (issue 13 §7).

The browser test is tests/e2e/test_console_clean.py; here, without a browser: which requests it
edits, what the edited response is, what the inline script computes (in Node, when installed),
and that the installed Streamlit still works the way the middleware relies on.
"""
from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest
import streamlit

from olc_ui import routes
from tests.hostile import HOSTILE
from tests.conftest import run_async

HTML = b"<!DOCTYPE html>\n<html>\n  <head>\n    <meta charset='UTF-8' />\n  </head><body></body></html>"


@pytest.mark.parametrize("path, base, rel", [
    ("/perceptron", "", "perceptron"),
    ("/perceptron/", None, "perceptron"),
    ("/margin_perceptron", "/", "margin_perceptron"),
    ("/olc/perceptron", "olc", "perceptron"),
    ("/olc/perceptron", "/olc/", "perceptron"),
    ("/a/b-c", "", "a/b-c"),
    ("/", "", None),                         # the root: the frontend probes it alone already
    ("/olc", "olc", None),
    ("/olc/", "olc", None),
    ("/perceptron", "olc", None),            # not under the base path
    ("/olcx/perceptron", "olc", None),
    ("/_stcore/health", "", None),           # Streamlit's own routes
    ("/static/js/index.js", "", None),
    ("/app/static/olc/plotly.min.js", "", None),
    ("/media/abc", "", None),
    ("/favicon.png", "", None),              # a file
    ("/perce%20ptron", "", None),
])
def test_page_path(path, base, rel):
    assert routes.page_path(path, base) == rel


@pytest.mark.parametrize("raw", HOSTILE)
def test_hostile_paths_are_left_alone(raw):
    """A link's path reaches the script only when it is plain letters, digits, _ - and /."""
    rel = routes.page_path("/" + raw, "")
    assert rel is None or re.fullmatch(r"[A-Za-z0-9_/-]+", rel)


def test_script_is_inert_html():
    script = routes.base_url_script("margin_perceptron").decode()
    assert script.startswith("<script>") and script.endswith("</script>")
    assert script.count("<script") == 1 and script.count("</script") == 1
    assert '"/margin_perceptron"' in script and "BACKEND_BASE_URL" in script


def test_inject_puts_the_script_first_in_head():
    out = routes.inject(HTML, b"<script>X</script>")
    assert out.replace(b"<script>X</script>", b"") == HTML
    assert out.index(b"<script>X</script>") == HTML.index(b"<head>") + len(b"<head>")
    assert routes.inject(b"<html><body></body></html>", b"<script>X</script>") is None


def run_asgi(path, *, method="GET", status=200, ctype=b"text/html; charset=utf-8", body=HTML,
             chunks=1, base=""):
    """Send one request through PageBaseMiddleware to a fake Streamlit; (inner scope, sent messages)."""
    seen = {}

    async def inner(scope, receive, send):
        seen["scope"] = scope
        headers = [(b"content-type", ctype), (b"content-length", str(len(body)).encode()),
                   (b"etag", b'"abc"'), (b"last-modified", b"Thu, 26 Nov 2026 01:59:36 GMT"),
                   (b"cache-control", b"no-cache")]
        await send({"type": "http.response.start", "status": status, "headers": headers})
        step = -(-len(body) // chunks)
        for i in range(chunks):
            await send({"type": "http.response.body", "body": body[i * step:(i + 1) * step],
                        "more_body": i < chunks - 1})

    sent = []

    async def send(message):
        sent.append(message)

    async def receive():
        return {"type": "http.request", "body": b"", "more_body": False}

    scope = {"type": "http", "method": method, "path": path,
             "headers": [(b"accept", b"text/html"), (b"accept-encoding", b"gzip, br"),
                         (b"if-none-match", b'"abc"')]}
    run_async(routes.PageBaseMiddleware(inner, base_url=base)(scope, receive, send))
    return seen["scope"], sent


def response(sent):
    start = sent[0]
    return start["status"], dict(start["headers"]), b"".join(m.get("body", b"") for m in sent[1:])


@pytest.mark.parametrize("chunks", [1, 3])
def test_page_html_gets_the_script(chunks):
    scope, sent = run_asgi("/olc/perceptron", chunks=chunks, base="/olc")
    status, headers, body = response(sent)
    assert status == 200
    head = routes.base_url_script("perceptron") + routes.preload_links("perceptron", b"")
    assert body == routes.inject(HTML, head)
    assert b'<link rel="preload" href="app/static/olc/plotly-basic-' in body      # the viewer's libraries, at once
    assert b'<link rel="modulepreload" href="app/static/olc/viewer-' in body
    assert headers[b"content-length"] == str(len(body)).encode()
    assert b"etag" not in headers and b"last-modified" not in headers    # they described the file
    assert headers[b"cache-control"] == b"no-cache"                      # Streamlit's, kept
    names = {k for k, _ in scope["headers"]}
    assert b"accept-encoding" not in names and b"if-none-match" not in names and b"accept" in names


@pytest.mark.parametrize("kwargs", [
    {"path": "/"},                                            # not a page path
    {"path": "/_stcore/health"},
    {"path": "/perceptron", "base": "/olc"},
    {"path": "/perceptron", "method": "HEAD"},                # no body to edit
    {"path": "/perceptron", "status": 304, "body": b""},      # not a 200
    {"path": "/perceptron", "ctype": b"application/json"},    # not HTML
])
def test_everything_else_passes_through(kwargs):
    body = kwargs.get("body", HTML)
    scope, sent = run_asgi(**kwargs)
    assert b"".join(m.get("body", b"") for m in sent[1:]) == body
    assert sent[0]["headers"][1] == (b"content-length", str(len(body)).encode())
    if routes.page_path(kwargs["path"], kwargs.get("base", "")) is None or kwargs.get("method"):
        assert (b"accept-encoding", b"gzip, br") in scope["headers"]


def test_html_without_head_is_sent_as_it_was():
    html = b"<html><body>no head</body></html>"
    _, sent = run_asgi("/perceptron", body=html)
    status, headers, body = response(sent)
    assert (status, body, headers[b"content-length"]) == (200, html, str(len(html)).encode())


NODE = shutil.which("node")


def backend_base_url(href: str, rel: str, preset: dict | None = None):
    """Run the inline script in Node with ``location`` = href; window.__streamlit afterwards."""
    js = routes.base_url_script(rel).decode()
    js = js[len("<script>"):-len("</script>")]
    prog = (f"globalThis.window = {{}}; if ({json.dumps(preset)}) window.__streamlit = {json.dumps(preset)};"
            f"globalThis.location = new URL({json.dumps(href)});\n{js}\n"
            "console.log(JSON.stringify(window.__streamlit === undefined ? null : window.__streamlit));")
    out = subprocess.run([NODE, "-e", prog], capture_output=True, text=True, timeout=30, check=True)
    return json.loads(out.stdout)


@pytest.mark.skipif(NODE is None, reason="node is not installed")
@pytest.mark.parametrize("href, rel, expected", [
    ("http://127.0.0.1:8501/perceptron?T=50#x", "perceptron", "http://127.0.0.1:8501/"),
    ("http://127.0.0.1:8501/perceptron/?T=50", "perceptron", "http://127.0.0.1:8501/"),
    ("https://h.example/olc/margin_perceptron?t=3", "margin_perceptron", "https://h.example/olc/"),
    # a prefix added by a proxy in front of the server is kept
    ("https://h.example/~/+/olc/experts", "experts", "https://h.example/~/+/olc/"),
])
def test_script_computes_the_server_root(href, rel, expected):
    assert backend_base_url(href, rel) == {"BACKEND_BASE_URL": expected}


@pytest.mark.skipif(NODE is None, reason="node is not installed")
def test_script_leaves_odd_urls_and_a_host_setting_alone():
    # the URL does not end in the page the server was asked for (a rewriting proxy): no setting
    assert backend_base_url("https://h.example/lesson1", "perceptron") is None
    # a host that embeds Streamlit and set its own base URL keeps it
    preset = {"BACKEND_BASE_URL": "https://other/", "X": 1}
    assert backend_base_url("http://127.0.0.1:8501/perceptron", "perceptron", preset) == preset
    # other settings of such a host are kept beside ours
    assert backend_base_url("http://a/perceptron", "perceptron", {"X": 1}) == {
        "X": 1, "BACKEND_BASE_URL": "http://a/"}


def test_installed_streamlit_still_works_as_the_middleware_assumes():
    """If this fails after a Streamlit upgrade, re-read docs/deployment.md, "Direct links"."""
    static = Path(streamlit.__file__).parent / "static"
    index = (static / "index.html").read_text(encoding="utf-8")
    assert "<head>" in index
    bundle = "".join(p.read_text(encoding="utf-8") for p in (static / "static" / "js").glob("index.*.js"))
    assert "window.__streamlit" in bundle and "BACKEND_BASE_URL" in bundle
    assert "_stcore/health" in bundle and "_stcore/host-config" in bundle


@pytest.mark.parametrize("path, base, query, location", [
    ("/home", "", b"round=3", b"/?round=3"),
    ("/olc/home", "/olc", b"", b"/olc/"),
])
def test_the_default_page_by_its_own_path_is_redirected_to_the_root(path, base, query, location):
    """Streamlit serves the default page (home) at the root only: ``/home`` opened "Page not found"."""
    sent = []

    async def inner(scope, receive, send):
        raise AssertionError("the redirect never reaches Streamlit")

    async def send(message):
        sent.append(message)

    scope = {"type": "http", "method": "GET", "path": path, "query_string": query, "headers": []}
    run_async(routes.PageBaseMiddleware(inner, base_url=base)(scope, None, send))
    assert sent[0]["status"] == 307 and dict(sent[0]["headers"])[b"location"] == location
