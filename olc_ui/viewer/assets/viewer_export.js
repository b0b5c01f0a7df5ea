// olc step viewer: "Download the figure at this round (HTML)", built in the browser.
//
// Loaded by viewer.js (dynamic import) on the first click only. The page is made from
// the position on screen, so a download during Play is of the round the student sees
// (a server-side button would build it from the position Python last heard of, which
// lags during Play). The file stands alone: plotly.js is inlined (the bundle the viewer
// already loaded, from the browser's cache), and the ledger's mathematics is typeset
// here by KaTeX, with its stylesheet and fonts (woff2 as data: URIs) inlined.
// Every text from the spec is escaped; the only HTML taken as is comes from KaTeX and
// from the viewer's own ledger titles and reasons (built with textContent and <sub>/<sup>).

const ESC = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
const esc = (s) => String(s == null ? "" : s).replace(/[&<>"']/g, (c) => ESC[c]);
// JSON or JS inside <script>: no "</script" or "<!--" can end or change the element
const scriptSafe = (s) => s.replace(/<\/(script)/gi, "<\\/$1").replace(/<!--/g, "<\\!--");
const jsonSafe = (v) => JSON.stringify(v).replace(/</g, "\\u003c").replace(/\u2028/g, "\\u2028").replace(/\u2029/g, "\\u2029");

const textCache = new Map();
function fetchText(url) {
  if (!textCache.has(url)) {
    const p = fetch(url).then((r) => {
      if (!r.ok) throw new Error(`could not load ${url} (${r.status})`);
      return r.text();
    });
    p.catch(() => textCache.delete(url));
    textCache.set(url, p);
  }
  return textCache.get(url);
}

async function dataUri(url) {
  const r = await fetch(url);
  if (!r.ok) throw new Error(`could not load ${url} (${r.status})`);
  const bytes = new Uint8Array(await r.arrayBuffer());
  let bin = "";
  for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode.apply(null, bytes.subarray(i, i + 0x8000));
  return `data:font/woff2;base64,${btoa(bin)}`;
}

// KaTeX's stylesheet with its woff2 fonts inlined (the other formats dropped), as
// olc_ui/shared/common.py does for the server-side page.
async function katexCss(cssUrl) {
  const css = await fetchText(cssUrl);
  const rx = /src:url\(fonts\/([A-Za-z0-9_-]+)\.woff2\) format\("woff2"\)(?:,url\([^)]*\) format\("[a-z]+"\))*/g;
  const names = [...new Set([...css.matchAll(rx)].map((m) => m[1]))];
  const uris = new Map(await Promise.all(names.map(async (n) => [n, await dataUri(new URL(`fonts/${n}.woff2`, cssUrl).href)])));
  return css.replace(rx, (_, n) => `src:url(${uris.get(n)}) format("woff2")`);
}

// The figures at position p: each dynamic op applied to a copy of the static figure, the
// canvas layers included (as plain points: the file has no canvas).
export function figuresAt(view, p, k) {
  return view.figs.map((f) => {
    const fig = f.spec.figure || {};
    const data = (fig.data || []).map((t) => ({ ...t }));
    // the size the figure had on screen: a figure drawn in a narrow column and stretched to the
    // page's width had its axes squashed (a sandwich at 1100 × 320 instead of 440 × 320)
    const shown = f.gd && f.gd._fullLayout;
    const layout = { ...(fig.layout || {}), height: (shown && shown.height) || f.spec.height || (fig.layout || {}).height || 400 };
    delete layout.width;
    if (shown && shown.width > 0) layout.width = Math.round(shown.width);
    layout.autosize = false;
    for (const op of f.spec.dynamic || []) {
      const t = data[op.trace];
      if (!t) continue;
      const v = view.evalOp(op, p, k);
      Object.assign(t, { x: v.x && v.x.length ? v.x : [null], y: v.y && v.y.length ? v.y : [null] });
      if (v.z) t.z = v.z;
      if (v.text) t.text = v.text;
      if (v.color) t.marker = { ...(t.marker || {}), color: v.color };
    }
    return { id: f.spec.id, title: f.spec.title || "", note: f.spec.note || "", data, layout, config: { displaylogo: false, responsive: false, ...(f.spec.config || {}) } };
  });
}

// The standalone page of what the viewer shows at position p.
export async function figureHtml(view, p, urls) {
  const k = view.k(p);
  const [plotlyJs, css] = await Promise.all([fetchText(urls.plotly), katexCss(urls.katex_css)]);
  const figs = figuresAt(view, p, k);
  const title = figs.length ? figs[0].title : "";
  const parts = [`<h2>${esc(title)} — round ${p} of ${view.T}</h2>`,
    `<p class="caption">${esc(view.captionEl ? view.captionEl.textContent : "")}</p>`];
  // the figures side by side as far as the page is wide, each at its on-screen size
  parts.push('<div class="figs">');
  figs.forEach((f, i) => {
    const w = Number(f.layout.width) || 0, h = Number(f.layout.height) || 400;
    parts.push(`<section class="figbox"${w ? ` style="width:${w}px"` : ""}>`);
    if (i > 0 && f.title) parts.push(`<h3>${esc(f.title)}</h3>`);
    const note = f.note ? `<p class="note">${esc(f.note)}</p>` : "";
    parts.push(`<div class="fig" id="fig${i}" style="height:${h}px${w ? `;width:${w}px` : ""}"></div>${note}</section>`);
  });
  parts.push("</div>");
  const lines = view.ledgerLines || [];
  if (lines.length) {
    const t = view.ledgerEl && view.ledgerEl.querySelector(".olc-ledger-title");
    parts.push(`<h3>${t ? t.innerHTML : "Proof ledger at this round"}</h3><ul class="ledger">`);
    for (const L of lines) {
      const tex = view.fill(L.line.latex || "", L.line.values, p, k, true);
      const h = view.values(L.line.holds, p, k);
      const mark = L.line.na ? "n/a" : h === true || h === 1 ? "✓" : h === false || h === 0 ? "✗" : "—";
      const math = view.katex.renderToString(tex, { throwOnError: false, strict: "ignore", displayMode: false });
      const reason = L.row.querySelector(".olc-reason");
      const why = reason && reason.textContent ? ` — ${reason.innerHTML}` : "";
      parts.push(`<li><span class="mark">${mark}</span> ${math}${why}</li>`);
    }
    parts.push("</ul>");
  }
  const draw = figs.map((f, i) => `Plotly.newPlot("fig${i}",${jsonSafe(f.data)},${jsonSafe(f.layout)},${jsonSafe(f.config)});`);
  const style = "body{font-family:system-ui,sans-serif;max-width:1400px;margin:1.5em auto;padding:0 1em}" +
    ".figs{display:flex;flex-wrap:wrap;gap:1em;align-items:flex-start}.figbox{flex:none;max-width:100%}" +
    ".ledger li{margin:.5em 0;list-style:none}.ledger .katex{font-size:1.1em}";
  return "<!doctype html><html><head><meta charset='utf-8'><title>olc figure</title>" +
    `<style>${style}</style><style>${scriptSafe(css)}</style>` +
    `<script>${scriptSafe(plotlyJs)}</script></head><body>${parts.join("")}` +
    `<script>${draw.join("\n")}</script></body></html>`;
}

// Save `html` as `fileName` (a Blob behind a temporary link).
export function save(html, fileName) {
  const blob = new Blob([html], { type: "text/html" });
  const href = URL.createObjectURL(blob);
  const a = document.createElement("a");
  a.href = href;
  a.download = fileName;
  a.style.display = "none";
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(href), 60_000);
}
