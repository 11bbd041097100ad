"""TETRAHEDRALIZE (Solfec-1.0, docs/deck-language.md): TetGen tetrahedral meshes of a MESH's
boundary or of a surface file, their volume, surface and volume ids, the volume and quality
bounds, the refinement along convex edges (ref_length, min_angle, max_angle), the cache, a
body made of one, and argument errors."""

import os
import shutil

import numpy as np
import pytest

from solfec import *  # noqa: F401,F403
from solfec.meshfile import signed_volumes

pytestmark = pytest.mark.skipif(shutil.which("tetgen") is None,
                                reason="TetGen not installed (bash cmake/setup.sh installs it)")

CUBE = [0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0, 0, 0, 1, 1, 0, 1, 1, 1, 1, 0, 1, 1]
SIDS = [11, 15, 14, 13, 12, 16]  # HEX order: z-min, x-min, y-max, x-max, y-min, z-max


def arrays(mesh):
    s = mesh._get()
    X = np.array(s.mesh_nodes())
    els = s.mesh_elements()
    return X, np.array([e for e, _ in els]), [v for _, v in els], s.mesh_boundary_faces()


def radius_edge_ratios(X, T):
    """Circumradius over shortest edge of every tetrahedron (TetGen's -q measure)."""
    out = []
    for t in T:
        p = X[t]
        A = 2 * (p[1:] - p[0])
        b = (p[1:] ** 2).sum(1) - (p[0] ** 2).sum()
        c = np.linalg.solve(A, b)
        r = np.linalg.norm(c - p[0])
        edges = [np.linalg.norm(p[i] - p[j]) for i in range(4) for j in range(i + 1, 4)]
        out.append(r / min(edges))
    return np.array(out)


def test_cube_mesh_fills_the_volume_keeps_face_ids_and_obeys_the_bounds(tmp_path):
    hexes = HEX(CUBE, 2, 2, 2, 7, SIDS)
    m = TETRAHEDRALIZE(hexes, str(tmp_path / "cube.mesh"), volume=0.01, quality=1.5)
    X, T, V, faces = arrays(m)
    assert T.shape[1] == 4 and len(T) > 100
    vol = signed_volumes(X, T)
    assert vol.min() > 0
    assert vol.sum() == pytest.approx(1.0, rel=1e-12)  # the unit cube, to round-off
    assert vol.max() <= 0.01 * (1 + 1e-12)
    # TetGen's Delaunay refinement meets the radius-edge bound on this cube
    assert radius_edge_ratios(X, T).max() <= 1.5 + 1e-9
    assert set(V) == {7}  # the MESH's volume id
    # every boundary face lies on the cube face of its id
    axis = {11: (2, 0), 12: (1, 0), 13: (0, 1), 14: (1, 1), 15: (0, 0), 16: (2, 1)}
    assert {s for _, s in faces} == set(SIDS)
    for f, s in faces:
        i, v = axis[s]
        np.testing.assert_allclose(X[list(f), i], v, atol=1e-14)
    assert sum(1 for _ in faces) >= 6 * 8  # at least the 48 split quads' triangles
    MASS_CENTER(hexes)  # the input MESH is not emptied


def test_the_cache_is_returned_whatever_the_arguments(tmp_path):
    path = str(tmp_path / "sub" / "mesh.dat")
    a = TETRAHEDRALIZE(HEX(CUBE, 1, 1, 1, 1, SIDS), path, volume=0.05)
    assert os.path.isfile(path)
    b = TETRAHEDRALIZE(HEX(CUBE, 3, 3, 3, 2, SIDS), path, volume=0.001, volid=9)
    Xa, Ta, Va, _ = arrays(a)
    Xb, Tb, Vb, _ = arrays(b)
    np.testing.assert_array_equal(Xa, Xb)
    np.testing.assert_array_equal(Ta, Tb)
    assert Va == Vb
    # a file that is not a cache is meshed over
    other = tmp_path / "notes.txt"
    other.write_text("not a mesh")
    c = TETRAHEDRALIZE(HEX(CUBE, 1, 1, 1, 1, SIDS), str(other), volume=0.05)
    assert c.nelem > 0 and other.read_bytes()[:2] == b"PK"


