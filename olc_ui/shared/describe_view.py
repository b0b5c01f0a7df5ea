"""Each chart's text alternative (WCAG 1.1.1; issue 23 §3, issue 32 §3): a short name and a description that
follows the round, and the numbers of its "Data at this round" table — the figure's ``describe`` entry of the
viewer spec (docs/viewer-spec.md, "Chart descriptions").

A lesson writes each chart's description from its run's quantities (the trace, its proof's series, constants
and labels) with a :class:`Describer`: what the chart shows, the current example with its label, the learner's
state, the bounds by name with their values, and where the potential stands between them (:meth:`Describer.chain`:
``lower = 0.6 ≤ potential = 1.427 ≤ upper = 2.449``, each relation as the proof's own check decides it, with
enough digits that the printed comparison holds). Nothing is read off the figure's coordinates: a figure
without a lesson-written description is refused (:func:`olc_ui.viewer.spec.validate_spec`).

Every number is written ``name = value`` (a vector ``name = (a, b)``), so that a reader — and the test that reads
every number back against the trace (tests/ui/test_describe_numbers.py) — knows what it is. Python decides every
value (arrays per state, position or round); the browser only selects the current entry and formats it
(viewer_a11y.js).

>>> from olc_ui.viewer.spec import minimal_spec, validate_spec
>>> spec = minimal_spec(T=3, mistakes=[1])
>>> d = Describer(spec)
>>> m = d.state("mistakes M", [0, 1], "d")            # the state's own count: the viewer's built-in {k}
>>> w = d.state("‖w‖", [0.0, 1.5])
>>> spec["figures"][0]["describe"] = d.build("Rounds", f"Rounds at round {{t}} of {{T}}: {m}, {w}.")
>>> spec["figures"][0]["describe"]["template"]
'Rounds at round {t} of {T}: mistakes M = {k}, ‖w‖ = {v0}.'
>>> validate_spec(spec) is None
True
"""
from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from olc_core.proofs.base import VERDICTS
from olc_ui.viewer.spec import jsonable, with_infinities

__all__ = ["Describer", "describe", "plain", "link_verdicts", "failed_text", "underflows", "sub", "var", "vector_text", "MIN_DIGITS"]

_TAG = re.compile(r"<[^>]+>")
_SUP = re.compile(r"<sup>(.*?)</sup>")
_SUB = str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉")
#: significant digits of a number in a description, unless a printed comparison needs more
MIN_DIGITS = 4
_MAX_DIGITS = 17
#: a relation as a description prints it: holds (≤, <), fails (>, ≥), equal within the proof's tolerance (≈),
#: or not comparable (a side undefined)
RELATIONS = ("≤", "<", ">", "≥", "≈", "vs")


def plain(text: str) -> str:
    """A legend name or title as plain text: ``β<sup>m</sup>`` → ``β^(m)``, other tags dropped.

    >>> plain("N((1+β)/2)<sup>M</sup><br>bound")
    'N((1+β)/2)^(M) bound'
    """
    s = _SUP.sub(lambda m: f"^({m.group(1)})", str(text))
    s = s.replace("<br>", " ")
    return re.sub(r"\s+", " ", _TAG.sub("", s)).strip()


def sub(i: int) -> str:
    """An index as subscript digits: ``sub(12)`` → ``₁₂``."""
    return str(int(i)).translate(_SUB)


def var(i: int, letter: str = "x") -> str:
    """Variable ``i`` (0-based) as the pages number it, from 1: ``var(0)`` → ``x₁``."""
    return letter + sub(int(i) + 1)


def describe(name: str, template: str, values: dict[str, dict], table: list[list[str]] | None = None,
             start: str | None = None) -> dict:
    """A figure's ``describe`` entry: ``template`` is filled like the caption's ({t}, {T}, {k} and the
    ``values``' names); ``table`` lists the "Data at this round" rows as [label, value name]."""
    out: dict[str, Any] = {"name": name, "template": template, "values": values,
                           "table": table if table is not None else [[n, n] for n in values]}
    if start:
        out["start"] = start
    return out


# ------------------------------------------------------------------------------------------ rounding

