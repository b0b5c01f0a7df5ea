// olc step viewer: the questions of predict-then-reveal, one kind per learner (a module of
// viewer_predict.js). Each kind answers four things for round r (1-based) from the options Python
// built from the run (olc_ui/viewer/predict.py and olc_ui/viewer/questions/): the answers offered
// (choices: [key, id, text]), the right one (rightAnswer), the question (questionText) and what
// happened (revealText), as plain text. The right answer is always the run's: options.answer, one id per
// round, chosen in Python from the run's weights and columns — the browser only selects. A reveal that
// compares two numbers prints them with enough digits for the printed comparison to hold (viewer_format.js
// printedPair / printedHolding). A new kind: an entry of KINDS here and its options builder.

import { formatNumber, numText, printedHolding, printedPair } from "./viewer_format.js";

function signed(v) { return v === null || v === undefined ? "—" : (v > 0 ? "+" : v < 0 ? "−" : "") + formatNumber(Math.abs(v), ".4g"); }
function num(v) { return v === null || v === undefined ? "—" : formatNumber(v, ".3g").replace("-", "−"); }
// a factor the page's settings chose (1 + β, β = 1 − η): up to 6 digits, so that 1.0625 is not shown as 1.06
function factor(v) { return formatNumber(v, ".6g"); }
function pm(y) { return y > 0 ? "+1" : "−1"; }
function list(a) { return a.join(", "); }
function plural(k, one, many) { return `${k} ${k === 1 ? one : many}`; }
function cap(s) { return s[0].toUpperCase() + s.slice(1); }
// features named by number: "feature 3", "features 1, 4"
function features(a) { return `${a.length === 1 ? "feature" : "features"} ${list(a)}`; }
// v printed so that every [rel, b] of tests still holds of the printed number (fallback: 17 digits)
function holding(v, tests, digits = 3) { const h = printedHolding(v, tests, digits); return h ? h.text : numText(v, 17); }
// a signed number printed with `digits` significant digits: "+0.25", "−1.5", "0"
function signedText(v, digits) { return (v > 0 ? "+" : "") + numText(v, digits); }
// "3 of the 5 experts say +1", "1 of the 1 expert says −1"
function saying(o, i, y) {
  return `${o.agree[i]} of the ${o.N} ${o.N === 1 ? "expert" : "experts"} ${o.agree[i] === 1 ? "says" : "say"} ${y}`;
}
// a share of ½ or more / less, in words (rel: the share against ½)
const HALF_WORDS = { "<": "less than half", "=": "exactly half", ">": "more than half" };

// ---------------------------------------------------------------- the Perceptron (d = 2)
const perceptron = {
  choices(o, i) {
    if (o.wzero[i]) return [["N", "none", "No mistake"], ["M", "mistake", "Mistake"]];
    return [["N", "none", "No mistake"], ["A", "acw", "Mistake: w turns anticlockwise"],
      ["C", "cw", "Mistake: w turns clockwise"], ["L", "line", "Mistake: w stays on its line through 0 (or becomes 0)"]];
  },
  question(o, i, r) {
    const w0 = o.wzero[i] ? " w = 0." : "";
    return `Round ${r}: x = (${num(o.px[i])}, ${num(o.py[i])}), ringed on the ` +
      `chart, has label y = ${pm(o.label[i])}.${w0} Will the Perceptron make a mistake` + (w0 ? "?" : " — and how will w move?");
  },
  reveal(o, i) {
    const s = `⟨w, x⟩ = ${signed(o.score[i])} and y = ${pm(o.label[i])}`;
    if (!o.mistake[i]) return `${s}: the signs agree — no mistake, w stays.`;
    if (o.wzero[i]) return `${s}: w was 0, a score of 0 counts as a mistake — w becomes y·x.`;
    const why = o.score[i] === 0 ? "a score of 0 counts as a mistake" : "the signs differ — a mistake";
    if (o.answer[i] === "line") return `${s}: ${why}; y·x lies on w's line through 0, so ${lineMove(o, i)}.`;
    const a = Math.abs(o.angle[i]), way = o.answer[i] === "acw" ? "anticlockwise" : "clockwise";
    return `${s}: ${why}; w += y·x turned w ${holding(a, [[">", 0], ["<", 180]])}° ${way}.`;
  },
};

