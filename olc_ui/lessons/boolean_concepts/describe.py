"""The Boolean-concepts page's chart descriptions (issue 32 §3), from the run: the current example as its bit
string with its label (never plot coordinates), the hypothesis after the round as the conjunction it is (or the
rules' levels), the proof's chain with its verdicts and its bounds by name; the adversary games' boards."""
from __future__ import annotations

import numpy as np

from olc_core.learners.decision_list import fallen
from olc_core.proofs.boolean import literal_name

from olc_ui.shared.describe_view import Describer, failed_text, sub

__all__ = ["describe_conjunction", "describe_conjunction_start", "describe_decision_list", "describe_learner_game",
           "conjunction_text"]


def _pretty(name: str) -> str:
    """``¬x12→1`` → ``¬x₁₂→1``: a variable's number as subscript digits (a rule's output stays as it is)."""
    out, i = [], 0
    while i < len(name):
        if name[i] == "x":
            j = i + 1
            while j < len(name) and name[j].isdigit():
                j += 1
            out.append("x" + (sub(int(name[i + 1:j])) if j > i + 1 else ""))
            i = j
        else:
            out.append(name[i])
            i += 1
    return "".join(out)


def conjunction_text(mask: np.ndarray) -> str:
    """The conjunction of the literals a 0/1 mask over the 2n literals keeps: ``¬x₁ ∧ x₂`` (no literal: True)."""
    kept = np.flatnonzero(mask)
    return " ∧ ".join(_pretty(literal_name(int(j))) for j in kept) if kept.size else "True"


def _h_texts(H: np.ndarray) -> list[str]:
    n2 = H.shape[1]
    return ["h holds every literal, so it says 0 on every example" if k.sum() == n2 else
            f"hₜ = {conjunction_text(k)}" for k in H]


def _conj_main(spec: dict, trace, H: np.ndarray) -> dict:
    D = Describer(spec)
    proof = trace.proof
    c = proof.constants
    fits = bool(c.get("consistent", True)) or c.get("comparator_source") == "given"
    target = c.get("target")
    name = "The literal table: the target, the hypothesis h and each literal's value on xₜ"
    if target is None:
        tgt = "no conjunction is consistent with these labels: no target"
    else:
        what = "the target" if fits else "the most specific conjunction true on the positives (no target fits)"
        tgt = (f"{what} c = {conjunction_text(np.asarray(target.mask, dtype=bool))} "
               f"({D.const('|c|', int(np.asarray(target.mask).sum()), 'd')})")
    head = f"{name}, at round {{t}} of {{T}}: {tgt}."
    h = D.text("h", _h_texts(H), "state") + f" ({D.state('|hₜ|', H.sum(axis=1), 'd')})"
    if spec["T"] == 0:
        return D.build(name, f"{head} No example yet; {h}.")
    now = (f"Round {{t}}: {D.caption('xₜ', 'x')} with label {D.caption('yₜ', 'y')}; "
           f"{D.round('literals of h that are 0 on xₜ', np.asarray(trace.columns['false_literals']), 'd')}, so "
           f"{D.caption('h(xₜ)', 'yhat')}: " + D.caption("outcome", "what", bare=True) + ".")
    return D.build(name, f"{head} {now} After the round {h}.", start=f"{head} No example seen yet; {h}.")


def _conj_sandwich(spec: dict, proof) -> dict:
    D = Describer(spec)
    c = proof.constants
    fid = "sandwich"
    by = D._by(proof, f"{fid}_M")
    M = D.array("M", f"{fid}_M", by, "d") if by else D.position("M", proof.per_round("n_mistakes"), "d")
    items = [("c_size", "|c|"), ("h_size", "|hₜ|"), ("h_upper", "2n − n[M⁺≥1] − (M⁺−1)₊")]
    chain = D.chain(proof, items, sent={k: f"{fid}_{k}" for k, _ in items})
    fp = int(c.get("false_positives", 0))
    name = "The literal count |hₜ| between |c| and its upper bound, against the mistakes M"
    if proof.applies and fp == 0:
        closing = (f"The bounds cross at {D.const('n + 1 − |c|', c['bound_tight'], 'd')} mistakes; the theorem states "
                   f"{D.const('n + 1', proof.mistake_bound, 'd')} for every conjunction.")
    elif proof.applies:
        closing = "No crossing: a false positive means no conjunction labels these examples, so M⁺ < M."
    else:
        closing = failed_text(proof)
    return D.build(name, f"{name}, at round {{t}} of {{T}}, mistakes so far {M}: {chain}. {closing}")


def describe_conjunction(spec: dict, trace, H: np.ndarray) -> dict:
    """The elimination learner's two charts (``H``: the kept literals per state, K × 2n)."""
    by_id = {f["id"]: f for f in spec["figures"]}
    by_id["main"]["describe"] = _conj_main(spec, trace, H)
    by_id["sandwich"]["describe"] = _conj_sandwich(spec, trace.proof)
    return spec


