"""The Experts lesson: settings, the advice streams, cached runs and the panels around the viewer.

Weighted Majority, Randomised Weighted Majority and Halving on the same expert
advice. The page script (pages/experts.py) reads like every lesson's four moves:
settings from the URL, a cached core run, a spec built by pure functions
(:mod:`olc_ui.lessons.experts.view`), render.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
import streamlit as st

import olc_core
from olc_core.learners.randomized_weighted_majority import realised_mistakes

from olc_ui.lessons.experts.view import ALG_NAMES, experts_spec
from olc_ui.shared import caps, common, tables
from olc_ui.shared import data as olc_data
from olc_ui.shared.config import Setting
from olc_ui.shared.state import set_value
from olc_ui.shared.notebook import DataCall
from olc_ui.shared.transcript import PageSettings

__all__ = ["stop_run", "PAGE", "DATA_PAGE", "SETTINGS", "LEARNER_SETTINGS", "DATA_SETTINGS", "ALGS", "MAX_CELLS", "INTRO",
           "visible", "visible_learner", "visible_data", "Advice", "load_advice", "run_learner", "band_for",
           "spec_for", "notes", "summary_panel", "comparison_panel", "proof_steps", "downloads", "rates",
           "show_adversary", "give_perfect_expert"]

PAGE = "experts"
DATA_PAGE = "experts_data"
ALGS = {"wm": "weighted_majority", "rwm": "randomized_weighted_majority", "halving": "halving"}
#: the viewer ships every expert's weight at every round and the whole advice matrix: T·N is capped
MAX_CELLS = 30_000

LEARNER_SETTINGS = [
    Setting("alg", "Learner", "choice", "wm", options=tuple(ALGS),
            extra={"labels": {"wm": "Weighted Majority", "rwm": "Randomised Weighted Majority",
                              "halving": "Halving (β = 0)"}}),
    Setting("beta", "β: penalty factor (η = 1 − β)", "float", 0.5, lo=0.0, hi=0.99, step=0.01,
            help="a wrong expert's weight is multiplied by β; β = 0 is Halving"),
    Setting("eta", "η: learning rate", "float", 0.5, lo=0.01, hi=1.0, step=0.01,
            help="every round, a wrong expert's weight is multiplied by 1 − η"),
    Setting("update", "Update the weights", "choice", "on_mistake", options=("every_round", "on_mistake"),
            extra={"labels": {"every_round": "on every round [000]",
                              "on_mistake": "only on the learner's mistakes [001]"}}),
    Setting("draw", "Seed (RWM's draws)", "int", 0, lo=0, hi=1_000_000, step=1, extra={"widget": "number"}),
    Setting("runs", "Seeded runs for the band", "int", 100, lo=10, hi=500, step=10,
            help="RWM is run with seeds 0 … runs−1 on the same advice; the band runs from the 5% to the 95% quantile of their mistake counts"),
]
DATA_SETTINGS = [
    Setting("data", "Expert advice", "choice", "experts", options=("experts", "adversary"),
            extra={"labels": {"experts": "Experts with chosen error rates",
                              "adversary": "Adversary: labels against the weighted majority"}}),
    Setting("N", "Experts N", "int", 10, lo=1, hi=50, step=1),
    Setting("T", "Rounds T", "int", 300, lo=1, hi=2000, step=1),
    Setting("best", "Error rate of the best expert", "float", 0.1, lo=0.0, hi=0.5, step=0.01,
            help="expert 1 errs at this rate; 0 gives a perfect expert (m* = 0, as Halving needs)"),
    Setting("worst", "Error rate of the worst expert", "float", 0.45, lo=0.0, hi=1.0, step=0.01,
            help="the rates go evenly from the best expert (1) to the worst (N)"),
    Setting("errors", "How experts err", "choice", "correlated", options=("exact", "independent", "correlated"),
            extra={"labels": {"exact": "exactly rate × T rounds each (m known)",
                              "independent": "independently each round",
                              "correlated": "in correlated groups (the crowd can be wrong together)"},
                   "widget": "select"}),
    Setting("groups", "Correlated groups", "int", 2, lo=1, hi=10, step=1,
            help="experts i ≡ g (mod groups) share one coin per round"),
    Setting("noise", "Label noise", "float", 0.0, lo=0.0, hi=0.3, step=0.01,
            help="each label is flipped with this probability; experts are judged against the flipped labels"),
    Setting("seed", "Seed (the advice)", "int", 0, lo=0, hi=1_000_000, step=1, extra={"widget": "number"}),
]
#: every setting of the page (the URL holds them all, and the round ``t``)
SETTINGS = LEARNER_SETTINGS + DATA_SETTINGS


def visible_learner(v: dict[str, Any]) -> set[str]:
    """The learner's settings that apply to the chosen learner."""
    alg = v["alg"]
    return {"alg"} | ({"beta", "update"} if alg == "wm" else ({"eta", "draw", "runs"} if alg == "rwm"
                                                              else {"update"}))


