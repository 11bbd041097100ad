"""SICONOS_SOLVER (Solfec-1.0 sis.c): every step's contact problem solved by Siconos numerics
(fc3d_driver, NSGS). The solve tests need a build linking Siconos (Debian
libsiconos-numerics-dev, installed by cmake/setup.sh) and are skipped without it; the error
of a build without it is tested by making the build flag read False."""

import tempfile

import numpy as np
import pytest

import solfec
from solfec import *  # noqa: F401,F403
from solfec import _solfec
from shapes_for_tests import box, slab

HAVE_SICONOS = _solfec.siconos_available()
needs_siconos = pytest.mark.skipif(
    not HAVE_SICONOS, reason="this build has no Siconos numerics (libsiconos-numerics-dev)")


def test_without_siconos_the_constructor_names_the_package(monkeypatch):
    monkeypatch.setattr(solfec.solvers._solfec, "siconos_available", lambda: False)
    with pytest.raises(RuntimeError, match=r"SICONOS_SOLVER: .*libsiconos-numerics-dev"):
        SICONOS_SOLVER()


@needs_siconos
@pytest.mark.parametrize("kwargs, kind, text", [
    (dict(epsilon=0.0), ValueError, "argument 'epsilon' must be > 0, got 0"),
    (dict(epsilon="1e-4"), TypeError, "argument 'epsilon' must be a number"),
    (dict(maxiter=0), ValueError, "argument 'maxiter' must be >= 1, got 0"),
    (dict(maxiter=10.5), TypeError, "argument 'maxiter' must be an integer"),
    (dict(verbose="YES"), ValueError, "unknown value 'YES' of argument 'verbose'"),
])
def test_bad_arguments_name_the_routine_and_argument(kwargs, kind, text):
    with pytest.raises(kind, match="SICONOS_SOLVER: " + text):
        SICONOS_SOLVER(**kwargs)


@needs_siconos
def test_members_as_solfec_1_0():
    s = SICONOS_SOLVER()
    assert (s.epsilon, s.maxiter, s.verbose) == (1e-4, 1000, "OFF")  # Solfec-1.0's defaults
    s = SICONOS_SOLVER(1e-6, 50, "ON")  # positional, as lng.c's "|diO"
    s.epsilon, s.maxiter = 1e-8, 200
    assert (s.epsilon, s.maxiter, s.verbose) == (1e-8, 200, "ON")
    with pytest.raises(ValueError, match="SICONOS_SOLVER: argument 'maxiter'"):
        s.maxiter = -1


@needs_siconos
def test_single_sliding_contact_against_the_closed_form():
    # One contact, W = diag(1, 1, 2) (local T1, T2, N), B = (0.5, 0, -1), mu = 0.3: the normal
    # velocity vanishes at R_N = 0.5, and the contact slides (|B_T| > mu R_N |W_TT|) with
    # R_T = -mu R_N along B_T, leaving U_T = 0.5 - 0.15.
    s = SICONOS_SOLVER(epsilon=1e-12)
    R, U, merit = _solfec.solve_contact_problem(
        s._s, [0, 1], [0], [1, 0, 0, 0, 1, 0, 0, 0, 2], [0.5, 0, -1], [0.3])
    assert R == pytest.approx([-0.15, 0.0, 0.5], abs=1e-12)
    assert U == pytest.approx([0.35, 0.0, 0.0], abs=1e-12)


