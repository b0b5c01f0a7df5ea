"""Direct links leave the browser console clean (issue 13 §7): no 404 for ``/<page>/_stcore/health``.

Opened on ``/perceptron?T=50``, Streamlit's frontend does not know whether ``perceptron`` is a page
or a prefix the app is served under, so it used to probe ``/perceptron/_stcore/health`` and
``/perceptron/_stcore/host-config`` first (404 each, two red console errors) before the root.
olc_ui/routes.py tells it where the server is (docs/deployment.md, "Direct links"). The console and
every HTTP response are checked here directly, not through the conftest's ``page`` fixture, so
that no ignore list can hide an error; the health probes must all go to the server's root.
"""
from __future__ import annotations

import sys
from urllib.parse import urlsplit

import pytest

pytest.importorskip("playwright")

from stbrowser import StreamlitServer  # noqa: E402

from tests.e2e.conftest import ROOT  # noqa: E402

VIEWER_READY = '.olc-viewer[data-ready="true"]'


class ServerUnderOlc(StreamlitServer):
    """``streamlit run app.py --server.baseUrlPath olc``; ``url`` (also its health check) ends in /olc."""

    def __init__(self):
        super().__init__(ROOT / "app.py", cwd=ROOT, python=sys.executable,
                         extra_args=["--server.baseUrlPath", "olc"])

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/olc"


def watch(page) -> dict:
    """Every console error, failed response and health/host-config request of ``page``, as they come."""
    seen: dict[str, list] = {"console": [], "http": [], "probes": []}
    page.on("console", lambda m: m.type == "error" and seen["console"].append(
        f"{m.text} ({(m.location or {}).get('url', '')})"))
    page.on("pageerror", lambda exc: seen["console"].append(f"uncaught: {exc}"))
    page.on("response", lambda r: r.status >= 400 and seen["http"].append(f"{r.status} {r.url}"))
    page.on("request", lambda r: r.url.split("?")[0].endswith(("/_stcore/health", "/_stcore/host-config"))
            and seen["probes"].append(urlsplit(r.url).path))
    return seen


def open_and_wait(page, url: str, *, reload: bool = False) -> None:
    if reload:
        page.reload()
    else:
        page.goto(url)
    page.wait_for_selector(VIEWER_READY, timeout=90_000)


def assert_clean(seen: dict, base: str) -> None:
    assert seen["console"] == [], "console errors:\n" + "\n".join(seen["console"])
    assert seen["http"] == [], "failed responses:\n" + "\n".join(seen["http"])
    assert seen["probes"], "the frontend never asked for the server's health"
    assert set(seen["probes"]) <= {f"{base}/_stcore/health", f"{base}/_stcore/host-config"}, seen["probes"]


def test_direct_links_leave_the_console_clean(browser, streamlit_app):
    url = streamlit_app("app.py")
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    try:
        page = ctx.new_page()
        seen = watch(page)
        open_and_wait(page, url + "/perceptron?T=50")               # a lesson page, with a query
        assert "T=50" in page.url
        open_and_wait(page, page.url, reload=True)                  # the same link, reloaded
        page.wait_for_function("() => new URL(location.href).searchParams.get('T') === '50'")
        open_and_wait(page, url + "/experts?N=17")                  # another page
        assert urlsplit(page.url).path == "/experts"
        assert_clean(seen, "")
    finally:
        ctx.close()


def test_direct_link_under_a_base_url_path(browser):
    """Served under ``server.baseUrlPath`` (as behind a proxy), the probes go to that path's root."""
    with ServerUnderOlc() as srv:
        ctx = browser.new_context(viewport={"width": 1280, "height": 900})
        try:
            page = ctx.new_page()
            seen = watch(page)
            open_and_wait(page, srv.url + "/margin_perceptron?T=30")
            assert urlsplit(page.url).path == "/olc/margin_perceptron"
            assert_clean(seen, "/olc")
        finally:
            ctx.close()
