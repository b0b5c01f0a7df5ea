// olc step viewer: the class answers a predict-then-reveal question (a part of viewer_predict.js;
// docs/class-session.md, "Class answers"). In a class session (viewer_class.js's classLink()) the
// lecturer's → asks round r as today, but instead of answer buttons the panel offers "Open this question
// to the class" (O): an `open` message with the question's text and choices (viewer_questions.js). While it
// is open the projector shows "k of n answered" (counts only); "Reveal" (R) sends `reveal` with the run's
// right answer and draws the update; the server's `reveal` brings the distribution (a bar, the count and
// the percentage per answer, the right one marked ✓ right) and the share correct; its `tally` the table of
// the session's questions, with a CSV download built here. A student's viewer shows the open question with
// one button per answer (a changed answer replaces the vote until the reveal), then whether it was right and
// the distribution. The pure parts (ids, texts, the CSV) are exported for tests/ui/test_class_answers.py.

import { choices, questionText, revealText, rightAnswer } from "./viewer_questions.js";
import { el } from "./viewer_util.js";

const KEY_OPEN = "O", KEY_REVEAL = "R";
const CLASS_EVENTS = ["welcome", "question", "answered", "joined", "voted", "reveal", "closed", "tally", "ended", "left"];
const QUESTION_MAX_TEXT = 600;   // the hub's bound on a question's text (olc_ui/classroom/messages.py)

// ---------------------------------------------------------------- pure parts

// A short tag of a run id (FNV-1a, base 36): the question id says which run it is about.
export function runTag(run) {
  let h = 0x811c9dc5;
  const s = String(run);
  for (let i = 0; i < s.length; i++) { h ^= s.charCodeAt(i); h = Math.imul(h, 0x01000193) >>> 0; }
  return h.toString(36);
}

// A question's id: page, run, round and a stamp unique to the lecturer's document (time + counter); at most
// 64 characters of [A-Za-z0-9_.:-] (the hub's identifiers).
export function questionId(page, run, r, stamp) {
  return `${String(page).replace(/[^A-Za-z0-9_-]/g, "-").slice(0, 24)}:${runTag(run)}:${r}:${stamp}`;
}

export function qidParts(qid) {
  const m = /^([^:]*):([0-9a-z]+):(\d+):([0-9a-z]+)$/.exec(String(qid || ""));
  return m ? { page: m[1], run: m[2], round: +m[3] } : null;
}

// Does question id `qid` speak of this page and run?
export function sameRun(qid, page, run) {
  const parts = qidParts(qid);
  return !!parts && parts.page === String(page).replace(/[^A-Za-z0-9_-]/g, "-").slice(0, 24) && parts.run === runTag(run);
}

// The lecturer's `open` for round r of the run `run` on `page` (docs/class-session.md, "Messages").
export function openMessage(o, r, page, run, stamp) {
  return { type: "open", qid: questionId(page, run, r, stamp), round: r, page, text: questionText(o, r).slice(0, QUESTION_MAX_TEXT),
    choices: choices(o, r).map(([, id, label]) => ({ id, label })) };
}

export function answeredText(n, joined) { return `${n} of ${joined} answered`; }

export function percentOf(n, total) { return total > 0 ? Math.round((100 * n) / total) : 0; }

// One row per choice: its count, its share of the answers (%), whether it is the right one.
export function distribution(list, counts, correct) {
  const c = counts || {};
  const total = list.reduce((s, ch) => s + (+c[ch.id] || 0), 0);
  return list.map((ch) => {
    const n = +c[ch.id] || 0;
    return { id: ch.id, label: ch.label, n, pct: percentOf(n, total), right: ch.id === correct };
  });
}

export function countText(row) { return `${row.n} ${row.n === 1 ? "answer" : "answers"} (${row.pct}%)`; }

export function distributionLine(row) { return `${row.label}: ${countText(row)}${row.right ? " ✓ right" : ""}`; }