def cubes_scene(n, h, outdir):
    """n^3 unit-density-2000 cubes of edge 0.1 m, each tilted by its own angle about a skew
    axis (no mirror symmetry: a symmetric pile has ties in the contact-point choice that
    round-off breaks either way), dropped into a five-wall OBSTACLE box; friction 0.3."""
    a, gap, wall = 0.1, 0.02, 0.05
    pitch = a + gap
    inner = n * pitch + gap
    sol = SOLFEC("DYNAMIC", h, outdir)
    sol.verbose = "OFF"
    OUTPUT(sol, 1000.0)
    bulk = BULK_MATERIAL(sol, model="KIRCHHOFF", young=1e9, poisson=0.25, density=2e3)
    SURFACE_MATERIAL(sol, model="SIGNORINI_COULOMB", friction=0.3, restitution=0.0)
    GRAVITY(sol, (0, 0, -9.81))
    height = n * pitch * 1.5
    walls = [box(-wall, -wall, -wall, inner + 2 * wall, inner + 2 * wall, wall),
             box(-wall, -wall, 0, wall, inner + 2 * wall, height),
             box(inner, -wall, 0, wall, inner + 2 * wall, height),
             box(0, -wall, 0, inner, wall, height),
             box(0, inner, 0, inner, wall, height)]
    BODY(sol, "OBSTACLE", walls, bulk)
    cubes = []
    for m in range(n ** 3):
        i, j, k = m // (n * n), (m // n) % n, m % n
        x, y, z = gap + i * pitch, gap + j * pitch, gap + k * pitch
        cube = box(x, y, z, a, a, a)
        ROTATE(cube, (x + a / 2, y + a / 2, z + a / 2), (1.0, 0.37, 0.21), 3.0 + 2.3 * m)
        cubes.append(BODY(sol, "RIGID", cube, bulk))
    return sol, cubes


def trajectory(solver, steps, h=5e-3):
    sol, cubes = cubes_scene(3, h, tempfile.mkdtemp(prefix="siconos-"))
    X, ncon = [], 0
    for _ in range(steps):
        RUN(sol, solver, h)
        assert solver.error == "OK"
        X.append([c.conf[9:12] for c in cubes])
        ncon = max(ncon, sol.ncon)
    return np.array(X), ncon


@needs_siconos
def test_box_of_cubes_follows_the_gauss_seidel_trajectory_to_the_solver_tolerance():
    # 27 tilted cubes fall into a box and settle (1 s, 200 steps of 5 ms, up to ~45
    # contacts). Both solvers solve the same step problems; Gauss-Seidel stops on the
    # relative change of R per sweep, Siconos' NSGS on its relative residual, both ~epsilon,
    # so each step's velocities agree to O(epsilon) and the positions after 200 steps differ
    # by O(epsilon) times the scene's error growth. Measured (max over cubes and steps):
    # 2.4e-5 m at epsilon 1e-6, 4.5e-7 at 1e-8, 1.9e-8 m at 1e-9, 1.6e-9 m at 1e-10: the
    # difference falls with epsilon, i.e. the two runs converge to one trajectory.
    d = {}
    for eps in (1e-6, 1e-9):
        Xg, ncon_g = trajectory(GAUSS_SEIDEL_SOLVER(eps, 100000, meritval=1.0), 200)
        Xs, ncon_s = trajectory(SICONOS_SOLVER(epsilon=eps, maxiter=100000), 200)
        d[eps] = np.linalg.norm(Xg - Xs, axis=2).max()
        assert ncon_g == ncon_s > 27  # the pile touches itself, not only the floor
        travel = np.linalg.norm(Xs[-1] - Xs[0], axis=1).max()
        assert travel > 0.05  # the cubes did fall
    assert d[1e-9] < 1e-6                # 50x the measured 1.9e-8 m (cube edge 0.1 m)
    assert d[1e-6] > 100 * d[1e-9]       # measured ratio ~1200 for a 1000x tighter epsilon


@needs_siconos
def test_resting_block_contact_forces_carry_its_weight(outdir):
    sol = SOLFEC("DYNAMIC", 2e-3, outdir)
    sol.verbose = "OFF"
    bulk = BULK_MATERIAL(sol, density=1000.0)
    SURFACE_MATERIAL(sol, friction=0.4)
    CONTACT_POINTS(sol, 4)  # a 4-point patch: W of rank 6 with 12 unknowns (R not unique)
    floor = BODY(sol, "OBSTACLE", slab(), bulk)
    b = BODY(sol, "RIGID", box(-0.5, -0.5, 0.0, 1, 1, 1), bulk)
    GRAVITY(sol, (0, 0, -10))
    si = SICONOS_SOLVER(epsilon=1e-10, maxiter=1000)
    RUN(sol, si, 0.1)
    assert si.error == "OK" and si.iters >= 1
    load = sum(c.R[2] for c in sol.constraints if floor in c.adjbod)
    assert len(sol.constraints) == 4
    # Static equilibrium: R_N of the contact points sums to m g; relative tolerance 1e-8
    # (Siconos' residual 1e-10 relative to |R|, |U|, |B|).
    assert load == pytest.approx(10 * b.mass, rel=1e-8)
    assert abs(b.velo[5]) < 1e-8


