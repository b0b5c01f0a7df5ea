// olc step viewer: the phone layout (issue 25), a mode every viewer carries (viewer_controls.js attaches it;
// it does nothing on a screen wider than PHONE_QUERY, nor in presentation mode).
//
// On a phone (≤ 640 px wide):
// - the step buttons and the round slider move into a bar (.olc-phone-bar) that sticks to the bottom of the
//   screen while any of the viewer is on it, so Next / Next mistake / Play stay under the thumb while the
//   chart above changes; every button is ≥ 44×44 px (viewer.css, .olc-phone);
// - the bar's "Ledger" button scrolls to the proof ledger and back to the chart (one tap each way);
// - the speed list, the download and other stops (e.g. margin mistakes) follow the charts;
// - chart text is ≥ 12 px, legends are compact (phoneLegend: one row where the names fit, else the columns that
//   take the fewest lines, a name's closing remark left out where that saves a line; none wider than the plot),
//   a zoom drawn in a corner of a chart (an inset) goes full width under its main plot (stackInset), and the
//   first chart's height is chosen so that its plot area fits between the top of the screen and the bar;
// - the first time a page's viewer is drawn the page scrolls to it (the title and the folded intro stay one
//   swipe up), so the chart and the controls are on screen together without the student scrolling;
// - a tour's bar right above the viewer (.olc-tour, olc_ui/shared/tours/bar.py) shares the screen: the page
//   scrolls to the bar instead, and the first chart's room leaves the bar's height (the stop's text, the chart and
//   the step bar on one screen).
// Touch screens get touch words instead of key names (touchScreen(); viewer_predict.js uses it).

import { registerMode } from "./viewer_modes.js";
import { presentFigure } from "./viewer_present.js";
import { el, labelWords, plainLabel } from "./viewer_util.js";

export const PHONE_QUERY = "(max-width: 640px)";
export const TOUCH_QUERY = "(hover: none) and (pointer: coarse)";
export const PHONE_FONT_PX = 12;      // the smallest chart text on a phone
const HEADER_PX = 64;                 // Streamlit's header (its toolbar and the sidebar button) over the page's top
const MIN_PLOT_PX = 200;              // the first chart keeps at least this height, even on a short screen
const LEGEND_CHAR_EM = 0.55;          // a legend character is about 0.55 em wide (names with symbols, capitals)
const LEGEND_ITEM_PX = 46;            // a legend entry's symbol and gaps: its text starts 40 px in, 4 px before the next
const CUT_PX = 4;                     // a legend name cut to its head must save at least this height (px)

// True on a touch screen without a mouse (a phone, a tablet): hints name buttons, not keys.
export function touchScreen() {
  return (typeof matchMedia === "function" && matchMedia(TOUCH_QUERY).matches) ||
    (typeof window !== "undefined" && "ontouchstart" in window);
}

const LEGEND_FONT = '"Open Sans", verdana, arial, sans-serif';   // plotly's default family
let measureCtx = null;

// The width (px) a legend name takes at `px` (tags take no room, an entity one character); measured on a canvas
// in the chart's font, else estimated.
export function textWidth(text, px, family = LEGEND_FONT) {
  const plain = plainLabel(text);
  if (measureCtx === null && typeof document !== "undefined")
    measureCtx = document.createElement("canvas").getContext("2d") || false;
  if (!measureCtx) return plain.length * px * LEGEND_CHAR_EM;
  measureCtx.font = `${px}px ${family}`;
  return measureCtx.measureText(plain).width;
}

// A name broken at spaces (never inside a tag) into lines of at most `room` px.
function wrapPx(name, room, px, family) {
  const words = labelWords(name);     // a "<" that opens no tag is kept
  const lines = [];
  let line = "";
  for (const w of words) {
    const next = line ? `${line} ${w}` : w;
    if (line && textWidth(next, px, family) > room) { lines.push(line); line = w; } else line = next;
  }
  if (line) lines.push(line);
  return lines;
}

