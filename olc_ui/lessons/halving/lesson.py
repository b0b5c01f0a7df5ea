"""The Halving lesson: its settings, the class and stream they stand for, cached runs, and the panels.

The page script (pages/halving.py) reads like every lesson's four moves: settings from
the URL, a cached core run, a spec built by pure functions (olc_ui/lessons/halving/view.py),
render. Every number shown comes from ``olc_core``: the run, its proof, and
``olc_core.hypotheses.dimensions`` for VC(H) ≤ opt(H) ≤ M_Halving(H) ≤ log₂|H|.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import streamlit as st

import olc_core
from olc_core.hypotheses import (HalfPlanes, HypothesisClass, MonotoneConjunctions, MonotoneDisjunctions,
                                 Thresholds, dimensions)
from olc_core.streams.experts import target_concept

from olc_ui.lessons.halving.view import VOTE_ROWS_CAP, halving_spec, votes_drawn
from olc_ui.shared import caps, common, safe
from olc_ui.shared.config import Setting
from olc_ui.shared.transcript import PageSettings

__all__ = ["stop_run", "PAGE", "SETTINGS", "visible", "hypothesis_class", "adversary_stream", "Run", "load_run", "spec_for",
           "dimensions_for", "DIMENSIONS_MAX_H", "assumption_panel", "dimensions_panel", "proof_steps", "downloads"]

PAGE = "halving"
CLASSES = ("halfplanes", "thresholds", "conj", "disj")
CLASS_LABELS = {"halfplanes": "Half-planes through the origin (K angles)", "thresholds": "Thresholds on a line (K)",
                "conj": "Monotone conjunctions on n bits", "disj": "Monotone disjunctions on n bits"}
SETTINGS = [
    Setting("cls", "Hypothesis class H", "choice", "halfplanes", options=CLASSES, extra={"labels": CLASS_LABELS}),
    Setting("K", "Number of hypotheses K", "int", 32, lo=1, hi=720, step=1,
            help="half-planes: K normal directions 360°/K apart; thresholds: K values spread over [0, 1]"),
    Setting("n", "Number of bits n (|H| = 2ⁿ)", "int", 5, lo=1, hi=10, step=1,
            help="one hypothesis per set S of variables: x ↦ ∧ (or ∨) of the x_j, j ∈ S"),
    Setting("stream", "Stream", "choice", "random", options=("random", "adversary"),
            extra={"labels": {"random": "random instances, a random target",
                              "adversary": "an adversary: a mistake on every round it can"}},
            help="the adversary picks the instance that splits Hₜ most evenly and labels it against the vote, "
                 "for as long as some hypothesis agrees; then a target among the survivors labels the rest"),
    Setting("T", "Rounds T", "int", 50, lo=1, hi=500, step=1),
    Setting("noise", "Label noise", "float", 0.0, lo=0.0, hi=0.3, step=0.01,
            help="each label flipped with this probability: then usually no hypothesis of H is consistent "
                 "with every label, and the bound does not apply"),
    Setting("update", "Remove inconsistent hypotheses", "choice", "on_mistake", options=("on_mistake", "every_round"),
            extra={"labels": {"on_mistake": "on mistakes (Halving)", "every_round": "on every round"},
                   "horizontal": True},
            help="Halving [001] prunes only when it errs; pruning every round keeps exactly the consistent ones"),
    Setting("seed", "Seed (stream and target)", "int", 0, lo=0, hi=1_000_000, step=1, extra={"widget": "number"}),
]
#: Largest class whose VC / opt / M_Halving the page asks the core's brute force for (the search grows
#: exponentially: up to a few seconds at 63 hypotheses, up to a minute between 64 and 256; above 256
#: distinct hypotheses the core refuses at once, and the page shows its message).
DIMENSIONS_MAX_H = 63
DIMENSIONS_CORE_REFUSES = 256


def visible(v: dict[str, Any]) -> set[str]:
    """The settings whose widgets make sense for the chosen class."""
    size = {"K"} if v["cls"] in ("halfplanes", "thresholds") else {"n"}
    return {"cls", "stream", "T", "update", "seed"} | size | ({"noise"} if v["stream"] == "random" else set())


def hypothesis_class(cls: str, K: int, n: int) -> HypothesisClass:
    """The class of olc_core.hypotheses these settings stand for."""
    if cls == "halfplanes":
        return HalfPlanes(int(K))
    if cls == "thresholds":
        return Thresholds.grid(int(K))
    if cls == "conj":
        return MonotoneConjunctions(int(n))
    if cls == "disj":
        return MonotoneDisjunctions(int(n))
    raise ValueError(f"unknown class {cls!r}; choose one of {', '.join(CLASSES)}")


@dataclass(frozen=True)
class Run:
    """A stream from a target of H, Halving's run on it, and how many hypotheses stay consistent."""

    key: str
    H: HypothesisClass
    X: np.ndarray
    y: np.ndarray
    target: int
    target_text: str
    flipped: np.ndarray
    trace: Any
    consistent: np.ndarray  # per position p = 0 … T: hypotheses agreeing with the first p labels
    label: str
    forced: int | None = None  # adversary: the rounds it made Halving err on (the first ones)


