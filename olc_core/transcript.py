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

import re
from collections.abc import Mapping
from typing import Any

import numpy as np

from ._transcript.texdoc import Math, clip, num, plain_index
from ._transcript.texdoc import latex as _latex
from ._transcript.texdoc import markdown as _markdown
from .proofs.base import DEFAULT_TOL, Chain, Proof

__all__ = ["markdown", "latex", "document", "written_proof", "file_name", "MAX_MISTAKES", "MAX_VIOLATIONS"]

#: mistakes written out with their inequalities (the others are checked all the same, and counted)
MAX_MISTAKES = 40
#: failing inequalities listed one by one
MAX_VIOLATIONS = 20
#: how much of a caller's text is kept (as olc_ui.safe.SHOWN: at most 80 characters of an untrusted value)
SHORT_TEXT = 80
LONG_TEXT = 200  # texts of the core's own (a constant's description)
_REL = {False: r"\le", True: "<"}


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
    doc += _whole_run(proof)
    doc += _conclusion(trace, proof)
    doc += _others(trace, proof)
    return doc


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
                  f" {'mistake' if trace.n_mistakes == 1 else 'mistakes'} (realised)."])
    for k, v in trace.params.items():
        if k in proof.indices and k in proof.constants:  # e.g. Winnow's relevant variables, numbered from 1
            items.append([f"Parameter {k}: "] + _indices(proof.constants[k], proof.indices[k]))
            continue
        items.append([f"Parameter {k} = "] + _value(v))
    seeds = {k: v for k, v in (settings or {}).items() if "seed" in str(k).lower()}
    seeds.update({k: v for k, v in trace.params.items() if "seed" in k})
    if seeds:
        items.append(["Seed: ", ", ".join(f"{clip(k, 20)} = {clip(v, SHORT_TEXT)}" for k, v in seeds.items())])
    if settings:
        shown = {k: v for k, v in settings.items() if k != "t"}
        items.append(["The page's settings that this run uses (its link reopens this run): ",
                      ", ".join(f"{clip(k, 20)} = {clip(v, SHORT_TEXT)}" for k, v in shown.items()) or "none"])
    return [("h", 2, ["The setting"]), ("ul", items)]


def _value(v) -> list:
    """A parameter or constant as pieces: numbers as maths, the rest as (clipped) text."""
    if v is None:
        return ["not given (measured or chosen by the learner)"]
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
    consts = [[f"{k}: "] + _indices(v, proof.indices[k]) if k in proof.indices else _constant(k, v)
              for k, v in proof.constants.items()]
    consts = [c for c in consts if c]
    if consts:
        out += [("h", 3, ["Measured constants"]), ("ul", consts)]
    for note in proof.notes:
        out.append(("p", ["Note: " + plain_index(note)]))
    out.append(("h", 3, ["The inequalities of the proof, and why each holds"]))
    for ch in proof.chains:
        out.append(("p", [f"{ch.name}" + (" (natural logarithms of the quantities)" if ch.log else "") + ":"]))
        out.append(("ul", [[Math(f"{_side(proof, ch, lo)} {_REL[strict]} {_side(proof, ch, hi)}"),
                            (": " + plain_index(reason)) if reason else ""] for lo, hi, strict, reason in ch.links()]))
    return out


_WORDS_AT_END = re.compile(r"\s((?:for|on|in) (?:every|each|all)\b[^\\^_{}$]*)$")


def _statement(s: str) -> Math:
    """An assumption's statement as maths, its closing words ("for every round t") set as text."""
    if r"\text" not in s:
        s = _WORDS_AT_END.sub(lambda m: r"\ \text{" + m.group(1) + "}", s)
    return Math(s)


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


def _constant(k: str, v) -> list | None:
    if "formula" in k and isinstance(v, str):
        return [f"{k}: ", Math(v)]
    if isinstance(v, str):
        return [f"{k}: {clip(plain_index(v), 400)}"] if v else None
    if isinstance(v, (bool, np.bool_, int, float, np.integer, np.floating, list, tuple, np.ndarray)) or v is None:
        return [f"{k} = "] + _value(v)
    return [f"{k}: {clip(plain_index(str(v)), LONG_TEXT)}"]


