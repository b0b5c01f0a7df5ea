"""Predict, then reveal, against the trace, on every kind of stream the linear learners' pages offer: seeded
random runs of the Perceptron (random points, noisy labels, points on lines through 0, a small integer grid with
the origin), the Margin Perceptron (w returning to 0, both ends of γ), Winnow (β = 1 ties, β = 1/16, N ≥ 1000,
empty rows), the exponentiated update (±1, {−1, 0, 1} with empty rows, real-valued features; η at its ends and
read as ½ ln 2) and FTRL. For every round the graded answer is recomputed from the trace's weights, independently
of olc_ui (exact rationals; the exponentiated update's Z with 60-digit decimals), and every claim of the reveal
the browser prints — each number, each relation, what moved — is read back and checked."""
from __future__ import annotations

import math
from decimal import Decimal, getcontext
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as hst

import olc_core
from olc_core.streams.winnow_extra import simplex_continuous
from olc_ui.viewer import predict
from tests.ui.predictcheck import NUM, browser, find, needs_node, printed_holds, rounds_to, value

pytestmark = needs_node


# ------------------------------------------------------------------ the Perceptron

def _line_points(rng, T):
    """Points on a few lines through 0 (multiples of one direction, the origin among them), random labels."""
    d = np.array([[1.0, 0.0], [1.0, 1.0], [0.6, 0.8], [0.0, 1.0]])[rng.integers(0, 4)]
    X = rng.choice([-3.0, -1.5, -1.0, -0.5, 0.0, 0.5, 1.0, 2.0], size=T)[:, None] * d
    if rng.random() < 0.5:                                   # some off the line too
        off = rng.random(T) < 0.3
        X[off] = rng.uniform(-1, 1, size=(int(off.sum()), 2))
    return X, rng.choice([-1.0, 1.0], size=T)


def _perceptron_streams():
    rng = np.random.default_rng(7)
    for seed in range(3):
        s = olc_core.streams.separable(T=120, d=2, gamma=0.05, radius=1.0, seed=seed, noise=0.1 * seed)
        yield s.X, s.y
    for _ in range(6):
        yield _line_points(rng, 60)
    G = rng.integers(-2, 3, size=(80, 2)).astype(float)      # a small integer grid, (0, 0) included
    yield G, rng.choice([-1.0, 1.0], size=80)
    yield np.array([[1.0, 0.0], [-0.5, 0.0]]), np.array([1.0, 1.0])    # the case: w shortens
    yield np.array([[1.0, 0.0], [-1.0, 0.0], [0.0, 1.0]]), np.array([1.0, 1.0, 1.0])  # w vanishes, starts again


def _exact_move(a, b):
    a0, a1, b0, b1 = (Fraction(float(v)) for v in (*a, *b))
    det = a0 * b1 - a1 * b0
    if det:
        return ("acw" if det > 0 else "cw"), None
    return "line", (b0 / a0 if a0 else b1 / a1)


def test_perceptron_answers_and_reveals_are_the_runs(tmp_path):
    runs = [(X, y, olc_core.run("perceptron", X, y)) for X, y in _perceptron_streams()]
    opts = [predict.perceptron_options(tr, X, y) for X, y, tr in runs]
    seen = set()
    for (X, y, tr), o, rounds in zip(runs, opts, browser(tmp_path, opts)):
        for i, (right, ids, q, rev) in enumerate(rounds):
            a, b = tr.weights_at(i), tr.weights_at(i + 1)
            score = float(np.dot(a, X[i]))
            mistake = y[i] * score <= 0
            assert mistake == (i in set(tr.mistakes.tolist())) == bool(o["mistake"][i])
            m = find(rf"^⟨w, x⟩ = ({NUM}) and y = ([−+]1)", rev)
            assert rounds_to(m.group(1), score) and value(m.group(2)) == y[i]
            assert ("w = 0." in q) == (not a.any())
            if not mistake:
                assert right == "none" and rev.endswith("no mistake, w stays.") and np.array_equal(a, b)
                continue
            assert ("a score of 0 counts as a mistake" in rev) == (score == 0)
            if not a.any():
                assert right == "mistake" and ids == ["none", "mistake"] and "w becomes y·x" in rev
                continue
            want, lam = _exact_move(a, b)
            assert right == want and ids == ["none", "acw", "cw", "line"]
            seen.add(want if want != "line" else ("line", int(np.sign(lam)), lam == 1))
            if want != "line":
                turn = find(rf"turned w ({NUM})° (anticlockwise|clockwise)", rev)
                assert turn.group(2) == ("anticlockwise" if want == "acw" else "clockwise")
                ang = math.degrees(math.atan2(abs(a[0] * b[1] - a[1] * b[0]), float(np.dot(a, b))))
                assert rounds_to(turn.group(1), ang) and 0 < value(turn.group(1)) < 180
            elif lam == 0:
                assert "w vanishes" in rev and not b.any()
            elif lam == 1:
                assert "leaves w as it was" in rev and np.array_equal(a, b)
            else:
                word, lo, hi = ("flips", -math.inf, 0) if lam < 0 else ("shortens", 0, 1) if lam < 1 else ("lengthens", 1, math.inf)
                got = find(rf"{word} w to ({NUM})·w", rev).group(1)
                assert rounds_to(got, float(lam)) and lo < value(got) < hi
                assert np.allclose(b, float(lam) * a, rtol=1e-12, atol=1e-15)
    assert {"acw", "cw", ("line", 1, False), ("line", 0, False), ("line", -1, False)} <= seen, seen


