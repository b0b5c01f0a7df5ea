"""The step viewer's tour mode (assets/viewer_tour.js) and the URL mirror's guard (olc_ui/shared/url_sync.js) under
node, with a stand-in viewer and browser: a PageDown to a stop on the same page puts the stop's link in the address bar
(pushState, marked with the stop), draws the stop's round at once when the run is the same (else waits, the viewer
busy) and reports both in one value; a stop on another page is left to the bar (a page load); another mode may refuse
a move; Back moves without a report of its own; an earlier run's URL is not written over a stop's entry."""
from __future__ import annotations

import json
import shutil
import subprocess

import pytest

from tests.conftest import ROOT

NODE = shutil.which("node")
ASSETS = ROOT / "olc_ui" / "viewer" / "assets"

STUB = """
const log = [];
const listeners = {};
globalThis.document = { querySelector: () => null };
globalThis.performance = globalThis.performance || { now: () => Date.now() };
globalThis.window = {
  location: { href: "http://x/base/perceptron?gamma=0.1&t=70&tour=demo&stop=1" },
  history: { state: null, length: 1,
    pushState(s, _, href) { this.state = s; window.location.href = new URL(href, window.location.href).href; log.push(["push", href, s]); },
    replaceState(s, _, href) { this.state = s; window.location.href = new URL(href, window.location.href).href; log.push(["replace", href, s]); } },
  addEventListener(t, f) { listeners[t] = f; }, removeEventListener(t) { delete listeners[t]; },
};
const modes = await import(process.argv[2]);
await import(process.argv[3]);
const stops = [
  { page: "perceptron", t: 70, href: "perceptron?gamma=0.1&t=70&tour=demo&stop=1", run: "A" },
  { page: "perceptron", t: 200, href: "perceptron?gamma=0.1&t=200&tour=demo&stop=2", run: "A" },
  { page: "perceptron", t: 10, href: "perceptron?data=tight&t=10&tour=demo&stop=3", run: "B" },
  { page: "winnow", t: 2, href: "winnow?t=2&tour=demo&stop=4" },
];
const root = { attrs: {}, dataset: {}, setAttribute(k, v) { this.attrs[k] = v; }, removeAttribute(k) { delete this.attrs[k]; } };
const view = { root, ready: true, T: 200, p: 70, playing: false, modes: [],
  renderNow() { log.push(["render", this.p]); }, mirrorUrl() {}, pause() {}, scheduleReport() { log.push(["schedule"]); },
  setStateValue(k, v) { log.push(["report", k, v]); } };
const tour = modes.MODES.get("tour")(view, { id: "demo", stop: 1, page: "perceptron", run: "A", stops });
view.modes.push(tour);
const out = {};
out.same = window.__olcTourGo(1);
out.afterSame = { p: view.p, stop: tour.stop, here: tour.tourHere(), log: log.splice(0) };
out.other = window.__olcTourGo(1);
out.afterOther = { p: view.p, stop: tour.stop, busy: root.attrs["aria-busy"] || null, log: log.splice(0) };
tour.update({ id: "demo", stop: 3, page: "perceptron", run: "B", stops });   // Python's run for stop 3 came
out.caughtUp = { state: window.history.state, busy: root.attrs["aria-busy"] || null, log: log.splice(0) };
tour.onReady();
out.ready = { busy: root.attrs["aria-busy"] || null };
out.page = window.__olcTourGo(1);                   // stop 4 is on Winnow's page: the bar opens its link
out.afterPage = { stop: tour.stop, log: log.splice(0) };
view.modes.unshift({ beforeTour: () => false });    // e.g. a class's "all eyes here"
out.refused = window.__olcTourGo(-1);
out.afterRefused = { stop: tour.stop, log: log.splice(0) };
view.modes.shift();
window.location.href = "http://x/base/perceptron?gamma=0.1&t=200&tour=demo&stop=2";   // Back to stop 2
listeners.popstate();
out.back = { p: view.p, stop: tour.stop, log: log.splice(0) };
tour.destroy();
out.gone = typeof window.__olcTourGo;
console.log(JSON.stringify(out));
"""


