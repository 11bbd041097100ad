"""Mesh routines of the deck language: ROUGH_HEX, BEND, MESH_READ (gmsh v2/v4 through meshio),
MESH validation errors and MESH members (docs/deck-language.md)."""

import math

import numpy as np
import pytest

from solfec import *  # noqa: F401,F403
from shapes_for_tests import box

CUBE = [0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0, 0, 0, 1, 1, 0, 1, 1, 1, 1, 0, 1, 1]


def volume(mesh):
    return mesh._get().volume()


def nodes(mesh):
    return np.array([mesh.node(n) for n in range(mesh.nnod)])


# --- ROUGH_HEX ---------------------------------------------------------------------------------
def test_rough_hex_bounds_an_axis_aligned_box_enlarged_by_one_percent():
    b = box(1, 2, 3, 2, 1, 0.5)
    m = ROUGH_HEX(b, 4, 2, 1)
    assert m.nnod == 5 * 3 * 2 and m.nelem == 8
    x = nodes(m)
    # 1% of each edge per side: round-off only
    np.testing.assert_allclose(x.min(axis=0), [0.98, 1.99, 2.995], atol=1e-14)
    np.testing.assert_allclose(x.max(axis=0), [3.02, 3.01, 3.505], atol=1e-14)
    assert b.nver == 8  # the shape is not emptied


def test_rough_hex_of_a_rotated_convex_list_follows_the_principal_axes():
    parts = [box(0, 0, 0, 1, 1, 0.5), box(1, 0, 0, 1, 1, 0.5)]  # a 2 x 1 x 0.5 block
    ROTATE(parts, (0, 0, 0), (0, 0, 1), 30.0)
    m = ROUGH_HEX(parts, 2, 1, 1, dx=[1, 1])
    # the principal box is the block itself enlarged 1% per side (the axis-aligned box of the
    # rotated block is 2.23 x 1.87 x 0.5): volume 1.02^3 up to round-off
    assert volume(m) == pytest.approx(1.02 ** 3, rel=1e-12)
    c = math.radians(30)
    centre = (math.cos(c) - 0.5 * math.sin(c), math.sin(c) + 0.5 * math.cos(c), 0.25)
    np.testing.assert_allclose(MASS_CENTER(m), centre, atol=1e-12)


def test_rough_hex_argument_errors():
    with pytest.raises(TypeError, match="ROUGH_HEX: argument 'shape' must be a CONVEX"):
        ROUGH_HEX(SPHERE((0, 0, 0), 1, 1, 1), 1, 1, 1)
    with pytest.raises(ValueError, match="ROUGH_HEX: argument 'j' must be >= 1"):
        ROUGH_HEX(box(0, 0, 0, 1, 1, 1), 1, 0, 1)
    with pytest.raises(ValueError, match="ROUGH_HEX: argument 'dz' has 1 entries but 2"):
        ROUGH_HEX(box(0, 0, 0, 1, 1, 1), 1, 1, 2, dz=[1])


# --- BEND --------------------------------------------------------------------------------------
def test_bend_maps_a_straight_bar_onto_the_analytic_quarter_arc():
    R, h, w = 2.0, 0.2, 0.3
    L = math.pi * R / 2
    bar = HEX([0, R - h, 0, L, R - h, 0, L, R + h, 0, 0, R + h, 0,
               0, R - h, w, L, R - h, w, L, R + h, w, 0, R + h, w], 20, 2, 1, 1, [1] * 6)
    X = nodes(bar)
    assert BEND(bar, (0, 0, 0), (0, 0, -1), 90) is bar
    a = math.pi / 2 * X[:, 0] / L  # angle proportional to the distance along the bar
    arc = np.column_stack((X[:, 1] * np.sin(a), X[:, 1] * np.cos(a), X[:, 2]))
    np.testing.assert_allclose(nodes(bar), arc, rtol=0, atol=1e-13)  # round-off only
    # the far end section now lies in the plane y = 0
    end = np.isclose(X[:, 0], L)
    assert end.sum() == 3 * 2
    np.testing.assert_allclose(nodes(bar)[end, 1], 0.0, atol=1e-14)


