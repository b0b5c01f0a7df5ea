"""A whole class run by a reviewer (docs/class-session.md): what went wrong, in real browsers. One lecturer
(1100×800), two laptops and a phone (390×844), the Perceptron with predict-then-reveal, in order:

- a burst of settings changes (→ ten times on the Margin γ slider): every student ends on the lecturer's run;
- "all eyes here": the lecturer's panel says what it does; a student's own step buttons are disabled;
- the question: the lecturer's hint says what O will do; a student's answer is marked "your answer", never ✓;
  no idle line above the question; an exploring student's "Answer" brings them back to the lecturer;
- the lecturer reloads while a question is open: the question is adopted (its right answer from the run), Reveal
  works, the connection stays; a new question reaches the students;
- a reload on another run can only close the open question;
- the tally names the page; the CSV is class-<code>-<date>.csv;
- "Leave the class session" leaves (the count drops, the address loses class=, predict asks on its own);
- "End the session" asks first; after the end no question UI is left, the code goes, the tally stays.
"""
from __future__ import annotations

import datetime as dt
import re
import time

import pytest

pytest.importorskip("playwright")
pytest.importorskip("olc_ui.classroom")
from playwright.sync_api import expect  # noqa: E402

VIEWER = ".olc-viewer"
BOX = f"{VIEWER} .olc-class-answers"
QUERY = "data=generated&d=2&gamma=0.1&R=1&T=60&seed=0&predict=1"


def _context(browser, errors, name, **kw):
    ctx = browser.new_context(accept_downloads=True, **kw)
    pg = ctx.new_page()
    pg.set_default_timeout(30_000)
    pg.on("pageerror", lambda exc: errors.append(f"{name} uncaught: {exc}"))
    pg.on("console", lambda m: errors.append(f"{name} console: {m.text}") if m.type == "error" else None)
    return ctx, pg


def run_id(pg) -> str:
    return pg.locator(VIEWER).first.get_attribute("data-run-id")


def position(pg) -> int:
    return int(pg.evaluate("() => document.querySelector('.olc-viewer').olcViewer.p"))


def describe(pg) -> str:
    return pg.evaluate("""() => { const v = document.querySelector('.olc-viewer'), c = document.querySelector('.olc-class');
        return JSON.stringify({viewer: v && {...v.dataset}, panel: c && {...c.dataset, text: c.innerText}}); }""")


RUN_JS = """(r) => { const v = document.querySelector('.olc-viewer'); return v && v.dataset.runId === r && v.dataset.ready === 'true'; }"""
AT_JS = """(p) => { const v = document.querySelector('.olc-viewer'); return v && v.dataset.position === String(p); }"""


def wait_all(pages, js, arg, timeout_s):
    for pg in pages:
        try:
            pg.wait_for_function(js, arg=arg, timeout=timeout_s * 1000, polling=50)
        except Exception as exc:
            raise AssertionError(f"{js} ({arg}) did not hold within {timeout_s} s: {describe(pg)}") from exc


def step(pg, key="ArrowRight"):
    pg.locator(VIEWER).first.focus()
    pg.keyboard.press(key)


