"""The Perceptron pages' chart descriptions (issue 32 §3), written from the run: the current example with its
label, the learner's score and prediction, its weights after the round; each proof's chain at the current state
with the proof's own verdicts; the bounds by name with their values (olc_ui/shared/describe_view.py)."""
from __future__ import annotations

import math

import numpy as np

from olc_core.proofs.perceptron import td_bound_quadratic

from olc_ui.shared.describe_view import Describer, failed_text, fmt_number, sub, var

__all__ = ["describe_perceptron", "describe_separable_sandwiches", "PLANE_NAME"]

PLANE_NAME = "The stream and the Perceptron's line w·x = 0"
WIDE = 12     # beyond this dimension a vector is summarised, not read out


def _example(D: Describer, X) -> str:
    """The current example, its label, the learner's prediction (before its update) and the outcome (the
    caption's own values: y, ŷ and what came of it)."""
    d = X.shape[1]
    if d <= WIDE:
        x = D.vector("xₜ", X, "round", ".3g")
    else:
        x = "xₜ " + D.text("current example", [_sparse(row) for row in X], "round")
    return (f"current example {x} with label {D.caption('yₜ', 'y')}; the learner's prediction "
            f"{D.caption('ŷₜ', 'yhat')}: " + D.caption("outcome", "what", bare=True))


def _sparse(x: np.ndarray) -> str:
    """A long vector by its nonzero coordinates: "= e₃" for a basis vector."""
    nz = np.flatnonzero(x)
    if nz.size == 1 and x[nz[0]] == 1.0:
        return "= e" + sub(int(nz[0]) + 1)
    if nz.size == 0:
        return "= 0"
    return "has " + ", ".join(f"{var(i)} = {fmt_number(float(x[i]))}" for i in nz[:6]) + \
        (" among its nonzero coordinates" if nz.size > 6 else " and every other coordinate 0")


def _weights(D: Describer, W: np.ndarray) -> str:
    """The learner's weights after the round (per state)."""
    K, d = W.shape
    if d <= WIDE:
        return D.vector("w", W, "state")
    texts = []
    for w in W:
        nz = np.flatnonzero(w)
        texts.append(("w has no nonzero weight" if not nz.size else "w's nonzero weights are " + ", ".join(
            f"{var(i, 'w')} = {fmt_number(float(w[i]))}" for i in nz[:6]) + (", …" if nz.size > 6 else ""))
            + f" (number of nonzero weights = {nz.size}")
    return D.text("w", texts, "state") + f" of {D.const('d', d, 'd')})"


def _main(spec: dict, trace, X, y, wstar, band: float | None) -> dict:
    D = Describer(spec)
    W = np.vstack([np.asarray(trace.weights_at(int(s)), dtype=float) for s in D.starts.tolist()])
    d = X.shape[1]
    M = D.state("M", np.arange(D.K), "d")
    shows = {2: "the plane: the stream's points by label (seen so far, not yet seen), the rounds that were "
                "mistakes ringed, the learner's line w·x = 0 and its weight vector w",
             3: "a three-dimensional view: the stream's points by label (seen so far, not yet seen), the rounds that were "
                "mistakes ringed, the learner's plane w·x = 0 and its weight vector w"}.get(
        d, f"the learner's weights w₁ … w{var(d - 1, '')} as bars")
    cmp = ""
    if wstar is not None and d > WIDE:
        ws = np.asarray(wstar, dtype=float)
        cmp = "; the comparator w* as markers" + (
            f", {D.const('every coordinate of w*', ws[0])}" if np.all(ws == ws[0]) else "")
    elif wstar is not None:
        cmp = "; the comparator " + D.const_vector("w*", wstar)
        if band is not None and band > 0 and d == 2:
            cmp += f" with the band |⟨w*, x⟩| < γ, {D.const('γ', band)}"
    head = f"{PLANE_NAME if d == 2 else 'The Perceptron'} at round {{t}} of {{T}}: {shows}{cmp}."
    w = _weights(D, W)
    ex = _example(D, X)
    return D.build(PLANE_NAME if d == 2 else "The Perceptron's weights" if d > 3 else "The stream in three dimensions",
                   f"{head} Round {{t}}: {ex}. After the round {w}; mistakes so far: {M}.",
                   start=f"{head} No example seen yet; {w}; mistakes: {M}.")


def _sandwich(spec: dict, fig_id: str, proof, items, closing: str, name: str, *, literal=()) -> dict:
    """A sandwich chart (olc_ui/shared/sandwich_view.py): its markers' arrays hold the chain and M per proof state."""
    D = Describer(spec)
    by = D._by(proof, f"{fig_id}_M")
    M = D.array("M", f"{fig_id}_M", by, "d") if by else D.position("M", proof.per_round("n_mistakes"), "d")
    chain = D.chain(proof, items, literal=literal, sent={k: f"{fig_id}_{k}" for k, _ in items})
    return D.build(name, f"{name} at round {{t}} of {{T}}, mistakes so far {M}: {chain}. {closing(D)}")


