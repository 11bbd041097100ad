#!/usr/bin/env python3
"""Floating frame of reference (form 'FFR') against total Lagrangian (form 'TL'): runtime of
the floating-frame paper's example 4.1 (spinning 1 x 1 x 2 cuboid, 4 x 4 x 8 HEX8, rho 2500,
E 35 GPa, nu 0.2, v0 = (1,0,0), omega0 = (0, w, 0)) for w = 1 and 4 pi, with the accuracy
of the x displacement of (0,0,1) against the rigid trajectory t + sin(w t).

Usage:
  SOLFEC_BUILD_DIR=build-xxx /usr/bin/python3 tests/benchmarks/run_ffr.py [--T 1.0]
      [--step 1e-4] [--forms FFR TL] [--stack]
  SOLFEC_BUILD_DIR=build-xxx /usr/bin/python3 tests/benchmarks/run_ffr.py --stack-full
      [--stack-T 1.5] [--stack-step 1e-4] [--stack-sample 0.01] [--parallel] [--out DIR]

--stack also times example 4.2 (three stacked cuboids on a shaking base, coarse meshes,
h = 1e-3, T = 0.6 s) and prints the FFR/TL difference of the top face displacement.
--stack-full runs example 4.2 as in the paper (ffr_decks.PAPER_STACK: 4 x 4 x 8 HEX8 per
cuboid, h = 1e-4, T = 1.5; --stack-T / --stack-step shorten it) for FFR and TL, prints the
CPU (process) time of each, their ratio and the difference of the paper's fig. 7 quantity
(mean x displacement of the upper cuboid's top face, base motion included), and writes the
histories to --out (default: a temporary folder) as stack_full.csv / stack_full.json; each
form also writes stack_full_<FORM>.csv as it goes. --parallel runs the two forms in two
child processes at once (one core each) instead of one after the other. --stack-compare DIR
re-prints the comparison from DIR's histories, over the samples both forms reached.
Each case runs in-process one after the other (single thread); the output directories go
to a temporary folder. The paper (fig. 5) reports FFR ~ small-deformation cost and several
times faster than TL with Newton; our TL is the linearly implicit DEF_LIM (one CHOLMOD
factorization per step), so the ratio measures factorization + assembly per step vs. one
solve with a constant factor.
"""

import argparse
import json
import math
import os
import subprocess
import sys
import tempfile
import time

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # before the library loads (single thread)
os.environ.setdefault("OMP_NUM_THREADS", "1")
HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
BUILD = os.environ.get("SOLFEC_BUILD_DIR", os.path.join(ROOT, "build"))
sys.path.insert(0, os.path.join(BUILD, "python"))
sys.path.insert(0, os.path.join(ROOT, "tests", "python"))

from ffr_decks import (PAPER_STACK, base_displacement, rigid_dx, spinning_cuboid,  # noqa: E402
                       stacked_cuboids)


def stack_full_form(form, h, T, dt_sample, out):
    """Runs example 4.2 (PAPER_STACK set-up, step h, duration T) for one form, sampling the
    top-face mean x displacement every dt_sample; appends each sample (with the CPU and wall
    time so far) to out/stack_full_<form>.csv, so that an interrupted run keeps its history."""
    samples = max(1, int(round(T / dt_sample)))
    csv = os.path.join(out, f"stack_full_{form}.csv")
    with open(csv, "w") as f:
        f.write("t,dx_relative_to_base,dx_absolute,cpu_s,wall_s\n")
    c0, w0 = time.process_time(), time.perf_counter()

    def on_sample(t, dx):
        with open(csv, "a") as f:
            f.write(f"{t:.6f},{dx:.9e},{dx + base_displacement(t):.9e},"
                    f"{time.process_time() - c0:.3f},{time.perf_counter() - w0:.3f}\n")

    set_up = {k: v for k, v in PAPER_STACK.items() if k not in ("h", "T")}
    stacked_cuboids(os.path.join(out, f"stack_{form}"), form, h, T, samples=samples,
                    on_sample=on_sample, **set_up)


def read_history(out, form):
    """Columns of out/stack_full_<form>.csv as a dict of lists."""
    with open(os.path.join(out, f"stack_full_{form}.csv")) as f:
        head = f.readline().strip().split(",")
        rows = [[float(x) for x in line.split(",")] for line in f if line.strip()]
    return {k: [r[i] for r in rows] for i, k in enumerate(head)}


