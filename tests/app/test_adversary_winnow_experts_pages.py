"""AppTest of Beat the bound on the Winnow and experts pages (``?mode=adversary``): moves in the URL, the board from the
game's run, refused moves that change nothing, the computer's adversary, the end of a game said from the exact rule,
and the lesson part still the lesson."""
from __future__ import annotations

from olc_core.games import experts as E
from olc_core.games import winnow as Wn
from tests.app.pagetest import open_page, page_path, page_text, shown, url, viewer_spec

WINNOW = page_path("winnow")
EXPERTS = page_path("experts")


def _winnow(**q):
    return open_page(WINNOW, timeout=90, **{"mode": "adversary", "aN": 8, "ak": 1, "aseed": 0, **q})


def _experts(**q):
    return open_page(EXPERTS, timeout=90, **{"mode": "adversary", "ealg": "weighted_majority", "eN": 4,
                                             "erate": 0.5, "ebudget": 1, **q})


def test_winnow_game_moves_and_refusals():
    at = _winnow()
    assert not at.exception and at.title[0].value == "Beat the bound: Winnow"
    start = viewer_spec(at)                                         # the board before the first move
    assert start["T"] == 0 and [f["id"] for f in start["figures"]] == ["main"]
    assert start["caption"]["start"].startswith("Before your first example every weight is 1")
    g = Wn.WinnowGame.make(8, 1, 1.0, 0)                            # the target: x₅
    assert f"so M ≤ **{g.cap}**" in page_text(at)
    at.checkbox(key="winnow_adversary_bit0").check().run()
    at.button(key="winnow_adversary_lab1").click().run()           # x₁ alone is a negative example: refused
    assert url(at)["amoves"] == ""
    assert "the label must be 0: no variable of the target disjunction is on" in shown(at, "warning")
    at.button(key="winnow_adversary_lab0").click().run()
    assert url(at)["amoves"] == "10000000:0" and viewer_spec(at)["T"] == 1
    spec = viewer_spec(at)                                          # the board, then the lesson's charts of the run
    assert [f["id"] for f in spec["figures"]] == ["main", "potential", "bound"] and spec["ledger"]["lines"]
    assert spec["caption"]["values"]["gx"]["data"] == ["x₁ on"]
    at.button(key="winnow_adversary_cend").click().run()
    comp = Wn.computer_game(g, [Wn.WMove((1, 0, 0, 0, 0, 0, 0, 0), 0)])
    assert url(at)["amoves"] == Wn.encode(comp.moves)
    text = page_text(at)
    assert "No admissible example can be a mistake any more" in text
    # the student's first move (no mistake: x₁ alone, 0), the rest the computer's: each credited to its maker
    assert (f"Your 1 move and the computer's {comp.T - 1} forced $M = {comp.M}$ (0 on yours, {comp.M} on the "
            "computer's)") in text, text
    assert "You forced" not in text and "You: " not in text and "the computer's label $y" in text
    spec = viewer_spec(at)
    assert spec["T"] == comp.T and spec["mistake_rounds"] == comp.trace.mistakes.tolist()


def _board_names_target(spec: dict) -> bool:
    main = spec["figures"][0]["figure"]
    return "pattern" in main["data"][0]["marker"] or "target's" in main["layout"]["xaxis"]["title"]["text"]


def test_winnow_target_hidden_until_revealed():
    """Issue 35 §1: the target hidden (as the Perceptron's w* can be): nothing on the page names its variables — the
    panel, a refused label, the board, the ledger, the verdict — and nothing downloads (the transcript names it) until
    Reveal."""
    at = _winnow(ahide=1, ak=2, aN=12, aseed=3)
    g = Wn.WinnowGame.make(12, 2, 1.0, 3, hidden=True)                      # the target: x₇ ∨ x₁₁
    names = ["x₇", "x₁₁"]
    assert "is hidden until the end" in shown(at, "caption")
    assert not any(n in shown(at, "caption") for n in names)
    at.checkbox(key="winnow_adversary_bit6").check().run()
    at.button(key="winnow_adversary_lab0").click().run()                   # x₇ on, label 0: refused, x₇ not named
    refused = shown(at, "warning")
    assert "a variable of the target disjunction is on" in refused and "x₇" not in refused.split("refused")[1]
    assert url(at)["amoves"] == ""
    at.button(key="winnow_adversary_lab1").click().run()
    at.button(key="winnow_adversary_cmove").click().run()
    spec = viewer_spec(at)
    assert spec["T"] == 2 and not _board_names_target(spec)
    assert not any("relevant variable x_" in line.get("reason", "") for line in spec["ledger"]["lines"])
    assert "ron" not in spec["caption"]["values"]
    text = page_text(at)                  # x₇ and x₁₁ weigh 2 ≤ N: the verdict says so without naming them
    assert "2 variables of the hidden target still weigh at most N" in text
    assert not any(f"one of {n}" in text for n in names)
    assert not at.get("download_button") and "download once the target is shown" in shown(at, "caption")
    at.button(key="winnow_adversary_reveal_btn").click().run()
    assert "The target is the OR of 2 of these: x₇, x₁₁." in shown(at, "caption")
    assert _board_names_target(viewer_spec(at)) and at.get("download_button")
    assert g.cap == Wn.cap(1.0, 12, 2)


