"""Running TetGen's command-line mesher and reading its output: the process layer under
TETRAHEDRALIZE and ELLIP_MESH (tetgen.py) and the re-meshing of MESH parts cut through their
elements by SPLIT and SIMPLIFIED_CRACK (shapes.py, split.py). Imports no other module of the
package but the mesh-file helpers, so that the shape layers can call it."""

import os
import shutil
import subprocess
import tempfile

import numpy as np

from .meshfile import MIRROR, signed_volumes

_R = "TETRAHEDRALIZE"


def _read_table(path, first_cols):
    """Rows of a TetGen output file (.node/.ele/.face) as an int or float array, '#' comments
    skipped; the header's first `first_cols` numbers are returned too."""
    rows = []
    with open(path) as f:
        for line in f:
            line = line.split("#", 1)[0].split()
            if line:
                rows.append(line)
    header = [int(x) for x in rows[0][:first_cols]]
    return header, rows[1:]


def boundary_facets(faces):
    """(used, triangles) of a mesh boundary for _write_poly(path, nodes[used], triangles):
    `faces` [(node list of 3 or 4, surface id), ...]; `used` the mesh nodes the faces use
    (ascending), the triangles numbering them from 0; a quadrilateral is split along a
    diagonal (TetGen's facets must be planar), each triangle carrying its face's surface id as
    its marker."""
    used = sorted({n for f, _ in faces for n in f})
    index = {n: i for i, n in enumerate(used)}
    tris = []
    for f, sid in faces:
        f = [index[n] for n in f]
        tris += [(f[0], f[1], f[2], sid)] if len(f) == 3 else \
            [(f[0], f[1], f[2], sid), (f[0], f[2], f[3], sid)]
    return used, tris


def _write_poly(path, points, tris):
    """A TetGen .poly of the triangles `tris` [(a, b, c, marker), ...] (0-based indices into
    `points`), one facet each, with its marker."""
    with open(path, "w") as out:
        out.write(f"{len(points)} 3 0 0\n")
        for i, x in enumerate(points):
            out.write(f"{i + 1} {float(x[0])!r} {float(x[1])!r} {float(x[2])!r}\n")
        out.write(f"{len(tris)} 1\n")
        for a, b, c, sid in tris:
            out.write(f"1 0 {sid}\n3 {a + 1} {b + 1} {c + 1}\n")
        out.write("0\n0\n")


def _run_tetgen(workdir, name, volume, quality, routine=_R, keep_surface=False, sizes=False):
    exe = shutil.which("tetgen")
    if exe is None:
        raise RuntimeError(f"{routine}: the TetGen mesher (command 'tetgen') is not "
                           f"installed; run `bash cmake/setup.sh` or `apt-get install tetgen`")
    switches = "-pQ" + ("Y" if keep_surface else "")  # Y: no points added on the surface
    if volume is not None:
        switches += f"a{volume!r}"
    if quality is not None:
        switches += f"q{quality!r}"
    if sizes:  # the .mtr file beside the input: target edge lengths at its nodes, which
        # TetGen applies while it refines for quality: its default bound 2.0 without `quality`
        switches += ("" if quality is not None else "q") + "m"
    p = subprocess.run([exe, switches, name], cwd=workdir, capture_output=True, text=True)
    base = os.path.join(workdir, os.path.splitext(name)[0] + ".1")
    if p.returncode != 0 or not os.path.isfile(base + ".ele"):
        msg = (p.stdout + p.stderr).strip().splitlines()
        raise RuntimeError(f"{routine}: mesh generation has failed (tetgen {switches}: "
                           f"{' / '.join(msg[-3:]) if msg else 'no output'}); check that the "
                           f"surface is closed and does not intersect itself")
    return base


def _mesh_arrays(base, volid, surid, markers):
    """(nodes (n, 3), tets (m, 4) outward-numbered, faces (k, 3), sids (k,)) of TetGen's output."""
    (nn,), rows = _read_table(base + ".node", 1)
    ids = [int(r[0]) for r in rows[:nn]]
    X = np.array([[float(v) for v in r[1:4]] for r in rows[:nn]])
    where = {i: k for k, i in enumerate(ids)}  # tetgen numbers from 0 or 1 (as its input)
    (ne,), rows = _read_table(base + ".ele", 1)
    T = np.array([[where[int(v)] for v in r[1:5]] for r in rows[:ne]], dtype=np.int64)
    vol = signed_volumes(X, T)
    flip = vol < 0
    T[flip] = T[flip][:, list(MIRROR[4])]
    (nf,), rows = _read_table(base + ".face", 1)
    F = np.array([[where[int(v)] for v in r[1:4]] for r in rows[:nf]], dtype=np.int64)
    if surid is not None:
        S = np.full(len(F), surid, dtype=np.int64)
    elif markers:
        S = np.array([int(r[4]) if len(r) > 4 else 0 for r in rows[:nf]], dtype=np.int64)
    else:
        S = np.zeros(len(F), dtype=np.int64)
    return X, T, np.full(len(T), volid, dtype=np.int64), F, S


def remesh_surface(points, triangles, markers, routine="SPLIT"):
    """Tetrahedra filling a closed triangulated surface (the parts of a MESH cut through its
    elements by SPLIT or SIMPLIFIED_CRACK, src/domain/mesh_plane_remesh.h): `points` [(x, y,
    z)], `triangles` [(a, b, c)] (0-based), `markers` (>= 1, one per triangle). TetGen with
    Solfec-1.0's switches for this (radius-edge ratio <= 2, no volume bound). Returns (nodes,
    tetrahedra (positive volume), boundary triangles, their markers) as lists."""
    with tempfile.TemporaryDirectory(prefix="remesh") as tmp:
        _write_poly(os.path.join(tmp, "part.poly"), np.asarray(points, dtype=float),
                    [(a, b, c, int(m)) for (a, b, c), m in zip(triangles, markers)])
        base = _run_tetgen(tmp, "part.poly", None, 2.0, routine)
        X, T, _, F, S = _mesh_arrays(base, 0, None, True)
    return X.tolist(), T.tolist(), F.tolist(), S.tolist()
