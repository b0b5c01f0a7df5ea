"""Winnow's checkpointed history (issue 24): the exponents are stored every ``every`` mistakes and replayed
from X in between (:class:`olc_core.trace.RowReplayHistory`), not one int64 N-vector per mistake.

Every trace, proof series, verdict and weight vector (``weights_at`` / ``log_weights_at`` at every round)
must be bit for bit those of the old learner (``tests/core/winnow_reference``: one snapshot per mistake in
a ``SnapshotHistory``), in both engines, with checkpoints far apart and replays spanning several blocks;
and the history's own bytes stay bounded where the old one grew as M·N·8. The target the proof finds
when none is given (``consistent_disjunction``) reads X in blocks and is the old one."""
from __future__ import annotations

import contextlib
import tracemalloc

import numpy as np
import pytest

import olc_core
from olc_core import comparators
from olc_core._kernels import engine as kernel_engine
from olc_core.learners import winnow as W
from olc_core.streams.winnow_extra import winnow_demotion_chain
from olc_core.trace import RowReplayHistory, SnapshotHistory
from tests.core.winnow_reference import winnow as old_winnow

ENGINES = ["numpy"] + (["numba"] if kernel_engine.available() else [])


def same(a, b) -> bool:
    a, b = np.asarray(a), np.asarray(b)
    return a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes()


@contextlib.contextmanager
def engine(monkeypatch, name):
    with monkeypatch.context() as m:
        m.setenv("OLC_CORE_ENGINE", "numpy" if name == "numpy" else "auto")
        yield


def streams():
    """(X, y, beta, comparator, rounds to compare the weights at: None = all)."""
    for seed, (T, N, k, noise, beta, dtype) in enumerate([
            (1500, 120, 4, 0.1, 0.05, np.uint8), (1200, 60, 3, 0.0, 1.0, np.float64),
            (900, 200, 10, 0.2, 0.5, bool), (800, 33, 2, 0.3, 3.0, np.int64), (600, 7, 1, 0.0, 1.0, np.uint8)]):
        s = olc_core.streams.sparse_disjunction(T=T, N=N, k=k, seed=seed, noise=noise, dtype=dtype)
        yield s.X, s.y, beta, s.comparator, None
        if seed < 3:
            yield s.X, s.y, beta, None, None          # the comparator found by the proof (or none)
    d = winnow_demotion_chain(T=400, N=64, seed=2)     # weights far below the smallest float
    yield d.X, d.y, 1e6, d.comparator, None
    X = np.zeros((50, 9), dtype=np.uint8)            # no mistake at all
    yield X, np.zeros(50), 0.5, [2], None


def long_stream():
    """> 2¹⁴ states: the proof's verdicts go through the compiled kernel (numba engine)."""
    s = olc_core.streams.sparse_disjunction(T=40_000, N=6, k=2, seed=11, noise=0.5, dtype=np.uint8)
    return s.X, s.y, 0.25, s.comparator, np.unique(np.r_[np.arange(0, 40_001, 97), 40_000, s.X.shape[0] - 1])


def assert_same_run(new, old, rounds):
    assert same(new.mistakes, old.mistakes) and same(new.predictions, old.predictions)
    for key in ("log_score", "score", "exact_decision"):
        assert same(new.columns[key], old.columns[key]), key
    assert same(new.history.snapshots, old.history.snapshots)
    assert (new.weight_kind, new.log_base, new.base) == (old.weight_kind, old.log_base, old.base)
    p, q = new.proof, old.proof
    assert same(p.state_rounds, q.state_rounds) and p.mistake_bound == q.mistake_bound
    assert set(p.series) == set(q.series)
    for key in q.series:
        assert same(p.series[key], q.series[key]), key
    assert p.violations() == q.violations()
    pm, qm = p.check_matrix(), q.check_matrix()
    assert set(pm) == set(qm) and all(same(pm[k], qm[k]) for k in qm)
    assert {k: str(v) for k, v in p.constants.items()} == {k: str(v) for k, v in q.constants.items()}
    ts = np.arange(new.T + 1) if rounds is None else np.asarray(rounds)
    # in order (each replay starts from the state before: the history's cache), then 200 in a random
    # order (replays from the checkpoints, or from a later cached state: never used backwards)
    for t in np.r_[ts, np.random.default_rng(new.T).choice(ts, 200)].tolist():
        assert same(new.weights_at(t), old.weights_at(t)), t
        assert same(new.log_weights_at(t), old.log_weights_at(t)), t
        assert same(new.history.raw_at(t), old.history.raw_at(t)), t


