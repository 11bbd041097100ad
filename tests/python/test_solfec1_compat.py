"""Solfec-1.0 routines beyond the manual (SOLFEC1-INTERFACE) and the manual's
BODY_SPACE_SOLVER: every routine name of Solfec-1.0 is a deck builtin; TEST_SOLVER and
BODY_SPACE_SOLVER run as NEWTON_SOLVER; DISPLAY_POINT follows its point; RENDER and
REGISTER_CALLBACK do nothing, as in a serial Solfec-1.0; the routines not provided raise
NotImplementedError naming themselves (docs/deck-language.md)."""

import numpy as np
import pytest

import solfec
from solfec import *  # noqa: F401,F403
from shapes_for_tests import box, slab

# The module routines and types of Solfec-1.0 (SOLFEC1-INTERFACE section 1) and the manual's
# BODY_SPACE_SOLVER.
SOLFEC1_NAMES = """APPLY_BULKMAT BACKWARD BARRIER BEND BODY BODY_CHARS BODY_MM_EXPORT
BODY_SPACE_SOLVER BULK_MATERIAL BYLABEL CALLBACK CONTACT_EXCLUDE_BODIES CONTACT_EXCLUDE_SURFACES
CONTACT_SPARSIFY CONVEX COPY COROTATED_DISPLACEMENTS DELETE DISPLACEMENT DISPLAY_POINT
DURATION ELLIP ELLIP_MESH ENERGY EXTENTS FIELD FIX_DIRECTION FIX_POINT FORCE FORWARD
FRACTURE_EXPORT_YAFFEMS GAUSS_SEIDEL_SOLVER GEOMETRIC_EPSILON GRAVITY HERE HEX HISTORY HULL
HYBRID_SOLVER IMBALANCE_TOLERANCE INITIALIZE_STATE INITIAL_VELOCITY LOCDYN_DUMP MASS_CENTER
MBFCP_EXPORT MESH MESH2CONVEX MESH_SPLIT MODAL_ANALYSIS NCPU NEWTON_SOLVER NON_SOLFEC_ARGV
OUTPUT OVERLAPPING PENALTY_SOLVER PIPE PRESSURE PUT_RIGID_LINK PUT_SPRING RANK REGISTER_BASE
REGISTER_CALLBACK RENDER RIGID_DISPLACEMENTS RIGID_TO_FEM ROTATE ROUGH_HEX RT_SPLIT RUN SCALE
SEEK SET_ACCELERATION SET_ACCELERATION3 SET_DISPLACEMENT SET_DISPLACEMENT3 SET_VELOCITY
SET_VELOCITY3 SICONOS_SOLVER SIMPLIFIED_CRACK SOLFEC SOLFEC_EXPORT SPHERE SPLIT STRESS SUBDIR
SURFACE_MATERIAL TEST_SOLVER TETRAHEDRALIZE TIME_SERIES TIMING TORQUE TRANSLATE
UNPHYSICAL_PENETRATION VELOCITY VIEWER WARNINGS XDMF_EXPORT""".split()

MISSING = ["HYBRID_SOLVER"]


def test_every_solfec_1_0_routine_is_a_deck_builtin(run_solfec):
    deck = ("missing = []\nfor n in %r:\n    try:\n        eval(n)\n"
            "    except NameError:\n        missing.append(n)\nprint('MISSING', missing)\n"
            % SOLFEC1_NAMES)
    p = run_solfec(deck)
    assert p.returncode == 0, p.stderr
    assert "MISSING []" in p.stdout
    assert set(SOLFEC1_NAMES) <= set(solfec.__all__)


@pytest.mark.parametrize("name", MISSING)
def test_routines_not_provided_raise_not_implemented_naming_themselves(name):
    with pytest.raises(NotImplementedError, match=f"^{name}: this Solfec-1.0 routine is not "
                                                  f"available in this solfec; "):
        getattr(solfec, name)((0, 0, 0), 1.0)


