"""Issue 32 §4: the lesson prose says what is true, with the numbers from the run — noisy data that stay separable,
what the explorer's streams do, the tie convention with its source wherever a page decides on a score of 0, FTRL's
data-dependent bound as the core computes it (tests/ui/test_ftrl_view.py), the Margin Perceptron's crossing against
its stated 12/γ²."""
from __future__ import annotations

import math

import numpy as np
from streamlit.testing.v1 import AppTest

import olc_core
from olc_core.comparators import max_margin
from olc_core.sweep import cell_inputs
from olc_core.streams.compare import dense_instances, sparse_instances, views
from olc_ui.lessons.bound_explorer import lesson as EXPLORER
from olc_ui.shared import ties
from tests.app.pagetest import open_page, page_path, page_text, prose, shown, viewer_spec
from tests.conftest import ROOT


def test_noisy_data_can_stay_separable_and_the_page_says_so_with_its_numbers():
    """separable(T=20, d=2, γ=0.1, seed=13, noise=0.1): one flipped label takes the planted w*'s margin, yet the
    data keep a margin 0.0723 for another unit w*; the page says both, with the numbers of the run."""
    s = olc_core.streams.separable(T=20, d=2, gamma=0.1, radius=1.0, seed=13, noise=0.1)
    assert int(s.info["flipped"].sum()) == 1 and float(np.min(s.y * (s.X @ s.comparator))) < 0
    mm = max_margin(s.X, s.y)
    assert mm.separable and f"{mm.margin:.4g}" == "0.0723"
    at = open_page(page_path("perceptron"), T=20, d=2, gamma=0.1, seed=13, noise=0.1, cmp="planted")
    assert not at.exception
    intro = prose(at)[0]
    assert "With label noise no such" not in intro and "noisy data can still be separable" in intro
    info = shown(at, "info")
    low = float(np.min(s.y * (s.X @ s.comparator)))
    assert f"yₜ⟨w*, xₜ⟩ ≤ 0 on 1 round (smallest {low:.4g})".replace("-", "−") in info
    assert "1 label of the stream was flipped" in info
    assert (f"finds these data separable all the same: a unit w* with margin {mm.margin:.4g} (no unit vector does "
            f"better than {mm.upper:.4g})") in info
    # with the max-margin comparator the separable theorem applies to the same noisy data
    at = open_page(page_path("perceptron"), T=20, d=2, gamma=0.1, seed=13, noise=0.1, cmp="max-margin")
    assert "the theorem applies" in shown(at, "success")


def test_a_proof_of_inseparability_lists_its_rounds():
    at = open_page(page_path("perceptron"), T=1000, noise=0.1, cmp="planted")
    s = olc_core.streams.separable(T=1000, d=2, gamma=0.1, radius=1.0, seed=0, noise=0.1)
    mm = max_margin(s.X, s.y)
    assert mm.proved_inseparable
    rounds = ", ".join(str(int(r) + 1) for r in mm.support[:8])
    assert f"The max-margin search proves more" in shown(at, "info") and f"(the rounds listed: {rounds}" in shown(at, "info")


def test_the_explorers_noise_help_says_what_the_streams_do():
    text = EXPLORER.more("perceptron")
    assert "stop being separable" not in text and "TD_γ (examples scaled to ‖x‖ = 1)" not in text
    assert "planted w*, the sweep's comparator" in text and "may still be separable" in text
    assert "R = max‖xₜ‖" in text and "the streams are not scaled" in text and "R = 1 up to rounding" in text
    # what the help says of the streams, checked on the sweep's own streams (olc_core.sweep's perceptron cell)
    for seed in range(4):
        for d in (2, 5):
            st, params = cell_inputs("perceptron", seed, {"d": d, "gamma": 0.1, "noise": 0.1, "T": 500})
            norms = np.linalg.norm(st.X, axis=1)
            assert abs(norms.max() - 1.0) < 1e-12 and norms.min() < 0.9            # R = 1, norms vary
            m = st.y * (st.X @ params["comparator"])
            assert np.all(np.abs(st.X @ params["comparator"]) >= 0.1 - 1e-12)      # outside the band
            assert np.all(m[st.info["flipped"]] < 0) and np.all(m[~st.info["flipped"]] > 0)
            tr = olc_core.run("perceptron", st.X, st.y, **params)
            assert tr.proof.mistake_bound is None and "nonseparable" in tr.proofs   # the sweep's TD_γ theorem
            c = tr.proofs["nonseparable"].constants
            assert c["gamma"] == 0.1 and abs(c["radius"] - 1.0) < 1e-12


