"""TETRAHEDRALIZE (Solfec-1.0): a tetrahedral MESH of the volume bounded by a MESH's boundary or
by a surface file, made by TetGen's command-line mesher (Debian package `tetgen`, installed by
cmake/setup.sh), with Solfec-1.0's switches (`-pQ`, `-a<volume>`, `-q<quality>`; `-m` with a
sizing file for the refinement along convex edges, `ref_length`), and cached in a file: a
readable cache is returned as is. ELLIP_MESH (Solfec-1.0): a tetrahedral MESH of
an ellipsoid, its surface a subdivided icosahedron within a given distance of the ellipsoid."""

import os
import shutil
import tempfile

import numpy as np

from . import _args as A
from . import solfec1_mesh
from .tetgen_process import _mesh_arrays, _run_tetgen, _write_poly, boundary_facets
from .shapes import MESH, _ShapeObject

__all__ = ["TETRAHEDRALIZE", "ELLIP_MESH"]

_R = "TETRAHEDRALIZE"
_FILES = (".poly", ".smesh", ".stl", ".off", ".ply", ".mesh")  # what tetgen reads
_CACHE_FORMAT = "solfec-tetrahedralize-1"


def _convex_edge_nodes(nodes, faces, min_angle, max_angle):
    """The nodes of the convex boundary edges whose dihedral angle inside the body, in
    degrees (180 minus the angle between the two faces' outward normals), lies in
    [min_angle, max_angle): Solfec-1.0's selection for `ref_length`. An edge is convex when
    the second face lies behind the first face's plane (the body is convex there, seen from
    outside); flat edges (angle 180 within 1e-6 degrees) never are."""
    normals, centroids = [], []
    for f, _ in faces:
        P = nodes[f]
        n = np.zeros(3)  # Newell's normal: right for non-planar quadrilaterals too
        for a, b in zip(P, np.roll(P, -1, axis=0)):
            n += np.cross(a, b)
        normals.append(n / np.linalg.norm(n))
        centroids.append(P.mean(axis=0))
    owners = {}
    for k, (f, _) in enumerate(faces):
        for a, b in zip(f, f[1:] + f[:1]):
            owners.setdefault((min(a, b), max(a, b)), []).append(k)
    selected = set()
    for (a, b), ks in owners.items():
        if len(ks) != 2:  # a non-manifold edge: no dihedral angle
            continue
        k1, k2 = ks
        n1, n2 = normals[k1], normals[k2]
        cos = float(np.clip(np.dot(n1, n2), -1.0, 1.0))
        theta = 180.0 - np.degrees(np.arctan2(np.linalg.norm(np.cross(n1, n2)), cos))
        if theta >= 180.0 - 1e-6 or np.dot(n1, centroids[k2] - nodes[a]) >= 0.0:
            continue  # flat or concave
        if min_angle <= theta < max_angle:
            selected.update((a, b))
    return selected


def _write_mesh_boundary(path, mesh, refine=None):
    """The boundary of `mesh` as a .poly: its boundary nodes and one triangle facet per
    boundary triangle (quadrilaterals split along a diagonal: facets must be planar), each
    with the face's surface id as its marker. `refine` = (min_angle, max_angle, ref_length):
    also a .mtr sizing file beside it giving the nodes of the selected convex edges the edge
    length `ref_length` (0, no size, elsewhere); returns how many nodes got it."""
    s = mesh._get(_R, "shape")
    faces = s.mesh_boundary_faces()
    if not faces:
        raise ValueError("TETRAHEDRALIZE: the MESH (argument 'shape') has no boundary faces")
    nodes = np.asarray(s.mesh_nodes(), dtype=float)
    used, tris = boundary_facets(faces)
    _write_poly(path, nodes[used], tris)
    if refine is None:
        return 0
    min_angle, max_angle, ref_length = refine
    sized = _convex_edge_nodes(nodes, [(list(f), sid) for f, sid in faces], min_angle,
                               max_angle)
    if sized:
        with open(os.path.splitext(path)[0] + ".mtr", "w") as out:
            out.write(f"{len(used)} 1\n")
            for n in used:
                out.write(f"{ref_length!r}\n" if n in sized else "0\n")
    return len(sized)


