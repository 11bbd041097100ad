"""Constraints of the foundation issue on deformable bodies at referential points (issue #4):
SET_VELOCITY, SET_ACCELERATION, SET_DISPLACEMENT and PUT_RIGID_LINK on FINITE_ELEMENT and
PSEUDO_RIGID bodies in DYNAMIC analysis, against the prescribed motions."""

import math

import numpy as np
import pytest

from solfec import *  # noqa: F401,F403
from shapes_for_tests import box

H = 1e-3


def model(outdir, young=1e6):
    sol = SOLFEC("DYNAMIC", H, outdir)
    sol.verbose = "OFF"
    OUTPUT(sol, 1.0)
    bulk = BULK_MATERIAL(sol, young=young, poisson=0.3, density=1000.0)
    SURFACE_MATERIAL(sol)
    return sol, bulk


def cube_mesh(x0=0.0, n=2):
    c = [x0, 0, 0, x0 + 1, 0, 0, x0 + 1, 1, 0, x0, 1, 0,
         x0, 0, 1, x0 + 1, 0, 1, x0 + 1, 1, 1, x0, 1, 1]
    return HEX(c, n, n, n, 1, [1] * 6)


def make(sol, bulk, kind, x0=0.0):
    if kind == "FINITE_ELEMENT":
        b = BODY(sol, kind, cube_mesh(x0), bulk)
        b.scheme = "DEF_LIM"
        return b
    return BODY(sol, kind, box(x0, 0, 0, 1, 1, 1), bulk)


SOLVER = lambda: GAUSS_SEIDEL_SOLVER(1e-10, 1000, meritval=1e-20)  # noqa: E731
KINDS = ("FINITE_ELEMENT", "PSEUDO_RIGID")


@pytest.mark.parametrize("kind", KINDS)
def test_set_velocity_moves_the_point_at_the_prescribed_speed(outdir, kind):
    # x-velocity 0.5 m/s at a corner from rest: u jumps to 0.5 in the first step, whose
    # midpoint rule moves the corner by h/2 * 0.5; after that 0.5 h per step, so the x
    # displacement is exactly 0.5 (t - h/2), and the x velocity 0.5.
    sol, bulk = model(outdir)
    b = make(sol, bulk, kind)
    p = (1.0, 1.0, 1.0)
    SET_VELOCITY(b, p, (1, 0, 0), 0.5)
    RUN(sol, SOLVER(), 0.2)
    assert DISPLACEMENT(b, p)[0] == pytest.approx(0.5 * (0.2 - H / 2), abs=1e-9)
    assert VELOCITY(b, p)[0] == pytest.approx(0.5, abs=1e-9)


@pytest.mark.parametrize("kind", KINDS)
def test_set_acceleration_gives_half_a_t_squared(outdir, kind):
    # a = 2 m/s^2 along z at the mass centre: v = a t (the integral of the series) and
    # x = a t^2 / 2; the midpoint rule integrates a linear v exactly.
    sol, bulk = model(outdir)
    b = make(sol, bulk, kind)
    p = (0.5, 0.5, 0.5)
    SET_ACCELERATION(b, p, (0, 0, 1), TIME_SERIES([0, 2.0, 1, 2.0]))
    RUN(sol, SOLVER(), 0.2)
    assert DISPLACEMENT(b, p)[2] == pytest.approx(0.5 * 2.0 * 0.2 ** 2, rel=1e-6)
    assert VELOCITY(b, p)[2] == pytest.approx(2.0 * 0.2, rel=1e-6)


@pytest.mark.parametrize("kind", KINDS)
def test_set_displacement_follows_the_time_series(outdir, kind):
    # d(t) = 0.1 sin(2 pi t) along y at a corner: the point follows it to the drift
    # correction's accuracy (positions are returned each step): 1e-6 m.
    sol, bulk = model(outdir)
    b = make(sol, bulk, kind)
    p = (0.0, 0.0, 0.0)
    ts = [v for t in np.linspace(0, 1, 401) for v in (t, 0.1 * math.sin(2 * math.pi * t))]
    SET_DISPLACEMENT(b, p, (0, 1, 0), TIME_SERIES(ts))
    RUN(sol, SOLVER(), 0.3)
    assert DISPLACEMENT(b, p)[1] == pytest.approx(0.1 * math.sin(2 * math.pi * 0.3), abs=1e-6)


@pytest.mark.parametrize("kind", KINDS)
def test_rigid_link_keeps_two_deformable_bodies_at_its_length(outdir, kind):
    # Two unit cubes 0.5 m apart linked between facing face centres; the second is pulled
    # away by 50 N: the link length holds (1e-6 m, drift-corrected each step) and both
    # bodies move together (momentum 50 N x t shared). E = 1e9: the pull excites elastic
    # vibration of relative amplitude ~ F / (E A) ~ 1e-7, negligible at the sampled points.
    sol, bulk = model(outdir, young=1e9)
    a = make(sol, bulk, kind, 0.0)
    b = make(sol, bulk, kind, 1.5)
    if kind == "PSEUDO_RIGID":
        a.scheme = b.scheme = "DEF_LIM"  # E = 1e9 is far beyond DEF_EXP's critical step
    pa, pb = (1.0, 0.5, 0.5), (1.5, 0.5, 0.5)
    PUT_RIGID_LINK(a, b, pa, pb)
    FORCE(b, "SPATIAL", (2.5, 0.5, 0.5), (1, 0, 0), 50.0)
    X = [np.array(a.conf).reshape(-1, 3), np.array(b.conf).reshape(-1, 3)]
    RUN(sol, SOLVER(), 0.2)
    xa = np.add(pa, DISPLACEMENT(a, pa))
    xb = np.add(pb, DISPLACEMENT(b, pb))
    assert np.linalg.norm(xb - xa) == pytest.approx(0.5, abs=1e-6)
    # Total x momentum = F t = 10 N s exactly (the link's reactions cancel in pairs).
    if kind == "PSEUDO_RIGID":  # velo[9:12] is the mass centre velocity
        p = 1000.0 * (a.velo[9] + b.velo[9])
    else:  # lumped masses of the uniform 2x2x2 HEX8 mesh: 15.625 kg per adjacent element
        p = 0.0
        for body, Xb in zip((a, b), X):
            v = np.array(body.velo).reshape(-1, 3)
            lo, hi = Xb.min(axis=0), Xb.max(axis=0)
            interior = (np.abs(Xb - lo) > 1e-9) & (np.abs(Xb - hi) > 1e-9)
            m = 15.625 * np.prod(np.where(interior, 2, 1), axis=1)
            assert m.sum() == pytest.approx(1000.0)
            p += float(m @ v[:, 0])
    assert p == pytest.approx(50.0 * 0.2, rel=1e-9)
