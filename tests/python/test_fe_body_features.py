"""FINITE_ELEMENT body features through the deck language: CONVEX shapes embedded in a
background MESH, follower PRESSURE, APPLY_BULKMAT and self-contact."""

import numpy as np
import pytest

from solfec import *  # noqa: F401,F403
from shapes_for_tests import box, slab

G = 9.81


def model(outdir, step, young=1e7, poisson=0.25, density=1000.0):
    sol = SOLFEC("DYNAMIC", step, outdir)
    sol.verbose = "OFF"
    bulk = BULK_MATERIAL(sol, young=young, poisson=poisson, density=density)
    SURFACE_MATERIAL(sol, friction=0.0, restitution=0.0)
    return sol, bulk


def cube_mesh(x, y, z, a, n, volid=1):
    c = [x, y, z, x + a, y, z, x + a, y + a, z, x, y + a, z,
         x, y, z + a, x + a, y, z + a, x + a, y + a, z + a, x, y + a, z + a]
    return HEX(c, n, n, n, volid, [1, 2, 3, 4, 5, 6])


def nodes(body):
    return np.array(body.conf).reshape(-1, 3)


def test_embedded_convex_rests_on_its_own_bottom_with_the_mesh_mass(outdir):
    sol, bulk = model(outdir, 1e-3)
    # a single convex block on a face: with the default one point per pair it rocks about the
    # face centre (Solfec-1.0's model); this test needs the face to resist it (4-point patch)
    CONTACT_POINTS(sol, 4)
    BODY(sol, "OBSTACLE", slab(), bulk)
    # Convex block [-0.4, 0.4]^2 x [0.05, 0.85] inside the mesh cube [-0.5, 0.5]^2 x [0, 1].
    b = BODY(sol, "FINITE_ELEMENT", box(-0.4, -0.4, 0.05, 0.8, 0.8, 0.8), bulk,
             mesh=cube_mesh(-0.5, -0.5, 0.0, 1.0, 2))
    b.scheme = "DEF_LIM"
    b.damping = 1e-2
    assert b.mass == pytest.approx(1000.0, rel=1e-12)  # the mesh volume 1, not 0.512
    GRAVITY(sol, (0, 0, -G))
    RUN(sol, GAUSS_SEIDEL_SOLVER(1e-10, 1000, meritval=1e-16), 0.6)
    reaction = sum(c.R[2] for c in b.constraints if c.kind == "CONTACT")
    assert reaction == pytest.approx(b.mass * G, rel=1e-5)
    assert np.linalg.norm(b.velo) < 1e-4
    # The convex's bottom (referential z = 0.05) rests on the floor z = 0: contact points
    # lie at z = 0 and the mesh's bottom centre node, right under the convex, sits 0.05
    # below the floor (self-weight shortening ~1e-4 and impact penetration ~1e-4 aside).
    assert all(abs(c.point[2]) < 1e-3 for c in b.constraints if c.kind == "CONTACT")
    # (The bottom layer also bends between the supports: 1.2e-3 measured, hence 3e-3.)
    x = nodes(b)
    centre = int(np.argmin(np.linalg.norm(x[:, :2], axis=1) + np.abs(x[:, 2])))
    assert x[centre, 2] == pytest.approx(-0.05, abs=3e-3)


def test_mesh_argument_is_ignored_by_other_kinds_and_refused_far_outside_shapes(outdir):
    sol, bulk = model(outdir, 1e-3)
    # Solfec-1.0 ignores 'mesh' for kinds other than FINITE_ELEMENT
    r = BODY(sol, "RIGID", box(0, 0, 0, 1, 1, 1), bulk, mesh=cube_mesh(0, 0, 0, 1, 1))
    assert r.volume == pytest.approx(1.0)
    with pytest.raises(ValueError, match="'mesh'"):
        BODY(sol, "FINITE_ELEMENT", box(0, 0, 0, 1, 1, 1.5), bulk,
             mesh=cube_mesh(0, 0, 0, 1, 1))
    with pytest.raises(ValueError, match="'mesh'"):
        BODY(sol, "FINITE_ELEMENT", box(0, 0, 0, 1, 1, 1), bulk)


