// olc step viewer: the class session (a mode module: viewer_modes.js) and the document's one connection.
//
// docs/class-session.md is the contract. Python (olc_ui/shared/class_session.py) turns the mode on with
// modes = {"class": {code, role, key (the lecturer's own session only), ws, join, qr, reach, page, query}}.
// - classLink(): the document's one connection to the push endpoint (<baseUrlPath>/olc-class/ws), kept
//   across the viewer's rebuilds and Streamlit's page switches; it reconnects with a back-off (0.5 s … 5 s)
//   and catches up on `welcome`. It answers the hub's heartbeat (`ping` → `pong`: the hub counts only
//   connections that answer) and watches it: nothing from the hub for CLASS_STALL_BEATS beats (`welcome.beat`
//   seconds each) is a stalled connection — closed, said "reconnecting", opened again. While the browser is
//   offline (navigator.onLine false) it opens none and waits for the `online` event, still "reconnecting". A wake
//   (the once-a-second watch did not run for CLASS_WAKE_GAP_MS: the device slept) or the tab shown again asks the hub
//   at once (`ping`; no answer in CLASS_WAKE_PROBE_MS: a new connection), or reconnects at once if it was down.
//   Other modules (the questions, viewer_predict.js) use only its surface:
//   role, connected, send(msg), on(type, fn) -> off, last(type), following.
// - The lecturer: every render, step, Play/Pause and new run sends `state`; the panel at the top of the
//   viewer shows the code (large), the QR code and the join link, the number joined, "All eyes here" /
//   "Release" and "End the session".
// - A student follows: the lecturer's round is set in the browser (no rerun); another run of the same page
//   asks Python once for the lecturer's settings (setStateValue("class_settings", …): one rerun); another
//   page is opened. Their own step, slider or page switch turns on "exploring on my own"; "Back to the
//   lecturer" applies the lecturer's last state; "all eyes here" refuses their own steps.
// The lecturer's key lives in this tab's sessionStorage (a reload stays the lecturer), never in a URL.
// All text is set with textContent.

import { registerMode } from "./viewer_modes.js";
import { clamp, el } from "./viewer_util.js";

export const CLASS_LECTURER_ONLY = new Set(["state", "open", "reveal", "close", "show", "eyes", "end"]);
export const CLASS_STUDENT_ONLY = new Set(["vote", "leave"]);
export const CLASS_EXCLUDED = ["t", "class", "present", "hide", "sound", "tour", "stop", "tourdata"];
const CLASS_KEPT = new Set(["state", "question", "tally", "eyes", "joined", "answered", "reveal", "voted",
  "welcome", "ended", "error", "refused", "proposals"]);
export const CLASS_BACKOFF_MS = [500, 5000];   // reconnect: first wait, longest wait
const CLASS_BEAT_S = 5;                        // the hub's heartbeat until `welcome` says its own
export const CLASS_STALL_BEATS = 3;            // this many beats with nothing from the hub: the connection stalled
export const CLASS_WAKE_GAP_MS = 4000;         // the watch (every second) did not run for this long: the device slept
export const CLASS_WAKE_PROBE_MS = 3000;       // after a wake the hub has this long to answer a ping, else a new socket
const CLASS_PLAY_SEND_MS = 100;                // while playing, `state` at most this often
const CLASS_BRIDGE_WAIT_MS = 5000;             // the settings bridge's rerun: how long to wait for the new run
const CLASS_BRIDGE_TRIES = 3;                  // asks for one query while the page does not run it
const CLASS_RELEASE_MS = 10000;                // no viewer in class mode for this long: the connection closes
const CLASS_PAGE_RE = /^[A-Za-z0-9_-]{0,64}$/;
const CLASS_EYES_NOTE = "All eyes on the lecturer: your own steps and settings wait until the lecturer releases the class.";
const CLASS_SIDEBAR = '[data-testid="stSidebarUserContent"] [data-testid="stVerticalBlock"]';

let CLASS_LINK = null;

// This tab's role on the document (`data-olc-class-role`): the sidebar shows the sentence written for it (viewer.css;
// Python draws both where it cannot know the role: a lecturer's reloaded tab is a student's Streamlit session).
function classMarkRole(role) {
  const d = typeof document !== "undefined" && document.documentElement;
  if (!d) return;
  if (role) d.dataset.olcClassRole = role; else delete d.dataset.olcClassRole;
}

function classGet(name) { try { return window.sessionStorage.getItem(name); } catch (e) { return null; } }
function classPut(name, value) {
  try { if (value === null) window.sessionStorage.removeItem(name); else window.sessionStorage.setItem(name, value); } catch (e) { /* storage off */ }
}

// The page's settings as a query string (without t, class, present, hide, sound, a tour's stop): Python's, else the
// address bar's.
export function classQuery(query) {
  const q = new URLSearchParams(typeof query === "string" ? query : window.location.search);
  for (const k of CLASS_EXCLUDED) q.delete(k);
  for (const k of [...q.keys()]) if (k.startsWith("embed")) q.delete(k);
  return q.toString();
}

// False only when the browser knows it has no network (navigator.onLine): a WebSocket opened then fails at once, and
// Chromium logs the failure as a console error of its own. Then the link waits for the `online` event instead.
function classOnline() {
  return typeof navigator === "undefined" || navigator.onLine !== false;
}

