// olc step viewer: presentation mode (a mode module: viewer_modes.js).
//
// Python turns it on with modes = {"present": {"hide": [...], "fit": true}} (olc_ui/shared/present.py):
// - the viewer's text and buttons are larger (viewer.css, .olc-present), chart text ≥ 16 px and
//   lines ≥ 3 px (beforePlot), and the figures are resized so every column fits the window;
// - the keys work without a click into the viewer (as in normal mode: viewer_keys.js), and go to the
//   first presenting viewer when a page holds several;
// - a one-line key legend sits under the controls; "?" opens the full list (Esc closes it);
// - options.hide names controls to leave out (olc_ui/shared/present.py HIDEABLE validates the names).

import { registerMode } from "./viewer_modes.js";
import { KEYS } from "./viewer_controls.js";
import { el, labelWords, plainLabel, untagged } from "./viewer_util.js";

export const CHART_FONT_PX = 16;   // smallest chart text in presentation mode
export const CHART_LINE_PX = 3;    // thinnest line
const FIT_MIN = 0.4;               // a figure keeps at least 40 % of its height (its legend moves beside a short plot) …
const FIT_MAX = 1.5;               // … and grows to at most 1.5 times it to fill the window
const FIT_GOOD = 0.75;             // figures shrunk below this are left to scroll instead
const FIT_MARGIN_PX = 12;
const FIT_PLOT_MIN_PX = 170;       // … but never a plot area below this: a tour's text above left the first chart a
                                   // 64 px plot at 1100×800 (unreadable from the back row); the page scrolls instead
const settled = () => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(() => done())));
const SIDE_GAIN = 1.1;             // a legend moves beside its plot when the plot's smaller side grows this much

// hide name -> what it removes (data-control is set by viewer_controls.js)
export const HIDE_SELECTORS = {
  first: '[data-control="first"]',
  last: '[data-control="last"]',
  previous: '[data-control="previous"]',
  next: '[data-control="next"]',
  mistakes: '[data-control="previous-mistake"], [data-control="next-mistake"]',
  stops: ".olc-extra",
  play: '[data-control="play"]',
  speed: ".olc-speed",
  round: ".olc-scrub",
  download: ".olc-download",
  caption: ".olc-caption",
  ledger: ".olc-ledger",
  keys: ".olc-keys",
};

const SHORT_LABELS = [["previous-mistake", "Mistake"], ["next-mistake", "Mistake"]];

function bigger(font, px) {
  const f = { ...(font || {}) };
  f.size = Math.max(px, typeof f.size === "number" ? f.size : 0);
  return f;
}

// A copy of a plotly title (string or object) with its font at least px.
function biggerTitle(title, px) {
  if (title === undefined || title === null) return title;
  const t = typeof title === "string" ? { text: title } : { ...title };
  t.font = bigger(t.font, px);
  return t;
}

// Visible characters of a plotly label (its tags, such as <sup>, take no room; an entity one; a "<" that opens
// no tag is a character).
function visibleLength(text) { return plainLabel(text).length; }

// A legend name broken at spaces (never inside a tag; every character kept, a lone "<" too) into lines of at
// most `chars` visible characters.
export function wrapName(name, chars) {
  if (typeof name !== "string" || chars < 8) return name;
  const lines = [];
  for (const part of name.split(/<br\s*\/?>/i)) {
    let line = "";
    for (const w of labelWords(part)) {
      if (line && visibleLength(`${line} ${w}`) > chars) { lines.push(line); line = w; } else line = line ? `${line} ${w}` : w;
    }
    lines.push(line);
  }
  return lines.join("<br>");
}

// The traces shown in the legend (plotly's default: a named trace, unless showlegend is false).
function legendTraces(data) {
  return data.filter((t) => t && t.showlegend !== false && t.name !== undefined && t.name !== "" &&
    (t.showlegend === true || (t.type || "scatter") !== "heatmap"));
}

