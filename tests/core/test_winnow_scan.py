"""The exponentiated update's scan between mistakes (olc_core._kernels.winnow.scan_rows): the compiled
kernel gives its numpy twin's bits and stops at the same row for the same reason, and the learner's
loop built on it gives, bit for bit, the trace of the block loop it replaced (kept here as the
reference: blocks of rows through ``_signs``, near ties decided exactly in order before the block's
first float-decided mistake), on seeded streams with exact ties, fractional entries, zero entries and
weights so uneven that rows take the log-sum-exp path."""
from __future__ import annotations

import math

import numpy as np
import pytest

import olc_core
from olc_core._kernels import engine as kernel_engine
from olc_core._kernels import winnow as K
from olc_core._exact.exp_sums import EtaSpec
from olc_core._support.numeric import logsumexp
from olc_core.learners import normalized_winnow as NW

needs_numba = pytest.mark.skipif(not kernel_engine.available(), reason="numba is not installed")


def same(a, b) -> bool:
    a, b = np.asarray(a), np.asarray(b)
    return a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes()


def block_loop(X, y, eta):
    """The loop before scan_rows (numpy only), for (score, pred, mistakes, snapshots, ln Z, exact rounds)."""
    T, N = X.shape
    spec, ex = EtaSpec(eta), NW.ExactExponents(X, y)
    lw, drift = np.full(N, -math.log(N)), 0.0
    score, pred = np.empty(T), np.empty(T, dtype=np.int8)
    mis, exact, snaps, logz = [], [], [], []
    t, B = 0, 64
    while t < T:
        e = min(T, t + B)
        sgn, sc, near = NW._signs(X[t:e], lw, drift, False)
        wrong = np.flatnonzero(~near & (y[t:e] * sgn <= 0))
        stop = int(wrong[0]) if wrong.size else e - t
        for j in np.flatnonzero(near[:stop]).tolist():
            sgn[j], sc[j] = NW._decide_exactly(X[t + j], lw, ex, spec, int(sgn[j]), float(sc[j]))
            exact.append(t + j)
            if y[t + j] * sgn[j] <= 0:
                stop = j
                break
        if stop == e - t:
            score[t:e], pred[t:e] = sc, sgn
            t, B = e, 2 * B
            continue
        i = t + stop
        score[t:i + 1], pred[t:i + 1] = sc[:stop + 1], sgn[:stop + 1]
        step = (eta * y[i]) * X[i]
        v = lw + step
        lz = logsumexp(v)
        logz.append(lz - logsumexp(lw))
        lw = v - lz
        drift += 2.0 * (NW._U * float(np.abs(step).max()) + spec.err * float(np.abs(X[i]).max())
                        + NW._U * float(np.abs(v).max()) + NW._U * float(np.abs(lw).max()))
        ex.add(i)
        mis.append(i)
        snaps.append(lw)
        t, B = i + 1, max(16, 2 * stop + 16)
    return score, pred, np.array(mis, dtype=np.int64), np.array(snaps).reshape(-1, N), np.array(logz), \
        np.array(exact, dtype=np.int64)


def cases():
    rng = np.random.default_rng(11)
    for seed in range(6):
        s = olc_core.streams.sparse_simplex(T=2500, N=(12, 37, 200, 1000, 64, 300)[seed], k=3, seed=seed,
                                            noise=0.03 * (seed % 2))
        yield s.X, s.y, math.atanh(1.0 / 3.0)                    # ±1 entries, η = ½ ln 2: exact ties
        yield s.X, s.y, 2.0
    X = rng.uniform(-1.0, 1.0, (1500, 50))
    X[rng.random(X.shape) < 0.3] = 0.0
    y = np.where(X[:, 3] + 0.5 * X[:, 7] > 0, 1.0, -1.0)
    for eta in (0.3, 5.0, 300.0):                                 # 300: weights spread past 2⁻⁹⁰⁰
        yield X, y, eta
    Xi = rng.choice([-1.0, 0.0, 1.0], size=(2000, 24))
    yi = np.where(Xi[:, :3].sum(1) >= 0, 1.0, -1.0)
    for eta in (0.5 * math.log(2.0), math.log(2.0), 800.0):
        yield Xi, yi, eta
    yield np.ascontiguousarray(Xi * 0.75), yi, math.log(3.0)      # non-integer counts: Fractions


