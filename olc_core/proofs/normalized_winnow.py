r"""The relative-entropy proof of the exponentiated update (normalised Winnow) [003] §2.2.

With ``u ≥ 0``, ``Σu = 1``, ``‖x_t‖∞ ≤ 1`` and margin ``y_t⟨u, x_t⟩ ≥ δ`` on
every round, the potential ``Φ_t = KL(u ‖ w_t) = Σ_i u_i ln(u_i / w_{t,i})``
(``0 ln 0 = 0``) satisfies, after M mistakes,

``0 ≤ Φ_t ≤ Φ_1 − C·M ≤ ln N − C·M``, ``C = ηδ − ln((e^η + e^{−η})/2)``.

* ``Φ ≥ 0``: Gibbs' inequality (u and w are both distributions).
* On a mistake ``Φ_{t+1} − Φ_t = ln Z_t − η y_t⟨u, x_t⟩`` (uses ``Σu = 1``), and
  ``Z_t = Σ_i w_i e^{η y_t x_{t,i}} ≤ cosh η + sinh η · y_t⟨w_t, x_t⟩ ≤ cosh η``:
  ``e^{ηz}`` lies below its chord on ``z ∈ [−1, 1]`` (this needs ``|x_i| ≤ 1``) and
  ``y_t⟨w_t, x_t⟩ ≤ 0`` on a mistake. With the margin, each mistake lowers Φ by ≥ C.
* ``Φ_1 = KL(u ‖ 1/N) = ln N − H(u) ≤ ln N``.

Hence ``M ≤ ln N / C`` when ``C > 0``. ``C`` is largest at ``η = artanh δ =
½ ln((1+δ)/(1−δ))``, where ``C = KL(Bernoulli((1+δ)/2) ‖ Bernoulli(½)) ≥ δ²/2``
(Pinsker), so ``M ≤ 2 ln N / δ²``.

>>> round(C_of(math.log(2.0), 0.6), 6), round(0.6 ** 2 / 2, 6)     # η = artanh 0.6 = ln 2
(0.192745, 0.18)
>>> round(eta_max(0.6), 4) > math.log(2.0), C_of(eta_max(0.6), 0.6) < 1e-12
(True, True)
"""
from __future__ import annotations

import math
import sys
from typing import Any

import numpy as np

from .base import Assumption, Chain, Proof

__all__ = ["normalized_winnow_proof", "log_cosh", "C_of", "C_positive", "eta_optimal", "eta_max", "kl_rows"]

LN2 = math.log(2.0)
#: δ is capped at this value when η = artanh δ is derived from it (artanh 1 = ∞)
DELTA_CAP = 1.0 - 1e-6

LABELS = {
    "zero": "0",
    "kl": r"\Phi_t = \mathrm{KL}(u\,\|\,w_t)",
    "kl_upper": r"\Phi_1 - C\,M",
    "lnN_upper": r"\ln N - C\,M",
    "C": r"C = \eta\delta - \ln\cosh\eta",
    "kl_drop": r"\Phi_{t} - \Phi_{t+1}",
    "log_Z": r"\ln Z_t",
    "log_cosh_eta": r"\ln\frac{e^\eta + e^{-\eta}}{2}",
    "delta": r"\delta",
    "margin_at_mistake": r"y_t\langle u, x_t\rangle",
    "half_delta_sq": r"\delta^2/2",
}

THEOREM = (r"M \le \frac{\ln N}{C},\quad C = \eta\delta - \ln\frac{e^\eta + e^{-\eta}}{2}"
           r";\quad \text{at } \eta = \operatorname{artanh}\delta,\ C \ge \delta^2/2"
           r"\text{, so } \frac{\ln N}{C} \le \frac{2\ln N}{\delta^2}")


def log_cosh(eta: float) -> float:
    """``ln((e^η + e^{−η})/2)`` to full relative precision: ``ln(1 + 2 sinh²(η/2))`` for |η| ≤ 1
    (no cancellation for small η), ``|η| + ln(1 + e^{−2|η|}) − ln 2`` beyond (no overflow)."""
    a = abs(eta)
    if a <= 1.0:
        sh = math.sinh(0.5 * a)
        return math.log1p(2.0 * sh * sh)
    return a + math.log1p(math.exp(-2.0 * a)) - LN2