// How w moved along its line (options.move, scale λ: w becomes λ·w).
function lineMove(o, i) {
  const lam = o.scale[i];
  switch (o.move[i]) {
    case "zero": return "w += y·x is 0: w vanishes (the next round starts again from w = 0)";
    case "reversed": return `w += y·x flips w to ${holding(lam, [["<", 0]])}·w: it points the other way`;
    case "shorter": return `w += y·x shortens w to ${holding(lam, [[">", 0], ["<", 1]])}·w`;
    case "longer": return `w += y·x lengthens w to ${holding(lam, [[">", 1]])}·w`;
    default: return "w += y·x leaves w as it was" + (o.px[i] === 0 && o.py[i] === 0 ? " (x = 0)" : " (y·x is below w's rounding)");
  }
}

// ---------------------------------------------------------------- Weighted Majority and Halving on advice
// The wrong experts' share (options.share, its text options.tiny when below the smallest float), printed on its
// side of ½ (options.rel) and of 0 and 1; near 1 as "all but" the others' share (options.rest, rest_tiny).
function wrongShareText(o, i) {
  if (o.tiny[i]) return o.tiny[i];
  if (o.rest[i] === 0 && !o.rest_tiny[i]) return "all";
  if (o.rest_tiny[i] || o.rest[i] < 0.001) return `all but ${o.rest_tiny[i] || holding(o.rest[i], [[">", 0]])}`;
  return holding(o.share[i], [[o.rel[i], 0.5], [">", 0], ["<", 1]]);
}

const experts = {
  choices() { return [["N", "none", "No mistake"], ["M", "mistake", "Mistake"]]; },
  question(o, i, r) {
    const y = pm(o.label[i]);
    const who = o.says ? (o.says[i].length ? ` (${o.says[i].length === 1 ? "expert" : "experts"} ${list(o.says[i])})` : "") : "";
    const empty = o.case[i] !== "empty" ? "" : (o.alg === "halving" ? " The version space is empty." : " Every weight is 0.");
    return `Round ${r}: the label is y = ${y}; ${saying(o, i, y)}${who}.${empty} ` +
      `Look at the weights: will the ${o.alg === "halving" ? "majority of the version space" : "weighted majority"} err?`;
  },
  reveal(o, i) {
    const err = o.mistake[i] ? "a mistake" : "no mistake", k = o.nwrong[i], other = pm(-o.label[i]);
    const them = plural(k, "expert", "experts"), halving = o.alg === "halving";
    switch (o.case[i]) {
      case "empty": return halving
        ? `The version space is empty (no expert agrees with every label so far): Halving predicts +1 — ${err}.`
        : `Every expert's weight is 0 (β = 0: a penalty zeroes a weight): the vote is a tie, and a tie predicts +1 — ${err}.`;
      case "right": return `Every expert said ${pm(o.label[i])}: the vote is right — no mistake.`;
      case "zero": return halving
        ? `The ${them} that said ${other} ${k === 1 ? "is" : "are"} outside the version space: it votes ${pm(o.label[i])} — no mistake.`
        : `The ${them} that said ${other} hold${k === 1 ? "s" : ""} no weight (β = 0: a penalty zeroes a weight): the vote is the others' — no mistake.`;
      default: {
        const held = halving ? `${o.held[i]} of the ${o.alive[i]} experts in the version space said ${other} — ${HALF_WORDS[o.rel[i]]}`
          : `The experts that said ${other} held ${wrongShareText(o, i)} of the weight — ${HALF_WORDS[o.rel[i]]}`;
        if (o.rel[i] === "=") return `${held}: a tie, which predicts +1 — ${err}.`;
        return `${cap(held)}: the vote went ${o.mistake[i] ? "their way — a mistake" : "the other way — no mistake"}.`;
      }
    }
  },
};

