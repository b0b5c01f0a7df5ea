"""Words for messages a student reads: counted nouns ("1 round has", "27 rounds have"), an assumption's statement
with its closing words set as text."""
from __future__ import annotations

import re

#: an assumption's closing words ("for every round t") in its TeX statement
_WORDS_AT_END = re.compile(r"\s((?:for|on|in) (?:every|each|all)\b[^\\^_{}$]*)$")


def statement_tex(s: str) -> str:
    r"""An assumption's TeX statement with its closing words set as text, never as maths (a statement that sets
    its own words with ``\text`` is kept as it is).

    >>> statement_tex(r"\|x_t\| \le R for every round t")
    '\\|x_t\\| \\le R\\ \\text{for every round t}'
    """
    return s if r"\text" in s else _WORDS_AT_END.sub(lambda m: r"\ \text{" + m.group(1) + "}", s)


def count(n, noun: str, plural: str | None = None) -> str:
    """``count(1, "round") == "1 round"``, ``count(3, "round") == "3 rounds"``."""
    n = int(n)
    return f"{n} {noun if n == 1 else (plural or noun + 's')}"


def agree(n, one: str, many: str) -> str:
    """The word that agrees with a count: ``agree(1, "has", "have") == "has"``."""
    return one if int(n) == 1 else many
