// olc step viewer: numbers and values as text / LaTeX.

// The subset of Python's format-spec mini-language the spec allows (see
// olc_ui/viewer/spec.py FORMAT_RE): [sign][,][.precision][type], type in d f e g %.
// Output matches Python's format(value, fmt) for finite numbers.

export const FMT_RE = /^([+\- ]?)(,?)(?:\.(\d+))?([dfeg%]?)$/;

export function stripZeros(s) {
  return s.indexOf(".") < 0 ? s : s.replace(/0+$/, "").replace(/\.$/, "");
}

// Python rounds an exact tie (a binary value exactly halfway, like 0.125 to 2
// decimals) to even; JavaScript's toFixed / toExponential round it up. Returns the
// integer nearest a·10^k (a BigInt) when a·10^k is exactly halfway, else null.
// Decided exactly: a = M·2^E with M odd, so 2·a·10^k is an odd integer only if E+k+1 = 0.
export function tieToEven(a, k) {
  if (!(a > 0) || !Number.isFinite(a)) return null;
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, a);
  const hi = view.getUint32(0), lo = view.getUint32(4), bits = (hi >>> 20) & 0x7ff;
  let M = (BigInt(hi & 0xfffff) << 32n) | BigInt(lo), E = -1074;
  if (bits) { M |= 1n << 52n; E = bits - 1075; }
  while ((M & 1n) === 0n) { M >>= 1n; E += 1; }
  if (E + k + 1 !== 0) return null;
  let twice;  // 2·a·10^k, odd
  if (k >= 0) twice = M * 5n ** BigInt(k);
  else {
    const d = 5n ** BigInt(-k);
    if (M % d !== 0n) return null;
    twice = M / d;
  }
  const fl = (twice - 1n) / 2n;
  return fl % 2n === 0n ? fl : fl + 1n;
}

export function digitsWithPoint(n, prec) {  // 1234, 2 -> "12.34"
  let d = String(n);
  if (prec === 0) return d;
  while (d.length <= prec) d = "0" + d;
  return `${d.slice(0, d.length - prec)}.${d.slice(d.length - prec)}`;
}

export function toFixedPy(a, prec) {
  const n = tieToEven(a, prec);
  return n === null ? a.toFixed(prec) : digitsWithPoint(n, prec);
}

export function toExponentialPy(a, prec) {  // JS form: "1.50e+5"
  const js = a.toExponential(prec);
  let exp = +js.split("e")[1];
  let n = tieToEven(a, prec - exp);
  if (n === null) return js;
  if (String(n).length > prec + 1) { n /= 10n; exp += 1; }
  return `${digitsWithPoint(n, prec)}e${exp < 0 ? "-" : "+"}${Math.abs(exp)}`;
}

export function pyExp(s) {  // JS "1.5e+5" -> Python "1.5e+05"
  const [m, e] = s.split("e");
  const sign = e[0] === "-" ? "-" : "+";
  const digits = e.replace(/^[+-]/, "");
  return `${m}e${sign}${digits.length < 2 ? "0" + digits : digits}`;
}

export function pyG(a, prec) {
  const p = prec === 0 ? 1 : prec;
  if (a === 0) return "0";
  const exp = +toExponentialPy(a, p - 1).split("e")[1];
  if (exp < -4 || exp >= p) {
    const [m, e] = pyExp(toExponentialPy(a, p - 1)).split("e");
    return `${stripZeros(m)}e${e}`;
  }
  return stripZeros(toFixedPy(a, Math.max(0, p - 1 - exp)));
}

export function groupThousands(s) {
  const i = s.search(/[.e%]/);
  const int = i < 0 ? s : s.slice(0, i), rest = i < 0 ? "" : s.slice(i);
  return int.replace(/\B(?=(\d{3})+(?!\d))/g, ",") + rest;
}

export function formatNumber(v, fmt) {
  const m = FMT_RE.exec(fmt || "");
  if (!m) return String(v);
  const [, sign, comma, precStr, type] = m;
  const prec = precStr === undefined ? null : +precStr;
  const a = Math.abs(v);
  let s;
  switch (type) {
    case "d": s = String(Math.round(a)); break;
    case "f": s = toFixedPy(a, prec === null ? 6 : prec); break;
    case "e": s = pyExp(toExponentialPy(a, prec === null ? 6 : prec)); break;
    case "%": s = toFixedPy(a * 100, prec === null ? 6 : prec) + "%"; break;  // Python too multiplies first
    default: s = prec === null && type === "" ? String(a) : pyG(a, prec === null ? 6 : prec);
  }
  if (comma) s = groupThousands(s);
  const neg = v < 0 || Object.is(v, -0);
  return (neg ? "-" : sign === "+" ? "+" : sign === " " ? " " : "") + s;
}

// fmt "rel": the relations a ledger line may print, as LaTeX -> text (the spec validator allows only these)
const REL_TEXT = { "\\le": "≤", "<": "<", ">": ">", "\\ge": "≥", "\\overset{?}{\\le}": "≤?", "\\overset{?}{<}": "<?" };

export const BLANK = Symbol("blank");  // a "by round" value at p = 0

