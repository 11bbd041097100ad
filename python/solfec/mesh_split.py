"""MESH_SPLIT: Solfec-1.0's split of a MESH along interior faces, before a run.

The faces to cut are given either as a node set (every interior face all of whose nodes are in
the set) or as a face set (lists of 3 or 4 node numbers). A cut face becomes two boundary
faces, one on each element that shared it. Nodes of the cut are then duplicated where the
elements around them fall apart: the elements that contain a node and stay connected to each
other through uncut faces holding that node form one group, and each further group gets its
own copy of the node (a crack front inside the mesh, around which the elements stay connected,
keeps its nodes). Finally the elements are grouped into face-connected parts, one MESH each.

split_mesh_faces() is the face-set operation on plain arrays (nodes, elements, surface faces):
RT_SPLIT uses it on a body's mesh during a run."""

from . import _args as A
from ._solfec import Shape as _Shape
from .shapes import MESH

__all__ = ["MESH_SPLIT"]

# outward (counter-clockwise seen from outside) local faces per element size (manual Fig. 4.1,
# as src/geometry/mesh.cc)
_LOCAL_FACES = {
    4: ((0, 2, 1), (0, 1, 3), (1, 2, 3), (2, 0, 3)),
    5: ((0, 3, 2, 1), (0, 1, 4), (1, 2, 4), (2, 3, 4), (3, 0, 4)),
    6: ((0, 2, 1), (3, 4, 5), (0, 1, 4, 3), (1, 2, 5, 4), (2, 0, 3, 5)),
    8: ((0, 3, 2, 1), (0, 1, 5, 4), (1, 2, 6, 5), (2, 3, 7, 6), (3, 0, 4, 7), (4, 5, 6, 7)),
}


def _normal(x, face):
    """(x[f1]-x[f0]) x (x[f2]-x[f1]) of a face given by node numbers (its orientation)."""
    a, b, c = x[face[0]], x[face[1]], x[face[2]]
    u = [b[i] - a[i] for i in range(3)]
    v = [c[i] - b[i] for i in range(3)]
    return (u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0])


def _faces_of(elements):
    """sorted node tuple -> [(element index, outward face nodes), ...]"""
    table = {}
    for e, (nodes, _) in enumerate(elements):
        for local in _LOCAL_FACES[len(nodes)]:
            face = tuple(nodes[i] for i in local)
            table.setdefault(tuple(sorted(face)), []).append((e, face))
    return table


