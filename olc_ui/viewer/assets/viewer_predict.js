// olc step viewer: predict, then reveal (a mode module: viewer_modes.js).
//
// Python turns it on with modes = {"predict": options} (olc_ui/viewer/predict.py builds the options from
// the run: per round the example, its label, whether it was a mistake, and the numbers that say why).
// Stepping forward to round r first *asks*: the viewer stays at r − 1 (the learner as it stands
// before the round), the round's example is marked on the chart, and a panel asks "mistake or
// not?" — on the Perceptron also "how will w move?". Only the answer draws the update
// (the viewer steps to r), says what happened with the run's numbers, and counts right answers.
// Shift+→ (next mistake) stops just before the mistake and asks. Stepping back, Home/End and the
// slider never ask. Keys: each kind's, on its buttons (the Perceptron: N no mistake, A / C a mistake turning w
// anticlockwise / clockwise, L one keeping w on its line through 0, M a mistake while w = 0). Everything happens
// in the browser.
//
// In a class session (viewer_class.js's classLink()), viewer_class_answers.js adds the class's side: the
// lecturer opens the question to the class (O) and reveals it (R) instead of answering; a student answers
// the lecturer's open question on their own device. Without a class session nothing changes.

import { registerMode } from "./viewer_modes.js";
import { choices, questionText, revealText, rightAnswer } from "./viewer_questions.js";
import { el } from "./viewer_util.js";
import { ClassAnswers } from "./viewer_class_answers.js";
import { classLink } from "./viewer_class.js";
import { touchScreen } from "./viewer_phone.js";

const MARK_NAME = "the round to predict";

function typing(target) {
  if (!target || !target.tagName) return false;
  const tag = target.tagName;
  return target.isContentEditable || tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT";
}

class Predict {
  constructor(view, options) {
    this.view = view;
    this.o = options;
    this.asking = null;     // the round asked about (1-based), or null
    this.passing = false;   // our own reveal step goes through beforeStep
    this.right = 0;
    this.asked = 0;
    this.markIndex = null;
    this.onDocKey = (ev) => {
      if ((this.asking === null && !(this.cls && this.cls.wantsKeys())) || ev.defaultPrevented || ev.altKey || ev.ctrlKey || ev.metaKey) return;
      if (typing(ev.target)) return;
      if (this.onKey(ev) === true) { ev.preventDefault(); ev.stopPropagation(); }
    };
    document.addEventListener("keydown", this.onDocKey);
  }

  onBuild() {
    const v = this.view;
    v.root.dataset.predict = "true";
    this.covers = [];
    this.panel = el("div", "olc-predict");
    this.panel.setAttribute("aria-live", "polite");
    this.title = el("span", "olc-predict-title", "Predict, then reveal:");
    this.text = el("div", "olc-predict-text");
    this.say = el("span", "olc-predict-say");
    this.text.append(this.title, this.say);
    this.answers = el("div", "olc-predict-answers");
    this.result = el("div", "olc-predict-result");
    this.tally = el("div", "olc-predict-tally");
    this.panel.append(this.text, this.answers, this.result, this.tally);
    const bar = v.root.querySelector(".olc-keys") || v.root.querySelector(".olc-controls");
    if (bar) bar.after(this.panel); else v.root.prepend(this.panel);
    this.asking = null;
    this.markIndex = null;
    delete v.root.dataset.asking;
    this.idle();
    if (this.cls) this.cls.build(); else if (this.record) this.record.build(); else this.ensureClass();
    this.renderTally();
  }

  // The class session's side (viewer_class_answers.js), once the document has a class link. A session that ended
  // (or that this page left) leaves predict on its own; the lecturer keeps the tally (the session's record).
  ensureClass() {
    if (this.cls || this.record || !this.panel) return;
    const link = classLink();
    if (!link) return;
    if (link.ended || link.left) {
      const tally = link.last("tally");
      if (link.role !== "lecturer" || !tally || !Array.isArray(tally.rows) || !tally.rows.length) return;
      this.record = new ClassAnswers(this, link);
      this.record.build();
      return;
    }
    this.cls = new ClassAnswers(this, link);
    if (this.panel.dataset.state === "idle") this.idle();
    this.cls.build();
    this.renderTally();
  }

  // The session is over (viewer_class_answers.js's end()): no class question any more; `keep`: its tally stays.
  classOver(cls, keep) {
    if (this.cls !== cls) return;
    this.cls = null;
    if (keep) { this.record = cls; cls.render(); } else cls.destroy();
    this.asking = null;
    delete this.view.root.dataset.asking;
    this.mark(null);
    this.idle();
    this.renderTally();
  }

  // A move to another stop of a tour (viewer_tour.js): held while the lecturer's question is open to the class.
  beforeTour() { return this.cls && this.cls.holdMove() ? false : undefined; }

