// olc step viewer: the class as the adversary of a "Beat the bound" game (issue 35 §3; docs/class-session.md, "The
// class as the adversary"). Not a mode: the games' modes (viewer_game_plane.js, viewer_game_bars.js) each make one
// GameClass when the page is in a class session (classLink() is not null), and hand it what only they know — how
// a move reads (`describe(id)`), whether the game admits it (`refusal(id)`: null or why not), how to play it
// (`play(id)`), and how to draw the proposals on the board (`draw(counts)`, `clear()`).
//
// - The lecturer asks the class for the adversary's next move ("Ask the class for this move": `open` with kind
//   "propose", round = the moves so far), sees how many proposed (never which), and shows the proposals
//   (`show`): everyone gets each distinct move with its count (`proposals`); the board draws them and the box lists
//   them, the most proposed first, each with a "Play" button; "Play the most popular" plays the first the game
//   admits. The move played goes the game's own way (drawn in the page, then the server's run), and the class
//   follows it as it follows every step (the lecturer's new `state`).
// - A student following the lecturer, on the lecturer's page and board (the same number of moves), makes a move on
//   their own screen as usual: it is judged by the game's rules in the page and sent as their proposal (`vote`),
//   not played; one proposal per student and round (another replaces it, until the lecturer shows them).
// A move is sent in the game's short form (an identifier: "16:60:1" for the point (16/64, 60/64) with label +1,
// "00100000:1" for Winnow's x₃ on and label 1, "1011:0" for the experts' advice +1 −1 +1 +1 and outcome −1).
// All text is set with textContent.

import { classLink } from "./viewer_class.js";
import { el } from "./viewer_util.js";

const PROPOSE_EVENTS = ["welcome", "question", "answered", "joined", "voted", "proposals", "closed", "state", "follow",
  "ended", "left"];
const PROPOSE_LIST = 8;          // distinct proposals listed with a Play button

function proposeButton(text, action, fn) {
  const b = el("button", "olc-game-class-button", text);
  b.type = "button";
  b.dataset.action = action;
  b.addEventListener("click", (ev) => { ev.preventDefault(); ev.stopPropagation(); fn(); });
  return b;
}

// The page this game is on, as the class session names it (the last part of the address's path).
function proposePage() {
  const parts = window.location.pathname.split("/").filter(Boolean);
  return (parts[parts.length - 1] || "").replace(/[^A-Za-z0-9_-]/g, "-").slice(0, 64);
}

export class GameClass {
  constructor(view, game) {
    this.view = view;
    this.game = game;
    this.link = classLink();
    this.shown = null;           // the last `proposals` drawn
    this.mine = null;
    this.box = el("div", "olc-game-class");
    this.box.setAttribute("role", "region");
    this.box.setAttribute("aria-label", "The class as the adversary");
    this.live = el("div", "olc-sr-only olc-game-class-live");
    this.live.setAttribute("role", "status");
    this.offs = this.link ? PROPOSE_EVENTS.map((t) => this.link.on(t, (m) => this.receive(t, m || {}))) : [];
    this.shown = this.link && this.link.last("proposals");   // drawn while the board is the one they were made on
  }

  // The proposals to show now: the last shown, if they were made on this board (the qid names its moves so far).
  get current() {
    const m = this.shown, v = this.view;
    if (!m || typeof m.qid !== "string" || !v.spec) return null;
    const parts = m.qid.split(":");
    return parts[1] === proposePage() && Number(parts[2]) === v.spec.T ? m : null;
  }

  // After the board is drawn (a new run): the proposals again, when they belong to it.
  redraw() {
    const m = this.current;
    if (m) this.game.draw(m.counts || []);
    this.render();
  }

  get lecturer() { return this.link && this.link.role === "lecturer"; }

  // The open round of proposals, if any (the link keeps the last question until it is shown or closed).
  get round() {
    const q = this.link && this.link.last("question");
    return q && q.kind === "propose" && q.page === proposePage() ? q : null;
  }

  // Whether a move made on this board now is a proposal (a student following, on the lecturer's board).
  proposing() {
    const q = this.round, v = this.view;
    return Boolean(q) && !this.lecturer && this.link.following && v.spec && v.spec.T === q.round;
  }

  // A student's move, judged by the game: sent as the proposal, or refused with why.
  propose(id) {
    const q = this.round;
    const why = this.game.refusal(id);
    if (why) { this.say(`${this.game.describe(id)} cannot be proposed: ${why}.`); return; }
    this.link.send({ type: "vote", qid: q.qid, answer: id });
    this.mine = id;
    this.mineQid = q.qid;
    this.say(`Your proposal: ${this.game.describe(id)} (you can change it until the lecturer shows the proposals).`);
    this.render();
  }

  ask() {
    const v = this.view, page = proposePage();
    const qid = `propose:${page}:${v.spec.T}:${Date.now().toString(36)}`.slice(0, 64);
    this.shown = null;
    this.game.clear();
    this.link.send({ type: "open", kind: "propose", qid, round: v.spec.T, page,
      text: `Propose the adversary's move ${v.spec.T + 1} on your own board.` });
  }

