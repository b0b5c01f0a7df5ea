"""The mistake-bound lesson ([004] §2): settings, cached runs, panels, and the two adversary games.

The page script (pages/boolean_concepts.py) has four parts, chosen with ``mode``:
the conjunction learner and the decision-list learner (settings from the URL → a
cached core run → a spec from :mod:`olc_ui.lessons.boolean_concepts.view` → the step viewer), and two
games played with ordinary widgets whose moves live in the URL, so a link replays them:

* *play the adversary* — the student picks each example and its label; our
  elimination learner (the core's run) answers; ``moves`` holds ``bits:label,…``;
* *be the learner* — the core's :class:`ConjunctionAdversary` shows the examples and
  labels each one against the student's prediction; ``preds`` holds the predictions.
"""
from __future__ import annotations

import csv
import io
import re
from typing import Any

import numpy as np
import streamlit as st

import olc_core
from olc_core.streams import ConjunctionAdversary, conjunction_adversary, constant_predictor, elimination_predictor

from olc_ui.lessons.boolean_concepts.adversary import ADV_SETTINGS, MAX_MOVES, encode_moves, parse_moves
from olc_ui.lessons.boolean_concepts.view import CAP, assumption_text, bits, conjunction_spec, decision_list_spec, learner_game_spec, pretty
from olc_ui.shared import common, safe
from olc_ui.shared.config import Setting
from olc_ui.shared.safe import quote
from olc_ui.shared.state import set_value
from olc_ui.shared.notebook import DataCall
from olc_ui.shared.transcript import PageSettings

__all__ = ["stop_run", "ADV_SETTINGS", "CONJ_SETTINGS", "DL_SETTINGS", "GROUPS", "LRN_SETTINGS", "MAX_MOVES", "MODE_SETTINGS",
           "PAGE", "SettingError", "conj_data", "conj_panel",
           "conj_spec_for", "conj_visible", "dl_data", "dl_panel", "dl_spec_for", "dl_visible", "encode_moves",
           "game_csv", "game_downloads", "learner_game", "others", "parse_moves", "parse_preds", "replay", "run_conj",
           "run_dl"]

PAGE = "boolean"
MODES = ("conj", "dl", "adversary", "learner")
MODE_SETTINGS = [
    Setting("mode", "Part of the lesson", "choice", "conj", options=MODES,
            extra={"labels": {"conj": "① Conjunction learner", "dl": "② Decision-list learner",
                              "adversary": "③ Play the adversary", "learner": "④ Be the learner"},
                   "horizontal": True}),
]
CONJ_SETTINGS = [
    Setting("cdata", "Examples", "choice", "generated", options=("generated", "adversary"),
            extra={"labels": {"generated": "random, labelled by a target conjunction",
                              "adversary": "the [004] adversary sequence (n examples)"}}),
    Setting("n", "Variables n", "int", 5, lo=1, hi=12, step=1),
    Setting("k", "Literals in the target, k", "int", 2, lo=0, hi=12, step=1,
            help="each on its own variable, so k ≤ n"),
    Setting("neg", "Target may use negated literals", "bool", True),
    Setting("prate", "Share of positive examples", "float", 0.5, lo=0.0, hi=1.0, step=0.05,
            help="on this share of the rounds the target's literals are made true; false negatives only come "
                 "from positive examples"),
    Setting("T", "Rounds T", "int", 40, lo=1, hi=1000, step=1),
    Setting("noise", "Label noise", "float", 0.0, lo=0.0, hi=0.3, step=0.01,
            help="each label flipped with this probability: the labels stop being a conjunction's"),
    Setting("seed", "Seed", "int", 0, lo=0, hi=1_000_000, step=1, extra={"widget": "number"}),
]
DL_SETTINGS = [
    Setting("dn", "Variables n", "int", 3, lo=1, hi=8, step=1, help="the learner keeps 4n + 2 rules"),
    Setting("L", "Rules in the target list, L", "int", 3, lo=1, hi=9, step=1,
            help="the final True → b counted; each earlier rule uses its own variable, so L ≤ n + 1"),
    Setting("dT", "Rounds T", "int", 60, lo=1, hi=1000, step=1),
    Setting("cover", "Examples", "choice", "rule", options=("rule", "uniform"),
            extra={"labels": {"rule": "each rule of the target decides about as often",
                              "uniform": "uniform bits (rule i < L decides with probability 2⁻ⁱ, the final rule the rest)"}}),
    Setting("tie", "Which firing rule the learner reads", "choice", "first", options=("first", "majority"),
            extra={"labels": {"first": "the first in the order x₁→1, x₁→0, ¬x₁→1, …",
                              "majority": "the majority of the level's firing rules"}}),
    Setting("dnoise", "Label noise", "float", 0.0, lo=0.0, hi=0.3, step=0.01,
            help="each label flipped with this probability: the labels may stop being a decision list's"),
    Setting("dseed", "Seed", "int", 0, lo=0, hi=1_000_000, step=1, extra={"widget": "number"}),
]
LRN_SETTINGS = [
    Setting("ln", "Variables n", "int", 5, lo=1, hi=10, step=1),
    Setting("preds", "Your predictions", "text", "", extra={"max_len": 64}),
]
#: the settings group of each part of the lesson (bound under PAGE_<mode>)
GROUPS = {"conj": CONJ_SETTINGS, "dl": DL_SETTINGS, "adversary": ADV_SETTINGS, "learner": LRN_SETTINGS}


