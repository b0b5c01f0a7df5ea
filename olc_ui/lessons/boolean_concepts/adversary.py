"""Play the adversary ([004] §2): the student picks each example and its label, the core's elimination
learner answers.

The game is a Streamlit fragment (:func:`play`): a move reruns the board, the move panel and the URL
sync only, not the page, and the move panel sits beside the board. ``moves`` (in the URL) holds
``bits:label,…`` so a link replays the game.

The move panel does not give the answer away: it shows the example x and the learner's hypothesis h
(the core's run: its weights after the last move), and leaves h(x) to the student — a hint switch
shows the learner's prediction. After a move it says what each side said on that example: the
learner's prediction h(x), the student's label, and what the most specific conjunction true on the
positives so far, c, says — and when c says 1 on an example labelled 0, that no conjunction labels
the moves that way.
"""
from __future__ import annotations

import re
from typing import Any, Callable

import numpy as np
import streamlit as st

import olc_core
from olc_core.proofs.boolean import Conjunction
from olc_core.streams import conjunction_adversary, elimination_predictor

from olc_ui.lessons.boolean_concepts.view import (C_NAME, C_ROW, C_TRUE, CAP, GREEN, PALE_TARGET, RED, TARGET,
                                                  assumption_text, bits, conjunction_spec, conjunction_start_spec,
                                                  false_literal_labels, pretty)
from olc_ui.shared import caps, class_session, common, safe, state
from olc_ui.shared.config import Setting
from olc_ui.shared.safe import quote
from olc_ui.shared.state import set_value
from olc_ui.shared.transcript import PageSettings
from olc_ui.viewer.component import viewer
from olc_ui.viewer.spec import MODES_KEY

__all__ = ["ADV_SETTINGS", "MAX_MOVES", "encode_moves", "game_options", "hypothesis", "last_move", "parse_moves",
           "play", "start_spec"]

PAGE = "boolean"
GROUP = f"{PAGE}_adversary"
VIEWER = f"{PAGE}_adversary_viewer"
ADV_SETTINGS = [
    Setting("an", "Variables n", "int", 4, lo=1, hi=10, step=1),
    Setting("moves", "Your moves", "text", "", extra={"max_len": 2000}),
]
MAX_MOVES = 60
_MOVE = re.compile(r"^([01]+):([01])$")


def parse_moves(text: str, n: int) -> tuple[np.ndarray, np.ndarray]:
    """``"1001:1,0110:0"`` → (X, y); ValueError naming the bad move."""
    text = (text or "").strip()
    if not text:
        return np.zeros((0, n)), np.zeros(0)
    X, y = [], []
    for i, tok in enumerate(text.split(",")):
        mt = _MOVE.match(tok.strip())
        if not mt:
            raise ValueError(f"move {i + 1} ({quote(tok, 20)}) is not an example and a label like '1001:1'")
        if len(mt.group(1)) != n:
            raise ValueError(f"move {i + 1} has {len(mt.group(1))} bits but n = {n}")
        X.append([float(b) for b in mt.group(1)])
        y.append(float(mt.group(2)))
    if len(y) > MAX_MOVES:
        raise ValueError(f"{len(y)} moves; a game keeps at most {MAX_MOVES}")
    return np.array(X), np.array(y)


def encode_moves(X, y) -> str:
    return ",".join(f"{bits(x)}:{int(v)}" for x, v in zip(X, y))


def _bit_key(i: int) -> str:
    return f"{PAGE}_adv_bit{i}"


def _set_moves(text: str) -> None:
    set_value(GROUP, ADV_SETTINGS, "moves", text)


def _add_move(n: int, X, y, label: int) -> None:
    x = [1.0 if st.session_state.get(_bit_key(i), False) else 0.0 for i in range(n)]
    _set_moves(encode_moves(list(X) + [x], list(y) + [label]))


def _fill_next(n: int, i: int) -> None:
    for j in range(n):
        st.session_state[_bit_key(j)] = j != i


def _play_sequence(n: int) -> None:
    s = conjunction_adversary(n, elimination_predictor)
    _set_moves(encode_moves(s.X, s.y))