class ClassLink {
  constructor(o) {
    this.code = String(o.code);
    this.ws = String(o.ws || "/olc-class/ws");
    if (typeof o.key === "string" && o.key) classPut("olc-class-key:" + this.code, o.key);
    this.key = (typeof o.key === "string" && o.key) || classGet("olc-class-key:" + this.code);
    this.role = this.key ? "lecturer" : "student";
    classMarkRole(this.role);
    this.connected = false;
    this.closed = false;       // ended, refused with an error, or left: no reconnect
    this.handlers = new Map();
    this.kept = new Map();
    this.queue = [];
    this.delay = CLASS_BACKOFF_MS[0];
    this.users = 0;
    this.page = null;          // the page the last class-mode viewer of this document was on
    this.lastRun = null;       // the run this document's viewer last showed (a student's own change: explore)
    this.bridged = null;       // the lecturer's query last asked for through the settings bridge
    this.bridgeAt = -Infinity;
    this.bridgeTries = 0;
    this.following = classGet("olc-class-follow:" + this.code) !== "0";
    this.socket = null;
    this.retryTimer = null;
    this.beat = CLASS_BEAT_S;
    this.heardAt = performance.now();
    this.tickAt = Date.now();  // the watch's last run, on the wall clock (performance.now() may stand still in a sleep)
    this.probeAt = null;       // a wake's ping, waiting for the hub's answer
    this.watch = setInterval(() => this.checkStall(), 1000);
    this.onOnline = () => { if (!this.connected && !this.closed) { this.delay = CLASS_BACKOFF_MS[0]; this.reconnectNow(); } };
    this.onVisible = () => { if (typeof document !== "undefined" && document.visibilityState === "visible") this.wake(); };
    window.addEventListener("online", this.onOnline);
    if (typeof document !== "undefined") document.addEventListener("visibilitychange", this.onVisible);
    // the page's "Leave the class session" (a Streamlit button): the class mode that goes next is a leave
    this.onLeaveClick = (ev) => {
      if (ev.target && typeof ev.target.closest === "function" && ev.target.closest(".st-key-olc_class_leave")) this.leaving = true;
    };
    if (typeof document !== "undefined") document.addEventListener("click", this.onLeaveClick, true);
    this.connect();
  }

  connect() {
    if (this.closed || !classOnline()) return;    // offline: the `online` event connects (onOnline)
    let url;
    try {
      url = new URL(this.ws, window.location.href);
      url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
    } catch (e) { return; }
    let s;
    try { s = new WebSocket(url.href); } catch (e) { this.retry(); return; }
    this.socket = s;
    s.onopen = () => {
      const hello = { type: "hello", code: this.code };
      if (this.role === "lecturer") hello.key = this.key;
      else { const sid = classGet("olc-class-sid:" + this.code); if (sid) hello.sid = sid; }
      s.send(JSON.stringify(hello));
    };
    this.heardAt = performance.now();
    s.onmessage = (ev) => {
      if (this.socket !== s) return;
      this.heardAt = performance.now();
      let msg;
      try { msg = JSON.parse(ev.data); } catch (e) { return; }
      if (msg && msg.type === "ping") { this.rawSend({ type: "pong" }); return; }
      if (msg && typeof msg === "object" && typeof msg.type === "string") this.receive(msg);
    };
    s.onclose = () => {
      if (this.socket !== s) return;
      this.socket = null;
      this.connected = false;
      this.emit({ type: "connection", connected: false });
      this.retry();
    };
    s.onerror = () => { /* onclose follows */ };
  }

  retry() {
    if (this.closed || this.retryTimer || !classOnline()) return;   // offline: wait for the `online` event
    const wait = this.delay;
    this.delay = Math.min(CLASS_BACKOFF_MS[1], this.delay * 2);
    this.retryTimer = setTimeout(() => { this.retryTimer = null; this.connect(); }, wait);
  }

  // A socket that says nothing for CLASS_STALL_BEATS beats (a network that dropped without a close, a laptop
  // that slept): not connected any more — say so ("reconnecting", never "following") and open a new one.
  // A wake (the watch did not run for CLASS_WAKE_GAP_MS of wall-clock time: a phone that slept, a frozen tab; a
  // sleeping device's performance.now() may not advance, so the beats alone would not see it) asks the hub at once.
  checkStall() {
    const now = Date.now(), gap = now - this.tickAt;
    this.tickAt = now;
    if (this.closed) return;
    if (gap > CLASS_WAKE_GAP_MS) { this.wake(); return; }
    if (this.probeAt !== null) {
      if (this.heardAt >= this.probeAt) this.probeAt = null;
      else if (performance.now() - this.probeAt > CLASS_WAKE_PROBE_MS) { this.probeAt = null; this.lost(); return; }
    }
    if (!this.socket) return;
    if (performance.now() - this.heardAt <= CLASS_STALL_BEATS * this.beat * 1000 + 1000) return;
    this.lost();
  }

