"""What each lesson page sends its step viewer at most, stated on the page in one short caption.

Every page bounds the run it draws (its settings' ranges, an upload's 1 MB and 10,000 rows, and the
caps below), so the spec sent to the browser stays under :data:`SPEC_BUDGET_MB` at the page's largest
run (tests/app/test_draw_caps.py measures it; docs/robustness.md lists the sizes). The numbers in
the captions are read from the constants the pages use, so a caption cannot drift from its cap.
"""
from __future__ import annotations

__all__ = ["SPEC_BUDGET_MB", "text", "show"]

#: the largest step-viewer spec (JSON) any page sends, at its largest run
SPEC_BUDGET_MB = 5


def _texts() -> dict[str, str]:
    from olc_ui.lessons.exponentiated_update import lesson as eg_lesson
    from olc_ui.lessons.experts import lesson as experts_lesson
    from olc_ui.lessons.ftrl import view as ftrl_view
    from olc_ui.lessons.halving import view as halving_view
    from olc_ui.lessons.margin_perceptron import lesson as margin_lesson
    from olc_ui.lessons.winnow import view as winnow_view
    from olc_ui.shared.data import MAX_ROWS, UPLOAD_LIMIT_MB

    file = f"a file: at most {MAX_ROWS:,} rows and {UPLOAD_LIMIT_MB} MB"
    return {
        "perceptron": f"at most 10,000 rounds ({file}); every round is sent to the step viewer",
        "margin_perceptron": f"at most {margin_lesson.MAX_PRESENTATIONS:,} presentations (points × passes: "
                             "further passes are cut)",
        "ftrl": f"at most 3,000 generated rounds ({file}); earlier points drawn faint, at most "
                f"{ftrl_view.FAINT_POINTS} of them",
        "experts": f"rounds × experts ≤ {experts_lesson.MAX_CELLS:,} (T is cut, and the page says so); "
                   "the sandwich's paths and the expected-mistakes curve thinned to at most 700 points",
        "halving": f"at most 500 rounds; each hypothesis' vote drawn while the rounds' version spaces hold at most "
                   f"{halving_view.VOTE_ROWS_CAP:,} hypotheses in all",
        "boolean_concepts": "at most 1,000 rounds and 12 variables (a decision list: 8; a game: 10)",
        "winnow": f"at most 10,000 rounds; for N > {winnow_view.SMALL_N} the bars show the relevant weights, the "
                  f"{winnow_view.N_TOP} largest others and a min/median/max band, never all N",
        "exponentiated_update": f"rounds × features ≤ {eg_lesson.MAX_CELLS:,} (T is cut, and the page says so; "
                                f"{file})",
    }


def text(page: str) -> str:
    """The page's drawing cap, as its caption says it."""
    return f"Drawing cap: {_texts()[page]}; the step viewer receives at most {SPEC_BUDGET_MB} MB."


def show(page: str) -> None:
    """The caption under the page's step viewer."""
    import streamlit as st

    st.caption(text(page))
