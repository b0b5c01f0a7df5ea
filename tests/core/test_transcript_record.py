"""Transcripts claim only what the record says was checked (issue 32 §2, §5).

* Every learner on data that break its assumptions — label noise, and the other ways its page offers
  (clicked points no line separates, a γ or δ above the data's margin, η too large, β = 0 or η = 1 with
  no perfect expert, no consistent target): the transcript never says "defect", and no step the proof
  claims on these data fails (a step that can be false there declares the assumption it needs: n/a).
* Every count a transcript prints — per state, per link over the whole run, in all — is the record's.
* The sentences the review found false stay out: "All k inequalities … hold in every one of its n
  states" where a step was undefined or n/a, "a defect to report" without a failing claimed step,
  "ln 1 = 0 FAILS" on Halving with noise, a measured value as "not given", words typeset as maths.
"""
from __future__ import annotations

import re

import numpy as np
import pytest

import olc_core
from olc_core import streams, transcript
from olc_core.hypotheses import HalfPlanes, MonotoneConjunctions, Thresholds
from olc_core.streams import boolean as sb
from olc_core.streams.experts import adversary, experts, target_concept
from olc_core.streams.winnow_extra import simplex_continuous
from tests.core.test_transcript_relations import RUNS
from tests.core.transcript_tools import compile_tex, math_segments, section, tex_engine, tex_math_segments


def _unit_ball(T, d, noise, seed):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(T, d))
    X /= 1.2 * np.maximum(1.0, np.linalg.norm(X, axis=1))[:, None]
    y = np.where(X @ np.ones(d) >= 0, 1.0, -1.0)
    y[rng.random(T) < noise] *= -1
    return X, y


def _violating():
    """(id, algorithm, X, y, params): every learner on data that break an assumption of its theorem."""
    out = []
    s = streams.separable(T=300, d=2, gamma=0.1, radius=1.0, seed=5, noise=0.15)
    out.append(("perceptron-noise", "perceptron", s.X, s.y, {"comparator": s.comparator}))
    s = streams.separable(T=200, d=2, gamma=0.05, radius=1.0, seed=6)
    out.append(("perceptron-gamma-above-margin", "perceptron", s.X, s.y, {"comparator": s.comparator, "gamma": 0.4}))
    pts = np.array([[1.0, 0.0], [1.0, 0.0], [0.0, 1.0], [-1.0, 0.2]])
    out.append(("perceptron-clicked-inseparable", "perceptron", pts, np.array([1, -1, 1, 1]), {}))
    s = streams.separable(T=150, d=2, gamma=0.2, radius=1.0, seed=7, noise=0.1)
    out.append(("margin-perceptron-noise", "margin_perceptron", s.X, s.y,
                {"gamma": 0.2, "passes": 3, "comparator": s.comparator}))
    out.append(("margin-perceptron-clicked-inseparable", "margin_perceptron", pts, np.array([1, -1, 1, 1]),
                {"gamma": 0.2, "passes": 3}))
    s = streams.separable(T=100, d=2, gamma=0.05, radius=1.0, seed=8)
    out.append(("margin-perceptron-gamma-above-margin", "margin_perceptron", s.X, s.y,
                {"gamma": 0.6, "passes": 5, "comparator": s.comparator}))
    s = streams.sparse_disjunction(T=400, N=60, k=3, seed=9, noise=0.1, dtype=np.uint8)
    out.append(("winnow-noise", "winnow", s.X, s.y, {"beta": 1.0, "comparator": s.comparator}))
    out.append(("winnow-noise-no-target", "winnow", s.X, s.y, {"beta": 0.5}))
    s = streams.sparse_simplex(T=250, N=15, k=3, seed=10, noise=0.1)
    out.append(("eg-noise-delta-given", "normalized_winnow", s.X, s.y, {"comparator": s.comparator, "delta": 1 / 3}))
    c = streams.sparse_simplex(T=250, N=15, k=3, seed=10)
    out.append(("eg-eta-too-large", "normalized_winnow", c.X, c.y, {"comparator": c.comparator, "eta": 3.0}))
    s = simplex_continuous(T=200, N=10, k=2, delta=0.15, seed=11, noise=0.1)
    out.append(("eg-continuous-noise", "normalized_winnow", s.X, s.y, {"comparator": s.comparator}))
    e = experts(T=200, N=6, error_rates=[0.05, 0.1, 0.2, 0.3, 0.4, 0.5], seed=12, noise=0.1)
    A = e.X.astype(np.float64)
    out.append(("wm-beta0-no-perfect-expert", "weighted_majority", A, e.y, {"beta": 0.0, "update": "every_round"}))
    out.append(("wm-eta-above-half", "weighted_majority", A, e.y, {"beta": 0.3}))
    out.append(("rwm-eta1-no-perfect-expert", "randomized_weighted_majority", A, e.y, {"eta": 1.0, "seed": 1}))
    out.append(("rwm-eta-above-half", "randomized_weighted_majority", A, e.y, {"eta": 0.8, "seed": 1}))
    a = adversary(T=100, N=8, beta=0.5)
    out.append(("wm-adversary", "weighted_majority", a.X, a.y, {"beta": 0.5}))
    for name, H, update in (("thresholds", Thresholds.grid(16), "on_mistake"),
                            ("conjunctions", MonotoneConjunctions(4), "every_round"),
                            ("halfplanes", HalfPlanes(16), "on_mistake")):
        s = target_concept(H, T=80, seed=13, noise=0.2)
        out.append((f"halving-{name}-noise", "halving", s.X, s.y, {"hypotheses": H, "update": update}))
    X, y = _unit_ball(200, 3, 0.2, 14)
    out.append(("ftrl-noise", "ftrl_randomized", X, y, {"seed": 14}))
    s = sb.conjunction(T=150, n=6, k=2, seed=15, noise=0.1)
    out.append(("conjunction-noise-given", "conjunction", s.X, s.y, {"comparator": s.comparator}))
    out.append(("conjunction-noise-found", "conjunction", s.X, s.y, {}))
    s = sb.decision_list(T=150, n=4, L=3, seed=16, noise=0.1)
    out.append(("decision-list-noise-given", "decision_list", s.X, s.y, {"comparator": s.comparator, "tie": "first"}))
    out.append(("decision-list-noise-found", "decision_list", s.X, s.y, {"tie": "majority"}))
    return out


