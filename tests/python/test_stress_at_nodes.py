"""STRESS at a mesh node is the average of the node's elements' stresses there (Solfec-1.0's
FEM_Point_Values, Code_Aster's nodal stresses), checked on a bar hanging under its own weight,
whose axial stress rho g (L - x) is linear. With nu = 0 the HEX8 solution is one-dimensional,
its node displacements are exact (linear elements in 1D, uniform load: lumped = consistent
nodal loads), so each element's strain is the secant of the exact quadratic u(x): the exact
value at the element centre. A single element's stress at a node is then off by rho g dx / 2
and the average of the two elements at the node is exact."""

import numpy as np

from solfec import *  # noqa: F401,F403
from fe_decks_for_tests import RHO, bar_corners, roller_supports

E, NU, L, a, G, NX = 1e9, 0.0, 1.0, 0.1, 10.0, 8


def hanging_bar(outdir):
    # h = 0.1 s: the lowest axial mode w = (pi/2) sqrt(E/rho)/L = 1571 rad/s gives h w = 157,
    # so each step leaves 1/(h w)^2 = 4e-5 of the equilibrium error: 3 steps reach 1e-13.
    sol = SOLFEC("QUASI_STATIC", 0.1, outdir)
    sol.verbose = "OFF"
    bulk = BULK_MATERIAL(sol, young=E, poisson=NU, density=RHO)
    b = BODY(sol, "FINITE_ELEMENT", HEX(bar_corners(L, a), NX, 2, 2, 1, [1] * 6), bulk)
    X = np.array(b.conf).reshape(-1, 3)
    roller_supports(b, X, a)   # hung at x = 0, gravity along +x: tension rho g (L - x)
    GRAVITY(sol, (G, 0, 0))
    RUN(sol, NEWTON_SOLVER(meritval=1e-20), 0.3)
    return b


def test_nodal_stress_is_the_element_average_and_exact_for_a_linear_field(outdir):
    b = hanging_bar(outdir)
    dx = L / NX
    for x in (2 * dx, 4 * dx, 6 * dx):
        exact = RHO * G * (L - x)
        # an edge node (2 elements), a face node (4) and an interior node (8)
        for p in ((x, 0.0, 0.0), (x, a / 2, 0.0), (x, a / 2, a / 2)):
            sx = STRESS(b, p)[0]
            # strain ~1e-5: the Green-Lagrange / Cauchy differences are ~1e-5 relative, far
            # below the >= 8% (dx/2 / (L - x) >= 0.0625 / 0.75) of a single element's value
            assert abs(sx - exact) < 1e-4 * exact, (p, sx, exact)
            sx_off = STRESS(b, (x + 1e-3 * dx, p[1], p[2]))[0]  # off the node: one element
            assert abs(sx_off - RHO * G * (L - x - dx / 2)) < 1e-4 * exact, (p, sx_off)
    # inside an element the stress is that element's: the exact value at its centre
    xc = 4.5 * dx
    sx = STRESS(b, (xc + 0.2 * dx, a / 4, a / 4))[0]
    assert abs(sx - RHO * G * (L - xc)) < 1e-4 * RHO * G * (L - xc), sx
