// olc step viewer: a Streamlit custom component v2 (no iframe, no build step).
//
// Python (olc_ui/viewer.py) sends {spec, assets}; the spec is described in
// docs/viewer-spec.md. Python decides every number and every mark; this file only
// selects, for the current position p, the values Python computed, and draws them:
// plotly.js figures (Plotly.newPlot once per run_id, then only the dynamic traces
// per step), KaTeX ledger lines, a caption and the controls. Stepping and playback
// never go to the server; the position is mirrored to the URL (history.replaceState)
// and reported to Python with setStateValue("position", p) once stepping pauses.
//
// All user-visible text is set with textContent; the only HTML inserted is KaTeX's
// own output (katex.render).

const INSTANCES = new WeakMap();
const REPORT_DELAY_MS = 400;      // setStateValue after this long without a step
const URL_MIN_INTERVAL_MS = 200;  // replaceState at most this often (browsers throttle it)
const SPEEDS = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000];

// ------------------------------------------------------------------ libraries

// The Streamlit server's base URL: its index.html loads ./static/js/index.<hash>.js
// relative to the base, so the resolved src tells the base path (also behind a
// server.baseUrlPath or Community Cloud's /~/+/ prefix, and on a sub-page URL).
function serverBase() {
  const s = document.querySelector('script[src*="/static/js/index"]');
  if (s && s.src) return s.src.slice(0, s.src.lastIndexOf("static/js/"));
  return new URL("./", window.location.href).href;
}

// One promise per URL for the whole page (kept on window, so a re-evaluated module,
// e.g. after a code change, does not load plotly.js a second time).
function libCache() {
  if (!window.__olcViewerLibs) window.__olcViewerLibs = {};
  return window.__olcViewerLibs;
}

// A UMD bundle (plotly.js, KaTeX) defines window[globalName]: the object it defined is
// captured on load, and a global defined before by someone else is put back, so two
// bundles (plotly's basic and full builds) or another component's copy can coexist.
function loadScript(url, globalName) {
  const cache = libCache();
  if (cache[url]) return cache[url];
  cache[url] = new Promise((resolve, reject) => {
    const el = document.createElement("script");
    el.src = url;
    el.async = true;
    el.onload = () => {
      const mine = window[globalName];
      if (!mine || mine === before) { reject(new Error(`${url} loaded but did not define window.${globalName}`)); return; }
      if (before !== undefined) window[globalName] = before;
      resolve(mine);
    };
    el.onerror = () => reject(new Error(`could not load ${url}`));
    const before = window[globalName];
    document.head.appendChild(el);
  });
  cache[url].catch(() => { delete cache[url]; });  // allow a retry on the next build
  return cache[url];
}

function loadCss(url) {
  const cache = libCache();
  if (cache[url]) return cache[url];
  cache[url] = new Promise((resolve, reject) => {
    const el = document.createElement("link");
    el.rel = "stylesheet";
    el.href = url;
    el.onload = () => resolve(el);
    el.onerror = () => reject(new Error(`could not load ${url}`));
    document.head.appendChild(el);
  });
  cache[url].catch(() => { delete cache[url]; });
  return cache[url];
}

// Plotly.animate (redraw: false) re-runs doCalcdata over every trace of the figure, and
// that calls PlotSchema.findArrayAttributes for each: a crawl of the trace type's whole
// attribute schema (about 0.6 ms a trace, 12 ms a step for the demo's two figures). Its
// result depends only on the trace's module and on which of its (nested) values are
// arrays, so it is memoised on exactly that. Applied once, to the plotly.js this
// component loaded; skipped if that function is missing (another plotly.js version).
function memoiseFindArrayAttributes(Plotly) {
  const PS = Plotly && Plotly.PlotSchema;
  if (!PS || typeof PS.findArrayAttributes !== "function" || PS.__olcMemo) return;
  const original = PS.findArrayAttributes;
  const memo = new Map();
  const isArr = (v) => Array.isArray(v) || (ArrayBuffer.isView(v) && !(v instanceof DataView));
  const isObj = (v) => Object.prototype.toString.call(v) === "[object Object]";
  const shape = (obj, path, out, depth) => {
    if (depth > 10) { out.push(`${path}…${out.length}`); return; }
    for (const key of Object.keys(obj)) {
      if (key.charCodeAt(0) === 95) continue;  // "_": private, not in the schema
      const v = obj[key];
      if (isArr(v)) {
        out.push(path + key);
        if (Array.isArray(v) && v.length && isObj(v[0]))
          v.forEach((item, i) => { if (isObj(item)) shape(item, `${path}${key}[${i}].`, out, depth + 1); });
      } else if (isObj(v)) shape(v, `${path}${key}.`, out, depth + 1);
    }
  };
  PS.findArrayAttributes = function (trace) {
    if (!isObj(trace)) return original.apply(this, arguments);
    const parts = [String(trace.type), trace._module ? "m" : "-"];
    shape(trace, "", parts, 0);
    const key = parts.join("|");
    let found = memo.get(key);
    if (!found) {
      found = original.apply(this, arguments);
      if (memo.size > 1000) memo.clear();
      memo.set(key, found.slice());
      return found;
    }
    return found.slice();
  };
  PS.__olcMemo = true;
}