def stl_cube(path, size=2.0):
    """An ASCII STL of the cube [0, size]^3 (12 outward triangles)."""
    v = np.array([[0, 0, 0], [1, 0, 0], [1, 1, 0], [0, 1, 0],
                  [0, 0, 1], [1, 0, 1], [1, 1, 1], [0, 1, 1]], float) * size
    quads = [(0, 3, 2, 1), (4, 5, 6, 7), (0, 1, 5, 4), (1, 2, 6, 5), (2, 3, 7, 6), (3, 0, 4, 7)]
    with open(path, "w") as f:
        f.write("solid cube\n")
        for q in quads:
            for t in ((q[0], q[1], q[2]), (q[0], q[2], q[3])):
                n = np.cross(v[t[1]] - v[t[0]], v[t[2]] - v[t[0]])
                f.write(f"facet normal {n[0]} {n[1]} {n[2]}\n outer loop\n")
                for i in t:
                    f.write(f"  vertex {v[i][0]} {v[i][1]} {v[i][2]}\n")
                f.write(" endloop\nendfacet\n")
        f.write("endsolid cube\n")


def test_stl_file_gives_ids_from_the_arguments(tmp_path):
    stl = tmp_path / "cube.stl"
    stl_cube(stl)
    m = TETRAHEDRALIZE(str(stl), str(tmp_path / "c"), volume=0.2, volid=3, surid=5)
    X, T, V, faces = arrays(m)
    assert signed_volumes(X, T).sum() == pytest.approx(8.0, rel=1e-12)
    assert set(V) == {3} and {s for _, s in faces} == {5}
    m = TETRAHEDRALIZE(str(stl), str(tmp_path / "d"))  # defaults: ids 0, no volume bound
    _, _, V, faces = arrays(m)
    assert set(V) == {0} and {s for _, s in faces} == {0}


def test_a_body_of_the_mesh_has_the_mass_of_the_volume_and_falls_freely(outdir, tmp_path):
    sol = SOLFEC("DYNAMIC", 1e-3, outdir)
    sol.verbose = "OFF"
    GRAVITY(sol, (0, 0, -10))
    mat = BULK_MATERIAL(sol, young=1e7, poisson=0.3, density=500)
    m = TETRAHEDRALIZE(HEX(CUBE, 1, 1, 1, 1, SIDS), str(tmp_path / "m"), volume=0.05)
    b = BODY(sol, "FINITE_ELEMENT", m, mat)
    b.scheme = "DEF_LIM"
    assert b.mass == pytest.approx(500.0, rel=1e-12)
    RUN(sol, GAUSS_SEIDEL_SOLVER(1e-8, 100), 0.01)
    np.testing.assert_allclose(MASS_CENTER(b), (0.5, 0.5, 0.5 - 5 * sol.time ** 2), atol=1e-9)


def test_bad_arguments_raise_clear_errors(tmp_path):
    cube = HEX(CUBE, 1, 1, 1, 1, SIDS)
    p = str(tmp_path / "x")
    with pytest.raises(ValueError, match="TETRAHEDRALIZE: argument 'volume' must be > 0"):
        TETRAHEDRALIZE(cube, p, volume=0.0)
    with pytest.raises(ValueError, match="TETRAHEDRALIZE: argument 'quality' must be > 1"):
        TETRAHEDRALIZE(cube, p, quality=1.0)
    with pytest.raises(TypeError, match="TETRAHEDRALIZE: argument 'shape' must be a MESH"):
        TETRAHEDRALIZE(SPHERE((0, 0, 0), 1, 1, 1), p)
    with pytest.raises(ValueError, match="does not exist"):
        TETRAHEDRALIZE(str(tmp_path / "none.stl"), p)
    with pytest.raises(ValueError, match="is not a file TetGen reads"):
        TETRAHEDRALIZE(str(tmp_path / "a.txt"), p)
    with pytest.raises(TypeError, match="TETRAHEDRALIZE: argument 'path'"):
        TETRAHEDRALIZE(cube, 3)
    # an open surface (one facet of the cube missing): TetGen fails, the error says so
    stl = tmp_path / "open.stl"
    stl_cube(stl)
    text = stl.read_text().split("facet normal")
    stl.write_text("facet normal".join(text[:-2]) + "endsolid cube\n")
    with pytest.raises(RuntimeError, match="TETRAHEDRALIZE: mesh generation has failed"):
        TETRAHEDRALIZE(str(stl), p)
    assert not os.path.exists(p)  # no cache of a failure