def test_the_perceptron_page_announces_its_tie_rule_with_its_source_and_this_runs_ties():
    at = open_page(page_path("perceptron"))
    intro = prose(at)[0]
    assert "counts as a mistake whatever the label, as in [003]" in intro and "[004] predicts $+$ iff" in intro
    caps = shown(at, "caption")
    assert ("Ties: " + ties.PERCEPTRON_RULE) in caps
    s = olc_core.streams.separable(T=200, d=2, gamma=0.1, radius=1.0, seed=0)
    tr = olc_core.run("perceptron", s.X, s.y, comparator=s.comparator)
    z = np.flatnonzero(np.asarray(tr.columns["score"]) == 0.0)
    assert z.tolist() == [0] and s.y[0] == 1
    assert "scored exactly ⟨wₜ, xₜ⟩ = 0 on round 1, counted as a mistake; its label was yₜ = +1, so [004]'s rule" in caps


def test_zero_note_says_when_the_004_rule_would_change_the_run():
    assert ties.zero_note([1.0, 2.0], [1, -1]).endswith("never scored exactly 0.")
    one = ties.zero_note([0.0, 2.0, 0.0], [1, 1, 1])
    assert "on 2 rounds (1, 3), each counted as a mistake; each had the label yₜ = +1" in one and "same run" in one
    two = ties.zero_note([0.0, 2.0, 0.0], [1, 1, -1])
    assert "round 3 has yₜ = −1" in two and "would differ from that round on" in two
    # the claim, checked: [004]'s rule (predict + iff w·x > 0) runs the same on data whose ties all have y = +1
    X = np.array([[1.0, 0.0], [0.0, 1.0], [-1.0, 0.5], [0.5, -1.0]])
    for y in (np.array([1, 1, -1, 1]), np.array([-1, 1, 1, -1])):
        tr = olc_core.run("perceptron", X, y)
        w, mistakes = np.zeros(2), []
        for t in range(len(y)):
            yhat = 1 if w @ X[t] > 0 else -1
            if yhat != y[t]:
                mistakes.append(t)
                w = w + y[t] * X[t]
        z = ties.zero_rounds(tr.columns["score"])
        same = mistakes == tr.mistakes.tolist()
        assert same == bool(np.all(y[z] > 0)), (y, mistakes, tr.mistakes)
        assert ("same run" in ties.zero_note(tr.columns["score"], y)) == same


def test_home_says_where_its_tie_rule_comes_from():
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60).run()
    assert not at.exception
    text = " ".join(m.value for m in at.markdown)
    assert "counts as a mistake, as in [003]" in text and "[004] predicts $+$ iff" in text
    X = np.array([[0.8, 0.4], [-0.6, 0.5], [0.3, -0.9], [-0.9, -0.2], [0.9, 0.5], [0.2, -0.3]])
    y = np.array([1, -1, 1, -1, 1, 1])
    tr = olc_core.run("perceptron", X, y, comparator=[0.8, -0.6])
    assert ties.zero_note(tr.columns["score"], y) in " ".join(c.value for c in at.caption)


def test_the_exponentiated_update_names_its_source_and_its_tie_rounds():
    at = open_page(page_path("exponentiated_update"))
    assert "as in [003] §2.1–2.2" in prose(at)[0]
    from olc_ui.lessons.exponentiated_update import lesson as L
    v = {s.key: s.default for s in L.SETTINGS}
    tr = L.run_eg(v, L.load_data(v, None))
    z = np.flatnonzero(np.asarray(tr.columns["score"]) == 0.0)
    assert z.size >= 1
    info = shown(at, "info")
    assert f"(round{'s' if z.size > 1 else ''} {', '.join(str(int(r) + 1) for r in z)}: a tie" in info
    assert "as the proof needs" not in info and "as in [003] §2.1–2.2" in info


