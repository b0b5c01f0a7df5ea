r"""Finite hypothesis classes for Halving [001], and their dimensions by brute force.

Classes (pass one as ``olc_core.run("halving", X, y, hypotheses=H)``; ``X`` then
holds the instances and the class labels them; labels are ±1):

* :class:`Thresholds` — ``h_θ(x) = +1`` iff ``x ≥ θ``, for θ in a finite tuple
  (instances: shape (T, 1)).
* :class:`HalfPlanes` — half-planes through the origin at K angles
  ``θ_k = offset + 2πk/K``: ``h_k(x) = +1`` iff ``cos θ_k·x₁ + sin θ_k·x₂ ≥ 0``
  (a point on the line is labelled +1; instances: shape (T, 2)).
* :class:`MonotoneConjunctions` — on n bits, one hypothesis per subset S of the
  variables (index = bit mask of S): ``+1`` iff every ``x_j, j ∈ S`` is 1 (S = ∅:
  always +1). ``|H| = 2^n``; instances (T, n) in {0, 1}.
* :class:`MonotoneDisjunctions` — ``+1`` iff some ``x_j, j ∈ S`` is 1 (S = ∅:
  always −1).

:func:`dimensions` computes, on a finite domain D (the class's natural grid by
default, or the instances you give, e.g. the distinct instances of a stream),
the VC dimension, the Littlestone dimension = the optimal mistake bound opt(H)
(Littlestone 1988), and the worst-case number of Halving mistakes, each by
exhaustive search with memoisation, so that a page can show
``VC(H) ≤ opt(H) ≤ M_Halving(H) ≤ log₂|H|`` [001]. The search refuses classes
that are too big (see its caps) with a ``ValueError`` saying so.

>>> d = dimensions(MonotoneConjunctions(3))
>>> (d.vc, d.opt, d.halving, d.log2_size), d.holds
((3, 3, 3, 3.0), True)
>>> d = dimensions(Thresholds.grid(7))
>>> (d.vc, d.opt, d.halving, round(d.log2_size, 3))
(1, 2, 2, 2.807)
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from ._exact.halfplanes import halfplane_nonneg

from ._support.validate import as_matrix, check_binary
from ._support.words import count

__all__ = ["HypothesisClass", "Thresholds", "HalfPlanes", "MonotoneConjunctions", "MonotoneDisjunctions",
           "Dimensions", "dimensions", "label_matrix"]

MAX_BITS = 20


class HypothesisClass:
    """Interface: ``size``, ``dim``, ``check_instances``, ``predict``, ``describe``, ``natural_domain``."""

    name = "hypotheses"

    @property
    def size(self) -> int:  # pragma: no cover - overridden
        raise NotImplementedError

    dim = 0

    def check_instances(self, X, algorithm: str) -> np.ndarray:
        A = as_matrix(X, algorithm)
        if A.shape[1] != self.dim:
            raise ValueError(f"{algorithm}: {self.name} needs instances X of shape (T, {self.dim}); "
                             f"got {count(A.shape[1], 'column')}")
        return A

    def predict(self, X: np.ndarray, idx: np.ndarray) -> np.ndarray:  # pragma: no cover - overridden
        """(len(X), len(idx)) int8 array of ±1: hypothesis ``idx[j]``'s label of ``X[i]``."""
        raise NotImplementedError

    def describe(self, i: int) -> str:  # pragma: no cover - overridden
        return f"h{i}"

    def natural_domain(self) -> np.ndarray:  # pragma: no cover - overridden
        raise NotImplementedError


def _pm(b: np.ndarray) -> np.ndarray:
    return np.where(b, 1, -1).astype(np.int8)


@dataclass(frozen=True, eq=True)
class Thresholds(HypothesisClass):
    """``h_θ(x) = +1`` iff ``x ≥ θ`` for each θ in ``thresholds`` (sorted, distinct)."""

    thresholds: tuple[float, ...]
    name = "thresholds"
    dim = 1

    def __post_init__(self):
        th = tuple(float(v) for v in self.thresholds)
        if not th or any(not math.isfinite(v) for v in th) or len(set(th)) != len(th):
            raise ValueError("thresholds must be a non-empty tuple of distinct finite numbers")
        object.__setattr__(self, "thresholds", tuple(sorted(th)))

    @classmethod
    def grid(cls, K: int, low: float = 0.0, high: float = 1.0) -> "Thresholds":
        """K thresholds at the centres of K equal cells of [low, high]."""
        if not (isinstance(K, (int, np.integer)) and K >= 1) or not high > low:
            raise ValueError("Thresholds.grid needs an integer K ≥ 1 and low < high")
        return cls(tuple(float(low + (k + 0.5) * (high - low) / K) for k in range(int(K))))

    @property
    def size(self) -> int:
        return len(self.thresholds)

    def predict(self, X, idx):
        th = np.asarray(self.thresholds)[np.asarray(idx, dtype=np.int64)]
        return _pm(np.asarray(X, dtype=np.float64)[:, :1] >= th[None, :])

    def describe(self, i):
        return f"x ≥ {self.thresholds[i]:g}"

    def natural_domain(self):
        th = np.asarray(self.thresholds)
        gap = (th[-1] - th[0]) / max(len(th) - 1, 1) or 1.0
        pts = np.concatenate([[th[0] - gap / 2], (th[:-1] + th[1:]) / 2, [th[-1] + gap / 2]])
        return pts[:, None]


