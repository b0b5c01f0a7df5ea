r"""A run's pictures for a notebook: the sandwich, a 2-D run's plane and the weights, with a slider.

Built from the app's own figure code: the sandwich by :func:`olc_ui.shared.sandwich_view.sandwich` (the
proof's chain against M, revealed as the rounds pass, a marker on each series at the current state), the
plane by :func:`olc_ui.shared.plane_view._main_2d` (the stream, w*, the learner's hyperplane and the
update's arrows), each as a step-viewer spec that :func:`olc_plot.frames.from_spec` turns into frames.
Every number comes from the trace; the bound curves the lesson pages draw as formulas of M are
lesson-specific and not drawn here — the theorem's bound is written under the axis instead.

>>> text(r"\sqrt{M}\,R"), text(r"\langle w^*, w\rangle"), text(r"N\left(\tfrac{1+\beta}{2}\right)^{M}")
('√(M) R', '⟨w*, w⟩', 'N((1+β)/(2))^M')
"""
from __future__ import annotations

import math
import re

import numpy as np

from olc_core._transcript.texdoc import plain_index
from olc_ui.shared.plane_view import _main_2d
from olc_ui.shared.sandwich_view import Curve, sandwich as sandwich_entry
from olc_ui.shared.spec_tools import COLORS, per_position

from .frames import MAX_STEPS, from_spec, go, positions

__all__ = ["sandwich", "plane", "weights", "text"]

_PALETTE = (COLORS.get("w", "#1f77b4"), "#d62728", "#2ca02c", "#9467bd", "#8c564b", "#e377c2", "#17becf")
_SYMBOLS = {r"\langle": "⟨", r"\rangle": "⟩", r"\lVert": "‖", r"\rVert": "‖", r"\|": "‖", r"\le": "≤",
            r"\ge": "≥", r"\cdot": "·", r"\setminus": "∖", r"\sum": "Σ", r"\ln": "ln", r"\infty": "∞",
            r"\angle": "∠", r"\cos": "cos", r"\times": "×", r"\,": " ", r"\;": " ", r"\!": "", r"\ ": " ",
            r"\left": "", r"\right": "", r"\Bigl": "", r"\Bigr": "", r"\bigl": "", r"\bigr": ""}
_GREEK = ("alpha beta gamma delta epsilon varepsilon eta theta lambda mu nu pi rho sigma tau phi varphi chi psi "
          "omega Gamma Delta Theta Lambda Pi Sigma Phi Psi Omega").split()
_GREEK_CHARS = dict(zip(_GREEK, "αβγδεεηθλμνπρστφφχψωΓΔΘΛΠΣΦΨΩ"))


def _group(s: str, i: int) -> tuple[str, int]:
    """The braced group starting at ``s[i] == "{"``: its inside and the index after it."""
    depth = 0
    for j in range(i, len(s)):
        depth += {"{": 1, "}": -1}.get(s[j], 0)
        if depth == 0:
            return s[i + 1:j], j + 1
    return s[i + 1:], len(s)


def text(latex: str) -> str:
    """A proof's LaTeX label as plain text for a legend (plotly draws LaTeX only where MathJax is loaded)."""
    s = latex
    for cmd in ("frac", "tfrac", "dfrac"):
        while f"\\{cmd}{{" in s:
            i = s.index(f"\\{cmd}{{")
            a, j = _group(s, i + len(cmd) + 1)
            b, k = _group(s, j) if j < len(s) and s[j] == "{" else ("", j)
            s = s[:i] + f"({text(a)})/({text(b)})" + s[k:]
    while "\\sqrt{" in s:
        i = s.index("\\sqrt{")
        a, j = _group(s, i + 5)
        s = s[:i] + f"√({text(a)})" + s[j:]
    s = re.sub(r"\\(?:mathrm|text|operatorname|mathbf)\{([^{}]*)\}", r"\1", s)
    for cmd, ch in sorted(_SYMBOLS.items(), key=lambda kv: -len(kv[0])):
        word = cmd[-1].isalpha()   # a control word ends at a non-letter and eats one space after it
        s = re.sub(re.escape(cmd) + (r"(?![A-Za-z]) ?" if word else ""), lambda m, ch=ch: ch, s)
    s = re.sub(r"\\([A-Za-z]+)", lambda m: _GREEK_CHARS.get(m.group(1), m.group(1)), s)
    s = plain_index(s)
    s = re.sub(r"\^\{?\*\}?", "*", s).replace("{", "").replace("}", "")
    return re.sub(r"\s+", " ", s).strip()