def _split(x, elements, surfaces, cuts):
    """Cuts the interior faces `cuts` ({sorted key: (surfid on the element whose outward face
    normal agrees with the orientation, surfid on the other, orientation normal or None)}).
    x: node coordinates; elements: [(nodes, volid)]; surfaces: {sorted key: surfid} of the
    boundary faces with ids. Returns [(nodes, elements, surfaces, original node numbers)] of
    the face-connected parts, or None when no face was cut."""
    table = _faces_of(elements)
    new_faces = {}   # element -> [(face nodes, surfid)]
    cut_keys = set()
    for key, (sid_pos, sid_neg, n) in cuts.items():
        uses = table.get(key, [])
        if len(uses) != 2:
            continue  # a boundary face: nothing to cut (Solfec-1.0 skips it too)
        cut_keys.add(key)
        for e, face in uses:
            if n is None:
                sid = sid_pos
            else:
                m = _normal(x, face)
                sid = sid_pos if sum(m[i] * n[i] for i in range(3)) > 0.0 else sid_neg
            new_faces.setdefault(e, []).append((face, sid))
    if not cut_keys:
        return None

    # element adjacency through uncut faces
    adj = [[] for _ in elements]
    for key, uses in table.items():
        if len(uses) == 2 and key not in cut_keys:
            (a, _), (b, _) = uses
            adj[a].append((b, key))
            adj[b].append((a, key))

    # duplicate the nodes of the cut where the elements around them fall apart
    cut_nodes = sorted({v for key in cut_keys for v in key})
    around = {v: [] for v in cut_nodes}
    for e, (nodes, _) in enumerate(elements):
        for v in nodes:
            if v in around:
                around[v].append(e)
    copy = {}  # (element, node) -> node number after duplication
    coords = [tuple(p) for p in x]
    origin = list(range(len(x)))
    for v in cut_nodes:
        star = set(around[v])
        group = {}
        for e0 in sorted(star):
            if e0 in group:
                continue
            group[e0] = e0
            stack = [e0]
            while stack:
                e = stack.pop()
                for f, key in adj[e]:
                    if f in star and f not in group and v in key:
                        group[f] = e0
                        stack.append(f)
        heads = sorted(set(group.values()))
        number = {heads[0]: v}
        for h in heads[1:]:
            number[h] = len(coords)
            coords.append(coords[v])
            origin.append(v)
        for e, h in group.items():
            copy[(e, v)] = number[h]

    def renum(e, face):
        return tuple(copy.get((e, v), v) for v in face)

    # face-connected parts
    part = [-1] * len(elements)
    parts = []
    for e0 in range(len(elements)):
        if part[e0] >= 0:
            continue
        part[e0] = len(parts)
        members, stack = [e0], [e0]
        while stack:
            e = stack.pop()
            for f, _ in adj[e]:
                if part[f] < 0:
                    part[f] = part[e0]
                    members.append(f)
                    stack.append(f)
        parts.append(sorted(members))

    out = []
    for members in parts:
        els = [(renum(e, elements[e][0]), elements[e][1]) for e in members]
        used = sorted({v for nodes, _ in els for v in nodes})
        local = {v: i for i, v in enumerate(used)}
        part_elements = [(tuple(local[v] for v in nodes), vid) for nodes, vid in els]
        boundary = {}
        for e in members:
            for local_face in _LOCAL_FACES[len(elements[e][0])]:
                face = tuple(elements[e][0][i] for i in local_face)
                key = tuple(sorted(face))
                if key in surfaces and len(table[key]) == 1:
                    boundary[tuple(sorted(renum(e, face)))] = (renum(e, face), surfaces[key])
            for face, sid in new_faces.get(e, []):
                boundary[tuple(sorted(renum(e, face)))] = (renum(e, face), sid)
        # a cut face whose nodes all stay shared (inside a crack front) remains interior
        mine = _faces_of([(tuple(nodes), vid) for nodes, vid in els])
        part_faces = [(tuple(local[v] for v in face), sid) for key, (face, sid)
                      in boundary.items() if len(mine.get(key, ())) == 1]
        out.append(([coords[v] for v in used], part_elements, part_faces,
                    [origin[v] for v in used]))
    return out


def split_mesh_faces(nodes, elements, surfaces, faceset, surfid1=0, surfid2=0):
    """The face-set split on plain arrays. nodes: [(x, y, z)]; elements: [(node numbers,
    volid)]; surfaces: {sorted face node tuple: surfid} of boundary faces with ids; faceset:
    [[n1, n2, n3(, n4)], ...] (checked by the caller). A cut face's side whose outward normal
    agrees with (x2 - x1) x (x3 - x2) of the listed face gets surfid1, the other side surfid2.
    Returns None (no interior face cut) or [(nodes, elements, faces [(nodes, surfid)],
    original node numbers)] per face-connected part."""
    cuts = {}
    for f in faceset:
        cuts[tuple(sorted(f))] = (surfid1, surfid2, _normal(nodes, f))
    return _split(nodes, elements, surfaces, cuts)


def _mesh_arrays(mesh, r):
    s = mesh._get(r, "mesh")
    elements = [(tuple(n), v) for n, v in s.mesh_elements()]
    if len(elements) != s.mesh_element_count():
        raise ValueError(f"{r}: argument 'mesh' holds several meshes (a glued shape); pass a "
                         f"single MESH")
    x = s.mesh_nodes()
    surfaces = {tuple(sorted(f)): sid for f, sid in s.mesh_boundary_faces()}
    return x, elements, surfaces, s.mesh_default_surfid


