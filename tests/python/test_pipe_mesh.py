"""PIPE: Solfec-1.0's hexahedral pipe mesh generator (docs/deck-language.md): geometry,
Solfec-1.0 node numbering, surface ids, argument errors and a falling FINITE_ELEMENT pipe."""

import math

import numpy as np
import pytest

from solfec import *  # noqa: F401,F403
from solfec.meshgen import PIPE
from solfec.meshfile import signed_volumes


def nodes(mesh):
    return np.array([mesh.node(n) for n in range(mesh.nnod)])


def elements(mesh):
    return mesh._get().mesh_elements()


def faceted_volume(rin, thi, nrad, length):
    """Exact volume of the prism over a regular nrad-gon annulus (the PIPE cross-section)."""
    return 0.5 * nrad * math.sin(2 * math.pi / nrad) * ((rin + thi) ** 2 - rin ** 2) * length


def axial_and_radial(X, pnt, dir):
    """Axial coordinate along dir from pnt and distance from the axis of points X."""
    n = np.asarray(dir, float) / np.linalg.norm(dir)
    Y = X - np.asarray(pnt, float)
    s = Y @ n
    return s, np.linalg.norm(Y - np.outer(s, n), axis=1)


def element_volumes(mesh):
    conn = np.array([e for e, _ in elements(mesh)])
    return signed_volumes(nodes(mesh), conn)


ARGS = dict(pnt=(1.0, -2.0, 0.5), dir=(0.0, 0.0, 2.5), rin=0.3, thi=0.2, ndir=3, nrad=7, nthi=2,
            volid=5, surids=[11, 12, 13, 14])


def pipe(**kw):
    a = dict(ARGS, **kw)
    return PIPE(a["pnt"], a["dir"], a["rin"], a["thi"], a["ndir"], a["nrad"], a["nthi"],
                a["volid"], a["surids"])


# --- geometry -----------------------------------------------------------------------------------
def test_volume_is_the_faceted_annulus_prism_and_counts_match():
    m = pipe()
    nd, nr, nt = ARGS["ndir"], ARGS["nrad"], ARGS["nthi"]
    assert m.nnod == (nd + 1) * nr * (nt + 1) and m.nelem == nd * nr * nt
    exact = faceted_volume(0.3, 0.2, 7, 2.5)
    assert m._get().volume() == pytest.approx(exact, rel=1e-12)
    assert element_volumes(m).sum() == pytest.approx(exact, rel=1e-12)
    assert all(v == 5 for _, v in elements(m))
    # a coarse ring (nrad = 3: a triangular annulus) is still exact, not a circle's area
    m3 = pipe(nrad=3, nthi=1, ndir=1)
    assert m3._get().volume() == pytest.approx(faceted_volume(0.3, 0.2, 3, 2.5), rel=1e-12)


def test_every_element_is_a_positive_trapezoid_prism_of_its_ring():
    m = pipe()
    vol = element_volumes(m)
    assert (vol > 0).all()
    # element (i, j, k): trapezoid between radii r_k, r_k+1 and two rays 2 pi / nrad apart,
    # extruded over |dir| / ndir; the same in every sector and every axial layer
    nd, nr, nt = ARGS["ndir"], ARGS["nrad"], ARGS["nthi"]
    r = [0.3 + 0.2 * k / nt for k in range(nt + 1)]
    per_k = [0.5 * math.sin(2 * math.pi / nr) * (r[k + 1] ** 2 - r[k] ** 2) * 2.5 / nd
             for k in range(nt)]
    np.testing.assert_allclose(vol, np.tile(per_k, nd * nr), rtol=1e-12)


def test_nodes_lie_on_the_layer_radii_and_axial_stations():
    m = pipe()
    s, rho = axial_and_radial(nodes(m), ARGS["pnt"], ARGS["dir"])
    nd, nr, nt = ARGS["ndir"], ARGS["nrad"], ARGS["nthi"]
    idx = np.arange(m.nnod)
    i, j, k = idx // (nr * (nt + 1)), (idx // (nt + 1)) % nr, idx % (nt + 1)
    np.testing.assert_allclose(s, 2.5 * i / nd, rtol=0, atol=1e-14)
    np.testing.assert_allclose(rho, 0.3 + 0.2 * k / nt, rtol=0, atol=1e-14)
    assert rho.min() == pytest.approx(0.3, abs=1e-15)
    assert rho.max() == pytest.approx(0.5, abs=1e-15)
    # angle of node (i, j, k) about the axis: 2 pi j / nrad from node (i, 0, k)
    Y = nodes(m) - np.asarray(ARGS["pnt"])
    ang = np.arctan2(Y[:, 1], Y[:, 0])
    np.testing.assert_allclose(np.cos(ang - ang[k]), np.cos(2 * np.pi * j / nr), atol=1e-13)
    np.testing.assert_allclose(np.sin(ang - ang[k]), np.sin(2 * np.pi * j / nr), atol=1e-13)


