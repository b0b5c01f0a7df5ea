r"""Proofs of the expert-advice learners, read off a finished run.

* :func:`weighted_majority_proofs` — [001]: with ``Φ_t = Σ_i w_{t,i}``,
  ``β^{m_{i*}} ≤ w_{i*} ≤ Φ_t ≤ N((1+β)/2)^{M_t}``, so
  ``M ≤ (ln N + m* ln(1/β)) / ln(2/(1+β))``; and for η = 1 − β ≤ ½ the form of
  [000] eq. (1): ``M ≤ 2(1+η)m* + 2 ln N/η``.
* :func:`rwm_proofs` — [000]: ``Φ_{t+1} = Φ_t(1 − ηF_t)`` (an equality),
  ``(1−η)^{m*} ≤ Φ_{T+1} ≤ N exp(−η Σ F_t)``, so the *expected* number of
  mistakes ``Σ_t F_t ≤ (ln N + m* ln(1/(1−η)))/η ≤ (1+η)m* + ln N/η`` (η ≤ ½).
* :func:`halving_proof` — [001]: ``1 ≤ |H_t| ≤ |H|/2^{M_t}``, so ``M ≤ log₂|H|``
  when some hypothesis is consistent with every label.

Every potential is kept as a natural logarithm (``Chain(log=True)``): weights
``β^m`` underflow after a few thousand mistakes. States are rounds: state t is
the learner before round t (t = 0 … T) for WM/RWM; for Halving a new state
starts where the version space or the mistake count changes.

>>> round(wm_bound(10, 2, 0.5), 4), round(wm_eta_bound(10, 2, 0.5), 4)
(12.8228, 15.2103)
>>> wm_bound(8, 0, 0.0), wm_bound(8, 1, 0.0)      # β = 0: log₂N with a perfect expert, nothing otherwise
(3.0, None)
>>> round(rwm_bound(10, 2, 0.5), 4), round(rwm_eta_bound(10, 2, 0.5), 4)
(7.3778, 7.6052)
"""
from __future__ import annotations

import math
from typing import Any

import numpy as np

from .base import Assumption, Chain, Proof

__all__ = ["weighted_majority_proofs", "rwm_proofs", "halving_proof", "wm_bound", "wm_eta_bound",
           "rwm_bound", "rwm_eta_bound"]

LN2 = math.log(2.0)


def _xlogb(k: np.ndarray | int, log_b: float):
    """``k · ln β`` with the convention 0 · (−inf) = 0 (β⁰ = 1 also for β = 0)."""
    k = np.asarray(k, dtype=np.float64)
    if math.isinf(log_b):
        return np.where(k == 0, 0.0, -np.inf)
    return k * log_b


def wm_bound(N: int, m_star: int, beta: float) -> float | None:
    """``(ln N + m* ln(1/β)) / ln(2/(1+β))`` [001]; β = 0: ``log₂N`` if m* = 0, else None (no bound)."""
    if beta == 0.0:
        return math.log2(N) if m_star == 0 else None
    return (math.log(N) + m_star * -math.log(beta)) / math.log(2.0 / (1.0 + beta))


def wm_eta_bound(N: int, m_star: int, eta: float) -> float:
    """``2(1+η)m* + 2 ln N/η`` (valid for η ≤ ½)."""
    return 2.0 * (1.0 + eta) * m_star + 2.0 * math.log(N) / eta


def rwm_bound(N: int, m_star: int, eta: float) -> float | None:
    """``(ln N + m* ln(1/(1−η)))/η`` on the expected mistakes; η = 1: ``ln N`` if m* = 0, else None."""
    if eta >= 1.0:
        return math.log(N) if m_star == 0 else None
    return (math.log(N) + m_star * -math.log1p(-eta)) / eta


def rwm_eta_bound(N: int, m_star: int, eta: float) -> float:
    """``(1+η)m* + ln N/η`` (valid for η ≤ ½)."""
    return (1.0 + eta) * m_star + math.log(N) / eta


