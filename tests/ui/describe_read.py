"""Reading a chart description back (issue 32 §3): every number in it is written ``name = value`` (a vector
``name = (a, b)``); :func:`read` finds each name a page's oracle knows, checks its printed value against the
oracle's value (the printed digits must be a rounding of it), checks every printed comparison between two
such values (``a = 0.3 ≤ b = 0.31``) on the printed numbers, and fails on any digit left that no name
accounts for (a number read off a plot, with nothing saying what it is)."""
from __future__ import annotations

import math
import re
from decimal import Decimal
from typing import Any

NUM = r"[+\-]?(?:(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?:e[+\-]?\d+)?|∞)|—"
FORMULA = r"(?:¬?x[₀-₉]+(?: ∧ ¬?x[₀-₉]+)*|True)"       # a conjunction of literals
VALUE = re.compile(rf"(?:\((?:{NUM})(?:, (?:{NUM}))*\)|{FORMULA}|{NUM}|e[₀-₉]+)")
REL = re.compile(r"\s*(≤|<|>|≥|≈|vs)\s*$")
LEFT = " (;:,"          # a name starts the text or follows one of these
MASK = "\x00"


def _number(s: str) -> float:
    s = s.replace(",", "")
    if s in ("∞", "+∞"):
        return math.inf
    if s == "-∞":
        return -math.inf
    if s == "—":
        return math.nan
    return float(s)


def _ulp(s: str) -> Decimal:
    """Half a unit in the last printed digit of ``s`` (a number as printed)."""
    s = s.replace(",", "").lstrip("+-")
    mant, _, exp = s.partition("e")
    e = int(exp) if exp else 0
    decimals = len(mant.partition(".")[2])
    return Decimal(5) * Decimal(10) ** (e - decimals - 1)


def close(printed: str, want: Any) -> bool:
    """``printed`` is ``want`` rounded to the digits printed (an int exactly; NaN as "—"; ±inf as ∞)."""
    if isinstance(want, str):
        return printed == want
    got = _number(printed)
    if want is None or (isinstance(want, float) and math.isnan(want)):
        return math.isnan(got)
    if isinstance(want, bool):
        want = int(want)
    if math.isinf(float(want)) or math.isnan(got) or math.isinf(got):
        return got == float(want)
    if isinstance(want, int) and not isinstance(want, bool):
        return got == want
    err = abs(Decimal(repr(float(want))) - Decimal(printed.replace(",", "")))
    # half a unit of the last digit printed; a number sent with 7 significant digits (a chart's own array) and
    # printed with fewer may be rounded twice: 0.5 ulp₇ more at most
    return err <= _ulp(printed) * Decimal("1.002") + Decimal(1e-12) * abs(Decimal(repr(float(want))))


def _holds(a: float, b: float, rel: str) -> bool:
    if rel == "vs" or math.isnan(a) or math.isnan(b):
        return True
    if rel == "≈":
        return abs(a - b) <= 1e-9 * max(abs(a), abs(b), 1.0)
    return {"≤": a <= b, "<": a < b, ">": a > b, "≥": a >= b}[rel]


def read(text: str, oracle: dict[str, Any], allowed: tuple[str, ...] = ()) -> tuple[list[str], dict[str, str]]:
    """Check ``text`` against ``oracle`` ({name: value, a tuple for a vector}); return (problems, {name: printed})."""
    problems: list[str] = []
    seen: dict[str, str] = {}
    t = text.replace("−", "-")
    found = []      # (start, end of value, name, value text)
    for name in sorted(oracle, key=len, reverse=True):
        pat = re.compile(re.escape(name.replace("−", "-")) + " = ")
        for m in pat.finditer(t):
            if m.start() > 0 and t[m.start() - 1] not in LEFT:
                continue
            v = VALUE.match(t, m.end())
            if not v:
                continue
            found.append((m.start(), v.end(), name, v.group(0)))
            t = t[:m.start()] + MASK * (v.end() - m.start()) + t[v.end():]
    found.sort()
    for start, end, name, val in found:
        want = oracle[name]
        seen[name] = val
        if val.startswith("("):
            parts = val[1:-1].split(", ")
            want = tuple(want)
            if len(parts) != len(want) or not all(close(a, b) for a, b in zip(parts, want)):
                problems.append(f"{name} = {val}, the run's {want}")
        elif not close(val, want):
            problems.append(f"{name} = {val}, the run's {want!r}")
    # printed comparisons: "a = 0.3 ≤ b = 0.31" (and "≤ 1" against a literal)
    orig = text.replace("−", "-")
    for (s1, e1, n1, v1), (s2, e2, n2, v2) in zip(found, found[1:]):
        between = orig[e1:s2]
        if between.strip() and REL.match(between) and REL.match(between).group(0) == between:
            rel = between.strip()
            if not v1.startswith("(") and not v2.startswith("(") and not _holds(_number(v1), _number(v2), rel):
                problems.append(f"printed {n1} = {v1} {rel} {n2} = {v2} is false")
    for start, end, name, val in found:
        m = re.match(r" (≤|<|>|≥|vs) (\d+)(?=[.;,)\s]|$)", t[end:])
        if m and not val.startswith("("):
            if not _holds(_number(val), float(m.group(2)), m.group(1)):
                problems.append(f"printed {name} = {val} {m.group(1)} {m.group(2)} is false")
            t = t[:end] + MASK * m.end() + t[end + m.end():]
    for start, end, name, val in found:     # a literal bound before a value: "0 ≤ Φ = 0.3"
        m = re.search(r"(?:^|[\s(,;:])(\d+) (≤|<|>|≥|vs) $", t[:start])
        if m and not val.startswith("("):
            if not _holds(float(m.group(1)), _number(val), m.group(2)):
                problems.append(f"printed {m.group(1)} {m.group(2)} {name} = {val} is false")
            a = m.start(1)
            t = t[:a] + MASK * (start - a) + t[start:]
    for phrase in sorted([*allowed, *oracle], key=len, reverse=True):   # a name written as a formula: "2TDᵧ/γ"
        t = t.replace(phrase.replace("−", "-"), MASK * len(phrase))
    left = re.findall(r"[^\x00]{0,30}\d[^\x00]{0,10}", t)
    if left:
        problems.append(f"numbers that no name accounts for: {left}")
    return problems, seen