def visible_data(v: dict[str, Any]) -> set[str]:
    """The advice settings that apply to the chosen kind of advice."""
    out = {"data", "N", "T", "seed"}
    if v["data"] == "experts":
        out |= {"best", "worst", "errors", "noise"} | ({"groups"} if v["errors"] == "correlated" else set())
    return out


def visible(v: dict[str, Any]) -> set[str]:
    """Every setting with a widget for these values."""
    return visible_learner(v) | visible_data(v)


def rates(best: float, worst: float, N: int) -> np.ndarray:
    """Error rates from the best expert (1) to the worst (N), evenly spaced."""
    return np.linspace(best, worst, N) if N > 1 else np.array([best])


@dataclass(frozen=True)
class Advice:
    X: np.ndarray
    y: np.ndarray
    key: str
    label: str
    info: dict = field(default_factory=dict)
    T_asked: int = 0


def capped_T(v: dict[str, Any]) -> int:
    return int(min(int(v["T"]), max(1, MAX_CELLS // int(v["N"]))))


@st.cache_resource(max_entries=32, show_spinner=False)
def _experts(T: int, N: int, best: float, worst: float, errors: str, groups: int, noise: float, seed: int):
    return olc_core.streams.experts(T=T, N=N, error_rates=rates(best, worst, N), seed=seed, noise=noise,
                                    exact=errors == "exact", groups=groups if errors == "correlated" else None)


@st.cache_resource(max_entries=32, show_spinner=False)
def _adversary(T: int, N: int, beta: float, update: str, seed: int):
    return olc_core.streams.adversary(T=T, N=N, beta=beta, update=update, seed=seed)


def adversary_params(v: dict[str, Any]) -> tuple[float, str]:
    """The β and update the adversary plays against: the chosen learner's own weighted majority."""
    if v["alg"] == "wm":
        return float(v["beta"]), v["update"]
    if v["alg"] == "rwm":  # RWM's weights are WM's with every-round updates and β = 1 − η
        return max(0.0, 1.0 - float(v["eta"])), "every_round"
    return 0.0, v["update"]


def data_call(v: dict[str, Any]) -> DataCall | None:
    """The olc_core.streams call :func:`load_advice` makes for these settings (the notebook download's data cell)."""
    T, N, seed = capped_T(v), int(v["N"]), int(v["seed"])
    if v["data"] == "adversary":
        beta, upd = adversary_params(v)
        return DataCall("adversary", {"T": T, "N": N, "beta": beta, "update": upd, "seed": seed})
    return DataCall("experts", {"T": T, "N": N, "error_rates": rates(float(v["best"]), float(v["worst"]), N),
                                "seed": seed, "noise": float(v["noise"]), "exact": v["errors"] == "exact",
                                "groups": int(v["groups"]) if v["errors"] == "correlated" else None})


def load_advice(v: dict[str, Any]) -> Advice:
    """The advice for these settings; ``DataError`` with a message for the page when it cannot be made."""
    T, N = capped_T(v), int(v["N"])
    if v["data"] == "adversary":
        if N < 2:
            raise olc_data.DataError("the adversary needs at least two experts to split the weight between "
                                     "(set N ≥ 2)")
        beta, upd = adversary_params(v)
        s = _adversary(T, N, beta, upd, int(v["seed"]))
        what = {"wm": f"WM with β = {beta:g}, updating {upd.replace('_', ' ')}",
                "rwm": f"RWM's weights (η = {1 - beta:g})", "halving": "Halving's majority vote"}[v["alg"]]
        return Advice(s.X, s.y, f"adv-T{T}-N{N}-b{beta:g}-{upd}-s{v['seed']}",
                      f"the adversary against {what}", dict(s.info), int(v["T"]))
    if v["worst"] < v["best"]:
        raise olc_data.DataError(f"the worst expert's error rate ({v['worst']:g}) is below the best one's "
                                 f"({v['best']:g}); raise it")
    s = _experts(T, N, float(v["best"]), float(v["worst"]), v["errors"], int(v["groups"]), float(v["noise"]),
                 int(v["seed"]))
    key = (f"exp-T{T}-N{N}-b{v['best']:g}-w{v['worst']:g}-{v['errors']}-g{v['groups']}-n{v['noise']:g}"
           f"-s{v['seed']}")
    lab = ((f"{common.count(N, 'expert')}, error rates {v['best']:g} … {v['worst']:g}" if N > 1 else
            f"1 expert, error rate {v['best']:g}")
           + (f", {v['noise']:.0%} label noise" if v["noise"] else ""))
    return Advice(s.X, s.y, key, lab, dict(s.info), int(v["T"]))


def params_for(v: dict[str, Any]) -> dict[str, Any]:
    alg = v["alg"]
    if alg == "wm":
        return {"beta": float(v["beta"]), "update": v["update"]}
    if alg == "rwm":
        return {"eta": float(v["eta"]), "seed": int(v["draw"])}
    return {"update": v["update"]}


@st.cache_resource(max_entries=32, show_spinner=False)
def _run(key: str, algorithm: str, _X, _y, params: tuple):
    return olc_core.run(algorithm, _X, _y, **dict(params))


def run_learner(v: dict[str, Any], adv: Advice, alg: str | None = None):
    """The cached core run of the chosen learner (or ``alg``) on the advice."""
    alg = alg or v["alg"]
    p = params_for({**v, "alg": alg})
    return _run(adv.key, ALGS[alg], adv.X, adv.y, tuple(sorted(p.items())))


@st.cache_resource(max_entries=16, show_spinner=False)
def _band(key: str, _X, _y, eta: float, runs: int):
    return realised_mistakes(_X, _y, seeds=runs, eta=eta)


def band_for(v: dict[str, Any], adv: Advice):
    """RWM's realised mistakes over ``runs`` seeded runs on the same advice (None for the other learners)."""
    if v["alg"] != "rwm":
        return None
    return _band(adv.key, adv.X, adv.y, float(v["eta"]), int(v["runs"]))


def run_id(v: dict[str, Any], adv: Advice) -> str:
    p = params_for(v)
    extra = f"-runs{v['runs']}" if v["alg"] == "rwm" else ""
    return f"{adv.key}-{v['alg']}-" + "-".join(f"{k}{p[k]}" for k in sorted(p)) + extra


@st.cache_resource(max_entries=16, show_spinner=False)
def _spec(rid: str, _trace, _X, _y, _band) -> dict:
    return experts_spec(_trace, _X, _y, run_id=rid, band=_band)


def spec_for(v: dict[str, Any], adv: Advice, trace, band) -> dict:
    return _spec(run_id(v, adv), trace, adv.X, adv.y, band)


#: what the page says first, per learner (Markdown with KaTeX; no user text)
INTRO = {
    "wm": ("$N$ experts advise $a_{t,i} \\in \\{-1,+1\\}$; the learner predicts the **weighted majority** "
           "(ties go to $+1$, as in [001]'s rule $\\hat y = 1[W^+ \\ge W^-]$) and multiplies a wrong expert's weight "
           "by $\\beta$ — on every round, or only on the learner's own mistakes (the setting *Update the weights*; "
           "this page starts with the latter). With "
           "$\\Phi_t = \\sum_i w_{t,i}$ the proof is a **sandwich in log scale**: "
           "$\\beta^{m_{i}} \\le w_i \\le \\Phi_t \\le N\\left(\\tfrac{1+\\beta}{2}\\right)^{M}$. The lower "
           "end falls only when the best expert errs ($m^*$ times in all), while the upper end drops by "
           "$\\ln\\tfrac{2}{1+\\beta}$ with each of the learner's mistakes, so they must cross: $M \\le \\frac{\\ln N + m^*\\ln(1/\\beta)}{\\ln(2/(1+\\beta))}$."),
    "rwm": ("The learner follows **one expert drawn with probability** $w_i/\\Phi_t$ and multiplies every wrong "
            "expert's weight by $1-\\eta$. It errs with probability $F_t$, the wrong experts' share of the "
            "weight, and $\\Phi_{t+1} = \\Phi_t(1-\\eta F_t)$. The sandwich "
            "$(1-\\eta)^{m^*} \\le \\Phi \\le N e^{-\\eta\\sum_t F_t}$ bounds the **expected** mistakes: "
            "$\\mathbb{E}[M] = \\sum_t F_t \\le \\frac{\\ln N + m^*\\ln(1/(1-\\eta))}{\\eta}$. One seeded run "
            "scatters around it: the band shows many."),
    "halving": ("**Halving** keeps the experts consistent so far (the version space $H_t$) and predicts their "
                "majority; on a mistake at least half of $H_t$ was wrong and leaves. If some expert never errs, "
                "$1 \\le |H_t| \\le |H|/2^M$, so $M \\le \\log_2|H|$. It is Weighted Majority with "
                "$\\beta = 0$."),
}


def show_adversary() -> None:
    """Callback of the one-click button: switch the advice to the adversary."""
    set_value(DATA_PAGE, DATA_SETTINGS, "data", "adversary")


def give_perfect_expert() -> None:
    """Callback: experts with chosen error rates, the best one perfect (m* = 0), no label noise."""
    set_value(DATA_PAGE, DATA_SETTINGS, "data", "experts")
    set_value(DATA_PAGE, DATA_SETTINGS, "best", 0.0)
    set_value(DATA_PAGE, DATA_SETTINGS, "noise", 0.0)


# ------------------------------------------------------------------------------------------ messages

def notes(v: dict[str, Any], adv: Advice, trace) -> list[tuple[str, str]]:
    """What the page must say about these settings: (kind, text) with kind info / warning / error.

    Extreme settings (β → 0 or 1, η → 0, N = 1, T = 1, no perfect expert where one is
    needed, a capped T) get a plain message; numbers come from the run."""
    out: list[tuple[str, str]] = []
    N, T = trace.d, trace.T
    p = trace.proof
    alg = v["alg"]
    if adv.T_asked > T:
        out.append(("info", f"T is capped at {T} rounds for N = {N} experts (the step viewer ships every "
                            f"expert's weight at every round; at most {MAX_CELLS:,} rounds × experts)."))
    for a in p.failed_assumptions:
        r = int(a.rounds[0]) + 1 if len(a.rounds) else None
        when = f" (from round {r} on)" if r is not None else ""
        if alg == "wm":
            why = (f"β = 0 and every expert errs (m* = {p.constants['m_star']}), so ln(1/β) = ∞{when}. Set the best "
                   "expert's error rate to 0 and the label noise to 0 (a perfect expert), or choose β > 0.")
        elif alg == "rwm":
            why = (f"η = 1 and every expert errs (m* = {p.constants['m_star']}), so ln(1/(1−η)) = ∞{when}. Set "
                   "η < 1, or give a perfect expert (best error rate 0, no label noise).")
        else:
            why = (f"no expert is consistent with every label{when}: the version space empties and the ledger "
                   "shows 1 ≤ |Hₜ| fail. Give a perfect expert (best error rate 0, no label noise).")
        out.append(("error", f"The theorem gives **no bound** here: {why}"))
    b = p.mistake_bound
    if b is not None and b >= T and T >= 10 and v["data"] != "adversary":
        what = "expected mistakes" if alg == "rwm" else "mistakes"
        out.append(("info", f"The bound ({b:.4g} {what}) is at least the number of rounds T = {T}: true, but it "
                            "says nothing here. " + (
                                "β close to 1 makes each penalty tiny, so ln(2/(1+β)) ≈ (1−β)/2 is small."
                                if alg == "wm" and v["beta"] >= 0.9 else
                                "η close to 0 makes ln N/η large." if alg == "rwm" and v["eta"] <= 0.1 else "")))
    if alg == "wm" and 0 < v["beta"] <= 0.05:
        out.append(("info", f"β = {v['beta']:g} is close to 0: one penalty nearly removes an expert, as Halving "
                            "does; the m*·ln(1/β) term makes the bound large"
                            + (f" ({b:.4g} here)." if b is not None else ".")))
    if alg == "rwm" and v["eta"] <= 0.05:
        out.append(("info", f"η = {v['eta']:g} is close to 0: the weights barely move, RWM draws nearly uniformly, "
                            "and the ln N/η term makes the bound large"
                            + (f" ({b:.4g} here)." if b is not None else ".")))
    if N == 1:
        out.append(("info", "With one expert the learner just copies it: M = m* and ln N = 0 in the bound."))
    if T == 1:
        out.append(("info", "T = 1: a single round. Step once with Next."))
    if alg == "halving" and v["data"] == "adversary":
        out.append(("info", "Against Halving the adversary makes every expert wrong in the end: watch the version "
                            "space empty after about log₂ N mistakes."))
    return out


# ------------------------------------------------------------------------------------------ panels

def _fmt_bound(b) -> str:
    return f"{b:.5g}" if b is not None else "n/a"


_NO_BOUND = "the theorem's assumption fails on this advice, so it gives no bound (the box below says why)"


def summary_panel(v: dict[str, Any], adv: Advice, trace, band) -> None:
    """What the run did, its constants and whether the theorem applies."""
    p = trace.proof
    c = p.constants
    alg = v["alg"]
    with st.container(border=True):
        st.markdown(f"#### {ALG_NAMES[trace.algorithm]} on {adv.label}")
        cols = st.columns(4)
        cols[0].metric("Mistakes M (whole run)", f"{trace.n_mistakes}")
        if alg == "halving":
            cols[1].metric("Experts |H| = N", f"{trace.d}")
            cols[2].metric("Consistent experts", f"{c['n_consistent']}")
            cols[3].metric("Bound log₂|H|", _fmt_bound(p.mistake_bound),
                           help=None if p.mistake_bound is not None else _NO_BOUND)
        else:
            cols[1].metric("Best expert m*", f"{c['m_star']}", help="the mistakes of the best expert over the whole run")
            if alg == "rwm":
                cols[2].metric("E[M] = Σ Fₜ", f"{c['expected_mistakes']:.4g}",
                               help="expected mistakes: the sum over rounds of Fₜ, the chance of erring at round t")
                cols[3].metric("Bound on E[M]", _fmt_bound(p.mistake_bound),
                           help=None if p.mistake_bound is not None else _NO_BOUND)
            else:
                cols[2].metric("Regret M − m*", f"{trace.n_mistakes - c['m_star']}")
                cols[3].metric("Bound on M", _fmt_bound(p.mistake_bound),
                           help=None if p.mistake_bound is not None else _NO_BOUND)
        if p.applies:
            if alg == "wm":
                st.success(f"With N = {c['N']}, β = {c['beta']:g} and m* = {c['m_star']} "
                           f"(expert {c['best_expert'] + 1}), the theorem promises $M \\le \\frac{{\\ln N + m^*\\ln(1/\\beta)}}{{\\ln(2/(1+\\beta))}} = "
                           f"{p.mistake_bound:.5g}$ on **any** such advice. The run made **{trace.n_mistakes}**.")
            elif alg == "rwm":
                st.success(f"The theorem bounds the **expected** mistakes: $\\mathbb{{E}}[M] = \\sum_t F_t = "
                           f"{c['expected_mistakes']:.4g} \\le {p.mistake_bound:.5g}$. This seeded run made "
                           f"**{trace.n_mistakes}**"
                           + (common.band_text(band) if band is not None else "."))
            else:
                st.success(f"Some expert is consistent with every label ({c['n_consistent']} of them), so "
                           f"$M \\le \\log_2|H| = {p.mistake_bound:.4g}$. The run made **{trace.n_mistakes}**.")
        ties = trace.info.get("tie_rule")
        if ties:
            st.caption(f"Tie rule: {ties}, as [001]'s Weighted Majority does (ŷ = 1[W⁺ ≥ W⁻]; Halving is its β = 0).")
        if adv.info.get("kind") == "adversary":
            st.caption(f"The adversary made the learner err on {trace.n_mistakes} of {trace.T} rounds"
                       + (f"; the bound is {p.mistake_bound:.5g}, so M reached {trace.n_mistakes / p.mistake_bound:.0%}"
                          " of it." if p.mistake_bound else "."))


def comparison_panel(v: dict[str, Any], adv: Advice) -> None:
    """The three learners on the same advice, with the parameters chosen on the page."""
    rows = []
    for alg in ALGS:
        tr = run_learner(v, adv, alg)
        p = tr.proof
        c = p.constants
        if alg == "wm":
            name = f"Weighted Majority (β = {v['beta']:g}, {v['update'].replace('_', ' ')})"
        elif alg == "rwm":
            name = f"Randomised WM (η = {v['eta']:g}, draw seed {v['draw']})"
        else:
            name = f"Halving ({v['update'].replace('_', ' ')})"
        rows.append({
            "learner": name + ("  ← shown above" if alg == v["alg"] else ""),
            "mistakes M": tr.n_mistakes,
            "E[M] = Σ Fₜ": f"{c['expected_mistakes']:.4g}" if alg == "rwm" else "",
            "theorem's bound": (f"{p.mistake_bound:.5g}" + (" (on E[M])" if alg == "rwm" else ""))
            if p.mistake_bound is not None else "none: every expert errs",
        })
    st.markdown("#### The three learners on this same advice")
    tables.table(rows, key="experts_learners", label="The three learners on this same advice", hide_index=True,
                 width="stretch")


def proof_steps(v: dict[str, Any], trace) -> None:
    """The proof in a few steps, with this run's numbers."""
    p = trace.proof
    c = p.constants
    alg = v["alg"]
    with st.expander("The proof in four steps, with this run's numbers"):
        if alg == "wm":
            st.markdown(
                "1. **Potential** $\\Phi_t = \\sum_i w_{t,i}$, $\\Phi_1 = N$.\n"
                "2. **Lower bound.** Expert $i$ is penalised at most once per mistake it makes, so "
                "$w_i \\ge \\beta^{m_i}$, and $\\Phi_t \\ge w_{i^*} \\ge \\beta^{m^*}$.\n"
                "3. **Upper bound.** On a learner mistake, the wrong side held at least half the weight and loses "
                "the fraction $1-\\beta$ of it: $\\Phi_{t+1} \\le \\tfrac{1+\\beta}{2}\\Phi_t$. So "
                "$\\Phi \\le N\\left(\\tfrac{1+\\beta}{2}\\right)^M$.\n"
                "4. **Combine** in logarithms: $m^*\\ln\\beta \\le \\ln N + M\\ln\\tfrac{1+\\beta}{2}$, i.e. "
                "$M \\le \\frac{\\ln N + m^*\\ln(1/\\beta)}{\\ln(2/(1+\\beta))}$ (note [001], eq. 6)"
                + (f" $= \\frac{{\\ln {c['N']} + {c['m_star']}\\ln(1/{c['beta']:g})}}{{\\ln(2/(1+{c['beta']:g}))}} "
                   f"= {p.mistake_bound:.5g}$ here." if p.mistake_bound is not None else
                   " — not here: " + "; ".join(a.detail for a in p.failed_assumptions) + ".")
                + "\n\nThe update variant changes only step 2's reason: updating on every round gives "
                "$w_i = \\beta^{m_i}$ exactly; updating only on mistakes gives $w_i = \\beta^{p_i}$ with "
                "$p_i \\le m_i$ penalties. Both sandwiches close at the same bound.")
        elif alg == "rwm":
            st.markdown(
                "1. **Potential** $\\Phi_t = \\sum_i w_{t,i}$; the learner errs at round $t$ with probability "
                "$F_t$, the weight fraction of the wrong experts, so $\\mathbb{E}[M] = \\sum_t F_t$.\n"
                "2. **Update identity.** $\\Phi_{t+1} = \\Phi_t(1 - \\eta F_t) \\le \\Phi_t e^{-\\eta F_t}$, so "
                "$\\Phi_{T+1} \\le N e^{-\\eta\\sum_t F_t}$.\n"
                "3. **Lower bound.** $\\Phi_{T+1} \\ge w_{i^*} = (1-\\eta)^{m^*}$.\n"
                "4. **Combine:** $\\sum_t F_t \\le \\frac{\\ln N + m^*\\ln(1/(1-\\eta))}{\\eta}$ (from the "
                "potential of RWM, note [000] §1.2)"
                + (f" $= {p.mistake_bound:.5g}$ here (E[M] = {c['expected_mistakes']:.4g})."
                   if p.mistake_bound is not None else " — not here: "
                   + "; ".join(a.detail for a in p.failed_assumptions) + ".")
                + (f" For η ≤ ½ this is at most $(1+\\eta)m^* + \\ln N/\\eta = {c['bound_eta_form']:.5g}$: the "
                   f"expected regret is at most $\\eta m^* + \\ln N/\\eta = {c['regret_bound']:.4g}$ (note [000], eq. 2)."
                   if c.get("bound_eta_form") is not None else ""))
        else:
            st.markdown(
                "1. **Potential** $|H_t|$, the experts consistent with every label on which Halving updated.\n"
                "2. **Lower bound.** An expert consistent with every label is never removed: $|H_t| \\ge 1$."
                + ("".join(" **This step needs an expert consistent with every label**, and there is none here ("
                           + a.detail + "): the step does not hold on this run." for a in p.failed_assumptions))
                + "\n"
                "3. **Upper bound.** On a mistake the majority of $H_t$ was wrong and is removed: "
                "$|H_{t+1}| \\le |H_t|/2$, so $|H_t| \\le |H|/2^M$.\n"
                "4. **Combine:** $1 \\le |H|/2^M$, i.e. $M \\le \\log_2|H|$"
                + (f" $= {p.mistake_bound:.4g}$ here." if p.mistake_bound is not None else
                   " — not here: " + "; ".join(a.detail for a in p.failed_assumptions) + ".")
                + " Halving is Weighted Majority with $\\beta = 0$.")


def downloads(trace, adv: Advice, spec: dict, position: int) -> None:
    common.downloads(trace, spec, position, f"experts_{trace.algorithm}", adv.X, adv.y, settings=TRANSCRIPT)


#: the page's drawing cap, stated under its viewer (olc_ui/shared/caps.py)
CAP = caps.text(f"rounds × experts ≤ {MAX_CELLS:,} (T is cut, and the page says so); the sandwich's paths and the "
                 "expected-mistakes curve thinned to at most 700 points")


#: what the page tells the proof transcript and the download names (olc_ui/shared/transcript.py)
TRANSCRIPT = PageSettings(SETTINGS, lambda v, trace: visible(v), recipe=data_call)


def stop_run(v: dict[str, Any]) -> tuple[dict, Any]:
    """The spec and the run this page shows for the settings ``v`` (every setting of its link, decoded; no upload):
    a tour's stop as its offline file carries it (olc_ui/shared/tours/offline.py) — the calls pages/experts.py makes
    (tests/tours/test_tour_offline.py checks the spec against the page's at every shipped stop)."""
    adv = load_advice(v)
    trace = run_learner(v, adv)
    return spec_for(v, adv, trace, band_for(v, adv)), trace
