#!/usr/bin/env python3
"""olc_core.run("perceptron", …) — full trace and proof — against scikit-learn's one-pass fit.

    .venv/bin/python bench/perceptron_vs_sklearn.py                 # the full table
    .venv/bin/python bench/perceptron_vs_sklearn.py --quick          # T ≤ 10⁵
    .venv/bin/python bench/perceptron_vs_sklearn.py --markdown docs/benchmarks.md
    .venv/bin/python bench/perceptron_vs_sklearn.py --comparator none --only 1000000x2  # w* found by the run
    .venv/bin/python bench/perceptron_vs_sklearn.py --comparator both --only 1000000x2  # both, one timing loop
    .venv/bin/python bench/perceptron_vs_sklearn.py --target   # T = 10⁶, d = 2, no w*, five runs: the last line

Both sides see the same streams: separable with margin γ = 0.05 (radius 1, a planted
unit w*), and the same with 10 % of the labels flipped; T = 10⁴, 10⁵, 10⁶ and
d = 2, 100, 1000, skipping any X larger than ~2 GB. Timed, interleaved, median of
``--repeats`` runs each:

* olc: ``trace = olc_core.run("perceptron", X, y, comparator=w*)`` then
  ``trace.proof.violations()`` — the loop, the per-round score and comparator margin,
  the weights after every mistake, ⟨w*, w⟩ and ‖w‖ per mistake, the assumption scan,
  both sandwiches (proofs A and B) built and every inequality checked at every state;
  with each engine: numba (the optional compiled loop; on long runs with frequent mistakes
  its data-only half runs on a second thread), numba-1t (the same, one thread:
  ``OLC_CORE_THREADS=1``) and plain numpy;
  with ``--comparator none`` the run is given no comparator and finds the max-margin one itself
  (:func:`olc_core.comparators.max_margin`, with its certificate: the search is timed too);
  ``--comparator both`` times the planted and the no-comparator runs in the same interleaved loop;
* scikit-learn: ``Perceptron(fit_intercept=False, shuffle=False, max_iter=1, tol=None,
  eta0=1.0).fit(X, y)``, which records nothing.

The ratio is sklearn time / olc time (> 1: olc is faster). The final weights are
checked equal (exactly) on every row. numba's one-off compile time (first call in a
fresh process, and the cached load) is reported separately: the app's start pays it.

The last line: ``perceptron: worst_ratio_median=… worst_ratio_min=… runs=N`` — per run (a whole
measurement of the table; ``--runs N``) the ratio of its slowest olc engine on its worst row, and the median
and smallest of those over the N runs. ``--target`` is the issue's measure: T = 10⁶, d = 2, no comparator
given (the run finds w*), the separable and the 10 % noisy stream, the compiled engines, five runs. ``--smoke``: T = 10⁴, d = 2, one
repeat, no compile-time subprocesses (CI: the bench runs and olc's weights equal scikit-learn's).
"""
from __future__ import annotations

import argparse
import os
import platform
import subprocess
import sys
import time
import warnings
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import olc_core  # noqa: E402
from olc_core._kernels import engine as kernel_engine  # noqa: E402

MAX_BYTES = 2 * 1024 ** 3


