r"""Randomised Weighted Majority (Littlestone & Warmuth 1994) [000].

Advice ``X`` (T, N) in {−1, +1} (or 0/1, read as in
:mod:`olc_core.learners.weighted_majority`), labels ``y_t ∈ {−1, +1}``.

* Weights ``w_{1,i} = 1``; after every round ``w_i ← w_i(1 − η)`` for each expert
  with ``a_{t,i} ≠ y_t`` (so ``w_{t,i} = (1−η)^{m_{t,i}}``, stored as the integer
  exponents ``m``: ``weight_kind = "log"``, exact, no underflow).
* Prediction: the advice of one expert ``I_t`` drawn with probability
  ``w_{t,i}/Φ_t``. The draw is seeded: ``U = numpy.random.default_rng(seed).random(T)``
  and ``I_t`` is the expert whose interval ``[Σ_{j<i} w_j, Σ_{j≤i} w_j)`` contains
  ``U_t·Φ_t`` (prefix sums in float64 of ``β^{m_{t,i} − min_j m_{t,j}}``, every round of
  a block at once — the weights do not depend on the draws; rounding can move an
  interval end by ~1e-16 relative, nothing else). Same data and seed ⇒ same run.
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

from .._kernels import experts as fast
from .._support.params import validate
from .._support.validate import as_labels
from ..proofs import experts as proofs
from ..trace import Trace
from .weighted_majority import (ExpertWeights, advice_matrix, best_expert_series,
                                checkpoint_every, counts_history, label_values, resolve_beta)

__all__ = ["run", "choose", "realised_mistakes", "RealisedMistakes"]

NAME = "randomized_weighted_majority"


def choose(cum: np.ndarray, last: np.ndarray, phi: np.ndarray, u: np.ndarray) -> np.ndarray:
    """Per row r: the expert whose interval of the cumulative weights ``cum[r]`` contains ``u[r]·phi[r]``,
    at most ``last[r]`` (the last expert of positive weight: never one of weight 0)."""
    return np.minimum((cum <= (u * phi)[:, None]).sum(axis=1), last)


def _rounds(A, y, yv, enc, beta: float, U: np.ndarray):
    """Every round of RWM a block at a time: the counts before round t are a cumulative sum (every round
    penalises), so F_t, ln Φ_t, min_i m and the draws of every row of ``U`` (S, T) are block operations.
    Returns F, ln Φ (T + 1), m* (T + 1), the chosen experts (S, T; −1 when Φ = 0), the checkpoints, the
    final counts, and what the proof's potential step needs to stay exact when ηF_t ≈ 1 (``acc``): the
    right experts' weight fraction ``keep`` (so 1 − ηF_t = keep_t + βF_t without cancellation) and
    ln Φ_t split as ``base·ln β + log_sum`` (integer ``base``)."""
    T, N = A.shape
    S = U.shape[0]
    F, log_phi = np.empty(T), np.empty(T + 1)
    keep, bases, log_sum = np.empty(T), np.zeros(T + 1, dtype=np.int64), np.empty(T + 1)
    m_star = np.zeros(T + 1, dtype=np.int64)
    chosen = np.full((S, T), -1, dtype=np.int64)
    every = checkpoint_every(T, N)
    checkpoints: list[np.ndarray] = []
    c = np.zeros(N, dtype=np.int64)
    with np.errstate(under="ignore"):
        for s, e, wrong, C in fast.count_blocks(A, yv, None, c):
            w, base = fast.scaled_weights(C, beta)
            phi = w.sum(axis=1)
            pos = phi > 0
            F[s:e] = np.where(y[s:e] < 0, 1.0, 0.0)  # Φ = 0 (β = 0, every expert erred): RWM predicts +1
            F[s:e][pos] = (w[pos] * wrong[pos]).sum(axis=1) / phi[pos]
            log_phi[s:e] = fast.log_phi_rows(phi, base, beta)
            if pos.all():
                keep[s:e] = np.where(wrong, 0.0, w).sum(axis=1) / phi
            else:
                keep[s:e] = np.where(y[s:e] < 0, 0.0, 1.0)
                keep[s:e][pos] = np.where(wrong[pos], 0.0, w[pos]).sum(axis=1) / phi[pos]
            bases[s:e] = base
            log_sum[s:e] = fast.log_phi_rows(phi, np.zeros_like(base), beta)
            m_star[s + 1:e + 1] = (C + wrong).min(axis=1)
            rows = np.flatnonzero(pos)
            cum = np.cumsum(w[rows], axis=1)
            last = N - 1 - np.argmax(w[rows, ::-1] > 0, axis=1)
            for k in range(S):
                chosen[k, s + rows] = choose(cum, last, phi[rows], U[k, s + rows])
            checkpoints.extend(C[r].astype(np.int32) for r in range((-s) % every, e - s, every))
        w, base = fast.scaled_weights(c[None, :], beta)
        log_phi[T] = fast.log_phi_rows(w.sum(axis=1), base, beta)[0]
        bases[T] = base[0]
        log_sum[T] = fast.log_phi_rows(w.sum(axis=1), np.zeros_like(base), beta)[0]
    return F, log_phi, m_star, chosen, checkpoints, every, c, {"keep": keep, "base": bases, "log_sum": log_sum}


def _predictions(A, on, chosen: np.ndarray) -> np.ndarray:
    """+1 where the chosen expert says +1 (or none was chosen), else −1."""
    t = np.arange(A.shape[0])
    says = A[t, np.maximum(chosen, 0)] == on
    return np.where((chosen < 0) | says, 1, -1).astype(np.int8)


def run(X, y, params: dict[str, Any]) -> Trace:
    A, enc = advice_matrix(X, NAME)
    T, N = A.shape
    y = as_labels(y, "pm1", T, NAME)
    beta = resolve_beta(params, NAME)
    eta = 1.0 - beta
    yv = label_values(y, enc, A.dtype)
    U = np.random.default_rng(params["seed"]).random(T)[None, :]
    F, log_phi, m_star, ch, checkpoints, every, c, acc = _rounds(A, y, yv, enc, beta, U)
    chosen = ch[0]
    pred = _predictions(A, enc[0], chosen)
    mistakes = np.flatnonzero(pred != y).astype(np.int64)
    m_final = c
    i_star, m_col, _ = best_expert_series(A, yv, m_final, None)
    hist = counts_history(A, yv, None, checkpoints, every, T)
    args = dict(T=T, N=N, eta=eta, mistakes=mistakes, log_phi=log_phi, F=F, m_star=m_star,
                i_star=i_star, m_best=m_col, beta=beta, **acc)
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
                 columns={"F": F, "chosen_expert": chosen,
                          "expected_mistakes": lambda: np.cumsum(F)},
                 proofs={"expected": lambda: both()["expected"], "eta_form": lambda: both()["eta_form"]},
                 primary="expected", info=info)


@dataclass(frozen=True)
class RealisedMistakes:
    """Realised mistakes of RWM over many seeds, against the expected count and the bound.

    ``totals[s]``: mistakes of the run with ``seeds[s]`` (identical to
    ``olc_core.run(..., seed=seeds[s]).n_mistakes``). ``rounds``: a grid of round
    counts t; ``band[q, g]``: the ``quantiles[q]`` quantile over seeds of the
    mistakes on rounds ``< rounds[g]`` (a discrete quantile: the smallest count that at least that
    fraction of the runs does not exceed, so a whole number one of the runs made); ``expected[g]`` = Σ_{s<rounds[g]} F_s;
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

    ``seeds``: a number S (seeds 0 … S−1) or the seeds themselves (``chunk`` is no longer used:
    the rounds are processed in blocks of bounded memory).

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
    U = np.stack([np.random.default_rng(s).random(T) for s in seeds]) if T else np.zeros((S, 0))
    F, _, _, chosen, _, _, c, _ = _rounds(A, y, yv, enc, b, U)
    t = np.arange(T)
    wrong = np.where(chosen >= 0, A[t, np.maximum(chosen, 0)] != yv, (y < 0)[None, :])   # (S, T)
    before = np.concatenate([np.zeros((S, 1), dtype=np.int64), np.cumsum(wrong, axis=1)], axis=1)
    # discrete quantiles (inverted CDF): each is a count some seeded run made, never a fraction of a mistake
    band = np.quantile(before[:, grid], quantiles, axis=0, method="inverted_cdf").reshape(len(quantiles), len(grid))
    mean = before[:, grid].mean(axis=0)
    counts = before[:, T]
    EM = np.concatenate([[0.0], np.cumsum(F)])
    m_star = int(c.min())
    return RealisedMistakes(seeds=seeds, totals=counts.copy(), rounds=grid, quantiles=tuple(quantiles), band=band,
                            expected=EM[grid], mean=mean, bound=proofs.rwm_bound(N, m_star, 1.0 - b))
