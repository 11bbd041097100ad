"""Shape builders shared by the deck tests."""

from solfec import (BODY, BULK_MATERIAL, CONTACT_POINTS, CONVEX, GRAVITY, HULL,
                    INITIAL_VELOCITY, SOLFEC, SURFACE_MATERIAL)


def box(x, y, z, a, b, c, volid=1, surfid=1):
    """A CONVEX box with corner (x, y, z) and edge lengths a, b, c."""
    v = [x, y, z, x + a, y, z, x + a, y + b, z, x, y + b, z,
         x, y, z + c, x + a, y, z + c, x + a, y + b, z + c, x, y + b, z + c]
    f = [4, 0, 3, 2, 1, surfid, 4, 0, 1, 5, 4, surfid, 4, 1, 2, 6, 5, surfid,
         4, 2, 3, 7, 6, surfid, 4, 3, 0, 4, 7, surfid, 4, 4, 5, 6, 7, surfid]
    return CONVEX(v, f, volid)


def slab(half=5.0, thickness=1.0, top=0.0, surfid=1):
    """A wide flat HULL whose top face lies at z = top."""
    h, t, z = half, thickness, top
    return HULL([-h, -h, z - t, h, -h, z - t, h, h, z - t, -h, h, z - t,
                 -h, -h, z, h, -h, z, h, h, z, -h, h, z], 1, surfid)


def pushed_stack(outdir, n=3):
    """`n` unit boxes stacked on a floor slab (each shifted 5 cm along x), the top one pushed
    at 0.5 m/s: sticking and sliding contacts with 4-point face patches, friction 0.5,
    gravity 10, h = 1 ms. Returns (sol, bodies); nothing is run."""
    sol = SOLFEC("DYNAMIC", 1e-3, outdir)
    sol.verbose = "OFF"
    # 4-point patches on purpose: the solver tests that use this stack need the redundant
    # face contacts (rank-deficient W); with one point per pair a lone box rocks on it.
    CONTACT_POINTS(sol, 4)
    bulk = BULK_MATERIAL(sol, young=1e9, poisson=0.25, density=1000.0)
    SURFACE_MATERIAL(sol, model="SIGNORINI_COULOMB", friction=0.5)
    BODY(sol, "OBSTACLE", slab(), bulk)
    bodies = [BODY(sol, "RIGID", box(-0.5 + 0.05 * k, -0.5, 1.0 * k, 1, 1, 1), bulk)
              for k in range(n)]
    INITIAL_VELOCITY(bodies[-1], (0.5, 0, 0), (0, 0, 0))
    GRAVITY(sol, (0, 0, -10))
    return sol, bodies