@pytest.fixture(scope="module")
def room(browser, streamlit_app):
    url = streamlit_app("app.py").rstrip("/")
    errors: list[str] = []
    made = [_context(browser, errors, "lecturer", viewport={"width": 1100, "height": 800})]
    made += [_context(browser, errors, f"laptop{i}", viewport={"width": 1280, "height": 900}) for i in (1, 2)]
    made.append(_context(browser, errors, "phone", viewport={"width": 390, "height": 844}, has_touch=True,
                         is_mobile=True, device_scale_factor=2))
    L, s1, s2, phone = (pg for _, pg in made)
    L.goto(f"{url}/perceptron?{QUERY}&t=5")
    L.wait_for_selector(f'{VIEWER}[data-ready="true"]', timeout=90_000)
    L.get_by_role("button", name="Start a class session").click()
    L.wait_for_selector('.olc-class[data-connected="true"]', timeout=60_000)
    code = L.locator(".olc-class-code").text_content().strip()
    join = L.locator("a.olc-class-join").get_attribute("href")
    for pg in (s1, s2, phone):
        pg.goto(join + "&predict=1")
    for pg in (s1, s2, phone):
        pg.wait_for_selector(f'{VIEWER}[data-ready="true"] .olc-class[data-connected="true"]', timeout=90_000)
    expect(L.locator(".olc-class")).to_have_attribute("data-joined", "3", timeout=30_000)
    wait_all([s1, s2, phone], RUN_JS, run_id(L), 60)
    state = {"url": url, "code": code, "lecturer": L, "s1": s1, "s2": s2, "phone": phone,
             "students": [s1, s2, phone], "errors": errors}
    yield state
    for ctx, _ in made:
        ctx.close()
    assert not errors, "browser errors:\n" + "\n".join(errors)


def test_a_burst_of_settings_changes_leaves_every_student_on_the_lecturers_run(room):
    L = room["lecturer"]
    slider = L.locator('[data-testid="stSidebar"] [data-testid="stSlider"]').filter(has_text="Margin γ") \
        .get_by_role("slider")
    slider.focus()
    for _ in range(10):
        L.keyboard.press("ArrowRight")
        time.sleep(0.12)
    # the lecturer's run settles (its last rerun drawn)
    last, since = None, time.monotonic()
    deadline = time.monotonic() + 60
    while time.monotonic() - since < 3 and time.monotonic() < deadline:
        now = L.evaluate("() => { const v = document.querySelector('.olc-viewer'); return v.dataset.ready + v.dataset.runId; }")
        if now != last:
            last, since = now, time.monotonic()
        time.sleep(0.2)
    final = run_id(L)
    assert "0.2" in final or "0.20" in final or final != "", final
    wait_all(room["students"], RUN_JS, final, 25)
    for pg in room["students"]:
        assert pg.locator(".olc-class").get_attribute("data-following") == "true", describe(pg)
    step(L, "ArrowLeft")       # and they still follow steps
    wait_all(room["students"], AT_JS, position(L), 10)


def test_all_eyes_here_says_so_and_disables_a_students_steps(room):
    L, s1 = room["lecturer"], room["s1"]
    L.get_by_role("button", name="All eyes here").click()
    expect(L.locator(".olc-class-status")).to_contain_text("All eyes here: students follow")
    expect(s1.locator(".olc-class")).to_have_attribute("data-eyes", "true")
    nxt = s1.locator(f'{VIEWER} .olc-controls button[data-control="next"]')
    expect(nxt).to_have_attribute("aria-disabled", "true")
    expect(s1.locator(f'{VIEWER} .olc-controls button[data-control="first"]')).to_have_attribute("aria-disabled", "true")
    expect(s1.locator(".olc-class-note")).to_contain_text("All eyes")
    held = position(s1)
    nxt.click(force=True)        # the core ignores a click on an aria-disabled button
    assert position(s1) == held
    step(L)                      # the lecturer's steps still reach them (and keep the buttons disabled)
    wait_all([s1], AT_JS, position(L), 10)
    expect(nxt).to_have_attribute("aria-disabled", "true")
    L.get_by_role("button", name="Release").click()
    expect(L.locator(".olc-class-status")).not_to_contain_text("All eyes here")
    expect(nxt).to_have_attribute("aria-disabled", "false")


def _ask(L):
    step(L)
    expect(L.locator(f"{VIEWER} .olc-predict")).to_have_attribute("data-state", "asking")
    return int(L.locator(f"{VIEWER} .olc-predict").get_attribute("data-round"))