def _spec(T: int, breaks, arrays: dict, entry: dict) -> dict:
    return {"T": int(T), "breaks": [int(b) for b in breaks], "arrays": arrays, "figures": [entry]}


def _proof(trace, proof: str | None):
    if proof is None:
        return trace.proof
    if proof not in trace.proofs:
        raise ValueError(f"{trace.algorithm} has no proof {proof!r}; its proofs: {', '.join(trace.proofs)}")
    return trace.proofs[proof]


def _bound_note(p) -> str:
    lab = text(p.labels.get(p.bounded, "M"))
    if p.mistake_bound is None:
        why = "; ".join(a.name for a in p.failed_assumptions)
        return f"No bound: an assumption of the theorem fails on these data ({why})."
    rel = "<" if p.bound_strict else "≤"
    final = float(p.series[p.bounded][-1])
    end = str(int(final)) if final.is_integer() else repr(final)
    return f"The theorem's bound: {lab} {rel} {p.mistake_bound!r}; this run ends at {lab} = {end}."


class _PerPosition:
    """A proof's states spread over every position 0 … T (state k lasts from round ``state_rounds[k]``): for
    a proof whose states change on rounds without a mistake too (Halving updating every round), so that the
    figure's "now" markers follow the positions while its M line follows the mistakes."""

    def __init__(self, proof):
        idx = np.searchsorted(proof.state_rounds, np.arange(proof.T + 1), side="right") - 1
        self.T, self.K = proof.T, proof.T + 1
        self.state_rounds = np.arange(proof.T + 1)
        self.n_mistakes = np.asarray(proof.n_mistakes)[idx]
        self.series = {k: np.asarray(proof.series[k])[idx] for k in proof.series if k in _keys(proof)}


def _keys(proof) -> set:
    return {k for ch in proof.chains for k in ch.keys}


def sandwich(trace, proof: str | None = None, chain: str | None = None, *, position: int | None = None,
             max_steps: int = MAX_STEPS) -> go.Figure:
    """The proof's sandwich: the series of ``chain`` (default: the proof's first chain, which orders them
    ``keys[0] ≤ keys[1] ≤ …``) against the mistake count M, revealed up to the slider's round, each with a
    marker at the current state; the theorem's bound written under the axis.

    >>> import olc_core
    >>> s = olc_core.streams.separable(T=300, d=2, gamma=0.1, radius=1.0, seed=0)
    >>> fig = sandwich(olc_core.run("perceptron", s.X, s.y, comparator=s.comparator))
    >>> [t.name for t in fig.data if t.showlegend is not False]
    ['Mγ', '⟨w*, w⟩', '‖w‖', '√(M) R']
    >>> len(fig.frames) == len(fig.layout.sliders[0].steps) > 1
    True
    """
    p = _proof(trace, proof)
    chains = {c.name: c for c in p.chains}
    ch = p.chains[0] if chain is None else chains.get(chain)
    if ch is None:
        raise ValueError(f"{p.name} has no chain {chain!r}; its chains: {', '.join(chains)}")
    curves = [Curve(key, text(p.label(key)), _PALETTE[j % len(_PALETTE)]) for j, key in enumerate(ch.keys)
              if np.isfinite(np.asarray(p.series[key], dtype=float)).any()]
    arrays: dict = {}
    title = f"{p.name}: {ch.name}" + (" (natural logarithms)" if ch.log else "")
    shown = p
    if not per_position(p) and not np.array_equal(p.state_rounds, np.r_[0, np.asarray(trace.mistakes) + 1]):
        shown = _PerPosition(p)
    entry = sandwich_entry("sandwich", title, shown, curves, arrays, crossing=None, note=_bound_note(p),
                           x_title=f"{p.event}s M")
    # as on the pages: the state index k(p) counts the mistakes before position p
    breaks = np.asarray(trace.mistakes) + 1
    return from_spec(_spec(p.T, breaks, arrays, entry), 0, position=position, max_steps=max_steps)