def resting_box(outdir):
    sol = SOLFEC("DYNAMIC", 1e-3, outdir)
    sol.verbose = "OFF"
    # a box sliding on a face: with the default one point per pair it rocks about
    # the face centre; the tests below need the face to resist it (4-point patch)
    CONTACT_POINTS(sol, 4)
    GRAVITY(sol, (0, 0, -9.81))
    mat = BULK_MATERIAL(sol, young=1e9, poisson=0.25, density=1e3)
    SURFACE_MATERIAL(sol, friction=0.5)
    BODY(sol, "OBSTACLE", slab(), mat)
    b = BODY(sol, "RIGID", box(0, 0, 0.0, 1, 1, 1), mat)
    INITIAL_VELOCITY(b, (0.2, 0, -0.1), (0, 0, 0))
    return sol, b


@pytest.mark.parametrize("make, same", [
    (lambda: TEST_SOLVER(1e-10, 200, 1000, 10),
     lambda: NEWTON_SOLVER(meritval=1e-10, maxiter=200, linmaxiter=10, delta=5.1e-8)),
    (lambda: BODY_SPACE_SOLVER(1e-10, 50),
     lambda: NEWTON_SOLVER(meritval=1e-10, maxiter=50, locdyn="OFF")),
])
def test_test_and_body_space_solvers_are_newton_with_their_arguments(tmp_path, make, same):
    """A box landing and sliding on a slab (friction 0.5): the same trajectory bit for bit as
    NEWTON_SOLVER given the equivalent arguments, and a solved contact problem."""
    runs = []
    for name, solver in (("a", make()), ("b", same())):
        sol, b = resting_box(str(tmp_path / name))
        for _ in range(20):
            RUN(sol, solver, 1e-3)
        runs.append((np.array(b.conf), np.array(b.velo), solver))
    (qa, ua, sa), (qb, ub, sb) = runs
    assert sol.ncon > 0 and sa.error == "OK" and sa.merit <= 1e-10
    np.testing.assert_array_equal(qa, qb)
    np.testing.assert_array_equal(ua, ub)
    assert ua[3] < 0.2  # friction slowed the slide


def test_test_and_body_space_solver_arguments_and_errors():
    t = TEST_SOLVER()
    assert (t.meritval, t.maxiter, t.linmaxiter, t.epsilon, t.delta) == (1e-8, 1000, 10, 0.25,
                                                                          5.1e-8)
    t = TEST_SOLVER(1e-6, 50, 1000, 20)  # Solfec-1.0's positional order: maxmatvec third
    assert (t.meritval, t.maxiter, t.linmaxiter) == (1e-6, 50, 20)
    b = BODY_SPACE_SOLVER()
    assert (b.meritval, b.maxiter, b.locdyn) == (1e-5, 20, "OFF")
    with pytest.raises(ValueError, match="^TEST_SOLVER: argument 'maxiter'"):
        TEST_SOLVER(maxiter=0)
    with pytest.raises(ValueError, match="^BODY_SPACE_SOLVER: argument 'meritval'"):
        BODY_SPACE_SOLVER(meritval=-1.0)
    assert repr(b).startswith("<BODY_SPACE_SOLVER")


def test_display_point_follows_a_spinning_body(outdir):
    sol = SOLFEC("DYNAMIC", 1e-3, outdir)
    sol.verbose = "OFF"
    mat = BULK_MATERIAL(sol, young=1e9, poisson=0.25, density=1e3)
    b = BODY(sol, "RIGID", box(-0.5, -0.5, -0.5, 1, 1, 1), mat)
    w = 2.0
    INITIAL_VELOCITY(b, (0, 0, 0), (0, 0, w))
    assert DISPLAY_POINT(b, (0.5, 0, 0), "tip") is None
    DISPLAY_POINT(b, (0, 0.25, 0.1))
    RUN(sol, GAUSS_SEIDEL_SOLVER(1e-8, 100), 0.1)
    a = w * sol.time  # free rotation about the principal z axis of a cube: angle w t
    (l1, x1), (l2, x2) = b.display_points
    assert (l1, l2) == ("tip", None)
    np.testing.assert_allclose(x1, (0.5 * np.cos(a), 0.5 * np.sin(a), 0), atol=1e-9)
    np.testing.assert_allclose(x2, (-0.25 * np.sin(a), 0.25 * np.cos(a), 0.1), atol=1e-9)
    with pytest.raises(TypeError, match="DISPLAY_POINT: argument 'body'"):
        DISPLAY_POINT(sol, (0, 0, 0))
    with pytest.raises(ValueError, match=r"DISPLAY_POINT: argument 'point\[2\]' is not finite"):
        DISPLAY_POINT(b, (0, 0, float("nan")))


