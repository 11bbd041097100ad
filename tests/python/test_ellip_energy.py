"""Energy of elastic ellipsoids: a pile of rigid ellipsoids dropped into a closed box and a
bouncing pseudo-rigid ellipsoid, frictionless contacts with restitution 1, keep kinetic +
potential (+ elastic) energy within the time-integration error, which falls as h^2, plus the
work of the contact law's one non-conservative case, which stays small.

The accounting: within a step the impulses R change the velocity by M^-1 H^T R, so the kinetic
energy changes by the sum over contacts of R . (U + V) / 2 (V = H u(t) the relative velocity at
the start of the step, U at its end): ENERGY's contact work. Gravity's work over a step is
-m g (z(t+h) - z(t)) exactly (z moves with the mean of the two velocities). So
E - E0 - contact work is the integration of the bodies between the impulses: exact for spheres
(the control run keeps the energy to round-off), second order for ellipsoids (unequal
principal moments: the rotation update) and for the pseudo-rigid body's vibration (DEF_LIM).

The contact work: the law U_N = -e min(0, V_N) (Solfec-1.0's) with e = 1 makes R_N > 0 only
where U_N = -V_N for a contact approaching at the start of the step, and those terms vanish;
but a contact separating at the start (V_N > 0) that gravity or an impulse elsewhere in the
same step would close gets U_N = 0 (plastic: min(0, V_N) = 0) and R_N V_N / 2 > 0 of work. In
the pile of spheres below this does not occur (it does in denser piles settling at rest:
45 spheres of radius 0.1 m in a 0.6 m box gained 0.05 to 0.8 J of 945 J in 2 s, h = 0.5 to
2 ms); ellipsoids rocking on the floor (the contact point moves with the rotation, so V_N
changes sign from step to step) and ellipsoids pressed by two neighbours in one step do it,
so the ellipsoid pile gains a little energy (measured 0.03 % to 0.3 % of its largest kinetic
energy, not converging with h: a few such events)."""

import math

import numpy as np
import pytest

from solfec import *  # noqa: F401,F403

G = 10.0


def box(x0, y0, z0, x1, y1, z1):
    return HULL([x0, y0, z0, x1, y0, z0, x1, y1, z0, x0, y1, z0,
                 x0, y0, z1, x1, y0, z1, x1, y1, z1, x0, y1, z1], 1, 1)


def pile(outdir, step, shape, speed=1.0):
    """54 bodies (3 x 3 x 6 lattice, pitch 1/3 m across and 0.25 m up, lowest centres at
    0.15 m) in a closed box 1 m x 1 m x 2 m, each turned and thrown differently (velocity
    components up to `speed` m/s, angular velocity up to `speed` rad/s): ellipsoids of
    semi-axes (0.15, 0.1, 0.08) m or spheres of radius 0.1 m. Frictionless, restitution 1,
    gravity 10 m/s^2."""
    sol = SOLFEC("DYNAMIC", step, outdir)
    sol.verbose = "OFF"
    bulk = BULK_MATERIAL(sol, young=1e9, poisson=0.25, density=1000.0)
    SURFACE_MATERIAL(sol, friction=0.0, restitution=1.0)
    L = 0.5
    BODY(sol, "OBSTACLE", [box(-L, -L, -0.1, L, L, 0), box(-L - 0.1, -L, 0, -L, L, 2),
                           box(L, -L, 0, L + 0.1, L, 2), box(-L, -L - 0.1, 0, L, -L, 2),
                           box(-L, L, 0, L, L + 0.1, 2), box(-L, -L, 2, L, L, 2.1)], bulk)
    bodies = []
    for i in range(3):
        for j in range(3):
            for k in range(6):
                c = (-L + (i + 0.5) / 3, -L + (j + 0.5) / 3, 0.15 + 0.25 * k)
                n = 9 * k + 3 * j + i
                if shape == "ELLIP":
                    s = ELLIP(c, (0.15, 0.1, 0.08), 1, 1)
                    ROTATE(s, c, (math.sin(n + 1.0), math.cos(2.0 * n), 0.5), 37.0 * n % 180)
                else:
                    s = SPHERE(c, 0.1, 1, 1)
                b = BODY(sol, "RIGID", s, bulk)
                INITIAL_VELOCITY(b, (speed * math.sin(3.0 * n), speed * math.cos(5.0 * n),
                                     speed * math.sin(7.0 * n)),
                                 (speed * math.cos(n), speed * math.sin(2.0 * n), 0.3 * speed))
                bodies.append(b)
    GRAVITY(sol, (0, 0, -G))
    return sol, bodies


