"""Building blocks for step-viewer specs (pure functions, JSON-ready dicts): value sources for the
ledger and caption, the ledger's «name» placeholders, per-state ✓/✗ and n/a read from the proof's record
(``Proof.numbers``, ``Proof.links``: decided once in olc_core.proofs.base, only worded here), plotly trace
dicts, and legends folded into a few groups. (The sandwich chart: olc_ui/shared/sandwich_view.py.)

Every lesson's spec builder uses these, so the pages look and behave alike.

>>> ledger([{"latex": r"\\sqrt{M} = «M»", "values": {"M": const(4)}}])[0]["latex"]
'\\\\sqrt{M} = {v_M}'
"""
from __future__ import annotations

import math
import re

import numpy as np

from olc_core.proofs.base import NUMBERS
from olc_ui.viewer.spec import with_infinities

__all__ = ["COLORS", "ND", "sig", "decimate", "ledger", "holds", "holds_value", "per_position", "proof_value",
           "by_state", "by_round", "by_position", "const", "points_trace", "rounds_text", "not_applicable",
           "live_relations", "RELATIONS", "record_link",
           "line_trace", "arrow_trace", "legend_groups", "legend_rank"]

COLORS = {
    "pos": "#1f6fb4", "neg": "#d43a2f", "pos_faint": "#a9c6e3", "neg_faint": "#efb3ad",
    "wstar": "#2ca02c", "band": "rgba(44,160,44,0.10)", "w": "#111111", "old": "#9a9a9a",
    "wt": "#6b6b6b", "yx": "#ff8c00", "wnext": "#0a3d91", "mistake": "#000000", "margin": "#b15fd8",
    "bad": "#e377c2", "lower": "#9467bd", "inner": "#2ca02c", "norm": "#111111", "upper": "#d62728",
}
ND = 5  # decimals kept for plotted coordinates
_FAIL, _UNDEFINED = NUMBERS.index("fail"), NUMBERS.index("undefined")  # the record's readings of a step's numbers


def record_link(proof, lo: str, hi: str):
    """The proof's record of the link ``lo ≤ hi`` (:class:`olc_core.proofs.base.Link`)."""
    for lk in proof.links:
        if lk.lo == lo and lk.hi == hi:
            return lk
    raise KeyError(f"proof {proof.name!r} has no link {lo} ≤ {hi}")


def state_holds(proof, links: list[tuple[str, str]]) -> np.ndarray:
    """Per state, read from the proof's record (``Proof.numbers``: what each link's two numbers say, the
    proof's own check): 1 if every link's numbers satisfy it (within the tolerance), 0 if one's do not, −1
    while a side is not a number. ±inf is a value, not "undefined": ln|H_t| = −inf (an empty version space)
    fails 0 ≤ ln|H_t|. Whether the step is claimed on these data (n/a) is the line's :func:`not_applicable`."""
    bad = np.zeros(proof.K, dtype=bool)
    undefined = np.zeros(proof.K, dtype=bool)
    for lo, hi in links:
        num = proof.numbers(record_link(proof, lo, hi).name)
        bad |= num == _FAIL
        undefined |= num == _UNDEFINED
    return np.where(undefined, -1, np.where(bad, 0, 1))


def rounds_text(rounds, n: int = 8) -> str:
    """0-based rounds as the 1-based list a student reads: "3, 17, 42, … (15 in all)"."""
    rounds = np.asarray(rounds)
    shown = ", ".join(str(int(r) + 1) for r in rounds[:n])
    return shown + (f", … ({len(rounds)} in all)" if len(rounds) > n else "")


#: a relation the ledger may print, and the relation that holds when it is false ("rel" values, in the viewer)
RELATIONS = {r"\le": ">", "<": r"\ge"}
_REL_TOKEN = re.compile(r"\\le(?![A-Za-z])|(?<![\\A-Za-z])<")


