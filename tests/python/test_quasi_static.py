"""QUASI_STATIC analysis through the deck language: two FINITE_ELEMENT blocks pressed onto
an obstacle solved by NEWTON_SOLVER and GAUSS_SEIDEL_SOLVER (issue #6 acceptance), a rigid
block under gravity and the documented pseudo-velocity."""

import numpy as np
import pytest

from solfec import *  # noqa: F401,F403
from shapes_for_tests import box, slab
from fe_decks_for_tests import bar_corners, cantilever_tip_deflection, roller_supports

E_YOUNG, NU, RHO, LOAD = 1e8, 0.25, 1000.0, 1e4
# Contacts exist only where the shapes overlap at q(t) (GEOMETRIC_EPSILON 1e-6): touching
# bodies start with this overlap, far below the compression F L/(E A) = 1e-4 m.
OVERLAP = 1e-4


def unit_block(z0, n=2):
    c = [-0.5, -0.5, z0, 0.5, -0.5, z0, 0.5, 0.5, z0, -0.5, 0.5, z0,
         -0.5, -0.5, z0 + 1, 0.5, -0.5, z0 + 1, 0.5, 0.5, z0 + 1, -0.5, 0.5, z0 + 1]
    return HEX(c, n, n, n, 1, [1] * 6)


def spatial_force(c):
    return np.array(c.base).reshape(3, 3, order="F") @ np.array(c.R)


def pressed_blocks(outdir, solver):
    # h = 0.1: the lowest elastic mode of a block (axial, w ~ (pi/2) sqrt(E/rho) ~ 500 rad/s)
    # has h w = 50. The load ramps over 1 s and is held for 1 s (10 steps).
    sol = SOLFEC("QUASI_STATIC", 0.1, outdir)
    sol.verbose = "OFF"
    bulk = BULK_MATERIAL(sol, young=E_YOUNG, poisson=NU, density=RHO)
    SURFACE_MATERIAL(sol, friction=0.5)  # sticking holds the lateral rigid modes
    BODY(sol, "OBSTACLE", slab(), bulk)
    b1 = BODY(sol, "FINITE_ELEMENT", unit_block(-OVERLAP), bulk)
    b2 = BODY(sol, "FINITE_ELEMENT", unit_block(1 - 2 * OVERLAP), bulk)
    FORCE(b2, "SPATIAL", (0, 0, 2 - 2 * OVERLAP), (0, 0, -1), TIME_SERIES([0, 0, 1, LOAD, 9, LOAD]))
    RUN(sol, solver, 2.0)
    floor = sum(spatial_force(c) for c in b1.constraints
                if c.kind == "CONTACT" and b2 not in c.adjbod)
    between = sum(spatial_force(c) for c in b2.constraints if c.kind == "CONTACT")
    return np.array(b1.conf + b2.conf), floor, between, b1, b2, sol


def test_fe_blocks_pressed_onto_an_obstacle_agree_between_newton_and_gauss_seidel(tmp_path):
    # merit 1e-20 is reached by both (GS: a few to 100 sweeps per step, Newton: <= 4 steps).
    # The merit is the stop compared here ('EITHER': with 'BOTH' epsilon 1e-15 must hold too,
    # which took 16 s instead of 0.6 s for the same agreement).
    qn, fn, bn, b1, b2, sol = pressed_blocks(str(tmp_path / "n"), NEWTON_SOLVER(meritval=1e-20))
    qg, fg, bg, *_ = pressed_blocks(str(tmp_path / "g"),
                                    GAUSS_SEIDEL_SOLVER(1e-15, 100000, meritval=1e-20,
                                                        stopping="EITHER"))
    # Displacements: the top of the stack moves ~ 2 F/(E A) = 2e-4 m; the solvers agree to
    # 3e-11 - 2e-10 m (measured), i.e. up to 1e-6 of it. Where in that range falls with
    # round-off: a relative change of 1e-15 to 1e-12 in the load moves one build's agreement
    # from 5e-11 to 1.1e-10, another's (the inverse isoparametric map by the cofactor
    # inverse instead of a pivoted LU) from 8e-11 to 2.0e-10. Assert 1e-5: ten times that.
    scale = 2 * LOAD / E_YOUNG
    assert np.abs(qn - qg).max() < 1e-5 * scale
    # Equilibrium: the floor carries the load (measured 1e-12 relative) and the interface
    # transmits it (measured 1e-8 Newton, 9e-8 Gauss-Seidel: the merit stopping test).
    for floor, between in ((fn, bn), (fg, bg)):
        assert floor[2] == pytest.approx(LOAD, rel=1e-6)
        assert between[2] == pytest.approx(LOAD, rel=1e-6)
        assert np.linalg.norm(floor[:2]) < 1e-6 * LOAD  # no net lateral reaction
    assert bn[2] == pytest.approx(bg[2], rel=1e-6)
    # The stack is compressed (top corners move down by 0.4 F/(E A) per block, measured).
    x2 = np.array(b2.conf).reshape(-1, 3)
    assert x2[:, 2].max() < 2 - 2 * OVERLAP - 0.2 * scale
    # Kinetic energy of the pseudo-velocity vanishes at equilibrium.
    assert ENERGY(sol, b2)[0] < 1e-12