export function shareText(share, answered) {
  if (share === null || share === undefined || !(answered > 0)) return "Nobody answered.";
  return `Share correct: ${Math.round(share * 100)}% (${Math.round(share * answered)} of ${answered}).`;
}

// The CSV's file name: class-<code>-<YYYY-MM-DD>.csv (the local date).
export function csvName(code, date) {
  const d = date || new Date(), two = (n) => String(n).padStart(2, "0");
  return `class-${String(code).replace(/[^A-Za-z0-9]/g, "")}-${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())}.csv`;
}

// A CSV field: quoted, quotes doubled; a cell a spreadsheet would run as a formula (= + - @, tab, CR) gets a '.
export function csvCell(v) {
  let s = v === null || v === undefined ? "" : String(v);
  if (/^[=+\-@\t\r]/.test(s)) s = "'" + s;
  return `"${s.replace(/"/g, '""')}"`;
}

// The session's answers as CSV: one line per revealed question (the tally's rows), one count column per
// choice label (`labelsOf(row)`: the row's [{id, label}]; an id without a label gets a column of its own); a
// question's cell under a choice it did not offer is empty (0 would say nobody chose it).
export function tallyCsv(rows, labelsOf) {
  const labels = [];
  const counts = rows.map((row) => {
    const m = new Map(), list = [...(labelsOf(row) || [])];
    for (const id of Object.keys(row.counts || {})) if (!list.some((c) => c.id === id)) list.push({ id, label: id });
    for (const { id, label } of list) {
      if (!labels.includes(label)) labels.push(label);
      m.set(label, (m.get(label) || 0) + (+(row.counts || {})[id] || 0));
    }
    return m;
  });
  const head = ["n", "page", "round", "question", "right answer", "answered", "joined", "share correct", ...labels];
  const lines = rows.map((row, i) => [row.n, row.page, row.round, row.text, row.correct_label ?? row.correct,
    row.answered, row.joined, row.share === null || row.share === undefined ? "" : (+row.share).toFixed(3),
    ...labels.map((l) => counts[i].get(l) ?? "")]);      // a choice the question never offered: empty, not 0
  return [head, ...lines].map((line) => line.map(csvCell).join(",")).join("\r\n") + "\r\n";
}

// The `page` a question is about: the class mode's (olc_ui/shared/class_session.py), else the URL's last part.
function classPage(view) {
  try {
    const opts = JSON.parse(view.modesKey || "{}").class;
    if (opts && typeof opts.page === "string") return opts.page;
  } catch (e) { /* no class options */ }
  const parts = window.location.pathname.split("/").filter(Boolean);
  return parts.length ? decodeURIComponent(parts[parts.length - 1]) : "home";
}

function answerButton(key, label, onClick, cls) {
  const b = el("button", `olc-btn olc-predict-answer ${cls || ""}`.trim());
  b.type = "button";
  if (key) b.append(el("kbd", null, key), document.createTextNode(" "));
  b.append(document.createTextNode(label));
  b.addEventListener("click", onClick);
  return b;
}

// ---------------------------------------------------------------- the class's side of the predict panel

export class ClassAnswers {
  constructor(predict, link) {
    this.pr = predict;
    this.link = link;
    this.q = null;            // the open question (server's fields; the lecturer's own also run, correct)
    this.mine = null;         // student: my answer to q
    this.shown = null;        // {q, msg}: the last revealed question and the server's reveal
    this.pending = null;      // lecturer: revealed, the server's reveal not yet here
    this.expanded = false;    // student not following: the question opened with "Answer"
    this.joined = 0;
    this.rows = [];
    this.known = new Map();   // qid -> choices [{id, label}] (the CSV's columns)
    this.stamp = 0;
    this.over = link.ended === true || link.left === true;   // the session ended: only the tally stays (lecturer)
    this.offs = CLASS_EVENTS.map((t) => link.on(t, (m) => this.receive(t, m || {})));
    this.catchUp();
  }