def stack_compare(out, h):
    """Prints and writes (stack_full.csv / .json) the FFR vs TL comparison of the histories in
    out, over the samples both forms have (all of them unless a run was interrupted)."""
    res = {f: read_history(out, f) for f in ("FFR", "TL")}
    n = min(len(res["FFR"]["t"]), len(res["TL"]["t"]))
    if n == 0:
        sys.exit(f"run_ffr.py: no samples in {out}")
    ts = res["TL"]["t"][:n]
    fa, ta = res["FFR"]["dx_absolute"][:n], res["TL"]["dx_absolute"][:n]
    fr, tr = res["FFR"]["dx_relative_to_base"][:n], res["TL"]["dx_relative_to_base"][:n]
    cpu = {f: res[f]["cpu_s"][n - 1] for f in res}
    wall = {f: res[f]["wall_s"][n - 1] for f in res}
    steps = int(round(ts[-1] / h))
    print(f"compared up to t = {ts[-1]:g} s ({steps} steps, {n} samples)")
    for f in res:
        print(f"{f:>5} CPU {cpu[f]:8.1f} s ({1e3 * cpu[f] / steps:.2f} ms/step), "
              f"wall {wall[f]:8.1f} s")
    print(f"ratio TL / FFR (CPU) = {cpu['TL'] / cpu['FFR']:.2f}")
    span, rspan = max(ta) - min(ta), max(tr) - min(tr)
    d_abs = max(abs(x - y) for x, y in zip(fa, ta)) / span
    d_rel = max(abs(x - y) for x, y in zip(fr, tr)) / rspan
    l2 = math.sqrt(sum((x - y) ** 2 for x, y in zip(fa, ta)) / sum(y * y for y in ta))
    print("mean x displacement of the upper top face (paper fig. 7), FFR vs TL:")
    print(f"  max |FFR - TL| / (max TL - min TL) = {d_abs:.2%} (TL range {span:.4f} m)")
    print(f"  relative L2 |FFR - TL| / |TL| over the history = {l2:.2%}")
    print(f"  relative to the base: max |FFR - TL| / range = {d_rel:.2%} (range {rspan:.4f} m)")
    print(f"{'t [s]':>7} {'base [m]':>10} {'FFR [m]':>10} {'TL [m]':>10} {'FFR-TL [m]':>11}")
    step = max(1, n // 10)
    for i in list(range(step - 1, n, step)) + ([n - 1] if n % step else []):
        print(f"{ts[i]:7.3f} {base_displacement(ts[i]):10.5f} {fa[i]:10.5f} {ta[i]:10.5f} "
              f"{fa[i] - ta[i]:+11.2e}")
    with open(os.path.join(out, "stack_full.csv"), "w") as f:
        f.write("t,base,FFR_absolute,TL_absolute,FFR_relative,TL_relative\n")
        for i, t in enumerate(ts):
            f.write(f"{t:.6f},{base_displacement(t):.9e},{fa[i]:.9e},{ta[i]:.9e},"
                    f"{fr[i]:.9e},{tr[i]:.9e}\n")
    summary = dict(h=h, T=ts[-1], steps=steps, set_up=PAPER_STACK, cpu=cpu, wall=wall,
                   ratio_cpu=cpu["TL"] / cpu["FFR"], max_diff_over_range=d_abs, l2_relative=l2,
                   max_diff_relative_curves=d_rel, t=ts, base=[base_displacement(t) for t in ts],
                   FFR=fa, TL=ta)
    with open(os.path.join(out, "stack_full.json"), "w") as f:
        json.dump(summary, f, indent=1)
    print(f"histories: {os.path.join(out, 'stack_full.csv')} and stack_full.json")


def stack_full(a):
    """--stack-full: both forms (in-process one after the other, or --parallel children),
    then the comparison."""
    out = a.out or tempfile.mkdtemp(prefix="ffr_stack_full_")
    os.makedirs(out, exist_ok=True)
    h, T = a.stack_step, a.stack_T
    print(f"example 4.2 full: 4 x 4 x 8 HEX8 per cuboid, upper {PAPER_STACK['upper'][0]:g} x "
          f"{PAPER_STACK['upper'][1]:g} x 2, h = {h:g}, T = {T:g} ({int(round(T / h))} steps), "
          f"output in {out}", flush=True)
    if a.parallel:
        procs = [subprocess.Popen([sys.executable, os.path.abspath(__file__), "--stack-form", f,
                                   "--stack-T", repr(T), "--stack-step", repr(h),
                                   "--stack-sample", repr(a.stack_sample), "--out", out])
                 for f in ("FFR", "TL")]
        if any(p.wait() for p in procs):
            sys.exit("run_ffr.py: a --stack-form child failed")
    else:
        for f in ("FFR", "TL"):
            stack_full_form(f, h, T, a.stack_sample, out)
    stack_compare(out, h)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--T", type=float, default=1.0, help="duration of example 4.1 [s]")
    ap.add_argument("--step", type=float, default=1e-4, help="time step of example 4.1 [s]")
    ap.add_argument("--forms", nargs="+", default=["FFR", "TL"])
    ap.add_argument("--stack", action="store_true", help="also time example 4.2 (short)")
    ap.add_argument("--stack-full", action="store_true",
                    help="run only example 4.2 as in the paper (FFR and TL)")
    ap.add_argument("--stack-T", type=float, default=PAPER_STACK["T"],
                    help="duration of --stack-full [s] (paper: 1.5)")
    ap.add_argument("--stack-step", type=float, default=PAPER_STACK["h"],
                    help="time step of --stack-full [s] (paper: 1e-4)")
    ap.add_argument("--stack-sample", type=float, default=0.01,
                    help="sampling interval of the --stack-full histories [s]")
    ap.add_argument("--parallel", action="store_true",
                    help="--stack-full: run FFR and TL in two child processes at once")
    ap.add_argument("--out", help="--stack-full output folder (default: a temporary one)")
    ap.add_argument("--stack-compare", metavar="DIR",
                    help="only compare the (possibly interrupted) --stack-full histories in DIR "
                         "(pass the run's --stack-step for the ms/step figures)")
    ap.add_argument("--stack-form", metavar="FORM",
                    help="run example 4.2 full for one form into --out, no comparison "
                         "(what --parallel starts)")
    a = ap.parse_args()
    if a.stack_compare:
        stack_compare(a.stack_compare, a.stack_step)
        return
    if a.stack_form:
        os.makedirs(a.out, exist_ok=True)
        stack_full_form(a.stack_form, a.stack_step, a.stack_T, a.stack_sample, a.out)
        return
    if a.stack_full:
        stack_full(a)
        return

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
