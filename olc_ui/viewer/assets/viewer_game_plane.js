// olc step viewer: "Beat the bound" on the Perceptron — a point clicked (or tapped) on the board is judged and
// drawn in the browser (a mode module: viewer_modes.js).
//
// Python turns it on with modes = {"game_plane": options} (olc_ui/lessons/perceptron/adversary.py, game_options)
// on the game's board (adversary_view.py, board_spec). A click on the plane becomes the grid point (i/64, j/64)
// nearest to it, with the label of the page's label switch. The rules are those of olc_core/games/perceptron.py,
// decided in exact integer arithmetic: a point outside the disc ‖x‖ ≤ R, inside the band |⟨w*, x⟩| < γ or on the
// wrong side for its label is refused at once, with the same words and numbers as the core's refusal (the
// decimals printed with as many digits as the printed comparison needs), and nothing is sent. An admissible
// point is appended to the board as the run will draw it — the point, the learner's answer sign⟨w, x⟩ (exact:
// integers on the grid), its line and direction after the update, the caption — and sent to Python
// (setStateValue("game_move", …)), whose rerun records the move in the URL and sends the run's spec; the sandwich
// and the ledger (the run's numbers) wait behind a note until it comes. tests/ui/test_game_plane_js.py checks
// under node that the board drawn here is the run's, array for array, and that the refusals are the core's.

import { classLink } from "./viewer_class.js";
import { GameClass } from "./viewer_game_class.js";
import { registerMode } from "./viewer_modes.js";
import { el } from "./viewer_util.js";

// ----------------------------------------------------------------------------- exact numbers (BigInt fractions)

const pgB = (v) => BigInt(v);
const pgAbs = (v) => (v < 0n ? -v : v);

// e with 10^e ≤ |n/d| < 10^(e+1) (n ≠ 0, d > 0): olc_core/games/_numbers.py pgExponent
function pgExponent(n, d) {
  n = pgAbs(n);
  if (n >= d) return String(n / d).length - 1;
  let k = 1;
  while (n * 10n ** pgB(k) < d) k++;
  return -k;
}

// round(n/d) with ties to even (Python's round of a Fraction)
function pgRoundEven(n, d) {
  const neg = n < 0n;
  const a = pgAbs(n);
  let q = a / d;
  const r2 = 2n * (a - q * d);
  if (r2 > d || (r2 === d && q % 2n === 1n)) q += 1n;
  return neg ? -q : q;
}

// n/d rounded to `digits` significant digits, no trailing zeros, "−" for minus (decimal_text)
export function pgDecimal(n, d, digits) {
  if (n === 0n) return "0";
  const e = pgExponent(n, d);
  const places = Math.max(0, digits - 1 - e);
  const q = pgRoundEven(n * 10n ** pgB(places), d);
  let s = String(pgAbs(q));
  if (places > 0) {
    s = s.padStart(places + 1, "0");
    const head = s.slice(0, s.length - places), tail = s.slice(s.length - places).replace(/0+$/, "");
    s = head + (tail ? "." + tail : "");
  }
  return (q < 0n ? "−" : "") + s;
}

function pgParseDec(s) {
  const t = s.replace("−", "-");
  const neg = t.startsWith("-");
  const [a, b = ""] = (neg ? t.slice(1) : t).split(".");
  const n = pgB(a + b) * (neg ? -1n : 1n);
  return [n, 10n ** pgB(b.length)];
}

const PG_REL = {
  "<": (c) => c < 0, "<=": (c) => c <= 0, ">": (c) => c > 0, ">=": (c) => c >= 0,
};
const pgCmp = ([a, b], [c, d]) => { const x = a * d - c * b; return x < 0n ? -1 : x > 0n ? 1 : 0; };

// a and b ([n, d]) printed with the fewest digits from 4 whose printed decimals satisfy rel (pgPair)
export function pgPair(a, b, rel, digits = 4) {
  for (let k = digits; k < 40; k++) {
    const sa = pgDecimal(a[0], a[1], k), sb = pgDecimal(b[0], b[1], k);
    if (PG_REL[rel](pgCmp(pgParseDec(sa), pgParseDec(sb)))) return [sa, sb];
  }
  return [`${a[0]}/${a[1]}`, `${b[0]}/${b[1]}`];
}