  get lecturer() { return this.link.role === "lecturer"; }

  catchUp() {
    const l = this.link, tally = l.last("tally"), joined = l.last("joined"), q = l.last("question");
    if (tally && Array.isArray(tally.rows)) this.rows = tally.rows;
    if (joined && typeof joined.n === "number") this.joined = joined.n;
    const revealed = (l.last("reveal") || {}).qid;
    if (!this.over && q && q.kind !== "propose" && q.qid !== revealed && !this.rows.some((row) => row.qid === q.qid))
      this.adopt(q);
  }

  // Lecturer: a question adopted from `welcome` (a reloaded tab) comes without its right answer. When its run and
  // round are this viewer's, the run's own questions give it, and the viewer goes back to the round's asking state;
  // else (another run on screen) it can only be closed.
  resume() {
    const q = this.q, pr = this.pr, v = pr.view;
    if (!this.lecturer || !q || q.correct !== undefined || !v.ready || v.runId === null) return;
    const r = q.round;
    q.orphan = !(this.matches(q) && Number.isInteger(r) && r >= 1 && r <= pr.o.rounds &&
      q.choices.some((c) => c.id === rightAnswer(pr.o, r)));
    if (!q.orphan) {
      Object.assign(q, { run: v.runId, correct: rightAnswer(pr.o, r), reveal: revealText(pr.o, r) });
      pr.resumeAsking(r);
    }
    this.render();
  }

  adopt(q) {
    if (!this.q || this.q.qid !== q.qid) { this.mine = null; this.expanded = false; }
    this.q = { ...(this.q && this.q.qid === q.qid ? this.q : {}), ...q };
    if (typeof q.mine === "string") this.mine = q.mine;
    if (typeof q.joined === "number") this.joined = q.joined;
    if (Array.isArray(q.choices)) this.known.set(q.qid, q.choices);
  }

  receive(type, m) {
    if (type === "ended" || type === "left") { this.end(); return; }
    if (this.over || (type === "question" && m.kind === "propose")) return;   // a game's proposals: viewer_game_class.js
    if (type === "welcome") {
      if (m.tally && Array.isArray(m.tally.rows)) this.rows = m.tally.rows;
      else if (Array.isArray(m.tally)) this.rows = m.tally;
      if (typeof m.joined === "number") this.joined = m.joined;
      const had = this.q && m.question && this.q.qid === m.question.qid ? this.mine : null;
      if (m.question && m.question.kind !== "propose") this.adopt(m.question); else this.q = null;
      // welcomed again (a reconnect, a store that came back) without the answer this student gave: it never reached
      // the store (the socket or the process died under it, the store lost its last second): sent again
      if (!this.lecturer && had !== null && this.q && m.question.mine !== had) {
        this.mine = had;
        this.link.send({ type: "vote", qid: this.q.qid, answer: had });
      }
      this.resume();
    } else if (type === "question") {
      const fresh = !this.q || this.q.qid !== m.qid;
      this.adopt(m);
      if (fresh) { this.shown = null; this.announce(`Question open: round ${m.round}. ${this.countLine()}`); }
    } else if (type === "answered" || type === "joined") {
      if (typeof m.joined === "number") this.joined = m.joined;
      if (type === "joined" && typeof m.n === "number") this.joined = m.n;
      if (type === "answered" && this.q && m.qid === this.q.qid) this.q.answered = m.n;
      if (this.q) this.q.joined = this.joined;
      this.renderCount();
      return;
    } else if (type === "voted") {
      if (this.q && m.qid === this.q.qid) this.mine = m.answer;
    } else if (type === "reveal") {
      this.revealed(m);
    } else if (type === "closed") {
      if (this.q && m.qid === this.q.qid) this.q = null;
    } else if (type === "tally") {
      if (Array.isArray(m.rows)) this.rows = m.rows;
    }
    this.render();
  }

