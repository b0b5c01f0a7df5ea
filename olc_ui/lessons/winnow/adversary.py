"""Beat the bound on Winnow (issue 35): the student turns variables on and picks the label; the game accepts only
labels of the k-disjunction fixed at the start (olc_core/games/winnow.py) and Winnow answers.

The Winnow page opens it with ``?mode=adversary`` (its script calls :func:`part` and, for this part,
:func:`page`). The game is a Streamlit fragment (:func:`play`): a move reruns the board, the panel and the URL.
``amoves`` (in the URL) holds ``bits:label,…``, so a link replays the game; the board is the Winnow lesson's
step viewer on the game's run (weights, the potential's sandwich, the bound, the ledger), stepped back like any
run. A move is drawn at once in the browser (the board's game mode, assets/viewer_game_bars.js: the weights after
it and the learner's answer, exact), then the server's run follows (the potential, the sandwich, the ledger).
"""
from __future__ import annotations

from typing import Any

import streamlit as st

from olc_core.games.winnow import (MAX_MOVES, N_RANGE, WinnowGame, WinnowState, WMove, computer_game, computer_move,
                                   encode, parse)
from olc_core.proofs.winnow import bound as winnow_bound

from olc_ui.lessons.winnow.adversary_view import board_options, board_spec
from olc_ui.shared import caps, class_session, common, game_authors, game_bridge, safe, state
from olc_ui.shared.config import Setting
from olc_ui.shared.state import set_value
from olc_ui.shared.transcript import PageSettings
from olc_ui.viewer.component import take_game_move, viewer
from olc_ui.shared.position import query_position, report
from olc_ui.viewer.spec import MODES_KEY

__all__ = ["part", "page", "play", "MODE_SETTINGS", "GAME_SETTINGS"]

PAGE = "winnow"
MODE_GROUP = f"{PAGE}_part"
GROUP = f"{PAGE}_adversary"
VIEWER = f"{PAGE}_adversary_viewer"
_SUB = str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉")
MODE_SETTINGS = [Setting("mode", "Part of the lesson", "choice", "lesson", options=("lesson", "adversary"),
                         extra={"labels": {"lesson": "The lesson", "adversary": "Beat the bound (play the adversary)"}})]
GAME_SETTINGS = [
    Setting("aN", "Variables N", "int", 12, lo=N_RANGE[0], hi=N_RANGE[1], step=1),
    Setting("ak", "Relevant variables k", "int", 2, lo=1, hi=4, step=1, help="the target is the OR of k variables"),
    Setting("abeta", "β: promotion factor 1 + β", "float", 1.0, lo=0.25, hi=3.0, step=0.25,
            help="β = 1: the bound 2 + 3k(log₂N + 1) of [000] eq. 42"),
    Setting("aseed", "Target (seed)", "int", 0, lo=0, hi=1_000_000, step=1, extra={"widget": "number"},
            help="which k of the N variables form the target disjunction"),
    Setting("ahide", "Hide the target until the end", "bool", False,
            help="the rules stay the same; a refused label still says that the target labels the example otherwise, "
                 "not which of its variables is on"),
    Setting("amoves", "Your moves", "text", "", extra={"max_len": 3000}),
]
TRANSCRIPT = PageSettings(MODE_SETTINGS + GAME_SETTINGS)
#: the class session's settings bridge (olc_ui/shared/game_bridge.py: the sidebar's widgets redrawn when it
#: changes more than the moves)
_BRIDGED = f"{GROUP}_bridged"
_BRIDGE = game_bridge.bridge([(MODE_GROUP, MODE_SETTINGS), (GROUP, GAME_SETTINGS)], "amoves", _BRIDGED)
CAP = caps.text(f"a game keeps at most {MAX_MOVES} moves of at most {N_RANGE[1]} variables")
INTRO = (
    "**Beat the bound.** You are the adversary: you choose which variables are on and the label. The game fixed a "
    "target, the OR of $k$ of the $N$ variables, and accepts only its labels — exactly the theorem's assumption. "
    "Winnow predicts $1$ iff $w\\cdot x > N$ before it sees your label; a false negative promotes the variables that "
    "are on ($w_i \\leftarrow (1+\\beta)w_i$), a false positive demotes them. However you play, "
    "$M < \\frac{1+\\beta}{\\beta} + (2+\\beta)k(1 + \\log_{1+\\beta}N)$ ($\\beta = 1$: $2 + 3k(\\log_2 N + 1)$): "
    "a relevant weight is never demoted and stops being promoted above $N$, and the potential $\\Phi = \\sum_i w_i$ "
    "pays for every demotion with an earlier promotion."
)


