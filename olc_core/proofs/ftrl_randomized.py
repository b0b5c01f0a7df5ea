r"""The regret proof of the randomised FTRL linear classifier [002], read off a finished run.

Losses ``ℓ_t(w) = (1 − y_t⟨w, x_t⟩)/2`` (the expected 0/1 loss of the randomised
prediction) are linear with gradient ``g_t = −y_t x_t/2``. The learner plays
``w_1 = 0`` and ``w_{t+1} = argmin_{‖w‖≤1} F_{t+1}(w)`` with
``F_t(w) = ψ_t(w) + Σ_{s<t} ℓ_s(w)`` and ``ψ_t(w) = (√(t−1)/(2α))‖w‖²``
(so ``ψ_1 ≡ 0``: ``w_1 = 0`` is one of its minimisers).

**The derivation** (for exactly this indexing). The FTRL identity (Orabona,
Lemma 7.1) gives, for any ``u`` in the ball,

    Σ_t ℓ_t(w_t) − ℓ_t(u) = ψ_{T+1}(u) − min ψ_1 + Σ_t [F_t(w_t) − F_{t+1}(w_{t+1}) + ℓ_t(w_t)]
                             + F_{T+1}(w_{T+1}) − F_{T+1}(u),

whose last term is ≤ 0 (``w_{T+1}`` minimises ``F_{T+1}`` over the ball), and
``ψ_{T+1}(u) − min ψ_1 = √T‖u‖²/(2α)``. Round 1: ``F_1 ≡ 0`` and ``ℓ_1(w_1) = ½``,
so the term is ``−min_V(‖w‖²/(2α) + ⟨g_1, w⟩) ≤ α‖g_1‖²/2`` (the constrained minimum
is at least the unconstrained ``−α‖g_1‖²/2``; constants ½ cancel). Round t ≥ 2:
``F_t + ℓ_t`` is ``(√(t−1)/α)``-strongly convex and minimised over V near ``w_t``,
so the term is ``≤ α‖g_t‖²/(2√(t−1)) + ψ_t(w_{t+1}) − ψ_{t+1}(w_{t+1})`` and the
last difference is ≤ 0 (ψ increases with t). Hence for every ``‖u‖ ≤ 1``

    Regret_T(u) ≤ √T‖u‖²/(2α) + (α/2)(‖g_1‖² + Σ_{t=2}^T ‖g_t‖²/√(t−1))      (data-dependent)
               ≤ √T (‖u‖²/(2α) + α L²),   L = max_t ‖g_t‖ ≤ ½,

using ``1 + Σ_{s=1}^{T−1} 1/√s ≤ 1 + (2√(T−1) − 1) ≤ 2√T``. The learner does not
depend on T, so both bounds hold at every prefix t (with ``L_t = max_{s≤t}‖g_s‖``)
and are checked at every state. The best ``u`` in the ball after t rounds is
``u*_t = S_t/‖S_t‖`` (``S_t = Σ_{s≤t} y_s x_s = 2θ_t``; any unit vector when
``S_t = 0``) with ``min_u Σ_{s≤t} ℓ_s(u) = t/2 − ‖S_t‖/2``; its norm is 1 in the
bounds. With ``E[M_T] = Σ_t ℓ_t(w_t)`` this is the mistake bound

    E[M_T] ≤ min_{‖u‖≤1} Σ_t ℓ_t(u) + √T (1/(2α) + α L²),

which is ``mistake_bound`` on the series ``expected_mistakes`` (``bounded=``);
the realised random mistakes (series ``mistakes``) are shown, not bounded: they
exceed their expectation on about half the seeds. With ``L = ½`` the best α is
``√2`` (the default), giving ``√(T/2)``.

States: one per round, ``state_rounds = arange(T + 1)``; state t holds the
quantities after t rounds (before 0-based round t).

>>> import numpy as np
>>> pr = regret_proof(T=1, y=np.array([1.0]), p=np.array([0.0]), norm_theta=np.array([0.0, 0.5]),
...                   gsq=np.array([0.25]), alpha=2.0, mistakes=np.array([0]), cmargin=np.array([1.0]),
...                   u_norm2=1.0, comparator_info={})
>>> pr.series["regret"].tolist(), pr.series["bound_data"].tolist()   # attained: α = 2 = 1/‖g_1‖
([0.0, 0.5], [0.0, 0.5])
>>> pr.violations()
[]
"""
from __future__ import annotations

