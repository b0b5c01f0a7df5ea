"""The proof transcript (olc_core.transcript): hand-checked tiny runs, every learner through the
conformance cases, the mistake cap, a failing proof, escaping of untrusted text, file names, and
the LaTeX compiled when a TeX engine is installed."""
from __future__ import annotations

import math
import re
from types import SimpleNamespace

import numpy as np
import pytest

import olc_core
from olc_core import transcript
from olc_core._transcript.record import side
from olc_core._transcript.texdoc import clip, md_text, num, tex_text
from olc_core.proofs.base import Chain, Proof
from tests.core.cases import all_cases
from tests.core.transcript_tools import compile_tex, math_segments, section, tex_engine
from tests.hostile import HOSTILE, unescaped

CASES = all_cases()


def _run(case, seed=0):
    X, y, params = case.make(seed)
    return olc_core.run(case.algorithm, X, y, **params)


# ------------------------------------------------------------------------------ hand-checked runs

def test_tiny_perceptron_transcript_has_the_hand_computed_numbers():
    # x1 = (2, 0), x2 = (0, 1), both +1, w* = (0.6, 0.8): margins 1.2 and 0.8, so γ = 0.8, R = 2,
    # bound R²/γ² = 6.25. Round 1: w = 0 predicts 0, a mistake: w = (2, 0), ⟨w*,w⟩ = 1.2, ‖w‖ = 2.
    # Round 2: ⟨w, x2⟩ = 0, a mistake: w = (2, 1), ⟨w*,w⟩ = 2, ‖w‖ = √5, √M·R = 2√2.
    tr = olc_core.run("perceptron", [[2.0, 0.0], [0.0, 1.0]], [1, 1], comparator=[0.6, 0.8])
    md = transcript.markdown(tr, page="perceptron")
    assert "On this run the bound is $M \\le 6.25$." in md
    m1 = section(md, "### Mistake 1: round 1")
    for line in (r"&M\gamma = 0.8 \\", r"\le\ &\langle w^*, w\rangle = 1.2 \\", r"\le\ &\lVert w\rVert = 2 \\",
                 r"\le\ &\sqrt{M}\,R = 2", r"&\sqrt{M}\,\gamma/R = 0.4 \\", r"\le\ &\cos\angle(w, w^*) = 0.6 \\"):
        assert line in m1, line
    m2 = section(md, "### Mistake 2: round 2")
    for line in (r"&M\gamma = 1.6 \\", r"\le\ &\langle w^*, w\rangle = 2 \\",
                 rf"\le\ &\lVert w\rVert = {num(math.sqrt(5))} \\", rf"\le\ &\sqrt{{M}}\,R = {num(2 * math.sqrt(2))}",
                 rf"\le\ &\cos\angle(w, w^*) = {num(2 / math.sqrt(5))} \\"):
        assert line in m2, line
    assert num(math.sqrt(5)) == "2.23607" and num(2 * math.sqrt(2)) == "2.82843"
    # … and they are the trace's numbers
    p = tr.proof
    k = p.index(2)
    assert [num(p.series[s][k]) for s in ("M_gamma", "inner", "norm", "sqrtM_R")] == ["1.6", "2", "2.23607", "2.82843"]
    assert "After all $T = 2$ rounds, $M = 2 \\le 6.25$: the bound holds on this run (32.0% of the bound)" in md
    # the cosine is 0/0 before round 1 (w = 0): not "all 6 hold in every state", but what was checked
    assert "### Mistake 3" not in md and "All 6 inequalities" not in md
    whole = section(md, "## Checks over the whole run")
    assert ("cosine potential (B): $\\cos\\angle(w, w^*) \\le 1$: evaluated and held in 2 of the 3 states; could not "
            "be evaluated in 1 state, a side not being a number (w = 0: the cosine of its angle with w\\* is 0/0) "
            "(first before round 1).") in whole
    assert "In all: 16 checks evaluated and held; 2 checks could not be evaluated on these data" in whole
    holds = section(md, "### Its assumptions")
    assert (r"\ge \gamma > 0 \text{ for every round } t$: holds on these data (γ = 0.8, the smallest y⟨w\*,x⟩ over "
            "the rounds).") in holds