export const LEGEND_CHAR_PX = 0.5;   // a 16 px sans-serif character is about 0.5 × 16 px wide on average
const LEGEND_SYMBOL_PX = 44;         // the symbol (itemwidth 30) and the gaps around the text

// A horizontal legend in two columns (plotly's entrywidth: half the plot's width), its names wrapped
// to a column's width: three rows for six entries instead of six, so the plot keeps the height.
export function twoColumnLegend(data, layout, px, width) {
  const lg = layout.legend;
  if (!lg || lg.orientation !== "h" || layout.showlegend === false) return;
  const shown = legendTraces(data);
  if (shown.length < 3 || !(width > 0)) return;
  const margin = layout.margin || {};
  const plotW = width - (margin.l ?? 80) - (margin.r ?? 80);
  const column = Math.floor(plotW / 2);
  const chars = Math.floor((column - LEGEND_SYMBOL_PX) / (px * LEGEND_CHAR_PX));
  // "normal" order: a grouped order would stack each legend group's entries in a column of its own
  const order = String(lg.traceorder || "").includes("reversed") ? "reversed" : "normal";
  layout.legend = { ...lg, entrywidth: column - LEGEND_SYMBOL_PX, entrywidthmode: "pixels", itemwidth: 30,
    tracegroupgap: 0, traceorder: order };
  for (const t of shown) t.name = wrapName(shortName(t.name, 2 * chars), chars);
}

// A name too long for two lines of a legend column keeps its head: its first line if that fits, else
// the text before its first ": " ("the learner: w·x = 0 and w (dotted: the last 5)" -> "the learner"); the chart still shows the rest.
export function shortName(name, chars) {
  if (typeof name !== "string" || visibleLength(name) <= chars) return name;
  const first = name.split(/<br\s*\/?>/i)[0];
  if (visibleLength(first) <= chars) return first;
  const colon = first.indexOf(": ");
  return colon >= 3 ? first.slice(0, colon) : first;
}

// Draw a trace's line thicker, unless it is the outline of a filled shape or was not drawn at all.
function thicken(t, line) {
  const mode = String(t.mode || (t.type === "scatter" || !t.type ? "lines" : ""));
  if (!(t.line && typeof t.line === "object") && !mode.includes("lines")) return;
  const w = (t.line || {}).width;
  if (w === 0 || (t.fill && t.fill !== "none")) return;
  t.line = { ...(t.line || {}), width: Math.max(line, typeof w === "number" ? w : 2) };
}

// Larger text and thicker lines in a figure's copied layout and traces; `width` (px, optional) lets a
// busy horizontal legend take two columns.
export function presentFigure(data, layout, px = CHART_FONT_PX, line = CHART_LINE_PX, width = 0) {
  layout.font = bigger(layout.font, px);
  if (layout.title !== undefined) layout.title = biggerTitle(layout.title, px + 2);
  for (const key of Object.keys(layout)) {
    if (!/^[xy]axis\d*$/.test(key) || !layout[key] || typeof layout[key] !== "object") continue;
    const ax = { ...layout[key] };
    ax.tickfont = bigger(ax.tickfont, px);
    if (ax.title !== undefined) ax.title = biggerTitle(ax.title, px);
    layout[key] = ax;
  }
  if (layout.legend) layout.legend = { ...layout.legend, font: bigger(layout.legend.font, px) };
  if (Array.isArray(layout.annotations))
    layout.annotations = layout.annotations.map((a) => ({ ...a, font: bigger(a && a.font, px) }));
  layout.hoverlabel = { ...(layout.hoverlabel || {}), font: bigger((layout.hoverlabel || {}).font, px) };
  for (const t of data) {
    if (!t) continue;
    if (t.textfont || /text/.test(String(t.mode || ""))) t.textfont = bigger(t.textfont, px);
    thicken(t, line);
  }
  twoColumnLegend(data, layout, px, width);
  fitAspect(layout);
}

