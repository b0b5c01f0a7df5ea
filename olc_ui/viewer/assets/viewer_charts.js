// olc step viewer: the chart layers (plotly figures, dynamic trace ops, canvas point layers).
// Methods of the Viewer (mixed into its prototype by viewer.js); `this` is the viewer.

import { callHook } from "./viewer_modes.js";
import { lowerBound, nonEmpty, pick, upperBound, withNulls } from "./viewer_util.js";

export const ROW_OPS = new Set(["rows_before", "rows_from", "row_current", "rows_all"]);
export const EMPTY = { x: [], y: [] };

// ------------------------------------------------------------------ canvas point layers
// Ops with "render": "canvas" draw rows on a <canvas> under the plot's SVG (the
// figure's backgrounds are made transparent and painted on the canvas instead), in
// the marker style plotly resolved for their trace. rows_before grows incrementally
// (only the rows revealed since the last draw are painted), so playback costs O(rows
// revealed per frame) whatever T is.

export function markerPath(ctx, symbol, x, y, r) {
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

export function canvasStyle(fd) {
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

export class ChartMethods {
  async plotFigure(f) {
    const Plotly = this.Plotly;
    const fs = f.spec;
    const fig = fs.figure || {};
    const data = (fig.data || []).map((t) => ({ ...t }));
    const layout = { ...(fig.layout || {}) };
    layout.height = f.height || fs.height || layout.height || 400;  // f.height: set by a mode
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
    callHook(this, "beforePlot", f, data, layout);
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
}
