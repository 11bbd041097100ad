"""What Solfec-1.0 does, checked against its source (issue 34): GAUSS_SEIDEL_SOLVER's stopping
rule and defaults (bgs.c, lng.c), BODY.mesh (lng.c), ... Each test states the expected
behaviour and where it comes from."""

import numpy as np
import pytest

from solfec import *  # noqa: F401,F403
from shapes_for_tests import box, pushed_stack, slab


# ---------------------------------------------------------------- GAUSS_SEIDEL_SOLVER

def test_gauss_seidel_defaults_are_solfec_1_0s():
    # lng.c: meritval defaults to 1.0 (bgs.c: meritval >= 1 turns the merit test off),
    # diagepsilon to 0.01 min(epsilon, meritval, 1e-4); the manual's "either" rule keeps the
    # manual's 1e-3.
    gs = GAUSS_SEIDEL_SOLVER(1e-4, 100)
    assert (gs.meritval, gs.stopping) == (1.0, "BOTH")
    assert gs.diagepsilon == pytest.approx(1e-6, rel=1e-12)
    either = GAUSS_SEIDEL_SOLVER(1e-4, 100, stopping="EITHER")
    assert (either.meritval, either.stopping) == (1e-3, "EITHER")
    with pytest.raises(ValueError, match="GAUSS_SEIDEL_SOLVER.*stopping"):
        GAUSS_SEIDEL_SOLVER(1e-4, 100, stopping="ANY")


def test_gauss_seidel_sweeps_until_epsilon_and_meritval_both_hold(tmp_path):
    # bgs.c: `while (++iters < maxiter && (error > epsilon || merit > meritval))`. Three unit
    # boxes stacked on a floor, the top one pushed at 0.5 m/s (friction 0.5, g = 10): it
    # slides, decelerated by 0.5 g, on the middle one, which with the bottom one stays at
    # rest (the friction it could get from below, 0.5 * 2 m g, exceeds m g / 2). After
    # 30 ms: v = 0.5 - 5 * 0.03 = 0.35 m/s exactly (sticking and sliding reached exactly by
    # the implicit step).
    sol, bodies = pushed_stack(str(tmp_path / "both"), n=3)
    gs = GAUSS_SEIDEL_SOLVER(1e-8, 5000)  # Solfec-1.0's defaults: merit test off
    sweeps = 0
    for _ in range(30):
        RUN(sol, gs, 1e-3)
        assert gs.error == "OK" and gs.rerhist[-1] <= 1e-8
        sweeps += gs.iters
    v = [np.array(b.velo[3:]) for b in bodies]  # RIGID velo = (Omega, v)
    assert v[2] == pytest.approx([0.35, 0, 0], abs=1e-7)
    assert np.abs(v[0]).max() < 1e-7 and np.abs(v[1]).max() < 1e-7
    # Merit test on (meritval < 1): both must hold; with a loose epsilon the merit decides
    loose = GAUSS_SEIDEL_SOLVER(1e-1, 5000, meritval=1e-16)
    RUN(sol, loose, 1e-3)
    assert loose.error == "OK" and loose.merit <= 1e-16
    # 'EITHER' (the manual's Alg. 9.1 as printed, meritval 1e-3): the merit alone ends the
    # sweeps after a few (measured: 1-5 a step against 20-45), the lower boxes get spurious
    # velocities of mm/s
    sol, bodies = pushed_stack(str(tmp_path / "either"), n=3)
    either = GAUSS_SEIDEL_SOLVER(1e-8, 5000, stopping="EITHER")
    few = 0
    for _ in range(30):
        RUN(sol, either, 1e-3)
        assert either.error == "OK" and either.merit <= 1e-3
        few += either.iters
    assert few < 0.25 * sweeps
    assert np.abs(np.array(bodies[1].velo[3:])).max() > 1e-3


# ---------------------------------------------------------------- BODY.mesh

def unit_cube(x=0.0, n=2, surfids=(1, 2, 3, 4, 5, 6)):
    c = [x, 0, 0, x + 1, 0, 0, x + 1, 1, 0, x, 1, 0,
         x, 0, 1, x + 1, 0, 1, x + 1, 1, 1, x, 1, 1]
    return HEX(c, n, n, n, 1, list(surfids))


def translated_fe_cube(outdir):
    """A 2x2x2 HEX8 unit cube moving at 1 m/s along x, no gravity: a rigid translation,
    which every scheme integrates exactly (no strain, no force)."""
    sol = SOLFEC("DYNAMIC", 1e-3, outdir)
    sol.verbose = "OFF"
    mat = BULK_MATERIAL(sol, young=1e6, poisson=0.25, density=1e3)
    body = BODY(sol, "FINITE_ELEMENT", unit_cube(), mat)
    INITIAL_VELOCITY(body, (1, 0, 0), (0, 0, 0))
    return sol, body