// value -> {text, latex}; null / NaN -> a dash, BLANK -> empty text, "n/a" in a ledger line (no round yet)
export function formatValue(v, fmt, labels) {
  if (v === BLANK) return { text: "", latex: "\\text{n/a}" };
  if (v === "inf" || v === "-inf")  // ±∞ (JSON has no infinity): e.g. ln of a weight that reached 0
    return v === "inf" ? { text: "∞", latex: "\\infty" } : { text: "−∞", latex: "-\\infty" };
  if (v === null || v === undefined || (typeof v === "number" && !Number.isFinite(v)))
    return { text: "—", latex: "\\text{---}" };
  if (fmt === "rel") {  // a relation chosen by the numbers (olc_ui/viewer/spec.py REL_LATEX: a closed list)
    const t = labels && typeof v === "number" ? labels[v] : undefined;
    return t in REL_TEXT ? { text: REL_TEXT[t], latex: t } : { text: "?", latex: "?" };
  }
  if (labels && typeof v === "number") v = labels[v] ?? "—";
  if (typeof v !== "number" || fmt === "text") {
    const t = String(v);
    return { text: t, latex: `\\text{${latexEscapeText(t)}}` };
  }
  const s = formatNumber(v, fmt);
  let latex = s.replace(/%$/, "\\%").replace(/,/g, "{,}");
  const em = /^([+\- ]?[\d.{},]+)e([+-])0*(\d+)$/.exec(latex);
  if (em) latex = `${em[1]}\\times 10^{${em[2] === "-" ? "-" : ""}${em[3]}}`;
  return { text: s.replace(/^-/, "−"), latex };
}

export function latexEscapeText(t) {
  return t.replace(/[\\{}$&#^_%~]/g, (c) => ({
    "\\": "\\textbackslash{}", "{": "\\{", "}": "\\}", "$": "\\$", "&": "\\&", "#": "\\#",
    "^": "\\textasciicircum{}", "_": "\\_", "%": "\\%", "~": "\\textasciitilde{}",
  })[c]);
}

export const PLACEHOLDER = /\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

// ------------------------------------------------------------ numbers in a printed comparison
// A sentence that compares two numbers prints them with enough digits for the printed numbers, read back, to
// satisfy the relation it states (as the transcripts do: olc_core/transcript.py _num_pair): "w·x = 100.1 > N =
// 100", never "100 > 100". Whole numbers below 10^15 are printed whole (1000, not 1e+03).
export const CMP_DIGITS = [3, 4, 6, 9, 12, 15, 17];
const HOLDS = {
  "<": (a, b) => a < b, "≤": (a, b) => a <= b, "=": (a, b) => a === b, "≥": (a, b) => a >= b, ">": (a, b) => a > b,
};

// |v| with `digits` significant digits: a whole number below 10^15 whole (1000, not 1e+03), a number from 1 to
// 10^15 with at least its integer digits (1234.5 to 3 digits: 1235), others as Python's format(v, ".{digits}g").
function absText(v, digits) {
  const a = Math.abs(v);
  if (Number.isInteger(a) && a < 1e15) return String(a);
  const whole = a >= 1 && a < 1e15 ? Math.floor(Math.log10(a)) + 1 : 0;
  return formatNumber(a, `.${Math.min(17, Math.max(digits, whole))}g`);
}

// v as text with `digits` significant digits (as absText), "−" for minus.
export function numText(v, digits = 3) {
  if (v === null || v === undefined || Number.isNaN(v)) return "—";
  if (!Number.isFinite(v)) return v > 0 ? "∞" : "−∞";
  return (v < 0 ? "−" : "") + absText(v, digits);
}

// The number numText(v, digits) shows, read back.
function readBack(v, digits) {
  return (v < 0 ? -1 : 1) * Number(absText(v, digits));
}

// The fewest digits (CMP_DIGITS, at least `digits`) with which v, printed and read back, satisfies every [rel, b]
// of `tests` (each true of v): {text, digits}, or null when not even 17 digits do.
export function printedHolding(v, tests, digits = 3) {
  if (!Number.isFinite(v) || !tests.every(([rel, b]) => HOLDS[rel] && HOLDS[rel](v, b))) return null;
  for (const d of CMP_DIGITS.filter((x) => x >= digits).concat([17])) {
    const back = readBack(v, d);
    if (tests.every(([rel, b]) => HOLDS[rel](back, b))) return { text: numText(v, d), digits: d };
  }
  return null;
}

// The fewest digits (CMP_DIGITS, at least `digits`) with which printed a and b still satisfy rel (<, ≤, =, ≥, >):
// [a as text, b as text, digits], or null when not even 17 digits do (rel is then not true of the two floats).
export function printedPair(a, b, rel, digits = 3) {
  const holds = HOLDS[rel];
  if (!holds || !Number.isFinite(a) || !Number.isFinite(b) || !holds(a, b)) return null;
  for (const d of CMP_DIGITS.filter((x) => x >= digits).concat([17])) {
    if (holds(readBack(a, d), readBack(b, d))) return [numText(a, d), numText(b, d), d];
  }
  return null;
}
