r"""Sweeps: one learner, one parameter over many values, many seeded streams per value.

``sweep(algorithm, param, values, seeds=10, T=1000, worst_case=False, **stream)``
runs :func:`olc_core.run` on the stream of every (value, seed) cell and returns a
:class:`SweepTable` — numpy columns, one row per cell:

* ``value``, ``seed``, ``T`` (rounds run), ``mistakes`` (the quantity the theorem
  bounds: the mistake count, the updates of the margin Perceptron, the *expected*
  mistakes ΣF_t of Randomised WM), ``realised`` (the mistakes actually made),
  ``bound`` (the theorem's bound; NaN when an assumption fails), ``ratio``
  (mistakes/bound, the tightness; NaN when the bound is n/a or 0), ``holds``
  (every assumption of the theorem held), ``proof`` (the theorem used) and ``why``
  (the failing assumptions in words, empty when they hold);
* ``bound_exact`` (not in the CSV): the bound as a :class:`fractions.Fraction` (None where n/a).
  The Perceptron's R²/γ² is computed exactly from the stream's numbers
  (:mod:`olc_core._exact.perceptron_bound`: on x_t = e_t it is exactly d, where the float formula gives
  2.0000000000000004 at d = 2); the other bounds are their floats. ``bound`` is its correctly
  rounded float and ``ratio`` the correctly rounded exact quotient, so "M ≤ bound", "bound > T"
  and "ratio = 1" are decided as exact arithmetic decides them (compare with ``bound_exact``).

Each cell is exactly ``olc_core.run(algorithm, stream.X, stream.y, **params)`` on the
generator of :data:`SWEEPS` with that seed (a test checks it cell by cell). The
Perceptron's bound is R²/γ² on separable data; with label noise (``noise > 0``) it
is Freund–Schapire's R²/γ² + 2TD_γ/γ, which needs no separability. ``worst_case=True``
uses the bound-attaining streams: the Perceptron on x_t = e_t (M = d = R²/γ², with γ the measured
margin of w* ∝ (1, …, 1): 1/√d exactly, where the float 1/√d is a rounding of it), the
adversary against Weighted Majority (and against RWM's expected mistakes),
Halving's worst case (⌊log₂ N⌋ mistakes), the conjunction adversary (n mistakes of
the n + 1 the bound allows) and Winnow's adversary.

Speed: the stream of a seed is generated once while only learner parameters change
(a β sweep reuses it), and seeds run on a thread pool (the compiled loops, the streams'
draws and numpy release the GIL) with BLAS held to one thread meanwhile
(:func:`one_blas_thread`); ``progress(done, total)`` is called from the calling thread.

>>> import olc_core
>>> t = olc_core.sweep("perceptron", "gamma", [0.1, 0.3], seeds=2, T=300, d=3)
>>> t.columns["value"].tolist(), t.columns["seed"].tolist()
([0.1, 0.1, 0.3, 0.3], [0, 1, 0, 1])
>>> bool((t.columns["mistakes"] <= t.columns["bound"]).all()), t.columns["bound"].round(6).tolist()
(True, [100.0, 100.0, 11.111111, 11.111111])
>>> t.to_csv().splitlines()[0]
'value,seed,T,mistakes,realised,bound,ratio,holds,proof,why'
>>> w = olc_core.sweep("perceptron", "d", [4, 9], seeds=1, worst_case=True)
>>> w.columns["mistakes"].tolist(), w.columns["bound"].tolist(), w.columns["ratio"].tolist()
([4.0, 9.0], [4.0, 9.0], [1.0, 1.0])
>>> w.columns["bound_exact"].tolist()
[Fraction(4, 1), Fraction(9, 1)]
"""
from __future__ import annotations

import csv
import html as _html
import io
import math
import threading
import time
from concurrent.futures import ThreadPoolExecutor, wait
from contextlib import contextmanager
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Callable, Sequence

import numpy as np

from ._exact import perceptron_bound as _xb
from ._support import tables as _tables
from . import streams as S
from .learners import run