def test_tiny_weighted_majority_transcript_has_the_hand_computed_numbers():
    # 3 experts, β = ½, on-mistake updates. Round 1: advice (+, −, −), y = +: weight 1 vs 2, predict −,
    # mistake, w = (1, ½, ½). Round 2: (−, +, −), y = +: ½ vs 3/2, mistake, w = (½, ½, ¼).
    # Round 3: (+, +, −), y = −: 1 vs ¼, mistake, w = (¼, ¼, ¼), Φ = ¾. Each expert erred twice: m* = 2.
    A = np.array([[1, -1, -1], [-1, 1, -1], [1, 1, -1]])
    tr = olc_core.run("weighted_majority", A, np.array([1, 1, -1]), beta=0.5)
    assert tr.mistakes.tolist() == [0, 1, 2]
    md = transcript.markdown(tr, page="experts")
    bound = (math.log(3) + 2 * math.log(2)) / math.log(2 / 1.5)
    assert f"On this run the bound is $M \\le {num(bound)}$." in md and num(bound) == "8.63768"
    expected = {  # mistake: (ln w_i*, ln Φ, ln of the upper curve N((1+β)/2)^M)
        1: (math.log(1.0), math.log(2.0), math.log(3 * 0.75)),
        2: (math.log(0.5), math.log(1.25), math.log(3 * 0.75 ** 2)),
        3: (math.log(0.25), math.log(0.75), math.log(3 * 0.75 ** 3)),
    }
    p = tr.proof
    for i, (lw, lphi, lup) in expected.items():
        part = section(md, f"### Mistake {i}: round {i}")
        assert rf"\le\ &\ln\bigl(w_{{i^*}}\bigr) = {num(lw)} \\" in part
        assert rf"\le\ &\ln\bigl(\Phi_t\bigr) = {num(lphi)} \\" in part
        assert rf"\le\ &\ln\bigl(N\left(\tfrac{{1+\beta}}{{2}}\right)^{{M}}\bigr) = {num(lup)}" in part
        k = p.index(i)
        assert np.allclose([p.series["log_w_best"][k], p.series["log_phi"][k], p.series["upper"][k]],
                           [lw, lphi, lup], rtol=1e-12, atol=1e-12)
    assert num(math.log(0.75)) == "-0.287682" and num(math.log(3 * 0.75 ** 3)) == "0.235566"
    assert f"$M = 3 \\le {num(bound)}$: the bound holds on this run" in md
    assert "Weighted Majority (η form)" in section(md, "## Other theorems checked on this run")


# ------------------------------------------------------------------------------ every learner

@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_every_learner_writes_its_proof_with_the_trace_numbers(case):
    tr = _run(case)
    p = transcript.written_proof(tr)
    md = transcript.markdown(tr, page=case.id)
    tex = transcript.latex(tr, page=case.id)
    assert tex.isascii() and "\\begin{document}" in tex and tex.rstrip().endswith("\\end{document}")
    assert p.theorem in md and p.theorem in tex
    assert md_text(p.name) in md and tex_text(p.name) in tex
    word = "Update" if case.algorithm == "margin_perceptron" else "Mistake"
    shown = min(tr.n_mistakes, transcript.MAX_MISTAKES)
    for i, r in enumerate(tr.mistakes[:shown]):
        heading = f"### {word} {i + 1}: round {int(r) + 1}"
        part = section(md, heading)
        k = p.index(int(r) + 1)
        for ch in p.chains:  # each side of each chain, with the trace's number in that state
            for key in ch.keys:
                assert f"{side(p, key, ch.log)} = {num(p.series[key][k])}" in part, (heading, key)
    assert f"### {word} {shown + 1}:" not in md
    segments = math_segments(md)
    assert segments and all(s.strip() for s, _ in segments)
    final = p.series[p.bounded][p.K - 1]
    concl = section(md, "## Conclusion")
    assert f"{transcript._bounded_label(p)} = {num(final)}" in concl
    if p.mistake_bound is not None:  # a strict theorem (Winnow's M < …) is written with <
        rel = "<" if p.bound_strict else "\\le"
        assert f"{rel} {num(p.mistake_bound)}" in concl and "the bound holds on this run" in concl
    assert not p.violations() and not p.summary().defect
    whole = section(md, "## Checks over the whole run")
    assert ("All " in whole) == p.summary().all_hold and "defect" not in md


def test_a_long_run_is_cut_at_the_cap_and_says_what_was_cut():
    s = olc_core.streams.separable(T=400, d=2, gamma=0.02, radius=1.0, seed=1)
    tr = olc_core.run("perceptron", s.X, s.y, comparator=s.comparator)
    M = tr.n_mistakes
    assert M > 5
    md = transcript.markdown(tr, max_mistakes=3)
    assert "### Mistake 3:" in md and "### Mistake 4:" not in md
    r = tr.mistakes
    assert (f"Not written out: mistakes 4 to {M} ({M - 3} more, rounds {int(r[3]) + 1} to {int(r[-1]) + 1})."
            in md)
    assert f"after each of the first 3 of the {M} mistakes" in md


