"""FRACTURE_EXPORT_YAFFEMS and FRACTURE_EXPORT_MOFEM (Solfec-1.0's fra.c): the fracture
instances that BODY.fracturecheck recorded during a run (solfec/fracture_check.py), read in
READ mode and written for a fracture analysis in Yaffems (a legacy VTK file) or MoFEM (its
'mOFF' text file), on a tetrahedral mesh of the body's referential volume made by TetGen.

On that mesh: the node displacements of each instance are interpolated from the body's mesh
at the tetrahedral mesh's nodes; a recorded constraint force f (at referential point p,
radius r) adds the pressure f / a to every boundary triangle whose tetrahedron's referential
bounding box meets the box p +- (r + GEOMETRIC_EPSILON), a being the triangle's area in the
instance's displaced configuration (Solfec-1.0 picks the triangles by the kd-tree leaves
that box meets, a coarser choice of the same neighbourhood)."""

import math
import os
import tempfile

import numpy as np

from . import _args as A
from . import _solfec
from . import _state
from . import fracture_check
from . import tetgen_process
from .model import BODY

__all__ = ["FRACTURE_EXPORT_YAFFEMS", "FRACTURE_EXPORT_MOFEM"]


def _arguments(body, path, volume, quality, r):
    A.instance(body, BODY, r, "body")
    p = A.string(path, r, "path")
    if volume is None or (isinstance(volume, float) and volume == math.inf):
        vol = None
    else:
        vol = A.positive(volume, r, "volume", allow_zero=True)
    q = A.number(quality, r, "quality")
    if q <= 1.0:
        raise ValueError(f"{r}: argument 'quality' must be > 1, got {quality!r}")
    body._d  # a deleted body raises here
    if body.fracturecheck != "ON":
        raise ValueError(f"{r}: body {body.id} has fracturecheck 'OFF' (argument 'body'); set "
                         f"body.fracturecheck = 'ON' before the run (FINITE_ELEMENT bodies)")
    return p, vol, q


def _open(p, r):
    try:
        d = os.path.dirname(os.path.abspath(p))
        os.makedirs(d, exist_ok=True)
        return open(p, "w")
    except OSError as e:
        raise ValueError(f"{r}: cannot write argument 'path' ('{p}'): {e.strerror}") from None


class _TetMesh:
    """TetGen's tetrahedral mesh of a FINITE_ELEMENT body's referential volume, with the
    interpolation of the body's node values at its nodes and the pressures of the records."""

    def __init__(self, body, volume, quality, r):
        d = body._d
        nodes, _, faces = _solfec.export_body(d, body.id)["meshes"][0]
        nodes = np.asarray(nodes, dtype=float)
        with tempfile.TemporaryDirectory(prefix="fracture") as tmp:
            used, tris = tetgen_process.boundary_facets(faces)
            tetgen_process._write_poly(os.path.join(tmp, "surface.poly"), nodes[used], tris)
            base = tetgen_process._run_tetgen(tmp, "surface.poly", volume, quality, routine=r)
            self.X, self.T, _, self.F, _ = tetgen_process._mesh_arrays(base, 0, None, True)
        # where each node of the tetrahedral mesh lies in the body's mesh
        shape = d.body_mesh(body.id)
        elements = shape.mesh_elements()
        self.fe = _solfec.FeMesh(nodes, [e for e, _ in elements], [v for _, v in elements])
        self.where = [self.fe.locate(tuple(x)) for x in self.X]
        # the tetrahedron of each boundary triangle and its referential box
        owner = {}
        for t, tet in enumerate(self.T.tolist()):
            for k in range(4):
                owner.setdefault(tuple(sorted(tet[:k] + tet[k + 1:])), t)
        lo, hi = self.X[self.T].min(axis=1), self.X[self.T].max(axis=1)
        tri_tet = [owner[tuple(sorted(f))] for f in self.F.tolist()]
        self.face_lo, self.face_hi = lo[tri_tet], hi[tri_tet]

    def displacements(self, disp):
        return np.array([self.fe.interpolate(e, xi, disp) for e, xi in self.where])

    def pressures(self, q, radius, point, force):
        """Boundary-triangle pressures (k, 3) of one instance, q its displacements here."""
        x = self.X + q
        a, b, c = x[self.F[:, 0]], x[self.F[:, 1]], x[self.F[:, 2]]
        area = 0.5 * np.linalg.norm(np.cross(b - a, c - a), axis=1)
        p = np.zeros((len(self.F), 3))
        eps = _state.geometric_epsilon
        for r, pt, f in zip(radius, point, force):
            lo, hi = pt - r - eps, pt + r + eps
            near = np.all(self.face_hi >= lo, axis=1) & np.all(self.face_lo <= hi, axis=1)
            near &= area > 0.0
            p[near] += f / area[near, None]
        return p


