"""Pieces every lesson page shares: the trace download, the figure page, and small text helpers."""
from __future__ import annotations

import base64
import functools
import html
import re

import numpy as np
import plotly.graph_objects as go
import plotly.io as pio
import streamlit as st

from olc_core import transcript
from olc_core._support.words import agree, count  # noqa: F401  (re-exported for the pages)

from olc_ui.shared import data as olc_data
from olc_ui.shared import notebook as page_notebook
from olc_ui.shared import offline
from olc_ui.shared import transcript as page_transcript
from olc_ui.shared.spec_tools import rounds_text  # noqa: F401  (pure: the specs use it too)
from olc_ui.viewer.assets import ASSET_DIR
from olc_ui.viewer.component import live_positions
from olc_ui.viewer.snapshot import caption_at, figures_at, ledger_at

__all__ = ["downloads", "offline_download", "figure_html", "rounds_text"]


_KATEX = ASSET_DIR / "katex"


@functools.lru_cache(maxsize=1)
def _katex_inline() -> str:
    """KaTeX's script and stylesheet, with its fonts inlined (woff2 as data: URIs): the saved page
    renders the ledger's mathematics offline, with nothing to fetch."""
    css = (_KATEX / "katex.min.css").read_text(encoding="utf-8")

    def font(m: re.Match) -> str:
        data = base64.b64encode((_KATEX / "fonts" / f"{m.group(1)}.woff2").read_bytes()).decode("ascii")
        return f'src:url(data:font/woff2;base64,{data}) format("woff2")'

    css = re.sub(r'src:url\(fonts/([A-Za-z0-9_-]+)\.woff2\) format\("woff2"\)(?:,url\([^)]*\) format\("[a-z]+"\))*',
                 font, css)
    js = (_KATEX / "katex.min.js").read_text(encoding="utf-8")
    return f"<style>{css}</style><script>{js}</script>"


_RENDER_TEX = ("<script>document.querySelectorAll('.tex').forEach(function (e) {"
               "katex.render(e.textContent, e, {throwOnError: false});});</script>")


_INDEX_CHAR = re.compile(r"[^\W_]|\*")  # a letter or digit (any script), or *


def index_parts(s: str) -> list:
    """Light index notation (x_t, Φ_{t+1}, β^{p_i}, 2^M) as strings and ``(tag, parts)`` for sub/sup:
    the same parse as viewer.js ``indexParts`` (a braced group, or one letter, digit or *)."""
    out: list = []
    buf, i = "", 0
    while i < len(s):
        c = s[i]
        if c in "_^" and i + 1 < len(s):
            inner, nxt = None, i + 1
            if s[i + 1] == "{":
                depth, j = 0, i + 1
                while j < len(s):
                    if s[j] == "{":
                        depth += 1
                    elif s[j] == "}":
                        depth -= 1
                        if depth == 0:
                            break
                    j += 1
                if j < len(s):
                    inner, nxt = s[i + 2:j], j + 1
            elif _INDEX_CHAR.fullmatch(s[i + 1]):
                inner, nxt = s[i + 1], i + 2
            if inner is not None:
                if buf:
                    out.append(buf)
                buf = ""
                out.append(("sub" if c == "_" else "sup", index_parts(inner)))
                i = nxt
                continue
        buf += c
        i += 1
    if buf:
        out.append(buf)
    return out


def rich_html(s: str) -> str:
    """``index_parts`` as escaped HTML: text escaped, indices as <sub>/<sup>."""
    def render(parts) -> str:
        return "".join(html.escape(p) if isinstance(p, str) else f"<{p[0]}>{render(p[1])}</{p[0]}>" for p in parts)
    return render(index_parts(s))