// A name in a legend column `room` px wide: whole, wrapped to at most two lines; else its head, shorter and
// shorter (without its closing remark in words, "… (dotted: the last 5)"; then its text before ": " or its own
// first line), the first
// that takes at most two lines (or the fewest). `terse` (0, 1, 2): how many of these cuts are made in any case.
// Returns its lines and how many cuts were made.
function fitName(given, room, px, family, terse) {
  const name = given.replace(/<br\s*\/?>/gi, " ").replace(/\s+/g, " ").trim();
  const first = given.split(/<br\s*\/?>/i)[0].trim();           // a name's own first line is a head too
  const remark = name.match(/^(.{3,}?)\s+\([a-z][^()]*\)$/i);
  const bare = remark ? remark[1] : name, colon = bare.indexOf(": ");
  const head = colon >= 3 ? bare.slice(0, colon) : first !== name && first.length >= 3 ? first : null;
  const heads = [name, remark ? bare : null, head];
  let best = null;
  for (const [i, h] of heads.entries()) {
    if (!h || (i < terse && heads.slice(i + 1).some(Boolean))) continue;
    const lines = wrapPx(h, room, px, family);
    if (!best || lines.length < best.lines.length) best = { lines, cut: i };
    if (lines.length <= 2) break;
  }
  return best;
}

// The names in `ncol` columns of `pitch` px (the text gets pitch − LEGEND_ITEM_PX): the legend's cost — its height
// in px (a row is 2 + 17 px a line of its tallest entry) and CUT_PX for each name cut to its head —, and the names.
function legendColumns(names, ncol, pitch, px, family, terse) {
  const room = pitch - LEGEND_ITEM_PX;
  if (room < 3 * px) return null;
  // the last name may run on into the columns its row leaves empty (plotly does not clip a legend's text)
  const last = names.length - 1, tail = (ncol - (last % ncol)) * pitch - LEGEND_ITEM_PX;
  const fit = names.map((n, i) => fitName(n, i === last ? tail : room, px, family, terse));
  if (fit.some((f, i) => f.lines.some((l) => textWidth(l, px, family) > (i === last ? tail : room) + 1))) return null;
  let cost = 0;
  for (let i = 0; i < fit.length; i += ncol) cost += 2 + 17 * Math.max(...fit.slice(i, i + ncol).map((f) => f.lines.length));
  const cut = fit.reduce((n, f) => n + f.cut, 0);
  return { ncol, pitch, names: fit.map((f) => f.lines.join("<br>")), cost: cost + CUT_PX * cut };
}

// A compact legend on a phone, 12 px text, the narrowest symbol plotly draws and no gaps between groups: one row
// when every name fits in it; else the names in the equal columns across the plot's width that cost the least
// (legendColumns: the fewest lines; a name's closing remark is left out where that saves more than CUT_PX), each
// name whole where it fits its column, else wrapped. No entry is wider than the plot. A vertical legend goes
// under the plot.
export function phoneLegend(data, layout, px, width) {
  if (layout.showlegend === false) return;
  const named = data.filter((t) => t && t.showlegend !== false && typeof t.name === "string" && t.name !== "");
  if (!named.length || !(width > 0)) return;
  const lg = layout.legend || {};
  const place = lg.orientation === "h" ? {} : { x: 0, xanchor: "left", y: -0.18, yanchor: "top" };
  layout.legend = { ...lg, ...place, orientation: "h", itemwidth: 30, tracegroupgap: 0,
    font: { ...(lg.font || {}), size: px }, traceorder: String(lg.traceorder || "").includes("reversed") ? "reversed" : "normal" };
  delete layout.legend.entrywidth;
  delete layout.legend.entrywidthmode;
  const family = (layout.legend.font && layout.legend.font.family) || (layout.font && layout.font.family) || LEGEND_FONT;
  const margin = layout.margin || {};
  const plotW = width - (margin.l ?? 80) - (margin.r ?? 80) - 4;
  const names = named.map((t) => t.name);
  const flat = names.map((n) => n.replace(/<br\s*\/?>/gi, " ").replace(/\s+/g, " ").trim());
  const widths = flat.map((n) => textWidth(n, px, family) + 45);
  if (widths.reduce((a, w) => a + w, 0) <= plotW) { named.forEach((t, i) => { t.name = flat[i]; }); return; }
  let best = null;
  for (let ncol = Math.min(4, names.length); ncol >= 1; ncol--) for (const terse of [0, 1, 2]) {
    const c = legendColumns(names, ncol, Math.floor(plotW / ncol), px, family, terse);
    if (c && (!best || c.cost < best.cost)) best = c;
  }
  if (!best) return;
  named.forEach((t, i) => { t.name = best.names[i]; });
  layout.legend = { ...layout.legend, entrywidth: best.pitch - 44, entrywidthmode: "pixels" };
}

