"""The class session as a lecture with three students found it (issue 32 §7), in real browsers against a real server
(its own, with a 1 s heartbeat: OLC_CLASS_BEAT_S): a projector (1100×800, presentation mode), laptops and a phone
(390×844), each its own browser context.

- the charts stay readable on the projector's first screen in every class state (before, session started, question
  asked, open, revealed with the distribution and the tally): each first-row chart wholly on the screen, its plot
  area measured, no legend scroll box added, the SVG drawn where plotly's layout says;
- "Start a class session" in presentation mode's top bar, reachable by the keyboard;
- the join link on this computer's address (the server listens on 127.0.0.1): the lecturer is told;
- the count is of live connections: a duplicated tab counts once, a closed tab and a mute socket drop out;
- a student whose connection stalls (a TCP proxy that stops forwarding) reads "reconnecting", not "following", and
  comes back;
- under "all eyes" a student's sidebar settings cannot start a run of their own;
- a student reads their own sidebar sentence; no empty question box above the result; the phone's chosen answer
  wraps as the others do."""
from __future__ import annotations

import asyncio
import re
import socket
import threading
import time
from pathlib import Path

import pytest

pytest.importorskip("playwright")
pytest.importorskip("olc_ui.classroom")
pytest.importorskip("axe_playwright_python")
from axe_playwright_python.sync_playwright import Axe  # noqa: E402
from playwright.sync_api import expect  # noqa: E402

from stbrowser import StreamlitServer, free_port  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
W, H = 1100, 800
VIEWER = ".olc-viewer"
BEAT_S = 1.0
PAGES = {"perceptron": "T=60&seed=0", "winnow": ""}
#: each first-row chart's plot area on the projector, in every class state: its smaller side at least this (px)
READABLE_PX = {"perceptron": 180, "winnow": 110}
#: pages whose first-row legends fit beside or above their plots in every class state without a scroll box of their
#: own (Winnow's six long names do not, under a question: its legends scroll there, above or beside the plot alike)
NO_LEGEND_SCROLL = {"perceptron"}


@pytest.fixture(scope="module")
def url():
    srv = StreamlitServer(ROOT / "app.py", cwd=ROOT, env={"OLC_CLASS_BEAT_S": str(BEAT_S)}).start()
    yield srv.url
    srv.stop()


@pytest.fixture
def room(browser):
    """``room(name, **context kwargs)`` -> a page in a context of its own; every console error fails the test."""
    made, errors = [], []

    def open_page(name, **kw):
        ctx = browser.new_context(**kw)
        pg = ctx.new_page()
        pg.set_default_timeout(60_000)
        pg.on("pageerror", lambda exc: errors.append(f"{name} uncaught: {exc}"))
        pg.on("console", lambda m: errors.append(f"{name} console: {m.text}") if m.type == "error" else None)
        made.append(ctx)
        return pg
    yield open_page
    for ctx in made:
        ctx.close()
    assert not errors, "\n".join(errors)


AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]


def _axe_serious(pg, where: str) -> list[str]:
    """axe-core's critical and serious WCAG 2.1 AA violations inside ``where``."""
    res = Axe().run(pg, context=where, options={"runOnly": {"type": "tag", "values": AXE_TAGS},
                                                "resultTypes": ["violations"]})
    return [f"{v['id']}: {v['help']}" for v in res.response["violations"] if v.get("impact") in ("critical", "serious")]


def _ready(pg):
    pg.wait_for_selector(f'{VIEWER}[data-ready="true"]', timeout=90_000)


def _start(pg) -> str:
    """The lecturer starts a session (the top bar's button in presentation mode, else the sidebar's), from the
    keyboard; returns the join link."""
    start = pg.get_by_role("button", name="Start a class session")
    start.focus()
    pg.keyboard.press("Enter")
    pg.wait_for_selector('.olc-class[data-connected="true"]', timeout=60_000)
    return pg.locator("a.olc-class-join").get_attribute("href")


def _join(pg, link):
    pg.goto(link)
    pg.wait_for_selector(f'{VIEWER}[data-ready="true"] .olc-class[data-connected="true"]', timeout=90_000)


def _joined(pg, n, timeout_s=20.0):
    pg.wait_for_function("(n) => document.querySelector('.olc-class').dataset.joined === String(n)", arg=n,
                         timeout=timeout_s * 1000)


