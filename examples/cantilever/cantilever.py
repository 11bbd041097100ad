# Quasi-static cantilever: a 1 x 0.1 x 0.1 m steel-like beam (FINITE_ELEMENT, form 'TL',
# HEX8) clamped at x = 0 and loaded by a tip force ramped over 1 s; prints the tip
# deflection against Timoshenko beam theory, then (second run, READ mode) its history.
#
#   build/solfec examples/cantilever/cantilever.py [nx]      # nx elements along the beam
import os
import sys

nx = int(sys.argv[1]) if len(sys.argv) > 1 else 32
E, L, a, P = 2e11, 1.0, 0.1, 1e4  # Pa, m, m, N
out = os.path.join("out", "cantilever-%d" % nx)

sol = SOLFEC('QUASI_STATIC', 0.1, out)  # step 0.1 s: h w_min >> 1 (see docs, QUASI_STATIC)
steel = BULK_MATERIAL(sol, model='KIRCHHOFF', young=E, poisson=0.0, density=7800.0)
corners = [0, 0, 0, L, 0, 0, L, a, 0, 0, a, 0, 0, 0, a, L, 0, a, L, a, a, 0, a, a]
beam = BODY(sol, 'FINITE_ELEMENT', HEX(corners, nx, 2, 2, 1, [1, 2, 3, 4, 5, 6]), steel)

X = [beam.conf[3 * i:3 * i + 3] for i in range(len(beam.conf) // 3)]
for p in X:
    if abs(p[0]) < 1e-12:
        FIX_POINT(beam, tuple(p))  # clamped root
tip = [p for p in X if abs(p[0] - L) < 1e-12]
for p in tip:  # the tip face carries P, shared by its 3 x 3 nodes (bilinear weights)
    w = (0.5 if p[1] in (0.0, a) else 1.0) * (0.5 if p[2] in (0.0, a) else 1.0) / 4.0
    FORCE(beam, 'SPATIAL', tuple(p), (0, 0, -1), TIME_SERIES([0, 0, 1, P * w, 2, P * w]))

centre = (L, a / 2, a / 2)
if sol.mode == 'WRITE':
    # NEWTON_SOLVER solves the clamp's rows directly, so the default merit gives the same
    # deflection; the tight one is kept as a check (see docs, QUASI_STATIC).
    RUN(sol, NEWTON_SOLVER(meritval=1e-20), 1.5)
    I, G = a ** 4 / 12, E / 2
    timoshenko = P * L ** 3 / (3 * E * I) + P * L / (5.0 / 6.0 * G * a * a)
    w = -DISPLACEMENT(beam, centre)[2]
    print("tip deflection %.4e m, Timoshenko %.4e m, ratio %.4f" % (w, timoshenko, w / timoshenko))
    x = L / 2  # mid-span, top element centre height z = 3a/4: beam sx = M (a/4) / I
    print("mid-span axial stress at z = 3a/4: %.4e Pa, beam theory %.4e Pa"
          % (STRESS(beam, (x, a / 2, 0.75 * a))[0], P * (L - x) * (a / 4) / I))
    print("run again to read the deflection history back")
else:
    (t, dz) = HISTORY(sol, [(beam, centre, 'DZ')], 0, DURATION(sol)[1])
    for ti, d in zip(t, dz):
        print("t = %.2f s  tip dz = %.4e m" % (ti, d))
