r"""Streams for the expert-advice learners (Weighted Majority, RWM) and for Halving.

* :func:`experts` — N experts with chosen error rates (exact counts or
  independent errors, optionally correlated in groups), label noise; the
  expert mistakes ``m_i`` and ``m* = min_i m_i`` are in ``info``, the best
  expert's index is the comparator. Advice is int8 ±1 (T × N bytes).
* :func:`adversary` — advice that splits Weighted Majority's current weight in
  two near-equal halves, labelled against WM's own prediction (ties → +1, the
  learner's exact rule): WM errs on every round and Φ follows its upper bound
  ``N((1+β)/2)^M`` closely.
* :func:`target_concept` — instances for a class of :mod:`olc_core.hypotheses`
  labelled by a target hypothesis of the class (realisable), with optional
  label noise (then usually not realisable).

Same arguments and seed ⇒ the same stream.

>>> s = experts(T=40, N=5, error_rates=[0.1, 0.2, 0.3, 0.4, 0.5], seed=1)
>>> s.info["expert_mistakes"].tolist(), s.info["m_star"], s.comparator
([4, 8, 12, 16, 20], 4, 0)
>>> a = adversary(T=30, N=8, beta=0.5, seed=0)
>>> import olc_core
>>> olc_core.run("weighted_majority", a.X, a.y, beta=0.5).n_mistakes
30
"""
from __future__ import annotations

import threading
from collections import OrderedDict

import numpy as np

from .._kernels.engine import resolve_engine
from .._kernels.experts import adversary_rounds
from ..hypotheses import HalfPlanes, HypothesisClass, MonotoneConjunctions, MonotoneDisjunctions, Thresholds
from .base import Stream

__all__ = ["experts", "adversary", "target_concept"]

_BLOCK_ELEMS = 1 << 22


def _check(cond: bool, msg: str) -> None:
    if not cond:
        raise ValueError(msg)


def _int(v, name: str, low: int = 1) -> int:
    _check(isinstance(v, (int, np.integer)) and not isinstance(v, bool) and v >= low,
           f"{name} must be an integer ≥ {low} (got {v!r})")
    return int(v)