@dataclass(frozen=True, eq=True)
class HalfPlanes(HypothesisClass):
    """Half-planes through the origin with normals at angles ``offset + 2πk/K``, k = 0 … K−1."""

    K: int
    offset: float = 0.0
    name = "half-planes"
    dim = 2

    def __post_init__(self):
        if not (isinstance(self.K, (int, np.integer)) and 1 <= self.K <= 1_000_000):
            raise ValueError("HalfPlanes needs an integer K in [1, 1e6]")
        if not math.isfinite(self.offset):
            raise ValueError("HalfPlanes offset must be finite")

    @property
    def size(self) -> int:
        return int(self.K)

    def angles(self) -> np.ndarray:
        return self.offset + 2.0 * np.pi * np.arange(self.K) / self.K

    def predict(self, X, idx):
        """+1 on the normal's side, the boundary line included, decided in exact arithmetic
        (olc_core._exact.halfplanes: a point on a line is +1 whatever cos/sin round to)."""
        return _pm(halfplane_nonneg(np.asarray(X, dtype=np.float64), np.asarray(idx, dtype=np.int64),
                                    int(self.K), float(self.offset)))

    def describe(self, i):
        return f"normal at {math.degrees(self.angles()[i]):.4g}°"

    def natural_domain(self):
        """Unit vectors halfway between consecutive boundary directions θ_k ± π/2 (every behaviour shows)."""
        b = np.sort(np.mod(np.concatenate([self.angles() + np.pi / 2, self.angles() - np.pi / 2]), 2 * np.pi))
        b = b[np.concatenate([[True], np.diff(b) > 1e-12])]
        nxt = np.concatenate([b[1:], [b[0] + 2 * np.pi]])
        mid = (b + nxt) / 2
        return np.stack([np.cos(mid), np.sin(mid)], axis=1)


@dataclass(frozen=True, eq=True)
class _Monotone(HypothesisClass):
    n: int

    @property
    def dim(self) -> int:
        return int(self.n)

    def __post_init__(self):
        if not (isinstance(self.n, (int, np.integer)) and 1 <= self.n <= MAX_BITS):
            raise ValueError(f"{self.name} need an integer n in [1, {MAX_BITS}] (|H| = 2^n)")

    @property
    def size(self) -> int:
        return 1 << int(self.n)

    def check_instances(self, X, algorithm):
        A = as_matrix(X, algorithm)
        if A.shape[1] != self.n:
            raise ValueError(f"{algorithm}: {self.name} on n = {self.n} bits need instances X of shape (T, {self.n}); "
                             f"got {count(A.shape[1], 'column')}")
        check_binary(A, algorithm)
        return A

    def _masks(self, X):
        X = np.asarray(X)
        return (X.astype(np.int64) << np.arange(self.n, dtype=np.int64)[None, :]).sum(axis=1)

    def natural_domain(self):
        k = np.arange(1 << self.n, dtype=np.int64)
        return ((k[:, None] >> np.arange(self.n)[None, :]) & 1).astype(np.float64)

    def _vars(self, i):
        return [j for j in range(self.n) if (i >> j) & 1]


@dataclass(frozen=True, eq=True)
class MonotoneConjunctions(_Monotone):
    """``h_S(x) = +1`` iff ``x_j = 1`` for every ``j ∈ S`` (S ⊆ {0 … n−1}, index = Σ_{j∈S} 2^j).

    Described as the pages number variables, from 1 (bit j is ``x{j+1}``):

    >>> MonotoneConjunctions(3).describe(0b101)
    'x1 ∧ x3'
    """

    name = "monotone conjunctions"

    def predict(self, X, idx):
        xb = self._masks(X)
        S = np.asarray(idx, dtype=np.int64)
        return _pm((S[None, :] & ~xb[:, None]) == 0)

    def describe(self, i):
        v = self._vars(i)
        return " ∧ ".join(f"x{j + 1}" for j in v) if v else "true"


