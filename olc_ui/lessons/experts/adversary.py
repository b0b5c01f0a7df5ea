"""Beat the bound on Weighted Majority, Randomised WM and Halving (issue 35): the student sets every expert's advice
and the outcome; the game accepts only moves that leave some expert within the budget m* fixed at the start
(Halving: some expert consistent with every outcome; olc_core/games/experts.py) and the learner answers.

The experts page opens it with ``?mode=adversary`` (its script calls :func:`part` and, for this part, :func:`page`).
The game is a Streamlit fragment (:func:`play`). ``emoves`` (in the URL) holds ``advice:outcome,…`` ("+-+:-"), so
a link replays the game; the board is the experts lesson's step viewer on the game's run (weights and the
log-weight sandwich, the advice strip, the ledger), stepped back like any run. A move is drawn at once in the
browser (the board's game mode, assets/viewer_game_bars.js: each expert's weight after it and the learner's answer,
exact; RWM's chance of a mistake), then the server's run follows (the sandwich, the advice map, the chart of mistakes,
the ledger).
"""
from __future__ import annotations

from typing import Any

import streamlit as st

from olc_core.games._numbers import pair
from olc_core.games.experts import (LEARNERS, MAX_MOVES, EMove, ExpertsGame, ExpertsState, computer_game,
                                    computer_move, encode, parse)

from olc_ui.lessons.experts.adversary_view import board_options, board_spec
from olc_ui.shared import caps, class_session, common, game_authors, game_bridge, safe, state
from olc_ui.shared.config import Setting
from olc_ui.shared.state import set_value
from olc_ui.shared.transcript import PageSettings
from olc_ui.viewer.component import take_game_move, viewer
from olc_ui.shared.position import query_position, report
from olc_ui.viewer.spec import MODES_KEY

__all__ = ["part", "page", "play", "MODE_SETTINGS", "GAME_SETTINGS", "verdict", "comparison", "last_move"]

PAGE = "experts"
MODE_GROUP = f"{PAGE}_part"
GROUP = f"{PAGE}_adversary"
VIEWER = f"{PAGE}_adversary_viewer"
NAMES = {"weighted_majority": "Weighted Majority", "randomized_weighted_majority": "Randomised Weighted Majority",
         "halving": "Halving"}
MODE_SETTINGS = [Setting("mode", "Part of the lesson", "choice", "lesson", options=("lesson", "adversary"),
                         extra={"labels": {"lesson": "The lesson", "adversary": "Beat the bound (play the adversary)"}})]
GAME_SETTINGS = [
    Setting("ealg", "Learner", "choice", "weighted_majority", options=LEARNERS, extra={"labels": NAMES}),
    Setting("eN", "Experts N", "int", 5, lo=2, hi=12, step=1),
    Setting("erate", "β (WM) or η (RWM)", "float", 0.5, lo=0.05, hi=0.95, step=0.05,
            help="WM multiplies a wrong expert's weight by β on its mistakes; RWM by 1 − η on every round"),
    Setting("ebudget", "Budget m*: the best expert's mistakes", "int", 1, lo=0, hi=10, step=1,
            help="every move must leave some expert with at most m* mistakes (Halving: m* = 0)"),
    Setting("emoves", "Your moves", "text", "", extra={"max_len": 2000}),
]
TRANSCRIPT = PageSettings(MODE_SETTINGS + GAME_SETTINGS)
#: the class session's settings bridge (olc_ui/shared/game_bridge.py: the sidebar's widgets redrawn when it
#: changes more than the moves)
_BRIDGED = f"{GROUP}_bridged"
_BRIDGE = game_bridge.bridge([(MODE_GROUP, MODE_SETTINGS), (GROUP, GAME_SETTINGS)], "emoves", _BRIDGED)
CAP = caps.text(f"a game keeps at most {MAX_MOVES} moves of at most 12 experts")
INTRO = (
    "**Beat the bound.** You are the adversary: you set every expert's advice and the outcome. The game fixed a "
    "budget $m^*$ and accepts a move only if some expert still has at most $m^*$ mistakes afterwards (Halving: "
    "some expert has never erred) — exactly the theorem's assumption. The learner answers before it sees the "
    "outcome. However you play, $M \\le \\frac{\\ln N + m^*\\ln(1/\\beta)}{\\ln(2/(1+\\beta))}$ (Weighted Majority), "
    "$\\mathbb{E}[M] \\le \\frac{\\ln N + m^*\\ln(1/(1-\\eta))}{\\eta}$ (Randomised WM), $M \\le \\log_2 N$ "
    "(Halving): the total weight $\\Phi$ falls with every mistake but never below the best expert's weight."
)


