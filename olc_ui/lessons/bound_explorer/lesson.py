"""The Bound explorer: settings (bound to the URL), the cached sweep with its progress bar, and the panels.

The page (pages/bound_explorer.py) picks a learner and one of its parameters, runs
:func:`olc_core.sweep` over a range of values with several seeds, and draws the table it
returns (:mod:`olc_ui.lessons.bound_explorer.view`). Each learner has its own settings group (its own
parameters, ranges and defaults); the URL holds the learner, the switch to the
bound-attaining streams and every setting of the learner's group.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Any

import numpy as np
import streamlit as st

import olc_core
from olc_core.sweep import SWEEPS

from olc_ui.lessons.bound_explorer import export
from olc_ui.lessons.bound_explorer import view as V
from olc_ui.lessons.bound_explorer.view import ALG_NAMES, MEASURED, sweep_values
from olc_ui.shared import chart_names, safe, tables
from olc_ui.shared.config import Setting

__all__ = ["MORE", "more", "NOISE_TEXT", "SOURCE", "rate_note", "PAGE", "MAIN_SETTINGS", "GROUPS", "ALL_SETTINGS", "MAX_WORK", "MAX_CELL", "group_page", "visible",
           "values_for", "fixed_for", "sweepable", "group_for", "follow_switch", "moved_text", "check_size", "run_sweep",
           "sweep_args", "charts", "metrics", "headline", "theorem_texts", "na_texts", "vacuous_text", "take_home", "INTRO", "WORST_TEXT", "param_label",
           "measured_label"]

PAGE = "bound_explorer"
#: numbers processed by one sweep (cells × T × width) and by one cell (T × width), at most
MAX_WORK = 200_000_000
MAX_CELL = 20_000_000

#: (symbol, integer?, widget low, widget high, default sweep range) — the core checks every value
_META = {
    "d": ("d", True, 1, 2000, (2, 50)),
    "gamma": ("γ", False, 0.001, 0.99, (0.05, 0.3)),
    "N": ("N", True, 1, 20000, (10, 1000)),
    "k": ("k", True, 1, 100, (1, 9)),
    "beta": ("β", False, 0.0, 100.0, (0.1, 4.0)),
    "eta": ("η", False, 0.0, 10.0, (0.05, 0.95)),
    "noise": ("noise", False, 0.0, 0.5, (0.0, 0.3)),
    "T": ("T", True, 1, 100_000, (100, 10_000)),
    "n": ("n", True, 1, 500, (3, 60)),
    "L": ("L", True, 1, 501, (1, 10)),
}
_RANGES = {("weighted_majority", "beta"): (0.05, 0.95), ("weighted_majority", "N"): (2, 200),
           ("randomized_weighted_majority", "N"): (2, 200), ("halving", "N"): (2, 1024),
           ("normalized_winnow", "eta"): (0.05, 2.0), ("margin_perceptron", "gamma"): (0.05, 0.5),
           ("normalized_winnow", "N"): (11, 1000)}
#: the parameter a learner's sweep starts with, and whether its values are spaced logarithmically
_START = {"perceptron": ("gamma", "linear"), "margin_perceptron": ("gamma", "linear"), "winnow": ("N", "log"),
          "normalized_winnow": ("N", "log"), "weighted_majority": ("N", "log"),
          "randomized_weighted_majority": ("eta", "linear"), "halving": ("N", "log"), "conjunction": ("n", "linear"),
          "decision_list": ("n", "linear")}
#: learner settings the page does not offer (Weighted Majority's η duplicates β)
_SKIP = {("weighted_majority", "eta")}

MAIN_SETTINGS = [
    Setting("alg", "Learner", "choice", "perceptron", options=tuple(SWEEPS),
            extra={"labels": ALG_NAMES, "widget": "select"}),
    Setting("worst", "Bound-attaining streams (the worst case)", "bool", False,
            help="the streams built to make the learner err as often as the proof allows"),
]


def params_of(alg: str) -> list[str]:
    return [p for p in SWEEPS[alg].settings if (alg, p) not in _SKIP]


def param_label(alg: str, p: str) -> str:
    """``symbol: meaning`` (the meaning cut before any parenthesis: it labels widgets and axes)."""
    return f"{_META[p][0]}: {SWEEPS[alg].doc.get(p, p).split(' (')[0]}"


def measured_label(alg: str) -> str:
    return MEASURED.get(alg, "mistakes M")


def _group(alg: str) -> list[Setting]:
    ps = params_of(alg)
    start, scale = _START[alg]
    out = [Setting("param", "Parameter to sweep", "choice", start, options=tuple(ps),
                   extra={"labels": {p: param_label(alg, p) for p in ps}, "widget": "select"})]
    for p in ps:
        sym, integer, lo, hi, rng = _META[p]
        a, b = _RANGES.get((alg, p), rng)
        kind, step = ("int", 1) if integer else ("float", 0.01 if hi <= 1 else 0.05)
        default = SWEEPS[alg].settings[p]
        if default is None:   # the exponentiated update's η: 0 stands for "the δ-optimal rate"
            default = 0.0
        help_fixed = "0: the δ-optimal rate ½ln((1+δ)/(1−δ))" if (alg, p) == ("normalized_winnow", "eta") else ""
        out += [Setting(p, param_label(alg, p), kind, default, lo=lo, hi=hi, step=step, help=help_fixed,
                        extra={"widget": "number"}),
                Setting(f"{p}_lo", f"From ({sym})", kind, a, lo=lo, hi=hi, step=step, extra={"widget": "number"}),
                Setting(f"{p}_hi", f"To ({sym})", kind, b, lo=lo, hi=hi, step=step, extra={"widget": "number"})]
    out += [Setting("points", "Values", "int", 8, lo=2, hi=20, step=1),
            Setting("scale", "Spacing", "choice", scale, options=("linear", "log"),
                    extra={"labels": {"linear": "even", "log": "logarithmic"}, "horizontal": True}),
            Setting("seeds", "Seeds per value", "int", 5, lo=1, hi=20, step=1,
                    help="seeded streams 0 … seeds−1 for every value (RWM's draws use the same seed)")]
    return out


#: learner -> its settings group (own URL keys: param, p, p_lo, p_hi for each parameter p, points, scale, seeds)
GROUPS: dict[str, list[Setting]] = {alg: _group(alg) for alg in SWEEPS}
#: every URL key the page may read (the union of the groups)
ALL_SETTINGS = MAIN_SETTINGS + list({s.key: s for g in GROUPS.values() for s in g}.values())


def group_page(alg: str) -> str:
    return f"{PAGE}__{alg}"


def sweepable(alg: str, worst: bool) -> list[str]:
    """The parameters the page may sweep: on the bound-attaining stream, only those it reads."""
    ps = params_of(alg)
    if worst and SWEEPS[alg].worst is not None:
        ps = [p for p in ps if p in SWEEPS[alg].worst_keys]
    return ps


def group_for(alg: str, worst: bool) -> list[Setting]:
    """The learner's group with the parameter choice offering only :func:`sweepable` (the link may still
    name any parameter: the page moves it to the first sweep-able one, see :func:`follow_switch`)."""
    first, *rest = GROUPS[alg]
    extra = {**first.extra, "choices": tuple(sweepable(alg, worst))}
    return [replace(first, extra=extra), *rest]


def follow_switch(alg: str, worst: bool):
    """``(adjust, moved)`` for :func:`olc_ui.shared.state.bind`: ``adjust`` moves a parameter the bound-attaining
    stream cannot sweep to the first one it can; ``moved()`` is then ``(old, new)`` (else None)."""
    allowed = sweepable(alg, worst)
    moved: list = []

    def adjust(values: dict[str, Any]) -> dict[str, Any]:
        if values["param"] in allowed:
            return {}
        moved.append((values["param"], allowed[0]))
        return {"param": allowed[0]}
    return adjust, (lambda: moved[0] if moved else None)


def moved_text(alg: str, old: str, new: str) -> str:
    return (f"The bound-attaining stream of {ALG_NAMES[alg]} reads only {', '.join(_META[p][0] for p in sweepable(alg, True))}: "
            f"it cannot sweep {_META[old][0]}, so the page sweeps {_META[new][0]} instead.")


def visible(alg: str, worst: bool):
    """The widgets of the learner's group for these values: the swept parameter's range, the others fixed."""
    spec = SWEEPS[alg]

    def show(v: dict[str, Any]) -> set[str]:
        p = v["param"]
        fixed = [q for q in params_of(alg) if q != p and (not worst or q in spec.worst_keys)]
        return {"param", "points", "scale", "seeds", f"{p}_lo", f"{p}_hi"} | set(fixed)
    return show


def values_for(alg: str, v: dict[str, Any]) -> tuple[list, str | None]:
    p = v["param"]
    return sweep_values(v[f"{p}_lo"], v[f"{p}_hi"], v["points"], v["scale"], _META[p][1])


def fixed_for(alg: str, v: dict[str, Any]) -> dict[str, Any]:
    """The settings held fixed (every parameter of the learner but the swept one; η = 0 → automatic)."""
    out = {q: v[q] for q in params_of(alg) if q != v["param"]}
    if alg == "normalized_winnow" and out.get("eta") == 0:
        out["eta"] = None
    return out


def _width(alg: str, p: str, values: list, fixed: dict) -> int:
    for key in ("N", "d", "n"):
        if key in SWEEPS[alg].settings:
            return int(max(values) if p == key else fixed[key])
    return 1  # pragma: no cover


def check_size(alg: str, p: str, values: list, seeds: int, fixed: dict) -> str | None:
    """Why this sweep is too big for the page (None when it is not)."""
    T = int(max(values) if p == "T" else fixed["T"])
    cell = T * _width(alg, p, values, fixed)
    work = cell * len(values) * seeds
    if cell > MAX_CELL:
        return (f"one stream would hold {cell:,} numbers (T × width); the page allows {MAX_CELL:,} — "
                "fewer rounds T or a smaller width")
    if work > MAX_WORK:
        return (f"this sweep would process {work:,} numbers (values × seeds × T × width); the page allows "
                f"{MAX_WORK:,} — fewer values, seeds or rounds, or a smaller width")
    return None


@st.cache_resource(show_spinner=False)
def _store() -> dict:
    return {}


def sweep_args(p: str, seeds: int, worst: bool, fixed: dict) -> dict[str, Any]:
    """The page's ``olc_core.sweep`` keywords besides the learner, the parameter and its values: the seeds, T (the
    swept values replace it when T is swept), the bound-attaining switch and the settings held fixed."""
    return {"seeds": seeds, "T": int(fixed.get("T", 1000)), "worst_case": worst,
            **{k: v for k, v in fixed.items() if k != "T"}}


def run_sweep(alg: str, p: str, values: list, seeds: int, worst: bool, fixed: dict):
    """The sweep (cached across reruns and sessions), with a progress bar while it runs."""
    key = (alg, p, tuple(values), seeds, worst, tuple(sorted(fixed.items())))
    store = _store()
    if key in store:
        return store[key]
    bar = st.progress(0.0, text="Sweeping …")

    def progress(done: int, total: int) -> None:
        bar.progress(done / total, text=f"Sweeping: {done} of {total} runs")
    try:
        table = olc_core.sweep(alg, p, values, progress=progress, **sweep_args(p, seeds, worst, fixed))
    finally:                            # a value the core refuses: no progress bar left behind
        bar.empty()
    if len(store) >= 32:
        store.pop(next(iter(store)))
    store[key] = table
    return table


INTRO = ("Each bound holds on every stream meeting its assumptions — how close do runs come? Sweep one "
         "parameter over seeded streams: left, the measured number against the bound; right, their ratio, the "
         "**tightness** (1: the bound is attained).")
MORE = (
    "Pick a learner in the sidebar and the parameter to sweep, its range (*From*, *To*), how many values and "
    "how they are spaced, and how many seeded streams to run per value; the learner's other settings are held "
    "fixed at the values shown. Each value's line is the median over the seeds, the shaded band the smallest "
    "and largest run. A ratio near 0 means the bound is loose on these streams. The switch *Bound-attaining "
    "streams* replaces the random streams by the ones built to make the learner err as often as the proof "
    "allows. Where an assumption of the theorem fails, that theorem gives no bound: the bound and the ratio "
    "read n/a, with the reason — what label noise does depends on the learner (below). The CSV holds one row "
    "per run: the same numbers as "
    "`olc_core.sweep` returns in a notebook."
)

#: what label noise does to each learner's theorem (checked on the sweeps: olc_core.sweep's ``holds``/``proof``)
NOISE_TEXT = {
    "perceptron": "a flipped label puts its point on the wrong side of the planted w*, the sweep's comparator, so "
                  "the separable theorem M ≤ R²/γ² no longer applies with that w* — though the data may still be "
                  "separable by another unit vector (the Perceptron page's max-margin comparator looks for one). "
                  "The sweep then takes the non-separable theorem of [004] for the same w* and the generator's γ, "
                  "M ≤ R²/γ² + (2/γ)·TD_γ with R = max‖xₜ‖. [004] writes it 1/γ² + (2/γ)·TD_γ for examples "
                  "scaled to ‖x‖ = 1; the streams are not scaled: they draw points uniformly from the ball of "
                  "radius 1 outside the band |⟨w*, x⟩| < γ (their norms vary) and put one of them on its surface, "
                  "so R = 1 up to rounding and the two forms agree. So with noise the Perceptron still has a "
                  "bound (a sweep that crosses from one theorem to the other draws each theorem's bound as its own "
                  "series).",
    "winnow": "the labels are no longer a disjunction of k variables, so the theorem's assumption fails: n/a.",
    "normalized_winnow": "the comparator u no longer has a positive margin on every round, so the theorem's "
                         "assumption fails: n/a.",
    "weighted_majority": "the theorem still holds: a flipped label counts as a mistake for every expert that was right "
                         "on that round, so it can raise m*, the best expert's mistakes, and the bound charges m* — "
                         "the bound grows, it does not become n/a.",
    "randomized_weighted_majority": "the theorem still holds: noise raises m*, the best expert's mistakes, and "
                                    "the bound on E[M] charges m* — the bound grows, it does not become n/a.",
    "halving": "once no hypothesis is consistent with every label the version space empties and the theorem "
               "gives no bound: n/a.",
    "conjunction": "once no conjunction is consistent with the labels the theorem gives no bound: n/a.",
    "decision_list": "once no decision list is consistent with the labels the theorem gives no bound: n/a.",
}


def more(alg: str) -> str:
    """The page's help for this learner: :data:`MORE`, and what label noise does to its theorem."""
    if "noise" not in SWEEPS[alg].settings:
        return MORE + f"\n\n{ALG_NAMES[alg]} has no label-noise setting here."
    return MORE + f"\n\n**Label noise, {ALG_NAMES[alg]}:** " + NOISE_TEXT[alg]