def test_rigid_block_rests_on_the_floor_with_reaction_mg(outdir):
    sol = SOLFEC("QUASI_STATIC", 0.1, outdir)
    sol.verbose = "OFF"
    bulk = BULK_MATERIAL(sol, young=1e7, poisson=0.25, density=RHO)
    BODY(sol, "OBSTACLE", slab(), bulk)
    b = BODY(sol, "RIGID", box(-0.5, -0.5, -OVERLAP, 1, 1, 1), bulk)
    GRAVITY(sol, (0, 0, -10))
    RUN(sol, GAUSS_SEIDEL_SOLVER(1e-12, 1000, meritval=1e-18), 0.5)
    reaction = sum(spatial_force(c) for c in b.constraints)
    assert reaction[2] == pytest.approx(RHO * 10, rel=1e-9)
    # It does not move: the pseudo-velocity (increment / h) is ~0 and the centre stays.
    assert np.linalg.norm(b.velo) < 1e-9
    assert b.conf[11] == pytest.approx(0.5 - OVERLAP, abs=1e-9)


def test_free_rigid_body_moves_by_h_squared_g_per_step(outdir):
    # Without stiffness a net load is not equilibrated: A = m I gives h u = h^2 g per step,
    # the same in every step (no kinetic memory), so the velo member reads h g.
    sol = SOLFEC("QUASI_STATIC", 0.5, outdir)
    sol.verbose = "OFF"
    bulk = BULK_MATERIAL(sol, young=1e7, poisson=0.25, density=RHO)
    b = BODY(sol, "RIGID", box(0, 0, 0, 1, 1, 1), bulk)
    GRAVITY(sol, (0, 0, -10))
    RUN(sol, GAUSS_SEIDEL_SOLVER(1e-8, 100), 1.5)
    assert b.velo[5] == pytest.approx(-5.0, rel=1e-12)
    assert b.conf[11] == pytest.approx(0.5 - 3 * 0.25 * 10, rel=1e-12)
    assert sol.analysis == "QUASI_STATIC"


def bar_on_rollers(outdir, E, nu, L, a, n):
    """Bar [0, L] x [0, a] x [0, a] (HEX n x 2 x 2, surface id 3 on the x = L face) on
    rollers at x = 0 that leave the lateral contraction free."""
    sol = SOLFEC("QUASI_STATIC", 0.1, outdir)
    sol.verbose = "OFF"
    bulk = BULK_MATERIAL(sol, young=E, poisson=nu, density=RHO)
    mesh = HEX(bar_corners(L, a), n, 2, 2, 1, [1, 1, 1, 3, 1, 1])
    b = BODY(sol, "FINITE_ELEMENT", mesh, bulk)
    X = np.array(b.conf).reshape(-1, 3)
    roller_supports(b, X, a)
    return sol, b, X


def svk_uniaxial(s_cauchy, E, nu):
    """Stretches (lam1, lam2) of an SVK bar under the Cauchy stress s on the current area:
    P11 = lam2^2 s = lam1 E (lam1^2 - 1)/2, lam2^2 = 1 - nu (lam1^2 - 1) (S22 = S33 = 0)."""
    lam1 = 1.0
    for _ in range(100):
        lam2sq = 1 - nu * (lam1 ** 2 - 1)
        r = 0.5 * E * lam1 * (lam1 ** 2 - 1) - lam2sq * s_cauchy
        dr = 0.5 * E * (3 * lam1 ** 2 - 1) + 2 * nu * lam1 * s_cauchy
        lam1 -= r / dr
    return lam1, np.sqrt(1 - nu * (lam1 ** 2 - 1))


