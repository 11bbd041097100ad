"""Run-time splitting of bodies (Solfec-1.0's lng.c): SIMPLIFIED_CRACK, a prescribed crack
plane of a PSEUDO_RIGID or FINITE_ELEMENT body that splits it when the normal tension there
exceeds the strength ft (checked after every step), and RT_SPLIT, the split of a
FINITE_ELEMENT mesh body along a set of its inter-element faces, called by the deck (e.g.
from a CALLBACK). The parts are new bodies (the C++ core: src/domain/body_split.h); the
results record them as bodies inserted and the parent as deleted (docs/output.md)."""

from . import _args as A
from . import _mpi
from . import _solfec
from .model import BODY
from .tetgen_process import remesh_surface

__all__ = ["SIMPLIFIED_CRACK", "RT_SPLIT"]


def _wrap(solfec, bid, material):
    """A BODY object for body `bid`, made by a split of a body of `material`."""
    b = BODY.__new__(BODY)
    object.__setattr__(b, "_solfec", solfec)
    object.__setattr__(b, "_id", bid)
    object.__setattr__(b, "_material", material)
    if solfec._domain.body_kind(bid) != "FINITE_ELEMENT":
        object.__setattr__(b, "_ref_meshes", [])
    solfec._bodies[bid] = b
    return b


def _replace(solfec, parent_id, part_ids, routine):
    """The parts of a split body get BODY objects; the parent's object reports the split."""
    parent = solfec._bodies.pop(parent_id, None)
    material = parent._material if parent is not None else None
    if parent is not None:
        object.__setattr__(parent, "_emptied_by", routine)
    return [_wrap(solfec, i, material) for i in part_ids]


def _crack_set(solfec):
    """The SOLFEC's cracks, checked after every step by a callback (WRITE mode)."""
    cracks = getattr(solfec, "_cracks", None)
    if cracks is None:
        cracks = _solfec.CrackSet()

        def tetgen(points, triangles, markers):
            return remesh_surface(points, triangles, markers, "SIMPLIFIED_CRACK")
        cracks.set_tetgen(tetgen)
        object.__setattr__(solfec, "_cracks", cracks)
        if solfec.mode != "READ":
            d = solfec._domain

            def check():
                for parent, parts in cracks.check(d):
                    _replace(solfec, parent, parts, "SIMPLIFIED_CRACK")
                return True
            d.add_callback(0.0, check)  # interval 0: after every step
    return cracks


def _surfids(surfid, routine):
    """A surface id for both sides, or a pair (below, above)."""
    if isinstance(surfid, (list, tuple)):
        if len(surfid) != 2:
            raise ValueError(f"{routine}: argument 'surfid' must have 2 elements, got "
                             f"{len(surfid)}")
        return (A.integer(surfid[0], routine, "surfid"), A.integer(surfid[1], routine, "surfid"))
    s = A.integer(surfid, routine, "surfid")
    return (s, s)


