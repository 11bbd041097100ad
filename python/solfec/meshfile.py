"""MESH_READ: first-order volume meshes from files (gmsh .msh v2/v4 and other meshio
formats) turned into the node, element and surface-id lists of MESH."""

import os

import numpy as np

__all__ = ["read_shape", "LOCAL_FACES", "MIRROR", "signed_volumes"]

# meshio cell type -> number of nodes of the first-order volume elements Solfec uses.
VOLUME_TYPES = {"tetra": 4, "pyramid": 5, "wedge": 6, "hexahedron": 8}
FACE_TYPES = {"triangle": 3, "quad": 4}
_BASE_TYPES = ("tetra", "pyramid", "wedge", "hexahedron", "triangle", "quad", "line")

# Outward (counter-clockwise from outside) local faces, as geometry::Mesh (manual Fig. 4.1).
LOCAL_FACES = {
    4: ((0, 2, 1), (0, 1, 3), (1, 2, 3), (2, 0, 3)),
    5: ((0, 3, 2, 1), (0, 1, 4), (1, 2, 4), (2, 3, 4), (3, 0, 4)),
    6: ((0, 2, 1), (3, 4, 5), (0, 1, 4, 3), (1, 2, 5, 4), (2, 0, 3, 5)),
    8: ((0, 3, 2, 1), (0, 1, 5, 4), (1, 2, 6, 5), (2, 3, 7, 6), (3, 0, 4, 7), (4, 5, 6, 7)),
}
# Mirrored local numbering (turns an element inside out), as geometry::Mesh::Transform.
MIRROR = {4: (0, 2, 1, 3), 5: (0, 3, 2, 1, 4), 6: (0, 2, 1, 3, 5, 4), 8: (0, 3, 2, 1, 4, 7, 6, 5)}


def signed_volumes(points, conn):
    """Signed volumes of elements with one node count (conn: (m, k) node indices): cones
    from the element centroid over the faces, quadrilaterals split about their centre."""
    k = conn.shape[1]
    X = points[conn]  # (m, k, 3)
    c = X.mean(axis=1)
    vol = np.zeros(len(conn))
    for face in LOCAL_FACES[k]:
        F = X[:, list(face), :]
        if len(face) == 3:
            tris = [(F[:, 0], F[:, 1], F[:, 2])]
        else:
            m = F.mean(axis=1)
            tris = [(F[:, i], F[:, (i + 1) % 4], m) for i in range(4)]
        for a, b, d in tris:
            vol += np.einsum("ij,ij->i", a - c, np.cross(b - c, d - c)) / 6.0
    return vol


def _error(path, what, fix):
    return ValueError(f"MESH_READ: {what} in '{path}' (argument 'path'); {fix}")


def _cell_blocks(mesh):
    """[(type, data, physical tags or None)] of a meshio mesh."""
    phys = mesh.cell_data.get("gmsh:physical")
    out = []
    for b, block in enumerate(mesh.cells):
        tags = None
        if phys is not None and b < len(phys):
            tags = np.asarray(phys[b]).astype(np.int64).ravel()
        out.append((block.type, np.asarray(block.data, dtype=np.int64), tags))
    return out


def _check_order(path, blocks):
    for ctype, _, _ in blocks:
        base = ctype.rstrip("0123456789")
        if base != ctype and base in _BASE_TYPES:
            raise _error(path, f"second-order cells '{ctype}'",
                         "Solfec meshes are first order: re-mesh with order 1 (gmsh -order 1)")


def _read(path):
    try:
        import meshio
    except ImportError:
        raise ImportError("MESH_READ: needs the meshio package (Debian: apt install "
                          "python3-meshio; or pip install meshio)") from None
    try:
        return meshio.read(path)
    except (Exception, SystemExit) as exc:  # meshio raises many kinds (ReadError,
        # ValueError, KeyError...) and exits (SystemExit) on a file of no format it knows
        why = (f"{type(exc).__name__}: {exc}" if not isinstance(exc, SystemExit) else
               "not a mesh file of a format meshio knows (gmsh .msh, Abaqus .inp, VTK, ...)")
        raise ValueError(f"MESH_READ: cannot read '{path}' (argument 'path'): {why}") from None


def mesh_lists(path, volid, surfid):
    """(nodes flat, elements flat, surfids flat) of MESH from a mesh file."""
    m = _read(path)
    blocks = _cell_blocks(m)
    _check_order(path, blocks)
    points = np.asarray(m.points, dtype=float)
    if points.ndim != 2 or points.shape[1] not in (2, 3):
        raise _error(path, "no 3-D points", "give a 3-D volume mesh")
    if points.shape[1] == 2:
        raise _error(path, "2-D points only", "give a 3-D volume mesh")
    vols = [(VOLUME_TYPES[t], d, tags) for t, d, tags in blocks if t in VOLUME_TYPES]
    if not vols or sum(len(d) for _, d, _ in vols) == 0:
        found = sorted({t for t, _, _ in blocks})
        raise _error(path, f"no tetrahedra, pyramids, wedges or hexahedra (cells: {found})",
                     "give a 3-D volume mesh")
    # Nodes used by volume cells, renumbered in file order.
    used = np.unique(np.concatenate([d.ravel() for _, d, _ in vols]))
    if used.min() < 0 or used.max() >= len(points):
        raise _error(path, "a cell node index out of range", "check the file")
    new = np.full(len(points), -1, dtype=np.int64)
    new[used] = np.arange(len(used))
    X = points[used]
    elements = []
    for k, d, tags in vols:
        conn = new[d]
        # Formats differ in wedge (and possibly other) orientations: elements whose file
        # numbering gives a negative volume are mirrored (a tangled element stays invalid).
        neg = signed_volumes(X, conn) < 0
        if neg.any():
            conn[neg] = conn[neg][:, list(MIRROR[k])]
        ids = tags if tags is not None and len(tags) == len(conn) else None
        for e, row in enumerate(conn):
            vid = int(ids[e]) if ids is not None and ids[e] > 0 else volid
            elements.append((row, vid))
    # Boundary faces (used by exactly one element).
    count = {}
    for row, _ in elements:
        for face in LOCAL_FACES[len(row)]:
            key = tuple(sorted(int(row[i]) for i in face))
            count[key] = count.get(key, 0) + 1
    surf = []
    for t, d, tags in blocks:
        if t not in FACE_TYPES or tags is None or len(tags) != len(d):
            continue
        for face, sid in zip(new[d], tags):
            if (face < 0).any() or sid <= 0:
                continue  # a face off the volume mesh or untagged
            key = tuple(sorted(int(v) for v in face))
            if count.get(key) == 1:  # tagged interior faces (interfaces) are ignored
                surf.append((face, int(sid)))
    nodes = X.ravel().tolist()
    flat_e = []
    for row, vid in elements:
        flat_e += [len(row), *row.tolist(), vid]
    flat_s = [surfid]
    for face, sid in surf:
        flat_s += [len(face), *face.tolist(), sid]
    return nodes, flat_e, flat_s


def read_shape(path, volid, surfid):
    """The core Shape holding the mesh of a file (errors name MESH_READ and the file)."""
    from ._solfec import Shape
    path = os.fspath(path)
    if not os.path.isfile(path):
        raise FileNotFoundError(f"MESH_READ: no file '{path}' (argument 'path')")
    nodes, elements, surfids = mesh_lists(path, volid, surfid)
    s = Shape()
    try:
        s.add_mesh(nodes, elements, surfids)
    except ValueError as exc:
        raise ValueError(f"MESH_READ: the mesh in '{path}' is invalid: {exc}") from None
    return s
