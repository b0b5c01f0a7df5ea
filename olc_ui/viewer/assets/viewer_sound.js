// olc step viewer: sound (a mode module: viewer_modes.js; issue 23 §3, docs/accessibility.md "Sound").
//
// Python turns it on with modes = {"sound": options} (olc_ui/shared/sound.py: the "Sound" switch in the
// sidebar, off by default): {low, high (Hz), per_second, ms, and, on a page whose sandwich has a crossing,
// x (the sandwich's current-value markers' array), by ("state" | "position"), bound (the crossing's x)}.
// Stepping forward over a round where the learner errs plays one short tone (soft attack and release, no
// click); its pitch rises from `low` to `high` (evenly in octaves) as x / bound goes from 0 to 1 — how near
// the run is to where the proof's bounds cross, as the sandwich chart shows it. Python chose every number;
// this only reads the entry at the position on screen. During Play at most `per_second` tones a second
// (the rest are skipped); a step back, the first draw and a rebuild are silent. The AudioContext is made
// on a user gesture (browsers block autoplay); without Web Audio the mode does nothing, and never throws.

import { clamp, upperBound } from "./viewer_util.js";
import { registerMode } from "./viewer_modes.js";

const SOUND_ATTACK_S = 0.01;   // the tone's rise, then an exponential fall to silence over the rest of it
const SOUND_PEAK = 0.15;       // gain at the top of the tone (soft)

// How near the run is to the proof's bound at position p (state k): x / bound in [0, 1]; null without one.
export function soundNear(opts, arrays, p, k) {
  if (!opts || typeof opts.x !== "string" || !(typeof opts.bound === "number" && opts.bound > 0)) return null;
  const a = arrays && arrays[opts.x];
  if (!Array.isArray(a)) return null;
  const v = a[clamp(opts.by === "position" ? p : k, 0, a.length - 1)];
  return typeof v === "number" && Number.isFinite(v) ? clamp(v / opts.bound, 0, 1) : null;
}

// The tone's frequency (Hz) for a nearness in [0, 1] (null: the low tone).
export function soundPitch(opts, near) {
  const lo = opts.low || 330, hi = opts.high || 880;
  return near === null ? lo : lo * Math.pow(hi / lo, near);
}

// The tone of a step from position `from` to `to` (state k at `to`): null unless it steps forward over a
// round where the learner errs (0-based `mistakes`, sorted); else {round (the last one crossed), crossed
// (how many), near, freq}.
export function soundFor(opts, arrays, mistakes, from, to, k) {
  if (typeof from !== "number" || typeof to !== "number" || !(to > from)) return null;
  const hi = upperBound(mistakes || [], to - 1), crossed = hi - upperBound(mistakes || [], from - 1);
  if (crossed <= 0) return null;
  const near = soundNear(opts, arrays, to, k);
  return { round: mistakes[hi - 1], crossed, near, freq: soundPitch(opts, near) };
}

// a promise whose rejection is nobody's error (resume / close of an AudioContext)
function quietly(promise) {
  if (promise && typeof promise.catch === "function") promise.catch(() => {});
}

class SoundMode {
  constructor(viewer, options) {
    this.v = viewer;
    this.o = options || {};
    this.last = null;          // the position last rendered (null: the next render is the first: silent)
    this.lastAt = -Infinity;   // when the last tone started (performance.now())
    this.ctx = null;
    this.count = 0;
    this.unlock = () => this.ensureContext(true);
    for (const type of ["pointerdown", "keydown"]) document.addEventListener(type, this.unlock, true);
  }

  // the AudioContext, made (or resumed) on a user gesture, or once the page has had one
  ensureContext(gesture) {
    try {
      if (this.ctx) {
        if (this.ctx.state === "suspended" && gesture) quietly(this.ctx.resume());
        return this.ctx;
      }
      const AC = typeof window !== "undefined" && (window.AudioContext || window.webkitAudioContext);
      const active = navigator.userActivation ? navigator.userActivation.hasBeenActive : gesture;
      if (!AC || !(gesture || active)) return null;
      this.ctx = new AC();
    } catch (err) {
      this.ctx = null;
    }
    return this.ctx;
  }

  onBuild() { this.last = null; }

  onRender(p, k) {
    const from = this.last;
    this.last = p;
    if (from === null || from === p) return;
    const tone = soundFor(this.o, this.v.arrays, this.v.mistakes, from, p, k);
    if (!tone) return;
    const now = performance.now();
    if (now - this.lastAt < 1000 / (this.o.per_second || 8)) return;   // Play: at most per_second tones a second
    this.lastAt = now;
    this.play(tone.freq);
  }

  play(freq) {
    const ctx = this.ensureContext(false);
    if (!ctx) return;
    try {
      const t = ctx.currentTime, dur = (this.o.ms || 100) / 1000;
      const osc = ctx.createOscillator(), gain = ctx.createGain();
      osc.type = "sine";
      osc.frequency.value = freq;
      gain.gain.setValueAtTime(0, t);
      gain.gain.linearRampToValueAtTime(SOUND_PEAK, t + SOUND_ATTACK_S);
      gain.gain.exponentialRampToValueAtTime(0.001, t + dur);
      gain.gain.linearRampToValueAtTime(0, t + dur + 0.01);
      osc.connect(gain);
      gain.connect(ctx.destination);
      osc.onended = () => { try { osc.disconnect(); gain.disconnect(); } catch (err) { /* gone */ } };
      osc.start(t);
      osc.stop(t + dur + 0.02);
      this.count += 1;
      if (this.v.root) this.v.root.dataset.soundTones = String(this.count);   // for tests
    } catch (err) {
      // no sound is never an error: the caption and the announcements say the mistake
    }
  }

  destroy() {
    for (const type of ["pointerdown", "keydown"]) document.removeEventListener(type, this.unlock, true);
    try { if (this.ctx && typeof this.ctx.close === "function") quietly(this.ctx.close()); } catch (err) { /* gone */ }
    this.ctx = null;
  }
}

registerMode("sound", (viewer, options) => new SoundMode(viewer, options));
