"""FINITE_ELEMENT deck pieces shared by the validation tests: HEX bars along x, tip-face
load weights, roller supports, a clamped cantilever and the rotating bar of the co-rotated
report (section 8.1) with its energy history and convergence errors, and a block settling on
a floor."""

import numpy as np

from solfec import (BODY, BULK_MATERIAL, ENERGY, FIX_DIRECTION, FIX_POINT, FORCE,
                    GAUSS_SEIDEL_SOLVER, GRAVITY, HEX, INITIAL_VELOCITY, NEWTON_SOLVER, RUN,
                    SOLFEC, SURFACE_MATERIAL)
from shapes_for_tests import slab

RHO = 1000.0


def bar_corners(L, a):
    """HEX corner nodes of the bar [0, L] x [0, a] x [0, a] (axis x)."""
    return [0, 0, 0, L, 0, 0, L, a, 0, 0, a, 0, 0, 0, a, L, 0, a, L, a, a, 0, a, a]


def face_weights(p, a, ny, nz):
    """Consistent nodal share of a uniform traction on the x = const face of an ny x nz grid
    of bilinear quads: 1/(ny nz) per node scaled by 1/2 on each face edge it lies on."""
    wy = 0.5 if abs(p[1]) < 1e-12 or abs(p[1] - a) < 1e-12 else 1.0
    wz = 0.5 if abs(p[2]) < 1e-12 or abs(p[2] - a) < 1e-12 else 1.0
    return wy * wz / (ny * nz)


def roller_supports(b, X, a):
    """Rollers at x = 0 (FIX_DIRECTION along x on every root node: free lateral contraction)
    plus three lateral fixings that remove the rigid modes without restraining a uniform
    state; X = the body's referential nodes (n x 3), a = the cross-section edge."""
    for p in X[np.abs(X[:, 0]) < 1e-12]:
        FIX_DIRECTION(b, tuple(p), (1, 0, 0))
    FIX_DIRECTION(b, (0, 0, 0), (0, 1, 0))
    FIX_DIRECTION(b, (0, 0, 0), (0, 0, 1))
    FIX_DIRECTION(b, (0, a, 0), (0, 0, 1))
    FIX_DIRECTION(b, (0, 0, a), (0, 1, 0))


def cantilever_tip_deflection(outdir, nx, ny, nz, E, L, a, P):
    """Mean tip-face deflection of a HEX8 cantilever [0, L] x [0, a]^2 (nu = 0) clamped by
    FIX_POINT at x = 0 under a constant tip load P, after 5 QUASI_STATIC steps of 0.1 s."""
    sol = SOLFEC("QUASI_STATIC", 0.1, outdir)
    sol.verbose = "OFF"
    bulk = BULK_MATERIAL(sol, young=E, poisson=0.0, density=RHO)
    b = BODY(sol, "FINITE_ELEMENT", HEX(bar_corners(L, a), nx, ny, nz, 1, [1] * 6), bulk)
    X = np.array(b.conf).reshape(-1, 3)
    for p in X[np.abs(X[:, 0]) < 1e-12]:  # clamped root
        FIX_POINT(b, tuple(p))
    tip = np.abs(X[:, 0] - L) < 1e-12
    for p in X[tip]:  # uniform shear traction on the tip face, total P
        FORCE(b, "SPATIAL", tuple(p), (0, 0, -1), P * face_weights(p, a, ny, nz))
    RUN(sol, NEWTON_SOLVER(meritval=1e-24), 0.5)
    x = np.array(b.conf).reshape(-1, 3)
    return -(x[tip, 2] - X[tip, 2]).mean()


# Rotating bar of the co-rotated report, section 8.1: 0.1 x 0.1 x 1 m along z.
ROTATING_BAR = [0, 0, 0, 0.1, 0, 0, 0.1, 0.1, 0, 0, 0.1, 0,
                0, 0, 1, 0.1, 0, 1, 0.1, 0.1, 1, 0, 0.1, 1]