def test_a_failing_assumption_writes_the_proof_that_applies_and_says_why():
    # (1, 0) labelled +1 and −1: no separator; the TD_γ proof is written out instead
    tr = olc_core.run("perceptron", [[1.0, 0.0], [1.0, 0.0], [0.0, 1.0]], [1, -1, 1])
    assert not tr.proof.applies
    p = transcript.written_proof(tr)
    assert p is not tr.proof and p.applies
    md = transcript.markdown(tr)
    assert md.startswith(f"# Proof transcript: {md_text(p.name)}")
    others = section(md, "## Other theorems checked on this run")
    assert "Perceptron, separable data" in others and "no bound (failing assumption: " in others


def _fake_trace(proof: Proof):
    return SimpleNamespace(algorithm="toy", params={"beta": 0.5}, T=proof.T, d=1, mistakes=np.array([1]),
                           n_mistakes=1, proof=proof, proofs={"toy": proof})


def test_a_failing_inequality_is_marked_and_listed():
    p = Proof(name="toy", theorem=r"M \le 2", T=3, state_rounds=np.array([0, 2]), n_mistakes=np.array([0, 1]),
              series={"lo": np.array([0.0, 1.0]), "phi": np.array([0.0, 0.5])},
              chains=(Chain("toy", ("lo", "phi")),), mistake_bound=2.0)
    md = transcript.markdown(_fake_trace(p))
    part = section(md, "### Mistake 1: round 2")
    assert r"\overset{\text{FAILS}}{>}\ &\mathrm{phi} = 0.5" in part
    assert "FAILS here: 1 step the proof claims on these data is false" in part
    assert r"toy: $\mathrm{lo} > \mathrm{phi}$ (lo ≤ phi: 1.0 vs 0.5)." in part
    assert "1 check fails" in md and r"after round 2, toy: $1 > 0.5$ (lo ≤ phi)" in md
    assert "Some inequalities the proof claims on these data failed" in section(md, "## Conclusion")
    assert "a defect to report" in section(md, "## Conclusion")


def test_a_failing_assumption_claims_no_bound():
    from olc_core.proofs.base import Assumption
    p = Proof(name="toy", theorem=r"M \le 2", T=3, state_rounds=np.array([0, 2]), n_mistakes=np.array([0, 1]),
              series={"lo": np.array([0.0, 0.5]), "phi": np.array([0.0, 1.0])}, chains=(Chain("toy", ("lo", "phi")),),
              assumptions=(Assumption("margin", r"\gamma > 0", False, np.array([1, 2]), "round 2 has margin −1"),),
              mistake_bound=2.0)
    md = transcript.markdown(_fake_trace(p))
    assert r"$\gamma > 0$: FAILS on 2 rounds (2, 3): round 2 has margin −1." in md
    assert "it gives no bound for this run, and none is claimed" in section(md, "## Conclusion")
    assert "On this run the bound is" not in md


# ------------------------------------------------------------------------------ untrusted text

_HOSTILE_PLUS = HOSTILE + ("Ünïcødé 中文 γ≤1\u202e\u0000 \\input{/etc/passwd} \\\\ % # & ~ ^ _ { }",
                           "1. a list?", "- item", "line\nbreak\r\n# heading", "`code` | a | b |")
_TEX_SAFE = re.compile(
    r"\\(?:textbackslash|textasciicircum|textasciitilde|textless|textgreater|textbar|ldots|textbullet|ss|ae|o|oe|aa"
    r"|AE|O|OE|AA|l|L|i|S|P|copyright)\{\}"
    r"|\\[{}$&#%_]"
    r"|\\ensuremath\{(?:\\[A-Za-z]+(?:\{[A-Z]\})?|[-*|]|\^\\circ)\}"
    r"|\\text(?:super|sub)script\{[0-9A-Za-z+-]\}"
    r"|\\['`^\"~cvu=.rHk]\{\\?[A-Za-z]\}")


def _tex_inert(s: str) -> bool:
    """No LaTeX command, group, maths, alignment, comment or parameter is left once the escapes the
    renderer writes are removed."""
    rest = _TEX_SAFE.sub("", s)
    return not any(c in rest for c in "\\{}$&#%^_~")


