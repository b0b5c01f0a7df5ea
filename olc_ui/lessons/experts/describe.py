"""The expert-advice page's chart descriptions (issue 32 §3), from the run, for Weighted Majority, Randomised WM
and Halving: the round's advice, label and prediction (the caption's own values), the weights after the round
named by their experts (0/1 weights as who is still in the version space, never as magnitudes; a weight too
small for a float as its logarithm), the proof's chain with its verdicts and where its bounds cross, and the
cumulative mistakes against the running bound."""
from __future__ import annotations

import numpy as np

from olc_ui.shared.describe_view import Describer, failed_text, underflows, var

__all__ = ["describe_experts"]

TOP = 3          # the largest weights a description names
LISTED = 8       # experts still in the version space named one by one (beyond: their number)
ALG = {"weighted_majority": "Weighted Majority", "randomized_weighted_majority": "Randomised Weighted Majority",
       "halving": "Halving"}


def _binary(trace) -> bool:
    return trace.algorithm == "halving" or float(trace.info.get("beta", 0.5)) == 0.0


def _alive_text(w: np.ndarray) -> str:
    on = np.flatnonzero(w > 0)
    if on.size == 0:
        return "every weight is zero: no expert is left"
    names = ", ".join(f"{var(i, 'w')} = 1" for i in on[:LISTED]) + (", …" if on.size > LISTED else "")
    return f"{names} and every other weight is zero (number of experts still in = {on.size})"


def _now(D: Describer, spec: dict, n_txt: str) -> str:
    """The round: how many experts say +1, the label, the prediction (the caption's values)."""
    v = spec["caption"]["values"]
    if "hp" in v:
        said = f"{D.caption('experts in the version space saying +1', 'hp')} (of {D.caption('|Hₜ|', 'hs')})"
    else:
        said = f"{D.caption('experts saying +1', 'np')} (of {n_txt})"
    return f"Round {{t}}: {said}, label {D.caption('yₜ', 'y')}, the learner's prediction {D.caption('ŷₜ', 'yhat')}."


def _weights(spec: dict, trace, states: list[np.ndarray], i_star: int) -> dict:
    D = Describer(spec)
    N, algo = trace.d, trace.algorithm
    name = f"{ALG[algo]}: the experts' weights after the round"
    n_txt = D.const("N", N, "d")
    head = (f"{name}, at round {{t}} of {{T}}: one bar per expert ({n_txt}), the best expert of the run "
            f"{D.const('i*', i_star + 1, 'd')} hatched.")
    if _binary(trace):
        W = np.vstack([(np.asarray(s) > 0) if algo == "halving" else np.isfinite(s) for s in states]).astype(float)
        state = "each weight is one (still in) or zero (removed): " + D.text("weights", [_alive_text(w) for w in W], "state")
        return D.build(name, f"{head} {_now(D, spec, n_txt)} After the round: {state}.",
                       start=f"{head} No round yet: {state}.")
    L = np.vstack([np.asarray(s, dtype=float) for s in states])       # natural logs of the weights
    ln = underflows([L])
    vals, pre = (L, "ln ") if ln else (np.exp(L), "")
    order = np.argsort(-L, axis=1, kind="stable")
    rows = np.arange(L.shape[0])
    top = ", ".join(
        D.text(f"largest {j + 1}: expert", [pre + var(i, "w") for i in order[:, j]], "state") + " = "
        + D.state(f"largest {j + 1}: weight", vals[rows, order[:, j]], bare=True) for j in range(min(TOP, N)))
    best = D.state(pre + var(i_star, "w"), vals[:, i_star])
    state = (f"the largest weights {top}; the best expert's weight {best}; the bounds Φ = Σwᵢ and its upper bound are in the sandwich "
             f"chart beside")
    return D.build(name, f"{head} {_now(D, spec, n_txt)} After the round: {state}.",
                   start=f"{head} No round yet: {state}.")


