r"""Randomised Weighted Majority (Littlestone & Warmuth 1994) [000].

Advice ``X`` (T, N) in {−1, +1} (or 0/1, read as in
:mod:`olc_core.learners.weighted_majority`), labels ``y_t ∈ {−1, +1}``.

* Weights ``w_{1,i} = 1``; after every round ``w_i ← w_i(1 − η)`` for each expert
  with ``a_{t,i} ≠ y_t`` (so ``w_{t,i} = (1−η)^{m_{t,i}}``, stored as the integer
  exponents ``m``: ``weight_kind = "log"``, exact, no underflow).
* Prediction: the advice of one expert ``I_t`` drawn with probability
  ``w_{t,i}/Φ_t``. The draw is seeded: ``U = numpy.random.default_rng(seed).random(T)``
  and ``I_t`` is the expert whose interval ``[Σ_{j<i} w_j, Σ_{j≤i} w_j)`` contains
  ``U_t·Φ_t`` (prefix sums in float64, by blocks of 128 experts; rounding can move
  an interval end by ~1e-16 relative, nothing else). Same data and seed ⇒ same run.
* ``F_t = Σ_{i wrong} w_{t,i}/Φ_t`` is the probability of a mistake at round t;
  the weights do not depend on the draws, so ``E[M] = Σ_t F_t`` exactly for a
  fixed stream. ``trace.proof.mistake_bound`` bounds this expectation
  (``bounded="expected_M"``), never the realised count of one run:
  ``Σ_t F_t ≤ (ln N + m* ln(1/(1−η)))/η`` and, for η ≤ ½, ``≤ (1+η)m* + ln N/η``.
* Parameters: ``eta`` (η ∈ (0, 1]) or ``beta`` (= 1 − η); neither: η = ½. With
  η = 1 all weight can vanish (every expert wrong once); the learner then
  predicts +1 and ``F_t = 1[y_t = −1]``.

:func:`realised_mistakes` runs many seeds at once (the weights are shared) and
returns the realised mistake counts and a quantile band for the page.

>>> import numpy as np, olc_core
>>> X = np.array([[1, -1], [1, -1], [-1, 1]]); y = np.array([1, -1, -1])
>>> tr = olc_core.run("randomized_weighted_majority", X, y, eta=0.5, seed=3)
>>> tr.columns["F"].tolist()          # ½; then w = (1, ½): ⅔ wrong; then w = (½, ½): ½ wrong
[0.5, 0.6666666666666666, 0.5]
>>> tr.log_weights_at(3).tolist() == [np.log(0.5), 2 * np.log(0.5)]   # m = (1, 2)
True
>>> round(float(tr.proof.series["expected_M"][-1]), 4), round(tr.proof.mistake_bound, 4), tr.proof.violations()
(1.6667, 2.7726, [])
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable

import numpy as np

from olc_core._support.params import validate
from olc_core._support.validate import as_labels
from olc_core.proofs import experts as proofs
from olc_core.trace import Trace
from .weighted_majority import (ExpertWeights, WeightState, advice_matrix, best_expert_series,
                                checkpoint_every, counts_history, label_values, resolve_beta)

__all__ = ["run", "draw", "realised_mistakes", "RealisedMistakes"]

NAME = "randomized_weighted_majority"


def draw(st: WeightState, u: np.ndarray) -> np.ndarray:
    """The experts chosen for uniform numbers ``u`` (any shape (S,)): interval of ``u·Φ`` in the weights."""
    B = st.PAD
    rows = st.wt.reshape(-1, B)
    bs = rows.sum(axis=1)
    cb = np.cumsum(bs)
    target = np.asarray(u, dtype=np.float64) * cb[-1]
    k = np.searchsorted(cb, target, side="right")
    last_block = int(np.flatnonzero(bs > 0)[-1])
    k = np.minimum(k, last_block)
    before = np.where(k > 0, cb[np.maximum(k - 1, 0)], 0.0)
    R = rows[k]
    inner = np.cumsum(R, axis=1)
    j = (inner <= (target - before)[:, None]).sum(axis=1)
    last_pos = B - 1 - np.argmax(R[:, ::-1] > 0, axis=1)
    j = np.minimum(j, last_pos)
    return k * B + j


def _loop(A, y, yv, enc, st: WeightState, U: np.ndarray | None, every: int | None, checkpoints: list | None,
          record: dict | None, on_round=None):
    """The shared per-round loop: F_t, the draws for every row of ``U`` (S, T), the update."""
    T = A.shape[0]
    on = enc[0]
    for t in range(T):
        if checkpoints is not None and t % every == 0:
            checkpoints.append(st.c.copy())
        a = A[t]
        wrong = a != yv[t]
        if st.phi_s > 0.0:
            F = float(np.dot(st.w, wrong)) / st.phi_s
            idx = draw(st, U[:, t]) if U is not None else None
        else:
            F = 1.0 if y[t] < 0 else 0.0
            idx = None
        if on_round is not None:
            on_round(t, a, wrong, idx)
        st.penalise(wrong)
        if record is not None:
            record["F"][t] = F
            record["log_phi"][t + 1] = st.log_phi()
            record["m_star"][t + 1] = st.c.min()
            if idx is not None:
                record["chosen"][t] = idx[0]
                record["pred"][t] = 1 if a[idx[0]] == on else -1
            else:
                record["chosen"][t] = -1
                record["pred"][t] = 1


def run(X, y, params: dict[str, Any]) -> Trace:
    A, enc = advice_matrix(X, NAME)
    T, N = A.shape
    y = as_labels(y, "pm1", T, NAME)
    beta = resolve_beta(params, NAME)
    eta = 1.0 - beta
    yv = label_values(y, enc, A.dtype)
    U = np.random.default_rng(params["seed"]).random(T)[None, :]
    st = WeightState(N, beta)
    rec = {"F": np.empty(T), "log_phi": np.empty(T + 1), "m_star": np.zeros(T + 1, dtype=np.int64),
           "chosen": np.empty(T, dtype=np.int64), "pred": np.empty(T, dtype=np.int8)}
    rec["log_phi"][0] = st.log_phi()
    every = checkpoint_every(T, N)
    checkpoints: list[np.ndarray] = []
    with np.errstate(under="ignore"):  # far-behind experts' float weights may underflow: harmless
        _loop(A, y, yv, enc, st, U, every, checkpoints, rec)
    pred = rec["pred"]
    mistakes = np.flatnonzero(pred != y).astype(np.int64)
    m_final = st.c.astype(np.int64)
    i_star, m_col, _ = best_expert_series(A, yv, m_final, None)
    hist = counts_history(A, yv, None, checkpoints, every, T)
    F = rec["F"]
    args = dict(T=T, N=N, eta=eta, mistakes=mistakes, log_phi=rec["log_phi"], F=F, m_star=rec["m_star"],
                i_star=i_star, m_best=m_col)
    cache: dict[str, Any] = {}

    def both():
        if "p" not in cache:
            cache["p"] = proofs.rwm_proofs(**args)
        return cache["p"]

    info = {"eta": eta, "beta": beta, "seed": params["seed"], "n_experts": N, "best_expert": i_star,
            "advice_encoding": "pm1" if enc[1] == -1 else "01", "expert_mistakes": m_final,
            "expected_mistakes": float(np.sum(F)),
            "draw": "U = default_rng(seed).random(T); I_t = expert whose weight interval contains U_t·Φ_t"}
    return Trace(algorithm=NAME, params=params, T=T, d=N, mistakes=mistakes, predictions=pred,
                 history=ExpertWeights(hist, beta), weight_kind="log",
                 columns={"F": F, "chosen_expert": rec["chosen"],
                          "expected_mistakes": lambda: np.cumsum(F)},
                 proofs={"expected": lambda: both()["expected"], "eta_form": lambda: both()["eta_form"]},
                 primary="expected", info=info)


@dataclass(frozen=True)
class RealisedMistakes:
    """Realised mistakes of RWM over many seeds, against the expected count and the bound.

    ``totals[s]``: mistakes of the run with ``seeds[s]`` (identical to
    ``olc_core.run(..., seed=seeds[s]).n_mistakes``). ``rounds``: a grid of round
    counts t; ``band[q, g]``: the ``quantiles[q]`` quantile over seeds of the
    mistakes on rounds ``< rounds[g]``; ``expected[g]`` = Σ_{s<rounds[g]} F_s;
    ``bound``: the theorem's bound on the expected mistakes (None if it gives none).
    """

    seeds: tuple[int, ...]
    totals: np.ndarray
    rounds: np.ndarray
    quantiles: tuple[float, ...]
    band: np.ndarray
    expected: np.ndarray
    mean: np.ndarray
    bound: float | None


def realised_mistakes(X, y, seeds: int | Iterable[int] = 100, *, eta: float | None = None,
                      beta: float | None = None, quantiles: tuple[float, ...] = (0.05, 0.5, 0.95),
                      points: int = 400, chunk: int = 4096) -> RealisedMistakes:
    """Run RWM with many seeds in one pass (the weights do not depend on the draws).

    ``seeds``: a number S (seeds 0 … S−1) or the seeds themselves.

    >>> import numpy as np
    >>> X = np.array([[1, -1], [1, -1], [-1, 1]]); y = np.array([1, -1, -1])
    >>> r = realised_mistakes(X, y, seeds=[3, 4], eta=0.5)
    >>> r.totals.tolist(), r.expected.tolist()[-1]
    ([2, 3], 1.6666666666666665)
    """
    p = validate(NAME, {"eta": eta, "beta": beta})
    A, enc = advice_matrix(X, NAME)
    T, N = A.shape
    y = as_labels(y, "pm1", T, NAME)
    b = resolve_beta(p, NAME)
    seeds = tuple(range(int(seeds))) if isinstance(seeds, (int, np.integer)) else tuple(int(s) for s in seeds)
    if not seeds:
        raise ValueError(f"{NAME}: give at least one seed")
    S = len(seeds)
    yv = label_values(y, enc, A.dtype)
    grid = np.unique(np.linspace(0, T, min(points, T) + 1).round().astype(np.int64))
    gens = [np.random.default_rng(s) for s in seeds]
    st = WeightState(N, b)
    counts = np.zeros(S, dtype=np.int64)
    band = np.empty((len(quantiles), len(grid)))
    mean = np.empty(len(grid))
    F = np.empty(T)
    state = {"gi": 0}

    def snap(t):  # mistakes on rounds < t
        while state["gi"] < len(grid) and grid[state["gi"]] == t:
            gi = state["gi"]
            # discrete (inverted-CDF) quantiles since the review's fix (a count some run made, never a
            # fraction of a mistake); the per-round loop itself is the frozen one
            band[:, gi] = np.quantile(counts, quantiles, method="inverted_cdf")
            mean[gi] = counts.mean()
            state["gi"] += 1

    with np.errstate(under="ignore"):
        for c0 in range(0, T, chunk):
            c1 = min(T, c0 + chunk)
            U = np.stack([g.random(c1 - c0) for g in gens])
            for t in range(c0, c1):
                snap(t)
                a = A[t]
                wrong = a != yv[t]
                if st.phi_s > 0.0:
                    F[t] = float(np.dot(st.w, wrong)) / st.phi_s
                    idx = draw(st, U[:, t - c0])
                    counts += wrong[idx]
                else:
                    F[t] = 1.0 if y[t] < 0 else 0.0
                    counts += y[t] < 0
                st.penalise(wrong)
    snap(T)
    EM = np.concatenate([[0.0], np.cumsum(F)])
    m_star = int(st.c.min())
    return RealisedMistakes(seeds=seeds, totals=counts.copy(), rounds=grid, quantiles=tuple(quantiles), band=band,
                            expected=EM[grid], mean=mean, bound=proofs.rwm_bound(N, m_star, 1.0 - b))
