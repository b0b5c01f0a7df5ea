r"""The proof object: a potential, its proven lower and upper bounds, checked at every round.

A :class:`Proof` reads a finished run and holds, as columns indexed by *state*
(the learner's state before round ``t``; a new state starts only where the
learner's state changes), every quantity of the proof's sandwich. A
:class:`Chain` lists series that the theorem says are ordered
(``lower ≤ potential ≤ upper``); :meth:`Proof.violations` checks every adjacent
pair at every state. :class:`Assumption` records what the theorem needs of the
data and on which rounds that fails; ``mistake_bound`` is ``None`` whenever an
assumption fails, never a number the theorem does not give.

What was checked is decided here, once: the *record*. Each link of each chain in each state is a
:class:`Step` with both values, the claimed relation, the reason, the assumptions it needs and its
verdict (:data:`VERDICTS`): ``holds``; ``tol`` (holds only within the tolerance); ``fails`` (a step
the proof claims on these data is false: a defect); ``na`` (an assumption it needs fails on these
data: not claimed, whatever its numbers say); ``undefined`` (a side is not a number, with the
proof's reason); ``assumption`` (the chain restates an assumption, false here). :meth:`Proof.steps`
gives one state's steps, :meth:`Proof.verdicts` a link's verdict in every state (an int8 array, no
Python object per state) and :meth:`Proof.summary` the whole run, per link. A transcript, a ledger,
a description only word that record.

>>> import numpy as np
>>> p = Proof(name="toy", theorem="M \\le 2", T=3,
...           state_rounds=np.array([0, 2]), n_mistakes=np.array([0, 1]),
...           series={"lo": np.array([0.0, 1.0]), "phi": np.array([0.0, 0.5])},
...           chains=(Chain("toy", ("lo", "phi")),), mistake_bound=2.0)
>>> [(v.round, v.name) for v in p.violations()]
[(2, 'lo ≤ phi')]
>>> p.at(1)["phi"], p.at(3)["phi"]
(0.0, 0.5)
>>> [(st.name, st.verdict, st.lhs, st.rhs) for st in p.steps_at(3)]
[('lo ≤ phi', 'fails', 1.0, 0.5), ('M ≤ mistake_bound', 'holds', 1.0, 2.0)]
>>> s = p.summary().links[0]
>>> s.count("holds"), s.count("fails"), s.first_failing
(1, 1, (2,))
"""
from __future__ import annotations

from collections.abc import Callable, MutableMapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from .._kernels.checks import link_bad

__all__ = ["Chain", "Assumption", "Violation", "Proof", "Series", "DEFAULT_TOL", "Link", "Step", "LinkSummary",
           "Summary", "VERDICTS", "NUMBERS"]

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


#: A step's verdict in one state (its index is the code :meth:`Proof.verdicts` returns):
#: ``holds``; ``tol`` (holds only within the check's tolerance); ``fails`` (a step the proof claims on these
#: data is false: a real defect); ``undefined`` (a side is not a number in this state); ``na`` (an assumption
#: the step needs fails on these data: not claimed here); ``assumption`` (the chain restates an assumption of
#: the theorem, and it is false in this state).
VERDICTS = ("holds", "tol", "fails", "undefined", "na", "assumption")
HOLDS, TOL, FAILS, UNDEFINED, NA, ASSUMPTION = range(len(VERDICTS))
#: What a step's two numbers say about its claimed relation, whatever its assumptions (codes 0–3 as
#: :data:`VERDICTS`): ``hold`` (exactly), ``tol`` (within the tolerance only), ``fail``, ``undefined``.
NUMBERS = ("hold", "tol", "fail", "undefined")


@dataclass(frozen=True)
class Link:
    """One inequality of a chain, the same in every state: ``lo ≤ hi`` (``<`` when ``strict``).

    ``needs``: the assumptions of the theorem the step relies on, as the chain declares them (the one
    the chain restates left out); ``failed``: those that fail on these data (non-empty: the step is not
    applicable, ``na``, in every state); ``restates``: the assumption the chain is the test of, or "".
    ``name``: ``"lo ≤ hi"``, as :meth:`Proof.check_matrix` and :meth:`Proof.violations` name it."""

    chain: str
    index: int
    lo: str
    hi: str
    lo_label: str
    hi_label: str
    strict: bool
    log: bool
    reason: str
    needs: tuple[str, ...]
    failed: tuple[str, ...]
    restates: str
    name: str

    @property
    def relation(self) -> str:
        """The claimed relation: ``"<"`` or ``"≤"``."""
        return "<" if self.strict else "≤"