def run_pile(outdir, step, shape, duration, speed=1.0):
    """Runs the pile; returns the deviations of kinetic + potential energy from the start,
    the same less the contact work, the largest kinetic energy, the contact work at the end
    and the mean contacts per step."""
    sol, bodies = pile(outdir, step, shape, speed)
    gs = GAUSS_SEIDEL_SOLVER(1e-10, 1000, meritval=1e-14)

    def energy():
        kin, _, _, work, _ = ENERGY(sol)
        return kin, kin + sum(b.mass * G * b.conf[11] for b in bodies), work

    E0 = energy()[1]
    dev, res, kmax, ncon = [], [], 0.0, 0
    for _ in range(round(duration / step)):
        RUN(sol, gs, step)
        kin, E, work = energy()
        dev.append(E - E0)
        res.append(E - E0 - work)
        kmax = max(kmax, kin)
        ncon += sol.ncon
    return np.array(dev), np.array(res), kmax, ENERGY(sol)[3], ncon / len(dev)


def test_elastic_ellipsoid_pile_keeps_its_energy_to_the_integration_error(tmp_path):
    dev2, res2, kmax2, work2, ncon2 = run_pile(str(tmp_path / "e2"), 2e-3, "ELLIP", 1.0)
    dev1, res1, kmax1, work1, ncon1 = run_pile(str(tmp_path / "e1"), 1e-3, "ELLIP", 1.0)
    int2, int1 = np.abs(res2).max() / kmax2, np.abs(res1).max() / kmax1
    print("ellipsoid pile: max |E - E0| / max kinetic %.2e (h = 2 ms), %.2e (1 ms); without "
          "the contact work %.2e, %.2e; contact work %.2e, %.2e of max kinetic; contacts per "
          "step %.1f, %.1f" % (np.abs(dev2).max() / kmax2, np.abs(dev1).max() / kmax1, int2,
                               int1, work2 / kmax2, work1 / kmax1, ncon2, ncon1))
    # Something happened: the pile collapsed (potential energy into kinetic), with impacts
    # between the ellipsoids and on the walls in many steps.
    assert kmax1 > 1000.0 and ncon1 > 1.0
    # The integration error (E - E0 - contact work): measured 4.0e-4 and 1.1e-4 of the
    # largest kinetic energy at h = 2 and 1 ms (2.2e-5 at 0.5 ms; speeds 0.5 to 2 x these
    # alike): second order. Bounds with a margin of 2, and the order above 1.3.
    assert int1 < 2.5e-4
    assert int2 / int1 > 2.5
    # The contact law's plastic clipping of separating contacts only adds energy (R_N > 0,
    # V_N > 0; 1e-8 J for the solver's round-off) and little: measured 9e-4 and 2.8e-4 of the
    # largest kinetic energy (up to 3e-3 with twice the speeds); bound 3e-3.
    assert work1 > -1e-8 and work2 > -1e-8
    assert work1 < 3e-3 * kmax1 and work2 < 3e-3 * kmax2
    # So the total: within 3.3e-3 of the largest kinetic energy (measured 4e-4 at 1 ms).
    assert np.abs(dev1).max() < 3.3e-3 * kmax1