const INSET_PX = 120;        // a zoom's plot area on a phone, stacked under the main plot
const INSET_GAP_PX = 84;     // above it: the main plot's tick labels and axis title, then the zoom's title

// A paper-coordinate rectangle filled white (the blank a zoom drawn over the main plot leaves under itself).
function isInsetBlank(s, dx, dy) {
  return s && s.type === "rect" && s.xref === "paper" && s.yref === "paper" && /^(#fff(fff)?|white)$/i.test(
    String(s.fillcolor || "")) && s.x0 <= dx[0] && s.x1 >= dx[1] && s.y0 <= dy[0] && s.y1 >= dy[1];
}

// A zoom drawn in a corner of the main plot (an inset: axes x2 / y2 anchored to each other, e.g. Compare's and
// the exponentiated update's "zoom on the run") is about 85×41 px on a phone: it goes under the main plot instead,
// the plot's full width and INSET_PX tall, its title above it, and the figure grows by the room it takes (the
// main plot keeps its size). Returns the pixels added (0: no inset).
export function stackInset(layout) {
  const x2 = layout.xaxis2, y2 = layout.yaxis2;
  if (!x2 || !y2 || x2.anchor !== "y2" || y2.anchor !== "x2" || !Array.isArray(x2.domain) ||
      !Array.isArray(y2.domain)) return 0;
  const dx = x2.domain, dy = y2.domain;
  const margin = layout.margin || {};
  const add = INSET_PX + INSET_GAP_PX;
  const plot = (layout.height || 400) - (margin.t ?? 100) - (margin.b ?? 80) + add;
  const low = +(INSET_PX / plot).toFixed(4), high = +(add / plot).toFixed(4);
  layout.height = (layout.height || 400) + add;
  layout.xaxis = { ...(layout.xaxis || {}), domain: [0, 1] };
  layout.yaxis = { ...(layout.yaxis || {}), domain: [high, 1] };
  layout.xaxis2 = { ...x2, domain: [0, 1] };
  layout.yaxis2 = { ...y2, domain: [0, low] };
  if (Array.isArray(layout.shapes)) layout.shapes = layout.shapes.filter((s) => !isInsetBlank(s, dx, dy));
  if (Array.isArray(layout.annotations))
    layout.annotations = layout.annotations.map((a) => (a && a.xref === "paper" && a.yref === "paper" &&
      a.x === dx[0] && a.y === dy[1] ? { ...a, x: 0, y: low, xanchor: "left", yanchor: "bottom" } : a));
  return add;
}

// The least height the first chart is given on a phone: MIN_PLOT_PX, or 60 % of its own.
// A tour's bar directly above the viewer (within 80 px), or null.
function tourAbove(root) {
  const bar = document.querySelector(".olc-tour");
  if (!bar) return null;
  const gap = root.getBoundingClientRect().top - bar.getBoundingClientRect().bottom;
  return gap >= 0 && gap < 80 ? bar : null;
}

