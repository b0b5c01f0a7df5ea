// olc step viewer: "Play the adversary", a move answered in the browser (a mode module: viewer_modes.js).
//
// Python turns it on with modes = {"game": options} (olc_ui/lessons/boolean_concepts/adversary.py) on the
// game's board: the literal table of the elimination learner (view.py, conjunction_spec, or
// conjunction_start_spec before the first move). The move controls stay the page's own (the bit checkboxes,
// "Label 1" / "Label 0"); this mode listens to their clicks in the capture phase and, without waiting for
// the server, appends the round to the board: the learner's prediction (1 iff no literal of h is false on
// x), h after the round (a false negative keeps the literals true on x; a false positive changes nothing),
// the literals crossed out, each literal's value on x, the row c (the literals true on every positive) and
// whether some conjunction still labels the moves, and the caption — the same numbers and texts the core's
// run gives (tests/ui/test_game_js.py checks every array against the Python spec under node). The click
// goes on to Streamlit, whose rerun records the move in the URL and sends the run's spec: the viewer then
// rebuilds from it (it agrees with what was drawn; tests/e2e/test_adversary_game.py). Until then the
// sandwich and the proof ledger (numbers of the whole run: they change with every positive) are hidden
// behind a note. While a move waits for the server, another click is left to Streamlit alone.

import { registerMode } from "./viewer_modes.js";
import { el, nonEmpty } from "./viewer_util.js";

// ----------------------------------------------------------------------------- the learner, on the spec

// Each literal's value on x (0/1 bits): x_i true iff x_i = 1, ¬x_i iff x_i = 0; order x₁, ¬x₁, …, xₙ, ¬xₙ.
export function literalTruth(x) {
  const out = [];
  for (const b of x) out.push(b ? 1 : 0, b ? 0 : 1);
  return out;
}

function maskOf(indices, size) {
  const m = new Array(size).fill(0);
  for (const j of indices) m[j] = 1;
  return m;
}

function where(mask) {
  const out = [];
  mask.forEach((v, j) => { if (v) out.push(j); });
  return out;
}

// The moves on the board so far: the examples (from each literal's value on each round) and the labels.
export function boardMoves(spec, n) {
  const A = spec.arrays, X = [];
  for (let t = 0; t < spec.T; t++) {
    const x = [];
    for (let i = 0; i < n; i++) x.push(A[`lt${2 * i}`][t] === "1" ? 1 : 0);
    X.push(x);
  }
  return { X, y: spec.caption.values.y.data.slice(0, spec.T).map((v) => (v ? 1 : 0)) };
}

// c: the literals true on every positive example (all 2n with no positive); consistent: no negative satisfies c.
export function mostSpecific(X, y, n) {
  let c = new Array(2 * n).fill(1);
  X.forEach((x, t) => { if (y[t]) { const tr = literalTruth(x); c = c.map((v, j) => v & tr[j]); } });
  const consistent = X.every((x, t) => {
    if (y[t]) return true;
    const tr = literalTruth(x);
    return c.some((v, j) => v && !tr[j]);
  });
  return { c, consistent };
}

// The c row of the literal table (trace 0, static) and what the layout says of it, as view.py's _conj_main.
function cRow(o, names, c, fits) {
  const cx = where(c);
  const name = fits ? o.c_name[0] : o.c_name[1];
  return {
    trace: { x: cx, y: cx.map(() => 3), text: cx.map((j) => names[j]), name,
      color: fits ? o.colors.target : o.colors.pale, hovertemplate: "%{text} is " + name + "<extra></extra>" },
    ticktext: ["value on xₜ", "hypothesis h", fits ? o.c_row[0] : o.c_row[1]],
    annotations: cx.length === 0 ? [{ x: -0.5, y: 3, xanchor: "left", showarrow: false, font: { size: 14 },
      text: o.c_true }] : [],
  };
}

