"""Text from a link is shown inert and cut short on every page (review issue 11 §1): every query key
of every lesson page gets Markdown, HTML, maths, icons, autolinks and a 3,000-character value; no
message the page writes may carry any of it verbatim (the browser check is tests/e2e/test_untrusted_text.py).
"""
from __future__ import annotations

import pytest

from tests.app.pagetest import open_page, page_path
from tests.hostile import hostile_queries, page_keys, unescaped

CASES = [(page, q) for page, keys in page_keys().items() for q in hostile_queries(page, keys)]


def bodies(at) -> list[str]:
    out = []
    for kind in ("markdown", "warning", "error", "info", "success", "caption", "latex"):
        out += [e.value for e in getattr(at, kind)]
    out += [e.proto.body for e in at.get("alert")] if hasattr(at, "get") else []
    return out


@pytest.mark.parametrize("page,query", CASES, ids=[f"{p}-{i}" for i, (p, _) in enumerate(CASES)])
def test_hostile_link_values_are_inert(page, query):
    at = open_page(page_path(page), **query)
    assert not at.exception, [e.value for e in at.exception]
    texts = bodies(at)
    bad = {t[:120]: unescaped(t) for t in texts if unescaped(t)}
    assert not bad, bad
    # the page said what was wrong with the link (a warning, or the game's own message)
    said = " ".join(w.value for w in list(at.warning) + list(at.error) + list(at.info))
    assert "link" in said or "could not" in said, said[:500]
    for t in texts:  # no message echoes a long value in full
        assert "x" * 81 not in t