  // Woken (or the tab shown again): a connection that is up is asked (`ping`; no answer within CLASS_WAKE_PROBE_MS:
  // a new one); one that was down or waiting for its back-off is opened now.
  wake() {
    if (this.closed) return;
    if (!this.connected) {
      if (classOnline()) { this.delay = CLASS_BACKOFF_MS[0]; this.reconnectNow(); }
      return;
    }
    this.probeAt = performance.now();
    if (!this.rawSend({ type: "ping" })) { this.probeAt = null; this.lost(); }
  }

  lost() {
    const was = this.connected;
    this.connected = false;
    this.stalled = true;
    if (was) this.emit({ type: "connection", connected: false });
    this.reconnectNow();
  }

  reconnectNow() {
    if (this.retryTimer) { clearTimeout(this.retryTimer); this.retryTimer = null; }
    if (this.socket) { const s = this.socket; this.socket = null; s.onclose = null; try { s.close(); } catch (e) { /* gone */ } }
    this.connect();
  }

  receive(msg) {
    if (msg.type === "welcome") return this.welcome(msg);
    if (msg.type === "ended") this.ended = true;
    if (msg.type === "error" || msg.type === "ended") this.stop();
    if (msg.type === "eyes") this.eyes = msg.on === true;
    if (msg.type === "ended") this.eyes = false;
    if (msg.type === "closed" || msg.type === "reveal" || msg.type === "proposals") {   // a later reader must not adopt a question that is over
      const q = this.kept.get("question");
      if (q && q.qid === msg.qid) this.kept.delete("question");
    }
    if (CLASS_KEPT.has(msg.type)) this.kept.set(msg.type, msg);
    this.emit(msg);
  }

  welcome(msg) {
    this.connected = true;
    this.stalled = false;
    if (typeof msg.beat === "number" && msg.beat > 0) this.beat = msg.beat;
    this.delay = CLASS_BACKOFF_MS[0];
    if (msg.role === "lecturer" || msg.role === "student") this.role = msg.role;
    classMarkRole(this.role);
    if (typeof msg.sid === "string" && msg.sid) classPut("olc-class-sid:" + this.code, msg.sid);
    if (msg.state && typeof msg.state === "object") this.kept.set("state", { ...msg.state, type: "state" });
    if (typeof msg.joined === "number") this.kept.set("joined", { type: "joined", n: msg.joined });
    this.eyes = msg.eyes === true;
    this.kept.set("eyes", { type: "eyes", on: this.eyes });
    if (msg.question && typeof msg.question === "object") this.kept.set("question", { ...msg.question, type: "question" });
    else this.kept.delete("question");
    if (msg.tally !== undefined && msg.tally !== null)
      this.kept.set("tally", Array.isArray(msg.tally) ? { type: "tally", rows: msg.tally } : { ...msg.tally, type: "tally" });
    this.kept.set("welcome", msg);
    const queued = this.queue;
    this.queue = [];
    for (const m of queued) this.send(m);
    this.emit(msg);
  }

  emit(msg) {
    for (const fn of [...(this.handlers.get(msg.type) || [])]) {
      try { fn(msg); } catch (e) { console.warn("olc class:", e); }
    }
  }

  rawSend(msg) {
    if (!this.socket || this.socket.readyState !== 1) return false;
    try { this.socket.send(JSON.stringify(msg)); return true; } catch (e) { return false; }
  }

  // Queued while reconnecting (a newer `state` replaces a queued one); dropped if this role may not send it.
  send(msg) {
    if (!msg || typeof msg.type !== "string" || this.closed) return false;
    if (this.role === "student" && CLASS_LECTURER_ONLY.has(msg.type)) return false;
    if (this.role === "lecturer" && CLASS_STUDENT_ONLY.has(msg.type)) return false;
    if (this.connected && this.rawSend(msg)) return true;
    if (msg.type === "state") this.queue = this.queue.filter((m) => m.type !== "state");
    if (msg.type !== "ping" && this.queue.length < 200) this.queue.push(msg);
    return false;
  }

  on(type, fn) {
    if (!this.handlers.has(type)) this.handlers.set(type, new Set());
    this.handlers.get(type).add(fn);
    return () => { const set = this.handlers.get(type); if (set) set.delete(fn); };
  }

  last(type) { return this.kept.get(type) || null; }

  setFollowing(on) {
    this.following = on;
    classPut("olc-class-follow:" + this.code, on ? "1" : "0");
  }

  // Another module (the questions' "Answer") asks to follow the lecturer again: the class mode does it.
  backToLecturer() { if (this.role === "student" && !this.closed) this.emit({ type: "follow" }); }

  // The student leaves the session (the page's "Leave the class session"): `leave` to the server, no reconnect,
  // `class` out of the address bar, this tab's class storage forgotten; modules hear a local `left`.
  leave() {
    if (this.left) return;
    this.left = true;
    if (this.role === "student" && this.connected) this.rawSend({ type: "leave" });
    this.stop();
    for (const k of ["sid", "follow", "nav"]) classPut(`olc-class-${k}:${this.code}`, null);
    try {
      const url = new URL(window.location.href);
      if (url.searchParams.get("class") === this.code) {
        url.searchParams.delete("class");
        window.history.replaceState(window.history.state, "", url.href);
      }
    } catch (e) { /* no history */ }
    this.emit({ type: "left" });
    this.dispose();
  }