def test_body_mesh_of_a_finite_element_body_is_a_live_view(outdir):
    # lng.c (BODY.mesh): FEM_MESH(bod), the body's own mesh whose nodes move with it
    X = np.array([unit_cube().node(i) for i in range(27)])
    sol, body = translated_fe_cube(outdir)
    m = body.mesh
    assert (m.nnod, m.nelem) == (27, 8)
    assert len(m.inter_element_faces()) == 12  # 3 inner planes of 4 faces
    assert sorted(m.nodes_on_surface(2)) == sorted(unit_cube().nodes_on_surface(2))
    np.testing.assert_array_equal([m.node(i) for i in range(27)], X)  # referential
    before = COPY(body.mesh)  # an independent MESH
    assert type(before) is MESH
    RUN(sol, GAUSS_SEIDEL_SOLVER(1e-8, 100), 0.1)
    moved = np.array([m.node(i) for i in range(27)])  # the same view, now current
    np.testing.assert_allclose(moved - X, np.tile([0.1, 0, 0], (27, 1)), atol=1e-12)
    np.testing.assert_array_equal([before.node(i) for i in range(27)], X)
    nodes, elements, _ = body.mesh.get_data()
    np.testing.assert_allclose(np.reshape(nodes, (-1, 3)), moved, atol=0)
    with pytest.raises(ValueError, match="MESH.node: the mesh of a BODY"):
        m.node(0, 1.0, 2.0, 3.0)


def test_body_mesh_follows_seek_in_read_mode(outdir):
    X = np.array([unit_cube().node(i) for i in range(27)])
    sol, body = translated_fe_cube(outdir)
    RUN(sol, GAUSS_SEIDEL_SOLVER(1e-8, 100), 0.1)
    del sol, body  # the deck again, on its results: READ mode
    sol2, body2 = translated_fe_cube(outdir)
    assert sol2.mode == "READ"
    for t in (0.05, 0.1, 0.02):
        SEEK(sol2, t)
        x = np.array([body2.mesh.node(i) for i in range(27)])
        np.testing.assert_allclose(x - X, np.tile([t, 0, 0], (27, 1)), atol=1e-9)


def test_body_mesh_of_an_embedded_body_is_the_background_mesh(outdir):
    sol = SOLFEC("DYNAMIC", 1e-3, outdir)
    mat = BULK_MATERIAL(sol, young=1e6, poisson=0.25, density=1e3)
    background = unit_cube(n=3)
    body = BODY(sol, "FINITE_ELEMENT", box(0.1, 0.1, 0.1, 0.8, 0.8, 0.8), mat, mesh=background)
    assert (body.mesh.nnod, body.mesh.nelem) == (64, 27)
    np.testing.assert_array_equal([body.mesh.node(i) for i in range(64)],
                                  [background.node(i) for i in range(64)])


def test_body_mesh_of_other_kinds_is_the_mesh_shape_moving_with_the_body(outdir):
    # lng.c: the MESH pieces of the shape: one -> that MESH, several -> a list, none -> None
    sol = SOLFEC("DYNAMIC", 1e-3, outdir)
    sol.verbose = "OFF"
    mat = BULK_MATERIAL(sol, young=1e6, poisson=0.25, density=1e3)
    assert BODY(sol, "RIGID", box(5, 0, 0, 1, 1, 1), mat).mesh is None
    two = BODY(sol, "OBSTACLE", [unit_cube(10, 1), unit_cube(12, 1)], mat).mesh
    assert isinstance(two, list) and [m.nnod for m in two] == [8, 8]
    assert two[1].node(0) == pytest.approx((12, 0, 0))
    X = np.array([unit_cube(n=1).node(i) for i in range(8)])
    body = BODY(sol, "RIGID", unit_cube(n=1), mat)
    assert body.mesh.nnod == 8
    # spinning at 1 rad/s about the vertical axis through its centre (isotropic inertia:
    # a steady rotation) for 0.1 s: the nodes turn by 0.1 rad about that axis
    INITIAL_VELOCITY(body, (0, 0, 0), (0, 0, 1))
    RUN(sol, GAUSS_SEIDEL_SOLVER(1e-8, 100), 0.1)
    c, a = np.array([0.5, 0.5, 0.5]), 0.1
    R = np.array([[np.cos(a), -np.sin(a), 0], [np.sin(a), np.cos(a), 0], [0, 0, 1]])
    expected = (X - c) @ R.T + c
    np.testing.assert_allclose([body.mesh.node(i) for i in range(8)], expected, atol=1e-9)
    nodes, _, _ = body.mesh.get_data()
    np.testing.assert_allclose(np.reshape(nodes, (-1, 3)), expected, atol=1e-9)


# ---------------------------------------------------------------- DEF_EXP above the critical step

