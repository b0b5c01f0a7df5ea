"""Faults in the middle of a lecture, in real browsers (issue 34 §3; docs/class-session.md, "Faults in the middle of a
lecture"): ``scripts/serve.sh 2`` (nginx, two Streamlit processes, Redis), a lecturer (1100×800) on one process and a
student (a 390×844 phone) on the other, each pinned by its route cookie as nginx hands them out.

In order on one class session: the lecturer asks a round and opens it to the class, the student answers; the student's
process is killed (SIGKILL): the student's page reconnects through nginx to the lecturer's process within 5 s, on the
lecturer's round, with the open question and its answer, without a reload; an answer the store then loses is sent
again by the student's page on its next welcome. Once
serve.sh has the killed process back, the lecturer's process is killed: the lecturer's page reconnects within 5 s, still
the lecturer (its code in the address bar, its class mode kept through the reruns of its new Streamlit session), the
question open with 1 of 1 answered, and reveals it to the student.
The student's phone then drops off the network and comes back, and sleeps (its page frozen) for longer than the
hub's three silent beats: each time it catches up without a reload.
"""
from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
import urllib.request

import pytest

pytest.importorskip("playwright")
from playwright.sync_api import expect  # noqa: E402

from olc_ui.classroom.redis_store import RedisStore  # noqa: E402
from olc_ui.classroom.store import Limits  # noqa: E402
from tests.ui.test_serve_script import NGINX, REDIS, _base_port, healthy, stop_serve  # noqa: E402
from viewerpage import VIEWER  # noqa: E402

pytestmark = [pytest.mark.skipif(NGINX is None, reason="nginx is not installed (Debian: apt-get install -y nginx)"),
              pytest.mark.skipif(REDIS is None, reason="redis-server is not installed (apt-get install -y redis-server)")]

ROOT = __import__("pathlib").Path(__file__).resolve().parents[2]
QUERY = "data=generated&d=2&gamma=0.1&R=1&T=200&seed=0&predict=1"
START = 5
BOX = f"{VIEWER} .olc-class-answers"
RECONNECT_S = 5.0        # issue 34 §3
SLEEP_S = 20.0           # a phone asleep: longer than the hub's 3 silent beats of 5 s (it drops the connection meanwhile)


@pytest.fixture(scope="module")
def farm():
    port = _base_port(2)
    env = dict(os.environ, OLC_PYTHON=sys.executable)
    proc = subprocess.Popen(["bash", str(ROOT / "scripts" / "serve.sh"), "2", "--port", str(port)], cwd=ROOT, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, start_new_session=True)
    line = ""
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline and proc.poll() is None:
        line = proc.stdout.readline()
        if line.startswith("serve: http"):
            break
    try:
        m = re.search(r"run dir (\S+)\)", line)
        assert m, f"serve.sh did not come up: {line!r}"
        yield {"proc": proc, "url": f"http://127.0.0.1:{port}", "port": port, "run": __import__("pathlib").Path(m.group(1))}
    finally:
        stop_serve(proc)


def _route(url: str) -> tuple[int, str]:
    """(the port of the process nginx picked, the route cookie's value) for a new browser."""
    with urllib.request.urlopen(url + "/perceptron", timeout=60) as r:
        r.read()
        return int(r.headers["X-Olc-Upstream"].rsplit(":", 1)[1]), r.headers["Set-Cookie"].split(";")[0].split("=", 1)[1]


def _routes(url: str) -> dict[int, str]:
    found: dict[int, str] = {}
    for _ in range(40):
        p, v = _route(url)
        found.setdefault(p, v)
        if len(found) == 2:
            return found
    pytest.fail(f"nginx sent every browser to one process: {found}")


def _pid_on(farm, port: int) -> int:
    return [int(x) for x in (farm["run"] / "pids").read_text().split()][port - farm["port"] - 1]


def _wait_back(farm, port: int, old_pid: int) -> None:
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and not (_pid_on(farm, port) != old_pid and healthy(port)):
        time.sleep(0.5)
    assert _pid_on(farm, port) != old_pid and healthy(port), "serve.sh did not start the killed process again"


def _context(browser, farm, route: str, errors: list, name: str, **kw):
    ctx = browser.new_context(**kw)
    ctx.add_cookies([{"name": "olc_route", "value": route, "url": farm["url"]}])
    pg = ctx.new_page()
    pg.set_default_timeout(60_000)
    pg.on("pageerror", lambda exc: errors.append(f"{name} uncaught: {exc}"))
    return ctx, pg


