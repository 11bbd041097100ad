"""Geometric objects and shape routines of the deck language (manual 4.1.1-4.1.3, 4.4):
CONVEX, HULL, SPHERE, MESH, HEX, ROUGH_HEX, MESH_READ, BEND, COPY, TRANSLATE, ROTATE, SCALE,
SPLIT, MASS_CENTER, and Solfec-1.0's ELLIP, OVERLAPPING and MESH2CONVEX."""

import math

from . import _args as A
from . import _state
from . import meshfile
from .tetgen_process import remesh_surface
from ._solfec import Shape as _Shape
from . import _solfec

__all__ = ["CONVEX", "HULL", "SPHERE", "ELLIP", "MESH", "HEX", "ROUGH_HEX", "MESH_READ", "BEND",
           "COPY", "TRANSLATE", "ROTATE", "SCALE", "SPLIT", "MASS_CENTER", "OVERLAPPING",
           "MESH2CONVEX"]


class _ShapeObject:
    """Common part of CONVEX, SPHERE and MESH: holds the core shape until a routine empties it."""

    _kind = "SHAPE"

    @classmethod
    def _wrap(cls, shape):
        obj = cls.__new__(cls)
        obj._shape = shape
        return obj

    def _get(self, routine="", arg="shape"):
        if self._shape is None:
            where = f"{routine}: " if routine else ""
            raise ValueError(f"{where}the {self._kind} object (argument '{arg}') was emptied by an "
                             f"earlier BODY or SPLIT; use COPY to keep a shape for reuse")
        return self._shape

    def _take(self, routine, arg="shape"):
        s = self._get(routine, arg)
        self._shape = None
        return s

    def __repr__(self):
        if self._shape is None:
            return f"<{self._kind} (emptied)>"
        return f"<{self._kind}>"


class CONVEX(_ShapeObject):
    """CONVEX(vertices, faces, volid | convex): a convex polyhedron, or a collection of them
    when `convex` (emptied) is given. vertices [x0, y0, z0, ...]; faces [n, v1..vn, surfid, ...]
    with vertices counter-clockwise seen from outside."""

    _kind = "CONVEX"

    def __init__(self, vertices, faces, volid, convex=None):
        r = "CONVEX"
        v = A.coordinates(A.numbers_list(vertices, r, "vertices", 3, 12), r, "vertices")
        f = A.integers_list(faces, r, "faces")
        vid = A.integer(volid, r, "volid")
        s = _Shape()
        s.add_convex(v, f, vid)
        _check_closed(v, f, r)
        if convex is not None:
            A.instance(convex, CONVEX, r, "convex")
            s.append(convex._take(r, "convex"))
        self._shape = s

    @property
    def nver(self):
        return len(self._get().convex_vertices())

    def vertex(self, n):
        verts = self._get().convex_vertices()
        n = A.integer(n, "CONVEX.vertex", "n")
        if not 0 <= n < len(verts):
            raise IndexError(f"CONVEX.vertex: index {n} out of range [0, {len(verts)})")
        return verts[n]


