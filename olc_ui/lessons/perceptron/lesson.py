"""The Perceptron lesson: its settings, data sources, cached runs and the panels around the viewer.

The page script (pages/perceptron.py) reads like the four moves of every page:
settings from the URL, a cached core run, a spec built by pure functions, render.
"""
from __future__ import annotations

import hashlib
import math
from typing import Any

import numpy as np
import streamlit as st

import olc_core

from olc_ui.lessons.perceptron.view import perceptron_spec
from olc_ui.shared import caps, common, safe, ties
from olc_ui.shared import data as olc_data
from olc_ui.shared.config import Setting
from olc_ui.shared.points import Data, click_canvas  # noqa: F401  (the page's click canvas)
from olc_ui.shared.notebook import DataCall
from olc_ui.shared.transcript import PageSettings
from olc_ui.viewer import predict

__all__ = ["stop_run", "SETTINGS", "PAGE", "Data", "load_data", "run_perceptron", "spec_for", "ask_for", "full_plotly",
           "assumption_panel", "nonseparable_panel", "downloads", "click_canvas", "valid_margin"]

PAGE = "perceptron"
SOURCES = ("generated", "tight", "upload", "click")
SETTINGS = [
    Setting("data", "Data", "choice", "generated", options=SOURCES,
            extra={"labels": {"generated": "Generated", "tight": "Tight instance (M = d)",
                              "upload": "Upload a CSV", "click": "Click points"}}),
    Setting("d", "Dimension d", "int", 2, lo=2, hi=3, step=1, help="2: the plane; 3: a 3-D view"),
    Setting("gamma", "Margin γ", "float", 0.1, lo=0.01, hi=0.5, step=0.01,
            help="no point is closer than γ to the planted separator w*"),
    Setting("R", "Radius R", "float", 1.0, lo=0.5, hi=5.0, step=0.5, help="every point has ‖x‖ ≤ R"),
    Setting("T", "Rounds T", "int", 200, lo=1, hi=10_000, step=1),
    Setting("noise", "Label noise", "float", 0.0, lo=0.0, hi=0.3, step=0.01,
            help="each label flipped with this probability: the planted w* then errs on the flipped points "
                 "(another w* may still separate the data: the max-margin comparator searches for one)"),
    Setting("seed", "Seed", "int", 0, lo=0, hi=1_000_000, step=1, extra={"widget": "number"}),
    Setting("order", "Order of the stream", "choice", "generated", options=("generated", "margin", "random"),
            extra={"labels": {"generated": "as generated", "margin": "hardest first (smallest margin)",
                              "random": "shuffled"}, "widget": "select"}),
    Setting("cmp", "Comparator w*", "choice", "planted", options=("planted", "max-margin"),
            extra={"labels": {"planted": "the planted w*", "max-margin": "the max-margin separator"},
                   "horizontal": True},
            help="the unit vector the proof compares the learner with"),
    Setting("td", "Tight instance: d", "int", 10, lo=1, hi=30, step=1),
    Setting("pts", "Clicked points", "text", "", extra={"check": olc_data.decode_points}),
]
#: The TD_γ settings (their own group: drawn only when the data are not separable).
TD_SETTINGS = [
    Setting("gbest", "Use the γ with the smallest TD bound", "bool", True),
    Setting("gtd", "γ for the TD_γ bound", "float", 0.05, lo=0.005, hi=2.0, step=0.005),
]
_BY_KEY = {s.key: s for s in SETTINGS}


def visible(v: dict[str, Any]) -> set[str]:
    """The settings whose widgets make sense for the current data source (``pts`` has no widget)."""
    src = v["data"]
    common = {"data"}
    if src == "generated":
        return common | {"d", "gamma", "R", "T", "noise", "seed", "order", "cmp"}
    if src == "tight":
        return common | {"td"}
    return common


@st.cache_resource(max_entries=32, show_spinner=False)
def _generated(d: int, gamma: float, R: float, T: int, noise: float, seed: int, order: str):
    return olc_core.streams.separable(T=T, d=d, gamma=gamma, radius=R, seed=seed, noise=noise, order=order)