def _connected_after(pg, t_kill: float) -> float:
    """Seconds from the kill until the page's class panel is connected again (it went through 'not connected')."""
    pg.wait_for_function("() => document.querySelector('.olc-class').dataset.connected === 'true'",
                         timeout=30_000, polling=50)
    return time.monotonic() - t_kill


def _describe(pg) -> str:
    return pg.evaluate("""() => { const v = document.querySelector('.olc-viewer'), c = document.querySelector('.olc-class');
        const l = v && v.olcViewer.modes.find(m => m.link); const k = l && l.link;
        return JSON.stringify({position: v && v.dataset.position, panel: c && {...c.dataset, text: c.innerText},
          link: k && {connected: k.connected, closed: k.closed, socket: k.socket ? k.socket.readyState : null,
                      state: k.last('state') && k.last('state').position}}); }""")


def _position(pg) -> int:
    return int(pg.get_attribute(VIEWER, "data-position"))


def _kill(farm, port: int, pages) -> tuple[int, float]:
    """SIGKILL the process on ``port``; wait until ``pages`` see their class connection lost. (pid, kill time)."""
    pid = _pid_on(farm, port)
    t = time.monotonic()
    os.kill(pid, signal.SIGKILL)
    for pg in pages:
        pg.wait_for_function("() => document.querySelector('.olc-class').dataset.connected === 'false'",
                             timeout=10_000, polling=20)
    return pid, t