function loadLibs(assets) {
  const base = serverBase();
  const abs = (path) => new URL(path, base).href;
  return {
    plotly: loadScript(abs(assets.plotly), "Plotly").then((P) => { memoiseFindArrayAttributes(P); return P; }),
    katex: Promise.all([loadScript(abs(assets.katex_js), "katex"), loadCss(abs(assets.katex_css))])
      .then(([katex]) => katex),
  };
}

// ------------------------------------------------------------------ small helpers

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

// Plain text with light index notation (x_t, Φ_{t+1}, β^{p_i}, 2^M) as DOM text and <sub>/<sup>
// elements: never parsed as HTML. A marker takes a braced group or one letter, digit or *; anything
// else (an unmatched brace, a marker at the end) stays as it is. olc_ui/common.py rich_html mirrors it.
const INDEX_CHAR = /[\p{L}\p{N}*]/u;
function indexParts(s) {
  const out = [];  // strings, and {tag, parts} for a sub/sup
  let i = 0, buf = "";
  while (i < s.length) {
    const c = s[i];
    if ((c === "_" || c === "^") && i + 1 < s.length) {
      let inner = null, next = i + 1;
      if (s[i + 1] === "{") {
        let depth = 0, j = i + 1;
        for (; j < s.length; j++) {
          if (s[j] === "{") depth++;
          else if (s[j] === "}" && --depth === 0) break;
        }
        if (j < s.length) { inner = s.slice(i + 2, j); next = j + 1; }
      } else {
        const ch = String.fromCodePoint(s.codePointAt(i + 1));
        if (INDEX_CHAR.test(ch)) { inner = ch; next = i + 1 + ch.length; }
      }
      if (inner !== null) {
        if (buf) out.push(buf);
        buf = "";
        out.push({ tag: c === "_" ? "sub" : "sup", parts: indexParts(inner) });
        i = next;
        continue;
      }
    }
    buf += c;
    i++;
  }
  if (buf) out.push(buf);
  return out;
}

function appendRich(parent, s) {
  appendParts(parent, indexParts(String(s)));
  return parent;
}

function appendParts(parent, parts) {
  for (const part of parts) {
    if (typeof part === "string") parent.appendChild(document.createTextNode(part));
    else { const e = document.createElement(part.tag); appendParts(e, part.parts); parent.appendChild(e); }
  }
}

// Button icons as SVG paths (a 16 x 16 box): glyph fonts differ between machines.
const ICONS = {
  first: "M2 2h2.2v12H2z M14 2 5.5 8l8.5 6z",
  prevStop: "M8 2 0.5 8 8 14z M15.5 2 8 8l7.5 6z",
  prev: "M12 2 4 8l8 6z",
  play: "M4 1.5 14 8 4 14.5z",
  pause: "M3 2h3.6v12H3z M9.4 2H13v12H9.4z",
  next: "M4 2l8 6-8 6z",
  nextStop: "M0.5 2 8 8l-7.5 6z M8 2l7.5 6L8 14z",
  last: "M2 2l8.5 6L2 14z M11.8 2H14v12h-2.2z",
  download: "M7 1h2v7h3l-4 5-4-5h3z M2 13.2h12V15H2z",
};

function icon(name) {
  const NS = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(NS, "svg");
  svg.setAttribute("viewBox", "0 0 16 16");
  svg.setAttribute("width", "14");
  svg.setAttribute("height", "14");
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("class", "olc-icon");
  const path = document.createElementNS(NS, "path");
  path.setAttribute("d", ICONS[name]);
  path.setAttribute("fill", "currentColor");
  svg.appendChild(path);
  return svg;
}

function setIcon(svg, name) { svg.firstChild.setAttribute("d", ICONS[name]); }

// plotly hides a trace with no points (visible: false) and a frame that empties a
// trace would leave its old drawing behind: an empty selection is one null point.
function nonEmpty(a) { return a && a.length ? a : [null]; }

function clamp(v, lo, hi) { return Math.max(lo, Math.min(hi, v)); }

// number of entries < v (a sorted ascending)
function lowerBound(a, v) {
  let lo = 0, hi = a.length;
  while (lo < hi) { const m = (lo + hi) >> 1; if (a[m] < v) lo = m + 1; else hi = m; }
  return lo;
}

// number of entries <= v (a sorted ascending)
function upperBound(a, v) {
  let lo = 0, hi = a.length;
  while (lo < hi) { const m = (lo + hi) >> 1; if (a[m] <= v) lo = m + 1; else hi = m; }
  return lo;
}