@needs_siconos
def test_restitution_bounce_velocity():
    # A sphere falling at v0 = -2 m/s onto a floor with restitution 0.5: the impact step
    # solves U_N + 0.5 min(0, U_N^t) >= 0, so the sphere leaves at 0.5 * 2 m/s (velocity-level
    # Newton law, manual 7.1), the same as the Gauss-Seidel solver.
    up = {}
    for name, solver in (("GS", GAUSS_SEIDEL_SOLVER(1e-12, 1000)),
                         ("SI", SICONOS_SOLVER(epsilon=1e-12))):
        sol = SOLFEC("DYNAMIC", 1e-3, tempfile.mkdtemp(prefix="siconos-"))
        sol.verbose = "OFF"
        bulk = BULK_MATERIAL(sol, density=1000.0)
        SURFACE_MATERIAL(sol, friction=0.0, restitution=0.5)
        BODY(sol, "OBSTACLE", slab(), bulk)
        ball = BODY(sol, "RIGID", SPHERE((0, 0, 0.1005), 0.1, 1, 1), bulk)
        INITIAL_VELOCITY(ball, (0, 0, -2), (0, 0, 0))
        RUN(sol, solver, 0.01)
        up[name] = ball.velo[5]
    assert up["SI"] == pytest.approx(1.0, abs=1e-9)
    assert up["SI"] == pytest.approx(up["GS"], abs=1e-9)


@needs_siconos
def test_cohesion_holds_a_hanging_block_until_overloaded(outdir):
    sol = SOLFEC("DYNAMIC", 1e-3, outdir)
    sol.verbose = "OFF"
    bulk = BULK_MATERIAL(sol, density=1000.0)
    # a 1 m^3 block (weight 1e4 N) glued under a ceiling by a unit-area contact
    SURFACE_MATERIAL(sol, friction=0.5, cohesion=2e4)
    ceiling = HULL([-5, -5, 1, 5, -5, 1, 5, 5, 1, -5, 5, 1,
                    -5, -5, 2, 5, -5, 2, 5, 5, 2, -5, 5, 2], 1, 1)
    BODY(sol, "OBSTACLE", ceiling, bulk)
    b = BODY(sol, "RIGID", box(-0.5, -0.5, 0.0, 1, 1, 1.0001), bulk)  # overlaps the ceiling
    GRAVITY(sol, (0, 0, -10))
    si = SICONOS_SOLVER(epsilon=1e-10)
    RUN(sol, si, 0.2)
    z0 = b.conf[11]
    assert abs(z0 - 0.50005) < 1e-6  # held: cohesion 2e4 Pa * 1 m^2 > 1e4 N
    assert sum(c.R[2] for c in sol.constraints) == pytest.approx(-10 * b.mass, rel=1e-6)
    GRAVITY(sol, (0, 0, -30))  # 3e4 N > 2e4 N: the bond breaks and the block falls
    RUN(sol, si, 0.2)
    assert b.conf[11] < z0 - 0.1


@needs_siconos
def test_bilateral_constraints_are_refused_with_the_constraint_named(outdir):
    sol = SOLFEC("DYNAMIC", 1e-3, outdir)
    sol.verbose = "OFF"
    bulk = BULK_MATERIAL(sol, density=1000.0)
    SURFACE_MATERIAL(sol, friction=0.5)
    b = BODY(sol, "RIGID", box(0, 0, 0, 1, 1, 1), bulk)
    FIX_POINT(b, (0, 0, 1))
    GRAVITY(sol, (0, 0, -10))
    with pytest.raises(ValueError, match=r"SICONOS_SOLVER: constraint row 0 is an equality "
                                         r"row \(FIX_POINT"):
        RUN(sol, SICONOS_SOLVER(), 0.01)


