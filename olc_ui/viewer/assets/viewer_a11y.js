// olc step viewer: the charts for a student who cannot see them (issue 23 §3, docs/accessibility.md).
// Methods of the Viewer (mixed into its prototype by viewer.js); `this` is the viewer.
//
// - Each chart's plotly div is role="img" with an accessible name (its describe.name and the round) and
//   aria-describedby pointing at a visually hidden description that follows the round: the figure's
//   `describe` template filled like the caption (Python decided the values; this only selects the
//   current entry and formats it with viewer_format.js).
// - "Data at this round": a disclosure button under each chart's title opening a real <table> of the
//   describe's rows (caption, th scope), updated with the round while open.
// - Announcements: the caption is not a live region (during Play it changed 10+ times a second); a
//   visually hidden status region says the caption once stepping settles (a pause, a click, the end of
//   a held key), and during Play only a mistake, at most once every ANNOUNCE_PLAY_MS.
// - roundText(p): the scrubber's aria-valuetext ("round 37 of 200, 5 mistakes").

import { el, upperBound } from "./viewer_util.js";

const SETTLE_MS = 300;            // stepping has paused this long: announce where we are
const ANNOUNCE_PLAY_MS = 2000;    // during Play: at most one mistake announcement this often
const DESCRIBE_PLAY_MS = 250;     // during Play the descriptions are refreshed this often (nobody reads faster)
let UID = 0;

export class A11yMethods {
  // the spec's value sources with their references resolved: {"array": name} -> data; {"caption": name} -> the
  // caption's own value source (its fmt may be overridden), so that a number the caption has is sent once
  describeValues(desc) {
    const out = {};
    const cap = (this.spec && this.spec.caption && this.spec.caption.values) || {};
    for (const [name, given] of Object.entries((desc && desc.values) || {})) {
      let src = given;
      if (src && typeof src.caption === "string") {
        const { caption, ...rest } = src;
        src = { ...(cap[caption] || {}), ...rest };
      }
      out[name] = src && typeof src.array === "string" ? { ...src, data: this.arrays[src.array] || [] } : src;
    }
    return out;
  }

  // Called by buildDom for each figure box: name, description, data disclosure.
  buildFigureA11y(f, titleEl) {
    const desc = f.spec.describe;
    const uid = `olc-fig-${++UID}`;
    f.a11y = { desc, values: this.describeValues(desc), last: null, lastAt: -Infinity };
    f.gd.setAttribute("role", "img");
    f.a11y.descEl = el("p", "olc-sr-only");
    f.a11y.descEl.id = `${uid}-desc`;
    f.gd.setAttribute("aria-describedby", f.a11y.descEl.id);
    f.box.appendChild(f.a11y.descEl);
    if (!desc || !(desc.table || []).length) return;
    const toggle = el("button", "olc-data-toggle", "Data at this round");
    toggle.type = "button";
    toggle.setAttribute("aria-expanded", "false");
    toggle.setAttribute("aria-controls", `${uid}-data`);
    toggle.dataset.control = "data";
    const wrap = el("div", "olc-data");
    wrap.id = `${uid}-data`;
    wrap.hidden = true;
    const table = el("table", "olc-data-table");
    const caption = el("caption");
    const head = el("thead"), hr = el("tr");
    for (const h of ["Quantity", "Value"]) {
      const th = el("th", null, h);
      th.scope = "col";
      hr.appendChild(th);
    }
    head.appendChild(hr);
    const body = el("tbody");
    f.a11y.cells = desc.table.map(([label, name]) => {
      const tr = el("tr"), th = el("th", null, label), td = el("td");
      th.scope = "row";
      td.dataset.value = name;
      tr.append(th, td);
      body.appendChild(tr);
      return { name, td };
    });
    table.append(caption, head, body);
    wrap.appendChild(table);
    Object.assign(f.a11y, { toggle, wrap, caption });
    toggle.addEventListener("click", () => {
      const open = toggle.getAttribute("aria-expanded") !== "true";
      toggle.setAttribute("aria-expanded", open ? "true" : "false");
      wrap.hidden = !open;
      if (open) this.renderFigureTable(f, this.p, this.k());
    });
    (titleEl || f.box).insertBefore(toggle, (titleEl || f.box).firstChild);
    f.box.insertBefore(wrap, f.a11y.descEl);
  }

  // Until the server sends the run again (a move of the adversary game drawn in the browser: viewer_game.js), a
  // description says so rather than read values Python has not computed for the new round yet.
  holdDescriptions(text) {
    for (const f of this.figs || []) {
      if (!f.a11y) continue;
      const name = (f.a11y.desc && f.a11y.desc.name) || f.spec.title || f.spec.id;
      f.a11y.desc = { name, template: `${name} at round {t} of {T}: ${text}`, values: {}, table: [] };
      f.a11y.values = {};
      f.a11y.last = null;
      for (const c of f.a11y.cells || []) c.td.textContent = "—";
      f.a11y.cells = [];
    }
  }

