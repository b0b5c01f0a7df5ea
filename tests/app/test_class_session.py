"""The class session's Python side (olc_ui/shared/class_session.py) through AppTest: the button on every
lesson page with a step viewer, starting a session (the key only in the lecturer's own viewer data, never
in the URL), a student's link (role student, no key), bad codes incl. hostile text (one inert sentence, the
page works), and the settings bridge (the lecturer's query applied to the page's widgets before the run)."""
from __future__ import annotations

import json

import pytest
from streamlit.testing.v1 import AppTest

from olc_ui import classroom
from olc_ui.catalog import LESSONS
from olc_ui.shared import class_session, present
from olc_ui.shared.state import URL_KEY
from olc_ui.viewer.spec import MODES_KEY
from tests.app.pagetest import open_page, page_path, viewer_data, viewers
from tests.conftest import ROOT

START = "Start a class session"
STEP_VIEW_PAGES = [row[4] for row in LESSONS if row[4] not in ("home", "bound_explorer")]


def buttons(at, label):
    return [b for b in at.button if b.label == label]


@pytest.fixture(autouse=True)
def fresh_store():
    classroom.api.reset(classroom.store.MemoryStore(classroom.store.Limits()))
    yield
    classroom.api.reset(None)


@pytest.mark.parametrize("name", STEP_VIEW_PAGES)
def test_every_step_view_page_offers_the_button(name):
    at = open_page(page_path(name))
    assert not at.exception
    assert len(buttons(at, START)) == 1
    assert "class" not in viewer_data(at)["modes"]


def test_start_a_session_the_key_stays_in_the_lecturers_viewer_data():
    at = open_page(page_path("perceptron"), T="30")
    buttons(at, START)[0].click().run()
    assert not at.exception
    sess = at.session_state[class_session.SESSION_KEY]
    code, key = sess["code"], sess["key"]
    assert sess["role"] == "lecturer" and class_session.check_code(code) == code and len(key) >= 20
    assert classroom.lookup(code) == "ok"
    opts = viewer_data(at)["modes"]["class"]
    assert list(viewer_data(at)["modes"])[0] == "class"
    assert opts["code"] == code and opts["role"] == "lecturer" and opts["key"] == key
    assert opts["ws"] == "/olc-class/ws" and opts["page"] == "perceptron"
    assert opts["join"].endswith(f"/perceptron?class={code}") and key not in opts["join"]
    assert opts["qr"].startswith("data:image/svg+xml")
    assert "T=30" in opts["query"] and "class=" not in opts["query"] and "t=" not in opts["query"].split("&")[0]
    # the URL the page writes carries the code, never the key
    written = at.session_state[URL_KEY]
    assert written["class"] == code and key not in json.dumps(written)
    assert not buttons(at, START) and buttons(at, "Leave the class session")
    buttons(at, "Leave the class session")[0].click().run()
    assert class_session.SESSION_KEY not in at.session_state and "class" not in viewer_data(at)["modes"]


def test_a_students_link_opens_the_page_as_a_student_without_the_key():
    code, key = classroom.start_session("perceptron", "T=30")
    at = open_page(page_path("perceptron"), T="30", **{"class": code.lower()})
    assert not at.exception
    opts = viewer_data(at)["modes"]["class"]
    assert opts["role"] == "student" and opts["code"] == code and "key" not in opts
    assert key not in json.dumps(viewer_data(at)) and key not in json.dumps(at.session_state[URL_KEY])
    assert at.session_state[URL_KEY]["class"] == code
    assert not [w for w in at.warning if "Class session" in w.value]


@pytest.mark.parametrize("raw, says", [
    ("ZZZZ0O", "not a class code"),
    ("ABCDEF", "no class session has that code"),
    ("[x](https://evil.example) <script>alert(1)</script> $x$ :red[y]", "not a class code"),
    ("A" * 5000, "not a class code"),
])
def test_a_bad_code_is_one_inert_sentence_and_the_page_works(raw, says):
    at = open_page(page_path("perceptron"), T="20", **{"class": raw})
    assert not at.exception
    [w] = [w for w in at.warning if "Class session" in w.value]
    assert says in w.value and "the page works on its own" in w.value
    assert "<script" not in w.value and "](" not in w.value and "https:" not in w.value.replace("\u2060", "")
    assert len(w.value) < 400
    assert "class" not in viewer_data(at)["modes"] and len(viewers(at)) == 1
    assert "class" not in at.session_state[URL_KEY]


def test_an_ended_session_says_so():
    code, key = classroom.start_session("perceptron", "")
    classroom.get_store().end(code)
    at = open_page(page_path("perceptron"), T="20", **{"class": code})
    [w] = [w for w in at.warning if "Class session" in w.value]
    assert "ended or expired" in w.value


