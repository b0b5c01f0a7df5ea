"""The Margin Perceptron lesson: settings, data, the cached run, the spec."""
from __future__ import annotations

import hashlib
import math
from typing import Any

import numpy as np
import streamlit as st

import olc_core
from olc_core.comparators import max_margin

from olc_ui.lessons.margin_perceptron.view import margin_perceptron_spec
from olc_ui.shared import caps, common
from olc_ui.shared import data as olc_data
from olc_ui.shared.common import count
from olc_ui.shared.config import Setting
from olc_ui.shared.points import Data, click_canvas  # noqa: F401  (the page's click canvas)
from olc_ui.shared.notebook import DataCall
from olc_ui.shared.transcript import PageSettings

__all__ = ["stop_run", "PAGE", "SETTINGS", "crossing_text", "visible", "load_data", "run_margin", "spec_for", "downloads", "click_canvas",
           "data_max_margin", "margin_comparison"]

PAGE = "margin"
SETTINGS = [
    Setting("data", "Data", "choice", "generated", options=("generated", "upload", "click"),
            extra={"labels": {"generated": "Generated", "upload": "Upload a CSV", "click": "Click points"}}),
    Setting("T", "Number of points", "int", 60, lo=1, hi=2000, step=1),
    Setting("gamma", "Margin of the data", "float", 0.2, lo=0.02, hi=0.6, step=0.01,
            help="the planted separator w* leaves every (normalised) point at least this far"),
    Setting("noise", "Label noise", "float", 0.0, lo=0.0, hi=0.3, step=0.01),
    Setting("seed", "Seed", "int", 0, lo=0, hi=1_000_000, step=1, extra={"widget": "number"}),
    Setting("gamma_alg", "γ of the algorithm (band ±γ/2)", "float", 0.2, lo=0.01, hi=1.0, step=0.01,
            help="the theorem needs the data to have margin at least this γ"),
    Setting("until", "Cycle until a pass makes no update", "bool", True),
    Setting("passes", "Passes over the data", "int", 1, lo=1, hi=200, step=1),
    Setting("pts", "Clicked points", "text", "", extra={"check": olc_data.decode_points}),
]


def visible(v: dict[str, Any]) -> set[str]:
    out = {"data", "gamma_alg", "until"} | (set() if v["until"] else {"passes"})
    if v["data"] == "generated":
        out |= {"T", "gamma", "noise", "seed"}
    return out


@st.cache_resource(max_entries=32, show_spinner=False)
def _generated(T: int, gamma: float, noise: float, seed: int):
    return olc_core.streams.separable(T=T, d=2, gamma=gamma, radius=1.0, seed=seed, noise=noise)


def data_call(v: dict[str, Any]) -> DataCall | None:
    """The olc_core.streams call :func:`load_data` makes for these settings (the notebook download's data cell)."""
    if v["data"] != "generated":
        return None
    return DataCall("separable", {"T": int(v["T"]), "d": 2, "gamma": float(v["gamma"]), "radius": 1.0,
                                  "seed": int(v["seed"]), "noise": float(v["noise"])})


def _generated_label(v: dict[str, Any]) -> str:
    """What the generator was asked for: the margin of the data as generated (after normalising, and with label noise,
    the measured margin differs: the page's summary gives it; a title 'margin 0.2' beside a measured 0.2424 read
    as a contradiction)."""
    noise = float(v["noise"])
    return (f"{v['T']} points generated with margin γ = {v['gamma']:g}"
            + (f" and label noise {noise:g}" if noise else ""))


def load_data(v: dict[str, Any], upload: bytes | None) -> Data:
    src = v["data"]
    if src == "generated":
        s = _generated(int(v["T"]), float(v["gamma"]), float(v["noise"]), int(v["seed"]))
        key = f"mgen-T{v['T']}-g{v['gamma']:g}-n{v['noise']:g}-s{v['seed']}"
        return Data(s.X, s.y, s.comparator, _generated_label(v), key,
                    flipped=s.info.get("flipped"))
    if src == "upload":
        if upload is None:
            raise olc_data.NeedsInput("choose a CSV file with columns x1, x2 and label (−1/+1)")
        X, y, notes = olc_data.parse_points_csv(upload, dims=(2,))
        h = hashlib.blake2b(upload, digest_size=8).hexdigest()
        return Data(X, y, None, f"your file ({count(len(y), 'point')})", f"mup-{h}", tuple(notes))
    X, y = olc_data.decode_points(v["pts"])
    if len(y) == 0:
        raise olc_data.NeedsInput("click on the canvas above to add points (choose the label first)")
    if (np.hypot(X[:, 0], X[:, 1]) == 0).any():
        raise olc_data.DataError("a point at the origin cannot be normalised to length 1: remove it")
    h = hashlib.blake2b(v["pts"].encode(), digest_size=8).hexdigest()
    return Data(X, y, None, f"your {count(len(y), 'clicked point')}", f"mclick-{h}")


@st.cache_resource(max_entries=32, show_spinner=False)
def _run(key: str, _X, _y, _cmp, gamma: float, passes: int | None):
    kw = {} if _cmp is None else {"comparator": _cmp}
    return olc_core.run("margin_perceptron", _X, _y, gamma=gamma, passes=passes, **kw)


MAX_PRESENTATIONS = 20_000  # what a classroom viewer steps through comfortably


