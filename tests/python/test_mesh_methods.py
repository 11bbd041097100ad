"""Solfec-1.0's MESH methods: inter_element_faces_on_plane, get_data, set_volid,
surface_integration_points and volume_integration_points (docs/deck-language.md)."""

import math

import numpy as np
import pytest

from solfec import *  # noqa: F401,F403
from solfec import _solfec

CUBE = [0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0, 0, 0, 1, 1, 0, 1, 1, 1, 1, 0, 1, 1]
G = 1 / math.sqrt(3)  # 2-point Gauss abscissa on [-1, 1]

# a general affine map x -> A x + t (det A = 2.9 > 0): the quadrature rules are exact for
# the volume, surface and first moments of affine images of straight-sided elements
AFF = np.array([[1.2, 0.3, -0.1], [0.2, 1.5, 0.4], [0.1, -0.3, 1.7]])
SHIFT = np.array([0.5, -1.0, 2.0])

# the unit cube cut into 6 tetrahedra about the diagonal 0-6, 6 pyramids with the apex at
# the centre (node 8) over the cube's faces, and 2 wedges by the plane x = y
TETS = [(0, 1, 2, 6), (0, 2, 3, 6), (0, 3, 7, 6), (0, 7, 4, 6), (0, 4, 5, 6), (0, 5, 1, 6)]
PYRS = [(0, 1, 2, 3, 8), (0, 4, 5, 1, 8), (1, 5, 6, 2, 8), (2, 6, 7, 3, 8), (3, 7, 4, 0, 8),
        (4, 7, 6, 5, 8)]
WEDS = [(0, 1, 2, 4, 5, 6), (0, 2, 3, 4, 6, 7)]


def cube_nodes(affine=True):
    x = np.array(CUBE + [0.5, 0.5, 0.5], dtype=float).reshape(-1, 3)
    return x @ AFF.T + SHIFT if affine else x


def mesh_of(elements, volid=lambda e: 1, surfid=3, affine=True):
    flat = []
    for e, el in enumerate(elements):
        flat += [len(el), *el, volid(e)]
    return MESH(cube_nodes(affine).ravel().tolist(), flat, surfid)


def quadrature(mesh, kind, ident=None):
    """Points and weights behind the public point lists (Solfec-1.0 returns the points only)."""
    return _solfec.mesh_integration_points(mesh._single_mesh("test"), kind, ident)


def cube_area():
    """Surface area of the affine image of the unit cube: 2 sum |A e_i x A e_j|."""
    cols = AFF.T
    return 2 * sum(np.linalg.norm(np.cross(cols[i], cols[j])) for i, j in ((0, 1), (1, 2), (0, 2)))


# --- volume_integration_points -----------------------------------------------------------------
@pytest.mark.parametrize("elements, per_element", [(TETS, 4), (PYRS, 8), (WEDS, 6),
                                                   ([tuple(range(8))], 8)],
                         ids=["tet", "pyramid", "wedge", "hex"])
def test_volume_rules_integrate_volume_and_linear_functions_exactly(elements, per_element):
    m = mesh_of(elements)
    x, w = quadrature(m, "volume")
    assert len(x) == len(elements) * per_element
    assert m.volume_integration_points() == [tuple(p) for p in x]
    # affine image of the unit cube: volume det A and centroid A c + t, exact to round-off
    vol = np.linalg.det(AFF)
    assert w.sum() == pytest.approx(vol, rel=1e-12)
    assert w.sum() == pytest.approx(volume_of(m), rel=1e-12)
    np.testing.assert_allclose(w @ x / w.sum(), AFF @ [0.5, 0.5, 0.5] + SHIFT, rtol=0, atol=1e-12)
    assert (w > 0).all()


def volume_of(mesh):
    return mesh._get().volume()


def test_hex_rule_is_exact_for_a_distorted_trilinear_hexahedron():
    # 2 x 2 x 2 Gauss integrates det J of a trilinear map (degree <= 2 per coordinate) exactly
    nodes = [0, 0, 0, 1.3, 0.1, 0, 1.1, 0.9, 0.2, -0.1, 1.2, 0, 0.1, 0, 1.0, 1.0, -0.2, 1.4,
             1.2, 1.1, 1.1, 0.2, 0.8, 0.9]
    m = MESH(nodes, [8, 0, 1, 2, 3, 4, 5, 6, 7, 1], 1)
    _, w = quadrature(m, "volume")
    assert w.sum() == pytest.approx(volume_of(m), rel=1e-12)


