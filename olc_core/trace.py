"""The columnar trace of a run, and the weight histories it reconstructs weights from.

Per-round quantities are numpy columns indexed by round; the learner's weights
are stored only where they change (:class:`SnapshotHistory`) or as sparse
checkpoints replayed from the input (:class:`CheckpointHistory`), never as a
``T × d`` copy.

>>> import numpy as np
>>> h = SnapshotHistory(np.zeros(2), np.array([1, 4]), np.array([[1.0, 0.0], [1.0, 2.0]]))
>>> [h.raw_at(t).tolist() for t in (0, 1, 2, 4, 5)]
[[0.0, 0.0], [0.0, 0.0], [1.0, 0.0], [1.0, 0.0], [1.0, 2.0]]
"""
from __future__ import annotations

import html
import math
from collections.abc import Callable, Iterator, Mapping
from typing import Any

import numpy as np

from ._support import tables as _tables
from ._transcript.record import checks_words
from ._transcript.texdoc import html as _doc_html
from .proofs.base import Proof
from .transcript import overview

__all__ = ["Trace", "SnapshotHistory", "CheckpointHistory", "RowReplayHistory", "LazyMap"]


class SnapshotHistory:
    """Weights before every round ``t``, stored only after the rounds where they changed.

    ``change_rounds[k]`` is the round at whose end the weights changed and
    ``snapshots[k]`` the weights after it; before round ``t`` the weights are the
    last snapshot of a round ``< t`` (or ``initial``).
    """

    def __init__(self, initial: np.ndarray, change_rounds: np.ndarray, snapshots: np.ndarray):
        self.initial = np.asarray(initial)
        self.change_rounds = np.asarray(change_rounds, dtype=np.int64)
        self.snapshots = snapshots
        if len(self.change_rounds) != len(snapshots):
            raise ValueError("one snapshot per change round")

    def n_changes_before(self, t: int) -> int:
        return int(np.searchsorted(self.change_rounds, t, side="left"))

    def raw_at(self, t: int) -> np.ndarray:
        k = self.n_changes_before(t)
        return (self.initial if k == 0 else self.snapshots[k - 1]).copy()

    @property
    def nbytes(self) -> int:
        return int(self.snapshots.nbytes + self.change_rounds.nbytes + self.initial.nbytes)


