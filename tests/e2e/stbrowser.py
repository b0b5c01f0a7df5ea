"""Shared helpers for driving Streamlit apps in Debian's Chromium through Playwright.

Kept in the repository (it started as a copy of the team's browser toolkit, unchanged but for
this docstring); used by conftest.py here and by bench/ui_latency.py.

Nothing here downloads a browser: Playwright is pointed at the system Chromium
(``apt-get install -y chromium``) through ``executable_path``. Override the binary
with the CHROMIUM_PATH environment variable.

Main pieces
-----------
find_chromium() / launch_kwargs()   where Chromium is and how to launch it
StreamlitServer                     runs ``streamlit run APP`` headless on 127.0.0.1 (context manager)
INSTRUMENT_JS                       init script: logs script-state changes, user actions, DOM mutations
WAIT_JS                             in-page wait for "rerun finished and page settled" (with timings)
wait_for_rerun()                    sync wrapper around WAIT_JS
LIST_WIDGETS_JS / EXCEPTIONS_JS     read widgets and shown exceptions from the DOM

How "the app is done" is detected: Streamlit's root element carries
``data-test-script-state`` (initial / running / notRunning / rerunRequested /
stopRequested / compilationError) and ``data-test-connection-state``. We wait for a
run to start after the action, for the state to come back to notRunning, for lazy
elements (plotly charts are drawn by a separately loaded JS chunk) to render, and
then for the DOM to stay unchanged for a short quiet period. The "Running..." status
widget is NOT a reliable signal: it only appears for runs longer than ~0.5 s.
"""
from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

# Extra Chromium switches. Playwright already adds --headless (when headless=True),
# --no-sandbox, --disable-dev-shm-usage, --no-first-run, --disable-sync,
# --disable-background-networking and --disable-component-update; they are repeated
# here so the launch is explicit. --disable-gpu and --disable-quic are the real additions.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
]

_CANDIDATES = ("/usr/bin/chromium", "chromium", "chromium-browser", "google-chrome", "google-chrome-stable")

DEFAULT_VIEWPORT = {"width": 1280, "height": 900}


def find_chromium(explicit: str | None = None) -> str:
    """Return the Chromium binary to use: explicit arg, $CHROMIUM_PATH, then the usual names."""
    for cand in (explicit, os.environ.get("CHROMIUM_PATH"), *_CANDIDATES):
        if not cand:
            continue
        path = cand if os.path.isabs(cand) else shutil.which(cand)
        if path and os.access(path, os.X_OK):
            return path
    raise FileNotFoundError(
        "No Chromium found. Install Debian's package (apt-get install -y chromium) "
        "or set CHROMIUM_PATH. Do not use `playwright install`: it downloads from a CDN."
    )


def launch_kwargs(executable: str | None = None, headless: bool = True) -> dict:
    """Keyword arguments for ``playwright.chromium.launch(**launch_kwargs())``."""
    return {"executable_path": find_chromium(executable), "args": list(CHROMIUM_ARGS), "headless": headless}


def free_port() -> int:
    """A TCP port on 127.0.0.1 that was free a moment ago."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_http_ok(url: str, timeout_s: float, proc: subprocess.Popen | None = None) -> None:
    """Poll ``url`` until it answers 200, the process dies, or the timeout passes."""
    deadline = time.monotonic() + timeout_s
    last_err: Exception | None = None
    while time.monotonic() < deadline:
        if proc is not None and proc.poll() is not None:
            raise RuntimeError(f"server exited with code {proc.returncode} before {url} answered")
        try:
            with urllib.request.urlopen(url, timeout=2) as resp:
                if resp.status == 200:
                    return
        except (urllib.error.URLError, ConnectionError, OSError) as exc:
            last_err = exc
        time.sleep(0.2)
    raise TimeoutError(f"{url} did not answer within {timeout_s:.0f}s (last error: {last_err})")


def process_cpu_seconds(pid: int | None) -> float | None:
    """User+system CPU seconds used so far by process ``pid`` (Linux /proc), None if unknown."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError, TypeError):
        return None