def valid_margin(v: dict[str, Any]) -> tuple[dict[str, Any], str | None]:
    """The settings with a margin the generator accepts (γ < R), and what was changed in words (else None).

    The sliders allow γ up to 0.5 and R down to 0.5; at γ ≥ R no point can have margin γ, so the page
    runs with the largest γ on the slider's grid below R and says so (the page is never replaced)."""
    if v["data"] != "generated" or v["gamma"] < v["R"]:
        return v, None
    step = _BY_KEY["gamma"].step
    used = round(max(_BY_KEY["gamma"].lo, v["R"] - step), 2)
    return ({**v, "gamma": used},
            f"A margin γ = {v['gamma']:g} is impossible with radius R = {v['R']:g} (every point has ‖x‖ ≤ R, so "
            f"no point is farther than R from a separator through 0): the page uses γ = {used:g}. Lower γ "
            "or raise R.")


def data_call(v: dict[str, Any]) -> DataCall | None:
    """The olc_core.streams call :func:`load_data` makes for these settings (the notebook download's data cell)."""
    v, _ = valid_margin(v)
    if v["data"] == "generated":
        return DataCall("separable", {"T": int(v["T"]), "d": int(v["d"]), "gamma": float(v["gamma"]),
                                      "radius": float(v["R"]), "seed": int(v["seed"]), "noise": float(v["noise"]),
                                      "order": v["order"]})
    return DataCall("tight_perceptron", {"d": int(v["td"])}) if v["data"] == "tight" else None


def load_data(v: dict[str, Any], upload: bytes | None) -> Data:
    """The stream for these settings; ``DataError`` with a message for the page when the data are unusable."""
    src = v["data"]
    if src == "generated":
        if v["gamma"] >= v["R"]:
            raise olc_data.DataError(f"the margin γ = {v['gamma']:g} must be smaller than the radius R = {v['R']:g}")
        s = _generated(int(v["d"]), float(v["gamma"]), float(v["R"]), int(v["T"]), float(v["noise"]),
                       int(v["seed"]), v["order"])
        key = f"gen-d{v['d']}-g{v['gamma']:g}-R{v['R']:g}-T{v['T']}-n{v['noise']:g}-s{v['seed']}-{v['order']}"
        cmp = s.comparator if v["cmp"] == "planted" else None
        # the slider's R is where points are drawn (‖x‖ ≤ R); the proof's R is the largest ‖xₜ‖ drawn (a student met
        # "R = 5" in the title and "R = max‖xₜ‖ = 2.934" in the panel)
        lab = (f"generated: T = {v['T']}, d = {v['d']}, γ = {v['gamma']:g}, drawn in ‖x‖ ≤ {v['R']:g}" if not v["noise"]
               else f"generated with margin {v['gamma']:g} (drawn in ‖x‖ ≤ {v['R']:g}, T = {v['T']}, d = {v['d']}), "
               f"then {v['noise']:.0%} label noise")
        return Data(s.X, s.y, cmp, lab, key + f"-{v['cmp']}", flipped=s.info.get("flipped"), margin=float(v["gamma"]))
    if src == "tight":
        s = olc_core.streams.tight_perceptron(int(v["td"]))
        return Data(s.X, s.y, s.comparator, f"the tight instance in d = {v['td']}: xₜ = eₜ, yₜ = +1",
                    f"tight-{v['td']}")
    if src == "upload":
        if upload is None:
            raise olc_data.NeedsInput("choose a CSV file with columns x1, x2 (optional x3) and label (−1/+1)")
        X, y, notes = olc_data.parse_points_csv(upload)
        h = hashlib.blake2b(upload, digest_size=8).hexdigest()
        return Data(X, y, None, f"your file ({len(y)} points, d = {X.shape[1]})", f"upload-{h}", tuple(notes))
    if src == "click":
        X, y = olc_data.decode_points(v["pts"])
        if len(y) == 0:
            raise olc_data.NeedsInput("click on the canvas above to add points (choose the label first)")
        h = hashlib.blake2b(v["pts"].encode(), digest_size=8).hexdigest()
        return Data(X, y, None, f"your {common.count(len(y), 'clicked point')}", f"click-{h}")
    raise olc_data.DataError(f"unknown data source {src!r}")


@st.cache_resource(max_entries=32, show_spinner=False)
def _run(key: str, _X: np.ndarray, _y: np.ndarray, _cmp, gamma: float | None):
    kw = {} if _cmp is None else {"comparator": _cmp}
    if gamma is not None:
        kw["gamma"] = gamma
    return olc_core.run("perceptron", _X, _y, **kw)