@pytest.mark.parametrize("engine", ["numpy", pytest.param("auto", marks=needs_numba)])
def test_the_scanning_loop_is_the_block_loop_bit_for_bit(engine, monkeypatch):
    monkeypatch.setenv("OLC_CORE_ENGINE", engine)
    codes = []
    scan = K.scan_rows

    def counted(*a, **k):
        out = scan(*a, **k)
        codes.append(out[1])
        return out

    monkeypatch.setattr(NW, "scan_rows", counted)
    ties = 0
    for X, y, eta in cases():
        new = NW.normalized_winnow_loop(X, y, eta)[:6]
        old = block_loop(X, y, eta)
        for a, b in zip(new, old):
            assert same(a, b)
        ties += new[5].size
    assert ties > 100                    # the exact decisions ran
    assert codes.count(K.SCAN_SMALL) > 0 and codes.count(K.SCAN_NEAR) > 0   # and the log-sum-exp rows


def _state(rng, N, spread):
    lw = -rng.random(N) * spread
    if spread > 1000.0:      # one weight far above the rest: rows with a 0 there have both parts below 2⁻⁹⁰⁰
        lw = lw - 1000.0
        lw[0] = 0.0
    return NW._State(lw - logsumexp(lw), 1e-12)


@needs_numba
@pytest.mark.parametrize("N", [1, 3, 5, 17, 200])
def test_scan_kernel_is_its_numpy_twin(N):
    rng = np.random.default_rng(N)
    codes = set()
    for trial in range(40):
        T = int(rng.integers(1, 90))
        X = rng.choice([-1.0, -0.5, 0.0, 0.5, 1.0], size=(T, N))
        if trial % 5 == 4:                                       # a row outside the box stops the scan first
            X[0 if trial % 10 == 4 else rng.integers(T), rng.integers(N)] = (math.nan, 1.5, -math.inf, math.nextafter(1.0, 2.0))[trial % 4]
        y = rng.choice([-1.0, 1.0], size=T)
        st = _state(rng, N, (0.0, 3.0, 1000.0, 2000.0)[trial % 4])
        if trial % 4 == 3:                                       # y follows the heaviest feature where it is ±
            y = np.where(X[:, 0] != 0.0, np.sign(X[:, 0]), y)
        a1 = (st.a1, 0.05, 0.5)[trial % 3]                       # wider bands: more near rows
        for t in sorted({0, int(rng.integers(0, T)), T - 1}):
            out = []
            for compiled in (True, False):
                score, pred = np.full(T, np.nan), np.zeros(T, dtype=np.int8)
                r, code = K.scan_rows(X, y, st.z, t, st.escale, a1, st.a2, st.c3, score, pred, compiled,
                                      block=int(rng.integers(1, 9)))
                upto = r + (code in (K.SCAN_MISTAKE, K.SCAN_NEAR))
                out.append((r, code, score[t:upto], pred[t:upto]))
            (r1, c1, s1, p1), (r2, c2, s2, p2) = out
            assert (r1, c1) == (r2, c2) and same(s1, s2) and same(p1, p2)
            codes.add(c1)
    assert codes == {K.SCAN_END, K.SCAN_MISTAKE, K.SCAN_NEAR, K.SCAN_SMALL, K.SCAN_OUTSIDE}


def _errors(X, y, u):
    try:
        tr = olc_core.run("normalized_winnow", X, y, comparator=u)
    except ValueError as e:
        return str(e)
    return [tr.columns["comparator_margin"].tobytes(), tr.mistakes.tobytes(), tr.columns["score"].tobytes()]


@needs_numba
def test_the_box_check_left_to_the_scan_reports_what_the_checks_reported(monkeypatch):
    rng = np.random.default_rng(5)
    X = np.where(rng.random((400, 100)) < 0.5, -1.0, 1.0)
    u = np.zeros(100)
    u[[4, 50, 77]] = 1.0
    y = np.where(X[:, [4, 50, 77]].sum(1) > 0, 1.0, -1.0)
    monkeypatch.delenv("OLC_CORE_ENGINE", raising=False)
    assert NW._checked_dots(X, u)[0] is None                  # the fast path: X is not read before the run
    variants = [(X, y)]
    for row, col, val in ((399, 99, 1.5), (0, 0, math.nextafter(-1.0, -2.0)), (250, 3, math.nan), (250, 50, math.nan),
                          (120, 77, math.inf), (121, 2, -math.inf), (10, 4, 2.0)):
        B = X.copy()
        B[row, col] = val
        variants.append((B, y))
        y0 = y.copy()
        y0[300] = 0.0                                          # a bad label too: NaN/inf first, then labels
        variants.append((B, y0))
    variants.append((np.asfortranarray(X), y))
    results = [_errors(A, b, u) for A, b in variants]
    monkeypatch.setenv("OLC_CORE_ENGINE", "numpy")
    assert NW._checked_dots(X, u)[0] is True
    assert results == [_errors(A, b, u) for A, b in variants]
    assert sum(isinstance(r, str) for r in results) == 14
    assert results[0][0] == (y * NW.rowdot(X, u / 3.0)).tobytes()