def edges_of(T):
    return {(min(a, b), max(a, b)) for t in T.tolist() for i, a in enumerate(t) for b in t[i + 1:]}


def incident_lengths(X, T, point):
    """Lengths of the mesh edges at the node at `point`."""
    k = int(np.argmin(np.linalg.norm(X - point, axis=1)))
    assert np.linalg.norm(X[k] - point) < 1e-12
    return np.array([np.linalg.norm(X[a] - X[b]) for a, b in edges_of(T) if k in (a, b)])


@pytest.mark.parametrize("ref_length", [0.2, 0.1, 0.05])
def test_ref_length_refines_along_the_convex_edges_to_that_length(tmp_path, ref_length):
    # Solfec-1.0 (2015 manual, TETRAHEDRALIZE): ref_length > 0 gives the nodes of the convex
    # edges the target edge length ref_length (TetGen's -m). A unit cube of 2 x 2 x 2 hexahedra:
    # its 12 edges (90 degrees) are convex, its face diagonals flat. Unrefined, an edge of the
    # cube is 2 mesh edges of 0.5; refined, it is split into pieces of at most ~ref_length
    # (TetGen halves segments: measured 0.25, 0.125, 0.0625) and no shorter than ref_length/2,
    # and the mesh has more elements the smaller ref_length.
    plain = arrays(TETRAHEDRALIZE(HEX(CUBE, 2, 2, 2, 1, SIDS), str(tmp_path / "plain")))
    X, T, _, faces = arrays(TETRAHEDRALIZE(HEX(CUBE, 2, 2, 2, 1, SIDS), str(tmp_path / "r"),
                                           ref_length=ref_length))
    vol = signed_volumes(X, T)
    assert vol.min() > 0 and vol.sum() == pytest.approx(1.0, rel=1e-12)
    assert {s for _, s in faces} == set(SIDS)
    on_edge = [k for k, x in enumerate(X) if abs(x[0]) < 1e-12 and abs(x[1]) < 1e-12]
    z = np.sort(X[on_edge, 2])  # the nodes on the cube edge x = y = 0
    assert z[0] == 0 and z[-1] == 1
    pieces = np.diff(z)
    assert pieces.max() <= 1.3 * ref_length and pieces.min() >= 0.5 * ref_length
    assert len(plain[1]) == 43 and len(T) > 5 * len(plain[1]) * (0.2 / ref_length)
    # the mesh edges at a cube corner have lengths about ref_length
    at_corner = incident_lengths(X, T, (1, 1, 1))
    assert 0.5 * ref_length < at_corner.mean() < 1.5 * ref_length