def _first_round_all_erred(m_star: np.ndarray) -> np.ndarray:
    """The round on which the last expert without a mistake made its first one (empty if never)."""
    k = np.flatnonzero(m_star >= 1)
    return np.array([int(k[0]) - 1], dtype=np.int64) if k.size else np.zeros(0, dtype=np.int64)


WM_LABELS = {
    "lower_best": r"\beta^{m_{i^*}}",
    "log_w_best": r"w_{i^*}",
    "log_phi": r"\Phi_t",
    "upper": r"N\left(\tfrac{1+\beta}{2}\right)^{M}",
    "log_w_max": r"\max_i w_i",
    "zero": "0",
    "slack": r"\min_i (m_i - p_i)",
    "step": r"\ln\Phi_{t+1} - \ln\Phi_t",
    "step_bound": r"\mathbb{1}[\text{mistake}]\,\ln\tfrac{1+\beta}{2}",
    "running_bound": r"\frac{\ln N + m^*_t \ln(1/\beta)}{\ln(2/(1+\beta))}",
    "running_eta_bound": r"2(1+\eta)m^*_t + 2\ln N/\eta",
    "m_star": r"m^*_t",
}


def _eta_form_running(values: np.ndarray, eta_ok: bool) -> np.ndarray:
    """The η form's running bound, round by round: for η > ½ it is no bound at all (its derivation
    uses ln(1/(1−η)) ≤ η + η², false there), so it is undefined (NaN: n/a, never checked as ✗)."""
    return values if eta_ok else np.full(np.shape(values), np.nan)


def _wm_series(T: int, N: int, beta: float, M: np.ndarray, mistakes: np.ndarray, log_phi: np.ndarray,
               m_star: np.ndarray, slack: np.ndarray, min_p: np.ndarray, m_best: np.ndarray,
               p_best: np.ndarray) -> dict[str, np.ndarray]:
    """The series of Weighted Majority's chains (β form), one entry per state t = 0 … T."""
    K = T + 1
    lb = math.log(beta) if beta > 0 else -math.inf
    shrink = math.log((1.0 + beta) / 2.0)
    is_mis = np.zeros(T, dtype=bool)
    is_mis[np.asarray(mistakes, dtype=np.int64)] = True
    step = np.full(K, np.nan)
    with np.errstate(invalid="ignore"):
        step[:-1] = log_phi[1:] - log_phi[:-1]
    step_bound = np.full(K, np.nan)
    step_bound[:-1] = np.where(is_mis, shrink, 0.0)
    mstar_f = m_star.astype(np.float64)
    if beta > 0:
        running = (math.log(N) + mstar_f * -lb) / -shrink
    else:
        running = np.where(m_star == 0, math.log2(N), np.nan)
    return {
        "lower_best": _xlogb(m_best, lb),
        "log_w_best": _xlogb(p_best, lb),
        "log_phi": np.asarray(log_phi, dtype=np.float64),
        "upper": math.log(N) + M * shrink,
        "log_w_max": _xlogb(min_p, lb),
        "zero": np.zeros(K),
        "slack": slack.astype(np.float64),
        "step": step,
        "step_bound": step_bound,
        "running_bound": running,
        "m_star": mstar_f,
    }