def machine_cpu_ticks() -> tuple[int, int] | None:
    """(busy, total) jiffies of all CPUs from /proc/stat; diff two samples for a busy fraction."""
    try:
        vals = [int(x) for x in Path("/proc/stat").read_text().splitlines()[0].split()[1:]]
        idle = vals[3] + (vals[4] if len(vals) > 4 else 0)  # idle + iowait
        return sum(vals) - idle, sum(vals)
    except (OSError, ValueError, IndexError):
        return None


class StreamlitServer:
    """Run ``streamlit run APP`` headless on 127.0.0.1 and stop it (by PID) afterwards.

    >>> with StreamlitServer("app.py") as srv:
    ...     print(srv.url, srv.pid)

    The server's stdout/stderr go to ``log_path`` (a temp file by default); ``log_tail()``
    returns its end. Only the process started here is ever signalled.
    """

    def __init__(self, app_path: str | os.PathLike, port: int | None = None, *,
                 python: str = sys.executable, cwd: str | os.PathLike | None = None,
                 extra_args: list[str] | tuple[str, ...] = (), log_path: str | os.PathLike | None = None,
                 startup_timeout_s: float = 60.0, env: dict[str, str] | None = None):
        self.app_path = Path(app_path).resolve()
        if not self.app_path.is_file():
            raise FileNotFoundError(self.app_path)
        self.port = port or free_port()
        self.python = python
        self.cwd = str(cwd) if cwd else None
        self.extra_args = list(extra_args)
        self.startup_timeout_s = startup_timeout_s
        self.env = dict(env or {})      # added to this process's environment (e.g. OLC_CLASS_BEAT_S)
        if log_path is None:
            import tempfile
            fd, log_path = tempfile.mkstemp(prefix="streamlit-", suffix=".log")
            os.close(fd)
        self.log_path = Path(log_path)
        self.proc: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def pid(self) -> int | None:
        return self.proc.pid if self.proc else None

    def command(self) -> list[str]:
        return [self.python, "-m", "streamlit", "run", str(self.app_path),
                "--server.headless", "true",
                "--server.port", str(self.port),
                "--server.address", "127.0.0.1",
                "--browser.gatherUsageStats", "false",
                "--server.fileWatcherType", "none",   # no inotify/polling watcher: less CPU in CI
                *self.extra_args]

    def start(self) -> "StreamlitServer":
        env = dict(os.environ, STREAMLIT_BROWSER_GATHER_USAGE_STATS="false", PYTHONUNBUFFERED="1", **self.env)
        log = open(self.log_path, "ab")
        try:
            # own session: a Ctrl-C in the terminal does not hit it; we stop it by PID below
            self.proc = subprocess.Popen(self.command(), stdout=log, stderr=subprocess.STDOUT,
                                         stdin=subprocess.DEVNULL, cwd=self.cwd, env=env,
                                         start_new_session=True)
        finally:
            log.close()
        try:
            wait_http_ok(f"{self.url}/_stcore/health", self.startup_timeout_s, self.proc)
        except Exception as exc:
            self.stop()
            raise RuntimeError(f"Streamlit did not start: {exc}\n--- server log ---\n{self.log_tail()}") from exc
        return self

    def stop(self, grace_s: float = 10.0) -> None:
        """SIGTERM the server by PID, SIGKILL it if it has not exited after ``grace_s``."""
        if not self.proc or self.proc.poll() is not None:
            return
        self.proc.terminate()
        try:
            self.proc.wait(grace_s)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(5)

    def cpu_seconds(self) -> float | None:
        """User+system CPU time the server process has used so far (Linux /proc)."""
        return process_cpu_seconds(self.pid)

    def log_tail(self, n_chars: int = 4000) -> str:
        try:
            return self.log_path.read_text(errors="replace")[-n_chars:]
        except OSError:
            return ""

    def __enter__(self) -> "StreamlitServer":
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()


# --------------------------------------------------------------------------- in-page JS