class SettingError(ValueError):
    """Settings that do not go together (e.g. more target literals than variables): a message, not a traceback."""


def conj_visible(v: dict[str, Any]) -> set[str]:
    if v["cdata"] == "adversary":
        return {"cdata", "n"}
    return {s.key for s in CONJ_SETTINGS}


def dl_visible(v: dict[str, Any]) -> set[str]:
    return {s.key for s in DL_SETTINGS}


# ------------------------------------------------------------------------------------------ data and runs

@st.cache_resource(max_entries=32, show_spinner=False)
def _conj_stream(n: int, k: int, neg: bool, prate: float, T: int, noise: float, seed: int):
    return olc_core.streams.conjunction(T=T, n=n, k=k, seed=seed, negated=neg, positive_rate=prate, noise=noise)


@st.cache_resource(max_entries=16, show_spinner=False)
def _adversary_stream(n: int):
    return conjunction_adversary(n, elimination_predictor)


def conj_call(v: dict[str, Any]) -> DataCall | None:
    """The olc_core.streams call :func:`conj_data` makes for generated data (the notebook download's data cell)."""
    if v["cdata"] == "adversary":
        return None
    return DataCall("conjunction", {"T": int(v["T"]), "n": int(v["n"]), "k": int(v["k"]), "seed": int(v["seed"]),
                                    "negated": bool(v["neg"]), "positive_rate": float(v["prate"]),
                                    "noise": float(v["noise"])})


def dl_call(v: dict[str, Any]) -> DataCall:
    """The olc_core.streams call :func:`dl_data` makes (the notebook download's data cell)."""
    return DataCall("decision_list", {"T": int(v["dT"]), "n": int(v["dn"]), "L": int(v["L"]), "seed": int(v["dseed"]),
                                      "coverage": v["cover"], "noise": float(v["dnoise"])})


def conj_data(v: dict[str, Any]):
    """(stream, key, label) for the conjunction learner's settings; SettingError when they clash."""
    n = int(v["n"])
    if v["cdata"] == "adversary":
        s = _adversary_stream(n)
        return s, f"cadv-{n}", f"the [004] adversary sequence, n = {n}"
    k = int(v["k"])
    if k > n:
        raise SettingError(f"the target cannot have k = {k} literals over n = {n} variables: each literal uses its "
                           f"own variable, so k ≤ n = {n}. Lower k or raise n")
    s = _conj_stream(n, k, bool(v["neg"]), float(v["prate"]), int(v["T"]), float(v["noise"]), int(v["seed"]))
    key = (f"cgen-n{n}-k{k}-g{int(v['neg'])}-p{v['prate']:g}-T{v['T']}-z{v['noise']:g}-s{v['seed']}")
    lab = f"T = {v['T']} random examples, n = {n}" + (f", {v['noise']:.0%} label noise" if v["noise"] else "")
    return s, key, lab


@st.cache_resource(max_entries=32, show_spinner=False)
def _run(key: str, algorithm: str, _X, _y, _cmp, tie: str | None = None):
    kw: dict[str, Any] = {} if _cmp is None else {"comparator": _cmp}
    if tie is not None:
        kw["tie"] = tie
    return olc_core.run(algorithm, _X, _y, **kw)


