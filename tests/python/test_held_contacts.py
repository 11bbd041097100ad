"""Contacts whose normal motion is held by bilateral constraints of both bodies ("held"
contacts, local_dynamics HoldRedundantContacts): R = 0, the bilateral constraints carry the
normal load, so no friction arises from it. Without this the reactions are not unique (W is
singular: the contact normal duplicates the FIX_DIRECTION rows) and drift along the null
space step after step (Solfec-1.0's inp/mbfcp/two_fuel_bricks.py: the loose key's floor
contacts reached 4e4 N without any load, their friction spun the key and the run blew up).
Closed forms: a held block slides at constant velocity; a held block on a driven held plate
stays at rest."""

import numpy as np
import pytest

from solfec import *  # noqa: F401,F403
from shapes_for_tests import box, slab


def solvers():
    return {"GAUSS_SEIDEL": lambda: GAUSS_SEIDEL_SOLVER(1e-8, 1000, meritval=1e-12),
            "NEWTON": lambda: NEWTON_SOLVER(1e-12, 200)}


def model(outdir, friction=0.5):
    sol = SOLFEC("DYNAMIC", 1e-3, outdir)
    sol.verbose = "OFF"
    # 4 points per face pair: 4 floor contacts duplicate the 3 FIX_DIRECTION rows
    CONTACT_POINTS(sol, 4)
    bulk = BULK_MATERIAL(sol, young=1e9, poisson=0.25, density=1000.0)
    SURFACE_MATERIAL(sol, model="SIGNORINI_COULOMB", friction=friction)
    return sol, bulk


def hold_in_z(body, z, half):
    """Three FIX_DIRECTIONs along z at non-collinear points of the plane z: the body's z
    translation and its tilts are held."""
    for p in ((-half, -half, z), (half, -half, z), (0.0, half, z)):
        FIX_DIRECTION(body, p, (0, 0, 1))


def pos(body):
    """Current position of the body's mass centre."""
    return np.array(body.conf[9:12])


def contacts(sol):
    return [c for c in sol.constraints if c.kind == "CONTACT"]


@pytest.mark.parametrize("name", sorted(solvers()))
def test_held_block_under_gravity_slides_without_friction(outdir, name):
    # A 0.5 m cube (125 kg) on an obstacle, held in z by FIX_DIRECTIONs, gravity 10, pushed
    # at 1 m/s, friction 0.5. The floor contacts are held: the FIX_DIRECTIONs carry the
    # weight (R_N sum = m g), no friction acts, x = v t. (Before: the weight was shared with
    # the floor in a solver-dependent way, so was the friction deceleration, up to mu g.)
    sol, bulk = model(outdir)
    BODY(sol, "OBSTACLE", slab(), bulk)
    b = BODY(sol, "RIGID", box(-0.25, -0.25, 0.0, 0.5, 0.5, 0.5), bulk)
    hold_in_z(b, 0.0, 0.25)
    INITIAL_VELOCITY(b, (1.0, 0, 0), (0, 0, 0))
    GRAVITY(sol, (0, 0, -10))
    x0 = pos(b)
    RUN(sol, solvers()[name](), 0.2)
    cs = contacts(sol)
    assert len(cs) == 4
    # exact zeros: the held rows are R = 0 rows
    assert all(c.R == (0.0, 0.0, 0.0) for c in cs)
    fix = [c.R[2] for c in sol.constraints if c.kind == "FIXDIR"]
    m = b.mass
    assert m == pytest.approx(125.0, rel=1e-12)
    # the weight on the FIX_DIRECTIONs (solver tolerance: 1e-6 of m g)
    assert sum(fix) == pytest.approx(m * 10.0, rel=1e-6)
    t = sol.time
    # constant velocity (no friction): round-off and the solver tolerance only
    assert pos(b) - x0 == pytest.approx((1.0 * t, 0, 0), abs=1e-9)
    assert b.velo[3:6] == pytest.approx((1.0, 0, 0), abs=1e-9)


@pytest.mark.parametrize("name", sorted(solvers()))
def test_held_block_on_driven_held_plate_stays_at_rest(outdir, name):
    # The deck's situation without gravity: a plate (held in z, driven along x at 0.5 m/s by
    # SET_VELOCITY) slides under a block resting on it (also held in z), friction 0.5.
    # Nothing presses the block on the plate: zero normal force, zero friction, the block
    # stays where it is and every reaction is zero.
    sol, bulk = model(outdir)
    plate = BODY(sol, "RIGID", box(-1.0, -1.0, -0.2, 2.0, 2.0, 0.2), bulk)
    hold_in_z(plate, -0.2, 0.9)
    SET_VELOCITY(plate, (0, 0, -0.1), (1, 0, 0), 0.5)
    INITIAL_VELOCITY(plate, (0.5, 0, 0), (0, 0, 0))  # (else the first step ramps up)
    block = BODY(sol, "RIGID", box(-0.25, -0.25, 0.0, 0.5, 0.5, 0.5), bulk)
    hold_in_z(block, 0.0, 0.25)
    p0, b0 = pos(plate), pos(block)
    RUN(sol, solvers()[name](), 0.2)
    t = sol.time
    cs = contacts(sol)
    assert len(cs) == 4
    assert all(c.R == (0.0, 0.0, 0.0) for c in cs)
    assert max(abs(r) for c in sol.constraints for r in c.R) <= 1e-9
    assert pos(block) - b0 == pytest.approx((0, 0, 0), abs=1e-12)
    assert pos(plate) - p0 == pytest.approx((0.5 * t, 0, 0), abs=1e-9)


def test_contact_not_held_by_other_bilateral_rows_carries_the_weight(outdir):
    # FIX_DIRECTIONs along x and y do not hold the floor contacts' normal (z): they stay
    # contacts and carry the weight (sum R_N = m g), as without the constraints.
    sol, bulk = model(outdir)
    BODY(sol, "OBSTACLE", slab(), bulk)
    b = BODY(sol, "RIGID", box(-0.25, -0.25, 0.0, 0.5, 0.5, 0.5), bulk)
    FIX_DIRECTION(b, (-0.25, -0.25, 0.25), (1, 0, 0))
    FIX_DIRECTION(b, (-0.25, 0.25, 0.25), (1, 0, 0))
    FIX_DIRECTION(b, (0.25, -0.25, 0.25), (0, 1, 0))
    GRAVITY(sol, (0, 0, -10))
    RUN(sol, GAUSS_SEIDEL_SOLVER(1e-8, 1000, meritval=1e-12), 0.05)
    cs = contacts(sol)
    assert len(cs) == 4
    assert sum(c.R[2] for c in cs) == pytest.approx(b.mass * 10.0, rel=1e-6)