def rate_note(alg: str, p: str, table) -> str | None:
    """On RWM's bound-attaining stream: E[M]/T (median over the seeds) at each swept value, from the table."""
    if alg != "randomized_weighted_majority" or not table.worst_case:
        return None
    vals = list(dict.fromkeys(table["value"].tolist()))
    rate = [float(np.median((table["mistakes"] / table["T"])[table["value"] == v])) for v in vals]
    pairs = ", ".join(f"{r:.2f} at {_META[p][0]} = {V.fmt(v)}" for v, r in zip(vals, rate))
    low = float(np.min(table["mistakes"] / table["T"]))
    return (f"Expected mistakes per round E[M]/T on this stream (median over the seeds): {pairs}. "
            + (f"The smallest over every run is {low:.4f} ≥ ½, as the adversary makes Fₜ ≥ ½ on every round."
               if low >= 0.5 else f"The smallest over every run is {low:.4f}, below ½."))


#: where each learner's bound (as the core proves it) comes from in the notes
SOURCE = {
    "weighted_majority": "the β form of note [001] (eq. 6): M ≤ (ln N + m*·ln(1/β)) / ln(2/(1+β))",
    "randomized_weighted_majority": "from the potential Φₜ₊₁ = Φₜ(1 − ηFₜ) of RWM, note [000] §1.2: "
                                    "E[M] ≤ (ln N + m*·ln(1/(1−η))) / η; for η ≤ ½ it implies note [000] eq. 2, "
                                    "E[M] − m* ≤ ηm* + ln N/η",
    "halving": "note [001]: M ≤ log₂|H|",
}


