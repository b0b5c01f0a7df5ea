"""The class as the adversary (issue 35 §3), in the real app (headless Chromium): one lecturer at a projector's
1100×800 and two students, one on a 390×844 phone. The lecturer starts a class session on the Perceptron game and
asks the class for the adversary's move; each student makes a move on their own board — judged there (an
inadmissible point says why and is not sent) and sent as a proposal, not played (their board and address do not
move); the lecturer's count says 2 of 2 and never which; "Show the proposals" draws them on every board (a disc per
point with its count) and lists them with their counts; "Play the most popular" plays it on the lecturer's board, and
every student's screen draws the round (following the lecturer). The same on Winnow's and Weighted Majority's boards (their buttons):
the proposals' counts of labels, the move played through the board; and on the Halving page's board (an instance chosen
in the list, its label button)."""
from __future__ import annotations

import pytest

pytest.importorskip("playwright")
from playwright.sync_api import expect  # noqa: E402

from olc_core.games import halving as Hg  # noqa: E402
from olc_core.games import winnow as Wn  # noqa: E402

Axe = pytest.importorskip("axe_playwright_python.sync_playwright").Axe
from stbrowser import INSTRUMENT_JS  # noqa: E402
from viewerpage import VIEWER, board_pixel  # noqa: E402

BOX = f"{VIEWER} .olc-game-class"
PROPOSALS = """() => { const gd = document.querySelector('.olc-plot[data-figure-id=main]');
  const t = gd.data.find((d) => d.meta === 'class-proposals');
  return t ? {x: Array.from(t.x), y: Array.from(t.y), text: Array.from(t.text)} : null; }"""


@pytest.fixture(scope="module")
def url(streamlit_app) -> str:
    return streamlit_app("app.py")


def _context(browser, size):
    kw = (dict(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True, device_scale_factor=2)
          if size == "phone" else dict(viewport={"width": 1100, "height": 800}))
    ctx = browser.new_context(**kw)
    ctx.add_init_script(INSTRUMENT_JS)
    pg = ctx.new_page()
    pg.set_default_timeout(30_000)
    errors: list[str] = []
    pg.on("pageerror", lambda exc: errors.append(f"uncaught: {exc}"))
    pg.errors = errors
    return ctx, pg


def _ready(pg):
    pg.wait_for_selector(f'{VIEWER}[data-ready="true"]', timeout=90_000)


def _idle(pg):
    pg.wait_for_function("() => document.querySelector('[data-test-script-state]')?.dataset.testScriptState"
                         " === 'notRunning'", timeout=60_000)


def _query(pg, name: str) -> str:
    return pg.evaluate(f"() => new URLSearchParams(location.search).get('{name}') || ''")


def _start(browser, url, path: str):
    """The lecturer on ``path`` starts a class session; two students join from the link. Returns (contexts, L,
    students)."""
    contexts = []
    lctx, L = _context(browser, "projector")
    contexts.append(lctx)
    L.goto(f"{url}/{path}")
    _ready(L)
    _idle(L)
    L.get_by_role("button", name="Start a class session").click()
    join = L.locator(f"{VIEWER} a.olc-class-join")
    expect(join).to_be_visible(timeout=30_000)
    link = join.get_attribute("href")
    students = []
    for size in ("phone", "projector"):
        ctx, S = _context(browser, size)
        contexts.append(ctx)
        S.goto(link)
        _ready(S)
        students.append(S)
    expect(L.locator(f"{VIEWER} .olc-class")).to_have_attribute("data-joined", "2", timeout=30_000)
    run = L.get_attribute(VIEWER, "data-run-id")
    for S in students:     # the join link opens the page's lesson: the settings bridge brings the lecturer's game
        S.wait_for_function(f"() => document.querySelector('{VIEWER}')?.dataset.runId === {run!r}", timeout=60_000)
        _idle(S)
    return contexts, L, students


def _every_screen_draws_round_1(L, students) -> None:
    """The lecturer's and every student's board show round 1 of 1 (the move played), without a page error."""
    for P in [L, *students]:
        P.wait_for_function(f"() => {{ const v = document.querySelector('{VIEWER}');"
                            " return v && v.dataset.position === '1' && v.dataset.ready === 'true' &&"
                            " v.querySelector('.olc-caption').textContent.startsWith('Round 1 of 1:'); }",
                            timeout=60_000)
    assert not any(P.errors for P in [L, *students]), [P.errors for P in [L, *students]]


def _tap_point(S, i: int, j: int, touch: bool) -> None:
    x, y = board_pixel(S, i / 64, j / 64)
    if touch:
        S.touchscreen.tap(x, y)
    else:
        S.mouse.click(x, y)


