"""A page's trusted prose (a paragraph of Markdown with ``$…$`` formulas) as one ``st.html`` element, its formulas
typeset in the browser by the step viewer's own KaTeX.

Through ``st.markdown`` a lesson's intro waited for Streamlit's rehype-katex chunk and became a React element per
formula, on the browser's main thread, before the viewer's charts (issue 24; docs/benchmarks.md §2, "First load").
Here the paragraph is plain HTML, each formula a ``<span class="olc-tex">`` holding its TeX; a small script loads
the KaTeX the viewer uses (the same files, the same cache ``window.__olcViewerLibs``: loaded once for both) and
renders every such span — HTML and MathML, as Streamlit's Markdown does, so a screen reader reads the MathML. The
paragraph is hidden until its formulas are typeset (no raw TeX on screen); if KaTeX cannot load it is shown with the
TeX as written (after :data:`FALLBACK_MS` at most).

Only what the intros use is taken, and anything else Markdown would read is refused (:func:`to_html` raises), so
that a new intro cannot silently render differently from ``st.markdown``: ``**bold**``, ``*italic*``, ``$…$``;
a ``[000]`` citation is plain text. The text is trusted page prose, never user input (that goes through
olc_ui/shared/safe.py).
"""
from __future__ import annotations

import functools
import html
import json
import re

import streamlit as st

from olc_ui.viewer.assets import assets as served_assets
from olc_ui.viewer.component import _MARKUP_RE, _libs_js

__all__ = ["CLASS", "CSS", "FALLBACK_CLASS", "FALLBACK_MS", "TEX_CLASS", "prose", "to_html", "typeset_script"]

#: The paragraph's class (its CSS and the typesetting script find it by this)
CLASS = "olc-prose"
#: A formula's class: its text is the TeX until typeset (then ``data-olc-tex="1"``)
TEX_CLASS = "olc-tex"
#: Shown with its TeX as written when KaTeX has not typeset it by then (ms)
FALLBACK_MS = 4000
#: The class a paragraph gets when it is shown with its TeX as written
FALLBACK_CLASS = "olc-prose-fallback"

#: Markdown that a paragraph of prose may not hold (outside its formulas): what st.markdown would read as something
#: this renderer does not draw — a line break or block, code, a link, an underscore's emphasis, an escape, raw HTML
_REFUSED = re.compile(r"[\n`_\\<>#|~]|\]\(|^\s*[-+>]\s|^\s*\d+\.\s")
_BOLD = re.compile(r"\*\*(?=\S)(.+?)(?<=\S)\*\*")
_ITALIC = re.compile(r"\*(?=\S)(.+?)(?<=\S)\*")

CSS = f"""<style>
.{CLASS} p {{ margin: 0 0 1rem 0; font-size: 1rem; line-height: 1.6; overflow-wrap: break-word; }}
.{CLASS} strong {{ font-weight: 600; }}
.{CLASS} p:last-child {{ margin-bottom: 0; }}
.{CLASS}:has(.{TEX_CLASS}:not([data-olc-tex])):not(.{FALLBACK_CLASS}) {{ visibility: hidden; }}
</style>"""


def to_html(text: str) -> str:
    """``text`` (one paragraph: ``**bold**``, ``*italic*``, ``$TeX$``) as ``<p>`` HTML, each formula a span holding
    its escaped TeX. Raises ValueError for any other Markdown (see :data:`_REFUSED`), an odd number of ``$`` or an
    emphasis left open."""
    parts = text.split("$")
    if len(parts) % 2 == 0:
        raise ValueError(f"prose: an odd number of $ in {text[:60]!r}…")
    tex = parts[1::2]
    if any(not t.strip() for t in tex):
        raise ValueError(f"prose: an empty formula in {text[:60]!r}…")
    # the formulas out of the way (a placeholder each: NUL never occurs in text), the emphasis may span them
    words = "\0".join(parts[0::2])
    bad = _REFUSED.search(words)
    if bad:
        raise ValueError(f"prose: {bad.group(0)!r} is Markdown this renderer does not draw (in {text[:60]!r}…)")
    out = html.escape(words, quote=False)
    out = _BOLD.sub(r"<strong>\1</strong>", out)
    out = _ITALIC.sub(r"<em>\1</em>", out)
    if "*" in out:
        raise ValueError(f"prose: an emphasis left open in {text[:60]!r}…")
    pieces = out.split("\0")
    spans = [f'<span class="{TEX_CLASS}">{html.escape(t, quote=False)}</span>' for t in tex]
    body = "".join(p + s for p, s in zip(pieces, spans + [""]))
    return f"<p>{body}</p>"


def _typeset_js() -> str:
    """The script that loads the viewer's KaTeX (only it: plotly.js is the viewer's own business) and typesets every
    formula not yet typeset; after :data:`FALLBACK_MS` an untypeset paragraph is shown as written. (Asking for the
    served assets also puts KaTeX's files in the server's static folder, as the viewer does.)"""
    a = served_assets()
    return _script(json.dumps({"js": a["katex_js"], "css": a["katex_css"]}))


@functools.lru_cache(maxsize=4)
def _script(urls: str) -> str:
    code = f"""(() => {{
{_libs_js()}
const urls = {urls};
const abs = (p) => new URL(p, serverBase()).href;
const todo = () => document.querySelectorAll(".{CLASS} .{TEX_CLASS}:not([data-olc-tex])");
const asWritten = () => {{ for (const el of todo()) el.closest(".{CLASS}").classList.add("{FALLBACK_CLASS}"); }};
setTimeout(asWritten, {FALLBACK_MS});
Promise.all([loadScript(abs(urls.js), "katex"), loadCss(abs(urls.css))]).then(([katex]) => {{
  for (const el of todo()) {{
    try {{ katex.render(el.textContent, el, {{throwOnError: false, output: "htmlAndMathml"}}); }} catch (e) {{ }}
    el.dataset.olcTex = "1";
  }}
}}).catch(asWritten);
}})();"""
    if _MARKUP_RE.search(code):   # pragma: no cover - the script above has none
        raise ValueError("prose: markup in the typesetting script: st.html would drop it")
    return code


def prose(text: str) -> None:
    """Draw ``text`` (:func:`to_html`'s Markdown) as one paragraph, its formulas typeset by the viewer's KaTeX."""
    st.html(_prose_html(text), unsafe_allow_javascript=True)


@functools.lru_cache(maxsize=128)
def _prose_html(text: str) -> str:
    """The element's HTML for ``text`` (a page's intro is drawn on each of its runs: made once)."""
    return f'{CSS}<div class="{CLASS}">{to_html(text)}</div><script>{_typeset_js()}</script>'


def typeset_script() -> str:
    """The script that typesets every formula not yet typeset in any ``olc-prose`` element on the page (for another
    element that holds prose: the tour bar, olc_ui/shared/tours/bar.py); put it in that element's ``st.html``."""
    return _typeset_js()
