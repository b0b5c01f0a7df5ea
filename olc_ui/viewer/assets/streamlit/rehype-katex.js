// olc: Streamlit 1.67.0's Markdown-maths plugin (its chunk static/js/rehype-katex.YTWa9hPp.js: rehype-katex with a
// copy of KaTeX, 265 kB) served as this module instead, which typesets with the KaTeX the step viewer loads
// (olc_ui/static_files.py; docs/load.md, "A first visit over a lecture hall's wifi"): a page's Markdown maths no longer
// brings a second KaTeX. The same plugin as rehype-katex 7 (its `default` export, the same options, the same fallback
// on a KaTeX error), on the same hast utilities, imported from the chunks Streamlit loads with the original (their
// names are this Streamlit build's: the module is served only while the original chunk has the recorded SHA-256).
import { n as visitParents, t as SKIP } from "./lib.DTkPmFNq.js";
import { i as s, n as h, t as initHastscript } from "./hastscript.BRLGlqm4.js";
import { t as namespaces } from "./web-namespaces.BxZ_GhEx.js";

initHastscript();

// The viewer's KaTeX (olc_ui/viewer/assets.py), from the same URLs and the same page-wide cache as the viewer
// (window.__olcViewerLibs, viewer_libs.js): loaded once for both.
const KATEX_JS = new URL("../../app/static/olc/katex-0.19.1/katex.min.js", import.meta.url).href;
const KATEX_CSS = new URL("../../app/static/olc/katex-0.19.1/katex.min.css", import.meta.url).href;

function cached(url, make) {
  const cache = (window.__olcViewerLibs = window.__olcViewerLibs || {});
  if (!cache[url]) {
    cache[url] = make();
    cache[url].catch(() => { delete cache[url]; });
  }
  return cache[url];
}

const katex = await Promise.all([
  cached(KATEX_JS, () => new Promise((resolve, reject) => {
    const before = window.katex;
    const el = document.createElement("script");
    el.src = KATEX_JS;
    el.async = true;
    el.onload = () => {
      const mine = window.katex;
      if (!mine || mine === before) { reject(new Error(`${KATEX_JS} did not define window.katex`)); return; }
      if (before !== undefined) window.katex = before;
      resolve(mine);
    };
    el.onerror = () => reject(new Error(`could not load ${KATEX_JS}`));
    document.head.appendChild(el);
  })),
  cached(KATEX_CSS, () => new Promise((resolve, reject) => {
    const el = document.createElement("link");
    el.rel = "stylesheet";
    el.href = KATEX_CSS;
    el.onload = () => resolve(el);
    el.onerror = () => reject(new Error(`could not load ${KATEX_CSS}`));
    document.head.appendChild(el);
  })),
]).then(([k]) => k);

// hast-util-from-dom, as Streamlit's chunk has it: a DOM fragment as hast nodes.
function fromDom(node) {
  if (node.nodeType === 1) {
    const ns = node.namespaceURI;
    const make = ns === namespaces.svg ? s : h;
    const name = ns === namespaces.html ? node.tagName.toLowerCase() : node.tagName;
    const props = {};
    for (const a of node.getAttributeNames()) props[a] = node.getAttribute(a) || "";
    return make(name, props, children(name === "template" ? node.content : node));
  }
  if (node.nodeType === 3) return { type: "text", value: node.nodeValue || "" };
  if (node.nodeType === 8) return { type: "comment", value: node.nodeValue || "" };
  if (node.nodeType === 11) return { type: "root", children: children(node) };
  return undefined;
}

function children(node) {
  const out = [];
  for (const child of node.childNodes) {
    const n = fromDom(child);
    if (n !== undefined) out.push(n);
  }
  return out;
}

function fromHtml(html) {
  const t = document.createElement("template");
  t.innerHTML = html;
  return children(t.content);
}

// A math node's TeX: its text, as written (hast-util-to-text with whitespace "pre").
function text(node) {
  if (node.type === "text") return node.value;
  return (node.children || []).map(text).join("");
}

const emptyOptions = {};
const emptyClasses = [];

export default function rehypeKatex(options) {
  const settings = options || emptyOptions;
  return function (tree, file) {
    visitParents(tree, "element", function (element, parents) {
      const classes = Array.isArray(element.properties.className) ? element.properties.className : emptyClasses;
      const languageMath = classes.includes("language-math");
      const mathDisplay = classes.includes("math-display");
      const mathInline = classes.includes("math-inline");
      let displayMode = mathDisplay;
      if (!languageMath && !mathDisplay && !mathInline) return;
      let parent = parents[parents.length - 1];
      let scope = element;
      if (element.tagName === "code" && languageMath && parent && parent.type === "element" && parent.tagName === "pre") {
        scope = parent;
        parent = parents[parents.length - 2];
        displayMode = true;
      }
      if (!parent) return;
      const value = text(scope);
      let result;
      try {
        result = katex.renderToString(value, { ...settings, displayMode, throwOnError: true });
      } catch (error) {
        file.message("Could not render math with KaTeX", {
          ancestors: [...parents, element], cause: error, place: element.position,
          ruleId: String(error.name).toLowerCase(), source: "rehype-katex" });
        try {
          result = katex.renderToString(value, { ...settings, displayMode, strict: "ignore", throwOnError: false });
        } catch (e) {
          result = [{ type: "element", tagName: "span",
                      properties: { className: ["katex-error"], style: "color:" + (settings.errorColor || "#cc0000"),
                                    title: String(error) },
                      children: [{ type: "text", value }] }];
        }
      }
      if (typeof result === "string") result = fromHtml(result);
      const index = parent.children.indexOf(scope);
      parent.children.splice(index, 1, ...result);
      return SKIP;
    });
  };
}
