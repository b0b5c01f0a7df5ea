"""The randomised FTRL classifier lesson: settings, the data, cached runs and the panels around the viewer.

The page script (pages/ftrl.py) reads like every lesson's four moves: settings from
the URL, a cached core run (plus the seeded runs of the band and one run per α of
the learning-rate chart), a spec built by pure functions (:mod:`olc_ui.lessons.ftrl.view`),
render. Every number shown comes from ``olc_core.run``.
"""
from __future__ import annotations

import hashlib
import math
from dataclasses import dataclass
from typing import Any

import numpy as np
import streamlit as st

import olc_core
from olc_core._support.numeric import rownorm
from olc_core.learners.ftrl_randomized import NORM_SLACK

from olc_ui.lessons.ftrl.view import FAINT_POINTS, alpha_sweep, best_loss_note, ftrl_spec, realised_band
from olc_ui.shared import caps, common, safe
from olc_ui.shared import data as olc_data
from olc_ui.shared.config import Setting
from olc_ui.shared.state import set_value
from olc_ui.shared.notebook import DataCall
from olc_ui.shared.transcript import PageSettings

__all__ = ["stop_run", "PAGE", "SETTINGS", "INTRO", "visible", "Data", "load_data", "run_ftrl", "band_for", "sweep_for",
           "spec_for", "use_best_alpha", "notes", "summary_panel", "proof_steps", "downloads", "unit_ball_rows",
           "SWEEP"]

PAGE = "ftrl"
#: the learning rates of the α chart (plus the chosen α and the theorem's α*)
SWEEP = tuple(np.geomspace(0.05, 10.0, 29).round(4).tolist())
SQRT2 = math.sqrt(2.0)

SETTINGS = [
    Setting("data", "Data", "choice", "generated", options=("generated", "upload"),
            extra={"labels": {"generated": "Generated stream", "upload": "Upload a CSV"}, "horizontal": True}),
    Setting("T", "Rounds T", "int", 300, lo=1, hi=3000, step=1),
    Setting("d", "Dimension d", "int", 2, lo=2, hi=5, step=1, help="2: the plane is drawn"),
    Setting("gamma", "Margin γ of the planted separator", "float", 0.1, lo=0.01, hi=0.5, step=0.01,
            help="no point is closer than γ to the planted hyperplane (before label noise)"),
    Setting("R", "Radius R ≤ 1 of the points", "float", 1.0, lo=0.55, hi=1.0, step=0.05,
            help="every ‖xₜ‖ ≤ R; the gradients have L = max‖gₜ‖ = R/2, and the theorem's α* = 1/(√2·L)"),
    Setting("noise", "Label noise", "float", 0.0, lo=0.0, hi=0.3, step=0.01,
            help="each label is flipped with this probability"),
    Setting("sseed", "Seed (the stream)", "int", 0, lo=0, hi=1_000_000, step=1, extra={"widget": "number"}),
    Setting("scale", "Scale the file's points into the unit ball", "bool", False,
            help="divide every row by the largest ‖x‖ (when some row has ‖x‖ > 1)"),
    Setting("alpha", "Learning rate α", "float", SQRT2, lo=0.05, hi=10.0, step=0.01,
            help="w_{t+1} = Π(α θₜ/√t): FTRL with the regulariser √t‖w‖²/(2α)"),
    Setting("seed", "Seed (the learner's draws)", "int", 0, lo=0, hi=1_000_000, step=1, extra={"widget": "number"}),
    Setting("runs", "Seeded runs for the band", "int", 100, lo=10, hi=500, step=10,
            help="the learner is run with seeds 0 … runs−1 on the same stream; the band holds 90% of them"),
]

INTRO = (
    "The learner keeps $w_t$ in the unit ball and, seeing $x_t$ with $\\lVert x_t\\rVert \\le 1$, predicts "
    "$+1$ **with probability** $\\tfrac{1 + \\langle w_t, x_t\\rangle}{2}$ [002]. Its expected 0/1 loss "
    "$\\ell_t(w_t) = \\tfrac{1 - y_t\\langle w_t, x_t\\rangle}{2}$ is linear in $w$, so FTRL applies: "
    "$w_{t+1} = \\Pi\\bigl(\\tfrac{\\alpha}{\\sqrt t}\\sum_{s\\le t} \\tfrac{y_s x_s}{2}\\bigr)$. The theorem bounds "
    "the **expected** mistakes against the best fixed $\\lVert u\\rVert \\le 1$: "
    "$\\mathbb{E}[M_T] \\le \\min_{\\lVert u\\rVert\\le 1}\\sum_t \\ell_t(u) + \\sqrt{T}\\bigl(\\tfrac{1}{2\\alpha} + "
    "\\alpha L^2\\bigr)$ with $L = \\max_t\\lVert g_t\\rVert \\le \\tfrac12$. The regret grows like $\\sqrt T$, "
    "so per round it vanishes. One seeded run scatters around its expectation: the band shows many."
)