def part() -> str:
    """The part of the Winnow page this run shows ("lesson" or "adversary": ``?mode=adversary``)."""
    with st.sidebar:
        return state.bind(MODE_GROUP, MODE_SETTINGS)["mode"]


def _game(v: dict[str, Any]) -> WinnowGame:
    return WinnowGame.make(int(v["aN"]), min(int(v["ak"]), int(v["aN"])), float(v["abeta"]), int(v["aseed"]),
                           bool(v["ahide"]))


def page() -> None:
    st.title("Beat the bound: Winnow")
    with st.expander("The rules, and why the proof stops you", icon=":material/menu_book:"):
        st.markdown(INTRO)
    with st.sidebar:
        st.header("The game")
        v = state.bind(GROUP, GAME_SETTINGS, show={"aN", "ak", "abeta", "aseed", "ahide"})
    for group in (MODE_GROUP, GROUP):
        for problem in state.problems(group):
            safe.notice("warning", "A setting in the link was not valid: ", f"{problem}.")
    class_session.offer(MODE_SETTINGS + GAME_SETTINGS, {"mode": "adversary", **v})
    play()


# ------------------------------------------------------------------------------------------ moves

def _set_moves(moves) -> None:
    set_value(GROUP, GAME_SETTINGS, "amoves", encode(moves))


def _bit_key(i: int) -> str:
    return f"{GROUP}_bit{i}"


def _moves(game: WinnowGame) -> list[WMove]:
    text = state.current(GROUP, GAME_SETTINGS)["amoves"]
    try:
        moves = parse(text, game.N)
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


def _add(state_: WinnowState, label: int) -> None:
    x = tuple(1 if st.session_state.get(_bit_key(i), False) else 0 for i in range(state_.game.N))
    out = state_.then(WMove(x, label))
    if isinstance(out, str):
        st.session_state[f"{GROUP}_refused"] = f"x = {''.join(map(str, x))} with label {label} is refused: {out}."
        return
    st.session_state[f"{GROUP}_refused"] = ""
    _set_moves(out.moves)


def _board_move(state_: WinnowState) -> None:
    """A move the board played (the class's proposal the lecturer chose: viewer_game_class.js), applied if it was
    made on this game state."""
    got = take_game_move(VIEWER)
    if not isinstance(got, dict):
        return
    try:
        [m] = parse(str(got["move"]), state_.game.N)
        made_on = int(got["T"])
    except (KeyError, TypeError, ValueError):
        return
    out = state_.then(m) if made_on == state_.T else "stale"
    if not isinstance(out, str):
        _set_moves(out.moves)


def _computer(state_: WinnowState, to_end: bool) -> None:
    st.session_state[f"{GROUP}_refused"] = ""
    if to_end:
        after = computer_game(state_.game, state_.moves).moves
    else:
        m = computer_move(state_)
        if m is None or state_.T >= MAX_MOVES:
            return
        after = state_.moves + (m,)
    game_authors.by_computer(GROUP, state_.moves, after)
    _set_moves(after)


# ------------------------------------------------------------------------------------------ words

def _var(i: int) -> str:
    return f"x{str(i + 1).translate(_SUB)}"


def score_line(s: WinnowState) -> str:
    g = s.game
    bound = f"{winnow_bound(g.beta, g.N, g.k):.6g}"
    return (f"Moves **{s.T}** · mistakes **M = {s.M}** (promotions m⁺ = {s.promotions}, demotions m⁻ = "
            f"{s.demotions}) · the theorem: M < {bound}, so M ≤ **{g.cap}** · still allowed: **{s.left}**")