WORST_TEXT = {
    "perceptron": "x_t = e_t, y_t = +1, w* = (1, …, 1)/√d: γ = 1/√d, R = 1 and the Perceptron errs on every "
                  "round, M = d = R²/γ² — ratio 1 for every d. No randomness: every seed gives the same stream.",
    "winnow": "the adversary keeps Winnow's weights and shows, while it can, examples Winnow must get wrong "
              "(labels still a k-disjunction's); the bound's constants leave it below 1.",
    "weighted_majority": "the adversary splits WM's weight in two halves and labels against its vote: WM errs on "
                         "every round, Φ follows N·((1+β)/2)ᴹ; the bound still charges m* at full price, so the "
                         "ratio stays below 1.",
    "randomized_weighted_majority": "the adversary labels against RWM's weighted majority: it sorts the experts "
                                    "by weight and gives them +1 and −1 alternately, and the label is the opposite "
                                    "of the heavier side's vote, so the wrong experts hold at least half the weight "
                                    "on every round: the expected mistakes per round Fₜ are at least ½ (E[M]/T ≥ ½), "
                                    "and above ½ by as much as the weights have grown unequal (the box under the "
                                    "charts gives E[M]/T for each η).",
    "halving": "each round splits the version space in two halves and labels against the vote: ⌊log₂ N⌋ "
               "mistakes — ratio exactly 1 when N is a power of 2.",
    "conjunction": "example i has every bit set but bit i, labelled against the learner: n mistakes on n "
                   "rounds, against the bound n + 1 (no deterministic learner can do better than n). No randomness: every "
                   "seed gives the same stream.",
}


