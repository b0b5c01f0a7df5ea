"""The one way text a student (or a link) supplied reaches the page: as inert text, cut short.

Text from a URL, an uploaded file's name, header or cells is untrusted. Streamlit renders
the body of ``st.markdown``, ``st.warning``, ``st.error``, ``st.info`` … as Markdown with
HTML, KaTeX maths (``$…$``), emoji and icon shortcodes (``:smile:``, ``:material/home:``),
coloured text (``:red[…]``) and GitHub's *autolinks* (``https://…``, ``www.…``,
``me@host.org`` become live links even inside escaped text). So:

- :func:`quote` is what a message uses to *name* an untrusted value: the value cut to
  :data:`SHOWN` characters (with an ellipsis), white space and control characters folded,
  in quotes. It is plain text; it does not make the value safe for Markdown by itself.
- :func:`md` turns any plain text (a whole message, which may hold quoted values) into
  Markdown source that renders exactly that text: every ASCII punctuation character is
  backslash-escaped (no link, image, emphasis, HTML, maths or shortcode can start), and an
  invisible word joiner (U+2060) breaks the three autolink triggers (``:`` as in ``https:``,
  ``@``, and ``www``), which the Markdown renderer recognises in plain text nodes whatever
  the escapes.
- :func:`notice` shows a message: a *trusted* lead (Markdown written in this code base)
  followed by plain text passed through :func:`md`. Pages never put an exception's text,
  a URL value or a file's contents into an f-string given to ``st.markdown``/``st.warning``.

>>> quote("[click me](https://example.org/x)")
"'[click me](https://example.org/x)'"
>>> len(quote("x" * 3000)), quote("x" * 3000)[-3:]
(82, "x…'")
>>> quote("a\\nb\\x00c")
"'a b c'"
>>> md("**X** $y$ <b>z</b>")
'\\\\*\\\\*X\\\\*\\\\* \\\\$y\\\\$ \\\\<b\\\\>z\\\\<\\\\/b\\\\>'
>>> "\\u2060" in md("https://host/x") and "\\u2060" in md("www.example.org") and "\\u2060" in md("a@b.org")
True
"""
from __future__ import annotations

import re
import unicodedata

import streamlit as st

__all__ = ["SHOWN", "clip", "quote", "md", "notice"]

#: at most this many characters of an untrusted value are shown
SHOWN = 80

_PUNCT = re.compile(r"([!-/:-@\[-`{-~])")   # every ASCII punctuation character
_WJ = "\u2060"                               # WORD JOINER: invisible, breaks an autolink trigger
_WWW = re.compile(r"(w)(w)(w)", re.IGNORECASE)


def clip(raw: object, n: int = SHOWN) -> str:
    """``raw`` as one line of at most ``n`` characters: white space and control characters
    (newlines, tabs, NUL, bidi overrides …) become single spaces, and a longer value is cut
    with an ellipsis."""
    s = "".join(" " if (c.isspace() or unicodedata.category(c) in ("Cc", "Cf", "Zl", "Zp")) else c
                for c in str(raw)[: 4 * n + 16])
    s = " ".join(s.split())
    return s if len(s) <= n else s[: n - 1] + "…"


def quote(raw: object, n: int = SHOWN) -> str:
    """An untrusted value named in a message: clipped (:func:`clip`) and in quotes."""
    return f"'{clip(raw, n)}'"


def md(text: object) -> str:
    """Markdown source that Streamlit renders as exactly ``text`` (on one line): nothing in it
    can become a link, an image, emphasis, HTML, maths, an emoji or an icon."""
    s = " ".join(str(text).split())
    s = _PUNCT.sub(r"\\\1", s)
    s = s.replace("\\:", _WJ + "\\:").replace("\\@", _WJ + "\\@")
    return _WWW.sub(lambda m: m.group(1) + m.group(2) + _WJ + m.group(3), s)


def notice(kind: str, lead: str, text: object, *, where=None) -> None:
    """Show ``lead`` (trusted Markdown from this code base) then ``text`` (plain, inert) in a
    ``st.warning`` / ``st.error`` / ``st.info`` / ``st.caption`` box. ``where``: a container
    (default: the page)."""
    if kind not in ("warning", "error", "info", "success", "caption", "markdown"):
        raise ValueError(f"unknown kind of notice {kind!r}")
    getattr(where if where is not None else st, kind)(lead + md(text))