def part() -> str:
    """The part of the experts page this run shows ("lesson" or "adversary": ``?mode=adversary``)."""
    with st.sidebar:
        return state.bind(MODE_GROUP, MODE_SETTINGS)["mode"]


def _game(v: dict[str, Any]) -> ExpertsGame:
    return ExpertsGame.make(v["ealg"], int(v["eN"]), float(v["erate"]), int(v["ebudget"]))


def _visible(v: dict[str, Any]) -> set[str]:
    return {"ealg", "eN"} | (set() if v["ealg"] == "halving" else {"erate", "ebudget"})


def page() -> None:
    st.title("Beat the bound: learning from expert advice")
    with st.expander("The rules, and why the proof stops you", icon=":material/menu_book:"):
        st.markdown(INTRO)
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
    set_value(GROUP, GAME_SETTINGS, "emoves", encode(moves))


def _adv_key(i: int) -> str:
    return f"{GROUP}_adv{i}"


def _moves(game: ExpertsGame) -> list[EMove]:
    text = state.current(GROUP, GAME_SETTINGS)["emoves"]
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


def _add(s: ExpertsState, outcome: int) -> None:
    adv = tuple(1 if st.session_state.get(_adv_key(i), True) else -1 for i in range(s.game.N))
    out = s.then(EMove(adv, outcome))
    if isinstance(out, str):
        st.session_state[f"{GROUP}_refused"] = f"{encode([EMove(adv, outcome)])} is refused: {out}."
        return
    st.session_state[f"{GROUP}_refused"] = ""
    _set_moves(out.moves)


def _proposed(text: str, N: int) -> EMove:
    """A move in the class's short form: each expert's advice as a bit (1: +1), then the outcome ("1011:0")."""
    bits, _, out = text.partition(":")
    if len(bits) != N or set(bits) - {"0", "1"} or out not in ("0", "1"):
        raise ValueError(f"{text[:40]!r} is not advice and an outcome like '1011:0'")
    return EMove(tuple(1 if b == "1" else -1 for b in bits), 1 if out == "1" else -1)


def _board_move(s: ExpertsState) -> None:
    """A move the board played (the class's proposal the lecturer chose: viewer_game_class.js), applied if it was
    made on this game state."""
    got = take_game_move(VIEWER)
    if not isinstance(got, dict):
        return
    try:
        m = _proposed(str(got["move"]), s.game.N)
        made_on = int(got["T"])
    except (KeyError, TypeError, ValueError):
        return
    out = s.then(m) if made_on == s.T else "stale"
    if not isinstance(out, str):
        _set_moves(out.moves)


def _computer(s: ExpertsState, to_end: bool) -> None:
    game_authors.computer_plays(GROUP, s.moves, to_end, lambda: computer_game(s.game, s.moves), lambda: computer_move(s),
                         _set_moves)


# ------------------------------------------------------------------------------------------ words

def _sign(v: int) -> str:
    return "+1" if v > 0 else "−1"


