"""AppTest over the mistake-bound lesson: numbers from the core, deep links, widgets and game moves in the URL."""
from __future__ import annotations


from streamlit.testing.v1 import AppTest

import olc_core
from olc_core.streams import conjunction_adversary, constant_predictor, elimination_predictor
from olc_ui.viewer.snapshot import caption_at, ledger_at
from tests.app.pagetest import metric, open_page, page_text, shown, url, viewer_data, viewer_spec, viewers
from tests.conftest import ROOT

PAGE = str(ROOT / "pages" / "boolean_concepts.py")


def _open(**query):
    return open_page(PAGE, timeout=90, **query)


_spec = viewer_spec
_metric = metric


def _text(at) -> str:
    return page_text(at, warnings=True)


def _click(at: AppTest, key: str) -> AppTest:
    return at.button(key=key).click().run()


# ------------------------------------------------------------------------------------------ the learners

def test_default_conjunction_run_comes_from_the_core():
    at = _open()
    assert not at.exception
    assert at.title[0].value == "The mistake-bound model: conjunctions and decision lists"
    s = olc_core.streams.conjunction(T=40, n=5, k=2, seed=0, negated=True, positive_rate=0.5)
    tr = olc_core.run("conjunction", s.X, s.y, comparator=s.comparator)
    assert _metric(at, "Mistakes M (whole run)") == str(tr.n_mistakes)
    assert _metric(at, "False negatives M⁺") == str(tr.n_mistakes) and _metric(at, "False positives M⁻") == "0"
    assert _metric(at, "Bound n + 1") == "6"
    assert "the learner never makes a false positive" in _text(at)
    spec = _spec(at)
    assert spec["T"] == 40 and spec["mistake_rounds"] == tr.mistakes.tolist()
    target = {t["name"]: t for t in spec["figures"][0]["figure"]["data"]}["in the target c"]
    assert len(target["x"]) == s.comparator.size == 2
    q = url(at)
    assert q["mode"] == "conj" and q["n"] == "5" and q["k"] == "2" and q["seed"] == "0" and q["t"] == "0"
    assert {d.label for d in at.get("download_button")} == {
        "Download the trace (CSV)", "Download the proof (Markdown + KaTeX)", "Download the proof (LaTeX)",
        "Download this run as a notebook (.ipynb)", "Download this run as one offline file (HTML)",
    }
    assert viewer_data(at)["download"] == "boolean_conj"   # the figure: from the viewer, of the round on screen


def test_deep_link_opens_the_decision_list_run_at_the_round():
    at = _open(mode="dl", dn=4, L=3, dT=100, dseed=5, tie="majority", t=17)
    assert not at.exception
    s = olc_core.streams.decision_list(T=100, n=4, L=3, seed=5)
    tr = olc_core.run("decision_list", s.X, s.y, comparator=s.comparator, tie="majority")
    spec = _spec(at)
    assert spec["position"] == 17 and spec["T"] == 100 and spec["mistake_rounds"] == tr.mistakes.tolist()
    assert _metric(at, "Mistakes M (whole run)") == str(tr.n_mistakes)
    assert _metric(at, "Bound (4n+2)(L+1)") == str(18 * 4)
    assert f"M = {tr.mistakes_before(17)}" in ledger_at(spec, 17)[0]["latex"]
    q = url(at)
    assert q["t"] == "17" and q["tie"] == "majority" and q["dn"] == "4" and "n" not in q   # only this part's settings
    at.slider(key="boolean_dl__dT").set_value(120).run()                    # a new run opens where the student was
    assert _spec(at)["T"] == 120 and _spec(at)["position"] == 17
    at.radio(key="boolean_mode__mode").set_value("conj").run()              # another part starts at round 0
    assert _spec(at)["position"] == 0 and url(at)["t"] == "0"


