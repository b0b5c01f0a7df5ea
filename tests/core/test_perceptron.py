"""The Perceptron: hand-worked rounds, the tight instance, scikit-learn, engines, proofs."""
from __future__ import annotations

import math
import warnings

import numpy as np
import pytest

import olc_core
from olc_core._kernels import checks
from olc_core._kernels import engine as kernel_engine
from olc_core._kernels import perceptron as perceptron_kernels
from olc_core.comparators import _affine_minimizer
from olc_core.learners.perceptron import perceptron_numba, perceptron_numpy
from olc_core.proofs.perceptron import best_gamma, td_bound

ENGINES = ["numpy"] + (["numba"] if kernel_engine.available() else [])


@pytest.mark.parametrize("engine", ENGINES)
def test_hand_worked_four_rounds(engine):
    # w* = (1, 0).  Margins y<w*,x>: 0.5, 1.0, 0.2, 1.0  -> gamma = 0.2.
    # Norms^2: 1.25, 1.25, 1.04, 1.04                      -> R^2 = 1.25, bound R^2/gamma^2 = 31.25.
    X = np.array([[0.5, 1.0], [-1.0, 0.5], [0.2, -1.0], [1.0, 0.2]])
    y = np.array([1, -1, 1, 1])
    tr = olc_core.run("perceptron", X, y, comparator=[2.0, 0.0], engine=engine)  # normalised to (1, 0)
    # round 0: w = 0, w.x = 0            -> mistake (on the line), w = (0.5, 1.0)
    # round 1: w.x = -0.5 + 0.5 = 0      -> mistake (on the line, for label -1 too), w = (1.5, 0.5)
    # round 2: w.x = 0.3 - 0.5 = -0.2    -> mistake (y = +1), w = (1.7, -0.5)
    # round 3: w.x = 1.7 - 0.1 = 1.6     -> correct
    assert tr.mistakes.tolist() == [0, 1, 2]
    assert tr.columns["score"].tolist() == pytest.approx([0.0, 0.0, -0.2, 1.6])
    assert tr.predictions.tolist() == [0, 0, -1, 1]
    np.testing.assert_allclose([tr.weights_at(t) for t in range(5)],
                               [[0, 0], [0.5, 1.0], [1.5, 0.5], [1.7, -0.5], [1.7, -0.5]], rtol=1e-15)
    p = tr.proof
    assert p.constants["gamma"] == pytest.approx(0.2)
    assert p.constants["radius"] == pytest.approx(math.sqrt(1.25))
    assert p.mistake_bound == pytest.approx(31.25)
    # <w*, w> after each mistake: 0.5, 1.5, 1.7  >=  M gamma: 0.2, 0.4, 0.6
    assert p.series["inner"].tolist() == pytest.approx([0.0, 0.5, 1.5, 1.7])
    assert p.series["M_gamma"].tolist() == pytest.approx([0.0, 0.2, 0.4, 0.6])
    # ||w||: sqrt(1.25), sqrt(2.5), sqrt(3.14)  <=  sqrt(M) R: sqrt(1.25), sqrt(2.5), sqrt(3.75)
    assert p.series["norm"].tolist() == pytest.approx([0.0, math.sqrt(1.25), math.sqrt(2.5), math.sqrt(3.14)])
    assert p.series["sqrtM_R"].tolist() == pytest.approx([0.0, math.sqrt(1.25), math.sqrt(2.5), math.sqrt(3.75)])
    # proof B: cos = <w*,w>/||w||  >=  sqrt(M) gamma / R
    assert p.series["cosine"][1:].tolist() == pytest.approx([0.5 / math.sqrt(1.25), 1.5 / math.sqrt(2.5),
                                                              1.7 / math.sqrt(3.14)])
    assert p.series["cos_lower"].tolist() == pytest.approx([0.2 * math.sqrt(k) / math.sqrt(1.25) for k in range(4)])
    assert p.violations() == [] and p.failed_assumptions == []
    # the first two mistakes attain ||w|| = sqrt(M) R exactly: equality must not be reported as a violation
    assert p.series["norm"][2] == pytest.approx(p.series["sqrtM_R"][2], rel=1e-15)
    assert [p.at(t)["n_mistakes"] for t in range(5)] == [0, 1, 2, 3, 3]
    assert tr.mistakes_before(3) == 3 and tr.mistakes_before(1) == 1


