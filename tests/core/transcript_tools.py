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
