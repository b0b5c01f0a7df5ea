"""The mistake-bound lesson's viewer specs, tested as data: what a student sees at a round is the run's."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as hst

import olc_core
from olc_core.learners.decision_list import fallen, levels_at
from olc_core.proofs.boolean import literal_truth, rule_name
from olc_core.streams import ConjunctionAdversary, conjunction_adversary, elimination_predictor
from olc_ui.lessons.boolean_concepts.view import (
    assumption_text,
    bits,
    conjunction_spec,
    decision_list_spec,
    learner_game_spec,
    pretty,
    rule_x,
)
from olc_ui.viewer.snapshot import caption_at, figures_at, ledger_at, state_index
from olc_ui.viewer.spec import validate_spec


def _by_name(fig: dict, name: str) -> dict:
    hits = [t for t in fig["data"] if t.get("name") == name]
    assert hits, f"no trace named {name!r} in {[t.get('name') for t in fig['data']]}"
    return hits[0]


def _names(n: int) -> list[str]:
    return [pretty(("¬" if j % 2 else "") + f"x{j // 2 + 1}") for j in range(2 * n)]


def _shown_h(spec: dict, p: int, n: int) -> set[str]:
    main = figures_at(spec, p)[0]
    return set(_by_name(main, "in h")["text"])


def _h_of(trace, t: int, n: int) -> set[str]:
    names = _names(n)
    return {names[j] for j in np.flatnonzero(trace.weights_at(t))}


# ------------------------------------------------------------------------------------------ conjunctions

def test_pretty_and_bits():
    assert pretty("¬x12→0") == "¬x₁₂→0" and pretty("True→1") == "True→1"
    assert bits([1, 0, 0, 1.0]) == "1001"


def test_the_notes_example_first_mistake_on_1001():
    """[004] §2.1: the first mistake on 1001 leaves h = x1 ¬x2 ¬x3 x4."""
    X = np.array([[1, 0, 0, 1], [1, 1, 0, 1], [0, 1, 0, 1]])
    y = np.array([1, 1, 0])
    tr = olc_core.run("conjunction", X, y)
    spec = conjunction_spec(tr, X, y, run_id="notes")
    validate_spec(spec)
    assert _shown_h(spec, 0, 4) == set(_names(4))                     # all 2n literals before round 1
    assert _shown_h(spec, 1, 4) == {"x₁", "¬x₂", "¬x₃", "x₄"}
    main = figures_at(spec, 1)[0]
    crossed = _by_name(main, "crossed out of h")
    assert sorted(crossed["text"]) == sorted(f"<s>{s}</s>" for s in ("¬x₁", "x₂", "x₃", "¬x₄"))
    now = _by_name(main, "crossed out at this round (0 on xₜ)")
    assert sorted(now["x"]) == [1, 2, 4, 7]                             # ¬x1, x2, x3, ¬x4
    # round 2 (1101): x2 was crossed, ¬x2 is 0 on it now: it goes
    assert _shown_h(spec, 2, 4) == {"x₁", "¬x₃", "x₄"}
    assert "FALSE NEGATIVE" in caption_at(spec, 2) and "xₜ = 1101" in caption_at(spec, 2)
    assert "correct" in caption_at(spec, 3) and "h(xₜ) = 0" in caption_at(spec, 3)
    # the target the proof uses: the most specific consistent conjunction, x1 ∧ ¬x3 ∧ x4
    assert set(_by_name(main, "in the target c")["text"]) == {"x₁", "¬x₃", "x₄"}


@pytest.fixture(scope="module")
def conj():
    s = olc_core.streams.conjunction(T=60, n=6, k=2, seed=4)
    tr = olc_core.run("conjunction", s.X, s.y, comparator=s.comparator)
    return s, tr, conjunction_spec(tr, s.X, s.y, run_id="c")


def test_conjunction_spec_follows_the_run(conj):
    _, tr, spec = conj
    validate_spec(spec)
    assert spec["T"] == 60 and spec["mistake_rounds"] == tr.mistakes.tolist()
    assert spec["breaks"] == (tr.mistakes + 1).tolist()
    assert [f["id"] for f in spec["figures"]] == ["main", "sandwich"]
    assert tr.n_mistakes >= 2


def test_literal_table_at_every_round_is_the_hypothesis_and_the_example(conj):
    s, tr, spec = conj
    n = 6
    for p in range(0, tr.T + 1, 3):
        assert _shown_h(spec, p, n) == _h_of(tr, p, n)              # h after round p
        if p == 0:
            continue
        main = figures_at(spec, p)[0]
        x = s.X[p - 1]
        truth = literal_truth(x)[:-1]
        for j, name in enumerate(_names(n)):
            cell = _by_name(main, f"{name} on xₜ")
            assert cell["text"] == ["1" if truth[j] else "0"]
            assert cell["x"] == [j]


def test_crossed_out_now_are_the_literals_of_h_that_are_0_on_x(conj):
    s, tr, spec = conj
    for m in tr.mistakes:
        p = int(m) + 1
        main = figures_at(spec, p)[0]
        before, after = tr.weights_at(p - 1), tr.weights_at(p)
        now = set(_by_name(main, "crossed out at this round (0 on xₜ)")["x"])
        assert now == set(np.flatnonzero((before == 1) & (after == 0)).tolist())
        false_in_x = ~literal_truth(s.X[m])[:-1]
        assert now == set(np.flatnonzero((before == 1) & false_in_x).tolist())   # elimination, by hand
    correct = next(t for t in range(tr.T) if t not in set(tr.mistakes.tolist()))
    assert _by_name(figures_at(spec, correct + 1)[0], "crossed out at this round (0 on xₜ)")["x"] == []


def test_ledger_and_sandwich_are_the_proofs_numbers(conj):
    _, tr, spec = conj
    proof = tr.proof
    checks = proof.check_matrix()
    for p in (0, int(tr.mistakes[0]) + 1, int(tr.mistakes[-1]) + 1, tr.T):
        k = state_index(spec, p)
        assert k == tr.mistakes_before(p)
        rows = ledger_at(spec, p)
        hs, hu = int(proof.series["h_size"][k]), int(proof.series["h_upper"][k])
        assert f"|h_t| = {hs}" in rows[2]["latex"] and f"= {hu}" in rows[2]["latex"]
        assert rows[2]["holds"] is (not checks["h_size ≤ h_upper"][k])
        assert rows[-1]["latex"].endswith(f"n + 1 = {6 + 1}") and f"M = {k}" in rows[-1]["latex"]
        assert all(r["holds"] is True for r in rows)
        sw = figures_at(spec, p)[1]
        markers = sorted(t["y"][0] for t in sw["data"] if t.get("mode", "").startswith("markers") and t["x"]
                         and t.get("meta") != "crossing")
        want = sorted(float(proof.series[key][k]) for key in ("c_size", "h_size", "h_upper"))
        assert markers == pytest.approx(want)


def test_no_consistent_conjunction_is_an_outcome_not_a_bound():
    s = olc_core.streams.conjunction(T=40, n=5, k=2, seed=0, noise=0.2)
    tr = olc_core.run("conjunction", s.X, s.y, comparator=s.comparator)
    spec = conjunction_spec(tr, s.X, s.y, run_id="noisy", flipped=s.info["flipped"])
    validate_spec(spec)
    fp = np.asarray(tr.info["no_consistent_conjunction_rounds"])
    assert fp.size and spec["extra_stops"]["false positive"] == fp.tolist()
    p = int(fp[0]) + 1
    assert "FALSE POSITIVE" in caption_at(spec, p) and "noisy label" in caption_at(spec, p)
    rows = ledger_at(spec, p)
    fp_line = next(r for r in rows if r["latex"].startswith("M = ") and "M^+" in r["latex"])
    # M ≤ M⁺ needs labels from a conjunction: after a false positive it is not applicable, not ✗
    assert fp_line["holds"] is None and fp_line.get("na")
    assert fp_line["reason"].startswith(f"n/a — needs labels from the target conjunction (fails at rounds {int(fp[0]) + 1}")
    assert "not claimed" in rows[-1]["latex"] and rows[-1]["holds"] is None
    assert tr.proof.mistake_bound is None
    # rounds as a student counts them (1-based)
    text = assumption_text(tr.proof.failed_assumptions[-1], tr.proof)
    assert str(int(fp[0]) + 1) in text and "no conjunction is consistent" in text


@settings(max_examples=25, deadline=None)
@given(n=hst.integers(1, 5), T=hst.integers(1, 30), seed=hst.integers(0, 10_000), noise=hst.sampled_from([0, 0.2]))
def test_conjunction_spec_property(n, T, seed, noise):
    s = olc_core.streams.conjunction(T=T, n=n, k=min(2, n), seed=seed, noise=noise)
    tr = olc_core.run("conjunction", s.X, s.y, comparator=s.comparator)
    spec = conjunction_spec(tr, s.X, s.y, run_id="h")
    validate_spec(spec)
    checks = tr.proof.check_matrix()
    for p in range(T + 1):
        assert _shown_h(spec, p, n) == _h_of(tr, p, n)
        k = state_index(spec, p)
        row = ledger_at(spec, p)[1]                   # |c| ≤ |h| needs the labels to be the target's
        if tr.proof.applies:
            assert row["holds"] is (not checks["c_size ≤ h_size"][k]) and not row.get("na")
        else:
            assert row["holds"] is None and row.get("na")
        assert ledger_at(spec, p)[2]["holds"] is (not checks["h_size ≤ h_upper"][k])  # any data: always live


# ------------------------------------------------------------------------------------------ decision lists

def _rules_at(spec: dict, p: int) -> dict[float, int]:
    """x position of each rule → its level, as drawn."""
    main = figures_at(spec, p)[0]
    tr = _by_name(main, "rule: its output (1 / 0) written on it")
    return dict(zip(tr["x"], tr["y"]))


def test_the_notes_decision_list_example():
    """[004] §2.2 with n = 2: 01 (negative) then 00 (positive); the levels as in the notes."""
    X = np.array([[0, 1], [0, 0]])
    y = np.array([0, 1])
    tr = olc_core.run("decision_list", X, y, comparator=[("x1", 0), ("¬x2", 1), (True, 0)])
    spec = decision_list_spec(tr, X, y, run_id="notes")
    validate_spec(spec)
    n = 2
    for p in range(3):
        drawn = _rules_at(spec, p)
        for level, rules in enumerate(levels_at(tr, p), start=1):
            for r in rules:
                assert drawn[rule_x(int(r))] == level
    drawn = _rules_at(spec, 1)
    level2 = sorted(rule_name(r, n) for r in range(4 * n + 2) if drawn[rule_x(r)] == 2)
    assert level2 == sorted(["¬x1→1", "x2→1", "True→1"])           # the notes' second set after 01
    assert "ŷ = 1" in caption_at(spec, 1) and "3 rules of level 1" in caption_at(spec, 1)
    main = figures_at(spec, 1)[0]
    fell = _by_name(main, "fell one level at this mistake")
    assert sorted(fell["x"]) == sorted(rule_x(r) for r in fallen(tr, 0)[2]) and set(fell["y"]) == {2}
    ghost = _by_name(main, "where the fallen rules were")
    assert set(ghost["y"]) == {1}


@pytest.fixture(scope="module")
def dl():
    s = olc_core.streams.decision_list(T=80, n=4, L=3, seed=2)
    tr = olc_core.run("decision_list", s.X, s.y, comparator=s.comparator)
    return s, tr, decision_list_spec(tr, s.X, s.y, run_id="d")


def test_levels_and_the_rule_read_follow_the_run(dl):
    s, tr, spec = dl
    validate_spec(spec)
    assert spec["mistake_rounds"] == tr.mistakes.tolist()
    lvl, rule = np.asarray(tr.columns["level"]), np.asarray(tr.columns["rule"])
    for p in range(1, tr.T + 1, 4):
        drawn = _rules_at(spec, p)
        w = tr.weights_at(p)
        assert all(drawn[rule_x(r)] == int(w[r]) for r in range(len(w)))
        main = figures_at(spec, p)[0]
        read = _by_name(main, "the rule read (the prediction)")
        assert read["x"] == [pytest.approx(rule_x(int(rule[p - 1])))] and read["y"] == [int(lvl[p - 1])]
        fires = _by_name(main, "condition true on xₜ (fires)")
        assert fires["x"] == [0 if s.X[p - 1, 0] else 1]                # the true literal of x1 fires
    assert tr.n_mistakes >= 2


def test_target_rules_ringed_with_their_floor_and_ledger(dl):
    s, tr, spec = dl
    target = s.comparator
    main = figures_at(spec, tr.T)[0]
    floor = _by_name(main, "target rule i (framed): floor at level i")
    assert floor["y"] == pytest.approx([i + 1.42 for i in range(target.L)])
    ring = _by_name(main, "a rule of the target list")
    w = tr.weights_at(tr.T)
    assert ring["y"] == [int(w[r]) for r in target.rule_indices]
    assert all(lv <= i + 1 for i, lv in enumerate(ring["y"]))       # target rule i on level ≤ i
    proof = tr.proof
    for p in (0, int(tr.mistakes[1]) + 1, tr.T):
        k = state_index(spec, p)
        rows = ledger_at(spec, p)
        assert f"M = {k}" in rows[0]["latex"] and f"= {int(proof.series['Phi'][k])}" in rows[0]["latex"]
        assert rows[-1]["latex"].endswith(f"= {int(proof.mistake_bound)}")
        assert all(r["holds"] is True for r in rows)


def test_noisy_decision_list_claims_no_bound():
    s = olc_core.streams.decision_list(T=60, n=3, L=3, seed=0, noise=0.2)
    tr = olc_core.run("decision_list", s.X, s.y, comparator=s.comparator)
    spec = decision_list_spec(tr, s.X, s.y, run_id="dn", flipped=s.info["flipped"])
    validate_spec(spec)
    rows = ledger_at(spec, tr.T)
    assert "not claimed" in rows[-1]["latex"] and "differently from y" in rows[-1]["reason"]
    flipped = np.flatnonzero(s.info["flipped"])
    assert "noisy label" in caption_at(spec, int(flipped[0]) + 1)
    # the steps that need the target list are n/a, never ✗; the algorithmic M ≤ Φ stays live
    bad = {a.name: a.rounds for a in tr.proof.failed_assumptions}["target"]
    na = [r for r in rows[:-1] if r.get("na")]
    assert [r["latex"].split(" ")[0] for r in na] == [r"\Phi_t", r"\max_i\,(\mathrm{level}(c_i)", r"\max_r"]
    for r in na:
        assert r["holds"] is None and r["reason"].startswith(
            f"n/a — needs labels from the target decision list (fails at rounds {int(bad[0]) + 1}")
    assert rows[0]["latex"].startswith("M = ") and rows[0]["holds"] is True
    assert not any(r["holds"] is False for r in rows)


# ------------------------------------------------------------------------------------------ be the learner

def _game(n: int, preds: str):
    adv = ConjunctionAdversary(n)
    cs = [adv.target()]
    for p in preds:
        adv.play(int(p))
        cs.append(adv.target())
    st = adv.stream()
    agree = [int(np.sum(c(st.X[:k]) == st.y[:k])) for k, c in enumerate(cs)]
    return adv, st, [str(c) for c in cs], agree


def test_learner_game_spec_every_round_a_mistake_and_the_target_agrees():
    n = 4
    _, s, targets, agree = _game(n, "1001")
    spec = learner_game_spec(n, s.X, [1, 0, 0, 1], s.y.astype(int), targets, agree, run_id="g",
                             elimination_mistakes=4)
    validate_spec(spec)
    assert spec["T"] == 4 and spec["position"] == 4 and spec["mistake_rounds"] == [0, 1, 2, 3]
    rows = ledger_at(spec, 4)
    assert rows[0]["latex"].startswith("M = 4") and rows[0]["holds"] is True
    assert "x1 ∧ x4" in rows[1]["latex"] and r"\text{ on } 4 \text{ of the } t = 4" in rows[1]["latex"]
    assert rows[1]["holds"] is True
    assert rows[2]["holds"] is True and rows[3]["holds"] is True
    assert ledger_at(spec, 2)[2]["holds"] is None                       # not over yet
    cells = figures_at(spec, 2)[0]["data"][0]
    # two rows revealed (n bits + ŷ + y each) and the third example waiting with "?"
    assert len(cells["text"]) == 3 * (n + 2) and cells["text"][-2:] == ["?", "?"]
    assert cells["text"][:n] == ["0", "1", "1", "1"]                   # example 1: every bit but bit 1


def test_learner_game_matches_the_cores_adversary():
    n = 5
    s = conjunction_adversary(n, elimination_predictor)
    preds = "".join(str(int(p)) for p in s.info["predictions"])
    adv, st, targets, agree = _game(n, preds)
    assert np.array_equal(st.y, s.y) and adv.mistakes == n
    spec = learner_game_spec(n, st.X, list(map(int, preds)), st.y.astype(int), targets, agree, run_id="e")
    assert "M = 5" in caption_at(spec, 5) and "c = True" in caption_at(spec, 5)


def test_learner_game_at_the_start():
    adv = ConjunctionAdversary(3)
    spec = learner_game_spec(3, np.zeros((0, 3)), [], [], [str(adv.target())], [0], run_id="s",
                             next_example=adv.next_example())
    validate_spec(spec)
    assert spec["T"] == 0
    cells = figures_at(spec, 0)[0]["data"][0]
    assert cells["text"] == ["0", "1", "1", "?", "?"]


def test_learner_game_claims_nothing_before_it_happened():
    """Before any move no line is ticked and the elimination learner's count (another game's) is not shown;
    once the student's n rounds are played it is, at the last round only (scrolling back hides it again)."""
    n = 5
    me = int(olc_core.run("conjunction", *(lambda s: (s.X, s.y))(conjunction_adversary(n, elimination_predictor))
                          ).n_mistakes)
    adv = ConjunctionAdversary(n)
    start = learner_game_spec(n, np.zeros((0, n)), [], [], [str(adv.target())], [0], run_id="s0",
                              next_example=adv.next_example(), elimination_mistakes=me)
    validate_spec(start)
    rows = ledger_at(start, 0)
    assert [r["holds"] for r in rows] == [None, None, None, None]
    assert f"M = {me}" not in rows[3]["latex"] and "M = —" in rows[3]["latex"]
    _, s, targets, agree = _game(n, "10110")
    done = learner_game_spec(n, s.X, [1, 0, 1, 1, 0], s.y.astype(int), targets, agree, run_id="s5",
                             elimination_mistakes=me)
    validate_spec(done)
    for p in range(n):
        rows = ledger_at(done, p)
        assert rows[2]["holds"] is None and rows[3]["holds"] is None and "M = —" in rows[3]["latex"], p
        assert [r["holds"] for r in rows[:2]] == ([None, None] if p == 0 else [True, True]), p
    rows = ledger_at(done, n)
    assert all(r["holds"] is True for r in rows) and f"M = {me}" in rows[3]["latex"]
    mid = learner_game_spec(n, s.X[:2], [1, 0], s.y[:2].astype(int), targets[:3], agree[:3], run_id="s2",
                            next_example=s.X[2], elimination_mistakes=me)
    assert ledger_at(mid, 2)[3]["holds"] is None and "M = —" in ledger_at(mid, 2)[3]["latex"]