def _digits(fmt: str) -> tuple[str, int | None]:
    m = re.fullmatch(r"[+\- ]?,?(?:\.(\d+))?([dfeg%]?)", fmt)
    if not m:
        raise ValueError(f"not a number format: {fmt!r}")
    return m.group(2) or "g", (int(m.group(1)) if m.group(1) else None)


def _sig(a: np.ndarray, digits: int) -> np.ndarray:
    """Floats rounded to ``digits`` significant digits through Python's own formatting (the numbers sent are
    the numbers printed: no second rounding in the browser)."""
    flat = a.ravel()
    out = np.array([float(f"{v:.{digits}g}") if math.isfinite(v) else v for v in flat.tolist()], dtype=float)
    return out.reshape(a.shape)


def _rounded(a: Any, fmt: str) -> Any:
    """``a`` (numbers, NaN, ±inf) as JSON data rounded to what ``fmt`` prints (NaN → null, ±inf → "inf")."""
    arr = np.asarray(a)
    if arr.dtype.kind in "biu":
        return arr.tolist()
    arr = np.asarray(a, dtype=float)
    kind, prec = _digits(fmt)
    if kind == "d":   # whole numbers as ints (format(100.0, "d") fails in Python)
        return [int(v) if math.isfinite(v) else (None if math.isnan(v) else ("inf" if v > 0 else "-inf"))
                for v in np.round(arr).tolist()] if arr.ndim == 1 else jsonable(np.round(arr))
    elif kind in "f%":
        r = np.round(arr, (6 if prec is None else prec) + (2 if kind == "%" else 0))
    else:
        r = _sig(arr, max(1, 6 if prec is None else prec))
    r = r + 0.0   # −0 prints as 0
    return jsonable(with_infinities(r))


def fmt_number(v: float, digits: int = MIN_DIGITS) -> str:
    """A number as a description prints it in text made here (Python's ``g`` format)."""
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return "—"
    if isinstance(v, float) and math.isinf(v):
        return "∞" if v > 0 else "−∞"
    return format(float(v) + 0.0, f".{digits}g")


def vector_text(v: Sequence[float], digits: int = MIN_DIGITS) -> str:
    """``(0.408, -0.432)``: a vector as a description prints it."""
    return "(" + ", ".join(fmt_number(float(x), digits) for x in v) + ")"


# ------------------------------------------------------------------------------------------ the proof's checks

#: what a verdict of the record says of a link's ✓/✗ (None: not applicable, or undefined: no mark)
_HOLDS = {"holds": True, "tol": True, "fails": False, "assumption": False, "na": None, "undefined": None}


def link_verdicts(proof) -> dict[tuple[str, str], dict[str, Any]]:
    """Per state of ``proof``, each link of its chains as the proof's record decides it (``proof.verdicts``,
    olc_core/proofs/base.py — the same record ``proof.checks_at(t)`` words state by state): ``holds`` True (holds,
    within the tolerance too) / False (fails, or a restated assumption is false) / None (not applicable: an
    assumption it needs fails; or a side is undefined), ``na`` (the failed assumptions' names), ``strict``.

    The one place descriptions read a verdict; they never decide one (tests/ui/test_describe_numbers.py holds it
    equal to checks_at)."""
    out: dict[tuple[str, str], dict[str, Any]] = {}
    table = np.array([_HOLDS[v] for v in VERDICTS], dtype=object)   # a verdict code → True / False / None
    for lk in proof.links:
        holds = table[proof.verdicts(lk.name)].tolist()
        out.setdefault((lk.lo, lk.hi), {"holds": holds, "na": [tuple(lk.failed)] * len(holds), "strict": lk.strict})
    return out


def failed_text(proof, what: str = "No mistake bound") -> str:
    """``what``, and why: the theorem's assumptions that fail on these data, by name (their details, with the
    rounds where they fail, are the ledger's and the transcript's)."""
    names = [a.name.replace("_", " ") for a in proof.failed_assumptions]
    if not names:
        return f"{what}."
    return (f"{what}: the theorem's assumption{'s' if len(names) > 1 else ''} "
            + ", ".join(f"“{n}”" for n in names) + " fail" + ("" if len(names) > 1 else "s") + " on these data.")