// ---------------------------------------------------------------- Randomised Weighted Majority
const rwm = {
  choices() {
    return [["Z", "zero", "None: no chance of a mistake"], ["L", "low", "Less than half of the weight"],
      ["H", "high", "Half of the weight or more"]];
  },
  question(o, i, r) {
    const y = pm(o.label[i]);
    if (o.case[i] === "empty")
      return `Round ${r}: y = ${y}; every weight is 0 (η = 1 zeroes a wrong expert's weight): no expert can be drawn, ` +
        "and the learner then predicts +1. Its chance of a mistake?";
    const who = o.says && o.says[i].length ? ` (${list(o.says[i])})` : "";
    return `Round ${r}: y = ${y}; ${saying(o, i, y)}${who}. The wrong ones will lose ` +
      `weight (×${factor(o.beta)}). How much of the weight do they hold — the chance of a mistake?`;
  },
  reveal(o, i) {
    const y = pm(o.label[i]), k = o.nwrong[i];
    const draw = `The draw picked expert ${o.chosen[i]}, who said ${pm(o.mistake[i] ? -o.label[i] : o.label[i])}`;
    switch (o.case[i]) {
      case "empty": return `No weight is left, so no expert is drawn: the learner predicts +1 — ` +
        (o.label[i] > 0 ? "no mistake (its chance was 0)." : "a mistake (its chance was 1).");
      case "right": return `No expert was wrong: no weight changes and there is no chance of a mistake. ${draw}.`;
      case "zero": return `The ${plural(k, "expert", "experts")} that said ${pm(-o.label[i])} hold${k === 1 ? "s" : ""} no ` +
        `weight (η = 1 zeroed ${k === 1 ? "it" : "them"}): no chance of a mistake. ${draw}.`;
      default: return `The wrong experts held ${wrongShareText(o, i)} of the weight (${HALF_WORDS[o.rel[i]]}): a mistake with ` +
        `that probability; their weights ×${factor(o.beta)}. ${draw} — ${o.mistake[i] ? "a mistake" : "no mistake"}.`;
    }
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
    if (o.wzero[i]) return `Round ${r}: ${x}. w = 0, so s is taken as 0; γ/2 = ${num(o.gamma / 2)}: update or not?`;
    return `Round ${r}: ${x}. With s = ⟨w, x⟩/‖w‖ and γ/2 = ${num(o.gamma / 2)}: update or not?`;
  },
  reveal(o, i) {
    const g = o.gamma / 2, y = o.label[i], s = o.score[i], ys = y * s;
    switch (o.answer[i]) {
      case "init": return "w was 0: the first example sets w = y·x (an update).";
      case "none": {
        const [a, b, d] = printedPair(ys, g, "≥", 4) || [numText(ys, 17), numText(g, 17), 17];
        return `s = ${signedText(s, d)} and y = ${pm(y)}: y·s = ${a} ≥ γ/2 = ${b} — no update, w stays.`;
      }
      case "band": {
        if (o.wzero[i]) return `w = 0, so s is taken as 0: inside the band (−${num(g)}, ${num(g)}) — a margin mistake: w += y·x.`;
        const [, b, d] = printedPair(Math.abs(s), g, "<", 4) || [null, numText(g, 17), 17];
        return `s = ${signedText(s, d)} and y = ${pm(y)}: s lies in the band (−${b}, ${b}) — a margin mistake: w += y·x.`;
      }
      default: {
        const [a, b, d] = printedPair(ys, -g, "≤", 4) || [numText(ys, 17), numText(-g, 17), 17];
        return `s = ${signedText(s, d)} and y = ${pm(y)}: y·s = ${a} ≤ −γ/2 = ${b} — a mistake: w += y·x.`;
      }
    }
  },
};

// ---------------------------------------------------------------- Winnow
// w·x against N as the core decided it (options.rel: >, = or <, exactly on near-ties), printed so that it holds.
function winnowScore(o, i) {
  const rel = o.rel[i], N = o.N;
  if (rel === "=") return `w·x = N = ${N} (a tie: not above N)`;
  if (o.big && o.big[i]) return `w·x = ${o.big[i]} ${rel} N = ${N}`;
  const p = printedPair(o.score[i], N, rel, 3);
  return p ? `w·x = ${p[0]} ${rel} N = ${p[1]}`
    : `w·x ${rel} N = ${N} (decided in exact arithmetic: the float sum ${numText(o.score[i], 17)} is within rounding of N)`;
}

const winnow = {
  choices(o) {
    const b = factor(o.base);
    return [["N", "none", "No update"], ["P", "promote", `Promotion: the active weights ×${b}`],
      ["D", "demote", `Demotion: the active weights ÷${b}`]];
  },
  question(o, i, r) {
    const on = o.on && o.on[i] && o.on[i].length ? ` (${list(o.on[i])})` : "";
    return `Round ${r}: y = ${o.label[i]}; x has ${plural(o.active[i], "active feature", "active features")}${on}. ` +
      `ŷ = 1 iff their weights sum to more than N = ${o.N}. Which update?`;
  },
  reveal(o, i) {
    const s = `${winnowScore(o, i)}, so ŷ = ${o.pred[i]}`;
    const k = plural(o.active[i], "active weight", "active weights"), b = factor(o.base);
    switch (o.answer[i]) {
      case "promote": return `${s} but y = 1: a promotion — ` +
        (o.active[i] ? `the ${k} ×${b}.` : "but no feature is active, so no weight changes.");
      case "demote": return `${s} but y = 0: a demotion — the ${k} ÷${b}.`;
      default: return `${s} = y: no update.`;
    }
  },
};

