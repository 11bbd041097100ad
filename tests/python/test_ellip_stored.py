"""READ mode remakes the ellipsoid bodies a CALLBACK made during the run from the results'
stored definitions (python/solfec/stored_bodies.py) with their referential axes: turned
ellipsoids keep their orientation, so the inertia tensor and the shape are the run's."""

import math

import numpy as np

from solfec import *  # noqa: F401,F403
from shapes_for_tests import slab

TURNS = (((1, 1, 0), 50.0), ((0, 1, 1), 180.0), ((0, 0, 1), 0.0))  # (a half turn, no turn)


def model(outdir):
    sol = SOLFEC("DYNAMIC", 1e-3, outdir)
    sol.verbose = "OFF"
    bulk = BULK_MATERIAL(sol, young=1e7, poisson=0.25, density=1000.0)
    BODY(sol, "OBSTACLE", slab(top=0.0), bulk)
    made = []

    def add():  # bodies made by a callback: READ mode makes them from the results file
        if not made:
            for i, (axis, angle) in enumerate(TURNS):
                c = (1.0 * i, 0.0, 0.5)
                e = ELLIP(c, (0.3, 0.2, 0.1), 1, 1)
                ROTATE(e, c, axis, angle)
                made.append(BODY(sol, "RIGID", e, bulk))
        return 1

    CALLBACK(sol, 0.002, (), add)
    GRAVITY(sol, (0, 0, -10))
    OUTPUT(sol, 0.005)
    RUN(sol, GAUSS_SEIDEL_SOLVER(1e-8, 100), 0.02)
    return sol


def test_read_mode_remakes_turned_ellipsoids_with_their_axes(outdir):
    sol = model(outdir)
    assert sol.mode == "WRITE"
    written = {b.id: (np.array(b.tensor), np.array(b.conf)) for b in sol.bodies
               if b.kind == "RIGID"}
    assert len(written) == 3
    sol2 = model(outdir)
    assert sol2.mode == "READ"
    SEEK(sol2, 0.02)
    read = {b.id: (np.array(b.tensor), np.array(b.conf)) for b in sol2.bodies
            if b.kind == "RIGID"}
    assert sorted(read) == sorted(written)
    for k, (J, q) in written.items():
        # The referential inertia R0 J0 R0^T (R0 the ELLIP's turn) and the state agree: the
        # axis-angle of R0 loses a few ulps (1e-15 relative); without the turn, J of the
        # 50-degree ellipsoid differed by up to 0.16 kg m^2 (its entries up to 0.54).
        assert np.allclose(read[k][0], J, rtol=0, atol=1e-12 * np.abs(J).max())
        assert np.array_equal(read[k][1], q)
    # and the turns really differ from an axis-aligned ellipsoid's J (diagonal)
    J50 = written[min(written)][0].reshape(3, 3)
    assert abs(J50[0, 1]) > 0.01 * abs(J50[0, 0])
