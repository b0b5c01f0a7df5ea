"""The class answers a predict-then-reveal question (headless Chromium: one lecturer, three students, one of them on
a 390×844 phone). The lecturer starts a class session on the Perceptron with predict on, asks a round and opens it
to the class; each student answers on their own page (one changes the answer); the lecturer's count says 3 of 3
and no answer; the reveal draws the update, the distribution (counts = the votes), the share correct and the tally
row; the CSV download holds the same numbers. A student's own socket sending `reveal` / `open` is refused by the
server and changes nothing (docs/class-session.md)."""
from __future__ import annotations

import csv
import io
import json

import pytest

import olc_core
from olc_ui.viewer import predict

pytest.importorskip("playwright")
pytest.importorskip("axe_playwright_python")
from axe_playwright_python.sync_playwright import Axe  # noqa: E402
from playwright.sync_api import expect  # noqa: E402

from stbrowser import INSTRUMENT_JS  # noqa: E402
from viewerpage import VIEWER  # noqa: E402

T, SEED, START = 200, 0, 5
QUERY = f"data=generated&d=2&gamma=0.1&R=1&T={T}&seed={SEED}&predict=1"
BOX = f"{VIEWER} .olc-class-answers"
AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]


def _axe_serious(pg) -> list[str]:
    """axe-core's critical/serious WCAG 2.1 AA violations in the predict panel and the class's answers."""
    out = []
    for where in (f"{VIEWER} .olc-predict", BOX):
        res = Axe().run(pg, context=where, options={"runOnly": {"type": "tag", "values": AXE_TAGS},
                                                    "resultTypes": ["violations"]})
        out += [f"{where}: {v['id']}: {v['help']}" for v in res.response["violations"]
                if v.get("impact") in ("critical", "serious")]
    return out


@pytest.fixture(scope="module")
def url(streamlit_app) -> str:
    return streamlit_app("app.py")


@pytest.fixture(scope="module")
def options():
    s = olc_core.streams.separable(T=T, d=2, gamma=0.1, radius=1.0, seed=SEED)
    tr = olc_core.run("perceptron", s.X, s.y, comparator=s.comparator)
    return predict.perceptron_options(tr, s.X, s.y)


def _context(browser, width, height):
    ctx = browser.new_context(viewport={"width": width, "height": height}, accept_downloads=True)
    ctx.add_init_script(INSTRUMENT_JS)
    pg = ctx.new_page()
    pg.set_default_timeout(30_000)
    errors: list[str] = []
    pg.on("console", lambda m: m.type == "error" and errors.append(f"console: {m.text}"))
    pg.on("pageerror", lambda exc: errors.append(f"uncaught: {exc}"))
    pg.errors = errors
    return ctx, pg


def _ready(pg):
    pg.wait_for_selector(f'{VIEWER}[data-ready="true"]', timeout=90_000)


def _position(pg) -> int:
    return int(pg.get_attribute(VIEWER, "data-position"))


# A raw socket from a student's page (the student's own link would not even send a lecturer's message): hello as
# that student (the class code and the student's id from sessionStorage, so the class still has 3 students), then
# `msg`; resolves with the server's answer to it.
_RAW = """async ([code, msg]) => {
  const base = window.location.pathname.replace(/[^/]*$/, "");
  const ws = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}${base}olc-class/ws`);
  return await new Promise((resolve) => {
    const timer = setTimeout(() => resolve({ type: "timeout" }), 10000);
    const sid = sessionStorage.getItem(`olc-class-sid:${code}`);
    ws.onopen = () => ws.send(JSON.stringify(sid ? { type: "hello", code, sid } : { type: "hello", code }));
    ws.onmessage = (ev) => {
      const m = JSON.parse(ev.data);
      if (m.type === "welcome") { ws.send(JSON.stringify(msg)); return; }
      if (m.type === "refused" || m.type === "error" || m.type === "reveal" || m.type === "question") {
        clearTimeout(timer); ws.close(); resolve(m);
      }
    };
  });
}"""


def _label(answer):
    return {"none": "No mistake", "mistake": "Mistake", "acw": "Mistake: w turns anticlockwise",
            "cw": "Mistake: w turns clockwise", "line": "Mistake: w stays on its line through 0 (or becomes 0)"}[answer]


