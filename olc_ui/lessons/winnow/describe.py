"""The Winnow page's chart descriptions (issue 32 §3), from the run: the current example and the learner's score
against the threshold (the caption's own values), the weights after the round named by their variables (the
target's relevant ones, the largest others, the range of the rest), Φ between its floor and its upper bound and
M under (1+β)/β + (2+β)m⁺, with the proof's verdicts, and the mistake bound by name."""
from __future__ import annotations

import numpy as np

from olc_ui.shared.describe_view import Describer, failed_text, var

__all__ = ["describe_winnow", "TOP"]

#: the largest weights outside the target that a description names (by variable)
TOP = 3
#: the relevant weights are named one by one up to this many (beyond: their smallest and largest)
MANY = 6


def _named(D: Describer, label: str, names: list[str], values: np.ndarray) -> str:
    """``w₁₂ = 16`` per state: the variable's name as text (indices into its few names), its weight a number."""
    return D.text(f"{label}: variable", names, "state") + " = " + D.state(f"{label}: weight", values, bare=True)


def _outcomes(trace, base: float) -> list[str]:
    """What each round did to the weights (the factor by its name and value)."""
    pred = np.asarray(trace.predictions).astype(np.int64)
    miss = np.asarray(trace.columns["is_mistake"], dtype=bool)
    f = f"{base:.6g}"
    return ["correct, no update" if not m else
            f"a mistake on a positive: every active weight is multiplied by 1 + β = {f}" if p == 0 else
            f"a mistake on a negative: every active weight is divided by 1 + β = {f}" for m, p in zip(miss, pred)]


def _score(D: Describer, trace, caption: dict) -> str:
    """w·xₜ per round, with enough digits that its printed comparison with the threshold N holds (the caption
    prints ≤ or > as the learner decided): the caption's own value when what it prints holds."""
    N = float(trace.d)
    with np.errstate(over="ignore"):
        sc = np.exp(np.asarray(trace.columns["log_score"], dtype=float))
    pred = np.asarray(trace.predictions) > 0

    def holds(shown: np.ndarray) -> bool:
        return bool(np.all(np.where(pred, shown > N, shown <= N) | ~np.isfinite(sc)))
    src = caption["values"]["sc"]
    sent = np.array([np.nan if v is None else float(v) for v in src["data"]]) if "data" in src else None
    if sent is not None and src.get("fmt") == ".6g" and holds(np.array([float(f"{v:.6g}") for v in sent])):
        return D.caption("w·xₜ", "sc")     # sent once
    digits = 6
    while digits < 17 and not holds(np.array([float(f"{v:.{digits}g}") for v in sc])):
        digits += 1
    return D.round("w·xₜ", sc, f".{digits}g")