def test_widget_changes_are_mirrored_in_the_url():
    at = _open()
    at.slider(key="boolean_conj__n").set_value(7).run()
    at.slider(key="boolean_conj__T").set_value(120).run()
    assert url(at)["n"] == "7" and url(at)["T"] == "120"
    assert _spec(at)["T"] == 120
    assert len(_spec(at)["figures"][0]["figure"]["layout"]["xaxis"]["tickvals"]) == 14     # 2n literal columns
    at.radio(key="boolean_mode__mode").set_value("dl").run()
    assert url(at)["mode"] == "dl" and url(at)["dn"] == "3"
    assert "Potential Φ" in [m.label for m in at.metric]
    at.radio(key="boolean_mode__mode").set_value("conj").run()              # the conjunction settings survive
    assert url(at)["n"] == "7" and url(at)["T"] == "120"


def test_adversary_data_force_n_mistakes_on_our_learner():
    at = _open(cdata="adversary", n=6)
    assert not at.exception
    assert _metric(at, "Mistakes M (whole run)") == "6" and _spec(at)["T"] == 6
    assert "FALSE NEGATIVE" in caption_at(_spec(at), 1)


def test_bad_values_in_a_link_are_reported_and_replaced():
    at = _open(n="abc", T=99999, mode="conj", neg="maybe")
    assert not at.exception
    warnings = shown(at, "warning")
    assert "n must be a whole number" in warnings and "T must be between 1 and 1000" in warnings
    assert "neg must be 0 or 1" in warnings
    assert _spec(at)["T"] == 40 and url(at)["n"] == "5"
    at = _open(mode="sideways")
    assert "mode must be one of" in shown(at, "warning") and url(at)["mode"] == "conj"


def test_settings_that_do_not_go_together_give_a_message():
    at = _open(n=2, k=5)
    assert not at.exception and not viewers(at)
    assert "k ≤ n = 2" in shown(at, "error")
    at = _open(mode="dl", dn=2, L=6)
    assert not at.exception
    assert "at most L = n + 1 = 3" in shown(at, "error")
    assert url(at)["L"] == "6"                                         # the link still says what was asked


def test_extremes_n_1_and_t_1():
    for q in ({"n": 1, "k": 1, "T": 1}, {"n": 1, "k": 0, "T": 1}, {"mode": "dl", "dn": 1, "L": 1, "dT": 1},
              {"mode": "dl", "dn": 1, "L": 2, "dT": 1}, {"mode": "adversary", "an": 1}, {"mode": "learner", "ln": 1}):
        at = _open(**q)
        assert not at.exception and not at.error, q
        if q.get("mode") in (None, "dl"):
            assert _spec(at)["T"] == 1


def test_noise_makes_no_consistent_conjunction_an_outcome():
    at = _open(noise=0.2)
    assert not at.exception
    s = olc_core.streams.conjunction(T=40, n=5, k=2, seed=0, noise=0.2)
    tr = olc_core.run("conjunction", s.X, s.y, comparator=s.comparator)
    fp = tr.info["no_consistent_conjunction_rounds"]
    assert _metric(at, "Bound n + 1") == "not claimed" and _metric(at, "False positives M⁻") == str(len(fp))
    err = shown(at, "error")
    assert "is not claimed" in err and f"{fp[0] + 1}" in err
    lead = f"False positives on rounds {fp[0] + 1}, " if len(fp) > 1 else f"False positive on round {fp[0] + 1}:"
    assert lead in shown(at, "warning")
    spec = _spec(at)
    assert spec["extra_stops"]["false positive"] == fp.tolist()
    at = _open(mode="dl", dnoise=0.2)
    assert _metric(at, "Bound (4n+2)(L+1)") == "not claimed" and "is not claimed" in shown(at, "error")


# ------------------------------------------------------------------------------------------ play the adversary