import math
from typing import Any

import numpy as np

from .base import Assumption, Chain, Proof

__all__ = ["regret_proof", "LABELS"]

LABELS = {
    "expected_mistakes": r"\mathbb{E}[M_t] = \sum_{s=1}^{t}\ell_s(w_s)",
    "mistakes": r"M_t\ \text{(realised)}",
    "best_loss": r"\min_{\lVert u\rVert\le 1}\sum_{s=1}^{t}\ell_s(u) = \tfrac{t}{2} - \tfrac12\lVert S_t\rVert"
                 r"\ (S_t = \textstyle\sum_{s=1}^{t} y_s x_s)",
    "regret": r"\sum_{s=1}^{t}\ell_s(w_s) - \ell_s(u^*_t)",
    "bound_data": r"\frac{\sqrt{t}}{2\alpha} + \frac{\alpha}{2}\Bigl(\lVert g_1\rVert^2"
                  r" + \sum_{s=2}^{t}\frac{\lVert g_s\rVert^2}{\sqrt{s-1}}\Bigr)",
    "bound_sqrt": r"\sqrt{t}\,\Bigl(\frac{1}{2\alpha} + \alpha L_t^2\Bigr)",
    "loss_u": r"\sum_{s=1}^{t}\ell_s(u)",
    "regret_u": r"\sum_{s=1}^{t}\ell_s(w_s) - \ell_s(u)",
    "bound_data_u": r"\frac{\sqrt{t}\,\lVert u\rVert^2}{2\alpha} + \frac{\alpha}{2}\Bigl(\lVert g_1\rVert^2"
                    r" + \sum_{s=2}^{t}\frac{\lVert g_s\rVert^2}{\sqrt{s-1}}\Bigr)",
    "bound_sqrt_u": r"\sqrt{t}\,\Bigl(\frac{\lVert u\rVert^2}{2\alpha} + \alpha L_t^2\Bigr)",
    "mistakes_upper": r"\min_{\lVert u\rVert\le 1}\sum_{s=1}^{t}\ell_s(u)"
                      r" + \sqrt{t}\,\Bigl(\frac{1}{2\alpha} + \alpha L_t^2\Bigr)",
    "mistake_bound": r"\min_{\lVert u\rVert\le 1}\sum_{t=1}^{T}\ell_t(u)"
                     r" + \sqrt{T}\,\Bigl(\frac{1}{2\alpha} + \alpha L^2\Bigr)",
}

_EPS = float(np.finfo(np.float64).eps)


def _prefix(a: np.ndarray) -> np.ndarray:
    """``[0, a_0, a_0 + a_1, …]``: sums over the first t rounds, t = 0 … T (summed left to right)."""
    return np.concatenate([[0.0], np.cumsum(a)])