def run_conj(stream, key: str, comparator=True):
    """The cached elimination run; the proof's target is the stream's (``comparator=True``) or found."""
    cmp = stream.comparator if comparator is True else comparator
    return _run(key + ("" if comparator is True else "-found"), "conjunction", stream.X, stream.y, cmp)


@st.cache_resource(max_entries=32, show_spinner=False)
def _dl_stream(n: int, L: int, T: int, cover: str, noise: float, seed: int):
    return olc_core.streams.decision_list(T=T, n=n, L=L, seed=seed, coverage=cover, noise=noise)


def dl_data(v: dict[str, Any]):
    n, L = int(v["dn"]), int(v["L"])
    if L > n + 1:
        raise SettingError(f"a target list of L = {L} rules needs L − 1 = {L - 1} rules on distinct variables, but "
                           f"n = {n} variables allow at most L = n + 1 = {n + 1}. Lower L or raise n")
    s = _dl_stream(n, L, int(v["dT"]), v["cover"], float(v["dnoise"]), int(v["dseed"]))
    key = f"dl-n{n}-L{L}-T{v['dT']}-{v['cover']}-z{v['dnoise']:g}-s{v['dseed']}"
    lab = f"T = {v['dT']} examples, n = {n}" + (f", {v['dnoise']:.0%} label noise" if v["dnoise"] else "")
    return s, key, lab


def run_dl(stream, key: str, tie: str):
    return _run(key + f"-{tie}", "decision_list", stream.X, stream.y, stream.comparator, tie)


@st.cache_resource(max_entries=16, show_spinner=False)
def _conj_spec(run_id: str, _trace, _X, _y, _flipped, title: str) -> dict:
    return conjunction_spec(_trace, _X, _y, run_id=run_id, title=title, flipped=_flipped)


def conj_spec_for(stream, trace, key: str, label: str, position: int) -> dict:
    spec = _conj_spec(key, trace, stream.X, stream.y, stream.info.get("flipped"), f"Elimination on {label}")
    return {**spec, "position": position}


@st.cache_resource(max_entries=16, show_spinner=False)
def _dl_spec(run_id: str, _trace, _X, _y, _flipped, title: str) -> dict:
    return decision_list_spec(_trace, _X, _y, run_id=run_id, title=title, flipped=_flipped)


def dl_spec_for(stream, trace, key: str, label: str, position: int) -> dict:
    spec = _dl_spec(key + f"-{trace.info['tie']}", trace, stream.X, stream.y, stream.info.get("flipped"),
                    f"The level algorithm on {label}")
    return {**spec, "position": position}


# ------------------------------------------------------------------------------------------ panels

def _assumptions(proof, bound_text: str) -> None:
    why = "; and ".join(assumption_text(a, proof) for a in proof.failed_assumptions)
    st.error(f"The theorem {bound_text} **is not claimed** for these labels: {safe.md(why)}. The ledger marks the "
             "steps that need it n/a (with the rounds where it fails); the steps that hold on any labels keep their "
             "live ✓/✗.")


def conj_panel(trace, stream) -> None:
    """What the elimination run did, the target and the verdict of the theorem."""
    p = trace.proof
    c = p.constants
    n = c["n"]
    with st.container(border=True):
        st.markdown("#### What the run did")
        cols = st.columns(4)
        cols[0].metric("Mistakes M (whole run)", f"{trace.n_mistakes}")
        cols[1].metric("False negatives M⁺", f"{c['false_negatives']}")
        cols[2].metric("False positives M⁻", f"{c['false_positives']}",
                       help="each one means: no consistent conjunction")
        cols[3].metric("Bound n + 1", f"{p.mistake_bound:.0f}" if p.mistake_bound is not None else "not claimed")
        h_final = [pretty(s) for s in olc_core.learners.conjunction.hypothesis_literals(trace, trace.T)]
        st.markdown(f"Target $c$ = **{pretty(str(c['target']))}** ({c['comparator_source'] or 'none'}, "
                    f"$|c| = {c['target_size']}$). Final hypothesis $h$ = **{' ∧ '.join(h_final) or 'True'}** "
                    f"({common.count(len(h_final), 'literal')}).")
        if p.applies:
            st.success(f"Every label is the target's, so the learner never makes a false positive and makes at "
                       f"most $n + 1 - |c| = {c['bound_tight']:.0f} \\le n + 1 = {n + 1}$ mistakes on **any** "
                       f"ordering of any examples. It made **{trace.n_mistakes}**.")
        else:
            _assumptions(p, "M ≤ n + 1")
            fp = trace.info.get("no_consistent_conjunction_rounds")
            if fp is not None and len(fp):
                st.warning(f"False {common.agree(len(fp), 'positive on round', 'positives on rounds')} {common.rounds_text(fp)}: h(x) = 1 but y = 0. h is the most "
                           "specific conjunction true on the positives so far, so **no conjunction is consistent** "
                           "with these labels. The learner keeps going with h and never updates on a false positive.")
        noise = stream.info.get("flipped")
        if noise is not None and np.any(noise):
            st.caption(f"Labels flipped by the noise: rounds {common.rounds_text(np.flatnonzero(noise))}.")