def _wm_chains(update: str) -> tuple[Chain, ...]:
    """Weighted Majority's chains (β form), each link with its reason; the reasons name the update rule."""
    every = update == "every_round"
    p_reason = ("w_{i*} = β^{m_{i*}} exactly: it is penalised on every round it is wrong" if every else
                "i* is penalised only on the learner's mistakes on which it is wrong: p_{i*} ≤ m_{i*}, "
                "so w_{i*} = β^{p_{i*}} ≥ β^{m_{i*}}")
    up_reason = ("Φ_1 = N; on a learner mistake the predicted side, hence the wrong side, holds at least half "
                 "the weight (ties go to +1 = the side with ≥ Φ/2), so Φ shrinks by at least (1−β)Φ/2, i.e. "
                 "Φ_{t+1} ≤ (1+β)/2·Φ_t; on other rounds Φ never grows (" +
                 ("wrong experts lose weight, none gains" if every else "nothing changes") + ")")
    return (
        Chain("potential, best expert i*", ("lower_best", "log_w_best", "log_phi", "upper"), log=True,
              reasons=(p_reason, "weights are non-negative: one weight is at most their sum", up_reason)),
        Chain("every expert: upper", ("log_w_max", "log_phi"), log=True,
              reasons=("weights are non-negative: each weight is at most their sum",)),
        Chain("every expert: lower", ("zero", "slack"), scale=1.0,
              reasons=("an expert is penalised only on rounds where it is wrong, so p_i ≤ m_i and "
                       "w_i = β^{p_i} ≥ β^{m_i} for every i" + (" (equality: every round is an update)"
                                                               if every else ""),)),
        Chain("one round", ("step", "step_bound"), log=True,
              reasons=("a learner mistake multiplies Φ by at most (1+β)/2, other rounds by at most 1",)),
        Chain("running bound", ("M", "running_bound"), scale=1.0,
              reasons=("the theorem applied to the rounds so far, with m*_t = min_i m_{t,i}",)),
    )


#: why the one-round series are NaN in the last state
LAST_STATE = "the last state: there is no round after round T"
#: why the η form's running bound is NaN
ETA_FORM_UNDEFINED = "η > ½: the η form is no bound (its derivation uses ln(1/(1−η)) ≤ η + η², false there)"


def _wm_assumption(beta: float, m_star: np.ndarray, m_final: int) -> Assumption:
    """The β form's assumption: β > 0, or some expert never errs (Halving's case)."""
    holds = beta > 0 or m_final == 0
    last = np.zeros(0, dtype=np.int64) if holds else _first_round_all_erred(m_star)
    return Assumption(
        "beta_or_perfect_expert", r"\beta > 0 \text{ or some expert makes no mistake } (m^* = 0)", holds, last,
        "" if holds else (f"β = 0 (Halving) and every expert errs (m* = {m_final}): ln(1/β) = ∞, the "
                          "theorem gives no bound"
                          + (f"; the last perfect expert made its first mistake on round {int(last[0]) + 1}"
                             if last.size else "")))