def test_the_004_sequence_in_one_click_forces_n_mistakes():
    at = _open(mode="adversary", an=4)
    # before the first move: the score at zero and the board already on the page (its caption says what to do)
    assert not at.exception and _metric(at, "Your moves") == "0" and _metric(at, "Mistakes forced M") == "0"
    at = _click(at, "boolean_adv_seq")
    s = conjunction_adversary(4, elimination_predictor)
    assert url(at)["moves"] == ",".join(
        "".join(str(int(b)) for b in x) + f":{int(v)}" for x, v in zip(s.X, s.y))
    assert url(at)["moves"] == "0111:1,1011:1,1101:1,1110:1"
    assert _metric(at, "Mistakes forced M") == "4" and _metric(at, "Bound n + 1") == "5"
    assert "You forced **n = 4** mistakes" in _text(at)
    spec = _spec(at)
    assert spec["T"] == 4 and spec["position"] == 4 and spec["mistake_rounds"] == [0, 1, 2, 3]
    assert ledger_at(spec, 4)[-1]["latex"] == "M = 4 \\;\\le\\; n + 1 = 5"
    at = _click(at, "boolean_adv_undo")
    assert _metric(at, "Mistakes forced M") == "3" and url(at)["moves"].count(",") == 2


def _bits(at: AppTest, bits: str) -> AppTest:
    for i, b in enumerate(bits):
        at.checkbox(key=f"boolean_adv_bit{i}").set_value(b == "1")
    return at.run()


def _hint(at: AppTest, on: bool) -> AppTest:
    return at.toggle(key="boolean_adv_hint").set_value(on).run()


def test_picking_bits_and_a_label_and_forcing_n_plus_1():
    at = _open(mode="adversary", an=3)
    at = _click(at, "boolean_adv_lab1")                                      # 000 labelled 1: a false negative
    assert url(at)["moves"] == "000:1" and _metric(at, "Mistakes forced M") == "1"
    at = _hint(at, True)
    for bits in ("100", "110", "111"):
        at = _bits(at, bits)
        assert f"On $x = {bits}$ the learner predicts $\\hat y = 0$" in _text(at)
        at = _click(at, "boolean_adv_lab1")
    assert url(at)["moves"] == "000:1,100:1,110:1,111:1"
    assert _metric(at, "Mistakes forced M") == "4" and "the bound is tight" in _text(at)
    # h is now empty: it says 1 on everything, and a 0 label forces a mistake only by leaving the conjunctions
    assert "$\\hat y = 1$" in _text(at) and "True (no literal left)" in _text(at)
    at = _click(at, "boolean_adv_lab0")
    assert _metric(at, "Mistakes forced M") == "5" and _metric(at, "Bound n + 1") == "not claimed"
    assert "No conjunction labels your examples this way" in shown(at, "warning")
    # a link with these moves replays the same game
    again = _open(mode="adversary", an=3, moves="000:1,100:1,110:1,111:1")
    assert _metric(again, "Mistakes forced M") == "4" and _spec(again)["T"] == 4


def test_the_move_panel_does_not_give_the_answer_away():
    """The label buttons read the same whatever the learner would predict; h is shown, h(x) only on a hint."""
    seen = {}
    for moves, x, yhat in (("", "000", 0), ("000:1", "000", 1), ("000:1", "100", 0)):
        at = _bits(_open(mode="adversary", an=3, moves=moves), x)
        assert not at.exception
        assert int(elimination_predictor([int(b) for b in x], *_moves(moves, 3))) == yhat
        buttons = {b.key: (b.label, b.proto.type) for b in at.button if b.key in ("boolean_adv_lab1", "boolean_adv_lab0")}
        seen[yhat] = seen.get(yhat, buttons)
        assert buttons == seen[yhat] and buttons["boolean_adv_lab1"][0] == "Label 1"
        assert "the learner predicts" not in _text(at) and "The learner's hypothesis" in _text(at)
        at = _hint(at, True)
        assert f"On $x = {x}$ the learner predicts $\\hat y = {yhat}$" in _text(at)
    assert seen[0] == seen[1]


def _moves(text: str, n: int):
    from olc_ui.lessons.boolean_concepts.adversary import parse_moves
    return parse_moves(text, n)