def test_sphere_pile_keeps_its_energy_to_round_off(tmp_path):
    # The control: the same pile of spheres (isotropic inertia, no rocking) keeps kinetic +
    # potential energy to round-off, so the accounting above is exact.
    dev, res, kmax, work, ncon = run_pile(str(tmp_path / "s"), 2e-3, "SPHERE", 1.0)
    assert ncon > 1.0 and kmax > 500.0
    assert np.abs(dev).max() < 1e-12 * kmax  # measured 2e-15
    assert abs(work) < 1e-8


def bounce(outdir, step):
    """A pseudo-rigid ellipsoid (KIRCHHOFF, E = 1e7 Pa, rho = 1000, semi-axes 0.3, 0.2,
    0.1 m, turned 35 degrees about (1, 2, 0), scheme DEF_LIM) thrown at a frictionless floor
    (restitution 1) at (0.5, 0, -1) m/s spinning at (0, 2, 1) rad/s, for 0.5 s: returns the
    deviations of kinetic + elastic + potential energy, the largest kinetic energy, the
    contact work and the number of impacts."""
    sol = SOLFEC("DYNAMIC", step, outdir)
    sol.verbose = "OFF"
    bulk = BULK_MATERIAL(sol, model="KIRCHHOFF", young=1e7, poisson=0.25, density=1000.0)
    SURFACE_MATERIAL(sol, friction=0.0, restitution=1.0)
    BODY(sol, "OBSTACLE", box(-5, -5, -1, 5, 5, 0), bulk)
    e = ELLIP((0, 0, 0.5), (0.3, 0.2, 0.1), 1, 1)
    ROTATE(e, (0, 0, 0.5), (1, 2, 0), 35)
    b = BODY(sol, "PSEUDO_RIGID", e, bulk)
    b.scheme = "DEF_LIM"
    INITIAL_VELOCITY(b, (0.5, 0, -1), (0, 2, 1))
    GRAVITY(sol, (0, 0, -G))
    gs = GAUSS_SEIDEL_SOLVER(1e-12, 1000, meritval=1e-16)

    def energy():
        kin, internal = ENERGY(sol)[:2]
        return kin, internal, kin + internal + b.mass * G * b.conf[11]

    E0 = energy()[2]
    dev, kmax, umax, impacts, touching = [], 0.0, 0.0, 0, False
    for _ in range(round(0.5 / step)):
        RUN(sol, gs, step)
        kin, internal, E = energy()
        dev.append(E - E0)
        kmax, umax = max(kmax, kin), max(umax, internal)
        impacts += sol.ncon > 0 and not touching
        touching = sol.ncon > 0
    return np.array(dev), kmax, umax, ENERGY(sol)[3], impacts


def test_bouncing_pseudo_rigid_ellipsoid_keeps_kinetic_elastic_and_potential_energy(tmp_path):
    dev2, kmax2, umax2, work2, n2 = bounce(str(tmp_path / "b2"), 1e-3)
    dev1, kmax1, umax1, work1, n1 = bounce(str(tmp_path / "b1"), 5e-4)
    err2, err1 = np.abs(dev2).max() / kmax2, np.abs(dev1).max() / kmax1
    print("pseudo-rigid bounce: max |E - E0| / max kinetic %.2e (h = 1 ms), %.2e (0.5 ms); "
          "impacts %d, %d; largest elastic energy %.1f, %.1f J" % (
              err2, err1, n2, n1, umax2, umax1))
    # It bounced, and the impacts set it vibrating (elastic energy a sizeable share).
    assert n1 >= 2 and umax1 > 0.05 * kmax1
    assert abs(work2) < 1e-8 and abs(work1) < 1e-8
    # No contact work (each impact reverses the normal velocity); the rest is DEF_LIM's
    # integration error, second order: measured 2.5e-2 and 5.3e-3 of the largest kinetic
    # energy at h = 1 and 0.5 ms (ratio 4.7). Bound with a margin of 2, ratio above 3.
    assert err1 < 1e-2
    assert err2 / err1 > 3.0
