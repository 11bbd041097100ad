#!/usr/bin/env python3
"""Step time of the contact-search benchmark scenes with two or more builds, in one
invocation: runs alternate build after build (a slow period of the machine slows all), each
(scene, build)'s least time is kept, and the table gives each build's ratio to the first (the
baseline) and the largest difference of its final state (every body's conf and velo) from the
baseline's.

    OPENBLAS_NUM_THREADS=1 /usr/bin/python3 tests/benchmarks/run_build_ab.py \\
        --builds /path/to/baseline-build /path/to/new-build \\
        [--scenes example:25:500 paper:60:40 lim:20:100] [--runs 2] [--no-output]

A scene is setting:cubes:steps of run_contact_search.py (`example` is the semi-explicit
paper's example 6.2 layout with NODE_TO_FACE contact, `paper` its Fig. 16 piles, `lim` piles
with DEF_LIM), or `overlap`: examples/hyperelastic_cubes with its overlap-based contact option
and the solver it shipped with before the twenty-first round (merit bound 1e-3: the scene of
the earlier tables; cubes:steps, e.g. overlap:25:500). Each build
needs its Python module (build/python/solfec); a build may be an older commit's.
--no-output times the steps without results frames (OUTPUT interval beyond the run): with a
frame every step (the default) the deflate of the contact rows on the writer thread is most
of a `paper` pile step's process time, which hides changes to the computation in its noise.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def child(scene, state_path, output=True):
    """Runs one scene in this process (the build of SOLFEC_BUILD_DIR) and prints its result."""
    sys.path.insert(0, HERE)
    import numpy as np
    import run_contact_search as B
    from solfec import RUN
    setting, count, steps = scene.split(":")
    count, steps = int(count), int(steps)
    with tempfile.TemporaryDirectory() as tmp:
        if setting == "overlap":  # examples/hyperelastic_cubes with OVERLAP contact
            sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(HERE)), "examples",
                                            "hyperelastic_cubes"))
            import cubes
            sol, _, gs = cubes.build(0.0, 5, max(1, count // 5), 3, outdir=tmp,
                                     contact="OVERLAP")
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
        state = np.concatenate([np.asarray(v, dtype=float).ravel()
                                for b in sol.bodies for v in (b.conf, b.velo)])
        np.save(state_path, state)
        print(json.dumps({"ms": 1e3 * seconds / steps, "ncon": sol.ncon}))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--builds", nargs="+", required=True)
    ap.add_argument("--scenes", nargs="+", default=["example:25:500", "paper:60:40",
                                                    "lim:20:100"])
    ap.add_argument("--runs", type=int, default=2)
    ap.add_argument("--no-output", action="store_true",
                    help="no results frames during the timed steps (computation only)")
    ap.add_argument("--child", help=argparse.SUPPRESS)
    ap.add_argument("--state", help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.child:
        return child(a.child, a.state, output=not a.no_output)
    if len(a.builds) < 2:
        ap.error("--builds: a baseline and at least one build to compare")
    import numpy as np
    builds = [os.path.abspath(b) for b in a.builds]
    for b in builds:
        if not os.path.isdir(os.path.join(b, "python", "solfec")):
            ap.error(f"--builds: {b} has no python/solfec (not a solfec build directory)")
    best = {}
    with tempfile.TemporaryDirectory() as tmp:
        for r in range(a.runs):
            for scene in a.scenes:
                for i, b in enumerate(builds):
                    state = os.path.join(tmp, f"{scene.replace(':', '_')}_{i}.npy")
                    env = dict(os.environ, SOLFEC_BUILD_DIR=b, OPENBLAS_NUM_THREADS="1")
                    cmd = [sys.executable, __file__, "--builds", b, "--child", scene,
                           "--state", state] + (["--no-output"] if a.no_output else [])
                    out = subprocess.run(cmd, env=env, check=True, capture_output=True,
                                         text=True).stdout
                    res = json.loads(out.strip().splitlines()[-1])
                    key = (scene, i)
                    if key not in best or res["ms"] < best[key]["ms"]:
                        best[key] = res
        print(f"{'scene':>16} {'build':>5} {'ms/step':>9} {'ratio':>6} {'contacts':>8} "
              f"{'max |state - baseline|':>22}  build dir")
        for scene in a.scenes:
            base = np.load(os.path.join(tmp, f"{scene.replace(':', '_')}_0.npy"))
            for i, b in enumerate(builds):
                res = best[(scene, i)]
                state = np.load(os.path.join(tmp, f"{scene.replace(':', '_')}_{i}.npy"))
                same_nan = np.array_equal(np.isnan(state), np.isnan(base))
                finite = np.isfinite(state) & np.isfinite(base)
                diff = (np.abs(state - base)[finite].max() if same_nan and finite.any()
                        else float("nan"))
                ratio = best[(scene, 0)]["ms"] / res["ms"]
                print(f"{scene:>16} {i:>5} {res['ms']:>9.3f} {ratio:>6.2f} {res['ncon']:>8} "
                      f"{diff:>22.3g}  {b}")
        print("ratio: baseline (build 0) ms / this build's ms; times: process CPU, least of "
              f"{a.runs} alternating runs"
              + ("; no results output" if a.no_output else "; a results frame every step"))


if __name__ == "__main__":
    main()