def test_after_a_move_the_panel_says_what_the_learner_the_label_and_c_each_said():
    at = _open(mode="adversary", an=4, moves="1111:1,1011:0")
    t = _text(at)
    assert "**Round 2**: $x = 1011$, your label $y = 0$" in t
    assert "$\\hat y = h(x) = 0$ — **correct**" in t
    assert "$c$ = x₁ ∧ x₂ ∧ x₃ ∧ x₄, says $c(x) = 0$: it labels every move so far as you did" in t
    # labelled 0 where h (and so c) says 1: the panel says no conjunction labels the moves, not that x satisfies it
    at = _open(mode="adversary", an=3, moves="000:1,000:0")
    t = _text(at)
    assert "$\\hat y = h(x) = 1$ — **a mistake** (a false positive" in t
    assert "says $c(x) = 1$, not your label 0: **no conjunction labels your moves**" in t
    assert _metric(at, "Bound n + 1") == "not claimed"
    # a consistent 0 label on a later example, after an inconsistent one: it names the earlier example
    at = _open(mode="adversary", an=3, moves="000:1,000:0,111:0")
    assert "says $c(x) = 0$ on this example, but it says 1 on an example you labelled 0" in _text(at)


def test_fill_in_the_next_example_of_the_sequence():
    at = _open(mode="adversary", an=4, moves="0111:1")
    at = _click(at, "boolean_adv_fill")
    assert [at.checkbox(key=f"boolean_adv_bit{i}").value for i in range(4)] == [True, False, True, True]
    assert "Example $x = 1011$" in _text(at)


def test_labels_no_conjunction_can_give_are_reported():
    at = _open(mode="adversary", an=3, moves="000:1,100:0,100:1")
    assert not at.exception
    warn = shown(at, "warning")
    assert "No conjunction labels your examples this way" in warn and "round 2 is labelled 0" in warn
    assert _metric(at, "Bound n + 1") == "not claimed"
    assert "not claimed" in ledger_at(_spec(at), 3)[-1]["latex"]


def test_bad_or_stale_moves_start_a_new_game():
    at = _open(mode="adversary", an=3, moves="0a0:1")
    assert not at.exception and "could not be read" in shown(at, "warning")
    assert url(at)["moves"] == ""
    at = _open(mode="adversary", an=3, moves="000:1")
    at.slider(key="boolean_adversary__an").set_value(5).run()
    assert "a new game starts" in _text(at) and url(at)["moves"] == ""


# ------------------------------------------------------------------------------------------ be the learner

def test_be_the_learner_any_predictions_make_n_mistakes():
    at = _open(mode="learner", ln=4)
    assert not at.exception
    assert "Example 1 of 4" in _text(at) and _metric(at, "Your mistakes M") == "0"
    for k in ("boolean_lrn_p1", "boolean_lrn_p0", "boolean_lrn_p0", "boolean_lrn_p1"):
        at = _click(at, k)
    assert url(at)["preds"] == "1001"
    assert _metric(at, "Your mistakes M") == "4" and _metric(at, "Rounds played") == "4 of 4"
    assert _metric(at, "Target so far") == "x₁ ∧ x₄"
    ok = shown(at, "success")
    assert "forced **4 mistakes in 4 rounds**" in ok and "x₁ ∧ x₄" in ok
    others = {"the elimination learner": conjunction_adversary(4, elimination_predictor).info["forced_mistakes"],
              "always predict 0": conjunction_adversary(4, constant_predictor(0)).info["forced_mistakes"]}
    for name, m in others.items():
        assert f"{name}: **{m} mistakes**" in _text(at)
    spec = _spec(at)
    assert spec["T"] == 4 and all(r["holds"] is True for r in ledger_at(spec, 4))
    assert not [b for b in at.button if b.key == "boolean_lrn_p1"]           # the game is over
    at = _click(at, "boolean_lrn_again")
    assert url(at)["preds"] == "" and _metric(at, "Your mistakes M") == "0"