def test_def_exp_above_the_critical_step_lowers_the_step_to_half_the_critical_one(outdir, capfd):
    # dom.c/bod.c: the step becomes 0.5 * 2 / omega_max of the explicit bodies (PSEUDO_RIGID
    # default 'DEF_EXP'). Unit cube, density rho: the 9 dofs of F have the mass rho/12 I
    # (Euler tensor), the stiffness at F = I the elasticity tensor, whose largest eigenvalue
    # is the bulk mode's 3 lambda + 2 mu: omega_max^2 = 12 (3 lambda + 2 mu) / rho.
    E, nu, rho = 1e9, 0.25, 1e3
    lam, mu = E * nu / ((1 + nu) * (1 - 2 * nu)), E / (2 * (1 + nu))
    critical = 0.5 * 2.0 / np.sqrt(12 * (3 * lam + 2 * mu) / rho)  # 2.0412e-4 s
    sol = SOLFEC("DYNAMIC", 10 * critical, outdir)
    sol.verbose = "OFF"
    mat = BULK_MATERIAL(sol, young=E, poisson=nu, density=rho)
    cube = BODY(sol, "PSEUDO_RIGID", box(0, 0, 0, 1, 1, 1), mat, label="cube")
    assert cube.scheme == "DEFAULT"
    INITIAL_VELOCITY(cube, (1, 0, 0), (0, 0, 0))
    RUN(sol, GAUSS_SEIDEL_SOLVER(1e-8, 100), 100 * critical)
    RUN(sol, GAUSS_SEIDEL_SOLVER(1e-8, 100), 100 * critical)
    assert sol.step == pytest.approx(critical, rel=1e-9)
    assert sol.time == pytest.approx(200 * critical, rel=1e-9)  # the durations asked for
    err = capfd.readouterr().err
    assert err.count("WARNING: RUN: time step lowered") == 1
    assert "PSEUDO_RIGID body 0 ('cube')" in err
    # the explicit motion at that step: a free translation stays exact, F stays I
    assert cube.velo[9:] == pytest.approx((1, 0, 0), abs=1e-12)
    assert cube.conf[9:] == pytest.approx((0.5 + 200 * critical, 0.5, 0.5), abs=1e-12)
    assert cube.conf[:9] == pytest.approx((1, 0, 0, 0, 1, 0, 0, 0, 1), abs=1e-12)


def test_def_lim_keeps_the_step(outdir):
    sol = SOLFEC("DYNAMIC", 1e-3, outdir)
    sol.verbose = "OFF"
    mat = BULK_MATERIAL(sol, young=1e9, poisson=0.25, density=1e3)
    cube = BODY(sol, "PSEUDO_RIGID", box(0, 0, 0, 1, 1, 1), mat)
    cube.scheme = "DEF_LIM"
    RUN(sol, GAUSS_SEIDEL_SOLVER(1e-8, 100), 0.01)
    assert sol.step == 1e-3 and sol.time == pytest.approx(0.01)


@pytest.mark.parametrize("form", ["TL", "BC"])
def test_finite_element_default_is_def_exp_and_lowers_the_step(outdir, capfd, form):
    # bod.c BODY_Create: FINITE_ELEMENT bodies integrate with 'DEF_EXP' unless the deck sets
    # the scheme. One HEX8 unit cube: the element bound is the body's omega_max^2, the
    # largest eigenvalue of M^-1 K0 with the lumped mass rho/8 at each corner (K0 from the
    # binding, the eigenvalue from numpy); 'BC' uses the same K0 (co-rotated). The step 1e-3
    # is ~4x above half the critical step 2/omega_max: RUN lowers it, says so once naming the
    # body, and a free translation stays exact at the lowered step.
    import solfec
    E, nu, rho = 1e9, 0.25, 1e3
    sol = SOLFEC("DYNAMIC", 1e-3, outdir)
    sol.verbose = "OFF"
    mat = BULK_MATERIAL(sol, young=E, poisson=nu, density=rho)
    body = BODY(sol, "FINITE_ELEMENT", unit_cube(n=1), mat, form=form, label="block")
    assert body.scheme == "DEFAULT"
    K0 = np.asarray(solfec._solfec.fe_reference_stiffness_product(sol._domain, body.id,
                                                                   np.eye(24)))
    w2 = np.linalg.eigvalsh(0.5 * (K0 + K0.T) / (rho / 8)).max()
    critical = 0.5 * 2.0 / np.sqrt(w2)
    assert 2 * critical < 1e-3 < 5 * critical
    X = np.array(body.conf)
    INITIAL_VELOCITY(body, (1, 0, 0), (0, 0, 0))
    RUN(sol, GAUSS_SEIDEL_SOLVER(1e-8, 100), 20 * critical)
    assert sol.step == pytest.approx(critical, rel=1e-9)
    assert sol.time == pytest.approx(20 * critical, rel=1e-9)
    err = capfd.readouterr().err
    assert err.count("WARNING: RUN: time step lowered") == 1
    assert "FINITE_ELEMENT body 0 ('block')" in err
    np.testing.assert_allclose(np.array(body.conf) - X,
                               np.tile((20 * critical, 0, 0), 8), rtol=0, atol=1e-12)


