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


#: The pixel of the data point (x, y) on the main figure's axes, after the figure is scrolled to the middle of the
#: screen (clear of Streamlit's fixed header, which on a phone can lie over the top of a board scrolled to the top).
BOARD_PIXEL = """([x, y]) => {
  const gd = document.querySelector('.olc-plot[data-figure-id=main]');
  gd.scrollIntoView({block: 'center', inline: 'nearest', behavior: 'instant'});
  const fl = gd._fullLayout, b = gd.getBoundingClientRect();
  const px = b.left + fl.xaxis._offset + fl.xaxis.l2p(x), py = b.top + fl.yaxis._offset + fl.yaxis.l2p(y);
  const hit = document.elementFromPoint(px, py);
  return [px, py, hit && gd.contains(hit) ? null : String(hit && (hit.getAttribute('class') || hit.tagName))];
}"""


def board_pixel(page, x: float, y: float) -> tuple[float, float]:
    """Where a student taps to put a point at data (x, y) on the game's board: the board in view, and that pixel
    on the board itself (no header or message over it) — else the test says what lies there."""
    px, py, over = page.evaluate(BOARD_PIXEL, [x, y])
    assert over is None, f"the board's point ({x}, {y}) lies under {over} at pixel ({px:.0f}, {py:.0f})"
    return px, py