def test_winnow_hidden_target_shown_at_the_end():
    at = _winnow(ahide=1)
    at.button(key="winnow_adversary_cend").click().run()
    assert "No admissible example can be a mistake any more" in page_text(at)
    assert "The target is the OR of 1 of these: x₅." in shown(at, "caption")
    assert _board_names_target(viewer_spec(at))


def test_winnow_link_with_a_wrong_label_keeps_the_start():
    at = _winnow(amoves="00001000:1,00001000:0,10000000:0")
    assert url(at)["amoves"] == "00001000:1"
    assert "move 2 is refused: the label must be 1" in shown(at, "warning")


def test_experts_game_wm():
    at = _experts()
    assert not at.exception and at.title[0].value == "Beat the bound: learning from expert advice"
    assert viewer_spec(at)["T"] == 0                                # the board before the first move
    text = page_text(at)                                            # no verdict before a move (a review read
    assert "No moves yet." in text and "Play to compare your game with it." in text    # "You forced fewer than
    assert "You forced" not in text and "You: $M = 0$" not in text                      # the computer" here)
    g = E.ExpertsGame.make("weighted_majority", 4, 0.5, 1)
    at.button(key="experts_adversary_out0").click().run()          # all +1, outcome −1: everyone wrong, m = 1 ≤ 1
    assert url(at)["emoves"] == "++++:-"
    spec = viewer_spec(at)
    assert [f["id"] for f in spec["figures"]] == ["main", "sandwich", "advice", "mistakes"]
    assert spec["figures"][0]["title"] == "The adversary's rounds against the learner: each expert's weight after the round"
    assert spec["caption"]["values"]["gwhat"]["data"] == ["MISTAKE → the wrong experts' weights × β = 0.5"]
    at.button(key="experts_adversary_out0").click().run()          # again: the best would have 2 > 1: refused
    assert url(at)["emoves"] == "++++:-" and "the best would have 2 mistakes" in shown(at, "warning")
    at.button(key="experts_adversary_cend").click().run()
    comp = E.computer_game(g, E.parse("++++:-", 4))
    assert url(at)["emoves"] == E.encode(comp.moves)
    text = page_text(at)
    assert "No admissible move can be a mistake any more" in text
    assert viewer_spec(at)["T"] == comp.T
    # the student's first round (a mistake: everyone wrong), the rest the computer's: each credited to its maker
    assert (f"Your 1 move and the computer's {comp.T - 1} forced $M = {comp.M}$ (1 on yours, {comp.M - 1} on the "
            "computer's)") in text, text
    assert "You forced" not in text and "You: " not in text and "(the computer's move)" in text


def test_experts_game_halving_and_rwm():
    at = _experts(ealg="halving", eN=8)
    at.button(key="experts_adversary_cend").click().run()
    comp = E.computer_game(E.ExpertsGame.make("halving", 8))
    assert comp.M == 3 and url(at)["emoves"] == E.encode(comp.moves)
    main = viewer_spec(at)["figures"][0]       # Halving's experts are in or out (weight 1 or 0), not weighed down
    assert main["title"] == ("The adversary's rounds against Halving: which experts are still in the version space "
                             "after the round")
    assert "outcome y = {y}" in main["describe"]["template"] and "weights" not in main["describe"]["name"]
    assert "where an expert that left stood" in [t.get("name") for t in main["figure"]["data"]]
    text = page_text(at)
    assert "the only expert still consistent" in text
    assert f"This game: $M = 3$ in {comp.T} moves, all of them the computer's." in text
    assert "The computer's moves forced $M = 3$" in text and "You forced" not in text
    at = _experts(ealg="randomized_weighted_majority", eN=3, ebudget=0, emoves="+--:+,+-+:+")
    assert not at.exception
    s = E.ExpertsGame.make("randomized_weighted_majority", 3, 0.5, 0).play(E.parse("+--:+,+-+:+", 3))
    assert f"E[M] = ΣFₜ = {s.expected:.4g}" in page_text(at)


def test_the_lesson_parts_are_the_lessons():
    at = open_page(WINNOW, timeout=90, mode="lesson")
    assert not at.exception and at.title[0].value == "Winnow: multiplicative updates"
    at = open_page(EXPERTS, timeout=90, mode="lesson")
    assert not at.exception and at.title[0].value == "Learning from expert advice"