def test_be_the_learner_ticks_nothing_before_the_first_move():
    """Before any move the ledger claims nothing: no ✓, and the elimination learner's count (from its own game
    against the adversary) appears only once the student's n rounds are played."""
    at = _open(mode="learner", ln=5)
    assert not at.exception
    rows = ledger_at(_spec(at), 0)
    assert [r["holds"] for r in rows] == [None] * 4
    me = olc_core.run("conjunction", *(lambda s: (s.X, s.y))(conjunction_adversary(5, elimination_predictor))
                      ).n_mistakes
    assert f"M = {me}" not in rows[3]["latex"]
    at = _open(mode="learner", ln=5, preds="10110")
    spec = _spec(at)
    assert f"M = {me}" in ledger_at(spec, 5)[3]["latex"] and ledger_at(spec, 5)[3]["holds"] is True
    assert ledger_at(spec, 4)[3]["holds"] is None


def test_be_the_learner_link_replays_the_game():
    at = _open(mode="learner", ln=5, preds="011", t=2)
    assert not at.exception
    assert _metric(at, "Your mistakes M") == "3" and _metric(at, "Target so far") == "x₂ ∧ x₃"
    spec = _spec(at)
    assert spec["T"] == 3 and spec["position"] == 2                          # the link's round
    assert "Example 4 of 5" in _text(at) and "$x = 11101$" in _text(at)
    at = _open(mode="learner", ln=3, preds="01012")
    assert "could not be used" in shown(at, "warning") and url(at)["preds"] == ""


def test_be_the_learner_new_n_starts_a_new_game():
    at = _open(mode="learner", ln=4, preds="10")
    at.slider(key="boolean_learner__ln").set_value(6).run()
    assert "a new game starts" in _text(at) and url(at)["preds"] == ""
    assert _metric(at, "Rounds played") == "0 of 6" and "$x = 011111$" in _text(at)


def test_proof_steps_say_what_holds_when():
    """Step 3's count holds once M ≥ 1; with noise, step 4 says the bound is not for these data; the
    decision-list note reads the notes' L as they define it ([004] Def. 2) (review issue 11 §8b, c)."""
    at = _open()
    text = _text(at)
    assert "once $M \\ge 1$" in text and "$|h_t| = 2n$" in text
    assert "not for these data" not in text
    at = _open(noise=0.2)
    assert "4. **Solve:** $M \\le n + 1 - |c|$ — not for these data" in _text(at)
    at = _open(mode="dl")
    text = _text(at)
    assert "The notes count $L$ without the final True rule" not in text
    assert "as in the notes' definition ([004] Def. 2)" in text


def test_grammar_of_one_inconsistent_round():
    """One round labelled 0 that satisfies the most specific conjunction: 'is labelled 0 but satisfies'."""
    tr = olc_core.run("conjunction", [[1, 1], [1, 1]], [1, 0])
    [a] = tr.proof.failed_assumptions
    assert "round 2 is labelled 0 but satisfies" in a.detail, a.detail
    from olc_ui.lessons.boolean_concepts.view import assumption_text
    assert "is labelled 0 but satisfies" in assumption_text(a, tr.proof)


def test_the_target_levels_line_says_never_below_only_on_the_target_lists_labels():
    """"The green bar under target rule i marks level i, below which it never falls" is the proof's step 2: true on
    the target list's labels, false on a noisy run where target rule 1 fell to level 2 at round 1 (a student's
    reading). The line now says which, from the run's own count."""
    at = _open(mode="dl", dn=4, L=5, dT=80, cover="uniform", tie="majority", dnoise=0.3)
    assert not at.exception
    s = olc_core.streams.decision_list(T=80, n=4, L=5, seed=0, coverage="uniform", noise=0.3)
    tr = olc_core.run("decision_list", s.X, s.y, comparator=s.comparator, tie="majority")
    ex = int(tr.proof.series["target_excess"][-1])
    assert not tr.proof.applies and ex > 0
    text = _text(at)
    assert "below which it never falls when the labels are the target list's — these are not, and here a target " \
           f"rule fell {ex} level{'s' if ex != 1 else ''} below its place." in text
    at = _open(mode="dl", dn=4, L=5, dT=80, cover="uniform", tie="majority")
    assert "below which it never falls (its labels are the target list's)." in _text(at)