def _bounded_label(proof: Proof) -> str:
    return proof.labels.get(proof.bounded, "M")


def _side(proof: Proof, chain: Chain, key: str) -> str:
    return _side_of(proof.labels.get(key) or r"\mathrm{" + key.replace("_", r"\_") + "}", chain)


def _side_of(lab: str, chain: Chain) -> str:
    if re.fullmatch(r"[A-Za-z]{2,}", lab):  # a word ("bound"), not a product of letters
        lab = r"\text{" + lab + "}"
    if chain.log and r"\ln" not in lab:  # the series holds ln of the quantity the label names
        return rf"\ln\bigl({lab}\bigr)"
    return lab


# ------------------------------------------------------------------------------------ the states

#: the significant digits a number is printed with, raised (for both sides of a link) until the
#: printed numbers show the relation printed between them
_DIGITS = (6, 9, 12, 15, 17)


def _printed(x: float, digits: int) -> float:
    """The number :func:`num` prints for ``x`` with ``digits`` significant digits, read back."""
    if not np.isfinite(x) or (x == int(x) and abs(x) < 1e15):
        return x
    return float(f"{x:.{digits}g}")


_TRUE = {"<": lambda a, b: a < b, r"\le": lambda a, b: a <= b, "=": lambda a, b: a == b,
         ">": lambda a, b: a > b}


class _Step:
    """One link of a chain in one state: its two numbers, the relation they are printed with (the one
    that holds for them), and its verdict: ``holds``, ``tol`` (the check passes within its tolerance,
    the numbers are equal or ordered the other way by less than it), ``fails`` (a step the proof
    claims on these data is false), ``undefined`` (a side is NaN); ``na`` (the step needs an assumption
    that fails on these data) qualifies each."""

    def __init__(self, proof: Proof, ch: Chain, i: int, k: int, mat) -> None:
        lo, hi, strict, _ = ch.links()[i]
        self.chain, self.lo, self.hi, self.strict = ch, lo, hi, strict
        self.a, self.b = float(proof.series[lo][k]), float(proof.series[hi][k])
        self.claim = _REL[strict]
        # a chain that states an assumption itself is that assumption's test: never "n/a" for want of itself
        self.needs = [x.name for x in proof.failed_needs(ch, i) if x.name != ch.restates]
        bad = bool(mat[proof.link_name(lo, hi, strict)][k])
        a, b = self.a, self.b
        if np.isnan(a) or np.isnan(b):
            self.verdict, self.rel = "undefined", None
        elif _TRUE[self.claim](a, b):
            self.verdict, self.rel = "holds", self.claim
        elif bad and ch.restates and not self.needs:
            self.verdict, self.rel = "assumption", ">"
        elif bad:
            self.verdict, self.rel = "fails", ">"
        else:  # within the check's tolerance: equal (a strict link), or a above b by less than it
            self.verdict, self.rel = "tol", "=" if a == b else r"\approx"

    @property
    def na(self) -> bool:
        return bool(self.needs)

    def tex(self) -> str:
        """The relation as printed in the state block."""
        if self.verdict == "undefined":
            return r"\overset{?}{" + self.claim + "}"
        note = {("holds", True): "n/a", ("fails", True): "n/a: fails", ("fails", False): "FAILS",
                ("tol", False): "tol", ("tol", True): "n/a, tol",
                ("assumption", False): "assumption fails"}.get((self.verdict, self.na))
        return self.rel if note is None else r"\overset{\text{" + note + "}}{" + self.rel + "}"