@pytest.mark.parametrize("dir,b,a", [
    # Solfec-1.0's section frame: b = n x e for the first e of x, y, z not parallel to n and
    # a = n x b; node (i, j, k) at pnt + n s_i + r_k (a sin t_j + b cos t_j)
    ((0, 0, 2), (0, 1, 0), (-1, 0, 0)),
    ((0, 0, -2), (0, -1, 0), (-1, 0, 0)),
    ((3, 0, 0), (0, 0, 1), (0, -1, 0)),
    ((0, 1.5, 0), (0, 0, -1), (-1, 0, 0)),
])
def test_axis_aligned_pipes_reproduce_solfec_1_0_node_positions_and_numbering(dir, b, a):
    pnt, rin, thi, nd, nr, nt = (0.5, 0.25, -1.0), 0.4, 0.15, 2, 5, 3
    m = PIPE(pnt, dir, rin, thi, nd, nr, nt, 1, [1, 2, 3, 4])
    n = np.asarray(dir, float) / np.linalg.norm(dir)
    L = np.linalg.norm(dir)
    ref = [np.asarray(pnt) + n * L * i / nd + (rin + thi * k / nt) *
           (np.asarray(a) * math.sin(2 * math.pi * j / nr) +
            np.asarray(b) * math.cos(2 * math.pi * j / nr))
           for i in range(nd + 1) for j in range(nr) for k in range(nt + 1)]
    np.testing.assert_allclose(nodes(m), ref, rtol=0, atol=1e-14)
    # Solfec-1.0 element (i, j, k): (i,j,k) (i,j,k+1) (i,j+1,k+1) (i,j+1,k), then one layer up;
    # the last sector wraps to j = 0
    node = lambda i, j, k: i * nr * (nt + 1) + (j % nr) * (nt + 1) + k  # noqa: E731
    exp = []
    for i in range(nd):
        for j in range(nr):
            for k in range(nt):
                e = [node(i, j, k), node(i, j, k + 1), node(i, j + 1, k + 1), node(i, j + 1, k)]
                exp.append(e + [node(i + 1, j, k), node(i + 1, j, k + 1),
                                node(i + 1, j + 1, k + 1), node(i + 1, j + 1, k)])
    assert [list(e) for e, _ in elements(m)] == exp


def test_surface_ids_bottom_top_inner_outer():
    m = pipe()
    pnt, dir = ARGS["pnt"], ARGS["dir"]
    X = nodes(m)
    nd, nr, nt = ARGS["ndir"], ARGS["nrad"], ARGS["nthi"]
    faces = m._get().mesh_boundary_faces()
    by_id = {}
    for f, sid in faces:
        by_id.setdefault(sid, []).append(f)
    assert sorted(by_id) == [11, 12, 13, 14]
    assert len(by_id[11]) == len(by_id[12]) == nr * nt
    assert len(by_id[13]) == len(by_id[14]) == nd * nr
    for sid, (s_exp, r_lo, r_hi) in {11: (0.0, 0.3, 0.5), 12: (2.5, 0.3, 0.5),
                                     13: (None, 0.3, 0.3), 14: (None, 0.5, 0.5)}.items():
        for f in by_id[sid]:
            s, rho = axial_and_radial(X[f], pnt, dir)
            if s_exp is not None:  # end caps: all four nodes at the station
                np.testing.assert_allclose(s, s_exp, atol=1e-14)
            assert rho.min() >= r_lo - 1e-14 and rho.max() <= r_hi + 1e-14
    # the outward normal of each face: -dir at the bottom, +dir at the top, towards / away
    # from the axis on the inner / outer wall
    n = np.asarray(dir) / np.linalg.norm(dir)
    for sid, f in ((11, by_id[11][0]), (12, by_id[12][0]), (13, by_id[13][0]),
                   (14, by_id[14][0])):
        P = X[f]
        normal = np.cross(P[1] - P[0], P[2] - P[0])
        c = P.mean(axis=0) - np.asarray(pnt)
        radial = c - (c @ n) * n
        ref = {11: -n, 12: n, 13: -radial, 14: radial}[sid]
        assert normal @ ref > 0
    # MESH.nodes_on_surface agrees: the inner wall is the nodes at radius rin
    inner = m.nodes_on_surface(13)
    assert len(inner) == (nd + 1) * nr
    np.testing.assert_allclose(axial_and_radial(X[inner], pnt, dir)[1], 0.3, atol=1e-14)


