// olc step viewer: a Streamlit custom component v2 (no iframe, no build step).
//
// Python (olc_ui/viewer/component.py) sends {spec, assets}; the spec is described in
// docs/viewer-spec.md. Python decides every number and every mark; this file only
// selects, for the current position p, the values Python computed, and draws them:
// plotly.js figures (Plotly.newPlot once per run_id, then only the dynamic traces
// per step), KaTeX ledger lines, a caption and the controls. Stepping and playback
// never go to the server; the position is mirrored to the URL (history.replaceState)
// and reported to Python with setStateValue("position", p) once stepping pauses.
//
// All user-visible text is set with textContent; the only HTML inserted is KaTeX's
// own output (katex.render).
//
// This is the core; each concern is a module next to it (state and URL, charts, ledger,
// controls and keys, formats, libraries; modes such as presentation plug in through
// viewer_modes.js hooks). olc_ui/viewer/assets.py bundle_js() joins them for the component;
// docs/viewer-spec.md, "Modules and the mode hooks".

import { clamp, el, indexParts, lowerBound, upperBound } from "./viewer_util.js";
import { BLANK, formatNumber, formatValue } from "./viewer_format.js";
import { loadLibs, serverBase } from "./viewer_libs.js";
import { ChartMethods } from "./viewer_charts.js";
import { LedgerMethods } from "./viewer_ledger.js";
import { ControlMethods } from "./viewer_controls.js";
import { StateMethods, rememberShown, shownBefore } from "./viewer_state.js";
import { MODES, callHook } from "./viewer_modes.js";
import "./viewer_mode_list.js";
import { installDocumentKeys } from "./viewer_keys.js";
import { A11yMethods } from "./viewer_a11y.js";

const INSTANCES = new WeakMap();
const LEDGER_PLAY_INTERVAL_MS = 250;  // ledger refresh while playing (see renderNow)
const DRAWN_LOOK_MS = 1500;  // how long a drawn viewer looks for the page's token (reportDrawn)

class Viewer {
  constructor(parentElement) {
    this.parent = parentElement;
    this.root = el("div", "olc-viewer");
    this.root.tabIndex = 0;
    this.root.setAttribute("role", "group");
    this.root.setAttribute("aria-label", "Step viewer");
    this.root.olcViewer = this;  // for diagnostics (bench/ui_latency.py)
    this.parent.appendChild(this.root);
    this.setStateValue = null;
    this.runId = null;
    this.buildToken = 0;
    this.p = 0;
    this.playing = false;
    this.immediate = false;
    this.lastReported = null;
    this.reportTimer = null;
    this.urlTimer = null;
    this.lastUrlAt = -Infinity;
    this.renderRaf = null;
    this.playRaf = null;
    this.figs = [];
    this.ready = false;
    this.modes = [];       // attached modes (viewer_modes.js)
    this.modeNames = [];   // … by name, in the same order
    this.modesKey = "{}";
    this.resizeObserver = new ResizeObserver((entries) => this.onResize(entries));
    this.root.addEventListener("keydown", (ev) => this.onKey(ev));
    installDocumentKeys(document);  // the keys work without a click into the viewer (viewer_keys.js)
  }

  receive(data) {
    const spec = data && data.spec;
    if (!spec || typeof spec !== "object") return;
    this.download = typeof data.download === "string" ? data.download : null;
    const modesChanged = this.setModes(data.modes);
    if (spec.run_id === this.runId) {  // same run: keep the position, no rebuild …
      if (modesChanged) { this.keepOnce = true; this.build(this.spec, this.assets); }  // … unless the modes changed
      return;
    }
    this.resume = data.resume === true && this.runId === null;  // a fresh mount, not from a link
    this.build(spec, data.assets || {});
  }