#: the first chart of each column: its box, its plot area, its legend, and whether plotly's SVG is where its layout
#: says (the clip rectangle of the plot = the plot area)
MEASURE_JS = """() => {
  const v = document.querySelector('.olc-viewer').olcViewer;
  const figs = [];
  for (const col of v.root.querySelectorAll('.olc-column')) {
    const f = v.figs.find((g) => col.contains(g.gd));
    if (!f) continue;
    const r = f.gd.getBoundingClientRect(), fl = f.gd._fullLayout, lg = fl.legend || {};
    const clip = f.gd.querySelector('clipPath[id$="xyplot"] rect');
    figs.push({top: Math.round(r.top), bottom: Math.round(r.bottom), w: Math.round(fl.xaxis._length),
      h: Math.round(fl.yaxis._length), redraws: f.redraws || 0, scrolls: lg._effHeight < lg._height - 1, legend: f.gd.dataset.legend || 'top',
      clip: clip ? [Math.round(+clip.getAttribute('width')), Math.round(+clip.getAttribute('height'))] : null});
  }
  const main = document.querySelector('[data-testid="stMain"]');
  return {figs, scrolled: main ? main.scrollTop : 0};
}"""


def _settled(pg) -> dict:
    """The measurements once two in a row, 0.8 s apart, agree (the fit and its relayouts done)."""
    last, deadline = None, time.monotonic() + 20
    while time.monotonic() < deadline:
        time.sleep(0.8)
        got = pg.evaluate(MEASURE_JS)
        if got == last:
            return got
        last = got
    return last


def _check_readable(page, state, got, before):
    assert got["scrolled"] == 0, f"{page} {state}: the page scrolled ({got['scrolled']} px)"
    for i, f in enumerate(got["figs"]):
        where = f"{page} {state}, chart {i}: {f}"
        assert 0 <= f["top"] and f["bottom"] <= H, f"{where}: not on the first screen"
        assert min(f["w"], f["h"]) >= READABLE_PX[page], f"{where}: plot smaller than {READABLE_PX[page]} px"
        assert f["clip"] == [f["w"], f["h"]], f"{where}: the SVG is not drawn where the layout says"
        if page in NO_LEGEND_SCROLL and not before["figs"][i]["scrolls"]:
            assert not f["scrolls"], f"{where}: the legend got a scroll box of its own"


@pytest.mark.parametrize("page", sorted(PAGES))
def test_the_charts_stay_readable_on_the_projector_in_every_class_state(room, url, page):
    L = room("lecturer", viewport={"width": W, "height": H})
    L.goto(f"{url}/{page}?present=1&predict=1&{PAGES[page]}".rstrip("&"))
    _ready(L)
    seen = {"before": _settled(L)}
    link = _start(L)
    S = room("student", viewport={"width": 1280, "height": 900})
    _join(S, link)
    _joined(L, 1)
    seen["session started"] = _settled(L)
    L.keyboard.press("ArrowRight")                    # presentation mode: the keys work without a click
    expect(L.locator(f"{VIEWER} .olc-predict")).to_have_attribute("data-state", "asking")
    seen["question asked"] = _settled(L)
    L.keyboard.press("o")
    expect(L.locator(f"{VIEWER} .olc-class-answers")).to_have_attribute("data-state", "open")
    S.locator(".olc-class-answers button.olc-answers-choice").first.click()
    expect(L.locator(f"{VIEWER} .olc-class-answers")).to_contain_text("1 of 1 answered")
    seen["question open"] = _settled(L)
    L.keyboard.press("r")
    expect(L.locator(f"{VIEWER} .olc-class-answers")).to_have_attribute("data-state", "revealed")
    expect(L.locator(".olc-answers-tally-table")).to_have_count(1)
    seen["revealed"] = _settled(L)
    print(page, {k: [(f["w"], f["h"], f["bottom"], f["legend"], f["redraws"]) for f in v["figs"]] for k, v in seen.items()})
    for state, got in seen.items():
        _check_readable(page, state, got, seen["before"])
    # the distribution is in the lecturer's strip, the tally under the charts
    strip = L.locator(f"{VIEWER} .olc-class").bounding_box()
    assert strip["height"] <= 120, strip
    assert L.locator(f"{VIEWER} .olc-class .olc-answers-bars").count() == 1
    tally = L.locator(".olc-answers-tally").bounding_box()
    assert tally["y"] >= max(f["bottom"] for f in seen["revealed"]["figs"]), tally