def weighted_majority_proofs(*, T: int, N: int, beta: float, update: str, mistakes: np.ndarray,
                             log_phi: np.ndarray, m_star: np.ndarray, slack: np.ndarray, min_p: np.ndarray,
                             i_star: int, m_best: np.ndarray, p_best: np.ndarray) -> dict[str, Proof]:
    """The β form [001] (primary) and the η form [000] of the Weighted Majority bound.

    Per state t = 0 … T (all arrays have T + 1 entries): ``log_phi`` = ln Φ_t,
    ``m_star`` = min_i m_{t,i} (expert mistakes so far), ``slack`` = min_i (m_{t,i}
    − p_{t,i}) (mistakes minus penalties), ``min_p`` = min_i p_{t,i}, and for the
    best expert of the whole run i*: ``m_best`` = m_{t,i*}, ``p_best`` = p_{t,i*}.
    """
    state_rounds = np.arange(T + 1, dtype=np.int64)
    M = np.searchsorted(np.asarray(mistakes, dtype=np.int64), state_rounds, side="left").astype(np.int64)
    eta = 1.0 - beta
    series = _wm_series(T, N, beta, M, mistakes, log_phi, m_star, slack, min_p, m_best, p_best)
    mstar_f = series["m_star"]
    chains = _wm_chains(update)
    m_final = int(m_best[-1])
    assumption = _wm_assumption(beta, m_star, m_final)
    constants: dict[str, Any] = {"N": N, "beta": beta, "eta": eta, "update": update, "m_star": m_final,
                                 "best_expert": int(i_star), "M": int(M[-1]),
                                 "bound_formula": r"\frac{\ln N + m^* \ln(1/\beta)}{\ln(2/(1+\beta))}",
                                 "bound_eta_form": wm_eta_bound(N, m_final, eta) if eta <= 0.5 else None,
                                 "crossing": "the lower curve β^{m*} and the upper curve N((1+β)/2)^M cross at "
                                             "the bound"}
    last = np.arange(T + 1) == T
    no_phi = lambda: np.isneginf(series["log_phi"])  # noqa: E731 - Φ_t = 0: ln Φ_{t+1} − ln Φ_t is −∞ − (−∞)
    undefined = {"step": [(LAST_STATE, last),
                          ("Φₜ = 0 (β = 0 and every expert has erred): ln Φₜ₊₁ − ln Φₜ is −∞ − (−∞)", no_phi)],
                 "step_bound": LAST_STATE,
                 "running_bound": "β = 0 and every expert has erred by this round (m*ₜ ≥ 1): ln(1/β) = ∞, the "
                                  "theorem gives no bound on these rounds"}
    beta_proof = Proof(name="Weighted Majority (β form)",
                       theorem=r"M \le \frac{\ln N + m^* \ln(1/\beta)}{\ln(2/(1+\beta))}", T=T,
                       state_rounds=state_rounds, n_mistakes=M, series=series, chains=chains,
                       assumptions=(assumption,), mistake_bound=wm_bound(N, m_final, beta),
                       constants=dict(constants), labels=dict(WM_LABELS), indices={"best_expert": "expert"},
                       undefined=undefined)
    eta_ok = eta <= 0.5
    eta_series = dict(series)
    eta_series["running_eta_bound"] = _eta_form_running(2.0 * (1.0 + eta) * mstar_f + 2.0 * math.log(N) / eta, eta_ok)
    eta_chains = chains[:-1] + (Chain("running bound", ("M", "running_eta_bound"), scale=1.0,
                                      needs=("eta_at_most_half",),
                                      reasons=("the η form applied to the rounds so far",)),)
    eta_assumption = Assumption(
        "eta_at_most_half", r"\eta = 1 - \beta \le \tfrac12", eta_ok, np.zeros(0, dtype=np.int64),
        "" if eta_ok else (f"η = {eta:g} > ½: ln(1/(1−η)) ≤ η + η² (used to reach the η form) needs η ≤ ½; "
                           "the β form still applies"))
    eta_proof = Proof(name="Weighted Majority (η form)", theorem=r"M \le 2(1+\eta)m^* + \frac{2\ln N}{\eta}",
                      T=T, state_rounds=state_rounds, n_mistakes=M, series=eta_series, chains=eta_chains,
                      assumptions=(eta_assumption,),
                      mistake_bound=wm_eta_bound(N, m_final, eta) if eta_ok else None,
                      constants=dict(constants, bound_formula=r"2(1+\eta)m^* + 2\ln N/\eta"),
                      labels=dict(WM_LABELS), indices={"best_expert": "expert"},
                      undefined=dict(undefined, running_eta_bound=ETA_FORM_UNDEFINED))
    return {"beta_form": beta_proof, "eta_form": eta_proof}


#: unit roundoff of float64
U_ROUND = 2.0 ** -53