// ---------------------------------------------------------------- the exponentiated update
// At a mistake every wᵢ is multiplied by e^(η·y·xᵢ)/Z: wᵢ grows iff y·xᵢ > θ = ln Z/η. The weights that grow
// against those with y·xᵢ > 0 (options.answer): exactly they, only some of them, or they and some others.
function egTheta(o, i) {
  const th = o.theta[i], sign = o.theta_sign[i];
  if (sign === 0) return "0";
  if (th === null || th === undefined) return sign > 0 ? "a tiny positive number" : "a tiny negative number";
  if (o.same[i]) return holding(th, [["=", th]]);   // exactly the y·xᵢ of the weights that stayed
  // on its side of 0 and of every y·xᵢ: above those that shrank, below those that grew
  const tests = [[sign > 0 ? ">" : "<", 0]];
  if (o.theta_below[i] !== null) tests.push([">", o.theta_below[i]]);
  if (o.theta_above[i] !== null) tests.push(["<", o.theta_above[i]]);
  return holding(th, tests);
}

function egMoved(o, i) {
  const up = o.up[i], P = o.favoured[i];
  if (!up && !o.down[i]) return "No weight moved (every y·xᵢ is the same, so Z = e^(η·y·xᵢ))";
  const grew = o.grew && o.grew[i] ? (o.grew[i].length ? `${cap(features(o.grew[i]))} grew` : "No weight grew")
    : (up ? `${plural(up, "weight", "weights")} grew` : "No weight grew");
  const rest = `, ${o.down[i]} shrank` + (o.same[i] ? `, ${o.same[i]} stayed` : "");
  const how = { exact: up ? "exactly those with y·xᵢ > 0" : "no feature has y·xᵢ > 0",
    fewer: `${up ? `only ${up}` : "none"} of the ${P} with y·xᵢ > 0`,
    more: P ? `the ${P} with y·xᵢ > 0 and ${plural(up - P, "other", "others")}` : "though no feature has y·xᵢ > 0" }[o.answer[i]];
  return `${grew} (${how})${rest}`;
}

const eg = {
  choices() {
    return [["N", "none", "No mistake: w stays"], ["E", "exact", "Mistake: the wᵢ that grow are exactly those with y·xᵢ > 0"],
      ["S", "fewer", "Mistake: only some of the wᵢ with y·xᵢ > 0 grow"],
      ["O", "more", "Mistake: the wᵢ with y·xᵢ > 0 grow, and some others too"]];
  },
  question(o, i, r) {
    const plus = o.plus ? (o.plus[i].length ? features(o.plus[i]) : "no feature")
      : plural(o.favoured[i], "feature", "features");
    return `Round ${r}: y = ${pm(o.label[i])}; y·xᵢ > 0 for ${plus} (of ${o.N}). Will y⟨w, x⟩ ≤ 0 (a mistake) — ` +
      "and which wᵢ grow (×e^(η·y·xᵢ)/Z)?";
  },
  reveal(o, i) {
    const s = `y⟨w, x⟩ = ${signed(o.label[i] * o.score[i])}`;
    if (o.answer[i] === "none") return `${s} > 0: no mistake, w stays.`;
    return `${s} ≤ 0: a mistake. wᵢ ×e^(η·y·xᵢ)/Z with η = ${num(o.eta)}: wᵢ grows iff y·xᵢ > ln Z/η = ` +
      `${egTheta(o, i)}. ${egMoved(o, i)}.`;
  },
};

