"""The transcripts' wording: prose carries no TeX markup (maths travels in Math pieces), the theorems
say what they mean, variables and experts are numbered from 1 as on the pages."""
from __future__ import annotations

import re

import numpy as np
import pytest

import olc_core
from olc_core import transcript
from olc_core._transcript.texdoc import Math, num
from olc_core.proofs import normalized_winnow, winnow
from tests.core.test_transcript_relations import RUNS

_TEX_IN_PROSE = re.compile(r"\^\{|_\{|\\[A-Za-z]+|\$")


def _prose(doc: list) -> list[str]:
    """Every plain-text piece of a transcript document (headings, paragraphs, list items)."""
    out: list[str] = []
    for block in doc:
        if block[0] == "h":
            pieces = block[2]
        elif block[0] == "p":
            pieces = block[1]
        elif block[0] == "ul":
            pieces = [p for item in block[1] for p in item]
        else:
            continue
        out += [p for p in pieces if not isinstance(p, Math)]
    return out


@pytest.mark.parametrize("rid,algorithm,X,y,params", RUNS, ids=[r[0] for r in RUNS])
def test_no_prose_piece_carries_tex_markup(rid, algorithm, X, y, params):
    tr = olc_core.run(algorithm, X, y, **params)
    # the proofs' reasons use the pages' light index notation (Φ_{t+1}, drawn as sub/superscripts there):
    # the transcript writes them as plain Unicode text
    doc = transcript.document(tr, page=rid, settings={"seed": "3"})
    bad = {s for s in _prose(doc) if _TEX_IN_PROSE.search(s)}
    tex = transcript.latex(tr, page=rid)
    bad |= set(re.findall(r"[^\n]{0,40}\\textasciicircum\{\}\\\{[^\n]{0,40}", tex))
    assert not bad, "\n".join(sorted(bad))


def test_the_exponentiated_update_theorem_bounds_ln_n_over_c_not_c():
    t = normalized_winnow.THEOREM
    assert r"\frac{\ln N}{C} \le \frac{2\ln N}{\delta^2}" in t and r"C \ge \delta^2/2" in t
    assert not re.search(r"\\ln\\frac\{e\^\\eta \+ e\^\{-\\eta\}\}\{2\}\s*\\;\\;\(\\le", t)
    # and it is true: at η = artanh δ, C ≥ δ²/2, so ln N / C ≤ 2 ln N/δ²
    for delta in (0.01, 0.1, 1 / 3, 0.6, 0.9):
        C = normalized_winnow.C_of(normalized_winnow.eta_optimal(delta), delta)
        assert C >= delta ** 2 / 2 and np.log(20) / C <= 2 * np.log(20) / delta ** 2


def test_winnow_promotion_reason_is_an_implication():
    s = olc_core.streams.sparse_disjunction(T=120, N=16, k=2, seed=0)
    tr = olc_core.run("winnow", s.X, s.y, beta=1.0, comparator=s.comparator)
    cap = next(ch for ch in tr.proof.chains if ch.name == "weight cap").reasons[1]
    assert "i.e." not in cap
    assert "so its weight before the promotion is at most" in cap
    assert winnow.THEOREM.startswith("M <")


def test_other_theorems_say_which_gamma_their_bound_uses():
    # the compare page's Perceptron (sparse preset): the TD_γ bound picks its own γ, below R²/γ² at the measured γ
    from olc_core.streams.compare import dense_instances, views
    s = dense_instances(T=300, N=100, k=5, seed=0)
    v = views(s)["perceptron"]
    tr = olc_core.run("perceptron", v.X, v.y, comparator=v.comparator)
    p, td = tr.proof, tr.proofs["nonseparable"]
    assert td.constants["gamma"] != p.constants["gamma"] and td.mistake_bound < p.mistake_bound
    md = transcript.markdown(tr)
    others = md[md.index("## Other theorems"):]
    g, g0 = num(td.constants["gamma"]), num(p.constants["gamma"])
    assert (f"bound $M \\le {num(td.mistake_bound)}$ (at $\\gamma = {g}$, the γ in (0, R\\] that makes this bound "
            f"smallest; the proof written out above uses $\\gamma = {g0}$)") in others
    # with the same γ nothing is added
    tr = olc_core.run("perceptron", v.X, v.y, comparator=v.comparator, gamma=p.constants["gamma"])
    others = transcript.markdown(tr)
    assert "the proof written out above uses" not in others[others.index("## Other theorems"):]


