r"""The randomised online linear classifier via FTRL [002] (Orabona, "Online linear classification", §1).

Setting: ``‖x_t‖₂ ≤ 1``, ``y_t ∈ {−1, +1}``, feasible set ``V = {w : ‖w‖₂ ≤ 1}``.

* Predict ``p_t = ⟨w_t, x_t⟩ ∈ [−1, 1]`` and output ``ŷ_t = +1`` with probability
  ``(1 + p_t)/2``, else ``−1``. The expected 0/1 loss is
  ``ℓ_t(w_t) = (1 − y_t⟨w_t, x_t⟩)/2``, linear in w with gradient ``g_t = −y_t x_t/2``.
* ``θ_t = Σ_{s≤t} y_s x_s / 2 = −Σ_{s≤t} g_s``; ``w_1 = 0`` and
  ``w_{t+1} = Π_V(α θ_t / √t)``: FTRL with the regulariser ``(√t/(2α))‖w‖²`` for
  choosing ``w_{t+1}`` (the minimiser over the ball of an isotropic quadratic is the
  projection ``Π_V`` of the unconstrained one: scale onto the sphere if outside).
  ``α`` is the parameter ``eta`` (default √2, the best α when ``‖x_t‖ = 1``).
* The theorem (see :mod:`olc_core.proofs.ftrl_randomized`): for every ``‖u‖ ≤ 1``
  and every prefix t, ``Σ_{s≤t} ℓ_s(w_s) − ℓ_s(u) ≤ √t(‖u‖²/(2α) + αL²)`` with
  ``L = max‖g_s‖ ≤ ½``; so ``E[M_T] ≤ min_{‖u‖≤1} Σ_t ℓ_t(u) + √T(1/(2α) + αL²)``.

Conventions of this implementation (rounds are 0-based in the trace):

* ``weights_at(t)`` is the w used on round t: ``w = 0`` for ``t = 0``, else
  ``Π_V(α Θ_t/√t)`` with ``Θ_t`` the sum of ``y_s x_s/2`` over rounds ``s < t``.
* Arithmetic (identical in the run and in the replay of :meth:`Trace.weights_at`):
  ``Θ`` is accumulated sequentially, ``Θ ← Θ + (y_t/2)·x_t``; with
  ``m = max_j |Θ_j|``, ``s = Θ/m``, ``q = Σ_j s_j²`` (summed left to right) and
  ``c = α/√t``, the ball is left iff ``(c·m)·√q > 1`` (``m√q = ‖Θ‖``, computed
  without overflow for any α); then ``w = s/√q``, otherwise ``w = c·Θ``.
  ``p_t = Σ_j w_j x_{t,j}`` summed left to right.
* Randomness: ``U = numpy.random.default_rng(seed).random(T)`` drawn once;
  ``ŷ_t = +1`` iff ``U_t < (1 + p_t)/2``. Same seed ⇒ same predictions.
* ``mistakes``: the rounds where the *random* prediction was wrong. The theorem
  bounds their expectation ``Σ_t ℓ_t(w_t)`` (the proof's ``expected_mistakes``).
* ``‖x_t‖ > 1`` raises ``ValueError`` (naming the round and the norm): ``p_t``
  would not give a probability. Rounding slack of ``1e-9`` is accepted (a row
  normalised in floating point may have norm ``1 + 2⁻⁵²``). A comparator with
  ``‖u‖ > 1 + 1e-9`` raises too; one within the slack is scaled onto the sphere.
* Columns: ``p`` (= ``score``), ``prob_plus = (1 + p)/2``, ``expected_loss``.

Weights change on every round, so the trace does not store them: it keeps
``(Θ, w)`` every ``every`` rounds (:class:`olc_core.trace.CheckpointHistory`) and
replays the rest with the same arithmetic (bit-identical to the run). For the
replay the trace keeps a **reference** to the validated ``X`` (the caller's own
array when it is already float64 and C-contiguous: no copy) and a private copy of
``y``. If the caller changes ``X`` in place after the run, the replay notices
(its ``p_t`` no longer match the run's) and raises ``RuntimeError``.

Three rounds by hand with α = 3 (numbers in ``tests/core/test_ftrl.py``): w_2 = Π((1.5, 0)) = (1, 0)
is projected, p_2 = 0.6; w_3 = (3/√2)(0.2, −0.4) has norm 3/√10 < 1, p_3 = −1.2/√2.

>>> import numpy as np, olc_core
>>> X = np.array([[1.0, 0.0], [0.6, 0.8], [0.0, 1.0]]); y = np.array([1, -1, 1])
>>> tr = olc_core.run("ftrl_randomized", X, y, eta=3.0, seed=0)
>>> tr.columns["p"].round(6).tolist(), tr.columns["expected_loss"].round(6).tolist()
([0.0, 0.6, -0.848528], [0.5, 0.8, 0.924264])
>>> tr.weights_at(1).round(6).tolist(), tr.weights_at(2).round(6).tolist()   # w_2, w_3
([1.0, 0.0], [0.424264, -0.848528])
>>> pr = tr.proof
>>> pr.series["regret"].round(6).tolist()
[0.0, 0.5, 0.747214, 0.947871]
>>> round(pr.mistake_bound, 6), pr.violations()
(2.864106, [])
"""
from __future__ import annotations

