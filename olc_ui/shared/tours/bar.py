"""The tour bar: on a lesson page opened at a tour's stop (``?tour=<id>&stop=k`` with the stop's settings and round),
"stop k of n", the stop's text, the note's reference, the stop's claim decided on the page's own run (holds or
fails, with its numbers), and Previous / Next. PageDown / PageUp move between stops (a presenter's clicker sends
them); the arrow keys keep stepping the run.

A stop is a link: its settings, its round and ``tour=…&stop=k`` are the URL (plus presentation mode's ``present``
/ ``hide`` and ``sound`` when on), so a copied link opens the same stop and Back returns to the previous one.
Moving to a stop on another page *opens* its link (a page load: the page starts from the link alone — every setting
the stop does not name at its default — which is exactly the run the shipped tours are tested on,
tests/tours/test_tours_shipped.py). A stop on the same page is reached without a page load: the viewer's tour mode
(:func:`mode_options`, assets/viewer_tour.js) puts its link in the address bar and reports the move, and
:func:`goto` gives the page the settings that link would (olc_ui/shared/state.link: the page then stands for that
link). In a class session a following student's page stands for the lecturer's stop (:func:`follow_class`). If the
student changes a setting inside a stop, the bar says that the run on screen is no longer the stop's and that the
claim is about the stop's run (``data-claim="off"``), with a link back.

Everything a tour file holds is untrusted: its title, reference and text reach the page as escaped HTML (the
text's formulas typeset by the viewer's KaTeX, olc_ui/viewer/prose.py; KaTeX runs untrusted: no links, no HTML),
its settings only as URL-encoded query values.
"""
from __future__ import annotations

import html
import json
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit

import streamlit as st
from streamlit.runtime.scriptrunner_utils.script_run_context import get_script_run_ctx

from olc_core.claims import ClaimError, Verdict, evaluate

from olc_ui.shared import state
from olc_ui.shared.config import Setting, decode, encode
from olc_ui.shared.safe import clip, notice
from olc_ui.shared.tours import cues, own
from olc_ui.shared.tours.format import Stop, Tour, TourError, stop_index
from olc_ui.shared.tours.store import lookup
from olc_ui.shared import present
from olc_ui.viewer.prose import CLASS as PROSE_CLASS
from olc_ui.viewer.prose import CSS as PROSE_CSS
from olc_ui.viewer.prose import TEX_CLASS, to_html, typeset_script
from olc_ui.viewer.spec import MODES_KEY

__all__ = ["CLASS", "KEYS_JS", "active", "current_page", "draw", "follow_class", "goto", "keep", "opening", "setup",
           "stop_href", "with_tour", "OWN_KEY", "verdict", "stop_problems", "tex_html", "claim_html"]

#: the bar's class (and its data attributes: data-tour, data-stop (1-based), data-stops, data-claim)
CLASS = "olc-tour"
#: session-state key of the tours a student opened from a file ({id: Tour}), looked up before the folder's
OWN_KEY = "_olc_own_tours"
#: the query parameters every page of a stop carries along (presentation mode, sound, the class session: a
#: lecturer's tab keeps leading across a stop's page load, and the class follows its page, settings and round),
#: besides the stop's own
_CARRIED = ("present", "hide", "sound", "class")
_HERE = Path(__file__).resolve().parent


def active() -> tuple[str, str] | None:
    """The link's ``tour`` and ``stop`` (raw, unchecked), or None when the page is not opened at a stop. The link is
    the page's (olc_ui/shared/state.link): the address it was opened at, or the stop a move on the page went to."""
    params = state.link()
    tour, stop = params.get("tour"), params.get("stop")
    if not tour or not stop:
        return None
    return str(tour), str(stop)


def _find(tour_id: str, say: bool = True) -> Tour | None:
    """The tour of a link: the student's opened ones, the folder's, this process's own ones, or the one the link
    carries (``tourdata``, an own tour small enough to travel in its links)."""
    tour = lookup(tour_id, st.session_state.get(OWN_KEY) or {}) or own.recall(tour_id)
    data = state.link().get("tourdata")
    if tour is None and data and tour_id.startswith("own-"):
        try:
            tour = own.from_link(tour_id, str(data))
        except TourError as exc:
            if say:
                notice("warning", "The tour in the link cannot be opened: ",
                       "; ".join(str(p) for p in exc.problems) + ".")
            return None
    return tour