def test_oblique_pipe_is_the_axial_pipe_rotated():
    pnt, d = (0.5, -1.0, 2.0), (1.0, 2.0, 2.0)  # |d| = 3
    rin, thi, nd, nr, nt = 0.3, 0.25, 4, 9, 2
    ob = PIPE(pnt, d, rin, thi, nd, nr, nt, 1, [1, 2, 3, 4])
    # radii stay rin..rin+thi (Solfec-1.0 shrinks them by |dir x e_x| / |dir| here)
    s, rho = axial_and_radial(nodes(ob), pnt, d)
    assert rho.min() == pytest.approx(rin, abs=1e-14)
    assert rho.max() == pytest.approx(rin + thi, abs=1e-14)
    assert s.min() == pytest.approx(0, abs=1e-14) and s.max() == pytest.approx(3.0, abs=1e-14)
    assert ob._get().volume() == pytest.approx(faceted_volume(rin, thi, nr, 3.0), rel=1e-12)
    # the same pipe along +z from the origin, rotated onto d, moved to pnt, then turned about
    # its axis so that node 0 coincides: every node matches, with the same numbering
    ax = PIPE((0, 0, 0), (0, 0, 3.0), rin, thi, nd, nr, nt, 1, [1, 2, 3, 4])
    n = np.asarray(d) / 3.0
    ROTATE(ax, (0, 0, 0), tuple(np.cross((0, 0, 1), n)), math.degrees(math.acos(n[2])))
    TRANSLATE(ax, pnt)
    Xa, Xo = nodes(ax), nodes(ob)
    u, v = Xa[0] - pnt, Xo[0] - pnt
    phi = math.degrees(math.atan2(np.cross(u, v) @ n, u @ v))
    ROTATE(ax, pnt, tuple(n), phi)
    np.testing.assert_allclose(nodes(ax), Xo, rtol=0, atol=1e-13)
    assert [list(e) for e, _ in elements(ax)] == [list(e) for e, _ in elements(ob)]
    assert sorted(map(str, ax._get().mesh_boundary_faces())) == \
        sorted(map(str, ob._get().mesh_boundary_faces()))
    assert MASS_CENTER(ob) == pytest.approx(tuple(np.asarray(pnt) + 0.5 * np.asarray(d)),
                                            abs=1e-13)


def test_keyword_arguments_with_solfec_1_0_names():
    ref = nodes(pipe())
    m1 = PIPE(**ARGS)
    kw = dict(ARGS)
    kw["ndri"] = kw.pop("ndir")        # Solfec-1.0's lng.c keyword
    kw["surfids"] = kw.pop("surids")   # Solfec-1.0's manual keyword
    m2 = PIPE(**kw)
    np.testing.assert_array_equal(nodes(m1), ref)
    np.testing.assert_array_equal(nodes(m2), ref)
    with pytest.raises(TypeError, match="PIPE: argument 'ndir' given twice"):
        PIPE(ndri=3, **ARGS)
    with pytest.raises(TypeError, match="PIPE: missing argument 'surids'"):
        PIPE((0, 0, 0), (0, 0, 1), 1, 1, 1, 3, 1, 1)


# --- argument errors ----------------------------------------------------------------------------
@pytest.mark.parametrize("kw,exc,msg", [
    (dict(rin=-1.0), ValueError, r"PIPE: argument 'rin' must be > 0, got -1.0"),
    (dict(thi=0), ValueError, r"PIPE: argument 'thi' must be > 0, got 0"),
    (dict(rin="1"), TypeError, r"PIPE: argument 'rin' must be a number"),
    (dict(ndir=0), ValueError, r"PIPE: argument 'ndir' must be >= 1, got 0"),
    (dict(nrad=2), ValueError, r"PIPE: argument 'nrad' must be >= 3 \(a closed ring"),
    (dict(nthi=1.5), TypeError, r"PIPE: argument 'nthi' must be an integer"),
    (dict(volid=1.0), TypeError, r"PIPE: argument 'volid' must be an integer"),
    (dict(dir=(0, 0, 0)), ValueError, r"PIPE: argument 'dir' is a zero vector"),
    (dict(pnt=(0, 0)), ValueError, r"PIPE: argument 'pnt' must have 3 components"),
    (dict(dir=5.0), TypeError, r"PIPE: argument 'dir' must be a tuple or list"),
    (dict(surids=[1, 2, 3]), ValueError, r"PIPE: argument 'surids' must list 4 surface ids"),
    (dict(surids=7), TypeError, r"PIPE: argument 'surids' must be a list of 4 surface ids"),
    (dict(surids=[1, 2, 3, 4.5]), TypeError, r"PIPE: argument 'surids\[3\]' must be an integer"),
])
def test_bad_arguments_raise_clear_errors(kw, exc, msg):
    with pytest.raises(exc, match=msg):
        pipe(**kw)