def visible(v: dict[str, Any]) -> set[str]:
    out = {"data", "alpha", "seed", "runs"}
    if v["data"] == "generated":
        out |= {"T", "d", "gamma", "R", "noise", "sseed"}
    else:
        out |= {"scale"}
    return out


@dataclass(frozen=True)
class Data:
    X: np.ndarray
    y: np.ndarray
    label: str
    key: str
    notes: tuple[str, ...] = ()


@st.cache_resource(max_entries=32, show_spinner=False)
def _generated(T: int, d: int, gamma: float, R: float, noise: float, seed: int):
    return olc_core.streams.separable(T=T, d=d, gamma=gamma, radius=R, seed=seed, noise=noise)


def unit_ball_rows(X: np.ndarray, first_row: int) -> str | None:
    """None when every ‖xₜ‖ ≤ 1 (the core's own test and slack), else a message naming the first row."""
    n = rownorm(np.asarray(X, dtype=np.float64))
    bad = np.flatnonzero(n > 1.0 + NORM_SLACK)
    if not bad.size:
        return None
    i = int(bad[0])
    more = f" ({common.count(bad.size, 'row')} in all)" if bad.size > 1 else ""
    return (f"row {i + first_row} has ‖x‖ = {n[i]:.6g} > 1{more}. The randomised classifier needs every "
            f"‖xₜ‖ ≤ 1, else (1 + ⟨w, x⟩)/2 is not a probability. Divide every row by the largest norm "
            f"({float(n.max()):.6g}), or tick 'Scale the file's points into the unit ball'")


def data_call(v: dict[str, Any]) -> DataCall | None:
    """The olc_core.streams call :func:`load_data` makes for these settings (the notebook download's data cell)."""
    if v["data"] != "generated":
        return None
    return DataCall("separable", {"T": int(v["T"]), "d": int(v["d"]), "gamma": float(v["gamma"]),
                                  "radius": float(v["R"]), "seed": int(v["sseed"]), "noise": float(v["noise"])})


def load_data(v: dict[str, Any], upload: bytes | None) -> Data:
    """The stream for these settings; ``DataError`` with a message for the page when it cannot be used."""
    if v["data"] == "generated":
        if v["gamma"] >= v["R"]:
            raise olc_data.DataError(f"the margin γ = {v['gamma']:g} must be smaller than the radius R = {v['R']:g}")
        s = _generated(int(v["T"]), int(v["d"]), float(v["gamma"]), float(v["R"]), float(v["noise"]), int(v["sseed"]))
        key = f"gen-T{v['T']}-d{v['d']}-g{v['gamma']:g}-R{v['R']:g}-n{v['noise']:g}-s{v['sseed']}"
        lab = (f"a generated stream: T = {v['T']}, d = {v['d']}, γ = {v['gamma']:g}, ‖x‖ ≤ R = {v['R']:g}"
               + (f", {v['noise']:.0%} label noise" if v["noise"] else ""))
        return Data(s.X, s.y, lab, key)
    if upload is None:
        raise olc_data.NeedsInput("choose a CSV file with columns x1, x2 (optional x3) and label (−1/+1), "
                                  "every row with ‖x‖ ≤ 1")
    X, y, notes, first = olc_data.parse_points_csv(upload, with_first_row=True)
    h = hashlib.blake2b(upload, digest_size=8).hexdigest()
    notes = list(notes)
    key = f"upload-{h}"
    problem = unit_ball_rows(X, first)
    if problem is not None:
        if not v["scale"]:
            raise olc_data.DataError(problem)
        top = float(rownorm(X).max())
        X = X / top
        notes.append(f"every row was divided by the largest norm, {top:.6g}, so that ‖x‖ ≤ 1")
        key += "-scaled"
    return Data(X, y, f"your file ({len(y)} points, d = {X.shape[1]})", key, tuple(notes))


@st.cache_resource(max_entries=32, show_spinner=False)
def _run(key: str, _X, _y, alpha: float, seed: int):
    return olc_core.run("ftrl_randomized", _X, _y, eta=alpha, seed=seed)


def run_ftrl(data: Data, v: dict[str, Any]):
    """The cached core run for these settings."""
    return _run(data.key, data.X, data.y, float(v["alpha"]), int(v["seed"]))