def test_a_lecture_through_a_killed_process_each(browser, farm):
    routes = _routes(farm["url"])
    lec_port, stu_port = sorted(routes)
    errors: list[str] = []
    made = []
    try:
        lctx, L = _context(browser, farm, routes[lec_port], errors, "lecturer", viewport={"width": 1100, "height": 800})
        made.append(lctx)
        L.goto(f"{farm['url']}/perceptron?{QUERY}&t={START}")
        L.wait_for_selector(f'{VIEWER}[data-ready="true"]', timeout=120_000)
        L.get_by_role("button", name="Start a class session").click()
        join = L.locator(f"{VIEWER} a.olc-class-join")
        expect(join).to_be_visible(timeout=30_000)
        link = join.get_attribute("href")
        code = link.split("class=")[1].split("&")[0]
        sctx, S = _context(browser, farm, routes[stu_port], errors, "student",
                           viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
        made.append(sctx)
        S.goto(link + "&predict=1")
        S.wait_for_selector(f'{VIEWER}[data-ready="true"] .olc-class[data-connected="true"]', timeout=120_000)
        expect(L.locator(f"{VIEWER} .olc-class")).to_have_attribute("data-joined", "1", timeout=30_000)
        S.wait_for_function(f"() => document.querySelector('{VIEWER}').dataset.position === '{START}'")
        S.evaluate("() => { window.__olcNoReload = true; }")      # a reload would forget it
        # the lecturer asks round START + 1 and opens it; the student answers
        L.locator(VIEWER).first.focus()
        L.keyboard.press("ArrowRight")
        expect(L.locator(f"{VIEWER} .olc-predict")).to_have_attribute("data-state", "asking")
        L.get_by_role("button", name="Open this question to the class").click()
        box = L.locator(BOX)
        expect(box).to_have_attribute("data-state", "open")
        qid = box.get_attribute("data-qid")
        choice = S.locator(f"{BOX} button.olc-answers-choice").first
        expect(choice).to_be_visible()
        answer = choice.get_attribute("data-answer")
        choice.click()
        expect(S.locator(f"{BOX} .olc-answers-status")).to_contain_text("Your answer:")
        expect(box).to_contain_text("1 of 1 answered")

        # 1. the student's process dies: the student reconnects through nginx to the lecturer's process
        dead, t_kill = _kill(farm, stu_port, [S])
        took = _connected_after(S, t_kill)
        assert took < RECONNECT_S, f"the student reconnected after {took:.1f} s"
        expect(S.locator(f"{BOX}")).to_have_attribute("data-state", "open", timeout=10_000)
        assert S.get_attribute(BOX, "data-qid") == qid
        expect(S.locator(f"{BOX} button[data-answer='{answer}']")).to_have_attribute("aria-pressed", "true")
        assert _position(S) == _position(L) and S.evaluate("() => window.__olcNoReload === true")
        expect(box).to_contain_text("1 of 1 answered")
        print(f"\nthe student's process killed: the student's page connected again after {took:.2f} s")
        _wait_back(farm, stu_port, dead)

        # 1b. an answer the store lost (a socket or a process that died under it, Redis's last second): the student's
        # page, welcomed again without it, sends it again
        store = RedisStore((farm["run"] / "redis_url").read_text().strip(), Limits())
        sid = S.evaluate(f"() => sessionStorage.getItem('olc-class-sid:{code}')")
        assert store.r.hget(f"olc:class:v:{code}", sid) == answer
        store.r.hdel(f"olc:class:v:{code}", sid)
        S.evaluate("() => document.querySelector('.olc-viewer').olcViewer.modes.find(m => m.link).link.socket.close()")
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and store.r.hget(f"olc:class:v:{code}", sid) != answer:
            time.sleep(0.1)
        assert store.r.hget(f"olc:class:v:{code}", sid) == answer, "the lost answer was not sent again"
        store.close()
        expect(box).to_contain_text("1 of 1 answered")

        # 2. the lecturer's process dies: the lecturer reconnects, still the lecturer, the question still open
        dead, t_kill = _kill(farm, lec_port, [L])
        took = _connected_after(L, t_kill)
        assert took < RECONNECT_S, f"the lecturer reconnected after {took:.1f} s"
        print(f"the lecturer's process killed: the lecturer's page connected again after {took:.2f} s")
        expect(L.locator(f"{VIEWER} .olc-class")).to_have_attribute("data-role", "lecturer")
        expect(box).to_have_attribute("data-state", "open", timeout=10_000)
        expect(box).to_contain_text("1 of 1 answered", timeout=10_000)
        L.wait_for_function(f"() => new URL(location.href).searchParams.get('class') === '{code}'", timeout=10_000)
        L.locator(f"{VIEWER} button.olc-answers-reveal").click()
        expect(S.locator(BOX)).to_have_attribute("data-state", "revealed", timeout=10_000)
        L.locator(VIEWER).first.focus()
        L.keyboard.press("ArrowRight")
        target = _position(L)
        S.wait_for_function(f"() => document.querySelector('{VIEWER}').dataset.position === '{target}'", timeout=10_000)
        _wait_back(farm, lec_port, dead)

        # 3. the phone drops off the network and comes back: it catches up without a reload
        S.context.set_offline(True)
        S.evaluate("() => document.querySelector('.olc-viewer').olcViewer.modes.find(m => m.link).link.socket.close()")
        S.wait_for_selector('.olc-class[data-connected="false"]')
        L.locator(VIEWER).first.focus()
        L.keyboard.press("End")
        target = _position(L)
        S.wait_for_timeout(2000)
        S.context.set_offline(False)
        S.wait_for_function(f"() => document.querySelector('{VIEWER}').dataset.position === '{target}'", timeout=20_000)
        assert S.evaluate("() => window.__olcNoReload === true")

        # 4. the phone sleeps (its page frozen: no timer, no script) longer than the hub's 3 silent beats, so the hub
        # has dropped its connection meanwhile; the lecturer moves on; on waking the page catches up without a reload
        cdp = S.context.new_cdp_session(S)
        cdp.send("Page.setWebLifecycleState", {"state": "frozen"})
        L.locator(VIEWER).first.focus()
        L.keyboard.press("Home")
        target = _position(L)
        S.wait_for_timeout(0)
        time.sleep(SLEEP_S)
        cdp.send("Page.setWebLifecycleState", {"state": "active"})
        t_wake = time.monotonic()
        try:
            S.wait_for_function(f"() => document.querySelector('{VIEWER}').dataset.position === '{target}' && "
                                "document.querySelector('.olc-class').dataset.connected === 'true'", timeout=20_000)
        except Exception as exc:
            raise AssertionError(f"after waking: {_describe(S)}; the lecturer at {target}: {_describe(L)}") from exc
        print(f"the phone woke after {SLEEP_S:.0f} s asleep: on the lecturer's round after "
              f"{time.monotonic() - t_wake:.2f} s")
        assert S.evaluate("() => window.__olcNoReload === true")
        # the lecturer's page, whose Streamlit session moved to another process with its own, still leads (its reruns
        # since — the reveal, End — did not drop the class mode: class_session._rejoin)
        expect(L.locator(f"{VIEWER} .olc-class")).to_have_attribute("data-role", "lecturer")
        assert f"class={code}" in L.url
        assert errors == [], errors
    finally:
        for ctx in made:
            ctx.close()