@pytest.mark.parametrize("form", ["TL", "BC"])
def test_finite_element_def_lim_keeps_the_step(outdir, capfd, form):
    sol = SOLFEC("DYNAMIC", 1e-3, outdir)
    sol.verbose = "OFF"
    mat = BULK_MATERIAL(sol, young=1e9, poisson=0.25, density=1e3)
    body = BODY(sol, "FINITE_ELEMENT", unit_cube(n=1), mat, form=form)
    body.scheme = "DEF_LIM"
    RUN(sol, GAUSS_SEIDEL_SOLVER(1e-8, 100), 0.01)
    assert sol.step == 1e-3 and sol.time == pytest.approx(0.01)
    assert "time step lowered" not in capfd.readouterr().err


# ---------------------------------------------------------------- obstacles moved by constraints

def platform_and_box(outdir, analysis="DYNAMIC", friction=0.5):
    """A floor slab OBSTACLE (top at z = 0, centre (0, 0, -0.5)) with a unit box resting on
    it, gravity 9.81. Four contact points per touching pair, so that the box stays flat on
    the floor when friction drags it at its base (with one point, Solfec-1.0's and the
    default, the box pitches about it: these tests are about the obstacle's motion)."""
    sol = SOLFEC(analysis, 1e-3, outdir)
    sol.verbose = "OFF"
    CONTACT_POINTS(sol, 4)
    GRAVITY(sol, (0, 0, -9.81))
    mat = BULK_MATERIAL(sol, young=1e9, poisson=0.25, density=1e3)
    SURFACE_MATERIAL(sol, friction=friction, restitution=0.0)
    floor = BODY(sol, "OBSTACLE", slab(), mat, label="floor")
    b = BODY(sol, "RIGID", box(-0.5, -0.5, 0.0, 1, 1, 1), mat)
    return sol, floor, b


def test_obstacle_with_set_velocity_moves_and_carries_a_box_by_friction(outdir):
    # bod.c integrates OBS like RIG without loads and contact forces: SET_VELOCITY at the
    # floor's mass centre translates it at 0.5 m/s from the first step. The box on it is
    # dragged by friction, accelerating at friction g = 4.905 m/s^2 until it moves with the
    # floor (t = 0.5 / 4.905 = 0.102 s), and the floor does not feel the box. (The first
    # half-step moves with the velocity before the step, 0, as for any body: the floor lags
    # 0.5 h/2 behind 0.5 t.)
    sol, floor, b = platform_and_box(outdir)
    c = SET_VELOCITY(floor, (0, 0, -0.5), (1, 0, 0), 0.5)
    gs = GAUSS_SEIDEL_SOLVER(1e-10, 1000)
    RUN(sol, gs, 0.05)
    assert DISPLACEMENT(floor, (0, 0, -0.5)) == pytest.approx((0.5 * 0.0495, 0, 0), abs=1e-12)
    assert b.velo[3] == pytest.approx(0.5 * 9.81 * 0.05, rel=1e-6)  # still slipping
    RUN(sol, gs, 0.15)
    assert DISPLACEMENT(floor, (3, 2, 0)) == pytest.approx((0.5 * 0.1995, 0, 0), abs=1e-12)
    assert b.velo[3:] == pytest.approx((0.5, 0, 0), abs=1e-8)  # moves with the floor
    assert c.kind == "VELODIR"


def test_obstacle_with_set_velocity_pushes_a_box(outdir):
    # A wall OBSTACLE driven at 0.2 m/s along x meets a box on a frictionless floor: the box,
    # hit inelastically (restitution 0), moves with the wall; the wall keeps its speed.
    sol, floor, b = platform_and_box(outdir, friction=0.0)
    wall = BODY(sol, "OBSTACLE", box(-1.0, -1, 0.01, 0.2, 2, 1), BULK_MATERIAL(sol),
                label="wall")  # its face x = -0.8, 0.3 m from the box
    SET_VELOCITY(wall, (-0.9, 0, 0.51), (1, 0, 0), 0.2)
    gs = GAUSS_SEIDEL_SOLVER(1e-10, 1000)
    RUN(sol, gs, 1.0)  # contact at t = 1.5 s
    assert b.velo[3] == pytest.approx(0, abs=1e-9)
    RUN(sol, gs, 1.0)
    assert b.velo[3] == pytest.approx(0.2, rel=1e-6)
    assert DISPLACEMENT(wall, (-0.9, 0, 0.51)) == pytest.approx((0.2 * 1.9995, 0, 0), abs=1e-9)
    assert DISPLACEMENT(b, (0, 0, 0.5))[0] == pytest.approx(0.4 - 0.3, abs=2e-3)


