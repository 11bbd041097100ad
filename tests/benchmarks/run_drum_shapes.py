#!/usr/bin/env python3
"""Rotating drum of ellipsoids against the same drum of spheres (tests/benchmarks/drum/drum.py
with DRUM_SHAPES=ELLIPSOIDS and DRUM_SHAPES=SPHERES): time per step and per contact.

  /usr/bin/python3 tests/benchmarks/run_drum_shapes.py          # 5000 bodies, 100 + 40 steps, 3 pairs
  /usr/bin/python3 tests/benchmarks/run_drum_shapes.py --quick  # 1000 bodies, 100 + 20 steps, 2 pairs
  options: --n N, --steps S (timed), --settle S (untimed, before), --step H, --omega W,
           --repeat K (pairs of runs), --build DIR (default $SOLFEC_BUILD_DIR, build/),
           --json out.json, --keep DIR (keep the runs' output there)

Both drums hold N rigid bodies on the same lattice sites of the same drum (axis y, radius
1.5 m, spinning at omega): ellipsoids of semi-axes (0.048, 0.036, 0.024) m turned at random,
or spheres of the same volume (radius 0.0346 m); density 2000 kg/m^3, friction 0.3,
restitution 0, GAUSS_SEIDEL_SOLVER(1e-4, 100, meritval=1e-6, stopping='EITHER'), step 2 ms
(half the scaling benchmark's 4 ms: the velocity-level contacts do not correct the gap, and at
4 ms sliding ellipsoids sink into each other by up to 2 cm, UNPHYSICAL_PENETRATION's limit, in
0.35 s; spheres by 1 cm).
Each run is the serial `solfec -w` launcher in a fresh output folder (under `nice -n 5`,
OPENBLAS_NUM_THREADS=1); the shapes alternate (S, E, S, E, ...) so that both see the same
machine load. The table gives per run, over the timed steps (settling excluded):

  contacts  mean contacts per step          sweeps   mean Gauss-Seidel sweeps per step
  wall, cpu wall and process CPU time of the timed RUN per step [ms]
  detect    TIMING 'CONDET' + 'CONUPD' per step [ms] (contact detection and update; TIMING
            is wall time, so on a loaded machine detect + solve may exceed cpu)
  solve     TIMING 'LOCDYN' + 'CONSOL' per step [ms] (W blocks and the Gauss-Seidel solve)
  us/con    cpu per step / contacts per step [us]; det/con: detect / contacts [us];
  us/sweep  solve / (sweeps x contacts) [us]: the cost of one contact in one sweep

and the ratios ellipsoids / spheres of the medians over the repeats.
"""

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DECK = os.path.join(ROOT, "tests", "benchmarks", "drum", "drum.py")
ENV = {"OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1"}
SHAPES = ("SPHERES", "ELLIPSOIDS")


def find_build(arg):
    for c in (arg, os.environ.get("SOLFEC_BUILD_DIR"), os.path.join(ROOT, "build")):
        if c and os.path.isfile(os.path.join(c, "solfec")):
            return os.path.abspath(c)
    sys.exit("run_drum_shapes: no solfec build found (pass --build DIR)")


def run_one(shape, cmd, cwd, timeout):
    """Runs one drum; returns the parsed DRUM_RESULT dict."""
    env = dict(os.environ, **ENV, DRUM_SHAPES=shape)
    print("  %-10s %s" % (shape, " ".join(cmd)), flush=True)
    p = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)
    res = None
    for line in p.stdout.splitlines():
        if line.startswith("DRUM_RESULT "):
            res = json.loads(line[len("DRUM_RESULT "):])
    if p.returncode != 0 or res is None:
        sys.stderr.write(p.stdout[-3000:] + p.stderr[-3000:])
        sys.exit("run_drum_shapes: the %s drum failed (exit code %d)" % (shape, p.returncode))
    if res.get("shapes") != shape:
        sys.exit("run_drum_shapes: %s reports shapes %r (an older drum.py?)" %
                 (DECK, res.get("shapes")))
    return res


def figures(r):
    """Per-step figures of one run (times in ms, per-contact costs in us)."""
    n = max(1, r["steps"])
    st = r["stages"]
    con = max(r["contacts_mean"], 1e-300)
    f = {"contacts": r["contacts_mean"], "sweeps": r["iters_mean"],
         "wall": 1e3 * r["wall"] / n, "cpu": 1e3 * r["cpu"] / n,
         "detect": 1e3 * (st["CONDET"] + st["CONUPD"]) / n,
         "solve": 1e3 * (st["LOCDYN"] + st["CONSOL"]) / n}
    f["us_con"] = 1e3 * f["cpu"] / con
    f["det_con"] = 1e3 * f["detect"] / con
    f["us_sweep"] = 1e3 * f["solve"] / (con * max(f["sweeps"], 1e-300))
    return f