def _weights(spec: dict, trace, rel: np.ndarray | None, E: np.ndarray | None, summ: dict | None) -> dict:
    """The bars. ``E``: every exponent per state (small N); else ``summ`` (olc_ui.lessons.winnow.view
    .exponent_summary: the relevant exponents, the largest others with their variables, the rest's min)."""
    D = Describer(spec)
    N, base = trace.d, float(trace.base)
    rel = np.zeros(0, dtype=np.int64) if rel is None else rel
    name = "Winnow's weights after the round"
    n_txt = D.const("N", N, ",d")
    head = (f"{name}, at round {{t}} of {{T}}, on a log scale: the threshold {n_txt} (ŷ = 1 iff "
            f"w·x > N) and the cap {D.const('(1+β)N', float(np.exp(float(trace.proof.series['log_cap'][0]))), '.6g')} "
            "that no weight passes.")
    if E is not None:
        rel_e = E[:, rel]
        others = np.setdiff1d(np.arange(N), rel)
        Eo = E[:, others]
        order = np.argsort(-Eo, axis=1, kind="stable")          # largest first; a tie: the lower variable
        top_var = others[order[:, :TOP]]
        top_e = np.take_along_axis(Eo, order[:, :TOP], axis=1)
        rest = np.take_along_axis(Eo, order[:, TOP:], axis=1)
        rest_lo, rest_hi = (rest.min(axis=1), rest.max(axis=1)) if rest.shape[1] else (None, None)
    else:
        rel_e, top_var, top_e = summ["rel"], summ["top_var"][:, :TOP], summ["top_e"][:, :TOP]
        more = summ["top_e"][:, TOP:]
        rest_lo = np.minimum(summ["rest"][:, 0], more.min(axis=1)) if more.shape[1] else summ["rest"][:, 0]
        rest_hi = more[:, 0] if more.shape[1] else summ["rest"][:, 2]
    w = lambda e: np.power(base, np.asarray(e, dtype=float))  # noqa: E731
    parts = []
    if rel.size and rel.size <= MANY:
        parts.append("the target's relevant variables' weights " + ", ".join(
            D.state(var(i, "w"), w(rel_e[:, j])) for j, i in enumerate(rel.tolist())))
    elif rel.size:
        parts.append(f"the target's {D.const('k', rel.size, 'd')} relevant weights between "
                     f"{D.state('their smallest', w(rel_e.min(axis=1)))} and {D.state('their largest', w(rel_e.max(axis=1)))}")
    if top_var.shape[1]:
        outside = "outside the target" if rel.size else "of all"
        parts.append(f"the largest weights {outside} " + ", ".join(
            _named(D, f"largest other {j + 1}", [var(v, "w") for v in top_var[:, j]], w(top_e[:, j]))
            for j in range(top_var.shape[1])))
    if rest_lo is not None:
        parts.append(f"every other weight between {D.state('the smallest other weight', w(rest_lo))} and "
                     f"{D.state('the next largest other weight', w(rest_hi))}")
    now = (f"Round {{t}}: the example xₜ has {D.caption('number of ones', 'on')}"
           + (f" ({D.caption('relevant ones', 'ron')})" if "ron" in spec["caption"]["values"] else "")
           + f", label {D.caption('yₜ', 'y')}; {_score(D, trace, spec['caption'])} "
           + D.caption("w·x vs N", "cmp", bare=True) + f" {n_txt}, so {D.caption('ŷₜ', 'yhat')}: "
           + D.text("outcome", _outcomes(trace, base), "round") + ".")
    state = "After the round: " + "; ".join(parts) + "."
    return D.build(name, f"{head} {now} {state}", start=f"{head} No example seen yet: {state[len('After the round: '):]}")


def _potential(spec: dict, proof) -> dict:
    D = Describer(spec)
    name = "The potential Φ = Σ wᵢ between its floor and its upper bound"
    chain = D.chain(proof, [("log_floor", "the floor N/(1+β)"), ("log_phi", "Φ = Σwᵢ"),
                            ("log_upper", "the upper bound N + βNm⁺ − βNm⁻/(1+β)")], log=True)
    text = (f"{name}, at round {{t}} of {{T}}: after {D.caption('M', 'M')} mistakes ({D.caption('m⁺', 'mp')} on "
            f"positives, {D.caption('m⁻', 'mm')} on negatives), {chain}.")
    return D.build(name, text)


def _bound(spec: dict, proof) -> dict:
    D = Describer(spec)
    c = proof.constants
    name = "The sandwich that closes: M < (1+β)/β + (2+β)m⁺"
    chain = D.chain(proof, [("M", "M"), ("total_cap", "(1+β)/β + (2+β)m⁺")])
    b = proof.mistake_bound
    closing = (f"With m⁺ at most k(1 + log₍₁₊β₎N) the right side is at most the mistake bound "
               f"{D.const('(1+β)/β + (2+β)k(1 + log₍₁₊β₎N)', b, '.6g')} ({D.const('k', c['k'], 'd')}, "
               f"{D.const('N', c['N'], ',d')}, {D.const('β', c['beta'])}): the diagonal M meets it there."
               if b is not None else failed_text(proof))
    return D.build(name, f"{name}, at round {{t}} of {{T}}: {chain}. {closing}")


def describe_winnow(spec: dict, trace, rel, E=None, summ=None) -> dict:
    """``spec`` with its three charts' descriptions."""
    for f in spec["figures"]:
        f["describe"] = {"weights": lambda: _weights(spec, trace, rel, E, summ),
                         "potential": lambda: _potential(spec, trace.proof),
                         "bound": lambda: _bound(spec, trace.proof)}[f["id"]]()
    return spec