def test_render_and_register_callback_do_nothing_but_check_their_arguments(outdir):
    sol, b = resting_box(outdir)
    assert RENDER(sol) is None and RENDER(sol, [b]) is None and RENDER(sol, b) is None
    assert REGISTER_CALLBACK(lambda: 1) is None
    assert sol.time == 0.0 and sol.ncon == 0
    with pytest.raises(TypeError, match="RENDER: argument 'object'"):
        RENDER(sol, [1])
    with pytest.raises(TypeError, match="REGISTER_CALLBACK: argument 'callback'"):
        REGISTER_CALLBACK(3)


def read_matrix_market(path):
    """(header, dense matrix) of a MatrixMarket coordinate file (symmetric: mirrored)."""
    with open(path) as f:
        header = f.readline().split()
        lines = [ln for ln in f if not ln.startswith("%")]
    n, m, nnz = (int(x) for x in lines[0].split())
    A = np.zeros((n, m))
    for ln in lines[1:1 + nnz]:
        i, j, v = ln.split()
        A[int(i) - 1, int(j) - 1] = float(v)
        if header[-1] == "symmetric":
            assert int(i) >= int(j)  # the lower triangle only
            A[int(j) - 1, int(i) - 1] = float(v)
    return header, A


def test_body_mm_export_writes_the_lumped_mass_and_the_tangent_stiffness(outdir, tmp_path):
    sol = SOLFEC("DYNAMIC", 1e-3, outdir)
    sol.verbose = "OFF"
    mat = BULK_MATERIAL(sol, young=1e6, poisson=0.3, density=100)
    cube = [0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0, 0, 0, 1, 1, 0, 1, 1, 1, 1, 0, 1, 1]
    b = BODY(sol, "FINITE_ELEMENT", HEX(cube, 2, 1, 1, 1, [1] * 6), mat)
    pm, pk = str(tmp_path / "mk" / "M.mtx"), str(tmp_path / "mk" / "K.mtx")
    assert BODY_MM_EXPORT(b, pm, pk) is None
    hm, M = read_matrix_market(pm)
    hk, K = read_matrix_market(pk)
    assert hm == hk == ["%%MatrixMarket", "matrix", "coordinate", "real", "symmetric"]
    n = 3 * 12  # 2 x 1 x 1 hexahedra: 12 nodes
    assert M.shape == K.shape == (n, n)
    np.testing.assert_array_equal(M, np.diag(np.diag(M)))
    assert np.trace(M) == pytest.approx(3 * b.mass, rel=1e-12)  # 100 kg on each axis
    # at t = 0 the tangent is the referential stiffness: symmetric, positive semidefinite with
    # the six rigid modes in its null space
    K0 = np.asarray(solfec._solfec.fe_reference_stiffness_product(sol._domain, b.id,
                                                                   np.eye(n)))
    np.testing.assert_allclose(K, K0, rtol=0, atol=1e-9 * np.abs(K0).max())
    ev = np.linalg.eigvalsh(K)
    assert np.sum(np.abs(ev) < 1e-9 * ev.max()) == 6 and ev.min() > -1e-9 * ev.max()
    # 'OFF': the full matrix, flagged general
    BODY_MM_EXPORT(b, pm, pk, spdM="OFF", spdK="OFF")
    hk2, K2 = read_matrix_market(pk)
    assert hk2[-1] == "general"
    # the assembled K is symmetric to round-off (its lower triangle mirrored above)
    np.testing.assert_allclose(K2, K, rtol=0, atol=1e-12 * np.abs(K).max())
    np.testing.assert_array_equal(np.tril(K2), np.tril(K))
    with pytest.raises(ValueError, match="BODY_MM_EXPORT: body .* is RIGID"):
        BODY_MM_EXPORT(BODY(sol, "RIGID", box(3, 0, 0, 1, 1, 1), mat), pm, pk)
    with pytest.raises(ValueError, match="BODY_MM_EXPORT: unknown value 'YES' of argument 'spdK'"):
        BODY_MM_EXPORT(b, pm, pk, spdK="YES")


