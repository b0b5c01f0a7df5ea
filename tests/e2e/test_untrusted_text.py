"""Hostile text in a link, in the real browser (review issue 11 §1): on every lesson page, with every
query key holding Markdown links and images, HTML, KaTeX maths, icon shortcodes, autolinks and a
3,000-character value, the page's messages show the characters as text — no link, image, maths, bold,
icon — the browser fetches nothing from the hosts named, and no message grows past a few lines."""
from __future__ import annotations

from urllib.parse import urlencode, urlparse

import pytest

from tests.hostile import HOSTILE, hostile_queries, page_keys

pytest.importorskip("playwright")
from stbrowser import wait_for_rerun  # noqa: E402

CASES = [(p, q) for p, keys in page_keys().items() for q in hostile_queries(p, keys)[:2]]
CASES += [("boolean_concepts", {"mode": "adversary", "moves": HOSTILE[2]}),
          ("boolean_concepts", {"mode": "learner", "preds": HOSTILE[0]})]

ALERTS_JS = """() => [...document.querySelectorAll('[data-testid="stAlert"]')]
  .filter(a => /link/.test(a.innerText))
  .map(a => ({text: a.innerText.slice(0, 200), height: a.getBoundingClientRect().height,
              live: [...a.querySelectorAll('a, img, .katex, strong, b, em, code, [data-testid="stIconMaterial"], '
                                            + 'span[style*="color"]')].map(e => e.tagName + ' ' + e.className)}))"""


@pytest.mark.parametrize("name,query", CASES, ids=[f"{p}-{i}" for i, (p, _) in enumerate(CASES)])
def test_link_text_renders_inert(page, streamlit_app, name, query):
    url = streamlit_app("app.py")
    asked = []
    page.on("request", lambda r: asked.append(r.url))
    page.goto(f"{url}/{name}?{urlencode(query)}")
    page.wait_for_selector('[data-testid="stAlert"]', timeout=90_000)
    wait_for_rerun(page, 0, expect_run=False, timeout_s=60)
    alerts = page.evaluate(ALERTS_JS)
    assert alerts, "the page did not say what was wrong with the link"
    for a in alerts:
        assert not a["live"], a
        assert a["height"] < 400, a                     # a 3,000-character value is cut short
    live = page.evaluate("""() => [...document.querySelectorAll(
        'a[href*="example.org"], a[href*="host.invalid"], img[src*="host.invalid"], a[href^="mailto:"]')]
        .map(e => e.outerHTML.slice(0, 120))""")
    assert not live, live
    fetched = [u for u in asked if urlparse(u).hostname in ("host.invalid", "example.org", "www.example.org")]
    assert not fetched, fetched
