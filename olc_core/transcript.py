r"""A run's proof written out: the setting, the theorem and its assumptions, every mistake's
inequalities with their numbers, and the conclusion, as Markdown (KaTeX maths) and as LaTeX.

Every number is read from the trace (its proof's series, constants and checks); the texts are
the proof's own (theorem, labels, the reason given for each link). What the caller adds about
the page (a title, a description of the data, the page's settings, an uploaded file's name) is
untrusted text: it is clipped and escaped in both formats.

Every relation printed between two numbers is true for those numbers: a step is written with the
relation its numbers satisfy (``≤``/``<`` when they do; ``>`` marked "n/a: fails" when a step that
needs a failed assumption is false here, "FAILS" when a step the proof claims is; ``=``/``≈`` marked
"tol" when the check passes only within its tolerance), with as many digits as it takes for the
printed numbers to show it; each state closes with which steps hold, are n/a and fail.

What was checked is never decided here: every verdict is the proof's record (``proof.steps``,
``proof.summary``, :mod:`olc_core.proofs.base`), worded by :mod:`olc_core._transcript.record`. So a
transcript says "All k inequalities … hold" only where every step was evaluated and held, says which
could not be evaluated and why, which are n/a and why, and "a defect to report" only for a step the
proof claims on these data that failed.

>>> import olc_core
>>> X = [[1.0, 0.0], [0.0, 1.0]]
>>> tr = olc_core.run("perceptron", X, [1, 1], comparator=[2 ** -0.5, 2 ** -0.5])
>>> md = markdown(tr, page="Perceptron")
>>> "## The theorem" in md and "M \\le R^2/\\gamma^2" in md and "### Mistake 2: round 2" in md
True
>>> file_name("perceptron", {"gamma": "0.1", "seed": "3", "t": "17"}, "md")
'perceptron-gamma0.1-seed3-proof.md'
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from ._transcript.record import MAX_VIOLATIONS, REL as _REL, checks_words, num_pair, side, state_blocks, whole_run
from ._support.words import statement_tex
from ._transcript.texdoc import Math, clip, num, plain_index
from ._transcript.texdoc import latex as _latex
from ._transcript.texdoc import markdown as _markdown
from .proofs.base import DEFAULT_TOL, Proof

__all__ = ["markdown", "latex", "document", "overview", "written_proof", "file_name", "MAX_MISTAKES", "MAX_VIOLATIONS"]

#: mistakes written out with their inequalities (the others are checked all the same, and counted)
MAX_MISTAKES = 40
#: how much of a caller's text is kept (as olc_ui.safe.SHOWN: at most 80 characters of an untrusted value)
SHORT_TEXT = 80
LONG_TEXT = 200  # texts of the core's own (a constant's description)
_TRUE = {"<": lambda a, b: a < b, r"\le": lambda a, b: a <= b}


def markdown(trace, **context: Any) -> str:
    """The transcript as Markdown with KaTeX maths (``$…$``, ``$$…$$``); ``context`` as :func:`document`."""
    return _markdown(document(trace, **context))


def latex(trace, **context: Any) -> str:
    """The transcript as a standalone, pure-ASCII LaTeX file (amsmath, amssymb)."""
    return _latex(document(trace, **context), title="Proof transcript: " + written_proof(trace).name)


def written_proof(trace) -> Proof:
    """The proof written out: the trace's own, or when its assumptions fail on these data, the
    first other proof of the run whose assumptions hold (e.g. the Perceptron's TD_γ bound)."""
    primary = trace.proof
    if primary.applies:
        return primary
    for name in trace.proofs:
        p = trace.proofs[name]
        if p.applies and p is not primary:
            return p
    return primary


def file_name(page: str, settings: Mapping[str, Any] | None, ext: str, what: str = "proof") -> str:
    """``page-key1value1-key2value2-what.ext``: the page and its settings (those of the link, short
    ones only, the viewer's round ``t`` left out), reduced to letters, digits, dots and dashes."""
    parts = [_slug(page) or "run"]
    for k, v in (settings or {}).items():
        if k == "t":
            continue
        token = _slug(f"{k}{v}")
        if token and len(token) <= 24:
            parts.append(token)
    return "-".join(parts)[:120].rstrip("-.") + f"-{_slug(what)[:16] or 'run'}.{_slug(ext)[:8] or 'txt'}"


def _slug(s: object) -> str:
    return "".join(c for c in str(s) if c.isascii() and (c.isalnum() or c in "._")).strip("._")


# ------------------------------------------------------------------------------------ the document

def document(trace, *, page: str = "", title: str = "", data: str = "", settings: Mapping[str, Any] | None = None,
             source: str | None = None, max_mistakes: int = MAX_MISTAKES) -> list:
    """The transcript's blocks (see :mod:`olc_core._transcript.texdoc`).

    ``page``: the page's name; ``title``: what the page shows the run as; ``data``: the data in
    words; ``settings``: the page's settings (as in its link); ``source``: an uploaded file's name.
    """
    proof = written_proof(trace)
    doc: list = [("h", 1, ["Proof transcript: " + proof.name])]
    doc.append(("p", ["Written from one run of olc; every number below is read from the run's trace and "
                      "its proof. Rounds count from 1; the state after round t is the learner's state before "
                      "round t + 1. Inequalities are checked with a relative tolerance of "
                      f"{DEFAULT_TOL:g} of the size of their terms."]))
    doc += _setting(trace, proof, page=page, title=title, data=data, settings=settings, source=source)
    doc += _theorem(proof)
    doc += _mistakes(trace, proof, max(0, int(max_mistakes)))
    doc += whole_run(proof)
    doc += _conclusion(trace, proof)
    doc += _others(trace, proof)
    return doc


def overview(trace) -> list:
    r"""The transcript's short form (a trace's rich display in Jupyter): the theorem written out, its failing
    assumptions, the conclusion (the bound against the run, or why none is claimed), the whole run's checks
    and the other theorems — the same sentences as the transcript, without the setting and the states.

    >>> import olc_core
    >>> tr = olc_core.run("perceptron", [[1.0, 0.0], [0.0, 1.0]], [1, 1], comparator=[2 ** -0.5, 2 ** -0.5])
    >>> md = _markdown(overview(tr))
    >>> "After all $T = 2$ rounds, $M = 2 \\le 2$: the bound holds" in md, "every one of its 3 states" in md
    (True, True)
    """
    proof = written_proof(trace)
    out: list = [("p", [proof.name + ": ", Math(proof.theorem)])]
    failing = [a for a in proof.assumptions if not a.holds]
    if failing:
        out.append(("ul", [_assumption(a) for a in failing]))
    out += [("h", 4, ["Conclusion"])] + _conclusion(trace, proof)[1:]
    out += [("h", 4, ["Checks over the whole run"])] + whole_run(proof)[1:]
    others = _others(trace, proof)
    return out + ([("h", 4, ["Other theorems checked on this run"])] + others[1:] if others else [])


def _setting(trace, proof, *, page, title, data, settings, source) -> list:
    items: list = []
    if page:
        items.append(["Page: ", clip(page, SHORT_TEXT)])
    if title:
        items.append(["Shown as: ", clip(title, SHORT_TEXT)])
    if data:
        items.append(["Data: ", clip(data, SHORT_TEXT)])
    if source:
        items.append(["Uploaded file: ", clip(source, SHORT_TEXT)])
    items.append([f"Learner: {trace.algorithm}, run for ", Math(f"T = {trace.T}"), " rounds on ",
                  Math(f"d = {trace.d}"), " features (experts, hypotheses or literals, as the learner reads "
                  "them); ", Math(num(trace.n_mistakes)),
                  f" {trace.proof.event if trace.n_mistakes == 1 else trace.proof.event + 's'} (realised)."])
    for k, v in trace.params.items():
        if k in proof.indices and k in proof.constants:  # e.g. Winnow's relevant variables, numbered from 1
            items.append([f"Parameter {k}: "] + _indices(proof.constants[k], proof.indices[k]))
            continue
        items.append([f"Parameter {k} = "] + _value(v) if v is not None else _not_given(k, proof.constants))
    seeds = {k: v for k, v in (settings or {}).items() if "seed" in str(k).lower()}
    seeds.update({k: v for k, v in trace.params.items() if "seed" in k})
    if seeds:
        items.append(["Seed: ", ", ".join(f"{clip(k, 20)} = {clip(v, SHORT_TEXT)}" for k, v in seeds.items())])
    if settings:
        shown = {k: v for k, v in settings.items() if k != "t"}
        items.append(["The page's settings that this run uses (its link reopens this run): ",
                      ", ".join(f"{clip(k, 20)} = {clip(v, SHORT_TEXT)}" for k, v in shown.items()) or "none"])
    return [("h", 2, ["The setting"]), ("ul", items)]


def _not_given(k: str, constants: Mapping[str, Any]) -> list:
    """A parameter the caller left out, with the value the run used or measured when the proof knows it."""
    used, measured = constants.get(k), constants.get(f"{k}_measured")
    source = constants.get(f"{k}_source")
    tail = [f" ({k}_source: {clip(plain_index(str(source)), LONG_TEXT)})"] if isinstance(source, str) and source else []
    if used is not None:
        return [f"Parameter {k}: not given; the run uses "] + _value(used) + tail
    if measured is not None:
        return [f"Parameter {k}: not given; measured on these data ({k}_measured): "] + _value(measured) + tail
    return [f"Parameter {k}: not given"] + tail


def _value(v) -> list:
    """A parameter or constant as pieces: numbers as maths, the rest as (clipped) text."""
    if v is None:
        return ["none on these data"]
    if isinstance(v, (bool, np.bool_)):
        return ["yes" if v else "no"]
    if isinstance(v, (int, float, np.integer, np.floating)):
        return [Math(num(v))]
    if isinstance(v, (list, tuple, np.ndarray)):
        a = np.asarray(v)
        if a.ndim == 1 and a.dtype.kind in "biuf" and a.size:
            nz = np.flatnonzero(a)
            if a.size > 8 and nz.size <= 8:  # a sparse vector (a comparator u): its support, numbered from 1
                if not nz.size:
                    return [Math("0"), f" (all {a.size} entries are 0)"]
                parts = ", ".join(num(a[i]) + rf"\ (i = {i + 1})" for i in nz)
                return [Math(f"({parts})"), f" (the nonzero entries, i counted from 1; the other {a.size - nz.size} "
                        f"of its {a.size} entries are 0)"]
            head = ", ".join(num(x) for x in a[:8])
            more = r", \ldots" if a.size > 8 else ""
            return [Math(f"({head}{more})"), f" ({a.size} entries)"]
    return [clip(plain_index(str(v)), LONG_TEXT)]


def _indices(v, kind: str) -> list:
    """0-based indices (of variables or experts) as the pages number them, from 1."""
    if v is None:
        return ["none"]
    a = np.atleast_1d(np.asarray(v)).astype(np.int64)
    if kind == "variable":
        shown = ", ".join(f"x_{{{int(i) + 1}}}" for i in a[:8]) + (r", \ldots" if a.size > 8 else "")
        return ([Math(shown)] if a.size else ["none"]) + [f" ({a.size} {'variable' if a.size == 1 else 'variables'}, "
                                                          "numbered from 1)"]
    return [", ".join(f"{kind} {int(i) + 1}" for i in a[:8]) + (", …" if a.size > 8 else "")
            + " (numbered from 1)"]


def _theorem(proof: Proof) -> list:
    out: list = [("h", 2, ["The theorem"]), ("p", [proof.name + ": ", Math(proof.theorem)])]
    if proof.mistake_bound is not None:
        out.append(("p", ["On this run the bound is ",
                          Math(f"{_bounded_label(proof)} {_REL[proof.bound_strict]} {num(proof.mistake_bound)}"), "."]))
    out.append(("h", 3, ["Its assumptions"]))
    out.append(("ul", [_assumption(a) for a in proof.assumptions] or [["none beyond the learner's input."]]))
    consts = [[f"{k}: "] + _indices(v, proof.indices[k]) if k in proof.indices else _constant(k, v, proof.undefined)
              for k, v in proof.constants.items()]
    consts = [c for c in consts if c]
    if consts:
        out += [("h", 3, ["Measured constants"]), ("ul", consts)]
    for note in proof.notes:
        out.append(("p", ["Note: " + plain_index(note)]))
    out.append(("h", 3, ["The inequalities of the proof, and why each holds"]))
    for ch in proof.chains:
        out.append(("p", [f"{ch.name}" + (" (natural logarithms of the quantities)" if ch.log else "") + ":"]))
        out.append(("ul", [[Math(f"{side(proof, lo, ch.log)} {_REL[strict]} {side(proof, hi, ch.log)}"),
                            (": " + plain_index(reason)) if reason else ""] for lo, hi, strict, reason in ch.links()]))
    return out


def _statement(s: str) -> Math:
    """An assumption's statement as maths, its closing words ("for every round t") set as text."""
    return Math(statement_tex(s))


def _assumption(a) -> list:
    if a.holds:
        detail = f" ({plain_index(a.detail)})" if a.detail else ""
        return [_statement(a.statement), ": holds on these data" + detail + "."]
    r = np.asarray(a.rounds)
    where = ""
    if r.size:
        shown = ", ".join(str(int(t) + 1) for t in r[:10])
        where = f" on {r.size} round{'s' if r.size != 1 else ''} ({shown}{', …' if r.size > 10 else ''})"
    return [_statement(a.statement), f": FAILS{where}" + (f": {plain_index(a.detail)}" if a.detail else "") + "."]


def _constant(k: str, v, why: Mapping[str, Any] | None = None) -> list | None:
    """A measured constant; one the proof has no value for says so (a parameter left out: "not given"; a
    series' constant the proof says why it is not defined, e.g. δ without a positive margin: that reason)."""
    if v is None:
        reason = (why or {}).get(k)
        if k.endswith("_param"):
            return [f"{k}: not given"]
        return [f"{k}: " + (f"not defined on these data ({clip(plain_index(reason), LONG_TEXT)})"
                            if isinstance(reason, str) and reason else "none on these data")]
    if "formula" in k and isinstance(v, str):
        return [f"{k}: ", Math(v)]
    if isinstance(v, str):
        return [f"{k}: {clip(plain_index(v), 400)}"] if v else None
    if isinstance(v, (bool, np.bool_, int, float, np.integer, np.floating, list, tuple, np.ndarray)) or v is None:
        return [f"{k} = "] + _value(v)
    return [f"{k}: {clip(plain_index(str(v)), LONG_TEXT)}"]


def _bounded_label(proof: Proof) -> str:
    return proof.labels.get(proof.bounded, "M")


# ------------------------------------------------------------------------------------ the states

def _mistakes(trace, proof: Proof, cap: int) -> list:
    word = trace.proof.event  # what trace.mistakes lists: mistakes, or the margin Perceptron's updates
    rounds = np.asarray(trace.mistakes)
    out: list = [("h", 2, [f"The inequalities at each {word}"])]
    intro = (f"The proof's state before round 1, then after each of the {rounds.size} {word}s"
             if rounds.size <= cap else
             f"The proof's state before round 1, then after each of the first {cap} of the {rounds.size} {word}s")
    if proof.K > trace.n_mistakes + 1:
        intro += (f" (this proof's quantities also change on rounds without a {word}: the checks below cover "
                  "every round)")
    out.append(("p", [intro + "."]))
    out.append(("h", 3, ["Before round 1"]))
    out += state_blocks(proof, 0)
    for i, r in enumerate(rounds[:cap]):
        t = int(r) + 1
        out.append(("h", 3, [f"{word.capitalize()} {i + 1}: round {t}"]))
        out += state_blocks(proof, proof.index(t))
    if rounds.size > cap:
        n = rounds.size - cap
        out.append(("p", [f"Not written out: {word}s {cap + 1} to {rounds.size} ({n} more, rounds "
                          f"{int(rounds[cap]) + 1} to {int(rounds[-1]) + 1}). Their inequalities were checked all "
                          "the same; the next section counts every failure."]))
    return out


def _conclusion(trace, proof: Proof) -> list:
    final = proof.K - 1
    value = float(proof.series[proof.bounded][final])
    lab = _bounded_label(proof)
    out: list = [("h", 2, ["Conclusion"])]
    S = proof.summary()
    if proof.mistake_bound is None:
        names = ", ".join(a.name for a in proof.failed_assumptions) or "an assumption"
        text: list = [f"The theorem's assumptions fail on these data ({names}): it gives no bound for this run, "
                      "and none is claimed. After all ", Math(f"T = {trace.T}"), " rounds, ",
                      Math(f"{lab} = {num(value)}"), ". Its checks: " + checks_words(S) + " (see above)."]
        if S.defect:
            text.append(" Some inequalities the proof claims on these data failed (listed above): that is a "
                        "defect to report.")
        else:
            text.append(" Every step the proof claims on these data held wherever it could be evaluated.")
        out.append(("p", text))
        return out
    b = proof.mistake_bound
    strict = proof.bound_strict
    claim = _REL[strict]
    within = value <= b * (1 + DEFAULT_TOL) + DEFAULT_TOL
    if _TRUE[claim](value, b):
        rel, verdict = claim, "the bound holds on this run"
    elif within:  # equal, or above by less than the tolerance
        rel = "=" if value == b else r"\approx"
        verdict = (f"the bound holds on this run only up to the check's tolerance (the theorem claims "
                   f"{'<' if strict else '≤'})")
    else:
        rel, verdict = ">", "the bound FAILS on this run"
    shown = num_pair(value, b, rel) if rel in ("<", r"\le", ">") else (num(value), num(b))
    ratio = f" ({value / b:.1%} of the bound)" if b > 0 and np.isfinite(b) else ""
    if S.defect:
        said = ("Some inequalities the proof claims on these data failed (listed above): on data meeting the "
                "assumptions that is a defect to report.")
    elif S.all_hold:
        said = ("Every inequality of the proof held at every state, so the theorem's argument is confirmed step by "
                "step on this run.")
    else:
        said = ("Every inequality the proof claims held wherever it could be evaluated (" + checks_words(S)
                + "), so the theorem's argument is confirmed step by step on this run where its steps are defined.")
    out.append(("p", ["After all ", Math(f"T = {trace.T}"), " rounds, ",
                      Math(f"{lab} = {shown[0]} {rel} {shown[1]}"), f": {verdict}{ratio}. ", said]))
    return out


def _gamma_note(p: Proof, written: Proof) -> list:
    """Which γ a bound of another proof uses, when it is not the written proof's γ."""
    g, g0 = p.constants.get("gamma"), written.constants.get("gamma")
    if not isinstance(g, (int, float, np.floating)) or g is None:
        return []
    if isinstance(g0, (int, float, np.floating)) and np.isclose(float(g), float(g0), rtol=1e-12, atol=0.0):
        return []
    best = p.constants.get("best_gamma")
    why = (", the γ in (0, R] that makes this bound smallest" if isinstance(best, (int, float, np.floating))
           and np.isclose(float(best), float(g), rtol=1e-12, atol=0.0) else "")
    out: list = [" (at ", Math(rf"\gamma = {num(g)}"), why]
    if isinstance(g0, (int, float, np.floating)):
        out += ["; the proof written out above uses ", Math(rf"\gamma = {num(g0)}")]
    return out + [")"]


def _others(trace, written: Proof) -> list:
    others = [trace.proofs[name] for name in trace.proofs]
    others = [p for p in others if p is not written]
    if not others:
        return []
    items = []
    for p in others:
        verdict = (["bound ", Math(f"{_bounded_label(p)} {_REL[p.bound_strict]} {num(p.mistake_bound)}")]
                   + _gamma_note(p, written) if p.mistake_bound is not None else
                   ["no bound (failing assumption: " + ", ".join(a.name for a in p.failed_assumptions) + ")"])
        S = p.summary()
        if S.all_hold:
            tail = "; every check holds"
        else:
            tail = ("; every check it claims on these data holds where evaluated" if not S.defect else
                    "; some checks it claims on these data FAIL (a defect to report)") + " (" + checks_words(S) + ")"
        items.append([p.name + ": ", Math(p.theorem), "; "] + verdict + [tail + "."])
    return [("h", 2, ["Other theorems checked on this run"]), ("ul", items)]