# ------------------------------------------------------------------ the Margin Perceptron

def _margin_runs():
    for seed, noise, g in [(1, 0.0, 0.2), (2, 0.1, 0.01), (3, 0.2, 1.0), (4, 0.0, 0.5)]:
        s = olc_core.streams.separable(T=40, d=2, gamma=0.1, radius=1.0, seed=seed, noise=noise)
        yield olc_core.run("margin_perceptron", s.X, s.y, gamma=g, passes=3)
    X = np.array([[1.0, 0.0], [1.0, 0.0], [0.0, 1.0], [1.0, 0.2], [-1.0, 0.05]])  # w = x, then 0 again
    yield olc_core.run("margin_perceptron", X, np.array([1, -1, 1, 1, 1]), gamma=0.2, passes=2)


def test_margin_perceptron_reveals_are_the_runs(tmp_path):
    runs = list(_margin_runs())
    opts = [predict.margin_perceptron_options(tr) for tr in runs]
    kinds = set()
    for tr, o, rounds in zip(runs, opts, browser(tmp_path, opts)):
        g = float(tr.info["gamma"]) / 2
        Xn = np.asarray(tr.info["examples"])[np.asarray(tr.columns["example"])]
        lab = np.asarray(tr.info["labels"])[np.asarray(tr.columns["example"])]
        for i, (right, ids, q, rev) in enumerate(rounds):
            a = tr.weights_at(i)
            kinds.add((right, bool(i and not a.any())))
            if i == 0:
                assert right == "init" and not a.any()
                continue
            if not a.any():
                assert right == "band" and "w = 0, so s is taken as 0" in rev and "w = 0, so s is taken as 0" in q
                continue
            s = float(np.dot(a, Xn[i]) / np.linalg.norm(a))
            ys = lab[i] * s
            want = "none" if ys >= g else ("band" if abs(s) < g else "mistake")
            assert right == want == o["answer"][i]
            assert np.array_equal(tr.weights_at(i + 1), a) == (want == "none")
            st = find(rf"^s = ({NUM}) and y = ([−+]1)", rev)
            assert rounds_to(st.group(1), s) and value(st.group(2)) == lab[i]
            if want == "none":
                m = find(rf"y·s = ({NUM}) ≥ γ/2 = ({NUM})", rev)
                assert printed_holds(m.group(1), "≥", m.group(2)) and rounds_to(m.group(2), g)
            elif want == "band":
                m = find(rf"the band \(−({NUM}), ({NUM})\)", rev)
                assert -value(m.group(1)) < value(st.group(1)) < value(m.group(2)) and rounds_to(m.group(2), g)
            else:
                m = find(rf"y·s = ({NUM}) ≤ −γ/2 = ({NUM})", rev)
                assert printed_holds(m.group(1), "≤", m.group(2)) and rounds_to(m.group(2), -g)
    assert {("init", False), ("none", False), ("band", False), ("mistake", False), ("band", True)} <= kinds


# ------------------------------------------------------------------ Winnow

