#!/usr/bin/env python3
"""Node-to-face contact search benchmark (issue 8; paper section 6, Figs. 16-18): piles of
20, 40, ..., 120 FINITE_ELEMENT cubes (3 x 3 x 3 HEX8: 64 nodes, 56 surface (contact) nodes,
54 surface quads each) falling onto an OBSTACLE plate with CONTACT_METHOD 'NODE_TO_FACE'.

For every pile: a short run (--steps steps) gives the total step time and the share of it
spent in the node-to-face search (refresh of the surfaces + octree + BVH + local tests);
then, on the final configuration, the three-stage search and the brute-force reference
(every slave node against every master face of every pair of bodies, same local test) are
timed in the same process (best of --repeat) and their contact sets compared.

Usage:
  SOLFEC_BUILD_DIR=build /usr/bin/python3 tests/benchmarks/run_contact_search.py
      [--counts 20 40 60 80 100 120] [--steps 10] [--repeat 3] [--json OUT]
Results and their meaning: tests/benchmarks/README.md ("Node-to-face contact search").
"""

import argparse
import json
import os
import random
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
BUILD = os.environ.get("SOLFEC_BUILD_DIR", os.path.join(ROOT, "build"))
sys.path.insert(0, os.path.join(BUILD, "python"))

import solfec  # noqa: E402
from solfec import (BODY, BULK_MATERIAL, CONTACT_METHOD, GAUSS_SEIDEL_SOLVER, GRAVITY, HEX,  # noqa: E402
                    HULL, INITIAL_VELOCITY, RUN, SOLFEC, SURFACE_MATERIAL)

ROW = 5  # cubes per row; rows of 4 per layer -> 20 cubes per layer


def pile(outdir, count, step, seed=1):
    """`count` unit cubes in layers of 5 x 4 at 1 mm gaps above a plate, falling at 1 m/s
    with random lateral velocities of up to 0.3 m/s (fixed seed): every layer touches the
    one below within a step or two, and neighbours in a layer meet sideways."""
    rng = random.Random(seed)
    sol = SOLFEC("DYNAMIC", step, outdir)
    sol.verbose = "OFF"
    bulk = BULK_MATERIAL(sol, young=1e7, poisson=0.3, density=800.0)
    SURFACE_MATERIAL(sol, friction=0.5, restitution=0.0)
    w = 6.0
    BODY(sol, "OBSTACLE", HULL([-1, -1, -1, w, -1, -1, w, w, -1, -1, w, -1,
                                -1, -1, 0, w, -1, 0, w, w, 0, -1, w, 0], 1, 1),
         bulk)
    GRAVITY(sol, (0, 0, -9.81))
    CONTACT_METHOD(sol, "NODE_TO_FACE")
    gap = 1e-3
    for n in range(count):
        i, j, k = n % ROW, (n // ROW) % 4, n // (4 * ROW)
        x, y, z = i * (1 + gap), j * (1 + gap), gap + k * (1 + gap)
        c = [x, y, z, x + 1, y, z, x + 1, y + 1, z, x, y + 1, z,
             x, y, z + 1, x + 1, y, z + 1, x + 1, y + 1, z + 1, x, y + 1, z + 1]
        b = BODY(sol, "FINITE_ELEMENT", HEX(c, 3, 3, 3, 1, [1] * 6), bulk)
        INITIAL_VELOCITY(b, (rng.uniform(-0.3, 0.3), rng.uniform(-0.3, 0.3), -1.0), (0, 0, 0))
    return sol


def measure(count, steps, repeat, step):
    with tempfile.TemporaryDirectory() as tmp:
        sol = pile(os.path.join(tmp, "out"), count, step)
        d = sol._domain
        core = solfec._solfec
        gs = GAUSS_SEIDEL_SOLVER(1e-6, 200)
        RUN(sol, gs, step)  # first step: builds the hierarchies
        core.node_to_face_reset_timer(d)
        t0 = time.perf_counter()
        RUN(sol, gs, steps * step)
        total = time.perf_counter() - t0
        st = core.node_to_face_stats(d)
        search = st["accumulated"]
        cmp = core.node_to_face_compare(d, repeat)
        s = cmp["stats"]
        return {
            "cubes": count, "contact_nodes": 56 * count, "contact_faces": 54 * count,
            "steps": steps, "step_time": total / steps, "search_time_per_step": search / steps,
            "search_share": search / total, "three_stage": cmp["three_stage_time"],
            "brute_force": cmp["brute_force_time"],
            "ratio": cmp["brute_force_time"] / cmp["three_stage_time"],
            "contacts": cmp["contacts"], "brute_force_contacts": cmp["brute_force_contacts"],
            "same": cmp["same"], "body_pairs": s["body_pairs"],
            "elementary_pairs": s["elementary_pairs"],
            "stages": {k: s[k] for k in ("refresh", "octree", "bvh", "local")},
        }


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--counts", type=int, nargs="+", default=[20, 40, 60, 80, 100, 120])
    ap.add_argument("--steps", type=int, default=10)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--step", type=float, default=1e-3)
    ap.add_argument("--json")
    a = ap.parse_args()
    rows = []
    print(f"{'cubes':>5} {'nodes':>6} {'contacts':>8} {'elem.pairs':>10} {'3-stage ms':>10} "
          f"{'brute ms':>10} {'brute/3st':>9} {'step ms':>8} {'search %':>8} "
          f"{'same':>5}", flush=True)
    for n in a.counts:
        r = measure(n, a.steps, a.repeat, a.step)
        rows.append(r)
        print(f"{n:5d} {r['contact_nodes']:6d} {r['contacts']:8d} {r['elementary_pairs']:10d} "
              f"{1e3 * r['three_stage']:10.2f} {1e3 * r['brute_force']:10.1f} "
              f"{r['ratio']:9.0f} {1e3 * r['step_time']:8.1f} {100 * r['search_share']:8.2f} "
              f"{str(r['same']):>5}", flush=True)
    if a.json:
        with open(a.json, "w") as f:
            json.dump(rows, f, indent=1)
    if not all(r["same"] for r in rows):
        print("MISMATCH: the three-stage search and brute force found different contact sets")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
