"""Beat the bound on the Perceptron (issue 35): the student places each point and picks its label; the game
accepts only points with ‖x‖ ≤ R and y⟨w*, x⟩ ≥ γ (olc_core/games/perceptron.py) and the Perceptron answers.

The Perceptron page opens it with ``?mode=adversary`` (its script calls :func:`part` and, for this part,
:func:`page`). The game is a Streamlit fragment (:func:`play`): a move reruns the board, the move panel and the
URL only. ``moves`` (in the URL) holds ``i:j:±,…`` (the point (i/64, j/64) with label ±1), so a link replays the
game; the board is a step viewer (stepped back like any run) whose game mode (assets/viewer_game_plane.js) takes
a click or a tap on the plane: it refuses an inadmissible point at once with the rule it breaks, and draws an
admissible one with the learner's answer before the run comes back. Typed coordinates and the computer's
adversary go through the server.
"""
from __future__ import annotations

from typing import Any

import streamlit as st

from olc_core.games.perceptron import DIRECTIONS, GRID, MAX_MOVES, GameState, Move, PerceptronGame, Refusal
from olc_core.games.perceptron import encode_moves, parse_moves
from olc_core.games.perceptron_adversary import greedy_game, greedy_move

from olc_ui.lessons.perceptron import adversary_text as words
from olc_ui.lessons.perceptron.adversary_view import (HIDDEN_NAME, LABEL_TEXT, START, WHAT, YHAT, board_spec,
                                                      coord_text, start_board)
from olc_ui.shared import caps, class_session, common, game_authors, game_bridge, safe, state
from olc_ui.shared.config import Setting
from olc_ui.shared.state import set_value
from olc_ui.shared.transcript import PageSettings
from olc_ui.viewer.component import take_game_move, viewer
from olc_ui.shared.position import query_position, report
from olc_ui.viewer.spec import MODES_KEY

__all__ = ["part", "page", "play", "game_options", "MODE_SETTINGS", "GAME_SETTINGS"]

PAGE = "perceptron"
MODE_GROUP = f"{PAGE}_part"
GROUP = f"{PAGE}_adversary"
VIEWER = f"{PAGE}_adversary_viewer"
MODE_SETTINGS = [Setting("mode", "Part of the lesson", "choice", "lesson", options=("lesson", "adversary"),
                         extra={"labels": {"lesson": "The lesson", "adversary": "Beat the bound (play the adversary)"}})]


def _direction_label(key: str) -> str:
    p, q, r = DIRECTIONS[key]
    frac = lambda a: "0" if a == 0 else f"{'−' if a < 0 else ''}{abs(a)}/{r}" if r > 1 else f"{a}"  # noqa: E731
    return f"{key}°: ({frac(p)}, {frac(q)})"


GAME_SETTINGS = [
    Setting("ws", "Direction of w*", "choice", "36.87", options=tuple(DIRECTIONS),
            extra={"labels": {k: _direction_label(k) for k in DIRECTIONS}, "widget": "select"},
            help="a unit vector with rational coordinates (p/r, q/r), p² + q² = r²: every rule is decided exactly"),
    Setting("gamma", "Margin γ", "float", 0.2, lo=0.05, hi=2.5, step=0.05,
            help="a point is accepted only if y⟨w*, x⟩ ≥ γ (γ above R is refused with the reason)"),
    Setting("R", "Radius R", "float", 1.0, lo=0.5, hi=2.0, step=0.25, help="a point is accepted only if ‖x‖ ≤ R"),
    Setting("hide", "Hide w* until the end", "bool", False,
            help="the rules stay the same; a refused point still says which rule it breaks"),
    Setting("moves", "Your moves", "text", "", extra={"max_len": 2400}),
]
TRANSCRIPT = PageSettings(MODE_SETTINGS + GAME_SETTINGS)
#: the class session's settings bridge (olc_ui/shared/game_bridge.py: the sidebar's widgets redrawn when it
#: changes more than the moves)
_BRIDGED = f"{GROUP}_bridged"
_BRIDGE = game_bridge.bridge([(MODE_GROUP, MODE_SETTINGS), (GROUP, GAME_SETTINGS)], "moves", _BRIDGED)
CAP = caps.text(f"a game keeps at most {MAX_MOVES} moves (points on the grid of step 1/{GRID})")
INTRO = (
    "**Beat the bound.** You are the adversary: you choose every point $x$ and its label $y$. The game fixed a unit "
    "$w^*$, a margin $\\gamma$ and a radius $R$ at the start and accepts a point only if $\\lVert x\\rVert \\le R$ and "
    "$y\\langle w^*, x\\rangle \\ge \\gamma$ — exactly the theorem's assumptions. The Perceptron answers "
    "$\\hat y = \\mathrm{sign}\\langle w, x\\rangle$ before it sees your label, and on a mistake $w \\leftarrow w + yx$. "
    "However you play, $M \\le R^2/\\gamma^2$: each mistake adds at least $\\gamma$ to $\\langle w^*, w\\rangle$ and at "
    "most $R^2$ to $\\lVert w\\rVert^2$, and $\\langle w^*, w\\rangle \\le \\lVert w\\rVert$. Watch the sandwich close "
    "and the proof stop you."
)


