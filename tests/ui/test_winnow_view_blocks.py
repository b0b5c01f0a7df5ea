"""The Winnow page reads its exponents a block of states at a time (replayed from the data by the run's
RowReplayHistory), never all M × N at once: the spec it builds is the one built from every stored
snapshot, for a small and mid-size run, and the per-state summary is the one of the full exponent
matrix (the page's memory: bench/winnow_memory.py --page)."""
from __future__ import annotations

import copy
import json

import numpy as np
import pytest

import olc_core
from olc_core.trace import RowReplayHistory, SnapshotHistory
from olc_ui.lessons.winnow import view as V

RUNS = {"small": dict(T=300, N=40, k=3, noise=0.0, beta=1.0),
        "mid": dict(T=2000, N=500, k=10, noise=0.1, beta=0.05),
        "wide": dict(T=1500, N=3000, k=4, noise=0.05, beta=0.5)}


def _run(c, seed=0):
    s = olc_core.streams.sparse_disjunction(T=c["T"], N=c["N"], k=c["k"], seed=seed, noise=c["noise"],
                                            dtype=np.uint8)
    return s, olc_core.run("winnow", s.X, s.y, beta=c["beta"], comparator=s.comparator)


def _stored(tr):
    """The same trace with every snapshot stored (the history the page read before)."""
    h = tr.history
    full = copy.copy(tr)
    full.history = SnapshotHistory(h.initial, h.change_rounds, np.array(h.snapshots))
    return full


def _reference_summary(tr, rel, n_top=V.N_TOP):
    """exponent_summary from the full (M + 1) × N matrix of exponents, sorted row by row."""
    E = np.vstack([np.zeros((1, tr.d), dtype=np.int64), np.asarray(tr.history.snapshots, dtype=np.int64)])
    irr = np.setdiff1d(np.arange(tr.d), rel)
    Ei = E[:, irr]
    order = np.argsort(-Ei, axis=1, kind="stable")
    top_e = np.take_along_axis(Ei, order[:, :n_top], axis=1)
    rest = -np.sort(-Ei, axis=1)[:, n_top:]
    return {"rel": E[:, rel], "top_e": top_e,
            "rest": np.stack([rest.min(axis=1), np.median(rest, axis=1), rest.max(axis=1)], axis=1)}


@pytest.mark.parametrize("name", list(RUNS))
def test_the_spec_from_replayed_blocks_is_the_spec_from_every_snapshot(name):
    s, tr = _run(RUNS[name])
    assert isinstance(tr.history, RowReplayHistory) and tr.n_mistakes > 20
    a = json.dumps(V.winnow_spec(tr, s.X, s.y, run_id="w"), sort_keys=True)
    b = json.dumps(V.winnow_spec(_stored(tr), s.X, s.y, run_id="w"), sort_keys=True)
    assert a == b


@pytest.mark.parametrize("name", ["mid", "wide"])
def test_exponent_summary_is_the_full_matrix_summary(name):
    s, tr = _run(RUNS[name])
    rel = np.flatnonzero(s.comparator)
    ref = _reference_summary(tr, rel)
    for chunk in (None, 5, 64, 100_000):
        got = V.exponent_summary(tr, rel, chunk=chunk)
        assert np.array_equal(got["rel"], ref["rel"])
        assert np.array_equal(got["top_e"], ref["top_e"])          # the values; ties may name other variables
        E = np.vstack([np.zeros((1, tr.d), dtype=np.int64), np.asarray(tr.history.snapshots)])
        assert np.array_equal(np.take_along_axis(E, got["top_var"], axis=1), got["top_e"])
        assert np.array_equal(got["rest"], ref["rest"])


def test_the_relevant_columns_are_read_without_the_whole_matrix():
    s, tr = _run(RUNS["mid"])
    rel = np.flatnonzero(s.comparator)
    E = np.asarray(tr.history.snapshots, dtype=np.int64)
    got = V._exponent_columns(tr, rel)
    assert np.array_equal(got[0], np.zeros(rel.size)) and np.array_equal(got[1:], E[:, rel])
    assert np.array_equal(V._exponent_columns(_stored(tr), rel), got)
