"""The box-of-cubes scene in solfec's deck language, stepped one step at a time and timed.

The scene is examples/box-of-cubes/cubes.py: n^3 cubes of edge 0.1 m (density 2000 kg/m^3,
tilted about (1,1,0) by 0, 5 or 10 degrees) dropped into a five-wall OBSTACLE box, gravity
9.81 m/s^2, SIGNORINI_COULOMB friction 0.3, restitution 0, step 5 ms.

Usage: /usr/bin/python3 solfec_scene.py [n] [duration] [step] [--json OUT] [--build DIR]
(the solfec package is imported from DIR/python, default build-bench, else build).

"Gauss-Seidel to 1e-6": GAUSS_SEIDEL_SOLVER(epsilon=1e-6, maxiter=1000, stopping='RESIDUAL')
(default of --stopping): the sweeps stop once the relative natural-map residual of the
step's problem is <= 1e-6, the quantity Siconos' NSGS must bring below its tolerance
(fc3d_compute_error on r = h R, M = W / h, q = B; read back as gs.resid). --stopping EITHER
(with --meritval 1e-12) is the former rule: relative change of R <= epsilon or merit
g(R) <= meritval. Results output is set to one frame per 1000 s (not timed: the Siconos
side writes nothing).

Per step we record: wall and CPU time of RUN(sol, gs, step), the stage times TIMING(sol, ...)
(TIMINT, CONUPD, CONDET, LOCDYN, CONSOL), gs.iters, converged = (gs.error == 'OK'), gs.merit,
gs.resid (the relative residual above, whatever the stopping rule),
the number of constraints and contacts, and the number of 3x3 blocks of W (see count_blocks).
"""

import argparse
import json
import os
import shutil
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))

STAGES = ("TIMINT", "CONUPD", "CONDET", "LOCDYN", "CONSOL")


def import_solfec(build=None):
    """Puts <build>/python on sys.path (SOLFEC_BUILD_DIR, build-bench, build) and imports."""
    cands = [build, os.environ.get("SOLFEC_BUILD_DIR"), os.path.join(ROOT, "build-bench"),
             os.path.join(ROOT, "build")]
    for c in cands:
        if c and os.path.isdir(os.path.join(c, "python", "solfec")):
            sys.path.insert(0, os.path.join(c, "python"))
            break
    import solfec
    return solfec


def build_scene(S, n, step, outdir):
    """The scene of examples/box-of-cubes/cubes.py; returns (solfec object, cube bodies)."""
    a, gap, wall = 0.1, 0.02, 0.05
    pitch = a + gap
    inner = n * pitch + gap

    def block(x0, y0, z0, x1, y1, z1):
        return S.HULL([x0, y0, z0, x1, y0, z0, x1, y1, z0, x0, y1, z0,
                       x0, y0, z1, x1, y0, z1, x1, y1, z1, x0, y1, z1], 1, 1)

    sol = S.SOLFEC("DYNAMIC", step, outdir)
    sol.verbose = "OFF"
    # Results output is not part of the comparison (the Siconos side writes nothing): one
    # frame per 1000 s of simulated time, i.e. none but the initial one during the bench.
    S.OUTPUT(sol, 1000.0)
    bulk = S.BULK_MATERIAL(sol, model="KIRCHHOFF", young=1e9, poisson=0.25, density=2e3)
    S.SURFACE_MATERIAL(sol, model="SIGNORINI_COULOMB", friction=0.3, restitution=0.0)
    S.CONTACT_POINTS(sol, 4)  # contact patches of up to 4 points per convex pair
    S.GRAVITY(sol, (0, 0, -9.81))
    height = n * pitch * 1.5
    walls = [block(-wall, -wall, -wall, inner + wall, inner + wall, 0),
             block(-wall, -wall, 0, 0, inner + wall, height),
             block(inner, -wall, 0, inner + wall, inner + wall, height),
             block(0, -wall, 0, inner, 0, height),
             block(0, inner, 0, inner, inner + wall, height)]
    S.BODY(sol, "OBSTACLE", walls, bulk, label="box")
    cubes = []
    for i in range(n):
        for j in range(n):
            for k in range(n):
                x, y, z = gap + i * pitch, gap + j * pitch, gap + k * pitch
                cube = block(x, y, z, x + a, y + a, z + a)
                S.ROTATE(cube, (x + a / 2, y + a / 2, z + a / 2), (1, 1, 0),
                         5.0 * ((i + j + k) % 3))
                cubes.append(S.BODY(sol, "RIGID", cube, bulk, label="cube-%d-%d-%d" % (i, j, k)))
    return sol, cubes


