"""The max-margin search as it was before the working set (Wolfe on every round at every
iteration), kept as the reference the fast search is compared with. Its inseparability
verdict was a float threshold: the reference is used for separable data only."""
from __future__ import annotations

import numpy as np

from olc_core.comparators import _affine_minimizer, euclid, unit


def reference_max_margin(X, y, tol=1e-13):
    """``(w, margin, upper)`` of Wolfe's algorithm run on all of ``z_t = y_t x_t``."""
    X = np.asarray(X, dtype=np.float64)
    y = np.asarray(y, dtype=np.float64)
    T, d = X.shape
    norms2 = np.einsum("ij,ij->i", X, X)
    Rz2 = float(norms2.max())
    Z = y[:, None] * X
    S = np.array([int(np.argmin(norms2))])
    lam = np.ones(1)
    p = Z[S][0]
    for _ in range(100 * (d + 1) + 1000):
        pp = float(p @ p)
        g = Z @ p
        j = int(np.argmin(g))
        if pp - g[j] <= tol * Rz2 or j in S:
            break
        S = np.append(S, j)
        lam = np.append(lam, 0.0)
        for _ in range(len(S) + 1):
            alpha = _affine_minimizer(Z[S])
            pos = alpha > 1e-14
            if pos.all():
                lam = alpha
                break
            neg = ~pos
            denom = lam[neg] - alpha[neg]
            with np.errstate(divide="ignore", invalid="ignore"):
                ratios = np.where(denom > 0, lam[neg] / denom, 0.0)
            theta = float(np.clip(ratios.min(), 0.0, 1.0))
            lam = (1 - theta) * lam + theta * alpha
            keep = lam > 1e-14
            keep[np.flatnonzero(neg)[np.argmin(ratios)]] = False
            if not keep.any():
                keep[np.argmax(lam)] = True
            S, lam = S[keep], lam[keep]
            lam = np.clip(lam, 0.0, None)
            lam /= lam.sum()
        p = lam @ Z[S]
    w = unit(p)
    return w, float(np.min(y * (X @ w))), euclid(p)