class CheckpointHistory:
    """Weights of a learner that changes them on (almost) every round.

    Keeps the state every ``every`` rounds and replays the rest with
    ``advance(state, t0, t1) -> state`` (the learner's own update, run on the
    rounds ``t0 … t1-1``), so memory is ``O(T/every · d)``.
    """

    def __init__(self, states: list[np.ndarray], every: int, advance: Callable[[np.ndarray, int, int], np.ndarray],
                 T: int):
        self.states = states  # states[i] = state before round i*every
        self.every = int(every)
        self.advance = advance
        self.T = int(T)

    def raw_at(self, t: int) -> np.ndarray:
        i = min(t // self.every, len(self.states) - 1)
        t0 = i * self.every
        state = self.states[i].copy()
        return state if t0 == t else self.advance(state, t0, t)

    @property
    def nbytes(self) -> int:
        return int(sum(s.nbytes for s in self.states))


class RowReplayHistory:
    """Integer state vectors that change only on some rounds, by ``± 1`` on the features active in that round's row.

    After change ``j`` (at the end of round ``change_rounds[j]``) the state is the previous one plus
    ``signs[j] · [X[change_rounds[j]] ≠ 0]`` (Winnow's exponents: a promotion or a demotion of the active
    weights). Only ``checkpoints[c]``, the state after ``c · every`` changes (``checkpoints[0] = initial``),
    is stored; any other state is the nearest checkpoint before it plus the rows of the changes in between,
    read again from ``X`` (a reference to the run's validated input, not a copy: the caller must not modify
    it afterwards). Integer sums, so every state is exactly the one the run had. Memory: the checkpoints
    (``O((M/every + 1)·N)``; the learner chooses ``every`` to keep them within a few MB) and ``O(M)`` —
    not one N-vector per change.

    >>> import numpy as np
    >>> X = np.array([[1, 0, 1], [0, 1, 1], [1, 1, 0]], dtype=np.uint8)
    >>> h = RowReplayHistory(np.zeros(3, dtype=np.int64), np.array([0, 2]), np.array([1, -1]), X, every=2,
    ...                      checkpoints=np.array([[0, 0, 0], [0, -1, 1]]))   # after 0 and 2 changes
    >>> [h.raw_at(t).tolist() for t in (0, 1, 2, 3)], h.snapshots.tolist()
    ([[0, 0, 0], [1, 0, 1], [1, 0, 1], [0, -1, 1]], [[1, 0, 1], [0, -1, 1]])
    """

    #: cells of X read at once when replaying (a block of rows, not the whole run)
    BLOCK_CELLS = 1 << 18

    def __init__(self, initial: np.ndarray, change_rounds: np.ndarray, signs: np.ndarray, X: np.ndarray, every: int,
                 checkpoints: np.ndarray):
        self.initial = np.asarray(initial, dtype=np.int64)
        self.change_rounds = np.asarray(change_rounds, dtype=np.int64)
        self.signs = np.asarray(signs, dtype=np.int8)
        self.X = X
        self.every = int(every)
        self.checkpoints = np.asarray(checkpoints, dtype=np.int64)
        self._last: tuple[int, np.ndarray] | None = None
        M, N = self.change_rounds.shape[0], self.initial.shape[0]
        if self.signs.shape != (M,) or self.every < 1 or X.ndim != 2 or X.shape[1] != N:
            raise ValueError("one sign per change round, every ≥ 1, and rows of the state's length")
        if self.checkpoints.shape != (M // self.every + 1, N):
            raise ValueError(f"expected {M // self.every + 1} checkpoints (one per {self.every} changes)")

    @property
    def n_changes(self) -> int:
        return int(self.change_rounds.shape[0])

    def n_changes_before(self, t: int) -> int:
        return int(np.searchsorted(self.change_rounds, t, side="left"))

    def _deltas(self, a: int, b: int, cols: np.ndarray | None = None) -> np.ndarray:
        """(b - a, ·) int64: the changes ``a … b-1`` (``signs[j]·[x ≠ 0]``) on the columns ``cols``
        (None: all)."""
        rows = self.change_rounds[a:b]
        sub = self.X[rows] if cols is None else self.X[np.ix_(rows, cols)]
        out = (sub != 0).astype(np.int64)
        out *= self.signs[a:b, None]
        return out

    def state(self, s: int) -> np.ndarray:
        """The state after the first ``s`` changes (a new array): from the nearest checkpoint before it,
        or from the last state asked for when that is nearer (reading blocks in order replays nothing twice)."""
        c = min(s // self.every, self.checkpoints.shape[0] - 1)
        s0, out = c * self.every, self.checkpoints[c]
        last = self._last  # (changes, state): one tuple, replaced whole, so threads may share the history
        if last is not None and s0 < last[0] <= s:
            s0, out = last
        out = out.copy()
        step = max(1, self.BLOCK_CELLS // max(out.shape[0], 1))
        for a in range(s0, s, step):
            out += self._deltas(a, min(s, a + step)).sum(axis=0)
        self._last = (s, out.copy())
        return out

    def raw_at(self, t: int) -> np.ndarray:
        return self.state(self.n_changes_before(t))

    def snapshot_rows(self, a: int, b: int) -> np.ndarray:
        """(b - a, N) int64: the states after changes ``a … b-1`` (``snapshots[a:b]`` of a
        :class:`SnapshotHistory`), a running sum from the state before ``a`` (a checkpoint, or the last
        state asked for): ask for blocks of rows, in order."""
        M = self.n_changes
        a, b = max(0, a), min(b, M)
        if b <= a:
            return np.zeros((0, self.initial.shape[0]), dtype=np.int64)
        out = self._deltas(a, b)
        out[0] += self.state(a)
        np.cumsum(out, axis=0, out=out)
        self._last = (b, out[-1].copy())
        return out

    def columns(self, cols: np.ndarray) -> np.ndarray:
        """(M, len(cols)) int64: the states' entries ``cols`` after every change (reads only those columns of X)."""
        cols = np.asarray(cols, dtype=np.int64)
        out = self._deltas(0, self.n_changes, cols)
        if out.shape[0]:
            out[0] += self.initial[cols]
        return np.cumsum(out, axis=0, out=out)

    @property
    def snapshots(self) -> np.ndarray:
        """Every state after a change, (M, N) int64 — built on demand (M·N·8 bytes, filled a block at a
        time): prefer :meth:`snapshot_rows` in blocks, :meth:`columns` or :meth:`raw_at`."""
        M, N = self.n_changes, self.initial.shape[0]
        out = np.empty((M, N), dtype=np.int64)
        step = max(1, self.BLOCK_CELLS // max(N, 1))
        for a in range(0, M, step):
            out[a:a + step] = self.snapshot_rows(a, a + step)
        return out

    @property
    def nbytes(self) -> int:
        """Bytes the history holds of its own (``X`` is the run's input, referenced, not counted)."""
        return int(self.checkpoints.nbytes + self.change_rounds.nbytes + self.signs.nbytes + self.initial.nbytes)


class LazyMap(Mapping):
    """A read-only mapping whose values may be zero-argument callables, computed on first access."""

    def __init__(self, items: dict[str, Any]):
        self._items = dict(items)
        self._done: dict[str, Any] = {}

    def __getitem__(self, key: str) -> Any:
        if key not in self._done:
            v = self._items[key]
            self._done[key] = v() if callable(v) else v
        return self._done[key]

    def __iter__(self):
        return iter(self._items)

    def __len__(self) -> int:
        return len(self._items)

    def __repr__(self) -> str:
        return f"LazyMap({list(self._items)})"


class Trace:
    """What a run did, round by round, and the proof that reads it.

    Attributes
    ----------
    algorithm, params : the learner's name and its validated parameters.
    T : number of rounds; d : number of features (experts, hypotheses…).
    mistakes : (M,) int array of 0-based rounds with a mistake.
    predictions : (T,) array of ŷ_t.
    columns : mapping of per-round (T,) arrays (``score``, ``is_mistake`` …).
    proof : the theorem's proof (see :class:`olc_core.proofs.base.Proof`).
    proofs : every proof computed for this run, by name (the primary one included).
    info : facts about the run (e.g. the comparator used and how it was found).

    In a terminal a trace prints its learner, T, d, M, the theorem's bound and the whole run's checks; in
    Jupyter (``_repr_html_``) also the transcript's conclusion. Its rounds iterate as rows and convert to
    pandas (optional):

    >>> import olc_core
    >>> tr = olc_core.run("perceptron", [[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]], [1, 1, 1],
    ...                   comparator=[2 ** -0.5, 2 ** -0.5])
    >>> tr
    Trace('perceptron', T=3, d=2, mistakes=2, proof='separable', mistake_bound=4.000000000000002, checks='16 hold, 2 undefined')
    >>> [(r.round, r.is_mistake, r.mistakes_so_far) for r in tr.rows()]
    [(0, True, 1), (1, True, 2), (2, False, 2)]
    >>> tr.to_pandas(weights=True)[["is_mistake", "w1", "w2"]].values.tolist()    # needs pandas
    [[True, 1.0, 0.0], [True, 1.0, 1.0], [False, 1.0, 1.0]]
    >>> "<td>mistakes</td><td>2</td>" in tr._repr_html_()
    True
    """

    def __init__(self, *, algorithm: str, params: dict[str, Any], T: int, d: int, mistakes: np.ndarray,
                 predictions: np.ndarray | Callable[[], np.ndarray],
                 history: SnapshotHistory | CheckpointHistory | RowReplayHistory,
                 weight_kind: str = "linear", log_base: float | None = None, base: float | None = None,
                 columns: dict[str, Any] | None = None, proofs: dict[str, Any] | None = None,
                 primary: str | None = None, info: dict[str, Any] | None = None):
        self.algorithm = algorithm
        self.params = dict(params)
        self.T = int(T)
        self.d = int(d)
        self.mistakes = np.asarray(mistakes, dtype=np.int64)
        self._predictions = predictions
        self.history = history
        if weight_kind not in ("linear", "log", "exponent"):
            raise ValueError(weight_kind)
        self.weight_kind = weight_kind
        self.log_base = log_base  # for "exponent": weights = exp(k * log_base) ...
        self.base = base          # ... computed as base ** k when the base is given (2 ** 3 is exactly 8)
        # a closure over the arrays, not a bound method: a Trace must not reference itself, or
        # it (and its large arrays) would be freed only by the cyclic garbage collector
        T_, mistakes_ = self.T, self.mistakes
        cols: dict[str, Any] = {"is_mistake": lambda: _mistake_flags(T_, mistakes_)}
        cols.update(columns or {})
        self.columns = LazyMap(cols)
        self.proofs = LazyMap(proofs or {})
        self._primary = primary
        self.info = dict(info or {})

    # ------------------------------------------------------------------ columns
    @property
    def predictions(self) -> np.ndarray:
        if callable(self._predictions):
            self._predictions = self._predictions()
        return self._predictions

    @property
    def n_mistakes(self) -> int:
        return int(self.mistakes.shape[0])

    def _is_mistake(self) -> np.ndarray:
        return _mistake_flags(self.T, self.mistakes)

    def mistakes_before(self, t: int) -> int:
        """Number of mistakes on rounds 0 … t-1."""
        return int(np.searchsorted(self.mistakes, t, side="left"))

    def mistakes_before_each_round(self) -> np.ndarray:
        """(T+1,) array: mistakes on rounds before t, for t = 0 … T."""
        return np.searchsorted(self.mistakes, np.arange(self.T + 1), side="left")

    @property
    def proof(self) -> Proof:
        if self._primary is None:
            raise AttributeError(f"{self.algorithm} has no proof")
        return self.proofs[self._primary]

    # ------------------------------------------------------------------ weights
    def _check_t(self, t: int) -> int:
        if isinstance(t, bool) or not isinstance(t, (int, np.integer)):
            raise TypeError(f"round must be an integer, got {t!r}")
        t = int(t)
        if not 0 <= t <= self.T:
            raise IndexError(f"round {t} is outside 0..{self.T} (weights_at(T) is the final state)")
        return t

    def weights_at(self, t: int) -> np.ndarray:
        """The learner's weights before round ``t`` (``t = T``: the final weights).

        Multiplicative learners return ``exp`` of the log weights, which may be
        0 or inf where they underflow or overflow; :meth:`log_weights_at` is exact.
        """
        raw = self.history.raw_at(self._check_t(t))
        if self.weight_kind == "linear":
            return raw.astype(np.float64, copy=False)
        with np.errstate(over="ignore", under="ignore", divide="ignore"):
            if self.weight_kind == "exponent" and self.base is not None:
                return np.power(float(self.base), raw.astype(np.float64))
            return np.exp(self.log_weights_at(t))

    def log_weights_at(self, t: int) -> np.ndarray:
        """Natural logarithms of the weights before round ``t`` (exact for multiplicative learners)."""
        raw = self.history.raw_at(self._check_t(t))
        if self.weight_kind == "log":
            return raw.astype(np.float64, copy=False)
        if self.weight_kind == "exponent":
            return raw.astype(np.float64) * self.log_base
        w = raw.astype(np.float64, copy=False)
        if (w < 0).any():
            raise TypeError(f"{self.algorithm} has signed (additive) weights; they have no logarithm")
        with np.errstate(divide="ignore"):
            return np.log(w)

    # ------------------------------------------------------------------ as a table
    def round_columns(self, weights: bool = False) -> dict[str, np.ndarray]:
        """The per-round columns, in order: ``round`` (0-based t), ``prediction``, ``is_mistake``,
        ``mistakes_so_far`` (mistakes on rounds 0 … t), then every per-round number column of
        :attr:`columns`; with ``weights=True`` also ``w1`` … ``wd``, the weights after round t
        (``weights_at(t + 1)``: T·d numbers)."""
        T = self.T
        out: dict[str, np.ndarray] = {"round": np.arange(T), "prediction": np.asarray(self.predictions),
                                      "is_mistake": np.asarray(self.columns["is_mistake"]),
                                      "mistakes_so_far": self.mistakes_before_each_round()[1:]}
        for name in self.columns:
            col = np.asarray(self.columns[name])
            if name not in out and col.shape == (T,) and col.dtype.kind in "biuf":
                out[name] = col
        if weights:
            W = np.vstack([self.weights_at(t + 1) for t in range(T)]) if T else np.zeros((0, self.d))
            out.update({f"w{j + 1}": W[:, j] for j in range(self.d)})
        return out

    def rows(self, weights: bool = False) -> Iterator[tuple]:
        """The rounds as rows: named tuples ``Round(round, prediction, is_mistake, mistakes_so_far, …)`` of
        :meth:`round_columns`."""
        return _tables.rows(self.round_columns(weights), "Round")

    def to_pandas(self, weights: bool = False):
        """:meth:`round_columns` as a pandas DataFrame indexed by ``round`` (0-based). pandas is optional:
        without it this raises ImportError saying ``pip install pandas``."""
        return _tables.data_frame(self.round_columns(weights), index="round")

    # ------------------------------------------------------------------ display
    def _checks(self, short: bool = False) -> str:
        """The whole run's checks (the record's summary): "all n hold", or by verdict — in words, or
        ``short`` (hold, undefined, n/a, assumption false, FAIL: the counts that are not 0)."""
        S = self.proof.summary()
        if S.all_hold:
            return f"all {S.checks} hold"
        if not short:
            return checks_words(S)
        counts = [(S.count("holds") + S.count("tol"), "hold"), (S.count("undefined"), "undefined"),
                  (S.count("na"), "n/a"), (S.count("assumption"), "assumption false"), (S.count("fails"), "FAIL")]
        return ", ".join(f"{n} {w}" for n, w in counts if n)

    def __repr__(self) -> str:
        head = f"Trace({self.algorithm!r}, T={self.T}, d={self.d}, mistakes={self.n_mistakes}"
        if self._primary is None:
            return head + ")"
        p = self.proof
        bound = (f"mistake_bound={p.mistake_bound!r}" if p.mistake_bound is not None else
                 f"mistake_bound=None (failing: {', '.join(a.name for a in p.failed_assumptions)})")
        return f"{head}, proof={self._primary!r}, {bound}, checks={self._checks(short=True)!r})"

    def _repr_html_(self) -> str:
        """Jupyter's view: the learner, T, d, M, the theorem's bound (or the assumptions that fail, so no
        bound), the checks over the whole run, then the transcript's conclusion and checks in its words."""
        esc = (lambda v: html.escape(str(v), quote=False))
        rows = [["rounds T", self.T], ["features d", self.d]]
        if self._primary is None:
            rows.append(["mistakes M", self.n_mistakes])
            return f"<div>{_tables.html_table(['Trace', ''], rows)}</div>"
        p = self.proof
        rows.append([f"{p.event}s", self.n_mistakes])
        rows.append(["proof", f"{p.name} ({self._primary})"])
        rows.append(["bound", repr(p.mistake_bound) if p.mistake_bound is not None else
                     "none: " + "; ".join(f"{a.name} fails" for a in p.failed_assumptions)])
        rows.append(["checks", self._checks()])
        return (f"<div>{_tables.html_table(['Trace', esc(self.algorithm)], rows)}"
                f"{_doc_html(overview(self))}</div>")


def _mistake_flags(T: int, mistakes: np.ndarray) -> np.ndarray:
    flag = np.zeros(T, dtype=bool)
    flag[mistakes] = True
    return flag


def finite_or_none(x: float) -> float | None:
    return None if x is None or not math.isfinite(x) else float(x)
