"""The board of a "Beat the bound" game whose learner keeps one weight per variable or expert (Winnow, Weighted
Majority, Randomised WM; issue 35): each weight a bar on a log scale, as a whole power of the game's base
(``w_i = b^{c_i}``: b = 1 + β for Winnow, β or 1 − η for the experts), so the bar's height is ``c_i · log₁₀ b``
with ``log₁₀ b`` computed once here and sent to the browser — the browser's game mode
(assets/viewer_game_bars.js) multiplies the same two floats, so a move it draws is the board this module makes
from the run (tests/ui/test_game_bars_js.py). Bars hang from the weight 1 (height 0): up for a promoted weight,
down for a penalised one.

The vertical range is fixed at the top (the game's constants) and follows the lowest bar of the run at the bottom
(:func:`bottom`); the ticks are the powers of the base on it (:func:`ticks`). A move that lowers the lowest bar
moves the bottom: the browser recomputes both with the same float operations in the same order.

>>> ticks(-1.5, 1.4, 0.3010299956639812, "2")
([-1.2041199826559248, -0.6020599913279624, 0.0, 0.6020599913279624, 1.2041199826559248], ['2⁻⁴', '2⁻²', '1', '2²', '2⁴'])
>>> bottom(-0.9, 0.0, 0.25)
-1.15
"""
from __future__ import annotations

import math

__all__ = ["ticks", "bottom", "power_text", "arrays_of", "with_run", "STEPS", "MAX_TICKS"]

STEPS = (1, 2, 5, 10, 20, 50, 100, 200, 500, 1000)
MAX_TICKS = 8
_SUP = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")


def power_text(base_text: str, c: int) -> str:
    """b^c as a tick label: "1", "2", "2⁻³", "0.5²"."""
    if c == 0:
        return "1"
    if c == 1:
        return base_text
    return base_text + str(c).translate(_SUP)


def bottom(lo: float, floor: float, pad: float) -> float:
    """The axis bottom: ``pad`` under the lowest bar ``lo`` of the run or the game's ``floor``, whichever is lower
    (viewer_game_bars.js ``barsBottom``: the same operations)."""
    return (lo if lo < floor else floor) - pad


def ticks(lo: float, hi: float, lb: float, base_text: str) -> tuple[list[float], list[str]]:
    """The powers b^c on the axis [lo, hi] (heights c·lb, lb = log₁₀ b ≠ 0), every 1, 2, 5, 10, … powers so that at
    most :data:`MAX_TICKS` show (viewer_game_bars.js ``barsTicks``)."""
    a, b = lo / lb, hi / lb
    c0, c1 = math.ceil(min(a, b)), math.floor(max(a, b))
    step = STEPS[-1]
    for s in STEPS:
        if c1 // s - (-(-c0 // s)) + 1 <= MAX_TICKS:
            step = s
            break
    cs = [c for c in range(-(-c0 // step) * step, c1 + 1, step)]
    if lb < 0:
        cs = cs[::-1]
    return [c * lb + 0.0 for c in cs], [power_text(base_text, c) for c in cs]


def arrays_of(figures: list[dict]) -> set[str]:
    """The names of ``spec.arrays`` these figures read (their dynamic ops and their descriptions): a board that takes
    some of a lesson's figures keeps only their arrays."""
    names = set()
    for f in figures:
        for op in f.get("dynamic", []):
            names |= {op[k] for k in ("x", "y", "z", "text", "color", "rounds") if isinstance(op.get(k), str)}
        for v in (f.get("describe") or {}).get("values", {}).values():
            if isinstance(v, dict) and "array" in v:
                names.add(v["array"])
    return names


def with_run(board: dict, run: dict, figures: list[dict], layout: dict) -> dict:
    """The board's spec joined by some of its run's charts (``figures``, from the lesson's spec ``run``): their
    arrays, the run's caption values under the board's (the board's template), the run's ledger."""
    return {**board, "figures": board["figures"] + figures,
            "arrays": {**{k: run["arrays"][k] for k in sorted(arrays_of(figures))}, **board["arrays"]},
            "caption": {**board["caption"], "values": {**run["caption"]["values"], **board["caption"]["values"]}},
            "ledger": run["ledger"], "layout": layout, "speed": 2}