def rwm_step_pred(log_phi: np.ndarray, F: np.ndarray, eta: float, N: int, keep: np.ndarray | None = None,
                  base: np.ndarray | None = None, log_sum: np.ndarray | None = None,
                  beta: float | None = None) -> np.ndarray:
    r"""``ln(Φ_t(1 − ηF_t))`` for t = 0 … T−1, computed so that the potential-step check is exact.

    ``log1p(−ηF_t)`` from the float ``F_t`` loses ~ε/(1 − ηF_t) (at η = 1 − 10⁻⁹ and F_t ≈ 1, seven
    digits: the check then flagged violations of an identity that holds exactly). With the run's
    parts (``keep`` = the right experts' weight fraction, ``ln Φ_t = base_t·ln β + log_sum_t``, the
    learner's β) the value is
    ``ln Φ_{t+1} + δ'_t``, where ``δ_t = ln(keep_t + βF_t) − ln(Φ_{t+1}/Φ_t)`` is the identity's
    discrepancy (``1 − ηF = keep + βF``: two non-negative terms, no cancellation;
    ``ln(Φ_{t+1}/Φ_t) = (base_{t+1} − base_t)·ln β + log_sum_{t+1} − log_sum_t``: small numbers, not
    the difference of two ln Φ ≈ −m·ln(1/β), whose last bit alone exceeds the 1e-9 tolerance after
    ~10⁶ mistakes at β = 10⁻⁹) and ``δ'_t = sign(δ_t)·max(|δ_t| − E_t, 0)`` is shrunk by a rigorous bound
    ``E_t`` on its rounding error (u = 2⁻⁵³; first-order terms, doubled):

    * each weight β^k from ``np.power`` within 2u; a sum of N of them (non-negative) within (N + 2)u;
      ``keep``, ``F`` (a ratio of two sums) within (2N + 5)u; ``keep + βF`` within (2N + 7)u,
      and ``+ 4N·2⁻¹⁰⁷⁴/β`` relative for weights that underflowed (1 − ηF ≥ β);
    * ``ln`` of a quantity with relative error r: absolute r, plus 2u·|result| for the log itself;
      ``log_sum`` within (N + 2)u + 2u|log_sum|; ``Δbase·ln β`` within 3u|Δbase·ln β|;
      each subtraction u·|result|;

    so ``E_t = 16u·(N + 4 + |ln q_t| + |log_sum_t| + |log_sum_{t+1}| + |Δbase·ln β|) + 8N·2⁻¹⁰⁷⁴/β``.
    Then a flagged step is a real one (the exact discrepancy is at least δ' > 0), and a real one is
    flagged once it exceeds the tolerance by 2E_t (~10⁻¹⁴). Where a state's ``ln Φ`` is not its parts
    (beyond their rounding) or a side is infinite (Φ = 0 at η = 1), the value is the direct
    ``ln Φ_t + ln(keep_t + βF_t)``; where ``keep_t + F_t`` is not 1 within their rounding (F_t is not the
    run's fraction) and without the parts, ``ln Φ_t + log1p(−ηF_t)`` (the old form, which sees F_t).
    """
    T = F.shape[0]
    with np.errstate(divide="ignore", invalid="ignore", under="ignore", over="ignore"):
        if keep is None or base is None or log_sum is None:
            return log_phi[:-1] + np.log1p(-eta * F)
        b = (1.0 - eta) if beta is None else float(beta)
        lb = math.log(b) if b > 0 else -math.inf
        lnq = np.log(keep + b * F)
        direct = log_phi[:-1] + lnq
        base = np.asarray(base, dtype=np.int64)
        big = _xlogb(base, lb)
        parts_ok = np.abs(log_phi - (big + log_sum)) <= 8 * U_ROUND * (np.abs(log_phi) + np.abs(big) + N + 4)
        jump = _xlogb(np.diff(base), lb)
        delta = lnq - (jump + (log_sum[1:] - log_sum[:-1]))
        under = 8.0 * N * 2.0 ** -1074 / b if b > 0 else 0.0
        E = 16 * U_ROUND * (N + 4 + np.abs(lnq) + np.abs(log_sum[:-1]) + np.abs(log_sum[1:]) + np.abs(jump)) + under
        shrunk = np.sign(delta) * np.maximum(np.abs(delta) - E, 0.0)
        use = np.isfinite(delta) & np.isfinite(shrunk) & np.isfinite(log_phi[1:]) & parts_ok[:-1] & parts_ok[1:]
        out = np.where(use, log_phi[1:] + shrunk, direct)
        # F_t is the series the bound sums: where keep_t + F_t is not 1 within their rounding, F_t is not
        # the run's weight fraction, and the step is checked with F_t itself (it fails if F_t is off)
        fk_bad = np.abs(F + keep - 1.0) > 2 * (2 * N + 6) * U_ROUND + 4 * N * 2.0 ** -1074
        out = np.where(fk_bad, log_phi[:-1] + np.log1p(-eta * F), out)
    assert out.shape == (T,)
    return out