def _instances(body, r):
    """The body's recorded instances, the latest first (as fra.c lists them); [] in WRITE
    mode."""
    sol = body._solfec
    if sol.mode != "READ":
        return []
    return fracture_check.read(sol.outpath, body.id)[::-1]


def FRACTURE_EXPORT_YAFFEMS(body, path, volume=None, quality=1.3):
    """FRACTURE_EXPORT_YAFFEMS(body, path | volume, quality): in READ mode writes the fracture
    instances recorded for `body` (BODY.fracturecheck 'ON') to the legacy VTK file
    `path`.vtk on a TetGen mesh of its referential volume (tetrahedra of volume <= `volume`
    [m^3], radius-edge ratio <= `quality` > 1): per instance, the latest first, node
    displacements 'disp1', 'disp2', ... and boundary-triangle pressures 'pres0', 'pres1', ...
    Returns the number of instances (0 in WRITE mode or without instances: the file is then
    empty)."""
    r = "FRACTURE_EXPORT_YAFFEMS"
    p, vol, q = _arguments(body, path, volume, quality, r)
    with _open(p + ".vtk", r) as out:
        inst = _instances(body, r)
        if not inst:
            return 0
        mesh = _TetMesh(body, vol, q, r)
        X, T, F = mesh.X, mesh.T, mesh.F
        ne, nf = len(T), len(F)
        w = out.write
        w("# vtk DataFile Version 2.0\nTest Title\nASCII\n\nDATASET UNSTRUCTURED_GRID\n")
        w(f"POINTS {len(X)} float\n")
        w("".join("%f %f %f\n" % tuple(x) for x in X))
        w(f"\nCELLS {ne + nf} {ne * 5 + nf * 4}\n")
        w("".join("4 %d %d %d %d\n" % tuple(t) for t in T.tolist()))
        w("".join("3 %d  %d  %d\n" % tuple(f) for f in F.tolist()))
        w(f"\nCELL_TYPES {ne + nf}\n" + "10\n" * ne + "5\n" * nf)
        w(f"\nPOINT_DATA {len(X)}\n")
        qs = [mesh.displacements(disp) for _, disp, _, _, _ in inst]
        for m, qm in enumerate(qs):
            w(f"\nVECTORS disp{m + 1} float\n")
            w("".join("%f %f %f\n" % tuple(v) for v in qm))
        w(f"\nCELL_DATA {ne + nf}\n")
        for m, ((_, _, radius, point, force), qm) in enumerate(zip(inst, qs)):
            w(f"\nVECTORS pres{m} float\n" + "0 0 0\n" * ne)
            w("".join("%g %g %g\n" % tuple(v) for v in mesh.pressures(qm, radius, point,
                                                                        force)))
    return len(inst)


def FRACTURE_EXPORT_MOFEM(body, path, volume=None, quality=1.3):
    """FRACTURE_EXPORT_MOFEM(body, path | volume, quality): in READ mode writes the earliest
    fracture instance recorded for `body` to the text file `path` (as given, no extension
    added) for MoFEM: a line 'mOFF nodes triangles tetrahedra', then per node 'X Y Z ux uy uz'
    (referential coordinates and the body's current displacement interpolated there), per
    boundary triangle '3 a b c px py pz' (the instance's pressure) and per tetrahedron
    '4 a b c d'. Returns 0, as Solfec-1.0's (the file is empty in WRITE mode or without
    instances)."""
    r = "FRACTURE_EXPORT_MOFEM"
    p, vol, q = _arguments(body, path, volume, quality, r)
    with _open(p, r) as out:
        inst = _instances(body, r)
        if not inst:
            return 0
        mesh = _TetMesh(body, vol, q, r)
        X, T, F = mesh.X, mesh.T, mesh.F
        d = body._d
        cur = np.array(d.body_mesh(body.id).mesh_nodes(), dtype=float)
        u = mesh.displacements(cur - np.asarray(mesh.fe.nodes))
        w = out.write
        w(f"mOFF {len(X)} {len(F)} {len(T)}\n")
        w("".join("%f %f %f %f %f %f\n" % (*x, *v) for x, v in zip(X, u)))
        _, disp, radius, point, force = inst[-1]  # the earliest instance
        pres = mesh.pressures(mesh.displacements(disp), radius, point, force)
        w("".join("3 %d %d %d %g %g %g\n" % (*f, *pf) for f, pf in zip(F.tolist(), pres)))
        w("".join("4 %d %d %d %d\n" % tuple(t) for t in T.tolist()))
    return 0
