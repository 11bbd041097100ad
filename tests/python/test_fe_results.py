"""FINITE_ELEMENT results: STRESS (WRITE and READ mode), HISTORY point entities at referential
points of TET4/PYR5/WED6/HEX8 bodies, the stored referential mesh and XDMF_EXPORT fields
(docs/output.md), all checked on prescribed homogeneous deformations."""

import os
import xml.etree.ElementTree as ET

import h5py
import numpy as np
import pytest

from solfec import *  # noqa: F401,F403
from solfec import results

E_YOUNG, NU = 2e9, 0.3
LAM = E_YOUNG * NU / ((1 + NU) * (1 - 2 * NU))
MU = E_YOUNG / (2 + 2 * NU)
STRETCH = np.array([1.01, 0.995, 1.003])  # principal stretches of the HEX8 body

# Single elements (manual Figure 4.1 numbering) and a point inside each.
ELEMENTS = {
    "TET4": ([0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1], (0.2, 0.2, 0.2)),
    "PYR5": ([0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0, 0.5, 0.5, 1], (0.5, 0.45, 0.3)),
    "WED6": ([0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 1, 0, 1, 0, 1, 1], (0.3, 0.25, 0.5)),
    "HEX8": ([0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0, 0, 0, 1, 1, 0, 1, 1, 1, 1, 0, 1, 1],
             (0.3, 0.4, 0.5)),
}
# A general homogeneous deformation x = A X + c (with shear) and velocity v = B X + b.
A_MAP = np.array([[1.02, 0.01, -0.005], [0.003, 0.99, 0.02], [-0.01, 0.004, 1.015]])
C_MAP = np.array([0.1, -0.2, 0.05])
B_MAP = np.array([[0.1, 0.0, 0.3], [-0.2, 0.05, 0.0], [0.0, 0.4, -0.1]])
b_MAP = np.array([1.0, 2.0, -0.5])


def svk_diagonal_stress(l):
    """Analytic SVK Cauchy stress of the stretch diag(l): E_i = (l_i^2 - 1)/2,
    S_i = lam sum(E) + 2 mu E_i, sigma_i = l_i^2 S_i / (l1 l2 l3)."""
    E = (l ** 2 - 1) / 2
    S = LAM * E.sum() + 2 * MU * E
    s = l ** 2 * S / l.prod()
    mises = np.sqrt(0.5 * ((s[0] - s[1]) ** 2 + (s[1] - s[2]) ** 2 + (s[2] - s[0]) ** 2))
    return np.array([s[0], s[1], s[2], 0, 0, 0, mises])


def svk_stress(F):
    E = (F.T @ F - np.eye(3)) / 2
    sig = F @ (LAM * np.trace(E) * np.eye(3) + 2 * MU * E) @ F.T / np.linalg.det(F)
    dev = sig - np.trace(sig) / 3 * np.eye(3)
    return np.array([sig[0, 0], sig[1, 1], sig[2, 2], sig[0, 1], sig[0, 2], sig[1, 2],
                     np.sqrt(1.5 * np.sum(dev * dev))])


def build(outdir):
    """Bodies: a 2x1x1 HEX8 block stretched by diag(STRETCH) and one single-element body per
    element kind under x = A X + c, v = B X + b (offset in y so they never touch)."""
    sol = SOLFEC("DYNAMIC", 1e-4, outdir)
    sol.verbose = "OFF"
    bulk = BULK_MATERIAL(sol, young=E_YOUNG, poisson=NU, density=1000.0)
    SURFACE_MATERIAL(sol, friction=0.0)
    block = BODY(sol, "FINITE_ELEMENT",
                 HEX([0, 0, 0, 2, 0, 0, 2, 1, 0, 0, 1, 0, 0, 0, 1, 2, 0, 1, 2, 1, 1, 0, 1, 1],
                     2, 1, 1, 1, [1] * 6), bulk, label="block")
    block.scheme = "DEF_LIM"
    X = np.array(block.conf).reshape(-1, 3)
    block.conf = (X * STRETCH).ravel().tolist()
    bodies = {}
    for k, (name, (nodes, _)) in enumerate(ELEMENTS.items()):
        n = len(nodes) // 3
        X = np.array(nodes, float).reshape(-1, 3) + (0, 3.0 * (k + 1), 0)
        m = MESH(X.ravel().tolist(), [n, *range(n), 1], 1)
        b = BODY(sol, "FINITE_ELEMENT", m, bulk, label=name)
        b.scheme = "DEF_LIM"
        b.conf = (X @ A_MAP.T + C_MAP).ravel().tolist()
        b.velo = (X @ B_MAP.T + b_MAP).ravel().tolist()
        bodies[name] = (b, np.array(ELEMENTS[name][1]) + (0, 3.0 * (k + 1), 0))
    return sol, block, bodies