@pytest.mark.parametrize("d", [1, 2, 3, 7, 50])
@pytest.mark.parametrize("engine", ENGINES)
def test_tight_instance_attains_the_bound(d, engine):
    s = olc_core.streams.tight_perceptron(d)
    tr = olc_core.run("perceptron", s.X, s.y, comparator=s.comparator, engine=engine)
    assert tr.n_mistakes == d                      # a mistake on every round
    assert tr.proof.mistake_bound == pytest.approx(d)   # R^2/gamma^2 with R = 1, gamma = 1/sqrt(d)
    assert tr.n_mistakes <= tr.proof.mistake_bound * (1 + 1e-12)
    # both ends of the sandwich are attained: M gamma = <w*,w> and ||w|| = sqrt(M) R at every state
    np.testing.assert_allclose(tr.proof.series["M_gamma"], tr.proof.series["inner"], rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(tr.proof.series["norm"], tr.proof.series["sqrtM_R"], rtol=1e-12)
    assert tr.proof.violations() == []


def _sklearn_one_pass(X, y):
    from sklearn.linear_model import Perceptron
    clf = Perceptron(fit_intercept=False, shuffle=False, max_iter=1, tol=None, eta0=1.0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # ConvergenceWarning: one pass is what we ask for
        clf.fit(X, y)
    return clf.coef_.ravel()


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("d,noise,seed", [(2, 0.0, 0), (2, 0.1, 1), (10, 0.0, 2), (10, 0.2, 3), (100, 0.1, 4)])
def test_final_weights_equal_scikit_learn_one_pass(engine, d, noise, seed):
    s = olc_core.streams.separable(T=3000, d=d, gamma=0.02, radius=1.0, seed=seed, noise=noise)
    tr = olc_core.run("perceptron", s.X, s.y, comparator=s.comparator, engine=engine)
    # sklearn's SGD loop sums the dot product left to right and updates w += y x when y w.x <= 0:
    # the same arithmetic, so the weights agree exactly, not just approximately
    np.testing.assert_array_equal(tr.weights_at(tr.T), _sklearn_one_pass(s.X, s.y))


@pytest.mark.skipif(not kernel_engine.available(), reason="numba not installed")
@pytest.mark.parametrize("d", [1, 2, 5, 16, 17, 300])
@pytest.mark.parametrize("with_comparator", [True, False])
def test_engines_agree_bit_for_bit(d, with_comparator):
    rng = np.random.default_rng(d)
    for trial in range(3):
        T = int(rng.integers(1, 4000))
        X = rng.standard_normal((T, d)) * rng.choice([1e-3, 1.0, 1e3])
        y = rng.choice([-1.0, 1.0], T)
        if trial == 2:
            X[rng.random(T) < 0.3] = 0.0  # rows on the hyperplane whatever w is
        w = rng.standard_normal(d) if with_comparator else None
        a = perceptron_numpy(X, y, w)
        b = perceptron_numba(X, y, w)
        for u, v in zip(a, b):
            np.testing.assert_array_equal(u, v)


@pytest.mark.skipif(not kernel_engine.available(), reason="numba not installed")
@pytest.mark.parametrize("d", [1, 2, 5, 17])
@pytest.mark.parametrize("with_comparator", [True, False])
def test_split_halves_agree_with_the_one_pass_loop(d, with_comparator, monkeypatch):
    # long noisy runs go to two halves on two threads after a probe: shrink the probe so that
    # small runs take that path, and compare all three ways value by value
    monkeypatch.setattr(perceptron_kernels, "SPLIT_PROBE", 64)
    monkeypatch.setattr(perceptron_kernels, "SPLIT_MIN_MISTAKE_RATE", 0.0)
    rng = np.random.default_rng(100 + d)
    for trial in range(3):
        T = int(rng.integers(1, 4000))
        X = rng.standard_normal((T, d)) * rng.choice([1e-3, 1.0, 1e3])
        y = rng.choice([-1.0, 1.0], T)
        if trial == 2:
            X[rng.random(T) < 0.3] = 0.0
        w = rng.standard_normal(d) if with_comparator else None
        a = perceptron_numpy(X, y, w)
        for split in (True, False):
            b = perceptron_numba(X, y, w, split=split)
            for u, v in zip(a, b):
                np.testing.assert_array_equal(u, v)


@pytest.mark.skipif(not kernel_engine.available(), reason="numba not installed")
@pytest.mark.parametrize("scale", [1e-150, 1.0, 1e150])
@pytest.mark.parametrize("split", [True, False])
def test_norms_equal_the_numpy_twin_at_every_scale(scale, split, monkeypatch):
    # d = 2, split or not: at scales where ‖w‖² leaves the normal range (1e-300, 1e300) the odd norms are
    # recomputed with scaling, as the numpy twin does
    monkeypatch.setattr(perceptron_kernels, "SPLIT_PROBE", 64)
    monkeypatch.setattr(perceptron_kernels, "SPLIT_MIN_MISTAKE_RATE", 0.0)
    for seed in range(20):
        s = olc_core.streams.separable(T=3000, d=2, gamma=0.02, radius=1.0, seed=seed, noise=0.15)
        X = s.X * scale
        for w in (s.comparator, None, np.array([0.6, -0.8])):
            with np.errstate(all="ignore"):
                a = perceptron_numpy(X, s.y, w)
            b = perceptron_numba(X, s.y, w, split=split)
            for u, v in zip(a, b):
                np.testing.assert_array_equal(u, v)
            assert np.all(np.isfinite(b[5])) and b[5][-1] > 0


@pytest.mark.skipif(not kernel_engine.available(), reason="numba not installed")
def test_split_is_chosen_by_the_mistake_rate(monkeypatch):
    monkeypatch.setattr(kernel_engine, "threads", lambda: 2)
    calls = []
    real = perceptron_kernels.perceptron_kernel
    monkeypatch.setattr(perceptron_kernels, "perceptron_kernel", lambda which="perceptron": calls.append(which) or real(which))
    T = 2 * perceptron_kernels.SPLIT_MIN_T
    sep = olc_core.streams.separable(T=T, d=2, gamma=0.05, radius=1.0, seed=0)
    perceptron_numba(sep.X, sep.y, sep.comparator)
    assert calls == ["perceptron"]  # a handful of mistakes: the one pass to the end
    calls.clear()
    noisy = olc_core.streams.separable(T=T, d=2, gamma=0.05, radius=1.0, seed=0, noise=0.1)
    out = perceptron_numba(noisy.X, noisy.y, noisy.comparator)
    assert calls == ["perceptron", "perceptron_learn", "perceptron_data"]
    for u, v in zip(out, perceptron_numba(noisy.X, noisy.y, noisy.comparator, split=False)):
        np.testing.assert_array_equal(u, v)
    monkeypatch.setattr(kernel_engine, "threads", lambda: 1)
    calls.clear()
    perceptron_numba(noisy.X, noisy.y, noisy.comparator)
    assert calls == ["perceptron"]


def test_threads_can_be_limited_to_one(monkeypatch):
    monkeypatch.setenv("OLC_CORE_THREADS", "1")
    assert kernel_engine.threads() == 1


@pytest.mark.skipif(not kernel_engine.available(), reason="numba not installed")
@pytest.mark.parametrize("split", [True, False])
def test_bad_rows_and_labels_after_the_probe_are_refused(split, monkeypatch):
    monkeypatch.setattr(perceptron_kernels, "SPLIT_PROBE", 64)
    monkeypatch.setattr(perceptron_kernels, "SPLIT_MIN_MISTAKE_RATE", 0.0)
    s = olc_core.streams.separable(T=1000, d=2, gamma=0.05, radius=1.0, seed=3, noise=0.2)
    X, y = s.X.copy(), s.y.copy()
    X[700, 0] = np.nan
    X[900, 1] = np.inf
    with pytest.raises(ValueError, match="round 701"):
        perceptron_numba(X, y, s.comparator, split=split)
    y2 = s.y.copy()
    y2[500] = 0.0
    with pytest.raises(ValueError, match="label"):
        perceptron_numba(s.X, y2, s.comparator, split=split)
    X[700, 0] = 1e200  # huge but finite: accepted, and R overflows to inf as in numpy
    a = perceptron_numba(X[:800], y[:800], s.comparator, split=split)
    with np.errstate(over="ignore"):
        b = perceptron_numpy(X[:800], y[:800], s.comparator)
    for u, v in zip(a, b):
        np.testing.assert_array_equal(u, v)


@pytest.mark.skipif(not kernel_engine.available(), reason="numba not installed")
def test_numba_engine_reports_nan_row():
    X = np.ones((10, 2))
    X[6, 1] = np.inf
    with pytest.raises(ValueError, match="round 7"):
        olc_core.run("perceptron", X, np.ones(10), comparator=[1.0, 0.0], engine="numba")
    X[6, 1] = 1e200  # huge but finite: accepted by the loop's check, then refused for its scale (‖x‖² overflows)
    with pytest.raises(ValueError, match=r"scale is out of range: the longest example has length ‖x‖ = 1e\+200"):
        olc_core.run("perceptron", X, np.ones(10), comparator=[1.0, 0.0], engine="numba")


def test_max_margin_says_inseparable_only_when_it_proved_it():
    from olc_core.comparators import max_margin
    noisy = olc_core.streams.noisy(T=400, d=2, gamma=0.1, noise=0.1, seed=5)
    mm = max_margin(noisy.X, noisy.y)
    assert not mm.separable and mm.proved_inseparable and mm.upper < 1e-9
    # separable data, search cut short before it finds a separator: no verdict of inseparability
    s = olc_core.streams.separable(T=300, d=5, gamma=0.01, radius=1.0, seed=1)
    cut = max_margin(s.X, s.y, max_iter=2)
    assert not cut.separable and not cut.proved_inseparable and cut.upper > 0.01
    assert max_margin(s.X, s.y).separable


def test_non_separable_data_no_bound_and_a_certificate():
    s = olc_core.streams.noisy(T=400, d=2, gamma=0.1, noise=0.1, seed=5)
    tr = olc_core.run("perceptron", s.X, s.y)            # no comparator: look for the max-margin one
    p = tr.proof
    assert p.mistake_bound is None
    [fa] = p.failed_assumptions
    assert fa.name == "separable" and 1 <= len(fa.rounds) <= 3 and "not linearly separable" in fa.detail
    # the certificate: some convex combination of z_t = y_t x_t over those rounds is (numerically) 0
    Z = s.y[fa.rounds, None] * s.X[fa.rounds]
    alpha = _affine_minimizer(Z)
    assert (alpha >= -1e-9).all() and np.linalg.norm(alpha @ Z) < 1e-9
    # the non-separable proofs still apply, with a fitted comparator, and hold
    for name in ("nonseparable", "hinge"):
        q = tr.proofs[name]
        assert q.violations() == [] and tr.n_mistakes <= q.mistake_bound
    assert tr.proofs["nonseparable"].constants["comparator_source"] == "soft-margin fit"


def test_noisy_data_with_planted_comparator_reports_the_flipped_rounds():
    s = olc_core.streams.noisy(T=500, d=3, gamma=0.1, noise=0.05, seed=2)
    tr = olc_core.run("perceptron", s.X, s.y, comparator=s.comparator)
    [fa] = tr.proof.failed_assumptions
    assert fa.rounds.tolist() == np.flatnonzero(s.info["flipped"]).tolist()
    assert tr.proof.mistake_bound is None
    ns = tr.proofs["nonseparable"]
    assert ns.violations() == [] and tr.n_mistakes <= ns.mistake_bound
    assert ns.constants["gamma"] == pytest.approx(best_gamma(s.y * (s.X @ s.comparator), ns.constants["radius"])[0])


def test_gamma_parameter_sets_the_assumed_margin():
    s = olc_core.streams.separable(T=300, d=2, gamma=0.1, radius=1.0, seed=4)
    small = olc_core.run("perceptron", s.X, s.y, comparator=s.comparator, gamma=0.05)
    assert small.proof.failed_assumptions == [] and small.proof.mistake_bound == pytest.approx(1 / 0.05 ** 2)
    big = olc_core.run("perceptron", s.X, s.y, comparator=s.comparator, gamma=0.3)
    [fa] = big.proof.failed_assumptions
    margins = s.y * (s.X @ s.comparator)
    assert fa.rounds.tolist() == np.flatnonzero(margins < 0.3).tolist()
    assert big.proof.mistake_bound is None
    with pytest.raises(ValueError, match=r"gamma must be a number in \(0, inf\)"):
        olc_core.run("perceptron", s.X, s.y, gamma=0.0)


def test_best_gamma_matches_a_brute_force_search():
    rng = np.random.default_rng(0)
    for _ in range(20):
        m = rng.normal(0.3, 0.4, size=int(rng.integers(1, 40)))
        R = float(rng.uniform(0.5, 2))
        g, b = best_gamma(m, R)
        grid = np.concatenate([np.geomspace(1e-4, R, 20000), m[(m > 0) & (m <= R)]])
        vals = [td_bound(x, float(np.maximum(0, x - m).sum()), R) for x in grid]
        assert b <= min(vals) * (1 + 1e-12)
        assert b == pytest.approx(td_bound(g, float(np.maximum(0, g - m).sum()), R)) and 0 < g <= R
        # beyond R nothing useful is lost: larger than at γ = R, or above 2T − 1 (and M ≤ T)
        far = [td_bound(x, float(np.maximum(0, x - m).sum()), R) for x in np.geomspace(R, 1e3 * R, 2000)]
        assert min(far) >= min(b, 2 * len(m) - 1) * (1 - 1e-12)


def test_comparator_is_normalised_and_checked():
    s = olc_core.streams.separable(T=100, d=3, gamma=0.2, seed=1)
    a = olc_core.run("perceptron", s.X, s.y, comparator=s.comparator)
    b = olc_core.run("perceptron", s.X, s.y, comparator=7.5 * s.comparator)
    assert a.proof.mistake_bound == pytest.approx(b.proof.mistake_bound, rel=1e-12)
    with pytest.raises(ValueError, match="non-zero"):
        olc_core.run("perceptron", s.X, s.y, comparator=np.zeros(3))
    with pytest.raises(ValueError, match="length 3"):
        olc_core.run("perceptron", s.X, s.y, comparator=[1.0, 0.0])
    with pytest.raises(ValueError, match="NaN"):
        olc_core.run("perceptron", s.X, s.y, comparator=[np.nan, 0.0, 1.0])


def test_bad_inputs_have_clear_messages():
    with pytest.raises(ValueError, match="numbers"):
        olc_core.run("perceptron", [["a", "b"]], [1])
    with pytest.raises(ValueError, match="rectangular|2-D"):
        olc_core.run("perceptron", [[1.0, 2.0], [1.0]], [1, 1])
    with pytest.raises(ValueError, match=r"labels y must be -1 or \+1; found 0 at round 2"):
        olc_core.run("perceptron", np.ones((3, 2)), [1, 0, 1])
    with pytest.raises(ValueError, match="unknown algorithm"):
        olc_core.run("perceptronn", np.ones((3, 2)), [1, 1, 1])
    with pytest.raises(ValueError, match="engine"):
        olc_core.run("perceptron", np.ones((3, 2)), [1, 1, 1], engine="gpu")


def test_weights_are_stored_only_at_mistakes():
    s = olc_core.streams.noisy(T=20_000, d=5, gamma=0.05, noise=0.1, seed=0)
    tr = olc_core.run("perceptron", s.X, s.y, comparator=s.comparator)
    assert tr.history.snapshots.shape == (tr.n_mistakes, 5)
    assert tr.n_mistakes < tr.T
    with pytest.raises(TypeError, match="additive"):
        tr.log_weights_at(tr.T)
    with pytest.raises(TypeError):
        tr.weights_at(1.5)


@pytest.mark.skipif(not kernel_engine.available(), reason="numba not installed")
@pytest.mark.parametrize("d", [2, 3])
@pytest.mark.parametrize("split", [True, False])
def test_compiled_loop_grows_its_buffers_and_resumes_exactly(d, split, monkeypatch):
    # 40 % label noise: far more mistakes than the first buffer (T/4 rows) holds
    monkeypatch.setattr(perceptron_kernels, "SPLIT_PROBE", 1024)
    s = olc_core.streams.noisy(T=20_000, d=d, gamma=0.01, noise=0.4, seed=d)
    a = perceptron_numpy(s.X, s.y, s.comparator)
    b = perceptron_numba(s.X, s.y, s.comparator, split=split)
    assert len(a[2]) > 20_000 // 4
    for u, v in zip(a, b):
        np.testing.assert_array_equal(u, v)


@pytest.mark.skipif(not kernel_engine.available(), reason="numba not installed")
@pytest.mark.parametrize("kind", ["separable", "noisy", "gamma_too_big", "tight", "equality", "no_comparator"])
@pytest.mark.parametrize("halves", [True, False])
def test_fused_proof_checks_agree_with_the_series_link_by_link(kind, halves, monkeypatch):
    from olc_core.proofs import perceptron as pp
    monkeypatch.delenv("OLC_CORE_ENGINE", raising=False)  # the compiled checker even in the suite's numpy run
    monkeypatch.setattr(pp, "FUSED_CHECK_MIN_STATES", 1)
    # long proofs are checked in two halves on two threads: force either way
    monkeypatch.setattr(checks, "CHECKS_SPLIT_MIN", 2 if halves else 1 << 60)
    monkeypatch.setattr(kernel_engine, "threads", lambda: 2)
    # the compiled verdicts (no series materialised) against link_bad on the materialised series
    if kind == "tight":
        s = olc_core.streams.tight_perceptron(5000)
        kw = {"comparator": s.comparator}
    elif kind == "equality":  # every mistake on the margin: Mγ = ⟨w*,w⟩ exactly in exact arithmetic
        s = olc_core.streams.tight_perceptron(4096)
        kw = {"comparator": s.comparator, "gamma": 1 / np.sqrt(4096)}
    elif kind == "no_comparator":  # noisy, no w* given: inseparable, ⟨w*,w⟩ is NaN (the checker skips reading it)
        s = olc_core.streams.separable(T=60_000, d=2, gamma=0.01, seed=3, noise=0.2)
        kw = {}
    else:
        s = olc_core.streams.separable(T=60_000, d=3, gamma=0.01, seed=3, noise=0.2 if kind == "noisy" else 0.0)
        kw = {"comparator": s.comparator, **({"gamma": 0.9} if kind == "gamma_too_big" else {})}
    tr = olc_core.run("perceptron", s.X, s.y, **kw)
    p = tr.proof
    assert p._checker is not None
    if kind == "no_comparator":
        assert tr.info["separability"] == "inseparable" and not p.series.is_computed("inner")
    fused = p.check_matrix()
    for ch in p.chains:
        for lo, hi, strict, _ in ch.links():
            name = p.link_name(lo, hi, strict)
            np.testing.assert_array_equal(fused[name], p._link_bad(ch, lo, hi, 1e-9), err_msg=name)
    if kind == "gamma_too_big":
        assert fused["M_gamma ≤ inner"].any() and p.violations()
    else:
        assert p.violations() == []


@pytest.mark.skipif(not kernel_engine.available(), reason="numba not installed")
@pytest.mark.parametrize("usable", [True, False])
@pytest.mark.parametrize("rfinite", [True, False])
@pytest.mark.parametrize("halves", [True, False])
@pytest.mark.parametrize("has_inner", [True, False])
def test_compiled_verdicts_match_link_bad_on_special_values(usable, rfinite, halves, has_inner, monkeypatch):
    monkeypatch.setattr(checks, "CHECKS_SPLIT_MIN", 2 if halves else 1 << 60)
    monkeypatch.setattr(kernel_engine, "threads", lambda: 2)
    # zeros, NaN, ±inf, huge and tiny sides: the branch-free compiled verdict against link_bad_numpy
    special = np.array([0.0, -0.0, 1.0, -1.0, np.nan, np.inf, -np.inf, 1e308, -1e308, 1e-308, 3.0, 2.9999999999])
    inner = np.tile(special, len(special))
    norm = np.repeat(special, len(special))
    K = len(inner)
    if not has_inner:  # no comparator: ⟨w*,w⟩ is NaN in every state (the kernel is not given it)
        inner = np.full(K, np.nan)
    g, R, bound, tol, scale = 0.3, (2.0 if rfinite else np.inf), 50.0, 1e-9, 7.0
    gR = g / R if usable else np.nan
    kf = np.arange(K, dtype=np.float64)
    sqrtk = np.sqrt(kf)
    with np.errstate(all="ignore"):
        mg = kf * g if usable else np.full(K, np.nan)
        cl = sqrtk * gR if usable else np.full(K, np.nan)
        smr = sqrtk * R if rfinite else np.full(K, np.nan)
        cos = inner / norm
    want = [(mg, inner, scale), (inner, norm, scale), (norm, smr, scale), (cl, cos, 1.0), (cos, np.ones(K), 1.0),
            (kf, np.full(K, bound), 1.0)]
    got = checks.perceptron_checks(inner if has_inner else norm, norm, g if usable else np.nan, gR, R, usable,
                                   rfinite, bound, tol, scale, has_inner=has_inner)
    for row, (a, b, sc) in enumerate(want):
        np.testing.assert_array_equal(got[row], checks.link_bad_numpy(a, b, tol, sc, False), err_msg=str(row))
    assert got.any()  # some of these pairs do fail


def test_td_and_hinge_proofs_are_checked_before_every_round():
    # 1-d by hand: w* = (1), γ = 0.5. Rounds: x=1,y=+1 (mistake: ŷ=0), x=0.2,y=+1 (margin 0.2, no mistake),
    # x=-1,y=+1 (mistake), x=0.1,y=+1 (margin 0.1; w=0 after two mistakes? w=1-1=0 → ŷ=0, a mistake).
    X = np.array([[1.0], [0.2], [-1.0], [0.1]])
    y = np.ones(4)
    tr = olc_core.run("perceptron", X, y, comparator=[1.0], gamma=0.5)
    assert tr.mistakes.tolist() == [0, 2, 3]
    ns = tr.proofs["nonseparable"]
    assert ns.state_rounds.tolist() == [0, 1, 2, 3, 4]
    assert ns.n_mistakes.tolist() == [0, 1, 1, 2, 3]
    # hinge max(0, γ − y⟨w*,x⟩) per round: 0, 0.3, 1.5, 0.4 → TD over the rounds before t
    assert ns.series["TD"] == pytest.approx([0, 0, 0.3, 1.8, 2.2])
    assert ns.series["td_lower"] == pytest.approx([0, 0.5, 0.2, -0.8, -0.7])
    assert ns.series["inner"] == pytest.approx([0, 1, 1, 0, 0.1])
    assert ns.violations() == [] and ns.mistake_bound == pytest.approx(1 / 0.25 + 2 * 2.2 / 0.5)
    h = tr.proofs["hinge"]                      # u = w*/γ: L(u) = TD/γ
    assert h.series["L"] == pytest.approx([0, 0, 0.6, 3.6, 4.4])
    assert h.series["hinge_lower"] == pytest.approx([0, 1, 0.4, -1.6, -1.4])
    assert h.violations() == []


def test_margin_perceptron_final_w_zero_has_no_margin():
    """A point and its copy with the opposite label: w = y₁x₁, then the copy's update cancels it. The
    final w is 0, which has no margin at all (None), not −∞."""
    tr = olc_core.run("margin_perceptron", [[1.0, 1.0], [1.0, 1.0]], [1, -1], gamma=0.1, passes=4)
    assert not np.any(tr.weights_at(tr.T))
    assert tr.info["final_margin"] is None and tr.proof.constants["final_margin"] is None
    assert not tr.proof.applies


def test_margin_perceptron_counts_updates_U():
    """The Margin Perceptron's theorem bounds the updates U (margin mistakes included): its proof names
    the count U, never M (review issue 11 §8)."""
    s = olc_core.streams.separable(T=30, d=2, gamma=0.25, radius=1.0, seed=0)
    p = olc_core.run("margin_perceptron", s.X, s.y, gamma=0.25, comparator=s.comparator, passes=None).proof
    assert p.labels["M"] == "U" and p.labels["mistake_bound"] == r"12/\gamma^2"
    assert p.theorem.startswith("U")


def test_state_tables_equal_arange_and_sqrt_and_are_read_only(monkeypatch):
    # the proofs' mistake counts 0 … M and the checks' √k come from per-process tables: the same values
    # as np.arange / np.sqrt (bit for bit), growing on demand, made anew beyond TABLE_MAX, never writable
    monkeypatch.setattr(checks, "_tables", {})
    monkeypatch.setattr(checks, "TABLE_MAX", 10_000)
    for n in (0, 1, 5, 4096, 4097, 9_999, 10_000, 10_001, 25_000, 3):
        c, r = checks.counts(n), checks.square_roots(n)
        np.testing.assert_array_equal(c, np.arange(n, dtype=np.int64))
        assert c.dtype == np.int64 and r.dtype == np.float64
        assert r.tobytes() == np.sqrt(np.arange(n, dtype=np.float64)).tobytes()
        assert not c.flags.writeable and not r.flags.writeable
        if n:
            with pytest.raises(ValueError):
                c[0] = 1
    assert checks._tables["counts"].shape[0] <= 10_000