COLUMNS = ("contacts", "sweeps", "wall", "cpu", "detect", "solve", "us_con", "det_con",
           "us_sweep")
HEAD = ("%-10s %3s %8s %6s %8s %8s %8s %8s %7s %7s %8s" %
        ("shape", "run", "contacts", "sweeps", "wall[ms]", "cpu[ms]", "detect", "solve",
         "us/con", "det/con", "us/sweep"))
ROW = "%-10s %3s %8.0f %6.1f %8.2f %8.2f %8.2f %8.2f %7.2f %7.2f %8.3f"


def table(runs):
    lines = [HEAD, "-" * len(HEAD)]
    med = {}
    for shape in SHAPES:
        mine = [r for r in runs if r["shapes"] == shape]
        for i, r in enumerate(mine):
            f = figures(r)
            lines.append(ROW % ((shape, i + 1) + tuple(f[c] for c in COLUMNS)))
        med[shape] = {c: statistics.median(figures(r)[c] for r in mine) for c in COLUMNS}
        lines.append(ROW % ((shape, "med") + tuple(med[shape][c] for c in COLUMNS)))
    s, e = med["SPHERES"], med["ELLIPSOIDS"]
    ratio = tuple(e[c] / s[c] if s[c] else float("nan") for c in COLUMNS)
    lines.append(("%-10s %3s" + " %8.2f %6.2f %8.2f %8.2f %8.2f %8.2f %7.2f %7.2f %8.2f") %
                 (("E / S", "") + ratio))
    return "\n".join(lines), ratio


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--n", type=int, default=5000)
    ap.add_argument("--steps", type=int, default=40)
    ap.add_argument("--settle", type=int, default=100)
    ap.add_argument("--step", type=float, default=2e-3)
    ap.add_argument("--omega", type=float, default=1.0)
    ap.add_argument("--repeat", type=int, default=3, help="pairs of runs (S, E)")
    ap.add_argument("--quick", action="store_true", help="1000 bodies, 100 + 20 steps, 2 pairs")
    ap.add_argument("--build")
    ap.add_argument("--json")
    ap.add_argument("--keep")
    ap.add_argument("--timeout", type=float, default=3600.0, help="per run [s]")
    a = ap.parse_args()
    if a.quick:
        a.n, a.steps, a.repeat = 1000, 20, 2
    build = find_build(a.build)
    solfec = os.path.join(build, "solfec")
    work = a.keep or tempfile.mkdtemp(prefix="drum-shapes-")
    os.makedirs(work, exist_ok=True)
    nice = ["nice", "-n", "5"] if shutil.which("nice") else []
    deck_args = [str(a.n), str(a.steps), repr(a.step)]
    print("drum: %d bodies, %d timed steps of %g s after %d settling steps, omega %g rad/s;"
          "\n      build %s; output %s" % (a.n, a.steps, a.step, a.settle, a.omega, build, work))
    print("load average before: %s" % " ".join(open("/proc/loadavg").read().split()[:3]))
    t0 = time.perf_counter()
    runs = []
    for k in range(a.repeat):
        for shape in SHAPES:
            out = os.path.join(work, "%s%d" % (shape.lower(), k))
            runs.append(run_one(shape, nice + [solfec, "-w", DECK] + deck_args +
                                [out, str(a.omega), str(a.settle)], work, a.timeout))
    print("load average after:  %s (%.0f s)" % (
        " ".join(open("/proc/loadavg").read().split()[:3]), time.perf_counter() - t0))
    print()
    text, _ = table(runs)
    print(text)
    print("\nfinal state (t = %.3f s):" % runs[0]["time"])
    for r in runs[:2]:
        print("  %-10s bodies %d, mean centre (%.4f, %.4f, %.4f) m, kinetic %.4g J, "
              "max centre distance from axis %.4f m, unconverged solves %d" % (
                  r["shapes"], r["nbod"], *r["mean_position"], r["kinetic"], r["max_radius"],
                  r["unconverged"]))
    if a.json:
        with open(a.json, "w") as f:
            json.dump({"args": vars(a), "runs": runs}, f, indent=1)
    if not a.keep:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