def test_the_top_bar_the_join_warning_and_the_sidebar_sentences(room, url):
    L = room("lecturer", viewport={"width": W, "height": H})
    L.goto(f"{url}/perceptron?present=1&T=40")
    _ready(L)
    # presentation mode folds the sidebar away: the button is in the top bar, on the first screen
    box = L.get_by_role("button", name="Start a class session").bounding_box()
    assert box["y"] + box["height"] <= 60, box
    link = _start(L)
    # the lecturer opened 127.0.0.1 and the server listens only there: the panel says what students can open
    reach = L.locator(f"{VIEWER} .olc-class-reach")
    expect(reach).to_contain_text("Students cannot open 127.0.0.1: it is this computer")
    expect(reach).to_contain_text("server.address = 127.0.0.1")
    expect(reach).to_contain_text("--server.address 0.0.0.0")
    assert _axe_serious(L, f"{VIEWER} .olc-class") == []
    # scrolled into view (a click into the viewer), the panel stops below the top bar's fixed buttons, not under them
    L.locator(VIEWER).first.focus()
    L.wait_for_timeout(300)
    edges = L.evaluate("""() => ({panel: document.querySelector('.olc-class').getBoundingClientRect().top,
        scrolled: document.querySelector('[data-testid="stMain"]').scrollTop,
        bar: Math.max(...['[data-testid="stExpandSidebarButton"]', '.st-key-olc_present_switch', '.st-key-olc_intro_fold_open']
          .map((q) => document.querySelector(q)).filter(Boolean).map((e) => e.getBoundingClientRect().bottom))})""")
    assert edges["scrolled"] > 0 and edges["panel"] >= edges["bar"], edges
    # the QR code's button shows it large, Esc closes it (focus back on the button)
    L.get_by_role("button", name="Show the QR code large").click()
    big = L.locator(".olc-class-qr-large")
    expect(big).to_be_visible()
    assert big.locator("img").bounding_box()["width"] >= 300
    assert _axe_serious(L, ".olc-class-qr-large") == []
    L.keyboard.press("Escape")
    expect(big).to_have_count(0)
    assert L.evaluate("() => document.activeElement.dataset.control") == "qr-large"
    S = room("student", viewport={"width": 1280, "height": 900})
    _join(S, link)
    assert S.locator(".olc-class-reach").count() == 0
    side = S.locator('[data-testid="stSidebar"]').inner_text()
    assert "you joined it" in side and "you lead it" not in side, side
    # the lecturer's tab reloaded: a student's Streamlit session, the lecturer in the browser: its own sentence
    L.reload()
    L.wait_for_selector('.olc-class[data-role="lecturer"][data-connected="true"]', timeout=90_000)
    L.wait_for_function("() => document.documentElement.dataset.olcClassRole === 'lecturer'")
    side = L.locator('[data-testid="stSidebar"]').evaluate("(e) => e.innerText")
    assert "(you lead it)" in side and "you joined it" not in side, side


RAW_MUTE_JS = """async (code) => {
  const url = new URL('olc-class/ws', location.href.replace(/[^/]*$/, '')); url.protocol = 'ws:';
  const ws = new WebSocket(url.href);
  window.__mute = ws;
  await new Promise((ok) => { ws.onopen = ok; });
  ws.send(JSON.stringify({type: 'hello', code}));
  return await new Promise((ok) => { ws.onmessage = (ev) => { const m = JSON.parse(ev.data); if (m.type === 'welcome') ok(m.joined); }; });
}"""