@pytest.fixture
def written(outdir):
    sol, block, bodies = build(outdir)
    live = {"block": STRESS(block, (0.5, 0.5, 0.5))}
    for name, (b, P) in bodies.items():
        live[name] = STRESS(b, tuple(P))
    RUN(sol, GAUSS_SEIDEL_SOLVER(1e-8, 100), 1e-4)  # frame 0 holds the prescribed state
    return sol, block, bodies, live


def test_stress_of_a_uniform_stretch_equals_the_analytic_svk_stress(written):
    _, _, bodies, live = written
    # Only round-off in F (sums of O(1) terms) and the stress formula: 1e-10 relative.
    ref = svk_diagonal_stress(STRETCH)
    scale = np.abs(ref).max()
    np.testing.assert_allclose(live["block"], ref, rtol=0, atol=1e-10 * scale)
    ref = svk_stress(A_MAP)
    for name in ELEMENTS:
        np.testing.assert_allclose(live[name], ref, rtol=0, atol=1e-10 * np.abs(ref).max(),
                                   err_msg=name)


def test_history_of_fe_points_reproduces_the_prescribed_motion(written):
    sol, block, bodies, _ = written
    items = [(block, (1.5, 0.25, 0.75), e) for e in ("SX", "SY", "SZ", "SXY", "MISES")]
    for name, (b, P) in bodies.items():
        items += [(b, tuple(P), e) for e in ("DX", "DY", "DZ", "VX", "VY", "VZ", "CX", "CY",
                                             "CZ", "SX", "SYZ", "MISES")]
    out = HISTORY(sol, items, 0.0, 0.0)
    assert list(out[0]) == [0.0]
    vals = [v[0] for v in out[1:]]
    ref = svk_diagonal_stress(STRETCH)
    np.testing.assert_allclose(vals[:5], ref[[0, 1, 2, 3, 6]], rtol=0,
                               atol=1e-10 * np.abs(ref).max())
    sref = svk_stress(A_MAP)
    for k, (name, (b, P)) in enumerate(bodies.items()):
        got = vals[5 + 12 * k:5 + 12 * (k + 1)]
        x = A_MAP @ P + C_MAP
        v = B_MAP @ P + b_MAP
        # isoparametric elements reproduce affine fields exactly: round-off only
        np.testing.assert_allclose(got[:9], [*(x - P), *v, *x], rtol=0, atol=1e-12,
                                   err_msg=name)
        np.testing.assert_allclose(got[9:], sref[[0, 5, 6]], rtol=0,
                                   atol=1e-10 * np.abs(sref).max(), err_msg=name)


def test_results_file_stores_the_referential_fe_mesh(written, outdir):
    with results.Results(outdir) as r:
        bid = r.body_by_label("WED6")
        nodes, elements = r.shape(bid)["meshes"][0]
        assert nodes.shape == (6, 3) and len(elements) == 1
        assert int(elements[0]["num_nodes"]) == 6
        assert list(elements[0]["nodes"][:6]) == list(range(6))
        np.testing.assert_array_equal(nodes[:, 1] - 3.0 * 3, np.array(ELEMENTS["WED6"][0])
                                      .reshape(-1, 3)[:, 1])
        t, dz = r.body_point_history(bid, bodies_point("WED6"), "DZ")
        P = bodies_point("WED6")
        assert dz[0] == pytest.approx((A_MAP @ P + C_MAP - P)[2], abs=1e-12)


def bodies_point(name):
    k = list(ELEMENTS).index(name)
    return np.array(ELEMENTS[name][1]) + (0, 3.0 * (k + 1), 0)


def test_stress_in_read_mode_uses_the_loaded_frame(written, outdir):
    sol2, block, bodies = build(outdir)
    assert sol2.mode == "READ"
    block.conf = np.array(block.conf).tolist()  # overwritten by the frame load below
    SEEK(sol2, 0.0)
    ref = svk_diagonal_stress(STRETCH)
    np.testing.assert_allclose(STRESS(block, (1.2, 0.3, 0.9)), ref, rtol=0,
                               atol=1e-10 * np.abs(ref).max())


def _xmf_items(path):
    """{attribute name: (h5 file, dataset path)} of the first grid of a temporal .xmf."""
    root = ET.parse(path).getroot()
    grid = root.find("Domain/Grid/Grid")
    out = {}
    for node in grid:
        if node.tag in ("Topology", "Geometry"):
            key = node.tag
        elif node.tag == "Attribute":
            key = node.get("Name")
        else:
            continue
        item = node.find("DataItem")
        fname, dset = item.text.strip().split(":")
        out[key] = (os.path.join(os.path.dirname(path), fname), dset, node)
    return out