// Append the move (x: n bits, label 0/1) to the board spec, in place, as the core's elimination run on the
// moves would draw it. Returns what the round was.
export function applyMove(spec, o, x, label) {
  const n = o.n, A = spec.arrays, T = spec.T;
  const main = spec.figures.find((f) => f.id === "main");
  const names = main.figure.layout.xaxis.ticktext;
  const truth = literalTruth(x);
  const K = A.h_x.length;
  const h = maskOf(A.h_x[K - 1], 2 * n);
  let falseLits = 0;
  for (let j = 0; j < 2 * n; j++) if (h[j] && !truth[j]) falseLits++;
  const pred = falseLits === 0 ? 1 : 0;
  const mistake = pred !== label;
  if (mistake) {
    const next = label === 1 ? h.map((v, j) => v & truth[j]) : h.slice();  // a false positive: h unchanged
    const kept = where(next), gone = where(next.map((v) => 1 - v)), now = where(h.map((v, j) => v & (1 - next[j])));
    A.h_x.push(kept); A.h_y.push(kept.map(() => 2)); A.h_t.push(kept.map((j) => names[j]));
    A.o_x.push(gone); A.o_y.push(gone.map(() => 2)); A.o_t.push(gone.map((j) => `<s>${names[j]}</s>`));
    A.now_x.push(now); A.now_y.push(now.map(() => 2));
    spec.breaks.push(T + 1);
    spec.mistake_rounds.push(T);
    if (label === 0) {
      spec.extra_stops = spec.extra_stops || {};
      (spec.extra_stops["false positive"] = spec.extra_stops["false positive"] || []).push(T);
    }
  }
  for (let j = 0; j < 2 * n; j++) {
    A[`lx${j}`].push(j);
    A[`lt${j}`].push(truth[j] ? "1" : "0");
    A[`lc${j}`].push(truth[j] ? o.colors.true : o.colors.false);
  }
  A.r_all.push(T);
  A.row1.push(1);
  const V = spec.caption.values, bits = x.map((b) => (b ? "1" : "0")).join("");
  let xi = V.x.labels.indexOf(bits);
  if (xi < 0) { V.x.labels.push(bits); xi = V.x.labels.length - 1; }
  V.x.data.push(xi);
  V.y.data.push(label);
  V.nf.labels = o.nf.slice();
  V.nf.data.push(falseLits);
  V.yhat.data.push(pred);
  V.what.data.push(!mistake ? 0 : label === 1 ? 1 : 2);
  spec.T = T + 1;
  const { X, y } = boardMoves(spec, n);
  const { c, consistent } = mostSpecific(X, y, n);
  const row = cRow(o, names, c, consistent);
  const t0 = main.figure.data[0];
  Object.assign(t0, { x: row.trace.x, y: row.trace.y, text: row.trace.text, name: row.trace.name,
    hovertemplate: row.trace.hovertemplate, marker: { ...t0.marker, color: row.trace.color } });
  main.figure.layout.yaxis.ticktext = row.ticktext;
  main.figure.layout.annotations = row.annotations;
  return { pred, mistake, falseLits, consistent, c: where(c), row };
}

// ----------------------------------------------------------------------------- the mode

// What the board shows of c: its literals, name, colour, the row's tick and the note (c = True).
function cLook(figure) {
  const t0 = figure.data[0];
  return { x: t0.x, name: t0.name, color: t0.marker && t0.marker.color, ticks: figure.layout.yaxis.ticktext,
    notes: (figure.layout.annotations || []).map((a) => a.text) };
}

class Game {
  constructor(view, options) {
    this.view = view;
    this.o = options;
    this.pending = null;     // the round drawn here that the server has not answered yet
    this.onClick = (ev) => this.click(ev);
    document.addEventListener("click", this.onClick, true);  // capture: before Streamlit's own handler
  }

  onBuild() {  // a run from the server: the board is the run's again
    this.view.root.classList.add("olc-game");
    this.settle();
  }

  settle() {
    this.pending = null;
    if (this.timer) { clearTimeout(this.timer); this.timer = null; }
    const held = this.view.root.querySelectorAll(".olc-game-pending");
    for (const e of held) e.classList.remove("olc-game-pending");
    if (held.length && this.view.ready) this.view.scheduleRender();   // not redrawn while held: drawn again now
    if (this.note) { this.note.remove(); this.note = null; }
  }

