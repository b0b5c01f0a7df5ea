r"""The proof object: a potential, its proven lower and upper bounds, checked at every round.

A :class:`Proof` reads a finished run and holds, as columns indexed by *state*
(the learner's state before round ``t``; a new state starts only where the
learner's state changes), every quantity of the proof's sandwich. A
:class:`Chain` lists series that the theorem says are ordered
(``lower ≤ potential ≤ upper``); :meth:`Proof.violations` checks every adjacent
pair at every state. :class:`Assumption` records what the theorem needs of the
data and on which rounds that fails; ``mistake_bound`` is ``None`` whenever an
assumption fails, never a number the theorem does not give.

>>> import numpy as np
>>> p = Proof(name="toy", theorem="M \\le 2", T=3,
...           state_rounds=np.array([0, 2]), n_mistakes=np.array([0, 1]),
...           series={"lo": np.array([0.0, 1.0]), "phi": np.array([0.0, 0.5])},
...           chains=(Chain("toy", ("lo", "phi")),), mistake_bound=2.0)
>>> [(v.round, v.name) for v in p.violations()]
[(2, 'lo ≤ phi')]
>>> p.at(1)["phi"], p.at(3)["phi"]
(0.0, 0.5)
"""
from __future__ import annotations

from collections.abc import Callable, MutableMapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from .._kernels.checks import link_bad

__all__ = ["Chain", "Assumption", "Violation", "Proof", "Series", "DEFAULT_TOL"]

#: Relative tolerance for inequality checks (see spec "Checking inequalities on floats").
DEFAULT_TOL = 1e-9


class Series(MutableMapping):
    """The proof's series by name: arrays, or zero-argument callables computed on first access.

    A proof over 10⁵–10⁶ states builds a dozen derived series (Mγ, √M·R, cos∠ …); a run
    whose caller only asks for the verdict (violations, the bound) never pays for them.
    """

    def __init__(self, K: int, items: dict[str, Any]):
        self.K = K
        self._raw: dict[str, Any] = {}
        for k, v in items.items():
            self[k] = v

    def _check(self, key: str, v: Any) -> np.ndarray:
        a = np.asarray(v, dtype=np.float64)
        if a.shape != (self.K,):
            raise ValueError(f"series {key!r} has shape {a.shape}, expected ({self.K},)")
        return a

    def __getitem__(self, key: str) -> np.ndarray:
        v = self._raw[key]
        if callable(v):
            v = self._raw[key] = self._check(key, v())
        return v

    def __setitem__(self, key: str, v: Any) -> None:
        self._raw[key] = v if callable(v) else self._check(key, v)

    def __delitem__(self, key: str) -> None:
        del self._raw[key]

    def __iter__(self):
        return iter(self._raw)

    def __len__(self) -> int:
        return len(self._raw)

    def __contains__(self, key: object) -> bool:  # without computing the series
        return key in self._raw

    def is_computed(self, key: str) -> bool:
        return not callable(self._raw[key])


@dataclass(frozen=True)
class Chain:
    """Series that the proof orders ``keys[0] ≤ keys[1] ≤ …`` at every state.

    ``log``: the series hold natural logarithms (compared with an absolute
    tolerance, i.e. a relative one on the values). ``scale``: the size of the
    terms the series are computed from; the tolerance is
    ``tol · max(|lhs|, |rhs|, scale)`` so that sides that cancel to ~0 are not
    flagged for rounding noise. ``strict``: per link, whether the theorem's
    inequality is strict (shown as <; still checked with the tolerance).
    """

    name: str
    keys: tuple[str, ...]
    log: bool = False
    scale: float = 0.0
    strict: tuple[bool, ...] = ()
    reasons: tuple[str, ...] = ()  # per link: why it holds (plain text, for the ledger)
    #: names of the assumptions every link of the chain relies on (empty: it holds on any data);
    #: where one of them fails, the step is not applicable rather than wrong
    needs: tuple[str, ...] = ()
    #: per link, overriding ``needs``: the assumptions that link relies on (when a chain mixes steps
    #: that hold on any data with steps that need the theorem's assumptions)
    link_needs: tuple[tuple[str, ...], ...] | None = None
    #: the name of the assumption this chain states itself (its links are that assumption's own test, e.g.
    #: the margin at each mistake): where it is false the assumption fails, which is not a step of the
    #: argument failing and not "not applicable" either
    restates: str = ""

    def needs_of(self, i: int | None = None) -> tuple[str, ...]:
        """The assumptions link ``i`` relies on (None: any link of the chain)."""
        if self.link_needs is None:
            return self.needs
        if i is None:
            return tuple(dict.fromkeys(n for ln in self.link_needs for n in ln))
        return self.link_needs[i] if i < len(self.link_needs) else ()

    def links(self) -> list[tuple[str, str, bool, str]]:
        out = []
        for i in range(len(self.keys) - 1):
            strict = self.strict[i] if i < len(self.strict) else False
            reason = self.reasons[i] if i < len(self.reasons) else ""
            out.append((self.keys[i], self.keys[i + 1], strict, reason))
        return out


