"""Beat the bound on Halving (issue 35): the student picks each instance of the class's domain and its label; the
game accepts only the labels of the target h* ∈ H fixed at the start (olc_core/games/halving.py) and Halving answers.

The Halving page opens it with ``?mode=adversary`` (its script calls :func:`part` and, for this part, :func:`page`).
The game is a Streamlit fragment (:func:`play`). ``hmoves`` (in the URL) holds ``instance:label,…`` (``3:+``: the
domain's instance 3, label +1), so a link replays the game; the board (adversary_view.py: the hypotheses of H, in
the version space or out, and each round's labels) is there from round 0 and, after a move, the Halving lesson's
charts of the game's run join it (the version space, |Hₜ| between 1 and |H|/2ᴹ, the ledger), stepped back like any
run. A move is drawn at once in the browser (the board's game mode, assets/viewer_game_bars.js: the version space
after it and Halving's answer, exact), then the server's run follows. In a class session the class can be the
adversary (viewer_game_class.js: each student proposes an instance and a label, ``12:1``; the lecturer plays one).
"""
from __future__ import annotations

from typing import Any

import streamlit as st

from olc_core.games.halving import (CLASSES, K_RANGE, MAX_MOVES, N_RANGE, HalvingGame, HalvingState, HMove,
                                    computer_game, computer_move, encode, parse)

from olc_ui.lessons.halving import adversary_text as words
from olc_ui.lessons.halving.adversary_view import board_options, board_spec, proposed
from olc_ui.shared import caps, class_session, common, game_bridge, safe, state
from olc_ui.shared import game_authors as authors
from olc_ui.shared.config import Setting
from olc_ui.shared.position import query_position, report
from olc_ui.shared.state import set_value
from olc_ui.shared.transcript import PageSettings
from olc_ui.viewer.component import take_game_move, viewer
from olc_ui.viewer.spec import MODES_KEY

__all__ = ["part", "page", "play", "MODE_SETTINGS", "GAME_SETTINGS"]

PAGE = "halving"
MODE_GROUP = f"{PAGE}_part"
GROUP = f"{PAGE}_adversary"
VIEWER = f"{PAGE}_adversary_viewer"
MODE_SETTINGS = [Setting("mode", "Part of the lesson", "choice", "lesson", options=("lesson", "adversary"),
                         extra={"labels": {"lesson": "The lesson", "adversary": "Beat the bound (play the adversary)"}})]
CLASS_LABELS = {"halfplanes": "Half-planes through the origin (K angles)", "thresholds": "Thresholds on a line (K)",
                "conj": "Monotone conjunctions on n bits", "disj": "Monotone disjunctions on n bits"}
GAME_SETTINGS = [
    Setting("hcls", "Hypothesis class H", "choice", "thresholds", options=CLASSES, extra={"labels": CLASS_LABELS}),
    Setting("hK", "Number of hypotheses K", "int", 16, lo=K_RANGE[0], hi=K_RANGE[1], step=1),
    Setting("hn", "Number of bits n (|H| = 2ⁿ)", "int", 4, lo=N_RANGE[0], hi=N_RANGE[1], step=1),
    Setting("hseed", "Target (seed)", "int", 0, lo=0, hi=1_000_000, step=1, extra={"widget": "number"},
            help="which hypothesis of H is the target h*"),
    Setting("hhide", "Hide the target until the end", "bool", False,
            help="the rules stay the same; a refused label still says that the target labels the instance otherwise"),
    Setting("hmoves", "Your moves", "text", "", extra={"max_len": 600}),
]
TRANSCRIPT = PageSettings(MODE_SETTINGS + GAME_SETTINGS)
#: the class session's settings bridge (olc_ui/shared/game_bridge.py: the sidebar's widgets redrawn when it
#: changes more than the moves)
_BRIDGED = f"{GROUP}_bridged"
_BRIDGE = game_bridge.bridge([(MODE_GROUP, MODE_SETTINGS), (GROUP, GAME_SETTINGS)], "hmoves", _BRIDGED)
CAP = caps.text(f"a game keeps at most {MAX_MOVES} moves; K ≤ {K_RANGE[1]}, n ≤ {N_RANGE[1]}")