@needs_siconos
def test_unconverged_steps_are_reported_like_the_other_solvers(outdir, capfd):
    sol, _ = cubes_scene(2, 5e-3, outdir)
    si = SICONOS_SOLVER(epsilon=1e-14, maxiter=1)
    RUN(sol, si, 0.25)
    assert si.error == "DIVERGED" and si.iters == 1
    assert "did not reach epsilon 1e-14 in 1 iterations" in si.message
    assert "WARNING: SICONOS_SOLVER did not converge" in capfd.readouterr().err


@needs_siconos
def test_fclib_solve_with_siconos_matches_the_runs_velocities(tmp_path):
    # The last step of the 27-cube pile, written by LOCDYN_DUMP and solved again from zero by
    # SICONOS_SOLVER: the contact velocities equal the run's (Gauss-Seidel, epsilon 1e-10) to
    # the solvers' tolerance, relative to the free velocities q (R itself is not unique
    # where a cube rests on several points).
    import h5py
    sol, _ = cubes_scene(3, 5e-3, str(tmp_path / "out"))
    RUN(sol, GAUSS_SEIDEL_SOLVER(1e-10, 100000, meritval=1.0), 0.25)
    path = str(tmp_path / "step.h5")
    nc = LOCDYN_DUMP(sol, path)
    assert nc > 27
    R, U, merit = FCLIB_SOLVE(path, SICONOS_SOLVER(epsilon=1e-10, maxiter=100000))
    with h5py.File(path, "r") as f:
        u_run = np.asarray(f["solution/u"]).reshape(nc, 3)
        q = np.asarray(f["fclib_local/vectors/q"])
    assert np.abs(U - u_run).max() < 1e-9 * np.abs(q).max()  # measured 1e-10 |q|
    assert merit < 1e-16


def _cone_projection(x, mu):
    """Projection of x = (T1, T2, N) on the Coulomb cone |x_T| <= mu x_N."""
    t, n = np.hypot(x[0], x[1]), x[2]
    if t <= mu * n:
        return x
    if mu * t <= -n:
        return np.zeros(3)
    a = (mu * t + n) / (mu * mu + 1.0)
    return np.array([mu * a * x[0] / t, mu * a * x[1] / t, a])


@needs_siconos
def test_residual_is_siconos_error_of_the_step_in_impulse_units(outdir):
    # The problem goes to Siconos in its Moreau-Jean form (r = h R, M = W / h, q = B): the
    # residual Siconos reports is fc3d_compute_error of that problem, evaluated here in numpy
    # from the step's R, U, B: sqrt(sum |r - proj_K(r - u - mu |u_T| e_N)|^2) /
    # max(|r|, |u|, |q|) (the function GAUSS_SEIDEL_SOLVER's 'residual' uses).
    h = 5e-3
    sol, _ = cubes_scene(3, h, outdir)
    si = SICONOS_SOLVER(epsilon=1e-6, maxiter=100000)
    RUN(sol, si, 60 * h)
    p = sol._domain.last_problem()
    n = len(p["kind"])
    R, U, B = (np.asarray(p[k]).reshape(n, 3) for k in ("R", "U", "B"))
    mu = np.asarray(p["mu"])
    C = []
    for i in range(n):
        u = U[i] + np.array([0.0, 0.0, mu[i] * np.hypot(U[i, 0], U[i, 1])])
        C.append(h * R[i] - _cone_projection(h * R[i] - u, mu[i]))
    err = np.linalg.norm(C) / max(h * np.linalg.norm(R), np.linalg.norm(U), np.linalg.norm(B))
    assert 0.0 < si.siconos_error <= 1e-6  # Siconos' dparam[SICONOS_DPARAM_RESIDU]
    assert si.siconos_error == pytest.approx(err, rel=1e-8)  # measured agreement 6e-11
    assert si.resid == pytest.approx(err, rel=1e-8)  # ours (merit.h RelativeResidual)
