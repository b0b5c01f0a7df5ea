"""The Compare lesson: settings, the shared stream, cached runs, the N sweep and the panels.

Several learners read the same rounds; one step viewer (one spec, :mod:`olc_ui.lessons.compare.view`)
moves all their charts together. Three presets:

* ``sparse``: a sparse target (k relevant of N, dense instances): Perceptron vs Winnow vs the
  exponentiated update, and their mistakes against N from 10 to 10⁴ (medians and ranges over seeds,
  each theorem's bound over its measurements);
* ``dense``: a dense target (half the variables relevant) with sparse instances (one bit on)
  [Kivinen–Warmuth–Auer]: the Perceptron wins;
* ``experts``: Weighted Majority vs Randomised WM vs Halving on the same advice, with the best
  expert's mistakes.

Every number shown comes from ``olc_core.run``.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
import streamlit as st

import olc_core
from olc_core.streams.compare import dense_instances, sparse_instances, views

from olc_ui.lessons.compare.describe import describe_sweep
from olc_ui.lessons.compare.view import NAMES, SOURCES, Lane, compare_spec, sweep_figure
from olc_ui.shared import chart_names, common, tables, ties
from olc_ui.shared import data as olc_data
from olc_ui.shared.config import Setting
from olc_ui.shared.transcript import PageSettings

__all__ = ["stop_run", "PAGE", "SETTINGS", "PRESETS", "LINEAR", "EXPERTS", "visible", "Setup", "load", "spec_for", "sweep",
           "sweep_rows", "sweep_cards", "downloads_panel", "capped_T", "notes", "MAX_CELLS", "SWEEP_N", "SWEEP_SEEDS", "SWEEP_T", "dense_k", "why", "SOURCES", "INTRO", "summary_rows"]

PAGE = "compare"
LINEAR = ("perceptron", "winnow", "normalized_winnow")
EXPERTS = ("weighted_majority", "randomized_weighted_majority", "halving")
PRESETS = {"sparse": "Sparse target: Perceptron vs Winnow vs the exponentiated update",
           "dense": "Dense target, sparse instances (Kivinen–Warmuth–Auer)",
           "experts": "Expert advice: Weighted Majority vs Randomised WM vs Halving"}

SETTINGS = [
    Setting("preset", "What to compare", "choice", "sparse", options=tuple(PRESETS), extra={"labels": PRESETS}),
    Setting("N", "Features N", "int", 100, lo=10, hi=200, step=1,
            help="the stepping view draws every weight; the chart of mistakes against N goes to 10⁴"),
    Setting("k", "Relevant variables k", "int", 2, lo=1, hi=10, step=1,
            help="the target is the disjunction (OR) of k of the N variables"),
    Setting("experts", "Experts N", "int", 10, lo=2, hi=50, step=1),
    Setting("best", "Error rate of the best expert", "float", 0.0, lo=0.0, hi=0.5, step=0.01,
            help="0: a perfect expert, as Halving needs; above 0 Halving's version space empties"),
    Setting("worst", "Error rate of the worst expert", "float", 0.45, lo=0.0, hi=1.0, step=0.01),
    Setting("beta", "Weighted Majority's β", "float", 0.5, lo=0.01, hi=0.99, step=0.01),
    Setting("eta", "Randomised WM's η", "float", 0.5, lo=0.01, hi=0.99, step=0.01),
    Setting("T", "Rounds T", "int", 300, lo=10, hi=1000, step=10),
    Setting("seed", "Seed", "int", 0, lo=0, hi=1_000_000, step=1, extra={"widget": "number"}),
]

#: the viewer ships every learner's weights in every state: rounds × features is capped (a spec of
#: ≈ 1.5 MB of JSON at most; bench/compare_sweep.py measures it)
MAX_CELLS = 60_000

#: the N grid of the sweep (log-spaced), its seeds and rounds per preset
SWEEP_N = {"sparse": (10, 32, 100, 316, 1000, 3162, 10_000), "dense": (10, 22, 46, 100, 215)}
SWEEP_SEEDS = 5
#: rounds per run of the sweep: the dense preset needs more (every relevant variable must show up)
SWEEP_T = {"sparse": 300, "dense": 1500}

INTRO = ("The learners below read **the same rounds**; the step controls move every chart together "
         "(*Next mistake* goes to the next round on which any of them errs). "
         "Each learner's sandwich is its own proof: a potential between two proven bounds, drawn against its "
         "mistake count out to where the bounds cross — its mistake bound.")
def _n(x: float) -> str:
    """A bound or a constant as the sentences print it (5 significant digits, thousands separated)."""
    x = float(x)
    if abs(x) >= 1e4 and x == round(x):
        return f"{int(round(x)):,}"
    if abs(x) >= 1e4:
        return f"{x:,.0f}"
    return f"{x:.5g}"


def _ranking(lanes, what: str, key, most: str = "fewest") -> str:
    """Who has the fewest (``key`` per lane), with ties said as ties: "the Perceptron and … tie (116 each)"."""
    vals = [(ln.name, key(ln)) for ln in lanes]
    best = min(v for _, v in vals)
    winners = [nm for nm, v in vals if v == best]
    others = ", ".join(f"{nm} {_n(v)}" for nm, v in vals if v != best)
    if len(winners) == 1:
        head = f"{winners[0]} has the {most} {what} ({_n(best)})"
    else:
        head = f"{' and '.join(winners)} tie on {what} ({_n(best)} each"
        head += ")" if not others else ""
        return head + (f"; {others})" if others else "")
    return head + (f"; {others}" if others else "")


def why(v: dict[str, Any], setup: Setup) -> str:
    """What the comparison shows on this run, every number from the run (and the stream's generator)."""
    lanes = {ln.algorithm: ln for ln in setup.lanes}
    if v["preset"] == "experts":
        return _why_experts(lanes)
    P, W, E = lanes["perceptron"], lanes["winnow"], lanes["normalized_winnow"]
    M = {a: int(ln.trace.n_mistakes) for a, ln in lanes.items()}
    B = {a: ln.trace.proof.mistake_bound for a, ln in lanes.items()}
    cP, cW, cE = P.trace.proof.constants, W.trace.proof.constants, E.trace.proof.constants
    N = int(W.trace.proof.constants["N"])
    k = int(W.trace.proof.constants["k"])
    order = list(setup.lanes)
    fewest = _ranking(order, "mistakes", lambda ln: int(ln.trace.n_mistakes))
    bounded = [ln for ln in order if ln.trace.proof.mistake_bound is not None]
    lowest = (_ranking(bounded, "bound", lambda ln: float(ln.trace.proof.mistake_bound), "lowest") if bounded
              else "no theorem gives a bound")
    same = np.array_equal(np.asarray(P.trace.mistakes), np.asarray(E.trace.mistakes))
    tie = (f"The exponentiated update errs on exactly the Perceptron's rounds ({M['perceptron']} mistakes each): "
           "its curve lies on the Perceptron's. " if same else "")
    r2 = float(cP["radius"]) ** 2
    if v["preset"] == "sparse":
        p_on = 1.0 - 2.0 ** (-1.0 / k)
        mw = min(M.values()) == M["winnow"] and sum(m == M["winnow"] for m in M.values()) == 1
        bw = B["winnow"] is not None and all(b is None or b > B["winnow"] for a, b in B.items() if a != "winnow")
        head = "Why Winnow wins here: " if (mw and bw) else "What this run shows: "
        return (head + f"on this run {fewest}; on the theorems' bounds {lowest}. {tie}"
                + (f"Only k = {k} of the N = {N} variables matter, but " if 2 * k <= N else
                   f"k = {k} of the N = {N} variables matter (a target this dense leaves the multiplicative updates "
                   "little to gain: their advantage is a sparse target). ")
                + ("the stream" if 2 * k <= N else "The stream") + " turns each bit on independently "
                f"with probability 1 − 2^(−1/k) = {p_on:.3f} (so that about half the examples are positive): "
                f"about N·(1 − 2^(−1/k)) = {N * p_on:.1f} bits are on in each example. So the Perceptron's R² "
                f"(here {r2:.4g}) and its bound R²/γ² = {_n(B['perceptron'])} grow linearly with N, while the "
                f"multiplicative updates pay for the N features only through log N (Winnow's bound "
                f"{_n(B['winnow'])}, the exponentiated update's {_n(B['normalized_winnow'])}).")
    # dense target, sparse instances
    pw = B["perceptron"] is not None and all(b is None or b > B["perceptron"] for a, b in B.items()
                                             if a != "perceptron")
    pm = all(m > M["perceptron"] for a, m in M.items() if a != "perceptron")
    head = ("Why the Perceptron wins here: " if pw and pm else
            "Where the Perceptron wins here: on its bound, not on mistakes. " if pw else "What this run shows: ")
    return (head + f"On this run {fewest}; on the theorems' bounds {lowest}. {tie}"
            f"Each example has one bit on (R² = {r2:.4g}) but half the variables are relevant (k = {k} of N = {N}), "
            f"so the Perceptron's bound R²/γ² = 2(4k+1) = {_n(B['perceptron'])} is linear in k; Winnow's bound "
            f"charges each of the k relevant weights up to 1 + log₂ N = {float(cW['per_variable_promotions_cap']):.4g} "
            f"promotions ({_n(B['winnow'])}); and the exponentiated update's margin δ = 1/(2k+1) = "
            f"{float(cE['delta']):.4g} is tiny, so its bound ln N / C is {_n(B['normalized_winnow'])}"
            + (f" (≤ 2 ln N/δ² = {_n(cE['bound_2lnN_over_delta2'])})"
               if B["normalized_winnow"] is not None and B["normalized_winnow"] <= cE["bound_2lnN_over_delta2"] else "")
            + ". A bound is a guarantee on any such stream, "
            "not a prediction of this run's count.")


def _features(lane, N: int) -> str:
    """Why the exponentiated update's ln N is not ln of the page's N: it reads the N variables and a constant
    threshold feature (−1), N + 1 in all (the Perceptron too); Winnow reads the N variables."""
    n = int(lane.trace.proof.constants["N"])
    if n == N:
        return ""
    return (f"The Perceptron and the exponentiated update read N + 1 = {n} features — the N = {N} variables and the "
            f"constant threshold feature −1 — so the exponentiated update's ln N is ln {n} = {math.log(n):.4g}.")


def _times_m(b: float, at: str) -> str:
    """``b·m*``, or at an end of the slider where the factor is infinite, what that means."""
    if math.isfinite(b):
        return f"{b:.3g}·m*"
    return f"∞·m* (at {at} the factor on m* is infinite: the bound is finite only when m* = 0)"


def _than(a: float, b: float) -> str:
    return "more than" if a > b else "less than" if a < b else "the same as"


def _why_experts(lanes: dict) -> str:
    wm, rwm, hv = (lanes[a].trace.proof for a in EXPERTS)
    c = wm.constants
    N, ms = int(c["N"]), int(c["m_star"])
    beta, eta = float(c["beta"]), float(rwm.constants["eta"])
    lnN = math.log(N)
    a_wm = 1.0 / math.log(2.0 / (1.0 + beta))
    b_wm = math.log(1.0 / beta) * a_wm if beta > 0 else math.inf  # β = 0: ln(1/β) = ∞ (finite only when m* = 0)
    a_rwm = 1.0 / eta
    b_rwm = math.log(1.0 / (1.0 - eta)) / eta if eta < 1 else math.inf
    a_hv = 1.0 / math.log(2.0)

    def val(b):
        return "no bound" if b is None else _n(b)
    return ("Halving trusts only the experts that were never wrong, so its bound log₂ N = "
            f"{a_hv:.3g}·ln N needs a perfect expert ([001]). Weighted Majority and its randomised version only "
            "shrink a wrong expert's weight, so they pay a multiple of ln N plus a multiple of the best expert's "
            f"mistakes m*: at β = {beta:g}, Weighted Majority's bound ([001] eq. 6) is "
            f"(ln N + m*·ln(1/β))/ln(2/(1+β)) = {a_wm:.3g}·ln N + {_times_m(b_wm, 'β = 0')}; at η = {eta:g}, "
            f"Randomised WM's bound on the expected mistakes (the potential of [000] §1.2) is "
            f"(ln N + m*·ln(1/(1−η)))/η = {a_rwm:.3g}·ln N + {_times_m(b_rwm, 'η = 1')}. Per ln N, Weighted Majority pays {a_wm:.3g} ({_than(a_wm, a_hv)} "
            f"Halving's {a_hv:.3g}) and Randomised WM {a_rwm:.3g} ({_than(a_rwm, a_hv)} Halving's)"
            + f". Here N = {N} (ln N = {lnN:.3g}), m* = {ms}: Weighted Majority {val(wm.mistake_bound)}, "
            f"Randomised WM {val(rwm.mistake_bound)} (on E[M]), Halving {val(hv.mistake_bound)}.")


def visible(v: dict[str, Any]) -> set[str]:
    if v["preset"] == "experts":
        return {"preset", "experts", "best", "worst", "beta", "eta", "T", "seed"}
    return {"preset", "N", "T", "seed"} | ({"k"} if v["preset"] == "sparse" else set())


def dense_k(N: int) -> int:
    """The dense preset's target: half the variables (rounded up)."""
    return (int(N) + 1) // 2


@dataclass(frozen=True)
class Setup:
    """The runs of one comparison, the stream they read and a label for it."""

    lanes: tuple
    key: str
    label: str


@st.cache_resource(max_entries=16, show_spinner=False)
def _linear(preset: str, T: int, N: int, k: int, seed: int) -> Setup:
    if preset == "sparse":
        s = dense_instances(T=T, N=N, k=k, seed=seed)
        label = f"{T} examples, N = {N} variables, target: OR of k = {k} of them (each bit on w.p. {s.info['p_on']:.3f})"
    else:
        s = sparse_instances(T=T, N=N, k=k, ones=1, seed=seed)
        label = f"{T} examples with one bit on, N = {N} variables, target: OR of k = {k} of them"
    rel = tuple(int(r) for r in s.comparator)
    lanes = []
    for alg, view in views(s).items():
        tr = olc_core.run(alg, view.X, view.y, comparator=view.comparator)
        lanes.append(Lane(tr, view.X, view.y, rel, alg != "winnow"))
    return Setup(tuple(lanes), f"{preset}-T{T}-N{N}-k{k}-s{seed}", label)


@st.cache_resource(max_entries=16, show_spinner=False)
def _experts(T: int, N: int, best: float, worst: float, beta: float, eta: float, seed: int) -> Setup:
    rates = np.linspace(best, worst, N)
    a = olc_core.streams.experts(T=T, N=N, error_rates=rates, seed=seed, exact=False)
    params = {"weighted_majority": {"beta": beta}, "randomized_weighted_majority": {"eta": eta, "seed": seed},
              "halving": {}}
    lanes = tuple(Lane(olc_core.run(alg, a.X, a.y, **params[alg]), a.X, a.y) for alg in EXPERTS)
    label = f"{T} rounds of advice from {N} experts, error rates {best:g} … {worst:g}"
    return Setup(lanes, f"experts-T{T}-N{N}-b{best:g}-w{worst:g}-beta{beta:g}-eta{eta:g}-s{seed}", label)


def load(v: dict[str, Any]) -> Setup:
    """The comparison for these settings (cached); ``DataError`` with a message when it cannot be made."""
    seed = int(v["seed"])
    if v["preset"] == "experts":
        if v["worst"] < v["best"]:
            raise olc_data.DataError(f"the worst expert's error rate ({v['worst']:g}) is below the best one's "
                                     f"({v['best']:g}); raise it")
        return _experts(capped_T(v), int(v["experts"]), float(v["best"]), float(v["worst"]), float(v["beta"]),
                        float(v["eta"]), seed)
    N = int(v["N"])
    k = int(v["k"]) if v["preset"] == "sparse" else dense_k(N)
    return _linear(v["preset"], capped_T(v), N, k, seed)


def capped_T(v: dict[str, Any]) -> int:
    """The rounds run: T, capped so that rounds × features ≤ MAX_CELLS. Expert advice counts every
    learner's weights (all three change on almost every round for RWM)."""
    width = 3 * int(v["experts"]) if v["preset"] == "experts" else int(v["N"]) + 1
    return int(min(int(v["T"]), max(10, MAX_CELLS // width)))


def notes(v: dict[str, Any]) -> list[str]:
    """Plain sentences about these settings (no user text)."""
    out = []
    if capped_T(v) < int(v["T"]):
        n = f"{v['experts']} experts" if v["preset"] == "experts" else f"{v['N']} features"
        out.append(f"T is capped at {capped_T(v)} rounds for N = {n} (the step viewer ships every learner's "
                   f"weights at every step; at most {MAX_CELLS:,} rounds × weights).")
    return out


@st.cache_resource(max_entries=16, show_spinner=False)
def _spec(key: str, _setup: Setup) -> dict:
    return compare_spec(list(_setup.lanes), run_id=key)


def spec_for(setup: Setup) -> dict:
    return _spec(setup.key, setup)


# ------------------------------------------------------------------------------------------ the N sweep

def sweep_rows(preset: str, k: int, T: int, Ns, seeds: int) -> list[dict]:
    """Every learner on every (N, seed): rows of algorithm, N, seed, mistakes, bound (from olc_core.run)."""
    rows = []
    for N in Ns:
        kk = k if preset == "sparse" else dense_k(N)
        for seed in range(seeds):
            s = (dense_instances(T=T, N=N, k=kk, seed=seed) if preset == "sparse"
                 else sparse_instances(T=T, N=N, k=kk, ones=1, seed=seed))
            for alg, view in views(s).items():
                tr = olc_core.run(alg, view.X, view.y, comparator=view.comparator)
                b = tr.proof.mistake_bound
                rows.append({"algorithm": alg, "N": int(N), "k": kk, "seed": seed, "mistakes": int(tr.n_mistakes),
                             "bound": None if b is None else float(b)})
    return rows


@st.cache_data(max_entries=8, show_spinner=False)
def sweep(preset: str, k: int) -> list[dict]:
    """The sweep of the preset (cached across sessions)."""
    return sweep_rows(preset, k, SWEEP_T[preset], SWEEP_N[preset], SWEEP_SEEDS)


def sweep_panel(v: dict[str, Any]) -> None:
    preset = v["preset"]
    k = int(v["k"])
    with st.spinner(f"Running {3 * len(SWEEP_N[preset]) * SWEEP_SEEDS} runs (once; then cached) …"):
        rows = sweep(preset, k)
    what = (f"k = {k} relevant" if preset == "sparse" else "k = ⌈N/2⌉ relevant, one bit on per example")
    st.markdown(f"#### Mistakes against N ({what}, T = {SWEEP_T[preset]} rounds, seeds 0 … {SWEEP_SEEDS - 1})")
    st.caption("Solid: each learner's mistakes (median over the seeds, bars: smallest to largest). Dashed, same "
               "colour: its theorem's bound on the same runs (median). Dotted: T, the most mistakes a run of T rounds "
               "can make. Both axes logarithmic.")
    name = (f"Mistakes against N ({what}, T = {SWEEP_T[preset]}): each learner's mistakes, median and range over "
            f"{SWEEP_SEEDS} seeds, and its theorem's bound, both axes logarithmic")
    chart_names.plotly_chart(st, sweep_figure(rows, T=SWEEP_T[preset]), key="compare_sweep_chart", name=name,
                             text=describe_sweep(rows, NAMES, SWEEP_T[preset]), config={"displayModeBar": False})
    with st.expander("The numbers of this chart (every run)"):
        tables.table([{"learner": NAMES[r["algorithm"]], "N": r["N"], "k": r["k"], "seed": r["seed"],
                       "mistakes": r["mistakes"], "bound": _bound(r["bound"])} for r in rows],
                     key="compare_sweep", label="The numbers of the mistakes-against-N chart",
                     narrow=sweep_cards(rows), hide_index=True)


def _bound(b: float | None) -> str:
    return "n/a" if b is None else f"{b:.6g}"


def sweep_cards(rows: list[dict]) -> list[dict]:
    """The sweep's rows for a phone: one card per learner and N, its seeds' mistakes and bounds in seed order
    (every number of the table, in a fifth of the rows and three columns).

    >>> sweep_cards([{"algorithm": "winnow", "N": 10, "k": 2, "seed": s, "mistakes": 3 + s, "bound": None}
    ...              for s in (0, 1)])
    [{'learner': 'Winnow, N = 10, k = 2', 'mistakes, seeds 0–1': '3, 4', 'bounds': 'n/a, n/a'}]
    """
    groups: dict[tuple, list[dict]] = {}
    for r in rows:
        groups.setdefault((r["algorithm"], r["N"], r["k"]), []).append(r)
    cards = []
    for (alg, N, k), rs in groups.items():
        rs = sorted(rs, key=lambda r: r["seed"])
        seeds = [r["seed"] for r in rs]
        which = f"{seeds[0]}–{seeds[-1]}" if seeds == list(range(seeds[0], seeds[-1] + 1)) else ", ".join(map(str, seeds))
        cards.append({"learner": f"{NAMES[alg]}, N = {N}, k = {k}",
                      f"mistakes, seeds {which}": ", ".join(str(r["mistakes"]) for r in rs),
                      "bounds": ", ".join(_bound(r["bound"]) for r in rs)})
    return cards


# ------------------------------------------------------------------------------------------ panels

def _constants(tr) -> str:
    c = tr.proof.constants
    alg = tr.algorithm
    if alg == "perceptron":
        return f"γ = {c['gamma']:.4g}, R = {c['radius']:.4g}"
    if alg == "winnow":
        return f"β = {c['beta']:g}, k = {c['k']}, N = {c['N']}"
    if alg == "normalized_winnow":
        return f"δ = {c['delta']:.4g}, η = {c['eta']:.4g}, C = {c['C']:.4g}, N = {c['N']}"
    if alg == "weighted_majority":
        return f"β = {c['beta']:g}, m* = {c['m_star']}, N = {c['N']}"
    if alg == "randomized_weighted_majority":
        return f"η = {c['eta']:g}, m* = {c['m_star']}, E[M] = {c['expected_mistakes']:.4g}, N = {c['N']}"
    return f"|H| = {c['H_size']}, consistent experts: {c['n_consistent']}"


def summary_rows(setup: Setup) -> list[dict]:
    """One row per learner: its mistakes, its theorem's bound (or why none), its measured constants."""
    rows = []
    for ln in setup.lanes:
        p = ln.trace.proof
        what = " (on E[M])" if ln.algorithm == "randomized_weighted_majority" else ""
        rows.append({"learner": ln.name, "mistakes M": int(ln.trace.n_mistakes),
                     "theorem's bound": (f"{p.mistake_bound:.5g}{what}" if p.mistake_bound is not None else
                                         "n/a: " + ", ".join(f"«{a.name}»" for a in p.failed_assumptions) + " fails"),
                     "measured constants": _constants(ln.trace),
                     "the bound's source": SOURCES.get(ln.algorithm, "")})
    return rows


def downloads_panel(setup: Setup, spec: dict, position: int) -> None:
    """The whole comparison as one offline file (every learner's charts and ledger, one cursor: once, not once per
    learner), then each learner's trace (CSV), proof transcript (Markdown + KaTeX, LaTeX) and notebook, as on its own
    lesson page."""
    st.markdown("#### Downloads: the comparison, and each learner's trace and proof")
    st.caption("The whole comparison, every learner on the same rounds with one cursor")
    common.offline_download(st.container(horizontal=True), spec, position, PAGE, settings=TRANSCRIPT,
                            traces=[ln.trace for ln in setup.lanes])
    for ln in setup.lanes:
        st.caption(ln.name)
        common.downloads(ln.trace, spec, position, f"{PAGE}_{ln.algorithm}", ln.X, ln.y, settings=TRANSCRIPT,
                         offline_file=False)


def summary_panel(setup: Setup) -> None:
    st.markdown(f"#### The whole run: {setup.label}")
    tables.table(summary_rows(setup), key="compare_summary", label=f"The whole run: {setup.label}", hide_index=True,
                 width="stretch")
    lanes = {ln.algorithm: ln for ln in setup.lanes}
    if "normalized_winnow" in lanes and "winnow" in lanes:  # the table's N differs between them: say why
        st.caption(_features(lanes["normalized_winnow"], int(lanes["winnow"].trace.proof.constants["N"])))
    if "perceptron" in lanes and "normalized_winnow" in lanes and np.array_equal(
            lanes["perceptron"].trace.mistakes, lanes["normalized_winnow"].trace.mistakes):
        st.caption("The exponentiated update erred on exactly the Perceptron's rounds here (with one bit on, both "
                   "predict by comparing the same counts of past updates), yet its theorem's bound is far larger.")
    st.caption(tie_text(setup))
    for ln in setup.lanes:
        p = ln.trace.proof
        if p.mistake_bound is None:
            st.info(f"{ln.name}: the theorem gives **no bound** here — "
                    + "; ".join(a.detail for a in p.failed_assumptions) + ".")


def tie_text(setup: Setup) -> str:
    """Each learner's rule on a tie, with its source, and the ties of this run (issue 32 §4)."""
    lanes = {ln.algorithm: ln for ln in setup.lanes}
    out = []
    if "perceptron" in lanes:
        ln = lanes["perceptron"]
        out.append("Ties: for the Perceptron " + ties.PERCEPTRON_RULE + ". "
                   + ties.zero_note(ln.trace.columns["score"], ln.y))
    if "normalized_winnow" in lanes:
        z = ties.zero_rounds(lanes["normalized_winnow"].trace.columns["score"])
        out.append("The exponentiated update counts a score of exactly 0 as a mistake too, as in [003] §2.2 (decided "
                   "in exact arithmetic): " + (f"{common.count(z.size, 'round')} here ({common.rounds_text(z)})."
                                               if z.size else "no round here."))
    if "winnow" in lanes:
        out.append("Winnow predicts 1 only when w·x > N, strictly, as in [000] §4: a sum equal to N predicts 0.")
    if any(a in lanes for a in ("weighted_majority", "halving")):
        out.append("Weighted Majority and Halving predict +1 on a tied vote, as [001]'s rule ŷ = 1[W⁺ ≥ W⁻] does.")
    return " ".join(out)


#: what the page tells the proof transcript and the download names (olc_ui/shared/transcript.py)
TRANSCRIPT = PageSettings(SETTINGS, lambda v, trace: visible(v))


def stop_run(v: dict[str, Any]) -> tuple[dict, Any]:
    """The spec and the run this page shows for the settings ``v`` (every setting of its link, decoded; no upload):
    a tour's stop as its offline file carries it (olc_ui/shared/tours/offline.py) — the calls pages/compare.py makes
    (tests/tours/test_tour_offline.py checks the spec against the page's at every shipped stop)."""
    setup = load(v)
    return spec_for(setup), {lane.trace.algorithm: lane.trace for lane in setup.lanes}
