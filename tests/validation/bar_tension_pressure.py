# A bar pulled by an end PRESSURE, with the material and load of Solfec-1.0's BM04 (solid
# cylinder in pure tension, Code_Aster): E = 200 GPa, nu = 0.3, p = 100 MPa, length 3 m;
# here a square bar 0.5 x 0.5 m on rollers at x = 0 (free lateral contraction), 6 x 2 x 2 HEX8.
# References:
#  - linear elasticity (what Code_Aster's BM04 numbers are): u(L) = p L / E, lateral -nu p a / E;
#  - the exact finite-strain solution of our model (Saint Venant-Kirchhoff, follower pressure
#    on the current end face): F = diag(l1, l2, l2), Cauchy s11 = p, so S11 = l2^2 p / l1 =
#    E (l1^2 - 1) / 2 and l2^2 = 1 - nu (l1^2 - 1).
# The homogeneous state is exact for HEX8, so ours must meet the SVK solution to the solver's
# accuracy; its distance from the linear one (~1e-3 at strain 5e-4) is what our BM04, BM07 and
# BM08 runs show against Code_Aster (README.md).
import numpy as np

E, nu, p, L, a = 200e9, 0.3, 100e6, 3.0, 0.5
# h = 0.02 s: the lowest axial mode w = (pi/2) sqrt(E/rho)/L = 2.6e3 rad/s gives h w = 53,
# each step leaves 1/(h w)^2 = 4e-4 of the equilibrium error; 10 steps at constant load: 1e-34.
sol = SOLFEC('QUASI_STATIC', 0.02, 'out/validation/bar_tension_pressure')
sol.verbose = 'OFF'
bulk = BULK_MATERIAL(sol, model='KIRCHHOFF', young=E, poisson=nu, density=7820.0)
corners = [0, 0, 0, L, 0, 0, L, a, 0, 0, a, 0, 0, 0, a, L, 0, a, L, a, a, 0, a, a]
body = BODY(sol, 'FINITE_ELEMENT', HEX(corners, 6, 2, 2, 1, [1, 2, 3, 4, 5, 6]), bulk)
X = np.array(body.conf).reshape(-1, 3)
for x in X[np.abs(X[:, 0]) < 1e-12]:
    FIX_DIRECTION(body, tuple(x), (1, 0, 0))
FIX_DIRECTION(body, (0, 0, 0), (0, 1, 0))
FIX_DIRECTION(body, (0, 0, 0), (0, 0, 1))
FIX_DIRECTION(body, (0, a, 0), (0, 0, 1))
FIX_DIRECTION(body, (0, 0, a), (0, 1, 0))
PRESSURE(body, 3, p)   # Solfec-1.0's sign: positive pulls (traction p n)
RUN(sol, NEWTON_SOLVER(meritval=1e-20), 0.2)

l1 = 1.0
for _ in range(60):   # E (l1^2 - 1)/2 l1 - (1 - nu (l1^2 - 1)) p = 0
    f = E * (l1 * l1 - 1) / 2 * l1 - (1 - nu * (l1 * l1 - 1)) * p
    df = E * (3 * l1 * l1 - 1) / 2 + 2 * nu * l1 * p
    l1 -= f / df
l2 = np.sqrt(1 - nu * (l1 * l1 - 1))
ux = DISPLACEMENT(body, (L, a, a))[0]
uy = DISPLACEMENT(body, (L, a, a))[1]
sx = STRESS(body, (L / 2, a / 2, a / 2))[0]
rows = [('u_x(L) vs SVK', (l1 - 1) * L, ux, 1e-6, 'homogeneous state exact for HEX8; solver'),
        ('u_y(L,a) vs SVK', (l2 - 1) * a, uy, 1e-5,
         '4e-10 m: 2.5e-7 of u_x, the accuracy of the equilibrium reached'),
        ('s_x vs SVK', p, sx, 1e-6, 'same'),
        ('u_x(L) vs linear', p * L / E, ux, 2e-3, 'finite strain at strain 5e-4'),
        ('u_y(L,a) vs linear', -nu * p * a / E, uy, 2e-3, 'same')]
failed = False
print('%-20s %14s %14s %9s %9s' % ('quantity', 'reference', 'ours', 'error', 'tolerance'))
for name, ref, val, tol, why in rows:
    err = abs(val - ref) / abs(ref)
    failed |= err > tol
    print('%-20s %14.8e %14.8e %9.2e %9.1e  (%s)' % (name, ref, val, err, tol, why))
print('FAILED' if failed else 'PASSED')
