"""AppTest of Beat the bound on the Perceptron page (``?mode=adversary``): the board, the moves in the URL, the
numbers from the game's run, typed points and the board's moves judged by the core's rules (a refused one never
changes the game), the computer's adversary, an impossible setting, w* hidden until the end, the downloads."""
from __future__ import annotations

from streamlit.testing.v1 import AppTest

from olc_core.games.perceptron import Move, PerceptronGame, encode_moves
from olc_core.games.perceptron_adversary import greedy_game
from olc_ui.lessons.perceptron import adversary as A
from olc_ui.lessons.perceptron.adversary_view import HIDDEN_NAME
from tests.app.test_transcript_downloads import downloads  # noqa: F401  (the fixture)
from tests.app.pagetest import open_page, page_path, page_text, shown, url, viewer_data, viewer_spec, viewers

PAGE = page_path("perceptron")
GAME = {"mode": "adversary", "ws": "36.87", "gamma": "0.2", "R": "1"}


def _open(**query) -> AppTest:
    return open_page(PAGE, timeout=90, **{**GAME, **query})


def _moves(at: AppTest) -> str:
    return url(at)["moves"]


def test_the_game_opens_on_an_empty_board():
    at = _open()
    assert not at.exception
    assert at.title[0].value == "Beat the bound: the Perceptron"
    spec = viewer_spec(at)
    assert spec["T"] == 0 and [f["id"] for f in spec["figures"]] == ["main"]
    assert "game_plane" in viewer_data(at)["modes"]
    q = url(at)
    assert q["mode"] == "adversary" and q["ws"] == "36.87" and q["gamma"] == "0.2" and q["moves"] == ""
    assert "the theorem: M ≤ ⌊R²/γ²⌋ = **25** · still allowed: **25**" in page_text(at)


def test_a_link_replays_the_game_with_the_runs_numbers():
    moves = [Move(16, 60, 1), Move(60, -20, 1), Move(-10, -50, -1)]
    at = _open(moves=encode_moves(moves), t=3)
    assert not at.exception
    state = PerceptronGame.make("36.87", "0.2", "1").play(moves)
    spec = viewer_spec(at)
    assert spec["T"] == 3 and spec["mistake_rounds"] == state.trace.mistakes.tolist() == [0, 1]
    assert [f["id"] for f in spec["figures"]] == ["main", "sandwich_A", "sandwich_B"]
    text = page_text(at)
    assert f"mistakes **M = {state.M}**" in text and "still allowed: **23**" in text
    assert "No admissible move can be a mistake any more" in text          # w is within arcsin(γ/R) of w*
    assert _moves(at) == encode_moves(moves) and url(at)["t"] == "3"
    assert {d.label for d in at.get("download_button")} == {
        "Download the trace (CSV)", "Download the proof (Markdown + KaTeX)", "Download the proof (LaTeX)",
        "Download this run as a notebook (.ipynb)", "Download this run as one offline file (HTML)"}


def test_the_games_notebook_reruns_the_students_points(downloads):
    """The game's run taken home (issue 36 §2): its notebook embeds the student's points and reruns them to the
    same mistakes and weights (executed with nbclient)."""
    from tests.app.test_notebook_downloads import _notebooks, _outputs, execute
    moves = [Move(16, 60, 1), Move(60, -20, 1), Move(-10, -50, -1)]
    at = _open(moves=encode_moves(moves), t=3)
    assert not at.exception
    [(name, text)] = _notebooks(downloads)
    nb = execute(text)
    printed = "".join(o.get("text", "") for o in _outputs(nb, "assert trace.T =="))
    assert printed.startswith("The run is the page's:"), printed


def test_a_board_move_is_judged_by_the_core():
    at = _open()
    key = "_olc_viewer_game_move::" + A.VIEWER
    at.session_state[key] = {"i": 16, "j": 60, "label": 1, "T": 0, "id": "a"}
    at.run()
    assert _moves(at) == "16:60:1" and viewer_spec(at)["T"] == 1
    # a stale move (made on an earlier board) and a refused one change nothing
    at.session_state[key] = {"i": 60, "j": -20, "label": 1, "T": 0, "id": "b"}
    at.run()
    assert _moves(at) == "16:60:1"
    at.session_state[key] = {"i": 0, "j": 0, "label": 1, "T": 1, "id": "c"}
    at.run()
    assert _moves(at) == "16:60:1"
    assert "inside the band: |⟨w*, x⟩| = 0 < γ = 0.2" in shown(at, "warning")


