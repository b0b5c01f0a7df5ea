"""bench/load_class.py --browser at a tiny size: one real Chromium student besides the simulated ones; every
step is drawn on its page (the lag line before the last line counts all of them), no error, no vote lost, and
the last line keeps its form."""
from __future__ import annotations

import re
import subprocess
import sys

import pytest

from tests.conftest import ROOT

pytest.importorskip("playwright")


def test_smoke_with_a_browser_student_draws_every_step():
    res = subprocess.run([sys.executable, str(ROOT / "bench" / "load_class.py"), "--smoke", "--browser"], cwd=ROOT,
                         capture_output=True, text=True, timeout=240)
    tail = f"\n--- stdout ---\n{res.stdout[-3000:]}\n--- stderr ---\n{res.stderr[-3000:]}"
    assert res.returncode == 0, tail
    lines = res.stdout.strip().splitlines()
    assert re.fullmatch(r"class: students=4 lag_p95_ms=\d+ lag_max_ms=\d+ votes_lost=0 errors=0", lines[-1]), tail
    drawn = re.fullmatch(r"lag lecturer send → round drawn in Chromium \(1 browser student\): n=(\d+) "
                         r"median (\d+) ms, p95 (\d+) ms, max (\d+) ms "
                         r"\(page clock vs Date\.now\(\): ≤ ([\d.]+) ms apart\)", lines[-2])
    assert drawn, tail
    n, median, p95, top, skew = (float(g) for g in drawn.groups())
    assert n == 6 and 0 <= median <= p95 <= top < 20_000, tail    # --smoke: 6 steps, each drawn
    assert skew < 50, tail
