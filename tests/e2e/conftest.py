"""Fixtures for the real-browser tests: Debian's Chromium through plain Playwright.

Written after the team toolkit's conftest, without pytest-playwright (not a project
dependency): ``browser`` (one per session, launched with ``executable_path`` =
the system Chromium, never a downloaded one), ``page`` (a fresh 1280×900 context
per test with stbrowser.INSTRUMENT_JS installed; console errors and uncaught page
errors are collected in ``page.console_errors`` and fail the test at teardown), and
``streamlit_app``: ``url = streamlit_app("tests/e2e/apps/viewer_demo.py")`` starts
the app headless with cwd = the repository root (so .streamlit/config.toml applies),
one server per app for the session, each stopped by PID at the end.
"""
from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(HERE))
from stbrowser import INSTRUMENT_JS, StreamlitServer, launch_kwargs  # noqa: E402

# stbrowser.py's docstring example starts a server: not a doctest to run.
collect_ignore = ["stbrowser.py"]

#: Console messages that are not app errors. Empty: the 404s Streamlit's frontend used to log for
#: ``/<page>/_stcore/health`` and ``/<page>/_stcore/host-config`` on a direct link are gone
#: (olc_ui/routes.py; tests/e2e/test_console_clean.py). A pattern added here must say why.
IGNORED_CONSOLE: list[re.Pattern] = []


@pytest.fixture(scope="session")
def browser():
    from playwright.sync_api import sync_playwright

    pw = sync_playwright().start()
    b = pw.chromium.launch(**launch_kwargs())
    yield b
    b.close()
    pw.stop()


@pytest.fixture
def page(browser):
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    ctx.add_init_script(INSTRUMENT_JS)
    pg = ctx.new_page()
    pg.set_default_timeout(30_000)
    errors: list[str] = []

    def on_console(msg):
        if msg.type != "error":
            return
        where = (msg.location or {}).get("url", "")
        if not any(rx.search(where) or rx.search(msg.text) for rx in IGNORED_CONSOLE):
            errors.append(f"console: {msg.text} ({where})")

    pg.on("console", on_console)
    pg.on("pageerror", lambda exc: errors.append(f"uncaught: {exc}"))
    pg.console_errors = errors
    yield pg
    ctx.close()
    assert not errors, "browser console errors:\n" + "\n".join(errors)


@pytest.fixture(scope="session")
def streamlit_app():
    """``url = streamlit_app(path, **StreamlitServer kwargs)``; path relative to the repo root."""
    servers: dict[str, StreamlitServer] = {}

    def start(app_path, **kwargs) -> str:
        path = (ROOT / app_path).resolve()
        key = str(path)
        if key not in servers:
            kwargs.setdefault("cwd", ROOT)
            kwargs.setdefault("python", sys.executable)
            servers[key] = StreamlitServer(path, **kwargs).start()
        return servers[key].url

    yield start
    for srv in servers.values():
        srv.stop()