def test_typed_points_and_a_refusal():
    at = _open()
    at.number_input(key="perceptron_adversary_x1").set_value(0.25)
    at.number_input(key="perceptron_adversary_x2").set_value(0.9375)
    at.button(key="perceptron_adversary_place").click().run()
    assert _moves(at) == "16:60:1"
    at.number_input(key="perceptron_adversary_x1").set_value(-0.5)
    at.number_input(key="perceptron_adversary_x2").set_value(0.0)
    at.button(key="perceptron_adversary_place").click().run()
    assert _moves(at) == "16:60:1"
    assert "the wrong side: y⟨w*, x⟩ = −0.4 ≤ −γ = −0.2" in shown(at, "warning")
    at.radio(key="perceptron_adversary_label").set_value(-1)
    at.button(key="perceptron_adversary_place").click().run()
    assert _moves(at) == "16:60:1,-32:0:-1"


def test_the_computer_plays_to_the_end_and_the_page_compares():
    at = _open()
    at.button(key="perceptron_adversary_cend").click().run()
    game = PerceptronGame.make("36.87", "0.2", "1")
    comp = greedy_game(game)
    assert _moves(at) == encode_moves(comp.moves)
    text = page_text(at)
    # every move was the computer's: none is credited to the student (a review found "You: M = 11 …", "your label",
    # "you forced M = 11" and "You forced as many as the computer" here)
    assert f"This game: $M = {comp.M}$ in {comp.T} moves, all of them the computer's." in text
    assert f"this game: $M = {comp.M}$" in text and "This game forced as many as the computer's own game" in text
    assert f"The computer's moves forced $M = {comp.M}$" in text and "the computer's label $y" in text
    assert "No admissible move can be a mistake any more" in text
    assert "You forced" not in text and "your label $y" not in text and "You: " not in text
    assert at.button(key="perceptron_adversary_cmove").disabled


def test_the_page_credits_each_move_to_whoever_made_it():
    """The student's typed point, then the computer's move, then the student's again: each round's words and the
    mistakes forced name their maker; undoing the computer's move and playing the same point makes it the
    student's."""
    game = PerceptronGame.make("36.87", "0.2", "1")
    at = _open()
    at.number_input(key="perceptron_adversary_x1").set_value(0.25)
    at.number_input(key="perceptron_adversary_x2").set_value(0.75).run()
    at.button(key="perceptron_adversary_place").click().run()        # (0.25, 0.75), +1: a mistake (w = 0)
    assert "your label $y = +1$" in page_text(at)
    at.button(key="perceptron_adversary_cmove").click().run()
    state_ = game.play(A.parse_moves(_moves(at)))
    assert state_.T == 2
    text = page_text(at)
    assert "the computer's label $y" in text and "your label $y" not in text
    on_computer = int(1 in state_.trace.mistakes.tolist())
    assert (f"This game: $M = {state_.M}$ in 2 moves, 1 yours (M 1), 1 the computer's (M {on_computer})."
            in text), text
    assert "You: " not in text and "You forced" not in text
    assert "your point" not in str(viewer_spec(at)) and "Your points" not in str(viewer_spec(at))   # per round: no maker
    computer_move = A.parse_moves(_moves(at))[-1]
    at.button(key="perceptron_adversary_undo").click().run()
    at.number_input(key="perceptron_adversary_x1").set_value(computer_move.i / 64)
    at.number_input(key="perceptron_adversary_x2").set_value(computer_move.j / 64).run()
    at.radio(key="perceptron_adversary_label").set_value(computer_move.label).run()
    at.button(key="perceptron_adversary_place").click().run()
    assert A.parse_moves(_moves(at))[-1] == computer_move
    text = page_text(at)
    assert "your label $y" in text and f"You: $M = {state_.M}$ in 2 moves." in text and "the computer's label" not in text


