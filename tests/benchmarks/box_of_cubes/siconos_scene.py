"""The box-of-cubes scene in Siconos 4.4 (Bullet contact detection, Moreau-Jean, NSGS).

Same geometry, material and loading as solfec_scene.py / examples/box-of-cubes/cubes.py:
n^3 cubes of edge 0.1 m (density 2000 kg/m^3, tilted about (1,1,0) by 0, 5 or 10 degrees)
dropped into a five-wall box (floor + four sides, static), gravity 9.81 m/s^2, Coulomb
friction 0.3, Newton restitution 0, step 5 ms.

Usage: /usr/bin/python3 siconos_scene.py [n] [duration] [step] [--json OUT]
Needs the Debian packages python3-siconos (4.4) and python3-scipy.

Choices (see ../README.md for the comparison rules):
  * Siconos' own low-level API (the same objects siconos.io.mechanics_run builds, without
    the HDF5 output that would otherwise be timed): RigidBodyDS bodies with SiconosBox
    contactors, a static SiconosContactorSet for the walls, SiconosBulletCollisionManager.
  * MoreauJeanOSI with theta = 0.50001 (mechanics_run's default; solfec's scheme is the
    midpoint rule, theta = 1/2), TimeStepping with one Newton iteration per step
    (SICONOS_TS_NONLINEAR, Newton_max_iter = 1) so that, like solfec, each step solves one
    frictional contact problem.
  * FrictionContact(3) solved by SICONOS_FRICTION_3D_NSGS, tolerance 1e-6, maxiter 1000,
    default error evaluation LIGHT_WITH_FULL_FINAL: the sweep stops when the relative change
    of the reactions |r_k - r_{k-1}| / |r_k| < tol (the same test as solfec's epsilon), then
    the full residual (fc3d_compute_error, relative to |q|) must also be < tol, otherwise the
    working tolerance is tightened and the sweeps go on.
  * Per step we record wall and CPU time of computeOneStep + nextStep, the NSGS iterations
    (iparam[SICONOS_IPARAM_ITER_DONE]), the final residual (dparam[SICONOS_DPARAM_RESIDU],
    which is the full fc3d_compute_error residual: checked equal, step by step, to a fresh
    siconos.numerics.fc3d_compute_error call), converged = residual <= tol (what NSGS itself
    reports as info; a step that used all maxiter sweeps but ends below tol counts as
    converged), and the number of contacts
    (size of the contact problem / 3; 0 when no contact is active: then no solve happens).
"""

import argparse
import json
import math
import sys
import time

import numpy as np
import siconos.kernel as sk
import siconos.numerics as sn
from siconos.mechanics.collision import (RigidBodyDS, SiconosBox, SiconosContactor,
                                         SiconosContactorSet)
from siconos.mechanics.collision.bullet import (SiconosBulletCollisionManager,
                                                SiconosBulletOptions)

# Scene constants: keep equal to solfec_scene.py.
EDGE = 0.1        # cube edge [m]
GAP = 0.02        # initial spacing [m]
WALL = 0.05       # wall thickness [m]
DENSITY = 2e3     # [kg/m^3]
GRAVITY = 9.81    # [m/s^2]
FRICTION = 0.3
RESTITUTION = 0.0
TILT_AXIS = (1.0, 1.0, 0.0)


def quaternion(axis, angle_deg):
    """(w, x, y, z) of the rotation by angle_deg about axis."""
    a = np.asarray(axis, float)
    a /= np.linalg.norm(a)
    h = math.radians(angle_deg) / 2.0
    return [math.cos(h)] + list(math.sin(h) * a)


def box_walls(n):
    """(center, extents) of the five wall boxes (same boxes as cubes.py)."""
    pitch = EDGE + GAP
    inner = n * pitch + GAP
    height = n * pitch * 1.5
    blocks = [(-WALL, -WALL, -WALL, inner + WALL, inner + WALL, 0),
              (-WALL, -WALL, 0, 0, inner + WALL, height),
              (inner, -WALL, 0, inner + WALL, inner + WALL, height),
              (0, -WALL, 0, inner, 0, height),
              (0, inner, 0, inner, inner + WALL, height)]
    out = []
    for x0, y0, z0, x1, y1, z1 in blocks:
        out.append((((x0 + x1) / 2, (y0 + y1) / 2, (z0 + z1) / 2), (x1 - x0, y1 - y0, z1 - z0)))
    return out


def cube_centers(n):
    """(center, tilt angle [deg]) of every cube, in cubes.py order."""
    pitch = EDGE + GAP
    out = []
    for i in range(n):
        for j in range(n):
            for k in range(n):
                c = (GAP + i * pitch + EDGE / 2, GAP + j * pitch + EDGE / 2,
                     GAP + k * pitch + EDGE / 2)
                out.append((c, 5.0 * ((i + j + k) % 3)))
    return out


def margin_box(extents):
    box = SiconosBox(list(extents))
    box.setInsideMargin(min(extents) * 0.02)  # mechanics_run's default margins
    box.setOutsideMargin(0.0)
    return box


