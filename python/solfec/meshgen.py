"""Mesh generators of the deck language beyond HEX: PIPE (Solfec-1.0's hexahedral pipe)."""

import math

from . import _args as A
from .shapes import MESH

__all__ = ["PIPE"]


def _frame(n):
    """Unit vectors (a, b) normal to the unit axis n, (b, a, n) right-handed, chosen as in
    Solfec-1.0: b along n x e for the first of e = x, y, z not parallel to n, a = n x b (here
    made orthonormal; Solfec-1.0 leaves their length |n x e|, which shrinks the radii of a pipe
    along a direction oblique to x)."""
    def cross(u, v):
        return (u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0])

    def unit(u):
        s = math.sqrt(u[0] * u[0] + u[1] * u[1] + u[2] * u[2])
        return (u[0] / s, u[1] / s, u[2] / s)

    for e in ((1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0)):
        b = cross(n, e)
        if math.sqrt(b[0] * b[0] + b[1] * b[1] + b[2] * b[2]) >= 1e-10:
            break
    a = unit(cross(n, unit(b)))
    return a, cross(a, n)  # b again, orthogonal to n and a up to round-off


def PIPE(pnt, dir, rin, thi, ndir=None, nrad=None, nthi=None, volid=None,
         surids=None, *, ndri=None, surfids=None):
    """PIPE(pnt, dir, rin, thi, ndir, nrad, nthi, volid, surids): a hexahedral MESH of a
    straight pipe: axis from `pnt` along `dir` (the pipe length is |dir|), inner radius `rin`,
    wall thickness `thi`; `ndir` x `nrad` x `nthi` elements along the axis, around the
    circumference (the cross-section is a regular nrad-gon annulus) and through the wall;
    `surids` = [bottom (at pnt), top (at pnt + dir), inner, outer] surface ids. Solfec-1.0's
    keyword spellings `ndri` and `surfids` are accepted too (docs/deck-language.md)."""
    r = "PIPE"
    # Solfec-1.0 spells two keywords differently in its binding (ndri) and its manual (surfids)
    for name, value, alias, alias_value in (("ndir", ndir, "ndri", ndri),
                                            ("surids", surids, "surfids", surfids)):
        if value is not None and alias_value is not None:
            raise TypeError(f"{r}: argument '{name}' given twice (also as '{alias}')")
    if ndir is None:
        ndir = ndri
    if surids is None:
        surids = surfids
    for name, value in (("ndir", ndir), ("nrad", nrad), ("nthi", nthi), ("volid", volid),
                        ("surids", surids)):
        if value is None:
            raise TypeError(f"{r}: missing argument '{name}'; call PIPE(pnt, dir, rin, thi, "
                            f"ndir, nrad, nthi, volid, surids)")

    p = A.vec3(pnt, r, "pnt")
    d = A.direction(dir, r, "dir")
    r_in = A.positive(rin, r, "rin")
    t = A.positive(thi, r, "thi")
    nd = A.integer(ndir, r, "ndir")
    nr = A.integer(nrad, r, "nrad")
    nt = A.integer(nthi, r, "nthi")
    for v, a, lo, why in ((nd, "ndir", 1, ""), (nr, "nrad", 3, " (a closed ring of elements)"),
                          (nt, "nthi", 1, "")):
        if v < lo:
            raise ValueError(f"{r}: argument '{a}' must be >= {lo}{why}, got {v}")
    vid = A.integer(volid, r, "volid")
    if isinstance(surids, bool) or not isinstance(surids, (list, tuple)):
        raise TypeError(f"{r}: argument 'surids' must be a list of 4 surface ids [bottom, top, "
                        f"inner, outer], got {type(surids).__name__}")
    sids = A.integers_list(surids, r, "surids")
    if len(sids) < 4:  # Solfec-1.0 uses the first 4 of a longer list
        raise ValueError(f"{r}: argument 'surids' must list 4 surface ids [bottom, top, inner, "
                         f"outer], got {len(sids)}")
    sids = sids[:4]
    length = math.sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2])
    n = (d[0] / length, d[1] / length, d[2] / length)
    a, b = _frame(n)

    # Nodes as Solfec-1.0 numbers them: node (i, j, k) = i*nrad*(nthi+1) + j*(nthi+1) + k at
    # axial position i*|dir|/ndir, angle 2*pi*j/nrad from b towards a (counter-clockwise about
    # dir) and radius rin + k*thi/nthi.
    rings = [(math.sin(2.0 * math.pi * j / nr), math.cos(2.0 * math.pi * j / nr))
             for j in range(nr)]
    nodes = []
    for i in range(nd + 1):
        s = length * i / nd
        c = (p[0] + n[0] * s, p[1] + n[1] * s, p[2] + n[2] * s)
        for sj, cj in rings:
            u = (a[0] * sj + b[0] * cj, a[1] * sj + b[1] * cj, a[2] * sj + b[2] * cj)
            for k in range(nt + 1):
                rk = r_in + t * k / nt
                nodes += [c[0] + rk * u[0], c[1] + rk * u[1], c[2] + rk * u[2]]

    layer, ring = nr * (nt + 1), nt + 1
    elements = []
    faces = [sids[0]]  # default id: every boundary face is listed below anyway
    for i in range(nd):
        for j in range(nr):
            jn = (j + 1) % nr  # the last sector closes the ring
            for k in range(nt):
                # bottom face (radial, tangential) counter-clockwise about dir, then the top
                e0 = i * layer + j * ring + k
                e3 = i * layer + jn * ring + k
                e = [e0, e0 + 1, e3 + 1, e3]
                e += [x + layer for x in e]
                elements += [8] + e + [vid]
                # outward faces in the local hexahedron face numbering (docs: MESH)
                if i == 0:
                    faces += [4, e[0], e[3], e[2], e[1], sids[0]]
                if i == nd - 1:
                    faces += [4, e[4], e[5], e[6], e[7], sids[1]]
                if k == 0:
                    faces += [4, e[3], e[0], e[4], e[7], sids[2]]
                if k == nt - 1:
                    faces += [4, e[1], e[2], e[6], e[5], sids[3]]
    return MESH(nodes, elements, faces)