// ------------------------------------------------------------------ number formats
// The subset of Python's format-spec mini-language the spec allows (see
// olc_ui/viewer.py FORMAT_RE): [sign][,][.precision][type], type in d f e g %.
// Output matches Python's format(value, fmt) for finite numbers.

const FMT_RE = /^([+\- ]?)(,?)(?:\.(\d+))?([dfeg%]?)$/;

function stripZeros(s) {
  return s.indexOf(".") < 0 ? s : s.replace(/0+$/, "").replace(/\.$/, "");
}

// Python rounds an exact tie (a binary value exactly halfway, like 0.125 to 2
// decimals) to even; JavaScript's toFixed / toExponential round it up. Returns the
// integer nearest a·10^k (a BigInt) when a·10^k is exactly halfway, else null.
// Decided exactly: a = M·2^E with M odd, so 2·a·10^k is an odd integer only if E+k+1 = 0.
function tieToEven(a, k) {
  if (!(a > 0) || !Number.isFinite(a)) return null;
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, a);
  const hi = view.getUint32(0), lo = view.getUint32(4), bits = (hi >>> 20) & 0x7ff;
  let M = (BigInt(hi & 0xfffff) << 32n) | BigInt(lo), E = -1074;
  if (bits) { M |= 1n << 52n; E = bits - 1075; }
  while ((M & 1n) === 0n) { M >>= 1n; E += 1; }
  if (E + k + 1 !== 0) return null;
  let twice;  // 2·a·10^k, odd
  if (k >= 0) twice = M * 5n ** BigInt(k);
  else {
    const d = 5n ** BigInt(-k);
    if (M % d !== 0n) return null;
    twice = M / d;
  }
  const fl = (twice - 1n) / 2n;
  return fl % 2n === 0n ? fl : fl + 1n;
}

function digitsWithPoint(n, prec) {  // 1234, 2 -> "12.34"
  let d = String(n);
  if (prec === 0) return d;
  while (d.length <= prec) d = "0" + d;
  return `${d.slice(0, d.length - prec)}.${d.slice(d.length - prec)}`;
}

function toFixedPy(a, prec) {
  const n = tieToEven(a, prec);
  return n === null ? a.toFixed(prec) : digitsWithPoint(n, prec);
}

function toExponentialPy(a, prec) {  // JS form: "1.50e+5"
  const js = a.toExponential(prec);
  let exp = +js.split("e")[1];
  let n = tieToEven(a, prec - exp);
  if (n === null) return js;
  if (String(n).length > prec + 1) { n /= 10n; exp += 1; }
  return `${digitsWithPoint(n, prec)}e${exp < 0 ? "-" : "+"}${Math.abs(exp)}`;
}

function pyExp(s) {  // JS "1.5e+5" -> Python "1.5e+05"
  const [m, e] = s.split("e");
  const sign = e[0] === "-" ? "-" : "+";
  const digits = e.replace(/^[+-]/, "");
  return `${m}e${sign}${digits.length < 2 ? "0" + digits : digits}`;
}

function pyG(a, prec) {
  const p = prec === 0 ? 1 : prec;
  if (a === 0) return "0";
  const exp = +toExponentialPy(a, p - 1).split("e")[1];
  if (exp < -4 || exp >= p) {
    const [m, e] = pyExp(toExponentialPy(a, p - 1)).split("e");
    return `${stripZeros(m)}e${e}`;
  }
  return stripZeros(toFixedPy(a, Math.max(0, p - 1 - exp)));
}

function groupThousands(s) {
  const i = s.search(/[.e%]/);
  const int = i < 0 ? s : s.slice(0, i), rest = i < 0 ? "" : s.slice(i);
  return int.replace(/\B(?=(\d{3})+(?!\d))/g, ",") + rest;
}

function formatNumber(v, fmt) {
  const m = FMT_RE.exec(fmt || "");
  if (!m) return String(v);
  const [, sign, comma, precStr, type] = m;
  const prec = precStr === undefined ? null : +precStr;
  const a = Math.abs(v);
  let s;
  switch (type) {
    case "d": s = String(Math.round(a)); break;
    case "f": s = toFixedPy(a, prec === null ? 6 : prec); break;
    case "e": s = pyExp(toExponentialPy(a, prec === null ? 6 : prec)); break;
    case "%": s = toFixedPy(a * 100, prec === null ? 6 : prec) + "%"; break;  // Python too multiplies first
    default: s = prec === null && type === "" ? String(a) : pyG(a, prec === null ? 6 : prec);
  }
  if (comma) s = groupThousands(s);
  const neg = v < 0 || Object.is(v, -0);
  return (neg ? "-" : sign === "+" ? "+" : sign === " " ? " " : "") + s;
}

const BLANK = Symbol("blank");  // a "by round" value at p = 0

