"""MESH_SPLIT (Solfec-1.0's split of a MESH along interior faces, by a face set or a node set):
the parts' element counts, volumes and node counts against the block's geometry, the surface
ids of the cut, and the errors for bad input."""

import pytest

from solfec import *  # noqa: F401,F403

HEX_FACES = ((0, 3, 2, 1), (0, 1, 5, 4), (1, 2, 6, 5), (2, 3, 7, 6), (3, 0, 4, 7), (4, 5, 6, 7))
CORNERS = [0, 0, 0, 3, 0, 0, 3, 2, 0, 0, 2, 0, 0, 0, 1, 3, 0, 1, 3, 2, 1, 0, 2, 1]


def block():
    """3 x 2 x 1 m block of 3 x 2 x 2 hexahedra (4 x 3 x 3 = 36 nodes), surface ids 1..6."""
    return HEX(CORNERS, 3, 2, 2, 7, [1, 2, 3, 4, 5, 6])


def faces_at_x(mesh, x, pred=lambda c: True):
    """The interior element faces in the plane x = const (each once, oriented along +x)."""
    s = mesh._get()
    nodes = s.mesh_nodes()
    out = {}
    for n, _ in s.mesh_elements():
        for local in HEX_FACES:
            f = [n[i] for i in local]
            pts = [nodes[v] for v in f]
            if all(abs(p[0] - x) < 1e-9 for p in pts) and pred(pts):
                out[tuple(sorted(f))] = f
    faces = []
    for f in out.values():  # orient along +x: (x2 - x1) x (x3 - x2) . ex > 0
        a, b, c = (nodes[v] for v in f[:3])
        nx = (b[1] - a[1]) * (c[2] - b[2]) - (b[2] - a[2]) * (c[1] - b[1])
        faces.append(f if nx > 0 else f[::-1])
    return faces


def volume(mesh):
    sol = SOLFEC("DYNAMIC", 1e-3, "out/unused")
    bulk = BULK_MATERIAL(sol, young=1e6, poisson=0.25, density=1.0)
    return BODY(sol, "FINITE_ELEMENT", COPY(mesh), bulk).volume


def surfids_at_x(mesh, x):
    s = mesh._get()
    nodes = s.mesh_nodes()
    return {sid for f, sid in s.mesh_boundary_faces()
            if all(abs(nodes[v][0] - x) < 1e-9 for v in f)}


def test_face_set_across_the_block_gives_two_parts_with_the_cut_surface_ids(tmp_path,
                                                                           monkeypatch):
    monkeypatch.chdir(tmp_path)
    mesh = block()
    cut = faces_at_x(mesh, 1.0)
    assert len(cut) == 4  # 2 x 2 faces across the 2 x 1 section
    parts = MESH_SPLIT(mesh, faceset=cut, surfid1=10, surfid2=20)
    assert len(parts) == 2
    small, big = sorted(parts, key=lambda m: m.nelem)
    assert (small.nelem, big.nelem) == (4, 8)  # x in [0, 1] and [1, 3]
    # nodes: 2 x 3 x 3 and 3 x 3 x 3 grid points: the 9 of the cut layer are in both
    assert (small.nnod, big.nnod) == (18, 27)
    assert small.nnod + big.nnod == mesh.nnod + 9
    # volumes of the parts: 1 x 2 x 1 and 2 x 2 x 1 (hexahedra with planar faces: exact)
    assert volume(small) == pytest.approx(2.0, rel=1e-12)
    assert volume(big) == pytest.approx(4.0, rel=1e-12)
    assert volume(small) + volume(big) == pytest.approx(volume(mesh), rel=1e-12)
    # the cut faces are oriented along +x: the side they point out of (x < 1) gets surfid1
    assert surfids_at_x(small, 1.0) == {10}
    assert surfids_at_x(big, 1.0) == {20}
    assert mesh.nnod == 36 and mesh.nelem == 12  # the input mesh is left as it was


