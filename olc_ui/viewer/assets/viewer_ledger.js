// olc step viewer: the proof ledger (KaTeX lines with ✓/✗) and the caption.
// Methods of the Viewer (mixed into its prototype by viewer.js); `this` is the viewer.

import { appendRich, el, pick } from "./viewer_util.js";
import { BLANK, PLACEHOLDER, formatValue } from "./viewer_format.js";

export class LedgerMethods {
  buildLedger(ledger) {
    const box = el("div", "olc-ledger");
    box.dataset.figureId = "ledger";
    if (ledger.title) box.appendChild(appendRich(el("div", "olc-ledger-title"), ledger.title));
    this.ledgerLines = [];
    for (const line of ledger.lines || []) {
      const row = el("div", "olc-ledger-line");
      const mark = el("span", "olc-mark");
      const math = el("div", "olc-math");
      const reason = appendRich(el("div", "olc-reason"), line.reason || "");
      const body = el("div", "olc-ledger-body");
      body.append(math, reason);
      row.append(mark, body);
      box.appendChild(row);
      this.ledgerLines.push({ line, row, mark, math, lastLatex: null });
    }
    this.ledgerEl = box;
    return box;
  }

  values(src, p, k) {
    if (!src) return null;
    if ("const" in src) return src.const;
    switch (src.by) {
      case "state": return pick(src.data, k);
      case "position": return pick(src.data, p);
      case "round": return p === 0 ? BLANK : pick(src.data, p - 1);
      default: return null;
    }
  }

  fill(template, values, p, k, latex) {
    return template.replace(PLACEHOLDER, (whole, name) => {
      let f;
      if (values && Object.prototype.hasOwnProperty.call(values, name)) {
        const src = values[name];
        f = formatValue(this.values(src, p, k), src.fmt, src.labels);
      } else if (name === "t") f = formatValue(p, "d");
      else if (name === "T") f = formatValue(this.T, "d");
      else if (name === "k") f = formatValue(k, "d");
      else return whole;  // a LaTeX group, not a placeholder
      return latex ? `{${f.latex}}` : f.text;
    });
  }

  renderCaption() {
    const cap = this.spec && this.spec.caption;
    if (!cap || !this.captionEl) return;
    const p = this.p, k = this.k();
    const tpl = p === 0 && cap.start ? cap.start : cap.template;
    this.captionEl.textContent = this.fill(tpl || "Round {t} of {T}", cap.values, p, k, false);
  }

  renderLedger(p, k) {
    if (!this.ledgerLines || !this.katex) return;
    for (const L of this.ledgerLines) {
      const tex = this.fill(L.line.latex || "", L.line.values, p, k, true);
      if (tex !== L.lastLatex) {
        this.katex.render(tex, L.math, { throwOnError: false, strict: "ignore", displayMode: false });
        L.lastLatex = tex;
      }
      const h = this.values(L.line.holds, p, k);
      // "na": the step needs an assumption that fails on these data (neutral, never ✗)
      const state = L.line.na ? "na" : h === true || h === 1 ? "holds" : h === false || h === 0 ? "fails" : "undefined";
      if (L.row.dataset.holds !== state) {
        L.row.dataset.holds = state;
        L.mark.textContent = state === "holds" ? "✓" : state === "fails" ? "✗" : state === "na" ? "n/a" : "—";
        L.mark.setAttribute("aria-label", state === "holds" ? "holds" : state === "fails" ? "fails"
          : state === "na" ? "not applicable" : "not defined yet");
        L.mark.setAttribute("role", "img");
      }
    }
  }
}
