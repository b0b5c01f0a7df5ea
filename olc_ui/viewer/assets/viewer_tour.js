// olc step viewer: a lecture's tour (a mode module: viewer_modes.js; docs/tours.md, "The player").
//
// Python (olc_ui/shared/tours/bar.py, mode_options) turns it on when the page shows a tour's stop:
// modes = {"tour": {id, stop (1-based), page, run, stops: [{page, t, href, run?}], data?}} — `run` says which run the
// page shows (a stop on this page with the same `run` shows the same one), `href` is each stop's link, `data` an own
// tour's file as it travels in links. The bar (drawn by Python above the viewer) sends PageDown / PageUp and its
// Previous / Next here first (window.__olcTourGo(dir)): a stop on the same page is reached without a page load —
// its link goes into the address bar (history.pushState: Back returns to the stop before), the viewer goes to the
// stop's round at once (on the run on screen; a new run is drawn at that round when it comes) and Python is told
// (the position report setStateValue("position", {t, tour_stop: {tour, stop}})): it gives the page the stop's settings
// and draws its bar. A stop on
// another page is opened as a link (the bar does it). Back and Forward between two stops of this page
// (popstate) move the same way. Other modes may refuse a move (hook beforeTour: a class's "all eyes here") and
// read where the tour is (tourHere(): the class session sends it with the lecturer's state).
//
// A stop may ask (stops[k].ask: predict-then-reveal's question about its round t, the viewer at t − 1; in a class
// session the lecturer's question opens for the class at once, and a following student answers the lecturer's) and
// point (stops[k].point: {ledger: n} or {chart: id}): the line or chart is outlined and marked "Look here" in text,
// and described by the bar's sentence that names it (#olc-tour-look). While the stop's round is not yet drawn, the
// bar's claim statement is covered (data-asking on the bar: it would give the answer away).

const TOUR_LOOK_ID = "olc-tour-look";

import { callHook, registerMode } from "./viewer_modes.js";
import { clamp, el } from "./viewer_util.js";
import { classLink } from "./viewer_class.js";

const TOUR_PENDING_MS = 4000;   // a move asked of Python: its own stop wins over Python's for this long

class TourMode {
  constructor(view, o) {
    this.view = view;
    this.asked = null;
    this.update(o);
    this.offs = [];
    this.go = (dir) => this.step(dir);
    window.__olcTourGo = this.go;
    this.onPop = () => this.popped();
    window.addEventListener("popstate", this.onPop);
  }

  // New options in place (Python's rerun after a move, or a setting changed): no rebuild of the viewer.
  update(o) {
    this.o = o && typeof o === "object" ? o : {};
    const stops = Array.isArray(this.o.stops) ? this.o.stops : [];
    this.stops = stops;
    const waiting = this.asked && performance.now() - this.asked.at < TOUR_PENDING_MS && this.asked.stop !== this.o.stop;
    if (!waiting) {
      if (this.asked) this.caughtUp();
      this.asked = null;
      this.stop = Number(this.o.stop) || 1;
      this.run = typeof this.o.run === "string" ? this.o.run : null;
    }
    return true;
  }

  // Until Python's run for the stop asked has come, the viewer's own position reports wait: a rerun asked now would
  // carry the widgets' values of the stop before (Streamlit's browser has not heard of the new ones yet), and undo
  // the move's settings.
  beforeReport() {
    return this.asked && performance.now() - this.asked.at < TOUR_PENDING_MS ? false : undefined;
  }

  // Python's run for the stop asked has come: the address bar's entry takes that run's URL again (url_sync.js).
  caughtUp() {
    const st = window.history.state;
    if (!st || typeof st !== "object" || !("olcTourStop" in st)) return;
    const { olcTourStop, ...rest } = st;
    try { window.history.replaceState(rest, "", window.location.href); } catch (e) { /* throttled */ }
  }

  // Where the tour is: {id, stop, data?} (the class session's `state` carries it).
  tourHere() {
    const here = { id: String(this.o.id || ""), stop: this.stop };
    if (typeof this.o.data === "string" && this.o.data) here.data = this.o.data;
    return here;
  }