RWM_LABELS = {
    "lower_best": r"(1-\eta)^{m_{i^*}}",
    "log_w_best": r"w_{i^*}",
    "log_phi": r"\Phi_t",
    # the sums run over the rounds so far: no index bound, which a reader counting rounds from 1 ("after t
    # rounds") would read one round short (s < t) where the state's own index counts from 0
    "upper": r"N e^{-\eta \sum_s F_s}",
    "log_w_max": r"\max_i w_i",
    "log_phi_next": r"\Phi_{t+1}",
    "log_phi_pred": r"\Phi_t (1 - \eta F_t)",
    "expected_M": r"\mathbb{E}[M] = \sum_s F_s",
    "M_realised": r"M",
    "F": r"F_t",
    "running_bound": r"\frac{\ln N + m^*_t \ln(1/(1-\eta))}{\eta}",
    "running_eta_bound": r"(1+\eta)m^*_t + \ln N/\eta",
    "m_star": r"m^*_t",
}


def _rwm_series(T: int, N: int, eta: float, M: np.ndarray, log_phi: np.ndarray, F: np.ndarray, m_star: np.ndarray,
                m_best: np.ndarray, keep: np.ndarray | None, base: np.ndarray | None, log_sum: np.ndarray | None,
                beta: float | None) -> dict[str, np.ndarray]:
    """The series of Randomised WM's chains, one entry per state t = 0 … T (``F`` has T entries)."""
    K = T + 1
    lb = math.log1p(-eta) if eta < 1.0 else -math.inf
    EM = np.concatenate([[0.0], np.cumsum(F)])
    nxt = np.full(K, np.nan)
    nxt[:-1] = log_phi[1:]
    pred = np.full(K, np.nan)
    pred[:-1] = rwm_step_pred(np.asarray(log_phi, dtype=np.float64), F, eta, N, keep, base, log_sum, beta)
    mstar_f = m_star.astype(np.float64)
    if eta < 1.0:
        running = (math.log(N) + mstar_f * -lb) / eta
    else:
        running = np.where(m_star == 0, math.log(N), np.nan)
    return {
        "lower_best": _xlogb(m_best, lb),
        "log_w_best": _xlogb(m_best, lb),
        "log_phi": np.asarray(log_phi, dtype=np.float64),
        "upper": math.log(N) - eta * EM,
        "log_w_max": _xlogb(m_star, lb),
        "log_phi_next": nxt,
        "log_phi_pred": pred,
        "expected_M": EM,
        "M_realised": M.astype(np.float64),
        "F": np.concatenate([F, [np.nan]]),
        "running_bound": running,
        "m_star": mstar_f,
    }


#: Randomised WM's chains (exact form), each link with its reason.
_RWM_CHAINS = (
    Chain("potential, best expert i*", ("lower_best", "log_w_best", "log_phi", "upper"), log=True,
          reasons=("w_{i*} = (1−η)^{m_{i*}}: every round it is wrong multiplies it by 1 − η",
                   "weights are non-negative: one weight is at most their sum",
                   "Φ_1 = N and Φ_{t+1} = Φ_t(1 − ηF_t) ≤ Φ_t e^{−ηF_t} (1 − x ≤ e^{−x})")),
    Chain("every expert: upper", ("log_w_max", "log_phi"), log=True,
          reasons=("weights are non-negative: each weight is at most their sum",)),
    Chain("potential step (≤)", ("log_phi_next", "log_phi_pred"), log=True,
          reasons=("the wrong experts hold F_t·Φ_t of the weight and each loses the fraction η",)),
    Chain("potential step (≥)", ("log_phi_pred", "log_phi_next"), log=True,
          reasons=("the same identity read the other way: Φ_{t+1} = Φ_t(1 − ηF_t) is an equality",)),
    Chain("running bound", ("expected_M", "running_bound"), scale=1.0,
          reasons=("the theorem applied to the rounds so far, with m*_t = min_i m_{t,i}",)),
)