#: the tie rules in words (the caption under the decision-list run)
TIE_WORDS = {"first": "the level's first firing rule, in the order x₁→1, x₁→0, ¬x₁→1, …",
             "majority": "the majority output of the level's firing rules, a tie predicting 1"}


def _below_level_i(p) -> str:
    """Whether the target's rules stayed on or above their levels: always on the target list's labels; on others
    (noise) the run's own count says (a student read "below which it never falls" on a run where one fell)."""
    if p.applies:
        return "below which it never falls (its labels are the target list's)."
    ex = int(p.series["target_excess"][-1]) if "target_excess" in p.series else None
    if ex is None:
        return "below which it never falls when the labels are the target list's — these are not."
    if ex > 0:
        return (f"below which it never falls when the labels are the target list's — these are not, and here a "
                f"target rule fell {common.count(ex, 'level')} below its place.")
    return ("below which it never falls when the labels are the target list's — these are not, yet here no target "
            "rule fell below its place.")


def dl_panel(trace, stream) -> None:
    p = trace.proof
    c = p.constants
    with st.container(border=True):
        st.markdown("#### What the run did")
        cols = st.columns(4)
        cols[0].metric("Mistakes M (whole run)", f"{trace.n_mistakes}")
        phi = p.series["Phi"][-1]
        cols[1].metric("Potential Φ", f"{phi:.0f}", help="rule-levels fallen so far, summed over the rules")
        cols[2].metric("Rules 4n + 2", f"{c['rules']}")
        cols[3].metric("Bound (4n+2)(L+1)", f"{p.mistake_bound:.0f}" if p.mistake_bound is not None else "not claimed")
        target = c.get("target")
        if target is not None:
            st.markdown(f"Target list ($L = {c['L']}$, the final True → b counted): **{pretty(str(target))}** "
                        f"({trace.info.get('comparator_source')}). It is drawn ringed in green; the green bar under "
                        "target rule i marks level i, " + _below_level_i(p))
        if p.applies:
            st.success(f"The labels are the target list's: $M \\le \\Phi_t \\le (4n+2)L = {c['bound_tight']} \\le "
                       f"(4n+2)(L+1) = {p.mistake_bound:.0f}$ on **any** sequence. The run made "
                       f"**{trace.n_mistakes}** mistakes; the rules fell {phi:.0f} levels in all.")
        else:
            _assumptions(p, "M ≤ (4n+2)(L+1)")
        st.caption(f"Tie rule: {TIE_WORDS.get(c['tie'], c['tie'])}. " + p.notes[1])


# ------------------------------------------------------------------------------------------ be the learner

def parse_preds(text: str, n: int) -> str:
    """The predictions so far as a string of 0/1, at most n of them; ValueError otherwise."""
    text = (text or "").strip()
    if not re.fullmatch(r"[01]*", text):
        raise ValueError(f"predictions must be 0s and 1s (got {quote(text, 20)})")
    if len(text) > n:
        raise ValueError(f"{len(text)} predictions for a game of n = {n} rounds")
    return text


def replay(n: int, preds: str) -> dict[str, Any]:
    """The game so far, replayed through the core's ConjunctionAdversary."""
    adv = ConjunctionAdversary(n)
    targets = [adv.target()]
    for p in preds:
        adv.play(int(p))
        targets.append(adv.target())
    s = adv.stream()
    X, labels = s.X, s.y.astype(int)
    agree = [int(np.sum(targets[k](X[:k]) == labels[:k])) if k else 0 for k in range(len(targets))]
    return {"adv": adv, "X": X, "labels": labels, "preds": [int(p) for p in preds], "targets": targets,
            "agree": agree, "next": None if adv.done else adv.next_example()}