def test_the_count_is_of_live_connections(room, url):
    L = room("lecturer", viewport={"width": W, "height": H})
    L.goto(f"{url}/perceptron?T=40&predict=1")
    _ready(L)
    link = _start(L)
    code = link.split("class=")[1].split("&")[0]
    students = [room(f"s{i}", viewport={"width": 1000, "height": 800}) for i in range(3)]
    for S in students:
        _join(S, link)
    _joined(L, 3)
    assert "3 students connected" in L.locator(".olc-class-status").inner_text()
    # a duplicated tab (its sessionStorage copied: the same student id) counts once, and its close changes nothing
    sid = students[0].evaluate(f"() => sessionStorage.getItem('olc-class-sid:{code}')")
    dup = students[0].context.new_page()
    dup.add_init_script(f"sessionStorage.setItem('olc-class-sid:{code}', '{sid}')")
    _join(dup, link)
    assert dup.evaluate(f"() => sessionStorage.getItem('olc-class-sid:{code}')") == sid
    time.sleep(2 * BEAT_S)
    assert L.locator(".olc-class").get_attribute("data-joined") == "3"
    dup.close()
    time.sleep(2 * BEAT_S)
    assert L.locator(".olc-class").get_attribute("data-joined") == "3"
    # a socket that says hello and never answers the heartbeat: counted, then not, after 3 beats
    assert students[1].evaluate(RAW_MUTE_JS, code) == 4
    _joined(L, 4, 10)
    t0 = time.monotonic()
    _joined(L, 3, 15)
    assert time.monotonic() - t0 <= 6 * BEAT_S + 3
    # a closed tab drops out at once; the question's count is of the students there
    students[2].close()
    t0 = time.monotonic()
    _joined(L, 2, 10)
    assert time.monotonic() - t0 <= 3.0
    L.locator(VIEWER).first.focus()
    L.keyboard.press("ArrowRight")
    L.keyboard.press("o")
    box = L.locator(f"{VIEWER} .olc-class-answers")
    expect(box).to_contain_text("0 of 2 answered")
    for S in students[:2]:
        S.locator(".olc-class-answers button.olc-answers-choice").first.click()
    expect(box).to_contain_text("2 of 2 answered")


class StallProxy:
    """A TCP proxy to the server that can stop forwarding without closing anything (a network that stalled):
    what arrives meanwhile waits; new connections wait too."""

    def __init__(self, target: int):
        self.target, self.port = target, free_port()
        self.flowing = threading.Event()
        self.flowing.set()
        self.loop = asyncio.new_event_loop()
        self.ready = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)

    def _run(self):
        asyncio.set_event_loop(self.loop)
        self.server = self.loop.run_until_complete(asyncio.start_server(self._client, "127.0.0.1", self.port))
        self.ready.set()
        self.loop.run_forever()

    async def _wait(self):
        while not self.flowing.is_set():
            await asyncio.sleep(0.05)

    async def _pipe(self, reader, writer):
        try:
            while data := await reader.read(65536):
                await self._wait()
                writer.write(data)
                await writer.drain()
        except (ConnectionError, OSError):
            pass
        finally:
            writer.close()

    async def _client(self, reader, writer):
        await self._wait()
        try:
            up_r, up_w = await asyncio.open_connection("127.0.0.1", self.target)
        except OSError:
            writer.close()
            return
        await asyncio.gather(self._pipe(reader, up_w), self._pipe(up_r, writer))

    def __enter__(self):
        self.thread.start()
        self.ready.wait(10)
        return self

    async def _shutdown(self):
        self.server.close()
        tasks = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
        for t in tasks:
            t.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    def __exit__(self, *exc):
        self.flowing.set()
        asyncio.run_coroutine_threadsafe(self._shutdown(), self.loop).result(10)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)
        self.loop.close()


def test_a_stalled_student_reads_reconnecting_and_comes_back(room, url):
    L = room("lecturer", viewport={"width": W, "height": H})
    L.goto(f"{url}/perceptron?T=40")
    _ready(L)
    link = _start(L)
    port = int(re.search(r":(\d+)/", url + "/").group(1))
    with StallProxy(port) as proxy:
        S = room("student", viewport={"width": 1000, "height": 800})
        _join(S, link.replace(f":{port}/", f":{proxy.port}/"))
        _joined(L, 1)
        expect(S.locator(".olc-class-status")).to_have_text("Following the lecturer.")
        proxy.flowing.clear()                         # the network stalls: nothing closes, nothing arrives
        t0 = time.monotonic()
        expect(S.locator(".olc-class-status")).to_contain_text("reconnecting", timeout=15_000)
        stalled_after = time.monotonic() - t0
        expect(S.locator(".olc-class")).to_have_attribute("data-connected", "false")
        _joined(L, 0, 15)                             # the hub heard no pong: not counted
        assert stalled_after <= 3 * BEAT_S + 3, stalled_after
        proxy.flowing.set()
        expect(S.locator(".olc-class")).to_have_attribute("data-connected", "true", timeout=30_000)
        expect(S.locator(".olc-class-status")).to_have_text("Following the lecturer.")
        _joined(L, 1, 20)