#: Add with ``context.add_init_script(INSTRUMENT_JS)`` before opening pages. Keeps, in
#: ``window.__stProbe``: script-state transitions [t, state], user actions [t, type]
#: (capture phase, so recorded before Streamlit handles them) and the last DOM mutation time.
#: All times are ``performance.now()`` milliseconds (0 = navigation start).
INSTRUMENT_JS = r"""
(() => {
  if (window.__stProbe) return;
  const probe = { states: [], actions: [], lastMutation: 0 };
  window.__stProbe = probe;
  let last = null;
  const note = (t, s) => { if (s && s !== last) { probe.states.push([t, s]); last = s; } };
  const onMutations = (records) => {
    const t = performance.now();
    probe.lastMutation = t;
    // Several state changes can land between two callbacks (one task handling several
    // websocket messages): replay them from the records' old values, then the current one.
    for (const r of records)
      if (r.type === 'attributes' && r.attributeName === 'data-test-script-state') note(t, r.oldValue);
    const app = document.querySelector('[data-testid="stApp"]');
    note(t, app ? app.getAttribute('data-test-script-state') : null);
  };
  const start = () => new MutationObserver(onMutations).observe(document.documentElement,
      { subtree: true, childList: true, attributes: true, attributeOldValue: true, characterData: true });
  if (document.documentElement) start(); else document.addEventListener('DOMContentLoaded', start);
  for (const type of ['click', 'keydown'])
    document.addEventListener(type, () => probe.actions.push([performance.now(), type]), true);

  // Watch Streamlit's websocket: each binary message is one ForwardMsg (protobuf). Only the
  // top-level field numbers are read: 4 = new_session (a run started), 6 = script_finished
  // (varint status; 2 = FINISHED_EARLY_FOR_RERUN). A fast rerun can go running -> notRunning
  // inside one React commit, so the DOM attribute alone can miss it; these messages cannot.
  const topFields = (buf) => {
    const b = new Uint8Array(buf), out = [];
    let i = 0;
    const varint = () => { let x = 0, sh = 0, c; do { c = b[i++]; x += (c & 0x7f) * 2 ** sh; sh += 7; } while (c & 0x80 && i < b.length); return x; };
    while (i < b.length) {
      const tag = varint(), field = Math.floor(tag / 8), wire = tag & 7;
      if (wire === 0) out.push([field, varint()]);
      else if (wire === 2) { const n = varint(); out.push([field, null]); i += n; }
      else if (wire === 1) i += 8; else if (wire === 5) i += 4; else break;
    }
    return out;
  };
  probe.ws = [];
  const Native = window.WebSocket;
  if (Native) window.WebSocket = class extends Native {
    constructor(...a) {
      super(...a);
      this.addEventListener('message', (ev) => {
        if (!(ev.data instanceof ArrayBuffer)) return;
        const t = performance.now();
        try {
          for (const [f, v] of topFields(ev.data)) {
            if (f === 4) probe.ws.push([t, 'newSession']);
            else if (f === 6) probe.ws.push([t, 'scriptFinished', v]);
          }
        } catch (e) { /* not a ForwardMsg: ignore */ }
      });
    }
  };
})();
"""