# ------------------------------------------------------------------------------------------ downloads

def test_downloads_share_the_perceptron_components(conj, dl):
    from olc_ui.shared.common import figure_html
    from olc_ui.shared.data import trace_csv

    s, tr, spec = conj
    p = int(tr.mistakes[1]) + 1
    html = figure_html(spec, p)
    assert f"round {p} of {tr.T}" in html and "Proof ledger at this round" in html and "✓" in html
    assert "FALSE NEGATIVE" in html
    rows = trace_csv(tr, s.X, s.y).strip().splitlines()
    assert len(rows) == tr.T + 1 and rows[0].startswith("round,x1,")
    assert "false_literals" in rows[0] and "w12_after" in rows[0]            # the 2n literals of h after the round
    last = rows[-1].split(",")
    assert [float(v) for v in last[-12:]] == tr.weights_at(tr.T).tolist()
    s2, tr2, _ = dl
    rows = trace_csv(tr2, s2.X, s2.y).strip().splitlines()
    assert "level" in rows[0].split(",") and "rule" in rows[0].split(",") and len(rows) == tr2.T + 1


def test_learner_game_csv():
    from olc_ui.lessons.boolean_concepts.lesson import game_csv, replay

    g = replay(3, "10")
    rows = game_csv(g).strip().splitlines()
    assert rows[0] == "round,x1,x2,x3,your_prediction,label,mistake,mistakes_so_far,target_so_far"
    assert rows[1] == "1,0,1,1,1,0,1,1,x1" and rows[2] == "2,1,0,1,0,1,1,2,x1"
    assert g["agree"] == [0, 1, 2] and g["next"].tolist() == [1, 1, 0]