def _mistakes(A: np.ndarray, y: np.ndarray) -> np.ndarray:
    T, N = A.shape
    out = np.zeros(N, dtype=np.int64)
    rows = max(1, _BLOCK_ELEMS // N)
    for s in range(0, T, rows):
        out += (A[s:s + rows] != y[s:s + rows, None]).sum(axis=0)
    return out


def experts(T: int, N: int, error_rates=0.3, seed: int = 0, *, noise: float = 0.0, exact: bool = True,
            groups: int | None = None) -> Stream:
    """``N`` experts advising on ``T`` rounds of random ±1 labels.

    ``error_rates``: one rate for all, or one per expert (in [0, 1]).
    ``exact=True``: expert i is wrong on exactly ``round(p_i·T)`` rounds chosen
    uniformly at random (so m_i is known in advance when ``noise = 0``).
    ``exact=False``: independent errors with probability p_i (rates rounded to
    multiples of 2⁻¹⁶; the rates used are in ``info["error_rates"]``); with
    ``groups=G`` the experts ``i ≡ g (mod G)`` share one uniform number per
    round and err when it is below their rate (correlated crowds, so the
    majority can be wrong). ``noise``: each label is flipped with this
    probability after the advice is made (the experts are judged against the
    flipped labels: this is label noise, ``info["flipped"]``).
    """
    T, N = _int(T, "T"), _int(N, "N")
    p = np.broadcast_to(np.asarray(error_rates, dtype=np.float64), (N,)).copy()
    _check(bool(np.all((p >= 0) & (p <= 1))), "error_rates must lie in [0, 1]")
    _check(0.0 <= noise <= 1.0, f"noise must be in [0, 1] (got {noise!r})")
    _check(groups is None or (isinstance(groups, (int, np.integer)) and groups >= 1),
           f"groups must be None or an integer ≥ 1 (got {groups!r})")
    _check(not (exact and groups is not None), "groups needs exact=False (correlated independent errors)")
    rng = np.random.default_rng([seed, 11])
    y0 = np.where(rng.random(T) < 0.5, 1, -1).astype(np.int8)
    A = np.empty((T, N), dtype=np.int8)
    if exact:
        k = np.rint(p * T).astype(np.int64)
        A[:] = y0[:, None]
        for i in range(N):
            if k[i]:
                rows = rng.choice(T, size=int(k[i]), replace=False)
                A[rows, i] = -y0[rows]
        used = k / T
    else:
        thr = np.rint(p * 65536).astype(np.int64)
        used = thr / 65536.0
        thr16 = np.minimum(thr, 65535).astype(np.uint16)[None, :]   # uint16 compare (fast); rate 1 below
        always = thr == 65536
        rows = max(1, _BLOCK_ELEMS // N)
        g = None if groups is None else np.arange(N) % int(groups)
        for s in range(0, T, rows):
            e = min(T, s + rows)
            if g is None:
                u = rng.integers(0, 65536, size=(e - s, N), dtype=np.uint16)
            else:
                u = rng.integers(0, 65536, size=(e - s, int(groups)), dtype=np.uint16)[:, g]
            err = u < thr16
            if always.any():
                err |= always[None, :]
            A[s:e] = np.where(err, -y0[s:e, None], y0[s:e, None])
    flip = rng.random(T) < noise if noise > 0 else np.zeros(T, dtype=bool)
    y = np.where(flip, -y0, y0).astype(np.float64)
    m = _mistakes(A, y.astype(np.int8))
    best = int(np.argmin(m))
    info = {"kind": "experts", "T": T, "N": N, "error_rates": used, "exact": exact, "groups": groups,
            "noise": noise, "flipped": flip, "expert_mistakes": m, "m_star": int(m[best]), "best_expert": best,
            "seed": seed}
    return Stream(A, y, best, info)


def adversary(T: int, N: int, beta: float = 0.5, update: str = "on_mistake", seed: int = 0, *,
              engine: str = "auto") -> Stream:
    """Advice that halves Weighted Majority's weight, labelled against its prediction (WM errs every round).

    Each round the experts are sorted by weight (random order among equals) and
    given alternately +1 and −1 (which sign goes first is a coin flip), so each
    side holds about half of Φ; the label is the opposite of WM's exact
    prediction for ``beta``/``update``. Then every round is a mistake and
    ``Φ_{t+1} ≈ (1+β)/2·Φ_t`` — the upper curve of the sandwich is nearly
    attained. With ``update="every_round"`` the same weights are those of RWM
    with η = 1 − β, and the stream is the one against RWM's weighted majority.

    WM's exact vote needs no replay: in the sorted order the weights decrease, so the
    alternating sum has the sign of the first side unless it is a tie (β > 0: N even and
    the counts equal in pairs; β = 0: an even number of unpenalised experts), and ties go
    to +1 (the learner's rule). Every round penalises the experts that agreed with the
    vote (WM errs every round, so both updates penalise). The rounds run in a compiled
    loop (numba, optional) or its numpy twin (``engine``; ``OLC_CORE_ENGINE=numpy``), the
    draws are read a block at a time (:func:`olc_core._kernels.experts.adversary_draws`):
    the same stream as the round-by-round replay of the learner (tested against it). The
    decisions read β only through β = 0, so every β > 0 gives the same advice and labels: the
    last few streams are kept, and a sweep over β draws one per seed.
    """
    T, N = _int(T, "T"), _int(N, "N", 2)
    _check(0.0 <= beta < 1.0, f"beta must be in [0, 1) (got {beta!r})")
    _check(update in ("on_mistake", "every_round"), "update must be 'on_mistake' or 'every_round'")
    A, y, m = _adversary_arrays(T, N, float(beta), seed, engine)
    best = int(np.argmin(m))
    return Stream(A, y, best, {"kind": "adversary", "T": T, "N": N, "beta": beta, "update": update,
                               "expert_mistakes": m, "m_star": int(m[best]), "best_expert": best, "seed": seed})


#: adversary streams kept (a β sweep of one seed draws one), and the largest kept (T·N)
_ADV_KEEP = 4
_ADV_MAX = 1 << 22
_adv_cache: OrderedDict = OrderedDict()
_adv_lock = threading.Lock()


def _adversary_arrays(T: int, N: int, beta: float, seed, engine: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The advice, labels and expert mistakes of :func:`adversary` (fresh arrays). The decisions never
    read β beyond β = 0 (the tie rule), so the stream is one for every β > 0: the last few are kept."""
    key = (T, N, beta == 0.0, seed, resolve_engine(engine)) if _is_seed(seed) and T * N <= _ADV_MAX else None
    with _adv_lock:
        hit = _adv_cache.get(key) if key is not None else None
        if hit is not None:
            _adv_cache.move_to_end(key)
    if hit is None:
        A, y = adversary_rounds(np.random.default_rng([seed, 12]), T, N, beta, engine)
        hit = (A, y, _mistakes(A, y.astype(np.int8)))
        if key is not None:
            with _adv_lock:
                _adv_cache[key] = hit
                while len(_adv_cache) > _ADV_KEEP:
                    _adv_cache.popitem(last=False)
    return hit[0].copy(), hit[1].copy(), hit[2].copy()


def _is_seed(v) -> bool:
    return isinstance(v, (int, np.integer)) and not isinstance(v, (bool, np.bool_))


def target_concept(hypotheses: HypothesisClass, T: int, seed: int = 0, *, target: int | None = None,
                   noise: float = 0.0) -> Stream:
    """``T`` instances for ``hypotheses`` labelled by ``target`` (an index into the class; random when None).

    Instances: thresholds — uniform on the class's range (half a grid step
    beyond the outer thresholds); half-planes — uniform on the unit circle;
    monotone conjunctions/disjunctions — independent bits with P(1) chosen so
    that the target says +1 about half the time. ``noise`` flips each label with
    that probability (``info["flipped"]``). ``comparator`` is the target index.
    """
    _check(isinstance(hypotheses, HypothesisClass), "hypotheses must be a class from olc_core.hypotheses")
    T = _int(T, "T")
    _check(0.0 <= noise <= 1.0, f"noise must be in [0, 1] (got {noise!r})")
    rng = np.random.default_rng([seed, 13])
    H = hypotheses.size
    if target is None:
        target = int(rng.integers(H))
    _check(isinstance(target, (int, np.integer)) and 0 <= target < H, f"target must be an index in [0, {H})")
    target = int(target)
    if isinstance(hypotheses, Thresholds):
        th = np.asarray(hypotheses.thresholds)
        gap = (th[-1] - th[0]) / max(len(th) - 1, 1) or 1.0
        X = rng.uniform(th[0] - gap / 2, th[-1] + gap / 2, T)[:, None]
    elif isinstance(hypotheses, HalfPlanes):
        phi = rng.uniform(0.0, 2 * np.pi, T)
        X = np.stack([np.cos(phi), np.sin(phi)], axis=1)
    elif isinstance(hypotheses, (MonotoneConjunctions, MonotoneDisjunctions)):
        k = bin(target).count("1")
        if k == 0:
            q = 0.5
        elif isinstance(hypotheses, MonotoneConjunctions):
            q = 0.5 ** (1.0 / k)
        else:
            q = 1.0 - 0.5 ** (1.0 / k)
        X = (rng.random((T, hypotheses.n)) < q).astype(np.float64)
    else:  # another HypothesisClass: draw from its natural domain
        D = hypotheses.natural_domain()
        X = D[rng.integers(len(D), size=T)]
    y0 = hypotheses.predict(X, np.array([target]))[:, 0].astype(np.float64)
    flip = rng.random(T) < noise if noise > 0 else np.zeros(T, dtype=bool)
    y = np.where(flip, -y0, y0)
    return Stream(X, y, target, {"kind": "target_concept", "class": hypotheses.name, "hypotheses": hypotheses,
                                 "target": target, "description": hypotheses.describe(target), "noise": noise,
                                 "flipped": flip, "seed": seed})