def setup(back: bool = False) -> None:
    """A page's first move (olc_ui/shared/page.py setup), before its settings are bound. ``back``: the address of
    this page changed since its last run (Back or Forward: olc_ui/shared/state.begin_run); when it names a tour's
    stop, the page opens as that link says (its settings, its round), as the stop's own page load would."""
    if back and active() is not None:
        state.move_to_link()


def keep() -> None:
    """Keep ``tour`` and ``stop`` in the URL the page writes (olc_ui/shared/state.write_url keeps only the page's
    settings and these extras; presentation mode's setup starts them afresh on every run)."""
    link = active()
    if link is None:
        return
    extra = dict(st.session_state.get(state.URL_EXTRA_KEY) or {})
    extra.update({"tour": clip(link[0], 48), "stop": clip(link[1], 6)})
    data = state.link().get("tourdata")
    if data and len(str(data)) <= own.LINK_MAX:
        extra["tourdata"] = str(data)
    st.session_state[state.URL_EXTRA_KEY] = extra


def current_page() -> str | None:
    """The url path of the page this script run draws (its script's file stem: olc_ui/catalog.py), or None."""
    ctx = get_script_run_ctx()
    if ctx is None:
        return None
    info = ctx.pages_manager.get_pages().get(ctx.page_script_hash) or ctx.pages_manager.get_main_page()
    path = info.get("script_path")
    return Path(path).stem if path else None


def stop_href(tour: Tour, k: int, carried: dict[str, str] | None = None) -> str:
    """The relative link of stop ``k`` (0-based) of ``tour``: its page, its settings and round, ``tour`` and
    ``stop`` (1-based), and the carried options (``present``, ``hide``, ``sound``; the stop's own ``hide`` wins).

    >>> from olc_ui.shared.tours.format import Stop, Tour
    >>> s = Stop("winnow", {"N": "50"}, 12, "x", "[000]", {"kind": "no_violation"})
    >>> stop_href(Tour("demo", "Demo", (s,)), 0, {"present": "1"})
    'winnow?N=50&t=12&tour=demo&stop=1&present=1'
    """
    s = tour.stops[k]
    query = {**s.query(), "tour": tour.id, "stop": str(k + 1)}
    for key in _CARRIED:
        if carried and key in carried:
            query[key] = carried[key]
    if s.hide:
        query["hide"] = s.hide
    if tour.id.startswith("own-"):        # an own tour travels in its links when small (olc_ui/shared/tours/own.py)
        data = own.link_data(tour)
        if data is not None:
            query["tourdata"] = data
    return f"{s.page}?{urlencode(query)}"


def _carried() -> dict[str, str]:
    """The options every stop's link carries along now (presentation mode, sound, the class session)."""
    return {key: v for key, v in (st.session_state.get(state.URL_EXTRA_KEY) or {}).items() if key in _CARRIED}


def goto(value: object) -> int | None:
    """A move to another stop of the tour on this same page, without a page load (the viewer's tour mode:
    ``setStateValue("position", {t, tour_stop: {tour, stop}})`` after it put the stop's link in the address bar): the page's
    settings become the stop link's — every setting it does not name at its default, as when the link is opened —
    and the link the page stands for is the stop's (olc_ui/shared/state.link). Returns the stop's round (where the
    viewer opens), or None when ``value`` names no stop of a tour on this page (then nothing changes)."""
    if not isinstance(value, dict):
        return None
    tour_id, stop = value.get("tour"), value.get("stop")
    if not isinstance(tour_id, str) or isinstance(stop, bool) or not isinstance(stop, int):
        return None
    tour = _find(clip(tour_id, 48), say=False)
    if tour is None or not 1 <= stop <= len(tour) or tour.stops[stop - 1].page != current_page():
        return None
    params = dict(parse_qsl(urlsplit(stop_href(tour, stop - 1, _carried())).query, keep_blank_values=True))
    state.apply_every(params)
    state.set_link(params, move=True)
    return tour.stops[stop - 1].t


#: the query parameters of a class session's state that are not the lecturer's settings
_NOT_SETTINGS = ("t", "class", "present", "hide", "sound", "tour", "stop", "tourdata")