def test_decision_list_note_gives_the_chain_to_the_bound(dl):
    s, tr, spec = dl
    c = tr.proof.constants
    [sand] = [f for f in spec["figures"] if f["id"] == "sandwich"]
    texts = [a["text"].replace("<br>", " ") for a in sand["figure"]["layout"]["annotations"]]
    cap_sum, tight, b = c["cap_sum"], c["bound_tight"], tr.proof.mistake_bound
    assert cap_sum == int(tr.proof.series["cap_sum"][-1]) and cap_sum <= tight == (4 * c["n"] + 2) * c["L"] <= b
    assert b > max(float(tr.n_mistakes), 1.0) * 1.001
    assert texts[-1] == f"M ≤ Σ(capᵣ − 1) = {cap_sum} ≤ (4n+2)L = {tight} ≤ (4n+2)(L+1) = {b:.0f} (dotted)."
    # the diagonal M meets the flat Σ(capᵣ − 1) there: the crossing is a point of the chart, the bound a line
    [pt] = [t for t in sand["figure"]["data"] if t.get("meta") == "crossing"]
    assert pt["x"] == [cap_sum] and pt["y"] == [cap_sum]
    assert next(t for t in sand["figure"]["data"] if t.get("name") == "(4n+2)(L+1)")["x"] == [b, b]


