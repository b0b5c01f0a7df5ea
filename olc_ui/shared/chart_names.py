"""A chart drawn by Streamlit (``st.plotly_chart``, outside the step viewer) with an accessible name and a text
alternative (WCAG 1.1.1, 4.1.2; issue 32 §3 and §6): the Bound explorer's two charts, the Compare page's sweep and the
canvas points are clicked onto.

:func:`plotly_chart` draws the chart in a keyed container and puts, in the sidebar (no gap in the main column), a
small script that gives its plotly element (``.js-plotly-plot``) a role, the name as ``aria-label`` and a
visually hidden description (``aria-describedby``): the numbers the chart plots, as the page computed them. The role
is "img", as the step viewer's charts, unless the chart holds controls of its own (plotly's mode bar: its buttons):
then "figure", since an image's content is hidden from a screen reader and may hold no control (axe's
nested-interactive rule). The names live in ``window.__olcChartNames`` (key → name and text: what a test reads the
names against) and a MutationObserver puts names and roles back whenever Streamlit draws the chart again (the mode
bar comes with plotly's drawing). The texts are data (JSON in the script, ``<`` escaped): nothing of them is read as
HTML.
"""
from __future__ import annotations

import json

import streamlit as st

__all__ = ["plotly_chart", "script"]

_HIDDEN = ("position:absolute;width:1px;height:1px;margin:-1px;padding:0;overflow:hidden;clip:rect(0 0 0 0);"
           "white-space:nowrap;border:0")

_JS = """<script>
(() => {
  const names = (window.__olcChartNames = window.__olcChartNames || {});
  Object.assign(names, %s);
  const CONTROLS = 'button, a[href], input, select, textarea, [tabindex]:not([tabindex="-1"])';
  const apply = () => {
    for (const [key, d] of Object.entries(window.__olcChartNames)) {
      const gd = document.querySelector(`.st-key-${key}_named .js-plotly-plot`);
      if (!gd) continue;
      if (gd.getAttribute("aria-label") !== d.name) gd.setAttribute("aria-label", d.name);
      const role = gd.querySelector(CONTROLS) ? "figure" : "img";
      if (gd.getAttribute("role") !== role) gd.setAttribute("role", role);
      const id = `olc-chart-desc-${key}`;
      let p = document.getElementById(id);
      if (!p || !gd.parentElement.contains(p)) {
        if (p) p.remove();
        p = document.createElement("p");
        p.id = id;
        p.setAttribute("style", "%s");
        gd.parentElement.appendChild(p);
      }
      if (p.textContent !== d.text) p.textContent = d.text;
      if (gd.getAttribute("aria-describedby") !== id) gd.setAttribute("aria-describedby", id);
    }
  };
  apply();
  if (!window.__olcChartObserver) {
    window.__olcChartObserver = new MutationObserver(() => apply());
    window.__olcChartObserver.observe(document.body, { subtree: true, childList: true });
  }
})();
</script>"""


def script(key: str, name: str, text: str) -> str:
    """The script that names chart ``key`` (the page's container key) and describes it."""
    data = json.dumps({key: {"name": name, "text": text}}, ensure_ascii=False).replace("<", "\\u003c")
    return _JS % (data, _HIDDEN)


def plotly_chart(where, fig, *, key: str, name: str, text: str, **kw):
    """``where.plotly_chart(fig, …)`` in a container keyed ``key``, named ``name`` and described by ``text``
    (plain text: the numbers the chart plots, from the run); returns what ``plotly_chart`` returns (its
    selection, with ``on_select``)."""
    box = where.container(key=f"{key}_named")
    out = box.plotly_chart(fig, key=key, **kw)
    st.sidebar.html(script(key, name, text), unsafe_allow_javascript=True)
    return out
