"""CONTACT_METHOD 'NODE_TO_FACE': FINITE_ELEMENT blocks (KIRCHHOFF, 2 x 2 x 2 HEX8) on an
OBSTACLE plate and on each other come to rest carrying their weight through node-to-face
contacts, without penetration."""

import os
import sys

import numpy as np
import pytest

import solfec
from solfec import *  # noqa: F401,F403
from shapes_for_tests import slab

E_YOUNG, NU, RHO, G, H = 1e7, 0.25, 1000.0, 9.81, 1e-3


def reference_searches():
    """The reference node-to-face searches (classic BVH, brute force) of the tests, a module
    built with them (tests/benchmarks/reference_searches_py.cc)."""
    build = os.environ.get("SOLFEC_BUILD_DIR", os.path.join(
        os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "build"))
    sys.path.insert(0, os.path.join(build, "tests", "benchmarks"))
    import _reference_searches
    return _reference_searches


def model(outdir):
    sol = SOLFEC("DYNAMIC", H, outdir)
    sol.verbose = "OFF"
    bulk = BULK_MATERIAL(sol, young=E_YOUNG, poisson=NU, density=RHO)
    SURFACE_MATERIAL(sol, friction=0.5, restitution=0.0)
    BODY(sol, "OBSTACLE", slab(), bulk)
    GRAVITY(sol, (0, 0, -G))
    CONTACT_METHOD(sol, "NODE_TO_FACE")
    return sol, bulk


def fe_block(sol, bulk, z0):
    """Unit cube [-0.5, 0.5]^2 x [z0, z0 + 1] of 2 x 2 x 2 HEX8 (27 nodes, 9 per face)."""
    c = [-0.5, -0.5, z0, 0.5, -0.5, z0, 0.5, 0.5, z0, -0.5, 0.5, z0,
         -0.5, -0.5, z0 + 1, 0.5, -0.5, z0 + 1, 0.5, 0.5, z0 + 1, -0.5, 0.5, z0 + 1]
    b = BODY(sol, "FINITE_ELEMENT", HEX(c, 2, 2, 2, 1, [1] * 6), bulk)
    # Stiffness-proportional damping: the block-on-plate mode (w ~ sqrt(E / rho) / L = 100
    # rad/s) decays at eta w^2 / 2 = 50 /s.
    b.scheme = "DEF_LIM"
    b.damping = 1e-2
    return b


def contacts(body):
    return [c for c in body.constraints if c.kind == "CONTACT"]


def upward_force_on(body):
    """Vertical contact force on `body`: R acts on the slave (body2) along the normal and
    on the master with the opposite sign; the normal is the master face normal (local N)."""
    f = 0.0
    for c in contacts(body):
        master, slave = c.adjbod
        nz = c.base[8]  # base is row-major: N = (base[2], base[5], base[8])
        f += (1.0 if slave is body else -1.0) * c.R[2] * nz
    return f


def test_fe_block_dropped_on_plate_rests_with_reaction_mg(outdir):
    sol, bulk = model(outdir)
    b = fe_block(sol, bulk, 0.005)  # 5 mm drop: impact at sqrt(2 g 0.005) = 0.31 m/s
    gs = GAUSS_SEIDEL_SOLVER(1e-10, 1000, meritval=1e-16)
    RUN(sol, gs, 1.0)
    cs = contacts(b)
    assert len(cs) == 9  # the 9 bottom-face nodes, one contact each
    # The plate carries the weight (relative 1e-3: solver accuracy 1e-10, residual motion).
    total = sum(c.R[2] for c in cs)
    assert total == pytest.approx(b.mass * G, rel=1e-3)
    gaps = [c.gap for c in cs]
    # No penetration beyond the O(g h^2) = 1e-5 m of one step's gravity drift; the contacts
    # activate before touching, so nodes may rest above the plate by at most h v_impact
    # = 3.1e-4 m (the velocity-level Signorini condition stops them where they are).
    assert min(gaps) > -1e-5
    assert max(gaps) < 3.2e-4
    assert np.linalg.norm(b.velo) < 1e-4


def test_two_fe_blocks_stacked_rest_and_floor_carries_both(outdir):
    sol, bulk = model(outdir)
    low = fe_block(sol, bulk, 0.002)
    top = fe_block(sol, bulk, 1.004)
    gs = GAUSS_SEIDEL_SOLVER(1e-10, 1000, meritval=1e-16)
    RUN(sol, gs, 1.0)
    m = low.mass
    floor = [c for c in contacts(low) if c.adjbod[0] not in (low, top)]
    assert sum(c.R[2] for c in floor) == pytest.approx(2 * m * G, rel=1e-3)
    # Both passes (each block as slave once) carry the top block's weight together.
    assert upward_force_on(top) == pytest.approx(m * G, rel=1e-3)
    for c in contacts(top) + contacts(low):
        assert c.gap > -1e-5
    assert np.linalg.norm(top.velo) < 1e-4 and np.linalg.norm(low.velo) < 1e-4