def test_prescribed_end_displacement_is_met_exactly_and_the_reaction_is_svk(outdir):
    # SET_DISPLACEMENT targets are positions: in QUASI_STATIC the step is q(t) -> q(t) + h U,
    # so each step must move the point by d(t+h) - d(t) exactly (no over- or undershoot).
    E, nu, L, a, d = 1e9, 0.3, 1.0, 0.1, 2e-3
    sol, b, X = bar_on_rollers(outdir, E, nu, L, a, 4)
    for p in X[np.abs(X[:, 0] - L) < 1e-12]:
        SET_DISPLACEMENT(b, tuple(p), (1, 0, 0), TIME_SERIES([0, 0, 1, d, 10, d]))
    ns = NEWTON_SOLVER(meritval=1e-22)
    RUN(sol, ns, 0.5)  # mid-ramp: the end has followed the series exactly
    x = np.array(b.conf).reshape(-1, 3)
    end = np.abs(X[:, 0] - L) < 1e-12
    assert np.abs(x[end, 0] - (L + 0.5 * d)).max() < 1e-12
    # The interior lags by ~ 1/(h w)^2 of the per-step increment (h w = 157: 8e-9 m;
    # measured 1.9e-9 m).
    assert np.abs(x[:, 0] - X[:, 0] * (1 + 0.5 * d / L)).max() < 1e-8
    RUN(sol, ns, 1.0)
    x = np.array(b.conf).reshape(-1, 3)
    lam1 = 1 + d / L
    assert np.abs(x[:, 0] - lam1 * X[:, 0]).max() < 1e-10  # uniform, end exactly at d
    # Reaction of the prescribed end = A P11 = A lam1 E (lam1^2 - 1)/2 (SVK, uniform).
    end = sum(abs(c.R[2]) for c in b.constraints if c.kind == "VELODIR")
    assert end == pytest.approx(a * a * lam1 * E * (lam1 ** 2 - 1) / 2, rel=1e-6)
    lam2 = np.sqrt(1 - nu * (lam1 ** 2 - 1))
    assert np.abs(x[:, 1] - lam2 * X[:, 1]).max() < 1e-9


def test_follower_pressure_stretches_the_bar_to_the_svk_solution(outdir):
    # A positive PRESSURE (tension) on the x = L face: the load follows the shrinking
    # current face, so the exact state solves P11 = lam2^2 s. Its load stiffness is not in
    # K; the carried residual corrects it over the steps at constant load: stretch error
    # 7e-4, 3e-7, 5e-9 at t = 1, 2, 3 s (lateral deviation 8e-7, 2e-8, 3e-10 m).
    E, nu, L, a, s = 1e8, 0.3, 1.0, 0.1, 1e6  # strain 1e-2
    sol, b, X = bar_on_rollers(outdir, E, nu, L, a, 4)
    PRESSURE(b, 3, TIME_SERIES([0, 0, 1, s, 10, s]), follower=True)
    RUN(sol, NEWTON_SOLVER(meritval=1e-22), 3.0)
    x = np.array(b.conf).reshape(-1, 3)
    lam1, lam2 = svk_uniaxial(s, E, nu)
    assert (x[:, 0].max() - L) == pytest.approx((lam1 - 1) * L, rel=1e-6)
    assert np.abs(x[:, 0] - lam1 * X[:, 0]).max() < 1e-8
    assert np.abs(x[:, 1] - lam2 * X[:, 1]).max() < 1e-8


