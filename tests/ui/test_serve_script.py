"""scripts/serve.sh K: K Streamlit processes behind nginx, sticky per browser, stopped with it.

Starts ``serve.sh 2`` (skipped when nginx is not installed), then checks: a first visit comes compressed and cached
(Streamlit's frontend from nginx itself, gzip_static); both
processes receive browsers; a browser (its route cookie) always reaches the same one,
its websocket included; a student's full session (open, step, page switch) works through
nginx; a class session's lecturer connected to one process drives students connected to the other and
through nginx (the redis-server serve.sh started carries the pushes); SIGTERM to serve.sh stops nginx,
redis-server and both Streamlit processes and removes its run directory.
"""
from __future__ import annotations

import asyncio
import gzip
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
import websockets

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bench"))
import load  # noqa: E402
import stproto  # noqa: E402
from olc_ui import static_files  # noqa: E402
from olc_ui.classroom.redis_store import RedisStore  # noqa: E402
from olc_ui.classroom.store import Limits  # noqa: E402
from tests.conftest import run_async  # noqa: E402

NGINX = shutil.which("nginx") or ("/usr/sbin/nginx" if os.access("/usr/sbin/nginx", os.X_OK) else None)
REDIS = shutil.which("redis-server") or ("/usr/bin/redis-server" if os.access("/usr/bin/redis-server", os.X_OK) else None)
pytestmark = [pytest.mark.skipif(NGINX is None, reason="nginx is not installed (Debian: apt-get install -y nginx)"),
              pytest.mark.skipif(REDIS is None, reason="redis-server is not installed (apt-get install -y redis-server)")]


def _free(port: int) -> bool:
    with socket.socket() as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)   # as servers bind: TIME_WAIT is no obstacle
        try:
            s.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def _listening(port: int) -> bool:
    try:
        socket.create_connection(("127.0.0.1", port), timeout=2).close()
    except OSError:
        return False
    return True


def _base_port(k: int) -> int:
    for p in range(8650, 8657):
        if all(_free(p + i) for i in range(k + 1)):
            return p
    pytest.skip("no free ports 8650-8659 for serve.sh")


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:      # a zombie (exited, not yet reaped by its parent) counts as gone
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


@pytest.fixture(scope="module")
def served():
    port = _base_port(2)
    env = dict(os.environ, OLC_PYTHON=sys.executable)
    proc = subprocess.Popen(["bash", str(ROOT / "scripts" / "serve.sh"), "2", "--port", str(port)], cwd=ROOT,
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            start_new_session=True)
    line, redis_pid = "", None
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline and proc.poll() is None:
        line = proc.stdout.readline()
        if line.startswith("serve: redis-server"):
            redis_pid = int(re.search(r"\(PID (\d+)\)", line).group(1))
        if line.startswith("serve: http"):
            break
    try:
        m = re.search(r"PIDs ([\d ]+) nginx (\d+); run dir (\S+)\)", line)
        assert m, f"serve.sh did not come up: {line!r} {proc.stdout.read() if proc.poll() is not None else ''}"
        yield {"proc": proc, "url": f"http://127.0.0.1:{port}", "port": port,
               "pids": [int(x) for x in m.group(1).split()], "nginx": int(m.group(2)), "run": Path(m.group(3)),
               "redis": redis_pid}
    finally:
        stop_serve(proc)


def _upstream(url: str, cookie: str | None = None) -> tuple[str, str | None]:
    req = urllib.request.Request(url + "/perceptron", headers={"Cookie": cookie} if cookie else {})
    with urllib.request.urlopen(req, timeout=30) as r:
        r.read()
        set_cookie = r.headers.get("Set-Cookie", "")
        return r.headers["X-Olc-Upstream"], set_cookie.split(";", 1)[0] or None


def test_browsers_spread_and_each_sticks_to_its_process(served):
    url, port = served["url"], served["port"]
    seen = {}
    for _ in range(24):
        up, cookie = _upstream(url)
        seen.setdefault(up, cookie)
    assert set(seen) == {f"127.0.0.1:{port + 1}", f"127.0.0.1:{port + 2}"}
    assert sorted(int(x) for x in (served["run"] / "pids").read_text().split()) == sorted(served["pids"])

    async def ws_upstream(cookie):
        c = stproto.Client(url, cookie=cookie)
        await c.connect()
        await c.close()
        return c.upstream
    for up, cookie in seen.items():
        assert [_upstream(url, cookie)[0] for _ in range(3)] == [up] * 3
        assert run_async(ws_upstream(cookie)) == up            # the websocket too


