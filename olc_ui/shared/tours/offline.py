"""A tour as one offline HTML file (issue 36 §1: "a tour downloads the same way, its stops as sections"): one section
per stop — "Stop k of n", the note's reference, the stop's text (its formulas typeset by the inlined KaTeX), its
claim decided on the stop's run with its sentence (as the tour bar decides and words it, olc_ui/shared/tours/bar.py)
and the stop's step viewer opened at the stop's round — with a list of the stops at the top. Everything is in the
file (the step viewer's bundle, plotly.js, KaTeX and each run's spec: :mod:`olc_ui.shared.offline`'s parts); it
opens from disk with the network off.

The runs: each page a tour can visit hands its ``stop_run(values)`` (the spec and the run the page shows for those
settings, as its page script makes them; ``runs``), with its declared settings (``tables``); stops with the same
page and settings share one run in the file. A viewer is mounted when its section comes near the screen (seventeen
sections' charts at once would hold the page up); the keys go to the viewer of the section on screen
(``data-olc-keys="here"``, viewer_keys.js). A stop that cannot be shown (a setting the page lacks, a round past the
run's end, a run the page refuses) keeps its text and says why, as the bar does.

Everything of a tour file is untrusted: its title, reference and text reach the file as escaped HTML (the text
through the prose renderer, olc_ui/viewer/prose.py), its settings only as values the page's own table decodes.
"""
from __future__ import annotations

import html
import json
import re
from typing import Any, Callable

from olc_core.claims import Verdict

from olc_ui.shared import offline
from olc_ui.shared.config import Setting, url_values
from olc_ui.shared.safe import clip
from olc_ui.shared.tours.bar import claim_html, stop_problems, verdict
from olc_ui.shared.tours.format import Tour
from olc_ui.viewer.prose import CLASS as PROSE_CLASS
from olc_ui.viewer.prose import TEX_CLASS, to_html

__all__ = ["tour_html", "file_name", "RunFor"]

#: a page's run for a stop: its settings (decoded by the page's table) → (the spec, the run or {name: run})
RunFor = Callable[[dict[str, Any]], tuple[dict, Any]]


def _runs(tour: Tour, tables: dict[str, list[Setting]], runs: dict[str, RunFor]) -> tuple[list[dict], list[dict]]:
    """(the distinct runs' specs, one entry per stop: its run's index or None, its claim's state and paragraph)."""
    specs: list[dict] = []
    made: dict[tuple, tuple[int | None, Any, str | None]] = {}
    stops = []
    for k, stop in enumerate(tour.stops):
        key = (stop.page, tuple(sorted(stop.settings.items())))
        if key not in made:
            table, run_for = tables.get(stop.page), runs.get(stop.page)
            if table is None or run_for is None:
                made[key] = (None, None, f"the page {stop.page!r} has no run a file can carry")
            else:
                values, _ = url_values(table, stop.settings)
                try:
                    spec, trace = run_for(values)
                    specs.append(spec)
                    made[key] = (len(specs) - 1, trace, None)
                except ValueError as exc:     # a run the page refuses (olc_ui.shared.data.DataError is one)
                    made[key] = (None, None, f"the page cannot make this run: {exc}")
        i, trace, problem = made[key]
        if problem is None:
            T = int(specs[i]["T"])
            found = stop_problems(stop, tables[stop.page], T)
            problem = "; ".join(found) if found else None
        said = f"stop {k + 1}, {problem}" if problem else verdict(stop, trace, int(specs[i]["T"]))
        state = "holds" if isinstance(said, Verdict) and said.holds else "fails"
        stops.append({"run": None if problem else i, "t": stop.t, "claim": state,
                      "html": claim_html(state, said, stop.t, [])})
    return specs, stops


