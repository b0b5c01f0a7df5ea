"""The Winnow lesson: settings, the data (generated, uploaded, adversarial), the cached run and the panels.

The page script (pages/winnow.py) reads like every lesson's four moves: settings from the URL,
a cached core run, a spec built by a pure function (:mod:`olc_ui.lessons.winnow.view`), render.
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import streamlit as st

import olc_core
from olc_core.streams.winnow_extra import winnow_adversary

from olc_ui.lessons.winnow.view import N_TOP, SMALL_N, winnow_spec
from olc_ui.shared import caps, common
from olc_ui.shared import data as olc_data
from olc_ui.shared.config import Setting
from olc_ui.shared.state import set_value
from olc_ui.shared.notebook import DataCall
from olc_ui.shared.transcript import PageSettings

__all__ = ["stop_run", "PAGE", "DATA_PAGE", "SETTINGS", "LEARNER_SETTINGS", "DATA_SETTINGS", "INTRO", "visible_data",
           "Data", "load_data", "run_winnow", "spec_for", "notes", "summary_panel", "proof_steps", "downloads",
           "show_adversary"]

PAGE = "winnow"
DATA_PAGE = "winnow_data"

LEARNER_SETTINGS = [
    Setting("beta", "β: promotion factor 1 + β", "float", 1.0, lo=0.05, hi=3.0, step=0.05,
            help="a false negative multiplies the active weights by 1 + β, a false positive divides them by it; "
                 "the notes' proof is for β = 1 (factor 2)"),
]
DATA_SETTINGS = [
    Setting("data", "Examples", "choice", "generated", options=("generated", "upload", "adversary"),
            extra={"labels": {"generated": "Random, labelled by a k-variable disjunction",
                              "upload": "Upload a 0/1 CSV",
                              "adversary": "Adversary: examples chosen to force mistakes"}}),
    Setting("N", "Variables N", "int", 100, lo=2, hi=10_000, step=1),
    Setting("k", "Relevant variables k", "int", 3, lo=1, hi=50, step=1,
            help="the target is the OR of k of the N variables"),
    Setting("T", "Rounds T", "int", 500, lo=1, hi=10_000, step=1),
    Setting("noise", "Label noise", "float", 0.0, lo=0.0, hi=0.3, step=0.01,
            help="each label is flipped with this probability: then no disjunction labels the data"),
    Setting("seed", "Seed", "int", 0, lo=0, hi=1_000_000, step=1, extra={"widget": "number"}),
]
SETTINGS = LEARNER_SETTINGS + DATA_SETTINGS


def visible_data(v: dict[str, Any]) -> set[str]:
    """The data settings that apply to the chosen source."""
    src = v["data"]
    if src == "upload":
        return {"data"}
    return {"data", "N", "k", "T", "seed"} | ({"noise"} if src == "generated" else set())


@dataclass(frozen=True)
class Data:
    X: np.ndarray
    y: np.ndarray
    comparator: Any
    label: str
    key: str
    notes: tuple = ()
    info: dict = field(default_factory=dict)


@st.cache_resource(max_entries=8, show_spinner="Drawing the examples …")
def _generated(T: int, N: int, k: int, noise: float, seed: int):
    return olc_core.streams.sparse_disjunction(T=T, N=N, k=k, seed=seed, noise=noise, dtype=np.uint8)


@st.cache_resource(max_entries=8, show_spinner="The adversary chooses its examples …")
def _adversary(T: int, N: int, k: int, beta: float, seed: int):
    return winnow_adversary(T=T, N=N, k=k, beta=beta, seed=seed)


def data_call(v: dict[str, Any]) -> DataCall | None:
    """The olc_core.streams call :func:`load_data` makes for these settings (the notebook download's data cell)."""
    T, N, k, seed = int(v["T"]), int(v["N"]), int(v["k"]), int(v["seed"])
    if v["data"] == "adversary":
        return DataCall("winnow_adversary", {"T": T, "N": N, "k": k, "beta": float(v["beta"]), "seed": seed})
    if v["data"] == "upload":
        return None
    return DataCall("sparse_disjunction", {"T": T, "N": N, "k": k, "seed": seed, "noise": float(v["noise"]),
                                           "dtype": np.uint8})


def load_data(v: dict[str, Any], upload: bytes | None) -> Data:
    """The examples for these settings; ``DataError`` (``NeedsInput`` when a file is still to come)."""
    src = v["data"]
    if src == "upload":
        if upload is None:
            raise olc_data.NeedsInput("choose a CSV file of 0/1 columns x1 … xN and a 0/1 label column")
        X, y, notes = olc_data.parse_binary_csv(upload)
        h = hashlib.blake2b(upload, digest_size=8).hexdigest()
        return Data(X, y, None, f"your file ({len(y):,} rows, N = {X.shape[1]:,})", f"upload-{h}", tuple(notes))
    T, N, k, seed = int(v["T"]), int(v["N"]), int(v["k"]), int(v["seed"])
    if k > N:
        raise olc_data.DataError(f"k = {k} relevant variables cannot be chosen among N = {N} variables: "
                                 f"set k ≤ N")
    if src == "adversary":
        beta = float(v["beta"])
        s = _adversary(T, N, k, beta, seed)
        return Data(s.X, s.y, s.comparator, f"the adversary's examples (N = {N:,}, k = {k})",
                    f"adv-T{T}-N{N}-k{k}-b{beta:g}-s{seed}", info=dict(s.info))
    noise = float(v["noise"])
    s = _generated(T, N, k, noise, seed)
    lab = f"random examples, N = {N:,}, k = {k}" + (f", {noise:.0%} label noise" if noise else "")
    return Data(s.X, s.y, s.comparator, lab, f"gen-T{T}-N{N}-k{k}-n{noise:g}-s{seed}", info=dict(s.info))


@st.cache_resource(max_entries=8, show_spinner="Running Winnow …")
def _run(key: str, beta: float, _X, _y, _comparator):
    return olc_core.run("winnow", _X, _y, beta=beta, comparator=_comparator)


def run_winnow(v: dict[str, Any], data: Data):
    return _run(data.key, float(v["beta"]), data.X, data.y, data.comparator)


@st.cache_resource(max_entries=8, show_spinner=False)
def _spec(rid: str, _trace, _X, _y) -> dict:
    return winnow_spec(_trace, _X, _y, run_id=rid)


def spec_for(v: dict[str, Any], data: Data, trace) -> dict:
    return _spec(f"{data.key}-b{float(v['beta']):g}", trace, data.X, data.y)


def show_adversary() -> None:
    """Callback of the one-click button: switch to the adversary's examples."""
    set_value(DATA_PAGE, DATA_SETTINGS, "data", "adversary")


INTRO = (
    "The examples are $x \\in \\{0,1\\}^N$ and the label is the OR of $k$ **relevant** variables. Winnow starts "
    "with every weight $w_i = 1$, predicts $\\hat y = 1$ iff $w\\cdot x > N$, and on a mistake multiplies the "
    "weights of the active variables by $1+\\beta$ (a missed positive: **promotion**) or divides them by $1+\\beta$ "
    "(a false alarm: **demotion**) [000] §4. A relevant weight is never demoted and stops being promoted once it "
    "passes $N$, so it is promoted at most about $\\log_{1+\\beta} N$ times; demotions are paid for by promotions "
    "through $\\Phi = \\sum_i w_i$. Hence $M < \\frac{1+\\beta}{\\beta} + (2+\\beta)\\,k\\,(1 + \\log_{1+\\beta} N)$ "
    "— at $\\beta = 1$ the bound is $M < 2 + 3k(\\log_2 N + 1)$: **logarithmic** in the number of variables.")


# ------------------------------------------------------------------------------------------ messages, panels

def notes(v: dict[str, Any], data: Data, trace) -> list[tuple[str, str]]:
    """(kind, text) messages about these settings; numbers from the run. No text from a file."""
    out: list[tuple[str, str]] = []
    p = trace.proof
    c = p.constants
    if c.get("comparator_source") == "consistent disjunction (greedy)":
        rel = c["relevant"]
        out.append(("info", f"The target was not given, so the proof uses a disjunction consistent with every "
                            f"label, found greedily: k = {len(rel)} variables "
                            f"({', '.join('x' + str(int(i) + 1) for i in rel[:10])}{', …' if len(rel) > 10 else ''})."))
    for a in p.failed_assumptions:
        out.append(("error", "The theorem gives **no bound** here: the labels are not those of a monotone "
                             f"disjunction — {a.detail}. The ledger shows which links of the proof still hold."))
    if data.info.get("kind") == "winnow-adversary":
        f = data.info["forced"]
        out.append(("info", f"The adversary forced a mistake on each of the first {f} rounds"
                            + (f" ({f / p.mistake_bound:.0%} of the bound {p.mistake_bound:.5g})" if p.mistake_bound
                               else "") + "; after that no example consistent with the target can fool Winnow, "
                            "and the rest are random."))
    if trace.T == 1:
        out.append(("info", "T = 1: a single round. Step once with Next."))
    return out


def summary_panel(v: dict[str, Any], data: Data, trace) -> None:
    p = trace.proof
    c = p.constants
    with st.container(border=True):
        st.markdown(f"#### Winnow (β = {float(v['beta']):g}) on " + data.label.replace("_", "\\_"))
        cols = st.columns(5)
        cols[0].metric("Mistakes M (whole run)", f"{trace.n_mistakes}")
        cols[1].metric("Promotions m⁺", f"{int(p.series['m_plus'][-1])}")
        cols[2].metric("Demotions m⁻", f"{int(p.series['m_minus'][-1])}")
        cols[3].metric("Relevant k", "n/a" if c.get("k") is None else f"{c['k']}")
        cols[4].metric("Bound on M", "n/a" if p.mistake_bound is None else f"{p.mistake_bound:.5g}",
                       help=None if p.mistake_bound is not None else "the labels are not a disjunction's")
        if p.mistake_bound is not None:
            st.success(f"With N = {c['N']:,}, k = {c['k']} and β = {c['beta']:g} the theorem promises "
                       f"$M < {p.mistake_bound:.5g}$ on **any** stream labelled by such a disjunction (and "
                       f"$m^+ \\le {c['m_plus_bound']:.4g}$). The run made **{trace.n_mistakes}**.")
        if c.get("exact_decisions", trace.info.get("exact_decisions", 0)):
            k = int(trace.info["exact_decisions"])
            st.caption(f"{common.count(k, 'round')} had w·x within rounding of N and {common.agree(k, 'was', 'were')} "
                       "decided in exact arithmetic.")


def _label_steps(p) -> tuple[str, str]:
    """What steps 2 and 3 say when the labels are not the target disjunction's (noise, or a file): they need
    it, and the run's own counts say whether they still hold here (empty strings when the labels are)."""
    if not p.failed_assumptions:
        return "", ""
    S = p.series
    if "rel_demotions" not in S:
        need = (" **This step needs labels from a target disjunction**, and no disjunction is consistent with these "
                "labels: it does not hold on this run.")
        return need, need
    dem = int(S["rel_demotions"][-1])
    dp = np.diff(np.asarray(S["m_plus"], dtype=float))
    dr = np.diff(np.asarray(S["rel_promotions"], dtype=float))
    stray = int(np.count_nonzero((dp > 0) & (dr == 0)))
    mp = int(S["m_plus"][-1])
    two = (" **This step needs labels from the target** (a negative example has every relevant bit 0): "
           + (f"here relevant weights were demoted **{dem}** times, so the step does not hold on this run."
              if dem else "here no relevant weight was demoted, so it happens to hold on this run."))
    three = (" **This step needs labels from the target** (a positive example has a relevant bit on): "
             + (f"here **{stray}** of the m⁺ = {mp} promotions promoted no relevant variable, so the step does not "
                "hold on this run." if stray else "here every promotion promoted a relevant variable, so it "
                                                   "happens to hold on this run."))
    return two, three


def proof_steps(v: dict[str, Any], trace) -> None:
    p = trace.proof
    c = p.constants
    two, three = _label_steps(p)
    with st.expander("The proof in four steps, with this run's numbers"):
        st.markdown(
            "1. **Potential** $\\Phi = \\sum_i w_i$, $\\Phi_1 = N$. A promotion happens only when "
            "$w\\cdot x \\le N$ and adds $\\beta\\, w\\cdot x \\le \\beta N$; a demotion only when $w\\cdot x > N$ "
            "and removes $\\tfrac{\\beta}{1+\\beta} w\\cdot x > \\tfrac{\\beta}{1+\\beta}N$. So "
            "$0 < \\Phi \\le N + \\beta N m^+ - \\tfrac{\\beta}{1+\\beta} N m^-$, which gives "
            "$m^- < \\tfrac{1+\\beta}{\\beta} + (1+\\beta)m^+$.\n"
            "2. **Each relevant weight** is never demoted (a negative example has every relevant bit 0), so "
            "$w_i = (1+\\beta)^{p_i}$; it is promoted only while $w_i \\le w\\cdot x \\le N$, so "
            "$w_i \\le (1+\\beta)N$ and $p_i \\le 1 + \\log_{1+\\beta} N$"
            + f" $= {c['per_variable_promotions_cap']:.4g}$ here." + two + "\n"
            "3. **Every promotion** promotes some relevant variable: $m^+ \\le \\sum_{i\\in R} p_i \\le "
            "k(1 + \\log_{1+\\beta} N)$." + three + "\n"
            "4. **Combine:** $M = m^+ + m^- < \\tfrac{1+\\beta}{\\beta} + (2+\\beta)k(1 + \\log_{1+\\beta} N)$"
            + (f" $= {p.mistake_bound:.6g}$ here (β = 1: $2 + 3k(\\log_2 N + 1)$, [000] eq. 42)."
               if p.mistake_bound is not None else " — not here: the labels are not a disjunction's."))


def downloads(trace, data: Data, spec: dict, position: int) -> None:
    # the trace CSV writes one column per variable: the examples left out of it for large N
    common.downloads(trace, spec, position, "winnow", data.X, data.y, settings=TRANSCRIPT,
                     csv_examples=trace.d <= 200)


#: the page's drawing cap, stated under its viewer (olc_ui/shared/caps.py)
CAP = caps.text(f"at most 10,000 rounds; for N > {SMALL_N} the bars show the relevant weights, the {N_TOP} largest "
                 "others and a min/median/max band, never all N")


#: what the page tells the proof transcript and the download names (olc_ui/shared/transcript.py)
TRANSCRIPT = PageSettings(SETTINGS, lambda v, trace: visible_data(v) | {s.key for s in LEARNER_SETTINGS}, upload_key=PAGE,
                          recipe=data_call)


def stop_run(v: dict[str, Any]) -> tuple[dict, Any]:
    """The spec and the run this page shows for the settings ``v`` (every setting of its link, decoded; no upload):
    a tour's stop as its offline file carries it (olc_ui/shared/tours/offline.py) — the calls pages/winnow.py makes
    (tests/tours/test_tour_offline.py checks the spec against the page's at every shipped stop)."""
    data = load_data(v, None)
    trace = run_winnow(v, data)
    return spec_for(v, data, trace), trace
