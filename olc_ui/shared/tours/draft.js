// Keeps a student's tour draft in this browser (localStorage), so that it survives a reload, a new tab and a
// restarted server (olc_ui/shared/tours/author.py keep_draft; docs/tours.md, "Your own tours").
//
// data = {draft: <the draft as JSON text> | null, ask: bool, clear: bool}:
//   draft — Python's draft has stops: stored here (the latest wins);
//   ask   — a new session with no draft: the stored one, if any, is handed to Python (setStateValue("restore", …)),
//           which checks it as it checks a tour file before taking it;
//   clear — the student removed every stop: the stored draft goes too.
const KEY = "olc-tour-draft";
const MAX_CHARS = 400000;

export default function (component) {
  const data = component.data || {};
  let store;
  try { store = window.localStorage; } catch (e) { return; }       // storage off: the draft lives in the session
  if (!store) return;
  try {
    if (typeof data.draft === "string" && data.draft.length <= MAX_CHARS) { store.setItem(KEY, data.draft); return; }
    if (data.clear === true) { store.removeItem(KEY); return; }
    if (data.ask === true) {
      const saved = store.getItem(KEY);
      if (saved && saved.length <= MAX_CHARS && typeof component.setStateValue === "function")
        component.setStateValue("restore", { draft: saved, at: Date.now() });
    }
  } catch (e) { /* quota or storage off: nothing kept */ }
}
