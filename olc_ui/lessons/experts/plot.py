"""What the experts page's figures share (olc_ui/lessons/experts/view.py and sandwich.py): colours, log₁₀ values for
drawing, ranges with a margin, and paths thinned to what a screen shows."""
from __future__ import annotations

import numpy as np

from olc_ui.shared.sandwich_view import LN10

__all__ = ["LD", "BEST_COLOR", "SHADE"]

#: decimals kept for log10 values drawn (0.001 of a decade: far below a pixel)
LD = 3
BEST_COLOR = "#2ca02c"
SHADE = "rgba(120,120,120,0.13)"  # beyond the crossing


def _l10(a) -> np.ndarray:
    """Natural logs → log₁₀, rounded for drawing; −inf (a zero weight) stays −inf (None in JSON)."""
    return (np.asarray(a, dtype=np.float64) / LN10).round(LD) + 0.0  # + 0.0: no −0


def _finite(*arrays) -> np.ndarray:
    vals = [np.asarray(a, dtype=np.float64).ravel() for a in arrays]
    v = np.concatenate(vals) if vals else np.zeros(0)
    return v[np.isfinite(v)]


def _thin_idx(x, y, max_points: int = 700) -> np.ndarray:
    """The indices of a path without repeated points, evenly thinned to at most ``max_points`` (the last kept)."""
    x, y = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    if y.size == 0:
        return np.zeros(0, dtype=int)
    keep = np.ones(y.size, dtype=bool)
    keep[1:] = ~((x[1:] == x[:-1]) & ((y[1:] == y[:-1]) | (np.isnan(y[1:]) & np.isnan(y[:-1]))))
    keep[-1] = True
    idx = np.flatnonzero(keep)
    if idx.size > max_points:
        idx = np.unique(np.r_[idx[np.linspace(0, idx.size - 1, max_points).round().astype(int)], idx[-1]])
    return idx


def _range(vals: np.ndarray, top: float | None = None, pad_frac: float = 0.07, min_pad: float = 0.12):
    lo = float(vals.min()) if vals.size else 0.0
    hi = float(vals.max()) if vals.size else 1.0
    if top is not None:
        hi = max(hi, top)
    pad = max(min_pad, pad_frac * (hi - lo))
    return lo - pad, hi + pad