  buildAnnouncer() {
    this.announceEl = el("div", "olc-sr-only olc-announce");
    this.announceEl.setAttribute("role", "status");
    this.announceEl.setAttribute("aria-live", "polite");
    this.announced = { at: -Infinity, playAt: -Infinity, mistakes: null, quiet: true };  // quiet: not on the first draw
    return this.announceEl;
  }

  figureName(f, p) {
    const d = f.a11y && f.a11y.desc;
    const name = (d && d.name) || f.spec.title || f.spec.id;
    return `${name}, round ${p} of ${this.T}`;
  }

  describeText(f, p, k) {
    const d = f.a11y.desc;
    if (!d) return `${f.spec.title || f.spec.id} at round ${p} of ${this.T}.`;
    const tpl = p === 0 && d.start ? d.start : d.template;
    return this.fill(tpl, f.a11y.values, p, k, false);
  }

  renderFigureTable(f, p, k) {
    const a = f.a11y;
    if (!a || !a.cells || a.wrap.hidden) return;
    a.caption.textContent = `${(a.desc && a.desc.name) || f.spec.title || f.spec.id}: data at round ${p} of ${this.T}`;
    for (const c of a.cells) {
      const text = this.fill(`{${c.name}}`, a.values, p, k, false);
      if (c.td.textContent !== text) c.td.textContent = text;
    }
  }

  // every render: names, descriptions, open tables (throttled during Play), and the announcer
  renderA11y(p, k) {
    const now = performance.now();
    for (const f of this.figs || []) {
      const a = f.a11y;
      if (!a) continue;
      if (this.playing && now - a.lastAt < DESCRIBE_PLAY_MS) continue;
      a.lastAt = now;
      f.gd.setAttribute("aria-label", this.figureName(f, p));
      const text = this.describeText(f, p, k);
      if (text !== a.last) { a.descEl.textContent = text; a.last = text; }
      this.renderFigureTable(f, p, k);
    }
    this.scheduleAnnounce(p);
  }

  // ------------------------------------------------------------------ announcements
  mistakesUpTo(p) { return upperBound(this.mistakes || [], p - 1); }

  roundText(p) {
    const m = this.mistakesUpTo(p);
    return p === 0 ? `round 0 of ${this.T}, nothing seen yet`
      : `round ${p} of ${this.T}, ${m} ${m === 1 ? "mistake" : "mistakes"}`;
  }

  say(text) {
    if (!this.announceEl) return;
    this.announceEl.textContent = text;
    this.announced.at = performance.now();
    this.announceCount = (this.announceCount || 0) + 1;  // for tests
    this.root.dataset.announcements = String(this.announceCount);
  }

  scheduleAnnounce(p) {
    if (!this.announceEl) return;
    const m = this.mistakesUpTo(p);
    if (this.playing) {
      const isNew = this.announced.mistakes !== null && m > this.announced.mistakes;
      if (isNew && performance.now() - this.announced.playAt >= ANNOUNCE_PLAY_MS) {
        this.announced.playAt = performance.now();
        this.say(`Mistake at round ${this.mistakes[m - 1] + 1} of ${this.T}; ${m} ${m === 1 ? "mistake" : "mistakes"} so far.`);
      }
      this.announced.mistakes = m;
    }
    if (this.settleTimer) clearTimeout(this.settleTimer);
    const settle = () => {
      this.settleTimer = null;
      if (this.playing) { this.settleTimer = setTimeout(settle, SETTLE_MS); return; }  // waits for the pause
      this.renderA11yNow();
      this.announced.mistakes = this.mistakesUpTo(this.p);
      this.announced.playAt = -Infinity;  // the next Play announces its first mistake at once
      if (this.announced.quiet) { this.announced.quiet = false; return; }
      const cap = this.captionEl ? this.captionEl.textContent : "";
      this.say(cap || this.roundText(this.p));
    };
    this.settleTimer = setTimeout(settle, SETTLE_MS);
  }

  // the descriptions at the position on screen, unthrottled (after Play stops)
  renderA11yNow() {
    const p = this.p, k = this.k();
    for (const f of this.figs || []) {
      if (!f.a11y) continue;
      f.a11y.lastAt = -Infinity;
      f.gd.setAttribute("aria-label", this.figureName(f, p));
      const text = this.describeText(f, p, k);
      if (text !== f.a11y.last) { f.a11y.descEl.textContent = text; f.a11y.last = text; }
      this.renderFigureTable(f, p, k);
    }
  }

  destroyA11y() {
    if (this.settleTimer) { clearTimeout(this.settleTimer); this.settleTimer = null; }
  }
}
