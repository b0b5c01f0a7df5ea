"""The Winnow lesson's viewer spec at N = T = 10⁴: its JSON size and the time to build it (and the run's).

    /work/main/.venv/bin/python bench/winnow_spec_size.py [--N 10000] [--T 10000] [--k 3] [--noise 0]

No browser: for any source, N, T, k and noise. bench/ui_latency.py --page winnow prints the same
line for the page it measures (generated, N = T = 10^4, k = 3, no noise). The last line:
``winnow_spec: json_kb=… spec_seconds=… mistakes=…``; ``--smoke``: N = T = 500 (CI: it runs).
"""
from __future__ import annotations

import argparse
import json
import time

import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import olc_core  # noqa: E402
from olc_core.streams.winnow_extra import winnow_adversary  # noqa: E402
from olc_ui.lessons.winnow.view import winnow_spec  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--N", type=int, default=10_000)
    ap.add_argument("--T", type=int, default=10_000)
    ap.add_argument("--k", type=int, default=3)
    ap.add_argument("--noise", type=float, default=0.0)
    ap.add_argument("--source", choices=("generated", "adversary"), default="generated")
    ap.add_argument("--smoke", action="store_true", help="a tiny run (CI): N = T = 500")
    a = ap.parse_args()
    if a.smoke:
        a.N, a.T = 500, 500
    t0 = time.perf_counter()
    if a.source == "generated":
        s = olc_core.streams.sparse_disjunction(T=a.T, N=a.N, k=a.k, seed=0, noise=a.noise, dtype=np.uint8)
    else:
        s = winnow_adversary(T=a.T, N=a.N, k=a.k, beta=1.0, seed=0)
    t1 = time.perf_counter()
    tr = olc_core.run("winnow", s.X, s.y, beta=1.0, comparator=s.comparator)
    t2 = time.perf_counter()
    spec = winnow_spec(tr, s.X, s.y, run_id="bench")
    t3 = time.perf_counter()
    text = json.dumps(spec, allow_nan=False)
    print(f"{a.source} N={a.N} T={a.T} k={a.k} noise={a.noise}: M={tr.n_mistakes}; stream {t1 - t0:.2f} s, "
          f"run {t2 - t1:.2f} s, spec {t3 - t2:.2f} s, JSON {len(text) / 1e3:.0f} kB")
    print(f"winnow_spec: json_kb={len(text) / 1e3:.0f} spec_seconds={t3 - t2:.2f} mistakes={tr.n_mistakes}")


if __name__ == "__main__":
    main()