def notice_problems(problems: list[str]) -> None:
    for problem in problems:
        safe.notice("warning", "A setting in the link was not valid: ", f"{problem}.")


def _caption(alg: str, p: str, table) -> str:
    held = ", ".join(f"{_META[k][0]} = {V.fmt(x) if x is not None else 'automatic'}"
                     for k, x in table.settings.items() if k != p and k in params_of(alg)
                     and (not table.worst_case or k in SWEEPS[alg].worst_keys))
    return (f"{len(table)} runs of the learner ({len(set(table['value'].tolist()))} values × "
            f"{len(set(table['seed'].tolist()))} seeds) in {table.seconds:.2f} s" + (f"; held fixed: {held}" if held
                                                                                  else ""))


def vacuous_text(p: str, rows: list[tuple[float, float, int]]) -> str | None:
    """Where the bound exceeds T it says nothing: M ≤ T holds on any T rounds (None when it never does)."""
    if not rows:
        return None
    sym = _META[p][0]
    at = ", ".join(f"{sym} = {V.fmt(v)} (bound {V.fmt(b)}, T = {T})" for v, b, T in rows)
    return (f"The bound exceeds the number of rounds T at {at}: there it is vacuous — no learner can make more "
            "than T mistakes in T rounds, so M ≤ T holds trivially and the theorem says nothing more.")