def test_labels_no_conjunction_gives_do_not_show_c_as_a_target():
    """Without a given target, c is the most specific conjunction on the positives; when a negative satisfies it,
    the table calls it that, not 'target c' (an example labelled 0 shown under a target it satisfies)."""
    X = np.array([[0, 0, 0], [0, 0, 0]], float)
    for y, fits in ((np.array([1, 1.]), True), (np.array([1, 0.]), False)):
        trace = olc_core.run("conjunction", X, y)
        spec = conjunction_spec(trace, X, y, run_id="c")
        main = spec["figures"][0]["figure"]
        rows = main["layout"]["yaxis"]["ticktext"]
        names = [d["name"] for d in main["data"]]
        assert (rows[2] == "target c") is fits and ("in the target c" in names) is fits
        if not fits:
            assert rows[2] == "c (positives only)" and "in c: true on every positive (no target fits)" in names
    # a given target keeps its name even where noise makes the labels disagree with it
    s = olc_core.streams.conjunction(T=40, n=4, k=2, seed=1, noise=0.3)
    trace = olc_core.run("conjunction", s.X, s.y, comparator=s.comparator)
    assert not trace.proof.applies
    main = conjunction_spec(trace, s.X, s.y, run_id="n")["figures"][0]["figure"]
    assert main["layout"]["yaxis"]["ticktext"][2] == "target c"