  // PageDown (+1) / PageUp (−1): true when handled here (moved, or refused by another mode), false when the bar
  // should open the stop's link (another page, the end of the tour).
  step(dir) {
    const k = this.stop - 1 + dir;
    const target = this.stops[k];
    if (!target) return false;
    if (callHook(this.view, "beforeTour", k + 1) === false) return true;
    if (target.page !== this.o.page || typeof this.view.setStateValue !== "function") return false;
    // the entry says which stop it is until Python's run for it has come: an earlier run's URL (url_sync.js) is
    // then not written over it
    const state = { ...(window.history.state && typeof window.history.state === "object" ? window.history.state : {}),
      olcTourStop: k + 1 };
    try { window.history.pushState(state, "", target.href); } catch (e) { return false; }
    this.move(k);
    return true;
  }

  // Back / Forward to another stop of this tour on this page: Streamlit reruns the page with that entry's address
  // (Python then gives the page the stop's settings: olc_ui/shared/tours/bar.setup); here the viewer goes to its round.
  popped() {
    let url;
    try { url = new URL(window.location.href); } catch (e) { return; }
    const k = Number(url.searchParams.get("stop")) - 1;
    const last = url.pathname.split("/").filter(Boolean).pop() || "";
    const target = this.stops[k];
    if (url.searchParams.get("tour") !== this.o.id || !target || target.page !== this.o.page ||
        decodeURIComponent(last) !== this.o.page || k === this.stop - 1) return;
    if (callHook(this.view, "beforeTour", k + 1) === false) return;
    this.move(k, false);
  }

  // Go to stop k (0-based) on this page; `tell`: Python is told (a PageDown), else it is told by Streamlit's own
  // rerun with the entry's address (Back, Forward).
  move(k, tell = true) {
    const v = this.view, target = this.stops[k];
    // a stop that asks about its round opens one round before it (the answer draws it)
    const t = Math.max(0, Math.round(Number(target.t) || 0) - (target.ask ? 1 : 0));
    const same = typeof target.run === "string" && target.run === this.run;
    this.stop = k + 1;
    this.run = typeof target.run === "string" ? target.run : null;
    this.asked = { stop: k + 1, at: performance.now() };
    if (v.playing) v.pause(false);
    const bar = document.querySelector(".olc-tour");     // scrolled away (to a ledger line, say): the bar back in view
    if (bar && bar.getBoundingClientRect().top < 0) bar.scrollIntoView({ block: "start", behavior: "instant" });
    if (v.reportTimer) { clearTimeout(v.reportTimer); v.reportTimer = null; }   // the move reports the round itself
    v.lastReported = t;
    if (same && v.ready) {          // the run on screen: drawn at the stop's round now
      this.pendingT = null;
      v.p = v.T === undefined ? t : clamp(t, 0, v.T);
      v.serverP = t;
      v.renderNow();
      v.mirrorUrl(true);
    } else {                        // another run: drawn at the round Python sends when it comes, not before
      this.pendingT = t;            // (no frame of the old run under the new stop's bar)
      v.serverP = -1;
      this.busy(true);
    }
    // one report, one rerun (two at once would race Streamlit's cache of large messages): the round and the stop
    if (tell) v.setStateValue("position", { t, tour_stop: { tour: String(this.o.id || ""), stop: k + 1, at: Date.now() } });
    else if (same) { v.lastReported = null; v.scheduleReport(); }   // the run on screen: its round, once settled
  }

  // While the stop's run is on its way the viewer says it is busy (and is drawn faded: viewer.css).
  busy(on) {
    const root = this.view.root;
    if (this.busyTimer) { clearTimeout(this.busyTimer); this.busyTimer = null; }
    if (!root) return;
    if (on) {
      root.setAttribute("aria-busy", "true");
      root.dataset.tourMoving = "true";
      this.busyTimer = setTimeout(() => { this.busyTimer = null; this.settle(); }, TOUR_PENDING_MS);
    } else {
      root.removeAttribute("aria-busy");
      delete root.dataset.tourMoving;
    }
  }

  // The stop's round drawn on the run on screen, when Python's answer kept it (a setting that does not change the
  // run), or when nothing came in time.
  settle() {
    const v = this.view;
    this.busy(false);
    if (this.pendingT === null || this.pendingT === undefined || !v.ready) return;
    v.p = v.T === undefined ? this.pendingT : clamp(this.pendingT, 0, v.T);
    v.serverP = v.p;
    this.pendingT = null;
    v.renderNow();
    v.mirrorUrl(true);
  }