def test_obstacle_with_set_acceleration_lifts_a_box(outdir):
    # SET_ACCELERATION guides an OBSTACLE too: the floor accelerated upwards at 5 m/s^2 from
    # rest lifts the box resting on it, both at v = a t, u = a t^2 / 2 (the velocity, the
    # integral of the series, is linear in t: the step's mean velocity is exact).
    sol, floor, b = platform_and_box(outdir)
    c = SET_ACCELERATION(floor, (0, 0, -0.5), (0, 0, 1), TIME_SERIES([0, 5, 10, 5]))
    RUN(sol, GAUSS_SEIDEL_SOLVER(1e-10, 1000), 0.2)
    assert DISPLACEMENT(floor, (4, -4, -1)) == pytest.approx((0, 0, 0.1), abs=1e-12)
    assert b.velo[3:] == pytest.approx((0, 0, 1.0), abs=1e-9)
    assert DISPLACEMENT(b, (0, 0, 0.5)) == pytest.approx((0, 0, 0.1), abs=1e-9)
    assert c.kind == "VELODIR"


def test_obstacle_with_set_displacement_shakes_a_box_that_friction_holds(outdir):
    # A shaking table: the floor OBSTACLE follows d(t) = A sin(w t) along x (A = 1 cm,
    # w = 10 rad/s: speed A w = 0.1 m/s at t = 0, acceleration at most A w^2 = 1 m/s^2). The
    # box on it slips until friction (0.5 g = 4.9 m/s^2) has brought it to the floor's speed
    # (0.1 / 4.9 = 0.02 s), then sticks: it moves with the floor's velocity d'(t), its
    # displacement a constant lag behind. Solfec-1.0 (lng.c) prescribes the series'
    # derivative as the velocity; here the secant of each step with a drift correction: the
    # floor's velocity is d' to O(h), not a velocity alternating about it (0 and 2 d'), which
    # the box would not follow.
    sol, floor, b = platform_and_box(outdir)
    A, w = 0.01, 10.0
    t = np.linspace(0, 1, 2001)
    SET_DISPLACEMENT(floor, (0, 0, -0.5), (1, 0, 0),
                     TIME_SERIES(np.column_stack([t, A * np.sin(w * t)]).ravel().tolist()))
    gs = GAUSS_SEIDEL_SOLVER(1e-10, 1000)
    lags = []
    for T in (0.25, 0.5):
        RUN(sol, gs, 0.25)
        # d(t) to O(h^2 d'') = 1e-6 (measured 1.5e-7 at t = 0.25)
        assert DISPLACEMENT(floor, (0, 0, -0.5))[0] == pytest.approx(A * np.sin(w * T),
                                                                     abs=1e-6)
        assert b.velo[3] == pytest.approx(A * w * np.cos(w * T), abs=1e-4)  # O(h) = 1e-4
        lags.append(A * np.sin(w * T) - DISPLACEMENT(b, (0, 0, 0.5))[0])
    assert 0 < lags[0] < 0.1 * 0.02  # below the slip's 0.1 m/s x 0.02 s
    assert lags[1] == pytest.approx(lags[0], abs=1e-6)


def test_obstacle_turned_by_fix_point_and_set_velocity(outdir):
    # A turntable: the floor OBSTACLE pinned at its centre (FIX_POINT), kept level
    # (FIX_DIRECTION along z at a rim point) and driven at 0.2 m/s along y at (2, 0) turns
    # about z: the driven point's y velocity 2 theta' cos(theta) = 0.2, so sin(theta) = 0.1 t
    # (t less the first half-step, at rest). The point (0, 2) has moved by
    # 2 (-sin theta, cos theta - 1, 0), and the box on the table does not push it down.
    sol, floor, b = platform_and_box(outdir)
    FIX_POINT(floor, (0, 0, -0.5))
    FIX_DIRECTION(floor, (0, 3, -0.5), (0, 0, 1))
    SET_VELOCITY(floor, (2, 0, -0.5), (0, 1, 0), 0.2)
    RUN(sol, GAUSS_SEIDEL_SOLVER(1e-10, 1000), 0.1)
    theta = np.arcsin(0.1 * (0.1 - 0.5e-3))
    assert DISPLACEMENT(floor, (0, 0, -0.5)) == pytest.approx((0, 0, 0), abs=1e-12)
    assert DISPLACEMENT(floor, (0, 2, -0.5)) == pytest.approx(
        (-2 * np.sin(theta), 2 * np.cos(theta) - 2, 0), abs=1e-7)
    assert sol.ncon >= 4 + 3 and abs(b.velo[5]) < 1e-6  # the box rests on the table


