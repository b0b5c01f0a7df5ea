r"""Winnow's mistake bound [000] §4.2, for any β > 0, read off a finished run.

Notation: ``w_i = (1+β)^{k_i}`` (the run stores the integer exponents ``k``),
``Φ = Σ_i w_i``, ``m⁺`` / ``m⁻`` the mistakes on positive / negative examples
(promotions / demotions), R the relevant variables of the target disjunction,
``k = |R|``, ``p_i`` the promotions of variable i.

Algorithmic facts (true on **any** 0/1 data):

* a promotion happens only when ``w·x ≤ N`` and adds ``β·w·x ≤ βN`` to Φ; a
  demotion happens only when ``w·x > N`` and removes ``β/(1+β)·w·x > βN/(1+β)``,
  so ``0 < Φ ≤ N + βN m⁺ − (β/(1+β)) N m⁻`` (spec §4). Kept in log space.
* a demotion needs ``Φ ≥ w·x > N`` and leaves at least ``Φ/(1+β)``; so
  ``Φ > N/(1+β)`` in every state (a floor sharper than 0, not in the notes).
* Hence ``m⁻ < 1 + (1+β)m⁺ < (1+β)/β + (1+β)m⁺`` (the notes' form uses Φ > 0).
* a variable is promoted only while its weight is ≤ w·x ≤ N, so every weight
  stays ``≤ (1+β)N``.

Needing the labels to be the target disjunction's (``y_t = ⋁_{i∈R} x_{t,i}``):

* a relevant variable is never demoted (a negative example has every relevant
  bit off), so ``w_i = (1+β)^{p_i} ≤ (1+β)N``: ``p_i ≤ 1 + log_{1+β} N``;
* every false negative has y = 1, so some relevant variable is on and promoted:
  ``m⁺ ≤ Σ_{i∈R} p_i ≤ k·max_i p_i ≤ k(1 + log_{1+β} N)``.

Result: ``M < (1+β)/β + (2+β)·k·(1 + log_{1+β} N)`` (β = 1: ``2 + 3k(log₂N + 1)``,
[000] eq. 42). The floor gives the sharper ``M < 1 + (2+β)k(1 + log_{1+β}N)``,
recorded as ``constants["mistake_bound_sharp"]``.

>>> round(bound(1.0, 1024, 2), 6), round(bound_sharp(1.0, 1024, 2), 6)   # 2 + 3·2·11, 1 + 3·2·11
(68.0, 67.0)
"""
from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import numpy as np

from .base import Assumption, Chain, Proof

__all__ = ["winnow_proof", "bound", "bound_sharp", "log_upper"]

LABELS = {
    "m_plus": "m^+",
    "m_minus": "m^-",
    "log_zero": r"\ln 0",
    "log_floor": r"\ln\frac{N}{1+\beta}",
    "log_phi": r"\ln\Phi = \ln\sum_i w_i",
    "log_upper": r"\ln\!\left(N + \beta N m^+ - \tfrac{\beta}{1+\beta} N m^-\right)",
    "m_minus_sharp": r"1 + (1+\beta)\,m^+",
    "m_minus_cap": r"\tfrac{1+\beta}{\beta} + (1+\beta)\,m^+",
    "total_cap": r"\tfrac{1+\beta}{\beta} + (2+\beta)\,m^+",
    "log_w_rel_max": r"\max_{i\in R}\ln w_i",
    "log_w_max": r"\max_i \ln w_i",
    "log_cap": r"\ln\big((1+\beta)N\big)",
    "rel_demotions": r"\textstyle\sum_{i\in R} d_i",
    "zero": "0",
    "rel_promotions": r"\textstyle\sum_{i\in R} p_i",
    "k_max_promotions": r"k\,\max_{i\in R} p_i",
    "k_cap": r"k\,(1 + \log_{1+\beta} N)",
}

#: the assumption's name: the labels are the OR of the k relevant variables
TARGET = "target disjunction"

THEOREM = r"M < \frac{1+\beta}{\beta} + (2+\beta)\,k\,\bigl(1 + \log_{1+\beta} N\bigr)"


def _per_variable_cap(beta: float, N: int) -> float:
    """``1 + log_{1+β} N``: the most promotions a never-demoted variable can get."""
    return 1.0 + math.log(N) / math.log1p(beta)


def bound(beta: float, N: int, k: int) -> float:
    """``(1+β)/β + (2+β)·k·(1 + log_{1+β} N)`` (spec §4; β = 1 gives [000] eq. 42)."""
    return (1.0 + beta) / beta + (2.0 + beta) * k * _per_variable_cap(beta, N)