def rwm_proofs(*, T: int, N: int, eta: float, mistakes: np.ndarray, log_phi: np.ndarray, F: np.ndarray,
               m_star: np.ndarray, i_star: int, m_best: np.ndarray, keep: np.ndarray | None = None,
               base: np.ndarray | None = None, log_sum: np.ndarray | None = None,
               beta: float | None = None) -> dict[str, Proof]:
    """The bound on the expected mistakes ``Σ F_t`` of Randomised Weighted Majority (exact form and η form).

    ``F[t]`` = weight fraction of the experts wrong on round t (= P(mistake at t));
    ``log_phi``, ``m_star``, ``m_best`` have T + 1 entries as in
    :func:`weighted_majority_proofs` (here every weight is ``(1−η)^{m_i}``). ``keep``, ``base``,
    ``log_sum``, ``beta``: the run's parts that make the potential step exact (:func:`rwm_step_pred`).
    """
    state_rounds = np.arange(T + 1, dtype=np.int64)
    M = np.searchsorted(np.asarray(mistakes, dtype=np.int64), state_rounds, side="left").astype(np.int64)
    F = np.asarray(F, dtype=np.float64)
    series = _rwm_series(T, N, eta, M, log_phi, F, m_star, m_best, keep, base, log_sum, beta)
    EM, mstar_f = series["expected_M"], series["m_star"]
    chains = _RWM_CHAINS
    m_final = int(m_best[-1])
    holds = eta < 1.0 or m_final == 0
    assumption = Assumption(
        "eta_below_one_or_perfect_expert", r"\eta < 1 \text{ or some expert makes no mistake}", holds,
        np.zeros(0, dtype=np.int64) if holds else _first_round_all_erred(m_star),
        "" if holds else f"η = 1 and every expert errs (m* = {m_final}): ln(1/(1−η)) = ∞, no bound")
    constants: dict[str, Any] = {"N": N, "eta": eta, "beta": 1.0 - eta, "m_star": m_final,
                                 "best_expert": int(i_star), "expected_mistakes": float(EM[-1]),
                                 "realised_mistakes": int(M[-1]),
                                 "bound_formula": r"\frac{\ln N + m^* \ln(1/(1-\eta))}{\eta}",
                                 "bound_eta_form": rwm_eta_bound(N, m_final, eta) if eta <= 0.5 else None,
                                 "regret_bound": (eta * m_final + math.log(N) / eta) if eta <= 0.5 else None}
    undefined = {"log_phi_next": LAST_STATE, "log_phi_pred": LAST_STATE, "F": LAST_STATE,
                 "running_bound": "η = 1 and every expert has erred by this round (m*ₜ ≥ 1): ln(1/(1−η)) = ∞, "
                                  "the theorem gives no bound on these rounds"}
    main = Proof(name="Randomised Weighted Majority (expected mistakes)",
                 theorem=r"\mathbb{E}[M] = \sum_t F_t \le \frac{\ln N + m^* \ln(1/(1-\eta))}{\eta}", T=T,
                 state_rounds=state_rounds, n_mistakes=M, series=series, chains=chains, assumptions=(assumption,),
                 mistake_bound=rwm_bound(N, m_final, eta), constants=dict(constants), labels=dict(RWM_LABELS),
                 indices={"best_expert": "expert"},
                 bounded="expected_M", undefined=undefined,
                 notes=("mistake_bound bounds the expected number of mistakes Σ F_t, not the realised count M "
                        "of one seeded run",))
    eta_ok = eta <= 0.5
    eta_series = dict(series)
    eta_series["running_eta_bound"] = _eta_form_running((1.0 + eta) * mstar_f + math.log(N) / eta, eta_ok)
    eta_chains = chains[:-1] + (Chain("running bound", ("expected_M", "running_eta_bound"), scale=1.0,
                                      needs=("eta_at_most_half",),
                                      reasons=("the η form applied to the rounds so far",)),)
    eta_assumption = Assumption("eta_at_most_half", r"\eta \le \tfrac12", eta_ok, np.zeros(0, dtype=np.int64),
                                "" if eta_ok else f"η = {eta:g} > ½: ln(1/(1−η)) ≤ η + η² needs η ≤ ½")
    eta_proof = Proof(name="Randomised Weighted Majority (η form)",
                      theorem=r"\mathbb{E}[M] \le (1+\eta)m^* + \frac{\ln N}{\eta}", T=T,
                      state_rounds=state_rounds, n_mistakes=M, series=eta_series, chains=eta_chains,
                      assumptions=(eta_assumption,), mistake_bound=rwm_eta_bound(N, m_final, eta) if eta_ok else None,
                      constants=dict(constants, bound_formula=r"(1+\eta)m^* + \ln N/\eta"),
                      labels=dict(RWM_LABELS), indices={"best_expert": "expert"}, bounded="expected_M",
                      undefined=dict(undefined, running_eta_bound=ETA_FORM_UNDEFINED))
    return {"expected": main, "eta_form": eta_proof}