def compare(monkeypatch, eng, budget, cases):
    """Run every case with checkpoints within ``budget`` bytes (replay blocks of 1000 cells, so long replays
    spans several blocks); returns the ``every`` of each run."""
    monkeypatch.setattr(W.checkpoint_every, "__defaults__", (budget,))
    monkeypatch.setattr(RowReplayHistory, "BLOCK_CELLS", 1000)
    everies = []
    with engine(monkeypatch, eng):
        for X, y, beta, comp, rounds in cases:
            new = olc_core.run("winnow", X, y, beta=beta, comparator=comp)
            old = old_winnow.run(W.as_binary_matrix(X), y, new.params)
            assert isinstance(old.history, SnapshotHistory) and isinstance(new.history, RowReplayHistory)
            everies.append(new.history.every)
            assert_same_run(new, old, rounds)
    return everies


@pytest.mark.parametrize("budget", [W.CHECKPOINT_BYTES, 0, 2000])
@pytest.mark.parametrize("eng", ENGINES)
def test_the_checkpointed_history_gives_the_old_traces_proofs_and_weights(monkeypatch, eng, budget):
    """budget 0: a checkpoint every T mistakes (only the initial state is stored; everything replayed);
    2000 bytes: a few checkpoints; the default: (at these sizes) a checkpoint at every mistake."""
    everies = compare(monkeypatch, eng, budget, streams())
    assert (max(everies) > 1) == (budget < W.CHECKPOINT_BYTES)