def run_perceptron(data: Data, gamma: float | None = None):
    """The cached core run (``gamma``: the γ the TD proof uses; None: measured / best)."""
    return _run(data.key, data.X, data.y, data.comparator, gamma)


@st.cache_resource(max_entries=16, show_spinner=False)
def _spec(run_id: str, _trace, _X, _y, use: str | None, title: str) -> dict:
    return perceptron_spec(_trace, _X, _y, run_id=run_id, title=title, use=use)


def _run_id(data: Data, gamma_td: float | None, use: str | None) -> str:
    return f"{data.key}-td{gamma_td}-{use}"


def spec_for(data: Data, trace, *, gamma_td: float | None, use: str | None = None) -> dict:
    return _spec(_run_id(data, gamma_td, use), trace, data.X, data.y, use,
                 f"Perceptron on {data.label}" + band_note(data, trace, gamma_td, use))


@st.cache_resource(max_entries=16, show_spinner=False)
def _ask(run_id: str, _trace, _X, _y) -> dict | None:
    return predict.perceptron_options(_trace, _X, _y)


def ask_for(data: Data, trace, *, gamma_td: float | None, use: str | None = None) -> dict | None:
    """The viewer's predict-then-reveal options for this run (olc_ui/viewer/predict.py), built once per run as
    its spec is (None in 3-D and beyond)."""
    return _ask(_run_id(data, gamma_td, use), trace, data.X, data.y)


def full_plotly(data: Data) -> bool:
    """Whether the step viewer draws these data with the full plotly.js (a 3-D chart) rather than its basic
    bundle (the plane, or the weights as bars)."""
    return data.X.shape[1] == 3


def band_note(data: Data, trace, gamma_td: float | None, use: str | None) -> str:
    """On non-separable data the band around w* is drawn with the TD_γ bound's γ, not the generator's margin:
    say which γ it is (the legend shows only its value)."""
    if use != "nonseparable":
        return ""
    g = float(trace.proofs["nonseparable"].constants["gamma"])
    which = "the γ that minimises the TDᵧ bound" if gamma_td is None else "the γ chosen for the TDᵧ bound"
    made = f"; the stream was generated with margin {data.margin:.3g}" if data.margin is not None else ""
    return f" — band: γ = {g:.3g}, {which}{made}"


# ------------------------------------------------------------------------------------------ panels

#: The comparator line when the max-margin search returned none, by its verdict.
NO_COMPARATOR = {
    "inseparable": "none: no separator through the origin exists (an exact certificate: the rounds listed below)",
    "unresolved": "none: the best margin is below what floating point resolves (or the search stopped), and no "
                  "exact certificate of inseparability was found, so separability is not decided either way",
}