@st.cache_resource(max_entries=16, show_spinner=False)
def _band(key: str, _X, _y, alpha: float, runs: int):
    return realised_band(_X, _y, eta=alpha, runs=runs)


def band_for(data: Data, v: dict[str, Any]):
    """Realised mistakes over seeds 0 … runs−1 (each a plain ``olc_core.run``)."""
    return _band(data.key, data.X, data.y, float(v["alpha"]), int(v["runs"]))


@st.cache_resource(max_entries=16, show_spinner=False)
def _sweep(key: str, _X, _y, alphas: tuple):
    return alpha_sweep(_X, _y, alphas)


def sweep_for(data: Data, trace):
    c = trace.proof.constants
    extra = [float(c["alpha"])] + ([float(c["best_alpha"])] if math.isfinite(c["best_alpha"]) else [])
    alphas = tuple(sorted(set(SWEEP) | {a for a in extra if SWEEP[0] <= a <= SWEEP[-1]}))
    return _sweep(data.key, data.X, data.y, alphas)


def run_id(data: Data, v: dict[str, Any]) -> str:
    return f"{data.key}-a{float(v['alpha']):.10g}-s{v['seed']}-r{v['runs']}"


@st.cache_resource(max_entries=16, show_spinner=False)
def _spec(rid: str, _trace, _X, _y, _band, _sweep) -> dict:
    return ftrl_spec(_trace, _X, _y, run_id=rid, band=_band, sweep=_sweep)


def spec_for(data: Data, v: dict[str, Any], trace, band, sweep) -> dict:
    return _spec(run_id(data, v), trace, data.X, data.y, band, sweep)


def use_best_alpha(best: float) -> None:
    """Callback of the one-click button: set α to the theorem's α* (from the run's proof)."""
    set_value(PAGE, SETTINGS, "alpha", float(best))


def is_best(alpha: float, best: float) -> bool:
    """α is the theorem's α* up to the URL's 10 significant digits."""
    return math.isfinite(best) and abs(alpha - best) <= 1e-9 * best


# ------------------------------------------------------------------------------------------ messages, panels

def notes(v: dict[str, Any], trace) -> list[tuple[str, str]]:
    """What the page must say about these settings (numbers from the run): (kind, text)."""
    c = trace.proof.constants
    out: list[tuple[str, str]] = []
    best = float(c["best_alpha"])
    if math.isfinite(best) and not SWEEP[0] <= best <= 10.0:
        out.append(("info", f"The theorem's α* = 1/(√2·L) = {best:.4g} is outside the slider's range "
                            "(0.05 … 10): the rows are very short."))
    b = trace.proof.mistake_bound
    if b is not None and b >= trace.T and trace.T >= 10:
        out.append(("info", f"The bound on E[M] ({b:.4g}) is at least the number of rounds T = {trace.T}: true, "
                            "but it says nothing here"
                            + (f" — α = {c['alpha']:g} is far from α* = {best:.4g}, so √T(1/(2α) + αL²) = "
                               f"{c['regret_bound']:.4g} is large." if not is_best(float(c["alpha"]), best) else ".")))
    if trace.T == 1:
        out.append(("info", "T = 1: a single round. Step once with Next."))
    return out


def _f(x, fmt=".4g") -> str:
    return "n/a" if x is None else format(x, fmt)