function pgIsqrt(n) {
  if (n < 2n) return n;
  let x = pgB(Math.floor(Math.sqrt(Number(n)))) + 1n;
  for (;;) { const y = (x + n / x) / 2n; if (y >= x) break; x = y; }
  while (x * x > n) x -= 1n;
  while ((x + 1n) * (x + 1n) <= n) x += 1n;
  return x;
}

const pgGcd = (a, b) => { a = pgAbs(a); b = pgAbs(b); while (b) [a, b] = [b, a % b]; return a; };
const pgFrac = (n, d) => { const g = pgGcd(n, d) || 1n; const s = d < 0n ? -1n : 1n; return [s * n / g, s * d / g]; };

// ----------------------------------------------------------------------------- the rules (exact)

// Why the game refuses the point (i/grid, j/grid) with this label, or null: olc_core/games/perceptron.py refusal
export function planeRefusal(o, i, j, label) {
  const G = pgB(o.grid), I = pgB(i), J = pgB(j), y = pgB(label);
  const [gn, gd] = o.gamma.map(pgB), [Rn, Rd] = o.radius.map(pgB);
  const n2 = pgFrac(I * I + J * J, G * G);
  if (n2[0] * Rd * Rd > Rn * Rn * n2[1]) {
    const low = [pgIsqrt(n2[0] * 10n ** 24n / n2[1]), 10n ** 12n];
    const [a, b] = pgPair(pgFrac(low[0], low[1]), pgFrac(Rn, Rd), ">");
    return { kind: "outside", text: `outside the disc: ‖x‖ = ${a} > R = ${b}` };
  }
  const s = pgFrac(y * (pgB(o.p) * I + pgB(o.q) * J), pgB(o.r) * G);   // y⟨w*, x⟩
  const inner = [s[0] * y, s[1]];
  const absInner = [pgAbs(inner[0]), inner[1]];
  if (pgCmp(absInner, [gn, gd]) < 0) {
    const [a, b] = pgPair(pgFrac(absInner[0], absInner[1]), pgFrac(gn, gd), "<");
    return { kind: "band", text: `inside the band: |⟨w*, x⟩| = ${a} < γ = ${b}, so neither label has margin γ` };
  }
  if (s[0] < 0n) {
    const [a, b] = pgPair(s, pgFrac(-gn, gd), "<=");
    const other = label > 0 ? "−1" : "+1";
    return { kind: "side", text: `the wrong side: y⟨w*, x⟩ = ${a} ≤ −γ = ${b}; on this side of w*'s line a point's ` +
      `label is ${other}` };
  }
  return null;
}

// i/grid exactly, as adversary_view.py coord_text prints it
export function pgCoord(i, grid) {
  let s = (i / grid).toFixed(6).replace(/0+$/, "").replace(/\.$/, "");
  if (s === "-0" || s === "") s = "0";
  return s.replace("-", "−");
}

// ----------------------------------------------------------------------------- the board, as the run draws it

function pgLine(W, o) {
  const w0 = W[0] / o.grid, w1 = W[1] / o.grid;
  const m = Math.max(Math.abs(w0), Math.abs(w1));
  if (m === 0) return [[null], [null]];
  const s = o.L / m;
  return [[s * w1, -(s * w1)], [-(s * w0), s * w0]];
}

function pgArrow(W, o) {
  const w0 = W[0] / o.grid, w1 = W[1] / o.grid;
  const n = Math.sqrt(w0 * w0 + w1 * w1);
  if (n === 0) return [[null], [null]];
  const s = 0.5 * o.R / n;
  return [[0, s * w0], [0, s * w1]];
}