def test_bend_errors_name_the_argument():
    bar = HEX(CUBE, 2, 1, 1, 1, [1] * 6)
    with pytest.raises(TypeError, match="BEND: argument 'mesh' must be a MESH"):
        BEND(box(0, 0, 0, 1, 1, 1), (0, 0, 0), (0, 0, 1), 90)
    with pytest.raises(ValueError, match="BEND: argument 'degrees'"):
        BEND(bar, (0, -1, 0), (0, 0, 1), 0)
    with pytest.raises(ValueError, match="BEND: node .* lies on the axis .*'point'"):
        BEND(bar, (0.5, 0.5, 0), (0, 0, 1), 90)


# --- MESH_READ ---------------------------------------------------------------------------------
# A hexahedron [0,1]^3, a pyramid on its top (apex z = 1.5), a wedge on its x = 1 face (written
# in the VTK orientation, normalised by MESH_READ) and a tetrahedron on the wedge's top; an
# unused point node; physical tags: volumes 3 and 4; quad x = 0 -> 7, the wedge's bottom
# triangle -> 8, the interior quad z = 1 -> 9 (ignored). Volume 1 + 1/6 + 1/2 + 2/15 = 1.8.
MSH_V2 = """$MeshFormat
2.2 0 8
$EndMeshFormat
$Nodes
13
1 0 0 0
2 1 0 0
3 1 1 0
4 0 1 0
5 0 0 1
6 1 0 1
7 1 1 1
8 0 1 1
9 0.5 0.5 1.5
10 2 0 0
11 2 0 1
12 1.3 0.3 1.8
13 5 5 5
$EndNodes
$Elements
8
1 15 2 0 1 13
2 3 2 7 1 1 4 8 5
3 2 2 8 2 2 10 3
4 3 2 9 3 5 6 7 8
5 5 2 3 1 1 2 3 4 5 6 7 8
6 7 2 3 1 5 6 7 8 9
7 6 2 4 2 2 3 10 6 7 11
8 4 2 4 2 6 11 7 12
$EndElements
"""


def check_mixed_mesh(m):
    assert m.nnod == 12 and m.nelem == 4  # the point-only node 13 is dropped
    assert volume(m) == pytest.approx(1.8, rel=1e-13)
    assert m.nodes_on_surface(7) == [0, 3, 4, 7]
    assert m.nodes_on_surface(8) == [1, 2, 9]
    assert m.nodes_on_surface(9) == []
    els = m._get().mesh_elements()
    assert [len(e) for e, _ in els] == [8, 5, 6, 4] and [v for _, v in els] == [3, 3, 4, 4]
    # untagged boundary faces get the default surfid (here 5): the top of the pyramid etc.
    assert 8 in m.nodes_on_surface(5) and 11 in m.nodes_on_surface(5)


def test_mesh_read_gmsh_v2_mixed_elements_tags_and_orientation(tmp_path):
    p = tmp_path / "mixed.msh"
    p.write_text(MSH_V2)
    check_mixed_mesh(MESH_READ(str(p), surfid=5))


# The same mesh in gmsh 4.1 ASCII: physical tags attached to entities (surfaces 1, 2, 3 with
# tags 7, 8, 9; volumes 1, 2 with tags 3, 4).
MSH_V41 = """$MeshFormat
4.1 0 8
$EndMeshFormat
$Entities
0 0 3 2
1 0 0 0 0 1 1 1 7 0
2 1 0 0 2 1 0 1 8 0
3 0 0 1 1 1 1 1 9 0
1 0 0 0 1 1 1.5 1 3 0
2 1 0 0 2 1 1.8 1 4 0
$EndEntities
$Nodes
1 13 1 13
3 1 0 13
1
2
3
4
5
6
7
8
9
10
11
12
13
0 0 0
1 0 0
1 1 0
0 1 0
0 0 1
1 0 1
1 1 1
0 1 1
0.5 0.5 1.5
2 0 0
2 0 1
1.3 0.3 1.8
5 5 5
$EndNodes
$Elements
7 7 1 7
2 1 3 1
1 1 4 8 5
2 2 2 1
2 2 10 3
2 3 3 1
3 5 6 7 8
3 1 5 1
4 1 2 3 4 5 6 7 8
3 1 7 1
5 5 6 7 8 9
3 2 6 1
6 2 3 10 6 7 11
3 2 4 1
7 6 11 7 12
$EndElements
"""


def test_mesh_read_gmsh_v41(tmp_path):
    p = tmp_path / "mixed41.msh"
    p.write_text(MSH_V41)
    check_mixed_mesh(MESH_READ(p, surfid=5))  # a pathlib path is accepted too


