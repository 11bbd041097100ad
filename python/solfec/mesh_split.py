"""MESH_SPLIT: Solfec-1.0's split of a MESH along interior faces, before a run.

The faces to cut are given either as a node set (every interior face all of whose nodes are in
the set) or as a face set (lists of 3 or 4 node numbers). A cut face becomes two boundary
faces, one on each element that shared it. Nodes of the cut are then duplicated where the
elements around them fall apart: the elements that contain a node and stay connected to each
other through uncut faces holding that node form one group, and each further group gets its
own copy of the node (a crack front inside the mesh, around which the elements stay connected,
keeps its nodes). Finally the elements are grouped into face-connected parts, one MESH each.
The split itself is the C++ core's SplitMeshAtFaces (src/domain/body_split.h), which RT_SPLIT
and SPLIT of a MESH use too."""

from . import _args as A
from . import _solfec
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


def _faces_of(elements):
    """sorted node tuple -> [(element index, outward face nodes), ...]"""
    table = {}
    for e, (nodes, _) in enumerate(elements):
        for local in _LOCAL_FACES[len(nodes)]:
            face = tuple(nodes[i] for i in local)
            table.setdefault(tuple(sorted(face)), []).append((e, face))
    return table


def _renumbered(part, numbers, gid):
    """A part of the C++ split (a Shape holding one MESH; `numbers`: its nodes' numbers in the
    split mesh as a whole, where the input nodes keep theirs and the copies follow) as a MESH
    numbering its nodes in that order."""
    order = sorted(range(len(numbers)), key=lambda i: numbers[i])
    new = [0] * len(order)
    for k, i in enumerate(order):
        new[i] = k
    x = part.mesh_nodes()
    nodes = [x[i] for i in order]
    elements = [(tuple(new[v] for v in n), vid) for n, vid in part.mesh_elements()]
    faces = [(tuple(new[v] for v in f), sid) for f, sid in part.mesh_boundary_faces()]
    return _make_mesh((nodes, elements, faces, None), gid)


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
    else:
        nodes = set(_node_list(nodeset, len(x), r, "nodeset"))
        faces = [list(key) for key, uses in table.items()
                 if len(uses) == 2 and all(v in nodes for v in key)]
        s2 = s1  # both sides of a node-set cut get surfid1
    # the face-set split of the C++ core (also RT_SPLIT's and SPLIT's, src/domain/body_split.h)
    parts, matched = _solfec.split_mesh_at_faces(mesh._get(r, "mesh"), faces, s1, s2)
    if matched == 0:
        return None
    return [_renumbered(part, numbers, gid) for part, _, numbers in parts]