def test_pressure_on_a_face_gives_the_momentum_p_a_t(outdir):
    # A free stiff cube, pressure p = 100 Pa on the top face (surfid 6, area 1) for T = 0.1 s:
    # the total force -p A e_z gives the mass-weighted mean velocity -p A T / m = -0.01 m/s
    # (the face stays flat and its area changes by the strain ~1e-5).
    sol, bulk = model(outdir, 1e-3, young=1e8)
    b = BODY(sol, "FINITE_ELEMENT", cube_mesh(0, 0, 0, 1.0, 2), bulk)
    b.scheme = "DEF_LIM"
    PRESSURE(b, 6, -100.0)  # pushes into the body: the top face down
    RUN(sol, GAUSS_SEIDEL_SOLVER(1e-10, 100), 0.1)
    v = np.array(b.velo).reshape(-1, 3)
    m = np.full(len(v), 0.0)
    # Lumped masses of a 2x2x2 unit hex mesh: 1/64 corner, 2/64 edge, 4/64 face, 8/64 centre.
    X = nodes(b)
    for i, p in enumerate(np.round((X - X.min(axis=0)) * 2)):
        m[i] = 1000.0 / 64 * 2 ** int(np.sum(p == 1))
    mean = (m[:, None] * v).sum(axis=0) / m.sum()
    assert mean[2] == pytest.approx(-100.0 * 0.1 / 1000.0, rel=1e-3)
    assert abs(mean[0]) < 1e-9 and abs(mean[1]) < 1e-9
    with pytest.raises(ValueError, match="'surfid'"):
        PRESSURE(b, 99, 1.0)
    with pytest.raises(ValueError, match="'follower'"):
        PRESSURE(b, 6, 1.0, follower="yes")
    ffr = BODY(sol, "FINITE_ELEMENT", cube_mesh(5, 0, 0, 1.0, 1), bulk, form="FFR")
    with pytest.raises(ValueError, match="'follower'"):
        PRESSURE(ffr, 6, 1.0, follower=False)  # FFR faces turn with the frame: always follower
    rigid = BODY(sol, "RIGID", box(3, 0, 0, 1, 1, 1), bulk)
    with pytest.raises(ValueError, match="FINITE_ELEMENT"):
        PRESSURE(rigid, 1, 1.0)


def test_hydrostatic_pressure_compresses_a_cube_uniformly(outdir):
    # follower p on all six faces of a free cube, run to rest (DEF_LIM, damping): uniform
    # stretch l with Cauchy stress -p, i.e. for Saint Venant-Kirchhoff
    # 3 K (l^2 - 1) / (2 l) = -p, K = E / (3 (1 - 2 nu)). The 2x2x2 mesh reproduces a homogeneous state exactly, so the
    # edge lengths match l to the rest tolerance (velocities < 1e-6 m/s after damping).
    E, nu, p = 1e7, 0.25, 1e5
    sol, bulk = model(outdir, 1e-3, young=E, poisson=nu)
    b = BODY(sol, "FINITE_ELEMENT", cube_mesh(0, 0, 0, 1.0, 2), bulk)
    b.scheme = "DEF_LIM"
    b.damping = 1e-2
    for sid in range(1, 7):
        PRESSURE(b, sid, TIME_SERIES([0, 0, 0.1, -p, 10, -p]), follower=True)  # compresses
    RUN(sol, GAUSS_SEIDEL_SOLVER(1e-10, 100), 0.6)
    K = E / (3 * (1 - 2 * nu))
    # 3K l^2 + 2p l - 3K = 0
    stretch = (-2 * p + np.sqrt(4 * p * p + 36 * K * K)) / (6 * K)
    x = nodes(b)
    edges = x.max(axis=0) - x.min(axis=0)
    assert np.linalg.norm(b.velo) < 1e-5
    assert edges == pytest.approx([stretch] * 3, abs=1e-7)
    assert 1 - stretch == pytest.approx(p / (3 * K), rel=0.02)  # small-strain value 5e-3


