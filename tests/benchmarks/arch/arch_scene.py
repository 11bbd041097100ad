"""A semicircular masonry arch of rigid voussoirs standing on a floor, in solfec's deck
language (used by tests/benchmarks/run_fclib_solvers.py to make local-dynamics problems).

Geometry: intrados radius 1.0 m, extrados 1.25 m (thickness / mean radius 0.22, about twice
Heyman's minimum 0.107 for a semicircle under self-weight, so the arch stands), depth 0.5 m
(y in [-0.25, 0.25]), centre at the origin, springings on the floor z = 0. Each of the
`voussoirs` blocks is the convex hull of its 8 corners (wedge with planar joints along
radii); neighbours overlap by 1e-5 m at the joints and the springers sink 1e-5 m into the
floor (more than GEOMETRIC_EPSILON = 1e-6), so every joint is in contact from the first step.
Stone: density 2000 kg/m^3; joints and floor: SIGNORINI_COULOMB, friction `friction`
(default 0.6), restitution 0; gravity 9.81 m/s^2.

Usage alone: /usr/bin/python3 arch_scene.py [steps] (prints the motion per 50 steps).
"""

import math
import os
import sys
import tempfile

RI, RO, DEPTH, OVERLAP = 1.0, 1.25, 0.5, 1e-5


def voussoir_points(k, n):
    """The 8 corners of voussoir k of n (angles from the +x springing, widened by the joint
    overlap)."""
    d = 0.5 * OVERLAP / RI
    t0 = math.pi * k / n - (d if k > 0 else 0.0)
    t1 = math.pi * (k + 1) / n + (d if k < n - 1 else 0.0)
    pts = []
    for t in (t0, t1):
        for r in (RI, RO):
            for y in (-0.5 * DEPTH, 0.5 * DEPTH):
                pts += [r * math.cos(t), y, r * math.sin(t) - OVERLAP]
    return pts


def build_arch(S, outdir, step=2e-3, voussoirs=19, friction=0.6):
    """Returns (solfec object, voussoir bodies)."""
    sol = S.SOLFEC("DYNAMIC", step, outdir)
    sol.verbose = "OFF"
    S.OUTPUT(sol, 1000.0)
    bulk = S.BULK_MATERIAL(sol, model="KIRCHHOFF", young=1e10, poisson=0.2, density=2000.0)
    S.SURFACE_MATERIAL(sol, model="SIGNORINI_COULOMB", friction=friction, restitution=0.0)
    # 4 points per joint (the dumped FCLIB problems, README): with one point per pair the
    # single-HULL voussoirs hinge at the joint centres and the arch is a mechanism.
    S.CONTACT_POINTS(sol, 4)
    S.GRAVITY(sol, (0, 0, -9.81))
    h, t = 3.0, 0.5
    floor = S.HULL([-h, -h, -t, h, -h, -t, h, h, -t, -h, h, -t,
                    -h, -h, 0, h, -h, 0, h, h, 0, -h, h, 0], 1, 1)
    S.BODY(sol, "OBSTACLE", floor, bulk, label="floor")
    blocks = [S.BODY(sol, "RIGID", S.HULL(voussoir_points(k, voussoirs), 1, 1), bulk,
                     label="voussoir-%d" % k) for k in range(voussoirs)]
    return sol, blocks


if __name__ == "__main__":
    here = os.path.dirname(os.path.abspath(__file__))
    sys.path.insert(0, os.path.join(os.path.dirname(here), "box_of_cubes"))
    from solfec_scene import import_solfec
    S = import_solfec()
    steps = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    sol, blocks = build_arch(S, tempfile.mkdtemp(prefix="arch-"))
    gs = S.GAUSS_SEIDEL_SOLVER(1e-8, 2000, meritval=1e-14)
    z0 = [b.conf[11] for b in blocks]
    for s in range(1, steps + 1):
        S.RUN(sol, gs, sol.step if hasattr(sol, "step") else 2e-3)
        if s % 50 == 0 or s == 1:
            v = max(max(abs(x) for x in b.velo) for b in blocks)
            dz = min(b.conf[11] - z for b, z in zip(blocks, z0))
            print("step %d: contacts %d, iters %d, %s, max |velo| %.3g, min dz %.3g" %
                  (s, sol.ncon, gs.iters, gs.error, v, dz))
