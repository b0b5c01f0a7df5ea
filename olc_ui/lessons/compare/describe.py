"""The Compare page's chart descriptions (issue 32 §3), from each learner's run on the same rounds: every
learner's mistakes so far and this round's outcome (the caption's own values), each learner's weights after the
round as the weights they are, named by variable or expert (never their log₁₀, which the bars draw), and each
learner's own proof: its chain with the proof's verdicts and its mistake bound by name."""
from __future__ import annotations

import numpy as np

from olc_ui.shared.describe_view import Describer, failed_text, underflows, var

__all__ = ["describe_compare"]

#: per learner: its chain (series key, label), whether the series are natural logarithms, the x it counts,
#: and its mistake bound's formula
CHAINS = {
    "perceptron": ([("M_gamma", "Mγ"), ("inner", "⟨w*, w⟩"), ("norm", "‖w‖"), ("sqrtM_R", "√M·R")], False, "M",
                   "R²/γ²"),
    "winnow": ([("M", "M"), ("total_cap", "(1+β)/β + (2+β)m⁺")], False, "M", "(1+β)/β + (2+β)k(1 + log₍₁₊β₎N)"),
    "normalized_winnow": ([("zero", "0"), ("kl", "Φ = KL(u‖wₜ₊₁)"), ("kl_upper", "Φ₁ − C·M"),
                           ("lnN_upper", "ln N − C·M")], False, "M", "ln N / C"),
    "weighted_majority": ([("lower_best", "β^(m(i*))"), ("log_w_best", "w(i*)"), ("log_phi", "Φ"),
                           ("upper", "N((1+β)/2)ᴹ")], True, "M", "(ln N + m* ln(1/β))/ln(2/(1+β))"),
    "randomized_weighted_majority": ([("lower_best", "(1−η)^(m(i*))"), ("log_w_best", "w(i*)"), ("log_phi", "Φ"),
                                      ("upper", "N·e^(−ηΣF)")], True, "E[M] = ΣFₜ", "(ln N + m* ln(1/(1−η)))/η"),
    "halving": ([("zero", "1"), ("log_size", "|Hₜ|"), ("upper", "|H|/2ᴹ")], True, "M", "log₂|H|"),
}
EXPERTS = ("weighted_majority", "randomized_weighted_majority", "halving")


def _mistakes(spec: dict, lanes) -> dict:
    D = Describer(spec)
    name = "Cumulative mistakes, every learner on the same rounds"
    now = ", ".join(f"{ln.name} " + D.caption(f"{ln.name}: this round", f"e{i}", bare=True)
                    for i, ln in enumerate(lanes))
    sofar = ", ".join(D.caption(f"{ln.name}'s M", f"n{i}") for i, ln in enumerate(lanes))
    extra = ""
    for ln in lanes:
        if ln.algorithm == "randomized_weighted_majority":
            extra += f"; Randomised WM's {D.position('E[M]', ln.trace.proof.per_round('expected_M'))}"
        if "m_star" in ln.trace.proof.series and "best expert" not in extra:
            extra += f"; the best expert so far {D.position('m*ₜ', ln.trace.proof.per_round('m_star'), 'd')}"
    text = (f"{name}, at round {{t}} of {{T}}: label {D.caption('yₜ', 'lab')}; this round {now}. Mistakes so far: "
            f"{sofar}{extra}.")
    return D.build(name, text, start=f"{name}, at round {{t}} of {{T}}: nothing seen yet. Mistakes so far: {sofar}.")


def _names(ln) -> list[str]:
    d = ln.trace.d
    if ln.algorithm in EXPERTS:
        return [var(i, "w") for i in range(d)]
    return [("the threshold's weight" if ln.constant_last and i == d - 1 else var(i, "w")) for i in range(d)]


