"""Sound (issue 23 §3; olc_ui/shared/sound.py, assets/viewer_sound.js): which steps sound and at what pitch.

Python finds, in every page's spec, where the pitch comes from (the sandwich's current-value markers and its
crossing); the browser's pure part (``soundFor``, run under node) must then sound exactly the forward steps
over a round where the learner errs, at the pitch of the sandwich's x at the new position over the crossing —
computed here independently from the spec's arrays — and that pitch rises from the first mistake to the last."""
from __future__ import annotations

import math
import shutil

import pytest

from olc_ui.shared import sound
from olc_ui.viewer.snapshot import state_index
from olc_ui.viewer.spec import minimal_spec

from ..conftest import node_eval
from . import page_specs as P

pytestmark = pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")

SOUND_FOR = "data.cases.map(c => m.soundFor(data.opts[c.label], data.arrays[c.label], data.mistakes[c.label], c.from, c.to, c.k))"

#: pages whose sandwich has a crossing: every one but randomised FTRL (its mistakes sound at the low pitch)
NO_CROSSING = {"ftrl"}


def expected(spec: dict, opts: dict, a: int, b: int) -> dict | None:
    """The tone of a step a → b, from the spec alone (None: silent)."""
    m = spec["mistake_rounds"]
    crossed = [r for r in m if a <= r < b] if b > a else []
    if not crossed:
        return None
    near = None
    if "x" in opts:
        xs = spec["arrays"][opts["x"]]
        i = b if opts["by"] == "position" else state_index(spec, b)
        v = xs[min(max(i, 0), len(xs) - 1)]
        near = None if v is None else min(max(v / opts["bound"], 0.0), 1.0)
    freq = sound.LOW_HZ if near is None else sound.LOW_HZ * (sound.HIGH_HZ / sound.LOW_HZ) ** near
    return {"round": crossed[-1], "crossed": len(crossed), "near": near, "freq": freq}


def steps(spec: dict) -> list[tuple[int, int]]:
    """Every single step forward and back, and jumps: onto each mistake's reveal, over several, to the end."""
    T, m = spec["T"], spec["mistake_rounds"]
    out = [(p, p + 1) for p in range(T)] + [(p + 1, p) for p in range(0, T, 7)]
    out += [(0, r + 1) for r in m[:20]] + [(0, T), (T, 0), (5, 5)]
    out += [(m[i] + 1, m[i + 2] + 1) for i in range(min(len(m) - 2, 10))]
    return out


@pytest.mark.parametrize("label", P.labels())
def test_the_pitch_comes_from_the_sandwich(label):
    spec, _ = P.spec(label)
    src = sound.source(spec)
    if label in NO_CROSSING:
        assert src == {}
        return
    fig = next(f for f in spec["figures"] if f["id"] == src["figure"])
    cross = next(t for t in fig["figure"]["data"] if t.get("meta") == "crossing")
    assert src["bound"] == cross["x"][0] > 0
    assert src["x"] in {op["x"] for op in fig["dynamic"] if op["op"] in ("point_state", "point_position")}
    assert len(spec["arrays"][src["x"]]) == (spec["T"] + 1 if src["by"] == "position" else len(spec["breaks"]) + 1)


def test_which_steps_sound_and_at_what_pitch(tmp_path):
    data = {"opts": {}, "arrays": {}, "mistakes": {}, "cases": []}
    want = []
    for label in P.labels():
        spec, _ = P.spec(label)
        opts = sound.options(spec)
        data["opts"][label] = opts
        data["arrays"][label] = {k: spec["arrays"][k] for k in [opts.get("x")] if k}
        data["mistakes"][label] = spec["mistake_rounds"]
        for a, b in steps(spec):
            data["cases"].append({"label": label, "from": a, "to": b, "k": state_index(spec, b)})
            want.append(expected(spec, opts, a, b))
    got = node_eval(tmp_path, "viewer_sound.js", SOUND_FOR, data)
    assert len(got) == len(want)
    sounding = 0
    for c, g, w in zip(data["cases"], got, want):
        assert (g is None) == (w is None), (c, g, w)
        if w is None:
            continue
        sounding += 1
        assert (g["round"], g["crossed"]) == (w["round"], w["crossed"]), c
        assert (g["near"] is None) == (w["near"] is None) and math.isclose(g["freq"], w["freq"], rel_tol=1e-9), (c, g, w)
        assert sound.LOW_HZ <= g["freq"] <= sound.HIGH_HZ
    assert sounding > 100


@pytest.mark.parametrize("label", [lab for lab in P.labels() if lab not in NO_CROSSING])
def test_the_pitch_rises_toward_the_bound(tmp_path, label):
    """Stepping one round at a time from the start: a tone exactly on each mistake's round, each at least as high
    as the one before, the last higher than the first (the sandwich closes as M grows)."""
    spec, _ = P.spec(label)
    opts = sound.options(spec)
    m = spec["mistake_rounds"]
    data = {"opts": {label: opts}, "arrays": {label: {opts["x"]: spec["arrays"][opts["x"]]}}, "mistakes": {label: m},
            "cases": [{"label": label, "from": p, "to": p + 1, "k": state_index(spec, p + 1)} for p in range(spec["T"])]}
    got = node_eval(tmp_path, "viewer_sound.js", SOUND_FOR, data)
    rounds = [g["round"] for g in got if g]
    assert rounds == list(m)
    freqs = [g["freq"] for g in got if g]
    assert all(b >= a - 1e-9 for a, b in zip(freqs, freqs[1:])), freqs
    assert len(freqs) >= 2 and freqs[-1] > freqs[0]


def test_no_source_no_crossing_and_the_low_pitch(tmp_path):
    spec = minimal_spec(T=5, mistakes=[1, 3])
    assert sound.source(spec) == {}
    opts = sound.options(spec)
    got = node_eval(tmp_path, "viewer_sound.js",
                    "[m.soundFor(data.o, {}, [1, 3], 0, 2, 0), m.soundFor(data.o, {}, [1, 3], 2, 3, 0),"
                    " m.soundNear({x: 'a', bound: 0}, {a: [1]}, 0, 0), m.soundNear({x: 'a', bound: 2, by: 'state'},"
                    " {a: [0, 1, 4]}, 9, 2), m.soundPitch(data.o, 1)]", {"o": opts})
    assert got[0] == {"round": 1, "crossed": 1, "near": None, "freq": sound.LOW_HZ}
    assert got[1] is None
    assert got[2] is None          # no bound: no pitch from it
    assert got[3] == 1             # beyond the bound: the top pitch
    assert math.isclose(got[4], sound.HIGH_HZ)


def test_a_short_soft_tone_at_most_eight_a_second():
    assert sound.LOW_HZ < sound.HIGH_HZ and 80 <= sound.TONE_MS <= 120 and sound.MAX_PER_SECOND <= 8