def test_xdmf_export_writes_fe_cells_with_analytic_stress_and_motion(written, outdir):
    sol = written[0]
    paths = XDMF_EXPORT(sol)
    assert len(paths) == 4 and paths[3].endswith("-fe.xmf")
    items = _xmf_items(paths[3])
    assert items["stress"][2].get("AttributeType") == "Tensor6"
    assert items["Topology"][2].get("TopologyType") == "Mixed"
    h5file = items["stress"][0]
    with h5py.File(h5file, "r") as f:
        stress = f[items["stress"][1]][()]
        mises = f[items["mises"][1]][()]
        body = f[items["body"][1]][()]
        topo = f[items["Topology"][1]][()]
        pts = f[items["Geometry"][1]][()]
        disp = f[items["displacement"][1]][()]
        vel = f[items["velocity"][1]][()]
    with results.Results(outdir) as r:
        ids = {name: r.body_by_label(name) for name in ["block", *ELEMENTS]}
    # 2 block cells + one cell per element kind; cell codes 9 (hex) ... in body order
    assert len(stress) == 6 and stress.shape[1] == 6
    ref = svk_diagonal_stress(STRETCH)
    blk = body == ids["block"]
    assert blk.sum() == 2
    # Tensor6 order xx, xy, xz, yy, yz, zz
    np.testing.assert_allclose(stress[blk], np.tile(ref[[0, 3, 4, 1, 5, 2]], (2, 1)), rtol=0,
                               atol=1e-10 * np.abs(ref).max())
    np.testing.assert_allclose(mises[blk], ref[6], rtol=1e-10)
    sref = svk_stress(A_MAP)
    for name in ELEMENTS:
        c = body == ids[name]
        np.testing.assert_allclose(stress[c][0], sref[[0, 3, 4, 1, 5, 2]], rtol=0,
                                   atol=1e-10 * np.abs(sref).max(), err_msg=name)
    # Mixed topology: [code, nodes...] with codes tet 6, pyramid 7, wedge 8, hexahedron 9
    codes, pos = [], 0
    while pos < len(topo):
        codes.append(int(topo[pos]))
        pos += 1 + {6: 4, 7: 5, 8: 6, 9: 8}[int(topo[pos])]
    assert codes == [9, 9, 6, 7, 8, 9]
    # displacement = current - referential nodes; the block's nodes are stretched
    X = pts - disp
    np.testing.assert_allclose(pts[:12], X[:12] * STRETCH, rtol=0, atol=1e-14)
    np.testing.assert_allclose(vel[:12], 0.0)
    np.testing.assert_allclose(vel[12:16], X[12:16] @ B_MAP.T + b_MAP, rtol=0, atol=1e-12)


def test_xdmf_fe_file_loads_in_meshio_with_positive_wedge(written, outdir):
    meshio = pytest.importorskip("meshio")
    paths = XDMF_EXPORT(written[0])
    with meshio.xdmf.TimeSeriesReader(paths[3]) as r:
        pts, cells = r.read_points_cells()
        _, pd, cd = r.read_data(0)
    types = [c.type for c in cells]
    assert "wedge" in types and "hexahedron" in types
    wedge = [c.data for c in cells if c.type == "wedge"][0][0]
    P = pts[wedge]
    # VTK wedge: (0, 1, 2) faces away from (3, 4, 5): (p1 - p0) x (p2 - p0) . (p3 - p0) < 0
    assert np.dot(np.cross(P[1] - P[0], P[2] - P[0]), P[3] - P[0]) < 0
    assert pd["displacement"].shape == (len(pts), 3)


def test_stored_internal_energy_of_fe_bodies_and_springs_equals_live_energy(tmp_path):
    # The results file stores each body's INTERNAL energy (strain energy of a deformable body
    # plus its share of PUT_SPRING potentials): HISTORY of 'INTERNAL' equals the live ENERGY
    # at every output time to round-off, and it is not zero (a rotating, stretching bar).
    import fe_decks_for_tests as fe_decks
    sol, b = fe_decks.rotating_bar(str(tmp_path / "bar"), 1.0 / 64, "TL")
    OUTPUT(sol, 0.0)
    live = []
    for _ in range(8):
        RUN(sol, GAUSS_SEIDEL_SOLVER(1e-8, 100), 1.0 / 64)
        live.append((sol.time, ENERGY(sol, b)[1]))
    t, internal = HISTORY(sol, [(b, "INTERNAL")])
    for time, e in live:
        k = int(np.argmin(np.abs(np.asarray(t) - time)))
        assert internal[k] == pytest.approx(e, rel=1e-12, abs=1e-300)
    assert max(e for _, e in live) > 0.0
