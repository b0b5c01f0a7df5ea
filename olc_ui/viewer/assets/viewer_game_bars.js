// olc step viewer: "Beat the bound" on Winnow and on the experts (WM, RWM, Halving) — a move judged and drawn in the
// browser (a mode module: viewer_modes.js).
//
// Python turns it on with modes = {"game_bars": options} (board_options: olc_ui/lessons/winnow/adversary_view.py,
// olc_ui/shared/experts_board.py) on the game's board (board_spec: olc_ui/lessons/{winnow,experts}/adversary_view.py).
// The move controls stay the page's own (the checkboxes of the variables or of the experts' advice, "Label 1" / "Label 0" or
// "Outcome +1" / "Outcome −1"); this mode listens to the buttons' clicks in the capture phase and, without waiting
// for the server, decides whether the move is admissible with the core's rule (olc_core/games/winnow.py: the label
// is the target disjunction's; olc_core/games/experts.py: some expert stays within the budget m*). An admissible
// move is appended to the board as the run will draw it — the weights after it from exact integer exponents
// (w_i = b^{c_i}, heights c_i·log₁₀ b with Python's own log₁₀ b), the learner's answer decided in exact fractions
// (Winnow: Σ_{x_i=1} w_i > N; WM: the weighted vote, a tie to +1; Halving: the majority of the version space;
// RWM: the chance of a mistake Fₜ, its draw left to the run), the moved weights, the caption — and the click goes
// on to Streamlit, whose rerun records the move in the URL and sends the run's spec (the board then rebuilt from
// it agrees with what was drawn). A refused move is left to Streamlit alone (it says why). Until the run comes,
// the potential, the sandwich, the other charts and the ledger (numbers of the whole run) wait behind a note and
// every description says so. tests/ui/test_game_bars_js.py checks under node that the board drawn here is the
// run's, array for array, for every kind.
//
// The Halving page's game (olc_ui/lessons/halving/adversary_view.py) is the experts' Halving board with the
// hypotheses of a class as the experts (options.plus: each instance's labels by the hypotheses): a move is an
// instance chosen in the page's list (options.select) and a label; each hypothesis advises its own label, and the
// move is admissible iff the label is the target's (olc_core/games/halving.py). tests/ui/test_game_halving_js.py.

import { classLink } from "./viewer_class.js";
import { GameClass } from "./viewer_game_class.js";
import { registerMode } from "./viewer_modes.js";
import { el } from "./viewer_util.js";
import { pgDecimal, pgPair } from "./viewer_game_plane.js";

// ----------------------------------------------------------------------------- exact fractions (BigInt)

const bgAbs = (v) => (v < 0n ? -v : v);
const bgGcd = (a, b) => { a = bgAbs(a); b = bgAbs(b); while (b) [a, b] = [b, a % b]; return a; };
const bgNorm = ([n, d]) => { const g = bgGcd(n, d) || 1n; return [n / g, d / g]; };
const bgAdd = (a, b) => bgNorm([a[0] * b[1] + b[0] * a[1], a[1] * b[1]]);
const bgCmp = (a, b) => { const x = a[0] * b[1] - b[0] * a[1]; return x < 0n ? -1 : x > 0n ? 1 : 0; };
// (p/q)^c for an integer c (of either sign), p, q > 0
const bgPow = (p, q, c) => (c >= 0 ? [p ** BigInt(c), q ** BigInt(c)] : [q ** BigInt(-c), p ** BigInt(-c)]);
const bgBase = (o) => [BigInt(o.base ? o.base[0] : o.beta[0]), BigInt(o.base ? o.base[1] : o.beta[1])];

// ----------------------------------------------------------------------------- the axis (olc_ui/shared/game_bars.py)

const BARS_STEPS = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000];
const BARS_MAX_TICKS = 8;
const BARS_SUP = { "-": "⁻", 0: "⁰", 1: "¹", 2: "²", 3: "³", 4: "⁴", 5: "⁵", 6: "⁶", 7: "⁷", 8: "⁸", 9: "⁹" };

export function barsPowerText(baseText, c) {
  if (c === 0) return "1";
  if (c === 1) return baseText;
  return baseText + [...String(c)].map((ch) => BARS_SUP[ch]).join("");
}

export function barsBottom(lo, floor, pad) { return (lo < floor ? lo : floor) - pad; }

const pyFloorDiv = (a, s) => Math.floor(a / s);    // Python's // on ints

