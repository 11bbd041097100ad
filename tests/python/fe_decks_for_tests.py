"""FINITE_ELEMENT deck pieces shared by the validation tests: HEX bars along x, tip-face
load weights, roller supports and a clamped cantilever."""

import numpy as np

from solfec import (BODY, BULK_MATERIAL, FIX_DIRECTION, FIX_POINT, FORCE, HEX, NEWTON_SOLVER,
                    RUN, SOLFEC)

RHO = 1000.0


def bar_corners(L, a):
    """HEX corner nodes of the bar [0, L] x [0, a] x [0, a] (axis x)."""
    return [0, 0, 0, L, 0, 0, L, a, 0, 0, a, 0, 0, 0, a, L, 0, a, L, a, a, 0, a, a]


def face_weights(p, a, ny, nz):
    """Consistent nodal share of a uniform traction on the x = const face of an ny x nz grid
    of bilinear quads: 1/(ny nz) per node scaled by 1/2 on each face edge it lies on."""
    wy = 0.5 if abs(p[1]) < 1e-12 or abs(p[1] - a) < 1e-12 else 1.0
    wz = 0.5 if abs(p[2]) < 1e-12 or abs(p[2] - a) < 1e-12 else 1.0
    return wy * wz / (ny * nz)


def roller_supports(b, X, a):
    """Rollers at x = 0 (FIX_DIRECTION along x on every root node: free lateral contraction)
    plus three lateral fixings that remove the rigid modes without restraining a uniform
    state; X = the body's referential nodes (n x 3), a = the cross-section edge."""
    for p in X[np.abs(X[:, 0]) < 1e-12]:
        FIX_DIRECTION(b, tuple(p), (1, 0, 0))
    FIX_DIRECTION(b, (0, 0, 0), (0, 1, 0))
    FIX_DIRECTION(b, (0, 0, 0), (0, 0, 1))
    FIX_DIRECTION(b, (0, a, 0), (0, 0, 1))
    FIX_DIRECTION(b, (0, 0, a), (0, 1, 0))


def cantilever_tip_deflection(outdir, nx, ny, nz, E, L, a, P):
    """Mean tip-face deflection of a HEX8 cantilever [0, L] x [0, a]^2 (nu = 0) clamped by
    FIX_POINT at x = 0 under a constant tip load P, after 5 QUASI_STATIC steps of 0.1 s."""
    sol = SOLFEC("QUASI_STATIC", 0.1, outdir)
    sol.verbose = "OFF"
    bulk = BULK_MATERIAL(sol, young=E, poisson=0.0, density=RHO)
    b = BODY(sol, "FINITE_ELEMENT", HEX(bar_corners(L, a), nx, ny, nz, 1, [1] * 6), bulk)
    X = np.array(b.conf).reshape(-1, 3)
    for p in X[np.abs(X[:, 0]) < 1e-12]:  # clamped root
        FIX_POINT(b, tuple(p))
    tip = np.abs(X[:, 0] - L) < 1e-12
    for p in X[tip]:  # uniform shear traction on the tip face, total P
        FORCE(b, "SPATIAL", tuple(p), (0, 0, -1), P * face_weights(p, a, ny, nz))
    RUN(sol, NEWTON_SOLVER(meritval=1e-24), 0.5)
    x = np.array(b.conf).reshape(-1, 3)
    return -(x[tip, 2] - X[tip, 2]).mean()
