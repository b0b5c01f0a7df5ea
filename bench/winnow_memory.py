"""Peak resident memory of one Winnow run with its proof, measured in a fresh process (issue 24).

    /work/main/.venv/bin/python bench/winnow_memory.py [--N 10000] [--T 10000] [--k 50] [--noise 0.1]
                                                      [--beta 0.05] [--seed 0] [--page] [--no-comparator]

The child process draws the stream as the Winnow page does (``sparse_disjunction(..., dtype=np.uint8)``:
X is T × N bytes), runs ``olc_core.run("winnow", X, y, beta=…, comparator=…)``, checks every inequality of
the proof (``trace.proof.violations()``) and reads the weights before a few rounds (``weights_at``), then
reports its peak resident set size (``VmHWM`` of /proc/self/status; ``ru_maxrss`` elsewhere). ``--page``
also builds the page's step-viewer spec (``olc_ui.lessons.winnow.view.winnow_spec``) and reports the peak
after it separately (the page is not part of the target; this only shows where it stands).

The target (issue 24): ≤ 256 MB at N = T = 10⁴, k = 50, 10 % noise, β = 0.05 (≈ 5,122 mistakes).
Last line: ``winnow_memory: N=… T=… mistakes=… peak_rss_mb=…``. ``--smoke``: N = T = 300 (CI: the
script still runs; the number then says nothing).
"""
from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def peak_rss_mb() -> float:
    """The process's peak resident set size so far, in MB (10⁶ bytes)."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) * 1024 / 1e6
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024 / 1e6  # kB on Linux


def rss_mb() -> float:
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024 / 1e6
    except OSError:
        pass
    return float("nan")


def child(a) -> None:
    sys.path.insert(0, str(ROOT))
    import numpy as np  # noqa: PLC0415 - the child measures its own imports too
    import olc_core  # noqa: PLC0415
    out: dict = {"after_import_mb": peak_rss_mb()}
    s = olc_core.streams.sparse_disjunction(T=a.T, N=a.N, k=a.k, seed=a.seed, noise=a.noise, dtype=np.uint8)
    out["x_mb"] = s.X.nbytes / 1e6
    out["after_stream_mb"] = peak_rss_mb()
    t0 = time.perf_counter()
    tr = olc_core.run("winnow", s.X, s.y, beta=a.beta, comparator=None if a.no_comparator else s.comparator)
    out["after_run_mb"] = peak_rss_mb()
    # a violation whose chain needs a failed assumption (the noise breaks the target) is "not applicable"
    out["violations"] = sum(1 for v in tr.proof.violations() if not v.needs)
    out["after_proof_mb"] = peak_rss_mb()
    for t in np.linspace(0, a.T, 7).astype(int).tolist():
        tr.weights_at(t)
        tr.log_weights_at(t)
    out["seconds"] = time.perf_counter() - t0
    out["after_weights_mb"] = peak_rss_mb()
    out["mistakes"] = tr.n_mistakes
    out["history_mb"] = tr.history.nbytes / 1e6
    out["peak_rss_mb"] = peak_rss_mb()
    if a.page:
        from olc_ui.lessons.winnow.view import winnow_spec  # noqa: PLC0415 - only with --page
        t1 = time.perf_counter()
        spec = winnow_spec(tr, s.X, s.y, run_id="bench")
        out["spec_seconds"] = time.perf_counter() - t1
        out["spec_kb"] = len(json.dumps(spec)) / 1e3
        out["page_peak_rss_mb"] = peak_rss_mb()
    out["rss_end_mb"] = rss_mb()
    print(json.dumps(out))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--N", type=int, default=10_000)
    ap.add_argument("--T", type=int, default=10_000)
    ap.add_argument("--k", type=int, default=50)
    ap.add_argument("--noise", type=float, default=0.1)
    ap.add_argument("--beta", type=float, default=0.05)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--page", action="store_true", help="also build the page's spec (reported separately)")
    ap.add_argument("--no-comparator", action="store_true",
                    help="let the proof find the target (as for an uploaded file) instead of giving it")
    ap.add_argument("--smoke", action="store_true", help="a tiny run (CI): N = T = 300")
    ap.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.smoke:
        a.N, a.T, a.k = 300, 300, min(a.k, 10)
    if a.child:
        child(a)
        return
    args = [sys.executable, str(Path(__file__).resolve()), "--child", "--N", str(a.N), "--T", str(a.T),
            "--k", str(a.k), "--noise", repr(a.noise), "--beta", repr(a.beta), "--seed", str(a.seed)]
    args += (["--page"] if a.page else []) + (["--no-comparator"] if a.no_comparator else [])
    res = subprocess.run(args, cwd=ROOT, capture_output=True, text=True)
    if res.returncode != 0:
        sys.stderr.write(res.stderr)
        sys.exit(res.returncode)
    r = json.loads(res.stdout.strip().splitlines()[-1])
    print(f"N = {a.N}, T = {a.T}, k = {a.k}, noise = {a.noise}, β = {a.beta}, seed = {a.seed}")
    for key, val in r.items():
        print(f"  {key}: {val:.1f}" if isinstance(val, float) else f"  {key}: {val}")
    if r["violations"]:
        print(f"the proof reports {r['violations']} violation(s)", file=sys.stderr)
        sys.exit(1)
    print(f"winnow_memory: N={a.N} T={a.T} mistakes={r['mistakes']} peak_rss_mb={r['peak_rss_mb']:.0f}")


if __name__ == "__main__":
    main()