  receive(type, m) {
    if (type === "ended" || type === "left") { this.shown = null; this.game.clear(); }
    if (type === "question" && m.kind === "propose") { this.mine = this.note = null; this.shown = null; this.game.clear(); }
    if (type === "question" && m.kind === "propose" && !this.lecturer && this.proposing())
      this.live.textContent = `The lecturer asks the class for the adversary's move ${m.round + 1}.`;
    if (type === "voted" && this.round && m.qid === this.round.qid) { this.mine = m.answer; this.mineQid = m.qid; }
    // welcomed again (a reconnect) without this student's proposal to the same round (it never reached the store):
    // sent again
    if (type === "welcome" && !this.lecturer && this.mine && m.question && m.question.kind === "propose" &&
        m.question.qid === this.mineQid && m.question.mine !== this.mine)
      this.link.send({ type: "vote", qid: m.question.qid, answer: this.mine });
    if (type === "proposals") {
      this.shown = m;
      if (this.current) this.game.draw(m.counts || []);
      const n = (m.counts || []).length;
      this.live.textContent = `${m.answered} of ${m.joined} proposed; ${n} different ${n === 1 ? "move" : "moves"}.`;
    }
    this.render();
  }

  mount(after) {
    if (!this.link) return;
    after.after(this.box);
    this.box.after(this.live);
    this.render();
  }

  say(text) {
    this.note = text;
    this.render();
  }

  render() {
    if (!this.link) return;
    const box = this.box;
    box.replaceChildren();
    const q = this.round, shown = this.current;
    box.dataset.state = q ? "open" : shown ? "shown" : "none";
    if (this.lecturer) this.renderLecturer(box, q);
    else this.renderStudent(box, q);
    if (shown) this.renderShown(box, shown);
  }

  renderLecturer(box, q) {
    const v = this.view;
    const joined = (this.link.last("joined") || {}).n;
    if (!q) {
      box.appendChild(proposeButton("Ask the class for this move", "ask-the-class", () => this.ask()));
      return;
    }
    const answered = this.link.last("answered");
    const n = answered && answered.qid === q.qid ? answered.n : 0;
    box.appendChild(el("p", "olc-game-class-line",
      `The class proposes the adversary's move ${q.round + 1}: ${n} of ${typeof joined === "number" ? joined : "?"} ` +
      "proposed."));
    box.appendChild(proposeButton("Show the proposals", "show-the-proposals",
      () => this.link.send({ type: "show", qid: q.qid })));
    box.appendChild(proposeButton("Cancel", "cancel-the-proposals", () => this.link.send({ type: "close", qid: q.qid })));
    if (v.spec && v.spec.T !== q.round) box.appendChild(el("p", "olc-game-class-line", "Your board has moved on since you asked."));
  }

  renderStudent(box, q) {
    if (!q) return;
    const line = this.proposing()
      ? (this.mine ? `Your proposal: ${this.game.describe(this.mine)} (you can change it until the lecturer shows ` +
        "the proposals)." : `The lecturer asks the class for the adversary's move ${q.round + 1}: make it on your ` +
        "board — it is sent as your proposal, not played.")
      : `The lecturer asks the class for the adversary's move ${q.round + 1}: follow the lecturer (and its board) to ` +
        "propose one.";
    box.appendChild(el("p", "olc-game-class-line", this.note && this.proposing() ? this.note : line));
  }

  // The proposals shown: the most proposed first, each with its count (and, for the lecturer, a Play button).
  renderShown(box, m) {
    const counts = m.counts || [];
    box.appendChild(el("p", "olc-game-class-line", `The class's proposals: ${m.answered} of ${m.joined} proposed` +
      (counts.length ? `, ${counts.length} different ${counts.length === 1 ? "move" : "moves"} (drawn on the board).`
        : ".")));
    const list = el("ol", "olc-game-class-list");
    for (const [id, n] of counts.slice(0, PROPOSE_LIST)) {
      const item = el("li", "olc-game-class-item");
      item.dataset.move = id;
      const why = this.game.refusal(id);
      item.appendChild(el("span", "", `${this.game.describe(id)}: ${n} ${n === 1 ? "student" : "students"}` +
        (why ? ` (not admissible now: ${why})` : "")));
      if (this.lecturer && !why) item.appendChild(proposeButton("Play", "play-this", () => this.play(id)));
      list.appendChild(item);
    }
    if (counts.length > PROPOSE_LIST) list.appendChild(el("li", "olc-game-class-item", `… and ${counts.length - PROPOSE_LIST} more`));
    box.appendChild(list);
    const sum = this.game.summary ? this.game.summary(counts) : "";
    if (sum) box.appendChild(el("p", "olc-game-class-line", sum));
    const best = counts.find(([id]) => !this.game.refusal(id));
    if (this.lecturer && best)
      box.appendChild(proposeButton("Play the most popular", "play-the-most-popular", () => this.play(best[0])));
  }

  play(id) {
    this.shown = null;
    this.game.clear();
    this.render();
    this.game.play(id);
  }

  destroy() {
    for (const off of this.offs) off();
    this.offs = [];
    this.box.remove();
    this.live.remove();
  }
}