def test_the_compare_page_gives_each_learners_tie_rule_and_this_runs_ties():
    for preset, stream in (("sparse", dense_instances(T=300, N=100, k=2, seed=0)),
                           ("dense", sparse_instances(T=300, N=100, k=50, ones=1, seed=0))):
        at = open_page(page_path("compare"), preset=preset, N=100, T=300, k=2)
        caps = shown(at, "caption")
        v = views(stream)["perceptron"]
        tr = olc_core.run("perceptron", v.X, v.y, comparator=v.comparator)
        assert ("Ties: for the Perceptron " + ties.PERCEPTRON_RULE) in caps
        assert ties.zero_note(tr.columns["score"], v.y) in caps
        assert "Winnow predicts 1 only when w·x > N, strictly, as in [000] §4" in caps
    at = open_page(page_path("compare"), preset="experts")
    assert "as [001]'s rule ŷ = 1[W⁺ ≥ W⁻] does" in shown(at, "caption")


def test_experts_and_halving_name_the_source_of_their_tie_rule():
    at = open_page(page_path("experts"))
    assert "as in [001]'s rule" in prose(at)[0]
    assert "as [001]'s Weighted Majority does" in shown(at, "caption")
    at = open_page(page_path("halving"))
    assert "as [001]'s Weighted Majority rule" in page_text(at)


def test_the_margin_perceptrons_crossing_is_related_to_its_stated_bound():
    """γ = 0.2: the sandwich closes at U = 4/γ + 8/γ² = 220, the notes state 12/γ² = 300; the page says why the
    first is never beyond the second (γ ≤ 1), with the run's numbers, on the page and under the chart."""
    from olc_ui.lessons.margin_perceptron import lesson as L
    v = {s.key: s.default for s in L.SETTINGS}
    data = L.load_data(v, None)
    tr = L.run_margin(data, float(v["gamma_alg"]), L.passes_for(v, len(data.y)))
    g = float(v["gamma_alg"])
    tight, bound = tr.proof.constants["bound_tight"], tr.proof.mistake_bound
    assert g == 0.2 and round(tight, 9) == 220 and round(bound, 9) == 300
    assert math.isclose(tight, 4 / g + 8 / g ** 2) and tight <= bound
    at = open_page(page_path("margin_perceptron"))
    text = page_text(at)
    assert f"at $U = 4/\\gamma + 8/\\gamma^2 = {tight:.5g}$" in text and f"rounder $12/\\gamma^2 = {bound:.5g}$" in text
    assert "$4/\\gamma \\le 4/\\gamma^2$ and the crossing is at most $12/\\gamma^2$" in text
    fig = next(f for f in viewer_spec(at)["figures"] if f["id"] == "sandwich_A")["figure"]
    note = " ".join(a["text"].replace("<br>", " ") for a in fig["layout"]["annotations"] if a.get("name") == "note")
    assert "at U = 4/γ + 8/γ² = 220; as γ ≤ 1, that is ≤ 12/γ² = 300 (dotted), the theorem's bound." in note


def test_halvings_caption_at_a_tied_vote_names_the_tie_rule():
    """Default Halving run: round 1's vote is 16 : 16 (no majority); the caption says the tie rule chose +1 and that
    half leaves, and keeps "the majority was wrong" for the mistakes where there was one."""
    from olc_ui.viewer.snapshot import caption_at
    from tests.ui import page_specs as P
    spec, tr = P.spec("halving")
    vote = np.asarray(tr.columns["vote"], dtype=float)
    n = np.asarray(tr.columns["version_space_size"])
    mistakes = tr.mistakes.tolist()
    tied = [t for t in mistakes if vote[t] == 0 and n[t] > 0]
    clear = [t for t in mistakes if vote[t] != 0]
    assert tied and clear
    for t in tied:
        cap = caption_at(spec, t + 1)
        assert "the vote was tied, +1 by the tie rule, and the half that voted +1 leaves" in cap
        assert "majority" not in cap
    for t in clear:
        assert "MISTAKE: the majority was wrong and leaves" in caption_at(spec, t + 1)
    assert "the majority was wrong" not in prose(open_page(page_path("halving")))[0]