  // The session ended (or this page left it): no question UI any more, predict on its own again; the lecturer
  // keeps the tally and its CSV (the session's record).
  end() {
    this.over = true;
    this.q = this.shown = this.pending = null;
    this.expanded = false;
    this.pr.classOver(this, this.lecturer && this.rows.length > 0);
  }

  revealed(m) {
    const q = (this.q && this.q.qid === m.qid && this.q) || (this.pending && this.pending.qid === m.qid && this.pending) ||
      { qid: m.qid, round: (qidParts(m.qid) || {}).round, choices: this.known.get(m.qid) || [] };
    this.shown = { q, msg: m, mine: this.q && this.q.qid === m.qid ? this.mine : null };
    if (this.q && this.q.qid === m.qid) this.q = null;
    this.pending = null;
    this.expanded = false;
    const right = (q.choices || []).find((c) => c.id === m.correct);
    this.announce(`Revealed: the right answer is ${right ? right.label : m.correct}. ` +
      `${answeredText(m.answered, m.joined)}. ${shareText(m.share, m.answered)}`);
    // a following student's viewer draws the update when the lecturer's `state` (the step to the round) arrives
  }

  // ---------------------------------------------------------------- roles' actions

  following() { return !this.lecturer && this.link.following !== false; }

  // The student's run and page are the question's (its id says so).
  matches(q) { return !!q && sameRun(q.qid, classPage(this.pr.view), this.pr.view.runId); }

  // Lecturer: a question is open and not yet revealed; the viewer holds its steps until the reveal.
  holds() { return this.lecturer && this.q !== null; }

  // Lecturer: a move to another stop of a tour while the class's question is open is held too, and said so (the
  // students' answers would be left on a question nobody reveals).
  holdMove() {
    if (!this.holds()) return false;
    const what = this.q.orphan ? "Close it" : `Reveal it (${KEY_REVEAL})`;
    this.line.textContent = `Open to the class: ${this.countLine()} ${what} before moving to another stop.`;
    this.announce(`The question is still open: ${what.toLowerCase()} before moving to another stop.`);
    return true;
  }

  open() {
    const pr = this.pr, r = pr.asking;
    if (!this.lecturer || r === null || this.q || this.over) return;
    const stamp = `${Date.now().toString(36)}${(this.stamp++).toString(36)}`;
    const msg = openMessage(pr.o, r, classPage(pr.view), pr.view.runId, stamp);
    this.link.send(msg);
    this.adopt({ ...msg, answered: 0, joined: this.joined });
    delete this.q.type;
    Object.assign(this.q, { run: pr.view.runId, correct: rightAnswer(pr.o, r), reveal: revealText(pr.o, r) });
    this.shown = null;
    this.announce(`Question open to the class: ${this.countLine()}`);
    this.render();
  }

  reveal() {
    const q = this.q;
    if (!this.lecturer || !q || q.correct === undefined) return;
    this.link.send({ type: "reveal", qid: q.qid, correct: q.correct });
    this.q = null;
    this.pending = q;
    const label = (q.choices.find((c) => c.id === q.correct) || {}).label || q.correct;
    this.pr.revealed(q.round, q.run === this.pr.view.runId ? q.reveal : null, `The right answer: “${label}”.`);
    this.render();
  }

  // Lecturer: close the open question without a reveal (its answers are dropped): a question whose right answer
  // this tab cannot know.
  closeQuestion() {
    const q = this.q;
    if (!this.lecturer || !q) return;
    this.link.send({ type: "close", qid: q.qid });
    this.q = null;
    this.pr.close();
    this.announce("The question is closed, not revealed.");
    this.render();
  }

  vote(id) {
    if (this.lecturer || !this.q) return;
    this.link.send({ type: "vote", qid: this.q.qid, answer: id });
    this.mine = id;
    this.render();
  }

