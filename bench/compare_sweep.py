"""The Compare page's costs without a browser: the N sweep (every learner, N grid × seeds, per
preset; per learner and per N) and the step viewer's spec (build time and JSON size) at the
page's largest settings.

    /work/main/.venv/bin/python bench/compare_sweep.py [--preset sparse|dense|both] [--k 2]

The first sweep of a server pays numba's compile of the Perceptron loop (about 2 s): it is
reported separately ("warm-up"). The last line: ``compare: runs=… seconds=… spec_mb=…`` (every preset's
runs and their total time, the largest spec's JSON). ``--smoke``: the two smallest N of each grid, one
seed, T = 200, specs at N = 20 (CI: it runs; not a measurement).
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import olc_core  # noqa: E402
from olc_core.streams.compare import dense_instances, sparse_instances, views  # noqa: E402
from olc_ui.lessons.compare.lesson import SWEEP_N, SWEEP_SEEDS, SWEEP_T, dense_k  # noqa: E402
from olc_ui.lessons.compare.view import Lane, compare_spec  # noqa: E402


def sweep(preset: str, k: int, smoke: bool = False) -> tuple[int, float]:
    per_alg: dict[str, float] = defaultdict(float)
    per_n: dict[int, float] = defaultdict(float)
    t_all = time.perf_counter()
    grid, seeds, T = SWEEP_N[preset], SWEEP_SEEDS, SWEEP_T[preset]
    if smoke:
        grid, seeds, T = sorted(grid)[:2], 1, 200
    for N in grid:
        kk = k if preset == "sparse" else dense_k(N)
        for seed in range(seeds):
            t0 = time.perf_counter()
            s = (dense_instances(T=T, N=N, k=kk, seed=seed) if preset == "sparse"
                 else sparse_instances(T=T, N=N, k=kk, ones=1, seed=seed))
            per_alg["stream"] += time.perf_counter() - t0
            for alg, v in views(s).items():
                t0 = time.perf_counter()
                olc_core.run(alg, v.X, v.y, comparator=v.comparator).proof.mistake_bound
                dt = time.perf_counter() - t0
                per_alg[alg] += dt
                per_n[N] += dt
    total = time.perf_counter() - t_all
    runs = 3 * len(grid) * seeds
    print(f"{preset}: {runs} runs, T = {T}: {total:.2f} s")
    print("  by learner: " + ", ".join(f"{a} {t:.2f} s" for a, t in per_alg.items()))
    print("  by N:       " + ", ".join(f"{n} {t:.2f} s" for n, t in per_n.items()))
    return runs, total


def spec_size(preset: str, N: int = 200, T: int = 298, k: int = 2) -> float:
    s = (dense_instances(T=T, N=N, k=k, seed=0) if preset == "sparse"
         else sparse_instances(T=T, N=N, k=dense_k(N), ones=1, seed=0))
    rel = tuple(int(r) for r in s.comparator)
    lanes = [Lane(olc_core.run(a, v.X, v.y, comparator=v.comparator), v.X, v.y, rel, a != "winnow")
             for a, v in views(s).items()]
    t0 = time.perf_counter()
    spec = compare_spec(lanes, run_id="bench")
    dt = time.perf_counter() - t0
    print(f"{preset} spec at N = {N}, T = {T}: built in {dt:.2f} s, {len(json.dumps(spec)) / 1e6:.2f} MB of JSON, "
          f"{len(spec['breaks'])} states")
    return len(json.dumps(spec)) / 1e6


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--preset", default="both", choices=("sparse", "dense", "both"))
    ap.add_argument("--k", type=int, default=2)
    ap.add_argument("--smoke", action="store_true", help="a tiny run (CI): two N per grid, one seed, T = 200")
    a = ap.parse_args()
    t0 = time.perf_counter()
    v = views(dense_instances(T=50, N=20, k=2, seed=0))["perceptron"]
    olc_core.run("perceptron", v.X, v.y, comparator=v.comparator)
    print(f"warm-up (numba compile, once per process): {time.perf_counter() - t0:.2f} s")
    runs, seconds, mb = 0, 0.0, 0.0
    for p in (("sparse", "dense") if a.preset == "both" else (a.preset,)):
        r, sec = sweep(p, a.k, a.smoke)
        runs, seconds = runs + r, seconds + sec
        mb = max(mb, spec_size(p, N=20, T=60) if a.smoke else spec_size(p))
    print(f"compare: runs={runs} seconds={seconds:.2f} spec_mb={mb:.2f}")


if __name__ == "__main__":
    main()
