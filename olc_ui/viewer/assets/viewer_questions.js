// olc step viewer: the questions of predict-then-reveal, one kind per learner (a module of
// viewer_predict.js). Each kind answers four things for round r (1-based) from the options Python
// built from the run (olc_ui/viewer/predict.py): the answers offered (choices: [key, id, text]),
// the right one (rightAnswer), the question (questionText) and what happened (revealText), as
// plain text. A new kind: its branches here and its options builder in predict.py.

import { formatNumber } from "./viewer_format.js";

// The answers a round offers: [key, answer id, button text].
export function choices(o, r) {
  const i = r - 1;
  if (o.kind === "perceptron" && !(o.wzero && o.wzero[i]))
    return [["N", "none", "No mistake"], ["A", "acw", "Mistake: w turns anticlockwise"],
      ["C", "cw", "Mistake: w turns clockwise"]];
  return [["N", "none", "No mistake"], ["M", "mistake", "Mistake"]];
}

// The right answer for round r (1-based).
export function rightAnswer(o, r) {
  const i = r - 1;
  if (!o.mistake[i]) return "none";
  if (o.kind === "perceptron" && !(o.wzero && o.wzero[i])) return o.turn[i] > 0 ? "acw" : "cw";
  return "mistake";
}

function signed(v) { return (v > 0 ? "+" : v < 0 ? "−" : "") + formatNumber(Math.abs(v), ".4g"); }
function num(v) { return formatNumber(v, ".3g").replace("-", "−"); }

// The question for round r, as plain text.
export function questionText(o, r) {
  const i = r - 1, y = o.label[i] > 0 ? "+1" : "−1";
  if (o.kind === "perceptron") {
    const w0 = o.wzero && o.wzero[i] ? " w is still 0." : "";
    return `Round ${r}: x = (${num(o.px[i])}, ${num(o.py[i])}), ringed on the ` +
      `chart, has label y = ${y}.${w0} Will the Perceptron make a mistake` + (w0 ? "?" : " — and which way will w turn?");
  }
  const who = o.says ? (o.says[i].length ? ` (${o.says[i].length === 1 ? "expert" : "experts"} ${o.says[i].join(", ")})` : "") : "";
  return `Round ${r}: the label is y = ${y}; ${o.agree[i]} of the ${o.N} experts say ${y}${who}. ` +
    `Look at the weights: will the ${o.whose === "of the weight" ? "weighted majority" : "majority of the version space"} err?`;
}

// What happened in round r, with the run's numbers, as plain text.
export function revealText(o, r) {
  const i = r - 1;
  if (o.kind === "perceptron") {
    const s = `⟨w, x⟩ = ${signed(o.score[i])} and y = ${o.label[i] > 0 ? "+1" : "−1"}`;
    if (!o.mistake[i]) return `${s}: the signs agree — no mistake, w stays.`;
    if (o.wzero && o.wzero[i]) return `${s}: w was 0, a score of 0 counts as a mistake — w becomes y·x.`;
    const a = o.angle[i];
    return `${s}: ${o.score[i] === 0 ? "a score of 0 counts as a mistake" : "the signs differ — a mistake"}; ` +
      `w += y·x turned w ${formatNumber(Math.abs(a), ".3g")}° ${a > 0 ? "anticlockwise" : "clockwise"}.`;
  }
  const share = formatNumber(o.wrong[i], ".3f");
  if (o.wrong[i] === 0) return "No expert was wrong: no mistake.";
  return `The experts that were wrong held ${share} ${o.whose}: ` +
    (o.mistake[i] ? "the vote went their way — a mistake." : "the vote went the other way — no mistake.");
}