def test_apply_bulkmat_sets_the_mass_of_each_volume(outdir):
    sol, bulk = model(outdir, 1e-3)
    heavy = BULK_MATERIAL(sol, young=1e7, poisson=0.25, density=3000.0, label="heavy")
    # Two unit cubes glued along x = 1: one MESH with volids 1 (x < 1) and 2 (x > 1).
    nodes_ = [0, 0, 0, 1, 0, 0, 2, 0, 0, 2, 1, 0, 1, 1, 0, 0, 1, 0,
              0, 0, 1, 1, 0, 1, 2, 0, 1, 2, 1, 1, 1, 1, 1, 0, 1, 1]
    elements = [8, 0, 1, 4, 5, 6, 7, 10, 11, 1, 8, 1, 2, 3, 4, 7, 8, 9, 10, 2]
    b = BODY(sol, "FINITE_ELEMENT", MESH(nodes_, elements, 1), bulk)
    assert b.mass == pytest.approx(1000.0 * 2, rel=1e-12)
    APPLY_BULKMAT(sol, b, 2, "heavy")
    assert b.mass == pytest.approx(1000.0 + 3000.0, rel=1e-12)
    assert b.center[0] == pytest.approx((1000 * 0.5 + 3000 * 1.5) / 4000, rel=1e-12)
    with pytest.raises(ValueError, match="'volid'"):
        APPLY_BULKMAT(sol, b, 5, heavy)
    with pytest.raises(ValueError, match="FINITE_ELEMENT"):
        APPLY_BULKMAT(sol, BODY(sol, "RIGID", box(5, 0, 0, 1, 1, 1), bulk), 1, heavy)
    # The manual's name of the routine (4.4) does the same and names itself in errors.
    MATERIAL(sol, b, 2, bulk)
    assert b.mass == pytest.approx(1000.0 * 2, rel=1e-12)
    with pytest.raises(ValueError, match="^MATERIAL: .*'volid'"):
        MATERIAL(sol, b, 5, heavy)


def u_strip():
    """U-shaped HEX8 strip: base x in [0, 2.1], z in [0, 1]; arms x in [0, 1] and [1.1, 2.1],
    z in [1, 3]; the arms face each other across a 0.1 gap."""
    xs, ys, zs = [0.0, 1.0, 1.1, 2.1], [0.0, 1.0], [0.0, 1.0, 2.0, 3.0]
    idx = {}
    pts = []
    for k, z in enumerate(zs):
        for j, y in enumerate(ys):
            for i, x in enumerate(xs):
                idx[i, j, k] = len(pts) // 3
                pts += [x, y, z]
    elements = []
    for k in range(3):
        for i in range(3):
            if i == 1 and k > 0:
                continue
            c = [(i, 0, k), (i + 1, 0, k), (i + 1, 1, k), (i, 1, k)]
            elements += [8] + [idx[p] for p in c] + [idx[a, b, k + 1] for a, b, _ in c] + [1]
    return MESH(pts, elements, 1)


def run_strip(outdir, selfcontact):
    sol, bulk = model(outdir, 2e-3, young=1e6, density=100.0)
    b = BODY(sol, "FINITE_ELEMENT", u_strip(), bulk)
    b.scheme = "DEF_LIM"
    X0 = nodes(b).copy()
    b.damping = 5e-3
    b.selfcontact = selfcontact
    FORCE(b, "SPATIAL", (0.5, 0.5, 3.0), (1, 0, 0), 2e4)
    FORCE(b, "SPATIAL", (1.6, 0.5, 3.0), (-1, 0, 0), 2e4)
    RUN(sol, GAUSS_SEIDEL_SOLVER(1e-8, 1000), 0.3)
    x = nodes(b)
    left = [i for i, p in enumerate(X0) if abs(p[0] - 1.0) < 1e-9 and p[2] > 1.5]
    right = [i for i, p in enumerate(X0) if abs(p[0] - 1.1) < 1e-9 and p[2] > 1.5]
    gap = min(x[r, 0] - x[l, 0] for l, r in zip(left, right))
    return b, gap


