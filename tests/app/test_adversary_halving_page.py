"""AppTest of Beat the bound on the Halving page (``?mode=adversary``): moves in the URL, the board from round 0 with
the browser's game mode on it, then the lesson's version space and sandwich from the game's run (described from the
run), refused moves that change nothing, a move the board played (the class's proposal) judged by the core, the
computer's adversary, the end of a game said from the exact rule, the target hidden until revealed, and the lesson
part still the lesson."""
from __future__ import annotations

from olc_core.games import halving as Hg
from olc_ui.lessons.halving import adversary as A
from tests.app.pagetest import component_data, open_page, page_path, page_text, shown, url, viewer_spec, viewers

HALVING = page_path("halving")


def _open(**q):
    return open_page(HALVING, timeout=90, **{"mode": "adversary", "hcls": "thresholds", "hK": 16, "hseed": 0, **q})


def test_halving_game_moves_refusals_and_the_computer():
    at = _open()
    assert not at.exception and at.title[0].value == "Beat the bound: Halving"
    g = Hg.HalvingGame.make("thresholds", 16, seed=0)                    # h*: x ≥ 0.53125
    start = viewer_spec(at)                                            # the board before the first move
    assert start["T"] == 0 and [f["id"] for f in start["figures"]] == ["main"]
    assert "No moves yet." in page_text(at) and "You forced" not in page_text(at)   # no verdict before a move
    assert start["caption"]["start"].startswith("Before the first round all 16 hypotheses of H")
    [comp] = viewers(at)
    mode = component_data(comp)["modes"]["game_bars"]                  # the move drawn in the page
    assert mode["kind"] == "halving" and mode["target"] == g.target and len(mode["plus"]) == len(g.plus)
    assert "so M ≤ **4**" in page_text(at) and "The target: h* = x ≥ 0.53125" in shown(at, "caption")
    at.selectbox(key="halving_adversary_inst").set_value(0).run()      # x = 0: h* says −1
    at.button(key="halving_adversary_lab1").click().run()
    assert url(at)["hmoves"] == "" and "the label must be −1: the target h* = x ≥ 0.53125 labels x = 0 −1" in \
        shown(at, "warning")
    wrong = g.play([]).mistake_instances[0]                              # an instance where Halving errs now
    at.selectbox(key="halving_adversary_inst").set_value(wrong).run()
    label = g.target_label(wrong)
    at.button(key="halving_adversary_lab1" if label > 0 else "halving_adversary_lab0").click().run()
    assert url(at)["hmoves"] == Hg.encode([Hg.HMove(wrong, label)])
    spec = viewer_spec(at)
    assert spec["T"] == 1 and spec["mistake_rounds"] == [0]
    assert [f["id"] for f in spec["figures"]] == ["main", "space", "sandwich"]
    assert all(f["describe"]["template"] for f in spec["figures"])     # every chart described from the run
    # the board's bars are the class's hypotheses, in or out of the version space, and y is the instance's label
    # (a review found the experts' words here: "each expert's weight", "outcome y")
    main = spec["figures"][0]
    assert main["title"] == ("The adversary's rounds against Halving: which hypotheses are still in the version "
                             "space after the round")
    words = " ".join([main["title"], main["describe"]["name"], main["describe"]["template"],
                      *(t.get("name", "") for t in main["figure"]["data"])])
    assert "where a hypothesis that left stood" in words
    assert "label y = {y}" in words and "expert" not in words and "outcome" not in words, words
    assert "**a mistake**" in page_text(at)
    at.button(key="halving_adversary_cend").click().run()
    comp = Hg.computer_game(g, [Hg.HMove(wrong, label)])
    assert url(at)["hmoves"] == Hg.encode(comp.moves)
    text = page_text(at)
    assert "No admissible instance can be a mistake any more" in text
    # one move the student's (a mistake), the rest the computer's: each credited to its maker (a review found
    # "You forced M = …" for all of them)
    rest = comp.M - 1
    assert (f"Your 1 move and the computer's {comp.T - 1} forced $M = {comp.M}$ (1 on yours, {rest} on the "
            "computer's)") in text, text
    assert f"This game: $M = {comp.M}$ in {comp.T} moves, 1 yours (M 1), {comp.T - 1} the computer's (M {rest})." in text
    assert "You forced" not in text and "the computer's label $y" in text and "your label $y" not in text
    spec = viewer_spec(at)
    assert spec["T"] == comp.T and spec["mistake_rounds"] == comp.trace.mistakes.tolist()
    assert at.get("download_button")