def live_relations(line: dict, truths: list, by: str = "state") -> dict:
    r"""``line`` with each relation (``\le``, ``<``) of its LaTeX, in order, printed as its numbers decide:
    ``truths[i]`` is the i-th relation's per-state 1 (holds) / 0 (false) / None (undefined), as
    :func:`holds` (``by="position"``: per position, as :func:`position_holds`). A false step then reads ``C = 0.057 > Φₜ − Φₜ₊₁ = −0.096``, never a false ``≤`` (its
    ✗ or n/a mark says the proof's step fails or is not claimed). A line whose count of relations is not
    ``len(truths)`` is returned unchanged.

    >>> out = live_relations({"latex": r"a = «a» \le b = «b»", "values": {}}, [[1, 0, None]])
    >>> out["latex"], out["values"]["_r0"]["data"], out["values"]["_r0"]["labels"]
    ('a = «a» «_r0» b = «b»', [1, 0, 2], ['>', '\\le', '\\overset{?}{\\le}'])
    """
    toks = list(_REL_TOKEN.finditer(line["latex"]))
    if len(toks) != len(truths) or not toks:
        return line
    out = dict(line, values=dict(line.get("values", {})))
    parts, last = [], 0
    for i, (m, truth) in enumerate(zip(toks, truths)):
        tok = m.group(0)
        parts += [line["latex"][last:m.start()], f"«_r{i}»"]
        last = m.end()
        out["values"][f"_r{i}"] = {"by": by, "data": [2 if v is None or v < 0 else int(bool(v)) for v in truth],
                                   "fmt": "rel", "labels": [RELATIONS[tok], tok, r"\overset{?}{" + tok + "}"]}
    out["latex"] = "".join(parts) + line["latex"][last:]
    return out


def not_applicable(line: dict, proof, links: list[tuple[str, str]], needs: str) -> dict:
    """``line`` as "n/a" when a link's chain needs an assumption that fails on these data.

    Such a step is not claimed by the theorem here: its ✓/✗ is dropped (the neutral mark), ``na``
    is set, each relation prints as the numbers decide (:func:`live_relations`: a false step reads ``>``), and the reason says what it needs and on which rounds that fails, then why it holds on
    data that meet it. A line whose links hold on any data is returned unchanged (its live ✓/✗ kept).
    """
    failed = {n for lo, hi in links for n in record_link(proof, lo, hi).failed}  # the record's n/a
    src = line.get("holds") or {}
    # the line's own ✓/✗ source: per state, or per position (its data one entry per position p = 0 … T)
    by = "position" if src.get("by") == "position" or len(src.get("data") or ()) == proof.T + 1 else "state"
    each = position_holds if by == "position" else holds
    line = live_relations(line, [each(proof, [lk]) for lk in links], src.get("by", by))  # a false step never reads ≤
    if not failed:
        return line
    # the rounds of the first one the proof lists (a given target's wrong labels before the rounds
    # that certify that no consistent target exists: the two lists mean different things)
    first = next(a for a in proof.assumptions if a.name in failed)
    rounds = np.asarray(first.rounds, dtype=np.int64)
    where = (f" (fails at round{'s' if rounds.size > 1 else ''} {rounds_text(rounds)})" if rounds.size else
             " (it fails on these data)")
    out = {k: v for k, v in line.items() if k != "holds"}
    out["na"] = True
    out["reason"] = f"n/a — needs {needs}{where}. On such data: {line.get('reason', '')}".rstrip(": ")
    return out


def holds(proof, links: list[tuple[str, str]]) -> list:
    """:func:`state_holds` as a JSON-ready list (None while undefined)."""
    return [None if v < 0 else v for v in state_holds(proof, links).tolist()]


def position_states(proof) -> np.ndarray:
    """Index of the proof state in force at each position p = 0 … T (after p rounds)."""
    return np.searchsorted(proof.state_rounds, np.arange(proof.T + 1), side="right") - 1


def position_holds(proof, links: list[tuple[str, str]]) -> list:
    """:func:`holds` per position p = 0 … T."""
    return [None if v < 0 else v for v in state_holds(proof, links)[position_states(proof)].tolist()]