def part() -> str:
    """The part of the Halving page this run shows ("lesson" or "adversary": ``?mode=adversary``)."""
    with st.sidebar:
        return state.bind(MODE_GROUP, MODE_SETTINGS)["mode"]


def _game(v: dict[str, Any]) -> HalvingGame:
    return HalvingGame.make(v["hcls"], int(v["hK"]), int(v["hn"]), int(v["hseed"]), bool(v["hhide"]))


def _visible(v: dict[str, Any]) -> set[str]:
    return {"hcls", "hseed", "hhide"} | ({"hK"} if v["hcls"] in ("halfplanes", "thresholds") else {"hn"})


def page() -> None:
    st.title("Beat the bound: Halving")
    with st.expander("The rules, and why the proof stops you", icon=":material/menu_book:"):
        st.markdown(words.INTRO)
    with st.sidebar:
        st.header("The game")
        v = state.bind(GROUP, GAME_SETTINGS, show=_visible)
    for group in (MODE_GROUP, GROUP):
        for problem in state.problems(group):
            safe.notice("warning", "A setting in the link was not valid: ", f"{problem}.")
    class_session.offer(MODE_SETTINGS + GAME_SETTINGS, {"mode": "adversary", **v})
    play()


# ------------------------------------------------------------------------------------------ moves

def _set_moves(moves) -> None:
    set_value(GROUP, GAME_SETTINGS, "hmoves", encode(moves))


def _moves(game: HalvingGame) -> list[HMove]:
    text = state.current(GROUP, GAME_SETTINGS)["hmoves"]
    try:
        moves = parse(text, len(game.plus))
    except ValueError as exc:
        safe.notice("warning", "The moves in the link could not be read: ", f"{exc}. The game starts over.")
        _set_moves([])
        return []
    kept, why = game.admissible_prefix(moves)
    if why is not None:
        safe.notice("warning", "Not every move fits this game: ", f"{why}. The game keeps the {len(kept)} moves "
                    "before it.")
        _set_moves(kept)
    return kept


def _add(s: HalvingState, label: int) -> None:
    j = int(st.session_state.get(f"{GROUP}_inst") or 0)
    out = s.then(HMove(j, label))
    if isinstance(out, str):
        st.session_state[f"{GROUP}_refused"] = (f"{s.game.instance_text(j)} with label {'+1' if label > 0 else '−1'} "
                                                f"is refused: {out}.")
        return
    st.session_state[f"{GROUP}_refused"] = ""
    _set_moves(out.moves)


def _board_move(s: HalvingState) -> None:
    """A move the board played (the class's proposal the lecturer chose: viewer_game_class.js), applied if it was
    made on this game state and is admissible."""
    got = take_game_move(VIEWER)
    if not isinstance(got, dict):
        return
    try:
        m = proposed(str(got["move"]), len(s.game.plus))
        made_on = int(got["T"])
    except (KeyError, TypeError, ValueError):
        return
    out = s.then(m) if made_on == s.T else "stale"
    if not isinstance(out, str):
        st.session_state[f"{GROUP}_refused"] = ""
        _set_moves(out.moves)


def _computer(s: HalvingState, to_end: bool) -> None:
    authors.computer_plays(GROUP, s.moves, to_end, lambda: computer_game(s.game, s.moves), lambda: computer_move(s),
                         _set_moves)


def _reveal(game_key: str) -> None:
    st.session_state[f"{GROUP}_reveal"] = game_key


def _shown(s: HalvingState) -> bool:
    """The target is shown unless hidden, and a hidden one at the end (no admissible move errs, or the game is full)
    or once revealed."""
    g = s.game
    return not g.hidden or not s.can_err or s.T >= MAX_MOVES or st.session_state.get(f"{GROUP}_reveal") == repr(g)


# ------------------------------------------------------------------------------------------ the fragment

@st.cache_resource(max_entries=32, show_spinner=False)
def _spec(run_id: str, _s: HalvingState, shown: bool) -> dict:
    return board_spec(_s, run_id=run_id, shown=shown)


