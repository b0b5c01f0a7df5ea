"""An accessible name for every chart a page draws with ``st.plotly_chart`` (issue 32 §6).

The step viewer names its own charts (role="img" and an aria-label that follows the round: viewer_a11y.js). A chart
drawn by ``st.plotly_chart`` (the bound explorer's two, the compare page's mistakes-against-N chart, the click canvas)
is a plotly ``<div class="js-plotly-plot">`` with no role and no name: a screen reader announces nothing for it.

- :func:`named` puts the chart's name into its figure, as ``layout.meta.olc_name`` (plotly keeps ``meta`` as data and
  draws nothing for it), so the name travels with the figure and a test can read it from the page's data.
- :data:`JS` (installed once per browser tab by :func:`setup`, called from olc_ui/shared/page.py) gives every such
  chart that name as its aria-label, again whenever Streamlit redraws a chart, and a role: "img" (as the viewer's
  charts), or "figure" when the chart holds controls of its own (plotly's toolbar buttons: an image's content is
  hidden from a screen reader, and axe's nested-interactive rule forbids controls in it). A chart whose figure names
  none gets its plotly title, else "Chart". The numbers of each chart are also in a table on its page.
"""
from __future__ import annotations

import streamlit as st

__all__ = ["NAME_KEY", "JS", "named", "setup"]

#: where :func:`named` puts the name in the figure's ``layout.meta``
NAME_KEY = "olc_name"


def named(fig: dict, name: str) -> dict:
    """``fig`` (a plotly figure dict) with its accessible name; returned for chaining."""
    layout = fig.setdefault("layout", {})
    meta = layout.get("meta")
    layout["meta"] = {**(meta if isinstance(meta, dict) else {}), NAME_KEY: name}
    return fig


JS = """<script>
(() => {
  if (window.__olcChartNames) { window.__olcChartNames(); return; }
  const SEL = '[data-testid="stPlotlyChart"] .js-plotly-plot';
  const CONTROLS = 'button, a[href], input, select, textarea, [tabindex]:not([tabindex="-1"])';
  function nameOf(gd) {
    const meta = (gd.layout && gd.layout.meta) || (gd._fullLayout && gd._fullLayout.meta);
    if (meta && typeof meta === 'object' && typeof meta.%(key)s === 'string' && meta.%(key)s) return meta.%(key)s;
    const title = gd.layout && gd.layout.title;
    const text = typeof title === 'string' ? title : (title && title.text) || '';
    return text.replace(/<[^>]*>/g, '').trim() || 'Chart';
  }
  function name() {
    for (const gd of document.querySelectorAll(SEL)) {
      const n = nameOf(gd);
      // a chart with its own controls (plotly's toolbar: buttons) is a named figure, so they stay reachable;
      // without, a named image (its SVG's tick labels are not read one by one)
      const role = gd.querySelector(CONTROLS) ? 'figure' : 'img';
      if (gd.getAttribute('role') !== role) gd.setAttribute('role', role);
      if (gd.getAttribute('aria-label') !== n) gd.setAttribute('aria-label', n);
    }
  }
  let queued = false;
  new MutationObserver(() => {
    if (queued) return;
    queued = true;
    requestAnimationFrame(() => { queued = false; name(); });
  }).observe(document.body, { subtree: true, childList: true });
  window.__olcChartNames = name;
  name();
})();
</script>""" % {"key": NAME_KEY}


def setup() -> None:
    """The naming script, on this run of the page (its element in the sidebar: it takes no row of the page)."""
    st.sidebar.html(JS, unsafe_allow_javascript=True)
