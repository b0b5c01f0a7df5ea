"""Own tours behind several processes (issue 33 §4; docs/tours.md, "Your own tours"): with ``OLC_REDIS_URL`` set (as
scripts/serve.sh sets it for its K processes) an own tour is kept in Redis too, so a process that never saw it opens
its stops — also a tour too large to travel in its links. Another process is played by emptying this process's copy.
A value in Redis that is not the tour its key names is not taken; an unreachable Redis leaves the process's copy."""
from __future__ import annotations

import json
import shutil
import subprocess
import time

import pytest
import redis
from streamlit.testing.v1 import AppTest

from olc_ui.shared.tours import own
from olc_ui.shared.tours.bar import stop_href
from olc_ui.shared.tours.format import MAX_WORDS
from tests.app.pagetest import page_path
from tests.classroom.conftest import free_port
from tests.tours.test_tour_format import GOOD
from tests.tours.tourtest import bar, stop_query

REDIS_SERVER = shutil.which("redis-server")


@pytest.fixture(scope="module")
def redis_url(tmp_path_factory):
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


@pytest.fixture
def shared(redis_url, monkeypatch):
    monkeypatch.setenv("OLC_REDIS_URL", redis_url)
    redis.Redis.from_url(redis_url).flushdb()
    yield redis.Redis.from_url(redis_url, decode_responses=True)
    own._kept.clear()


def _another_process():
    own._kept.clear()


def _large() -> dict:
    """A tour whose file does not fit in a link (its stops' texts are long and varied: they do not compress)."""
    doc = json.loads(json.dumps(GOOD))
    words = [f"w{i * 7919 % 100003:x}" for i in range(MAX_WORDS - 1)]
    doc["stops"] = [{**doc["stops"][k % 3], "text": " ".join(f"{w}{k}" for w in words)} for k in range(30)]
    return doc


def test_an_own_tour_is_found_by_a_process_that_never_saw_it(shared):
    tour = own.remember(GOOD)
    assert shared.ttl(own.REDIS_PREFIX + tour.id) > 29 * 24 * 3600
    _another_process()
    assert own.recall(tour.id) == tour
    assert own.recall("own-000000000000") is None


def test_a_tour_too_large_for_its_links_opens_from_a_fresh_session_on_another_process(shared):
    tour = own.remember(_large())
    assert own.link_data(tour) is None and "tourdata" not in stop_href(tour, 0)
    _another_process()
    page, query = stop_query(tour, 0)
    at = AppTest.from_file(page_path(page), default_timeout=120)
    for k, v in query.items():
        at.query_params[k] = v
    at.run()
    b = bar(at)
    assert (b["tour"], b["stop"], b["stops"], b["claim"]) == (tour.id, "1", "30", "holds")


def test_a_value_that_is_not_its_tour_is_not_taken(shared):
    tour = own.remember(GOOD)
    other = json.loads(json.dumps(GOOD))
    other["title"] = "Another tour"
    shared.set(own.REDIS_PREFIX + tour.id, json.dumps(other))             # another tour under this id
    _another_process()
    assert own.recall(tour.id) is None
    shared.set(own.REDIS_PREFIX + tour.id, "{not json")
    assert own.recall(tour.id) is None


def test_without_redis_the_process_keeps_its_own(monkeypatch):
    monkeypatch.setenv("OLC_REDIS_URL", f"redis://127.0.0.1:{free_port()}/0")     # nothing listens there
    try:
        tour = own.remember(GOOD)
        assert own.recall(tour.id) == tour
        _another_process()
        assert own.recall(tour.id) is None
    finally:
        own._kept.clear()