// ---------------------------------------------------------------- randomised FTRL
// P(ŷ = y) printed on its side of ½ (options.answer); when y·⟨w, x⟩ is too small for (1 + y·⟨w, x⟩)/2 to leave ½
// in floats, as ½ ± |y·⟨w, x⟩|/2.
function ftrlChance(o, i) {
  const rel = { above: ">", half: "=", below: "<" }[o.answer[i]];
  const h = printedHolding(o.pright[i], [[rel, 0.5]], 3);
  if (h) return h.text;
  const d = o.label[i] * o.score[i] / 2;
  return `½ ${d > 0 ? "+" : "−"} ${numText(Math.abs(d), 3)}`;
}

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
    return `⟨w, x⟩ = ${signed(o.score[i])}, y = ${pm(o.label[i])}: P(ŷ = y) = (1 + y·⟨w, x⟩)/2 = ${ftrlChance(o, i)}. ` +
      `The coin gave ŷ = ${pm(o.pred[i])} — ${o.mistake[i] ? "a mistake" : "no mistake"}.`;
  },
};

// ---------------------------------------------------------------- Halving (its own page)
const halving = {
  choices(o, i) {
    const n = o.size[i];
    if (n === 0) return [["A", "all", "All 0: the version space is empty"]];
    const half = Math.floor(n / 2);
    const out = [["A", "all", `All ${n}`], ["H", "half", half === 0 ? "None (0)" : `Half or fewer (≤ ${half})`]];
    // "more than half, not all" needs a whole number strictly between n/2 and n: none for n ≤ 2
    if (n >= 3) out.push(["S", "most", "More than half, not all"]);
    return out;
  },
  question(o, i, r) {
    const n = o.size[i], y = pm(o.label[i]);
    if (n === 0) return `Round ${r}: y = ${y}; the version space is empty. How many hypotheses survive?`;
    return `Round ${r}: y = ${y}; of |Hₜ| = ${n}, ${o.plus[i]} say +1 and ${n - o.plus[i]} say −1 ` +
      "(a tie votes +1). How many survive the round?";
  },
  reveal(o, i) {
    const n = o.size[i], a = o.after[i];
    if (n === 0) return `The version space is empty: Halving predicts +1 — ${o.mistake[i] ? "a mistake" : "no mistake"}; ` +
      "no hypothesis is left to remove.";
    const vote = o.mistake[i] ? "the majority vote was wrong — a mistake" : "the majority vote was right — no mistake";
    if (a === n) return `${vote[0].toUpperCase()}${vote.slice(1)}: all ${n} stay.`;
    return `${vote[0].toUpperCase()}${vote.slice(1)}: the ${n - a} that said ${pm(-o.label[i])} ${n - a === 1 ? "leaves" : "leave"} — ` +
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
// Where the prediction came from: the rule read ("first"), or the level's firing rules by output ("majority":
// options.votes = [say 1, say 0]; a tie predicts 1, and is called one)
function dlRead(o, i) {
  if (o.tie !== "majority") return `rule ${o.rule[i]}`;
  const v = o.votes && o.votes[i];
  if (!v) return `the majority of its firing rules, among them ${o.rule[i]}`;
  const [a, b] = v, n = plural(a + b, "firing rule", "firing rules");
  if (a === b) return `a tie among its ${n}, ${a} to ${b}, which predicts 1; among them ${o.rule[i]}`;
  return `the majority of its ${n}: ${a} say 1, ${b} say 0; among them ${o.rule[i]}`;
}

const dl = {
  choices() { return [["N", "none", "No mistake: no rule moves"], ["M", "fall", "Mistake: the wrong firing rules fall"]]; },
  question(o, i, r) {
    return `Round ${r}: ${o.x ? `x = ${o.x[i]}, ` : ""}y = ${o.label[i]}. The first level with a firing rule ` +
      `predicts${o.tie === "majority" ? " (the majority of its firing rules; a tie predicts 1)" : ""}: mistake or not?`;
  },
  reveal(o, i) {
    const s = `Level ${o.level[i]} predicted ŷ = ${o.pred[i]} (${dlRead(o, i)}), y = ${o.label[i]}`;
    if (o.answer[i] === "none") return `${s}: no mistake, no rule moves.`;
    return `${s}: a mistake — ${list(o.fell[i])} ${o.fell[i].length === 1 ? "falls" : "fall"} to level ${o.level[i] + 1}.`;
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

// The right answer for round r (1-based): the run's (options.answer).
export function rightAnswer(o, r) {
  kind(o);
  return o.answer[r - 1];
}

// The question for round r, as plain text.
export function questionText(o, r) { return kind(o).question(o, r - 1, r); }

// What happened in round r, with the run's numbers, as plain text.
export function revealText(o, r) { return kind(o).reveal(o, r - 1); }