def rotating_bar(outdir, h, form="TL", base=None, young=200e4, damping=0.0):
    """Report 8.1: E = 200E4 Pa (default), nu = 0.26, rho = 7.8E3, 2 x 2 x 20 HEX8, initial
    angular velocity 1 rad/s about x, DEF_LIM, stiffness damping `damping`."""
    sol = SOLFEC("DYNAMIC", h, outdir)
    sol.verbose = "OFF"
    bulk = BULK_MATERIAL(sol, young=young, poisson=0.26, density=7.8e3)
    b = BODY(sol, "FINITE_ELEMENT", HEX(ROTATING_BAR, 2, 2, 20, 1, [1] * 6), bulk, form=form,
             base=base)
    b.scheme = "DEF_LIM"
    b.damping = damping
    INITIAL_VELOCITY(b, (0, 0, 0), (1, 0, 0))
    return sol, b


def energy_history(sol, b, duration, interval=0.25):
    """E0 and the kinetic + internal energy of body b every `interval` seconds of a run."""
    gs = GAUSS_SEIDEL_SOLVER(1e-8, 100)
    e0 = sum(ENERGY(sol, b)[:2])
    energies = []
    for _ in range(int(round(duration / interval))):
        RUN(sol, gs, interval)
        energies.append(sum(ENERGY(sol, b)[:2]))
    return e0, np.array(energies)


def assert_bounded_energy(e0, energies, bound, growth):
    """|E/E0 - 1| < bound, and the second half of the history stays within the first half's
    range widened by `growth` (relative to E0): oscillation without secular drift."""
    rel = energies / e0 - 1
    assert np.abs(rel).max() < bound
    half = len(rel) // 2
    assert rel[half:].max() < rel[:half].max() + growth
    assert rel[half:].min() > rel[:half].min() - growth


def rotating_bar_convergence_errors(tmp_path, form="TL", T=1.0 / 16, base=256):
    """Max node position errors at time T for h = 1/base, 1/(2 base), 1/(4 base) against the
    h = 1/(8 base) run of the rotating bar (report fig. 5)."""
    q = []
    for k in range(4):
        h = 1.0 / (base * 2 ** k)
        sol, b = rotating_bar(str(tmp_path / f"h{k}"), h, form)
        RUN(sol, GAUSS_SEIDEL_SOLVER(1e-8, 100), T)
        assert abs(sol.time - T) < 1e-12 * T
        q.append(np.array(b.conf))
    return [np.abs(qk - q[3]).max() for qk in q[:3]]


# Unit cube block 1 mm above the floor z = 0 (HEX corners).
BLOCK_ABOVE_FLOOR = [-0.5, -0.5, 0.001, 0.5, -0.5, 0.001, 0.5, 0.5, 0.001, -0.5, 0.5, 0.001,
                     -0.5, -0.5, 1.001, 0.5, -0.5, 1.001, 0.5, 0.5, 1.001, -0.5, 0.5, 1.001]


def floor_deck(outdir, rho=RHO, young=1e7):
    """SOLFEC (h = 1 ms), a material and a frictionless, restitution-0 OBSTACLE slab whose top
    face is z = 0; returns (solfec, bulk)."""
    sol = SOLFEC("DYNAMIC", 1e-3, outdir)
    sol.verbose = "OFF"
    bulk = BULK_MATERIAL(sol, young=young, poisson=0.25, density=rho)
    SURFACE_MATERIAL(sol, friction=0.0, restitution=0.0)
    BODY(sol, "OBSTACLE", slab(), bulk)
    return sol, bulk


def settle_on_floor(sol, b, g=9.81, duration=1.0):
    """Gravity g, stiffness damping 1e-2 (lowest axial mode ratio ~0.8), run; then the floor
    carries the weight to the solver accuracy (1e-10 -> 1e-6 relative) and the body rests."""
    b.damping = 1e-2
    GRAVITY(sol, (0, 0, -g))
    RUN(sol, GAUSS_SEIDEL_SOLVER(1e-10, 1000, meritval=1e-16), duration)
    reaction = sum(con.R[2] for con in b.constraints if con.kind == "CONTACT")
    assert abs(reaction - b.mass * g) < 1e-6 * b.mass * g
    assert np.linalg.norm(b.velo) < 1e-5