  // A tour's stop asks about its round r (viewer_tour.js), the viewer at r − 1: ask it, and in a class session the
  // lecturer's opens for the class at once (`open`). False when it cannot be asked now.
  askAt(r, open) {
    if (this.asking !== null || this.view.p !== r - 1 || !(r >= 1 && r <= this.o.rounds)) return false;
    if (this.cls && this.cls.holds()) return false;
    this.ask(r);
    if (open && this.cls && this.cls.lecturer && typeof this.cls.open === "function") this.cls.open();
    return true;
  }

  // Class session, a reloaded lecturer's open question about round r: the viewer back at its asking state.
  resumeAsking(r) {
    if (this.view.p !== r - 1) this.step(r - 1);
    this.asking = r;
    this.panel.dataset.round = String(r);
    this.view.root.dataset.asking = String(r);
    this.mark(r);
  }

  onReady() { this.ensureClass(); if (this.cls) this.cls.resume(); }

  // The keys this mode answers, for presentation mode's list of keys ([keys, what]): the kind's answers
  // (those of the first rounds: some kinds offer another answer on the first round), and the class's O / R.
  helpKeys() {
    const seen = new Map();
    for (let r = 1; r <= Math.min(this.o.rounds || 0, 50); r++)
      for (const [k, , label] of choices(this.o, r)) if (!seen.has(k)) seen.set(k, label);
    const out = seen.size ? [[[...seen.keys()].join(" / "),
      "answer: " + [...seen].map(([k, label]) => `${k} ${label}`).join("; ")]] : [];
    if (this.cls && typeof this.cls.helpKeys === "function") out.push(...this.cls.helpKeys());
    return out;
  }

  // The charts that show later rounds get a white cover beyond the round on screen (options.cover:
  // figure id -> x offset of round p's right edge), so that they do not give the answers away.
  coverShape(offset, p) {
    return { type: "rect", xref: "x", yref: "paper", x0: p + offset, x1: this.o.T + 1, y0: -0.02, y1: 1.02,
      fillcolor: "#ffffff", line: { width: 0 }, layer: "above" };
  }

  updateCovers(p) {
    const P = this.view.Plotly;
    if (!P || !this.covers) return;
    for (const c of this.covers) {
      if (!c.f.gd || !c.f.gd.layout) continue;
      P.relayout(c.f.gd, { [`shapes[${c.index}].x0`]: p + c.offset });
    }
  }

  // A marker trace for the round's example on the kind's 2-D chart (drawn only while asking).
  beforePlot(f, data, layout) {
    const cover = this.o.cover && this.o.cover[f.spec.id];
    if (cover !== undefined && layout) {
      layout.shapes = [...(layout.shapes || []), this.coverShape(cover, this.view.p)];
      (this.covers = (this.covers || []).filter((c) => c.f !== f)).push({ f, offset: cover, index: layout.shapes.length - 1 });
    }
    if (!this.o.px || f.spec.id !== this.o.figure) return;   // a kind with a 2-D chart: options px, py, figure
    data.push({ type: "scatter", mode: "markers", name: MARK_NAME, x: [], y: [], showlegend: false,
      hoverinfo: "skip", marker: { symbol: "circle-open", size: 30, line: { width: 4, color: "#ff7f0e" } } });
    this.markIndex = data.length - 1;
    this.markFig = f;
  }

  beforeStep(to, from) {
    if (this.passing) return undefined;
    if (this.cls && this.cls.holds()) { this.view.pause(false); return false; }  // the class answers: Reveal first
    if (this.cls && !this.cls.lecturer && this.cls.following()) return undefined;  // the lecturer's step
    if (to <= from) { this.close(); return undefined; }
    const target = to > from + 1 && this.view.stopTarget(0, +1) === to ? to : (to === from + 1 ? to : null);
    if (target === null || target > this.o.rounds) { this.close(); return undefined; }  // a long jump: no question
    this.view.pause(false);
    if (target - 1 !== from) {       // Shift+→: stop just before the mistake, then ask
      this.pendingAsk = target;
      return target - 1;
    }
    this.ask(target);
    return false;
  }

  onRender(p) {
    this.updateCovers(p);
    this.ensureClass();
    if (this.cls) this.cls.refresh();
    if (this.pendingAsk !== undefined && this.pendingAsk !== null) {
      const r = this.pendingAsk;
      this.pendingAsk = null;
      if (p === r - 1) { this.ask(r); return; }
    }
    if (this.asking !== null && p !== this.asking - 1) this.close();
  }

  onKey(ev) {
    const mine = this.cls ? this.cls.onKey(ev) : undefined;
    if (mine !== undefined) return mine;
    if (this.asking === null) return undefined;
    const key = String(ev.key || "").toUpperCase();
    const hit = choices(this.o, this.asking).find(([k]) => k === key);
    if (!hit) return undefined;
    this.answer(hit[1]);
    return true;
  }