def _section(tour: Tour, k: int, entry: dict, spec: dict | None) -> str:
    s = tour.stops[k]
    esc = (lambda x, n: html.escape(clip(x, n), quote=True))
    where = (f"The page <b>{esc(s.page, 40)}</b> at round {s.t} of {int(spec['T']):,}"
             + (f"; settings: {esc(', '.join(f'{a} = {b}' for a, b in s.settings.items()), 400)}" if s.settings else "")
             + (f"; the claim reads the run of {esc(s.run, 40)}" if s.run else "") + "." if spec is not None else "")
    run = (f'<div class="olc-stop-run" data-run="{entry["run"]}" data-t="{s.t}" data-stop="{k + 1}" '
           f'aria-label="Stop {k + 1}: the step viewer"></div>' if entry["run"] is not None else "")
    return (f'<section class="olc-stop" id="stop-{k + 1}" data-claim="{entry["claim"]}" '
            f'aria-labelledby="stop-{k + 1}-h"><h2 id="stop-{k + 1}-h">Stop {k + 1} of {len(tour)}'
            f'<span class="olc-stop-ref"> · {esc(s.ref, 160)}</span></h2>'
            f'<div class="{PROSE_CLASS} olc-stop-text">{to_html(s.text)}</div>{entry["html"]}'
            f'<p class="olc-stop-where">{where}</p>{run}</section>')


def tour_html(tour: Tour, tables: dict[str, list[Setting]], runs: dict[str, RunFor]) -> str:
    """The tour as one self-contained HTML file (module docstring); ValueError when its runs are too large."""
    specs, stops = _runs(tour, tables, runs)
    size = sum(offline.spec_bytes(s) for s in specs)
    if size > offline.MAX_SPEC_BYTES:
        raise ValueError(f"This tour's runs take {size / 1e6:.1f} MB and a file carries at most "
                         f"{offline.MAX_SPEC_BYTES / 1e6:.0f} MB.")
    head, tail = offline.viewer_parts(offline.spec_bundle(*specs))
    esc = (lambda x, n: html.escape(clip(x, n), quote=True))
    note = f"note [{esc(tour.note, 3)}], " if tour.note else ""
    about = (f'<p class="olc-offline-about">Saved from olc\'s tour <b>{esc(tour.title, 200)}</b> ({note}{len(tour)} '
             "stops): each stop's text, its reference, its claim decided on the stop's run and that run in a step "
             "viewer, every round of it in this file (it needs no network). In a step viewer: → / ← the next / "
             "previous round, Shift+→ / ← the next / previous mistake, Space play / pause, Home / End the first / "
             "last round; the keys step the viewer of the stop on screen.</p>")
    toc = "".join(f'<li><a href="#stop-{k + 1}">Stop {k + 1}</a> · {esc(s.ref, 160)} — '
                  f'{"✓ claim holds" if e["claim"] == "holds" else "✗ claim fails"}</li>'
                  for k, (s, e) in enumerate(zip(tour.stops, stops)))
    sections = "".join(_section(tour, k, e, specs[e["run"]] if e["run"] is not None else None)
                       for k, e in enumerate(stops))
    payload = {"runs": specs, "download": f"tour-{tour.id}", "assets": offline.LIB_URLS}
    packed = offline.packed(json.dumps(payload, allow_nan=False, separators=(",", ":")).encode("utf-8"))
    body = (f"<main><h1>{esc(tour.title, 200)}</h1>{about}<nav aria-label=\"Stops\"><ol class=\"olc-stops\">{toc}"
            f"</ol></nav>{sections}<noscript>This file draws the runs with JavaScript: allow scripts to see them."
            f'</noscript><p id="olc-tour-status" role="status"></p></main>'
            f'<script type="application/octet-stream" id="olc-payload">{packed}</script>{tail}'
            f'<script type="module">{offline.script_text(_start())}</script>')
    return offline.page_html(tour.title, head + f"<style>{_CSS}</style>", body)


def file_name(tour: Tour) -> str:
    """``tour-<id>-offline.html`` (the id holds only letters, digits and ``-``; anything else is dropped)."""
    return f"tour-{re.sub(r'[^a-z0-9-]', '', tour.id.lower())[:48]}-offline.html"


