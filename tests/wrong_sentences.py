"""Every wrong sentence a review has found in the app, in one registry (issue 32 §4).

A review that finds a false or misleading sentence a student reads adds it here, with where it was found and what
is true instead. tests/app/test_wrong_sentences.py then holds it out of *all the text the app can show*, wherever
the code that writes it lives: every string in olc_ui/, olc_core/, pages/ and app.py (Python: the string literals,
adjacent and ``+``-joined pieces read as one; docstrings and comments are not shown and are not read), every string
of the viewer's JavaScript, and what the pages render (AppTest: every element of every page, the step viewer's spec,
its captions and ledger at several rounds, the proof transcripts). A sentence moved to another file (as "the data
stop being separable" did, from the Perceptron's noise help to the bound explorer after the move to folders) is
caught where it lands.

:data:`WRONG` holds the fragments that are wrong wherever they appear. :data:`IN_CONTEXT` lists the sentences that
were wrong only for some runs (true for others): each names the test that holds it for the runs where it was false
(the registry test checks that the test still exists).

Matching is on :func:`normalise`\\ d text: ``$`` and ``**`` dropped, Markdown escapes undone, ``<br>`` and runs of
white space read as one space — so a fragment is written as a student reads it.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["Wrong", "InContext", "WRONG", "IN_CONTEXT", "normalise"]


@dataclass(frozen=True)
class Wrong:
    text: str    # a fragment no text of the app may contain
    found: str   # the review that found it
    why: str     # what is true instead


@dataclass(frozen=True)
class InContext:
    text: str
    found: str
    why: str
    test: str    # "tests/…/file.py::test_name": the test that holds it out where it was wrong


WRONG: tuple[Wrong, ...] = (
    # issue 11 §8 (a lecturer's reading, "text a lecturer would correct")
    Wrong("Without separability no bound", "issue 11 §8a (Perceptron, planted w* failing on noisy data)",
          "a planted w* that fails does not make the data inseparable; only the max-margin search decides"),
    Wrong("stop being separable", "issue 11 §8a (Perceptron's noise slider); back in issue 32 §4 (bound explorer)",
          "label noise takes the planted w*'s margin; the data can stay separable (seed 13, T = 20: margin 0.0723)"),
    Wrong("stops being separable", "issue 32 §4 (the same claim, singular)", "as above"),
    Wrong("The notes count L without the final True rule", "issue 11 §8b (decision lists)",
          "[004] Def. 2 counts the final True rule in the length L"),
    Wrong("Now |H| =", "issue 11 §8d (Halving caption)", "the size shown is the version space's, |Hₜ₊₁|"),
    Wrong("every learner errs", "issue 11 §8d (Halving's VC line)",
          "every deterministic learner errs d times; a randomised one d/2 in expectation"),
    Wrong("/2 in expectation)", "issue none (stop 39's student review, Halving's VC line: '2/2 in expectation')",
          "name it: VC(H)/2 = 1 in expectation"),
    Wrong("errs 1 times", "issue none (stop 39, Halving's VC line for a class of VC dimension 1)", "errs once"),
    Wrong("erred on the round listed", "issue 11 §8d (WM's ledger)", "no round was listed: name the round"),
    Wrong("is labelled 0 but satisfy the", "issue 11 §8d (conjunctions)", "one round 'is labelled 0 but satisfies'"),
    # issue 20 §2, §4 (a lecturer's reading of the five newest pages and the transcripts)
    Wrong("N·ln 2/k", "issue 20 §2 (compare, sparse preset)",
          "each bit is on with probability 1 − 2^(−1/k): about N·(1 − 2^(−1/k)) bits, 29.3 at N = 100, k = 2"),
    Wrong("pay ln N plus", "issue 20 §2 (compare, experts preset)",
          "WM's bound is ln N / ln(2/(1+β)) + …: 3.48·ln N at β = ½, more per ln N than Halving's 1.44"),
    Wrong("stay near ½", "issue 20 §2 (explorer, RWM's bound-attaining stream)",
          "E[M]/T runs from 0.51 at η = 0.05 to 0.78 at η = 0.95: at least ½"),
    Wrong("mistakes against the best ‖u‖ ≤ 1 in hindsight", "issue 20 §2 (FTRL chart title)",
          "min Σℓ(u) is the best u's expected loss as a randomised classifier, not a count of mistakes"),
    Wrong("(≤ 2 ln N/δ² at η = artanh δ)", "issue 20 §4 (the exponentiated update's C line)",
          "the inequality belongs to ln N / C, not to C"),
    Wrong("i.e. when its weight is ≤ N", "issue 20 §4 (Winnow's promotion reason)",
          "promoted only on a round with w·x ≤ N: an implication, not an equivalence"),
    Wrong("(label noise, say), the theorem gives no bound", "issue 20 §4 (explorer help)",
          "for the Perceptron noise switches to the TD_γ theorem; WM and RWM keep their bound"),
    Wrong("every expert err more", "issue 20, fresh-eyes review (explorer, WM noise help)",
          "a flipped label counts against every expert that was right on that round"),
    Wrong("inf·m*", "issue 20, fresh-eyes review (compare, β = 0 or η = 1)", "say the factor is infinite"),
    Wrong("n/a: needs 'margin'", "issue 20, fresh-eyes review (transcripts)",
          "the margin check is the assumption itself: it holds or fails"),
    # session 8, fresh-eyes review
    Wrong("an expert within the budget stays above", "issue 32, session 8 review (experts game board's description)",
          "an expert with m = m* mistakes has weight exactly β^{m*}: it never falls below the floor, and sits on it"),
    # issue 13/14 fresh-eyes reviews
    Wrong("the data's own margin", "issue 14, fresh-eyes review (Margin Perceptron)",
          "that was the planted w*'s margin; the data's largest margin comes from max_margin"),
    Wrong("(ringed in pink on the chart)", "issue 13 (Perceptron, inseparable data: 93ed09a)",
          "on these data the pink rings are the TD_γ hinge terms, not the certificate's rounds"),
    Wrong("− −", "issue 14, fresh-eyes review (the exponentiated update with C < 0)", "write + |C|·M"),
    Wrong("not yet caught out — and predicts", "issue 22, fresh-eyes review (Halving intro)",
          "with the default pruning a hypothesis wrong on a correct round stays"),
    Wrong("(blue) / (red)", "issue 23 (decision-list legend)", "a meaning told by colour alone"),
    # issue 32 §4
    Wrong("With label noise no such", "issue 32 §4 (Perceptron intro)",
          "noisy data can stay separable: the planted w* loses its margin, not the data"),
    Wrong("TD_γ (examples scaled to ‖x‖ = 1)", "issue 32 §4 (bound explorer)",
          "the streams are not scaled: norms vary, R = max‖xₜ‖ = 1 up to rounding"),
    Wrong("(α/2)Σ‖gₛ‖²/√(s−1)", "issue 32 §4 (FTRL legend)",
          "undefined at s = 1: the core computes (α/2)(‖g₁‖² + Σₛ₌₂ᵗ ‖gₛ‖²/√(s−1))"),
    Wrong("counts as a mistake, as the proof needs", "issue 32 §4, the helper's reading (exponentiated update)",
          "either tie rule keeps the proof (an update needs y⟨w, x⟩ ≤ 0); the rule is [003]'s"),
    # issue 32 §1 and §3 (reveals and chart descriptions)
    Wrong("weights with y·xᵢ > 0 gain share", "issue 32 §1 (the exponentiated update's question)",
          "a weight grows iff y·xᵢ > (ln Zₜ)/η: on real-valued features others grow too (or fewer)"),
    Wrong("current example: x 0, y", "issue 32 §3 (the generic description read plot coordinates as data)",
          "the conjunction page's example is a bit string xₜ = 011111 with its label yₜ"),
    # issue 33: a student's reading of every stop of the five tours (stop 40)
    Wrong(r"\sum_{s<t} F_s", "issue 33, a student's reading of the tours (RWM's E[M] after t rounds)",
          "after t rounds counted from 1, E[M] sums F over rounds 1…t: written Σₛ Fₛ, over the rounds so far"),
    Wrong("Only the hinge-loss bound speaks", "issue 33, a student's reading of the tours (002 stop 8)",
          "the page draws [004]'s TD_γ bound for the same data too"),
    Wrong("With 10% of the labels flipped", "issue 33, a student's reading of the tours (004 stop 5)",
          "each label is flipped with probability 0.1: 15 of the 200 were"),
    Wrong("M ≤ R²/γ² cannot be improved", "issue 33, a student's reading of the tours (000 stop 10's reference)",
          "[000] does not say it; [001] slide 21 does"),
    Wrong("so far: the rounds before this one", "issue 33, a student's reading of the tours (002 stops 6–7 ledger)",
          "the ledger at round p sums TD_γ and L(u) over rounds 1 … p, round p included"),
    Wrong("|H_t| with ✗ from there", "issue 33, a student's reading (Halving, noise 0.3)",
          "1 ≤ |Hₜ| needs realisable labels: the ledger marks it n/a, never ✗"),
)

IN_CONTEXT: tuple[InContext, ...] = (
    InContext("Why the Perceptron wins here", "issue 20 §2 (compare, dense preset)",
              "on the dense preset the exponentiated update makes exactly the Perceptron's mistakes: the Perceptron "
              "wins on its bound only (the heading stays where it wins on both)",
              "tests/app/test_compare_sentences.py::test_dense_says_the_mistakes_tie_and_the_perceptron_wins_on_its_bound"),
    InContext("Only k = 10 of the N = 10 variables matter", "issue 20, fresh-eyes review (compare, k = N)",
              "a target of k > N/2 variables is not sparse",
              "tests/app/test_compare_sentences.py::test_a_dense_k_is_not_called_sparse_and_ln_N_says_which_N"),
    InContext("each relevant weight is never demoted", "issue 20 §4 (Winnow's proof steps with label noise)",
              "with noise relevant weights are demoted (20 times at /winnow?noise=0.1); true on clean labels",
              "tests/app/test_proof_steps_noise.py::test_winnow_noise_steps_give_the_demotions_of_relevant_weights"),
    InContext("Every inequality above holds", "issue 20 §1 (transcripts with label noise)",
              "steps that need a failed assumption are n/a or fail; the sentence stays for runs where all hold",
              "tests/core/test_transcript_relations.py::test_every_printed_relation_is_true_for_its_numbers"),
    InContext("|c| ≤ |h_t| ≤ n − (M − 1)", "issue 11 §8c (conjunctions, step 3)",
              "holds once M ≥ 1 (at M = 0, |h| = 2n)",
              "tests/app/test_boolean_page.py::test_proof_steps_say_what_holds_when"),
    InContext("These data are not linearly separable", "issue 11 §8a (the planted w* failing)",
              "said only with the max-margin search's exact certificate, never because a given w* fails",
              "tests/app/test_perceptron_pages.py::test_a_failing_planted_comparator_is_not_called_inseparability"),
    InContext("MISTAKE: the majority was wrong and leaves", "issue 32 §4, the helper's reading (Halving caption)",
              "a tied vote has no majority: the half the tie rule followed (+1) leaves",
              "tests/app/test_prose_issue32.py::test_halvings_caption_at_a_tied_vote_names_the_tie_rule"),
    InContext("No expert was wrong", "issue 32 §1 (WM / Halving / RWM reveal when the wrong experts hold no weight)",
              "experts were wrong; the wrong ones hold no weight (Halving's outside the version space, β = 0, an "
              "underflowing share): said only when no expert was wrong",
              "tests/ui/test_predict_truth_votes.py::test_weighted_majority_and_halving_reveals_are_the_runs"),
    InContext("The draw picked expert", "issue 32 §1 (RWM with no weight left)",
              "with every weight 0 no expert is drawn: the core predicts +1",
              "tests/ui/test_predict_truth_votes.py::test_rwm_chance_of_a_mistake_is_the_runs"),
    InContext("inequalities of the proof hold in every one of its", "issue 32 §2 (transcripts with undefined or n/a "
              "steps)", "said only when every step was evaluated and held in every state",
              "tests/core/test_transcript_record.py::test_all_hold_is_never_said_where_a_step_was_undefined_or_na"),
    InContext("a defect to report", "issue 32 §2 (Halving on noisy data: ln 1 ≤ ln|Hₜ| needs realisable data)",
              "only for a step the proof claims on these data that fails",
              "tests/core/test_transcript_record.py::test_a_defect_is_said_only_for_a_failing_claimed_step"),
    # session 8, fresh-eyes review (the "Beat the bound" games after "Computer's move" / "Computer plays on")
    InContext("You forced", "issue 32, session 8 review (all four games: 'You forced M = 11', 'You forced as many "
              "as the computer' after the computer played every move)",
              "the mistakes are credited to whoever made the move: the student's, the computer's, or both, counted "
              "apart", "tests/app/test_adversary_perceptron_page.py::test_the_page_credits_each_move_to_whoever_made_it"),
    InContext("your label y", "issue 32, session 8 review (the last round's words after a computer's move)",
              "a computer's move is 'the computer's label y'",
              "tests/app/test_adversary_perceptron_page.py::test_the_computer_plays_to_the_end_and_the_page_compares"),
    InContext("your point x", "issue 32, session 8 review (the Perceptron board's description at every round)",
              "the description names no maker per round: 'the point x' (the words under the board say whose)",
              "tests/app/test_adversary_perceptron_page.py::test_the_page_credits_each_move_to_whoever_made_it"),
    InContext("marks level i, below which it never falls", "issue 33, a student's reading (decision lists, noise 0.3: "
              "target rule 1 fell to level 2 at round 1)", "only on the target list's labels; on others the run's "
              "count says whether a target rule fell below its place",
              "tests/app/test_boolean_page.py::test_the_target_levels_line_says_never_below_only_on_the_target_lists_labels"),
)

_ESCAPE = re.compile(r"\\([!-/:-@\[-`{-~])")
_SPACE = re.compile(r"\s+")


def normalise(text: str) -> str:
    """Text as a student reads it, for matching: no ``$``/``**``, Markdown escapes undone, one space for any run."""
    text = _ESCAPE.sub(r"\1", text.replace("\u2060", "")).replace("$", "").replace("**", "")
    return _SPACE.sub(" ", text.replace("<br>", " ")).strip()
