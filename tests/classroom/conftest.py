"""The class session's fixtures: a real redis-server on a free port, a store of each backend, a hub served
by uvicorn in a thread (a real websocket endpoint, as app.py serves it), and a websocket client.

The Redis backend's tests are skipped only when the ``redis-server`` binary is missing (scripts/test.sh
installs Debian's package, so CI runs them)."""
from __future__ import annotations

import asyncio
import json
import shutil
import socket
import subprocess
import threading
import time

import pytest
import redis
import uvicorn
import websockets
from starlette.applications import Starlette
from starlette.routing import WebSocketRoute

from olc_ui.classroom.hub import Hub
from olc_ui.classroom.redis_store import RedisStore
from olc_ui.classroom.store import Limits, MemoryStore

REDIS_SERVER = shutil.which("redis-server") or shutil.which("/usr/bin/redis-server")
BACKENDS = ["memory", "redis"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="session")
def redis_url(tmp_path_factory):
    """A redis-server of its own (no persistence) for the whole test session."""
    if REDIS_SERVER is None:
        pytest.skip("redis-server is not installed (Debian: apt-get install -y redis-server)")
    port, run = free_port(), tmp_path_factory.mktemp("redis")
    proc = subprocess.Popen([REDIS_SERVER, "--port", str(port), "--bind", "127.0.0.1", "--save", "",
                             "--appendonly", "no", "--dir", str(run)], stdout=subprocess.DEVNULL,
                            stderr=subprocess.STDOUT)
    url = f"redis://127.0.0.1:{port}/0"
    deadline = time.monotonic() + 20
    while True:
        try:
            redis.Redis.from_url(url).ping()
            break
        except redis.exceptions.ConnectionError:
            if time.monotonic() > deadline or proc.poll() is not None:
                proc.kill()
                pytest.fail("redis-server did not start")
            time.sleep(0.05)
    yield url
    proc.terminate()
    proc.wait(10)


@pytest.fixture(params=BACKENDS)
def make_store(request):
    """``make_store(**limits)``: a fresh store of the parametrised backend (Redis: an emptied database)."""
    made = []

    def make(**limits):
        lim = Limits(**limits)
        if request.param == "memory":
            return MemoryStore(lim)
        url = request.getfixturevalue("redis_url")
        if not made:
            redis.Redis.from_url(url).flushdb()
        s = RedisStore(url, lim)
        made.append(s)
        return s
    make.backend = request.param
    yield make
    for s in made:
        s.close()


@pytest.fixture
def store(make_store):
    return make_store()


class Served:
    """A hub on a real websocket endpoint: uvicorn on a free port in a thread of its own."""

    def __init__(self, store):
        self.hub = Hub(store)
        app = Starlette(routes=[WebSocketRoute("/olc-class/ws", self.hub.serve)])
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.url = f"ws://127.0.0.1:{self.sock.getsockname()[1]}/olc-class/ws"
        self.server = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="off"))
        self.thread = threading.Thread(target=lambda: asyncio.run(self.server.serve(sockets=[self.sock])),
                                       daemon=True)

    def __enter__(self):
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            assert time.monotonic() < deadline, "uvicorn did not start"
            time.sleep(0.02)
        return self

    def __exit__(self, *exc):
        self.server.should_exit = True
        self.thread.join(10)
        self.sock.close()


@pytest.fixture
def serve():
    """``with serve(store) as srv:`` a hub on ``srv.url``."""
    return Served


class WS:
    """A websocket client speaking the class protocol (JSON frames). ``pong=True``: it answers the hub's heartbeat
    (``ping``) at once, as the browser does, from a reader of its own (``recv`` then takes what the reader queued)."""

    _CLOSED = object()

    def __init__(self, url: str, headers: dict | None = None, pong: bool = False):
        self.url, self.headers, self.pong = url, headers, pong
        self.ws = None
        self.pings = 0
        self._queue: asyncio.Queue | None = None
        self._reader: asyncio.Task | None = None

    async def __aenter__(self):
        self.ws = await websockets.connect(self.url, additional_headers=self.headers, close_timeout=2)
        if self.pong:
            self._queue = asyncio.Queue()
            self._reader = asyncio.ensure_future(self._read())
        return self

    async def __aexit__(self, *exc):
        await self.ws.close()
        if self._reader is not None:
            self._reader.cancel()

    async def _read(self) -> None:
        try:
            async for text in self.ws:
                if json.loads(text).get("type") == "ping":
                    self.pings += 1
                    await self.ws.send('{"type": "pong"}')
                    continue
                self._queue.put_nowait(text)
        except websockets.ConnectionClosed:
            pass
        self._queue.put_nowait(self._CLOSED)

    async def _next(self, timeout: float):
        if self._queue is None:
            return await asyncio.wait_for(self.ws.recv(), timeout)
        got = await asyncio.wait_for(self._queue.get(), timeout)
        if got is self._CLOSED:
            self._queue.put_nowait(got)
            raise websockets.ConnectionClosed(None, None)
        return got

    async def send(self, msg) -> None:
        await self.ws.send(msg if isinstance(msg, str) else json.dumps(msg))

    async def recv(self, timeout: float = 5.0) -> dict:
        return json.loads(await self._next(timeout))

    async def expect(self, kind: str, timeout: float = 5.0) -> dict:
        """The next message of type ``kind``, skipping others (joined, answered … arrive in between)."""
        deadline = time.monotonic() + timeout
        while True:
            msg = await self.recv(max(0.01, deadline - time.monotonic()))
            if msg["type"] == kind:
                return msg

    async def hello(self, code: str, **kw) -> dict:
        await self.send({"type": "hello", "code": code, **kw})
        return await self.recv()

    async def closed(self, timeout: float = 5.0) -> bool:
        """Whether the server closes the connection (after any messages still queued) within ``timeout``."""
        try:
            while True:
                await self._next(timeout)
        except websockets.ConnectionClosed:
            return True
        except asyncio.TimeoutError:
            return False


def stuck_client(url: str, hello: dict) -> socket.socket:
    """A raw websocket client that says ``hello`` and then never reads (a small receive buffer): a phone
    whose browser froze. The caller closes the socket."""
    host, rest = url.removeprefix("ws://").split("/", 1)
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.connect((host.split(":")[0], int(host.split(":")[1])))
    sock.sendall((f"GET /{rest} HTTP/1.1\r\nHost: {host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                  "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
    got = b""
    while b"\r\n\r\n" not in got:
        got += sock.recv(1)
    assert b" 101 " in got.split(b"\r\n", 1)[0], got
    payload = json.dumps(hello).encode()
    assert len(payload) < 126
    mask = b"\x01\x02\x03\x04"
    sock.sendall(bytes([0x81, 0x80 | len(payload)]) + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload)))
    return sock
