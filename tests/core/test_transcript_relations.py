"""Every relation a proof transcript prints between two numbers is true for those numbers, for every
learner, on streams that meet the theorem's assumptions and on noisy ones (label noise: the steps that
need the assumption are then false on some states, and must be written with the relation that holds),
in Markdown and in LaTeX."""
from __future__ import annotations

import numpy as np
import pytest

import olc_core
from olc_core import streams, transcript
from olc_core._transcript.texdoc import num
from olc_core.hypotheses import MonotoneConjunctions, Thresholds
from olc_core.streams import boolean as sb
from olc_core.streams.experts import experts, target_concept
from olc_core.streams.winnow_extra import simplex_continuous
from tests.core.transcript_tools import (false_relations, math_segments, printed_relations, tex_math_segments)


def _unit_ball(T, d, noise, seed):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(T, d))
    X /= np.maximum(1.0, np.linalg.norm(X, axis=1))[:, None] * 1.2
    u = np.ones(d) / np.sqrt(d)
    y = np.where(X @ u >= 0, 1.0, -1.0)
    flip = rng.random(T) < noise
    y[flip] = -y[flip]
    return X, y


def _runs():
    """(id, algorithm, X, y, params): every learner, with and without label noise."""
    out = []
    for noise in (0.0, 0.1):
        n = f"noise{noise:g}"
        s = streams.separable(T=300, d=3, gamma=0.1, radius=1.5, seed=1, noise=noise)
        out.append((f"perceptron-{n}", "perceptron", s.X, s.y, {"comparator": s.comparator}))
        out.append((f"perceptron-gamma-{n}", "perceptron", s.X, s.y, {"comparator": s.comparator, "gamma": 0.2}))
        s = streams.separable(T=200, d=2, gamma=0.15, radius=1.0, seed=2, noise=noise)
        out.append((f"margin-perceptron-{n}", "margin_perceptron", s.X, s.y,
                    {"gamma": 0.15, "comparator": s.comparator}))
        s = streams.sparse_disjunction(T=500, N=100, k=3, seed=0, noise=noise, dtype=np.uint8)
        out.append((f"winnow-{n}", "winnow", s.X, s.y, {"beta": 1.0, "comparator": s.comparator}))
        out.append((f"winnow-beta0.5-{n}", "winnow", s.X, s.y, {"beta": 0.5}))
        s = streams.sparse_simplex(T=300, N=20, k=3, seed=0, noise=noise)
        out.append((f"eg-sparse-{n}", "normalized_winnow", s.X, s.y,
                    {"comparator": s.comparator, "delta": s.info["delta"]}))
        out.append((f"eg-sparse-eta0.5-{n}", "normalized_winnow", s.X, s.y,
                    {"comparator": s.comparator, "delta": s.info["delta"], "eta": 0.5}))
        s = simplex_continuous(T=200, N=10, k=2, delta=0.15, seed=3, noise=noise)
        out.append((f"eg-continuous-{n}", "normalized_winnow", s.X, s.y, {"comparator": s.comparator}))
        s = experts(T=200, N=7, error_rates=[0.05, 0.1, 0.2, 0.3, 0.4, 0.45, 0.5], seed=4, noise=noise)
        A = s.X.astype(np.float64)
        out.append((f"wm-{n}", "weighted_majority", A, s.y, {"beta": 0.5, "update": "on_mistake"}))
        out.append((f"wm-beta0-{n}", "weighted_majority", A, s.y, {"beta": 0.0, "update": "every_round"}))
        out.append((f"rwm-{n}", "randomized_weighted_majority", A, s.y, {"eta": 0.4, "seed": 3}))
        out.append((f"rwm-eta0.8-{n}", "randomized_weighted_majority", A, s.y, {"eta": 0.8, "seed": 3}))
        H = Thresholds.grid(16)
        s = target_concept(H, T=80, seed=5, noise=noise)
        out.append((f"halving-thresholds-{n}", "halving", s.X, s.y, {"hypotheses": H, "update": "on_mistake"}))
        H = MonotoneConjunctions(4)
        s = target_concept(H, T=80, seed=6, noise=noise)
        out.append((f"halving-conj-{n}", "halving", s.X, s.y, {"hypotheses": H, "update": "every_round"}))
        X, y = _unit_ball(200, 3, noise, 7)
        out.append((f"ftrl-{n}", "ftrl_randomized", X, y, {"seed": 7}))
        out.append((f"ftrl-comparator-{n}", "ftrl_randomized", X, y, {"seed": 7, "comparator": np.ones(3) / 3}))
        s = sb.conjunction(T=150, n=6, k=2, seed=8, noise=noise)
        out.append((f"conjunction-given-{n}", "conjunction", s.X, s.y, {"comparator": s.comparator}))
        out.append((f"conjunction-found-{n}", "conjunction", s.X, s.y, {}))
        s = sb.decision_list(T=150, n=4, L=3, seed=9, noise=noise)
        out.append((f"decision-list-given-{n}", "decision_list", s.X, s.y, {"comparator": s.comparator, "tie": "first"}))
        out.append((f"decision-list-found-{n}", "decision_list", s.X, s.y, {"tie": "majority"}))
    return out