@st.cache_resource(max_entries=16, show_spinner=False)
def others(n: int) -> dict[str, int]:
    """Mistakes of other deterministic learners against the same adversary (the core's conjunction_adversary)."""
    out = {}
    s = conjunction_adversary(n, elimination_predictor)
    out["the elimination learner"] = int(olc_core.run("conjunction", s.X, s.y).n_mistakes)
    for b in (0, 1):
        out[f"always predict {b}"] = int(conjunction_adversary(n, constant_predictor(b)).info["forced_mistakes"])
    return out


def _set_preds(text: str) -> None:
    set_value(f"{PAGE}_learner", LRN_SETTINGS, "preds", text)


def game_csv(g: dict[str, Any]) -> str:
    out = io.StringIO()
    w = csv.writer(out)
    n = g["adv"].n
    w.writerow(["round"] + [f"x{j + 1}" for j in range(n)] + ["your_prediction", "label", "mistake",
                                                              "mistakes_so_far", "target_so_far"])
    M = 0
    for i, (x, p, lab) in enumerate(zip(g["X"], g["preds"], g["labels"])):
        M += int(p != lab)
        w.writerow([i + 1] + [int(v) for v in x] + [p, int(lab), int(p != lab), M, str(g["targets"][i + 1])])
    return out.getvalue()


def learner_game(v: dict[str, Any], start_position) -> tuple[dict, int, dict[str, Any], str]:
    """The student predicts; the adversary of [004] labels. Returns (spec, position, game, the predictions)."""
    n = int(v["ln"])
    try:
        preds = parse_preds(v["preds"], n)
    except ValueError as exc:
        safe.notice("warning", "The predictions in the link could not be used: ", f"{exc}. The game starts over.")
        _set_preds("")
        preds = ""
    played = st.session_state.get(f"{PAGE}_lrn_n")
    st.session_state[f"{PAGE}_lrn_n"] = n
    if preds and played is not None and played != n:
        st.info(f"n changed from {played} to {n}: a new game starts.")
        _set_preds("")
        preds = ""
    g = replay(n, preds)
    adv = g["adv"]
    T = adv.round
    st.markdown(
        f"The app is the adversary of [004]. It shows you $n = {n}$ examples, one at a time — example $i$ has every "
        "bit set but bit $i$ — and you predict its label. Then it reveals the label, and it always chooses the "
        "**opposite** of your prediction. That is no cheating: it builds the target as it goes (put $x_i$ in when "
        "you say 1, leave it out when you say 0), and the target labels every example shown exactly as revealed.")
    cols = st.columns(3)
    cols[0].metric("Rounds played", f"{T} of {n}")
    cols[1].metric("Your mistakes M", f"{adv.mistakes}")
    cols[2].metric("Target so far", pretty(str(adv.target())))
    if not adv.done:
        with st.container(border=True):
            x = g["next"]
            st.markdown(f"#### Example {T + 1} of {n}: $x = {bits(x)}$")
            st.markdown(", ".join(f"${pretty(f'x{j + 1}')} = {int(x[j])}$" for j in range(n))
                        + ". What is its label?")
            b1, b2, b3 = st.columns(3)
            b1.button("Predict 1 (positive)", key=f"{PAGE}_lrn_p1", on_click=_set_preds, args=(preds + "1",),
                      type="primary")
            b2.button("Predict 0 (negative)", key=f"{PAGE}_lrn_p0", on_click=_set_preds, args=(preds + "0",),
                      type="primary")
            b3.button("Start over", key=f"{PAGE}_lrn_reset", on_click=_set_preds, args=("",), disabled=T == 0)
    if T:
        last = T - 1
        st.markdown(f"Round {T}: you predicted **{g['preds'][last]}**, the label is **{g['labels'][last]}** — "
                    f"{'a mistake' if g['preds'][last] != g['labels'][last] else 'correct'}.")
    oth = others(n)
    if adv.done:
        st.success(f"The adversary forced **{adv.mistakes} mistakes in {n} rounds**, and every label is that of the "
                   f"conjunction c = {pretty(str(adv.target()))}. Whatever you had predicted, the same would happen: "
                   f"**no deterministic learner can be guaranteed fewer than n = {n} mistakes**.")
        st.markdown("Against the same adversary: " + "; ".join(f"{k}: **{v} mistakes**" for k, v in oth.items())
                    + f". The elimination learner's upper bound is n + 1 = {n + 1}: it is optimal within one.")
        st.button("Play again", key=f"{PAGE}_lrn_again", on_click=_set_preds, args=("",))
    spec = learner_game_spec(n, g["X"], g["preds"], g["labels"], [str(pretty(str(c))) for c in g["targets"]],
                             g["agree"], run_id=f"lrn-{n}-{preds}", next_example=g["next"],
                             elimination_mistakes=oth["the elimination learner"])
    position = start_position(T)
    spec = {**spec, "position": position}
    return spec, position, g, preds


