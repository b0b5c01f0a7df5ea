"""Sound (issue 23 §3; olc_ui/shared/sound.py, assets/viewer_sound.js) in a real browser, with Web Audio spied on:
``AudioContext`` is replaced before the page loads by a recorder of the oscillators started (frequency, start and
stop times, the gain envelope). With the switch on, stepping onto a mistake starts one tone, each higher than
the last as the run nears the proof's bound (Halving: M ≤ log₂|H| = 5); nothing sounds on load or on a step back;
during Play at most 8 tones a second. With the switch off nothing sounds and no AudioContext is made; switching it
on from the sidebar keeps the round on screen and the next mistake sounds."""
from __future__ import annotations

import pytest

pytest.importorskip("playwright")

from olc_ui.shared import sound  # noqa: E402

VIEWER = ".olc-viewer"

#: A recording stand-in for Web Audio (installed before any page script).
SPY_JS = """(() => {
  window.__tones = []; window.__contexts = 0;
  class Param { constructor(v) { this.value = v; this.events = []; }
    setValueAtTime(v, t) { this.events.push(['set', v, t]); } linearRampToValueAtTime(v, t) { this.events.push(['lin', v, t]); }
    exponentialRampToValueAtTime(v, t) { this.events.push(['exp', v, t]); } setTargetAtTime(v, t, c) { this.events.push(['target', v, t, c]); } }
  class Node { connect() {} disconnect() {} }
  class FakeAudioContext {
    constructor() { window.__contexts += 1; this.state = 'running'; this.destination = new Node(); }
    get currentTime() { return performance.now() / 1000; }
    resume() { return Promise.resolve(); } close() { this.state = 'closed'; return Promise.resolve(); }
    createGain() { const g = new Node(); g.gain = new Param(1); return g; }
    createOscillator() {
      const o = new Node(), ctx = this; o.frequency = new Param(440); o.type = 'sine';
      o.connect = (g) => { o.gainNode = g; };
      o.start = (t) => { o.startAt = t; window.__tones.push({freq: o.frequency.value, at: performance.now(), start: t, o}); };
      o.stop = (t) => { o.stopAt = t; };
      return o;
    }
  }
  window.AudioContext = FakeAudioContext; window.webkitAudioContext = FakeAudioContext;
})();"""

TONES_JS = """() => window.__tones.map(t => ({freq: t.freq, at: t.at, len: t.o.stopAt - t.start,
    gain: t.o.gainNode ? t.o.gainNode.gain.events.map(e => [e[0], e[1], e[2] - t.start]) : null}))"""


@pytest.fixture(scope="module")
def url(streamlit_app) -> str:
    return streamlit_app("app.py")


def _open(page, url: str, path: str, query: str) -> None:
    page.add_init_script(SPY_JS)
    page.goto(f"{url.rstrip('/')}/{path}?{query}")
    page.wait_for_selector(f'{VIEWER}[data-ready="true"]', timeout=90_000)


def _tones(page) -> list[dict]:
    return page.evaluate(TONES_JS)


def _at(page, p: int) -> None:
    page.wait_for_function(f"() => document.querySelector('{VIEWER}').dataset.position === '{p}'")


def _mistakes(page) -> list[int]:
    return page.evaluate(f"() => document.querySelector('{VIEWER}').olcViewer.mistakes.slice()")


def test_a_tone_on_each_mistake_rising_toward_the_bound(page, url):
    _open(page, url, "halving", "sound=1&t=0")
    m = _mistakes(page)
    assert len(m) >= 3
    page.wait_for_timeout(500)                       # an absence check: nothing sounds on load
    assert _tones(page) == []
    for i, r in enumerate(m, start=1):
        page.wait_for_timeout(200)                   # slower than the rate limit (a held key's steps are thinned too)
        page.locator(f'{VIEWER} [data-control="next-mistake"]').click()
        _at(page, r + 1)
        page.wait_for_function("n => window.__tones.length >= n", arg=i)
    tones = _tones(page)
    assert len(tones) == len(m)
    freqs = [t["freq"] for t in tones]
    assert all(b > a for a, b in zip(freqs, freqs[1:])), freqs
    # M mistakes of the bound log₂|H| = 5: the pitch climbs from LOW_HZ toward HIGH_HZ in octaves
    opts = sound.options({"figures": [], "arrays": {}})
    for k, f in enumerate(freqs, start=1):
        want = opts["low"] * (opts["high"] / opts["low"]) ** min(k / 5, 1)
        assert abs(f - want) < 0.5, (k, f, want)
    for t in tones:                                  # short and soft: from silence, back to silence, no click
        assert 0.08 <= t["len"] <= 0.14
        g = t["gain"]
        assert g[0][:2] == ["set", 0] and g[-1][1] == 0 and max(e[1] for e in g) <= 0.3
    # a step back, and a step forward onto a round without a mistake, are silent
    page.locator(f'{VIEWER} [data-control="previous"]').click()
    _at(page, m[-1])
    page.wait_for_timeout(400)
    assert len(_tones(page)) == len(m)


