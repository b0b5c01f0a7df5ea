// olc step viewer: the phone layout (issue 25), a mode every viewer carries (viewer_controls.js attaches it;
// it does nothing on a screen wider than PHONE_QUERY, nor in presentation mode).
//
// On a phone (≤ 640 px wide):
// - the step buttons and the round slider move into a bar (.olc-phone-bar) that sticks to the bottom of the
//   screen while any of the viewer is on it, so Next / Next mistake / Play stay under the thumb while the
//   chart above changes; every button is ≥ 44×44 px (viewer.css, .olc-phone);
// - the bar's "Ledger" button scrolls to the proof ledger and back to the chart (one tap each way);
// - the speed list, the download and other stops (e.g. margin mistakes) follow the charts;
// - chart text is ≥ 12 px, legends go under the plot wrapped to its width, and the first chart's height is
//   chosen so that its plot area fits between the top of the screen and the bar;
// - the first time a page's viewer is drawn the page scrolls to it (the title and the folded intro stay one
//   swipe up), so the chart and the controls are on screen together without the student scrolling.
// Touch screens get touch words instead of key names (touchScreen(); viewer_predict.js uses it).

import { registerMode } from "./viewer_modes.js";
import { presentFigure, twoColumnLegend, wrapName } from "./viewer_present.js";
import { el } from "./viewer_util.js";

export const PHONE_QUERY = "(max-width: 640px)";
export const TOUCH_QUERY = "(hover: none) and (pointer: coarse)";
export const PHONE_FONT_PX = 12;      // the smallest chart text on a phone
const HEADER_PX = 64;                 // Streamlit's header (its toolbar and the sidebar button) over the page's top
const MIN_PLOT_PX = 200;              // the first chart keeps at least this height, even on a short screen

// True on a touch screen without a mouse (a phone, a tablet): hints name buttons, not keys.
export function touchScreen() {
  return (typeof matchMedia === "function" && matchMedia(TOUCH_QUERY).matches) ||
    (typeof window !== "undefined" && "ontouchstart" in window);
}

// A legend under the plot, its names wrapped to the plot's width (two columns when it has three entries or more).
export function phoneLegend(data, layout, px, width) {
  if (layout.showlegend === false) return;
  const named = data.filter((t) => t && t.showlegend !== false && typeof t.name === "string" && t.name !== "");
  if (!named.length || !(width > 0)) return;
  const lg = layout.legend || {};
  if (lg.orientation !== "h")
    layout.legend = { ...lg, orientation: "h", x: 0, xanchor: "left", y: -0.18, yanchor: "top" };
  twoColumnLegend(data, layout, px, width);
  const margin = layout.margin || {};
  const chars = Math.floor((width - (margin.l ?? 80) - (margin.r ?? 80) - 44) / (px * 0.5));
  if (layout.legend.entrywidth === undefined) for (const t of named) t.name = wrapName(t.name, chars);
}

// The least height the first chart is given on a phone: MIN_PLOT_PX, or 60 % of its own.
function smallest(f) {
  return Math.max(MIN_PLOT_PX, Math.round(0.6 * (f.spec.height || 400)));
}

class PhoneLayout {
  constructor(view) {
    this.view = view;
    this.mq = typeof matchMedia === "function" ? matchMedia(PHONE_QUERY) : null;
    this.wasOn = null;
    this.onChange = () => {
      const v = this.view;
      if (this.on() === this.wasOn || !v.spec) return;
      v.keepOnce = true;               // rotated or resized across the breakpoint: the same run, laid out again
      v.build(v.spec, v.assets);
    };
    if (this.mq) this.mq.addEventListener("change", this.onChange);
  }

  on() {
    return !!(this.mq && this.mq.matches) && !this.view.root.classList.contains("olc-present");
  }

  onBuild() {
    const v = this.view, on = this.on();
    this.wasOn = on;
    v.root.classList.toggle("olc-phone", on);
    v.root.dataset.touch = touchScreen() ? "true" : "false";
    if (!on) return;
    const nav = v.root.querySelector(".olc-controls > .olc-nav:not(.olc-extra)");
    const scrub = v.root.querySelector(".olc-controls > .olc-scrub");
    this.bar = el("div", "olc-phone-bar");
    this.bar.setAttribute("role", "group");
    this.bar.setAttribute("aria-label", "Step controls");
    if (nav) this.bar.appendChild(nav);
    this.ledger = v.root.querySelector(".olc-ledger");
    if (nav && this.ledger) nav.appendChild(this.jumpButton());
    if (scrub) this.bar.appendChild(scrub);
    v.root.appendChild(this.bar);
  }