def build(n, duration, step, tol, maxiter):
    """Returns (simulation, osnspb, bodies) ready to step."""
    nsds = sk.NonSmoothDynamicalSystem(0.0, duration)
    mass = DENSITY * EDGE ** 3
    inertia = np.eye(3) * mass * EDGE ** 2 / 6.0
    cube_shape = margin_box((EDGE, EDGE, EDGE))
    bodies = []
    for center, angle in cube_centers(n):
        q = list(center) + quaternion(TILT_AXIS, angle)
        body = RigidBodyDS(q, [0.0] * 6, mass, inertia)
        body.setUseContactorInertia(False)
        cset = SiconosContactorSet()
        cset.append(SiconosContactor(cube_shape, [0, 0, 0, 1, 0, 0, 0], 0))
        body.setContactors(cset)
        body.setFExtPtr([0.0, 0.0, -mass * GRAVITY])
        nsds.insertDynamicalSystem(body)
        bodies.append(body)

    options = SiconosBulletOptions()
    manager = SiconosBulletCollisionManager(options)
    manager.insertNonSmoothLaw(sk.NewtonImpactFrictionNSL(RESTITUTION, 0.0, FRICTION, 3), 0, 0)
    walls = SiconosContactorSet()
    for center, extents in box_walls(n):
        walls.append(SiconosContactor(margin_box(extents), list(center) + [1, 0, 0, 0], 0))
    manager.insertStaticContactorSet(walls, [0, 0, 0, 1, 0, 0, 0])

    osi = sk.MoreauJeanOSI(0.50001)
    timedisc = sk.TimeDiscretisation(0.0, step)
    osnspb = sk.FrictionContact(3, sn.SICONOS_FRICTION_3D_NSGS)
    so = osnspb.numericsSolverOptions()
    so.iparam[sn.SICONOS_IPARAM_MAX_ITER] = maxiter
    so.dparam[sn.SICONOS_DPARAM_TOL] = tol
    osnspb.setMaxSize(0)
    osnspb.setMStorageType(sn.NM_SPARSE_BLOCK)
    osnspb.setNumericsVerboseMode(False)
    osnspb.setKeepLambdaAndYState(True)  # warm start, as solfec does

    sim = sk.TimeStepping(nsds, timedisc)
    sim.insertIntegrator(osi)
    sim.insertNonSmoothProblem(osnspb)
    sim.insertInteractionManager(manager)
    sim.setNewtonOptions(sk.SICONOS_TS_NONLINEAR)
    sim.setNewtonMaxIteration(1)
    sim.setNewtonTolerance(1e-10)
    return sim, osnspb, bodies


def run(n, duration, step, tol=1e-6, maxiter=1000):
    t_build = time.perf_counter()
    sim, osnspb, bodies = build(n, duration, step, tol, maxiter)
    t_build = time.perf_counter() - t_build
    so = osnspb.numericsSolverOptions()
    steps = int(round(duration / step))
    rec = {"wall": [], "cpu": [], "iters": [], "residual": [], "converged": [], "contacts": []}
    for _ in range(steps):
        if not sim.hasNextEvent():
            break
        so.iparam[sn.SICONOS_IPARAM_ITER_DONE] = 0
        so.dparam[sn.SICONOS_DPARAM_RESIDU] = 0.0
        t0, c0 = time.perf_counter(), time.process_time()
        sim.computeOneStep()
        sim.clearNSDSChangeLog()
        nc = osnspb.getSizeOutput() // 3
        it = int(so.iparam[sn.SICONOS_IPARAM_ITER_DONE])
        res = float(so.dparam[sn.SICONOS_DPARAM_RESIDU])
        sim.nextStep()
        c1, t1 = time.process_time(), time.perf_counter()
        rec["wall"].append(t1 - t0)
        rec["cpu"].append(c1 - c0)
        rec["contacts"].append(int(nc))
        rec["iters"].append(it if nc > 0 else 0)
        rec["residual"].append(res if nc > 0 else 0.0)
        rec["converged"].append(bool(nc == 0 or res <= tol))
    z = [b.q()[2] for b in bodies]
    ke = sum(0.5 * b.scalarMass() * float(np.dot(b.velocity()[:3], b.velocity()[:3]))
             for b in bodies)
    return {"code": "siconos", "n": n, "step": step, "duration": duration, "tol": tol,
            "maxiter": maxiter, "build_s": t_build, "final_z_min": min(z),
            "final_z_max": max(z), "final_translational_ke": ke, **rec}


def main(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("n", type=int, nargs="?", default=4)
    p.add_argument("duration", type=float, nargs="?", default=1.0)
    p.add_argument("step", type=float, nargs="?", default=5e-3)
    p.add_argument("--tol", type=float, default=1e-6)
    p.add_argument("--maxiter", type=int, default=1000)
    p.add_argument("--json", help="write the per-step record to this file")
    a = p.parse_args(argv)
    r = run(a.n, a.duration, a.step, a.tol, a.maxiter)
    if a.json:
        with open(a.json, "w") as f:
            json.dump(r, f)
    steps = len(r["wall"])
    solved = [i for i, c in enumerate(r["contacts"]) if c > 0]
    print("siconos n=%d: %d steps, %.3f ms/step, avg NSGS iters %.1f (over %d solved steps), "
          "converged %.1f%%, contacts/step %.1f, z range [%.3f, %.3f] m" %
          (a.n, steps, 1e3 * sum(r["wall"]) / steps,
           sum(r["iters"][i] for i in solved) / max(1, len(solved)), len(solved),
           100.0 * sum(r["converged"]) / steps, sum(r["contacts"]) / steps,
           r["final_z_min"], r["final_z_max"]))


if __name__ == "__main__":
    main(sys.argv[1:])