@st.cache_resource(max_entries=64, show_spinner=False)
def _game_run(key: str, _X, _y):
    return olc_core.run("conjunction", _X, _y)


TITLE = "Your examples against the elimination learner"
#: the caption before the first move (the board of any game, in the browser or from the run, says the same)
START = ("Before your first move: the learner holds all 2n literals, so h(x) = 0 on every x. Label your first "
         "example 1 to force a mistake.")


def start_spec(n: int) -> dict:
    """The board before the first move (the viewer is on the page from the start: the first move draws at once)."""
    return conjunction_start_spec(n, run_id=f"adv-{n}-", title=TITLE, start=START)


def game_options(n: int) -> dict[str, Any]:
    """The viewer's game mode (assets/viewer_game.js): the page's move controls, and the texts and colours of
    the board it appends a move to (view.py's, so that a move drawn in the browser reads as the run's)."""
    return {"n": n, "max": MAX_MOVES, "bit": f".st-key-{_bit_key(0)[:-1]}{{i}} input[type=checkbox]",
            "lab1": f'.st-key-{PAGE}_adv_lab1 [data-testid^="stBaseButton"]',
            "lab0": f'.st-key-{PAGE}_adv_lab0 [data-testid^="stBaseButton"]',
            "nf": false_literal_labels(2 * n), "c_name": list(C_NAME), "c_row": list(C_ROW), "c_true": C_TRUE,
            "colors": {"true": GREEN, "false": RED, "target": TARGET, "pale": PALE_TARGET}}


@st.cache_resource(max_entries=64, show_spinner=False)
def _game_spec(run_id: str, _trace, _X, _y) -> dict:
    spec = conjunction_spec(_trace, _X, _y, run_id=run_id, title=TITLE)
    spec["caption"]["start"] = START
    return spec


# ------------------------------------------------------------------------------------------ what each side says

def hypothesis(trace, n: int) -> Conjunction:
    """The learner's h after the last move (the core's weights: one 0/1 per literal); all 2n literals before any."""
    if trace is None:
        return Conjunction.from_mask(np.ones(2 * n, dtype=bool))
    return Conjunction.from_mask(np.asarray(trace.weights_at(trace.T)) != 0)


def h_text(h: Conjunction, n: int) -> str:
    """h for a student: its literals, or what an h with every literal means."""
    if h.size == 2 * n:
        return "all 2n literals x₁ ∧ ¬x₁ ∧ …: false on every example"
    return pretty(str(h)) if h.size else "True (no literal left): true on every example"


def last_move(trace, X: np.ndarray, y: np.ndarray) -> str:
    """Markdown: on the last move, the learner's prediction, the label, and what the most specific c says."""
    t = trace.T
    x, lab, pred = X[t - 1], int(y[t - 1]), int(trace.predictions[t - 1])
    wrong = pred != lab
    kind = ("" if not wrong else " (a false negative: h lost the literals that are 0 on x)" if lab == 1 else
            " (a false positive: h(x) = 1 although you labelled x 0)")
    out = (f"**Round {t}**: $x = {bits(x)}$, your label $y = {lab}$. The learner had predicted "
           f"$\\hat y = h(x) = {pred}$ — **{'a mistake' if wrong else 'correct'}**{kind}.")
    c = trace.proof.constants
    ms = c.get("most_specific")
    if ms is None:
        return out
    cx = int(ms(x[None, :])[0])
    name = pretty(str(ms)) if ms.size else "True"
    if c.get("consistent"):
        return out + (f" The most specific conjunction true on your positives, $c$ = {name}, says $c(x) = {cx}$: "
                      "it labels every move so far as you did.")
    return out + (f" The most specific conjunction true on your positives, $c$ = {name}, says $c(x) = {cx}$"
                  + (" on this example, but it says 1 on an example you labelled 0, so **no conjunction labels "
                     "your moves** the way you did." if cx == lab else
                     f", not your label {lab}: **no conjunction labels your moves** the way you did "
                     f"(any conjunction true on your positives keeps only literals of c)."))


# ------------------------------------------------------------------------------------------ the fragment

