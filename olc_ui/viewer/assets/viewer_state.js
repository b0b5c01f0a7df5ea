// olc step viewer: the position, its stops, the URL mirror, the report to Python, and the round
// this tab last showed of each run (sessionStorage).
// Methods of the Viewer (mixed into its prototype by viewer.js); `this` is the viewer.

import { callHook } from "./viewer_modes.js";
import { clamp, lowerBound, upperBound } from "./viewer_util.js";

export const REPORT_DELAY_MS = 400;      // setStateValue after this long without a step
export const URL_MIN_INTERVAL_MS = 200;  // replaceState at most this often (browsers throttle it)


// The round each viewer last showed of each run, for this browser tab: a student who leaves a
// page during Play and comes back finds the round that was on screen (Python only hears of the
// position when playback pauses). sessionStorage: per tab, gone when the tab closes.
export function shownKey(name, runId) { return "olc-shown:" + name + ":" + runId; }
export function rememberShown(name, runId, p) {
  try { window.sessionStorage.setItem(shownKey(name, runId), String(p)); } catch (e) { /* storage off */ }
}
export function shownBefore(name, runId) {
  try {
    const v = window.sessionStorage.getItem(shownKey(name, runId));
    return v !== null && /^[0-9]+$/.test(v) ? Number(v) : null;
  } catch (e) { return null; }
}
export class StateMethods {
  k(p = this.p) { return upperBound(this.breaks, p); }

  setPosition(p, { immediate = false } = {}) {
    if (this.T === undefined) return;
    const asked = callHook(this, "beforeStep", clamp(Math.round(p), 0, this.T), this.p);
    if (asked === false) return;  // a mode holds the step (e.g. predict-then-reveal: the class answers first)
    p = clamp(Math.round(typeof asked === "number" ? asked : p), 0, this.T);
    if (p === this.p) return;
    this.p = p;
    // scrubbing and held keys fire faster than frames: those are drawn once per frame
    if (immediate || this.immediate) this.renderNow(); else this.scheduleRender();
    this.mirrorUrl(false);
    if (!this.playing) this.scheduleReport();
  }

  jumpStop(i, dir) {
    const target = this.stopTarget(i, dir);
    if (target !== null) { this.pause(false); this.setPosition(target); }
  }

  // The position that shows the previous / next round of stop list i as current.
  stopTarget(i, dir) {
    const rounds = this.stops[i].rounds, r = this.p - 1;
    if (dir > 0) {
      const j = upperBound(rounds, r);
      return j < rounds.length ? rounds[j] + 1 : null;
    }
    const j = lowerBound(rounds, r) - 1;
    return j >= 0 ? rounds[j] + 1 : null;
  }

  mirrorUrl(now) {
    const param = this.spec && this.spec.url_param;
    if (!param) return;
    const write = () => {
      this.urlTimer = null;
      this.lastUrlAt = performance.now();
      const url = new URL(window.location.href);
      if (url.searchParams.get(param) === String(this.p)) return;
      url.searchParams.set(param, String(this.p));
      try { window.history.replaceState(window.history.state, "", url.href); } catch (e) { /* throttled */ }
    };
    if (now || performance.now() - this.lastUrlAt >= URL_MIN_INTERVAL_MS) {
      if (this.urlTimer) { clearTimeout(this.urlTimer); this.urlTimer = null; }
      write();
    } else if (!this.urlTimer) {
      this.urlTimer = setTimeout(write, URL_MIN_INTERVAL_MS - (performance.now() - this.lastUrlAt));
    }
  }

  scheduleReport() {
    if (this.reportTimer) clearTimeout(this.reportTimer);
    this.reportTimer = setTimeout(() => {
      this.reportTimer = null;
      if (this.playing || !this.setStateValue) return;
      // a mode waits for Python's run (a tour's move: a report now would carry the widgets' old values)
      if (callHook(this, "beforeReport") === false) { this.scheduleReport(); return; }
      if (this.p === this.lastReported) return;
      this.lastReported = this.p;
      this.serverP = this.p;
      this.setStateValue("position", this.p);
    }, REPORT_DELAY_MS);
  }
}