def _save_cache(path, X, T, V, F, S):
    d = os.path.dirname(os.path.abspath(path))
    os.makedirs(d, exist_ok=True)
    tmp = f"{path}.{os.getpid()}.tmp"  # written whole, then renamed: never read half-written
    with open(tmp, "wb") as f:  # np.savez to a handle: the name is kept as given
        np.savez(f, format=np.array(_CACHE_FORMAT), nodes=X, tets=T, volids=V, faces=F,
                 surfids=S)
    os.replace(tmp, path)


def _load_cache(path):
    """The cached arrays, or None when `path` is not a readable cache."""
    if not os.path.isfile(path):
        return None
    try:
        with np.load(path, allow_pickle=False) as z:
            if str(z["format"]) != _CACHE_FORMAT:
                return None
            return z["nodes"], z["tets"], z["volids"], z["faces"], z["surfids"]
    except (OSError, ValueError, KeyError):
        return None


def _solfec1_to_mesh(X, elements, faces):
    spec = []
    for nodes, volid in elements:
        spec += [len(nodes), *nodes, volid]
    surfids = [faces[0][1] if faces else 0]
    for nodes, sid in faces:
        surfids += [len(nodes), *nodes, sid]
    return MESH(X.ravel().tolist(), spec, surfids)


def _to_mesh(X, T, V, F, S):
    elements = []
    for t, v in zip(T.tolist(), V.tolist()):
        elements += [4, *t, v]
    surfids = [0]
    for f, s in zip(F.tolist(), S.tolist()):
        surfids += [3, *f, s]
    return MESH(X.ravel().tolist(), elements, surfids)


def TETRAHEDRALIZE(shape, path, volume=None, quality=None, volid=None, surid=None, min_angle=0.0,
                   max_angle=180.0, ref_length=-1.0):
    """TETRAHEDRALIZE(shape, path | volume, quality, volid, surid, min_angle, max_angle,
    ref_length): a MESH of tetrahedra filling
    the volume bounded by `shape`, a MESH (its boundary faces; not emptied) or the path of a
    surface file TetGen reads (.poly, .smesh, .stl, .off, .ply, .mesh). `volume` [m^3] bounds
    the tetrahedra's volume, `quality` (> 1) their radius-edge ratio (TetGen's -a and -q);
    `volid` is the elements' volume id (default: the MESH's first element's, else 0); `surid`
    the id of every boundary face (default: the MESH's face ids, or a .poly/.smesh file's facet
    markers, else 0). `ref_length` > 0 [m] (a MESH `shape` only) refines the mesh along the
    shape's convex edges whose dihedral angle inside the body (180 degrees minus the angle
    between the faces' outward normals) is in [min_angle, max_angle) degrees (default 0, 180:
    every convex edge): their nodes get the target edge length `ref_length` (TetGen's -m);
    negative (the default, -1) turns it off (Solfec-1.0, 2015). The mesh is cached in the file
    `path`: when `path` holds such a cache it is returned and the other arguments are not
    used."""
    from .run import BARRIER, RANK
    A.string(path, _R, "path")
    # solfec-mpi: every rank sees the same cache file between two barriers (nobody writes
    # then), so all take the same branch; without a cache rank 0 meshes and writes it and the
    # other ranks then read it (as Solfec-1.0). Serial runs: the barriers do nothing.
    BARRIER()
    cached = _load_cache(path)
    BARRIER()
    if cached is not None:
        return _to_mesh(*cached)
    solfec1 = solfec1_mesh.read_mesh(path) if os.path.isfile(path) else None
    if solfec1 is not None:  # Solfec-1.0's own cache (MESH_Write) of this mesh
        return _solfec1_to_mesh(*solfec1)
    shape, volume, quality, volid, surid, refine = _arguments(
        shape, volume, quality, volid, surid, min_angle, max_angle, ref_length)
    rank = RANK()
    if rank != 0:
        BARRIER()
        cached = _load_cache(path)
        if cached is None:
            raise RuntimeError(f"TETRAHEDRALIZE: rank {rank} found no mesh cache in '{path}' "
                               f"after rank 0 meshed (rank 0 failed, or argument 'path' is not "
                               f"a file all ranks see)")
        return _to_mesh(*cached)
    try:
        return _tetrahedralize(shape, path, volume, quality, volid, surid, refine)
    finally:
        BARRIER()  # serial: no-op