  // Attach the modes Python asked for ({name: options}); true if they changed (the viewer is built again).
  // The same modes, in the same order, whose changed options each mode takes in place (its update(options)
  // answers true, e.g. a tour's stop): no rebuild; the modes hear it (onModes).
  setModes(wanted) {
    const key = JSON.stringify(wanted && typeof wanted === "object" ? wanted : {});
    if (key === this.modesKey) return false;
    if (this.updateModes(JSON.parse(this.modesKey), JSON.parse(key))) {
      this.modesKey = key;
      callHook(this, "onModes");
      return false;
    }
    this.modesKey = key;
    for (const m of this.modes) if (m && typeof m.destroy === "function") m.destroy();
    this.modes = [];
    this.modeNames = [];
    for (const [name, options] of Object.entries(JSON.parse(key))) {
      const factory = MODES.get(name);
      if (factory) { this.modes.push(factory(this, options || {})); this.modeNames.push(name); }
      else console.warn(`olc viewer: unknown mode ${name}`);
    }
    return true;
  }

  updateModes(before, after) {
    const names = Object.keys(after);
    if (!this.modeNames || names.join("\n") !== Object.keys(before).join("\n") ||
        names.join("\n") !== this.modeNames.join("\n")) return false;
    const changed = names.map((n, i) => [n, i]).filter(([n]) => JSON.stringify(before[n]) !== JSON.stringify(after[n]));
    if (!changed.every(([, i]) => this.modes[i] && typeof this.modes[i].update === "function")) return false;
    return changed.every(([n, i]) => this.modes[i].update(after[n] || {}) === true);
  }

  // ---------------------------------------------------------------- build
  async build(spec, assets) {
    const token = ++this.buildToken;
    this.timing = { build: performance.now() };  // ms since navigation start (bench/ui_latency.py)
    const libs = loadLibs(assets);  // first: plotly.js is the long pole of a first load
    const wasPlaying = this.playing;
    this.pause(false);
    this.teardownFigures();
    this.ready = false;
    // A new run (a setting changed) keeps the round on screen, clamped to its length, unless
    // Python chose another position than the last one it heard of (a link, a game's new move).
    const sent = clamp(Math.round(spec.position || 0), 0, spec.T);
    const kept = this.resume ? shownBefore(this.download, spec.run_id) : null;  // back from another page
    const keep = this.runId !== null && this.T !== undefined && (sent === this.serverP || this.keepOnce === true);
    this.keepOnce = false;
    this.runId = spec.run_id;
    this.spec = spec;
    this.assets = assets;
    this.T = spec.T;
    this.p = keep ? clamp(this.p, 0, this.T) : kept !== null ? clamp(kept, 0, this.T) : sent;
    this.serverP = sent;
    this.prepare(spec);
    const hadFocus = this.root.contains(document.activeElement);
    this.buildDom(spec);
    callHook(this, "onBuild");
    if (hadFocus) this.root.focus({ preventScroll: true });  // the keys keep working after a new run
    this.root.dataset.runId = String(spec.run_id);
    this.root.dataset.ready = "false";
    this.renderControls();
    this.renderCaption();
    this.mirrorUrl(true);
    let katex, Plotly;
    try {
      [Plotly, katex] = await Promise.all([libs.plotly, libs.katex]);
    } catch (err) {
      if (token === this.buildToken) this.showError(err);
      return;
    }
    if (token !== this.buildToken) return;
    this.timing.libs = performance.now();
    this.Plotly = Plotly;
    this.katex = katex;
    try {
      await Promise.all(this.figs.map((f) => this.plotFigure(f)));
    } catch (err) {
      if (token === this.buildToken) this.showError(err);
      return;
    }
    if (token !== this.buildToken) return;
    this.timing.plotted = performance.now();
    this.ready = true;
    this.renderNow();
    this.timing.ready = performance.now();
    this.root.dataset.ready = "true";
    callHook(this, "onReady");
    this.reportDrawn();
    // a new run that starts elsewhere than the position Python last heard of
    if (this.p !== this.serverP) this.scheduleReport();
    if (wasPlaying && this.p < this.T) this.play();  // a setting changed during Play: play on
  }

