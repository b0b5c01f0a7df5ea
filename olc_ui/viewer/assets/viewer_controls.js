// olc step viewer: the control bar (buttons, speed, scrubber, download), Play, and the keys.
// Methods of the Viewer (mixed into its prototype by viewer.js); `this` is the viewer.

import { el, icon, setIcon } from "./viewer_util.js";
import { MODES, callHook } from "./viewer_modes.js";
import { pressesItself } from "./viewer_keys.js";
import { serverBase } from "./viewer_libs.js";

export const SPEEDS = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000];

// The keys onKey handles, for a legend (viewer_present.js lists them on screen): keys, what, in short.
export const KEYS = [
  ["→ / ←", "next / previous round", "step"],
  ["Shift+→ / ←", "next / previous mistake", "mistake"],
  ["Space", "play / pause", "play"],
  ["Home / End", "first / last round", "ends"],
];

// Modes every viewer carries whatever Python asked for, after those (the phone layout, viewer_phone.js:
// it lays the controls out for a phone and does nothing on a wider screen or in presentation mode).
export const ALWAYS_MODES = ["phone"];

export class ControlMethods {
  // Attach the ALWAYS_MODES this viewer lacks (setModes replaced the list, or the first build).
  attachAlwaysModes() {
    for (const name of ALWAYS_MODES) {
      const factory = MODES.get(name);
      if (!factory || this.modes.some((m) => m && m.alwaysMode === name)) continue;
      const mode = factory(this, {});
      mode.alwaysMode = name;
      this.modes.push(mode);
    }
  }

  // The control bar: returned to buildDom, which places it.
  buildControls(spec) {
    this.attachAlwaysModes();
    const bar = el("div", "olc-controls");
    this.buttons = {};
    // accessible name = aria-label (exactly the spec's names); the visible glyph and
    // label are hidden from assistive technology
    const button = (name, glyph, label, onClick, cls, glyphAfter) => {
      const b = el("button", "olc-btn" + (cls ? " " + cls : ""));
      b.type = "button";
      b.setAttribute("aria-label", name);
      b.title = name;
      const g = icon(glyph);
      const l = el("span", "olc-label", label);
      l.setAttribute("aria-hidden", "true");
      if (glyphAfter) b.append(l, g); else b.append(g, l);
      b.addEventListener("click", () => {
        if (b.getAttribute("aria-disabled") === "true") return;
        this.immediate = true;  // a click draws at once (no wait for the next frame)
        try { onClick(); } finally { this.immediate = false; }
      });
      b.dataset.control = name.toLowerCase().replace(/[^a-z0-9]+/g, "-");  // for a mode's hide list
      this.buttons[name] = b;
      return b;
    };
    const nav = el("div", "olc-nav");
    nav.append(
      button("First", "first", "First", () => { this.pause(false); this.setPosition(0); }),
      button("Previous mistake", "prevStop", "Prev. mistake", () => this.jumpStop(0, -1)),
      button("Previous", "prev", "Prev.", () => { this.pause(false); this.setPosition(this.p - 1); }),
      button("Play", "play", "Play", () => this.togglePlay(), "olc-play"),
      button("Next", "next", "Next", () => { this.pause(false); this.setPosition(this.p + 1); }, "", true),
      button("Next mistake", "nextStop", "Next mistake", () => this.jumpStop(0, +1), "", true),
      button("Last", "last", "Last", () => { this.pause(false); this.setPosition(this.T); }, "", true),
    );
    bar.appendChild(nav);
    if (this.stops.length > 1) {
      const extra = el("div", "olc-nav olc-extra");
      this.stops.forEach((stop, i) => {
        if (i === 0) return;
        extra.append(
          button(`Previous ${stop.name}`, "prevStop", `Prev. ${stop.name}`, () => this.jumpStop(i, -1)),
          button(`Next ${stop.name}`, "nextStop", `Next ${stop.name}`, () => this.jumpStop(i, +1), "", true),
        );
      });
      bar.appendChild(extra);
    }
    // speed
    const speedWrap = el("label", "olc-speed");
    speedWrap.appendChild(el("span", "olc-speed-label", "Speed"));
    this.speedSelect = el("select");
    this.speedSelect.setAttribute("aria-label", "Speed");
    const wanted = spec.speed || Math.max(1, Math.round(this.T / 30));
    const speeds = SPEEDS.includes(wanted) ? SPEEDS : [...SPEEDS, wanted].sort((a, b) => a - b);
    let best = speeds[0];
    for (const s of speeds) if (Math.abs(Math.log(s / wanted)) < Math.abs(Math.log(best / wanted))) best = s;
    for (const s of speeds) {
      const o = el("option", null, `${s} ${s === 1 ? "round" : "rounds"}/s`);
      o.value = String(s);
      this.speedSelect.appendChild(o);
    }
    this.speedSelect.value = String(best);
    speedWrap.appendChild(this.speedSelect);
    bar.appendChild(speedWrap);
    // scrubber
    const scrub = el("div", "olc-scrub");
    this.range = el("input");
    this.range.type = "range";
    this.range.min = "0";
    this.range.max = String(this.T);
    this.range.step = "1";
    this.range.setAttribute("aria-label", "Round");
    this.range.addEventListener("input", () => { this.pause(false); this.setPosition(+this.range.value); });
    this.readout = el("span", "olc-readout");
    this.readout.setAttribute("aria-hidden", "true");
    scrub.append(this.range, this.readout);
    bar.appendChild(scrub);
    if (this.download && this.assets && this.assets.export) bar.appendChild(this.downloadButton());
    return bar;
  }