def assumption_panel(trace, data: Data) -> None:
    """Is the theorem applicable to these data? The measured constants and the verdict."""
    p = trace.proof
    c = p.constants
    info = trace.info
    with st.container(border=True):
        st.markdown("#### Assumptions and constants of this run")
        src = info.get("comparator_source")
        how = {"given": "given (the planted w*)" if data.comparator is not None else "given",
               "max-margin": "the max-margin separator through the origin (Wolfe's minimum-norm point; "
                             f"certified within {info.get('max_margin_gap', 0):.1e} of the best margin)",
               None: NO_COMPARATOR.get(info.get("separability"), "none")}.get(src, str(src))
        cols = st.columns(4)
        cols[0].metric("Mistakes M (whole run)", f"{trace.n_mistakes}")
        R = c.get("radius")
        cols[1].metric("Radius R = max‖xₜ‖", f"{R:.4g}" if R is not None else "—")
        g = c.get("gamma")
        if g is not None and g > 0:
            cols[2].metric("Margin γ = min yₜ⟨w*,xₜ⟩", f"{g:.4g}")
        else:  # no positive margin: say so rather than show a "γ" the theorem cannot use
            cols[2].metric("min yₜ⟨w*,xₜ⟩ ≤ 0", f"{g:.4g}".replace("-", "−") if g is not None else "—",
                           help="No margin: some point lies on the wrong side of w* or on its hyperplane, so no margin "
                                "γ > 0 exists for this w*. The TD_γ bound below lets you choose γ instead.")
        b = p.mistake_bound
        cols[3].metric("Bound R²/γ²", f"{b:.5g}" if b is not None else "n/a",
                       help=None if b is not None else "The separable theorem's assumption fails on these data, so it "
                       "gives no bound; the TD_γ bound below (for any γ > 0) is the one that holds.")
        st.markdown(f"Comparator $w^*$: {how}.")
        if p.applies:
            st.success(f"Every round has $y_t\\langle w^*, x_t\\rangle \\ge \\gamma = {g:.4g} > 0$ and "
                       f"$\\lVert x_t\\rVert \\le R = {R:.4g}$: the theorem applies, so the Perceptron makes at most "
                       f"$R^2/\\gamma^2 = {b:.5g}$ mistakes on **any** ordering of these points. It made "
                       f"**{trace.n_mistakes}**.")
        else:
            for a in p.failed_assumptions:
                # the rounds are listed, not ringed: on these data the chart's pink rings are the TDᵧ hinge terms
                proof_of = ("these rounds alone prove that the data are **not separable**"
                            if info.get("separability") == "inseparable" and a.name == "separable"
                            else "the rounds where it fails")
                st.error(f"The theorem $M \\le R^2/\\gamma^2$ **does not apply**: {safe.md(a.detail)}. "
                         f"{proof_of[0].upper() + proof_of[1:]}: {common.rounds_text(np.asarray(a.rounds))}.")
            st.info(_not_applying_note(src, info.get("separability"))
                    + (_planted_note(trace, data) if src == "given" else ""))
        st.caption("Ties: " + ties.PERCEPTRON_RULE + ". " + ties.zero_note(trace.columns["score"], data.y))
        for note in data.notes:
            st.caption(note)


def _not_applying_note(src, separability) -> str:
    """What the failed assumption means for these data: a comparator that fails is not a proof that the
    data are inseparable; only the max-margin search's exact certificate is."""
    if separability == "unresolved":
        return ("Whether these data are separable was not decided (see above), so the theorem is not applied. "
                "The TD_γ bound below needs no assumption on the data.")
    if src is None:
        return ("These data are not linearly separable through the origin, so no bound of the form R²/γ² can "
                "hold for them (a noisy label can be repeated forever). The TD_γ bound below needs no assumption "
                "on the data.")
    return ("The theorem needs some unit w* with a positive margin; the one given here does not separate these "
            "data, which does not make them inseparable. Choose 'the max-margin separator' as the comparator to "
            "let the search decide whether another w* separates them. Meanwhile the TD_γ bound below needs no "
            "assumption on the data.")


@st.cache_resource(max_entries=16, show_spinner=False)
def _max_margin(key: str, _X: np.ndarray, _y: np.ndarray):
    return olc_core.comparators.max_margin(_X, _y)


def _planted_note(trace, data: Data) -> str:
    """When the given w* fails: where it fails on these data, and what the max-margin search finds on them
    (noisy data can stay separable: issue 32 §4), with the run's numbers."""
    m = np.asarray(trace.columns["comparator_margin"], dtype=float)
    bad = int(np.count_nonzero(m <= 0))
    said = f" Here the given w* has yₜ⟨w*, xₜ⟩ ≤ 0 on {common.count(bad, 'round')} (smallest {m.min():.4g})"
    if data.flipped is not None:
        n = int(np.count_nonzero(data.flipped))
        said += f"; {common.count(n, 'label')} of the stream {common.agree(n, 'was', 'were')} flipped"
    said = said.replace("-", "−") + "."
    mm = _max_margin(data.key, data.X, data.y)
    if mm.separable:
        return (said + " The max-margin search finds these data separable all the same: a unit w* with margin "
                f"{mm.margin:.4g} (no unit vector does better than {mm.upper:.4g}), for which the theorem applies.")
    how = "proves more" if mm.proved_inseparable else "does not decide it"
    listed = f" (the rounds listed: {common.rounds_text(mm.support)})" if mm.proved_inseparable else ""
    return said + f" The max-margin search {how}: {olc_core.comparators.separability_text(mm, 'these data')}{listed}."


