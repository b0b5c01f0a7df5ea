"""``bench/load.py --class --chaos`` at a tiny size (bench/class_chaos.py; issue 34 §3): it starts serve.sh 2, kills the
lecturer's process while question 1 is open and restarts the redis-server while question 2 is; its last line is the
class line with ``reconnected=R/F lost_after_fault=L``, and at this size every client cut off comes back, nothing is
lost (the numbers at 300 students: docs/load.md). Skipped without nginx or redis-server."""
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.ui.test_serve_script import NGINX, REDIS

ROOT = Path(__file__).resolve().parents[2]
pytestmark = [pytest.mark.skipif(NGINX is None, reason="nginx is not installed (Debian: apt-get install -y nginx)"),
              pytest.mark.skipif(REDIS is None, reason="redis-server is not installed (apt-get install -y redis-server)")]


def test_the_chaos_run_reconnects_everyone_and_loses_nothing():
    res = subprocess.run([sys.executable, str(ROOT / "bench" / "load.py"), "--class", "--chaos", "--students", "6",
                          "--steps", "6", "--interval", "0.1"], cwd=ROOT, capture_output=True, text=True, timeout=400)
    tail = f"\n--- stdout ---\n{res.stdout[-3000:]}\n--- stderr ---\n{res.stderr[-3000:]}"
    assert res.returncode == 0, tail
    last = res.stdout.strip().splitlines()[-1]
    m = re.fullmatch(r"class: students=6 lag_p95_ms=\d+ lag_max_ms=\d+ votes_lost=(\d+) errors=(\d+) "
                     r"reconnected=(\d+)/(\d+) lost_after_fault=(\d+)", last)
    assert m, f"last line {last!r}{tail}"
    lost, errors, back, cut, after = map(int, m.groups())
    assert (lost, errors, after) == (0, 0, 0), tail
    assert back == cut == 7, tail          # the Redis restart cuts off every client: 6 students and the lecturer
    assert re.search(r"fault: the lecturer's process \(port \d+\) killed: (\d+) of \1 clients", res.stdout), tail
