"""The semicircular masonry arch of Solfec-1.0's tests/arch.py in solfec's deck language.

n rigid voussoirs (default 27) of equal angle pi/n, centre-line radius 10 m, thickness
ratio * 10 m, width 5 m, each a HEX of 3 x 2 x 1 elements graded 2.5% / 95% / 2.5% through
the thickness (the thin edge strips carry the hinges of Solfec-1.0's one-point contacts),
between two OBSTACLE springers of the same section; density 1, SIGNORINI_COULOMB friction
`friction`, restitution 0, gravity 9.81, step 1 ms, CONTACT_SPARSIFY 0.005,
GEOMETRIC_EPSILON 1e-4, GAUSS_SEIDEL_SOLVER(1e-4, 10000) (Solfec-1.0's stopping rule).

    run(S, ratio, ...) -> kinetic energy [J] at the end (S: the solfec module)
    /usr/bin/python3 arch_model.py ratio [n friction duration points]  (prints it; points
    omitted: the default CONTACT_POINTS, Solfec-1.0's one point per pair)
"""
import math
import os
import sys
import tempfile
import time


def voussoir_nodes(alpha, dalpha, radius, thickness, width):
    """The 8 HEX corners (Solfec-1.0's order) of the sector [alpha, alpha + dalpha] (alpha
    from the vertical)."""
    ro, ri = radius + thickness / 2.0, radius - thickness / 2.0
    s0, c0, s1, c1 = (math.sin(alpha), math.cos(alpha), math.sin(alpha + dalpha),
                      math.cos(alpha + dalpha))
    w = width / 2.0
    return [ro * s0, -w, ro * c0, ri * s0, -w, ri * c0, ri * s0, w, ri * c0, ro * s0, w, ro * c0,
            ro * s1, -w, ro * c1, ri * s1, -w, ri * c1, ri * s1, w, ri * c1, ro * s1, w, ro * c1]


def build(S, ratio, n=27, friction=0.5, points=None, outdir=None, radius=10.0, width=5.0):
    """SOLFEC object and voussoir bodies of the arch (contact points per piece pair
    `points`: None = solfec's default, which is Solfec-1.0's one point; 4 = contact patches)."""
    S.GEOMETRIC_EPSILON(1e-4)
    sol = S.SOLFEC("DYNAMIC", 1e-3, outdir or tempfile.mkdtemp(prefix="arch-"))
    sol.verbose = "OFF"
    S.OUTPUT(sol, 1e3)
    S.CONTACT_SPARSIFY(sol, 0.005)
    if points is not None:
        S.CONTACT_POINTS(sol, points)
    S.SURFACE_MATERIAL(sol, model="SIGNORINI_COULOMB", friction=friction)
    mat = S.BULK_MATERIAL(sol, model="KIRCHHOFF", young=1, poisson=0, density=1)
    S.GRAVITY(sol, (0, 0, -9.81))
    da = math.pi / n
    t = ratio * radius
    for alpha in (-0.5 * math.pi - da, 0.5 * math.pi):
        S.BODY(sol, "OBSTACLE", S.HEX(voussoir_nodes(alpha, da, radius, t, width), 1, 1, 1, 0,
                                      [0] * 6), mat)
    bodies = []
    for i in range(n):
        k = 1 + i % 4
        hexa = S.HEX(voussoir_nodes(-0.5 * math.pi + i * da, da, radius, t, width), 3, 2, 1, 0,
                     [k] * 6, [0.05, 1.9, 0.05])
        bodies.append(S.BODY(sol, "RIGID", hexa, mat))
    return sol, bodies


def run(S, ratio, n=27, friction=0.5, duration=0.75, points=None, outdir=None):
    """Kinetic energy [J] of the arch after `duration` [s]."""
    sol, _ = build(S, ratio, n, friction, points, outdir)
    gs = S.GAUSS_SEIDEL_SOLVER(1e-4, 10000)
    S.RUN(sol, gs, duration)
    return S.ENERGY(sol)[0]


if __name__ == "__main__":
    here = os.path.dirname(os.path.abspath(__file__))
    build_dir = os.environ.get("SOLFEC_BUILD_DIR",
                               os.path.join(here, "..", "..", "..", "build"))
    sys.path.insert(0, os.path.join(build_dir, "python"))
    import solfec as S
    a = sys.argv[1:]
    ratio = float(a[0])
    n = int(a[1]) if len(a) > 1 else 27
    mu = float(a[2]) if len(a) > 2 else 0.5
    T = float(a[3]) if len(a) > 3 else 0.75
    pts = int(a[4]) if len(a) > 4 else None   # None: the default (one point per pair)
    t0 = time.time()
    ke = run(S, ratio, n, mu, T, pts)
    print("h/r %.5f n %d friction %g points %s: kinetic energy %.3e J after %g s (%.1f s)"
          % (ratio, n, mu, "default" if pts is None else pts, ke, T, time.time() - t0))
