"""A tour in a class session, in real browsers (issue 33 §3; docs/tours.md, "In a class session"): one lecturer
(1100×800, presentation mode) and two students (laptops), each in their own browser context.

In order, on one session: the students who join see the lecturer's tour bar (stop k of n, the text, the reference,
the claim decided on the run they show, which is the lecturer's, at the lecturer's round); the lecturer's PageDown
to a stop on the same page and to one on another page moves both; a student's own PageDown and Previous move only
that student (exploring on their own: the lecturer and the other student stay), and stepping inside a stop too;
"All eyes here" brings the explorer back to the lecturer's stop and holds their PageDown. A stop's question opens
for the class."""
from __future__ import annotations

import pytest

pytest.importorskip("playwright")
pytest.importorskip("olc_ui.classroom")

from olc_ui.shared.tours.bar import stop_href  # noqa: E402
from olc_ui.shared.tours.store import shipped  # noqa: E402

TOUR = shipped().tours["000-perceptron-and-winnow"]

#: what a page shows of the tour: the bar's stop, claim and the run its claim was decided on; the viewer's run,
#: round and readiness; the class panel's following state
SHOWN = """() => {
  const b = document.querySelector('.olc-tour'), v = document.querySelector('.olc-viewer'), c = document.querySelector('.olc-class');
  return {stop: b ? Number(b.dataset.stop) : null, stops: b ? Number(b.dataset.stops) : null, claim: b && b.dataset.claim,
    barRun: b && b.dataset.run, run: v && v.dataset.runId, ready: v && v.dataset.ready, position: v ? Number(v.dataset.position) : null,
    text: b && b.querySelector('.olc-tour-text') ? b.querySelector('.olc-tour-text').textContent : null,
    ref: b && b.querySelector('.olc-tour-ref') ? b.querySelector('.olc-tour-ref').textContent : null,
    following: c ? c.dataset.following : null, note: c ? c.innerText : null, path: location.pathname};
}"""

#: the page shows stop k (1-based) of the tour on run `run` at round t, its claim decided on that very run
AT = """([k, run, t]) => {
  const b = document.querySelector('.olc-tour'), v = document.querySelector('.olc-viewer');
  return !!(b && v && b.dataset.stop === String(k) && b.dataset.claim === 'holds' && v.dataset.ready === 'true' &&
    b.dataset.run === v.dataset.runId && (run === null || v.dataset.runId === run) && v.dataset.position === String(t));
}"""


def _context(browser, errors, name, width, height):
    ctx = browser.new_context(viewport={"width": width, "height": height})
    pg = ctx.new_page()
    pg.set_default_timeout(60_000)
    pg.on("pageerror", lambda exc: errors.append(f"{name} uncaught: {exc}"))
    pg.on("console", lambda m: errors.append(f"{name} console: {m.text}") if m.type == "error" else None)
    return ctx, pg


def _shown(pg) -> dict:
    return pg.evaluate(SHOWN)


def _wait_at(pg, k: int, run: str | None, t: int, timeout_s: float = 60) -> dict:
    try:
        pg.wait_for_function(AT, arg=[k, run, t], timeout=timeout_s * 1000, polling=50)
    except Exception as exc:
        raise AssertionError(f"{pg.url}: not at stop {k} (run {run}, round {t}): {_shown(pg)}") from exc
    return _shown(pg)


def _opens_at(k: int) -> int:
    """Where the viewer stands when stop k (1-based) is drawn: its round, or just before it for a stop that asks."""
    stop = TOUR.stops[k - 1]
    return stop.t - 1 if stop.ask else stop.t


def _lecturer_at(pg, k: int) -> dict:
    """The lecturer at stop k (1-based) of the tour: its bar, its run, the stop's round."""
    return _wait_at(pg, k, None, _opens_at(k))


@pytest.fixture(scope="module")
def room(browser, streamlit_app):
    url = streamlit_app("app.py").rstrip("/")
    errors: list[str] = []
    made = [_context(browser, errors, "lecturer", 1100, 800),
            _context(browser, errors, "student1", 1280, 900), _context(browser, errors, "student2", 1280, 900)]
    yield {"url": url, "lecturer": made[0][1], "students": [pg for _, pg in made[1:]], "errors": errors}
    for ctx, _ in made:
        ctx.close()
    assert not errors, "browser errors:\n" + "\n".join(errors)


def test_students_who_join_see_the_lecturers_tour_bar(room):
    lec, students = room["lecturer"], room["students"]
    lec.goto(f"{room['url']}/{stop_href(TOUR, 8, {'present': '1'})}")       # stop 9: the Perceptron, round 200
    here = _lecturer_at(lec, 9)
    lec.get_by_role("button", name="Start a class session").click()
    join = lec.locator(".olc-viewer a.olc-class-join")
    join.wait_for(timeout=30_000)
    link = join.get_attribute("href")
    assert "tour=" not in link                       # a plain join link: the class mode brings the stop
    for pg in students:
        pg.goto(link)
        got = _wait_at(pg, 9, here["run"], 200)
        assert got["stops"] == len(TOUR) and got["following"] == "true", got
        assert got["text"] == here["text"] and got["ref"] == here["ref"]      # the stop's text and reference
        pg.wait_for_function("() => { const q = new URLSearchParams(location.search); "
                             "return q.get('tour') === '000-perceptron-and-winnow' && q.get('stop') === '9'; }")