def thrown_block(outdir, h, speed, young, gravity=False):
    """A 0.5 m NEO_HOOKEAN block ([0, 0.5]^2 x [0.01, 0.51], 2 x 2 x 2 HEX8, DEF_LIM) thrown
    down at `speed` onto the frictionless slab; returns (sol, block, height of the bottom
    face's centre)."""
    sol = SOLFEC("DYNAMIC", h, outdir)
    sol.verbose = "OFF"
    if gravity:
        GRAVITY(sol, (0, 0, -G))
    bulk = BULK_MATERIAL(sol, model="NEO_HOOKEAN", young=young, poisson=NU, density=RHO)
    SURFACE_MATERIAL(sol, friction=0.0, restitution=0.0)
    BODY(sol, "OBSTACLE", slab(), bulk)
    CONTACT_METHOD(sol, "NODE_TO_FACE")
    a, z0 = 0.5, 0.01
    c = [0, 0, z0, a, 0, z0, a, a, z0, 0, a, z0, 0, 0, z0 + a, a, 0, z0 + a, a, a, z0 + a,
         0, a, z0 + a]
    b = BODY(sol, "FINITE_ELEMENT", HEX(c, 2, 2, 2, 1, [1] * 6), bulk)
    b.scheme = "DEF_LIM"
    INITIAL_VELOCITY(b, (0, 0, -speed), (0, 0, 0))
    bottom = (0.5 * a, 0.5 * a, z0)
    return sol, b, lambda: z0 + DISPLACEMENT(b, bottom)[2]


def test_block_thrown_faster_than_the_captured_depth_bounces_off_not_through(outdir):
    """A 0.5 m NEO_HOOKEAN block (2 x 2 x 2 HEX8: captured depth 0.2 x 0.354 = 0.071 m)
    thrown at 200 m/s from 1 cm above the plate with h = 1 ms: at q(t+h/2), where contacts
    are found, its bottom nodes are already 9 cm deep. They are caught (deeper by the
    approach within the half step) and the block bounces back; before, the search let them
    through and an element turned inside out (a KIRCHHOFF block passed the plate)."""
    sol, b, height = thrown_block(outdir, 1e-3, 200.0, young=1e9)
    gs = GAUSS_SEIDEL_SOLVER(1e-8, 1000)
    lowest = 1.0
    for _ in range(20):
        RUN(sol, gs, 1e-3)
        lowest = min(lowest, height())
    # Deepest at a step's end: 8.7 cm (0.1 m of travel a half step, stopped within it).
    assert -0.1 < lowest < -0.05
    assert height() > 0.0  # back above the plate
    assert VELOCITY(b, (0.25, 0.25, 0.51))[2] > 10.0  # moving away


def test_block_caught_deep_by_a_large_step_stays_held_not_dropped(outdir):
    """The same block at 20 m/s with h = 10 ms (0.1 m a half step), gravity, young 1e8: its
    bottom nodes are caught 9 cm deep and held while the block recovers (as OVERLAP contact
    holds it); before, they were let through, and once caught they dropped out at rest:
    the block fell through the plate (3.7 m below it after 0.6 s)."""
    sol, b, height = thrown_block(outdir, 1e-2, 20.0, young=1e8, gravity=True)
    b.damping = 1e-2
    gs = GAUSS_SEIDEL_SOLVER(1e-8, 1000)
    depth = []
    for _ in range(60):
        RUN(sol, gs, 1e-2)
        depth.append(height())
        assert len(contacts(b)) == 9  # the bottom nodes, held every step
    assert -0.1 < min(depth) < -0.08
    assert depth[-1] > depth[0] + 0.05  # recovering upwards, not sinking


def test_contact_method_rejects_unknown_method_and_bad_depth(outdir):
    sol, _ = model(outdir)
    with pytest.raises(ValueError, match="CONTACT_METHOD.*'method'"):
        CONTACT_METHOD(sol, "NODES")
    with pytest.raises(ValueError, match="CONTACT_METHOD.*'depth'"):
        CONTACT_METHOD(sol, "NODE_TO_FACE", depth=2.0)