def _chain_digits(steps: list[_Step], n_keys: int) -> list[int]:
    """Per key of a chain, the digits that make every printed pair show its printed relation."""
    digits = [0] * n_keys
    for _ in range(len(_DIGITS) * n_keys + 1):  # each pass that changes something raises a key
        changed = False
        for i, st in enumerate(steps):
            if st.rel not in _TRUE:
                continue
            while not _TRUE[st.rel](_printed(st.a, _DIGITS[digits[i]]), _printed(st.b, _DIGITS[digits[i + 1]])):
                if digits[i] == digits[i + 1] == len(_DIGITS) - 1:
                    break  # 17 digits print every float exactly: cannot happen
                digits[i] = digits[i + 1] = min(max(digits[i], digits[i + 1]) + 1, len(_DIGITS) - 1)
                changed = True
        if not changed:
            break
    return [_DIGITS[d] for d in digits]


def _short(proof: Proof, chain: Chain, key: str) -> str:
    """A side's label without its defining formula (``\\ln\\Phi`` for ``\\ln\\Phi = \\ln\\sum_i w_i``)."""
    lab = proof.labels.get(key) or r"\mathrm{" + key.replace("_", r"\_") + "}"
    return _side_of(lab.split(" = ")[0], chain)


def _step_text(proof: Proof, st: _Step) -> list:
    """A step named in a sentence: its chain and the relation that holds between its two sides."""
    rel = st.rel if st.rel is not None else st.claim
    return [f"{st.chain.name}: ", Math(f"{_short(proof, st.chain, st.lo)} {rel} {_short(proof, st.chain, st.hi)}")]


def _listing(proof: Proof, steps: list[_Step], claim: bool = False) -> list:
    out: list = []
    for j, st in enumerate(steps):
        out += (["; "] if j else []) + _step_text(proof, st)
        if claim:
            out += [" (its claim: ", Math(st.claim), ")"]
    return out


def _needs_words(steps: list[_Step]) -> str:
    names = sorted({n for st in steps for n in st.needs})
    return ", ".join(f"'{n}'" for n in names)


def _state_blocks(proof: Proof, k: int) -> list:
    """Every chain of the proof in state ``k``, each link written with the relation its two numbers
    satisfy (never one they contradict), and a closing sentence that says which steps hold, which are
    not applicable (they need an assumption that fails on these data) and which fail."""
    mat = proof.check_matrix()
    out: list = []
    every: list[_Step] = []
    for ch in proof.chains:
        steps = [_Step(proof, ch, i, k, mat) for i in range(len(ch.keys) - 1)]
        every += steps
        digits = _chain_digits(steps, len(ch.keys))
        lines = []
        for i, key in enumerate(ch.keys):
            side = f"{_side(proof, ch, key)} = {num(proof.series[key][k], digits[i])}"
            lines.append("&" + side if i == 0 else f"{steps[i - 1].tex()}\\ &{side}")
        out.append(("p", [ch.name + ":"]))
        out.append(("math", "\\begin{aligned}\n" + " \\\\\n".join(lines) + "\n\\end{aligned}"))
    out.append(("p", _verdict(proof, every)))
    return out


