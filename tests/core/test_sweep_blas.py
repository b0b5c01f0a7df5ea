"""olc_core.sweep holds BLAS to one thread while it runs (OpenBLAS's spinning workers would take the
cores the seeds need) when called from the main thread, restores the limit afterwards (also
when a cell fails), leaves BLAS alone when called from another thread, and its table is the same as
without the limit."""
from __future__ import annotations

import threading

import numpy as np
import pytest

import olc_core
from olc_core import streams as S
from olc_core.sweep import one_blas_thread

threadpoolctl = pytest.importorskip("threadpoolctl")


def blas_threads() -> list[int]:
    return [i["num_threads"] for i in threadpoolctl.threadpool_info() if i["user_api"] == "blas"]


@pytest.fixture
def two_blas_threads():
    """BLAS with two threads for the test (the machine's default may be one)."""
    if not blas_threads():
        pytest.skip("no BLAS library that threadpoolctl can control")
    with threadpoolctl.threadpool_limits(limits=2, user_api="blas"):
        yield


def test_the_sweep_runs_with_one_blas_thread_and_restores_it(monkeypatch, two_blas_threads):
    seen = []
    real = S.sparse_simplex
    monkeypatch.setattr(S, "sparse_simplex", lambda *a, **k: seen.append(blas_threads()) or real(*a, **k))
    olc_core.sweep("normalized_winnow", "N", [11, 21], seeds=2, T=100, threads=2)
    assert seen and all(b == [1] * len(b) for b in seen)
    assert blas_threads() == [2] * len(blas_threads())
    seen.clear()
    olc_core.sweep("normalized_winnow", "N", [11, 21], seeds=2, T=100, threads=1)   # one sweep thread too
    assert seen and all(b == [1] * len(b) for b in seen)
    assert blas_threads() == [2] * len(blas_threads())


def test_a_sweep_from_another_thread_leaves_blas_alone_and_a_failing_cell_restores_it(two_blas_threads):
    seen, errors = [], []

    def other():
        try:
            with one_blas_thread() as limiter:
                seen.append((limiter, blas_threads()))
            olc_core.sweep("winnow", "beta", [0.5, 1.0], seeds=2, T=200, threads=2)
        except Exception as e:  # pragma: no cover - reported below
            errors.append(e)

    w = threading.Thread(target=other)
    w.start()
    w.join()
    assert not errors and seen[0][0] is None and seen[0][1] == [2] * len(seen[0][1])
    assert blas_threads() == [2] * len(blas_threads())
    with pytest.raises(ValueError, match="seed 0"):
        olc_core.sweep("normalized_winnow", "k", [3, 4], seeds=2, T=50, threads=2)   # k must be odd
    assert blas_threads() == [2] * len(blas_threads())


@pytest.mark.parametrize("algorithm", ["winnow", "normalized_winnow", "perceptron"])
def test_the_table_is_the_same_with_one_blas_thread(algorithm, two_blas_threads):
    param, values = ("gamma", [0.02, 0.1, 0.3]) if algorithm == "perceptron" else ("N", [11, 301, 1001])
    extra = {"d": 20} if algorithm == "perceptron" else {"k": 5}
    limited = olc_core.sweep(algorithm, param, values, seeds=2, T=10_000, threads=2, **extra)
    out = []                                        # from another thread: BLAS keeps its two threads
    w = threading.Thread(target=lambda: out.append(
        olc_core.sweep(algorithm, param, values, seeds=2, T=10_000, threads=2, **extra)))
    w.start()
    w.join()
    free = out[0]
    assert limited.to_csv() == free.to_csv()
    assert np.isfinite(free.columns["bound"]).all()


def test_streams_drawn_into_the_reused_buffer_give_the_direct_cells():
    """The exponentiated update's streams are drawn into one buffer per seed (growing, then reused for a
    smaller N): every cell is still the direct run on its own stream."""
    values = [40, 9, 301, 41, 300]
    t = olc_core.sweep("normalized_winnow", "N", values, seeds=[3, 5], T=700, k=3)
    for i, (v, seed) in enumerate(zip(t.columns["value"].tolist(), t.columns["seed"].tolist())):
        s = S.sparse_simplex(700, int(v), 3, seed)
        tr = olc_core.run("normalized_winnow", s.X, s.y, comparator=s.comparator)
        assert t.columns["mistakes"][i] == tr.n_mistakes and t.columns["bound"][i] == tr.proof.mistake_bound