__all__ = ["sweep", "SweepTable", "SWEEPS", "Sweepable", "cell_inputs"]

COLUMNS = ("value", "seed", "T", "mistakes", "realised", "bound", "ratio", "holds", "proof", "why")


@dataclass(frozen=True)
class Sweepable:
    """How to sweep one learner: its settings (with defaults), which of them the stream reads,
    the stream generator, the learner's parameters, and the bound-attaining variant."""

    settings: dict[str, Any]                       # every setting with its default (T included)
    integer: tuple[str, ...]                       # settings that must be integers
    stream_keys: tuple[str, ...]                   # settings the (random) stream depends on
    make: Callable[[dict, int], S.Stream]          # (settings, seed) -> stream
    params: Callable[[dict, S.Stream, int], dict]  # (settings, stream, seed) -> olc_core.run parameters
    worst: Callable[[dict, int], S.Stream] | None = None
    worst_keys: tuple[str, ...] = ()               # settings the worst-case stream reads (others: n/a)
    doc: dict[str, str] = field(default_factory=dict)
    into: Callable[[dict, int, "Scratch"], S.Stream] | None = None  # make, drawing X into a reused buffer
    #: the learner's parameters on the bound-attaining stream (None: ``params``)
    worst_params: Callable[[dict, S.Stream, int], dict] | None = None

    def params_for(self, worst_case: bool) -> Callable[[dict, S.Stream, int], dict]:
        return self.worst_params if worst_case and self.worst_params is not None else self.params


class Scratch:
    """One float64 buffer reused by the streams of one seed's cells (:attr:`Sweepable.into`): a T × N
    stream is drawn into memory already touched instead of fresh pages the kernel must zero (at
    N = 1000, T = 10⁴: 80 MB per value). It grows by doubling; a cell's stream is dropped before the next
    one is drawn (the table keeps numbers only)."""

    def __init__(self) -> None:
        self.buf = np.empty(0)

    def get(self, n: int) -> np.ndarray:
        if self.buf.size < n:
            self.buf = np.empty(max(int(n), 2 * self.buf.size))
        return self.buf


def _rates(N: int) -> np.ndarray:
    return np.linspace(0.1, 0.5, N)


def _halving_rates(N: int) -> np.ndarray:
    return np.r_[0.0, np.full(N - 1, 0.5)]


def _beta(s: dict) -> float:
    return 1.0 - s["eta"] if s.get("eta") is not None else s["beta"]


_LIN_DOC = {"d": "dimension", "gamma": "margin γ of the planted w*", "noise": "label-flip probability",
            "T": "rounds"}