def _moves(n: int) -> tuple[np.ndarray, np.ndarray]:
    """The moves so far (from the session; a link's on the first run), checked; a bad or stale link starts over."""
    text = state.current(GROUP, ADV_SETTINGS)["moves"]
    first = (text or "").split(",")[0].split(":")[0].strip()
    if first and re.fullmatch(r"[01]+", first) and len(first) != n:
        st.info(f"Your moves were examples of {len(first)} bits; with n = {n} a new game starts.")
        _set_moves("")
        return np.zeros((0, n)), np.zeros(0)
    try:
        return parse_moves(text, n)
    except ValueError as exc:
        safe.notice("warning", "The moves in the link could not be read: ", f"{exc}. The game starts over.")
        _set_moves("")
        return np.zeros((0, n)), np.zeros(0)


def _score(trace, n: int) -> None:
    """The metrics and the progress towards n + 1, and what the moves so far mean for the theorem (zeros before
    the first move: the board below does not move when the first one comes)."""
    T, M, applies = (trace.T, trace.n_mistakes, trace.proof.applies) if trace is not None else (0, 0, True)
    cols = st.columns([1, 1.2, 1.4, 1])       # room for "not claimed"
    cols[0].metric("Your moves", f"{T}")
    cols[1].metric("Mistakes forced M", f"{M}")
    cols[2].metric("Bound n + 1", f"{n + 1}" if applies else "not claimed")
    cols[3].metric("Lower bound n", f"{n}",
                   help="no deterministic learner can be guaranteed fewer mistakes: the adversary forces n on any")
    st.progress(min(1.0, M / (n + 1)), text=f"Mistakes forced: M = {M} of the n + 1 = {n + 1} the theorem allows"
                + ("" if applies else " (not claimed: see beside the board)"))


def _verdict(trace, n: int) -> None:
    M = trace.n_mistakes
    if trace.proof.applies:
        c = trace.proof.constants
        if M >= n + 1:
            st.success(f"You forced **n + 1 = {M}** mistakes: the bound is tight for this learner, and no "
                       "sequence labelled by a conjunction can force more.")
        elif M >= n:
            st.success(f"You forced **n = {M}** mistakes, as the [004] adversary does against any deterministic "
                       f"learner. One more is possible against this learner (at most n + 1 = {n + 1}).")
        tgt = pretty(str(c["target"])) if c["target"].size else "True (the empty conjunction)"
        st.info(f"Your labels are consistent: c = {tgt}, the most specific conjunction true on your positives, "
                "labels every example the way you did, so the bound stands.")
    else:
        det = "; ".join(assumption_text(a, trace.proof) for a in trace.proof.failed_assumptions)
        st.warning(f"**No conjunction labels your examples this way** — {safe.md(det)}. The theorem's assumption fails, "
                   f"so $M \\le n + 1$ is not claimed any more. Each false positive of the learner proves it "
                   f"on the spot: every conjunction that labels the positives so far 1 uses only literals of h, "
                   f"so h(x) = 1 means they all say 1. A negative example can also be shown inconsistent later, "
                   f"when more positives arrive.")


