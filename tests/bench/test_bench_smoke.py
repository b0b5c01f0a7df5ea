"""Every benchmark script in bench/ still runs: each at a tiny size (its ``--smoke`` mode) in a subprocess,
with a timeout, exiting 0 with its one-line summary ``name: key=value …`` as the last line of stdout.

A bench that is run only by hand rots unnoticed (bench/ui_latency.py waited on the sandwich's trace by
its index after the traces had moved, and failed on main): these runs catch that. The numbers of a smoke
run mean nothing (tiny sizes, a shared CI machine); only that the script works is checked, and that its
summary names the keys a reader of docs/benchmarks.md expects.

Not benchmarks (HELPERS): bench/stproto.py, the Streamlit protocol client bench/load.py imports (tested by
tests/ui/test_load_protocol.py), and bench/apps/, the apps a bench serves (bench/apps/floor_app.py, the
floor of bench/ui_latency.py; bench/apps/elements_app.py, bench/rerun_floor.py's), and bench/class_chaos.py,
the ``--chaos`` part of bench/load_class.py (its tiny run: tests/bench/test_class_chaos.py). ``test_every_bench_script_has_a_smoke_run`` fails when a new bench/*.py is
in neither list.
"""
from __future__ import annotations

import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BENCH = ROOT / "bench"

#: script -> (arguments of its tiny run, the keys of its summary line, needs a browser)
SMOKE = {
    "adversary.py": (["--smoke"], ("games", "moves", "median_ms", "max_ms"), True),
    "compare_sweep.py": (["--smoke"], ("runs", "seconds", "spec_mb"), False),
    "game_latency.py": (["--smoke"], ("moves", "median_ms", "max_ms"), True),
    "join.py": (["--smoke"], ("page", "first_visit_kb", "requests", "repeat_visit_kb", "fast3g_first_chart_s"), True),
    "load.py": (["--smoke"], ("students", "p95_ms", "errors"), False),
    "load_class.py": (["--smoke"], ("students", "lag_p95_ms", "lag_max_ms", "votes_lost", "errors"), False),
    "perceptron_vs_sklearn.py": (["--smoke"], ("worst_ratio_median", "worst_ratio_min", "runs"), False),
    "rerun_floor.py": (["--smoke"], ("base_ms", "per_element_ms", "n_max", "ms_at_n_max"), False),
    "sweep.py": (["--smoke"], ("slowest", "seconds", "all_under_5s"), False),
    "tour.py": (["--smoke"], ("tours", "stops", "median_ms", "max_ms"), True),
    "ui_latency.py": (["--smoke"], ("first_load_ratio", "next_mistake_ratio", "next_mistake_p95_ratio",
                                    "play_fps"), True),
    "winnow_memory.py": (["--smoke"], ("N", "T", "mistakes", "peak_rss_mb"), False),
    "winnow_spec_size.py": (["--smoke"], ("json_kb", "spec_seconds", "mistakes"), False),
}
#: the summary line's name, where it is not the script's
NAMES = {"compare_sweep.py": "compare", "game_latency.py": "game", "load_class.py": "class", "perceptron_vs_sklearn.py": "perceptron",
         "ui_latency.py": "ui",
         "winnow_spec_size.py": "winnow_spec"}
#: bench/*.py that are not benchmarks (see the module docstring)
HELPERS = {"stproto.py", "class_chaos.py"}
#: each tiny run must end well within this (they take 1-35 s on two cores)
TIMEOUT_S = 240


def test_every_bench_script_has_a_smoke_run():
    scripts = {p.name for p in BENCH.glob("*.py")}
    assert scripts - HELPERS == set(SMOKE), ("a bench/*.py without a smoke run (add it to SMOKE) or a stale "
                                             "entry: " + str(sorted((scripts - HELPERS) ^ set(SMOKE))))
    assert HELPERS <= scripts


@pytest.mark.parametrize("script", sorted(SMOKE))
def test_bench_runs_at_a_tiny_size_and_prints_its_summary(script):
    args, keys, browser = SMOKE[script]
    if browser:
        pytest.importorskip("playwright")
    t0 = time.perf_counter()
    try:
        res = subprocess.run([sys.executable, str(BENCH / script), *args], cwd=ROOT, capture_output=True,
                             text=True, timeout=TIMEOUT_S)
    except subprocess.TimeoutExpired as e:
        pytest.fail(f"{script} --smoke did not finish in {TIMEOUT_S} s:\n{(e.stdout or b'')[-2000:]!r}")
    took = time.perf_counter() - t0
    tail = f"\n--- stdout (end) ---\n{res.stdout[-3000:]}\n--- stderr (end) ---\n{res.stderr[-3000:]}"
    assert res.returncode == 0, f"{script} exited {res.returncode} after {took:.0f} s{tail}"
    lines = res.stdout.strip().splitlines()
    assert lines, f"{script} printed nothing{tail}"
    name = NAMES.get(script, script.removesuffix(".py"))
    pattern = rf"{re.escape(name)}: " + " ".join(rf"{k}=\S+" for k in keys)
    assert re.fullmatch(pattern, lines[-1]), f"{script}: last line {lines[-1]!r} is not {pattern!r}{tail}"
    values = dict(kv.split("=", 1) for kv in lines[-1].split(": ", 1)[1].split())
    if script == "load.py":
        assert values["errors"] == "0", f"load.py --smoke had errors{tail}"
    if script == "load_class.py":
        assert values["errors"] == values["votes_lost"] == "0", f"load_class.py --smoke lost votes or had errors{tail}"
    if script == "sweep.py":
        assert values["all_under_5s"] in ("yes", "no")