def game_downloads(spec: dict, position: int, g: dict[str, Any]) -> None:
    """The game as CSV (one row per round) and the figure at this round (HTML), built when clicked."""
    cols = st.columns(2)
    cols[0].download_button("Download the game (CSV)", data=lambda: game_csv(g), file_name="boolean_learner_game.csv",
                            mime="text/csv", on_click="ignore", key=f"{PAGE}_lrn_dl_csv")
    cols[1].download_button("Download the figure at this round (HTML)",
                            data=lambda: common.figure_html(spec, position),
                            file_name=f"boolean_learner_game_round_{position}.html", mime="text/html",
                            on_click="ignore", key=f"{PAGE}_lrn_dl_html")


# ------------------------------------------------------------------------------------------ the proofs in steps

def _needs(p) -> str:
    """The core's reasons the labels are not a target's (first one), for the steps that need them."""
    return safe.md(p.failed_assumptions[0].detail) if p.failed_assumptions else ""


def conj_steps(trace) -> str:
    """The elimination proof in four steps with this run's numbers; when the labels are not the target's (noise),
    the steps that need them say so, with the run's counts (|c ∖ h|, false positives) from the proof's series."""
    p = trace.proof
    c = p.constants
    S = p.series
    bad = bool(p.failed_assumptions)
    lost = int(S["c_outside"][-1]) if "c_outside" in S else None
    fp = int(S["M_fp"][-1]) if "M_fp" in S else None
    need = " **This step needs labels from the target conjunction $c$**, and these are not (" + _needs(p) + "): "
    one = two = three = ""
    if bad:
        one = need + (f"here $h$ lost **{lost}** literals of $c$, so the invariant fails on this run." if lost else
                      "here $h$ lost no literal of $c$, so the invariant happens to hold on this run.")
        two = need + (f"here **{fp}** of the $M = {trace.n_mistakes}$ mistakes were false positives, so this step "
                      "does not hold on this run." if fp else "here there was no false positive on this run.")
        three = " It rests on steps 1–2" + (", which fail on this run." if (lost or fp) else ".")
    return (
        "1. **Invariant $c \\subseteq h$.** $h$ starts with all $2n$ literals and only ever loses literals "
        "that are 0 on a *positive* example; every literal of $c$ is 1 on every positive example." + one + "\n"
        "2. **No false positive.** If $h(x) = 1$ then every literal of $h$, hence of $c$, is 1 on $x$: "
        "$c(x) = 1$. So every mistake is a false negative ($M = M^+$)." + two + "\n"
        "3. **Counting literals.** The first false negative leaves exactly the $n$ literals true on $x$ "
        "(one per variable); each later one removes at least one more (some literal of $h$ was 0 on $x$), "
        "never one of $c$: once $M \\ge 1$, $|c| \\le |h_t| \\le n - (M - 1)$ (before the first mistake "
        "$|h_t| = 2n$)." + three + "\n"
        + (f"4. **Solve:** $M \\le n + 1 - |c| = {c['n']} + 1 - {c['target_size']} = {c['bound_tight']:.0f} "
           f"\\le n + 1 = {c['n'] + 1}$.\n\n" if p.mistake_bound is not None else
           "4. **Solve:** $M \\le n + 1 - |c|$ — not for these data: the theorem's assumption fails "
           "(see above), so the bound is not claimed on this run.\n\n")
        + "**Lower bound** (parts ③ and ④): on the $n$ examples with every bit set but one, an adversary "
        "answering the opposite of any deterministic learner's prediction forces $n$ mistakes, and its "
        "labels are a monotone conjunction's. So $n \\le$ (best mistake bound) $\\le n + 1$.")