def test_min_and_max_angle_select_the_edges_ref_length_refines(tmp_path):
    # A pipe of 8 sectors, 2 layers along its axis: its outer longitudinal edges are convex
    # with the dihedral angle 180 - 45 = 135 degrees inside the body, the rims of its ends 90
    # degrees (outer and inner), its inner longitudinal edges concave (never refined).
    # min_angle = 100 refines the outer longitudinal edges only: the outer node halfway up
    # gets the length ref_length, the inner rim node not; max_angle = 100 the rims only: the
    # other way round.
    def pipe():
        return PIPE((0, 0, 0), (0, 0, 1), 0.5, 0.5, 2, 8, 1, 1, [1, 2, 3, 4])
    h = 0.15
    mid, rim = (1, 0, 0.5), (0.5, 0, 0)
    X, T, _, _ = arrays(TETRAHEDRALIZE(pipe(), str(tmp_path / "plain")))
    coarse = incident_lengths(X, T, mid).mean(), incident_lengths(X, T, rim).mean()
    assert min(coarse) > 3 * h  # unrefined: ~0.5 m edges (measured 0.72, 0.59)
    X, T, _, _ = arrays(TETRAHEDRALIZE(pipe(), str(tmp_path / "lon"), ref_length=h,
                                       min_angle=100))
    assert incident_lengths(X, T, mid).mean() < 1.5 * h  # measured 0.18
    assert incident_lengths(X, T, rim).mean() > 2 * h  # measured 0.35
    X, T, _, _ = arrays(TETRAHEDRALIZE(pipe(), str(tmp_path / "rims"), ref_length=h,
                                       max_angle=100))
    assert incident_lengths(X, T, mid).mean() > 2 * h  # measured 0.40
    assert incident_lengths(X, T, rim).mean() < 1.5 * h  # measured 0.19
    # no edge of the cube in [91, 180): ref_length changes nothing; the default (-1): off
    plain = arrays(TETRAHEDRALIZE(HEX(CUBE, 2, 2, 2, 1, SIDS), str(tmp_path / "c0")))[1]
    none = arrays(TETRAHEDRALIZE(HEX(CUBE, 2, 2, 2, 1, SIDS), str(tmp_path / "c1"),
                                 ref_length=0.05, min_angle=91))[1]
    off = arrays(TETRAHEDRALIZE(HEX(CUBE, 2, 2, 2, 1, SIDS), str(tmp_path / "c2"),
                                ref_length=-1, min_angle=0, max_angle=180))[1]
    np.testing.assert_array_equal(none, plain)
    np.testing.assert_array_equal(off, plain)


def test_bad_refinement_arguments_raise_clear_errors(tmp_path):
    cube = HEX(CUBE, 1, 1, 1, 1, SIDS)
    p = str(tmp_path / "x")
    for kw, val, msg in [
            ("min_angle", -1, r"argument 'min_angle' = -1 is out of its valid range \[0, 180\]"),
            ("max_angle", 200, r"argument 'max_angle' = 200 is out of its valid range"),
            ("min_angle", float("nan"), "argument 'min_angle' is not finite"),
            ("ref_length", float("nan"), "argument 'ref_length' is not finite"),
            ("ref_length", 0, "argument 'ref_length' must be > 0"),
    ]:
        with pytest.raises(ValueError, match="TETRAHEDRALIZE: " + msg):
            TETRAHEDRALIZE(cube, p, **dict({"ref_length": 0.1}, **{kw: val}))
    with pytest.raises(ValueError, match="TETRAHEDRALIZE: argument 'min_angle' = 120 must be "
                                         "below 'max_angle' = 90"):
        TETRAHEDRALIZE(cube, p, ref_length=0.1, min_angle=120, max_angle=90)
    with pytest.raises(TypeError, match="TETRAHEDRALIZE: argument 'ref_length' must be a number"):
        TETRAHEDRALIZE(cube, p, ref_length="0.1")
    stl = tmp_path / "cube.stl"
    stl_cube(stl)
    with pytest.raises(ValueError, match="TETRAHEDRALIZE: argument 'ref_length' = 0.1 refines "
                                         "along the convex edges of a MESH shape only"):
        TETRAHEDRALIZE(str(stl), p, ref_length=0.1)
    assert not os.path.exists(p)