  renderControls() {
    if (!this.range) return;
    const p = this.p, T = this.T;
    this.range.value = String(p);
    this.range.setAttribute("aria-valuetext", this.roundText(p));  // "round 37 of 200, 5 mistakes" (viewer_a11y.js)
    this.readout.textContent = `${p} / ${T}`;
    const dis = (name, off) => { const b = this.buttons[name]; if (b) b.setAttribute("aria-disabled", off ? "true" : "false"); };
    dis("First", p === 0);
    dis("Previous", p === 0);
    dis("Next", p === T);
    dis("Last", p === T);
    dis("Play", T === 0);  // nothing to play (a game before its first move)
    this.stops.forEach((stop, i) => {
      const prev = i === 0 ? "Previous mistake" : `Previous ${stop.name}`;
      const next = i === 0 ? "Next mistake" : `Next ${stop.name}`;
      dis(prev, this.stopTarget(i, -1) === null);
      dis(next, this.stopTarget(i, +1) === null);
    });
    const play = this.buttons.Play;
    const name = this.playing ? "Pause" : "Play";
    if (play.getAttribute("aria-label") !== name) {
      play.setAttribute("aria-label", name);
      play.title = name;
      setIcon(play.querySelector(".olc-icon"), this.playing ? "pause" : "play");
      play.querySelector(".olc-label").textContent = name;
      play.setAttribute("aria-pressed", this.playing ? "true" : "false");
    }
  }

  // ---------------------------------------------------------------- play
  togglePlay() { if (this.playing) this.pause(true); else this.play(); }

  play() {
    if (this.playing || this.T === undefined || this.T === 0) return;
    if (this.p >= this.T) this.setPosition(0, { immediate: true });
    this.playing = true;
    this.playAcc = 0;
    this.playLast = null;
    this.renderControls();
    this.root.dataset.playing = "true";
    if (this.reportTimer) { clearTimeout(this.reportTimer); this.reportTimer = null; }
    const tick = (ts) => {
      if (!this.playing) return;
      this.playRaf = requestAnimationFrame(tick);
      if (this.playLast === null) { this.playLast = ts; return; }
      const speed = +this.speedSelect.value || 10;
      this.playAcc += ((ts - this.playLast) / 1000) * speed;
      this.playLast = ts;
      const n = Math.floor(this.playAcc);
      if (n < 1) return;
      this.playAcc -= n;
      this.setPosition(this.p + n, { immediate: true });
      if (this.p >= this.T) this.pause(true);
    };
    this.playRaf = requestAnimationFrame(tick);
  }

  pause(report) {
    if (!this.playing) return;
    this.playing = false;
    if (this.playRaf !== null) { cancelAnimationFrame(this.playRaf); this.playRaf = null; }
    this.root.dataset.playing = "false";
    if (this.ready) this.renderLedger(this.p, this.k());
    this.renderControls();
    this.mirrorUrl(true);
    if (report) this.scheduleReport();
  }


  // ---------------------------------------------------------------- download
  // "Download the figure at this round (HTML)": the page is built in the browser
  // (viewer_export.js, loaded on the first click) from the round on screen; a click
  // during Play pauses there first, so the file is of the round the student sees.
  downloadButton() {
    const name = "Download the figure at this round (HTML)";
    const b = el("button", "olc-btn olc-download");
    b.type = "button";
    b.setAttribute("aria-label", name);
    b.title = name;
    const l = el("span", "olc-label", "Figure (HTML)");
    l.setAttribute("aria-hidden", "true");
    b.append(icon("download"), l);
    b.addEventListener("click", () => this.downloadFigure(b));
    return b;
  }

  async downloadFigure(button) {
    if (!this.ready || button.getAttribute("aria-busy") === "true") return;
    this.pause(true);
    const p = this.p, token = this.buildToken;
    button.setAttribute("aria-busy", "true");
    try {
      const base = serverBase(), abs = (u) => new URL(u, base).href;
      const mod = await import(abs(this.assets.export));
      const html = await mod.figureHtml(this, p, { plotly: abs(this.assets.plotly), katex_css: abs(this.assets.katex_css) });
      if (token === this.buildToken) mod.save(html, `${this.download}_round_${p}.html`);
    } catch (err) {
      console.error("olc viewer: download failed:", err);
      button.title = `The download failed: ${err && err.message ? err.message : err}`;
    } finally {
      button.setAttribute("aria-busy", "false");
    }
  }

  // ---------------------------------------------------------------- keyboard
  onKey(ev) {
    if (ev.defaultPrevented || ev.altKey || ev.ctrlKey || ev.metaKey) return;
    if (callHook(this, "onKey", ev) === true) { ev.preventDefault(); ev.stopPropagation(); return; }
    const tag = ev.target && ev.target.tagName;
    if (tag === "SELECT") return;  // the speed list keeps its own keys
    if (pressesItself(ev.target, ev.key)) return;  // Space/Enter on a focused button press it (no Play)
    let handled = true;
    switch (ev.key) {
      case "ArrowRight": if (ev.shiftKey) this.jumpStop(0, +1); else { this.pause(false); this.setPosition(this.p + 1); } break;
      case "ArrowLeft": if (ev.shiftKey) this.jumpStop(0, -1); else { this.pause(false); this.setPosition(this.p - 1); } break;
      case "Home": this.pause(false); this.setPosition(0); break;
      case "End": this.pause(false); this.setPosition(this.T); break;
      case " ": case "Spacebar": if (ev.repeat) break; this.togglePlay(); break;
      default: handled = false;
    }
    if (handled) { ev.preventDefault(); ev.stopPropagation(); }
  }

}
