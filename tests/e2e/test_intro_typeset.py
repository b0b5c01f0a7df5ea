"""A lesson's intro (olc_ui/viewer/prose.py) in Chromium: HTML whose formulas the step viewer's KaTeX typesets —
every one, with its MathML for a screen reader, no raw TeX on screen, KaTeX loaded once for the intro and the viewer
alike; the paragraph stays the same element when the page reruns (no flash of untypeset text); the folded copy of
presentation mode is typeset when opened; without KaTeX the paragraph is still shown, its TeX as written."""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

pytest.importorskip("playwright")
from playwright.sync_api import expect  # noqa: E402

from olc_ui.viewer.prose import FALLBACK_MS  # noqa: E402
from stbrowser import INSTRUMENT_JS  # noqa: E402
from viewerpage import VIEWER, caption  # noqa: E402

QUERY = "T=400&seed=1&noise=0.1&t=0"


def _intro_formulas() -> int:
    """How many formulas the Perceptron's intro holds (its ``$…$``, read from pages/perceptron.py's page.intro call)."""
    tree = ast.parse((Path(__file__).resolve().parents[2] / "pages" / "perceptron.py").read_text(encoding="utf-8"))
    call = next(n for n in ast.walk(tree) if isinstance(n, ast.Call) and getattr(n.func, "attr", "") == "intro")
    return ast.literal_eval(call.args[0]).count("$") // 2


FORMULAS = _intro_formulas()

STATE = """(sel) => { const p = document.querySelector(sel); if (!p) return null;
  const tex = [...p.querySelectorAll('.olc-tex')];
  return {visible: getComputedStyle(p).visibility === 'visible' && p.getBoundingClientRect().height > 0,
          formulas: tex.length, typeset: tex.filter(t => t.dataset.olcTex === '1').length,
          katex: tex.filter(t => t.querySelector('.katex .katex-html') && t.querySelector('.katex math')).length,
          errors: p.querySelectorAll('.katex-error').length, text: p.innerText}; }"""


@pytest.fixture(scope="module")
def url(streamlit_app) -> str:
    return streamlit_app("app.py")


def test_every_formula_of_the_intro_is_typeset_with_mathml_and_katex_is_loaded_once(page, url):
    page.goto(f"{url}/perceptron?{QUERY}")
    page.wait_for_selector(f'{VIEWER}[data-ready="true"]', timeout=90_000)
    page.wait_for_function(f"() => ({STATE})('.st-key-olc_intro_full .olc-prose').typeset === {FORMULAS}",
                           timeout=10_000)
    s = page.evaluate(STATE, ".st-key-olc_intro_full .olc-prose")
    assert FORMULAS >= 11 and s["visible"] and s["errors"] == 0, s
    assert s["formulas"] == s["typeset"] == s["katex"] == FORMULAS, s
    assert "\\langle" not in s["text"] and "On a mistake the Perceptron adds" in s["text"]
    loads = page.evaluate("() => performance.getEntriesByType('resource').map(e => e.name)"
                          ".filter(n => n.endsWith('/katex.min.js')).length")
    assert loads == 1
    # a rerun (a setting changed) keeps the typeset paragraph: the same element, never untypeset again
    page.evaluate("""() => { window.__prose = document.querySelector('.st-key-olc_intro_full .olc-prose');
      window.__untyped = false; new MutationObserver(() => {
        if (document.querySelector('.olc-prose .olc-tex:not([data-olc-tex])')) window.__untyped = true;
      }).observe(document, {subtree: true, childList: true, attributes: true}); }""")
    seed = page.get_by_label("Seed")
    seed.fill("2")
    seed.press("Enter")
    page.wait_for_function("() => location.search.includes('seed=2')", timeout=30_000)
    expect(caption(page)).to_contain_text("Round 0 of 400", timeout=30_000)
    page.wait_for_timeout(800)
    assert page.evaluate("() => document.contains(window.__prose) && !window.__untyped") is True


def test_the_folded_intro_of_presentation_mode_is_typeset_when_opened(page, url):
    page.goto(f"{url}/perceptron?{QUERY}&present=1")
    page.wait_for_selector(f'{VIEWER}[data-ready="true"]', timeout=90_000)
    assert page.locator(".olc-prose").count() == 0          # folded and closed: not drawn
    page.get_by_text("What this lesson shows").click()
    page.wait_for_function(f"() => ({STATE})('.olc-prose')?.typeset === {FORMULAS}", timeout=30_000)
    s = page.evaluate(STATE, ".olc-prose")
    assert s["visible"] and s["katex"] == FORMULAS and s["errors"] == 0, s


@pytest.mark.parametrize("how", ["fails", "never comes"])
def test_without_katex_the_intro_is_shown_with_its_tex_as_written(browser, url, how):
    """KaTeX's script refused: the paragraph is shown at once; held (never answered): hidden — no raw TeX on
    screen — until FALLBACK_MS, then shown."""
    ctx = browser.new_context(viewport={"width": 1100, "height": 800})
    ctx.add_init_script(INSTRUMENT_JS)
    held = []   # the routes held: never answered
    ctx.route("**/katex.min.js", (lambda route: route.abort()) if how == "fails" else (lambda r: held.append(r)))
    try:
        pg = ctx.new_page()
        pg.goto(f"{url}/perceptron?{QUERY}")
        pg.wait_for_selector(".st-key-olc_intro_full .olc-prose", state="attached", timeout=90_000)
        t0 = pg.evaluate("performance.now()")
        if how == "never comes":
            assert pg.evaluate(STATE, ".st-key-olc_intro_full .olc-prose")["visible"] is False
        pg.wait_for_function(f"() => ({STATE})('.st-key-olc_intro_full .olc-prose').visible",
                             timeout=FALLBACK_MS + 10_000)
        waited = pg.evaluate("performance.now()") - t0
        assert waited < FALLBACK_MS if how == "fails" else waited > FALLBACK_MS / 2, waited
        s = pg.evaluate(STATE, ".st-key-olc_intro_full .olc-prose")
        assert s["typeset"] == 0 and "\\langle w^*, w\\rangle" in s["text"], s
    finally:
        ctx.close()
