"""Every lesson page downloads its run as one offline HTML file (issue 36 §1): opened from disk in Chromium with
the network off, the step viewer in it steps, plays, jumps to mistakes, answers the keys, and shows the caption,
the ledger and the chart descriptions as the page does (the caption and every ledger line checked against
Python's olc_ui.viewer.snapshot at each position visited) — with no request leaving the page and no console
error. The page's offline button is found by AppTest (the file is built by the callable the page hands it)."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from olc_ui.shared import offline
from olc_ui.viewer.snapshot import caption_at, ledger_at
from tests.app.pagetest import open_page, page_path, viewer_spec
from tests.app.test_transcript_downloads import PAGES, downloads  # noqa: F401  (the fixture)

VIEWER = ".olc-viewer"


def _offline(seen: list[tuple]) -> list[tuple[str, str]]:
    return [(name, data()) for label, data, name in seen if "offline" in label]


#: what Chromium's software WebGL says about a 3-D chart's canvas (performance notices of the browser, not of the
#: page: each names the GPU driver or the canvas read back), the only console warnings a 3-D file may print
GPU_NOTICES = re.compile(r"^\[\.WebGL-0x[0-9a-f]+\]GL Driver Message \(OpenGL, Performance|"
                         r"^Canvas2D: Multiple readback operations using getImageData")


def _norm(s: str) -> str:
    """White space folded (olc_ui.viewer.snapshot prints a number's minus sign as the browser does: −1)."""
    return re.sub(r"\s+", " ", s).strip()


@pytest.fixture
def offline_page(browser):
    """A page in a context with the network off, recording every request and console error."""
    ctx = browser.new_context(offline=True, viewport={"width": 1280, "height": 900})
    pg = ctx.new_page()
    pg.set_default_timeout(30_000)
    pg.requests, pg.errors = [], []
    pg.on("request", lambda r: pg.requests.append(r.url))
    pg.on("console", lambda m: pg.errors.append(m.text) if m.type in ("error", "warning") else None)
    pg.on("pageerror", lambda e: pg.errors.append(f"uncaught: {e}"))
    yield pg
    ctx.close()


def _position(pg, root: str = VIEWER) -> int:
    return int(pg.get_attribute(root, "data-position"))


def _click(pg, name: str, root: str = VIEWER) -> None:
    pg.locator(f'{root} button[aria-label="{name}"]').click(force=True)  # aria-disabled at an end: a no-op


def _shows(pg, spec: dict, p: int, root: str = VIEWER) -> None:
    """The viewer (``root``: its selector) is at ``p`` and its caption and ledger are Python's at ``p``."""
    expect(pg.locator(root)).to_have_attribute("data-position", str(p))
    assert _norm(pg.locator(f"{root} .olc-caption").inner_text()) == _norm(caption_at(spec, p))
    rows = pg.locator(f"{root} .olc-ledger-line")
    want = ledger_at(spec, p)
    assert rows.count() == len(want)
    marks = [rows.nth(i).locator(".olc-mark").inner_text() for i in range(rows.count())]
    assert marks == ["n/a" if r.get("na") else {True: "✓", False: "✗", None: "—"}[r["holds"]] for r in want]
    assert pg.locator(f"{root} .olc-ledger-line .katex").count() == len(want)  # typeset by the inlined KaTeX
    for label in pg.locator(f"{root} .olc-plot").evaluate_all("els => els.map(e => e.getAttribute('aria-label'))"):
        assert label.endswith(f"round {p} of {spec['T']}"), label


@pytest.mark.parametrize("page", sorted(PAGES))
def test_the_offline_file_is_the_step_viewer_with_the_network_off(page, downloads, offline_page, tmp_path):
    _, query, stem = PAGES[page]
    at = open_page(page_path(page), **query)
    assert not at.exception, at.exception
    files = _offline(downloads)
    [(name, text)] = files  # one file per viewer: the compare page's learners share theirs
    assert name.endswith("-offline.html") and name.startswith(stem.split("_")[0])
    if page == "compare":
        assert name == "compare-seed4-offline.html"
    spec = viewer_spec(at)
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    _walk(offline_page, spec, path)


def _walk(pg, spec: dict, path) -> None:
    """Open the file at ``path`` (the network off) and use every control of its step viewer, checking what it
    shows against ``spec`` at each position; nothing may leave the page, nothing may go wrong."""
    pg.goto(path.as_uri())
    pg.wait_for_selector(f'{VIEWER}[data-ready="true"]', timeout=60_000)
    T, mistakes = int(spec["T"]), [int(m) for m in spec["mistake_rounds"]]
    start = _position(pg)
    assert start == int(spec["position"])
    # the buttons
    _click(pg, "First"); _shows(pg, spec, 0)
    _click(pg, "Next"); _shows(pg, spec, 1)
    if mistakes:
        _click(pg, "Next mistake")
        first = next(m + 1 for m in mistakes if m + 1 > 1) if any(m + 1 > 1 for m in mistakes) else 1
        _shows(pg, spec, first)
        _click(pg, "Last"); _shows(pg, spec, T)
        _click(pg, "Previous mistake"); _shows(pg, spec, max(m + 1 for m in mistakes if m + 1 < T) if
                                                   any(m + 1 < T for m in mistakes) else T)
    _click(pg, "Last"); _shows(pg, spec, T)
    _click(pg, "Previous"); _shows(pg, spec, T - 1)
    # Play from the start, then pause mid-way: a speed at which the whole run takes at least five seconds (at the
    # fastest, 5,000 rounds a second, a run of 500 ends within a few frames and the button is "Play" again, so a
    # second click would replay it from round 0 rather than pause it)
    _click(pg, "First")
    speeds = [int(v) for v in pg.locator(f"{VIEWER} select[aria-label=Speed] option")
              .evaluate_all("os => os.map(o => o.value)")]
    speed = max([s for s in speeds if s * 5 <= T] or [min(speeds)])
    pg.select_option(f"{VIEWER} select[aria-label=Speed]", str(speed))
    _click(pg, "Play")
    expect(pg.locator(VIEWER)).not_to_have_attribute("data-position", "0")
    _click(pg, "Pause")  # the same button, named for what it does while playing
    expect(pg.locator(f'{VIEWER} button[aria-label="Play"]')).to_have_attribute("aria-pressed", "false")
    held = _position(pg)
    pg.wait_for_timeout(400)  # an absence check: nothing may move after Pause
    assert _position(pg) == held and 0 < held < T
    _shows(pg, spec, held)
    # the keys, with nothing focused
    pg.evaluate("document.activeElement && document.activeElement.blur()")
    pg.keyboard.press("Home"); _shows(pg, spec, 0)
    pg.keyboard.press("ArrowRight"); _shows(pg, spec, 1)
    pg.keyboard.press("ArrowLeft"); _shows(pg, spec, 0)
    if mistakes:
        pg.keyboard.press("Shift+ArrowRight"); _shows(pg, spec, mistakes[0] + 1)
    pg.keyboard.press("End"); _shows(pg, spec, T)
    # the scrubber
    pg.locator(f"{VIEWER} input[aria-label=Round]").fill(str(T // 2)); _shows(pg, spec, T // 2)
    # a chart's description and its "Data at this round" table
    toggle = pg.locator(f"{VIEWER} button[data-control=data]").first
    toggle.click()
    assert pg.locator(f"{VIEWER} table").first.is_visible()
    described = pg.locator(f"{VIEWER} .olc-plot").first.get_attribute("aria-describedby")
    assert described and _norm(pg.locator(f"#{described}").inner_text())
    # nothing left the page, nothing went wrong
    assert pg.requests == [path.as_uri()], pg.requests
    assert not [e for e in pg.errors if not GPU_NOTICES.search(e)], pg.errors


def test_the_fixed_part_is_at_most_1_5_MB_and_a_large_run_says_so():
    assert offline.fixed_size() <= 1_500_000
    spec = {"T": 1000, "run_id": "x", "figures": [], "arrays": {"a": [0.123456789] * 3_000_000}}
    why = offline.too_large(spec)
    assert why and "too large for one offline file" in why and "With T = " in why
    fits = int(re.search(r"T = ([\d,]+)", why).group(1).replace(",", ""))
    assert 0 < fits < 1000
    with pytest.raises(ValueError, match="too large"):
        offline.offline_html(spec, page="x")


def test_a_callers_text_is_escaped_and_clipped():
    from tests.hostile import HOSTILE

    spec = {"T": 2, "run_id": "x", "position": 0, "breaks": [], "mistake_rounds": [], "arrays": {},
            "figures": [{"id": "f", "title": HOSTILE[1], "figure": {"data": [], "layout": {}}}]}
    text = offline.offline_html(spec, page=HOSTILE[4], source=HOSTILE[1] + HOSTILE[6],
                                settings={HOSTILE[0]: HOSTILE[1], "long": HOSTILE[6]})
    body = text.split("<body>", 1)[1].split('<script type="application/octet-stream"', 1)[0]
    assert "<img" not in body and "<b>Y" not in body and "&lt;img src=http://host.invalid/x.png&gt;" in body
    assert "x" * 80 not in body and "x" * 78 + "…" in body


def test_the_offline_file_has_no_serious_wcag_violation(offline_page, tmp_path):
    """axe-core's WCAG 2.1 A/AA rules (as tests/e2e/test_axe.py runs them on the pages) on the Perceptron's
    offline file, at the start and after a mistake."""
    pytest.importorskip("axe_playwright_python")
    from axe_playwright_python.sync_playwright import Axe

    import olc_core
    from olc_ui.lessons.perceptron.view import perceptron_spec
    from tests.e2e.test_axe import FAIL_ON, TAGS, describe

    s = olc_core.streams.separable(T=200, d=2, gamma=0.1, radius=1.0, seed=0)
    spec = perceptron_spec(olc_core.run("perceptron", s.X, s.y, comparator=s.comparator), s.X, s.y, run_id="a")
    path = tmp_path / "perceptron-offline.html"
    path.write_text(offline.offline_html(spec, page="perceptron"), encoding="utf-8")
    pg = offline_page
    pg.goto(path.as_uri())
    pg.wait_for_selector(f'{VIEWER}[data-ready="true"]', timeout=60_000)
    for step in ("start", "Shift+ArrowRight"):
        if step != "start":
            pg.keyboard.press(step)
            expect(pg.locator(VIEWER)).to_have_attribute("data-position", str(int(spec["mistake_rounds"][0]) + 1))
        results = Axe().run(pg, options={"runOnly": {"type": "tag", "values": TAGS}, "resultTypes": ["violations"]})
        bad = [v for v in results.response["violations"] if v.get("impact") in FAIL_ON]
        assert not bad, f"offline file [{step}]: " + describe(bad)
    assert not pg.errors, pg.errors


def payload(text: str, element: str = "olc-payload") -> dict:
    """What an offline file carries in one of its packed script elements (gzip, base64), read back."""
    import base64
    import gzip
    import json

    b64 = re.search(rf'<script type="application/octet-stream" id="{element}">([^<]*)</script>', text).group(1)
    return json.loads(gzip.decompress(base64.b64decode(b64)))


def test_homes_six_round_run_as_one_offline_file(downloads, offline_page, tmp_path):
    """Home's live example goes home as every lesson page's run: its offline file is the Perceptron's step viewer
    on the six points, opened at the round Home shows."""
    from tests.conftest import ROOT

    at = open_page(str(ROOT / "app.py"), round="3")
    assert not at.exception
    [(name, text)] = _offline(downloads)
    assert name == "home-offline.html"
    spec = payload(text)["spec"]
    assert spec["T"] == 6 and spec["mistake_rounds"] == [0, 2] and spec["position"] == 3
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    _walk(offline_page, spec, path)


def test_the_explorers_sweep_as_one_offline_file(downloads, offline_page, tmp_path):
    """The Bound explorer (no step viewer) downloads its sweep as a plotly page: both charts drawn with the network
    off, each a named figure described by the page's description, their legends working, the table; nothing
    leaves the page, the console stays clean."""
    from tests.app.test_chart_names import _named

    at = open_page(page_path("bound_explorer"), alg="perceptron", param="noise", noise_lo="0", noise_hi="0.3",
                   points="4", seeds="3")
    assert not at.exception
    [(name, text)] = [(n, d()) for label, d, n in downloads if "offline" in label]
    named = _named(at)
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    pg = offline_page
    pg.goto(path.as_uri())
    pg.wait_for_selector("body[data-drawn=true]", timeout=60_000)
    plots = pg.locator(".olc-chart-plot.js-plotly-plot[role=figure]")
    assert plots.count() == 2 == len(named)
    for i, chart in enumerate(named):
        plot = plots.nth(i)
        assert _norm(pg.locator("#" + plot.get_attribute("aria-labelledby")).inner_text()) == _norm(chart["name"])
        assert _norm(pg.locator("#" + plot.get_attribute("aria-describedby")).inner_text()) == _norm(chart["text"])
        want = payload(text, "olc-figures")[i]
        assert plot.locator(".scatterlayer .trace").count() == len(want["data"])
        assert plot.locator(".legend .traces").count() >= 3
    # a legend entry hides its series, a second click shows it again (plotly's own control, offline)
    first = plots.nth(0)
    entry = first.locator(".legend .traces").nth(1)
    hidden = "el => el.data.filter(t => t.visible === 'legendonly').length"
    assert first.evaluate(hidden) == 0
    entry.click()
    pg.wait_for_function(f"el => ({hidden})(el) === 1", arg=first.element_handle())
    entry.click()
    pg.wait_for_function(f"el => ({hidden})(el) === 0", arg=first.element_handle())
    assert pg.locator("table.olc-charts-table tbody tr").count() == 4
    _axe(pg, "the explorer's offline file")
    assert pg.requests == [path.as_uri()], pg.requests
    assert not pg.errors, pg.errors


def _axe(pg, what: str) -> None:
    """axe-core's WCAG 2.1 A/AA rules, as tests/e2e/test_axe.py runs them: no serious or critical violation."""
    pytest.importorskip("axe_playwright_python")
    from axe_playwright_python.sync_playwright import Axe

    from tests.e2e.test_axe import FAIL_ON, TAGS, describe

    results = Axe().run(pg, options={"runOnly": {"type": "tag", "values": TAGS}, "resultTypes": ["violations"]})
    bad = [v for v in results.response["violations"] if v.get("impact") in FAIL_ON]
    assert not bad, f"{what}: " + describe(bad)


@pytest.mark.parametrize("tour_id", ["000-perceptron-and-winnow", "001-online-learning", "002-online-linear-classification",
                                     "003-perfect-committee", "004-mistake-bound-model"])
def test_a_tours_offline_file_works_in_every_section_with_the_network_off(tour_id, offline_page, tmp_path):
    """A shipped tour as one file (olc_ui/shared/tours/offline.py), opened from disk with the network off: the stops'
    formulas typeset, and in every section the stop's step viewer opens at the stop's round showing Python's
    caption and ledger, its buttons step it, and a key pressed with nothing focused steps the viewer of the section
    on screen (and no other); no request leaves the page, no console error."""
    from olc_ui.shared.tours import offline as tour_offline
    from olc_ui.shared.tours.store import FOLDER, read_folder
    from tests.tours.tourtest import runs, tables

    tour = read_folder(FOLDER, tables()).tours[tour_id]
    text = tour_offline.tour_html(tour, tables(), runs())
    data = payload(text)
    path = tmp_path / tour_offline.file_name(tour)
    path.write_text(text, encoding="utf-8")
    pg = offline_page
    pg.goto(path.as_uri())
    pg.wait_for_selector("body[data-ready=true]", timeout=60_000)
    tex = pg.locator(".olc-stop-text .olc-tex, .olc-tour-claim .olc-tex")
    assert tex.count() > 0 and tex.count() == pg.locator(".olc-stop-text .olc-tex .katex, .olc-tour-claim .olc-tex .katex").count()
    positions: dict[int, int] = {}
    for k, stop in enumerate(tour.stops, start=1):
        root = f"#stop-{k} .olc-viewer"
        pg.locator(f"#stop-{k}").evaluate("el => el.scrollIntoView({block: 'center'})")
        pg.wait_for_selector(f'{root}[data-ready="true"]', timeout=60_000)
        expect(pg.locator(f"#stop-{k}")).to_have_attribute("data-olc-keys", "here")
        spec = data["runs"][int(pg.get_attribute(f"#stop-{k} .olc-stop-run", "data-run"))]
        T = int(spec["T"])
        _shows(pg, spec, min(stop.t, T), root)
        step = "Previous" if stop.t >= T else "Next"
        _click(pg, step, root)
        at = min(stop.t, T) + (-1 if step == "Previous" else 1)
        _shows(pg, spec, at, root)
        pg.evaluate("document.activeElement && document.activeElement.blur()")
        pg.keyboard.press("Home")
        _shows(pg, spec, 0, root)
        pg.keyboard.press("ArrowRight")
        _shows(pg, spec, 1, root)
        positions[k] = 1
        for j, p in positions.items():   # the keys stepped this section's viewer only
            assert _position(pg, f"#stop-{j} .olc-viewer") == p, (k, j)
    if tour_id == "000-perceptron-and-winnow":   # axe over 17 mounted viewers takes ~50 s: one tour
        pg.mouse.move(0, 0)   # no button hovered (a hovered step button's label is drawn in the primary colour)
        _axe(pg, f"the tour {tour_id}'s offline file, every section's viewer mounted")
    assert pg.requests == [path.as_uri()], pg.requests
    assert not pg.errors, pg.errors


def test_the_3d_perceptrons_offline_file(downloads, offline_page, tmp_path):
    """The Perceptron in 3-D (d = 3: a scatter3d scene, the plotly.js bundle with the 3-D traces) as one offline file:
    the same walk as every page's, with the network off; its fixed part is stated in docs/viewer-spec.md."""
    at = open_page(page_path("perceptron"), d="3")
    assert not at.exception
    [(name, text)] = _offline(downloads)
    assert name == "perceptron-d3-offline.html"
    spec = viewer_spec(at)
    assert any(t.get("type") == "scatter3d" for f in spec["figures"] for t in f["figure"]["data"])
    assert offline.spec_bundle(spec) == "gl3d" and len(text.encode()) > offline.fixed_size("gl3d")
    assert offline.fixed_size("gl3d") <= 1_500_000   # the 3-D bundle, not the whole library (issue 36 §1)
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    _walk(offline_page, spec, path)
    assert offline_page.locator(f"{VIEWER} .js-plotly-plot .gl-container canvas").count() >= 1   # the 3-D scene