// An equal-aspect chart (scaleanchor) keeps its ranges fitted to the data: the plot area narrows
// (constrain "domain") instead of plotly padding the range far beyond the points.
export function fitAspect(layout) {
  const axes = Object.keys(layout).filter((k) => /^[xy]axis\d*$/.test(k) && layout[k] && layout[k].scaleanchor);
  for (const key of axes) {
    const other = String(layout[key].scaleanchor).replace(/^([xy])(\d*)$/, "$1axis$2");
    for (const k of [key, other]) if (layout[k]) layout[k] = { ...layout[k], constrain: "domain" };
  }
}

// Notes under a chart's x axis (annotations named "note", or pinned under the plot with a yshift):
// taken out of the figure, so its plot keeps the height, and returned as [text lines] per note.
export function takeNotes(layout) {
  if (!Array.isArray(layout.annotations)) return [];
  const isNote = (a) => a && (a.name === "note" || (a.xref === "paper" && a.yref === "paper" && a.y === 0 &&
    a.yanchor === "top" && (a.yshift || 0) <= -40));
  const notes = layout.annotations.filter(isNote);
  if (!notes.length) return [];
  layout.annotations = layout.annotations.filter((a) => !isNote(a));
  const m = layout.margin || {};
  layout.margin = { ...m, b: Math.min(typeof m.b === "number" ? m.b : 80, NOTES_MARGIN_PX) };
  return notes.map((a) => String(a.text || "").split(/<br\s*\/?>/i).map((line) => untagged(line)));
}
const NOTES_MARGIN_PX = 62;  // room for the x ticks and the axis title

// Ticks an axis of `length` px can show at `px` text: every k-th of its tickvals (or a log axis's
// decades every k), so labels keep a line and a half apart. An update for Plotly.relayout, or null.
export function thinnedTicks(axisName, ax, length, px = CHART_FONT_PX, horizontal = false) {
  if (!ax || !(length > 0)) return null;
  const room = horizontal ? px * 4.5 : px * 2.2;
  const fits = Math.max(2, Math.floor(length / room));
  if (Array.isArray(ax.tickvals) && ax.tickvals.length > fits) {
    const k = Math.ceil(ax.tickvals.length / fits);
    const keep = ax.tickvals.map((_, i) => i).filter((i) => (ax.tickvals.length - 1 - i) % k === 0);
    const out = { [`${axisName}.tickvals`]: keep.map((i) => ax.tickvals[i]) };
    if (Array.isArray(ax.ticktext)) out[`${axisName}.ticktext`] = keep.map((i) => ax.ticktext[i]);
    return out;
  }
  if (ax.type === "log" && typeof ax.dtick === "number" && Array.isArray(ax.range)) {
    const decades = Math.abs(ax.range[1] - ax.range[0]);
    const dtick = Math.max(ax.dtick, Math.ceil(decades / fits));
    return dtick > ax.dtick ? { [`${axisName}.dtick`]: dtick } : null;
  }
  return null;
}

// The height of a figure left to scroll (not fitted to the window): its own, or taller where its legend
// and margins would leave the plot less than PLOT_SHARE of it (at most FIT_MAX times its own height).
export const PLOT_SHARE = 0.55;
function scrolledHeight(f) {
  const own = f.spec.height || 400;
  const full = f.gd && f.gd._fullLayout;
  const ax = full && (full.yaxis || full.xaxis);
  if (!ax || !(ax._length > 0)) return own;
  const chrome = full.height - ax._length;  // legend, title, margins: the same at any height
  return Math.round(Math.min(own * FIT_MAX, Math.max(own, chrome / (1 - PLOT_SHARE))));
}

// The least height a fitted figure gets: its chrome (legend, title, margins) and a plot of FIT_PLOT_MIN_PX.
function floorHeight(f) {
  const full = f.gd && f.gd._fullLayout;
  const ax = full && (full.yaxis || full.xaxis);
  if (!ax || !(ax._length > 0)) return 0;
  return Math.round(full.height - ax._length + FIT_PLOT_MIN_PX);
}