#: Every sweep-able learner (the keys are :data:`olc_core.ALGORITHMS` names).
SWEEPS: dict[str, Sweepable] = {
    "perceptron": Sweepable(
        {"d": 5, "gamma": 0.1, "noise": 0.0, "T": 1000}, ("d", "T"), ("d", "gamma", "noise", "T"),
        lambda s, seed: S.separable(s["T"], s["d"], s["gamma"], 1.0, seed, noise=s["noise"]),
        lambda s, st, seed: {"comparator": st.comparator, "gamma": st.info["gamma"]},
        lambda s, seed: S.tight_perceptron(s["d"]), ("d",), _LIN_DOC,
        worst_params=lambda s, st, seed: {"comparator": st.comparator, "gamma": None}),
    "margin_perceptron": Sweepable(
        {"d": 5, "gamma": 0.1, "T": 1000}, ("d", "T"), ("d", "gamma", "T"),
        lambda s, seed: S.separable(s["T"], s["d"], s["gamma"], 1.0, seed),
        lambda s, st, seed: {"comparator": st.comparator, "gamma": s["gamma"]}, doc=_LIN_DOC),
    "winnow": Sweepable(
        {"N": 100, "k": 3, "beta": 1.0, "noise": 0.0, "T": 1000}, ("N", "k", "T"), ("N", "k", "noise", "T"),
        lambda s, seed: S.sparse_disjunction(s["T"], s["N"], s["k"], seed, noise=s["noise"], dtype=np.uint8),
        lambda s, st, seed: {"comparator": st.comparator, "beta": s["beta"]},
        lambda s, seed: S.winnow_adversary(s["T"], s["N"], s["k"], s["beta"], seed), ("N", "k", "beta", "T"),
        {"N": "variables", "k": "relevant variables", "beta": "promotion factor 1+β", "noise": "label noise",
         "T": "rounds"}),
    "normalized_winnow": Sweepable(
        {"N": 100, "k": 3, "eta": None, "noise": 0.0, "T": 1000}, ("N", "k", "T"), ("N", "k", "noise", "T"),
        lambda s, seed: S.sparse_simplex(s["T"], s["N"], s["k"], seed, noise=s["noise"]),
        lambda s, st, seed: {"comparator": st.comparator, "eta": s["eta"]},
        doc={"N": "features", "k": "relevant features (odd)", "eta": "learning rate η (default: the δ-optimal)",
             "noise": "label noise", "T": "rounds"},
        into=lambda s, seed, buf: S.sparse_simplex(s["T"], s["N"], s["k"], seed, noise=s["noise"],
                                                   out=buf.get(s["T"] * s["N"]))),
    "weighted_majority": Sweepable(
        {"N": 10, "beta": 0.5, "eta": None, "noise": 0.0, "T": 1000}, ("N", "T"), ("N", "noise", "T"),
        lambda s, seed: S.experts(s["T"], s["N"], _rates(s["N"]), seed, noise=s["noise"]),
        lambda s, st, seed: {"beta": _beta(s)},
        lambda s, seed: S.adversary(s["T"], s["N"], _beta(s), "on_mistake", seed), ("N", "beta", "eta", "T"),
        {"N": "experts (error rates 0.1 … 0.5)", "beta": "penalty factor β", "eta": "η = 1 − β",
         "noise": "label noise", "T": "rounds"}),
    "randomized_weighted_majority": Sweepable(
        {"N": 10, "eta": 0.5, "noise": 0.0, "T": 1000}, ("N", "T"), ("N", "noise", "T"),
        lambda s, seed: S.experts(s["T"], s["N"], _rates(s["N"]), seed, noise=s["noise"]),
        lambda s, st, seed: {"eta": s["eta"], "seed": seed},
        lambda s, seed: S.adversary(s["T"], s["N"], 1.0 - s["eta"], "every_round", seed), ("N", "eta", "T"),
        {"N": "experts (error rates 0.1 … 0.5)", "eta": "penalty rate η", "noise": "label noise", "T": "rounds"}),
    "halving": Sweepable(
        {"N": 64, "noise": 0.0, "T": 1000}, ("N", "T"), ("N", "noise", "T"),
        lambda s, seed: S.experts(s["T"], s["N"], _halving_rates(s["N"]), seed, noise=s["noise"], exact=False),
        lambda s, st, seed: {},
        lambda s, seed: S.halving_adversary(s["T"], s["N"], seed), ("N", "T"),
        {"N": "hypotheses |H| (one always right, the others right half the time)", "noise": "label noise",
         "T": "rounds"}),
    "conjunction": Sweepable(
        {"n": 20, "k": 3, "noise": 0.0, "T": 1000}, ("n", "k", "T"), ("n", "k", "noise", "T"),
        lambda s, seed: S.conjunction(s["T"], s["n"], s["k"], seed, noise=s["noise"]),
        lambda s, st, seed: {"comparator": st.comparator},
        lambda s, seed: S.conjunction_adversary(s["n"], S.elimination_predictor),
        ("n",), {"n": "variables", "k": "literals of the target", "noise": "label noise", "T": "rounds"}),
    "decision_list": Sweepable(
        {"n": 20, "L": 3, "noise": 0.0, "T": 1000}, ("n", "L", "T"), ("n", "L", "noise", "T"),
        lambda s, seed: S.decision_list(s["T"], s["n"], s["L"], seed, noise=s["noise"]),
        lambda s, st, seed: {"comparator": st.comparator},
        doc={"n": "variables", "L": "rules of the target (the final True rule included)", "noise": "label noise",
             "T": "rounds"}),
}


