"""A link shared before anyone opened the app: the first request a fresh server gets is a deep link.

Streamlit runs such a request in its old pages/-folder mode (the page without the router)
until st.navigation has run once; olc_ui.shared.page.setup reruns it through the router. The
student must see the lesson menu and the wide layout, not a list of file names.
"""
from __future__ import annotations

import pytest

pytest.importorskip("playwright")

from stbrowser import StreamlitServer  # noqa: E402

from tests.e2e.conftest import ROOT  # noqa: E402


@pytest.mark.parametrize("path", ["/margin_perceptron?T=30&t=4", "/experts"])
def test_first_request_is_a_deep_link(page, path):
    import sys
    with StreamlitServer(ROOT / "app.py", cwd=ROOT, python=sys.executable) as srv:
        page.goto(srv.url + path)
        page.wait_for_selector('.olc-viewer[data-ready="true"]', timeout=90_000)
        nav = page.locator('.st-key-olc_nav').inner_text()
        assert "Linear classifiers" in nav and "Expert advice" in nav     # the router's sections
        assert "margin perceptron" not in nav                             # not bare file names
        width = page.evaluate("() => document.querySelector('[data-testid=stMainBlockContainer]')"
                              ".getBoundingClientRect().width")
        assert width > 900                                                # the wide layout (1280 px window)
        # leave the page before the server stops: its lazy chunks (the table's, a download button's) may still be
        # loading, and a request to a stopped server is a console error the page fixture rightly reports (CI met it)
        page.goto("about:blank")