@dataclass(frozen=True)
class Step(Link):
    """A link in one state: the record of what was checked there (see :data:`VERDICTS`).

    ``state``: the state's index; ``round``: the 0-based round t it is in force before (so the state
    after round t in a reader's 1-based count); ``lhs``/``rhs``: both values (NaN: not a number here;
    a log chain's values are natural logs); ``numbers``: what the values say (:data:`NUMBERS`), kept for
    a step that is ``na``; ``why``: why a side is not a number, in the proof's words ("" if it is one)."""

    state: int
    round: int
    lhs: float
    rhs: float
    verdict: str
    numbers: str
    why: str

    @property
    def holds(self) -> bool:
        """The step is claimed here and true (exactly, or within the tolerance)."""
        return self.verdict in ("holds", "tol")


@dataclass(frozen=True)
class LinkSummary:
    """One link over the whole run: in how many states each verdict (:data:`VERDICTS`) and each reading
    of its numbers (:data:`NUMBERS`) occurred; the rounds of the first states whose numbers fail the
    claim and of the first where a side is not a number; why it is not a number (the proof's words)."""

    link: Link
    states: int
    verdicts: tuple[int, ...]
    numbers: tuple[int, ...]
    first_failing: tuple[int, ...]
    first_undefined: tuple[int, ...]
    why: str

    def count(self, verdict: str) -> int:
        """States with this verdict (one of :data:`VERDICTS`)."""
        return self.verdicts[VERDICTS.index(verdict)]

    def count_numbers(self, reading: str) -> int:
        """States whose numbers read so (one of :data:`NUMBERS`)."""
        return self.numbers[NUMBERS.index(reading)]

    @property
    def evaluated(self) -> int:
        """States where both sides are numbers."""
        return self.states - self.count_numbers("undefined")


