// olc step viewer: the mode registry. A *mode* (presentation, predict-then-reveal, …) is a module
// that registers a factory here and plugs into the viewer through the hooks below, never through
// branches in the core. Python turns modes on per viewer: viewer(..., modes={"present": {...}})
// sends data.modes = {name: options}; the viewer creates `factory(viewer, options)` for each
// registered name, in the order given. Hooks (all optional; docs/viewer-spec.md, "Modes"):
//   onBuild()                 DOM built for a run (controls, caption, columns), before plotting
//   beforePlot(f, data, layout)  adjust a figure's copied traces / layout before Plotly.newPlot
//   onReady()                 every figure drawn (also right after a mode is attached to a drawn viewer)
//   beforeStep(to, from)      a step is asked for: return false to refuse it, a number to go there instead
//   onRender(p, k)            after each render of position p (state k)
//   onKey(ev)                 a key the viewer sees (its own, or the document's in a global-keys mode):
//                             return true when handled (the core then ignores it)
//   helpKeys()                [[keys, what], …]: the keys the mode answers, for presentation mode's key list
//   update(options)           new options for a mode already attached: return true when it takes them in place
//                             (no rebuild of the viewer; else the modes are made again and the viewer rebuilt)
//   onModes()                 after modes took new options in place
//   beforeTour(stop)          a move to another stop of a tour (viewer_tour.js): return false to refuse it
//   beforeReport()            the position is about to be reported to Python: return false to wait (asked again)
//   destroy()                 the mode is switched off or the viewer unmounted: undo what it added
// A mode module registers itself on import; add it to the list in viewer_mode_list.js.

export const MODES = new Map();

export function registerMode(name, factory) {
  if (typeof factory !== "function") throw new Error(`olc viewer: mode ${name} needs a factory function`);
  MODES.set(name, factory);
}

// The hooks of the modes attached to `view`, called in order; the first non-undefined result wins.
export function callHook(view, hook, ...args) {
  for (const m of view.modes || []) {
    if (m && typeof m[hook] === "function") {
      const r = m[hook](...args);
      if (r !== undefined) return r;
    }
  }
  return undefined;
}