def sklearn_fit(X, y):
    from sklearn.linear_model import Perceptron
    clf = Perceptron(fit_intercept=False, shuffle=False, max_iter=1, tol=None, eta0=1.0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        clf.fit(X, y)
    return clf.coef_.ravel()


def olc_run(X, y, w, engine):
    """engine "numba" (may use a second thread), "numba-1t" (one thread), "numpy"."""
    one = engine == "numba-1t"
    if one:
        os.environ["OLC_CORE_THREADS"] = "1"
    try:
        tr = olc_core.run("perceptron", X, y, comparator=w, engine="numba" if one else engine)
        tr.proof.violations()
    finally:
        if one:
            del os.environ["OLC_CORE_THREADS"]
    return tr


def median_times(fns: dict, repeats: int, budget_s: float) -> dict:
    """Interleave the callables, ``repeats`` rounds (fewer if a round exceeds the budget)."""
    times = {k: [] for k in fns}
    t_start = time.perf_counter()
    for r in range(repeats):
        for k, f in fns.items():
            t0 = time.perf_counter()
            f()
            times[k].append(time.perf_counter() - t0)
        if r >= 2 and time.perf_counter() - t_start > budget_s:
            break
    return {k: float(np.median(v)) for k, v in times.items()}


def compile_cost() -> dict:
    """numba's first-call cost in fresh processes, cold (empty cache) and warm (cached): import, a
    tiny run, and every Perceptron kernel compiled (the two halves and the verdict pass too)."""
    run = ("import time, numpy as np; t=time.perf_counter(); import olc_core; "
           "olc_core.run('perceptron', np.ones((3, 2)), np.ones(3), comparator=[1.0, 0.0], engine='ENGINE'); ")
    kernels = ("from olc_core._kernels import checks, perceptron; "
               "[perceptron.perceptron_kernel(k) for k in ('perceptron_learn', 'perceptron_data')]; "
               "checks.perceptron_checks(np.zeros(1), np.ones(1), 0.1, 0.1, 1.0, True, True, 1.0, 1e-9, 1.0); ")
    code = run.replace("ENGINE", "numba") + kernels + "print(time.perf_counter()-t)"
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    out = {}
    cache = ROOT / "olc_core" / "_kernels" / "__pycache__"
    for label in ("cold", "warm"):
        if label == "cold" and cache.exists():
            for f in cache.glob("perceptron.*.nb[ic]"):
                f.unlink()
        res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=ROOT)
        out[label] = float(res.stdout.strip().splitlines()[-1]) if res.returncode == 0 else float("nan")
    code_np = run.replace("ENGINE", "numpy") + "print(time.perf_counter()-t)"
    res = subprocess.run([sys.executable, "-c", code_np], capture_output=True, text=True, env=env, cwd=ROOT)
    out["numpy"] = float(res.stdout.strip().splitlines()[-1]) if res.returncode == 0 else float("nan")
    return out


