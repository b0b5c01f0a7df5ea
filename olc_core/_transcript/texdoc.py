r"""A tiny document model and its two renderings: Markdown with KaTeX maths, and LaTeX source.

A document is a list of blocks; a block's text is a list of pieces, each either plain text
(``str``: any characters, escaped by the renderer, folded onto one line) or :class:`Math`
(trusted LaTeX written in this code base, with numbers from the run). Untrusted text (a file
name, a value from a link) only ever travels as plain text, so it can never open a link, an
image, HTML, maths or a LaTeX command in either rendering.

The LaTeX rendering is pure ASCII (Greek letters, arrows, accents … are written as LaTeX
commands; a character with no LaTeX spelling becomes ``[U+XXXX]``): it compiles with pdflatex,
xelatex or lualatex and needs only amsmath and amssymb.

>>> doc = [("h", 1, ["Run of ", "[x](http://a.b)"]), ("p", ["γ = ", Math(r"\gamma = 0.1"), "."])]
>>> print(markdown(doc))
# Run of \[x\](http⁠\://a.b)
<BLANKLINE>
γ = $\gamma = 0.1$.
<BLANKLINE>
>>> md_text("$\\color{red}{X}$ _a_ <b>")
'\\$\\\\color{red}{X}\\$ \\_a\\_ \\<b\\>'
>>> print(tex_text("50% of $x_1 & {y}: γ ≤ é"))
50\% of \$x\_1 \& \{y\}: \ensuremath{\gamma} \ensuremath{\le} \'{e}
"""
from __future__ import annotations

import html as _html
import math
import re
import unicodedata

__all__ = ["Math", "markdown", "latex", "html", "md_text", "tex_text", "clip", "num"]


class Math(str):
    """Trusted LaTeX maths (inline; a ``("math", …)`` block is displayed)."""


# ------------------------------------------------------------------------------------ plain text

def clip(raw: object, n: int = 80) -> str:
    """``raw`` on one line, at most ``n`` characters: white space and control/format characters
    (newlines, NUL, bidi overrides, zero-width joiners …) become single spaces; longer text is cut
    with an ellipsis."""
    s = "".join(" " if (c.isspace() or unicodedata.category(c) in ("Cc", "Cf", "Zl", "Zp", "Co", "Cs"))
                else c for c in str(raw)[: 4 * n + 16])
    s = " ".join(s.split())
    return s if len(s) <= n else s[: n - 1] + "…"


def _fold(s) -> str:
    """One line: every run of white space (newlines included) becomes one space."""
    return re.sub(r"\s+", " ", str(s))


#: Markdown: the ASCII characters that can start markup (links, images, emphasis, code, HTML,
#: entities, maths, tables, headings, lists, shortcodes, autolinks) are backslash-escaped (a colon
#: only when text follows it at once, as in a shortcode or a URL).
_MD_SPECIAL = re.compile(r"([\\`*_\[\]<>#!|$~@&^]|:(?=\S))")
#: what starts a list item, a heading underline or a rule when it opens a line
_MD_LINE_START = re.compile(r"^(\d+)([.)])|^([-+=])")
_WJ = "\u2060"  # WORD JOINER: breaks the autolink triggers (www, a@b, http:) a renderer finds in text
_WWW = re.compile(r"(w)(w)(w)", re.IGNORECASE)


def md_text(s: str) -> str:
    """Markdown source that renders exactly the text ``s`` (folded onto one line)."""
    s = _fold(s)
    s = _MD_SPECIAL.sub(r"\\\1", s)
    s = s.replace("\\:", _WJ + "\\:").replace("\\@", _WJ + "\\@")
    s = _WWW.sub(lambda m: m.group(1) + m.group(2) + _WJ + m.group(3), s)
    return _MD_LINE_START.sub(lambda m: (m.group(1) + "\\" + m.group(2)) if m.group(1) else "\\" + m.group(3), s)


_TEX_ASCII = {"\\": r"\textbackslash{}", "{": r"\{", "}": r"\}", "$": r"\$", "&": r"\&", "#": r"\#",
              "%": r"\%", "_": r"\_", "^": r"\textasciicircum{}", "~": r"\textasciitilde{}",
              "<": r"\textless{}", ">": r"\textgreater{}", "|": r"\textbar{}", '"': "''"}

