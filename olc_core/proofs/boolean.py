r"""Boolean concepts (conjunctions, decision lists) and the mistake-bound proofs of [004] §2.1–2.2.

Literals over n bits are numbered ``j = 0 … 2n-1`` in the order of the notes'
initial hypothesis ``x_1 ¬x_1 x_2 ¬x_2 … x_n ¬x_n``: ``j = 2(i-1)`` is ``x_i``
and ``j = 2(i-1)+1`` is ``¬x_i``; a signed 1-based integer ``+i`` / ``-i`` names
the same literal in user input. Decision-list rules are numbered ``r = 0 … 4n+1``
in the notes' order ``x_1→1, x_1→0, ¬x_1→1, ¬x_1→0, …, ¬x_n→0, True→1, True→0``:
rule ``r`` has condition literal ``j = r // 2`` (``j = 2n`` is ``True``) and
output ``1 − r % 2``.

Conjunctions (elimination) — :func:`conjunction_proof`
    ``h`` = the literals true in every positive example seen so far (this is
    what "start with all 2n literals, on a false negative remove the literals
    false in x" computes). Invariant: ``c ⊆ h`` for every conjunction c that is
    true on the positive examples. Sandwich, with ``M⁺`` the false negatives::

        |c| ≤ |h_t| ≤ 2n − n·[M⁺ ≥ 1] − (M⁺ − 1)₊

    (``|h| = 2n`` until the first false negative, which leaves exactly the n
    literals true in x; every later false negative removes ≥ 1 literal). When the
    labels are a conjunction's there is no false positive (``h ⊇ c`` and
    ``h(x) = 1`` give ``c(x) = 1``), so ``M = M⁺``; with ``M ≥ 1`` the sandwich
    gives ``M ≤ n + 1 − |c|`` (0 if c is unsatisfiable: then there are no
    positive examples and no mistake at all), and ``M ≤ n + 1`` [004].

Decision lists (the level algorithm) — :func:`decision_list_proof`
    ``Φ_t = Σ_r (level_r − 1)``. Every mistake moves ≥ 1 rule down one level (the
    rule the prediction was read from fired at the predicting level and was
    wrong), so ``M ≤ Φ_t``. With a target list of ``L`` rules **counting the
    final True → B_L** (Definition 2 of [004]: ``A_1→B_1, …, True→B_l`` has
    ``L = l``): target rule i never goes below level i (it moves only from a level
    j where it fires and is wrong; then an earlier target rule k < i fires and
    sits at level ≤ k, so j ≤ k ≤ i−1), and no rule goes below level L+1 (rules
    move only from the predicting level, which is ≤ the level of True→B_L ≤ L).
    With ``cap_r`` = the smallest position of rule r in the target, or L+1::

        M ≤ Φ_t ≤ Σ_r (cap_r − 1) ≤ (4n+2)·L ≤ (4n+2)(L+1)

    The last term is the notes' theorem; the notes say "each rule will fall at
    most L+1 levels", which is exact when L counts only the A_i → B_i rules and
    one level loose when L counts all rules (our convention): either way the
    bound holds.

>>> import numpy as np
>>> c = Conjunction.parse(["x1", "¬x3"], 3); str(c), c.mask.astype(int).tolist()
('x1 ∧ ¬x3', [1, 0, 0, 0, 0, 1])
>>> c(np.array([[1, 0, 0], [1, 1, 1]])).tolist()
[1, 0]
>>> dl = DecisionList.parse([("x1", 0), ("¬x2", 1), (True, 0)], 2); str(dl), dl.L
('x1→0, ¬x2→1, True→0', 3)
>>> dl(np.array([[0, 1], [0, 0], [1, 0]])).tolist()
[0, 1, 0]
>>> fit = consistent_decision_list(np.array([[0, 1], [0, 0], [1, 0]]), np.array([0, 1, 0]))
>>> fit.consistent, str(fit.rules)
(True, 'x1→0, x2→0, True→1')
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import numpy as np

from .base import Assumption, Chain, Proof
from .._support.words import agree, count

__all__ = ["Conjunction", "DecisionList", "literal_name", "rule_name", "rule_names", "literal_truth",
           "most_specific_conjunction", "consistent_decision_list", "ConjunctionFit", "DecisionListFit",
           "resolve_conjunction", "resolve_decision_list", "conjunction_proof", "decision_list_proof"]


# --------------------------------------------------------------------------- literals and rules
def literal_name(j: int, n: int | None = None) -> str:
    """``x_i`` / ``¬x_i`` for literal index j (``True`` for j = 2n)."""
    j = int(j)
    if n is not None and j == 2 * n:
        return "True"
    return f"{'¬' if j % 2 else ''}x{j // 2 + 1}"


def rule_name(r: int, n: int) -> str:
    """The rule's text, e.g. ``x1→1``, ``¬x2→0``, ``True→0``."""
    return f"{literal_name(int(r) // 2, n)}→{1 - int(r) % 2}"