def nonseparable_panel(trace_ns, data: Data) -> None:
    """The TD_γ analysis in words and numbers (its chart, the bound against γ, is in the viewer)."""
    ns = trace_ns.proofs["nonseparable"]
    hp = trace_ns.proofs["hinge"]
    c = ns.constants
    with st.container(border=True):
        st.markdown("#### Non-separable data: the TD_γ bound [004] and the hinge-loss bound [002]")
        st.markdown(
            f"For **any** unit $w^*$ and **any** $\\gamma > 0$, with "
            f"$\\mathrm{{TD}}_\\gamma = \\sum_t \\max(0, \\gamma - y_t\\langle w^*, x_t\\rangle)$ (how far the "
            f"points would have to move to be separated with margin $\\gamma$): "
            f"$\\gamma M - \\mathrm{{TD}}_\\gamma \\le \\langle w^*, w\\rangle \\le \\lVert w\\rVert \\le R\\sqrt M$, "
            f"so $M \\le R^2/\\gamma^2 + (2/\\gamma)\\,\\mathrm{{TD}}_\\gamma$. Here $w^*$ is "
            f"{'the planted separator' if data.comparator is not None else 'a soft-margin fit'}; with "
            f"$\\gamma = {c['gamma']:.4g}$: $\\mathrm{{TD}}_\\gamma = {c['TD']:.4g}$ over the whole run, bound "
            f"$= {ns.mistake_bound:.5g}$ (solving the quadratic exactly: {c['bound_quadratic']:.5g}); "
            f"hinge form with $u = w^*/\\gamma$: $L(u) = {hp.constants['L']:.4g}$, bound $= {hp.mistake_bound:.5g}$. "
            f"The Perceptron made **{trace_ns.n_mistakes}** mistakes.")
        st.caption(f"The smallest TD bound for this w* over 0 < γ ≤ R is {c['best_bound']:.5g}, at "
                   f"γ = {c['best_gamma']:.4g} (no unit w* has a margin above R, and beyond R the bound only "
                   "grows or exceeds 2T − 1): "
                   "the chart under the main chart draws the bound for every γ. The points with a positive hinge "
                   "term are ringed on the main chart, larger for a larger term. In the sandwiches and the ledger, "
                   "TDᵧ *so far* (the rounds before the current one) is the one checked at each round; the bound "
                   "uses TDᵧ *over the whole run*.")


def downloads(trace, data: Data, spec: dict, position: int, name: str = "perceptron",
              X: np.ndarray | None = None, y: np.ndarray | None = None) -> None:
    common.downloads(trace, spec, position, name, data.X if X is None else X, data.y if y is None else y, settings=TRANSCRIPT)


def best_gamma_for(trace_ns) -> tuple[float, float]:
    c = trace_ns.proofs["nonseparable"].constants
    return float(c["best_gamma"]), float(c["best_bound"])


def finite(x) -> bool:
    return x is not None and math.isfinite(x)


#: the page's drawing cap, stated under its viewer (olc_ui/shared/caps.py)
CAP = caps.text(f"at most 10,000 rounds ({caps.FILE}); every round is sent to the step viewer")


def _used(v: dict[str, Any], trace) -> set[str]:
    """The settings a run with the values ``v`` uses: the visible ones, the clicked points when the data are those,
    and the TD_γ bound's settings when the page shows that bound (the data are not separable)."""
    clicked = {"pts"} if v.get("data") == "click" else set()
    td = set()
    if trace is not None and not trace.proof.applies:
        td = {"gbest"} | (set() if v.get("gbest") else {"gtd"})
    return visible(v) | clicked | td


#: what the page tells the proof transcript and the download names (olc_ui/shared/transcript.py)
TRANSCRIPT = PageSettings(SETTINGS + TD_SETTINGS, _used, upload_key=PAGE, recipe=data_call)


def stop_run(v: dict[str, Any]) -> tuple[dict, Any]:
    """The spec and the run this page shows for the settings ``v`` (every setting of its link, decoded; no upload):
    a tour's stop as its offline file carries it (olc_ui/shared/tours/offline.py) — the calls pages/perceptron.py makes
    (tests/tours/test_tour_offline.py checks the spec against the page's at every shipped stop)."""
    data = load_data(valid_margin(v)[0], None)
    trace = run_perceptron(data)
    if trace.proof.applies:
        return spec_for(data, trace, gamma_td=None, use="separable"), trace
    gamma_td = None if v["gbest"] else float(v["gtd"])
    shown = run_perceptron(data, gamma_td) if gamma_td is not None else trace
    return spec_for(data, shown, gamma_td=gamma_td, use="nonseparable"), shown
