"""Private: what :mod:`olc_core.transcript` is built on.
``texdoc``: a tiny document model rendered as Markdown with KaTeX maths, or as LaTeX source."""