@dataclass(frozen=True, eq=True)
class MonotoneDisjunctions(_Monotone):
    """``h_S(x) = +1`` iff ``x_j = 1`` for some ``j ∈ S`` (S = ∅: always −1)."""

    name = "monotone disjunctions"

    def predict(self, X, idx):
        xb = self._masks(X)
        S = np.asarray(idx, dtype=np.int64)
        return _pm((S[None, :] & xb[:, None]) != 0)

    def describe(self, i):
        v = self._vars(i)
        return " ∨ ".join(f"x{j + 1}" for j in v) if v else "false"


def label_matrix(hypotheses: HypothesisClass, domain: np.ndarray) -> np.ndarray:
    """(|H|, |D|) int8 ±1: every hypothesis' label of every domain point."""
    return hypotheses.predict(domain, np.arange(hypotheses.size)).T.copy()


# ---------------------------------------------------------------------------- dimensions
@dataclass(frozen=True)
class Dimensions:
    """VC(H) ≤ opt(H) ≤ M_Halving(H) ≤ log₂|H| on a finite domain (see :func:`dimensions`)."""

    vc: int
    opt: int
    halving: int
    log2_size: float
    size: int
    n_distinct: int
    n_points: int
    update: str
    domain: str

    @property
    def holds(self) -> bool:
        return self.vc <= self.opt <= self.halving <= self.log2_size + 1e-12


class _Budget:
    def __init__(self, limit: int, what: str):
        self.n, self.limit, self.what = 0, limit, what

    def tick(self):
        self.n += 1
        if self.n > self.limit:
            raise ValueError(f"dimensions: the brute-force search for {self.what} exceeded its cap of "
                             f"{self.limit} steps; use a smaller class (fewer angles/thresholds/bits) or a "
                             "smaller domain")


def _weights_table(mult: list[int]):
    chunks = []
    for s in range(0, len(mult), 8):
        part = mult[s:s + 8]
        tbl = [0] * 256
        for b in range(256):
            tbl[b] = sum(part[j] for j in range(len(part)) if (b >> j) & 1)
        chunks.append(tbl)

    def weight(mask: int) -> int:
        w, k = 0, 0
        while mask:
            w += chunks[k][mask & 255]
            mask >>= 8
            k += 1
        return w
    return weight


def _ldim(P: list[int], full: int, budget: _Budget) -> int:
    memo: dict[int, int] = {}

    def rec(mask: int) -> int:
        n = mask.bit_count()
        if n <= 1:
            return n - 1
        got = memo.get(mask)
        if got is not None:
            return got
        budget.tick()
        cap = n.bit_length() - 1
        best = 0
        for p in P:
            pos = mask & p
            if pos == 0 or pos == mask:
                continue
            neg = mask ^ pos
            a, b = (pos, neg) if pos.bit_count() <= neg.bit_count() else (neg, pos)
            if a.bit_count().bit_length() <= best:  # 1 + ⌊log₂|a|⌋ ≤ best: cannot improve
                continue
            la = rec(a)
            if 1 + la <= best:
                continue
            v = 1 + min(la, rec(b))
            if v > best:
                best = v
                if best == cap:
                    break
        memo[mask] = best
        return best

    return rec(full)


def _halving_worst(P: list[int], full: int, weight, every_round: bool, budget: _Budget) -> int:
    memo: dict[int, int] = {}

    def rec(mask: int) -> int:
        got = memo.get(mask)
        if got is not None:
            return got
        w = weight(mask)
        if w <= 1:
            return 0
        budget.tick()
        cap = w.bit_length() - 1
        best = 0
        for p in P:
            pos = mask & p
            neg = mask ^ pos
            if pos == 0 or neg == 0:
                continue
            wp, wn = weight(pos), weight(neg)
            wrong_side, right_side = (neg, pos) if wp >= wn else (pos, neg)  # ties predict +1
            if 1 + (weight(wrong_side).bit_length() - 1) > best:
                v = 1 + rec(wrong_side)
                if v > best:
                    best = v
            if every_round and weight(right_side).bit_length() - 1 > best:
                v = rec(right_side)
                if v > best:
                    best = v
            if best == cap:
                break
        memo[mask] = best
        return best

    return rec(full)


