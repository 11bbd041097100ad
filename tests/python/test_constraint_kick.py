"""A velocity along FIX_DIRECTION / FIX_POINT (an impact, an INITIAL_VELOCITY against the
constraint) is absorbed within two steps. The error of the point is measured at the step's
mid-point x(t+h/2) = x(t) + h/2 V and removed by the next one: U = (P0 - x(t+h/2)) / h.
From x(0) = P0 and V = v0 along the constraint: step 1 gives U = -v0/2 and
x(h) = P0 + h v0/4, step 2 U = 0 and x(2h) = P0, for ever after. (The former end-of-step
correction U = 2 (P0 - x(t+h/2)) / h gave U = -v0, +v0, -v0, ... at x = P0: a velocity and
reactions alternating for ever; it kept the loose key of Solfec-1.0's
inp/mbfcp/two_fuel_bricks.py rocking at +-0.34 rad/s under +-400 N.)"""

import numpy as np
import pytest

from solfec import *  # noqa: F401,F403
from shapes_for_tests import box


def kicked_box(outdir, fix):
    h = 1e-3
    sol = SOLFEC("DYNAMIC", h, outdir)
    sol.verbose = "OFF"
    bulk = BULK_MATERIAL(sol, young=1e9, poisson=0.25, density=1000.0)
    SURFACE_MATERIAL(sol, friction=0.0)
    b = BODY(sol, "RIGID", box(-0.5, -0.5, -0.5, 1.0, 1.0, 1.0), bulk)
    if fix == "FIX_DIRECTION":  # z and the tilts held: three points of the bottom face
        for p in ((-0.5, -0.5, -0.5), (0.5, -0.5, -0.5), (0.0, 0.5, -0.5)):
            FIX_DIRECTION(b, p, (0, 0, 1))
    else:  # the mass centre held in place (the box may still spin about it)
        FIX_POINT(b, (0, 0, 0))
    INITIAL_VELOCITY(b, (0, 0, 2.0), (0, 0, 0))  # against the constraints
    return sol, b, h


@pytest.mark.parametrize("fix", ["FIX_DIRECTION", "FIX_POINT"])
def test_velocity_against_a_fixed_point_is_absorbed_in_two_steps(outdir, fix):
    sol, b, h = kicked_box(outdir, fix)
    v0 = 2.0
    gs = GAUSS_SEIDEL_SOLVER(1e-12, 1000, meritval=1e-20)
    RUN(sol, gs, h)
    # linear constraints, exact solve: round-off
    assert b.velo[5] == pytest.approx(-0.5 * v0, abs=1e-9)
    assert b.conf[11] == pytest.approx(0.25 * h * v0, abs=1e-12)
    RUN(sol, gs, h)
    assert b.velo[5] == pytest.approx(0.0, abs=1e-9)
    assert b.conf[11] == pytest.approx(0.0, abs=1e-12)
    RUN(sol, gs, 20 * h)
    # at rest at P0 for good, without reactions (the former rule: U = +-v0 and
    # +-m v0 / h = +-2e6 N alternating at every step)
    assert np.abs(b.velo) == pytest.approx(np.zeros(6), abs=1e-9)
    assert b.conf[9:12] == pytest.approx((0, 0, 0), abs=1e-12)
    assert max(abs(r) for c in sol.constraints for r in c.R) <= 1e-6
