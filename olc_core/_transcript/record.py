r"""The proof's record (:mod:`olc_core.proofs.base`: ``Proof.steps``, ``Proof.summary``) in words: the
state blocks of a transcript, each state's closing sentence and the whole run's checks.

Nothing here decides a verdict: every step's verdict (``holds``, ``tol``, ``fails``, ``undefined``,
``na``, ``assumption``) and its numbers' reading (``hold``, ``tol``, ``fail``, ``undefined``) come from the
record; this module only words them. It reads the proof by its attributes (no import of the public
``proofs`` package: private modules import no public one).

A step is printed with the relation its numbers satisfy — the claimed ``≤``/``<`` when they do,
``>`` when they do not, ``=``/``≈`` when only the check's tolerance passes them, ``?`` over the claim
when a side is not a number — with as many digits as the printed numbers need to show it, and
marked with its verdict (``n/a``, ``n/a: fails``, ``FAILS``, ``tol``, ``assumption fails``).

>>> from types import SimpleNamespace
>>> [shown_relation(SimpleNamespace(numbers=n, strict=False, lhs=1.0, rhs=1.0)) for n in ("hold", "fail", "tol")]
['\\le', '>', '=']
"""
from __future__ import annotations

import re

import numpy as np

from .texdoc import Math, num

__all__ = ["state_blocks", "whole_run", "side", "short", "shown_relation", "checks_words", "when", "REL",
           "MAX_VIOLATIONS"]

#: failing inequalities listed one by one
MAX_VIOLATIONS = 20
REL = {False: r"\le", True: "<"}
#: the significant digits a number is printed with, raised (for both sides of a link) until the
#: printed numbers show the relation printed between them
_DIGITS = (6, 9, 12, 15, 17)
_TRUE = {"<": lambda a, b: a < b, r"\le": lambda a, b: a <= b, "=": lambda a, b: a == b,
         ">": lambda a, b: a > b}


# ------------------------------------------------------------------------------------ labels

def side_of(lab: str, log: bool) -> str:
    """A side's label as printed: a word set as text, ``\\ln(label)`` on a chain of logarithms."""
    if re.fullmatch(r"[A-Za-z]{2,}", lab):  # a word ("bound"), not a product of letters
        lab = r"\text{" + lab + "}"
    if log and r"\ln" not in lab:  # the series holds ln of the quantity the label names
        return rf"\ln\bigl({lab}\bigr)"
    return lab


def side(proof, key: str, log: bool) -> str:
    """Series ``key``'s label as a side of a link."""
    return side_of(proof.label(key), log)


def short(proof, key: str, log: bool) -> str:
    """A side's label without its defining formula (``\\ln\\Phi`` for ``\\ln\\Phi = \\ln\\sum_i w_i``)."""
    return side_of(proof.label(key).split(" = ")[0], log)


def when(rounds) -> str:
    """States' rounds (0-based t: the state before round t) as a reader counts them.

    >>> when([0, 3, 4]), when([7])
    ('before round 1 and after rounds 3, 4', 'after round 7')
    """
    rs = [int(r) for r in rounds]
    after = [r for r in rs if r > 0]
    parts = ["before round 1"] if 0 in rs else []
    if after:
        parts.append(("after round " if len(after) == 1 else "after rounds ") + ", ".join(map(str, after)))
    return " and ".join(parts)


def _states(n: int) -> str:
    return f"{n} {'state' if n == 1 else 'states'}"


def _checks(n: int) -> str:
    return f"{n} {'check' if n == 1 else 'checks'}"


def _quoted(names) -> str:
    return ", ".join(f"'{n}'" for n in names)


def _fail_verb(names) -> str:
    return "fails" if len(names) == 1 else "fail"


# ------------------------------------------------------------------------------------ one state

def _printed(x: float, digits: int) -> float:
    """The number :func:`num` prints for ``x`` with ``digits`` significant digits, read back."""
    if not np.isfinite(x) or (x == int(x) and abs(x) < 1e15):
        return x
    return float(f"{x:.{digits}g}")


def shown_relation(st) -> str | None:
    """The relation a step's two numbers satisfy, as the record reads them (None: a side is not a number)."""
    if st.numbers == "undefined":
        return None
    if st.numbers == "hold":
        return REL[st.strict]
    if st.numbers == "fail":
        return ">"
    return "=" if st.lhs == st.rhs else r"\approx"  # within the tolerance only