class Present {
  constructor(view, options) {
    this.view = view;
    this.hide = new Set(Array.isArray(options.hide) ? options.hide.map(String) : []);
    this.fit = options.fit !== false;
    this.onWinResize = () => { clearTimeout(this.resizeTimer); this.resizeTimer = setTimeout(() => this.fitHeights(), 150); };
    window.addEventListener("resize", this.onWinResize);
  }

  onBuild() {
    const v = this.view;
    v.root.classList.add("olc-present");
    v.root.dataset.present = "true";
    const bar = v.root.querySelector(".olc-controls");
    this.legend = el("div", "olc-keys");
    this.legend.setAttribute("aria-label", "Keyboard shortcuts");
    for (const [keys, , what] of [...KEYS, ["?", "", "all keys"]]) {
      const item = el("span", "olc-key-item");
      item.append(el("kbd", null, keys), document.createTextNode(` ${what}`));
      this.legend.appendChild(item);
    }
    if (bar) bar.after(this.legend); else v.root.prepend(this.legend);
    // shorter visible labels, so the controls fit on one line (the names stay in aria-label)
    this.relabelled = [];
    for (const [control, text] of SHORT_LABELS) {
      const label = v.root.querySelector(`[data-control="${control}"] .olc-label`);
      if (label) { this.relabelled.push([label, label.textContent]); label.textContent = text; }
    }
    for (const name of this.hide) {
      const sel = HIDE_SELECTORS[name];
      if (sel) for (const node of v.root.querySelectorAll(sel)) node.classList.add("olc-hidden");
    }
    this.help = null;
  }

  beforePlot(f, data, layout) {
    presentFigure(data, layout, CHART_FONT_PX, CHART_LINE_PX, layout.width || (f.gd && f.gd.clientWidth) || 0);
    f.ticks0 = null;
    f.legend0 = null;          // drawn afresh: its legend on top, as the spec says, until the next fit decides
    f.legendAt = undefined;
    f.sideLegend = false;
    const notes = takeNotes(layout);
    if (!notes.length || !f.box) return;
    const box = el("div", "olc-figure-notes");
    for (const lines of notes) box.appendChild(el("p", null, lines.join(" ")));
    f.box.after(box);
  }

  // Fewer ticks where the fitted plot is short (labels at 16 px would overlap); from the spec's own ticks.
  thinTicks() {
    const v = this.view, pending = [];
    for (const f of v.figs) {
      const full = f.gd && f.gd._fullLayout;
      if (!full) continue;
      if (!f.ticks0) f.ticks0 = Object.fromEntries(Object.keys(f.gd.layout).filter((k) => /^[xy]axis\d*$/.test(k))
        .map((k) => [k, { ...f.gd.layout[k] }]));
      const update = {};
      for (const [k, ax] of Object.entries(f.ticks0)) {
        const u = thinnedTicks(k, ax, full[k] && full[k]._length, CHART_FONT_PX, k[0] === "x") || {};
        const want = { [`${k}.tickvals`]: ax.tickvals, [`${k}.ticktext`]: ax.ticktext, [`${k}.dtick`]: ax.dtick, ...u };
        const cur = f.gd.layout[k] || {};
        for (const [path, val] of Object.entries(want)) {
          if (val === undefined) continue;
          if (JSON.stringify(cur[path.split(".")[1]]) !== JSON.stringify(val)) update[path] = val;
        }
      }
      if (Object.keys(update).length) pending.push(v.Plotly.relayout(f.gd, update).catch(() => {}));
    }
    return Promise.all(pending);
  }

  // Fitted once drawn, and again whenever the page around the viewer changes size (text above it
  // typeset late, a notice added, the window resized): the viewer's top may have moved.
  onReady() {
    this.fitHeights();
    if (!this.pageObserver && typeof ResizeObserver !== "undefined") {
      const page = this.view.root.closest('[data-testid="stMainBlockContainer"]') || document.body;
      this.pageObserver = new ResizeObserver(this.onWinResize);
      this.pageObserver.observe(page);
    }
  }

