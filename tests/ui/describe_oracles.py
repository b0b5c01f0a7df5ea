"""What each chart description may say, computed here from the run (the trace, its data, its proof's series
and constants) and not from the spec: per page, a builder that makes the spec as the page does and an oracle
``(figure id, position) → {name: value}`` for every name the descriptions write, with the names each figure
must mention (tests/ui/test_describe_numbers.py reads every number back against these)."""
from __future__ import annotations

import math
import warnings
from dataclasses import dataclass, field
from typing import Any, Callable

import numpy as np


@dataclass
class Case:
    spec: dict
    oracle: Callable[[str, int], dict[str, Any]]
    #: per figure id, the names its description must print at a position after round 1 (p ≥ 1)
    required: dict[str, set[str]] = field(default_factory=dict)
    #: literal formulas with digits the descriptions may print (no run's number in them)
    allowed: tuple[str, ...] = ()
    #: the runs the spec draws (their proofs' verdicts are read by the descriptions)
    traces: tuple = ()


def _defaults(settings, **over) -> dict:
    v = {s.key: s.default for s in settings}
    v.update(over)
    return v


def pm(v) -> int:
    return 1 if v > 0 else -1


def at_state(proof, key: str, p: int) -> float:
    return float(proof.series[key][proof.index(p)])


# ------------------------------------------------------------------------------------------ Perceptron

def perceptron(**over) -> Case:
    from olc_ui.lessons.perceptron import lesson as L
    v = _defaults(L.SETTINGS, **over)
    data = L.load_data(v, None)
    tr = L.run_perceptron(data)
    use = "separable" if tr.proof.applies else "nonseparable"
    spec = L.spec_for(data, tr, gamma_td=None, use=use)
    X, y = np.asarray(data.X, dtype=float), np.asarray(data.y, dtype=float)
    d = X.shape[1]
    sp = tr.proof if use == "separable" else tr.proofs["nonseparable"]
    hp = tr.proofs["hinge"]
    wstar = np.asarray(tr.info["comparator"] if use == "separable" else sp.constants["comparator"], dtype=float)
    g, R = float(sp.constants["gamma"]), float(sp.constants["radius"])
    score = np.asarray(tr.columns["score"], dtype=float)

    def oracle(fid: str, p: int) -> dict[str, Any]:
        w = np.asarray(tr.weights_at(p), dtype=float)
        M = tr.mistakes_before(p)
        out: dict[str, Any] = {"M": M, "mistakes M": M, "γ": g, "R": R}
        if fid == "main":
            out.update({"w": tuple(w), "w*": tuple(wstar), "d": d, "every coordinate of w*": wstar[0],
                        "number of nonzero weights": int(np.count_nonzero(w))})
            for i in range(d):
                out[f"w{_sub(i + 1)}"] = w[i]
            if p >= 1:
                x = X[p - 1]
                basis = np.count_nonzero(x) == 1 and x.max() == 1.0
                out.update({"xₜ": f"e{_sub(int(np.argmax(x)) + 1)}" if d > 12 and basis else tuple(x), "yₜ": pm(y[p - 1]), "w·xₜ": score[p - 1],
                            "ŷₜ": int(np.sign(score[p - 1]))})
        elif use == "separable":
            nw = float(np.linalg.norm(w))
            out.update({"Mγ": M * g, "⟨w*, w⟩": float(wstar @ w), "‖w‖": nw, "√M·R": math.sqrt(M) * R,
                        "√M·γ/R": math.sqrt(M) * g / R, "cos∠(w, w*)": float(wstar @ w) / nw if nw else math.nan,
                        "R²/γ²": R * R / (g * g)})
        else:
            TD_sofar = float(np.maximum(0.0, g - y[:p] * (X[:p] @ wstar)).sum())
            TD = float(np.maximum(0.0, g - y * (X @ wstar)).sum())
            u = wstar / g
            a = float(np.linalg.norm(u)) * R
            Lsofar, Lall = TD_sofar / g, TD / g
            root = (R + math.sqrt(R * R + 4 * g * TD)) / (2 * g)
            hroot = (a + math.sqrt(a * a + 4 * Lall)) / 2
            out.update({"γM − TDᵧ so far": g * M - TD_sofar, "⟨w*, w⟩": float(wstar @ w), "‖w‖": float(np.linalg.norm(w)),
                        "√M·R": math.sqrt(M) * R, "TDᵧ over the whole run": TD, "M at the crossing": root * root,
                        "R²/γ² + 2TDᵧ/γ": R * R / g ** 2 + 2 * TD / g,
                        "M − L(u) so far": M - Lsofar, "⟨u, w⟩": float(u @ w),
                        "‖u‖‖w‖": float(np.linalg.norm(u) * np.linalg.norm(w)), "‖u‖R√M": a * math.sqrt(M),
                        "‖u‖R": a, "L(u) over the whole run": Lall, "L + a√L + a²": Lall + a * math.sqrt(Lall) + a * a,
                        "best γ": float(sp.constants["best_gamma"]), "the smallest bound": float(sp.constants["best_bound"]),
                        "γ used": g, "mistakes M": int(tr.n_mistakes) if fid == "td_curve" else M})
            if fid == "sandwich_B":
                out["M at the crossing"] = hroot * hroot
        return out

    main = {"xₜ", "yₜ", "ŷₜ", "M"} | ({"w"} if d <= 12 else set())
    req = {"main": main, "sandwich_A": {"M", "⟨w*, w⟩", "‖w‖", "√M·R"}}
    req["sandwich_B"] = {"M", "cos∠(w, w*)", "√M·γ/R"} if use == "separable" else {"M", "⟨u, w⟩", "L + a√L + a²"}
    if use == "separable" and tr.proof.mistake_bound is not None:
        req["sandwich_A"].add("R²/γ²")
    if use != "separable":
        req["sandwich_A"] |= {"γM − TDᵧ so far", "R²/γ² + 2TDᵧ/γ"}
        req["td_curve"] = {"best γ", "the smallest bound", "γ used"}
    return Case(spec, oracle, req, allowed=("w·x = 0", "|⟨w*, x⟩| < γ", "a score of 0"), traces=(tr,))


