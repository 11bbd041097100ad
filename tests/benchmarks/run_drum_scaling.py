#!/usr/bin/env python3
"""Strong scaling of the rotating drum (tests/benchmarks/drum/drum.py) over MPI ranks.

  /usr/bin/python3 tests/benchmarks/run_drum_scaling.py            # 10000 bodies, 60 steps
  /usr/bin/python3 tests/benchmarks/run_drum_scaling.py --quick    # 1000 bodies, 20 steps
  options: --n N, --steps S (timed), --settle S (untimed, before), --step H, --omega W,
           --ranks 1 2 [4 ...], --no-serial, --variant FULL|MIDDLE_JACOBI|BOUNDARY_JACOBI,
           --build DIR (default $SOLFEC_BUILD_DIR, build-mpi/, build/), --json out.json,
           --keep DIR (keep the runs' output there; default a temporary folder)

Runs the deck with the serial `solfec` launcher and with `mpirun -np k solfec-mpi` for each
k in --ranks (`--oversubscribe --bind-to core`, `none` when k exceeds the cores; under
`nice -n 5`, OPENBLAS_NUM_THREADS=1),
one after the other, each in a fresh output folder (`-w`). Each run prints one
`DRUM_RESULT {json}` line (rank 0); the table gives per run:

  wall      wall time of the timed RUN (slowest rank; set-up and settling excluded), per step
  cpu       process CPU time of RUN (the busiest rank), cpu-sum over all ranks
  S-wall    speedup wall(1 rank) / wall(k ranks); S-ser: wall(serial solfec) / wall(run)
  E-wall    parallel efficiency = S-wall / k
  S-cpu     cpu(1 rank) / cpu(busiest of k ranks), E-cpu = S-cpu / k: the speed-up the run
            would show with a free core per rank (Open MPI polls while it waits, so waiting
            in communication counts as CPU time); use it when the machine is loaded
  bal%      load balancing share of wall: parallel_stats['balance_time'] when solfec-mpi
            reports it, else the PARBAL stage (TIMING) of the slowest rank
  comm%     communication share of wall: parallel_stats['comm_time'] ('-' when not reported)
  contacts  mean contacts per step (rank 0's count when every rank sees the same count, as
            with solfec-mpi's Synchronize copies at callbacks; else the sum over ranks)
  |dx|, dKE distance of the bodies' mean centre from the serial run's and the relative
            difference of the final kinetic energy (the runs must agree: bit for bit while
            every rank runs the whole model; statistically once the Gauss-Seidel order differs)

On a shared machine the wall times depend on the load (printed before and after); the CPU
times are the robust per-process numbers, but only wall time shows a parallel speed-up.
"""

import argparse
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DECK = os.path.join(ROOT, "tests", "benchmarks", "drum", "drum.py")
MPI_ENV = {"OMPI_ALLOW_RUN_AS_ROOT": "1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1",
           "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1"}


def find_build(arg):
    for c in (arg, os.environ.get("SOLFEC_BUILD_DIR"), os.path.join(ROOT, "build-mpi"),
              os.path.join(ROOT, "build")):
        if c and os.path.isfile(os.path.join(c, "solfec")):
            return os.path.abspath(c)
    sys.exit("run_drum_scaling: no solfec build found (pass --build DIR)")


def run_one(label, cmd, cwd, timeout):
    """Runs one job; returns the parsed DRUM_RESULT dict plus the outer wall time."""
    env = dict(os.environ, **MPI_ENV)
    print("  %-9s %s" % (label, " ".join(cmd)), flush=True)
    t0 = time.perf_counter()
    p = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)
    outer = time.perf_counter() - t0
    res = None
    for line in p.stdout.splitlines():
        if line.startswith("DRUM_RESULT "):
            res = json.loads(line[len("DRUM_RESULT "):])
    if p.returncode != 0 or res is None:
        sys.stderr.write(p.stdout[-3000:] + p.stderr[-3000:])
        sys.exit("run_drum_scaling: %s failed (exit code %d)" % (label, p.returncode))
    res["outer_wall"] = outer
    res["label"] = label
    print("            wall %.1f s (process %.1f s), cpu %.1f s, %.0f contacts/step" %
          (res["wall"], outer, res["cpu"], res["contacts_mean"]), flush=True)
    return res


def share(res, key, fallback_stage=None):
    ps = res.get("parallel_stats") or {}
    if key in ps and res["wall"] > 0:
        return 100.0 * ps[key] / res["wall"]
    if fallback_stage and res["wall"] > 0:
        return 100.0 * res["stages"].get(fallback_stage, 0.0) / res["wall"]
    return None


def fmt(v, spec, width):
    return ("%" + spec) % v if v is not None else "-".rjust(width)