// value -> {text, latex}; null / NaN -> a dash, BLANK -> empty text, "n/a" in a ledger line (no round yet)
function formatValue(v, fmt, labels) {
  if (v === BLANK) return { text: "", latex: "\\text{n/a}" };
  if (v === "inf" || v === "-inf")  // ±∞ (JSON has no infinity): e.g. ln of a weight that reached 0
    return v === "inf" ? { text: "∞", latex: "\\infty" } : { text: "−∞", latex: "-\\infty" };
  if (v === null || v === undefined || (typeof v === "number" && !Number.isFinite(v)))
    return { text: "—", latex: "\\text{---}" };
  if (labels && typeof v === "number") v = labels[v] ?? "—";
  if (typeof v !== "number" || fmt === "text") {
    const t = String(v);
    return { text: t, latex: `\\text{${latexEscapeText(t)}}` };
  }
  const s = formatNumber(v, fmt);
  let latex = s.replace(/%$/, "\\%").replace(/,/g, "{,}");
  const em = /^([+\- ]?[\d.{},]+)e([+-])0*(\d+)$/.exec(latex);
  if (em) latex = `${em[1]}\\times 10^{${em[2] === "-" ? "-" : ""}${em[3]}}`;
  return { text: s.replace(/^-/, "−"), latex };
}

function latexEscapeText(t) {
  return t.replace(/[\\{}$&#^_%~]/g, (c) => ({
    "\\": "\\textbackslash{}", "{": "\\{", "}": "\\}", "$": "\\$", "&": "\\&", "#": "\\#",
    "^": "\\textasciicircum{}", "_": "\\_", "%": "\\%", "~": "\\textasciitilde{}",
  })[c]);
}

const PLACEHOLDER = /\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

// ------------------------------------------------------------------ dynamic ops

const ROW_OPS = new Set(["rows_before", "rows_from", "row_current", "rows_all"]);
const EMPTY = { x: [], y: [] };
const LEDGER_PLAY_INTERVAL_MS = 250;  // ledger refresh while playing (see renderNow)

function pick(arr, i) { return arr && i >= 0 && i < arr.length ? arr[i] : null; }

function withNulls(list) {  // [[..], [..]] -> [.., null, ..]
  const out = [];
  for (const part of list) {
    if (!part || !part.length) continue;
    if (out.length) out.push(null);
    for (const v of part) out.push(v);
  }
  return out;
}

// ------------------------------------------------------------------ canvas point layers
// Ops with "render": "canvas" draw rows on a <canvas> under the plot's SVG (the
// figure's backgrounds are made transparent and painted on the canvas instead), in
// the marker style plotly resolved for their trace. rows_before grows incrementally
// (only the rows revealed since the last draw are painted), so playback costs O(rows
// revealed per frame) whatever T is.

function markerPath(ctx, symbol, x, y, r) {
  switch (symbol) {
    case "square": ctx.rect(x - r, y - r, 2 * r, 2 * r); break;
    case "diamond": ctx.moveTo(x, y - r * 1.3); ctx.lineTo(x + r * 1.3, y); ctx.lineTo(x, y + r * 1.3);
      ctx.lineTo(x - r * 1.3, y); ctx.closePath(); break;
    case "triangle-up": ctx.moveTo(x, y - r * 1.2); ctx.lineTo(x + r * 1.1, y + r * 0.8);
      ctx.lineTo(x - r * 1.1, y + r * 0.8); ctx.closePath(); break;
    case "x": ctx.moveTo(x - r, y - r); ctx.lineTo(x + r, y + r); ctx.moveTo(x + r, y - r); ctx.lineTo(x - r, y + r); break;
    case "cross": ctx.moveTo(x - r, y); ctx.lineTo(x + r, y); ctx.moveTo(x, y - r); ctx.lineTo(x, y + r); break;
    default: ctx.moveTo(x + r, y); ctx.arc(x, y, r, 0, 2 * Math.PI);
  }
}

function canvasStyle(fd) {
  const mk = (fd && fd.marker) || {};
  let symbol = String(mk.symbol ?? "circle");
  const open = symbol.endsWith("-open");
  symbol = symbol.replace(/-open(-dot)?$/, "").replace(/-dot$/, "");
  const line = mk.line || {};
  const color = typeof mk.color === "string" ? mk.color : "#1f77b4";
  return {
    symbol,
    stroked: open || symbol === "x" || symbol === "cross",
    color,
    r: Math.max(1, (typeof mk.size === "number" ? mk.size : 6) / 2),
    alpha: (typeof mk.opacity === "number" ? mk.opacity : 1) * (typeof fd.opacity === "number" ? fd.opacity : 1),
    lineColor: typeof line.color === "string" ? line.color : null,
    lineWidth: typeof line.width === "number" ? line.width : 0,
  };
}

// ------------------------------------------------------------------ the viewer

