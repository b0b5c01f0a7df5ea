"""Who made each move of a "Beat the bound" game: the student (a click or a tap on the board, typed coordinates, a
box ticked and a label button, the class's proposal the lecturer chose) or the computer's adversary ("Computer's
move", "Computer plays on"). The words under the board credit a move, and the mistakes it forced, to whoever made it
(a review found "you forced M = 11" and "your label" after "Computer plays on" from an empty board).

The session keeps, per game, the moves it last saw with one flag per move (True: the computer's). :func:`sync`
reads the flags for the current moves — the flags of the longest common prefix with the stored moves, and "the
student's" for the moves after it — and stores them, so an undone computer move that the student then plays
herself counts as hers. :func:`by_computer` records the moves a computer button added. Moves this session did not
see made — a link's (another session's game, a reload) and, on a page that follows a class session's lecturer, the
moves that reach it from the lecturer — have no known maker (None): the words say "the label" and "not made on this
page", never "yours".

The wording helpers (:func:`label_owner`, :func:`forced`, :func:`tally`) are pure: flags and per-round mistakes
in, Markdown out.
"""
from __future__ import annotations

from collections.abc import Sequence

import streamlit as st

from olc_ui.shared import class_session

__all__ = ["sync", "by_computer", "computer_plays", "label_owner", "forced", "tally", "split", "indicator"]


def _key(group: str) -> str:
    return f"{group}_authors"


def _flags(group: str, moves: tuple) -> tuple[bool, ...]:
    stored = st.session_state.get(_key(group))
    if not stored:                       # moves this session did not see made: a link's, a reload's
        return (None,) * len(moves)
    old, flags = stored
    n = 0
    for a, b in zip(old, moves):
        if a != b:
            break
        n += 1
    return tuple(flags[:n]) + (_newcomer(),) * (len(moves) - n)


def _newcomer() -> bool | None:
    """The maker of a move that came in a rerun and no computer button made: the student's (False), but on a page
    that follows a class session's lecturer, whose board moves with the lecturer's moves, unknown (None)."""
    sess = class_session.current()
    following = sess is not None and not (sess.get("role") == "lecturer" and sess.get("key"))
    return None if following else False


def sync(group: str, moves: Sequence) -> tuple[bool, ...]:
    """One flag per move of ``moves`` (True: the computer's move), stored for the next run."""
    moves = tuple(moves)
    flags = _flags(group, moves)
    st.session_state[_key(group)] = (moves, flags)
    return flags


def by_computer(group: str, before: Sequence, after: Sequence) -> None:
    """Record that the computer made the moves of ``after`` beyond ``before`` (``after`` extends ``before``)."""
    before, after = tuple(before), tuple(after)
    flags = _flags(group, before)
    st.session_state[_key(group)] = (after, flags + (True,) * (len(after) - len(before)))


def computer_plays(group: str, moves: Sequence, to_end: bool, whole_game, one_move, set_moves) -> None:
    """A computer button's callback for a game whose moves are a tuple: ``whole_game()`` (its moves to the end) or
    ``one_move()`` (the next move, None when there is none) after ``moves``, recorded as the computer's, then
    ``set_moves(after)``; the last refusal's words cleared."""
    st.session_state[f"{group}_refused"] = ""
    if to_end:
        after = tuple(whole_game().moves)
    else:
        m = one_move()
        if m is None:
            return
        after = tuple(moves) + (m,)
    by_computer(group, moves, after)
    set_moves(after)


def label_owner(computer: bool | None) -> str:
    """Whose label the last round's was: "your label", "the computer's label", or "the label" when this page did not
    see the move made (a link's, the class's)."""
    return "the computer's label" if computer else "your label" if computer is False else "the label"


def split(flags: Sequence[bool | None], per_round: Sequence[float]) -> tuple[int, float, int, float]:
    """(the student's moves, the mistakes on them, the computer's moves, the mistakes on them); ``per_round`` holds
    each round's mistakes (0/1, or RWM's chance Fₜ). Moves of unknown maker (None) are in neither."""
    yours = [float(v) for f, v in zip(flags, per_round) if f is False]
    comp = [float(v) for f, v in zip(flags, per_round) if f]
    return len(yours), sum(yours), len(comp), sum(comp)


def _unknown(flags: Sequence[bool | None], per_round: Sequence[float]) -> tuple[int, float]:
    got = [float(v) for f, v in zip(flags, per_round) if f is None]
    return len(got), sum(got)


def indicator(T: int, mistakes) -> list[int]:
    """Each round's mistakes (1 on a mistake, else 0) from the 0-based rounds of the mistakes."""
    on = {int(t) for t in (() if mistakes is None else mistakes)}
    return [1 if t in on else 0 for t in range(T)]


def _num(v: float) -> str:
    return f"{int(v)}" if float(v).is_integer() else f"{v:.4g}"


def _moves(n: int) -> str:
    return f"{n} {'move' if n == 1 else 'moves'}"


def forced(flags: Sequence[bool], per_round: Sequence[float], what: str, total: str) -> str:
    """Markdown, a clause that starts a sentence: who forced the game's ``what`` (``total``, as the page prints it),
    "You forced $M = 3$", "The computer's moves forced $M = 11$" or "Your 2 moves and the computer's 9 forced
    $M = 11$ (2 on yours, 9 on the computer's)"."""
    ny, my, nc, mc = split(flags, per_round)
    nu, mu = _unknown(flags, per_round)
    if nu:
        parts = _parts(ny, my, nc, mc, nu, mu, what)
        return f"This game's {_moves(len(flags))} forced ${what} = {total}$ ({parts})"
    if nc == 0:
        return f"You forced ${what} = {total}$"
    if ny == 0:
        return f"The computer's moves forced ${what} = {total}$"
    return (f"Your {_moves(ny)} and the computer's {nc} forced ${what} = {total}$ ({_num(my)} on yours, "
            f"{_num(mc)} on the computer's)")


def _parts(ny: int, my: float, nc: int, mc: float, nu: int, mu: float, what: str) -> str:
    """Whose moves a game holds when some were not made on this page: "2 not made on this page (M 1), 1 yours (M 0)"."""
    out = [f"{nu} not made on this page ({what} {_num(mu)})"]
    if ny:
        out.append(f"{ny} yours ({what} {_num(my)})")
    if nc:
        out.append(f"{nc} the computer's ({what} {_num(mc)})")
    return ", ".join(out)


def tally(flags: Sequence[bool], per_round: Sequence[float], what: str, total: str, T: int,
          rel: str) -> tuple[str, str]:
    """Markdown, two sentences of the comparison with the computer's own game: whose moves this game holds (with
    the mistakes on each one's), and how this game's ``what`` compares with the computer's (``rel``: "more than",
    "as many as", "fewer than")."""
    if T == 0:  # nothing played yet: no verdict (a review read "You forced fewer than the computer" before a move)
        return "No moves yet.", "Play to compare your game with it."
    ny, my, nc, mc = split(flags, per_round)
    nu, mu = _unknown(flags, per_round)
    if nu:
        return (f"This game: ${what} = {total}$ in {_moves(T)}, {_parts(ny, my, nc, mc, nu, mu, what)}.",
                f"This game forced {rel} the computer's own game.")
    if nc == 0:
        return f"You: ${what} = {total}$ in {_moves(T)}.", f"You forced {rel} the computer."
    who = ("all of them the computer's" if ny == 0 else
           f"{ny} yours ({what} {_num(my)}), {nc} the computer's ({what} {_num(mc)})")
    return (f"This game: ${what} = {total}$ in {_moves(T)}, {who}.",
            f"This game forced {rel} the computer's own game.")