def _verdict(proof: Proof, steps: list[_Step]) -> list:
    """The closing sentence of a state: which steps hold, which are n/a, which fail."""
    hold = [s for s in steps if s.verdict == "holds" and not s.na]
    tol = [s for s in steps if s.verdict == "tol"]
    na = [s for s in steps if s.verdict == "holds" and s.na]
    fail_na = [s for s in steps if s.verdict == "fails" and s.na]
    fail = [s for s in steps if s.verdict == "fails" and not s.na]
    undef = [s for s in steps if s.verdict == "undefined"]
    assumed = [s for s in steps if s.verdict == "assumption"]
    if len(hold) == len(steps):
        return ["Every inequality above holds."]
    n = len(steps)
    out: list = [f"Of the {n} steps above, {len(hold)} hold" + (" (every step not listed below)." if hold else ".")]
    if tol:
        out += [f" {len(tol)} {'holds' if len(tol) == 1 else 'hold'} only up to the check's relative tolerance of {DEFAULT_TOL:g} (marked tol: "
                "the printed numbers are equal, or ordered the other way by less than the tolerance): "]
        out += _listing(proof, tol, claim=True) + ["."]
    if na:
        out += [f" {len(na)} {'is' if len(na) == 1 else 'are'} not applicable (marked n/a): true on these numbers, "
                f"but {'it needs' if len(na) == 1 else 'they need'} {_needs_words(na)}, which fails on these data: "]
        out += _listing(proof, na) + ["."]
    if fail_na:
        out += [f" {len(fail_na)} {'fails' if len(fail_na) == 1 else 'fail'} here (marked n/a: fails, written with "
                "the relation that holds): "] + _listing(proof, fail_na, claim=True)
        out += [f"; {'it needs' if len(fail_na) == 1 else 'they need'} {_needs_words(fail_na)}, which fails on "
                "these data, so the proof does not claim "
                + ("it" if len(fail_na) == 1 else "them") + " here."]
    if fail:
        out += [f" FAILS here: {len(fail)} {'step' if len(fail) == 1 else 'steps'} the proof claims on these data "
                f"{'is' if len(fail) == 1 else 'are'} false (marked FAILS): "]
        for j, st in enumerate(fail):
            out += (["; "] if j else []) + _step_text(proof, st) + [
                f" ({proof.link_name(st.lo, st.hi, st.strict)}: {st.a!r} vs {st.b!r})"]
        out += ["."]
    if assumed:
        names = ", ".join(sorted({f"'{s.chain.restates}'" for s in assumed}))
        out += [f" {len(assumed)} {'is' if len(assumed) == 1 else 'are'} the theorem's assumption {names} "
                "itself, false in this state (marked assumption fails, written with the relation that holds): "]
        out += _listing(proof, assumed, claim=True) + ["; the steps that need it are not claimed here."]
    if undef:
        out += [f" {len(undef)} {'is' if len(undef) == 1 else 'are'} undefined in this state (a side is not a "
                "number; marked ?, not checked): "] + _listing(proof, undef) + ["."]
    return out


def _mistakes(trace, proof: Proof, cap: int) -> list:
    word = "update" if trace.algorithm == "margin_perceptron" else "mistake"
    rounds = np.asarray(trace.mistakes)
    out: list = [("h", 2, [f"The inequalities at each {word}"])]
    intro = (f"The proof's state before round 1, then after each of the {rounds.size} {word}s"
             if rounds.size <= cap else
             f"The proof's state before round 1, then after each of the first {cap} of the {rounds.size} {word}s")
    if proof.K > trace.n_mistakes + 1:
        intro += (" (this proof's quantities also change on rounds without a mistake: the checks below cover "
                  "every round)")
    out.append(("p", [intro + "."]))
    out.append(("h", 3, ["Before round 1"]))
    out += _state_blocks(proof, 0)
    for i, r in enumerate(rounds[:cap]):
        t = int(r) + 1
        out.append(("h", 3, [f"{word.capitalize()} {i + 1}: round {t}"]))
        out += _state_blocks(proof, proof.index(t))
    if rounds.size > cap:
        n = rounds.size - cap
        out.append(("p", [f"Not written out: {word}s {cap + 1} to {rounds.size} ({n} more, rounds "
                          f"{int(rounds[cap]) + 1} to {int(rounds[-1]) + 1}). Their inequalities were checked all "
                          "the same; the next section counts every failure."]))
    return out