def _series(T: int, y: np.ndarray, p: np.ndarray, norm_theta: np.ndarray, gsq: np.ndarray, a: float,
            n_mis: np.ndarray, cmargin: np.ndarray, u_norm2: float) -> dict[str, np.ndarray]:
    """Every series of the regret chains, one entry per state t = 0 … T (sums over the first t rounds;
    ``n_mis``: the realised mistakes before each state)."""
    k = np.arange(T + 1, dtype=np.float64)
    rk = np.sqrt(k)
    yp = y * p
    expected = _prefix((1.0 - yp) / 2.0)
    best = k / 2.0 - norm_theta
    regret = norm_theta - _prefix(yp) / 2.0          # = expected − best without the t/2 cancellation
    weights = 1.0 / np.sqrt(np.maximum(np.arange(T, dtype=np.float64), 1.0))  # 1, 1/√1, 1/√2, … (round s ↦ 1/√(s−1))
    D = _prefix(gsq * weights)
    L2 = np.concatenate([[0.0], np.maximum.accumulate(gsq)])
    with np.errstate(over="ignore", invalid="ignore"):
        half_a_D = np.where(D > 0, (a / 2.0) * D, 0.0)   # 0 (not inf·0) when every g_s = 0
        a_L2 = np.where(L2 > 0, a * L2, 0.0)
        reg = rk / (2.0 * a)                            # √t‖u‖²/(2α) with ‖u‖ = 1
        bound_data = reg + half_a_D
        bound_sqrt = rk * (1.0 / (2.0 * a) + a_L2)
        bound_data_u = u_norm2 * reg + half_a_D
        bound_sqrt_u = rk * (u_norm2 / (2.0 * a) + a_L2)
    cm = np.asarray(cmargin, dtype=np.float64)
    regret_u = _prefix(cm - yp) / 2.0
    loss_u = _prefix((1.0 - cm) / 2.0)
    return {
        "expected_mistakes": expected,
        "mistakes": n_mis.astype(np.float64),
        "best_loss": best,
        "regret": regret,
        "bound_data": bound_data,
        "bound_sqrt": bound_sqrt,
        "mistakes_upper": best + bound_sqrt,
        "loss_u": loss_u,
        "regret_u": regret_u,
        "bound_data_u": bound_data_u,
        "bound_sqrt_u": bound_sqrt_u,
    }


def _chains(scale: float) -> tuple[Chain, ...]:
    """The regret chains (against the best u in the ball, and against the comparator u) and the mistake chain."""
    return (
        Chain("regret against the best u in the ball", ("regret", "bound_data", "bound_sqrt"), scale=scale,
              reasons=("FTRL identity (Orabona, Lemma 7.1) with ψₜ(w) = √(t−1)‖w‖²/(2α): round 1 costs at most "
                       "α‖g₁‖²/2, round s ≥ 2 at most α‖gₛ‖²/(2√(s−1)) by (√(s−1)/α)-strong convexity, the "
                       "regulariser at the best unit u*ₜ costs √t/(2α)",
                       "‖g₁‖² + Σₛ₌₂ᵗ ‖gₛ‖²/√(s−1) ≤ Lₜ²(1 + 2√(t−1) − 1) ≤ 2√t·Lₜ²")),
        Chain("the comparator u against the best u in hindsight", ("regret_u", "regret"), scale=scale,
              needs=("comparator",),
              reasons=("u*ₜ minimises the cumulative loss over the unit ball, so its loss is at most u's",)),
        Chain("regret against the comparator u", ("regret_u", "bound_data_u", "bound_sqrt_u"), scale=scale,
              link_needs=(("comparator",), ()),
              reasons=("the same FTRL bound at u: the regulariser costs √t‖u‖²/(2α)",
                       "‖g₁‖² + Σₛ₌₂ᵗ ‖gₛ‖²/√(s−1) ≤ 2√t·Lₜ²")),
        Chain("expected mistakes", ("expected_mistakes", "mistakes_upper"), scale=1.0,
              reasons=("E[Mₜ] = Σ ℓₛ(u*ₜ) + regret against u*ₜ (u*ₜ the best u in the ball), and the regret bound",)),
    )


def _assumptions(u_norm2: float) -> tuple[Assumption, ...]:
    """The unit ball (enforced on input) and the comparator's norm."""
    return (
        Assumption("unit ball", r"\lVert x_t\rVert_2 \le 1 \text{ for every round } t", True,
                   detail="enforced on input: the learner rejects longer xₜ"),
        Assumption("comparator", r"\lVert u\rVert_2 \le 1", u_norm2 <= 1.0 + 1e-9,
                   detail="" if u_norm2 <= 1.0 + 1e-9 else f"‖u‖² = {u_norm2:.6g} > 1"),
    )


