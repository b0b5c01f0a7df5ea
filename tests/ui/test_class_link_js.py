"""The class connection's wake (olc_ui/viewer/assets/viewer_class.js's ClassLink, under node with a fake WebSocket and
fake clocks; docs/class-session.md, "Faults in the middle of a lecture"): a phone that slept — the wall clock jumped a
minute while performance.now() stood still, as a suspended device's monotonic clock does, so the heartbeat's stall
check alone sees nothing — asks the hub at once on waking (`ping`) and opens a new connection when no answer comes
within CLASS_WAKE_PROBE_MS; an answer keeps the connection. A link that was down on waking reconnects at once, without
waiting for its back-off."""
from __future__ import annotations

import shutil

import pytest

from tests.conftest import node_eval

pytestmark = pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")

# Globals a browser has (window, sessionStorage, WebSocket, the clocks) as fakes; `run(steps)` drives one ClassLink.
_SETUP = r"""(() => {
  let wall = 1_000_000, mono = 5_000;
  Date.now = () => wall;
  Object.defineProperty(globalThis, "performance", { value: { now: () => mono }, configurable: true });
  const sockets = [];
  class FakeSocket {
    constructor(url) { this.url = url; this.readyState = 0; this.sent = []; sockets.push(this); }
    send(text) { this.sent.push(JSON.parse(text)); }
    close() { this.readyState = 3; }
  }
  const store = new Map();
  globalThis.window = { location: { href: "http://127.0.0.1:8500/perceptron?class=ABC234" },
    addEventListener() {}, removeEventListener() {},
    sessionStorage: { getItem: (k) => store.has(k) ? store.get(k) : null, setItem: (k, v) => store.set(k, v),
                      removeItem: (k) => store.delete(k) } };
  globalThis.WebSocket = FakeSocket;
  const link = new m._classTesting.ClassLink({ code: "ABC234", ws: "/olc-class/ws" });
  const s0 = sockets[0];
  s0.readyState = 1; s0.onopen();
  s0.onmessage({ data: JSON.stringify({ type: "welcome", role: "student", code: "ABC234", beat: 5, sid: "s1",
                                        joined: 1, state: null, question: null, eyes: false, tally: [] }) });
  const out = { connectedAfterWelcome: link.connected };
  const tick = (wallMs, monoMs) => { wall += wallMs; mono += monoMs; link.checkStall(); };
  return { link, sockets, tick, out, s0, setTimer: null };
})()"""


def _run(tmp_path, body: str):
    return node_eval(tmp_path, "viewer_class.js", f"(() => {{ const t = {_SETUP}; {body} }})()")


def test_a_minute_asleep_asks_the_hub_and_reconnects_when_it_does_not_answer(tmp_path):
    got = _run(tmp_path, """
      const {link, sockets, tick, out, s0} = t;
      tick(1000, 1000);                                  // awake: nothing
      out.pingsAwake = s0.sent.filter(m => m.type === "ping").length;
      tick(60_000, 0);                                   // a minute asleep: the wall clock only
      out.pingAfterWake = s0.sent.filter(m => m.type === "ping").length;
      out.socketsAfterWake = sockets.length;
      tick(1000, 1000); tick(1000, 1000);                // 2 s: no answer yet, still the same socket
      out.socketsAt2s = sockets.length;
      tick(1000, 1000); tick(1000, 1000);                // past CLASS_WAKE_PROBE_MS: a new connection
      out.socketsAt4s = sockets.length;
      out.connectedAt4s = link.connected;
      link.dispose();
      return out;""")
    assert got["connectedAfterWelcome"] is True
    assert got["pingsAwake"] == 0
    assert got["pingAfterWake"] == 1 and got["socketsAfterWake"] == 1
    assert got["socketsAt2s"] == 1
    assert got["socketsAt4s"] == 2 and got["connectedAt4s"] is False


def test_an_answer_after_waking_keeps_the_connection(tmp_path):
    got = _run(tmp_path, """
      const {link, sockets, tick, out, s0} = t;
      tick(60_000, 0);
      s0.onmessage({ data: JSON.stringify({ type: "pong" }) });   // the hub answers
      for (let i = 0; i < 5; i++) tick(1000, 1000);
      out.sockets = sockets.length;
      out.connected = link.connected;
      link.dispose();
      return out;""")
    assert got == {"connectedAfterWelcome": True, "sockets": 1, "connected": True}


def test_waking_with_the_connection_down_reconnects_at_once(tmp_path):
    got = _run(tmp_path, """
      const {link, sockets, tick, out, s0} = t;
      s0.onclose();                                      // lost; the back-off's timer waits
      out.socketsAfterClose = sockets.length;
      tick(60_000, 0);                                   // woken: no waiting for the back-off
      out.socketsAfterWake = sockets.length;
      link.dispose();
      return out;""")
    assert got == {"connectedAfterWelcome": True, "socketsAfterClose": 1, "socketsAfterWake": 2}