RUNS = _runs()


def test_the_runs_cover_every_learner_with_and_without_noise():
    for noise in ("noise0-", "noise0.1"):
        assert {alg for rid, alg, *_ in RUNS if noise in rid + "-"} == set(olc_core.ALGORITHMS)


@pytest.mark.parametrize("rid,algorithm,X,y,params", RUNS, ids=[r[0] for r in RUNS])
def test_every_printed_relation_is_true_for_its_numbers(rid, algorithm, X, y, params):
    tr = olc_core.run(algorithm, X, y, **params)
    md = transcript.markdown(tr, page=rid)
    tex = transcript.latex(tr, page=rid)
    md_rel = printed_relations(math_segments(md))
    tex_rel = printed_relations(tex_math_segments(tex))
    assert len(md_rel) > 5 and len(md_rel) == len(tex_rel)   # the parser sees the state blocks
    bad = false_relations(math_segments(md)) + false_relations(tex_math_segments(tex))
    assert not bad, f"{len(bad)} false relations, e.g.\n" + "\n".join(bad[:10])


# ------------------------------------------------------------------------------ the verdicts, hand-made

from types import SimpleNamespace  # noqa: E402

from olc_core.proofs.base import Assumption, Chain, Proof  # noqa: E402
from tests.core.transcript_tools import section  # noqa: E402


def _toy(series, chains, assumptions=(), bound=None, strict_bound=False):
    p = Proof(name="toy", theorem=r"M \le 2", T=3, state_rounds=np.array([0, 2]), n_mistakes=np.array([0, 1]),
              series={k: np.asarray(v, dtype=float) for k, v in series.items()}, chains=chains,
              assumptions=assumptions, mistake_bound=bound, bound_strict=strict_bound)
    tr = SimpleNamespace(algorithm="toy", params={}, T=3, d=1, mistakes=np.array([1]), n_mistakes=1, proof=p,
                         proofs={"toy": p})
    return tr, transcript.markdown(tr), transcript.latex(tr)


def test_a_true_step_that_needs_a_failed_assumption_is_marked_na_and_said_so():
    tr, md, tex = _toy({"lo": [0, 0.5], "hi": [0, 1.0]}, (Chain("c", ("lo", "hi"), needs=("target",)),),
                       (Assumption("target", "y = c(x)", False, np.array([1])),))
    part = section(md, "### Mistake 1: round 2")
    assert r"\overset{\text{n/a}}{\le}\ &\mathrm{hi} = 1" in part
    assert ("1 is not applicable (marked n/a): true on these numbers, but it needs 'target', which fails on these "
            r"data: c: $\mathrm{lo} \le \mathrm{hi}$.") in part
    assert not false_relations(math_segments(md)) and not false_relations(tex_math_segments(tex))


def test_numbers_within_the_tolerance_are_not_printed_with_a_relation_they_contradict():
    # lo exceeds hi by 1e-12 relative: the check passes (tolerance 1e-9), but "lo ≤ hi" would be false for the
    # printed numbers once they are printed with enough digits; a strict link with equal sides is not "<"
    a = 1.0 + 1e-12
    tr, md, tex = _toy({"lo": [0, a], "hi": [0, 1.0], "eq": [0, 1.0]},
                       (Chain("c", ("lo", "hi")), Chain("s", ("hi", "eq"), strict=(True,))))
    p = tr.proof
    assert not p.violations()
    part = section(md, "### Mistake 1: round 2")
    assert r"\overset{\text{tol}}{\approx}\ &\mathrm{hi} = 1" in part
    before = section(md, "### Before round 1")
    assert r"\overset{\text{tol}}{=}\ &\mathrm{eq} = 0" in before
    assert "1 holds only up to the check's relative tolerance" in before and "Every inequality above holds" not in before
    assert not false_relations(math_segments(md)) and not false_relations(tex_math_segments(tex))