def margin(**over) -> Case:
    from olc_ui.lessons.margin_perceptron import lesson as L
    v = _defaults(L.SETTINGS, **over)
    data = L.load_data(v, None)
    tr = L.run_margin(data, float(v["gamma_alg"]), L.passes_for(v, len(data.y)))
    spec = L.spec_for(data, tr, v)
    g = float(tr.info["gamma"])
    wstar = np.asarray(tr.info["comparator"], dtype=float)
    Xh, lab = np.asarray(tr.info["examples"], dtype=float), np.asarray(tr.info["labels"], dtype=float)
    ex, ps = np.asarray(tr.columns["example"]), np.asarray(tr.columns["pass"])
    score = np.asarray(tr.columns["score"], dtype=float)

    def oracle(fid: str, p: int) -> dict[str, Any]:
        w = np.asarray(tr.weights_at(p), dtype=float)
        U = tr.mistakes_before(p)
        out: dict[str, Any] = {"U": U, "γ": g, "w": tuple(w), "w*": tuple(wstar), "⟨w*, w⟩": float(wstar @ w),
                               "‖w‖": float(np.linalg.norm(w)), "Uγ": U * g, "1 + 2/γ + 3Uγ/4": 1 + 2 / g + 0.75 * U * g,
                               "4/γ + 8/γ²": 4 / g + 8 / g ** 2, "12/γ²": 12 / g ** 2}
        if p >= 1:
            x = Xh[ex[p - 1]]
            out.update({"pass": int(ps[p - 1]) + 1, "example": int(ex[p - 1]) + 1, "yₜ": pm(lab[ex[p - 1]]),
                        "s = w·x/‖w‖": score[p - 1]})
            w_before = np.asarray(tr.weights_at(p - 1), dtype=float)
            nb = float(np.linalg.norm(w_before))
            if nb > 0:
                assert math.isclose(score[p - 1], float(w_before @ x) / nb, rel_tol=1e-9, abs_tol=1e-12)
        return out

    req = {"main": {"pass", "yₜ", "s = w·x/‖w‖", "w", "U"},
           "sandwich_A": {"U", "Uγ", "⟨w*, w⟩", "‖w‖", "1 + 2/γ + 3Uγ/4"} | ({"12/γ²"} if tr.proof.mistake_bound else set())}
    return Case(spec, oracle, req, allowed=("w·x = 0", "|s| < γ/2"), traces=(tr,))


