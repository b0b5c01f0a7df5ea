"""Counted nouns for messages a student reads: "1 round has", "27 rounds have"."""
from __future__ import annotations


def count(n, noun: str, plural: str | None = None) -> str:
    """``count(1, "round") == "1 round"``, ``count(3, "round") == "3 rounds"``."""
    n = int(n)
    return f"{n} {noun if n == 1 else (plural or noun + 's')}"


def agree(n, one: str, many: str) -> str:
    """The word that agrees with a count: ``agree(1, "has", "have") == "has"``."""
    return one if int(n) == 1 else many