def score_line(s: ExpertsState) -> str:
    g = s.game
    best = int(s.expert_mistakes.min())
    if g.deterministic:
        return (f"Moves **{s.T}** · mistakes **M = {s.M}** · the best expert: {best} of m* = {g.budget} · the "
                f"theorem: M ≤ {g.bound:.6g}, so M ≤ **{g.cap}** · still allowed: **{g.cap - s.M}**")
    return (f"Moves **{s.T}** · expected mistakes **E[M] = ΣFₜ = {s.expected:.4g}** (this run's draws: {s.M}) · the "
            f"best expert: {best} of m* = {g.budget} · the theorem: E[M] ≤ **{g.bound:.6g}**")


def last_move(s: ExpertsState, computer: bool = False) -> str:
    tr, t, m = s.trace, s.T - 1, s.moves[-1]
    wrong = [i + 1 for i in range(s.game.N) if m.advice[i] != m.outcome]
    head = (f"**Round {s.T}**{' (the computer' + chr(39) + 's move)' if computer else ''}: advice {encode([m]).split(':')[0]}, outcome $y = {_sign(m.outcome)}$; "
            f"wrong: {', '.join(f'expert {i}' for i in wrong) or 'no expert'}. ")
    if not s.game.deterministic:
        F = float(tr.columns["F"][t])
        return head + (f"The learner's chance of a mistake was $F_t = {F:.4g}$ (the wrong experts' share of the "
                       f"weight); its draw {'erred' if t in set(tr.mistakes.tolist()) else 'was right'}.")
    pred = int(tr.predictions[t])
    return head + f"The learner predicted $\\hat y = {_sign(pred)}$ — " + (
        "**a mistake**." if pred != m.outcome else "**correct**.")


def _per_round(s: ExpertsState) -> list[float]:
    """Each round's mistakes: 0/1 for the deterministic learners, RWM's chance Fₜ (the expected mistakes' terms)."""
    if s.trace is None:
        return []
    if not s.game.deterministic:
        return [float(v) for v in s.trace.columns["F"][:s.T]]
    return game_authors.indicator(s.T, s.trace.mistakes)


def verdict(s: ExpertsState, flags=None) -> tuple[str, str]:
    g = s.game
    flags = (False,) * s.T if flags is None else flags
    if not g.deterministic:
        return "info", (f"The theorem bounds the expected mistakes: $\\mathbb{{E}}[M] = {s.expected:.4g} \\le "
                        f"{g.bound:.6g}$; it still allows {g.bound - s.expected:.4g} more in expectation.")
    if s.can_err:
        return "info", (f"The theorem still allows {g.cap - s.M} more mistakes, and some admissible move is still a "
                        "mistake: the experts that may be wrong can still outweigh the ones that must be right.")
    mis = s.expert_mistakes
    w = s.weights()
    total = sum(w)
    keep = [i for i in range(g.N) if mis[i] == g.budget]
    p = min(keep, key=lambda i: (w[i], i))
    a, b = pair(w[p], total / 2, ">")
    who = ("the only expert still consistent" if g.learner == "halving" else
           f"the only expert still within the budget (m = m* = {g.budget})")
    return "success", (
        f"**No admissible move can be a mistake any more**: every move must leave expert {p + 1}, {who}, right, and "
        f"it carries more than half of the weight ($w = {a} > \\Phi/2 = {b}$), so the learner "
        f"follows it. It is never wrong again, so its weight stays while the others' can only fall: **no further "
        f"mistake in this game**. {game_authors.forced(flags, _per_round(s), 'M', str(s.M))}; the theorem allowed at "
        f"most {g.cap}.")


def comparison(s: ExpertsState, comp: ExpertsState, flags=None) -> str:
    if s.game.deterministic:
        you, them, what = s.M, comp.M, "M"
    else:
        you, them, what = round(s.expected, 4), round(comp.expected, 4), "E[M]"
    rel = "more than" if you > them else "as many as" if you == them else "fewer than"
    how = ("the experts that may be wrong split so that the wrong side just outweighs the right" if s.game.deterministic
           else "each round the split of the weight that, played to the end of the game, collects the most")
    flags = (False,) * s.T if flags is None else flags
    mine, versus = game_authors.tally(flags, _per_round(s), what, f"{you}", s.T, rel)
    return (f"{mine} The computer's adversary ({how}), from the start of this game: "
            f"{what} = {them} in {comp.T} moves. {versus}")