def _bridge_page():
    import streamlit as st

    from olc_ui.shared import class_session, state
    from olc_ui.shared.config import Setting

    settings = [Setting("T", "Rounds T", "int", 10, lo=1, hi=100, step=1),
                Setting("seed", "Seed", "int", 0, lo=0, hi=99, step=1, extra={"widget": "number"}),
                Setting("order", "Order", "choice", "a", options=("a", "b"))]
    st.session_state.setdefault(class_session.SESSION_KEY, {"code": "ABCDEF", "role": "student", "join_page": "x"})
    state.begin_run()
    st.button("bridge", on_click=class_session.apply_settings, args=({"query": st.session_state.get("q", "")},))
    v = state.bind("demo", settings)
    st.markdown(f"values: {v['T']} {v['seed']} {v['order']}")


def test_the_bridge_gives_the_widgets_the_lecturers_query_before_the_run():
    at = AppTest.from_function(_bridge_page, default_timeout=30).run()
    [slider] = [s for s in at.slider if s.label == "Rounds T"]
    slider.set_value(40).run()
    assert "values: 40 0 a" in at.markdown[0].value
    # the lecturer's query: T=7, seed=5, order=b, t and class ignored; a setting it leaves out: its default
    at.session_state["q"] = "T=7&seed=5&order=b&t=3&class=ZZZZZZ"
    at.run()
    buttons(at, "bridge")[0].click().run()
    assert "values: 7 5 b" in at.markdown[0].value
    at.session_state["q"] = "seed=9&order=%3Cb%3E"   # a bad value: the default, as a link's
    at.run()
    buttons(at, "bridge")[0].click().run()
    assert "values: 10 9 a" in at.markdown[0].value


@pytest.mark.parametrize("part", ["conj", "dl", "adversary", "learner"])
def test_every_part_of_the_mistake_bound_page_offers_the_button_and_carries_the_class(part):
    """The conjunctions page's four parts (its learners through page.step_view; the adversary game, a fragment,
    has the button drawn by the page): one button; after a start, the part's viewer is in the class mode with
    the part's settings in its query (the learners, the learner game) or the browser's (the adversary game)."""
    at = open_page(page_path("boolean_concepts"), mode=part)
    assert not at.exception
    assert len(buttons(at, START)) == 1
    assert "class" not in viewer_data(at)["modes"]
    buttons(at, START)[0].click().run()
    assert not at.exception
    sess = at.session_state[class_session.SESSION_KEY]
    opts = viewer_data(at)["modes"]["class"]
    assert opts["role"] == "lecturer" and opts["code"] == sess["code"] and opts["page"] == "boolean_concepts"
    assert list(viewer_data(at)["modes"])[0] == "class"
    if part == "adversary":
        assert opts["query"] is None and "game" in viewer_data(at)["modes"]
    else:
        assert f"mode={part}" in opts["query"]
    assert at.session_state[URL_KEY]["class"] == sess["code"]
    assert buttons(at, "Leave the class session") and not buttons(at, START)


def test_the_learners_predict_switch_reaches_the_class_query():
    at = open_page(page_path("boolean_concepts"), mode="dl", predict="1")
    buttons(at, START)[0].click().run()
    modes = viewer_data(at)["modes"]
    assert "predict" in modes and "predict=1" in modes["class"]["query"] and "mode=dl" in modes["class"]["query"]


def test_the_sidebar_claims_a_role_only_in_the_lecturers_own_session():
    """A link's session may be the lecturer's tab reloaded (the key in the browser, not in Python): it draws the
    student's sentence and the lecturer's, each in its role's container (viewer.css shows the student's until this
    tab's class mode connects as the lecturer: tests/e2e/test_class_room.py); the session that started it draws
    only "you lead it"."""
    code, _ = classroom.start_session("perceptron", "T=30")
    at = open_page(page_path("perceptron"), T="30", **{"class": code})
    said = [c.value for c in at.sidebar.caption if code in c.value]
    assert said == [f"Class session {code}: you joined it; your screen follows the lecturer's steps (or explore on "
                    "your own).", f"Class session {code} (you lead it)."]
    css = (ROOT / "olc_ui" / "viewer" / "assets" / "viewer.css").read_text(encoding="utf-8")
    assert ':root:not([data-olc-class-role="lecturer"]) .st-key-olc_class_said_lecturer' in css
    at = open_page(page_path("perceptron"), T="30")
    buttons(at, START)[0].click().run()
    code = at.session_state[class_session.SESSION_KEY]["code"]
    assert [c.value for c in at.sidebar.caption if code in c.value] == [f"Class session {code} (you lead it)."]


