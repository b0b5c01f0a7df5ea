"""The compiled Perceptron's data half in d = 2 (finiteness, max ‖x‖², labels, y⟨w*,x⟩ with its minimum and
the rounds ≤ 0): its branch-free passes (``perceptron_kernels._data2``) give exactly what the sequential loop gives."""
from __future__ import annotations

import numpy as np
import pytest

import olc_core
from olc_core._kernels import engine as kernel_engine
from olc_core._kernels import perceptron as perceptron_kernels
from olc_core.learners.perceptron import perceptron_numba, perceptron_numpy

needs_numba = pytest.mark.skipif(not kernel_engine.available(), reason="numba not installed")


def _loop(X, y, w, has, t0, r2, cmin, nonpos):
    """The sequential loop itself (the kernel's Python source, its branch-free passes switched off)."""
    cm = np.full(len(X) if has else 0, np.nan)
    real = perceptron_kernels._data2
    perceptron_kernels._data2 = lambda *a: (0.0, np.inf, 0, 0, False)
    try:
        with np.errstate(all="ignore"):  # a square that overflows is part of the test
            out = perceptron_kernels._perceptron_data_py(X, y, w, has, t0, cm, r2, cmin, nonpos, np.zeros(2), np.empty(0), 0)
    finally:
        perceptron_kernels._data2 = real
    return out, cm


def _streams(seed):
    rng = np.random.default_rng(seed)
    T = int(rng.integers(1, 600))
    X = rng.standard_normal((T, 2)) * rng.choice([1e-3, 1.0, 1e3])
    y = rng.choice([-1.0, 1.0], T)
    kind = seed % 7
    w = rng.standard_normal(2)
    w /= np.linalg.norm(w)
    if kind == 1:    # points on w*'s hyperplane (margin ±0.0: −0.0 for label −1) and x = 0
        X[rng.random(T) < 0.3] = 0.0
        X[rng.random(T) < 0.3] = np.array([-w[1], w[0]]) * 2.0
    elif kind == 2:  # a NaN or an infinite entry
        X[rng.integers(T), rng.integers(2)] = rng.choice([np.nan, np.inf, -np.inf])
    elif kind == 3:  # finite rows whose square overflows
        X[rng.integers(T)] = [1e200, -1e200]
    elif kind == 4:  # a label that is not ±1
        y[rng.integers(T)] = rng.choice([0.0, 2.0, np.nan, -0.5])
    elif kind == 5:  # w* = an axis: many margins exactly 0 with X[:, 1] = 0
        w = np.array([0.0, 1.0])
        X[rng.random(T) < 0.5, 1] = 0.0
    return X, y, w, int(rng.integers(0, T)), rng


@needs_numba
@pytest.mark.parametrize("has", [True, False])
def test_data_half_equals_the_sequential_loop_on_many_streams(has):
    k = perceptron_kernels.perceptron_kernel("perceptron_data")
    fast = 0
    for seed in range(400):
        X, y, w, t0, rng = _streams(seed)
        r2, cmin, nonpos = (float(rng.choice([0.0, 0.5, 1e9])), float(rng.choice([np.inf, -0.0, 0.0, -3.0, 2.0])),
                            int(rng.integers(0, 5)))
        want, cm_want = _loop(X, y, w, has, t0, r2, cmin, nonpos)
        cm = np.full(len(X) if has else 0, np.nan)
        got = k(X, y, w, has, t0, cm, r2, cmin, nonpos, np.zeros(2), np.empty(0), 0)
        assert np.array(got[:2]).tobytes() == np.array(want[:2]).tobytes(), (seed, got, want)  # −0.0 ≠ +0.0 here
        assert got[2:] == want[2:], (seed, got, want)
        np.testing.assert_array_equal(cm[t0:], cm_want[t0:])
        assert np.signbit(cm[t0:]).tolist() == np.signbit(cm_want[t0:]).tolist()
        fast += perceptron_kernels._data2(X, y, w, has, t0, np.full(len(X) if has else 0, np.nan))[4]
    assert 100 < fast < 400  # both the branch-free passes and the loop ran


@needs_numba
@pytest.mark.parametrize("noise", [0.0, 0.1, 0.3])
def test_split_run_with_the_data_passes_equals_the_numpy_twin(noise, monkeypatch):
    monkeypatch.setattr(perceptron_kernels, "SPLIT_PROBE", 256)
    monkeypatch.setattr(perceptron_kernels, "SPLIT_MIN_MISTAKE_RATE", 0.0)
    for seed in range(15):
        s = olc_core.streams.separable(T=5000, d=2, gamma=0.02, radius=1.0, seed=seed, noise=noise)
        for w in (s.comparator, None, np.array([1.0, 0.0])):
            a = perceptron_numpy(s.X, s.y, w)
            b = perceptron_numba(s.X, s.y, w, split=True)
            for u, v in zip(a, b):
                np.testing.assert_array_equal(u, v)
            assert np.signbit(a[7]) == np.signbit(b[7])