VIOLATING = _violating()
#: the learners whose theorem assumes nothing of the labels (FTRL) or whose stream meets it (the WM adversary)
_MEETS = {"ftrl-noise", "wm-adversary"}
ALL = [(r[0], r[1], r[2], r[3], r[4]) for r in RUNS] + VIOLATING


def test_every_learner_is_run_on_data_breaking_its_assumptions():
    assert {alg for _, alg, *_ in VIOLATING} == set(olc_core.ALGORITHMS)
    for rid, alg, X, y, params in VIOLATING:
        tr = olc_core.run(alg, X, y, **params)
        broken = [a.name for p in tr.proofs.values() for a in p.failed_assumptions]
        assert bool(broken) == (rid not in _MEETS), (rid, broken)


@pytest.mark.parametrize("rid,algorithm,X,y,params", VIOLATING, ids=[r[0] for r in VIOLATING])
def test_no_defect_on_data_that_break_the_assumptions(rid, algorithm, X, y, params):
    tr = olc_core.run(algorithm, X, y, **params)
    md, tex = transcript.markdown(tr, page=rid), transcript.latex(tr, page=rid)
    assert "defect" not in md and "defect" not in tex
    for p in tr.proofs.values():
        S = p.summary()
        fails = [(s.link.chain, s.link.name, s.first_failing) for s in S.having("fails")]
        assert not fails, f"{rid} / {p.name}: steps the proof claims fail: {fails}"
        # every step that is false on these data is n/a for an assumption that fails, or restates one
        for s in S.links:
            if s.count_numbers("fail"):
                assert s.link.failed or (s.link.restates and s.count("assumption")), (rid, p.name, s.link.name)
    # and violations() still lists those false steps, each with what it needs
    assert all(v.needs for v in tr.proof.violations())


