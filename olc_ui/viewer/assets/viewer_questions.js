// olc step viewer: the questions of predict-then-reveal, one kind per learner (a module of
// viewer_predict.js). Each kind answers four things for round r (1-based) from the options Python
// built from the run (olc_ui/viewer/predict.py and olc_ui/viewer/questions/): the answers offered
// (choices: [key, id, text]), the right one (rightAnswer), the question (questionText) and what
// happened (revealText), as plain text. The right answer is always the run's: the perceptron and
// experts kinds read it from the mistake flags and w's turn, every other kind from options.answer
// (one id per round, chosen in Python). A new kind: an entry of KINDS here and its options builder.

import { formatNumber } from "./viewer_format.js";

function signed(v) { return v === null || v === undefined ? "—" : (v > 0 ? "+" : v < 0 ? "−" : "") + formatNumber(Math.abs(v), ".4g"); }
function num(v) { return v === null || v === undefined ? "—" : formatNumber(v, ".3g").replace("-", "−"); }
function pm(y) { return y > 0 ? "+1" : "−1"; }
function list(a) { return a.join(", "); }
function plural(k, one, many) { return `${k} ${k === 1 ? one : many}`; }

// ---------------------------------------------------------------- the Perceptron (d = 2)
const perceptron = {
  choices(o, i) {
    if (o.wzero && o.wzero[i]) return [["N", "none", "No mistake"], ["M", "mistake", "Mistake"]];
    return [["N", "none", "No mistake"], ["A", "acw", "Mistake: w turns anticlockwise"],
      ["C", "cw", "Mistake: w turns clockwise"]];
  },
  right(o, i) {
    if (!o.mistake[i]) return "none";
    return o.wzero && o.wzero[i] ? "mistake" : (o.turn[i] > 0 ? "acw" : "cw");
  },
  question(o, i, r) {
    const w0 = o.wzero && o.wzero[i] ? " w is still 0." : "";
    return `Round ${r}: x = (${num(o.px[i])}, ${num(o.py[i])}), ringed on the ` +
      `chart, has label y = ${pm(o.label[i])}.${w0} Will the Perceptron make a mistake` + (w0 ? "?" : " — and which way will w turn?");
  },
  reveal(o, i) {
    const s = `⟨w, x⟩ = ${signed(o.score[i])} and y = ${pm(o.label[i])}`;
    if (!o.mistake[i]) return `${s}: the signs agree — no mistake, w stays.`;
    if (o.wzero && o.wzero[i]) return `${s}: w was 0, a score of 0 counts as a mistake — w becomes y·x.`;
    const a = o.angle[i];
    return `${s}: ${o.score[i] === 0 ? "a score of 0 counts as a mistake" : "the signs differ — a mistake"}; ` +
      `w += y·x turned w ${formatNumber(Math.abs(a), ".3g")}° ${a > 0 ? "anticlockwise" : "clockwise"}.`;
  },
};

// ---------------------------------------------------------------- Weighted Majority and Halving on advice
const experts = {
  choices() { return [["N", "none", "No mistake"], ["M", "mistake", "Mistake"]]; },
  right(o, i) { return o.mistake[i] ? "mistake" : "none"; },
  question(o, i, r) {
    const y = pm(o.label[i]);
    const who = o.says ? (o.says[i].length ? ` (${o.says[i].length === 1 ? "expert" : "experts"} ${list(o.says[i])})` : "") : "";
    return `Round ${r}: the label is y = ${y}; ${o.agree[i]} of the ${o.N} experts say ${y}${who}. ` +
      `Look at the weights: will the ${o.whose === "of the weight" ? "weighted majority" : "majority of the version space"} err?`;
  },
  reveal(o, i) {
    if (o.wrong[i] === 0) return "No expert was wrong: no mistake.";
    return `The experts that were wrong held ${formatNumber(o.wrong[i], ".3f")} ${o.whose}: ` +
      (o.mistake[i] ? "the vote went their way — a mistake." : "the vote went the other way — no mistake.");
  },
};

// ---------------------------------------------------------------- Randomised Weighted Majority
const rwm = {
  choices() {
    return [["Z", "zero", "No expert is wrong"], ["L", "low", "Less than half of the weight"],
      ["H", "high", "Half of the weight or more"]];
  },
  question(o, i, r) {
    const y = pm(o.label[i]);
    const who = o.says && o.says[i].length ? ` (${list(o.says[i])})` : "";
    return `Round ${r}: y = ${y}; ${o.agree[i]} of the ${o.N} experts say ${y}${who}. The wrong ones will lose ` +
      `weight (×${num(1 - o.eta)}). How much of the weight do they hold — the chance of a mistake?`;
  },
  reveal(o, i) {
    if (o.wrong[i] === 0) return "No expert was wrong: no weight changes, no mistake.";
    return `The wrong experts held ${formatNumber(o.wrong[i], ".3f")} of the weight: a mistake with that ` +
      `probability; their weights ×${num(1 - o.eta)}. The draw picked expert ${o.chosen[i]} — ` +
      (o.mistake[i] ? "a mistake." : "no mistake.");
  },
};