def count_blocks(sol, movable):
    """Number of 3x3 blocks of W in the last step's local dynamics.

    Reproduces the sparsity rule of LocalDynamics::Assemble (src/local_dynamics): row i holds
    its diagonal block plus one block for every other row j that shares a non-OBSTACLE body
    with it (rows coupled through both bodies count once). The constraint list after a step
    is the list of rows that step solved (only strength-broken user constraints are removed,
    and this scene has none), so the count is exact, not an estimate. `movable` is the set of
    non-obstacle body ids. Returns (rows, blocks)."""
    d = sol._domain
    ids = d.constraint_ids()
    rows_of = {}
    bodies = []
    for r, cid in enumerate(ids):
        b1, b2 = d.constraint_bodies(cid)
        bs = [b for b in {b1, b2} if b in movable]
        bodies.append(bs)
        for b in bs:
            rows_of.setdefault(b, []).append(r)
    blocks = 0
    for r, bs in enumerate(bodies):
        if len(bs) == 1:
            blocks += len(rows_of[bs[0]])
        elif len(bs) == 2:
            blocks += len(set(rows_of[bs[0]]).union(rows_of[bs[1]]))
        else:
            blocks += 1  # a row with no movable body keeps its diagonal block only
    return len(ids), blocks


def run(n, duration, step, epsilon=1e-6, maxiter=1000, meritval=1e-12, build=None,
        blocks=True, stopping="RESIDUAL"):
    S = import_solfec(build)
    outdir = tempfile.mkdtemp(prefix="solfec-bench-")
    t_build = time.perf_counter()
    sol, cubes = build_scene(S, n, step, outdir)
    t_build = time.perf_counter() - t_build
    gs = S.GAUSS_SEIDEL_SOLVER(epsilon, maxiter, meritval=meritval, stopping=stopping)
    movable = {c._id for c in cubes}
    steps = int(round(duration / step))
    rec = {k: [] for k in ("wall", "cpu", "iters", "converged", "error", "merit", "rel",
                           "resid", "constraints", "contacts", "blocks") + STAGES}
    for _ in range(steps):
        t0, c0 = time.perf_counter(), time.process_time()
        S.RUN(sol, gs, step)
        c1, t1 = time.process_time(), time.perf_counter()
        rec["wall"].append(t1 - t0)
        rec["cpu"].append(c1 - c0)
        for s in STAGES:
            rec[s].append(S.TIMING(sol, s))
        ncon = sol.ncon
        rec["iters"].append(gs.iters if ncon > 0 else 0)
        rec["converged"].append(gs.error == "OK")
        rec["error"].append(gs.error)
        rec["merit"].append(gs.merit)
        rec["resid"].append(gs.resid if ncon > 0 else 0.0)
        stats = getattr(getattr(gs, "_s", None), "last_stats", None)
        rec["rel"].append(getattr(stats, "relative_error", float("nan")))
        rec["constraints"].append(ncon)
        rec["contacts"].append(sol._domain.num_contacts)
        rec["blocks"].append(count_blocks(sol, movable)[1] if blocks else 0)
    z = [c.conf[11] for c in cubes]  # conf = (rotation 3x3, mass center)
    ke = S.ENERGY(sol)[0]
    del sol, cubes, gs
    shutil.rmtree(outdir, ignore_errors=True)
    return {"code": "solfec", "n": n, "step": step, "duration": duration, "epsilon": epsilon,
            "maxiter": maxiter, "meritval": meritval, "stopping": stopping, "build_s": t_build,
            "final_z_min": min(z), "final_z_max": max(z), "final_ke": ke, **rec}


def main(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("n", type=int, nargs="?", default=4)
    p.add_argument("duration", type=float, nargs="?", default=1.0)
    p.add_argument("step", type=float, nargs="?", default=5e-3)
    p.add_argument("--epsilon", type=float, default=1e-6)
    p.add_argument("--maxiter", type=int, default=1000)
    p.add_argument("--meritval", type=float, default=1e-12)
    p.add_argument("--stopping", default="RESIDUAL", choices=("RESIDUAL", "EITHER", "BOTH"))
    p.add_argument("--build", help="solfec build directory (default: build-bench or build)")
    p.add_argument("--json", help="write the per-step record to this file")
    a = p.parse_args(argv)
    r = run(a.n, a.duration, a.step, a.epsilon, a.maxiter, a.meritval, a.build,
            stopping=a.stopping)
    if a.json:
        with open(a.json, "w") as f:
            json.dump(r, f)
    steps = len(r["wall"])
    solved = [i for i, c in enumerate(r["constraints"]) if c > 0]
    print("solfec n=%d: %d steps, %.3f ms/step (cpu %.3f), avg GS iters %.1f (over %d solved "
          "steps), converged %.1f%%, contacts/step %.1f, W blocks/step %.0f, "
          "z range [%.3f, %.3f] m" %
          (a.n, steps, 1e3 * sum(r["wall"]) / steps, 1e3 * sum(r["cpu"]) / steps,
           sum(r["iters"][i] for i in solved) / max(1, len(solved)), len(solved),
           100.0 * sum(r["converged"]) / steps, sum(r["contacts"]) / steps,
           sum(r["blocks"]) / steps, r["final_z_min"], r["final_z_max"]))


if __name__ == "__main__":
    main(sys.argv[1:])