class Assumption:
    """Something the theorem needs of the data, and the rounds on which it fails.

    ``rounds`` may be given as a zero-argument callable: the scan that lists the failing
    rounds of a 10⁶-round stream then runs only when someone asks for them.
    """

    __slots__ = ("name", "statement", "holds", "_rounds", "detail")

    def __init__(self, name: str, statement: str, holds: bool, rounds: Any = None, detail: str = ""):
        self.name = name
        self.statement = statement
        self.holds = bool(holds)
        self._rounds = np.zeros(0, dtype=np.int64) if rounds is None else rounds
        self.detail = detail

    @property
    def rounds(self) -> np.ndarray:
        if callable(self._rounds):
            self._rounds = np.asarray(self._rounds(), dtype=np.int64)
        return self._rounds

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, Assumption) and (self.name, self.statement, self.holds, self.detail)
                == (other.name, other.statement, other.holds, other.detail)
                and np.array_equal(self.rounds, other.rounds))

    __hash__ = None  # mutable cache inside: not hashable

    def __repr__(self) -> str:  # short: the rounds array can be long
        n = len(self.rounds)
        shown = ", ".join(str(int(r)) for r in self.rounds[:5]) + (", …" if n > 5 else "")
        status = "holds" if self.holds else f"fails on {n} round(s) [{shown}]"
        return f"Assumption({self.name!r}: {status})"


@dataclass(frozen=True)
class Violation:
    """An inequality of the proof that fails: ``lhs ≤ rhs`` is false in the state before ``round``."""

    round: int
    name: str
    lhs: float
    rhs: float
    chain: str = ""
    #: the failed assumptions this step relies on: empty for a real violation (a step that holds on any
    #: data, or whose assumptions hold, is false); non-empty: the step is not applicable to these data
    needs: tuple[str, ...] = ()