def run_key(v: dict[str, Any]) -> str:
    size = f"K{v['K']}" if v["cls"] in ("halfplanes", "thresholds") else f"n{v['n']}"
    noise = 0.0 if v["stream"] == "adversary" else float(v["noise"])
    return f"{v['cls']}-{size}-{v['stream']}-T{v['T']}-e{noise:g}-s{v['seed']}-{v['update']}"


def adversary_stream(H: HypothesisClass, T: int, seed: int = 0):
    """A realisable stream on which Halving errs on every round while it can (a greedy adversary [001]).

    Each round the adversary picks, among the class's natural domain (every behaviour of H on an
    instance), one that splits the version space most evenly, and labels it *against* Halving's vote
    (the vote's rule: +1 when at least half say +1). The hypotheses that agree with that label (the
    minority, at most half) form the new version space, so every such round is a mistake and
    Halving's version space is exactly the adversary's. When no instance splits the survivors any more,
    one of them is the target and labels the remaining rounds (random instances, as
    ``olc_core.streams.experts.target_concept`` draws them). Same arguments ⇒ same stream.

    Returns ``(X, y, target, forced)``: ``forced`` is the number of adversarial rounds (the first ones).
    """
    D = H.natural_domain()
    labels = H.predict(D, np.arange(H.size)) > 0          # |D| × |H|: who says +1 where
    rng = np.random.default_rng([seed, 29])
    alive = np.arange(H.size)
    rows: list[int] = []
    ys: list[int] = []
    while len(rows) < T and alive.size >= 2:
        plus = labels[:, alive]
        n_plus = plus.sum(axis=1)
        says_plus = 2 * n_plus >= alive.size              # Halving's prediction on each instance
        minority = np.where(says_plus, alive.size - n_plus, n_plus)
        best = int(minority.max())
        if best == 0:                                     # the survivors agree everywhere
            break
        cands = np.flatnonzero(minority == best)
        j = int(cands[rng.integers(cands.size)])
        label = -1 if says_plus[j] else 1
        alive = alive[plus[j] == (label > 0)]
        rows.append(j)
        ys.append(label)
    target = int(alive[rng.integers(alive.size)])
    X = D[rows].reshape(len(rows), H.dim)
    y = np.asarray(ys, dtype=float)
    if len(rows) < T:
        rest = target_concept(H, T=T - len(rows), seed=seed, target=target)
        X = np.vstack([X, rest.X])
        y = np.concatenate([y, rest.y])
    return X, y, target, len(rows)


@st.cache_resource(max_entries=32, show_spinner=False)
def _load(cls: str, K: int, n: int, stream: str, T: int, noise: float, seed: int, update: str) -> Run:
    H = hypothesis_class(cls, K, n)
    forced = None
    if stream == "adversary":
        X, y, target, forced = adversary_stream(H, T, seed)
        flipped = np.zeros(T, dtype=bool)
        noise = 0.0
    else:
        s = target_concept(H, T=T, seed=seed, noise=noise)
        X, y, target, flipped = s.X, s.y, int(s.comparator), np.asarray(s.info["flipped"])
    trace = olc_core.run("halving", X, y, hypotheses=H, update=update)
    # the hypotheses consistent with every label so far are exactly the version space of the same
    # stream pruned on every round (olc_core.learners.halving): a second core run gives their count
    every = trace if update == "every_round" else olc_core.run("halving", X, y, hypotheses=H,
                                                              update="every_round")
    v = {"cls": cls, "K": K, "n": n, "stream": stream, "T": T, "noise": noise, "seed": seed, "update": update}
    size = f"K = {K}" if cls in ("halfplanes", "thresholds") else f"n = {n}"
    label = (f"{H.size} {H.name} ({size}), T = {T}" + (f", {noise:.0%} label noise" if noise else "")
             + (", adversarial stream" if forced is not None else ""))
    return Run(run_key(v), H, X, y, target, H.describe(target), flipped, trace, every.proof.per_round("size"),
               label, forced)


