"""The words of "Beat the bound" on Halving (pure: a game state in, Markdown out), every number read from the game's
exact replay (olc_core/games/halving.py) and its run."""
from __future__ import annotations

import math

from olc_core.games.halving import HalvingGame, HalvingState

from olc_ui.shared import game_authors as authors

__all__ = ["score_line", "last_move", "verdict", "comparison", "instance_choice", "target_text", "INTRO", "COMPUTER"]

INTRO = (
    "**Beat the bound.** You are the adversary: you choose every instance $x$ and its label. The game fixed a class "
    "$H$ and a target $h^* \\in H$ at the start and accepts only $h^*$'s labels — exactly the theorem's assumption "
    "(some hypothesis of $H$ labels every round). Halving predicts the majority vote of its version space $H_t$ (a tie "
    "goes to $+1$) before it sees your label; on a mistake the side the vote followed, at least half of $H_t$, leaves. "
    "However you play, $M \\le \\log_2|H|$: $h^*$ never leaves, so $1 \\le |H_t| \\le |H|/2^M$. To force a mistake, "
    "find an instance on which $h^*$ is in the minority of $H_t$."
)
COMPUTER = ("it knows h*: each move an instance where Halving errs, from which the most further mistakes can still "
            "be forced (an exact search over the version spaces mistakes leave), the most even split of Hₜ among "
            "those")


def target_text(game: HalvingGame, shown: bool) -> str:
    if not shown:
        return f"The target h*, one of the {game.H.size} hypotheses, is hidden until the end."
    return f"The target: h* = {game.describe_target()} (hypothesis {game.target + 1} of {game.H.size})."


def instance_choice(s: HalvingState, j: int) -> str:
    """An instance as the move panel lists it, with the current version space's vote on it."""
    p, m = s.vote(j)
    return f"{s.game.instance_text(j)}: {p} say +1, {m} say −1"


def score_line(s: HalvingState) -> str:
    g = s.game
    log2 = math.log2(g.H.size)
    return (f"Moves **{s.T}** · mistakes **M = {s.M}** · version space |Hₜ| = **{s.size}** of |H| = {g.H.size} · "
            f"the theorem: M ≤ log₂|H| = {log2:.4g}, so M ≤ **{g.cap}**; log₂|H| − M = {log2 - s.M:.4g}: still "
            f"allowed **{s.left}** · from |Hₜ|: at most ⌊log₂|Hₜ|⌋ = **{s.argument_left}** more")


def _sign(v: int) -> str:
    return "+1" if v > 0 else "−1"


def last_move(s: HalvingState, computer: bool = False) -> str:
    """Markdown: the last round, the vote, Halving's answer and what left the version space (``computer``: the
    computer's move)."""
    g, t, m = s.game, s.T - 1, s.moves[-1]
    before, preds, mistakes = s.replay
    V = before[t]
    p = (V & g.plus[m.j]).bit_count()
    n = V.bit_count()
    pred = preds[t]
    head = (f"**Round {s.T}**: {g.instance_text(m.j)}, {authors.label_owner(computer)} $y = {_sign(m.label)}$. Of the $|H_t| = {n}$ "
            f"hypotheses left, {p} said $+1$ and {n - p} said $-1$: Halving predicted $\\hat y = {_sign(pred)}$ (the "
            "majority; a tie goes to $+1$)")
    if pred == m.label:
        return head + f" — **correct**: the version space stays ({n} hypotheses)."
    wrong = p if pred > 0 else n - p
    return head + (f" — **a mistake**: the {wrong} that said ${_sign(pred)}$ left the version space "
                   f"($|H_{{t+1}}| = {s.size}$).")


def _mistakes(s: HalvingState) -> list[int]:
    return authors.indicator(s.T, s.replay[2] if s.T else ())


def verdict(s: HalvingState, flags=None) -> tuple[str, str]:
    g = s.game
    flags = (False,) * s.T if flags is None else flags
    if not s.can_err:
        who = ("the one hypothesis left, the target itself, casts the whole vote" if s.size == 1 else
               f"the majority of the {s.size} hypotheses left votes as the target does")
        return "success", (
            f"**No admissible instance can be a mistake any more**: on every instance {who}, and the version space "
            "changes only on a mistake: Halving "
            f"makes **no further mistake in this game**. {authors.forced(flags, _mistakes(s), 'M', str(s.M))}; the "
            "theorem allowed at most "
            f"{g.cap}.")
    k, D = len(s.mistake_instances), len(g.plus)
    return "info", (
        f"The theorem still allows {s.left} more {'mistake' if s.left == 1 else 'mistakes'}; from the version space, "
        f"at most {s.argument_left} more (each mistake at least halves $|H_t| = {s.size}$, and the target never "
        f"leaves). Halving errs now on {k} of the {D} instances (with the target's label): find one.")


def comparison(s: HalvingState, comp: HalvingState, flags=None) -> str:
    rel = "more than" if s.M > comp.M else "as many as" if s.M == comp.M else "fewer than"
    flags = (False,) * s.T if flags is None else flags
    mine, versus = authors.tally(flags, _mistakes(s), "M", str(s.M), s.T, rel)
    return (f"{mine} The computer's adversary ({COMPUTER}), "
            f"from the start of this game: $M = {comp.M}$ in {comp.T} {'move' if comp.T == 1 else 'moves'} — no "
            f"sequence of admissible moves forces more. {versus[:-1]}; the theorem allows at most "
            f"{s.game.cap}.")
