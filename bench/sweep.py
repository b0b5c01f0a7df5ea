"""olc_core.sweep: the wall time of a 20-value × 10-seed × T = 10⁴ sweep, per learner, on 1 and 2 threads.

    /work/main/.venv/bin/python bench/sweep.py [--values 20] [--seeds 10] [--T 10000] [--threads 1 2]
                                               [--only perceptron winnow ...] [--repeat 3]

Each row: the learner, the swept parameter and its range, the fixed settings, the best of
``--repeat`` wall times (a first untimed sweep warms the compiled loops and numba's cache), and the
best CPU time (``time.process_time``, every thread of the process) on the first thread count asked
for — on a shared machine the CPU time varies less than the wall time. ``OLC_CORE_ENGINE=numpy`` in
the environment runs the numpy twins instead of the compiled kernels (the engine is printed).
The target (issue 14): under 5 s on two cores. Prints a Markdown table for docs/benchmarks.md, then
one line ``sweep: slowest=<learner> seconds=… all_under_5s=yes|no`` (on the most threads asked for).
``--smoke``: 3 values × 2 seeds × T = 200, one repeat, two threads — only shows the bench still runs
(tests/bench/test_bench_smoke.py), the 5 s verdict then says nothing.
"""
from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import olc_core  # noqa: E402
from olc_core._kernels.engine import resolve_engine  # noqa: E402

#: learner -> (parameter, (low, high), integer?, fixed settings, worst_case)
CASES = {
    "perceptron": ("gamma", (0.02, 0.3), False, {"d": 5}, False),
    "perceptron-noise": ("noise", (0.0, 0.2), False, {"d": 5, "gamma": 0.1}, False),
    "perceptron-worst": ("d", (1, 20), True, {}, True),
    "margin_perceptron": ("gamma", (0.05, 0.3), False, {"d": 5}, False),
    "winnow": ("N", (10, 1000), True, {"k": 3}, False),
    "winnow-beta": ("beta", (0.1, 4.0), False, {"N": 100, "k": 3}, False),
    "normalized_winnow": ("N", (11, 1000), True, {"k": 3}, False),
    "weighted_majority": ("beta", (0.05, 0.95), False, {"N": 10}, False),
    "randomized_weighted_majority": ("eta", (0.05, 0.95), False, {"N": 10}, False),
    "halving": ("N", (2, 1000), True, {}, False),
    "weighted_majority-worst": ("beta", (0.05, 0.95), False, {"N": 10}, True),
    "randomized_weighted_majority-worst": ("eta", (0.05, 0.95), False, {"N": 10}, True),
    "halving-worst": ("N", (2, 1000), True, {}, True),
    "conjunction": ("n", (3, 60), True, {"k": 3}, False),
    "decision_list": ("n", (3, 60), True, {"L": 3}, False),
}


def values_for(lo, hi, n, integer):
    v = np.linspace(lo, hi, n)
    return [int(round(x)) for x in v] if integer else v.tolist()


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--values", type=int, default=20)
    ap.add_argument("--seeds", type=int, default=10)
    ap.add_argument("--T", type=int, default=10_000)
    ap.add_argument("--threads", type=int, nargs="+", default=[1, 2])
    ap.add_argument("--only", nargs="*", default=None)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--smoke", action="store_true", help="a tiny run (CI): 3 values, 2 seeds, T = 200, 1 repeat")
    a = ap.parse_args()
    if a.smoke:
        a.values, a.seeds, a.T, a.threads, a.repeat = 3, 2, 200, [2], 1
    slowest = ("none", 0.0)
    print(f"cores available: {len(os.sched_getaffinity(0))}; values × seeds × T = {a.values} × {a.seeds} × {a.T}")
    print(f"engine: {resolve_engine('auto')}; load average at the start: {os.getloadavg()[0]:.1f}")
    head = "| learner | parameter (range) | fixed | cells | " + " | ".join(f"{t} thread(s) (s)" for t in a.threads)
    print(head + " | CPU, 1st thread count (s) |")
    print("|---|---|---|---:|" + "---:|" * (len(a.threads) + 1))
    for name, (param, (lo, hi), integer, fixed, worst) in CASES.items():
        if a.only and name not in a.only:
            continue
        algorithm = name.split("-")[0]
        vals = values_for(lo, hi, a.values, integer)
        olc_core.sweep(algorithm, param, vals[:1] + vals[-1:], seeds=2, T=min(a.T, 200), worst_case=worst,
                       **fixed)  # warm (the largest value too: kernels used only on large inputs load here)
        times, cpu = [], float("inf")
        for th in a.threads:
            best = float("inf")
            for _ in range(a.repeat):
                t0, c0 = time.perf_counter(), time.process_time()
                tab = olc_core.sweep(algorithm, param, vals, seeds=a.seeds, T=a.T, threads=th, worst_case=worst,
                                     **fixed)
                best = min(best, time.perf_counter() - t0)
                if th == a.threads[0]:
                    cpu = min(cpu, time.process_time() - c0)
            times.append(best)
        if times[-1] >= slowest[1]:
            slowest = (name, times[-1])
        fx = "; ".join(x for x in (", ".join(f"{k} = {v}" for k, v in fixed.items()), "worst case" * worst) if x)
        print(f"| {name} | {param} ({lo} … {hi}) | {fx or '—'} | {len(tab)} | "
              + " | ".join(f"{t:.2f}" for t in times) + f" | {cpu:.2f} |", flush=True)
    print(f"sweep: slowest={slowest[0]} seconds={slowest[1]:.2f} all_under_5s={'yes' if slowest[1] < 5 else 'no'}")


if __name__ == "__main__":
    main()