def regret_proof(*, T: int, y: np.ndarray, p: np.ndarray, norm_theta: np.ndarray, gsq: np.ndarray,
                 alpha: float, mistakes: np.ndarray, cmargin: np.ndarray, u_norm2: float,
                 comparator_info: dict[str, Any], g_max: float | None = None) -> Proof:
    """The regret sandwich at every round, and ``E[M_T] ≤ min_u Σℓ_t(u) + √T(1/(2α) + αL²)``.

    ``p[t] = ⟨w_t, x_t⟩``; ``norm_theta[t] = ‖θ‖`` after t rounds (``= ‖S_t‖/2``);
    ``gsq[t] = ‖g_t‖² = ‖x_t‖²/4``; ``cmargin[t] = y_t⟨u, x_t⟩`` for the comparator
    u with ``‖u‖² = u_norm2 ≤ 1``; ``mistakes``: rounds where the random ŷ_t ≠ y_t;
    ``g_max``: ``L = max‖g_t‖`` computed without underflow (default ``√max gsq``, which is 0 when
    every ‖x_t‖² underflows, e.g. ‖x_t‖ ≈ 1e-170: L, R and the best α are then reported from g_max;
    the bound's αL² term is below 1e-300 there either way).
    """
    y = np.asarray(y, dtype=np.float64)
    p = np.asarray(p, dtype=np.float64)
    a = float(alpha)
    gsq = np.asarray(gsq, dtype=np.float64)
    n_mis = np.searchsorted(np.asarray(mistakes, dtype=np.int64), np.arange(T + 1), side="left")
    series = _series(T, y, p, np.asarray(norm_theta, dtype=np.float64), gsq, a, n_mis, cmargin, u_norm2)
    best, bound_sqrt, bound_data = series["best_loss"], series["bound_sqrt"], series["bound_data"]
    bound_sqrt_u, expected = series["bound_sqrt_u"], series["expected_mistakes"]
    L2_T = float(gsq.max()) if gsq.size else 0.0               # L_T² = max_t ‖g_t‖² (0 before any round)
    L = math.sqrt(L2_T) if g_max is None else float(g_max)
    # The regret series are sums of up to T terms of size ≤ L; their rounding error is
    # at most a few eps·T·L. The check's tolerance is 1e-9·max(|lhs|, |rhs|, scale).
    scale = max(L, 1e-300) * max(1.0, 4.0 * _EPS * T / 1e-9)
    bound_T = float(best[-1] + bound_sqrt[-1])
    constants: dict[str, Any] = {
        "alpha": a, "L": L, "radius": 2.0 * L, "T": T,
        "u_norm2": float(u_norm2),
        "regret_bound": float(bound_sqrt[-1]),
        "regret_bound_data": float(bound_data[-1]),
        "regret_bound_u": float(bound_sqrt_u[-1]),
        "best_loss": float(best[-1]),
        "expected_mistakes": float(expected[-1]),
        "mistake_bound_data": float(best[-1] + bound_data[-1]),
        "best_alpha": 1.0 / (math.sqrt(2.0) * L) if L > 0 else math.inf,
        "bound_formula": LABELS["mistake_bound"],
        "regret_bound_formula": r"\sqrt{T}\,\Bigl(\frac{\lVert u\rVert^2}{2\alpha} + \alpha L^2\Bigr)",
        **comparator_info,
    }
    return Proof(name="Randomised FTRL linear classifier (Orabona)",
                 theorem=r"\mathbb{E}[M_T] \le \min_{\lVert u\rVert\le 1}\sum_t \ell_t(u)"
                         r" + \sqrt{T}\,\Bigl(\frac{1}{2\alpha} + \alpha L^2\Bigr)",
                 T=T, state_rounds=np.arange(T + 1, dtype=np.int64), n_mistakes=n_mis, series=series,
                 chains=_chains(scale), assumptions=_assumptions(u_norm2), mistake_bound=bound_T, constants=constants,
                 labels=dict(LABELS), bounded="expected_mistakes",
                 notes=("Realised mistakes are random: the theorem bounds their expectation E[M_T], "
                        "not the count of one run.",))