def follow_class(value: object) -> None:
    """A class session's settings bridge (olc_ui/shared/class_session.apply_settings applies the lecturer's settings):
    the link this student's page stands for becomes the lecturer's — their settings, their round and their tour's
    stop (``value["tour"]``: ``{id, stop, data}``, or None off a tour) — so the student's page draws the lecturer's
    tour bar, or none."""
    if not isinstance(value, dict) or not isinstance(value.get("query"), str) or len(value["query"]) > 100_000:
        return
    params = {k: v for k, v in parse_qsl(value["query"], keep_blank_values=True) if k not in _NOT_SETTINGS}
    params.update(_carried())
    info, t = value.get("tour"), value.get("t")
    if isinstance(info, dict) and isinstance(info.get("id"), str) and isinstance(info.get("stop"), int) \
            and not isinstance(info.get("stop"), bool):
        params.update({"tour": clip(info["id"], 48), "stop": str(info["stop"])})
        if isinstance(info.get("data"), str) and len(info["data"]) <= own.LINK_MAX:
            params["tourdata"] = info["data"]
    if isinstance(t, int) and not isinstance(t, bool) and t >= 0:
        params["t"] = str(t)
    state.set_link(params)


# ----------------------------------------------------------------------------------------------- the viewer's mode

#: settings that change what the page asks, never its run: the stop's claim is decided on the run all the same
_NOT_RUN = frozenset({"predict"})


def _run_key(settings: list[Setting], values: dict[str, Any]) -> str:
    """The settings that make the run, as one string: two views with the same key show the same run."""
    return urlencode(sorted((s.key, encode(s, values[s.key])) for s in settings
                            if s.key in values and s.key not in _NOT_RUN))


def _stop_values(stop: Stop, settings: list[Setting]) -> dict[str, Any] | None:
    """The values of ``settings`` the stop's link opens with (None: a value the page would refuse)."""
    out = {}
    for s in settings:
        try:
            out[s.key] = decode(s, stop.settings[s.key]) if s.key in stop.settings else s.default
        except ValueError:
            return None
    return out


def mode_options(tour: Tour, k: int, settings: list[Setting], values: dict[str, Any]) -> dict[str, Any]:
    """The viewer's ``tour`` mode (assets/viewer_tour.js): the tour's stops (page, round, link, and for a stop on
    this page the key of its run) and this one, so that the browser moves to a stop on this page without a page
    load (and, when it shows the run on screen, at once) and a lecturer's class follows the stop."""
    page = tour.stops[k].page
    shown = [s for s in settings if s.key in values]
    carried = _carried()
    stops = []
    for i, s in enumerate(tour.stops):
        entry: dict[str, Any] = {"page": s.page, "t": s.t, "href": stop_href(tour, i, carried)}
        stop_values = _stop_values(s, shown) if s.page == page else None
        if stop_values is not None:
            entry["run"] = _run_key(shown, stop_values)
        if s.page == page and s.ask:
            entry["ask"] = True
        if s.page == page and s.point:
            entry["point"] = dict(s.point)
        stops.append(entry)
    data = own.link_data(tour) if tour.id.startswith("own-") else None
    return {"id": tour.id, "stop": k + 1, "page": page, "run": _run_key(shown, values), "stops": stops,
            **({"data": data} if data else {})}


def with_tour(modes: dict[str, Any] | None, mode: dict[str, Any] | None) -> dict[str, Any] | None:
    """The viewer modes with the ``tour`` mode (``mode``: :func:`draw`'s ``"mode"``); unchanged off a tour."""
    if mode is None:
        return modes
    base = modes if modes is not None else dict(st.session_state.get(MODES_KEY) or {})
    return {**{k: v for k, v in base.items() if k != "tour"}, "tour": mode}


# ----------------------------------------------------------------------------------------------- the stop's state

def _differs(stop: Stop, settings: list[Setting], values: dict[str, Any]) -> list[str]:
    """The settings whose value on screen is not the stop's (the stop names it, or else its default)."""
    out = []
    for s in settings:
        if s.key not in values or s.key in _NOT_RUN:
            continue
        want = decode(s, stop.settings[s.key]) if s.key in stop.settings else s.default
        if encode(s, values[s.key]) != encode(s, want):
            out.append(s.label)
    return out


