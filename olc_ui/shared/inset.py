"""Where a chart's "zoom on the run" inset goes: the first candidate spot whose whole box — the inset's axes,
its tick labels (left, below) and its title (above) — holds no point of a main-plot curve, stays left of the
crossing marker and of the shaded area beyond it, and stays under the legend (which sits above the plot area,
y > 1); when no spot is free, the main plot gives up its right part and the inset goes beside it.

Used by the Compare page's sandwiches (olc_ui/lessons/compare/view.py) and the exponentiated update's sandwich
(olc_ui/lessons/exponentiated_update/view.py). Everything is in paper coordinates (0 … 1 across the plot area).
"""
from __future__ import annotations

import numpy as np

__all__ = ["TITLE", "TICKS_X", "TICKS_Y", "SPOTS", "BESIDE_MAIN", "BESIDE_INSET", "inset_box", "inset_spot",
           "segment_points"]

#: the room the zoom's title (above its axes) and ticks (left, below) take, in paper units
TITLE, TICKS_X, TICKS_Y = 0.1, 0.07, 0.1
#: where the zoom may go (x domain, y domain), in order of preference (large first, top first, left first);
#: the first whose box covers no curve wins
SPOTS = [((x0, round(x0 + w, 3)), (y0, round(y0 + h, 3)))
         for w, h in ((0.36, 0.3), (0.3, 0.26))
         for y0 in (0.62, 0.56, 0.45, 0.35, 0.25, 0.14)
         for x0 in np.round(np.arange(0.1, 0.64, 0.025), 3).tolist()]
#: no spot is free: the main plot gives up its right part and the zoom goes beside it
BESIDE_MAIN, BESIDE_INSET = [0.0, 0.6], ([0.72, 1.0], [0.3, 0.6])


def inset_box(dx, dy) -> tuple[float, float, float, float]:
    """The paper area the zoom takes (x0, x1, y0, y1): its axes, its ticks and its title."""
    return dx[0] - TICKS_X, dx[1] + 0.01, dy[0] - TICKS_Y, dy[1] + TITLE


def inset_spot(points: np.ndarray, cross_paper: tuple[float, float]):
    """The first spot whose box holds no drawn point and stays left of the crossing (and its shaded area)."""
    for dx, dy in SPOTS:
        x0, x1, y0, y1 = inset_box(dx, dy)
        if x1 >= cross_paper[0] - 0.02 or y1 > 1.0:     # the crossing's marker and the shaded area beyond it
            continue
        inside = (points[:, 0] >= x0) & (points[:, 0] <= x1) & (points[:, 1] >= y0) & (points[:, 1] <= y1)
        if not inside.any():
            return dx, dy
    return None


def segment_points(x, y, x_range, y_range, step: float = 0.002) -> np.ndarray:
    """The points of a polyline (straight between its vertices, as plotly draws it), in paper coordinates,
    sampled along each segment at most ``step`` apart (under a pixel); gaps (None, NaN) are dropped.

    >>> segment_points([0, 10, None, 10], [0, 0, None, 5], [0, 10], [0, 10], step=0.25).tolist()
    [[0.0, 0.0], [0.25, 0.0], [0.5, 0.0], [0.75, 0.0], [1.0, 0.5]]
    """
    px = (np.asarray([np.nan if v is None else v for v in x], dtype=float) - x_range[0]) / (x_range[1] - x_range[0])
    py = (np.asarray([np.nan if v is None else v for v in y], dtype=float) - y_range[0]) / (y_range[1] - y_range[0])
    if px.size > 1:
        length = np.hypot(np.diff(px), np.diff(py))
        n = np.where(np.isfinite(length), np.maximum(np.ceil(np.nan_to_num(length) / step), 1), 0).astype(np.int64)
        seg = np.repeat(np.arange(px.size - 1), n)
        f = np.arange(seg.size) - np.repeat(np.cumsum(n) - n, n)    # 0 … n − 1 within each segment
        f = f / np.repeat(n, n)
        px = np.concatenate([px[seg] + f * (px[seg + 1] - px[seg]), px[-1:]])
        py = np.concatenate([py[seg] + f * (py[seg + 1] - py[seg]), py[-1:]])
    ok = np.isfinite(px) & np.isfinite(py)
    return np.column_stack([px[ok], py[ok]])