def _winnow_runs():
    for N, k, beta, seed in [(10, 2, 1.0, 0), (40, 3, 0.0625, 1), (1200, 3, 1.0, 2), (6, 1, 3.0, 3), (25, 2, 0.05, 4)]:
        s = olc_core.streams.sparse_disjunction(T=120, N=N, k=k, seed=seed, noise=0.1, dtype=np.uint8)
        X = s.X.copy()
        X[::17] = 0                                            # empty rows: w·x = 0
        yield X, s.y, beta
    N = 100                                                    # w·x = 100.0625 > N = 100 (the case)
    X = np.zeros((3, N), dtype=np.uint8)
    X[0, 0] = 1
    X[1:] = 1
    yield X, np.array([1, 0, 1]), 0.0625
    yield np.array([[1, 0, 0, 0], [1, 1, 1, 0], [1, 0, 1, 1]]), np.array([1, 1, 1]), 1.0   # w·x = N = 4 exactly
    cycle = [[1, 0, 0], [1, 1, 0]]                         # w₂ demoted 600 times: w·x = 4^−600 on the last round
    yield np.array(cycle * 600 + [[0, 1, 0]], dtype=np.uint8), np.array([1, 0] * 600 + [0]), 3.0


def test_winnow_reveals_compare_as_the_exact_sum_does(tmp_path):
    runs = [(X, y, beta, olc_core.run("winnow", X, y, beta=beta)) for X, y, beta in _winnow_runs()]
    opts = [predict.winnow_options(tr, X, y) for X, y, beta, tr in runs]
    rels, tiny = set(), 0
    for (X, y, beta, tr), o, rounds in zip(runs, opts, browser(tmp_path, opts)):
        base, N = 1 + Fraction(beta), X.shape[1]
        for i, (right, ids, q, rev) in enumerate(rounds):
            k = np.rint(tr.log_weights_at(i) / math.log1p(beta)).astype(np.int64)
            on = np.asarray(X[i]) != 0
            exact = sum((base ** int(e) for e in k[on].tolist()), Fraction(0))
            rel = ">" if exact > N else "=" if exact == N else "<"
            rels.add(rel)
            pred = int(exact > N)
            assert int(tr.predictions[i]) == pred and f"so ŷ = {pred}" in rev
            want = "none" if pred == y[i] else ("promote" if y[i] == 1 else "demote")
            assert right == want
            if rel == "=":
                assert f"w·x = N = {N} (a tie" in rev
            else:
                m = find(rf"^w·x = ({NUM}) ([<>]) N = (\d+)", rev)
                assert m.group(2) == rel and int(m.group(3)) == N
                if exact and float(exact) < 1e-300:              # beyond a float: its logarithm
                    mant, _, e10 = m.group(1).partition("e")
                    log10 = math.log10(exact.numerator) - math.log10(exact.denominator)
                    assert abs(math.log10(float(mant)) + int(e10) - log10) < 0.01
                    tiny += 1
                else:
                    assert printed_holds(m.group(1), rel, m.group(3)) and rounds_to(m.group(1), float(exact))
            after = np.rint(tr.log_weights_at(i + 1) / math.log1p(beta)).astype(np.int64)
            step = {"none": 0, "promote": 1, "demote": -1}[want]
            assert np.array_equal(after - k, step * on.astype(np.int64))
            if want != "none":
                assert (f"the {on.sum()} active weight" in rev) if on.any() else ("no weight changes" in rev)
    assert rels == {"<", "=", ">"} and tiny


# ------------------------------------------------------------------ the exponentiated update

getcontext().prec = 60


def _eta_exact(tr) -> Decimal:
    """η as the run read it (info["eta_read_as"]: ½ ln q, or the float itself), to 60 digits."""
    text = tr.info["eta_read_as"]
    if text.startswith("½ ln "):
        q = Fraction(text.split()[2])
        return (Decimal(q.numerator) / Decimal(q.denominator)).ln() / 2
    return Decimal(float(tr.info["eta"]))


def _eg_truth(tr, X, y, t):
    """(moves per feature: +1 grew / 0 stayed / −1 shrank, ln Z/η) at mistake t, from the exact exponents r_i =
    Σ_{mistakes s < t} y_s x_{s,i} and 60-digit decimals (a difference below 1e-40 is a tie: exact ones are 0)."""
    eta = _eta_exact(tr)
    r = [Fraction(0)] * X.shape[1]
    for s in tr.mistakes.tolist():
        if s >= t:
            break
        r = [ri + int(y[s]) * Fraction(float(v)) for ri, v in zip(r, X[s])]
    top = max(r)
    yx = [int(y[t]) * Fraction(float(v)) for v in X[t]]
    dec = lambda f: Decimal(f.numerator) / Decimal(f.denominator)  # noqa: E731
    w = [(eta * dec(ri - top)).exp() for ri in r]
    lnZ = (sum(wi * (eta * dec(a)).exp() for wi, a in zip(w, yx)) / sum(w)).ln()
    d = [eta * dec(a) - lnZ for a in yx]
    return [0 if abs(v) < Decimal("1e-40") else (1 if v > 0 else -1) for v in d], (lnZ / eta, abs(lnZ) < Decimal("1e-40"))