  // Python's answer came: the same run (settle now) or a new one (being built: it opens at the stop's round).
  onModes() {
    queueMicrotask(() => {
      if (!this.view.ready) return;      // a new run is being built: onReady follows
      if (this.pendingT !== null && this.pendingT !== undefined) this.settle();
      if (!this.asked) this.arrive();
    });
  }

  onReady() { this.pendingT = null; this.busy(false); this.arrive(); }

  onRender(p) { this.cover(p); }

  // The stop on screen as Python drew it (a page load, a new run, or options taken in place): what it points at,
  // and its question, asked once per arrival.
  arrive() {
    this.point();
    this.cover(this.view.p);
    const here = `${this.o.id}#${this.stop}`;
    if (this.asked || this.arrived === here) return;
    this.arrived = here;
    this.ask();
  }

  current() { return this.stops[this.stop - 1] || null; }

  // The stop's question: the predict mode asks about its round (the viewer at the round before it); a lecturer's
  // opens for the class (once the session has said what is open, so that a reload does not open it twice); a
  // student following the lecturer waits for the lecturer's.
  ask() {
    const s = this.current(), v = this.view;
    if (!s || !s.ask || !v.ready) return;
    const r = Math.round(Number(s.t) || 0);
    if (v.p !== r - 1) return;
    const pr = (v.modes || []).find((m) => m && typeof m.askAt === "function");
    if (!pr) return;
    const link = classLink();
    if (link && link.role === "student" && link.following && !link.closed) return;
    const lecturer = !!(link && link.role === "lecturer" && !link.closed);
    if (lecturer && !link.last("welcome")) {
      const off = link.on("welcome", () => { off(); if (v.p === r - 1) pr.askAt(r, true); });
      this.offs.push(off);
      return;
    }
    pr.askAt(r, lecturer);
  }

  // The claim's statement about the stop's round is covered while the viewer stands before that round.
  cover(p) {
    const bar = document.querySelector(".olc-tour");
    const s = this.current();
    if (!bar) return;
    const asking = !!(s && s.ask && bar.dataset.ask === String(s.t) && p < Number(s.t));
    if (asking) bar.dataset.asking = "true"; else delete bar.dataset.asking;
  }

  // Outline what the stop points at, say "Look here" in text, describe it by the bar's sentence.
  point() {
    this.unpoint();
    const s = this.current(), v = this.view;
    const pt = s && s.point;
    if (!pt || !v.root) return;
    let box = null, named = null;
    if (typeof pt.chart === "string") {
      const f = (v.figs || []).find((g) => g.spec && g.spec.id === pt.chart);
      if (f) { box = f.box; named = f.gd; }
    } else if (Number.isInteger(pt.ledger)) {
      const line = (v.ledgerLines || [])[pt.ledger - 1];
      if (line) { box = line.row; named = line.row; }
    }
    if (!box) return;
    const mark = el("span", "olc-tour-mark", `Look here (stop ${this.stop})`);
    mark.setAttribute("aria-hidden", "true");        // said to screen readers by the description below
    box.classList.add("olc-tour-pointed");
    // at the start of the chart's title (a line of its own would move the chart), or of the ledger line's reason
    const lead = box.querySelector(":scope > .olc-figure-title, .olc-reason");
    (lead || box).prepend(mark);
    const before = named.getAttribute("aria-describedby");
    named.setAttribute("aria-describedby", before ? `${TOUR_LOOK_ID} ${before}` : TOUR_LOOK_ID);
    this.pointed = { box, mark, named, before };
  }

  unpoint() {
    const p = this.pointed;
    if (!p) return;
    this.pointed = null;
    p.box.classList.remove("olc-tour-pointed");
    p.mark.remove();
    if (p.before) p.named.setAttribute("aria-describedby", p.before); else p.named.removeAttribute("aria-describedby");
  }

  destroy() {
    this.busy(false);
    this.unpoint();
    for (const off of this.offs) off();
    this.offs = [];
    window.removeEventListener("popstate", this.onPop);
    if (window.__olcTourGo === this.go) delete window.__olcTourGo;
  }
}

registerMode("tour", (view, options) => new TourMode(view, options));