function smallest(f) {
  return Math.max(MIN_PLOT_PX, Math.round(0.6 * (f.spec.height || 400)));
}

class PhoneLayout {
  constructor(view) {
    this.view = view;
    this.mq = typeof matchMedia === "function" ? matchMedia(PHONE_QUERY) : null;
    this.wasOn = null;
    this.above = null;      // a ResizeObserver on what lies above the first chart (watchAbove)
    this.onChange = () => {
      const v = this.view;
      if (this.on() === this.wasOn || !v.spec) return;
      v.keepOnce = true;               // rotated or resized across the breakpoint: the same run, laid out again
      v.build(v.spec, v.assets);
    };
    if (this.mq) this.mq.addEventListener("change", this.onChange);
  }

  on() {
    return !!(this.mq && this.mq.matches) && !this.view.root.classList.contains("olc-present");
  }

  onBuild() {
    const v = this.view, on = this.on();
    this.wasOn = on;
    if (this.above) { this.above.disconnect(); this.above = null; }
    v.root.classList.toggle("olc-phone", on);
    v.root.dataset.touch = touchScreen() ? "true" : "false";
    if (!on) return;
    const nav = v.root.querySelector(".olc-controls > .olc-nav:not(.olc-extra)");
    const scrub = v.root.querySelector(".olc-controls > .olc-scrub");
    this.bar = el("div", "olc-phone-bar");
    this.bar.setAttribute("role", "group");
    this.bar.setAttribute("aria-label", "Step controls");
    if (nav) this.bar.appendChild(nav);
    this.ledger = v.root.querySelector(".olc-ledger");
    if (nav && this.ledger) nav.appendChild(this.jumpButton());
    if (scrub) this.bar.appendChild(scrub);
    v.root.appendChild(this.bar);
  }

  // "Ledger" scrolls to the proof ledger; there, the same button says "Chart" and scrolls back.
  jumpButton() {
    const b = el("button", "olc-btn olc-phone-jump");
    b.type = "button";
    b.dataset.control = "ledger";
    const label = el("span", "olc-label", "Ledger");
    label.setAttribute("aria-hidden", "true");
    b.append(label);
    const say = (toLedger) => {
      const name = toLedger ? "Go to the proof ledger" : "Back to the chart";
      b.setAttribute("aria-label", name);
      b.title = name;
      label.textContent = toLedger ? "Ledger" : "Chart";
      b.dataset.target = toLedger ? "ledger" : "chart";
    };
    say(true);
    b.addEventListener("click", () => {
      const toLedger = b.dataset.target === "ledger";
      const target = toLedger ? this.ledger : (tourAbove(this.view.root) || this.view.root);
      if (target) target.scrollIntoView({ block: "start", behavior: "instant" });
      say(!toLedger);
    });
    return b;
  }

  beforePlot(f, data, layout) {
    if (!this.on()) return;
    const v = this.view;
    const width = f.gd.getBoundingClientRect().width || v.root.getBoundingClientRect().width;
    presentFigure(data, layout, PHONE_FONT_PX, 1);
    phoneLegend(data, layout, PHONE_FONT_PX, width);
    const added = stackInset(layout);
    f.phoneInset = added;      // fit() keeps this room too
    if (added) {
      f.height = layout.height;
      f.gd.style.height = `${layout.height}px`;
    }
    if (f !== v.figs[0]) return;
    // the first chart: from the viewer's top (scrolled under the header) to the bar, at most its own height
    const tour = tourAbove(v.root);
    const top = f.gd.getBoundingClientRect().top - (tour || v.root).getBoundingClientRect().top;
    const bar = this.bar ? this.bar.getBoundingClientRect().height : 0;
    const room = Math.floor(window.innerHeight - HEADER_PX - top - bar - 8);
    const own = layout.height || f.spec.height || 400;      // its own height (and a stacked zoom's room)
    const h = Math.max(smallest(f) + added, Math.min(own, room));
    if (h !== own) {
      f.height = h;
      f.gd.style.height = `${h}px`;
      layout.height = h;
    }
  }