def load_run(v: dict[str, Any]) -> Run:
    """The cached stream and core run for these settings (ValueError with the core's message if refused)."""
    return _load(v["cls"], int(v["K"]), int(v["n"]), v["stream"], int(v["T"]), float(v["noise"]), int(v["seed"]),
                 v["update"])


@st.cache_resource(max_entries=16, show_spinner=False)
def _spec(run_id: str, _run: Run) -> dict:
    r = _run
    return halving_spec(r.trace, r.X, r.y, r.H, run_id=run_id, target=r.target, consistent=r.consistent,
                        title=f"Halving over {r.label}")


def spec_for(run: Run) -> dict:
    return _spec(run.key, run)


@st.cache_resource(max_entries=64, show_spinner=False)
def _dims(cls: str, K: int, n: int, update: str) -> tuple[Any, str]:
    H = hypothesis_class(cls, K, n)
    if DIMENSIONS_MAX_H < H.size <= DIMENSIONS_CORE_REFUSES:
        return None, (f"|H| = {H.size}: this page runs the exhaustive search only for classes of at most "
                      f"{DIMENSIONS_MAX_H} hypotheses (its cost grows exponentially: up to a minute here). "
                      "Choose a smaller K or n to see the numbers")
    try:
        return dimensions(H, update=update), ""
    except ValueError as exc:  # the core refuses classes too big for brute force, and says why
        return None, str(exc)


def dimensions_for(v: dict[str, Any]) -> tuple[Any, str]:
    """``(olc_core.hypotheses.Dimensions, "")`` for the chosen class and update, or ``(None, message)``."""
    return _dims(v["cls"], int(v["K"]), int(v["n"]), v["update"])


# ------------------------------------------------------------------------------------------ panels

def _times(n: int) -> str:
    """'once', '2 times': how often a learner errs."""
    return "once" if n == 1 else f"{n} times"


def assumption_panel(run: Run) -> None:
    """Realisable or not: the measured numbers and the verdict, with the rounds that matter."""
    tr = run.trace
    p = tr.proof
    c = p.constants
    sizes = p.series["size"]
    with st.container(border=True):
        st.markdown("#### What the run did, and does the theorem apply?")
        cols = st.columns(5)
        cols[0].metric("|H| (hypotheses)", f"{c['H_size']}")
        cols[1].metric("Bound log₂|H|", f"{c['log2_H']:.4g}" if p.mistake_bound is not None else "n/a",
                       help=None if p.applies else "does not apply: no hypothesis of H agrees with every label")
        cols[2].metric("Mistakes M (whole run)", f"{tr.n_mistakes}")
        cols[3].metric("Left at the end", f"{int(sizes[-1])}", help="|H_{T+1}|: the version space after the last round")
        cols[4].metric("Consistent", f"{c['n_consistent']}", help="hypotheses of H that agree with every label")
        if run.forced is None:
            st.markdown(f"Target $h^*$: **{run.target_text}** (hypothesis {run.target + 1} of {c['H_size']}, drawn "
                        f"from the seed). Ties of the vote (and an empty version space) predict $+1$, "
                        "as [001]'s Weighted Majority rule $\\hat y = 1[W^+ \\ge W^-]$ does at $\\beta = 0$.")
        else:
            st.markdown(
                f"**Adversarial stream.** On each of the first **{run.forced}** rounds the adversary showed the "
                "instance that splits $H_t$ most evenly and gave it the label the majority did *not* vote for: "
                f"Halving erred every time and kept only the minority. Then a survivor, **{run.target_text}**, "
                "became the target and labels the rest — so the stream is realisable and the theorem applies. "
                "Ties of the vote predict $+1$, as [001]'s Weighted Majority rule $\\hat y = 1[W^+ \\ge W^-]$ does "
                "at $\\beta = 0$.")
        if c["H_size"] == 1:
            st.info("|H| = 1: there is nothing to learn. The only hypothesis casts the whole vote, so Halving "
                    "predicts with it from the first round; on labels it fits, M ≤ log₂1 = 0.")
        if p.applies:
            st.success(
                f"Realisable: the target labels every round, so it is never removed and $|H_t| \\ge 1$ throughout. "
                f"Each mistake removes at least half of $H_t$, so $1 \\le |H|/2^M$: Halving makes at most "
                f"$\\log_2|H| = \\log_2 {c['H_size']} = {c['log2_H']:.4g}$ mistakes on **any** stream labelled by a "
                f"hypothesis of $H$. It made **{tr.n_mistakes}**.")
        else:
            a = p.failed_assumptions[0]
            r = int(a.rounds[0]) if len(a.rounds) else None
            flipped = np.flatnonzero(run.flipped)
            st.error(
                "The labels are noisy: **no hypothesis of H is consistent with all of them**, so the bound "
                "$M \\le \\log_2|H|$ **does not apply** (its first step, “the target is never removed”, fails). "
                + (f"The hypotheses consistent with every label so far run out on round **{r + 1}**: that is where "
                   "a version space pruned on every round becomes empty. " if r is not None else "")
                + (f"Flipped labels: rounds {common.rounds_text(flipped)}." if flipped.size else ""))
            empty = np.flatnonzero(sizes == 0)
            if empty.size:
                k = int(empty[0])
                how = "on every round" if tr.params["update"] == "every_round" else "on mistakes"
                st.markdown(
                    f"Halving's own version space (pruned {how}) "
                    f"became empty after round **{int(p.state_rounds[k])}**, after {int(p.n_mistakes[k])} mistakes; "
                    f"from then on the vote is a tie, it predicts $+1$ and errs on every negative label "
                    f"({tr.n_mistakes} mistakes in all). From there $1 \\le |H_t|$ is false: the ledger marks it n/a (not "
                    "claimed), as it needs labels that some hypothesis gives.")
            else:
                st.markdown("Halving's own version space is not empty at the end (it prunes only on mistakes), "
                            "but it no longer contains a hypothesis consistent with every label.")
        if not votes_drawn(tr, run.H):
            st.caption("The grid does not draw each hypothesis' vote for this run (too many hypothesis-rounds to "
                       "ship to the browser); the caption gives the vote counts.")