# ------------------------------------------------------------------------------ printed counts = the record's

_INT = r"(\d+)"


def _one(pattern: str, text: str) -> int:
    found = re.findall(pattern, text)
    assert len(found) <= 1, (pattern, found)
    return int(found[0]) if found else 0


def _state_sections(tr, proof, md):
    """(state index, the text under its heading) for every state the transcript writes out."""
    word = tr.proof.event.capitalize()
    yield 0, section(md, "### Before round 1")
    for i, r in enumerate(tr.mistakes[:transcript.MAX_MISTAKES]):
        yield proof.index(int(r) + 1), section(md, f"### {word} {i + 1}: round {int(r) + 1}")


def _check_state(proof, k, text):
    steps = proof.steps(k)
    v = [s.verdict for s in steps]
    closing = next(ln for ln in text[text.rindex("$$") + 2:].splitlines() if ln.strip())  # the paragraph after the chains
    if all(x == "holds" for x in v):
        assert closing == "Every inequality above holds.", closing
        return
    assert "Every inequality above holds" not in closing
    hold = v.count("holds")
    assert closing.startswith(f"Of the {len(steps)} steps above, {hold} {'holds' if hold == 1 else 'hold'}"), closing
    na = [s for s in steps if s.verdict == "na"]
    got = {
        "tol": _one(rf" {_INT} holds? only up to the check's relative tolerance", closing),
        "na_true": _one(rf" {_INT} (?:is|are) not applicable \(marked n/a\)", closing),
        "na_fail": _one(rf" {_INT} fails? here \(marked n/a: fails", closing),
        "na_undef": _one(rf" {_INT} (?:is|are) not applicable and not evaluated", closing),
        "fails": _one(rf"FAILS here: {_INT} steps?", closing),
        "assumption": _one(rf" {_INT} (?:is|are) the theorem's assumption", closing),
        "undefined": sum(int(x) for x in re.findall(rf" {_INT} could not be evaluated in this state", closing)),
    }
    want = {"tol": v.count("tol"), "na_true": sum(s.numbers in ("hold", "tol") for s in na),
            "na_fail": sum(s.numbers == "fail" for s in na), "na_undef": sum(s.numbers == "undefined" for s in na),
            "fails": v.count("fails"), "assumption": v.count("assumption"), "undefined": v.count("undefined")}
    assert got == want, (k, closing)


def _check_link(s, K, text):
    """One bullet of the whole-run section against its link's summary."""
    if s.link.failed:
        assert f"not applicable in all {K} states" in text
        held = s.count_numbers("hold") + s.count_numbers("tol")
        assert _one(rf"its numbers satisfy it in {_INT} states?", text) == held
        assert _one(rf"they do not in {_INT} states?", text) == s.count_numbers("fail")
        assert _one(rf"a side is not a number in {_INT} states?", text) == s.count_numbers("undefined")
        return
    held = s.count("holds") + s.count("tol")
    assert _one(rf"evaluated and held in {_INT} of the {K} states", text) == held
    u = s.count("undefined")
    assert (f"could not be evaluated in any of the {K} states" in text if u == K else
            _one(rf"could not be evaluated in {_INT} states?", text) == u)
    assert _one(rf"FAILS in {_INT} states?", text) == s.count("fails")
    assert _one(rf"false in {_INT} states?", text) == s.count("assumption")