def test_a_student_session_through_nginx(served):
    async def go():
        args = load.parse_args(["--students", "1", "--url", served["url"], "--timeout", "60"])
        s = load.Student(0, args, load.Stats(), deadline=float("inf"))
        await s.open()
        await s.step()
        await s.switch()
        await s.client.close()
        return s
    s = run_async(go())
    assert s.client.upstream in {f"127.0.0.1:{served['port'] + i}" for i in (1, 2)}
    assert s.position >= 1 and s.page_hash == s.pages["perceptron"]


def test_a_lecturer_on_one_process_drives_students_on_the_other(served):
    """A class session across processes: the session made in serve.sh's Redis (as a page in either process
    would), the lecturer on one backend, one student on the other, one through nginx."""
    store = RedisStore((served["run"] / "redis_url").read_text().strip(), Limits())
    code, key = store.create("perceptron", "")
    port = served["port"]

    async def recv(ws, kind):
        while True:
            msg = json.loads(await asyncio.wait_for(ws.recv(), 20))
            if msg["type"] == kind:
                return msg

    async def go():
        ws = "ws://127.0.0.1:{}/olc-class/ws".format
        async with websockets.connect(ws(port + 1)) as lec, websockets.connect(ws(port + 2)) as stu, \
                websockets.connect(ws(port)) as via_nginx:
            await lec.send(json.dumps({"type": "hello", "code": code, "key": key}))
            assert (await recv(lec, "welcome"))["role"] == "lecturer"
            for s in (stu, via_nginx):
                await s.send(json.dumps({"type": "hello", "code": code}))
                assert (await recv(s, "welcome"))["role"] == "student"
            assert (await recv(lec, "joined"))["n"] >= 1
            await lec.send(json.dumps({"type": "state", "page": "perceptron", "query": "", "run": "r", "position": 9,
                                       "playing": False, "asking": None}))
            for s in (stu, via_nginx):
                assert (await recv(s, "state"))["position"] == 9
            await stu.send(json.dumps({"type": "state", "page": "perceptron", "query": "", "run": "r",
                                       "position": 1, "playing": False, "asking": None}))
            assert (await recv(stu, "refused"))["what"] == "state"
    run_async(go())
    store.close()


def stop_serve(proc: subprocess.Popen) -> None:
    """End a serve.sh started in its own session: SIGTERM (it stops its processes), else its whole group killed."""
    if proc.poll() is None:
        os.kill(proc.pid, signal.SIGTERM)
        try:
            proc.wait(30)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)


def healthy(port: int) -> bool:
    """A Streamlit process answers its health check on ``port``."""
    try:
        urllib.request.urlopen(f"http://127.0.0.1:{port}/_stcore/health", timeout=2).read()
        return True
    except OSError:
        return False


def _get(url: str, path: str) -> tuple[int, dict, bytes]:
    req = urllib.request.Request(url + path, headers={"Accept-Encoding": "gzip"})
    with urllib.request.urlopen(req, timeout=60) as r:
        return r.status, {k.lower(): v for k, v in r.headers.items()}, r.read()


