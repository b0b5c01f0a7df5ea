"""olc_ui/viewer/drawn.py: a page's first run in a browser waits, after sending the step viewer, for the browser's
"drawn" signal (a POST of a one-time token), at most WAIT_S, or until Streamlit asks the run to stop."""
from __future__ import annotations

import threading
import time

import pytest
import asyncio
import concurrent.futures

from starlette.requests import Request

from olc_ui.viewer import drawn


def test_a_signal_wakes_the_waiting_run_at_once():
    token = drawn.expect()
    threading.Timer(0.05, drawn.signal, args=(token,)).start()
    t0 = time.monotonic()
    assert drawn.wait(token, timeout=5) is True
    assert time.monotonic() - t0 < 1.0
    assert drawn.signal(token) is False           # forgotten once waited for


def test_without_a_signal_the_run_goes_on_after_the_timeout():
    token = drawn.expect()
    t0 = time.monotonic()
    assert drawn.wait(token, timeout=0.15) is False
    assert 0.14 <= time.monotonic() - t0 < 1.0


def test_a_stop_asked_by_streamlit_ends_the_wait():
    token = drawn.expect()
    asked = time.monotonic() + 0.1
    t0 = time.monotonic()
    assert drawn.wait(token, timeout=5, should_stop=lambda: time.monotonic() > asked) is False
    assert time.monotonic() - t0 < 1.0


def test_a_signal_before_the_wait_counts_and_unknown_tokens_do_not():
    token = drawn.expect()
    assert drawn.signal(token) is True
    assert drawn.wait(token, timeout=0) is True
    assert drawn.signal("nobody-waits") is False
    assert drawn.wait("nobody-waits", timeout=0) is False


def test_the_registry_is_bounded():
    first = drawn.expect()
    for _ in range(drawn.MAX_WAITING):
        drawn.expect()
    assert drawn.signal(first) is False             # the oldest went first
    drawn._WAITING.clear()


@pytest.mark.parametrize("bad", ["", "a b", 'x";alert(1);"', "<script>"])
def test_the_token_script_takes_url_safe_tokens_only(bad):
    with pytest.raises(ValueError):
        drawn.token_js(bad)
    assert drawn.token_js("abc-_09") == 'window.__olcDrawn = "abc-_09";'


def _post(token: str) -> int:
    """The endpoint's status for ``token``, run on its own thread's event loop (the browser tests' Playwright keeps
    one running on this thread)."""
    scope = {"type": "http", "method": "POST", "headers": [], "query_string": f"t={token}".encode()}
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, drawn._endpoint(Request(scope))).result().status_code


@pytest.mark.parametrize("base", ["", "olc"])
def test_the_endpoint_is_a_post_under_the_base_path(base):
    route = drawn.route(base)
    assert route.path == (f"/{base}/{drawn.PATH}" if base else f"/{drawn.PATH}")
    assert route.methods == {"POST"}


def test_the_endpoint_signals_the_token_and_answers_late_ones_quietly():
    token = drawn.expect()
    assert _post(token) == 204
    assert drawn.wait(token, timeout=0) is True
    assert _post(token) == 204          # the run stopped waiting already: no error for the browser's console
    assert _post("unknown") == 204 and drawn.wait("unknown", timeout=0) is False
    long = drawn.expect("x" * 65)
    assert _post(long) == 400 and drawn.wait(long, timeout=0) is False