def test_close_numbers_are_printed_with_the_digits_that_show_their_order():
    a, b = 0.12345671, 0.12345679   # both 0.123457 at six digits: "a < b" would read 0.123457 < 0.123457
    tr, md, tex = _toy({"lo": [0, a], "hi": [0, b]}, (Chain("c", ("lo", "hi"), strict=(True,)),))
    part = section(md, "### Mistake 1: round 2")
    assert r"&\mathrm{lo} = 0.12345671 " in part and r"<\ &\mathrm{hi} = 0.12345679" in part
    assert not false_relations(math_segments(md)) and not false_relations(tex_math_segments(tex))


def test_winnow_with_label_noise_writes_the_false_steps_with_the_relation_that_holds():
    # the page /winnow?noise=0.1 (N = 100, k = 3, T = 500, seed 0), mistake 40 (round 118)
    s = streams.sparse_disjunction(T=500, N=100, k=3, seed=0, noise=0.1, dtype=np.uint8)
    tr = olc_core.run("winnow", s.X, s.y, beta=1.0, comparator=s.comparator)
    md = transcript.markdown(tr)
    part = section(md, "### Mistake 40: round 118")
    assert "&m^+ = 24 \\\\\n" + r"\overset{\text{n/a: fails}}{>}\ &\textstyle\sum_{i\in R} p_i = 21" in part
    assert r"\overset{\text{n/a: fails}}{>}\ &0 = 0" in part
    assert "Every inequality above holds" not in part
    assert "3 fail here" in part and "they need 'target disjunction', which fails on these data" in part
    whole = section(md, "## Checks over the whole run")
    assert ("relevant variables never demoted: $\\textstyle\\sum_{i\\in R} d_i \\le 0$: not applicable in all 105 "
            "states: it needs 'target disjunction', which fails on these data, so the proof does not claim it here") in whole
    assert "In all: 840 checks evaluated and held; 420 checks not applicable" in whole and "defect" not in md


def test_a_strict_theorem_is_written_with_a_strict_bound():
    s = streams.sparse_disjunction(T=120, N=16, k=2, seed=0)
    tr = olc_core.run("winnow", s.X, s.y, beta=1.0, comparator=s.comparator)
    assert tr.proof.bound_strict and not tr.proof.violations()
    md = transcript.markdown(tr)
    b = num(tr.proof.mistake_bound)
    assert f"On this run the bound is $M < {b}$." in md
    assert f"$M = {tr.n_mistakes} < {b}$: the bound holds on this run" in section(md, "## Conclusion")
    assert r"- $M < \text{bound}$: the sandwich closes" in md
    # every other learner's theorem is ≤, and says so
    s = streams.separable(T=60, d=3, gamma=0.1, radius=1.5, seed=0)
    tr = olc_core.run("perceptron", s.X, s.y, comparator=s.comparator)
    assert not tr.proof.bound_strict and "On this run the bound is $M \\le " in transcript.markdown(tr)


@pytest.mark.skipif(__import__("tests.core.transcript_tools", fromlist=["tex_engine"]).tex_engine() is None,
                    reason="no TeX engine (pdflatex) installed")
def test_the_latex_of_noisy_runs_and_tolerance_marks_compiles(tmp_path):
    from tests.core.transcript_tools import compile_tex
    texs = {}
    for rid in ("winnow-noise0.1", "eg-sparse-noise0.1", "conjunction-given-noise0.1", "decision-list-given-noise0.1"):
        _, alg, X, y, params = next(r for r in RUNS if r[0] == rid)
        texs[rid] = transcript.latex(olc_core.run(alg, X, y, **params), page=rid)
    texs["tolerance"] = _toy({"lo": [0, 1.0 + 1e-12], "hi": [0, 1.0], "eq": [0, 1.0]},
                             (Chain("c", ("lo", "hi")), Chain("s", ("hi", "eq"), strict=(True,))))[2]
    for rid, tex in texs.items():
        work = tmp_path / rid
        work.mkdir()
        rc, log = compile_tex(tex, work)
        assert rc == 0, f"{rid}: pdflatex failed:\n{log}"
        assert "Undefined control sequence" not in log, log
