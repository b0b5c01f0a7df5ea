"""What "Beat the bound" says about a Perceptron game, in words, with the numbers of the game (pure: a game state
in, Markdown out; every number read from the state, exact where a rule decides).

- :func:`last_move`: the last round — the point, the label, the learner's answer, the update;
- :func:`verdict`: what the theorem and the argument from the current w still allow, and, when no admissible
  move can be a mistake any more, that the learner makes no further mistake in this game;
- :func:`comparison`: the student's mistakes, the computer's and the bound.
"""
from __future__ import annotations

import math
from fractions import Fraction

from olc_core.games._numbers import decimal_text
from olc_core.games.perceptron import GRID, GameState

from olc_ui.lessons.perceptron.adversary_view import LABEL_TEXT, coord_text
from olc_ui.shared import game_authors as authors

__all__ = ["last_move", "verdict", "comparison", "setting_text", "angle_deg"]


def _num(v: Fraction, d: int = 4) -> str:
    return decimal_text(v, d)


def setting_text(state: GameState, shown: bool) -> str:
    """Markdown: the game's setting (w* only when it is shown)."""
    g = state.game
    star = "$w^*$ hidden until the end" if not shown else f"$w^* = ({_num(Fraction(g.p, g.r))}, {_num(Fraction(g.q, g.r))})$"
    b = g.bound_exact
    return (f"The game: {star}, margin $\\gamma = {_num(g.gamma)}$, radius $R = {_num(g.radius)}$; the theorem allows "
            f"at most $\\lfloor R^2/\\gamma^2\\rfloor = \\lfloor {_num(b, 6)}\\rfloor = {g.bound}$ mistakes. "
            "(The proof's charts measure the run: their $R$ is the largest $\\lVert x_t\\rVert$ played, at most "
            f"${_num(g.radius)}$, so their crossing $R^2/\\gamma^2$ can sit a little below ${_num(b, 6)}$.)")


def _mistakes(state: GameState) -> list[int]:
    return authors.indicator(state.T, None if state.trace is None else state.trace.mistakes)


def last_move(state: GameState, computer: bool = False) -> str:
    """Markdown: the last round with the learner's answer and what it did to w (``computer``: the computer's
    move)."""
    t = state.T
    m = state.moves[-1]
    before = state.game.play(state.moves[:-1])
    s = int(before.W[0] * m.i + before.W[1] * m.j)
    score = Fraction(s, GRID * GRID)
    yhat = (s > 0) - (s < 0)
    out = (f"**Round {t}**: $x = ({coord_text(m.i)}, {coord_text(m.j)})$, {authors.label_owner(computer)} $y = {LABEL_TEXT[m.label]}$. "
           f"The learner had $\\langle w, x\\rangle = {_num(score, 12)}$, so it predicted "
           f"$\\hat y = {'0' if yhat == 0 else LABEL_TEXT[yhat]}$")
    if m.label * s > 0:
        return out + " — **correct**: no update, $w$ stays."
    why = "on the line: a mistake whatever the label" if s == 0 else "the wrong sign"
    W = state.W if t else before.W
    return (out + f" ({why}) — **a mistake**: $w \\leftarrow w + yx = ({coord_text(int(W[0]))}, "
            f"{coord_text(int(W[1]))})$.")


def angle_deg(state: GameState) -> float | None:
    """The angle between w and w* in degrees (None while w = 0)."""
    if state.norm2 == 0:
        return None
    c = float(state.inner) / math.sqrt(float(state.norm2))
    return math.degrees(math.acos(max(-1.0, min(1.0, c))))


def _inside_cone(state: GameState) -> bool:
    """Exactly: the angle between w and w* is below arcsin(γ/R) (cos² > 1 − γ²/R² with ⟨w*, w⟩ > 0)."""
    g, R = state.game.gamma, state.game.radius
    return state.inner > 0 and state.inner ** 2 > state.norm2 * (1 - g * g / (R * R))