def test_mesh2convex_gives_one_convex_per_element_with_the_mesh_volume(outdir):
    cube = [0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0, 0, 0, 1, 1, 0, 1, 1, 1, 1, 0, 1, 1]
    m = HEX(cube, 2, 3, 1, 1, [1, 2, 3, 4, 5, 6])
    c = MESH2CONVEX(m)
    assert isinstance(c, CONVEX) and c._get().num_convexes == 6
    assert c._get().volume() == pytest.approx(1.0, rel=1e-14)
    np.testing.assert_allclose(MASS_CENTER(c), (0.5, 0.5, 0.5), atol=1e-14)
    assert m.nelem == 6  # the MESH is kept
    # a RIGID body of the convexes has the mesh's inertia: a unit cube's 1/6 m about its axes
    sol = SOLFEC("DYNAMIC", 1e-3, outdir)
    mat = BULK_MATERIAL(sol, young=1e9, poisson=0.25, density=10.0)
    b = BODY(sol, "RIGID", c, mat)
    assert b.mass == pytest.approx(10.0, rel=1e-14)
    np.testing.assert_allclose(np.diag(np.reshape(b.tensor, (3, 3))), [10.0 / 6] * 3,
                               rtol=1e-12)
    with pytest.raises(TypeError, match="MESH2CONVEX: argument 'mesh' must be a MESH"):
        MESH2CONVEX(box(0, 0, 0, 1, 1, 1))


CUBE = [0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0, 0, 0, 1, 1, 0, 1, 1, 1, 1, 0, 1, 1]


def test_solfec_1_0_keyword_spellings_are_accepted(outdir):
    bar = [0, 1, 0, 2, 1, 0, 2, 1.5, 0, 0, 1.5, 0, 0, 1, 0.3, 2, 1, 0.3, 2, 1.5, 0.3, 0, 1.5, 0.3]
    a = HEX(bar, 4, 1, 1, 1, surids=[1, 2, 3, 4, 5, 6])
    b = HEX(bar, 4, 1, 1, 1, surfids=[1, 2, 3, 4, 5, 6])
    BEND(shape=a, point=(0, 0, 0), direction=(0, 0, -1), angle=30)
    BEND(mesh=b, point=(0, 0, 0), direction=(0, 0, -1), degrees=30)
    np.testing.assert_array_equal([a.node(n) for n in range(a.nnod)],
                                  [b.node(n) for n in range(b.nnod)])
    assert a.node(4) != (2.0, 1.0, 0.0)  # bent
    with pytest.raises(TypeError, match="BEND: arguments 'degrees' and 'angle'"):
        BEND(a, (0, 0, 0), (0, 0, -1), degrees=1, angle=1)
    sol, body = resting_box(outdir)
    assert ENERGY(sol, object=body) == ENERGY(sol, body)
    assert HERE(sol, object=body)
    RUN(sol, GAUSS_SEIDEL_SOLVER(1e-8, 100), 0.002)
    t, n = HISTORY(sol, list=["CONS"], t0=0, t1=1)
    assert len(t) == len(n) > 1
    WARNINGS(state="ON")
    DELETE(sol, object=body)
    assert sol.nbod == 1


def test_mesh_node_sets_only_the_coordinates_given():
    m = HEX(CUBE, 1, 1, 1, 1, [1] * 6)
    assert m.node(7) == (1.0, 1.0, 1.0)
    assert m.node(7, z=2.0) == (1.0, 1.0, 2.0) == m.node(7)  # was ignored: z alone
    assert m.node(7, x=0.5) == (0.5, 1.0, 2.0)               # was a TypeError: y missing
    assert m.node(7, 3, 4, 5) == (3.0, 4.0, 5.0)


def test_unknown_or_unsupported_members_raise_instead_of_being_ignored(outdir):
    sol, b = resting_box(outdir)
    b.fracturecheck = "OFF"
    sol.cleanup = "OFF"
    assert (b.disable_rotation, b.fracturecheck, sol.cleanup) == ("OFF", "OFF", "OFF")
    with pytest.raises(ValueError, match="BODY.disable_rotation: unknown value 'YES'"):
        b.disable_rotation = "YES"
    with pytest.warns(UserWarning, match="BODY.fracturecheck: body .* is RIGID"):
        b.fracturecheck = "ON"  # FINITE_ELEMENT only: Solfec-1.0 warns, the flag stays 'OFF'
    assert b.fracturecheck == "OFF"
    with pytest.raises(ValueError, match="SOLFEC.cleanup: 'ON'"):
        sol.cleanup = "ON"
    with pytest.raises(AttributeError, match="BODY: no member 'dampin'"):
        b.dampin = 0.1  # misspelt: would have been stored and ignored
    with pytest.raises(AttributeError, match="SOLFEC: no member 'verbos'"):
        sol.verbos = "OFF"
    b.damping = 0.1
    assert b.damping == 0.1