#: the mark over a step's printed relation, by (verdict, numbers); none for a step that holds
_MARKS = {("tol", "tol"): "tol", ("fails", "fail"): "FAILS", ("assumption", "fail"): "assumption fails",
          ("na", "hold"): "n/a", ("na", "tol"): "n/a, tol", ("na", "fail"): "n/a: fails"}


def _mark(st) -> str:
    """The relation as printed in the state block, with its verdict's mark."""
    rel = shown_relation(st)
    if rel is None:
        return r"\overset{" + ("\\text{n/a, ?}" if st.verdict == "na" else "?") + "}{" + REL[st.strict] + "}"
    note = _MARKS.get((st.verdict, st.numbers))
    return rel if note is None else r"\overset{\text{" + note + "}}{" + rel + "}"


def _chain_digits(steps: list, n_keys: int) -> list[int]:
    """Per key of a chain, the digits that make every printed pair show its printed relation."""
    digits = [0] * n_keys
    for _round in range(len(_DIGITS) * n_keys + 1):  # each pass that changes something raises a key
        changed = False
        for i, st in enumerate(steps):
            rel = shown_relation(st)
            if rel not in _TRUE:
                continue
            while not _TRUE[rel](_printed(st.lhs, _DIGITS[digits[i]]), _printed(st.rhs, _DIGITS[digits[i + 1]])):
                if digits[i] == digits[i + 1] == len(_DIGITS) - 1:
                    break  # 17 digits print every float exactly: cannot happen
                digits[i] = digits[i + 1] = min(max(digits[i], digits[i + 1]) + 1, len(_DIGITS) - 1)
                changed = True
        if not changed:
            break
    return [_DIGITS[d] for d in digits]


def num_pair(a: float, b: float, rel: str, digits: int = 6) -> tuple[str, str]:
    """``a`` and ``b`` printed with as many digits as it takes for the printed numbers to satisfy ``rel``
    (which holds for a and b)."""
    for d in [x for x in _DIGITS if x >= digits]:
        if _TRUE[rel](_printed(a, d), _printed(b, d)):
            return num(a, d), num(b, d)
    return num(a, 17), num(b, 17)


def _step_text(proof, st, rel: str | None = None) -> list:
    """A step named in a sentence: its chain and a relation between its two sides (by default the one
    its numbers satisfy; the claim where they are not numbers)."""
    rel = rel or shown_relation(st) or REL[st.strict]
    return [f"{st.chain}: ", Math(f"{short(proof, st.lo, st.log)} {rel} {short(proof, st.hi, st.log)}")]


def _listing(proof, steps: list, claim: bool = False) -> list:
    out: list = []
    for j, st in enumerate(steps):
        out += (["; "] if j else []) + _step_text(proof, st)
        if claim:
            out += [" (its claim: ", Math(REL[st.strict]), ")"]
    return out


def _by_why(steps: list) -> list:
    """Steps whose sides are not numbers, grouped by the proof's reason."""
    groups: dict[str, list] = {}
    for st in steps:
        groups.setdefault(st.why, []).append(st)
    return list(groups.items())


def state_blocks(proof, k: int) -> list:
    """Every chain of the proof in state ``k`` from its record, each link written with the relation its
    two numbers satisfy (never one they contradict), and a closing sentence wording each step's verdict."""
    steps = proof.steps(k)
    out: list = []
    i = 0
    for ch in proof.chains:
        n = len(ch.keys) - 1
        mine = steps[i:i + n]
        i += n
        digits = _chain_digits(mine, len(ch.keys))
        lines = []
        for j, key in enumerate(ch.keys):
            text = f"{side(proof, key, ch.log)} = {num(proof.series[key][k], digits[j])}"
            lines.append("&" + text if j == 0 else f"{_mark(mine[j - 1])}\\ &{text}")
        out.append(("p", [ch.name + ":"]))
        out.append(("math", "\\begin{aligned}\n" + " \\\\\n".join(lines) + "\n\\end{aligned}"))
    out.append(("p", state_sentence(proof, steps)))
    return out


