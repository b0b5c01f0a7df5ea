"""Play the adversary, a move drawn in the browser (olc_ui/viewer/assets/viewer_game.js): the board it appends
must be, array for array, the board of the core's run on the moves (olc_ui/lessons/boolean_concepts: view.py's
conjunction_spec on olc_core.run("conjunction", …)) — h in every state, the literals crossed out, each literal's
value on x, the mistakes and false positives, the row c and whether a conjunction still fits, the caption's
texts and numbers. Random games (seeded) of every kind of move, the browser starting from the empty board or
from the server's board after any number of moves."""
from __future__ import annotations

import json

import numpy as np
import pytest

import olc_core
from olc_ui.lessons.boolean_concepts import adversary as B

from tests.conftest import node_eval

APPLY = """data.map(g => g.moves.map(([x, label]) => {
  m.applyMove(g.spec, g.o, x, label);
  return JSON.parse(JSON.stringify(g.spec));
}))"""


def board(spec: dict) -> dict:
    """What a board spec draws of the literal table and the caption (labels decoded into their texts)."""
    main = next(f for f in spec["figures"] if f["id"] == "main")
    t0 = main["figure"]["data"][0]
    A = spec["arrays"]
    keep = ["h_x", "h_y", "h_t", "o_x", "o_y", "o_t", "now_x", "now_y", "r_all", "row1"]
    keep += [k for k in A if k[:2] in ("lx", "lt", "lc") and k[2:].isdigit()]
    cap = spec["caption"]
    text = {name: [v["labels"][i] for i in v["data"]] if "labels" in v else list(v["data"])
            for name, v in cap["values"].items()}
    return {
        "T": spec["T"], "breaks": list(spec["breaks"]), "mistake_rounds": list(spec["mistake_rounds"]),
        "fp": list((spec.get("extra_stops") or {}).get("false positive", [])),
        "arrays": {k: A[k] for k in keep}, "caption": text, "template": cap["template"], "start": cap.get("start"),
        "c": [t0["x"], t0["y"], t0["text"], t0["name"], t0["marker"]["color"], t0["hovertemplate"]],
        "ticks": main["figure"]["layout"]["yaxis"]["ticktext"],
        "notes": [a["text"] for a in main["figure"]["layout"].get("annotations", [])],
    }


def server_spec(n: int, X: np.ndarray, y: np.ndarray) -> dict:
    """The board the page sends for these moves (as adversary.play builds it)."""
    if len(y) == 0:
        return json.loads(json.dumps(B.start_spec(n)))
    trace = olc_core.run("conjunction", X, y)
    return json.loads(json.dumps(B._game_spec.__wrapped__(f"adv-{n}-{B.encode_moves(X, y)}", trace, X, y)))


def random_game(rng: np.random.Generator, n: int, T: int) -> tuple[np.ndarray, np.ndarray]:
    """Moves of every kind: repeated examples, the all-ones and all-zeros, labels random or forcing a mistake."""
    pool = rng.integers(0, 2, size=(max(2, T // 2), n))
    X = np.array([pool[rng.integers(len(pool))] if rng.random() < 0.6 else
                  np.full(n, rng.integers(0, 2)) if rng.random() < 0.3 else rng.integers(0, 2, n)
                  for _ in range(T)], dtype=float)
    y = np.empty(T)
    for t in range(T):
        if rng.random() < 0.5:   # force a mistake: the opposite of the learner's prediction
            pred = olc_core.run("conjunction", X[: t + 1], np.r_[y[:t], 0.0]).predictions[t]
            y[t] = 1.0 - pred
        else:
            y[t] = float(rng.integers(0, 2))
    return X, y


@pytest.mark.parametrize("seed", range(6))
def test_a_move_drawn_in_the_browser_is_the_runs_board(tmp_path, seed):
    rng = np.random.default_rng(seed)
    games, expected = [], []
    for _ in range(12):
        n = int(rng.integers(1, 7))
        T = int(rng.integers(1, 16))
        X, y = random_game(rng, n, T)
        k = int(rng.integers(0, T))              # the server's board after k moves; the browser plays the rest
        games.append({"spec": server_spec(n, X[:k], y[:k]), "o": B.game_options(n),
                      "moves": [[[int(b) for b in X[t]], int(y[t])] for t in range(k, T)]})
        expected.append([board(server_spec(n, X[: t + 1], y[: t + 1])) for t in range(k, T)])
    got = node_eval(tmp_path, "viewer_game.js", APPLY, games)
    for g, (js, py) in enumerate(zip(got, expected)):
        for t, (a, b) in enumerate(zip(js, py)):
            assert board(a) == b, (seed, g, t, games[g]["moves"])


def test_the_adversary_sequence_and_a_false_positive(tmp_path):
    """The [004] sequence (n mistakes), then the all-ones labelled 0: a false positive, c no longer fits."""
    n = 4
    X = np.array([[float(j != i) for j in range(n)] for i in range(n)] + [[1.0] * n])
    y = np.array([1.0] * n + [0.0])
    games = [{"spec": server_spec(n, X[:0], y[:0]), "o": B.game_options(n),
              "moves": [[[int(b) for b in x], int(v)] for x, v in zip(X, y)]}]
    got = node_eval(tmp_path, "viewer_game.js", APPLY, games)[0]
    assert [board(s) for s in got] == [board(server_spec(n, X[: t + 1], y[: t + 1])) for t in range(len(y))]
    last = board(got[-1])
    assert last["fp"] == [n] and last["ticks"][2] == "c (positives only)" and last["caption"]["yhat"][-1] == 1   # h(x) = 1, labelled 0