def test_form_is_ignored_for_bodies_that_are_not_finite_element(outdir):
    sol = SOLFEC("DYNAMIC", 1e-3, outdir)
    mat = BULK_MATERIAL(sol, young=1e9, poisson=0.25, density=1e3)
    b = BODY(sol, "RIGID", box(0, 0, 0, 1, 1, 1), mat, form="BC")
    assert b.kind == "RIGID" and len(b.conf) == 12
    with pytest.raises(ValueError, match="BODY: unknown value 'XX' of argument 'form'"):
        BODY(sol, "RIGID", box(0, 0, 0, 1, 1, 1), mat, form="XX")


def test_history_of_newton_and_body_space_iterations(outdir):
    sol, b = resting_box(outdir)
    ns = NEWTON_SOLVER(meritval=1e-10, maxiter=100)
    iters = []
    for _ in range(5):
        RUN(sol, ns, 1e-3)
        iters.append(ns.iters)
    t, nt, bs, gs = HISTORY(sol, ["NTITERS", "BSITERS", "GSITERS"], 0, 1)
    assert list(nt) == list(bs) == list(gs)
    assert list(nt[-5:]) == iters and max(iters) > 0
    with pytest.raises(ValueError, match="'LINMV' .* is not recorded by this solfec"):
        HISTORY(sol, ["LINMV"], 0, 1)


@pytest.mark.parametrize("disabled", [True, False])
def test_disable_rotation_keeps_a_rigid_body_translating(outdir, disabled):
    """A box under a constant force F and torque T: with disable_rotation 'ON' it keeps its
    rotation (identity) and its centre moves by F t^2 / 2m exactly, whatever the torque and the
    initial spin; with 'OFF' the same box turns."""
    sol = SOLFEC("DYNAMIC", 1e-3, outdir)
    sol.verbose = "OFF"
    mat = BULK_MATERIAL(sol, young=1e9, poisson=0.25, density=1000.0)
    SURFACE_MATERIAL(sol, friction=0.5)
    b = BODY(sol, "RIGID", box(-0.5, -0.5, 0.5, 1, 1, 1), mat)  # mass 1000, centre z = 1
    if disabled:
        b.disable_rotation = "ON"
        assert b.disable_rotation == "ON"
    INITIAL_VELOCITY(b, (0, 0, 0), (0, 0, 3.0))
    FORCE(b, "SPATIAL", (0, 0, 1), (1, 0, 0), 500.0)   # at the centre: no torque
    TORQUE(b, "SPATIAL", (0, 1, 0), 800.0)
    gs = GAUSS_SEIDEL_SOLVER(1e-10, 100)
    RUN(sol, gs, 0.2)
    t = sol.time
    L = np.reshape(b.conf[:9], (3, 3), order="F")
    if disabled:
        np.testing.assert_array_equal(L, np.eye(3))
        np.testing.assert_array_equal(b.velo[:3], (0, 0, 0))
        np.testing.assert_allclose(b.conf[9:], (0.25 * t * t, 0, 1), atol=1e-12)  # F/2m t^2
    else:
        assert np.abs(L - np.eye(3)).max() > 0.1
    with pytest.raises(ValueError, match="BODY.disable_rotation: body .* is not RIGID"):
        BODY(sol, "OBSTACLE", box(5, 5, 5, 1, 1, 1), mat).disable_rotation = "ON"


