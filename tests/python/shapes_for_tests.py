"""Shape builders shared by the deck tests."""

from solfec import CONVEX, HULL


def box(x, y, z, a, b, c, volid=1, surfid=1):
    """A CONVEX box with corner (x, y, z) and edge lengths a, b, c."""
    v = [x, y, z, x + a, y, z, x + a, y + b, z, x, y + b, z,
         x, y, z + c, x + a, y, z + c, x + a, y + b, z + c, x, y + b, z + c]
    f = [4, 0, 3, 2, 1, surfid, 4, 0, 1, 5, 4, surfid, 4, 1, 2, 6, 5, surfid,
         4, 2, 3, 7, 6, surfid, 4, 3, 0, 4, 7, surfid, 4, 4, 5, 6, 7, surfid]
    return CONVEX(v, f, volid)


def slab(half=5.0, thickness=1.0, top=0.0, surfid=1):
    """A wide flat HULL whose top face lies at z = top."""
    h, t, z = half, thickness, top
    return HULL([-h, -h, z - t, h, -h, z - t, h, h, z - t, -h, h, z - t,
                 -h, -h, z, h, -h, z, h, h, z, -h, h, z], 1, surfid)