def _over(state: GameState, flags) -> str:
    g = state.game
    cone = ""
    if _inside_cone(state):
        a = angle_deg(state)
        lim = math.degrees(math.asin(float(g.gamma / g.radius)))
        sa, sl = (f"{a:.2f}", f"{lim:.2f}") if f"{a:.2f}" != f"{lim:.2f}" else (f"{a:.6f}", f"{lim:.6f}")
        cone = (f" The angle between $w$ and $w^*$ is ${sa}°$, less than $\\arcsin(\\gamma/R) = {sl}°$: a point "
                "with margin $\\gamma$ for $w^*$ inside the disc is then on the same side of both lines.")
    return (f"**No admissible move can be a mistake any more** — every point of the disc on the grid (steps of "
            f"$1/{GRID}$) with $y\\langle w^*, x\\rangle \\ge \\gamma$ has $y\\langle w, x\\rangle > 0$ (each one was "
            f"checked).{cone} $w$ changes only on a mistake, so the learner makes **no further mistake in this game**, "
            f"however you play. {authors.forced(flags, _mistakes(state), 'M', str(state.M))}, and the theorem allowed "
            f"$\\lfloor R^2/\\gamma^2\\rfloor = {g.bound}$.")


def verdict(state: GameState, flags=None) -> tuple[str, str]:
    """(kind, Markdown): "success" when the game is over (no admissible move errs, or the theorem's count is used
    up), else "info" with what the theorem and the argument from the current w still allow. ``flags``: one per
    move, True for the computer's (none: every move the student's)."""
    g = state.game
    flags = (False,) * state.T if flags is None else flags
    if not state.can_err:
        return "success", _over(state, flags)
    if state.theorem_left <= 0:     # cannot happen while a move can err (the theorem holds): said if it did
        return "success", (authors.forced(flags, _mistakes(state), "M", f"{state.M} = \\lfloor R^2/\\gamma^2\\rfloor")
                           + ": the theorem allows no further mistake.")
    m = state.argument_left
    I, N2 = state.inner, state.norm2
    sI, sN = _num(I, 6), _num(N2, 6)
    return "info", (
        f"The theorem still allows $\\lfloor R^2/\\gamma^2\\rfloor - M = {g.bound} - {state.M} = {state.theorem_left}$ "
        f"more mistakes. From the current $w$ the proof's own argument allows at most **{m}** more: each mistake "
        f"adds at least $\\gamma$ to $\\langle w^*, w\\rangle = {sI}$ and at most $R^2$ to "
        f"$\\lVert w\\rVert^2 = {sN}$, and $\\langle w^*, w\\rangle \\le \\lVert w\\rVert$, so $m$ more need "
        f"${sI} + m\\gamma \\le \\sqrt{{{sN} + mR^2}}$, false from $m = {m + 1}$ on. Some admissible point is still a "
        "mistake: find it.")


def comparison(state: GameState, computer: GameState, flags=None) -> str:
    """Markdown: this game's mistakes (the student's and the computer's moves apart), the computer's greedy
    adversary's (from the start of a game with this setting) and the bound."""
    g = state.game
    you, comp = state.M, computer.M
    rel = "more than" if you > comp else "as many as" if you == comp else "fewer than"
    flags = (False,) * state.T if flags is None else flags
    mine, versus = authors.tally(flags, _mistakes(state), "M", str(you), state.T, rel)
    return (f"{mine} The computer's greedy adversary "
            f"(each move the admissible mistake that leaves $w$ at the largest angle from $w^*$), from the start of "
            f"this game: $M = {comp}$ in {computer.T} {'move' if computer.T == 1 else 'moves'}"
            + ("" if computer.can_err else ", then no admissible move errs") + f". {versus} "
            f"The bound: $\\lfloor R^2/\\gamma^2\\rfloor = {g.bound}$. The tight instance of the Perceptron lesson ($x_t = e_t$, a "
            "mistake on every round up to $M = R^2/\\gamma^2$) uses $R^2/\\gamma^2$ orthogonal directions; the plane has two.")