@pytest.mark.skipif(NODE is None, reason="node is not installed")
def test_the_tour_mode_moves_on_the_same_page_and_leaves_other_pages_to_the_bar(tmp_path):
    script = tmp_path / "t.mjs"
    script.write_text(STUB)
    out = json.loads(subprocess.run([NODE, str(script), (ASSETS / "viewer_modes.js").as_uri(),
                                     (ASSETS / "viewer_tour.js").as_uri()],
                                    check=True, capture_output=True, text=True, timeout=60).stdout)
    # stop 2, the same run: the link in the address bar (marked), the round drawn at once, one report of both
    assert out["same"] is True and out["afterSame"]["p"] == 200 and out["afterSame"]["stop"] == 2
    log = out["afterSame"]["log"]
    assert log[0] == ["push", "perceptron?gamma=0.1&t=200&tour=demo&stop=2", {"olcTourStop": 2}]
    assert ["render", 200] in log
    [report] = [e for e in log if e[0] == "report"]
    assert report[1] == "position" and report[2]["t"] == 200
    assert {k: report[2]["tour_stop"][k] for k in ("tour", "stop")} == {"tour": "demo", "stop": 2}
    assert out["afterSame"]["here"] == {"id": "demo", "stop": 2}
    # stop 3, another run: nothing of the old run drawn at the new round; the viewer busy until the run comes
    assert out["other"] is True and out["afterOther"]["p"] == 200 and out["afterOther"]["busy"] == "true"
    assert not [e for e in out["afterOther"]["log"] if e[0] == "render"]
    assert [e[2]["t"] for e in out["afterOther"]["log"] if e[0] == "report"] == [10]
    # Python's run for stop 3 came: the entry's mark goes (url_sync writes that run's URL), the new run is drawn
    assert out["caughtUp"]["state"] == {} and out["ready"]["busy"] is None
    # another page: the bar opens the link; a refusal: nothing moves
    assert out["page"] is False and out["afterPage"] == {"stop": 3, "log": []}
    assert out["refused"] is True and out["afterRefused"] == {"stop": 3, "log": []}
    # Back to stop 2 (same run as on screen? no: run B is on screen, stop 2 is run A): no report of its own, busy
    assert out["back"]["stop"] == 2 and not [e for e in out["back"]["log"] if e[0] in ("report", "push")]
    assert out["gone"] == "undefined"


URL_SYNC = """
const log = [];
globalThis.window = { location: { href: "http://x/perceptron?data=tight&stop=3&tour=demo&t=10" },
  history: { state: { olcTourStop: 3 }, replaceState(s, _, href) { log.push(href); } } };
const sync = (await import(process.argv[2])).default;
sync({ data: { params: { data: "generated", tour: "demo", stop: "2" }, fallback: { t: "200" } } });   // an earlier run
const stale = log.length;
sync({ data: { params: { data: "tight", tour: "demo", stop: "3" }, fallback: { t: "10" } } });        // the stop's run
window.history.state = null;
sync({ data: { params: { data: "generated", tour: "demo", stop: "2" }, fallback: { t: "200" } } });   // no move pending
console.log(JSON.stringify({ stale, log }));
"""


@pytest.mark.skipif(NODE is None, reason="node is not installed")
def test_url_sync_does_not_write_an_earlier_runs_url_over_a_stops_entry(tmp_path):
    script = tmp_path / "u.mjs"
    script.write_text(URL_SYNC)
    out = json.loads(subprocess.run([NODE, str(script), (ROOT / "olc_ui" / "shared" / "url_sync.js").as_uri()],
                                    check=True, capture_output=True, text=True, timeout=60).stdout)
    assert out["stale"] == 0
    assert out["log"] == ["http://x/perceptron?data=tight&tour=demo&stop=3&t=10",
                          "http://x/perceptron?data=generated&tour=demo&stop=2&t=10"]