def test_the_question_as_the_students_see_it(room):
    L, s1, phone = room["lecturer"], room["s1"], room["phone"]
    # the first student explores elsewhere
    s1.get_by_role("button", name="Explore on my own").click()
    step(s1, "End")
    r = _ask(L)
    line = L.locator(f"{BOX} .olc-answers-line")
    expect(line).to_contain_text("O opens")
    assert "opened," not in line.inner_text()
    L.get_by_role("button", name="Open this question to the class").click()
    expect(L.locator(BOX)).to_have_attribute("data-state", "open")
    room["qid"] = L.locator(BOX).get_attribute("data-qid")
    # the phone follows: the question, and no idle line above it
    choice = phone.locator(f"{BOX} button.olc-answers-choice").first
    expect(choice).to_be_visible()
    expect(phone.locator(f"{VIEWER} .olc-predict")).to_be_hidden()
    for pg in (phone,):
        assert "questions appear here" not in pg.locator(VIEWER).inner_text()
    choice.click()
    expect(choice).to_have_attribute("aria-pressed", "true")
    expect(choice).to_contain_text("your answer")
    assert "✓" not in phone.locator(f"{BOX}").inner_text()
    # the explorer: the lecturer's round in the compact line, "Answer" brings them back first
    compact = s1.locator(f"{BOX} .olc-answers-line")
    expect(compact).to_contain_text(f"the lecturer's round {r}")
    compact.get_by_role("button", name="Answer").click()
    expect(s1.locator(".olc-class")).to_have_attribute("data-following", "true")
    wait_all([s1], AT_JS, position(L), 10)
    expect(s1.locator(f"{BOX} button.olc-answers-choice").first).to_be_visible()
    s1.locator(f"{BOX} button.olc-answers-choice").last.click()
    expect(L.locator(BOX)).to_contain_text("2 of 3 answered")


def test_a_lecturer_who_reloads_keeps_the_open_question(room):
    L, students = room["lecturer"], room["students"]
    qid, at = room["qid"], position(L)
    L.reload()
    L.wait_for_selector(f'{VIEWER}[data-ready="true"] .olc-class[data-connected="true"]', timeout=90_000)
    box = L.locator(BOX)
    expect(box).to_have_attribute("data-state", "open")
    expect(box).to_have_attribute("data-qid", qid)
    expect(box).to_contain_text("2 of 3 answered")
    expect(L.locator(f"{VIEWER} .olc-predict")).to_have_attribute("data-state", "open")
    assert position(L) == at
    L.locator(f"{VIEWER} button.olc-answers-reveal").click()
    expect(box).to_have_attribute("data-state", "revealed")
    assert "undefined" not in L.locator(VIEWER).inner_text()
    assert L.locator(".olc-class").get_attribute("data-connected") == "true"
    assert "closed" not in L.locator(".olc-class-status").inner_text()
    for pg in students:
        expect(pg.locator(BOX)).to_have_attribute("data-state", "revealed")
        expect(pg.locator(BOX)).to_have_attribute("data-qid", qid)
    # a new question reaches the students
    _ask(L)
    L.keyboard.press("o")
    expect(box).to_have_attribute("data-state", "open")
    new = box.get_attribute("data-qid")
    assert new != qid
    for pg in students:
        expect(pg.locator(BOX)).to_have_attribute("data-qid", new)
    room["qid"] = new


def test_a_reload_on_another_run_can_only_close_the_question(room):
    L, students = room["lecturer"], room["students"]
    qid = room["qid"]
    L.goto(re.sub(r"seed=\d+", "seed=7", L.url))
    L.wait_for_selector(f'{VIEWER}[data-ready="true"] .olc-class[data-connected="true"]', timeout=90_000)
    box = L.locator(BOX)
    expect(box).to_have_attribute("data-qid", qid)
    assert L.locator(f"{VIEWER} button.olc-answers-reveal").count() == 0
    L.get_by_role("button", name="Close the question").click()
    expect(box).to_have_attribute("data-state", "none")
    for pg in students:
        expect(pg.locator(BOX)).to_have_attribute("data-state", "none")
    assert L.locator(".olc-class").get_attribute("data-connected") == "true"


