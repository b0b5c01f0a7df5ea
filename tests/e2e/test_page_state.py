"""Every lesson page keeps its settings and its step across a visit to another page, and the browser's
history has one entry per page visited: a page load adds none of its own, Back returns to the previous
page and Forward goes on again (real app, headless Chromium)."""
from __future__ import annotations

from urllib.parse import parse_qsl, urlsplit

import pytest

pytest.importorskip("playwright")
from playwright.sync_api import expect  # noqa: E402

from olc_ui.catalog import LESSONS  # noqa: E402

TITLES = {"home": "Online linear classification", "perceptron": "The Perceptron and its mistake bound",
          "margin_perceptron": "The Margin Perceptron", "experts": "Learning from expert advice",
          "halving": "Halving: the version space",
          "boolean_concepts": "The mistake-bound model: conjunctions and decision lists",
          "winnow": "Winnow: multiplicative updates", "exponentiated_update": "The exponentiated update",
          "ftrl": "The randomised FTRL linear classifier", "compare": "Compare learners on the same rounds",
          "bound_explorer": "Bound explorer: how tight are the bounds?"}
NAV = {row[4]: row[2] for row in LESSONS}  # url path -> the title in the navigation
#: a link with settings other than the defaults (and a position), per page
LINKS = {
    "home": {"round": "3"},
    "perceptron": {"gamma": "0.05", "T": "777", "seed": "3", "t": "17"},
    "margin_perceptron": {"T": "77", "gamma": "0.3", "seed": "3", "t": "17"},
    "experts": {"N": "17", "T": "777", "t": "17"},
    "halving": {"T": "77", "seed": "3", "t": "17"},
    "boolean_concepts": {"mode": "conj", "n": "7", "T": "77", "seed": "3", "t": "17"},
    "winnow": {"N": "40", "T": "177", "seed": "3", "t": "17"},
    "exponentiated_update": {"N": "17", "T": "177", "seed": "3", "t": "17"},
    "ftrl": {"T": "177", "sseed": "3", "runs": "20", "t": "17"},
    "compare": {"preset": "dense", "N": "40", "T": "177", "seed": "3", "t": "17"},
    "bound_explorer": {"alg": "halving", "param": "N", "N_hi": "64", "seeds": "3", "T": "77"},
}
#: pages without a step viewer (nothing to wait for but the title and the URL)
NO_VIEWER = {"home", "bound_explorer"}


def test_every_lesson_is_checked():
    assert set(LINKS) == {row[4] for row in LESSONS}


@pytest.fixture(scope="module")
def url(streamlit_app) -> str:
    return streamlit_app("app.py")


def query(page) -> dict:
    return dict(parse_qsl(urlsplit(page.url).query, keep_blank_values=True))


def wait_page(page, path: str) -> None:
    """The page at ``path`` is drawn: its title, its viewer (if any) ready, and the URL holds its settings."""
    # the default page (home) is at the app's root once reached through the navigation
    page.wait_for_function("p => location.pathname.endsWith('/' + p) || (p === 'home' && location.pathname.endsWith('/'))",
                           arg=path, timeout=90_000)
    expect(page.locator("h1").first).to_contain_text(TITLES[path], timeout=90_000)
    if path not in NO_VIEWER:
        page.wait_for_selector('.olc-viewer[data-ready="true"]', timeout=90_000)
    page.wait_for_function("keys => keys.every(k => new URL(location.href).searchParams.has(k))",
                           arg=[k for k in LINKS[path] if k != "t"], timeout=30_000)


def settings_of(page, path: str) -> dict:
    q = query(page)
    return {k: q.get(k) for k in LINKS[path] if k != "t"}


def expect_position(page, t: str) -> None:
    page.wait_for_function("t => { const v = document.querySelector('.olc-viewer');"
                           " return v && v.dataset.ready === 'true' && v.dataset.position === t; }", arg=t)


def nav_click(page, path: str) -> None:
    page.locator('.st-key-olc_nav a').filter(has_text=NAV[path]).first.click()


@pytest.mark.parametrize("path", list(LINKS))
def test_settings_and_step_survive_a_visit_elsewhere_and_history_has_one_entry_per_page(page, url, path):
    other = "halving" if path != "halving" else "perceptron"
    link = LINKS[path]
    where = "" if path == "home" else path   # the default page lives at the root (/home is not routed)
    page.goto(f"{url}/{where}?" + "&".join(f"{k}={v}" for k, v in link.items()))
    wait_page(page, path)
    want = {k: v for k, v in link.items() if k != "t"}
    assert settings_of(page, path) == want
    if "t" in link:
        expect_position(page, link["t"])
    page.wait_for_timeout(1500)  # any late rerun (the viewer's report) would have written by now
    h0 = page.evaluate("history.length")

    nav_click(page, other)
    wait_page(page, other)
    page.wait_for_timeout(1000)
    assert page.evaluate("history.length") == h0 + 1, "a page load added history entries of its own"
    nav_click(page, path)   # the navigation's link carries no query string
    wait_page(page, path)
    assert settings_of(page, path) == want, "the page forgot its settings"
    if "t" in link:
        expect_position(page, link["t"])
    page.wait_for_timeout(1000)
    assert page.evaluate("history.length") == h0 + 2

    page.go_back()          # one press: the other page
    wait_page(page, other)
    page.go_back()          # and one more: this page, as it was
    wait_page(page, path)
    assert settings_of(page, path) == want
    if "t" in link:
        expect_position(page, link["t"])
    page.go_forward()
    wait_page(page, other)
    assert page.evaluate("history.length") == h0 + 2
