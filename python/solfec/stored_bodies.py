"""READ mode: bodies that a frame holds but the deck did not make (the parts of bodies split
by SIMPLIFIED_CRACK or RT_SPLIT, bodies made by a CALLBACK during the run) are made from
their stored definitions (kind, shape, material, label) under their stored ids, so that
the frame's state can be loaded into them (history.py)."""

import numpy as np

from . import _solfec
from .shapes import CONVEX, ELLIP, MESH, ROTATE, SPHERE


def _ellip(center, radii, rot, volid, surfid):
    """The stored ellipsoid: ELLIP(center, radii) turned so that its semi-axes point along
    the columns of `rot` (the referential axes: a body's q carries only the motion since)."""
    e = ELLIP(tuple(center), tuple(radii), int(volid), int(surfid))
    R = np.asarray(rot, dtype=float).reshape(3, 3)
    c = min(1.0, max(-1.0, 0.5 * (np.trace(R) - 1.0)))
    angle = float(np.arccos(c))
    if angle < 1e-14:
        return e
    w = np.array([R[2, 1] - R[1, 2], R[0, 2] - R[2, 0], R[1, 0] - R[0, 1]])
    if np.linalg.norm(w) > 1e-6:
        axis = w / np.linalg.norm(w)
    else:  # a half turn: R = 2 a a^T - I, a from the largest column of R + I
        S = R + np.eye(3)
        axis = S[:, int(np.argmax(np.diag(S)))]
        axis = axis / np.linalg.norm(axis)
    ROTATE(e, tuple(center), tuple(axis), np.degrees(angle))
    return e


def _shape_objects(shape):
    """Shape objects (CONVEX, SPHERE, ELLIP, MESH lists) of a Results.shape() record."""
    convexes, others, meshes = [], [], []
    for verts, faces, surfids, volid in shape["convexes"]:
        flat = [float(x) for v in np.asarray(verts) for x in v]
        spec = []
        for f, s in zip(faces, surfids):
            spec += [len(f), *[int(i) for i in f], int(s)]
        convexes.append(CONVEX(flat, spec, int(volid)))
    for center, radius, volid, surfid in shape["spheres"]:
        others.append(SPHERE(tuple(center), float(radius), int(volid), int(surfid)))
    for center, radii, rot, volid, surfid in shape["ellipsoids"]:
        # (READ mode loads the frame's q, which carries the ellipsoid's motion)
        others.append(_ellip(center, radii, rot, volid, surfid))
    for nodes, records in shape["meshes"]:
        k = records["num_nodes"].astype(int)
        spec = []
        for r, n in zip(records, k):
            spec += [int(n), *[int(i) for i in r["nodes"][:n]], int(r["volid"])]
        meshes.append(MESH([float(x) for v in np.asarray(nodes) for x in v], spec, 0))
    return convexes, others, meshes


def add_stored(domain, res, ids, materials):
    """Makes the bodies `ids` absent from `domain` from their definitions in Results `res`;
    `materials` maps a BULK_MATERIAL label to the deck's object (the first deck material
    serves when the label is unknown). Returns [(id, material object)] of those made."""
    made = []
    for bid in ids:
        bid = int(bid)
        if domain.has_body(bid) or not res.has_body(bid):
            continue
        kind = res.kind(bid)
        convexes, others, meshes = _shape_objects(res.shape(bid))
        mat = materials.get(res.material_label(bid))
        if mat is None:
            mat = next(iter(materials.values()))
        whole = _solfec.Shape()
        background = None
        if kind == "FINITE_ELEMENT" and meshes and (convexes or others):
            background = meshes[-1]._get("READ").copy()  # embedded pieces and their mesh
            meshes = []
        for o in convexes + others + meshes:
            whole.append(o._get("READ").copy())
        _solfec.add_body_with_id(domain, bid, kind, whole, mat._m, res.label(bid), background)
        made.append((bid, mat))
    return made
