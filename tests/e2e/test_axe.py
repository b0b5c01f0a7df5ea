"""WCAG 2.1 AA (issue 23 §1): axe-core finds no critical or serious violation on any lesson page, in normal
mode and in presentation mode (``?present=1``), at a projector's 1100×800, on the first screen once the
page has finished rendering (its heading drawn, its step viewer ready, the run finished and the DOM quiet).

axe-core comes bundled with axe-playwright-python (requirements-test.txt); the rules run are those tagged
wcag2a, wcag2aa, wcag21a and wcag21aa. One server and one browser context per mode serve every page.
With ``STREAMLIT_THEME_BASE=dark`` in the environment the server, and so this test, use the dark theme.
"""
from __future__ import annotations

import pytest

pytest.importorskip("playwright")
pytest.importorskip("axe_playwright_python")
from axe_playwright_python.sync_playwright import Axe  # noqa: E402
from stbrowser import INSTRUMENT_JS, wait_for_rerun  # noqa: E402

from olc_ui.catalog import available  # noqa: E402

W, H = 1100, 800
PAGES = [row[4] for row in available()]
NO_VIEWER = {"home", "bound_explorer"}   # pages without a step viewer
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]
FAIL_ON = {"critical", "serious"}
MODES = {"normal": "", "present": "present=1"}


@pytest.fixture(scope="module")
def url(streamlit_app) -> str:
    return streamlit_app("app.py")


@pytest.fixture(scope="module")
def axe() -> Axe:
    return Axe()


@pytest.fixture(scope="module")
def tabs(browser):
    """One 1100×800 page per mode, reused by every lesson page."""
    made: dict[str, object] = {}
    contexts = []

    def get(mode: str):
        if mode not in made:
            ctx = browser.new_context(viewport={"width": W, "height": H})
            ctx.add_init_script(INSTRUMENT_JS)
            contexts.append(ctx)
            pg = ctx.new_page()
            pg.set_default_timeout(60_000)
            made[mode] = pg
        return made[mode]

    yield get
    for ctx in contexts:
        ctx.close()


def open_rendered(pg, url: str, path: str, query: str) -> None:
    where = "" if path == "home" else path   # the default page lives at the root
    pg.goto(f"{url.rstrip('/')}/{where}" + (f"?{query}" if query else ""))
    pg.wait_for_selector('[data-testid="stMain"] h1', timeout=90_000)
    if "present=1" in query:
        pg.wait_for_function("""() => { const p = document.querySelector('.st-key-olc_present_switch [data-testid="stWidgetLabel"] p');
            return p && parseFloat(getComputedStyle(p).fontSize) >= 18; }""", timeout=60_000)
    if path not in NO_VIEWER:
        pg.wait_for_selector('.olc-viewer[data-ready="true"]', timeout=90_000)
    res = wait_for_rerun(pg, 0.0, expect_run=False, quiet_ms=500)
    assert res.get("ok"), res


def describe(violations: list[dict]) -> str:
    lines = []
    for v in violations:
        targets = [" ".join(map(str, n.get("target", []))) for n in v.get("nodes", [])[:3]]
        lines.append(f"{v['id']} ({v.get('impact')}, {len(v.get('nodes', []))} nodes): {v.get('help')}\n"
                     + "\n".join(f"    {t}" for t in targets))
    return "\n".join(lines)


@pytest.mark.parametrize("mode", list(MODES))
@pytest.mark.parametrize("path", PAGES)
def test_no_serious_wcag_violation(tabs, url, axe, path, mode):
    pg = tabs(mode)
    open_rendered(pg, url, path, MODES[mode])
    results = axe.run(pg, options={"runOnly": {"type": "tag", "values": TAGS}, "resultTypes": ["violations"]})
    violations = results.response["violations"]
    bad = [v for v in violations if v.get("impact") in FAIL_ON]
    others = [v for v in violations if v.get("impact") not in FAIL_ON]
    if others:
        print(f"{path} [{mode}] minor/moderate:\n" + describe(others))
    assert not bad, f"{path} [{mode}]: {len(bad)} critical/serious axe violation(s):\n" + describe(bad)


@pytest.mark.parametrize("path", [p for p in PAGES if p not in NO_VIEWER])
def test_no_serious_wcag_violation_after_a_mistake(tabs, url, axe, path):
    """Normal mode, after Shift+→ (the next mistake) from the focused step viewer: the ledger, caption and
    charts of a mistake round pass the same rules."""
    pg = tabs("normal")
    open_rendered(pg, url, path, MODES["normal"])
    before = pg.get_attribute(".olc-viewer", "data-position")
    pg.focus(".olc-viewer")
    pg.keyboard.press("Shift+ArrowRight")
    pg.wait_for_function("(b) => document.querySelector('.olc-viewer').dataset.position !== b", arg=before,
                         timeout=10_000)
    res = wait_for_rerun(pg, 0.0, expect_run=False, quiet_ms=500)
    assert res.get("ok"), res
    results = axe.run(pg, options={"runOnly": {"type": "tag", "values": TAGS}, "resultTypes": ["violations"]})
    bad = [v for v in results.response["violations"] if v.get("impact") in FAIL_ON]
    assert not bad, f"{path} [after a mistake]: {len(bad)} critical/serious axe violation(s):\n" + describe(bad)