def bound_sharp(beta: float, N: int, k: int) -> float:
    """``1 + (2+β)·k·(1 + log_{1+β} N)``, from the floor ``Φ > N/(1+β)`` instead of ``Φ > 0``."""
    return 1.0 + (2.0 + beta) * k * _per_variable_cap(beta, N)


def log_upper(N: int, beta: float, m_plus: np.ndarray, m_minus: np.ndarray) -> np.ndarray:
    """``ln(N + βN m⁺ − (β/(1+β)) N m⁻)`` per state, accurate to ~1e-11 absolute.

    Computed in floats where the bracket ``1 + βm⁺ − βm⁻/(1+β)`` is not a
    near-cancellation of its terms (relative error ≤ 4u·terms/value ≤ 5e-12), and in
    exact rational arithmetic (β read exactly) elsewhere. ``-inf`` where it is ≤ 0
    (impossible for a Winnow run: Φ > 0 lies below it).
    """
    mp = np.asarray(m_plus, dtype=np.float64)
    mm = np.asarray(m_minus, dtype=np.float64)
    lnN = math.log(N)
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
        neg = beta * mm / (1.0 + beta)
        a = 1.0 + beta * mp - neg
        s = 1.0 + beta * mp + neg
        ok = np.isfinite(a) & np.isfinite(s) & (a > 1e-4 * s)
        out = np.where(ok, lnN + np.log(np.where(ok, a, 1.0)), np.nan)
    if not ok.all():
        b = Fraction(beta)
        for idx in np.flatnonzero(~ok).tolist():
            v = 1 + b * int(mp[idx]) - b * int(mm[idx]) / (1 + b)
            out[idx] = -math.inf if v <= 0 else lnN + math.log(v.numerator) - math.log(v.denominator)
    return out


def _logsumexp_rows(A: np.ndarray) -> np.ndarray:
    m = A.max(axis=1)
    with np.errstate(under="ignore"):
        return m + np.log(np.exp(A - m[:, None]).sum(axis=1))


#: the log-weights are formed this many cells at a time (a long run's M × N exponents never become floats at once)
_BLOCK_CELLS = 1 << 18


class _Rows:
    """The exponents after each mistake, read a block of rows or a few columns at a time: from an (M, N)
    array, or from a history that replays them (:class:`olc_core.trace.RowReplayHistory`: never M × N)."""

    def __init__(self, exponents, M: int, N: int):
        self.shape = (M, N)
        self._hist = exponents if hasattr(exponents, "snapshot_rows") else None
        self._A = None if self._hist is not None else np.asarray(exponents, dtype=np.int64).reshape(M, N)

    def rows(self, a: int, b: int) -> np.ndarray:
        return self._hist.snapshot_rows(a, b) if self._A is None else self._A[a:b]

    def columns(self, cols: np.ndarray) -> np.ndarray:
        return self._hist.columns(cols) if self._A is None else self._A[:, cols]


