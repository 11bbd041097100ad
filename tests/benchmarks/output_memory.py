"""Memory of a long run with output every step: resident set size after 10k, 50k, 100k steps.

Usage: /usr/bin/python3 tests/benchmarks/output_memory.py [--build DIR] [--steps N]

A ball bounces on a floor (restitution 1) for N steps of 1 ms with a results frame every step;
the script prints the process RSS (from /proc/self/status) at checkpoints and the file size.
Memory must stay flat: no per-frame data is kept in RAM (the writer appends to HDF5 and
flushes every frame).
"""

import argparse
import os
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def rss_mib():
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024.0
    return float("nan")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default=os.environ.get("SOLFEC_BUILD_DIR", os.path.join(ROOT, "build")))
    ap.add_argument("--steps", type=int, default=100000)
    args = ap.parse_args()
    sys.path.insert(0, os.path.join(args.build, "python"))
    from solfec import (SOLFEC, BULK_MATERIAL, SURFACE_MATERIAL, BODY, HULL, SPHERE, GRAVITY,
                        GAUSS_SEIDEL_SOLVER, RUN)
    out = tempfile.mkdtemp(prefix="solfec-mem-")
    sol = SOLFEC("DYNAMIC", 1e-3, os.path.join(out, "ball"))
    sol.verbose = "OFF"
    bulk = BULK_MATERIAL(sol)
    SURFACE_MATERIAL(sol, restitution=1.0)
    BODY(sol, "OBSTACLE", HULL([-1, -1, -1, 1, -1, -1, 1, 1, -1, -1, 1, -1,
                                -1, -1, 0, 1, -1, 0, 1, 1, 0, -1, 1, 0], 1, 1), bulk)
    BODY(sol, "RIGID", SPHERE((0, 0, 0.6), 0.5, 1, 1), bulk)
    GRAVITY(sol, (0, 0, -10))
    gs = GAUSS_SEIDEL_SOLVER(1e-8, 100, stopping="EITHER")
    checkpoints = sorted({args.steps // 10, args.steps // 2, args.steps})
    done, t0 = 0, time.time()
    print(f"{'steps':>8} {'RSS MiB':>9} {'file MiB':>9} {'s':>7}")
    h5 = os.path.join(out, "ball", "ball.h5")
    for c in checkpoints:
        RUN(sol, gs, (c - done) * 1e-3)
        done = c
        print(f"{done:8d} {rss_mib():9.1f} {os.path.getsize(h5) / 2**20:9.1f} {time.time() - t0:7.1f}")


if __name__ == "__main__":
    main()