def test_selfcontact_stops_the_arms_of_a_u_strip_from_penetrating(outdir):
    # Tip forces 2e4 N close the 0.1 gap at ~1.9 m/s; with h = 2e-3 the velocity-level
    # contact law admits an impact penetration of about v h ~ 4e-3 that then stays constant
    # (measured -5e-3), so -1e-2 (10% of the gap) bounds it; without self-contact the arms
    # cross each other by more than 0.05.
    b, gap_on = run_strip(outdir + "_on", "ON")
    contacts = [c for c in b.constraints if c.kind == "CONTACT"]
    assert contacts, "the arms closed the gap: self-contacts expected"
    for c in contacts:  # between the arms only: in the gap x in (1, 1.1), above the base
        assert 0.95 < c.point[0] < 1.15 and c.point[2] > 1.0
    assert min(c.gap for c in contacts) > -1e-2
    assert gap_on > -1e-2
    b_off, gap_off = run_strip(outdir + "_off", "OFF")
    assert not [c for c in b_off.constraints if c.kind == "CONTACT"]
    assert gap_off < -0.05


def test_stress_uses_the_material_of_each_volume(outdir):
    # Two-material bar in series (volid 1: E, volid 2: 4E) pulled by F in QUASI_STATIC: the
    # axial Cauchy stress is F/A in both halves (equilibrium), while the strains differ by 4;
    # STRESS/HISTORY evaluated with one material would be 4x off in one half. Small strain
    # (F/(EA) = 1e-4): SVK Cauchy stress equals F/A to ~3e-4 (area and stretch changes).
    sol = SOLFEC("QUASI_STATIC", 0.1, outdir)
    sol.verbose = "OFF"
    E, F = 1e8, 1e4
    soft = BULK_MATERIAL(sol, young=E, poisson=0.0, density=1000.0)
    stiff = BULK_MATERIAL(sol, young=4 * E, poisson=0.0, density=1000.0)
    nodes_ = [0, 0, 0, 1, 0, 0, 2, 0, 0, 2, 1, 0, 1, 1, 0, 0, 1, 0,
              0, 0, 1, 1, 0, 1, 2, 0, 1, 2, 1, 1, 1, 1, 1, 0, 1, 1]
    elements = [8, 0, 1, 4, 5, 6, 7, 10, 11, 1, 8, 1, 2, 3, 4, 7, 8, 9, 10, 2]
    b = BODY(sol, "FINITE_ELEMENT", MESH(nodes_, elements, 1), soft)
    MATERIAL(sol, b, 2, stiff)
    for p in [(0, 0, 0), (0, 1, 0), (0, 0, 1), (0, 1, 1)]:
        FIX_DIRECTION(b, p, (1, 0, 0))
    FIX_DIRECTION(b, (0, 0, 0), (0, 1, 0))
    FIX_DIRECTION(b, (0, 0, 0), (0, 0, 1))
    FIX_DIRECTION(b, (0, 1, 0), (0, 0, 1))
    FIX_DIRECTION(b, (0, 0, 1), (0, 1, 0))
    for p in [(2, 0, 0), (2, 1, 0), (2, 0, 1), (2, 1, 1)]:
        FORCE(b, "SPATIAL", p, (1, 0, 0), F / 4)
    RUN(sol, NEWTON_SOLVER(meritval=1e-24), 0.5)
    for X in [(0.5, 0.5, 0.5), (1.5, 0.5, 0.5)]:
        assert STRESS(b, X)[0] == pytest.approx(F, rel=1e-3)
    t, sx = HISTORY(sol, [(b, (1.5, 0.5, 0.5), "SX")], 0, 1)
    assert sx[-1] == pytest.approx(F, rel=1e-3)
    # and the halves do stretch by F L / (E A) and F L / (4 E A)
    assert DISPLACEMENT(b, (1, 0.5, 0.5))[0] == pytest.approx(F / E, rel=1e-3)
    assert DISPLACEMENT(b, (2, 0.5, 0.5))[0] == pytest.approx(F / E * 1.25, rel=1e-3)