export function barsTicks(lo, hi, lb, baseText) {
  const a = lo / lb, b = hi / lb;
  const c0 = Math.ceil(Math.min(a, b)), c1 = Math.floor(Math.max(a, b));
  let step = BARS_STEPS[BARS_STEPS.length - 1];
  for (const s of BARS_STEPS) {
    if (pyFloorDiv(c1, s) - (-pyFloorDiv(-c0, s)) + 1 <= BARS_MAX_TICKS) { step = s; break; }
  }
  let cs = [];
  for (let c = -pyFloorDiv(-c0, step) * step; c <= c1; c += step) cs.push(c);
  if (lb < 0) cs = cs.reverse();
  return [cs.map((c) => c * lb + 0), cs.map((c) => barsPowerText(baseText, c))];
}

// The main figure's y axis after a move that may have lowered the lowest bar (null: unchanged)
function barsAxis(main, o, lo) {
  const ya = main.figure.layout.yaxis;
  if (o.kind === "halving") return null;
  const y0 = barsBottom(lo, o.floor, o.pad);
  if (y0 === ya.range[0]) return null;
  const [tv, tt] = barsTicks(y0, o.ticks_to, o.lb, o.base_text);
  Object.assign(ya, { range: [y0, o.top], tickvals: tv, ticktext: tt });
  return { "yaxis.range": [y0, o.top], "yaxis.tickvals": tv, "yaxis.ticktext": tt };
}

// ----------------------------------------------------------------------------- the rules

// Whether the move is admissible (olc_core/games: Winnow's label is the target's; the experts' move leaves some
// expert within the budget). The words of a refusal are the server's.
export function barsAdmissible(o, st, x, label) {
  if (o.plus) return o.plus[x][o.target] === (label > 0 ? "1" : "0");
  if (o.kind === "winnow") return label === (o.relevant.some((i) => x[i]) ? 1 : 0);
  return st.m.some((mi, i) => mi + (x[i] !== label ? 1 : 0) <= o.budget);
}

function pushCaption(V, vals) {
  for (const [k, v] of Object.entries(vals)) if (V[k]) V[k].data.push(v);
}

// ----------------------------------------------------------------------------- Winnow, on the spec

// Append the example x (N bits) with its label (0/1) to the board, in place, as board_spec draws the run on the
// moves; st = {E, lo, M}: the exponents before it, the lowest bar so far, the mistakes. Returns the new state and
// the axis update (or null).
export function applyWinnowMove(spec, o, st, x, label) {
  const A = spec.arrays, t = spec.T, N = o.n, [P, Q] = bgBase(o);
  let score = [0n, 1n];
  x.forEach((b, i) => { if (b) score = bgAdd(score, bgPow(P, Q, st.E[i])); });
  const pred = bgCmp(score, [BigInt(N), 1n]) > 0 ? 1 : 0;
  const mistake = pred !== label;
  x.forEach((b, i) => { if (b) { A.g_er.push(t); A.g_ex.push(i + 1); A.g_ey.push(o.row); } });
  let E = st.E, lo = st.lo, M = st.M;
  if (mistake) {
    const s = label === 1 ? 1 : -1;
    E = E.map((e, i) => e + s * x[i]);
    const on = [];
    x.forEach((b, i) => { if (b) on.push(i); });
    A.g_bx.push(E.map((_, i) => i + 1));
    A.g_by.push(E.map((e) => e * o.lb));
    A.g_mx.push(on.map((i) => i + 1));
    A.g_mp.push(on.map((i) => (E[i] - s) * o.lb));
    A.g_my.push(on.map((i) => (E[i] + 0.6 * s) * o.lb));
    A.g_mt.push(on.map(() => (s > 0 ? "×" : "÷") + o.base_text));
    lo = Math.min(lo, Math.min(...E) * o.lb);
    spec.breaks.push(t + 1);
    spec.mistake_rounds.push(t);
    M += 1;
  }
  const on = [];
  x.forEach((b, i) => { if (b) on.push(o.var[i]); });
  pushCaption(spec.caption.values, {
    gx: on.length ? on.join(", ") + " on" : o.on_none, gy: label,
    gsc: pgPair(score, [BigInt(N), 1n], pred ? ">" : "<=", 6)[0], gcmp: pred ? ">" : "≤", gyhat: pred,
    gwhat: o.what[!mistake ? 0 : label === 1 ? 1 : 2], gM: M,
  });
  spec.T = t + 1;
  const main = spec.figures.find((f) => f.id === "main");
  return { st: { E, lo, M }, axis: barsAxis(main, o, lo), mistake, pred };
}

// ----------------------------------------------------------------------------- the experts, on the spec

function expertsHeight(o, c) { return o.kind === "halving" ? (c === 0 ? 1 : 0) : c * o.lb; }