def last_move(s: WinnowState, computer: bool = False) -> str:
    """Markdown: the last round, the learner's answer and its update (the run's numbers; ``computer``: the
    computer's move)."""
    tr, t = s.trace, s.T - 1
    m = s.moves[-1]
    on = [i for i, b in enumerate(m.x) if b]
    score = float(tr.columns["score"][t])
    pred = int(tr.predictions[t])
    rel = "\\gt" if pred else "\\le"
    head = (f"**Round {s.T}**: $x$ = {''.join(map(str, m.x))} (on: {', '.join(_var(i) for i in on) or 'none'}), "
            f"{game_authors.label_owner(computer)} $y = {m.label}$. The learner had $w\\cdot x = {score:.6g} {rel} N = {s.game.N}$, so it "
            f"predicted $\\hat y = {pred}$")
    if pred == m.label:
        return head + " — **correct**: no update."
    what = "promoted (×(1+β))" if m.label == 1 else "demoted (÷(1+β))"
    return head + f" — **a mistake**: the variables that are on were {what}."


def _mistakes(s: WinnowState) -> list[int]:
    return game_authors.indicator(s.T, None if s.trace is None else s.trace.mistakes)


def verdict(s: WinnowState, shown: bool = True, flags=None) -> tuple[str, str]:
    """(kind, Markdown): "success" when no admissible example can be a mistake any more, else "info" with what the
    theorem still allows and which examples can still err (the target's variables named only when shown)."""
    g = s.game
    flags = (False,) * s.T if flags is None else flags
    if not s.can_err:
        return "success", (
            f"**No admissible example can be a mistake any more**: every relevant weight is above $N = {g.N}$, so "
            f"a positive example has $w\\cdot x > N$; and the irrelevant weights sum to "
            f"{float(s.irrelevant_weight):.6g} $\\le N$, so a negative example has $w\\cdot x \\le N$. The weights "
            f"change only on a mistake: Winnow makes **no further mistake in this game**. "
            f"{game_authors.forced(flags, _mistakes(s), 'M', str(s.M))}; "
            f"the theorem allowed at most {g.cap}.")
    parts = []
    if s.light_relevant and shown:
        parts.append("a positive example whose only relevant variable on is one of "
                     + ", ".join(_var(i) for i in s.light_relevant) + " (weight still ≤ N) can be a false negative")
    elif s.light_relevant:
        n = len(s.light_relevant)
        parts.append(f"{n} {'variable' if n == 1 else 'variables'} of the hidden target still "
                     f"{'weighs' if n == 1 else 'weigh'} at most N: a positive example whose only variable of the "
                     f"target on is {'it' if n == 1 else 'one of them'} can be a false negative")
    if s.irrelevant_weight > g.N:
        parts.append(f"the irrelevant weights sum to {float(s.irrelevant_weight):.6g} > N = {g.N}: a negative "
                     "example with enough of them on can be a false positive")
    return "info", (f"The theorem still allows {s.left} more mistakes. Some admissible example is still a mistake: "
                    + "; ".join(parts) + ".")


def comparison(s: WinnowState, comp: WinnowState, flags=None) -> str:
    rel = "more than" if s.M > comp.M else "as many as" if s.M == comp.M else "fewer than"
    flags = (False,) * s.T if flags is None else flags
    mine, versus = game_authors.tally(flags, _mistakes(s), "M", str(s.M), s.T, rel)
    return (f"{mine} The computer's adversary (a hard case for Winnow: "
            f"false positives on the heaviest irrelevant variables while they weigh more than $N$, else a false "
            f"negative on the lightest relevant variable), from the start of this game: $M = {comp.M}$ in {comp.T} "
            f"moves. {versus[:-1]}; the theorem allows at most {s.game.cap}.")


# ------------------------------------------------------------------------------------------ the fragment

@st.cache_resource(max_entries=32, show_spinner=False)
def _spec(run_id: str, _state: WinnowState, shown: bool) -> dict:
    return board_spec(_state, run_id=run_id, shown=shown)


@st.cache_resource(max_entries=32, show_spinner=False)
def _computer_game(key: str, _game: WinnowGame) -> WinnowState:
    return computer_game(_game)