def _separable(spec: dict, proof) -> list[dict]:
    c = proof.constants
    bound = proof.mistake_bound

    def closing(D: Describer) -> str:
        if bound is None or not math.isfinite(bound):
            return failed_text(proof)
        return (f"The outer bounds meet at the mistake bound {D.const('R²/γ²', bound, '.5g')} "
                f"({D.const('γ', c['gamma'])}, {D.const('R', c['radius'])}): no run makes more mistakes.")
    a = _sandwich(spec, "sandwich_A", proof, [("M_gamma", "Mγ"), ("inner", "⟨w*, w⟩"), ("norm", "‖w‖"),
                                               ("sqrtM_R", "√M·R")], closing, "Proof A (norm potential)")
    b = _sandwich(spec, "sandwich_B", proof, [("cos_lower", "√M·γ/R"), ("cosine", "cos∠(w, w*)"), ("one", "1")],
                  closing, "Proof B (cosine potential)", literal=("one",))
    return [a, b]


def _nonseparable(spec: dict, sp, hp) -> list[dict]:
    cs, ch = sp.constants, hp.constants

    def td_closing(D: Describer) -> str:
        return (f"Here {D.const('γ', cs['gamma'])}, {D.const('R', cs['radius'])}; with "
                f"{D.const('TDᵧ over the whole run', cs['TD'])} the line γM − TDᵧ and √M·R cross where "
                f"{D.const('M at the crossing', cs['bound_quadratic'], '.5g')}, which the stated bound "
                f"{D.const('R²/γ² + 2TDᵧ/γ', sp.mistake_bound, '.5g')} rounds up.")

    def hinge_closing(D: Describer) -> str:
        L, a = float(ch["L"]), float(ch["a"])
        from_quadratic = td_bound_quadratic(1.0, L, a)   # M − L = a√M: the TDᵧ quadratic with γ = 1, TD = L, R = a
        return (f"Here u = w*/γ and a = {D.const('‖u‖R', a)}; with {D.const('L(u) over the whole run', L)} the line "
                f"M − L(u) and ‖u‖R√M cross where {D.const('M at the crossing', from_quadratic, '.5g')}, which the stated bound "
                f"{D.const('L + a√L + a²', hp.mistake_bound, '.5g')} rounds up.")
    a = _sandwich(spec, "sandwich_A", sp, [("td_lower", "γM − TDᵧ so far"), ("inner", "⟨w*, w⟩"), ("norm", "‖w‖"),
                                           ("sqrtM_R", "√M·R")], td_closing, "The TDᵧ proof")
    b = _sandwich(spec, "sandwich_B", hp, [("hinge_lower", "M − L(u) so far"), ("inner_u", "⟨u, w⟩"),
                                           ("norm_u", "‖u‖‖w‖"), ("upper_u", "‖u‖R√M")], hinge_closing,
                  "The hinge-loss proof")
    return [a, b]


def _td_curve(spec: dict, sp, hp, n_mistakes: int) -> dict:
    D = Describer(spec)
    c = sp.constants
    name = "The mistake bound for every γ"
    text = (f"{name}, at round {{t}} of {{T}} as at every round (the chart does not move): on this run, the bound R²/γ² + 2TDᵧ/γ for every margin γ up to R, and the hinge-loss bound "
            f"L + a√L + a² with u = w*/γ. The TDᵧ bound is smallest at the {D.const('best γ', c['best_gamma'])}, "
            f"where it is {D.const('the smallest bound', c['best_bound'], '.5g')}; at the "
            f"{D.const('γ used', c['gamma'])} the TDᵧ bound is {D.const('R²/γ² + 2TDᵧ/γ', sp.mistake_bound, '.5g')} "
            f"and the hinge-loss bound {D.const('L + a√L + a²', hp.mistake_bound, '.5g')}; the run made "
            f"{D.const('mistakes M', n_mistakes, 'd')} in all.")
    return D.build(name, text)


def describe_perceptron(spec: dict, trace, X, y, *, mode: str, sp, hp=None, wstar=None, band: float | None = None
                        ) -> dict:
    """``spec`` with every figure's description (main, the two sandwiches, the TD curve when drawn)."""
    by_id = {f["id"]: f for f in spec["figures"]}
    by_id["main"]["describe"] = _main(spec, trace, np.asarray(X, dtype=float), np.asarray(y, dtype=float), wstar, band)
    pair = _separable(spec, sp) if mode == "separable" else _nonseparable(spec, sp, hp)
    by_id["sandwich_A"]["describe"], by_id["sandwich_B"]["describe"] = pair
    if "td_curve" in by_id:
        by_id["td_curve"]["describe"] = _td_curve(spec, sp, hp, int(trace.n_mistakes))
    return spec


def describe_separable_sandwiches(spec: dict, proof) -> dict:
    """``spec`` with its proofs A and B described from ``proof`` (the separable case: the adversary game's board,
    olc_ui/lessons/perceptron/adversary_view.py, draws these two beside its own)."""
    by_id = {f["id"]: f for f in spec["figures"]}
    by_id["sandwich_A"]["describe"], by_id["sandwich_B"]["describe"] = _separable(spec, proof)
    return spec
