"""The Halving page's chart descriptions (issue 32 §3), from the run: the current instance with its label (by
the class's own coordinate: an angle, a point of the line, a bit string), the version space's vote and what the
round removed (the caption's own values), the target, and the sandwich 1 ≤ |Hₜ| ≤ |H|/2ᴹ with the proof's
verdicts and its crossing at log₂|H|."""
from __future__ import annotations

import math
import re

from olc_core.hypotheses import HalfPlanes, Thresholds

from olc_ui.shared.describe_view import Describer, failed_text, sub

__all__ = ["describe_halving"]


def _instance(D: Describer, H) -> str:
    if isinstance(H, HalfPlanes):
        return f"the current instance xₜ on the unit circle, {D.caption('the angle of xₜ in degrees', 'x')}"
    return f"the current instance {D.caption('xₜ', 'x')}"


def _target(D: Describer, H, target: int | None) -> str:
    if target is None:
        return ""
    if isinstance(H, HalfPlanes):
        deg = math.degrees(float(H.angles()[target])) % 360.0
        return f"; the target h* (a star) has {D.const('the angle of its normal in degrees', deg, '.4g')}"
    if isinstance(H, Thresholds):
        return f"; the target h* (a star) is x ≥ θ* with {D.const('θ*', float(H.thresholds[target]), '.4g')}"
    formula = re.sub(r"x(\d+)", lambda m: "x" + sub(int(m.group(1))), H.describe(target))   # x₁ ∧ x₃
    return f"; the target h* (a star) is {formula}"


def _main(spec: dict, trace, H, target) -> dict:
    D = Describer(spec)
    name = f"Halving over the {H.name}"
    head = (f"{name}, at round {{t}} of {{T}}: the hypotheses of H ({D.const('|H|', H.size, 'd')}), those still in "
            f"the version space drawn apart from the removed ones, and the instances seen by label"
            f"{_target(D, H, target)}.")
    now = (f"Round {{t}}: {_instance(D, H)}, with label {D.caption('yₜ', 'y')}. The version space "
           f"({D.caption('|Hₜ|', 'n')}) votes {D.caption('for +1', 'plus')} and {D.caption('for −1', 'minus')}, "
           f"so {D.caption('ŷₜ', 'yhat')}: " + D.caption("outcome", "what", bare=True)
           + f"; {D.caption('hypotheses removed', 'rm')}, leaving {D.caption('|Hₜ₊₁|', 'size')}; "
             f"mistakes so far {D.caption('M', 'M')}.")
    return D.build(name, f"{head} {now}", start=f"{head} Nothing seen yet: the version space is all of H.")


def _sandwich(spec: dict, proof) -> dict:
    D = Describer(spec)
    name = "Halving's sandwich against the mistakes M"
    M = D.position("M", proof.per_round("n_mistakes"), "d")
    chain = D.chain(proof, [("zero", "1"), ("log_size", "|Hₜ|"), ("upper", "|H|/2ᴹ")], log=True, literal=("zero",))
    b = proof.mistake_bound
    closing = (f"The bounds meet at the mistake bound {D.const('log₂|H|', b, '.5g')}."
               if b is not None else failed_text(proof))
    return D.build(name, f"{name}, at round {{t}} of {{T}}, mistakes so far {M}: {chain}. {closing}")


def describe_halving(spec: dict, trace, H, target: int | None) -> dict:
    """``spec`` with its two charts' descriptions."""
    by_id = {f["id"]: f for f in spec["figures"]}
    by_id["main"]["describe"] = _main(spec, trace, H, target)
    by_id["sandwich"]["describe"] = _sandwich(spec, trace.proof)
    return spec