# --------------------------------------------------------------------------- the table
@dataclass
class SweepTable:
    """The cells of a sweep as numpy columns (see :data:`COLUMNS`), one row per (value, seed).

    It iterates as rows, converts to pandas (optional) and shows its :meth:`summary` in Jupyter:

    >>> import olc_core
    >>> t = olc_core.sweep("halving", "N", [4, 32], seeds=2, T=20, worst_case=True)
    >>> t
    <SweepTable halving, N over 2 values × 2 seeds (bound-attaining streams): 4 cells, every cell's assumptions held, largest mistakes/bound 1.0>
    >>> [(c.value, c.seed, c.mistakes) for c in t]
    [(4.0, 0, 2.0), (4.0, 1, 2.0), (32.0, 0, 5.0), (32.0, 1, 5.0)]
    >>> t.to_pandas(summary=True)[["value", "mistakes_median", "bound_median"]].values.tolist()   # needs pandas
    [[4.0, 2.0, 2.0], [32.0, 5.0, 5.0]]
    >>> "<td>32</td><td>2</td><td>5</td><td>5</td><td>1</td><td>yes</td>" in t._repr_html_()
    True
    """

    algorithm: str
    param: str
    worst_case: bool
    settings: dict[str, Any]
    columns: dict[str, np.ndarray]
    seconds: float = 0.0

    def __len__(self) -> int:
        return int(self.columns["value"].shape[0])

    def __getitem__(self, name: str) -> np.ndarray:
        return self.columns[name]

    def to_csv(self) -> str:
        """The table as CSV text (a header row, then one row per cell; floats in full precision)."""
        buf = io.StringIO()
        w = csv.writer(buf, lineterminator="\n")
        w.writerow(COLUMNS)
        for i in range(len(self)):
            w.writerow([_cell_text(self.columns[c][i]) for c in COLUMNS])
        return buf.getvalue()

    def __iter__(self):
        """The cells as rows: named tuples ``Cell(value, seed, T, mistakes, realised, bound, ratio, holds,
        proof, why)``, in the table's order."""
        return _tables.rows({c: self.columns[c] for c in COLUMNS}, "Cell")

    def to_pandas(self, summary: bool = False):
        """The table as a pandas DataFrame (one row per cell, the columns of :data:`COLUMNS`), or with
        ``summary=True`` the :meth:`summary` (one row per swept value). pandas is optional: without it
        this raises ImportError saying ``pip install pandas``."""
        return _tables.data_frame(self.summary() if summary else {c: self.columns[c] for c in COLUMNS})

    def _words(self) -> tuple[str, str]:
        values = list(dict.fromkeys(self.columns["value"].tolist()))
        seeds = len(self) // max(1, len(values))
        held = bool(self.columns["holds"].all())
        what = ("every cell's assumptions held" if held else
                f"assumptions failed in {int((~self.columns['holds']).sum())} of {len(self)} cells")
        return (f"{self.algorithm}, {self.param} over {len(values)} values × {seeds} seeds"
                + (" (bound-attaining streams)" if self.worst_case else "")), what

    def __repr__(self) -> str:
        head, what = self._words()
        r = self.columns["ratio"]
        r = r[np.isfinite(r)]
        top = f", largest mistakes/bound {float(r.max())!r}" if r.size else ""
        return f"<SweepTable {head}: {len(self)} cells, {what}{top}>"

    def _repr_html_(self) -> str:
        """Jupyter's view: what was swept, then :meth:`summary` as a table (median and range over seeds)."""
        head, what = self._words()
        s = self.summary()

        def span(name: str, i: int) -> str:
            med, lo, hi = (float(s[f"{name}_{k}"][i]) for k in ("median", "min", "max"))
            if math.isnan(med):
                return "n/a"
            return f"{med:.6g}" if lo == hi else f"{med:.6g} ({lo:.6g} to {hi:.6g})"
        body = [[f"{s['value'][i]:.6g}", int(s["seeds"][i]), span("mistakes", i), span("bound", i), span("ratio", i),
                 "yes" if s["holds"][i] else "no"] for i in range(len(s["value"]))]
        header = [self.param, "seeds", "mistakes: median (range)", "bound: median (range)",
                  "mistakes/bound: median (range)", "assumptions held (all seeds)"]
        settings = ", ".join(f"{k} = {v}" for k, v in self.settings.items() if k != self.param)
        return (f"<div><p><strong>{_html.escape(head)}</strong>: {_html.escape(what)}"
                + (f"; the other settings: {_html.escape(settings)}" if settings else "") + "; "
                f"{self.seconds:.2g} s.</p>{_tables.html_table(header, body)}</div>")

    def summary(self) -> dict[str, np.ndarray]:
        """Per swept value (in sweep order): the median, min and max over seeds of the mistakes, the bound
        and the ratio (NaN where no seed has a bound), and whether every seed's assumptions held."""
        v = self.columns["value"]
        values = list(dict.fromkeys(v.tolist()))
        out: dict[str, list] = {k: [] for k in ("value", "seeds", "holds")}
        for name in ("mistakes", "bound", "ratio"):
            for stat in ("median", "min", "max"):
                out[f"{name}_{stat}"] = []
        for x in values:
            rows = v == x
            out["value"].append(x)
            out["seeds"].append(int(rows.sum()))
            out["holds"].append(bool(self.columns["holds"][rows].all()))
            for name in ("mistakes", "bound", "ratio"):
                col = self.columns[name][rows]
                col = col[np.isfinite(col)]
                for stat, f in (("median", np.median), ("min", np.min), ("max", np.max)):
                    out[f"{name}_{stat}"].append(float(f(col)) if col.size else math.nan)
        return {k: np.asarray(a) for k, a in out.items()}