  helpKeys() {
    return this.lecturer ? [[KEY_OPEN, "open the question to the class"], [KEY_REVEAL, "reveal it to the class"]] : [];
  }

  // The keys: lecturer O opens, R reveals (its answer keys do nothing while asking); student: the answer keys.
  onKey(ev) {
    const key = String(ev.key || "").toUpperCase();
    if (this.lecturer) {
      if (this.q) { if (key === KEY_REVEAL && this.q.correct !== undefined) { this.reveal(); return true; } return undefined; }
      if (this.pr.asking === null) return undefined;
      if (key === KEY_OPEN) { this.open(); return true; }
      return choices(this.pr.o, this.pr.asking).some(([k]) => k === key) ? true : undefined;
    }
    if (!this.q || !this.full()) return undefined;
    const hit = this.keyed().find(([k]) => k === key);
    if (!hit) return undefined;
    this.vote(hit[1]);
    return true;
  }

  wantsKeys() { return this.lecturer ? this.q !== null || this.pr.asking !== null : this.q !== null && this.full(); }

  // Student: the question in full (following this run, or opened with "Answer"), else a compact line.
  full() { return this.expanded || (this.following() && this.matches(this.q)); }

  // [key, id, label] per choice of the open question: the run's keys when the question is this run's, else 1, 2, …
  keyed() {
    const q = this.q, r = q.round, o = this.pr.o;
    const local = this.matches(q) && r >= 1 && r <= o.rounds ? choices(o, r) : [];
    return q.choices.map((c, i) => [(local.find(([, id]) => id === c.id) || [String(i + 1)])[0], c.id, c.label]);
  }

  countLine() { return this.q ? `${answeredText(this.q.answered || 0, this.joined)}.` : ""; }

  // ---------------------------------------------------------------- DOM

  build() {
    const pr = this.pr;
    this.box = el("div", "olc-class-answers");
    this.box.setAttribute("role", "region");
    this.box.setAttribute("aria-label", "The class's answers");
    this.line = el("div", "olc-answers-line");
    this.qText = el("div", "olc-answers-question");
    this.qButtons = el("div", "olc-answers-choices");
    this.status = el("div", "olc-answers-status");
    this.dist = el("div", "olc-answers-dist");
    this.tallyBox = el("div", "olc-answers-tally");
    this.live = el("div", "olc-answers-live");
    this.live.setAttribute("aria-live", "polite");
    this.live.setAttribute("role", "status");
    this.box.append(this.line, this.qText, this.qButtons, this.status, this.dist, this.tallyBox, this.live);
    pr.panel.after(this.box);
    this.place();
    this.renderKey = null;
    this.render();
  }

  announce(text) { if (this.live) this.live.textContent = text; }

  // Where the box goes: under the predict panel; on the projector (presentation mode) the lecturer's in the class
  // panel's strip (viewer_class.js's slot: the count, the distribution) and the tally under the charts, so what the
  // class adds above the charts keeps one height in every state.
  place() {
    const root = this.pr.view.root, present = root.dataset.present === "true";
    const slot = this.lecturer && present ? root.querySelector(".olc-class .olc-class-slot") : null;
    if (slot) { if (this.box.parentNode !== slot) slot.append(this.box); }
    else if (this.box.previousElementSibling !== this.pr.panel) this.pr.panel.after(this.box);
    this.box.dataset.place = slot ? "strip" : "panel";
    if (present && this.lecturer) { if (this.tallyBox.parentNode !== root) root.append(this.tallyBox); }
    else if (this.tallyBox.parentNode !== this.box) this.box.insertBefore(this.tallyBox, this.live);
  }

  renderCount() {
    if (!this.box || !this.q) return;
    if (this.lecturer) this.line.textContent = `Open to the class: ${this.countLine()}`;
  }

  // Re-render only when what is shown changes (called on every step too: following may have changed).
  refresh() {
    const key = JSON.stringify([this.following(), this.q && this.q.qid, this.pr.view.runId]);
    if (key === this.renderKey) return;
    if (this.q && this.q.correct === undefined) this.resume();
    this.render();
  }