@needs_numba
@pytest.mark.parametrize("d", [2, 3])
@pytest.mark.parametrize("split", [True, False])
def test_state_rounds_recorded_by_the_loop_are_the_mistakes_plus_one(d, split, monkeypatch):
    # the compiled loop writes where each state starts (0, then mistake + 1) as it records a mistake, growing
    # its buffers on the way (40 % noise: more mistakes than the first buffer holds); the proof uses them
    monkeypatch.setattr(perceptron_kernels, "SPLIT_PROBE", 1024)
    s = olc_core.streams.noisy(T=20_000, d=d, gamma=0.01, noise=0.4, seed=d)
    out = perceptron_numba(s.X, s.y, s.comparator, split=split)
    mis, sr = out[2], out[9]
    assert len(mis) > 20_000 // 4 and sr.dtype == np.int64
    np.testing.assert_array_equal(sr, np.concatenate([[0], mis + 1]))
    for engine in ("numba", "numpy"):
        tr = olc_core.run("perceptron", s.X, s.y, comparator=s.comparator, engine=engine)
        np.testing.assert_array_equal(tr.proof.state_rounds, np.concatenate([[0], tr.mistakes + 1]))
        np.testing.assert_array_equal(tr.proof.n_mistakes, np.arange(len(tr.mistakes) + 1))


class _Starved:
    """A worker that never gets a CPU: its tasks stay pending (so they can be cancelled)."""

    def submit(self, fn, *args):
        from concurrent.futures import Future
        return Future()


@needs_numba
@pytest.mark.parametrize("starved", [False, True])
@pytest.mark.parametrize("d", [2, 3])
def test_data_half_in_chunks_equals_the_numpy_twin(starved, d, monkeypatch):
    # the split's data half in chunks of 192 rounds (either thread takes them; a starved worker's task is
    # cancelled and the learner's thread does them all): the same values as the numpy loop, −0.0 included
    monkeypatch.setattr(perceptron_kernels, "SPLIT_PROBE", 256)
    monkeypatch.setattr(perceptron_kernels, "SPLIT_MIN_MISTAKE_RATE", 0.0)
    monkeypatch.setattr(perceptron_kernels, "DATA_CHUNK", 192)
    if starved:
        monkeypatch.setattr(kernel_engine, "worker", lambda: _Starved())
    for seed in range(12):
        s = olc_core.streams.separable(T=3000 + seed, d=d, gamma=0.02, radius=1.0, seed=seed, noise=0.15)
        X = s.X.copy()
        if seed % 3 == 0:  # points on the axis hyperplane: margins ±0.0 for w* = e_1 in several chunks
            X[::7, 0] = 0.0
        axis = np.eye(d)[0]
        for w in (s.comparator, None, axis):
            a = perceptron_numpy(X, s.y, w)
            b = perceptron_numba(X, s.y, w, split=True)
            for u, v in zip(a, b):
                np.testing.assert_array_equal(u, v)
            assert np.signbit(a[7]) == np.signbit(b[7])


@needs_numba
@pytest.mark.parametrize("starved", [False, True])
def test_bad_rows_and_labels_in_a_later_chunk_are_refused_as_in_one_pass(starved, monkeypatch):
    monkeypatch.setattr(perceptron_kernels, "SPLIT_PROBE", 256)
    monkeypatch.setattr(perceptron_kernels, "SPLIT_MIN_MISTAKE_RATE", 0.0)
    monkeypatch.setattr(perceptron_kernels, "DATA_CHUNK", 192)
    if starved:
        monkeypatch.setattr(kernel_engine, "worker", lambda: _Starved())
    s = olc_core.streams.separable(T=3000, d=2, gamma=0.02, radius=1.0, seed=1, noise=0.2)
    for bad_at, label_at in ((2100, None), (2100, 900), (None, 900), (900, 2100)):
        X, y = s.X.copy(), s.y.copy()
        if bad_at is not None:
            X[bad_at, 1] = np.nan
            X[bad_at + 300, 0] = np.inf
        if label_at is not None:
            y[label_at] = 0.0
        msgs = []
        for split in (True, False):
            with pytest.raises(ValueError) as e:
                perceptron_numba(X, y, s.comparator, split=split)
            msgs.append(str(e.value))
        assert msgs[0] == msgs[1]
        assert (f"round {bad_at + 1}" in msgs[0]) if bad_at is not None else ("label" in msgs[0])