def table(runs):
    ref = next((r for r in runs if r["label"] == "serial"), runs[0])
    one = next((r for r in runs if r["label"] == "np1"), None)
    head = ("run      ranks  wall[s] s/step  cpu[s] cpu-sum  S-wall S-ser E-wall  S-cpu E-cpu"
            "  bal%  comm%  contacts   |dx|[m]     dKE  max-r[m]")
    lines = [head, "-" * len(head)]
    for r in runs:
        k, mpi = r["ranks"], r["label"] != "serial"
        sp = one["wall"] / r["wall"] if one and mpi else None
        sps = ref["wall"] / r["wall"]
        spc = one["cpu"] / r["cpu"] if one and mpi else None
        dx = math.dist(r["mean_position"], ref["mean_position"])
        dke = (r["kinetic"] - ref["kinetic"]) / max(abs(ref["kinetic"]), 1e-300)
        row = ("%-8s %5d %8.1f %6.3f %7.1f %7.1f %7s %5.2f %6s %6s %5s %5s %6s %9.0f %9.2e"
               " %7.0e %9.4f")
        lines.append(row % (
                r["label"], k, r["wall"], r["wall_per_step"], r["cpu"], r.get("cpu_sum", r["cpu"]),
                fmt(sp, ".2f", 7), sps, fmt(sp / k if sp else None, ".2f", 6), fmt(spc, ".2f", 6),
                fmt(spc / k if spc else None, ".2f", 5),
                fmt(share(r, "balance_time", "PARBAL"), ".1f", 5),
                fmt(share(r, "comm_time"), ".1f", 6), r["contacts_mean"], dx, dke,
                r["max_radius"]))
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--n", type=int, default=10000)
    ap.add_argument("--steps", type=int, default=60)
    ap.add_argument("--settle", type=int, default=50)
    ap.add_argument("--step", type=float, default=4e-3)
    ap.add_argument("--omega", type=float, default=1.0)
    ap.add_argument("--variant", default="FULL",
                    help="GAUSS_SEIDEL_SOLVER.variant of the MPI runs (FULL, MIDDLE_JACOBI, "
                         "BOUNDARY_JACOBI)")
    ap.add_argument("--ranks", type=int, nargs="*", default=[1, 2])
    ap.add_argument("--quick", action="store_true", help="1000 bodies, 20 + 50 steps")
    ap.add_argument("--no-serial", action="store_true", help="skip the serial solfec run")
    ap.add_argument("--build")
    ap.add_argument("--json")
    ap.add_argument("--keep")
    ap.add_argument("--timeout", type=float, default=3600.0, help="per run [s]")
    a = ap.parse_args()
    os.environ["DRUM_VARIANT"] = a.variant
    if a.quick:
        a.n, a.steps = 1000, 20
    build = find_build(a.build)
    solfec, solfec_mpi = os.path.join(build, "solfec"), os.path.join(build, "solfec-mpi")
    mpirun = shutil.which("mpirun")
    if a.ranks and not (os.path.isfile(solfec_mpi) and mpirun):
        sys.exit("run_drum_scaling: %s or mpirun missing (build with MPI and Zoltan)" %
                 solfec_mpi)
    work = a.keep or tempfile.mkdtemp(prefix="drum-scaling-")
    os.makedirs(work, exist_ok=True)
    nice = ["nice", "-n", "5"] if shutil.which("nice") else []
    deck_args = [str(a.n), str(a.steps), repr(a.step)]
    print("drum: %d bodies, %d timed steps of %g s after %d settling steps, omega %g rad/s;"
          "\n      build %s; output %s" % (a.n, a.steps, a.step, a.settle, a.omega, build, work))
    print("load average before: %s" % " ".join(open("/proc/loadavg").read().split()[:3]))
    runs = []
    if not a.no_serial:
        out = os.path.join(work, "serial")
        runs.append(run_one("serial", nice + [solfec, "-w", DECK] + deck_args +
                            [out, str(a.omega), str(a.settle)], work, a.timeout))
    for k in a.ranks:
        out = os.path.join(work, "np%d" % k)
        # Each rank on a core of its own while there are enough (Open MPI's own default for
        # np <= 2; measured on 2 cores: ~7 % less wall and less spread than unbound ranks,
        # which the scheduler moves between the cores); unbound when oversubscribed.
        bind = "core" if k <= (os.cpu_count() or 1) else "none"
        cmd = nice + [mpirun, "--oversubscribe", "--bind-to", bind, "-np", str(k), solfec_mpi,
                      "-w", DECK] + deck_args + [out, str(a.omega), str(a.settle)]
        runs.append(run_one("np%d" % k, cmd, work, a.timeout))
    print("load average after:  %s" % " ".join(open("/proc/loadavg").read().split()[:3]))
    print()
    print(table(runs))
    modes = sorted({r.get("mode", "?") for r in runs if r["label"] != "serial"})
    print("\nfinal state (t = %.3f s):" % runs[0]["time"])
    for r in runs:
        print("  %-7s bodies %d, mean centre (%.5f, %.5f, %.5f) m, kinetic %.6g J, max centre "
              "distance from axis %.4f m, GS sweeps %.1f/step (max merit %.1e)" % (
                  r["label"], r["nbod"], *r["mean_position"], r["kinetic"], r["max_radius"],
                  r["iters_mean"], r.get("merit_max", float("nan"))))
    print("\nsolfec-mpi mode: %s (replicated = every rank runs the whole model)" %
          ", ".join(modes))
    for r in runs:
        if r.get("parallel_stats"):
            print("parallel_stats %s: %s" % (r["label"], json.dumps(r["parallel_stats"])))
    if a.json:
        with open(a.json, "w") as f:
            json.dump({"args": vars(a), "runs": runs}, f, indent=1)
    if not a.keep:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