def _whole_run(proof: Proof) -> list:
    every = proof.violations()
    bad = [v for v in every if not v.needs]
    n_links = sum(len(ch.links()) for ch in proof.chains)
    out: list = [("h", 2, ["Checks over the whole run"])]
    na = sorted({n for v in every for n in v.needs})
    if na:
        n_na = len(every) - len(bad)
        out.append(("p", [f"{n_na} {'check' if n_na == 1 else 'checks'} (a step in a state) of the steps that need "
                          + ", ".join(f"'{n}'" for n in na) + f" {'fails' if n_na == 1 else 'fail'}: that assumption "
                          "fails on these data, so the proof does not claim those steps here (they are not "
                          "applicable, and not counted as failures of the proof); the states written out above "
                          "show each with the relation that holds."]))
    if not bad and na:
        out.append(("p", ["Every other check holds: each remaining inequality of the proof, in every one of its "
                          f"{proof.K} states."]))
        return out
    if not bad:
        out.append(("p", [f"All {n_links} inequalities of the proof hold in every one of its {proof.K} states "
                          "(every state the learner was in, each round's included)."]))
        return out
    fail = "check fails" if len(bad) == 1 else "checks fail"
    out.append(("p", [f"{len(bad)} {fail} (an inequality in a state); the first "
                      f"{min(len(bad), MAX_VIOLATIONS)}:"]))
    items = [[f"after round {v.round}, {v.chain}: ", Math(f"{_num_pair(v.lhs, v.rhs, '>')[0]} > "
                                                          f"{_num_pair(v.lhs, v.rhs, '>')[1]}"),
              f" ({v.name})"] for v in bad[:MAX_VIOLATIONS]]
    out.append(("ul", items))
    return out


def _num_pair(a: float, b: float, rel: str, digits: int = 6) -> tuple[str, str]:
    """``a`` and ``b`` printed with as many digits as it takes for the printed numbers to satisfy ``rel``
    (which holds for a and b)."""
    for d in [x for x in _DIGITS if x >= digits]:
        if _TRUE[rel](_printed(a, d), _printed(b, d)):
            return num(a, d), num(b, d)
    return num(a, 17), num(b, 17)


def _conclusion(trace, proof: Proof) -> list:
    final = proof.K - 1
    value = float(proof.series[proof.bounded][final])
    lab = _bounded_label(proof)
    out: list = [("h", 2, ["Conclusion"])]
    every = proof.violations()
    bad = [v for v in every if not v.needs]
    if proof.mistake_bound is None:
        names = ", ".join(a.name for a in proof.failed_assumptions) or "an assumption"
        text: list = [f"The theorem's assumptions fail on these data ({names}): it gives no bound for this run, "
                      "and none is claimed. After all ", Math(f"T = {trace.T}"), " rounds, ",
                      Math(f"{lab} = {num(value)}"), "."]
        n_na = len(every) - len(bad)
        if n_na:
            text.append(f" The steps that need it fail in {n_na} {'check' if n_na == 1 else 'checks'} (not "
                        "applicable here, see above)" + ("; every step that holds on any data held in every state."
                                                         if not bad else "."))
        if bad:
            text.append(" Some inequalities the proof claims on any data failed (listed above): that is a defect "
                        "to report.")
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
    shown = _num_pair(value, b, rel) if rel in _TRUE else (num(value), num(b))
    ratio = f" ({value / b:.1%} of the bound)" if b > 0 and np.isfinite(b) else ""
    out.append(("p", ["After all ", Math(f"T = {trace.T}"), " rounds, ",
                      Math(f"{lab} = {shown[0]} {rel} {shown[1]}"), f": {verdict}{ratio}. ",
                      "Every inequality of the proof held at every state, so the theorem's argument is "
                      "confirmed step by step on this run." if not bad else
                      "Some inequalities of the proof failed (listed above): on data meeting the "
                      "assumptions that is a defect to report."]))
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
        every = p.violations()
        n_bad = len([v for v in every if not v.needs])
        n_na = len(every) - n_bad
        tail = f"; {n_bad} failing {'check' if n_bad == 1 else 'checks'}" if n_bad else "; every check it claims holds"
        if n_na:
            tail += (f" ({n_na} {'check' if n_na == 1 else 'checks'} of steps that need a failing assumption "
                     f"{'fails' if n_na == 1 else 'fail'}: not applicable)")
        items.append([p.name + ": ", Math(p.theorem), "; "] + verdict + [tail + "."])
    return [("h", 2, ["Other theorems checked on this run"]), ("ul", items)]