def test_the_class_proposes_the_perceptron_games_move(browser, url):
    contexts = []
    try:
        contexts, L, students = _start(browser, url, "perceptron?mode=adversary&ws=36.87&gamma=0.2&R=1")
        L.locator(f"{BOX} button[data-action=ask-the-class]").click()
        expect(L.locator(BOX)).to_contain_text("0 of 2 proposed")
        for S in students:
            expect(S.locator(BOX)).to_contain_text("The lecturer asks the class for the adversary's move 1")
        # the phone's student taps inside the band first: judged on the page, not sent
        _tap_point(students[0], 2, 2, True)
        expect(students[0].locator(BOX)).to_contain_text("cannot be proposed: inside the band")
        for S, touch in zip(students, (True, False)):
            _tap_point(S, 16, 60, touch)
            expect(S.locator(BOX)).to_contain_text("Your proposal: (0.25, 0.9375) with label +1")
            assert S.get_attribute(VIEWER, "data-position") == "0" and _query(S, "moves") == ""   # proposed, not played
        expect(L.locator(BOX)).to_contain_text("2 of 2 proposed")
        assert "0.9375" not in L.locator(BOX).inner_text()                                 # never which, before
        L.locator(f"{BOX} button[data-action=show-the-proposals]").click()
        for P in [L, *students]:
            expect(P.locator(BOX)).to_contain_text("(0.25, 0.9375) with label +1: 2 students")
            P.wait_for_function(f"({PROPOSALS})() !== null")
            assert P.evaluate(PROPOSALS) == {"x": [0.25], "y": [0.9375], "text": ["2"]}
        for P in (L, students[0]):                 # WCAG 2.1 AA in the box (lecturer's buttons, the phone's list)
            res = Axe().run(P, context=BOX, options={"runOnly": {"type": "tag", "values": [
                "wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]}, "resultTypes": ["violations"]})
            assert [v["id"] for v in res.response["violations"] if v.get("impact") in ("critical", "serious")] == []
        for b in L.locator(f"{BOX} button").all():
            assert b.bounding_box()["height"] >= 44
        L.locator(f"{BOX} button[data-action=play-the-most-popular]").click()
        L.wait_for_function("() => new URLSearchParams(location.search).get('moves') === '16:60:1'", timeout=30_000)
        for P in [L, *students]:            # the round drawn on every screen (the students follow the lecturer)
            P.wait_for_function(f"() => {{ const v = document.querySelector('{VIEWER}');"
                                " return v && v.dataset.position === '1' && v.dataset.ready === 'true' &&"
                                " v.querySelector('.olc-caption').textContent.startsWith('Round 1 of 1:'); }",
                                timeout=60_000)
            assert P.evaluate(PROPOSALS) is None                       # the proposals went with the move
        for S in students:
            S.wait_for_function("() => new URLSearchParams(location.search).get('moves') === '16:60:1'",
                                timeout=30_000)
        assert not any(P.errors for P in [L, *students]), [P.errors for P in [L, *students]]
    finally:
        for c in contexts:
            c.close()


def test_the_class_proposes_winnows_move(browser, url):
    game = Wn.WinnowGame.make(8, 1, 1.0, 0)          # the target: x₅
    contexts = []
    try:
        contexts, L, students = _start(browser, url, "winnow?mode=adversary&aN=8&ak=1&aseed=0")
        L.locator(f"{BOX} button[data-action=ask-the-class]").click()
        for S, (bit, label) in zip(students, ((4, 1), (4, 1))):
            expect(S.locator(BOX)).to_contain_text("make it on your board")
            box = S.locator(f".st-key-winnow_adversary_bit{bit} label").first
            box.scroll_into_view_if_needed()
            box.click()
            expect(S.locator(f".st-key-winnow_adversary_bit{bit} input")).to_be_checked()
            _idle(S)
            S.locator(f".st-key-winnow_adversary_lab{label} button").click()
            expect(S.locator(BOX)).to_contain_text("Your proposal: x₅ on, label 1")
            assert _query(S, "amoves") == ""                       # proposed, not played: Streamlit never heard it
        expect(L.locator(BOX)).to_contain_text("2 of 2 proposed")
        L.locator(f"{BOX} button[data-action=show-the-proposals]").click()
        expect(L.locator(BOX)).to_contain_text("x₅ on, label 1: 2 students")
        expect(L.locator(BOX)).to_contain_text("Labels proposed: 1 by 2.")
        L.locator(f"{BOX} button[data-action=play-the-most-popular]").click()
        move = Wn.encode([Wn.WMove((0, 0, 0, 0, 1, 0, 0, 0), 1)])
        assert game.refusal(Wn.WMove((0, 0, 0, 0, 1, 0, 0, 0), 1)) is None
        L.wait_for_function(f"() => new URLSearchParams(location.search).get('amoves') === {move!r}", timeout=30_000)
        _every_screen_draws_round_1(L, students)
    finally:
        for c in contexts:
            c.close()


def test_the_class_proposes_the_experts_move(browser, url):
    """Weighted Majority's board: advice set with the experts' checkboxes (on: +1), the outcome button; the
    proposals' outcomes counted; the move played through the board."""
    contexts = []
    try:
        contexts, L, students = _start(browser, url, "experts?mode=adversary&ealg=weighted_majority&eN=4&erate=0.5"
                                                     "&ebudget=1")
        L.locator(f"{BOX} button[data-action=ask-the-class]").click()
        for S in students:            # expert 1 says −1 (unchecked), the others +1; outcome −1
            expect(S.locator(BOX)).to_contain_text("make it on your board")
            box = S.locator(".st-key-experts_adversary_adv0 label").first
            box.scroll_into_view_if_needed()
            box.click()
            expect(S.locator(".st-key-experts_adversary_adv0 input")).not_to_be_checked()
            _idle(S)
            S.locator(".st-key-experts_adversary_out0 button").click()
            expect(S.locator(BOX)).to_contain_text("Your proposal: advice −1 +1 +1 +1, outcome −1")
            assert _query(S, "emoves") == ""
        expect(L.locator(BOX)).to_contain_text("2 of 2 proposed")
        L.locator(f"{BOX} button[data-action=show-the-proposals]").click()
        expect(L.locator(BOX)).to_contain_text("advice −1 +1 +1 +1, outcome −1: 2 students")
        expect(L.locator(BOX)).to_contain_text("Outcomes proposed: −1 by 2.")
        L.locator(f"{BOX} button[data-action=play-the-most-popular]").click()
        L.wait_for_function("() => new URLSearchParams(location.search).get('emoves') === '-+++:-'", timeout=30_000)
        _every_screen_draws_round_1(L, students)
    finally:
        for c in contexts:
            c.close()


def test_the_class_proposes_the_halving_move(browser, url):
    """The Halving page's board: an instance chosen in the move panel's list, its label button; a label the target
    refuses is judged on the student's board and not sent; the proposals' labels counted; the move played through the
    board (``12:1`` in the class's short form) on every screen."""
    g = Hg.HalvingGame.make("thresholds", 16, seed=0)                    # h*: x ≥ 0.53125
    j = g.play([]).mistake_instances[0]
    label = g.target_label(j)
    lab = "lab1" if label > 0 else "lab0"
    contexts = []
    try:
        contexts, L, students = _start(browser, url, "halving?mode=adversary&hcls=thresholds&hK=16&hseed=0")
        L.locator(f"{BOX} button[data-action=ask-the-class]").click()
        for S, touch in zip(students, (True, False)):         # the first student is on a phone: taps
            expect(S.locator(BOX)).to_contain_text("make it on your board")
            for target in (S.locator(".st-key-halving_adversary_inst button[aria-haspopup=listbox]"),
                           S.get_by_role("option").filter(has_text=g.instance_text(j) + ":").first):
                target.scroll_into_view_if_needed()
                target.tap() if touch else target.click()
            _idle(S)
            for key in ("lab0" if label > 0 else "lab1", lab):          # the target's refusal first, then its label
                button = S.locator(f".st-key-halving_adversary_{key} button")
                button.scroll_into_view_if_needed()
                button.tap() if touch else button.click()
                if key != lab:
                    expect(S.locator(BOX)).to_contain_text("the target labels this instance the other way")
            expect(S.locator(BOX)).to_contain_text(f"Your proposal: {g.instance_text(j)}, label "
                                                   f"{'+1' if label > 0 else '−1'}")
            assert _query(S, "hmoves") == ""
        expect(L.locator(BOX)).to_contain_text("2 of 2 proposed")
        L.locator(f"{BOX} button[data-action=show-the-proposals]").click()
        expect(L.locator(BOX)).to_contain_text(f"{g.instance_text(j)}, label {'+1' if label > 0 else '−1'}: 2 students")
        expect(L.locator(BOX)).to_contain_text(f"Labels proposed: {'+1' if label > 0 else '−1'} by 2.")
        L.locator(f"{BOX} button[data-action=play-the-most-popular]").click()
        move = Hg.encode([Hg.HMove(j, label)])
        L.wait_for_function(f"() => new URLSearchParams(location.search).get('hmoves') === {move!r}", timeout=30_000)
        _every_screen_draws_round_1(L, students)
    finally:
        for c in contexts:
            c.close()