def part() -> str:
    """The part of the Perceptron page this run shows ("lesson" or "adversary": ``?mode=adversary``), from the
    sidebar's switch."""
    with st.sidebar:
        return state.bind(MODE_GROUP, MODE_SETTINGS)["mode"]


def _game(v: dict[str, Any]) -> PerceptronGame:
    return PerceptronGame.make(v["ws"], float(v["gamma"]), float(v["R"]), bool(v["hide"]))


def page() -> None:
    """The page's adversary part: title, intro, the game's settings in the sidebar, then the game."""
    st.title("Beat the bound: the Perceptron")
    with st.expander("The rules, and why the proof stops you", icon=":material/menu_book:"):
        st.markdown(INTRO)
    with st.sidebar:
        st.header("The game")
        v = state.bind(GROUP, GAME_SETTINGS, show={"ws", "gamma", "R", "hide"})
    for group in (MODE_GROUP, GROUP):
        for problem in state.problems(group):
            safe.notice("warning", "A setting in the link was not valid: ", f"{problem}.")
    m = {"mode": "adversary"}
    game = _game(v)
    if game.problem is not None:
        safe.notice("error", "No game with these settings: ", f"{game.problem}.")
        state.write_url(MODE_SETTINGS + GAME_SETTINGS, {**m, **v})
        return
    class_session.offer(MODE_SETTINGS + GAME_SETTINGS, {**m, **v})
    play()


# ------------------------------------------------------------------------------------------ moves

def _set_moves(moves: list[Move]) -> None:
    set_value(GROUP, GAME_SETTINGS, "moves", encode_moves(moves))


def _moves(game: PerceptronGame) -> list[Move]:
    """The moves so far (the session's; a link's on the first run), the admissible ones up to the first refused
    (a link's or a changed setting's: said, and the rest dropped)."""
    text = state.current(GROUP, GAME_SETTINGS)["moves"]
    try:
        moves = parse_moves(text)
    except ValueError as exc:
        safe.notice("warning", "The moves in the link could not be read: ", f"{exc}. The game starts over.")
        _set_moves([])
        return []
    kept, why = game.admissible_prefix(moves)
    if why is not None:
        safe.notice("warning", "Not every move fits this game: ", f"{why}. The game keeps the "
                    f"{len(kept)} moves before it.")
        _set_moves(kept)
    return kept


def _refused(text: str) -> None:
    st.session_state[f"{GROUP}_refused"] = text


def _try(state_: GameState, m: Move) -> None:
    out = state_.then(m)
    if isinstance(out, Refusal):
        _refused(f"({coord_text(m.i)}, {coord_text(m.j)}) with label {LABEL_TEXT[m.label]} is refused: {out.text}.")
        return
    _refused("")
    _set_moves(list(out.moves))


def _typed(state_: GameState) -> None:
    x1 = float(st.session_state.get(f"{GROUP}_x1") or 0.0)
    x2 = float(st.session_state.get(f"{GROUP}_x2") or 0.0)
    _try(state_, Move(int(round(x1 * GRID)), int(round(x2 * GRID)), int(st.session_state.get(f"{GROUP}_label", 1))))