// Append the round (advice: N of ±1, outcome ±1) to the board, in place; st = {C, m, lo, M}: each expert's
// penalties and mistakes before it, the lowest bar, the learner's mistakes (WM, Halving).
export function applyExpertsMove(spec, o, st, advice, outcome) {
  const A = spec.arrays, t = spec.T, N = o.n, kind = o.kind, [P, Q] = bgBase(o);
  const wrong = advice.map((a) => (a !== outcome ? 1 : 0));
  let wp, wm, F = null, alive = 0;
  if (kind === "halving") {
    let plus = 0;
    st.C.forEach((c, i) => { if (c === 0) { alive++; if (advice[i] > 0) plus++; } });
    wp = [BigInt(plus), 1n]; wm = [BigInt(alive - plus), 1n];
  } else {
    wp = [0n, 1n]; wm = [0n, 1n];
    let bad = [0n, 1n];
    st.C.forEach((c, i) => {
      const w = bgPow(P, Q, c);
      if (advice[i] > 0) wp = bgAdd(wp, w); else wm = bgAdd(wm, w);
      if (wrong[i]) bad = bgAdd(bad, w);
    });
    const tot = bgAdd(wp, wm);
    F = bgNorm([bad[0] * tot[1], bad[1] * tot[0]]);
  }
  const pred = bgCmp(wp, wm) >= 0 ? 1 : -1;
  const mistake = pred !== outcome;
  const update = kind === "rwm" ? wrong.some((w) => w) : mistake;
  const m = st.m.map((mi, i) => mi + wrong[i]);
  for (let i = 0; i < N; i++) {
    const side = wrong[i] ? "g_w" : "g_r";
    A[side + "r"].push(t); A[side + "x"].push(i + 1); A[side + "y"].push(o.row);
    A[side + "t"].push(advice[i] > 0 ? "+1" : "−1");
    A.g_mr.push(t); A.g_mx.push(i + 1); A.g_my.push(o.row2); A.g_mt.push(String(m[i]));
  }
  let C = st.C, lo = st.lo, M = st.M;
  if (update || o.every_round) {    // (every round: a round without an update keeps the weights)
    const before = C;
    if (update) C = C.map((c, i) => c + wrong[i]);
    const heights = C.map((c) => expertsHeight(o, c));
    A.g_bx.push(C.map((_, i) => i + 1));
    A.g_by.push(heights);
    const moved = [];
    C.forEach((c, i) => { if (expertsHeight(o, c) !== expertsHeight(o, before[i])) moved.push(i); });
    A.g_px.push(moved.map((i) => i + 1));
    A.g_py.push(moved.map((i) => expertsHeight(o, before[i])));
    lo = Math.min(lo, ...heights);
    spec.breaks.push(t + 1);
  }
  if (kind !== "rwm" && mistake) { spec.mistake_rounds.push(t); M += 1; }
  const [sp, sm] = pgPair(wp, wm, pred > 0 ? ">=" : "<", 4);
  pushCaption(spec.caption.values, {
    gnp: kind === "halving" ? Number(wp[0]) : advice.filter((a) => a > 0).length,
    gnm: kind === "halving" ? Number(wm[0]) : 0, ghs: kind === "halving" ? alive : 0,
    gy: outcome > 0 ? "+1" : "−1", gwp: sp, gwm: sm, gcmp: pred > 0 ? "≥" : "<", gyhat: pred > 0 ? "+1" : "−1",
    gwhat: o.what[mistake ? 1 : 0], gM: M, gbest: `m = ${Math.min(...m)}`,
    gF: kind === "rwm" ? pgDecimal(F[0], F[1], 3) : "",
  });
  spec.T = t + 1;
  const main = spec.figures.find((f) => f.id === "main");
  return { st: { C, m, lo, M }, axis: barsAxis(main, o, lo), mistake, pred };
}

// ----------------------------------------------------------------------------- Halving on a class, on the spec

// Each hypothesis's label (±1) of instance j.
export function halvingAdvice(o, j) { return [...o.plus[j]].map((b) => (b === "1" ? 1 : -1)); }

// Append instance j with its label (±1) to the board, in place: the experts' round with the hypotheses' labels as
// their advice, and the instance in the caption.
export function applyHalvingMove(spec, o, st, j, label) {
  const move = applyExpertsMove(spec, o, st, halvingAdvice(o, j), label);
  spec.caption.values.gx.data.push(o.texts[j]);
  return move;
}

// ----------------------------------------------------------------------------- the mode

