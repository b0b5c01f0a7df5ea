// olc step viewer: small DOM and array helpers shared by the viewer's modules.
// (Module layout: docs/viewer-spec.md, "Modules and the mode hooks".)

// Plotly's markup in a label: only the tags it knows (b, i, em, sup, sub, br, a, span, s, u); any other "<" is
// text, drawn as typed ("band |⟨w*,x⟩| < γ"), and must be kept as text when a label is measured or wrapped.
const PLOTLY_TAG_SPLIT = /(<\/?(?:b|i|em|sup|sub|br|a|span|s|u)(?:\s[^<>]*)?\/?>)/i;
const PLOTLY_TAGS = new RegExp(PLOTLY_TAG_SPLIT.source.slice(1, -1), "gi");

// A label without plotly's tags (a "<" that opens none stays).
export function untagged(text) { return String(text).replace(PLOTLY_TAGS, ""); }

// A label's visible characters, to measure it: without plotly's tags, an entity (&lt;, &#43;) as one character.
export function plainLabel(text) { return untagged(text).replace(/&(#\d+|#x[\da-fA-F]+|[a-z]+);/g, "x"); }

// A label's words at its spaces, each with its tags (a tag is never split; a "<" that opens no tag is text).
export function labelWords(text) {
  const words = [];
  let word = "";
  String(text).split(PLOTLY_TAG_SPLIT).forEach((piece, i) => {
    if (i % 2) { word += piece; return; }
    for (const bit of piece.split(/(\s+)/)) {
      if (!bit) continue;
      if (/^\s+$/.test(bit)) { if (word) words.push(word); word = ""; } else word += bit;
    }
  });
  if (word) words.push(word);
  return words;
}

export function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

// Plain text with light index notation (x_t, Φ_{t+1}, β^{p_i}, 2^M) as DOM text and <sub>/<sup>
// elements: never parsed as HTML. A marker takes a braced group or one letter, digit or *; anything
// else (an unmatched brace, a marker at the end) stays as it is. olc_ui/shared/common.py rich_html mirrors it.
export const INDEX_CHAR = /[\p{L}\p{N}*]/u;
export function indexParts(s) {
  const out = [];  // strings, and {tag, parts} for a sub/sup
  let i = 0, buf = "";
  while (i < s.length) {
    const c = s[i];
    if ((c === "_" || c === "^") && i + 1 < s.length) {
      let inner = null, next = i + 1;
      if (s[i + 1] === "{") {
        let depth = 0, j = i + 1;
        for (; j < s.length; j++) {
          if (s[j] === "{") depth++;
          else if (s[j] === "}" && --depth === 0) break;
        }
        if (j < s.length) { inner = s.slice(i + 2, j); next = j + 1; }
      } else {
        const ch = String.fromCodePoint(s.codePointAt(i + 1));
        if (INDEX_CHAR.test(ch)) { inner = ch; next = i + 1 + ch.length; }
      }
      if (inner !== null) {
        if (buf) out.push(buf);
        buf = "";
        out.push({ tag: c === "_" ? "sub" : "sup", parts: indexParts(inner) });
        i = next;
        continue;
      }
    }
    buf += c;
    i++;
  }
  if (buf) out.push(buf);
  return out;
}

export function appendRich(parent, s) {
  appendParts(parent, indexParts(String(s)));
  return parent;
}

export function appendParts(parent, parts) {
  for (const part of parts) {
    if (typeof part === "string") parent.appendChild(document.createTextNode(part));
    else { const e = document.createElement(part.tag); appendParts(e, part.parts); parent.appendChild(e); }
  }
}

// Button icons as SVG paths (a 16 x 16 box): glyph fonts differ between machines.
export const ICONS = {
  first: "M2 2h2.2v12H2z M14 2 5.5 8l8.5 6z",
  prevStop: "M8 2 0.5 8 8 14z M15.5 2 8 8l7.5 6z",
  prev: "M12 2 4 8l8 6z",
  play: "M4 1.5 14 8 4 14.5z",
  pause: "M3 2h3.6v12H3z M9.4 2H13v12H9.4z",
  next: "M4 2l8 6-8 6z",
  nextStop: "M0.5 2 8 8l-7.5 6z M8 2l7.5 6L8 14z",
  last: "M2 2l8.5 6L2 14z M11.8 2H14v12h-2.2z",
  download: "M7 1h2v7h3l-4 5-4-5h3z M2 13.2h12V15H2z",
};

export function icon(name) {
  const NS = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(NS, "svg");
  svg.setAttribute("viewBox", "0 0 16 16");
  svg.setAttribute("width", "14");
  svg.setAttribute("height", "14");
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("class", "olc-icon");
  const path = document.createElementNS(NS, "path");
  path.setAttribute("d", ICONS[name]);
  path.setAttribute("fill", "currentColor");
  svg.appendChild(path);
  return svg;
}

export function setIcon(svg, name) { svg.firstChild.setAttribute("d", ICONS[name]); }

// plotly hides a trace with no points (visible: false) and a frame that empties a
// trace would leave its old drawing behind: an empty selection is one null point.
export function nonEmpty(a) { return a && a.length ? a : [null]; }

export function clamp(v, lo, hi) { return Math.max(lo, Math.min(hi, v)); }

// number of entries < v (a sorted ascending)
export function lowerBound(a, v) {
  let lo = 0, hi = a.length;
  while (lo < hi) { const m = (lo + hi) >> 1; if (a[m] < v) lo = m + 1; else hi = m; }
  return lo;
}

// number of entries <= v (a sorted ascending)
export function upperBound(a, v) {
  let lo = 0, hi = a.length;
  while (lo < hi) { const m = (lo + hi) >> 1; if (a[m] <= v) lo = m + 1; else hi = m; }
  return lo;
}


export function pick(arr, i) { return arr && i >= 0 && i < arr.length ? arr[i] : null; }

export function withNulls(list) {  // [[..], [..]] -> [.., null, ..]
  const out = [];
  for (const part of list) {
    if (!part || !part.length) continue;
    if (out.length) out.push(null);
    for (const v of part) out.push(v);
  }
  return out;
}