def figure_html(spec: dict, position: int) -> str:
    """A standalone HTML page (plotly.js and KaTeX inlined) with the viewer's figures, caption and proof
    ledger as they stand at ``position``. Every text from the spec is escaped (titles can hold file names)."""
    esc = html.escape
    title = esc(spec["figures"][0].get("title", "")) if spec["figures"] else ""
    parts = [f"<h2>{title} — round {position} of {spec['T']}</h2>",
             f"<p>{esc(caption_at(spec, position))}</p>"]
    for i, fig in enumerate(figures_at(spec, position)):
        fig_title = (fig.get("layout", {}).pop("title", None) or {}).get("text", "")
        if i > 0 and fig_title:  # a heading, not a plotly title (which would sit under the legend)
            parts.append(f"<h3>{esc(fig_title)}</h3>")
        parts.append(pio.to_html(go.Figure(fig), full_html=False, include_plotlyjs=(i == 0)))
    rows = ledger_at(spec, position)
    if rows:
        ledger_title = (spec.get("ledger") or {}).get("title") or "Proof ledger at this round"
        parts.append(f"<h3>{rich_html(ledger_title)}</h3><ul class='ledger'>")
        for r in rows:
            mark = "n/a" if r.get("na") else {True: "✓", False: "✗", None: "—"}[r["holds"]]
            reason = f" — {rich_html(r['reason'])}" if r["reason"] else ""
            parts.append(f"<li>{mark} <span class='tex'>{esc(r['latex'])}</span>{reason}</li>")
        parts.append("</ul>")
    style = ("<style>body{font-family:system-ui,sans-serif;max-width:1100px;margin:1.5em auto;padding:0 1em}"
             ".ledger li{margin:.5em 0;list-style:none}.ledger .katex{font-size:1.1em}</style>")
    return ("<!doctype html><html><head><meta charset='utf-8'><title>olc figure</title>" + style
            + _katex_inline() + "</head><body>" + "".join(parts) + _RENDER_TEX + "</body></html>")


def downloads(trace, spec: dict, position: int, name: str, X: np.ndarray | None = None,
              y: np.ndarray | None = None, *, settings: page_transcript.PageSettings | None = None,
              csv_examples: bool = True, run_input: tuple | None = None, offline_file: bool = True) -> None:
    """The trace's download (CSV, one row per round) and the proof transcript (Markdown with KaTeX maths,
    LaTeX source; see olc_ui/shared/transcript.py), each built only when clicked (deferred); file names carry the
    page and its settings. With kaleido installed, also the figure at the end of the run as a PNG.

    The figure at the round on screen is downloaded from the step viewer itself ("Download
    the figure at this round (HTML)", built in the browser): a button here would build it
    from the position the server last heard of, which lags while the viewer plays.

    ``settings``: the page's (its lesson's ``TRANSCRIPT``): which of the link's settings name the files and
    go into the transcript, and where an uploaded file is kept.

    With the examples ``X`` and labels ``y``, also the run as a Jupyter notebook (olc_ui/shared/notebook.py: the
    data rebuilt by the page's ``recipe`` or embedded, the run, checks that it is the page's, the pictures);
    ``csv_examples=False`` leaves the examples out of the trace CSV (one column per feature: too wide for a
    large N); ``run_input``: the ``(X, y)`` the learner ran on when the rows handed for the CSV are not it (the
    margin Perceptron's rounds run over its examples, pass after pass); ``offline_file=False`` leaves out the offline
    file (a page that shows several runs in one viewer offers it once: :func:`offline_download`)."""
    page = settings
    link = page_transcript.link_settings()
    used = page_transcript.used_settings(page, link, trace)  # a file is named by settings the run uses
    settings = {k: v for k, v in page_transcript.changed_settings(page, link).items() if k in used}
    row = st.container(horizontal=True)  # one row of buttons (they wrap on a narrow screen)
    row.download_button("Download the trace (CSV)",
                        data=lambda: olc_data.trace_csv(trace, *((X, y) if csv_examples else (None, None))),
                        file_name=transcript.file_name(name, settings, "csv", what="trace"), mime="text/csv",
                        on_click="ignore", key=f"{name}_dl_csv")
    if not len(trace.proofs):
        return  # a run without a proof has no transcript
    ctx = page_transcript.context(trace, spec, name, page)
    row.download_button("Download the proof (Markdown + KaTeX)", data=lambda: transcript.markdown(trace, **ctx),
                        file_name=transcript.file_name(name, settings, "md"), mime="text/markdown",
                        on_click="ignore", key=f"{name}_dl_proof_md")
    row.download_button("Download the proof (LaTeX)", data=lambda: transcript.latex(trace, **ctx),
                        file_name=transcript.file_name(name, settings, "tex"), mime="application/x-tex",
                        on_click="ignore", key=f"{name}_dl_proof_tex")
    nX, ny = run_input if run_input is not None else (X, y)
    if nX is not None and ny is not None:
        row.download_button("Download this run as a notebook (.ipynb)",
                            data=lambda: page_notebook.notebook(
                                trace, nX, ny, page=name, title=ctx["title"], settings=ctx["settings"],
                                call=page_transcript.data_call(page, link), source=ctx["source"]),
                            file_name=page_notebook.file_name(settings, name), mime="application/x-ipynb+json",
                            on_click="ignore", key=f"{name}_dl_ipynb")
    if offline_file:
        _offline(row, spec, position, name, settings, ctx)
    if page_transcript.png_available():
        row.download_button("Download the figure at the end of the run (PNG)",
                            data=lambda: page_transcript.figure_png(spec, int(spec["T"])),
                            file_name=transcript.file_name(name, settings, "png", what="figure"), mime="image/png",
                            on_click="ignore", key=f"{name}_dl_png")


