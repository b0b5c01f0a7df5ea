"""The :class:`Stream` record and the ordering control shared by every generator."""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

__all__ = ["Stream", "reorder", "ORDERS"]

#: "generated": as sampled; "margin": hardest first (smallest comparator margin y⟨w*,x⟩ first);
#: "random": a fresh shuffle with the stream's seed.
ORDERS = ("generated", "margin", "random")


@dataclass(frozen=True)
class Stream:
    """A labelled stream ``(X, y)`` and what it was generated from."""

    X: np.ndarray
    y: np.ndarray
    comparator: Any = None
    info: dict[str, Any] = field(default_factory=dict)

    @property
    def T(self) -> int:
        return int(self.X.shape[0])

    def __iter__(self):  # X, y = stream
        yield self.X
        yield self.y


def reorder(stream: Stream, order: str, seed: int = 0) -> Stream:
    """The same examples in another order (see :data:`ORDERS`); per-round info is permuted too."""
    if order not in ORDERS:
        raise ValueError(f"order must be one of {', '.join(ORDERS)} (got {order!r})")
    T = stream.T
    if order == "generated":
        return stream
    if order == "random":
        perm = np.random.default_rng([seed, 7]).permutation(T)
    else:
        m = stream.info.get("margins")
        if m is None:
            raise ValueError("order='margin' needs a stream with per-round comparator margins")
        perm = np.argsort(m, kind="stable")
    info = dict(stream.info, order=order)
    for key in ("margins", "flipped"):
        if key in info and info[key] is not None and np.shape(info[key]) == (T,):
            info[key] = np.asarray(info[key])[perm]
    return replace(stream, X=stream.X[perm], y=stream.y[perm], info=info)