  prepare(spec) {
    this.breaks = spec.breaks || [];
    this.mistakes = spec.mistake_rounds || [];
    this.arrays = spec.arrays || {};
    this.stops = [{ name: "mistake", rounds: this.mistakes }];
    for (const [name, rounds] of Object.entries(spec.extra_stops || {}))
      this.stops.push({ name, rounds: rounds || [] });
  }

  buildDom(spec) {
    this.root.replaceChildren();
    this.errorBox = null;
    this.root.appendChild(this.buildControls(spec));
    // caption (not a live region: viewer_a11y.js announces when stepping settles, and mistakes during Play)
    this.captionEl = el("div", "olc-caption");
    this.root.appendChild(this.captionEl);
    this.root.appendChild(this.buildAnnouncer());
    // columns of figures and the ledger
    const grid = el("div", "olc-columns");
    const figSpecs = new Map((spec.figures || []).map((f) => [f.id, f]));
    const layout = (spec.layout && spec.layout.columns) ||
      [[...(spec.figures || []).map((f) => f.id), ...(spec.ledger ? ["ledger"] : [])]];
    const widths = (spec.layout && spec.layout.widths) || layout.map(() => 1);
    this.figs = [];
    this.ledgerEl = null;
    layout.forEach((ids, ci) => {
      const col = el("div", "olc-column");
      col.style.flexGrow = String(widths[ci] || 1);
      for (const id of ids) {
        if (id === "ledger") { col.appendChild(this.buildLedger(spec.ledger)); continue; }
        const fs = figSpecs.get(id);
        if (!fs) continue;
        const box = el("div", "olc-figure");
        box.dataset.figureId = id;
        const titleEl = fs.title ? el("div", "olc-figure-title", fs.title) : null;
        if (titleEl) box.appendChild(titleEl);
        const gd = el("div", "olc-plot");
        gd.dataset.figureId = id;
        gd.style.height = `${fs.height || 400}px`;
        box.appendChild(gd);
        if (fs.note) box.appendChild(el("div", "olc-figure-note", fs.note));  // plain text under the figure
        col.appendChild(box);
        const f = { spec: fs, gd, box };
        this.buildFigureA11y(f, titleEl);  // role="img", name, description, "Data at this round"
        this.figs.push(f);
      }
      grid.appendChild(col);
    });
    this.root.appendChild(grid);
  }

  showError(err) {
    console.error("olc viewer:", err);
    if (!this.errorBox) {
      this.errorBox = el("div", "olc-error");
      this.errorBox.setAttribute("role", "alert");
      this.root.insertBefore(this.errorBox, this.root.firstChild);
    }
    this.errorBox.textContent = `The step viewer could not start: ${err && err.message ? err.message : err}. ` +
      "It loads plotly.js and KaTeX from the app's static folder: run the app from the repository root " +
      "(so .streamlit/config.toml turns on server.enableStaticServing).";
    this.root.dataset.ready = "error";
    this.reportDrawn();  // the rest of the page comes all the same
  }

  // Once per mount, when the first build has drawn (or failed): on a page's first run in a browser, Python waits
  // after sending the viewer until it hears so (olc_ui/viewer/drawn.py), then sends what lies under the viewer.
  // The page hands over a one-time token (window.__olcDrawn) in a script element just before the viewer; if that
  // has not run yet, look again for a while.
  reportDrawn() {
    if (this.drawnReported) return;
    this.drawnReported = true;
    const started = performance.now();
    const send = () => {
      this.drawnTimer = null;
      const token = window.__olcDrawn;
      if (typeof token === "string") {
        delete window.__olcDrawn;
        const url = new URL(`olc-viewer/drawn?t=${encodeURIComponent(token)}`, serverBase()).href;
        fetch(url, { method: "POST", keepalive: true }).catch(() => {});
      } else if (performance.now() - started < DRAWN_LOOK_MS) {
        this.drawnTimer = setTimeout(send, 50);
      }
    };
    send();
  }

  scheduleRender() {
    if (this.renderRaf !== null) return;
    this.renderRaf = requestAnimationFrame(() => { this.renderRaf = null; this.renderNow(); });
  }