  // Size the figures so each column's first ones end inside the window: the longest run of
  // figures from the top that fits at FIT_GOOD or more of its height (at least the first one,
  // down to FIT_MIN) is scaled to fill the room left (at most FIT_MAX); the rest keep their height.
  fitHeights() {
    const v = this.view;
    if (!this.fit || !v.ready || !v.Plotly) return;
    const cols = [...v.root.querySelectorAll(".olc-column")];
    const stacked = cols.length > 1 && cols[1].getBoundingClientRect().top >= cols[0].getBoundingClientRect().bottom - 1;
    if (stacked) { this.thinTicks(); return; }  // a narrow window stacks the columns: scrolling is expected there
    const changes = [];
    for (const col of cols) {
      const figs = v.figs.filter((f) => col.contains(f.gd));
      if (!figs.length) continue;
      const top = col.getBoundingClientRect().top;
      let chosen = null;
      for (let n = figs.length; n >= 1; n--) {
        const part = figs.slice(0, n);
        const natural = part.reduce((s, f) => s + (f.spec.height || 400), 0);
        const current = part.reduce((s, f) => s + f.gd.getBoundingClientRect().height, 0);
        const other = part[n - 1].box.getBoundingClientRect().bottom - top - current;  // titles, gaps
        const scale = (window.innerHeight - top - other - FIT_MARGIN_PX) / natural;
        if (scale >= FIT_GOOD || n === 1) { chosen = { part, scale: Math.max(FIT_MIN, Math.min(FIT_MAX, scale)) }; break; }
      }
      // the floor only where the fit is already short of FIT_GOOD (what stands above left too little room): a page
      // that fits keeps its fit (its legends may yet move beside the plot, which the floor would not know)
      const floor = chosen.scale < FIT_GOOD;
      for (const f of figs) {
        const fitted = Math.round((f.spec.height || 400) * chosen.scale);
        const h = chosen.part.includes(f) ? (floor ? Math.max(fitted, floorHeight(f)) : fitted) : scrolledHeight(f);
        if ((f.height || f.spec.height || 400) !== h) changes.push([f, h]);
      }
    }
    // one fit's relayouts at a time: a fit asked for meanwhile (the page resized by this one) waits its turn, so two
    // never change one figure at once (plotly then drew its traces where the old plot area had been)
    const gen = (this.fitGen = (this.fitGen || 0) + 1);
    const heights = () => Promise.all(changes.map(([f, h]) => {
      f.height = h;
      f.gd.style.height = `${h}px`;
      return v.Plotly.relayout(f.gd, { height: h }).catch(() => {});
    }));
    this.fitting = (this.fitting || Promise.resolve()).then(heights)
      .then(() => this.sideLegends(gen)).then(() => (gen === this.fitGen ? this.thinTicks() : undefined))
      .then(() => this.redrawStale()).catch(() => {});
  }

  // A figure whose plot plotly left drawn where its plot area used to be (a margin pushed by a legend while another
  // change of the figure was under way: plotly skips that redraw) is drawn again, once, from its data.
  async redrawStale() {
    const v = this.view;
    for (const f of v.figs) {
      const fl = f.gd && f.gd._fullLayout, rect = f.gd && f.gd.querySelector('clipPath[id$="xyplot"] rect');
      if (!fl || !fl.xaxis || !fl.yaxis || !rect) continue;
      const off = Math.abs(+rect.getAttribute("width") - fl.xaxis._length) + Math.abs(+rect.getAttribute("height") - fl.yaxis._length);
      if (!(off > 2)) continue;
      f.redraws = (f.redraws || 0) + 1;
      try {
        await v.Plotly.react(f.gd, f.gd.data, { ...f.gd.layout, datarevision: `olc-${f.redraws}` });
        await settled();
      } catch (e) { /* drawn anew by the viewer meanwhile */ }
    }
  }