def per_position(proof) -> bool:
    """True when a proof is checked before every round (state k = position k = 0 … T), as the
    Perceptron's TD_γ and hinge proofs are: their lower bound moves between mistakes."""
    return proof.K == proof.T + 1 and np.array_equal(proof.state_rounds, np.arange(proof.T + 1))


def holds_value(proof, links: list[tuple[str, str]]) -> dict:
    """A ledger line's ✓/✗ source: per position for a proof checked every round, else per state."""
    return {"by": "position" if per_position(proof) else "state", "data": holds(proof, links)}


def proof_value(proof, a, fmt: str = ".4g") -> dict:
    """A ledger value from a proof's series (or its mistake counts), indexed as the proof is."""
    return by_position(a, fmt) if per_position(proof) else by_state(a, fmt)


def ledger(lines: list[dict]) -> list[dict]:
    """Ledger lines written with «name» placeholders, as the viewer wants them: ``{v_name}``
    (a prefix no LaTeX command argument can clash with, e.g. \\sqrt{M} or \\mathrm{TD})."""
    out = []
    for line in lines:
        line = dict(line)
        line["latex"] = re.sub(r"«([A-Za-z_][A-Za-z0-9_]*)»", r"{v_\1}", line["latex"])
        if "values" in line:
            line["values"] = {f"v_{k}": v for k, v in line["values"].items()}
        out.append(line)
    return out


SIG = 7  # significant digits sent for displayed numbers (they are shown with at most 6)