_CSS = (f".olc-stops{{margin:.4em 0 1em;padding-left:1.6em;line-height:1.5}}"
        f".olc-stop{{border-top:2px solid #ccc;margin-top:1.4em;padding-top:.6em;scroll-margin-top:.5em}}"
        f".olc-stop h2{{font-size:1.25em;margin:.1em 0 .3em}}.olc-stop-ref{{font-weight:400;font-style:italic;"
        f"color:#444}}.olc-stop-text p{{margin:.2em 0;font-size:1.05em;line-height:1.5}}"
        f".olc-tour-claim{{margin:.4em 0;padding:.15em 0 .15em .6em;border-left:5px solid #888}}"
        f".olc-stop[data-claim=holds] .olc-tour-claim{{border-left-color:#1a7f37}}"
        f".olc-stop[data-claim=fails] .olc-tour-claim{{border-left-color:#b3261e}}"
        f".olc-stop-where{{color:#444;font-size:.95em;margin:.2em 0 .6em}}.olc-stop-run{{min-height:420px}}"
        f"#olc-tour-status:empty{{display:none}}.{TEX_CLASS}{{white-space:nowrap}}")

#: unpack the libraries and the runs, typeset the stops' formulas, mount each stop's viewer when its section comes
#: near the screen, mark the section on screen as the one the keys step
_START = r"""
(async function () {
  "use strict";
  const status = document.getElementById("olc-tour-status");
  try {
    const URLS = __LIB_URLS__;
    await olcLibs(URLS);
    const katex = await window.__olcViewerLibs[URLS.katex_js];
    for (const el of document.querySelectorAll(".__TEX__")) {
      try { katex.render(el.textContent, el, { throwOnError: false, output: "htmlAndMathml" }); } catch (e) { }
      el.dataset.olcTex = "1";
    }
    const payload = JSON.parse(await olcUnpack("olc-payload"));
    const texts = payload.runs.map((s) => JSON.stringify(s));
    const mount = (box) => {
      if (box.dataset.mounted) return;
      box.dataset.mounted = "true";
      const spec = JSON.parse(texts[Number(box.dataset.run)]);     // each viewer its own copy of the run
      const k = box.dataset.stop;
      spec.url_param = "s" + k;                                     // each stop's round in the file's own URL
      const t = new URLSearchParams(window.location.search).get(spec.url_param);
      spec.position = Math.min(Number(t !== null && /^[0-9]+$/.test(t) ? t : box.dataset.t), spec.T);
      window.__olcMount({ data: { spec, assets: payload.assets, download: payload.download + "-stop" + k,
                                  resume: false, modes: {} }, parentElement: box, setStateValue: () => {} });
    };
    const boxes = [...document.querySelectorAll(".olc-stop-run")];
    const near = new IntersectionObserver((entries) => {
      for (const e of entries) if (e.isIntersecting) { mount(e.target); near.unobserve(e.target); }
    }, { rootMargin: "600px 0px" });
    boxes.forEach((b) => near.observe(b));
    const here = new IntersectionObserver((entries) => {   // the section across the middle of the screen
      for (const e of entries) {
        const sec = e.target;
        if (!e.isIntersecting) { if (sec.dataset.olcKeys === "here") delete sec.dataset.olcKeys; continue; }
        for (const other of document.querySelectorAll('.olc-stop[data-olc-keys="here"]')) delete other.dataset.olcKeys;
        sec.dataset.olcKeys = "here";
      }
    }, { rootMargin: "-45% 0px -45% 0px" });
    document.querySelectorAll(".olc-stop").forEach((sec) => here.observe(sec));
    if (window.location.hash) {                                     // a link to a stop: its viewer at once
      const target = document.getElementById(window.location.hash.slice(1));
      const box = target && target.querySelector(".olc-stop-run");
      if (box) mount(box);
    }
    document.body.dataset.ready = "true";
  } catch (err) {
    status.textContent = "This file could not draw the runs: " + (err && err.message ? err.message : err) + ". __NEEDS__";
    status.setAttribute("role", "alert");
  }
})();
"""


def _start() -> str:
    return (offline.UNPACK_JS + offline.FILL_LIBS_JS + _START).replace("__LIB_URLS__", json.dumps(offline.LIB_URLS)) \
        .replace("__NEEDS__", offline.NEEDS).replace("__TEX__", TEX_CLASS)
