"""Charts drawn outside the step viewer as one offline HTML file (issue 36 §1): the Bound explorer's sweep, which
has no step viewer, goes home as a self-contained plotly page — each chart with its accessible name and its
description (the texts :mod:`olc_ui.shared.chart_names` gives the page's charts), the sentences under them and the
table — that opens from disk with the network off.

As the step viewer's offline file (:mod:`olc_ui.shared.offline`): plotly.js (the basic bundle when every trace is a
scatter, bar or pie) and the figures are stored gzip-compressed in base64 and unpacked by the browser's own
``DecompressionStream``; a Content-Security-Policy forbids any request. Every text is the caller's and is escaped
here; the figures are data (JSON), never HTML.
"""
from __future__ import annotations

import html
import json
from dataclasses import dataclass, field

from olc_core._transcript.texdoc import clip

from olc_ui.shared.offline import NEEDS, UNPACK_JS, bundle, packed, page_html, plotly_path, script_text, trace_types

__all__ = ["Chart", "charts_html"]


@dataclass(frozen=True)
class Chart:
    """One chart: its accessible name (a heading too), its description (the numbers it plots, in words) and its
    plotly figure (a dict: ``data``, ``layout``)."""
    name: str
    text: str
    figure: dict = field(default_factory=dict)


def _table(caption: str, rows: list[dict]) -> str:
    if not rows:
        return ""
    esc = html.escape
    head = "".join(f'<th scope="col">{esc(str(k))}</th>' for k in rows[0])
    body = "".join("<tr>" + "".join(f"<td>{esc(str(v))}</td>" for v in r.values()) + "</tr>" for r in rows)
    return (f'<table class="olc-charts-table"><caption>{esc(caption)}</caption><thead><tr>{head}</tr></thead>'
            f"<tbody>{body}</tbody></table>")


def charts_html(title: str, *, about: list[str], charts: list[Chart], notes: list[str] = (),
                table: tuple[str, list[dict]] | None = None) -> str:
    """The file: ``title`` (h1), the ``about`` lines, each chart (a heading with its name, the chart — ``role=
    "figure"``, named, described by the description printed under it), the ``notes`` and the ``table`` (its
    caption and its rows, each a dict column → text). Every text is escaped."""
    esc = (lambda s: html.escape(str(s), quote=True))
    parts = [f"<h1>{esc(clip(title, 200))}</h1>"]
    parts += [f'<p class="olc-offline-about">{esc(a)}</p>' for a in about]
    for i, c in enumerate(charts):
        parts.append(f'<section class="olc-chart"><h2 id="olc-chart-{i}-name">{esc(c.name)}</h2>'
                     f'<div id="olc-chart-{i}" class="olc-chart-plot" role="figure" aria-labelledby="olc-chart-{i}-name" '
                     f'aria-describedby="olc-chart-{i}-desc"></div>'
                     f'<p id="olc-chart-{i}-desc" class="olc-chart-desc">{esc(c.text)}</p></section>')
    parts += [f'<p class="olc-chart-note">{esc(n)}</p>' for n in notes]
    if table is not None:
        parts.append(_table(*table))
    figures = packed(json.dumps([c.figure for c in charts], allow_nan=False, separators=(",", ":")).encode("utf-8"))
    lib = packed(plotly_path(bundle(trace_types(c.figure for c in charts))).read_bytes())
    body = (f'<main>{"".join(parts)}<noscript>This file draws its charts with JavaScript: allow scripts to see '
            f'them (their descriptions and the table are above).</noscript><p id="olc-charts-status" role="status">'
            f'</p></main>'
            f'<script type="application/octet-stream" id="olc-lib-plotly">{lib}</script>'
            f'<script type="application/octet-stream" id="olc-figures">{figures}</script>'
            f"<script>{script_text(UNPACK_JS + _START.replace('__NEEDS__', NEEDS))}</script>")
    return page_html(title, f"<style>{_CSS}</style>", body)


_CSS = ("body{margin:0;background:#fff;color:#31333f;font-family:\"Source Sans Pro\",system-ui,sans-serif}"
        "main{max-width:1400px;margin:0 auto;padding:1em 1.25em}h1{font-size:1.5em;margin:.2em 0 .4em}"
        "h2{font-size:1.2em;margin:1.2em 0 .3em}.olc-offline-about{margin:.2em 0;color:#444;font-size:.95em}"
        ".olc-chart-plot{min-height:470px}.olc-chart-desc{color:#444;margin:.3em 0 .8em}"
        ".olc-chart-note{margin:.4em 0}.olc-charts-table{border-collapse:collapse;margin:1em 0}"
        ".olc-charts-table caption{text-align:left;font-weight:600;padding:.3em 0}"
        ".olc-charts-table th,.olc-charts-table td{border:1px solid #bbb;padding:.25em .6em;text-align:right}"
        "#olc-charts-status:empty{display:none}")

#: unpack plotly.js and the figures, draw each chart
_START = r"""
(async function () {
  "use strict";
  const status = document.getElementById("olc-charts-status");
  try {
    const [code, figures] = await Promise.all([olcUnpack("olc-lib-plotly"), olcUnpack("olc-figures")]);
    const Plotly = olcRun(code, "Plotly");
    const figs = JSON.parse(figures);
    await Promise.all(figs.map((f, i) => Plotly.newPlot(document.getElementById("olc-chart-" + i), f.data,
      f.layout || {}, { displaylogo: false, responsive: true })));
    document.body.dataset.drawn = "true";
  } catch (err) {
    status.textContent = "This file could not draw its charts: " + (err && err.message ? err.message : err) +
      ". __NEEDS__";
    status.setAttribute("role", "alert");
  }
})();
"""
