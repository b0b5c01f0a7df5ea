"""The Margin Perceptron page's chart descriptions (issue 32 §3), from the run: the example presented at this step
(by its number, with its label and the normalised score, the caption's own values), the learner's weights and
updates, and the proof's chain Uγ ≤ ⟨w*, w⟩ ≤ ‖w‖ ≤ 1 + 2/γ + 3Uγ/4 with its verdicts and its bounds."""
from __future__ import annotations

import math

import numpy as np

from olc_ui.shared.describe_view import Describer, failed_text

__all__ = ["describe_margin"]

NAME = "The unit circle and the Margin Perceptron's line w·x = 0"


def _main(spec: dict, trace, gamma: float, wstar) -> dict:
    D = Describer(spec)
    W = np.vstack([np.asarray(trace.weights_at(int(s)), dtype=float) for s in D.starts.tolist()])
    cmp = f"; the comparator {D.const_vector('w*', wstar)}" if wstar is not None else ""
    head = (f"{NAME} at round {{t}} of {{T}}: the examples scaled to the unit circle, by label (seen, not yet "
            f"seen), the updates ringed and the margin mistakes as diamonds, the learner's line with its band "
            f"|s| < γ/2 around it for {D.const('γ', gamma)}{cmp}.")
    w, U = D.vector("w", W, "state"), D.state("U", np.arange(D.K), "d")
    ex = (f"Round {{t}}: a step through the data, {D.caption('pass', 'pass')}, {D.caption('example', 'ex')} (its number in the data), "
          f"with label {D.caption('yₜ', 'y')}; its normalised score {D.caption('s = w·x/‖w‖', 's')}: "
          + D.caption("outcome", "what", bare=True))
    return D.build(NAME, f"{head} {ex}. After the round {w}; updates so far: {U}.",
                   start=f"{head} No example seen yet; {w}; updates: {U}.")


def _sandwich(spec: dict, proof, gamma: float) -> dict:
    D = Describer(spec)
    fid = "sandwich_A"
    by = D._by(proof, f"{fid}_M")
    U = D.array("U", f"{fid}_M", by, "d") if by else D.position("U", proof.per_round("n_mistakes"), "d")
    items = [("U_gamma", "Uγ"), ("inner", "⟨w*, w⟩"), ("norm", "‖w‖"), ("norm_upper", "1 + 2/γ + 3Uγ/4")]
    chain = D.chain(proof, items, sent={k: f"{fid}_{k}" for k, _ in items})
    bound, tight = proof.mistake_bound, proof.constants.get("bound_tight")
    if bound is None or tight is None or not math.isfinite(tight):
        closing = failed_text(proof, "No bound on the updates")
    else:
        closing = (f"The outer bounds meet at {D.const('4/γ + 8/γ²', tight, '.5g')} updates, which the stated bound "
                   f"{D.const('12/γ²', bound, '.5g')} rounds up ({D.const('γ', gamma)}).")
    name = "The Margin Perceptron's proof against the updates U"
    return D.build(name, f"{name} at round {{t}} of {{T}}, updates so far (the first included) {U}: {chain}. {closing}")


def describe_margin(spec: dict, trace, gamma: float) -> dict:
    """``spec`` with the main chart's and the sandwich's descriptions."""
    by_id = {f["id"]: f for f in spec["figures"]}
    by_id["main"]["describe"] = _main(spec, trace, gamma, trace.info.get("comparator"))
    by_id["sandwich_A"]["describe"] = _sandwich(spec, trace.proof, gamma)
    return spec