def stop_problems(stop: Stop, settings: list[Setting], T: int) -> list[str]:
    """What keeps the page from showing ``stop``: a setting the page does not have or a value out of its range (the
    page's own table decides), a round past the end of the run."""
    known = {s.key: s for s in settings}
    out = []
    for key, raw in stop.settings.items():
        if key not in known:
            out.append(f"field settings.{key}: not a setting of this page")
            continue
        try:
            decode(known[key], raw)
        except ValueError as exc:
            out.append(f"field settings.{key}: {exc}")
    if stop.t > T:
        out.append(f"field t: {stop.t} is past the end of this run (T = {T} rounds)")
    return out


def verdict(stop: Stop, trace, T: int) -> Verdict | str:
    """The stop's claim decided by olc_core.claims on ``trace`` (the page's run; {name: trace} on a page that shows
    several) at the stop's round, or what keeps it from being decided, in words."""
    if trace is None:
        return "this page gives the tour no run to check the claim on"
    if isinstance(trace, dict):   # a page with several runs (Compare): the stop names the one its claim reads
        if stop.run not in trace:
            return f"field run: this page shows the runs {', '.join(trace)}; the stop names {stop.run or 'none'}"
        trace = trace[stop.run]
    try:
        return evaluate(stop.claim, trace, min(stop.t, T))
    except ClaimError as exc:
        return f"the claim cannot be evaluated on this run: {exc}"


# ----------------------------------------------------------------------------------------------- HTML

def tex_html(parts) -> str:
    """A sentence's parts (text, and TeX the viewer's KaTeX typesets) as escaped HTML."""
    return "".join(html.escape(s, quote=False) if kind == "text" else
                   f'<span class="{TEX_CLASS}">{html.escape(s, quote=False)}</span>' for kind, s in parts)


def _link(href: str | None, cls: str, arrow: str, word: str, key: str) -> str:
    """A Previous / Next button: the arrow and the word (the word is left out on a phone; the name stays)."""
    label = (f'<span aria-hidden="true">{arrow}</span>' if arrow == "←" else "") + \
        f'<span class="olc-tour-word">{word}</span>' + (f'<span aria-hidden="true">{arrow}</span>' if arrow == "→" else "")
    if href is None:
        return f'<span class="olc-tour-btn {cls}" aria-disabled="true" aria-label="{word} stop">{label}</span>'
    return (f'<a class="olc-tour-btn {cls}" href="{html.escape(href)}" target="_self" aria-label="{word} stop '
            f'({key})">{label}<span class="olc-tour-key" aria-hidden="true">({key})</span></a>')


def claim_html(state_: str, said: Verdict | str | None, t: int, differs: list[str], ask: bool = False) -> str:
    """The claim's line. A stop that asks about its round (``ask``) keeps a holding claim's statement covered while
    the viewer stands before that round (assets/viewer_tour.js sets ``data-asking`` on the bar): it would give the
    answer away; ✓ Claim holds is said all the same, and a failing claim is never covered."""
    if state_ == "off":
        return (f'<p class="olc-tour-claim"><strong>Claim not checked here:</strong> the run on screen is not this '
                f'stop\'s ({html.escape(clip(", ".join(differs), 120))} changed); the claim is about the stop\'s run '
                f'at round {t}.</p>')
    if isinstance(said, Verdict):
        lead = "✓ Claim holds:" if said.holds else "✗ Claim fails on this run:"
        if ask and said.holds:
            return (f'<p class="olc-tour-claim"><strong>{lead}</strong> <span class="olc-tour-claim-after">'
                    f'{tex_html(said.parts)}</span><span class="olc-tour-claim-wait">shown once round {t} is drawn.'
                    f'</span></p>')
        return f'<p class="olc-tour-claim"><strong>{lead}</strong> {tex_html(said.parts)}</p>'
    return f'<p class="olc-tour-claim"><strong>✗ This stop cannot be shown as written:</strong> ' \
           f'{html.escape(clip(str(said), 400))}.</p>'