def dimensions_latex(vc: int, opt: int, halving: int, size: int, log2_size: float, holds: bool) -> str:
    """VC(H) ≤ opt(H) ≤ M_Halving(H) ≤ log₂|H| as display maths, one number a line, each "≤" at the left (no wider
    than its widest line: a phone's column holds it).

    >>> print(dimensions_latex(2, 5, 5, 32, 5.0, True))  # doctest: +ELLIPSIS
    $$\\begin{aligned} & \\mathrm{VC}(H) = 2 \\\\ \\le\\; & \\mathrm{opt}(H) = 5 \\\\ ... = 5 \\quad \\checkmark \\end{aligned}$$
    """
    mark = "\\checkmark" if holds else "\\times"
    return (f"$$\\begin{{aligned}} & \\mathrm{{VC}}(H) = {vc} \\\\ \\le\\; & \\mathrm{{opt}}(H) = {opt} \\\\ \\le\\; & "
            f"M_{{\\mathrm{{Halving}}}}(H) = {halving} \\\\ \\le\\; & \\log_2|H| = \\log_2 {size} = {log2_size:.4g} "
            f"\\quad {mark} \\end{{aligned}}$$")


def dimensions_panel(v: dict[str, Any], run: Run) -> None:
    """VC(H) ≤ opt(H) ≤ M_Halving(H) ≤ log₂|H| with the core's numbers, or the core's refusal."""
    with st.container(border=True):
        st.markdown("#### How hard is this class? $\\mathrm{VC}(H) \\le \\mathrm{opt}(H) \\le "
                    "M_{\\mathrm{Halving}}(H) \\le \\log_2|H|$")
        with st.spinner("Exhaustive search for VC(H), opt(H) and Halving's worst case…"):
            d, msg = dimensions_for(v)
        if d is None:
            safe.notice("info", "Not computed for this class: ", f"{msg}.")
            return
        # one number a line, each "≤" at the left: on one line it is wider than a laptop's column (653 px in 608) and
        # scrolls, out of a keyboard's reach (WCAG 2.1.1; issue 23 §1); aligned after "VC(H) = …" its widest line ran
        # 26 px out of a phone's column (350 px in 326; issue 25). Markdown, not st.latex: st.latex's box hugs the
        # formula, which KaTeX's aligned overhangs by 2 px, so it scrolled even on three lines.
        st.markdown(dimensions_latex(d.vc, d.opt, d.halving, d.size, d.log2_size, d.holds))
        upd = "on mistakes" if d.update == "on_mistake" else "on every round"
        st.markdown(
            f"- $\\mathrm{{VC}}(H) = {d.vc}$: the largest set of instances on which $H$ realises all "
            f"$2^{{{d.vc}}}$ labellings. An adversary can label those instances against any learner: "
            f"every deterministic learner errs {_times(d.vc)} (a randomised one, "
            f"$\\mathrm{{VC}}(H)/2 = {d.vc / 2:g}$ in expectation).\n"
            f"- $\\mathrm{{opt}}(H) = {d.opt}$ (the Littlestone dimension): the mistakes the **best** deterministic "
            "learner must make against the worst realisable stream.\n"
            f"- $M_{{\\mathrm{{Halving}}}}(H) = {d.halving}$: Halving's worst case (pruning {upd}), an adversary "
            "choosing instances and labels against its vote while some hypothesis stays consistent.\n"
            f"- $\\log_2|H| = {d.log2_size:.4g}$: the theorem's bound.\n\n"
            f"All four numbers are computed for this class by exhaustive search on the {d.domain}"
            f" ({d.n_distinct} distinct hypotheses, {d.n_points} points).")
        tr = run.trace
        if tr.proof.applies:
            if run.forced is not None:
                how = ("the adversary attained Halving's worst case" if tr.n_mistakes == d.halving else
                       "a greedy adversary (most even split each round) need not reach the worst case")
            else:
                how = "a random stream is rarely the worst one; choose the adversary's stream to see it"
            st.markdown(f"This run: $M = {tr.n_mistakes} \\le M_{{\\mathrm{{Halving}}}}(H) = {d.halving}$ — {how}.")


