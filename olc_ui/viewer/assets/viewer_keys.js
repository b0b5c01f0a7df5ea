// olc step viewer: the keys without a click. A viewer listens to keydown on its own element (it is
// focusable), so before this the keys only worked once the student had clicked into it — except in
// presentation mode, which listened on the document. Now every viewer does: a key pressed anywhere on
// the page (nothing focused, or a button) goes to the page's viewer, unless the focus is somewhere that
// uses the key itself — a text field, a list, a slider, a radio group (ownsKeys).

// Where a keydown on the document should not step the viewer: typing, lists, sliders and radio
// groups keep their keys; a button, switch or checkbox keeps only Space and Enter (it has no use
// for arrows, so a student who just pressed a button or flipped a switch can step at once).
const PRESSABLE = ["button", "switch", "checkbox", "link", "menuitemcheckbox"];
const OWN_KEYS = ["slider", "textbox", "combobox", "listbox", "option", "spinbutton", "radio", "radiogroup",
  "menuitem", "tab", "tablist", "grid", "tree"];
function roleOf(target) {
  const tag = target.tagName;
  const type = tag === "INPUT" ? String(target.type || "text").toLowerCase() : "";
  return (target.getAttribute && target.getAttribute("role")) ||
    (tag === "BUTTON" || type === "button" || type === "submit" ? "button" : type === "checkbox" ? "checkbox" :
      tag === "A" ? "link" : "");
}

const ACTIVATES = (key) => key === " " || key === "Spacebar" || key === "Enter";

// True for Space or Enter on a focused button (switch, checkbox, link): the browser's default presses
// it. The viewer's own listener lets these through too — Space on a focused Next steps once, as a click
// would, instead of starting Play; Space elsewhere in the viewer (or on the page) still plays.
export function pressesItself(target, key) {
  if (!target || !target.tagName || target === document.body || target === document.documentElement) return false;
  return ACTIVATES(key) && PRESSABLE.includes(roleOf(target));
}

export function ownsKeys(target, key) {
  if (!target || target === document.body || target === document.documentElement) return false;
  if (target.isContentEditable) return true;
  const tag = target.tagName;
  if (PRESSABLE.includes(roleOf(target))) return ACTIVATES(key);
  if (tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT") return true;
  return OWN_KEYS.includes(roleOf(target));
}

let lastUsed = null;  // the viewer element the student last clicked or focused (pages may hold several)

// The viewer a key pressed outside every viewer goes to: the first presenting one, else the one inside an
// element the embedding page marks data-olc-keys="here" (an offline tour file: the section on screen), else
// the one last used, else the first on the page.
export function keyViewer(doc) {
  const present = doc.querySelector(".olc-viewer.olc-present");
  if (present) return present;
  const here = doc.querySelector('[data-olc-keys="here"] .olc-viewer');
  if (here) return here;
  if (lastUsed && lastUsed.isConnected) return lastUsed;
  return doc.querySelector(".olc-viewer");
}

function onDocKey(ev) {
  if (ev.defaultPrevented || ev.altKey || ev.ctrlKey || ev.metaKey) return;
  const t = ev.target;
  if (t && t.closest && t.closest(".olc-viewer")) return;  // inside a viewer: its own listener had it
  if (ownsKeys(t, ev.key)) return;
  const root = keyViewer(t && t.ownerDocument ? t.ownerDocument : document);
  if (root && root.olcViewer) root.olcViewer.onKey(ev);
}

function onUse(ev) {
  const v = ev.target && ev.target.closest && ev.target.closest(".olc-viewer");
  if (v) lastUsed = v;
}

// One listener per document, whichever bundle (or how many viewers) installed it: a second install
// replaces the first, so a key never steps twice.
export function installDocumentKeys(doc) {
  const old = doc.__olcKeys;
  if (old) {
    doc.removeEventListener("keydown", old.key);
    doc.removeEventListener("pointerdown", old.use, true);
    doc.removeEventListener("focusin", old.use, true);
  }
  doc.__olcKeys = { key: onDocKey, use: onUse };
  doc.addEventListener("keydown", onDocKey);
  doc.addEventListener("pointerdown", onUse, true);
  doc.addEventListener("focusin", onUse, true);
}