import math
from typing import Any

import numpy as np

from .._support.numeric import rowdot, rownorm, rowsq, rowwise_dot
from .._support.validate import as_labels, as_matrix, as_vector
from ..proofs import ftrl_randomized as proofs
from ..trace import CheckpointHistory, Trace
from .._support.words import agree, count

__all__ = ["run", "weights_from_theta", "Segmenter", "NORM_SLACK"]

NAME = "ftrl_randomized"

#: ‖x_t‖ and ‖u‖ may exceed 1 by this much (rounding of a normalised vector).
NORM_SLACK = 1e-9

_MAX_BLOCK_ELEMENTS = 1 << 18  # rows × d per numpy block (bounds the temporaries)


def weights_from_theta(theta: np.ndarray, t: np.ndarray, alpha: float) -> tuple[np.ndarray, np.ndarray]:
    """``w = Π_V(α Θ/√t)`` for each row of ``theta`` (row i is ``Θ`` before round ``t[i]``), and ``‖Θ‖``.

    Row by row, so a row gives the same bits whichever block it is computed in.
    Rows with ``Θ = 0`` (e.g. ``t = 0``) give ``w = 0``.
    """
    m = np.max(np.abs(theta), axis=1)
    pos = m > 0.0
    s = theta / np.where(pos, m, 1.0)[:, None]
    q = rowsq(s)
    sq = np.sqrt(q)
    c = alpha / np.sqrt(np.maximum(t, 1).astype(np.float64))
    with np.errstate(over="ignore", invalid="ignore"):
        r = (c * m) * sq  # = α‖Θ‖/√t; may overflow to inf for huge α: then it is > 1
        outside = r > 1.0
        w = np.where(outside[:, None], s / np.where(pos, sq, 1.0)[:, None], theta * c[:, None])
    return w, m * sq


