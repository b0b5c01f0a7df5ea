// olc step viewer: loading plotly.js and KaTeX from the app's static folder.


// The Streamlit server's base URL: its index.html loads ./static/js/index.<hash>.js
// relative to the base, so the resolved src tells the base path (also behind a
// server.baseUrlPath or Community Cloud's /~/+/ prefix, and on a sub-page URL).
export function serverBase() {
  const s = document.querySelector('script[src*="/static/js/index"]');
  if (s && s.src) return s.src.slice(0, s.src.lastIndexOf("static/js/"));
  return new URL("./", window.location.href).href;
}

// One promise per URL for the whole page (kept on window, so a re-evaluated module,
// e.g. after a code change, does not load plotly.js a second time).
export function libCache() {
  if (!window.__olcViewerLibs) window.__olcViewerLibs = {};
  return window.__olcViewerLibs;
}

// A UMD bundle (plotly.js, KaTeX) defines window[globalName]: the object it defined is
// captured on load, and a global defined before by someone else is put back, so two
// bundles (plotly's basic and full builds) or another component's copy can coexist.
export function loadScript(url, globalName) {
  const cache = libCache();
  if (cache[url]) return cache[url];
  cache[url] = new Promise((resolve, reject) => {
    const el = document.createElement("script");
    el.src = url;
    el.async = true;
    el.onload = () => {
      const mine = window[globalName];
      if (!mine || mine === before) { reject(new Error(`${url} loaded but did not define window.${globalName}`)); return; }
      if (before !== undefined) window[globalName] = before;
      resolve(mine);
    };
    el.onerror = () => reject(new Error(`could not load ${url}`));
    const before = window[globalName];
    document.head.appendChild(el);
  });
  cache[url].catch(() => { delete cache[url]; });  // allow a retry on the next build
  return cache[url];
}

export function loadCss(url) {
  const cache = libCache();
  if (cache[url]) return cache[url];
  cache[url] = new Promise((resolve, reject) => {
    const el = document.createElement("link");
    el.rel = "stylesheet";
    el.href = url;
    el.onload = () => resolve(el);
    el.onerror = () => reject(new Error(`could not load ${url}`));
    document.head.appendChild(el);
  });
  cache[url].catch(() => { delete cache[url]; });
  return cache[url];
}

// Plotly.animate (redraw: false) re-runs doCalcdata over every trace of the figure, and
// that calls PlotSchema.findArrayAttributes for each: a crawl of the trace type's whole
// attribute schema (about 0.6 ms a trace, 12 ms a step for the demo's two figures). Its
// result depends only on the trace's module and on which of its (nested) values are
// arrays, so it is memoised on exactly that. Applied once, to the plotly.js this
// component loaded; skipped if that function is missing (another plotly.js version).
export function memoiseFindArrayAttributes(Plotly) {
  const PS = Plotly && Plotly.PlotSchema;
  if (!PS || typeof PS.findArrayAttributes !== "function" || PS.__olcMemo) return;
  const original = PS.findArrayAttributes;
  const memo = new Map();
  const isArr = (v) => Array.isArray(v) || (ArrayBuffer.isView(v) && !(v instanceof DataView));
  const isObj = (v) => Object.prototype.toString.call(v) === "[object Object]";
  const shape = (obj, path, out, depth) => {
    if (depth > 10) { out.push(`${path}…${out.length}`); return; }
    for (const key of Object.keys(obj)) {
      if (key.charCodeAt(0) === 95) continue;  // "_": private, not in the schema
      const v = obj[key];
      if (isArr(v)) {
        out.push(path + key);
        if (Array.isArray(v) && v.length && isObj(v[0]))
          v.forEach((item, i) => { if (isObj(item)) shape(item, `${path}${key}[${i}].`, out, depth + 1); });
      } else if (isObj(v)) shape(v, `${path}${key}.`, out, depth + 1);
    }
  };
  PS.findArrayAttributes = function (trace) {
    if (!isObj(trace)) return original.apply(this, arguments);
    const parts = [String(trace.type), trace._module ? "m" : "-"];
    shape(trace, "", parts, 0);
    const key = parts.join("|");
    let found = memo.get(key);
    if (!found) {
      found = original.apply(this, arguments);
      if (memo.size > 1000) memo.clear();
      memo.set(key, found.slice());
      return found;
    }
    return found.slice();
  };
  PS.__olcMemo = true;
}

export function loadLibs(assets) {
  const base = serverBase();
  const abs = (path) => new URL(path, base).href;
  return {
    plotly: loadScript(abs(assets.plotly), "Plotly").then((P) => { memoiseFindArrayAttributes(P); return P; }),
    katex: Promise.all([loadScript(abs(assets.katex_js), "katex"), loadCss(abs(assets.katex_css))])
      .then(([katex]) => katex),
  };
}