def _check_whole_run(proof, md):
    whole = section(md, "## Checks over the whole run")
    S = proof.summary()
    n, K = len(S.links), S.states
    if S.all_hold:
        assert whole.strip().startswith(f"All {n} inequalities of the proof hold in every one of its {K} states")
        return
    assert not re.search(r"All \d+ inequalities", whole)
    assert f"checked in every one of its {K} states (every state the learner was in, each round's included): " \
           f"{S.checks} checks." in whole
    bullets = [ln[2:] for ln in whole.splitlines() if ln.startswith("- ")]
    others = [s for s in S.links if s.count("holds") + s.count("tol") != K]
    assert len(bullets) >= len(others)
    for s, text in zip(others, bullets):
        assert text.startswith(s.link.chain.replace("|", "\\|").replace("*", "\\*") + ": "), (text, s.link.name)
        _check_link(s, K, text)
    total = whole[whole.index("In all: "):].split("\n")[0]
    held = _one(rf"In all: {_INT} checks? evaluated and held", total)
    assert held == S.count("holds") + S.count("tol")
    assert _one(rf"{_INT} checks? could not be evaluated on these data", total) == S.count("undefined")
    assert _one(rf"{_INT} checks? not applicable", total) == S.count("na")
    assert _one(rf"{_INT} checks? where the theorem's assumption", total) == S.count("assumption")
    assert _one(rf"{_INT} checks? failed", total) == S.count("fails")


@pytest.mark.parametrize("rid,algorithm,X,y,params", ALL, ids=[r[0] for r in ALL])
def test_every_printed_count_is_the_records(rid, algorithm, X, y, params):
    tr = olc_core.run(algorithm, X, y, **params)
    proof = transcript.written_proof(tr)
    md = transcript.markdown(tr, page=rid)
    for k, text in _state_sections(tr, proof, md):
        _check_state(proof, k, text)
    _check_whole_run(proof, md)
    S = proof.summary()
    concl = section(md, "## Conclusion")
    assert ("a defect to report" in concl) == S.defect
    assert ("Every inequality of the proof held at every state" in concl) == S.all_hold
    if "## Other theorems checked on this run" in md:
        items = [ln for ln in section(md, "## Other theorems checked on this run").splitlines() if ln.startswith("- ")]
        others = [p for p in tr.proofs.values() if p is not proof]
        assert len(items) == len(others)
        for p, item in zip(others, items):
            assert ("every check holds" in item) == p.summary().all_hold, item
            assert ("a defect to report" in item) == p.summary().defect, item


# ------------------------------------------------------------------------------ the review's sentences, held out

def _md(rid: str) -> tuple[object, str, str]:
    _, alg, X, y, params = next(r for r in ALL if r[0] == rid)
    tr = olc_core.run(alg, X, y, **params)
    return tr, transcript.markdown(tr, page=rid), transcript.latex(tr, page=rid)


ALL_HOLD = re.compile(r"All \d+ inequalities of the proof hold in every one of its \d+ states")


@pytest.mark.parametrize("rid", ["margin-perceptron-noise0.1", "margin-perceptron-clicked-inseparable",
                                 "eg-sparse-noise0.1", "eg-continuous-noise0.1", "decision-list-found-noise0.1",
                                 "decision-list-given-noise0.1", "winnow-beta0.5-noise0.1", "perceptron-noise0",
                                 "wm-beta0-noise0.1", "halving-thresholds-noise0.1"])
def test_all_hold_is_never_said_where_a_step_was_undefined_or_na(rid):
    tr, md, tex = _md(rid)
    S = transcript.written_proof(tr).summary()
    assert S.count("undefined") + S.count("na") > 0          # the case the issue names
    assert not ALL_HOLD.search(md) and not ALL_HOLD.search(tex.replace("\n", " "))
    assert "Every inequality of the proof held at every state" not in md


@pytest.mark.parametrize("rid", [r[0] for r in ALL])
def test_a_defect_is_said_only_for_a_failing_claimed_step(rid):
    tr, md, tex = _md(rid)
    defect = any(p.summary().defect for p in tr.proofs.values())
    assert not defect and "defect" not in md and "defect" not in tex


def test_halving_with_noise_never_says_ln_1_fails():
    for rid in ("halving-thresholds-noise0.1", "halving-conj-noise0.1", "halving-halfplanes-noise"):
        tr, md, _ = _md(rid)
        assert "FAILS" not in md.replace("FAILS on", "")         # only the assumption's own "FAILS on … rounds"
        assert r"\overset{\text{n/a: fails}}{>}\ &\ln |H_t| = -\infty" in md
        assert "it needs 'realisable', which fails on these data" in md