@pytest.mark.parametrize("h", _HOSTILE_PLUS)
def test_untrusted_text_is_inert_in_both_formats(h):
    assert not unescaped(md_text(clip(h)))
    assert _tex_inert(tex_text(clip(h))) and tex_text(clip(h)).isascii()
    tr = olc_core.run("perceptron", [[1.0, 0.0], [0.0, 1.0]], [1, -1])
    ctx = {"page": h, "title": h, "data": h, "settings": {"data": h, h[:30]: h, "seed": h}, "source": h}
    md = transcript.markdown(tr, **ctx)
    plain = transcript.markdown(tr, page="p", title="p", data="p", settings={"data": "p", "x": "p", "seed": "p"},
                                source="p")
    assert not unescaped(md)
    assert math_segments(md) == math_segments(plain)  # no maths of their own
    assert md.count("\n#") == plain.count("\n#")        # no heading of their own
    assert [ln[:2] for ln in md.splitlines()] == [ln[:2] for ln in plain.splitlines()]  # no line of their own
    tex = transcript.latex(tr, **ctx)
    assert tex.isascii() and "\\input" not in tex.replace("\\textbackslash{}input", "")
    setting = tex[tex.index("\\subsection*{The setting}"):tex.index("\\subsection*{The theorem}")]
    for line in setting.splitlines():
        if h[:5] in line or tex_text(clip(h))[:12] in line:
            assert _tex_inert(line.split(": ", 1)[-1]), line


def test_file_names_carry_the_page_and_settings_and_nothing_else():
    assert transcript.file_name("perceptron", {"gamma": 0.1, "seed": 3}, "md") == "perceptron-gamma0.1-seed3-proof.md"
    assert transcript.file_name("experts_weighted_majority", {}, "tex") == "experts_weighted_majority-proof.tex"
    assert transcript.file_name("winnow", {"beta": "0.5"}, "csv", what="trace") == "winnow-beta0.5-trace.csv"
    for h in _HOSTILE_PLUS:
        name = transcript.file_name(h, {h: h, "seed": h}, h)
        assert re.fullmatch(r"[A-Za-z0-9._-]+", name) and len(name) <= 140, name
        assert ".." not in name.replace("...", "") or "/" not in name


# ------------------------------------------------------------------------------ LaTeX compiles

@pytest.mark.skipif(tex_engine() is None, reason="no TeX engine (pdflatex) installed: scripts/test.sh installs "
                    "texlive-latex-base on a fresh machine; here the LaTeX transcripts are not compiled")
def test_the_latex_compiles_for_every_learner_and_hostile_text(tmp_path):
    seen: set[str] = set()
    for case in CASES:
        if case.algorithm in seen:
            continue
        seen.add(case.algorithm)
        tex = transcript.latex(_run(case), page=case.id, title=HOSTILE[3], data=HOSTILE[0],
                               settings={"data": HOSTILE[5], "seed": "3"}, source=_HOSTILE_PLUS[-5])
        work = tmp_path / case.id
        work.mkdir()
        rc, log = compile_tex(tex, work)
        assert rc == 0, f"{case.id}: pdflatex failed:\n{log}"
        assert (work / "transcript.pdf").stat().st_size > 1000
        assert "Undefined control sequence" not in log and "Missing character" not in log, log
    assert seen == set(olc_core.ALGORITHMS)


def test_steps_that_need_a_failed_assumption_are_not_applicable_not_failures():
    from olc_core.proofs.base import Assumption
    p = Proof(name="toy", theorem=r"M \le 2", T=3, state_rounds=np.array([0, 2]), n_mistakes=np.array([0, 1]),
              series={"lo": np.array([0.0, 1.0]), "phi": np.array([0.0, 0.5])},
              chains=(Chain("toy", ("lo", "phi"), needs=("target",)),),
              assumptions=(Assumption("target", r"y = c(x)", False, np.array([1]), "round 2 is mislabelled"),))
    md = transcript.markdown(_fake_trace(p))
    part = section(md, "### Mistake 1: round 2")
    # 1 ≤ 0.5 is false: written with the relation that holds, and said to fail (not claimed here)
    assert r"\overset{\text{n/a: fails}}{>}\ &\mathrm{phi} = 0.5" in part and "FAILS" not in part
    assert "Every inequality above holds" not in part
    assert (r"1 fails here (marked n/a: fails, written with the relation that holds): toy: $\mathrm{lo} > \mathrm{phi}$ "
            r"(its claim: $\le$); it needs 'target', which fails on these data, so the proof does not claim it here."
            in part)
    whole = section(md, "## Checks over the whole run")
    assert ("toy: $\\mathrm{lo} \\le \\mathrm{phi}$: not applicable in all 2 states: it needs 'target', which fails on "
            "these data, so the proof does not claim it here (not counted as a failure); its numbers satisfy it in 1 "
            "state; they do not in 1 state (first after round 2).") in whole
    assert "check fails" not in whole and "In all: 2 checks not applicable" in whole
    concl = section(md, "## Conclusion")
    assert "Its checks: 2 checks not applicable" in concl and "defect" not in md