def dl_steps(trace) -> str:
    """The level algorithm's proof in four steps with this run's numbers; when the labels are not the target
    list's (noise), steps 2–4 say so, with the run's own levels (from the proof's series)."""
    p = trace.proof
    c = p.constants
    S = p.series
    two = three = ""
    if p.failed_assumptions:
        need = " **This step needs labels from the target list**, and these are not (" + _needs(p) + "): "
        if "target_excess" in S:
            ex = int(S["target_excess"][-1])
            two = need + (f"here a target rule fell **{ex}** level{'s' if ex != 1 else ''} below its place, so the "
                          "step does not hold on this run." if ex > 0 else
                          "here no target rule fell below its place, so it happens to hold on this run.")
        else:
            two = need + "it is not claimed on this run."
        if "max_level" in S and "L_plus_1" in S:
            lv, cap = int(S["max_level"][-1]), int(S["L_plus_1"][-1])
            three = need + (f"here the lowest level reached is {lv} > L + 1 = {cap}, so the step does not hold on "
                            "this run." if lv > cap else
                            f"here the lowest level reached is {lv} ≤ L + 1 = {cap}, so it happens to hold on this "
                            "run.")
        else:
            three = need + "it is not claimed on this run."
    return (
        "1. **Potential.** $\\Phi_t = \\sum_r (\\mathrm{level}_r - 1)$ counts the levels fallen so far. "
        "On a mistake, the rule the prediction was read from fired and was wrong, so it falls: "
        "$M \\le \\Phi_t$.\n"
        "2. **Target rule $i$ never goes below level $i$.** It falls only from the predicting level (the "
        "first with a firing rule), where it fires and is wrong; then an earlier target rule $k < i$ also "
        "fires, and (induction) sits on level $\\le k$ — so the predicting level was $\\le k \\le i - 1$, "
        "whichever tie rule reads it." + two + "\n"
        "3. **No rule goes below level $L + 1$.** The final rule True → $B_L$ always fires and stays on "
        "level $\\le L$, so rules fall only from levels $\\le L$." + three + "\n"
        "4. **Sum the caps:** $\\Phi_t \\le \\sum_r (\\mathrm{cap}_r - 1) \\le (4n+2)L \\le (4n+2)(L+1)$"
        + (f" $= {4 * c['n'] + 2} \\cdot {c['L'] + 1} = {p.mistake_bound:.0f}$ here."
           if p.mistake_bound is not None else
           f" — not claimed for these labels (here $\\Phi = {int(S['Phi'][-1])}$"
           + (f", above $\\sum_r(\\mathrm{{cap}}_r - 1) = {int(S['cap_sum'][-1])}$" if "cap_sum" in S and
              S["Phi"][-1] > S["cap_sum"][-1] else "") + ").")
        + "\n\nThe length $L$ counts the final rule True → $B_L$, as in the notes' definition ([004] "
        "Def. 2). The notes let each rule fall $L + 1$ levels; step 3 shows it falls at most $L$ (from "
        "level 1 to level $L + 1$ at the lowest), so $(4n+2)L$ bounds $M$ too, and the notes' "
        "$(4n+2)(L+1)$ is one row looser.")


#: what the page tells the proof transcript and the download names (olc_ui/shared/transcript.py): every declared
#: setting; those a conjunction's or a decision list's run uses; a game keeps the whole link
DECLARED = MODE_SETTINGS + [s for g in GROUPS.values() for s in g]
CONJ_TRANSCRIPT = PageSettings(DECLARED, lambda v, trace: {s.key for s in MODE_SETTINGS} | conj_visible(v), recipe=conj_call)
DL_TRANSCRIPT = PageSettings(DECLARED, lambda v, trace: {s.key for s in MODE_SETTINGS} | dl_visible(v), recipe=dl_call)
GAME_TRANSCRIPT = PageSettings(DECLARED)


def stop_run(v: dict[str, Any]) -> tuple[dict, Any]:
    """The spec and the run this page shows for the settings ``v`` (every setting of its link, decoded; no upload):
    a tour's stop as its offline file carries it (olc_ui/shared/tours/offline.py) — the calls pages/boolean_concepts.py makes
    (tests/tours/test_tour_offline.py checks the spec against the page's at every shipped stop)."""
    if v["mode"] not in ("conj", "dl"):
        raise ValueError("a game (playing the adversary or the learner) has no run a file can carry")
    if v["mode"] == "conj":
        stream, key, label = conj_data(v)
        trace = run_conj(stream, key)
        return conj_spec_for(stream, trace, key, label, 0), trace
    stream, key, label = dl_data(v)
    trace = run_dl(stream, key, v["tie"])
    return dl_spec_for(stream, trace, key, label, 0), trace