def test_xdmf_export_in_solfec_1_0_form_selects_frames_and_bodies(outdir, tmp_path):
    import h5py
    sol = SOLFEC("DYNAMIC", 1e-3, outdir)
    sol.verbose = "OFF"
    GRAVITY(sol, (0, 0, -9.81))
    mat = BULK_MATERIAL(sol, young=1e9, poisson=0.25, density=1e3)
    BODY(sol, "OBSTACLE", slab(), mat, label="FLOOR")
    a = BODY(sol, "RIGID", box(0, 0, 0.0, 1, 1, 1), mat, label="BOX1")
    BODY(sol, "RIGID", box(2, 0, 0.5, 1, 1, 1), mat, label="BOX2")
    RUN(sol, GAUSS_SEIDEL_SOLVER(1e-8, 100), 0.01)  # a frame every step: t = 0 ... 0.01

    def frames(paths):
        with h5py.File(paths[0][:-len("-bodies.xmf")] + ".h5", "r") as f:
            return [sorted(set(f[g]["body"][:].tolist())) for g in sorted(f, key=lambda k:
                                                                           int(k[1:]))]
    base = str(tmp_path / "x")
    every = frames(XDMF_EXPORT(sol, (0.0, 0.01), base + "1"))       # (t0, t1): all frames
    assert len(every) == 11 and all(f == [0, 1, 2] for f in every)
    one = frames(XDMF_EXPORT(sol, 0.0051, base + "2", subset="BOX1"))  # nearest frame only
    assert one == [[a.id]]
    two = frames(XDMF_EXPORT(sol, [0.002, 0.008], base + "3", subset=["BOX2", a],
                             attributes=["CONSTRAINTS"]))
    assert two == [[1, 2], [1, 2]]
    # the manual's form is unchanged
    assert len(frames(XDMF_EXPORT(sol, base + "4", 0.0, 0.004))) == 5
    # a box (xmin, ymin, zmin, xmax, ymax, zmax): the bodies whose bounding box overlaps it
    # (BOX2 spans [2, 3] x [0, 1] x [0.5, 1.5], BOX1 [0, 1] x [0, 1] x [0, 1])
    assert frames(XDMF_EXPORT(sol, 0.0, base + "5", subset=[(2.5, 0.2, 0.6, 2.6, 0.8, 0.9)])) \
        == [[2]]
    assert frames(XDMF_EXPORT(sol, 0.0, base + "7", subset=(0.9, 0.9, 0.9, 2.1, 1.0, 1.0))) \
        == [[1, 2]]
    with pytest.raises(TypeError, match="XDMF_EXPORT: argument 'subset' item 0"):
        XDMF_EXPORT(sol, 0.0, base + "5", subset=[(0, 0, 0, 1, 1)])
    with pytest.raises(ValueError, match=r"XDMF_EXPORT: argument 't' as a tuple must be"):
        XDMF_EXPORT(sol, (0.0, 0.1, 0.2), base + "6")


def test_imbalance_tolerance_in_solfec_1_0_positional_order(outdir):
    sol = SOLFEC("DYNAMIC", 1e-3, outdir)
    assert IMBALANCE_TOLERANCE(sol, 1.3, 0.5, 20) is True  # (tolerance, weightfactor, freq)
    assert sol._balance == {"tolerance": 1.3, "lockdir": False, "degenratio": 10.0,
                            "weightfactor": 0.5, "updatefreq": 20}
    IMBALANCE_TOLERANCE(sol, 1.2, "ON", 5.0, 0.3, 7)  # the manual's order
    assert sol._balance == {"tolerance": 1.2, "lockdir": True, "degenratio": 5.0,
                            "weightfactor": 0.3, "updatefreq": 7}
    with pytest.raises(TypeError, match="IMBALANCE_TOLERANCE: argument 'weightfactor' given"):
        IMBALANCE_TOLERANCE(sol, 1.2, 0.5, weightfactor=0.3)
    with pytest.raises(ValueError, match="IMBALANCE_TOLERANCE: argument 'weightfactor'"):
        IMBALANCE_TOLERANCE(sol, 1.2, 2.0)


def test_newton_solver_keeps_solfec_1_0_members():
    n = NEWTON_SOLVER()
    assert (n.linver, n.maxmatvec, n.theta, n.omega) == ("GMRES", 10000, 0.25, 1e-10)
    n.theta, n.maxmatvec, n.linver = 0.3, 50, "DIAG"
    assert (n.theta, n.maxmatvec, n.linver) == (0.3, 50, "DIAG")
    with pytest.raises(ValueError, match="NEWTON_SOLVER: unknown value 'BAD' of argument 'linver'"):
        n.linver = "BAD"
    with pytest.raises(ValueError, match="TEST_SOLVER: argument 'maxmatvec' must be >= 1"):
        TEST_SOLVER(maxmatvec=0)