def plane(trace, X, y, *, position: int | None = None, max_steps: int = MAX_STEPS) -> go.Figure:
    """A 2-D run of the Perceptron or the margin Perceptron in the plane (the app's main chart): the stream
    (seen and not yet seen), the comparator w* with its margin band, the learner's hyperplane and w, and at a
    mistake the update's arrows.

    >>> import olc_core
    >>> s = olc_core.streams.separable(T=100, d=2, gamma=0.1, radius=1.0, seed=0)
    >>> fig = plane(olc_core.run("perceptron", s.X, s.y, comparator=s.comparator), s.X, s.y)
    >>> fig.layout.sliders[0].steps[-1].label, fig.layout.xaxis.title.text
    ('100', 'x₁')
    """
    X, y = np.asarray(X, dtype=float), np.asarray(y, dtype=float)
    h = trace.history
    if X.ndim != 2 or X.shape[1] != 2 or trace.d != 2 or not hasattr(h, "snapshots") or trace.weight_kind != "linear":
        raise ValueError("plane() draws a 2-D run of the Perceptron or the margin Perceptron (d = 2)")
    if "example" in trace.columns:  # the margin Perceptron's rounds run over the examples, pass after pass
        ex = np.asarray(trace.columns["example"])
        X, y = X[ex], y[ex]
    if X.shape[0] != trace.T:
        raise ValueError(f"X has {X.shape[0]} rows for a run of T = {trace.T} rounds")
    W = np.vstack([np.asarray(h.initial, dtype=float)[None, :], np.asarray(h.snapshots, dtype=float)])
    p = trace.proof
    wstar = trace.info.get("comparator")
    gamma = p.constants.get("gamma")
    R = float(np.max(np.linalg.norm(X, axis=1))) if X.size else 1.0
    entry, arrays, _ = _main_2d(trace, X, y, wstar=None if wstar is None else np.asarray(wstar, dtype=float),
                                gamma_band=float(gamma) if isinstance(gamma, (int, float)) and math.isfinite(gamma)
                                else 0.0, highlight=None, highlight_name="", L=max(1e-9, 1.12 * R), W=W,
                                title=f"{trace.algorithm}: the stream and the learner's hyperplane")
    breaks = np.asarray(h.change_rounds) + 1
    return from_spec(_spec(trace.T, breaks, arrays, entry), 0, position=position, max_steps=max_steps)


def _span(values: np.ndarray) -> list[float]:
    """One y range for every slider step (0 included), so the bars of two rounds compare."""
    fin = values[np.isfinite(values)]
    lo, hi = (min(0.0, float(fin.min())), max(0.0, float(fin.max()))) if fin.size else (0.0, 1.0)
    pad = 0.06 * ((hi - lo) or 1.0)
    return [lo - pad, hi + pad]


def weights(trace, *, top: int = 30, position: int | None = None, max_steps: int = MAX_STEPS) -> go.Figure:
    """The learner's weights after each round as bars (natural logarithms for a multiplicative learner,
    whose weights span many orders of magnitude): every feature when d ≤ ``top``, else the ``top`` features
    with the largest final |weight| (log: the largest final log-weight), in their order.

    >>> import olc_core
    >>> s = olc_core.streams.sparse_disjunction(T=200, N=50, k=2, seed=0)
    >>> fig = weights(olc_core.run("winnow", s.X, s.y), top=5)
    >>> fig.layout.yaxis.title.text, len(fig.data[0].x)
    ('ln wᵢ', 5)
    """
    log = trace.weight_kind != "linear"
    at = (lambda t: trace.log_weights_at(t)) if log else (lambda t: trace.weights_at(t))
    steps = positions({"T": trace.T, "breaks": np.asarray(trace.mistakes) + 1}, max_steps)
    final = np.asarray(at(trace.T), dtype=float)
    cols = np.arange(trace.d)
    if trace.d > top:
        key = np.where(np.isfinite(final), final if log else np.abs(final), -np.inf)
        cols = np.sort(np.argsort(-key, kind="stable")[:top])
    values = np.array([np.asarray(at(t), dtype=float)[cols] for t in steps])
    names = [f"{trace.algorithm} w{j + 1}" for j in cols]
    arrays = {"bars_x": [[str(j + 1) for j in cols]] * len(steps), "bars_y": values}
    shown = "" if trace.d <= top else f" ({top} of {trace.d} features: the largest at the end)"
    entry = {"id": "weights", "title": f"{trace.algorithm}: the weights after the round{shown}", "height": 380,
             "figure": {"data": [{"type": "bar", "name": "w", "x": [], "y": [], "hovertext": names,
                                  "marker": {"color": _PALETTE[0]}}],
                        "layout": {"xaxis": {"title": {"text": "feature i"}, "type": "category"},
                                   "yaxis": {"title": {"text": "ln wᵢ" if log else "wᵢ"}, "range": _span(values)},
                                   "margin": {"l": 58, "r": 12, "t": 8, "b": 48}, "plot_bgcolor": "#ffffff"}},
             "dynamic": [{"trace": 0, "op": "state", "x": "bars_x", "y": "bars_y"}]}
    return from_spec(_spec(trace.T, steps[1:], arrays, entry), 0, position=position, max_steps=max_steps)