def test_no_sound_when_off_and_the_switch_turns_it_on_in_place(page, url):
    _open(page, url, "halving", "t=0")
    m = _mistakes(page)
    for r in m[:2]:
        page.locator(f'{VIEWER} [data-control="next-mistake"]').click()
        _at(page, r + 1)
    page.wait_for_timeout(500)
    assert _tones(page) == [] and page.evaluate("() => window.__contexts") == 0
    # the switch in the sidebar: a label, and on it the next mistake sounds, from the round on screen
    switch = page.locator('[data-testid="stSidebar"] .st-key-olc_sound_switch_side').get_by_text("Sound", exact=True)
    switch.click()
    page.wait_for_function("() => new URL(location.href).searchParams.get('sound') === '1'", timeout=60_000)
    page.wait_for_function(f"() => {{ const v = document.querySelector('{VIEWER}').olcViewer;"
                           " return v.modes.some(x => x && x.constructor && x.constructor.name === 'SoundMode'); }")
    page.wait_for_selector(f'{VIEWER}[data-ready="true"]')
    _at(page, m[1] + 1)
    page.wait_for_timeout(300)
    assert _tones(page) == []                        # switching on is silent
    page.locator(f'{VIEWER} [data-control="next-mistake"]').click()
    _at(page, m[2] + 1)
    page.wait_for_function("() => window.__tones.length === 1")
    assert _tones(page)[0]["freq"] > sound.LOW_HZ


def test_play_sounds_at_most_eight_tones_a_second(page, url):
    """Play at 50 rounds a second over ~23 % mistakes (≈ 11 a second): some tones, never two within 1/8 s."""
    _open(page, url, "perceptron", "sound=1&noise=0.1&T=1000&t=0")
    page.locator(f"{VIEWER} .olc-speed select").select_option("50")
    page.locator(f'{VIEWER} [data-control="play"]').click()
    page.wait_for_function(f"() => +document.querySelector('{VIEWER}').dataset.position >= 150", timeout=60_000)
    page.locator(f'{VIEWER} [data-control="play"]').click()
    page.wait_for_function(f"() => document.querySelector('{VIEWER}').dataset.playing !== 'true'")
    tones = _tones(page)
    p = int(page.get_attribute(VIEWER, "data-position"))
    crossed = sum(1 for r in _mistakes(page) if r < p)
    assert len(tones) >= 3 and crossed > len(tones), (len(tones), crossed)   # tones were skipped, not all played
    gaps = [b["at"] - a["at"] for a, b in zip(tones, tones[1:])]
    assert min(gaps) >= 1000 / sound.MAX_PER_SECOND - 5, gaps


def test_without_web_audio_nothing_sounds_and_nothing_fails(page, url):
    """A browser without Web Audio (or one whose AudioContext throws): the steps work, no error is logged
    (the ``page`` fixture fails the test on a console error or an uncaught one)."""
    page.add_init_script("window.AudioContext = function () { throw new Error('no audio here'); };"
                         " delete window.webkitAudioContext;")
    page.goto(f"{url.rstrip('/')}/halving?sound=1&t=0")
    page.wait_for_selector(f'{VIEWER}[data-ready="true"]', timeout=90_000)
    m = _mistakes(page)
    for r in m[:3]:
        page.wait_for_timeout(200)
        page.locator(f'{VIEWER} [data-control="next-mistake"]').click()
        _at(page, r + 1)
    assert page.get_attribute(VIEWER, "data-sound-tones") is None
    caption = page.locator(f"{VIEWER} .olc-caption").inner_text()
    assert "mistake" in caption.lower(), caption      # the caption still says it