def _computer(state_: GameState, to_end: bool) -> None:
    _refused("")
    if to_end:
        after = list(greedy_game(state_.game, state_.moves).moves)
    else:
        m = greedy_move(state_)
        if m is None or state_.T >= MAX_MOVES:
            return
        after = list(state_.moves) + [m]
    game_authors.by_computer(GROUP, state_.moves, after)
    _set_moves(after)


def _board_move(state_: GameState) -> None:
    """A move the board sent (a click or a tap): applied if it was made on this game state."""
    got = take_game_move(VIEWER)
    if not isinstance(got, dict):
        return
    try:
        m = Move(int(got["i"]), int(got["j"]), 1 if int(got["label"]) > 0 else -1)
        made_on = int(got["T"])
    except (KeyError, TypeError, ValueError):
        return
    if made_on == state_.T:
        _try(state_, m)


# ------------------------------------------------------------------------------------------ the game's parts

def game_options(game: PerceptronGame, state_: GameState, shown: bool) -> dict[str, Any]:
    """The board's game mode (assets/viewer_game_plane.js): the rules as integers, the learner's w in grid units,
    the page's label switch, and the texts a move drawn in the browser uses (this module's, so that it reads as
    the run's)."""
    return {"p": game.p, "q": game.q, "r": game.r, "grid": GRID,
            "gamma": [game.gamma.numerator, game.gamma.denominator],
            "radius": [game.radius.numerator, game.radius.denominator],
            "W": [int(state_.W[0]), int(state_.W[1])], "T": state_.T, "max": MAX_MOVES, "R": float(game.radius),
            "L": 1.1 * float(game.radius), "label": f".st-key-{GROUP}_label", "labels": [1, -1],
            "what": WHAT, "yhat": {str(k): v for k, v in YHAT.items()}, "ytext": {str(k): v for k, v in LABEL_TEXT.items()},
            "colors": {"pos": "#1f6fb4", "neg": "#d43a2f"}, "shown": shown, "hidden_name": HIDDEN_NAME, "start": START}


@st.cache_resource(max_entries=64, show_spinner=False)
def _spec(run_id: str, _state: GameState, shown: bool) -> dict:
    return board_spec(_state, run_id=run_id, shown=shown) if _state.T else start_board(_state.game, run_id=run_id,
                                                                                      shown=shown)


@st.cache_resource(max_entries=32, show_spinner=False)
def _computer_game(key: str, _game: PerceptronGame) -> GameState:
    return greedy_game(_game)


def _score(state_: GameState) -> str:
    """One line: moves, mistakes, the theorem's count and what it still allows."""
    g = state_.game
    return (f"Moves **{state_.T}** · mistakes **M = {state_.M}** · the theorem: M ≤ ⌊R²/γ²⌋ = **{g.bound}** · "
            f"still allowed: **{state_.theorem_left}**")


def _controls(state_: GameState) -> None:
    """The row above the board: the next point's label, undo, start over, the computer's moves, and the score (the
    board starts on the first screen of a projector's 1100×800)."""
    over = not state_.can_err or state_.T >= MAX_MOVES
    with st.container(horizontal=True, key=f"{GROUP}_controls", vertical_alignment="center", gap="small"):
        st.radio("Label of your next point", [1, -1], key=f"{GROUP}_label", horizontal=True,
                 format_func=lambda b: LABEL_TEXT[b], width="content")
        st.button("Undo", key=f"{GROUP}_undo", disabled=state_.T == 0,
                  on_click=_set_moves, args=(list(state_.moves[:-1]),), help="take back your last move")
        st.button("Start over", key=f"{GROUP}_reset", disabled=state_.T == 0, on_click=_set_moves, args=([],))
        st.button("Computer's move", key=f"{GROUP}_cmove", on_click=_computer, args=(state_, False),
                  disabled=over, help="the computer's adversary: the admissible mistake that leaves w at the largest "
                                      "angle from w*")
        st.button("Computer plays on", key=f"{GROUP}_cend", on_click=_computer, args=(state_, True),
                  disabled=over, help="the computer's adversary plays until no admissible move can be a mistake")
    st.markdown(_score(state_))


