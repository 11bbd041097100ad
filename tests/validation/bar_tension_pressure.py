# A bar pulled by an end PRESSURE, with the material and load of Solfec-1.0's BM04 (solid
# cylinder in pure tension, Code_Aster): E = 200 GPa, nu = 0.3, p = 100 MPa, length 3 m;
# here a square bar 0.5 x 0.5 m on rollers at x = 0 (free lateral contraction), 6 x 2 x 2 HEX8.
# Two bars: PRESSURE's default (Solfec-1.0's: on the referential end face, a dead load) and
# follower=True (on the current end face).
# References:
#  - linear elasticity (what Code_Aster's BM04 numbers are): u(L) = p L / E, lateral -nu p a / E;
#  - the exact finite-strain solutions of our model (Saint Venant-Kirchhoff), F = diag(l1, l2,
#    l2), S22 = 0 so l2^2 = 1 - nu (l1^2 - 1), and S11 = E (l1^2 - 1) / 2 with
#    dead load: nominal stress P11 = l1 S11 = p;
#    follower load: Cauchy s11 = p, so S11 = l2^2 p / l1.
# The homogeneous state is exact for HEX8, so ours must meet the SVK solutions to the solver's
# accuracy; their distance from the linear one (7.5e-4 dead, 1.05e-3 follower at strain 5e-4)
# is the finite-strain part of what BM04, BM07 and BM08 show against Code_Aster (README.md):
# Solfec-1.0's PRESSURE is the dead load, and so our default.
import numpy as np

E, nu, p, L, a = 200e9, 0.3, 100e6, 3.0, 0.5
# h = 0.02 s: the lowest axial mode w = (pi/2) sqrt(E/rho)/L = 2.6e3 rad/s gives h w = 53,
# each step leaves 1/(h w)^2 = 4e-4 of the equilibrium error; 10 steps at constant load: 1e-34.
sol = SOLFEC('QUASI_STATIC', 0.02, 'out/validation/bar_tension_pressure')
sol.verbose = 'OFF'
bulk = BULK_MATERIAL(sol, model='KIRCHHOFF', young=E, poisson=nu, density=7820.0)


def bar(y0, follower):
    corners = [0, 0, 0, L, 0, 0, L, a, 0, 0, a, 0, 0, 0, a, L, 0, a, L, a, a, 0, a, a]
    corners = [c + (y0 if i % 3 == 1 else 0.0) for i, c in enumerate(corners)]
    body = BODY(sol, 'FINITE_ELEMENT', HEX(corners, 6, 2, 2, 1, [1, 5, 4, 3, 2, 6]), bulk)
    X = np.array(body.conf).reshape(-1, 3)
    for x in X[np.abs(X[:, 0]) < 1e-12]:
        FIX_DIRECTION(body, tuple(x), (1, 0, 0))
    FIX_DIRECTION(body, (0, y0, 0), (0, 1, 0))
    FIX_DIRECTION(body, (0, y0, 0), (0, 0, 1))
    FIX_DIRECTION(body, (0, y0 + a, 0), (0, 0, 1))
    FIX_DIRECTION(body, (0, y0, a), (0, 1, 0))
    if follower:
        PRESSURE(body, 3, p, follower=True)
    else:
        PRESSURE(body, 3, p)   # Solfec-1.0's sign: positive pulls (traction p n)
    return body


dead, follow = bar(0.0, False), bar(2 * a, True)
RUN(sol, NEWTON_SOLVER(meritval=1e-20), 0.2)


def svk(follower):
    l1 = 1.0
    for _ in range(60):   # l1 S11 = E (l1^2 - 1)/2 l1 = p (dead) or (1 - nu (l1^2 - 1)) p
        lat = (1 - nu * (l1 * l1 - 1)) if follower else 1.0
        f = E * (l1 * l1 - 1) / 2 * l1 - lat * p
        df = E * (3 * l1 * l1 - 1) / 2 + (2 * nu * l1 * p if follower else 0.0)
        l1 -= f / df
    return l1, np.sqrt(1 - nu * (l1 * l1 - 1))


rows = []
for body, y0, follower, name in ((dead, 0.0, False, 'dead'), (follow, 2 * a, True, 'follower')):
    l1, l2 = svk(follower)
    ux = DISPLACEMENT(body, (L, y0 + a, a))[0]
    uy = DISPLACEMENT(body, (L, y0 + a, a))[1]
    sx = STRESS(body, (L / 2, y0 + a / 2, a / 2))[0]   # Cauchy: p / l2^2 (dead) or p
    rows += [('%s u_x(L) vs SVK' % name, (l1 - 1) * L, ux, 1e-6,
              'homogeneous state exact for HEX8; solver'),
             ('%s u_y(L,a) vs SVK' % name, (l2 - 1) * a, uy, 1e-5,
              '4e-10 m: 2.5e-7 of u_x, the accuracy of the equilibrium reached'),
             ('%s s_x vs SVK' % name, p * (1.0 if follower else 1.0 / (l2 * l2)), sx, 1e-6, 'same'),
             ('%s u_x(L) vs linear' % name, p * L / E, ux, 2e-3, 'finite strain at strain 5e-4'),
             ('%s u_y(L,a) vs linear' % name, -nu * p * a / E, uy, 2e-3, 'same')]
failed = False
print('%-26s %14s %14s %9s %9s' % ('quantity', 'reference', 'ours', 'error', 'tolerance'))
for name, ref, val, tol, why in rows:
    err = abs(val - ref) / abs(ref)
    failed |= err > tol
    print('%-26s %14.8e %14.8e %9.2e %9.1e  (%s)' % (name, ref, val, err, tol, why))
print('FAILED' if failed else 'PASSED')