def ftrl(**over) -> Case:
    from olc_ui.lessons.ftrl import lesson as L
    v = _defaults(L.SETTINGS, **over)
    data = L.load_data(v, None)
    tr = L.run_ftrl(data, v)
    band, sweep = L.band_for(data, v), L.sweep_for(data, tr)
    spec = L.spec_for(data, v, tr, band, sweep)
    X, y = np.asarray(data.X, dtype=float), np.asarray(data.y, dtype=float)
    T = len(y)
    c = tr.proof.constants
    a = float(c["alpha"])
    # recomputed here from the data ([002]): ℓₜ(w) = (1 − yₜ⟨w, xₜ⟩)/2, gₜ = −yₜxₜ/2
    W = np.vstack([tr.weights_at(p) for p in range(T + 1)])
    loss = (1 - y * np.einsum("ij,ij->i", W[:-1], X)) / 2
    EM = np.concatenate([[0.0], np.cumsum(loss)])
    S = np.vstack([np.zeros(X.shape[1]), np.cumsum(y[:, None] * X, axis=0)])
    best = np.arange(T + 1) / 2 - np.linalg.norm(S, axis=1) / 2
    g2 = (np.linalg.norm(X, axis=1) / 2) ** 2
    Lt = np.concatenate([[0.0], np.sqrt(np.maximum.accumulate(g2))])
    tt = np.arange(T + 1)
    bsqrt = np.sqrt(tt) * (1 / (2 * a) + a * Lt ** 2)
    terms = np.concatenate([[0.0], g2[:1], g2[1:] / np.sqrt(np.arange(1, T))])
    bdata = np.sqrt(tt) / (2 * a) + a / 2 * np.cumsum(terms)
    prob = np.asarray(tr.columns["prob_plus"], dtype=float)
    mistakes = tr.mistakes_before_each_round()
    L_ = float(c["L"])
    bstar = 1 / (math.sqrt(2) * L_)

    def oracle(fid: str, p: int) -> dict[str, Any]:
        out: dict[str, Any] = {"wₜ₊₁": tuple(W[p]), "u*": tuple(c["comparator"]), "t": p, "Mₜ": int(mistakes[p]),
                               "E[Mₜ] = Σℓₛ(wₛ)": EM[p], "min Σℓₛ(u)": best[p],
                               "its bound min Σℓₛ(u) + √t(1/(2α) + αLₜ²)": best[p] + bsqrt[p],
                               "regret Σℓₛ(wₛ) − ℓₛ(u*ₜ)": EM[p] - best[p],
                               "data-dependent bound √t/(2α) + (α/2)(‖g₁‖² + Σₛ₌₂ᵗ ‖gₛ‖²/√(s−1))": bdata[p],
                               "√t(1/(2α) + αLₜ²)": bsqrt[p], "E[M_T]": EM[T],
                               "the bound on E[M_T]": best[T] + math.sqrt(T) * (1 / (2 * a) + a * L_ ** 2),
                               "√T(1/(2α) + αL²)": math.sqrt(T) * (1 / (2 * a) + a * L_ ** 2), "α": a, "L": L_,
                               "α* = 1/(√2·L)": bstar, "√T(1/(2α*) + α*L²)": math.sqrt(T) * (1 / (2 * bstar) + bstar * L_ ** 2),
                               "measured regret at T": EM[T] - best[T], "number of learning rates": len(sweep.alphas),
                               "number of runs": len(band.seeds), "the 5% quantile": int(np.quantile(band.totals, 0.05, method="inverted_cdf")),
                               "the 95% quantile": int(np.quantile(band.totals, 0.95, method="inverted_cdf")),
                               "median": int(np.quantile(band.totals, 0.5, method="inverted_cdf"))}
        if p >= 1:
            ok = math.isclose(prob[p - 1], (1 + W[p - 1] @ X[p - 1]) / 2, rel_tol=1e-9, abs_tol=1e-12)
            out.update({"xₜ": tuple(X[p - 1]), "yₜ": pm(y[p - 1]), "P(ŷₜ = +1)": prob[p - 1] if ok else math.nan,
                        "ℓₜ(wₜ)": loss[p - 1], "ŷₜ": int(tr.predictions[p - 1])})
        return out

    req = {"plane": {"xₜ", "yₜ", "ŷₜ", "P(ŷₜ = +1)", "wₜ₊₁", "u*"}, "prob": {"yₜ", "P(ŷₜ = +1)", "ŷₜ"},
           "mistakes": {"E[Mₜ] = Σℓₛ(wₛ)", "its bound min Σℓₛ(u) + √t(1/(2α) + αLₜ²)", "Mₜ", "the bound on E[M_T]"},
           "regret": {"regret Σℓₛ(wₛ) − ℓₛ(u*ₜ)", "√t(1/(2α) + αLₜ²)"}, "alpha": {"α* = 1/(√2·L)", "α"}}
    return Case(spec, oracle, req, allowed=("P(ŷ = +1) = (1 + ⟨w, x⟩)/2", "‖u‖ ≤ 1"), traces=(tr,))


def winnow(**over) -> Case:
    from olc_ui.lessons.winnow import lesson as L
    v = _defaults(L.SETTINGS, **over)
    data = L.load_data(v, None)
    tr = L.run_winnow(v, data)
    spec = L.spec_for(v, data, tr)
    X, y = np.asarray(data.X), np.asarray(data.y, dtype=float)
    N = X.shape[1]
    beta = float(tr.proof.constants["beta"])
    k = int(tr.proof.constants.get("k") or 0)
    rel = np.asarray(tr.proof.constants.get("relevant", []), dtype=np.int64)
    mist = np.asarray(tr.mistakes)
    pos = y[mist] == 1

    def oracle(fid: str, p: int) -> dict[str, Any]:
        w = np.asarray(tr.weights_at(p), dtype=float)
        M = tr.mistakes_before(p)
        mp, mm = int(pos[:M].sum()), int((~pos[:M]).sum())
        others = np.sort(np.delete(w, rel))[::-1]
        out: dict[str, Any] = {"N": N, "(1+β)N": (1 + beta) * N, "1 + β": 1 + beta, "M": M, "m⁺": mp, "m⁻": mm, "k": k, "β": beta,
                               "the floor N/(1+β)": N / (1 + beta), "Φ = Σwᵢ": float(w.sum()),
                               "the upper bound N + βNm⁺ − βNm⁻/(1+β)": N + beta * N * mp - beta / (1 + beta) * N * mm,
                               "(1+β)/β + (2+β)m⁺": (1 + beta) / beta + (2 + beta) * mp,
                               "(1+β)/β + (2+β)k(1 + log₍₁₊β₎N)": (1 + beta) / beta + (2 + beta) * k * (1 + math.log(N, 1 + beta)),
                               "the smallest other weight": float(others[3:].min()) if others.size > 3 else math.nan,
                               "the next largest other weight": float(others[3]) if others.size > 3 else math.nan}
        if rel.size:
            out.update({"their smallest": float(w[rel].min()), "their largest": float(w[rel].max())})
        for i in range(N):
            out[f"w{_sub(i + 1)}"] = float(w[i])
        if p >= 1:
            x = X[p - 1] != 0
            before = np.asarray(tr.weights_at(p - 1), dtype=float)
            out.update({"number of ones": int(x.sum()), "relevant ones": int(x[rel].sum()), "yₜ": int(y[p - 1]),
                        "w·xₜ": float(before[x].sum()), "ŷₜ": int(tr.predictions[p - 1])})
        return out

    req = {"weights": {"N", "yₜ", "w·xₜ", "ŷₜ", "number of ones"} | ({f"w{_sub(i + 1)}" for i in rel} if rel.size <= 6
                                                                      else {"their smallest", "their largest"}),
           "potential": {"M", "Φ = Σwᵢ", "the floor N/(1+β)", "the upper bound N + βNm⁺ − βNm⁻/(1+β)"},
           "bound": {"M", "(1+β)/β + (2+β)m⁺"} | ({"(1+β)/β + (2+β)k(1 + log₍₁₊β₎N)"} if tr.proof.mistake_bound else set())}
    return Case(spec, oracle, req, allowed=("ŷ = 1 iff w·x > N", "k(1 + log₍₁₊β₎N)"), traces=(tr,))