def test_obstacle_constraints_in_quasi_static_analysis(outdir):
    sol, floor, b = platform_and_box(outdir, analysis="QUASI_STATIC")
    with pytest.raises(ValueError, match="SET_VELOCITY: body 0 is an OBSTACLE, which a "
                                         "constraint moves in DYNAMIC analysis only"):
        SET_VELOCITY(floor, (0, 0, -0.5), (1, 0, 0), 0.5)
    for routine, tms in ((SET_DISPLACEMENT, TIME_SERIES([0, 0, 1, 1])),
                         (SET_ACCELERATION, TIME_SERIES([0, 1, 1, 1]))):
        with pytest.raises(ValueError, match=f"{routine.__name__}: body 0 is an OBSTACLE, "
                                             f"which a constraint moves in DYNAMIC analysis"):
            routine(floor, (0, 0, -0.5), (1, 0, 0), tms)
    with pytest.warns(UserWarning, match="FIX_POINT: body 0 is an OBSTACLE; the constraint "
                                         "has no effect in QUASI_STATIC"):
        FIX_POINT(floor, (0, 0, 0))


# ---------------------------------------------------------------- small items of lng.c / msh.c

CORNERS = [0, 0, 0, 2, 0, 0, 2, 1, 0, 0, 1, 0, 0, 0, 3, 2, 0, 3, 2, 1, 3, 0, 1, 3]


def mesh_signature(m):
    nodes, elements, surfids = m.get_data()
    return nodes, elements, sorted(tuple(f) for f in zip(*[iter(surfids[1:])] * 6)), surfids[0]


def test_hex_with_upper_and_lower_corners_swapped_is_the_straight_hex(outdir):
    # msh.c MESH_Hex: when (n1 - n0) x (n2 - n1) . (n4 - n0) < 0 the corner sets are swapped
    swapped = CORNERS[12:] + CORNERS[:12]
    straight = HEX(CORNERS, 2, 1, 3, 1, [1, 2, 3, 4, 5, 6])
    flipped = HEX(swapped, 2, 1, 3, 1, [1, 2, 3, 4, 5, 6])
    assert mesh_signature(flipped) == mesh_signature(straight)
    points = flipped.volume_integration_points()
    assert len(points) == 6 * 8
    # positive volumes: the body made of it has the box's volume 2 x 1 x 3
    sol = SOLFEC("DYNAMIC", 1e-3, outdir)
    mat = BULK_MATERIAL(sol, young=1e6, poisson=0.25, density=1e3)
    body = BODY(sol, "FINITE_ELEMENT", flipped, mat)
    assert body.volume == pytest.approx(6.0, rel=1e-12)
    for sid in range(1, 7):
        assert sorted(body.mesh.nodes_on_surface(sid)) == \
            sorted(straight.nodes_on_surface(sid))


def outward_axes_of_surface_ids(m):
    """{surfid: set of outward unit normals (rounded)} of a convex MESH's boundary faces."""
    X = np.array([m.node(n) for n in range(m.nnod)])
    centre = X.mean(axis=0)
    axes = {}
    for face, sid in m._get().mesh_boundary_faces():
        P = X[list(face)]
        n = np.cross(P[1] - P[0], P[2] - P[0])
        n /= np.linalg.norm(n)
        assert np.dot(P.mean(axis=0) - centre, n) > 0  # node order gives the outward normal
        axes.setdefault(sid, set()).add(tuple(np.round(n, 12) + 0.0))
    return axes


@pytest.mark.parametrize("corners", ["straight", "swapped"])
def test_hex_surface_ids_go_on_solfec1_faces(corners):
    # msh.c MESH_Hex: surfaces[0..5] on z-min, x-min, y-max, x-max, y-min, z-max; with the
    # corner sets swapped (4-7 given below 0-3) the ids follow the swapped corners, so the
    # box's faces carry the same ids
    c = CORNERS if corners == "straight" else CORNERS[12:] + CORNERS[:12]
    m = HEX(c, 2, 1, 3, 1, [1, 2, 3, 4, 5, 6])
    assert outward_axes_of_surface_ids(m) == {
        1: {(0.0, 0.0, -1.0)}, 2: {(-1.0, 0.0, 0.0)}, 3: {(0.0, 1.0, 0.0)},
        4: {(1.0, 0.0, 0.0)}, 5: {(0.0, -1.0, 0.0)}, 6: {(0.0, 0.0, 1.0)}}
    # and the ids' faces are whole: 2 x 1 on z-min/z-max, 1 x 3 on x-min/x-max, 2 x 3 on y
    count = {}
    for _, sid in m._get().mesh_boundary_faces():
        count[sid] = count.get(sid, 0) + 1
    assert count == {1: 2, 2: 3, 3: 6, 4: 3, 5: 6, 6: 2}