def offline_download(where, spec: dict, position: int, name: str, *, settings: page_transcript.PageSettings | None,
                     traces: list) -> None:
    """The offline file of a viewer that shows several runs (the compare page's learners, one cursor): one button
    for the whole viewer, named by the settings any of its ``traces`` uses."""
    link = page_transcript.link_settings()
    used: dict[str, str] = {}
    for trace in traces:
        used.update(page_transcript.used_settings(settings, link, trace))
    named = {k: v for k, v in page_transcript.changed_settings(settings, link).items() if k in used}
    title = (spec.get("figures") or [{}])[0].get("title", "")
    _offline(where, spec, position, name, named, {"title": title, "settings": used, "source": None})


def _offline(row, spec: dict, position: int, name: str, settings: dict[str, str], ctx: dict) -> None:
    """"Download this run as one offline file (HTML)" (olc_ui/shared/offline.py): the step viewer, its libraries
    and the run in one file; a run too large for one file says so instead, with the T that fits."""
    why = offline.too_large(spec)
    if why:
        row.caption(why)
        return
    # the round on screen when clicked: a step reruns the viewer alone (olc_ui/shared/page.py), not this button
    live, run_id = live_positions(), str(spec.get("run_id"))
    row.download_button("Download this run as one offline file (HTML)",
                        data=lambda: offline.offline_html(spec, page=name, title=ctx["title"], settings=ctx["settings"],
                                                          source=ctx["source"], position=live.get(run_id, position)),
                        file_name=offline.file_name(settings, name), mime="text/html", on_click="ignore",
                        key=f"{name}_dl_offline")


def band_text(band, on: str = "advice") -> str:
    """The seeded runs' spread of the whole-run mistake count, as whole numbers: the 5th and 95th
    percentiles (discrete: counts some run made) and how many runs lie between them."""
    lo, hi = int(band.band[0, -1]), int(band.band[-1, -1])
    q0, q1 = band.quantiles[0], band.quantiles[-1]
    S = len(band.seeds)
    inside = int(((band.totals >= lo) & (band.totals <= hi)).sum())
    return (f"; of {S} seeded runs on the same {on}, {inside} ({inside / S:.0%}) made between {lo} and {hi} "
            f"mistakes (the {q0:.0%} and {q1:.0%} quantiles of their counts; mean {float(band.mean[-1]):.4g}).")
