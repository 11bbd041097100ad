"""Decks of the floating-frame paper (Lozovskiy & Dubois 2016) shared by test_ffr.py and
tests/benchmarks/run_ffr.py: the spinning cuboid of section 4.1 and the three stacked
cuboids on a shaking base of section 4.2, for any FINITE_ELEMENT form."""

import math

from shapes_for_tests import box
from solfec import (BODY, BULK_MATERIAL, CONTACT_METHOD, DISPLACEMENT, GAUSS_SEIDEL_SOLVER,
                    GRAVITY, HEX, INITIAL_VELOCITY, OUTPUT, RUN, SOLFEC, SURFACE_MATERIAL,
                    TIME_SERIES)


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
    b.scheme = "DEF_LIM"
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


def top_face_points(size, n, z):
    """(points, weights) of the area mean over the face [-a/2, a/2] x [-b/2, b/2] at height z
    (size = (a, b)) meshed by n = (nx, ny) bilinear quadrilaterals: the face nodes with the
    trapezoidal weights, which integrate a bilinear field exactly (weights sum to 1)."""
    pts, wts = [], []
    for i in range(n[0] + 1):
        wx = (0.5 if i in (0, n[0]) else 1.0) / n[0]
        for j in range(n[1] + 1):
            wy = (0.5 if j in (0, n[1]) else 1.0) / n[1]
            pts.append((-size[0] / 2 + i * size[0] / n[0], -size[1] / 2 + j * size[1] / n[1], z))
            wts.append(wx * wy)
    return pts, wts


# Paper section 4.2 in full: 4 x 4 x 8 HEX8 per cuboid (refine=2), h = 1e-4, T = 1.5, the
# upper cuboid 0.8 along x (the paper: the x axis is orthogonal to its largest vertical face)
# and 1 along y, and the plotted quantity as the area mean over the top face (its nodes).
PAPER_STACK = dict(h=1e-4, T=1.5, refine=2, upper=(0.8, 1.0), face="nodes")


def stacked_cuboids(outdir, form, h, T, samples=10, refine=1, damping=1e-4, upper=(1.0, 0.8),
                    face="grid", on_sample=None, contact=None):
    """Section 4.2 in the frame of the shaking base: two 1 x 1 x 2 cuboids centred at
    (0, +-2/3, 1) on a fixed ground plane z = 0 and a 1 x 0.8 x 2 cuboid centred at (0,0,3)
    on top; friction 0.5 with the ground and 0.3 between the cuboids, damping 1e-4 K. The base
    motion v(t) = 0.9 sin(5 pi (t - 0.1) / 3) (t > 0.1) along x enters as the uniform inertia
    force -a(t) m (GRAVITY x component, sampled every 1 ms), which is equivalent to moving
    the base (d'Alembert force of the translating base frame). Meshes 2 x 2 x 4 * refine
    (the paper: 4 x 4 x 8).
    Returns (times, mean x displacement of the top face of the upper cuboid relative to the
    base, sol).
    upper = (x, y) size of the upper cuboid (default 1 x 0.8 as in the short test variant;
    PAPER_STACK uses 0.8 x 1, see there). face = 'grid': the mean over a 3 x 3 grid of
    points of the top face with equal weights (the short test variant); 'nodes': the area mean
    (top_face_points). on_sample(time, dx) is called after each of the samples. contact:
    None (overlap contact of the element convexes) or 'NODE_TO_FACE' (CONTACT_METHOD; form
    'FFR' bodies ignore it and keep overlap contact, so only the default compares forms)."""
    sol = SOLFEC("DYNAMIC", h, outdir)
    sol.verbose = "OFF"
    OUTPUT(sol, T)
    ts = []
    t = 0.0
    while t <= T + 1e-3:
        ts += [t, -base_acceleration(t)]
        t += 1e-3
    GRAVITY(sol, (TIME_SERIES(ts), 0, -9.81))
    if contact is not None:
        CONTACT_METHOD(sol, contact)
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
        b.scheme = "DEF_LIM"
        b.damping = damping
        lower.append(b)
    ux, uy = upper[0] / 2, upper[1] / 2
    top = BODY(sol, "FINITE_ELEMENT",
               HEX(box_corners((-ux, -uy, 2), (ux, uy, 4)), 2 * r, 2 * r, 4 * r, 1,
                   [3] * 6), mat, form=form)
    top.scheme = "DEF_LIM"
    top.damping = damping
    # mean x displacement of the top face over referential points of it
    if face == "nodes":
        grid, wts = top_face_points(upper, (2 * r, 2 * r), 4.0)
    else:
        grid = [(x, y, 4.0) for x in (-ux, 0.0, ux) for y in (-uy, 0.0, uy)]
        wts = [1.0 / len(grid)] * len(grid)
    gs = GAUSS_SEIDEL_SOLVER(1e-6, 1000)
    times, dx = [], []
    for _ in range(samples):
        RUN(sol, gs, T / samples)
        times.append(sol.time)
        dx.append(sum(w * DISPLACEMENT(top, p)[0] for p, w in zip(grid, wts)))
        if on_sample is not None:
            on_sample(times[-1], dx[-1])
    return times, dx, sol