def theorem_texts(alg: str, p: str, table) -> list[str]:
    """Which theorem's bound is drawn (at which values, when a sweep crosses from one to another), and its source."""
    named = V.theorems(table)
    out = []
    for theorem, vals in named:      # proof names come from olc_core, not from the link
        where = "" if len(named) == 1 else f" (at {_META[p][0]} = {', '.join(V.fmt(x) for x in vals)})"
        out.append(f"The bound is the theorem of the proof “{theorem}”{where}, as the run checks it"
                   + (f" — {SOURCE[alg]}" if alg in SOURCE else "") + ".")
    return out


def na_texts(p: str, table) -> list[tuple[str, str]]:
    """(lead, why) for each value where a seed's assumptions failed: the theorem gives no bound there."""
    return [(f"At {_META[p][0]} = {V.fmt(value)} the theorem's assumption fails, so it gives no bound (n/a) and no "
             "ratio: ", why) for value, why in V.na_values(table)]


def metrics(p: str, table) -> list[tuple[str, str]]:
    """The headline numbers: (label, value) — the runs, the largest ratio and where it is reached."""
    top = V.tightest(table.summary())
    return [("Runs", f"{len(table)}"), ("Largest ratio measured / bound", "n/a" if top is None else f"{top[0]:.3f}"),
            (f"…reached at {_META[p][0]} =", "n/a" if top is None else V.fmt(top[1]))]


def headline(p: str, table) -> str:
    """:func:`metrics` in a sentence."""
    (_, runs), (_, top), (_, at) = metrics(p, table)
    return (f"{runs} runs; the largest ratio measured / bound: {top}"
            + ("" if top == "n/a" else f", reached at {_META[p][0]} = {at}") + ".")