def rule_names(n: int) -> list[str]:
    """Names of the 4n+2 rules in their canonical order."""
    return [rule_name(r, n) for r in range(4 * n + 2)]


def literal_truth(x: np.ndarray) -> np.ndarray:
    """The 2n+1 truth values ``x_1, ¬x_1, …, x_n, ¬x_n, True`` of one example (bool)."""
    b = np.asarray(x) != 0
    out = np.ones(2 * b.shape[0] + 1, dtype=bool)
    out[0:-1:2] = b
    out[1:-1:2] = ~b
    return out


_LIT = re.compile(r"^(¬|~|!|-|not\s*)?\s*x_?\{?(\d+)\}?$", re.IGNORECASE)
_TRUE = {"true", "t", "else", "⊤", "otherwise", "default"}


def _signed(j: int) -> int:
    return (j // 2 + 1) * (-1 if j % 2 else 1)


def _parse_literal(v: Any, n: int, where: str, *, allow_true: bool = False) -> int:
    """Literal index j in 0 … 2n-1 (2n for True when ``allow_true``)."""
    if allow_true and (v is None or v is True or (isinstance(v, str) and v.strip().lower() in _TRUE)):
        return 2 * n
    if isinstance(v, (bool, np.bool_)):
        raise ValueError(f"{where}: a literal must be ±i (1 ≤ i ≤ {n}) or a name like 'x1', '¬x2'; got {v!r}")
    if isinstance(v, (int, np.integer)):
        i = int(v)
        if i == 0 or abs(i) > n:
            raise ValueError(f"{where}: literal {i} is out of range; use +i for x_i and -i for ¬x_i, 1 ≤ i ≤ {n}"
                             + (" (a mask over the 2n literals must be boolean)" if i == 0 else ""))
        return 2 * (abs(i) - 1) + (1 if i < 0 else 0)
    if isinstance(v, str):
        m = _LIT.match(v.strip())
        if m:
            i = int(m.group(2))
            if not 1 <= i <= n:
                raise ValueError(f"{where}: literal {v!r} names a variable outside x1 … x{n}")
            return 2 * (i - 1) + (1 if m.group(1) else 0)
    raise ValueError(f"{where}: cannot read {v!r} as a literal; use +i / -i (1 ≤ i ≤ {n}) or 'x1', '¬x2'"
                     + (", or True for the final rule" if allow_true else ""))


def _parse_bit(v: Any, where: str) -> int:
    if isinstance(v, str):
        s = v.strip().lower()
        table = {"0": 0, "1": 1, "true": 1, "false": 0, "t": 1, "f": 0}
        if s in table:
            return table[s]
    elif isinstance(v, (bool, np.bool_, int, np.integer)) and int(v) in (0, 1):
        return int(v)
    elif isinstance(v, (float, np.floating)) and float(v) in (0.0, 1.0):
        return int(v)
    raise ValueError(f"{where}: a rule's output must be 0 or 1 (or True/False); got {v!r}")


def _check_n(n: Any) -> int:
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 1:
        raise ValueError(f"n must be an integer ≥ 1 (got {n!r})")
    return int(n)


def _bits(X: Any, n: int, where: str) -> np.ndarray:
    A = np.asarray(X)
    if A.ndim == 1:
        A = A[None, :]
    if A.ndim != 2 or A.shape[1] != n:
        raise ValueError(f"{where}: examples must have {n} bits; got shape {np.shape(X)}")
    return A != 0


@dataclass(frozen=True)
class Conjunction:
    """A conjunction of literals over n bits; ``literals`` are signed 1-based (``(1, -3)`` = x1 ∧ ¬x3).

    The empty conjunction is always true; one holding x_i and ¬x_i is never true.
    """

    n: int
    literals: tuple[int, ...]

    @classmethod
    def parse(cls, value: Any, n: int, where: str = "conjunction") -> "Conjunction":
        """From a :class:`Conjunction`, a boolean mask over the 2n literals, literals ±i or names
        ('x1', '¬x3', '~x3', 'not x3'), or a string such as ``"x1 ∧ ¬x3"`` (``"True"``: empty)."""
        n = _check_n(n)
        if isinstance(value, Conjunction):
            if value.n != n:
                raise ValueError(f"{where}: the conjunction is over {value.n} bits but the examples have {n}")
            return value
        if isinstance(value, str):
            s = value.strip()
            if s.lower() in _TRUE or s in ("", "∅"):
                return cls(n, ())
            s = re.sub(r"\bnot\s+", "¬", s, flags=re.IGNORECASE)
            s = re.sub(r"([¬~!-])\s+", r"\1", s)
            value = [p for p in re.split(r"\s*(?:∧|&|\band\b|,|\*|\s)\s*", s) if p]
        arr = np.asarray(value) if not isinstance(value, (list, tuple)) else None
        if arr is not None and arr.dtype == bool:
            if arr.shape != (2 * n,):
                raise ValueError(f"{where}: a literal mask must have length 2n = {2 * n}; got shape {arr.shape}")
            return cls.from_mask(arr)
        try:
            items = list(value)
        except TypeError:
            items = [value]
        if items and all(isinstance(v, (bool, np.bool_)) for v in items):
            if len(items) != 2 * n:
                raise ValueError(f"{where}: a literal mask must have length 2n = {2 * n}; got {len(items)}")
            return cls.from_mask(np.array(items, dtype=bool))
        mask = np.zeros(2 * n, dtype=bool)
        for v in items:
            mask[_parse_literal(v.item() if isinstance(v, np.generic) else v, n, where)] = True
        return cls.from_mask(mask)

    @classmethod
    def from_mask(cls, mask: np.ndarray) -> "Conjunction":
        m = np.asarray(mask, dtype=bool)
        return cls(m.shape[0] // 2, tuple(_signed(int(j)) for j in np.flatnonzero(m)))

    @property
    def mask(self) -> np.ndarray:
        m = np.zeros(2 * self.n, dtype=bool)
        for s in self.literals:
            m[2 * (abs(s) - 1) + (1 if s < 0 else 0)] = True
        return m

    @property
    def size(self) -> int:
        return len(self.literals)

    @property
    def satisfiable(self) -> bool:
        m = self.mask
        return not bool((m[0::2] & m[1::2]).any())

    def __call__(self, X: Any) -> np.ndarray:
        """Labels ``c(x) ∈ {0, 1}`` (int8) of the rows of X."""
        B = _bits(X, self.n, "conjunction")
        out = np.ones(B.shape[0], dtype=bool)
        for s in self.literals:
            col = B[:, abs(s) - 1]
            out &= col if s > 0 else ~col
        return out.astype(np.int8)

    def __str__(self) -> str:
        return " ∧ ".join(literal_name(2 * (abs(s) - 1) + (s < 0)) for s in self.literals) or "True"


@dataclass(frozen=True)
class DecisionList:
    """A decision list ``A_1→B_1, …, A_{L-1}→B_{L-1}, True→B_L`` over n bits.

    ``rules``: pairs ``(literal, output)`` with the literal signed 1-based (``None``
    for True, only in the last rule). ``L = len(rules)`` counts the final True rule.
    """

    n: int
    rules: tuple[tuple[int | None, int], ...]

    @classmethod
    def parse(cls, value: Any, n: int, where: str = "decision list") -> "DecisionList":
        """From a :class:`DecisionList`, pairs ``(literal, output)`` (literal ±i, 'x1', '¬x2', or
        True/None/'else' for the last rule) or strings ``"x1 -> 0"``, or one string
        ``"x1→0, ¬x2→1, True→0"``. The list must end with a True rule, and only there."""
        n = _check_n(n)
        if isinstance(value, DecisionList):
            if value.n != n:
                raise ValueError(f"{where}: the list is over {value.n} bits but the examples have {n}")
            return value
        if isinstance(value, str):
            value = [p for p in re.split(r"\s*[,;]\s*", value.strip()) if p]
        try:
            items = list(value)
        except TypeError:
            raise ValueError(f"{where}: give a list of rules (literal, output) ending with (True, output)") from None
        if not items:
            raise ValueError(f"{where}: a decision list needs at least the final rule (True, output)")
        rules: list[tuple[int | None, int]] = []
        for k, item in enumerate(items):
            if isinstance(item, str):
                text = re.sub(r"^(?:else|otherwise)\s+", "", item.strip(), flags=re.IGNORECASE)
                parts = re.split(r"\s*(?:->|→|=>|⇒|:)\s*", text)
                if len(parts) == 1 and k == len(items) - 1 and text != item.strip():
                    parts = ["True", text]  # "…, else 0"
                if len(parts) != 2:
                    raise ValueError(f"{where}: cannot read rule {item!r}; write it like 'x1 -> 0' or 'True -> 1'")
                cond, out = parts
            else:
                try:
                    cond, out = item
                except (TypeError, ValueError):
                    raise ValueError(f"{where}: rule {k + 1} must be a pair (literal, output); got {item!r}") from None
            j = _parse_literal(cond.item() if isinstance(cond, np.generic) else cond, n, where, allow_true=True)
            b = _parse_bit(out, where)
            last = k == len(items) - 1
            if j == 2 * n and not last:
                raise ValueError(f"{where}: rule {k + 1} is True → {b} but is not the last rule "
                                 "(the rules after it could never fire)")
            if last and j != 2 * n:
                raise ValueError(f"{where}: a decision list must end with a rule True → B (got {item!r} last)")
            rules.append((None if j == 2 * n else _signed(j), b))
        return cls(n, tuple(rules))

    @property
    def L(self) -> int:
        """Number of rules, the final True → B_L included."""
        return len(self.rules)

    @property
    def conditions(self) -> np.ndarray:
        """Literal index of each rule's condition (2n for True)."""
        return np.array([2 * self.n if s is None else 2 * (abs(s) - 1) + (s < 0) for s, _ in self.rules],
                        dtype=np.int64)

    @property
    def outputs(self) -> np.ndarray:
        return np.array([b for _, b in self.rules], dtype=np.int8)

    @property
    def rule_indices(self) -> np.ndarray:
        """Each rule's index among the learner's 4n+2 rules (``2j + (1 − B)``)."""
        return 2 * self.conditions + (1 - self.outputs.astype(np.int64))

    def __call__(self, X: Any) -> np.ndarray:
        """Labels (int8): the output of the first rule whose condition holds."""
        B = _bits(X, self.n, "decision list")
        out = np.zeros(B.shape[0], dtype=np.int8)
        todo = np.ones(B.shape[0], dtype=bool)
        for s, b in self.rules:
            fires = todo.copy() if s is None else todo & (B[:, abs(s) - 1] if s > 0 else ~B[:, abs(s) - 1])
            out[fires] = b
            todo &= ~fires
        return out

    def __str__(self) -> str:
        return ", ".join(f"{'True' if s is None else literal_name(2 * (abs(s) - 1) + (s < 0))}→{b}"
                         for s, b in self.rules)


# --------------------------------------------------------------------------- comparators found from the data
@dataclass(frozen=True)
class ConjunctionFit:
    consistent: bool
    conjunction: Conjunction     # the most specific conjunction true on every positive example
    bad_rounds: np.ndarray       # negative rounds it (hence every conjunction true on the positives) labels 1
    method: str = ("most specific consistent conjunction: the literals true in every positive example "
                   "(every consistent conjunction is a subset of it)")


def most_specific_conjunction(X: np.ndarray, y: np.ndarray) -> ConjunctionFit:
    """The literals true in every positive example, and the negative rounds it labels 1.

    Any conjunction labelling every positive example 1 is a subset of these
    literals, so labels every example this one labels 1 as 1 too: when a negative
    example satisfies it, no conjunction is consistent, and those rounds say why.
    """
    B = np.asarray(X) != 0
    n = B.shape[1]
    pos = np.asarray(y) != 0
    mask = np.ones(2 * n, dtype=bool)
    if pos.any():
        allp = B[pos].all(axis=0)
        nonep = ~B[pos].any(axis=0)
        mask[0::2] = allp
        mask[1::2] = nonep
    c = Conjunction.from_mask(mask)
    bad = np.flatnonzero((c(B) == 1) & ~pos).astype(np.int64)
    return ConjunctionFit(bad.size == 0, c, bad)


@dataclass(frozen=True)
class DecisionListFit:
    consistent: bool
    rules: DecisionList | None
    certificate_rounds: np.ndarray  # when inconsistent: rounds no decision list labels all correctly
    detail: str = ""
    method: str = ("Rivest's greedy algorithm: repeatedly add a rule literal → b whose literal holds on some "
                   "remaining examples, all labelled b (the one covering most of them; ties: lowest rule "
                   "index), drop those examples, and end with True → b as soon as the rest share label b")


def _unique_rows(B: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Distinct rows of a bool matrix and each row's index among them (bits packed into uint64 words)."""
    T, n = B.shape
    P = np.packbits(B, axis=1)
    w = -(-P.shape[1] // 8)
    W = np.zeros((T, 8 * w), dtype=np.uint8)
    W[:, : P.shape[1]] = P
    words = W.view(np.uint64)  # (T, w)
    if w == 1:
        keys, first, inv = np.unique(words[:, 0], return_index=True, return_inverse=True)
        return B[first], inv.reshape(-1)
    order = np.lexsort(words.T[::-1])
    s = words[order]
    new = np.ones(T, dtype=bool)
    new[1:] = (s[1:] != s[:-1]).any(axis=1)
    gid = np.cumsum(new) - 1
    inv = np.empty(T, dtype=np.int64)
    inv[order] = gid
    return B[order[new]], inv


def consistent_decision_list(X: np.ndarray, y: np.ndarray) -> DecisionListFit:
    """A decision list consistent with 0/1 data (Rivest's greedy algorithm), or a certificate that none is.

    Greedy never gets stuck when some list c is consistent: on the remaining
    examples S, the first rule of c whose literal holds on some x ∈ S labels all of
    them alike (earlier rules of c hold on none of S), so it is a valid pick (and
    if it is c's True rule, S is pure). So when it is stuck, S itself admits no
    decision list: the certificate is S (or, if the data hold one example with
    both labels, just those rounds).
    """
    B = np.ascontiguousarray(np.asarray(X) != 0)
    T, n = B.shape
    lab = np.asarray(y) != 0
    U, inv = _unique_rows(B)
    m = U.shape[0]
    has1 = np.bincount(inv, weights=lab.astype(np.float64), minlength=m) > 0
    has0 = np.bincount(inv, weights=(~lab).astype(np.float64), minlength=m) > 0
    both = has1 & has0
    if both.any():
        rounds = np.flatnonzero(both[inv]).astype(np.int64)
        return DecisionListFit(False, None, rounds,
                               f"{count(both.sum(), 'example')} {agree(both.sum(), 'appears', 'appear')} with both labels (rounds "
                               f"{_rounds_text(rounds)}): "
                               "no function labels them, let alone a decision list")
    ulab = has1
    S = np.ones(m, dtype=bool)
    rules: list[tuple[int | None, int]] = []
    while True:
        ls = ulab[S]
        if ls.size == 0 or ls.all() or not ls.any():
            rules.append((None, int(ls[0]) if ls.size else 0))
            break
        Us = U[S].astype(np.int64)
        l1 = ls.astype(np.int64)
        l0 = 1 - l1
        # per literal j (x_i at 2i, ¬x_i at 2i+1): positives and negatives it covers among S
        pos_cov = np.empty(2 * n, dtype=np.int64)
        neg_cov = np.empty(2 * n, dtype=np.int64)
        pos_cov[0::2] = Us.T @ l1
        pos_cov[1::2] = (1 - Us).T @ l1
        neg_cov[0::2] = Us.T @ l0
        neg_cov[1::2] = (1 - Us).T @ l0
        cov = pos_cov + neg_cov
        pure = (cov > 0) & ((pos_cov == 0) | (neg_cov == 0))
        if not pure.any():
            rounds = np.flatnonzero(S[inv]).astype(np.int64)
            return DecisionListFit(False, None, rounds,
                                   f"the {count(S.sum(), 'distinct example')} on rounds "
                                   f"{_rounds_text(rounds)} "
                                   "contain both labels, and every literal that holds on some of them holds on "
                                   "examples of both labels: no decision list can label them all")
        score = np.where(pure, cov, -1)
        j = int(np.argmax(score))  # first maximum: lowest literal index
        b = 1 if pos_cov[j] > 0 else 0
        rules.append((_signed(j), b))
        col = U[:, j // 2] if j % 2 == 0 else ~U[:, j // 2]
        S &= ~col
    return DecisionListFit(True, DecisionList(n, tuple(rules)), np.zeros(0, dtype=np.int64))


# --------------------------------------------------------------------------- resolving the proof's target
def _rounds_text(r: np.ndarray) -> str:
    """0-based rounds as a reader counts them (1-based), as every detail text does."""
    return ", ".join(str(int(v) + 1) for v in r[:8]) + (", …" if r.size > 8 else "")


def resolve_conjunction(X: np.ndarray, y: np.ndarray, comparator: Any, algorithm: str
                        ) -> tuple[Conjunction, dict[str, Any], list[Assumption]]:
    """The target conjunction the proof uses, how it was found, and the assumptions on the labels."""
    n = X.shape[1]
    fit = most_specific_conjunction(X, y)
    assumptions: list[Assumption] = []
    info: dict[str, Any] = {}
    if comparator is not None:
        c = Conjunction.parse(comparator, n, f"{algorithm}: comparator")
        bad = np.flatnonzero(c(X) != (np.asarray(y) != 0)).astype(np.int64)
        assumptions.append(Assumption(
            "target", r"y_t = c(x_t) \text{ for every round } t \text{ (the labels are the target's)}",
            bad.size == 0, bad,
            "" if bad.size == 0 else
            f"the target {c} labels {count(bad.size, 'round')} differently from y: {_rounds_text(bad)}"))
        info.update(comparator_source="given", comparator=c)
    else:
        c = fit.conjunction
        info.update(comparator_source="most specific consistent conjunction" if fit.consistent else None,
                    comparator=c if fit.consistent else None, comparator_method=fit.method)
    assumptions.append(Assumption(
        "consistent", r"\text{some conjunction } c \text{ has } y_t = c(x_t) \text{ for every round } t",
        fit.consistent, fit.bad_rounds,
        "" if fit.consistent else (
            f"no consistent conjunction: {agree(len(fit.bad_rounds), 'round', 'rounds')} {_rounds_text(fit.bad_rounds)} "
            f"{agree(len(fit.bad_rounds), 'is labelled 0 but satisfies', 'are labelled 0 but satisfy')} "
            f"{fit.conjunction}, the literals true in every positive example, so every conjunction that labels "
            "the positives 1 labels them 1 too")))
    info.update(most_specific=fit.conjunction, consistent=fit.consistent)
    return c, info, assumptions


def resolve_decision_list(X: np.ndarray, y: np.ndarray, comparator: Any, algorithm: str
                          ) -> tuple[DecisionList | None, dict[str, Any], list[Assumption]]:
    """The target decision list the proof uses (None when there is none), how it was found, and the assumptions."""
    n = X.shape[1]
    fit = consistent_decision_list(X, y)
    assumptions: list[Assumption] = []
    info: dict[str, Any] = {}
    if comparator is not None:
        c: DecisionList | None = DecisionList.parse(comparator, n, f"{algorithm}: comparator")
        bad = np.flatnonzero(c(X) != (np.asarray(y) != 0)).astype(np.int64)
        assumptions.append(Assumption(
            "target", r"y_t = c(x_t) \text{ for every round } t \text{ (the labels are the target list's)}",
            bad.size == 0, bad,
            "" if bad.size == 0 else
            f"the target list labels {count(bad.size, 'round')} differently from y: {_rounds_text(bad)}"))
        info.update(comparator_source="given", comparator=c)
    else:
        c = fit.rules
        info.update(comparator_source="greedy (Rivest)" if fit.consistent else None, comparator=c,
                    comparator_method=fit.method)
    assumptions.append(Assumption(
        "consistent", r"\text{some decision list } c \text{ has } y_t = c(x_t) \text{ for every round } t",
        fit.consistent, fit.certificate_rounds, fit.detail))
    info.update(consistent=fit.consistent, greedy=fit.rules)
    return c, info, assumptions


# --------------------------------------------------------------------------- the proofs
CONJ_LABELS = {
    "c_size": r"|c|",
    "h_size": r"|h_t|",
    "h_upper": r"2n - n[M^+ \ge 1] - (M^+ - 1)_+",
    "c_outside": r"|c \setminus h_t|",
    "zero": "0",
    "M_fn": r"M^+",
    "M_fp": r"M^-",
    "bound_c": r"n + 1 - |c|",
    "n_plus_1": r"n + 1",
}


def _mistake_states(mistakes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    state_rounds = np.concatenate([[0], np.asarray(mistakes, dtype=np.int64) + 1])
    return state_rounds, np.arange(state_rounds.shape[0], dtype=np.int64)


def conjunction_proof(*, T: int, n: int, mistakes: np.ndarray, false_negative: np.ndarray, H: np.ndarray,
                      target: Conjunction, assumptions: list[Assumption], info: dict[str, Any]) -> Proof:
    """The elimination proof of [004] §2.1 read off a run.

    ``false_negative[k]``: whether the k-th mistake was a false negative; ``H``:
    the hypothesis (0/1 over the 2n literals) after each false negative.
    """
    state_rounds, k = _mistake_states(mistakes)
    fn = np.asarray(false_negative, dtype=bool)
    fn_count = np.concatenate([[0], np.cumsum(fn)]).astype(np.int64)
    fp_count = k - fn_count
    Hb = np.asarray(H) != 0
    cm = target.mask
    size_after = np.concatenate([[2 * n], Hb.sum(axis=1)]).astype(np.float64)
    outside_after = np.concatenate([[0], (~Hb[:, cm]).sum(axis=1)]).astype(np.float64)
    fnf = fn_count.astype(np.float64)
    csize = float(target.size)
    tight = float(n + 1 - target.size) if target.satisfiable else 0.0
    K = k.shape[0]
    series = {
        "c_size": np.full(K, csize),
        "c_outside": outside_after[fn_count],
        "zero": np.zeros(K),
        "h_size": size_after[fn_count],
        "h_upper": 2.0 * n - n * (fnf >= 1) - np.maximum(fnf - 1.0, 0.0),
        "M_fn": fnf,
        "M_fp": fp_count.astype(np.float64),
        "bound_c": np.full(K, tight),
        "n_plus_1": np.full(K, float(n + 1)),
    }
    needs = tuple(a.name for a in assumptions)  # "target" (when one is given) and "consistent"
    chains = (
        Chain("target inside h", ("c_outside", "zero"), scale=1.0, needs=needs,
              reasons=("h keeps every literal true in every positive example so far, and each literal of c is "
                       "true in every positive example",)),
        Chain("literal count |h|", ("c_size", "h_size", "h_upper"), scale=1.0,
              link_needs=(needs, ()),
              reasons=("c ⊆ h",
                       "h starts with 2n literals; the first false negative leaves the n literals true in x; "
                       "each later false negative removes at least one (h(x) = 0: some literal of h is false in x)")),
        Chain("no false positive", ("M", "M_fn"), scale=1.0, needs=("consistent",),
              reasons=("when the labels are a conjunction c's, h ⊇ c, so h(x) = 1 forces c(x) = 1: every mistake "
                       "is a false negative",)),
        Chain("mistake count", ("M_fn", "bound_c", "n_plus_1"), scale=1.0, link_needs=(needs, ()),
              reasons=("|c| ≤ |h| ≤ n − (M⁺ − 1) once M⁺ ≥ 1 (an unsatisfiable c has no positive example, "
                       "so M⁺ = 0)",
                       "|c| ≥ 0")),
    )
    constants = dict(info)
    constants.update(n=n, target=target, target_size=target.size, bound_tight=tight,
                     bound_formula=r"n + 1", false_negatives=int(fn.sum()), false_positives=int((~fn).sum()))
    notes = ("h is the most specific conjunction true on the positive examples so far (it starts with all 2n "
             "literals, so h(x) = 0 for every x until the first false negative).",
             "After a false positive (no consistent conjunction) the learner keeps predicting with h and never "
             "updates on false positives; the assumption 'consistent' fails on those rounds.")
    return Proof(name="Conjunctions by elimination", theorem=r"M \le n + 1", T=T, state_rounds=state_rounds,
                 n_mistakes=k, series=series, chains=chains, assumptions=tuple(assumptions),
                 mistake_bound=float(n + 1), constants=constants, labels=dict(CONJ_LABELS), notes=notes)


DL_LABELS = {
    "Phi": r"\Phi_t = \sum_r (\mathrm{level}_r - 1)",
    "cap_sum": r"\sum_r (\mathrm{cap}_r - 1)",
    "tight": r"(4n+2)L",
    "notes_bound": r"(4n+2)(L+1)",
    "target_excess": r"\max_i (\mathrm{level}(c_i) - i)",
    "zero": "0",
    "max_level": r"\max_r \mathrm{level}_r",
    "L_plus_1": r"L + 1",
}


def decision_list_proof(*, T: int, n: int, mistakes: np.ndarray, S: np.ndarray, target: DecisionList | None,
                        assumptions: list[Assumption], info: dict[str, Any], tie: str) -> Proof:
    """The level-algorithm proof of [004] §2.2 read off a run (``S``: levels after each mistake)."""
    state_rounds, k = _mistake_states(mistakes)
    R = 4 * n + 2
    K = k.shape[0]
    S = np.asarray(S)
    if S.shape[0]:
        phi = np.concatenate([[0], S.sum(axis=1, dtype=np.int64) - R]).astype(np.float64)
        top = np.concatenate([[1], S.max(axis=1)]).astype(np.float64)
    else:
        phi, top = np.zeros(1), np.ones(1)
    series: dict[str, np.ndarray] = {"Phi": phi, "max_level": top, "zero": np.zeros(K)}
    constants = dict(info)
    constants.update(n=n, rules=R, tie=tie, bound_formula=r"(4n+2)(L+1)",
                     L_convention="L counts every rule of the target list, the final True → B_L included "
                                  "(A_1→B_1, …, A_{L-1}→B_{L-1}, True→B_L)")
    if target is not None:
        L = target.L
        ridx = target.rule_indices
        pos = np.arange(1, L + 1)
        cap = np.full(R, L + 1, dtype=np.int64)
        np.minimum.at(cap, ridx, pos)
        series.update(
            cap_sum=np.full(K, float((cap - 1).sum())),
            tight=np.full(K, float(R * L)),
            notes_bound=np.full(K, float(R * (L + 1))),
            # before any mistake every rule is on level 1 and target rule 1 has i = 1: the excess is 0
            target_excess=np.concatenate([[0], (S[:, ridx].astype(np.int64) - pos[None, :]).max(axis=1)
                                          if S.shape[0] else np.zeros(0, dtype=np.int64)]).astype(np.float64),
            L_plus_1=np.full(K, float(L + 1)),
        )
        bound: float | None = float(R * (L + 1))
        constants.update(L=L, target=target, caps=cap, cap_sum=int((cap - 1).sum()), bound_tight=R * L)
    else:
        for key in ("cap_sum", "tight", "notes_bound", "target_excess", "L_plus_1"):
            series[key] = np.full(K, np.nan)  # no target list: not defined, not checked
        bound = None
        constants.update(L=None, target=None)
    needs = tuple(a.name for a in assumptions)  # "target" (when one is given) and "consistent"
    chains = (
        Chain("level potential", ("M", "Phi", "cap_sum", "tight", "notes_bound"), scale=1.0,
              link_needs=((), needs, (), ()),
              reasons=("each mistake moves at least one rule down one level: the rule the prediction was read from "
                       "fired at the predicting level and was wrong",
                       "level_r ≤ cap_r for every rule: target rule i stays at level ≤ i, and no rule passes "
                       "level L+1",
                       "every cap_r ≤ L + 1",
                       "L ≤ L + 1 (the notes' form)")),
        Chain("target rule i stays at level ≤ i", ("target_excess", "zero"), scale=1.0, needs=needs,
              reasons=("rule i moves only from a level j where it fires and is wrong; then an earlier target rule "
                       "k < i fires, and it sits at level ≤ k, so j ≤ k ≤ i − 1",)),
        Chain("no rule below level L+1", ("max_level", "L_plus_1"), scale=1.0, needs=needs,
              reasons=("rules move only from the predicting level, which is ≤ the level of True → B_L ≤ L "
                       "(that rule always fires)",)),
    )
    notes = (f"Tie rule {tie!r}: any fixed choice among the firing rules of the first firing level keeps the proof "
             "valid (the rule the prediction comes from is wrong on a mistake, so it moves).",
             "The notes state M ≤ (4n+2)(L+1) with 'each rule falls at most L+1 levels'; counting the final True "
             "rule in L, on the target list's labels each rule falls at most L levels, so M ≤ (4n+2)L holds there "
             "too (checked above where the theorem applies; on other labels neither is claimed).")
    no_list = "no decision list labels these data, so L, the target's rules and their caps are not defined"
    return Proof(name="Decision lists, the level algorithm", theorem=r"M \le (4n+2)(L+1)", T=T,
                 state_rounds=state_rounds, n_mistakes=k, series=series, chains=chains,
                 assumptions=tuple(assumptions), mistake_bound=bound, constants=constants,
                 labels=dict(DL_LABELS), notes=notes,
                 undefined={key: no_list for key in ("cap_sum", "tight", "notes_bound", "target_excess", "L_plus_1")})