@pytest.mark.parametrize("budget", [W.CHECKPOINT_BYTES, 2000])
@pytest.mark.parametrize("eng", ENGINES)
def test_a_long_run_with_compiled_verdicts_is_the_old_one(monkeypatch, eng, budget):
    everies = compare(monkeypatch, eng, budget, [long_stream()])
    assert everies == [1 if budget == W.CHECKPOINT_BYTES else -(-40_000 // (2000 // 48))]


def test_snapshot_rows_and_columns_are_blocks_of_the_old_snapshots(monkeypatch):
    monkeypatch.setattr(W.checkpoint_every, "__defaults__", (3000,))   # 3000 bytes: every ~5 mistakes here
    s = olc_core.streams.sparse_disjunction(T=2000, N=40, k=3, seed=5, noise=0.2, dtype=np.uint8)
    new = olc_core.run("winnow", s.X, s.y, beta=0.3, comparator=s.comparator)
    S = old_winnow.run(s.X, s.y, new.params).history.snapshots
    h = new.history
    M = S.shape[0]
    assert h.every > 1 and M > 100
    rng = np.random.default_rng(0)
    for a, b in [(0, M), (0, 1), (M - 1, M), (5, 5), (M - 3, M + 10)] + [tuple(sorted(rng.integers(0, M, 2)))
                                                                          for _ in range(30)]:
        assert same(h.snapshot_rows(a, b), S[a:b]), (a, b)
    for cols in ([0], [39, 1, 7], s.comparator, np.arange(40)):
        assert same(h.columns(cols), S[:, cols])
    for j in range(M + 1):
        assert same(h.state(j), S[j - 1] if j else np.zeros(40, dtype=np.int64))


def test_the_history_holds_a_few_megabytes_not_one_vector_per_mistake():
    """N = 2,000, T = 8,000 with 10 % noise: ≈ 3,000 mistakes, which the old history kept as ≈ 48 MB of
    exponent vectors (M·N·8 bytes). The checkpoints stay within CHECKPOINT_BYTES (4 MiB) plus one vector,
    and the rest is O(M): mistake rounds (8 bytes) and signs (1 byte)."""
    T, N = 8000, 2000
    s = olc_core.streams.sparse_disjunction(T=T, N=N, k=20, seed=1, noise=0.1, dtype=np.uint8)
    tr = olc_core.run("winnow", s.X, s.y, beta=0.05, comparator=s.comparator)
    M = tr.n_mistakes
    assert M > 2000
    bound = W.CHECKPOINT_BYTES + 8 * N + 9 * M + 8 * N
    assert tr.history.nbytes <= bound, (tr.history.nbytes, bound)
    assert tr.history.nbytes < M * N * 8 / 8           # the old history: M·N·8 bytes
    assert tr.history.X is not None and np.shares_memory(tr.history.X, s.X)   # a reference, not a copy


def old_consistent_disjunction(X, y):
    """``olc_core.comparators.consistent_disjunction`` before issue 24 (verbatim but for the return type):
    one ``X != 0`` copy of the whole matrix, then copies of its negative and positive rows."""
    X = np.asarray(X) != 0
    y = np.asarray(y) != 0
    allowed = ~X[~y].any(axis=0) if (~y).any() else np.ones(X.shape[1], dtype=bool)
    pos = np.flatnonzero(y)
    covered_possible = X[pos][:, allowed].any(axis=1) if allowed.any() else np.zeros(len(pos), dtype=bool)
    if not covered_possible.all():
        return False, np.zeros(0, dtype=np.int64), pos[~covered_possible].astype(np.int64)
    cand = np.flatnonzero(allowed)
    P = X[pos][:, cand]
    uncovered = np.ones(len(pos), dtype=bool)
    chosen: list[int] = []
    while uncovered.any():
        counts = P[uncovered].sum(axis=0)
        j = int(np.argmax(counts))
        chosen.append(int(cand[j]))
        uncovered &= ~P[:, j]
    if not chosen and len(cand):
        chosen.append(int(cand[0]))
    return True, np.array(sorted(chosen), dtype=np.int64), np.zeros(0, dtype=np.int64)


@pytest.mark.parametrize("block_cells", [comparators._DJ_BLOCK_CELLS, 7, 1])
def test_the_blockwise_consistent_disjunction_is_the_old_one(monkeypatch, block_cells):
    monkeypatch.setattr(comparators, "_DJ_BLOCK_CELLS", block_cells)
    cases = []
    for seed, (T, N, k, noise, dtype) in enumerate([(300, 40, 3, 0.0, np.uint8), (300, 40, 3, 0.05, np.float64),
                                                     (200, 25, 5, 0.0, bool), (50, 200, 2, 0.0, np.int64),
                                                     (120, 9, 1, 0.3, np.uint8)]):
        s = olc_core.streams.sparse_disjunction(T=T, N=N, k=k, seed=seed, noise=noise, dtype=dtype)
        cases += [(s.X, s.y), (s.X, np.ones(T)), (s.X, np.zeros(T)), (s.X[:1], s.y[:1])]
    rng = np.random.default_rng(3)
    cases.append(((rng.random((80, 30)) < 0.05).astype(np.uint8), (rng.random(80) < 0.9).astype(float)))
    outcomes = set()
    for X, y in cases:
        dj = comparators.consistent_disjunction(X, y)
        ok, rel, bad = old_consistent_disjunction(X, y)
        assert dj.consistent == ok and same(dj.relevant, rel) and same(dj.failing_rounds, bad)
        outcomes.add((ok, rel.size > 0))
    assert {(True, True), (False, False)} <= outcomes      # consistent with a target, and inconsistent


def test_the_consistent_disjunction_reads_x_in_blocks():
    """N = 2,000, T = 8,000, uint8 (16 MB), 10 % noise: before, ``X != 0`` alone was 16 MB more."""
    s = olc_core.streams.sparse_disjunction(T=8000, N=2000, k=20, seed=2, noise=0.1, dtype=np.uint8)
    tracemalloc.start()
    base = tracemalloc.get_traced_memory()[0]
    dj = comparators.consistent_disjunction(s.X, s.y)
    peak = tracemalloc.get_traced_memory()[1] - base
    tracemalloc.stop()
    assert not dj.consistent and dj.failing_rounds.size
    assert peak < s.X.nbytes / 2, (peak, s.X.nbytes)
