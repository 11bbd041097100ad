#!/usr/bin/env python3
"""Floating frame of reference (form 'FFR') against total Lagrangian (form 'TL'): runtime of
the floating-frame paper's example 4.1 (spinning 1 x 1 x 2 cuboid, 4 x 4 x 8 HEX8, rho 2500,
E 35 GPa, nu 0.2, v0 = (1,0,0), omega0 = (0, w, 0)) for w = 1 and 4 pi, with the accuracy
of the x displacement of (0,0,1) against the rigid trajectory t + sin(w t).

Usage:
  SOLFEC_BUILD_DIR=build-xxx /usr/bin/python3 tests/benchmarks/run_ffr.py [--T 1.0]
      [--step 1e-4] [--forms FFR TL] [--stack]

--stack also times example 4.2 (three stacked cuboids on a shaking base, coarse meshes,
h = 1e-3, T = 0.6 s) and prints the FFR/TL difference of the top face displacement.
Each case runs in-process one after the other (single thread); the output directories go
to a temporary folder. The paper (fig. 5) reports FFR ~ small-deformation cost and several
times faster than TL with Newton; our TL is the linearly implicit DEF_LIM (one CHOLMOD
factorization per step), so the ratio measures factorization + assembly per step vs. one
solve with a constant factor.
"""

import argparse
import math
import os
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
BUILD = os.environ.get("SOLFEC_BUILD_DIR", os.path.join(ROOT, "build"))
sys.path.insert(0, os.path.join(BUILD, "python"))
sys.path.insert(0, os.path.join(ROOT, "tests", "python"))

from ffr_decks import rigid_dx, spinning_cuboid, stacked_cuboids  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--T", type=float, default=1.0, help="duration of example 4.1 [s]")
    ap.add_argument("--step", type=float, default=1e-4, help="time step of example 4.1 [s]")
    ap.add_argument("--forms", nargs="+", default=["FFR", "TL"])
    ap.add_argument("--stack", action="store_true", help="also time example 4.2 (short)")
    a = ap.parse_args()

    tmp = tempfile.mkdtemp(prefix="ffr_bench_")
    print(f"example 4.1: 4 x 4 x 8 HEX8, h = {a.step:g}, T = {a.T:g} "
          f"({int(round(a.T / a.step))} steps)")
    print(f"{'w':>8} {'form':>5} {'runtime [s]':>12} {'ms/step':>9} {'max rel. error':>15}")
    times = {}
    for w in (1.0, 4 * math.pi):
        for form in a.forms:
            t0 = time.perf_counter()
            ts, dx, _ = spinning_cuboid(os.path.join(tmp, f"{form}_{w:.3f}"), form, w, a.step,
                                        a.T, samples=20)
            dt = time.perf_counter() - t0
            ref = [rigid_dx(t, w) for t in ts]
            err = max(abs(x - r) for x, r in zip(dx, ref)) / max(abs(r) for r in ref)
            times[(w, form)] = dt
            print(f"{w:8.4f} {form:>5} {dt:12.2f} {1e3 * dt * a.step / a.T:9.3f} {err:15.3e}")
        if "FFR" in a.forms and "TL" in a.forms:
            print(f"{'':8} ratio TL / FFR = {times[(w, 'TL')] / times[(w, 'FFR')]:.2f}")
    if a.stack:
        print("example 4.2 (short: 2 x 2 x 4 meshes, h = 1e-3, T = 0.6)")
        res = {}
        for form in ("FFR", "TL"):
            t0 = time.perf_counter()
            _, dx, _ = stacked_cuboids(os.path.join(tmp, f"stack_{form}"), form, 1e-3, 0.6,
                                       samples=6)
            res[form] = (time.perf_counter() - t0, dx)
            print(f"{form:>5} runtime {res[form][0]:.2f} s, top-face dx (relative to the base)",
                  " ".join(f"{d:+.5f}" for d in dx))
        diff = max(abs(x - y) for x, y in zip(res["FFR"][1], res["TL"][1]))
        print(f"max |FFR - TL| / max |TL| = {diff / max(abs(y) for y in res['TL'][1]):.3%}, "
              f"ratio TL / FFR = {res['TL'][0] / res['FFR'][0]:.2f}")


if __name__ == "__main__":
    main()