def _sandwich(spec: dict, trace, proof) -> dict:
    D = Describer(spec)
    algo, c = trace.algorithm, proof.constants
    name = f"{ALG[algo]}: the proof's sandwich"
    if algo == "halving":
        x = D.position("M", proof.per_round("n_mistakes"), "d")
        chain = D.chain(proof, [("zero", "1"), ("log_size", "|Hₜ|"), ("upper", "|H|/2ᴹ")], log=True, literal=("zero",))
        where = f"after {x} mistakes"
        closing = (f"The bounds meet at the mistake bound {D.const('log₂|H|', proof.mistake_bound, '.5g')}."
                   if proof.mistake_bound is not None else failed_text(proof))
    else:
        wm = algo == "weighted_majority"
        items = ([("lower_best", "β^(m(i*))"), ("log_w_best", "w(i*)"), ("log_phi", "Φ"), ("upper", "N((1+β)/2)ᴹ")]
                 if wm else [("lower_best", "(1−η)^(m(i*))"), ("log_w_best", "w(i*)"), ("log_phi", "Φ"),
                             ("upper", "N·e^(−ηΣF)")])
        if wm:
            where = f"after {D.position('M', proof.per_round('n_mistakes'), 'd')} mistakes"
        else:
            where = f"at {D.position('E[M] = ΣFₜ', proof.per_round('expected_M'))} expected mistakes"
        chain = D.chain(proof, items, log=True)
        b = proof.mistake_bound
        what = "M" if wm else "E[M]"
        formula = "(ln N + m* ln(1/β))/ln(2/(1+β))" if wm else "(ln N + m* ln(1/(1−η)))/η"
        closing = (f"With the run's final {D.const('m*', c['m_star'], 'd')} (the best expert's mistakes), the lower "
                   f"bound and the upper bound cross at the mistake bound on {what}, {D.const(formula, b, '.5g')}."
                   if b is not None else failed_text(proof))
    return D.build(name, f"{name}, at round {{t}} of {{T}}: {where}, {chain}. {closing}")


def _advice(spec: dict, trace, A: np.ndarray, y: np.ndarray, i_star: int) -> dict:
    D = Describer(spec)
    N = trace.d
    name = f"{ALG[trace.algorithm]}: the advice, round by round"
    wrong = ((A > 0) != (y[:, None] > 0)).sum(axis=1)
    says = ["+1" if a > 0 else "−1" for a in A[:, i_star]]
    head = (f"{name}, at round {{t}} of {{T}}: each expert's advice (+1 high, −1 low, outlined where wrong), the "
            f"label and the learner's prediction, the current round marked.")
    now = (f"Round {{t}}: {D.caption('experts saying +1', 'np')} (of {D.const('N', N, 'd')}), "
           f"{D.round('experts wrong', wrong, 'd')}; label {D.caption('yₜ', 'y')}, the best expert "
           f"{D.const('i*', i_star + 1, 'd')} with " + D.text("the best expert's advice", says, "round", bare=False)
           + f", the learner {D.caption('ŷₜ', 'yhat')}.")
    return D.build(name, f"{head} {now}", start=f"{head} No round yet.")


def _mistakes(spec: dict, trace, proof, band) -> dict:
    D = Describer(spec)
    algo, S = trace.algorithm, proof.series
    name = f"{ALG[algo]}: the cumulative mistakes"
    parts = [f"the learner's {D.caption('M', 'M')}"]
    if algo == "randomized_weighted_majority":
        parts.append(f"its expected mistakes {D.caption('E[M]', 'EM')}")
    if "m_star" in S:
        parts.append(f"the best expert so far {D.position('m*ₜ', proof.per_round('m_star'), 'd')}")
    text = f"{name}, at round {{t}} of {{T}}: " + ", ".join(parts) + "."
    if "running_bound" in S:
        key = "expected_M" if algo == "randomized_weighted_majority" else "M"
        what = "E[M]" if key == "expected_M" else "M"
        text += " The running bound with m*ₜ so far: " + D.chain(
            proof, [(key, what), ("running_bound", "(ln N + m*ₜ ln(1/β))/ln(2/(1+β))" if algo == "weighted_majority"
                                  else "(ln N + m*ₜ ln(1/(1−η)))/η")]) + "."
    elif proof.mistake_bound is not None:
        text += " The bound: " + D.chain(proof, [("M", "M"), ("mistake_bound", "log₂|H|")]) + "."
    if band is not None:
        lo, mid, hi = (int(np.asarray(q)[-1]) for q in band.band)
        text += (f" The band: over seeded runs ({D.const('number of runs', len(band.seeds), 'd')}), the realised "
                 f"mistakes after all the rounds range from {D.const('the 5% quantile', lo, 'd')} to "
                 f"{D.const('the 95% quantile', hi, 'd')} ({D.const('median', mid, 'd')}).")
    return D.build(name, text)


def describe_experts(spec: dict, trace, A, y, states: list[np.ndarray], i_star: int, band=None) -> dict:
    """``spec`` with its four charts' descriptions."""
    A, y = np.asarray(A), np.asarray(y, dtype=float)
    proof = trace.proof
    for f in spec["figures"]:
        f["describe"] = {"weights": lambda: _weights(spec, trace, states, i_star),
                         "sandwich": lambda: _sandwich(spec, trace, proof),
                         "advice": lambda: _advice(spec, trace, A, y, i_star),
                         "mistakes": lambda: _mistakes(spec, trace, proof, band)}[f["id"]]()
    return spec