def eg(**over) -> Case:
    from olc_ui.lessons.exponentiated_update import lesson as L
    v = _defaults(L.SETTINGS, **over)
    data = L.load_data(v, None)
    tr = L.run_eg(v, data)
    spec = L.spec_for(v, data, tr)
    X, y = np.asarray(data.X, dtype=float), np.asarray(data.y, dtype=float)
    N = X.shape[1]
    c = tr.proof.constants
    u = np.asarray(tr.info["comparator"], dtype=float)
    eta, delta = float(c["eta"]), float(c["delta"])
    C = eta * delta - math.log(math.cosh(eta))
    lnN = math.log(N)
    kl = lambda w: float(np.sum(u[u > 0] * np.log(u[u > 0] / w[u > 0])))  # noqa: E731
    phi1 = kl(np.full(N, 1.0 / N))
    lo, hi = 1e-9, 50.0          # η_max: the positive root of ηδ = ln cosh η, by bisection
    for _ in range(200):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if mid * delta - math.log(math.cosh(mid)) > 0 else (lo, mid)
    eta_star = math.atanh(delta)
    c_star = eta_star * delta - math.log(math.cosh(eta_star))

    def oracle(fid: str, p: int) -> dict[str, Any]:
        w = np.asarray(tr.weights_at(p), dtype=float)
        M = tr.mistakes_before(p)
        out: dict[str, Any] = {"N": N, "δ": delta, "M": M, "Φ = KL(u‖wₜ₊₁)": kl(w), "Φ₁ − C·M": phi1 - C * M,
                               "ln N − C·M": lnN - C * M, "C = ηδ − ln cosh η": C, "ln N": lnN, "Φ₁": phi1,
                               "ln N / C": lnN / C, "2 ln N/δ²": 2 * lnN / delta ** 2, "η_max": (lo + hi) / 2,
                               "η* = ½ ln((1+δ)/(1−δ))": eta_star, "C(η*)": c_star, "ln N / C(η*)": lnN / c_star,
                               "η": eta, "C": C}
        for i in range(N):
            out[f"w{_sub(i + 1)}"] = float(w[i])
            out[f"u{_sub(i + 1)}"] = float(u[i])
        if p >= 1:
            before = np.asarray(tr.weights_at(p - 1), dtype=float)
            s_ = float(before @ X[p - 1])
            out.update({"yₜ": pm(y[p - 1]), "⟨wₜ, xₜ⟩": s_, "yₜ⟨u, xₜ⟩": float(y[p - 1] * (u @ X[p - 1])),
                        "yₜ⟨wₜ, xₜ⟩": y[p - 1] * s_})
        return out

    req = {"weights": {"N", "yₜ", "⟨wₜ, xₜ⟩"}, "margins": {"yₜ⟨u, xₜ⟩", "yₜ⟨wₜ, xₜ⟩"},
           "sandwich": {"M", "Φ = KL(u‖wₜ₊₁)", "ln N − C·M"} | ({"ln N / C"} if tr.proof.mistake_bound else set()),
           "eta": {"C(η*)", "ln N / C(η*)", "η", "C", "η* = ½ ln((1+δ)/(1−δ))"}}
    return Case(spec, oracle, req, allowed=("a score of exactly 0", "Σ wᵢ = 1", "summing to 1"), traces=(tr,))