def SIMPLIFIED_CRACK(body, point, normal, surfid, criterion, topoadj="OFF", ft=0.0, Gf=0.0):
    """SIMPLIFIED_CRACK(body, point, normal, surfid, criterion | topoadj, ft, Gf): a crack
    plane through the referential `point` with `normal` of a PSEUDO_RIGID or FINITE_ELEMENT
    body. After every step the normal tension n.sigma.n of the Cauchy stress (PSEUDO_RIGID:
    the body's homogeneous stress; FINITE_ELEMENT: at the centroids of the mesh faces on the
    plane, the mean of the elements on both sides) is compared with `ft` [Pa] (criterion
    'TENSILE'); once it exceeds ft the body splits along the plane into new bodies (cut faces:
    surfid[0] on the part below the plane, surfid[1] above; an int for both), which keep the
    motion (mass, momentum, deformation) and the body's other cracks that still cut them.
    topoadj 'ON' cuts only what is connected to the point across the plane (the body may stay
    one piece with a slit). A FINITE_ELEMENT MESH is split along its inter-element faces on
    the plane, or, where the plane cuts through elements, each side is re-meshed with
    tetrahedra (TetGen) and the nodes get the parent's motion at their referential points
    (topoadj 'ON' with the section in pieces: the body re-meshed whole with the piece next
    to the point inside, then split along it; a body with a background mesh: an error). Gf (fracture energy) is kept but not used, as in Solfec-1.0. Returns None."""
    r = "SIMPLIFIED_CRACK"
    A.instance(body, BODY, r, "body")
    p = A.vec3(point, r, "point")
    n = A.direction(normal, r, "normal")
    sid = _surfids(surfid, r)
    A.choice(criterion, r, "criterion", ("TENSILE",))
    tadj = A.onoff("OFF" if topoadj is None else topoadj, r, "topoadj")
    strength = A.number(ft, r, "ft")
    energy = A.positive(Gf, r, "Gf", allow_zero=True)
    if body.kind not in ("PSEUDO_RIGID", "FINITE_ELEMENT"):
        raise ValueError(f"{r}: invalid body kind {body.kind} (argument 'body'): only "
                         f"PSEUDO_RIGID and FINITE_ELEMENT bodies can crack")
    if _mpi.size() > 1:
        raise ValueError(f"{r}: cracking bodies is not available under solfec-mpi; run the "
                         f"deck with solfec (serial)")
    solfec = body._solfec
    _crack_set(solfec).add(body._d, body.id, p, n, sid[0], sid[1], tadj, strength, energy)


def _faces(surf, routine):
    faces = []
    if not isinstance(surf, (list, tuple)):
        raise TypeError(f"{routine}: 'surf' must be a list of lists, got {type(surf).__name__}")
    for i, f in enumerate(surf):
        if not isinstance(f, (list, tuple)):
            raise ValueError(f"{routine}: 'surf' must be a list of lists (item {i} is "
                             f"{type(f).__name__})")
        if len(f) not in (3, 4):
            raise ValueError(f"{routine}: invalid face size {len(f)} (neither 3 nor 4) at item "
                             f"{i} of 'surf'")
        faces.append([A.integer(v, routine, "surf") for v in f])
    return faces


def RT_SPLIT(body1, surf, sid1=0, sid2=0, label1=None, label2=None):
    """RT_SPLIT(body1, surf | sid1, sid2, label1, label2): splits FINITE_ELEMENT body1 (a MESH
    shape, form 'TL' or 'BC') along the inter-element faces `surf` ([[n1, n2, n3(, n4)], ...]
    mesh node numbers), e.g. from a CALLBACK during a run. New faces get sid1 where their
    outward normal agrees with the face's (right-hand rule of its node order), sid2 on the
    other side. When the faces cut the mesh in two, body1 becomes the first part (label1) and
    the second part (label2) is returned; when they leave it connected (a slit, its front
    nodes shared) body1 becomes the slit body (label1, or its old label). Node positions and
    velocities are carried over. Returns (body2 or None, lst1, lst2 or None): lst1/lst2 give
    for each node of a part the node of the old mesh it copies."""
    r = "RT_SPLIT"
    A.instance(body1, BODY, r, "body1")
    faces = _faces(surf, r)
    s1, s2 = A.integer(sid1, r, "sid1"), A.integer(sid2, r, "sid2")
    l1 = "" if label1 is None else A.string(label1, r, "label1")
    l2 = "" if label2 is None else A.string(label2, r, "label2")
    if _mpi.size() > 1:
        raise ValueError(f"{r}: not available under solfec-mpi; run the deck with solfec (serial)")
    solfec = body1._solfec
    old = body1.id
    ids, maps = _solfec.rt_split(body1._d, old, faces, s1, s2, l1, l2)
    solfec._bodies.pop(old, None)
    object.__setattr__(body1, "_id", ids[0])  # body1 continues as the first part
    solfec._bodies[ids[0]] = body1
    if len(ids) == 2:
        body2 = _wrap(solfec, ids[1], body1._material)
        return (body2, list(maps[0]), list(maps[1]))
    return (None, list(maps[0]), None)