  stop() {
    this.closed = true;
    this.connected = false;
    if (this.retryTimer) { clearTimeout(this.retryTimer); this.retryTimer = null; }
    if (this.socket) { const s = this.socket; this.socket = null; s.onclose = null; try { s.close(); } catch (e) { /* gone */ } }
  }

  attach() { this.users += 1; if (this.releaseTimer) { clearTimeout(this.releaseTimer); this.releaseTimer = null; } }

  release() {
    this.users = Math.max(0, this.users - 1);
    if (this.users > 0 || this.releaseTimer) return;
    this.releaseTimer = setTimeout(() => { this.releaseTimer = null; if (this.users === 0) this.dispose(); }, CLASS_RELEASE_MS);
  }

  dispose() {
    this.stop();
    clearInterval(this.watch);
    classMarkRole(null);
    window.removeEventListener("online", this.onOnline);
    if (typeof document !== "undefined") document.removeEventListener("visibilitychange", this.onVisible);
    if (typeof document !== "undefined") document.removeEventListener("click", this.onLeaveClick, true);
    if (CLASS_LINK === this) CLASS_LINK = null;
  }
}

// The document's one connection, or null outside a class session.
export function classLink() { return CLASS_LINK; }

function classEnsureLink(o) {
  if (CLASS_LINK && (CLASS_LINK.code !== String(o.code) || (o.key && CLASS_LINK.key !== o.key))) CLASS_LINK.dispose();
  if (!CLASS_LINK) CLASS_LINK = new ClassLink(o);
  return CLASS_LINK;
}

// For tests (tests/ui, under node): the link's class without a socket.
export const _classTesting = { ClassLink, classQuery };

// A tour's stop ({id, stop}) as one string ("" off a tour): the lecturer's and the student's are compared.
export function classTourKey(tour) {
  return tour && typeof tour === "object" && typeof tour.id === "string" ? `${tour.id}#${Number(tour.stop) || 0}` : "";
}

// The tour's stop this viewer shows (viewer_tour.js's tourHere()), or null.
function classTourOf(view) {
  for (const m of view.modes || []) if (m && typeof m.tourHere === "function") return m.tourHere();
  return null;
}

function classButton(text, control, onClick) {
  const b = el("button", "olc-btn olc-class-btn", text);
  b.type = "button";
  b.dataset.control = control;
  b.addEventListener("click", onClick);
  return b;
}

class ClassMode {
  constructor(view, o) {
    this.view = view;
    this.o = o;
    this.page = CLASS_PAGE_RE.test(String(o.page || "")) ? String(o.page || "") : "";
    this.link = classEnsureLink(o);
    this.link.attach();
    const link = this.link;
    // a student who switched pages on their own (not opened by following) explores
    const target = classGet("olc-class-nav:" + link.code);
    classPut("olc-class-nav:" + link.code, null);
    if (link.role === "student" && link.page !== null && link.page !== this.page && target !== this.page && !link.eyes)
      link.setFollowing(false);
    link.page = this.page;
    this.sentKey = null;
    this.sentAt = -Infinity;
    this.sendTimer = null;
    this.offs = ["welcome", "state", "joined", "eyes", "ended", "error", "refused", "connection", "follow"]
      .map((type) => link.on(type, (msg) => this.onMessage(msg)));
    this.playObserver = new MutationObserver(() => this.sendState(true));
    this.playObserver.observe(view.root, { attributes: true, attributeFilter: ["data-playing"] });
  }

  get lecturer() { return this.link.role === "lecturer"; }

  // ------------------------------------------------------------ hooks
  onBuild() {
    this.view.root.classList.add("olc-class-on");
    this.buildPanel();
  }

  onReady() {
    const v = this.view, link = this.link;
    if (this.lecturer) { this.sendState(true); return; }
    const run = String(v.runId);
    const bridging = performance.now() - link.bridgeAt < CLASS_BRIDGE_WAIT_MS;
    // the page now runs the settings the bridge asked for (it may land after the bridge's window)
    const bridged = link.bridged !== null && classQuery(this.o.query) === link.bridged;
    const s = link.last("state");
    // a new run that neither the bridge nor the lecturer asked for: the student changed a setting
    if (link.following && !bridging && !bridged && link.lastRun !== null && run !== link.lastRun && s &&
        String(s.run) !== run) {
      if (link.eyes) link.bridged = null; else { link.setFollowing(false); link.bridged = null; }
    }
    // the bridge's rerun landed: follow the lecturer's latest state (bridging again if it moved on meanwhile)
    if (bridging && (bridged || (link.lastRun !== null && run !== link.lastRun) || (s && String(s.run) === run)))
      link.bridgeAt = -Infinity;
    link.lastRun = run;
    this.render();
    this.applyEyes();
    this.follow(s);
  }

  // A student's own move to another stop of the tour (PageDown, the bar's Next, Back): refused while "all eyes
  // here" is on; else the student explores on their own (the lecturer's stops are followed again with "Back to the
  // lecturer" or "All eyes here").
  beforeTour() {
    if (this.lecturer || this.link.closed) return undefined;
    if (this.link.eyes) { this.say(CLASS_EYES_NOTE); return false; }
    if (this.link.following) { this.link.setFollowing(false); this.render(true); }
    return undefined;
  }