def _eg_runs():
    rng = np.random.default_rng(5)
    s = olc_core.streams.sparse_simplex(T=80, N=9, k=3, seed=1, noise=0.1)
    yield s.X, s.y, dict(delta=1 / 3)                        # ±1 features, η read as ½ ln 2
    c = simplex_continuous(T=80, N=20, k=3, delta=0.1, seed=0)
    yield c.X, c.y, dict(delta=0.1)                          # real-valued features (the stream)
    Z = rng.choice([-1.0, 0.0, 1.0], size=(80, 6))
    Z[::9] = 0.0                                             # empty rows: a mistake that moves nothing
    yield Z, rng.choice([-1.0, 1.0], size=80), dict(eta=0.01)
    H = rng.choice([-1.0, -0.5, 0.0, 0.5, 1.0], size=(80, 5))
    yield H, rng.choice([-1.0, 1.0], size=80), dict(eta=5.0)
    U = rng.uniform(-1, 1, size=(60, 12))
    yield U, rng.choice([-1.0, 1.0], size=60), dict(eta=0.5 * math.log(2.0))


def test_exponentiated_update_answers_are_how_the_weights_moved(tmp_path):
    runs = [(X, y, olc_core.run("normalized_winnow", X, y, **kw)) for X, y, kw in _eg_runs()]
    opts = [predict.eg_options(tr, X, y) for X, y, tr in runs]
    answers = set()
    for (X, y, tr), o, rounds in zip(runs, opts, browser(tmp_path, opts)):
        for i, (right, ids, q, rev) in enumerate(rounds):
            assert ids == ["none", "exact", "fewer", "more"]
            if i not in set(tr.mistakes.tolist()):
                assert right == "none" and rev.endswith("> 0: no mistake, w stays.")
                continue
            moves, (theta, zero) = _eg_truth(tr, X, y, i)
            grew = [j for j, mv in enumerate(moves) if mv > 0]
            plus = [j for j in range(X.shape[1]) if y[i] * X[i, j] > 0]
            want = ("exact" if grew == plus else "fewer" if set(grew) < set(plus) else "more")
            assert set(grew) <= set(plus) or set(plus) <= set(grew)
            assert right == want
            answers.add(want)
            th = find(rf"wᵢ grows iff y·xᵢ > ln Z/η = ({NUM}|a tiny \w+ number)\. ", rev).group(1)
            assert (th == "0") == zero
            if not zero and not th.startswith("a tiny"):
                assert rounds_to(th, float(theta)) and (value(th) > 0) == (theta > 0)
                yx = [y[i] * v for v in X[i]]        # the printed θ splits the row's y·xᵢ as the exact one does
                assert all((v > value(th)) == (mv > 0) and (v == value(th)) == (mv == 0) for v, mv in zip(yx, moves))
            if not grew and not any(moves):
                assert "No weight moved (every y·xᵢ is the same" in rev and len(set(X[i])) == 1
                continue
            if X.shape[1] <= 12:
                names = ", ".join(str(j + 1) for j in grew)
                assert (f"{'Feature' if len(grew) == 1 else 'Features'} {names} grew" in rev) if grew else "No weight grew" in rev
            else:
                assert (f"{len(grew)} weight{'s' if len(grew) != 1 else ''} grew" in rev) if grew else "No weight grew" in rev
            assert f", {moves.count(-1)} shrank" in rev
            assert (f", {moves.count(0)} stayed" in rev) == (moves.count(0) > 0)
            how = {"exact": "(exactly those with y·xᵢ > 0)" if grew else "(no feature has y·xᵢ > 0)",
                   "fewer": f"of the {len(plus)} with y·xᵢ > 0)",
                   "more": (f"(the {len(plus)} with y·xᵢ > 0 and {len(grew) - len(plus)} other" if plus
                            else "(though no feature has y·xᵢ > 0)")}[want]
            assert how in rev
    assert {"exact", "fewer", "more"} <= answers


# ------------------------------------------------------------------ randomised FTRL

