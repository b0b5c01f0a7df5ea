"""The Perceptron page keeps the student's place during Play (real app, headless Chromium): the figure
download is of the round on screen, and a sidebar slider moved during Play keeps the round."""
from __future__ import annotations


import pytest

pytest.importorskip("playwright")
from playwright.sync_api import expect  # noqa: E402

VIEWER = ".olc-viewer"
T = 2000


@pytest.fixture(scope="module")
def url(streamlit_app) -> str:
    return streamlit_app("app.py")


def position(page) -> int:
    return int(page.get_attribute(VIEWER, "data-position"))


def start_playing(page, url: str, until: int) -> None:
    page.goto(f"{url}/perceptron?T={T}&seed=1&t=0")
    page.wait_for_selector(f'{VIEWER}[data-ready="true"]', timeout=90_000)
    page.locator(f"{VIEWER} select").select_option("20")   # 20 rounds a second
    page.get_by_role("button", name="Play", exact=True).click()
    page.wait_for_function("n => +document.querySelector('.olc-viewer').dataset.position >= n", arg=until)
    assert page.get_attribute(VIEWER, "data-playing") == "true"


def test_the_downloaded_figure_is_of_the_round_shown_during_play(page, url, tmp_path):
    start_playing(page, url, 25)
    with page.expect_download(timeout=60_000) as info:
        page.get_by_role("button", name="Download the figure at this round (HTML)").click()
    shown = position(page)                       # the click paused the viewer there
    assert page.get_attribute(VIEWER, "data-playing") == "false"
    assert 25 <= shown < T
    caption = page.inner_text(f"{VIEWER} .olc-caption")
    assert caption.startswith(f"Round {shown} of {T}")
    d = info.value
    assert d.suggested_filename == f"perceptron_round_{shown}.html"
    path = tmp_path / d.suggested_filename
    d.save_as(path)
    html = path.read_text(encoding="utf-8")
    assert f"— round {shown} of {T}</h2>" in html
    assert caption.replace("&", "&amp;") in html
    assert html.count("Plotly.newPlot(") == 3 and "katex" in html       # three figures, typeset ledger
    assert "<script src=" not in html and "@font-face" in html          # nothing to fetch: it stands alone


def test_a_slider_moved_during_play_keeps_the_round(page, url):
    start_playing(page, url, 25)
    run_before = page.get_attribute(VIEWER, "data-run-id")
    slider = page.locator('[data-testid="stSidebar"] [data-testid="stSlider"]').filter(has_text="Label noise") \
        .get_by_role("slider")
    slider.focus()
    before = position(page)
    slider.press("ArrowRight")                   # noise 0 → 0.01: a new run
    page.wait_for_function("r => { const v = document.querySelector('.olc-viewer');"
                           " return v.dataset.runId !== r && v.dataset.ready === 'true'; }", arg=run_before,
                           timeout=60_000)
    after = position(page)
    assert after >= before, f"the viewer jumped back from round {before} to {after}"
    page.get_by_role("button", name="Pause", exact=True).click()
    paused = position(page)
    page.wait_for_function("t => new URL(location.href).searchParams.get('t') === String(t)", arg=paused)
    page.wait_for_function("() => new URL(location.href).searchParams.get('noise') === '0.01'", timeout=30_000)
    # the server hears of the paused round: a later rerun keeps it
    page.wait_for_timeout(1500)
    slider.press("ArrowRight")                   # noise 0.02: another run, while paused
    page.wait_for_function("r => document.querySelector('.olc-viewer').dataset.runId.includes('n0.02')",
                           arg=None, timeout=60_000)
    page.wait_for_selector(f'{VIEWER}[data-ready="true"]')
    assert position(page) == paused
    expect(page.locator(f"{VIEWER} .olc-caption")).to_contain_text(f"Round {paused} of {T}")


def test_leaving_during_play_and_coming_back_finds_the_round_that_was_shown(page, url):
    """Play, go to another lesson through the navigation, come back: the viewer opens at the round it
    last showed (remembered by the browser tab), not at the last round Python heard of (0 here)."""
    start_playing(page, url, 40)
    page.locator('.st-key-olc_nav a').filter(has_text="Halving: the version space").first.click()
    page.wait_for_function("() => location.pathname.endsWith('/halving')")
    shown = int(page.evaluate("""() => Object.entries(sessionStorage)
        .filter(([k]) => k.startsWith('olc-shown:perceptron:')).map(([, v]) => +v).reduce((a, b) => Math.max(a, b), 0)"""))
    assert shown >= 40
    page.wait_for_selector(f'{VIEWER}[data-ready="true"]', timeout=90_000)
    page.locator('.st-key-olc_nav a').filter(has_text="Perceptron").first.click()
    page.wait_for_function("() => location.pathname.endsWith('/perceptron')")
    page.wait_for_function(f"""() => {{ const v = document.querySelector('.olc-viewer');
        return v && v.dataset.ready === 'true' && +v.dataset.position === {shown}; }}""", timeout=90_000)
    assert page.get_attribute(VIEWER, "data-playing") != "true"    # it opens paused
    expect(page.locator(f"{VIEWER} .olc-caption")).to_contain_text(f"Round {shown} of {T}")
    page.wait_for_function("t => new URL(location.href).searchParams.get('t') === String(t)", arg=shown,
                           timeout=30_000)