class BarsGame {
  constructor(view, options) {
    this.view = view;
    this.o = options;
    this.st = options.kind === "winnow"
      ? { E: options.E.slice(), lo: options.lo, M: options.M }
      : { C: options.C.slice(), m: options.m.slice(), lo: options.lo, M: options.M };
    this.pending = null;     // the round drawn here that the server has not answered yet
    this.onClick = (ev) => this.click(ev);
    document.addEventListener("click", this.onClick, true);  // capture: before Streamlit's own handler
  }

  onBuild() {  // a run from the server: the board is the run's again
    this.view.root.classList.add("olc-game");
    this.settle();
    // in a class session: the class as the adversary (viewer_game_class.js)
    if (!this.cls && classLink()) this.cls = new GameClass(this.view, this.classHooks());
    if (this.cls) this.cls.mount(this.view.captionEl);
  }

  onReady() { if (this.cls) this.cls.redraw(); }

  // A move in its short form (the class's proposals): Winnow "bits:label" (label 0/1), the experts
  // "advice bits:outcome" (1 = +1, 0 = −1), and back.
  moveId(x, label) {
    if (this.o.plus) return `${x}:${label > 0 ? 1 : 0}`;
    if (this.o.kind === "winnow") return `${x.join("")}:${label}`;
    return `${x.map((a) => (a > 0 ? 1 : 0)).join("")}:${label > 0 ? 1 : 0}`;
  }

  parseId(id) {
    const [bits, lab] = String(id).split(":");
    if (this.o.plus) {     // the Halving page's game: "instance:label"
      if (!/^\d+$/.test(bits || "") || Number(bits) >= this.o.plus.length || (lab !== "0" && lab !== "1")) return null;
      return { x: Number(bits), label: lab === "1" ? 1 : -1 };
    }
    if (!bits || bits.length !== this.o.n || /[^01]/.test(bits) || (lab !== "0" && lab !== "1")) return null;
    const b = [...bits].map(Number);
    return this.o.kind === "winnow" ? { x: b, label: Number(lab) }
      : { x: b.map((v) => (v ? 1 : -1)), label: lab === "1" ? 1 : -1 };
  }

  classHooks() {
    const o = this.o, winnow = o.kind === "winnow", onClass = !!o.plus;
    const sign = (v) => (v > 0 ? "+1" : "−1");
    return {
      describe: (id) => {
        const m = this.parseId(id);
        if (!m) return String(id);
        if (onClass) return `${o.texts[m.x]}, label ${sign(m.label)}`;
        if (!winnow) return `advice ${m.x.map(sign).join(" ")}, outcome ${sign(m.label)}`;
        const on = m.x.map((b, i) => (b ? o.var[i] : null)).filter(Boolean);
        return `${on.length ? on.join(", ") + " on" : o.on_none}, label ${m.label}`;
      },
      refusal: (id) => {
        const m = this.parseId(id);
        if (!m) return "not a move of this game";
        if (this.view.spec && this.view.spec.T >= o.max) return `a game keeps at most ${o.max} moves`;
        if (barsAdmissible(o, this.st, m.x, m.label)) return null;
        if (onClass) return "the target labels this instance the other way";
        return winnow ? "the target labels this example the other way"
          : `no expert would stay within the budget m* = ${o.budget}`;
      },
      play: (id) => { const m = this.parseId(id); if (m) this.move(m.x, m.label, true); },
      draw: (counts) => this.drawProposals(counts),
      clear: () => this.drawProposals([]),
      summary: (counts) => {
        const by = new Map();
        for (const [id, n] of counts) { const m = this.parseId(id); if (m) by.set(m.label, (by.get(m.label) || 0) + n); }
        const parts = [...by.entries()].sort((a, b) => b[1] - a[1])
          .map(([l, n]) => `${winnow ? l : sign(l)} by ${n}`);
        return parts.length ? `${winnow || onClass ? "Labels" : "Outcomes"} proposed: ${parts.join(", ")}.` : "";
      },
    };
  }

