# Peng, Feng & Joli (2018), example 6.2: hyperelastic cubes (Blatz-Ko, G = 2e7 Pa,
# rho = 800 kg/m^3) thrown at (0, -20, -10) m/s onto a rigid plate; DEF_SEMI_EXPLICIT,
# h = 1e-4 s, 0.05 s, friction 0 or 0.5, no damping, no gravity (the paper names none).
# Usage: solfec examples/hyperelastic_cubes/cubes.py [friction] [duration] [columns] [rows] [div]
#        [contact]   (contact: NODE_TO_FACE (default: the paper's node-to-face method) or
#        OVERLAP (contact points of overlapping element convexes))
#   columns x rows cubes (default 5 x 5 = 25), div^3 HEX8 elements per cube (default 3 ->
#   27 elements and 64 nodes per cube, 25 cubes: 1600 nodes, 675 elements, as the paper's
#   1608 nodes and 676 elements with a one-element plate).
# Layout (the paper's figure is not reproduced in its text): `columns` stacks along x, each of
# `rows` cubes along y, edges alternating 0.5 m and 0.55 m, 0.05 m apart; plate y < 0.
import sys

from solfec import (BODY, BULK_MATERIAL, CONTACT_METHOD, ENERGY, GAUSS_SEIDEL_SOLVER, HEX,
                    HISTORY, HULL, INITIAL_VELOCITY, RUN, SOLFEC, SURFACE_MATERIAL)

G, NU, RHO = 2e7, 0.25, 800.0  # Blatz-Ko with nu = 1/4 is the paper's f = 0 foam form
STEP, GAP = 1e-4, 0.05


def box(x0, y0, z0, a):
    return [x0, y0, z0, x0 + a, y0, z0, x0 + a, y0 + a, z0, x0, y0 + a, z0,
            x0, y0, z0 + a, x0 + a, y0, z0 + a, x0 + a, y0 + a, z0 + a, x0, y0 + a, z0 + a]


def cube_layout(columns, rows):
    """[(x0, y0, z0, a)]: stacks centred on x = 0, the lowest cube GAP above the plate."""
    sizes = [0.5 if (i + j) % 2 == 0 else 0.55 for i in range(columns) for j in range(rows)]
    pitch = 0.55 + 0.15
    out = []
    for i in range(columns):
        y = GAP
        for j in range(rows):
            a = sizes[i * rows + j]
            x = (i - 0.5 * (columns - 1)) * pitch - 0.5 * a
            out.append((x, y, -0.5 * a, a))
            y += a + GAP
    return out


def build(friction=0.0, columns=5, rows=5, div=3, outdir=None, scheme='DEF_SEMI_EXPLICIT',
          contact='NODE_TO_FACE'):
    """(solfec, cubes, solver) of the example; outdir default
    out/hyperelastic_cubes/<contact>-mu<friction> (e.g. node_to_face-mu0)."""
    solfec = SOLFEC('DYNAMIC', STEP,
                    outdir or 'out/hyperelastic_cubes/%s-mu%g' % (contact.lower(), friction))
    solfec.verbose = 'OFF'
    CONTACT_METHOD(solfec, contact)
    soft = BULK_MATERIAL(solfec, model='BLATZ_KO', young=2 * G * (1 + NU), poisson=NU,
                         density=RHO)
    SURFACE_MATERIAL(solfec, model='SIGNORINI_COULOMB', friction=friction, restitution=0.0)
    w = 0.35 * columns + 2.0  # plate half-width; the cubes slide ~0.5 m along -z in 0.05 s
    plate = HULL([-w, -0.2, -w, w, -0.2, -w, w, 0.0, -w, -w, 0.0, -w,
                  -w, -0.2, w, w, -0.2, w, w, 0.0, w, -w, 0.0, w], 0, 0)
    BODY(solfec, 'OBSTACLE', plate, soft, label='plate')
    cubes = []
    for n, (x, y, z, a) in enumerate(cube_layout(columns, rows)):
        b = BODY(solfec, 'FINITE_ELEMENT', HEX(box(x, y, z, a), div, div, div, 1, [1] * 6),
                 soft, label='cube%d' % n)
        b.scheme = scheme
        INITIAL_VELOCITY(b, (0, -20, -10), (0, 0, 0))
        cubes.append(b)
    # epsilon 1e-8 on the reactions' relative change; the merit bound tightened from its
    # default 1e-3 (which stops the sweeps after a few iterations, in an order that breaks the
    # mirror symmetry of the stacks by 8% of the largest von Mises stress by 0.05 s and lets
    # nodes sink 6.5 mm into the cubes below) so that epsilon decides.
    return solfec, cubes, GAUSS_SEIDEL_SOLVER(1E-8, 1000, meritval=1E-14,
                                              diagsolver='DE_SAXCE_FENG')


if __name__ == '__main__':
    args = sys.argv[1:]
    friction = float(args[0]) if len(args) > 0 else 0.0
    duration = float(args[1]) if len(args) > 1 else 0.05
    columns = int(args[2]) if len(args) > 2 else 5
    rows = int(args[3]) if len(args) > 3 else 5
    div = int(args[4]) if len(args) > 4 else 3
    contact = args[5] if len(args) > 5 else 'NODE_TO_FACE'
    solfec, cubes, gs = build(friction, columns, rows, div, contact=contact)
    if solfec.mode == 'READ':
        # A second run finds the results (solfec -w recomputes): the energies from the file.
        t, k, i = HISTORY(solfec, [(solfec, 'KINETIC'), (solfec, 'INTERNAL')], 0.0, duration)
        print('%d cubes, friction %g (results of %s): t = %.4f s, kinetic %.4e J, internal'
              ' %.4e J, total/initial %.4f' % (len(cubes), friction, solfec.outpath, t[-1],
                                               k[-1], i[-1], (k[-1] + i[-1]) / (k[0] + i[0])))
    else:
        e0 = ENERGY(solfec)
        RUN(solfec, gs, duration)
        e = ENERGY(solfec)
        print('%d cubes, friction %g: t = %.4f s, constraints %d, kinetic %.4e J, internal'
              ' %.4e J, total/initial %.4f' % (len(cubes), friction, solfec.time, solfec.ncon,
                                               e[0], e[1], (e[0] + e[1]) / (e0[0] + e0[1])))
