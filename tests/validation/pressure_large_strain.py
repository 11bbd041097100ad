# A bar pulled by an end PRESSURE at large strain (p = 0.1 E, axial strain 9%), dead load
# (PRESSURE's default) and follower load (follower=True), QUASI_STATIC steps at the constant
# full load: how each step's Newton iteration converges, and the converged states against the
# exact finite-strain (Saint Venant-Kirchhoff) solutions of both loads.
# Bar 1 x 0.2 x 0.2 m, 4 x 1 x 1 HEX8 on rollers at x = 0 (free lateral contraction),
# E = 1 MPa, nu = 0.3, p = 0.1 MPa (positive: pulls).
# References (as bar_tension_pressure.py): F = diag(l1, l2, l2), S22 = 0 so l2^2 = 1 -
# nu (l1^2 - 1), S11 = E (l1^2 - 1) / 2; dead load: nominal stress l1 S11 = p; follower load:
# Cauchy stress p, S11 = l2^2 p / l1. The homogeneous state is exact for HEX8.
# h = 1 s with density 1: the lowest axial mode w = (pi / 2 L) sqrt(E / rho) = 1.6e3 rad/s,
# h w = 1.6e3, so the mass term of A = M + h^2 K is 4e-7 of the stiffness and every step is a
# Newton step of the equilibrium. The dead load's tangent is exact (its nodal forces do not
# depend on the configuration), so its error falls quadratically. A follower pressure's load
# stiffness d f_ext / d x (not symmetric on an open surface) is not in A (CHOLMOD's Cholesky
# factors A, README.md), so its steps converge linearly, slowly along the soft modes of the
# bar on its rollers; the state they converge to is the exact one.
# Measured (README.md), relative errors of u_x(L) / u_y(L, a) after steps 1-4: dead 1.4e-1 /
# 7.3e-2, 2.3e-3 / 1.7e-3, 6.5e-7 / 4.3e-7, 9.3e-10 / 1.1e-9 (quadratic, then round-off);
# follower 1.9e-1 / 1.3e-1, 1.8e-3 / 3.4e-3, 1.6e-4 / 1.6e-4, 8.6e-6 / 2.2e-5, then a factor
# 0.95 a step in the lateral contraction (u_y 8.7e-6 after 12 steps, 8.5e-7 after 60, 1.3e-7
# after 100): a tension follower load's load stiffness nearly cancels the initial-stress
# stiffness of the lateral modes (p A / L = 4e3 N/m against a bending stiffness 3 E I / L^3 =
# 4e2 N/m), which A has without it. Usage: solfec -w pressure_large_strain.py [STEPS] (100).
import numpy as np

args = [x for x in (NON_SOLFEC_ARGV() or []) if x != "--"]
nsteps = int(args[0]) if args else 100
E, nu, L, a = 1e6, 0.3, 1.0, 0.2
p = 0.1 * E
sol = SOLFEC('QUASI_STATIC', 1.0, 'out/validation/pressure_large_strain')
sol.verbose = 'OFF'
bulk = BULK_MATERIAL(sol, model='KIRCHHOFF', young=E, poisson=nu, density=1.0)


def bar(y0, follower):
    corners = [0, 0, 0, L, 0, 0, L, a, 0, 0, a, 0, 0, 0, a, L, 0, a, L, a, a, 0, a, a]
    corners = [c + (y0 if i % 3 == 1 else 0.0) for i, c in enumerate(corners)]
    body = BODY(sol, 'FINITE_ELEMENT', HEX(corners, 4, 1, 1, 1, [1, 5, 4, 3, 2, 6]), bulk)
    X = np.array(body.conf).reshape(-1, 3)
    for x in X[np.abs(X[:, 0]) < 1e-12]:
        FIX_DIRECTION(body, tuple(x), (1, 0, 0))
    FIX_DIRECTION(body, (0, y0, 0), (0, 1, 0))
    FIX_DIRECTION(body, (0, y0, 0), (0, 0, 1))
    FIX_DIRECTION(body, (0, y0 + a, 0), (0, 0, 1))
    FIX_DIRECTION(body, (0, y0, a), (0, 1, 0))
    PRESSURE(body, 3, p, follower=follower)   # surface 3: x = L
    return body


def svk(follower):
    l1 = 1.0
    for _ in range(100):   # l1 S11 = p (dead) or (1 - nu (l1^2 - 1)) p (follower)
        lat = (1 - nu * (l1 * l1 - 1)) if follower else 1.0
        f = E * (l1 * l1 - 1) / 2 * l1 - lat * p
        df = E * (3 * l1 * l1 - 1) / 2 + (2 * nu * l1 * p if follower else 0.0)
        l1 -= f / df
    return l1, np.sqrt(1 - nu * (l1 * l1 - 1))


dead, follow = bar(0.0, False), bar(2 * a, True)
(l1d, l2d), (l1f, l2f) = svk(False), svk(True)
print('step  u_x(L) error: dead    follower    u_y(L, a) error: dead    follower')
for k in range(nsteps):
    RUN(sol, NEWTON_SOLVER(meritval=1e-24), 1.0)
    ud = DISPLACEMENT(dead, (L, a, a))[0]
    uf = DISPLACEMENT(follow, (L, 3 * a, a))[0]
    vd = DISPLACEMENT(dead, (L, a, a))[1]
    vf = DISPLACEMENT(follow, (L, 3 * a, a))[1]
    if k < 12 or (k + 1) % 10 == 0:
        print('%3d   %.3e   %.3e              %.3e   %.3e'
              % (k + 1, abs(ud / ((l1d - 1) * L) - 1), abs(uf / ((l1f - 1) * L) - 1),
                 abs(vd / ((l2d - 1) * a) - 1), abs(vf / ((l2f - 1) * a) - 1)))

rows = []
for body, y0, (l1, l2), name in ((dead, 0.0, (l1d, l2d), 'dead'), (follow, 2 * a, (l1f, l2f), 'follower')):
    rows += [('%s u_x(L)' % name, (l1 - 1) * L, DISPLACEMENT(body, (L, y0 + a, a))[0], 1e-6,
              'homogeneous state exact for HEX8; %d steps' % nsteps),
             ('%s u_y(L, a)' % name, (l2 - 1) * a, DISPLACEMENT(body, (L, y0 + a, a))[1], 1e-6, 'same'),
             ('%s Cauchy s_x' % name, p * (1.0 if name == 'follower' else l1 / (l1 * l2 * l2)),
              STRESS(body, (L / 2, y0 + a / 2, a / 2))[0], 1e-6, 'same')]
failed = False
print('%-22s %14s %14s %9s %9s' % ('quantity', 'reference', 'ours', 'error', 'tolerance'))
for name, ref, val, tol, why in rows:
    err = abs(val - ref) / abs(ref)
    failed |= not err <= tol
    print('%-22s %14.8e %14.8e %9.2e %9.1e  (%s)' % (name, ref, val, err, tol, why))
print('FAILED' if failed else 'PASSED')
