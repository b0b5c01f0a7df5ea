"""The randomised FTRL page's chart descriptions (issue 32 §3), from the run: the current example with its label,
the probability the learner gave +1 and its draw (the caption's own values), the weights after the round, the
expected mistakes E[Mₜ] under their bound and the realised Mₜ of this seed said as one draw (the theorem bounds
E[Mₜ], not Mₜ), the regret sandwich with the proof's verdicts, and the learning rates' bounds by name."""
from __future__ import annotations

import numpy as np

from olc_ui.shared.describe_view import Describer, failed_text, link_verdicts

__all__ = ["describe_ftrl"]

UPPER = "its bound min Σℓₛ(u) + √t(1/(2α) + αLₜ²)"

#: the data-dependent regret bound as the core computes it (olc_core/proofs/ftrl_randomized.py: ‖g₁‖² on its own,
#: the sum from s = 2: its term at s = 1 would divide by √0); the legend and the descriptions name it so
DATA_BOUND = "data-dependent bound √t/(2α) + (α/2)(‖g₁‖² + Σₛ₌₂ᵗ ‖gₛ‖²/√(s−1))"


def _plane(spec: dict, trace, X) -> dict:
    D = Describer(spec)
    W = np.vstack([np.asarray(trace.weights_at(p), dtype=float) for p in range(trace.T + 1)])
    u = np.asarray(trace.info["comparator"], dtype=float)
    name = "The unit ball: the points, the learner's w and the best u"
    head = (f"{name} at round {{t}} of {{T}}: the stream's points by label (seen so far, not yet seen), the realised "
            f"mistakes ringed, the learner's weights as arrows and the best ‖u‖ ≤ 1 in hindsight, "
            f"{D.const_vector('u*', u)}.")
    w = D.vector("wₜ₊₁", W, "position")
    ex = (f"Round {{t}}: current example {D.vector('xₜ', X, 'round', '.3g')} with label {D.caption('yₜ', 'y')}; the "
          f"learner's {D.caption('P(ŷₜ = +1)', 'pp')} and its draw {D.caption('ŷₜ', 'yhat')}: "
          + D.caption("outcome", "what", bare=True))
    return D.build(name, f"{head} {ex}. After the round {w}.", start=f"{head} No example seen yet; {w}.")


def _prob(spec: dict) -> dict:
    D = Describer(spec)
    name = "The probability of predicting a positive label, round by round"
    head = (f"{name}, at round {{t}} of {{T}}: for every round seen, P(ŷ = +1) = (1 + ⟨w, x⟩)/2 by label "
            f"(positive examples should sit high, negative ones low), the realised mistakes ringed.")
    now = (f"This round: label {D.caption('yₜ', 'y')}, {D.caption('P(ŷₜ = +1)', 'pp')}, expected loss "
           f"{D.caption('ℓₜ(wₜ)', 'el')}, the draw {D.caption('ŷₜ', 'yhat')}: " + D.caption("outcome", "what", bare=True))
    return D.build(name, f"{head} {now}.", start=f"{head} No round seen yet.")


def _mistakes(spec: dict, proof, band) -> dict:
    D = Describer(spec)
    S = proof.series
    name = "Expected and realised mistakes, and the best u's expected loss"
    chain = D.chain(proof, [("expected_mistakes", "E[Mₜ] = Σℓₛ(wₛ)"), ("mistakes_upper", UPPER)])
    best = D.position("min Σℓₛ(u)", S["best_loss"])
    realised = D.caption("Mₜ", "M")
    text = (f"{name} at round {{t}} of {{T}}, after t rounds: the expected mistakes {chain}, where {best} is the best ‖u‖ ≤ 1's expected "
            f"loss (a loss, not a count of mistakes). This seed's realised count {realised} is one draw: the theorem "
            f"bounds E[Mₜ], not Mₜ.")
    b = proof.mistake_bound
    if b is not None:
        holds = link_verdicts(proof)[("expected_mistakes", "mistake_bound")]["holds"][-1]
        text += (" The theorem at the end: " + D.compare(("E[M_T]", float(proof.constants["expected_mistakes"])),
                                                         ("the bound on E[M_T]", float(b)), holds) + ".")
    else:
        text += " " + failed_text(proof)
    if band is not None:
        lo, mid, hi = (int(np.asarray(q)[-1]) for q in band.band)
        text += (f" The band: over seeded runs ({D.const('number of runs', len(band.seeds), 'd')}), the realised "
                 f"mistakes after all the rounds range from {D.const('the 5% quantile', lo, 'd')} to "
                 f"{D.const('the 95% quantile', hi, 'd')} ({D.const('median', mid, 'd')}).")
    return D.build(name, text)


def _regret(spec: dict, proof) -> dict:
    D = Describer(spec)
    c = proof.constants
    name = "The regret sandwich against t"
    chain = D.chain(proof, [("regret", "regret Σℓₛ(wₛ) − ℓₛ(u*ₜ)"),
                            ("bound_data", DATA_BOUND),
                            ("bound_sqrt", "√t(1/(2α) + αLₜ²)")])
    text = (f"{name} at round {{t}} of {{T}}, after t rounds: {chain}. At the end the regret bound is "
            f"{D.const('√T(1/(2α) + αL²)', c['regret_bound'], '.5g')} ({D.const('α', c['alpha'])}, "
            f"{D.const('L', c['L'])}).")
    return D.build(name, text)


def _alpha(spec: dict, proof, sweep) -> dict:
    D = Describer(spec)
    c = proof.constants
    name = "The learning rate α: the √T bound and the measured regret"
    a, best = float(c["alpha"]), float(c["best_alpha"])
    T, L = float(c["T"]), float(c["L"])
    at_best = np.sqrt(T) * (1 / (2 * best) + best * L * L)
    text = (f"{name}, at round {{t}} of {{T}} as at every round (the chart does not move): one run per learning "
            f"rate ({D.const('number of learning rates', len(sweep.alphas), 'd')}), its regret at the end against "
            f"the theorem's bound √T(1/(2α) + αL²). The theorem's {D.const('α* = 1/(√2·L)', best)} gives the smallest bound, "
            f"{D.const('√T(1/(2α*) + α*L²)', at_best, '.5g')}; your {D.const('α', a)} has the bound "
            f"{D.const('√T(1/(2α) + αL²)', c['regret_bound'], '.5g')} and its "
            f"{D.const('measured regret at T', float(proof.series['regret'][-1]))}.")
    return D.build(name, text)


def describe_ftrl(spec: dict, trace, X, *, band=None, sweep=None) -> dict:
    """``spec`` with every chart's description."""
    proof = trace.proof
    for f in spec["figures"]:
        f["describe"] = {"plane": lambda: _plane(spec, trace, np.asarray(X, dtype=float)),
                         "prob": lambda: _prob(spec), "mistakes": lambda: _mistakes(spec, proof, band),
                         "regret": lambda: _regret(spec, proof), "alpha": lambda: _alpha(spec, proof, sweep)}[f["id"]]()
    return spec
