"""The exponentiated-update lesson (normalised Winnow): settings, data, the cached run and the panels.

The page script (pages/exponentiated_update.py) reads like every lesson's four moves:
settings from the URL, a cached core run (``olc_core.run("normalized_winnow", …)``), a
spec built by pure functions (:mod:`olc_ui.lessons.exponentiated_update.view`), render. Every number shown comes
from the run and its proof object (``trace.proof``: constants, assumptions, bound).
"""
from __future__ import annotations

import csv
import hashlib
import io
import math
from dataclasses import dataclass
from typing import Any

import numpy as np
import streamlit as st

import olc_core

from olc_ui.lessons.exponentiated_update.view import eg_spec
from olc_ui.shared import caps, common
from olc_ui.shared import data as olc_data
from olc_ui.shared import safe
from olc_ui.shared.config import Setting
from olc_ui.shared.notebook import DataCall
from olc_ui.shared.transcript import PageSettings

__all__ = ["stop_run", "PAGE", "LEARNER_PAGE", "DATA_SETTINGS", "LEARNER_SETTINGS", "SETTINGS", "MAX_N", "MAX_CELLS", "INTRO",
           "visible", "Data", "OutsideBox", "load_data", "run_eg", "spec_for", "eta_slider", "use_optimum", "notes",
           "assumption_rows", "assumption_panel", "summary_panel", "proof_steps", "downloads", "unit_box_problem"]

PAGE = "eg"
LEARNER_PAGE = "eg_learner"
MAX_N = 100
#: the viewer ships the weights after every mistake: T·N is capped
MAX_CELLS = 60_000

DATA_SETTINGS = [
    Setting("data", "Data", "choice", "sparse", options=("sparse", "continuous", "upload"),
            extra={"labels": {"sparse": "±1 features, majority of k (δ = 1/k)",
                              "continuous": "features in [−1, 1], margin δ",
                              "upload": "Upload a CSV"}, "widget": "select"}),
    Setting("N", "Features N", "int", 20, lo=2, hi=MAX_N, step=1),
    Setting("k", "Relevant features k (odd)", "int", 3, lo=1, hi=49, step=2,
            help="the comparator u puts 1/k on each of k relevant features"),
    Setting("delta", "Margin δ of the data", "float", 0.1, lo=0.01, hi=0.9, step=0.01,
            help="only points with y⟨u, x⟩ ≥ δ are kept (one sits exactly at δ)"),
    Setting("T", "Rounds T", "int", 300, lo=1, hi=2000, step=1),
    Setting("noise", "Label noise", "float", 0.0, lo=0.0, hi=0.3, step=0.01,
            help="each label is flipped with this probability: the margin assumption then fails"),
    Setting("seed", "Seed", "int", 0, lo=0, hi=1_000_000, step=1, extra={"widget": "number"}),
]
LEARNER_SETTINGS = [
    Setting("eta_opt", "Use the optimal η* = ½ ln((1+δ)/(1−δ))", "bool", True,
            help="on: the core sets η = artanh δ exactly; off: the slider's η"),
    Setting("eta", "η: learning rate", "float", 0.5, lo=0.01, hi=5.0, step=0.01,
            help="on a mistake wᵢ ← wᵢ·e^(η y xᵢ) / Z; the optimum η* is marked ★ in the C(η) chart"),
]
#: every setting of the page (the URL holds them all, and the round ``t``)
SETTINGS = DATA_SETTINGS + LEARNER_SETTINGS


def visible(v: dict[str, Any]) -> set[str]:
    """The data settings that apply to the chosen source."""
    if v["data"] == "upload":
        return {"data"}
    return {"data", "N", "k", "T", "noise", "seed"} | ({"delta"} if v["data"] == "continuous" else set())


class OutsideBox(olc_data.DataError):
    """An uploaded entry outside [−1, 1]: the message names the row; ``X`` is kept for the assumption panel."""

    def __init__(self, message: str, X: np.ndarray):
        super().__init__(message)
        self.X = X


@dataclass(frozen=True)
class Data:
    X: np.ndarray
    y: np.ndarray
    comparator: np.ndarray | None
    delta: float | None
    label: str
    key: str
    notes: tuple = ()
    T_asked: int = 0


@st.cache_resource(max_entries=32, show_spinner=False)
def _sparse(T: int, N: int, k: int, noise: float, seed: int):
    return olc_core.streams.sparse_simplex(T=T, N=N, k=k, seed=seed, noise=noise)