def _check_closed(vertices, faces, routine):
    """A CONVEX's faces must close its surface: every edge a -> b of a face (counter-clockwise
    from outside) is walked b -> a by exactly one other face (vertices at the same position
    count as one). An open surface (a missing face) would give a wrong volume, mass and
    inertia without any other sign."""
    first = {}
    same = [first.setdefault(tuple(vertices[3 * k:3 * k + 3]), k)
            for k in range(len(vertices) // 3)]
    edges, i = {}, 0
    while i < len(faces):
        n = faces[i]
        ids = [same[k] for k in faces[i + 1:i + 1 + n]]
        for a, b in zip(ids, ids[1:] + ids[:1]):
            if a != b:
                edges[(a, b)] = edges.get((a, b), 0) + 1
        i += n + 2
    for (a, b), k in edges.items():
        if k != 1 or edges.get((b, a), 0) != 1:
            what = ("is used twice in the same direction" if k != 1 else
                    "borders only one face: the surface is open (a face is missing?)")
            raise ValueError(f"{routine}: edge ({a}, {b}) {what} (argument 'faces'); the faces "
                             f"must close the convex, each edge shared by two faces")


def HULL(points, volid, surfid, convex=None):
    """HULL(points, volid, surfid | convex): convex hull of a point set [x0, y0, z0, ...]."""
    r = "HULL"
    p = A.coordinates(A.numbers_list(points, r, "points", 3, 3), r, "points")
    s = _solfec.hull(p, A.integer(volid, r, "volid"), A.integer(surfid, r, "surfid"))
    if convex is not None:
        A.instance(convex, CONVEX, r, "convex")
        s.append(convex._take(r, "convex"))
    return CONVEX._wrap(s)


class SPHERE(_ShapeObject):
    """SPHERE(center, radius, volid, surfid | sphere): a sphere (or a collection of them)."""

    _kind = "SPHERE"

    def __init__(self, center, radius, volid, surfid, sphere=None):
        r = "SPHERE"
        c = A.coordinates(A.vec3(center, r, "center"), r, "center")
        rad = A.in_range(radius, r, "radius", A.RADIUS_MIN, A.RADIUS_MAX, "m")
        s = _Shape()
        s.add_sphere(c, rad, A.integer(volid, r, "volid"), A.integer(surfid, r, "surfid"))
        if sphere is not None:
            A.instance(sphere, SPHERE, r, "sphere")
            s.append(sphere._take(r, "sphere"))
        self._shape = s

    @property
    def center(self):
        return self._get().spheres()[0][0]

    @property
    def radius(self):
        return self._get().spheres()[0][1]


class ELLIP(_ShapeObject):
    """ELLIP(center, radii, volid, surfid): an ellipsoid (Solfec-1.0) with semi-axes radii =
    (a, b, c) along x, y, z before ROTATE; members center, radii and rot (the rotation whose
    columns are the current semi-axis directions, 9 numbers column by column as Solfec-1.0's
    cur_rot), read-only. RIGID and OBSTACLE bodies carry it rigidly, PSEUDO_RIGID bodies
    deform it (an ellipsoid under F); FINITE_ELEMENT bodies refuse it (use ELLIP_MESH)."""

    _kind = "ELLIP"

    def __init__(self, center, radii, volid, surfid):
        r = "ELLIP"
        c = A.coordinates(A.vec3(center, r, "center"), r, "center")
        rad = A.vec3(radii, r, "radii")
        for i, x in enumerate(rad):
            if not (A.RADIUS_MIN <= x <= A.RADIUS_MAX):
                raise ValueError(f"ELLIP: argument 'radii[{i}]' = {x!r} is out of its valid "
                                 f"range [{A.RADIUS_MIN:g}, {A.RADIUS_MAX:g}] m")
        s = _Shape()
        s.add_ellipsoid(c, rad, A.integer(volid, r, "volid"), A.integer(surfid, r, "surfid"))
        self._shape = s

    def _first(self, member):
        e = self._get(f"ELLIP.{member}").ellipsoids()
        if not e:
            raise ValueError(f"ELLIP.{member}: the object holds no ellipsoid")
        return e[0]

    @property
    def center(self):
        return tuple(self._first("center")[0])

    @property
    def radii(self):
        return tuple(self._first("radii")[1])

    @property
    def rot(self):
        q = self._first("rot")[2]  # row by row
        return tuple(q[3 * j + i] for i in range(3) for j in range(3))


def _warn_coincident_nodes(coords, routine):
    """Warns of nodes at the same position (within 1e-12 of the mesh extent): elements that
    use different ones of them are not connected (a crack in a FINITE_ELEMENT body)."""
    import warnings
    import numpy as np
    x = np.asarray(coords, dtype=float).reshape(-1, 3)
    tol = 1e-12 * max(float(np.ptp(x, axis=0).max()), 1e-300)
    keys = np.round((x - x.min(axis=0)) / tol).astype(np.int64) if np.isfinite(tol) else x
    _, first, inverse, counts = np.unique(keys, axis=0, return_index=True,
                                          return_inverse=True, return_counts=True)
    dup = np.nonzero(counts[inverse.ravel()] > 1)[0]
    if dup.size == 0:
        return
    groups = {}
    for i in dup:
        groups.setdefault(int(first[inverse.ravel()[i]]), []).append(int(i))
    shown = "; ".join(f"nodes {g} at {tuple(float(v) for v in x[g[0]])}"
                      for g in list(groups.values())[:5])
    more = f"; ... ({len(groups) - 5} more groups)" if len(groups) > 5 else ""
    warnings.warn(f"{routine}: {dup.size} nodes share {len(groups)} positions (coincident "
                  f"duplicate nodes: {shown}{more}); elements using different copies are not "
                  f"connected", stacklevel=3)


def _highest_node(elements):
    """The highest node index of MESH element records [k, n1..nk, volid, ...] (None when they
    are malformed: MESH's own checks then report it)."""
    top, pos = -1, 0
    while pos < len(elements):
        k = elements[pos]
        if k not in (4, 5, 6, 8) or pos + k + 2 > len(elements):
            return None
        top = max(top, *elements[pos + 1:pos + 1 + k])
        pos += k + 2
    return top if top >= 0 else None


class MESH(_ShapeObject):
    """MESH(nodes, elements, surfids): a volume mesh of tetrahedra (4 nodes), pyramids (5),
    wedges (6) and hexahedra (8). elements [k, n1..nk, volid, ...]; surfids gid or
    [gid, k, n1..nk, sid, ...] (k = 3 or 4)."""

    _kind = "MESH"

    def __init__(self, nodes, elements, surfids):
        r = "MESH"
        n = A.coordinates(A.numbers_list(nodes, r, "nodes", 3, 12), r, "nodes")
        e = A.integers_list(elements, r, "elements")
        if isinstance(surfids, bool) or not isinstance(surfids, (int, list, tuple)):
            raise TypeError(f"MESH: argument 'surfids' must be an integer or a list, got "
                            f"{type(surfids).__name__}")
        sids = [surfids] if isinstance(surfids, int) else A.integers_list(surfids, r, "surfids")
        used = _highest_node(e)
        if used is not None and 3 * (used + 1) < len(n):
            n = n[:3 * (used + 1)]  # Solfec-1.0: trailing nodes no element uses are dropped
        s = _Shape()
        s.add_mesh(n, e, sids)
        self._shape = s
        _warn_coincident_nodes(n, r)

    @property
    def nnod(self):
        return self._get().mesh_node_count()

    @property
    def nelem(self):
        return self._get().mesh_element_count()

    def node(self, n, x=None, y=None, z=None):
        s = self._get()
        n = A.integer(n, "MESH.node", "n")
        count = s.mesh_node_count()
        if not 0 <= n < count:
            raise IndexError(f"MESH.node: index {n} out of range [0, {count})")
        old = s.mesh_node(n)  # one node: O(1) (MESH.node is called in loops over the nodes)
        if x is None and y is None and z is None:
            return old
        # each coordinate given is set, the others kept (Solfec-1.0)
        p = tuple(old[i] if v is None else A.number(v, "MESH.node", a)
                  for i, (v, a) in enumerate(((x, "x"), (y, "y"), (z, "z"))))
        self._shape.set_mesh_node(n, p)
        return p

    def inter_element_faces(self):
        """Faces shared by two elements, each as the node list of the face in the first
        element using it (outward from that element), in element order."""
        seen, out = {}, []
        for nodes, _ in self._get("MESH.inter_element_faces").mesh_elements():
            for face in meshfile.LOCAL_FACES[len(nodes)]:
                f = [nodes[i] for i in face]
                key = tuple(sorted(f))
                if key in seen:
                    out.append(seen.pop(key))
                else:
                    seen[key] = f
        return out

    def nodes_on_surface(self, surfid):
        return list(self._get().nodes_on_surface(A.integer(surfid, "MESH.nodes_on_surface",
                                                           "surfid")))

    # --- Solfec-1.0 MESH methods: faces on a plane, mesh data, volume ids, integration points

    def inter_element_faces_on_plane(self, point, normal, ref=True, eps=None):
        """Inter-element faces (as inter_element_faces()) whose nodes all lie within `eps` of
        the plane through `point` with `normal` (distance along the normalised normal). `ref`
        True uses the referential, False the current configuration; both are the node
        coordinates of a MESH object (node() and the shape routines move both, as in
        Solfec-1.0). eps > 0 [m]; default 1e-4 of the largest extent of the mesh (Solfec-1.0's
        GEOMETRIC_EPSILON is 1e-4 of the sampled node spacing)."""
        import numpy as np
        r = "MESH.inter_element_faces_on_plane"
        p = np.array(A.vec3(point, r, "point"))
        n = np.array(A.direction(normal, r, "normal"))
        if not isinstance(ref, bool):
            raise TypeError(f"{r}: argument 'ref' must be True or False, got "
                            f"{type(ref).__name__} {ref!r}")
        x = np.array(self._get(r).mesh_nodes(), dtype=float).reshape(-1, 3)
        if eps is None:
            eps = 1e-4 * float((x.max(axis=0) - x.min(axis=0)).max())
        else:
            eps = A.positive(eps, r, "eps")
        dist = np.abs((x - p) @ (n / np.linalg.norm(n)))
        return [f for f in self.inter_element_faces() if (dist[f] <= eps).all()]

    def _single_mesh(self, routine):
        s = self._get(routine)
        if s.num_meshes != 1 or s.num_convexes or s.num_spheres:
            raise ValueError(f"{routine}: the MESH object holds {s.num_meshes} meshes, "
                             f"{s.num_convexes} convexes and {s.num_spheres} spheres; it must "
                             f"hold one mesh")
        return s

    def get_data(self):
        """(nodes, elements, surfids) in the form MESH(nodes, elements, surfids) takes:
        nodes [x0, y0, z0, ...] (current coordinates), elements [k, n1..nk, volid, ...] in
        element order, surfids [gid, k, n1..nk, sid, ...] listing the boundary faces whose
        surface id differs from gid (Solfec-1.0 returns gid 0 and lists faces with sid != 0;
        the boundary surface ids are the same)."""
        s = self._single_mesh("MESH.get_data")
        nodes = [float(c) for p in s.mesh_nodes() for c in p]
        elements = []
        for idx, volid in s.mesh_elements():
            elements += [len(idx), *idx, volid]
        gid = s.mesh_default_surfid  # the id of faces not listed (and of MESH2CONVEX's inner)
        surfids = [gid]
        for idx, sid in s.mesh_boundary_faces():
            if sid != gid:
                surfids += [len(idx), *idx, sid]
        return nodes, elements, surfids

    def set_volid(self, volid):
        """Sets the volume id of every element to `volid`; returns it (Solfec-1.0). Nodes,
        elements and surface ids are kept."""
        r = "MESH.set_volid"
        v = A.integer(volid, r, "volid")
        nodes, elements, surfids = self.get_data()
        pos = 0
        while pos < len(elements):  # records [k, n1..nk, volid]
            pos += elements[pos] + 2
            elements[pos - 1] = v
        s = _Shape()
        try:
            s.add_mesh(nodes, elements, surfids)
        except ValueError as e:  # e.g. an element inverted by MESH.node since MESH(...)
            raise ValueError(f"{r}: the mesh cannot be rebuilt with volid {v}: {e}") from None
        self._shape = s
        return v

    def surface_integration_points(self, surfid=None):
        """[(x, y, z), ...] integration points of the boundary faces with surface id `surfid`
        (default: all boundary faces), face by face in boundary face order: Solfec-1.0's face
        rules, the centroid of a triangle and the 2 x 2 Gauss points of a quadrilateral."""
        r = "MESH.surface_integration_points"
        sid = None if surfid is None else A.integer(surfid, r, "surfid")
        x, _ = _solfec.mesh_integration_points(self._single_mesh(r), "surface", sid)
        return [tuple(p) for p in x.tolist()]

    def volume_integration_points(self, volid=None):
        """[(x, y, z), ...] integration points of the elements with volume id `volid` (default:
        all elements), element by element in Solfec-1.0's order (elements with a boundary
        face first, then the others, each in element order): the 2nd order rules of
        Solfec-1.0's fem.c, 4 points in a tetrahedron, 8 in a pyramid, 6 in a wedge and the
        2 x 2 x 2 Gauss points of a hexahedron."""
        r = "MESH.volume_integration_points"
        vid = None if volid is None else A.integer(volid, r, "volid")
        x, _ = _solfec.mesh_integration_points(self._single_mesh(r), "volume", vid)
        return [tuple(p) for p in x.tolist()]


class _BodyMesh(MESH):
    """BODY.mesh (Solfec-1.0): a live view of a body's mesh with the nodes at their current
    positions (the referential ones before the first RUN; in READ mode those of the frame
    SEEK went to): of a FINITE_ELEMENT body its mesh (the background mesh of embedded
    shapes); of other kinds a MESH the body's shape held (`ref`, the referential copy kept by
    BODY), its nodes moved with the body. Read it with the MESH members; COPY(body.mesh)
    gives an independent MESH."""

    def __init__(self, domain, body_id, ref=None):
        self._domain, self._body_id, self._ref = domain, body_id, ref

    @property
    def _shape(self):
        if self._ref is None:
            return self._domain.body_mesh(self._body_id)
        s = self._ref.copy()
        for n, X in enumerate(self._ref.mesh_nodes()):
            s.set_mesh_node(n, tuple(self._domain.body_point(self._body_id, X)))
        return s

    @_shape.setter
    def _shape(self, value):  # BODY/SPLIT taking the view as a shape: the body keeps its mesh
        pass

    def node(self, n, x=None, y=None, z=None):
        if x is not None or y is not None or z is not None:
            raise ValueError("MESH.node: the mesh of a BODY (BODY.mesh) follows the body; its "
                             "nodes cannot be set (change a COPY(body.mesh) instead)")
        if self._ref is None:  # one node of the body's mesh, without copying the mesh
            n = A.integer(n, "MESH.node", "n")
            return tuple(float(c) for c in self._domain.body_mesh_node(self._body_id, n))
        X = MESH._wrap(self._ref).node(n)
        return tuple(self._domain.body_point(self._body_id, X))

    def inter_element_faces_on_plane(self, point, normal, ref=True, eps=None):
        # ref True: the body's referential mesh (Solfec-1.0's MESH ref_nodes), not the
        # current node positions the view holds
        if ref is not True:
            return super().inter_element_faces_on_plane(point, normal, ref, eps)
        if self._ref is None:
            s = self._domain.body_mesh(self._body_id).copy()
            X = _solfec.fe_referential_nodes(self._domain, self._body_id,
                                             "MESH.inter_element_faces_on_plane")
            for n, x in enumerate(X):
                s.set_mesh_node(n, tuple(float(c) for c in x))
        else:
            s = self._ref.copy()
        return MESH._wrap(s).inter_element_faces_on_plane(point, normal, True, eps)

    def set_volid(self, volid):
        raise ValueError("MESH.set_volid: the mesh of a BODY (BODY.mesh) cannot be changed; "
                         "use APPLY_BULKMAT for the body, or change a COPY(body.mesh)")

    def __repr__(self):
        return f"<MESH of BODY {self._body_id}>"


@A.keyword_aliases("HEX", surids="surfids")
def HEX(nodes, i, j, k, volid, surfids, dx=None, dy=None, dz=None):
    """HEX(nodes, i, j, k, volid, surfids | dx, dy, dz): hexahedral MESH spanned on 8 corners.
    surfids go on the faces z-min, x-min, y-max, x-max, y-min, z-max (local axes: x along
    n1 - n0, y along n2 - n1), as Solfec-1.0's msh.c. As Solfec-1.0, corners 4-7 listed below
    0-3 (a left-handed order) are swapped with them (the ids follow the swapped corners), and
    a list of more than 6 surface ids uses the first 6."""
    r = "HEX"
    n = A.numbers_list(nodes, r, "nodes", 3, 24)
    if len(n) != 24:
        raise ValueError(f"HEX: argument 'nodes' must hold 8 points (24 numbers), got {len(n)}")
    p = [n[3 * a:3 * a + 3] for a in range(8)]
    vx, vy, vz = ([u - w for u, w in zip(p[a], p[b])] for a, b in ((1, 0), (2, 1), (4, 0)))
    cross = (vx[1] * vy[2] - vx[2] * vy[1], vx[2] * vy[0] - vx[0] * vy[2],
             vx[0] * vy[1] - vx[1] * vy[0])
    if sum(c * z for c, z in zip(cross, vz)) < 0:  # upper and lower corners swapped
        n = n[12:] + n[:12]
    ijk = _subdivisions(r, i, j, k)
    sids = A.integers_list(surfids, r, "surfids")
    if len(sids) < 6:
        raise ValueError(f"HEX: argument 'surfids' must list 6 surface ids, got {len(sids)}")
    sids = sids[:6]
    grading = _grading(r, ijk, dx, dy, dz)
    s = _solfec.hex(n, ijk[0], ijk[1], ijk[2], A.integer(volid, r, "volid"), sids, *grading)
    return MESH._wrap(s)


def _subdivisions(r, i, j, k):
    ijk = [A.integer(v, r, a) for v, a in ((i, "i"), (j, "j"), (k, "k"))]
    for v, a in zip(ijk, "ijk"):
        if v < 1:
            raise ValueError(f"{r}: argument '{a}' must be >= 1, got {v}")
    return ijk


def _grading(r, ijk, dx, dy, dz):
    grading = []
    for g, a, cnt in ((dx, "dx", ijk[0]), (dy, "dy", ijk[1]), (dz, "dz", ijk[2])):
        if g is None:
            grading.append([])
            continue
        lst = A.numbers_list(g, r, a)
        if len(lst) != cnt:
            raise ValueError(f"{r}: argument '{a}' has {len(lst)} entries but {cnt} subdivisions")
        if any(x <= 0 for x in lst):
            raise ValueError(f"{r}: argument '{a}' must hold positive ratios")
        grading.append(lst)
    return grading


def ROUGH_HEX(shape, i, j, k, dx=None, dy=None, dz=None):
    """ROUGH_HEX(shape, i, j, k | dx, dy, dz): an i x j x k hexahedral MESH (graded as HEX)
    bounding a CONVEX (or a list of them, not emptied): of the axis-aligned box and the box
    along the principal axes of the shape, the smaller one, enlarged by 1% per side; volid
    and surface ids 0 (docs/deck-language.md)."""
    r = "ROUGH_HEX"
    objs = _objects(shape, r)
    for o in objs:
        if not isinstance(o, CONVEX):
            raise TypeError(f"{r}: argument 'shape' must be a CONVEX or a list of CONVEX "
                            f"objects, got {o._kind}")
    ijk = _subdivisions(r, i, j, k)
    grading = _grading(r, ijk, dx, dy, dz)
    whole = _Shape()
    for o in objs:
        whole.append(o._get(r).copy())
    return MESH._wrap(_solfec.rough_hex(whole, ijk[0], ijk[1], ijk[2], *grading))


@A.keyword_aliases("BEND", shape="mesh", angle="degrees")
def BEND(mesh, point, direction, degrees):
    """BEND(mesh, point, direction, degrees): bends a MESH in place about the axis (point,
    direction): the mesh's long extent normal to the axis is wrapped onto an arc of
    `degrees` about it, each node keeping its distance from the axis (precise definition in
    docs/deck-language.md); returns the mesh."""
    r = "BEND"
    A.instance(mesh, MESH, r, "mesh")
    p = A.vec3(point, r, "point")
    d = A.direction(direction, r, "direction")
    ang = A.number(degrees, r, "degrees")
    if ang == 0 or abs(ang) > 360:
        raise ValueError(f"{r}: argument 'degrees' must satisfy 0 < |degrees| <= 360, got {ang}")
    mesh._get(r, "mesh").bend(p, d, ang)
    return mesh


def MESH_READ(path, volid=1, surfid=1):
    """MESH_READ(path | volid=1, surfid=1): a MESH read from a file (gmsh .msh v2/v4 or any
    meshio format) of first-order tetrahedra, pyramids, wedges and hexahedra; gmsh physical
    tags give volume ids (volume cells) and surface ids (boundary triangles and quads);
    untagged elements and faces get `volid` and `surfid` (docs/deck-language.md)."""
    r = "MESH_READ"
    p = str(path.__fspath__()) if hasattr(path, "__fspath__") else A.string(path, r, "path")
    s = meshfile.read_shape(p, A.integer(volid, r, "volid"), A.integer(surfid, r, "surfid"))
    return MESH._wrap(s)


def _objects(shape, routine, arg="shape"):
    """A shape argument as a flat list of shape objects (an object or a list of them)."""
    if isinstance(shape, _ShapeObject):
        return [shape]
    if isinstance(shape, (list, tuple)):
        out = []
        for i, s in enumerate(shape):
            if not isinstance(s, _ShapeObject):
                raise TypeError(f"{routine}: element {i} of argument '{arg}' must be a CONVEX, "
                                f"MESH, SPHERE or ELLIP, got {type(s).__name__}")
            out.append(s)
        if not out:
            raise ValueError(f"{routine}: argument '{arg}' is an empty list; pass a CONVEX, "
                             f"MESH, SPHERE or ELLIP")
        return out
    raise TypeError(f"{routine}: argument '{arg}' must be a CONVEX, MESH, SPHERE, ELLIP or a list "
                    f"of them, got {type(shape).__name__}")


def _is_point(v):
    return isinstance(v, tuple) and len(v) == 3 and all(
        isinstance(x, (int, float)) and not isinstance(x, bool) for x in v)


def COPY(shape):
    """COPY(shape): a deep copy of an object or a list of objects."""
    if isinstance(shape, (list, tuple)):
        return [COPY(s) for s in _objects(shape, "COPY")]
    obj = _objects(shape, "COPY")[0]
    cls = MESH if isinstance(obj, _BodyMesh) else type(obj)  # BODY.mesh: an independent MESH
    return cls._wrap(obj._get("COPY").copy())


def _check_moved_bounds(objs, routine, corners):
    """Refuses a transform that would move a shape out of the valid coordinate range
    (A.COORD_MAX): `corners(lo, hi)` gives the transformed bounding-box corners."""
    for o in objs:
        b = o._get(routine).bounds()
        for c in corners(b[:3], b[3:]):
            for x in c:
                if not abs(x) <= A.COORD_MAX:
                    raise ValueError(f"{routine}: the shape would reach the coordinate {x:g}, "
                                     f"out of the valid range [-{A.COORD_MAX:g}, "
                                     f"{A.COORD_MAX:g}] m; nothing was changed")


def TRANSLATE(shape, vector):
    """TRANSLATE(shape | point, vector): translates in place (a point tuple gives a new tuple)."""
    v = A.vec3(vector, "TRANSLATE", "vector")
    if _is_point(shape):
        return tuple(a + b for a, b in zip(shape, v))
    objs = _objects(shape, "TRANSLATE")
    _check_moved_bounds(objs, "TRANSLATE",
                        lambda lo, hi: [[a + d for a, d in zip(lo, v)],
                                        [a + d for a, d in zip(hi, v)]])
    for o in objs:
        o._get("TRANSLATE").translate(v)
    return shape


def ROTATE(shape, point, vector, angle):
    """ROTATE(shape | point, point, vector, angle): rotation about an axis by angle [degrees]."""
    r = "ROTATE"
    p = A.vec3(point, r, "point")
    ax = A.direction(vector, r, "vector")
    # reduced exactly (fmod) to (-360, 360): sin and cos of a huge angle in radians are
    # meaningless (ROTATE by 1e300 degrees gave NaN coordinates)
    ang = math.fmod(A.number(angle, r, "angle"), 360.0)
    if _is_point(shape):
        tmp = _Shape()
        tmp.add_sphere(A.vec3(shape, r, "shape"), 1.0, 0, 0)
        tmp.rotate(p, ax, ang)
        return tuple(tmp.spheres()[0][0])
    for o in _objects(shape, r):
        o._get(r).rotate(p, ax, ang)
    return shape


def SCALE(shape, coefs):
    """SCALE(shape | point, coefs): scales along x, y, z (a point tuple gives a new tuple)."""
    c = A.vec3(coefs, "SCALE", "coefs")
    if _is_point(shape):
        return tuple(a * b for a, b in zip(shape, c))
    if any(x == 0 for x in c):
        raise ValueError("SCALE: argument 'coefs' has a zero factor; a shape cannot be flattened")
    objs = _objects(shape, "SCALE")
    _check_moved_bounds(objs, "SCALE", lambda lo, hi: [[a * k for a, k in zip(lo, c)],
                                                       [a * k for a, k in zip(hi, c)]])
    for o in objs:
        o._get("SCALE").scale(c)
    return shape


def _wrap_parts(s):
    if s.empty:
        return None
    if s.num_ellipsoids:
        return ELLIP._wrap(s)
    if s.num_spheres == 0:
        return CONVEX._wrap(s)
    return SPHERE._wrap(s)


def _split_meshes(objs, p, n, sid, topoadj, remesh):
    """SPLIT of MESH objects along their inter-element faces on the plane (Solfec-1.0's
    inter-element split; with topoadj only the faces connected to the one nearest to the
    point, which may leave one mesh with a slit, returned as the below part)."""
    below, above = [], []
    for o in objs:
        shp = o._get("SPLIT")
        faces, crossing = _solfec.mesh_faces_on_plane(shp, p, n, topoadj)
        if crossing and (not faces or not topoadj):
            if not remesh:
                raise ValueError(
                    f"SPLIT: the plane cuts through {crossing} elements of the MESH (arguments "
                    f"'point', 'normal') and remesh is 'OFF': without re-meshing a MESH is "
                    f"split along inter-element faces only")
            parts, nbelow = _solfec.remesh_split_mesh(shp, p, n, sid[0], sid[1], topoadj,
                                                      remesh_surface)
            below += [MESH._wrap(s) for s in parts[:nbelow]]
            above += [MESH._wrap(s) for s in parts[nbelow:]]
            continue
        if not faces:  # the plane misses the mesh: it goes whole to its side
            c = shp.mass_center()
            side = below if sum((a - b) * m for a, b, m in zip(c, p, n)) < 0 else above
            side.append(MESH._wrap(shp.copy()))
            continue
        parts, _ = _solfec.split_mesh_at_faces(shp, faces, sid[0], sid[1])
        if len(parts) == 1:
            below.append(MESH._wrap(parts[0][0]))
            continue
        for part, *_ in parts:
            c = part.mass_center()
            side = below if sum((a - b) * m for a, b, m in zip(c, p, n)) < 0 else above
            side.append(MESH._wrap(part))
    for o in objs:
        o._shape = None
    pack = lambda lst: None if not lst else lst[0] if len(lst) == 1 else lst  # noqa: E731
    return pack(below), pack(above)


def SPLIT(shape, point, normal, surfid=(0, 0), topoadj="OFF", remesh="ON"):
    """SPLIT(shape, point, normal | surfid, topoadj, remesh): (below, above) parts cut by a
    plane; the shape is emptied; cut faces get surfid[0] below and surfid[1] above; None for
    an empty side. MESH objects are split along their inter-element faces on the plane
    (topoadj 'ON': only those connected to the point; a slit mesh comes back as `below`);
    a plane through elements (remesh 'ON', the default) re-meshes each side with tetrahedra
    (TetGen), the cut faces getting the surfids (topoadj 'ON' with the section in pieces:
    the mesh re-meshed whole with the piece next to the point inside, then split along it)."""
    r = "SPLIT"
    objs = _objects(shape, r)
    p = A.vec3(point, r, "point")
    n = A.direction(normal, r, "normal")
    sid = A.vec(surfid, 2, r, "surfid")
    sid = (int(sid[0]), int(sid[1]))
    kinds = {type(o) for o in objs}
    if MESH in kinds:
        if len(kinds) > 1:
            raise ValueError("SPLIT: mixed MESH and other input (argument 'shape'); split them "
                             "separately")
        return _split_meshes(objs, p, n, sid, A.onoff(topoadj, r, "topoadj"),
                             A.onoff(remesh, r, "remesh"))
    if len(kinds) > 1:
        raise ValueError("SPLIT: mixed CONVEX and SPHERE input (argument 'shape'); split them "
                         "separately")
    whole = _Shape()
    for o in objs:
        whole.append(o._get(r).copy())
    below, above = whole.split(p, n, sid)
    for o in objs:
        o._shape = None
    return _wrap_parts(below), _wrap_parts(above)


def MASS_CENTER(shape):
    """MASS_CENTER(shape | body): mass centre (x, y, z) of shapes (uniform density) or a body."""
    if hasattr(shape, "_mass_center"):  # a BODY (model.py, a layer above this module)
        return shape._mass_center()
    whole = _Shape()
    for o in _objects(shape, "MASS_CENTER"):
        whole.append(o._get("MASS_CENTER").copy())
    return tuple(whole.mass_center())


def MESH2CONVEX(mesh):
    """MESH2CONVEX(mesh): a CONVEX object holding one convex per element of the MESH (element
    faces on the mesh boundary keep their surface ids, the others get the mesh's default one;
    elements sharing a face are neighbours); the MESH is not emptied."""
    r = "MESH2CONVEX"
    if not isinstance(mesh, MESH):
        raise TypeError(f"MESH2CONVEX: argument 'mesh' must be a MESH, got "
                        f"{type(mesh).__name__}")
    return CONVEX._wrap(mesh._get(r, "mesh").mesh_to_convexes())


def OVERLAPPING(obstacles, shapes, option=None, gap=0.0):
    """OVERLAPPING(obstacles, shapes | 'NOT', gap): the objects of `shapes` that overlap one of
    `obstacles` (with 'NOT': those that do not), e.g. to drop particles generated inside walls.
    An object overlaps when one of its pieces (convexes, spheres, mesh elements) and a piece
    of an obstacle make a contact (interpenetration; two convexes: beyond GEOMETRIC_EPSILON)
    with gap <= `gap` [m] (<= 0; e.g. -0.001: penetrating more than 1 mm). Every object of
    `shapes` is emptied; the kept ones come back as new objects, in input order: None if none,
    the object if one, else a list. `obstacles` (an object or a list) is only read."""
    r = "OVERLAPPING"
    obs = [o._get(r, "obstacles") for o in _objects(obstacles, r, "obstacles")]
    objs = _objects(shapes, r, "shapes")
    for o in objs:
        o._get(r, "shapes")
    if option is not None and option != "NOT":
        raise ValueError(f"OVERLAPPING: argument 3 must be 'NOT' (the shapes that do not "
                         f"overlap) or omitted, got {option!r}")
    g = A.number(gap, r, "gap")
    if not g <= 0.0:
        raise ValueError(f"OVERLAPPING: argument 'gap' must be <= 0 (minus a penetration "
                         f"depth [m]), got {g!r}")
    eps = _state.geometric_epsilon
    want = option != "NOT"
    kept = []
    for o in objs:
        hit = any(_solfec.shapes_overlap(b, o._shape, g, eps) for b in obs)
        if hit == want:
            kept.append(type(o)._wrap(o._shape))
        o._shape = None
    if not kept:
        return None
    return kept[0] if len(kept) == 1 else kept