def summary_panel(data: Data, trace, band) -> None:
    """What the run did, the theorem's numbers and the band."""
    p = trace.proof
    c = p.constants
    with st.container(border=True):
        st.markdown(f"#### Randomised FTRL (α = {c['alpha']:.4g}) on {data.label}")
        cols = st.columns(5)
        cols[0].metric("E[M] = Σ ℓₜ(wₜ)", f"{c['expected_mistakes']:.4g}",
                       help="expected mistakes: the sum over rounds of the chance of erring")
        cols[1].metric("Best ‖u‖ ≤ 1: min Σ ℓₜ(u) (a loss)", f"{c['best_loss']:.4g}",
                       help="the expected loss of the best fixed u in the unit ball, in hindsight, used as the "
                            "randomised classifier: ℓₜ(u) = (1 − yₜ⟨u, xₜ⟩)/2 — not a count of mistakes")
        cols[2].metric("Regret at T", f"{float(p.series['regret'][-1]):.4g}",
                       help="E[M] − min Σ ℓₜ(u) (the proof's series, at T)")
        cols[3].metric("Bound on E[M]", _f(p.mistake_bound, ".5g"))
        cols[4].metric(f"Realised M (seed {c.get('seed', trace.info['seed'])})", f"{trace.n_mistakes}",
                       help="one draw of the learner's coins: the theorem bounds E[M], not this count")
        if p.mistake_bound is not None:
            text = (f"With L = max‖gₜ‖ = {c['L']:.4g} and α = {c['alpha']:.4g}, the theorem promises "
                    f"$\\mathbb{{E}}[M_T] \\le \\min_u \\sum_t \\ell_t(u) + \\sqrt{{T}}\\bigl(\\tfrac{{1}}{{2\\alpha}} + "
                    f"\\alpha L^2\\bigr) = {c['best_loss']:.4g} + {c['regret_bound']:.4g} = {p.mistake_bound:.5g}$; "
                    f"here $\\mathbb{{E}}[M_T] = {c['expected_mistakes']:.4g}$. This seeded run made "
                    f"**{trace.n_mistakes}** mistakes")
            if trace.n_mistakes > p.mistake_bound:
                text += (f", more than the bound {p.mistake_bound:.5g}: not a violation — the theorem bounds the "
                         f"expected count $\\mathbb{{E}}[M_T] = {c['expected_mistakes']:.4g}$, and this count is one "
                         "draw of the learner's coins")
            if band is not None:
                text += common.band_text(band, on="examples")
            else:
                text += "."
            st.success(text)
        else:
            for a in p.failed_assumptions:
                safe.notice("error", "The theorem does not apply: ", f"{a.detail}.")
        st.caption(best_loss_note(trace, data.X, data.y))
        for note in data.notes:
            st.caption(note)


def proof_steps(trace) -> None:
    """The proof in a few steps, with this run's numbers (all from the proof object)."""
    p = trace.proof
    c = p.constants
    reasons = {ch.name: ch.reasons for ch in p.chains}
    with st.expander("The proof in four steps, with this run's numbers"):
        st.markdown(
            "1. **Convexify by randomising.** $\\mathbb{E}[\\mathbf{1}\\{\\hat y_t \\ne y_t\\}] = "
            "\\ell_t(w_t) = \\tfrac{1 - y_t\\langle w_t, x_t\\rangle}{2}$, linear with gradient "
            "$g_t = -y_t x_t/2$, so $\\lVert g_t\\rVert \\le \\tfrac12$; here "
            f"$L = {c['L']:.4g}$.\n"
            "2. **FTRL's regret:** "
            + reasons["regret against the best u in the ball"][0] + ".\n"
            "3. **Sum the steps:** " + reasons["regret against the best u in the ball"][1]
            + f", so the regret is at most $\\sqrt{{T}}(1/(2\\alpha) + \\alpha L^2) = {c['regret_bound']:.4g}$ "
            f"(the data-dependent bound is {c['regret_bound_data']:.4g}; the measured regret "
            f"{float(p.series['regret'][-1]):.4g}).\n"
            "4. **Add the best comparator's loss:** $\\mathbb{E}[M_T] = \\min_u \\sum_t\\ell_t(u) + "
            f"\\text{{regret}} \\le {c['best_loss']:.4g} + {c['regret_bound']:.4g} = "
            f"{_f(p.mistake_bound, '.5g')}$ — where ${c['best_loss']:.4g} = \\min_u \\sum_t \\ell_t(u)$ is the best "
            "$u$'s expected loss as a randomised classifier, not a count of its mistakes. The bound is smallest at "
            f"$\\alpha^* = 1/(\\sqrt2 L) = {c['best_alpha']:.4g}$.\n\n"
            "The realised count is random: the theorem says nothing about one run, only about the average "
            "over the learner's coins (the band).")


def downloads(trace, data: Data, spec: dict, position: int) -> None:
    common.downloads(trace, spec, position, "ftrl", data.X, data.y, settings=TRANSCRIPT)


#: the page's drawing cap, stated under its viewer (olc_ui/shared/caps.py)
CAP = caps.text(f"at most 3,000 generated rounds ({caps.FILE}); earlier points drawn faint, at most {FAINT_POINTS} of them")


#: what the page tells the proof transcript and the download names (olc_ui/shared/transcript.py)
TRANSCRIPT = PageSettings(SETTINGS, lambda v, trace: visible(v), upload_key=PAGE, recipe=data_call)


def stop_run(v: dict[str, Any]) -> tuple[dict, Any]:
    """The spec and the run this page shows for the settings ``v`` (every setting of its link, decoded; no upload):
    a tour's stop as its offline file carries it (olc_ui/shared/tours/offline.py) — the calls pages/ftrl.py makes
    (tests/tours/test_tour_offline.py checks the spec against the page's at every shipped stop)."""
    data = load_data(v, None)
    trace = run_ftrl(data, v)
    return spec_for(data, v, trace, band_for(data, v), sweep_for(data, trace)), trace