def _controls(s: WinnowState) -> None:
    over = not s.can_err or s.T >= MAX_MOVES
    with st.container(horizontal=True, key=f"{GROUP}_controls", gap="small"):
        st.button("Undo", key=f"{GROUP}_undo", disabled=s.T == 0, on_click=_set_moves, args=(s.moves[:-1],))
        st.button("Start over", key=f"{GROUP}_reset", disabled=s.T == 0, on_click=_set_moves, args=((),))
        st.button("Computer's move", key=f"{GROUP}_cmove", on_click=_computer, args=(s, False), disabled=over,
                  help="the project's worst case for Winnow, from the current weights")
        st.button("Computer plays on", key=f"{GROUP}_cend", on_click=_computer, args=(s, True), disabled=over)
    st.markdown(score_line(s))


def _move_panel(s: WinnowState, shown: bool) -> None:
    g = s.game
    with st.container(border=True, key=f"{GROUP}_panel"):
        st.markdown("#### Your next example")
        per_row = 3          # x₁₂ and its box fit a column of the panel beside the board at 1100 px
        for start in range(0, g.N, per_row):
            cols = st.columns(per_row, gap="small")
            for i in range(start, min(g.N, start + per_row)):
                cols[i - start].checkbox(_var(i), key=_bit_key(i))
        if shown:
            st.caption(f"The target is the OR of {g.k} of these: {', '.join(_var(i) for i in g.relevant)}.")
        else:
            st.caption(f"The target, the OR of {g.k} of these {g.N}, is hidden until the end.")
            st.button("Reveal the target", key=f"{GROUP}_reveal_btn", on_click=_reveal, args=(repr(g),))
        c1, c2 = st.columns(2)
        full = s.T >= MAX_MOVES
        c1.button("Label 1", key=f"{GROUP}_lab1", on_click=_add, args=(s, 1), disabled=full, use_container_width=True)
        c2.button("Label 0", key=f"{GROUP}_lab0", on_click=_add, args=(s, 0), disabled=full, use_container_width=True)
        refused = st.session_state.get(f"{GROUP}_refused")
        if refused:
            st.warning(safe.md(refused))


def _reveal(game_key: str) -> None:
    st.session_state[f"{GROUP}_reveal"] = game_key


def _shown(s: WinnowState) -> bool:
    """The target is shown unless hidden, and a hidden one at the end (no admissible example errs, or the game is
    full) or once revealed."""
    g = s.game
    over = not s.can_err or s.T >= MAX_MOVES
    return not g.hidden or over or st.session_state.get(f"{GROUP}_reveal") == repr(g)


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
    flags = game_authors.sync(GROUP, s.moves)
    _controls(s)
    board, panel = st.columns([3, 2], gap="medium")
    with panel:
        _move_panel(s, shown)
        if s.T:
            st.markdown(last_move(s, flags[-1]))
        kind, text = verdict(s, shown, flags)
        getattr(st, kind)(text)
        st.markdown(comparison(s, _computer_game(repr(game), game), flags))
    with board:
        position = _opens_at(s.T, first)
        run_id = f"wadv-{game.N}-{game.k}-{game.beta:g}-{game.seed}-{int(shown)}-{encode(s.moves)}"
        spec = {**_spec(run_id, s, shown), "position": position}
        modes = class_session.with_class({**(st.session_state.get(MODES_KEY) or {}), "game_bars": board_options(
            game, s, GROUP)}, MODE_SETTINGS + GAME_SETTINGS, {"mode": "adversary", **v, "amoves": encode(s.moves)})
        position = viewer(spec, key=VIEWER, modes=modes, on_class_settings=_BRIDGE)
        caps.show(CAP)
    state.write_url(MODE_SETTINGS + GAME_SETTINGS, {"mode": "adversary", **v, "amoves": encode(s.moves)},
                    {"t": str(position)} if s.T else None)
    if s.trace is not None and shown:
        common.downloads(s.trace, spec, position, "winnow_adversary_game", s.X, s.y, settings=TRANSCRIPT)
    elif s.trace is not None:
        st.caption("The trace and the transcript download once the target is shown: they name it.")


def _opens_at(T: int, first: bool) -> int:
    if first:
        start, problem = query_position(T, "t", T)
        report(problem)
        return start
    return T