def describe_conjunction_start(spec: dict, n: int) -> dict:
    """The literal table before any move (the adversary game's opening board)."""
    D = Describer(spec)
    name = "The literal table: the hypothesis h and each literal's value on xₜ"
    text = (f"{name}, at round {{t}} of {{T}}: no example yet; h holds every one of the literals "
            f"({D.const('|hₜ|', 2 * n, 'd')}), so it says 0 on every example.")
    spec["figures"][0]["describe"] = D.build(name, text)
    return spec


def _levels_text(levels: np.ndarray) -> str:
    vals, counts = np.unique(levels, return_counts=True)
    return "; ".join(f"rules on level {v} = {c}" for v, c in zip(vals.tolist(), counts.tolist()))


def _dl_main(spec: dict, trace, LV: np.ndarray) -> dict:
    D = Describer(spec)
    c = trace.proof.constants
    R = LV.shape[1]
    name = "The levels of the decision-list learner's rules"
    tgt = c.get("target")
    head = (f"{name}, at round {{t}} of {{T}}: {D.const('number of rules', R, 'd')} (every condition with either "
            f"output), each on its level; the learner reads the first level with a rule that fires on xₜ"
            + (f"; the target list {_pretty(str(tgt))} ({D.const('L', c['L'], 'd')})" if tgt is not None else "")
            + ".")
    T = trace.T
    fell = np.zeros(T, dtype=np.int64)
    for k in range(len(trace.mistakes)):
        fell[int(trace.mistakes[k])] = len(fallen(trace, k)[2])
    what = ["correct, no rule moves" if not f else "a mistake: the rules of that level that fire and say ŷₜ fall "
            "one level" for f in fell]
    now = (f"Round {{t}}: {D.caption('xₜ', 'x')} with label {D.caption('yₜ', 'y')}; "
           f"{D.caption('the first level with a firing rule', 'lvl')}, its rule " + D.caption("rule read", "rule", bare=True)
           + f", so {D.caption('ŷₜ', 'yhat')}: " + D.text("outcome", what, "round")
           + f" ({D.round('rules falling', fell, 'd')}).")
    levels = D.text("levels", [_levels_text(lv) for lv in LV], "state")
    return D.build(name, f"{head} {now} After the round: {levels}.", start=f"{head} No round yet: {levels}.")


def _dl_sandwich(spec: dict, proof) -> dict:
    D = Describer(spec)
    fid = "sandwich"
    by = D._by(proof, f"{fid}_M")
    M = D.array("M", f"{fid}_M", by, "d") if by else D.position("M", proof.per_round("n_mistakes"), "d")
    name = "The level potential between M and its cap, against the mistakes M"
    items = [("M", "M"), ("Phi", "Φₜ = Σᵣ(levelᵣ − 1)"), ("cap_sum", "Σᵣ(capᵣ − 1)"), ("tight", "(4n+2)L"),
             ("notes_bound", "(4n+2)(L+1)")]
    sent = {k: f"{fid}_{k}" for k, _ in items[:3]}
    chain = D.chain(proof, items, sent=sent)
    closing = ("The last is the theorem's bound." if proof.mistake_bound is not None else failed_text(proof))
    return D.build(name, f"{name}, at round {{t}} of {{T}}, mistakes so far {M}: {chain}. {closing}")


def describe_decision_list(spec: dict, trace, LV: np.ndarray) -> dict:
    """The level algorithm's two charts (``LV``: every rule's level per state)."""
    by_id = {f["id"]: f for f in spec["figures"]}
    by_id["main"]["describe"] = _dl_main(spec, trace, LV)
    by_id["sandwich"]["describe"] = _dl_sandwich(spec, trace.proof)
    return spec


def describe_learner_game(spec: dict, n: int, X: np.ndarray, pred: np.ndarray, lab: np.ndarray, waiting: bool
                          ) -> dict:
    """The board of "be the learner": the rounds played (one per state) and the example waiting."""
    D = Describer(spec)
    T = X.shape[0]
    name = "The adversary's examples, your predictions and its labels"
    head = (f"{name}, at round {{t}} of {{T}}: example i has every bit set but bit i, of "
            f"{D.const('n', n, 'd')} bits; the adversary labels each the opposite of your prediction.")
    last = ["No round played yet."] + [
        f"The last round: xₜ = {''.join(str(int(v != 0)) for v in X[k - 1])}, your prediction ŷₜ = {int(pred[k - 1])}, "
        f"the label yₜ = {int(lab[k - 1])}: a mistake." for k in range(1, T + 1)]
    nxt = " The next example waits for your prediction." if waiting else ""
    text = f"{head} {D.text('the last round', last, 'state')} Mistakes so far: {D.state('M', np.arange(T + 1), 'd')}.{nxt}"
    spec["figures"][0]["describe"] = D.build(name, text)
    return spec