def proof_steps(run: Run) -> None:
    c = run.trace.proof.constants
    Hs = c["H_size"]
    st.markdown(
        "1. **Potential.** The size $|H_t|$ of the version space; $H_1 = H$.\n"
        "2. **Upper bound.** On a mistake, the majority of $H_t$ voted for the wrong label (a tie predicts $+1$, "
        "so the predicted side holds at least half), and that majority is removed: $|H_{t+1}| \\le |H_t|/2$. "
        "Other rounds never add a hypothesis. So after $M$ mistakes "
        f"$|H_t| \\le |H|/2^M = {Hs}/2^M$.\n"
        "3. **Lower bound.** If the target $h^* \\in H$ labels every round, it never votes wrong, is never "
        "removed, and $|H_t| \\ge 1$."
        + ("".join(" **Here no hypothesis labels every round** (" + safe.md(a.detail) + "): this step does not "
                   "hold on this run." for a in run.trace.proof.failed_assumptions)) + "\n"
        f"4. **Combine:** $1 \\le {Hs}/2^M$, i.e. $2^M \\le {Hs}$, so $M \\le \\log_2 {Hs} = {c['log2_H']:.4g}$"
        + ("." if run.trace.proof.mistake_bound is not None else
           " — but not for these labels: step 3 needs a consistent hypothesis, and there is none.")
        + "\n\nHalving is Weighted Majority with $\\beta = 0$: a wrong hypothesis's weight becomes $0$.")


def downloads(run: Run, spec: dict, position: int) -> None:
    common.downloads(run.trace, spec, position, "halving", run.X, run.y, settings=TRANSCRIPT)


#: the page's drawing cap, stated under its viewer (olc_ui/shared/caps.py)
CAP = caps.text(f"at most 500 rounds; each hypothesis' vote drawn while the rounds' version spaces hold at most "
                 f"{VOTE_ROWS_CAP:,} hypotheses in all")


#: what the page tells the proof transcript and the download names (olc_ui/shared/transcript.py)
TRANSCRIPT = PageSettings(SETTINGS, lambda v, trace: visible(v))


def stop_run(v: dict[str, Any]) -> tuple[dict, Any]:
    """The spec and the run this page shows for the settings ``v`` (every setting of its link, decoded; no upload):
    a tour's stop as its offline file carries it (olc_ui/shared/tours/offline.py) — the calls pages/halving.py makes
    (tests/tours/test_tour_offline.py checks the spec against the page's at every shipped stop)."""
    run = load_run(v)
    return spec_for(run), run.trace