def stacked_blocks_run(outdir, method, skin=None):
    """Two stacked blocks dropped on the plate for 50 steps with the steps' node-to-face
    search done by `method` (and the three-stage search's skin, if given); the final nodes,
    contacts, the last search's node-face pairs given to the local test and its passes
    whose stage-2 pairs were kept by the skin."""
    sol, bulk = model(outdir)
    low = fe_block(sol, bulk, 0.002)
    top = fe_block(sol, bulk, 1.004)
    INITIAL_VELOCITY(top, (0.2, -0.1, -0.5), (0, 0, 0))
    reference_searches().set_run_method(sol._domain, method)
    if skin is not None:
        solfec._solfec.node_to_face_skin(sol._domain, skin)
    RUN(sol, GAUSS_SEIDEL_SOLVER(1e-10, 1000, meritval=1e-16), 50 * H)
    keys = sorted((c.adjbod[0].id, c.adjbod[1].id, round(c.gap, 12)) for c in
                  contacts(low) + contacts(top))
    stats = solfec._solfec.node_to_face_stats(sol._domain)
    return (np.array(low.conf), np.array(top.conf), keys, stats["elementary_pairs"],
            stats["skin_kept"])


def test_steps_searched_by_the_classic_bvh_or_brute_force_run_identically(tmp_path):
    # Every search method finds the same contacts in the same order, so a run whose steps
    # use the classic BVH or the brute force (the benchmark times each over a run of its
    # own, as the paper's Table 3) is the three-stage run, bit for bit.
    ref = stacked_blocks_run(str(tmp_path / "a"), "THREE_STAGE")
    assert len(ref[2]) >= 18  # both blocks in contact
    pairs = ref[3]
    for i, method in enumerate(("CLASSIC_BVH", "BRUTE_FORCE_BOXED")):
        low, top, keys, p, _ = stacked_blocks_run(str(tmp_path / f"b{i}"), method)
        assert np.array_equal(low, ref[0]) and np.array_equal(top, ref[1])
        assert keys == ref[2]
        # The steps did use the method: the classic tests each node once per face around
        # it, the brute force every node against every face.
        assert p > pairs
        pairs = p


def test_skin_keeps_stage_two_pairs_and_the_run_is_the_same_bit_for_bit(tmp_path):
    # The three-stage search keeps a pass's node-face pairs while its surfaces stay within
    # the skin (default 0.05 of the mean face size): the blocks at rest keep them, and the
    # run is the one searched afresh each step (skin 0), bit for bit, with the same pairs
    # given to the local test.
    kept = stacked_blocks_run(str(tmp_path / "a"), "THREE_STAGE")
    fresh = stacked_blocks_run(str(tmp_path / "b"), "THREE_STAGE", skin=0.0)
    assert len(kept[2]) >= 18  # both blocks in contact
    assert np.array_equal(kept[0], fresh[0]) and np.array_equal(kept[1], fresh[1])
    assert kept[2] == fresh[2] and kept[3] == fresh[3]
    assert kept[4] >= 2 and fresh[4] == 0  # the last step kept its passes' pairs


def test_skin_rejects_negative_and_non_finite_values(outdir):
    sol, _ = model(outdir)
    for bad in (-0.1, float("nan"), float("inf")):
        with pytest.raises(ValueError, match="node_to_face_skin.*'skin'"):
            solfec._solfec.node_to_face_skin(sol._domain, bad)


def test_run_method_rejects_unknown_method(outdir):
    sol, _ = model(outdir)
    with pytest.raises(ValueError, match="set_run_method.*'method'"):
        reference_searches().set_run_method(sol._domain, "OCTREE")


def test_accumulated_stage_times_are_the_sums_of_the_steps_and_reset(outdir):
    # The benchmark's in-run stage split: node_to_face_stats' "accumulated_stages" is the sum,
    # over the searches since the last reset, of each search's stage times.
    sol, bulk = model(outdir)
    fe_block(sol, bulk, 0.002)
    gs = GAUSS_SEIDEL_SOLVER(1e-10, 1000, meritval=1e-16)
    core = solfec._solfec
    RUN(sol, gs, H)
    core.node_to_face_reset_timer(sol._domain)
    assert core.node_to_face_stats(sol._domain)["accumulated_stages"] == {
        "refresh": 0.0, "octree": 0.0, "bvh": 0.0, "local": 0.0}
    sums = dict.fromkeys(("refresh", "octree", "bvh", "local"), 0.0)
    for _ in range(5):
        RUN(sol, gs, H)
        st = core.node_to_face_stats(sol._domain)
        for k in sums:
            sums[k] += st[k]
    st = core.node_to_face_stats(sol._domain)
    assert st["searches"] == 5
    for k, v in sums.items():
        assert st["accumulated_stages"][k] == pytest.approx(v, rel=1e-12, abs=1e-15)
    assert st["accumulated_stages"]["refresh"] > 0.0 and st["accumulated_stages"]["local"] > 0.0