def experts(**over) -> Case:
    from olc_ui.lessons.experts import lesson as L
    v = _defaults(L.SETTINGS, **over)
    adv = L.load_advice(v)
    tr = L.run_learner(v, adv)
    band = L.band_for(v, adv)
    spec = L.spec_for(v, adv, tr, band)
    A, y = np.asarray(adv.X), np.asarray(adv.y, dtype=float)
    T, N = A.shape
    algo = tr.algorithm
    wrong = (A > 0) != (y[:, None] > 0)
    i_star = int(tr.info.get("best_expert", -1))
    if i_star < 0:
        i_star = int(np.argmin(wrong.sum(axis=0)))
    beta, eta = float(tr.info.get("beta", 0.5)), float(tr.info.get("eta", 0.5))
    logw = [np.asarray(tr.log_weights_at(p) if algo != "halving" else np.log(tr.weights_at(p)), dtype=float)
            for p in range(T + 1)]
    W = [np.exp(lw) for lw in logw]
    # Fₜ: the wrong experts' share of the weight; with no weight left RWM predicts +1 (wrong iff yₜ = −1)
    def lse(lw: np.ndarray) -> float:   # ln Σ e^lw, without underflow
        top = float(np.max(lw))
        return top + math.log(float(np.exp(lw - top).sum())) if np.isfinite(top) else -math.inf

    def share(t: int) -> float:
        lw = logw[t]
        if not np.isfinite(lw).any():
            return float(y[t] < 0)
        e = np.exp(lw - np.max(lw))
        return float(e[wrong[t]].sum() / e.sum())
    F = np.array([share(t) for t in range(T)])
    EM = np.concatenate([[0.0], np.cumsum(F)])
    # the weights' updates count an expert's penalties (on the learner's mistakes only, or every round)
    penal = np.array([[lw_prev - lw for lw_prev, lw in zip(logw[p - 1], logw[p])] for p in range(1, T + 1)])
    c = tr.proof.constants

    # (ln N + m ln(1/β)) / ln(2/(1+β)), with 0·ln(1/0) = 0; at β = 0 (η = 1) and m > 0 the proof leaves it
    # undefined (NaN: there is no finite bound), which a description prints "—"
    def wm_bound(m: int) -> float:
        return (math.log(N) + (m * math.log(1 / beta) if m else 0.0)) / math.log(2 / (1 + beta)) if beta > 0 or not m \
            else math.nan

    def rwm_bound(m: int) -> float:
        return (math.log(N) + (m * math.log(1 / (1 - eta)) if m else 0.0)) / eta if eta < 1 or not m else math.nan

    def oracle(fid: str, p: int) -> dict[str, Any]:
        w, lw = W[p], logw[p]
        M = tr.mistakes_before(p)
        m_i = wrong[:p].sum(axis=0)
        ms = int(m_i.min()) if p else 0
        pen_star = int(np.count_nonzero(penal[:p, i_star] > 0)) if p else 0
        out: dict[str, Any] = {"N": N, "i*": i_star + 1, "M": M, "Φ": math.exp(lse(lw)), "w(i*)": float(w[i_star]),
                               "m*ₜ": ms, "m*": int(c.get("m_star", 0)), "E[M] = ΣFₜ": EM[p], "E[M]": EM[p],
                               "β^(m(i*))": beta ** int(m_i[i_star]), "(1−η)^(m(i*))": (1 - eta) ** int(m_i[i_star]),
                               "N((1+β)/2)ᴹ": N * ((1 + beta) / 2) ** M, "N·e^(−ηΣF)": N * math.exp(-eta * EM[p]),
                               "(ln N + m* ln(1/β))/ln(2/(1+β))": wm_bound(int(c.get("m_star", 0))),
                               "(ln N + m* ln(1/(1−η)))/η": rwm_bound(int(c.get("m_star", 0))),
                               "(ln N + m*ₜ ln(1/β))/ln(2/(1+β))": wm_bound(ms), "(ln N + m*ₜ ln(1/(1−η)))/η": rwm_bound(ms),
                               "|Hₜ|": int((w > 0).sum()), "|H|/2ᴹ": N / 2 ** M, "log₂|H|": math.log2(N),
                               "number of experts still in": int((w > 0).sum()),
                               "ln β^(m(i*))": int(m_i[i_star]) * math.log(beta) if beta > 0 else -math.inf,
                               "ln (1−η)^(m(i*))": int(m_i[i_star]) * math.log(1 - eta) if eta < 1 else -math.inf,
                               "ln w(i*)": float(lw[i_star]), "ln Φ": lse(lw),
                               "ln N((1+β)/2)ᴹ": math.log(N) + M * math.log((1 + beta) / 2),
                               "ln N·e^(−ηΣF)": math.log(N) - eta * EM[p]}
        if band is not None:
            tot = np.asarray(band.totals)
            out.update({"number of runs": len(band.seeds),
                        "the 5% quantile": int(np.quantile(tot, 0.05, method="inverted_cdf")),
                        "the 95% quantile": int(np.quantile(tot, 0.95, method="inverted_cdf")),
                        "median": int(np.quantile(tot, 0.5, method="inverted_cdf"))})
        for i in range(N):
            out[f"w{_sub(i + 1)}"] = float(w[i])
            out[f"ln w{_sub(i + 1)}"] = float(lw[i])
        if p >= 1:
            a = A[p - 1]
            alive = W[p - 1] > 0
            out.update({"experts saying +1": int((a > 0).sum()), "experts wrong": int(wrong[p - 1].sum()),
                        "yₜ": pm(y[p - 1]), "ŷₜ": pm(tr.predictions[p - 1]), "the best expert's advice": pm(a[i_star]),
                        "experts in the version space saying +1": int((alive & (a > 0)).sum())})
            if fid == "weights" and algo == "halving":
                out["|Hₜ|"] = int(alive.sum())
        return out

    req = {"weights": {"N", "yₜ", "ŷₜ"}, "advice": {"experts wrong", "yₜ", "the best expert's advice", "ŷₜ"},
           "sandwich": {"|Hₜ|", "|H|/2ᴹ"} if algo == "halving" else
           {"ln Φ", "ln w(i*)"} if min(float(np.min(lw[np.isfinite(lw)], initial=0.0)) for lw in logw) < -700 else
           {"Φ", "w(i*)"}, "mistakes": {"M"}}
    return Case(spec, oracle, req, allowed=("+1 high, −1 low",), traces=(tr,))