def test_the_lecturers_pagedown_moves_every_student_and_a_stops_question_opens_for_the_class(room):
    """Stop 10 is on the same page, stop 11 on another (Winnow's) and asks about its round 2: the students follow to
    round 1 with the lecturer's question open on their screens (opened for the class on the lecturer's arrival, no
    O needed), their bar's claim statement covered; the lecturer's PageDown waits for the reveal; an answer is
    counted, R reveals it and the class is drawn round 2."""
    lec, students = room["lecturer"], room["students"]
    for k in (10, 11):
        lec.keyboard.press("PageDown")
        here = _lecturer_at(lec, k)
        for pg in students:
            got = _wait_at(pg, k, here["run"], _opens_at(k))
            assert got["path"].endswith("/" + TOUR.stops[k - 1].page) and got["following"] == "true", got
    assert "class=" in lec.url
    box = ".olc-viewer .olc-class-answers"
    lec.wait_for_selector(f"{box}[data-state='open']")
    assert lec.evaluate("() => document.querySelector('.olc-viewer').dataset.asking") == "2"
    for pg in students:
        pg.wait_for_selector(f"{box}[data-state='open'] button.olc-answers-choice")
        assert pg.evaluate("() => document.querySelector('.olc-tour').dataset.asking") == "true"
    lec.locator(".olc-viewer").first.focus()
    lec.keyboard.press("PageDown")                       # held: the class's question is open
    lec.wait_for_function(f"() => document.querySelector('{box}').textContent.includes('before moving to another stop')")
    assert _shown(lec)["stop"] == 11
    students[0].locator(f"{box} button.olc-answers-choice").first.click()
    lec.wait_for_function(f"() => document.querySelector('{box}').textContent.includes('1 of 2 answered')")
    lec.keyboard.press("r")
    for pg in students:
        pg.wait_for_selector(f"{box}[data-state='revealed']")
        pg.wait_for_function("() => document.querySelector('.olc-viewer').dataset.position === '2' && "
                             "!document.querySelector('.olc-tour').dataset.asking")
    lec.keyboard.press("PageDown")                       # stop 12: Winnow at round 120, the same page
    here = _lecturer_at(lec, 12)
    for pg in students:
        _wait_at(pg, 12, here["run"], TOUR.stops[11].t)


def test_a_students_own_pagedown_moves_only_that_student(room):
    lec, (mine, other) = room["lecturer"], room["students"]
    lec_run = _shown(lec)["run"]
    mine.locator(".olc-viewer").first.focus()
    mine.keyboard.press("PageDown")                  # stop 13, on the same page: the student explores
    _wait_at(mine, 13, None, TOUR.stops[12].t)
    mine.wait_for_function("() => document.querySelector('.olc-class').dataset.following === 'false'")
    assert "Exploring on my own" in _shown(mine)["note"]
    mine.locator(".olc-tour a.olc-tour-prev").click()     # Previous: back to stop 12, still on their own
    _wait_at(mine, 12, lec_run, TOUR.stops[11].t)
    mine.locator(".olc-viewer").first.focus()
    mine.keyboard.press("ArrowLeft")                       # a step inside the stop: their own too
    mine.wait_for_function(f"() => document.querySelector('.olc-viewer').dataset.position === '{TOUR.stops[11].t - 1}'")
    mine.wait_for_timeout(800)
    assert _shown(lec)["stop"] == 12 and _shown(lec)["position"] == TOUR.stops[11].t
    assert _shown(other)["stop"] == 12 and _shown(other)["position"] == TOUR.stops[11].t
    assert _shown(other)["following"] == "true"


def test_the_lecturer_moves_on_and_all_eyes_here_brings_the_explorer_back(room):
    lec, (mine, other) = room["lecturer"], room["students"]
    lec.locator(".olc-viewer").first.focus()
    lec.keyboard.press("PageDown")
    lec.keyboard.press("PageDown")
    here = _wait_at(lec, 14, None, TOUR.stops[13].t)
    _wait_at(other, 14, here["run"], TOUR.stops[13].t)    # the follower follows
    got = _shown(mine)
    assert got["stop"] == 12 and got["following"] == "false", got          # the explorer stays where they are
    lec.locator(".olc-class button[data-control='all-eyes-here']").click()
    _wait_at(mine, 14, here["run"], TOUR.stops[13].t)
    mine.wait_for_function("() => document.querySelector('.olc-class').dataset.eyes === 'true'")
    mine.locator(".olc-viewer").first.focus()
    mine.keyboard.press("PageDown")                  # held while all eyes are on the lecturer
    mine.wait_for_timeout(1500)
    got = _shown(mine)
    assert got["stop"] == 14 and "All eyes on the lecturer" in got["note"], got
    lec.locator(".olc-class button[data-control='all-eyes-here']").click()      # Release
    mine.wait_for_function("() => document.querySelector('.olc-class').dataset.eyes === 'false'")
