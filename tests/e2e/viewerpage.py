"""What the lesson pages' browser tests read from the step viewer: its caption, and a plotly trace's
data by figure and trace name."""
from __future__ import annotations

VIEWER = ".olc-viewer"


def trace_by_name(page, figure: str, name: str, mode: str | None = None) -> dict | None:
    """The x and y of the trace ``name`` (and ``mode``, if given) in figure ``figure``, or None."""
    return page.evaluate("""([f, n, m]) => {
        const gd = document.querySelector(`.olc-plot[data-figure-id="${f}"]`);
        const t = gd.data.find(d => d.name === n && (m === null || d.mode === m));
        return t ? {x: Array.from(t.x || []), y: Array.from(t.y || [])} : null;
    }""", [figure, name, mode])


def caption(page):
    return page.locator(f"{VIEWER} .olc-caption")


def open_viewer(page, url: str, query: str = "t=0", path: str = "perceptron") -> None:
    """Open ``path?query`` and wait until its step viewer is ready."""
    page.goto(f"{url}/{path}?{query}")
    page.wait_for_selector(f'{VIEWER}[data-ready="true"]', timeout=90_000)


def expect_position(page, p: int) -> None:
    """The viewer shows position ``p``."""
    from playwright.sync_api import expect
    expect(page.locator(VIEWER)).to_have_attribute("data-position", str(p))