def _move_panel(n: int, X, y, trace) -> None:
    """The next move: the bits, the learner's h, a hint switch, neutral label buttons, undo."""
    T = len(y)
    with st.container(border=True, key=f"{PAGE}_adv_panel"):
        st.markdown("#### Your next move")
        # three to a row, small gaps: at a projector's 1100×800 the panel is ~420 px wide, and five columns
        # cut each label to "x." (tests/e2e/test_adversary_labels.py measures the labels in Chromium)
        per_row = min(n, 3)
        for start in range(0, n, per_row):
            cols = st.columns(per_row, gap="small")
            for i in range(start, min(n, start + per_row)):
                cols[i - start].checkbox(pretty(f"x{i + 1}"), key=_bit_key(i))
        x = np.array([1.0 if st.session_state.get(_bit_key(i), False) else 0.0 for i in range(n)])
        h = hypothesis(trace, n)
        st.markdown(f"Example $x = {bits(x)}$. The learner's hypothesis: $h$ = {h_text(h, n)}. It predicts "
                    "$h(x) = 1$ only if every literal of $h$ is 1 on $x$. Which label forces a mistake — and "
                    "which keeps your labels a conjunction's?")
        if st.toggle("Show the learner's prediction (a hint)", key=f"{PAGE}_adv_hint"):
            st.markdown(f"On $x = {bits(x)}$ the learner predicts $\\hat y = {int(elimination_predictor(x, X, y))}$.")
        full = T >= MAX_MOVES
        c1, c2 = st.columns(2)
        c1.button("Label 1", key=f"{PAGE}_adv_lab1", on_click=_add_move, args=(n, X, y, 1), disabled=full,
                  use_container_width=True, help="x is a positive example")
        c2.button("Label 0", key=f"{PAGE}_adv_lab0", on_click=_add_move, args=(n, X, y, 0), disabled=full,
                  use_container_width=True, help="x is a negative example")
        st.button("Undo the last move", key=f"{PAGE}_adv_undo", disabled=T == 0, on_click=_set_moves,
                  args=(encode_moves(X[:-1], y[:-1]),))
        if full:
            st.caption(f"A game keeps at most {MAX_MOVES} moves: undo or start over.")
        if trace is not None:
            st.markdown(last_move(trace, X, y))


def _suggestion(n: int, T: int) -> None:
    with st.expander("The [004] adversary, one click away"):
        seq = ", ".join(bits(np.arange(n) != i) for i in range(n))
        st.markdown(f"Example $i$ has every bit set but bit $i$: {seq}. Label each the opposite of the learner's "
                    "prediction: any deterministic learner makes $n$ mistakes on these $n$ examples, and the labels "
                    "are a (monotone) conjunction's.")
        if T < n:
            st.button(f"Fill in example {T + 1} of the sequence", key=f"{PAGE}_adv_fill", on_click=_fill_next,
                      args=(n, T))
        st.button(f"Play the whole sequence ({n} moves)", key=f"{PAGE}_adv_seq", on_click=_play_sequence, args=(n,))
        st.button("Start over", key=f"{PAGE}_adv_reset", on_click=_set_moves, args=("",), disabled=T == 0)
        st.caption("Can you force n + 1? Hint: begin with the all-zeros example, labelled 1.")


@st.fragment
def play(n: int, publish: Callable[[dict[str, Any], dict[str, str] | None], None],
         opens_at: Callable[[int], int], settings: PageSettings | None = None) -> None:
    """The game: score, the board (the step viewer) beside the move panel, the downloads.

    ``publish(values, extra)`` writes the URL (the page's settings with these); ``opens_at(T)``:
    where the viewer opens a game of T moves; ``settings``: the page's, for the downloads' names and transcript.
    A move reruns this fragment only.
    """
    X, y = _moves(n)
    T = len(y)
    st.markdown(
        f"You choose each example $x \\in \\{{0,1\\}}^{{{n}}}$ **and** its label; the elimination learner "
        f"predicts first. Force as many mistakes as you can — the theorem says it makes at most "
        f"$n + 1 = {n + 1}$ as long as **some** conjunction labels your examples the way you did.")
    trace = _game_run(encode_moves(X, y), X, y) if T else None
    _score(trace, n)
    board, panel = st.columns([4, 3], gap="medium")
    with panel:
        _move_panel(n, X, y, trace)
        if trace is not None:
            _verdict(trace, n)
        _suggestion(n, T)
    with board:
        # the game mode draws a move in the browser at the click; this rerun then sends the run's board
        position = opens_at(T)
        spec = {**(_game_spec(f"adv-{n}-{encode_moves(X, y)}", trace, X, y) if T else start_spec(n)),
                "position": position}
        position = viewer(spec, key=VIEWER, modes={**(st.session_state.get(MODES_KEY) or {}), "game": game_options(n)},
                          on_class_settings=class_session.apply_settings)
        caps.show(CAP)
    publish({"moves": encode_moves(X, y)}, {"t": str(position)} if T else None)
    if trace is not None:
        common.downloads(trace, spec, position, "boolean_adversary_game", X, y, settings=settings)