  render() {
    if (!this.box) return;
    this.renderKey = JSON.stringify([this.following(), this.q && this.q.qid, this.pr.view.runId]);
    const active = document.activeElement;
    const focused = active && this.qButtons.contains(active) ? active.dataset.answer : null;
    for (const e of [this.line, this.qText, this.qButtons, this.status, this.dist]) e.replaceChildren();
    this.box.dataset.role = this.link.role;
    if (this.over) {
      this.box.dataset.state = "over";
      this.box.dataset.qid = "";
      this.renderTally();
      return;
    }
    this.place();
    if (this.lecturer) this.renderLecturer(); else this.renderStudent();
    // a student's question in full, or its result: the predict panel's idle line ("the lecturer's questions appear
    // here", an all but empty box) goes, not to come back above the result
    if (!this.lecturer) this.pr.panel.hidden = ((!!this.q && this.full()) || (!this.q && !!this.shown)) && this.pr.asking === null;
    if (!this.lecturer && this.pr.panel.dataset.state === "idle") this.pr.idle();
    if (focused) { const b = this.qButtons.querySelector(`[data-answer="${CSS.escape(focused)}"]`); if (b) b.focus(); }
    this.renderShown();
    this.renderTally();
    this.box.dataset.state = this.q ? "open" : this.shown ? "revealed" : "none";
    this.box.dataset.qid = this.q ? this.q.qid : this.shown ? this.shown.q.qid : "";
  }

  renderLecturer() {
    const pr = this.pr;
    if (this.q && this.q.orphan) {
      pr.showOpen(this.q, answerButton(null, "Close the question", () => this.closeQuestion(), "olc-answers-close"));
      this.line.textContent = `Open to the class: ${this.countLine()} This question was opened on another run than ` +
        "the one on screen: its right answer is not known here, so it can only be closed (its answers are dropped).";
    } else if (this.q) {
      pr.showOpen(this.q, answerButton(KEY_REVEAL, "Reveal", () => this.reveal(), "olc-answers-reveal"));
      this.renderCount();
    } else if (pr.asking !== null) {
      pr.showAsk(answerButton(KEY_OPEN, "Open this question to the class", () => this.open(), "olc-answers-open"));
      const n = this.joined;
      this.line.textContent = `${n} ${n === 1 ? "student" : "students"} connected: O opens this question on their ` +
        "devices; R then reveals it.";
    }
  }

  renderStudent() {
    const q = this.q;
    if (!q) return;
    if (!this.full()) {
      // exploring (or another run): "Answer" brings the student back to the lecturer, then shows the question
      this.line.append(`A question is open on the lecturer's round ${q.round}. `,
        answerButton(null, "Answer", () => {
          if (!this.following()) this.link.backToLecturer();
          this.expanded = true;
          this.render();
          this.focusChoice();
        }, "olc-answers-expand"));
      return;
    }
    this.qText.textContent = q.text;
    for (const [key, id, label] of this.keyed()) {
      const b = answerButton(key, label, () => this.vote(id), "olc-answers-choice");
      if (id === this.mine) b.append(el("span", "olc-answers-mine", " — your answer"));   // never ✓ (the reveal's mark)
      b.dataset.answer = id;
      b.setAttribute("aria-pressed", id === this.mine ? "true" : "false");
      this.qButtons.appendChild(b);
    }
    const mine = q.choices.find((c) => c.id === this.mine);
    this.status.textContent = mine ? `Your answer: ${mine.label} (you can change it until the reveal).`
      : "Answer on this device (you can change it until the reveal).";
  }

  focusChoice() { const b = this.qButtons.querySelector("button"); if (b) b.focus(); }