# ------------------------------------------------------------------------------------------ the fragment

@st.cache_resource(max_entries=32, show_spinner=False)
def _spec(run_id: str, _state: ExpertsState) -> dict:
    return board_spec(_state, run_id=run_id)


@st.cache_resource(max_entries=32, show_spinner=False)
def _computer_game(key: str, _game: ExpertsGame) -> ExpertsState:
    return computer_game(_game)


def _controls(s: ExpertsState) -> None:
    over = not s.can_err or s.T >= MAX_MOVES
    with st.container(horizontal=True, key=f"{GROUP}_controls", gap="small"):
        st.button("Undo", key=f"{GROUP}_undo", disabled=s.T == 0, on_click=_set_moves, args=(s.moves[:-1],))
        st.button("Start over", key=f"{GROUP}_reset", disabled=s.T == 0, on_click=_set_moves, args=((),))
        st.button("Computer's move", key=f"{GROUP}_cmove", on_click=_computer, args=(s, False), disabled=over)
        st.button("Computer plays on", key=f"{GROUP}_cend", on_click=_computer, args=(s, True), disabled=over)
    st.markdown(score_line(s))


def _move_panel(s: ExpertsState) -> None:
    g = s.game
    with st.container(border=True, key=f"{GROUP}_panel"):
        st.markdown("#### Your next round")
        st.caption("Each expert's advice (checked: +1, unchecked: −1), labelled “expert: its mistakes so far”; then "
                   "the outcome.")
        per_row = 2          # a label that fits the panel beside the board at 1100 px
        for start in range(0, g.N, per_row):
            cols = st.columns(per_row, gap="small")
            for i in range(start, min(g.N, start + per_row)):
                cols[i - start].checkbox(f"{i + 1}: {int(s.expert_mistakes[i])} wrong", key=_adv_key(i), value=True)
        full = s.T >= MAX_MOVES
        st.button("Outcome +1", key=f"{GROUP}_out1", on_click=_add, args=(s, 1), disabled=full,
                  use_container_width=True)
        st.button("Outcome −1", key=f"{GROUP}_out0", on_click=_add, args=(s, -1), disabled=full,
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
    flags = game_authors.sync(GROUP, s.moves)
    _controls(s)
    board, panel = st.columns([3, 2], gap="medium")
    with panel:
        _move_panel(s)
        if s.T:
            st.markdown(last_move(s, flags[-1]))
        kind, text = verdict(s, flags)
        getattr(st, kind)(text)
        st.markdown(comparison(s, _computer_game(repr(game), game), flags))
    with board:
        position = _opens_at(s.T, first)
        run_id = f"eadv-{game.learner}-{game.N}-{game.rate:g}-{game.budget}-{encode(s.moves)}"
        spec = {**_spec(run_id, s), "position": position}
        modes = class_session.with_class({**(st.session_state.get(MODES_KEY) or {}), "game_bars": board_options(
            game, s, GROUP)}, MODE_SETTINGS + GAME_SETTINGS, {"mode": "adversary", **v, "emoves": encode(s.moves)})
        position = viewer(spec, key=VIEWER, modes=modes, on_class_settings=_BRIDGE)
        caps.show(CAP)
    state.write_url(MODE_SETTINGS + GAME_SETTINGS, {"mode": "adversary", **v, "emoves": encode(s.moves)},
                    {"t": str(position)} if s.T else None)
    if s.trace is not None:
        common.downloads(s.trace, spec, position, "experts_adversary_game", s.A, s.y, settings=TRANSCRIPT)


def _opens_at(T: int, first: bool) -> int:
    if first:
        start, problem = query_position(T, "t", T)
        report(problem)
        return start
    return T