_GREEK = {"α": "alpha", "β": "beta", "γ": "gamma", "δ": "delta", "ε": "varepsilon", "ζ": "zeta", "η": "eta",
          "θ": "theta", "ι": "iota", "κ": "kappa", "λ": "lambda", "μ": "mu", "ν": "nu", "ξ": "xi", "π": "pi",
          "ρ": "rho", "σ": "sigma", "τ": "tau", "φ": "varphi", "χ": "chi", "ψ": "psi", "ω": "omega",
          "Γ": "Gamma", "Δ": "Delta", "Θ": "Theta", "Λ": "Lambda", "Ξ": "Xi", "Π": "Pi", "Σ": "Sigma",
          "Φ": "Phi", "Ψ": "Psi", "Ω": "Omega"}
_MATH_SYMBOLS = {"⟨": r"\langle", "⟩": r"\rangle", "‖": r"\|", "≤": r"\le", "≥": r"\ge", "≠": r"\ne",
                 "−": "-", "→": r"\to", "←": r"\leftarrow", "⇒": r"\Rightarrow", "⇔": r"\Leftrightarrow",
                 "↦": r"\mapsto", "⊆": r"\subseteq", "⊂": r"\subset", "⊇": r"\supseteq", "∈": r"\in",
                 "∉": r"\notin", "∅": r"\emptyset", "∞": r"\infty", "×": r"\times", "·": r"\cdot",
                 "√": r"\surd", "∑": r"\sum", "∠": r"\angle", "≈": r"\approx", "±": r"\pm", "∧": r"\wedge",
                 "∨": r"\vee", "¬": r"\neg", "∀": r"\forall", "∃": r"\exists", "ℓ": r"\ell", "∗": "*",
                 "⌈": r"\lceil", "⌉": r"\rceil", "⌊": r"\lfloor", "⌋": r"\rfloor", "∪": r"\cup",
                 "∩": r"\cap", "∖": r"\setminus", "✓": r"\checkmark", "✗": r"\times", "°": r"^\circ",
                 "≪": r"\ll", "≫": r"\gg", "∣": "|", "∘": r"\circ", "⋯": r"\cdots", "∝": r"\propto",
                 "𝔼": r"\mathbb{E}", "ℝ": r"\mathbb{R}", "ℕ": r"\mathbb{N}", "∂": r"\partial",
                 "∇": r"\nabla"}
_SUP = dict(zip("⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻ⁿⁱ", "0123456789+-ni"))
_SUB = dict(zip("₀₁₂₃₄₅₆₇₈₉₊₋ₜᵢₖₙ", "0123456789+-tikn"))
_PUNCT = {"–": "--", "—": "---", "…": r"\ldots{}", "‘": "`", "’": "'", "“": "``", "”": "''", "«": "<<",
          "»": ">>", "\u00a0": "~", "•": r"\textbullet{}", "§": r"\S{}", "¶": r"\P{}", "©": r"\copyright{}",
          "ß": r"\ss{}", "æ": r"\ae{}", "Æ": r"\AE{}", "ø": r"\o{}", "Ø": r"\O{}", "œ": r"\oe{}",
          "Œ": r"\OE{}", "å": r"\aa{}", "Å": r"\AA{}", "ł": r"\l{}", "Ł": r"\L{}", "ı": r"\i{}"}
_PUNCT["«"] = r"\ensuremath{\ll}"
_PUNCT["»"] = r"\ensuremath{\gg}"
#: combining accents (after NFD) and the LaTeX accent command for each
_ACCENTS = {"\u0301": "'", "\u0300": "`", "\u0302": "^", "\u0308": '"', "\u0303": "~", "\u0327": "c",
            "\u030c": "v", "\u0306": "u", "\u0304": "=", "\u0307": ".", "\u030a": "r", "\u030b": "H",
            "\u0328": "k"}