// The round each viewer last showed of each run, for this browser tab: a student who leaves a
// page during Play and comes back finds the round that was on screen (Python only hears of the
// position when playback pauses). sessionStorage: per tab, gone when the tab closes.
function shownKey(name, runId) { return "olc-shown:" + name + ":" + runId; }
function rememberShown(name, runId, p) {
  try { window.sessionStorage.setItem(shownKey(name, runId), String(p)); } catch (e) { /* storage off */ }
}
function shownBefore(name, runId) {
  try {
    const v = window.sessionStorage.getItem(shownKey(name, runId));
    return v !== null && /^[0-9]+$/.test(v) ? Number(v) : null;
  } catch (e) { return null; }
}

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
    this.resizeObserver = new ResizeObserver((entries) => this.onResize(entries));
    this.root.addEventListener("keydown", (ev) => this.onKey(ev));
  }

  receive(data) {
    const spec = data && data.spec;
    if (!spec || typeof spec !== "object") return;
    this.download = typeof data.download === "string" ? data.download : null;
    if (spec.run_id === this.runId) return;  // same run: keep the position, no rebuild
    this.resume = data.resume === true && this.runId === null;  // a fresh mount, not from a link
    this.build(spec, data.assets || {});
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
    const keep = this.runId !== null && this.T !== undefined && sent === this.serverP;
    this.runId = spec.run_id;
    this.spec = spec;
    this.assets = assets;
    this.T = spec.T;
    this.p = keep ? clamp(this.p, 0, this.T) : kept !== null ? clamp(kept, 0, this.T) : sent;
    this.serverP = sent;
    this.prepare(spec);
    const hadFocus = this.root.contains(document.activeElement);
    this.buildDom(spec);
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
    // controls
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
      const o = el("option", null, `${s} rounds/s`);
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
    this.root.appendChild(bar);
    // caption
    this.captionEl = el("div", "olc-caption");
    this.captionEl.setAttribute("aria-live", "polite");
    this.root.appendChild(this.captionEl);
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
        if (fs.title) box.appendChild(el("div", "olc-figure-title", fs.title));
        const gd = el("div", "olc-plot");
        gd.dataset.figureId = id;
        gd.style.height = `${fs.height || 400}px`;
        box.appendChild(gd);
        col.appendChild(box);
        this.figs.push({ spec: fs, gd, box });
      }
      grid.appendChild(col);
    });
    this.root.appendChild(grid);
  }

  buildLedger(ledger) {
    const box = el("div", "olc-ledger");
    box.dataset.figureId = "ledger";
    if (ledger.title) box.appendChild(appendRich(el("div", "olc-ledger-title"), ledger.title));
    this.ledgerLines = [];
    for (const line of ledger.lines || []) {
      const row = el("div", "olc-ledger-line");
      const mark = el("span", "olc-mark");
      const math = el("div", "olc-math");
      const reason = appendRich(el("div", "olc-reason"), line.reason || "");
      const body = el("div", "olc-ledger-body");
      body.append(math, reason);
      row.append(mark, body);
      box.appendChild(row);
      this.ledgerLines.push({ line, row, mark, math, lastLatex: null });
    }
    this.ledgerEl = box;
    return box;
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
  }

  // ---------------------------------------------------------------- figures
  async plotFigure(f) {
    const Plotly = this.Plotly;
    const fs = f.spec;
    const fig = fs.figure || {};
    const data = (fig.data || []).map((t) => ({ ...t }));
    const layout = { ...(fig.layout || {}) };
    layout.height = fs.height || layout.height || 400;
    layout.autosize = true;
    delete layout.width;
    f.ops = (fs.dynamic || []).map((op) => ({ ...op, drawn: -1 }));
    f.canvasOps = f.ops.filter((op) => op.render === "canvas");
    f.svgOps = f.ops.filter((op) => op.render !== "canvas");
    f.animatable = f.svgOps.every((op) => !data[op.trace] || (data[op.trace].type || "scatter") === "scatter");
    if (f.canvasOps.length) {
      f.bg = { paper: layout.paper_bgcolor || "#fff", plot: layout.plot_bgcolor || "#fff" };
      layout.paper_bgcolor = "rgba(0,0,0,0)";
      layout.plot_bgcolor = "rgba(0,0,0,0)";
      for (const op of f.canvasOps) if (data[op.trace]) { data[op.trace].x = [null]; data[op.trace].y = [null]; }
    }
    // first draw already shows the current position: no second pass
    const k = this.k(), p = this.p;
    for (const op of f.svgOps) {
      const v = this.evalOp(op, p, k);
      const t = data[op.trace];
      if (!t) continue;
      Object.assign(t, { x: nonEmpty(v.x), y: nonEmpty(v.y) });
      if (v.z) t.z = v.z;
      if (v.text) t.text = v.text;
      if (v.color) t.marker = { ...(t.marker || {}), color: v.color };
    }
    const config = { displaylogo: false, responsive: false, ...(fs.config || {}) };
    await Plotly.newPlot(f.gd, data, layout, config);
    f.lastSvg = new Map();
    if (f.canvasOps.length) {
      f.canvas = document.createElement("canvas");
      f.canvas.className = "olc-points";
      f.canvas.setAttribute("aria-hidden", "true");
      const container = f.gd.querySelector(".svg-container");
      container.insertBefore(f.canvas, container.firstChild);
      // after a zoom, resize or legend click: redrawn in full when the geometry changed
      f.gd.on("plotly_afterplot", () => this.drawCanvas(f, false));
      this.drawCanvas(f, true);
    }
    this.resizeObserver.observe(f.gd);
  }

  teardownFigures() {
    for (const f of this.figs || []) {
      this.resizeObserver.unobserve(f.gd);
      if (this.Plotly && f.gd) { try { this.Plotly.purge(f.gd); } catch (e) { /* already gone */ } }
    }
    this.figs = [];
  }

  onResize(entries) {
    if (!this.ready) return;
    for (const entry of entries) {
      const f = this.figs.find((g) => g.gd === entry.target);
      if (!f || !f.gd._fullLayout) continue;
      const w = Math.round(entry.contentRect.width);
      if (w && w !== f.gd._fullLayout.width) this.Plotly.Plots.resize(f.gd).catch(() => {});
    }
  }

  evalOp(op, p, k) {
    const A = this.arrays;
    const r = p - 1;  // the current round (0-based); -1 at p = 0
    switch (op.op) {
      case "rows_before": case "rows_from": case "row_current": case "rows_all": {
        const rounds = A[op.rounds];
        let lo = 0, hi = rounds.length;
        if (op.op === "rows_before") hi = lowerBound(rounds, r);
        else if (op.op === "rows_from") lo = upperBound(rounds, r);
        else if (op.op === "row_current") {  // every row of the current round
          lo = lowerBound(rounds, r);
          hi = upperBound(rounds, r);
        }
        const out = { lo, hi, x: A[op.x].slice(lo, hi), y: A[op.y].slice(lo, hi) };
        if (op.z) out.z = A[op.z].slice(lo, hi);
        if (op.text) out.text = A[op.text].slice(lo, hi);
        if (op.color) out.color = A[op.color].slice(lo, hi);
        return out;
      }
      case "state": {
        const out = { x: pick(A[op.x], k) || [], y: pick(A[op.y], k) || [] };
        if (op.z) out.z = pick(A[op.z], k) || [];
        if (op.text) out.text = pick(A[op.text], k) || [];
        if (op.color) out.color = pick(A[op.color], k) || [];
        return out;
      }
      case "state_window": {
        const back = op.back ?? 1, from = Math.max(0, k - back);
        const xs = [], ys = [], zs = [];
        for (let j = from; j < k; j++) {
          xs.push(pick(A[op.x], j)); ys.push(pick(A[op.y], j));
          if (op.z) zs.push(pick(A[op.z], j));
        }
        const out = { x: withNulls(xs), y: withNulls(ys) };
        if (op.z) out.z = withNulls(zs);
        return out;
      }
      case "on_mistake": {
        // shown when the state changed at the end of round p (p is a break, i.e. for a
        // mistake-driven learner: round p was a mistake), with entry k(p) - 1
        if (k === 0 || this.breaks[k - 1] !== p) return EMPTY;
        const out = { x: pick(A[op.x], k - 1) || [], y: pick(A[op.y], k - 1) || [] };
        if (op.z) out.z = pick(A[op.z], k - 1) || [];
        if (op.text) out.text = pick(A[op.text], k - 1) || [];
        return out;
      }
      case "point_state": {
        const x = pick(A[op.x], k), y = pick(A[op.y], k);
        const out = x === null || y === null ? { x: [], y: [] } : { x: [x], y: [y] };
        if (op.text) out.text = x === null ? [] : [pick(A[op.text], k)];
        return out;
      }
      case "point_position": {
        const x = pick(A[op.x], p), y = pick(A[op.y], p);
        const out = x === null || y === null ? { x: [], y: [] } : { x: [x], y: [y] };
        if (op.text) out.text = x === null ? [] : [pick(A[op.text], p)];
        return out;
      }
      case "vline_position":
        return { x: [p, p], y: [op.y[0], op.y[1]] };
      default:
        return EMPTY;
    }
  }

  updateFigure(f, p, k) {
    if (!f.gd._fullLayout) return;
    const traces = [], frames = [];
    for (const op of f.svgOps) {
      const v = this.evalOp(op, p, k);
      // skip traces whose content did not change (e.g. the hyperplane between mistakes)
      const sig = op.op.startsWith("row") ? `${v.lo}:${v.hi}` : op.op === "on_mistake" || op.op.startsWith("state") || op.op === "point_state" ? `${k}:${v.x.length}` : `${p}`;
      if (f.lastSvg.get(op) === sig) continue;
      f.lastSvg.set(op, sig);
      const d = { x: nonEmpty(v.x), y: nonEmpty(v.y) };
      if (v.z) d.z = v.z;
      if (v.text) d.text = v.text;
      if (v.color) d.marker = { color: v.color };
      traces.push(op.trace);
      frames.push(d);
    }
    if (traces.length) {
      if (f.animatable) {
        // only these traces are re-plotted; the static ones (and the axes) are not
        this.Plotly.animate(f.gd, { data: frames, traces },
          { transition: { duration: 0 }, frame: { duration: 0, redraw: false }, mode: "immediate" })
          .catch(() => {});  // an interrupted frame rejects: expected while playing
      } else {
        const update = {};
        frames.forEach((d, i) => {
          for (const [key, val] of Object.entries(d)) {
            const name = key === "marker" ? "marker.color" : key;
            if (!update[name]) update[name] = new Array(frames.length).fill(undefined);
            update[name][i] = key === "marker" ? val.color : val;
          }
        });
        this.Plotly.restyle(f.gd, update, traces).catch(() => {});
      }
    }
    if (f.canvasOps.length) this.drawCanvas(f, false);
  }

  drawCanvas(f, full) {
    const gd = f.gd, fl = gd._fullLayout, canvas = f.canvas;
    if (!fl || !canvas) return;
    const dpr = window.devicePixelRatio || 1;
    const W = fl.width, H = fl.height;
    const geo = [W, H, dpr];
    for (const op of f.canvasOps) {
      const fd = gd._fullData[op.trace] || {};
      const xa = fl[(fd.xaxis || "x").replace(/^x/, "xaxis")], ya = fl[(fd.yaxis || "y").replace(/^y/, "yaxis")];
      if (xa && ya) geo.push(xa.range[0], xa.range[1], ya.range[0], ya.range[1], xa._offset, xa._length, ya._offset, ya._length, fd.visible);
    }
    const sig = geo.join(",");
    if (sig !== f.canvasSig) { full = true; f.canvasSig = sig; }
    const ctx = canvas.getContext("2d");
    const p = this.p, r = p - 1;
    // incremental only when every op just grows (rows_all fixed, rows_before revealed)
    if (!full) {
      for (const op of f.canvasOps) {
        if (op.op === "rows_all") continue;
        if (op.op !== "rows_before") { full = true; break; }
        if (lowerBound(this.arrays[op.rounds], r) < op.drawn) { full = true; break; }
      }
    }
    if (full) {
      if (canvas.width !== Math.round(W * dpr) || canvas.height !== Math.round(H * dpr)) {
        canvas.width = Math.round(W * dpr);
        canvas.height = Math.round(H * dpr);
        canvas.style.width = `${W}px`;
        canvas.style.height = `${H}px`;
      }
      ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
      ctx.clearRect(0, 0, W, H);
      ctx.fillStyle = f.bg.paper;
      ctx.fillRect(0, 0, W, H);
      const s = fl._size;
      ctx.fillStyle = f.bg.plot;
      ctx.fillRect(s.l, s.t, s.w, s.h);
    }
    for (const op of f.canvasOps) {
      const rounds = this.arrays[op.rounds];
      let lo = 0, hi = rounds.length;
      if (op.op === "rows_before") hi = lowerBound(rounds, r);
      else if (op.op === "rows_from") lo = upperBound(rounds, r);
      else if (op.op === "row_current") { lo = lowerBound(rounds, r); hi = upperBound(rounds, r); }
      let from = lo;
      if (!full) {
        if (op.op === "rows_all") continue;
        from = Math.max(lo, op.drawn);
      }
      op.drawn = hi;
      if (from >= hi) continue;
      const fd = gd._fullData[op.trace];
      if (!fd || fd.visible !== true) continue;
      const xa = fl[(fd.xaxis || "x").replace(/^x/, "xaxis")], ya = fl[(fd.yaxis || "y").replace(/^y/, "yaxis")];
      const st = canvasStyle(fd);
      const X = this.arrays[op.x], Y = this.arrays[op.y];
      ctx.save();
      ctx.beginPath();
      ctx.rect(xa._offset, ya._offset, xa._length, ya._length);
      ctx.clip();
      ctx.globalAlpha = st.alpha;
      ctx.beginPath();
      const x0 = xa._offset, y0 = ya._offset;
      for (let i = from; i < hi; i++) {
        const xv = X[i], yv = Y[i];
        if (xv === null || yv === null) continue;
        markerPath(ctx, st.symbol, x0 + xa.l2p(xv), y0 + ya.l2p(yv), st.r);
      }
      if (st.stroked) {
        ctx.strokeStyle = st.color;
        ctx.lineWidth = Math.max(1, st.lineWidth || 1.5);
        ctx.stroke();
      } else {
        ctx.fillStyle = st.color;
        ctx.fill();
        if (st.lineWidth > 0 && st.lineColor) { ctx.strokeStyle = st.lineColor; ctx.lineWidth = st.lineWidth; ctx.stroke(); }
      }
      ctx.restore();
    }
  }

  // ---------------------------------------------------------------- position
  k(p = this.p) { return upperBound(this.breaks, p); }

  setPosition(p, { immediate = false } = {}) {
    if (this.T === undefined) return;
    p = clamp(Math.round(p), 0, this.T);
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

  scheduleRender() {
    if (this.renderRaf !== null) return;
    this.renderRaf = requestAnimationFrame(() => { this.renderRaf = null; this.renderNow(); });
  }

  renderNow() {
    if (this.renderRaf !== null) { cancelAnimationFrame(this.renderRaf); this.renderRaf = null; }
    const p = this.p, k = this.k();
    if (this.ready) {
      for (const f of this.figs) this.updateFigure(f, p, k);
      // While playing, the ledger's KaTeX is typeset a few times a second (nobody reads
      // numbers at 20+ frames a second, and typesetting every frame would halve the frame
      // rate); every step, pause and stop draws it at once.
      const now = performance.now();
      if (!this.playing || !(now - (this.ledgerAt || 0) < LEDGER_PLAY_INTERVAL_MS)) {
        this.renderLedger(p, k);
        this.ledgerAt = now;
      }
    }
    this.renderCaption();
    this.renderControls();
    this.root.dataset.position = String(p);
    rememberShown(this.download, this.runId, p);
  }

  values(src, p, k) {
    if (!src) return null;
    if ("const" in src) return src.const;
    switch (src.by) {
      case "state": return pick(src.data, k);
      case "position": return pick(src.data, p);
      case "round": return p === 0 ? BLANK : pick(src.data, p - 1);
      default: return null;
    }
  }

  fill(template, values, p, k, latex) {
    return template.replace(PLACEHOLDER, (whole, name) => {
      let f;
      if (values && Object.prototype.hasOwnProperty.call(values, name)) {
        const src = values[name];
        f = formatValue(this.values(src, p, k), src.fmt, src.labels);
      } else if (name === "t") f = formatValue(p, "d");
      else if (name === "T") f = formatValue(this.T, "d");
      else if (name === "k") f = formatValue(k, "d");
      else return whole;  // a LaTeX group, not a placeholder
      return latex ? `{${f.latex}}` : f.text;
    });
  }

  renderCaption() {
    const cap = this.spec && this.spec.caption;
    if (!cap || !this.captionEl) return;
    const p = this.p, k = this.k();
    const tpl = p === 0 && cap.start ? cap.start : cap.template;
    this.captionEl.textContent = this.fill(tpl || "Round {t} of {T}", cap.values, p, k, false);
  }

  renderLedger(p, k) {
    if (!this.ledgerLines || !this.katex) return;
    for (const L of this.ledgerLines) {
      const tex = this.fill(L.line.latex || "", L.line.values, p, k, true);
      if (tex !== L.lastLatex) {
        this.katex.render(tex, L.math, { throwOnError: false, strict: "ignore", displayMode: false });
        L.lastLatex = tex;
      }
      const h = this.values(L.line.holds, p, k);
      const state = h === true || h === 1 ? "holds" : h === false || h === 0 ? "fails" : "undefined";
      if (L.row.dataset.holds !== state) {
        L.row.dataset.holds = state;
        L.mark.textContent = state === "holds" ? "✓" : state === "fails" ? "✗" : "—";
        L.mark.setAttribute("aria-label", state === "holds" ? "holds" : state === "fails" ? "fails" : "not defined yet");
        L.mark.setAttribute("role", "img");
      }
    }
  }

  renderControls() {
    if (!this.range) return;
    const p = this.p, T = this.T;
    this.range.value = String(p);
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

  // ---------------------------------------------------------------- URL and Python
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
      if (this.p === this.lastReported) return;
      this.lastReported = this.p;
      this.serverP = this.p;
      this.setStateValue("position", this.p);
    }, REPORT_DELAY_MS);
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
    const tag = ev.target && ev.target.tagName;
    if (tag === "SELECT") return;  // the speed list keeps its own keys
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

  destroy() {
    this.buildToken++;
    this.pause(false);
    if (this.reportTimer) clearTimeout(this.reportTimer);
    if (this.urlTimer) clearTimeout(this.urlTimer);
    if (this.renderRaf !== null) cancelAnimationFrame(this.renderRaf);
    this.teardownFigures();
    this.resizeObserver.disconnect();
    this.root.remove();
  }
}

// For tests (tests/ui/test_viewer_spec.py runs these under node): the formatter must
// print exactly what Python's format() prints.
export const _testing = { BLANK, formatNumber, formatValue, indexParts, lowerBound, upperBound };

export default function (component) {
  const { data, parentElement, setStateValue } = component;
  let viewer = INSTANCES.get(parentElement);
  if (!viewer) {
    viewer = new Viewer(parentElement);
    INSTANCES.set(parentElement, viewer);
  }
  viewer.setStateValue = setStateValue;
  viewer.receive(data);
  return () => {
    viewer.destroy();
    INSTANCES.delete(parentElement);
  };
}