def _arguments(shape, volume, quality, volid, surid, min_angle, max_angle, ref_length):
    """The checked arguments (every rank checks them the same way); `refine` is
    (min_angle, max_angle, ref_length) or None when ref_length < 0."""
    if isinstance(shape, _ShapeObject):
        if not isinstance(shape, MESH):
            raise TypeError(f"TETRAHEDRALIZE: argument 'shape' must be a MESH or the path of a "
                            f"surface file, got {type(shape).__name__}")
        shape._get(_R, "shape")
    elif isinstance(shape, (str, os.PathLike)):
        shape = os.fspath(shape)
        ext = os.path.splitext(shape)[1].lower()
        if ext not in _FILES:
            raise ValueError(f"TETRAHEDRALIZE: argument 'shape' = '{shape}' is not a file TetGen "
                             f"reads (extensions {', '.join(_FILES)})")
        if not os.path.isfile(shape):
            raise ValueError(f"TETRAHEDRALIZE: argument 'shape': file '{shape}' does not exist")
    else:
        raise TypeError(f"TETRAHEDRALIZE: argument 'shape' must be a MESH or the path of a "
                        f"surface file, got {type(shape).__name__}")
    if volume is not None:
        volume = A.number(volume, _R, "volume")
        if not volume > 0:
            raise ValueError(f"TETRAHEDRALIZE: argument 'volume' must be > 0, got {volume}")
    if quality is not None:
        quality = A.number(quality, _R, "quality")
        if not quality > 1:
            raise ValueError(f"TETRAHEDRALIZE: argument 'quality' must be > 1 (a radius-edge "
                             f"ratio bound), got {quality}")
    if volid is not None:
        volid = A.integer(volid, _R, "volid")
    if surid is not None:
        surid = A.integer(surid, _R, "surid")
    lo = A.in_range(min_angle, _R, "min_angle", 0.0, 180.0, "degrees")
    hi = A.in_range(max_angle, _R, "max_angle", 0.0, 180.0, "degrees")
    if not lo < hi:
        raise ValueError(f"TETRAHEDRALIZE: argument 'min_angle' = {min_angle!r} must be below "
                         f"'max_angle' = {max_angle!r} (edges with min_angle <= angle < "
                         f"max_angle are refined)")
    ref_length = A.number(ref_length, _R, "ref_length")
    if ref_length == 0:
        raise ValueError("TETRAHEDRALIZE: argument 'ref_length' must be > 0 (a target edge "
                         "length [m]) or negative (no refinement), got 0")
    refine = None
    if ref_length > 0:
        if not isinstance(shape, MESH):
            raise ValueError(f"TETRAHEDRALIZE: argument 'ref_length' = {ref_length!r} refines "
                             f"along the convex edges of a MESH shape only (argument 'shape' "
                             f"is the file '{shape}'); drop it or pass the surface as a MESH")
        refine = (lo, hi, ref_length)
    return shape, volume, quality, volid, surid, refine


def _tetrahedralize(shape, path, volume, quality, volid, surid, refine=None):
    sized = 0
    with tempfile.TemporaryDirectory(prefix="tetrahedralize") as tmp:
        if isinstance(shape, MESH):
            name = "surface.poly"
            sized = _write_mesh_boundary(os.path.join(tmp, name), shape, refine)
            markers = True
            if volid is None:
                volid = shape._get(_R).mesh_elements()[0][1]
        else:
            ext = os.path.splitext(shape)[1].lower()
            name = "surface" + ext
            shutil.copyfile(shape, os.path.join(tmp, name))
            markers = ext in (".poly", ".smesh")
        base = _run_tetgen(tmp, name, volume, quality, sizes=sized > 0)
        arrays = _mesh_arrays(base, 0 if volid is None else volid, surid, markers)
    _save_cache(path, *arrays)
    return _to_mesh(*arrays)