def test_solver_argument_checks_of_solfec_1_0():
    with pytest.raises(ValueError, match="GAUSS_SEIDEL_SOLVER: failure 'CALLBACK' needs argument "
                                         "'callback'"):
        GAUSS_SEIDEL_SOLVER(1e-6, 10, failure="CALLBACK")
    b = BODY_SPACE_SOLVER()
    assert b.smooth == 0.0
    b.smooth = 1e-6
    assert b.smooth == 1e-6
    with pytest.raises(ValueError, match="BODY_SPACE_SOLVER: argument 'smooth'"):
        b.smooth = -1.0


def test_two_body_fix_direction_keeps_the_points_distance_along_the_direction(outdir):
    """Solfec-1.0's FIX_DIRECTION(body, point, dir, body2, point2): two equal free boxes tied
    along x at their mass centres, the first pushed along x by F and thrown along y. Both
    accelerate together at F / 2m along x (each moves by F t^2 / 4m), the motion along y stays
    the first box's own, and the distance along x stays as it started."""
    sol = SOLFEC("DYNAMIC", 1e-3, outdir)
    sol.verbose = "OFF"
    mat = BULK_MATERIAL(sol, young=1e9, poisson=0.25, density=1e3)  # 1000 kg boxes
    a = BODY(sol, "RIGID", box(0, 0, 0, 1, 1, 1), mat)
    b = BODY(sol, "RIGID", box(3, 0, 0, 1, 1, 1), mat)
    INITIAL_VELOCITY(a, (0, 0.5, 0), (0, 0, 0))
    FORCE(a, "SPATIAL", (0.5, 0.5, 0.5), (1, 0, 0), 400.0)
    c = FIX_DIRECTION(a, (0.5, 0.5, 0.5), (1, 0, 0), b, (3.5, 0.5, 0.5))
    assert c.kind == "FIXDIR"
    RUN(sol, GAUSS_SEIDEL_SOLVER(1e-10, 100), 0.1)
    t = sol.time
    xa, xb = np.array(a.conf[9:]), np.array(b.conf[9:])
    np.testing.assert_allclose(xa, (0.5 + 0.1 * t * t, 0.5 + 0.5 * t, 0.5), atol=1e-9)
    np.testing.assert_allclose(xb, (3.5 + 0.1 * t * t, 0.5, 0.5), atol=1e-9)
    np.testing.assert_allclose(b.velo[3:], (0.2 * t, 0, 0), atol=1e-9)
    assert c.R[2] != 0.0  # the tie carries half the force
    with pytest.raises(ValueError, match="FIX_DIRECTION: the two-body form needs both"):
        FIX_DIRECTION(a, (0.5, 0.5, 0.5), (1, 0, 0), b)


def test_set_velocity3_prescribes_the_point_velocity_in_a_base(outdir):
    """SET_VELOCITY3 / SET_DISPLACEMENT3 (Solfec-1.0): a free box whose centre is given the
    velocity (0.3, -0.2, 0.1) in a base rotated 30 degrees about z moves its centre exactly so
    (three SET_VELOCITY constraints along the base's columns)."""
    c, s_ = np.cos(np.pi / 6), np.sin(np.pi / 6)
    base = (c, s_, 0, -s_, c, 0, 0, 0, 1)  # columns e1, e2, e3
    sol = SOLFEC("DYNAMIC", 1e-3, outdir)
    sol.verbose = "OFF"
    mat = BULK_MATERIAL(sol, young=1e9, poisson=0.25, density=1e3)
    b = BODY(sol, "RIGID", box(0, 0, 0, 1, 1, 1), mat)
    cons = SET_VELOCITY3(b, (0.5, 0.5, 0.5), base, (0.3, -0.2, TIME_SERIES([0, 0.1, 1, 0.1])))
    assert [k.kind for k in cons] == ["VELODIR"] * 3
    RUN(sol, GAUSS_SEIDEL_SOLVER(1e-10, 100), 0.05)
    v = 0.3 * np.array([c, s_, 0]) - 0.2 * np.array([-s_, c, 0]) + 0.1 * np.array([0, 0, 1])
    np.testing.assert_allclose(b.velo[3:], v, atol=1e-9)
    with pytest.raises(ValueError, match="SET_VELOCITY3: the three directions of argument "
                                         "'base' are dependent"):
        SET_VELOCITY3(b, (0, 0, 0), (1, 0, 0, 1, 0, 0, 0, 0, 1), (0, 0, 0))
    with pytest.raises(TypeError, match="SET_DISPLACEMENT3: argument 'values' must be a tuple"):
        SET_DISPLACEMENT3(b, (0, 0, 0), base, (1, 2))


