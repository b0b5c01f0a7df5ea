"""The Markdown proof transcript renders: every maths segment of every learner's transcript (the
conformance cases, and one written with hostile page text) goes through the repository's bundled
KaTeX (olc_ui/viewer/assets/katex) in Chromium with ``throwOnError: true`` and ``strict: "error"`` (no
input KaTeX would only accept with a warning, which LaTeX might not): zero errors."""
from __future__ import annotations

from pathlib import Path

import pytest

import olc_core
from olc_core import transcript
from tests.core.cases import all_cases
from tests.core.test_transcript_record import VIOLATING
from tests.core.transcript_tools import math_segments
from tests.hostile import HOSTILE

KATEX = Path(__file__).resolve().parents[2] / "olc_ui" / "viewer" / "assets" / "katex"

RENDER_ALL = """(segments) => {
  const out = document.getElementById('out');
  const errors = [];
  segments.forEach(([tex, display], i) => {
    const el = document.createElement(display ? 'div' : 'span');
    out.appendChild(el);
    try {
      katex.render(tex, el, {throwOnError: true, displayMode: display, strict: 'error'});
    } catch (e) {
      errors.push(i + ': ' + e.message + ' in ' + tex.slice(0, 200));
    }
  });
  return {errors: errors, rendered: out.querySelectorAll('.katex').length,
          errorNodes: out.querySelectorAll('.katex-error').length};
}"""


def _documents() -> dict[str, str]:
    docs = {}
    for case in all_cases():
        X, y, params = case.make(0)
        docs[case.id] = transcript.markdown(olc_core.run(case.algorithm, X, y, **params), page=case.id)
    tr = olc_core.run("perceptron", [[1.0, 0.0], [0.0, 1.0], [1.0, 0.0]], [1, 1, -1])  # not separable: TD proof
    ctx = {"page": HOSTILE[3], "title": HOSTILE[0], "data": HOSTILE[4], "settings": {"data": HOSTILE[3]},
           "source": HOSTILE[1]}
    docs["hostile-nonseparable"] = transcript.markdown(tr, **ctx)
    # data that break each theorem's assumptions: n/a, undefined (?) and restated-assumption marks (issue 32)
    for rid, alg, X, y, params in VIOLATING:
        docs[rid] = transcript.markdown(olc_core.run(alg, X, y, **params), page=rid)
    return docs


@pytest.fixture
def katex_page(page):
    page.set_content("<!doctype html><html><head><meta charset='utf-8'><title>transcript maths</title></head>"
                     "<body><div id='out'></div></body></html>")
    page.add_style_tag(path=str(KATEX / "katex.min.css"))
    page.add_script_tag(path=str(KATEX / "katex.min.js"))
    assert page.evaluate("typeof katex.render") == "function"
    return page


def test_every_learner_transcript_renders_in_katex_without_an_error(katex_page):
    docs = _documents()
    assert {case.algorithm for case in all_cases()} == set(olc_core.ALGORITHMS)
    failures = {}
    for name, md in docs.items():
        segments = math_segments(md)
        assert len(segments) > 20, name
        katex_page.evaluate("document.getElementById('out').innerHTML = ''")
        got = katex_page.evaluate(RENDER_ALL, [[tex, display] for tex, display in segments])
        if got["errors"] or got["errorNodes"] or got["rendered"] != len(segments):
            failures[name] = got
    assert not failures, failures


def test_the_check_reports_what_katex_rejects(katex_page):
    """The harness is not vacuous: an unknown command, an unclosed group and a Unicode letter in maths
    (accepted by KaTeX's default, rejected in strict mode as LaTeX would) are each an error."""
    bad = [[r"\notacommand{x}", False], [r"\frac{1}{", True], ["é = 1", False], [r"\le 1", False]]
    got = katex_page.evaluate(RENDER_ALL, bad)
    assert [e.split(":")[0] for e in got["errors"]] == ["0", "1", "2"]
    assert got["rendered"] == 1


def test_the_page_serves_the_transcript_it_offers(page, streamlit_app, tmp_path):
    """The real app (deferred downloads run on the server only when clicked): the Winnow page's two
    proof downloads arrive named after the page and its changed setting, and the Markdown's maths
    renders in KaTeX."""
    url = streamlit_app("app.py")
    page.goto(f"{url}/winnow?seed=5&t=0")
    page.wait_for_selector('.olc-viewer[data-ready="true"]', timeout=90_000)
    files = {}
    for label in ("Download the proof (Markdown + KaTeX)", "Download the proof (LaTeX)"):
        with page.expect_download(timeout=60_000) as info:
            page.get_by_role("button", name=label).click()
        d = info.value
        path = tmp_path / d.suggested_filename
        d.save_as(path)
        files[d.suggested_filename] = path.read_text(encoding="utf-8")
    assert set(files) == {"winnow-seed5-proof.md", "winnow-seed5-proof.tex"}
    md = files["winnow-seed5-proof.md"]
    assert md.startswith("# Proof transcript: Winnow") and "seed = 5" in md
    assert files["winnow-seed5-proof.tex"].isascii()
    segments = math_segments(md)
    page.set_content("<!doctype html><html><head><meta charset='utf-8'></head><body><div id='out'></div></body></html>")
    page.add_script_tag(path=str(KATEX / "katex.min.js"))
    got = page.evaluate(RENDER_ALL, [[tex, display] for tex, display in segments])
    assert not got["errors"] and got["rendered"] == len(segments) > 20, got