@pytest.mark.parametrize("error", [0.05, 0.01])
def test_ellip_mesh_lies_within_the_error_of_the_ellipsoid(error):
    c, r = np.array([1.0, 2.0, 3.0]), np.array([1.0, 0.5, 0.3])
    m = ELLIP_MESH(tuple(c), tuple(r), error, 4, 7)
    X, T, V, faces = arrays(m)
    vol = signed_volumes(X, T)
    assert vol.min() > 0 and set(V) == {4} and {s for _, s in faces} == {7}
    # boundary nodes on the ellipsoid, interior nodes inside
    on = sorted({n for f, _ in faces for n in f})
    q = np.sum(((X - c) / r) ** 2, axis=1)
    np.testing.assert_allclose(q[on], 1.0, atol=1e-12)
    assert np.all(q <= 1 + 1e-12)
    # the inscribed polyhedron's volume: below the ellipsoid's by at most its surface times
    # the error (each surface triangle within `error` of the ellipsoid)
    exact = 4 / 3 * np.pi * r.prod()
    area = 4 * np.pi * ((r[0] * r[1]) ** 1.6 + (r[0] * r[2]) ** 1.6 +
                        (r[1] * r[2]) ** 1.6) ** (1 / 1.6) / 3 ** (1 / 1.6)  # Thomsen, 1%
    assert exact - 1.02 * area * error <= vol.sum() < exact
    # face centroids within the error of the ellipsoid along their ray from the centre
    for f, _ in faces:
        g = X[list(f)].mean(axis=0) - c
        s = 1 / np.sqrt(np.sum((g / r) ** 2))  # g * s lies on the ellipsoid
        assert np.linalg.norm(g * (s - 1)) <= error * (1 + 1e-9)


def test_ellip_mesh_errors():
    with pytest.raises(ValueError, match="ELLIP_MESH: argument 'error' must be > 0"):
        ELLIP_MESH((0, 0, 0), (1, 1, 1), 0.0, 1, 1)
    with pytest.raises(ValueError, match="ELLIP_MESH: argument 'radii' must be positive"):
        ELLIP_MESH((0, 0, 0), (1, -1, 1), 0.1, 1, 1)
    with pytest.raises(ValueError, match="below 1e-4 times the smallest radius"):
        ELLIP_MESH((0, 0, 0), (1, 1, 1), 1e-6, 1, 1)
    with pytest.raises(TypeError, match="ELLIP_MESH: argument 'volid'"):
        ELLIP_MESH((0, 0, 0), (1, 1, 1), 0.1, 1.5, 1)


def test_under_solfec_mpi_rank_0_meshes_and_every_rank_gets_the_same_mesh(tmp_path):
    """solfec-mpi runs the deck on every rank: rank 0 writes the cache, the others read it
    (no two ranks write the file); a second run finds the cache on every rank."""
    import subprocess
    from conftest import BUILD
    from test_mpi_launcher import MPI_ENV
    exe, mpirun = os.path.join(BUILD, "solfec-mpi"), shutil.which("mpirun")
    if not os.path.exists(exe) or mpirun is None:
        pytest.skip("solfec-mpi not built or no mpirun")
    deck = ("m = TETRAHEDRALIZE(HEX(%r, 2, 2, 2, 1, [1] * 6), 'cache.dat', volume=0.002)\n"
            "open('rank%%d.txt' %% RANK(), 'w').write('%%d %%r' %% (m.nelem, m._get().volume()))\n"
            % CUBE)
    (tmp_path / "deck.py").write_text(deck)
    for np_ in (2, 3):  # meshing, then reading the cache
        p = subprocess.run([mpirun, "--oversubscribe", "-np", str(np_), exe, "deck.py"],
                           cwd=tmp_path, capture_output=True, text=True, timeout=120,
                           env=dict(os.environ, **MPI_ENV))
        assert p.returncode == 0, p.stderr
        got = {(tmp_path / f"rank{r}.txt").read_text() for r in range(np_)}
        assert len(got) == 1
        nelem, vol = got.pop().split()
        assert int(nelem) > 100 and float(vol) == pytest.approx(1.0, rel=1e-12)
    assert not [f for f in os.listdir(tmp_path) if f.endswith(".tmp")]