def bar_html(tour: Tour, k: int, *, claim: str, claim_html: str, carried: dict[str, str], present_on: bool,
             run: str | None = None, cue: str = "") -> str:
    """The bar's element (pure: tested as data). ``run``: the step viewer's run id of the run the claim was decided
    on (``data-run``: the viewer under it shows that run when its ``data-run-id`` is the same)."""
    s = tour.stops[k]
    n = len(tour)
    prev_href = stop_href(tour, k - 1, carried) if k > 0 else None
    next_href = stop_href(tour, k + 1, carried) if k + 1 < n else None
    here = html.escape(stop_href(tour, k, carried))
    run_attr = f' data-run="{html.escape(str(run))}"' if run is not None else ""
    run_attr += f' data-ask="{s.t}"' if s.ask else ""
    end = ('<a class="olc-tour-btn olc-tour-end" href="tours" target="_self"><span class="olc-tour-word">End of the '
           'tour: </span>all tours</a>' if next_href is None else "")
    return (
        f'<nav class="{CLASS}{" olc-tour-present" if present_on else ""} {PROSE_CLASS}" aria-label="Tour" '
        f'data-tour="{html.escape(tour.id)}" data-stop="{k + 1}" data-stops="{n}" data-claim="{claim}" '
        f'data-here="{here}"{run_attr}>'
        f'<div class="olc-tour-head"><span class="olc-tour-count">Stop {k + 1} of {n}</span>'
        f'<a class="olc-tour-title" href="tours" target="_self">{html.escape(clip(tour.title, 120))}</a>'
        f'<span class="olc-tour-ref">{html.escape(clip(s.ref, 160))}</span></div>'
        f'<div class="olc-tour-text">{to_html(s.text)}</div>'
        f'<button type="button" class="olc-tour-more" aria-expanded="false">The whole text</button>{cue}{claim_html}'
        f'<div class="olc-tour-nav">{_link(prev_href, "olc-tour-prev", "←", "Previous", "PageUp")}'
        f'{_link(next_href, "olc-tour-next", "→", "Next", "PageDown") if next_href else end}</div></nav>')


def _style() -> str:
    return (_HERE / "tour.css").read_text(encoding="utf-8")


#: PageDown / PageUp and the bar's Previous / Next move to the next / previous stop: on the same page the viewer's tour
#: mode moves without a page load (``window.__olcTourGo(dir)`` answers true: assets/viewer_tour.js), else the stop's
#: link is opened (registered once per document; the links are read from the bar on screen at each press). Keys typed
#: into a text field are left alone, as are modified keys and clicks. "Show the line" / "Show the chart" scrolls what the
#: stop points at into view; on a phone "The whole text" shows the stop's text past its first three lines.
KEYS_JS = """(() => {
if (window.__olcTourKeys) return;
window.__olcTourKeys = true;
const soft = (dir) => { const go = window.__olcTourGo; return typeof go === "function" && go(dir) === true; };
document.addEventListener("keydown", (e) => {
  if (e.key !== "PageDown" && e.key !== "PageUp") return;
  if (e.altKey || e.ctrlKey || e.metaKey || e.shiftKey) return;
  const t = e.target;
  if (t && (t.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName || ""))) return;
  const bar = document.querySelector(".olc-tour");
  const a = bar && bar.querySelector(e.key === "PageDown" ? "a.olc-tour-next, a.olc-tour-end" : "a.olc-tour-prev");
  if (!a) return;
  e.preventDefault();
  e.stopPropagation();
  if (!a.classList.contains("olc-tour-end") && soft(e.key === "PageDown" ? 1 : -1)) return;
  window.location.assign(a.href);
}, true);
document.addEventListener("click", (e) => {
  const more = e.target && e.target.closest && e.target.closest(".olc-tour .olc-tour-more");
  if (more) {
    const open = more.getAttribute("aria-expanded") !== "true";
    more.setAttribute("aria-expanded", open ? "true" : "false");
    more.textContent = open ? "Less of the text" : "The whole text";
    more.closest(".olc-tour").dataset.full = open ? "true" : "false";
    return;
  }
  const show = e.target && e.target.closest && e.target.closest(".olc-tour .olc-tour-show");
  const shown = show && document.querySelector(".olc-viewer .olc-tour-pointed");
  if (shown) { shown.scrollIntoView({ block: "center", behavior: "instant" }); return; }
  const a = e.target && e.target.closest && e.target.closest(".olc-tour a.olc-tour-prev, .olc-tour a.olc-tour-next");
  if (!a || e.button !== 0 || e.altKey || e.ctrlKey || e.metaKey || e.shiftKey) return;
  if (soft(a.classList.contains("olc-tour-next") ? 1 : -1)) e.preventDefault();
}, true);
})();"""