def main() -> int:
    args = parse_args()
    engines = (["numba", "numba-1t"] if kernel_engine.available() else []) + ([] if args.no_numpy else ["numpy"])
    print(f"load average at the start: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    rows, worst, differ = [], [], 0
    for run in range(args.runs):
        if args.runs > 1:
            print(f"\n-- run {run + 1} of {args.runs}")
        run_rows, run_differ = table(args, engines)
        rows += run_rows
        differ += run_differ
        # a run's ratio: its slowest olc engine on its worst row (the worst of the streams)
        worst.append(min((r["sklearn"] / r[e] for r in run_rows for e in engines), default=float("nan")))
    cc = compile_cost() if kernel_engine.available() and not args.smoke else {}
    if cc:
        print(f"\nfirst call in a fresh process (import + tiny run): numba cold (compiling) {cc['cold']:.2f} s, "
              f"numba warm (from numba's cache) {cc['warm']:.2f} s, numpy {cc['numpy']:.2f} s")
    if args.markdown:
        write_markdown(args.markdown, rows, engines, cc)
    print(f"load average at the end: {os.getloadavg()[0]:.2f}; per run (worst ratio): "
          + ", ".join(f"{w:.2f}" for w in worst))
    print(f"perceptron: worst_ratio_median={float(np.median(worst)) if worst else float('nan'):.2f} "
          f"worst_ratio_min={min(worst, default=float('nan')):.2f} runs={len(worst)}")
    return 1 if differ else 0


def parse_args() -> argparse.Namespace:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true", help="only T ≤ 10⁵")
    ap.add_argument("--repeats", type=int, default=7)
    ap.add_argument("--budget", type=float, default=30.0, help="seconds per row before cutting repeats")
    ap.add_argument("--no-numpy", action="store_true", help="skip the plain-numpy engine (slow on noisy rows)")
    ap.add_argument("--markdown", type=Path, help="also write the table (markdown) to this file")
    ap.add_argument("--comparator", choices=("planted", "none", "both"), default="planted",
                    help="give the run the planted unit w* (default), or none: it finds the max-margin one; "
                         "both: the two interleaved in one timing loop (rows of the same moment)")
    ap.add_argument("--only", help="only these rows, e.g. 1000000x2 or 100000x100,1000000x2 (T x d)")
    ap.add_argument("--runs", type=int, default=1, help="measure the whole table this many times (the last "
                    "line's median and minimum are over the runs)")
    ap.add_argument("--target", action="store_true", help="the issue's target: T = 10⁶, d = 2, no comparator, "
                    "the compiled engines, five runs (= --comparator none --only 1000000x2 --no-numpy --runs 5)")
    ap.add_argument("--smoke", action="store_true", help="a tiny run (CI): T = 10⁴, d = 2, one repeat")
    args = ap.parse_args()
    if args.target:
        args.comparator, args.only, args.no_numpy, args.runs = "none", "1000000x2", True, 5
    if args.smoke:
        args.quick, args.repeats, args.budget, args.only, args.runs = True, 1, 5.0, "10000x2", 1
    return args


def table(args, engines) -> tuple[list, int]:
    """One measurement of the table: its rows, and how many final weights differed from scikit-learn's."""
    Ts = [10 ** 4, 10 ** 5] + ([] if args.quick else [10 ** 6])
    rows, differ = [], 0
    print(f"{'stream':<22} {'T':>8} {'d':>5} {'M':>8} {'sklearn ms':>11} " +
          " ".join(f"{'olc ' + e + ' ms':>14} {'ratio':>6}" for e in engines))
    only = {tuple(int(v) for v in r.split("x")) for r in args.only.split(",")} if args.only else None
    for noise in (0.0, 0.1):
        for T in Ts:
            for d in (2, 100, 1000):
                if only is not None and (T, d) not in only:
                    continue
                if T * d * 8 > MAX_BYTES:
                    print(f"{'noisy' if noise else 'separable':<10} {T:>8} {d:>5}   skipped (X would be "
                          f"{T * d * 8 / 2**30:.1f} GB)")
                    continue
                new, bad = measure_row(args, engines, noise, T, d)
                rows += new
                differ += bad
    return rows, differ


def measure_row(args, engines, noise: float, T: int, d: int) -> tuple[list, int]:
    """The rows of one stream (one per comparator kind), timed interleaved with scikit-learn."""
    s = olc_core.streams.separable(T=T, d=d, gamma=0.05, radius=1.0, seed=0, noise=noise)
    X, y = s.X, s.y
    kinds = {"planted": ["planted"], "none": ["none"], "both": ["planted", "none"]}[args.comparator]
    ref = sklearn_fit(X, y)
    fns = {"sklearn": lambda: sklearn_fit(X, y)}
    M, differ = None, 0
    for kind in kinds:  # interleaved in one timing loop: the rows of one kind compare with the other's
        w = s.comparator if kind == "planted" else None
        for e in engines:
            tr = olc_run(X, y, w, e)  # warm-up, and the exactness check
            if not np.array_equal(tr.weights_at(tr.T), ref):
                print(f"  !! final weights differ from scikit-learn ({e})")
                differ += 1
            M = tr.n_mistakes
            fns[(kind, e)] = (lambda e=e, w=w: olc_run(X, y, w, e))
    budget = args.budget if not (noise and "numpy" in engines and T * d >= 10 ** 7) else args.budget / 3
    med = median_times(fns, args.repeats, budget * len(kinds))
    rows = []
    for kind in kinds:
        name = ("noisy 10%" if noise else "separable") + (", no w*" if kind == "none" else
                                                           ", planted w*" if len(kinds) > 1 else "")
        row = {"stream": name, "T": T, "d": d, "M": M, "sklearn": med["sklearn"],
               **{e: med[(kind, e)] for e in engines}}
        rows.append(row)
        print(f"{row['stream']:<22} {T:>8} {d:>5} {M:>8} {med['sklearn'] * 1e3:>11.1f} " +
              " ".join(f"{row[e] * 1e3:>14.1f} {med['sklearn'] / row[e]:>6.2f}" for e in engines), flush=True)
    return rows, differ


def write_markdown(path: Path, rows, engines, cc) -> None:
    cpu = platform.processor() or platform.machine()
    lines = [
        "| stream | T | d | mistakes | scikit-learn (ms) | " +
        " | ".join(f"olc {e} (ms) | ratio" for e in engines) + " |",
        "|---|---:|---:|---:|---:|" + "---:|---:|" * len(engines),
    ]
    for r in rows:
        lines.append(f"| {r['stream']} | {r['T']:,} | {r['d']} | {r['M']:,} | {r['sklearn'] * 1e3:.1f} | " +
                     " | ".join(f"{r[e] * 1e3:.1f} | **{r['sklearn'] / r[e]:.2f}×**" for e in engines) + " |")
    text = "\n".join(lines)
    if cc:
        text += (f"\n\nFirst call in a fresh process (import olc_core + a 3-round run): numba cold "
                 f"(compiling) {cc['cold']:.2f} s, numba warm (numba's on-disk cache) {cc['warm']:.2f} s, "
                 f"numpy {cc['numpy']:.2f} s.")
    text += f"\n\nMachine: {os.cpu_count()} cores, {cpu}, Python {platform.python_version()}, numpy {np.__version__}."
    path.write_text(text + "\n")
    print(f"wrote {path}")


if __name__ == "__main__":
    sys.exit(main())