@dataclass(frozen=True)
class Summary:
    """The record over the whole run: one :class:`LinkSummary` per link, in the chains' order."""

    states: int
    links: tuple[LinkSummary, ...]

    def count(self, verdict: str) -> int:
        """Checks (a link in a state) with this verdict, over every link."""
        return sum(s.count(verdict) for s in self.links)

    def having(self, verdict: str) -> tuple[LinkSummary, ...]:
        """The links with this verdict in at least one state."""
        return tuple(s for s in self.links if s.count(verdict))

    @property
    def checks(self) -> int:
        return self.states * len(self.links)

    @property
    def all_hold(self) -> bool:
        """Every link was evaluated in every state and held there (exactly or within the tolerance)."""
        return self.count("holds") + self.count("tol") == self.checks

    @property
    def defect(self) -> bool:
        """Some step the proof claims on these data is false: a defect to report."""
        return self.count("fails") > 0


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
    undefined : dict
        ``{series name: why}``: why the series is NaN where it is (e.g. "w = 0: the cosine is 0/0"),
        a plain-text clause the record's :class:`Step` carries as ``why``; or a list of ``(why, states)``
        pairs (a bool mask over the states, or a callable giving it) when the reason differs by state.
    event : str
        What the proof counts in ``n_mistakes``: ``"mistake"``, or ``"update"`` (the margin Perceptron
        counts its updates, margin mistakes included).
    at_update : tuple of str
        Series whose value in a state is that of the update which opened it (the mistake on round
        ``state_rounds[k]``, counted from 1), not of the rounds since: e.g. ``ln Z_t`` of the exponentiated
        update. A claim on one names that round ("After 5 rounds, at the last mistake (round 3): …").
    """

    def __init__(self, *, name: str, theorem: str, T: int, state_rounds: np.ndarray, n_mistakes: np.ndarray,
                 series: dict[str, np.ndarray], chains: tuple[Chain, ...] = (),
                 assumptions: tuple[Assumption, ...] = (), mistake_bound: float | None = None,
                 constants: dict[str, Any] | None = None, labels: dict[str, str] | None = None,
                 notes: tuple[str, ...] = (), bound_tol: float = DEFAULT_TOL, bounded: str | None = None,
                 checker: Callable[[], dict[str, np.ndarray]] | None = None, bound_strict: bool = False,
                 indices: dict[str, str] | None = None, undefined: dict[str, str] | None = None,
                 event: str = "mistake", at_update: tuple[str, ...] = ()):
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
        #: why a series is NaN where it is: {series name: plain text, or [(text, states), …]}
        self.undefined = dict(undefined or {})
        #: what n_mistakes counts: "mistake" or "update"
        self.event = event
        #: series that hold, in each state, the value of the update that opened it
        self.at_update = frozenset(at_update)
        unknown = self.at_update - set(self.series)
        if unknown:
            raise ValueError(f"at_update names unknown series {sorted(unknown)}")
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
            chains = chains + (Chain(f"{event} bound", (self.bounded, "mistake_bound"), scale=1.0,
                                     strict=(self.bound_strict,), reasons=("the sandwich closes",)),)
        for ch in chains:
            for key in ch.keys:
                if key not in self.series:
                    raise ValueError(f"chain {ch.name!r} names unknown series {key!r}")
            for need in ch.needs_of():
                if need not in {a.name for a in self.assumptions}:
                    raise ValueError(f"chain {ch.name!r} needs unknown assumption {need!r}")
        self.chains = chains
        names = [self.link_name(lo, hi, st) for ch in chains for lo, hi, st, _ in ch.links()]
        if len(set(names)) != len(names):
            raise ValueError(f"two links share a name: {sorted(n for n in names if names.count(n) > 1)}")
        self.bound_tol = bound_tol
        self._links: tuple[Link, ...] | None = None
        self._numbers: dict[str, np.ndarray] = {}   # the record, per link (at DEFAULT_TOL), made when asked for
        self._verdicts: dict[str, np.ndarray] = {}
        self._why_masks: dict[tuple[str, int], np.ndarray] = {}
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
        a violation with empty ``needs`` is a step the theorem claims on these data, and false.
        (The record, :meth:`steps` and :meth:`summary`, says the same per step with its verdict.)"""
        out: list[Violation] = []
        mat = self.check_matrix(tol)
        for ch in self.chains:
            for i, (lo, hi, strict, _) in enumerate(ch.links()):
                name = self.link_name(lo, hi, strict)
                if not mat[name].any():  # one pass that stops at the first failure (most proofs have none)
                    continue
                bad = np.flatnonzero(mat[name])
                a, b = self.series[lo], self.series[hi]
                needs = tuple(x.name for x in self.failed_needs(ch, i))
                for k in bad:
                    out.append(Violation(int(self.state_rounds[k]), name, float(a[k]), float(b[k]), ch.name, needs))
        out.sort(key=lambda v: (v.round, v.chain, v.name))
        return out

    def checks_at(self, t: int, tol: float = DEFAULT_TOL) -> list[dict[str, Any]]:
        """The ledger at round ``t``, from the record (:meth:`steps_at`): every link with both sides, its
        verdict, and ``holds`` (True: holds, within the tolerance too; False: fails, or the restated
        assumption is false; None: not applicable or undefined)."""
        if tol != DEFAULT_TOL:
            raise ValueError("the record is decided at the proof's tolerance (DEFAULT_TOL)")
        return [{"chain": st.chain, "lhs_key": st.lo, "rhs_key": st.hi, "lhs": st.lhs, "rhs": st.rhs,
                 "strict": st.strict, "log": st.log, "reason": st.reason, "needs_failed": list(st.failed),
                 "verdict": st.verdict,
                 "holds": None if st.verdict in ("na", "undefined") else st.verdict in ("holds", "tol")}
                for st in self.steps_at(t)]

    # ------------------------------------------------------------------ the record
    @property
    def links(self) -> tuple[Link, ...]:
        """Every link of every chain, in order, with what it claims and needs (:class:`Link`)."""
        if self._links is None:
            out = []
            for ch in self.chains:
                for i, (lo, hi, strict, reason) in enumerate(ch.links()):
                    needs = tuple(n for n in ch.needs_of(i) if n != ch.restates)
                    failed = tuple(a.name for a in self.failed_needs(ch, i) if a.name != ch.restates)
                    out.append(Link(ch.name, i, lo, hi, self.label(lo), self.label(hi), bool(strict), ch.log, reason,
                                    needs, failed, ch.restates, self.link_name(lo, hi, strict)))
            self._links = tuple(out)
        return self._links

    def link(self, name: str) -> Link:
        """The link named ``name`` (``"lo ≤ hi"``)."""
        for lk in self.links:
            if lk.name == name:
                return lk
        raise KeyError(f"no link {name!r} in proof {self.name!r}")

    def label(self, key: str) -> str:
        """A series' LaTeX label (``\\mathrm{key}`` when the proof gives none)."""
        return self.labels.get(key) or r"\mathrm{" + key.replace("_", r"\_") + "}"

    def numbers(self, name: str) -> np.ndarray:
        """What link ``name``'s two values say about its claim in every state, whatever its assumptions:
        an int8 array of :data:`NUMBERS` codes (0 hold, 1 tol, 2 fail, 3 undefined). "fail" is the
        proof's own check (:meth:`check_matrix`); "tol" where that check passes but the numbers are
        not ordered as claimed (equal on a strict link, or the wrong way by less than the tolerance)."""
        out = self._numbers.get(name)
        if out is None:
            lk = self.link(name)
            a, b = self.series[lk.lo], self.series[lk.hi]
            with np.errstate(invalid="ignore"):
                exact = (a < b) if lk.strict else (a <= b)
                undefined = np.isnan(a) | np.isnan(b)
            out = np.zeros(self.K, dtype=np.int8)
            out[~exact] = TOL
            out[self.check_matrix()[name]] = FAILS
            out[undefined] = UNDEFINED
            out.flags.writeable = False
            self._numbers[name] = out
        return out

    def verdicts(self, name: str) -> np.ndarray:
        """Link ``name``'s verdict in every state: an int8 array of :data:`VERDICTS` codes. ``na`` in every
        state when an assumption it needs fails on these data; otherwise its numbers' reading, where a
        false restated assumption is ``assumption``, not ``fails``."""
        out = self._verdicts.get(name)
        if out is None:
            lk = self.link(name)
            num = self.numbers(name)
            if lk.failed:
                out = np.full(self.K, NA, dtype=np.int8)
            elif lk.restates:
                out = np.where(num == FAILS, ASSUMPTION, num).astype(np.int8)
            else:
                out = num
            out.flags.writeable = False
            self._verdicts[name] = out
        return out

    def states_with(self, name: str, verdict: str) -> np.ndarray:
        """The states (indices) in which link ``name`` has this verdict (one of :data:`VERDICTS`)."""
        return np.flatnonzero(self.verdicts(name) == VERDICTS.index(verdict))

    def why_undefined(self, link: Link, k: int | None = None) -> str:
        """Why a side of ``link`` is not a number (in state ``k``; None: in any state), in the proof's words.
        A series' reason (``undefined``) is a text, or a list of ``(text, states)`` pairs (a (K,) bool mask,
        or a zero-argument callable giving it) when it is NaN for different reasons in different states."""
        whys: list[str] = []
        for key in (link.lo, link.hi):
            v = self.series[key]
            nan = bool(np.isnan(v[k])) if k is not None else np.isnan(v)   # one state: no pass over the run
            if not (nan if k is not None else nan.any()):
                continue
            given = self.undefined.get(key) or ()
            for j, (text, where) in enumerate([(given, None)] if isinstance(given, str) else given):
                if where is not None:
                    mask = self._why_masks.get((key, j))
                    if mask is None:
                        mask = self._why_masks[(key, j)] = np.asarray(where() if callable(where) else where, dtype=bool)
                    if not (mask[k] if k is not None else (mask & nan).any()):
                        continue
                if text and text not in whys:
                    whys.append(text)
        return "; ".join(whys)

    def steps(self, k: int) -> list[Step]:
        """The record of state ``k`` (an index, 0 … K−1): every link as a :class:`Step`."""
        k = int(k)
        if not 0 <= k < self.K:
            raise IndexError(f"state {k} is outside 0..{self.K - 1}")
        out = []
        for lk in self.links:
            code = int(self.verdicts(lk.name)[k])
            num = int(self.numbers(lk.name)[k])
            out.append(Step(**vars(lk), state=k, round=int(self.state_rounds[k]),
                            lhs=float(self.series[lk.lo][k]), rhs=float(self.series[lk.hi][k]),
                            verdict=VERDICTS[code], numbers=NUMBERS[num],
                            why=self.why_undefined(lk, k) if num == UNDEFINED else ""))
        return out

    def steps_at(self, t: int) -> list[Step]:
        """The record of the state in force before round ``t`` (0 ≤ t ≤ T)."""
        return self.steps(self.index(t))

    def summary(self, first: int = 10) -> Summary:
        """The whole run's record per link (counts per verdict and per reading of the numbers, the first
        ``first`` failing and undefined states' rounds), from the check matrix in a few array passes."""
        out = []
        for lk in self.links:
            v = self.verdicts(lk.name)
            num = self.numbers(lk.name)
            vc = np.bincount(v, minlength=len(VERDICTS))
            nc = np.bincount(num, minlength=len(NUMBERS))
            fail = np.flatnonzero(num == FAILS)[:first]
            und = np.flatnonzero(num == UNDEFINED)[:first]
            out.append(LinkSummary(lk, self.K, tuple(int(x) for x in vc), tuple(int(x) for x in nc),
                                   tuple(int(r) for r in self.state_rounds[fail]),
                                   tuple(int(r) for r in self.state_rounds[und]),
                                   self.why_undefined(lk) if und.size else ""))
        return Summary(self.K, tuple(out))

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