def test_variables_and_experts_are_numbered_from_1_as_on_the_pages():
    s = olc_core.streams.sparse_disjunction(T=120, N=16, k=2, seed=0)
    tr = olc_core.run("winnow", s.X, s.y, beta=1.0, comparator=s.comparator)
    rel = [int(i) for i in tr.proof.constants["relevant"]]
    md = transcript.markdown(tr)
    names = ", ".join(f"x_{{{i + 1}}}" for i in rel)   # the page's ledger: relevant variable x_{i+1}
    assert f"- relevant: ${names}$ (2 variables, numbered from 1)" in md
    assert f"- Parameter comparator: ${names}$" in md
    assert f"({rel[0]}, {rel[1]})" not in md
    from olc_core.streams.experts import experts
    s = experts(T=60, N=7, error_rates=[0.5, 0.05, 0.1, 0.2, 0.3, 0.4, 0.45], seed=0)
    for alg, params in (("weighted_majority", {"beta": 0.5}), ("randomized_weighted_majority", {"eta": 0.4})):
        tr = olc_core.run(alg, s.X.astype(float), s.y, **params)
        i = tr.proof.constants["best_expert"]
        md = transcript.markdown(tr)
        assert f"- best\\_expert: expert {i + 1} (numbered from 1)" in md   # the page: "i* = expert {i + 1}"
        assert f"best\\_expert = ${i}$" not in md


def _eg_noisy():
    from olc_core.streams import sparse_simplex
    import inspect
    kw = {k: v for k, v in dict(T=200, N=20, k=3, noise=0.1, seed=0).items()
          if k in inspect.signature(sparse_simplex).parameters}
    s = sparse_simplex(**kw)
    # δ = 1/k given, as the page gives it (the stream's margin before the labels were flipped)
    return olc_core.run("normalized_winnow", s.X, s.y, comparator=s.comparator, delta=1 / 3)


def test_the_margin_check_is_the_assumption_itself_not_na_for_want_of_itself():
    """The exponentiated update's "margin on mistakes" chain is the margin assumption's own test: where it
    holds it is a plain ≤ (not "n/a: needs 'margin'", which is circular), where it fails it reads
    "assumption fails" with the relation that holds; the sentence names the assumption."""
    tr = _eg_noisy()
    assert not tr.proof.applies
    md = transcript.markdown(tr)
    blocks = [b for b in md.split("margin on mistakes:")[1:] if b.lstrip().startswith("$$")]
    assert len(blocks) == min(tr.n_mistakes, transcript.MAX_MISTAKES) + 1
    assert not any("n/a" in b.split("$$")[1] for b in blocks), "the margin check marked n/a"
    assert any(r"\overset{\text{assumption fails}}{>}" in b.split("$$")[1] for b in blocks)
    assert any(re.search(r"\n\\le\\ &y_t", b.split("$$")[1]) for b in blocks)
    assert "is the theorem's assumption 'margin' itself, false in this state" in md
    # violations() is unchanged: the failing margin checks are still reported, as needing 'margin'
    assert any(v.chain == "margin on mistakes" and v.needs for v in tr.proof.violations())


def test_a_sparse_comparator_is_written_by_its_support():
    tr = _eg_noisy()
    u = np.asarray(tr.params["comparator"], dtype=float)
    md = transcript.markdown(tr)
    line = next(ln for ln in md.splitlines() if ln.startswith("- Parameter comparator"))
    for i in np.flatnonzero(u):
        assert f"(i = {i + 1})" in line
    assert f"the other {u.size - np.count_nonzero(u)} of its {u.size} entries are 0" in line
    assert "0, 0, 0" not in line
