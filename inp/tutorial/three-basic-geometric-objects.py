# Manual tutorial 5.1: the three basic geometric objects (CONVEX, MESH, SPHERE).
# A floor obstacle, a rigid body of four bricks, a hexahedral MESH body on top of it and a
# sphere hitting the stack. As in the manual the MESH body is PSEUDO_RIGID: it deforms
# homogeneously (explicit DEF_EXP scheme; the step 1E-3 is below its critical step).

floor = HULL([-3, -3, -1,
               3, -3, -1,
               3,  3, -1,
              -3,  3, -1,
              -3, -3,  0,
               3, -3,  0,
               3,  3,  0,
              -3,  3,  0], 1, 1)

solfec = SOLFEC('DYNAMIC', 1E-3, 'out/tutorial/three-basic-geometric-objects')
bulk = BULK_MATERIAL(solfec, model='KIRCHHOFF', young=1E6, poisson=0.25, density=1E3)
BODY(solfec, 'OBSTACLE', floor, bulk)

a = 2
b = 2
c = 2
brick_vid = 2
brick_sid = 2
brick = CONVEX([0, 0, 0,
                a/2, 0, 0,
                a/2, b/2, 0,
                0, b/2, 0,
                0, 0, c/2,
                a/2, 0, c/2,
                a/2, b/2, c/2,
                0, b/2, c/2],
               [4, 0, 3, 2, 1, brick_sid,
                4, 1, 2, 6, 5, brick_sid,
                4, 2, 3, 7, 6, brick_sid,
                4, 3, 0, 4, 7, brick_sid,
                4, 0, 1, 5, 4, brick_sid,
                4, 4, 5, 6, 7, brick_sid], brick_vid)
b1 = COPY(brick)
b2 = TRANSLATE(COPY(brick), (a/2, 0, 0))
b3 = TRANSLATE(COPY(brick), (0, b/2, 0))
b4 = TRANSLATE(COPY(brick), (a/2, b/2, 0))
shape = [b1, b2, b3, b4]
TRANSLATE(shape, (-a/2, -b/2, 0))
BODY(solfec, 'RIGID', shape, bulk)

# The hexahedral mesh has an inclined top (z level slope) and a graded y subdivision.
nodes = [-1, -1, 1,
          1, -1, 1,
          1,  1, 1,
         -1,  1, 1,
         -1, -1, 2,
          1, -1, 2,
          1,  1, 2.5,
         -1,  1, 2.5]
mesh = HEX(nodes, 2, 3, 2, 3, [3, 3, 3, 3, 3, 3], dy=[0.2, 0.5, 0.3])
BODY(solfec, 'PSEUDO_RIGID', mesh, bulk)

sphere = SPHERE((0, 0, 5), 1, 1, 1)
body = BODY(solfec, 'RIGID', sphere, bulk)
INITIAL_VELOCITY(body, (0, 0, -10), (0, 0, 0))

# Default surface material: Signorini-Coulomb with friction 0.3.
SURFACE_MATERIAL(solfec, model='SIGNORINI_COULOMB', friction=0.3)
GRAVITY(solfec, (0, 0, -10))

gs = GAUSS_SEIDEL_SOLVER(1E-3, 1000)
RUN(solfec, gs, 1.0)

if __name__ == '__main__':
    print()
    print('time %.3f, bodies %d, constraints %d' % (solfec.time, solfec.nbod, solfec.ncon))
    print('sphere centre z = %.4f' % body.conf[11])