# --- the mesh in a body -------------------------------------------------------------------------
def test_falling_finite_element_pipe_keeps_its_mass_and_accelerates_at_g(outdir):
    g, h, steps = 9.81, 1e-3, 10
    sol = SOLFEC("DYNAMIC", h, outdir)
    sol.verbose = "OFF"
    bulk = BULK_MATERIAL(sol, young=1e6, poisson=0.25, density=1.0)
    GRAVITY(sol, (0, 0, -g))
    pnt, d = (0.0, 0.0, 1.0), (0.3, 0.2, 0.5)
    m = PIPE(pnt, d, 0.2, 0.1, 2, 8, 1, 1, [1, 2, 3, 4])
    X0 = nodes(m)
    b = BODY(sol, "FINITE_ELEMENT", m, bulk)
    b.scheme = "DEF_LIM"
    exact = faceted_volume(0.2, 0.1, 8, np.linalg.norm(d))
    assert b.mass == pytest.approx(exact, rel=1e-12)  # density 1
    np.testing.assert_allclose(b.center, np.asarray(pnt) + 0.5 * np.asarray(d), atol=1e-14)
    gs = GAUSS_SEIDEL_SOLVER(1e-8, 100)
    vc = [0.0]
    for _ in range(steps):
        RUN(sol, gs, h)
        vc.append(np.array(b.velo).reshape(-1, 3)[:, 2].mean())  # all nodes move alike
    t = sol.time
    assert t == pytest.approx(steps * h, rel=1e-12)
    assert sol.ncon == 0 and b.mass == pytest.approx(exact, rel=1e-12)
    # a uniform body force leaves the pipe undeformed: rigid free fall x = X - g t^2 / 2 e_z
    U = np.array(b.conf).reshape(-1, 3) - X0
    np.testing.assert_allclose(U, np.tile((0, 0, -0.5 * g * t * t), (len(X0), 1)),
                               rtol=0, atol=1e-9)
    V = np.array(b.velo).reshape(-1, 3)
    np.testing.assert_allclose(V, np.tile((0, 0, -g * t), (len(X0), 1)), rtol=0, atol=1e-9)
    # the centre's acceleration, step by step
    np.testing.assert_allclose(np.diff(vc) / h, -g, rtol=1e-9, atol=0)


@pytest.mark.parametrize("form", ["TL", "BC"])
def test_mass_center_of_a_hollow_finite_element_body_lies_on_its_axis(outdir, form):
    """MASS_CENTER(body) of a FINITE_ELEMENT pipe: its centre lies in the hole, outside every
    element, so it is sum m_a x_a / sum m_a over the nodes (lumped masses m_a = integral of
    rho N_a), not a point mapped through an element (which gave (-0.088, -0.213, 1.125) for
    this pipe at t = 0). After a spin about the axis and a drift the centre moves with the
    drift only."""
    sol = SOLFEC("DYNAMIC", 1e-3, outdir)
    sol.verbose = "OFF"
    bulk = BULK_MATERIAL(sol, young=1e9, poisson=0.25, density=1000.0)
    b = BODY(sol, "FINITE_ELEMENT", PIPE((0, 0, 1), (0, 0, 0.5), 0.2, 0.1, 2, 8, 1, 1,
                                         [1, 2, 3, 4]), bulk, form=form)
    b.scheme = "DEF_LIM"
    np.testing.assert_allclose(MASS_CENTER(b), (0, 0, 1.25), atol=1e-14)
    INITIAL_VELOCITY(b, (0.5, 0, 0), (0, 0, 20.0))
    gs = GAUSS_SEIDEL_SOLVER(1e-8, 100)
    RUN(sol, gs, 0.01)
    # no forces: the centre drifts at 0.5 m/s exactly (momentum is conserved by the schemes)
    np.testing.assert_allclose(MASS_CENTER(b), (0.5 * sol.time, 0, 1.25), atol=1e-9)