def test_volume_points_are_solfec1_gauss_points_in_its_order():
    m = HEX(CUBE, 1, 1, 1, 1, [1, 2, 3, 4, 5, 6])
    lo, hi = 0.5 - 0.5 * G, 0.5 + 0.5 * G
    expect = [(lo, lo, lo), (hi, lo, lo), (hi, hi, lo), (lo, hi, lo),
              (lo, lo, hi), (hi, lo, hi), (hi, hi, hi), (lo, hi, hi)]
    np.testing.assert_allclose(m.volume_integration_points(), expect, rtol=0, atol=1e-15)
    # a tetrahedron on the unit axes: the 4-point rule at a = (5 - sqrt 5)/20, b = 1 - 3a
    t = MESH([0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1], [4, 0, 1, 2, 3, 1], 1)
    a = (5 - math.sqrt(5)) / 20
    b = 1 - 3 * a
    np.testing.assert_allclose(t.volume_integration_points(),
                               [(a, a, a), (a, a, b), (a, b, a), (b, a, a)], rtol=0, atol=1e-15)
    # the pyramid with Solfec-1.0's natural node positions maps its rule onto itself: the
    # collapsed Gauss points at heights 1/3 +- sqrt(2/45), 1/sqrt(3) of the half-width
    p = MESH([1, 1, 0, -1, 1, 0, -1, -1, 0, 1, -1, 0, 0, 0, 1], [5, 0, 1, 2, 3, 4, 1], 1)
    pts = np.array(p.volume_integration_points())
    for z, block in zip((1 / 3 + math.sqrt(2 / 45), 1 / 3 - math.sqrt(2 / 45)), (pts[:4], pts[4:])):
        s = G * (1 - z)
        np.testing.assert_allclose(block, [(-s, -s, z), (s, -s, z), (s, s, z), (-s, s, z)],
                                   rtol=0, atol=1e-15)
    _, w = quadrature(p, "volume")
    assert w.sum() == pytest.approx(4 / 3, rel=1e-14)


def test_volume_points_select_by_volid_and_list_boundary_elements_first():
    # 3 x 3 x 3 hexahedra: the centre element (13) has no boundary face and comes last
    m = HEX(CUBE, 3, 3, 3, 1, [1, 2, 3, 4, 5, 6])
    pts = np.array(m.volume_integration_points())
    assert len(pts) == 27 * 8
    np.testing.assert_allclose(pts[-8:].mean(axis=0), [0.5, 0.5, 0.5], atol=1e-15)
    # element-by-element blocks of 8, in element order otherwise (element 0 at the corner)
    np.testing.assert_allclose(pts[:8].mean(axis=0), [1 / 6, 1 / 6, 1 / 6], atol=1e-15)
    mixed = mesh_of(TETS, volid=lambda e: 7 if e % 2 else 5)
    x7, w7 = quadrature(mixed, "volume", 7)
    x5, w5 = quadrature(mixed, "volume", 5)
    assert len(mixed.volume_integration_points(7)) == len(x7) == 12
    assert mixed.volume_integration_points(volid=5) == [tuple(p) for p in x5]
    assert w7.sum() + w5.sum() == pytest.approx(np.linalg.det(AFF), rel=1e-12)
    assert mixed.volume_integration_points(99) == []


# --- surface_integration_points ----------------------------------------------------------------
def test_surface_rules_integrate_each_surface_area_exactly():
    a, b, c = 2.0, 3.0, 0.5
    box_nodes = [0, 0, 0, a, 0, 0, a, b, 0, 0, b, 0, 0, 0, c, a, 0, c, a, b, c, 0, b, c]
    m = HEX(box_nodes, 2, 3, 1, 1, [11, 12, 13, 14, 15, 16])
    areas = {}
    for sid in range(11, 17):
        x, w = quadrature(m, "surface", sid)
        assert m.surface_integration_points(sid) == [tuple(p) for p in x]
        assert len(x) == 4 * len(faces_with(m, sid))  # 2 x 2 Gauss points per quadrilateral
        areas[sid] = w.sum()
        # a linear function over a flat face: its centroid value times the area
        centre = np.mean([m.node(n) for f in faces_with(m, sid) for n in f], axis=0)
        np.testing.assert_allclose(w @ x / w.sum(), centre, atol=1e-14)
    assert sorted(round(v, 12) for v in areas.values()) == sorted(
        [a * b, a * b, b * c, b * c, a * c, a * c])
    x, w = quadrature(m, "surface")
    assert len(m.surface_integration_points()) == len(x) == 4 * (2 * 6 + 2 * 3 + 2 * 2)
    assert w.sum() == pytest.approx(2 * (a * b + b * c + a * c), rel=1e-14)
    assert m.surface_integration_points(surfid=99) == []