  renderShown() {
    const s = this.shown;
    if (!s) return;
    const m = s.msg, list = s.q.choices || [];
    const rows = distribution(list, m.counts, m.correct);
    const right = rows.find((row) => row.right);
    const head = el("div", "olc-answers-result");
    if (!this.lecturer) {
      const mine = list.find((c) => c.id === s.mine);
      head.textContent = !mine ? `You did not answer. The right answer: ${right ? right.label : m.correct}.`
        : mine.id === m.correct ? `✓ Right: your answer was ${mine.label}.`
          : `✗ Your answer: ${mine.label}. The right answer: ${right ? right.label : m.correct}.`;
      if (this.matches(s.q) && s.q.round >= 1 && s.q.round <= this.pr.o.rounds)
        head.textContent += ` Round ${s.q.round}: ${revealText(this.pr.o, s.q.round)}`;
    } else head.textContent = `Round ${s.q.round}, the class's answers (${answeredText(m.answered, m.joined)}):`;
    const ul = el("ul", "olc-answers-bars");
    for (const row of rows) {
      const li = el("li", row.right ? "olc-answers-bar olc-answers-right" : "olc-answers-bar");
      const bar = el("span", "olc-answers-bar-track");
      bar.setAttribute("aria-hidden", "true");
      const fill = el("span", "olc-answers-bar-fill");
      fill.style.width = `${row.pct}%`;
      bar.appendChild(fill);
      li.append(el("span", "olc-answers-bar-label", row.label), bar, el("span", "olc-answers-bar-count", countText(row)));
      li.appendChild(el("span", "olc-answers-bar-right", row.right ? "✓ right" : ""));
      ul.appendChild(li);
    }
    this.dist.append(head, ul, el("div", "olc-answers-share", shareText(m.share, m.answered)));
  }

  // The labels of a tally row's choices: the row's own (the server keeps the question's choices), else as
  // opened here, else the run's (same page), else none (ids become columns).
  labelsOf(row) {
    if (Array.isArray(row.choices) && row.choices.length) return row.choices;
    const known = this.known.get(row.qid);
    if (known) return known;
    const o = this.pr.o;
    if (row.page === classPage(this.pr.view) && row.round >= 1 && row.round <= o.rounds)
      return choices(o, row.round).map(([, id, label]) => ({ id, label }));
    return [];
  }

  renderTally() {
    this.tallyBox.replaceChildren();
    if (!this.lecturer || !this.rows.length) return;
    const table = el("table", "olc-answers-tally-table");
    table.appendChild(el("caption", null, "Class tally"));
    const head = el("tr");
    for (const h of ["Question", "Page", "Round", "Right answer", "Answered / joined", "Share correct"])
      head.appendChild(Object.assign(el("th", null, h), { scope: "col" }));
    table.appendChild(el("thead")).appendChild(head);
    const body = table.appendChild(el("tbody"));
    for (const row of this.rows) {
      const tr = el("tr");
      for (const v of [row.n, row.page, row.round, row.correct_label ?? row.correct, `${row.answered} / ${row.joined}`,
        row.share === null || row.share === undefined ? "—" : `${Math.round(row.share * 100)}%`])
        tr.appendChild(el("td", null, String(v)));
      body.appendChild(tr);
    }
    const dl = answerButton(null, "Download the session's answers (CSV)", () => this.download(), "olc-answers-csv");
    this.tallyBox.append(table, dl);
  }

  download() {
    const csv = tallyCsv(this.rows, (row) => this.labelsOf(row));
    const url = URL.createObjectURL(new Blob([csv], { type: "text/csv;charset=utf-8" }));
    const a = el("a");
    a.href = url;
    a.download = csvName(this.link.code);
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  }

  destroy() {
    for (const off of this.offs) if (typeof off === "function") off();
    this.offs = [];
    if (this.box) this.box.remove();
    if (this.tallyBox) this.tallyBox.remove();
    this.box = null;
    if (this.pr.panel) this.pr.panel.hidden = false;
  }
}