def test_constraint_v_is_the_relative_velocity_at_the_start_of_the_step(outdir):
    """CONSTRAINT.V (Solfec-1.0's contact input velocity): a box sliding on a floor; after each
    step V of a persisting contact equals its U of the step before (same base: a flat
    floor), while U changes as friction slows the box."""
    sol, b = resting_box(outdir)  # slides at 0.2 m/s, lands at -0.1 m/s
    gs = GAUSS_SEIDEL_SOLVER(1e-10, 100)
    RUN(sol, gs, 1e-3)
    assert sol.ncon > 0
    before = {c._id: c.U for c in sol.constraints}
    for _ in range(3):
        RUN(sol, gs, 1e-3)
        now = {c._id: c for c in sol.constraints}
        kept = [i for i in now if i in before]
        assert kept
        for i in kept:
            # V = H u(t) of the bodies' velocities, U = W R + B of the solver's last sweep:
            # equal to the solver's accuracy (epsilon 1e-10 of velocities ~0.2 m/s)
            np.testing.assert_allclose(now[i].V, before[i], rtol=0, atol=1e-9)
        # friction decelerates the slip by friction g h = 0.5 * 9.81 * 1e-3 per step
        slip = [np.hypot(*now[i].U[:2]) - np.hypot(*before[i][:2]) for i in kept]
        np.testing.assert_allclose(slip, -0.5 * 9.81 * 1e-3, rtol=1e-6)
        before = {i: c.U for i, c in now.items()}


def test_fixing_an_obstacle_keeps_it_at_rest_and_carries_nothing(outdir):
    """Solfec-1.0 decks fix OBSTACLE bodies with FIX_POINT / FIX_DIRECTION: the constraints
    guide the obstacle (DYNAMIC), which at rest stays at rest; contacts do not push an
    obstacle, so the constraints carry nothing, and a box lands on the floor as without
    them."""
    sol, b = resting_box(outdir)
    floor = next(x for x in sol.bodies if x.kind == "OBSTACLE")
    c = FIX_DIRECTION(floor, (0, 0, 0), (0, 0, 1))
    FIX_POINT(floor, (1, 1, 0))
    RUN(sol, GAUSS_SEIDEL_SOLVER(1e-10, 100), 0.05)
    assert c.R == pytest.approx((0.0, 0.0, 0.0), abs=1e-12) and c.kind == "FIXDIR"
    assert sol.ncon > 2 and abs(b.velo[5]) < 1e-6  # landed and rests on the floor
    assert DISPLACEMENT(floor, (1, 1, 0)) == pytest.approx((0, 0, 0), abs=1e-15)


def test_surface_material_model_is_writable(outdir):
    """SURFACE_MATERIAL.model is read/write (Solfec-1.0): switched to 'SPRING_DASHPOT' after
    creation, a box resting on a floor sinks to the static spring deflection m g / (n k) of its
    n contact points (penalty solver)."""
    sol = SOLFEC("DYNAMIC", 1e-3, outdir)
    sol.verbose = "OFF"
    GRAVITY(sol, (0, 0, -10))
    mat = BULK_MATERIAL(sol, young=1e9, poisson=0.25, density=1e3)
    sm = SURFACE_MATERIAL(sol, friction=0.0, spring=1e7, dashpot=-1)  # critical damping
    assert sm.model == "SIGNORINI_COULOMB"
    BODY(sol, "OBSTACLE", slab(), mat)
    b = BODY(sol, "RIGID", box(0, 0, 0, 1, 1, 1), mat)
    sm.model = "SPRING_DASHPOT"
    assert sm.model == "SPRING_DASHPOT"
    RUN(sol, PENALTY_SOLVER(), 1.0)
    n = sol.ncon
    assert n == 1  # the default: one point per pair of touching pieces (Solfec-1.0's)
    expected = 1000 * 10 / (n * 1e7)
    for c in sol.constraints:
        assert c.gap == pytest.approx(-expected, rel=1e-6)
    assert b.conf[11] == pytest.approx(0.5 - expected, rel=1e-9)
    with pytest.raises(ValueError, match="SURFACE_MATERIAL.model: unknown value 'X'"):
        sm.model = "X"