def faces_with(mesh, sid):
    return [f for f, s in mesh._get().mesh_boundary_faces() if s == sid]


@pytest.mark.parametrize("elements", [TETS, PYRS, WEDS], ids=["tet", "pyramid", "wedge"])
def test_surface_rule_on_triangles_is_the_centroid(elements):
    m = mesh_of(elements, surfid=4)
    x, w = quadrature(m, "surface", 4)
    assert w.sum() == pytest.approx(cube_area(), rel=1e-12)
    X = cube_nodes()
    faces = [f for f, s in m._get().mesh_boundary_faces()]
    tri = [f for f in faces if len(f) == 3]
    # triangles give one point each, at the centroid, with weight = area
    assert len(x) == len(tri) + 4 * (len(faces) - len(tri))
    centroids = {tuple(np.round(X[f].mean(axis=0), 12)) for f in tri}
    assert centroids <= {tuple(np.round(p, 12)) for p in x}


# --- inter_element_faces_on_plane --------------------------------------------------------------
def test_faces_on_the_mid_plane_of_a_2x2x2_hex():
    m = HEX(CUBE, 2, 2, 2, 1, [1, 2, 3, 4, 5, 6])
    X = np.array([m.node(n) for n in range(m.nnod)])
    for axis in range(3):
        n = [0, 0, 0]
        n[axis] = 1
        faces = m.inter_element_faces_on_plane((0.5, 0.5, 0.5), tuple(n))
        assert len(faces) == 4
        for f in faces:
            np.testing.assert_allclose(X[f][:, axis], 0.5, atol=0)
        # the same faces as inter_element_faces(), in its order and node order
        assert all(f in m.inter_element_faces() for f in faces)
    # the normal need not be unit, its sign is irrelevant
    assert (m.inter_element_faces_on_plane((0.5, 0, 0), (-2.0, 0, 0))
            == m.inter_element_faces_on_plane((0.5, 0, 0), (1, 0, 0)))
    # a shifted plane holds none, unless eps reaches it
    assert m.inter_element_faces_on_plane((0.501, 0, 0), (1, 0, 0)) == []
    assert len(m.inter_element_faces_on_plane((0.501, 0, 0), (1, 0, 0), eps=2e-3)) == 4
    # boundary faces are not inter-element faces; an oblique plane cuts faces but holds none
    assert m.inter_element_faces_on_plane((0, 0, 0), (1, 0, 0)) == []
    assert m.inter_element_faces_on_plane((0.5, 0.5, 0.5), (1, 1, 0)) == []


def test_faces_on_a_plane_follow_moved_nodes():
    m = HEX(CUBE, 2, 1, 1, 1, [1, 2, 3, 4, 5, 6])
    mid = [n for n in range(m.nnod) if m.node(n)[0] == 0.5]
    assert len(mid) == 4 and len(m.inter_element_faces_on_plane((0.5, 0, 0), (1, 0, 0))) == 1
    for n in mid:
        m.node(n, x=0.6)
    assert m.inter_element_faces_on_plane((0.5, 0, 0), (1, 0, 0)) == []
    # MESH.node moves both configurations (Solfec-1.0), so ref=False and ref=True agree
    assert m.inter_element_faces_on_plane((0.6, 0, 0), (1, 0, 0), ref=False) == [only_inner_face(m)]
    assert m.inter_element_faces_on_plane((0.6, 0, 0), (1, 0, 0), ref=True) == [only_inner_face(m)]
    TRANSLATE(m, (1.0, 0, 0))
    assert len(m.inter_element_faces_on_plane((1.6, 0, 0), (1, 0, 0), False)) == 1


def only_inner_face(mesh):
    (face,) = mesh.inter_element_faces()
    return face


# --- get_data and set_volid --------------------------------------------------------------------
def same_mesh(a, b):
    sa, sb = a._get(), b._get()
    assert sa.mesh_nodes() == sb.mesh_nodes()
    assert sa.mesh_elements() == sb.mesh_elements()
    assert sa.mesh_boundary_faces() == sb.mesh_boundary_faces()


