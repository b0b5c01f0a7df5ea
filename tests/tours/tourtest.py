"""What the tour tests share: open a lesson page at a tour's stop with AppTest (the page's own run, from the stop's
link alone) and read the tour bar it drew."""
from __future__ import annotations

import html
import re
from urllib.parse import parse_qsl, urlsplit

from olc_ui.lessons.boolean_concepts import lesson as boolean
from olc_ui.lessons.compare import lesson as compare
from olc_ui.lessons.experts import lesson as experts
from olc_ui.lessons.exponentiated_update import lesson as eg
from olc_ui.lessons.ftrl import lesson as ftrl
from olc_ui.lessons.halving import lesson as halving
from olc_ui.lessons.margin_perceptron import lesson as margin
from olc_ui.lessons.perceptron import lesson as perceptron
from olc_ui.lessons.winnow import lesson as winnow
from olc_ui.shared.tours.bar import stop_href
from olc_ui.shared.tours.format import Tour

from tests.app.pagetest import open_page, page_path

_ATTR = re.compile(r'data-(tour|stop|stops|claim|here|run)="([^"]*)"')


def stop_query(tour: Tour, k: int, carried: dict[str, str] | None = None) -> tuple[str, dict[str, str]]:
    """The page and the query of stop ``k`` (0-based): exactly what its link carries."""
    href = stop_href(tour, k, carried)
    parts = urlsplit(href)
    return parts.path, dict(parse_qsl(parts.query, keep_blank_values=True))


def open_stop(tour: Tour, k: int, **carried):
    """AppTest of the page of stop ``k``, opened from the stop's link."""
    page, query = stop_query(tour, k, carried or None)
    return open_page(page_path(page), **query)


def bar(at) -> dict | None:
    """The tour bar the page drew: its data attributes, and its claim's text (tags and maths markers removed)."""
    for h in at.get("html"):
        body = h.proto.body
        if 'class="olc-tour' in body:
            nav = re.search(r'<nav class="olc-tour[^>]*>', body).group(0)
            attrs = {k: html.unescape(v) for k, v in _ATTR.findall(nav)}
            claim = re.search(r'<p class="olc-tour-claim">(.*?)</p>', body, re.S)
            text = re.sub(r"<[^>]+>", "", claim.group(1)) if claim else ""
            attrs["claim_text"] = html.unescape(text)
            attrs["html"] = body
            return attrs
    return None


def tables() -> dict:
    """Every page a tour can visit, with the settings it hands the step viewer (its declared tables)."""
    return {"perceptron": perceptron.SETTINGS + perceptron.TD_SETTINGS, "margin_perceptron": margin.SETTINGS,
            "ftrl": ftrl.SETTINGS, "winnow": winnow.SETTINGS, "exponentiated_update": eg.SETTINGS,
            "experts": experts.SETTINGS, "halving": halving.SETTINGS, "compare": compare.SETTINGS,
            "boolean_concepts": boolean.MODE_SETTINGS + [s for g in boolean.GROUPS.values() for s in g]}


def runs() -> dict:
    """Each such page's run for a stop's settings (pages/tours.py ``RUNS``: the same): the tour's offline file."""
    return {"perceptron": perceptron.stop_run, "margin_perceptron": margin.stop_run, "ftrl": ftrl.stop_run,
            "winnow": winnow.stop_run, "exponentiated_update": eg.stop_run, "experts": experts.stop_run,
            "halving": halving.stop_run, "compare": compare.stop_run, "boolean_concepts": boolean.stop_run}