def _printed(v: float, digits: int) -> float:
    return float(f"{v:.{digits}g}") if math.isfinite(v) else v


def _rel_holds(a: float, b: float, rel: str) -> bool:
    return {"≤": a <= b, "<": a < b, ">": a > b, "≥": a >= b}.get(rel, True)


# ------------------------------------------------------------------------------------------ the builder

class Describer:
    """One figure's ``describe`` entry, built from the run's quantities.

    Each value method adds a value source (and, unless ``row=False``, its row of the "Data at this round"
    table) and returns the text to put in the template: ``label = {vN}`` (or ``{vN}`` with ``bare=True``).
    ``by``: ``"state"`` (one entry per state of the spec: its ``breaks``), ``"position"`` (p = 0 … T; sent per
    state when it changes only at breaks), ``"round"`` (the current round, blank at p = 0) or a constant.
    """

    def __init__(self, spec: dict):
        self.arrays = spec.get("arrays", {})
        self.T = int(spec["T"])
        self.starts = np.asarray([0, *spec["breaks"]], dtype=np.int64)
        self.K = int(self.starts.size)
        self._pos_state = np.searchsorted(self.starts, np.arange(self.T + 1), side="right") - 1
        self.values: dict[str, dict] = {}
        self.table: list[list[str]] = []

    # -------------------------------------------------------------------- value sources
    def _add(self, label: str, src: dict, row: bool, bare: bool) -> str:
        key = f"v{len(self.values)}"
        self.values[key] = src
        if row:
            self.table.append([label, key])
        return "{" + key + "}" if bare else f"{label} = {{{key}}}"

    def const(self, label: str, v: Any, fmt: str = f".{MIN_DIGITS}g", *, row: bool = True, bare: bool = False) -> str:
        """A number of the run that does not change with the round (a bound, a constant)."""
        if fmt == "text" or isinstance(v, str):
            return self._add(label, {"const": str(v), "fmt": "text"}, row, bare)
        data = _rounded(np.asarray([v], dtype=float), fmt)
        return self._add(label, {"const": data[0], "fmt": fmt}, row, bare)

    def state(self, label: str, a: Any, fmt: str = f".{MIN_DIGITS}g", *, row: bool = True, bare: bool = False) -> str:
        """One value per state of the spec (len(breaks) + 1 entries); the state's own number (the mistakes of a
        mistake-driven learner) is the viewer's built-in {k}, sent as nothing."""
        if len(a) != self.K:
            raise ValueError(f"{label}: {len(a)} values, the spec has {self.K} states")
        kind, prec = _digits(fmt) if fmt != "text" else ("text", None)
        exact = kind == "d" or (kind == "g" and self.K <= 10 ** (prec or 6))   # prints the count as it is
        if exact and np.array_equal(np.asarray(a, dtype=float), np.arange(self.K)):
            if row:
                self.table.append([label, "k"])
            return "{k}" if bare else f"{label} = {{k}}"
        data = _rounded(a, fmt)
        if all(v == data[0] for v in data):   # the same in every state: sent once
            return self._add(label, {"const": data[0], "fmt": fmt}, row, bare)
        return self._add(label, {"by": "state", "data": data, "fmt": fmt}, row, bare)

    def position(self, label: str, a: Any, fmt: str = f".{MIN_DIGITS}g", *, row: bool = True,
                 bare: bool = False) -> str:
        """One value per position p = 0 … T (sent per state when it changes only where the state does)."""
        a = np.asarray(a)
        if a.shape[0] != self.T + 1:
            raise ValueError(f"{label}: {a.shape[0]} values, positions are 0 … {self.T}")
        per_state = a[self.starts]
        if _same(per_state[self._pos_state], a):
            return self.state(label, per_state, fmt, row=row, bare=bare)
        return self._add(label, {"by": "position", "data": _rounded(a, fmt), "fmt": fmt}, row, bare)

    def round(self, label: str, a: Any, fmt: str = f".{MIN_DIGITS}g", *, row: bool = True, bare: bool = False) -> str:
        """A value of the current round (T entries; blank at p = 0)."""
        if len(a) != self.T:
            raise ValueError(f"{label}: {len(a)} values, the run has {self.T} rounds")
        return self._add(label, {"by": "round", "data": _rounded(a, fmt), "fmt": fmt}, row, bare)

    def text(self, label: str, strings: Sequence[str], by: str, *, row: bool = True, bare: bool = True) -> str:
        """Text that changes with the round (``by``: "state", "position" or "round"), sent as indices into its
        distinct strings."""
        n = {"state": self.K, "position": self.T + 1, "round": self.T}[by]
        if len(strings) != n:
            raise ValueError(f"{label}: {len(strings)} texts, {by} needs {n}")
        strings = [str(s) for s in strings]
        if by == "position":
            per_state = [strings[s] for s in self.starts.tolist()]
            if all(per_state[k] == s for k, s in zip(self._pos_state.tolist(), strings)):
                strings, by = per_state, "state"
        labels = sorted(set(strings))
        if len(labels) == 1 and by != "round":   # the same text at every step: sent once
            return self._add(label, {"const": labels[0], "fmt": "text"}, row, bare)
        index = {s: i for i, s in enumerate(labels)}
        return self._add(label, {"by": by, "data": [index[s] for s in strings], "labels": labels, "fmt": "text"},
                         row, bare)

    def vector(self, label: str, rows: np.ndarray, by: str, fmt: str = f".{MIN_DIGITS}g", *,
               row: bool = True) -> str:
        """``label = ({a}, {b}, …)``: a vector per state / position / round, one value per coordinate (each its
        row of the table, ``label₁`` …)."""
        rows = np.asarray(rows, dtype=float)
        each = {"state": self.state, "position": self.position, "round": self.round}[by]
        parts = [each(f"{label}, coordinate {i + 1}", rows[:, i], fmt, row=row, bare=True)
                 for i in range(rows.shape[1])]
        return f"{label} = (" + ", ".join(parts) + ")"

    def const_vector(self, label: str, v: Sequence[float], fmt: str = f".{MIN_DIGITS}g", *, row: bool = True) -> str:
        """``label = (a, b, …)`` for a vector of the run that does not change with the round."""
        parts = [self.const(f"{label}, coordinate {i + 1}", float(x), fmt, row=row, bare=True)
                 for i, x in enumerate(np.asarray(v, dtype=float).tolist())]
        return f"{label} = (" + ", ".join(parts) + ")"

    def ranked(self, label: str, W: np.ndarray, names: Sequence[str], n: int = 3, *, largest: bool = True,
               key: np.ndarray | None = None) -> str:
        """``w₂₀ = 0.24, w₅ = 0.07, …``: per state the ``n`` largest (or smallest) entries of ``W`` (states ×
        entries), each named by ``names`` (the name as text, its value a number); ``key``: what ranks them when
        it is not the values themselves (e.g. the logarithms of weights too small for a float). A tie: the
        lower index first."""
        W = np.asarray(W, dtype=float)
        K = np.asarray(W if key is None else key, dtype=float)
        order = np.argsort(-K if largest else K, axis=1, kind="stable")
        rows = np.arange(W.shape[0])
        out = []
        for j in range(min(n, W.shape[1])):
            i = order[:, j]
            out.append(self.text(f"{label} {j + 1}: which", [names[v] for v in i], "state") + " = "
                       + self.state(f"{label} {j + 1}: value", W[rows, i], bare=True))
        return ", ".join(out)

    # -------------------------------------------------------------------- the sandwich
    def chain(self, proof, items: Sequence[tuple[str, str]], *, log: bool = False,
              scale: Callable[[np.ndarray], np.ndarray] | None = None, literal: Sequence[str] = (),
              sent: dict[str, str] | None = None) -> str:
        """``label₀ = v₀ ≤ label₁ = v₁ ≤ …``: the proof's series ``items`` ((series key, label), in the order of a
        chain of the proof) at the current state, each relation as the proof's check of that link decides it
        (≤ / < where it holds, > / ≥ where it fails, ≈ where it holds within the proof's tolerance though the
        printed digits would say otherwise, "vs" where a side is undefined), with enough significant digits
        (at least :data:`MIN_DIGITS`) that every printed comparison holds at every state. ``log``: the series
        are natural logarithms, printed as their values (e^x). ``literal``: keys printed as their label alone
        (a constant like 1). ``sent``: {series key: name of a spec array that holds it per state of the proof}
        (a sandwich chart's markers): read from there rather than sent twice. A link whose assumption fails on
        these data is followed by "(not claimed: …)"."""
        keys = [k for k, _ in items]
        if log and underflows([np.asarray(proof.series[k], dtype=float) for k in keys if k not in literal]):
            # a value of the run too small for a float (e^−800): said as its natural logarithm, never as 0
            log, items = False, [(k, lab if k in literal else f"ln {lab}") for k, lab in items]
        V = np.vstack([self._series(proof, k, log, scale) for k in keys])          # (items, K_proof)
        rels, nas = self._relations(proof, keys, V)
        lit = [k in literal for k in keys]
        refs = {} if (log or scale) else {k: a for k, a in (sent or {}).items() if self._by(proof, a)}
        Vp = V.copy()
        for i, k in enumerate(keys):
            if k in refs:   # what the browser will print from: the array as sent
                Vp[i] = np.array([np.nan if v is None else float(v) for v in self.arrays[refs[k]]], dtype=float)
        digits = _chain_digits(Vp, rels, lit)
        if refs and digits > 7:   # the arrays sent hold 7 digits: send these numbers with more
            refs, Vp = {}, V
            digits = _chain_digits(Vp, rels, lit)
        for i, r in enumerate(rels):   # held within the tolerance, though the printed digits say otherwise
            pa, pb = _sig(Vp[i], digits), _sig(Vp[i + 1], digits)
            for j in np.flatnonzero((pa >= pb) & np.isfinite(pa) & np.isfinite(pb)).tolist():
                if r[j] in ("≤", "<") and not _rel_holds(pa[j], pb[j], r[j]):
                    r[j] = "≈"
        pidx = np.searchsorted(np.asarray(proof.state_rounds), np.arange(self.T + 1), side="right") - 1
        fmt = f".{digits}g"
        parts = []
        for i, (k, label) in enumerate(items):
            if k in literal:
                parts.append(label)
            elif k in refs:
                parts.append(self.array(label, refs[k], self._by(proof, refs[k]), fmt))
            else:
                parts.append(self.position(label, V[i][pidx], fmt))
            if i < len(rels):
                parts.append(self.text(f"{label} vs {items[i + 1][1]}", [rels[i][j] for j in pidx], "position"))
        text = " ".join(parts)
        if any(n for na in nas for n in na):
            per = [sorted({n for na in nas for n in na[j]}) for j in pidx]
            text += self.text("not claimed on these data", [
                f" (not claimed here: it needs the assumption{'s' if len(w) > 1 else ''} "
                + ", ".join(f"“{n}”" for n in w) + f", which fail{'' if len(w) > 1 else 's'} on these data)"
                if w else "" for w in per], "position")
        return text

    @staticmethod
    def _series(proof, key: str, log: bool, scale) -> np.ndarray:
        v = np.asarray(proof.series[key], dtype=float)
        with np.errstate(over="ignore"):
            return np.exp(v) if log else (scale(v) if scale else v)

    @staticmethod
    def _relations(proof, keys: list[str], V: np.ndarray) -> tuple[list[list[str]], list[list[tuple]]]:
        """Per link of ``keys`` and per proof state: the relation to print, and the failed assumptions it needs."""
        verdicts = link_verdicts(proof)
        rels, nas = [], []
        for i in range(len(keys) - 1):
            d = verdicts.get((keys[i], keys[i + 1]))
            if d is None:
                raise ValueError(f"{keys[i]} ≤ {keys[i + 1]} is not a link of the proof")
            r = []
            for j, h in enumerate(d["holds"]):
                a, b = V[i, j], V[i + 1, j]
                if h is None and not (np.isnan(a) or np.isnan(b)):
                    h = bool(a < b) if d["strict"] else bool(a <= b)   # not claimed here: the numbers decide
                r.append("vs" if h is None else ("<" if d["strict"] else "≤") if h else ("≥" if d["strict"] else ">"))
            rels.append(r)
            nas.append(d["na"])
        return rels, nas

    def _by(self, proof, name: str) -> str | None:
        """How an array of the spec holding a series of ``proof`` per proof state is indexed (None: it is not)."""
        a = self.arrays.get(name)
        if not isinstance(a, list):
            return None
        if len(a) == self.K and np.array_equal(np.asarray(proof.state_rounds), self.starts):
            return "state"
        if len(a) == self.T + 1 and proof.K == self.T + 1:
            return "position"
        return None

    def compare(self, a: tuple[str, float], b: tuple[str, float], holds: bool | None, *, strict: bool = False,
                digits: int = MIN_DIGITS + 1) -> str:
        """``A = a ≤ B = b`` for two numbers of the run that do not change with the round, the relation as the
        proof's check decided it (``holds``; None: as the numbers decide), printed with enough digits to hold."""
        (la, va), (lb, vb) = a, b
        if holds is None:
            holds = va < vb if strict else va <= vb
        rel = ("<" if strict else "≤") if holds else ("≥" if strict else ">")
        while digits < _MAX_DIGITS and not _rel_holds(_printed(va, digits), _printed(vb, digits), rel):
            digits += 1
        if not _rel_holds(_printed(va, digits), _printed(vb, digits), rel):
            rel = "≈"
        fmt = f".{digits}g"
        return f"{self.const(la, va, fmt)} {rel} {self.const(lb, vb, fmt)}"

    def array(self, label: str, name: str, by: str, fmt: str = f".{MIN_DIGITS}g", *, row: bool = True,
              bare: bool = False) -> str:
        """A value read from an array the spec already sends (``by``: how it is indexed)."""
        return self._add(label, {"by": by, "array": name, "fmt": fmt}, row, bare)

    def caption(self, label: str, name: str, *, row: bool = True, bare: bool = False) -> str:
        """A value of the caption (the same source, sent once)."""
        return self._add(label, {"caption": name}, row, bare)

    def build(self, name: str, template: str, start: str | None = None) -> dict:
        """The ``describe`` entry: ``template`` (and ``start``, the text at p = 0) use the texts the value
        methods returned, and {t}, {T}, {k}."""
        return describe(name, template, self.values, self.table, start=start)