def test_in_presentation_mode_the_button_is_in_the_top_bar_not_the_folded_sidebar():
    """Presentation mode folds the sidebar away: "Start a class session" is drawn in the main area's top bar
    (``class_session.TOP_KEY``, fixed by present.py's CSS); in a session its controls go back to the sidebar."""
    at = open_page(page_path("perceptron"), T="30", present="1")
    assert [b.label for b in at.main.button if b.label == START] == [START]
    assert not [b for b in at.sidebar.button if b.label == START]
    css = present.css()
    assert f".st-key-{class_session.TOP_KEY} {{ position: fixed" in css
    buttons(at, START)[0].click().run()
    assert not buttons(at, START) and [b for b in at.sidebar.button if b.label == "Leave the class session"]
    at = open_page(page_path("perceptron"), T="30")
    assert [b for b in at.sidebar.button if b.label == START] and not [b for b in at.main.button if b.label == START]


@pytest.mark.parametrize("url, kw, link, says", [
    ("http://10.0.0.5:8501/perceptron", {}, "http://10.0.0.5:8501/perceptron?class=ABC234", None),
    ("http://localhost:8501/perceptron", {"lan": "192.168.1.5"}, "http://192.168.1.5:8501/perceptron?class=ABC234",
     "use this computer’s network address, 192.168.1.5: localhost opens only on this computer"),
    ("http://127.0.0.1:8501/perceptron", {"lan": "192.168.1.5", "server_address": "127.0.0.1"},
     "http://127.0.0.1:8501/perceptron?class=ABC234",
     "Students cannot open 127.0.0.1: it is this computer, and this server listens only on it (server.address = "
     "127.0.0.1). Start it with --server.address 0.0.0.0 and open http://192.168.1.5:8501/perceptron"),
    ("http://127.0.0.1:8080/perceptron", {"lan": "192.168.1.5", "proxied": True},
     "http://127.0.0.1:8080/perceptron?class=ABC234", "this computer’s network address is 192.168.1.5, if the proxy"),
    ("http://[::1]:8501/perceptron", {}, "http://[::1]:8501/perceptron?class=ABC234", "no network address of it was found"),
    ("http://localhost:8501/perceptron", {"lan": "fd00::7"}, "http://[fd00::7]:8501/perceptron?class=ABC234", "fd00::7"),
    ("http://127.0.0.1:8501/perceptron", {"server_address": "10.1.2.3", "lan": "192.168.1.5"},
     "http://10.1.2.3:8501/perceptron?class=ABC234", "network address, 10.1.2.3"),
    ("http://127.0.0.1:8501/perceptron", {"public": "https://olc.example.edu/olc/"},
     "https://olc.example.edu/olc/perceptron?class=ABC234", None),
    ("http://0.0.0.0:8501/x/perceptron", {"base": "/x/", "lan": "192.168.1.5"},
     "http://192.168.1.5:8501/x/perceptron?class=ABC234", "0.0.0.0 opens only on this computer"),
])
def test_the_join_link_is_one_students_can_open_or_the_lecturer_is_told(url, kw, link, says):
    """The lecturer opened 127.0.0.1 or localhost (issue 32 §7): the QR code and the link take this computer's network
    address when the server listens on it; else they keep the address and the panel says what to open instead."""
    got = class_session.join_target("ABC234", "perceptron", url, **kw)
    assert got.link == link
    assert (got.note is None) if says is None else (says in got.note), got.note


def _rejoin_page():
    import streamlit as st

    from olc_ui.shared import class_session

    st.button("rejoin", on_click=class_session.apply_settings, args=({"rejoin": st.session_state.get("code", "")},))
    st.button("leave", on_click=class_session.leave)
    sess = class_session.current()
    st.markdown(f"class: {sess['code'] if sess else None} {sess['role'] if sess else None}")


def test_a_page_whose_streamlit_session_is_new_joins_the_class_its_browser_is_in_again():
    """A process died: the page's new Streamlit session knows no class session; its viewer, still in it, asks
    (``{rejoin: code}``): joined (as a student in Python: a lecturer's key in the tab makes it the lecturer again);
    not a code this session left, nor a session that ended."""
    code, _ = classroom.start_session("perceptron", "")
    at = AppTest.from_function(_rejoin_page, default_timeout=30).run()
    assert "class: None None" in at.markdown[0].value
    at.session_state["code"] = code
    at.run()
    buttons(at, "rejoin")[0].click().run()
    assert f"class: {code} student" in at.markdown[0].value
    buttons(at, "leave")[0].click().run()
    assert "class: None None" in at.markdown[0].value
    buttons(at, "rejoin")[0].click().run()                 # left: the viewer's late ask does not bring it back
    assert "class: None None" in at.markdown[0].value
    ended, _ = classroom.start_session("perceptron", "")
    classroom.get_store().end(ended)
    fresh = AppTest.from_function(_rejoin_page, default_timeout=30).run()
    fresh.session_state["code"] = ended
    fresh.run()
    buttons(fresh, "rejoin")[0].click().run()
    assert "class: None None" in fresh.markdown[0].value