  labelOf(target) {
    if (!target || !target.closest) return null;
    for (const [label, sel] of [[1, this.o.lab1], [0, this.o.lab0]]) {
      const b = target.closest(sel);
      if (b) return b.disabled || b.getAttribute("aria-disabled") === "true" ? null : label;
    }
    return null;
  }

  bits() {
    const x = [];
    for (let i = 0; i < this.o.n; i++) {
      const box = document.querySelector(this.o.bit.replace("{i}", String(i)));
      if (!box) return null;
      x.push(box.checked ? 1 : 0);
    }
    return x;
  }

  click(ev) {
    const v = this.view;
    const label = this.labelOf(ev.target);
    if (label === null || this.pending !== null || !v.ready || !v.spec || v.spec.T >= this.o.max) return;
    const main = v.figs.find((f) => f.spec.id === "main");
    const x = this.bits();
    if (!main || !x || !main.gd._fullLayout) return;
    const before = JSON.stringify(cLook(main.spec.figure));
    v.spec = structuredClone(v.spec);   // the data Streamlit sent stay as sent
    const spec = v.spec;
    const move = applyMove(spec, this.o, x, label);
    main.spec = spec.figures.find((f) => f.id === "main");
    const after = cLook(main.spec.figure);
    v.prepare(spec);
    v.T = spec.T;
    this.pending = spec.T;
    this.timer = setTimeout(() => this.settle(), 10000);   // the server never answered: stop waiting
    this.hideRunParts(spec.T);
    v.holdDescriptions(`move ${spec.T} is on the board (the caption says it); this description follows from the run.`);
    v.pause(false);
    v.lastReported = spec.T;   // the server hears of the move from the click itself, not from a position report
    v.serverP = spec.T;
    this.redrawC(main, move.row, before, after).then(() => v.setPosition(spec.T, { immediate: true }));
  }

  // The row c (a static trace of the board) when the move changed it: its points by the viewer's own fast path
  // (Plotly.animate, no redraw); its name, the tick and the note (when the labels stop fitting a conjunction, or
  // c becomes True) by Plotly.update, which redraws the figure.
  redrawC(main, row, before, after) {
    const P = this.view.Plotly, was = JSON.parse(before);
    if (JSON.stringify(after) === before) return Promise.resolve();
    const r = row.trace;
    const frame = { x: nonEmpty(r.x), y: nonEmpty(r.y), text: nonEmpty(r.text), marker: { color: r.color } };
    const same = (k) => JSON.stringify(was[k]) === JSON.stringify(after[k]);
    const done = same("name") && same("ticks") && same("notes") && same("color")
      ? P.animate(main.gd, { data: [frame], traces: [0] },
        { transition: { duration: 0 }, frame: { duration: 0, redraw: false }, mode: "immediate" })
      : P.update(main.gd, { x: [frame.x], y: [frame.y], text: [frame.text], name: r.name,
        hovertemplate: r.hovertemplate, "marker.color": r.color },
      { "yaxis.ticktext": row.ticktext, annotations: row.annotations }, [0]);
    return done.catch(() => {});
  }

  // The sandwich and the ledger hold numbers of the whole run (c changes with a positive): hidden until it comes.
  hideRunParts(t) {
    const v = this.view;
    const parts = [...v.figs.filter((f) => f.spec.id !== "main").map((f) => f.box), v.ledgerEl].filter(Boolean);
    for (const p of parts) p.classList.add("olc-game-pending");
    if (!parts.length) return;
    if (!this.note) {
      this.note = el("div", "olc-game-note");
      this.note.setAttribute("role", "status");
      v.captionEl.after(this.note);
    }
    this.note.textContent = `Move ${t} is on the board; the proof ledger and the sandwich follow from the run.`;
  }

  destroy() {
    document.removeEventListener("click", this.onClick, true);
    this.settle();
    this.view.root.classList.remove("olc-game");
  }
}

registerMode("game", (view, options) => new Game(view, options));