  // A panel above the chart that grew (a question's answers, the class's distribution) must not push the plot
  // under the bar: the first chart gives up the height it needs, down to its least height (as beforePlot: 60 % of
  // its own or MIN_PLOT_PX, and a stacked zoom's room). After each render, and whenever what lies above the first
  // chart changes size (watchAbove): a question asked is no step and no render, yet its answers make the panel taller.
  onRender() { this.fit(); }

  // What lies above the first chart in the viewer (the predict panel, the caption), watched for a change of size.
  watchAbove() {
    const v = this.view, f = v.figs && v.figs[0];
    if (this.above) this.above.disconnect();
    this.above = null;
    if (!this.on() || !f || !f.gd || typeof ResizeObserver !== "function") return;
    this.above = new ResizeObserver(() => this.fit());
    for (const c of v.root.children) {
      if (c.contains(f.gd)) break;
      if (c !== this.bar) this.above.observe(c);
    }
  }

  fit() {
    const v = this.view, f = v.figs[0];
    if (!this.on() || !this.bar || !v.ready || !f || !f.gd._fullLayout || v.playing) return;
    const lead = tourAbove(v.root) || v.root;
    if (Math.abs(lead.getBoundingClientRect().top - HEADER_PX) > 24) return;   // only with the viewer (or its tour bar) at the top
    const box = f.gd.getBoundingClientRect(), over = box.bottom - this.bar.getBoundingClientRect().top;
    const h = box.height, least = smallest(f) + (f.phoneInset || 0);
    if (over <= 1 || h <= least) return;
    const to = Math.max(least, Math.floor(h - over - 4));
    f.height = to;
    f.gd.style.height = `${to}px`;
    v.Plotly.relayout(f.gd, { height: to }).catch(() => {});
  }

  // A note on a chart (an annotation written left to right from a line near the right edge, e.g. FTRL's α*) that
  // runs past the chart's right edge is turned to end at its line instead.
  keepNotesInside() {
    const v = this.view;
    for (const f of v.figs || []) {
      const gd = f.gd, anns = gd && gd.layout && gd.layout.annotations;
      if (!anns || !anns.length) continue;
      const right = gd.getBoundingClientRect().right, upd = {};
      for (const g of gd.querySelectorAll(".annotation[data-index]")) {
        const i = +g.dataset.index, a = anns[i];
        if (a && (a.xanchor || "auto") !== "right" && g.getBoundingClientRect().right > right + 1)
          upd[`annotations[${i}].xanchor`] = "right";
      }
      if (Object.keys(upd).length) v.Plotly.relayout(gd, upd).catch(() => {});
    }
  }

  onReady() {
    const v = this.view;
    this.watchAbove();
    if (this.on()) this.keepNotesInside();
    if (!this.on() || v.phoneScrolled) return;
    v.phoneScrolled = true;
    const first = document.querySelector(".olc-viewer.olc-phone");
    if (first !== v.root) return;                          // a page's first viewer only
    const scroller = document.scrollingElement;
    const main = document.querySelector('[data-testid="stMain"]');
    if ((scroller && scroller.scrollTop > 40) || (main && main.scrollTop > 40)) return;  // the student scrolled
    (tourAbove(v.root) || v.root).scrollIntoView({ block: "start", behavior: "instant" });
  }

  destroy() {
    if (this.above) { this.above.disconnect(); this.above = null; }
    if (this.mq) this.mq.removeEventListener("change", this.onChange);
    this.view.root.classList.remove("olc-phone");
  }
}

registerMode("phone", (view) => new PhoneLayout(view));