def halving(**over) -> Case:
    from olc_core.hypotheses import HalfPlanes, Thresholds
    from olc_ui.lessons.halving import lesson as L
    v = _defaults(L.SETTINGS, **over)
    run = L.load_run(v)
    spec = L.spec_for(run)
    H, X, y, tr = run.H, np.asarray(run.X, dtype=float), np.asarray(run.y, dtype=float), run.trace
    T, every = len(y), tr.params["update"] == "every_round"
    labels = H.predict(X, np.arange(H.size))                    # (T, |H|): every hypothesis' label
    alive = [np.ones(H.size, dtype=bool)]                       # the version space, replayed here
    votes, preds = [], []
    for t in range(T):
        a = alive[-1]
        plus = int((labels[t, a] > 0).sum())
        pred = 1 if plus >= a.sum() - plus else -1              # a tie (0 : 0 included) predicts +1
        votes.append(plus)
        preds.append(pred)
        alive.append(a & (labels[t] == y[t]) if (pred != y[t] or every) else a)
    assert np.array_equal(np.asarray(preds), np.asarray(tr.predictions)), "the replay is the run"

    def oracle(fid: str, p: int) -> dict[str, Any]:
        M = tr.mistakes_before(p)
        out: dict[str, Any] = {"|H|": H.size, "M": M, "|Hₜ|": int(alive[p].sum()), "|H|/2ᴹ": H.size / 2 ** M,
                               "log₂|H|": math.log2(H.size)}
        if isinstance(H, HalfPlanes):
            out["the angle of its normal in degrees"] = math.degrees(float(H.angles()[run.target])) % 360
        if isinstance(H, Thresholds):
            out["θ*"] = float(H.thresholds[run.target])
        if p >= 1:
            x = X[p - 1]
            n = int(alive[p - 1].sum())
            out.update({"yₜ": pm(y[p - 1]), "for +1": votes[p - 1], "for −1": n - votes[p - 1], "ŷₜ": preds[p - 1],
                        "hypotheses removed": n - int(alive[p].sum()), "|Hₜ₊₁|": int(alive[p].sum()),
                        "the angle of xₜ in degrees": math.degrees(math.atan2(x[1], x[0])) % 360 if x.size > 1 else 0,
                        "xₜ": float(x[0]) if isinstance(H, Thresholds) else "".join(str(int(b)) for b in x)})
            if fid == "main":
                out["|Hₜ|"] = n
        return out

    req = {"main": {"yₜ", "ŷₜ", "|Hₜ|", "|Hₜ₊₁|", "for +1"}, "sandwich": {"M", "|Hₜ|", "|H|/2ᴹ"}}
    return Case(spec, oracle, req, allowed=("the vote 0 : 0 is a tie → +1",
                                             "the vote was tied, +1 by the tie rule, and the half that voted +1 leaves"), traces=(tr,))