def state_sentence(proof, steps: list) -> list:
    """The closing sentence of a state: which steps hold, which only within the tolerance, which are not
    applicable (and what their numbers say), which restate a false assumption, which fail, which could not
    be evaluated and why."""
    of = {v: [s for s in steps if s.verdict == v] for v in ("holds", "tol", "fails", "undefined", "na", "assumption")}
    if len(of["holds"]) == len(steps):
        return ["Every inequality above holds."]
    hold = len(of["holds"])
    out: list = [f"Of the {len(steps)} steps above, {hold} {'holds' if hold == 1 else 'hold'}"
                 + (" (every step not listed below)." if hold else ".")]
    tol = of["tol"]
    if tol:
        out += [f" {len(tol)} {'holds' if len(tol) == 1 else 'hold'} only up to the check's relative tolerance of "
                f"{proof.bound_tol:g} (marked tol: the printed numbers are equal, or ordered the other way by less "
                "than the tolerance): "] + _listing(proof, tol, claim=True) + ["."]
    out += _na_sentences(proof, of["na"])
    if of["fails"]:
        n = len(of["fails"])
        out += [f" FAILS here: {n} {'step' if n == 1 else 'steps'} the proof claims on these data "
                f"{'is' if n == 1 else 'are'} false (marked FAILS): "]
        for j, st in enumerate(of["fails"]):
            out += (["; "] if j else []) + _step_text(proof, st) + [f" ({st.name}: {st.lhs!r} vs {st.rhs!r})"]
        out += ["."]
    if of["assumption"]:
        n = len(of["assumption"])
        names = _quoted(sorted({s.restates for s in of["assumption"]}))
        out += [f" {n} {'is' if n == 1 else 'are'} the theorem's assumption {names} itself, false in this state "
                "(marked assumption fails, written with the relation that holds): "]
        out += _listing(proof, of["assumption"], claim=True) + ["; the steps that need it are not claimed here."]
    for why, group in _by_why(of["undefined"]):
        n = len(group)
        out += [f" {n} could not be evaluated in this state (marked ?, not checked): a side is not a number"
                + (f" ({why})" if why else "") + ": "] + _listing(proof, group) + ["."]
    return out


def _na_sentences(proof, na: list) -> list:
    """The steps that need an assumption failing on these data, by what their numbers say."""
    out: list = []
    true = [s for s in na if s.numbers in ("hold", "tol")]
    false = [s for s in na if s.numbers == "fail"]
    blank = [s for s in na if s.numbers == "undefined"]

    def needs(group):
        names = sorted({n for s in group for n in s.failed})
        return (f"{'it needs' if len(group) == 1 else 'they need'} {_quoted(names)}, which {_fail_verb(names)} on "
                "these data")
    if true:
        within = " (up to the check's tolerance where marked n/a, tol)" if any(s.numbers == "tol" for s in true) else ""
        out += [f" {len(true)} {'is' if len(true) == 1 else 'are'} not applicable (marked n/a): true on these "
                f"numbers{within}, but {needs(true)}: "] + _listing(proof, true) + ["."]
    if false:
        n = len(false)
        out += [f" {n} {'fails' if n == 1 else 'fail'} here (marked n/a: fails, written with the relation that "
                "holds): "] + _listing(proof, false, claim=True)
        out += [f"; {needs(false)}, so the proof does not claim {'it' if n == 1 else 'them'} here."]
    if blank:
        n = len(blank)
        out += [f" {n} {'is' if n == 1 else 'are'} not applicable and not evaluated (marked n/a, ?): "
                f"{needs(blank)}, and a side is not a number here"]
        whys = sorted({s.why for s in blank if s.why})
        out += ([f" ({'; '.join(whys)})"] if whys else []) + [": "] + _listing(proof, blank) + ["."]
    return out


# ------------------------------------------------------------------------------------ the whole run

def _link_math(proof, lk) -> Math:
    return Math(f"{short(proof, lk.lo, lk.log)} {REL[lk.strict]} {short(proof, lk.hi, lk.log)}")


def _link_item(proof, s, K: int) -> list:
    """One link over the whole run, from its summary: every verdict it had, in how many states, and why."""
    lk = s.link
    head: list = [f"{lk.chain}: ", _link_math(proof, lk), ": "]
    if lk.failed:
        held = s.count_numbers("hold") + s.count_numbers("tol")
        parts = [f"its numbers satisfy it in {_states(held)}" if held else "",
                 f"they do not in {_states(s.count_numbers('fail'))} (first {when(s.first_failing[:3])})"
                 if s.count_numbers("fail") else "",
                 f"a side is not a number in {_states(s.count_numbers('undefined'))}"
                 + (f" ({s.why})" if s.why else "") if s.count_numbers("undefined") else ""]
        return head + [f"not applicable in all {_states(K)}: it needs {_quoted(lk.failed)}, which "
                       f"{_fail_verb(lk.failed)} on these data, so the proof does not claim it here (not counted as "
                       "a failure); " + "; ".join(p for p in parts if p) + "."]
    held = s.count("holds") + s.count("tol")
    parts = [f"evaluated and held in {held} of the {_states(K)}"
             + (f" ({s.count('tol')} only up to the tolerance)" if s.count("tol") else "")] if held else []
    if s.count("undefined"):
        u = s.count("undefined")
        parts.append((f"could not be evaluated in any of the {_states(K)}" if u == K else
                      f"could not be evaluated in {_states(u)}") + ", a side not being a number"
                     + (f" ({s.why})" if s.why else "") + ("" if u == K else f" (first {when(s.first_undefined[:3])})"))
    if s.count("assumption"):
        parts.append(f"false in {_states(s.count('assumption'))} (first {when(s.first_failing[:3])}): it is the "
                     f"theorem's assumption '{lk.restates}' itself, so the steps that need it are not claimed")
    if s.count("fails"):
        parts.append(f"FAILS in {_states(s.count('fails'))} (first {when(s.first_failing[:3])}): a step the proof "
                     "claims on these data is false")
    return head + ["; ".join(parts) + "."]