def test_the_tally_names_the_page_and_the_csv_the_session(room):
    L = room["lecturer"]
    table = L.locator(f"{BOX} .olc-answers-tally-table")
    expect(table.locator("th").nth(1)).to_have_text("Page")
    expect(table.locator("tbody tr").first.locator("td").nth(1)).to_contain_text("perceptron")
    with L.expect_download() as dl:
        L.get_by_role("button", name="Download the session's answers (CSV)").click()
    assert dl.value.suggested_filename == f"class-{room['code']}-{dt.date.today().isoformat()}.csv"


def test_leave_the_class_session_leaves(room):
    L, s2 = room["lecturer"], room["s2"]
    s2.get_by_role("button", name="Leave the class session").click()
    expect(L.locator(".olc-class")).to_have_attribute("data-joined", "2", timeout=20_000)
    s2.wait_for_function("() => !new URL(location.href).searchParams.has('class')", timeout=20_000)
    expect(s2.locator(".olc-class")).to_have_count(0, timeout=20_000)
    say = s2.locator(f"{VIEWER} .olc-predict-say")
    expect(say).not_to_contain_text("lecturer")
    step(s2)
    expect(s2.locator(f"{VIEWER} .olc-predict")).to_have_attribute("data-state", "asking")
    room["students"] = [room["s1"], room["phone"]]


def test_ending_asks_first_then_nothing_looks_live(room):
    L, students = room["lecturer"], room["students"]
    r = _ask(L)
    L.get_by_role("button", name="Open this question to the class").click()
    for pg in students:
        expect(pg.locator(BOX)).to_have_attribute("data-state", "open")
    L.get_by_role("button", name="End the session").click()
    cancel = L.get_by_role("button", name="Cancel")
    expect(cancel).to_be_focused()
    L.keyboard.press("Enter")                 # Cancel from the keyboard: nothing ended
    expect(L.get_by_role("button", name="End the session")).to_be_visible()
    time.sleep(0.5)
    assert L.locator('.olc-class[data-connected="true"]').count() == 1
    L.get_by_role("button", name="End the session").click()
    yes = L.get_by_role("button", name="Yes, end it for everyone")
    yes.focus()
    L.keyboard.press("Enter")
    for pg in students:
        expect(pg.locator(".olc-class-status")).to_contain_text("over")
        expect(pg.locator(BOX)).to_have_count(0)
        assert "until the reveal" not in pg.locator(VIEWER).inner_text()
    expect(L.locator(".olc-class-status")).to_contain_text("over")
    for gone in (".olc-class-code", ".olc-class-qr", "a.olc-class-join"):
        expect(L.locator(gone)).to_have_count(0)
    assert L.locator(f"{VIEWER} button.olc-answers-reveal").count() == 0
    assert L.get_by_role("button", name="Open this question to the class").count() == 0
    assert "answered" not in L.locator(f"{VIEWER} .olc-predict").inner_text()
    # the session's record stays with the lecturer
    expect(L.locator(f"{BOX} .olc-answers-tally-table tbody tr")).to_have_count(1)
    expect(L.get_by_role("button", name="Download the session's answers (CSV)")).to_be_visible()
    # predict is on its own again: the lecturer answers with N/M…, the student is asked by →
    expect(L.locator(f"{VIEWER} .olc-predict")).to_have_attribute("data-state", "idle")
    step(L)
    expect(L.locator(f"{VIEWER} .olc-predict button.olc-predict-answer").first).to_be_visible()
    assert L.get_by_role("button", name="Open this question to the class").count() == 0
    s = students[0]
    step(s, "Home")
    step(s)
    expect(s.locator(f"{VIEWER} .olc-predict")).to_have_attribute("data-state", "asking")
    assert r >= 1
