"""The exponentiated-update page's chart descriptions (issue 32 §3), from the run: the current round's label,
score and outcome (the caption's own values), the weights after the round named by their features, the
comparator's and the learner's margins, Φ = KL(u‖w) between 0 and ln N − C·M with the proof's verdicts, and the
curve C(η) by its maximum C(η*) and the bound there, with this run's η, C and bound."""
from __future__ import annotations

import math

import numpy as np

from olc_core.proofs.normalized_winnow import C_of

from olc_ui.shared.describe_view import Describer, failed_text, var

__all__ = ["describe_eg", "TOP"]

TOP = 3      # the largest weights a description names (by feature)


def _top(D: Describer, W: np.ndarray, which: str) -> str:
    """The ``TOP`` largest (or the smallest) weights per state, named by feature (text) with their value."""
    order = np.argsort(-W if which == "largest" else W, axis=1, kind="stable")
    n = TOP if which == "largest" else 1
    out = []
    for j in range(min(n, W.shape[1])):
        i = order[:, j]
        out.append(D.text(f"{which} {j + 1}: feature", [var(v, "w") for v in i], "state") + " = "
                   + D.state(f"{which} {j + 1}: weight", W[np.arange(W.shape[0]), i], bare=True))
    return ", ".join(out)


def _weights(spec: dict, trace) -> dict:
    D = Describer(spec)
    W = np.vstack([np.asarray(trace.weights_at(int(s)), dtype=float) for s in D.starts.tolist()])
    u = np.asarray(trace.info["comparator"], dtype=float)
    name = "The weights after the round, a probability vector, and the comparator u"
    support = np.flatnonzero(u > 0)
    cmp = (" with " + ", ".join(D.const(var(i, "u"), float(u[i])) for i in support)
           + " (zero elsewhere)" if 0 < support.size <= 6 else "")
    head = (f"{name}, at round {{t}} of {{T}}: one bar per feature ({D.const('N', trace.d, 'd')}), the weights "
            f"summing to 1; the comparator u as diamonds{cmp}.")
    now = (f"Round {{t}}: label {D.caption('yₜ', 'y')}, the learner's score {D.caption('⟨wₜ, xₜ⟩', 's')}: "
           + D.caption("outcome", "what", bare=True) + ".")
    state = f"the largest weights {_top(D, W, 'largest')}; the smallest {_top(D, W, 'smallest')}."
    return D.build(name, f"{head} {now} After the round: {state}", start=f"{head} No round yet: {state[0].lower()}{state[1:]}")


def _margins(spec: dict, trace, y: np.ndarray) -> dict:
    D = Describer(spec)
    c = trace.proof.constants
    ys = y * np.asarray(trace.columns["score"], dtype=float)
    name = "Margins per round: the comparator's and the learner's"
    d = c.get("delta")
    delta = (f", the dashed line at {D.const('δ', d)} (the margin the theorem asks of u)"
             if d is not None and math.isfinite(d) else "")
    head = (f"{name}, at round {{t}} of {{T}}: for every round seen, y⟨u, x⟩ (diamonds){delta}, and the learner's "
            f"y⟨wₜ, xₜ⟩ (a mistake where it is not positive).")
    now = (f"Round {{t}}: the comparator's {D.caption('yₜ⟨u, xₜ⟩', 'um')}, the learner's "
           f"{D.round('yₜ⟨wₜ, xₜ⟩', ys)}.")
    return D.build(name, f"{head} {now}", start=f"{head} No round seen yet.")


def _sandwich(spec: dict, trace) -> dict:
    D = Describer(spec)
    proof = trace.proof
    c = proof.constants
    name = "The sandwich of Φ = KL(u‖w) between its bounds, against the mistakes M"
    by = D._by(proof, "sw_M")
    M = D.array("M", "sw_M", by, "d") if by else D.position("M", proof.per_round("n_mistakes"), "d")
    chain = D.chain(proof, [("zero", "0"), ("kl", "Φ = KL(u‖wₜ₊₁)"), ("kl_upper", "Φ₁ − C·M"),
                            ("lnN_upper", "ln N − C·M")], literal=("zero",),
                    sent={"kl": "sw_kl", "lnN_upper": "sw_lnu"})
    b = proof.mistake_bound
    consts = (f"({D.const('C = ηδ − ln cosh η', c['C'], '.5g')}, {D.const('ln N', c['ln_N'], '.5g')}, "
              f"{D.const('Φ₁', c['phi_1'], '.5g')})")
    if b is not None:
        b2 = c.get("bound_2lnN_over_delta2")
        closing = f"ln N − C·M reaches zero at the mistake bound {D.const('ln N / C', b, '.5g')} {consts}"
        if b2 is not None and math.isfinite(b2):
            closing += ("; " + D.compare(("ln N / C", float(b)), ("2 ln N/δ²", float(b2)), None, digits=5)
                        + ", the cap on ln N / C at η = artanh δ")
        closing += "."
    elif c.get("C") is not None and c["C"] <= 0:
        closing = f"No mistake bound: C is not positive at this η, so ln N − C·M never reaches zero {consts}."
    else:
        closing = failed_text(proof)[:-1] + f" {consts}."
    return D.build(name, f"{name}, at round {{t}} of {{T}}, mistakes so far {M}: {chain}. {closing}")


def _eta(spec: dict, trace) -> dict:
    D = Describer(spec)
    c = trace.proof.constants
    name = "C(η), the drop of Φ per mistake, against the learning rate"
    delta = c.get("delta")
    if delta is None or not math.isfinite(delta):
        return D.build(name, f"{name}, at round {{t}} of {{T}}: no positive margin δ, so C(η) = ηδ − ln cosh η is "
                             "undefined and no bound is drawn.")
    eta, lnN = float(c["eta"]), float(c["ln_N"])
    opt, emax = c.get("eta_optimal"), c.get("eta_max")
    text = (f"{name}, at round {{t}} of {{T}} as at every round (the chart does not move): C(η) = ηδ − ln cosh η for "
            f"{D.const('δ', delta)}, positive from small η up to {D.const('η_max', emax, '.5g')}. ")
    if opt is not None:
        c_opt = C_of(float(opt), float(delta))
        text += (f"It is largest at the optimum {D.const('η* = ½ ln((1+δ)/(1−δ))', opt, '.5g')}, where "
                 f"{D.const('C(η*)', c_opt, '.5g')} and the bound is {D.const('ln N / C(η*)', lnN / c_opt, '.5g')}. ")
    C = float(c["C"])
    text += (f"This run: {D.const('η', eta, '.5g')}, {D.const('C', C, '.5g')}, so "
             + (f"{D.const('ln N / C', lnN / C, '.5g')}." if C > 0 else "no bound: C is not positive at this η."))
    return D.build(name, text)


def describe_eg(spec: dict, trace, y) -> dict:
    """``spec`` with its four charts' descriptions."""
    y = np.asarray(y, dtype=float)
    for f in spec["figures"]:
        f["describe"] = {"weights": lambda: _weights(spec, trace), "margins": lambda: _margins(spec, trace, y),
                         "sandwich": lambda: _sandwich(spec, trace), "eta": lambda: _eta(spec, trace)}[f["id"]]()
    return spec