def _make_mesh(part, gid):
    nodes, elements, faces, _ = part
    flat_nodes = [c for p in nodes for c in p]
    flat_elements = []
    for n, vid in elements:
        flat_elements += [len(n), *n, vid]
    sids = [gid]
    for f, sid in faces:
        sids += [len(f), *f, sid]
    s = _Shape()
    s.add_mesh(flat_nodes, flat_elements, sids)  # duplicated nodes coincide: no warning
    return MESH._wrap(s)


def _node_list(value, nnod, r, arg):
    if isinstance(value, (str, bytes)) or not isinstance(value, (list, tuple)):
        raise TypeError(f"{r}: argument '{arg}' must be a list of node numbers, got "
                        f"{type(value).__name__}")
    out = []
    for i, v in enumerate(value):
        if isinstance(v, bool) or not isinstance(v, int):
            raise TypeError(f"{r}: argument '{arg}' item {i} must be a node number (int), got "
                            f"{v!r}")
        if not 0 <= v < nnod:
            raise ValueError(f"{r}: argument '{arg}' item {i}: node {v} is not in the mesh "
                             f"(nodes 0..{nnod - 1})")
        out.append(v)
    return out


def MESH_SPLIT(mesh, nodeset=None, faceset=None, surfid1=None, surfid2=None):
    """MESH_SPLIT(mesh, nodeset | faceset, surfid1, surfid2): the MESH cut along interior
    faces, as a list of MESH objects (one per face-connected part; a cut that does not
    separate the mesh gives one MESH with the cut's nodes duplicated), or None when no interior
    face is cut. `mesh` is left unchanged.

    nodeset: node numbers; every interior face all of whose nodes are in the set is cut, both
    new faces get surfid1 (default 0). faceset: [[n1, n2, n3(, n4)], ...] faces of the mesh;
    the new face on the side the listed face's normal (x2 - x1) x (x3 - x2) points out of gets
    surfid1, the other surfid2 (defaults 0); listed boundary faces are skipped. Other faces
    keep their surface ids, elements their volume ids."""
    r = "MESH_SPLIT"
    if not isinstance(mesh, MESH):
        raise TypeError(f"{r}: argument 'mesh' must be a MESH object, got "
                        f"{type(mesh).__name__}")
    if (nodeset is None) == (faceset is None):
        raise TypeError(f"{r}: give exactly one of the arguments 'nodeset' and 'faceset'")
    s1 = 0 if surfid1 is None else A.integer(surfid1, r, "surfid1")
    s2 = 0 if surfid2 is None else A.integer(surfid2, r, "surfid2")
    x, elements, surfaces, gid = _mesh_arrays(mesh, r)
    table = _faces_of(elements)
    if faceset is not None:
        if isinstance(faceset, (str, bytes)) or not isinstance(faceset, (list, tuple)):
            raise TypeError(f"{r}: argument 'faceset' must be a list of faces (lists of 3 or 4 "
                            f"node numbers), got {type(faceset).__name__}")
        faces = []
        for i, f in enumerate(faceset):
            if isinstance(f, (str, bytes)) or not isinstance(f, (list, tuple)):
                raise TypeError(f"{r}: argument 'faceset' item {i} must be a list of 3 or 4 "
                                f"node numbers, got {f!r}")
            if len(f) not in (3, 4):
                raise ValueError(f"{r}: argument 'faceset' item {i} = {list(f)} has {len(f)} "
                                 f"nodes; a face has 3 or 4")
            f = _node_list(f, len(x), r, f"faceset[{i}]")
            if tuple(sorted(f)) not in table:
                raise ValueError(f"{r}: argument 'faceset' item {i} = {f} is not a face of "
                                 f"any element of the mesh")
            faces.append(f)
        parts = split_mesh_faces(x, elements, surfaces, faces, s1, s2)
    else:
        nodes = set(_node_list(nodeset, len(x), r, "nodeset"))
        cuts = {key: (s1, s1, None) for key, uses in table.items()
                if len(uses) == 2 and all(v in nodes for v in key)}
        parts = _split(x, elements, surfaces, cuts) if cuts else None
    if parts is None:
        return None
    return [_make_mesh(p, gid) for p in parts]