class Segmenter:
    """The learner's loop over a range of rounds, shared by the run and the replay.

    ``segment(theta, a, b)`` starts from ``Θ_a`` (sum of ``y_s x_s/2`` over rounds
    ``s < a``) and returns ``p[a:b]``, ``‖Θ_t‖`` for ``t = a … b``, ``Θ_b`` and ``w_b``.
    """

    def __init__(self, X: np.ndarray, y: np.ndarray, alpha: float):
        self.X = X
        self.y = y
        self.alpha = float(alpha)
        self.chunk = max(1, _MAX_BLOCK_ELEMENTS // X.shape[1])

    def segment(self, theta: np.ndarray, a: int, b: int):
        X, y = self.X, self.y
        d = X.shape[1]
        p = np.empty(b - a)
        norms = np.empty(b - a + 1)
        theta = np.array(theta, dtype=np.float64)
        w_b, n_b = weights_from_theta(theta[None, :], np.array([a]), self.alpha)
        norms[0] = n_b[0]
        i = a
        while i < b:
            e = min(b, i + self.chunk)
            rows = np.empty((e - i + 1, d))
            rows[0] = theta
            np.multiply(X[i:e], (0.5 * y[i:e])[:, None], out=rows[1:])
            np.cumsum(rows, axis=0, out=rows)  # sequential: Θ_{t+1} = Θ_t + (y_t/2) x_t
            W, nrm = weights_from_theta(rows, np.arange(i, e + 1), self.alpha)
            p[i - a:e - a] = rowwise_dot(W[:-1], X[i:e])
            norms[i - a + 1:e - a + 1] = nrm[1:]
            theta = rows[-1].copy()
            w_b = W[-1:]
            i = e
        return p, norms, theta, w_b[0].copy()


def _checkpoint_every(T: int) -> int:
    return int(min(1024, max(16, math.ceil(math.sqrt(T)))))


def _resolve_comparator(comparator, d: int, theta_T: np.ndarray, norm_T: float) -> tuple[np.ndarray, dict]:
    if comparator is not None:
        u = as_vector(comparator, d, NAME, "comparator")
        n = float(np.sqrt(np.sum(u * u)))
        if not n <= 1.0 + NORM_SLACK:
            raise ValueError(f"{NAME}: comparator must satisfy ‖u‖ ≤ 1 (the feasible set is the unit ball); "
                             f"got ‖u‖ = {n:.6g}")
        if n > 1.0:
            u = u / n
        return u, {"comparator_source": "given", "comparator": u}
    if norm_T > 1e-150:
        u = theta_T / norm_T
    elif norm_T > 0:  # ‖S_T‖ near or below the subnormal range: θ/‖θ‖ loses bits (‖u‖ > 1); scale by max|θ| first
        s = theta_T / np.max(np.abs(theta_T))
        u = s / np.sqrt(np.sum(s * s))
    else:
        u = np.zeros(d)
    return u, {"comparator_source": "best in hindsight", "comparator": u,
               "comparator_method": "u = S_T/‖S_T‖ with S_T = Σ_t y_t x_t minimises Σ_t (1 − y_t⟨u, x_t⟩)/2 "
                                    "over the unit ball (u = 0 when S_T = 0)"}


def run(X, y, params: dict[str, Any]) -> Trace:
    X = as_matrix(X, NAME)
    T, d = X.shape
    y = np.array(as_labels(y, "pm1", T, NAME), dtype=np.float64, copy=True)  # private: kept for the replay
    xnorm = rownorm(X)   # not √‖x‖²: the message and R must be right for huge or tiny rows too
    too_long = np.flatnonzero(xnorm > 1.0 + NORM_SLACK)
    if too_long.size:
        t = int(too_long[0])
        raise ValueError(f"{NAME}: every ‖x_t‖ must be at most 1, else (1 + ⟨w, x_t⟩)/2 is not a probability; "
                         f"round {t + 1} has ‖x_t‖ = {xnorm[t]:.6g} ({count(too_long.size, 'round')} {agree(too_long.size, 'exceeds', 'exceed')} 1)")
    xsq = rowsq(X)       # finite now (‖x_t‖ ≤ 1 + 1e-9); 0 for rows below about 1e-162, as ‖g_t‖² is to float precision
    alpha = float(params["eta"])
    seed = int(params["seed"])

    seg = Segmenter(X, y, alpha)
    every = _checkpoint_every(T)
    p = np.empty(T)
    norm_theta = np.empty(T + 1)
    theta = np.zeros(d)
    thetas = [theta.copy()]
    ws = [np.zeros(d)]
    for a in range(0, T, every):
        b = min(T, a + every)
        pa, na, theta, w_b = seg.segment(theta, a, b)
        p[a:b] = pa
        norm_theta[a:b + 1] = na
        if b % every == 0:
            thetas.append(theta.copy())
            ws.append(w_b)
    theta_T = theta

    def advance(state: np.ndarray, t0: int, t1: int) -> np.ndarray:
        i = t0 // every
        pr, _, _, w = seg.segment(thetas[i], t0, t1)
        if not np.array_equal(pr, p[t0:t1]):
            bad = t0 + int(np.flatnonzero(pr != p[t0:t1])[0])
            raise RuntimeError(f"{NAME}: the replay of round {bad} differs from the run: the input array X "
                               "was changed in place after the run (the trace keeps a reference to it)")
        return w

    rng = np.random.default_rng(seed)
    U = rng.random(T)
    prob = (1.0 + p) / 2.0
    pred = np.where(U < prob, 1, -1).astype(np.int8)
    mistakes = np.flatnonzero(pred != y).astype(np.int64)
    expected_loss = (1.0 - y * p) / 2.0

    u, cinfo = _resolve_comparator(params["comparator"], d, theta_T, float(norm_theta[T]))
    cmargin = y * rowdot(X, u)
    info = dict(cinfo, alpha=alpha, radius=float(xnorm.max()), checkpoint_every=every, seed=seed,
                replay="weights_at replays from checkpoints of (Θ, w) using a reference to the validated X")

    def primary():
        return proofs.regret_proof(T=T, y=y, p=p, norm_theta=norm_theta, gsq=xsq / 4.0, alpha=alpha,
                                   mistakes=mistakes, cmargin=cmargin, u_norm2=float(np.sum(u * u)),
                                   comparator_info=cinfo, g_max=float(xnorm.max()) / 2.0)

    columns = {"p": p, "score": p, "prob_plus": prob, "expected_loss": expected_loss, "comparator_margin": cmargin}
    return Trace(algorithm=NAME, params=params, T=T, d=d, mistakes=mistakes, predictions=pred,
                 history=CheckpointHistory(ws, every, advance, T), weight_kind="linear", columns=columns,
                 proofs={"regret": primary}, primary="regret", info=info)