def test_one_face_of_a_pipe_ring_opens_a_crack_without_separating(tmp_path, monkeypatch):
    """inp/devel/mesh_split.py's first case: a ring of 8 elements cut at one face stays one
    mesh; the cut face's 4 nodes (all on the pipe's surface) are duplicated."""
    monkeypatch.chdir(tmp_path)
    pipe = PIPE((0, 0, 0), (0, 0, 2), 0.5, 1, 1, 8, 1, 1, [1, 1, 1, 1])
    out = MESH_SPLIT(pipe, faceset=[[0, 1, 17, 16]], surfid1=5, surfid2=6)
    assert len(out) == 1
    assert out[0].nelem == 8 and out[0].nnod == pipe.nnod + 4
    assert volume(out[0]) == pytest.approx(volume(pipe), rel=1e-12)
    sids = sorted(sid for _, sid in out[0]._get().mesh_boundary_faces())
    assert sids.count(5) == 1 and sids.count(6) == 1
    two = MESH_SPLIT(pipe, faceset=[[0, 1, 17, 16], [2, 3, 19, 18]])
    assert sorted(m.nelem for m in two) == [1, 7]
    assert sorted(m.nnod for m in two) == [8, 32]


def test_a_crack_ending_inside_keeps_its_front_nodes(tmp_path, monkeypatch):
    """Cutting the x = 1 layer only where y < 1: one mesh; of the 6 cut-face nodes only the
    3 at y = 0 are duplicated (the 3 on the front y = 1 stay shared by the elements, which
    remain connected around them)."""
    monkeypatch.chdir(tmp_path)
    mesh = block()
    cut = faces_at_x(mesh, 1.0, lambda pts: all(p[1] < 1.0 + 1e-9 for p in pts))
    assert len(cut) == 2
    out = MESH_SPLIT(mesh, faceset=cut, surfid1=3, surfid2=4)
    assert len(out) == 1
    assert out[0].nnod == mesh.nnod + 3 and out[0].nelem == 12
    assert volume(out[0]) == pytest.approx(6.0, rel=1e-12)
    assert surfids_at_x(out[0], 1.0) == {3, 4}


def test_node_set_splits_every_face_inside_it(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    mesh = block()
    layer = [i for i in range(mesh.nnod) if abs(mesh.node(i)[0] - 2.0) < 1e-9]
    assert len(layer) == 9
    parts = MESH_SPLIT(mesh, layer, surfid1=8)
    assert sorted((m.nelem, m.nnod) for m in parts) == [(4, 18), (8, 27)]
    assert sum(volume(m) for m in parts) == pytest.approx(6.0, rel=1e-12)
    for m in parts:
        assert surfids_at_x(m, 2.0) == {8}  # both sides of a node-set cut get surfid1
    # a node set holding no whole interior face cuts nothing
    assert MESH_SPLIT(mesh, nodeset=layer[:3]) is None
    # faces on the boundary only: nothing to cut either
    assert MESH_SPLIT(mesh, faceset=faces_at_x(mesh, 0.0)) is None


def test_bad_input_names_the_routine_and_the_argument():
    mesh = block()
    with pytest.raises(TypeError, match="MESH_SPLIT: argument 'mesh' must be a MESH"):
        MESH_SPLIT(HULL([0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1], 1, 1), faceset=[[0, 1, 2]])
    with pytest.raises(ValueError, match=r"MESH_SPLIT: argument 'faceset' item 0 = "
                                         r"\[0, 1, 2, 3, 4\] has 5 nodes"):
        MESH_SPLIT(mesh, faceset=[[0, 1, 2, 3, 4]])
    with pytest.raises(ValueError, match=r"MESH_SPLIT: argument 'faceset' item 1 = "
                                         r"\[0, 1, 35\] is not a face"):
        MESH_SPLIT(mesh, faceset=[faces_at_x(mesh, 1.0)[0], [0, 1, 35]])
    with pytest.raises(ValueError, match=r"MESH_SPLIT: argument 'faceset\[0\]' item 2: node "
                                         r"99 is not in the mesh"):
        MESH_SPLIT(mesh, faceset=[[0, 1, 99]])
    with pytest.raises(TypeError, match="MESH_SPLIT: argument 'faceset' item 0 must be a list"):
        MESH_SPLIT(mesh, faceset=[5])
    with pytest.raises(ValueError, match="MESH_SPLIT: argument 'nodeset' item 1: node -1"):
        MESH_SPLIT(mesh, nodeset=[0, -1])
    with pytest.raises(TypeError, match="MESH_SPLIT: give exactly one of"):
        MESH_SPLIT(mesh)
