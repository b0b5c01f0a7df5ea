r"""Claims about a run at a round: a small declared vocabulary, evaluated on a trace through the public API only.

A tour's stop (docs/tours.md) says something checkable about the run it shows: "after 12 rounds M ≤ R²/γ²",
"the lower bound meets the potential", "no inequality of the proof fails up to here", "the margin assumption
fails on these data". :func:`evaluate` reads the trace (``trace.mistakes_before``, ``trace.proof.at``,
``proof.mistake_bound``, ``proof.violations()``, ``proof.assumptions``, ``trace.proofs[...]``) and returns a
:class:`Verdict`: whether the claim holds, and a sentence that states the numbers it was decided on, read
from the run. The sentence always states the relation that is true (a claim "M ≤ 5" on a run with M = 6
reads "M = 6 > 5"), so that it is never false whatever the verdict.

A claim is a JSON-ready dict; its ``kind`` is one of :data:`KINDS`:

``compare``      ``{"left": term, "op": op, "right": term}``: ``op`` in ``<=, <, >=, >, ==, !=``.
``meets``        ``{"lower": series, "potential": series}``: the lower bound equals the potential (within the
                 proof's tolerance), i.e. the inequality is tight at this round.
``no_violation`` ``{}``: every inequality of the proof holds in every state up to round t (the steps whose
                 assumptions fail on these data are not claimed, and said so).
``assumption``   ``{"name": name, "holds": bool}``: the theorem's assumption ``name`` holds (fails) on the data.
``bound``        ``{"claimed": bool}``: the theorem gives a bound on this run (or claims none).
``mistake``      ``{"is": bool}``: the last round processed (round t, counted from 1) was a mistake (or not).
``all``          ``{"of": [claim, …]}``: every claim of the list holds.

Every claim may name the proof it reads, ``"proof": name`` (one of ``trace.proofs``; default ``trace.proof``).
A *term* is a number or one of: ``"M"`` (mistakes on rounds before t; the margin Perceptron's updates),
``"bounded"`` (what the theorem bounds, at t: M, or a randomised learner's expected mistakes), ``"bound"`` (the
theorem's bound, ``proof.mistake_bound``), ``"T"``, ``"t"``, ``"series:<name>"`` (``proof.at(t)[name]``),
``"const:<name>"`` (a scalar of ``proof.constants``).

Comparisons: two whole numbers (M, T, t, integers) are compared exactly. A comparison with a value the proof
computed (a series, a constant, the bound) uses the proof's own tolerance (:data:`olc_core.proofs.base.DEFAULT_TOL`,
relative; absolute on logarithms, as the proof's chains): values within it are *equal* (so ``≤`` and ``≥``
hold, ``<`` and ``>`` do not), and the sentence says "equal within the proof's tolerance"; otherwise the values
are printed with as many digits as it takes for the printed numbers to show their order.

>>> import olc_core
>>> s = olc_core.streams.tight_perceptron(4)
>>> tr = olc_core.run("perceptron", s.X, s.y, comparator=s.comparator)
>>> v = evaluate({"kind": "compare", "left": "M", "op": "<=", "right": "bound"}, tr, 4)
>>> v.holds, v.sentence
(True, "After 4 rounds: $M = 4 \\le 4 = R^2/\\gamma^2$ (the theorem's bound).")
>>> evaluate({"kind": "compare", "left": "M", "op": "<", "right": 4}, tr, 4).sentence
'After 4 rounds: $M = 4 = 4$.'
>>> evaluate({"kind": "meets", "lower": "M_gamma", "potential": "inner"}, tr, 2).holds
True
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ._support.words import statement_tex
from .proofs.base import DEFAULT_TOL

__all__ = ["KINDS", "OPS", "TERM_PATTERN", "CLAIM_SCHEMA", "ClaimError", "Verdict", "evaluate", "terms_of"]

KINDS = ("compare", "meets", "no_violation", "assumption", "bound", "mistake", "all")
#: the comparison operators, and the true relations (<, =, >) each accepts
OPS = {"<=": ("<", "="), "<": ("<",), ">=": (">", "="), ">": (">",), "==": ("=",), "!=": ("<", ">")}
_TEX_REL = {"<": "<", "=": "=", ">": ">"}
_TEX_OP = {"<=": r"\le", "<": "<", ">=": r"\ge", ">": ">", "==": "=", "!=": r"\ne"}
#: the terms a comparison may name (besides numbers)
TERM_PATTERN = r"^(M|bounded|bound|T|t|series:[A-Za-z0-9_]{1,40}|const:[A-Za-z0-9_]{1,40})$"
_TERM_RE = re.compile(TERM_PATTERN)
_NAME = {"type": "string", "minLength": 1, "maxLength": 60}
_TERM = {"oneOf": [{"type": "number"}, {"type": "string", "pattern": TERM_PATTERN}]}
_PROOF = {"proof": {"type": "string", "pattern": r"^[A-Za-z0-9_]{1,40}$"}}

#: The claim vocabulary's structure as JSON Schema (draft 2020-12): what a tour file's ``claim`` may hold.
#: (Whether a named series, proof or assumption exists is known only on the run: :func:`evaluate` says so.)
CLAIM_SCHEMA: dict[str, Any] = {
    "$defs": {
        "term": _TERM,
        "claim": {
            "type": "object",
            "required": ["kind"],
            "properties": {"kind": {"enum": list(KINDS)}},
            "allOf": [
                {"if": {"properties": {"kind": {"const": "compare"}}},
                 "then": {"required": ["left", "op", "right"], "additionalProperties": False,
                          "properties": {"kind": True, **_PROOF, "left": {"$ref": "#/$defs/term"},
                                         "op": {"enum": list(OPS)}, "right": {"$ref": "#/$defs/term"}}}},
                {"if": {"properties": {"kind": {"const": "meets"}}},
                 "then": {"required": ["lower", "potential"], "additionalProperties": False,
                          "properties": {"kind": True, **_PROOF,
                                         "lower": {"type": "string", "pattern": r"^[A-Za-z0-9_]{1,40}$"},
                                         "potential": {"type": "string", "pattern": r"^[A-Za-z0-9_]{1,40}$"}}}},
                {"if": {"properties": {"kind": {"const": "no_violation"}}},
                 "then": {"additionalProperties": False, "properties": {"kind": True, **_PROOF}}},
                {"if": {"properties": {"kind": {"const": "assumption"}}},
                 "then": {"required": ["name", "holds"], "additionalProperties": False,
                          "properties": {"kind": True, **_PROOF, "name": _NAME, "holds": {"type": "boolean"}}}},
                {"if": {"properties": {"kind": {"const": "bound"}}},
                 "then": {"required": ["claimed"], "additionalProperties": False,
                          "properties": {"kind": True, **_PROOF, "claimed": {"type": "boolean"}}}},
                {"if": {"properties": {"kind": {"const": "mistake"}}},
                 "then": {"required": ["is"], "additionalProperties": False,
                          "properties": {"kind": True, **_PROOF, "is": {"type": "boolean"}}}},
                {"if": {"properties": {"kind": {"const": "all"}}},
                 "then": {"required": ["of"], "additionalProperties": False,
                          "properties": {"kind": True, "of": {"type": "array", "minItems": 1, "maxItems": 6,
                                                               "items": {"$ref": "#/$defs/claim"}}}}},
            ],
        },
    },
    "$ref": "#/$defs/claim",
}

#: TeX names of the constants a claim may name (others: \mathrm{name})
_CONST_TEX = {"gamma": r"\gamma", "radius": "R", "delta": r"\delta", "eta": r"\eta", "beta": r"\beta",
              "alpha": r"\alpha", "m_star": "m^*", "TD": r"\mathrm{TD}_\gamma", "L": "L", "N": "N", "k": "k",
              "n": "n", "C": "C", "H_size": "|H|", "log2_H": r"\log_2|H|", "ln_N": r"\ln N",
              "final_margin": r"\text{final margin}", "best_gamma": r"\gamma_{\text{best}}",
              "half_delta_squared": r"\delta^2/2", "bound_2lnN_over_delta2": r"2\ln N/\delta^2", "eta_optimal": r"\eta^*", "regret_bound": r"\text{regret bound}"}




class ClaimError(ValueError):
    """A claim that cannot be evaluated on this run (an unknown proof, series, constant or assumption, a round
    outside the run, a malformed claim); the message names the field."""


@dataclass(frozen=True)
class Verdict:
    """Whether a claim holds on the run at round t, and the sentence that says why, with the run's numbers.

    ``parts``: the sentence as (``"text"``, plain text) and (``"tex"``, TeX) pieces, for a renderer that typesets
    the maths; ``sentence`` joins them with ``$…$`` around the maths. ``values``: the numbers it was decided on."""

    holds: bool
    parts: tuple[tuple[str, str], ...]
    kind: str
    values: dict = field(default_factory=dict)

    @property
    def sentence(self) -> str:
        return "".join(s if k == "text" else f"${s}$" for k, s in self.parts)


# ------------------------------------------------------------------------------------------------ numbers

def _tex_num(x: float, digits: int) -> str:
    """``x`` with ``digits`` significant digits, in TeX (an exponent as ``\\cdot 10^{k}``)."""
    if isinstance(x, (int, np.integer)):
        return str(int(x))
    x = float(x)
    if x == int(x) and abs(x) < 1e15:
        return str(int(x))
    s = f"{x:.{digits}g}"
    if "e" in s:
        m, e = s.split("e")
        return rf"{m}\cdot 10^{{{int(e)}}}"
    return s


def _digits_for(a: float, b: float, rel: str) -> int:
    """The fewest significant digits (≥ 4) at which ``a`` and ``b`` print in the order ``rel`` says."""
    for d in range(4, 18):
        pa, pb = float(f"{float(a):.{d}g}"), float(f"{float(b):.{d}g}")
        if (rel == "<" and pa < pb) or (rel == ">" and pa > pb) or (rel == "=" and pa == pb):
            return d
    return 17


def _is_whole(x: Any) -> bool:
    return isinstance(x, (int, np.integer)) and not isinstance(x, bool)


# ------------------------------------------------------------------------------------------------ terms

@dataclass(frozen=True)
class _Term:
    value: Any        # int, float (NaN: undefined) or None (no bound)
    tex: str          # its TeX name ("" for a plain number)
    exact: bool       # a whole number (compared exactly)
    log: bool = False  # a logarithm (compared with an absolute tolerance)
    note: str = ""    # what it is, in words (e.g. "the bound")


def _proof(trace, claim: dict):
    name = claim.get("proof")
    if name is None:
        return trace.proof
    if name not in trace.proofs:
        raise ClaimError(f"proof: {name!r} is not a proof of this run (its proofs: {', '.join(trace.proofs)})")
    return trace.proofs[name]


def _key(trace, proof) -> str:
    """The name ``trace.proofs`` knows ``proof`` by (what a claim's ``proof`` field names)."""
    return next((k for k, p in trace.proofs.items() if p is proof), proof.name)


def _log_series(proof) -> set[str]:
    return {k for ch in proof.chains if ch.log for k in ch.keys}


def _series_tex(proof, name: str) -> str:
    r"""A series' TeX name; a series of logarithms (in a chain marked ``log``) is written ``\ln(label)`` unless its
    label already says ``\ln`` (as the transcript does): its values are logarithms, never the label's quantity."""
    label = proof.labels.get(name) or r"\mathrm{" + name.replace("_", r"\_") + "}"
    if name in _log_series(proof) and r"\ln" not in label:
        return rf"\ln\left({label}\right)"
    return label


def _term(raw: Any, trace, proof, t: int, where: str) -> _Term:
    if isinstance(raw, bool) or raw is None:
        raise ClaimError(f"{where}: a term is a number or a name, not {raw!r}")
    if isinstance(raw, (int, float, np.integer, np.floating)):
        if not math.isfinite(float(raw)):
            raise ClaimError(f"{where}: {raw!r} is not a finite number")
        return _Term(raw, "", _is_whole(raw))
    if not isinstance(raw, str) or not _TERM_RE.match(raw):
        raise ClaimError(f"{where}: {raw!r} is not a term (a number, M, bounded, bound, T, t, series:<name> or "
                         "const:<name>)")
    if raw == "M":   # a proof that counts updates (the margin Perceptron's, margin mistakes included) writes U
        return _Term(trace.mistakes_before(t), "U" if proof.event == "update" else "M", True)
    if raw == "T":
        return _Term(int(trace.T), "T", True)
    if raw == "t":
        return _Term(int(t), "t", True)
    if raw == "bound":
        formula = proof.constants.get("bound_formula")
        return _Term(proof.mistake_bound, formula if isinstance(formula, str) else r"\text{bound}", False,
                     note="the theorem's bound")
    if raw == "bounded":
        key = proof.bounded
        v = proof.at(t)[key]
        whole = key == "M"
        return _Term(int(v) if whole else v, ("U" if proof.event == "update" else "M") if whole else
                     _series_tex(proof, key), whole,
                     note="" if whole else "what the theorem bounds")
    kind, _, name = raw.partition(":")
    if kind == "series":
        if name not in proof.series:
            raise ClaimError(f"{where}: series {name!r} is not a series of the proof {_key(trace, proof)!r}")
        return _Term(proof.at(t)[name], _series_tex(proof, name), False, log=name in _log_series(proof))
    value = proof.constants.get(name)
    if name not in proof.constants or isinstance(value, (bool, str)) or np.ndim(value) != 0 or value is None:
        raise ClaimError(f"{where}: constant {name!r} is not a number of the proof {_key(trace, proof)!r}")
    return _Term(value, _CONST_TEX.get(name, r"\mathrm{" + name.replace("_", r"\_") + "}"), _is_whole(value))


def _relation(a: _Term, b: _Term, tol: float = DEFAULT_TOL) -> tuple[str, bool]:
    """The true relation between two defined values ("<", "=", ">") and whether "=" means "within tolerance"."""
    x, y = a.value, b.value
    if a.exact and b.exact:
        return ("<" if x < y else ">" if x > y else "="), False
    x, y = float(x), float(y)
    if x == y:
        return "=", False
    if a.log or b.log:
        close = abs(x - y) <= tol
    else:
        close = abs(x - y) <= tol * max(abs(x), abs(y))
    if close:
        return "=", True
    return ("<" if x < y else ">"), False


def _side(term: _Term, text: str) -> str:
    return f"{term.tex} = {text}" if term.tex else text


# ------------------------------------------------------------------------------------------------ kinds

def _failed(proof) -> str:
    """The failed assumptions in words ("the assumption margin fails")."""
    names = [a.name for a in proof.failed_assumptions]
    if not names:
        return "no assumption fails, but the proof states no bound"
    return (f"the assumption {names[0]} fails" if len(names) == 1 else
            f"the assumptions {', '.join(names[:-1])} and {names[-1]} fail")


def _theorem(trace, proof) -> str | None:
    """The proof's name where the run has several (the Perceptron's separable, TD_γ and hinge proofs: a student met
    two different bounds both called "the theorem's" in one claim), else None ("the theorem")."""
    return None if len(trace.proofs) <= 1 else f"“{proof.name}”"


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def _bound_of(trace, proof) -> str:
    name = _theorem(trace, proof)
    return "the theorem's bound" if name is None else f"the bound of {name}"


def _after(t: int, proof=None, terms: tuple = ()) -> str:
    """"After t rounds: "; for a term whose value is the last update's (``proof.at_update``), that update's round
    too: its label's t is that round, not the rounds played."""
    lead = f"After {t} round{'s' if t != 1 else ''}"
    names = {term.split(":", 1)[1] for term in terms if isinstance(term, str) and term.startswith("series:")}
    if proof is not None and names & proof.at_update:
        k = proof.index(t)
        if k > 0:
            lead += f", at the last mistake (round {int(proof.state_rounds[k])})"
    return lead + ": "


def _compare(claim: dict, trace, t: int, *, phrase: str = "") -> Verdict:
    proof = _proof(trace, claim)
    op = claim.get("op")
    if op not in OPS:
        raise ClaimError(f"op: {op!r} is not one of {', '.join(OPS)}")
    a = _term(claim.get("left"), trace, proof, t, "left")
    b = _term(claim.get("right"), trace, proof, t, "right")
    values = {"left": a.value, "right": b.value, "op": op}
    for term, side in ((a, "left"), (b, "right")):
        if term.value is None:
            return Verdict(False, (("text", _after(t) + f"the theorem claims no bound on this run ({_failed(proof)}), "
                                                        "so "), ("tex", f"{a.tex or 'x'} {_TEX_OP[op]} {b.tex or 'y'}"),
                                   ("text", " is not claimed.")), "compare", values)
        if not term.exact and math.isnan(float(term.value)):
            return Verdict(False, (("text", _after(t)), ("tex", term.tex),
                                   ("text", " is not defined at this round.")), "compare", values)
    lead = _after(t, proof, (claim.get("left"), claim.get("right")))
    rel, within = _relation(a, b)
    holds = rel in OPS[op]
    d = _digits_for(a.value, b.value, rel)
    left, right = _tex_num(a.value, d), _tex_num(b.value, d)
    # a claim that holds is written with its own relation (true: ≤ holds on equal values); one that fails, with
    # the relation that is true instead
    shown = _TEX_OP[op] if holds else _TEX_REL[rel]
    maths = f"{_side(a, left)} {shown} {right}" + (f" = {b.tex}" if b.tex else "")
    notes = [n for n in (b.note, a.note) if n == "the theorem's bound"]
    if within:
        notes.append("equal within the proof's tolerance")
    tail = (f" ({'; '.join(notes)})" if notes else "") + (f": {phrase}" if phrase else "") + "."
    values.update(relation=rel, within_tolerance=within)
    return Verdict(holds, (("text", lead), ("tex", maths), ("text", tail)), "compare", values)


def _meets(claim: dict, trace, t: int) -> Verdict:
    for key in ("lower", "potential"):
        if not isinstance(claim.get(key), str):
            raise ClaimError(f"{key}: the name of a series of the proof")
    sub = {"kind": "compare", "left": "series:" + claim["lower"], "op": "==",
           "right": "series:" + claim["potential"], **({"proof": claim["proof"]} if "proof" in claim else {})}
    v = _compare(sub, trace, t)
    rel = v.values.get("relation")
    phrase = ("the lower bound meets the potential" if v.holds else
              "the lower bound is below the potential, not on it" if rel == "<" else
              "the lower bound is above the potential: the inequality fails" if rel == ">" else "")
    parts = v.parts[:-1] + (("text", v.parts[-1][1][:-1] + (f": {phrase}." if phrase else ".")),)
    return Verdict(v.holds, parts, "meets", v.values)


def _no_violation(claim: dict, trace, t: int) -> Verdict:
    proof = _proof(trace, claim)
    found = [v for v in proof.violations() if v.round <= t]
    real = [v for v in found if not v.needs]
    na = sorted({n for v in found if v.needs for n in v.needs})
    states = int(proof.index(t)) + 1
    links = sum(len(ch.keys) - 1 for ch in proof.chains)
    values = {"violations": len(real), "not_applicable": len(found) - len(real), "states": states, "links": links}
    if real:
        v = real[0]
        rel = "<" if v.lhs < v.rhs else ">" if v.lhs > v.rhs else "="
        d = _digits_for(v.lhs, v.rhs, rel)
        return Verdict(False, (("text", f"Up to round {t}, {len(real)} inequalit{'y' if len(real) == 1 else 'ies'} "
                                        f"of the proof fail{'s' if len(real) == 1 else ''}; the first, "
                                        f"{v.name} in the state before round {v.round}, has "),
                               ("tex", f"{_tex_num(v.lhs, d)} > {_tex_num(v.rhs, d)}"), ("text", ".")),
                       "no_violation", values)
    extra = (f" (steps that need the failing assumption{'s' if len(na) > 1 else ''} {', '.join(na)} are not "
             "claimed on these data)") if na else ""
    # what a state is (a student asked why 200 rounds had 7): the learner between two updates
    what = (" (the learner before each round and after the last)" if states == t + 1 else
            f" (a state is the learner from one update to the next: {t} round{'s' if t != 1 else ''}, "
            f"{states} state{'s' if states != 1 else ''})")
    return Verdict(True, (("text", f"Up to round {t}, every inequality of the proof holds: {links} "
                                   f"link{'s' if links != 1 else ''} checked in each of {states} "
                                   f"state{'s' if states != 1 else ''}{what}{extra}."),), "no_violation", values)


def _assumption(claim: dict, trace, t: int) -> Verdict:
    proof = _proof(trace, claim)
    name = claim.get("name")
    found = [a for a in proof.assumptions if a.name == name]
    if not found:
        names = ", ".join(a.name for a in proof.assumptions) or "none"
        raise ClaimError(f"name: {name!r} is not an assumption of the proof {_key(trace, proof)!r} (its assumptions: "
                         f"{names})")
    if not isinstance(claim.get("holds"), bool):
        raise ClaimError("holds: true or false")
    a = found[0]
    values = {"holds": a.holds, "rounds": len(a.rounds)}
    if a.holds:
        parts = (("text", "The assumption "), ("tex", statement_tex(a.statement)), ("text", " holds on these data."))
    else:
        rounds = a.rounds
        where = (f" on {len(rounds)} of {trace.T} rounds (the first: round {int(rounds[0]) + 1}, counted from 1)"
                 if len(rounds) else "")
        # the detail says which γ and which rounds (a student read "≥ γ fails on 15 rounds" with another γ of the
        # page, the TD_γ proof's, under which more rounds fail)
        detail = f" — {a.detail.rstrip('.')}" if a.detail else ""
        parts = (("text", "The assumption "), ("tex", statement_tex(a.statement)),
                 ("text", f" fails{where}{detail}; {_bound_of(trace, proof)} is not claimed."))
    return Verdict(a.holds == claim["holds"], parts, "assumption", values)


def _bound(claim: dict, trace, t: int) -> Verdict:
    proof = _proof(trace, claim)
    if not isinstance(claim.get("claimed"), bool):
        raise ClaimError("claimed: true or false")
    b = proof.mistake_bound
    formula = proof.constants.get("bound_formula")
    if b is not None:
        parts = (("text", f"{_cap(_bound_of(trace, proof))} on this run: "),
                 ("tex", (f"{formula} = " if isinstance(formula, str) else "") + _tex_num(b, 6)), ("text", "."))
    else:
        name = _theorem(trace, proof)
        parts = (("text", f"The theorem{'' if name is None else ' of ' + name} claims no bound on this run: "
                          f"{_failed(proof)}."),)
    return Verdict((b is not None) == claim["claimed"], parts, "bound", {"bound": b})


def _mistake(claim: dict, trace, t: int) -> Verdict:
    if not isinstance(claim.get("is"), bool):
        raise ClaimError("is: true or false")
    if t == 0:
        return Verdict(False, (("text", "No round has been processed yet (round 0)."),), "mistake", {})
    was = trace.mistakes_before(t) > trace.mistakes_before(t - 1)
    n = trace.mistakes_before(t)
    text = (f"Round {t}, the last one processed, was a mistake (mistake number {n})." if was else
            f"Round {t}, the last one processed, was not a mistake ({n} mistake{'s' if n != 1 else ''} so far).")
    return Verdict(was == claim["is"], (("text", text),), "mistake", {"mistake": was, "M": n})


def _all(claim: dict, trace, t: int) -> Verdict:
    items = claim.get("of")
    if not isinstance(items, list) or not items:
        raise ClaimError("of: a non-empty list of claims")
    verdicts = [evaluate(c, trace, t) for c in items]
    parts: list[tuple[str, str]] = []
    lead = _after(t)
    for i, v in enumerate(verdicts):
        these = list(v.parts)
        if i:
            parts.append(("text", " "))
            if these[0] == ("text", lead):   # "After t rounds:" once, for the whole list: "… $a$ and $b$."
                these = these[1:]
                before = parts[-2]
                if before[0] == "text" and before[1].endswith(".") and these and these[0][0] == "tex":
                    parts[-2] = ("text", before[1][:-1])
                    parts[-1] = ("text", " and ")
        parts.extend(these)
    return Verdict(all(v.holds for v in verdicts), tuple(parts), "all",
                   {"each": [v.holds for v in verdicts]})


_EVALUATORS = {"compare": _compare, "meets": _meets, "no_violation": _no_violation, "assumption": _assumption,
               "bound": _bound, "mistake": _mistake, "all": _all}


def evaluate(claim: dict, trace, t: int) -> Verdict:
    """Decide ``claim`` (see the module's vocabulary) on ``trace`` in the state after ``t`` rounds (0 ≤ t ≤ T).

    Raises :class:`ClaimError` (naming the field) when the claim cannot be evaluated on this run."""
    if not isinstance(claim, dict):
        raise ClaimError(f"a claim is an object with a kind, not {type(claim).__name__}")
    kind = claim.get("kind")
    if kind not in _EVALUATORS:
        raise ClaimError(f"kind: {kind!r} is not one of {', '.join(KINDS)}")
    if isinstance(t, bool) or not isinstance(t, (int, np.integer)) or not 0 <= int(t) <= trace.T:
        raise ClaimError(f"t: the round must be a whole number from 0 to {trace.T} (got {t!r})")
    return _EVALUATORS[kind](claim, trace, int(t))


def terms_of(claim: dict) -> list[str]:
    """Every term and series name a claim reads (for a reader or a checker), in order.

    >>> terms_of({"kind": "all", "of": [{"kind": "compare", "left": "M", "op": "<=", "right": "bound"},
    ...                                 {"kind": "meets", "lower": "M_gamma", "potential": "inner"}]})
    ['M', 'bound', 'series:M_gamma', 'series:inner']
    """
    kind = claim.get("kind")
    if kind == "compare":
        return [x for x in (claim.get("left"), claim.get("right")) if isinstance(x, str)]
    if kind == "meets":
        return ["series:" + str(claim.get("lower")), "series:" + str(claim.get("potential"))]
    if kind == "all":
        return [x for c in claim.get("of") or [] if isinstance(c, dict) for x in terms_of(c)]
    return []