#: ``page.evaluate(WAIT_JS, {...})`` resolves (never rejects) with a dict:
#: ok, reason, saw_run, t_action, t_run_start, t_done (script finished as seen by the
#: browser), t_settled (last DOM change before the quiet period), state, connection, pending.
#: Arguments: since (ms, only look at events after it), expect_run (wait for a new run to
#: start first), run_start_ms, timeout_ms, quiet_ms.
WAIT_JS = r"""
async ({since, expect_run, run_start_ms, timeout_ms, quiet_ms}) => {
  const p = window.__stProbe;
  const t0 = performance.now();
  const sleep = ms => new Promise(r => setTimeout(r, ms));
  const TERMINAL = new Set(['notRunning', 'compilationError']);
  const app = () => document.querySelector('[data-testid="stApp"]');
  const res = { ok: false, reason: '', saw_run: false, t_action: null, t_run_start: null,
                t_done: null, t_settled: null, state: null, connection: null, pending: 0 };
  const finish = () => {
    const a = app();
    res.state = a ? a.getAttribute('data-test-script-state') : null;
    res.connection = a ? a.getAttribute('data-test-connection-state') : null;
    return res;
  };
  if (!p) { res.reason = 'INSTRUMENT_JS was not installed in this page'; return finish(); }
  const act = p.actions.find(([t]) => t >= since);
  res.t_action = act ? act[0] : null;
  const elapsed = () => performance.now() - t0;
  // 1. a run that started after `since`: a new_session message or the DOM state 'running'
  const runStart = () => {
    const ws = p.ws.find(([t, k]) => t >= since && k === 'newSession');
    const st = p.states.find(([t, s]) => t >= since && !TERMINAL.has(s) && s !== 'initial');
    const ts = [ws && ws[0], st && st[0]].filter(x => x != null);
    return ts.length ? Math.min(...ts) : null;
  };
  while (true) {
    const t = runStart();
    if (t != null) { res.saw_run = true; res.t_run_start = t; break; }
    if (!expect_run || elapsed() > run_start_ms) break;
    await sleep(15);
  }
  // 2. script finished (script_finished message, not the "early for rerun" kind), and the
  //    DOM shows a finished state with a connected websocket
  while (true) {
    const a = app();
    const s = a && a.getAttribute('data-test-script-state');
    const c = a && a.getAttribute('data-test-connection-state');
    const from = res.t_run_start ?? since;
    const wsFin = p.ws.find(([t, k, v]) => t >= from && k === 'scriptFinished' && v !== 2);
    const wsStarted = p.ws.some(([t, k]) => t >= from && k === 'newSession');
    if (c === 'CONNECTED' && TERMINAL.has(s) && (wsFin || !wsStarted)) {
      const fin = p.states.find(([t, st]) => t >= from && TERMINAL.has(st));
      res.t_done = wsFin ? wsFin[0] : (fin ? fin[0] : performance.now());
      break;
    }
    if (c === 'DISCONNECTED_FOREVER') { res.reason = 'websocket disconnected'; return finish(); }
    if (elapsed() > timeout_ms) { res.reason = `timeout: script state=${s} connection=${c}`; return finish(); }
    await sleep(15);
  }
  // 3. lazily drawn elements: plotly charts (separate JS chunk) and skeleton placeholders
  while (true) {
    const charts = [...document.querySelectorAll('[data-testid="stPlotlyChart"]')]
        .filter(e => !e.querySelector('.main-svg')).length;
    res.pending = charts + document.querySelectorAll('[data-testid="stSkeleton"]').length;
    if (!res.pending) break;
    if (elapsed() > timeout_ms) { res.reason = `timeout: ${res.pending} chart(s)/skeleton(s) not drawn`; return finish(); }
    await sleep(25);
  }
  // 4. DOM quiet for quiet_ms (capped by the timeout: an animated page never goes quiet)
  while (performance.now() - p.lastMutation < quiet_ms) {
    if (elapsed() > timeout_ms) { res.reason = 'note: DOM still changing at timeout'; break; }
    await sleep(Math.max(15, quiet_ms - (performance.now() - p.lastMutation)));
  }
  res.t_settled = Math.max(p.lastMutation, res.t_done);
  res.ok = true;
  return finish();
}
"""

#: Widgets on the page: [{kind, label, value, where, disabled}]
LIST_WIDGETS_JS = r"""
() => {
  const KINDS = {
    stSlider: 'slider', stButton: 'button', stFormSubmitButton: 'form_submit_button',
    stDownloadButton: 'download_button', stLinkButton: 'link_button', stPageLink: 'page_link',
    stSelectbox: 'selectbox', stMultiSelect: 'multiselect', stRadio: 'radio', stCheckbox: 'checkbox',
    stTextInput: 'text_input', stTextArea: 'text_area', stNumberInput: 'number_input',
    stDateInput: 'date_input', stTimeInput: 'time_input', stColorPicker: 'color_picker',
    stFileUploader: 'file_uploader', stChatInput: 'chat_input', stButtonGroup: 'button_group',
    stCameraInput: 'camera_input', stAudioInput: 'audio_input',
  };
  const sel = Object.keys(KINDS).map(k => `[data-testid="${k}"]`).join(',');
  const text = e => (e ? (e.innerText || e.textContent || '').trim() : '');
  const out = [];
  for (const el of document.querySelectorAll(sel)) {
    const tid = el.getAttribute('data-testid');
    const kind = KINDS[tid];
    let label = text(el.querySelector('[data-testid="stWidgetLabel"]'));
    if (!label && /Button|PageLink/.test(tid)) label = text(el.querySelector('button, a') || el);
    if (!label) { const a = el.querySelector('[aria-label]'); if (a) label = a.getAttribute('aria-label'); }
    let value = null;
    if (kind === 'slider') value = [...el.querySelectorAll('input[type=range]')].map(i => i.value).join(' - ');
    else if (kind === 'checkbox') { const i = el.querySelector('input[type=checkbox]'); value = i ? i.checked : null; }
    else if (kind === 'radio') value = text(el.querySelector('[data-testid="stRadioOption"][data-selected="true"]')) || null;
    else if (kind === 'multiselect') value = [...el.querySelectorAll('[data-testid="stMultiSelectTagsContainer"] span[title], [data-testid="stMultiSelectTag"]')].map(text);
    else { const i = el.querySelector('input:not([type=file]), textarea'); if (i) value = i.value; }
    const disabled = !!el.querySelector('[disabled], [aria-disabled="true"], [data-disabled]');
    out.push({ kind, label, value, where: el.closest('[data-testid="stSidebar"]') ? 'sidebar' : 'main', disabled });
  }
  return out;
}
"""

