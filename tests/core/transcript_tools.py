"""Helpers the transcript tests share: the maths segments of a Markdown transcript, a section of it,
and a LaTeX compile."""
from __future__ import annotations

import shutil
import subprocess
from pathlib import Path


def math_segments(md: str) -> list[tuple[str, bool]]:
    """Every maths segment of the Markdown, ``(tex, display)``, in order: ``$$…$$`` and ``$…$``,
    a backslash-escaped character (``\\$``) being text, as Markdown reads it."""
    out: list[tuple[str, bool]] = []
    i, n = 0, len(md)
    while i < n:
        c = md[i]
        if c == "\\":
            i += 2
            continue
        if c == "$":
            display = md.startswith("$$", i)
            delim = "$$" if display else "$"
            j = md.find(delim, i + len(delim))
            if j < 0:
                raise AssertionError(f"unclosed {delim} at {i}: {md[i:i + 80]!r}")
            out.append((md[i + len(delim):j], display))
            i = j + len(delim)
            continue
        i += 1
    return out


def section(md: str, heading: str) -> str:
    """The text under ``heading`` (a whole heading line) up to the next heading of any level."""
    lines = md.splitlines()
    start = lines.index(heading)
    end = next((k for k in range(start + 1, len(lines)) if lines[k].startswith("#")), len(lines))
    return "\n".join(lines[start + 1:end])


def tex_engine() -> str | None:
    return shutil.which("pdflatex")


def compile_tex(tex: str, workdir: Path) -> tuple[int, str]:
    """pdflatex on the source (batch mode, stop at the first error): (return code, log tail)."""
    src = workdir / "transcript.tex"
    src.write_text(tex, encoding="ascii")
    proc = subprocess.run([tex_engine(), "-interaction=nonstopmode", "-halt-on-error", "-no-shell-escape",
                           src.name], cwd=workdir, capture_output=True, text=True, timeout=120)
    log = (workdir / "transcript.log")
    tail = log.read_text(errors="replace")[-3000:] if log.exists() else proc.stdout[-3000:]
    return proc.returncode, tail


# ------------------------------------------------------------------------------ printed relations

import math as _math
import re as _re

_NUM = r"-?\\infty|-?\d+(?:\.\d+)?(?:\\times 10\^\{-?\d+\})?"
_OVERSET = r"\\overset\{(?:[^{}]|\{[^{}]*\})*\}\{(?:[^{}]|\{[^{}]*\})*\}"
_REL = (_OVERSET + r"|\\nleq|\\nless|\\not\\le(?![a-z])|\\not<|\\leq?(?![a-z])|\\geq?(?![a-z])|\\approx|\\ne(?![a-z])"
        r"|<|>|=")
#: a number, a relation and a number in inline maths: "M = 40 \le 70.79", "1 > 0.5"
_INLINE = _re.compile(rf"(?:^|=\s*|\(\s*|,\s*)({_NUM})\s*({_REL})\s*({_NUM})(?![\d.]|\\times)")
#: a line of an aligned block: "[relation\ ]&label = number"
_LINE = _re.compile(rf"^\s*(?:({_REL})\\ )?&(.*?)(?: = ({_NUM}))?\s*$")


def number(s: str) -> float:
    """A number as the transcript prints it (olc_core._transcript.texdoc.num)."""
    s = s.strip()
    if s.endswith(r"\infty"):
        return -_math.inf if s.startswith("-") else _math.inf
    if r"\times 10^" in s:
        mant, exp = s.split(r"\times 10^")
        return float(mant) * 10.0 ** int(exp.strip("{}"))
    return float(s)


def _bare(rel: str) -> tuple[str, str]:
    """(the relation, its annotation) of ``\\overset{annotation}{relation}`` or a plain relation."""
    m = _re.fullmatch(r"\\overset\{((?:[^{}]|\{[^{}]*\})*)\}\{((?:[^{}]|\{[^{}]*\})*)\}", rel)
    return (m.group(2).strip(), m.group(1)) if m else (rel.strip(), "")


def relation_holds(a: float, rel: str, b: float) -> bool | None:
    """Whether ``a rel b`` is true for these numbers (None: a relation that asserts no order, e.g. ≈)."""
    r, note = _bare(rel)
    if "?" in note:
        return None
    table = {r"\le": a <= b, r"\leq": a <= b, "<": a < b, ">": a > b, r"\ge": a >= b, r"\geq": a >= b, "=": a == b,
             r"\nleq": not a <= b, r"\not\le": not a <= b, r"\nless": not a < b, r"\not<": not a < b,
             r"\ne": a != b}
    if r == r"\approx":
        return None
    if r not in table:
        raise AssertionError(f"unknown relation {rel!r}")
    return table[r]


def tex_math_segments(tex: str) -> list[tuple[str, bool]]:
    r"""Every maths segment of a LaTeX transcript's body, ``(tex, display)``: ``\[…\]`` and ``$…$``
    (``\$`` and other escapes being text)."""
    body = tex[tex.index("%% --- the transcript"):]
    out: list[tuple[str, bool]] = []
    i, n = 0, len(body)
    while i < n:
        c = body[i]
        if body.startswith(r"\[", i):
            j = body.index(r"\]", i + 2)
            out.append((body[i + 2:j], True))
            i = j + 2
            continue
        if c == "\\":
            i += 2
            continue
        if c == "$":
            j = i + 1
            while body[j] != "$":
                j += 2 if body[j] == "\\" else 1
            out.append((body[i + 1:j], False))
            i = j + 1
            continue
        i += 1
    return out


def printed_relations(segments: list[tuple[str, bool]]) -> list[tuple[float, str, float, str]]:
    """Every relation printed between two numbers: ``(a, relation, b, where)``. In a displayed aligned
    block, line k's relation relates line k−1's number to line k's; in inline maths, a number, a
    relation and a number written next to each other."""
    out: list[tuple[float, str, float, str]] = []
    for seg, display in segments:
        if display:
            prev = None
            body = seg.replace(r"\begin{aligned}", "").replace(r"\end{aligned}", "")
            for line in body.split("\\\\"):
                line = line.strip()
                if not line:
                    continue
                m = _LINE.match(line)
                if not m:
                    prev = None
                    continue
                rel, value = m.group(1), m.group(3)
                cur = number(value) if value is not None else None
                if rel is not None and prev is not None and cur is not None:
                    out.append((prev, rel, cur, line))
                prev = cur
        else:
            for m in _INLINE.finditer(seg):
                out.append((number(m.group(1)), m.group(2), number(m.group(3)), seg))
    return out


def false_relations(segments: list[tuple[str, bool]]) -> list[str]:
    """The printed relations that are false for their own printed numbers."""
    return [f"{a!r} {rel} {b!r} in {where!r}" for a, rel, b, where in printed_relations(segments)
            if relation_holds(a, rel, b) is False]