def _typed_panel(state_: GameState) -> None:
    """The keyboard's way to place a point: its coordinates, snapped to the grid."""
    with st.expander("Type a point instead of clicking", icon=":material/keyboard:", key=f"{GROUP}_typed"):
        c1, c2, c3 = st.columns([1, 1, 1.2], vertical_alignment="bottom")
        R = float(state_.game.radius)
        c1.number_input("x₁", -2 * R, 2 * R, 0.0, 1 / GRID, format="%.4f", key=f"{GROUP}_x1")
        c2.number_input("x₂", -2 * R, 2 * R, 0.0, 1 / GRID, format="%.4f", key=f"{GROUP}_x2")
        c3.button("Place the point", key=f"{GROUP}_place", on_click=_typed, args=(state_,),
                  disabled=state_.T >= MAX_MOVES, help=f"at the nearest point of the grid of step 1/{GRID}, with "
                                                       "the label chosen above")


def _words(state_: GameState, shown: bool) -> None:
    """Under the board: the last round, what the proof says now, the computer's score against yours (each move
    credited to whoever made it)."""
    flags = game_authors.sync(GROUP, state_.moves)
    refused = st.session_state.get(f"{GROUP}_refused")
    if refused:
        st.warning(safe.md(refused))
    if state_.T >= MAX_MOVES:
        st.caption(f"A game keeps at most {MAX_MOVES} moves: undo or start over.")
    left, right = st.columns(2, gap="medium")
    with left:
        if state_.T:
            st.markdown(words.last_move(state_, flags[-1]))
        kind, text = words.verdict(state_, flags)
        getattr(st, kind)(text)
        if state_.game.hidden and not shown:
            st.button("Reveal w*", key=f"{GROUP}_reveal_btn", on_click=_reveal, args=(state_.game.direction,))
    with right:
        st.markdown(words.setting_text(state_, shown))
        st.markdown(words.comparison(state_, _computer_game(f"{state_.game}", state_.game), flags))


def _reveal(direction: str) -> None:
    st.session_state[f"{GROUP}_reveal"] = (direction, True)


@st.fragment
def play() -> None:
    """The game: the controls, the board (the step viewer), what the proof says, the downloads. A move reruns this
    only."""
    game_bridge.rerun_if_needed(_BRIDGED)
    first = st.session_state.get(f"{GROUP}_opened") is None     # a link's ?t= counts on the session's first run
    st.session_state[f"{GROUP}_opened"] = True
    v = state.current(GROUP, GAME_SETTINGS)
    game = _game(v)
    state_ = game.play(_moves(game))
    _board_move(state_)
    state_ = game.play(_moves(game))
    revealed = st.session_state.get(f"{GROUP}_reveal") == (game.direction, True)
    shown = not game.hidden or revealed or not state_.can_err
    _controls(state_)
    position = _opens_at(state_.T, first)
    run_id = f"padv-{game.direction}-{game.gamma}-{game.radius}-{int(shown)}-{encode_moves(state_.moves)}"
    spec = {**_spec(run_id, state_, shown), "position": position}
    # in a class session the class mode carries the game's query with its moves (what a student's page must run)
    modes = class_session.with_class({**(st.session_state.get(MODES_KEY) or {}), "game_plane": game_options(
        game, state_, shown)}, MODE_SETTINGS + GAME_SETTINGS, {"mode": "adversary", **v, "moves": encode_moves(state_.moves)})
    position = viewer(spec, key=VIEWER, modes=modes, on_class_settings=_BRIDGE)
    caps.show(CAP)
    _typed_panel(state_)
    _words(state_, shown)
    m = {"mode": "adversary"}
    state.write_url(MODE_SETTINGS + GAME_SETTINGS, {**m, **v, "moves": encode_moves(state_.moves)},
                    {"t": str(position)} if state_.T else None)
    if state_.trace is not None and shown:
        common.downloads(state_.trace, spec, position, "perceptron_adversary_game", state_.X, state_.y,
                         settings=TRANSCRIPT)
    elif state_.trace is not None:
        st.caption("The trace and the transcript download once w* is shown: they name it.")


def _opens_at(T: int, first: bool) -> int:
    """A link's ?t= on the first run; afterwards the latest move."""
    if first:
        start, problem = query_position(T, "t", T)
        report(problem)
        return start
    return T