def test_the_class_answers_and_the_projector_reveals(browser, url, options):
    o = options
    r = START + 1
    right = o["answer"][r - 1]
    choice_ids = ["none", "mistake"] if o["wzero"][r - 1] else ["none", "acw", "cw", "line"]
    wrong = next(c for c in choice_ids if c != right)
    contexts = []
    try:
        lctx, L = _context(browser, 1100, 800)
        contexts.append(lctx)
        L.goto(f"{url}/perceptron?{QUERY}&t={START}")
        _ready(L)
        L.get_by_role("button", name="Start a class session").click()
        join = L.locator(f"{VIEWER} a.olc-class-join")
        expect(join).to_be_visible(timeout=30_000)
        link = join.get_attribute("href")
        assert "class=" in link
        code = link.split("class=")[1].split("&")[0]
        students = []
        for w, h in [(390, 844), (1000, 800), (1000, 800)]:
            ctx, S = _context(browser, w, h)
            contexts.append(ctx)
            S.goto(link + "&predict=1")   # see test_predict_reaches_a_student_through_the_join_link
            _ready(S)
            students.append(S)
        expect(L.locator(f"{VIEWER} .olc-class")).to_have_attribute("data-joined", "3", timeout=30_000)
        for S in students:     # following: the lecturer's round and settings (predict on, too)
            S.wait_for_function(f"() => document.querySelector('{VIEWER}').dataset.position === '{START}'")
            assert S.locator(f"{VIEWER} .olc-predict").count() == 1, (
                "the student's page has no predict panel: the lecturer's predict=1 did not reach it "
                f"(the settings bridge, viewer_class.js): {S.url}")
        # the second student explores on their own: the question comes as a compact line, one tap away; "Answer" brings them back to the lecturer
        students[1].get_by_role("button", name="Explore on my own").click()

        # the lecturer asks round r: the class's button, and the answer keys reveal nothing
        L.locator(VIEWER).first.focus()
        L.keyboard.press("ArrowRight")
        panel = L.locator(f"{VIEWER} .olc-predict")
        expect(panel).to_have_attribute("data-state", "asking")
        L.keyboard.press(_key_of(right))
        expect(panel).to_have_attribute("data-state", "asking")
        assert _position(L) == START
        L.get_by_role("button", name="Open this question to the class").click()
        expect(panel).to_have_attribute("data-state", "open")
        box = L.locator(BOX)
        expect(box).to_have_attribute("data-state", "open")
        expect(box).to_contain_text("0 of 3 answered")
        qid = box.get_attribute("data-qid")

        # the students answer; the third changes the answer
        votes = [right, wrong, wrong]
        compact = students[1].locator(f"{BOX} .olc-answers-line")
        expect(compact).to_contain_text(f"A question is open on the lecturer's round {r}")
        assert students[1].locator(f"{BOX} .olc-answers-choice").count() == 0
        compact.get_by_role("button", name="Answer").click()      # back to the lecturer, then the question
        expect(students[1].locator(f"{VIEWER} .olc-class")).to_have_attribute("data-following", "true")
        expect(students[0].locator(f"{BOX} .olc-answers-choice").first).to_be_visible()
        assert _axe_serious(students[0]) == [] and _axe_serious(L) == []
        for S, answer in zip(students, votes):
            button = S.locator(f"{BOX} button.olc-answers-choice[data-answer='{answer}']")
            expect(button).to_be_visible()
            assert button.bounding_box()["height"] >= 44
            button.click()
            expect(S.locator(f"{BOX} .olc-answers-status")).to_contain_text(f"Your answer: {_label(answer)}")
        students[2].locator(f"{BOX} button.olc-answers-choice[data-answer='{right}']").click()
        expect(students[2].locator(f"{BOX} .olc-answers-status")).to_contain_text(
            f"Your answer: {_label(right)} (you can change it until the reveal)")
        expect(students[2].locator(f"{BOX} button[data-answer='{right}']")).to_have_attribute("aria-pressed", "true")
        expect(box).to_contain_text("3 of 3 answered")
        assert box.locator(".olc-answers-bars").count() == 0          # no answer shown before the reveal
        assert "answers (" not in box.inner_text()
        # a step is held while the class answers
        L.keyboard.press("ArrowRight")
        assert _position(L) == START

        # a student's own socket cannot reveal or open: refused, nothing changes
        S = students[1]
        got = S.evaluate(_RAW, [code, {"type": "reveal", "qid": qid, "correct": right}])
        assert got == {"type": "refused", "what": "reveal"}
        got = S.evaluate(_RAW, [code, {"type": "open", "qid": "x:1:1:1", "round": 1, "page": "perceptron",
                                       "text": "?", "choices": [{"id": "a", "label": "A"}, {"id": "b", "label": "B"}]}])
        assert got == {"type": "refused", "what": "open"}
        expect(box).to_have_attribute("data-state", "open")
        expect(box).to_have_attribute("data-qid", qid)
        for St in students:
            expect(St.locator(BOX)).to_have_attribute("data-state", "open")

        # the reveal: the update drawn, the distribution = the votes, the share correct, the tally row
        L.keyboard.press("r")
        expect(box).to_have_attribute("data-state", "revealed")
        assert _position(L) == r
        bars = box.locator(".olc-answers-bar")
        expect(bars).to_have_count(len(choice_ids))
        counts = {c: 0 for c in choice_ids}
        for v in [votes[0], votes[1], right]:
            counts[v] += 1
        for i, c in enumerate(choice_ids):
            n = counts[c]
            text = f"{n} {'answer' if n == 1 else 'answers'} ({round(100 * n / 3)}%)"
            expect(bars.nth(i)).to_contain_text(_label(c))
            expect(bars.nth(i)).to_contain_text(text)
            if c == right:
                expect(bars.nth(i)).to_contain_text("✓ right")
            else:
                assert "right" not in bars.nth(i).inner_text()
        expect(box.locator(".olc-answers-share")).to_have_text("Share correct: 67% (2 of 3).")
        row = box.locator(".olc-answers-tally-table tbody tr")
        expect(row).to_have_count(1)
        expect(row.locator("td")).to_have_text(["1", "perceptron", str(r), _label(right), "3 / 3", "67%"])
        expect(box.locator(".olc-answers-live")).to_contain_text("Share correct: 67% (2 of 3).")

        # the students: their answer graded, the same distribution, the update drawn by following
        for S, mine in zip(students, [right, wrong, right]):
            res = S.locator(f"{BOX} .olc-answers-result")
            expect(res).to_contain_text("✓ Right" if mine == right else "✗ Your answer")
            expect(S.locator(f"{BOX} .olc-answers-share")).to_have_text("Share correct: 67% (2 of 3).")
        for S in students:     # following (the explorer came back with "Answer"): the update drawn
            S.wait_for_function(f"() => document.querySelector('{VIEWER}').dataset.position === '{r}'")

        assert _axe_serious(L) == [] and _axe_serious(students[0]) == []

        # the CSV, built in the browser
        with L.expect_download() as dl:
            L.get_by_role("button", name="Download the session's answers (CSV)").click()
        with open(dl.value.path(), encoding="utf-8", newline="") as fh:
            table = list(csv.reader(io.StringIO(fh.read(), newline="")))
        head, line = table[0], table[1]
        assert head[:8] == ["n", "page", "round", "question", "right answer", "answered", "joined", "share correct"]
        assert line[:3] == ["1", "perceptron", str(r)] and line[3].startswith(f"Round {r}: x = (")
        assert line[4:8] == [_label(right), "3", "3", "0.667"]
        assert {head[8 + i]: int(v) for i, v in enumerate(line[8:])} == {_label(c): counts[c] for c in choice_ids}
        assert len(table) == 2
        for pg in [L, *students]:
            assert not pg.errors, json.dumps(pg.errors)
    finally:
        for ctx in contexts:
            ctx.close()


def _key_of(answer):
    return {"none": "n", "mistake": "m", "acw": "a", "cw": "c", "line": "l"}[answer]


def test_predict_reaches_a_student_through_the_join_link(browser, url):
    contexts = []
    try:
        lctx, L = _context(browser, 1100, 800)
        contexts.append(lctx)
        L.goto(f"{url}/perceptron?{QUERY}&t={START}")
        _ready(L)
        L.get_by_role("button", name="Start a class session").click()
        join = L.locator(f"{VIEWER} a.olc-class-join")
        expect(join).to_be_visible(timeout=30_000)
        ctx, S = _context(browser, 390, 844)
        contexts.append(ctx)
        S.goto(join.get_attribute("href"))
        _ready(S)
        expect(S.locator(f"{VIEWER} .olc-predict")).to_have_count(1, timeout=15_000)
    finally:
        for c in contexts:
            c.close()