def test_get_data_round_trips_into_an_identical_mesh():
    m = HEX(CUBE, 2, 2, 1, 4, [1, 2, 3, 4, 5, 6])
    m.node(0, z=-0.25)
    nodes, elements, surfids = m.get_data()
    assert len(nodes) == 3 * m.nnod and nodes[2] == -0.25
    assert elements[:10] == [8, *m._get().mesh_elements()[0][0], 4]
    same_mesh(MESH(nodes, elements, surfids), m)
    # a mixed mesh with a global surface id and listed faces
    flat = [4, 0, 1, 2, 6, 3] + [5, 3, 7, 4, 0, 8, 9]
    src = MESH(cube_nodes().ravel().tolist(), flat, [5, 3, 0, 2, 1, 7])
    nodes, elements, surfids = src.get_data()
    assert surfids[0] == 5 and surfids[1:] == [3, 0, 2, 1, 7]  # only the face whose id is not 5
    same_mesh(MESH(nodes, elements, surfids), src)
    # nodes as floats, elements and surface ids as integers (lists MESH takes)
    assert all(type(v) is float for v in nodes)
    assert all(type(v) is int for v in elements + surfids)


def test_set_volid_changes_every_element_and_keeps_the_rest():
    m = mesh_of(PYRS + [], volid=lambda e: e)
    before = m.get_data()
    assert m.set_volid(9) == 9
    assert {v for _, v in m._get().mesh_elements()} == {9}
    after = m.get_data()
    assert after[0] == before[0] and after[2] == before[2]
    assert after[1] == [v if i % 7 != 6 else 9 for i, v in enumerate(before[1])]
    assert len(m.volume_integration_points(volid=9)) == 6 * 8
    assert m.volume_integration_points(volid=0) == []
    assert m.set_volid(volid=-2) == -2 and {v for _, v in m._get().mesh_elements()} == {-2}
    # a HEX keeps its boundary surface ids
    h = HEX(CUBE, 2, 1, 1, 1, [1, 2, 3, 4, 5, 6])
    faces = h._get().mesh_boundary_faces()
    h.set_volid(3)
    assert h._get().mesh_boundary_faces() == faces
    assert volume_of(h) == pytest.approx(1.0, rel=1e-14)


# --- argument errors ---------------------------------------------------------------------------
def test_argument_errors_name_the_method_and_argument():
    m = HEX(CUBE, 2, 1, 1, 1, [1, 2, 3, 4, 5, 6])
    r = "MESH.inter_element_faces_on_plane"
    with pytest.raises(ValueError, match=f"{r}: argument 'point' must have 3 components"):
        m.inter_element_faces_on_plane((0, 0), (1, 0, 0))
    with pytest.raises(ValueError, match=f"{r}: argument 'normal' is a zero vector"):
        m.inter_element_faces_on_plane((0, 0, 0), (0, 0, 0))
    with pytest.raises(TypeError, match=f"{r}: argument 'ref' must be True or False"):
        m.inter_element_faces_on_plane((0, 0, 0), (1, 0, 0), ref=1)
    with pytest.raises(ValueError, match=f"{r}: argument 'eps' must be > 0"):
        m.inter_element_faces_on_plane((0, 0, 0), (1, 0, 0), eps=0.0)
    with pytest.raises(TypeError, match=f"{r}: argument 'eps' must be a number"):
        m.inter_element_faces_on_plane((0, 0, 0), (1, 0, 0), eps="1e-3")
    with pytest.raises(TypeError, match="MESH.set_volid: argument 'volid' must be an integer"):
        m.set_volid(1.5)
    with pytest.raises(TypeError, match="MESH.surface_integration_points: argument 'surfid' "
                                        "must be an integer"):
        m.surface_integration_points("1")
    with pytest.raises(TypeError, match="MESH.volume_integration_points: argument 'volid' "
                                        "must be an integer"):
        m.volume_integration_points(True)
    # an element inverted through MESH.node cannot be rebuilt by set_volid
    m.node(1, x=-2.0)
    with pytest.raises(ValueError, match="MESH.set_volid: the mesh cannot be rebuilt"):
        m.set_volid(2)


def test_mesh_emptied_by_body_is_reported(outdir):
    sol = SOLFEC("DYNAMIC", 1e-3, outdir)
    sol.verbose = "OFF"
    m = HEX(CUBE, 2, 1, 1, 1, [1, 2, 3, 4, 5, 6])
    BODY(sol, "FINITE_ELEMENT", m, BULK_MATERIAL(sol))
    for call in (m.get_data, lambda: m.set_volid(1), m.surface_integration_points,
                 m.volume_integration_points,
                 lambda: m.inter_element_faces_on_plane((0, 0, 0), (1, 0, 0))):
        with pytest.raises(ValueError, match="emptied"):
            call()