def _weights(spec: dict, ln) -> dict:
    D = Describer(spec)
    tr, alg = ln.trace, ln.algorithm
    name = f"{ln.name}: its weights after the round"
    starts = D.starts.tolist()
    names = _names(ln)
    head = f"{name}, at round {{t}} of {{T}}"
    if alg == "halving":
        W = np.vstack([np.asarray(tr.weights_at(s), dtype=float) > 0 for s in starts])
        texts = [", ".join(names[i] + " = 1" for i in np.flatnonzero(w)[:8]) + (", …" if w.sum() > 8 else "")
                 + f" and every other weight zero (number of experts still in = {int(w.sum())})" if w.any() else
                 "every weight is zero: no expert is left" for w in W]
        return D.build(name, f"{head}: each weight is one (still in) or zero (removed): "
                             + D.text("weights", texts, "state") + ".")
    if alg == "perceptron":
        W = np.vstack([np.asarray(tr.weights_at(s), dtype=float) for s in starts])
        top = D.ranked("largest |wᵢ|", W, names, key=np.abs(W))
        return D.build(name, f"{head}: the hyperplane's normal w; its largest entries in size {top}; "
                             f"{D.state('‖w‖', np.linalg.norm(W, axis=1))}.")
    L = np.vstack([np.asarray(tr.log_weights_at(s), dtype=float) for s in starts])
    ln_domain = underflows([L])
    W, pre = (L, "ln ") if ln_domain else (np.exp(L), "")
    top = D.ranked("largest", W, [pre + n for n in names], key=L)
    rel = [i for i in ln.relevant if alg not in EXPERTS]
    parts = [f"the largest weights {top}"]
    if rel and len(rel) <= 6:
        parts.append("the target's relevant variables' " + ", ".join(D.state(pre + names[i], W[:, i]) for i in rel))
    what = {"winnow": f"the weights, against the threshold {D.const('N', tr.d, 'd')}",
            "normalized_winnow": "the weights, a probability vector"}
    return D.build(name, f"{head}: {what.get(alg, 'the experts’ weights')}; " + "; ".join(parts) + ".")


def _sandwich(spec: dict, ln) -> dict:
    D = Describer(spec)
    tr, alg = ln.trace, ln.algorithm
    proof = tr.proof
    items, log, x, formula = CHAINS[alg]
    name = f"{ln.name}: its proof's sandwich"
    literal = tuple(k for k, lab in items if k == "zero")
    xs = D.position(x, proof.per_round("expected_M" if x.startswith("E[M]") else "n_mistakes"),
                    ".4g" if x.startswith("E[M]") else "d")
    chain = D.chain(proof, items, log=log, literal=literal)
    b = proof.mistake_bound
    closing = (f"The bounds cross at the mistake bound {D.const(formula, b, '.5g')}." if b is not None
               else failed_text(proof))
    at = f"at {xs} expected mistakes" if x.startswith("E[M]") else f"after {xs} mistakes"
    return D.build(name, f"{name}, at round {{t}} of {{T}}: {at}, {chain}. {closing}")


def describe_compare(spec: dict, lanes) -> dict:
    """``spec`` with every chart's description: the mistakes, and per learner its weights and its sandwich."""
    by_id = {f["id"]: f for f in spec["figures"]}
    by_id["mistakes"]["describe"] = _mistakes(spec, lanes)
    for i, ln in enumerate(lanes):
        by_id[f"w{i}"]["describe"] = _weights(spec, ln)
        by_id[f"s{i}"]["describe"] = _sandwich(spec, ln)
    return spec


def describe_sweep(rows: list[dict], names: dict[str, str], T: int) -> str:
    """The sweep chart's text alternative: per learner and number of features N, the median of its mistakes over
    the seeds with their range, and its theorem's bound (median over the same runs), as the chart plots them."""
    def g(x: float) -> str:
        return f"{x:.4g}"
    parts = []
    for alg in dict.fromkeys(r["algorithm"] for r in rows):
        per = []
        for N in sorted({r["N"] for r in rows if r["algorithm"] == alg}):
            m = np.array([r["mistakes"] for r in rows if r["algorithm"] == alg and r["N"] == N], dtype=float)
            b = [r["bound"] for r in rows if r["algorithm"] == alg and r["N"] == N and r["bound"] is not None]
            per.append(f"N = {N}: median {g(float(np.median(m)))} (from {g(m.min())} to {g(m.max())}), bound "
                       + (g(float(np.median(b))) if b else "none"))
        parts.append(f"{names.get(alg, alg)}: " + "; ".join(per))
    return (f"Mistakes against the number of features N, over seeded runs of T = {T} rounds each (no run makes more "
            "than T): " + ". ".join(parts) + ".")