def test_known_values_are_printed_as_values():
    # the margin Perceptron's Uγ with no separator: U·γ, not "undefined"
    tr, md, _ = _md("margin-perceptron-clicked-inseparable")
    assert r"U\gamma = \text{undefined}" not in md and r"&U\gamma = 0.4 \\" in md
    # its count is of updates
    assert f"${tr.n_mistakes}$ updates (realised)" in md and "mistakes (realised)" not in md
    # the exponentiated update's δ: measured, not "not given (measured or chosen by the learner)"
    for rid in ("eg-continuous-noise0", "eg-continuous-noise0.1"):
        tr, md, _ = _md(rid)
        assert "measured or chosen by the learner" not in md
        c = tr.proof.constants
        if c["delta"] is not None:
            assert f"Parameter delta: not given; the run uses ${olc_core._transcript.texdoc.num(c['delta'])}$" in md
        else:
            assert ("Parameter delta: not given; measured on these data (delta\\_measured): "
                    f"${olc_core._transcript.texdoc.num(c['delta_measured'])}$") in md
            assert "- delta: not defined on these data (no δ \\> 0: the comparator u has no positive margin" in md
        assert f"Parameter eta: not given; the run uses ${olc_core._transcript.texdoc.num(c['eta'])}$" in md


def test_td_gamma_is_labelled_over_the_rounds_so_far():
    tr, md, _ = _md("perceptron-noise0.1")
    assert transcript.written_proof(tr).name.endswith("(TD_γ)")
    part = section(md, "### Mistake 1: round " + str(int(tr.mistakes[0]) + 1))
    assert r"&\gamma M - \mathrm{TD}_\gamma\ \text{(over the rounds so far)} = " in part


def _strip_braced(s: str, cmd: str) -> str:
    out, i = [], 0
    while (j := s.find(cmd + "{", i)) >= 0:
        out.append(s[i:j])
        k, depth = j + len(cmd) + 1, 1
        while depth and k < len(s):
            depth += {"{": 1, "}": -1}.get(s[k], 0)
            k += 1
        i = k
    return "".join(out) + s[i:]


def maths_words(seg: str) -> list[str]:
    """Words (two letters or more) typeset as maths: outside \\text, \\mathrm, \\operatorname, \\mathbb and
    environment names, once commands are removed."""
    for cmd in (r"\text", r"\mathrm", r"\operatorname", r"\mathbb", r"\begin", r"\end"):
        seg = _strip_braced(seg, cmd)
    return re.findall(r"[A-Za-z]{2,}", re.sub(r"\\[A-Za-z]+", " ", seg))


def test_the_checker_finds_words_in_maths():
    assert maths_words(r"some unit w^* has y_t\langle w^*, x_t\rangle \ge \gamma for every round t") == [
        "some", "unit", "has", "for", "every", "round"]
    assert maths_words(r"\text{some unit } w^* \text{ has } y \ge \gamma\ \mathrm{TD}_\gamma \ln N") == []


@pytest.mark.parametrize("rid", [r[0] for r in ALL])
def test_no_words_are_typeset_as_maths(rid):
    _, md, tex = _md(rid)
    bad = {seg[:100] for seg, _ in math_segments(md) + tex_math_segments(tex) if maths_words(seg)}
    assert not bad, "\n".join(sorted(bad))


@pytest.mark.skipif(tex_engine() is None, reason="no TeX engine (pdflatex) installed")
def test_the_latex_of_runs_with_undefined_and_na_steps_compiles(tmp_path):
    for rid in ("margin-perceptron-noise", "margin-perceptron-clicked-inseparable", "halving-thresholds-noise",
                "eg-continuous-noise", "decision-list-noise-found", "wm-beta0-no-perfect-expert", "winnow-noise-no-target"):
        _, _, tex = _md(rid)
        work = tmp_path / rid
        work.mkdir()
        rc, log = compile_tex(tex, work)
        assert rc == 0, f"{rid}: pdflatex failed:\n{log}"
        assert "Undefined control sequence" not in log, log
