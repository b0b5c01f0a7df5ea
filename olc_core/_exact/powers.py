"""Sums of integer powers of a rational, compared exactly: Littlestone's Winnow's test ``Σ_j (1+β)^{e_j} > N``
on its integer exponents, for the rounds where the float sum is too close to N to decide (the learner's
decision, and the adversary stream's that forces it to err)."""
from __future__ import annotations

import numpy as np

__all__ = ["exact_compare", "exact_greater"]


def exact_greater(exponents: np.ndarray, P: int, Q: int, N: int) -> bool:
    """``Σ_j (P/Q)^{e_j} > N`` in exact integer arithmetic (``P/Q = 1+β`` in lowest terms, e_j integers).

    With ``d_j = e_j − e_min`` and ``D = e_max − e_min``:
    ``Σ_j (P/Q)^{e_j} = (P/Q)^{e_min} · I / Q^D`` where ``I = Σ_j P^{d_j} Q^{D−d_j}`` is an integer.
    The integers have about ``(|e_min| + D)·log₂ max(P, Q)`` bits; this runs only on near-ties.

    >>> exact_greater(np.array([1, 1]), 2, 1, 4), exact_greater(np.array([1, 1, -1]), 2, 1, 4)
    (False, True)
    """
    return exact_compare(exponents, P, Q, N) > 0


def exact_compare(exponents: np.ndarray, P: int, Q: int, N: int) -> int:
    """The sign (−1, 0, +1) of ``Σ_j (P/Q)^{e_j} − N``, in exact integer arithmetic (as :func:`exact_greater`).

    >>> exact_compare(np.array([1, 1]), 2, 1, 4), exact_compare(np.array([1]), 2, 1, 4), exact_compare(np.array([], int), 2, 1, 4)
    (0, -1, -1)
    """
    if exponents.size == 0:
        return -1  # the empty sum 0 is below N ≥ 1
    vals, counts = np.unique(np.asarray(exponents, dtype=np.int64), return_counts=True)
    emin, emax = int(vals[0]), int(vals[-1])
    D = emax - emin
    I = 0
    for e, c in zip(vals.tolist(), counts.tolist()):
        d = e - emin
        I += c * pow(P, d) * pow(Q, D - d)
    num, den = I, pow(Q, D)
    if emin >= 0:
        num *= pow(P, emin)
        den *= pow(Q, emin)
    else:
        num *= pow(Q, -emin)
        den *= pow(P, -emin)
    return (num > N * den) - (num < N * den)