def charts(alg: str, p: str, v: dict[str, Any], table) -> list[tuple[str, str, str, dict]]:
    """The two charts: (key, accessible name, description, figure) — measured against the bound, and the ratio."""
    s = table.summary()
    xl = param_label(alg, p)
    meas = measured_label(alg)
    log_x = v["scale"] == "log"
    proofs = V.proof_per_value(table)
    over = f"against {xl}, median and range over {len(set(table['seed'].tolist()))} seeds per value"
    said_m, said_r = V.describe_sweep(s, _META[p][0], meas)
    return [("explorer_mistakes", f"Measured {meas} and the theorem's bound, {over}", said_m,
             V.mistakes_figure(s, xl, meas, log_x, proofs)),
            ("explorer_ratio", f"Tightness: measured / bound, {over} (1: the bound is attained)", said_r,
             V.ratio_figure(s, xl, log_x, proofs))]


def panels(alg: str, p: str, v: dict[str, Any], table, values: list | None = None) -> None:
    """Headline metrics, the two charts side by side, the assumptions' failures, the table, its CSV and the sweep
    taken home (a notebook, one offline file: :func:`take_home`)."""
    left, right = st.columns(2)      # the charts first: on a projector (1100×800) they start above the fold
    for where, (key, name, text, fig) in zip((left, right), charts(alg, p, v, table)):
        chart_names.plotly_chart(where, fig, key=key, name=name, text=text)
    for col, (label, value) in zip(st.columns(3), metrics(p, table)):
        col.metric(label, value)
    st.caption(_caption(alg, p, table))
    for line in theorem_texts(alg, p, table):
        st.caption(line)
    rate = rate_note(alg, p, table)
    if rate:
        st.info(rate, icon=":material/info:")
    vac = vacuous_text(p, V.vacuous(table))
    if vac:
        st.info(vac, icon=":material/info:")
    for lead, why in na_texts(p, table):
        safe.notice("warning", lead, why)
    tables.table(V.summary_rows(table.summary(), _META[p][0]), key="explorer_summary", label="One row per swept value",
                 hide_index=True)
    row = st.container(horizontal=True)
    row.download_button("Download the table (CSV: one row per run)", table.to_csv(),
                        file_name=f"sweep_{alg}_{p}.csv", mime="text/csv", key="explorer_csv",
                        icon=":material/download:")
    if values is not None:
        take_home(row, alg, p, v, table, values)


def take_home(row, alg: str, p: str, v: dict[str, Any], table, values: list) -> None:
    """"Download this sweep as a notebook (.ipynb)" (its olc_core.sweep call, the check that the table is the page's,
    the two charts) and "… as one offline file (HTML)" (the two charts with their names and descriptions, the
    sentences under them and the table), each built when clicked."""
    fixed = fixed_for(alg, v)
    worst = bool(table.worst_case)
    call = (alg, p, list(values), sweep_args(p, int(v["seeds"]), worst, fixed))
    title = f"Bound explorer: {ALG_NAMES[alg]}, {param_label(alg, p)} swept" + (
        " (bound-attaining streams)" if worst else "")
    row.download_button("Download this sweep as a notebook (.ipynb)",
                        data=lambda: export.notebook_text(call, table, title=title, xlabel=param_label(alg, p),
                                                          measured=measured_label(alg), log_x=v["scale"] == "log",
                                                          held=_caption(alg, p, table)),
                        file_name=f"sweep_{alg}_{p}.ipynb", mime="application/x-ipynb+json", on_click="ignore",
                        key="explorer_ipynb", icon=":material/download:")
    row.download_button("Download this sweep as one offline file (HTML)",
                        data=lambda: export.offline_text(
                            title, charts=[c[1:] for c in charts(alg, p, v, table)],
                            notes=[_caption(alg, p, table), *theorem_texts(alg, p, table),
                                   *filter(None, [rate_note(alg, p, table), vacuous_text(p, V.vacuous(table))]),
                                   *[lead + why for lead, why in na_texts(p, table)]],
                            headline=headline(p, table), rows=V.summary_rows(table.summary(), _META[p][0])),
                        file_name=f"sweep_{alg}_{p}-offline.html", mime="text/html", on_click="ignore",
                        key="explorer_offline", icon=":material/download:")