#: On a phone the stop's text and claim are drawn clamped (tour.css): "The whole text" is offered only when something
#: is cut (the bar's ``data-clamped``), checked as the bar's maths is typeset and whenever its size changes.
CLAMP_JS = """(() => {
const bar = document.querySelector(".olc-tour");
if (!bar || bar.__olcClamp) return;
bar.__olcClamp = true;
const parts = () => [bar.querySelector(".olc-tour-text p"), bar.querySelector(".olc-tour-claim")].filter(Boolean);
const check = () => {
  if (bar.dataset.full === "true") return;
  if (parts().some((e) => e.scrollHeight > e.clientHeight + 1)) bar.dataset.clamped = "true";
  else delete bar.dataset.clamped;
};
if (typeof ResizeObserver !== "undefined") { const ro = new ResizeObserver(check); for (const e of parts()) ro.observe(e); }
new MutationObserver(check).observe(bar, { childList: true, subtree: true });
check();
})();"""


def draw(*, trace, settings: list[Setting], values: dict[str, Any], T: int, run: str | None = None,
         view: dict[str, Any] | None = None) -> dict | None:
    """Draw the bar when the page is opened at a tour's stop; returns what it showed ({tour, stop, claim,
    sentence, mode: the viewer's tour mode}) or None. ``trace``: the run the page shows (its claim is decided on it), or {name: trace} on a page
    that shows several (the stop's ``run`` names one); ``settings`` / ``values``:
    the page's declared settings and their values now; ``T``: the rounds of the run on screen; ``run``: its run id
    (the viewer's ``run_id``); ``view``: what the stop may ask and point at (olc_ui/shared/tours/cues.view_of)."""
    here = _here()
    if here is None:
        return None
    tour, k = here
    stop = tour.stops[k]
    problems = stop_problems(stop, settings, T) + cues.problems(stop, view)
    differs = [] if problems else _differs(stop, settings, values)
    said: Verdict | str | None = None
    if problems:
        claim = "fails"
        said = f"stop {k + 1}, " + "; ".join(problems)
    elif differs:
        claim = "off"
    else:
        said = verdict(stop, trace, T)
        claim = "holds" if isinstance(said, Verdict) and said.holds else "fails"
    body = bar_html(tour, k, claim=claim, claim_html=claim_html(claim, said, stop.t, differs, stop.ask),
                    carried=_carried(), present_on=present.is_on(), run=run,
                    cue="" if problems else cues.cue_html(stop, view))
    st.html(f"{PROSE_CSS}<style>{_style()}</style>{body}<script>{typeset_script()}\n{KEYS_JS}\n{CLAMP_JS}</script>",
            unsafe_allow_javascript=True)
    sentence = said.sentence if isinstance(said, Verdict) else said
    return {"tour": tour.id, "stop": k + 1, "stops": len(tour), "claim": claim, "sentence": sentence,
            "json": json.dumps(stop.claim), "mode": mode_options(tour, k, settings, values)}


def _here(say: bool = True) -> tuple[Tour, int] | None:
    """The tour and the stop (0-based) the page stands for, when that stop is on this page; else None (``say``: the
    reason in one sentence, for a link that names a stop)."""
    link = active()
    if link is None:
        return None
    tour = _find(link[0], say)
    if tour is None:
        if say and not state.link().get("tourdata"):     # (a link's own tour that cannot be read was said so)
            notice("warning", "The tour in the link is not one this app knows: ", f"{clip(link[0], 48)!r}.")
        return None
    k = stop_index(link[1], len(tour))
    if k is None:
        if say:
            notice("warning", "The link's stop is not a stop of this tour: ",
                   f"stop {clip(link[1], 6)!r}; the tour {tour.title!r} has stops 1 to {len(tour)}.")
        return None
    page_here = current_page()
    if page_here is not None and page_here != tour.stops[k].page:
        if say:
            notice("info", "The link's tour stop is on another page: ", f"stop {k + 1} of {tour.title!r} is on the "
                   f"page {tour.stops[k].page!r}.")
        return None
    return tour, k


def opening(start: int, from_link: bool) -> int:
    """Where the page's viewer opens (``start``, from the link when ``from_link``): on a stop that asks about its
    round, one round before it (olc_ui/shared/tours/cues.opening)."""
    here = _here(say=False)
    return start if here is None else cues.opening(here[0].stops[here[1]], start, from_link)