  renderNow() {
    if (this.renderRaf !== null) { cancelAnimationFrame(this.renderRaf); this.renderRaf = null; }
    const p = this.p, k = this.k();
    if (this.ready) {
      // a part a game mode hides until the server's run comes (olc-game-pending: its arrays stop at the last run's
      // rounds) is not redrawn meanwhile (viewer_game*.js)
      const held = (e) => e && e.classList.contains("olc-game-pending");
      for (const f of this.figs) if (!held(f.box)) this.updateFigure(f, p, k);
      // While playing, the ledger's KaTeX is typeset a few times a second (nobody reads
      // numbers at 20+ frames a second, and typesetting every frame would halve the frame
      // rate); every step, pause and stop draws it at once.
      const now = performance.now();
      if (!held(this.ledgerEl) && (!this.playing || !(now - (this.ledgerAt || 0) < LEDGER_PLAY_INTERVAL_MS))) {
        this.renderLedger(p, k);
        this.ledgerAt = now;
      }
    }
    this.renderCaption();
    this.renderA11y(p, k);
    this.renderControls();
    this.root.dataset.position = String(p);
    rememberShown(this.download, this.runId, p);
    callHook(this, "onRender", p, this.k());
  }

  destroy() {
    for (const m of this.modes) if (m && typeof m.destroy === "function") m.destroy();
    this.modes = [];
    this.modeNames = [];
    this.buildToken++;
    this.pause(false);
    if (this.reportTimer) clearTimeout(this.reportTimer);
    if (this.drawnTimer) clearTimeout(this.drawnTimer);
    if (this.urlTimer) clearTimeout(this.urlTimer);
    if (this.renderRaf !== null) cancelAnimationFrame(this.renderRaf);
    this.destroyA11y();
    this.teardownFigures();
    this.resizeObserver.disconnect();
    this.root.remove();
  }
}

// The methods each concern module defines, mixed into the viewer (one class, several files).
for (const part of [ChartMethods, LedgerMethods, ControlMethods, StateMethods, A11yMethods]) {
  for (const name of Object.getOwnPropertyNames(part.prototype)) {
    if (name === "constructor") continue;
    if (Object.prototype.hasOwnProperty.call(Viewer.prototype, name)) throw new Error(`olc viewer: ${name} defined twice`);
    Object.defineProperty(Viewer.prototype, name, Object.getOwnPropertyDescriptor(part.prototype, name));
  }
}

// Python sends the data as bytes (olc_ui/viewer/component.py, _payload): a line "olc-viewer <digest>", then the
// JSON. The same digest as the last data parsed: the same data (a rerun), not parsed again.
const PAYLOAD_HEAD = "olc-viewer ";

function unpack(viewer, data) {
  let bytes = null;
  if (data instanceof Uint8Array) bytes = data;
  else if (data instanceof ArrayBuffer) bytes = new Uint8Array(data);
  else if (ArrayBuffer.isView(data)) bytes = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  else return data;  // already an object
  const nl = bytes.indexOf(10);
  const decoder = new TextDecoder();
  const head = nl < 0 ? "" : decoder.decode(bytes.subarray(0, nl));
  if (!head.startsWith(PAYLOAD_HEAD)) return null;
  if (head !== viewer.payloadHead) {
    viewer.payload = JSON.parse(decoder.decode(bytes.subarray(nl + 1)));
    viewer.payloadHead = head;
  }
  return viewer.payload;
}

// For tests (tests/ui/test_viewer_spec.py runs these under node): the formatter must
// print exactly what Python's format() prints.
export const _testing = { BLANK, formatNumber, formatValue, indexParts, lowerBound, upperBound, unpack };

export default function (component) {
  const { data, parentElement, setStateValue } = component;
  let viewer = INSTANCES.get(parentElement);
  if (!viewer) {
    viewer = new Viewer(parentElement);
    INSTANCES.set(parentElement, viewer);
  }
  viewer.setStateValue = setStateValue;
  viewer.receive(unpack(viewer, data));
  return () => {
    viewer.destroy();
    INSTANCES.delete(parentElement);
  };
}