def checks_words(S) -> str:
    """The whole run's checks (a link in a state) by verdict, in one sentence's words."""
    held, tol = S.count("holds") + S.count("tol"), S.count("tol")
    parts = [f"{_checks(held)} evaluated and held" + (f" ({tol} only up to the tolerance)" if tol else "")] if held else []
    if S.count("undefined"):
        parts.append(f"{_checks(S.count('undefined'))} could not be evaluated on these data (a side is not a number)")
    if S.count("na"):
        parts.append(f"{_checks(S.count('na'))} not applicable (a step that needs an assumption failing on these data)")
    if S.count("assumption"):
        parts.append(f"{_checks(S.count('assumption'))} where the theorem's assumption, restated as a step, is false")
    if S.count("fails"):
        parts.append(f"{_checks(S.count('fails'))} failed")
    return "; ".join(parts)


def whole_run(proof) -> list:
    """The whole run's checks from the record's summary: all hold, or per link what was evaluated and held,
    what could not be evaluated and why, what is not applicable and why, what failed (then the first
    ``MAX_VIOLATIONS`` failing checks with both sides)."""
    S = proof.summary()
    n, K = len(S.links), S.states
    out: list = [("h", 2, ["Checks over the whole run"])]
    where = "(every state the learner was in, each round's included)"
    if S.all_hold:
        tol = S.count("tol")
        out.append(("p", [(f"All {n} inequalities of the proof hold" if n > 1 else "The proof's one inequality holds")
                          + f" in every one of its {K} states {where}"
                          + (f"; {tol} of these {S.checks} checks {'holds' if tol == 1 else 'hold'} only up to "
                             f"the relative tolerance of {proof.bound_tol:g}" if tol else "") + "."]))
        return out
    full = [s for s in S.links if s.count("holds") + s.count("tol") == K]
    others = [s for s in S.links if s not in full]
    if full:
        held = f"{len(full)} of the inequalities {'holds' if len(full) == 1 else 'hold'} in every state; "
        rest = "the other one:" if len(others) == 1 else f"the other {len(others)}:"
    else:
        held, rest = ("It does not hold in every state:" if n == 1 else "None holds in every state:"), ""
    each = f"Each of the proof's {n} inequalities was" if n > 1 else "The proof's one inequality was"
    out.append(("p", [f"{each} checked in every one of its {K} states {where}: {S.checks} checks. " + held + rest]))
    out.append(("ul", [_link_item(proof, s, K) for s in others]))
    out.append(("p", ["In all: " + checks_words(S) + "."]))
    if S.defect:
        out += _failures(proof, S)
    return out


def _failures(proof, S) -> list:
    """The first failing checks of steps the proof claims (verdict ``fails``), with both sides."""
    rows = []
    for s in S.having("fails"):
        lk = s.link
        ks = proof.states_with(lk.name, "fails")[:MAX_VIOLATIONS]
        a, b = proof.series[lk.lo], proof.series[lk.hi]
        rows += [(int(proof.state_rounds[k]), lk, float(a[k]), float(b[k])) for k in ks]
    rows.sort(key=lambda r: (r[0], r[1].chain, r[1].name))
    total = S.count("fails")
    out: list = [("p", [f"{total} {'check fails' if total == 1 else 'checks fail'} (a step the proof claims, in a "
                        f"state); the first {min(total, MAX_VIOLATIONS)}:"])]
    items = []
    for r, lk, a, b in rows[:MAX_VIOLATIONS]:
        sa, sb = num_pair(a, b, ">")
        items.append([f"{when([r])}, {lk.chain}: ", Math(f"{sa} > {sb}"), f" ({lk.name})"])
    out.append(("ul", items))
    return out
