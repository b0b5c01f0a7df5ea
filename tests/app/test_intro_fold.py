"""The lesson's intro on a phone and in presentation mode is folded into "What this lesson shows", whose text is
drawn only while it is open (olc_ui/shared/page.py, intro): a wide screen never shows that copy, so it is not built
on every load (issue 24, the first load). Opened, it holds the very text of the intro."""
from __future__ import annotations

from olc_ui.shared.page import INTRO_FOLD_KEY
from tests.app.pagetest import open_page, page_path, prose

FOLD = "What this lesson shows"
START = "On a mistake the Perceptron adds"


def _fold(at):
    [exp] = [e for e in at.expander if e.label == FOLD]
    return exp


def test_the_folded_intro_is_drawn_when_opened():
    at = open_page(page_path("perceptron"), T=200)
    assert not at.exception
    full = [t for t in prose(at) if t.startswith(START)]
    assert len(full) == 1                       # the wide screen's copy, drawn as it is
    assert prose(_fold(at)) == []
    at.session_state[INTRO_FOLD_KEY] = True
    at.run()
    assert prose(_fold(at)) == full
    assert len([t for t in prose(at) if t.startswith(START)]) == 2


def test_presentation_mode_folds_the_intro_the_same_way():
    at = open_page(page_path("perceptron"), T=200, present=1)
    assert not at.exception
    assert not [t for t in prose(at) if t.startswith(START)]
    at.session_state[INTRO_FOLD_KEY] = True
    at.run()
    assert [t for t in prose(_fold(at)) if t.startswith(START)]