def test_all_eyes_holds_a_students_settings_and_the_rest(room, url):
    L = room("lecturer", viewport={"width": W, "height": H})
    L.goto(f"{url}/perceptron?T=40&predict=1")
    _ready(L)
    link = _start(L)
    S = room("student", viewport={"width": 1280, "height": 900})
    _join(S, link)
    P = room("phone", viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True, device_scale_factor=2)
    _join(P, link)
    _joined(L, 2)
    L.get_by_role("button", name="All eyes here").click()
    S.wait_for_selector('.olc-class[data-eyes="true"]')
    run = S.locator(VIEWER).get_attribute("data-run-id")
    S.evaluate("""() => { window.__runs = []; const v = document.querySelector('.olc-viewer');
        new MutationObserver(() => window.__runs.push(v.dataset.runId)).observe(v, {attributes: true, attributeFilter: ['data-run-id']}); }""")
    seed = S.get_by_label("Seed")
    assert seed.evaluate("(e) => !!e.closest('[inert]')"), "the student's settings are not held"
    seed.evaluate("(e) => e.focus()")                  # inert: no focus, no typing
    S.keyboard.type("7")
    S.keyboard.press("Enter")
    assert S.get_by_role("button", name="Leave the class session").evaluate("(e) => !e.closest('[inert]')")
    time.sleep(2.0)
    assert S.evaluate("() => window.__runs") == [] and S.locator(VIEWER).get_attribute("data-run-id") == run
    L.get_by_role("button", name="Release").click()
    S.wait_for_selector('.olc-class[data-eyes="false"]')
    assert not seed.evaluate("(e) => !!e.closest('[inert]')")
    # a question on the phone: the chosen answer wraps as the others; after the reveal no empty box above the result
    L.locator(VIEWER).first.focus()
    L.keyboard.press("ArrowRight")
    L.keyboard.press("o")
    choices = P.locator(".olc-class-answers button.olc-answers-choice")
    expect(choices.first).to_be_visible()
    heights = [choices.nth(i).bounding_box()["height"] for i in range(choices.count())]
    longest = max(range(choices.count()), key=lambda i: len(choices.nth(i).inner_text()))
    choices.nth(longest).click()
    expect(choices.nth(longest)).to_have_attribute("aria-pressed", "true")
    lines = choices.nth(longest).evaluate("""(b) => { const cs = getComputedStyle(b);
        return (b.clientHeight - parseFloat(cs.paddingTop) - parseFloat(cs.paddingBottom)) / parseFloat(cs.lineHeight); }""")
    assert choices.nth(longest).bounding_box()["height"] <= max(heights) + 1 and lines < 2.6, (heights, lines)
    assert "your answer" in choices.nth(longest).evaluate("(b) => b.textContent")
    S.locator(".olc-class-answers button.olc-answers-choice").first.click()
    L.keyboard.press("r")
    for pg in (S, P):
        expect(pg.locator(".olc-class-answers .olc-answers-result")).to_be_visible()
        expect(pg.locator(f"{VIEWER} .olc-predict")).to_be_hidden()


def test_a_legend_keeps_its_lt_on_the_projector(room, url):
    """The comparator's legend name, "comparator: w*·x = 0, w*, band |⟨w*,x⟩| < γ = 0.1", wrapped into presentation
    mode's two-column legend (a projector wide enough to wrap it rather than keep its head) lost its "<" (issue 32
    §7): every line plotly draws keeps it."""
    L = room("lecturer", viewport={"width": 1440, "height": 900})
    L.goto(f"{url}/perceptron?present=1&T=60&seed=0")
    _ready(L)
    L.wait_for_timeout(1500)
    texts = L.evaluate("""() => [...document.querySelectorAll('.olc-viewer .legendtext')].map((t) =>
        [...t.querySelectorAll('tspan.line')].map((s) => s.textContent).join(' ') || t.textContent)""")
    band = [t for t in texts if "band" in t]
    assert band and all(re.search(r"\|⟨w\*,x⟩\|\s*<\s*γ", t) for t in band), texts
    assert not [t for t in texts if re.search(r"\|\s+γ", t)], texts
