# Thick-walled cylinder under internal pressure (Lame's solution): the problem of
# Solfec-1.0's BM07 (Code_Aster, "internal pressure on a thick-walled infinite cylinder"),
# here on our own PIPE mesh against the closed form, which needs no outside program.
#   inner radius a = 0.1 m, outer b = 0.2 m, p = 60 MPa on the inner surface, E = 210 GPa,
#   nu = 0.3, open ends (no axial load). Its exact 3D solution, for any length:
#   s_theta(r) = k (1 + b^2 / r^2), s_r(r) = k (1 - b^2 / r^2), s_z = 0, k = p a^2 / (b^2 - a^2)
#   u_r(r)     = k / E ((1 - nu) r + (1 + nu) b^2 / r),  eps_z = -2 nu k / E (uniform)
#   (s_r + s_theta = 2k is uniform, so eps_z is, and the strains are compatible).
# Supports remove the rigid modes only: z at four bottom nodes, y at theta = 0 and 180 deg,
# x at 90 and 270 deg (all zero in the exact solution by symmetry).
# The run solves two meshes, 48 x 8 and 96 x 16 elements (around x through the wall), and
# checks the fine-mesh values and their Richardson extrapolation (displacements converge as
# h^2, nodal stresses at a boundary as h: the value an element gives at its corner node).
# Usage: solfec -w lame_cylinder.py
import math

import numpy as np

a, b, p, E, nu, H = 0.1, 0.2, 60e6, 210e9, 0.3, 0.02


def solve(nrad, nthi):
    # h = 1 ms: the lowest elastic mode of the held ring (ovalisation, w ~ 1e4 rad/s) has
    # h w ~ 10, so each QUASI_STATIC step leaves < 1 % of the equilibrium error; 10 steps at
    # constant load end in equilibrium to round-off.
    sol = SOLFEC('QUASI_STATIC', 1e-3, 'out/validation/lame_cylinder_%d_%d' % (nrad, nthi))
    sol.verbose = 'OFF'
    bulk = BULK_MATERIAL(sol, model='KIRCHHOFF', young=E, poisson=nu, density=7850.0)
    mesh = PIPE((0, 0, 0), (0, 0, H), a, b - a, 1, nrad, nthi, 1, [1, 2, 3, 4])
    body = BODY(sol, 'FINITE_ELEMENT', mesh, bulk)
    for x in np.array(body.conf).reshape(-1, 3):
        if abs(x[2]) > 1e-9 or abs(math.hypot(x[0], x[1]) - a) > 1e-9:
            continue
        if abs(x[1]) < 1e-9:     # theta = 0, 180 deg: u_y = 0 by symmetry
            FIX_DIRECTION(body, tuple(x), (0, 1, 0))
            FIX_DIRECTION(body, tuple(x), (0, 0, 1))
        if abs(x[0]) < 1e-9:     # theta = 90, 270 deg: u_x = 0
            FIX_DIRECTION(body, tuple(x), (1, 0, 0))
            FIX_DIRECTION(body, tuple(x), (0, 0, 1))
    PRESSURE(body, 3, -p)   # Solfec-1.0's sign: negative pushes into the body (gas pressure)
    RUN(sol, NEWTON_SOLVER(meritval=1e-12), 0.01)
    out = {}
    c = math.cos(math.pi / 4)
    for r in (a, b):   # at 45 degrees (a node: nrad is a multiple of 8)
        pnt = (r * c, r * c, 0.0)
        d, s = DISPLACEMENT(body, pnt), STRESS(body, pnt)
        out['u_r(%g)' % r] = (d[0] + d[1]) * c
        out['s_theta(%g)' % r] = 0.5 * (s[0] + s[1]) - s[3]
        out['s_r(%g)' % r] = 0.5 * (s[0] + s[1]) + s[3]
    return out


coarse, fine = solve(48, 8), solve(96, 16)
k = p * a * a / (b * b - a * a)
def u_r(r): return k / E * ((1 - nu) * r + (1 + nu) * b * b / r)
def s_t(r): return k * (1 + b * b / (r * r))
def s_r(r): return k * (1 - b * b / (r * r))

def ref(q):
    r = float(q[q.index('(') + 1:-1])
    return {'u_r': u_r, 's_theta': s_t, 's_r': s_r}[q[:q.index('(')]](r)


# Tolerance on the extrapolated value: what is left after the leading order is removed.
# Displacements: the polygonal boundary (the 96-gon's chord sits 5e-4 r inside the circle).
# Stresses: the second-order part; at the inner surface the nodal s_theta errors of the meshes
# 32 x 4, 48 x 8, 96 x 16 are 8.4 %, 5.3 %, 3.2 % (a ratio 1.6 per halving, not 2), so about
# 1 % of second order remains in the first-order extrapolation; s_r(a) (the loaded face)
# 45 %, 25 %, 13.5 %: 2 % remains. The fine-mesh errors are printed beside it.
TOL = {'u_r': 1e-3, 's_theta': 2e-2, 's_r': 4e-2}
failed = False
print('%-14s %13s %13s %9s %13s %9s %9s' % ('quantity', 'reference', 'ours (fine)', 'error',
                                             'extrapolated', 'error', 'tolerance'))
for q in fine:
    order = 2 if q.startswith('u_') else 1
    ext = (2 ** order * fine[q] - coarse[q]) / (2 ** order - 1)
    scale = abs(ref(q)) if ref(q) != 0 else k   # s_r(b) = 0: relative to k
    e_fine, e_ext = abs(fine[q] - ref(q)) / scale, abs(ext - ref(q)) / scale
    tol = TOL[q[:q.index('(')]]
    failed |= e_ext > tol
    print('%-14s %13.6e %13.6e %9.2e %13.6e %9.2e %9.1e' % (q, ref(q), fine[q], e_fine, ext,
                                                            e_ext, tol))
print('FAILED' if failed else 'PASSED')