@st.cache_resource(max_entries=32, show_spinner=False)
def _computer_game(key: str, _game: HalvingGame) -> HalvingState:
    return computer_game(_game)


def _controls(s: HalvingState) -> None:
    over = not s.can_err or s.T >= MAX_MOVES
    with st.container(horizontal=True, key=f"{GROUP}_controls", gap="small"):
        st.button("Undo", key=f"{GROUP}_undo", disabled=s.T == 0, on_click=_set_moves, args=(s.moves[:-1],))
        st.button("Start over", key=f"{GROUP}_reset", disabled=s.T == 0, on_click=_set_moves, args=((),))
        st.button("Computer's move", key=f"{GROUP}_cmove", on_click=_computer, args=(s, False), disabled=over,
                  help=f"the computer's adversary: {words.COMPUTER}")
        st.button("Computer plays on", key=f"{GROUP}_cend", on_click=_computer, args=(s, True), disabled=over)
    st.markdown(words.score_line(s))


def _move_panel(s: HalvingState, shown: bool) -> None:
    g = s.game
    with st.container(border=True, key=f"{GROUP}_panel"):
        st.markdown("#### Your next instance")
        st.selectbox("Instance, and how many of Hₜ say +1 and −1 on it", range(len(g.plus)), key=f"{GROUP}_inst",
                     format_func=lambda j: words.instance_choice(s, j))
        st.caption(words.target_text(g, shown))
        if not shown:
            st.button("Reveal the target", key=f"{GROUP}_reveal_btn", on_click=_reveal, args=(repr(g),))
        full = s.T >= MAX_MOVES
        st.button("Label +1", key=f"{GROUP}_lab1", on_click=_add, args=(s, 1), disabled=full, use_container_width=True)
        st.button("Label −1", key=f"{GROUP}_lab0", on_click=_add, args=(s, -1), disabled=full,
                  use_container_width=True)
        refused = st.session_state.get(f"{GROUP}_refused")
        if refused:
            st.warning(safe.md(refused))


@st.fragment
def play() -> None:
    game_bridge.rerun_if_needed(_BRIDGED)
    first = st.session_state.get(f"{GROUP}_opened") is None
    st.session_state[f"{GROUP}_opened"] = True
    v = state.current(GROUP, GAME_SETTINGS)
    game = _game(v)
    _board_move(game.play(_moves(game)))
    s = game.play(_moves(game))
    shown = _shown(s)
    flags = authors.sync(GROUP, s.moves)
    _controls(s)
    board, panel = st.columns([3, 2], gap="medium")
    with panel:
        _move_panel(s, shown)
        if s.T:
            st.markdown(words.last_move(s, flags[-1]))
        kind, text = words.verdict(s, flags)
        getattr(st, kind)(text)
        st.markdown(words.comparison(s, _computer_game(repr(game), game), flags))
    with board:
        position = _opens_at(s.T, first)
        run_id = f"hadv-{game.cls}-{game.K}-{game.n}-{game.seed}-{int(shown)}-{encode(s.moves)}"
        spec = {**_spec(run_id, s, shown), "position": position}
        modes = class_session.with_class({**(st.session_state.get(MODES_KEY) or {}), "game_bars": board_options(
            s, GROUP)}, MODE_SETTINGS + GAME_SETTINGS, {"mode": "adversary", **v, "hmoves": encode(s.moves)})
        position = viewer(spec, key=VIEWER, modes=modes, on_class_settings=_BRIDGE)
        caps.show(CAP)
    state.write_url(MODE_SETTINGS + GAME_SETTINGS, {"mode": "adversary", **v, "hmoves": encode(s.moves)},
                    {"t": str(position)} if s.T else None)
    if s.trace is not None and shown:
        common.downloads(s.trace, spec, position, "halving_adversary_game", s.X, s.y, settings=TRANSCRIPT)
    elif s.trace is not None:
        st.caption("The trace and the transcript download once the target is shown: they name it.")


def _opens_at(T: int, first: bool) -> int:
    if first:
        start, problem = query_position(T, "t", T)
        report(problem)
        return start
    return T