  // A figure left short by what stands above the charts (a class session's strip, a question) keeps a larger plot
  // with its legend beside it: for each figure with a legend on top, the legend moves to the right when that makes
  // the plot's smaller side SIDE_GAIN times longer (an equal-aspect plot is as large as that side) and the legend gets
  // no scroll box there that it did not have on top; and back when not.
  async sideLegends(gen) {
    const v = this.view;
    const side = (f) => { const fl = f.gd._fullLayout || {}; return fl.xaxis && fl.yaxis ? Math.min(fl.xaxis._length, fl.yaxis._length) : 0; };
    // plotly gives a legend taller than its room a scroll box of its own
    const scrolls = (f) => { const lg = (f.gd._fullLayout || {}).legend || {}; return lg._effHeight < lg._height - 1; };
    for (const f of v.figs) {
      if (gen !== this.fitGen || !f.gd || !f.gd._fullLayout) return;
      const h = f.gd._fullLayout.height;
      if (f.legendAt === h) continue;                          // decided at this height already
      if (!f.legend0) {
        const lg = f.gd.layout.legend;
        if (!lg || lg.orientation !== "h" || f.gd.layout.showlegend === false) { f.legendAt = h; continue; }
        f.legend0 = { ...lg };
      }
      // each change drawn to the end (the margins it pushes redraw the plot after relayout's promise) before the next
      const set = async (legend) => { await v.Plotly.relayout(f.gd, { legend }); await settled(); };
      try {
        if (f.sideLegend) { await set(f.legend0); f.sideLegend = false; }
        const top = side(f), topScrolls = scrolls(f);
        if (top > 0) {
          const { entrywidth, entrywidthmode, ...rest } = f.legend0;   // eslint-disable-line no-unused-vars
          await set({ ...rest, orientation: "v", x: 1.02, xanchor: "left", y: 1, yanchor: "top" });
          if (side(f) >= SIDE_GAIN * top && (topScrolls || !scrolls(f))) f.sideLegend = true;
          else await set(f.legend0);
        }
      } catch (e) { /* a figure redrawn meanwhile: the next fit decides */ }
      f.legendAt = h;
      if (f.gd.dataset) f.gd.dataset.legend = f.sideLegend ? "side" : "top";
    }
  }

  onKey(ev) {
    if (ev.key === "?") { this.toggleHelp(); return true; }
    if (ev.key === "Escape" && this.help) { this.toggleHelp(false); return true; }
    return undefined;
  }

  toggleHelp(show) {
    const v = this.view;
    const open = show === undefined ? !this.help : show;
    if (!open) { if (this.help) this.help.remove(); this.help = null; return; }
    if (this.help) return;
    this.help = el("div", "olc-keys-help");
    this.help.setAttribute("role", "dialog");
    this.help.setAttribute("aria-label", "Keyboard shortcuts");
    const list = el("dl");
    const modeKeys = [];  // the other modes' keys (predict-then-reveal's answers, the class's O / R)
    for (const m of v.modes) if (m && m !== this && typeof m.helpKeys === "function") modeKeys.push(...m.helpKeys());
    for (const [keys, what] of [...KEYS, ...modeKeys, ["?", "show / hide this list"], ["Esc", "close it"]]) {
      const dt = el("dt");
      dt.appendChild(el("kbd", null, keys));
      list.append(dt, el("dd", null, what));
    }
    this.help.append(el("div", "olc-keys-help-title", "Keyboard shortcuts"), list);
    v.root.appendChild(this.help);
  }

  destroy() {
    if (this.pageObserver) this.pageObserver.disconnect();
    window.removeEventListener("resize", this.onWinResize);
    clearTimeout(this.resizeTimer);
    const v = this.view;
    v.root.classList.remove("olc-present");
    delete v.root.dataset.present;
    for (const node of v.root.querySelectorAll(".olc-hidden")) node.classList.remove("olc-hidden");
    if (this.legend) this.legend.remove();
    for (const [label, text] of this.relabelled || []) label.textContent = text;
    if (this.help) this.help.remove();
    for (const f of v.figs) { delete f.height; delete f.ticks0; delete f.legend0; delete f.legendAt; delete f.sideLegend; }
  }
}

registerMode("present", (view, options) => new Present(view, options));