def test_a_first_visit_comes_compressed_and_cached_through_nginx(served):
    """Streamlit's frontend and the viewer's libraries from nginx itself (gzip_static: no process answered), the
    page's HTML compressed, the icon font the subset (olc_ui/static_files.py; issue 34 §1)."""
    url = served["url"]
    status, h, body = _get(url, "/perceptron")
    assert status == 200 and h.get("content-encoding") == "gzip" and b"BACKEND_BASE_URL" in gzip.decompress(body)
    index_html = gzip.decompress(_get(url, "/")[2]).decode()
    js = re.search(r'src="\./(static/js/index\.[\w-]+\.js)"', index_html).group(1)
    status, h, body = _get(url, "/" + js)
    assert status == 200 and h.get("content-encoding") == "gzip" and "x-olc-upstream" not in h
    assert h["cache-control"] == "public, max-age=31536000, immutable" and "Accept-Encoding" in h.get("vary", "")
    assert gzip.decompress(body) == (static_files.streamlit_static() / js.removeprefix("static/")).read_bytes()
    meta = json.loads((static_files.ICON_DIR / "icons.json").read_text())
    status, h, body = _get(url, "/static/media/" + meta["source"].rsplit("/", 1)[1])
    assert status == 200 and len(body) == meta["subset_bytes"] and h["content-type"] == "font/woff2"
    plotly = next(p.name for p in (served["run"] / "www" / "app" / "static" / "olc").glob("plotly-*.min.js"))
    status, h, body = _get(url, "/app/static/olc/" + plotly)
    assert status == 200 and h.get("content-encoding") == "gzip" and "immutable" in h["cache-control"]
    status, h, _ = _get(url, "/static/js/no-such-file.js")                  # not on disk: a process answers
    assert "x-olc-upstream" in h


HEADERS_MORE = Path(os.environ.get("NGINX_HEADERS_MORE_MODULE",
                                   "/usr/lib/nginx/modules/ngx_http_headers_more_filter_module.so"))


@pytest.mark.skipif(not HEADERS_MORE.exists(), reason="Debian's libnginx-mod-http-headers-more-filter is not installed")
def test_the_year_cached_files_come_without_last_modified_or_server(served):
    """A first visit's ~130 static responses without the headers a year-cached file does not need (issue 34 §1: ~8 kB
    behind nginx); the page itself still comes from a process, its headers untouched."""
    url = served["url"]
    index_html = gzip.decompress(_get(url, "/")[2]).decode()
    js = re.search(r'src="\./(static/js/index\.[\w-]+\.js)"', index_html).group(1)
    plotly = next(p.name for p in (served["run"] / "www" / "app" / "static" / "olc").glob("plotly-*.min.js"))
    for path in ("/" + js, "/app/static/olc/" + plotly):
        status, h, _ = _get(url, path)
        assert status == 200 and "immutable" in h["cache-control"]
        assert "last-modified" not in h and "server" not in h, (path, sorted(h))


BROTLI_MODULE = Path(os.environ.get("NGINX_BROTLI_MODULE", "/usr/lib/nginx/modules/ngx_http_brotli_static_module.so"))


@pytest.mark.skipif(not BROTLI_MODULE.is_file(), reason="Debian's libnginx-mod-http-brotli-static is not installed")
def test_brotli_through_nginx_once_the_files_are_made(served):
    """serve.sh writes each file's .br in the background; nginx (brotli_static) sends it to a browser that takes br."""
    brotli = pytest.importorskip("brotli")
    index_html = gzip.decompress(_get(served["url"], "/")[2]).decode()
    js = re.search(r'src="\./(static/js/index\.[\w-]+\.js)"', index_html).group(1)
    br = served["run"] / "www" / (js + ".br")
    deadline = time.monotonic() + 240
    while not br.exists() and time.monotonic() < deadline:
        time.sleep(1)
    assert br.exists(), "no .br written in 240 s: see $RUN/brotli.log"
    req = urllib.request.Request(served["url"] + "/" + js, headers={"Accept-Encoding": "br, gzip"})
    with urllib.request.urlopen(req, timeout=60) as r:
        assert r.headers.get("Content-Encoding") == "br" and "immutable" in r.headers["Cache-Control"]
        assert brotli.decompress(r.read()) == (static_files.streamlit_static() / js.removeprefix("static/")).read_bytes()


def test_sigterm_stops_every_child(served):
    proc = served["proc"]
    children = served["pids"] + [served["nginx"]] + ([served["redis"]] if served["redis"] else [])
    assert served["redis"] is not None               # serve.sh started its own redis-server
    assert all(_alive(p) for p in children)
    os.kill(proc.pid, signal.SIGTERM)
    assert proc.wait(30) != 0
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline and any(_alive(p) for p in children):
        time.sleep(0.2)
    assert [p for p in children if _alive(p)] == []
    assert [p for p in range(served["port"], served["port"] + 3) if _listening(p)] == []
    assert not served["run"].exists()          # its run directory (configs, logs) removed