def test_hex_and_pipe_take_longer_surface_id_lists():
    # lng.c reads the first 6 (HEX) and 4 (PIPE) items of a longer list
    assert mesh_signature(HEX(CORNERS, 1, 1, 1, 1, [1, 2, 3, 4, 5, 6, 7, 8])) == \
        mesh_signature(HEX(CORNERS, 1, 1, 1, 1, [1, 2, 3, 4, 5, 6]))
    long = PIPE((0, 0, 0), (0, 0, 1), 0.5, 0.1, 2, 8, 1, 1, [1, 2, 3, 4, 5, 6])
    short = PIPE((0, 0, 0), (0, 0, 1), 0.5, 0.1, 2, 8, 1, 1, [1, 2, 3, 4])
    assert mesh_signature(long) == mesh_signature(short)
    with pytest.raises(ValueError, match="HEX: argument 'surfids' must list 6 surface ids"):
        HEX(CORNERS, 1, 1, 1, 1, [1, 2, 3, 4, 5])


def test_mesh_and_form_are_ignored_by_kinds_other_than_finite_element(outdir):
    sol = SOLFEC("DYNAMIC", 1e-3, outdir)
    mat = BULK_MATERIAL(sol, young=1e6, poisson=0.25, density=1e3)
    b = BODY(sol, "RIGID", box(0, 0, 0, 1, 1, 1), mat, form="BC", mesh=HEX(CORNERS, 1, 1, 1,
                                                                             1, [1] * 6))
    assert b.kind == "RIGID" and b.volume == pytest.approx(1.0) and b.mesh is None
    p = BODY(sol, "PSEUDO_RIGID", box(3, 0, 0, 1, 1, 1), mat, form="BC-MODAL")
    assert p.volume == pytest.approx(1.0)


def test_2013_spellings_modal_and_form_ro(outdir):
    # four corpus decks: BODY(..., form='RO', modal=(evals, evecs)) = form 'BC-MODAL', base=
    sol = SOLFEC("DYNAMIC", 1e-3, outdir)
    mat = BULK_MATERIAL(sol, young=1e6, poisson=0.25, density=1e3)
    E = np.zeros((24, 3))  # the 3 translations, M-orthonormal (mass 6000 kg)
    for a in range(8):
        for d in range(3):
            E[3 * a + d, d] = 1.0 / np.sqrt(6000.0)
    base = (np.zeros(3), E)
    old = BODY(sol, "FINITE_ELEMENT", HEX(CORNERS, 1, 1, 1, 1, [1] * 6), mat, form="RO",
               modal=base)
    new = BODY(sol, "FINITE_ELEMENT", HEX(CORNERS, 1, 1, 1, 1, [1] * 6), mat, form="BC-MODAL",
               base=base)
    assert len(old.conf) == len(new.conf) == 9 + 3  # Lambda and 3 reduced coordinates
    with pytest.raises(TypeError, match="'base' given twice"):
        BODY(sol, "FINITE_ELEMENT", HEX(CORNERS, 1, 1, 1, 1, [1] * 6), mat, form="RO",
             modal=base, base=base)


def test_mesh_drops_trailing_nodes_no_element_uses(outdir):
    # msh.c: the node count is the range of indices the elements use (a deck may pass the
    # whole node table of a file holding several meshes)
    nodes = [0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 5, 5, 5, 6, 6, 6]
    m = MESH(nodes, [4, 0, 1, 2, 3, 1], 1)
    assert m.nnod == 4 and m.node(3) == (0, 0, 1)
    inner = MESH([0, 0, 0, 5, 5, 5, 1, 0, 0, 0, 1, 0, 0, 0, 1], [4, 0, 2, 3, 4, 1], 1)
    assert inner.nnod == 5  # an unused node inside that range stays, and a body refuses it
    sol = SOLFEC("DYNAMIC", 1e-3, outdir)
    mat = BULK_MATERIAL(sol, young=1e6, poisson=0.25, density=1e3)
    with pytest.raises(ValueError, match="belongs to no element"):
        BODY(sol, "FINITE_ELEMENT", inner, mat)


def test_force_callback_ignores_point_and_direction(outdir):
    # lng.c FORCE: with a callable value, point and direction are not read. A rigid box in
    # space pushed by a constant 1000 N along x returned by the callback (its mass 1000 kg):
    # it accelerates at 1 m/s^2 whatever point and direction say.
    sol = SOLFEC("DYNAMIC", 1e-3, outdir)
    sol.verbose = "OFF"
    mat = BULK_MATERIAL(sol, young=1e9, poisson=0.25, density=1e3)
    b = BODY(sol, "RIGID", box(0, 0, 0, 1, 1, 1), mat)
    FORCE(b, "SPATIAL", None, (0, 0, 0), lambda q, u, t, h: (1000, 0, 0, 0, 0, 0, 0, 0, 0))
    RUN(sol, GAUSS_SEIDEL_SOLVER(1e-8, 100), 0.1)
    assert b.velo[3:] == pytest.approx((0.1, 0, 0), rel=1e-9, abs=1e-12)


