"""Decks of the floating-frame paper (Lozovskiy & Dubois 2016) shared by test_ffr.py and
tests/benchmarks/run_ffr.py: the spinning cuboid of section 4.1 and the three stacked
cuboids on a shaking base of section 4.2, for any FINITE_ELEMENT form."""

import math

from shapes_for_tests import box
from solfec import (BODY, BULK_MATERIAL, DISPLACEMENT, GAUSS_SEIDEL_SOLVER, GRAVITY, HEX,
                    INITIAL_VELOCITY, OUTPUT, RUN, SOLFEC, SURFACE_MATERIAL, TIME_SERIES)


def box_corners(lo, hi):
    """HEX corner nodes of the box [lo, hi]."""
    (x0, y0, z0), (x1, y1, z1) = lo, hi
    return [x0, y0, z0, x1, y0, z0, x1, y1, z0, x0, y1, z0,
            x0, y0, z1, x1, y0, z1, x1, y1, z1, x0, y1, z1]


def stone(sol):
    """rho 2500, E 35 GPa, nu 0.2 (paper section 4.1)."""
    return BULK_MATERIAL(sol, young=35e9, poisson=0.2, density=2500.0)


def spinning_cuboid(outdir, form, w, h, T, samples=20, n=(4, 4, 8)):
    """Section 4.1: the 1 x 1 x 2 cuboid centred at 0 with n HEX8, v0 = (1,0,0),
    omega0 = (0, w, 0), no loads. Returns (times, dx of (0,0,1), sol)."""
    sol = SOLFEC("DYNAMIC", h, outdir)
    sol.verbose = "OFF"
    OUTPUT(sol, T)
    b = BODY(sol, "FINITE_ELEMENT",
             HEX(box_corners((-0.5, -0.5, -1), (0.5, 0.5, 1)), *n, 1, [1] * 6), stone(sol),
             form=form)
    INITIAL_VELOCITY(b, (1, 0, 0), (0, w, 0))
    gs = GAUSS_SEIDEL_SOLVER(1e-8, 100)
    times, dx = [], []
    for _ in range(samples):
        RUN(sol, gs, T / samples)
        times.append(sol.time)
        dx.append(DISPLACEMENT(b, (0, 0, 1))[0])
    return times, dx, sol


def rigid_dx(t, w):
    """x displacement of (0,0,1) for the rigid motion: t + sin(w t)."""
    return t + math.sin(w * t)


def base_acceleration(t):
    """Derivative of the paper's base velocity 0.9 sin(5 pi (t - 0.1) / 3) for t > 0.1."""
    return 0.0 if t <= 0.1 else 0.9 * 5 * math.pi / 3 * math.cos(5 * math.pi / 3 * (t - 0.1))


def base_displacement(t):
    """Integral of the paper's base velocity: 0.27 / pi (1 - cos(5 pi (t - 0.1) / 3))."""
    return 0.0 if t <= 0.1 else 0.27 / math.pi * (1 - math.cos(5 * math.pi / 3 * (t - 0.1)))


def stacked_cuboids(outdir, form, h, T, samples=10, refine=1, damping=1e-4):
    """Section 4.2 in the frame of the shaking base: two 1 x 1 x 2 cuboids centred at
    (0, +-2/3, 1) on a fixed ground plane z = 0 and a 1 x 0.8 x 2 cuboid centred at (0,0,3)
    on top; friction 0.5 with the ground and 0.3 between the cuboids, damping 1e-4 K. The base
    motion v(t) = 0.9 sin(5 pi (t - 0.1) / 3) (t > 0.1) along x enters as the uniform inertia
    force -a(t) m (GRAVITY x component, sampled every 1 ms), which is equivalent to moving
    the base (Galilean frame change). Meshes 2 x 2 x 4 * refine (the paper: 4 x 4 x 8).
    Returns (times, mean x displacement of the top face of the upper cuboid relative to the
    base, sol)."""
    sol = SOLFEC("DYNAMIC", h, outdir)
    sol.verbose = "OFF"
    OUTPUT(sol, T)
    ts = []
    t = 0.0
    while t <= T + 1e-3:
        ts += [t, -base_acceleration(t)]
        t += 1e-3
    GRAVITY(sol, (TIME_SERIES(ts), 0, -9.81))
    SURFACE_MATERIAL(sol, friction=0.3)
    SURFACE_MATERIAL(sol, surf1=1, surf2=2, friction=0.5)
    mat = stone(sol)
    ground = box(-3, -3, -1, 6, 6, 1, volid=1, surfid=1)
    BODY(sol, "OBSTACLE", ground, mat)
    r = refine
    lower = []
    for y in (2 / 3, -2 / 3):
        lo, hi = (-0.5, y - 0.5, 0), (0.5, y + 0.5, 2)
        b = BODY(sol, "FINITE_ELEMENT", HEX(box_corners(lo, hi), 2 * r, 2 * r, 4 * r, 1,
                                            [2] * 6), mat, form=form)
        b.damping = damping
        lower.append(b)
    top = BODY(sol, "FINITE_ELEMENT",
               HEX(box_corners((-0.5, -0.4, 2), (0.5, 0.4, 4)), 2 * r, 2 * r, 4 * r, 1,
                   [3] * 6), mat, form=form)
    top.damping = damping
    # mean x displacement of the top face: average over a grid of its referential points
    grid = [(x, y, 4.0) for x in (-0.5, 0.0, 0.5) for y in (-0.4, 0.0, 0.4)]
    gs = GAUSS_SEIDEL_SOLVER(1e-6, 1000)
    times, dx = [], []
    for _ in range(samples):
        RUN(sol, gs, T / samples)
        times.append(sol.time)
        dx.append(sum(DISPLACEMENT(top, p)[0] for p in grid) / len(grid))
    return times, dx, sol