  ask(r) {
    this.asking = r;
    this.panel.dataset.state = "asking";
    this.panel.dataset.round = String(r);
    this.view.root.dataset.asking = String(r);
    this.say.textContent = questionText(this.o, r);
    this.result.textContent = "";
    this.answers.replaceChildren();
    this.mark(r);
    this.ensureClass();
    if (this.cls && this.cls.lecturer) { this.cls.render(); return; }  // "Open this question to the class"
    for (const [key, id, label] of choices(this.o, r)) {
      const b = el("button", "olc-btn olc-predict-answer");
      b.type = "button";
      b.dataset.answer = id;
      b.append(el("kbd", null, key), document.createTextNode(" " + label));
      b.addEventListener("click", () => this.answer(id));
      this.answers.appendChild(b);
    }
  }

  // Draw round r's update (our own step: no question asked about it).
  step(r) {
    this.passing = true;
    try { this.view.setPosition(r, { immediate: true }); } finally { this.passing = false; }
  }

  // Class session, the lecturer: the question asked, with the class's button in place of the answers.
  showAsk(button) { this.showButton(button); }

  // … the question open to the class (also after a reload of the lecturer's tab).
  showOpen(q, button) {
    this.panel.dataset.state = "open";
    this.panel.dataset.round = String(q.round);
    this.say.textContent = q.text;
    this.result.textContent = "";
    this.showButton(button);
  }

  showButton(button) {
    const had = this.answers.contains(document.activeElement);
    this.answers.replaceChildren(button);
    if (had) button.focus();
  }

  // … revealed: the update drawn (when the question is about the run on screen), what happened, the answer.
  revealed(r, text, result) {
    this.asking = null;
    delete this.view.root.dataset.asking;
    this.mark(null);
    if (text !== null) this.step(r);
    this.answers.replaceChildren();
    this.panel.dataset.state = "revealed";
    this.panel.dataset.round = String(r);
    this.say.textContent = text !== null ? `Round ${r}: ${text}` : `Round ${r} revealed.`;
    this.result.textContent = result;
  }

  answer(id) {
    const r = this.asking;
    if (r === null) return;
    const right = rightAnswer(this.o, r);
    const ok = id === right;
    this.asked += 1;
    if (ok) this.right += 1;
    this.asking = null;
    delete this.view.root.dataset.asking;
    this.mark(null);
    this.step(r);
    this.answers.replaceChildren();
    this.panel.dataset.state = ok ? "right" : "wrong";
    this.say.textContent = `Round ${r}: ${revealText(this.o, r)}`;
    this.result.textContent = ok ? "✓ Right." : `✗ Not this time: the answer was “${choices(this.o, r).find(([, a]) => a === right)[2]}”.`;
    this.renderTally();
  }

  close() {
    if (this.asking === null && this.panel.dataset.state === "idle") return;
    this.asking = null;
    delete this.view.root.dataset.asking;
    this.mark(null);
    this.idle();
  }

  idle() {
    this.panel.dataset.state = "idle";
    this.answers.replaceChildren();
    this.result.textContent = "";
    const more = this.o.rounds < this.o.T ? ` (the first ${this.o.rounds} rounds)` : "";
    // a touch screen has no keys: its hint names the buttons (viewer_phone.js)
    const [next, nextMistake] = touchScreen() ? ["Next", "Next mistake"] : ["→", "Shift+→"];
    if (this.cls && !this.cls.lecturer) {
      this.say.textContent = "the lecturer's questions appear here: answer them on this device." +
        (this.cls.following() ? "" : ` Exploring on your own: ${next} asks about the next round${more}.`);
      return;
    }
    if (this.cls) {
      this.say.textContent = `${next} asks about the next round, ${nextMistake} about the next mistake${more}; ` +
        "O opens the question to the class, R reveals it.";
      return;
    }
    this.say.textContent = `${next} asks about the next round, ${nextMistake} about the next mistake${more}; ` +
      "the class answers before the update is drawn.";
  }

  renderTally() {
    if (this.cls && (this.cls.lecturer || !this.asked)) { this.tally.textContent = ""; return; }
    if (this.cls) { this.tally.textContent = `On my own: ${this.right} right of ${this.asked}`; return; }
    this.tally.textContent = this.asked ? `Class: ${this.right} right of ${this.asked}` : "Class: no answer yet";
    this.tally.dataset.none = this.asked ? "false" : "true";     // a phone leaves the empty tally out (viewer.css)
  }

  mark(r) {
    const f = this.markFig, P = this.view.Plotly;
    if (this.markIndex === null || !f || !P || !f.gd || !f.gd.data) return;
    const i = r === null ? null : r - 1;
    const x = i === null ? [] : [this.o.px[i]], y = i === null ? [] : [this.o.py[i]];
    const color = i === null ? "#ff7f0e" : (this.o.label[i] > 0 ? "#1f77b4" : "#d62728");
    P.restyle(f.gd, { x: [x], y: [y], "marker.line.color": color }, [this.markIndex]);
  }

  destroy() {
    document.removeEventListener("keydown", this.onDocKey);
    if (this.cls) this.cls.destroy();
    if (this.record) this.record.destroy();
    this.cls = this.record = null;
    if (this.view.root) delete this.view.root.dataset.asking;
    if (this.panel) this.panel.remove();
    if (this.view.root) delete this.view.root.dataset.predict;
  }
}

registerMode("predict", (view, options) => new Predict(view, options));
