"""olc_ui/viewer/prose.py: a lesson's intro as HTML whose ``$…$`` formulas the viewer's KaTeX typesets in the browser
(issue 24, the first load). It draws exactly what st.markdown drew for the intros — bold, italic, formulas, plain
text — and refuses any other Markdown rather than draw it differently."""
from __future__ import annotations

import ast
import importlib

import pytest

from olc_ui.viewer import prose as P
from olc_ui.viewer.component import _MARKUP_RE
from tests.app.pagetest import read_prose
from tests.conftest import ROOT


def test_bold_italic_and_formulas_and_an_emphasis_across_a_formula():
    html = P.to_html("The **sandwich** $M\\gamma \\le \\sqrt{M}R$ closes: **when $\\gamma > 0$** holds (*Next*).")
    assert html == ('<p>The <strong>sandwich</strong> <span class="olc-tex">M\\gamma \\le \\sqrt{M}R</span> closes: '
                    '<strong>when <span class="olc-tex">\\gamma &gt; 0</span></strong> holds (<em>Next</em>).</p>')


def test_text_and_tex_are_escaped_and_a_citation_is_plain_text():
    html = P.to_html("Q&A [000] §4: $a < b \\;\\&\\; c$.")
    assert html == '<p>Q&amp;A [000] §4: <span class="olc-tex">a &lt; b \\;\\&amp;\\; c</span>.</p>'


@pytest.mark.parametrize("text", [
    "two\nlines", "some `code`", "an _underscore_ emphasis", "a [link](http://x)", "an escape \\*", "raw <b>html</b>",
    "# heading", "- a list item", "1. a numbered item", "> a quote", "a | table", "~~struck~~",
    "an odd $ sign", "an empty formula $ $ here", "**open bold", "an *open italic", "a lone * star",
])
def test_other_markdown_is_refused(text):
    with pytest.raises(ValueError, match="prose"):
        P.to_html(text)


def _intros() -> dict[str, str]:
    """Every page's intro: the literal passed to ``page.intro``, or its lesson's ``INTRO`` (each entry of a dict)."""
    out = {}
    for path in sorted((ROOT / "pages").glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        lesson = next((f"{n.module}.{a.name}" for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)
                       and (n.module or "").startswith("olc_ui.lessons.") for a in n.names if a.asname == "L"), None)
        for call in ast.walk(tree):
            if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) and call.func.attr == "intro"):
                continue
            arg = call.args[0]
            if isinstance(arg, ast.Constant):
                out[path.stem] = arg.value
                continue
            value = importlib.import_module(lesson).INTRO
            for key, text in (value.items() if isinstance(value, dict) else [("", value)]):
                out[f"{path.stem}{'.' + key if key else ''}"] = text
    return out


def test_every_page_intro_is_drawn_and_reads_back_as_written():
    intros = _intros()
    assert len(intros) >= 10 and {"perceptron", "winnow", "experts.wm", "compare"} <= set(intros)
    for name, text in intros.items():
        markup = f'<div class="{P.CLASS}">{P.to_html(text)}</div>'
        assert read_prose(markup) == [text], name
        assert markup.count(f'class="{P.TEX_CLASS}"') == text.count("$") // 2, name


def test_the_typesetting_script_survives_st_html_and_loads_the_viewers_katex():
    js = P._typeset_js()
    assert not _MARKUP_RE.search(js)                  # DOMPurify would drop the script whole
    assert "katex-" in js and "katex.min.js" in js and "katex.min.css" in js
    assert "Plotly" not in js.split("const urls")[1]  # plotly.js stays the viewer's business
    assert f"{P.FALLBACK_MS}" in js and 'output: "htmlAndMathml"' in js