def test_mesh_read_other_meshio_formats_use_default_ids(tmp_path):
    meshio = pytest.importorskip("meshio")
    pts = np.array(CUBE, float).reshape(-1, 3)
    p = tmp_path / "cube.vtu"
    meshio.write_points_cells(str(p), pts, [("hexahedron", np.arange(8)[None, :])])
    m = MESH_READ(str(p), volid=2, surfid=6)
    assert m.nnod == 8 and m.nelem == 1 and volume(m) == pytest.approx(1.0, rel=1e-14)
    assert m.nodes_on_surface(6) == list(range(8))
    assert m._get().mesh_elements()[0][1] == 2


def test_mesh_read_errors(tmp_path):
    meshio = pytest.importorskip("meshio")
    with pytest.raises(FileNotFoundError, match="MESH_READ: no file"):
        MESH_READ(str(tmp_path / "none.msh"))
    p = tmp_path / "quadratic.msh"
    pts = np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1], [.5, 0, 0], [.5, .5, 0],
                    [0, .5, 0], [0, 0, .5], [.5, 0, .5], [0, .5, .5]], float)
    meshio.write_points_cells(str(p), pts, [("tetra10", np.arange(10)[None, :])],
                              cell_data={"gmsh:physical": [np.array([1])],
                                         "gmsh:geometrical": [np.array([1])]},
                              file_format="gmsh22", binary=False)
    with pytest.raises(ValueError, match="MESH_READ: second-order cells 'tetra10'.*order 1"):
        MESH_READ(str(p))
    p = tmp_path / "surface.msh"
    meshio.write_points_cells(str(p), pts[:3], [("triangle", np.arange(3)[None, :])],
                              cell_data={"gmsh:physical": [np.array([1])],
                                         "gmsh:geometrical": [np.array([1])]},
                              file_format="gmsh22", binary=False)
    with pytest.raises(ValueError, match="MESH_READ: no tetrahedra.*'triangle'"):
        MESH_READ(str(p))


# --- MESH validation ---------------------------------------------------------------------------
def test_mesh_validation_errors_name_the_element_and_argument():
    with pytest.raises(ValueError, match=r"MESH: element 0 has 7 nodes.*'elements'"):
        MESH(CUBE, [7, 0, 1, 2, 3, 4, 5, 6, 1], 1)
    with pytest.raises(ValueError, match=r"MESH: element 0 has an out-of-range node index 8 "
                                         r"\(argument 'elements'\)"):
        MESH(CUBE, [8, 0, 1, 2, 3, 4, 5, 6, 8, 1], 1)
    with pytest.raises(ValueError, match=r"MESH: element 1 is inverted .*'elements'"):
        MESH(CUBE, [4, 0, 1, 3, 4, 1, 4, 0, 3, 1, 4, 1], 1)
    with pytest.raises(ValueError, match=r"MESH: surface face 0 \(nodes 0 1 6\) is not a "
                                         r"boundary face: matches no element face.*'surfids'"):
        MESH(CUBE, [8, 0, 1, 2, 3, 4, 5, 6, 7, 1], [1, 3, 0, 1, 6, 2])


# --- MESH members ------------------------------------------------------------------------------
def test_mesh_members_node_nodes_on_surface_nnod():
    m = HEX(CUBE, 2, 1, 1, 1, [1, 5, 4, 3, 2, 6])  # z-min, x-min, y-max, x-max, y-min, z-max
    assert m.nnod == 12 and m.nelem == 2
    assert m.node(1) == pytest.approx((0.5, 0, 0))
    assert m.nodes_on_surface(5) == [0, 3, 6, 9]  # the x = 0 face
    assert m.nodes_on_surface(3) == [2, 5, 8, 11]  # the x = 1 face
    assert m.node(2, 1.5, 0, 0) == (1.5, 0, 0) and m.node(2) == (1.5, 0, 0)
    # the trilinear volume is affine in one node coordinate: 1 + 0.5 (element 1's extent in
    # x moved) * 1/4 (that node's share of the face x = 1) = 1.125
    assert volume(m) == pytest.approx(1.125, rel=1e-14)
    with pytest.raises(IndexError, match="MESH.node: index 12 out of range"):
        m.node(12)
    # 2 hexahedra share the face x = 1/2 (nodes 1, 4, 10, 7), outward from element 0
    assert m.inter_element_faces() == [[1, 4, 10, 7]]