def test_ftrl_reveal_prints_the_chance_on_its_side_of_a_half(tmp_path):
    runs = []
    for seed, d, alpha, noise in [(0, 2, 1.4142, 0.0), (1, 3, 0.05, 0.2), (2, 2, 10.0, 0.1)]:
        s = olc_core.streams.separable(T=120, d=d, gamma=0.1, radius=1.0, seed=seed, noise=noise)
        runs.append((s.X, s.y, olc_core.run("ftrl_randomized", s.X, s.y, eta=alpha, seed=seed)))
    X = np.array([[1.0, 0.0], [1.0, 0.0], [0.0, 1.0]])       # α = 1e-17: ⟨w, x⟩ = 5e-18, (1 + p)/2 = ½ in floats
    runs.append((X, np.array([1, 1, 1]), olc_core.run("ftrl_randomized", X, np.array([1, 1, 1]), eta=1e-17, seed=0)))
    opts = [predict.ftrl_options(tr, X, y) for X, y, tr in runs]
    for (X, y, tr), o, rounds in zip(runs, opts, browser(tmp_path, opts)):
        for i, (right, ids, q, rev) in enumerate(rounds):
            # the run's ⟨w, x⟩ (its p column) is the page's; a dot product summed in another order may differ in
            # its last bit (2026-12-06, AVX-512: 0.10078686578941658 against 0.10078686578941659)
            p = float(tr.columns["p"][i])
            assert p == o["score"][i] and p == pytest.approx(float(np.dot(tr.weights_at(i), X[i])), rel=1e-12, abs=1e-300)
            yp = y[i] * p
            assert right == ("above" if yp > 0 else "below" if yp < 0 else "half")
            sc = find(rf"^⟨w, x⟩ = ({NUM}), y = ([−+]1): ", rev)
            assert rounds_to(sc.group(1), p) and value(sc.group(2)) == y[i]
            m = find(rf"P\(ŷ = y\) = \(1 \+ y·⟨w, x⟩\)/2 = (½ [+−] {NUM}|{NUM})\. ", rev)
            if m.group(1).startswith("½"):
                assert (m.group(1)[2] == "+") == (yp > 0) and rounds_to(m.group(1)[4:], abs(yp) / 2)
            else:
                assert rounds_to(m.group(1), (1 + yp) / 2)
                assert printed_holds(m.group(1), {"above": ">", "half": "=", "below": "<"}[right], "0.5")
            assert f"The coin gave ŷ = {'+1' if tr.predictions[i] > 0 else '−1'}" in rev
            assert rev.endswith("a mistake." if tr.predictions[i] != y[i] else "no mistake.")


# ------------------------------------------------------------------ the graded answers on any small stream

_HALVES = hst.sampled_from([-2.0, -1.5, -1.0, -0.5, 0.0, 0.5, 1.0, 1.5, 2.0])


@settings(max_examples=60, deadline=None)
@given(hst.lists(hst.tuples(_HALVES, _HALVES, hst.sampled_from([-1.0, 1.0])), min_size=1, max_size=14))
def test_perceptron_answer_is_how_w_moved_on_any_clicked_points(rows):
    X = np.array([[a, b] for a, b, _ in rows])
    y = np.array([c for _, _, c in rows])
    tr = olc_core.run("perceptron", X, y)
    o = predict.perceptron_options(tr, X, y)
    for i in range(len(rows)):
        a, b = tr.weights_at(i), tr.weights_at(i + 1)
        if i not in set(tr.mistakes.tolist()):
            assert o["answer"][i] == "none"
        elif not a.any():
            assert o["answer"][i] == "mistake"
        else:
            want, lam = _exact_move(a, b)
            assert o["answer"][i] == want and (lam is None or o["scale"][i] == float(lam))


@settings(max_examples=40, deadline=None)
@given(hst.lists(hst.tuples(hst.lists(_HALVES.map(lambda v: v / 2), min_size=3, max_size=3),
                            hst.sampled_from([-1.0, 1.0])), min_size=1, max_size=12),
       hst.sampled_from([0.5 * math.log(2.0), 0.5, math.log(3.0), 0.01]))
def test_exponentiated_update_answer_is_how_the_weights_moved_on_any_small_stream(rows, eta):
    X = np.array([r for r, _ in rows])
    y = np.array([c for _, c in rows])
    tr = olc_core.run("normalized_winnow", X, y, eta=eta)
    o = predict.eg_options(tr, X, y)
    for t in tr.mistakes.tolist():
        moves, (theta, zero) = _eg_truth(tr, X, y, t)
        assert [1 if j + 1 in o["grew"][t] else 0 for j in range(3)] == [int(m > 0) for m in moves]
        assert o["same"][t] == moves.count(0) and o["down"][t] == moves.count(-1)
        assert (o["theta_sign"][t] == 0) == zero
