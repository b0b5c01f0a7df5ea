"""Hostile text a link or an upload can carry, and which query keys each page reads: shared by the
AppTest and the real-browser checks that such text is shown inert (olc_ui/shared/safe.py)."""
from __future__ import annotations

import re

#: each must show as the literal characters: no link, image, maths, bold, HTML or icon
HOSTILE = (
    "[click me](https://example.org/x)",
    "<img src=http://host.invalid/x.png>",
    "![x](http://host.invalid/b.png)",
    "$\\color{red}{X}$",
    "**X** <b>Y</b>",
    ":material/home: :red[RED] www.example.org me@example.org",
    "x" * 3000,
)


def page_keys() -> dict[str, list[str]]:
    """Every query key each lesson page reads (its declared settings, and the viewer's t)."""
    from olc_ui.lessons.boolean_concepts import lesson as B
    from olc_ui.lessons.compare import lesson as C
    from olc_ui.lessons.exponentiated_update import lesson as G
    from olc_ui.lessons.ftrl import lesson as F
    from olc_ui.lessons.winnow import lesson as W
    from olc_ui.lessons.experts import lesson as E
    from olc_ui.lessons.halving import lesson as H
    from olc_ui.lessons.margin_perceptron import lesson as M
    from olc_ui.lessons.perceptron import lesson as P
    from olc_ui.shared.page import PREDICT_SETTINGS
    from olc_ui.lessons.bound_explorer import lesson as X

    def keys(settings) -> list[str]:
        return [s.key for s in settings] + ["t"]

    return {
        "perceptron": keys(P.SETTINGS + P.TD_SETTINGS + PREDICT_SETTINGS),
        "margin_perceptron": keys(M.SETTINGS),
        "experts": keys(E.LEARNER_SETTINGS + E.DATA_SETTINGS + PREDICT_SETTINGS),
        "halving": keys(H.SETTINGS),
        "boolean_concepts": keys(B.MODE_SETTINGS + [s for g in B.GROUPS.values() for s in g]),
        "winnow": keys(W.SETTINGS),
        "exponentiated_update": keys(G.SETTINGS),
        "ftrl": keys(F.SETTINGS),
        "compare": keys(C.SETTINGS),
        "bound_explorer": keys(X.ALL_SETTINGS),
    }


def hostile_queries(page: str, keys: list[str]) -> list[dict[str, str]]:
    """Query dicts giving every key a hostile value, rotated so that each hostile string reaches
    each kind of key; the Boolean page's game links (moves, preds) are also tried in their own mode."""
    out = []
    for shift in range(2):
        out.append({k: HOSTILE[(i + shift) % len(HOSTILE)] for i, k in enumerate(keys)})
    if page == "boolean_concepts":
        for mode, key in (("adversary", "moves"), ("learner", "preds")):
            for h in HOSTILE:
                out.append({"mode": mode, key: h})
    return out


def unescaped(body: str) -> list[str]:
    """The hostile strings (or their dangerous heads) that appear *verbatim* in a Markdown body:
    an escaped one has a backslash before its punctuation, so it never does."""
    body = re.sub(r"\\[!-/:-@\[-`{-~]", "\x00", body)   # an escaped character is inert
    found = [h for h in HOSTILE[:-1] if h in body]
    for head in ("](", "<img", "<b>", "$\\color", "**X**", "http://host", "https://example", ":material/", ":red["):
        if head in body:
            found.append(head)
    if "x" * 81 in body:
        found.append("more than 80 characters of a value")
    return found


def test_every_lesson_page_is_covered():
    """A new lesson page is in page_keys() (so its links are tested with hostile values)."""
    from olc_ui.catalog import available
    assert {row[4] for row in available()} - {"home"} == set(page_keys())