def _cell_text(x: Any) -> str:
    if isinstance(x, (bool, np.bool_)):
        return "true" if x else "false"
    if isinstance(x, (float, np.floating)):
        return "" if math.isnan(x) else repr(float(x))
    return str(x)


# --------------------------------------------------------------------------- one cell
def _spec(algorithm: str) -> Sweepable:
    if algorithm not in SWEEPS:
        raise ValueError(f"sweep: unknown algorithm {algorithm!r}; sweep-able: {', '.join(SWEEPS)}")
    return SWEEPS[algorithm]


def _number(name: str, v: Any, integer: bool) -> Any:
    if v is None:
        return None
    if isinstance(v, (bool, np.bool_)) or not isinstance(v, (int, float, np.integer, np.floating)):
        raise ValueError(f"{name} must be a number (got {v!r})")
    if not math.isfinite(float(v)):
        raise ValueError(f"{name} must be a finite number (got {v!r})")
    if integer:
        if float(v) != int(v):
            raise ValueError(f"{name} must be an integer (got {v!r})")
        return int(v)
    return float(v)


def _resolve(algorithm: str, param: str, T: Any, worst_case: bool, stream: dict[str, Any]) -> dict[str, Any]:
    spec = _spec(algorithm)
    if worst_case and spec.worst is None:
        have = ", ".join(a for a, s in SWEEPS.items() if s.worst is not None)
        raise ValueError(f"sweep: {algorithm} has no bound-attaining stream; those with one: {have}")
    allowed = spec.worst_keys if worst_case else tuple(spec.settings)
    if param not in allowed:
        what = "on its bound-attaining stream " if worst_case else ""
        raise ValueError(f"sweep: {algorithm} {what}cannot sweep {param!r}; sweep-able: {', '.join(allowed)}")
    for k in stream:
        if k not in spec.settings or k == "T":
            raise ValueError(f"sweep: unknown setting {k!r} for {algorithm}; settings: "
                             f"{', '.join(x for x in spec.settings if x != 'T')} (and T)")
    s = dict(spec.settings)
    s.update(stream)
    s["T"] = T
    return {k: _number(k, v, k in spec.integer) for k, v in s.items()}