  // Options taken in place (a tour's stop: viewer_tour.js): the lecturer says where it is now; a student, following,
  // sees whether the lecturer's stop is now on screen.
  onModes() {
    if (this.lecturer) { this.sendState(true); return; }
    if (this.link.following) this.follow(this.link.last("state"));
  }

  beforeStep() {
    if (this.lecturer || this.link.closed) return undefined;
    this.applyEyes();
    if (this.link.eyes) {
      this.view.pause(false);
      this.say(CLASS_EYES_NOTE);
      return false;
    }
    if (this.link.following) { this.link.setFollowing(false); this.render(true); }
    return undefined;
  }

  onRender() { if (this.lecturer) this.sendState(false); else this.applyEyes(); }

  // "All eyes here": a student's own step buttons and slider are disabled (aria-disabled: the core's clicks
  // check it; the keys are refused in beforeStep with the note); released, the core's own states come back.
  applyEyes() {
    const v = this.view;
    if (this.lecturer || !v.root) return;
    const held = this.link.eyes === true && !this.link.closed;
    this.holdSidebar(held);
    const bar = v.root.querySelector(".olc-controls");
    if (!bar) return;
    if (held) {
      for (const b of bar.querySelectorAll("button, input[type=range]")) b.setAttribute("aria-disabled", "true");
      bar.dataset.held = "true";
    } else if (bar.dataset.held === "true") {
      delete bar.dataset.held;
      const range = bar.querySelector("input[type=range]");
      if (range) range.removeAttribute("aria-disabled");
      if (typeof v.renderControls === "function") v.renderControls();
    }
  }

  // … and the sidebar's settings (and lesson menu): a setting changed under "all eyes" made the student's own run,
  // drawn until the settings bridge brought the lecturer's back (one rerun, about half a second). Each block of the
  // sidebar but the class session's own (Leave) is inert while held, blocks a rerun adds too.
  holdSidebar(held) {
    const block = document.querySelector(CLASS_SIDEBAR);
    if (this.sideObserver) { this.sideObserver.disconnect(); this.sideObserver = null; }
    if (!block) return;
    const apply = () => {
      for (const c of block.children) {
        const own = c.matches(".st-key-olc_class_side") || c.querySelector(".st-key-olc_class_side");
        if (held && !own) { if (!c.inert) c.inert = true; c.dataset.olcHeld = "true"; }
        else if (c.dataset.olcHeld) { c.inert = false; delete c.dataset.olcHeld; }
      }
    };
    apply();
    if (held && typeof MutationObserver !== "undefined") {
      this.sideObserver = new MutationObserver(apply);
      this.sideObserver.observe(block, { childList: true });
    }
  }

  destroy() {
    this.holdSidebar(false);
    for (const off of this.offs) off();
    this.offs = [];
    this.playObserver.disconnect();
    if (this.sendTimer) clearTimeout(this.sendTimer);
    if (this.retryTimer) clearTimeout(this.retryTimer);
    if (this.panel) this.panel.remove();
    if (this.qrLarge) this.qrLarge.remove();
    const v = this.view, link = this.link;
    v.root.classList.remove("olc-class-on");
    const bar = v.root.querySelector(".olc-controls");
    if (bar && bar.dataset.held === "true") { delete bar.dataset.held; if (typeof v.renderControls === "function") v.renderControls(); }
    link.release();
    // The same viewer, rebuilt without the class mode: the page left the class session ("Leave the class
    // session" in the sidebar). A page switch unmounts the viewer instead (the next page's viewer attaches). Rebuilt
    // so while nobody pressed Leave and the session goes on: this page's Streamlit session is new (its process died,
    // the page moved to another one) and does not know the class session: Python is asked to join it again
    // (class_session._rejoin; the lecturer stays the lecturer by its key).
    setTimeout(() => {
      if (!(v.root && v.root.isConnected && Array.isArray(v.modes) && !v.modes.some((m) => m instanceof ClassMode) &&
          link.users === 0 && !link.left)) return;
      if (link.leaving || link.closed || typeof v.setStateValue !== "function") link.leave();
      else v.setStateValue("class_settings", { rejoin: link.code });
    }, 0);
  }

  // ------------------------------------------------------------ the lecturer
  sendState(now) {
    const v = this.view;
    if (!this.lecturer || v.T === undefined || v.runId === null) return;
    let asking = null;
    for (const m of v.modes) if (m && m !== this && typeof m.asking === "number") asking = m.asking;
    const msg = { type: "state", page: this.page, query: classQuery(this.o.query), run: String(v.runId),
      position: v.p, playing: v.playing === true, asking, tour: classTourOf(v) };
    const key = JSON.stringify(msg);
    if (key === this.sentKey) return;
    const wait = CLASS_PLAY_SEND_MS - (performance.now() - this.sentAt);
    if (v.playing && !now && wait > 0) {
      if (!this.sendTimer) this.sendTimer = setTimeout(() => { this.sendTimer = null; this.sendState(true); }, wait);
      return;
    }
    if (this.sendTimer) { clearTimeout(this.sendTimer); this.sendTimer = null; }
    this.sentKey = key;
    this.sentAt = performance.now();
    this.link.send(msg);
  }