def C_of(eta: float, delta: float) -> float:
    """``C = ηδ − ln cosh η``; for η > 1 written ``η(δ − 1) + ln 2 − ln(1 + e^{−2η})`` so that a large η
    with δ near 1 does not cancel two huge terms."""
    if eta <= 1.0:
        return eta * delta - log_cosh(eta)
    return eta * (delta - 1.0) + LN2 - math.log1p(math.exp(-2.0 * eta))


#: Below this, ηδ and ln cosh η ≈ η²/2 are too close to the float range's floor to subtract: the
#: sign of C is then read off the scaled form δ − ln cosh(η)/η (see :func:`C_positive`).
_TINY = 2.0 ** -900


def _log_cosh_over_eta(eta: float) -> float:
    """``ln cosh(η)/η`` for η > 0 at any scale (``η/2`` below 1e-8, where the next term is η³/12)."""
    return 0.5 * eta if eta < 1e-8 else log_cosh(eta) / eta


def C_positive(eta: float, delta: float) -> bool:
    """Whether ``C = ηδ − ln cosh η > 0``, decided at any scale: when ηδ is tiny, C itself underflows,
    but its sign is that of ``δ − ln cosh(η)/η``, a difference of two numbers of δ's size.

    >>> C_positive(1e-200, 1e-200), C_of(1e-200, 1e-200)      # C = 5e-401: positive, not a float
    (True, 0.0)
    >>> C_positive(3e-200, 1e-200)                              # C > 0 needs η < 2δ for tiny δ
    False
    """
    if eta * delta >= _TINY or eta > 1.0:
        return C_of(eta, delta) > 0.0
    return delta - _log_cosh_over_eta(eta) > 0.0


def eta_optimal(delta: float) -> float:
    """``½ ln((1+δ)/(1−δ)) = artanh δ`` (δ capped at :data:`DELTA_CAP`)."""
    return math.atanh(min(delta, DELTA_CAP))


def eta_max(delta: float) -> float:
    """The positive root of ``ηδ = ln cosh η``: C > 0 exactly for ``0 < η < eta_max(δ)`` (inf when δ ≥ 1)."""
    if delta >= 1.0:
        return math.inf
    if delta <= 0.0:
        return 0.0
    lo, hi = math.atanh(delta), LN2 / (1.0 - delta) + 1.0  # C(lo) > 0 > C(hi)
    if delta < 0.4:  # C(3δ) ≤ 3δ² − (9δ²/2 − 27δ⁴/4) < 0: a bracket of δ's size, so tiny δ are resolved too
        hi = 3.0 * delta
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        if C_positive(mid, delta):
            lo = mid
        else:
            hi = mid
        if hi - lo <= 1e-15 * hi:
            break
    return lo


