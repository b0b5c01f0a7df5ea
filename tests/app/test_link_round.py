"""A link's round ``?t=`` is checked like every other setting in a link: a value that is not a round
(``abc``, ``-5``, ``1e99``) is reported with the pages' "A setting in the link was not valid" warning and the
viewer opens at the start; a round past the end of the run opens at the last round, with a note. Before, every
one of them silently became round 0 (or T)."""
from __future__ import annotations

import pytest

from tests.app.pagetest import open_page, page_path, shown, url, viewer_spec

LEAD = "A setting in the link was not valid: "
PAGES = {"halving": {}, "ftrl": {"T": "40", "runs": "10"}, "boolean_concepts": {"T": "30"}}


def _open(page: str, t: str):
    return open_page(page_path(page), **PAGES[page], t=t)


@pytest.mark.parametrize("page", sorted(PAGES))
@pytest.mark.parametrize("raw,why", [("abc", "must be a whole number of rounds"),
                                     ("1e99", "must be a whole number of rounds"),
                                     ("2.5", "must be a whole number of rounds"),
                                     ("-5", "must be between 0 and {T}")])
def test_a_bad_round_in_a_link_is_reported_and_the_viewer_starts_at_0(page, raw, why):
    at = _open(page, raw)
    assert not at.exception
    spec = viewer_spec(at)
    T = spec["T"]
    assert T > 0 and spec["position"] == 0
    assert f"{LEAD}t {why.format(T=T)} (got '{raw}'); using 0." in shown(at, "warning")
    assert url(at)["t"] == "0"


@pytest.mark.parametrize("page", sorted(PAGES))
def test_a_round_past_the_end_opens_the_last_round_with_a_note(page):
    at = _open(page, "99999")
    assert not at.exception
    spec = viewer_spec(at)
    T = spec["T"]
    assert spec["position"] == T and url(at)["t"] == str(T)
    assert (f"The link's round: t = '99999' is past the end of this run (T = {T} rounds); showing the last "
            f"round, {T}.") in shown(at, "info")
    assert "t " not in shown(at, "warning")


@pytest.mark.parametrize("page", sorted(PAGES))
def test_a_good_round_says_nothing(page):
    at = _open(page, "7")
    assert not at.exception
    assert viewer_spec(at)["position"] == 7
    assert "link" not in shown(at, "warning") + shown(at, "info")


def test_the_games_open_at_the_latest_move_when_the_links_round_is_bad():
    """In the adversary game (and Be the learner) a link opens at the latest move: a bad round says so."""
    at = open_page(page_path("boolean_concepts"), mode="adversary", an="3", moves="000:1,011:0", t="x1")
    assert not at.exception
    assert viewer_spec(at)["position"] == 2
    assert f"{LEAD}t must be a whole number of rounds (got 'x1'); using 2." in shown(at, "warning")
    at = open_page(page_path("boolean_concepts"), mode="learner", ln="4", preds="10", t="7")
    assert viewer_spec(at)["position"] == 2
    assert "t = '7' is past the end of this run (T = 2 rounds); showing the last round, 2." in shown(at, "info")