def test_halving_link_with_a_wrong_label_keeps_the_start():
    g = Hg.HalvingGame.make("conj", n=3, seed=1)                          # h* = x2
    good = Hg.HMove(7, 1)
    at = _open(hcls="conj", hn=3, hseed=1, hmoves="7:+,7:-,0:-")
    assert url(at)["hmoves"] == Hg.encode([good]) and g.target_label(7) == 1
    assert "move 2 is refused: the label must be +1" in shown(at, "warning")


def test_halving_target_hidden_until_revealed():
    at = _open(hhide=1)
    assert "is hidden until the end" in shown(at, "caption") and "0.53125" not in shown(at, "caption")
    at.selectbox(key="halving_adversary_inst").set_value(0).run()
    at.button(key="halving_adversary_lab1").click().run()
    assert "the label must be −1: the target h* labels x = 0 −1" in shown(at, "warning")
    at.button(key="halving_adversary_cmove").click().run()
    spec = viewer_spec(at)
    space = next(f for f in spec["figures"] if f["id"] == "space")
    names = [t.get("name", "") for t in space["figure"]["data"]]
    assert not any("h*" in n or "target" in n for n in names)
    assert not at.get("download_button") and "download once the target is shown" in shown(at, "caption")
    at.button(key="halving_adversary_reveal_btn").click().run()
    space = next(f for f in viewer_spec(at)["figures"] if f["id"] == "space")
    names = [t.get("name", "") for t in space["figure"]["data"]]
    assert any("h*" in n or "target" in n for n in names) and at.get("download_button")
    over = _open(hhide=1, hmoves=Hg.encode(Hg.computer_game(Hg.HalvingGame.make("thresholds", 16, seed=0)).moves))
    assert "The target: h* = x ≥ 0.53125" in shown(over, "caption")           # the end: no admissible move errs


def test_a_board_move_is_judged_by_the_core():
    """The class's proposal the lecturer played (viewer_game_class.js sends ``12:1``: instance, label 1/0) is a move
    only if it was made on the game's current state and the core admits it; otherwise nothing changes."""
    g = Hg.HalvingGame.make("thresholds", 16, seed=0)                    # h*: x ≥ 0.53125
    j = g.play([]).mistake_instances[0]
    good = Hg.HMove(j, g.target_label(j))
    at = _open()
    key = "_olc_viewer_game_move::" + A.VIEWER
    at.session_state[key] = {"move": f"{j}:{1 if good.label > 0 else 0}", "T": 0, "id": "a"}
    at.run()
    assert url(at)["hmoves"] == Hg.encode([good]) and viewer_spec(at)["T"] == 1
    at.session_state[key] = {"move": f"{j}:{1 if good.label > 0 else 0}", "T": 0, "id": "b"}     # stale
    at.run()
    assert url(at)["hmoves"] == Hg.encode([good])
    at.session_state[key] = {"move": f"{j}:{0 if good.label > 0 else 1}", "T": 1, "id": "c"}     # refused
    at.run()
    assert url(at)["hmoves"] == Hg.encode([good])
    at.session_state[key] = {"move": "99:1", "T": 1, "id": "d"}                                 # not an instance
    at.run()
    assert url(at)["hmoves"] == Hg.encode([good]) and not at.exception


def test_the_lesson_part_is_the_lesson():
    at = open_page(HALVING, timeout=90, mode="lesson")
    assert not at.exception and at.title[0].value == "Halving: the version space"