def _tex_char(c: str) -> str:
    if c in _TEX_ASCII:
        return _TEX_ASCII[c]
    if c.isascii():
        return c
    if c in _GREEK:
        return rf"\ensuremath{{\{_GREEK[c]}}}"
    if c in _MATH_SYMBOLS:
        return rf"\ensuremath{{{_MATH_SYMBOLS[c]}}}"
    if c in _SUP:
        return rf"\textsuperscript{{{_SUP[c]}}}"
    if c in _SUB:
        return rf"\textsubscript{{{_SUB[c]}}}"
    if c in _PUNCT:
        return _PUNCT[c]
    base = unicodedata.normalize("NFD", c)
    if len(base) == 2 and base[0].isascii() and base[0].isalpha() and base[1] in _ACCENTS:
        letter = r"\i" if base[0] == "i" else base[0]
        return rf"\{_ACCENTS[base[1]]}{{{letter}}}"
    return f"[U+{ord(c):04X}]"


_TO_SUB = {v: k for k, v in _SUB.items()}
_TO_SUP = {v: k for k, v in _SUP.items()}
_INDEX_TOKEN = re.compile(r"[^\W_]|\*")  # one letter or digit (any script), or *: as olc_ui.common.index_parts


def plain_index(s: str) -> str:
    """The core's light index notation (``Φ_{t+1}``, ``β^{p_{i*}}``, ``2^M``: what the pages draw as
    sub/superscripts) as plain Unicode text without markup: an index every character of which has a
    Unicode sub/superscript (one both renderings know) is written with them (``Φₜ₊₁``); otherwise a
    braced subscript of letters, digits and * loses its braces (``w_i*``) and any other braced index
    is parenthesised (``β^(p_i*)``, ``m_(t,i)``).

    >>> plain_index("Φ_{t+1} ≤ (1+β)/2·Φ_t; w_{i*} = β^{p_{i*}}; e^{−ηF_t}; 2^M; log_{1+β} N; x^{2}")
    'Φₜ₊₁ ≤ (1+β)/2·Φ_t; w_i* = β^(p_i*); e^(−ηF_t); 2^M; log_(1+β) N; x²'
    """
    out: list[str] = []
    i, n = 0, len(s)
    while i < n:
        c = s[i]
        if c in "_^" and i + 2 < n and s[i + 1] == "{":
            depth, j = 0, i + 1
            while j < n:
                depth += {"{": 1, "}": -1}.get(s[j], 0)
                if depth == 0:
                    break
                j += 1
            if j < n:
                inner = plain_index(s[i + 2:j])
                table = _TO_SUB if c == "_" else _TO_SUP
                if inner and all(ch in table for ch in inner):
                    out.append("".join(table[ch] for ch in inner))
                elif c == "_" and all(_INDEX_TOKEN.fullmatch(ch) for ch in inner):
                    out.append("_" + inner)
                elif c == "^" and len(inner) == 1:
                    out.append("^" + inner)
                else:
                    out.append(f"{c}({inner})")
                i = j + 1
                continue
        out.append(c)
        i += 1
    return "".join(out)


def tex_text(s: str) -> str:
    """LaTeX source (pure ASCII) that typesets exactly the text ``s`` (folded onto one line)."""
    return "".join(_tex_char(c) for c in _fold(s))


# ------------------------------------------------------------------------------------ numbers

def num(x, digits: int = 6) -> str:
    """A number as LaTeX maths: integers in full, others to ``digits`` significant digits, powers of
    ten as ``\\times 10^{k}``, ±∞ as ``\\infty``, NaN as ``\\text{undefined}``.

    >>> [num(v) for v in (3.0, -0.1234567, 2.5e-12, float("inf"), float("nan"), 10**20)]
    ['3', '-0.123457', '2.5\\\\times 10^{-12}', '\\\\infty', '\\\\text{undefined}', '1\\\\times 10^{20}']
    """
    x = float(x)
    if math.isnan(x):
        return r"\text{undefined}"
    if math.isinf(x):
        return r"\infty" if x > 0 else r"-\infty"
    if x == int(x) and abs(x) < 1e15:
        return str(int(x))
    s = f"{x:.{digits}g}"
    if "e" in s:
        mant, exp = s.split("e")
        return rf"{mant}\times 10^{{{int(exp)}}}"
    return s


