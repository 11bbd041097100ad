# A box of n^3 unit-ish cubes dropped into a five-wall box (n = 10 gives 1000 cubes).
# Usage: solfec examples/box-of-cubes/cubes.py [n] [duration]
# Signorini-Coulomb contact (friction 0.3, restitution 0), step 5 ms, Gauss-Seidel to 1e-6.
import sys

n = int(sys.argv[1]) if len(sys.argv) > 1 else 10
duration = float(sys.argv[2]) if len(sys.argv) > 2 else 2.0
a = 0.1          # cube edge [m]
gap = 0.02       # initial spacing between cubes [m]
pitch = a + gap
inner = n * pitch + gap  # inner width of the container [m]
wall = 0.05      # wall thickness [m]


def block(x0, y0, z0, x1, y1, z1):
    return HULL([x0, y0, z0, x1, y0, z0, x1, y1, z0, x0, y1, z0,
                 x0, y0, z1, x1, y0, z1, x1, y1, z1, x0, y1, z1], 1, 1)


solfec = SOLFEC('DYNAMIC', 5E-3, 'out/box-of-cubes/n%d' % n)
bulk = BULK_MATERIAL(solfec, model='KIRCHHOFF', young=1E9, poisson=0.25, density=2E3)
SURFACE_MATERIAL(solfec, model='SIGNORINI_COULOMB', friction=0.3, restitution=0.0)
# Each cube is one convex piece: with the default one point per touching pair a cube rocks
# on the centre of its face; contact patches of up to 4 points let the stack settle.
CONTACT_POINTS(solfec, 4)
GRAVITY(solfec, (0, 0, -9.81))

# Five walls: floor and four sides, one OBSTACLE.
height = n * pitch * 1.5
walls = [block(-wall, -wall, -wall, inner + wall, inner + wall, 0),
         block(-wall, -wall, 0, 0, inner + wall, height),
         block(inner, -wall, 0, inner + wall, inner + wall, height),
         block(0, -wall, 0, inner, 0, height),
         block(0, inner, 0, inner, inner + wall, height)]
BODY(solfec, 'OBSTACLE', walls, bulk, label='box')

for i in range(n):
    for j in range(n):
        for k in range(n):
            x, y, z = gap + i * pitch, gap + j * pitch, gap + k * pitch
            cube = block(x, y, z, x + a, y + a, z + a)
            ROTATE(cube, (x + a / 2, y + a / 2, z + a / 2), (1, 1, 0), 5.0 * ((i + j + k) % 3))
            BODY(solfec, 'RIGID', cube, bulk, label='cube-%d-%d-%d' % (i, j, k))

gs = GAUSS_SEIDEL_SOLVER(1E-6, 1000)
RUN(solfec, gs, duration)

if __name__ == '__main__':
    print()
    e = ENERGY(solfec)
    print('box of %d cubes: t = %.3f s, constraints %d, kinetic energy %.3e J' %
          (n ** 3, solfec.time, solfec.ncon, e[0]))