def kl_rows(u: np.ndarray, log_w: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``KL(u ‖ w)`` for each row of log weights, and the sum of the absolute terms (its scale)."""
    supp = np.flatnonzero(u > 0)
    us = u[supp]
    terms = us * (np.log(us) - log_w[:, supp])
    return terms.sum(axis=1), np.abs(terms).sum(axis=1)


def _range_assumption(fits: bool, eta: float, delta: float, C: float) -> Assumption:
    """C > 0 but too small a float for ln N/C (δ and η of order 1e-154 or less: the data's scale)."""
    if fits:
        detail = ""
    else:  # C ≈ η·(δ − ln cosh(η)/η), shown as a power of ten (it is not a float)
        exponent = math.log10(eta) + math.log10(delta - _log_cosh_over_eta(eta))
        detail = (f"δ = {delta:.3g} and η = {eta:.3g} are so small that C = ηδ − ln cosh η ≈ 10^{exponent:.0f} is "
                  f"below the smallest float ({sys.float_info.min:.3g}) and the bound ln N/C above the largest, so "
                  "no bound is stated; δ is the margin y⟨u, x⟩, so it shrinks with X: scale X up towards "
                  "‖x_t‖∞ = 1 (the theorem allows up to 1)")
    return Assumption("float range", r"\ln N / C < 1.8\cdot 10^{308}", fits, np.zeros(0, dtype=np.int64), detail)


def _rate_assumptions(eta: float, delta: float, C: float, lnN: float) -> tuple[list[Assumption], float | None]:
    """The learning rate's assumption (C > 0) and, when it holds, the float range's; and the bound ln N / C
    (None unless both hold)."""
    ok = C_positive(eta, delta)
    out = [Assumption(
        "learning rate", r"C = \eta\delta - \ln\cosh\eta > 0 \quad(\text{i.e. } \eta < \eta_{\max}(\delta))", ok,
        np.zeros(0, dtype=np.int64),
        "" if ok else (f"η = {eta:.6g} is too large for δ = {delta:.6g}: C = {C:.6g} ≤ 0 "
                       f"(C > 0 needs η < {eta_max(delta):.6g}; the best η is artanh δ = "
                       f"{eta_optimal(delta):.6g})"))]
    if not ok:
        return out, None
    fits = C >= sys.float_info.min and math.isfinite(lnN / C)
    out.append(_range_assumption(fits, eta, delta, C))
    return out, (lnN / C if fits else None)


def _chains(scale: float, eta: float, extra: tuple[Chain, ...]) -> tuple[Chain, ...]:
    """The KL potential's chains (then ``extra``), each link with its reason."""
    return (
        Chain("KL potential", ("zero", "kl", "kl_upper", "lnN_upper"), scale=scale,
              link_needs=((), ("margin",), ()),
              reasons=("relative entropy between two distributions is ≥ 0 (Gibbs)",
                       "each mistake lowers Φ by at least C (next chains)",
                       "Φ₁ = KL(u‖uniform) = ln N − H(u) ≤ ln N")),
        Chain("per-mistake decrease", ("C", "kl_drop"), scale=scale, needs=("margin",),
              reasons=("Φ_t − Φ_{t+1} = η y_t⟨u,x_t⟩ − ln Z_t ≥ ηδ − ln cosh η = C",)),
        Chain("normaliser", ("log_Z", "log_cosh_eta"), scale=max(1.0, eta),
              reasons=("e^{ηz} ≤ cosh η + z sinh η for z = y x_i ∈ [−1, 1] (convexity), so "
                       "Z ≤ cosh η + sinh η · y⟨w,x⟩ ≤ cosh η since y⟨w,x⟩ ≤ 0 on a mistake",)),
        Chain("margin on mistakes", ("delta", "margin_at_mistake"), scale=1.0, needs=("margin",), restates="margin",
              reasons=("the margin assumption y_t⟨u,x_t⟩ ≥ δ, at the rounds that update",)),
    ) + extra


def normalized_winnow_proof(*, T: int, N: int, eta: float, delta: float | None, u: np.ndarray, cmargin: np.ndarray,
                            mistakes: np.ndarray, log_weights: np.ndarray, log_Z: np.ndarray,
                            margin_assumption: Assumption, eta_is_optimal: bool,
                            constants: dict[str, Any]) -> Proof:
    """The KL proof for a finished run.

    ``log_weights[j]``: the (normalised) log weights after mistake j; ``log_Z[j]``:
    ``ln Z`` of that update; ``cmargin[t] = y_t⟨u, x_t⟩``; ``delta``: the margin the
    proof uses (None when no positive margin exists, then C is undefined);
    ``margin_assumption``: built by the learner (which knows how δ was chosen).
    """
    mistakes = np.asarray(mistakes, dtype=np.int64)
    M = mistakes.shape[0]
    K = M + 1
    state_rounds = np.concatenate([[0], mistakes + 1]).astype(np.int64)
    nm = np.arange(K, dtype=np.int64)
    lnN = math.log(N)
    LW = np.concatenate([np.full((1, N), -lnN), np.asarray(log_weights, dtype=np.float64).reshape(M, N)])
    kl, kl_abs = kl_rows(u, LW)
    scale = max(lnN, float(kl_abs.max()), 1e-12)  # N = 1: every term is 0
    lc = log_cosh(eta)
    nan = np.full(K, np.nan)
    at_mistake = np.concatenate([[np.nan], np.asarray(cmargin, dtype=np.float64)[mistakes]])
    series: dict[str, np.ndarray] = {
        "zero": np.zeros(K),
        "kl": kl,
        "log_Z": np.concatenate([[np.nan], np.asarray(log_Z, dtype=np.float64)]),
        "log_cosh_eta": np.full(K, lc),
        "kl_drop": np.concatenate([[np.nan], kl[:-1] - kl[1:]]),
        "margin_at_mistake": at_mistake,
    }
    C = C_of(eta, delta) if delta is not None else None
    consts = dict(constants)
    consts.update(N=N, eta=eta, delta=delta, log_cosh_eta=lc, C=C, phi_1=float(kl[0]), ln_N=lnN,
                  eta_optimal=eta_optimal(delta) if delta is not None else None,
                  eta_max=eta_max(delta) if delta is not None else None,
                  half_delta_squared=None if delta is None else delta * delta / 2.0,  # may underflow: a constant
                  bound_formula=r"\ln N / C")
    assumptions = [margin_assumption]
    mistake_bound = None
    if C is not None:
        kf = nm.astype(np.float64)
        series.update(kl_upper=kl[0] - C * kf, lnN_upper=lnN - C * kf, C=np.full(K, C), delta=np.full(K, delta))
        rate, mistake_bound = _rate_assumptions(eta, delta, C, lnN)
        assumptions += rate
        if mistake_bound is not None:
            consts.update(bound_phi1=float(kl[0]) / C)
    if C is not None and eta_is_optimal:
        r = 1.0 / delta                      # 2 ln N/δ² as 2 ln N·(1/δ)²: no division by an underflowed δ²
        b2 = 2.0 * lnN * (r * r)
        consts.update(bound_2lnN_over_delta2=b2 if math.isfinite(b2) else None)
        series["half_delta_sq"] = np.full(K, delta * delta / 2.0)
        extra = (Chain("optimal learning rate", ("half_delta_sq", "C"), scale=1.0,
                       reasons=("at η = artanh δ, C = KL(Bern((1+δ)/2) ‖ Bern(½)) ≥ 2(δ/2)² (Pinsker)",)),)
    else:
        extra = ()
    if C is None:
        series.update(kl_upper=nan, lnN_upper=nan, C=nan, delta=nan)
    notes = ("The normaliser chain, Φ ≥ 0 and Φ₁ ≤ ln N hold on any data with ‖x‖∞ ≤ 1; the other links need "
             "the margin.",)
    return Proof(name="Normalised Winnow (exponentiated update), potential KL(u‖w)", theorem=THEOREM, T=T,
                 state_rounds=state_rounds, n_mistakes=nm, series=series, chains=_chains(scale, eta, extra),
                 assumptions=tuple(assumptions), mistake_bound=mistake_bound, constants=consts,
                 labels=dict(LABELS), notes=notes, undefined=_undefined(consts.get("delta_measured")),
                 at_update=("log_Z", "kl_drop", "margin_at_mistake"))


def _undefined(measured: float | None) -> dict[str, str]:
    """Why each series is NaN where it is: before the first mistake (no update yet), and C, δ and the
    bounds with C when the comparator u has no positive margin (δ > 0 does not exist)."""
    first = "before the first mistake: no update yet"
    smallest = "" if measured is None else f" (its smallest y⟨u, x⟩ is {measured:.6g})"
    no_delta = f"no δ > 0: the comparator u has no positive margin on these data{smallest}, so C is not defined"
    return {"log_Z": first, "kl_drop": first, "margin_at_mistake": first,
            "C": no_delta, "delta": no_delta, "kl_upper": no_delta, "lnN_upper": no_delta}