  // ------------------------------------------------------------ a student
  // Apply the lecturer's state `s` while following: the round in the browser, the settings through one
  // rerun, another page by opening it; a run that stays different after the bridge: the round number only.
  follow(s) {
    const v = this.view, link = this.link;
    if (this.lecturer || !s || !link.following || v.T === undefined) return;
    const page = String(s.page || "");
    if (page !== this.page) { if (CLASS_PAGE_RE.test(page)) this.open(page, s.query, s.tour, s.position); return; }
    const query = typeof s.query === "string" ? s.query : "";
    // the same run and the same settings (or the bridge already tried them: a setting that changes no run,
    // such as predict-then-reveal, travels through the bridge once)
    const sameRun = String(s.run) === String(v.runId);
    if (sameRun && (query === classQuery(this.o.query) || link.bridged === query)) {
      this.mismatch = false; this.show(s.position); this.followTour(s, query); return;
    }
    const wait = CLASS_BRIDGE_WAIT_MS - (performance.now() - link.bridgeAt);
    if (wait > 0) {        // the rerun is on its way: onReady follows the latest state; else, at the window's end
      if (this.retryTimer) clearTimeout(this.retryTimer);
      this.retryTimer = setTimeout(() => { this.retryTimer = null; this.follow(link.last("state")); }, wait + 50);
      return;
    }
    // the bridge: once per query, again (up to CLASS_BRIDGE_TRIES) while the page does not run it yet (a rerun
    // that never came); a page that runs the lecturer's settings and still makes another run: the round only
    const here = classQuery(this.o.query) === query;
    const tries = link.bridged === query ? link.bridgeTries : 0;
    if (!here && tries < CLASS_BRIDGE_TRIES && typeof v.setStateValue === "function") {
      link.bridged = query;
      link.bridgeTries = tries + 1;
      link.bridgeAt = performance.now();
      v.setStateValue("class_settings", this.bridgeValue(s, query));
      return;
    }
    if (sameRun) { this.show(s.position); return; }
    if (!this.mismatch) {
      this.mismatch = true;
      this.say("The lecturer's run cannot be made here (their data are an upload or clicked points): " +
        "following the round number only.");
    }
    this.show(s.position);
  }

  // The settings bridge's value: the lecturer's settings, run, round and tour stop (Python: the page's widgets take
  // the settings, and the page stands for the lecturer's stop: its tour bar).
  bridgeValue(s, query) {
    const t = Math.max(0, Math.round(Number(s.position) || 0));
    return { query, run: String(s.run), at: Date.now(), tour: s.tour && typeof s.tour === "object" ? s.tour : null, t };
  }

  // The lecturer's run is on screen: their tour stop too? If not, one rerun (the bridge, with the same settings)
  // draws the lecturer's tour bar (or takes it away) on this page.
  followTour(s, query) {
    const v = this.view, link = this.link, want = classTourKey(s.tour);
    if (want === classTourKey(classTourOf(v)) || typeof v.setStateValue !== "function") return;
    if (link.tourAsked === want && performance.now() - link.tourAskedAt < CLASS_BRIDGE_WAIT_MS) return;
    link.tourAsked = want;
    link.tourAskedAt = performance.now();
    v.setStateValue("class_settings", this.bridgeValue(s, query));
  }

  show(position) {
    const v = this.view;
    const p = clamp(Math.round(Number(position) || 0), 0, v.T);
    if (v.playing) v.pause(false);
    if (p === v.p) return;
    v.p = p;                 // the core's own stepping would ask the modes (and explore): set it directly
    v.renderNow();
    v.mirrorUrl(false);
  }

  open(page, query, tour, position) {
    if (this.opening) return;
    this.opening = true;
    const base = String(this.o.ws || "/olc-class/ws").replace(/olc-class\/ws$/, "");
    const q = new URLSearchParams(classQuery(typeof query === "string" ? query : ""));
    q.set("class", this.link.code);
    if (Number.isInteger(position) && position >= 0) q.set("t", String(position));
    if (classTourKey(tour)) {          // the lecturer's tour stop: the student's page draws its bar
      q.set("tour", tour.id);
      q.set("stop", String(tour.stop));
      if (typeof tour.data === "string" && tour.data) q.set("tourdata", tour.data);
    }
    classPut("olc-class-nav:" + this.link.code, page);
    this.say("The lecturer moved to another page: opening it …");
    window.location.assign(`${base}${page}?${q.toString()}`);
  }

  setFollowing(on) {
    const link = this.link;
    link.setFollowing(on);
    link.bridged = null;
    this.mismatch = false;
    this.render(true);
    if (on) this.follow(link.last("state"));
  }