def cell_inputs(algorithm: str, seed: int, settings: dict[str, Any], worst_case: bool = False):
    """``(stream, params)`` of one cell: ``olc_core.run(algorithm, stream.X, stream.y, **params)`` is the cell."""
    spec = _spec(algorithm)
    st = spec.worst(settings, seed) if worst_case else spec.make(settings, seed)
    return st, spec.params_for(worst_case)(settings, st, seed)


def _exact(algorithm: str, trace: Any, proof: Any, stream: S.Stream | None) -> Fraction | None:
    """The bound as an exact rational: the Perceptron's R²/γ² from the stream's numbers
    (:func:`olc_core._exact.perceptron_bound.perceptron_bound`), else the float bound itself (the other bounds are
    logarithms, exact in floats where they are integers — log₂ N at powers of two —, or sums of floats)."""
    if proof.mistake_bound is None or not math.isfinite(proof.mistake_bound):
        return None
    if algorithm == "perceptron" and proof is trace.proof and stream is not None:
        b = _xb.perceptron_bound(stream.X, stream.y, proof.constants.get("comparator"), trace.params.get("gamma"))
        if b is not None:
            return b
    return Fraction(float(proof.mistake_bound))


def _measure(algorithm: str, trace: Any, stream: S.Stream | None = None) -> tuple:
    proof = trace.proof
    if proof.mistake_bound is None and algorithm == "perceptron" and "nonseparable" in trace.proofs:
        proof = trace.proofs["nonseparable"]           # with label noise: Freund–Schapire, no separability
    if algorithm == "randomized_weighted_majority":
        measured = float(proof.constants["expected_mistakes"])
    else:
        measured = float(trace.n_mistakes)
    exact = _exact(algorithm, trace, proof, stream)
    bound = math.nan if exact is None else float(exact)        # correctly rounded
    ratio = _xb.ratio(measured, exact)                          # correctly rounded from the exact quotient
    failed = proof.failed_assumptions
    why = "; ".join(a.detail or a.statement for a in failed)
    return trace.T, measured, trace.n_mistakes, bound, ratio, not failed, proof.name, why, exact


# --------------------------------------------------------------------------- the sweep
@contextmanager
def one_blas_thread(active: bool = True):
    """BLAS single-threaded while ``active`` (the sweep runs), when called from the main thread: a sweep
    makes many small BLAS calls, after each of which OpenBLAS's worker threads spin for a while on the
    cores the sweep's threads need (Winnow's N sweep of bench/sweep.py, load average 3–6: 14–16 s of CPU
    on two sweep threads, 7.4–8.5 s with one BLAS thread; on one sweep thread 16.6–17.2 s against
    7.5–8.6 s, and no faster in wall time).
    Needs threadpoolctl (optional). Not from other threads (a Streamlit script runs in one): OpenBLAS
    0.3.31 does not take its thread count back up when asked from a thread other than the main one, so
    the limit could not be undone there. The sweep's table does not depend on it: the learners'
    decisions are exact, their bounds come from sequential sums, and the streams are the same (tested)."""
    if not active or threading.current_thread() is not threading.main_thread():
        yield None
        return
    try:
        from threadpoolctl import threadpool_limits  # optional dependency: imported only when a sweep asks for it
    except ImportError:
        yield None
        return
    with threadpool_limits(limits=1, user_api="blas") as limiter:
        yield limiter