# ------------------------------------------------------------------------------------ rendering

def _inline(pieces, text, math_) -> str:
    return "".join(math_(p) if isinstance(p, Math) else text(p) for p in pieces)


def markdown(doc: list) -> str:
    """The document as Markdown: ``$…$`` inline and ``$$…$$`` display maths (KaTeX)."""
    out: list[str] = []
    line = (lambda pieces: _inline(pieces, md_text, lambda m: f"${m}$"))
    for block in doc:
        kind = block[0]
        if kind == "h":
            out.append("#" * block[1] + " " + line(block[2]))
        elif kind == "p":
            out.append(line(block[1]))
        elif kind == "ul":
            out.append("\n".join("- " + line(item) for item in block[1]))
        elif kind == "math":
            out.append(f"$$\n{block[1]}\n$$")
        elif kind == "raw_md":
            out.append(block[1])
        elif kind == "raw_tex":
            continue
        else:
            raise ValueError(f"unknown block {kind!r}")
        out.append("")
    return "\n".join(out)


def html(doc: list) -> str:
    r"""The document as an HTML fragment (Jupyter's rich display): text escaped, maths as ``$…$`` (Jupyter
    typesets it; elsewhere the LaTeX reads as it is, escaped too). ``raw_md``/``raw_tex`` blocks are left out.

    >>> print(html([("h", 3, ["a <b>"]), ("p", ["x ", Math(r"M < 2")]), ("ul", [["one"], ["two"]])]))
    <h3>a &lt;b&gt;</h3><p>x $M &lt; 2$</p><ul><li>one</li><li>two</li></ul>
    """
    line = (lambda pieces: _inline(pieces, lambda t: _html.escape(_fold(t), quote=False),
                                   lambda m: "$" + _html.escape(m, quote=False) + "$"))
    out: list[str] = []
    for block in doc:
        kind = block[0]
        if kind == "h":
            out.append(f"<h{block[1]}>{line(block[2])}</h{block[1]}>")
        elif kind == "p":
            out.append(f"<p>{line(block[1])}</p>")
        elif kind == "ul":
            out.append("<ul>" + "".join(f"<li>{line(item)}</li>" for item in block[1]) + "</ul>")
        elif kind == "math":
            out.append("<p>$$" + _html.escape(block[1], quote=False) + "$$</p>")
        elif kind not in ("raw_md", "raw_tex"):
            raise ValueError(f"unknown block {kind!r}")
    return "".join(out)


_TEX_HEADINGS = {1: "section*", 2: "subsection*", 3: "subsubsection*", 4: "paragraph*"}


def latex(doc: list, *, title: str = "") -> str:
    """The document as a standalone LaTeX file; the body between the two ``%%`` marker lines can be
    pasted into other notes (it needs amsmath and amssymb)."""
    line = (lambda pieces: _inline(pieces, tex_text, lambda m: f"${m}$"))
    body: list[str] = []
    for block in doc:
        kind = block[0]
        if kind == "h":
            body.append(f"\\{_TEX_HEADINGS[block[1]]}{{{line(block[2])}}}")
        elif kind == "p":
            body.append(line(block[1]) + "\n")
        elif kind == "ul":
            body.append("\\begin{itemize}\n" + "\n".join("  \\item " + line(item) for item in block[1])
                        + "\n\\end{itemize}")
        elif kind == "math":
            body.append(f"\\[\n{block[1]}\n\\]")
        elif kind == "raw_tex":
            body.append(block[1])
        elif kind == "raw_md":
            continue
        else:
            raise ValueError(f"unknown block {kind!r}")
    head = ("\\documentclass[11pt]{article}\n\\usepackage{amsmath,amssymb}\n"
            "\\setlength{\\parindent}{0pt}\\setlength{\\parskip}{0.5em}\n\\sloppy\n"
            f"\\title{{{tex_text(title)}}}\n\\date{{}}\n\\begin{{document}}\n\\maketitle\n")
    return (head + "%% --- the transcript (paste from here) ---\n" + "\n".join(body)
            + "\n%% --- end of the transcript ---\n\\end{document}\n")