class Proof:
    """Potential, bounds, assumptions and the theorem's bound for one run.

    Parameters
    ----------
    state_rounds : (K,) int array, increasing, first entry 0
        State ``k`` is the learner's state before rounds ``state_rounds[k] …
        state_rounds[k+1]-1`` (the last one lasts to round ``T``).
    n_mistakes : (K,) int array
        The mistake count ``M`` the proof counts, in each state.
    series : dict of (K,) float arrays
        Every quantity of the sandwich, by name.
    chains : tuple of Chain
        The orderings the proof asserts.
    mistake_bound : float or None
        The theorem's bound on ``series[bounded]`` (default: on the mistake count
        ``M``); forced to None when an assumption fails. When set, a chain
        ``bounded ≤ mistake_bound`` is checked at every state too.
    bound_strict : bool
        The theorem states ``bounded < mistake_bound`` (strict): the transcript and the
        bound chain write < (the check itself is the same, with its tolerance).
    indices : dict
        ``{constant name: "variable" | "expert"}`` for constants that hold 0-based indices (the
        transcript writes them from 1, as the pages do).
    """

    def __init__(self, *, name: str, theorem: str, T: int, state_rounds: np.ndarray, n_mistakes: np.ndarray,
                 series: dict[str, np.ndarray], chains: tuple[Chain, ...] = (),
                 assumptions: tuple[Assumption, ...] = (), mistake_bound: float | None = None,
                 constants: dict[str, Any] | None = None, labels: dict[str, str] | None = None,
                 notes: tuple[str, ...] = (), bound_tol: float = DEFAULT_TOL, bounded: str | None = None,
                 checker: Callable[[], dict[str, np.ndarray]] | None = None, bound_strict: bool = False,
                 indices: dict[str, str] | None = None):
        self.name = name
        self.theorem = theorem
        self.T = int(T)
        self.state_rounds = np.asarray(state_rounds, dtype=np.int64)
        self.n_mistakes = np.asarray(n_mistakes, dtype=np.int64)
        K = self.state_rounds.shape[0]
        if K == 0 or self.state_rounds[0] != 0:
            raise ValueError("state_rounds must start at round 0")
        if self.n_mistakes.shape != (K,):
            raise ValueError("n_mistakes must have one entry per state")
        self.series = Series(K, series)
        self.assumptions = tuple(assumptions)
        self.constants = dict(constants or {})
        self.labels = dict(labels or {})
        self.notes = tuple(notes)
        #: the theorem's bound is strict (``M < bound``, as Winnow's): written with < (still checked
        #: with the tolerance, as every link)
        self.bound_strict = bool(bound_strict)
        #: constants that hold 0-based indices, and what they number ("variable", "expert"): written
        #: from 1 for a reader, as the pages number them
        self.indices = dict(indices or {})
        if any(not a.holds for a in self.assumptions):
            mistake_bound = None  # the theorem does not apply: claim nothing
        self.mistake_bound = None if mistake_bound is None else float(mistake_bound)
        chains = tuple(chains)
        # the quantity the theorem bounds: the mistake count M, or e.g. the expected
        # number of mistakes for a randomised learner (``bounded`` names that series)
        self.bounded = bounded or "M"
        if bounded is None:
            if "M" not in self.series:
                nm = self.n_mistakes
                self.series["M"] = lambda: nm.astype(np.float64)
            self.labels.setdefault("M", "M")
        elif bounded not in self.series:
            raise ValueError(f"bounded series {bounded!r} is not among the series")
        if self.mistake_bound is not None:
            b = self.mistake_bound
            self.series["mistake_bound"] = lambda: np.full(K, b)
            self.labels.setdefault("mistake_bound", "bound")
            chains = chains + (Chain("mistake bound", (self.bounded, "mistake_bound"), scale=1.0,
                                     strict=(self.bound_strict,), reasons=("the sandwich closes",)),)
        for ch in chains:
            for key in ch.keys:
                if key not in self.series:
                    raise ValueError(f"chain {ch.name!r} names unknown series {key!r}")
            for need in ch.needs_of():
                if need not in {a.name for a in self.assumptions}:
                    raise ValueError(f"chain {ch.name!r} needs unknown assumption {need!r}")
        self.chains = chains
        self.bound_tol = bound_tol
        # an optional fused check: {link name: bad mask} at the default tolerance, computed
        # without materialising the series (it must agree with _link_bad element by element)
        self._checker = checker
        self._checked: dict[str, np.ndarray] | None = None

    # ------------------------------------------------------------------ lookup
    @property
    def K(self) -> int:
        return int(self.state_rounds.shape[0])

    def index(self, t: int) -> int:
        """Index of the state in force before round ``t`` (0 ≤ t ≤ T)."""
        t = int(t)
        if not 0 <= t <= self.T:
            raise IndexError(f"round {t} is outside 0..{self.T}")
        return int(np.searchsorted(self.state_rounds, t, side="right") - 1)

    def at(self, t: int) -> dict[str, float]:
        """Every series' value in the state before round ``t``."""
        k = self.index(t)
        out = {name: float(v[k]) for name, v in self.series.items()}
        out["n_mistakes"] = int(self.n_mistakes[k])
        return out

    def per_round(self, name: str) -> np.ndarray:
        """Series ``name`` expanded to one value per state before round t = 0..T."""
        idx = np.searchsorted(self.state_rounds, np.arange(self.T + 1), side="right") - 1
        src = self.n_mistakes if name == "n_mistakes" else self.series[name]
        return src[idx]

    # ------------------------------------------------------------------ checks
    def _link_bad(self, chain: Chain, lo: str, hi: str, tol: float) -> np.ndarray:
        """True where ``series[lo] ≤ series[hi]`` fails beyond the tolerance (NaN: not checked)."""
        return link_bad(self.series[lo], self.series[hi], tol, chain.scale, chain.log)

    def check_matrix(self, tol: float = DEFAULT_TOL) -> dict[str, np.ndarray]:
        """``{link name: (K,) bool array, True where the link fails}``."""
        if tol == DEFAULT_TOL and self._checked is not None:
            return self._checked
        if tol == DEFAULT_TOL and self._checker is not None:
            out = self._checker()
        else:
            out = {}
            for ch in self.chains:
                for lo, hi, strict, _ in ch.links():
                    out[self.link_name(lo, hi, strict)] = self._link_bad(ch, lo, hi, tol)
        if tol == DEFAULT_TOL:
            self._checked = out
        return out

    def link_name(self, lo: str, hi: str, strict: bool = False) -> str:
        return f"{lo} {'<' if strict else '≤'} {hi}"

    def violations(self, tol: float = DEFAULT_TOL) -> list[Violation]:
        """Every inequality of the proof that fails, with its round and both sides.

        A step whose chain needs an assumption that fails on these data is listed too (its
        ``needs`` names those assumptions: not applicable, not a contradiction of the theorem);
        a violation with empty ``needs`` is a step the theorem claims on these data, and false."""
        out: list[Violation] = []
        mat = self.check_matrix(tol)
        for ch in self.chains:
            for i, (lo, hi, strict, _) in enumerate(ch.links()):
                name = self.link_name(lo, hi, strict)
                if not mat[name].any():  # one pass that stops at the first failure (most proofs have none)
                    continue
                bad = np.flatnonzero(mat[name])
                if bad.size:
                    a, b = self.series[lo], self.series[hi]
                    needs = tuple(x.name for x in self.failed_needs(ch, i))
                    for k in bad:
                        out.append(Violation(int(self.state_rounds[k]), name, float(a[k]), float(b[k]), ch.name,
                                             needs))
        out.sort(key=lambda v: (v.round, v.chain, v.name))
        return out

    def checks_at(self, t: int, tol: float = DEFAULT_TOL) -> list[dict[str, Any]]:
        """The ledger at round ``t``: every link with both sides and whether it holds."""
        k = self.index(t)
        rows = []
        mat = self.check_matrix(tol)
        for ch in self.chains:
            for i, (lo, hi, strict, reason) in enumerate(ch.links()):
                needs = [x.name for x in self.failed_needs(ch, i)]
                a, b = float(self.series[lo][k]), float(self.series[hi][k])
                bad = bool(mat[self.link_name(lo, hi, strict)][k])
                defined = not (np.isnan(a) or np.isnan(b) or needs)
                rows.append({"chain": ch.name, "lhs_key": lo, "rhs_key": hi, "lhs": a, "rhs": b,
                             "strict": strict, "log": ch.log, "reason": reason, "needs_failed": needs,
                             "holds": (not bad) if defined else None})
        return rows

    def failed_needs(self, chain: Chain, link: int | None = None) -> list[Assumption]:
        """The failed assumptions that ``chain`` (its link number ``link``) relies on; empty: the step is
        claimed on these data."""
        names = chain.needs_of(link)
        return [a for a in self.assumptions if not a.holds and a.name in names]

    @property
    def failed_assumptions(self) -> list[Assumption]:
        return [a for a in self.assumptions if not a.holds]

    @property
    def applies(self) -> bool:
        """True when every assumption of the theorem holds on this data."""
        return not self.failed_assumptions

    def __repr__(self) -> str:
        bound = "None" if self.mistake_bound is None else f"{self.mistake_bound:.6g}"
        return (f"Proof({self.name!r}, states={self.K}, mistake_bound={bound}, "
                f"failed_assumptions={[a.name for a in self.failed_assumptions]})")
