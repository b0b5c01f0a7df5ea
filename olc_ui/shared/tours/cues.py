"""What a tour's stop asks and points at (docs/tours.md): ``"ask": true`` opens predict-then-reveal's question about
the stop's round t (the viewer stands at round t − 1, the round's example marked, and the answer draws round t, where
the stop's claim is checked); ``"point": {"ledger": n}`` or ``{"chart": id}`` points at the proof ledger's line n or
at a chart, highlighted on screen and named in words in the bar (screen readers read it there, and the highlighted
element is described by it; "Show the line" / "Show the chart" scrolls it into view: in presentation mode the
ledger is often under the charts).

The page's view decides what a stop can ask and point at (:func:`view_of`: its charts, its ledger's lines, the
rounds its question covers); a stop that asks or points at what the page does not have is shown as a stop that
cannot be shown as written, naming the field (:func:`problems`)."""
from __future__ import annotations

import html
from typing import Any

from olc_ui.shared.safe import clip
from olc_ui.shared.tours.format import Stop

__all__ = ["LOOK_ID", "cue_html", "opening", "problems", "view_of"]

#: the id of the bar's sentence naming what the stop points at (the pointed element's aria-describedby names it)
LOOK_ID = "olc-tour-look"


def view_of(spec: dict, ask: dict | None) -> dict[str, Any]:
    """What the page shows that a stop may point at or ask about: ``{"charts": {id: title}, "ledger": [each line's
    reason], "rounds": the rounds its question covers, or None when the page asks none}``.

    >>> view_of({"figures": [{"id": "main", "title": "The plane"}], "ledger": {"lines": [{"reason": "Cauchy"}]}},
    ...         {"rounds": 200})
    {'charts': {'main': 'The plane'}, 'ledger': ['Cauchy'], 'rounds': 200}
    """
    charts = {str(f.get("id")): str(f.get("title") or f.get("id")) for f in spec.get("figures") or []}
    lines = [str(line.get("reason") or "") for line in (spec.get("ledger") or {}).get("lines") or []]
    rounds = int(ask["rounds"]) if isinstance(ask, dict) and isinstance(ask.get("rounds"), int) else None
    return {"charts": charts, "ledger": lines, "rounds": rounds}


def problems(stop: Stop, view: dict[str, Any] | None) -> list[str]:
    """What keeps the page from asking or pointing as ``stop`` says (each naming the field)."""
    if view is None:
        return []
    out = []
    if stop.ask:
        rounds = view.get("rounds")
        if rounds is None:
            out.append("field ask: this page asks no predict-then-reveal question")
        elif not 1 <= stop.t <= rounds:
            out.append(f"field ask: the page asks about rounds 1 to {rounds}; the stop's round is t = {stop.t}")
    point = stop.point or {}
    if "chart" in point and point["chart"] not in view["charts"]:
        out.append(f"field point.chart: {clip(point['chart'], 40)!r} is not a chart of this page (its charts: "
                   f"{', '.join(view['charts'])})")
    if "ledger" in point and not 1 <= int(point["ledger"]) <= len(view["ledger"]):
        out.append(f"field point.ledger: line {point['ledger']} of a proof ledger of {len(view['ledger'])} lines")
    return out


def cue_html(stop: Stop, view: dict[str, Any] | None) -> str:
    """The bar's line saying what the stop asks and points at, or "" (pure: tested as data).

    >>> s = Stop("perceptron", {}, 1, "x", "[000]", {"kind": "no_violation"}, ask=True, point={"ledger": 1})
    >>> cue_html(s, {"charts": {}, "ledger": ["A. each mistake adds"], "rounds": 200})
    '<p class="olc-tour-cue"><span class="olc-tour-cue-ask"><strong>Predict:</strong> round 1, before it is drawn (the answer draws it).</span> <span id="olc-tour-look"><strong>Look at:</strong> the proof ledger, line 1: “A. each mistake adds”.</span> <button type="button" class="olc-tour-show">Show the line</button></p>'
    """
    parts = []
    if stop.ask:
        parts.append(f'<span class="olc-tour-cue-ask"><strong>Predict:</strong> round {stop.t}, before it is drawn '
                     f'(the answer draws it).</span>')
    point = stop.point or {}
    if view is not None and "chart" in point and point["chart"] in view["charts"]:
        what = f"the chart “{html.escape(clip(view['charts'][point['chart']], 140), quote=False)}”"
    elif view is not None and "ledger" in point and 1 <= int(point["ledger"]) <= len(view["ledger"]):
        n = int(point["ledger"])
        what = f"the proof ledger, line {n}: “{html.escape(clip(view['ledger'][n - 1], 140), quote=False)}”"
    else:
        what = None
    if what is not None:
        show = "Show the chart" if "chart" in point else "Show the line"
        parts.append(f'<span id="{LOOK_ID}"><strong>Look at:</strong> {what}.</span> '
                     f'<button type="button" class="olc-tour-show">{show}</button>')
    return f'<p class="olc-tour-cue">{" ".join(parts)}</p>' if parts else ""


def opening(stop: Stop, start: int, from_link: bool) -> int:
    """Where the viewer opens on ``stop``: a stop that asks about its round t opens at t − 1 when the position comes
    from its link (``from_link``), so that the round is not drawn before the question; else ``start``."""
    if stop.ask and from_link and start == stop.t and stop.t >= 1:
        return stop.t - 1
    return start