  // "Ledger" scrolls to the proof ledger; there, the same button says "Chart" and scrolls back.
  jumpButton() {
    const b = el("button", "olc-btn olc-phone-jump");
    b.type = "button";
    b.dataset.control = "ledger";
    const label = el("span", "olc-label", "Ledger");
    label.setAttribute("aria-hidden", "true");
    b.append(label);
    const say = (toLedger) => {
      const name = toLedger ? "Go to the proof ledger" : "Back to the chart";
      b.setAttribute("aria-label", name);
      b.title = name;
      label.textContent = toLedger ? "Ledger" : "Chart";
      b.dataset.target = toLedger ? "ledger" : "chart";
    };
    say(true);
    b.addEventListener("click", () => {
      const toLedger = b.dataset.target === "ledger";
      const target = toLedger ? this.ledger : this.view.root;
      if (target) target.scrollIntoView({ block: "start", behavior: "instant" });
      say(!toLedger);
    });
    return b;
  }

  beforePlot(f, data, layout) {
    if (!this.on()) return;
    const v = this.view;
    const width = f.gd.getBoundingClientRect().width || v.root.getBoundingClientRect().width;
    presentFigure(data, layout, PHONE_FONT_PX, 1, width);
    phoneLegend(data, layout, PHONE_FONT_PX, width);
    if (f !== v.figs[0]) return;
    // the first chart: from the viewer's top (scrolled under the header) to the bar, at most its own height
    const top = f.gd.getBoundingClientRect().top - v.root.getBoundingClientRect().top;
    const bar = this.bar ? this.bar.getBoundingClientRect().height : 0;
    const room = Math.floor(window.innerHeight - HEADER_PX - top - bar - 8);
    const own = f.spec.height || 400;
    const h = Math.max(smallest(f), Math.min(own, room));
    if (h !== own) {
      f.height = h;
      f.gd.style.height = `${h}px`;
      layout.height = h;
    }
  }

  // A panel above the chart that grew (a question's answers, the class's distribution) must not push the plot
  // under the bar: the first chart gives up the height it needs (down to MIN_PLOT_PX).
  onRender() {
    const v = this.view, f = v.figs[0];
    if (!this.on() || !this.bar || !v.ready || !f || !f.gd._fullLayout || v.playing) return;
    if (Math.abs(v.root.getBoundingClientRect().top - HEADER_PX) > 24) return;   // only with the viewer at the top
    const over = f.gd.getBoundingClientRect().bottom - this.bar.getBoundingClientRect().top;
    const h = f.gd.getBoundingClientRect().height, least = smallest(f);
    if (over <= 1 || h <= least) return;
    const to = Math.max(least, Math.floor(h - over - 4));
    f.height = to;
    f.gd.style.height = `${to}px`;
    v.Plotly.relayout(f.gd, { height: to }).catch(() => {});
  }

  // A note on a chart (an annotation written left to right from a line near the right edge, e.g. FTRL's α*) that
  // runs past the chart's right edge is turned to end at its line instead.
  keepNotesInside() {
    const v = this.view;
    for (const f of v.figs || []) {
      const gd = f.gd, anns = gd && gd.layout && gd.layout.annotations;
      if (!anns || !anns.length) continue;
      const right = gd.getBoundingClientRect().right, upd = {};
      for (const g of gd.querySelectorAll(".annotation[data-index]")) {
        const i = +g.dataset.index, a = anns[i];
        if (a && (a.xanchor || "auto") !== "right" && g.getBoundingClientRect().right > right + 1)
          upd[`annotations[${i}].xanchor`] = "right";
      }
      if (Object.keys(upd).length) v.Plotly.relayout(gd, upd).catch(() => {});
    }
  }

  onReady() {
    const v = this.view;
    if (this.on()) this.keepNotesInside();
    if (!this.on() || v.phoneScrolled) return;
    v.phoneScrolled = true;
    const first = document.querySelector(".olc-viewer.olc-phone");
    if (first !== v.root) return;                          // a page's first viewer only
    const scroller = document.scrollingElement;
    const main = document.querySelector('[data-testid="stMain"]');
    if ((scroller && scroller.scrollTop > 40) || (main && main.scrollTop > 40)) return;  // the student scrolled
    v.root.scrollIntoView({ block: "start", behavior: "instant" });
  }

  destroy() {
    if (this.mq) this.mq.removeEventListener("change", this.onChange);
    this.view.root.classList.remove("olc-phone");
  }
}

registerMode("phone", (view) => new PhoneLayout(view));
