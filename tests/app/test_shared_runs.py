"""A class opening the same link computes its run once: the second session reuses the first's.

Every lesson page, opened with its default link in one session and then in a fresh
second session (AppTest; the server's caches are per process, shared by its sessions):
the second session calls the core (``olc_core.run``) and the stream generators
(``olc_core.streams``) not once more. This is what keeps the server's CPU per student
small when 30-100 students open the link the instructor shared (bench/load.py,
docs/load.md).
"""
from __future__ import annotations

import functools

import pytest
import streamlit as st

import olc_core
import olc_core.streams as streams
from olc_ui.catalog import available
from tests.app.pagetest import open_page

PAGES = [pytest.param(row[1], id=row[4]) for row in available()]


def _count_calls(monkeypatch, calls: list) -> None:
    def wrap(module, name):
        fn = getattr(module, name)

        @functools.wraps(fn)
        def counted(*a, **kw):
            calls.append(f"{module.__name__}.{name}")
            return fn(*a, **kw)
        monkeypatch.setattr(module, name, counted)

    wrap(olc_core, "run")
    for name in dir(streams):
        obj = getattr(streams, name)
        if callable(obj) and not isinstance(obj, type) and not name.startswith("_"):
            wrap(streams, name)


@pytest.mark.parametrize("script", PAGES)
def test_a_second_session_on_the_same_link_computes_nothing_again(script, monkeypatch):
    from tests.conftest import ROOT

    st.cache_resource.clear()
    st.cache_data.clear()
    calls: list[str] = []
    _count_calls(monkeypatch, calls)
    path = str(ROOT / ("app.py" if script.endswith("/home.py") else script))   # home: the router's default
    first = open_page(path)
    assert not first.exception
    n_first = len(calls)
    second = open_page(path)
    assert not second.exception
    assert calls[n_first:] == [], f"the second session computed again: {calls[n_first:]}"
