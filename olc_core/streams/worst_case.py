"""The worst case of Halving: advice that splits the version space as evenly as the vote allows.

:func:`halving_adversary` gives ``N`` hypotheses' labels (±1 advice, int8) for ``T``
rounds. While two or more hypotheses are consistent with every label so far, the
round splits them in two halves, and the label goes against Halving's majority vote
(its exact rule: ties predict +1): with an even count, half say +1 and half −1, the
vote is a tie, Halving says +1 and the label is −1; with an odd count, the −1 side
has one more, Halving says −1 and the label is +1. Each such round is a mistake and
leaves ⌊|H_t|/2⌋ hypotheses, so Halving makes ⌊log₂ N⌋ mistakes — exactly its bound
log₂ N when N is a power of two. One hypothesis (the comparator) is consistent with
every label; after the forced rounds the labels are its random advice. Hypotheses
out of the version space advise at random.

>>> import olc_core
>>> s = halving_adversary(T=12, N=16, seed=0)
>>> tr = olc_core.run("halving", s.X, s.y)
>>> tr.mistakes.tolist(), tr.proof.mistake_bound, s.info["forced"]
([0, 1, 2, 3], 4.0, 4)
"""
from __future__ import annotations

import threading
from collections import OrderedDict

import numpy as np

from .base import Stream

__all__ = ["halving_adversary"]


def _check(cond: bool, msg: str) -> None:
    if not cond:
        raise ValueError(msg)


def _is_int(v) -> bool:
    return isinstance(v, (int, np.integer)) and not isinstance(v, (bool, np.bool_))


#: elements per block of :func:`_fill_signs`
_BLOCK = 1 << 16
#: the sign prefixes kept (seeds) and their largest length (elements = bytes)
_CACHE_SEEDS = 3
_CACHE_MAX = 1 << 24


def _fill_signs(rng: np.random.Generator, flat: np.ndarray) -> None:
    """``flat[:] = np.where(rng.random(flat.size) < 0.5, 1, -1)`` (int8) a block at a time (the same draws in
    the same order, without the int64 temporaries)."""
    u = np.empty(min(_BLOCK, flat.size))
    low = np.empty(u.shape, dtype=np.bool_)
    for s in range(0, flat.size, _BLOCK):
        n = min(_BLOCK, flat.size - s)
        rng.random(n, out=u[:n])
        np.less(u[:n], 0.5, out=low[:n])
        out = flat[s:s + n]
        np.multiply(low[:n].view(np.int8), 2, out=out)
        np.subtract(out, 1, out=out)


class _Prefix:
    """The signs of one seed's draws so far, and its generator after them."""

    __slots__ = ("rng", "buf", "lock")

    def __init__(self, seed):
        self.rng = np.random.default_rng([seed, 14])
        self.buf = np.empty(0, dtype=np.int8)
        self.lock = threading.Lock()


_prefixes: OrderedDict = OrderedDict()
_prefixes_lock = threading.Lock()


def _sign_prefix(seed: int, n: int) -> np.ndarray:
    """The first ``n`` signs of ``seed``'s draws (read only: the caller copies). ``rng.random((T, N))`` fills
    in C order, one draw per entry, so the (T, N) matrices of one seed are prefixes of one sequence: a
    sweep over N or T draws the longest once (a few seeds kept, each up to ``_CACHE_MAX`` entries)."""
    with _prefixes_lock:
        p = _prefixes.pop(seed, None) or _Prefix(seed)
        _prefixes[seed] = p
        while len(_prefixes) > _CACHE_SEEDS:
            _prefixes.popitem(last=False)
    with p.lock:
        have = p.buf.size
        if have < n:
            buf = np.empty(min(max(n, 2 * have), _CACHE_MAX), dtype=np.int8)
            buf[:have] = p.buf
            _fill_signs(p.rng, buf[have:])
            p.buf = buf
        return p.buf[:n]


def _random_signs(seed, T: int, N: int) -> tuple[np.ndarray, np.random.Generator]:
    """``np.where(rng.random((T, N)) < 0.5, 1, -1)`` (int8) for ``rng = default_rng([seed, 14])``, and that
    generator after the draws."""
    if _is_int(seed) and T * N <= _CACHE_MAX:
        A = _sign_prefix(int(seed), T * N).reshape(T, N).copy()
        rng = np.random.default_rng([seed, 14])
        rng.bit_generator.advance(T * N)      # one 64-bit word per double, as if drawn
        return A, rng
    rng = np.random.default_rng([seed, 14])
    A = np.empty((T, N), dtype=np.int8)
    _fill_signs(rng, A.reshape(-1))
    return A, rng


def halving_adversary(T: int, N: int, seed: int = 0) -> Stream:
    """``T`` rounds of advice from ``N`` hypotheses against Halving (module docstring): ⌊log₂ N⌋ forced mistakes.

    ``comparator`` is the index of the hypothesis consistent with every label;
    ``info["forced"]`` the number of forced rounds (min(T, ⌊log₂ N⌋)).
    """
    _check(_is_int(T) and T >= 1, f"T must be an integer ≥ 1 (got {T!r})")
    _check(_is_int(N) and N >= 1, f"N must be an integer ≥ 1 (got {N!r})")
    T, N = int(T), int(N)
    A, rng = _random_signs(seed, T, N)
    y = np.empty(T)
    alive = rng.permutation(N)
    t = 0
    while t < T and alive.size >= 2:
        m = alive.size
        plus, minus = alive[: m // 2], alive[m // 2:]     # odd m: the −1 side has one more
        A[t, plus], A[t, minus] = 1, -1
        if m % 2 == 0:        # a tie: Halving predicts +1, the label is −1
            y[t], alive = -1.0, minus
        else:                 # majority −1: Halving predicts −1, the label is +1
            y[t], alive = 1.0, plus
        t += 1
    forced = t
    survivor = int(alive[0])
    y[t:] = A[t:, survivor]
    return Stream(A, y, survivor, {"kind": "halving-adversary", "T": T, "N": N, "forced": forced,
                                   "seed": seed, "order": "generated"})