// ---------------------------------------------------------------- the Margin Perceptron (d = 2)
const margin = {
  choices(o, i) {
    if (o.answer[i] === "init") return [["U", "init", "Update: w becomes y·x"], ["N", "none", "No update"]];
    return [["N", "none", "No update: y·s ≥ γ/2"], ["B", "band", "Margin mistake (|s| < γ/2): update"],
      ["M", "mistake", "Mistake (y·s ≤ −γ/2): update"]];
  },
  question(o, i, r) {
    const x = `x (example ${o.example[i]}), ringed, has y = ${pm(o.label[i])}`;
    if (o.answer[i] === "init") return `Round ${r}: w = 0 and ${x}. Update or not?`;
    return `Round ${r}: ${x}. With s = ⟨w, x⟩/‖w‖ and γ/2 = ${num(o.gamma / 2)}: update or not?`;
  },
  reveal(o, i) {
    const g = num(o.gamma / 2), s = `s = ${signed(o.score[i])} and y = ${pm(o.label[i])}`;
    switch (o.answer[i]) {
      case "init": return "w was 0: the first example sets w = y·x (an update).";
      case "none": return `${s}: y·s ≥ γ/2 = ${g} — no update, w stays.`;
      case "band": return `${s}: s lies in the band (−${g}, ${g}) — a margin mistake: w += y·x.`;
      default: return `${s}: y·s ≤ −γ/2 = −${g} — a mistake: w += y·x.`;
    }
  },
};

// ---------------------------------------------------------------- Winnow
const winnow = {
  choices(o) {
    const b = num(o.base);
    return [["N", "none", "No update"], ["P", "promote", `Promotion: the active weights ×${b}`],
      ["D", "demote", `Demotion: the active weights ÷${b}`]];
  },
  question(o, i, r) {
    const on = o.on && o.on[i] ? ` (${list(o.on[i])})` : "";
    return `Round ${r}: y = ${o.label[i]}; x has ${plural(o.active[i], "active feature", "active features")}${on}. ` +
      `ŷ = 1 iff their weights sum to more than N = ${o.N}. Which update?`;
  },
  reveal(o, i) {
    const rel = o.pred[i] ? ">" : "≤", s = `w·x = ${num(o.score[i])} ${rel} N = ${o.N}, so ŷ = ${o.pred[i]}`;
    const k = plural(o.active[i], "active weight", "active weights"), b = num(o.base);
    switch (o.answer[i]) {
      case "promote": return `${s} but y = 1: a promotion — the ${k} ×${b}.`;
      case "demote": return `${s} but y = 0: a demotion — the ${k} ÷${b}.`;
      default: return `${s} = y: no update.`;
    }
  },
};

// ---------------------------------------------------------------- the exponentiated update
const eg = {
  choices() {
    return [["N", "none", "No mistake: w stays"], ["G", "gain", "Mistake: weights with y·xᵢ > 0 gain share"],
      ["L", "lose", "Mistake: weights with y·xᵢ < 0 gain share"]];
  },
  question(o, i, r) {
    const plus = o.plus ? (o.plus[i].length ? `features ${list(o.plus[i])}` : "no feature")
      : plural(o.favoured[i], "feature", "features");
    return `Round ${r}: y = ${pm(o.label[i])}; y·xᵢ > 0 for ${plus} (of ${o.N}). ` +
      "Will y⟨w, x⟩ ≤ 0 (a mistake) — and which weights gain?";
  },
  reveal(o, i) {
    const s = `y⟨w, x⟩ = ${signed(o.label[i] * o.score[i])}`;
    if (o.answer[i] === "none") return `${s} > 0: no mistake, w stays.`;
    const grew = o.grew && o.grew[i] ? (o.grew[i].length ? `features ${list(o.grew[i])} grew` : "no weight grew")
      : `${plural(o.up[i], "weight", "weights")} grew`;
    return `${s} ≤ 0: a mistake. wᵢ ×e^(η·y·xᵢ), η = ${num(o.eta)}, renormalised: the weights with y·xᵢ > 0 ` +
      `gain on the rest; ${grew}, ${o.down[i]} shrank.`;
  },
};