def sig(a, digits: int = SIG) -> np.ndarray:
    """Floats rounded to ``digits`` significant digits (NaN/inf kept): shorter JSON, same display.

    >>> sig(np.array([1234.56789123, -0.000123456789123, np.nan]), 4).tolist()
    [1235.0, -0.0001235, nan]
    """
    a = np.asarray(a, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        mag = np.floor(np.log10(np.abs(a)))
        scale = np.where(np.isfinite(mag), 10.0 ** (digits - 1 - np.where(np.isfinite(mag), mag, 0)), 1.0)
        out = np.round(a * scale) / scale
    return np.where(np.isfinite(a) & (a != 0) & np.isfinite(out), out, a)


def by_state(a, fmt: str = ".4g") -> dict:
    """A ledger/caption value that changes with the learner's state (one entry per state)."""
    return {"by": "state", "data": with_infinities(sig(a)), "fmt": fmt}


def by_round(a, fmt: str = ".4g", labels: list[str] | None = None) -> dict:
    """A value of the current round (one entry per round; blank before round 1)."""
    a = np.asarray(a)
    out = {"by": "round", "data": with_infinities(sig(a)) if a.dtype.kind == "f" else a,
           "fmt": "text" if labels else fmt}
    if labels:
        out["labels"] = labels
    return out


def by_position(a, fmt: str = ".4g") -> dict:
    """A value per position p = 0 … T (after p rounds)."""
    return {"by": "position", "data": with_infinities(sig(a)), "fmt": fmt}


def const(v, fmt: str = ".4g") -> dict:
    """A value that does not change during the run."""
    v = float(v) if v is not None else None
    return {"const": v if v is None or math.isfinite(v) or math.isnan(v) else ("inf" if v > 0 else "-inf"),
            "fmt": fmt}


def points_trace(name, color, symbol, size, opacity=1.0, legend=True, line=None, group=None):
    mk = {"color": color, "symbol": symbol, "size": size, "opacity": opacity}
    if line:
        mk["line"] = line
    t = {"type": "scatter", "mode": "markers", "name": name, "x": [], "y": [], "marker": mk,
         "showlegend": legend, "hoverinfo": "skip"}
    if group:
        t["legendgroup"] = group
    return t


def line_trace(name, color, width, dash="solid", legend=True, opacity=1.0, x=None, y=None):
    return {"type": "scatter", "mode": "lines", "name": name, "x": x or [], "y": y or [], "showlegend": legend,
            "line": {"color": color, "width": width, "dash": dash}, "opacity": opacity, "hoverinfo": "skip"}


def arrow_trace(name, color, width=3):
    return {"type": "scatter", "mode": "lines+markers", "name": name, "x": [], "y": [], "hoverinfo": "skip",
            "line": {"color": color, "width": width},
            "marker": {"symbol": "arrow", "angleref": "previous", "size": [0, 15], "color": color}}


def decimate(x: np.ndarray, y: np.ndarray, n_max: int) -> tuple[np.ndarray, np.ndarray]:
    """At most ~n_max points of a curve, keeping each bucket's first, lowest and highest point
    (the drawn shape survives; the markers at the current state stay exact).

    >>> decimate(np.arange(10.0), np.arange(10.0), 100)[0].tolist() == list(range(10))
    True
    """
    if len(x) <= n_max:
        return x, y
    edges = np.linspace(0, len(x), n_max // 3 + 1).astype(int)
    keep = {0, len(x) - 1}
    yy = np.where(np.isnan(y), np.inf, y)
    for a, b in zip(edges[:-1], edges[1:]):
        if b > a:
            keep.update((int(a), int(a + np.argmin(yy[a:b])), int(a + np.argmax(np.where(np.isnan(y[a:b]),
                                                                                       -np.inf, y[a:b])))))
    idx = np.array(sorted(keep))
    return x[idx], y[idx]


def axis(title: str, **kw) -> dict:
    """A chart axis as the lesson pages draw them: a title, a light grid, no zooming."""
    return {"title": {"text": title}, "gridcolor": "#ececec", "tickfont": {"size": 13}, "fixedrange": True, **kw}


def layout(**kw) -> dict:
    """A chart layout as the lesson pages draw them (white, legend above the plot); ``kw`` overrides."""
    base = {"margin": {"l": 62, "r": 12, "t": 8, "b": 48}, "font": {"size": 14}, "plot_bgcolor": "#ffffff",
            "paper_bgcolor": "#ffffff", "hovermode": "closest",
            "legend": {"orientation": "h", "y": 1.02, "yanchor": "bottom", "x": 0, "font": {"size": 12.5}}}
    base.update(kw)
    return base


def legend_groups(data: list[dict], groups: list[dict]) -> None:
    """Fold a busy legend into a few entries: every trace named in a group's ``members`` leaves the
    legend and joins the group; the group gets one entry (a trace with a single null point, drawn in
    ``style``) named ``name``. Clicking an entry shows or hides the whole group (plotly's togglegroup).
    ``hidden``: the group starts hidden (its entry greyed: one click brings it back).
    Leaders are appended at the end (dynamic ops keep their trace indices); ``legendrank`` orders them.

    >>> d = [{"type": "scatter", "name": "a"}, {"type": "scatter", "name": "b"}]
    >>> legend_groups(d, [{"id": "g", "name": "a and b", "members": ["a", "b"], "style": {"mode": "lines"}}])
    >>> [t.get("showlegend", True) for t in d], d[-1]["name"]
    ([False, False, True], 'a and b')
    """
    for rank, g in enumerate(groups):
        members = [t for t in data if t.get("name") in g["members"]]
        if not members:
            continue
        for t in members:
            t["showlegend"] = False
            t["legendgroup"] = g["id"]
            if g.get("hidden"):
                t["visible"] = "legendonly"
        lead = {"type": "scatter", "x": [None], "y": [None], "name": g["name"], "legendgroup": g["id"],
                "showlegend": True, "hoverinfo": "skip", "legendrank": 1000 + rank, **g["style"]}
        if g.get("hidden"):
            lead["visible"] = "legendonly"
        data.append(lead)


def legend_rank(data: list[dict], names: list[str]) -> None:
    """Put these entries first in the legend, in this order (plotly orders by legendrank, then trace order)."""
    for i, name in enumerate(names):
        for t in data:
            if t.get("name") == name:
                t["legendrank"] = 100 + i
