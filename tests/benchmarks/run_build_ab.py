#!/usr/bin/env python3
"""Step time and trajectories of two or more builds on the benchmark scenes, in one
invocation: runs alternate build after build within each round (a slow period of the machine
slows all), and the table gives, for every scene and build, the least and median process-CPU
time a step over the rounds, the spread of its rounds, the round-by-round (paired) ratio to
the first build (the baseline), and how far its final state and energies are from the
baseline's and from its own other rounds.

    OPENBLAS_NUM_THREADS=1 /usr/bin/python3 tests/benchmarks/run_build_ab.py \\
        --builds /path/to/baseline-build /path/to/new-build \\
        [--scenes box:4:200 pipe:12x18x2 drum:2000:30:1] [--runs 3] [--no-output]

Scenes:
  box:N:STEPS      the box of N^3 rigid cubes (box_of_cubes/solfec_scene.py, Gauss-Seidel to
                   1e-6, step 5 ms); STEPS timed steps after the first
  pipe:LxCxT       the pipe impact (run_pipe_impact.py, L x C x T HEX8, 100 steps of 1 ms with
                   a results frame and an ENERGY query every step): TL (collecting the
                   co-rotated snapshots), BC and BC-RO (18 POD modes of that TL run) in one
                   process, one row each
  drum:N:STEPS[:NP] the rotating drum (drum/drum.py, N rigid bodies, 50 untimed settling steps,
                   STEPS timed steps of 4 ms) with the build's `solfec` launcher, or with
                   `mpirun -np NP solfec-mpi` when NP > 1 (the build needs solfec-mpi)
  SETTING:CUBES:STEPS  a pile of run_contact_search.py (`example`: the semi-explicit paper's
                   example 6.2 layout with NODE_TO_FACE contact, `paper` its Fig. 16 piles,
                   `lim` piles with DEF_LIM)
  overlap:CUBES:STEPS  examples/hyperelastic_cubes with its overlap-based contact option and
                   the merit bound 1e-3 of the earlier tables
Each build needs python/solfec (a build may be an older commit's). The launcher-run scenes
(drum) use the build's `solfec` / `solfec-mpi` with SOLFEC_PYTHON_PATH = BUILD/python, so a
copy of a build directory's `python/`, `solfec` and `solfec-mpi` is a build too.
--no-output times the contact-search piles without results frames (OUTPUT interval beyond the
run): with a frame every step the deflate of the contact rows on the writer thread is most of
a `paper` pile step's process time, which hides changes to the computation in its noise.

State: every body's conf and velo, ordered by body id (the drum: every body's centre and
kinetic energy); energy: the pipe's kinetic and internal energy after every step, the box's
final kinetic energy. `d state` / `d energy`: largest difference from the baseline's last
round, relative to the largest magnitude of the baseline's; `rerun`: the same between this
build's first and last rounds (0 when the build is deterministic, so that a nonzero
`d state` is the builds', not the run's).
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
import types

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
DEFAULT_SCENES = ["box:4:200", "box:5:200", "pipe:12x18x2", "drum:2000:30:1",
                  "drum:2000:30:2"]


def state_by_id(bodies):
    """conf and velo of every body, ordered by body id (SOLFEC.bodies' order differs between
    versions), as one vector."""
    import numpy as np
    parts = []
    for b in sorted(bodies, key=lambda b: b.id):
        parts += [np.asarray(b.conf, dtype=float).ravel(), np.asarray(b.velo, dtype=float).ravel()]
    return np.concatenate(parts) if parts else np.zeros(0)


def child_box(n, steps, tmp):
    sys.path.insert(0, os.path.join(HERE, "box_of_cubes"))
    import solfec_scene
    S = solfec_scene.import_solfec(os.environ["SOLFEC_BUILD_DIR"])
    step = 5e-3
    sol, cubes = solfec_scene.build_scene(S, n, step, tmp)
    gs = S.GAUSS_SEIDEL_SOLVER(1e-6, 1000, meritval=1e-12, stopping="EITHER")
    S.RUN(sol, gs, step)  # the first step builds the operators
    t0 = time.process_time()
    S.RUN(sol, gs, steps * step)
    seconds = time.process_time() - t0
    return [{"label": f"box:{n}:{steps}", "ms": 1e3 * seconds / steps, "ncon": sol.ncon,
             "state": state_by_id(cubes), "energy": [S.ENERGY(sol)[0]]}]


def child_pipe(dims, tmp):
    import numpy as np
    import run_pipe_impact as P
    sys.path.insert(0, os.path.join(os.environ["SOLFEC_BUILD_DIR"], "python"))
    import solfec as S
    rows, pod = [], None
    for form in ("TL", "BC", "BC-RO"):
        if form == "BC-RO" and pod is None:
            continue
        r = P.run_form(S, form, dims, os.path.join(tmp, form), base=pod if form == "BC-RO"
                       else None, snapshots=form == "TL", keep_state=True)
        if form == "TL":
            pod = r["pod"]
        steps = len(r["time"])
        rows.append({"label": f"pipe:{'x'.join(map(str, dims))}/{form}",
                     "ms": 1e3 * r["cpu"] / steps, "ncon": r["ncon"],
                     "state": np.concatenate([r["q"], r["u"]]),
                     "energy": np.concatenate([r["kinetic"], r["internal"]])})
    return rows


def child_drum(n, steps, ranks, tmp):
    import numpy as np
    import run_drum_scaling as D
    build = os.environ["SOLFEC_BUILD_DIR"]
    out, state_file = os.path.join(tmp, "drum"), os.path.join(tmp, "drum-state.json")
    args = ["-w", D.DECK, str(n), str(steps), "0.004", out, "1.0", "50"]
    if ranks > 1:
        bind = "core" if ranks <= (os.cpu_count() or 1) else "none"
        cmd = ["mpirun", "--oversubscribe", "--bind-to", bind, "-np", str(ranks),
               os.path.join(build, "solfec-mpi")] + args
    else:
        cmd = [os.path.join(build, "solfec")] + args
    env = dict(os.environ, **D.MPI_ENV, SOLFEC_PYTHON_PATH=os.path.join(build, "python"),
               DRUM_STATE=state_file)
    p = subprocess.run(cmd, cwd=tmp, env=env, capture_output=True, text=True)
    line = [s for s in p.stdout.splitlines() if s.startswith("DRUM_RESULT ")]
    if p.returncode != 0 or not line:
        raise RuntimeError(f"drum run failed ({' '.join(cmd)}):\n{p.stdout[-2000:]}\n"
                           f"{p.stderr[-2000:]}")
    res = json.loads(line[-1][len("DRUM_RESULT "):])
    with open(state_file) as f:
        bodies = json.load(f)
    state = np.concatenate([np.asarray(bodies[k][:3]) for k in sorted(bodies, key=int)])
    return [{"label": f"drum:{n}:{steps}:{ranks}", "ms": 1e3 * res["cpu"] / steps,
             "ncon": int(round(res["contacts_mean"])), "state": state,
             "energy": [res["kinetic"]]}]


def child_pile(scene, tmp, output):
    import numpy as np
    sys.path.insert(0, HERE)
    sys.path.insert(0, os.path.join(os.environ["SOLFEC_BUILD_DIR"], "tests", "benchmarks"))
    try:  # run_contact_search imports the reference searches, which the piles do not use
        import _reference_searches  # noqa: F401
    except ImportError:  # a build of an older commit, or a copy without tests/benchmarks
        sys.modules["_reference_searches"] = types.ModuleType("_reference_searches")
    import run_contact_search as B
    from solfec import RUN
    setting, count, steps = scene.split(":")
    count, steps = int(count), int(steps)
    if setting == "overlap":  # examples/hyperelastic_cubes with OVERLAP contact
        sys.path.insert(0, os.path.join(ROOT, "examples", "hyperelastic_cubes"))
        import cubes
        sol, _, gs = cubes.build(0.0, 5, max(1, count // 5), 3, outdir=tmp, contact="OVERLAP")
        gs.meritval = 1e-3  # the scene of the earlier tables
        h = cubes.STEP
    else:
        sol = B.pile(tmp, count, setting)
        gs = B.solver(setting)
        h = B.SETTINGS[setting]["step"]
    if not output:
        B.without_output(sol, steps, h)
    RUN(sol, gs, h)  # the first step builds the hierarchies and operators
    t0 = time.process_time()
    RUN(sol, gs, steps * h)
    seconds = time.process_time() - t0
    return [{"label": scene, "ms": 1e3 * seconds / steps, "ncon": sol.ncon,
             "state": state_by_id(sol.bodies), "energy": np.zeros(0)}]


def child(scene, out_path, output=True):
    """Runs one scene in this process (the build of SOLFEC_BUILD_DIR) and writes its rows."""
    import numpy as np
    sys.path.insert(0, HERE)
    kind, *rest = scene.split(":")
    tmp = tempfile.mkdtemp(prefix="build-ab-")
    try:
        if kind == "box":
            rows = child_box(int(rest[0]), int(rest[1]), tmp)
        elif kind == "pipe":
            rows = child_pipe(tuple(int(v) for v in rest[0].split("x")), tmp)
        elif kind == "drum":
            rows = child_drum(int(rest[0]), int(rest[1]), int(rest[2]) if len(rest) > 2 else 1,
                              tmp)
        else:
            rows = child_pile(scene, tmp, output)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    arrays = {}
    for i, r in enumerate(rows):
        arrays[f"state{i}"] = np.asarray(r.pop("state"), dtype=float)
        arrays[f"energy{i}"] = np.asarray(r.pop("energy"), dtype=float)
    np.savez(out_path, **arrays)
    print(json.dumps(rows))


def rel_diff(a, b):
    """max |a - b| / max |b| (nan when the shapes or the NaN patterns differ)."""
    import numpy as np
    if a.shape != b.shape or not np.array_equal(np.isnan(a), np.isnan(b)):
        return float("nan")
    if a.size == 0:
        return 0.0
    fin = np.isfinite(a) & np.isfinite(b)
    scale = np.abs(b[fin]).max() if fin.any() else 0.0
    d = np.abs(a - b)[fin].max() if fin.any() else 0.0
    return d / scale if scale > 0 else d


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--builds", nargs="+", required=True)
    ap.add_argument("--scenes", nargs="+", default=DEFAULT_SCENES)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--no-output", action="store_true",
                    help="contact-search piles: no results frames during the timed steps")
    ap.add_argument("--json", help="write every round's times and the table's figures here")
    ap.add_argument("--child", help=argparse.SUPPRESS)
    ap.add_argument("--out", help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.child:
        return child(a.child, a.out, output=not a.no_output)
    if len(a.builds) < 2:
        ap.error("--builds: a baseline and at least one build to compare")
    import numpy as np
    builds = [os.path.abspath(b) for b in a.builds]
    for b in builds:
        if not os.path.isdir(os.path.join(b, "python", "solfec")):
            ap.error(f"--builds: {b} has no python/solfec (not a solfec build directory)")
    times = {}   # (label, build index) -> [ms of each round]
    first, last, ncon, labels = {}, {}, {}, []
    print(f"load average before: {' '.join(open('/proc/loadavg').read().split()[:3])}",
          flush=True)
    t_start = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        for r in range(a.runs):
            for scene in a.scenes:
                for i, b in enumerate(builds):
                    out = os.path.join(tmp, f"{scene.replace(':', '_')}_{i}_{r}.npz")
                    env = dict(os.environ, SOLFEC_BUILD_DIR=b, OPENBLAS_NUM_THREADS="1",
                               OMP_NUM_THREADS="1")
                    cmd = [sys.executable, __file__, "--builds", b, "--child", scene,
                           "--out", out] + (["--no-output"] if a.no_output else [])
                    p = subprocess.run(cmd, env=env, capture_output=True, text=True)
                    if p.returncode != 0:
                        sys.exit(f"run_build_ab: {scene} with {b} failed:\n{p.stdout[-3000:]}"
                                 f"\n{p.stderr[-3000:]}")
                    rows = json.loads(p.stdout.strip().splitlines()[-1])
                    arrays = np.load(out)
                    for k, row in enumerate(rows):
                        key = (row["label"], i)
                        if row["label"] not in labels:
                            labels.append(row["label"])
                        times.setdefault(key, []).append(row["ms"])
                        ncon[key] = row["ncon"]
                        st = (arrays[f"state{k}"], arrays[f"energy{k}"])
                        first.setdefault(key, st)
                        last[key] = st
            print(f"round {r + 1}/{a.runs} done ({time.perf_counter() - t_start:.0f} s)",
                  flush=True)
    print(f"load average after:  {' '.join(open('/proc/loadavg').read().split()[:3])}")
    print()
    hdr = (f"{'scene':>22} {'build':>5} {'least ms':>9} {'median':>9} {'spread':>7} "
           f"{'ratio':>6} {'paired ratios':>13} {'contacts':>8} {'d state':>9} "
           f"{'d energy':>9} {'rerun':>9}")
    print(hdr)
    print("-" * len(hdr))
    table = []
    for label in labels:
        for i, b in enumerate(builds):
            ts, t0 = times[(label, i)], times[(label, 0)]
            least, med = min(ts), statistics.median(ts)
            spread = (max(ts) - least) / least
            paired = sorted(x / y for x, y in zip(t0, ts))
            ratio = min(t0) / least
            ds = rel_diff(last[(label, i)][0], last[(label, 0)][0])
            de = rel_diff(last[(label, i)][1], last[(label, 0)][1])
            rerun = max(rel_diff(last[(label, i)][0], first[(label, i)][0]),
                        rel_diff(last[(label, i)][1], first[(label, i)][1]))
            pr = f"{paired[0]:.2f}-{paired[-1]:.2f}"
            print(f"{label:>22} {i:>5} {least:>9.3f} {med:>9.3f} {100 * spread:>6.1f}% "
                  f"{ratio:>6.2f} {pr:>13} {ncon[(label, i)]:>8} {ds:>9.2g} {de:>9.2g} "
                  f"{rerun:>9.2g}")
            table.append({"scene": label, "build": b, "ms": ts, "least": least, "median": med,
                          "spread": spread, "ratio": ratio, "paired": paired,
                          "contacts": ncon[(label, i)], "d_state": ds, "d_energy": de,
                          "rerun": rerun})
    print()
    for i, b in enumerate(builds):
        print(f"build {i}: {b}")
    print(f"ms: process CPU a timed step (the drum: the slowest rank's), over {a.runs} "
          f"alternating rounds; spread: (slowest - least) / least of a build's rounds; ratio: "
          f"baseline's least / this build's least (> 1: faster than the baseline); paired "
          f"ratios: the same round by round (lowest-highest)"
          + ("; contact-search piles without results output" if a.no_output else ""))
    if a.json:
        with open(a.json, "w") as f:
            json.dump({"builds": builds, "runs": a.runs, "rows": table}, f, indent=1)


if __name__ == "__main__":
    main()