def test_default_pressure_is_a_dead_load_on_the_referential_face(outdir):
    # The same bar and load with PRESSURE's default (Solfec-1.0's: the referential face, a
    # dead load): the nominal stress is s itself, P11 = lam1 E (lam1^2 - 1)/2 = s, whatever
    # the lateral contraction (strain 1e-2: the follower load's lam2^2 makes a 6e-3 relative
    # difference in the elongation, which the 1e-6 tolerance tells apart).
    E, nu, L, a, s = 1e8, 0.3, 1.0, 0.1, 1e6
    sol, b, X = bar_on_rollers(outdir, E, nu, L, a, 4)
    PRESSURE(b, 3, TIME_SERIES([0, 0, 1, s, 10, s]))
    RUN(sol, NEWTON_SOLVER(meritval=1e-22), 3.0)
    x = np.array(b.conf).reshape(-1, 3)
    lam1 = 1.0
    for _ in range(50):
        lam1 -= (0.5 * E * lam1 * (lam1 ** 2 - 1) - s) / (0.5 * E * (3 * lam1 ** 2 - 1))
    lam2 = np.sqrt(1 - nu * (lam1 ** 2 - 1))
    assert (x[:, 0].max() - L) == pytest.approx((lam1 - 1) * L, rel=1e-6)
    assert np.abs(x[:, 0] - lam1 * X[:, 0]).max() < 1e-8
    assert np.abs(x[:, 1] - lam2 * X[:, 1]).max() < 1e-8


def test_prestressed_clamped_beam_keeps_a_definite_operator_and_a_linear_response(tmp_path):
    # Under 1e4 N the bending stress (~6e7 Pa) puts initial stress on the rigid rotations
    # that only the FIX_POINT constraints hold, so M + h^2 K is indefinite; the shifted
    # operator must keep the run going (it used to stop with 'not positive definite') and
    # give the small-load answer scaled by the load: deflection/L ~ 2e-3, so geometric
    # nonlinearity is ~1e-5 relative; 1e-3 allows for the ramp's carried residual.
    # (E = 2e11, 16 x 2 x 2 HEX8, the tip load held from the start: the initial stress
    # appears from step 2 on.)
    small = cantilever_tip_deflection(str(tmp_path / "small"), 16, 2, 2, 2e11, 1.0, 0.1, 1.0)
    large = cantilever_tip_deflection(str(tmp_path / "large"), 16, 2, 2, 2e11, 1.0, 0.1, 1e4)
    assert large == pytest.approx(1e4 * small, rel=1e-3)


def test_clamped_nodes_hold_exactly_over_many_steps_at_the_default_merit(tmp_path):
    # A clamped steel cantilever (16 x 2 x 2 HEX8, FIX_POINT at x = 0) under a tip load held
    # for 20 QUASI_STATIC steps with NEWTON_SOLVER's default meritval: the supports must not
    # drift (the merit, relative to the large free motion of the loaded step, once let them
    # move by 5.6e-4 of the tip deflection); they hold to round-off (1e-14 m against a tip
    # deflection of 1.7e-3 m) and the deflection equals the tight-merit run's to 1e-10.
    def run(out, merit):
        sol = SOLFEC("QUASI_STATIC", 0.1, out)
        sol.verbose = "OFF"
        bulk = BULK_MATERIAL(sol, young=2e11, poisson=0.0, density=7800.0)
        b = BODY(sol, "FINITE_ELEMENT", HEX(bar_corners(1.0, 0.1), 16, 2, 2, 1, [1] * 6), bulk)
        X = np.array(b.conf).reshape(-1, 3)
        root = np.abs(X[:, 0]) < 1e-12
        for p in X[root]:
            FIX_POINT(b, tuple(p))
        tip = np.abs(X[:, 0] - 1.0) < 1e-12
        for p in X[tip]:
            FORCE(b, "SPATIAL", tuple(p), (0, 0, -1), 1e4 / tip.sum())
        RUN(sol, NEWTON_SOLVER() if merit is None else NEWTON_SOLVER(meritval=merit), 2.0)
        x = np.array(b.conf).reshape(-1, 3)
        return np.abs(x[root] - X[root]).max(), -(x[tip, 2] - X[tip, 2]).mean()

    drift, w = run(str(tmp_path / "default"), None)
    drift_tight, w_tight = run(str(tmp_path / "tight"), 1e-24)
    print(f"root drift {drift:.3e} m (tight merit {drift_tight:.3e}); tip {w:.10e} {w_tight:.10e}")
    assert w > 1e-3
    assert drift < 1e-14 and drift_tight < 1e-14
    assert w == pytest.approx(w_tight, rel=1e-10)