def underflows(logs: Sequence[np.ndarray]) -> bool:
    """Some finite natural logarithm whose value is below what a float prints as a positive number."""
    return any(bool(np.any(np.isfinite(a) & (a < -700.0))) for a in logs)


def _same(a: np.ndarray, b: np.ndarray) -> bool:
    if a.dtype.kind == "f" or b.dtype.kind == "f":
        a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
        return bool(np.array_equal(a, b, equal_nan=True))
    return bool(np.array_equal(a, b))


def _chain_digits(V: np.ndarray, rels: list[list[str]], literal: list[bool]) -> int:
    """The fewest significant digits (≥ MIN_DIGITS) with which every strict, failing or not-claimed link's
    printed sides keep their relation (a holding ≤ always does: rounding keeps order); a literal side is exact."""
    checks = []
    for i, r in enumerate(rels):
        rr = np.asarray(r, dtype=object)
        for rel in (">", "≥", "<"):
            j = np.flatnonzero(rr == rel)
            a, b = V[i, j], V[i + 1, j]
            keep = np.isfinite(a) & np.isfinite(b)
            if keep.any():
                checks.append((rel, a[keep], b[keep], literal[i], literal[i + 1]))
    for digits in range(MIN_DIGITS, _MAX_DIGITS + 1):
        if all(_printed_hold(rel, a, b, la, lb, digits) for rel, a, b, la, lb in checks):
            return digits
    return _MAX_DIGITS


def _printed_hold(rel: str, a: np.ndarray, b: np.ndarray, la: bool, lb: bool, digits: int) -> bool:
    pa = a if la else _sig(a, digits)
    pb = b if lb else _sig(b, digits)
    return bool(np.all({">": pa > pb, "≥": pa >= pb, "<": pa < pb}[rel]))