def test_a_links_moves_are_credited_to_nobody_the_students_own_to_her():
    """A review found a link's moves (another session's game) and a class follower's board credited to the reader
    ("your label", "You forced"): the page did not see them made. Opened from a link, the words name no maker for
    them; a point the student then places herself is hers."""
    game = PerceptronGame.make("36.87", "0.2", "1")
    moves = greedy_game(game, ()).moves[:2]
    at = _open(moves=encode_moves(moves))
    assert not at.exception
    text = page_text(at)
    assert "the label $y" in text and "your label $y" not in text and "the computer's label" not in text
    assert "You forced" not in text and "You: " not in text
    assert "in 2 moves, 2 not made on this page (M " in text, text
    at.number_input(key="perceptron_adversary_x1").set_value(0.25)
    at.number_input(key="perceptron_adversary_x2").set_value(0.75).run()
    at.button(key="perceptron_adversary_place").click().run()
    text = page_text(at)
    if A.parse_moves(_moves(at))[-1] != A.parse_moves(encode_moves(moves))[-1]:     # the point was admitted
        assert "your label $y" in text and "2 not made on this page (M " in text and ", 1 yours (M " in text, text


def test_a_page_following_a_class_credits_no_move_to_the_student():
    """On a page that follows a class session's lecturer, a move that reaches the board is nobody's on this page."""
    from olc_ui.shared import class_session
    at = _open()
    at.session_state[class_session.SESSION_KEY] = {"code": "ABC234", "role": "student", "join_page": "perceptron"}
    at.number_input(key="perceptron_adversary_x1").set_value(0.25)
    at.number_input(key="perceptron_adversary_x2").set_value(0.75).run()
    at.button(key="perceptron_adversary_place").click().run()
    assert not at.exception and _moves(at)
    text = page_text(at)
    assert "your label $y" not in text and "You forced" not in text and "You: " not in text and "the label $y" in text


def test_links_with_refused_moves_keep_the_admissible_start():
    at = _open(moves="16:60:1,0:0:1,60:-20:1")
    assert not at.exception
    assert _moves(at) == "16:60:1"
    assert "move 2 is refused: inside the band" in shown(at, "warning")
    at = _open(moves="16:60:x")
    assert _moves(at) == "" and "could not be read" in shown(at, "warning")


def test_an_impossible_setting_says_why():
    at = _open(gamma="1.5", R="1")
    assert not at.exception
    assert "a margin γ = 1.5 is impossible in a disc of radius R = 1" in shown(at, "error")
    assert viewers(at) == [] and url(at)["gamma"] == "1.5"


def test_w_star_hidden_until_the_end():
    at = _open(hide=1, moves="0:60:1")
    spec = viewer_spec(at)
    names = [t["name"] for t in spec["figures"][0]["figure"]["data"]]
    assert HIDDEN_NAME in names and not any(n.startswith("w* (unit") for n in names)
    assert "$w^*$ hidden until the end" in page_text(at)
    assert not at.get("download_button") and "download once w* is shown" in shown(at, "caption")  # they name w*
    at.button(key="perceptron_adversary_reveal_btn").click().run()
    names = [t["name"] for t in viewer_spec(at)["figures"][0]["figure"]["data"]]
    assert "w* (unit; drawn R/2 long)" in names and at.get("download_button")
    over = _open(hide=1, moves=encode_moves(greedy_game(PerceptronGame.make("36.87", "0.2", "1")).moves))
    names = [t["name"] for t in viewer_spec(over)["figures"][0]["figure"]["data"]]
    assert "w* (unit; drawn R/2 long)" in names                       # the end: no admissible move errs


def test_the_lesson_part_is_the_perceptron_lesson():
    at = open_page(PAGE, timeout=90, mode="lesson")
    assert not at.exception and at.title[0].value == "The Perceptron and its mistake bound"
    assert url(at).get("mode") is None


def test_a_hostile_link_is_shown_as_inert_text():
    at = _open(moves="[click](https://evil.example):1:1,<b>x</b>")
    assert not at.exception and _moves(at) == ""
    raw = " ".join(w.value for w in at.warning)
    assert "could not be read" in raw and "](https" not in raw and "<b>" not in raw
    assert "move 1 ('[click](https://evil') is not a point" in shown(at, "warning")