def _vc(L: np.ndarray, cap: int, budget: _Budget) -> int:
    h, m = L.shape
    bits = (L > 0).astype(np.int64)
    level = [((j,), bits[:, j].copy()) for j in range(m) if 0 < bits[:, j].sum() < h]
    best = 1 if level else 0
    k = 1
    while level and k < cap:
        nxt = []
        for S, codes in level:
            for j in range(S[-1] + 1, m):
                budget.tick()
                c2 = codes | (bits[:, j] << k)
                if len(np.unique(c2)) == 1 << (k + 1):
                    nxt.append((S + (j,), c2))
        if nxt:
            best = k + 1
        level = nxt
        k += 1
    return best


def dimensions(hypotheses: HypothesisClass | np.ndarray, domain: Any = None, *, update: str = "on_mistake",
               max_distinct: int = 256, max_points: int = 4096, max_steps: int = 300_000) -> Dimensions:
    """VC dimension, opt(H) = Littlestone dimension, and worst-case Halving mistakes on a finite domain.

    ``hypotheses``: a class of this module (domain: ``domain`` instances, or the
    class's :meth:`natural_domain` when None) or a (|H|, m) ±1/0-1 label matrix
    (row = hypothesis, column = domain point, e.g. ``X.T`` of a Halving matrix
    run: the rounds are the points). Points with identical columns are merged;
    hypotheses with identical rows count once for VC/opt and with their
    multiplicity for the Halving vote and for log₂|H|.

    * VC: the largest set of points on which H realises all 2^k labellings.
    * opt(H) = Ldim(H) (Littlestone): ``Ldim(V) = max over points x splitting V of
      1 + min(Ldim(V_{x→+1}), Ldim(V_{x→−1}))`` (0 for |V| = 1).
    * M_Halving: the adversary picks a point and the label against Halving's
      majority vote (ties predict +1) as long as some hypothesis agrees with it;
      with ``update="every_round"`` it may also play correctly-predicted points
      that prune the version space.

    Caps: at most ``max_distinct`` distinct hypotheses, ``max_points`` distinct
    points and ``max_steps`` search steps; beyond them a ``ValueError`` says so.
    """
    if update not in ("on_mistake", "every_round"):
        raise ValueError("dimensions: update must be 'on_mistake' or 'every_round'")
    if isinstance(hypotheses, HypothesisClass):
        if domain is None:
            D = hypotheses.natural_domain()
            dom = f"natural grid of {hypotheses.name} ({len(D)} points)"
        else:
            D = hypotheses.check_instances(domain, "dimensions")
            dom = f"{len(D)} given instances"
        size = hypotheses.size
        if size > 1 << 16:
            raise ValueError(f"dimensions: |H| = {size} is too big for brute force (cap 65536)")
        L = label_matrix(hypotheses, D)
    else:
        L = np.asarray(hypotheses)
        if L.ndim != 2 or L.size == 0:
            raise ValueError("dimensions: give a hypothesis class or a non-empty (|H|, m) label matrix")
        if not np.isin(L, (-1, 0, 1)).all():
            raise ValueError("dimensions: the label matrix must hold ±1 (or 0/1) labels")
        L = np.where(L > 0, 1, -1).astype(np.int8)
        size = L.shape[0]
        dom = f"{L.shape[1]} points (columns of the label matrix)"
    L = np.unique(L, axis=1) if L.shape[1] else L
    if L.shape[1] > max_points:
        raise ValueError(f"dimensions: {L.shape[1]} distinct domain points exceed the cap of {max_points}")
    rows, mult = np.unique(L, axis=0, return_counts=True)
    h = rows.shape[0]
    if h > max_distinct:
        raise ValueError(f"dimensions: {h} distinct hypotheses on this domain exceed the brute-force cap of "
                         f"{max_distinct}; use a smaller class or domain")
    P = sorted({int(sum(1 << int(r) for r in np.flatnonzero(rows[:, j] > 0))) for j in range(rows.shape[1])})
    full = (1 << h) - 1
    budget = _Budget(max_steps, "opt(H) and M_Halving")
    opt = _ldim(P, full, budget) if h > 1 else 0
    weight = _weights_table([int(v) for v in mult])
    halv = _halving_worst(P, full, weight, update == "every_round", budget)
    vc = _vc(rows, max(1, h.bit_length() - 1), _Budget(max_steps, "VC(H)")) if h > 1 else 0
    return Dimensions(vc=vc, opt=opt, halving=halv, log2_size=math.log2(size), size=int(size), n_distinct=int(h),
                      n_points=int(rows.shape[1]), update=update, domain=dom)
