// Mirrors a page's settings into the address bar with history.replaceState.
//
// Why not st.query_params: every server-side write whose query string differs from the
// browser's makes Streamlit's frontend call history.pushState, so each page load and each
// settings change added a history entry of its own (one press of Back stayed on the page).
// Here the URL is rewritten in place: Back and Forward move between pages only.
//
// A tour's stop reached in the browser (history.state.olcTourStop, assets/viewer_tour.js) keeps its address until
// the run for that stop writes it.
//
// data = {params: {key: value, ...}, fallback: {key: value}}: `params` replace the query
// (in this order); a `fallback` key (e.g. the position `t`, which the step viewer keeps
// up to date itself) is written only when the URL has none; Streamlit's embed options stay.
export default function (component) {
  const data = component.data || {};
  const params = data.params || {};
  const fallback = data.fallback || {};
  let url;
  try { url = new URL(window.location.href); } catch (e) { return; }
  // a tour's move in the browser (the step viewer's tour mode) put another stop's link in this entry, and its run
  // has not come yet: an earlier run's URL is not written over it
  const moving = window.history.state && typeof window.history.state === "object" ? window.history.state.olcTourStop : undefined;
  if (moving !== undefined && "stop" in params && String(params.stop) !== String(moving)) return;
  const old = url.searchParams;
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) q.set(k, String(v));
  for (const [k, v] of old.entries()) {
    if (q.has(k)) continue;
    if (k in fallback || k.startsWith("embed")) q.append(k, v);
  }
  for (const [k, v] of Object.entries(fallback)) if (!q.has(k)) q.set(k, String(v));
  const search = q.toString();
  if (search === old.toString()) return;
  url.search = search;
  try { window.history.replaceState(window.history.state, "", url.href); } catch (e) { /* throttled */ }
}