def passes_for(v: dict[str, Any], n: int) -> int:
    """Passes to ask for: the chosen number, or for "until no update" as many as the theorem
    could need (12/γ² + 1), capped so the run stays within MAX_PRESENTATIONS presentations."""
    if not v["until"]:
        return int(min(v["passes"], max(1, MAX_PRESENTATIONS // n)))
    return int(max(1, min(math.ceil(12 / v["gamma_alg"] ** 2) + 1, MAX_PRESENTATIONS // n)))


def run_margin(data: Data, gamma: float, passes: int | None):
    return _run(data.key, data.X, data.y, data.comparator, gamma, passes)


@st.cache_resource(max_entries=16, show_spinner=False)
def _spec(run_id: str, _trace, title: str) -> dict:
    return margin_perceptron_spec(_trace, run_id=run_id, title=title)


def spec_for(data: Data, trace, v: dict[str, Any]) -> dict:
    rid = f"{data.key}-ga{v['gamma_alg']:g}-{'u' if v['until'] else v['passes']}"
    return _spec(rid, trace, f"Margin Perceptron (γ = {v['gamma_alg']:g}) on {data.label}, normalised")


@st.cache_resource(max_entries=32, show_spinner=False)
def _max_margin(key: str, _Xh, _y):
    return max_margin(_Xh, _y)


def data_max_margin(data: Data, trace):
    """The normalised data's maximum margin over every unit w (certified interval; cached per data set).
    The run's comparator already is that separator when none was given (no second search)."""
    info = trace.info
    if info.get("comparator_source") != "given":
        return None
    return _max_margin(data.key, info["examples"], info["labels"])


def crossing_text(p, gamma: float) -> str:
    """How the sandwich's crossing relates to the stated 12/γ² (issue 32 §4), with the run's numbers (Markdown):
    Uγ ≤ ‖w‖ ≤ 1 + 2/γ + 3Uγ/4 forces Uγ/4 ≤ 1 + 2/γ, i.e. U ≤ 4/γ + 8/γ²; the data's margin γ ≤ 1 (unit w*,
    unit examples) gives 4/γ ≤ 4/γ², so 4/γ + 8/γ² ≤ 12/γ² — the notes' bound ([004] Thm. 2) rounded up."""
    return (f"Its sandwich $U\\gamma \\le \\langle w^*, w\\rangle \\le \\lVert w\\rVert \\le 1 + 2/\\gamma + 3U\\gamma/4$ "
            f"closes where $U\\gamma = 1 + 2/\\gamma + 3U\\gamma/4$, at $U = 4/\\gamma + 8/\\gamma^2 = "
            f"{p.constants['bound_tight']:.5g}$ (the crossing on the chart). The notes state the rounder $12/\\gamma^2 = "
            f"{p.mistake_bound:.5g}$: the data's margin is at least $\\gamma$ and at most 1 (a unit $w^*$ on unit "
            f"examples), so $\\gamma \\le 1$, $4/\\gamma \\le 4/\\gamma^2$ and the crossing is at most $12/\\gamma^2$ — the same proof, rounded up.")


def margin_comparison(trace, mm=None) -> str:
    """How the final margin compares with the data's largest margin (and a planted w*'s, named as such).

    ``mm``: the data's :func:`~olc_core.comparators.max_margin` when the run's comparator was given
    (planted); otherwise the run's own comparator is the max-margin separator. The final w proves the
    largest margin is at least the final margin, so the lower end is never below it.
    """
    info, c = trace.info, trace.proof.constants
    fm = info.get("final_margin")
    if info.get("comparator_source") == "given":
        if mm is None or not mm.separable:
            lo, hi = None, None
        else:
            lo, hi = mm.margin, mm.upper
    elif info.get("comparator_source") == "max-margin":
        lo, hi = c.get("measured_margin"), info.get("max_margin_upper")
    else:
        lo = hi = None
    parts = []
    if lo is not None:
        lo = max(lo, fm) if fm is not None else lo
        hi = max(hi, lo) if hi is not None else lo
        best = f"{lo:.4g}" if hi - lo <= 5e-5 * hi else f"between {lo:.4g} and {hi:.4g}"
        parts.append(f"the largest margin any unit w has on these data is {best}")
    if info.get("comparator_source") == "given" and c.get("measured_margin") is not None:
        parts.append(f"the planted w*'s margin is {c['measured_margin']:.4g}".replace("-", "−"))
    return f" ({'; '.join(parts)})." if parts else "."


def downloads(trace, data: Data, spec: dict, position: int, name: str = "margin_perceptron",
              X: np.ndarray | None = None, y: np.ndarray | None = None) -> None:
    common.downloads(trace, spec, position, name, data.X if X is None else X, data.y if y is None else y, settings=TRANSCRIPT,
                     run_input=(data.X, data.y))


#: the page's drawing cap, stated under its viewer (olc_ui/shared/caps.py)
CAP = caps.text(f"at most {MAX_PRESENTATIONS:,} presentations (points × passes: further passes are cut)")


#: what the page tells the proof transcript and the download names (olc_ui/shared/transcript.py)
TRANSCRIPT = PageSettings(SETTINGS, lambda v, trace: visible(v) | ({"pts"} if v.get("data") == "click" else set()), upload_key=PAGE,
                          recipe=data_call)


def stop_run(v: dict[str, Any]) -> tuple[dict, Any]:
    """The spec and the run this page shows for the settings ``v`` (every setting of its link, decoded; no upload):
    a tour's stop as its offline file carries it (olc_ui/shared/tours/offline.py) — the calls pages/margin_perceptron.py makes
    (tests/tours/test_tour_offline.py checks the spec against the page's at every shipped stop)."""
    data = load_data(v, None)
    trace = run_margin(data, float(v["gamma_alg"]), passes_for(v, len(data.y)))
    return spec_for(data, trace, v), trace