def _conj_text(mask: np.ndarray) -> str:
    names = [("¬" if j % 2 else "") + "x" + _sub(j // 2 + 1) for j in range(mask.size)]
    kept = [names[j] for j in np.flatnonzero(mask)]
    return " ∧ ".join(kept) if kept else "True"


def _bits(x) -> str:
    return "".join("1" if v else "0" for v in np.asarray(x).ravel())


def _elimination(X: np.ndarray, y: np.ndarray) -> tuple[list[np.ndarray], list[int], list[int]]:
    """Elimination replayed here: per position the kept literals (xⱼ at 2j, ¬xⱼ at 2j + 1), per round the
    prediction and the number of h's literals that are 0 on xₜ."""
    T, n = X.shape
    h = np.ones(2 * n, dtype=bool)
    states, preds, false = [h.copy()], [], []
    for t in range(T):
        truth = np.empty(2 * n, dtype=bool)
        truth[0::2], truth[1::2] = X[t] != 0, X[t] == 0
        f = int((h & ~truth).sum())
        pred = int(f == 0)
        if y[t] == 1 and pred == 0:
            h = h & truth
        states.append(h.copy())
        preds.append(pred)
        false.append(f)
    return states, preds, false


def _conj_case(spec, tr, X, y) -> Case:
    X, y = np.asarray(X), np.asarray(y).astype(int)
    n = X.shape[1]
    states, preds, false = _elimination(X, y)
    assert np.array_equal(np.asarray(preds), np.asarray(tr.predictions).astype(int)), "the replay is the run"
    c = tr.proof.constants
    target = c.get("target")
    csize = int(np.asarray(target.mask).sum()) if target is not None else 0

    def oracle(fid: str, p: int) -> dict[str, Any]:
        M = tr.mistakes_before(p)
        fn = int(sum(1 for t in np.asarray(tr.mistakes)[:M] if y[t] == 1))
        h = states[p]
        out: dict[str, Any] = {"|c|": csize, "M": M, "|hₜ|": int(h.sum()), "hₜ": _conj_text(h),
                               "2n − n[M⁺≥1] − (M⁺−1)₊": 2 * n - n * (fn >= 1) - max(fn - 1, 0),
                               "n + 1 − |c|": n + 1 - csize, "n + 1": n + 1}
        if p >= 1:
            out.update({"xₜ": _bits(X[p - 1]), "yₜ": int(y[p - 1]), "h(xₜ)": preds[p - 1],
                        "literals of h that are 0 on xₜ": false[p - 1]})
        return out

    req = {"main": {"xₜ", "yₜ", "h(xₜ)", "|hₜ|"}, "sandwich": {"M", "|c|", "|hₜ|", "2n − n[M⁺≥1] − (M⁺−1)₊"}}
    return Case(spec, oracle, req, allowed=("that are 0 on xₜ", "says 0 on every example"), traces=(tr,))


def boolean(mode: str = "conj", **over) -> Case:
    from olc_ui.lessons.boolean_concepts import lesson as L
    v = _defaults(L.CONJ_SETTINGS if mode == "conj" else L.DL_SETTINGS, **over)
    stream, key, label = (L.conj_data if mode == "conj" else L.dl_data)(v)
    trace = L.run_conj(stream, key) if mode == "conj" else L.run_dl(stream, key, v["tie"])
    spec = (L.conj_spec_for if mode == "conj" else L.dl_spec_for)(stream, trace, key, label, 0)
    if mode == "conj":
        return _conj_case(spec, trace, stream.X, stream.y)
    return _dl_case(spec, trace, np.asarray(stream.X), np.asarray(stream.y).astype(int))


def _dl_case(spec, tr, X, y) -> Case:
    n = X.shape[1]
    c = tr.proof.constants
    lv = [np.asarray(tr.weights_at(p)).astype(int) for p in range(tr.T + 1)]

    def oracle(fid: str, p: int) -> dict[str, Any]:
        M = tr.mistakes_before(p)
        out: dict[str, Any] = {"number of rules": 4 * n + 2, "L": c.get("L"), "M": M,
                               "Φₜ = Σᵣ(levelᵣ − 1)": int((lv[p] - 1).sum()),
                               "Σᵣ(capᵣ − 1)": c.get("cap_sum"), "(4n+2)L": (4 * n + 2) * (c.get("L") or 0),
                               "(4n+2)(L+1)": (4 * n + 2) * ((c.get("L") or 0) + 1)}
        levels, counts = np.unique(lv[p], return_counts=True)
        out.update({f"rules on level {a}": int(b) for a, b in zip(levels.tolist(), counts.tolist())})
        if p >= 1:
            out.update({"xₜ": _bits(X[p - 1]), "yₜ": int(y[p - 1]), "ŷₜ": int(tr.predictions[p - 1]),
                        "the first level with a firing rule": int(tr.columns["level"][p - 1]),
                        "rules falling": int((lv[p] != lv[p - 1]).sum())})
        return out

    req = {"main": {"xₜ", "yₜ", "ŷₜ", "the first level with a firing rule"}, "sandwich": {"M", "Φₜ = Σᵣ(levelᵣ − 1)"}}
    return Case(spec, oracle, req, allowed=("→1", "→0"), traces=(tr,))


def adversary_game(n: int = 4, moves: str = "1110:1,0111:1,1011:0,0011:1") -> Case:
    from olc_ui.lessons.boolean_concepts import adversary as B
    if not moves:
        spec = B.start_spec(n)
        return Case(spec, lambda fid, p: {"|hₜ|": 2 * n}, {}, allowed=("says 0 on every example",))
    X = np.array([[int(b) for b in m.split(":")[0]] for m in moves.split(",")])
    y = np.array([int(m.split(":")[1]) for m in moves.split(",")])
    trace = B._game_run(f"adv-test-{moves}", X, y)
    spec = B._game_spec(f"adv-{n}-{B.encode_moves(X, y)}", trace, X, y)
    return _conj_case(spec, trace, X, y)


def learner_game(n: int = 5, preds: str = "101") -> Case:
    from olc_ui.lessons.boolean_concepts import lesson as L
    from olc_ui.lessons.boolean_concepts.view import learner_game_spec
    g = L.replay(n, preds)
    spec = learner_game_spec(n, g["X"], g["preds"], g["labels"], [str(c) for c in g["targets"]], g["agree"],
                             run_id=f"lrn-{n}-{preds}", next_example=g["next"], elimination_mistakes=None)
    X = np.asarray(g["X"])

    def oracle(fid: str, p: int) -> dict[str, Any]:
        out: dict[str, Any] = {"n": n, "M": p}
        if p >= 1:
            out.update({"xₜ": _bits(X[p - 1]), "ŷₜ": int(preds[p - 1]), "yₜ": 1 - int(preds[p - 1])})
        return out

    return Case(spec, oracle, {"main": {"xₜ", "ŷₜ", "yₜ", "M"}})


#: per learner, what each label of its sandwich's description names: a series of its proof (exp of it for a log)
COMPARE_SERIES = {
    "perceptron": {"Mγ": "M_gamma", "⟨w*, w⟩": "inner", "‖w‖": "norm", "√M·R": "sqrtM_R"},
    "winnow": {"(1+β)/β + (2+β)m⁺": "total_cap"},
    "normalized_winnow": {"Φ = KL(u‖wₜ₊₁)": "kl", "Φ₁ − C·M": "kl_upper", "ln N − C·M": "lnN_upper"},
    "weighted_majority": {"β^(m(i*))": "~lower_best", "w(i*)": "~log_w_best", "Φ": "~log_phi",
                          "N((1+β)/2)ᴹ": "~upper"},
    "randomized_weighted_majority": {"(1−η)^(m(i*))": "~lower_best", "w(i*)": "~log_w_best", "Φ": "~log_phi",
                                     "N·e^(−ηΣF)": "~upper", "E[M] = ΣFₜ": "expected_M"},
    "halving": {"|Hₜ|": "~log_size", "|H|/2ᴹ": "~upper"},
}
COMPARE_BOUND = {"perceptron": "R²/γ²", "winnow": "(1+β)/β + (2+β)k(1 + log₍₁₊β₎N)", "normalized_winnow": "ln N / C",
                 "weighted_majority": "(ln N + m* ln(1/β))/ln(2/(1+β))",
                 "randomized_weighted_majority": "(ln N + m* ln(1/(1−η)))/η", "halving": "log₂|H|"}


def compare(preset: str = "sparse", **over) -> Case:
    from olc_ui.lessons.compare import lesson as L
    v = _defaults(L.SETTINGS, preset=preset, **over)
    setup = L.load(v)
    spec = L.spec_for(setup)
    lanes = list(setup.lanes)
    y = np.asarray(lanes[0].y, dtype=float)
    adv = np.asarray(lanes[0].X)

    def weights(ln, p: int) -> np.ndarray:
        tr = ln.trace
        if ln.algorithm in ("perceptron", "halving"):
            return np.asarray(tr.weights_at(p), dtype=float)
        return np.exp(np.asarray(tr.log_weights_at(p), dtype=float))

    def oracle(fid: str, p: int) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for ln in lanes:
            out[f"{ln.name}'s M"] = ln.trace.mistakes_before(p)
            if ln.algorithm == "randomized_weighted_majority":
                out["E[M]"] = float(ln.trace.proof.per_round("expected_M")[p])
        if any(ln.algorithm in ("weighted_majority", "randomized_weighted_majority") for ln in lanes):
            out["m*ₜ"] = int(((adv[:p] > 0) != (y[:p, None] > 0)).sum(axis=0).min()) if p else 0
        if p >= 1:
            out["yₜ"] = pm(y[p - 1])
        if fid.startswith(("w", "s")) and fid[1:].isdigit():
            ln = lanes[int(fid[1:])]
            w = weights(ln, p)
            d = w.size
            for k in range(d):
                out["the threshold's weight" if ln.constant_last and k == d - 1 else f"w{_sub(k + 1)}"] = float(w[k])
            out.update({"‖w‖": float(np.linalg.norm(w)), "number of experts still in": int((w > 0).sum()),
                        "N": ln.trace.d, "M": ln.trace.mistakes_before(p)})
            pr = ln.trace.proof
            if fid[0] == "s":
                for label, key in COMPARE_SERIES[ln.algorithm].items():
                    val = float(pr.series[key.lstrip("~")][pr.index(p)])
                    out[label] = math.exp(val) if key.startswith("~") else val
                out[COMPARE_BOUND[ln.algorithm]] = pr.mistake_bound
        return out

    req = {"mistakes": {f"{ln.name}'s M" for ln in lanes}}
    for i, ln in enumerate(lanes):
        req[f"s{i}"] = set(COMPARE_SERIES[ln.algorithm])
    return Case(spec, oracle, req, traces=tuple(ln.trace for ln in lanes))


def _clicked() -> str:
    from olc_ui.shared import data as olc_data
    X = np.array([[0.5, 0.2], [-0.4, 0.3], [0.1, -0.6], [-0.2, -0.1], [0.3, 0.35]])
    return olc_data.encode_points(X, np.array([1, -1, 1, -1, -1]))


def _sub(i: int) -> str:
    return str(i).translate(str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉"))


# ------------------------------------------------------------------------------------------ the registry

BUILDERS: dict[str, Callable[[], Case]] = {
    "perceptron": perceptron,
    "perceptron, label noise": lambda: perceptron(noise=0.1, T=1000),
    "perceptron, d = 3": lambda: perceptron(d=3),
    "perceptron, tight instance": lambda: perceptron(data="tight"),
    "perceptron, tight instance d = 20": lambda: perceptron(data="tight", td=20),
    "margin_perceptron": margin,
    "margin_perceptron, label noise": lambda: margin(noise=0.1),
    "ftrl": ftrl,
    "ftrl, label noise": lambda: ftrl(noise=0.2, T=200),
    "winnow": winnow,
    "winnow, N = 40": lambda: winnow(N=40, k=2),
    "winnow, β = 0.5, label noise": lambda: winnow(beta=0.5, noise=0.1),
    "winnow, k = 8": lambda: winnow(k=8, N=50),
    "exponentiated_update": eg,
    "exponentiated_update, continuous, label noise": lambda: eg(data="continuous", noise=0.1, T=200),
    "exponentiated_update, η = 1.5": lambda: eg(eta_opt=False, eta=1.5),
    "experts, WM": experts,
    "experts, WM every round": lambda: experts(update="every_round"),
    "experts, RWM": lambda: experts(alg="rwm"),
    "experts, Halving": lambda: experts(alg="halving", best=0.0),
    "experts, Halving with a wrong best expert": lambda: experts(alg="halving"),
    "experts, WM β = 0": lambda: experts(beta=0.0),
    "experts, RWM η = 1": lambda: experts(alg="rwm", eta=1.0),
    "halving": halving,
    "halving, thresholds": lambda: halving(cls="thresholds"),
    "halving, conjunctions every round": lambda: halving(cls="conj", update="every_round"),
    "halving, disjunctions, label noise": lambda: halving(cls="disj", noise=0.2),
    "halving, adversary": lambda: halving(stream="adversary"),
    "boolean_concepts, conjunctions": boolean,
    "boolean_concepts, conjunctions, label noise": lambda: boolean("conj", noise=0.1),
    "boolean_concepts, decision lists": lambda: boolean("dl"),
    "boolean_concepts, conjunctions, the adversary's stream": lambda: boolean("conj", cdata="adversary"),
    "boolean_concepts, decision lists, majority of the firing rules": lambda: boolean("dl", tie="majority", dT=200),
    "perceptron, clicked points": lambda: perceptron(data="click", pts=_clicked()),
    "exponentiated_update, continuous, N = 5": lambda: eg(data="continuous", N=5, k=1, T=40),
    "boolean_concepts, decision lists, label noise": lambda: boolean("dl", dnoise=0.1),
    "boolean_concepts, the adversary game": adversary_game,
    "boolean_concepts, the adversary game before a move": lambda: adversary_game(moves=""),
    "boolean_concepts, be the learner": learner_game,
    "boolean_concepts, be the learner, the game over": lambda: learner_game(preds="10110"),
    "compare, sparse": compare,
    "compare, dense": lambda: compare("dense"),
    "compare, experts": lambda: compare("experts"),
    "compare, experts with no perfect expert": lambda: compare("experts", best=0.1),
    "experts, WM β = 0.01, weights below a float": lambda: experts(beta=0.01, update="every_round", T=2000, N=5,
                                                                   worst=0.9),
}


def build(label: str) -> Case:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return BUILDERS[label]()