HALVING_LABELS = {
    "zero": r"\ln 1",
    "log_size": r"\ln |H_t|",
    "upper": r"\ln\left(|H| / 2^{M}\right)",
    "size": r"|H_t|",
    "upper_size": r"|H|/2^M",
}


def halving_proof(*, T: int, H_size: int, mistakes: np.ndarray, change_rounds: np.ndarray,
                  sizes_after: np.ndarray, realisable: bool, empty_round: int | None, n_consistent: int,
                  update: str, constants: dict[str, Any] | None = None) -> Proof:
    """``1 ≤ |H_t| ≤ |H|/2^{M_t}``, hence ``M ≤ log₂|H|`` (realisable streams).

    ``change_rounds``: rounds at whose end the version space shrank;
    ``sizes_after``: its size after each of them. ``empty_round``: the round on
    which no hypothesis is consistent with every label so far any more (None
    when the stream is realisable).
    """
    mistakes = np.asarray(mistakes, dtype=np.int64)
    change_rounds = np.asarray(change_rounds, dtype=np.int64)
    state_rounds = np.unique(np.concatenate([[0], mistakes + 1, change_rounds + 1])).astype(np.int64)
    M = np.searchsorted(mistakes, state_rounds, side="left").astype(np.int64)
    k = np.searchsorted(change_rounds + 1, state_rounds, side="right")
    sizes = np.concatenate([[H_size], np.asarray(sizes_after, dtype=np.int64)])[k]
    with np.errstate(divide="ignore"):
        log_size = np.log(sizes.astype(np.float64))
    series = {
        "zero": np.zeros(len(state_rounds)),
        "log_size": log_size,
        "upper": math.log(H_size) - M * LN2,
        "size": sizes.astype(np.float64),
    }
    with np.errstate(under="ignore"):
        series["upper_size"] = H_size * np.exp2(-M.astype(np.float64))
    chains = (Chain("version space", ("zero", "log_size", "upper"), log=True, link_needs=(("realisable",), ()),
                    reasons=("a hypothesis consistent with every label is never removed (realisable data)",
                             "H_1 = H; on a mistake the majority of H_t was wrong (ties go to +1), so at least "
                             "half of H_t is removed; other rounds never add a hypothesis")),)
    rounds = np.zeros(0, dtype=np.int64) if empty_round is None else np.array([empty_round], dtype=np.int64)
    assumption = Assumption(
        "realisable", r"\exists h \in H \text{ consistent with every label}", realisable, rounds,
        "" if realisable else (f"no hypothesis of H is consistent with the labels of rounds 1 … {empty_round + 1}: "
                               "the version space of consistent hypotheses becomes empty on that round"))
    consts = {"H_size": H_size, "log2_H": math.log2(H_size), "update": update, "n_consistent": n_consistent,
              "bound_formula": r"\log_2 |H|", **(constants or {})}
    return Proof(name="Halving", theorem=r"M \le \log_2 |H|", T=T, state_rounds=state_rounds, n_mistakes=M,
                 series=series, chains=chains, assumptions=(assumption,), mistake_bound=math.log2(H_size),
                 constants=consts, labels=dict(HALVING_LABELS))