def test_put_spring_with_coincident_points_has_rest_length_zero(outdir):
    # Solfec-1.0 (inp/devel/put_spring_mpi.py): a follower spring between coincident points
    # has rest length 0 and the axis (0, 0, 1) until they separate. A unit box (1000 kg)
    # hung by its centre on such a spring (k = 1e6 N/m, critical dashpot 2 sqrt(k m)) to the
    # same fixed point sags under gravity 10 to rest at k s = m g: s = 1e-2 m, the spring
    # then pointing down, along the separation.
    sol = SOLFEC("DYNAMIC", 1e-3, outdir)
    sol.verbose = "OFF"
    GRAVITY(sol, (0, 0, -10))
    mat = BULK_MATERIAL(sol, young=1e9, poisson=0.25, density=1e3)
    b = BODY(sol, "RIGID", box(-0.5, -0.5, -0.5, 1, 1, 1), mat)
    k, c = 1e6, 2 * np.sqrt(1e6 * 1e3)
    s = PUT_SPRING(b, (0, 0, 0), None, (0, 0, 0), lambda s, v: -k * s - c * v)
    assert abs(s.base[8]) == 1.0  # normal (base[2], base[5], base[8]) = +-(0, 0, 1)
    RUN(sol, GAUSS_SEIDEL_SOLVER(1e-10, 100), 1.0)
    assert b.conf[9:] == pytest.approx((0, 0, -1e-2), abs=1e-6)
    assert b.velo[5] == pytest.approx(0, abs=1e-5)


def test_put_spring_between_coincident_points_turns_along_the_separation(outdir):
    # The same spring (rest length 0) with no gravity, the box pulled by a constant 1e4 N
    # along (0.6, 0.8, 0): it comes to rest at F / k = 1 cm along the pull, the spring's axis
    # (the base's normal column) turns from (0, 0, +-1) to the separation's direction, and
    # its reaction is the pull, -1e4 N along that axis.
    sol = SOLFEC("DYNAMIC", 1e-3, outdir)
    sol.verbose = "OFF"
    mat = BULK_MATERIAL(sol, young=1e9, poisson=0.25, density=1e3)
    b = BODY(sol, "RIGID", box(-0.5, -0.5, -0.5, 1, 1, 1), mat)
    k, c = 1e6, 2 * np.sqrt(1e6 * 1e3)
    s = PUT_SPRING(b, (0, 0, 0), None, (0, 0, 0), lambda s, v: -k * s - c * v)
    assert abs(s.base[8]) == 1.0
    FORCE(b, "SPATIAL", (0, 0, 0), (0.6, 0.8, 0), 1e4)
    RUN(sol, GAUSS_SEIDEL_SOLVER(1e-10, 100), 1.0)
    assert b.conf[9:] == pytest.approx((0.006, 0.008, 0), abs=1e-9)
    axis = np.array(s.base[2::3])
    assert axis * np.sign(axis[0]) == pytest.approx((0.6, 0.8, 0), abs=1e-9)
    assert s.R[2] == pytest.approx(-1e4, rel=1e-6)


def test_bulk_material_with_poisson_one_half_is_for_rigid_bodies_only(outdir):
    # lng.c accepts poisson 0.5; a deformable body cannot use it (lambda is infinite)
    sol = SOLFEC("DYNAMIC", 1e-3, outdir)
    sol.verbose = "OFF"
    GRAVITY(sol, (0, 0, -10))
    mat = BULK_MATERIAL(sol, young=1e9, poisson=0.5, density=1e3, label="rubber")
    assert mat.poisson == 0.5
    b = BODY(sol, "RIGID", box(0, 0, 0, 1, 1, 1), mat)
    RUN(sol, GAUSS_SEIDEL_SOLVER(1e-8, 100), 0.1)
    assert b.velo[5] == pytest.approx(-1.0, rel=1e-9)  # free fall, g t
    with pytest.raises(ValueError, match="BODY: BULK_MATERIAL 'rubber' has poisson = 0.5 "
                                         r"\(incompressible\), which the deformable body "
                                         r"'cube' \(PSEUDO_RIGID\) cannot use"):
        BODY(sol, "PSEUDO_RIGID", box(3, 0, 0, 1, 1, 1), mat, label="cube")
    fe = BODY(sol, "FINITE_ELEMENT", unit_cube(5), BULK_MATERIAL(sol), label="block")
    with pytest.raises(ValueError, match="APPLY_BULKMAT: .* deformable body .*'block'"):
        APPLY_BULKMAT(sol, fe, 1, mat)
    with pytest.raises(ValueError, match="BULK_MATERIAL: invalid poisson = 0.6"):
        BULK_MATERIAL(sol, poisson=0.6)