  // The class's proposals on the board: over each variable (expert; hypothesis) how many proposals turn it on (say
  // +1; label their instance +1), a row of numbers added over the run's traces (gone with the next run).
  drawProposals(counts) {
    const P = this.view.Plotly, main = this.view.figs && this.view.figs.find((f) => f.spec.id === "main");
    const gd = main && main.gd;
    if (!P || !gd || !gd.data) return;
    const at = gd.data.findIndex((t) => t.meta === "class-proposals");
    if (at >= 0) P.deleteTraces(gd, at);
    if (!counts.length) return;
    const on = new Array(this.o.n).fill(0);
    for (const [id, n] of counts) {
      const m = this.parseId(id);
      if (m) (this.o.plus ? halvingAdvice(this.o, m.x) : m.x).forEach((v, i) => { if (v > 0) on[i] += n; });
    }
    const name = this.o.kind === "winnow" ? "the class's proposals: how many turn xᵢ on"
      : this.o.plus ? "the class's proposals: how many are instances hypothesis i labels +1"
        : "the class's proposals: how many say +1";
    P.addTraces(gd, {
      type: "scatter", mode: "text", meta: "class-proposals", yaxis: "y2", hoverinfo: "skip",
      name,
      x: on.map((_, i) => i + 1), y: on.map(() => (this.o.kind === "winnow" ? 0.12 : 0.06)), text: on.map(String),
      textfont: { size: 13, color: "#6a3d9a" },
    }).catch(() => {});
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
    for (const [label, sel] of Object.entries(this.o.buttons)) {
      const b = target.closest(sel);
      if (b) return b.disabled || b.getAttribute("aria-disabled") === "true" ? null : Number(label);
    }
    return null;
  }

  // The page's checkboxes: Winnow's bits (1 on), the experts' advice (on: +1, off: −1); on the Halving page, the
  // instance chosen in the move panel's list (its text before ": "; null if none is).
  boxes() {
    if (this.o.plus) {
      const box = document.querySelector(`${this.o.select} input[role=combobox]`);
      const j = box ? this.o.texts.indexOf(box.value.split(": ")[0]) : -1;
      return j >= 0 ? j : null;
    }
    const x = [];
    for (let i = 0; i < this.o.n; i++) {
      const box = document.querySelector(this.o.bit.replace("{i}", String(i)));
      if (!box) return null;
      x.push(this.o.kind === "winnow" ? (box.checked ? 1 : 0) : (box.checked ? 1 : -1));
    }
    return x;
  }

  click(ev) {
    const v = this.view;
    const label = this.labelOf(ev.target);
    if (label === null) return;
    if (this.cls && this.cls.proposing()) {     // the class's move: a proposal, not played (Streamlit never hears it)
      ev.preventDefault();
      ev.stopPropagation();
      const x = this.boxes();
      if (x !== null) this.cls.propose(this.moveId(x, label));
      return;
    }
    if (this.pending !== null || !v.ready || !v.spec || v.spec.T >= this.o.max) return;
    const x = this.boxes();
    if (x !== null && barsAdmissible(this.o, this.st, x, label)) this.move(x, label, false);
  }

  // An admissible move drawn on the board as the run will draw it; ``send``: Python hears of it from here (a move
  // the class proposed), else from the page's own button, whose click goes on to Streamlit.
  move(x, label, send) {
    const v = this.view;
    const main = v.figs.find((f) => f.spec.id === "main");
    if (this.pending !== null || !v.ready || !v.spec || v.spec.T >= this.o.max) return;
    if (!main || !main.gd._fullLayout) return;
    const before = v.spec.T;
    v.spec = structuredClone(v.spec);   // the data Streamlit sent stay as sent
    const spec = v.spec;
    const move = this.o.kind === "winnow" ? applyWinnowMove(spec, this.o, this.st, x, label)
      : this.o.plus ? applyHalvingMove(spec, this.o, this.st, x, label)
        : applyExpertsMove(spec, this.o, this.st, x, label);
    this.st = move.st;
    main.spec = spec.figures.find((f) => f.id === "main");
    v.prepare(spec);
    v.T = spec.T;
    this.pending = spec.T;
    this.timer = setTimeout(() => this.settle(), 10000);   // the server never answered: stop waiting
    this.hideRunParts(spec.T);
    v.holdDescriptions(`move ${spec.T} is on the board (the caption says it); this description follows from the run.`);
    v.pause(false);
    v.lastReported = spec.T;   // the server hears of the move from the click itself, not from a position report
    v.serverP = spec.T;
    const relaid = move.axis && v.Plotly ? v.Plotly.relayout(main.gd, move.axis).catch(() => {}) : Promise.resolve();
    relaid.then(() => v.setPosition(spec.T, { immediate: true }));
    if (send && typeof v.setStateValue === "function")
      v.setStateValue("game_move", { move: this.moveId(x, label), T: before, id: `${Date.now()}-${Math.random()}` });
  }

  // The run's charts and the ledger hold numbers of the whole run: hidden until it comes.
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
    this.note.textContent = `Move ${t} is on the board; the proof ledger and the charts of the run follow from it.`;
  }

  destroy() {
    document.removeEventListener("click", this.onClick, true);
    if (this.cls) { this.cls.destroy(); this.cls = null; }
    this.settle();
    this.view.root.classList.remove("olc-game");
  }
}

registerMode("game_bars", (view, options) => new BarsGame(view, options));