// ---------------------------------------------------------------- randomised FTRL
const ftrl = {
  choices() {
    return [["A", "above", "Above ½ (y·⟨w, x⟩ > 0)"], ["H", "half", "Exactly ½ (⟨w, x⟩ = 0)"],
      ["B", "below", "Below ½ (y·⟨w, x⟩ < 0)"]];
  },
  question(o, i, r) {
    return `Round ${r}: x${o.px ? ", ringed," : ""} has y = ${pm(o.label[i])}; the learner says +1 with ` +
      "probability (1 + ⟨w, x⟩)/2. Before the coin flip: its chance of the right label?";
  },
  reveal(o, i) {
    return `⟨w, x⟩ = ${signed(o.score[i])}, y = ${pm(o.label[i])}: P(ŷ = y) = ${formatNumber(o.pright[i], ".3f")}. ` +
      `The coin gave ŷ = ${pm(o.pred[i])} — ${o.mistake[i] ? "a mistake" : "no mistake"}.`;
  },
};

// ---------------------------------------------------------------- Halving (its own page)
const halving = {
  choices(o, i) {
    const n = o.size[i];
    if (n === 0) return [["A", "all", "All 0: the version space is empty"]];
    return [["A", "all", `All ${n}`], ["H", "half", `Half or fewer (≤ ${Math.floor(n / 2)})`],
      ["S", "most", "More than half, not all"]];
  },
  question(o, i, r) {
    const n = o.size[i], y = pm(o.label[i]);
    if (n === 0) return `Round ${r}: y = ${y}; the version space is empty. How many hypotheses survive?`;
    return `Round ${r}: y = ${y}; of |Hₜ| = ${n}, ${o.plus[i]} say +1 and ${n - o.plus[i]} say −1 ` +
      "(a tie votes +1). How many survive the round?";
  },
  reveal(o, i) {
    const n = o.size[i], a = o.after[i];
    const vote = o.mistake[i] ? "the majority vote was wrong — a mistake" : "the majority vote was right — no mistake";
    if (a === n) return `${vote[0].toUpperCase()}${vote.slice(1)}: all ${n} stay.`;
    return `${vote[0].toUpperCase()}${vote.slice(1)}: the ${n - a} that said ${pm(-o.label[i])} leave — ` +
      `|Hₜ| goes ${n} → ${a}.`;
  },
};

// ---------------------------------------------------------------- the conjunction learner (elimination)
const conj = {
  choices() {
    return [["N", "none", "None"], ["F", "false", "The literals of h false in x"],
      ["T", "true", "The literals of h true in x"]];
  },
  question(o, i, r) {
    const x = o.x ? `x = ${o.x[i]}` : "x";
    return `Round ${r}: ${x}, y = ${o.label[i]}; h has ${plural(o.size[i], "literal", "literals")}. Which literals leave h?`;
  },
  reveal(o, i) {
    const f = o.false[i], y = o.label[i], p = o.pred[i];
    if (o.answer[i] === "false")
      return `${plural(f, "literal", "literals")} of h ${f === 1 ? "is" : "are"} false in x, so ŷ = 0 but y = 1 — ` +
        `a false negative: ${f === 1 ? "it leaves" : "they leave"}, h keeps ${o.size[i] - f}.`;
    if (p === 1 && y === 0) return "Every literal of h is true in x: ŷ = 1 but y = 0 — a false positive (no conjunction fits these labels): nothing leaves.";
    if (p === 1) return "Every literal of h is true in x: ŷ = 1 = y — nothing leaves.";
    return `${plural(f, "literal", "literals")} of h false in x: ŷ = 0 = y — nothing leaves (only positive examples teach).`;
  },
};

// ---------------------------------------------------------------- the decision-list learner (levels)
const dl = {
  choices() { return [["N", "none", "No mistake: no rule moves"], ["M", "fall", "Mistake: the wrong firing rules fall"]]; },
  question(o, i, r) {
    return `Round ${r}: ${o.x ? `x = ${o.x[i]}, ` : ""}y = ${o.label[i]}. The first level with a firing rule ` +
      "predicts: mistake or not?";
  },
  reveal(o, i) {
    const s = `Level ${o.level[i]} predicted ŷ = ${o.pred[i]} (rule ${o.rule[i]}), y = ${o.label[i]}`;
    if (o.answer[i] === "none") return `${s}: no mistake, no rule moves.`;
    return `${s}: a mistake — ${list(o.fell[i])} fall to level ${o.level[i] + 1}.`;
  },
};

const KINDS = { perceptron, experts, rwm, margin, winnow, eg, ftrl, halving, conj, dl };

function kind(o) {
  const k = KINDS[o.kind];
  if (!k) throw new Error(`predict: unknown question kind ${o.kind}`);
  return k;
}

// The answers a round offers: [key, answer id, button text].
export function choices(o, r) { return kind(o).choices(o, r - 1); }

// The right answer for round r (1-based): the run's (options.answer, or the mistake flags).
export function rightAnswer(o, r) {
  const k = kind(o);
  return k.right ? k.right(o, r - 1) : o.answer[r - 1];
}

// The question for round r, as plain text.
export function questionText(o, r) { return kind(o).question(o, r - 1, r); }

// What happened in round r, with the run's numbers, as plain text.
export function revealText(o, r) { return kind(o).reveal(o, r - 1); }