  // ------------------------------------------------------------ the panel (top of the viewer)
  buildPanel() {
    const v = this.view, o = this.o, link = this.link;
    // the class's answers (viewer_class_answers.js) may sit in the lecturer's strip on the projector: kept
    const answers = this.panel ? this.panel.querySelector(".olc-class-answers") : null;
    if (this.panel) this.panel.remove();
    if (this.qrLarge) { this.qrLarge.remove(); this.qrLarge = null; }
    this.qrBtn = null;
    this.eyesButton = this.endButton = this.endAsk = this.followButton = null;
    const panel = el("section", "olc-class");
    panel.setAttribute("aria-label", "Class session");
    panel.dataset.role = link.role;
    this.panel = panel;
    this.status = el("span", "olc-class-status");       // the live part: joined, following, the lecturer moved on
    this.status.setAttribute("aria-live", "polite");
    this.status.setAttribute("aria-atomic", "true");
    this.note = el("div", "olc-class-note");
    this.note.setAttribute("role", "status");
    this.round = el("span", "olc-class-round");            // not live: it changes on every step
    if (this.lecturer && link.ended) {
      panel.dataset.ended = "true";                 // the session is over: no code, no QR, no buttons
      panel.append(el("div", "olc-class-info"), this.note);
      panel.firstChild.append(this.status);
    } else if (this.lecturer) {
      const join = String(o.join || "");
      const info = el("div", "olc-class-info");
      const codeLine = el("div", "olc-class-codeline");
      codeLine.append(el("span", "olc-class-code-label", "Class code"), el("span", "olc-class-code", link.code));
      const a = el("a", "olc-class-join", join.replace(/^https?:\/\//, ""));
      a.href = join;
      a.target = "_blank";
      a.rel = "noopener noreferrer";
      a.setAttribute("aria-label", `Join link: ${join}`);
      info.append(codeLine, a, this.status);
      if (typeof o.qr === "string" && o.qr.startsWith("data:image/svg+xml")) panel.append(this.qrButton(o.qr, join));
      // the lecturer opened this computer's own address (127.0.0.1, localhost): what students can open instead
      this.reach = typeof o.reach === "string" && o.reach ? el("p", "olc-class-reach", o.reach) : null;
      this.eyesButton = classButton("All eyes here", "all-eyes-here", () => {
        const on = !link.eyes;
        link.send({ type: "eyes", on });
      });
      this.endButton = classButton("End the session", "end-the-session", () => this.confirmEnd(true));
      // "End the session" asks first: a second, explicit button (and Cancel, focused: Enter does no harm)
      this.endYes = classButton("Yes, end it for everyone", "yes-end-it-for-everyone", () => {
        this.confirmEnd(false);
        link.send({ type: "end" });
      });
      this.endNo = classButton("Cancel", "cancel-the-end", () => { this.confirmEnd(false); this.endButton.focus(); });
      this.endAsk = el("div", "olc-class-confirm");
      this.endAsk.setAttribute("role", "group");
      this.endAsk.setAttribute("aria-label", "End the class session for everyone?");
      this.endAsk.append(el("span", "olc-class-confirm-text", "End the class session for everyone?"), this.endYes, this.endNo);
      this.endAsk.hidden = true;
      const actions = el("div", "olc-class-actions");
      actions.append(this.eyesButton, this.endButton, this.endAsk);
      // on the projector the question's count and the reveal's distribution come here (in place of the link)
      const slot = el("div", "olc-class-slot");
      if (answers) slot.append(answers);
      panel.append(info, slot, actions, ...(this.reach ? [this.reach] : []), this.note);
    } else if (link.ended) {
      panel.dataset.ended = "true";
      const head = el("div", "olc-class-info");
      head.append(el("span", "olc-class-badge", `Class ${link.code}`), this.status);
      panel.append(head, this.note);
    } else {
      const head = el("div", "olc-class-info");
      head.append(el("span", "olc-class-badge", `Class ${link.code}`), this.status, this.round);
      this.followButton = classButton("Back to the lecturer", "back-to-the-lecturer",
        () => this.setFollowing(!link.following));
      panel.append(head, this.followButton, this.note);
    }
    const bar = v.root.querySelector(".olc-controls");
    v.root.insertBefore(panel, bar || v.root.firstChild);
    this.statusText = null;
    this.render(false);
    const s = link.last("state");
    if (s) this.renderRound(s);
  }

  // The QR code (small in presentation mode's strip) is a button: it shows the code large over the page, with the
  // class code and the link, until Close, Esc or a second press (focus goes back to the button).
  qrButton(src, join) {
    const img = el("img", "olc-class-qr");
    img.src = src;
    img.alt = `QR code of the join link ${join}`;
    const b = el("button", "olc-class-qr-btn");
    b.type = "button";
    b.dataset.control = "qr-large";
    b.setAttribute("aria-label", "Show the QR code large");
    b.setAttribute("aria-expanded", "false");
    b.append(img);
    b.addEventListener("click", () => this.showQr(!this.qrLarge));
    this.qrBtn = b;
    return b;
  }

  showQr(open) {
    if (!open) {
      if (this.qrLarge) { this.qrLarge.remove(); this.qrLarge = null; }
      if (this.qrBtn) { this.qrBtn.setAttribute("aria-expanded", "false"); if (this.qrBtn.isConnected) this.qrBtn.focus(); }
      return;
    }
    if (this.qrLarge || !this.qrBtn) return;
    const img = this.qrBtn.querySelector("img");
    const box = el("div", "olc-class-qr-large");
    box.setAttribute("role", "dialog");
    box.setAttribute("aria-label", "Join the class session");
    const big = el("img");
    big.src = img.src;
    big.alt = img.alt;
    const close = classButton("Close", "close-qr", () => this.showQr(false));
    box.append(big, el("div", "olc-class-qr-large-code", this.link.code),
      el("div", "olc-class-qr-large-link", String(this.o.join || "").replace(/^https?:\/\//, "")), close);
    box.addEventListener("keydown", (ev) => {
      if (ev.key === "Escape") { ev.preventDefault(); ev.stopPropagation(); this.showQr(false); return; }
      ev.stopPropagation();      // the viewer's keys wait while the QR code is shown
    });
    this.view.root.append(box);
    this.qrLarge = box;
    this.qrBtn.setAttribute("aria-expanded", "true");
    close.focus();
  }

  confirmEnd(ask) {
    if (!this.endAsk) return;
    this.endAsk.hidden = !ask;
    this.endButton.hidden = ask;
    if (ask) this.endNo.focus();
  }

  // The panel's state; `announce`: let the live region say a change (never a step: the round is not live).
  render(announce, extra) {
    if (!this.panel) return;
    const link = this.link;
    const joined = link.last("joined");
    const n = joined && typeof joined.n === "number" ? joined.n : 0;
    let text;
    if (link.ended) text = "The class session is over.";
    else if (link.closed) text = "The class session is closed.";
    else if (!link.connected) text = link.last("welcome") ? "Connection lost: reconnecting …" : "Connecting to the class session …";
    else if (this.lecturer) text = `${n} ${n === 1 ? "student" : "students"} connected` +
      (link.eyes ? ". All eyes here: students follow your steps and cannot explore until you release them." : "");
    else if (link.eyes) text = "All eyes on the lecturer: following.";
    else text = link.following ? "Following the lecturer." : "Exploring on my own.";
    if (extra) text = `${text} ${extra}`;
    this.panel.dataset.connected = link.connected ? "true" : "false";
    this.panel.dataset.eyes = link.eyes ? "true" : "false";
    this.panel.dataset.joined = String(n);
    if (!this.lecturer) this.panel.dataset.following = link.following ? "true" : "false";
    if (text !== this.statusText) {
      this.statusText = text;
      // the live region speaks a change it is told of; the first fill of a rebuilt panel stays quiet
      if (!announce) this.status.setAttribute("aria-live", "off");
      this.status.textContent = text;
      if (!announce) setTimeout(() => this.status.setAttribute("aria-live", "polite"), 0);
    }
    if (this.eyesButton) {
      this.eyesButton.textContent = link.eyes ? "Release" : "All eyes here";
      this.eyesButton.setAttribute("aria-pressed", link.eyes ? "true" : "false");
      this.eyesButton.disabled = link.closed;
      this.endButton.disabled = link.closed;
    }
    if (this.followButton) {
      this.followButton.textContent = link.following ? "Explore on my own" : "Back to the lecturer";
      this.followButton.dataset.control = link.following ? "explore-on-my-own" : "back-to-the-lecturer";
      this.followButton.disabled = link.closed || (link.eyes && link.following);
    }
  }

  renderRound(s) {
    if (!this.round || this.lecturer || !s) return;
    const same = String(s.page || "") === this.page;
    this.round.textContent = same ? `The lecturer: round ${Number(s.position) || 0}${s.playing ? " (playing)" : ""}`
      : "The lecturer is on another page";
    this.panel.dataset.lecturerPosition = String(Number(s.position) || 0);
  }

  say(text) { if (this.note) this.note.textContent = text; }

  // ------------------------------------------------------------ messages
  onMessage(msg) {
    const link = this.link;
    switch (msg.type) {
      case "welcome":
        this.buildPanel();
        this.applyEyes();
        if (!this.lecturer && link.eyes) this.say(CLASS_EYES_NOTE);
        if (this.lecturer) { this.sentKey = null; this.sendState(true); } else this.follow(link.last("state"));
        break;
      case "state": {
        const before = this.lecturerAt;
        this.lecturerAt = `${msg.page}|${msg.run}`;
        this.renderRound(msg);
        if (link.following) this.follow(msg);
        else if (before !== undefined && before !== this.lecturerAt) this.render(true, "The lecturer moved on.");
        break;
      }
      case "eyes":
        if (!this.lecturer && msg.on && !link.following) this.setFollowing(true);
        if (!this.lecturer) this.say(msg.on ? CLASS_EYES_NOTE : "");
        this.applyEyes();
        this.render(true);
        break;
      case "joined": this.render(true); break;
      case "ended":
        this.buildPanel();     // no code, QR or buttons any more
        this.applyEyes();
        this.say(typeof msg.why === "string" ? `The class session is over: ${msg.why}. This page works on its own.`
          : "The class session is over. This page works on its own.");
        this.render(true);
        break;
      case "follow": if (!this.lecturer && !link.following) this.setFollowing(true); break;
      case "error": this.say(typeof msg.why === "string" ? msg.why : "The class session refused this connection."); this.render(true); break;
      case "refused": this.say(`Only the lecturer can do that (${String(msg.what).slice(0, 20)}).`); break;
      case "connection": this.render(true); break;
      default: break;
    }
  }
}

registerMode("class", (view, options) => new ClassMode(view, options));