#: Exceptions Streamlit shows on the page, and st.error() boxes that are not exceptions.
EXCEPTIONS_JS = r"""
() => {
  const text = e => (e ? (e.innerText || e.textContent || '').trim() : '');
  const exceptions = [...document.querySelectorAll('[data-testid="stException"]')].map(e => ({
    message: text(e.querySelector('[data-testid="stExceptionMessage"]')) || text(e),
    traceback: [...e.querySelectorAll('[data-testid="stExceptionTraceRow"]')].map(text),
    where: e.closest('[data-testid="stSidebar"]') ? 'sidebar' : 'main',
  }));
  const error_alerts = [...document.querySelectorAll('[data-testid="stAlertContentError"]')]
    .filter(e => !e.closest('[data-testid="stException"]')).map(text);
  return { exceptions, error_alerts };
}
"""


def mark(page) -> float:
    """The page's current ``performance.now()``; pass it as ``since`` to wait_for_rerun."""
    return page.evaluate("performance.now()")


def wait_for_rerun(page, since: float = 0.0, *, expect_run: bool = True, timeout_s: float = 60.0,
                   quiet_ms: int = 300, run_start_ms: int = 3000) -> dict:
    """Block until the rerun triggered after ``since`` finished and the page settled.

    Needs INSTRUMENT_JS installed (``context.add_init_script``). Returns WAIT_JS's dict;
    latencies are ``t_done - t_action`` (script finished) and ``t_settled - t_action``.
    """
    return page.evaluate(WAIT_JS, {"since": since, "expect_run": expect_run, "run_start_ms": run_start_ms,
                                   "timeout_ms": timeout_s * 1000, "quiet_ms": quiet_ms})


def screenshot_full(page, path: str | os.PathLike, max_height: int = 12000) -> dict:
    """Screenshot the whole app, not just the viewport.

    Streamlit scrolls inside ``<main data-testid="stMain">``, not the document, so
    Playwright's ``full_page=True`` alone only captures the first screen. The viewport is
    grown to the tallest scroll container (capped at ``max_height``), shot, and restored.
    Returns {"path", "width", "height", "truncated"}.
    """
    vp = page.viewport_size or DEFAULT_VIEWPORT
    needed = page.evaluate("""() => Math.max(document.documentElement.scrollHeight,
        ...[...document.querySelectorAll('[data-testid="stMain"], [data-testid="stSidebarContent"],'
              + ' [data-testid="stAppViewContainer"]')].map(e => e.scrollHeight))""")
    height = max(vp["height"], min(int(needed), max_height))
    if height != vp["height"]:
        page.set_viewport_size({"width": vp["width"], "height": height})
        page.wait_for_timeout(400)  # let the app re-layout (charts resize) before the shot
    try:
        page.screenshot(path=str(path), full_page=True)
    finally:
        if height != vp["height"]:
            page.set_viewport_size(vp)
    return {"path": str(path), "width": vp["width"], "height": height, "truncated": needed > max_height}


def percentile(values: list[float], q: float) -> float | None:
    """Nearest-rank percentile (q in 0..100) of a list; None when empty."""
    if not values:
        return None
    xs = sorted(values)
    k = max(0, min(len(xs) - 1, int(-(-q * len(xs) // 100)) - 1))
    return xs[k]
