"""ENERGY accounts for PUT_SPRING elements: stored elastic energy in INTERNAL, dashpot work in
CONTACT, so KINETIC + INTERNAL - EXTERNAL - CONTACT - FRICTION stays constant."""

import math

import numpy as np
import pytest

from solfec import *  # noqa: F401,F403


def oscillator(outdir, c_over_m, two_bodies=False, T=1.0):
    """A ball of mass m on a follower spring k = m w^2 (w = 4 pi: period 0.5 s) to a fixed
    point 1 m above it (or to a second, equal ball 1 m above it), no gravity, started with
    0.1 m/s along the spring; dashpot c = c_over_m m. 200 steps a period. Returns the
    ENERGY tuple after every step (row 0: the start), m, k and the model objects."""
    h = 0.5 / 200
    sol = SOLFEC("DYNAMIC", h, outdir)
    sol.verbose = "OFF"
    OUTPUT(sol, 100.0)
    bulk = BULK_MATERIAL(sol, young=1e9, poisson=0.25, density=1000.0)
    SURFACE_MATERIAL(sol)
    b = BODY(sol, "RIGID", SPHERE((0, 0, 0), 0.1, 1, 1), bulk)
    m = b.mass
    w = 4 * math.pi
    k, c = m * w * w, c_over_m * m
    f = lambda s, v: -k * s - c * v  # noqa: E731
    other = None
    if two_bodies:
        other = BODY(sol, "RIGID", SPHERE((0, 0, 1), 0.1, 1, 1), bulk)
        PUT_SPRING(other, (0, 0, 1), b, (0, 0, 0), f)
    else:
        PUT_SPRING(None, (0, 0, 1), b, (0, 0, 0), f)
    INITIAL_VELOCITY(b, (0, 0, 0.1), (0, 0, 0))
    rows = [ENERGY(sol)]
    CALLBACK(sol, h, (), lambda: rows.append(ENERGY(sol)) or True)
    RUN(sol, GAUSS_SEIDEL_SOLVER(1e-12, 100, meritval=1e-20), T)
    return np.array(rows), m, k, sol, b, other


def test_undamped_spring_keeps_kinetic_plus_spring_energy(outdir):
    E, m, k, *_ = oscillator(outdir, 0.0)
    kin, internal = E[:, 0], E[:, 1]
    E0 = 0.5 * m * 0.1 ** 2
    assert kin[0] == pytest.approx(E0, rel=1e-12)
    # The spring's energy is really exchanged: at the turning points it holds nearly all
    # of E0 (amplitude 0.1 / w, k (0.1 / w)^2 / 2 = E0).
    assert internal.max() == pytest.approx(E0, rel=1e-3)
    assert internal.min() >= 0.0
    # The implicit midpoint spring conserves m v^2/2 + k s^2/2 exactly for a stroke linear
    # in the motion (here along the axis); what is left is the solver tolerance (epsilon
    # 1e-12) and round-off over 400 steps (measured 3e-14 E0; bound 1e-11 E0).
    assert np.abs(kin + internal - E0).max() <= 1e-11 * E0
    # No dissipation and no other work.
    assert np.abs(E[:, 2:]).max() <= 1e-11 * E0


def test_dashpot_dissipates_monotonically_and_closes_the_balance(outdir):
    # c / m = 1 / s: the amplitude decays as exp(-c t / 2m); the energy roughly as exp(-t).
    E, m, k, *_ = oscillator(outdir, 1.0)
    kin, internal, contact = E[:, 0], E[:, 1], E[:, 3]
    E0 = 0.5 * m * 0.1 ** 2
    total = kin + internal
    # The dashpot's work c v^2 h per step is > 0 in every step with v != 0.
    assert np.all(np.diff(total) < 0.0)
    assert total[-1] == pytest.approx(E0 * math.exp(-1.0), rel=0.05)
    # The dissipated energy is the (negative) dashpot work in CONTACT: the balance closes
    # to the solver tolerance (exact for a linear dashpot, see springs.h).
    assert np.abs(total - contact - E0).max() <= 1e-11 * E0
    assert contact[-1] < 0.0


def test_spring_between_two_bodies_shares_its_energy(outdir):
    E, m, k, sol, b1, b2 = oscillator(outdir, 0.5, two_bodies=True, T=0.5)
    e1, e2 = ENERGY(sol, b1), ENERGY(sol, b2)
    both = ENERGY(sol, [b1, b2])
    # Half of the stored energy and of the dashpot work to each body.
    assert e1[1] == pytest.approx(e2[1], rel=1e-12)
    assert e1[3] == pytest.approx(e2[3], rel=1e-12)
    assert both[1] == pytest.approx(E[-1, 1], rel=1e-12)
    assert e1[1] + e2[1] == pytest.approx(E[-1, 1], rel=1e-12)
    # Two free bodies: the balance closes as for one (the second ball moves too).
    E0 = 0.5 * m * 0.1 ** 2
    assert np.abs(E[:, 0] + E[:, 1] - E[:, 3] - E0).max() <= 1e-11 * E0


def test_results_file_stores_the_spring_energy_with_the_bodies(outdir):
    # HISTORY reads the per-body energies written to the results file: the spring's stored
    # energy appears in INTERNAL there as in the live ENERGY (output every 0.125 s).
    E, m, k, sol, b, _ = oscillator(outdir, 0.0, T=0.5)
    OUTPUT(sol, 0.0)
    RUN(sol, GAUSS_SEIDEL_SOLVER(1e-12, 100, meritval=1e-20), 0.125)
    live = ENERGY(sol)
    t, internal, kinetic = HISTORY(sol, [(sol, "INTERNAL"), (sol, "KINETIC")])
    assert t[-1] == pytest.approx(sol.time)
    assert internal[-1] == pytest.approx(live[1], rel=1e-12)
    assert kinetic[-1] == pytest.approx(live[0], rel=1e-12)
    assert internal[-1] > 0.1 * 0.5 * m * 0.1 ** 2  # the spring holds energy at that time