def _seed_list(seeds: Any) -> list[int]:
    if isinstance(seeds, (int, np.integer)) and not isinstance(seeds, bool):
        if seeds < 1:
            raise ValueError(f"seeds must be ≥ 1 (got {seeds!r})")
        return list(range(int(seeds)))
    try:
        out = [_number("a seed", s, True) for s in seeds]
    except TypeError:
        raise ValueError(f"seeds must be a count or a list of integers (got {seeds!r})") from None
    if not out or min(out) < 0:
        raise ValueError("seeds must be a non-empty list of integers ≥ 0")
    return out


def _one_seed(algorithm: str, param: str, values: list, seed: int, base: dict, worst_case: bool,
              done: list, cancel: list) -> list[tuple]:
    """Every value for one seed; the stream is generated again only when a setting it reads changes.
    Stops between cells once ``cancel`` is non-empty (the caller was interrupted)."""
    spec = _spec(algorithm)
    keys = spec.worst_keys if worst_case else spec.stream_keys
    last_key, st = None, None
    scratch = Scratch() if spec.into is not None and not worst_case else None
    rows = []
    for v in values:
        if cancel:
            break
        s = dict(base, **{param: v})
        try:
            key = tuple(s[k] for k in keys)
            if key != last_key:
                st = trace = None                              # the last stream's buffer is drawn over next
                if worst_case:
                    st = spec.worst(s, seed)
                else:
                    st = spec.make(s, seed) if scratch is None else spec.into(s, seed, scratch)
                last_key = key
            trace = run(algorithm, st.X, st.y, **spec.params_for(worst_case)(s, st, seed))
        except ValueError as e:
            raise ValueError(f"{param} = {v:g}, seed {seed}: {e}") from None
        rows.append((v, seed) + _measure(algorithm, trace, st))
        done.append(1)
    return rows


def sweep(algorithm: str, param: str, values: Sequence[float], seeds: Any = 10, T: int = 1000, *,
          worst_case: bool = False, threads: int = 2, progress: Callable[[int, int], Any] | None = None,
          **stream: Any) -> SweepTable:
    """Run ``algorithm`` on seeded streams for every value of ``param`` (module docstring).

    ``seeds``: a count (seeds 0 … n−1) or a list; ``T``: rounds (the bound-attaining
    streams of the Perceptron and of conjunctions have their own length, d and n);
    ``**stream``: the other settings of :data:`SWEEPS` held fixed (e.g. ``d=5``).
    Raises ``ValueError`` for an unknown algorithm, parameter or setting, or a value
    a generator or the learner rejects (naming the value and seed).
    """
    base = _resolve(algorithm, param, T, worst_case, stream)
    spec = _spec(algorithm)
    vals = [_number(param, v, param in spec.integer) for v in np.asarray(values, dtype=object).ravel()]
    if not vals:
        raise ValueError("sweep: values is empty")
    seed_list = _seed_list(seeds)
    total, done = len(vals) * len(seed_list), []
    t0 = time.perf_counter()
    workers = max(1, min(int(threads), len(seed_list)))
    cancel: list = []
    with one_blas_thread(), ThreadPoolExecutor(max_workers=workers) as pool:
        futures = [pool.submit(_one_seed, algorithm, param, vals, sd, base, worst_case, done, cancel)
                   for sd in seed_list]
        pending = set(futures)
        try:
            while pending:
                _, pending = wait(pending, timeout=0.1)
                if progress is not None:
                    progress(len(done), total)
        except BaseException:      # e.g. a page rerun stopping the script: the workers stop after their cell
            cancel.append(True)
            raise
        results = [f.result() for f in futures]           # re-raises a cell's error
    rows = sorted((r for rs in results for r in rs), key=lambda r: (vals.index(r[0]), seed_list.index(r[1])))
    cols = list(zip(*rows))
    dtypes = (np.float64, np.int64, np.int64, np.float64, np.int64, np.float64, np.float64, bool, object, object,
              object)
    columns = {name: np.asarray(c, dtype=dt) for name, c, dt in zip(COLUMNS + ("bound_exact",), cols, dtypes)}
    return SweepTable(algorithm, param, worst_case, base, columns, time.perf_counter() - t0)