@st.cache_resource(max_entries=32, show_spinner=False)
def _continuous(T: int, N: int, k: int, delta: float, noise: float, seed: int):
    return olc_core.streams.winnow_extra.simplex_continuous(T=T, N=N, k=k, delta=delta, seed=seed, noise=noise)


def capped_T(v: dict[str, Any]) -> int:
    return int(min(int(v["T"]), max(1, MAX_CELLS // int(v["N"]))))


def _header_lines(raw: bytes) -> int:
    """1 when the CSV's first non-blank row is a header (its data rows are then named from row 2), else 0 —
    the numbering olc_ui.shared.data.parse_points_csv uses in its messages."""
    text = raw.decode("utf-8-sig", errors="replace")
    for row in csv.reader(io.StringIO(text[:65536])):
        cells = [c.strip() for c in row]
        if any(cells):
            try:
                [float(c) for c in cells]
                return 0
            except ValueError:
                return 1
    return 0


def unit_box_problem(X: np.ndarray, header: int) -> str | None:
    """The first entry outside [−1, 1], named by the file's row (as the CSV parser counts) and feature."""
    bad = np.abs(X) > 1.0
    if not bad.any():
        return None
    r = int(np.flatnonzero(bad.any(axis=1))[0])
    j = int(np.flatnonzero(bad[r])[0])
    n = int(bad.any(axis=1).sum())
    return (f"row {r + 1 + header} has x{j + 1} = {X[r, j]:g}, outside [−1, 1]: the exponentiated update needs "
            f"‖x‖∞ ≤ 1 (|xᵢ| ≤ 1 for every feature; {common.count(n, 'row')} of the file "
            f"{common.agree(n, 'breaks', 'break')} it). Divide the features by their largest absolute value")


def _count_columns(raw: bytes) -> None:
    text = raw[:65536].decode("utf-8-sig", errors="replace")
    for row in csv.reader(io.StringIO(text)):
        if any(c.strip() for c in row):
            if len(row) - 1 > MAX_N:
                raise olc_data.DataError(f"the file has {len(row) - 1} feature columns; this page takes at most "
                                         f"{MAX_N} (N ≤ {MAX_N})")
            return


def data_call(v: dict[str, Any]) -> DataCall | None:
    """The olc_core.streams call :func:`load_data` makes for these settings (the notebook download's data cell)."""
    if v["data"] == "upload":
        return None
    args = {"T": capped_T(v), "N": int(v["N"]), "k": int(v["k"])}
    if v["data"] == "sparse":
        return DataCall("sparse_simplex", {**args, "seed": int(v["seed"]), "noise": float(v["noise"])})
    return DataCall("simplex_continuous", {**args, "delta": float(v["delta"]), "seed": int(v["seed"]),
                                           "noise": float(v["noise"])})


def load_data(v: dict[str, Any], upload: bytes | None) -> Data:
    """The stream for these settings; ``DataError`` with a message for the page when the data are unusable."""
    src = v["data"]
    if src == "upload":
        if upload is None:
            raise olc_data.NeedsInput("choose a CSV file with columns x1, …, xN (each in [−1, 1]) and label (−1/+1)")
        _count_columns(upload)
        X, y, notes = olc_data.parse_points_csv(upload, dims=tuple(range(1, MAX_N + 1)))
        problem = unit_box_problem(X, _header_lines(upload))
        if problem:
            raise OutsideBox(problem, X)
        h = hashlib.blake2b(upload, digest_size=8).hexdigest()
        return Data(X, y, None, None, f"your file ({common.count(len(y), 'row')}, N = {X.shape[1]})",
                    f"egup-{h}", tuple(notes), len(y))
    N, k, T = int(v["N"]), int(v["k"]), capped_T(v)
    if k > N:
        raise olc_data.DataError(f"k = {k} relevant features is more than N = {N}: lower k or raise N")
    noise, seed = float(v["noise"]), int(v["seed"])
    if src == "sparse":
        s = _sparse(T, N, k, noise, seed)
        key = f"egs-T{T}-N{N}-k{k}-n{noise:g}-s{seed}"
        lab = f"±1 features, label = majority of {k} of N = {N}"
    else:
        d = float(v["delta"])
        if d * (3.0 * k) ** 0.5 > 2.5:  # the mean of k uniforms has s.d. 1/√(3k): rejection would rarely accept
            raise olc_data.DataError(f"with k = {k} relevant features almost no point has |⟨u, x⟩| ≥ δ = {d:g} "
                                     f"(⟨u, x⟩ is the mean of {k} numbers in [−1, 1]): lower δ to at most "
                                     f"{2.5 / (3.0 * k) ** 0.5:.2f} or lower k")
        s = _continuous(T, N, k, d, noise, seed)
        key = f"egc-T{T}-N{N}-k{k}-d{d:g}-n{noise:g}-s{seed}"
        lab = f"features uniform in [−1, 1], margin ≥ {d:g} for u = 1/{k} on {k} of N = {N}"
    lab += f", {noise:.0%} label noise" if noise else ""
    return Data(s.X, s.y, np.asarray(s.comparator, dtype=float), float(s.info["delta"]), lab, key, (), int(v["T"]))


@st.cache_resource(max_entries=32, show_spinner=False)
def _run(key: str, _X, _y, _cmp, delta: float | None, eta: float | None):
    return olc_core.run("normalized_winnow", _X, _y, comparator=_cmp, delta=delta, eta=eta)


def eta_param(v: dict[str, Any]) -> float | None:
    """η for the core: None (the core's optimum artanh δ, exact) or the slider's value."""
    return None if v["eta_opt"] else float(v["eta"])


def run_eg(v: dict[str, Any], data: Data):
    """The cached core run: the stream's comparator u and margin δ when generated; for an upload the
    core finds u (the best margin over the simplex) and measures δ."""
    return _run(data.key, data.X, data.y, data.comparator, data.delta, eta_param(v))


def run_id(v: dict[str, Any], data: Data) -> str:
    return f"{data.key}-eta{'opt' if v['eta_opt'] else format(float(v['eta']), 'g')}"


@st.cache_resource(max_entries=16, show_spinner=False)
def _spec(rid: str, _trace, _X, _y) -> dict:
    return eg_spec(_trace, _X, _y, run_id=rid)


def spec_for(v: dict[str, Any], data: Data, trace) -> dict:
    return _spec(run_id(v, data), trace, data.X, data.y)


# ------------------------------------------------------------------------------------------ η controls

def _eta_key() -> str:
    return f"{LEARNER_PAGE}__eta"  # the key olc_ui.shared.state.bind gives the setting's widget


def _manual_eta() -> None:
    st.session_state[f"{LEARNER_PAGE}__eta_opt"] = False


def eta_slider(container, optimal: bool = False) -> float:
    """The η slider (bound to the URL through LEARNER_SETTINGS). While the optimum is on the run does not read the slider: it is disabled and says so (the value used is
    in the caption under it)."""
    s = LEARNER_SETTINGS[1]
    label = f"{s.label} (not used: the optimal η* is on)" if optimal else s.label
    return container.slider(label, min_value=s.lo, max_value=s.hi, step=s.step, key=_eta_key(), help=s.help,
                            on_change=_manual_eta, disabled=optimal)


def use_optimum(shown: float) -> None:
    """Callback of the one-click button: η = the optimum (exact in the core), the slider moved next to it."""
    st.session_state[f"{LEARNER_PAGE}__eta_opt"] = True
    st.session_state[_eta_key()] = min(max(round(shown, 2), LEARNER_SETTINGS[1].lo), LEARNER_SETTINGS[1].hi)


def optimum_button(container, trace) -> None:
    opt = trace.proof.constants.get("eta_optimal")
    if opt is None:
        container.caption("No positive margin δ: there is no optimal η to use.")
        return
    on = trace.info["eta_source"].startswith("artanh")
    container.button(f"Use the optimal η* = ½ ln((1+δ)/(1−δ)) = {opt:.4g}", on_click=use_optimum, args=(opt,),
                     key="eg_use_optimum", icon=":material/target:", disabled=on,
                     help="δ is the margin the proof uses (the stream's, or the measured one)")
    container.caption(f"This run: η = {trace.info['eta']:.6g} ({trace.info['eta_read_as']}); "
                      + ("the optimum." if on else f"the optimum is η* = {opt:.6g}."))


# ------------------------------------------------------------------------------------------ messages

INTRO = (
    "Weights $w_t$ form a **probability vector** ($w_1 = (1/N, …, 1/N)$); the learner predicts "
    "$\\operatorname{sign}\\langle w_t, x_t\\rangle$ for $x_t \\in [-1, 1]^N$ and errs when "
    "$y_t\\langle w_t, x_t\\rangle \\le 0$ — **a score of exactly 0 counts as a mistake**, as in [003] §2.1–2.2 "
    "(the relative-entropy proof uses $y_t\\langle w_t, x_t\\rangle \\le 0$ on every mistake). On a mistake "
    "$w_{t+1,i} = w_{t,i}\\,e^{\\eta y_t x_{t,i}} / Z_t$. If a probability vector $u$ has margin "
    "$y_t\\langle u, x_t\\rangle \\ge \\delta$ on every round, the potential $\\Phi_t = \\mathrm{KL}(u\\,\\|\\,w_t)$ "
    "is a sandwich $0 \\le \\Phi_t \\le \\ln N - C\\cdot M$ with $C = \\eta\\delta - \\ln\\cosh\\eta$: the two ends "
    "cross at $M = \\ln N / C$, and at $\\eta^* = \\tfrac12\\ln\\tfrac{1+\\delta}{1-\\delta}$, "
    "$M \\le 2\\ln N/\\delta^2$ [003].")


def notes(v: dict[str, Any], data: Data, trace) -> list[tuple[str, str]]:
    """What the page must say about these settings (kind, text); numbers from the run."""
    out: list[tuple[str, str]] = []
    if v["data"] != "upload" and data.T_asked > trace.T:
        out.append(("info", f"T is capped at {trace.T} rounds for N = {trace.d} features (the step viewer ships "
                            f"the weights after every mistake; at most {MAX_CELLS:,} rounds × features)."))
    zero = np.flatnonzero(np.asarray(trace.columns["score"]) == 0.0)
    if zero.size:
        ties = int(zero.size)
        out.append(("info", f"{common.count(ties, 'round')} {common.agree(ties, 'has', 'have')} ⟨wₜ, xₜ⟩ = 0 exactly "
                            f"(round{'s' if ties > 1 else ''} {common.rounds_text(zero)}: a tie, decided in exact "
                            "arithmetic by the core and shown as 0): a score of exactly 0 counts as a mistake, as in "
                            "[003] §2.1–2.2, whose proof uses y⟨w, x⟩ ≤ 0 on every mistake — a tie meets it."))
    b = trace.proof.mistake_bound
    if b is not None and b >= trace.T and trace.T >= 10:
        out.append(("info", f"The bound ({b:.4g}) is at least the number of rounds T = {trace.T}: true, but it says "
                            "nothing here; a small margin δ makes C ≈ δ²/2 small."))
    return out


def assumption_rows(trace, X: np.ndarray, problem: str | None = None) -> list[dict[str, Any]]:
    """The theorem's assumptions, each holding (True), failing (False) or not checked (None), with the detail.

    ``problem``: the reason the data could not be run (then ``trace`` is None)."""
    xmax = float(np.abs(X).max()) if X is not None and np.size(X) else 0.0
    rows = [{"name": "‖x‖∞ ≤ 1", "holds": xmax <= 1.0,
             "detail": f"the largest |xᵢ| over all rounds is {xmax:.4g}" + ("" if xmax <= 1.0 else f": {problem or 'outside [−1, 1]'}")}]
    if trace is None:
        rows += [{"name": "u a probability vector", "holds": None, "detail": "not checked: the data cannot be run"},
                 {"name": "margin y⟨u, x⟩ ≥ δ > 0", "holds": None, "detail": "not checked: the data cannot be run"}]
        return rows
    info, p = trace.info, trace.proof
    u = np.asarray(info["comparator"], dtype=float)
    src = info["comparator_source"]
    rows.append({"name": "u a probability vector", "holds": bool((u >= 0).all()),
                 "detail": f"u ≥ 0, Σuᵢ = 1 ({src}; {int((u > 0).sum())} of N = {u.size} entries positive"
                           + (f", rescaled from Σ = {info['comparator_rescaled_from_sum']:.4g}"
                              if abs(info.get("comparator_rescaled_from_sum", 1.0) - 1.0) > 1e-12 else "") + ")"})
    c = p.constants
    for a in p.assumptions:
        if a.name == "margin":
            d = c.get("delta")
            detail = (f"δ = {d:.6g}; the smallest y⟨u, x⟩ = {c['delta_measured']:.6g}" if a.holds and d is not None
                      else a.detail)
            rows.append({"name": "margin y⟨u, x⟩ ≥ δ > 0", "holds": a.holds, "detail": detail})
        elif a.name == "learning rate":
            rows.append({"name": "C = ηδ − ln cosh η > 0", "holds": a.holds,
                         "detail": f"C = {c['C']:.6g} (η = {c['eta']:.6g})" if a.holds else a.detail})
        elif a.name == "float range":
            rows.append({"name": "the numbers stay within what floating point represents", "holds": a.holds,
                         "detail": _float_range_detail(c) if a.holds else a.detail})
        else:
            rows.append({"name": a.name, "holds": a.holds, "detail": a.detail or "holds"})
    return rows


def _float_range_detail(c: dict) -> str:
    """The float-range assumption in words, when it holds: the bound is a number a float can hold."""
    C = c.get("C")
    head = (f"ln N / C = {c['ln_N'] / C:.4g}" if C is not None and C > 0 else "ln N / C")
    return head + " is below the largest floating-point number (about 1.8·10³⁰⁸), so the bound can be computed"


def assumption_panel(rows: list[dict[str, Any]], bound) -> None:
    """Each assumption ✓ / ✗ (— when not checked), and the bound, n/a when one fails."""
    with st.container(border=True):
        st.markdown("#### The theorem's assumptions on these data")
        for r in rows:
            mark = {True: ":green[**✓**]", False: ":red[**✗**]", None: "**—**"}[r["holds"]]
            st.markdown(f"{mark} **{safe.md(r['name'])}** — {safe.md(r['detail'])}")
        if bound is not None:
            st.markdown(f"All hold: the theorem gives $M \\le \\ln N / C = {bound:.5g}$.")
        else:
            failing = [r["name"] for r in rows if r["holds"] is not True]
            st.markdown("**Bound: n/a** — " + safe.md("not every assumption holds (" + "; ".join(failing) + "), so "
                                                      "the theorem promises nothing here."))


def best_eta_bound(p) -> float | None:
    """``2 ln N / δ²``: a fixed number of N and δ (the bound at η = artanh δ), given whenever the data have
    margin δ — also when this run's η is too large (C ≤ 0: only the η-form ln N / C is lost). None when the
    margin (or another data assumption) fails, or it overflows."""
    c = p.constants
    if c.get("delta") is None or any(a.name != "learning rate" for a in p.failed_assumptions):
        return None
    r = 1.0 / c["delta"]
    b2 = 2.0 * c["ln_N"] * (r * r)
    return b2 if math.isfinite(b2) else None


def summary_panel(data: Data, trace) -> None:
    p = trace.proof
    c = p.constants
    with st.container(border=True):
        st.markdown("#### " + safe.md(f"Normalised Winnow on {data.label}"))
        cols = st.columns(3) + st.columns(3)
        cols[0].metric("Mistakes M (whole run)", f"{trace.n_mistakes}")
        cols[1].metric("Margin δ", f"{c['delta']:.4g}" if c.get("delta") is not None else "none",
                       help="the margin the proof uses; the measured min y⟨u,x⟩ is "
                            f"{c['delta_measured']:.6g}")
        cols[2].metric("Learning rate η", f"{c['eta']:.4g}", help=trace.info["eta_source"])
        cols[3].metric("C = ηδ − ln cosh η", f"{c['C']:.4g}" if c.get("C") is not None else "n/a",
                       help="each mistake lowers Φ = KL(u‖w) by at least C")
        C = c.get("C")
        cols[4].metric("Bound ln N / C", f"{p.mistake_bound:.5g}" if p.mistake_bound is not None else "n/a",
                       help=None if p.mistake_bound is not None else
                       f"the η-form bound ln N / C needs C > 0; here C = {C:.4g} ≤ 0 (η = {c['eta']:.4g} is too "
                       f"large for δ = {c['delta']:.4g})" if C is not None and C <= 0 else
                       "an assumption of the theorem fails (below)")
        b2 = best_eta_bound(p)
        cols[5].metric("2 ln N / δ²", f"{b2:.5g}" if b2 is not None else "n/a",
                       help="at the best η = artanh δ, C ≥ δ²/2, so there ln N / C ≤ 2 ln N/δ²: a fixed number of N and δ"
                            + (", for data with margin δ" if b2 is None else
                               "" if math.isclose(c["eta"], c["eta_optimal"], rel_tol=1e-12) else
                               f"; this run's η = {c['eta']:.4g} is not artanh δ = {c['eta_optimal']:.4g}, so it "
                               "bounds the run with the best η on these data, not this one"))
        if p.mistake_bound is not None:
            st.success(f"With N = {c['N']}, δ = {c['delta']:.4g} and η = {c['eta']:.4g}, the potential "
                       f"$\\Phi = \\mathrm{{KL}}(u\\,\\|\\,w)$ starts at $\\Phi_1 = {c['phi_1']:.4g} \\le \\ln N = "
                       f"{c['ln_N']:.4g}$, is never negative, and drops by at least $C = {c['C']:.4g}$ at every "
                       f"mistake. So after $M$ mistakes $0 \\le \\Phi_1 - C\\,M$, that is $M \\le \\Phi_1 / C = "
                       f"{c['bound_phi1']:.5g} \\le \\ln N / C = {p.mistake_bound:.5g}$, on **any** such data. "
                       f"The run made **{trace.n_mistakes}**.")


def proof_steps(trace) -> None:
    p = trace.proof
    c = p.constants
    with st.expander("The proof in four steps, with this run's numbers"):
        tail = (f" $= {p.mistake_bound:.5g}$ here." if p.mistake_bound is not None else
                " — not here: " + safe.md("; ".join(a.detail for a in p.failed_assumptions)) + ".")
        st.markdown(
            "1. **Potential** $\\Phi_t = \\mathrm{KL}(u\\,\\|\\,w_t) = \\sum_i u_i\\ln(u_i/w_{t,i}) \\ge 0$ (Gibbs), "
            f"$\\Phi_1 = \\ln N - H(u) = {c['phi_1']:.4g} \\le \\ln N = {c['ln_N']:.4g}$.\n"
            "2. **One mistake.** $\\Phi_{t+1} - \\Phi_t = \\ln Z_t - \\eta y_t\\langle u, x_t\\rangle \\le "
            "\\ln Z_t - \\eta\\delta$ (uses $\\sum_i u_i = 1$ and the margin)."
            + ("".join(" **This step needs the margin $y_t\\langle u, x_t\\rangle \\ge \\delta > 0$ on every "
                       "round**, and it fails here (" + safe.md(a.detail) + "): the step does not hold on this run."
                       for a in p.failed_assumptions if a.name == "margin")) + "\n"
            "3. **The normaliser.** $e^{\\eta z}$ lies below its chord on $z \\in [-1, 1]$ (needs $|x_i| \\le 1$), so "
            "$Z_t \\le \\cosh\\eta + \\sinh\\eta\\; y_t\\langle w_t, x_t\\rangle \\le \\cosh\\eta$ since "
            "$y_t\\langle w_t, x_t\\rangle \\le 0$ on a mistake (a score of exactly 0 included). Each mistake lowers "
            f"$\\Phi$ by at least $C = \\eta\\delta - \\ln\\cosh\\eta$"
            + (f" $= {c['C']:.4g}$." if c.get("C") is not None and c["C"] > 0 else
               f" $= {c['C']:.4g} \\le 0$: here that says nothing — a mistake may raise $\\Phi$ (η is too "
               "large for this δ)." if c.get("C") is not None else ".") + "\n"
            "4. **Combine:** $0 \\le \\Phi \\le \\ln N - C\\,M$, so $M \\le \\ln N / C$" + tail
            + " At $\\eta^* = \\tfrac12\\ln\\tfrac{1+\\delta}{1-\\delta}$, $C = \\mathrm{KL}(\\mathrm{Bern}(\\tfrac{1+\\delta}{2})"
            "\\,\\|\\,\\mathrm{Bern}(\\tfrac12)) \\ge \\delta^2/2$ (Pinsker), so $M \\le 2\\ln N/\\delta^2$.")


def downloads(trace, data: Data, spec: dict, position: int) -> None:
    common.downloads(trace, spec, position, "exponentiated_update", data.X, data.y, settings=TRANSCRIPT)


#: the page's drawing cap, stated under its viewer (olc_ui/shared/caps.py)
CAP = caps.text(f"rounds × features ≤ {MAX_CELLS:,} (T is cut, and the page says so; {caps.FILE})")


#: what the page tells the proof transcript and the download names (olc_ui/shared/transcript.py)
TRANSCRIPT = PageSettings(SETTINGS, lambda v, trace: visible(v) | {"eta_opt"} | (set() if v.get("eta_opt") else {"eta"}), upload_key=PAGE,
                          recipe=data_call)


def stop_run(v: dict[str, Any]) -> tuple[dict, Any]:
    """The spec and the run this page shows for the settings ``v`` (every setting of its link, decoded; no upload):
    a tour's stop as its offline file carries it (olc_ui/shared/tours/offline.py) — the calls pages/exponentiated_update.py makes
    (tests/tours/test_tour_offline.py checks the spec against the page's at every shipped stop)."""
    data = load_data(v, None)
    trace = run_eg(v, data)
    return spec_for(v, data, trace), trace