def _icosphere(level):
    """Unit-sphere points and outward triangles of an icosahedron subdivided `level` times."""
    t = (1 + 5 ** 0.5) / 2
    P = [(-1, t, 0), (1, t, 0), (-1, -t, 0), (1, -t, 0), (0, -1, t), (0, 1, t), (0, -1, -t),
         (0, 1, -t), (t, 0, -1), (t, 0, 1), (-t, 0, -1), (-t, 0, 1)]
    P = [np.asarray(p, float) / np.linalg.norm(p) for p in P]
    F = [(0, 11, 5), (0, 5, 1), (0, 1, 7), (0, 7, 10), (0, 10, 11), (1, 5, 9), (5, 11, 4),
         (11, 10, 2), (10, 7, 6), (7, 1, 8), (3, 9, 4), (3, 4, 2), (3, 2, 6), (3, 6, 8),
         (3, 8, 9), (4, 9, 5), (2, 4, 11), (6, 2, 10), (8, 6, 7), (9, 8, 1)]
    for _ in range(level):
        mid, G = {}, []

        def middle(a, b):
            key = (min(a, b), max(a, b))
            if key not in mid:
                m = P[a] + P[b]
                P.append(m / np.linalg.norm(m))
                mid[key] = len(P) - 1
            return mid[key]
        for a, b, c in F:
            ab, bc, ca = middle(a, b), middle(b, c), middle(c, a)
            G += [(a, ab, ca), (b, bc, ab), (c, ca, bc), (ab, bc, ca)]
        F = G
    return np.array(P), F


def _surface_error(P, F, center, radii):
    """Largest distance, over the triangles, between the centroid of a triangle of the mapped
    icosphere and the ellipsoid point on the same unit-sphere ray (the chord's sagitta)."""
    T = P[np.array(F)]
    c = T.mean(axis=1)
    d = c / np.linalg.norm(c, axis=1)[:, None]
    r = np.asarray(radii)
    return float(np.linalg.norm((d - c) * r, axis=1).max())


def ELLIP_MESH(center, radii, error, volid, surfid):
    """ELLIP_MESH(center, radii, error, volid, surfid): a tetrahedral MESH of the ellipsoid
    centred at `center` with semi-axes `radii` along x, y, z [m]: its surface triangles (a
    subdivided icosahedron mapped onto the ellipsoid) lie within `error` [m] of the ellipsoid
    (the sagitta at their centroids), the inside is meshed by TetGen (radius-edge ratio
    <= 2, no points added on the surface: every boundary node lies on the ellipsoid); elements
    get `volid`, boundary faces `surfid`."""
    r = "ELLIP_MESH"
    c = A.vec3(center, r, "center")
    rad = A.vec3(radii, r, "radii")
    if not all(x > 0 for x in rad):
        raise ValueError(f"ELLIP_MESH: argument 'radii' must be positive, got {tuple(rad)}")
    e = A.number(error, r, "error")
    if not e > 0:
        raise ValueError(f"ELLIP_MESH: argument 'error' must be > 0, got {e}")
    if e < 1e-4 * min(rad):
        raise ValueError(f"ELLIP_MESH: argument 'error' = {e} is below 1e-4 times the "
                         f"smallest radius: the surface would need over 10^6 triangles")
    volid = A.integer(volid, r, "volid")
    surfid = A.integer(surfid, r, "surfid")
    level = 0
    while True:
        P, F = _icosphere(level)
        if _surface_error(P, F, c, rad) <= e:
            break
        level += 1
    X = np.asarray(c) + P * np.asarray(rad)
    with tempfile.TemporaryDirectory(prefix="ellip_mesh") as tmp:
        _write_poly(os.path.join(tmp, "ellip.poly"), X, [(a, b, cc, surfid) for a, b, cc in F])
        base = _run_tetgen(tmp, "ellip.poly", None, 2.0, r, keep_surface=True)
        arrays = _mesh_arrays(base, volid, surfid, True)
    return _to_mesh(*arrays)