def _log_phi_and_max(A: _Rows, L: float) -> tuple[np.ndarray, np.ndarray]:
    """Per row of the exponent matrix A (M × N): log Σ_i (1+β)^{k_i} and max_i k_i L, in row blocks
    (memory: a block, not three float copies of A; a 10⁴ × 10⁴ run's took 1.8 GB)."""
    M, N = A.shape
    phi, top = np.empty(M), np.empty(M)
    step = max(1, _BLOCK_CELLS // max(N, 1))
    for r in range(0, M, step):
        logs = A.rows(r, r + step).astype(np.float64) * L
        phi[r:r + step] = _logsumexp_rows(logs)
        top[r:r + step] = logs.max(axis=1)
    return phi, top


def _potential_series(N: int, beta: float, L: float, positive: np.ndarray, A: _Rows) -> dict[str, np.ndarray]:
    """The series of the chains that hold on any 0/1 data (the potential, its floor, m⁻, the weight cap),
    one entry per state (the initial state first); ``A``: the (M, N) exponents after each mistake."""
    M = A.shape[0]
    K = M + 1
    lnN = math.log(N)
    m_plus = np.concatenate([[0], np.cumsum(positive)]).astype(np.float64)
    m_minus = np.concatenate([[0], np.cumsum(~positive)]).astype(np.float64)
    phi, top = _log_phi_and_max(A, L) if M else (np.zeros(0), np.zeros(0))
    log_phi = np.concatenate([[lnN], phi])
    log_w_max = np.concatenate([[0.0], top])
    b1 = (1.0 + beta) / beta
    # for extreme β (≳1e300, or subnormal) some bounds exceed the float range: +inf is their correct rounding
    with np.errstate(over="ignore"):
        return {
            "m_plus": m_plus,
            "m_minus": m_minus,
            "log_zero": np.full(K, -np.inf),
            "log_floor": np.full(K, lnN - L),
            "log_phi": log_phi,
            "log_upper": log_upper(N, beta, m_plus, m_minus),
            "m_minus_sharp": 1.0 + (1.0 + beta) * m_plus,
            "m_minus_cap": b1 + (1.0 + beta) * m_plus,
            "total_cap": b1 + (2.0 + beta) * m_plus,
            "log_w_max": log_w_max,
            "log_cap": np.full(K, L + lnN),
            "zero": np.zeros(K),
        }


def _relevant_series(N: int, beta: float, L: float, A: _Rows, relevant: np.ndarray, rel_promotions: np.ndarray,
                     rel_demotions: np.ndarray) -> dict[str, np.ndarray]:
    """The series of the chains on the target's k relevant variables (their largest weight, promotions and
    demotions, the cap k(1 + log_{1+β} N)), one entry per state."""
    M = A.shape[0]
    K = M + 1
    kk = int(relevant.shape[0])
    P = np.asarray(rel_promotions, dtype=np.int64).reshape(M, kk)
    D = np.asarray(rel_demotions, dtype=np.int64).reshape(M, kk)
    P0 = np.concatenate([np.zeros((1, kk), dtype=np.int64), P])
    D0 = np.concatenate([np.zeros((1, kk), dtype=np.int64), D])
    series: dict[str, np.ndarray] = {}
    if kk:
        rel = A.columns(relevant).astype(np.float64) * L
        rel_logs = np.concatenate([np.zeros((1, kk)), rel]) if M else np.zeros((1, kk))
        series["log_w_rel_max"] = rel_logs.max(axis=1)
        series["k_max_promotions"] = kk * P0.max(axis=1).astype(np.float64)
    else:
        series["log_w_rel_max"] = np.full(K, np.nan)
        series["k_max_promotions"] = np.zeros(K)
    series["rel_promotions"] = P0.sum(axis=1).astype(np.float64)
    series["rel_demotions"] = D0.sum(axis=1).astype(np.float64)
    series["k_cap"] = np.full(K, kk * _per_variable_cap(beta, N))
    return series


def _target_assumption(comparator_info: dict[str, Any]) -> Assumption:
    """The labels are the target disjunction's (its failing rounds from ``comparator_info``)."""
    failing = np.asarray(comparator_info.get("failing_rounds", np.zeros(0)), dtype=np.int64)
    return Assumption(
        TARGET,
        r"y_t = \bigvee_{i \in R} x_{t,i} \text{ for every round } t \text{ (a monotone disjunction of } k "
        r"\text{ variables labels the data)}",
        failing.size == 0, failing, comparator_info.get("consistency_detail", ""))


#: Winnow's chains, each link with its reason (the relevant-variable chains need the target disjunction).
_CHAINS = (
    Chain("potential Φ = Σ w", ("log_zero", "log_phi", "log_upper"), log=True, strict=(True, False),
          reasons=("weights start at 1 and are only multiplied by (1+β)^{±1}: they stay positive",
                   "a promotion (only when w·x ≤ N) adds β·w·x ≤ βN; a demotion (only when w·x > N) "
                   "removes β/(1+β)·w·x > βN/(1+β); Φ₁ = N")),
    Chain("floor of Φ", ("log_floor", "log_phi"), log=True, strict=(True,),
          reasons=("a demotion needs Φ ≥ w·x > N and keeps at least Φ/(1+β) > N/(1+β); "
                   "promotions only raise Φ",)),
    Chain("mistakes on negatives", ("m_minus", "m_minus_sharp", "m_minus_cap"), scale=1.0,
          strict=(True, True),
          reasons=("N/(1+β) < Φ ≤ N + βNm⁺ − βNm⁻/(1+β), solved for m⁻",
                   "1 < (1+β)/β (the notes' form, from Φ > 0 alone)")),
    Chain("total mistakes", ("M", "total_cap"), scale=1.0, strict=(True,),
          reasons=("M = m⁺ + m⁻ and m⁻ < (1+β)/β + (1+β)m⁺",)),
    Chain("weight cap", ("log_w_rel_max", "log_w_max", "log_cap"), log=True,
          reasons=("a maximum over the relevant variables is at most the maximum over all",
                   "a variable is promoted only on a round with w·x ≤ N on which it is on, so its weight "
                   "before the promotion is at most w·x ≤ N and after it at most (1+β)N; demotions only "
                   "lower weights, so no weight exceeds (1+β)N")),
    Chain("relevant variables never demoted", ("rel_demotions", "zero"), scale=1.0, needs=(TARGET,),
          reasons=("a demotion is a mistake on a negative example, where every relevant bit is 0 "
                   "(so w_i = (1+β)^{p_i} for i in R)",)),
    Chain("mistakes on positives", ("m_plus", "rel_promotions", "k_max_promotions", "k_cap"), scale=1.0,
          needs=(TARGET,),
          reasons=("a false negative has y = 1, so some relevant variable is on and is promoted",
                   "a sum of k terms is at most k times the largest",
                   "(1+β)^{p_i} = w_i ≤ (1+β)N gives p_i ≤ 1 + log_{1+β} N")),
)


def winnow_proof(*, T: int, N: int, beta: float, log_base: float, mistakes: np.ndarray, positive: np.ndarray,
                 exponents: np.ndarray, relevant: np.ndarray | None, rel_promotions: np.ndarray,
                 rel_demotions: np.ndarray, comparator_info: dict[str, Any]) -> Proof:
    """The potential proof of Winnow's bound.

    ``exponents[j]``: the exponent vector after mistake j (an (M, N) array, or a history with
    ``snapshot_rows(a, b)`` and ``columns(cols)``, read in blocks); ``positive[j]``: whether
    mistake j was on a positive example (a promotion); ``relevant``: the target's
    variables (None when no consistent disjunction exists); ``rel_promotions`` /
    ``rel_demotions``: (M, k) cumulative promotions / demotions of each relevant
    variable after each mistake; ``comparator_info``: how the target was found and
    ``failing_rounds`` (rounds whose label is not the target's).
    """
    mistakes = np.asarray(mistakes, dtype=np.int64)
    M = mistakes.shape[0]
    K = M + 1
    state_rounds = np.concatenate([[0], mistakes + 1]).astype(np.int64)
    nm = np.arange(K, dtype=np.int64)
    L = float(log_base)
    A = _Rows(exponents, M, N)
    series = _potential_series(N, beta, L, np.asarray(positive, dtype=bool), A)
    constants: dict[str, Any] = {"N": N, "beta": beta, "log_base": L, "threshold": N,
                                 "bound_formula": r"\frac{1+\beta}{\beta} + (2+\beta)\,k\,(1 + \log_{1+\beta} N)",
                                 "per_variable_promotions_cap": _per_variable_cap(beta, N)}
    constants.update({k: v for k, v in comparator_info.items() if k != "failing_rounds"})
    assumptions = [_target_assumption(comparator_info)]
    mistake_bound = None
    if relevant is not None:
        kk = int(relevant.shape[0])
        series.update(_relevant_series(N, beta, L, A, relevant, rel_promotions, rel_demotions))
        constants.update(k=kk, relevant=relevant, m_plus_bound=kk * _per_variable_cap(beta, N),
                         mistake_bound_sharp=bound_sharp(beta, N, kk))
        mistake_bound = bound(beta, N, kk)
    else:
        for key in ("log_w_rel_max", "k_max_promotions", "rel_promotions", "rel_demotions", "k_cap"):
            series[key] = np.full(K, np.nan)
        constants.update(k=None, relevant=None)
    no_target = ("no monotone disjunction labels these data, so the relevant variables R (and k) are not defined"
                 if relevant is None else "R is empty (k = 0): a maximum over no variable")
    undefined = {key: no_target for key in ("log_w_rel_max", "k_max_promotions", "rel_promotions", "rel_demotions",
                                            "k_cap")}

    notes = ("The potential chain, its floor, the m⁻ chain and the weight cap hold on any 0/1 data; "
             "the relevant-variable chains and the bound need the labels to be the target disjunction's.",)
    return Proof(name="Winnow (Littlestone), potential Φ = Σ w_i", theorem=THEOREM, T=T,
                 state_rounds=state_rounds, n_mistakes=nm, series=series, chains=_CHAINS,
                 assumptions=tuple(assumptions), mistake_bound=mistake_bound, constants=constants,
                 labels=dict(LABELS), notes=notes, bound_strict=True, undefined=undefined,
                 indices={"comparator": "variable", "relevant": "variable"})