// Append the move (i, j, label) to the board spec, in place, as board_spec draws the run on the moves; W: the
// learner's weights in grid units before it. Returns the round: {W, mistake, score}.
export function applyPlaneMove(spec, o, W, i, j, label) {
  const A = spec.arrays, t = spec.T, G = o.grid;
  const x = i / G, y = j / G;
  const side = label > 0 ? "p" : "n";
  A["r" + side].push(t); A["x" + side].push(x); A["y" + side].push(y);
  A.ra.push(t); A.xa.push(x); A.ya.push(y); A.ca.push(label > 0 ? o.colors.pos : o.colors.neg);
  const s = W[0] * i + W[1] * j + 0;
  const mistake = label * s <= 0;
  let next = W;
  if (mistake) {
    next = [W[0] + label * i, W[1] + label * j];
    A.rm.push(t); A.xm.push(x); A.ym.push(y);
    const [hx, hy] = pgLine(next, o), [wx, wy] = pgArrow(next, o);
    A.hx.push(hx); A.hy.push(hy); A.wx.push(wx); A.wy.push(wy);
    spec.breaks.push(t + 1);
    spec.mistake_rounds.push(t);
  }
  const V = spec.caption.values;
  V.x.data.push(`(${pgCoord(i, G)}, ${pgCoord(j, G)})`);
  V.y.data.push(o.ytext[String(label)]);
  V.score.data.push(s / (G * G) + 0);
  V.yhat.data.push(o.yhat[String(Math.sign(s) + 0)]);
  V.what.data.push(o.what[mistake ? 1 : 0]);
  const main = spec.figures.find((f) => f.id === "main");
  const D = main.describe && main.describe.values;
  if (D) {
    for (const k of ["x", "y", "yhat"]) if (D[k] !== V[k]) D[k].data.push(V[k].data[V[k].data.length - 1]);
    if (mistake) D.w.data.push(`w = (${pgCoord(next[0], G)}, ${pgCoord(next[1], G)})`);
  }
  spec.T = t + 1;
  return { W: next, mistake, score: s };
}

// ----------------------------------------------------------------------------- the mode

class PlaneGame {
  constructor(view, options) {
    this.view = view;
    this.o = options;
    this.W = (options.W || [0, 0]).slice();
    this.pending = null;
    this.onClick = (ev) => this.click(ev);
  }

  onBuild() {   // a run from the server: the board is the run's again
    const v = this.view;
    v.root.classList.add("olc-game", "olc-game-plane");
    this.settle();
    const main = v.figs.find((f) => f.spec.id === "main");
    if (main) {
      this.gd = main.gd;
      this.gd.addEventListener("click", this.onClick, true);
      this.gd.style.cursor = "crosshair";
    }
    // over the top of the board (absolutely placed: a message must not move the board under the next tap)
    this.status = el("div", "olc-game-refused");
    this.status.setAttribute("role", "status");
    if (main) main.box.appendChild(this.status);
    else v.captionEl.after(this.status);
    // in a class session: the class as the adversary (viewer_game_class.js)
    if (!this.cls && classLink()) this.cls = new GameClass(v, this.classHooks());
    if (this.cls) this.cls.mount(v.captionEl);
  }

  onReady() { if (this.cls) this.cls.redraw(); }

  // What the class's proposals need of this game: a move's words, the rules, playing it, drawing the proposals.
  classHooks() {
    const o = this.o;
    const parse = (id) => { const [i, j, l] = String(id).split(":").map(Number); return [i, j, l > 0 ? 1 : -1]; };
    return {
      describe: (id) => { const [i, j, l] = parse(id); return `(${pgCoord(i, o.grid)}, ${pgCoord(j, o.grid)}) with label ${o.ytext[String(l)]}`; },
      refusal: (id) => {
        const [i, j, l] = parse(id);
        if (!Number.isInteger(i) || !Number.isInteger(j)) return "not a point of the grid";
        if (this.view.spec && this.view.spec.T >= o.max) return `a game keeps at most ${o.max} moves`;
        const why = planeRefusal(o, i, j, l);
        return why ? why.text : null;
      },
      play: (id) => { const [i, j, l] = parse(id); this.move(i, j, l); },
      draw: (counts) => this.drawProposals(counts.map(([id, n]) => [...parse(id), n])),
      clear: () => this.drawProposals([]),
    };
  }

