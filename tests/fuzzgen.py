"""A seeded generator of page links for the fuzz tests (tests/app/test_fuzz_pages.py).

Each case is a query dict for one lesson page: a random subset of its settings, each given a
valid extreme (lo, hi, one step in, β → 0, −0), a random valid value, or a value the page must
refuse (out of range, NaN, ±inf, 1e308, a whole number written as 1e3, Markdown, HTML, ``$…$``,
3,000 characters …). :func:`expected_problems` says which values the page must refuse and the
message it must show for each (olc_ui.shared.config.url_values, the one decoder every page uses).

>>> import random
>>> from olc_ui.shared.config import Setting
>>> s = [Setting("gamma", "γ", "float", 0.1, lo=0.01, hi=0.5, step=0.01)]
>>> q = case(random.Random(0), s)
>>> set(q) <= {"gamma", "t"}
True
"""
from __future__ import annotations

import os
import random

from olc_ui.shared.config import Setting, url_values
from tests.hostile import HOSTILE

__all__ = ["BAD_NUMBERS", "case", "expected_problems", "page_settings", "fuzz_full", "n_cases", "first_seed"]

#: numbers no setting takes (every float and int setting is bounded and finite)
BAD_NUMBERS = ("nan", "NaN", "-nan", "inf", "-inf", "+Infinity", "1e308", "-1e308", "1e999", "0x10", "1,5", "")

#: the rest of a URL value an attacker or a typo can carry
BAD_TEXT = HOSTILE + ("$x$", "\u202etxet", "0\x00", "１", "true false", " ")


def page_settings() -> dict[str, list[Setting]]:
    """Every setting each lesson page reads from its link (tests/hostile.py's page_keys, as Settings)."""
    from olc_ui.lessons.boolean_concepts import lesson as B
    from olc_ui.lessons.exponentiated_update import lesson as G
    from olc_ui.lessons.experts import lesson as E
    from olc_ui.lessons.ftrl import lesson as F
    from olc_ui.lessons.halving import lesson as H
    from olc_ui.lessons.margin_perceptron import lesson as M
    from olc_ui.lessons.perceptron import lesson as P
    from olc_ui.lessons.winnow import lesson as W

    return {
        "perceptron": P.SETTINGS + P.TD_SETTINGS,
        "margin_perceptron": M.SETTINGS,
        "experts": E.LEARNER_SETTINGS + E.DATA_SETTINGS,
        "halving": H.SETTINGS,
        "boolean_concepts": B.MODE_SETTINGS + [s for g in B.GROUPS.values() for s in g],
        "winnow": W.SETTINGS,
        "exponentiated_update": G.SETTINGS,
        "ftrl": F.SETTINGS,
    }


def _num(v: float, kind: str) -> str:
    return str(int(round(v))) if kind == "int" else f"{v:.6g}"


def _good(rng: random.Random, s: Setting) -> str:
    """A value the setting takes, extremes first."""
    if s.kind == "choice":
        return rng.choice(s.options)
    if s.kind == "bool":
        return rng.choice(("0", "1", "true", "off", "YES"))
    if s.kind == "text":
        return _text(rng, s)
    lo, hi, step = float(s.lo), float(s.hi), float(s.step or 1)
    picks = [lo, hi, min(hi, lo + step), max(lo, hi - step), rng.uniform(lo, hi)]
    if s.kind == "float" and lo == 0.0:
        picks += [1e-300, 5e-324, -0.0]  # β → 0, noise → 0, written as the smallest doubles and −0
    v = rng.choice(picks)
    if s.kind == "float" and v == 0.0 and rng.random() < 0.5:
        return rng.choice(("-0", "-0.0", "0e0"))
    return _num(v, s.kind)


def _bad(rng: random.Random, s: Setting) -> str:
    """A value the setting must refuse (a page shows why and uses the default)."""
    if s.kind in ("float", "int"):
        lo, hi, step = float(s.lo), float(s.hi), float(s.step or 1)
        picks = [_num(lo - step, s.kind), _num(hi + step, s.kind), _num(hi * 10 + 7, s.kind),
                 rng.choice(BAD_NUMBERS), rng.choice(BAD_TEXT)]
        if s.kind == "int":
            picks += ["1e3", "2.5"]
        if s.key in ("noise", "dnoise"):
            picks.append("0.5")  # noise 1/2: the labels are coin flips
        if s.key in ("T", "dT"):
            picks.append("0")
        return rng.choice(picks)
    if s.kind == "choice":
        return rng.choice((s.options[0].upper(), s.options[-1] + " ", "none") + BAD_TEXT)
    if s.kind == "bool":
        return rng.choice(("2", "-1", "maybe") + BAD_TEXT)
    return rng.choice(BAD_TEXT + ("x" * 5000,))


def _text(rng: random.Random, s: Setting) -> str:
    """A text setting's value: clicked points, adversary moves, predictions, well or badly formed."""
    n = rng.choice((0, 1, 2, 5, 40))
    if s.key == "pts":
        pts = [f"{rng.uniform(-3, 3):.3g},{rng.uniform(-3, 3):.3g},{rng.choice((-1, 1))}" for _ in range(n)]
        if pts and rng.random() < 0.3:
            pts[-1] = rng.choice(("0,0,1", "nan,1,1", "1,2", "200,0,1", "1,1,2"))
        return ";".join(pts)
    if s.key == "moves":
        width = rng.choice((1, 3, 4, 10))
        return ",".join("".join(rng.choice("01") for _ in range(width)) + ":" + rng.choice("01") for _ in range(n))
    return "".join(rng.choice("01") for _ in range(rng.choice((0, 1, 4, 10, 64))))


def case(rng: random.Random, settings: list[Setting], *, p_bad: float = 0.2, p_set: float = 0.6) -> dict[str, str]:
    """One link's query: each setting present with probability ``p_set``, refused with ``p_bad``."""
    q = {}
    for s in settings:
        if rng.random() < p_set:
            q[s.key] = _bad(rng, s) if rng.random() < p_bad else _good(rng, s)
    if rng.random() < 0.5:
        q["t"] = rng.choice(("0", "1", "-1", "5", "999999999", "nan", "1e3", "2.5") + HOSTILE[:2])
    return q


def expected_problems(settings: list[Setting], query: dict[str, str]) -> list[str]:
    """What the page must say about the link: one message per refused value (olc_ui.shared.config's wording)."""
    return url_values(settings, query)[1]


def fuzz_full(config=None) -> bool:
    """The long run: ``pytest --fuzz-full`` or ``OLC_FUZZ=full``."""
    if os.environ.get("OLC_FUZZ", "").lower() == "full":
        return True
    return bool(config is not None and config.getoption("--fuzz-full", default=False))


def n_cases(full: bool) -> int:
    """Links per page: a small seeded sample in CI, hundreds with the flag (OLC_FUZZ_N overrides)."""
    if os.environ.get("OLC_FUZZ_N"):
        return int(os.environ["OLC_FUZZ_N"])
    return 300 if full else 3


def first_seed() -> int:
    """The first seed of the run (``OLC_FUZZ_SEED``, default 0): a later run can try fresh links."""
    return int(os.environ.get("OLC_FUZZ_SEED", "0"))

