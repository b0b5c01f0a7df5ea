"""Keyboard use on every page (issue 23 §2): a visible focus ring, a skip link, an inert collapsed sidebar.

:func:`setup` is called by :func:`olc_ui.shared.page.setup`, so every page gets it from its one setup call.

- **Focus ring.** Every focusable element shows a 3 px ring in :data:`RING` when focused from the keyboard
  (``:focus-visible``). #1c7ed6 has ≥ 3:1 contrast (WCAG 1.4.11) on the light theme's white (4.2:1) and
  sidebar grey #f0f2f6 (3.7:1) and on the dark theme's #0e1117 (4.5:1) and sidebar #262730 (3.5:1).
  Streamlit's switches, checkboxes, radios and sliders focus a visually hidden ``<input>``; their ring is
  drawn on the label or slider thumb around it, and a select's or text box's on its visible box. A table
  (``st.dataframe``) moves the focus to the selected cell's element inside its canvas (no box of its own): the
  ring is drawn on the canvas.
- **Skip link.** "Skip to the step controls" is the first tab stop (before Streamlit's own "Skip to main
  content"), shown only while focused and only on a page with a step viewer; it moves the focus to the
  viewer's first visible step control (``.olc-controls button``; on a phone ``.olc-phone-bar button``).
- **Inert sidebar.** When Streamlit's sidebar is collapsed (``data-collapsed="true"`` on
  ``[data-testid=stSidebar]`` in Streamlit 1.67; presentation mode starts with it collapsed), its content
  (``[data-testid=stSidebarContent]``) gets the ``inert`` attribute, so its links and widgets, off screen,
  take no focus; opening the sidebar removes it. A MutationObserver keeps it in sync, and the state is
  checked again before every Tab press (in case Streamlit re-created the element).

The script runs in the page's document (``st.html(..., unsafe_allow_javascript=True)``) and installs
itself once per browser tab (``window.__olcFocus``); it sets no text but the skip link's fixed label.
"""
from __future__ import annotations

import streamlit as st

__all__ = ["RING", "CSS", "JS", "setup"]

#: The focus ring's colour: ≥ 3:1 against the light and the dark theme's page and sidebar backgrounds.
RING = "#1c7ed6"

CSS = f"""<style>
:root {{ --olc-focus-ring: {RING}; }}
:focus-visible {{ outline: 3px solid var(--olc-focus-ring) !important; outline-offset: 2px !important; }}
/* switches, checkboxes, radios: the focused input is hidden; ring its label */
label:has(input:focus-visible) {{ outline: 3px solid var(--olc-focus-ring) !important; outline-offset: 2px;
  border-radius: 0.25rem; }}
label input:focus-visible {{ outline: none !important; }}
/* the browser scrolls the hidden input into view: keep the label around it on screen too */
label input, [data-testid="stSlider"] input {{ scroll-margin: 3rem; }}
/* selects and text/number boxes: ring the visible box around the focused input */
[data-baseweb="select"]:has(input:focus-visible),
[data-baseweb="input"]:has(input:focus-visible),
[data-baseweb="textarea"]:has(textarea:focus-visible) {{ outline: 3px solid var(--olc-focus-ring) !important;
  outline-offset: 2px; }}
[data-baseweb="select"] input:focus-visible, [data-baseweb="input"] input:focus-visible,
[data-baseweb="textarea"] textarea:focus-visible {{ outline: none !important; }}
/* sliders: react-aria focuses a visually hidden range input inside the thumb; ring the thumb */
[data-testid="stSlider"] div:has(> div > input[type="range"]:focus-visible) {{
  outline: 3px solid var(--olc-focus-ring) !important; outline-offset: 2px; }}
[data-testid="stSlider"] input[type="range"]:focus-visible {{ outline: none !important; }}
/* a table (st.dataframe, glide's canvas): Tab moves the grid's selection from cell to cell and the focus to the
   selected cell's element in its accessibility tree, inside the canvas and with no box of its own; ring the canvas
   then as while it holds the focus itself (the grid draws the selected cell's border in it), inside its edge: the
   table's box clips whatever is drawn outside the canvas. :focus-within, not :has(:focus-visible): Chromium does
   not restyle the canvas when the focus moves among its cells, so that ring would not be drawn; the ring shows
   after a click into the table too. */
[data-testid="data-grid-canvas"]:is(:focus-visible, :focus-within) {{
  outline: 3px solid var(--olc-focus-ring) !important; outline-offset: -3px !important; }}
/* sidebar links sit in a box that clips: draw their ring inside */
[data-testid="stSidebar"] a:focus-visible {{ outline-offset: -3px !important; }}
/* right of Streamlit's button that opens a collapsed sidebar (top left: 18–62 px on a phone), which it would
   cover while focused (seen on a phone at 390 px) */
.olc-skip {{ position: fixed; top: 0.5rem; left: 4.5rem; z-index: 1000002; padding: 0.5rem 0.9rem;
  background: #ffffff; color: #0b4f8a; font: 600 1rem/1.4 "Source Sans Pro", sans-serif; border-radius: 0.4rem;
  transform: translateY(-200%); text-decoration: underline; }}
.olc-skip:focus {{ transform: none; }}
.olc-skip[hidden] {{ display: none; }}
</style>"""

JS = """<script>
(() => {
  if (window.__olcFocus) { window.__olcFocus.sync(); return; }
  const SIDEBAR = '[data-testid="stSidebar"]';
  // on a phone the step buttons are in the viewer's step bar (viewer_phone.js), the download stays in .olc-controls
  const CONTROLS = ['.olc-phone-bar button', '.olc-controls button'];
  function sync() {
    const bar = document.querySelector(SIDEBAR);
    const content = bar && bar.querySelector('[data-testid="stSidebarContent"]');
    if (!content) return;
    const closed = bar.getAttribute('data-collapsed') === 'true' || bar.getAttribute('aria-expanded') === 'false';
    if (closed && !content.hasAttribute('inert')) content.setAttribute('inert', '');
    if (!closed && content.hasAttribute('inert')) content.removeAttribute('inert');
  }
  function firstControl() {
    return CONTROLS.flatMap((s) => [...document.querySelectorAll(s)]).find((b) => !b.disabled && b.getClientRects().length > 0
      && getComputedStyle(b).visibility !== 'hidden') || null;
  }
  const skip = document.createElement('a');
  skip.className = 'olc-skip';
  skip.href = '#';
  skip.textContent = 'Skip to the step controls';
  skip.hidden = true;
  skip.addEventListener('click', (e) => {
    e.preventDefault();
    const target = firstControl();
    if (target) { target.scrollIntoView({ block: 'center' }); target.focus(); }
  });
  document.body.insertBefore(skip, document.body.firstChild);
  // before the browser moves the focus: the skip link exists only with a step viewer; the sidebar's state
  document.addEventListener('keydown', (e) => {
    if (e.key !== 'Tab') return;
    skip.hidden = !firstControl();
    sync();
  }, true);
  new MutationObserver(sync).observe(document.body,
    { subtree: true, attributes: true, attributeFilter: ['data-collapsed', 'aria-expanded'] });
  window.__olcFocus = { sync, skip };
  sync();
})();
</script>"""


def setup() -> None:
    """The focus ring's styles and the skip-link / inert-sidebar script, on this run of the page."""
    st.html(CSS)
    # the script's element goes in the sidebar: in the main column it took a row (a gap) above the viewer, and
    # presentation mode sizes the charts to the height left below the viewer's top
    st.sidebar.html(JS, unsafe_allow_javascript=True)