  // The class's proposals on the board: a disc at each point proposed, its size and number the count, in the
  // label's colour and marker (a trace added over the run's, gone with the next run).
  drawProposals(points) {
    const P = this.view.Plotly, gd = this.gd;
    if (!P || !gd || !gd.data) return;
    const at = gd.data.findIndex((t) => t.meta === "class-proposals");
    if (at >= 0) P.deleteTraces(gd, at);
    if (!points.length) return;
    const G = this.o.grid;
    P.addTraces(gd, {
      type: "scatter", mode: "markers+text", meta: "class-proposals", name: "the class's proposals (count)",
      x: points.map((p) => p[0] / G), y: points.map((p) => p[1] / G), text: points.map((p) => String(p[3])),
      textposition: "middle center", textfont: { color: "#ffffff", size: 12 }, hoverinfo: "skip",
      marker: { size: points.map((p) => 14 + 6 * Math.sqrt(p[3])), opacity: 0.75,
        color: points.map((p) => (p[2] > 0 ? this.o.colors.pos : this.o.colors.neg)),
        symbol: points.map((p) => (p[2] > 0 ? "circle" : "square")), line: { color: "#000000", width: 1 } },
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

  label() {
    const box = document.querySelector(this.o.label);
    const radios = box ? [...box.querySelectorAll("input[type=radio]")] : [];
    const k = radios.findIndex((r) => r.checked);
    return k < 0 ? null : this.o.labels[k];
  }

  // The grid point under the click, or null outside the plot area.
  point(ev) {
    const gd = this.gd, fl = gd && gd._fullLayout;
    if (!fl || !fl.xaxis || !fl.yaxis) return null;
    const box = gd.getBoundingClientRect(), xa = fl.xaxis, ya = fl.yaxis;
    const px = ev.clientX - box.left - xa._offset, py = ev.clientY - box.top - ya._offset;
    if (px < 0 || py < 0 || px > xa._length || py > ya._length) return null;
    return [Math.round(xa.p2l(px) * this.o.grid), Math.round(ya.p2l(py) * this.o.grid)];
  }

  say(text) {
    if (!this.status) return;
    this.status.textContent = text;
    this.status.classList.toggle("olc-shown", Boolean(text));
  }

  // A tap on a touch screen reaches the board as several clicks (plotly adds its own): one move per gesture.
  repeated(ev) {
    const now = performance.now(), last = this.lastClick;
    this.lastClick = { at: now, x: ev.clientX, y: ev.clientY };
    return last && now - last.at < 600 && Math.abs(last.x - ev.clientX) < 12 && Math.abs(last.y - ev.clientY) < 12;
  }

  click(ev) {
    const v = this.view;
    if (!ev.clientX && !ev.clientY) return;       // plotly's synthetic click of a touch, with no position
    if (this.repeated(ev)) return;
    if (this.pending !== null || !v.ready || !v.spec || v.spec.T >= this.o.max) return;
    const at = this.point(ev);
    const label = this.label();
    if (!at || label === null) return;
    const [i, j] = at;
    if (this.cls && this.cls.proposing()) { this.cls.propose(`${i}:${j}:${label}`); return; }   // the class's move
    const where = `(${pgCoord(i, this.o.grid)}, ${pgCoord(j, this.o.grid)}) with label ${this.o.ytext[String(label)]}`;
    const why = planeRefusal(this.o, i, j, label);
    if (why) { this.say(`${where} is refused: ${why.text}.`); return; }
    this.say("");
    this.move(i, j, label);
  }

  // An admissible move: drawn on the board as the run will draw it, then sent to Python.
  move(i, j, label) {
    const v = this.view;
    if (this.pending !== null || !v.ready || !v.spec || v.spec.T >= this.o.max) return;
    const before = v.spec.T;
    v.spec = structuredClone(v.spec);   // the data Streamlit sent stay as sent
    const move = applyPlaneMove(v.spec, this.o, this.W, i, j, label);
    this.W = move.W;
    v.prepare(v.spec);
    v.T = v.spec.T;
    this.pending = v.spec.T;
    this.timer = setTimeout(() => this.settle(), 10000);   // the server never answered: stop waiting
    this.hideRunParts(v.spec.T);
    v.pause(false);
    v.lastReported = v.spec.T;
    v.serverP = v.spec.T;
    v.setPosition(v.spec.T, { immediate: true });
    if (typeof v.setStateValue === "function")
      v.setStateValue("game_move", { i, j, label, T: before, id: `${Date.now()}-${Math.random()}` });
  }

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
    if (this.gd) this.gd.removeEventListener("click", this.onClick, true);
    if (this.cls) { this.cls.destroy(); this.cls = null; }
    this.settle();
    if (this.status) this.status.remove();
    this.view.root.classList.remove("olc-game", "olc-game-plane");
  }
}

registerMode("game_plane", (view, options) => new PlaneGame(view, options));
